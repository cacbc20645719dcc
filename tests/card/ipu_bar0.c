// SPDX-License-Identifier: GPL-2.0
/* See ipu_bar0.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ipu_bar0.h"
#include "ipu_test.h"

static int fail(char *msg, size_t len, int err, const char *what)
{
	snprintf(msg, len, "%s: %s", what, strerror(err));
	return -err;
}

int ipu_bar0_take(struct ipu_bar0 *b, int card, bool busmaster,
		  char *msg, size_t len)
{
	char name[IPU_TEST_NAME_MAX], link[PATH_MAX], path[PATH_MAX + 32];
	char line[256];
	uint16_t cmd;
	ssize_t n;
	FILE *f;
	int fd, ret;

	memset(b, 0, sizeof(*b));
	b->card = card;
	b->fd = -1;
	b->db_fd = -1;
	if (ipu_find_card(card, name, sizeof(name)))
		return fail(msg, len, ENODEV, "card not bound to ipu.ko");
	snprintf(path, sizeof(path), "/sys/class/ipu/%s/device", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return fail(msg, len, errno, path);
	link[n] = 0;
	snprintf(b->bdf, sizeof(b->bdf), "%s", strrchr(link, '/') + 1);
	snprintf(b->pcidir, sizeof(b->pcidir), "/sys/bus/pci/devices/%s",
		 b->bdf);

	ret = ipu_write_file("/sys/bus/pci/drivers/ipu/unbind", b->bdf);
	if (ret) {
		b->bdf[0] = 0;
		return fail(msg, len, -ret, "unbind");
	}
	snprintf(path, sizeof(path), "%s/enable", b->pcidir);
	ret = ipu_write_file(path, "1");
	if (ret)
		return fail(msg, len, -ret, path);
	if (busmaster) {
		snprintf(path, sizeof(path), "%s/config", b->pcidir);
		fd = open(path, O_RDWR);
		if (fd < 0)
			return fail(msg, len, errno, path);
		if (pread(fd, &cmd, 2, 4) != 2 ||
		    (cmd |= 4, pwrite(fd, &cmd, 2, 4)) != 2) {
			close(fd);
			return fail(msg, len, EIO, "bus mastering");
		}
		close(fd);
	}
	/* BAR0's physical address: the first line of "resource". */
	snprintf(path, sizeof(path), "%s/resource", b->pcidir);
	f = fopen(path, "r");
	if (!f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return fail(msg, len, EIO, path);
	}
	fclose(f);
	if (sscanf(line, "%lx", (unsigned long *)&b->phys) != 1)
		return fail(msg, len, EIO, path);

	snprintf(path, sizeof(path), "%s/resource0", b->pcidir);
	b->fd = open(path, O_RDWR | O_SYNC);
	if (b->fd < 0)
		return fail(msg, len, errno, path);
	b->regs = mmap(NULL, IPU_BAR_REGS_SIZE, PROT_READ | PROT_WRITE,
		       MAP_SHARED, b->fd, 0);
	if (b->regs == MAP_FAILED) {
		b->regs = NULL;
		return fail(msg, len, errno, "mmap resource0");
	}
	/* No handler is bound: keep every cause masked (INTx is level). */
	ipu_bar0_wr(b, IPU_REG_IRQ_MASK, 0xffffffff);

	/* The doorbell pages (hw-interface 1.2); only their tests need them. */
	snprintf(path, sizeof(path), "%s/resource%d", b->pcidir, IPU_DB_BAR);
	b->db_fd = open(path, O_RDWR | O_SYNC);
	if (b->db_fd < 0) {
		snprintf(b->db_err, sizeof(b->db_err), "open resource%d: %s",
			 IPU_DB_BAR, strerror(errno));
		return 0;
	}
	b->db = mmap(NULL, IPU_DB_BAR_SIZE, PROT_READ | PROT_WRITE,
		     MAP_SHARED, b->db_fd, 0);
	if (b->db == MAP_FAILED) {
		snprintf(b->db_err, sizeof(b->db_err), "mmap resource%d: %s",
			 IPU_DB_BAR, strerror(errno));
		b->db = NULL;
	}
	return 0;
}

int ipu_bar0_release(struct ipu_bar0 *b)
{
	char path[PATH_MAX + 32], name[IPU_TEST_NAME_MAX];
	long long t0;

	if (b->regs) {
		for (unsigned q = 0; q < IPU_NUM_QUEUES; q++)
			ipu_bar0_wr(b, IPU_REG_Q(q, IPU_Q_CTRL), 0);
		ipu_bar0_wr(b, IPU_REG_IRQ_MASK, 0xffffffff);
		ipu_bar0_wr(b, IPU_REG_IRQ_STATUS, IPU_IRQ_VALID);
		munmap((void *)b->regs, IPU_BAR_REGS_SIZE);
		b->regs = NULL;
	}
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
	if (b->db) {
		munmap((void *)b->db, IPU_DB_BAR_SIZE);
		b->db = NULL;
	}
	if (b->db_fd >= 0)
		close(b->db_fd);
	b->db_fd = -1;
	if (!b->bdf[0])
		return 0;
	snprintf(path, sizeof(path), "%s/enable", b->pcidir);
	ipu_write_file(path, "0");
	/* Give the card back to the driver: probe must succeed again. */
	ipu_write_file("/sys/bus/pci/drivers/ipu/bind", b->bdf);
	b->bdf[0] = 0;
	t0 = ipu_now_ms();
	while (ipu_find_card(b->card, name, sizeof(name))) {
		if (ipu_now_ms() - t0 > 5000)
			return -ETIMEDOUT;
		usleep(10000);
	}
	return 0;
}

long ipu_bar0_wait_state(const struct ipu_bar0 *b, uint32_t state,
			 long max_ms)
{
	long long t0 = ipu_now_ms();

	while ((long)(ipu_now_ms() - t0) <= max_ms) {
		if ((ipu_bar0_rd(b, IPU_REG_STATUS) & IPU_CARD_STATE_MASK) ==
		    state)
			return ipu_now_ms() - t0;
		usleep(200);
	}
	return -1;
}

int ipu_bar0_reset(const struct ipu_bar0 *b)
{
	ipu_bar0_wr(b, IPU_REG_CONTROL, IPU_CONTROL_RESET);
	return ipu_bar0_wait_state(b, IPU_CARD_STATE_READY,
				   IPU_READY_TIMEOUT_MS) < 0 ? -ETIMEDOUT : 0;
}

uint32_t ipu_bar0_wait_q_stopped(const struct ipu_bar0 *b, unsigned int qi)
{
	long long t0 = ipu_now_ms();
	uint32_t st;

	while ((st = ipu_bar0_rd(b, IPU_REG_Q(qi, IPU_Q_STATUS))) &
	       IPU_Q_STATUS_ENABLED) {
		if (ipu_now_ms() - t0 > 5000)
			break;
		usleep(100);
	}
	return st;
}

int ipu_guest_log_count(const char *needle)
{
	const char *ctl = getenv("IPU_VM_CTL");
	char path[PATH_MAX], line[512];
	int n = 0;
	FILE *f;

	if (!ctl)
		return -1;
	snprintf(path, sizeof(path), "/mnt/host/%s/guest-errors.log", ctl);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			n++;
	fclose(f);
	return n;
}
