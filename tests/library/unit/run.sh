#!/bin/bash
# Host tests of libipudev and the tools ipu-info / ipu-reset (no card
# needed). Usage: run.sh BUILD_DIR UNIT_BINARY; writes KTAP to stdout.
# Exits 0 when nothing failed.
set -u
B=$1
UNIT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
INFO=$B/tools/ipu-info
RESET=$B/tools/ipu-reset
LINKS=$B/tools/ipu-links
SO=$B/lib/libipudev.so.1.0.0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$HERE/../ktap.sh"
# expect_rc NAME RC REGEX_OR_EMPTY STREAM(out|err) COMMAND...
expect_rc() {
	local name=$1 want=$2 re=$3 stream=$4; shift 4
	"$@" >"$TMP/o" 2>"$TMP/e"; local rc=$?
	if [ "$rc" != "$want" ]; then
		add fail "$name" "exit $rc, want $want: $(head -c 200 "$TMP/e" | tr '\n' ' ')"
	elif [ -n "$re" ] && ! grep -qE -- "$re" "$TMP/${stream:0:1}"; then
		add fail "$name" "no /$re/ in std$stream: $(head -c 200 "$TMP/${stream:0:1}" | tr '\n' ' ')"
	else
		add ok "$name"
	fi
}
json_ok() { python3 -m json.tool "$1" >/dev/null; }

# --- unit tests (C) ---------------------------------------------------------
"$UNIT" >"$TMP/unit" 2>&1
urc=$?
# The kselftest harness numbers its results and logs why a test failed on
# "# " lines; keep those as comments before the result they explain.
while IFS= read -r l; do
	case "$l" in
	"ok "*"# SKIP"*) name=${l#ok [0-9]* }; add skip "unit: ${name%% # SKIP*}" "${name#* # SKIP}" ;;
	"ok "*) add ok "unit: ${l#ok [0-9]* }" ;;
	"not ok "*" # "*) name=${l#not ok [0-9]* }; add fail "unit: ${name%% # *}" "${name#* # }" ;;
	"not ok "*) add fail "unit: ${l#not ok [0-9]* }" "see the log above" ;;
	"# "*.[ch]:[0-9]*) lines+=("$l") ;;
	esac
done <"$TMP/unit"
[ "$urc" -le 1 ] || add fail "unit: exits cleanly" "exit $urc: $(tail -c 200 "$TMP/unit")"

# --- library build artefacts ------------------------------------------------
check "lib: SONAME is libipudev.so.1" \
	sh -c "readelf -d '$SO' | grep -q 'SONAME.*\[libipudev.so.1\]'"
check "lib: symlinks" \
	sh -c "[ \"\$(readlink '$B/lib/libipudev.so.1')\" = libipudev.so.1.0.0 ] && \
	       [ \"\$(readlink '$B/lib/libipudev.so')\" = libipudev.so.1.0.0 ]"
check "lib: static archive" sh -c "ar t '$B/lib/libipudev.a' | grep -q '^device.o$'"
check "lib: header installed" cmp -s "$REPO/libipudev/ipudev.h" "$B/include/ipudev.h"

# Exports: exactly the IPU_API functions of ipudev.h, all versioned.
sed -n 's/^IPU_API[^(]*[ *]\(ipu_[a-z0-9_]*\)(.*/\1/p' "$REPO/libipudev/ipudev.h" \
	| sort -u >"$TMP/declared"
nm -D --defined-only "$SO" | awk '$2 == "T" || $2 == "D" || $2 == "B" {print $3}' \
	| sed 's/@.*//' | sort -u >"$TMP/exported"
if diff -u "$TMP/declared" "$TMP/exported" >"$TMP/diff"; then
	add ok "lib: exports == IPU_API declarations ($(wc -l <"$TMP/declared"))"
else
	add fail "lib: exports == IPU_API declarations" "$(grep '^[-+]i' "$TMP/diff" | tr '\n' ' ')"
fi
check "lib: every export versioned LIBIPUDEV_1.0" \
	sh -c "! nm -D --defined-only '$SO' | awk '\$2==\"T\"' | grep -v '@@LIBIPUDEV_1'"

# A consumer built with pkg-config, the header alone and with the uAPI/model
# headers (no clashing definitions), strict flags.
cat >"$TMP/consumer.c" <<'EOF'
#include <ipudev.h>
#ifdef WITH_KERNEL_HEADERS
#include <linux/ipu.h>
#include <ipu/ipu_models.h>
#endif
#include <stdio.h>
int main(void)
{
	struct ipu_error e;
	struct ipu_card *c;
	size_t n;
	int r = ipu_enumerate(&c, &n, &e);
	if (r == 0)
		ipu_cards_free(c);
	printf("%s %s %d\n", ipu_version(), ipu_model_name(IPU_MODEL_GC200), r < 0);
	return 0;
}
EOF
export PKG_CONFIG_PATH=$B/lib/pkgconfig
check "pkg-config: consumer builds and runs" sh -c "
	gcc -std=c11 -Wall -Wextra -Werror -pedantic \$(pkg-config --cflags libipudev) \
		-o '$TMP/consumer' '$TMP/consumer.c' \$(pkg-config --libs libipudev) \
		-Wl,-rpath,'$B/lib' && '$TMP/consumer' | grep -q '^1.0.0 gc200 '"
check "header: coexists with linux/ipu.h and ipu_models.h" \
	gcc -std=c11 -Wall -Wextra -Werror -DWITH_KERNEL_HEADERS -I"$B/include" \
		-I"$REPO/include" -I"$REPO/include/uapi" -fsyntax-only "$TMP/consumer.c"
check "header: compiles as C++" sh -c "command -v g++ >/dev/null || exit 0; \
	g++ -x c++ -Wall -Wextra -Werror -fsyntax-only -I'$B/include' '$TMP/consumer.c'"

# --- tools: command line ----------------------------------------------------
for t in ipu-info ipu-reset ipu-links; do
	T=$B/tools/$t
	expect_rc "$t --help: exit 0, usage on stdout" 0 "^Usage: $t" out "$T" --help
	expect_rc "$t -h" 0 "^Usage: $t" out "$T" -h
	expect_rc "$t --version" 0 "^$t \\(libipudev\\) 1\\.0\\.0$" out "$T" --version
	expect_rc "$t unknown option: exit 2" 2 "unknown option '--frobnicate'" err "$T" --frobnicate
	expect_rc "$t unknown short option: exit 2" 2 "unknown option '-Z'" err "$T" -Z
	expect_rc "$t -d without argument: exit 2" 2 "needs an argument" err "$T" -d
	expect_rc "$t -d abc: exit 2" 2 "invalid card id 'abc'" err "$T" -d abc
	expect_rc "$t -d -1: exit 2" 2 "invalid card id" err "$T" -d -1
	expect_rc "$t extra argument: exit 2" 2 "unexpected argument 'zz'" err "$T" zz
done
expect_rc "ipu-reset without -d/--all: exit 2" 2 "either -d N or --all" err "$RESET"
expect_rc "ipu-reset -d 0 --all: exit 2" 2 "either -d N or --all" err "$RESET" -d 0 --all
expect_rc "ipu-reset --timeout 60001: exit 2" 2 "invalid timeout '60001'" err "$RESET" --all --timeout 60001
expect_rc "ipu-reset --timeout x: exit 2" 2 "invalid timeout" err "$RESET" --all -t x
expect_rc "ipu-info -i -l: exit 2" 2 "-i shows details" err "$INFO" -i -l
expect_rc "ipu-info --links -i: exit 2" 2 "-i shows details" err "$INFO" --links -i
expect_rc "ipu-links --topology --json: exit 2" 2 "does not go with --json" err "$LINKS" -t -j
expect_rc "ipu-info --help names -l, -i, --links" 0 "--links" out "$INFO" --help

# --- tools without a driver -------------------------------------------------
if [ -d /sys/class/ipu ]; then
	for x in "ipu-info" "ipu-info --json" "ipu-info -d 0" "ipu-reset -d 0"; do
		add skip "no driver: $x exits 3" "the ipu driver is loaded on this host"
	done
	if "$INFO" --json >"$TMP/live.json" 2>/dev/null; then
		check "live: ipu-info --json is valid JSON" json_ok "$TMP/live.json"
	fi
else
	hint="no IPU found: is the ipu module loaded\\? \\(modprobe ipu\\)"
	expect_rc "no driver: ipu-info exits 3 with hint" 3 "$hint" err "$INFO"
	expect_rc "no driver: ipu-info says why" 3 "driver ipu.ko not loaded \\(/sys/class/ipu missing\\)" err "$INFO"
	expect_rc "no driver: ipu-info --json exits 3, empty stdout" 3 "" out \
		sh -c "'$INFO' --json >'$TMP/j' 2>/dev/null; rc=\$?; [ -s '$TMP/j' ] && exit 9; exit \$rc"
	expect_rc "no driver: ipu-info -d 0 exits 3" 3 "$hint" err "$INFO" -d 0
	expect_rc "no driver: ipu-reset -d 0 exits 3" 3 "$hint" err "$RESET" -d 0
	expect_rc "no driver: ipu-reset --all --json exits 3" 3 "$hint" err "$RESET" --all --json
	expect_rc "no driver: ipu-info -l exits 3" 3 "$hint" err "$INFO" -l
	expect_rc "no driver: ipu-info --links exits 3" 3 "$hint" err "$INFO" --links
	expect_rc "no driver: ipu-links exits 3" 3 "$hint" err "$LINKS"
	expect_rc "no driver: ipu-links --json exits 3" 3 "$hint" err "$LINKS" --json
fi

# --- output formats with synthetic cards (tools/common.c printers) ----------
for d in list detail detail-noinfo; do
	"$UNIT" --dump-$d >"$TMP/$d.json" 2>&1
	check "json: $d output is valid JSON" json_ok "$TMP/$d.json"
done
check "json: list has the fields" python3 - "$TMP/list.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["ipus"]
assert len(c) == 3, c
want = {"id", "name", "device_node", "pci_address", "pci_vendor", "pci_device",
        "model", "architecture", "serial", "tiles", "tile_memory", "total_memory",
        "firmware_version", "driver_version", "state", "card_index",
        "reset_count", "link_speed", "link_width", "numa_node"}
assert set(c[0]) == want, set(c[0]) ^ want
assert c[0]["link_speed"] == "16.0 GT/s" and c[0]["link_width"] == 16
assert c[1]["serial"] == "we\"ird\\ser\n\x01\ufffd", repr(c[1]["serial"])
assert c[1]["numa_node"] == 0 and c[0]["numa_node"] is None
assert c[1]["link_speed"] is None and c[1]["driver_version"] is None
assert c[1]["state"] == "bo\tgus"
assert c[2]["model"] == "test" and c[2]["total_memory"] == 32 * 65536
assert c[0]["pci_vendor"] == "0x1ee7"
EOF
check "json: detail has the fields" python3 - "$TMP/detail.json" "$TMP/detail-noinfo.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("board_serial_number", "board_type", "ipu_architecture",
          "firmware_version", "driver_version", "clock_khz", "link_speed",
          "link_width", "numa_node", "pci_id", "tiles", "tile_memory",
          "total_memory", "threads", "threads_per_tile", "state",
          "reset_count", "device_node"):
    assert k in d, k
assert d["clock_khz"] == 1330000 and d["threads"] == 1472 * 6
assert d["ipu_architecture"] == "ipu2" and d["reset_count"] == 3
n = json.load(open(sys.argv[2]))
assert n["clock_khz"] is None and n["threads"] is None and n["state"] == "bo\tgus"
EOF
"$UNIT" --dump-text >"$TMP/text" 2>&1
check "text: -d keys in gc-info style" sh -c "
	for k in 'board serial number' 'board type' 'ipu architecture' \
		'firmware version' 'driver version' 'clock' 'link speed' \
		'link width' 'numa node' 'pci id' 'tiles' 'tile memory' \
		'total memory' 'threads' 'state' 'reset count' 'device node'; do
		grep -q \"^\$k: \" '$TMP/text' || { echo \"missing \$k\"; exit 1; }
	done
	grep -qx 'clock: 1330MHz' '$TMP/text' &&
	grep -qx 'threads: 8832' '$TMP/text' &&
	grep -qx 'tile memory: 638976 bytes (624 KiB)' '$TMP/text' &&
	grep -qx 'numa node: n/a' '$TMP/text'"
"$UNIT" --dump-table >"$TMP/table" 2>&1
check "text: table header and rows" sh -c "
	head -1 '$TMP/table' | grep -q '^ID  PCI  *MODEL  *SERIAL  *TILES  *MEMORY  *FIRMWARE  *DRIVER  *STATE  *PCIE LINK  *NUMA$' &&
	[ \$(wc -l <'$TMP/table') = 4 ] &&
	grep -q '^0  *0000:00:04.0  *gc200  *IPU-0-gc200  *1472  *897 MiB  *1.4.0  *1.0.0  *ready  *16.0 GT/s x16  *-$' '$TMP/table' &&
	grep -q ' test  .* 2 MiB ' '$TMP/table'"

# --- device ids, groups and links on topologies given as data -------------
# (tools/topo_view.c, topo_ladder.c; the topologies: unit.c make_topo())
topo() { "$UNIT" --topo "$@" >"$TMP/topo" 2>&1; }
topo m2000 devices
check "ipu-info -l: M2000 singles and groups 4, 5, 6 as gc-info -l" sh -c "
	[ \$(grep -c '^-+- Id: ' '$TMP/topo') = 7 ] &&
	grep -qx -- '-+- Id: \[0\], target: \[PCIe\], IPU: \[ipu0\], model: \[\], serial: \[IPU-SN-0000\], PCI: \[\]' '$TMP/topo' &&
	grep -A2 -x -- '-+- Id: \[4\], target: \[Multi IPU\], IPUs: \[2\]' '$TMP/topo' | grep -qx -- ' |--- Id: \[1\], DNC Id: \[1\], IPU: \[ipu1\], serial: \[IPU-SN-0001\]' &&
	grep -A2 -x -- '-+- Id: \[5\], target: \[Multi IPU\], IPUs: \[2\]' '$TMP/topo' | grep -qx -- ' |--- Id: \[2\], DNC Id: \[0\], IPU: \[ipu2\], serial: \[IPU-SN-0002\]' &&
	[ \$(grep -A4 -x -- '-+- Id: \[6\], target: \[Multi IPU\], IPUs: \[4\]' '$TMP/topo' | grep -c '^ |--- ') = 4 ]"
topo m2000-rung-down devices
check "ipu-info -l: a rung down drops its pair only" sh -c "
	grep -q 'Id: \[4\], target: \[Multi' '$TMP/topo' && grep -q 'Id: \[6\], target: \[Multi' '$TMP/topo' &&
	! grep -q 'Id: \[5\]' '$TMP/topo'"
topo pod16 devices
check "ipu-info -l: POD16 ids 0-30" sh -c "
	[ \$(grep -c '^-+- Id: ' '$TMP/topo') = 31 ] &&
	[ \$(grep -c 'target: \[Multi IPU\], IPUs: \[2\]' '$TMP/topo') = 8 ] &&
	[ \$(grep -c 'target: \[Multi IPU\], IPUs: \[4\]' '$TMP/topo') = 4 ] &&
	grep -q '^-+- Id: \[29\], target: \[Multi IPU\], IPUs: \[8\]' '$TMP/topo' &&
	grep -q '^-+- Id: \[30\], target: \[Multi IPU\], IPUs: \[16\]' '$TMP/topo'"
topo m2000 devices-json
check "json: devices of the M2000" python3 - "$TMP/topo" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["devices"]
assert [x["id"] for x in d] == list(range(7)), d
assert [x["members"] for x in d[4:]] == [[0, 1], [2, 3], [0, 1, 2, 3]]
assert d[6]["type"] == "multi" and d[6]["size"] == 4 and d[6]["ipus"][3] == "ipu3"
assert d[0]["type"] == "single" and d[0]["members"] == [0]
PY
topo m2000 detail
check "ipu-info -d 6: the group and a card's link lines" sh -c "
	grep -qx 'id: 6' '$TMP/topo' && grep -qx 'type: Multi IPU' '$TMP/topo' &&
	grep -qx 'num ipus: 4' '$TMP/topo' && grep -qx 'members: 0 1 2 3' '$TMP/topo' &&
	grep -qx 'member 2: ipu2 (IPU-SN-0002)' '$TMP/topo' &&
	grep -qx 'fabric index: 1' '$TMP/topo' && grep -qx 'ipu-link ports: 10' '$TMP/topo' &&
	grep -qx 'ipu-links up: 3' '$TMP/topo' &&
	grep -qx 'ipu-link correctable error count: 303' '$TMP/topo' &&
	grep -qx 'ipu-link uncorrectable error count: 0' '$TMP/topo'"
topo m2000-rung-down links
check "ipu-links: one row per channel (M2000: 2 rungs x 2, 2 rails)" sh -c "
	head -1 '$TMP/topo' | grep -q '^FROM  *TO  *STATE  *GEN  *LANES  *FOM  *CORR  *UNCORR$' &&
	[ \$(wc -l <'$TMP/topo') = 7 ] &&
	grep -qE '^ipu0:2 +ipu2:3 +up +4 +8 +200 +205 +0$' '$TMP/topo' &&
	grep -qE '^ipu2:0 +ipu3:0 +down +0 +0 ' '$TMP/topo' &&
	grep -qE '^ipu2:1 +ipu3:1 +failed ' '$TMP/topo' &&
	! grep -qE '^ipu(1:[01]|3):' '$TMP/topo'"
topo ring3 links-all
check "ipu-links --all: unwired ports and a peer elsewhere" sh -c "
	[ \$(wc -l <'$TMP/topo') = 28 ] &&
	grep -qE '^ipu2:5 +FAR-AWAY:4 +down ' '$TMP/topo' &&
	grep -qE '^ipu0:9 +- +down ' '$TMP/topo' &&
	grep -qE '^ipu0:0 +ipu1:1 +up ' '$TMP/topo' && grep -qE '^ipu1:0 +ipu2:1 +up ' '$TMP/topo'"
topo pod16 links-json
check "json: ipu-links of the POD16, one record per channel" python3 - "$TMP/topo" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["channels"]
assert d["num_ipus"] == 16 and d["link_information"] is True
assert len(c) == 16 + 14 + 2, len(c)
assert d["overall_result"] == "failed" and d["channels_up"] == 31
down = [x for x in c if x["state"] != "up"]
assert [(x["from"], x["to"]) for x in down] == [("ipu5:2", "ipu7:3")], down
want = {"from", "to", "from_ipu", "from_port", "from_serial", "to_ipu", "to_port",
        "to_serial", "state", "from_state", "to_state", "gen", "lanes", "fom",
        "errors_corr", "errors_uncorr"}
assert set(c[0]) == want, set(c[0]) ^ want
assert c[0]["from"] == "ipu0:0" and c[0]["to"] == "ipu1:0" and c[0]["gen"] == 4
assert ("ipu0:3", "ipu14:2") in [(x["from"], x["to"]) for x in c]
PY
topo nolinks links-json
check "json: no IPU-Link information" python3 -c "
import json
d = json.load(open('$TMP/topo'))
assert d['link_information'] is False and d['channels'] == [] and d['overall_result'] == 'none'"
topo m2000-rung-down ladder
cat >"$TMP/want" <<'TXT'
IPU-Link topology of 4 IPUs (pairs across, rails down; (up/links)):

ipu0  ==(2/2)== ipu1
 |               |
ipu2  xx(0/2)xx ipu3

rungs: == all up, =- some up, xx none up; rails: | up, : some up, x down
TXT
check "ipu-links --topology: the M2000 ladder" diff -u "$TMP/want" "$TMP/topo"
topo pod16 ladder
check "ipu-links --topology: the POD16 ladder, a rail down, the closing links" sh -c "
	[ \$(grep -c '==(2/2)==' '$TMP/topo') = 8 ] &&
	sed -n '8p' '$TMP/topo' | grep -qx ' |               x' &&
	grep -qx '  ipu0 - ipu14 (1/1)' '$TMP/topo' && grep -qx '  ipu1 - ipu15 (1/1)' '$TMP/topo'"

# --- ipu-links on a fake sysfs (root only: a mount namespace of its own) ----
fake() { unshare -m "$HERE/fake_sysfs.sh" "$UNIT" "$@"; }
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	fake m2000 "$LINKS" >"$TMP/fk" 2>&1
	check "fake sysfs: ipu-links lists the M2000's 6 channels" sh -c "
		[ \$(grep -c '^ipu' '$TMP/fk') = 6 ] && grep -qE '^ipu1:2 +ipu3:3 +up +4 +8 ' '$TMP/fk'"
	fake m2000-rung-down "$LINKS" --json >"$TMP/fk" 2>&1
	check "fake sysfs: ipu-links --json, a rung down" sh -c "
		grep -q '\"overall_result\": \"failed\"' '$TMP/fk' && grep -q '\"channels_up\": 4,' '$TMP/fk'"
	fake m2000 nolinks "$LINKS" >"$TMP/fk" 2>&1; rc=$?
	check "fake sysfs: no IPU-Link information, exit 0" sh -c "
		[ $rc = 0 ] && grep -q '^no IPU-Link information' '$TMP/fk'"
	fake m2000 sh -c "echo bad >/sys/class/ipu/ipu1/links/port0/state; '$LINKS'" >"$TMP/fk" 2>&1; rc=$?
	check "fake sysfs: a malformed file: exit 1, named" sh -c "
		[ $rc = 1 ] && grep -q 'ipu1/links/port0/state: .bad. is not down, training, up or failed' '$TMP/fk'"
	fake m2000 "$LINKS" -d 9 >"$TMP/fk" 2>&1; rc=$?
	check "fake sysfs: ipu-links -d 9 exits 3" sh -c "[ $rc = 3 ] && grep -q 'no IPU with id 9' '$TMP/fk'"
else
	for x in "M2000 channels" "--json, a rung down" "no IPU-Link information" "a malformed file" "-d 9"; do
		add skip "fake sysfs: ipu-links $x" "needs root for a mount namespace"
	done
fi

# --- report -----------------------------------------------------------------
ktap_print
[ "$failed" = 0 ]
