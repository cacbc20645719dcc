#!/bin/bash
# Build QEMU 7.2 from Debian's qemu source package with the IPU card
# (qemu-device/) compiled in as hw/ipu, linked with the engine's archive.
# QEMU fixes of its own are in scripts/qemu-patches/, applied once.
# Usage: qemu-build.sh REPO BUILD_DIR ENGINE_LIB
#
# The source is fetched once (apt-get source) into BUILD_DIR/qemu-src, the
# card is linked in and registered with meson and Kconfig, and QEMU is
# configured once, out of tree, in BUILD_DIR/qemu. Later runs only run ninja,
# which recompiles what changed and relinks when ENGINE_LIB did (ccache makes
# a fresh build dir cheap too). ENGINE_LIB (mk/engine.mk builds it) must
# exist before QEMU is configured: meson makes it a link dependency only if
# it finds the file then.
set -euo pipefail

REPO=$(realpath "$1")
B=$(realpath -m "$2")
ENGINE_LIB=$(realpath "$3")
[ -f "$ENGINE_LIB" ] || { echo "qemu: no engine archive at $3" >&2; exit 1; }
SRC_PARENT=$B/qemu-src
OUT=$B/qemu

mkdir -p "$SRC_PARENT"
SRC=$(find "$SRC_PARENT" -maxdepth 1 -type d -name 'qemu-7.2*' | head -1)
if [ -z "$SRC" ]; then
	echo "qemu: fetching Debian's qemu source package"
	(cd "$SRC_PARENT" && apt-get source -qq qemu >/dev/null 2>&1) ||
		(cd "$SRC_PARENT" && apt-get source qemu)
	SRC=$(find "$SRC_PARENT" -maxdepth 1 -type d -name 'qemu-7.2*' | head -1)
	[ -n "$SRC" ] || { echo "qemu: no qemu-7.2 source tree after apt-get source" >&2; exit 1; }
fi

# Fixes to QEMU itself (each patch says why), applied once: a patch that
# reverses cleanly is in already.
for p in "$REPO"/scripts/qemu-patches/*.patch; do
	[ -f "$p" ] || continue
	if ! patch -d "$SRC" -p1 -R -s -f --dry-run <"$p" >/dev/null 2>&1; then
		echo "qemu: applying $(basename "$p")"
		patch -d "$SRC" -p1 -N -s <"$p" ||
			{ echo "qemu: $(basename "$p") does not apply" >&2; exit 1; }
	fi
done

# Register the card with QEMU's build: a link, a meson subdir, a Kconfig source;
# and a link to the engine's archive where qemu-device/meson.build looks.
ln -sfn "$REPO/qemu-device" "$SRC/hw/ipu"
ln -sfn "$ENGINE_LIB" "$SRC/hw/libipuengine.a"
grep -qx "subdir('ipu')" "$SRC/hw/meson.build" || echo "subdir('ipu')" >>"$SRC/hw/meson.build"
grep -qx "source ipu/Kconfig" "$SRC/hw/Kconfig" || echo "source ipu/Kconfig" >>"$SRC/hw/Kconfig"
# Its trace events (qemu-device/trace-events) join QEMU's, after hw/ide's.
grep -qx "    'hw/ipu'," "$SRC/meson.build" ||
	sed -i "/^    'hw\/ide',\$/a\    'hw/ipu'," "$SRC/meson.build"
grep -qx "    'hw/ipu'," "$SRC/meson.build" ||
	{ echo "qemu: could not register hw/ipu's trace events in meson.build" >&2; exit 1; }
cmp -s "$REPO/qemu-device/ipu-vm.mak" "$SRC/configs/devices/x86_64-softmmu/ipu-vm.mak" ||
	cp "$REPO/qemu-device/ipu-vm.mak" "$SRC/configs/devices/x86_64-softmmu/ipu-vm.mak"

CONFIGURE=(
	--target-list=x86_64-softmmu
	--without-default-features --without-default-devices
	--with-devices-x86_64=ipu-vm
	--enable-tcg --enable-virtfs --enable-attr --enable-cap-ng
	--disable-docs --disable-werror --disable-user
	--cc=/usr/lib/ccache/gcc --cxx=/usr/lib/ccache/g++ --host-cc=gcc
	"--extra-cflags=-I$REPO/include"
)
want="${CONFIGURE[*]} $(sha1sum "$REPO/qemu-device/ipu-vm.mak" | cut -c1-40)"
if [ ! -f "$OUT/build.ninja" ] || [ "$(cat "$OUT/.ipu-configure" 2>/dev/null)" != "$want" ]; then
	echo "qemu: configuring in $OUT"
	rm -rf "$OUT" && mkdir -p "$OUT"
	(cd "$OUT" && "$SRC/configure" "${CONFIGURE[@]}") >"$B/qemu-configure.log" 2>&1 ||
		{ tail -30 "$B/qemu-configure.log" >&2; exit 1; }
	echo "$want" >"$OUT/.ipu-configure"
fi

echo "qemu: building"
ninja -C "$OUT" qemu-system-x86_64 >"$B/qemu-build.log" 2>&1 ||
	{ grep -B2 -A12 -E 'error|FAILED' "$B/qemu-build.log" | head -80 >&2; exit 1; }
grep -E 'warning:' "$B/qemu-build.log" | grep -F 'hw/ipu' >&2 || true
