#!/bin/bash
# Hang detection and recovery through the driver (host side of
# vm-driver-recovery-check): boot the VM with 2 cards and a QMP socket
# served to the guest by tests/common/qmp-serve.py, and run
# ipu_recovery_test there (guest.sh) with IPU_QMP_DIR set: the test injects
# faults into card 0 (docs/hw-interface.md "Fault injection (1.6)").
# KTAP to stdout: the test's results, then the guest kernel log's verdict.
# Usage: run.sh REPO BUILD [NAME [IPU-VM OPTIONS...]]
set -u
REPO=$1 B=$2
name=${3:-vm-driver-recovery}
shift $(($# < 3 ? $# : 3))
share=$B/$name-share
rm -rf "$share" && mkdir -p "$share"
cp "$REPO/tests/driver/recovery/guest.sh" "$share/"

"$REPO/tests/common/vm-qmp.sh" "$REPO" "$share" -n 2 "$@"
vm_rc=$?

echo "KTAP version 1"
if [ -f "$share/ipu_recovery_test.ktap" ]; then
	n=$(grep -cE '^(not )?ok [0-9]+ ' "$share/ipu_recovery_test.ktap")
	echo "1..$((n + 1))"
	grep -E '^(ok |not ok |#)' "$share/ipu_recovery_test.ktap"
else
	n=1
	echo "1..2"
	echo "not ok 1 $name: ipu_recovery_test ran # VM status $vm_rc"
	sed 's/^/# /' "$share/guest.log" | tail -20
fi
# The guest kernel log (warnings, oopses) as the last result.
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" 0 "$name" |
	awk -v n=$((n + 1)) '/^(not )?ok 2 / { sub(/ok 2 /, "ok " n " "); p = 1 } p'
