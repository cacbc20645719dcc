#!/bin/bash
# Build the VM's debug kernel (KASAN, lockdep, kmemleak, DMA-API debug, UBSAN,
# fault injection, ...) from Debian's linux-source-6.1 and install it in
# BUILD/debug-kernel/root (boot/vmlinuz-REL, lib/modules/REL), laid out like
# BUILD/kernel/root. The configuration is `make tinyconfig`, then
# scripts/debug-kernel.config merged over it, then olddefconfig; every line
# of the fragment must survive or the build stops and names the lost ones.
#
# The build is cached: it runs again only when the fragment, this script, the
# linux-source-6.1 package version or the compiler change (a key in
# BUILD/debug-kernel/stamp). Objects go through ccache (CC="ccache gcc").
#
# Usage: debug-kernel.sh BUILD_DIR        build if needed; prints one line
#        debug-kernel.sh BUILD_DIR --config-only   configure and check only
set -euo pipefail
# depmod lives in /sbin, which a user's PATH may not have.
export PATH=$PATH:/usr/sbin:/sbin

REPO=$(realpath "$(dirname "$0")/..")
B=$(realpath -m "${1:?usage: debug-kernel.sh BUILD_DIR [--config-only]}")
MODE=${2:-build}
D=$B/debug-kernel
SRC=$D/src
ROOT=$D/root
FRAG=$REPO/scripts/debug-kernel.config
TARBALL=/usr/src/linux-source-6.1.tar.xz
JOBS=${DEBUG_KERNEL_JOBS:-$(nproc)}
# ccache's own default (~/.cache/ccache) unless that cannot be written.
if [ -z "${CCACHE_DIR:-}" ] && ! { mkdir -p "${HOME:-/nonexistent}/.cache" && [ -w "$HOME/.cache" ]; } 2>/dev/null; then
	export CCACHE_DIR=$B/ccache
fi

die() { echo "debug-kernel: $*" >&2; exit 1; }

[ -f "$TARBALL" ] || die "$TARBALL is missing: run 'make deps' (package linux-source-6.1)"
for t in ccache gcc make flex bison bc perl depmod xz; do
	command -v "$t" >/dev/null || die "'$t' is not installed: run 'make deps'"
done
[ -f /usr/include/libelf.h ] || die "libelf-dev is not installed (objtool needs it): run 'make deps'"
PKGVER=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	die "the linux-source-6.1 package is not installed: run 'make deps'"

KEY=$({
	echo "linux-source-6.1 $PKGVER"
	gcc --version | sed -n 1p
	sha256sum "$FRAG" "$REPO/scripts/debug-kernel.sh" | cut -d' ' -f1
} | sha256sum | cut -d' ' -f1)
# One build at a time (two makes at once wait for each other).
mkdir -p "$D"
exec 9>"$D/.lock"
flock 9
if [ "$MODE" = build ] && [ -f "$D/stamp" ] && [ "$(cat "$D/stamp")" = "$KEY" ] &&
	[ -f "$D/release" ] && [ -f "$ROOT/boot/vmlinuz-$(cat "$D/release")" ]; then
	exit 0
fi
rm -f "$D/stamp"

# The full source tree, extracted once per package version.
if [ ! -f "$SRC/.ipu-source-version" ] || [ "$(cat "$SRC/.ipu-source-version")" != "$PKGVER" ]; then
	echo "debug-kernel: extracting linux-source-6.1 $PKGVER into $SRC"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -xJf "$TARBALL" -C "$SRC.tmp" --strip-components=1
	[ -f "$SRC.tmp/Makefile" ] || die "$TARBALL did not extract to a kernel tree"
	echo "$PKGVER" >"$SRC.tmp/.ipu-source-version"
	mv "$SRC.tmp" "$SRC"
fi

# The same make variables for every step (and for modules built against it:
# mk/debug-kernel.mk passes the same CC).
KMAKE=(make -C "$SRC" -s CC="ccache gcc" HOSTCC="ccache gcc"
	KBUILD_BUILD_USER=ipu KBUILD_BUILD_HOST=ipu-stack)
LOG=$D/build.log
: >"$LOG"

# Configure: tinyconfig + fragment + olddefconfig, in the tree (Kbuild then
# rebuilds only what a changed option touches).
CFG=$SRC/.config
(
	cd "$SRC"
	"${KMAKE[@]}" tinyconfig
	scripts/kconfig/merge_config.sh -m .config "$FRAG"
	"${KMAKE[@]}" olddefconfig
) >>"$LOG" 2>&1 || { tail -30 "$LOG" >&2; die "configuration failed (log: $LOG)"; }

lost=()
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		if ! grep -qxF -- "$line" "$CFG"; then
			lost+=("$line (got: $(grep "^${line%%=*}=" "$CFG" || echo unset))")
		fi ;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }; sym=${sym%% *}
		if grep -q "^$sym=" "$CFG"; then
			lost+=("$line (got: $(grep "^$sym=" "$CFG"))")
		fi ;;
	esac
done <"$FRAG"
if [ "${#lost[@]}" -gt 0 ]; then
	echo "debug-kernel: these lines of scripts/debug-kernel.config did not survive olddefconfig" >&2
	echo "(a dependency is missing, or the value is out of range):" >&2
	printf '  %s\n' "${lost[@]}" >&2
	exit 1
fi
[ "$MODE" = --config-only ] && { echo "debug-kernel: configuration OK ($SRC/.config)"; exit 0; }

echo "debug-kernel: building Linux $PKGVER with ccache (log: $LOG); a cold build takes ~25 min on 2 cores"
start=$(date +%s)
# In the background, with a line every 2 minutes: CI stops jobs that are
# silent for long, and a cold build is long.
"${KMAKE[@]}" -j"$JOBS" bzImage modules >>"$LOG" 2>&1 &
mk=$!
trap 'kill "$mk" 2>/dev/null' EXIT
n=0
while kill -0 "$mk" 2>/dev/null; do
	sleep 5
	n=$((n + 5))
	if [ $((n % 120)) = 0 ]; then
		echo "debug-kernel: $((n / 60)) min, $(find "$SRC" -name '*.o' | wc -l) objects"
	fi
done
if ! wait "$mk"; then
	trap - EXIT
	grep -E 'error|Error' "$LOG" | head -20 >&2 || true
	tail -20 "$LOG" >&2
	die "build failed (log: $LOG)"
fi
trap - EXIT

# The release string (6.1.N-ipu-debug) is known once the build has synced
# the configuration.
REL=$(cat "$SRC/include/config/kernel.release")
[ -n "$REL" ] || die "no kernel release in $SRC/include/config/kernel.release"

# Install like Debian's package: boot/vmlinuz-REL and lib/modules/REL.
rm -rf "$ROOT.tmp" && mkdir -p "$ROOT.tmp/boot"
cp "$SRC/arch/x86/boot/bzImage" "$ROOT.tmp/boot/vmlinuz-$REL"
cp "$SRC/System.map" "$ROOT.tmp/boot/System.map-$REL"
cp "$SRC/.config" "$ROOT.tmp/boot/config-$REL"
"${KMAKE[@]}" INSTALL_MOD_PATH="$ROOT.tmp" modules_install >>"$LOG" 2>&1 ||
	{ tail -20 "$LOG" >&2; die "modules_install failed (log: $LOG)"; }
rm -f "$ROOT.tmp/lib/modules/$REL/build" "$ROOT.tmp/lib/modules/$REL/source"
rm -rf "$ROOT" && mv "$ROOT.tmp" "$ROOT"
echo "$REL" >"$D/release"
echo "$KEY" >"$D/stamp"
echo "debug-kernel: $ROOT/boot/vmlinuz-$REL built in $(( $(date +%s) - start )) s"
