// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_recovery_test: hang detection and recovery (uAPI 1.8, docs/uapi.md
 * "Recovery"). Faults are injected into card 0 from QMP through the host
 * (tests/common/ipu_host_qmp.h, docs/hw-interface.md "Fault injection");
 * the test checks what user space sees: the lost command's status
 * (IPU_STATUS_HUNG and its cause), the recovery uevent, a card that works
 * afterwards (and no recovery for a lost interrupt or a slow READY), and
 * card 1's graph runs, submitted meanwhile by another process, all
 * verified. Every test also checks that nothing leaked (see struct
 * leak_snap). The stale_* tests check "Resets invalidate old state":
 * buffers from before a RESET or a recovery are -EIO, their mappings
 * SIGBUS, and new ones work. A close while the card hangs on its UNLOAD,
 * or fails during it, does not wait out the driver's timeouts: it
 * recovers the card once, and nothing leaks.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"
#include "ipu_graphs.h"
#include "ipu_host_qmp.h"

#define HUNG_CARD	0	/* faults go here: QOM /machine/peripheral/ipu0 */
#define OTHER_CARD	1	/* its commands must not notice */
/* Generous bounds for TCG: not timed assertions, only "it never came". */
#define UEVENT_MS	60000
/* Card 1's verified runs of the double graph (y = x + x), and their size. */
#define OTHER_RUNS	40
#define N_ELEMS		1024
/* Unreclaimable slab may move this much for reasons of its own. */
#define SLAB_MARGIN_KB	4096
/*
 * The driver's wait for a card to let go of a queue (IPU_LETGO_MS) and for
 * a detach's UNLOAD (IPU_DRAIN_MS): a close that took this long waited one
 * of them out instead of recovering the card.
 */
#define LETGO_MS	10000
#define PIN_BYTES	(64 * 4096)

/*
 * What a fault must not leak, taken before the test opens anything and
 * again after it closed everything: pinned pages (FOLL_PIN acquired minus
 * released, /proc/vmstat), unreclaimable slab (within SLAB_MARGIN_KB; under
 * the debug kernel kmemleak instead), the process's open descriptors and
 * the module's reference count. The
 * driver's own counters (debugfs) are checked by ipu_test_no_leaks().
 */
struct leak_snap {
	long long pins;
	long long slab_kb;
	int fds;
	int refcnt;
};

FIXTURE(recovery) {
	char name[IPU_TEST_NAME_MAX];
	int fd;
	int uev;
	pid_t other;
	struct leak_snap before;
	void *graph;
	size_t graph_len;
};

/* The value of @key in a "key value" or "key: value kB" file, or -1. */
static long long file_value(const char *path, const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long long v = -1;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) &&
		    (line[n] == ' ' || line[n] == ':')) {
			v = atoll(line + n + 1);
			break;
		}
	fclose(f);
	return v;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;		/* the directory's own descriptor */
}

/* 0, or -1 when one of the numbers could not be read. */
static int leak_snap(struct leak_snap *s)
{
	long long acq = file_value("/proc/vmstat", "nr_foll_pin_acquired");
	long long rel = file_value("/proc/vmstat", "nr_foll_pin_released");
	char buf[32];

	s->pins = acq - rel;
	s->slab_kb = file_value("/proc/meminfo", "SUnreclaim");
	s->fds = count_fds();
	s->refcnt = ipu_read_file("/sys/module/ipu/refcnt", buf,
				  sizeof(buf)) ? -1 : atoi(buf);
	return acq < 0 || rel < 0 || s->slab_kb < 0 || s->fds < 0 ||
	       s->refcnt < 0 ? -1 : 0;
}

/* Runs y = x + x (graph loaded) on @n random x: 0 when y is right. */
static int run_double(int fd, unsigned int seed)
{
	static float x[N_ELEMS], y[N_ELEMS];
	struct ipu_cmd c;

	for (int i = 0; i < N_ELEMS; i++)
		x[i] = (float)((int)(rand_r(&seed) % 2000001) - 1000000) / 1024;
	c = (struct ipu_cmd){ .opcode = IPU_CMD_WRITE, .handle = H_X,
			      .user_ptr = (uintptr_t)x, .length = sizeof(x) };
	if (ipu_test_submit(fd, &c) != IPU_STATUS_OK)
		return 1;
	c = (struct ipu_cmd){ .opcode = IPU_CMD_RUN, .handle = P_DOUBLE };
	if (ipu_test_submit(fd, &c) != IPU_STATUS_OK)
		return 2;
	memset(y, 0, sizeof(y));
	c = (struct ipu_cmd){ .opcode = IPU_CMD_READ, .handle = H_Y,
			      .user_ptr = (uintptr_t)y, .length = sizeof(y) };
	if (ipu_test_submit(fd, &c) != IPU_STATUS_OK)
		return 3;
	for (int i = 0; i < N_ELEMS; i++)
		if (y[i] != x[i] + x[i])	/* doubling is exact */
			return 4;
	return 0;
}

/* The double graph for the model of the card open at @fd. */
static int double_graph(int fd, void **graph, size_t *len)
{
	struct ipu_info info;

	if (ipu_get_info(fd, &info))
		return -1;
	return ipu_test_double_only_graph(info.model, N_ELEMS, graph, len);
}

static int load(int fd, const void *graph, size_t len)
{
	struct ipu_cmd c = { .opcode = IPU_CMD_LOAD,
			     .user_ptr = (uintptr_t)graph, .length = len };

	return ipu_test_submit(fd, &c);
}

/*
 * Waits for @card's KOBJ_CHANGE IPU_EVENT=@event uevent: its IPU_HUNG
 * cause (0 without one), or -1 when none came within UEVENT_MS.
 */
static int wait_uevent(int fd, const char *card, const char *event)
{
	long long end = ipu_now_ms() + UEVENT_MS;
	char want[64];

	snprintf(want, sizeof(want), "/ipu/%s", card);
	while (ipu_now_ms() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char buf[4096];
		int hung = 0, mine = 0, rec = 0;
		ssize_t n;

		if (poll(&p, 1, (int)(end - ipu_now_ms())) <= 0)
			break;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = 0;
		for (char *s = buf; s < buf + n; s += strlen(s) + 1) {
			if (!strncmp(s, "DEVPATH=", 8) && strstr(s, want) &&
			    !strcmp(strstr(s, want), want))
				mine = 1;
			else if (!strncmp(s, "IPU_EVENT=", 10) &&
				 !strcmp(s + 10, event))
				rec = 1;
			else if (!strncmp(s, "IPU_HUNG=", 9))
				hung = atoi(s + 9);
		}
		if (mine && rec)
			return hung;
	}
	return -1;
}

static int inject(struct __test_metadata *_metadata, const char *value)
{
	char path[64], rsp[512];
	int ret;

	snprintf(path, sizeof(path), "/machine/peripheral/ipu%d", HUNG_CARD);
	ret = ipu_host_qom_set(path, "inject-fault", value, rsp, sizeof(rsp));
	if (ret)
		TH_LOG("qom-set inject-fault %s: %d %s", value, ret, rsp);
	return ret;
}

static int fence(int fd, struct ipu_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->opcode = IPU_CMD_FENCE;
	return ipu_test_submit(fd, c);
}

/*
 * Another process computes on card 1 meanwhile: exit 0 when each of its
 * OTHER_RUNS runs of the double graph gave the right y, else the step
 * that failed (10 + run_double()'s code, 20 + the setup step).
 */
static pid_t start_other(void)
{
	pid_t pid = fork();
	size_t len;
	void *g;
	int fd, r;

	if (pid)
		return pid;
	fd = ipu_test_open_card(OTHER_CARD, O_RDWR);
	if (fd < 0 || ipu_test_attach(fd, 0) < 0)
		_exit(21);
	if (double_graph(fd, &g, &len))
		_exit(22);
	if (load(fd, g, len) != IPU_STATUS_OK)
		_exit(23);
	for (int i = 0; i < OTHER_RUNS; i++) {
		r = run_double(fd, i + 1);
		if (r)
			_exit(10 + r);
	}
	free(g);
	close(fd);
	_exit(0);
}

static int other_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

FIXTURE_SETUP(recovery)
{
	char other[IPU_TEST_NAME_MAX];

	self->fd = -1;
	self->uev = -1;
	self->other = -1;
	self->graph = NULL;
	if (!ipu_host_qmp_dir())
		SKIP(return, "no QMP from the host (IPU_QMP_DIR)");
	IPU_FIND_CARD_OR_SKIP(HUNG_CARD, self->name);
	ASSERT_EQ(0, ipu_wait_state(self->name, "ready", UEVENT_MS));
	ASSERT_EQ(0, leak_snap(&self->before));
	self->fd = ipu_test_open_card(HUNG_CARD, O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_LE(0, ipu_test_attach(self->fd, 0));
	ASSERT_EQ(0, double_graph(self->fd, &self->graph, &self->graph_len));
	self->uev = ipu_test_uevent_open();
	ASSERT_LE(0, self->uev);
	if (ipu_find_card(OTHER_CARD, other, sizeof(other)) == 0)
		self->other = start_other();
}

FIXTURE_TEARDOWN(recovery)
{
	struct leak_snap after;
	long long t0 = ipu_now_ms();

	/* Braced: EXPECT_EQ() ... TH_LOG() is more than one statement. */
	if (self->other > 0) {
		EXPECT_EQ(0, other_status(self->other))
			TH_LOG("card %d's graph runs failed meanwhile", OTHER_CARD);
	}
	if (self->uev >= 0)
		close(self->uev);
	if (self->fd >= 0)
		close(self->fd);
	free(self->graph);
	if (self->fd < 0)
		return;
	EXPECT_EQ(0, ipu_test_no_leaks(HUNG_CARD));
	/* Unpinning and freeing follow the release: give them a moment. */
	do {
		EXPECT_EQ(0, leak_snap(&after));
		if (after.pins == self->before.pins &&
		    after.refcnt == self->before.refcnt)
			break;
		usleep(10000);
	} while (ipu_now_ms() - t0 < 5000);
	EXPECT_EQ(self->before.pins, after.pins);
	EXPECT_EQ(self->before.fds, after.fds);
	EXPECT_EQ(self->before.refcnt, after.refcnt);
	/*
	 * Under the debug kernel KASAN's quarantine holds freed objects, so
	 * slab does not come back; kmemleak (run-tests.sh) checks there.
	 */
	if (access("/sys/kernel/debug/kmemleak", F_OK)) {
		EXPECT_GE(self->before.slab_kb + SLAB_MARGIN_KB, after.slab_kb)
			TH_LOG("unreclaimable slab %lld kB before, %lld kB after",
			       self->before.slab_kb, after.slab_kb);
	}
}

/*
 * After a recovery the card serves commands again: a FENCE, then the graph
 * loaded again (the reset took it) and a verified run.
 */
static void card_works(struct __test_metadata *_metadata,
		       FIXTURE_DATA(recovery) *self)
{
	struct ipu_cmd c;

	EXPECT_EQ(IPU_STATUS_OK, fence(self->fd, &c));
	EXPECT_EQ(IPU_STATUS_OK, load(self->fd, self->graph, self->graph_len));
	EXPECT_EQ(0, run_double(self->fd, 7));
}

/* sysfs recoveries of the card (the test fails when it cannot be read). */
static uint32_t recoveries(struct __test_metadata *_metadata,
			   FIXTURE_DATA(recovery) *self)
{
	uint32_t v = 0;

	EXPECT_EQ(0, ipu_sysfs_u32(self->name, "recoveries", &v));
	return v;
}

/*
 * After @fault, a FENCE completes HUNG with @cause, the recovery uevent
 * names it, and sysfs recoveries counts one.
 */
static void fence_hangs(struct __test_metadata *_metadata,
			FIXTURE_DATA(recovery) *self, const char *fault,
			uint32_t cause)
{
	uint32_t before = recoveries(_metadata, self);
	struct ipu_cmd c;

	ASSERT_EQ(0, inject(_metadata, fault));
	EXPECT_EQ(IPU_STATUS_HUNG, fence(self->fd, &c));
	EXPECT_EQ(cause, c.detail);
	EXPECT_EQ((int)cause, wait_uevent(self->uev, self->name, "recovery"));
	EXPECT_EQ(before + 1, recoveries(_metadata, self));
}

/* The next command hangs: it completes HUNG (command), the card works. */
TEST_F(recovery, hang_job)
{
	IPU_RETURN_IF_SKIPPED();
	fence_hangs(_metadata, self, "type=hang-job", IPU_HUNG_COMMAND);
	card_works(_metadata, self);
}

/* The heartbeat stops: the card is recovered though it still serves. */
TEST_F(recovery, heartbeat_stop)
{
	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, inject(_metadata, "type=heartbeat-stop"));
	EXPECT_EQ(IPU_HUNG_CARD, wait_uevent(self->uev, self->name, "recovery"));
	card_works(_metadata, self);
}

/* A fatal error: FAILED, recovered, READY again. */
TEST_F(recovery, fatal)
{
	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, inject(_metadata, "type=fatal"));
	EXPECT_EQ(0, wait_uevent(self->uev, self->name, "fatal"));
	EXPECT_EQ(IPU_HUNG_FATAL, wait_uevent(self->uev, self->name, "recovery"));
	EXPECT_EQ(0, ipu_wait_state(self->name, "ready", UEVENT_MS));
	card_works(_metadata, self);
}

/* An explicit RESET announces itself; nothing is recovered. */
TEST_F(recovery, reset_uevent)
{
	struct ipu_reset r;

	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, &r));
	EXPECT_EQ(0, wait_uevent(self->uev, self->name, "reset"));
	card_works(_metadata, self);
}

/*
 * A lost interrupt is no hang: the completion is posted, the driver finds
 * it (its poll), and nothing is recovered.
 */
TEST_F(recovery, drop_irq)
{
	uint32_t before, after;
	struct ipu_cmd c;

	IPU_RETURN_IF_SKIPPED();
	before = recoveries(_metadata, self);
	ASSERT_EQ(0, inject(_metadata, "type=drop-irq"));
	EXPECT_EQ(IPU_STATUS_OK, fence(self->fd, &c));
	card_works(_metadata, self);
	after = recoveries(_metadata, self);
	EXPECT_EQ(before, after);
}

/* A slow READY within the RESET's timeout: the reset succeeds. */
TEST_F(recovery, ready_delay)
{
	struct ipu_reset r;

	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, inject(_metadata, "type=ready-delay,ms=200"));
	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, &r));
	EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, r.state);
	card_works(_metadata, self);
}

/* A refused fault changes nothing: the card is not recovered. */
TEST_F(recovery, refused_fault)
{
	IPU_RETURN_IF_SKIPPED();
	EXPECT_NE(0, inject(_metadata, "type=no-such-fault"));
	card_works(_metadata, self);
}

/*
 * A failed DMA is the command's error, not a hang: the LOAD whose graph
 * transfer failed completes DMA_ERROR with the transfer's address, the card
 * is not recovered, and the next LOAD works.
 */
TEST_F(recovery, dma_error)
{
	uint32_t before, after;
	struct ipu_cmd c = { .opcode = IPU_CMD_LOAD,
			     .user_ptr = (uintptr_t)self->graph,
			     .length = self->graph_len };

	IPU_RETURN_IF_SKIPPED();
	before = recoveries(_metadata, self);
	ASSERT_EQ(0, inject(_metadata, "type=dma-error"));
	EXPECT_EQ(IPU_STATUS_DMA_ERROR, ipu_test_submit(self->fd, &c));
	EXPECT_NE(0ull, c.detail | (uint64_t)c.detail2 << 32);
	card_works(_metadata, self);
	after = recoveries(_metadata, self);
	EXPECT_EQ(before, after);
}

/*
 * A completion entry with a foreign sq_id and a cid of no command: the
 * driver cannot tell whose it was, so it recovers the card; the FENCE it
 * stood for completes HUNG (corrupt), never waits forever.
 */
TEST_F(recovery, corrupt_cqe)
{
	IPU_RETURN_IF_SKIPPED();
	fence_hangs(_metadata, self, "type=corrupt-cqe", IPU_HUNG_CORRUPT);
	card_works(_metadata, self);
}

/*
 * READY later than the RESET waits: -ETIMEDOUT and "failed", nothing
 * recovered behind the caller's back; a later RESET brings the card back.
 */
TEST_F(recovery, ready_delay_timeout)
{
	uint32_t before, after;
	struct ipu_reset r;

	IPU_RETURN_IF_SKIPPED();
	before = recoveries(_metadata, self);
	ASSERT_EQ(0, inject(_metadata, "type=ready-delay,ms=3000"));
	EXPECT_EQ(-ETIMEDOUT, ipu_reset(self->fd, 0, 500, &r));
	EXPECT_EQ(0, ipu_wait_state(self->name, "failed", 1000));
	ASSERT_EQ(0, ipu_reset(self->fd, 0, 10000, &r));
	EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, r.state);
	card_works(_metadata, self);
	after = recoveries(_metadata, self);
	EXPECT_EQ(before, after);
}

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(bus_jmp, sig);
}

/* Reads *@p: 0, or SIGBUS when the access raised it. */
static int touch(const volatile uint32_t *p)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	int sig;

	sigaction(SIGBUS, &sa, &old);
	sig = sigsetjmp(bus_jmp, 1);
	if (!sig)
		(void)*p;
	sigaction(SIGBUS, &old, NULL);
	return sig;
}

static int buf_new(int fd, unsigned long nr, uint64_t size, void *user,
		   uint64_t *mmap_offset)
{
	struct ipu_buf b = { .argsz = sizeof(b), .size = size,
			     .user_addr = (uintptr_t)user };

	if (ioctl(fd, nr, &b))
		return -errno;
	if (mmap_offset)
		*mmap_offset = b.mmap_offset;
	return (int)b.handle;
}

static uint64_t generation(struct __test_metadata *_metadata,
			   FIXTURE_DATA(recovery) *self)
{
	struct ipu_info info;
	char s[32];

	EXPECT_EQ(0, ipu_get_info(self->fd, &info));
	EXPECT_EQ(0, ipu_sysfs_read(self->name, "generation", s, sizeof(s)));
	EXPECT_EQ(info.generation, strtoull(s, NULL, 10));
	return info.generation;
}

/*
 * Buffers from before a reset: mapped, pinned and (@mid) one mmap()ed
 * only after it. @reset makes the reset (a RESET or a recovery).
 */
static void stale_check(struct __test_metadata *_metadata,
			FIXTURE_DATA(recovery) *self,
			void (*reset)(struct __test_metadata *,
				      FIXTURE_DATA(recovery) *))
{
	const size_t sz = N_ELEMS * sizeof(float);
	static float pinned[N_ELEMS] __attribute__((aligned(4096)));
	uint64_t off = 0, off2 = 0, gen;
	float *m, *m2, *y;
	int h, h2, hp;
	struct ipu_cmd c;

	h = buf_new(self->fd, IPU_IOCTL_BUF_ALLOC, sz, NULL, &off);
	ASSERT_LT(0, h);
	h2 = buf_new(self->fd, IPU_IOCTL_BUF_ALLOC, sz, NULL, &off2);
	ASSERT_LT(0, h2);
	hp = ipu_test_buf_pin(self->fd, pinned, sizeof(pinned));
	ASSERT_LT(0, hp);
	m = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, off);
	ASSERT_NE(MAP_FAILED, m);
	m[0] = 1.0f;
	EXPECT_EQ(0, touch((uint32_t *)m));
	gen = generation(_metadata, self);

	reset(_metadata, self);

	EXPECT_EQ(gen + 1, generation(_metadata, self));
	/* The mapping was zapped: SIGBUS. */
	EXPECT_EQ(SIGBUS, touch((uint32_t *)m));
	/* A stale buffer cannot be mapped or named in a command. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, sz, PROT_READ, MAP_SHARED, self->fd,
				   off2));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(IPU_STATUS_OK, load(self->fd, self->graph, self->graph_len));
	c = (struct ipu_cmd){ .opcode = IPU_CMD_WRITE, .handle = H_X,
			      .buf = h, .length = sz };
	EXPECT_EQ(-EIO, ipu_test_submit(self->fd, &c));
	c.buf = hp;
	EXPECT_EQ(-EIO, ipu_test_submit(self->fd, &c));
	/* ... but freed as any buffer. */
	EXPECT_EQ(0, ipu_test_buf_free(self->fd, h));
	EXPECT_EQ(0, ipu_test_buf_free(self->fd, h2));
	EXPECT_EQ(0, ipu_test_buf_free(self->fd, hp));
	EXPECT_EQ(SIGBUS, touch((uint32_t *)m));
	EXPECT_EQ(0, munmap(m, sz));

	/* A new buffer works: x in it, y = x + x read back into it. */
	h = buf_new(self->fd, IPU_IOCTL_BUF_ALLOC, 2 * sz, NULL, &off);
	ASSERT_LT(0, h);
	m2 = mmap(NULL, 2 * sz, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		  off);
	ASSERT_NE(MAP_FAILED, m2);
	y = m2 + N_ELEMS;
	for (int i = 0; i < N_ELEMS; i++)
		m2[i] = (float)i - 100.5f;
	c = (struct ipu_cmd){ .opcode = IPU_CMD_WRITE, .handle = H_X,
			      .buf = h, .length = sz };
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_submit(self->fd, &c));
	c = (struct ipu_cmd){ .opcode = IPU_CMD_RUN, .handle = P_DOUBLE };
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_submit(self->fd, &c));
	c = (struct ipu_cmd){ .opcode = IPU_CMD_READ, .handle = H_Y,
			      .buf = h, .buf_offset = sz, .length = sz };
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_submit(self->fd, &c));
	for (int i = 0; i < N_ELEMS; i++)
		ASSERT_EQ(m2[i] + m2[i], y[i]);
	EXPECT_EQ(0, munmap(m2, 2 * sz));
	EXPECT_EQ(0, ipu_test_buf_free(self->fd, h));
}

static void by_reset(struct __test_metadata *_metadata,
		     FIXTURE_DATA(recovery) *self)
{
	struct ipu_reset r;

	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, &r));
}

static void by_recovery(struct __test_metadata *_metadata,
			FIXTURE_DATA(recovery) *self)
{
	fence_hangs(_metadata, self, "type=hang-job", IPU_HUNG_COMMAND);
}

/* Buffers and mappings from before a RESET are stale; new ones work. */
TEST_F(recovery, stale_after_reset)
{
	IPU_RETURN_IF_SKIPPED();
	stale_check(_metadata, self, by_reset);
}

/* ... and from before a recovery. */
TEST_F(recovery, stale_after_recovery)
{
	IPU_RETURN_IF_SKIPPED();
	stale_check(_metadata, self, by_recovery);
}

/* The ipu module's reference count (each open file holds one), or -1. */
static long module_refs(void)
{
	char buf[32];

	if (ipu_read_file("/sys/module/ipu/refcnt", buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

/* What a close during a fault is checked against. */
struct close_base {
	uint32_t recoveries;
	uint32_t resets;
	long refs;		/* the module's, self->fd open */
	long file_refs;		/* those one open file holds */
	void *pin;
};

/*
 * Card 1's process is done first (its file would change the module's
 * count); self->fd keeps a pinned buffer, which its close must unpin.
 */
static void close_base_take(struct __test_metadata *_metadata,
			    FIXTURE_DATA(recovery) *self, struct close_base *b)
{
	int fd;

	if (self->other > 0) {
		EXPECT_EQ(0, other_status(self->other));
		self->other = -1;
	}
	b->pin = mmap(NULL, PIN_BYTES, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, b->pin);
	memset(b->pin, 0x5a, PIN_BYTES);
	ASSERT_LT(0, ipu_test_buf_pin(self->fd, b->pin, PIN_BYTES));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "recoveries", &b->recoveries));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "reset_count", &b->resets));
	b->refs = module_refs();
	ASSERT_LT(0, b->refs);
	fd = ipu_test_open_card(HUNG_CARD, O_RDWR);
	ASSERT_LE(0, fd);
	b->file_refs = module_refs() - b->refs;
	close(fd);
	ASSERT_LT(0, b->file_refs);
	ASSERT_EQ(b->refs, module_refs());
}

/*
 * The close returned, the recovery for @cause was announced: it was one
 * recovery (one reset), the card works, and the close left nothing behind.
 */
static void close_base_check(struct __test_metadata *_metadata,
			     FIXTURE_DATA(recovery) *self,
			     struct close_base *b, uint32_t cause)
{
	uint32_t recs, resets;

	if (cause == IPU_HUNG_FATAL)
		EXPECT_EQ(0, wait_uevent(self->uev, self->name, "fatal"));
	EXPECT_EQ((int)cause, wait_uevent(self->uev, self->name, "recovery"));
	EXPECT_EQ(0, ipu_wait_state(self->name, "ready", UEVENT_MS));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "recoveries", &recs));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "reset_count", &resets));
	EXPECT_EQ(b->recoveries + 1, recs);
	EXPECT_EQ(b->resets + 1, resets)
		TH_LOG("the card was reset %u times", resets - b->resets);

	self->fd = ipu_test_open_card(HUNG_CARD, O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_LE(0, ipu_test_attach(self->fd, 0));
	card_works(_metadata, self);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0, ipu_test_no_leaks(HUNG_CARD));
	EXPECT_EQ(b->refs - b->file_refs, module_refs());
	munmap(b->pin, PIN_BYTES);
}

/* Closes self->fd: how long it took, in ms. */
static long long close_card(FIXTURE_DATA(recovery) *self)
{
	long long t0 = ipu_now_ms();

	close(self->fd);
	self->fd = -1;
	t0 = ipu_now_ms() - t0;
	fprintf(stderr, "# close took %lld ms\n", t0);
	return t0;
}

/*
 * The close's UNLOAD hangs: the watchdog finds the command hung, and the
 * close, which holds the card meanwhile, recovers it instead of waiting
 * for the UNLOAD and then for the card to let go of its queue.
 */
TEST_F(recovery, close_hang_unload)
{
	struct close_base b;
	long long ms;

	IPU_RETURN_IF_SKIPPED();
	close_base_take(_metadata, self, &b);
	ASSERT_EQ(0, inject(_metadata, "type=hang-job"));
	ms = close_card(self);
	EXPECT_GT(LETGO_MS, ms)
		TH_LOG("close took %lld ms: it waited out the %d ms let-go timeout",
		       ms, LETGO_MS);
	close_base_check(_metadata, self, &b, IPU_HUNG_COMMAND);
}

#define PROGRESS_PARAM	"/sys/module/ipu/parameters/progress_timeout_ms"

/*
 * The card fails while a close waits for its UNLOAD (hung, and not found
 * hung meanwhile: the watchdog's progress timeout is raised, since the
 * fault takes its way through the host's QMP): the close recovers the card
 * at once, and the recovery the watchdog queued meanwhile finds it
 * recovered and only announces it, once.
 */
TEST_F(recovery, close_fatal)
{
	char progress[32] = "";
	int go[2], closed[2];
	struct close_base b;
	long long ms;
	pid_t pid;
	char c;

	IPU_RETURN_IF_SKIPPED();
	close_base_take(_metadata, self, &b);
	ASSERT_EQ(0, ipu_read_file(PROGRESS_PARAM, progress, sizeof(progress)));
	ASSERT_EQ(0, ipu_write_file(PROGRESS_PARAM, "600000"));
	ASSERT_EQ(0, inject(_metadata, "type=hang-job"));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(closed));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* Our copy of the file: the parent's close is the last. */
		close(self->fd);
		close(go[1]);
		close(closed[0]);
		if (write(closed[1], "c", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(inject(_metadata, "type=fatal") ? 1 : 0);
	}
	close(go[0]);
	close(closed[1]);
	ASSERT_EQ(1, read(closed[0], &c, 1));
	close(closed[0]);
	/* The fault goes in while the close waits for the hung UNLOAD. */
	ASSERT_EQ(1, write(go[1], "g", 1));
	close(go[1]);
	ms = close_card(self);
	EXPECT_EQ(0, ipu_write_file(PROGRESS_PARAM, progress));
	EXPECT_EQ(0, other_status(pid));
	EXPECT_GT(LETGO_MS, ms)
		TH_LOG("close took %lld ms: it waited out the %d ms let-go timeout",
		       ms, LETGO_MS);
	close_base_check(_metadata, self, &b, IPU_HUNG_FATAL);
}

TEST_HARNESS_MAIN
