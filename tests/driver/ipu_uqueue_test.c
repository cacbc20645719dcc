// SPDX-License-Identifier: GPL-2.0
/*
 * uAPI 1.2, the user queue: UQUEUE and its three mappings, commands the
 * process submits itself (FENCE, RUN, ABORT; every other opcode refused by
 * the card), completions through the rings and poll(), the negative cases,
 * DETACH unmapping the doorbell page (SIGBUS), a card reset stopping the
 * queue and UQUEUE restarting it, and a process killed with a run in
 * flight on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
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

#define CARD		3	/* the "test" model */
#define N_ELEMS		1024
#define PAGE		4096

/* A user queue as a process drives it: its own tail, head and phase. */
struct uq {
	int fd;
	struct ipu_uqueue info;
	struct ipu_sqe *sq;
	const struct ipu_cqe *cq;
	const struct ipu_run_record *rec;
	volatile uint32_t *db;
	uint32_t tail, head, phase;
};

static int uq_create(int fd, struct ipu_uqueue *info)
{
	memset(info, 0, sizeof(*info));
	info->argsz = sizeof(*info);
	return ioctl(fd, IPU_IOCTL_UQUEUE, info) ? -errno : 0;
}

/* UQUEUE and the three mappings; 0 or -errno. */
static int uq_open(struct uq *u, int fd)
{
	int ret;

	memset(u, 0, sizeof(*u));
	u->fd = fd;
	u->phase = 1;
	ret = uq_create(fd, &u->info);
	if (ret)
		return ret;
	u->sq = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		     u->info.sq_offset);
	u->cq = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, u->info.cq_offset);
	u->db = mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, fd, u->info.db_offset);
	u->rec = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd,
		      u->info.rec_offset);
	if (u->sq == MAP_FAILED || u->cq == MAP_FAILED || u->db == MAP_FAILED ||
	    u->rec == MAP_FAILED)
		return -errno;
	return 0;
}

static void uq_close(struct uq *u)
{
	if (u->sq && u->sq != MAP_FAILED)
		munmap(u->sq, PAGE);
	if (u->cq && u->cq != MAP_FAILED)
		munmap((void *)u->cq, PAGE);
	if (u->db && u->db != MAP_FAILED)
		munmap((void *)u->db, PAGE);
	if (u->rec && u->rec != MAP_FAILED)
		munmap((void *)u->rec, 2 * PAGE);
}

/* Puts @op on the ring with command id @cid and rings the doorbell. */
static void uq_submit(struct uq *u, uint8_t op, uint16_t cid, uint32_t handle,
		      uint32_t count)
{
	struct ipu_sqe *e = &u->sq[u->tail];

	memset(e, 0, sizeof(*e));
	e->opcode = op;
	e->cid = cid;
	e->handle = handle;
	e->count = count;
	u->tail = (u->tail + 1) % u->info.entries;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	u->db[IPU_DB_SQ_TAIL / 4] = u->tail;
}

/* The next completion within @ms (spinning); 0, or -ETIMEDOUT. */
static int uq_next(struct uq *u, int ms, struct ipu_cqe *out)
{
	long long t0 = ipu_now_ms();
	const struct ipu_cqe *e = &u->cq[u->head];

	while ((__atomic_load_n(&e->status, __ATOMIC_ACQUIRE) & IPU_CQE_PHASE) !=
	       u->phase) {
		if (ipu_now_ms() - t0 > ms)
			return -ETIMEDOUT;
	}
	*out = *e;
	u->head = (u->head + 1) % u->info.entries;
	if (!u->head)
		u->phase ^= 1;
	return 0;
}

static void uq_consumed(struct uq *u)
{
	u->db[IPU_DB_CQ_HEAD / 4] = u->head;
}

/* Submits @op and waits for its completion: its status, or -errno. */
static int uq_do(struct uq *u, uint8_t op, uint32_t handle, uint32_t count,
		 struct ipu_cqe *out)
{
	static uint16_t cid;
	struct ipu_cqe c;
	int ret;

	uq_submit(u, op, ++cid, handle, count);
	ret = uq_next(u, 5000, &c);
	if (ret)
		return ret;
	uq_consumed(u);
	if (c.cid != cid)
		return -EPROTO;
	if (out)
		*out = c;
	return IPU_CQE_CODE(c.status);
}

static short poll_events(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };

	return poll(&p, 1, ms) == 1 ? p.revents : 0;
}

static int sync_cmd(int fd, struct ipu_cmd *c)
{
	c->argsz = sizeof(*c);
	return ioctl(fd, IPU_IOCTL_SUBMIT, c) ? -errno : (int)c->status;
}

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(bus_jmp, 1);
}

/* Stores to the doorbell page; 1 if that raised SIGBUS. */
static int store_faults(volatile uint32_t *db, uint32_t v)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	int faulted = 0;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(bus_jmp, 1))
		faulted = 1;
	else
		db[IPU_DB_CQ_HEAD / 4] = v;
	sigaction(SIGBUS, &old, NULL);
	return faulted;
}

/* --- card 3 attached, the double graph loaded, a user queue mapped --- */

FIXTURE(uq) {
	int fd;
	int queue;
	void *graph;
	size_t graph_len;
	struct uq u;
};

FIXTURE_SETUP(uq)
{
	struct ipu_cmd c = { .opcode = IPU_CMD_LOAD };

	self->fd = ipu_test_open_card(CARD, O_RDWR);
	if (self->fd < 0)
		SKIP(return, "card %d not present", CARD);
	ASSERT_EQ(0, ipu_test_double_graph(IPU_MODEL_TEST, N_ELEMS, 0,
					   &self->graph, &self->graph_len));
	self->queue = ipu_test_attach(self->fd, 0);
	ASSERT_LE(0, self->queue);
	c.user_ptr = (uintptr_t)self->graph;
	c.length = self->graph_len;
	ASSERT_EQ(IPU_STATUS_OK, sync_cmd(self->fd, &c));
	ASSERT_EQ(0, uq_open(&self->u, self->fd));
}

FIXTURE_TEARDOWN(uq)
{
	if (self->fd < 0)
		return;
	uq_close(&self->u);
	close(self->fd);
	free(self->graph);
	EXPECT_EQ(0, ipu_test_no_leaks(CARD));
}

TEST_F(uq, create_and_fence)
{
	struct uq *u = &self->u;
	struct ipu_cqe c;

	IPU_RETURN_IF_SKIPPED();
	EXPECT_EQ(64u, u->info.entries);
	EXPECT_NE((uint32_t)self->queue, u->info.queue);
	EXPECT_GT(8u, u->info.queue);
	EXPECT_EQ(0u, u->info.sq_offset % PAGE);
	EXPECT_NE(u->info.sq_offset, u->info.cq_offset);
	EXPECT_NE(u->info.cq_offset, u->info.db_offset);
	/* Nothing completed yet: no EPOLLPRI. */
	EXPECT_EQ(0, poll_events(self->fd, POLLPRI, 0) & (POLLPRI | POLLERR));

	uq_submit(u, IPU_SQE_FENCE, 77, 0, 0);
	ASSERT_EQ(0, uq_next(u, 5000, &c));
	EXPECT_EQ(77, c.cid);
	EXPECT_EQ(IPU_STATUS_OK, IPU_CQE_CODE(c.status));
	EXPECT_EQ(u->info.queue, c.sq_id);
	/* Not consumed yet (CQ_HEAD not written): EPOLLPRI. */
	EXPECT_EQ(POLLPRI, poll_events(self->fd, POLLPRI, 0) & (POLLPRI | POLLERR));
	uq_consumed(u);
	EXPECT_EQ(0, poll_events(self->fd, POLLPRI, 0) & (POLLPRI | POLLERR));
	/* The kernel's queue works beside it. */
	EXPECT_EQ(0, ioctl(self->fd, IPU_IOCTL_NULL, NULL));
}

TEST_F(uq, runs_see_submitted_writes)
{
	float *x = malloc(N_ELEMS * 4), *y = malloc(N_ELEMS * 4);
	struct ipu_cmd w = { .opcode = IPU_CMD_WRITE, .handle = H_X,
			     .user_ptr = (uintptr_t)x, .length = N_ELEMS * 4 };
	struct ipu_cmd r = { .opcode = IPU_CMD_READ, .handle = H_Y,
			     .user_ptr = (uintptr_t)y, .length = N_ELEMS * 4 };
	struct ipu_cqe c;

	IPU_RETURN_IF_SKIPPED();
	/* 200 rounds: the 64-entry rings wrap (phase flips) three times. */
	for (int round = 0; round < 200; round++) {
		for (int i = 0; i < N_ELEMS; i++)
			x[i] = (float)(i - round) * 0.5f;
		ASSERT_EQ(IPU_STATUS_OK, sync_cmd(self->fd, &w));
		ASSERT_EQ(IPU_STATUS_OK, uq_do(&self->u, IPU_SQE_RUN, P_DOUBLE,
					       1, &c));
		ASSERT_LT(0ull, c.cycles);
		ASSERT_EQ(IPU_STATUS_OK, sync_cmd(self->fd, &r));
		for (int i = 0; i < N_ELEMS; i++)
			ASSERT_EQ(2 * x[i], y[i]);
	}
	free(x);
	free(y);
}

/* Each RUN's record sits at its completion's CQ index. */
TEST_F(uq, run_records)
{
	struct uq *u = &self->u;
	struct ipu_cqe c;
	uint32_t at;

	IPU_RETURN_IF_SKIPPED();
	EXPECT_NE(0ull, u->info.rec_offset);
	for (int i = 0; i < 70; i++) {		/* past a wrap */
		at = u->head;
		ASSERT_EQ(IPU_STATUS_OK, uq_do(u, IPU_SQE_RUN, P_DOUBLE,
					       1 + i % 3, &c));
		ASSERT_EQ(c.cycles, u->rec[at].cycles_compute +
			  u->rec[at].cycles_sync + u->rec[at].cycles_exchange +
			  u->rec[at].cycles_stream);
		ASSERT_EQ(c.detail, (uint32_t)u->rec[at].steps);
		ASSERT_LT(0ull, u->rec[at].compute_sets);
	}
	/* Read only. */
	EXPECT_EQ(-1, mprotect((void *)u->rec, 2 * PAGE, PROT_READ | PROT_WRITE));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->fd, u->info.rec_offset));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self->fd,
				   u->info.rec_offset));
}

TEST_F(uq, card_refuses_addressed_commands)
{
	struct uq *u = &self->u;
	static const uint8_t ops[] = { IPU_SQE_LOAD, IPU_SQE_WRITE,
				       IPU_SQE_READ, IPU_SQE_STREAM_BIND, 0,
				       0x08, 0xff };

	IPU_RETURN_IF_SKIPPED();
	for (size_t i = 0; i < sizeof(ops); i++) {
		EXPECT_EQ(IPU_STATUS_INVALID_OPCODE,
			  uq_do(u, ops[i], 0, 0, NULL)) {
			TH_LOG("opcode %#x", ops[i]);
		}
	}
	EXPECT_EQ(IPU_STATUS_BAD_HANDLE, uq_do(u, IPU_SQE_RUN, 99, 1, NULL));
	/* The queue still works. */
	EXPECT_EQ(IPU_STATUS_OK, uq_do(u, IPU_SQE_RUN, P_DOUBLE, 2, NULL));
}

TEST_F(uq, sleep_in_poll_and_abort)
{
	struct uq *u = &self->u;
	struct ipu_cqe c;
	short ev;

	IPU_RETURN_IF_SKIPPED();
	/* A run that only ABORT ends, then ABORT through the same queue. */
	uq_submit(u, IPU_SQE_RUN, 1, P_SPIN, 1);
	usleep(20000);
	EXPECT_EQ(0, poll_events(self->fd, POLLPRI, 0) & (POLLPRI | POLLERR));
	uq_submit(u, IPU_SQE_ABORT, 2, 0, 0);
	/* Sleeps until the card's (delayed) interrupt. */
	ev = poll_events(self->fd, POLLPRI, 5000);
	EXPECT_EQ(POLLPRI, ev & (POLLPRI | POLLERR));
	ASSERT_EQ(0, uq_next(u, 5000, &c));
	EXPECT_EQ(1, c.cid);
	EXPECT_EQ(IPU_STATUS_ABORTED, IPU_CQE_CODE(c.status));
	ASSERT_EQ(0, uq_next(u, 5000, &c));
	EXPECT_EQ(2, c.cid);
	EXPECT_EQ(IPU_STATUS_OK, IPU_CQE_CODE(c.status));
	uq_consumed(u);
	EXPECT_EQ(IPU_STATUS_OK, uq_do(u, IPU_SQE_RUN, P_DOUBLE, 1, NULL));
}

TEST_F(uq, negative)
{
	struct ipu_uqueue q;
	int other;
	void *p;

	IPU_RETURN_IF_SKIPPED();
	EXPECT_EQ(-EEXIST, uq_create(self->fd, &q));
	memset(&q, 0, sizeof(q));
	q.argsz = sizeof(q);
	q.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, IPU_IOCTL_UQUEUE, &q));
	EXPECT_EQ(EINVAL, errno);
	q.flags = 0;
	q.reserved[0] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, IPU_IOCTL_UQUEUE, &q));
	EXPECT_EQ(EINVAL, errno);
	q.argsz = 8;
	EXPECT_EQ(-1, ioctl(self->fd, IPU_IOCTL_UQUEUE, &q));
	EXPECT_EQ(EINVAL, errno);

	/* Mappings of the wrong size, kind or protection. */
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 self->u.info.cq_offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 self->u.info.sq_offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, self->fd,
		 self->u.info.sq_offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, PAGE, PROT_WRITE | PROT_EXEC, MAP_SHARED, self->fd,
		 self->u.info.db_offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self->fd,
		 self->u.info.db_offset + PAGE);
	EXPECT_EQ(MAP_FAILED, p);
	/* A read-only CQ mapping cannot be made writable. */
	EXPECT_EQ(-1, mprotect((void *)self->u.cq, PAGE, PROT_READ | PROT_WRITE));

	/* Another file: not attached, and this context's pages are not its. */
	other = ipu_test_open_card(CARD, O_RDWR);
	ASSERT_LE(0, other);
	EXPECT_EQ(-ENOTCONN, uq_create(other, &q));
	p = mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, other,
		 self->u.info.db_offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, other,
		 self->u.info.cq_offset);
	EXPECT_EQ(MAP_FAILED, p);
	close(other);
}

TEST_F(uq, detach_unmaps_the_doorbell)
{
	struct uq *u = &self->u;
	struct uq again;

	IPU_RETURN_IF_SKIPPED();
	EXPECT_EQ(IPU_STATUS_OK, uq_do(u, IPU_SQE_FENCE, 0, 0, NULL));
	EXPECT_EQ(0, store_faults(u->db, u->head));
	ASSERT_EQ(0, ipu_test_detach(self->fd));
	EXPECT_EQ(1, store_faults(u->db, u->head));
	EXPECT_NE(0, poll_events(self->fd, POLLPRI, 0) & POLLERR);
	/* The rings stay readable until munmap. */
	EXPECT_EQ(IPU_STATUS_OK, IPU_CQE_CODE(u->cq[0].status));

	/* Attached again: a fresh user queue works (same rings, emptied). */
	ASSERT_LE(0, ipu_test_attach(self->fd, 0));
	ASSERT_EQ(0, uq_open(&again, self->fd));
	EXPECT_EQ(IPU_STATUS_OK, uq_do(&again, IPU_SQE_FENCE, 0, 0, NULL));
	EXPECT_EQ(IPU_STATUS_INVALID_OPCODE,
		  uq_do(&again, IPU_SQE_WRITE, 0, 0, NULL));
	/* DETACH unloaded the graph. */
	EXPECT_EQ(IPU_STATUS_NO_GRAPH, uq_do(&again, IPU_SQE_RUN, 0, 1, NULL));
	uq_close(&again);
}

TEST_F(uq, reset_stops_and_uqueue_restarts)
{
	struct uq *u = &self->u;
	struct ipu_cmd c = { .opcode = IPU_CMD_LOAD };
	struct ipu_cqe e;
	struct ipu_reset r;
	int fd2;

	IPU_RETURN_IF_SKIPPED();
	uq_submit(u, IPU_SQE_RUN, 5, P_SPIN, 1);
	usleep(20000);
	fd2 = ipu_test_open_card(CARD, O_RDWR);
	ASSERT_LE(0, fd2);
	/* Another file resets the held card only with FORCE (uAPI 1.3). */
	EXPECT_EQ(-EBUSY, ipu_reset(fd2, 0, 0, &r));
	ASSERT_EQ(0, ipu_reset(fd2, IPU_RESET_FLAG_FORCE, 0, &r));
	close(fd2);
	/* Stopped: EPOLLERR, and the run never completes. */
	EXPECT_NE(0, poll_events(self->fd, POLLPRI, 1000) & POLLERR);
	EXPECT_EQ(-ETIMEDOUT, uq_next(u, 50, &e));

	/* UQUEUE restarts it: empty rings, same mappings. */
	ASSERT_EQ(0, uq_create(self->fd, &u->info));
	u->tail = u->head = 0;
	u->phase = 1;
	EXPECT_EQ(0, poll_events(self->fd, POLLPRI, 0) & (POLLPRI | POLLERR));
	EXPECT_EQ(IPU_STATUS_NO_GRAPH, uq_do(u, IPU_SQE_RUN, P_DOUBLE, 1, NULL));
	c.user_ptr = (uintptr_t)self->graph;
	c.length = self->graph_len;
	ASSERT_EQ(IPU_STATUS_OK, sync_cmd(self->fd, &c));
	EXPECT_EQ(IPU_STATUS_OK, uq_do(u, IPU_SQE_RUN, P_DOUBLE, 1, NULL));
	EXPECT_EQ(-EEXIST, uq_create(self->fd, &u->info));
}

TEST(killed_with_a_run_in_flight)
{
	struct uq after;
	int fd, st, p[2];
	pid_t pid;
	char ok;

	fd = ipu_test_open_card(CARD, O_RDWR);
	if (fd < 0)
		SKIP(return, "card %d not present", CARD);
	close(fd);
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct ipu_cmd c = { .opcode = IPU_CMD_LOAD };
		void *g;
		size_t len;
		struct uq u;

		fd = ipu_test_open_card(CARD, O_RDWR);
		if (fd < 0 || ipu_test_attach(fd, 0) < 0 ||
		    ipu_test_double_graph(IPU_MODEL_TEST, N_ELEMS, 0, &g, &len))
			_exit(1);
		c.user_ptr = (uintptr_t)g;
		c.length = len;
		if (sync_cmd(fd, &c) != IPU_STATUS_OK || uq_open(&u, fd))
			_exit(1);
		uq_submit(&u, IPU_SQE_RUN, 1, P_SPIN, 1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	ASSERT_EQ(1, read(p[0], &ok, 1));
	usleep(20000);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	close(p[0]);

	/* The card is free again and works. */
	fd = ipu_test_open_card(CARD, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_LE(0, ipu_test_attach(fd, IPU_ATTACH_FLAG_NONBLOCK));
	ASSERT_EQ(0, uq_open(&after, fd));
	EXPECT_EQ(IPU_STATUS_OK, uq_do(&after, IPU_SQE_FENCE, 0, 0, NULL));
	uq_close(&after);
	close(fd);
	EXPECT_EQ(0, ipu_test_no_leaks(CARD));
}

TEST_HARNESS_MAIN
