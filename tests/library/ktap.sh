# shellcheck shell=bash
# KTAP results of the host test scripts (builder/run.sh, unit/run.sh,
# tests/tools/*/run.sh, tests/install/*.sh, ...), sourced: add() collects
# the result lines (also "# FILE:LINE" comments, appended to lines
# directly), check() adds a command's outcome, ktap_print() writes them; n
# counts the results, failed the failures; expect() runs a command and
# checks its exit code and output (in $TMP/out: the caller sets TMP).
n=0 failed=0
lines=()
add() {	# add ok|fail|skip NAME [REASON]
	n=$((n + 1))
	case $1 in
	ok) lines+=("ok $n $2") ;;
	skip) lines+=("ok $n $2 # SKIP $3") ;;
	*) lines+=("not ok $n $2${3:+ # $3}"); failed=$((failed + 1)) ;;
	esac
}
check() {	# check NAME COMMAND...: ok when COMMAND succeeds, else the end of its output
	local name=$1 out; shift
	if out=$("$@" 2>&1); then add ok "$name"
	else add fail "$name" "$(printf '%s' "$out" | tail -c 300 | tr '\n' ' ')"; fi
}
ktap_print() {
	echo "KTAP version 1"
	echo "1..$n"
	printf '%s\n' "${lines[@]}"
}
# expect NAME RC NEEDLE COMMAND...: exit code RC and NEEDLE in the output
expect() {
	local name=$1 want=$2 needle=$3; shift 3
	"$@" >"$TMP/out" 2>&1
	local rc=$?
	if [ "$rc" != "$want" ]; then
		add fail "$name" "exit $rc, want $want: $(head -c 240 "$TMP/out" | tr '\n' ' ')"
	elif [ -n "$needle" ] && ! grep -q -- "$needle" "$TMP/out"; then
		add fail "$name" "output lacks '$needle': $(head -c 240 "$TMP/out" | tr '\n' ' ')"
	else
		add ok "$name"
	fi
}
