// SPDX-License-Identifier: GPL-2.0
/*
 * A seeded fuzz of the driver's whole surface on one card: every ioctl with
 * valid and corrupted arguments (argsz, flags, reserved fields, bad and
 * half-mapped pointers, read-only argument pages), BUF_PIN and user_ptr of
 * every kind of memory (malloc'ed, mmap'ed BUF_ALLOC buffers, the user
 * queue's rings and doorbell, read-only, unmapped, kernel), SUBMIT of every
 * opcode sync and ASYNC (valid and corrupted graph binaries among them),
 * WAIT, mmap()/munmap()/mremap()/madvise() of buffers and user-queue
 * pieces with good and bad offsets, sizes and protections, the user queue
 * driven through its mappings, and poll(). Several threads share one file;
 * a second process on the card (the same file, or one of its own) is
 * SIGKILLed mid-operation now and then; the detach of another thread and
 * signals (EINTR) interrupt what sleeps.
 *
 * It fails on:
 *  - an errno outside the documented set of an ioctl (docs/uapi.md), or
 *    other than the one the conventions prescribe (argsz, flags, reserved
 *    fields, bad pointers, unknown ioctls);
 *  - a command status only a driver bug gives (INVALID_OPCODE, DMA_ERROR,
 *    INVALID_SGL, INVALID_FIELD but for a stream ring's length);
 *  - a SUBMIT seq that is 0, not above the thread's previous one, or
 *    already returned on the file; a completion collected twice;
 *  - a thread or a killed process that does not come back (bounded waits);
 *  - afterwards: the driver's debugfs counters not back to 0 once every
 *    file is closed, or the card not round-tripping data bit-exactly;
 *  - a sync LOAD_FAILED without its message (also when a DETACH took the
 *    completed command meanwhile: the driver keeps the message).
 *
 * Environment: IPU_FUZZ_SEED (default from the clock; printed, so a failing
 * run can be replayed: each thread's choices follow from it, the
 * interleaving is the scheduler's), IPU_FUZZ_SECONDS (default 45: the whole
 * run, shared by the tests), IPU_FUZZ_THREADS (default 6, 2..8),
 * IPU_FUZZ_CARD (default: the first card of the "test" model, else card 0),
 * IPU_FUZZ_PREEMPT=0 (keep the kernel's preemption model; by default a
 * PREEMPT_DYNAMIC kernel runs the fuzz with full preemption, which opens
 * the windows of races in the driver wide: it found the SUBMIT seq use
 * after free within seconds where voluntary preemption did not).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"
#include "ipu_graphs.h"

#define PAGE		4096ul
#define N_ELEMS		256			/* "x" and "y": 1 KiB each */
#define T_SMALL		(N_ELEMS * 4)
#define BIG_BYTES	(64u << 10)		/* "big": read-write */

#define MAX_THREADS	8
#define CHILD_THREADS	2
#define SLOTS		(MAX_THREADS + CHILD_THREADS)
#define HIST		12
#define LINE		120
#define MAX_FAIL	40
#define ERRNO_SLOTS	140			/* [0] success, [139] others */
#define MAX_BUFS	40
#define MAX_MAPS	24
#define MAX_OUT		32

#define ARENA_BYTES	(4u << 20)		/* DMA targets: never the test's */
#define MALLOC_BYTES	(1u << 20)
#define RO_BYTES	(64u << 10)
#define HOLE_BYTES	(1u << 20)
#define KERNEL_PTR	0xffff888000100000ull
#define NONCANON_PTR	0x8000000000001000ull

/* ---- operations ---- */

enum op {
	OP_INFO, OP_RESET, OP_ATTACH, OP_DETACH, OP_ALLOC, OP_PIN, OP_FREE,
	OP_LOAD, OP_WRITE, OP_READ, OP_RUN, OP_FENCE, OP_ABORT, OP_BIND,
	OP_BADCMD, OP_WAIT, OP_EVENTFD, OP_NULL, OP_UQUEUE, OP_UQ_DRIVE,
	OP_MMAP, OP_MUNMAP, OP_TOUCH, OP_POLL, OP_BADNR, OP_PAUSE, OP_CYCLE,
	OP_MREMAP, OP_MADVISE, OP_LINKS, OP_MAX
};

/* Which ioctl (or call) an operation is, for its documented errnos. */
enum kind {
	K_INFO, K_RESET, K_ATTACH, K_DETACH, K_ALLOC, K_PIN, K_FREE, K_SUBMIT,
	K_WAIT, K_EVENTFD, K_NULL, K_UQUEUE, K_MMAP, K_POLL, K_BADNR, K_NONE,
	K_MM, K_LINKS, K_MAX
};

static const struct {
	const char *name;
	int kind;
} ops[OP_MAX] = {
	[OP_INFO] = { "GET_INFO", K_INFO },
	[OP_RESET] = { "RESET", K_RESET },
	[OP_ATTACH] = { "ATTACH", K_ATTACH },
	[OP_DETACH] = { "DETACH", K_DETACH },
	[OP_ALLOC] = { "BUF_ALLOC", K_ALLOC },
	[OP_PIN] = { "BUF_PIN", K_PIN },
	[OP_FREE] = { "BUF_FREE", K_FREE },
	[OP_LOAD] = { "SUBMIT LOAD", K_SUBMIT },
	[OP_WRITE] = { "SUBMIT WRITE", K_SUBMIT },
	[OP_READ] = { "SUBMIT READ", K_SUBMIT },
	[OP_RUN] = { "SUBMIT RUN", K_SUBMIT },
	[OP_FENCE] = { "SUBMIT FENCE", K_SUBMIT },
	[OP_ABORT] = { "SUBMIT ABORT", K_SUBMIT },
	[OP_BIND] = { "SUBMIT STREAM_BIND", K_SUBMIT },
	[OP_BADCMD] = { "SUBMIT bad fields", K_SUBMIT },
	[OP_WAIT] = { "WAIT", K_WAIT },
	[OP_EVENTFD] = { "SET_EVENTFD", K_EVENTFD },
	[OP_NULL] = { "NULL", K_NULL },
	[OP_UQUEUE] = { "UQUEUE", K_UQUEUE },
	[OP_UQ_DRIVE] = { "user queue", K_NONE },
	[OP_MMAP] = { "mmap", K_MMAP },
	[OP_MUNMAP] = { "munmap", K_NONE },
	[OP_TOUCH] = { "touch mapping", K_NONE },
	[OP_POLL] = { "poll", K_POLL },
	[OP_BADNR] = { "unknown ioctl", K_BADNR },
	[OP_PAUSE] = { "pause", K_NONE },
	[OP_CYCLE] = { "attached period", K_NONE },
	[OP_MREMAP] = { "mremap", K_MM },
	[OP_MADVISE] = { "madvise", K_MM },
	[OP_LINKS] = { "LINKS", K_LINKS },
};

/* Roles: what a thread does (weights per operation). */
enum role { ROLE_ALL, ROLE_SUBMIT, ROLE_WAIT, ROLE_DETACH, ROLE_FILES,
	    ROLE_MAX };

static const int weights[ROLE_MAX][OP_MAX] = {
	[ROLE_ALL] = {
		[OP_INFO] = 3, [OP_RESET] = 1, [OP_ATTACH] = 6, [OP_DETACH] = 2,
		[OP_ALLOC] = 4, [OP_PIN] = 5, [OP_FREE] = 5, [OP_LOAD] = 5,
		[OP_WRITE] = 8, [OP_READ] = 8, [OP_RUN] = 8, [OP_FENCE] = 8,
		[OP_ABORT] = 3, [OP_BIND] = 3, [OP_BADCMD] = 4, [OP_WAIT] = 14,
		[OP_EVENTFD] = 2, [OP_NULL] = 2, [OP_UQUEUE] = 2,
		[OP_UQ_DRIVE] = 6, [OP_MMAP] = 5, [OP_MUNMAP] = 2,
		[OP_TOUCH] = 2, [OP_POLL] = 3, [OP_BADNR] = 1,
		[OP_MREMAP] = 2, [OP_MADVISE] = 2, [OP_LINKS] = 2,
	},
	[ROLE_SUBMIT] = {
		[OP_FENCE] = 60, [OP_RUN] = 20, [OP_WRITE] = 8, [OP_READ] = 6,
		[OP_NULL] = 2, [OP_ABORT] = 2, [OP_POLL] = 2,
	},
	[ROLE_WAIT] = { [OP_WAIT] = 90, [OP_POLL] = 10 },
	[ROLE_DETACH] = { [OP_CYCLE] = 90, [OP_UQUEUE] = 5, [OP_WAIT] = 5 },
	[ROLE_FILES] = {
		[OP_INFO] = 3, [OP_RESET] = 2, [OP_ATTACH] = 16, [OP_DETACH] = 2,
		[OP_ALLOC] = 4, [OP_PIN] = 4, [OP_FREE] = 3, [OP_LOAD] = 8,
		[OP_WRITE] = 6, [OP_READ] = 6, [OP_RUN] = 8, [OP_FENCE] = 6,
		[OP_ABORT] = 2, [OP_BIND] = 2, [OP_WAIT] = 8, [OP_EVENTFD] = 2,
		[OP_UQUEUE] = 4, [OP_UQ_DRIVE] = 6, [OP_MMAP] = 4,
		[OP_POLL] = 2, [OP_MREMAP] = 1, [OP_MADVISE] = 1,
		[OP_LINKS] = 2,
	},
};

/* ---- results, shared with the killed processes (MAP_SHARED) ---- */

struct slot {
	char cur[LINE];			/* in progress */
	char hist[HIST][LINE];		/* the last ones, with their result */
	uint32_t hpos;
	int used;
	int busy;
	int detaching;			/* in DETACH */
	int tid;
};

struct results {
	uint64_t calls[OP_MAX];
	uint64_t errs[OP_MAX][ERRNO_SLOTS];
	uint64_t statuses[80];
	uint64_t uq_completions;
	uint64_t children, children_own_file, attached_epochs;
	uint64_t detaches;		/* DETACHes done (or tried) */
	int64_t last_reset_ms;
	uint32_t nfail;
	char fail[MAX_FAIL][200];
	struct slot slots[SLOTS];
};

/* SUBMIT seqs of one file: returned (issued) and collected, as bitmaps. */
struct seqtrack {
	uint64_t nbits;
	uint64_t *issued;
	uint64_t *collected;
};

/* The DMA-safe and the bad memory of a process. */
struct mem {
	uint8_t *arena;		/* anonymous, only ever DMA source/target */
	uint8_t *mallocd;	/* malloc'ed, likewise, never freed */
	uint8_t *ro;		/* read-only */
	uint8_t *hole;		/* PROT_NONE: nothing is ever mapped there */
};

struct fbuf {
	uint32_t handle;
	int alloc;
	uint64_t size;
	uint64_t off;
};

struct fmap {
	uint8_t *addr;
	size_t len;
	int prot;
	int zapped;		/* MADV_DONTNEED, a reset (1.8): touch SIGBUS */
};

/* One open file of the card and what its users know about it. */
struct ffile {
	int fd;
	int ro_fd;			/* the same card, read-only */
	int card;
	uint32_t api_minor;
	struct seqtrack seqs;
	pthread_mutex_t lock;		/* bufs, maps */
	pthread_rwlock_t maplock;	/* mapped memory in use / munmap */
	struct fbuf bufs[MAX_BUFS];
	int nbufs;
	struct fmap maps[MAX_MAPS];
	int nmaps;
	/* The user queue, as the process drives it (uq_lock). */
	pthread_mutex_t uq_lock;
	int uq_running;
	struct ipu_uqueue uqi;
	struct ipu_sqe *sq;
	const struct ipu_cqe *cq;
	volatile uint32_t *db;
	const uint8_t *rec;
	uint64_t map_sq, map_cq, map_db, map_rec;	/* offsets mapped */
	uint32_t tail, head, phase;
	int efd;
};

struct thr {
	int idx;			/* slot */
	int role;
	int corrupt_pct;		/* arguments corrupted */
	int async_pct;
	uint64_t rng;
	struct ffile *f;
	uint8_t *args;			/* 2 pages RW, 1 RW/RO, 1 PROT_NONE */
	uint8_t *loadbuf;
	size_t loadbuf_len;
	char msg[IPU_LOAD_MSG_MAX];
	uint64_t last_seq;
	uint64_t out[MAX_OUT];		/* ASYNC seqs not yet waited for */
	int nout;
	int ops_left;			/* ROLE_FILES: until the file is reopened */
	pthread_t pt;
	int done;
};

/* ---- globals ---- */

static uint64_t g_seed;
static int g_seconds = 45, g_threads = 6, g_card = -1;
static struct results *R;
static struct mem M;
static const void *g_graph, *g_sgraph;
static size_t g_glen, g_sglen;
static uint32_t g_model;
static volatile int g_stop;
static int g_in_child;

static __thread sigjmp_buf bus_jmp;
static __thread volatile int bus_armed;

__attribute__((constructor)) static void fuzz_config(void)
{
	const char *s;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	g_seed = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^
		 ((uint64_t)getpid() << 32);
	g_seed %= 1000000000000ull;
	s = getenv("IPU_FUZZ_SEED");
	if (s && *s)
		g_seed = strtoull(s, NULL, 0);
	s = getenv("IPU_FUZZ_SECONDS");
	if (s && atoi(s) > 0)
		g_seconds = atoi(s);
	s = getenv("IPU_FUZZ_THREADS");
	if (s && atoi(s) > 0)
		g_threads = atoi(s);
	if (g_threads < 2)
		g_threads = 2;
	if (g_threads > MAX_THREADS)
		g_threads = MAX_THREADS;
	s = getenv("IPU_FUZZ_CARD");
	if (s && *s)
		g_card = atoi(s);
}

/* ---- random numbers: xorshift64*, one stream per thread ---- */

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t rnd(struct thr *t)
{
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return t->rng * 0x2545f4914f6cdd1dull;
}

static uint64_t rn(struct thr *t, uint64_t n)
{
	return n ? rnd(t) % n : 0;
}

static int chance(struct thr *t, int pct)
{
	return (int)rn(t, 100) < pct;
}

/* ---- reporting ---- */

static void note(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* stderr: unbuffered, so nothing is lost when the test exits. */
	if (write(2, "# ", 2) < 0 || write(2, line, n) < 0)
		return;
}

static void fail(struct thr *t, const char *fmt, ...)
{
	uint32_t i = __atomic_fetch_add(&R->nfail, 1, __ATOMIC_RELAXED);
	char what[160];
	va_list ap;

	if (i >= MAX_FAIL)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(R->fail[i], sizeof(R->fail[i]), "%s%d: %s",
		 t && t->idx >= MAX_THREADS ? "child thread " : "thread ",
		 t ? t->idx : -1, what);
}

static const char *ename(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";

	return n ? n : "E?";
}

static void begin(struct thr *t, const char *fmt, ...)
{
	struct slot *s = &R->slots[t->idx];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->cur, sizeof(s->cur), fmt, ap);
	va_end(ap);
	__atomic_store_n(&s->busy, 1, __ATOMIC_RELEASE);
}

static void end(struct thr *t, int err)
{
	struct slot *s = &R->slots[t->idx];
	char *h = s->hist[s->hpos++ % HIST], cur[LINE];

	memcpy(cur, s->cur, LINE);
	cur[LINE - 1] = '\0';
	snprintf(h, LINE, "%.100s = %s", cur, ename(err));
	__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
}

static void dump_slots(int fd_out)
{
	char line[LINE + 64];

	for (int i = 0; i < SLOTS; i++) {
		struct slot *s = &R->slots[i];
		int n;

		if (!s->used)
			continue;
		n = snprintf(line, sizeof(line), "# slot %d (tid %d): %s %s\n",
			     i, s->tid, s->busy ? "IN" : "last", s->cur);
		if (write(fd_out, line, n) < 0)
			return;
		for (int k = 0; k < HIST; k++) {
			const char *h = s->hist[(s->hpos + k) % HIST];

			if (!h[0])
				continue;
			n = snprintf(line, sizeof(line), "#    %s\n", h);
			if (write(fd_out, line, n) < 0)
				return;
		}
	}
}

/* ---- errnos: the documented set of each ioctl (docs/uapi.md) ---- */

struct expect {
	int n;		/* 0: any documented errno (or success) */
	int v[5];	/* else one of these (0: success) */
};

#define EXPECT_ANY	((struct expect){ 0 })
#define EXPECT1(a)	((struct expect){ 1, { a } })
#define EXPECT2(a, b)	((struct expect){ 2, { a, b } })
#define EXPECT3(a, b, c) ((struct expect){ 3, { a, b, c } })
#define EXPECT4(a, b, c, d) ((struct expect){ 4, { a, b, c, d } })

static bool documented(int kind, int e)
{
	if (!e)
		return true;
	switch (kind) {
	case K_MMAP:
		/* the driver's EINVAL and (1.8) EIO of a stale buffer; the
		 * mm core's checks
		 */
		return e == EINVAL || e == EIO || e == EACCES ||
		       e == ENOMEM || e == EOVERFLOW || e == EPERM;
	case K_POLL:
		return e == EINTR;
	case K_MM:	/* mremap, madvise: the mm's errnos, any */
		return true;
	case K_NULL:
	case K_NONE:
		return false;
	case K_BADNR:
		return e == ENOTTY;
	}
	/* The conventions of every ioctl. */
	if (e == EINVAL || e == E2BIG || e == EFAULT)
		return true;
	switch (kind) {
	case K_RESET:
		return e == EPERM || e == EBUSY || e == ETIMEDOUT || e == EINTR;
	case K_ATTACH:
		return e == EPERM || e == EBUSY || e == EINTR || e == EALREADY;
	case K_DETACH:
		return e == ENOTCONN;
	case K_ALLOC:
		return e == ENOTCONN || e == ENOMEM;
	case K_PIN:
		return e == ENOTCONN || e == ENOMEM || e == EBUSY;
	case K_FREE:
		return e == ENOTCONN || e == ENOENT || e == EBUSY;
	case K_SUBMIT:
		return e == ENOTCONN || e == ENOENT || e == ERANGE ||
		       e == ENOMEM || e == EAGAIN || e == EINTR || e == EIO ||
		       e == EBUSY;
	case K_WAIT:
		return e == ENOTCONN || e == ETIMEDOUT || e == ENOENT ||
		       e == EINTR;
	case K_EVENTFD:
		return e == ENOTCONN || e == EBADF;
	case K_UQUEUE:
		return e == ENOTCONN || e == EEXIST || e == EBUSY ||
		       e == EOPNOTSUPP || e == EIO;
	case K_LINKS:
		return e == ENOMEM;
	}
	return false;
}

static void record(struct thr *t, int op, int err, const struct expect *ex)
{
	int kind = ops[op].kind;

	__atomic_fetch_add(&R->calls[op], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&R->errs[op][err >= 0 && err < ERRNO_SLOTS - 1 ?
					err : ERRNO_SLOTS - 1], 1,
			   __ATOMIC_RELAXED);
	if (ex && ex->n) {
		for (int i = 0; i < ex->n; i++)
			if (ex->v[i] == err)
				return;
		fail(t, "%s returned %s, the uAPI says %s%s%s%s%s [%s]",
		     ops[op].name, ename(err), ename(ex->v[0]),
		     ex->n > 1 ? "/" : "", ex->n > 1 ? ename(ex->v[1]) : "",
		     ex->n > 2 ? "/" : "", ex->n > 2 ? ename(ex->v[2]) : "",
		     R->slots[t->idx].cur);
		return;
	}
	if (documented(kind, err))
		return;
	fail(t, "%s returned %s, not a documented errno of it [%s]",
	     ops[op].name, ename(err), R->slots[t->idx].cur);
}

/* An operation that is no ioctl (the user queue, munmap, ...): counted. */
static void count(int op)
{
	__atomic_fetch_add(&R->calls[op], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&R->errs[op][0], 1, __ATOMIC_RELAXED);
}

/* A completion status only a driver bug gives (docs/uapi.md). */
static void check_status(struct thr *t, const char *what, uint64_t seq,
			 uint32_t status, uint32_t detail)
{
	__atomic_fetch_add(&R->statuses[status < 79 ? status : 79], 1,
			   __ATOMIC_RELAXED);
	switch (status) {
	case IPU_STATUS_OK: case IPU_STATUS_NO_GRAPH:
	case IPU_STATUS_LOAD_FAILED: case IPU_STATUS_BAD_HANDLE:
	case IPU_STATUS_OUT_OF_RANGE: case IPU_STATUS_ACCESS:
	case IPU_STATUS_ABORTED: case IPU_STATUS_PROGRAM_ABORT:
	case IPU_STATUS_RUN_FAILED: case IPU_STATUS_TOO_LARGE:
	case IPU_STATUS_INTERNAL: case IPU_STATUS_RESET:
		return;
	case IPU_STATUS_INVALID_FIELD:
		/* A stream ring that is not whole transfers: the card's check. */
		if (detail == offsetof(struct ipu_sqe, length))
			return;
		break;
	}
	fail(t, "%s seq %llu completed with status %u detail %#x: a command "
	     "the driver built wrong", what, (unsigned long long)seq, status,
	     detail);
}

/* ---- seqs ---- */

static int seq_mark(uint64_t *map, uint64_t seq)
{
	uint64_t bit = 1ull << (seq % 64);

	return !!(__atomic_fetch_or(&map[seq / 64], bit, __ATOMIC_RELAXED) &
		  bit);
}

/* A seq SUBMIT returned: never 0, above this thread's last, unique. */
static void seq_issued(struct thr *t, uint64_t seq, const char *what)
{
	struct seqtrack *s = &t->f->seqs;
	const char *cur = R->slots[t->idx].cur;

	if (!seq) {
		fail(t, "%s returned seq 0 [%s]", what, cur);
		return;
	}
	if (seq >= s->nbits) {
		/* More commands than a run submits: garbage (freed memory?) */
		fail(t, "%s returned seq %#llx [%s]", what,
		     (unsigned long long)seq, cur);
		return;
	}
	if (seq <= t->last_seq)
		fail(t, "%s returned seq %llu after seq %llu on this thread "
		     "[%s]", what, (unsigned long long)seq,
		     (unsigned long long)t->last_seq, cur);
	t->last_seq = seq;
	if (seq_mark(s->issued, seq))
		fail(t, "%s returned seq %llu, already returned on this file "
		     "[%s]", what, (unsigned long long)seq, cur);
}

/* A completion collected (WAIT, or a sync SUBMIT): once only. */
static void seq_collected(struct thr *t, uint64_t seq, const char *what)
{
	struct seqtrack *s = &t->f->seqs;

	if (!seq || seq >= s->nbits) {
		fail(t, "%s collected seq %#llx", what,
		     (unsigned long long)seq);
		return;
	}
	if (seq_mark(s->collected, seq))
		fail(t, "%s collected seq %llu a second time", what,
		     (unsigned long long)seq);
}

static void out_add(struct thr *t, uint64_t seq)
{
	if (t->nout == MAX_OUT)
		memmove(t->out, t->out + 1, --t->nout * sizeof(t->out[0]));
	t->out[t->nout++] = seq;
}

static void out_del(struct thr *t, uint64_t seq)
{
	for (int i = 0; i < t->nout; i++) {
		if (t->out[i] == seq) {
			t->out[i] = t->out[--t->nout];
			return;
		}
	}
}

/* ---- arguments: the struct where the ioctl reads it, maybe corrupted ---- */

struct kmeta {
	unsigned long nr;
	size_t size, first;
	uint32_t flags_ok;
	int needs_write;
	int nres;
	struct { uint16_t off, len; } res[3];
};

#define RES(type, field) { offsetof(type, field), sizeof(((type *)0)->field) }

static const struct kmeta kmeta[K_MAX] = {
	[K_INFO] = { IPU_IOCTL_GET_INFO, sizeof(struct ipu_info),
		     sizeof(struct ipu_info), 0, 0, 1,
		     { RES(struct ipu_info, reserved) } },
	[K_RESET] = { IPU_IOCTL_RESET, sizeof(struct ipu_reset),
		      offsetof(struct ipu_reset, holder_pid),
		      IPU_RESET_FLAGS_ALL, 1, 2,
		      { RES(struct ipu_reset, reserved),
			RES(struct ipu_reset, reserved2) } },
	[K_ATTACH] = { IPU_IOCTL_ATTACH, sizeof(struct ipu_attach),
		       sizeof(struct ipu_attach), IPU_ATTACH_FLAGS_ALL, 1, 1,
		       { RES(struct ipu_attach, reserved) } },
	[K_DETACH] = { IPU_IOCTL_DETACH, sizeof(struct ipu_attach),
		       sizeof(struct ipu_attach), 0, 0, 1,
		       { RES(struct ipu_attach, reserved) } },
	[K_ALLOC] = { IPU_IOCTL_BUF_ALLOC, sizeof(struct ipu_buf),
		      sizeof(struct ipu_buf), 0, 0, 2,
		      { RES(struct ipu_buf, reserved0),
			RES(struct ipu_buf, reserved) } },
	[K_PIN] = { IPU_IOCTL_BUF_PIN, sizeof(struct ipu_buf),
		    sizeof(struct ipu_buf), 0, 0, 2,
		    { RES(struct ipu_buf, reserved0),
		      RES(struct ipu_buf, reserved) } },
	[K_FREE] = { IPU_IOCTL_BUF_FREE, sizeof(struct ipu_buf),
		     sizeof(struct ipu_buf), 0, 0, 2,
		     { RES(struct ipu_buf, reserved0),
		       RES(struct ipu_buf, reserved) } },
	[K_SUBMIT] = { IPU_IOCTL_SUBMIT, sizeof(struct ipu_cmd),
		       offsetof(struct ipu_cmd, run), IPU_CMD_FLAGS_ALL, 0, 3,
		       { RES(struct ipu_cmd, reserved0),
			 RES(struct ipu_cmd, reserved),
			 RES(struct ipu_cmd, reserved1) } },
	[K_WAIT] = { IPU_IOCTL_WAIT, sizeof(struct ipu_wait),
		     offsetof(struct ipu_wait, run), IPU_WAIT_FLAGS_ALL, 0, 2,
		     { RES(struct ipu_wait, reserved),
		       RES(struct ipu_wait, reserved1) } },
	[K_EVENTFD] = { IPU_IOCTL_SET_EVENTFD, sizeof(struct ipu_eventfd),
			sizeof(struct ipu_eventfd), 0, 0, 1,
			{ RES(struct ipu_eventfd, reserved) } },
	[K_NULL] = { IPU_IOCTL_NULL, 8, 8, 0, 0, 0, { { 0, 0 } } },
	[K_UQUEUE] = { IPU_IOCTL_UQUEUE, sizeof(struct ipu_uqueue),
		       sizeof(struct ipu_uqueue), 0, 0, 1,
		       { RES(struct ipu_uqueue, reserved) } },
	[K_LINKS] = { IPU_IOCTL_LINKS, sizeof(struct ipu_link_list),
		      sizeof(struct ipu_link_list), 0, 0, 1,
		      { RES(struct ipu_link_list, reserved) } },
};

enum { MODE_VALID, MODE_SHORT, MODE_BIG, MODE_TAIL, MODE_FLAG, MODE_RES,
       MODE_BADPTR, MODE_STRADDLE, MODE_RO, MODE_GARBAGE, MODE_MAX };

struct call {
	void *p;
	int mode;
	struct expect ex;	/* set by the corruption, else EXPECT_ANY */
};

/* LINKS arguments at @a whose record_size the kernel takes (API 1.5). */
static bool links_stride_ok(const uint8_t *a)
{
	struct ipu_link_list l;

	memcpy(&l, a, sizeof(l));
	return l.record_size >= sizeof(struct ipu_link) &&
	       l.record_size <= IPU_ARGSZ_MAX && !(l.record_size % 8);
}

static uint64_t bad_ptr(struct thr *t)
{
	switch (rn(t, 5)) {
	case 0: return 0;
	case 1: return (uintptr_t)M.hole + rn(t, HOLE_BYTES);
	case 2: return KERNEL_PTR + rn(t, 1 << 20);
	case 3: return NONCANON_PTR;
	default: return 16;
	}
}

/*
 * Puts @size bytes of @s where the ioctl of @kind will read them; now and
 * then (corrupt_pct) corrupted in one of the ways the conventions of
 * docs/uapi.md decide on their own, with the errno they prescribe.
 */
static void prep(struct thr *t, int kind, const void *s, size_t size,
		 int ro_file, struct call *k)
{
	const struct kmeta *m = &kmeta[kind];
	uint8_t *a = t->args;
	uint32_t argsz, *flags = (uint32_t *)(a + 4);

	k->p = a;
	k->mode = MODE_VALID;
	k->ex = EXPECT_ANY;
	memcpy(a, s, size);
	if (chance(t, t->corrupt_pct))
		k->mode = 1 + rn(t, MODE_MAX - 1);
	switch (k->mode) {
	case MODE_SHORT:
		argsz = rn(t, m->first);
		memcpy(a, &argsz, 4);
		k->ex = EXPECT1(EINVAL);
		break;
	case MODE_BIG:
		argsz = chance(t, 20) ? UINT32_MAX : IPU_ARGSZ_MAX + 1 +
			rn(t, 1 << 20);
		memcpy(a, &argsz, 4);
		k->ex = EXPECT1(E2BIG);
		break;
	case MODE_TAIL:
		argsz = size + 1 + rn(t, IPU_ARGSZ_MAX - size);
		memset(a + size, 0, argsz - size);
		memcpy(a, &argsz, 4);
		if (chance(t, 70)) {
			a[size + rn(t, argsz - size)] = 1 + rn(t, 255);
			k->ex = EXPECT1(E2BIG);
		} else {
			k->mode = MODE_VALID;	/* zeros: as if it were size */
		}
		break;
	case MODE_FLAG: {
		uint32_t bit;

		do {
			bit = 1u << rn(t, 32);
		} while (bit & m->flags_ok);
		*flags |= bit;
		k->ex = EXPECT1(EINVAL);
		break;
	}
	case MODE_RES: {
		int i = rn(t, m->nres ? m->nres : 1);

		memcpy(&argsz, a, 4);
		/*
		 * Only a field the kernel reads (within argsz); RESET's
		 * reserved2 is checked from uAPI 1.3 on.
		 */
		if (!m->nres || m->res[i].off + m->res[i].len > argsz ||
		    (kind == K_RESET && i == 1 && t->f->api_minor < 3)) {
			k->mode = MODE_GARBAGE;
			goto garbage;
		}
		a[m->res[i].off + rn(t, m->res[i].len)] = 1 + rn(t, 255);
		k->ex = EXPECT1(EINVAL);
		break;
	}
	case MODE_BADPTR:
		k->p = (void *)(uintptr_t)bad_ptr(t);
		k->ex = EXPECT1(EFAULT);
		break;
	case MODE_STRADDLE:
		/* argsz and flags readable, the rest in the PROT_NONE page */
		k->p = t->args + 3 * PAGE - 8;
		memcpy(k->p, a, 8);
		k->ex = EXPECT1(EFAULT);
		break;
	case MODE_RO:
		k->p = t->args + 3 * PAGE - ((size + 7) & ~7ul);
		memcpy(k->p, a, size);
		mprotect(t->args + 2 * PAGE, PAGE, PROT_READ);
		if (kind == K_INFO || (kind == K_LINKS && links_stride_ok(a)))
			k->ex = EXPECT1(EFAULT);	/* written back */
		break;
	case MODE_GARBAGE:
garbage:
		for (size_t i = 4; i < size; i++)
			a[i] = chance(t, 50) ? 0 : rnd(t);
		break;
	}
	if (m->needs_write && ro_file)
		k->ex = EXPECT1(EPERM);	/* checked before the argument */
	if (kind == K_NULL)
		k->ex = EXPECT1(0);	/* the argument is ignored */
}

/* After the ioctl: the output back into @s (from where it was written). */
static void post(struct thr *t, struct call *k, void *s, size_t size)
{
	if (k->mode == MODE_RO)
		mprotect(t->args + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE);
	if (k->p == t->args)
		memcpy(s, t->args, size);
}

static int xioctl(int fd, unsigned long nr, void *p)
{
	return ioctl(fd, nr, p) ? errno : 0;
}

/* One ioctl of @kind for @op: prepared, run, recorded. Returns the errno. */
static int do_ioctl(struct thr *t, int op, int kind, int fd, void *s,
		    size_t size, struct call *k, const struct expect *ex)
{
	int ro_file = fd == t->f->ro_fd;
	int err;

	prep(t, kind, s, size, ro_file, k);
	err = xioctl(fd, kmeta[kind].nr, k->p);
	post(t, k, s, size);
	/* The operation's own expectation holds for its own arguments. */
	if (k->mode != MODE_VALID && k->mode != MODE_RO)
		ex = NULL;
	record(t, op, err, k->ex.n ? &k->ex : ex);
	end(t, err);
	return err;
}

static int pick_fd(struct thr *t)
{
	return chance(t, 4) ? t->f->ro_fd : t->f->fd;
}

/* ---- memory for BUF_PIN and user_ptr ---- */

enum { MEM_ARENA, MEM_MALLOC, MEM_MAP, MEM_RO, MEM_HOLE, MEM_KERNEL,
       MEM_NULL, MEM_NONCANON, MEM_WRAP, MEM_UQRING, MEM_DB, MEM_HEAP };

static const char *const mem_names[] = {
	"arena", "malloc", "bufmap", "ro", "hole", "kernel", "null",
	"noncanon", "wrap", "uqring", "doorbell", "heap",
};

struct range {
	uint64_t addr, len;
	int kind;
	int lock;		/* 1: maplock (rd), 2: uq_lock */
};

static uint64_t pick_len(struct thr *t, uint64_t max)
{
	switch (rn(t, 10)) {
	case 0: return 1 + rn(t, 64);
	case 1: return max;
	case 2: return PAGE + rn(t, 3);
	default: return 1 + rn(t, max);
	}
}

/* Memory the card may write without harm, or that must fail (@dma). */
static void pick_mem(struct thr *t, uint64_t len, int readonly_ok,
		     struct range *r)
{
	struct ffile *f = t->f;
	int w = rn(t, 100);

	memset(r, 0, sizeof(*r));
	r->len = len;
	if (w < 30) {
		r->kind = MEM_ARENA;
	} else if (w < 45) {
		r->kind = MEM_MALLOC;
	} else if (w < 62) {
		r->kind = MEM_MAP;
	} else if (w < 70) {
		r->kind = readonly_ok ? MEM_HEAP : MEM_RO;
		if (readonly_ok && chance(t, 50))
			r->kind = MEM_RO;
	} else if (w < 80) {
		r->kind = chance(t, 50) ? MEM_UQRING : MEM_DB;
	} else {
		r->kind = MEM_HOLE + rn(t, 5);
	}
	switch (r->kind) {
	case MEM_ARENA:
	case MEM_MALLOC: {
		uint8_t *base = r->kind == MEM_ARENA ? M.arena : M.mallocd;
		uint64_t size = r->kind == MEM_ARENA ? ARENA_BYTES : MALLOC_BYTES;

		if (r->len > size)
			r->len = size;
		r->addr = (uintptr_t)base + rn(t, size - r->len + 1);
		return;
	}
	case MEM_MAP:
		pthread_rwlock_rdlock(&f->maplock);
		if (f->nmaps) {
			struct fmap *mp = &f->maps[rn(t, f->nmaps)];

			if (r->len > mp->len)
				r->len = mp->len;
			r->addr = (uintptr_t)mp->addr +
				  rn(t, mp->len - r->len + 1);
			r->lock = 1;
			/*
			 * Now and then without the lock: the pin races with
			 * munmap, mremap and madvise. (Nothing but driver
			 * mappings is mmap()ed while the threads run, so a
			 * reused address is never the test's own memory.)
			 */
			if (chance(t, 30)) {
				pthread_rwlock_unlock(&f->maplock);
				r->lock = 0;
			}
			return;
		}
		pthread_rwlock_unlock(&f->maplock);
		r->kind = MEM_ARENA;
		if (r->len > ARENA_BYTES)
			r->len = ARENA_BYTES;
		r->addr = (uintptr_t)M.arena + rn(t, ARENA_BYTES - r->len + 1);
		return;
	case MEM_RO:
		if (r->len > RO_BYTES)
			r->len = RO_BYTES;
		r->addr = (uintptr_t)M.ro + rn(t, RO_BYTES - r->len + 1);
		return;
	case MEM_HEAP:
		if (r->len > t->loadbuf_len)
			r->len = t->loadbuf_len;
		r->addr = (uintptr_t)t->loadbuf;
		return;
	case MEM_UQRING:
	case MEM_DB:
		if (!pthread_mutex_trylock(&f->uq_lock)) {
			const void *p = r->kind == MEM_DB ? (const void *)f->db :
					chance(t, 50) ? (const void *)f->sq :
					(const void *)f->cq;

			if (p) {
				r->lock = 2;
				r->addr = (uintptr_t)p;
				if (r->len > PAGE)
					r->len = PAGE;
				return;
			}
			pthread_mutex_unlock(&f->uq_lock);
		}
		r->kind = MEM_HOLE;
		/* fall through */
	case MEM_HOLE:
		if (r->len > HOLE_BYTES)
			r->len = HOLE_BYTES;
		r->addr = (uintptr_t)M.hole + rn(t, HOLE_BYTES - r->len + 1);
		return;
	case MEM_KERNEL:
		r->addr = KERNEL_PTR + rn(t, 1 << 20);
		return;
	case MEM_NULL:
		r->addr = 0;
		return;
	case MEM_NONCANON:
		r->addr = NONCANON_PTR;
		return;
	case MEM_WRAP:
		r->addr = UINT64_MAX - rn(t, 4096);
		if (r->len < 8192)
			r->len = 8192;
		return;
	}
}

static void put_mem(struct ffile *f, struct range *r)
{
	if (r->lock == 1)
		pthread_rwlock_unlock(&f->maplock);
	else if (r->lock == 2)
		pthread_mutex_unlock(&f->uq_lock);
	r->lock = 0;
}

/* Memory no pin and no card write may succeed on. */
static int mem_bad(const struct range *r, int card_writes)
{
	switch (r->kind) {
	case MEM_HOLE: case MEM_KERNEL: case MEM_NONCANON: case MEM_WRAP:
	case MEM_DB:
		return 1;
	case MEM_RO:
	case MEM_UQRING:	/* driver pages, but the card's to write */
		return card_writes;
	case MEM_NULL:
		return 1;	/* BUF_PIN: address 0 is never mapped */
	}
	return 0;
}

/* ---- buffers ---- */

static int buf_pick(struct thr *t, struct fbuf *out)
{
	struct ffile *f = t->f;
	int ok = 0;

	pthread_mutex_lock(&f->lock);
	if (f->nbufs) {
		*out = f->bufs[rn(t, f->nbufs)];
		ok = 1;
	}
	pthread_mutex_unlock(&f->lock);
	return ok;
}

static void buf_add(struct ffile *f, uint32_t handle, int alloc,
		    uint64_t size, uint64_t off)
{
	pthread_mutex_lock(&f->lock);
	if (f->nbufs < MAX_BUFS)
		f->bufs[f->nbufs++] = (struct fbuf){ handle, alloc, size, off };
	pthread_mutex_unlock(&f->lock);
}

static void buf_del(struct ffile *f, uint32_t handle)
{
	pthread_mutex_lock(&f->lock);
	for (int i = 0; i < f->nbufs; i++) {
		if (f->bufs[i].handle == handle) {
			f->bufs[i] = f->bufs[--f->nbufs];
			break;
		}
	}
	pthread_mutex_unlock(&f->lock);
}

static void bufs_forget(struct ffile *f)
{
	pthread_mutex_lock(&f->lock);
	f->nbufs = 0;
	pthread_mutex_unlock(&f->lock);
}

/* ---- the operations ---- */

static void op_info(struct thr *t)
{
	struct ipu_info s = { .argsz = sizeof(s) };
	int fd = pick_fd(t), err;
	struct call k;

	begin(t, "GET_INFO fd %s", fd == t->f->fd ? "rw" : "ro");
	err = do_ioctl(t, OP_INFO, K_INFO, fd, &s, sizeof(s), &k, NULL);
	if (!err && k.mode == MODE_VALID) {
		if (s.argsz != sizeof(s) || s.api_version >> 16 != 1 ||
		    s.state > IPU_DEV_STATE_FAILED ||
		    !memchr(s.serial, 0, sizeof(s.serial)))
			fail(t, "GET_INFO: argsz %u api %#x state %u", s.argsz,
			     s.api_version, s.state);
	}
}

/* At most one real reset per 300 ms (a reset costs the card 10 ms+). */
static int reset_allowed(void)
{
	int64_t now = ipu_now_ms(), last = __atomic_load_n(&R->last_reset_ms,
							  __ATOMIC_RELAXED);

	return now - last >= 300 &&
	       __atomic_compare_exchange_n(&R->last_reset_ms, &last, now, 0,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static void op_reset(struct thr *t)
{
	static const uint32_t tmo[] = { 1, 5, 20, 50, 100, 300, 0 };
	struct ipu_reset s = { .argsz = sizeof(s) };
	int fd = pick_fd(t), real = reset_allowed(), saved = t->corrupt_pct;
	struct expect ex = EXPECT_ANY;
	struct call k;
	int err;

	s.flags = rn(t, 4);
	s.timeout_ms = tmo[rn(t, 7)];
	if (chance(t, 15))
		s.argsz = offsetof(struct ipu_reset, holder_pid);  /* 1.0 */
	if (!real) {
		/* Only arguments the driver refuses before resetting. */
		t->corrupt_pct = 100;
		if (chance(t, 30)) {
			s.timeout_ms = 60001 + rn(t, 1 << 20);
			t->corrupt_pct = 0;
			ex = fd == t->f->ro_fd ? EXPECT1(EPERM) :
			     EXPECT1(EINVAL);
		}
	}
	begin(t, "RESET fd %s flags %#x timeout %u%s", fd == t->f->fd ?
	      "rw" : "ro", s.flags, s.timeout_ms, real ? "" : " (refused)");
	for (;;) {
		prep(t, K_RESET, &s, sizeof(s), fd == t->f->ro_fd, &k);
		if (real || k.ex.n || ex.n)
			break;
		post(t, &k, &s, sizeof(s));	/* would reset: another one */
	}
	t->corrupt_pct = saved;
	err = xioctl(fd, IPU_IOCTL_RESET, k.p);
	post(t, &k, &s, sizeof(s));
	record(t, OP_RESET, err, k.ex.n ? &k.ex : k.mode == MODE_VALID ||
	       k.mode == MODE_RO ? &ex : NULL);
	end(t, err);
	if (err == EBUSY && k.mode == MODE_VALID && s.argsz == sizeof(s) &&
	    t->f->api_minor >= 3 && s.holder_pid <= 0)
		fail(t, "RESET: EBUSY without the holder (pid %d)",
		     s.holder_pid);
}

static void uq_forget(struct ffile *f)
{
	pthread_mutex_lock(&f->uq_lock);
	f->uq_running = 0;
	pthread_mutex_unlock(&f->uq_lock);
}

static void op_attach(struct thr *t)
{
	struct ipu_attach s = { .argsz = sizeof(s) };
	int fd = pick_fd(t), err;
	struct call k;

	s.flags = chance(t, 60) ? IPU_ATTACH_FLAG_NONBLOCK : 0;
	begin(t, "ATTACH fd %s flags %#x", fd == t->f->fd ? "rw" : "ro",
	      s.flags);
	err = do_ioctl(t, OP_ATTACH, K_ATTACH, fd, &s, sizeof(s), &k, NULL);
	if (!err && k.mode == MODE_VALID) {
		__atomic_fetch_add(&R->attached_epochs, 1, __ATOMIC_RELAXED);
		uq_forget(t->f);
		bufs_forget(t->f);
	}
}

static void op_detach(struct thr *t)
{
	struct ipu_attach s = { .argsz = sizeof(s) };
	int fd = pick_fd(t), err;
	struct call k;

	begin(t, "DETACH fd %s", fd == t->f->fd ? "rw" : "ro");
	/* (a killed process's flag: see reap()) */
	__atomic_store_n(&R->slots[t->idx].detaching, 1, __ATOMIC_SEQ_CST);
	err = do_ioctl(t, OP_DETACH, K_DETACH, fd, &s, sizeof(s), &k, NULL);
	__atomic_fetch_add(&R->detaches, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&R->slots[t->idx].detaching, 0, __ATOMIC_SEQ_CST);
	if (!err) {
		bufs_forget(t->f);
		uq_forget(t->f);
		t->nout = 0;
	}
}

static uint64_t pick_buf_size(struct thr *t)
{
	switch (rn(t, 20)) {
	case 0: return 0;
	case 1: return (1ull << 30) + 1 + rn(t, 1 << 20);
	case 2: case 3: return (64 << 10) + rn(t, 1 << 20);
	default: return 1 + rn(t, 64 << 10);
	}
}

static void op_alloc(struct thr *t)
{
	struct ipu_buf s = { .argsz = sizeof(s) };
	struct expect ex = EXPECT_ANY;
	struct call k;
	int err;

	s.size = pick_buf_size(t);
	if (!s.size || s.size > (1ull << 30))
		ex = EXPECT1(EINVAL);
	if (chance(t, 3)) {
		s.user_addr = (uintptr_t)M.arena;	/* not for ALLOC */
		ex = EXPECT1(EINVAL);
	}
	begin(t, "BUF_ALLOC size %llu", (unsigned long long)s.size);
	err = do_ioctl(t, OP_ALLOC, K_ALLOC, t->f->fd, &s, sizeof(s), &k, &ex);
	if (!err && k.mode == MODE_VALID) {
		if (!s.handle || !s.mmap_offset || s.mmap_offset % PAGE)
			fail(t, "BUF_ALLOC: handle %u mmap_offset %#llx",
			     s.handle, (unsigned long long)s.mmap_offset);
		buf_add(t->f, s.handle, 1, s.size, s.mmap_offset);
	}
}

static void op_pin(struct thr *t)
{
	struct ipu_buf s = { .argsz = sizeof(s) };
	struct expect ex = EXPECT_ANY;
	struct range r;
	struct call k;
	int err;

	pick_mem(t, pick_len(t, 256 << 10), 0, &r);
	s.user_addr = r.addr;
	s.size = r.len;
	if (chance(t, 4)) {
		s.size = chance(t, 50) ? 0 : (1ull << 30) + 1;
		ex = EXPECT1(EINVAL);
	} else if (mem_bad(&r, 1)) {
		/* Unmapped, read-only, I/O or kernel memory is never pinned. */
		ex = EXPECT3(EFAULT, ENOTCONN, EBUSY);
	}
	begin(t, "BUF_PIN %s %#llx+%llu", mem_names[r.kind],
	      (unsigned long long)s.user_addr, (unsigned long long)s.size);
	err = do_ioctl(t, OP_PIN, K_PIN, t->f->fd, &s, sizeof(s), &k, &ex);
	put_mem(t->f, &r);
	if (!err && k.mode == MODE_VALID)
		buf_add(t->f, s.handle, 0, s.size, 0);
}

static void op_free(struct thr *t)
{
	struct ipu_buf s = { .argsz = sizeof(s) };
	struct expect ex = EXPECT_ANY;
	struct fbuf b;
	struct call k;
	int err, w = rn(t, 20);

	if (w < 16 && buf_pick(t, &b)) {
		s.handle = b.handle;
	} else if (w < 18) {
		s.handle = 1 + rn(t, 1000);
	} else {
		s.handle = 0;
		ex = EXPECT2(ENOENT, ENOTCONN);
	}
	if (chance(t, 3)) {
		s.size = 1;
		ex = EXPECT1(EINVAL);
	}
	begin(t, "BUF_FREE %u", s.handle);
	err = do_ioctl(t, OP_FREE, K_FREE, t->f->fd, &s, sizeof(s), &k, &ex);
	if ((!err || err == ENOENT) && k.mode == MODE_VALID)
		buf_del(t->f, s.handle);
}

static const char *const op_names[] = {
	"?", "LOAD", "WRITE", "READ", "RUN", "FENCE", "ABORT", "STREAM_BIND",
};

/* A DETACH in progress (any thread or process on the card). */
static int detach_busy(void)
{
	for (int i = 0; i < SLOTS; i++)
		if (__atomic_load_n(&R->slots[i].detaching, __ATOMIC_SEQ_CST))
			return 1;
	return 0;
}

/* SUBMIT of @c; the seq and status checks. Returns the errno. */
static int submit(struct thr *t, int op, struct ipu_cmd *c,
		  const struct expect *ex, const char *src)
{
	uint64_t detaches = __atomic_load_n(&R->detaches, __ATOMIC_SEQ_CST);
	int detaching = detach_busy();
	uint32_t flags = c->flags;
	struct call k;
	int err;

	c->argsz = chance(t, 8) ? offsetof(struct ipu_cmd, run) : sizeof(*c);
	begin(t, "SUBMIT %s%s h %u off %llu len %llu %s %#llx buf %u+%llu "
	      "count %u", c->opcode < 8 ? op_names[c->opcode] : "op?",
	      flags & IPU_CMD_FLAG_ASYNC ? " ASYNC" : "", c->handle,
	      (unsigned long long)c->offset, (unsigned long long)c->length,
	      src, (unsigned long long)c->user_ptr, c->buf,
	      (unsigned long long)c->buf_offset, c->count);
	err = do_ioctl(t, op, K_SUBMIT, t->f->fd, c, sizeof(*c), &k, ex);
	if (k.mode != MODE_VALID)
		return err;
	if (!err || (err == EINTR && !(flags & IPU_CMD_FLAG_ASYNC)))
		seq_issued(t, c->seq, ops[op].name);
	if (!err && !(flags & IPU_CMD_FLAG_ASYNC)) {
		seq_collected(t, c->seq, ops[op].name);
		check_status(t, ops[op].name, c->seq, c->status, c->detail);
		if (c->opcode == IPU_CMD_LOAD && c->msg_ptr ==
		    (uintptr_t)t->msg && c->status == IPU_STATUS_LOAD_FAILED &&
		    !memchr(t->msg, 0, sizeof(t->msg))) {
			/*
			 * The message must be there, NUL-terminated, also
			 * when a DETACH took the completed command off the
			 * list meanwhile (the driver keeps it for its
			 * submitter).
			 */
			fail(t, "LOAD_FAILED without its message%s [%s]",
			     detaching || detach_busy() ||
			     __atomic_load_n(&R->detaches, __ATOMIC_SEQ_CST) !=
			     detaches ? " (a DETACH meanwhile)" : "",
			     R->slots[t->idx].cur);
		}
	}
	if ((!err && (flags & IPU_CMD_FLAG_ASYNC)) || err == EINTR)
		out_add(t, c->seq);
	return err;
}

static uint32_t cmd_flags(struct thr *t)
{
	return chance(t, t->async_pct) ? IPU_CMD_FLAG_ASYNC : 0;
}

static void op_load(struct thr *t)
{
	struct ipu_cmd c = { .opcode = IPU_CMD_LOAD };
	struct expect ex = EXPECT_ANY;
	const char *what = "graph";
	int w = rn(t, 100);

	c.flags = chance(t, 25) ? IPU_CMD_FLAG_ASYNC : 0;
	if (w < 55) {
		c.user_ptr = (uintptr_t)g_graph;
		c.length = g_glen;
	} else if (w < 65 && g_sgraph) {
		c.user_ptr = (uintptr_t)g_sgraph;
		c.length = g_sglen;
		what = "stream graph";
	} else {
		/* A corrupted binary: flipped bytes, cut, or noise. */
		size_t n = g_glen;

		memcpy(t->loadbuf, g_graph, g_glen);
		what = "corrupted graph";
		switch (rn(t, 4)) {
		case 0:
			n = 1 + rn(t, g_glen);
			break;
		case 1:
			for (size_t i = 0; i < 64 && i < t->loadbuf_len; i++)
				t->loadbuf[rn(t, 64)] = rnd(t);
			break;
		case 2:
			n = 1 + rn(t, t->loadbuf_len);
			for (size_t i = 0; i < n; i++)
				t->loadbuf[i] = rnd(t);
			break;
		default:
			for (int i = 1 + rn(t, 8); i > 0; i--)
				t->loadbuf[rn(t, g_glen)] ^= 1 + rn(t, 255);
		}
		c.user_ptr = (uintptr_t)t->loadbuf;
		c.length = n;
	}
	switch (rn(t, 10)) {
	case 0: case 1: case 2: case 3: case 4:
		c.msg_ptr = (uintptr_t)t->msg;
		memset(t->msg, 0x5a, sizeof(t->msg));
		break;
	case 5:
		c.msg_ptr = KERNEL_PTR;
		ex = EXPECT1(EFAULT);		/* before anything else */
		break;
	case 6:
		c.msg_ptr = (uintptr_t)M.ro;	/* only written on failure */
		break;
	}
	submit(t, OP_LOAD, &c, &ex, what);
}

static void op_xfer(struct thr *t, int read)
{
	struct ipu_cmd c = { .opcode = read ? IPU_CMD_READ : IPU_CMD_WRITE };
	struct expect ex = EXPECT_ANY;
	int w = rn(t, 10);
	uint64_t tsz = T_SMALL;
	const char *src = "buf";
	struct range r = { 0 };
	struct fbuf b;

	c.flags = cmd_flags(t);
	if (w < 4) {
		c.handle = read ? H_Y : H_X;
	} else if (w < 8) {
		c.handle = H_BIG;
		tsz = BIG_BYTES;
	} else if (w < 9) {
		c.handle = read ? H_X : H_Y;		/* ACCESS */
	} else {
		c.handle = rn(t, 6);
	}
	c.length = pick_len(t, tsz);
	if (chance(t, 5))
		c.length = tsz + 1 + rn(t, 3 << 20);
	if (c.length <= tsz && chance(t, 50))
		c.offset = rn(t, tsz - c.length + 1);
	else if (chance(t, 5))
		c.offset = rnd(t);
	if (chance(t, 50) && buf_pick(t, &b)) {
		c.buf = b.handle;
		if (chance(t, 30))
			c.buf_offset = rn(t, b.size + 2);
		if (c.length > b.size && chance(t, 80))
			c.length = b.size;
	} else {
		pick_mem(t, c.length, !read, &r);
		c.length = r.len;
		c.user_ptr = r.addr;
		src = mem_names[r.kind];
		if (r.kind == MEM_NULL) {
			/* user_ptr 0: a command on buffer @buf, or EINVAL */
			c.buf = chance(t, 50) ? 1 + rn(t, 10) : 0;
			if (!c.buf)
				ex = EXPECT1(EINVAL);
		} else if (mem_bad(&r, read)) {
			ex = EXPECT4(EFAULT, ENOTCONN, EAGAIN, EBUSY);
		}
	}
	submit(t, read ? OP_READ : OP_WRITE, &c, &ex, src);
	put_mem(t->f, &r);
}

static void op_run(struct thr *t)
{
	struct ipu_cmd c = { .opcode = IPU_CMD_RUN };
	int w = rn(t, 100);

	c.flags = cmd_flags(t);
	if (w < 80) {
		c.handle = P_DOUBLE;
		c.count = rn(t, 4);
	} else if (w < 83) {
		/* Until ABORT, a reset or the detach: never waited for. */
		c.handle = P_SPIN;
		c.flags = IPU_CMD_FLAG_ASYNC;
	} else {
		c.handle = rn(t, 100);
		c.count = rn(t, 3);
	}
	submit(t, OP_RUN, &c, NULL, "-");
}

static void op_simple(struct thr *t, int op, uint32_t opcode)
{
	struct ipu_cmd c = { .opcode = opcode };

	c.flags = cmd_flags(t);
	submit(t, op, &c, NULL, "-");
}

static void op_bind(struct thr *t)
{
	struct ipu_cmd c = { .opcode = IPU_CMD_STREAM_BIND };
	struct fbuf b;

	c.flags = cmd_flags(t);
	c.handle = rn(t, 3);
	if (chance(t, 25) || !buf_pick(t, &b)) {
		c.length = 0;			/* unbind */
	} else {
		c.buf = b.handle;
		c.length = chance(t, 60) ? S_RING : chance(t, 50) ?
			   S_ELEMS * 4 : 1 + rn(t, S_RING * 2);
		if (c.length > b.size && chance(t, 70))
			c.length = b.size;
		if (chance(t, 20))
			c.buf_offset = rn(t, b.size + 1);
	}
	submit(t, OP_BIND, &c, NULL, "buf");
}

/* Field combinations SUBMIT refuses before anything else: EINVAL. */
static void op_badcmd(struct thr *t)
{
	struct ipu_cmd c = { .opcode = IPU_CMD_FENCE };
	struct expect ex = EXPECT1(EINVAL);

	c.flags = cmd_flags(t);
	switch (rn(t, 12)) {
	case 0: c.opcode = chance(t, 50) ? 0 : 8 + rn(t, 250); break;
	case 1: c.msg_ptr = (uintptr_t)t->msg; c.opcode = IPU_CMD_RUN; break;
	case 2: c.length = 1 + rn(t, 100); break;
	case 3:
		c.opcode = IPU_CMD_WRITE;
		c.user_ptr = (uintptr_t)M.arena;
		c.buf = 1;
		c.length = 4;
		break;
	case 4:
		c.opcode = IPU_CMD_LOAD;
		c.user_ptr = (uintptr_t)g_graph;
		c.length = g_glen;
		c.handle = 1 + rn(t, 4);
		break;
	case 5:
		c.opcode = IPU_CMD_STREAM_BIND;
		c.user_ptr = (uintptr_t)M.arena;
		c.length = S_RING;
		break;
	case 6:
		c.opcode = IPU_CMD_STREAM_BIND;
		c.buf = 1;
		c.length = S_RING;
		c.count = 1;
		break;
	case 7:
		c.opcode = IPU_CMD_READ;
		c.user_ptr = (uintptr_t)M.arena;
		c.length = IPU_MAX_TRANSFER_BYTES + rn(t, 100);
		break;
	case 8: c.opcode = IPU_CMD_RUN; c.offset = 1 + rn(t, 100); break;
	case 9:
		c.opcode = IPU_CMD_WRITE;
		c.user_ptr = (uintptr_t)M.arena;
		c.buf_offset = 1 + rn(t, 64);
		c.length = 4;
		break;
	case 10: c.opcode = IPU_CMD_ABORT; c.count = 1 + rn(t, 5); break;
	default:
		c.opcode = IPU_CMD_READ;	/* no data */
		c.length = 64;
		break;
	}
	submit(t, OP_BADCMD, &c, &ex, "-");
}

static void op_wait(struct thr *t)
{
	static const uint32_t tmo[] = { 0, 0, 0, 0, 1, 1, 2, 5, 20, 100 };
	struct ipu_wait s = { .argsz = sizeof(s) };
	struct call k;
	int err, any;

	if (t->nout && chance(t, 50)) {
		s.seq = t->out[rn(t, t->nout)];
	} else if (chance(t, 80)) {
		s.flags = IPU_WAIT_FLAG_ANY;
	} else {
		s.seq = chance(t, 50) ? rnd(t) : t->last_seq + rn(t, 3);
	}
	any = s.flags & IPU_WAIT_FLAG_ANY;
	s.timeout_ms = chance(t, 2) ? UINT32_MAX : tmo[rn(t, 10)];
	if (chance(t, 8))
		s.argsz = offsetof(struct ipu_wait, run);
	begin(t, "WAIT %s%llu timeout %u", any ? "ANY " : "seq ",
	      (unsigned long long)s.seq, s.timeout_ms);
	err = do_ioctl(t, OP_WAIT, K_WAIT, t->f->fd, &s, sizeof(s), &k, NULL);
	if (k.mode != MODE_VALID)
		return;
	if (!err) {
		seq_collected(t, s.seq, "WAIT");
		check_status(t, "WAIT", s.seq, s.status, s.detail);
		out_del(t, s.seq);
	} else if (err == ENOENT && !any) {
		out_del(t, s.seq);
	} else if (err == ENOTCONN) {
		t->nout = 0;
	}
}

static void op_eventfd(struct thr *t)
{
	struct ipu_eventfd s = { .argsz = sizeof(s) };
	struct expect ex = EXPECT_ANY;
	struct call k;
	uint64_t v;

	switch (rn(t, 10)) {
	case 0: case 1: case 2: case 3: case 4: s.fd = t->f->efd; break;
	case 5: case 6: s.fd = -1; break;
	case 7: s.fd = 1000 + rn(t, 1000); break;	/* not open */
	case 8: s.fd = t->f->fd; ex = EXPECT2(EINVAL, ENOTCONN); break;
	default: s.fd = -2 - rn(t, 100); ex = EXPECT1(EINVAL); break;
	}
	begin(t, "SET_EVENTFD %d", s.fd);
	do_ioctl(t, OP_EVENTFD, K_EVENTFD, t->f->fd, &s, sizeof(s), &k, &ex);
	if (read(t->f->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		fail(t, "eventfd read: %s", ename(errno));
}

static void op_null(struct thr *t)
{
	struct expect ex = EXPECT1(0);
	uint64_t p = chance(t, 50) ? (uintptr_t)t->args : bad_ptr(t);
	int fd = pick_fd(t), err;

	begin(t, "NULL %#llx", (unsigned long long)p);
	err = xioctl(fd, IPU_IOCTL_NULL, (void *)(uintptr_t)p);
	record(t, OP_NULL, err, &ex);
	end(t, err);
}

/*
 * LINKS (API 1.5) with a random count, stride and records pointer: valid
 * arguments return the card's ports, port by port; a bad stride is EINVAL,
 * records that cannot be written EFAULT.
 */
static void op_links(struct thr *t)
{
	static const uint32_t strides[] = { sizeof(struct ipu_link), 96, 136,
					    8, sizeof(struct ipu_link) + 4 };
	uint8_t recs[IPU_LINK_PORTS_MAX * 136];
	struct ipu_link_list s = { .argsz = sizeof(s) };
	int fd = pick_fd(t), err, bad_ptr_used = 0;
	struct expect ex = EXPECT1(0);
	uint32_t stride, want;
	struct call k;

	s.count = rn(t, IPU_LINK_PORTS_MAX + 2);
	s.record_size = strides[rn(t, 8) < 6 ? rn(t, 3) : 3 + rn(t, 2)];
	s.links_ptr = (uintptr_t)recs;
	if (chance(t, 20)) {
		s.links_ptr = bad_ptr(t);
		bad_ptr_used = 1;
	}
	if (s.record_size % 8 || s.record_size < sizeof(struct ipu_link))
		ex = EXPECT1(EINVAL);
	else if (bad_ptr_used && s.count)
		ex = EXPECT2(0, EFAULT);	/* 0: a card without links */
	stride = s.record_size;
	want = s.count;
	begin(t, "LINKS count %u stride %u ptr %#llx", s.count, s.record_size,
	      (unsigned long long)s.links_ptr);
	err = do_ioctl(t, OP_LINKS, K_LINKS, fd, &s, sizeof(s), &k, &ex);
	if (err || k.mode != MODE_VALID || bad_ptr_used)
		return;
	if (s.record_size != sizeof(struct ipu_link) || s.count > IPU_LINK_PORTS_MAX)
		fail(t, "LINKS: record_size %u count %u", s.record_size, s.count);
	for (uint32_t i = 0; i < want && i < s.count; i++) {
		struct ipu_link l;

		memcpy(&l, recs + (size_t)i * stride, sizeof(l));
		if (l.port != i || l.state > IPU_LINKSTATE_FAILED || l.reserved[0])
			fail(t, "LINKS: record %u: port %u state %u", i, l.port,
			     l.state);
	}
}

static void op_badnr(struct thr *t)
{
	struct expect ex = EXPECT1(ENOTTY);
	unsigned long nr;
	int err;

	if (chance(t, 50))
		nr = _IO(IPU_IOCTL_MAGIC, 0x0e + rn(t, 0xf2));
	else	/* a known number with a size and direction: another ioctl */
		nr = _IOC(1 + rn(t, 3), IPU_IOCTL_MAGIC, rn(t, 0x0d),
			  8 + rn(t, 200));
	begin(t, "ioctl %#lx", nr);
	err = xioctl(pick_fd(t), nr, t->args);
	record(t, OP_BADNR, err, &ex);
	end(t, err);
}

/* ---- the user queue ---- */

static int guarded_store(volatile uint32_t *p, uint32_t v)
{
	if (sigsetjmp(bus_jmp, 1)) {
		bus_armed = 0;
		return -1;
	}
	bus_armed = 1;
	*p = v;
	bus_armed = 0;
	return 0;
}

static uint32_t guarded_load(const volatile uint8_t *p, int *faulted)
{
	uint32_t v;

	if (sigsetjmp(bus_jmp, 1)) {
		bus_armed = 0;
		*faulted = 1;
		return 0;
	}
	bus_armed = 1;
	v = *p;
	bus_armed = 0;
	return v;
}

/* uq_lock held: the pieces mapped at the offsets UQUEUE returned. */
static void uq_map(struct thr *t)
{
	struct ffile *f = t->f;
	size_t rsz = (f->uqi.entries * sizeof(struct ipu_sqe) + PAGE - 1) &
		     ~(PAGE - 1);
	size_t csz = (f->uqi.entries * sizeof(struct ipu_cqe) + PAGE - 1) &
		     ~(PAGE - 1);
	size_t esz = (f->uqi.entries * IPU_RUN_RECORD_SIZE + PAGE - 1) &
		     ~(PAGE - 1);
	void *p;

	if (!f->sq || f->map_sq != f->uqi.sq_offset) {
		p = mmap(NULL, rsz, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd,
			 f->uqi.sq_offset);
		if (p == MAP_FAILED) {
			fail(t, "mmap of the SQ: %s", ename(errno));
			return;
		}
		if (f->sq)
			munmap(f->sq, rsz);
		f->sq = p;
		f->map_sq = f->uqi.sq_offset;
	}
	if (!f->cq || f->map_cq != f->uqi.cq_offset) {
		p = mmap(NULL, csz, PROT_READ, MAP_SHARED, f->fd,
			 f->uqi.cq_offset);
		if (p == MAP_FAILED) {
			fail(t, "mmap of the CQ: %s", ename(errno));
			return;
		}
		if (f->cq)
			munmap((void *)f->cq, csz);
		f->cq = p;
		f->map_cq = f->uqi.cq_offset;
	}
	if (!f->db || f->map_db != f->uqi.db_offset) {
		p = mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, f->fd,
			 f->uqi.db_offset);
		if (p == MAP_FAILED) {
			fail(t, "mmap of the doorbell: %s", ename(errno));
			return;
		}
		if (f->db)
			munmap((void *)f->db, PAGE);
		f->db = p;
		f->map_db = f->uqi.db_offset;
	}
	if (f->uqi.rec_offset && (!f->rec || f->map_rec != f->uqi.rec_offset)) {
		p = mmap(NULL, esz, PROT_READ, MAP_SHARED, f->fd,
			 f->uqi.rec_offset);
		if (p == MAP_FAILED) {
			fail(t, "mmap of the run records: %s", ename(errno));
			return;
		}
		if (f->rec)
			munmap((void *)f->rec, esz);
		f->rec = p;
		f->map_rec = f->uqi.rec_offset;
	}
}

static void op_uqueue(struct thr *t)
{
	struct ffile *f = t->f;
	struct ipu_uqueue s = { .argsz = sizeof(s) };
	struct call k;
	int err;

	pthread_mutex_lock(&f->uq_lock);
	begin(t, "UQUEUE");
	err = do_ioctl(t, OP_UQUEUE, K_UQUEUE, pick_fd(t), &s, sizeof(s), &k,
		       NULL);
	if (!err && k.mode == MODE_VALID) {
		if (!s.entries || (s.entries & (s.entries - 1)) ||
		    s.sq_offset % PAGE || s.cq_offset % PAGE ||
		    s.db_offset % PAGE) {
			fail(t, "UQUEUE: entries %u offsets %#llx %#llx %#llx",
			     s.entries, (unsigned long long)s.sq_offset,
			     (unsigned long long)s.cq_offset,
			     (unsigned long long)s.db_offset);
		} else {
			f->uqi = s;
			f->tail = f->head = 0;
			f->phase = 1;
			f->uq_running = 1;
			uq_map(t);
		}
	}
	pthread_mutex_unlock(&f->uq_lock);
}

/* Submits a few entries on the user queue and consumes what completed. */
static void op_uq_drive(struct thr *t)
{
	struct ffile *f = t->f;
	uint32_t n, room, done = 0;
	struct pollfd pfd;
	int faulted = 0;
	long long t0;

	pthread_mutex_lock(&f->uq_lock);
	if (!f->uq_running || !f->sq || !f->cq || !f->db) {
		pthread_mutex_unlock(&f->uq_lock);
		op_uqueue(t);
		return;
	}
	room = f->uqi.entries - 1 -
	       ((f->tail - f->head) & (f->uqi.entries - 1));
	n = rn(t, 5);
	if (n > room)
		n = room;
	begin(t, "user queue: %u entries at %u (head %u)", n, f->tail,
	      f->head);
	for (uint32_t i = 0; i < n; i++) {
		struct ipu_sqe *e = &f->sq[f->tail];
		int w = rn(t, 100);

		memset(e, 0, sizeof(*e));
		e->cid = rnd(t);
		if (w < 40) {
			e->opcode = IPU_SQE_FENCE;
		} else if (w < 75) {
			e->opcode = IPU_SQE_RUN;
			e->handle = P_DOUBLE;
			e->count = 1 + rn(t, 2);
		} else if (w < 85) {
			e->opcode = IPU_SQE_ABORT;
		} else if (w < 87) {
			e->opcode = IPU_SQE_RUN;
			e->handle = P_SPIN;
		} else {
			/* The card's problem: any opcode and fields. */
			uint8_t *b = (uint8_t *)e;

			for (size_t j = 0; j < sizeof(*e); j++)
				b[j] = chance(t, 70) ? 0 : rnd(t);
			e->opcode = rn(t, 10);
		}
		f->tail = (f->tail + 1) & (f->uqi.entries - 1);
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	if (n && guarded_store(&f->db[IPU_DB_SQ_TAIL / 4], chance(t, 1) ?
			       (uint32_t)rnd(t) : f->tail)) {
		/* SIGBUS: detached meanwhile; the queue is gone. */
		f->uq_running = 0;
		pthread_mutex_unlock(&f->uq_lock);
		end(t, EFAULT);
		count(OP_UQ_DRIVE);
		return;
	}
	t0 = ipu_now_ms();
	while (f->head != f->tail && ipu_now_ms() - t0 < 3) {
		const struct ipu_cqe *c = &f->cq[f->head];
		uint16_t st = __atomic_load_n(&c->status, __ATOMIC_ACQUIRE);

		if ((st & IPU_CQE_PHASE) != f->phase) {
			if (chance(t, 20)) {
				pfd = (struct pollfd){ .fd = f->fd,
						       .events = POLLPRI };
				if (poll(&pfd, 1, 1) == 1 &&
				    (pfd.revents & POLLERR)) {
					f->uq_running = 0;
					break;
				}
			}
			continue;
		}
		/* (a file of this thread alone: its UQUEUE is the last) */
		if (t->role == ROLE_FILES && c->sq_id != f->uqi.queue)
			fail(t, "user queue %u: a completion of queue %u",
			     f->uqi.queue, c->sq_id);
		if (f->rec && chance(t, 30))
			guarded_load(f->rec + f->head * IPU_RUN_RECORD_SIZE,
				     &faulted);
		f->head = (f->head + 1) & (f->uqi.entries - 1);
		if (!f->head)
			f->phase ^= 1;
		done++;
	}
	if (done && guarded_store(&f->db[IPU_DB_CQ_HEAD / 4], f->head))
		f->uq_running = 0;
	if (faulted)
		fail(t, "the run record ring faulted");
	__atomic_fetch_add(&R->uq_completions, done, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&f->uq_lock);
	count(OP_UQ_DRIVE);
	end(t, 0);
}

/* The card's reset generation (GET_INFO, 1.8), or ~0 when unreadable. */
static uint64_t card_generation(int fd)
{
	struct ipu_info info;

	return ipu_get_info(fd, &info) ? ~0ull : info.generation;
}

static int guarded_touch(uint8_t *p, size_t n, int fill);

/* ---- mmap ---- */

static void map_keep(struct thr *t, uint8_t *p, size_t len, int prot)
{
	struct ffile *f = t->f;

	pthread_rwlock_wrlock(&f->maplock);
	if (f->nmaps < MAX_MAPS) {
		f->maps[f->nmaps++] = (struct fmap){ p, len, prot, 0 };
		p = NULL;
	}
	pthread_rwlock_unlock(&f->maplock);
	if (p)
		munmap(p, len);
}

static void op_mmap(struct thr *t)
{
	uint64_t gen;
	static const int prots[] = {
		PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE,
		PROT_READ | PROT_WRITE, PROT_READ, PROT_WRITE, PROT_NONE,
		PROT_READ | PROT_EXEC, PROT_READ | PROT_WRITE | PROT_EXEC,
	};
	struct ffile *f = t->f;
	int prot = prots[rn(t, 8)], flags = MAP_SHARED, fd = f->fd, w, err;
	struct expect ex = EXPECT_ANY;
	uint64_t off = 0, len = PAGE;
	const char *what;
	struct fbuf b;
	uint8_t *p;

	w = rn(t, 100);
	if (w < 50 && buf_pick(t, &b)) {
		uint64_t pages = (b.size + PAGE - 1) / PAGE;
		uint64_t first = chance(t, 20) ? rn(t, pages + 1) : 0;

		what = b.alloc ? "buffer" : "pinned buffer";
		off = b.off + first * PAGE;
		len = (pages - first) * PAGE;
		if (chance(t, 10))
			len += PAGE;
		if (!len)
			len = PAGE;
	} else if (w < 75 && f->uqi.entries) {
		const uint64_t o[4] = { f->uqi.sq_offset, f->uqi.cq_offset,
					f->uqi.db_offset, f->uqi.rec_offset };

		what = "user queue piece";
		off = o[rn(t, 4)] + (chance(t, 20) ? rn(t, 8) * PAGE : 0);
		len = (1 + rn(t, 3)) * PAGE;
	} else if (w < 90) {
		what = "random offset";
		switch (rn(t, 4)) {
		case 0: off = rn(t, 64) * PAGE; break;
		case 1: off = (1 + rn(t, 64)) << 32; break;
		case 2: off = rnd(t) & ~(PAGE - 1) & ((1ull << 52) - 1); break;
		default: off = (1ull << 32) * (1 + rn(t, 8)) + rn(t, 16) * PAGE;
		}
		len = (1 + rn(t, 4)) * PAGE;
	} else if (w < 95) {
		what = "unaligned offset";
		off = PAGE + 1 + rn(t, PAGE - 2);
		ex = EXPECT1(EINVAL);
	} else {
		what = "private mapping";
		flags = MAP_PRIVATE;
		off = (1ull << 32);
		ex = EXPECT1(EINVAL);		/* not MAP_SHARED */
	}
	if (chance(t, 4)) {
		fd = f->ro_fd;
		if ((prot & PROT_WRITE) && flags == MAP_SHARED && !ex.n)
			ex = EXPECT1(EACCES);
	}
	begin(t, "mmap %s off %#llx len %llu prot %d flags %d fd %s", what,
	      (unsigned long long)off, (unsigned long long)len, prot, flags,
	      fd == f->fd ? "rw" : "ro");
	gen = card_generation(f->fd);
	p = mmap(NULL, len, prot, flags, fd, off);
	err = p == MAP_FAILED ? errno : 0;
	record(t, OP_MMAP, err, ex.n ? &ex : NULL);
	end(t, err);
	if (err)
		return;
	/*
	 * Touch it: reads everywhere readable, writes to buffers. A RESET by
	 * another thread may zap a buffer's mapping meanwhile (1.8: SIGBUS);
	 * a fault is a failure only when the card's generation stood still.
	 */
	if (prot & PROT_READ) {
		int faulted = 0;

		for (uint64_t i = 0; i < len; i += PAGE)
			guarded_load(p + i, &faulted);
		if (faulted && fd == f->fd && off >= (1ull << 32) &&
		    card_generation(f->fd) == gen)
			fail(t, "a mapped buffer faulted on read [%s]",
			     R->slots[t->idx].cur);
	}
	if (off >= (1ull << 32) && (prot & PROT_WRITE) &&
	    (prot & PROT_READ) && fd == f->fd && flags == MAP_SHARED &&
	    chance(t, 70) &&
	    !guarded_touch(p, len < 256 ? len : 256, (int)(rnd(t) & 0xff))) {
		map_keep(t, p, len, prot);
		return;
	}
	munmap(p, len);
}

static void op_munmap(struct thr *t)
{
	struct ffile *f = t->f;
	struct fmap m = { 0 };

	begin(t, "munmap");
	if (!pthread_rwlock_trywrlock(&f->maplock)) {
		if (f->nmaps) {
			int i = rn(t, f->nmaps);

			m = f->maps[i];
			f->maps[i] = f->maps[--f->nmaps];
			munmap(m.addr, m.len);
		}
		pthread_rwlock_unlock(&f->maplock);
	}
	count(OP_MUNMAP);
	end(t, 0);
}

/* Fills [p, p + n) with @fill, or reads it when -1: -1 on SIGBUS. */
static int guarded_touch(uint8_t *p, size_t n, int fill)
{
	volatile uint8_t sum = 0;

	if (sigsetjmp(bus_jmp, 1)) {
		bus_armed = 0;
		return -1;
	}
	bus_armed = 1;
	if (fill >= 0)
		memset(p, fill, n);
	else
		for (size_t i = 0; i < n; i += 64)
			sum += p[i];
	bus_armed = 0;
	(void)sum;
	return 0;
}

static void op_touch(struct thr *t)
{
	struct ffile *f = t->f;

	begin(t, "touch");
	pthread_rwlock_rdlock(&f->maplock);
	if (f->nmaps && !f->maps[rn(t, f->nmaps)].zapped) {
		struct fmap *m = &f->maps[rn(t, f->nmaps)];
		size_t o = rn(t, m->len), n = rn(t, m->len - o + 1);

		if (m->zapped)
			goto out;
		/* uAPI 1.8: a reset made the buffer stale and unmapped it. */
		if (guarded_touch(m->addr + o, n, chance(t, 50) ? (int)(rnd(t) & 0xff) : -1))
			__atomic_store_n(&m->zapped, 1, __ATOMIC_RELAXED);
	}
out:
	pthread_rwlock_unlock(&f->maplock);
	count(OP_TOUCH);
	end(t, 0);
}

/* uq_lock held: the mapping of a user-queue piece and its size. */
static void **uq_piece(struct thr *t, size_t *len)
{
	struct ffile *f = t->f;
	uint32_t e = f->uqi.entries;

	switch (rn(t, 4)) {
	case 0:
		*len = (e * sizeof(struct ipu_sqe) + PAGE - 1) & ~(PAGE - 1);
		return (void **)&f->sq;
	case 1:
		*len = (e * sizeof(struct ipu_cqe) + PAGE - 1) & ~(PAGE - 1);
		return (void **)&f->cq;
	case 2:
		*len = PAGE;
		return (void **)&f->db;
	default:
		*len = (e * IPU_RUN_RECORD_SIZE + PAGE - 1) & ~(PAGE - 1);
		return (void **)&f->rec;
	}
}

/* A buffer mapping or a piece of the user queue moves (or grows: EFAULT). */
static void op_mremap(struct thr *t)
{
	struct ffile *f = t->f;
	int err = 0;
	void *p;

	if (chance(t, 60)) {
		struct fmap *m;
		size_t nl;

		begin(t, "mremap of a buffer mapping");
		pthread_rwlock_wrlock(&f->maplock);
		if (!f->nmaps) {
			pthread_rwlock_unlock(&f->maplock);
			count(OP_MREMAP);
			end(t, 0);
			return;
		}
		m = &f->maps[rn(t, f->nmaps)];
		nl = m->len;
		if (chance(t, 10))
			nl += PAGE;		/* VM_DONTEXPAND */
		else if (chance(t, 10) && nl > PAGE)
			nl -= PAGE;
		p = mremap(m->addr, m->len, nl, MREMAP_MAYMOVE);
		if (p == MAP_FAILED) {
			err = errno;
		} else {
			m->addr = p;
			m->len = nl;
		}
		pthread_rwlock_unlock(&f->maplock);
	} else {
		void **piece;
		size_t len;

		begin(t, "mremap of a user-queue piece");
		pthread_mutex_lock(&f->uq_lock);
		piece = uq_piece(t, &len);
		if (*piece) {
			p = mremap(*piece, len, len, MREMAP_MAYMOVE);
			if (p == MAP_FAILED)
				err = errno;
			else
				*piece = p;
		}
		pthread_mutex_unlock(&f->uq_lock);
	}
	record(t, OP_MREMAP, err, NULL);
	end(t, err);
}

/* Advice on a buffer mapping: DONTNEED (the pages go), POPULATE, ... */
static void op_madvise(struct thr *t)
{
	struct ffile *f = t->f;
	struct fmap *m;
	size_t o, n;
	int adv, err = 0;

	/* 0..29: the advice of 6.1 but HWPOISON and SOFT_OFFLINE (100+) */
	adv = chance(t, 40) ? MADV_DONTNEED : (int)rn(t, 30);
	begin(t, "madvise %d", adv);
	pthread_rwlock_wrlock(&f->maplock);
	if (f->nmaps) {
		m = &f->maps[rn(t, f->nmaps)];
		o = rn(t, m->len / PAGE) * PAGE;
		n = (1 + rn(t, (m->len - o) / PAGE)) * PAGE;
		if (madvise(m->addr + o, n, adv))
			err = errno;
		else if (adv == MADV_DONTNEED || adv == 24 /* _LOCKED */ ||
			 adv == MADV_FREE || adv == MADV_REMOVE ||
			 adv == MADV_PAGEOUT)
			m->zapped = 1;
	}
	pthread_rwlock_unlock(&f->maplock);
	record(t, OP_MADVISE, err, NULL);
	end(t, err);
}

static void op_poll(struct thr *t)
{
	static const short evs[] = { POLLIN, POLLPRI, POLLIN | POLLPRI,
				     POLLOUT | POLLIN | POLLPRI };
	struct pollfd p = { .fd = pick_fd(t), .events = evs[rn(t, 4)] };
	int tmo = chance(t, 70) ? 0 : (int)rn(t, 5), n, err;

	begin(t, "poll events %#x timeout %d", p.events, tmo);
	n = poll(&p, 1, tmo);
	err = n < 0 ? errno : 0;
	record(t, OP_POLL, err, NULL);
	end(t, err);
	if (n > 0 && (p.revents & ~(POLLIN | POLLRDNORM | POLLPRI | POLLERR)))
		fail(t, "poll: revents %#x", p.revents);
}

static void op_pause(struct thr *t)
{
	begin(t, "pause");
	usleep(rn(t, 2000));
	count(OP_PAUSE);
	end(t, 0);
}

static void op_load(struct thr *t);

/* Attached for 0-4 ms, then DETACH, ATTACH again and LOAD. */
static void op_cycle(struct thr *t)
{
	begin(t, "attached period");
	usleep(rn(t, 4000));
	count(OP_CYCLE);
	end(t, 0);
	op_detach(t);
	if (chance(t, 30))
		usleep(rn(t, 300));
	op_attach(t);
	if (chance(t, 90))
		op_load(t);
}

static void run_op(struct thr *t, int op)
{
	switch (op) {
	case OP_INFO: op_info(t); break;
	case OP_RESET: op_reset(t); break;
	case OP_ATTACH: op_attach(t); break;
	case OP_DETACH: op_detach(t); break;
	case OP_ALLOC: op_alloc(t); break;
	case OP_PIN: op_pin(t); break;
	case OP_FREE: op_free(t); break;
	case OP_LOAD: op_load(t); break;
	case OP_WRITE: op_xfer(t, 0); break;
	case OP_READ: op_xfer(t, 1); break;
	case OP_RUN: op_run(t); break;
	case OP_FENCE: op_simple(t, OP_FENCE, IPU_CMD_FENCE); break;
	case OP_ABORT: op_simple(t, OP_ABORT, IPU_CMD_ABORT); break;
	case OP_BIND: op_bind(t); break;
	case OP_BADCMD: op_badcmd(t); break;
	case OP_WAIT: op_wait(t); break;
	case OP_EVENTFD: op_eventfd(t); break;
	case OP_NULL: op_null(t); break;
	case OP_UQUEUE: op_uqueue(t); break;
	case OP_UQ_DRIVE: op_uq_drive(t); break;
	case OP_MMAP: op_mmap(t); break;
	case OP_MUNMAP: op_munmap(t); break;
	case OP_TOUCH: op_touch(t); break;
	case OP_POLL: op_poll(t); break;
	case OP_BADNR: op_badnr(t); break;
	case OP_PAUSE: op_pause(t); break;
	case OP_CYCLE: op_cycle(t); break;
	case OP_MREMAP: op_mremap(t); break;
	case OP_MADVISE: op_madvise(t); break;
	case OP_LINKS: op_links(t); break;
	}
}

/* ---- files ---- */

static int seqtrack_init(struct seqtrack *s, uint64_t nbits)
{
	size_t bytes = nbits / 8;
	void *p = mmap(NULL, 2 * bytes, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	s->nbits = nbits;
	s->issued = p;
	s->collected = (uint64_t *)((uint8_t *)p + bytes);
	return 0;
}

static void seqtrack_free(struct seqtrack *s)
{
	if (s->issued)
		munmap(s->issued, 2 * (s->nbits / 8));
	s->issued = s->collected = NULL;
}

static void ffile_locks(struct ffile *f)
{
	pthread_mutex_init(&f->lock, NULL);
	pthread_rwlock_init(&f->maplock, NULL);
	pthread_mutex_init(&f->uq_lock, NULL);
}

/* Opens the card (fd and ro_fd) with fresh bookkeeping; 0 or -1. */
static int ffile_open(struct ffile *f, int card, uint64_t seqbits)
{
	struct ipu_info info;

	memset(f, 0, sizeof(*f));
	ffile_locks(f);
	f->card = card;
	f->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	f->fd = ipu_test_open_card(card, O_RDWR);
	f->ro_fd = ipu_test_open_card(card, O_RDONLY);
	if (f->fd < 0 || f->ro_fd < 0 || f->efd < 0 ||
	    seqtrack_init(&f->seqs, seqbits))
		return -1;
	if (!ipu_get_info(f->fd, &info))
		f->api_minor = info.api_version & 0xffff;
	return 0;
}

/* Unmaps what the file's users mapped and closes it. */
static void ffile_close(struct ffile *f)
{
	size_t rsz, csz, esz;

	if (f->uqi.entries) {
		rsz = (f->uqi.entries * sizeof(struct ipu_sqe) + PAGE - 1) &
		      ~(PAGE - 1);
		csz = (f->uqi.entries * sizeof(struct ipu_cqe) + PAGE - 1) &
		      ~(PAGE - 1);
		esz = (f->uqi.entries * IPU_RUN_RECORD_SIZE + PAGE - 1) &
		      ~(PAGE - 1);
		if (f->sq)
			munmap(f->sq, rsz);
		if (f->cq)
			munmap((void *)f->cq, csz);
		if (f->db)
			munmap((void *)f->db, PAGE);
		if (f->rec)
			munmap((void *)f->rec, esz);
	}
	for (int i = 0; i < f->nmaps; i++)
		munmap(f->maps[i].addr, f->maps[i].len);
	f->nmaps = 0;
	f->sq = NULL;
	f->cq = NULL;
	f->db = NULL;
	f->rec = NULL;
	if (f->fd >= 0)
		close(f->fd);
	if (f->ro_fd >= 0)
		close(f->ro_fd);
	if (f->efd >= 0)
		close(f->efd);
	f->fd = f->ro_fd = f->efd = -1;
	seqtrack_free(&f->seqs);
}

/* ---- threads ---- */

static int thr_init(struct thr *t, int idx, int role, struct ffile *f,
		    uint64_t stream)
{
	memset(t, 0, sizeof(*t));
	t->idx = idx;
	t->role = role;
	t->f = f;
	t->rng = mix(g_seed ^ mix(stream) ^ (uint64_t)idx) | 1;
	t->corrupt_pct = role == ROLE_ALL || role == ROLE_FILES ? 30 : 5;
	t->async_pct = role == ROLE_SUBMIT ? 90 : 50;
	t->args = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	t->loadbuf_len = g_glen + PAGE;
	t->loadbuf = malloc(t->loadbuf_len);
	if (t->args == MAP_FAILED || !t->loadbuf)
		return -1;
	memcpy(t->loadbuf, g_graph, g_glen);
	mprotect(t->args + 3 * PAGE, PAGE, PROT_NONE);
	memset(&R->slots[idx], 0, sizeof(R->slots[idx]));
	R->slots[idx].used = 1;
	return 0;
}

static void thr_free(struct thr *t)
{
	if (t->args && t->args != MAP_FAILED)
		munmap(t->args, 4 * PAGE);
	free(t->loadbuf);
	t->args = NULL;
	t->loadbuf = NULL;
}

static int pick_op(struct thr *t)
{
	const int *w = weights[t->role];
	int total = 0, r, op;

	for (op = 0; op < OP_MAX; op++)
		total += w[op];
	r = rn(t, total);
	for (op = 0; r >= w[op]; op++)
		r -= w[op];
	return op;
}

static void *worker(void *arg)
{
	struct thr *t = arg;

	R->slots[t->idx].tid = syscall(SYS_gettid);
	while (!g_stop) {
		if (t->role == ROLE_FILES && t->ops_left-- <= 0) {
			/* Close (maybe attached, commands in flight), reopen. */
			begin(t, "close and reopen");
			ffile_close(t->f);
			if (ffile_open(t->f, t->f->card, 1 << 16)) {
				fail(t, "reopen of the card: %s", ename(errno));
				end(t, errno);
				break;
			}
			end(t, 0);
			t->ops_left = 5 + rn(t, 60);
			t->last_seq = 0;
			t->nout = 0;
		}
		run_op(t, pick_op(t));
	}
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* ---- signals ---- */

static void on_usr1(int sig)
{
	(void)sig;	/* interrupts what sleeps: EINTR */
}

static void on_bus(int sig)
{
	if (bus_armed)
		siglongjmp(bus_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_fatal(int sig)
{
	static const char msg[] = "# ipu_fuzz: fatal signal; the threads:\n";
	char line[64];
	int n;

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	n = snprintf(line, sizeof(line), "# signal %d, seed %llu\n", sig,
		     (unsigned long long)g_seed);
	if (write(2, line, n) < 0)
		_exit(3);
	if (R)
		dump_slots(2);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void signals_init(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */

	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_bus;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = 0;
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
}

/* ---- setup shared by the tests ---- */

static int mem_init(void)
{
	M.arena = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	M.ro = mmap(NULL, RO_BYTES, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	M.hole = mmap(NULL, HOLE_BYTES, PROT_NONE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!M.mallocd)
		M.mallocd = malloc(MALLOC_BYTES);
	if (M.arena == MAP_FAILED || M.ro == MAP_FAILED ||
	    M.hole == MAP_FAILED || !M.mallocd)
		return -1;
	memset(M.arena, 0x11, ARENA_BYTES);
	memset(M.mallocd, 0x22, MALLOC_BYTES);
	R = mmap(NULL, sizeof(*R), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return R == MAP_FAILED ? -1 : 0;
}

/* The statistics of a test: ops per second, per operation and errno. */
static void report(const char *test, double secs, int threads)
{
	uint64_t total = 0;

	for (int op = 0; op < OP_MAX; op++)
		if (op != OP_PAUSE && op != OP_CYCLE)
			total += R->calls[op];
	note("%s: %llu operations in %.1f s = %.0f/s (%d threads; %llu "
	     "killed processes, %llu on files of their own; %llu attaches; "
	     "%llu user-queue completions)", test, (unsigned long long)total,
	     secs, total / secs, threads, (unsigned long long)R->children,
	     (unsigned long long)R->children_own_file,
	     (unsigned long long)R->attached_epochs,
	     (unsigned long long)R->uq_completions);
	for (int op = 0; op < OP_MAX; op++) {
		char line[400];
		int n;

		if (!R->calls[op])
			continue;
		n = snprintf(line, sizeof(line), "  %-18s %8llu %7.0f/s:",
			     ops[op].name, (unsigned long long)R->calls[op],
			     R->calls[op] / secs);
		for (int e = 0; e < ERRNO_SLOTS && n < (int)sizeof(line) - 40;
		     e++) {
			if (!R->errs[op][e])
				continue;
			n += snprintf(line + n, sizeof(line) - n, " %s %llu",
				      e == ERRNO_SLOTS - 1 ? "other" :
				      e ? ename(e) : "ok",
				      (unsigned long long)R->errs[op][e]);
		}
		note("%s", line);
	}
	{
		char line[400];
		int n = snprintf(line, sizeof(line), "  completion statuses:");

		for (int s = 0; s < 80 && n < (int)sizeof(line) - 30; s++)
			if (R->statuses[s])
				n += snprintf(line + n, sizeof(line) - n,
					      " %d: %llu", s,
					      (unsigned long long)R->statuses[s]);
		note("%s", line);
	}
}

/* Prints the failures (and the threads' last operations); how many. */
static int failures(void)
{
	uint32_t n = R->nfail;

	if (!n)
		return 0;
	note("%u failure(s), seed %llu (IPU_FUZZ_SEED=%llu replays):", n,
	     (unsigned long long)g_seed, (unsigned long long)g_seed);
	for (uint32_t i = 0; i < n && i < MAX_FAIL; i++)
		note("  %s", R->fail[i]);
	dump_slots(2);
	return n;
}

/* Waits for the workers; ones blocked in the driver are signalled. */
static int join_all(struct thr *th, int n, int limit_ms)
{
	long long t0 = ipu_now_ms();
	int left;

	do {
		left = 0;
		for (int i = 0; i < n; i++) {
			if (!th[i].pt)
				continue;
			if (__atomic_load_n(&th[i].done, __ATOMIC_ACQUIRE)) {
				pthread_join(th[i].pt, NULL);
				th[i].pt = 0;
				continue;
			}
			pthread_kill(th[i].pt, SIGUSR1);
			left++;
		}
		if (left)
			usleep(5000);
	} while (left && ipu_now_ms() - t0 < limit_ms);
	return left;
}

/* Starts a worker thread for each of th[0..n); 0 or pthread_create's error. */
static int start_workers(struct thr *th, int n)
{
	for (int i = 0; i < n; i++) {
		int r = pthread_create(&th[i].pt, NULL, worker, &th[i]);

		if (r)
			return r;
	}
	return 0;
}

/*
 * Until secs have passed since t0, wakes a random worker with SIGUSR1
 * every min_ms plus up to spread_ms, so that whatever sleeps in the driver
 * takes its EINTR path.
 */
static void signal_workers(struct thr *th, int n, long long t0, double secs,
			   int min_ms, int spread_ms)
{
	long long next_sig = t0 + min_ms;

	while (ipu_now_ms() - t0 < secs * 1000) {
		if (ipu_now_ms() >= next_sig) {
			pthread_kill(th[mix(next_sig) % n].pt, SIGUSR1);
			next_sig += min_ms + mix(next_sig) % spread_ms;
		}
		usleep(5000);
	}
}

/*
 * Ends a test's run: stops the workers, joins them (30 s at the most),
 * reports their counts under the test's name and frees them.
 */
static void end_run(struct __test_metadata *_metadata, struct thr *th, int n,
		    const char *name, long long t0)
{
	g_stop = 1;
	EXPECT_EQ(0, join_all(th, n, 30000)) {
		TH_LOG("threads still in the driver 30 s after the end");
		dump_slots(2);
	}
	report(name, (ipu_now_ms() - t0) / 1000.0, n);
	for (int i = 0; i < n; i++)
		thr_free(&th[i]);
}

/* ---- the second process ---- */

/* A killed process's DETACH in progress is over once it is reaped. */
static void reaped(void)
{
	for (int i = MAX_THREADS; i < SLOTS; i++) {
		if (R->slots[i].detaching) {
			__atomic_fetch_add(&R->detaches, 1, __ATOMIC_SEQ_CST);
			__atomic_store_n(&R->slots[i].detaching, 0,
					 __ATOMIC_SEQ_CST);
		}
	}
}

static void child_main(struct ffile *shared, int own, int no)
{
	struct ffile mine;
	struct thr th[CHILD_THREADS];

	g_in_child = 1;
	alarm(60);		/* never outlives the test */
	if (own) {
		if (ffile_open(&mine, shared->card, 1 << 16))
			_exit(2);
	} else {
		/* The same file; bookkeeping of our own (fresh locks). */
		mine = *shared;
		ffile_locks(&mine);
		mine.nbufs = mine.nmaps = 0;
		mine.uq_running = 0;
		mine.sq = NULL;
		mine.cq = NULL;
		mine.db = NULL;	/* VM_DONTCOPY: not inherited */
		mine.rec = NULL;
		mine.efd = eventfd(0, EFD_NONBLOCK);
	}
	for (int i = 0; i < CHILD_THREADS; i++) {
		if (thr_init(&th[i], MAX_THREADS + i, ROLE_ALL, &mine,
			     ((uint64_t)no << 20) | 0x1000))
			_exit(2);
		th[i].corrupt_pct = 20;
	}
	for (int i = 1; i < CHILD_THREADS; i++)
		pthread_create(&th[i].pt, NULL, worker, &th[i]);
	worker(&th[0]);
	_exit(0);
}

/* ---- the tests ---- */

/* ---- preemption ---- */

#define PREEMPT_FILE	"/sys/kernel/debug/sched/preempt"

static char g_preempt_old[16];

/* Full preemption for the fuzz (PREEMPT_DYNAMIC kernels); see the top. */
static void preempt_full(void)
{
	const char *env = getenv("IPU_FUZZ_PREEMPT");
	char buf[64], *o, *c;
	struct stat st;

	g_preempt_old[0] = '\0';
	if (env && !strcmp(env, "0"))
		return;
	if (stat("/sys/kernel/debug/sched", &st))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (ipu_read_file(PREEMPT_FILE, buf, sizeof(buf)))
		return;
	/* "none voluntary (full)": the current one in parentheses */
	o = strchr(buf, '(');
	c = o ? strchr(o, ')') : NULL;
	if (!c || c - o - 1 >= (int)sizeof(g_preempt_old) ||
	    !strncmp(o + 1, "full", 4))
		return;
	snprintf(g_preempt_old, sizeof(g_preempt_old), "%.*s",
		 (int)(c - o - 1), o + 1);
	if (ipu_write_file(PREEMPT_FILE, "full"))
		g_preempt_old[0] = '\0';
	else
		note("preemption: full for the fuzz (was %s)", g_preempt_old);
}

static void preempt_restore(void)
{
	if (g_preempt_old[0])
		ipu_write_file(PREEMPT_FILE, g_preempt_old);
	g_preempt_old[0] = '\0';
}

FIXTURE(fuzz) {
	int card;
	void *graph, *sgraph;
	size_t glen, sglen;
};

static int find_card(void)
{
	if (g_card >= 0)
		return g_card;
	for (int i = 0; i < IPU_TEST_MAX_CARDS; i++) {
		int fd = ipu_test_open_card(i, O_RDONLY);
		struct ipu_info info;
		int ok;

		if (fd < 0)
			continue;
		ok = !ipu_get_info(fd, &info) && info.model == IPU_MODEL_TEST;
		close(fd);
		if (ok)
			return i;
	}
	return 0;
}

FIXTURE_SETUP(fuzz)
{
	struct ipu_info info;
	int fd;

	self->graph = self->sgraph = NULL;
	self->card = find_card();
	fd = ipu_test_open_card(self->card, O_RDONLY);
	if (fd < 0)
		SKIP(return, "card %d not present", self->card);
	ASSERT_EQ(0, ipu_get_info(fd, &info));
	close(fd);
	g_model = info.model;
	ASSERT_EQ(0, ipu_test_double_graph(g_model, N_ELEMS, BIG_BYTES,
					   &self->graph, &self->glen));
	if (g_model == IPU_MODEL_TEST)
		ASSERT_EQ(0, ipu_test_stream_graph(&self->sgraph, &self->sglen));
	g_graph = self->graph;
	g_glen = self->glen;
	g_sgraph = self->sgraph;
	g_sglen = self->sglen;
	ASSERT_EQ(0, mem_init());
	signals_init();
	preempt_full();
}

FIXTURE_TEARDOWN(fuzz)
{
	preempt_restore();
	free(self->graph);
	free(self->sgraph);
}

static int sync_cmd(int fd, struct ipu_cmd *c)
{
	c->argsz = sizeof(*c);
	return ioctl(fd, IPU_IOCTL_SUBMIT, c) ? -errno : (int)c->status;
}

/* A pattern through "big": user_ptr in; BUF_ALLOC + mmap, BUF_PIN out. */
static void big_round_trip(struct __test_metadata *_metadata, int fd,
			   struct thr *t)
{
	struct ipu_buf b = { .argsz = sizeof(b), .size = BIG_BYTES };
	uint8_t *src = malloc(BIG_BYTES), *dst = aligned_alloc(PAGE, BIG_BYTES);
	struct ipu_cmd c;
	uint8_t *m;

	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	for (size_t i = 0; i < BIG_BYTES; i++)
		src[i] = rnd(t);
	c = (struct ipu_cmd){ .opcode = IPU_CMD_WRITE, .handle = H_BIG,
			      .user_ptr = (uintptr_t)src, .length = BIG_BYTES };
	ASSERT_EQ(IPU_STATUS_OK, sync_cmd(fd, &c));

	ASSERT_EQ(0, ioctl(fd, IPU_IOCTL_BUF_ALLOC, &b));
	m = mmap(NULL, BIG_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 b.mmap_offset);
	ASSERT_NE(MAP_FAILED, m);
	c = (struct ipu_cmd){ .opcode = IPU_CMD_READ, .handle = H_BIG,
			      .buf = b.handle, .length = BIG_BYTES };
	ASSERT_EQ(IPU_STATUS_OK, sync_cmd(fd, &c));
	EXPECT_EQ(0, memcmp(src, m, BIG_BYTES));
	munmap(m, BIG_BYTES);

	memset(dst, 0, BIG_BYTES);
	b = (struct ipu_buf){ .argsz = sizeof(b), .size = BIG_BYTES,
			      .user_addr = (uintptr_t)dst };
	ASSERT_EQ(0, ioctl(fd, IPU_IOCTL_BUF_PIN, &b));
	c = (struct ipu_cmd){ .opcode = IPU_CMD_READ, .handle = H_BIG,
			      .buf = b.handle, .length = BIG_BYTES };
	ASSERT_EQ(IPU_STATUS_OK, sync_cmd(fd, &c));
	EXPECT_EQ(0, memcmp(src, dst, BIG_BYTES));
	b = (struct ipu_buf){ .argsz = sizeof(b), .handle = b.handle };
	EXPECT_EQ(0, ioctl(fd, IPU_IOCTL_BUF_FREE, &b));
	free(src);
	free(dst);
}

/* The user queue: a FENCE and a RUN through the mapped rings. */
static void uq_round_trip(struct __test_metadata *_metadata, int fd)
{
	struct ipu_uqueue q = { .argsz = sizeof(q) };
	const struct ipu_cqe *cq;
	volatile uint32_t *db;
	struct ipu_sqe *sq;
	long long t0;

	ASSERT_EQ(0, ioctl(fd, IPU_IOCTL_UQUEUE, &q));
	sq = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  q.sq_offset);
	cq = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, q.cq_offset);
	db = mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, fd, q.db_offset);
	ASSERT_NE(MAP_FAILED, sq);
	ASSERT_NE(MAP_FAILED, cq);
	ASSERT_NE(MAP_FAILED, db);
	memset(sq, 0, 2 * sizeof(*sq));
	sq[0].opcode = IPU_SQE_FENCE;
	sq[0].cid = 1;
	sq[1].opcode = IPU_SQE_RUN;
	sq[1].cid = 2;
	sq[1].handle = P_DOUBLE;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	db[IPU_DB_SQ_TAIL / 4] = 2;
	t0 = ipu_now_ms();
	while (!(__atomic_load_n(&cq[1].status, __ATOMIC_ACQUIRE) &
		 IPU_CQE_PHASE) && ipu_now_ms() - t0 < 5000)
		usleep(100);
	EXPECT_EQ(1, cq[0].cid);
	EXPECT_EQ(IPU_STATUS_OK, IPU_CQE_CODE(cq[0].status));
	EXPECT_EQ(2, cq[1].cid);
	EXPECT_EQ(IPU_STATUS_OK, IPU_CQE_CODE(cq[1].status));
	db[IPU_DB_CQ_HEAD / 4] = 2;
	munmap(sq, PAGE);
	munmap((void *)cq, PAGE);
	munmap((void *)db, PAGE);
}

/*
 * Afterwards: every file closed, nothing left in the driver (debugfs), the
 * card ready (a reset if a short-timeout RESET left it "failed") and
 * round-tripping data bit-exactly through every kind of memory.
 */
static void card_works(struct __test_metadata *_metadata, int card)
{
	char name[IPU_TEST_NAME_MAX], state[32];
	uint32_t x[N_ELEMS], y[N_ELEMS];
	struct ipu_cmd c;
	struct thr t = { .rng = mix(g_seed) | 1 };
	int fd;

	ASSERT_EQ(0, ipu_find_card(card, name, sizeof(name)));
	EXPECT_EQ(0, ipu_test_no_leaks(card));
	alarm(60);
	fd = ipu_test_open_card(card, O_RDWR);
	ASSERT_LE(0, fd);
	if (!ipu_sysfs_read(name, "state", state, sizeof(state)) &&
	    strcmp(state, "ready")) {
		TH_LOG("card state \"%s\" after the fuzz: reset", state);
		EXPECT_EQ(0, ipu_reset(fd, 0, 0, NULL));
	}
	EXPECT_EQ(0, ipu_wait_state(name, "ready", 5000));
	ASSERT_LE(0, ipu_test_attach(fd, IPU_ATTACH_FLAG_NONBLOCK));
	c = (struct ipu_cmd){ .opcode = IPU_CMD_LOAD,
			      .user_ptr = (uintptr_t)g_graph,
			      .length = g_glen };
	ASSERT_EQ(IPU_STATUS_OK, sync_cmd(fd, &c));

	/* y = x + x, bit-exact (finite values: doubling is exact). */
	for (int i = 0; i < N_ELEMS; i++) {
		float v = (float)(int32_t)(rnd(&t) % 2000001 - 1000000) / 1024;

		memcpy(&x[i], &v, 4);
	}
	c = (struct ipu_cmd){ .opcode = IPU_CMD_WRITE, .handle = H_X,
			      .user_ptr = (uintptr_t)x, .length = T_SMALL };
	ASSERT_EQ(IPU_STATUS_OK, sync_cmd(fd, &c));
	c = (struct ipu_cmd){ .opcode = IPU_CMD_RUN, .handle = P_DOUBLE };
	ASSERT_EQ(IPU_STATUS_OK, sync_cmd(fd, &c));
	memset(y, 0, sizeof(y));
	c = (struct ipu_cmd){ .opcode = IPU_CMD_READ, .handle = H_Y,
			      .user_ptr = (uintptr_t)y, .length = T_SMALL };
	ASSERT_EQ(IPU_STATUS_OK, sync_cmd(fd, &c));
	for (int i = 0; i < N_ELEMS; i++) {
		float v, w;

		memcpy(&v, &x[i], 4);
		w = v + v;
		ASSERT_EQ(0, memcmp(&w, &y[i], 4)) {
			TH_LOG("y[%d] %08x, x %08x", i, y[i], x[i]);
		}
	}

	big_round_trip(_metadata, fd, &t);
	uq_round_trip(_metadata, fd);
	close(fd);
	alarm(0);
	EXPECT_EQ(0, ipu_test_no_leaks(card));
}

static void start_note(const char *test, double secs, int threads,
		       int card)
{
	note("%s: seed %llu (IPU_FUZZ_SEED=%llu to replay), %.1f s, %d "
	     "threads, card %d", test, (unsigned long long)g_seed,
	     (unsigned long long)g_seed, secs, threads, card);
}

/*
 * Threads on one file doing everything, and a second process on the card
 * (this file, inherited, or its own) killed after 20-400 ms, over and over.
 */
TEST_F_TIMEOUT(fuzz, one_file_threads_and_killed_process, 3600)
{
	double secs = g_seconds * 0.5;
	struct thr th[MAX_THREADS], mr = { .rng = mix(g_seed ^ 0x5eed) | 1 };
	struct ffile f;
	long long t0, end_ms, next_sig, kill_at = 0;
	pid_t child = 0;
	int n = g_threads, nchild = 0;

	IPU_RETURN_IF_SKIPPED();
	start_note("one_file_threads_and_killed_process", secs, n, self->card);
	alarm((unsigned int)secs + 120);
	ASSERT_EQ(0, ffile_open(&f, self->card, 1u << 22));
	for (int i = 0; i < n; i++) {
		ASSERT_EQ(0, thr_init(&th[i], i, ROLE_ALL, &f, 1));
		/* Two of them submit ASYNC and WAIT ANY more than the rest. */
		if (i < 2)
			th[i].async_pct = 85;
	}
	ASSERT_EQ(0, start_workers(th, n));

	t0 = ipu_now_ms();
	end_ms = t0 + (long long)(secs * 1000);
	next_sig = t0 + 100;
	while (ipu_now_ms() < end_ms) {
		long long now = ipu_now_ms();

		if (!child) {
			/* 2 in 5 on a file of their own, else on this one */
			int own = chance(&mr, 40);

			R->children++;
			if (own)
				R->children_own_file++;
			nchild++;
			child = fork();
			ASSERT_LE(0, child);
			if (!child)
				child_main(&f, own, nchild);
			kill_at = now + 20 + (long long)rn(&mr, 380);
		} else if (now >= kill_at) {
			int st, r;
			long long k0 = ipu_now_ms();

			kill(child, SIGKILL);
			while ((r = waitpid(child, &st, WNOHANG)) == 0 &&
			       ipu_now_ms() - k0 < 20000)
				usleep(2000);
			if (r != child) {
				fail(NULL, "a SIGKILLed process (pid %d) did "
				     "not exit in 20 s: stuck in the driver",
				     child);
				child = 0;
				break;
			}
			reaped();
			child = 0;
		}
		if (now >= next_sig) {
			/* Wake whatever sleeps in the driver (EINTR paths). */
			pthread_kill(th[rn(&mr, n)].pt, SIGUSR1);
			next_sig = now + 50 + rn(&mr, 100);
		}
		usleep(5000);
	}
	if (child) {
		int st;

		kill(child, SIGKILL);
		waitpid(child, &st, 0);
		reaped();
	}
	end_run(_metadata, th, n, "one_file_threads_and_killed_process", t0);
	ffile_close(&f);
	alarm(0);
	EXPECT_EQ(0, failures());
	card_works(_metadata, self->card);
}

/*
 * The race that freed a command under SUBMIT: threads submitting ASYNC,
 * threads collecting with WAIT ANY, one detaching and attaching again.
 */
TEST_F_TIMEOUT(fuzz, submit_async_vs_wait_any_and_detach, 3600)
{
	double secs = g_seconds * 0.3;
	struct thr th[MAX_THREADS];
	struct ffile f;
	long long t0;
	int n = g_threads < 4 ? 4 : g_threads;
	struct ipu_cmd c;

	IPU_RETURN_IF_SKIPPED();
	if (n > MAX_THREADS)
		n = MAX_THREADS;
	start_note("submit_async_vs_wait_any_and_detach", secs, n, self->card);
	alarm((unsigned int)secs + 120);
	ASSERT_EQ(0, ffile_open(&f, self->card, 1u << 22));
	ASSERT_LE(0, ipu_test_attach(f.fd, 0));
	c = (struct ipu_cmd){ .opcode = IPU_CMD_LOAD,
			      .user_ptr = (uintptr_t)g_graph,
			      .length = g_glen };
	ASSERT_EQ(IPU_STATUS_OK, sync_cmd(f.fd, &c));
	for (int i = 0; i < n; i++) {
		int role = i == n - 1 ? ROLE_DETACH :
			   i % 2 ? ROLE_WAIT : ROLE_SUBMIT;

		ASSERT_EQ(0, thr_init(&th[i], i, role, &f, 2));
	}
	ASSERT_EQ(0, start_workers(th, n));
	t0 = ipu_now_ms();
	signal_workers(th, n, t0, secs, 100, 200);
	end_run(_metadata, th, n, "submit_async_vs_wait_any_and_detach", t0);
	ffile_close(&f);
	alarm(0);
	EXPECT_EQ(0, failures());
	card_works(_metadata, self->card);
}

/*
 * Threads with files of their own: the card passes between them (blocking
 * and NONBLOCK ATTACH, RESET of a held card), and each closes its file
 * after a few operations, attached or not, with commands in flight.
 */
TEST_F_TIMEOUT(fuzz, files_contending_for_the_card, 3600)
{
	double secs = g_seconds * 0.2;
	struct thr th[MAX_THREADS];
	struct ffile f[MAX_THREADS];
	long long t0;
	int n = g_threads;

	IPU_RETURN_IF_SKIPPED();
	start_note("files_contending_for_the_card", secs, n, self->card);
	alarm((unsigned int)secs + 120);
	for (int i = 0; i < n; i++) {
		ASSERT_EQ(0, ffile_open(&f[i], self->card, 1 << 16));
		ASSERT_EQ(0, thr_init(&th[i], i, ROLE_FILES, &f[i], 3));
		th[i].ops_left = 5 + rn(&th[i], 60);
	}
	ASSERT_EQ(0, start_workers(th, n));
	t0 = ipu_now_ms();
	signal_workers(th, n, t0, secs, 50, 100);
	end_run(_metadata, th, n, "files_contending_for_the_card", t0);
	for (int i = 0; i < n; i++)
		ffile_close(&f[i]);
	alarm(0);
	EXPECT_EQ(0, failures());
	card_works(_metadata, self->card);
}

TEST_HARNESS_MAIN
