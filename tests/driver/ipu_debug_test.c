// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's debugging aids (docs/driver.md "Debugging"): its tracepoints
 * (tracefs events/ipu/) show a command's submission and completion and a
 * reset with their figures, and its debug messages are selected by
 * category through dynamic debug ("reset:" on, "submit:" off).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"

#define TRACEFS		"/sys/kernel/tracing"
#define DYNDBG		"/sys/kernel/debug/dynamic_debug/control"
#define CARD		0
#define BIG		(16 << 20)	/* more than the kernel log */

/* A synchronous FENCE on @fd: its seq, or -errno. */
static long long fence(int fd)
{
	struct ipu_cmd c = { .argsz = sizeof(c), .opcode = IPU_CMD_FENCE };

	if (ioctl(fd, IPU_IOCTL_SUBMIT, &c))
		return -errno;
	return c.status == IPU_STATUS_OK ? (long long)c.seq : -EIO;
}

/* The whole of @path into a new string (the caller frees it), or NULL. */
static char *slurp(const char *path)
{
	size_t cap = BIG, len = 0;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	ssize_t n;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	/* /dev/kmsg gives a record per read and EAGAIN at its end. */
	while (len < cap && (n = read(fd, buf + len, cap - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

FIXTURE(debug) {
	int fd;
};

FIXTURE_SETUP(debug)
{
	self->fd = ipu_test_open_card(CARD, O_RDWR);
	if (self->fd < 0)
		SKIP(return, "card %d not present", CARD);
}

FIXTURE_TEARDOWN(debug)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(debug, tracepoints)
{
	char want[128], *trace;
	struct ipu_reset r;
	long long seq;
	int fd;

	IPU_RETURN_IF_SKIPPED();
	if (access(TRACEFS "/events", F_OK))
		mount("nodev", TRACEFS, "tracefs", 0, NULL);
	if (access(TRACEFS "/events/ipu/enable", F_OK))
		SKIP(return, "no tracefs or tracepoints in this kernel");
	fd = open(TRACEFS "/trace", O_WRONLY | O_TRUNC);	/* clears it */
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, ipu_write_file(TRACEFS "/events/ipu/enable", "1"));
	ASSERT_LE(0, ipu_test_attach(self->fd, 0));
	seq = fence(self->fd);
	ASSERT_LT(0, seq);
	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, &r));
	ASSERT_EQ(0, ipu_write_file(TRACEFS "/events/ipu/enable", "0"));
	trace = slurp(TRACEFS "/trace");
	ASSERT_NE(NULL, trace);

	snprintf(want, sizeof(want), "seq %lld opcode %d sync", seq,
		 IPU_CMD_FENCE);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no ipu_cmd_submit '%s'", want);
	EXPECT_NE(NULL, strstr(trace, "ipu_cmd_submit: ipu"));
	snprintf(want, sizeof(want), "seq %lld opcode %d status %d ", seq,
		 IPU_CMD_FENCE, IPU_STATUS_OK);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no ipu_cmd_complete '%s'", want);
	EXPECT_NE(NULL, strstr(trace, "ipu_reset: ipu"));
	snprintf(want, sizeof(want), " 0, %u resets", r.reset_count);
	EXPECT_NE(NULL, strstr(trace, want)) TH_LOG("no ipu_reset_done '%s'", want);
	if (!_metadata->passed)
		TH_LOG("trace:\n%s", trace);
	free(trace);
}

TEST_F(debug, message_categories)
{
	char *log, mark[64];
	struct ipu_reset r;
	int ret;

	IPU_RETURN_IF_SKIPPED();
	if (access(DYNDBG, W_OK))
		SKIP(return, "no dynamic debug in this kernel");
	snprintf(mark, sizeof(mark), "ipu_debug_test mark %d", getpid());
	ASSERT_EQ(0, ipu_write_file("/dev/kmsg", mark));
	ret = ipu_write_file(DYNDBG, "module ipu format \"reset:\" +p");
	ASSERT_EQ(0, ret);
	ASSERT_LE(0, ipu_test_attach(self->fd, 0));
	ASSERT_LT(0, fence(self->fd));
	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, &r));
	ASSERT_EQ(0, ipu_write_file(DYNDBG, "module ipu -p"));
	log = slurp("/dev/kmsg");
	ASSERT_NE(NULL, log);
	ASSERT_NE(NULL, strstr(log, mark));
	/* What came after our mark: the reset's messages, no submit's. */
	EXPECT_NE(NULL, strstr(strstr(log, mark), "reset: flags 0x0 by"));
	EXPECT_NE(NULL, strstr(strstr(log, mark), "reset: 0, "));
	EXPECT_EQ(NULL, strstr(strstr(log, mark), "submit: "));
	free(log);
}

TEST_HARNESS_MAIN
