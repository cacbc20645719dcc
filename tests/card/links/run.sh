#!/bin/bash
# IPU-Links of 4 cards wired as an M2000 (host side of `make check`'s
# vm-links-check): boot the VM with `--topology m2000` (test model cards,
# to keep it light), a QMP socket served to the guest by
# tests/common/qmp-serve.py and the link trace events in QEMU's log; run
# ipu_link_test (tests/card/links/ipu_link_test.c) in the guest. KTAP to
# stdout: the guest test's results, the QMP service, the kernel log.
# Usage: run.sh REPO BUILD
set -u
REPO=$1 B=$2
name=links
share=$B/$name-share
rm -rf "$share" && mkdir -p "$share/qmp"
cp "$B/tests/ipu_link_test" "$share/"

"$REPO/tools/ipu-vm" -q -n 4 -m test --topology m2000 --share "$share" \
	--timeout 600 --dmesg "$share/dmesg" \
	--qemu-arg -qmp --qemu-arg "unix:$share/qmp.sock,server=on,wait=off" \
	--qemu-arg -trace --qemu-arg 'ipu_link_state' \
	--qemu-arg -trace --qemu-arg 'ipu_fabric_*' \
	-- sh -c 'IPU_QMP_DIR=/mnt/host/qmp ./ipu_link_test >ipu_link_test.ktap 2>&1' \
	>"$share/guest.log" 2>&1 &
vm=$!
python3 "$REPO/tests/common/qmp-serve.py" "$share/qmp.sock" "$share/qmp" \
	2>"$share/qmp-serve.log" &
srv=$!
wait $vm
vm_rc=$?
# qmp-serve ends when QEMU closes the socket; never wait on it for long.
for _ in $(seq 1 50); do
	kill -0 $srv 2>/dev/null || break
	sleep 0.2
done
kill $srv 2>/dev/null
wait $srv
srv_rc=$?

results=$share/ipu_link_test.ktap
n=$(grep -cE '^(not )?ok [0-9]+ ' "$results" 2>/dev/null)
n=${n:-0}
echo "KTAP version 1"
echo "1..$((n + 3))"
awk '/^(not )?ok [0-9]+ / { sub(/ok [0-9]+ /, "ok " ++k " links: "); print; next }
	/^#/ { print }' "$results" 2>/dev/null
if [ $vm_rc = 0 ]; then echo "ok $((n + 1)) links: ipu_link_test passed in the M2000 VM"
else
	echo "not ok $((n + 1)) links: ipu_link_test passed in the M2000 VM # VM status $vm_rc"
	sed 's/^/# /' "$share/guest.log" | tail -20
fi
if [ $srv_rc = 0 ] && [ -e "$share/qmp/ready" ]; then echo "ok $((n + 2)) links: QMP served to the guest"
else
	echo "not ok $((n + 2)) links: QMP served to the guest # qmp-serve status $srv_rc"
	sed 's/^/# /' "$share/qmp-serve.log"
fi
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" 0 "$name" |
	awk -v n=$((n + 3)) '/^(not )?ok 2 / { sub(/ok 2 /, "ok " n " "); p = 1 } p'
