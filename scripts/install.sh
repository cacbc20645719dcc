#!/bin/bash
# Install files with a manifest, and remove exactly what a manifest lists.
# Used by `make install` / `make uninstall` (mk/install.mk).
#   install.sh install DESTDIR MANIFEST ENTRY...
#       ENTRY is MODE:SRC:DEST (a file, octal MODE) or link:TARGET:DEST (a
#       symbolic link); DEST and MANIFEST are absolute paths under DESTDIR
#       (which may be empty). Every file, link and directory the install
#       creates is listed in DESTDIR/MANIFEST ("f PATH", "l PATH", "d PATH",
#       without DESTDIR); a second install adds to the first one's list.
#   install.sh uninstall DESTDIR MANIFEST
#       removes the listed files and links, then the listed directories
#       that are empty (deepest first), then the manifest.
# Exit status: 0; 1 on a missing source or a failed copy; 2 on bad usage.
set -euo pipefail

usage() { echo "usage: install.sh install|uninstall DESTDIR MANIFEST [ENTRY...]" >&2; exit 2; }
[ $# -ge 3 ] || usage
cmd=$1 destdir=${2%/} manifest=$3
shift 3
case "$manifest" in /*) ;; *) echo "install.sh: MANIFEST must be absolute" >&2; exit 2 ;; esac
list=$destdir$manifest

# mkdirs DIR: create DIR and its missing parents, recording each one made
mkdirs() {
	local d=$1 missing=()
	while [ "$d" != / ] && [ ! -d "$destdir$d" ]; do
		missing=("$d" "${missing[@]}")
		d=$(dirname "$d")
	done
	for d in "${missing[@]}"; do
		mkdir -m 0755 "$destdir$d"
		echo "d $d" >>"$new"
	done
}

do_install() {
	local e mode src dest
	# DESTDIR itself is the caller's: made if missing, never listed
	[ -z "$destdir" ] || mkdir -p "$destdir"
	new=$(mktemp)
	trap 'rm -f "$new"' EXIT
	[ -f "$list" ] && cat "$list" >>"$new"
	for e in "$@"; do
		IFS=: read -r mode src dest <<<"$e"
		case "$dest" in /*) ;; *) echo "install.sh: $e: DEST must be absolute" >&2; exit 2 ;; esac
		mkdirs "$(dirname "$dest")"
		if [ "$mode" = link ]; then
			ln -sfn "$src" "$destdir$dest"
			echo "l $dest" >>"$new"
		else
			[ -f "$src" ] || { echo "install.sh: missing $src (run make first)" >&2; exit 1; }
			install -m "$mode" "$src" "$destdir$dest"
			echo "f $dest" >>"$new"
		fi
	done
	mkdirs "$(dirname "$manifest")"
	echo "f $manifest" >>"$new"
	# keep the first mention of each path: directories stay before their files
	awk '!seen[$2]++' "$new" >"$new.u"
	mv "$new.u" "$list"
	chmod 0644 "$list"
}

do_uninstall() {
	local kind path
	[ -f "$list" ] || { echo "install.sh: nothing to uninstall: no $list" >&2; return 0; }
	while read -r kind path; do
		case "$kind" in
		f|l) [ "$destdir$path" = "$list" ] || rm -f "$destdir$path" ;;
		esac
	done <"$list"
	local dirs
	dirs=$(awk '$1 == "d" {print $2}' "$list" | sort -r)
	rm -f "$list"
	for path in $dirs; do
		rmdir "$destdir$path" 2>/dev/null || true
	done
}

case "$cmd" in
install) do_install "$@" ;;
uninstall) [ $# -eq 0 ] || usage; do_uninstall ;;
*) usage ;;
esac
