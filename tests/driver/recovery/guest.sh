#!/bin/sh
# Guest side of tests/driver/recovery/run.sh: ipu_recovery_test and
# ipu_health_test (its injected DMA error) with the host's QMP proxy
# (IPU_QMP_DIR), through the test runner, so that under the debug kernel
# its kmemleak scan and DMA-API error count follow (kernel-debug.ktap); the
# KTAP files go to the share's results/. The share's tests file, when
# there, picks some of the tests.
export IPU_QMP_DIR=/mnt/host/qmp
tests="ipu_recovery_test ipu_health_test"
[ -f /mnt/host/tests ] && tests=$(cat /mnt/host/tests)
# shellcheck disable=SC2086 # one test per word
/tests/run-tests.sh /mnt/host/results $tests
