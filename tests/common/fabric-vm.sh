#!/bin/bash
# Host side of a VM run on an IPU-Link fabric (make's vm-pod16-check): boot
# one VM with CARDS test-model cards joined as TOPOLOGY (tools/ipu-vm
# --topology, which sets IPU_VM_TOPOLOGY in the guest) and a QMP socket
# served to the guest by tests/common/qmp-serve.py (IPU_QMP_DIR), run the
# named programs of /tests there with run-tests.sh, and write to RESULTS
# one KTAP file per program (NAME-PROGRAM.ktap) and the guest kernel log's
# verdict (NAME-kernel-log.ktap, scripts/dmesg-check.sh), as vm_run of
# mk/vm.mk does for the ordinary VM. The test programs take the topology
# and its size from IPU_VM_TOPOLOGY and the cards they find.
# Usage: fabric-vm.sh REPO BUILD RESULTS NAME TOPOLOGY CARDS PROGRAM...
set -u
REPO=$1 B=$2 results=$3 name=$4 topo=$5 cards=$6
shift 6
share=$B/$name-share
rm -rf "$share" && mkdir -p "$share/qmp" "$share/results" "$results"

"$REPO/tools/ipu-vm" -q -n "$cards" -m test --topology "$topo" --share "$share" \
	--timeout 1500 --dmesg "$share/dmesg" \
	--qemu-arg -qmp --qemu-arg "unix:$share/qmp.sock,server=on,wait=off" \
	-- sh -c "IPU_QMP_DIR=/mnt/host/qmp /tests/run-tests.sh /mnt/host/results $*" \
	>"$share/guest.log" 2>&1 &
vm=$!
python3 "$REPO/tests/common/qmp-serve.py" "$share/qmp.sock" "$share/qmp" \
	>"$share/qmp-serve.log" 2>&1 &
qmp=$!
wait $vm
vm_rc=$?
kill $qmp 2>/dev/null	# it ends with QEMU; never wait on it
wait $qmp 2>/dev/null

for t in "$@"; do
	f=$share/results/$t.ktap
	if [ -f "$f" ] && grep -qE '^(not )?ok ' "$f"; then
		cp "$f" "$results/$name-$t.ktap"
	else
		{
			printf 'KTAP version 1\n1..1\nnot ok 1 %s: %s ran # VM status %s\n' \
				"$name" "$t" "$vm_rc"
			sed 's/^/# /' "$share/guest.log" | tail -20
		} >"$results/$name-$t.ktap"
	fi
done
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" "$vm_rc" "$name" >"$results/$name-kernel-log.ktap"
