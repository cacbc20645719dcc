// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_group_test: GROUP_ATTACH (docs/uapi.md "Multi-IPU groups", API 1.6):
 * all members attached at once, all or none (a member another process
 * holds: -EBUSY naming it, nothing attached), the leader's DETACH and
 * close detach the members, argument checks. Each runs on a group of up
 * to four cards (any VM with -n 2 and up; no fabric needed: attaching is
 * per card) and on one of sixteen (a POD16's device 30; it skips with
 * fewer cards). Group commands (API 1.7, "Group commands"): a RUN on the
 * leader with IPU_CMD_FLAG_GROUP runs on every member and completes once,
 * when all did; the cause's status and member; the flag only on a leader
 * and only for RUN and ABORT; a group ABORT; the leader closed and a
 * member reset with a group RUN in flight. Each card runs its own
 * single-IPU graph (the driver's fan-out does not care what the cards
 * run); on up to four cards.
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
#include "ipu_graphs.h"

#define MAXC 16
#define N_ELEMS 256

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

/* Opens cards 0 .. @max - 1 (read-write) into @fd, stopping at the first
 * missing one: how many. */
static int open_cards(int *fd, int max)
{
	int n = 0;

	for (int i = 0; i < max; i++) {
		fd[i] = ipu_test_open_card(i, O_RDWR);
		if (fd[i] < 0)
			break;
		n++;
	}
	return n;
}

/* Closes them; nothing of any card may be left behind. */
static void close_cards(struct __test_metadata *_metadata, int *fd, int n)
{
	for (int i = 0; i < n; i++)
		close(fd[i]);
	for (int i = 0; i < n; i++)
		EXPECT_EQ(0, ipu_test_no_leaks(i));
}

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
	self->n = open_cards(self->fd, variant->max);
	if (self->n < variant->min)
		SKIP(return, "a group of %d cards or more (%d here)", variant->min, self->n);
}

FIXTURE_TEARDOWN(group)
{
	close_cards(_metadata, self->fd, self->n);
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

/* --- group commands (API 1.7) --- */

/* LOAD the double graph of @fd's card model: its status or -errno. */
static int load_double(int fd)
{
	struct ipu_info info;
	struct ipu_cmd c = { .opcode = IPU_CMD_LOAD };
	size_t len;
	void *g;
	int ret;

	if (ipu_get_info(fd, &info))
		return -EIO;
	if (ipu_test_double_graph(info.model, N_ELEMS, 0, &g, &len))
		return -ENOMEM;
	c.user_ptr = (uintptr_t)g;
	c.length = len;
	ret = ipu_test_submit(fd, &c);
	free(g);
	return ret;
}

/* SUBMIT @op (RUN of @prog) with @flags | GROUP; c->status / -errno. */
static int gcmd(int fd, uint32_t op, uint32_t prog, uint32_t flags,
		struct ipu_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->opcode = op;
	c->handle = prog;
	c->flags = flags | IPU_CMD_FLAG_GROUP;
	return ipu_test_submit(fd, c);
}

FIXTURE(grun) {
	int n;
	int fd[MAXC];
};

/* every card's file, group-attached on fd[0]; the first @loaded loaded */
static void grun_attach(struct __test_metadata *_metadata,
			FIXTURE_DATA(grun) *self, int loaded)
{
	struct ipu_group_attach ga;

	ASSERT_EQ(0, group_attach(self->fd[0], self->fd + 1, self->n - 1, &ga));
	for (int i = 0; i < loaded; i++)
		ASSERT_EQ(IPU_STATUS_OK, load_double(self->fd[i]));
}

FIXTURE_SETUP(grun)
{
	struct ipu_info info;

	self->n = open_cards(self->fd, 4);
	if (self->n < 2)
		SKIP(return, "group commands need two cards (%d here)", self->n);
	ASSERT_EQ(0, ipu_get_info(self->fd[0], &info));
	if ((info.api_version & 0xffff) < IPU_API_MINOR_GROUP_CMDS)
		SKIP(return, "driver API %#x has no group commands", info.api_version);
	grun_attach(_metadata, self, self->n);
}

FIXTURE_TEARDOWN(grun)
{
	close_cards(_metadata, self->fd, self->n);
}

/*
 * One completion, on the leader, once every member's part completed: a
 * member busy with its own long RUN holds the group RUN back until that
 * one is aborted; the members' files never see the parts.
 */
TEST_F(grun, run_completes_once_when_all_did)
{
	struct ipu_cmd c, spin = { .opcode = IPU_CMD_RUN, .handle = P_SPIN,
				   .flags = IPU_CMD_FLAG_ASYNC };
	struct ipu_cmd ab = { .opcode = IPU_CMD_ABORT };
	struct ipu_wait w;
	int last = self->n - 1;

	IPU_RETURN_IF_SKIPPED();
	EXPECT_EQ(IPU_STATUS_OK, gcmd(self->fd[0], IPU_CMD_RUN, P_DOUBLE, 0, &c));
	EXPECT_EQ(0u, c.member);
	for (int i = 0; i < self->n; i++)
		EXPECT_EQ(-ENOENT, ipu_test_wait_seq(self->fd[i], 0, IPU_WAIT_FLAG_ANY, 0, NULL));

	ASSERT_EQ(0, ipu_test_submit(self->fd[last], &spin));
	ASSERT_EQ(0, gcmd(self->fd[0], IPU_CMD_RUN, P_DOUBLE, IPU_CMD_FLAG_ASYNC, &c));
	/* the last member's part waits behind its spin: not complete */
	EXPECT_EQ(-ETIMEDOUT, ipu_test_wait_seq(self->fd[0], c.seq, 0, 200, NULL));
	EXPECT_EQ(-ETIMEDOUT, ipu_test_wait_seq(self->fd[0], 0, IPU_WAIT_FLAG_ANY, 0, NULL));
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_submit(self->fd[last], &ab));
	EXPECT_EQ(IPU_STATUS_ABORTED,
		  ipu_test_wait_seq(self->fd[last], spin.seq, 0, UINT32_MAX, NULL));
	memset(&w, 0, sizeof(w));
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_wait_seq(self->fd[0], c.seq, 0, UINT32_MAX, &w));
	EXPECT_EQ(0u, w.member);
	/* collected once: nothing more on any file */
	EXPECT_EQ(-ENOENT, ipu_test_wait_seq(self->fd[0], c.seq, 0, 0, NULL));
	for (int i = 0; i < self->n; i++)
		EXPECT_EQ(-ENOENT, ipu_test_wait_seq(self->fd[i], 0, IPU_WAIT_FLAG_ANY, 0, NULL));
}

/* the member that failed is the cause: its status, and which one */
TEST_F(grun, failing_member_is_the_cause)
{
	struct ipu_cmd c;
	struct ipu_wait w;

	IPU_RETURN_IF_SKIPPED();
	/* a new group: the last member gets no graph (DETACH unloads it) */
	ASSERT_EQ(0, ipu_test_detach(self->fd[0]));
	grun_attach(_metadata, self, self->n - 1);
	EXPECT_EQ(IPU_STATUS_NO_GRAPH, gcmd(self->fd[0], IPU_CMD_RUN, P_DOUBLE, 0, &c));
	EXPECT_EQ((uint32_t)self->n - 1, c.member);
	ASSERT_EQ(0, gcmd(self->fd[0], IPU_CMD_RUN, P_DOUBLE, IPU_CMD_FLAG_ASYNC, &c));
	memset(&w, 0, sizeof(w));
	EXPECT_EQ(IPU_STATUS_NO_GRAPH,
		  ipu_test_wait_seq(self->fd[0], c.seq, 0, UINT32_MAX, &w));
	EXPECT_EQ((uint32_t)self->n - 1, w.member);
}

/* the flag: only on the leader's file, only RUN and ABORT */
TEST_F(grun, flag_needs_a_leader)
{
	struct ipu_wait w;
	struct ipu_cmd c;

	IPU_RETURN_IF_SKIPPED();
	EXPECT_EQ(-EINVAL, gcmd(self->fd[1], IPU_CMD_RUN, P_DOUBLE, 0, &c));
	EXPECT_EQ(-EINVAL, gcmd(self->fd[0], IPU_CMD_FENCE, 0, 0, &c));
	memset(&c, 0, sizeof(c));
	c.opcode = IPU_CMD_RUN;
	c.member = 1;
	EXPECT_EQ(-EINVAL, ipu_test_submit(self->fd[0], &c));
	c.member = 0;
	c.reserved1 = 1;
	EXPECT_EQ(-EINVAL, ipu_test_submit(self->fd[0], &c));
	c.reserved1 = 0;
	c.flags = 1u << 3;		/* unknown */
	EXPECT_EQ(-EINVAL, ipu_test_submit(self->fd[0], &c));
	memset(&w, 0, sizeof(w));
	w.argsz = sizeof(w);
	w.flags = IPU_WAIT_FLAG_ANY;
	w.member = 1;			/* out only */
	EXPECT_EQ(-1, ioctl(self->fd[0], IPU_IOCTL_WAIT, &w));
	EXPECT_EQ(EINVAL, errno);
	/* the group ended: the former leader leads nothing */
	ASSERT_EQ(0, ipu_test_detach(self->fd[0]));
	ASSERT_LE(0, ipu_test_attach(self->fd[0], 0));
	EXPECT_EQ(-EINVAL, gcmd(self->fd[0], IPU_CMD_RUN, P_DOUBLE, 0, &c));
	EXPECT_EQ(-EINVAL, gcmd(self->fd[0], IPU_CMD_ABORT, 0, 0, &c));
}

/* a group ABORT reaches every member's RUN */
TEST_F(grun, abort_ends_the_group_run)
{
	struct ipu_cmd c, a;
	struct ipu_wait w;

	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, gcmd(self->fd[0], IPU_CMD_RUN, P_SPIN, IPU_CMD_FLAG_ASYNC, &c));
	EXPECT_EQ(-ETIMEDOUT, ipu_test_wait_seq(self->fd[0], c.seq, 0, 100, NULL));
	EXPECT_EQ(IPU_STATUS_OK, gcmd(self->fd[0], IPU_CMD_ABORT, 0, 0, &a));
	memset(&w, 0, sizeof(w));
	EXPECT_EQ(IPU_STATUS_ABORTED,
		  ipu_test_wait_seq(self->fd[0], c.seq, 0, UINT32_MAX, &w));
	EXPECT_EQ(0u, w.member);
	/* every member can run again */
	EXPECT_EQ(IPU_STATUS_OK, gcmd(self->fd[0], IPU_CMD_RUN, P_DOUBLE, 0, &c));
}

/* closing the leader with a group RUN in flight: the members are let go */
TEST_F(grun, leader_close_with_run_in_flight)
{
	struct ipu_cmd c;

	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, gcmd(self->fd[0], IPU_CMD_RUN, P_SPIN, IPU_CMD_FLAG_ASYNC, &c));
	EXPECT_EQ(-ETIMEDOUT, ipu_test_wait_seq(self->fd[0], c.seq, 0, 50, NULL));
	close(self->fd[0]);
	self->fd[0] = ipu_test_open_card(0, O_RDWR);
	ASSERT_LE(0, self->fd[0]);
	for (int i = 0; i < self->n; i++) {
		EXPECT_LE(0, ipu_test_attach(self->fd[i], IPU_ATTACH_FLAG_NONBLOCK));
		EXPECT_EQ(-ENOENT, ipu_test_wait_seq(self->fd[i], 0, IPU_WAIT_FLAG_ANY, 0, NULL));
	}
}

/*
 * A member reset during a group RUN: its part completes with RESET, which
 * is the cause the group reports, not the others' ABORTED (these single-IPU
 * graphs have no external sync that would end them: the group ABORT does).
 */
TEST_F(grun, member_reset_is_the_cause)
{
	struct ipu_reset r;
	struct ipu_cmd c, a;
	struct ipu_wait w;

	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, gcmd(self->fd[0], IPU_CMD_RUN, P_SPIN, IPU_CMD_FLAG_ASYNC, &c));
	EXPECT_EQ(-ETIMEDOUT, ipu_test_wait_seq(self->fd[0], c.seq, 0, 50, NULL));
	ASSERT_EQ(0, ipu_reset(self->fd[1], IPU_RESET_FLAG_FORCE, 10000, &r));
	EXPECT_EQ(IPU_STATUS_OK, gcmd(self->fd[0], IPU_CMD_ABORT, 0, 0, &a));
	memset(&w, 0, sizeof(w));
	EXPECT_EQ(IPU_STATUS_RESET,
		  ipu_test_wait_seq(self->fd[0], c.seq, 0, UINT32_MAX, &w));
	EXPECT_EQ(1u, w.member);
}

TEST_HARNESS_MAIN
