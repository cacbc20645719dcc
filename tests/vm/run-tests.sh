#!/bin/sh
# Guest-side test runner: runs the test programs in /tests (every one, or
# those named after RESULTS_DIR; kselftest binaries print KTAP) and writes
# one KTAP file per program to RESULTS_DIR. Exits 0 when all passed.
out=${1:-/tmp/results}
[ $# -gt 0 ] && shift
mkdir -p "$out"
status=0
if [ $# -gt 0 ]; then
	tests=$(for n in "$@"; do echo "/tests/$n"; done)
else
	tests=$(ls -d /tests/*)
fi
for t in $tests; do
	name=$(basename "$t")
	[ "$name" = run-tests.sh ] && continue
	[ -x "$t" ] || continue
	echo "# running $name"
	timeout 600 "$t" >"$out/$name.ktap" 2>&1
	rc=$?
	cat "$out/$name.ktap"
	if [ "$rc" != 0 ]; then
		status=1
		# A program that died without a result line still has to count.
		grep -q '^\(not \)\?ok ' "$out/$name.ktap" ||
			printf 'not ok 1 %s # exited %s without results\n' "$name" "$rc" >>"$out/$name.ktap"
	fi
done
sync
exit $status
