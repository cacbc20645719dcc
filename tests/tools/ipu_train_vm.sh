#!/bin/sh
# ipu-train in the VM: the MLP and the CNN each trained on card 0 and on the
# model device of card 0's chip must end with the same weights, byte for
# byte (the same graph on a deterministic engine), the same losses and
# accuracies, and a reasonable accuracy; a card that does not exist is
# exit 3. The runs are short for TCG: two epochs of batch 64 (44 steps and
# two evaluations) each; the CNN at lr 0.1 (88.6 % test accuracy after them
# on the host, seed 7), the MLP at its default. KTAP on stdout.
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
# strip FILE: the JSON records without what differs between devices
strip() { sed 's/"device": "[^"]*", //; s/, "seconds".*//' "$1"; }

# card_vs_model MODEL "EXTRA ARGS" "WEIGHTS": 5 tests
card_vs_model() {
	m=$1 args="digits --model $1 --epochs 2 --batch 64 --seed 7 $2"
	check "ipu-train $m on card 0 ($chip)" \
		sh -c "ipu-train $args --device 0 --json --save-weights $m-card >$m-card.json"
	check "ipu-train $m on the model device ($chip)" \
		sh -c "ipu-train $args --device model --chip $chip --json --save-weights $m-model >$m-model.json"
	check "$m: the card's weights equal the model device's byte for byte" \
		sh -c "for w in $3; do cmp $m-card/\$w.npy $m-model/\$w.npy || exit 1; done"
	if [ -s "$m-card.json" ] && [ "$(strip "$m-card.json")" = "$(strip "$m-model.json")" ]; then
		ok "$m: the card's loss and accuracies equal the model device's"
	else
		nok "$m: the card's loss and accuracies equal the model device's" \
			"card: $(cat "$m-card.json")" "model: $(cat "$m-model.json")"
	fi
	acc=$(tail -n 1 "$m-card.json" | sed -n 's/.*"test_acc": \([0-9.]*\).*/\1/p')
	case $acc in
	0.[89]*|1.0*) ok "$m: test accuracy after two epochs on the card: $acc" ;;
	*) nok "$m: test accuracy after two epochs on the card is at least 0.8" "got '$acc'" ;;
	esac
}

echo "TAP version 13"
cards=$(echo "${IPU_VM_CARDS:-}" | tr ',' ' ')
[ -n "$cards" ] || { echo "1..0 # SKIP IPU_VM_CARDS is not set"; exit 0; }
first=${cards%% *}
rest=${first#*:}; chip=${rest%%:*}
echo "1..11"
card_vs_model mlp "" "fc1_w fc1_b fc2_w fc2_b"
card_vs_model cnn "--lr 0.1" "conv1_w conv1_b conv2_w conv2_b fc_w fc_b"
out=$(ipu-train digits --model mlp --device 99 2>&1); rc=$?
if [ $rc = 3 ]; then ok "a card that does not exist: exit 3"; else nok "a card that does not exist: exit 3" "exit $rc: $out"; fi
exit $failed
