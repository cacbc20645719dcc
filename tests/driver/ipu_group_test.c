// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_group_test: GROUP_ATTACH (docs/uapi.md "Multi-IPU groups", API 1.6):
 * all members attached at once, all or none (a member another process
 * holds: -EBUSY naming it, nothing attached), the leader's DETACH and
 * close detach the members, argument checks. Each test runs on a group of
 * up to four cards (any VM with -n 2 and up; no fabric needed: attaching
 * is per card) and on one of sixteen (a POD16's device 30; it skips with
 * fewer cards).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"

#define MAXC 16

static int group_attach(int leader, const int *fds, uint32_t count,
			struct ipu_group_attach *ga)
{
	memset(ga, 0, sizeof(*ga));
	ga->argsz = sizeof(*ga);
	ga->count = count;
	ga->fds_ptr = (uintptr_t)fds;
	return ioctl(leader, IPU_IOCTL_GROUP_ATTACH, ga) ? -errno : 0;
}

FIXTURE(group) {
	int n;
	int fd[MAXC];
};

/* The group: cards 0 .. n - 1, with min <= n <= max. */
FIXTURE_VARIANT(group) {
	int min, max;
};

FIXTURE_VARIANT_ADD(group, up_to_four) {
	.min = 2, .max = 4,
};

FIXTURE_VARIANT_ADD(group, sixteen) {
	.min = 16, .max = 16,
};

FIXTURE_SETUP(group)
{
	self->n = 0;
	for (int i = 0; i < variant->max; i++) {
		self->fd[i] = ipu_test_open_card(i, O_RDWR);
		if (self->fd[i] < 0)
			break;
		self->n++;
	}
	if (self->n < variant->min)
		SKIP(return, "a group of %d cards or more (%d here)", variant->min, self->n);
}

FIXTURE_TEARDOWN(group)
{
	for (int i = 0; i < self->n; i++)
		close(self->fd[i]);
	for (int i = 0; i < self->n; i++)
		EXPECT_EQ(0, ipu_test_no_leaks(i));
}

/* every member attached: ATTACH again is -EALREADY on each */
TEST_F(group, attach_all_detach_all)
{
	struct ipu_group_attach ga;

	ASSERT_EQ(0, group_attach(self->fd[0], self->fd + 1, self->n - 1, &ga));
	for (int i = 0; i < self->n; i++)
		EXPECT_EQ(-EALREADY, ipu_test_attach(self->fd[i], IPU_ATTACH_FLAG_NONBLOCK));
	/* the leader's DETACH ends the group: every member is free again */
	ASSERT_EQ(0, ipu_test_detach(self->fd[0]));
	for (int i = 1; i < self->n; i++) {
		EXPECT_LE(0, ipu_test_attach(self->fd[i], IPU_ATTACH_FLAG_NONBLOCK));
		EXPECT_EQ(0, ipu_test_detach(self->fd[i]));
	}
}

/* a member held by another process: -EBUSY with its pid, nothing attached */
TEST_F(group, busy_member_none_attached)
{
	struct ipu_group_attach ga;
	int busy = self->n - 1, pipefd[2];
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd = ipu_test_open_card(busy, O_RDWR);

		c = fd >= 0 && ipu_test_attach(fd, 0) >= 0 ? 'y' : 'n';
		if (write(pipefd[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	ASSERT_EQ('y', c);
	EXPECT_EQ(-EBUSY, group_attach(self->fd[0], self->fd + 1, self->n - 1, &ga));
	EXPECT_EQ((uint32_t)busy, ga.busy_index);
	EXPECT_EQ(pid, ga.busy_pid);
	/* none of the others stayed attached */
	for (int i = 0; i < busy; i++) {
		EXPECT_LE(0, ipu_test_attach(self->fd[i], IPU_ATTACH_FLAG_NONBLOCK));
		EXPECT_EQ(0, ipu_test_detach(self->fd[i]));
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* the holder gone, the group attaches */
	EXPECT_EQ(0, group_attach(self->fd[0], self->fd + 1, self->n - 1, &ga));
}

/* closing the leader detaches the members it attached */
TEST_F(group, leader_close_detaches_members)
{
	struct ipu_group_attach ga;

	ASSERT_EQ(0, group_attach(self->fd[0], self->fd + 1, self->n - 1, &ga));
	close(self->fd[0]);
	self->fd[0] = ipu_test_open_card(0, O_RDWR);
	ASSERT_LE(0, self->fd[0]);
	for (int i = 1; i < self->n; i++)
		EXPECT_LE(0, ipu_test_attach(self->fd[i], IPU_ATTACH_FLAG_NONBLOCK));
}

/* a member that detached and attached again on its own stays attached */
TEST_F(group, later_attach_survives_leader)
{
	struct ipu_group_attach ga;

	ASSERT_EQ(0, group_attach(self->fd[0], self->fd + 1, self->n - 1, &ga));
	ASSERT_EQ(0, ipu_test_detach(self->fd[1]));
	ASSERT_LE(0, ipu_test_attach(self->fd[1], 0));
	ASSERT_EQ(0, ipu_test_detach(self->fd[0]));
	EXPECT_EQ(-EALREADY, ipu_test_attach(self->fd[1], IPU_ATTACH_FLAG_NONBLOCK));
}

TEST_F(group, arguments)
{
	struct ipu_group_attach ga;
	int fds[2] = { self->fd[1], self->fd[1] };
	int ro, null = open("/dev/null", O_RDWR);

	ASSERT_LE(0, null);
	EXPECT_EQ(-EINVAL, group_attach(self->fd[0], fds, 0, &ga));
	EXPECT_EQ(-EINVAL, group_attach(self->fd[0], fds, IPU_GROUP_MAX_OTHERS + 1, &ga));
	EXPECT_EQ(-EINVAL, group_attach(self->fd[0], fds, 2, &ga));	/* one card twice */
	fds[0] = self->fd[0];
	EXPECT_EQ(-EINVAL, group_attach(self->fd[0], fds, 1, &ga));	/* the leader's own */
	fds[0] = null;
	EXPECT_EQ(-EINVAL, group_attach(self->fd[0], fds, 1, &ga));
	fds[0] = 1000;
	EXPECT_EQ(-EBADF, group_attach(self->fd[0], fds, 1, &ga));
	EXPECT_EQ(-EFAULT, group_attach(self->fd[0], (int *)8, 1, &ga));
	ro = ipu_test_open_card(1, O_RDONLY);
	ASSERT_LE(0, ro);
	fds[0] = ro;
	EXPECT_EQ(-EPERM, group_attach(self->fd[0], fds, 1, &ga));
	close(ro);
	memset(&ga, 0, sizeof(ga));
	ga.argsz = sizeof(ga);
	ga.count = 1;
	fds[0] = self->fd[1];
	ga.fds_ptr = (uintptr_t)fds;
	ga.reserved[1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], IPU_IOCTL_GROUP_ATTACH, &ga));
	EXPECT_EQ(EINVAL, errno);
	ga.reserved[1] = 0;
	ga.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], IPU_IOCTL_GROUP_ATTACH, &ga));
	EXPECT_EQ(EINVAL, errno);
	/* nothing of that attached anything */
	EXPECT_LE(0, ipu_test_attach(self->fd[0], IPU_ATTACH_FLAG_NONBLOCK));
	/* an attached leader: -EALREADY, and the member stays free */
	EXPECT_EQ(-EALREADY, group_attach(self->fd[0], fds, 1, &ga));
	EXPECT_LE(0, ipu_test_attach(self->fd[1], IPU_ATTACH_FLAG_NONBLOCK));
	close(null);
}

TEST_HARNESS_MAIN
