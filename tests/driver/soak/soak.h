/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ipu_soak_test: 8 processes run random jobs on the cards while a
 * controller resets them and injects faults (issue 12 "Load"). Shared
 * declarations of its files:
 *   soak_main.c       the parent: configuration, processes, the verdicts
 *   soak_job.c        one random job: graph, data, run, read back, verify
 *   soak_worker.c     a worker: sessions of jobs, reopen after errors
 *   soak_errors.c     which errors are clear (documented errno + message)
 *   soak_controller.c resets (RESET ioctl) and QMP faults at random
 *   soak_checks.c     sysfs, debugfs and /proc reads: recoveries, leaks
 *   soak_rng.c        the seeded generator every process derives from
 * The processes share one MAP_SHARED struct soak_stats: each writes only
 * its own slot, the parent reads them after they exited.
 */
#ifndef IPU_SOAK_H
#define IPU_SOAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SOAK_WORKERS		8
#define SOAK_MAX_CARDS		8
#define SOAK_ERRNO_MAX		160	/* errno values counted one by one */
#define SOAK_NOTE_MAX		320
/* Generous bounds for TCG: "it never completed", not a timing assertion. */
/*
 * A job never waits for another user: each command completes or the
 * driver recovers the card within seconds. Opening waits for the card's
 * holder (up to 4 jobs of each of the other workers, and their closes).
 */
#define SOAK_JOB_BOUND_S	30
#define SOAK_OPEN_BOUND_S	120
/* A close drains the card: up to three of the driver's 10 s waits. */
#define SOAK_CLOSE_BOUND_S	60
#define SOAK_EXIT_BOUND_S	150	/* the processes, after the soak ended */

/* --- soak_rng.c: splitmix64, one state per process (no global state) --- */
struct soak_rng {
	uint64_t s;
};
void soak_rng_seed(struct soak_rng *r, uint64_t seed, uint64_t stream);
uint64_t soak_rng_next(struct soak_rng *r);
/* Uniform in [lo, hi] (lo <= hi). */
uint32_t soak_rng_range(struct soak_rng *r, uint32_t lo, uint32_t hi);

/* --- the cards under test --- */
struct soak_card {
	unsigned id;		/* N of /dev/ipuN */
	unsigned index;		/* card_index: QOM /machine/peripheral/ipuINDEX */
	long recoveries0;	/* sysfs recoveries before the soak */
};

struct soak_config {
	uint64_t seed;		/* IPU_SOAK_SEED, else a fixed default */
	unsigned seconds;	/* IPU_SOAK_SECONDS, else 60 */
	unsigned ncards;
	struct soak_card cards[SOAK_MAX_CARDS];
	int64_t end_ms;		/* CLOCK_MONOTONIC end of the soak */
};

/* Fault types the controller injects (docs/hw-interface.md 1.6). */
enum soak_fault {
	SOAK_F_HANG_JOB, SOAK_F_DMA_ERROR, SOAK_F_FATAL, SOAK_F_DROP_IRQ,
	SOAK_F_CORRUPT_CQE, SOAK_F_HEARTBEAT_STOP, SOAK_F_READY_DELAY,
	SOAK_F_COUNT
};
extern const char *const soak_fault_names[SOAK_F_COUNT];

/* What a worker does now: named in the report when it hangs. */
enum soak_phase {
	SOAK_P_IDLE, SOAK_P_OPEN, SOAK_P_BUILD, SOAK_P_LOAD, SOAK_P_WRITE,
	SOAK_P_RUN, SOAK_P_READ, SOAK_P_VERIFY, SOAK_P_CLOSE, SOAK_P_COUNT
};
extern const char *const soak_phase_names[SOAK_P_COUNT];

struct soak_worker_slot {
	uint64_t started;	/* jobs begun */
	uint64_t verified;	/* jobs whose every result matched the host's */
	uint64_t wrong;		/* jobs that completed with a wrong result */
	uint64_t unclear;	/* failures without a documented errno + message */
	uint64_t failed;	/* failures with a clear error */
	uint64_t sessions;	/* device opens */
	uint64_t reopens;	/* opens after an error closed the device */
	uint64_t by_errno[SOAK_ERRNO_MAX];	/* clear failures by errno */
	uint64_t pins;		/* jobs whose data was in ipu_buffer_pin() memory */
	uint64_t bufs;		/* ... in ipu_buffer_alloc() memory */
	uint64_t max_job_ms;	/* the longest job */
	uint64_t max_open_ms;	/* the longest open (attach wait) */
	uint64_t max_close_ms;	/* the longest close (detach) */
	long fds0, fds1;	/* open file descriptors before and after */
	volatile int phase;	/* enum soak_phase, for a hang's report */
	volatile unsigned card;	/* the card of the current job */
	volatile int hung;	/* 1: the job bound expired */
	char note[SOAK_NOTE_MAX];	/* the first wrong or unclear result */
};

struct soak_controller_slot {
	uint64_t resets;		/* RESETs that returned 0 */
	uint64_t resets_failed;		/* RESETs that failed (by errno below) */
	uint64_t reset_errno[SOAK_ERRNO_MAX];
	uint64_t armed[SOAK_F_COUNT];	/* faults QEMU accepted */
	uint64_t refused[SOAK_F_COUNT];	/* refused (already armed, not READY) */
	uint64_t qmp_errors;		/* requests that got no answer */
	volatile int hung;
	char note[SOAK_NOTE_MAX];	/* the first failed RESET */
	char refusal[SOAK_NOTE_MAX];	/* the first refused fault: why */
};

struct soak_stats {
	struct soak_worker_slot w[SOAK_WORKERS];
	struct soak_controller_slot c;
};

/* What the parent found after every process exited (soak_main.c). */
struct soak_after {
	int exited_bad;			/* processes that crashed or were killed */
	char exit_note[SOAK_NOTE_MAX];
	long recoveries[SOAK_MAX_CARDS];	/* sysfs recoveries after */
	long effective[SOAK_F_COUNT];	/* faults that took effect (QEMU), -1 unread */
	unsigned cards_working;		/* ready and ran a verified job after */
	char card_note[SOAK_NOTE_MAX];
	long pin_acquired, pin_released;	/* /proc/vmstat nr_foll_pin_* */
	long refcnt;			/* /sys/module/ipu/refcnt */
	unsigned cards_clean;		/* debugfs leak counters all 0 */
	char leak_note[SOAK_NOTE_MAX];
	int64_t wall_ms;		/* of the soak, start to the last exit */
};

/* --- soak_report.c: the counts as KTAP comments, then the results;
 * returns the number of failed results --- */
int soak_report(const struct soak_config *cfg, const struct soak_stats *st,
		const struct soak_after *after);

/* --- soak_job.c --- */
/*
 * One random job on @dev (a card of chip @model): a graph of random kind and size built with the
 * public builder, random data, load, write, run, read back, verify against
 * the host's result. Returns 0 when verified, 1 when it completed with a
 * wrong result (@err->msg says where), 2 when the builder failed (the
 * soak's own defect, @err its message), or the failing call's -errno with
 * @err filled by libipudev. Updates @slot's phase and data-path counters.
 */
struct ipu_device;
struct ipu_error;
int soak_job(struct ipu_device *dev, uint32_t model, struct soak_rng *rng,
	     struct soak_worker_slot *slot, struct ipu_error *err);

/* --- soak_worker.c: the process body; exits 0 --- */
void soak_worker(const struct soak_config *cfg, unsigned k,
		 struct soak_worker_slot *slot);

/* --- soak_errors.c --- */
/*
 * A failure is clear when its errno is one the soak's events document
 * (docs/uapi.md "Recovery (API 1.8)", RESET, fault injection) and the
 * message is not empty. NULL for clear, else why not.
 */
const char *soak_unclear(int code, const char *msg);
/* The device must be closed and opened again after @code (as a user would). */
bool soak_must_reopen(int code);
/* The event that documents @code (negative errno), for the report. */
const char *soak_errno_why(int code);
/* Its symbolic name ("ETIMEDOUT"), "?" for an errno not in the table. */
const char *soak_errno_name(int code);

/* --- soak_controller.c: the process body; exits 0 --- */
void soak_controller(const struct soak_config *cfg,
		     struct soak_controller_slot *slot);
/* QMP faults through the host: count of type T that took effect on card
 * @index (qom-get "faults"), or -1 when it could not be read. */
long soak_faults_injected(unsigned index, const char *type);

/* --- soak_checks.c --- */
long soak_sysfs_long(unsigned id, const char *attr);
/* /proc/vmstat field @name, or -1. */
long soak_vmstat(const char *name);
/* The process's open file descriptors (/proc/self/fd), or -1. */
long soak_open_fds(void);
/* /sys/module/ipu/refcnt, or -1. */
long soak_module_refcnt(void);
/* Sum of the driver's debugfs leak counters of card ipu@id, or -1. */
long soak_debug_counters(unsigned id, char *what, size_t len);
int64_t soak_now_ms(void);
void soak_sleep_ms(unsigned ms);

#endif /* IPU_SOAK_H */
