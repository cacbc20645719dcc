#!/bin/bash
# Host tests of ipu-mkgraph and ipu-run on the model device, for graphs of
# several IPUs (`make tools-check` -> $(B)/results/tools.ktap). Usage:
# mkgraph_run_host.sh BUILD_DIR; KTAP on stdout.
#   - ipu-mkgraph --ipus N: matmul, mlp and add spread over N IPUs, and the
#     allreduce kind, run by ipu-run --ipus N on the model device of N IPUs,
#     give numpy's results (the all-reduce: every row the sum of the rows,
#     the same bytes in every row; add: exact);
#   - a run does not depend on the model's host threads (bit for bit);
#   - refusals: a binary for another IPU count than the device's (both
#     ways, exit 1, naming both counts), a bad --ipus (exit 2), --ipus with
#     --device (exit 2), allreduce on one IPU (exit 2), a device id that
#     does not exist (exit 3).
set -u
B=$1
MK=$B/tools/ipu-mkgraph
RUN=$B/tools/ipu-run
PY=/usr/bin/python3	# Debian's, with numpy (a pyenv python3 may lack it)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/../library/ktap.sh"


# numpy NAME DIR EXPR: EXPR (Python, over DIR's .npy files loaded by name)
# is true
numpy() {
	local name=$1 dir=$2 expr=$3 out
	if out=$(cd "$dir" && "$PY" -c '
import glob, sys, numpy as np
v = {f[:-4]: np.load(f) for f in glob.glob("*.npy")}
sys.exit(0 if eval(sys.argv[1], dict(v, np=np)) else 1)' "$expr" 2>&1); then
		add ok "$name"
	else
		add fail "$name" "not true: $expr ${out:0:200}"
	fi
}

# mkrun NAME IPUS KIND SIZE OUT INPUTS...: make DIR $TMP/NAME with the graph
# and its inputs, run it on the model device of IPUS IPUs, save OUT.
mkrun() {
	local name=$1 ipus=$2 kind=$3 size=$4 out=$5 d=$TMP/$1 ins=()
	shift 5
	for i in "$@"; do ins+=(--in "$i=$d/$i.npy"); done
	mkdir -p "$d"
	expect "${name}_mkgraph" 0 "" "$MK" -m test --ipus "$ipus" -s "$size" -i "$d" "$kind" "$d/g.ipug"
	expect "${name}_run" 0 "on model-test-x$ipus" "$RUN" -m test --ipus "$ipus" "$d/g.ipug" \
		"${ins[@]}" --out "$out=$d/$out.npy"
}

export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

mkrun matmul4 4 matmul 64,96,32 c a b
numpy matmul4_equals_numpy "$TMP/matmul4" "c.shape == (64, 32) and np.allclose(c, a @ b, rtol=1e-5, atol=1e-5)"
mkrun mlp4 4 mlp 16,32,32 y x w1 b1 w2 b2
numpy mlp4_equals_numpy "$TMP/mlp4" \
	"np.allclose(y, np.maximum(np.maximum(x @ w1 + b1, 0) @ w2 + b2, 0), rtol=1e-5, atol=1e-5)"
mkrun add2 2 add 4096 c a b
numpy add2_exact "$TMP/add2" "np.array_equal(c, a + b)"
for k in 2 4 8; do
	mkrun allreduce$k $k allreduce 1024 y x
	numpy allreduce${k}_sums_the_rows "$TMP/allreduce$k" \
		"x.shape == ($k, 1024) and y.shape == x.shape and np.allclose(y, x.sum(0), rtol=1e-5, atol=1e-6)"
	numpy allreduce${k}_rows_bitwise_equal "$TMP/allreduce$k" \
		"all(np.array_equal(y[0].view(np.uint32), r.view(np.uint32)) for r in y)"
done

# the model's host threads change nothing
d=$TMP/matmul4
expect matmul4_one_thread 0 "" "$RUN" -m test --ipus 4 --threads 1 "$d/g.ipug" \
	--in a="$d/a.npy" --in b="$d/b.npy" --out c="$d/c1.npy"
expect matmul4_threads_bit_for_bit 0 "" cmp "$d/c.npy" "$d/c1.npy"
expect matmul4_list 0 "matmul" "$RUN" -m test --ipus 4 --list "$d/g.ipug"
expect matmul4_json 0 '"device": "model-test-x4"' "$RUN" -m test --ipus 4 --json "$d/g.ipug" \
	--in a="$d/a.npy" --in b="$d/b.npy"

# a binary for another number of IPUs than the device has
expect ipus_4_on_1_refused 1 "g.ipug is a graph binary for 4 IPUs, model-test has 1 IPU" \
	"$RUN" -m test "$d/g.ipug"
expect ipus_4_on_2_refused 1 "for 4 IPUs, model-test-x2 has 2 IPUs: run it with -d" \
	"$RUN" -m test --ipus 2 "$d/g.ipug"
"$MK" -m test -s 64,96,32 -i "$TMP" matmul "$TMP/one.ipug" >/dev/null 2>&1
expect ipus_1_on_4_refused 1 "for 1 IPU, model-test-x4 has 4 IPUs" \
	"$RUN" -m test --ipus 4 "$TMP/one.ipug"
expect ipus_1_on_1_runs 0 "on model-test" "$RUN" -m test --ipus 1 "$TMP/one.ipug" \
	--in a="$TMP/a.npy" --in b="$TMP/b.npy"

# usage errors
for bad in 0 3 32 x; do
	expect "ipu_run_ipus_${bad}_refused" 2 "is not 1, 2, 4, 8 or 16" "$RUN" -m test --ipus "$bad" "$d/g.ipug"
	expect "ipu_mkgraph_ipus_${bad}_refused" 2 "bad --ipus '$bad'" "$MK" --ipus "$bad" add "$TMP/x.ipug"
done
expect ipu_run_ipus_with_device_refused 2 "names a device of its own IPUs" \
	"$RUN" -d 6 --ipus 4 "$d/g.ipug"
expect allreduce_on_one_ipu_refused 2 "allreduce needs --ipus 2 or more" \
	"$MK" -m test allreduce "$TMP/x.ipug"
[ -e "$TMP/x.ipug" ] && add fail allreduce_refused_writes_nothing "x.ipug written" ||
	add ok allreduce_refused_writes_nothing
expect ipu_mkgraph_help_ipus 0 "--ipus N" "$MK" --help
expect ipu_mkgraph_help_allreduce 0 "allreduce" "$MK" --help
expect ipu_run_help_ipus 0 "--ipus N" "$RUN" --help
# no such device id (here: no driver, or an id beyond this machine's)
expect ipu_run_device_99_absent 3 "" "$RUN" -d 99 "$d/g.ipug"

ktap_print
