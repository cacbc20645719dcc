#!/bin/bash
# Hot-unplug of a busy card (host side of `make check`'s hotplug-check):
# boot the VM with a QMP socket, start a long RUN on card 3 in the guest,
# then `device_del` the card from the host. The guest must see the card go
# (the driver's remove with a command in flight), the other cards must keep
# working, and QEMU must neither hang nor crash while it unrealizes a card
# whose worker is busy. KTAP to stdout. Usage: run.sh REPO BUILD
set -u
REPO=$1 B=$2
share=$B/hotplug-share
rm -rf "$share" && mkdir -p "$share"
cp "$REPO/tests/hotplug/guest.sh" "$share/"

"$REPO/tools/ipu-vm" -q --share "$share" --timeout 240 --dmesg "$share/dmesg" \
	--qemu-arg -qmp --qemu-arg "unix:$share/qmp.sock,server=on,wait=off" \
	-- sh ./guest.sh >"$share/guest.log" 2>&1 &
vm=$!

# Wait for the guest to have a run going on card 3, then unplug it.
for _ in $(seq 1 600); do
	[ -e "$share/busy" ] && break
	kill -0 $vm 2>/dev/null || break
	sleep 0.2
done
qmp_rc=1
if [ -e "$share/busy" ]; then
	python3 - "$share/qmp.sock" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rw")
f.readline()                                   # greeting
for cmd in ({"execute": "qmp_capabilities"},
            {"execute": "device_del", "arguments": {"id": "ipu3"}}):
    f.write(json.dumps(cmd) + "\n"); f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            break
    if "error" in r:
        print("# qmp:", r["error"])
        sys.exit(1)
PY
	qmp_rc=$?
fi
wait $vm
vm_rc=$?

echo "KTAP version 1"
echo "1..3"
if [ $qmp_rc = 0 ]; then echo "ok 1 hotplug: device_del of a busy card accepted"
else echo "not ok 1 hotplug: device_del of a busy card accepted"; fi
if [ $vm_rc = 0 ]; then echo "ok 2 hotplug: the guest saw the card go and the others work"
else
	echo "not ok 2 hotplug: the guest saw the card go and the others work # VM status $vm_rc"
	sed 's/^/# /' "$share/guest.log" | tail -20
fi
bad=$(grep -E 'WARNING:|BUG:|Oops|Call Trace:|general protection' "$share/dmesg" 2>/dev/null | head -5)
if [ -s "$share/dmesg" ] && [ -z "$bad" ]; then
	echo "ok 3 hotplug: guest kernel log has no warnings, BUGs or oopses"
else
	echo "not ok 3 hotplug: guest kernel log has no warnings, BUGs or oopses"
	echo "$bad" | sed 's/^/# /'
fi
