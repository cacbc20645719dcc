// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_recovery_test: hang detection and recovery (uAPI 1.8, docs/uapi.md
 * "Recovery"). Faults are injected into card 0 from QMP through the host
 * (tests/common/ipu_host_qmp.h, docs/hw-interface.md "Fault injection");
 * the test checks what user space sees: the lost command's status
 * (IPU_STATUS_HUNG and its cause), the recovery uevent, a card that works
 * afterwards (and no recovery for a lost interrupt or a slow READY), and
 * card 1's commands, submitted meanwhile by another process, all OK. A
 * close while the card hangs on its UNLOAD, or fails during it, does not
 * wait out the driver's timeouts: it recovers the card once, and nothing
 * leaks.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"
#include "ipu_host_qmp.h"

#define HUNG_CARD	0	/* faults go here: QOM /machine/peripheral/ipu0 */
#define OTHER_CARD	1	/* its commands must not notice */
/* Generous bounds for TCG: not timed assertions, only "it never came". */
#define UEVENT_MS	60000
#define OTHER_FENCES	200
/*
 * The driver's wait for a card to let go of a queue (IPU_LETGO_MS) and for
 * a detach's UNLOAD (IPU_DRAIN_MS): a close that took this long waited one
 * of them out instead of recovering the card.
 */
#define LETGO_MS	10000
#define PIN_BYTES	(64 * 4096)

FIXTURE(recovery) {
	char name[IPU_TEST_NAME_MAX];
	int fd;
	int uev;
	pid_t other;
};

static int uevent_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
			NETLINK_KOBJECT_UEVENT);
	int sz = 1 << 20;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
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

/* Another process keeps card 1 busy: exit 0 when every FENCE was OK. */
static pid_t start_other(void)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	int fd = ipu_test_open_card(OTHER_CARD, O_RDWR);
	struct ipu_cmd c;

	if (fd < 0 || ipu_test_attach(fd, 0) < 0)
		_exit(2);
	for (int i = 0; i < OTHER_FENCES; i++)
		if (fence(fd, &c) != IPU_STATUS_OK)
			_exit(1);
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
	if (!ipu_host_qmp_dir())
		SKIP(return, "no QMP from the host (IPU_QMP_DIR)");
	IPU_FIND_CARD_OR_SKIP(HUNG_CARD, self->name);
	ASSERT_EQ(0, ipu_wait_state(self->name, "ready", UEVENT_MS));
	self->fd = ipu_test_open_card(HUNG_CARD, O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_LE(0, ipu_test_attach(self->fd, 0));
	self->uev = uevent_open();
	ASSERT_LE(0, self->uev);
	if (ipu_find_card(OTHER_CARD, other, sizeof(other)) == 0)
		self->other = start_other();
}

FIXTURE_TEARDOWN(recovery)
{
	if (_metadata->skip)
		return;
	if (self->other > 0)
		EXPECT_EQ(0, other_status(self->other))
			TH_LOG("card %d's commands failed meanwhile", OTHER_CARD);
	if (self->uev >= 0)
		close(self->uev);
	if (self->fd >= 0)
		close(self->fd);
}

/* After a recovery the card serves commands again. */
static void card_works(struct __test_metadata *_metadata, int fd)
{
	struct ipu_cmd c;

	EXPECT_EQ(IPU_STATUS_OK, fence(fd, &c));
}

/* The next command hangs: it completes HUNG (command), the card works. */
TEST_F(recovery, hang_job)
{
	uint32_t before, after;
	struct ipu_cmd c;

	IPU_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "recoveries", &before));
	ASSERT_EQ(0, inject(_metadata, "type=hang-job"));
	EXPECT_EQ(IPU_STATUS_HUNG, fence(self->fd, &c));
	EXPECT_EQ((uint32_t)IPU_HUNG_COMMAND, c.detail);
	EXPECT_EQ(IPU_HUNG_COMMAND, wait_uevent(self->uev, self->name, "recovery"));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "recoveries", &after));
	EXPECT_EQ(before + 1, after);
	card_works(_metadata, self->fd);
}

/* The heartbeat stops: the card is recovered though it still serves. */
TEST_F(recovery, heartbeat_stop)
{
	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, inject(_metadata, "type=heartbeat-stop"));
	EXPECT_EQ(IPU_HUNG_CARD, wait_uevent(self->uev, self->name, "recovery"));
	card_works(_metadata, self->fd);
}

/* A fatal error: FAILED, recovered, READY again. */
TEST_F(recovery, fatal)
{
	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, inject(_metadata, "type=fatal"));
	EXPECT_EQ(0, wait_uevent(self->uev, self->name, "fatal"));
	EXPECT_EQ(IPU_HUNG_FATAL, wait_uevent(self->uev, self->name, "recovery"));
	EXPECT_EQ(0, ipu_wait_state(self->name, "ready", UEVENT_MS));
	card_works(_metadata, self->fd);
}

/* An explicit RESET announces itself; nothing is recovered. */
TEST_F(recovery, reset_uevent)
{
	struct ipu_reset r;

	IPU_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, ipu_reset(self->fd, 0, 0, &r));
	EXPECT_EQ(0, wait_uevent(self->uev, self->name, "reset"));
	card_works(_metadata, self->fd);
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

	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "recoveries", &before));
	ASSERT_EQ(0, inject(_metadata, "type=drop-irq"));
	EXPECT_EQ(IPU_STATUS_OK, fence(self->fd, &c));
	card_works(_metadata, self->fd);
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "recoveries", &after));
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
	card_works(_metadata, self->fd);
}

/* A refused fault changes nothing: the card is not recovered. */
TEST_F(recovery, refused_fault)
{
	IPU_RETURN_IF_SKIPPED();
	EXPECT_NE(0, inject(_metadata, "type=no-such-fault"));
	card_works(_metadata, self->fd);
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
	uint32_t recoveries, resets;
	int fd;

	if (cause == IPU_HUNG_FATAL)
		EXPECT_EQ(0, wait_uevent(self->uev, self->name, "fatal"));
	EXPECT_EQ((int)cause, wait_uevent(self->uev, self->name, "recovery"));
	EXPECT_EQ(0, ipu_wait_state(self->name, "ready", UEVENT_MS));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "recoveries", &recoveries));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "reset_count", &resets));
	EXPECT_EQ(b->recoveries + 1, recoveries);
	EXPECT_EQ(b->resets + 1, resets)
		TH_LOG("the card was reset %u times", resets - b->resets);

	fd = ipu_test_open_card(HUNG_CARD, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_LE(0, ipu_test_attach(fd, 0));
	card_works(_metadata, fd);
	close(fd);
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
