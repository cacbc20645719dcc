// SPDX-License-Identifier: MIT
/*
 * nvme_read: sequential O_DIRECT read bandwidth of a block device, the
 * baseline of `make bench`'s VM figures (QEMU's NVMe device on the null-co
 * backend: what a virtual PCIe DMA device reaches in the same VM).
 * Usage: nvme_read DEVICE [SIZE_MIB [SECONDS]] -> one JSON object on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_json.h"

int main(int argc, char **argv)
{
	size_t size;
	double secs, t0, t, best = 0;
	unsigned n = 0;
	void *buf;
	int fd;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: nvme_read DEVICE [SIZE_MIB [SECONDS]]\n");
		return 2;
	}
	size = (size_t)(argc > 2 ? atoi(argv[2]) : 64) << 20;
	secs = argc > 3 ? atof(argv[3]) : 1.0;
	if (!size || posix_memalign(&buf, 4096, size)) {
		fprintf(stderr, "nvme_read: bad size or out of memory\n");
		return 2;
	}
	memset(buf, 0, size);
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "nvme_read: open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	t0 = bench_now_s();
	do {
		double s = bench_now_s();
		size_t done = 0;

		while (done < size) {
			ssize_t r = pread(fd, (char *)buf + done, size - done, (off_t)done);

			if (r <= 0) {
				fprintf(stderr, "nvme_read: read %s: %s\n", argv[1],
					r ? strerror(errno) : "end of device");
				return 1;
			}
			done += (size_t)r;
		}
		s = bench_now_s() - s;
		if (size / s > best)
			best = size / s;
		n++;
		t = bench_now_s() - t0;
	} while (t < secs || n < 2);
	printf("{\"device\": \"%s\", \"bytes\": %zu, \"iterations\": %u, \"seconds\": %.6f, "
	       "\"gbps\": %.6f, \"best_gbps\": %.6f}\n", argv[1], size, n, t,
	       (double)size * n / t / 1e9, best / 1e9);
	close(fd);
	free(buf);
	return 0;
}
