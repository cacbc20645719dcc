#!/bin/bash
# make install / make uninstall into temporary DESTDIRs, as a user would
# use the result: pkg-config finds libipudev, tests/install/consumer.c links
# with it shared and static and runs its graph on the model device, the
# tools run without the build tree, the man pages render; uninstall leaves
# exactly what was there before. Usage: install_check.sh REPO BUILD_DIR;
# KTAP on stdout, exit 0 when nothing failed.
set -u
REPO=$1 B=$2
HERE=$REPO/tests/install
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$REPO/tests/library/ktap.sh"
mk() { make -C "$REPO" --no-print-directory "$@"; }

# --- PREFIX=/usr/local ------------------------------------------------------
D=$TMP/root P=/usr/local
mkdir -p "$D"
check "install: make install-files DESTDIR=... succeeds" mk install-files DESTDIR="$D"
L=$D$P/lib
check "install: libipudev.so.1.0.0 with SONAME libipudev.so.1" \
	sh -c "readelf -d '$L/libipudev.so.1.0.0' | grep -q 'SONAME.*\[libipudev.so.1\]'"
check "install: libipudev.so.1 and libipudev.so link to it" sh -c "
	[ \"\$(readlink '$L/libipudev.so.1')\" = libipudev.so.1.0.0 ] &&
	[ \"\$(readlink '$L/libipudev.so')\" = libipudev.so.1 ] && [ -f '$L/libipudev.so' ]"
check "install: header, static library, .pc" \
	test -f "$D$P/include/ipudev.h" -a -f "$L/libipudev.a" -a -f "$L/pkgconfig/libipudev.pc"
check "install: the .pc's prefix, Requires.private, Libs.private, Description" sh -c "
	grep -qx 'prefix=$P' '$L/pkgconfig/libipudev.pc' &&
	grep -qx 'Requires.private: libudev libpci' '$L/pkgconfig/libipudev.pc' &&
	grep -q '^Libs.private: .*-lm' '$L/pkgconfig/libipudev.pc' &&
	grep -q '^Description: .*graphs' '$L/pkgconfig/libipudev.pc'"
for t in "$REPO"/tools/ipu-*.c; do
	t=$(basename "$t" .c)
	check "install: $t in bin with its man page and completion, no rpath" sh -c "
		[ -x '$D$P/bin/$t' ] && [ -f '$D$P/share/man/man1/$t.1' ] &&
		[ -e '$D$P/share/bash-completion/completions/$t' ] &&
		! readelf -d '$D$P/bin/$t' | grep -qE 'RPATH|RUNPATH'"
done
check "install: man pages in sections 3 and 4" \
	test -f "$D$P/share/man/man3/libipudev.3" -a -f "$D$P/share/man/man4/ipu.4"
check "install: the udev rule in /etc (udev does not read /usr/local)" \
	test -f "$D/etc/udev/rules.d/60-ipu.rules"
V=$(sed -n 's/^#define IPUDEV_VERSION_STRING[[:space:]]*"\(.*\)"/\1/p' "$REPO/libipudev/ipudev.h")
S=$D/usr/src/ipu-$V
check "install: DKMS source in /usr/src/ipu-$V" sh -c "
	grep -qx 'PACKAGE_VERSION=\"$V\"' '$S/dkms.conf' && [ -f '$S/Kbuild' ] &&
	[ -f '$S/driver/ipu_main.c' ] && [ -f '$S/include/uapi/linux/ipu.h' ] &&
	[ -f '$S/include/ipu/ipu_hw.h' ]"

# A consumer built as its README says, against the DESTDIR (pkg-config's
# sysroot prefixes its -I and -L).
export PKG_CONFIG_PATH=$L/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
check "pkg-config: --cflags --libs libipudev" sh -c "
	pkg-config --cflags libipudev | grep -q -- '-I$D$P/include' &&
	pkg-config --libs libipudev | grep -q -- '-L$L -lipudev'"
check "shared: the consumer links with pkg-config" sh -c "
	gcc -std=c11 -Wall -Wextra -Werror \$(pkg-config --cflags libipudev) \
		-o '$TMP/shared' '$HERE/consumer.c' \$(pkg-config --libs libipudev)"
check "shared: it needs libipudev.so.1 and runs a graph on the model device" sh -c "
	readelf -d '$TMP/shared' | grep -q 'NEEDED.*\[libipudev.so.1\]' &&
	LD_LIBRARY_PATH='$L' '$TMP/shared' | grep -q '^consumer: ok 96'"
check "shared: without the library it does not run" sh -c "! '$TMP/shared' 2>/dev/null"
static_libs=$(pkg-config --static --libs libipudev | sed 's/-lipudev/-Wl,-Bstatic -lipudev -Wl,-Bdynamic/')
check "static: the consumer links with pkg-config --static" sh -c "
	gcc -std=c11 -Wall -Wextra -Werror \$(pkg-config --cflags libipudev) \
		-o '$TMP/static' '$HERE/consumer.c' $static_libs"
check "static: no libipudev.so needed, runs a graph on the model device" sh -c "
	! readelf -d '$TMP/static' | grep -q 'libipudev' &&
	'$TMP/static' | grep -q '^consumer: ok 96'"
check "static: libipudev.a links with the documented -ludev -lpci -lpthread -lm" \
	gcc -std=c11 -I"$D$P/include" -o "$TMP/static2" "$HERE/consumer.c" "$L/libipudev.a" \
		-ludev -lpci -lpthread -lm
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
check "tools: installed ipu-info runs from the installed library" sh -c "
	LD_LIBRARY_PATH='$L' '$D$P/bin/ipu-info' --version | grep -qx 'ipu-info (libipudev) $V'"
check "man: installed pages render without warnings" sh -c "
	for f in '$D$P'/share/man/man*/*; do
		out=\$(MANWIDTH=80 man --warnings -l \"\$f\" 2>&1 >/dev/null)
		[ -z \"\$out\" ] || { echo \"\$f: \$out\"; exit 1; }
	done"

# The installed completion, as bash-completion loads it by command name.
C=$D$P/share/bash-completion/completions
comp() {	# comp TOOL WORD...: the completions of the last word
	bash -c '. /usr/share/bash-completion/bash_completion && . "$1/$2" && shift 1 &&
		COMP_WORDS=("${@:2}"); COMP_CWORD=$(($# - 2)); COMP_LINE="${*:2}"
		COMP_POINT=${#COMP_LINE}
		_ipu_tools "$2" "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"; echo "${COMPREPLY[*]}"' \
		_ "$C" "$@"
}
expect_comp() {	# expect_comp NAME WANT TOOL WORD...
	local name=$1 want=$2 got; shift 2
	got=$(comp "$@" 2>&1)
	if [ "$got" = "$want" ]; then add ok "$name"; else add fail "$name" "got '$got'"; fi
}
expect_comp "completion: ipu-info --j -> --json" --json ipu-info ipu-info --j
expect_comp "completion: ipu-info --mo -> --monitor" --monitor ipu-info ipu-info --mo
expect_comp "completion: ipu-run -m g -> the gc models" "gc200 gc2" ipu-run ipu-run -m g
expect_comp "completion: ipu-mkgraph m -> its kinds" "matmul mlp" ipu-mkgraph ipu-mkgraph m
expect_comp "completion: ipu-train --model c -> cnn" cnn ipu-train ipu-train digits --model c
expect_comp "completion: ipu-bench --ho -> --host-sync" --host-sync ipu-bench ipu-bench --ho
expect_comp "completion: ipu-bench --ipus -> the IPU counts" "1 2 4 8 16" ipu-bench ipu-bench --links -m gc200 --ipus ""
expect_comp "completion: ipu-bench -s takes a size, not a folder" "" ipu-bench ipu-bench --links -s ""

# ipu-vm away from the tree (as installed: no include/ipu/ipu_models.h
# beside it) lists the models its QEMU's card knows: the header's table.
mkdir -p "$TMP/vm/bin" && cp "$REPO/tools/ipu-vm" "$TMP/vm/bin/"
models=$(sed -n 's/^[[:space:]]*{ IPU_MODEL_[A-Z0-9_]*, "\([^"]*\)".*/\1/p' \
	"$REPO/include/ipu/ipu_models.h" | paste -sd, - | sed 's/,/, /g')
check "ipu-vm: --help away from the tree lists the card's models ($models)" sh -c "
	[ -n '$models' ] && IPU_QEMU='$B/qemu/qemu-system-x86_64' '$TMP/vm/bin/ipu-vm' --help |
		grep -qxF '                       the last one repeats): $models'"
check "ipu-vm: --help without its QEMU says the list is unknown" sh -c "
	IPU_QEMU='$TMP/none' '$TMP/vm/bin/ipu-vm' --help | grep -qF 'repeats): (unknown: $TMP/none is not built)'"

# A file the install did not make survives uninstall, with its directories.
mkdir -p "$D/etc/udev/rules.d" && echo keep >"$D/etc/udev/rules.d/99-local.rules"
echo keep >"$L/other.so"
check "uninstall: make uninstall DESTDIR=... succeeds" mk uninstall DESTDIR="$D"
check "uninstall: leaves only the files it did not install" sh -c "
	[ \"\$(cd '$D' && find . -type f | sort | tr '\n' ' ')\" = \
	  './etc/udev/rules.d/99-local.rules ./usr/local/lib/other.so ' ] &&
	[ -z \"\$(cd '$D' && find . -mindepth 1 -type d -empty)\" ]"
rm -rf "$D"

# --- PREFIX=/usr into a DESTDIR not made yet, installed twice (the
# manifest merges), then uninstalled -----------------------------------------
D=$TMP/root-usr
check "install twice: PREFIX=/usr" sh -c "
	make -C '$REPO' --no-print-directory install-files DESTDIR='$D' PREFIX=/usr >/dev/null &&
	make -C '$REPO' --no-print-directory install-files DESTDIR='$D' PREFIX=/usr >/dev/null"
check "install: PREFIX=/usr puts the rule in /lib/udev/rules.d" \
	test -f "$D/lib/udev/rules.d/60-ipu.rules" -a -f "$D/usr/lib/libipudev.so.1"
check "install: the .pc names PREFIX=/usr" grep -qx 'libdir=/usr/lib' "$D/usr/lib/pkgconfig/libipudev.pc"
check "install: the manifest lists each path once" sh -c "
	[ -z \"\$(awk '{print \$2}' '$D/usr/share/ipu/install-manifest' | sort | uniq -d)\" ]"
check "uninstall: DESTDIR is empty afterwards" sh -c "
	make -C '$REPO' --no-print-directory uninstall DESTDIR='$D' PREFIX=/usr &&
	[ -z \"\$(ls -A '$D')\" ]"
check "uninstall: a second uninstall is a no-op" sh -c "
	make -C '$REPO' --no-print-directory uninstall DESTDIR='$D' PREFIX=/usr 2>&1 |
		grep -q 'nothing to uninstall' && [ -z \"\$(ls -A '$D')\" ]"

ktap_print
[ "$failed" = 0 ]
