#!/bin/sh
# ipu-train in the VM: the MLP trained on card 0 and on the model device of
# card 0's chip (two epochs of batch 64: 44 steps and two evaluations) must end
# with the same weights, byte for byte (the same graph on a deterministic
# engine), and a reasonable accuracy; a card that does not exist is exit 3.
# KTAP on stdout.
work=$(mktemp -d /tmp/ipu-train-vm.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); failed=1; echo "not ok $n $1"; shift; for l in "$@"; do echo "# $l"; done; }
check() { # name, then a command that must succeed
	name=$1; shift
	if out=$("$@" 2>&1); then ok "$name"; else nok "$name" "$out"; fi
}

echo "TAP version 13"
cards=$(echo "${IPU_VM_CARDS:-}" | tr ',' ' ')
[ -n "$cards" ] || { echo "1..0 # SKIP IPU_VM_CARDS is not set"; exit 0; }
first=${cards%% *}
rest=${first#*:}; model=${rest%%:*}
echo "1..6"
args="digits --model mlp --epochs 2 --batch 64 --seed 7"
check "ipu-train mlp on card 0 ($model)" \
	sh -c "ipu-train $args --device 0 --json --save-weights card >card.json"
check "ipu-train mlp on the model device ($model)" \
	sh -c "ipu-train $args --device model --chip $model --json --save-weights model >model.json"
check "the card's weights equal the model device's byte for byte" \
	sh -c "for w in fc1_w fc1_b fc2_w fc2_b; do cmp card/\$w.npy model/\$w.npy || exit 1; done"
# the same losses and accuracies too (samples/s differ)
strip() { sed 's/"device": "[^"]*", //; s/, "seconds".*//' "$1"; }
if [ -s card.json ] && [ "$(strip card.json)" = "$(strip model.json)" ]; then
	ok "the card's loss and accuracies equal the model device's"
else
	nok "the card's loss and accuracies equal the model device's" "card: $(cat card.json)" "model: $(cat model.json)"
fi
acc=$(tail -n 1 card.json | sed -n 's/.*"test_acc": \([0-9.]*\).*/\1/p')
case $acc in
0.[89]*|1.0*) ok "test accuracy after two epochs on the card: $acc" ;;
*) nok "test accuracy after two epochs on the card is at least 0.8" "got '$acc'" ;;
esac
out=$(ipu-train digits --model mlp --device 99 2>&1); rc=$?
if [ $rc = 3 ]; then ok "a card that does not exist: exit 3"; else nok "a card that does not exist: exit 3" "exit $rc: $out"; fi
exit $failed
