// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of the hot-unplug test (tests/driver/hotplug/run.sh): holds card N
 * with everything the driver maps for the card (the queue with a RUN in
 * flight, a user queue with its rings and doorbell mapped, a pinned buffer,
 * a BUF_ALLOC buffer mapped), says so by creating the file given, waits
 * until the card is gone, then 2 s more, and only then touches what it
 * still has and closes: the driver must have released every DMA mapping
 * in remove, and close must neither oops nor hang.
 *
 * Usage: ipu-hotplug-holder CARD READY_FILE. Exit 0 when everything
 * behaved: the RUN ended (-ENODEV, or a status), the rings and buffers
 * still readable, close returned.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipu_test.h"
#include "ipu_graphs.h"

#define MAP_BYTES	(1 << 20)

static int fail(const char *what)
{
	printf("holder: %s: %s\n", what, strerror(errno));
	return 1;
}

static void *map_piece(int fd, uint64_t off, size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, off);

	return p == MAP_FAILED ? NULL : p;
}

int main(int argc, char **argv)
{
	struct ipu_cmd run = { .argsz = sizeof(run), .opcode = IPU_CMD_RUN,
			       .handle = P_SPIN, .flags = IPU_CMD_FLAG_ASYNC };
	struct ipu_cmd load = { .argsz = sizeof(load), .opcode = IPU_CMD_LOAD };
	struct ipu_buf alloc = { .argsz = sizeof(alloc), .size = MAP_BYTES };
	struct ipu_buf pin = { .argsz = sizeof(pin), .size = MAP_BYTES };
	struct ipu_uqueue uq = { .argsz = sizeof(uq) };
	struct ipu_wait w = { .argsz = sizeof(w) };
	struct ipu_info info;
	char name[IPU_TEST_NAME_MAX], path[96];
	volatile uint8_t *sq, *cq, *am;
	uint8_t *pinned;
	struct stat st;
	size_t glen;
	void *g;
	int fd, i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s CARD READY_FILE\n", argv[0]);
		return 2;
	}
	if (ipu_find_card(atoi(argv[1]), name, sizeof(name)))
		return fail("no such card");
	fd = ipu_test_open_card(atoi(argv[1]), O_RDWR);
	if (fd < 0 || ipu_test_attach(fd, 0) < 0)
		return fail("attach");
	if (ipu_get_info(fd, &info) ||
	    ipu_test_double_graph(info.model, 4096, 0, &g, &glen))
		return fail("graph");
	load.user_ptr = (uintptr_t)g;
	load.length = glen;
	if (ioctl(fd, IPU_IOCTL_SUBMIT, &load))
		return fail("load");
	if (load.status) {
		printf("holder: load: status %u\n", load.status);
		return 1;
	}
	if (ioctl(fd, IPU_IOCTL_BUF_ALLOC, &alloc))
		return fail("BUF_ALLOC");
	am = map_piece(fd, alloc.mmap_offset, MAP_BYTES, PROT_READ | PROT_WRITE);
	pinned = aligned_alloc(4096, MAP_BYTES);
	if (!am || !pinned)
		return fail("buffers");
	memset(pinned, 7, MAP_BYTES);
	pin.user_addr = (uintptr_t)pinned;
	if (ioctl(fd, IPU_IOCTL_BUF_PIN, &pin))
		return fail("BUF_PIN");
	if (ioctl(fd, IPU_IOCTL_UQUEUE, &uq))
		return fail("UQUEUE");
	sq = map_piece(fd, uq.sq_offset, 4096, PROT_READ | PROT_WRITE);
	cq = map_piece(fd, uq.cq_offset, 4096, PROT_READ);
	if (!sq || !cq || !map_piece(fd, uq.db_offset, 4096, PROT_WRITE))
		return fail("user queue mappings");
	if (ioctl(fd, IPU_IOCTL_SUBMIT, &run))
		return fail("RUN");

	if (close(open(argv[2], O_CREAT | O_WRONLY, 0644)))
		return fail("ready file");
	printf("holder: %s held, RUN %llu in flight\n", name,
	       (unsigned long long)run.seq);
	fflush(stdout);

	snprintf(path, sizeof(path), "/sys/class/ipu/%s", name);
	for (i = 0; i < 1200 && !stat(path, &st); i++)
		usleep(100000);
	if (!stat(path, &st)) {
		printf("holder: %s was not removed\n", name);
		return 1;
	}
	sleep(2);

	/* The card is gone: the RUN ends, the mappings are plain memory. */
	w.seq = run.seq;
	w.timeout_ms = 1000;
	if (!ioctl(fd, IPU_IOCTL_WAIT, &w))
		printf("holder: RUN completed with status %u\n", w.status);
	else if (errno != ENODEV && errno != ENOTCONN)
		return fail("WAIT after the unplug");
	printf("holder: after the unplug: sq %u cq %u buffer %u pinned %u\n",
	       sq[0], cq[0], am[0], pinned[0]);
	if (close(fd))
		return fail("close");
	printf("holder: closed\n");
	munmap((void *)sq, 4096);
	munmap((void *)cq, 4096);
	munmap((void *)am, MAP_BYTES);
	free(pinned);
	free(g);
	return 0;
}
