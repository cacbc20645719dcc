/* SPDX-License-Identifier: MIT */
/*
 * The memory-plan checker (IPUE_CONFIG_MEMCHECK; docs/graph-format.md,
 * "Memory regions"): the builder reuses tile memory by liveness and writes
 * its plan as regions live over steps of its linearised programs. At load,
 * no two regions of a tile that share a byte may be live at one step; at
 * run, every byte a step touches must lie in a region of its tile live at
 * that step. Steps are numbered as the builder's memplan.c numbers them:
 * an Execute or a Copy is one step; loop bodies (a RepeatWhileTrue's
 * condition first) and both branches of an If count once, statically; the
 * entry programs one after another from step 1. A stream copy is no step:
 * it is checked at the step that follows it (its target is always live).
 */
#include "engine_internal.h"
#include "graph_container.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mc_region {
	uint32_t tile, off, end, first, last;	/* bytes [off, end), steps [first, last] */
	uint32_t rec;				/* its record in the section */
	uint32_t always;			/* IPU_GRAPH_REGION_ALWAYS_LIVE */
};

struct ipue_memcheck {
	struct mc_region *r;	/* by (tile, off, end) */
	uint32_t n;
	uint32_t *tfirst;	/* [tiles + 1]: tile t's regions are [tfirst[t], tfirst[t + 1]) */
	uint32_t *pmax;		/* [n]: the largest end of the tile's regions up to this one */
	uint32_t *used;		/* tiles with memory, ascending (and so by address) */
	uint32_t nused;
	uint64_t *nsteps;	/* [nnodes]: the steps a node counts */
	uint64_t *entry_step;	/* [nentries]: an entry program's first step */
};

void ipue_memcheck_free(struct ipue_memcheck *mc)
{
	if (!mc)
		return;
	free(mc->r);
	free(mc->tfirst);
	free(mc->pmax);
	free(mc->used);
	free(mc->nsteps);
	free(mc->entry_step);
	free(mc);
}

static int region_cmp(const void *pa, const void *pb)
{
	const struct mc_region *a = pa, *b = pb;

	if (a->tile != b->tile)
		return a->tile < b->tile ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->end < b->end ? -1 : a->end > b->end;
}

static int live_at(const struct mc_region *r, uint64_t s)
{
	return r->always || (r->first <= s && s <= r->last);
}

static int live_together(const struct mc_region *a, const struct mc_region *b)
{
	return a->always || b->always || !(a->last < b->first || b->last < a->first);
}

static void describe(char *buf, size_t size, const struct mc_region *r)
{
	if (r->always)
		snprintf(buf, size, "%u [%u, +%u) always live", r->rec, r->off, r->end - r->off);
	else
		snprintf(buf, size, "%u [%u, +%u) steps [%u, %u]", r->rec, r->off, r->end - r->off,
			 r->first, r->last);
}

/*
 * Two regions of a tile share a byte and are live together: IPUE_EMEMPLAN,
 * err filled. Each region meets those after it (by offset) that start
 * inside it: the cost grows with how deep regions are stacked on the same
 * bytes, not with their square.
 */
static int static_check(const struct ipue_memcheck *mc, struct ipue_load_error *err)
{
	for (uint32_t i = 0; i < mc->n; i++) {
		const struct mc_region *a = &mc->r[i];

		for (uint32_t j = i + 1; j < mc->n && mc->r[j].tile == a->tile && mc->r[j].off < a->end; j++) {
			const struct mc_region *b = &mc->r[j];
			char da[96], db[96];

			if (b->off == b->end || !live_together(a, b))
				continue;
			describe(da, sizeof(da), a);
			describe(db, sizeof(db), b);
			ipue_load_errorf(err, IPU_GRAPH_SEC_MEMORY_REGIONS, b->rec,
					 "tile %u: regions %s and %s share bytes and are live at step %u",
					 a->tile, da, db, a->always ? b->first : b->always ? a->first :
					 (a->first > b->first ? a->first : b->first));
			if (err)
				err->status = IPUE_EMEMPLAN;
			return IPUE_EMEMPLAN;
		}
	}
	return 0;
}

/* steps node counts (memplan.c's walk), memoised in nsteps (UINT64_MAX: not yet) */
static uint64_t node_steps(struct ipue_memcheck *mc, const struct ipue_graph *g, uint32_t id)
{
	const struct ipu_graph_prog_node *n;
	uint64_t s = 0;

	if (id >= g->nnodes)
		return 0;
	if (mc->nsteps[id] != UINT64_MAX)
		return mc->nsteps[id];
	n = &g->nodes[id];
	switch (n->kind) {
	case IPU_PROG_SEQUENCE:
		for (uint32_t k = 0; k < n->b; k++)
			s += node_steps(mc, g, g->children[n->a + k]);
		break;
	case IPU_PROG_EXECUTE:
	case IPU_PROG_COPY:
		s = 1;
		break;
	case IPU_PROG_REPEAT:
		s = node_steps(mc, g, n->b);
		break;
	case IPU_PROG_REPEAT_WHILE_TRUE:
	case IPU_PROG_IF:
		s = node_steps(mc, g, n->b) + node_steps(mc, g, n->c);
		break;
	default:
		break;
	}
	mc->nsteps[id] = s;
	return s;
}

static int build_tables(struct ipue_memcheck *mc, const struct ipue_graph *g, uint32_t tiles)
{
	uint64_t step = 1;

	mc->tfirst = calloc((size_t)tiles + 1, sizeof(*mc->tfirst));
	mc->pmax = malloc((mc->n ? mc->n : 1) * sizeof(*mc->pmax));
	mc->used = malloc((size_t)tiles * sizeof(*mc->used));
	mc->nsteps = malloc((g->nnodes ? g->nnodes : 1) * sizeof(*mc->nsteps));
	mc->entry_step = malloc((g->nentries ? g->nentries : 1) * sizeof(*mc->entry_step));
	if (!mc->tfirst || !mc->pmax || !mc->used || !mc->nsteps || !mc->entry_step)
		return IPUE_ENOMEM;
	qsort(mc->r, mc->n, sizeof(*mc->r), region_cmp);
	for (uint32_t i = 0; i < mc->n; i++) {
		mc->tfirst[mc->r[i].tile + 1]++;
		mc->pmax[i] = mc->r[i].end;
		if (i && mc->r[i - 1].tile == mc->r[i].tile && mc->pmax[i - 1] > mc->pmax[i])
			mc->pmax[i] = mc->pmax[i - 1];
	}
	for (uint32_t t = 0; t < tiles; t++) {
		mc->tfirst[t + 1] += mc->tfirst[t];
		if (g->tile_mem[t])
			mc->used[mc->nused++] = t;
	}
	for (uint32_t i = 0; i < g->nnodes; i++)
		mc->nsteps[i] = UINT64_MAX;
	for (uint32_t k = 0; k < g->nentries; k++) {
		mc->entry_step[k] = step;
		step += node_steps(mc, g, g->entries[k]);
	}
	return 0;
}

int ipue_memcheck_load(struct ipue_graph *g, uint32_t tiles, const struct ipu_graph_mem_region *r,
		       uint32_t n, struct ipue_load_error *err)
{
	struct ipue_memcheck *mc = calloc(1, sizeof(*mc));
	int rc;

	if (!mc)
		return IPUE_ENOMEM;
	mc->n = n;
	mc->r = malloc((n ? n : 1) * sizeof(*mc->r));
	if (!mc->r) {
		free(mc);
		return IPUE_ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		mc->r[i] = (struct mc_region){ r[i].tile, r[i].tile_offset, r[i].tile_offset + r[i].bytes,
					       r[i].first_step, r[i].last_step, i,
					       r[i].flags & IPU_GRAPH_REGION_ALWAYS_LIVE };
	rc = build_tables(mc, g, tiles);
	if (!rc)
		rc = static_check(mc, err);
	if (rc) {
		ipue_memcheck_free(mc);
		return rc;
	}
	g->mc = mc;
	g->host_bytes += (uint64_t)n * (sizeof(*mc->r) + sizeof(*mc->pmax)) +
			 (uint64_t)g->nnodes * sizeof(*mc->nsteps);
	return 0;
}

uint64_t ipue_memcheck_entry_step(const struct ipue_memcheck *mc, uint32_t program)
{
	return mc->entry_step[program];
}

uint64_t ipue_memcheck_steps(const struct ipue_memcheck *mc, uint32_t node)
{
	return node == IPU_GRAPH_NONE ? 0 : mc->nsteps[node];
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int violation(struct ipue_engine *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->memcheck_msg, sizeof(e->memcheck_msg), fmt, ap);
	va_end(ap);
	e->memcheck_failed = 1;
	return IPUE_EMEMACCESS;
}

/* the regions of tile t that share a byte with [b, e), listed into buf */
static void list_regions(const struct ipue_memcheck *mc, uint32_t t, uint32_t b, uint32_t e,
			 char *buf, size_t size)
{
	size_t len = 0;
	unsigned shown = 0;

	snprintf(buf, size, "none");
	for (uint32_t i = mc->tfirst[t]; i < mc->tfirst[t + 1] && mc->r[i].off < e && len < size; i++) {
		char d[96];

		if (mc->r[i].end <= b || mc->r[i].off == mc->r[i].end)
			continue;
		if (shown++ == 3) {
			snprintf(buf + len, size - len, ", ...");
			return;
		}
		describe(d, sizeof(d), &mc->r[i]);
		len += (size_t)snprintf(buf + len, size - len, "%s%s", shown > 1 ? ", " : "", d);
	}
}

/*
 * Bytes [b, end) of tile t lie in regions live at step s: 0, or 1 with
 * why filled. The live ones are disjoint (the load checked it), so walking
 * down from the highest offset meets them in order of their ends.
 */
static int check_tile(const struct ipue_memcheck *mc, uint32_t t, uint32_t b, uint32_t end,
		      uint64_t s, char *why, size_t size)
{
	uint32_t lo = mc->tfirst[t], hi = mc->tfirst[t + 1], cur = end;
	char found[160];

	while (lo < hi) {	/* the first region starting at or after end */
		uint32_t mid = lo + (hi - lo) / 2;

		if (mc->r[mid].off < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t i = lo; i-- > mc->tfirst[t] && cur > b && mc->pmax[i] > b;) {
		const struct mc_region *r = &mc->r[i];

		if (!live_at(r, s) || r->off == r->end || r->end <= b)
			continue;
		if (r->end < cur)
			break;	/* [r->end, cur) is in no live region */
		if (r->off < cur)
			cur = r->off;
	}
	if (cur <= b)
		return 0;
	list_regions(mc, t, b, end, found, sizeof(found));
	snprintf(why, size, "tile %u bytes [%u, %u): bytes below %u are in no region live at the "
		 "step; regions there: %s", t, b, end, cur, found);
	return 1;
}

/* host bytes [p, p + bytes) of tile memory (a coalesced copy may span tiles): 0 or 1, why filled */
static int check_ptr(const struct ipue_graph *g, const uint8_t *p, uint64_t bytes, uint64_t s,
		     char *why, size_t size)
{
	const struct ipue_memcheck *mc = g->mc;

	while (bytes) {
		uint32_t lo = 0, hi = mc->nused, t;
		uint64_t off, n;

		while (lo < hi) {	/* the first used tile whose memory starts after p */
			uint32_t mid = lo + (hi - lo) / 2;

			if (g->tile_mem[mc->used[mid]] <= p)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo)
			return 0;	/* unreachable: the loader put every access in a plan */
		t = mc->used[lo - 1];
		off = (uint64_t)(p - g->tile_mem[t]);
		if (off >= g->tile_bytes[t])
			return 0;	/* likewise */
		n = g->tile_bytes[t] - off < bytes ? g->tile_bytes[t] - off : bytes;
		if (check_tile(mc, t, (uint32_t)off, (uint32_t)(off + n), s, why, size))
			return 1;
		p += n;
		bytes -= n;
	}
	return 0;
}

int ipue_memcheck_cs(struct ipue_engine *e, const struct ipue_rt_cs *cs, uint64_t s)
{
	char why[320];

	for (uint32_t k = 0; k < cs->nv; k++) {
		const struct ipue_rt_vertex *v = &cs->v[k];

		for (uint32_t i = 0; i < v->nfields; i++)
			if (check_ptr(e->g, v->f[i].data,
				      (uint64_t)v->f[i].count * ipu_dtype_size(v->f[i].dtype), s, why, sizeof(why)))
				return violation(e, "step %llu: compute set '%s' vertex %u field %u: %s",
						 (unsigned long long)s, cs->name, k, i, why);
	}
	return 0;
}

int ipue_memcheck_exchange(struct ipue_engine *e, const struct ipue_rt_exchange *x, uint64_t s)
{
	char why[320];

	for (uint32_t k = 0; k < x->nc; k++) {
		int src = check_ptr(e->g, x->c[k].src, x->c[k].bytes, s, why, sizeof(why));

		if (src || check_ptr(e->g, x->c[k].dst, x->c[k].bytes, s, why, sizeof(why)))
			return violation(e, "step %llu: exchange '%s' copy %u %s: %s", (unsigned long long)s,
					 x->name, k, src ? "source" : "destination", why);
	}
	return 0;
}

int ipue_memcheck_stream(struct ipue_engine *e, const struct ipue_rt_tensor *t, uint64_t s)
{
	char why[320];

	for (uint32_t k = 0; k < t->niv; k++)
		if (check_ptr(e->g, t->iv[k].ptr, t->iv[k].bytes, s, why, sizeof(why)))
			return violation(e, "step %llu: stream copy of tensor '%s' interval %u: %s",
					 (unsigned long long)s, t->name, k, why);
	return 0;
}

const char *ipue_memcheck_message(const struct ipue_engine *e)
{
	return e && e->memcheck_failed ? e->memcheck_msg : NULL;
}
