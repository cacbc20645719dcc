#!/bin/sh
# /init of the IPU stack's test VM (busybox). Mounts the basics and the host
# share, loads the virtio/9p modules and the ipu driver, then runs the
# command the launcher left in the share (or a shell) and powers off.
# The exit status goes back to the launcher through the share.
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /tmp /run /mnt/host
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
stty -onlcr 2>/dev/null
hostname ipu-vm
ip link set lo up 2>/dev/null

for m in virtio_pci 9pnet_virtio 9p; do
	modprobe "$m" || echo "vm-init: modprobe $m failed"
done
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 host /mnt/host; then
	echo "vm-init: cannot mount the host share"
fi

export IPU_MODULE=/lib/modules/$(uname -r)/extra/ipu.ko
# ipu.ko is loaded unless the launcher says not to (IPU_VM_NOLOAD=1).
if [ "${IPU_VM_NOLOAD:-0}" != 1 ]; then
	insmod "$IPU_MODULE" || echo "vm-init: insmod ipu.ko failed"
fi

ctl=/mnt/host/${IPU_VM_CTL:-.ipu-vm}
cd /mnt/host 2>/dev/null || cd /
if [ -f "$ctl/cmd" ]; then
	sh "$ctl/cmd" </dev/console
	echo $? >"$ctl/status"
	dmesg >"$ctl/dmesg"
	sync
else
	echo "ipu-vm: shell (exit or Ctrl-D powers off); host share at /mnt/host"
	setsid cttyhack sh -l
fi
poweroff -f
