#!/bin/sh
# In-VM test of ipu-info and ipu-reset against the emulated cards (busybox
# sh; installed into the VM's /tests through VM_TESTS by mk/tools.mk).
# Prints KTAP.
# The cards are described by IPU_VM_CARDS (index:model:serial,...) when set.
n=0 failed=0
T=$(mktemp -d)
out() { n=$((n + 1)); echo "$1 $n $2"; }
ok() { out ok "$1"; }
nok() { out "not ok" "$1 # $2"; failed=$((failed + 1)); }
skip() { out ok "$1 # SKIP $2"; }

echo "KTAP version 1"
echo "1..14"

if [ ! -d /sys/class/ipu ]; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
		skip "ipu-tools $i" "no ipu driver"
	done
	exit 0
fi
ncards=$(ls /sys/class/ipu | wc -l)

# 1-2: the list
ipu-info >"$T/list" 2>"$T/err"; rc=$?
rows=$(($(wc -l <"$T/list") - 1))
if [ "$rc" = 0 ] && [ "$rows" = "$ncards" ]; then ok "ipu-info lists $ncards cards"
else nok "ipu-info lists the cards" "rc=$rc rows=$rows want $ncards: $(cat "$T/err")"; fi

bad=""
for c in $(echo "${IPU_VM_CARDS:-}" | tr ',' ' '); do
	i=${c%%:*}; rest=${c#*:}; m=${rest%%:*}; s=${rest#*:}
	grep -qE "^$i +[0-9a-f:.]+ +$m +$s +" "$T/list" || bad="$bad $c"
done
if [ -z "${IPU_VM_CARDS:-}" ]; then skip "ipu-info rows match the cards" "IPU_VM_CARDS not set"
elif [ -z "$bad" ]; then ok "ipu-info rows match the cards"
else nok "ipu-info rows match the cards" "missing:$bad"; fi

# 3-5: detail of card 0
ipu-info -d 0 >"$T/d0" 2>"$T/err"; rc=$?
serial0=$(cat /sys/class/ipu/ipu0/serial)
if [ "$rc" = 0 ] && grep -qx "board serial number: $serial0" "$T/d0" &&
	grep -qx "device node: /dev/ipu0" "$T/d0" &&
	grep -qE "^clock: [0-9]+MHz$" "$T/d0" &&
	grep -qE "^threads: [0-9]+$" "$T/d0"; then ok "ipu-info -d 0"
else nok "ipu-info -d 0" "rc=$rc $(tr '\n' ';' <"$T/d0" | head -c 300)"; fi

pci0=$(basename "$(readlink -f /sys/class/ipu/ipu0/device)")
speed=$(cat "/sys/bus/pci/devices/$pci0/current_link_speed" 2>/dev/null | sed 's/ PCIe$//')
width=$(cat "/sys/bus/pci/devices/$pci0/current_link_width" 2>/dev/null)
if grep -qx "pci id: $pci0" "$T/d0" && grep -qx "link speed: $speed" "$T/d0" &&
	grep -qx "link width: $width" "$T/d0"; then ok "ipu-info -d 0 PCIe link ($speed x$width)"
else nok "ipu-info -d 0 PCIe link" "want $pci0 $speed x$width: $(grep -E '^(pci id|link)' "$T/d0" | tr '\n' ';')"; fi

ipu-info -d 0 --json >"$T/j0" 2>"$T/err"; rc=$?
if [ "$rc" = 0 ] && [ "$(head -c 1 "$T/j0")" = "{" ] && [ "$(tail -n 1 "$T/j0")" = "}" ] &&
	grep -q "^  \"board_serial_number\": \"$serial0\",$" "$T/j0" &&
	grep -qE '^  "clock_khz": [0-9]+,$' "$T/j0"; then ok "ipu-info -d 0 --json"
else nok "ipu-info -d 0 --json" "rc=$rc $(head -c 200 "$T/j0")"; fi

# 6: the list as JSON
ipu-info --json >"$T/jl" 2>"$T/err"; rc=$?
ids=$(grep -c '^      "id": ' "$T/jl")
if [ "$rc" = 0 ] && [ "$ids" = "$ncards" ] && head -n 2 "$T/jl" | grep -q '"ipus": \['; then
	ok "ipu-info --json lists $ncards cards"
else nok "ipu-info --json" "rc=$rc ids=$ids"; fi

# 7-8: reset card 1 (or 0)
c=1; [ -e /sys/class/ipu/ipu1 ] || c=0
before=$(cat /sys/class/ipu/ipu$c/reset_count)
ipu-reset -d $c >"$T/r" 2>"$T/err"; rc=$?
after=$(cat /sys/class/ipu/ipu$c/reset_count)
if [ "$rc" = 0 ] && [ "$after" = $((before + 1)) ] &&
	grep -qE "^ipu$c: reset, state ready, reset count $after \([0-9.]+ ms\)$" "$T/r"; then
	ok "ipu-reset -d $c (reset count $before -> $after)"
else nok "ipu-reset -d $c" "rc=$rc before=$before after=$after: $(cat "$T/r" "$T/err")"; fi
state=$(cat /sys/class/ipu/ipu$c/state)
[ "$state" = ready ] && ok "card $c ready after the reset" || nok "card $c ready after the reset" "state $state"

# 9: all cards, JSON
ipu-reset --all --json >"$T/ra" 2>"$T/err"; rc=$?
oks=$(grep -c '"ok": true' "$T/ra")
if [ "$rc" = 0 ] && [ "$oks" = "$ncards" ]; then ok "ipu-reset --all --json"
else nok "ipu-reset --all --json" "rc=$rc ok=$oks: $(cat "$T/err")"; fi

# 10: no wait, then the card becomes ready by itself
ipu-reset -d 0 --nowait >"$T/rn" 2>"$T/err"; rc=$?
i=0
while [ "$(cat /sys/class/ipu/ipu0/state)" != ready ] && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
if [ "$rc" = 0 ] && [ "$(cat /sys/class/ipu/ipu0/state)" = ready ]; then ok "ipu-reset --nowait"
else nok "ipu-reset --nowait" "rc=$rc state $(cat /sys/class/ipu/ipu0/state)"; fi

# 11-12: absent cards
ipu-info -d 99 >/dev/null 2>"$T/err"; rc=$?
[ "$rc" = 3 ] && grep -q "no IPU with id 99" "$T/err" && ok "ipu-info -d 99 exits 3" ||
	nok "ipu-info -d 99 exits 3" "rc=$rc $(cat "$T/err")"
ipu-reset -d 99 >/dev/null 2>"$T/err"; rc=$?
[ "$rc" = 3 ] && ok "ipu-reset -d 99 exits 3" || nok "ipu-reset -d 99 exits 3" "rc=$rc"

# 13: timeout bound checked before anything happens
ipu-reset -d 0 -t 60001 >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "ipu-reset -t 60001 exits 2" || nok "ipu-reset -t 60001 exits 2" "rc=$rc"

# 14: no udev database or daemon is needed (this VM has neither)
if [ ! -d /run/udev/data ]; then ok "enumeration without a udev database"
else skip "enumeration without a udev database" "/run/udev/data exists here"; fi

rm -rf "$T"
[ "$failed" = 0 ]
