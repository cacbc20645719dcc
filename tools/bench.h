/* SPDX-License-Identifier: MIT */
/*
 * ipu-bench's modes beside its default host <-> card one (ipu-bench.c):
 * the card-to-card IPU-Link bandwidth of every linked pair (bench_links.c,
 * --links) and the host sync latency (bench_sync.c, --host-sync). What the
 * command line asks for, shared by the three files.
 */
#ifndef IPU_TOOLS_BENCH_H
#define IPU_TOOLS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define BENCH_PROG "ipu-bench"
#define BENCH_KINDS 3

enum bench_mode {
	BENCH_HOST,		/* host <-> card bandwidth and command latency */
	BENCH_LINKS,		/* --links */
	BENCH_HOST_SYNC,	/* --host-sync */
};

/* What the command line asks for. */
struct bench_config {
	enum bench_mode mode;
	unsigned devid;		/* -d: a card; --host-sync: a device id */
	bool devid_given;
	const char *model;	/* -m: the model device's chip; NULL: cards */
	unsigned ipus;		/* --ipus: the model device's IPUs; 0: the mode's default */
	uint64_t minsz, maxsz;	/* as given; the card's memory may cap them */
	bool kinds[BENCH_KINDS]; /* the buffer kinds to measure */
	unsigned time_ms;	/* per bandwidth measurement */
	unsigned lat_iters;	/* round trips per latency figure */
	bool host_opts;		/* an option of the default mode was given */
	uint64_t size;		/* --links: bytes each way; 0: the default */
	unsigned count;		/* --links: runs a pair; --host-sync: syncs; 0: default */
	bool json;
};

/* Defaults of the modes (documented in --help and ipu-bench(1)). */
#define BENCH_LINKS_SIZE	(64ull << 20)
#define BENCH_LINKS_RUNS	10u
#define BENCH_LINKS_IPUS	4u
#define BENCH_SYNC_COUNT	4095u

/* The monotonic clock in seconds. */
static inline double bench_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* bench_sort() - sort @n times (or any doubles) @v ascending. */
void bench_sort(double *v, size_t n);

/*
 * bench_links() - --links: the bandwidth of every pair of IPUs joined by
 * UP links (the model device of cfg->model, else the cards), printed as
 * a table or JSON. Returns the exit code (failures reported on stderr).
 */
int bench_links(const struct bench_config *cfg);

/*
 * bench_host_sync() - --host-sync: cfg->count RUN round trips of a
 * program that is one external sync, on device id cfg->devid or the model
 * device, printed as a table or JSON. Returns the exit code.
 */
int bench_host_sync(const struct bench_config *cfg);

/*
 * bench_open_model() - the model device of @cfg (cfg->model, @ipus IPUs)
 * into @d. Returns TOOL_CONTINUE, or the exit code after the failure was
 * reported (EXIT_USAGE for an unknown model, else EXIT_RUNTIME).
 */
struct ipu_device;
int bench_open_model(const struct bench_config *cfg, unsigned ipus, struct ipu_device **d);

/*
 * bench_device_error() - report the failed open @e on stderr
 * (with the hint when the driver is missing); returns EXIT_NODEV for
 * -ENODEV, EXIT_BUSY for -EBUSY, else EXIT_RUNTIME.
 */
struct ipu_error;
int bench_device_error(const struct ipu_error *e);

#endif /* IPU_TOOLS_BENCH_H */
