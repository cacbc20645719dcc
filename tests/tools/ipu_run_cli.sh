#!/bin/sh
# The command-line path on every card of the VM: ipu-mkgraph writes example
# graphs and inputs, ipu-run runs them on the card and on the model device
# of the same chip, and the outputs must be the same bytes; a matmul over
# the model device of 4 IPUs. Also the refusals a user meets: a
# wrong-shaped input, an unknown tensor, a card that does not exist. KTAP
# on stdout.
work=$(mktemp -d /tmp/ipu-run-cli.XXXXXX)
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
echo "1..$(( $(echo $cards | wc -w) * 3 * 2 + 5 ))"
for c in $cards; do
	id=${c%%:*}; rest=${c#*:}; model=${rest%%:*}
	for kind in matmul mlp add; do
		size=""
		[ "$model" = test ] && case $kind in
			matmul) size="-s 64,96,32" ;;
			mlp) size="-s 16,32,32" ;;
			add) size="-s 4096" ;;
		esac
		mkdir -p "$id-$kind" && cd "$id-$kind" || exit 1
		ins=""
		case $kind in
		matmul|add) ins="--in a=a.npy --in b=b.npy"; o=c ;;
		mlp) ins="--in x=x.npy --in w1=w1.npy --in b1=b1.npy --in w2=w2.npy --in b2=b2.npy"; o=y ;;
		esac
		check "ipu$id ($model): ipu-run $kind on the card" \
			sh -c "ipu-mkgraph -m $model $size -i . $kind g.ipug &&
			       ipu-run -d $id g.ipug $ins --out $o=card.npy"
		check "ipu$id ($model): $kind output equals the model device's" \
			sh -c "ipu-run -m $model g.ipug $ins --out $o=model.npy >/dev/null &&
			       cmp card.npy model.npy"
		cd "$work" || exit 1
	done
done

# The model device of 4 gc200 IPUs in the guest: the default matmul spread
# over them runs (its AVX2 tails read only their own lanes: TCG's
# VMASKMOVPS reads all 32 bytes and faulted at the end of a mapping), and
# the same with one host thread gives the same bytes.
mkdir -p "$work/model4" && cd "$work/model4" || exit 1
check "the model device of 4 gc200 IPUs: a matmul over them, the same with 1 thread" \
	sh -c "ipu-mkgraph --ipus 4 -i . matmul g.ipug &&
	       ipu-run -m gc200 --ipus 4 g.ipug --in a=a.npy --in b=b.npy --out c=c.npy >/dev/null &&
	       ipu-run -m gc200 --ipus 4 -t 1 g.ipug --in a=a.npy --in b=b.npy --out c=c1.npy >/dev/null &&
	       cmp c.npy c1.npy"

# Refusals, on card 0's graphs: each must fail with the right status.
cd "$work/0-matmul" || exit 1
out=$(ipu-run -d 0 g.ipug --in a=b.npy --in b=b.npy 2>&1); rc=$?
if [ $rc = 1 ] && echo "$out" | grep -q shape; then ok "an input of the wrong shape is refused (exit 1)"; else nok "an input of the wrong shape is refused" "exit $rc: $out"; fi
cd "$work/0-add" || exit 1
head -c 100 a.npy >short.npy
out=$(ipu-run -d 0 g.ipug --in a=short.npy --in b=b.npy 2>&1); rc=$?
if [ $rc = 1 ] && [ -n "$out" ]; then ok "a truncated .npy is refused (exit 1)"; else nok "a truncated .npy is refused" "exit $rc: $out"; fi
out=$(ipu-run -d 0 g.ipug --in nosuch=a.npy 2>&1); rc=$?
if [ $rc = 1 ] && echo "$out" | grep -q nosuch; then ok "an unknown tensor is refused by name"; else nok "an unknown tensor is refused by name" "exit $rc: $out"; fi
out=$(ipu-run -d 99 g.ipug 2>&1); rc=$?
if [ $rc = 3 ]; then ok "a card that does not exist: exit 3"; else nok "a card that does not exist: exit 3" "exit $rc: $out"; fi
exit $failed
