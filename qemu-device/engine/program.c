/* SPDX-License-Identifier: MIT */
/*
 * Control program interpreter and ipue_run(). The loader proved the node
 * graph acyclic with nesting <= IPUE_MAX_PROGRAM_DEPTH, so the recursion
 * here is bounded. Loops are not: RepeatWhileTrue and huge Repeat counts
 * run until done, cancelled (ipue_cancel) or the run's step_limit.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "engine_internal.h"

#include <string.h>
#include <time.h>

struct runner {
	struct ipue_engine *e;
	struct ipue_graph *g;
	struct ipue_run_stats *st;
	uint64_t step_limit;
	const struct ipue_memcheck *mc;	/* NULL: no memory check (memcheck.c) */
	int multi;			/* a multi-IPU graph: the group's parts (multi.c) */
};

/* one program step: the cancel and step-limit check point */
static int step(struct runner *r)
{
	r->st->steps++;
	atomic_fetch_add_explicit(&r->e->progress, 1, memory_order_relaxed);
	if (atomic_load_explicit(&r->e->cancel, memory_order_relaxed))
		return IPUE_ECANCELED;
	if (r->step_limit && r->st->steps > r->step_limit)
		return IPUE_ESTEPLIMIT;
	return r->multi ? ipue_multi_poll(r->e) : 0;
}

/*
 * a scalar tensor is true when any of its bytes is non-zero; in a
 * multi-IPU graph every member takes the value of the one holding it
 */
static int cond_true(struct runner *r, const struct ipue_rt_tensor *t, int *value)
{
	const uint8_t *p = t->iv[0].ptr;

	if (r->multi)
		return ipue_multi_cond(r->e, t, value, r->st);
	*value = 0;
	for (uint64_t i = 0; i < t->bytes && !*value; i++)
		*value = p[i] != 0;
	return 0;
}

static void cs_stats(struct ipue_run_stats *st, const struct ipue_rt_cs *cs)
{
	st->cycles_compute += cs->cycles;
	st->cycles_sync += IPUE_COST_SYNC_CYCLES;	/* end of the compute phase */
	st->compute_sets++;
	st->syncs++;
}

static void ex_stats(struct ipue_run_stats *st, const struct ipue_rt_exchange *x)
{
	st->cycles_exchange += x->cycles;
	st->exchange_bytes += x->bytes;
	st->exchanges++;
}

/* an exchange and the compute set after it (fuse.c): two program steps */
static int exec_fused(struct runner *r, const struct ipue_rt_fused *f)
{
	int rc = step(r);

	if (rc)
		return rc;
	rc = step(r);
	if (rc) {
		/* stopped between the two: the exchange alone, as unfused */
		ipue_exchange_run(r->e, f->x);
		ex_stats(r->st, f->x);
		return rc;
	}
	ipue_fused_run(r->e, f);
	ex_stats(r->st, f->x);
	cs_stats(r->st, f->cs);
	return 0;
}

/* the memory checker on a fused pair: the exchange at step at, the compute set after it */
static int check_fused(struct runner *r, const struct ipue_rt_fused *f, uint64_t at)
{
	int rc = ipue_memcheck_exchange(r->e, f->x, at);

	return rc ? rc : ipue_memcheck_cs(r->e, f->cs, at + 1);
}

/*
 * Run node id; at is its first step as the builder numbers them (memcheck.c),
 * followed only while r->mc is set.
 */
static int exec_node(struct runner *r, uint32_t id, uint64_t at)
{
	struct ipue_graph *g = r->g;
	const struct ipu_graph_prog_node *n = &g->nodes[id];
	struct ipue_run_stats *st = r->st;
	int rc = step(r);

	if (rc)
		return rc;
	switch (n->kind) {
	case IPU_PROG_SEQUENCE:
		for (uint32_t k = 0; k < n->b && !rc; k++) {
			uint32_t f = g->child_fused[n->a + k], c = g->children[n->a + k];

			if (f) {
				if (r->mc && (rc = check_fused(r, &g->fused[f - 1], at)))
					return rc;
				rc = exec_fused(r, &g->fused[f - 1]);
				k++;	/* the compute set ran fused */
				if (r->mc)
					at += ipue_memcheck_steps(r->mc, c) +
					      ipue_memcheck_steps(r->mc, g->children[n->a + k]);
			} else {
				rc = exec_node(r, c, at);
				if (r->mc)
					at += ipue_memcheck_steps(r->mc, c);
			}
		}
		return rc;
	case IPU_PROG_EXECUTE:
		if (r->mc && (rc = ipue_memcheck_cs(r->e, &g->cs[n->a], at)))
			return rc;
		ipue_compute_run(r->e, &g->cs[n->a]);
		cs_stats(st, &g->cs[n->a]);
		return 0;
	case IPU_PROG_COPY:
		if (r->mc && (rc = ipue_memcheck_exchange(r->e, &g->ex[n->a], at)))
			return rc;
		if (g->ex[n->a].cross)
			rc = ipue_multi_exchange(r->e, &g->ex[n->a], st);
		else
			ipue_exchange_run(r->e, &g->ex[n->a]);
		ex_stats(st, &g->ex[n->a]);
		return rc;
	case IPU_PROG_REPEAT:
		for (uint32_t k = 0; k < n->a && !rc; k++)
			rc = exec_node(r, n->b, at);
		return rc;
	case IPU_PROG_REPEAT_WHILE_TRUE:
		for (;;) {
			int yes;

			if (n->c != IPU_GRAPH_NONE) {
				rc = exec_node(r, n->c, at);
				if (rc)
					return rc;
			}
			rc = cond_true(r, &g->tensors[n->a], &yes);
			if (rc || !yes)
				return rc;
			rc = exec_node(r, n->b, r->mc ? at + ipue_memcheck_steps(r->mc, n->c) : at);
			if (rc)
				return rc;
		}
	case IPU_PROG_IF: {
		int yes;
		uint32_t br;

		rc = cond_true(r, &g->tensors[n->a], &yes);
		if (rc)
			return rc;
		br = yes ? n->b : n->c;

		if (r->mc && !yes)
			at += ipue_memcheck_steps(r->mc, n->b);	/* else counts after then */
		return br == IPU_GRAPH_NONE ? 0 : exec_node(r, br, at);
	}
	case IPU_PROG_SYNC:
		if (r->multi && n->a == IPU_SYNC_EXTERNAL)
			return ipue_multi_sync(r->e, st);
		st->cycles_sync += IPUE_COST_SYNC_CYCLES;
		st->syncs++;
		return 0;
	case IPU_PROG_STREAM_COPY: {
		struct ipue_rt_stream *s = &g->streams[n->a];
		const struct ipue_rt_tensor *t = &g->tensors[n->b];
		/* multi-IPU: only the member holding the tensor streams it */
		int here = !t->niv || t->iv[0].ptr;

		if (here && r->mc && (rc = ipue_memcheck_stream(r->e, t, at)))
			return rc;
		if (!here) {
			/* every member counts the cycles, below */
		} else if (s->direction == IPU_STREAM_HOST_TO_DEVICE) {
			rc = ipue_stream_h2d(s, t);
			if (!rc)
				ipue_guards_mark(g, n->b);
			st->stream_bytes_h2d += rc ? 0 : s->bytes;
		} else {
			rc = ipue_stream_d2h(s, t);
			st->stream_bytes_d2h += rc ? 0 : s->bytes;
		}
		st->cycles_stream += ipue_cost_stream(&r->e->m, s->bytes);
		return rc;
	}
	case IPU_PROG_ABORT_ON_CONDITION: {
		int yes;

		rc = cond_true(r, &g->tensors[n->a], &yes);
		if (rc || !yes)
			return rc;
		r->e->aborted = 1;
		r->e->abort_code = n->b;
		r->e->abort_node = id;
		return IPUE_EABORT;
	}
	default:
		return IPUE_EFORMAT;	/* unreachable: the loader checked kinds */
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Run an entry program; see ipu_engine.h for the contract. */
int ipue_run(struct ipue_engine *e, const struct ipue_run_opts *opts,
	     struct ipue_run_stats *stats)
{
	struct ipue_run_stats local;
	struct runner r;
	uint64_t t0 = now_ns(), reps, first;
	int rc = 0, frc;

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	if (!e || !opts)
		return IPUE_EINVAL;
	if (!e->g)
		return IPUE_ENOGRAPH;
	if (opts->program >= e->g->nentries)
		return IPUE_ERANGE;
	e->aborted = 0;
	e->memcheck_failed = 0;
	e->linked = 0;
	/* a multi-IPU member checks after joining the group's run (below) */
	rc = e->g->multi ? 0 : ipue_guards_check(e, opts->program);
	if (rc)
		return rc;
	pthread_mutex_lock(&e->run_lock);
	if (e->running) {
		pthread_mutex_unlock(&e->run_lock);
		return IPUE_EBUSY;
	}
	e->running = 1;
	atomic_store(&e->cancel, 0);
	pthread_mutex_unlock(&e->run_lock);

	/* threads only once there is work for them; failure = single-threaded */
	if (!e->pool && e->host_threads > 1)
		(void)ipue_pool_create(&e->pool, e->host_threads,
				       e->thread_init, e->thread_exit);
	e->aborted = 0;
	e->abort_code = 0;
	e->abort_node = 0;
	r.e = e;
	r.g = e->g;
	r.st = stats;
	r.step_limit = opts->step_limit;
	r.mc = e->g->mc;
	r.multi = e->g->multi != NULL;
	if (r.multi) {
		/* every member fails alike, the first ending the others' runs */
		rc = ipue_multi_run_begin(e, opts->program);
		if (!rc)
			rc = ipue_guards_check(e, opts->program);
	}
	first = r.mc ? ipue_memcheck_entry_step(r.mc, opts->program) : 0;
	reps = opts->repeat ? opts->repeat : 1;
	for (uint64_t i = 0; i < reps && !rc; i++)
		rc = exec_node(&r, e->g->entries[opts->program], first);
	if (!rc)
		ipue_guards_ran(e->g, opts->program);
	/* device->host data written so far reaches the host even on failure */
	for (uint32_t s = 0; s < e->g->nstreams; s++) {
		frc = ipue_stream_flush(&e->g->streams[s]);
		if (!rc)
			rc = frc;
	}
	if (r.multi)
		rc = ipue_multi_run_end(e, rc, stats);
	stats->cycles = stats->cycles_compute + stats->cycles_sync +
			stats->cycles_exchange + stats->cycles_stream;
	stats->host_ns = now_ns() - t0;
	ipue_pool_idle(e->pool);	/* the next run is the host's to start */

	pthread_mutex_lock(&e->run_lock);
	e->running = 0;
	atomic_store(&e->cancel, 0);
	pthread_mutex_unlock(&e->run_lock);
	return rc;
}
