// SPDX-License-Identifier: GPL-2.0
/* See ipu_host_qmp.h; the host side is tests/common/qmp-serve.py. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ipu_host_qmp.h"


const char *ipu_host_qmp_dir(void)
{
	const char *dir = getenv("IPU_QMP_DIR");
	char path[PATH_MAX];

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/ready", dir);
	return access(path, F_OK) ? NULL : dir;
}

static int put_request(const char *dir, unsigned int n, const char *json)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	FILE *f;
	int bad;

	snprintf(tmp, sizeof(tmp), "%s/req-%u.tmp", dir, n);
	snprintf(path, sizeof(path), "%s/req-%u", dir, n);
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	bad = fprintf(f, "%s\n", json) < 0;
	bad |= fclose(f) != 0;
	if (bad)
		return -EIO;
	return rename(tmp, path) ? -errno : 0;
}

int ipu_host_qmp(const char *json, char *rsp, size_t len)
{
	const char *dir = ipu_host_qmp_dir();
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	char path[PATH_MAX];
	unsigned int n = 0;
	FILE *f = NULL;
	int ret;

	if (len)
		rsp[0] = 0;
	if (!dir)
		return -ENOENT;
	/*
	 * The host serves req-0, req-1, ... in order: the next number is the
	 * first not taken (the share is the one record, as the harness runs
	 * each test in a child process).
	 */
	do {
		snprintf(path, sizeof(path), "%s/req-%u", dir, n);
	} while (!access(path, F_OK) && ++n);
	ret = put_request(dir, n, json);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/rsp-%u", dir, n);
	for (int i = 0; i < 3000 && !(f = fopen(path, "r")); i++)
		nanosleep(&tick, NULL);
	if (!f)
		return -ETIMEDOUT;
	if (!fgets(rsp, len, f))
		rsp[0] = 0;
	fclose(f);
	rsp[strcspn(rsp, "\n")] = 0;
	return strstr(rsp, "\"return\"") ? 0 : 1;
}

int ipu_host_qom_set(const char *path, const char *prop, const char *value,
		     char *rsp, size_t len)
{
	char json[512];

	snprintf(json, sizeof(json),
		 "{\"execute\": \"qom-set\", \"arguments\": {\"path\": \"%s\", "
		 "\"property\": \"%s\", \"value\": \"%s\"}}", path, prop, value);
	return ipu_host_qmp(json, rsp, len);
}

int ipu_host_qom_get(const char *path, const char *prop, char *rsp, size_t len)
{
	char json[512];

	snprintf(json, sizeof(json),
		 "{\"execute\": \"qom-get\", \"arguments\": {\"path\": \"%s\", "
		 "\"property\": \"%s\"}}", path, prop);
	return ipu_host_qmp(json, rsp, len);
}
