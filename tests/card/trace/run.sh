#!/bin/bash
# The card's QEMU trace events (qemu-device/trace-events), host side of
# `make check`: boot the VM with `-trace 'ipu_*'`, reset card 0 and run a
# matmul on it, then check that the trace shows what the card did: BAR0
# accesses, the reset and READY, queues enabled, doorbells, each command's
# start and successful completion, interrupts. KTAP to stdout.
# Usage: run.sh REPO BUILD
set -u
REPO=$1 B=$2
share=$B/trace-share
rm -rf "$share" && mkdir -p "$share"

"$REPO/tools/ipu-vm" -q -n 1 --share "$share" --dmesg "$share/dmesg" \
	--qemu-arg -trace --qemu-arg 'ipu_*' --qemu-arg -D --qemu-arg "$share/trace.log" \
	-- sh -c 'ipu-reset -d 0 && mkdir -p /tmp/mm && cd /tmp/mm &&
		ipu-mkgraph -i . matmul mm.ipug &&
		ipu-run -d 0 mm.ipug --in a=a.npy --in b=b.npy --out c=c.npy' \
	>"$share/guest.log" 2>&1
vm_rc=$?

# event name, an extended regex its line must match, what it shows
checks=(
	"ipu_mmio_read|BAR0 0x0 -> 0x49505543|the driver reading MAGIC"
	"ipu_mmio_write|BAR0 0x104 <- 0x1|the driver writing CONTROL.RESET"
	"ipu_reset_begin|state 2: reset begins|the card entering RESETTING"
	"ipu_ready|READY, 1 resets|READY after the reset, counted"
	"ipu_queue_enable|queue [0-9]+: [0-9]+ entries, user 0|a kernel queue enabled"
	"ipu_doorbell|queue [0-9]+ doorbell \(cq 0\) <- [0-9]+|an SQ tail doorbell"
	"ipu_cmd_start|opcode 0x1\$|a LOAD fetched"
	"ipu_cmd_done|opcode 0x1: status 0 |the LOAD completed"
	"ipu_cmd_done|opcode 0x4: status 0 |a RUN completed"
	"ipu_cmd_done|opcode 0x3: status 0 |a READ completed"
	"ipu_irq|IRQ_STATUS 0x[0-9a-f]+ mask|an interrupt cause raised"
	"ipu_health_window|UTIL [0-9]+/1000, POWER [0-9]+ mW, TEMP [0-9]+ mC|the telemetry's windows (1.6)"
)
echo "KTAP version 1"
echo "1..$((${#checks[@]} + 2))"
n=1
if [ $vm_rc = 0 ]; then echo "ok $n trace: reset and matmul on card 0"
else
	echo "not ok $n trace: reset and matmul on card 0 # VM status $vm_rc"
	sed 's/^/# /' "$share/guest.log" | tail -20
fi
for c in "${checks[@]}"; do
	IFS='|' read -r ev re what <<<"$c"
	n=$((n + 1))
	if grep -E "^([0-9]+@[0-9.]+:)?$ev " "$share/trace.log" 2>/dev/null | grep -Eq "$re"; then
		echo "ok $n trace: $ev shows $what"
	else
		echo "not ok $n trace: $ev shows $what # no line matching /$re/"
	fi
done
n=$((n + 1))
"$REPO/scripts/dmesg-check.sh" "$share/dmesg" 0 trace |
	awk -v n=$n '/^(not )?ok 2 / { sub(/ok 2 /, "ok " n " "); p = 1 } p'
