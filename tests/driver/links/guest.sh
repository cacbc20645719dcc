#!/bin/sh
# Guest side of tests/driver/links/run.sh: ipu_links_test with the host's
# QMP proxy (IPU_QMP_DIR), its KTAP into the share.
export IPU_QMP_DIR=/mnt/host/qmp
/tests/ipu_links_test >/mnt/host/ipu_links_test.ktap 2>&1
rc=$?
cat /mnt/host/ipu_links_test.ktap
exit $rc
