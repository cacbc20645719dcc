#!/bin/bash
# Multi-IPU graphs on a group of cards (host side of vm-group-check): boot
# an M2000 (4 test-model cards on an m2000 fabric) with a QMP socket served
# to the guest by tests/common/qmp-serve.py, run ipu_exec_group,
# ipu_group_streams, ipu_group_pipeline and ipu_train_group_vm.sh there, and check the guest
# kernel log. KTAP to stdout: the tests' results (numbered in that order),
# then the log's verdict. Usage: run.sh REPO BUILD [NAME [IPU-VM OPTIONS...]]
set -u
REPO=$1 B=$2
name=${3:-vm-group}
shift $(($# < 3 ? $# : 3))
share=$B/$name-share
rm -rf "$share" && mkdir -p "$share/qmp"
cat >"$share/guest.sh" <<'GUEST'
#!/bin/sh
IPU_QMP_DIR=/mnt/host/qmp /tests/ipu_exec_group >/mnt/host/group.ktap 2>&1
/tests/ipu_group_streams >>/mnt/host/group.ktap 2>&1
/tests/ipu_group_pipeline >>/mnt/host/group.ktap 2>&1
/tests/ipu_train_group_vm.sh >>/mnt/host/group.ktap 2>&1
GUEST

"$REPO/tools/ipu-vm" -q -n 4 --topology m2000 --models test "$@" --share "$share" --timeout 900 \
	--dmesg "$share/dmesg" \
	--qemu-arg -qmp --qemu-arg "unix:$share/qmp.sock,server=on,wait=off" \
	-- sh ./guest.sh >"$share/guest.log" 2>&1 &
vm=$!
python3 "$REPO/tests/common/qmp-serve.py" "$share/qmp.sock" "$share/qmp" \
	>"$share/qmp-serve.log" 2>&1 &
qmp=$!
wait $vm
vm_rc=$?
kill $qmp 2>/dev/null	# it ends with QEMU; never wait on it
wait $qmp 2>/dev/null

echo "KTAP version 1"
if [ -f "$share/group.ktap" ] && grep -qE '^(not )?ok ' "$share/group.ktap"; then
	n=$(grep -cE '^(not )?ok [0-9]+ ' "$share/group.ktap")
	echo "1..$((n + 1))"
	grep -E '^(ok |not ok |#)' "$share/group.ktap" |
		awk '/^(not )?ok [0-9]+ / { k++; sub(/ok [0-9]+ /, "ok " k " ") } 1'
else
	n=1
	echo "1..2"
	echo "not ok 1 $name: ipu_exec_group ran # VM status $vm_rc"
	sed 's/^/# /' "$share/guest.log" | tail -20
fi
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" 0 "$name" |
	awk -v n=$((n + 1)) '/^(not )?ok 2 / { sub(/ok 2 /, "ok " n " "); p = 1 } p'
