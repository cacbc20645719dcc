#!/bin/sh
# ipu-train data-parallel on the four cards of an M2000 (device 6; booted by
# tests/library/group/run.sh, vm-group-check): the digits MLP with
# --replicas 4 on device 6 and on the model device of 4 IPUs must end with
# the same weights byte for byte (the same replicated graph, the same
# deterministic collectives), the same losses and accuracies, and a test
# accuracy of at least 95 %; --replicas 2 on device 6 (4 IPUs) is refused
# with exit 2. Four epochs of batch 64 (88 runs of a step; TCG is slow),
# lr 0.1, seed 7: 97.2 % on the host's model device of 4 test-model IPUs.
# Without a device 6 it skips. KTAP on stdout.
work=$(mktemp -d /tmp/ipu-train-group.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); failed=1; echo "not ok $n $1"; shift; for l in "$@"; do echo "# $l"; done; }
check() { # name, then a command that must succeed
	name=$1; shift
	if out=$("$@" 2>&1); then ok "$name"; else nok "$name" "$out"; fi
}
# strip FILE: the JSON records without what differs between devices
strip() { sed 's/"device": "[^"]*", //; s/, "seconds".*//' "$1"; }

echo "TAP version 13"
echo "1..6"
if ! ipu-info -l 2>/dev/null | grep -q 'Id: \[6\], target: \[Multi IPU\], IPUs: \[4\]'; then
	for i in 1 2 3 4 5 6; do echo "ok $i ipu-train group # SKIP no device 6 (an M2000)"; done
	exit 0
fi
chip=$(ipu-info -d 0 | sed -n 's/^model: //p')
args="digits --model mlp --epochs 4 --batch 64 --lr 0.1 --seed 7 --replicas 4 --json"
w="fc1_w fc1_b fc2_w fc2_b"
check "ipu-train mlp --replicas 4 on device 6 ($chip)" \
	sh -c "ipu-train $args --device 6 --save-weights card >card.json"
check "ipu-train mlp --replicas 4 on the model device of 4 IPUs ($chip)" \
	sh -c "ipu-train $args --device model --chip $chip --save-weights model >model.json"
check "replicas: device 6's weights equal the model device's byte for byte" \
	sh -c "for x in $w; do cmp card/\$x.npy model/\$x.npy || exit 1; done"
if [ -s card.json ] && [ "$(strip card.json)" = "$(strip model.json)" ]; then
	ok "replicas: device 6's losses and accuracies equal the model device's"
else
	nok "replicas: device 6's losses and accuracies equal the model device's" \
		"card: $(cat card.json)" "model: $(cat model.json)"
fi
acc=$(tail -n 1 card.json | sed -n 's/.*"test_acc": \([0-9.]*\).*/\1/p')
case $acc in
0.9[5-9]*|1.0*) ok "replicas: test accuracy on device 6: $acc (at least 0.95)" ;;
*) nok "replicas: test accuracy on device 6 is at least 0.95" "got '$acc'" ;;
esac
out=$(ipu-train digits --model mlp --epochs 1 --replicas 2 --device 6 2>&1); rc=$?
if [ $rc = 2 ] && echo "$out" | grep -q "has 4 IPUs"; then
	ok "--replicas 2 on device 6 (4 IPUs): exit 2"
else
	nok "--replicas 2 on device 6 (4 IPUs): exit 2" "exit $rc: $out"
fi
exit $failed
