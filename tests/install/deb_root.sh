#!/bin/bash
# The packages of `make deb` in a throwaway Debian 12 root made by
# mmdebstrap from Debian's mirror (bookworm, -updates, -security), with a
# compiler, pkg-config, man-db, DKMS and the guest kernel's headers: apt
# installs the five packages there, and tests/install/deb_root_inside.sh
# does what a user of them does (a program built with pkg-config, shared
# and static, the man pages, `dkms build` and `dkms install` for KABI).
# The host's apt cache is bind-mounted as the root's, so packages already
# fetched are not fetched again. INITRD=No tells the kernel package's
# postinst hook (/etc/kernel/postinst.d/initramfs-tools) not to make a boot
# initramfs, which nothing here boots (ipu-vm makes its own) and which
# took minutes; DKMS's hook still builds ipu.ko. The root is removed afterwards; the module
# DKMS built there is copied to OUT_KO, and the kernel and initramfs the
# installed ipu-vm boots to installed-vmlinuz and installed-initramfs.cpio.gz
# beside it.
# Usage: deb_root.sh REPO DEB_DIR KABI OUT_KO; KTAP on stdout.
set -u
REPO=$1 DEBS=$2 KABI=$3 OUT_KO=$4
TMP=$(mktemp -d)
ROOT=$TMP/root
cleanup() {
	umount "$ROOT/var/cache/apt/archives" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
rm -f "$OUT_KO"
mkdir -p "$TMP/in" "$TMP/out"
cp "$DEBS"/*.deb "$REPO/tests/install/consumer.c" "$REPO/tests/install/deb_root_inside.sh" \
	"$REPO/tests/library/ktap.sh" "$TMP/in/"
cat >"$TMP/sources.list" <<'SRC'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SRC
PKGS=gcc,libc6-dev,pkg-config,man-db,dkms,kmod,linux-headers-$KABI,binutils
if ! mmdebstrap --variant=apt --mode=root --format=directory --include="$PKGS" \
	--skip=download/empty --skip=cleanup/apt/cache \
	--setup-hook='mkdir -p "$1/var/cache/apt/archives" && mount --bind /var/cache/apt/archives "$1/var/cache/apt/archives"' \
	--customize-hook="mkdir -p \"\$1/tmp/ipu-test\" && cp $TMP/in/* \"\$1/tmp/ipu-test/\"" \
	--customize-hook='chroot "$1" sh -c "INITRD=No DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/ipu-test/*.deb" >"$1/tmp/ipu-test/apt.log" 2>&1 || { tail -20 "$1/tmp/ipu-test/apt.log"; exit 1; }' \
	--customize-hook="chroot \"\$1\" bash /tmp/ipu-test/deb_root_inside.sh $KABI /tmp/ipu-test/out >$TMP/out/inside.ktap 2>&1 || true" \
	--customize-hook="cp -r \"\$1/tmp/ipu-test/out/.\" $TMP/out/ 2>/dev/null || true" \
	--customize-hook='umount "$1/var/cache/apt/archives"' \
	bookworm "$ROOT" "$TMP/sources.list" >"$TMP/mmdebstrap.log" 2>&1; then
	echo "KTAP version 1"
	echo "1..1"
	echo "not ok 1 deb-root: mmdebstrap could not make the root # $(tail -5 "$TMP/mmdebstrap.log" | tr '\n' ' ')"
	cp "$TMP/mmdebstrap.log" "$(dirname "$OUT_KO")/mmdebstrap.log" 2>/dev/null
	exit 1
fi
cat "$TMP/out/inside.ktap"
mkdir -p "$(dirname "$OUT_KO")"
[ -f "$TMP/out/ipu.ko" ] && cp "$TMP/out/ipu.ko" "$OUT_KO"
# what the installed ipu-vm boots, for vm-dkms-check (mk/deb.mk)
for f in vmlinuz initramfs.cpio.gz; do
	[ -f "$TMP/out/$f" ] && cp "$TMP/out/$f" "$(dirname "$OUT_KO")/installed-$f"
done
! grep -q '^not ok' "$TMP/out/inside.ktap" && grep -q '^ok' "$TMP/out/inside.ktap"
