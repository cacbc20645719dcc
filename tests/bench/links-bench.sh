#!/bin/sh
# Guest side of `make bench-links` (mk/bench.mk): in an M2000 VM (4 gc200
# cards on an m2000 fabric), run from the share (cwd) by tools/ipu-vm;
# writes there links.json (ipu-bench --links: every linked pair),
# host-sync-0.json and host-sync-6.json (ipu-bench --host-sync on card 0
# and on the group of four) and null.json (ipu-bench's null ioctl, the
# baseline of the sync latency).
set -u
rc=0
# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
ipu-bench --links --json >links.json || rc=1
ipu-bench --host-sync -d 0 --json >host-sync-0.json || rc=1
ipu-bench --host-sync -d 6 --json >host-sync-6.json || rc=1
ipu-bench -d 0 --json --min 4K --max 4K -k mapped -t 10 -n 4095 >null.json || rc=1
sync
exit $rc
