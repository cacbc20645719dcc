// SPDX-License-Identifier: GPL-2.0
/*
 * What the soak reads from the guest kernel: a card's sysfs attributes
 * (recoveries, state), /proc/vmstat's pin counters, the module's refcount,
 * the driver's debugfs leak counters (docs/driver.md) and a process's
 * open files.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>

#include "soak.h"

int64_t soak_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

void soak_sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

long soak_sysfs_long(unsigned id, const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/ipu/ipu%u/%s", id, attr);
	return read_long(path);
}

long soak_vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	size_t n = strlen(name);
	char line[128];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ') {
			v = atol(line + n + 1);
			break;
		}
	fclose(f);
	return v;
}

long soak_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	long n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

long soak_module_refcnt(void)
{
	return read_long("/sys/module/ipu/refcnt");
}

long soak_debug_counters(unsigned id, char *what, size_t len)
{
	static const char *const names[] = {
		"pinned_pages", "alloc_pages", "buffers", "commands",
	};
	struct stat st;
	size_t off = 0;
	long sum = 0;

	if (stat("/sys/kernel/debug/ipu", &st))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	what[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[128];
		long v;

		snprintf(path, sizeof(path), "/sys/kernel/debug/ipu/ipu%u/%s",
			 id, names[i]);
		v = read_long(path);
		if (v < 0)
			return -1;
		sum += v;
		if (off < len)
			off += (size_t)snprintf(what + off, len - off, "%s%s %ld",
						i ? ", " : "", names[i], v);
	}
	return sum;
}
