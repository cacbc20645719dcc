#!/bin/bash
# DKMS builds ipu.ko from the installed source: `make install-files` into a
# temporary DESTDIR, then dkms add, build -k KABI and install with that
# DESTDIR's trees (--sourcetree, --dkmstree, --installtree), so the host's
# /usr/src, /var/lib/dkms and /lib/modules are not touched (DKMS's signing
# key, /var/lib/dkms/mok.*, is made once as on any Debian machine).
# The module built is copied to OUT_KO for the VM run that boots it
# (mk/install.mk, vm-dkms-check).
# Usage: dkms_check.sh REPO BUILD_DIR KABI OUT_KO; KTAP on stdout, exit 0
# when nothing failed.
set -u
REPO=$1 B=$2 KABI=$3 OUT_KO=$4
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export PATH=$PATH:/usr/sbin:/sbin
. "$REPO/tests/library/ktap.sh"
rm -f "$OUT_KO"
D=$TMP/root
V=$(sed -n 's/^#define IPUDEV_VERSION_STRING[[:space:]]*"\(.*\)"/\1/p' "$REPO/libipudev/ipudev.h")
mkdir -p "$D/var/lib/dkms" "$D/lib/modules/$KABI"
make -C "$REPO" --no-print-directory install-files DESTDIR="$D" PREFIX=/usr >"$TMP/install.log" 2>&1 ||
	{ add fail "dkms: install the source" "$(tail -c 300 "$TMP/install.log")"; ktap_print; exit 1; }
O=(-m ipu -v "$V" --sourcetree "$D/usr/src" --dkmstree "$D/var/lib/dkms")

check "dkms add ipu/$V" dkms add "${O[@]}"
check "dkms build -k $KABI" dkms build "${O[@]}" -k "$KABI"
check "dkms install -k $KABI" dkms install "${O[@]}" -k "$KABI" \
	--installtree "$D/lib/modules" --no-depmod
ko=$(find "$D/lib/modules/$KABI" -name ipu.ko 2>/dev/null | head -1)
check "dkms: ipu.ko installed under /lib/modules/$KABI/updates" \
	sh -c "case '$ko' in */$KABI/updates/*) exit 0 ;; esac; echo 'got: $ko'; exit 1"
check "dkms: the module is for $KABI and is the ipu driver" sh -c "
	[ -n '$ko' ] && modinfo -F vermagic '$ko' | grep -q '^$KABI ' &&
	[ \"\$(modinfo -F name '$ko')\" = ipu ] &&
	modinfo -F alias '$ko' | grep -qi 'v00001EE7d00000001'"
check "dkms status: installed" sh -c "
	dkms status ${O[*]} -k '$KABI' | grep -q 'installed'"
check "dkms build for a kernel without headers fails" \
	sh -c "! dkms build ${O[*]} -k 6.1.0-0-nosuch"
[ -n "$ko" ] && mkdir -p "$(dirname "$OUT_KO")" && cp "$ko" "$OUT_KO"
check "dkms remove --all" dkms remove "${O[@]}" --all --installtree "$D/lib/modules" --no-depmod
check "dkms remove: the module is gone" sh -c "! find '$D/lib/modules' -name 'ipu.ko*' | grep -q ."

ktap_print
[ "$failed" = 0 ]
