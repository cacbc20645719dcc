// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_reset_test: RESET on each card: the count increments, the card is
 * ready afterwards and sysfs agrees; NOWAIT, back-to-back and concurrent
 * resets, a timeout too short for the card, and signals while waiting.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"

/* Generous: the VM runs on TCG, and the card needs 10 ms per reset. */
#define SETTLE_MS	10000

FIXTURE(reset) {
	char name[IPU_TEST_NAME_MAX];
	int fd;
};

FIXTURE_VARIANT(reset) {
	int index;
};

IPU_CARD_VARIANTS(reset);

FIXTURE_SETUP(reset)
{
	self->fd = -1;
	IPU_FIND_CARD_OR_SKIP(variant->index, self->name);
	self->fd = ipu_open_name(self->name, O_RDWR);
	ASSERT_LE(0, self->fd);
	/* Start from a ready card (an earlier test may have left a reset). */
	ASSERT_EQ(0, ipu_wait_state(self->name, "ready", SETTLE_MS));
}

FIXTURE_TEARDOWN(reset)
{
	if (self->fd >= 0)
		close(self->fd);
}

static uint32_t count_of(struct __test_metadata *_metadata, int fd)
{
	struct ipu_info info;

	ASSERT_EQ(0, ipu_get_info(fd, &info));
	return info.reset_count;
}

TEST_F(reset, count_increments_state_ready)
{
	struct ipu_reset r;
	struct ipu_info info;
	char state[32];
	uint32_t before, v;

	IPU_RETURN_IF_SKIPPED();
	before = count_of(_metadata, self->fd);
	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, &r));
	EXPECT_EQ((uint32_t)sizeof(r), r.argsz);
	EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, r.state);
	EXPECT_EQ(before + 1, r.reset_count);

	ASSERT_EQ(0, ipu_get_info(self->fd, &info));
	EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, info.state);
	EXPECT_EQ(before + 1, info.reset_count);

	ASSERT_EQ(0, ipu_sysfs_read(self->name, "state", state, sizeof(state)));
	EXPECT_STREQ("ready", state);
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "reset_count", &v));
	EXPECT_EQ(before + 1, v);
}

TEST_F(reset, repeated_resets)
{
	struct ipu_reset r;
	uint32_t before;

	IPU_RETURN_IF_SKIPPED();
	before = count_of(_metadata, self->fd);
	for (uint32_t i = 1; i <= 5; i++) {
		ASSERT_EQ(0, ipu_reset(self->fd, 0, 5000, &r));
		EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, r.state);
		EXPECT_EQ(before + i, r.reset_count);
	}
}

TEST_F(reset, nowait)
{
	struct ipu_reset r;
	uint32_t before, v;

	IPU_RETURN_IF_SKIPPED();
	before = count_of(_metadata, self->fd);
	ASSERT_EQ(0, ipu_reset(self->fd, IPU_RESET_FLAG_NOWAIT, 0, &r));
	/* Normally still resetting; a slow host may see it done already. */
	EXPECT_TRUE(r.state == IPU_DEV_STATE_RESETTING ||
		    r.state == IPU_DEV_STATE_READY) TH_LOG("state %u", r.state);
	EXPECT_TRUE(r.reset_count == before || r.reset_count == before + 1);

	ASSERT_EQ(0, ipu_wait_state(self->name, "ready", SETTLE_MS));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "reset_count", &v));
	EXPECT_EQ(before + 1, v);
	EXPECT_EQ(before + 1, count_of(_metadata, self->fd));
}

TEST_F(reset, nowait_then_wait)
{
	struct ipu_reset r;
	uint32_t before;

	IPU_RETURN_IF_SKIPPED();
	before = count_of(_metadata, self->fd);
	/* The second reset waits for the first instead of being ignored. */
	ASSERT_EQ(0, ipu_reset(self->fd, IPU_RESET_FLAG_NOWAIT, 0, NULL));
	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, &r));
	EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, r.state);
	EXPECT_EQ(before + 2, r.reset_count);
}

TEST_F(reset, concurrent_resets_serialized)
{
	const int nproc = 4, per = 3;
	uint32_t before;
	int status;

	IPU_RETURN_IF_SKIPPED();
	before = count_of(_metadata, self->fd);
	for (int p = 0; p < nproc; p++) {
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (pid == 0) {
			int fd = ipu_open_name(self->name, O_RDWR);

			for (int i = 0; i < per; i++)
				if (fd < 0 || ipu_reset(fd, 0, 10000, NULL))
					_exit(1);
			_exit(0);
		}
	}
	for (int p = 0; p < nproc; p++) {
		ASSERT_LT(0, wait(&status));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	EXPECT_EQ(before + nproc * per, count_of(_metadata, self->fd));
	EXPECT_EQ(0, ipu_wait_state(self->name, "ready", SETTLE_MS));
}

TEST_F(reset, timeout_too_short)
{
	struct ipu_info info;
	char state[32];
	int ret;

	IPU_RETURN_IF_SKIPPED();
	/* 1 ms is shorter than the card's 10 ms reset. */
	ret = ipu_reset(self->fd, 0, 1, NULL);
	if (ret == -ETIMEDOUT) {
		/* "failed" until the card reports READY on its own. */
		ASSERT_EQ(0, ipu_sysfs_read(self->name, "state", state, sizeof(state)));
		EXPECT_TRUE(!strcmp(state, "failed") || !strcmp(state, "ready"))
			TH_LOG("state %s", state);
	} else {
		EXPECT_EQ(0, ret) TH_LOG("reset with 1 ms: %s", strerror(-ret));
	}
	/* A reset with a sane timeout recovers. */
	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, NULL));
	ASSERT_EQ(0, ipu_get_info(self->fd, &info));
	EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, info.state);
	ASSERT_EQ(0, ipu_sysfs_read(self->name, "state", state, sizeof(state)));
	EXPECT_STREQ("ready", state);
}

static void on_alarm(int sig)
{
}

TEST_F(reset, signal_while_waiting)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_interval = { 0, 300 }, .it_value = { 0, 300 } };
	int ok = 0, eintr = 0, other = 0, ret;
	struct itimerval off = { 0 };
	uint32_t before, after;

	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	before = count_of(_metadata, self->fd);
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	for (int i = 0; i < 20; i++) {
		ret = ipu_reset(self->fd, 0, 10000, NULL);
		if (!ret)
			ok++;
		else if (ret == -EINTR)
			eintr++;
		else
			other++;
	}
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &off, NULL));
	TH_LOG("20 resets under SIGALRM: %d completed, %d interrupted", ok, eintr);
	EXPECT_EQ(0, other);

	/* Interrupted resets still complete in the background. */
	ASSERT_EQ(0, ipu_wait_state(self->name, "ready", SETTLE_MS));
	after = count_of(_metadata, self->fd);
	EXPECT_LE(before + ok, after);
	EXPECT_GE(before + 20, after);
	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, NULL));
	EXPECT_EQ(after + 1, count_of(_metadata, self->fd));
}

TEST_F(reset, other_cards_unaffected)
{
	char names[IPU_TEST_MAX_CARDS][IPU_TEST_NAME_MAX];
	uint32_t counts[IPU_TEST_MAX_CARDS], v;
	int n;

	IPU_RETURN_IF_SKIPPED();
	n = ipu_list_cards(names, IPU_TEST_MAX_CARDS);
	for (int i = 0; i < n; i++)
		ASSERT_EQ(0, ipu_sysfs_u32(names[i], "reset_count", &counts[i]));
	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, NULL));
	for (int i = 0; i < n; i++) {
		ASSERT_EQ(0, ipu_sysfs_u32(names[i], "reset_count", &v));
		if (!strcmp(names[i], self->name)) {
			EXPECT_EQ(counts[i] + 1, v);
		} else {
			EXPECT_EQ(counts[i], v) TH_LOG("%s changed", names[i]);
		}
	}
}

TEST_HARNESS_MAIN
