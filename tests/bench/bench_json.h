/* SPDX-License-Identifier: MIT */
/*
 * Shared by the benchmark programs (memcpy_bw.c and nvme_read.c here,
 * tests/engine/bench_engine.c, tests/library/builder/bench_matmul.c): the
 * monotonic clock in seconds, and the records of their JSON array on stdout.
 */
#ifndef BENCH_JSON_H
#define BENCH_JSON_H

#include <stdio.h>
#include <time.h>

static inline double bench_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Prints one {name, value, unit, baseline, ratio, target} record, plus
 * @extra members (", \"key\": value", or NULL): the first record opens the
 * array ("["), the others follow a ","; the caller closes it ("\n]\n").
 */
static inline void bench_record(const char *name, double value,
				const char *unit, double baseline,
				double ratio, const char *target,
				const char *extra)
{
	static int nrec;

	printf("%s\n  {\"name\": \"%s\", \"value\": %.4g, \"unit\": \"%s\", \"baseline\": %.4g, "
	       "\"ratio\": %.4g, \"target\": \"%s\"%s}",
	       nrec++ ? "," : "[", name, value, unit, baseline, ratio, target,
	       extra ? extra : "");
}

#endif /* BENCH_JSON_H */
