#!/bin/bash
# The man pages render with `man --warnings` quietly (no groff warnings, no
# scdoc leftovers such as unconverted *bold* marks), and each tool, the
# library and the driver have one. Usage: man_check.sh MAN_DIR TOOL...;
# KTAP on stdout, exit 0 when nothing failed.
set -u
DIR=$1; shift
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/tests/library/ktap.sh"

for t in "$@"; do
	if [ -f "$DIR/$t.1" ]; then add ok "man: $t(1) exists"
	else add fail "man: $t(1) exists" "no $DIR/$t.1"; fi
done
for p in libipudev.3 ipu_enumerate.3 ipu_device_open.3 ipu_model_open.3 \
	ipu_load.3 ipu_run.3 ipu_tensor_write.3 ipu_graph_create.3 ipu.4; do
	if [ -f "$DIR/$p" ]; then add ok "man: ${p%.*}(${p##*.}) exists"
	else add fail "man: ${p%.*}(${p##*.}) exists" "no $DIR/$p"; fi
done
for f in "$DIR"/*.[0-9]; do
	name=$(basename "$f")
	warn=$(MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null)
	text=$(MANWIDTH=80 man -l "$f" 2>/dev/null)
	if [ -n "$warn" ]; then
		add fail "man: $name renders without warnings" "$(echo "$warn" | head -3 | tr '\n' ' ')"
	elif ! grep -q '^NAME' <<<"$text" || ! grep -q '^SEE ALSO' <<<"$text"; then
		add fail "man: $name renders without warnings" "no NAME or SEE ALSO section"
	elif grep -qE '(^|[ (])\*[A-Za-z/-]+\*' <<<"$text"; then
		add fail "man: $name renders without warnings" \
			"markup left: $(grep -oE '(^|[ (])\*[A-Za-z/-]+\*' <<<"$text" | head -2 | tr '\n' ' ')"
	else
		add ok "man: $name renders without warnings"
	fi
done
# Every SEE ALSO reference of a page in this set resolves to a page of it.
for f in "$DIR"/*.[0-9]; do
	for ref in $(MANWIDTH=80 man -l "$f" 2>/dev/null | sed -n '/^SEE ALSO/,$p' |
		grep -oE '(ipu|libipudev)[a-z_-]*\([0-9]\)'); do
		page=${ref%(*}; sec=${ref#*(}; sec=${sec%)}
		[ -f "$DIR/$page.$sec" ] ||
			add fail "man: $(basename "$f") refers to $ref" "no $DIR/$page.$sec"
	done
done
add ok "man: SEE ALSO references checked"

ktap_print
[ "$failed" = 0 ]
