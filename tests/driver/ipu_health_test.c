// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_health_test: health and telemetry through the driver (uAPI 1.8,
 * docs/uapi.md "Health and telemetry"). The hwmon device of card 0 (name
 * "ipu", the chip's limits from include/ipu/ipu_models.h), its temperature
 * and power within the chip's range at rest and rising under a RUN that
 * keeps the card busy, falling back to idle power after it; the health
 * attributes; the holder (this process while attached, empty after); and,
 * with QMP from the host (IPU_QMP_DIR, vm-driver-recovery-check), the DMA
 * error counter and the health word after an injected DMA error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"
#include "ipu_host_qmp.h"
#include "ipu_graphs.h"
#include "ipu/ipu_models.h"

#define CARD		0	/* faults go to QOM /machine/peripheral/ipu0 */
#define N_ELEMS		1024
/* Bounds for TCG: not timed assertions, only "it never came". */
#define MOVE_MS		120000
#define POLL_US		50000

FIXTURE(health) {
	char name[IPU_TEST_NAME_MAX];
	char hwmon[512];		/* the card's hwmon directory */
	const struct ipu_model *m;
	int fd;
};

/* The hwmon directory under the card's PCI device into @dir: 0 or -1. */
static int find_hwmon(const char *name, char *dir, size_t len)
{
	char path[128];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/ipu/%s/device/hwmon", name);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "hwmon", 5)) {
			snprintf(dir, len, "%s/%s", path, e->d_name);
			closedir(d);
			return 0;
		}
	closedir(d);
	return -1;
}

/* A sensor of @dir as a number: 0, or -errno (the read's). */
static int sensor(const char *dir, const char *attr, long long *v)
{
	char path[640], buf[64], *end;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	ret = ipu_read_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || end == buf || *end ? -EINVAL : 0;
}

static long long sensor_or(const char *dir, const char *attr, long long dflt)
{
	long long v;

	return sensor(dir, attr, &v) ? dflt : v;
}

/* Waits (MOVE_MS at most) until power1_input reads @uw: its last reading. */
static long long wait_power(const char *hwmon, long long uw)
{
	long long end = ipu_now_ms() + MOVE_MS;

	while (sensor_or(hwmon, "power1_input", -1) != uw &&
	       ipu_now_ms() < end)
		usleep(POLL_US);
	return sensor_or(hwmon, "power1_input", -1);
}

/* Attaches @fd and loads the double graph (with "spin") for @m. */
static int attach_loaded(int fd, const struct ipu_model *m)
{
	size_t len;
	void *g;
	int st;

	if (ipu_test_attach(fd, 0) < 0 ||
	    ipu_test_double_graph(m->id, N_ELEMS, 0, &g, &len))
		return -1;
	st = ipu_test_xfer(fd, IPU_CMD_LOAD, 0, 0, g, len, NULL);
	free(g);
	return st == IPU_STATUS_OK ? 0 : -1;
}

FIXTURE_SETUP(health)
{
	char model[32];

	self->fd = -1;
	IPU_FIND_CARD_OR_SKIP(CARD, self->name);
	ASSERT_EQ(0, ipu_wait_state(self->name, "ready", MOVE_MS));
	ASSERT_EQ(0, ipu_sysfs_read(self->name, "model", model, sizeof(model)));
	self->m = ipu_model_by_name(model);
	ASSERT_NE(NULL, self->m) TH_LOG("model %s", model);
	/* A kernel without hwmon (the debug kernel) has no sensors to show. */
	self->hwmon[0] = '\0';
	if (!access("/sys/class/hwmon", F_OK))
		ASSERT_EQ(0, find_hwmon(self->name, self->hwmon, sizeof(self->hwmon)))
			TH_LOG("%s has no hwmon device", self->name);
	self->fd = ipu_test_open_card(CARD, O_RDWR);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(health)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* name "ipu", the chip's limits, and readings within the chip's range. */
TEST_F(health, hwmon_sensors)
{
	const struct ipu_model *m = self->m;
	char path[640], buf[64];
	long long t, p;

	if (!self->hwmon[0])
		SKIP(return, "a kernel without hwmon (CONFIG_HWMON)");
	snprintf(path, sizeof(path), "%s/name", self->hwmon);
	ASSERT_EQ(0, ipu_read_file(path, buf, sizeof(buf)));
	EXPECT_STREQ("ipu", buf);
	ASSERT_EQ(0, sensor(self->hwmon, "temp1_max", &t));
	EXPECT_EQ(m->temp_max_mc, t);
	ASSERT_EQ(0, sensor(self->hwmon, "temp1_crit", &t));
	EXPECT_EQ(m->temp_crit_mc, t);
	ASSERT_EQ(0, sensor(self->hwmon, "temp1_input", &t));
	EXPECT_LE(m->temp_idle_mc - 1, t);
	EXPECT_GE(m->temp_load_mc, t);
	ASSERT_EQ(0, sensor(self->hwmon, "power1_input", &p));
	EXPECT_LE(1000LL * m->power_idle_mw, p);
	EXPECT_GE(1000LL * m->power_max_mw, p);
	/* Read-only, and no sensor the driver does not offer. */
	EXPECT_EQ(-EACCES, ipu_write_file(path, "x"));
	snprintf(path, sizeof(path), "%s/temp2_input", self->hwmon);
	EXPECT_EQ(-ENOENT, ipu_read_file(path, buf, sizeof(buf)));
}

/*
 * Under a RUN that keeps the card busy, power rises above the idle figure
 * and the temperature above where it stood; utilisation shows it; after
 * ABORT the power falls back to idle. Only changes are asserted: each wait
 * is bounded by MOVE_MS, never timed.
 */
TEST_F_TIMEOUT(health, sensors_move_under_load, 600)
{
	const struct ipu_model *m = self->m;
	long long idle_uw = 1000LL * m->power_idle_mw, t0, t = 0, p = 0;
	uint32_t util = 0, u;
	uint64_t seq;
	long long end;

	if (!self->hwmon[0])
		SKIP(return, "a kernel without hwmon (CONFIG_HWMON)");
	ASSERT_EQ(0, attach_loaded(self->fd, m));
	/* At rest first: a whole window without a command (idle power). */
	ASSERT_EQ(idle_uw, wait_power(self->hwmon, idle_uw));
	ASSERT_EQ(0, sensor(self->hwmon, "temp1_input", &t0));

	ASSERT_EQ(IPU_STATUS_OK, ipu_test_xfer(self->fd, IPU_CMD_RUN,
				      IPU_CMD_FLAG_ASYNC, P_SPIN, NULL, 0,
				      &seq));
	end = ipu_now_ms() + MOVE_MS;
	while ((p <= idle_uw || t <= t0 || !util) && ipu_now_ms() < end) {
		usleep(POLL_US);
		p = sensor_or(self->hwmon, "power1_input", p);
		t = sensor_or(self->hwmon, "temp1_input", t);
		if (!ipu_sysfs_u32(self->name, "utilisation", &u) && u > util)
			util = u;
	}
	EXPECT_LT(idle_uw, p);
	EXPECT_GE(1000LL * m->power_max_mw, p);
	EXPECT_LT(t0, t);
	EXPECT_GE(m->temp_load_mc, t);
	EXPECT_LT(0u, util);
	EXPECT_GE(100u, util);

	struct ipu_cmd c = { .opcode = IPU_CMD_ABORT };

	EXPECT_EQ(IPU_STATUS_OK, ipu_test_submit(self->fd, &c));
	EXPECT_EQ(IPU_STATUS_ABORTED,
		  ipu_test_wait_seq(self->fd, seq, 0, MOVE_MS, NULL));
	EXPECT_EQ(idle_uw, wait_power(self->hwmon, idle_uw));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "utilisation", &u));
	EXPECT_EQ(0u, u);
}

/* The health attributes read sensible values on a working card. */
TEST_F(health, health_attributes)
{
	static const char *const counters[] = { "errors_dma", "errors_ring",
						"errors_fatal" };
	char word[32];
	uint32_t v;

	ASSERT_EQ(0, ipu_sysfs_read(self->name, "health", word, sizeof(word)));
	EXPECT_TRUE(!strcmp(word, "ok") || !strcmp(word, "degraded"))
		TH_LOG("health %s on a ready card", word);
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "utilisation", &v));
	EXPECT_GE(100u, v);
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		EXPECT_EQ(0, ipu_sysfs_u32(self->name, counters[i], &v))
			TH_LOG("%s", counters[i]);
	}
	/* "degraded" exactly when something was counted or recovered. */
	uint32_t sum = 0;

	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		if (!ipu_sysfs_u32(self->name, counters[i], &v))
			sum += v;
	if (!ipu_sysfs_u32(self->name, "recoveries", &v))
		sum += v;
	EXPECT_STREQ(sum ? "degraded" : "ok", word);
}

/* "PID UID COMM" of the attached context; empty before and after. */
static void expect_holder(struct __test_metadata *_metadata,
			  const char *name, pid_t pid, const char *comm)
{
	char buf[128], want[128];

	ASSERT_EQ(0, ipu_sysfs_read(name, "holder", buf, sizeof(buf)));
	if (pid)
		snprintf(want, sizeof(want), "%d %u %s", (int)pid,
			 (unsigned)getuid(), comm);
	else
		want[0] = '\0';
	EXPECT_STREQ(want, buf);
}

/* @cmd's output into @out (@len bytes): its exit status, or -1. */
static int run_tool(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	return pclose(f);
}

/*
 * ipu-info names the holder as gc-info and gc-monitor do: its pid, uid and
 * command in the detail view, the monitor table and the monitor's JSON.
 */
static void tool_shows_holder(struct __test_metadata *_metadata,
			      const char *name, pid_t pid)
{
	char cmd[96], out[8192], want[96];
	int id = atoi(name + 3);	/* N of ipuN */

	snprintf(cmd, sizeof(cmd), "ipu-info -d %d 2>&1", id);
	ASSERT_EQ(0, run_tool(cmd, out, sizeof(out))) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "\nuser process id: %d\n", (int)pid);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "\nuser id: %u\n", (unsigned)getuid());
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "ipu-info -m --json 2>&1");
	ASSERT_EQ(0, run_tool(cmd, out, sizeof(out))) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "\"user_process_id\": %d,", (int)pid);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "ipu-info -m 2>&1");
	ASSERT_EQ(0, run_tool(cmd, out, sizeof(out))) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "  %d  ", (int)pid);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
}

TEST_F(health, holder)
{
	char comm[17] = "";
	pid_t child;
	int st;

	ASSERT_EQ(0, prctl(PR_GET_NAME, comm));
	expect_holder(_metadata, self->name, 0, NULL);
	ASSERT_LE(0, ipu_test_attach(self->fd, 0));
	expect_holder(_metadata, self->name, getpid(), comm);
	if (access("/usr/bin/ipu-info", X_OK) == 0)
		tool_shows_holder(_metadata, self->name, getpid());
	ASSERT_EQ(0, ipu_test_detach(self->fd));
	expect_holder(_metadata, self->name, 0, NULL);

	/* Another process: its own pid and name while it holds the card. */
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		int fd = ipu_test_open_card(CARD, O_RDWR);
		char buf[128], want[128];

		prctl(PR_SET_NAME, "ipu-holder");
		if (fd < 0 || ipu_test_attach(fd, 0) < 0)
			_exit(2);
		snprintf(want, sizeof(want), "%d %u ipu-holder", (int)getpid(),
			 (unsigned)getuid());
		if (ipu_sysfs_read(self->name, "holder", buf, sizeof(buf)) ||
		    strcmp(buf, want))
			_exit(1);
		_exit(0);	/* release detaches */
	}
	ASSERT_EQ(child, waitpid(child, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("child's holder check: status %#x", st);
	expect_holder(_metadata, self->name, 0, NULL);
}

/*
 * lm-sensors lists the card (the VM has `sensors` when the host had it,
 * mk/driver.mk): the chip ipu-pci-BBDD with temp1 and power1.
 */
TEST_F(health, sensors_lists_card)
{
	char out[8192];

	if (!self->hwmon[0])
		SKIP(return, "a kernel without hwmon (CONFIG_HWMON)");
	if (access("/usr/bin/sensors", X_OK))
		SKIP(return, "no sensors program (lm-sensors) in the VM");
	ASSERT_EQ(0, run_tool("sensors 'ipu-*' 2>&1", out, sizeof(out)))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "ipu-pci-")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\ntemp1:")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\npower1:")) TH_LOG("%s", out);
}

/*
 * A reader of every sensor and health attribute, in a child, while PCI
 * function resets fence the card: each read returns a value or EAGAIN
 * (docs/uapi.md), never another error and never blocks for good; exit 0
 * when so and at least one read succeeded, 1 otherwise.
 */
static void read_through_resets(const char *name, const char *hwmon,
				int stop_fd)
{
	static const char *const attrs[] = { "temp1_input", "power1_input",
					     "health", "utilisation",
					     "errors_dma", "holder" };
	char path[640], buf[64];
	long ok = 0, again = 0;
	char c;

	for (;;) {
		for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
			int ret;

			if (i < 2 && !hwmon[0])
				continue;	/* a kernel without hwmon */
			if (i < 2)
				snprintf(path, sizeof(path), "%s/%s", hwmon,
					 attrs[i]);
			else
				snprintf(path, sizeof(path),
					 "/sys/class/ipu/%s/%s", name, attrs[i]);
			ret = ipu_read_file(path, buf, sizeof(buf));
			if (!ret)
				ok++;
			else if (ret == -EAGAIN)
				again++;
			else {
				fprintf(stderr, "%s: %s\n", path, strerror(-ret));
				_exit(1);
			}
		}
		if (read(stop_fd, &c, 1) == 0)	/* the parent closed it */
			break;
	}
	fprintf(stderr, "# reads: %ld ok, %ld EAGAIN\n", ok, again);
	_exit(ok ? 0 : 1);
}

TEST_F_TIMEOUT(health, reads_during_function_reset, 600)
{
	char addr[64], path[256], link[256];
	int p[2], st;
	ssize_t n;
	pid_t child;

	snprintf(path, sizeof(path), "/sys/class/ipu/%s/device", self->name);
	n = readlink(path, link, sizeof(link) - 1);
	ASSERT_LT(0, n);
	link[n] = '\0';
	snprintf(addr, sizeof(addr), "%s", strrchr(link, '/') + 1);
	ASSERT_EQ(0, pipe2(p, O_NONBLOCK));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		close(p[1]);
		read_through_resets(self->name, self->hwmon, p[0]);
	}
	close(p[0]);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset", addr);
	for (int i = 0; i < 5; i++) {
		ASSERT_EQ(0, ipu_write_file(path, "1"));
		ASSERT_EQ(0, ipu_wait_state(self->name, "ready", MOVE_MS));
	}
	close(p[1]);
	ASSERT_EQ(child, waitpid(child, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("the reader saw an error other than EAGAIN: %#x", st);
	/* After the resets: figures again, the counters from power-on. */
	long long t;

	if (self->hwmon[0])
		EXPECT_EQ(0, sensor(self->hwmon, "temp1_input", &t));
}

/* An injected DMA error: counted in errors_dma, health "degraded". */
TEST_F(health, dma_error_counted)
{
	static float x[N_ELEMS];
	char path[64], rsp[512], word[32];
	uint32_t before, after;

	if (!ipu_host_qmp_dir())
		SKIP(return, "no QMP from the host (IPU_QMP_DIR)");
	ASSERT_EQ(0, attach_loaded(self->fd, self->m));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "errors_dma", &before));
	snprintf(path, sizeof(path), "/machine/peripheral/ipu%d", CARD);
	ASSERT_EQ(0, ipu_host_qom_set(path, "inject-fault", "type=dma-error",
				      rsp, sizeof(rsp))) TH_LOG("%s", rsp);
	EXPECT_EQ(IPU_STATUS_DMA_ERROR, ipu_test_xfer(self->fd, IPU_CMD_WRITE, 0, H_X,
					     x, sizeof(x), NULL));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "errors_dma", &after));
	EXPECT_EQ(before + 1, after);
	ASSERT_EQ(0, ipu_sysfs_read(self->name, "health", word, sizeof(word)));
	EXPECT_STREQ("degraded", word);
	/* The fault was spent: the card works on. */
	EXPECT_EQ(IPU_STATUS_OK, ipu_test_xfer(self->fd, IPU_CMD_WRITE, 0, H_X, x,
				      sizeof(x), NULL));
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "errors_dma", &after));
	EXPECT_EQ(before + 1, after);
}

TEST_HARNESS_MAIN
