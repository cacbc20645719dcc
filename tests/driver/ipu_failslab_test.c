// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_failslab_test: the driver under injected allocation failures (the
 * debug kernel's failslab and fail_page_alloc, scripts/debug-kernel.config).
 *
 * A workload of the whole uAPI on the "test" card (open, ATTACH, LOAD,
 * BUF_ALLOC + mmap, BUF_PIN, WRITE/RUN/READ through buffers and user
 * pointers, an async RUN + WAIT, an eventfd, the user queue with its
 * mappings and a FENCE through it, BUF_FREE, DETACH, close) runs in a child
 * process that turns injection on for itself only (task-filter; its own
 * /proc/self/make-it-fail, opened before and written while it runs: set
 * before exec, the exec itself would fail). Injection is aimed at one step
 * at a time, with growing "space" budgets so that later allocations of the
 * step fail too, then at the whole workload at random. Every operation must
 * succeed (with the right data and status) or fail with an errno the uAPI
 * allows for a lack of memory; the child must not die; afterwards, with
 * injection off, the driver's counters must be back to zero and the card
 * must attach and run. The probe too: the card is bound by a child under
 * injection (the write to "bind" runs the probe in its context). Kmemleak
 * is scanned by run-tests.sh at the end.
 *
 * The VM boots with dma_debug=off (DMA-API debugging's own bookkeeping
 * fails under injection) and acpi=noirq (pci_enable_device() evaluates
 * _PRT, and ACPICA in 6.1 corrupts a reference count on AE_NO_MEMORY: a
 * KASAN use-after-free at the next unbind).
 *
 * The stack-trace filter of fault injection does not exist on x86_64 in
 * 6.1: failures come from anywhere in the child (mmap, open, ...).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"
#include "ipu_graphs.h"

#define CARD		3	/* the "test" model */
#define N_ELEMS		1024
#define DATA_BYTES	(N_ELEMS * 4)
#define PAGE		4096
#define DBG		"/sys/kernel/debug"

enum step {
	S_OPEN, S_ATTACH, S_LOAD, S_ALLOC, S_MMAP, S_PIN, S_WRITE_BUF, S_RUN,
	S_READ_BUF, S_WRITE_PTR, S_READ_PTR, S_ASYNC, S_EVENTFD, S_UQUEUE,
	S_UQ_FENCE, S_FREE, S_DETACH, S_CLOSE, S_COUNT
};

static const char *const step_names[S_COUNT] = {
	"open", "attach", "load", "buf_alloc", "mmap", "buf_pin", "write(buf)",
	"run", "read(buf)", "write(ptr)", "read(ptr)", "async run+wait",
	"eventfd", "uqueue", "uqueue fence", "buf_free", "detach", "close",
};

/* What a child reports back (shared anonymous memory). */
struct outcome {
	int done;		/* steps completed */
	int failed_step;	/* -1: none failed */
	int err;		/* errno of the failed step */
	int bad;		/* 1: a step broke the rules */
	char why[160];
};

/* The workload's memory, prepared (and faulted in) by the parent. */
struct work {
	char dev[64];
	void *graph;
	size_t graph_len;
	float *x, *y;		/* user-pointer data */
	float *pin;		/* page-aligned, DATA_BYTES, pinned */
	struct outcome *out;
	int mif;		/* /proc/self/make-it-fail of the child */
	int inject_step;	/* -1: the whole workload */
};

/* Errors a step may return when memory runs out (docs/uapi.md). */
static int clean_errno(int e)
{
	return e == ENOMEM || e == EAGAIN || e == ENOSPC || e == ENOBUFS;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

static int fault_set(const char *attr, const char *file, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), DBG "/%s/%s", attr, file);
	return write_str(path, val);
}

/* Injection parameters of one attribute ("failslab", "fail_page_alloc"). */
static int fault_config(const char *attr, int probability, long times,
			unsigned long space)
{
	char v[32];
	int ret = 0;

	snprintf(v, sizeof(v), "%d", probability);
	ret |= fault_set(attr, "probability", v);
	ret |= fault_set(attr, "interval", "1");
	snprintf(v, sizeof(v), "%ld", times);
	ret |= fault_set(attr, "times", v);
	snprintf(v, sizeof(v), "%lu", space);
	ret |= fault_set(attr, "space", v);
	ret |= fault_set(attr, "verbose", "0");
	ret |= fault_set(attr, "task-filter", "Y");
	ret |= fault_set(attr, "ignore-gfp-wait", "N");
	/* Order-0 pages too (the default is order 1 and up). */
	if (!strcmp(attr, "fail_page_alloc"))
		ret |= fault_set(attr, "min-order", "0");
	return ret;
}

static void fault_off(void)
{
	fault_config("failslab", 0, 0, 0);
	fault_config("fail_page_alloc", 0, 0, 0);
}

/* The child's switch: its own make-it-fail, opened before injection. */
static void inject(struct work *w, int on)
{
	if (pwrite(w->mif, on ? "1" : "0", 1, 0) != 1)
		_exit(90);
}

static int submit(int fd, struct ipu_cmd *c)
{
	c->argsz = sizeof(*c);
	return ioctl(fd, IPU_IOCTL_SUBMIT, c) ? -errno : 0;
}

#define FAIL(...) do { \
	snprintf(o->why, sizeof(o->why), __VA_ARGS__); \
	o->bad = 1; \
	_exit(1); \
} while (0)

/*
 * One step's outcome: 0 to go on, 1 to stop cleanly (the step failed with a
 * clean errno), -1 when it broke the rules.
 */
static int check_step(struct outcome *o, int step, int ret)
{
	if (ret >= 0)
		return 0;
	o->failed_step = step;
	o->err = -ret;
	if (clean_errno(-ret))
		return 1;
	snprintf(o->why, sizeof(o->why), "%s failed with %s", step_names[step],
		 strerror(-ret));
	o->bad = 1;
	return -1;
}

/* The workload's state, from one step to the next. */
struct wl_state {
	int fd, efd, hbuf, hpin;
	void *map, *sq, *cq, *db;
	size_t sq_len, cq_len;
	struct ipu_uqueue uq;
	struct ipu_cmd c;
	struct ipu_wait wt;
	struct ipu_buf b;
};

/* Steps open to buf_pin. */
static int wl_setup_step(struct work *w, struct wl_state *s, int step)
{
	int ret = 0;

	switch (step) {
	case S_OPEN:
		s->fd = open(w->dev, O_RDWR);
		ret = s->fd < 0 ? -errno : 0;
		break;
	case S_ATTACH: {
		struct ipu_attach a = { .argsz = sizeof(a) };

		memset(&s->c, 0, sizeof(s->c));
		ret = ioctl(s->fd, IPU_IOCTL_ATTACH, &a) ? -errno : 0;
		break;
	}
	case S_LOAD:
		memset(&s->c, 0, sizeof(s->c));
		s->c.opcode = IPU_CMD_LOAD;
		s->c.user_ptr = (uintptr_t)w->graph;
		s->c.length = w->graph_len;
		ret = submit(s->fd, &s->c);
		break;
	case S_ALLOC:
		memset(&s->b, 0, sizeof(s->b));
		s->b.argsz = sizeof(s->b);
		s->b.size = DATA_BYTES;
		ret = ioctl(s->fd, IPU_IOCTL_BUF_ALLOC, &s->b) ? -errno : 0;
		s->hbuf = ret ? 0 : s->b.handle;
		break;
	case S_MMAP:
		s->map = mmap(NULL, DATA_BYTES, PROT_READ | PROT_WRITE,
			   MAP_SHARED, s->fd, s->b.mmap_offset);
		ret = s->map == MAP_FAILED ? -errno : 0;
		break;
	case S_PIN:
		memset(&s->b, 0, sizeof(s->b));
		s->b.argsz = sizeof(s->b);
		s->b.size = DATA_BYTES;
		s->b.user_addr = (uintptr_t)w->pin;
		ret = ioctl(s->fd, IPU_IOCTL_BUF_PIN, &s->b) ? -errno : 0;
		s->hpin = ret ? 0 : s->b.handle;
		break;
	}
	return ret;
}

/* Steps write(buf) to async run+wait. */
static int wl_io_step(struct work *w, struct wl_state *s, int step)
{
	struct outcome *o = w->out;
	int ret = 0, i;

	switch (step) {
	case S_WRITE_BUF:
		for (i = 0; i < N_ELEMS; i++)
			((float *)s->map)[i] = (float)(i % 251);
		memset(&s->c, 0, sizeof(s->c));
		s->c.opcode = IPU_CMD_WRITE;
		s->c.handle = H_X;
		s->c.buf = s->hbuf;
		s->c.length = DATA_BYTES;
		ret = submit(s->fd, &s->c);
		break;
	case S_RUN:
		memset(&s->c, 0, sizeof(s->c));
		s->c.opcode = IPU_CMD_RUN;
		s->c.handle = P_DOUBLE;
		ret = submit(s->fd, &s->c);
		break;
	case S_READ_BUF:
		memset(w->pin, 0, DATA_BYTES);
		memset(&s->c, 0, sizeof(s->c));
		s->c.opcode = IPU_CMD_READ;
		s->c.handle = H_Y;
		s->c.buf = s->hpin;
		s->c.length = DATA_BYTES;
		ret = submit(s->fd, &s->c);
		if (!ret && s->c.status == IPU_STATUS_OK)
			for (i = 0; i < N_ELEMS; i++)
				if (w->pin[i] != 2.0f * (float)(i % 251))
					FAIL("read(buf): y[%d] = %g, want %g", i,
					     w->pin[i], 2.0 * (i % 251));
		break;
	case S_WRITE_PTR:
		for (i = 0; i < N_ELEMS; i++)
			w->x[i] = (float)(N_ELEMS - i);
		memset(&s->c, 0, sizeof(s->c));
		s->c.opcode = IPU_CMD_WRITE;
		s->c.handle = H_X;
		s->c.user_ptr = (uintptr_t)w->x;
		s->c.length = DATA_BYTES;
		ret = submit(s->fd, &s->c);
		if (!ret && s->c.status == IPU_STATUS_OK) {
			memset(&s->c, 0, sizeof(s->c));
			s->c.opcode = IPU_CMD_RUN;
			s->c.handle = P_DOUBLE;
			inject(w, 0);
			ret = submit(s->fd, &s->c);
		}
		break;
	case S_READ_PTR:
		memset(w->y, 0, DATA_BYTES);
		memset(&s->c, 0, sizeof(s->c));
		s->c.opcode = IPU_CMD_READ;
		s->c.handle = H_Y;
		s->c.user_ptr = (uintptr_t)w->y;
		s->c.length = DATA_BYTES;
		ret = submit(s->fd, &s->c);
		if (!ret && s->c.status == IPU_STATUS_OK)
			for (i = 0; i < N_ELEMS; i++)
				if (w->y[i] != 2.0f * (float)(N_ELEMS - i))
					FAIL("read(ptr): y[%d] = %g, want %g", i,
					     w->y[i], 2.0 * (N_ELEMS - i));
		break;
	case S_ASYNC:
		memset(&s->c, 0, sizeof(s->c));
		s->c.opcode = IPU_CMD_RUN;
		s->c.handle = P_DOUBLE;
		s->c.flags = IPU_CMD_FLAG_ASYNC;
		ret = submit(s->fd, &s->c);
		if (ret)
			break;
		memset(&s->wt, 0, sizeof(s->wt));
		s->wt.argsz = sizeof(s->wt);
		s->wt.seq = s->c.seq;
		s->wt.timeout_ms = 10000;
		ret = ioctl(s->fd, IPU_IOCTL_WAIT, &s->wt) ? -errno : 0;
		if (ret == -ENOMEM || ret == -EAGAIN) {
			/* The command goes on: collect it, uninjected. */
			inject(w, 0);
			ret = ioctl(s->fd, IPU_IOCTL_WAIT, &s->wt) ? -errno : 0;
			if (ret)
				FAIL("async: WAIT after a failed WAIT: %s",
				     strerror(-ret));
			ret = -ENOMEM;
		}
		if (!ret && s->wt.status != IPU_STATUS_OK)
			FAIL("async run: status %u", s->wt.status);
		break;
	}
	return ret;
}

/* Steps eventfd to close. */
static int wl_queue_step(struct work *w, struct wl_state *s, int step)
{
	struct outcome *o = w->out;
	int ret = 0;

	switch (step) {
	case S_EVENTFD:
		s->efd = eventfd(0, EFD_CLOEXEC);
		ret = s->efd < 0 ? -errno : 0;
		if (!ret) {
			struct ipu_eventfd e = { .argsz = sizeof(e), .fd = s->efd };

			ret = ioctl(s->fd, IPU_IOCTL_SET_EVENTFD, &e) ? -errno : 0;
		}
		if (!ret) {
			memset(&s->c, 0, sizeof(s->c));
			s->c.opcode = IPU_CMD_FENCE;
			ret = submit(s->fd, &s->c);
		}
		break;
	case S_UQUEUE:
		memset(&s->uq, 0, sizeof(s->uq));
		s->uq.argsz = sizeof(s->uq);
		ret = ioctl(s->fd, IPU_IOCTL_UQUEUE, &s->uq) ? -errno : 0;
		if (ret)
			break;
		s->sq_len = ((size_t)s->uq.entries * 64 + PAGE - 1) & ~(size_t)(PAGE - 1);
		s->cq_len = ((size_t)s->uq.entries * 32 + PAGE - 1) & ~(size_t)(PAGE - 1);
		s->sq = mmap(NULL, s->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			  s->fd, s->uq.sq_offset);
		if (s->sq == MAP_FAILED) {
			ret = -errno;
			break;
		}
		s->cq = mmap(NULL, s->cq_len, PROT_READ, MAP_SHARED, s->fd,
			  s->uq.cq_offset);
		if (s->cq == MAP_FAILED) {
			ret = -errno;
			break;
		}
		s->db = mmap(NULL, PAGE, PROT_WRITE, MAP_SHARED, s->fd,
			  s->uq.db_offset);
		if (s->db == MAP_FAILED)
			ret = -errno;
		break;
	case S_UQ_FENCE: {
		struct ipu_sqe *e = s->sq;
		volatile struct ipu_cqe *ce = s->cq;
		long long t0 = ipu_now_ms();

		memset(e, 0, sizeof(*e));
		e->opcode = IPU_SQE_FENCE;
		e->cid = 77;
		__atomic_thread_fence(__ATOMIC_RELEASE);
		((volatile uint32_t *)s->db)[IPU_DB_SQ_TAIL / 4] = 1;
		while (!(__atomic_load_n(&ce->status, __ATOMIC_ACQUIRE) &
			 IPU_CQE_PHASE)) {
			if (ipu_now_ms() - t0 > 10000)
				FAIL("uqueue fence: no completion in 10 s");
			usleep(100);
		}
		if (ce->cid != 77 || IPU_CQE_CODE(ce->status) != IPU_STATUS_OK)
			FAIL("uqueue fence: cid %u status %u", ce->cid,
			     IPU_CQE_CODE(ce->status));
		((volatile uint32_t *)s->db)[IPU_DB_CQ_HEAD / 4] = 1;
		ret = 0;
		break;
	}
	case S_FREE:
		memset(&s->b, 0, sizeof(s->b));
		s->b.argsz = sizeof(s->b);
		s->b.handle = s->hbuf;
		ret = ioctl(s->fd, IPU_IOCTL_BUF_FREE, &s->b) ? -errno : 0;
		if (!ret) {
			s->hbuf = 0;
			s->b.handle = s->hpin;
			ret = ioctl(s->fd, IPU_IOCTL_BUF_FREE, &s->b) ? -errno : 0;
			if (!ret)
				s->hpin = 0;
		}
		break;
	case S_DETACH: {
		struct ipu_attach a = { .argsz = sizeof(a) };

		ret = ioctl(s->fd, IPU_IOCTL_DETACH, &a) ? -errno : 0;
		break;
	}
	case S_CLOSE:
		ret = close(s->fd) ? -errno : 0;
		s->fd = -1;
		if (ret)
			FAIL("close: %s", strerror(-ret));
		break;
	}
	return ret;
}

/* The workload, in the child. Never returns. */
static void workload(struct work *w)
{
	struct outcome *o = w->out;
	struct wl_state s = {
		.fd = -1, .map = MAP_FAILED, .sq = MAP_FAILED, .cq = MAP_FAILED,
		.db = MAP_FAILED,
	};
	int ret = 0, step;

	o->failed_step = -1;
	for (step = 0; step < S_COUNT; step++) {
		int on = w->inject_step < 0 || w->inject_step == step;

		inject(w, on);
		if (step <= S_PIN)
			ret = wl_setup_step(w, &s, step);
		else if (step <= S_ASYNC)
			ret = wl_io_step(w, &s, step);
		else
			ret = wl_queue_step(w, &s, step);
		/* Commands the driver accepted must have worked on the card. */
		if (!ret && (step == S_LOAD || step == S_WRITE_BUF || step == S_RUN ||
			     step == S_READ_BUF || step == S_WRITE_PTR ||
			     step == S_READ_PTR || step == S_EVENTFD) &&
		    s.c.status != IPU_STATUS_OK)
			FAIL("%s: accepted, but the card says status %u",
			     step_names[step], s.c.status);
		if (check_step(o, step, ret))
			break;
		o->done = step + 1;
	}
	/* What is left goes with exit, still injected if it was. */
	_exit(o->bad ? 1 : 0);
}

/* One child; 0 when it kept the rules, -1 with a message otherwise. */
static int run_child(struct work *w, char *msg, size_t len)
{
	pid_t pid;
	int st;

	memset(w->out, 0, sizeof(*w->out));
	pid = fork();
	if (pid < 0) {
		snprintf(msg, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		/*
		 * Before injection: the switch, and every page of the process
		 * in memory and its own (memory locks are not inherited), so
		 * that page faults do not take the injected failures.
		 */
		w->mif = open("/proc/self/make-it-fail", O_WRONLY);
		if (w->mif < 0 || mlockall(MCL_CURRENT))
			_exit(91);
		workload(w);
	}
	if (waitpid(pid, &st, 0) != pid) {
		snprintf(msg, len, "waitpid: %s", strerror(errno));
		return -1;
	}
	if (WIFSIGNALED(st)) {
		snprintf(msg, len, "the child died of signal %d after %s",
			 WTERMSIG(st), w->out->done ? step_names[w->out->done - 1] : "nothing");
		return -1;
	}
	if (WEXITSTATUS(st)) {
		if (w->out->bad)
			snprintf(msg, len, "%s", w->out->why);
		else
			snprintf(msg, len, "the child exited %d", WEXITSTATUS(st));
		return -1;
	}
	return 0;
}

/* With injection off: nothing left over, and the card attaches and runs. */
static int card_sane(struct work *w, char *msg, size_t len)
{
	struct ipu_attach a = { .argsz = sizeof(a), .flags = IPU_ATTACH_FLAG_NONBLOCK };
	struct ipu_cmd c;
	int fd, ret = 0, i;

	if (ipu_test_no_leaks(CARD)) {
		snprintf(msg, len, "the driver's counters did not go back to 0");
		return -1;
	}
	fd = open(w->dev, O_RDWR);
	if (fd < 0) {
		snprintf(msg, len, "open: %s", strerror(errno));
		return -1;
	}
	if (ioctl(fd, IPU_IOCTL_ATTACH, &a)) {
		snprintf(msg, len, "attach: %s", strerror(errno));
		close(fd);
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.opcode = IPU_CMD_LOAD;
	c.user_ptr = (uintptr_t)w->graph;
	c.length = w->graph_len;
	ret |= submit(fd, &c) || c.status;
	for (i = 0; i < N_ELEMS; i++)
		w->x[i] = (float)i;
	memset(&c, 0, sizeof(c));
	c.opcode = IPU_CMD_WRITE;
	c.handle = H_X;
	c.user_ptr = (uintptr_t)w->x;
	c.length = DATA_BYTES;
	ret |= submit(fd, &c) || c.status;
	memset(&c, 0, sizeof(c));
	c.opcode = IPU_CMD_RUN;
	c.handle = P_DOUBLE;
	ret |= submit(fd, &c) || c.status;
	memset(&c, 0, sizeof(c));
	c.opcode = IPU_CMD_READ;
	c.handle = H_Y;
	c.user_ptr = (uintptr_t)w->y;
	c.length = DATA_BYTES;
	ret |= submit(fd, &c) || c.status;
	for (i = 0; !ret && i < N_ELEMS; i++)
		ret |= w->y[i] != 2.0f * (float)i;
	close(fd);
	if (ret) {
		snprintf(msg, len, "a LOAD/WRITE/RUN/READ round trip failed");
		return -1;
	}
	return 0;
}

FIXTURE(fi) {
	struct work w;
	int skip;
};

FIXTURE_SETUP(fi)
{
	char name[IPU_TEST_NAME_MAX];
	struct stat st;

	if (stat(DBG "/failslab", &st))
		mount("debugfs", DBG, "debugfs", 0, NULL);
	if (stat(DBG "/failslab", &st) || stat(DBG "/fail_page_alloc", &st))
		SKIP(return, "no failslab/fail_page_alloc: not the debug kernel");
	if (ipu_find_card(CARD, name, sizeof(name)))
		SKIP(return, "card %d not present", CARD);
	snprintf(self->w.dev, sizeof(self->w.dev), "/dev/%s", name);
	ASSERT_EQ(0, ipu_test_double_graph(IPU_MODEL_TEST, N_ELEMS, 0,
					   &self->w.graph, &self->w.graph_len));
	self->w.x = calloc(N_ELEMS, 4);
	self->w.y = calloc(N_ELEMS, 4);
	ASSERT_EQ(0, posix_memalign((void **)&self->w.pin, PAGE, DATA_BYTES));
	memset(self->w.pin, 0, DATA_BYTES);
	self->w.out = mmap(NULL, sizeof(struct outcome), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->w.out);
	ASSERT_NE(NULL, self->w.x);
	ASSERT_NE(NULL, self->w.y);
	fault_off();
}

FIXTURE_TEARDOWN(fi)
{
	fault_off();
	free(self->w.graph);
}

/*
 * Injection aimed at one step at a time: for each step, children whose
 * first failure comes after a growing budget of bytes allocated in it.
 */
static void sweep(struct __test_metadata *_metadata, struct work *w,
		  const char *attr, const char *other)
{
	static const unsigned long space[] = { 0, 48, 128, 256, 512, 1024, 2048, 4096, 16384 };
	int failures[S_COUNT] = { 0 }, step, s, n = 0, clean = 0, ret;
	char msg[200];

	for (step = 0; step < S_COUNT; step++) {
		for (s = 0; s < (int)(sizeof(space) / sizeof(space[0])); s++) {
			ASSERT_EQ(0, fault_config(other, 0, 0, 0));
			ASSERT_EQ(0, fault_config(attr, 100, 1, space[s]));
			w->inject_step = step;
			ret = run_child(w, msg, sizeof(msg));
			fault_off();
			ASSERT_EQ(0, ret) TH_LOG("%s at %s, space %lu: %s",
						 attr, step_names[step], space[s], msg);
			n++;
			if (w->out->failed_step >= 0) {
				failures[w->out->failed_step]++;
				clean++;
			}
			ASSERT_EQ(0, card_sane(w, msg, sizeof(msg)))
				TH_LOG("%s at %s, space %lu, then: %s",
				       attr, step_names[step], space[s], msg);
		}
	}
	TH_LOG("%s: %d children, %d failed a step cleanly", attr, n, clean);
	EXPECT_LT(0, clean) TH_LOG("no injected failure reached the workload");
	for (step = 0; step < S_COUNT; step++)
		if (failures[step])
			TH_LOG("  %s failed %d time(s)", step_names[step], failures[step]);
}

TEST_F_TIMEOUT(fi, failslab_each_step, 900)
{
	IPU_RETURN_IF_SKIPPED();
	sweep(_metadata, &self->w, "failslab", "fail_page_alloc");
}

TEST_F_TIMEOUT(fi, fail_page_alloc_each_step, 900)
{
	IPU_RETURN_IF_SKIPPED();
	sweep(_metadata, &self->w, "fail_page_alloc", "failslab");
}

/* Both at random over the whole workload, several failures per child. */
TEST_F_TIMEOUT(fi, random_whole_workload, 900)
{
	int i, clean = 0, completed = 0, ret;
	char msg[200];

	IPU_RETURN_IF_SKIPPED();
	for (i = 0; i < 40; i++) {
		ASSERT_EQ(0, fault_config("failslab", 1 + i % 5, -1, 0));
		ASSERT_EQ(0, fault_config("fail_page_alloc", 1 + i % 3, -1, 0));
		self->w.inject_step = -1;
		ret = run_child(&self->w, msg, sizeof(msg));
		fault_off();
		ASSERT_EQ(0, ret) TH_LOG("child %d: %s", i, msg);
		if (self->w.out->failed_step >= 0)
			clean++;
		else
			completed++;
		ASSERT_EQ(0, card_sane(&self->w, msg, sizeof(msg)))
			TH_LOG("after child %d: %s", i, msg);
	}
	TH_LOG("40 children: %d stopped cleanly, %d completed", clean, completed);
}

/* The card's PCI address (its /sys/class/ipu/NAME/device link). */
static int card_bdf(char *bdf, size_t len)
{
	char name[IPU_TEST_NAME_MAX], path[128], link[256];
	ssize_t n;

	if (ipu_find_card(CARD, name, sizeof(name)))
		return -1;
	snprintf(path, sizeof(path), "/sys/class/ipu/%s/device", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = 0;
	snprintf(bdf, len, "%s", strrchr(link, '/') + 1);
	return 0;
}

/*
 * Probe (and the driver core around it) under injection: the card is
 * unbound, then bound again by a child whose write to "bind" runs the probe
 * in its own context. The bind succeeds or fails with a clean errno; then,
 * uninjected, the card binds (again) and works.
 */
TEST_F_TIMEOUT(fi, probe_each_budget, 900)
{
	static const unsigned long space[] = { 0, 64, 256, 1024, 2048, 4096,
		8192, 16384, 32768, 65536, 131072 };
	static const char *const attrs[] = { "failslab", "fail_page_alloc" };
	int a, i, st, failed = 0, n = 0;
	char bdf[64], name[IPU_TEST_NAME_MAX], msg[200];
	pid_t pid;

	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, card_bdf(bdf, sizeof(bdf)));
	for (a = 0; a < 2; a++) {
		for (i = 0; i < (int)(sizeof(space) / sizeof(space[0])); i++) {
			ASSERT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/unbind", bdf));
			fault_off();
			ASSERT_EQ(0, fault_config(attrs[a], 100, 1, space[i]));
			memset(self->w.out, 0, sizeof(*self->w.out));
			pid = fork();
			ASSERT_LE(0, pid);
			if (!pid) {
				int fd = open("/sys/bus/pci/drivers/ipu/bind", O_WRONLY);
				ssize_t r;

				self->w.mif = open("/proc/self/make-it-fail", O_WRONLY);
				if (fd < 0 || self->w.mif < 0 || mlockall(MCL_CURRENT))
					_exit(91);
				inject(&self->w, 1);
				r = write(fd, bdf, strlen(bdf));
				self->w.out->err = r < 0 ? errno : 0;
				_exit(0);
			}
			ASSERT_EQ(pid, waitpid(pid, &st, 0));
			fault_off();
			ASSERT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st))
				TH_LOG("%s, space %lu: the binding child died (status %#x)",
				       attrs[a], space[i], st);
			n++;
			if (self->w.out->err) {
				failed++;
				EXPECT_TRUE(clean_errno(self->w.out->err))
					TH_LOG("%s, space %lu: bind failed with %s",
					       attrs[a], space[i], strerror(self->w.out->err));
			}
			/* Bound again, uninjected, if the probe failed. */
			if (ipu_find_card(CARD, name, sizeof(name)))
				EXPECT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/bind", bdf))
					TH_LOG("%s, space %lu: bind after a failed probe",
					       attrs[a], space[i]);
			ASSERT_EQ(0, ipu_find_card(CARD, name, sizeof(name)));
			ASSERT_EQ(0, ipu_wait_state(name, "ready", 10000))
				TH_LOG("%s, space %lu: card not ready after the bind",
				       attrs[a], space[i]);
			snprintf(self->w.dev, sizeof(self->w.dev), "/dev/%s", name);
			ASSERT_EQ(0, card_sane(&self->w, msg, sizeof(msg)))
				TH_LOG("%s, space %lu, then: %s", attrs[a], space[i], msg);
		}
	}
	TH_LOG("%d binds under injection, %d failed cleanly", n, failed);
}

/* Injection off: the whole workload completes. */
TEST_F_TIMEOUT(fi, clean_afterwards, 120)
{
	char msg[200];

	IPU_RETURN_IF_SKIPPED();
	self->w.inject_step = S_COUNT;	/* never */
	ASSERT_EQ(0, run_child(&self->w, msg, sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_EQ(-1, self->w.out->failed_step)
		TH_LOG("%s: %s", step_names[self->w.out->failed_step],
		       strerror(self->w.out->err));
	EXPECT_EQ(S_COUNT, self->w.out->done);
	EXPECT_EQ(0, card_sane(&self->w, msg, sizeof(msg))) TH_LOG("%s", msg);
}

TEST_HARNESS_MAIN
