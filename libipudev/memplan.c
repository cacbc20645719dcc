// SPDX-License-Identifier: MIT
/*
 * Memory planning: tile memory of temporaries is reused across compute sets
 * by liveness (docs/builder.md, "Memory").
 *
 * While a graph is built, ipu__tile_alloc() hands out build-time offsets
 * from a bump allocator per tile and records each allocation. Here the
 * programs are linearised into steps (a compute set's execution, an
 * exchange; loop bodies and branches included), each allocation gets the
 * steps that touch its bytes, and the tile is re-packed: the always-live
 * allocations first, the others by interval colouring, so that two whose
 * live intervals meet never share a byte. Allocations one vertex field,
 * copy or tensor interval spans move together (a group). Keyed on memory,
 * not on tensors, so tensors that alias others' memory need nothing special.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"

#define MP_MAX_LOOPS 256	/* nesting of loops the analysis follows */
#define MP_MAX_DEPTH 10000	/* program depth (as builder.c's reaches()) */

struct mp {
	const struct ipu_graph *g;
	struct ipu__alloc *r;	/* the allocations by (tile, off) */
	size_t n;
	size_t *tfirst;		/* [tiles + 1]: tile t's allocations are [tfirst[t], tfirst[t + 1]) */
	uint32_t *parent;	/* union-find over allocations */
	uint64_t *gsize;	/* root: bytes of the group's allocations */
	int64_t *first, *last;	/* root: steps that touch the group, -1 = none */
	int32_t *entry;		/* root: the entry program that touched it, -1 = none */
	uint8_t *pinned;	/* root: always live */
	int64_t *stamp;		/* root: the step whose accesses *sread / *swrote gather */
	uint8_t *sread;
	uint64_t *swrote;
	uint32_t *touched;	/* roots touched by the current step */
	size_t ntouched;
	int64_t step;		/* steps are numbered from 1 */
	int64_t loop[MP_MAX_LOOPS]; /* the first step of each enclosing loop (and of the entry) */
	int nloop;
	int32_t cur_entry;
	int bad;		/* a record pointed outside every allocation */
};

static uint32_t find(struct mp *m, uint32_t i)
{
	while (m->parent[i] != i) {
		m->parent[i] = m->parent[m->parent[i]];
		i = m->parent[i];
	}
	return i;
}

static void unite(struct mp *m, uint32_t a, uint32_t b)
{
	a = find(m, a);
	b = find(m, b);
	if (a != b)
		m->parent[a < b ? b : a] = a < b ? a : b;	/* the lowest offset stays root */
}

static int alloc_cmp(const void *pa, const void *pb)
{
	const struct ipu__alloc *a = pa, *b = pb;

	if (a->tile != b->tile)
		return a->tile < b->tile ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

/* the first allocation of tile with end > off (may start after off) */
static size_t first_ending_after(const struct mp *m, unsigned tile, uint32_t off)
{
	size_t lo = m->tfirst[tile], hi = m->tfirst[tile + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->r[mid].off + m->r[mid].bytes <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* the allocations overlapping bytes [b, e) of tile: [*i0, *i1) */
static void range_allocs(const struct mp *m, unsigned tile, uint32_t b, uint32_t e, size_t *i0, size_t *i1)
{
	size_t i = first_ending_after(m, tile, b), j = i;

	while (j < m->tfirst[tile + 1] && m->r[j].off < e)
		j++;
	*i0 = i;
	*i1 = j;
}

/* join the allocations bytes [b, e) of tile overlap (one record moves as one) */
static void unite_range(struct mp *m, unsigned tile, uint32_t b, uint32_t e)
{
	size_t i0, i1;

	if (b >= e || tile >= m->g->tiles)
		return;
	range_allocs(m, tile, b, e, &i0, &i1);
	if (i0 == i1)
		m->bad = 1;
	for (size_t i = i0 + 1; i < i1; i++)
		unite(m, (uint32_t)i0, (uint32_t)i);
}

static void pin_range(struct mp *m, unsigned tile, uint32_t b, uint32_t e)
{
	size_t i0, i1;

	if (b >= e || tile >= m->g->tiles)
		return;
	range_allocs(m, tile, b, e, &i0, &i1);
	for (size_t i = i0; i < i1; i++)
		m->pinned[find(m, (uint32_t)i)] = 1;
}

static void pin_tensor(struct mp *m, uint32_t tensor)
{
	const struct ipu__tensor *t;

	if (tensor >= m->g->nt)
		return;
	t = &m->g->t[tensor];
	for (size_t k = 0; k < t->niv; k++)
		pin_range(m, t->iv[k].tile, t->iv[k].off,
			  t->iv[k].off + (uint32_t)(t->iv[k].count * ipu_dtype_size(t->dtype)));
}

/* field f of vertex v: its tile and bytes [*b, *e) */
static void field_range(const struct ipu_graph *g, uint32_t f, uint32_t *b, uint32_t *e)
{
	*b = g->f[f].tile_offset;
	*e = *b + g->f[f].count * ipu_dtype_size(g->f[f].dtype);
}

/* the groups: every vertex field, copy end and tensor interval keeps its allocations together */
static void unite_records(struct mp *m)
{
	const struct ipu_graph *g = m->g;
	uint32_t b, e;

	for (size_t v = 0; v < g->nv; v++)
		for (uint32_t i = 0; i < g->v[v].nfields; i++) {
			field_range(g, g->v[v].first_field + i, &b, &e);
			unite_range(m, g->v[v].tile, b, e);
		}
	for (size_t x = 0; x < g->nex; x++)
		for (size_t i = 0; i < g->ex[x].n; i++) {
			const struct ipu_graph_copy *c = &g->ex[x].c[i];

			unite_range(m, c->src_tile, c->src_offset, c->src_offset + c->bytes);
			unite_range(m, c->dst_tile, c->dst_offset, c->dst_offset + c->bytes);
		}
	for (size_t t = 0; t < g->nt; t++) {
		const struct ipu__tensor *tt = &g->t[t];

		for (size_t k = 0; k < tt->niv; k++)
			unite_range(m, tt->iv[k].tile, tt->iv[k].off,
				    tt->iv[k].off + (uint32_t)(tt->iv[k].count * ipu_dtype_size(tt->dtype)));
	}
}

/* a step reads and/or writes bytes [b, e) of tile */
static void touch(struct mp *m, unsigned tile, uint32_t b, uint32_t e, int rd, int wr)
{
	size_t i0, i1;

	if (b >= e || tile >= m->g->tiles)
		return;
	range_allocs(m, tile, b, e, &i0, &i1);
	for (size_t i = i0; i < i1; i++) {
		uint32_t root = find(m, (uint32_t)i);
		uint32_t lo = b > m->r[i].off ? b : m->r[i].off;
		uint32_t hi = e < m->r[i].off + m->r[i].bytes ? e : m->r[i].off + m->r[i].bytes;

		if (m->stamp[root] != m->step) {
			m->stamp[root] = m->step;
			m->sread[root] = 0;
			m->swrote[root] = 0;
			m->touched[m->ntouched++] = root;
		}
		m->sread[root] |= (uint8_t)rd;
		if (wr)
			m->swrote[root] += hi - lo;
	}
}

/*
 * The step's accesses: a group first touched inside a loop (or the entry
 * program, which may run again) by anything but a write of all its bytes
 * carries state across iterations, and so does one two entries touch.
 */
static void step_end(struct mp *m)
{
	for (size_t k = 0; k < m->ntouched; k++) {
		uint32_t root = m->touched[k];
		int full = !m->sread[root] && m->swrote[root] >= m->gsize[root];

		for (int l = 0; l < m->nloop && !full; l++)
			if (m->last[root] < m->loop[l])
				m->pinned[root] = 1;
		if (m->entry[root] >= 0 && m->entry[root] != m->cur_entry)
			m->pinned[root] = 1;
		m->entry[root] = m->cur_entry;
		if (m->first[root] < 0)
			m->first[root] = m->step;
		m->last[root] = m->step;
	}
	m->ntouched = 0;
	m->step++;
}

static void step_execute(struct mp *m, uint32_t cs)
{
	const struct ipu_graph *g = m->g;
	uint32_t b, e;

	if (cs >= g->ncs)
		return;
	for (size_t k = 0; k < g->cs[cs].n; k++) {
		const struct ipu_graph_vertex *v = &g->v[g->cs[cs].v[k]];
		const struct ipue_codelet *c = ipue_codelet_find(v->codelet);

		for (uint32_t i = 0; i < v->nfields; i++) {
			unsigned dir = c ? c->field[i].dir : IPUE_FIELD_INOUT;

			field_range(g, v->first_field + i, &b, &e);
			touch(m, v->tile, b, e, dir != IPUE_FIELD_OUT, dir != IPUE_FIELD_IN);
		}
	}
	step_end(m);
}

static void step_exchange(struct mp *m, uint32_t ex)
{
	if (ex >= m->g->nex)
		return;
	for (size_t i = 0; i < m->g->ex[ex].n; i++) {
		const struct ipu_graph_copy *c = &m->g->ex[ex].c[i];

		touch(m, c->src_tile, c->src_offset, c->src_offset + c->bytes, 1, 0);
		touch(m, c->dst_tile, c->dst_offset, c->dst_offset + c->bytes, 0, 1);
	}
	step_end(m);
}

static void walk(struct mp *m, uint32_t node, unsigned depth);

static void walk_loop(struct mp *m, uint32_t cond_prog, uint32_t body, unsigned depth)
{
	if (m->nloop >= MP_MAX_LOOPS) {
		m->bad = 1;
		return;
	}
	m->loop[m->nloop++] = m->step;
	if (cond_prog != IPU_GRAPH_NONE)
		walk(m, cond_prog, depth + 1);
	walk(m, body, depth + 1);
	m->nloop--;
}

/* the steps of program node, in the order they run (loop bodies once) */
static void walk(struct mp *m, uint32_t node, unsigned depth)
{
	const struct ipu__node *n;

	if (node >= m->g->nn || depth > MP_MAX_DEPTH)
		return;
	n = &m->g->nodes[node];
	switch (n->n.kind) {
	case IPU_PROG_SEQUENCE:
		for (size_t i = 0; i < n->nch; i++)
			walk(m, n->ch[i], depth + 1);
		break;
	case IPU_PROG_EXECUTE:
		step_execute(m, n->n.a);
		break;
	case IPU_PROG_COPY:
		step_exchange(m, n->n.a);
		break;
	case IPU_PROG_REPEAT:
		walk_loop(m, IPU_GRAPH_NONE, n->n.b, depth);
		break;
	case IPU_PROG_REPEAT_WHILE_TRUE:
		pin_tensor(m, n->n.a);
		walk_loop(m, n->n.c, n->n.b, depth);
		break;
	case IPU_PROG_IF:
		pin_tensor(m, n->n.a);
		walk(m, n->n.b, depth + 1);
		walk(m, n->n.c, depth + 1);
		break;
	case IPU_PROG_STREAM_COPY:
		pin_tensor(m, n->n.b);
		break;
	case IPU_PROG_ABORT_ON_CONDITION:
		pin_tensor(m, n->n.a);
		break;
	default:
		break;
	}
}

static void mp_free(struct mp *m)
{
	free(m->r);
	free(m->tfirst);
	free(m->parent);
	free(m->gsize);
	free(m->first);
	free(m->last);
	free(m->entry);
	free(m->pinned);
	free(m->stamp);
	free(m->sread);
	free(m->swrote);
	free(m->touched);
}

static int mp_alloc(struct mp *m, const struct ipu_graph *g)
{
	size_t n = g->nal ? g->nal : 1;

	memset(m, 0, sizeof(*m));
	m->g = g;
	m->n = g->nal;
	m->r = malloc(n * sizeof(*m->r));
	m->tfirst = calloc((size_t)g->tiles + 1, sizeof(*m->tfirst));
	m->parent = malloc(n * sizeof(*m->parent));
	m->gsize = calloc(n, sizeof(*m->gsize));
	m->first = malloc(n * sizeof(*m->first));
	m->last = malloc(n * sizeof(*m->last));
	m->entry = malloc(n * sizeof(*m->entry));
	m->pinned = calloc(n, 1);
	m->stamp = malloc(n * sizeof(*m->stamp));
	m->sread = calloc(n, 1);
	m->swrote = calloc(n, sizeof(*m->swrote));
	m->touched = malloc(n * sizeof(*m->touched));
	if (!m->r || !m->tfirst || !m->parent || !m->gsize || !m->first || !m->last || !m->entry ||
	    !m->pinned || !m->stamp || !m->sread || !m->swrote || !m->touched) {
		mp_free(m);
		return -ENOMEM;
	}
	if (g->nal)
		memcpy(m->r, g->al, g->nal * sizeof(*m->r));
	qsort(m->r, m->n, sizeof(*m->r), alloc_cmp);
	for (size_t i = 0; i < m->n; i++) {
		m->parent[i] = (uint32_t)i;
		m->first[i] = m->last[i] = m->stamp[i] = -1;
		m->entry[i] = -1;
		m->tfirst[m->r[i].tile + 1]++;
	}
	for (uint32_t t = 0; t < g->tiles; t++)
		m->tfirst[t + 1] += m->tfirst[t];
	m->step = 1;
	return 0;
}

/* the steps of an entry program @e at @node (it may run again: a loop) */
static void walk_entry(struct mp *m, int32_t e, uint32_t node)
{
	m->cur_entry = e;
	m->nloop = 1;
	m->loop[0] = m->step;
	walk(m, node, 0);
	m->nloop = 0;
}

static void mark_ref(uint8_t *ref, size_t nn, uint32_t node)
{
	if (node < nn)
		ref[node] = 1;
}

/*
 * Programs no entry or other program holds yet (a sequence an op is
 * appending to while the graph is built), after the entries as entries of
 * their own: what ops planned so far sees their steps. 0 or -ENOMEM.
 */
static int walk_unattached(struct mp *m)
{
	const struct ipu_graph *g = m->g;
	uint8_t *ref = calloc(g->nn ? g->nn : 1, 1);

	if (!ref)
		return -ENOMEM;
	for (size_t i = 0; i < g->nn; i++) {
		const struct ipu__node *n = &g->nodes[i];

		for (size_t k = 0; n->n.kind == IPU_PROG_SEQUENCE && k < n->nch; k++)
			mark_ref(ref, g->nn, n->ch[k]);
		if (n->n.kind == IPU_PROG_REPEAT || n->n.kind == IPU_PROG_REPEAT_WHILE_TRUE ||
		    n->n.kind == IPU_PROG_IF)
			mark_ref(ref, g->nn, n->n.b);
		if (n->n.kind == IPU_PROG_REPEAT_WHILE_TRUE || n->n.kind == IPU_PROG_IF)
			mark_ref(ref, g->nn, n->n.c);
	}
	for (size_t e = 0; e < g->ne; e++)
		mark_ref(ref, g->nn, g->ent[e].node);
	for (size_t i = 0; i < g->nn; i++)
		if (!ref[i])
			walk_entry(m, (int32_t)(g->ne + i), (uint32_t)i);
	free(ref);
	return 0;
}

/* groups, then every allocation's live interval and whether it is always live */
static int mp_analyse(struct mp *m, const struct ipu_graph *g)
{
	int r = mp_alloc(m, g);

	if (r)
		return r;
	unite_records(m);
	for (size_t i = 0; i < m->n; i++)
		m->gsize[find(m, (uint32_t)i)] += m->r[i].bytes;
	for (size_t t = 0; t < g->nt; t++)
		if (g->t[t].init || g->t[t].exposed_write)
			pin_tensor(m, (uint32_t)t);
	for (size_t h = 0; h < g->nh; h++)
		pin_tensor(m, g->h[h].tensor);
	for (size_t e = 0; e < g->ne; e++)
		walk_entry(m, (int32_t)e, g->ent[e].node);
	r = walk_unattached(m);
	if (r) {
		mp_free(m);
		return r;
	}
	/* not touched yet: live from now on (its program is still to come) */
	for (size_t i = 0; i < m->n; i++)
		if (m->parent[i] == i && m->first[i] < 0)
			m->first[i] = m->last[i] = m->step;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* packing                                                                  */

struct grp {
	uint32_t root, base, end;	/* build-time extent [base, end) */
	uint32_t align;
	uint8_t pinned;
	int64_t first, last;
	uint32_t off;			/* planned offset of base */
};

static int grp_cmp_size(const void *pa, const void *pb)
{
	const struct grp *a = pa, *b = pb;
	uint32_t sa = a->end - a->base, sb = b->end - b->base;

	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return a->base < b->base ? -1 : a->base > b->base;
}

static uint32_t align_up(uint64_t v, uint32_t a)
{
	return (uint32_t)((v + a - 1) & ~(uint64_t)(a - 1));
}

/*
 * The lowest offset >= lo, aligned, where x fits beside the placed groups
 * live with it (IPU__MEMPLAN_FAULT_OVERLAP: lo, beside none).
 */
static uint32_t first_fit(const struct grp *placed, size_t np, const struct grp *x, uint32_t lo,
			  unsigned fault)
{
	uint32_t off = align_up(lo, x->align), size = x->end - x->base;
	int moved = !(fault & IPU__MEMPLAN_FAULT_OVERLAP);

	while (moved) {
		moved = 0;
		for (size_t i = 0; i < np; i++) {
			const struct grp *p = &placed[i];
			uint32_t pe = p->off + (p->end - p->base);

			if (p->last < x->first || x->last < p->first)
				continue;
			if (off < pe && p->off < off + size) {
				off = align_up(pe, x->align);
				moved = 1;
			}
		}
	}
	return off;
}

/*
 * Place a tile's groups gs[0..n) (reordered): the always-live ones first
 * in build-time order, then the others largest first, each at the lowest
 * offset free over its interval. The tile's bytes; *live: the always-live part.
 */
static uint64_t pack_tile(struct grp *gs, size_t n, uint32_t *live, unsigned fault)
{
	uint64_t top = 0;
	size_t nt = 0;

	for (size_t i = 0; i < n; i++) {
		if (!gs[i].pinned)
			continue;
		gs[i].off = align_up(top, gs[i].align);
		top = (uint64_t)gs[i].off + (gs[i].end - gs[i].base);
	}
	*live = (uint32_t)top;
	for (size_t i = 0; i < n; i++)
		if (!gs[i].pinned) {
			struct grp t = gs[nt];

			gs[nt++] = gs[i];
			gs[i] = t;
		}
	qsort(gs, nt, sizeof(*gs), grp_cmp_size);
	for (size_t i = 0; i < nt; i++) {
		uint64_t e;

		gs[i].off = first_fit(gs, i, &gs[i], *live, fault);
		e = (uint64_t)gs[i].off + (gs[i].end - gs[i].base);
		if (e > top)
			top = e;
	}
	return top;
}

/* the groups of tile t into gs (their roots' build-time extents); their count */
static size_t tile_groups(struct mp *m, unsigned t, int reuse, struct grp *gs, uint32_t *gidx)
{
	size_t n = 0;

	for (size_t i = m->tfirst[t]; i < m->tfirst[t + 1]; i++) {
		uint32_t root = find(m, (uint32_t)i), end = m->r[i].off + m->r[i].bytes;

		if (root == i) {
			uint32_t b = m->r[i].off, a = b ? b & -b : 64;

			gidx[i] = (uint32_t)n;
			gs[n++] = (struct grp){ root, b, end, a > 64 ? 64 : a, (uint8_t)(m->pinned[i] || !reuse),
						m->first[i], m->last[i], b };
		} else if (end > gs[gidx[root]].end) {
			gs[gidx[root]].end = end;
		}
	}
	return n;
}

void ipu__memplan_free(struct ipu__memplan *p)
{
	if (!p)
		return;
	free(p->r);
	free(p->tfirst);
	free(p->gbase);
	free(p->goff);
	free(p->glive);
	free(p->tensor);
	free(p->gfirst);
	free(p->glast);
	free(p->top);
	free(p->live);
	free(p->temp);
	memset(p, 0, sizeof(*p));
}

static int plan_alloc(struct ipu__memplan *p, const struct ipu_graph *g, size_t n)
{
	memset(p, 0, sizeof(*p));
	p->tiles = g->tiles;
	p->gbase = malloc((n ? n : 1) * sizeof(*p->gbase));
	p->goff = malloc((n ? n : 1) * sizeof(*p->goff));
	p->glive = calloc(n ? n : 1, 1);
	p->tensor = calloc(n ? n : 1, 1);
	p->gfirst = calloc(n ? n : 1, sizeof(*p->gfirst));
	p->glast = calloc(n ? n : 1, sizeof(*p->glast));
	p->top = calloc(g->tiles, sizeof(*p->top));
	p->live = calloc(g->tiles, sizeof(*p->live));
	p->temp = calloc(g->tiles, sizeof(*p->temp));
	if (!p->gbase || !p->goff || !p->glive || !p->tensor || !p->gfirst || !p->glast || !p->top ||
	    !p->live || !p->temp) {
		ipu__memplan_free(p);
		return -ENOMEM;
	}
	return 0;
}

/* which allocations hold a tensor's elements (the rest are ops' internal buffers) */
static void mark_tensor_data(struct mp *m, uint8_t *tensor)
{
	for (size_t t = 0; t < m->g->nt; t++) {
		const struct ipu__tensor *tt = &m->g->t[t];

		for (size_t k = 0; k < tt->niv; k++) {
			size_t i0, i1;
			uint32_t b = tt->iv[k].off;

			range_allocs(m, tt->iv[k].tile, b,
				     b + (uint32_t)(tt->iv[k].count * ipu_dtype_size(tt->dtype)), &i0, &i1);
			for (size_t i = i0; i < i1; i++)
				tensor[i] = 1;
		}
	}
}

/* pack every tile of m into p */
static int plan_pack(struct mp *m, struct ipu__memplan *p)
{
	const struct ipu_graph *g = m->g;
	struct grp *gs = malloc((m->n ? m->n : 1) * sizeof(*gs));
	uint32_t *gidx = malloc((m->n ? m->n : 1) * sizeof(*gidx));

	if (!gs || !gidx) {
		free(gs);
		free(gidx);
		return -ENOMEM;
	}
	for (uint32_t t = 0; t < g->tiles; t++) {
		size_t n = tile_groups(m, t, g->reuse, gs, gidx);
		uint64_t top = g->reuse ? pack_tile(gs, n, &p->live[t], g->memplan_fault) : g->top[t];

		p->top[t] = top > UINT32_MAX ? UINT32_MAX : (uint32_t)top;
		if (!g->reuse)
			p->live[t] = p->top[t];
		for (size_t k = 0; k < n; k++)
			gidx[gs[k].root] = (uint32_t)k;	/* after pack_tile's reordering */
		for (size_t i = m->tfirst[t]; i < m->tfirst[t + 1]; i++) {
			const struct grp *x = &gs[gidx[find(m, (uint32_t)i)]];

			p->gbase[i] = x->base;
			p->goff[i] = x->off;
			p->glive[i] = x->pinned;
			if (!x->pinned)
				p->temp[t] += m->r[i].bytes;
			p->gfirst[i] = x->first;
			p->glast[i] = x->last;
		}
	}
	free(gs);
	free(gidx);
	return 0;
}

int ipu__memplan_make(const struct ipu_graph *g, struct ipu__memplan *p)
{
	struct mp m;
	int r = mp_analyse(&m, g);

	if (r)
		return r;
	r = plan_alloc(p, g, m.n);
	if (!r)
		r = plan_pack(&m, p);
	if (!r) {
		mark_tensor_data(&m, p->tensor);
		p->bad = m.bad;
		p->fault = g->memplan_fault;
		p->n = m.n;
		p->r = m.r;
		p->tfirst = m.tfirst;
		m.r = NULL;
		m.tfirst = NULL;
	}
	mp_free(&m);
	if (r)
		ipu__memplan_free(p);
	return r;
}

int ipu__mem_in_use(const struct ipu_graph *g, uint32_t *used)
{
	struct mp m;
	int r = mp_analyse(&m, g);

	if (r)
		return r;
	memset(used, 0, g->tiles * sizeof(*used));
	for (size_t i = 0; i < m.n; i++) {
		uint32_t root = find(&m, (uint32_t)i);

		if (!g->reuse || m.pinned[root] || m.first[root] == m.step)
			used[m.r[i].tile] += m.r[i].bytes;
	}
	mp_free(&m);
	return 0;
}

uint32_t ipu__memplan_reloc(const struct ipu__memplan *p, unsigned tile, uint32_t off, uint32_t end)
{
	size_t lo, hi;

	if (tile >= p->tiles)
		return off;
	lo = p->tfirst[tile];
	hi = p->tfirst[tile + 1];
	/* the last allocation starting at or before off (or before end, for an empty range at an end) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->r[mid].off <= off && (off < end || p->r[mid].off < off))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == p->tfirst[tile])
		return off < p->top[tile] ? off : p->top[tile];
	return p->goff[lo - 1] + (off - p->gbase[lo - 1]);
}

/* the build-time bytes [b, b + bytes) of tile, planned */
static uint32_t reloc(const struct ipu__memplan *p, unsigned tile, uint32_t b, uint64_t bytes)
{
	return ipu__memplan_reloc(p, tile, b, (uint32_t)(b + bytes));
}

static int view_tensors(const struct ipu_graph *g, const struct ipu__memplan *p, struct ipu_graph *v)
{
	v->t = calloc(g->nt ? g->nt : 1, sizeof(*v->t));
	if (!v->t)
		return -ENOMEM;
	for (size_t i = 0; i < g->nt; i++) {
		const struct ipu__tensor *t = &g->t[i];

		v->t[i] = *t;
		v->t[i].iv = malloc((t->niv ? t->niv : 1) * sizeof(*t->iv));
		if (!v->t[i].iv)
			return -ENOMEM;
		for (size_t k = 0; k < t->niv; k++) {
			v->t[i].iv[k] = t->iv[k];
			v->t[i].iv[k].off = reloc(p, t->iv[k].tile, t->iv[k].off,
						  t->iv[k].count * ipu_dtype_size(t->dtype));
		}
	}
	return 0;
}

static int view_records(const struct ipu_graph *g, const struct ipu__memplan *p, struct ipu_graph *v)
{
	v->f = malloc((g->nf ? g->nf : 1) * sizeof(*v->f));
	v->ex = calloc(g->nex ? g->nex : 1, sizeof(*v->ex));
	if (!v->f || !v->ex)
		return -ENOMEM;
	if (g->nf)
		memcpy(v->f, g->f, g->nf * sizeof(*v->f));
	for (size_t k = 0; k < g->nv; k++)
		for (uint32_t i = 0; i < g->v[k].nfields; i++) {
			struct ipu_graph_field *f = &v->f[g->v[k].first_field + i];

			f->tile_offset = reloc(p, g->v[k].tile, f->tile_offset,
					       (uint64_t)f->count * ipu_dtype_size(f->dtype));
		}
	for (size_t x = 0; x < g->nex; x++) {
		v->ex[x] = g->ex[x];
		v->ex[x].c = malloc((g->ex[x].n ? g->ex[x].n : 1) * sizeof(*v->ex[x].c));
		if (!v->ex[x].c)
			return -ENOMEM;
		for (size_t i = 0; i < g->ex[x].n; i++) {
			struct ipu_graph_copy c = g->ex[x].c[i];

			c.src_offset = reloc(p, c.src_tile, c.src_offset, c.bytes);
			c.dst_offset = reloc(p, c.dst_tile, c.dst_offset, c.bytes);
			v->ex[x].c[i] = c;
		}
	}
	return 0;
}

int ipu__memplan_view(const struct ipu_graph *g, const struct ipu__memplan *p, struct ipu_graph *v)
{
	*v = *g;
	v->t = NULL;
	v->f = NULL;
	v->ex = NULL;
	v->top = p->top;
	if (view_tensors(g, p, v) || view_records(g, p, v)) {
		ipu__memplan_view_free(v);
		return -ENOMEM;
	}
	return 0;
}

void ipu__memplan_view_free(struct ipu_graph *v)
{
	if (v->t)
		for (size_t i = 0; i < v->nt; i++)
			free(v->t[i].iv);
	if (v->ex)
		for (size_t x = 0; x < v->nex; x++)
			free(v->ex[x].c);
	free(v->t);
	free(v->f);
	free(v->ex);
	v->t = NULL;
	v->f = NULL;
	v->ex = NULL;
}

void ipu__memplan_region(const struct ipu__memplan *p, size_t i, struct ipu_graph_mem_region *out)
{
	memset(out, 0, sizeof(*out));
	out->tile = p->r[i].tile;
	out->tile_offset = p->goff[i] + (p->r[i].off - p->gbase[i]);
	out->bytes = p->r[i].bytes;
	out->flags = (p->glive[i] ? IPU_GRAPH_REGION_ALWAYS_LIVE : 0) |
		     (p->tensor[i] ? IPU_GRAPH_REGION_TENSOR : 0);
	out->first_step = p->gfirst[i] > UINT32_MAX ? UINT32_MAX : (uint32_t)p->gfirst[i];
	out->last_step = p->glast[i] > UINT32_MAX ? UINT32_MAX : (uint32_t)p->glast[i];
	if ((p->fault & IPU__MEMPLAN_FAULT_SHORTEN) && !p->glive[i])
		out->last_step = out->first_step;
}

void ipu__memplan_set_fault(struct ipu_graph *g, unsigned fault)
{
	g->memplan_fault = fault;
}
