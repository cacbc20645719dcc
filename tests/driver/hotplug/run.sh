#!/bin/bash
# Hot-unplug of busy cards (host side of `make check`'s hotplug checks):
# boot the VM with a QMP socket; in the guest, ipu-run keeps card 3 busy
# through the library, and ipu-hotplug-holder holds card 2 with a RUN in
# flight, a user queue with its rings and doorbell mapped, a pinned and a
# mapped buffer; then `device_del` both cards from the host. The guest must
# see the cards go (the driver's remove with commands in flight and DMA
# mappings held), close what it held 2 s later without an oops or a hang,
# and the other cards must keep working; QEMU must neither hang nor crash
# while it unrealizes cards whose workers are busy.
# KTAP to stdout. Usage: run.sh REPO BUILD [NAME [IPU-VM OPTIONS...]]
# (e.g. NAME hotplug-iommu with --iommu).
set -u
REPO=$1 B=$2
name=${3:-hotplug}
shift $(($# < 3 ? $# : 3))
share=$B/$name-share
rm -rf "$share" && mkdir -p "$share"
cp "$REPO/tests/driver/hotplug/guest.sh" "$share/"

"$REPO/tools/ipu-vm" -q "$@" --share "$share" --timeout 300 --dmesg "$share/dmesg" \
	--qemu-arg -qmp --qemu-arg "unix:$share/qmp.sock,server=on,wait=off" \
	-- sh ./guest.sh >"$share/guest.log" 2>&1 &
vm=$!

# Wait for the guest to have both cards busy, then unplug them.
for _ in $(seq 1 900); do
	[ -e "$share/busy" ] && [ -e "$share/held" ] && break
	kill -0 $vm 2>/dev/null || break
	sleep 0.2
done
qmp_rc=1
if [ -e "$share/busy" ] && [ -e "$share/held" ]; then
	python3 - "$share/qmp.sock" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rw")
f.readline()                                   # greeting
for cmd in ({"execute": "qmp_capabilities"},
            {"execute": "device_del", "arguments": {"id": "ipu3"}},
            {"execute": "device_del", "arguments": {"id": "ipu2"}}):
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
if [ $qmp_rc = 0 ]; then echo "ok 1 $name: device_del of two busy cards accepted"
else echo "not ok 1 $name: device_del of two busy cards accepted"; fi
if [ $vm_rc = 0 ]; then echo "ok 2 $name: the guest saw the cards go, closed what it held, the others work"
else
	echo "not ok 2 $name: the guest saw the cards go, closed what it held, the others work # VM status $vm_rc"
	sed 's/^/# /' "$share/guest.log" | tail -20
fi
# The guest log check (every checker report of a debug kernel too), as 3.
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" 0 "$name" |
	awk '/^(not )?ok 2 / { sub(/ok 2 /, "ok 3 "); p = 1 } p'
