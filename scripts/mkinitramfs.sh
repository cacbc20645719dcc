#!/bin/bash
# Build the VM's initramfs: busybox, the guest kernel's virtio/9p/nvme
# modules (Debian's kernel, or the debug kernel of scripts/debug-kernel.sh),
# ipu.ko, the library, the tools and the tests with the shared libraries
# they need. Usage: mkinitramfs.sh OUT.cpio.gz KERNEL_ROOT KABI
#   then groups of: --bin FILE... | --lib FILE... | --test FILE... | --module FILE
#   | --file FILE... (data, e.g. ipu-train's digits: an absolute path, copied
#   to the same path in the VM) | --rule FILE... (udev rules, to
#   /lib/udev/rules.d; the VM runs no udevd unless a test starts one)
# Users besides root, for the tests of the cards' permissions: ipuuser
# (uid 1000, in group ipu, gid 990, the udev rule's group) and nobody-like
# other (uid 1001, not in it).
set -euo pipefail
# depmod lives in /sbin, which a user's PATH may not have.
export PATH=$PATH:/usr/sbin:/sbin
OUT=$(realpath -m "$1"); KROOT=$(realpath "$2"); KABI=$3; shift 3
STAGE=$(mktemp -d "${OUT%.cpio.gz}.stage.XXXXXX")
chmod 0755 "$STAGE"
trap 'rm -rf "$STAGE"' EXIT
# vm-init.sh is beside this script: in the tree's scripts/, and installed
# (package ipu-emulator, for ipu-vm) in /usr/share/ipu-vm.
HERE=$(realpath "$(dirname "$0")")

mkdir -p "$STAGE"/{bin,sbin,usr/bin,usr/sbin,usr/lib,lib64,tests,etc,proc,sys,dev,tmp,run,mnt/host,root}
cp /bin/busybox "$STAGE/bin/busybox"
for a in $("$STAGE/bin/busybox" --list-full); do
	[ -e "$STAGE/$a" ] || ln -s /bin/busybox "$STAGE/$a"
done
install -m 0755 "$HERE/vm-init.sh" "$STAGE/init"
printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' 'ipuuser:x:1000:1000::/tmp:/bin/sh' \
	'other:x:1001:1001::/tmp:/bin/sh' >"$STAGE/etc/passwd"
printf '%s\n' 'root:x:0:' 'ipu:x:990:ipuuser' 'ipuuser:x:1000:' 'other:x:1001:' \
	>"$STAGE/etc/group"

# Kernel modules the VM needs, with their dependencies. A module the kernel
# has built in (modules.builtin) needs nothing; NVMe is only for the
# benchmarks, and the debug kernel (scripts/debug-kernel.config) has none.
MODDIR=lib/modules/$KABI
[ -f "$KROOT/$MODDIR/modules.dep" ] || depmod -b "$KROOT" "$KABI"
want="kernel/drivers/virtio/virtio_pci.ko kernel/net/9p/9pnet_virtio.ko kernel/fs/9p/9p.ko kernel/drivers/char/hw_random/virtio-rng.ko"
optional="kernel/drivers/nvme/host/nvme.ko"
mods=""
for m in $want $optional; do
	if grep -q "^$m:" "$KROOT/$MODDIR/modules.dep"; then
		mods="$mods $m $(grep "^$m:" "$KROOT/$MODDIR/modules.dep" | cut -d: -f2)"
	elif grep -qxF "$m" "$KROOT/$MODDIR/modules.builtin" 2>/dev/null; then
		:
	elif [ -n "${optional##*"$m"*}" ]; then
		echo "mkinitramfs: $KROOT/$MODDIR has no ${m##*/}, built in or as a module" >&2
		exit 1
	fi
done
for m in $(echo $mods | tr ' ' '\n' | sort -u); do
	mkdir -p "$STAGE/$MODDIR/$(dirname "$m")"
	cp "$KROOT/$MODDIR/$m" "$STAGE/$MODDIR/$m"
done
cp "$KROOT/$MODDIR"/modules.{order,builtin,builtin.modinfo} "$STAGE/$MODDIR/" 2>/dev/null || true

copy_libs() {
	local f lib
	for f in "$@"; do
		{ ldd "$f" 2>/dev/null || true; } | { grep -o '/[^ ]*' || true; } | while read -r lib; do
			[ -e "$STAGE$lib" ] && continue
			mkdir -p "$STAGE$(dirname "$lib")"
			cp -L "$lib" "$STAGE$lib"
		done
	done
}
# Debian's busybox package is dynamic (libresolv): an installed ipu-vm's
# initramfs needs its libraries; busybox-static needs none.
copy_libs /bin/busybox

mode=""
for a in "$@"; do
	case "$a" in
	--bin|--lib|--test|--module|--file|--rule) mode=$a; continue ;;
	esac
	[ -e "$a" ] || { echo "mkinitramfs: missing $a" >&2; exit 1; }
	case "$mode" in
	--bin) install -m 0755 "$a" "$STAGE/usr/bin/"; copy_libs "$a" ;;
	--test) install -m 0755 "$a" "$STAGE/tests/"; copy_libs "$a" ;;
	--lib) cp -a "$a" "$STAGE/usr/lib/" ;;
	--module) mkdir -p "$STAGE/$MODDIR/extra"; cp "$a" "$STAGE/$MODDIR/extra/" ;;
	--file)
		case "$a" in /*) ;; *) echo "mkinitramfs: --file $a: not an absolute path" >&2; exit 1 ;; esac
		mkdir -p "$STAGE$(dirname "$a")"; cp -L "$a" "$STAGE$a" ;;
	--rule) mkdir -p "$STAGE/lib/udev/rules.d"; cp "$a" "$STAGE/lib/udev/rules.d/" ;;
	*) echo "mkinitramfs: $a: say --bin, --lib, --test, --module, --file or --rule first" >&2; exit 1 ;;
	esac
done
# The library's own dependencies (libudev, libpci, ...).
for l in "$STAGE"/usr/lib/*.so*; do [ -f "$l" ] && [ ! -L "$l" ] && copy_libs "$l"; done
depmod -b "$STAGE" "$KABI"
(cd "$STAGE" && find . -print0 | sort -z | cpio --null -o -H newc --quiet --reproducible) | gzip -1 >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
