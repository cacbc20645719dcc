#!/bin/bash
# Hang detection and recovery through the driver (host side of
# vm-driver-recovery-check): boot the VM with 2 cards and a QMP socket
# served to the guest by tests/common/qmp-serve.py, and run
# ipu_recovery_test there (guest.sh) with IPU_QMP_DIR set: the test injects
# faults into card 0 (docs/hw-interface.md "Fault injection (1.6)").
# KTAP to stdout: the test's results, under the debug kernel the runner's
# kmemleak and DMA-API results, then the guest kernel log's verdict.
# Usage: run.sh REPO BUILD [NAME [IPU-VM OPTIONS...]] (-msi, -intx and the
# debug kernel variants pass theirs: mk/driver.mk).
set -u
REPO=$1 B=$2
name=${3:-vm-driver-recovery}
shift $(($# < 3 ? $# : 3))
share=$B/$name-share
rm -rf "$share" && mkdir -p "$share"
cp "$REPO/tests/driver/recovery/guest.sh" "$share/"

"$REPO/tools/ipu-vm" -q -n 2 "$@" --share "$share" --timeout 900 \
	--dmesg "$share/dmesg" \
	--qemu-arg -qmp --qemu-arg "unix:$share/qmp.sock,server=on,wait=off" \
	-- sh ./guest.sh >"$share/guest.log" 2>&1 &
vm=$!
# qmp-serve ends when QEMU closes the socket; bounded by the VM's timeout.
timeout 960 python3 "$REPO/tests/common/qmp-serve.py" "$share/qmp.sock" \
	"$share/qmp" >"$share/qmp-serve.log" 2>&1
wait $vm
vm_rc=$?

# The test's results, then (debug kernel) kmemleak and the DMA-API error
# count, then the guest kernel log's verdict, numbered on.
results=$share/results
ktaps=
for f in ipu_recovery_test kernel-debug; do
	[ -f "$results/$f.ktap" ] && ktaps="$ktaps $results/$f.ktap"
done
echo "KTAP version 1"
if [ -f "$results/ipu_recovery_test.ktap" ]; then
	# shellcheck disable=SC2086 # one path per word
	n=$(cat $ktaps | grep -cE '^(not )?ok [0-9]+ ')
	echo "1..$((n + 1))"
	# shellcheck disable=SC2086
	cat $ktaps | grep -E '^(ok |not ok |#)' |
		awk '/^(not )?ok [0-9]+ / { i++; sub(/ok [0-9]+ /, "ok " i " ") } 1'
else
	n=1
	echo "1..2"
	echo "not ok 1 $name: ipu_recovery_test ran # VM status $vm_rc"
	sed 's/^/# /' "$share/guest.log" | tail -20
fi
# The guest kernel log (warnings, oopses) as the last result.
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" 0 "$name" |
	awk -v n=$((n + 1)) '/^(not )?ok 2 / { sub(/ok 2 /, "ok " n " "); p = 1 } p'
