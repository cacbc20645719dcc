#!/bin/bash
# Hang detection and recovery through the driver (host side of
# vm-driver-recovery-check): boot the VM with 2 cards and a QMP socket
# served to the guest by tests/common/qmp-serve.py, and run
# ipu_recovery_test and ipu_health_test there (guest.sh) with IPU_QMP_DIR
# set: the tests inject faults into card 0 (docs/hw-interface.md "Fault
# injection (1.6)"). KTAP to stdout: the tests' results, under the debug
# kernel the runner's kmemleak and DMA-API results, then the guest kernel
# log's verdict. Usage: run.sh REPO BUILD [NAME [IPU-VM OPTIONS...]] (-msi,
# -intx and the debug kernel variants pass theirs: mk/driver.mk).
set -u
REPO=$1 B=$2
name=${3:-vm-driver-recovery}
shift $(($# < 3 ? $# : 3))
share=$B/$name-share
rm -rf "$share" && mkdir -p "$share"
cp "$REPO/tests/driver/recovery/guest.sh" "$share/"
# IPU_RECOVERY_TESTS picks some of the guest's tests (default: all).
[ -n "${IPU_RECOVERY_TESTS:-}" ] && echo "$IPU_RECOVERY_TESTS" >"$share/tests"

"$REPO/tests/common/vm-qmp.sh" "$REPO" "$share" -n 2 "$@"
vm_rc=$?

# The test's results, then (debug kernel) kmemleak and the DMA-API error
# count, then the guest kernel log's verdict, numbered on.
results=$share/results
ktaps=
for f in ipu_recovery_test kernel-debug; do
	[ -f "$results/$f.ktap" ] && ktaps="$ktaps $results/$f.ktap"
done
echo "KTAP version 1"
# Each test's results, then (debug kernel) kmemleak and the DMA-API error
# count, renumbered into one plan, then the guest kernel log's verdict.
tests=${IPU_RECOVERY_TESTS:-ipu_recovery_test ipu_health_test}
results=$share/results
res=$share/results.lines
: >"$res"
for t in $tests kernel-debug; do
	if [ -f "$results/$t.ktap" ]; then
		grep -E '^(ok |not ok )[0-9]+ ' "$results/$t.ktap" |
			sed -E "s/^(ok|not ok) [0-9]+ /\1 N $t: /" >>"$res"
		grep -E '^#' "$results/$t.ktap" >"$share/$t.diag"
	elif [ "$t" != kernel-debug ]; then
		echo "not ok N $name: $t ran # VM status $vm_rc" >>"$res"
		sed 's/^/# /' "$share/guest.log" | tail -20 >"$share/$t.diag"
	fi
done
n=$(wc -l <"$res")
echo "1..$((n + 1))"
awk '{ sub(/ N /, " " NR " "); print }' "$res"
for t in $tests kernel-debug; do [ -f "$share/$t.diag" ] && cat "$share/$t.diag"; done
# The guest kernel log (warnings, oopses) as the last result.
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" 0 "$name" |
	awk -v n=$((n + 1)) '/^(not )?ok 2 / { sub(/ok 2 /, "ok " n " "); p = 1 } p'
