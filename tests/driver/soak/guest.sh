#!/bin/sh
# Guest side of tests/driver/soak/run.sh: ipu_soak_test through the test
# runner (which, under the debug kernel, then scans for kmemleak reports and
# counts DMA-API errors), with the host's QMP proxy (IPU_QMP_DIR). The
# soak's seed and length come from the host's IPU_SOAK_SEED and
# IPU_SOAK_SECONDS, passed in the share.
export IPU_QMP_DIR=/mnt/host/qmp
[ -f /mnt/host/soak.env ] && . /mnt/host/soak.env
/tests/run-tests.sh /mnt/host/results ipu_soak_test
