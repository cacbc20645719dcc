#!/bin/bash
# The mlp_train benchmark (`make bench-train`): ipu-train's MLP training
# throughput in samples/s on the gc200 model device (N host threads,
# BENCH_TRAIN_THREADS, default all online cores; also 1 thread) against the
# same math in numpy/OpenBLAS on N threads (mlp_numpy_bench.py, from the same initial
# weights and batches). The baseline runs with OPENBLAS_CORETYPE and
# OPENBLAS_L2_SIZE removed from its environment alone (as
# tests/bench/blas_baseline.c does for its child; docs/benchmarks.md), and
# the core OpenBLAS ran is recorded. Each side's figure is the median epoch
# after the first (which commits memory). Usage: bench.sh BUILD_DIR; one
# JSON array of records on stdout.
set -euo pipefail
B=$1
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
EPOCHS=${BENCH_TRAIN_EPOCHS:-5}
THREADS=${BENCH_TRAIN_THREADS:-0}
[ "$THREADS" != 0 ] || THREADS=$(nproc)
LR=0.05
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# bench_threads N: the record of N threads on both sides, as JSON on stdout
bench_threads() {
	local n=$1 d=$TMP/dump-$1 core
	"$B/tools/ipu-train" digits --model mlp --epochs "$EPOCHS" --lr "$LR" --threads "$n" \
		--json --dump "$d" >"$TMP/device-$n.json"
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS="$n" \
		OPENBLAS_VERBOSE=2 PYTHONPATH="$HERE" \
		"$PY" "$HERE/mlp_numpy_bench.py" "$d" "$EPOCHS" "$LR" >"$TMP/numpy-$n.json" 2>"$TMP/numpy-$n.err"
	core=$(sed -n 's/^Core: *//p' "$TMP/numpy-$n.json" "$TMP/numpy-$n.err" | head -n 1)
	"$PY" - "$TMP/device-$n.json" "$TMP/numpy-$n.json" "$n" "${core:-unknown}" <<'PYEOF'
import json, statistics, sys
dev = [json.loads(l) for l in open(sys.argv[1])]
base = json.loads([l for l in open(sys.argv[2]) if l.startswith("{")][-1])
rates = [r["samples_per_s"] for r in dev]
value = statistics.median(rates[1:] if len(rates) > 2 else rates)
baseline = base["samples_per_s"]
n = int(sys.argv[3])
print(json.dumps({
    "name": f"mlp_train_digits_gc200_model_{n}thread{'s' if n > 1 else ''}",
    "value": round(value, 1), "unit": "samples/s",
    "baseline": round(baseline, 1), "ratio": round(value / baseline, 4), "target": ">= 0.5",
    "openblas_core": sys.argv[4], "threads": n, "batch": dev[0]["batch"],
    "epochs": len(dev), "device_epochs": [round(r, 1) for r in rates],
    "numpy_epochs": [round(r, 1) for r in base["epochs"]],
    "test_acc": dev[-1]["test_acc"],
}))
PYEOF
}

# one thread, and all of them (the figure the target is for)
recs=()
for n in $(printf '%s\n' 1 "$THREADS" | sort -nu); do
	recs+=("$(bench_threads "$n")")
done
(IFS=,; echo "[${recs[*]}]")
