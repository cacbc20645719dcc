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
SO=$B/lib/libipudev.so.1.0.0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$HERE/../ktap.sh"
check() {	# check NAME COMMAND...: ok when the command succeeds
	local name=$1; shift
	if "$@" >"$TMP/out" 2>&1; then add ok "$name"
	else add fail "$name" "$(head -c 300 "$TMP/out" | tr '\n' ' ')"; fi
}
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
for t in ipu-info ipu-reset; do
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

# --- report -----------------------------------------------------------------
ktap_print
[ "$failed" = 0 ]
