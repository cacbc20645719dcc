#!/bin/bash
# Print every KTAP result file of a check run, then the totals as
# "N passed, N failed, N skipped". Exits 1 when anything failed or nothing ran.
# Only top-level result lines count (nested subtests are indented).
set -u
dir=$1
pass=0 fail=0 skip=0
for f in "$dir"/*.ktap; do
	[ -f "$f" ] || continue
	echo "# ---- $(basename "$f" .ktap)"
	cat "$f"
	while IFS= read -r line; do
		case "$line" in
		"ok "*"# SKIP"*|"ok "*"# skip"*) skip=$((skip + 1)) ;;
		"ok "*) pass=$((pass + 1)) ;;
		"not ok "*) fail=$((fail + 1)) ;;
		esac
	done <"$f"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ] && [ $((pass + skip)) -gt 0 ]
