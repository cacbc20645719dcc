#!/bin/sh
# Guest side of tests/driver/recovery/run.sh: ipu_recovery_test with the
# host's QMP proxy (IPU_QMP_DIR), through the test runner, so that under the
# debug kernel its kmemleak scan and DMA-API error count follow
# (kernel-debug.ktap); the KTAP files go to the share's results/.
export IPU_QMP_DIR=/mnt/host/qmp
/tests/run-tests.sh /mnt/host/results ipu_recovery_test
