#!/bin/bash
# ipu-bench --links and --host-sync on the cards of an M2000 (host side of
# vm-bench-links-check): boot 4 test-model cards on an m2000 fabric, run
# ipu-bench in the guest, check its JSON here (checks.sh, as the host
# tests check the model device's):
#   - --links lists exactly the linked pairs, each on the smallest device
#     id holding it (rungs 0-1 on 4, 2-3 on 5; rails 0-2, 1-3 only on 6),
#     moving 2 x --size bytes (ipu-bench checks every byte received);
#   - --host-sync on card 0 and on device 6: the syncs asked for, each
#     modelled as an external sync of 1 and of 4 IPUs;
#   - a pair whose card another process holds: exit 4, naming the holder.
# Usage: links_vm.sh REPO BUILD; KTAP on stdout.
set -u
REPO=$1 B=$2
share=$B/vm-bench-links-share
rm -rf "$share" && mkdir -p "$share"
. "$REPO/tests/library/ktap.sh"
. "$REPO/tests/tools/bench/checks.sh"
cat >"$share/guest.sh" <<'GUEST'
#!/bin/sh
i=0
until ipu-links --json | grep -q '"overall_result": "passed"' || [ $i -ge 100 ]; do
	sleep 0.1; i=$((i + 1))
done
ipu-bench --links --size 256K --count 2 --json >links.json 2>links.err
echo $? >links.rc
ipu-bench --host-sync -d 0 --count 200 --json >sync0.json 2>sync0.err
ipu-bench --host-sync -d 6 --count 200 --json >sync6.json 2>sync6.err
# card 2 held by another process: the pairs of devices 5 and 6 cannot attach
ipu-bench --host-sync -d 2 --count 10000000 >/dev/null 2>&1 &
holder=$!
sleep 2
ipu-bench --links --size 4K --count 1 >busy.out 2>&1
echo $? >busy.rc
kill $holder
wait $holder 2>/dev/null
sync
GUEST

"$REPO/tools/ipu-vm" -q -n 4 --topology m2000 --models test --share "$share" --timeout 900 \
	-- sh ./guest.sh >"$share/guest.log" 2>&1
vm_rc=$?

if [ "$(cat "$share/links.rc" 2>/dev/null)" = 0 ]; then
	links_json "vm-bench-links: M2000 pairs on their smallest devices" "$share/links.json" 262144 \
		"0-1:2@4/2 0-2:1@6/4 1-3:1@6/4 2-3:2@5/2"
else
	add fail "vm-bench-links: M2000 pairs on their smallest devices" \
		"VM status $vm_rc, rc $(cat "$share/links.rc" 2>/dev/null): $(head -c 200 "$share/links.err" 2>/dev/null)"
fi
host_sync_json "vm-bench-links: host sync on card 0" "$share/sync0.json" 200 1 500
host_sync_json "vm-bench-links: host sync on device 6" "$share/sync6.json" 200 4 1300
if [ "$(cat "$share/busy.rc" 2>/dev/null)" = 4 ] && grep -q "in use" "$share/busy.out"; then
	add ok "vm-bench-links: a held card: exit 4 naming the holder"
else
	add fail "vm-bench-links: a held card: exit 4 naming the holder" \
		"rc $(cat "$share/busy.rc" 2>/dev/null): $(head -c 200 "$share/busy.out" 2>/dev/null)"
fi
ktap_print
