#!/bin/sh
# Guest side of `make bench`'s VM figures (mk/bench.mk): run from the
# share (cwd) by tools/ipu-vm; writes nvme.json and ipu-bench.json there.
set -u
modprobe nvme 2>/dev/null
i=0
while [ ! -b /dev/nvme1n1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
rc=0
# which namespace is which drive: the serial (bench: plain null-co,
# benchz: read-zeroes=on)
for n in /sys/class/nvme/nvme*; do
	s=$(tr -d ' ' <"$n/serial" 2>/dev/null)
	d=/dev/$(basename "$n")n1
	case "$s" in
	bench) ./nvme_read "$d" 64 2 >nvme.json || rc=1 ;;
	benchz) ./nvme_read "$d" 64 2 >nvme-zeroes.json || rc=1 ;;
	esac
done
[ -s nvme.json ] || { echo "vm-bench: no NVMe baseline" >&2; rc=1; }
ipu-bench -d 0 --json --min 4K --max 256M >ipu-bench.json || rc=1
# The 64 MiB target, paired: the host's memory bandwidth changes within
# seconds, so each card figure is taken right after its NVMe baseline.
nvme=$(for n in /sys/class/nvme/nvme*; do
	[ "$(tr -d ' ' <"$n/serial" 2>/dev/null)" = bench ] && echo /dev/$(basename "$n")n1
done)
for r in 1 2 3; do
	./nvme_read "$nvme" 64 1 >pair-nvme-$r.json || rc=1
	ipu-bench -d 0 --json --min 64M --max 64M -k mapped,pinned -t 500 \
		>pair-ipu-$r.json || rc=1
done
sync
exit $rc
