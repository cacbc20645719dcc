#!/bin/bash
# `make run`: boot a VM with four cards as an IPU-M2000 (four GC200 IPUs
# joined by IPU-Links), load the driver, list the cards, reset one and show
# it afterwards, wait for the links to be up and show the multi-IPU devices
# (ipu-info -l) and the links (ipu-links), run a matmul on a card and on the
# model device, the same matmul spread over the 4 IPUs on device 6 and on
# the model device of 4 IPUs, and end with the MLP trained on the digits on
# card 0 (ipu-train, one line per epoch).
set -euo pipefail
cd "$(dirname "$0")/.."
# The links train in emulated time after power-on and after a reset: wait
# until every wired port is up, for at most 30 s.
exec tools/ipu-vm -n 4 --topology m2000 --models gc200 -- sh -c '
	links_up() {
		end=$(($(date +%s) + 30))
		while [ "$(date +%s)" -lt $end ]; do
			w=0
			for p in /sys/class/ipu/ipu*/links/port*; do
				[ "$(cat $p/peer)" = none ] || [ "$(cat $p/state)" = up ] || w=1
			done
			[ $w = 0 ] && return 0
			sleep 0.1
		done
		echo "the IPU-Links are not all up after 30 s"; ipu-links; exit 1
	}
	echo "## lsmod | grep ipu"; lsmod | grep "^ipu" ;
	echo "## ipu-info"; ipu-info || exit $? ;
	echo "## ipu-reset -d 1"; ipu-reset -d 1 || exit $? ;
	echo "## ipu-info -d 1"; ipu-info -d 1 || exit $? ;
	links_up ;
	echo "## ipu-info -l: the single IPUs 0-3 and the multi-IPU devices 4, 5, 6"; ipu-info -l || exit $? ;
	echo "## ipu-links: the IPU-Links of the M2000, every one up"; ipu-links || exit $? ;
	echo "## a 256x512x128 matmul on card 0, and on the model device";
	mkdir -p /tmp/mm && cd /tmp/mm &&
	ipu-mkgraph -i . matmul mm.ipug &&
	ipu-run -d 0 mm.ipug --in a=a.npy --in b=b.npy --out c=c-card.npy &&
	ipu-run -m gc200 mm.ipug --in a=a.npy --in b=b.npy --out c=c-model.npy >/dev/null &&
	cmp c-card.npy c-model.npy && echo "card and model device agree bit for bit" &&
	echo "## the same matmul spread over the 4 IPUs (exchanges over the IPU-Links):" &&
	echo "## on device 6 (ipu0-ipu3), and on the model device of 4 IPUs" &&
	mkdir -p /tmp/mm4 && cd /tmp/mm4 &&
	ipu-mkgraph --ipus 4 -i . matmul mm4.ipug &&
	ipu-run -d 6 mm4.ipug --in a=a.npy --in b=b.npy --out c=c-dev6.npy &&
	ipu-run -m gc200 --ipus 4 mm4.ipug --in a=a.npy --in b=b.npy --out c=c-model.npy >/dev/null &&
	cmp c-dev6.npy c-model.npy && echo "device 6 and the 4-IPU model device agree bit for bit" &&
	echo "## ipu-train digits --model mlp --device 0: the MLP trained on card 0" &&
	ipu-train digits --model mlp --device 0'
