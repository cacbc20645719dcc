#!/bin/bash
# The udev rule parses and says what it should. Debian 12's udevadm (252)
# has no `udevadm verify`; `udevadm test` with --resolve-names=never loads
# the rule files of a temporary root, and udevd's rules parser then logs
# each line it cannot parse. Usage: udev_check.sh RULE; KTAP on stdout,
# exit 0 when nothing failed.
set -u
RULE=$1
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/tests/library/ktap.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export PATH=$PATH:/usr/sbin:/sbin

# parse RULEFILE: udevd's rules parser on RULEFILE, through `udevadm test`
# in a private mount namespace where RULEFILE is the only file of
# /run/udev/rules.d and /etc/group has group ipu (so GROUP= resolves as on
# an installed machine). Prints the parser's complaints about it and fails
# on any. Debian 12's udevadm (252) has no `udevadm verify`; a later one
# is used when there.
parse() {
	if udevadm verify --help >/dev/null 2>&1; then
		udevadm verify --resolve-names=never "$1"
		return
	fi
	cp "$1" "$TMP/60-ipu.rules"
	{ grep -v '^ipu:' /etc/group; echo 'ipu:x:999:'; } >"$TMP/group"
	unshare -m sh -c "
		mkdir -p /run/udev/rules.d && mount -t tmpfs none /run/udev/rules.d &&
		cp '$TMP/60-ipu.rules' /run/udev/rules.d/ &&
		mount --bind '$TMP/group' /etc/group &&
		udevadm test -N early --action=add /sys/class/mem/null" >"$TMP/log" 2>&1 ||
		{ echo "udevadm test failed: $(tail -3 "$TMP/log")"; return 1; }
	grep -q '^Reading rules file: /run/udev/rules.d/60-ipu.rules' "$TMP/log" ||
		{ echo "udevadm did not read the rule"; return 1; }
	! grep '^/run/udev/rules.d/60-ipu.rules:[0-9]' "$TMP/log"
}

if out=$(parse "$RULE" 2>&1); then add ok "udev: udevadm parses the rule without a complaint"
else add fail "udev: udevadm parses the rule without a complaint" "$(echo "$out" | tr '\n' ' ')"; fi
# The check itself can fail: a rule with a bad key and one with a group
# that does not exist are refused.
sed 's/GROUP="ipu"/GROUP="ipu", FROBNICATE="1"/' "$RULE" >"$TMP/bad-key.rules"
if out=$(parse "$TMP/bad-key.rules" 2>&1); then add fail "udev: a bad key is refused" "parsed"
elif grep -q "Invalid key 'FROBNICATE'" <<<"$out"; then add ok "udev: a bad key is refused"
else add fail "udev: a bad key is refused" "$out"; fi
sed 's/GROUP="ipu"/GROUP="ipu-nosuchgroup"/' "$RULE" >"$TMP/bad-group.rules"
if out=$(parse "$TMP/bad-group.rules" 2>&1); then add fail "udev: an unknown group is refused" "parsed"
else add ok "udev: an unknown group is refused"; fi

# What the rule says, on its one non-comment line.
line=$(grep -v '^[[:space:]]*\(#\|$\)' "$RULE")
want() {	# want NAME REGEX
	if grep -qE -- "$2" <<<"$line"; then add ok "udev: $1"
	else add fail "udev: $1" "no /$2/ in: $line"; fi
}
want "matches the ipu subsystem's ipuN nodes" 'SUBSYSTEM=="ipu", KERNEL=="ipu\[0-9\]\*"'
want "group ipu" 'GROUP="ipu"'
want "mode 0660" 'MODE="0660"'
want "tagged ipu for libudev" 'TAG\+="ipu"'
if grep -q uaccess <<<"$line"; then add fail "udev: no uaccess (seat) tag" "$line"
else add ok "udev: no uaccess (seat) tag"; fi

ktap_print
[ "$failed" = 0 ]
