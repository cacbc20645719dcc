// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the IPU driver's kselftests; see ipu_test.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ipu_test.h"

int ipu_vm_cards(struct ipu_vm_card *cards, int max)
{
	const char *env = getenv("IPU_VM_CARDS");
	char *copy, *save = NULL, *tok;
	int n = 0;

	if (!env)
		return -1;
	copy = strdup(env);
	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok && n < max;
	     tok = strtok_r(NULL, ",", &save)) {
		char *model = strchr(tok, ':');
		char *serial = model ? strchr(model + 1, ':') : NULL;

		if (!serial)
			continue;
		*model++ = '\0';
		*serial++ = '\0';
		cards[n].index = atoi(tok);
		snprintf(cards[n].model, sizeof(cards[n].model), "%s", model);
		snprintf(cards[n].serial, sizeof(cards[n].serial), "%s",
			 serial);
		n++;
	}
	free(copy);
	return n;
}

const struct ipu_vm_card *ipu_vm_card(int index)
{
	static struct ipu_vm_card cards[IPU_TEST_MAX_CARDS];
	int n = ipu_vm_cards(cards, IPU_TEST_MAX_CARDS);

	for (int i = 0; i < n; i++)
		if (cards[i].index == index)
			return &cards[i];
	return NULL;
}

int ipu_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

int ipu_write_file(const char *path, const char *s)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

int ipu_sysfs_read(const char *name, const char *attr, char *buf, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "/sys/class/ipu/%.64s/%.128s", name, attr);
	return ipu_read_file(path, buf, len);
}

int ipu_sysfs_u32(const char *name, const char *attr, uint32_t *val)
{
	char buf[64], *end;
	unsigned long v;
	int ret;

	ret = ipu_sysfs_read(name, attr, buf, sizeof(buf));
	if (ret)
		return ret;
	if (!isdigit((unsigned char)buf[0]))
		return -EINVAL;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return -EINVAL;
	*val = v;
	return 0;
}

static int ipu_name_cmp(const void *a, const void *b)
{
	return atoi((const char *)a + 3) - atoi((const char *)b + 3);
}

int ipu_list_cards(char names[][IPU_TEST_NAME_MAX], int max)
{
	struct dirent *de;
	DIR *dir;
	int n = 0;

	dir = opendir("/sys/class/ipu");
	if (!dir)
		return 0;
	while ((de = readdir(dir)) && n < max) {
		if (strncmp(de->d_name, "ipu", 3) ||
		    !isdigit((unsigned char)de->d_name[3]) ||
		    strlen(de->d_name) >= IPU_TEST_NAME_MAX)
			continue;
		memcpy(names[n++], de->d_name, strlen(de->d_name) + 1);
	}
	closedir(dir);
	qsort(names, n, IPU_TEST_NAME_MAX, ipu_name_cmp);
	return n;
}

int ipu_find_card(int index, char *name, size_t len)
{
	char names[IPU_TEST_MAX_CARDS * 4][IPU_TEST_NAME_MAX];
	int n = ipu_list_cards(names, IPU_TEST_MAX_CARDS * 4);

	for (int i = 0; i < n; i++) {
		uint32_t ci;

		if (ipu_sysfs_u32(names[i], "card_index", &ci))
			continue;
		if ((int)ci == index) {
			snprintf(name, len, "%s", names[i]);
			return 0;
		}
	}
	return -1;
}

int ipu_pci_count(void)
{
	struct dirent *de;
	int n = 0;
	DIR *dir;

	dir = opendir("/sys/bus/pci/devices");
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		char path[600], buf[32];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor",
			 de->d_name);
		if (ipu_read_file(path, buf, sizeof(buf)) ||
		    strtoul(buf, NULL, 16) != IPU_PCI_VENDOR_ID)
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device",
			 de->d_name);
		if (ipu_read_file(path, buf, sizeof(buf)) ||
		    strtoul(buf, NULL, 16) != IPU_PCI_DEVICE_ID)
			continue;
		n++;
	}
	closedir(dir);
	return n;
}

int ipu_open_name(const char *name, int flags)
{
	char path[128];

	snprintf(path, sizeof(path), "/dev/%.64s", name);
	return open(path, flags | O_CLOEXEC);
}

int ipu_get_info(int fd, struct ipu_info *info)
{
	memset(info, 0, sizeof(*info));
	info->argsz = sizeof(*info);
	return ioctl(fd, IPU_IOCTL_GET_INFO, info) ? -errno : 0;
}

int ipu_reset(int fd, uint32_t flags, uint32_t timeout_ms,
	      struct ipu_reset *out)
{
	struct ipu_reset r = {
		.argsz = sizeof(r),
		.flags = flags,
		.timeout_ms = timeout_ms,
	};

	if (ioctl(fd, IPU_IOCTL_RESET, &r))
		return -errno;
	if (out)
		*out = r;
	return 0;
}

long long ipu_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int ipu_cards_settled(int count)
{
	char names[IPU_TEST_MAX_CARDS * 4][IPU_TEST_NAME_MAX];
	int n = ipu_list_cards(names, IPU_TEST_MAX_CARDS * 4);

	if (n != count)
		return 0;
	for (int i = 0; i < n; i++) {
		char path[IPU_TEST_NAME_MAX + 8], state[32];
		struct stat st;

		snprintf(path, sizeof(path), "/dev/%.*s", IPU_TEST_NAME_MAX - 1,
			 names[i]);
		if (stat(path, &st) || !S_ISCHR(st.st_mode))
			return 0;
		if (ipu_sysfs_read(names[i], "state", state, sizeof(state)) ||
		    !strcmp(state, "initializing"))
			return 0;
	}
	return 1;
}

int ipu_wait_cards(int count, int timeout_ms)
{
	long long end = ipu_now_ms() + timeout_ms;

	do {
		if (ipu_cards_settled(count))
			return 0;
		usleep(10000);
	} while (ipu_now_ms() < end);
	return -1;
}

int ipu_wait_state(const char *name, const char *state, int timeout_ms)
{
	long long end = ipu_now_ms() + timeout_ms;
	char buf[32];

	do {
		if (!ipu_sysfs_read(name, "state", buf, sizeof(buf)) &&
		    !strcmp(buf, state))
			return 0;
		usleep(5000);
	} while (ipu_now_ms() < end);
	return -1;
}

int ipu_test_open_card(int index, int flags)
{
	char name[IPU_TEST_NAME_MAX];

	if (ipu_find_card(index, name, sizeof(name)))
		return -1;
	return ipu_open_name(name, flags);
}

int ipu_test_attach(int fd, uint32_t flags)
{
	struct ipu_attach a = { .argsz = sizeof(a), .flags = flags };

	return ioctl(fd, IPU_IOCTL_ATTACH, &a) ? -errno : (int)a.queue;
}

int ipu_test_detach(int fd)
{
	struct ipu_attach a = { .argsz = sizeof(a) };

	return ioctl(fd, IPU_IOCTL_DETACH, &a) ? -errno : 0;
}

int ipu_test_submit(int fd, struct ipu_cmd *c)
{
	c->argsz = sizeof(*c);
	if (ioctl(fd, IPU_IOCTL_SUBMIT, c))
		return -errno;
	return (c->flags & IPU_CMD_FLAG_ASYNC) ? 0 : (int)c->status;
}

int ipu_test_xfer(int fd, uint32_t op, uint32_t flags, uint32_t handle,
		  void *p, uint64_t len, uint64_t *seq)
{
	struct ipu_cmd c = { .opcode = op, .flags = flags, .handle = handle,
			     .user_ptr = (uintptr_t)p, .length = len };
	int ret = ipu_test_submit(fd, &c);

	if (seq)
		*seq = c.seq;
	return ret;
}

int ipu_test_wait_seq(int fd, uint64_t seq, uint32_t flags, uint32_t ms,
		      struct ipu_wait *out)
{
	struct ipu_wait w = { .argsz = sizeof(w), .flags = flags, .seq = seq,
			      .timeout_ms = ms };

	if (ioctl(fd, IPU_IOCTL_WAIT, &w))
		return -errno;
	if (out)
		*out = w;
	return (int)w.status;
}

int ipu_test_buf_pin(int fd, void *p, uint64_t size)
{
	struct ipu_buf b = { .argsz = sizeof(b), .size = size,
			     .user_addr = (uintptr_t)p };

	return ioctl(fd, IPU_IOCTL_BUF_PIN, &b) ? -errno : (int)b.handle;
}

int ipu_test_buf_free(int fd, uint32_t h)
{
	struct ipu_buf b = { .argsz = sizeof(b), .handle = h };

	return ioctl(fd, IPU_IOCTL_BUF_FREE, &b) ? -errno : 0;
}

static long debug_counter(const char *card, const char *name)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), "/sys/kernel/debug/ipu/%s/%s", card, name);
	if (ipu_read_file(path, buf, sizeof(buf)))
		return -1;
	return atol(buf);
}

int ipu_test_no_leaks(int index)
{
	char name[IPU_TEST_NAME_MAX];
	long long t0 = ipu_now_ms();
	struct stat st;

	if (ipu_find_card(index, name, sizeof(name)))
		return -1;
	if (stat("/sys/kernel/debug/ipu", &st))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	while (ipu_now_ms() - t0 < 5000) {
		if (!debug_counter(name, "pinned_pages") &&
		    !debug_counter(name, "alloc_pages") &&
		    !debug_counter(name, "buffers") &&
		    !debug_counter(name, "commands"))
			return 0;
		usleep(10000);
	}
	fprintf(stderr, "# leak: pinned %ld alloc %ld bufs %ld cmds %ld\n",
		debug_counter(name, "pinned_pages"),
		debug_counter(name, "alloc_pages"),
		debug_counter(name, "buffers"),
		debug_counter(name, "commands"));
	return -1;
}

int ipu_test_uevent_open(void)
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
