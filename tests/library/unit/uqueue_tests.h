// SPDX-License-Identifier: MIT
/*
 * Host unit tests of the card backend's user queue (libipudev/card_uqueue.c
 * and the run path of card_run.c) without a card: the rings are anonymous
 * memory, and a thread plays the card (fetches entries when the SQ tail
 * doorbell moves, writes the run record at the completion's CQ index when
 * the queue has a record ring, then posts the completion with the phase
 * bit). Included by unit.c: the kselftest harness keeps one test list per
 * translation unit.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/ipu.h>

#include "card.h"
#include "ipu_engine.h"
#include "ipu/ipu_hw.h"

static void *page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* ------------------------------------------------------------------------ */
/* A card on one queue                                                      */

struct fakecard {
	struct ipu_sqe *sq;
	struct ipu_cqe *cq;
	struct ipu_run_record *rec;	/* or NULL: a card without records */
	volatile uint32_t *db;
	uint32_t entries, head, cq_tail;
	unsigned phase;
	int stop, hold;		/* atomics */
	uint16_t code;		/* atomic: IPU_CS_* to complete with */
	uint16_t cid_skew;	/* atomic: added to the echoed command id */
	uint32_t fail_detail;	/* atomic: the detail of a failed completion,
				 * 0: the "steps" as for a success */
	unsigned done;		/* atomic: completions posted */
	struct ipu_sqe last;	/* the last entry fetched (read it after
				 * an acquire load of @done) */
	pthread_t t;
};

/*
 * The fake card's record of RUN @e completed with @code: counters derived
 * from the program and count (the four phases add up to the completion's
 * cycles, 100 x count); zeros when the run did not start.
 */
static void fake_record(struct ipu_run_record *r, const struct ipu_sqe *e,
			unsigned code)
{
	uint64_t n = e->count;

	memset(r, 0, sizeof(*r));
	if (code != IPU_CS_SUCCESS)
		return;
	r->cycles_compute = 40 * n;
	r->cycles_sync = 30 * n;
	r->cycles_exchange = 20 * n;
	r->cycles_stream = 10 * n;
	r->steps = e->handle * 1000ull + n;
	r->compute_sets = 2 * n;
	r->exchanges = 3 * n;
	r->syncs = 5 * n;
	r->exchange_bytes = 1024 * n + e->handle;
	r->stream_bytes_h2d = 7 * n;
	r->stream_bytes_d2h = 11 * n + (1ull << 40);	/* beyond 32 bits */
}

/* @st is what fake_record() wrote for program @k x @n (and the completion) */
static int stats_are(const struct ipu_run_stats *st, unsigned k, uint64_t n)
{
	return st->cycles == 100 * n && st->cycles_compute == 40 * n &&
	       st->cycles_sync == 30 * n && st->cycles_exchange == 20 * n &&
	       st->cycles_stream == 10 * n && st->steps == k * 1000ull + n &&
	       st->compute_sets == 2 * n && st->exchanges == 3 * n &&
	       st->syncs == 5 * n && st->exchange_bytes == 1024 * n + k &&
	       st->stream_bytes_h2d == 7 * n &&
	       st->stream_bytes_d2h == 11 * n + (1ull << 40) &&
	       st->host_ns == 4321 && st->clock_khz == 1330000;
}

/* only the completion's stats: no record */
static int stats_bare(const struct ipu_run_stats *st, unsigned k, uint64_t n)
{
	return st->cycles == 100 * n && st->steps == k * 1000ull + n &&
	       !st->cycles_compute && !st->cycles_sync && !st->cycles_exchange &&
	       !st->cycles_stream && !st->compute_sets && !st->exchanges &&
	       !st->syncs && !st->exchange_bytes && !st->stream_bytes_h2d &&
	       !st->stream_bytes_d2h && st->host_ns == 4321;
}

static void *card_main(void *arg)
{
	struct fakecard *f = arg;

	while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE)) {
		uint32_t tail = __atomic_load_n(&f->db[IPU_DB_SQ_TAIL / 4],
						__ATOMIC_ACQUIRE);
		struct ipu_cqe c;
		struct ipu_cqe *slot;

		if (tail == f->head || __atomic_load_n(&f->hold, __ATOMIC_ACQUIRE)) {
			sched_yield();
			continue;
		}
		f->last = f->sq[f->head];
		f->head = (f->head + 1) % f->entries;
		memset(&c, 0, sizeof(c));
		c.cid = (uint16_t)(f->last.cid +
				   __atomic_load_n(&f->cid_skew, __ATOMIC_ACQUIRE));
		c.sq_head = (uint16_t)f->head;
		c.detail = f->last.handle * 1000 + f->last.count;	/* "steps" */
		if (__atomic_load_n(&f->code, __ATOMIC_ACQUIRE) != IPU_CS_SUCCESS &&
		    __atomic_load_n(&f->fail_detail, __ATOMIC_ACQUIRE))
			c.detail = __atomic_load_n(&f->fail_detail, __ATOMIC_ACQUIRE);
		c.detail2 = 0;
		c.host_ns = 4321;
		c.cycles = 100ull * f->last.count;
		if (f->rec)
			fake_record(&f->rec[f->cq_tail], &f->last,
				    __atomic_load_n(&f->code, __ATOMIC_ACQUIRE));
		slot = &f->cq[f->cq_tail];
		slot->cid = c.cid;
		slot->sq_head = c.sq_head;
		slot->detail = c.detail;
		slot->detail2 = c.detail2;
		slot->host_ns = c.host_ns;
		slot->cycles = c.cycles;
		__atomic_store_n(&slot->status,
				 (uint16_t)(__atomic_load_n(&f->code, __ATOMIC_ACQUIRE) << 1 |
					    f->phase), __ATOMIC_RELEASE);
		if (++f->cq_tail == f->entries) {
			f->cq_tail = 0;
			f->phase ^= 1;
		}
		__atomic_add_fetch(&f->done, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void card_stop(struct fakecard *f)
{
	if (!f->t)
		return;
	__atomic_store_n(&f->stop, 1, __ATOMIC_RELEASE);
	pthread_join(f->t, NULL);
	f->t = 0;
}

/* ------------------------------------------------------------------------ */
/* The ring mechanics                                                       */

TEST(uqueue_rings)
{
	struct ipu__uqueue q;
	struct ipu_sqe *sq = page();
	struct ipu_cqe *cq = page(), out;
	uint32_t *db = page();
	struct ipu_sqe e;
	int ok = 1, cid, r;

	memset(&q, 0, sizeof(q));
	ipu__uq_set_rings(&q, sq, cq, db, NULL, 4);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.handle = 3;
	e.count = 9;
	cid = ipu__uq_post(&q, &e);
	EXPECT_TRUE(cid == 0 && sq[0].opcode == IPU_SQE_RUN && sq[0].handle == 3 && sq[0].count == 9 && sq[0].cid == 0 && db[0] == 1 && q.pending == 1) TH_LOG("%s: " "cid=%d tail db=%u pending=%u", "uqueue: post writes the entry and rings the SQ tail doorbell", cid, db[0], q.pending);
	EXPECT_TRUE(!ipu__uq_reap(&q, &out, NULL) && q.pending == 1 && db[1] == 0) TH_LOG("%s: " "pending=%u", "uqueue: no completion while the phase bit is old", q.pending);
	/* 3 posted on 4 entries: full */
	ipu__uq_post(&q, &e);
	ipu__uq_post(&q, &e);
	r = ipu__uq_post(&q, &e);
	EXPECT_TRUE(r == -EAGAIN && q.pending == 3 && db[0] == 3) TH_LOG("%s: " "r=%d pending=%u", "uqueue: post on a full ring is -EAGAIN", r, q.pending);
	/* the card completes all three, then one more lap */
	for (unsigned i = 0; i < 3; i++) {
		cq[i].cid = (uint16_t)i;
		cq[i].detail = 10 + i;
		cq[i].status = IPU_CS_SUCCESS << 1 | 1;
	}
	for (unsigned i = 0; i < 3; i++) {
		ok &= ipu__uq_reap(&q, &out, NULL) == 1 && out.cid == i &&
		      out.detail == 10 + i && db[1] == i + 1;
	}
	ok &= !ipu__uq_reap(&q, &out, NULL) && q.pending == 0;
	EXPECT_TRUE(ok) TH_LOG("%s: " "head db=%u pending=%u", "uqueue: reap consumes in order and writes the CQ head doorbell", db[1], q.pending);

	/* wrap: slot 3 phase 1, then slots 0.. with phase 0; the stale phase
	 * 1 entries of the first lap are not new */
	ok = 1;
	for (unsigned i = 0; i < 3; i++)
		ok &= ipu__uq_post(&q, &e) == (int)(3 + i);
	cq[3].cid = 3;
	cq[3].status = 1;
	ok &= ipu__uq_reap(&q, &out, NULL) == 1 && q.cq_head == 0 && q.phase == 0 &&
	      db[1] == 0;
	ok &= !ipu__uq_reap(&q, &out, NULL);	/* slot 0 still says phase 1 */
	cq[0].cid = 4;
	cq[0].status = IPU_CS_BAD_HANDLE << 1 | 0;
	ok &= ipu__uq_reap(&q, &out, NULL) == 1 && out.cid == 4 &&
	      IPU_CQE_CODE(out.status) == IPU_CS_BAD_HANDLE && db[1] == 1;
	EXPECT_TRUE(ok && db[0] == 2 && q.pending == 1) TH_LOG("%s: " "head=%u phase=%u tail db=%u pending=%u", "uqueue: the phase flips when the ring wraps", q.cq_head, q.phase, db[0], q.pending);

	/* wait: a completion already there needs no fd */
	cq[1].cid = 5;
	cq[1].status = 0;
	r = ipu__uq_wait(&q, -1, 50, 0, &out, NULL);
	EXPECT_TRUE(r == 0 && out.cid == 5) TH_LOG("%s: " "r=%d", "uqueue: wait returns a posted completion", r);
	ipu__uq_post(&q, &e);
	r = ipu__uq_wait(&q, -1, 10, 20, &out, NULL);
	EXPECT_TRUE(r == -ETIMEDOUT && q.pending == 1) TH_LOG("%s: " "r=%d", "uqueue: wait times out", r);
	{
		int p[2];

		if (pipe(p)) {
			EXPECT_TRUE(0) TH_LOG("%s: " "pipe: %s", "uqueue: POLLHUP/POLLERR means the queue is gone", strerror(errno));
		} else {
			close(p[1]);	/* the read end now polls POLLHUP */
			r = ipu__uq_wait(&q, p[0], 10, 0, &out, NULL);
			EXPECT_TRUE(r == -ENODEV) TH_LOG("%s: " "r=%d", "uqueue: POLLHUP/POLLERR means the queue is gone", r);
			close(p[0]);
			r = ipu__uq_wait(&q, p[0], 10, 0, &out, NULL);
			EXPECT_TRUE(r == -EBADF) TH_LOG("%s: " "r=%d", "uqueue: POLLNVAL is -EBADF", r);
		}
	}

	/* states: lost unmaps the doorbell page only */
	q.state = IPU__UQ_READY;
	ipu__uq_lost(&q);
	EXPECT_TRUE(q.state == IPU__UQ_GONE && !q.db && q.sq == sq && q.pending == 0) TH_LOG("%s: " "state=%d", "uqueue: a lost queue is GONE, its rings kept", q.state);
	q.sq_len = q.cq_len = 4096;
	ipu__uq_close(&q, "test");
	EXPECT_TRUE(q.state == IPU__UQ_OFF && !q.sq && !q.cq && !strcmp(q.why, "test")) TH_LOG("%s: " "state=%d why='%s'", "uqueue: close unmaps everything", q.state, q.why);
	ipu__uq_lost(&q);
	EXPECT_TRUE(q.state == IPU__UQ_OFF) TH_LOG("%s: " "state=%d", "uqueue: a queue that is off stays off", q.state);
}

/* The run record ring: the record at the CQ index of each completion */
TEST(uqueue_records)
{
	struct ipu__uqueue q;
	struct ipu_sqe *sq = page();
	struct ipu_cqe *cq = page(), out;
	struct ipu_run_record *rec = page(), got;
	uint32_t *db = page();
	struct ipu_sqe e;
	int ok = 1;

	memset(&q, 0, sizeof(q));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;

	/* no record ring: zeros, never stale bytes */
	ipu__uq_set_rings(&q, sq, cq, db, NULL, 4);
	ipu__uq_post(&q, &e);
	cq[0].cid = 0;
	cq[0].status = 1;
	memset(&got, 0xa5, sizeof(got));
	ok = ipu__uq_reap(&q, &out, &got) == 1 && !got.steps &&
	     !got.cycles_compute && !got.stream_bytes_d2h && !got.reserved[4];
	EXPECT_TRUE(ok) TH_LOG("%s: " "steps=%llu", "uqueue records: a queue without a record ring gives zero counters", (unsigned long long)got.steps);

	/* a record ring: three laps over 4 entries, every record checked; the
	 * card rewrites a slot's record on each lap */
	memset(cq, 0, 4096);
	ipu__uq_set_rings(&q, sq, cq, db, rec, 4);
	ok = 1;
	for (unsigned i = 0; i < 12 && ok; i++) {
		unsigned slot = i % 4, phase = (i / 4 + 1) & 1;

		ok &= ipu__uq_post(&q, &e) >= 0;
		memset(&got, 0xa5, sizeof(got));
		ok &= ipu__uq_reap(&q, &out, &got) == 0 && got.steps ==
		      0xa5a5a5a5a5a5a5a5ull;	/* nothing yet: untouched */
		memset(&rec[slot], 0, sizeof(rec[slot]));
		rec[slot].cycles_compute = 1000 + i;
		rec[slot].steps = i;
		rec[slot].stream_bytes_d2h = (uint64_t)i << 36;
		cq[slot].cid = (uint16_t)i;
		__atomic_store_n(&cq[slot].status, (uint16_t)phase,
				 __ATOMIC_RELEASE);
		ok &= ipu__uq_reap(&q, &out, &got) == 1 && got.steps == i &&
		      got.cycles_compute == 1000 + i &&
		      got.stream_bytes_d2h == (uint64_t)i << 36 &&
		      db[1] == (slot + 1) % 4;
		if (!ok) {
			EXPECT_TRUE(0) TH_LOG("%s: " "completion %u (slot %u): steps %llu", "uqueue records: reap copies the record at the completion's CQ index", i, slot, (unsigned long long)got.steps);
		}
	}
	EXPECT_TRUE(q.rec == rec && q.pending == 0) TH_LOG("%s: " "rec=%p pending=%u", "uqueue records: set_rings keeps the record ring", (const void *)q.rec, q.pending);
	munmap(sq, 4096);
	munmap(cq, 4096);
	munmap(rec, 4096);
	munmap(db, 4096);
}

/* ------------------------------------------------------------------------ */
/* The run path of the card backend on the fake card                        */

struct rig {
	struct fakecard f;
	struct ipu__card *c;
	struct ipu_device *dev;
};

/* page @n of @fd, shared: the card's view and the library's are two
 * mappings of the same memory, so the library may unmap its own */
static void *share(int fd, unsigned n)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       (off_t)n * 4096);

	return p == MAP_FAILED ? NULL : p;
}

/* @records: the queue has a run record ring (the card writes records) */
static int rig_open(struct rig *g, uint32_t entries, int records)
{
	struct ipu_error e;
	struct ipu__card *c = calloc(1, sizeof(*c));
	void *lsq, *lcq, *ldb, *lrec = NULL;
	int mfd = memfd_create("uqueue-test", MFD_CLOEXEC);

	memset(g, 0, sizeof(*g));
	if (!c || mfd < 0 || ftruncate(mfd, 4 * 4096) ||
	    entries * sizeof(struct ipu_run_record) > 4096)
		return -1;
	g->f.sq = share(mfd, 0);
	g->f.cq = share(mfd, 1);
	g->f.db = share(mfd, 2);
	lsq = share(mfd, 0);
	lcq = share(mfd, 1);
	ldb = share(mfd, 2);
	if (records) {
		g->f.rec = share(mfd, 3);
		lrec = share(mfd, 3);
	}
	close(mfd);
	if (!lsq || !lcq || !ldb || (records && (!lrec || !g->f.rec)))
		return -1;
	g->f.entries = entries;
	g->f.phase = 1;
	g->f.code = IPU_CS_SUCCESS;
	c->fd = -1;
	c->attached = 1;
	c->loaded = 1;
	c->clock_khz = 1330000;
	c->g.nprograms = 2;
	c->g.programs = calloc(2, sizeof(char *));
	c->g.nhandles = 1;
	c->g.handles = calloc(1, sizeof(*c->g.handles));
	if (!g->f.sq || !g->f.cq || !g->f.db || !c->g.programs || !c->g.handles)
		return -1;
	c->g.programs[0] = strdup("empty");
	c->g.programs[1] = strdup("other");
	c->g.handles[0].name = strdup("data");
	c->g.handles[0].bytes = 64;
	c->g.handles[0].access = IPU_HANDLE_RW;
	ipu__uq_set_rings(&c->uq, lsq, lcq, ldb, lrec, entries);
	c->uq.slice_ms = 1;	/* fd -1: poll() only sleeps */
	c->uq.state = IPU__UQ_READY;
	c->uq.sq_len = c->uq.cq_len = 4096;
	c->uq.rec_len = lrec ? 4096 : 0;
	g->c = c;
	if (ipu__device_new(&ipu__card_ops, c, 7, 0, "ipu7", &g->dev, &e))
		return -1;
	return pthread_create(&g->f.t, NULL, card_main, &g->f) ? -1 : 0;
}

static void rig_close(struct rig *g)
{
	card_stop(&g->f);
	ipu_device_close(g->dev);	/* unmaps the library's view */
	munmap(g->f.sq, 4096);
	munmap(g->f.cq, 4096);
	munmap((void *)g->f.db, 4096);
	if (g->f.rec)
		munmap(g->f.rec, 4096);
}

struct release {
	struct fakecard *f;
	unsigned ms;
};

static void *release_later(void *arg)
{
	struct release *r = arg;

	usleep(r->ms * 1000);
	__atomic_store_n(&r->f->hold, 0, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * @err: the message of RUN @handle (program @program) on ipu7 completing
 * with @status and @detail through SUBMIT (ipu__card_status_err()).
 */
static void submit_run_err(struct ipu_error *err, uint32_t handle,
			   const char *program, uint32_t status,
			   uint32_t detail)
{
	struct ipu__cmd_ctx x;

	memset(&x, 0, sizeof(x));
	x.dev = "ipu7";
	x.opcode = IPU_CMD_RUN;
	x.handle = handle;
	x.program = program;
	ipu__card_status_err(err, &x, status, detail, 0);
}

TEST(uqueue_run_path)
{
	struct rig g;
	struct ipu_run_stats st;
	struct ipu_error e, e2;
	char buf[16];
	uint64_t req;
	uint32_t tail;
	int r, ok;

	if (rig_open(&g, 4, 1)) {
		EXPECT_TRUE(0) TH_LOG("%s: " "setup failed", "uqueue run: rig");
		return;
	}
	r = ipu_run(g.dev, 1, 7, &st, &e);
	ok = __atomic_load_n(&g.f.done, __ATOMIC_ACQUIRE) == 1;	/* then g.f.last */
	EXPECT_TRUE(ok && r == 0 && g.f.last.opcode == IPU_SQE_RUN && g.f.last.handle == 1 && g.f.last.count == 7 && g.f.last.flags == 0 && !g.f.last.reserved[0] && st.steps == 1007 && st.host_ns == 4321 && st.cycles == 700 && st.clock_khz == 1330000 && g.c->uq.pending == 0 && !g.c->run_started && stats_are(&st, 1, 7)) TH_LOG("%s: " "r=%d steps=%llu compute=%llu d2h=%llu msg='%s'", "uqueue run: ipu_run posts RUN and reports the completion's stats and its run record", r, (unsigned long long)st.steps, (unsigned long long)st.cycles_compute, (unsigned long long)st.stream_bytes_d2h, r ? e.msg : "");

	ok = 1;
	for (unsigned i = 0; i < 1000 && ok; i++) {
		r = ipu_run(g.dev, i & 1, i % 5 + 1, &st, &e);
		ok = r == 0 && st.steps == (i & 1) * 1000 + i % 5 + 1 &&
		     stats_are(&st, i & 1, i % 5 + 1);
	}
	EXPECT_TRUE(ok && __atomic_load_n(&g.f.done, __ATOMIC_ACQUIRE) == 1001) TH_LOG("%s: " "r=%d msg='%s'", "uqueue run: 1000 runs over a 4-entry ring, every result and record checked", r, r ? e.msg : "");

	/* run_start + wait with a timeout while the card holds the run */
	__atomic_store_n(&g.f.hold, 1, __ATOMIC_RELEASE);
	r = ipu_run_start(g.dev, 0, 1, &e);
	ok = r == 0;
	r = ipu_wait(g.dev, 20, &st, &e);
	EXPECT_TRUE(ok && r == -ETIMEDOUT && !strcmp(e.msg, "program 0 ('empty') on ipu7: still running after 20 ms") && g.c->run_started) TH_LOG("%s: " "r=%d msg='%s'", "uqueue run: ipu_wait times out, the run goes on", r, e.msg);
	r = ipu_run_start(g.dev, 0, 1, &e);
	EXPECT_TRUE(r == -EBUSY) TH_LOG("%s: " "r=%d", "uqueue run: one run at a time", r);
	__atomic_store_n(&g.f.hold, 0, __ATOMIC_RELEASE);
	r = ipu_wait(g.dev, 0, &st, &e);
	EXPECT_TRUE(r == 0 && st.steps == 1 && stats_are(&st, 0, 1)) TH_LOG("%s: " "r=%d msg='%s'", "uqueue run: a later ipu_wait collects it, with its record", r, r ? e.msg : "");

	/* a kernel-queue command while a run is in flight waits for the run
	 * and keeps its outcome for ipu_wait() */
	{
		struct release rel = { &g.f, 30 };
		pthread_t t;
		unsigned before = __atomic_load_n(&g.f.done, __ATOMIC_ACQUIRE);

		__atomic_store_n(&g.f.hold, 1, __ATOMIC_RELEASE);
		ok = ipu_run_start(g.dev, 1, 2, &e) == 0;
		ok &= !pthread_create(&t, NULL, release_later, &rel);
		memset(buf, 1, sizeof(buf));
		/* fd -1: the SUBMIT itself fails, after the run completed */
		r = ipu__card_ops.tensor_write_async(g.dev, 0, 0, buf, sizeof(buf),
						     &req, &e);
		pthread_join(t, NULL);
		EXPECT_TRUE(ok && r < 0 && g.c->run_done && __atomic_load_n(&g.f.done, __ATOMIC_ACQUIRE) == before + 1 && g.c->uq.pending == 0) TH_LOG("%s: " "r=%d run_done=%d", "uqueue run: a kernel-queue command follows the run in flight", r, g.c->run_done);
		r = ipu_wait(g.dev, 0, &st, &e);
		EXPECT_TRUE(r == 0 && st.steps == 1002 && stats_are(&st, 1, 2)) TH_LOG("%s: " "r=%d steps=%llu", "uqueue run: ipu_wait reports the run completed before the command, and its record", r, (unsigned long long)st.steps);
	}

	/* async kernel-queue requests in flight: the run goes through SUBMIT */
	{
		tail = g.c->uq.sq_tail;
		g.c->async_inflight = 1;
		r = ipu_run(g.dev, 0, 1, &st, &e);
		EXPECT_TRUE(r < 0 && strstr(e.msg, "SUBMIT") && g.c->uq.sq_tail == tail) TH_LOG("%s: " "r=%d msg='%s'", "uqueue run: with async requests in flight the run goes through SUBMIT", r, e.msg);
		g.c->async_inflight = 0;
	}

	/* a failed run: the same message as through SUBMIT */
	__atomic_store_n(&g.f.code, IPU_CS_BAD_HANDLE, __ATOMIC_RELEASE);
	r = ipu_run(g.dev, 1, 1, &st, &e);
	submit_run_err(&e2, 1, "other", IPU_STATUS_BAD_HANDLE, 1001);
	EXPECT_TRUE(r == -ERANGE && !strcmp(e.msg, e2.msg) && st.steps == 0 && !st.cycles_compute && !st.compute_sets && !st.stream_bytes_d2h) TH_LOG("%s: " "r=%d '%s' vs '%s'", "uqueue run: a failed run reports as through SUBMIT (its zeroed record too)", r, e.msg, e2.msg);
	__atomic_store_n(&g.f.code, IPU_CS_SUCCESS, __ATOMIC_RELEASE);

	/* a completion that is not the run's */
	__atomic_store_n(&g.f.cid_skew, 1, __ATOMIC_RELEASE);
	r = ipu_run(g.dev, 0, 1, &st, &e);
	EXPECT_TRUE(r == -EPROTO && g.c->uq.state == IPU__UQ_OFF && strstr(e.msg, "command id") && !st.cycles && !st.cycles_compute && !st.steps && !g.c->uq.rec) TH_LOG("%s: " "r=%d state=%d msg='%s'", "uqueue run: a foreign command id is -EPROTO (no stats), then SUBMIT", r, g.c->uq.state, e.msg);
	rig_close(&g);

	/* a queue without a record ring (driver or card before run records):
	 * the completion's stats, zero counters */
	if (rig_open(&g, 4, 0)) {
		EXPECT_TRUE(0) TH_LOG("%s: " "setup failed", "uqueue run: rig");
		return;
	}
	ok = 1;
	for (unsigned i = 0; i < 10 && ok; i++) {
		r = ipu_run(g.dev, i & 1, i + 1, &st, &e);
		ok = r == 0 && stats_bare(&st, i & 1, i + 1);
	}
	EXPECT_TRUE(ok) TH_LOG("%s: " "r=%d steps=%llu compute=%llu msg='%s'", "uqueue run: without a record ring, the completion's stats and zero counters", r, (unsigned long long)st.steps, (unsigned long long)st.cycles_compute, r ? e.msg : "");

	/* IPUDEV_RUNQ=kernel: never the user queue */
	g.c->runq_mode = IPU__RUNQ_KERNEL;
	tail = g.c->uq.sq_tail;
	r = ipu_run(g.dev, 0, 1, &st, &e);
	EXPECT_TRUE(r < 0 && strstr(e.msg, "SUBMIT") && g.c->uq.sq_tail == tail) TH_LOG("%s: " "r=%d msg='%s'", "uqueue run: IPUDEV_RUNQ=kernel runs through SUBMIT", r, e.msg);
	g.c->runq_mode = IPU__RUNQ_AUTO;

	/* the queue is gone (POLLHUP on the fd) while the run is in flight */
	{
		int p[2];

		card_stop(&g.f);	/* the queue stopped: nobody answers */
		if (pipe(p)) {
			EXPECT_TRUE(0) TH_LOG("%s: " "pipe failed", "uqueue run: queue gone");
		} else {
			close(p[1]);
			g.c->fd = p[0];
			r = ipu_run(g.dev, 0, 1, &st, &e);
			submit_run_err(&e2, 0, "empty", IPU_STATUS_RESET, 0);
			EXPECT_TRUE(r == -EIO && !strcmp(e.msg, e2.msg) && g.c->uq.state == IPU__UQ_GONE && !g.c->uq.db) TH_LOG("%s: " "r=%d state=%d msg='%s'", "uqueue run: a queue gone mid-run reports the reset as SUBMIT does", r, g.c->uq.state, e.msg);
			/* the next run creates it again: UQUEUE on a pipe is
			 * ENOTTY, so SUBMIT from then on */
			r = ipu_run(g.dev, 0, 1, &st, &e);
			EXPECT_TRUE(r == -EOPNOTSUPP && g.c->uq.state == IPU__UQ_OFF && strstr(g.c->uq.why, "no user queues")) TH_LOG("%s: " "r=%d state=%d why='%s' msg='%s'", "uqueue run: the next run re-creates the queue, or falls back to SUBMIT", r, g.c->uq.state, g.c->uq.why, e.msg);
		}
	}
	rig_close(&g);	/* closes the pipe's read end */
}

/* ------------------------------------------------------------------------ */
/* One engine failure on both backends                                      */

/* A graph whose program "empty" reads a stream nobody connects. */
static int stream_graph(void **bin, size_t *len, struct ipu_error *e)
{
	uint32_t shape[1] = { 16 };
	struct ipu_graph *g;
	int x, in, p, r, ok;

	r = ipu_graph_create(IPU_MODEL_TEST, &g, e);
	if (r)
		return r;
	ok = (x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, e)) >= 0 &&
	     ipu_graph_map_tile(g, x, 0, e) >= 0 &&
	     (in = ipu_graph_add_stream(g, "in", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, 16, 1,
					e)) >= 0 &&
	     (p = ipu_prog_stream_copy(g, in, x, e)) >= 0 &&
	     ipu_graph_add_program(g, "empty", p, e) >= 0;
	r = ok ? ipu_graph_write(g, bin, len, e) : -1;
	ipu_graph_free(g);
	return r;
}

/* the reason in "program 0 ('empty') on DEV: REASON" */
static const char *after_dev(const char *msg)
{
	const char *p = strstr(msg, " on ");

	p = p ? strstr(p, ": ") : NULL;
	return p ? p + 2 : msg;
}

/*
 * A run whose stream is not connected: the model device's engine fails it
 * with IPUE_ESTREAM; a card reports that as RUN_FAILED with the status in
 * the detail. Both backends give the same errno and the same reason.
 */
TEST(uqueue_engine_failure)
{
	struct ipu_run_stats st;
	struct ipu_error e1, e2;
	struct ipu_device *d = NULL;
	struct rig g;
	void *bin = NULL;
	size_t len = 0;
	int r1, r2;

	if (stream_graph(&bin, &len, &e1) || ipu_model_open("test", 1, &d, &e1) ||
	    ipu_load(d, bin, len, &e1)) {
		EXPECT_TRUE(0) TH_LOG("%s: " "model: %s", "engine failure: the same errno on both backends", e1.msg);
		ipu_device_close(d);
		free(bin);
		return;
	}
	r1 = ipu_run(d, 0, 1, &st, &e1);
	ipu_device_close(d);
	free(bin);
	if (rig_open(&g, 4, 1)) {
		EXPECT_TRUE(0) TH_LOG("%s: " "rig setup failed", "engine failure: the same errno on both backends");
		return;
	}
	__atomic_store_n(&g.f.fail_detail, (uint32_t)-IPUE_ESTREAM, __ATOMIC_RELEASE);
	__atomic_store_n(&g.f.code, IPU_CS_RUN_FAILED, __ATOMIC_RELEASE);
	r2 = ipu_run(g.dev, 0, 1, &st, &e2);
	rig_close(&g);
	EXPECT_TRUE(r1 == -EPIPE && r2 == r1 && e1.code == r1 && e2.code == r2) TH_LOG("%s: " "model %d card %d", "engine failure: the same errno on both backends", r1, r2);
	EXPECT_TRUE(!strncmp(e1.msg, e2.msg, strlen("program 0 ('empty') on ")) && !strcmp(after_dev(e1.msg), after_dev(e2.msg)) && strstr(e1.msg, ipue_strerror(IPUE_ESTREAM))) TH_LOG("%s: " "'%s' vs '%s'", "engine failure: the same message on both backends", e1.msg, e2.msg);
}
