#!/bin/bash
# Host tests of ipu-bench --links and --host-sync on the model device.
# Usage: run.sh BUILD_DIR; KTAP on stdout.
#   - --links: the pairs listed are exactly those the model's topology
#     joins (m2000: the rungs 0-1, 2-3 with 2 links, the rails 0-2, 1-3
#     with 1; a ring of 2; the 24 pairs of a POD16), each moved 2 x --size
#     bytes on the whole device's id, its modelled bandwidth within the
#     links' limit (docs/cost-model.md: 32 GB/s per link and direction);
#     the tool checks every copy's bytes and fails otherwise; the table
#     lists the same pairs; the JSON parses;
#   - --host-sync: COUNT syncs (4095 by default), their total and the
#     per-sync time agree, an external sync of 4 IPUs models 1300 cycles;
#   - bad arguments, a --size beyond the tiles' memory and no cards: a
#     clear message and the documented exit code (2 usage, 1 run time, 3
#     no card).
set -u
B=$1
BENCH=$B/tools/ipu-bench
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../library/ktap.sh"
. "$HERE/checks.sh"

M2000="0-1:2 0-2:1 1-3:1 2-3:2"
if "$BENCH" --links -m gc200 --size 1M --count 2 --json >"$TMP/m2000.json" 2>"$TMP/err"; then
	links_json links_m2000_pairs_bytes_json "$TMP/m2000.json" 1048576 "$M2000" 6 4
	check links_m2000_rung_twice_a_rail "$TMP/m2000.json" "
g = {(p['ipu_a'], p['ipu_b']): p['modelled_gbps'] for p in j['pairs']}
assert g[(0, 1)] > 1.5 * g[(0, 2)], g"
else
	add fail links_m2000_pairs_bytes_json "$(head -c 240 "$TMP/err")"
fi
if "$BENCH" --links -m test --ipus 2 --size 64K --count 1 --json >"$TMP/ring2.json" 2>"$TMP/err"; then
	links_json links_ring_of_2 "$TMP/ring2.json" 65536 "0-1:2" 2 2
else
	add fail links_ring_of_2 "$(head -c 240 "$TMP/err")"
fi
POD16="0-1:2 0-2:1 0-14:1 1-3:1 1-15:1 2-3:2 2-4:1 3-5:1 4-5:2 4-6:1 5-7:1 6-7:2 6-8:1 7-9:1 8-9:2 8-10:1 9-11:1 10-11:2 10-12:1 11-13:1 12-13:2 12-14:1 13-15:1 14-15:2"
if "$BENCH" --links -m test --ipus 16 --size 4K --count 1 --json >"$TMP/pod16.json" 2>"$TMP/err"; then
	links_json links_pod16_pairs "$TMP/pod16.json" 4096 "$POD16" 30 16
else
	add fail links_pod16_pairs "$(head -c 240 "$TMP/err")"
fi
if "$BENCH" --links -m test --size 16K --count 1 >"$TMP/table" 2>"$TMP/err"; then
	rows=$(awk 'NR > 2 { printf "%s%s:%s", (NR > 3 ? " " : ""), $1, $2 }' "$TMP/table")
	if [ "$rows" = "$M2000" ] && grep -q "PAIR.*MOD_GB/s.*HOST_GB/s" "$TMP/table"; then
		add ok links_table_lists_the_pairs
	else
		add fail links_table_lists_the_pairs "rows '$rows'"
	fi
else
	add fail links_table_lists_the_pairs "$(head -c 240 "$TMP/err")"
fi

if "$BENCH" --host-sync -m test --json >"$TMP/sync1.json" 2>"$TMP/err"; then
	host_sync_json host_sync_default_4095 "$TMP/sync1.json" 4095 1 500
else
	add fail host_sync_default_4095 "$(head -c 240 "$TMP/err")"
fi
if "$BENCH" --host-sync -m test --ipus 4 --count 50 --json >"$TMP/sync4.json" 2>"$TMP/err"; then
	host_sync_json host_sync_4_ipus_external_sync "$TMP/sync4.json" 50 4 1300
else
	add fail host_sync_4_ipus_external_sync "$(head -c 240 "$TMP/err")"
fi
expect host_sync_table 0 "time to sync" "$BENCH" --host-sync -m test --count 10

expect help_names_the_modes 0 "--host-sync" "$BENCH" --help
expect bad_both_modes 2 "exclude each other" "$BENCH" --links --host-sync -m test
expect bad_ipus_3 2 "--ipus: '3' is not 1, 2, 4, 8 or 16" "$BENCH" --links -m test --ipus 3
expect bad_ipus_without_model 2 "give --model too" "$BENCH" --links --ipus 4
expect bad_links_one_ipu 2 "needs 2 IPUs" "$BENCH" --links -m test --ipus 1
expect bad_model_name 2 "unknown model 'nosuch'" "$BENCH" --links -m nosuch
expect bad_size 2 "--size: '6' is not a size" "$BENCH" --links -m test --size 6
expect bad_count 2 "--count: '0' is not a count" "$BENCH" --host-sync -m test --count 0
expect bad_links_with_device 2 "--device does not go with it" "$BENCH" --links -d 0
expect bad_links_with_host_option 2 "do not go with --links" "$BENCH" --links -m test --min 4K
expect bad_model_in_default_mode 2 "go with --links or --host-sync" "$BENCH" -m test
expect bad_size_with_host_sync 2 "--size goes with --links" "$BENCH" --host-sync -m test --size 4K
expect bad_missing_argument 2 "needs an argument" "$BENCH" --links -m
expect links_size_beyond_tile_memory 1 "tile 0 out of memory" "$BENCH" --links -m test --size 16M
expect bad_operand 2 "unexpected argument 'x'" "$BENCH" --links -m test x
if [ -d /sys/class/ipu ]; then
	add skip links_no_cards "this host has /sys/class/ipu"
	add skip host_sync_no_cards "this host has /sys/class/ipu"
else
	expect links_no_cards 3 "no IPU" "$BENCH" --links
	expect host_sync_no_cards 3 "no IPU" "$BENCH" --host-sync
fi

ktap_print
