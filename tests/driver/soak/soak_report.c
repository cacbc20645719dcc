// SPDX-License-Identifier: GPL-2.0
/*
 * The soak's report: its counts as KTAP comments (seed, jobs, verified
 * results, clear errors by errno, resets, faults by type, recoveries per
 * card, pins, refcount, wall time), then one result per verdict.
 */
#include <stdio.h>

#include "soak.h"

/* The workers' slots added up. */
struct totals {
	uint64_t started, verified, wrong, unclear, failed, sessions, reopens;
	uint64_t bufs, pins, hung, max_job_ms, max_open_ms, max_close_ms;
	unsigned fd_leaks;	/* workers that ended with more files open */
	uint64_t by_errno[SOAK_ERRNO_MAX];
};

static void add_up(const struct soak_stats *st, struct totals *t)
{
	*t = (struct totals){ 0 };
	for (unsigned i = 0; i < SOAK_WORKERS; i++) {
		const struct soak_worker_slot *w = &st->w[i];

		t->started += w->started;
		t->verified += w->verified;
		t->wrong += w->wrong;
		t->unclear += w->unclear;
		t->failed += w->failed;
		t->sessions += w->sessions;
		t->reopens += w->reopens;
		t->bufs += w->bufs;
		t->pins += w->pins;
		t->hung += w->hung != 0;
		if (!w->hung && (w->fds0 < 0 || w->fds1 != w->fds0)) {
			t->fd_leaks++;
			printf("# worker %u: %ld files open at the start, %ld at the end\n",
			       i, w->fds0, w->fds1);
		}
		if (w->max_job_ms > t->max_job_ms)
			t->max_job_ms = w->max_job_ms;
		if (w->max_open_ms > t->max_open_ms)
			t->max_open_ms = w->max_open_ms;
		if (w->max_close_ms > t->max_close_ms)
			t->max_close_ms = w->max_close_ms;
		for (unsigned e = 0; e < SOAK_ERRNO_MAX; e++)
			t->by_errno[e] += w->by_errno[e];
		if (w->note[0])
			printf("# worker %u: %s\n", i, w->note);
		if (w->hung)
			printf("# worker %u: hung in %s on ipu%u\n", i,
			       soak_phase_names[w->phase], w->card);
	}
}

static void print_counts(const struct soak_config *cfg, const struct soak_stats *st,
			 const struct totals *t, const struct soak_after *a)
{
	const struct soak_controller_slot *c = &st->c;

	printf("# seed 0x%llx (IPU_SOAK_SEED=0x%llx replays it), %u s, %u cards, %u workers\n",
	       (unsigned long long)cfg->seed, (unsigned long long)cfg->seed,
	       cfg->seconds, cfg->ncards, SOAK_WORKERS);
	printf("# jobs started %llu, verified %llu, wrong %llu, clear errors %llu, unclear errors %llu, hung %llu\n",
	       (unsigned long long)t->started, (unsigned long long)t->verified,
	       (unsigned long long)t->wrong, (unsigned long long)t->failed,
	       (unsigned long long)t->unclear, (unsigned long long)t->hung);
	printf("# sessions %llu, reopened after an error %llu; data in ipu_buffer_alloc() memory %llu, in ipu_buffer_pin() memory %llu\n",
	       (unsigned long long)t->sessions, (unsigned long long)t->reopens,
	       (unsigned long long)t->bufs, (unsigned long long)t->pins);
	printf("# longest job %llu ms (bound %u s), open with its attach wait %llu ms (%u s), close %llu ms (%u s)\n",
	       (unsigned long long)t->max_job_ms, SOAK_JOB_BOUND_S,
	       (unsigned long long)t->max_open_ms, SOAK_OPEN_BOUND_S,
	       (unsigned long long)t->max_close_ms, SOAK_CLOSE_BOUND_S);
	for (int e = 1; e < SOAK_ERRNO_MAX; e++)
		if (t->by_errno[e])
			printf("# clear error -%s: %llu (%s)\n", soak_errno_name(-e),
			       (unsigned long long)t->by_errno[e], soak_errno_why(-e));
	printf("# resets (RESET ioctl, FORCE) %llu, failed %llu\n",
	       (unsigned long long)c->resets, (unsigned long long)c->resets_failed);
	for (int e = 1; e < SOAK_ERRNO_MAX; e++)
		if (c->reset_errno[e])
			printf("# reset failed with %d: %llu\n", -e,
			       (unsigned long long)c->reset_errno[e]);
	for (unsigned f = 0; f < SOAK_F_COUNT; f++)
		printf("# fault %s: armed %llu, refused %llu, took effect %ld\n",
		       soak_fault_names[f], (unsigned long long)c->armed[f],
		       (unsigned long long)c->refused[f], a->effective[f]);
	for (unsigned i = 0; i < cfg->ncards; i++)
		printf("# ipu%u (QOM ipu%u): recoveries %ld -> %ld\n", cfg->cards[i].id,
		       cfg->cards[i].index, cfg->cards[i].recoveries0, a->recoveries[i]);
	printf("# nr_foll_pin_acquired %ld, nr_foll_pin_released %ld; ipu refcnt %ld\n",
	       a->pin_acquired, a->pin_released, a->refcnt);
	printf("# soak wall time %lld ms (guest)\n", (long long)a->wall_ms);
	if (c->note[0])
		printf("# controller: %s\n", c->note);
	if (c->refusal[0])
		printf("# first refused fault: %s\n", c->refusal);
}

static int result(unsigned n, int ok, const char *what, const char *why)
{
	printf("%sok %u soak: %s%s%s\n", ok ? "" : "not ", n, what,
	       ok || !why || !why[0] ? "" : " # ", ok || !why ? "" : why);
	return !ok;
}

int soak_report(const struct soak_config *cfg, const struct soak_stats *st,
		const struct soak_after *a)
{
	const struct soak_controller_slot *c = &st->c;
	uint64_t armed = 0, recovered = 0;
	long effective = 0;
	struct totals t;
	int bad = 0;

	printf("KTAP version 1\n1..9\n");
	add_up(st, &t);
	print_counts(cfg, st, &t, a);
	for (unsigned f = 0; f < SOAK_F_COUNT; f++) {
		armed += c->armed[f];
		effective += a->effective[f] > 0 ? a->effective[f] : 0;
	}
	for (unsigned i = 0; i < cfg->ncards; i++)
		recovered += (uint64_t)(a->recoveries[i] - cfg->cards[i].recoveries0);
	bad += result(1, !t.wrong && t.verified,
		      "every completed job's result was verified", NULL);
	bad += result(2, !t.unclear, "every failed job got a clear error", NULL);
	bad += result(3, !t.hung && !a->exited_bad,
		      "no job hung, every process exited", a->exit_note);
	bad += result(4, armed && effective && recovered && c->resets &&
		      !c->resets_failed && !c->qmp_errors,
		      "faults took effect, RESETs succeeded, the driver recovered",
		      c->note);
	bad += result(5, a->cards_working == cfg->ncards,
		      "every card ready and verified after the soak", a->card_note);
	bad += result(6, a->pin_acquired >= 0 && a->pin_acquired == a->pin_released,
		      "pinned pages all released", NULL);
	bad += result(7, !a->refcnt, "module refcount back to 0", NULL);
	bad += result(8, a->cards_clean == cfg->ncards,
		      "driver buffers, pages and commands all freed", a->leak_note);
	bad += result(9, !t.fd_leaks, "every worker closed every file it opened", NULL);
	return bad;
}
