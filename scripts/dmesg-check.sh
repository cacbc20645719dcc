#!/bin/bash
# KTAP lines for a VM run: did the VM run the tests (launcher status), and is
# the guest kernel log free of warnings, BUGs and oopses, and of the reports
# of the debug kernel's checkers (KASAN, lockdep, atomic sleep, UBSAN,
# kmemleak, DMA-API debug, hung tasks, lockups, RCU stalls, debugobjects)?
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
# Report headers. Lockdep, atomic-sleep and most KASAN/UBSAN reports also
# match WARNING:/BUG:; they are named so that a change of those prefixes
# still fails. DMA-API debug prints "DMA-API: " before every message: all
# are reports except its start-up and filter notices.
reports='WARNING:|BUG:|Oops|general protection fault|Call Trace:|kernel BUG|RIP: |Kernel panic'
reports+='|UBSAN:|KASAN:|refcount_t:|list_add corruption|list_del corruption'
reports+='|possible circular locking|inconsistent lock state|possible recursive locking'
reports+='|suspicious RCU usage|sleeping function called from invalid context|bad unlock balance'
reports+='|INFO: task .* blocked|soft lockup|hard LOCKUP|workqueue lockup|detected stalls|self-detected stall'
reports+='|unreferenced object|suspected memory leak|ODEBUG:|DMA-API:'
benign='DMA-API: (preallocated [0-9]+ debug entries|debugging enabled by kernel config|debugging disabled on kernel command line|dma_debug_entry pool grown to|switching off dma-debug driver filter|enable driver filter for driver)'
bad=$(grep -nE "$reports" "$log" | grep -vE "$benign")
if [ -z "$bad" ]; then
	echo "ok 2 $name: guest kernel log has no warnings, BUGs, oopses or checker reports"
else
	echo "not ok 2 $name: guest kernel log has $(echo "$bad" | wc -l) report line(s)"
	echo "$bad" | head -30 | sed 's/^/# /'
fi
