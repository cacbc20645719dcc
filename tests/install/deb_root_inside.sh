#!/bin/bash
# Inside the throwaway Debian 12 root (tests/install/deb_root.sh), with the
# packages of `make deb` installed by apt: what a user of them does. KTAP
# on stdout; the DKMS-built module is left at OUT/ipu.ko, and the kernel and
# initramfs the installed ipu-vm boots at OUT/vmlinuz and OUT/initramfs.cpio.gz.
# Usage: deb_root_inside.sh KABI OUT (consumer.c and ktap.sh are in
# /tmp/ipu-test).
KABI=$1 OUT=$2
T=/tmp/ipu-test
. "$T/ktap.sh"
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
# The installed ipu-vm, as a user: Debian's kernel from /boot (the package
# pulls linux-image-amd64), that kernel's ipu.ko from DKMS and the installed
# tools in an initramfs it makes at first use in the user's cache.
export HOME=$T/home XDG_CACHE_HOME=
mkdir -p "$HOME"
check "root: ipu-vm --help lists the card's models (from the installed QEMU)" sh -c '
	ipu-vm --help | grep -q "(default gc200,gc200,gc2,test;" &&
	ipu-vm --help | grep -qE "the last one repeats\): gc2, gc200, test$"'
check "root: ipu-vm --prepare finds /boot/vmlinuz-$KABI and makes the initramfs" sh -c "
	ipu-vm --prepare >$T/pair &&
	grep -qx 'kernel /boot/vmlinuz-$KABI' $T/pair &&
	grep -qx 'initrd $HOME/.cache/ipu-vm/initramfs-$KABI.cpio.gz' $T/pair &&
	[ -s $HOME/.cache/ipu-vm/initramfs-$KABI.cpio.gz ]"
I=$HOME/.cache/ipu-vm/initramfs-$KABI.cpio.gz
check "root: the initramfs holds /init, busybox, 9p, DKMS's ipu.ko, the tools, libipudev" sh -c "
	zcat $I | cpio -t --quiet >$T/list &&
	for f in init bin/busybox lib/modules/$KABI/extra/ipu.ko usr/bin/ipu-info usr/bin/ipu-run \
		lib/modules/$KABI/modules.dep; do grep -qx \"\$f\" $T/list || { echo no \$f; exit 1; }; done &&
	grep -q 'kernel/fs/9p/9p.ko\$' $T/list && grep -q '/libipudev.so.1\$' $T/list &&
	! grep -q 'usr/bin/ipu-vm\$' $T/list &&
	zcat $I | cpio -i --quiet --to-stdout lib/modules/$KABI/extra/ipu.ko | cmp - $ko"
check "root: a second ipu-vm --prepare reuses the cached initramfs" sh -c "
	before=\$(stat -c %Y.%i $I) && ipu-vm --prepare >/dev/null &&
	[ \"\$(stat -c %Y.%i $I)\" = \"\$before\" ]"
check "root: without ipu.ko for any kernel, ipu-vm says so (exit 125)" sh -c "
	mv $ko $ko.away; depmod $KABI; ipu-vm --prepare >/dev/null 2>$T/err; rc=\$?
	mv $ko.away $ko; depmod $KABI
	[ \$rc = 125 ] && grep -q 'no kernel in /boot has ipu.ko' $T/err"
cp "/boot/vmlinuz-$KABI" "$OUT/vmlinuz" 2>/dev/null
cp "$I" "$OUT/initramfs.cpio.gz" 2>/dev/null
check "root: apt-get purge of the five packages" sh -c "
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -q ipu-dkms ipu-tools ipu-emulator \
		libipudev-dev libipudev1 2>&1 | tail -5"
check "root: purge removed the module, its source and DKMS's record" sh -c "
	! find /lib/modules/$KABI -name 'ipu.ko*' | grep . && [ ! -e /usr/src/ipu-$V ] &&
	[ -z \"\$(dkms status ipu)\" ]"
check "root: purge removed the tools, library and rule" sh -c "
	! command -v ipu-info && ! pkg-config --exists libipudev &&
	[ ! -e /lib/udev/rules.d/60-ipu.rules ]"
ktap_print
[ "$failed" = 0 ]
