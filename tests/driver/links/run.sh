#!/bin/bash
# IPU-Links through the driver on an M2000 (host side of `make check`'s
# vm-links-check): boot the VM with 4 cards on an m2000 fabric and a QMP
# socket, and run ipu_links_test there (guest.sh) with IPU_QMP_DIR set. The
# test asks for link changes by writing IPU_QMP_DIR/req-N ("PROPERTY VALUE",
# a qom-set on the fabric object f0, docs/hw-interface.md "QMP and HMP
# control"); this script runs each through QMP and answers in resp-N ("ok"
# or the QMP error), so the test alone decides what happens when, and
# checks the uevents, sysfs and the ioctl against it.
# KTAP to stdout: the test's own results, then the guest kernel log's
# verdict. Usage: run.sh REPO BUILD [NAME [IPU-VM OPTIONS...]]
set -u
REPO=$1 B=$2
name=${3:-vm-links}
shift $(($# < 3 ? $# : 3))
share=$B/$name-share
rm -rf "$share" && mkdir -p "$share/qmp"
cp "$REPO/tests/driver/links/guest.sh" "$share/"

"$REPO/tools/ipu-vm" -q -n 4 --topology m2000 "$@" --share "$share" --timeout 900 \
	--dmesg "$share/dmesg" \
	--qemu-arg -qmp --qemu-arg "unix:$share/qmp.sock,server=on,wait=off" \
	-- sh ./guest.sh >"$share/guest.log" 2>&1 &
vm=$!

# The proxy: one QMP connection, requests in the order of their numbers.
python3 - "$share/qmp.sock" "$share/qmp" $vm <<'PY' >"$share/proxy.log" 2>&1
import json, os, socket, sys, time
sock, qdir, vm = sys.argv[1], sys.argv[2], int(sys.argv[3])

def alive():
    try:
        os.kill(vm, 0)
        return True
    except OSError:
        return False

s = None
while s is None and alive():
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(sock)
    except OSError:
        s = None
        time.sleep(0.2)
if s is None:
    sys.exit(0)
f = s.makefile("rw")

def call(cmd):
    f.write(json.dumps(cmd) + "\n")
    f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            return r

f.readline()                                   # greeting
call({"execute": "qmp_capabilities"})
seq = 1
while alive():
    req = os.path.join(qdir, "req-%d" % seq)
    if not os.path.exists(req):
        time.sleep(0.05)
        continue
    prop, _, value = open(req).read().strip().partition(" ")
    r = call({"execute": "qom-set", "arguments":
              {"path": "/objects/f0", "property": prop, "value": value}})
    reply = "ok" if "return" in r else r["error"].get("desc", "error")
    print(prop, value, "->", reply, flush=True)
    tmp = os.path.join(qdir, ".resp-%d" % seq)
    with open(tmp, "w") as o:
        o.write(reply + "\n")
    os.rename(tmp, os.path.join(qdir, "resp-%d" % seq))
    seq += 1
PY
wait $vm
vm_rc=$?

echo "KTAP version 1"
if [ -f "$share/ipu_links_test.ktap" ]; then
	# The kselftest's results as they are, under one plan with the log's.
	n=$(grep -cE '^(not )?ok [0-9]+ ' "$share/ipu_links_test.ktap")
	echo "1..$((n + 1))"
	grep -E '^(ok |not ok |#)' "$share/ipu_links_test.ktap"
else
	n=1
	echo "1..2"
	echo "not ok 1 $name: ipu_links_test ran # VM status $vm_rc"
	sed 's/^/# /' "$share/guest.log" | tail -20
fi
# The guest kernel log (warnings, oopses) as the last result.
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" 0 "$name" |
	awk -v n=$((n + 1)) '/^(not )?ok 2 / { sub(/ok 2 /, "ok " n " "); p = 1 } p'
