// SPDX-License-Identifier: MIT
/*
 * libipudev: the mechanics of the card backend's user queue (uAPI 1.2,
 * docs/uapi.md "User queue"; docs/hw-interface.md "Doorbell pages and user
 * queues"). A card queue this process drives itself, so that a RUN costs
 * no system call: UQUEUE and three mmaps create it, the rings hold the
 * card's own entries (ipu/ipu_hw.h), and the process keeps the SQ tail, the
 * CQ head and the phase exactly as the driver does for its queues. A fourth
 * mmap, when the driver offers it, is the run record ring: the card writes
 * what a RUN did (struct ipu_run_record) at the CQ index of its completion
 * before the completion, so reaping a completion also copies its record.
 * Waiting spins on the completion ring for a bounded time, then sleeps in
 * poll(POLLPRI). What goes through this queue, and its ordering with the
 * kernel queue, is card_run.c's business.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/ipu.h>

#include "card.h"
#include "ipu/ipu_hw.h"

_Static_assert(sizeof(struct ipu_sqe) == 64, "SQE is 64 bytes");
_Static_assert(sizeof(struct ipu_cqe) == 32, "CQE is 32 bytes");
_Static_assert(sizeof(struct ipu_run_record) == IPU_RUN_RECORD_SIZE,
	       "a run record is 128 bytes");

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
#endif
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One 32-bit store to a doorbell; everything written before it (the ring
 * entry) is visible to the card first. */
static inline void db_write(volatile uint32_t *reg, uint32_t v)
{
	__atomic_store_n(reg, v, __ATOMIC_RELEASE);
}

void ipu__uq_set_rings(struct ipu__uqueue *q, void *sq, const void *cq,
		       void *db, const void *rec, uint32_t entries)
{
	q->sq = sq;
	q->cq = cq;
	q->db = db;
	q->rec = rec;
	q->entries = entries;
	q->sq_tail = 0;
	q->cq_head = 0;
	q->phase = 1;
	q->pending = 0;
	q->slice_ms = IPU__UQ_POLL_SLICE_MS;
}

int ipu__uq_post(struct ipu__uqueue *q, const struct ipu_sqe *e)
{
	struct ipu_sqe *s;
	uint16_t cid;

	if (q->pending >= q->entries - 1)
		return -EAGAIN;
	s = &q->sq[q->sq_tail];
	cid = q->cid++;
	memcpy(s, e, sizeof(*s));
	s->cid = cid;
	q->sq_tail = (q->sq_tail + 1) & (q->entries - 1);
	q->pending++;
	db_write(q->db + IPU_DB_SQ_TAIL / 4, q->sq_tail);
	return cid;
}

int ipu__uq_reap(struct ipu__uqueue *q, struct ipu_cqe *out,
		 struct ipu_run_record *rec)
{
	const struct ipu_cqe *e = &q->cq[q->cq_head];
	uint16_t st = __atomic_load_n((const volatile uint16_t *)&e->status,
				      __ATOMIC_ACQUIRE);

	if ((st & IPU_CQE_PHASE) != q->phase)
		return 0;
	/* after the acquire load: the card wrote the whole entry, and the
	 * record at its index, before */
	memcpy(out, (const void *)e, sizeof(*out));
	out->status = st;
	if (rec) {
		if (q->rec)
			memcpy(rec, (const void *)&q->rec[q->cq_head],
			       sizeof(*rec));
		else
			memset(rec, 0, sizeof(*rec));
	}
	/* only now the head moves: the card may then reuse both slots */
	if (++q->cq_head == q->entries) {
		q->cq_head = 0;
		q->phase ^= 1;
	}
	if (q->pending)
		q->pending--;
	db_write(q->db + IPU_DB_CQ_HEAD / 4, q->cq_head);
	return 1;
}

int ipu__uq_wait(struct ipu__uqueue *q, int fd, unsigned spin_us,
		 unsigned timeout_ms, struct ipu_cqe *out,
		 struct ipu_run_record *rec)
{
	uint64_t t0 = now_ns();
	uint64_t end = timeout_ms ? t0 + (uint64_t)timeout_ms * 1000000u
				  : UINT64_MAX;
	uint64_t spin_end = t0 + (uint64_t)spin_us * 1000u;

	if (spin_end > end)
		spin_end = end;
	for (unsigned i = 0;; i++) {
		if (ipu__uq_reap(q, out, rec))
			return 0;
		cpu_relax();
		if ((i & 15) == 15 && now_ns() >= spin_end)
			break;
	}
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLPRI };
		uint64_t now, left;
		int n, ms;

		if (ipu__uq_reap(q, out, rec))
			return 0;
		now = now_ns();
		if (now >= end)
			return -ETIMEDOUT;
		left = end - now;
		ms = left / 1000000u >= q->slice_ms
		     ? (int)q->slice_ms : (int)((left + 999999u) / 1000000u);
		n = poll(&p, 1, ms);
		if (n < 0) {
			if (errno == EINTR && timeout_ms)
				return -EINTR;
			continue;	/* EINTR without a timeout, ENOMEM */
		}
		if (n && (p.revents & (POLLERR | POLLHUP | POLLNVAL))) {
			/* a completion posted before the queue stopped counts */
			if (ipu__uq_reap(q, out, rec))
				return 0;
			return p.revents & POLLNVAL ? -EBADF : -ENODEV;
		}
	}
}

/* ------------------------------------------------------------------------ */
/* Creation and teardown                                                    */

static size_t page_round(size_t n)
{
	long ps = sysconf(_SC_PAGESIZE);
	size_t p = ps > 0 ? (size_t)ps : 4096;

	return (n + p - 1) / p * p;
}

static void unmap(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

static void unmap_rec(struct ipu__uqueue *q)
{
	unmap((void *)q->rec, q->rec_len);
	q->rec = NULL;
	q->rec_len = 0;
	q->rec_off = 0;
}

static void unmap_rings(struct ipu__uqueue *q)
{
	unmap(q->sq, q->sq_len);
	unmap((void *)q->cq, q->cq_len);
	q->sq = NULL;
	q->cq = NULL;
	q->sq_len = q->cq_len = 0;
	unmap_rec(q);
}

/*
 * The run record ring of UQUEUE's answer @u, kept when it is already
 * mapped at the same offset with the same size. Without one (rec_offset 0:
 * a driver or card before run records) or when its mmap fails, runs go on
 * without records (q->rec NULL, q->rec_errno set on failure): they are
 * worth less than the queue itself.
 */
static void map_rec(struct ipu__uqueue *q, int fd, const struct ipu_uqueue *u)
{
	size_t len = page_round((size_t)u->entries * IPU_RUN_RECORD_SIZE);
	void *p;

	q->rec_errno = 0;
	if (q->rec && u->rec_offset && q->rec_len == len &&
	    q->rec_off == u->rec_offset)
		return;
	unmap_rec(q);
	if (!u->rec_offset)
		return;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)u->rec_offset);
	if (p == MAP_FAILED) {
		q->rec_errno = errno;
		return;
	}
	q->rec = p;
	q->rec_len = len;
	q->rec_off = u->rec_offset;
}

static void unmap_db(struct ipu__uqueue *q)
{
	unmap((void *)q->db, IPU_DB_PAGE_SIZE);
	q->db = NULL;
}

static const char *uqueue_errstr(int e)
{
	switch (e) {
	case ENOTTY:
		return "the driver has no user queues (uAPI before 1.2)";
	case EOPNOTSUPP:
		return "the card has no user queues";
	case EBUSY:
		return "no free queue on the card";
	case EEXIST:
		return "a user queue is already running";
	case ENOTCONN:
		return "not attached";
	default:
		return strerror(e);
	}
}

/* mmap @len bytes of @fd at @off into *@p; 0, or -errno with @q->why
 * saying which part (@what) failed */
static int map_part(struct ipu__uqueue *q, int fd, size_t len, int prot,
		    uint64_t off, const char *what, void **p)
{
	int e;

	*p = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)off);
	if (*p != MAP_FAILED)
		return 0;
	e = errno;
	snprintf(q->why, sizeof(q->why), "mmap of %s: %s", what, strerror(e));
	return -e;
}

int ipu__uq_open(struct ipu__uqueue *q, int fd)
{
	struct ipu_uqueue u;
	size_t sq_len, cq_len;
	void *sq = NULL, *cq = NULL, *db;
	int keep, e;

	memset(&u, 0, sizeof(u));
	u.argsz = sizeof(u);
	if (ioctl(fd, IPU_IOCTL_UQUEUE, &u) < 0) {
		e = errno;
		snprintf(q->why, sizeof(q->why), "UQUEUE: %s", uqueue_errstr(e));
		return -e;
	}
	/* From here on the driver's queue exists; on failure it stays unused
	 * until the context detaches. */
	if (u.entries < IPU_Q_SIZE_MIN || u.entries > IPU_Q_SIZE_MAX ||
	    (u.entries & (u.entries - 1))) {
		snprintf(q->why, sizeof(q->why),
			 "UQUEUE: %u entries per ring is not a power of two in 2-4096",
			 u.entries);
		return -EPROTO;
	}
	sq_len = page_round((size_t)u.entries * sizeof(struct ipu_sqe));
	cq_len = page_round((size_t)u.entries * sizeof(struct ipu_cqe));
	keep = q->sq && q->cq && q->sq_len == sq_len && q->cq_len == cq_len &&
	       q->sq_off == u.sq_offset && q->cq_off == u.cq_offset;
	if (!keep) {
		e = map_part(q, fd, sq_len, PROT_READ | PROT_WRITE, u.sq_offset,
			     "the submission ring", &sq);
		if (e)
			return e;
		e = map_part(q, fd, cq_len, PROT_READ, u.cq_offset,
			     "the completion ring", &cq);
		if (e) {
			munmap(sq, sq_len);
			return e;
		}
	}
	e = map_part(q, fd, IPU_DB_PAGE_SIZE, PROT_WRITE, u.db_offset,
		     "the doorbell page", &db);
	if (e) {
		if (!keep) {
			munmap(sq, sq_len);
			munmap(cq, cq_len);
		}
		return e;
	}
	if (!keep) {
		unmap_rings(q);
		q->sq = sq;
		q->cq = cq;
		q->sq_len = sq_len;
		q->cq_len = cq_len;
		q->sq_off = u.sq_offset;
		q->cq_off = u.cq_offset;
	}
	unmap_db(q);
	map_rec(q, fd, &u);
	/* A new queue's completion ring is empty (all phase bits 0): an entry
	 * left from before a reset would pass for a new completion. */
	for (uint32_t i = 0; i < u.entries; i++)
		if (__atomic_load_n((const volatile uint16_t *)&q->cq[i].status,
				    __ATOMIC_RELAXED) & IPU_CQE_PHASE) {
			munmap(db, IPU_DB_PAGE_SIZE);
			snprintf(q->why, sizeof(q->why),
				 "UQUEUE: completion %u of the new queue is not empty",
				 i);
			return -EPROTO;
		}
	ipu__uq_set_rings(q, q->sq, q->cq, db, q->rec, u.entries);
	q->queue = u.queue;
	q->state = IPU__UQ_READY;
	q->why[0] = '\0';
	return 0;
}

void ipu__uq_lost(struct ipu__uqueue *q)
{
	unmap_db(q);
	q->pending = 0;
	if (q->state == IPU__UQ_READY)
		q->state = IPU__UQ_GONE;
}

void ipu__uq_close(struct ipu__uqueue *q, const char *why)
{
	unmap_db(q);
	unmap_rings(q);
	q->pending = 0;
	q->state = IPU__UQ_OFF;
	if (why)
		snprintf(q->why, sizeof(q->why), "%s", why);
}
