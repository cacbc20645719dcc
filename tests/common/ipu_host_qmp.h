/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QMP from inside the VM: a test asks the host to send a command to the
 * QEMU it runs in (tests/common/qmp-serve.py serves the requests through
 * files in a directory of the host share). For tests of what the card
 * does when the host acts on it: links taken down, errors injected, ...
 */
#ifndef IPU_HOST_QMP_H
#define IPU_HOST_QMP_H

#include <stddef.h>

/*
 * The directory the host serves, from IPU_QMP_DIR; NULL when unset or when
 * no host serves it (no "ready" file): tests then skip.
 */
const char *ipu_host_qmp_dir(void);

/*
 * Sends the QMP command @json (one line) through the host and waits for
 * its answer (60 s at most), copied into @rsp (@len bytes, NUL
 * terminated). Returns 0 when QEMU returned, 1 when it returned an error,
 * -ENOENT without a host (ipu_host_qmp_dir() NULL), -ETIMEDOUT, or another
 * -errno of the share. One request at a time (they are numbered in the
 * share): not for concurrent callers.
 */
int ipu_host_qmp(const char *json, char *rsp, size_t len);

/*
 * qom-set of string property @prop of object @path to @value, through
 * ipu_host_qmp(): its return value, the answer in @rsp.
 */
int ipu_host_qom_set(const char *path, const char *prop, const char *value,
		     char *rsp, size_t len);

/*
 * qom-get of property @prop of object @path, through ipu_host_qmp(): its
 * return value, the answer (one JSON line) in @rsp.
 */
int ipu_host_qom_get(const char *path, const char *prop, char *rsp, size_t len);

#endif /* IPU_HOST_QMP_H */
