#!/bin/sh
# Guest side of tests/driver/recovery/run.sh: ipu_recovery_test and
# ipu_health_test (its injected DMA error) with the host's QMP proxy
# (IPU_QMP_DIR), each one's KTAP into the share. IPU_TESTS (from the
# share's tests file, when there) picks some of them.
export IPU_QMP_DIR=/mnt/host/qmp
tests="ipu_recovery_test ipu_health_test"
[ -f /mnt/host/tests ] && tests=$(cat /mnt/host/tests)
rc=0
for t in $tests; do
	/tests/$t >/mnt/host/$t.ktap 2>&1 || rc=1
	cat /mnt/host/$t.ktap
done
exit $rc
