#!/bin/bash
# IPU-Links through the driver on an M2000 (host side of `make check`'s
# vm-driver-links-check): boot the VM with 4 cards on an m2000 fabric and a QMP
# socket served to the guest by tests/common/qmp-serve.py, and run
# ipu_links_test there (guest.sh) with IPU_QMP_DIR set: the test itself
# takes links down, brings them up and injects errors (qom-set on the
# fabric, docs/hw-interface.md "QMP and HMP control") and checks the
# uevents, sysfs and the ioctl against it.
# KTAP to stdout: the test's results, then the guest kernel log's verdict.
# Usage: run.sh REPO BUILD [NAME [IPU-VM OPTIONS...]]
set -u
REPO=$1 B=$2
name=${3:-vm-driver-links}
shift $(($# < 3 ? $# : 3))
share=$B/$name-share
rm -rf "$share" && mkdir -p "$share"
cp "$REPO/tests/driver/links/guest.sh" "$share/"

"$REPO/tests/common/vm-qmp.sh" "$REPO" "$share" -n 4 --topology m2000 "$@"
vm_rc=$?

echo "KTAP version 1"
if [ -f "$share/ipu_links_test.ktap" ]; then
	# The kselftest's results as they are, under one plan with the log's.
	n=$(grep -cE '^(not )?ok [0-9]+ ' "$share/ipu_links_test.ktap")
	echo "1..$((n + 1))"
	grep -E '^(ok |not ok |#)' "$share/ipu_links_test.ktap"
else
	n=1
	echo "1..2"
	echo "not ok 1 $name: ipu_links_test ran # VM status $vm_rc"
	sed 's/^/# /' "$share/guest.log" | tail -20
fi
# The guest kernel log (warnings, oopses) as the last result.
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" 0 "$name" |
	awk -v n=$((n + 1)) '/^(not )?ok 2 / { sub(/ok 2 /, "ok " n " "); p = 1 } p'
