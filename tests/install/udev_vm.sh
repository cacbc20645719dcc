#!/bin/sh
# In the VM (busybox sh, KTAP): the udev rule (dist/udev/60-ipu.rules, in
# /lib/udev/rules.d) applied by a real udevd gives every /dev/ipuN group
# ipu and mode 0660 and tags it "ipu"; user ipuuser (in group ipu) can open
# /dev/ipu0 for reading and writing and list the cards, user other cannot
# open it. The users are the initramfs's (scripts/mkinitramfs.sh). udevd is
# started here and stopped at the end, its database removed, and the nodes
# get back root's 0600.
n=0 failed=0
res() {	# res ok|fail NAME [REASON]
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n $2"
	else echo "not ok $n $2${3:+ # $3}"; failed=$((failed + 1)); fi
}
check() {	# check NAME COMMAND...
	name=$1; shift
	if out=$("$@" 2>&1); then res ok "$name"
	else res fail "$name" "$(echo "$out" | head -c 200 | tr '\n' ' ')"; fi
}
echo "KTAP version 1"
if [ ! -e /dev/ipu0 ]; then
	echo "1..1"; echo "ok 1 udev # SKIP no /dev/ipu0"; exit 0
fi
# udevd needs inotify, which the debug kernel (tinyconfig based) may lack
if [ ! -d /proc/sys/fs/inotify ]; then
	echo "1..1"; echo "ok 1 udev # SKIP this kernel has no inotify, which udevd needs"; exit 0
fi
if [ ! -f /lib/udev/rules.d/60-ipu.rules ] || ! command -v udevadm >/dev/null; then
	echo "1..1"; echo "not ok 1 udev: the initramfs has no udevadm or no 60-ipu.rules"; exit 1
fi
nodes=$(ls /dev/ipu[0-9]*)
count=$(echo $nodes | wc -w)
echo "1..$((count + 9))"

# Without udev the nodes are devtmpfs's: root only.
if [ "$(stat -c '%U:%G %a' /dev/ipu0)" = "root:root 600" ]; then
	res ok "before udev: /dev/ipu0 is root:root 0600"
else
	res fail "before udev: /dev/ipu0 is root:root 0600" "$(stat -c '%U:%G %a' /dev/ipu0)"
fi
check "before udev: user ipuuser cannot open /dev/ipu0" \
	sh -c '! su -s /bin/sh ipuuser -c "exec 3</dev/ipu0" 2>/dev/null'

mkdir -p /run/udev
ln -sf "$(command -v udevadm)" /tmp/systemd-udevd
/tmp/systemd-udevd --daemon --resolve-names=early >/dev/null 2>&1
udevadm trigger --subsystem-match=ipu --action=add
udevadm settle --timeout=30
for d in $nodes; do
	got=$(stat -c '%U:%G %a' "$d")
	if [ "$got" = "root:ipu 660" ]; then res ok "udev: $d is root:ipu 0660"
	else res fail "udev: $d is root:ipu 0660" "$got"; fi
done
check "udev: /dev/ipu0's udev record has ID_IPU_CARD=1 and tag ipu" sh -c '
	udevadm info /dev/ipu0 | grep -qx "E: ID_IPU_CARD=1" &&
	udevadm info /dev/ipu0 | grep -q "^E: TAGS=.*:ipu:"'
check "udev: the tag finds every card (udevadm trigger --tag-match=ipu)" sh -c "
	[ \$(udevadm trigger --dry-run --verbose --tag-match=ipu | grep -c '/ipu/ipu[0-9]*\$') = $count ]"
check "ipuuser (group ipu): opens /dev/ipu0 for reading and writing" \
	su -s /bin/sh ipuuser -c 'exec 3<>/dev/ipu0'
check "ipuuser: ipu-info -d 0 works" su -s /bin/sh ipuuser -c 'ipu-info -d 0 >/dev/null'
check "other (not in group ipu): cannot open /dev/ipu0 for reading" \
	sh -c 'out=$(su -s /bin/sh other -c "exec 3</dev/ipu0" 2>&1); [ $? != 0 ] &&
		echo "$out" | grep -q "Permission denied"'
check "other: cannot open /dev/ipu0 for writing" \
	sh -c '! su -s /bin/sh other -c "exec 3>/dev/ipu0" 2>/dev/null'

# Leave the VM as the other tests expect it: no udevd, nodes root's.
killall systemd-udevd 2>/dev/null
i=0
while pidof systemd-udevd >/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "udevd stopped" sh -c '! pidof systemd-udevd'
for d in $nodes; do chgrp root "$d"; chmod 0600 "$d"; done
# no udev database either (ipudev_tools_vm.sh enumerates without one)
rm -rf /run/udev /tmp/systemd-udevd
[ "$failed" = 0 ]
