#!/bin/bash
# The kernel and initramfs that the installed ipu-vm made in the Debian
# root (tests/install/deb_root_inside.sh: Debian's kernel from /boot, its
# DKMS-built ipu.ko, the installed tools) boot in a VM with two cards: the
# driver binds both and the installed ipu-info lists them.
# Usage: installed_vm.sh VM KERNEL INITRD SHARE; KTAP on stdout.
set -u
VM=$1 KERNEL=$2 INITRD=$3 SHARE=$4
. "$(dirname "$0")/../library/ktap.sh"
rm -rf "$SHARE" && mkdir -p "$SHARE"
"$VM" -q -n 2 -m gc200,gc2 --kernel "$KERNEL" --initrd "$INITRD" --share "$SHARE" \
	--timeout 600 -- sh -c 'ipu-info --json >/mnt/host/info.json; echo $? >/mnt/host/info.rc;
		ls /dev/ipu* >/mnt/host/devs; lsmod >/mnt/host/lsmod' >"$SHARE/console" 2>&1
rc=$?
check "installed-vm: the VM boots and runs the command (ipu-vm exit 0)" test "$rc" = 0
check "installed-vm: ipu.ko (DKMS's) is loaded" grep -q '^ipu ' "$SHARE/lsmod"
check "installed-vm: /dev/ipu0 and /dev/ipu1" sh -c "grep -qx /dev/ipu0 '$SHARE/devs' && grep -qx /dev/ipu1 '$SHARE/devs'"
check "installed-vm: the installed ipu-info lists the two cards (gc200, gc2)" sh -c "
	[ \"\$(cat '$SHARE/info.rc')\" = 0 ] && grep -q '\"gc200\"' '$SHARE/info.json' &&
	grep -q '\"gc2\"' '$SHARE/info.json'"
ktap_print
[ "$failed" = 0 ]
