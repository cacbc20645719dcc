#!/bin/sh
# Run a command with a fake /sys/class/ipu holding a topology given as data
# (unit --topo NAME tree): tmpfs over /sys/class and /sys/devices, so only
# inside a mount namespace of its own: `unshare -m fake_sysfs.sh UNIT NAME
# [nolinks] COMMAND...`. The cards are not udev devices (ipu_enumerate()
# does not see them); the IPU-Link reader and ipu-links do.
set -e
UNIT=$1 NAME=$2
shift 2
mount -t tmpfs none /sys/class
mount -t tmpfs none /sys/devices
mkdir -p /sys/class/ipu /sys/devices/virtual/ipu
"$UNIT" --topo "$NAME" tree /sys/devices/virtual/ipu
for d in /sys/devices/virtual/ipu/ipu*; do
	ln -s "../../devices/virtual/ipu/${d##*/}" "/sys/class/ipu/${d##*/}"
done
if [ "$1" = nolinks ]; then
	rm -rf /sys/devices/virtual/ipu/ipu*/links
	shift
fi
"$@"
