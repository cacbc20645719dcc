#!/bin/bash
# Fetch Debian's guest kernel image package for ABI $2 and extract it (never
# installed on the host) into $1/kernel/root. Prints nothing on success.
set -euo pipefail
B=$(realpath -m "$1")
KABI=$2
DIR=$B/kernel
[ -f "$DIR/root/boot/vmlinuz-$KABI" ] && exit 0
mkdir -p "$DIR" && cd "$DIR"
rm -f linux-image-"$KABI"_*.deb
apt-get download -qq "linux-image-$KABI" 2>/dev/null || apt-get download "linux-image-$KABI"
rm -rf root && dpkg-deb -x linux-image-"$KABI"_*.deb root
[ -f "root/boot/vmlinuz-$KABI" ] || { echo "kernel: no vmlinuz in linux-image-$KABI" >&2; exit 1; }
