/* SPDX-License-Identifier: MIT */
/*
 * Fused exchange + compute: a sequence's exchange followed by a compute set
 * runs tile by tile, copies into a tile then that tile's vertices, so the
 * vertices find their operands in the host's cache instead of main memory
 * (a large exchange's destinations outgrow every cache before the compute
 * phase would read them back).
 *
 * Same result as the two phases run one after the other, because
 *  - a vertex reads and writes only its own tile (the loader's bounds), and
 *    runs after every copy into that tile;
 *  - no vertex writes a byte the exchange reads (checked here: else the
 *    pair is not fused), so copies run later still read the old bytes;
 *  - vertices of one compute set do not conflict (the loader's check), so
 *    their order does not matter, and each computes exactly as before.
 * Modelled cycles and run statistics are those of the two phases.
 */
#include "engine_internal.h"

#include <stdlib.h>

/* smaller exchanges stay in cache between the phases: not worth a piece per tile */
#define FUSE_MIN_BYTES	(256u * 1024u)

/* used tiles' bases, ascending (the arena lays tiles out in tile order) */
struct tile_index {
	const uint8_t **base;
	uint32_t *tile, n;
};

static uint32_t tile_of(const struct tile_index *ti, const uint8_t *p)
{
	uint32_t lo = 0, hi = ti->n;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ti->base[mid] <= p)
			lo = mid;
		else
			hi = mid;
	}
	return ti->tile[lo];
}

/* does any vertex of cs write a byte of [b, e)? (cs->wr: by begin, ends prefix-maxed) */
static int written(const struct ipue_rt_cs *cs, const uint8_t *b, const uint8_t *e)
{
	uint32_t lo = 0, hi = cs->nwr;

	/* the last span beginning before e */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (cs->wr[mid].b < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && cs->wr[lo - 1].e > b;
}

static int fusable(const struct ipue_rt_exchange *x, const struct ipue_rt_cs *cs)
{
	if (x->bytes < FUSE_MIN_BYTES || !cs->nv || !x->nc)
		return 0;
	for (uint32_t i = 0; i < x->nc; i++)
		if (written(cs, x->c[i].src, x->c[i].src + x->c[i].bytes))
			return 0;
	return 1;
}

/* vertices by tile (graph order within a tile), then one piece per tile */
static int fuse_pieces(struct ipue_rt_fused *f, const struct tile_index *ti, uint32_t tiles)
{
	const struct ipue_rt_exchange *x = f->x;
	const struct ipue_rt_cs *cs = f->cs;
	uint32_t *first = calloc((size_t)tiles + 1, sizeof(*first)), ci = 0, vi = 0, np = 0;

	f->vorder = calloc(cs->nv, sizeof(*f->vorder));
	f->cb = calloc((size_t)x->nc + cs->nv + 1, sizeof(*f->cb));
	f->vb = calloc((size_t)x->nc + cs->nv + 1, sizeof(*f->vb));
	if (!first || !f->vorder || !f->cb || !f->vb) {
		free(first);
		return IPUE_ENOMEM;
	}
	for (uint32_t k = 0; k < cs->nv; k++)
		first[cs->vtile[k] + 1]++;
	for (uint32_t t = 0; t < tiles; t++)
		first[t + 1] += first[t];
	for (uint32_t k = 0; k < cs->nv; k++)
		f->vorder[first[cs->vtile[k]]++] = k;	/* first[t] ends as tile t's end */
	while (ci < x->nc || vi < cs->nv) {
		uint32_t tc = ci < x->nc ? tile_of(ti, x->c[ci].dst) : UINT32_MAX;
		uint32_t tv = vi < cs->nv ? cs->vtile[f->vorder[vi]] : UINT32_MAX;
		uint32_t t = tc < tv ? tc : tv;

		f->cb[np] = ci;
		f->vb[np++] = vi;
		while (ci < x->nc && tile_of(ti, x->c[ci].dst) == t)
			ci++;
		while (vi < cs->nv && cs->vtile[f->vorder[vi]] == t)
			vi++;
	}
	f->cb[np] = ci;
	f->vb[np] = vi;
	f->npieces = np;
	free(first);
	return 0;
}

static int tile_index_build(const struct ipue_graph *g, uint32_t tiles, struct tile_index *ti)
{
	ti->n = 0;
	ti->base = calloc((size_t)tiles + 1, sizeof(*ti->base));
	ti->tile = calloc((size_t)tiles + 1, sizeof(*ti->tile));
	if (!ti->base || !ti->tile)
		return IPUE_ENOMEM;
	for (uint32_t t = 0; t < tiles; t++)
		if (g->tile_mem[t]) {
			ti->base[ti->n] = g->tile_mem[t];
			ti->tile[ti->n++] = t;
		}
	return 0;
}

/* the fused pair (x, cs): an existing one, a new one, or 0 when not fusable */
static int fuse_pair(struct ipue_graph *g, const struct tile_index *ti, uint32_t tiles,
		     uint32_t xi, uint32_t ci, uint32_t *out)
{
	struct ipue_rt_fused *f;

	*out = 0;
	for (uint32_t i = 0; i < g->nfused; i++)
		if (g->fused[i].x == &g->ex[xi] && g->fused[i].cs == &g->cs[ci]) {
			*out = i + 1;
			return 0;
		}
	if (!fusable(&g->ex[xi], &g->cs[ci]))
		return 0;
	f = &g->fused[g->nfused++];
	f->x = &g->ex[xi];
	f->cs = &g->cs[ci];
	*out = g->nfused;
	g->host_bytes += (uint64_t)f->cs->nv * 4 + ((uint64_t)f->x->nc + f->cs->nv + 1) * 8;
	return fuse_pieces(f, ti, tiles);
}

/*
 * Find every (exchange, compute set) pair that follows each other in a
 * sequence and can run fused; fills g->fused and g->child_fused. Called by
 * the loader once programs, compute sets and exchanges are checked.
 * Returns 0 or IPUE_ENOMEM (then ipue_fuse_free() releases what was built).
 */
int ipue_fuse_build(struct ipue_graph *g, uint32_t tiles)
{
	struct tile_index ti = { NULL, NULL, 0 };
	int rc;

	g->fused = calloc((size_t)g->nchildren + 1, sizeof(*g->fused));
	g->child_fused = calloc((size_t)g->nchildren + 1, sizeof(*g->child_fused));
	g->host_bytes += ((uint64_t)g->nchildren + 1) * (sizeof(*g->fused) + sizeof(*g->child_fused));
	rc = g->fused && g->child_fused ? tile_index_build(g, tiles, &ti) : IPUE_ENOMEM;
	for (uint32_t i = 0; i < g->nnodes && !rc; i++) {
		const struct ipu_graph_prog_node *n = &g->nodes[i];

		if (n->kind != IPU_PROG_SEQUENCE)
			continue;
		for (uint32_t k = 0; k + 1 < n->b && !rc; k++) {
			const struct ipu_graph_prog_node *a = &g->nodes[g->children[n->a + k]];
			const struct ipu_graph_prog_node *b = &g->nodes[g->children[n->a + k + 1]];

			/* a cross-IPU exchange waits for the group: never fused */
			if (a->kind == IPU_PROG_COPY && b->kind == IPU_PROG_EXECUTE && !g->ex[a->a].cross)
				rc = fuse_pair(g, &ti, tiles, a->a, b->a, &g->child_fused[n->a + k]);
		}
	}
	free(ti.base);
	free(ti.tile);
	return rc;
}

void ipue_fuse_free(struct ipue_graph *g)
{
	for (uint32_t i = 0; g->fused && i < g->nfused; i++) {
		free(g->fused[i].vorder);
		free(g->fused[i].cb);
		free(g->fused[i].vb);
	}
	free(g->fused);
	free(g->child_fused);
}

static void fused_piece(const struct ipue_rt_fused *f, uint32_t p)
{
	ipue_copy_range(f->x->c, f->cb[p], f->cb[p + 1]);
	for (uint32_t k = f->vb[p]; k < f->vb[p + 1]; k++)
		ipue_run_vertices(f->cs->v, f->vorder[k], f->vorder[k] + 1);
}

static void fused_job(void *arg, unsigned idx, unsigned n)
{
	struct ipue_claim *cl = arg;
	const struct ipue_rt_fused *f = cl->obj;
	unsigned p;

	(void)idx;
	(void)n;
	while ((p = ipue_claim_next(cl)) < f->npieces)
		fused_piece(f, p);
}

/* Run the exchange and then the compute set of f, tile by tile. */
void ipue_fused_run(struct ipue_engine *e, const struct ipue_rt_fused *f)
{
	if (e->pool && (f->x->nsplit || f->cs->nsplit)) {
		struct ipue_claim cl = { f, 0 };

		ipue_pool_run(e->pool, fused_job, &cl);
	} else {
		for (uint32_t p = 0; p < f->npieces; p++)
			fused_piece(f, p);
	}
}
