#!/bin/bash
# Boot the VM for a guest test that drives QEMU: a QMP socket in SHARE that
# tests/common/qmp-serve.py serves to the guest through SHARE/qmp (the
# guest's IPU_QMP_DIR=/mnt/host/qmp, tests/common/ipu_host_qmp.h), and
# ./guest.sh of SHARE run in it. The guest's output goes to SHARE/guest.log,
# its kernel log to SHARE/dmesg, qmp-serve's to SHARE/qmp-serve.log.
# Usage: vm-qmp.sh REPO SHARE [IPU-VM OPTIONS...]
# Exit status: tools/ipu-vm's (the guest script's, 124 on timeout).
set -u
REPO=$1 share=$2
shift 2
"$REPO/tools/ipu-vm" -q "$@" --share "$share" --timeout 900 \
	--dmesg "$share/dmesg" \
	--qemu-arg -qmp --qemu-arg "unix:$share/qmp.sock,server=on,wait=off" \
	-- sh ./guest.sh >"$share/guest.log" 2>&1 &
vm=$!
# qmp-serve ends when QEMU closes the socket; bounded by the VM's timeout.
timeout 960 python3 "$REPO/tests/common/qmp-serve.py" "$share/qmp.sock" \
	"$share/qmp" >"$share/qmp-serve.log" 2>&1
wait $vm
