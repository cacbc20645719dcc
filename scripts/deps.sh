#!/bin/bash
# Install everything the build needs from Debian's packages. Safe to re-run:
# it only touches apt when something is missing, and it adds a deb-src entry
# in its own file instead of editing the host's apt sources.
set -euo pipefail

PKGS=(
	# build tools
	build-essential ccache ninja-build meson pkg-config python3 python3-venv
	flex bison dpkg-dev xz-utils cpio kmod bc rsync
	# QEMU build dependencies for our minimal x86_64 configuration
	libglib2.0-dev libpixman-1-dev zlib1g-dev libfdt-dev libcap-ng-dev libattr1-dev
	# firmware the VM boots with
	seabios qemu-system-data ipxe-qemu
	# guest userspace
	busybox-static
	# kernel module build and checks
	sparse libelf-dev linux-source-6.1
	# library and tools
	libudev-dev libpci-dev pciutils
	# the VM's `sensors`, which lists the cards' hwmon sensors
	lm-sensors
	# engine tests, fuzzers and benchmarks
	clang libclang-rt-14-dev libopenblas-dev
	# ipu-train: the digits data set (sklearn's csv.gz), numpy for its tests
	python3-sklearn python3-numpy
	# installing it: man pages (scdoc, man-db), the installed tools without
	# the build tree's rpath (chrpath), completion (bash-completion), the
	# udev rule's check and the VM's udevd (udev), DKMS, the Debian packages
	# (debhelper, dh-dkms, lintian) and the throwaway Debian 12 root they are tested
	# in (mmdebstrap)
	scdoc man-db udev dkms debhelper lintian fakeroot mmdebstrap chrpath bash-completion dh-dkms
)

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

need_update=0
stamp=/var/lib/apt/periodic/ipu-stack-updated

# A deb-src entry is needed for `apt-get source qemu`.
if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	echo "deps: adding deb-src entries in /etc/apt/sources.list.d/ipu-stack-src.sources"
	$SUDO tee /etc/apt/sources.list.d/ipu-stack-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	need_update=1
fi
[ -e "$stamp" ] || need_update=1

# The guest kernel: Debian's current 6.1 ABI, as linux-image-amd64 names it.
if [ "$need_update" = 1 ]; then
	$SUDO apt-get update -qq
	$SUDO mkdir -p "$(dirname "$stamp")" && $SUDO touch "$stamp"
fi
KABI=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: linux-image-\(6\.1\.[0-9]*-[0-9]*-amd64\)$/\1/p' | head -1)
[ -n "$KABI" ] || { echo "deps: cannot resolve the 6.1 kernel ABI from linux-image-amd64" >&2; exit 1; }
PKGS+=("linux-headers-$KABI")

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "$KABI"
