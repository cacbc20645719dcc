#!/bin/bash
# The soak (host side of vm-soak-check and vm-debug-soak-check): boot the
# VM with 3 cards of the small test model and a QMP socket served to the
# guest by tests/common/qmp-serve.py, and run ipu_soak_test there
# (guest.sh): 8 processes of random jobs while a controller resets the
# cards and injects faults (tests/driver/soak/soak.h). IPU_SOAK_SEED and
# IPU_SOAK_SECONDS in the environment are passed on (replay a seed).
# KTAP to stdout: the soak's results, under the debug kernel the runner's
# kmemleak and DMA-API results, then the guest kernel log's verdict; the
# wall time of the whole run as a comment.
# Usage: run.sh REPO BUILD [NAME [IPU-VM OPTIONS...]]
set -u
REPO=$1 B=$2
name=${3:-vm-soak}
shift $(($# < 3 ? $# : 3))
share=$B/$name-share
rm -rf "$share" && mkdir -p "$share/results"
cp "$REPO/tests/driver/soak/guest.sh" "$share/"
: >"$share/soak.env"
for v in IPU_SOAK_SEED IPU_SOAK_SECONDS; do
	[ -n "${!v:-}" ] && echo "export $v=${!v}" >>"$share/soak.env"
done
t0=$(date +%s)

"$REPO/tests/common/vm-qmp.sh" "$REPO" "$share" -n 3 -m test "$@"
vm_rc=$?

# The results of the soak and of the runner's debug checks, numbered on.
results() {
	local f n=0
	for f in "$share/results/ipu_soak_test.ktap" "$share/results/kernel-debug.ktap"; do
		[ -f "$f" ] || continue
		awk -v base=$n '
			/^(not )?ok [0-9]+ / { sub(/ok [0-9]+ /, "ok " (base + (++k)) " ") ; print; next }
			/^#/ { print }' "$f"
		n=$((n + $(grep -cE '^(not )?ok [0-9]+ ' "$f")))
	done
}
body=$(results)
n=$(grep -cE '^(not )?ok [0-9]+ ' <<<"$body")
echo "KTAP version 1"
if [ "$n" = 0 ]; then
	n=1
	echo "1..2"
	echo "not ok 1 $name: ipu_soak_test ran # VM status $vm_rc"
	sed 's/^/# /' "$share/guest.log" | tail -20
else
	echo "1..$((n + 1))"
	echo "$body"
fi
echo "# $name: wall time $(($(date +%s) - t0)) s (VM boot to power-off)"
# The guest kernel log (warnings, oopses, checker reports) as the last result.
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" 0 "$name" |
	awk -v n=$((n + 1)) '/^(not )?ok 2 / { sub(/ok 2 /, "ok " n " "); p = 1 } p'
