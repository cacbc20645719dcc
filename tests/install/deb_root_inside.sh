#!/bin/sh
# Inside the throwaway Debian 12 root (tests/install/deb_root.sh), with the
# packages of `make deb` installed by apt: what a user of them does. KTAP
# on stdout; the DKMS-built module is left at OUT/ipu.ko.
# Usage: deb_root_inside.sh KABI OUT (consumer.c is in OUT's directory's
# parent, /tmp/ipu-test).
KABI=$1 OUT=$2
T=/tmp/ipu-test
n=0 failed=0
res() {	# res ok|fail NAME [REASON]
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n $2"
	else echo "not ok $n $2${3:+ # $3}"; failed=$((failed + 1)); fi
}
check() {	# check NAME COMMAND...
	name=$1; shift
	if out=$("$@" 2>&1); then res ok "$name"
	else res fail "$name" "$(echo "$out" | tail -c 300 | tr '\n' ' ')"; fi
}
echo "KTAP version 1"
for p in ipu-dkms libipudev1 libipudev-dev ipu-tools ipu-emulator; do
	check "root: $p is installed" sh -c "dpkg-query -W -f='\${Status}' $p | grep -q 'install ok installed'"
done
check "root: group ipu exists (ipu-dkms's postinst)" getent group ipu
check "root: the udev rule is in /lib/udev/rules.d" test -f /lib/udev/rules.d/60-ipu.rules
check "root: pkg-config finds libipudev" sh -c '
	pkg-config --exists libipudev && pkg-config --libs libipudev | grep -q -- -lipudev'
check "root: shared: the consumer links with pkg-config and runs a graph" sh -c "
	gcc -std=c11 -Wall -Wextra -Werror \$(pkg-config --cflags libipudev) -o $T/shared \
		$T/consumer.c \$(pkg-config --libs libipudev) &&
	readelf -d $T/shared | grep -q 'NEEDED.*libipudev.so.1' &&
	$T/shared | grep -q '^consumer: ok 96'"
check "root: static: the consumer links with pkg-config --static and runs a graph" sh -c "
	gcc -std=c11 -Wall -Wextra -Werror \$(pkg-config --cflags libipudev) -o $T/static \
		$T/consumer.c \$(pkg-config --static --libs libipudev |
			sed 's/-lipudev/-Wl,-Bstatic -lipudev -Wl,-Bdynamic/') &&
	! readelf -d $T/static | grep -q libipudev && $T/static | grep -q '^consumer: ok 96'"
check "root: ipu-info runs (no driver here: exit 3)" sh -c '
	ipu-info --version | grep -q "^ipu-info (libipudev) " &&
	{ ipu-info >/dev/null 2>&1; [ $? = 3 ]; }'
check "root: ipu-emulator's QEMU has the ipu device" sh -c '
	ipu-qemu-system-x86_64 -device help 2>&1 | grep -q "name \"ipu\""'
for page in ipu-info.1 ipu-links.1 ipu-reset.1 ipu-run.1 ipu-bench.1 ipu-mkgraph.1 ipu-train.1 ipu-vm.1 \
	libipudev.3 ipu_run.3 ipu.4; do
	check "root: man ${page##*.} ${page%.*} renders quietly" sh -c "
		out=\$(MANWIDTH=80 man --warnings ${page##*.} ${page%.*} 2>&1 >/dev/null) &&
		[ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }
		MANWIDTH=80 man ${page##*.} ${page%.*} 2>/dev/null | grep -q '^NAME'"
done
V=$(dpkg-query -W -f='${Version}' ipu-dkms)
V=${V%%-*}
check "root: dkms knows ipu/$V (added by the package)" sh -c "dkms status ipu/$V | grep -q ."
check "root: dkms build -k $KABI" dkms build "ipu/$V" -k "$KABI"
check "root: dkms install -k $KABI" dkms install "ipu/$V" -k "$KABI"
ko=$(find "/lib/modules/$KABI/updates" -name 'ipu.ko*' 2>/dev/null | head -1)
check "root: ipu.ko for $KABI in /lib/modules/$KABI/updates" sh -c "
	[ -n '$ko' ] && modinfo -F vermagic '$ko' | grep -q '^$KABI ' &&
	modinfo -k '$KABI' ipu | grep -q '^filename:.*updates'"
mkdir -p "$OUT" && [ -n "$ko" ] && cp "$ko" "$OUT/ipu.ko"
check "root: apt-get purge of the five packages" sh -c "
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -q ipu-dkms ipu-tools ipu-emulator \
		libipudev-dev libipudev1 2>&1 | tail -5"
check "root: purge removed the module, its source and DKMS's record" sh -c "
	! find /lib/modules/$KABI -name 'ipu.ko*' | grep . && [ ! -e /usr/src/ipu-$V ] &&
	[ -z \"\$(dkms status ipu)\" ]"
check "root: purge removed the tools, library and rule" sh -c "
	! command -v ipu-info && ! pkg-config --exists libipudev &&
	[ ! -e /lib/udev/rules.d/60-ipu.rules ]"
echo "1..$n"
[ "$failed" = 0 ]
