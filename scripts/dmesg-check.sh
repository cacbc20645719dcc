#!/bin/bash
# KTAP lines for a VM run: did the VM run the tests (launcher status), and is
# the guest kernel log free of warnings, BUGs and oopses?
# Usage: dmesg-check.sh DMESG_FILE VM_STATUS [NAME]
log=$1 rc=$2 name=${3:-vm}
echo "KTAP version 1"
echo "1..2"
if [ "$rc" = 0 ]; then
	echo "ok 1 $name: test runner finished"
else
	echo "not ok 1 $name: test runner exited $rc"
fi
if [ ! -s "$log" ]; then
	echo "not ok 2 $name: guest kernel log is missing"
	exit 0
fi
bad=$(grep -nE 'WARNING:|BUG:|Oops|general protection fault|Call Trace:|UBSAN:|KASAN:|kernel BUG|RIP: |refcount_t:|list_add corruption|list_del corruption|INFO: task .* blocked|soft lockup|hard LOCKUP' "$log" | head -20)
if [ -z "$bad" ]; then
	echo "ok 2 $name: guest kernel log has no warnings, BUGs or oopses"
else
	echo "not ok 2 $name: guest kernel log has warnings"
	echo "$bad" | sed 's/^/# /'
fi
