/* SPDX-License-Identifier: MIT */
/*
 * Phase execution: the compute phase (vertices of one compute set) and the
 * exchange phase (a prepared copy list), each split over the host thread
 * pool along bounds precomputed at load. No bounds checks here: the loader
 * proved every pointer and length.
 */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>

/*
 * Split n items with weights into parts contiguous ranges of about equal
 * total weight. If parts < 2 or the total weight is below threshold the
 * work stays on the calling thread (*nsplit = 0, *split = NULL): waking the
 * pool costs more than it saves. Returns 0 or IPUE_ENOMEM; *split is owned
 * by the caller.
 */
int ipue_work_split(const uint64_t *weight, uint32_t n, unsigned parts,
		    uint64_t threshold, uint32_t **split, uint32_t *nsplit)
{
	uint64_t total = 0, acc = 0;
	uint32_t *s;
	unsigned k = 1;

	*split = NULL;
	*nsplit = 0;
	for (uint32_t i = 0; i < n; i++)
		total += weight[i];
	if (parts < 2 || n < 2 || total < threshold)
		return 0;
	s = calloc(parts + 1, sizeof(*s));
	if (!s)
		return IPUE_ENOMEM;
	for (uint32_t i = 0; i < n && k < parts; i++) {
		acc += weight[i];
		/* close part k-1 once it holds its share of the total */
		while (k < parts && acc * parts >= total * k)
			s[k++] = i + 1;
	}
	while (k <= parts)
		s[k++] = n;
	*split = s;
	*nsplit = parts;
	return 0;
}

void ipue_run_vertices(const struct ipue_rt_vertex *v, uint32_t b, uint32_t end)
{
	for (uint32_t i = b; i < end; i++)
		v[i].run(v[i].f, v[i].p);
}

unsigned ipue_claim_next(struct ipue_claim *cl)
{
	return atomic_fetch_add_explicit(&cl->next, 1, memory_order_relaxed);
}

static void cs_job(void *arg, unsigned idx, unsigned n)
{
	struct ipue_claim *cl = arg;
	const struct ipue_rt_cs *cs = cl->obj;
	unsigned i;

	(void)idx;
	(void)n;
	while ((i = ipue_claim_next(cl)) < cs->nsplit)
		ipue_run_vertices(cs->v, cs->split[i], cs->split[i + 1]);
}

/* Run every vertex of cs once (the compute phase). */
void ipue_compute_run(struct ipue_engine *e, const struct ipue_rt_cs *cs)
{
	if (cs->nsplit && e->pool && ipue_pool_size(e->pool) * IPUE_POOL_PIECES == cs->nsplit) {
		struct ipue_claim cl = { cs, 0 };

		ipue_pool_run(e->pool, cs_job, &cl);
	} else {
		ipue_run_vertices(cs->v, 0, cs->nv);
	}
}

void ipue_copy_range(const struct ipue_rt_copy *c, uint32_t b, uint32_t end)
{
	for (uint32_t i = b; i < end; i++)
		memcpy(c[i].dst, c[i].src, c[i].bytes);
}

static void ex_job(void *arg, unsigned idx, unsigned n)
{
	struct ipue_claim *cl = arg;
	const struct ipue_rt_exchange *x = cl->obj;
	unsigned i;

	(void)idx;
	(void)n;
	while ((i = ipue_claim_next(cl)) < x->nsplit)
		ipue_copy_range(x->c, x->split[i], x->split[i + 1]);
}

/*
 * Run one exchange. memcpy is safe in any order and in parallel: the
 * loader rejected destinations overlapping each other or any source.
 */
void ipue_exchange_run(struct ipue_engine *e, const struct ipue_rt_exchange *x)
{
	if (x->nsplit && e->pool && ipue_pool_size(e->pool) * IPUE_POOL_PIECES == x->nsplit) {
		struct ipue_claim cl = { x, 0 };

		ipue_pool_run(e->pool, ex_job, &cl);
	} else {
		ipue_copy_range(x->c, 0, x->nc);
	}
}
