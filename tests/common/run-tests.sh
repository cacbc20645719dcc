#!/bin/sh
# Guest-side test runner: runs the test programs in /tests (every one, or
# those named after RESULTS_DIR; kselftest binaries print KTAP) and writes
# one KTAP file per program to RESULTS_DIR. Exits 0 when all passed.
# Fault-injection programs (*failslab*) run only when named. A named
# program that is not there fails.
#
# Under the debug kernel (kmemleak in debugfs) it then scans for leaks
# (twice, as kmemleak reports an object only once it stays unreferenced),
# copies the report into the kernel log and to RESULTS_DIR/kmemleak.txt, and
# writes kernel-debug.ktap: kmemleak clean, DMA-API debug error count zero.
out=${1:-/tmp/results}
[ $# -gt 0 ] && shift
mkdir -p "$out"
status=0
if [ $# -gt 0 ]; then
	tests=$(for n in "$@"; do echo "/tests/$n"; done)
else
	tests=$(ls -d /tests/* | grep -v failslab)
fi
for t in $tests; do
	name=$(basename "$t")
	[ "$name" = run-tests.sh ] && continue
	if [ ! -x "$t" ]; then
		[ $# -gt 0 ] || continue
		printf 'KTAP version 1\n1..1\nnot ok 1 %s # not in /tests\n' "$name" >"$out/$name.ktap"
		cat "$out/$name.ktap"
		status=1
		continue
	fi
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

dbg=/sys/kernel/debug
grep -q " $dbg debugfs " /proc/mounts || mount -t debugfs debugfs $dbg 2>/dev/null
if [ -e $dbg/kmemleak ]; then
	k=$out/kernel-debug.ktap
	{ echo "KTAP version 1"; echo "1..2"; } >"$k"
	# Objects younger than 5 s are not reported yet.
	sleep 6
	echo scan >$dbg/kmemleak
	echo scan >$dbg/kmemleak
	cat $dbg/kmemleak >"$out/kmemleak.txt"
	n=$(grep -c '^unreferenced object' "$out/kmemleak.txt")
	if [ "$n" = 0 ]; then
		echo "ok 1 kmemleak: no unreferenced objects" >>"$k"
	else
		status=1
		echo "not ok 1 kmemleak: $n unreferenced object(s)" >>"$k"
		head -40 "$out/kmemleak.txt" | sed 's/^/# /' >>"$k"
		# Into the kernel log too (scripts/dmesg-check.sh), a line at a time.
		head -400 "$out/kmemleak.txt" | while IFS= read -r line; do
			echo "kmemleak: $line" >/dev/kmsg
		done
	fi
	if grep -qw 'dma_debug=off' /proc/cmdline; then
		echo "ok 2 dma-api: errors # SKIP DMA-API debugging is off (dma_debug=off)" >>"$k"
	elif [ -r $dbg/dma-api/error_count ]; then
		e=$(cat $dbg/dma-api/error_count)
		off=$(cat $dbg/dma-api/disabled 2>/dev/null)
		if [ "$e" = 0 ] && [ "$off" != Y ]; then
			echo "ok 2 dma-api: 0 errors" >>"$k"
		elif [ "$e" = 0 ]; then
			status=1
			echo "not ok 2 dma-api: 0 errors # DMA-API debugging turned itself off" >>"$k"
		else
			status=1
			echo "not ok 2 dma-api: $e error(s) (the kernel log has the first of each)" >>"$k"
		fi
	else
		status=1
		echo "not ok 2 dma-api: errors # no $dbg/dma-api/error_count" >>"$k"
	fi
	cat "$k"
fi
sync
exit $status
