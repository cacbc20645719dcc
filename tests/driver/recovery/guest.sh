#!/bin/sh
# Guest side of tests/driver/recovery/run.sh: ipu_recovery_test with the
# host's QMP proxy (IPU_QMP_DIR), its KTAP into the share.
export IPU_QMP_DIR=/mnt/host/qmp
/tests/ipu_recovery_test >/mnt/host/ipu_recovery_test.ktap 2>&1
rc=$?
cat /mnt/host/ipu_recovery_test.ktap
exit $rc
