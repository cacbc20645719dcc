#!/bin/bash
# `make run`: boot a VM with four cards, load the driver, list the cards,
# reset one and show it afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
exec tools/ipu-vm -n 4 -- sh -c '
	echo "## lsmod | grep ipu"; lsmod | grep "^ipu" ;
	echo "## ipu-info"; ipu-info || exit $? ;
	echo "## ipu-reset -d 1"; ipu-reset -d 1 || exit $? ;
	echo "## ipu-info -d 1"; ipu-info -d 1'
