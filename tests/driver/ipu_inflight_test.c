// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing lost, no one in (issue 8), through the driver:
 *  - inflight: a RESET or a DETACH under a big READ into user memory; the
 *    READ completes only once the card let go (READY again after a reset),
 *    and not one byte of its memory changes after it completed;
 *  - held: RESET of a card another process holds is refused (-EBUSY, the
 *    holder named) unless forced, and ipu-reset says so;
 *  - wmem: memory the card may write is the target of one mapping per
 *    cache line (uAPI 1.3), memory it only reads of any number;
 *  - race: ASYNC SUBMITs racing with WAIT(any) on one file return unique,
 *    increasing seqs (a use after free returned stale ones).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"
#include "ipudev.h"
#include "ipu_graphs.h"

#define BIG_CARD	1		/* gc200 */
#define OTHER_CARD	0		/* gc200 too */
#define SMALL_CARD	3		/* the "test" model */
#define N_ELEMS		4096
#define BIG_BYTES	(256ull << 20)
#define PATTERN		0xa5
#define TENSOR_FILL	0x5a
#define WATCH_MS	300

/* Opens card @index, attaches and loads the double graph (+ @big bytes). */
static int open_loaded(int index, uint32_t model, uint64_t big)
{
	int fd = ipu_test_open_card(index, O_RDWR);
	size_t len;
	void *g;
	int st;

	if (fd < 0)
		return -1;
	if (ipu_test_attach(fd, 0) < 0 ||
	    ipu_test_double_graph(model, N_ELEMS, big, &g, &len)) {
		close(fd);
		return -1;
	}
	st = ipu_test_xfer(fd, IPU_CMD_LOAD, 0, 0, g, len, NULL);
	free(g);
	if (st != IPU_STATUS_OK) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Every byte of @p is @v. */
static int all_are(const uint8_t *p, size_t len, uint8_t v)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

/*
 * After a command completed: its memory, filled with PATTERN now, must
 * stay so while we watch (the card writes nothing after a completion).
 */
static int memory_stays(uint8_t *p, size_t len)
{
	memset(p, PATTERN, len);
	usleep(WATCH_MS * 1000);
	return all_are(p, len, PATTERN);
}

/* --- inflight --- */

FIXTURE(inflight) {
	int fd;
	char name[IPU_TEST_NAME_MAX];
	uint8_t *dst;
};

FIXTURE_SETUP(inflight)
{
	uint8_t *src;

	self->dst = NULL;
	self->fd = open_loaded(BIG_CARD, IPU_MODEL_GC200, BIG_BYTES);
	if (self->fd < 0)
		SKIP(return, "card %d not present or no room", BIG_CARD);
	ASSERT_EQ(0, ipu_find_card(BIG_CARD, self->name, sizeof(self->name)));
	self->dst = aligned_alloc(4096, BIG_BYTES);
	src = aligned_alloc(4096, BIG_BYTES);
	ASSERT_NE(NULL, self->dst);
	ASSERT_NE(NULL, src);
	memset(src, TENSOR_FILL, BIG_BYTES);
	ASSERT_EQ(IPU_STATUS_OK, ipu_test_xfer(self->fd, IPU_CMD_WRITE, 0, H_BIG, src,
				      BIG_BYTES, NULL));
	free(src);
	/* Fault the pages in now: the READ then starts at once. */
	memset(self->dst, 0, BIG_BYTES);
}

FIXTURE_TEARDOWN(inflight)
{
	if (self->fd >= 0)
		close(self->fd);
	free(self->dst);
	if (self->fd >= 0)
		EXPECT_EQ(0, ipu_test_no_leaks(BIG_CARD));
}

/*
 * A RESET (NOWAIT, so that nothing waits for the card on our behalf) under
 * a 256 MiB READ: the READ completes with RESET only once the card is READY
 * again with its reset count advanced, and its memory is quiet afterwards.
 */
TEST_F(inflight, reset_leaves_memory_alone)
{
	struct ipu_reset r;
	struct ipu_info info;
	uint32_t count0;
	uint64_t seq;
	int st, resets = 0;

	IPU_RETURN_IF_SKIPPED();
	for (int round = 0; round < 3; round++) {
		ASSERT_EQ(0, ipu_get_info(self->fd, &info));
		count0 = info.reset_count;
		ASSERT_EQ(0, ipu_test_xfer(self->fd, IPU_CMD_READ, IPU_CMD_FLAG_ASYNC,
				  H_BIG, self->dst, BIG_BYTES, &seq));
		ASSERT_EQ(0, ipu_reset(self->fd, IPU_RESET_FLAG_NOWAIT, 0, &r));
		st = ipu_test_wait_seq(self->fd, seq, 0, 20000, NULL);
		ASSERT_EQ(0, ipu_get_info(self->fd, &info));
		if (st == IPU_STATUS_RESET) {
			resets++;
			/* Completed only after the card confirmed the reset. */
			EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, info.state);
			EXPECT_NE(count0, info.reset_count);
		} else {
			EXPECT_EQ(IPU_STATUS_OK, st);
		}
		EXPECT_TRUE(memory_stays(self->dst, BIG_BYTES)) {
			TH_LOG("round %d (status %d): the card wrote after the completion",
			       round, st);
		}
		/* The graph went with the reset: load it again. */
		ASSERT_EQ(0, ipu_wait_state(self->name, "ready", 5000));
		close(self->fd);
		self->fd = open_loaded(BIG_CARD, IPU_MODEL_GC200, BIG_BYTES);
		ASSERT_LE(0, self->fd);
	}
	TH_LOG("%d of 3 READs were caught by the reset", resets);
}

struct detacher {
	int fd;
	int delay_us;
	int ret;
};

static void *detach_thread(void *arg)
{
	struct detacher *d = arg;

	usleep(d->delay_us);
	d->ret = ipu_test_detach(d->fd);
	return NULL;
}

/*
 * DETACH from another thread under a synchronous 256 MiB READ: the READ
 * ends (ABORTED, or OK when it won), and its memory is quiet afterwards.
 */
TEST_F(inflight, detach_leaves_memory_alone)
{
	IPU_RETURN_IF_SKIPPED();
	for (int round = 0; round < 3; round++) {
		struct detacher d = { .fd = self->fd, .delay_us = round * 2000 };
		pthread_t t;
		int st;

		ASSERT_EQ(0, pthread_create(&t, NULL, detach_thread, &d));
		st = ipu_test_xfer(self->fd, IPU_CMD_READ, 0, H_BIG, self->dst,
			  BIG_BYTES, NULL);
		ASSERT_EQ(0, pthread_join(t, NULL));
		EXPECT_TRUE(st == IPU_STATUS_OK || st == IPU_STATUS_ABORTED ||
			    st == -ENOTCONN) {
			TH_LOG("READ ended with %d", st);
		}
		EXPECT_EQ(0, d.ret);
		EXPECT_TRUE(memory_stays(self->dst, BIG_BYTES)) {
			TH_LOG("round %d (status %d): the card wrote after the detach",
			       round, st);
		}
		close(self->fd);
		self->fd = open_loaded(BIG_CARD, IPU_MODEL_GC200, BIG_BYTES);
		ASSERT_LE(0, self->fd);
	}
}

/* --- held: RESET of a card another process holds --- */

/* Forks a holder of card @index (attached, graph loaded, a RUN spinning). */
static pid_t start_holder(int index, int *ready_fd)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		int fd = open_loaded(index, IPU_MODEL_TEST, 0);
		struct ipu_cmd c = { .opcode = IPU_CMD_RUN, .handle = P_SPIN,
				     .flags = IPU_CMD_FLAG_ASYNC };
		char ok;

		close(p[0]);
		if (fd < 0 || ipu_test_submit(fd, &c))
			_exit(1);
		ok = 'h';
		if (write(p[1], &ok, 1) != 1)
			_exit(1);
		/* The forced reset fails the RUN with RESET; then no graph. */
		if (ipu_test_wait_seq(fd, c.seq, 0, 30000, NULL) != IPU_STATUS_RESET)
			_exit(2);
		c.flags = 0;
		c.handle = P_DOUBLE;
		_exit(ipu_test_submit(fd, &c) == IPU_STATUS_NO_GRAPH ? 0 : 3);
	}
	close(p[1]);
	*ready_fd = p[0];
	return pid;
}

static int run_tool(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");
	size_t n;
	int st;

	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(held_card_refused_unless_forced)
{
	char name[IPU_TEST_NAME_MAX], out[4096], cmd[256], comm[32] = "";
	struct ipu_reset r;
	struct ipu_info i0, i1;
	int fd, rfd, st;
	pid_t pid;
	char c;

	fd = ipu_test_open_card(SMALL_CARD, O_RDWR);
	if (fd < 0)
		SKIP(return, "card %d not present", SMALL_CARD);
	ASSERT_EQ(0, ipu_find_card(SMALL_CARD, name, sizeof(name)));
	pid = start_holder(SMALL_CARD, &rfd);
	ASSERT_LT(0, pid);
	ASSERT_EQ(1, read(rfd, &c, 1));
	snprintf(cmd, sizeof(cmd), "/proc/%d/comm", pid);
	ASSERT_EQ(0, ipu_read_file(cmd, comm, sizeof(comm)));
	comm[strcspn(comm, "\n")] = '\0';

	/* Refused, the holder named; the card and its work untouched. */
	ASSERT_EQ(0, ipu_get_info(fd, &i0));
	memset(&r, 0, sizeof(r));
	r.argsz = sizeof(r);
	EXPECT_EQ(-1, ioctl(fd, IPU_IOCTL_RESET, &r));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(pid, r.holder_pid);
	EXPECT_STREQ(comm, r.holder_comm);
	/* The 1.0 size: refused as well (no room for the holder). */
	memset(&r, 0, sizeof(r));
	r.argsz = offsetof(struct ipu_reset, holder_pid);
	EXPECT_EQ(-1, ioctl(fd, IPU_IOCTL_RESET, &r));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(offsetof(struct ipu_reset, holder_pid), r.argsz);
	/* Unknown flags and reserved2 are still checked first. */
	EXPECT_EQ(-EINVAL, ipu_reset(fd, 1u << 7, 0, &r));
	memset(&r, 0, sizeof(r));
	r.argsz = sizeof(r);
	r.reserved2 = 1;
	EXPECT_EQ(-1, ioctl(fd, IPU_IOCTL_RESET, &r));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, ipu_get_info(fd, &i1));
	EXPECT_EQ(i0.reset_count, i1.reset_count);
	EXPECT_EQ(0, waitpid(pid, &st, WNOHANG));	/* still spinning */

	/* The tool names the holder and exits 4, without resetting. */
	snprintf(cmd, sizeof(cmd), "ipu-reset -d %s 2>&1", name + 3);
	EXPECT_EQ(4, run_tool(cmd, out, sizeof(out))) {
		TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, comm)) {
		TH_LOG("no holder name in: %s", out);
	}
	EXPECT_NE(NULL, strstr(out, "not reset")) {
		TH_LOG("%s", out);
	}
	snprintf(cmd, sizeof(cmd), "ipu-reset --json -d %s 2>/dev/null",
		 name + 3);
	EXPECT_EQ(4, run_tool(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "\"holder_pid\"")) {
		TH_LOG("%s", out);
	}
	ASSERT_EQ(0, ipu_get_info(fd, &i1));
	EXPECT_EQ(i0.reset_count, i1.reset_count);

	/* Forced: the holder's RUN fails with RESET, its graph is gone. */
	snprintf(cmd, sizeof(cmd), "ipu-reset --force -d %s 2>&1", name + 3);
	EXPECT_EQ(0, run_tool(cmd, out, sizeof(out))) {
		TH_LOG("%s", out);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	ASSERT_EQ(0, ipu_get_info(fd, &i1));
	EXPECT_NE(i0.reset_count, i1.reset_count);
	close(rfd);

	/* Nobody holds it now: a plain reset works; the holder may reset. */
	EXPECT_EQ(0, ipu_reset(fd, 0, 0, &r));
	ASSERT_LE(0, ipu_test_attach(fd, 0));
	EXPECT_EQ(0, ipu_reset(fd, 0, 0, &r));
	close(fd);
	EXPECT_EQ(0, ipu_test_no_leaks(SMALL_CARD));
}

/* Without write access to /dev/ipuN the tool says "not reset". */
TEST(reset_tool_without_permission)
{
	char name[IPU_TEST_NAME_MAX], out[4096], cmd[256];
	int p[2], st;
	pid_t pid;
	size_t n;

	if (ipu_find_card(SMALL_CARD, name, sizeof(name)))
		SKIP(return, "card %d not present", SMALL_CARD);
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		if (setgid(65534) || setuid(65534))
			_exit(100);
		snprintf(cmd, sizeof(cmd), "%s", name + 3);
		execlp("ipu-reset", "ipu-reset", "-d", cmd, (char *)NULL);
		_exit(101);
	}
	close(p[1]);
	n = 0;
	for (ssize_t k; (k = read(p[0], out + n, sizeof(out) - 1 - n)) > 0;)
		n += k;
	out[n] = '\0';
	close(p[0]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st)) {
		TH_LOG("ipu-reset died of signal %d: %s", WTERMSIG(st), out);
	}
	EXPECT_EQ(1, WEXITSTATUS(st)) {
		TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, "not reset (Permission denied)")) {
		TH_LOG("%s", out);
	}
	EXPECT_EQ(NULL, strstr(out, "reset FAILED")) {
		TH_LOG("%s", out);
	}
}

/* --- wmem: one device-writable mapping per cache line --- */

TEST(writable_mappings_are_exclusive)
{
	int fd, fd2, h, h2, hb;
	struct ipu_buf b = { .argsz = sizeof(b), .size = 1 << 16 };
	struct ipu_uqueue uq = { .argsz = sizeof(uq) };
	uint64_t s1, s2;
	uint8_t *m, *ring, *p;

	fd = open_loaded(SMALL_CARD, IPU_MODEL_TEST, 0);
	if (fd < 0)
		SKIP(return, "card %d not present", SMALL_CARD);
	p = aligned_alloc(4096, 1 << 20);
	ASSERT_NE(NULL, p);
	memset(p, 1, 1 << 20);

	/* BUF_PIN claims its lines: a second pin or READ of them is -EBUSY. */
	h = ipu_test_buf_pin(fd, p, 4096);
	ASSERT_LT(0, h);
	EXPECT_EQ(-EBUSY, ipu_test_buf_pin(fd, p + 4000, 200));
	EXPECT_EQ(-EBUSY, ipu_test_xfer(fd, IPU_CMD_READ, 0, H_Y, p + 64, 256, NULL));
	/* The next line is free; memory the card only reads is never busy. */
	h2 = ipu_test_buf_pin(fd, p + 4096, 64);
	EXPECT_LT(0, h2);
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_xfer(fd, IPU_CMD_WRITE, 0, H_X, p, 4096, NULL));
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_xfer(fd, IPU_CMD_WRITE, 0, H_X, p + 100, 4096,
				      NULL));
	EXPECT_EQ(0, ipu_test_buf_free(fd, h));
	EXPECT_EQ(0, ipu_test_buf_free(fd, h2));
	/* Given back: pin again. */
	h = ipu_test_buf_pin(fd, p, 4096);
	EXPECT_LT(0, h);
	EXPECT_EQ(0, ipu_test_buf_free(fd, h));

	/* A line shared at the edge of two ranges is one claim too many. */
	h = ipu_test_buf_pin(fd, p + 8192, 100);
	ASSERT_LT(0, h);
	EXPECT_EQ(-EBUSY, ipu_test_buf_pin(fd, p + 8192 + 100, 100));
	EXPECT_EQ(0, ipu_test_buf_free(fd, h));

	/* Two READs in flight into disjoint lines of one array are fine. */
	EXPECT_EQ(0, ipu_test_xfer(fd, IPU_CMD_READ, IPU_CMD_FLAG_ASYNC, H_Y, p,
			  4 * N_ELEMS / 2, &s1));
	EXPECT_EQ(0, ipu_test_xfer(fd, IPU_CMD_READ, IPU_CMD_FLAG_ASYNC, H_Y,
			  p + 4 * N_ELEMS / 2, 4 * N_ELEMS / 2, &s2));
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_wait_seq(fd, s1, 0, 5000, NULL));
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_wait_seq(fd, s2, 0, 5000, NULL));

	/* BUF_ALLOC's pages, mapped into the process, are the card's. */
	ASSERT_EQ(0, ioctl(fd, IPU_IOCTL_BUF_ALLOC, &b));
	hb = b.handle;
	m = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 b.mmap_offset);
	ASSERT_NE(MAP_FAILED, m);
	EXPECT_EQ(-EBUSY, ipu_test_buf_pin(fd, m, 4096));
	EXPECT_EQ(-EBUSY, ipu_test_xfer(fd, IPU_CMD_READ, 0, H_Y, m, 64, NULL));
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_xfer(fd, IPU_CMD_WRITE, 0, H_X, m, 4096, NULL));

	/* So are the user queue's rings. */
	if (ioctl(fd, IPU_IOCTL_UQUEUE, &uq) == 0) {
		ring = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			    uq.sq_offset);
		ASSERT_NE(MAP_FAILED, ring);
		EXPECT_EQ(-EBUSY, ipu_test_buf_pin(fd, ring, 4096));
		munmap(ring, 4096);
	}

	/* Across cards as well. */
	fd2 = open_loaded(OTHER_CARD, IPU_MODEL_GC200, 0);
	if (fd2 >= 0) {
		h = ipu_test_buf_pin(fd, p + 65536, 4096);
		EXPECT_LT(0, h);
		EXPECT_EQ(-EBUSY, ipu_test_buf_pin(fd2, p + 65536, 4096));
		EXPECT_EQ(-EBUSY, ipu_test_xfer(fd2, IPU_CMD_READ, 0, H_Y, p + 65536,
				       64, NULL));
		EXPECT_EQ(0, ipu_test_buf_free(fd, h));
		h = ipu_test_buf_pin(fd2, p + 65536, 4096);
		EXPECT_LT(0, h);
		close(fd2);
	}
	munmap(m, 1 << 16);
	EXPECT_EQ(0, ipu_test_buf_free(fd, hb));
	close(fd);
	free(p);
	EXPECT_EQ(0, ipu_test_no_leaks(SMALL_CARD));
	EXPECT_EQ(0, ipu_test_no_leaks(OTHER_CARD));
}

/* --- race: ASYNC SUBMIT against WAIT(any) on one file --- */

#define RACE_OPS	20000

struct racer {
	int fd;
	volatile int stop;
	uint64_t collected;
	int errors;
};

static void *wait_any_thread(void *arg)
{
	struct racer *r = arg;

	while (!r->stop) {
		int st = ipu_test_wait_seq(r->fd, 0, IPU_WAIT_FLAG_ANY, 0, NULL);

		if (st == IPU_STATUS_OK)
			__atomic_fetch_add(&r->collected, 1, __ATOMIC_RELAXED);
		else if (st != -ENOENT && st != -ETIMEDOUT)
			__atomic_fetch_add(&r->errors, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

TEST(async_submit_vs_wait_any)
{
	struct racer r = { 0 };
	pthread_t t[2];
	uint64_t last = 0;
	int bad = 0, eagain = 0;

	r.fd = ipu_test_open_card(SMALL_CARD, O_RDWR);
	if (r.fd < 0)
		SKIP(return, "card %d not present", SMALL_CARD);
	ASSERT_LE(0, ipu_test_attach(r.fd, 0));
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, wait_any_thread, &r));
	for (int i = 0; i < RACE_OPS; i++) {
		struct ipu_cmd c = { .opcode = IPU_CMD_FENCE,
				     .flags = IPU_CMD_FLAG_ASYNC };
		int ret = ipu_test_submit(r.fd, &c);

		if (ret == -EAGAIN) {
			eagain++;
			continue;
		}
		ASSERT_EQ(0, ret);
		/* Seqs of one file rise by one per accepted command. */
		if (c.seq != last + 1)
			bad++;
		last = c.seq;
	}
	r.stop = 1;
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_join(t[i], NULL));
	while (ipu_test_wait_seq(r.fd, 0, IPU_WAIT_FLAG_ANY, 1000, NULL) ==
	       IPU_STATUS_OK)
		r.collected++;
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, r.errors);
	EXPECT_EQ(last, r.collected);
	TH_LOG("%llu commands, %d times the queue was full",
	       (unsigned long long)last, eagain);
	close(r.fd);
	EXPECT_EQ(0, ipu_test_no_leaks(SMALL_CARD));
}

TEST_HARNESS_MAIN
