// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_module_test: loading and unloading ipu.ko (finit_module and
 * delete_module on $IPU_MODULE), rmmod refused while a file is open, and a
 * device unbound from the driver while a file is open.
 *
 * Leaves the module loaded or not as it found it.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"

#define LOAD_CYCLES	20
#define SETTLE_MS	20000

static int module_loaded(void)
{
	struct stat st;

	return !stat("/sys/module/ipu/initstate", &st);
}

static const char *module_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("IPU_MODULE");
	struct utsname u;
	struct stat st;

	if (env && *env)
		return env;
	if (!uname(&u)) {
		snprintf(path, sizeof(path), "/lib/modules/%s/extra/ipu.ko",
			 u.release);
		if (!stat(path, &st))
			return path;
	}
	return "/lib/modules/ipu.ko";
}

/* 0 or errno */
static int load(const char *params)
{
	int fd = open(module_path(), O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? errno : 0;
	close(fd);
	return ret;
}

/* 0 or errno */
static int unload(void)
{
	return syscall(SYS_delete_module, "ipu", O_NONBLOCK) ? errno : 0;
}

FIXTURE(mod) {
	int was_loaded;
	int cards;
};

FIXTURE_SETUP(mod)
{
	struct stat st;

	if (stat(module_path(), &st))
		SKIP(return, "no module at %s (set IPU_MODULE)", module_path());
	self->cards = ipu_pci_count();
	if (!self->cards)
		SKIP(return, "no IPU PCI function");
	self->was_loaded = module_loaded();
	if (self->was_loaded)
		ASSERT_EQ(0, ipu_wait_cards(self->cards, SETTLE_MS));
}

FIXTURE_TEARDOWN(mod)
{
	if (_metadata->skip)
		return;
	if (self->was_loaded && !module_loaded()) {
		EXPECT_EQ(0, load(""));
		EXPECT_EQ(0, ipu_wait_cards(self->cards, SETTLE_MS));
	} else if (!self->was_loaded && module_loaded()) {
		EXPECT_EQ(0, unload());
	}
}

/* Make sure the module is loaded and every card has its node. */
static void ensure_loaded(struct __test_metadata *_metadata, int cards)
{
	if (!module_loaded())
		ASSERT_EQ(0, load(""));
	ASSERT_EQ(0, ipu_wait_cards(cards, SETTLE_MS))
		TH_LOG("%d cards did not all appear", cards);
}

TEST_F_TIMEOUT(mod, load_unload_cycles, 600)
{
	char names[IPU_TEST_MAX_CARDS][IPU_TEST_NAME_MAX];
	struct stat st;

	IPU_RETURN_IF_SKIPPED();
	for (int i = 0; i < LOAD_CYCLES; i++) {
		if (module_loaded())
			ASSERT_EQ(0, unload()) TH_LOG("cycle %d: rmmod", i);
		ASSERT_FALSE(module_loaded());
		/* The class and every node are gone. */
		EXPECT_NE(0, stat("/sys/class/ipu", &st));
		EXPECT_EQ(0, ipu_list_cards(names, IPU_TEST_MAX_CARDS));

		ASSERT_EQ(0, load("")) TH_LOG("cycle %d: insmod", i);
		ASSERT_EQ(0, ipu_wait_cards(self->cards, SETTLE_MS))
			TH_LOG("cycle %d: %d cards did not all appear", i, self->cards);

		/* Every card answers. */
		ASSERT_EQ(self->cards, ipu_list_cards(names, IPU_TEST_MAX_CARDS));
		for (int c = 0; c < self->cards; c++) {
			struct ipu_info info;
			int fd = ipu_open_name(names[c], O_RDONLY);

			ASSERT_LE(0, fd) TH_LOG("cycle %d: open %s", i, names[c]);
			EXPECT_EQ(0, ipu_get_info(fd, &info));
			EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, info.state);
			close(fd);
		}
	}
}

TEST_F_TIMEOUT(mod, rmmod_refused_while_open, 120)
{
	char names[IPU_TEST_MAX_CARDS][IPU_TEST_NAME_MAX];
	int fd, err;

	IPU_RETURN_IF_SKIPPED();
	ensure_loaded(_metadata, self->cards);
	ASSERT_LT(0, ipu_list_cards(names, IPU_TEST_MAX_CARDS));
	fd = ipu_open_name(names[0], O_RDONLY);
	ASSERT_LE(0, fd);

	err = unload();
	EXPECT_TRUE(err == EWOULDBLOCK || err == EBUSY) TH_LOG("rmmod: %s", strerror(err));
	EXPECT_TRUE(module_loaded());
	/* The open file still works. */
	EXPECT_EQ(0, ipu_get_info(fd, &(struct ipu_info){ 0 }));

	close(fd);
	EXPECT_EQ(0, unload());
	EXPECT_FALSE(module_loaded());
	ensure_loaded(_metadata, self->cards);
}

TEST_F(mod, module_parameter)
{
	char buf[32];

	IPU_RETURN_IF_SKIPPED();
	ensure_loaded(_metadata, self->cards);
	ASSERT_EQ(0, ipu_read_file("/sys/module/ipu/parameters/ready_timeout_ms",
				   buf, sizeof(buf)));
	EXPECT_STREQ("2000", buf);
	ASSERT_EQ(0, ipu_read_file("/sys/module/ipu/version", buf, sizeof(buf)));
	EXPECT_STREQ("0.1.0", buf);

	ASSERT_EQ(0, unload());
	ASSERT_EQ(0, load("ready_timeout_ms=500"));
	ASSERT_EQ(0, ipu_wait_cards(self->cards, SETTLE_MS));
	ASSERT_EQ(0, ipu_read_file("/sys/module/ipu/parameters/ready_timeout_ms",
				   buf, sizeof(buf)));
	EXPECT_STREQ("500", buf);
	ASSERT_EQ(0, unload());
	ensure_loaded(_metadata, self->cards);
}

/* The PCI address (basename of the device link) of class device NAME. */
static int pci_address(const char *name, char *addr, size_t len)
{
	char link[128], path[PATH_MAX];

	snprintf(link, sizeof(link), "/sys/class/ipu/%s/device", name);
	if (!realpath(link, path))
		return -1;
	snprintf(addr, len, "%s", basename(path));
	return 0;
}

/*
 * With the module loaded (ensure_loaded()): the class devices into @names,
 * the PCI address of the first into @addr.
 */
static void first_card(struct __test_metadata *_metadata, int cards,
		       char names[][IPU_TEST_NAME_MAX], char *addr, size_t len)
{
	ensure_loaded(_metadata, cards);
	ASSERT_LT(0, ipu_list_cards(names, IPU_TEST_MAX_CARDS));
	ASSERT_EQ(0, pci_address(names[0], addr, len));
}

TEST_F_TIMEOUT(mod, unbind_while_open, 120)
{
	char names[IPU_TEST_MAX_CARDS][IPU_TEST_NAME_MAX], addr[64], path[128];
	struct ipu_reset r = { .argsz = sizeof(r) };
	struct ipu_info info;
	struct stat st;
	int fd, fd2, err;

	IPU_RETURN_IF_SKIPPED();
	first_card(_metadata, self->cards, names, addr, sizeof(addr));
	fd = ipu_open_name(names[0], O_RDWR);
	ASSERT_LE(0, fd);
	fd2 = ipu_open_name(names[0], O_RDONLY);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, ipu_get_info(fd, &info));

	/* A reset left running in the card while the device goes away. */
	ASSERT_EQ(0, ipu_reset(fd, IPU_RESET_FLAG_NOWAIT, 0, NULL));
	ASSERT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/unbind", addr));

	/* The class device and its node are gone; stale files get ENODEV. */
	snprintf(path, sizeof(path), "/sys/class/ipu/%s", names[0]);
	EXPECT_NE(0, stat(path, &st));
	EXPECT_EQ(-ENODEV, ipu_get_info(fd, &info));
	EXPECT_EQ(-ENODEV, ipu_get_info(fd2, &info));
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, IPU_IOCTL_RESET, &r));
	EXPECT_EQ(ENODEV, errno);
	/* Argument checks still come first, and unknown ioctls stay ENOTTY. */
	r.flags = 1u << 31;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, IPU_IOCTL_RESET, &r));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IO(IPU_IOCTL_MAGIC, 0x7f), &r));
	EXPECT_EQ(ENOTTY, errno);

	/* The module stays pinned by the open files. */
	err = unload();
	EXPECT_TRUE(err == EWOULDBLOCK || err == EBUSY) TH_LOG("rmmod: %s", strerror(err));

	/* Rebind while the stale files are still open. */
	ASSERT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/bind", addr));
	ASSERT_EQ(0, ipu_wait_cards(self->cards, SETTLE_MS));
	EXPECT_EQ(-ENODEV, ipu_get_info(fd, &info));

	close(fd);
	close(fd2);

	/* Unbind and rebind with nothing open, then the module unloads. */
	ASSERT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/unbind", addr));
	EXPECT_EQ(self->cards - 1, ipu_list_cards(names, IPU_TEST_MAX_CARDS));
	ASSERT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/bind", addr));
	ASSERT_EQ(0, ipu_wait_cards(self->cards, SETTLE_MS));
	EXPECT_EQ(0, unload());
	ensure_loaded(_metadata, self->cards);
}

/* Child: resets and queries the card until its file goes stale. */
static void hammer(const char *name, int use_sysfs)
{
	int fd = ipu_open_name(name, O_RDWR);
	char state[32];
	int ret;

	if (fd < 0)
		_exit(10);
	for (;;) {
		ret = ipu_reset(fd, (rand() & 1) ? IPU_RESET_FLAG_NOWAIT : 0,
				0, NULL);
		if (ret == -ENODEV)
			break;
		if (ret)
			_exit(11);
		ret = ipu_get_info(fd, &(struct ipu_info){ 0 });
		if (ret == -ENODEV)
			break;
		if (ret)
			_exit(12);
		if (use_sysfs)
			ipu_sysfs_read(name, "state", state, sizeof(state));
	}
	/* Stale from now on. */
	if (ipu_get_info(fd, &(struct ipu_info){ 0 }) != -ENODEV)
		_exit(13);
	close(fd);
	_exit(0);
}

TEST_F_TIMEOUT(mod, unbind_under_load, 300)
{
	char names[IPU_TEST_MAX_CARDS][IPU_TEST_NAME_MAX], addr[64];
	int status;

	IPU_RETURN_IF_SKIPPED();
	for (int round = 0; round < 8; round++) {
		pid_t pids[3];

		first_card(_metadata, self->cards, names, addr, sizeof(addr));
		for (int c = 0; c < 3; c++) {
			pids[c] = fork();
			ASSERT_LE(0, pids[c]);
			if (pids[c] == 0) {
				srand(getpid());
				hammer(names[0], c == 2);
			}
		}
		usleep(20000 + round * 10000);
		ASSERT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/unbind", addr));
		for (int c = 0; c < 3; c++) {
			ASSERT_EQ(pids[c], waitpid(pids[c], &status, 0));
			EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
				TH_LOG("round %d child %d: status %#x", round, c, status);
		}
		ASSERT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/bind", addr));
		ASSERT_EQ(0, ipu_wait_cards(self->cards, SETTLE_MS));
	}
}

TEST_F_TIMEOUT(mod, probe_waits_for_ready, 120)
{
	char names[IPU_TEST_MAX_CARDS][IPU_TEST_NAME_MAX], addr[64], path[128];
	char state[32];
	long long t0;
	int fd;

	IPU_RETURN_IF_SKIPPED();
	ensure_loaded(_metadata, self->cards);
	for (int i = 0; i < 6; i++) {
		ASSERT_LT(0, ipu_list_cards(names, IPU_TEST_MAX_CARDS));
		ASSERT_EQ(0, pci_address(names[0], addr, sizeof(addr)));
		if (i < 5) {
			/* Leave the card RESETTING (10 ms), then rebind at once. */
			fd = ipu_open_name(names[0], O_RDWR);
			ASSERT_LE(0, fd);
			ASSERT_EQ(0, ipu_reset(fd, IPU_RESET_FLAG_NOWAIT, 0, NULL));
			close(fd);
			ASSERT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/unbind", addr));
		} else {
			/* A PCI function reset of the unbound card: power-on. */
			ASSERT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/unbind", addr));
			snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset", addr);
			ASSERT_EQ(0, ipu_write_file(path, "1"));
		}
		t0 = ipu_now_ms();
		ASSERT_EQ(0, ipu_write_file("/sys/bus/pci/drivers/ipu/bind", addr));
		TH_LOG("round %d: bind took %lld ms", i, ipu_now_ms() - t0);
		/* Probe returned only once the card was READY. */
		ASSERT_EQ(self->cards, ipu_list_cards(names, IPU_TEST_MAX_CARDS));
		for (int c = 0; c < self->cards; c++) {
			ASSERT_EQ(0, ipu_sysfs_read(names[c], "state", state, sizeof(state)));
			EXPECT_STREQ("ready", state) TH_LOG("round %d %s", i, names[c]);
		}
	}
	ASSERT_EQ(0, ipu_wait_cards(self->cards, SETTLE_MS));
}

TEST_F_TIMEOUT(mod, function_reset_while_open, 120)
{
	char names[IPU_TEST_MAX_CARDS][IPU_TEST_NAME_MAX], addr[64], path[128];
	struct ipu_reset r;
	struct ipu_info info;
	int fd;

	IPU_RETURN_IF_SKIPPED();
	first_card(_metadata, self->cards, names, addr, sizeof(addr));
	fd = ipu_open_name(names[0], O_RDWR);
	ASSERT_LE(0, fd);

	/* A PCI function reset: the card restarts in OFF, the driver stays. */
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset", addr);
	ASSERT_EQ(0, ipu_write_file(path, "1"));
	ASSERT_EQ(0, ipu_wait_state(names[0], "ready", SETTLE_MS));
	ASSERT_EQ(0, ipu_get_info(fd, &info));
	EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, info.state);

	/* Interrupts work again: a soft reset completes. */
	ASSERT_EQ(0, ipu_reset(fd, 0, 0, &r));
	EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, r.state);
	EXPECT_EQ(info.reset_count + 1, r.reset_count);
	close(fd);
}

TEST_HARNESS_MAIN
