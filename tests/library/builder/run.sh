#!/bin/bash
# Host tests of the graph builder, partition helpers, model device, .npy
# files and ipu-run. Usage: run.sh BUILD_DIR TEST_BINARY; KTAP on stdout.
set -u
B=$1
T=$2
RUN=$B/tools/ipu-run
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$(dirname "$0")/../ktap.sh"

# the unit tests, on the kselftest harness (their numbering is replaced; the
# harness logs why a test failed on "# FILE:LINE" lines, kept as comments
# before the result they explain)
TMPDIR=$TMP "$T" >"$TMP/unit" 2>&1
urc=$?
while IFS= read -r l; do
	case $l in
	"ok "*|"not ok "*)
		st=${l%% [0-9]*}; rest=${l#"$st "}; rest=${rest#* }
		n=$((n + 1)); lines+=("$st $n $rest") ;;
	"# "*.[ch]:[0-9]*) lines+=("$l") ;;
	esac
done <"$TMP/unit"
[ "$urc" -le 1 ] || add fail unit_tests_exit_cleanly "exit $urc: $(tail -c 200 "$TMP/unit" | tr '\n' ' ')"

# ipu-run end to end
if [ ! -x "$RUN" ]; then
	add skip ipu_run_end_to_end "ipu-run not built"
else
	export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	if "$T" --example "$TMP" >"$TMP/out" 2>&1; then
		expect ipu_run_matmul 0 "modelled cycles" "$RUN" --model test "$TMP/mm.graph" \
			--in a="$TMP/a.npy" --in b="$TMP/b.npy" --out c="$TMP/c.npy"
		expect ipu_run_output_matches 0 "" "$T" --compare "$TMP/c.npy" "$TMP/want.npy"
		expect ipu_run_json 0 '"cycles_exchange"' "$RUN" --model test --json --program matmul \
			"$TMP/mm.graph" --in a="$TMP/a.npy" --in b="$TMP/b.npy"
		expect ipu_run_list 0 "matmul" "$RUN" --model test --list "$TMP/mm.graph"
		expect ipu_run_memory 0 "always live" "$RUN" --memory "$TMP/mm.graph"
		expect ipu_run_memory_json 0 '"top_tiles"' "$RUN" --memory --json "$TMP/mm.graph"
		head -c 100 "$TMP/mm.graph" >"$TMP/cut.graph"
		expect ipu_run_memory_truncated_refused 1 "truncated" "$RUN" --memory "$TMP/cut.graph"
		expect ipu_run_dtype_mismatch_refused 1 "dtype <f2 (f16) does not match tensor 'a'" \
			"$RUN" --model test "$TMP/mm.graph" --in a="$TMP/a_f16.npy"
		expect ipu_run_shape_mismatch_refused 1 "shape (40, 48) does not match tensor 'a' shape (48, 40)" \
			"$RUN" --model test "$TMP/mm.graph" --in a="$TMP/a_shape.npy"
		expect ipu_run_unknown_tensor_refused 1 "no tensor 'zz'" \
			"$RUN" --model test "$TMP/mm.graph" --in zz="$TMP/a.npy"
		expect ipu_run_wrong_model_refused 1 "built for model test" \
			"$RUN" --model gc200 "$TMP/mm.graph"
		printf 'garbage' >"$TMP/bad.npy"
		expect ipu_run_malformed_npy_refused 1 "not a .npy file" \
			"$RUN" --model test "$TMP/mm.graph" --in a="$TMP/bad.npy"
		expect ipu_run_bad_program 2 "program 5" "$RUN" --model test --program 5 "$TMP/mm.graph"
		expect ipu_run_usage 2 "Usage" "$RUN" --model test
		expect ipu_run_help 0 "Usage" "$RUN" --help
		expect ipu_run_bad_in_syntax 2 "NAME=FILE" "$RUN" --in foo "$TMP/mm.graph"
	else
		add fail ipu_run_example "$(head -c 240 "$TMP/out" | tr '\n' ' ')"
	fi
fi

ktap_print
