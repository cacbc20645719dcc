// SPDX-License-Identifier: MIT
/*
 * memcpy_bw: the host's memcpy bandwidth for one buffer size, the "host
 * memcpy" baseline of `make bench`'s card throughput figures (measured on
 * the machine that runs QEMU, in the same `make bench` run).
 * Usage: memcpy_bw [SIZE_MIB [SECONDS]] -> one JSON object on stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_json.h"

int main(int argc, char **argv)
{
	size_t size = (size_t)(argc > 1 ? atoi(argv[1]) : 64) << 20;
	double secs = argc > 2 ? atof(argv[2]) : 1.0, t0, t, best = 0;
	char *src, *dst;

	if (!size || secs <= 0) {
		fprintf(stderr, "usage: memcpy_bw [SIZE_MIB [SECONDS]]\n");
		return 2;
	}
	src = malloc(size);
	dst = malloc(size);
	if (!src || !dst) {
		fprintf(stderr, "memcpy_bw: out of memory\n");
		return 1;
	}
	memset(src, 1, size);
	memset(dst, 2, size);	/* both committed before timing */
	t0 = bench_now_s();
	do {
		double t1 = bench_now_s();

		memcpy(dst, src, size);
		t = bench_now_s() - t1;
		if (t > 0 && size / t > best)
			best = size / t;
	} while (bench_now_s() - t0 < secs);
	/* Use the copy, so it cannot be dropped. */
	if (dst[size - 1] != 1)
		return 1;
	printf("{\"bytes\": %zu, \"gbps\": %.3f}\n", size, best / 1e9);
	free(src);
	free(dst);
	return 0;
}
