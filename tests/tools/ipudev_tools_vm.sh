#!/bin/sh
# In-VM test of ipu-info and ipu-reset against the emulated cards (busybox
# sh; installed into the VM's /tests through VM_TESTS by mk/tools.mk).
# Prints KTAP.
# The cards are described by IPU_VM_CARDS (index:model:serial,...) when set;
# IPU_VM_TOPOLOGY names the fabric they form (m2000, pod16) when the VM was
# booted with one (tools/ipu-vm --topology). Without the driver's IPU-Link
# sysfs the links tests check that the tools say so; with it they check
# every channel against sysfs, and the device ids of the named topology,
# and a program of ipu-mkgraph --ipus N runs on the device id of all the
# IPUs (ipu-run -d) as on the model device of N IPUs, bit for bit; with the
# host's QMP too (IPU_QMP_DIR, tests/common/qmp-serve.py) the ids after
# both rails between the first two pairs are cut, and after they are up
# again.
n=0 failed=0
T=$(mktemp -d)
out() { n=$((n + 1)); echo "$1 $n $2"; }
ok() { out ok "$1"; }
nok() { out "not ok" "$1 # $2"; failed=$((failed + 1)); }
skip() { out ok "$1 # SKIP $2"; }

echo "KTAP version 1"
echo "1..28"

if [ ! -d /sys/class/ipu ]; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28; do
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

# --- device ids, groups and IPU-Links (15-22) --------------------------------
links=0
[ -d /sys/class/ipu/ipu0/links ] && links=1
# Links train in emulated time after the resets above: wait until no port
# is training (at most 5 s), so that sysfs and the tools see one state.
i=0
while [ "$links" = 1 ] && [ $i -lt 50 ] &&
	cat /sys/class/ipu/ipu*/links/port*/state 2>/dev/null | grep -q training; do
	sleep 0.1; i=$((i + 1))
done

# 15: -l lists every card as a single IPU, in order, as gc-info -l
ipu-info -l >"$T/l" 2>"$T/err"; rc=$?
bad=""; k=0
for d in $(ls /sys/class/ipu | sed 's/^ipu//' | sort -n); do
	s=$(cat /sys/class/ipu/ipu$d/serial)
	grep -qF -- "-+- Id: [$k], target: [PCIe], IPU: [ipu$d], " "$T/l" &&
		grep -F -- "-+- Id: [$k], target: [PCIe]" "$T/l" | grep -qF "serial: [$s]" ||
		bad="$bad ipu$d"
	k=$((k + 1))
done
multi=$(grep -c 'target: \[Multi IPU\]' "$T/l")
if [ "$rc" = 0 ] && [ -z "$bad" ] && { [ "$links" = 1 ] || [ "$multi" = 0 ]; }; then
	ok "ipu-info -l lists $ncards single IPUs ($multi multi-IPU)"
else nok "ipu-info -l" "rc=$rc missing:$bad multi=$multi links=$links: $(head -c 200 "$T/err")"; fi

# 16: -d N -i is the detail, as gc-info users type it
ipu-info -d 0 >"$T/d0a" 2>/dev/null; rc1=$?
ipu-info -d 0 -i >"$T/d0b" 2>/dev/null; rc2=$?
if [ "$rc1" = 0 ] && [ "$rc2" = 0 ] && cmp -s "$T/d0a" "$T/d0b" &&
	grep -q "^board serial number: " "$T/d0b"; then ok "ipu-info -d 0 -i"
else nok "ipu-info -d 0 -i" "rc=$rc1/$rc2 $(diff "$T/d0a" "$T/d0b" | head -c 200)"; fi

# 17: the card's IPU-Link lines in the detail agree with sysfs
if [ "$links" = 1 ]; then
	ports=$(ls -d /sys/class/ipu/ipu0/links/port* | wc -l)
	up=$(cat /sys/class/ipu/ipu0/links/port*/state | grep -cx up)
	fi0=$(cat /sys/class/ipu/ipu0/fabric_index 2>/dev/null || echo -1)
	[ "$fi0" = -1 ] && fi0=n/a
	grep -qx "ipu-link ports: $ports" "$T/d0b" && grep -qx "ipu-links up: $up" "$T/d0b" &&
		grep -qx "fabric index: $fi0" "$T/d0b" && ok "ipu-info -d 0: $up of $ports links up" ||
		nok "ipu-info -d 0 links" "want $ports ports, $up up, index $fi0: $(grep -E '^(fabric|ipu-link)' "$T/d0b" | tr '\n' ';')"
else
	grep -qx "ipu-links: no IPU-Link information" "$T/d0b" &&
		ok "ipu-info -d 0: no IPU-Link information" ||
		nok "ipu-info -d 0: no IPU-Link information" "$(grep -E '^(fabric|ipu-link)' "$T/d0b" | tr '\n' ';')"
fi

# 18-19: ipu-links, text and JSON
ipu-links >"$T/k" 2>"$T/err"; rc=$?
ipu-links --json >"$T/kj" 2>>"$T/err"; rcj=$?
rows=$(grep -c '^ipu[0-9]*:' "$T/k")
# ipu-info --links is the same view
ipu-info --links >"$T/k2" 2>>"$T/err" && cmp -s "$T/k" "$T/k2" || rc="$rc, ipu-info --links differs"
if [ "$links" = 0 ]; then
	[ "$rc" = 0 ] && grep -q "^no IPU-Link information" "$T/k" &&
		ok "ipu-links: no IPU-Link information, exit 0" ||
		nok "ipu-links without link sysfs" "rc=$rc $(head -c 200 "$T/k") $(cat "$T/err")"
	[ "$rcj" = 0 ] && grep -q '"link_information": false' "$T/kj" &&
		grep -q '"channels": \[\]' "$T/kj" && ok "ipu-links --json: link_information false" ||
		nok "ipu-links --json without link sysfs" "rc=$rcj $(head -c 200 "$T/kj")"
else
	# a VM without a fabric: ports, none wired
	{ head -1 "$T/k" | grep -q '^FROM  *TO  *STATE' ||
		{ [ "$rows" = 0 ] && grep -qx "no IPU-Link channels: no port is wired" "$T/k"; }; } &&
		[ "$rc" = 0 ] && ok "ipu-links: $rows channels" ||
		nok "ipu-links" "rc=$rc $(head -c 200 "$T/k") $(cat "$T/err")"
	recs=$(grep -c '^      "from": ' "$T/kj")
	# each record's from, to and state are its text row's
	awk '/^ipu[0-9]*:/ { print $1, $2, $3 }' "$T/k" >"$T/krows"
	awk -F'"' '/^      "from": / { f = $4 } /^      "to": / { t = $4 }
		/^      "state": / { print f, t, $4 }' "$T/kj" >"$T/jrows"
	[ "$rcj" = 0 ] && grep -q "^  \"num_ipus\": $ncards,$" "$T/kj" && [ "$recs" = "$rows" ] &&
		cmp -s "$T/krows" "$T/jrows" && ok "ipu-links --json: $recs records, as the rows" ||
		nok "ipu-links --json" "rc=$rcj records=$recs rows=$rows $(diff "$T/krows" "$T/jrows" | head -c 200)"
fi

# 20: every channel as sysfs has it: each end names the other, same state
if [ "$links" = 1 ]; then
	bad=""; n2=0
	while read -r from to st rest; do
		a=${from%%:*}; p=${from#*:}; b=${to%%:*}; q=${to#*:}
		case "$b" in ipu[0-9]*) ;; *) continue ;; esac
		n2=$((n2 + 2))
		pa=/sys/class/ipu/$a/links/port$p; pb=/sys/class/ipu/$b/links/port$q
		want="$(cat "$pa/state")"; [ "$(cat "$pb/state")" = "$want" ] || want="$want/$(cat "$pb/state")"
		[ "$(cat "$pa/peer")" = "$(cat /sys/class/ipu/$b/serial):$q" ] &&
			[ "$(cat "$pb/peer")" = "$(cat /sys/class/ipu/$a/serial):$p" ] &&
			[ "$st" = "$want" ] || bad="$bad $from-$to"
	done <<EOF
$(grep '^ipu[0-9]*:' "$T/k")
EOF
	serials=$(cat /sys/class/ipu/ipu*/serial | tr '\n' ' ')
	wired=0
	for f in /sys/class/ipu/ipu*/links/port*/peer; do
		pe=$(cat "$f"); [ "$pe" = none ] && continue
		case " $serials" in *" ${pe%:*} "*) wired=$((wired + 1)) ;; esac
	done
	[ -z "$bad" ] && [ "$n2" = "$wired" ] && ok "ipu-links rows match sysfs ($wired port ends)" ||
		nok "ipu-links rows match sysfs" "bad:$bad ends $n2 want $wired"
else skip "ipu-links rows match sysfs" "no IPU-Link sysfs (driver branch linksdrv)"; fi

# 21: the ladder
ipu-links --topology >"$T/t" 2>"$T/err"; rc=$?
if [ "$links" = 0 ]; then
	[ "$rc" = 0 ] && grep -q "^no IPU-Link information" "$T/t" &&
		ok "ipu-links --topology: no IPU-Link information" || nok "ipu-links --topology" "rc=$rc"
else
	pairs=$(grep -cE '^ipu[0-9]+( |$)' "$T/t")
	[ "$rc" = 0 ] && [ "$pairs" = $(((ncards + 1) / 2)) ] && ok "ipu-links --topology: $pairs rows" ||
		nok "ipu-links --topology" "rc=$rc rows=$pairs $(head -c 300 "$T/t")"
fi

# The multi-IPU ids with every link up (docs/libipudev.md "Multi-IPU device
# ids"): "id:members" of each aligned block of 2, 4, 8, 16 of N cards.
all_blocks() {
	id=$1
	for sz in 2 4 8 16; do
		b=0
		while [ $((b + sz)) -le "$1" ]; do
			m=$b k=$((b + 1))
			while [ $k -lt $((b + sz)) ]; do m="$m,$k"; k=$((k + 1)); done
			printf '%s ' "$id:$m"
			id=$((id + 1)) b=$((b + sz))
		done
	done
}
# The multi-IPU ids ipu-info -l shows, as "id:members ...".
listed_groups() {
	ipu-info -l 2>/dev/null | awk '
		/^-\+- Id: .*target: \[Multi IPU\]/ { if (g != "") printf "%s ", g
			g = $0; sub(/^-\+- Id: \[/, "", g); sub(/\].*/, "", g); g = g ":"; s = ""; next }
		/^-\+- Id: / { if (g != "") printf "%s ", g; g = ""; next }
		g != "" && /^ \|--- Id: / { m = $0; sub(/^ \|--- Id: \[/, "", m); sub(/\].*/, "", m)
			g = g s m; s = "," }
		END { if (g != "") printf "%s ", g }'
}
# Waits until no link is training (5 s at most).
links_settle() {
	i=0
	until ipu-links --json | grep -q '"overall_result": "passed"' || [ $i -ge 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
}

# 22: the device ids of a known topology, every link up
case "${IPU_VM_TOPOLOGY:-}" in
m2000|pod16)
	want=$(all_blocks "$ncards") nids=$((2 * ncards - 1))
	links_settle
	got=$(listed_groups)
	ids=$(ipu-info -l 2>/dev/null | grep -c '^-+- Id: ')
	ipu-info -d $((2 * ncards - 2)) >"$T/g" 2>&1
	[ "$got" = "$want" ] && [ "$ids" = "$nids" ] && grep -qx "type: Multi IPU" "$T/g" &&
		ok "$IPU_VM_TOPOLOGY: device ids and members, links up" ||
		nok "$IPU_VM_TOPOLOGY: device ids" "ids=$ids want $nids; got [$got] want [$want] $(head -c 200 "$T/g")"
	;;
*) skip "device ids of a topology" "IPU_VM_TOPOLOGY not set (tools/ipu-vm --topology, branch fabric)" ;;
esac

# 23-25: a program across all the IPUs on their device id, as on the model
# device of as many IPUs; a binary for another IPU count is refused
case "${IPU_VM_TOPOLOGY:-}" in
m2000) all=6 nipus=4 ;;
pod16) all=30 nipus=16 ;;
*) all="" ;;
esac
c0=${IPU_VM_CARDS%%,*}; m=${c0#*:}; m=${m%%:*}
mm="" ar=""
[ "$m" = test ] && mm="-s 64,96,32" ar="-s 4096"
across() { # NAME KIND SIZE OUT INPUTS...: on device $all and the model, cmp
	name=$1 kind=$2 size=$3 o=$4; shift 4
	ins=""; for i in "$@"; do ins="$ins --in $i=$T/$kind/$i.npy"; done
	mkdir -p "$T/$kind"
	# shellcheck disable=SC2086
	if ipu-mkgraph -m "$m" --ipus $nipus $size -i "$T/$kind" "$kind" "$T/$kind/g.ipug" >"$T/err" 2>&1 &&
		ipu-run -d $all "$T/$kind/g.ipug" $ins --out "$o=$T/$kind/dev.npy" >"$T/run" 2>>"$T/err" &&
		grep -q "on device $all\$" "$T/run" &&
		ipu-run -m "$m" --ipus $nipus "$T/$kind/g.ipug" $ins --out "$o=$T/$kind/model.npy" \
			>/dev/null 2>>"$T/err" &&
		cmp "$T/$kind/dev.npy" "$T/$kind/model.npy" >>"$T/err" 2>&1; then
		ok "$name on device $all equals the model device of $nipus IPUs"
	else nok "$name on device $all" "$(tr '\n' ' ' <"$T/err" | head -c 300)"; fi
}
if [ -n "$all" ]; then
	across "a matmul over $nipus IPUs" matmul "$mm" c a b
	across "an all-reduce of $nipus rows" allreduce "$ar" y x
	g=$T/matmul/g.ipug
	ipu-mkgraph -m "$m" $mm matmul "$T/one.ipug" >/dev/null 2>&1
	ipu-run -d 0 "$g" >/dev/null 2>"$T/e1"; rc1=$?
	ipu-run -d $all "$T/one.ipug" >/dev/null 2>"$T/e2"; rc2=$?
	ipu-run -d $nipus "$g" >/dev/null 2>"$T/e3"; rc3=$?
	if [ "$rc1" = 1 ] && grep -q "for $nipus IPUs, ipu0 has 1 IPU" "$T/e1" &&
		[ "$rc2" = 1 ] && grep -q "for 1 IPU, device $all has $nipus IPUs" "$T/e2" &&
		[ "$rc3" = 1 ] && grep -q "for $nipus IPUs, device $nipus has 2 IPUs" "$T/e3"; then
		ok "a binary for another IPU count is refused on a card and on devices $all and $nipus"
	else nok "a binary for another IPU count is refused" "rc=$rc1/$rc2/$rc3 $(cat "$T/e1" "$T/e2" "$T/e3" | tr '\n' ' ' | head -c 300)"; fi
else
	for i in 23 24 25; do
		skip "ipu-run across the IPUs of a topology $i" "IPU_VM_TOPOLOGY not set (tools/ipu-vm --topology)"
	done
fi

# 26-27: health and telemetry (uAPI 1.8): the detail view and the monitor
health0=$(cat /sys/class/ipu/ipu0/health 2>/dev/null)
rec0=$(cat /sys/class/ipu/ipu0/recoveries)
ipu-info -d 0 >"$T/h0" 2>"$T/err"; rc=$?
if [ "$rc" = 0 ] && [ -n "$health0" ] && grep -qx "ipu health: $health0" "$T/h0" &&
	grep -qx "recoveries: $rec0" "$T/h0" &&
	grep -qE '^average die temp: [0-9]+\.[0-9]C$' "$T/h0" &&
	grep -qE '^ipu power: [0-9]+\.[0-9]W$' "$T/h0" &&
	grep -qE '^ipu utilisation: [0-9]+%$' "$T/h0" &&
	grep -qx "dma errors: $(cat /sys/class/ipu/ipu0/errors_dma)" "$T/h0" &&
	grep -qx "user process id: n/a" "$T/h0"; then ok "ipu-info -d 0 health ($health0)"
else nok "ipu-info -d 0 health" "rc=$rc health=$health0 $(grep -E '^(average|ipu |recov|dma|user)' "$T/h0" | tr '\n' ';')"; fi

ipu-info -m >"$T/m" 2>"$T/err"; rc=$?
ipu-info -m --json >"$T/mj" 2>>"$T/err"; rcj=$?
rows=$(($(wc -l <"$T/m") - 1))
if [ "$rc" = 0 ] && [ "$rcj" = 0 ] && [ "$rows" = "$ncards" ] &&
	head -n 1 "$T/m" | grep -q 'TEMP  *POWER  *UTIL  *HEALTH .*PID  *USER  *COMMAND$' &&
	[ "$(grep -c '"ipu_health": "' "$T/mj")" = "$ncards" ] &&
	[ "$(grep -c '"user_process_id": null' "$T/mj")" = "$ncards" ]; then
	ok "ipu-info -m lists $ncards cards (text and JSON)"
else nok "ipu-info -m" "rc=$rc/$rcj rows=$rows $(cat "$T/err" "$T/m" | tr '\n' ';' | head -c 300)"; fi

# One QMP command through the host (tests/common/ipu_host_qmp.h's
# protocol: DIR/req-N in, DIR/rsp-N out); its answer on stdout.
host_qmp() {
	k=0
	while [ -e "$IPU_QMP_DIR/req-$k" ]; do k=$((k + 1)); done
	echo "$1" >"$IPU_QMP_DIR/req-$k.tmp" && mv "$IPU_QMP_DIR/req-$k.tmp" "$IPU_QMP_DIR/req-$k"
	i=0
	while [ ! -e "$IPU_QMP_DIR/rsp-$k" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	cat "$IPU_QMP_DIR/rsp-$k" 2>/dev/null
}
# Both rail links between pairs (0,1) and (2,3), the links from member 0
# and 1's port 2 (docs/hw-interface.md "Topologies and ports"), to STATE.
rails() {
	for m in 0 1; do
		host_qmp '{"execute": "qom-set", "arguments": {"path": "/machine/peripheral/f0", "property": "link", "value": "index='$m',port=2,state='$1'"}}' |
			grep -q '"return"' || echo "qom-set $m.2 $1 failed"
	done
}

# 28: the rails cut: the blocks they disconnect lose their ids (an M2000's
# 6; a POD16's 24 and 28, whose halves only those rails join), the others
# keep theirs (a POD16's 30: its rails close at 14-0 and 15-1); both ends
# show down in sysfs; the rails up again give every id back.
case "${IPU_VM_TOPOLOGY:-}" in
m2000|pod16)
	if [ -z "${IPU_QMP_DIR:-}" ] || [ ! -e "$IPU_QMP_DIR/ready" ]; then
		skip "rails cut and restored" "no QMP from the host (IPU_QMP_DIR)"
	else
		gone=6; [ "$IPU_VM_TOPOLOGY" = pod16 ] && gone="24 28"
		want=$(all_blocks "$ncards") cut=""
		for g in $want; do
			case " $gone " in *" ${g%%:*} "*) ;; *) cut="$cut$g " ;; esac
		done
		err=$(rails down)
		ends=$(cat /sys/class/ipu/ipu0/links/port2/state /sys/class/ipu/ipu1/links/port2/state \
			/sys/class/ipu/ipu2/links/port3/state /sys/class/ipu/ipu3/links/port3/state | tr '\n' ' ')
		got=$(listed_groups)
		err="$err$(rails up)"
		links_settle
		back=$(listed_groups)
		[ -z "$err" ] && [ "$ends" = "down down down down " ] && [ "$got" = "$cut" ] &&
			[ "$back" = "$want" ] && ok "rails cut: ids $gone gone, the others kept; restored" ||
			nok "rails cut and restored" "$err ends [$ends] cut [$got] want [$cut] back [$back]"
	fi
	;;
*) skip "rails cut and restored" "IPU_VM_TOPOLOGY not set" ;;
esac

rm -rf "$T"
[ "$failed" = 0 ]
