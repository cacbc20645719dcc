// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_soak_test (tests/driver/soak/soak.h): the parent. It finds the cards,
 * starts the controller and SOAK_WORKERS workers for IPU_SOAK_SECONDS
 * (default 60) with seed IPU_SOAK_SEED (default below; printed, so that a
 * run can be replayed), waits for them within a bound, checks that every
 * card works afterwards and that nothing leaked, and prints KTAP
 * (soak_report.c). Needs the host's QMP (IPU_QMP_DIR,
 * tests/common/ipu_host_qmp.h); skips without it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ipudev.h"
#include "ipu_host_qmp.h"
#include "soak.h"

#define SOAK_SEED_DEFAULT	0x1ee70012ull
#define SOAK_SECONDS_DEFAULT	60
/* After the soak: a card recovering may take its ready timeout and more. */
#define SOAK_READY_BOUND_MS	30000
#define SOAK_LEAK_BOUND_MS	10000

static int config(struct soak_config *cfg)
{
	const char *seed = getenv("IPU_SOAK_SEED");
	const char *secs = getenv("IPU_SOAK_SECONDS");
	struct ipu_card *cards;
	struct ipu_error err;
	size_t n;

	memset(cfg, 0, sizeof(*cfg));
	cfg->seed = seed ? strtoull(seed, NULL, 0) : SOAK_SEED_DEFAULT;
	cfg->seconds = secs ? (unsigned)atoi(secs) : SOAK_SECONDS_DEFAULT;
	if (ipu_enumerate(&cards, &n, &err)) {
		printf("# no cards: %s\n", err.msg);
		return -1;
	}
	for (size_t i = 0; i < n && cfg->ncards < SOAK_MAX_CARDS; i++) {
		struct soak_card *c = &cfg->cards[cfg->ncards++];

		c->id = cards[i].id;
		c->index = cards[i].card_index;
		c->recoveries0 = soak_sysfs_long(c->id, "recoveries");
	}
	ipu_cards_free(cards);
	return 0;
}

/*
 * Waits for the processes until @bound_ms (monotonic), then kills the
 * rest: each one that did not exit 0 is recorded in @after.
 */
static void reap(pid_t *pids, unsigned n, int64_t bound_ms,
		 struct soak_after *after)
{
	unsigned left = n;

	while (left) {
		int status;
		pid_t p = waitpid(-1, &status, WNOHANG);

		if (p <= 0) {
			if (soak_now_ms() >= bound_ms)
				break;
			soak_sleep_ms(100);
			continue;
		}
		for (unsigned i = 0; i < n; i++) {
			if (pids[i] != p)
				continue;
			pids[i] = 0;
			left--;
			if (WIFEXITED(status) && !WEXITSTATUS(status))
				break;
			after->exited_bad++;
			if (!after->exit_note[0])
				snprintf(after->exit_note, sizeof(after->exit_note),
					 "process %u: %s %d", i,
					 WIFEXITED(status) ? "exit" : "signal",
					 WIFEXITED(status) ? WEXITSTATUS(status) :
					 WTERMSIG(status));
		}
	}
	for (unsigned i = 0; i < n; i++)
		if (pids[i]) {
			after->exited_bad++;
			snprintf(after->exit_note, sizeof(after->exit_note),
				 "process %u did not exit: killed", i);
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
}

/* Each card READY and running a verified job after the soak. */
static void check_cards(const struct soak_config *cfg, struct soak_after *after)
{
	struct soak_worker_slot slot;
	struct soak_rng rng;

	soak_rng_seed(&rng, cfg->seed, 100);
	for (unsigned i = 0; i < cfg->ncards; i++) {
		unsigned id = cfg->cards[i].id;
		int64_t end = soak_now_ms() + SOAK_READY_BOUND_MS;
		struct ipu_device_info info;
		struct ipu_device *dev;
		struct ipu_error err;
		char state[16] = "";
		int ret;

		while (soak_now_ms() < end) {
			char path[64];
			FILE *f;

			snprintf(path, sizeof(path), "/sys/class/ipu/ipu%u/state", id);
			f = fopen(path, "r");
			if (f && fscanf(f, "%15s", state) != 1)
				state[0] = 0;
			if (f)
				fclose(f);
			if (!strcmp(state, "ready"))
				break;
			soak_sleep_ms(100);
		}
		memset(&slot, 0, sizeof(slot));
		ipu_error_clear(&err);
		ret = ipu_device_open(id, IPU_OPEN_ATTACH, &dev, &err);
		if (!ret) {
			ret = ipu_device_info(dev, &info, &err);
			if (!ret)
				ret = soak_job(dev, info.model, &rng, &slot, &err);
			ipu_device_close(dev);
		}
		after->recoveries[i] = soak_sysfs_long(id, "recoveries");
		if (!ret) {
			after->cards_working++;
		} else if (!after->card_note[0]) {
			snprintf(after->card_note, sizeof(after->card_note),
				 "ipu%u (state %s): %d \"%.200s\"", id, state, ret,
				 err.msg);
		}
	}
}

/* Nothing pinned, referenced or allocated once every file is closed. */
static void check_leaks(const struct soak_config *cfg, struct soak_after *after)
{
	int64_t end = soak_now_ms() + SOAK_LEAK_BOUND_MS;
	char what[200];

	do {
		after->cards_clean = 0;
		for (unsigned i = 0; i < cfg->ncards; i++) {
			long v = soak_debug_counters(cfg->cards[i].id, what, sizeof(what));

			if (!v)
				after->cards_clean++;
			else
				snprintf(after->leak_note, sizeof(after->leak_note),
					 "ipu%u: %s", cfg->cards[i].id,
					 v < 0 ? "no debugfs counters" : what);
		}
		after->pin_acquired = soak_vmstat("nr_foll_pin_acquired");
		after->pin_released = soak_vmstat("nr_foll_pin_released");
		after->refcnt = soak_module_refcnt();
		if (after->cards_clean == cfg->ncards && !after->refcnt &&
		    after->pin_acquired == after->pin_released)
			break;
		soak_sleep_ms(100);
	} while (soak_now_ms() < end);
}

static void count_effective(const struct soak_config *cfg, struct soak_after *after)
{
	for (unsigned f = 0; f < SOAK_F_COUNT; f++) {
		after->effective[f] = 0;
		for (unsigned i = 0; i < cfg->ncards; i++) {
			long n = soak_faults_injected(cfg->cards[i].index,
						      soak_fault_names[f]);

			if (n < 0) {
				after->effective[f] = -1;
				break;
			}
			after->effective[f] += n;
		}
	}
}

int main(void)
{
	pid_t pids[SOAK_WORKERS + 1];
	struct soak_after after;
	struct soak_config cfg;
	struct soak_stats *st;
	int64_t t0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!ipu_host_qmp_dir()) {
		printf("KTAP version 1\n1..1\n"
		       "ok 1 soak # SKIP no QMP from the host (IPU_QMP_DIR): see tests/driver/soak/run.sh\n");
		return 0;
	}
	if (config(&cfg)) {
		printf("KTAP version 1\n1..1\nnot ok 1 soak: cards found\n");
		return 1;
	}
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED)
		return 1;
	memset(&after, 0, sizeof(after));
	t0 = soak_now_ms();
	cfg.end_ms = t0 + (int64_t)cfg.seconds * 1000;
	for (unsigned i = 0; i <= SOAK_WORKERS; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return 1;
		if (pids[i])
			continue;
		if (i == SOAK_WORKERS)
			soak_controller(&cfg, &st->c);
		else
			soak_worker(&cfg, i, &st->w[i]);
		_exit(0);
	}
	reap(pids, SOAK_WORKERS + 1, cfg.end_ms + SOAK_EXIT_BOUND_S * 1000, &after);
	after.wall_ms = soak_now_ms() - t0;
	check_cards(&cfg, &after);
	count_effective(&cfg, &after);
	check_leaks(&cfg, &after);
	return soak_report(&cfg, st, &after) ? 1 : 0;
}
