// SPDX-License-Identifier: GPL-2.0
/*
 * A worker of the soak: sessions on random cards (open and attach, one to
 * four random jobs, close, so that eight workers share the cards), every
 * job's outcome counted in its slot. After an error that ends what the
 * device had (a reset, a recovery, a card gone) it closes the device and
 * opens it again, as a user would, and keeps nothing from before. A job
 * that does not end within SOAK_JOB_BOUND_S, an open (attach wait) not
 * within SOAK_OPEN_BOUND_S or a close not within SOAK_CLOSE_BOUND_S is a
 * hang: the alarm records it and ends the process.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ipudev.h"
#include "soak.h"

const char *const soak_phase_names[SOAK_P_COUNT] = {
	[SOAK_P_IDLE] = "idle", [SOAK_P_OPEN] = "open+attach",
	[SOAK_P_BUILD] = "build", [SOAK_P_LOAD] = "load",
	[SOAK_P_WRITE] = "write", [SOAK_P_RUN] = "run", [SOAK_P_READ] = "read",
	[SOAK_P_VERIFY] = "verify", [SOAK_P_CLOSE] = "close",
};

/* The slot SIGALRM marks (per process, as the handler is). */
static struct soak_worker_slot *alarm_slot;

static void on_alarm(int sig)
{
	(void)sig;
	if (alarm_slot)
		alarm_slot->hung = 1;
	_exit(3);
}

static void note(struct soak_worker_slot *slot, const char *what,
		 unsigned card, int code, const char *msg)
{
	if (slot->note[0])
		return;
	snprintf(slot->note, sizeof(slot->note), "ipu%u: %s: %d (%s) \"%.200s\"",
		 card, what, code, ipu_strerror(code), msg);
}

static void longest(uint64_t *max_ms, int64_t t0)
{
	uint64_t ms = (uint64_t)(soak_now_ms() - t0);

	if (ms > *max_ms)
		*max_ms = ms;
}

/* Counts a failure; true when the device must be opened again. */
static bool failure(struct soak_worker_slot *slot, unsigned card, int code,
		    const struct ipu_error *err)
{
	const char *why = soak_unclear(code, err->msg);

	if (why) {
		slot->unclear++;
		note(slot, why, card, code, err->msg);
		return true;
	}
	slot->failed++;
	if (-code < SOAK_ERRNO_MAX)
		slot->by_errno[-code]++;
	return soak_must_reopen(code);
}

/* One session on card ipu@card; *@reopen: the last one ended in an error. */
static void session(const struct soak_config *cfg, unsigned card,
		    struct soak_rng *rng, struct soak_worker_slot *slot,
		    bool *reopen)
{
	unsigned jobs = soak_rng_range(rng, 1, 4);
	struct ipu_device_info info;
	struct ipu_device *dev = NULL;
	struct ipu_error err;
	int ret;
	int64_t t0 = soak_now_ms();

	slot->card = card;
	slot->phase = SOAK_P_OPEN;
	alarm(SOAK_OPEN_BOUND_S);
	ipu_error_clear(&err);
	ret = ipu_device_open(card, IPU_OPEN_ATTACH, &dev, &err);
	longest(&slot->max_open_ms, t0);
	if (!ret)
		ret = ipu_device_info(dev, &info, &err);
	if (ret) {
		/* not a job: counted with the failures, must be as clear */
		*reopen = failure(slot, card, ret, &err) || *reopen;
		if (!dev)
			goto out;
		goto close;
	}
	slot->sessions++;
	if (*reopen)
		slot->reopens++;
	*reopen = false;
	for (unsigned i = 0; i < jobs && soak_now_ms() < cfg->end_ms; i++) {
		alarm(SOAK_JOB_BOUND_S);
		slot->started++;
		t0 = soak_now_ms();
		ret = soak_job(dev, info.model, rng, slot, &err);
		longest(&slot->max_job_ms, t0);
		if (!ret) {
			slot->verified++;
		} else if (ret == 1) {
			slot->wrong++;
			note(slot, "wrong result", card, 0, err.msg);
		} else if (ret == 2) {
			slot->unclear++;
			note(slot, "the builder failed", card, err.code, err.msg);
		} else if (failure(slot, card, ret, &err)) {
			*reopen = true;
			break;
		}
	}
close:
	slot->phase = SOAK_P_CLOSE;
	alarm(SOAK_CLOSE_BOUND_S);
	t0 = soak_now_ms();
	ipu_device_close(dev);
	longest(&slot->max_close_ms, t0);
out:
	alarm(0);
	slot->phase = SOAK_P_IDLE;
}

void soak_worker(const struct soak_config *cfg, unsigned k,
		 struct soak_worker_slot *slot)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	bool reopen = false;
	struct soak_rng rng;

	soak_rng_seed(&rng, cfg->seed, 1 + k);
	alarm_slot = slot;
	sigaction(SIGALRM, &sa, NULL);
	slot->fds0 = soak_open_fds();
	while (soak_now_ms() < cfg->end_ms) {
		unsigned c = soak_rng_range(&rng, 0, cfg->ncards - 1);

		session(cfg, cfg->cards[c].id, &rng, slot, &reopen);
	}
	slot->fds1 = soak_open_fds();
}
