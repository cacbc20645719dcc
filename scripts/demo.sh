#!/bin/bash
# `make run`: boot a VM with four cards, load the driver, list the cards,
# reset one and show it afterwards, run a matmul on a card and on the model
# device, and end with the MLP trained on the digits on card 0 (ipu-train,
# one line per epoch).
set -euo pipefail
cd "$(dirname "$0")/.."
exec tools/ipu-vm -n 4 -- sh -c '
	echo "## lsmod | grep ipu"; lsmod | grep "^ipu" ;
	echo "## ipu-info"; ipu-info || exit $? ;
	echo "## ipu-reset -d 1"; ipu-reset -d 1 || exit $? ;
	echo "## ipu-info -d 1"; ipu-info -d 1 || exit $? ;
	echo "## a 256x512x128 matmul on card 0, and on the model device";
	mkdir -p /tmp/mm && cd /tmp/mm &&
	ipu-mkgraph -i . matmul mm.ipug &&
	ipu-run -d 0 mm.ipug --in a=a.npy --in b=b.npy --out c=c-card.npy &&
	ipu-run -m gc200 mm.ipug --in a=a.npy --in b=b.npy --out c=c-model.npy >/dev/null &&
	cmp c-card.npy c-model.npy && echo "card and model device agree bit for bit" &&
	echo "## ipu-train digits --model mlp --device 0: the MLP trained on card 0" &&
	ipu-train digits --model mlp --device 0'
