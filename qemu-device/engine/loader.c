/* SPDX-License-Identifier: MIT */
/*
 * Graph binary loader: validates everything once and builds the run-time
 * tables (bound vertex fields, coalesced copy lists, resolved tensor
 * intervals). After a successful load no run-time path needs a bounds check.
 *
 * Every allocation is bounded by the input length (record counts times a
 * small constant) or by the target model (tile arena, per-tile tables).
 * Rules and limits: docs/graph-format.md.
 */
#include "engine_internal.h"
#include "graph_container.h"
#include "graph_packed.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipu/ipu_models.h"

/* host work (in modeled cycles) below which a phase stays on one thread */
#define POOL_MIN_CYCLES		20000u
#define POOL_VERTEX_WEIGHT	50u	/* host dispatch cost of a vertex */
#define POOL_MIN_COPY_BYTES	(256u * 1024u)
#define MAX_VERTEX_CYCLES	(1ull << 40)

struct loader {
	struct ipue_engine *e;
	struct ipue_graph *g;
	struct ipue_load_error *err;
	const uint8_t *bin;
	size_t len;
	struct ipue_container c;	/* header and sections (graph_container.c) */
	uint8_t *unpacked[IPU_GRAPH_SEC_COUNT_]; /* records rebuilt from packed tables */
	const struct ipue_section *s;	/* c.s, by section type */
	uint64_t *vcycles;		/* modeled cycles per vertex */
	uint32_t *foff;			/* [vertex * IPUE_MAX_FIELDS + k] field's tile offset
					 * (its data is NULL on another member's tile) */
	uint8_t *stand_in;		/* zeroed tile memory for another member's vertices'
					 * check() and cycles(): same verdict on every member */
};

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail(struct loader *L, uint32_t sec, uint32_t rec, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ipue_load_verrorf(L->err, sec, rec, fmt, ap);
	va_end(ap);
	return IPUE_EFORMAT;
}

/* calloc accounted in host_bytes; NULL on overflow or exhaustion */
static void *gcalloc(struct ipue_graph *g, uint64_t n, size_t size)
{
	void *p;

	if (n == 0)
		n = 1;
	if (n > SIZE_MAX / size)
		return NULL;
	p = calloc((size_t)n, size);
	if (p)
		g->host_bytes += n * size;
	return p;
}

/* copy record i of section type into out (a version-1 sized struct) */
static void rec(const struct loader *L, unsigned type, uint32_t i, void *out)
{
	ipue_container_rec(&L->c, type, i, out);
}

static uint32_t rec_u32(const struct loader *L, unsigned type, uint32_t i)
{
	uint32_t v;

	rec(L, type, i, &v);
	return v;
}

/* resolve a string reference; NULL if invalid */
static const char *str(const struct loader *L, uint32_t ref)
{
	const struct ipue_graph *g = L->g;

	if (ref == IPU_GRAPH_NONE)
		return "";
	if (ref >= g->strings_len || !memchr(g->strings + ref, 0, g->strings_len - ref))
		return NULL;
	return g->strings + ref;
}

/* an index range [first, first + n) inside a section of total records */
static int range_ok(uint64_t first, uint64_t n, uint64_t total)
{
	return first <= total && n <= total - first;
}

/* ---------------------------------------------------------------- header */

/*
 * the container (graph_container.c), then what only the engine can judge;
 * packed records rebuilt (graph_packed.c) to be read as plain ones
 */
static int load_container(struct loader *L)
{
	const struct ipu_graph_header *h = &L->c.h;
	const struct ipue_model_figures *m = &L->e->m;
	int rc = ipue_container_read(L->bin, L->len, &L->c, L->err);

	if (rc)
		return rc;
	L->s = L->c.s;
	if (h->model != m->model) {
		fail(L, 0, IPU_GRAPH_NONE, "graph targets model %u, engine is model %u",
		     h->model, m->model);
		if (L->err)
			L->err->status = IPUE_EMODEL;
		return IPUE_EMODEL;
	}
	if (h->codelet_version > IPUE_CODELET_LIBRARY_VERSION)
		return fail(L, 0, IPU_GRAPH_NONE, "graph needs codelet library %u, have %u",
			    h->codelet_version, IPUE_CODELET_LIBRARY_VERSION);
	/* the IPUs the binary spans: its tile numbers (multi.c) */
	rc = ipue_multi_load(L->e, L->g, &L->c, L->err);
	if (rc)
		return rc;
	/* packed tables were checked by the container reader: rebuild their records */
	return ipue_packed_unpack(&L->c, L->unpacked);
}

/* --------------------------------------------------- strings, tile plans */

static int load_strings(struct loader *L)
{
	struct ipue_graph *g = L->g;
	const struct ipue_section *s = &L->s[IPU_GRAPH_SEC_STRINGS];
	char *p = gcalloc(g, s->size + 1, 1);

	if (!p)
		return IPUE_ENOMEM;
	if (s->size)
		memcpy(p, s->p, s->size);
	g->strings = p;
	g->strings_len = s->size;	/* the extra NUL is not addressable */
	return 0;
}

static int load_tiles(struct loader *L)
{
	struct ipue_graph *g = L->g;
	const struct ipue_model_figures *m = &L->e->m;
	const struct ipue_section *s = &L->s[IPU_GRAPH_SEC_TILE_PLANS];
	uint32_t tiles = g->tiles;
	uint64_t off = 0;
	int rc;

	g->tile_mem = gcalloc(g, tiles, sizeof(*g->tile_mem));
	g->tile_bytes = gcalloc(g, tiles, sizeof(*g->tile_bytes));
	if (!g->tile_mem || !g->tile_bytes)
		return IPUE_ENOMEM;
	for (uint32_t i = 0; i < s->count; i++) {
		struct ipu_graph_tile_plan tp;

		rec(L, IPU_GRAPH_SEC_TILE_PLANS, i, &tp);
		if (tp.tile >= tiles)
			return fail(L, IPU_GRAPH_SEC_TILE_PLANS, i, "tile %u out of range (%s %u)",
				    tp.tile, g->multi ? "the IPUs have" : "model has", tiles);
		if (tp.bytes > m->tile_mem)
			return fail(L, IPU_GRAPH_SEC_TILE_PLANS, i,
				    "tile %u plans %u bytes, tile memory is %u", tp.tile, tp.bytes, m->tile_mem);
		if (g->tile_mem[tp.tile])
			return fail(L, IPU_GRAPH_SEC_TILE_PLANS, i, "tile %u has two plans", tp.tile);
		g->tile_bytes[tp.tile] = tp.bytes;
		/* mark "seen" even for 0 bytes so duplicates are caught */
		g->tile_mem[tp.tile] = (uint8_t *)(uintptr_t)1;
	}
	for (uint32_t t = 0; t < tiles; t++) {
		/* another member's tiles: their plans bound its records, no memory here */
		if (!g->tile_bytes[t] || !ipue_tile_own(g, t))
			continue;
		g->planned += g->tile_bytes[t];
		g->tiles_used++;
		off += (g->tile_bytes[t] + IPUE_TILE_ALIGN - 1) / IPUE_TILE_ALIGN * IPUE_TILE_ALIGN;
	}
	rc = ipue_arena_alloc(&g->arena, off);
	if (rc)
		return rc;
	off = 0;
	for (uint32_t t = 0; t < tiles; t++) {
		g->tile_mem[t] = NULL;
		if (!g->tile_bytes[t] || !ipue_tile_own(g, t))
			continue;
		g->tile_mem[t] = g->arena.base + off;
		off += (g->tile_bytes[t] + IPUE_TILE_ALIGN - 1) / IPUE_TILE_ALIGN * IPUE_TILE_ALIGN;
	}
	return 0;
}

/* [off, off + bytes) lies inside tile's plan */
static int tile_range_ok(const struct loader *L, uint32_t tile, uint64_t off, uint64_t bytes)
{
	return tile < L->g->tiles && range_ok(off, bytes, L->g->tile_bytes[tile]);
}

/* ---------------------------------------------------------------- tensors */

static int load_tensors(struct loader *L)
{
	struct ipue_graph *g = L->g;
	const struct ipue_section *ts = &L->s[IPU_GRAPH_SEC_TENSORS];
	uint32_t niv = L->s[IPU_GRAPH_SEC_INTERVALS].count, next_iv = 0;

	g->ntensors = ts->count;
	g->tensors = gcalloc(g, ts->count, sizeof(*g->tensors));
	g->nintervals = niv;
	g->intervals = gcalloc(g, niv, sizeof(*g->intervals));
	if (!g->tensors || !g->intervals)
		return IPUE_ENOMEM;
	for (uint32_t i = 0; i < ts->count; i++) {
		struct ipu_graph_tensor t;
		struct ipue_rt_tensor *rt = &g->tensors[i];
		uint64_t prod = 1, expect = 0;
		unsigned dsize;

		rec(L, IPU_GRAPH_SEC_TENSORS, i, &t);
		rt->name = str(L, t.name);
		if (!rt->name)
			return fail(L, IPU_GRAPH_SEC_TENSORS, i, "bad name string %u", t.name);
		dsize = ipu_dtype_size(t.dtype);
		if (!dsize)
			return fail(L, IPU_GRAPH_SEC_TENSORS, i, "tensor '%s': unknown dtype %u",
				    rt->name, t.dtype);
		if (t.rank > IPU_GRAPH_MAX_RANK)
			return fail(L, IPU_GRAPH_SEC_TENSORS, i, "tensor '%s': rank %u > %u",
				    rt->name, t.rank, IPU_GRAPH_MAX_RANK);
		for (unsigned d = 0; d < IPU_GRAPH_MAX_RANK; d++) {
			if (d >= t.rank) {
				if (t.shape[d])
					return fail(L, IPU_GRAPH_SEC_TENSORS, i,
						    "tensor '%s': shape[%u] set beyond rank %u",
						    rt->name, d, t.rank);
				continue;
			}
			if (t.shape[d] && prod > UINT64_MAX / 2 / t.shape[d])
				return fail(L, IPU_GRAPH_SEC_TENSORS, i, "tensor '%s': shape overflows",
					    rt->name);
			prod *= t.shape[d];
		}
		if (prod != t.elements)
			return fail(L, IPU_GRAPH_SEC_TENSORS, i,
				    "tensor '%s': elements %llu != product of shape %llu", rt->name,
				    (unsigned long long)t.elements, (unsigned long long)prod);
		/* consecutive interval ranges: no record is resolved twice */
		if (t.first_interval != next_iv || !range_ok(t.first_interval, t.interval_count, niv))
			return fail(L, IPU_GRAPH_SEC_TENSORS, i,
				    "tensor '%s': intervals [%u, +%u) must start at %u and lie in [0, %u)",
				    rt->name, t.first_interval, t.interval_count, next_iv, niv);
		next_iv += t.interval_count;
		rt->dtype = t.dtype;
		rt->rank = t.rank;
		memcpy(rt->shape, t.shape, sizeof(rt->shape));
		rt->elements = t.elements;
		rt->bytes = t.elements * dsize;
		rt->iv = g->intervals + t.first_interval;
		rt->niv = t.interval_count;
		for (uint32_t k = 0; k < t.interval_count; k++) {
			struct ipu_graph_interval iv;
			uint32_t idx = t.first_interval + k;

			rec(L, IPU_GRAPH_SEC_INTERVALS, idx, &iv);
			if (iv.begin != expect || iv.count == 0)
				return fail(L, IPU_GRAPH_SEC_INTERVALS, idx,
					    "tensor '%s': interval begins at %llu (count %u), expected %llu",
					    rt->name, (unsigned long long)iv.begin, iv.count,
					    (unsigned long long)expect);
			if (iv.tile_offset % dsize ||
			    !tile_range_ok(L, iv.tile, iv.tile_offset, (uint64_t)iv.count * dsize))
				return fail(L, IPU_GRAPH_SEC_INTERVALS, idx,
					    "tensor '%s': tile %u bytes [%u, +%llu) outside the tile's plan or misaligned",
					    rt->name, iv.tile, iv.tile_offset,
					    (unsigned long long)iv.count * dsize);
			rt->iv[k].byte_begin = expect * dsize;
			rt->iv[k].bytes = (uint64_t)iv.count * dsize;
			/* NULL: on another member's tile */
			rt->iv[k].ptr = g->tile_mem[iv.tile] ? g->tile_mem[iv.tile] + iv.tile_offset : NULL;
			expect += iv.count;
			if (expect > t.elements)
				break;
		}
		if (expect != t.elements)
			return fail(L, IPU_GRAPH_SEC_TENSORS, i,
				    "tensor '%s': intervals cover %llu of %llu elements", rt->name,
				    (unsigned long long)expect, (unsigned long long)t.elements);
	}
	return 0;
}

/* -------------------------------------------------------------- vertices */

static int load_vertices(struct loader *L)
{
	struct ipue_graph *g = L->g;
	uint32_t nv = L->s[IPU_GRAPH_SEC_VERTICES].count;
	uint32_t nf = L->s[IPU_GRAPH_SEC_FIELDS].count;
	uint32_t np = L->s[IPU_GRAPH_SEC_PARAMS].count;
	ipue_codelet_lookup_fn lookup = L->e->lookup;

	g->nvertices = nv;
	g->vertices = gcalloc(g, nv, sizeof(*g->vertices));
	g->fields = gcalloc(g, (uint64_t)nv * IPUE_MAX_FIELDS, sizeof(*g->fields));
	g->params = gcalloc(g, (uint64_t)nv * IPUE_MAX_PARAMS, sizeof(*g->params));
	L->vcycles = calloc(nv ? nv : 1, sizeof(*L->vcycles));
	L->foff = calloc((size_t)(nv ? nv : 1) * IPUE_MAX_FIELDS, sizeof(*L->foff));
	if (g->multi)
		L->stand_in = calloc(L->e->m.tile_mem, 1);
	if (!g->vertices || !g->fields || !g->params || !L->vcycles || !L->foff ||
	    (g->multi && !L->stand_in))
		return IPUE_ENOMEM;
	for (uint32_t i = 0; i < nv; i++) {
		struct ipu_graph_vertex v;
		const struct ipue_codelet *c;
		struct ipue_field *f = g->fields + (uint64_t)i * IPUE_MAX_FIELDS;
		uint32_t *p = g->params + (uint64_t)i * IPUE_MAX_PARAMS;
		char msg[128];

		rec(L, IPU_GRAPH_SEC_VERTICES, i, &v);
		if (v.tile >= g->tiles)
			return fail(L, IPU_GRAPH_SEC_VERTICES, i, "tile %u out of range (%u tiles)",
				    v.tile, g->tiles);
		c = lookup(v.codelet);
		if (!c || !c->run)
			return fail(L, IPU_GRAPH_SEC_VERTICES, i, "unknown codelet 0x%04x", v.codelet);
		if (v.nfields != c->nfields || c->nfields > IPUE_MAX_FIELDS)
			return fail(L, IPU_GRAPH_SEC_VERTICES, i, "codelet %s takes %u fields, vertex has %u",
				    c->name, c->nfields, v.nfields);
		if (v.nparams != c->nparams || c->nparams > IPUE_MAX_PARAMS)
			return fail(L, IPU_GRAPH_SEC_VERTICES, i, "codelet %s takes %u params, vertex has %u",
				    c->name, c->nparams, v.nparams);
		if (!range_ok(v.first_field, v.nfields, nf) || !range_ok(v.first_param, v.nparams, np))
			return fail(L, IPU_GRAPH_SEC_VERTICES, i,
				    "fields [%u, +%u) or params [%u, +%u) out of range (%u fields, %u params)",
				    v.first_field, v.nfields, v.first_param, v.nparams, nf, np);
		for (unsigned k = 0; k < v.nparams; k++)
			p[k] = rec_u32(L, IPU_GRAPH_SEC_PARAMS, v.first_param + k);
		for (unsigned k = 0; k < v.nfields; k++) {
			struct ipu_graph_field gf;
			const struct ipue_field_desc *d = &c->field[k];
			unsigned dsize;

			rec(L, IPU_GRAPH_SEC_FIELDS, v.first_field + k, &gf);
			dsize = ipu_dtype_size(gf.dtype);
			if (!dsize || !(d->dtype_mask & (1u << gf.dtype)))
				return fail(L, IPU_GRAPH_SEC_VERTICES, i,
					    "codelet %s field %u (%s): dtype %u not accepted",
					    c->name, k, d->name, gf.dtype);
			if (d->scalar && gf.count != 1)
				return fail(L, IPU_GRAPH_SEC_VERTICES, i,
					    "codelet %s field %u (%s): scalar field has %u elements",
					    c->name, k, d->name, gf.count);
			if (gf.tile_offset % dsize ||
			    !tile_range_ok(L, v.tile, gf.tile_offset, (uint64_t)gf.count * dsize))
				return fail(L, IPU_GRAPH_SEC_VERTICES, i,
					    "codelet %s field %u (%s): tile %u bytes [%u, +%llu) outside the tile's plan (%u bytes) or misaligned",
					    c->name, k, d->name, v.tile, gf.tile_offset,
					    (unsigned long long)gf.count * dsize, g->tile_bytes[v.tile]);
			f[k].data = g->tile_mem[v.tile] ? g->tile_mem[v.tile] + gf.tile_offset : NULL;
			if (!ipue_tile_own(g, v.tile))
				f[k].data = L->stand_in + gf.tile_offset;
			L->foff[(size_t)i * IPUE_MAX_FIELDS + k] = gf.tile_offset;
			f[k].count = gf.count;
			f[k].dtype = gf.dtype;
		}
		msg[0] = 0;
		if (c->check && c->check(f, p, msg, sizeof(msg)) != 0)
			return fail(L, IPU_GRAPH_SEC_VERTICES, i, "codelet %s rejects the vertex: %s",
				    c->name, msg[0] ? msg : "(no reason given)");
		g->vertices[i].run = c->run;
		g->vertices[i].f = f;
		g->vertices[i].p = p;
		g->vertices[i].nfields = v.nfields;
		L->vcycles[i] = c->cycles ? c->cycles(f, p) : 0;
		for (unsigned k = 0; k < v.nfields && !ipue_tile_own(g, v.tile); k++)
			f[k].data = NULL;	/* not this member's to run */
		/* a bogus cost must not overflow the sums built from it */
		if (L->vcycles[i] > MAX_VERTEX_CYCLES)
			L->vcycles[i] = MAX_VERTEX_CYCLES;
	}
	return 0;
}

/* ----------------------------------------------------------- compute sets */

struct access {
	uint32_t tile, start, end, vertex;
	uint8_t write;
};

static int access_cmp(const void *a, const void *b)
{
	const struct access *x = a, *y = b;

	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/* the two furthest-reaching ends seen so far, from distinct vertices */
struct top2 {
	uint32_t end1, v1, end2, v2;
};

static void top2_add(struct top2 *t, uint32_t end, uint32_t v)
{
	if (v == t->v1) {
		if (end > t->end1)
			t->end1 = end;
	} else if (end > t->end1) {
		t->end2 = t->end1;
		t->v2 = t->v1;
		t->end1 = end;
		t->v1 = v;
	} else if (end > t->end2) {
		t->end2 = end;
		t->v2 = v;
	}
}

/* furthest end of another vertex's access; *who = that vertex */
static uint32_t top2_other(const struct top2 *t, uint32_t v, uint32_t *who)
{
	*who = t->v1 != v ? t->v1 : t->v2;
	return t->v1 != v ? t->end1 : t->end2;
}

/*
 * Within a compute set no vertex may write bytes another vertex reads or
 * writes: on the chip its six workers run concurrently. Sort all accesses
 * by (tile, start) and sweep.
 */
static int check_cs_conflicts(struct loader *L, uint32_t cs, const uint32_t *vid, uint32_t n)
{
	struct ipue_graph *g = L->g;
	struct access *a = calloc((size_t)n * IPUE_MAX_FIELDS + 1, sizeof(*a));
	uint32_t na = 0;
	int rc = 0;

	if (!a)
		return IPUE_ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct ipu_graph_vertex v;
		const struct ipue_codelet *c;

		rec(L, IPU_GRAPH_SEC_VERTICES, vid[i], &v);
		c = L->e->lookup(v.codelet);	/* validated in load_vertices */
		for (unsigned k = 0; k < v.nfields; k++) {
			const struct ipue_field *f = &g->vertices[vid[i]].f[k];
			uint32_t start, bytes = f->count * ipu_dtype_size(f->dtype);

			if (!bytes)
				continue;
			start = L->foff[(size_t)vid[i] * IPUE_MAX_FIELDS + k];
			a[na].tile = v.tile;
			a[na].start = start;
			a[na].end = start + bytes;
			/* position in the list, not the id: a vertex listed twice conflicts */
			a[na].vertex = i;
			a[na].write = c->field[k].dir != IPUE_FIELD_IN;
			na++;
		}
	}
	qsort(a, na, sizeof(*a), access_cmp);
	for (uint32_t i = 0; i < na && !rc; ) {
		struct top2 w = { 0, UINT32_MAX, 0, UINT32_MAX }, r = w;
		uint32_t tile = a[i].tile;

		for (; i < na && a[i].tile == tile; i++) {
			uint32_t who, we = top2_other(&w, a[i].vertex, &who);
			uint32_t whor, re = top2_other(&r, a[i].vertex, &whor);

			if (we > a[i].start || (a[i].write && re > a[i].start)) {
				uint32_t other = we > a[i].start ? who : whor;

				rc = fail(L, IPU_GRAPH_SEC_COMPUTE_SETS, cs,
					  "compute set '%s': vertices %u and %u access overlapping bytes of tile %u at %u and one of them writes",
					  g->cs[cs].name, vid[other], vid[a[i].vertex], tile, a[i].start);
				break;
			}
			top2_add(a[i].write ? &w : &r, a[i].end, a[i].vertex);
		}
	}
	free(a);
	return rc;
}

static int span_b_cmp(const void *a, const void *b)
{
	const struct ipue_span *x = a, *y = b;

	return x->b < y->b ? -1 : x->b > y->b;
}

/* the bytes cs's vertices write, sorted by begin, ends prefix-maxed (fuse.c) */
static int cs_writes(struct loader *L, struct ipue_rt_cs *cs, const uint32_t *vid, uint32_t n)
{
	struct ipue_graph *g = L->g;
	uint32_t nw = 0;

	cs->wr = gcalloc(g, (uint64_t)n * IPUE_MAX_FIELDS, sizeof(*cs->wr));
	if (!cs->wr)
		return IPUE_ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct ipu_graph_vertex v;
		const struct ipue_codelet *c;

		rec(L, IPU_GRAPH_SEC_VERTICES, vid[i], &v);
		c = L->e->lookup(v.codelet);	/* validated in load_vertices */
		for (unsigned k = 0; k < v.nfields; k++) {
			const struct ipue_field *f = &g->vertices[vid[i]].f[k];
			uint32_t bytes = f->count * ipu_dtype_size(f->dtype);

			if (bytes && c->field[k].dir != IPUE_FIELD_IN)
				cs->wr[nw++] = (struct ipue_span){ f->data, (uint8_t *)f->data + bytes };
		}
	}
	qsort(cs->wr, nw, sizeof(*cs->wr), span_b_cmp);
	for (uint32_t i = 1; i < nw; i++)
		if (cs->wr[i - 1].e > cs->wr[i].e)
			cs->wr[i].e = cs->wr[i - 1].e;
	cs->nwr = nw;
	return 0;
}

/*
 * A compute set's modelled cycles: its vertices' cycles grouped by tile in
 * graph order, each tile scheduled on its workers, the busiest tile (of all
 * IPUs of a multi-IPU graph). tile_n[] is zero on entry and on return.
 */
static uint64_t cs_cost(struct loader *L, const uint32_t *vid, uint32_t n, uint32_t *tile_n,
			uint32_t *tile_first, uint64_t *tile_cyc)
{
	uint32_t tiles = L->g->tiles, acc = 0;
	uint64_t max = 0;

	for (uint32_t k = 0; k < n; k++) {
		struct ipu_graph_vertex v;

		rec(L, IPU_GRAPH_SEC_VERTICES, vid[k], &v);
		tile_n[v.tile]++;
	}
	for (uint32_t t = 0; t < tiles; t++) {
		tile_first[t] = acc;
		acc += tile_n[t];
		tile_n[t] = 0;
	}
	for (uint32_t k = 0; k < n; k++) {
		struct ipu_graph_vertex v;

		rec(L, IPU_GRAPH_SEC_VERTICES, vid[k], &v);
		tile_cyc[tile_first[v.tile] + tile_n[v.tile]++] = L->vcycles[vid[k]];
	}
	for (uint32_t t = 0; t < tiles; t++) {
		if (tile_n[t]) {
			uint64_t tc = ipue_cost_tile(tile_cyc + tile_first[t], tile_n[t]);

			if (tc > max)
				max = tc;
		}
		tile_n[t] = 0;
	}
	return max;
}

static int load_compute_sets(struct loader *L)
{
	struct ipue_graph *g = L->g;
	const struct ipue_section *s = &L->s[IPU_GRAPH_SEC_COMPUTE_SETS];
	uint32_t ncsv = L->s[IPU_GRAPH_SEC_CS_VERTICES].count, next = 0;
	uint32_t tiles = g->tiles;
	unsigned parts = L->e->host_threads > 1 ? L->e->host_threads * IPUE_POOL_PIECES : 1;
	uint32_t *vid = NULL, *own = NULL, *tile_n = NULL, *tile_first = NULL;
	uint64_t *tile_cyc = NULL, *weight = NULL;
	int rc = 0;

	g->ncs = s->count;
	g->cs = gcalloc(g, s->count, sizeof(*g->cs));
	vid = calloc(ncsv + 1, sizeof(*vid));
	/* a multi-IPU graph's member runs the vertices on its own tiles only */
	own = g->multi ? calloc(ncsv + 1, sizeof(*own)) : vid;
	weight = calloc(ncsv + 1, sizeof(*weight));
	tile_cyc = calloc(ncsv + 1, sizeof(*tile_cyc));
	tile_n = calloc(tiles, sizeof(*tile_n));
	tile_first = calloc(tiles, sizeof(*tile_first));
	if (!g->cs || !vid || !own || !weight || !tile_cyc || !tile_n || !tile_first) {
		rc = IPUE_ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < s->count && !rc; i++) {
		struct ipu_graph_compute_set c;
		struct ipue_rt_cs *cs = &g->cs[i];
		uint32_t nown = 0;

		rec(L, IPU_GRAPH_SEC_COMPUTE_SETS, i, &c);
		cs->name = str(L, c.name);
		if (!cs->name) {
			rc = fail(L, IPU_GRAPH_SEC_COMPUTE_SETS, i, "bad name string %u", c.name);
			break;
		}
		if (c.first != next || !range_ok(c.first, c.count, ncsv)) {
			rc = fail(L, IPU_GRAPH_SEC_COMPUTE_SETS, i,
				  "compute set '%s': vertex list [%u, +%u) must start at %u and lie in [0, %u)",
				  cs->name, c.first, c.count, next, ncsv);
			break;
		}
		next += c.count;
		for (uint32_t k = 0; k < c.count; k++) {
			vid[k] = rec_u32(L, IPU_GRAPH_SEC_CS_VERTICES, c.first + k);
			if (vid[k] >= g->nvertices) {
				rc = fail(L, IPU_GRAPH_SEC_CS_VERTICES, c.first + k,
					  "compute set '%s': vertex id %u out of range (%u vertices)",
					  cs->name, vid[k], g->nvertices);
				goto out;
			}
		}
		rc = check_cs_conflicts(L, i, vid, c.count);
		for (uint32_t k = 0; k < c.count && own != vid; k++) {
			struct ipu_graph_vertex v;

			rec(L, IPU_GRAPH_SEC_VERTICES, vid[k], &v);
			if (ipue_tile_own(g, v.tile))
				own[nown++] = vid[k];
		}
		if (own == vid)
			nown = c.count;
		if (!rc)
			rc = cs_writes(L, cs, own, nown);
		if (rc)
			break;
		cs->nv = nown;
		cs->v = gcalloc(g, nown, sizeof(*cs->v));
		cs->vtile = gcalloc(g, nown, sizeof(*cs->vtile));
		if (!cs->v || !cs->vtile) {
			rc = IPUE_ENOMEM;
			break;
		}
		cs->cycles = cs_cost(L, vid, c.count, tile_n, tile_first, tile_cyc);
		/* the cost is the whole group's (all tiles), the work this member's */
		for (uint32_t k = 0; k < nown; k++) {
			struct ipu_graph_vertex v;

			rec(L, IPU_GRAPH_SEC_VERTICES, own[k], &v);
			cs->v[k] = g->vertices[own[k]];
			cs->vtile[k] = v.tile;
			weight[k] = L->vcycles[own[k]] + POOL_VERTEX_WEIGHT;
		}
		rc = ipue_work_split(weight, nown, parts, POOL_MIN_CYCLES, &cs->split, &cs->nsplit);
		if (cs->split)
			g->host_bytes += (parts + 1) * sizeof(uint32_t);
	}
out:
	if (own != vid)
		free(own);
	free(vid);
	free(weight);
	free(tile_cyc);
	free(tile_n);
	free(tile_first);
	return rc;
}

/* -------------------------------------------------------------- exchanges */

struct span {
	uint32_t tile, start, end, copy;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

static int copy_cmp(const void *a, const void *b)
{
	const struct ipue_rt_copy *x = a, *y = b;

	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/* qsort() unless already in order (builders write most copies in destination order) */
static void sort_unless_sorted(void *base, size_t n, size_t size,
			       int (*cmp)(const void *, const void *))
{
	const char *p = base;

	for (size_t i = 1; i < n; i++) {
		if (cmp(p + (i - 1) * size, p + i * size) > 0) {
			qsort(base, n, size, cmp);
			return;
		}
	}
}

/* destinations disjoint from each other and from every source */
static int check_copy_overlaps(struct loader *L, uint32_t xi, struct span *d,
			       struct span *sr, uint32_t n, uint32_t first)
{
	const char *name = L->g->ex[xi].name;
	uint32_t run_end = 0, tile = UINT32_MAX;

	sort_unless_sorted(d, n, sizeof(*d), span_cmp);
	sort_unless_sorted(sr, n, sizeof(*sr), span_cmp);
	for (uint32_t i = 0; i < n; i++) {
		if (d[i].tile == tile && d[i].start < run_end)
			return fail(L, IPU_GRAPH_SEC_COPIES, first + d[i].copy,
				    "exchange '%s': destination tile %u bytes at %u overlaps another destination",
				    name, d[i].tile, d[i].start);
		if (d[i].tile != tile)
			run_end = 0;
		tile = d[i].tile;
		if (d[i].end > run_end)
			run_end = d[i].end;
	}
	/* prefix maximum of source ends per tile, then binary search */
	for (uint32_t i = 1; i < n; i++)
		if (sr[i].tile == sr[i - 1].tile && sr[i - 1].end > sr[i].end)
			sr[i].end = sr[i - 1].end;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t lo = 0, hi = n;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (sr[mid].tile < d[i].tile ||
			    (sr[mid].tile == d[i].tile && sr[mid].start < d[i].start))
				lo = mid + 1;
			else
				hi = mid;
		}
		if ((lo < n && sr[lo].tile == d[i].tile && sr[lo].start < d[i].end) ||
		    (lo > 0 && sr[lo - 1].tile == d[i].tile && sr[lo - 1].end > d[i].start))
			return fail(L, IPU_GRAPH_SEC_COPIES, first + d[i].copy,
				    "exchange '%s': destination tile %u bytes at %u overlaps a source of the same exchange",
				    name, d[i].tile, d[i].start);
	}
	return 0;
}

/*
 * A multi-IPU graph's copy c of exchange xi: between IPUs, its bytes load
 * its route's links (the exchange's cost); its source's member pushes it
 * into another member's tiles (fabric.h).
 */
static int exchange_part(struct loader *L, struct ipue_link_acc *acc, uint32_t xi,
			 uint32_t ci, const struct ipu_graph_copy *c)
{
	struct ipue_graph *g = L->g;
	struct ipue_rt_exchange *rx = &g->ex[xi];
	uint32_t a = ipue_tile_member(g, c->src_tile), b = ipue_tile_member(g, c->dst_tile);
	int rc;

	if (a == b)
		return 0;
	rx->cross++;
	rc = ipue_multi_copy(L->e, g, acc, xi, a, b, c->bytes);
	if (rc == IPUE_ERANGE)
		return fail(L, IPU_GRAPH_SEC_COPIES, ci, "exchange '%s': no route from IPU %u to IPU %u",
			    rx->name, a, b);
	if (rc)
		return rc;
	if (g->tile_mem[c->src_tile])
		rx->push[rx->npush++] = (struct ipue_rt_push){
			g->tile_mem[c->src_tile] + c->src_offset, b, c->dst_tile, c->dst_offset, c->bytes
		};
	return 0;
}

/*
 * This member's copies of an exchange, rx->c[0..n): coalesced where they
 * continue each other on both sides, then split over the host threads.
 * weight has room for n.
 */
static int exchange_copies(struct loader *L, struct ipue_rt_exchange *rx, uint32_t n,
			   uint64_t *weight)
{
	uint32_t nc = 0;

	sort_unless_sorted(rx->c, n, sizeof(*rx->c), copy_cmp);
	for (uint32_t k = 0; k < n; k++) {
		if (nc && rx->c[nc - 1].dst + rx->c[nc - 1].bytes == rx->c[k].dst &&
		    rx->c[nc - 1].src + rx->c[nc - 1].bytes == rx->c[k].src)
			rx->c[nc - 1].bytes += rx->c[k].bytes;
		else
			rx->c[nc++] = rx->c[k];
	}
	rx->nc = nc;
	for (uint32_t k = 0; k < nc; k++)
		weight[k] = rx->c[k].bytes + 64;	/* + per-copy overhead */
	return ipue_work_split(weight, nc,
			       L->e->host_threads > 1 ? L->e->host_threads * IPUE_POOL_PIECES : 1,
			       POOL_MIN_COPY_BYTES, &rx->split, &rx->nsplit);
}

static int load_exchanges(struct loader *L)
{
	struct ipue_graph *g = L->g;
	const struct ipue_section *s = &L->s[IPU_GRAPH_SEC_EXCHANGES];
	uint32_t ncp = L->s[IPU_GRAPH_SEC_COPIES].count, next = 0;
	uint32_t tiles = g->tiles;
	struct span *d = NULL, *sr = NULL;
	uint64_t *sent = NULL, *recv = NULL, *weight = NULL;
	struct ipue_link_acc *acc = NULL;
	int rc = 0;

	g->nex = s->count;
	g->ex = gcalloc(g, s->count, sizeof(*g->ex));
	d = calloc(ncp + 1, sizeof(*d));
	sr = calloc(ncp + 1, sizeof(*sr));
	weight = calloc(ncp + 1, sizeof(*weight));
	sent = calloc(tiles, sizeof(*sent));
	recv = calloc(tiles, sizeof(*recv));
	if (g->multi)
		acc = ipue_multi_acc_new();
	if (!g->ex || !d || !sr || !weight || !sent || !recv || (g->multi && !acc)) {
		rc = IPUE_ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < s->count && !rc; i++) {
		struct ipu_graph_exchange x;
		struct ipue_rt_exchange *rx = &g->ex[i];
		uint32_t n = 0, nl = 0;
		uint64_t max = 0;

		rec(L, IPU_GRAPH_SEC_EXCHANGES, i, &x);
		rx->name = str(L, x.name);
		if (!rx->name) {
			rc = fail(L, IPU_GRAPH_SEC_EXCHANGES, i, "bad name string %u", x.name);
			break;
		}
		if (x.first_copy != next || !range_ok(x.first_copy, x.copy_count, ncp)) {
			rc = fail(L, IPU_GRAPH_SEC_EXCHANGES, i,
				  "exchange '%s': copies [%u, +%u) must start at %u and lie in [0, %u)",
				  rx->name, x.first_copy, x.copy_count, next, ncp);
			break;
		}
		next += x.copy_count;
		rx->c = gcalloc(g, x.copy_count, sizeof(*rx->c));
		if (g->multi)
			rx->push = gcalloc(g, x.copy_count, sizeof(*rx->push));
		if (!rx->c || (g->multi && !rx->push)) {
			rc = IPUE_ENOMEM;
			break;
		}
		for (uint32_t k = 0; k < x.copy_count; k++) {
			struct ipu_graph_copy c;

			rec(L, IPU_GRAPH_SEC_COPIES, x.first_copy + k, &c);
			if (!tile_range_ok(L, c.src_tile, c.src_offset, c.bytes) ||
			    !tile_range_ok(L, c.dst_tile, c.dst_offset, c.bytes)) {
				rc = fail(L, IPU_GRAPH_SEC_COPIES, x.first_copy + k,
					  "exchange '%s': copy tile %u+%u -> tile %u+%u (%u bytes) outside the tiles' plans",
					  rx->name, c.src_tile, c.src_offset, c.dst_tile, c.dst_offset, c.bytes);
				goto out;
			}
			if (!c.bytes)
				continue;
			d[n] = (struct span){ c.dst_tile, c.dst_offset, c.dst_offset + c.bytes, k };
			sr[n] = (struct span){ c.src_tile, c.src_offset, c.src_offset + c.bytes, k };
			rc = g->multi ? exchange_part(L, acc, i, x.first_copy + k, &c) : 0;
			if (rc)
				goto out;
			if (g->tile_mem[c.dst_tile] && g->tile_mem[c.src_tile]) {
				rx->c[nl].dst = g->tile_mem[c.dst_tile] + c.dst_offset;
				rx->c[nl].src = g->tile_mem[c.src_tile] + c.src_offset;
				rx->c[nl++].bytes = c.bytes;
			}
			rx->bytes += c.bytes;
			sent[c.src_tile] += c.bytes;
			recv[c.dst_tile] += c.bytes;
			n++;
		}
		for (uint32_t k = 0; k < n; k++) {
			/* spans still hold tiles before sorting: collect and clear */
			uint32_t st = sr[k].tile, dt = d[k].tile;

			if (sent[st] > max)
				max = sent[st];
			if (recv[dt] > max)
				max = recv[dt];
		}
		for (uint32_t k = 0; k < n; k++) {
			sent[sr[k].tile] = 0;
			recv[d[k].tile] = 0;
		}
		rx->cycles = ipue_cost_exchange(max);
		if (rx->cross)
			rx->cycles += ipue_multi_link_cycles(L->e, acc);
		rc = check_copy_overlaps(L, i, d, sr, n, x.first_copy);
		if (rc)
			break;
		rc = exchange_copies(L, rx, nl, weight);
	}
out:
	free(acc);
	free(d);
	free(sr);
	free(weight);
	free(sent);
	free(recv);
	return rc;
}

/* ---------------------------------------------------------------- streams */

static int load_streams(struct loader *L)
{
	struct ipue_graph *g = L->g;
	const struct ipue_section *s = &L->s[IPU_GRAPH_SEC_STREAMS];
	uint64_t total_mem = (uint64_t)L->e->m.tiles * L->e->m.tile_mem;

	g->nstreams = s->count;
	g->streams = gcalloc(g, s->count, sizeof(*g->streams));
	if (!g->streams)
		return IPUE_ENOMEM;
	for (uint32_t i = 0; i < s->count; i++) {
		struct ipu_graph_stream st;
		struct ipue_rt_stream *rs = &g->streams[i];

		rec(L, IPU_GRAPH_SEC_STREAMS, i, &st);
		rs->name = str(L, st.name);
		if (!rs->name)
			return fail(L, IPU_GRAPH_SEC_STREAMS, i, "bad name string %u", st.name);
		if (st.direction != IPU_STREAM_HOST_TO_DEVICE && st.direction != IPU_STREAM_DEVICE_TO_HOST)
			return fail(L, IPU_GRAPH_SEC_STREAMS, i, "stream '%s': bad direction %u",
				    rs->name, st.direction);
		if (!ipu_dtype_size(st.dtype))
			return fail(L, IPU_GRAPH_SEC_STREAMS, i, "stream '%s': unknown dtype %u",
				    rs->name, st.dtype);
		if (st.depth < 1 || st.depth > IPU_GRAPH_MAX_STREAM_DEPTH)
			return fail(L, IPU_GRAPH_SEC_STREAMS, i, "stream '%s': depth %u not in 1..%u",
				    rs->name, st.depth, IPU_GRAPH_MAX_STREAM_DEPTH);
		rs->bytes = (uint64_t)st.elements * ipu_dtype_size(st.dtype);
		if (rs->bytes > total_mem)
			return fail(L, IPU_GRAPH_SEC_STREAMS, i,
				    "stream '%s': %llu bytes per transfer exceed the chip's memory",
				    rs->name, (unsigned long long)rs->bytes);
		rs->index = i;
		rs->direction = st.direction;
		rs->dtype = st.dtype;
		rs->depth = st.depth;
		rs->elements = st.elements;
	}
	return 0;
}

/* --------------------------------------------------------------- programs */

static int scalar_ok(const struct ipue_graph *g, uint32_t t)
{
	return t < g->ntensors && g->tensors[t].elements == 1;
}

static int node_ok(const struct ipue_graph *g, uint32_t n, int none_ok)
{
	return n < g->nnodes || (none_ok && n == IPU_GRAPH_NONE);
}

/* a multi-IPU graph's tensor t lies on the tiles of one IPU */
static int tensor_on_one_ipu(const struct loader *L, uint32_t t)
{
	struct ipu_graph_tensor rt;
	uint32_t ipu = IPU_GRAPH_NONE;

	rec(L, IPU_GRAPH_SEC_TENSORS, t, &rt);
	for (uint32_t k = 0; k < rt.interval_count; k++) {
		struct ipu_graph_interval iv;
		uint32_t m;

		rec(L, IPU_GRAPH_SEC_INTERVALS, rt.first_interval + k, &iv);
		m = ipue_tile_member(L->g, iv.tile);
		if (ipu != IPU_GRAPH_NONE && m != ipu)
			return 0;
		ipu = m;
	}
	return 1;
}

static int check_node(struct loader *L, uint32_t i)
{
	struct ipue_graph *g = L->g;
	const struct ipu_graph_prog_node *n = &g->nodes[i];
	const unsigned S = IPU_GRAPH_SEC_PROGRAM_NODES;

	if (n->flags)
		return fail(L, S, i, "node %u: unknown flags 0x%x", i, n->flags);
	switch (n->kind) {
	case IPU_PROG_SEQUENCE:
		if (!range_ok(n->a, n->b, g->nchildren))
			return fail(L, S, i, "sequence %u: children [%u, +%u) out of range (%u)",
				    i, n->a, n->b, g->nchildren);
		return 0;
	case IPU_PROG_EXECUTE:
		if (n->a >= g->ncs)
			return fail(L, S, i, "execute %u: compute set %u out of range (%u)", i, n->a, g->ncs);
		return 0;
	case IPU_PROG_COPY:
		if (n->a >= g->nex)
			return fail(L, S, i, "copy %u: exchange %u out of range (%u)", i, n->a, g->nex);
		return 0;
	case IPU_PROG_REPEAT:
		if (!node_ok(g, n->b, 0))
			return fail(L, S, i, "repeat %u: body %u out of range", i, n->b);
		return 0;
	case IPU_PROG_REPEAT_WHILE_TRUE:
		if (!scalar_ok(g, n->a))
			return fail(L, S, i, "repeat-while %u: condition %u is not a scalar tensor", i, n->a);
		if (!node_ok(g, n->b, 0) || !node_ok(g, n->c, 1))
			return fail(L, S, i, "repeat-while %u: body %u or condition program %u out of range",
				    i, n->b, n->c);
		return 0;
	case IPU_PROG_IF:
		if (!scalar_ok(g, n->a))
			return fail(L, S, i, "if %u: condition %u is not a scalar tensor", i, n->a);
		if (!node_ok(g, n->b, 1) || !node_ok(g, n->c, 1))
			return fail(L, S, i, "if %u: branch %u or %u out of range", i, n->b, n->c);
		return 0;
	case IPU_PROG_SYNC:
		return 0;
	case IPU_PROG_STREAM_COPY: {
		const struct ipue_rt_stream *s;
		const struct ipue_rt_tensor *t;

		if (n->a >= g->nstreams || n->b >= g->ntensors)
			return fail(L, S, i, "stream copy %u: stream %u or tensor %u out of range",
				    i, n->a, n->b);
		s = &g->streams[n->a];
		t = &g->tensors[n->b];
		if (n->c != s->direction)
			return fail(L, S, i, "stream copy %u: direction %u, stream '%s' has %u",
				    i, n->c, s->name, s->direction);
		if (t->dtype != s->dtype || t->elements != s->elements)
			return fail(L, S, i,
				    "stream copy %u: tensor '%s' (dtype %u, %llu elements) does not match stream '%s' (dtype %u, %u elements)",
				    i, t->name, t->dtype, (unsigned long long)t->elements, s->name,
				    s->dtype, s->elements);
		if (g->multi && !tensor_on_one_ipu(L, n->b))
			return fail(L, S, i, "stream copy %u: tensor '%s' spans IPUs (one member streams it)",
				    i, t->name);
		return 0;
	}
	case IPU_PROG_ABORT_ON_CONDITION:
		if (!scalar_ok(g, n->a))
			return fail(L, S, i, "abort-on-condition %u: condition %u is not a scalar tensor",
				    i, n->a);
		return 0;
	default:
		return fail(L, S, i, "node %u: unknown kind %u", i, n->kind);
	}
}

enum { NODE_NEW = 0, NODE_ACTIVE, NODE_DONE };

/*
 * Height of the subprogram at node i (1 = leaf), memoised so shared
 * subprograms are visited once; level bounds the recursion, and an ACTIVE
 * node reached again is a cycle.
 */
static int node_height(struct loader *L, uint32_t i, unsigned level, uint8_t *state,
		       uint8_t *height)
{
	const struct ipue_graph *g = L->g;
	const struct ipu_graph_prog_node *n = &g->nodes[i];
	uint32_t kids[3];
	unsigned nk = 0, h = 0;
	int rc;

	if (level > IPUE_MAX_PROGRAM_DEPTH)
		return fail(L, IPU_GRAPH_SEC_PROGRAM_NODES, i,
			    "program nesting deeper than %u at node %u", IPUE_MAX_PROGRAM_DEPTH, i);
	if (state[i] == NODE_ACTIVE)
		return fail(L, IPU_GRAPH_SEC_PROGRAM_NODES, i, "program cycle through node %u", i);
	if (state[i] == NODE_DONE) {
		if (level + height[i] - 1 > IPUE_MAX_PROGRAM_DEPTH)
			return fail(L, IPU_GRAPH_SEC_PROGRAM_NODES, i,
				    "program nesting deeper than %u below node %u",
				    IPUE_MAX_PROGRAM_DEPTH, i);
		return 0;
	}
	state[i] = NODE_ACTIVE;
	if (n->kind == IPU_PROG_SEQUENCE) {
		for (uint32_t k = 0; k < n->b; k++) {
			uint32_t c = g->children[n->a + k];

			rc = node_height(L, c, level + 1, state, height);
			if (rc)
				return rc;
			if (height[c] > h)
				h = height[c];
		}
	} else {
		if (n->kind == IPU_PROG_REPEAT)
			kids[nk++] = n->b;
		if (n->kind == IPU_PROG_REPEAT_WHILE_TRUE || n->kind == IPU_PROG_IF) {
			if (n->b != IPU_GRAPH_NONE)
				kids[nk++] = n->b;
			if (n->c != IPU_GRAPH_NONE)
				kids[nk++] = n->c;
		}
		for (unsigned k = 0; k < nk; k++) {
			rc = node_height(L, kids[k], level + 1, state, height);
			if (rc)
				return rc;
			if (height[kids[k]] > h)
				h = height[kids[k]];
		}
	}
	height[i] = (uint8_t)(h + 1);
	state[i] = NODE_DONE;
	return 0;
}

static int load_programs(struct loader *L)
{
	struct ipue_graph *g = L->g;
	const struct ipue_section *ns = &L->s[IPU_GRAPH_SEC_PROGRAM_NODES];
	const struct ipue_section *cs = &L->s[IPU_GRAPH_SEC_PROGRAM_CHILDREN];
	const struct ipue_section *es = &L->s[IPU_GRAPH_SEC_ENTRIES];
	uint8_t *state, *height;
	int rc = 0;

	if (ns->count > IPUE_MAX_PROGRAM_NODES)
		return fail(L, IPU_GRAPH_SEC_PROGRAM_NODES, IPU_GRAPH_NONE,
			    "%u program nodes, limit %u", ns->count, IPUE_MAX_PROGRAM_NODES);
	g->nnodes = ns->count;
	g->nodes = gcalloc(g, ns->count, sizeof(*g->nodes));
	g->nchildren = cs->count;
	g->children = gcalloc(g, cs->count, sizeof(*g->children));
	g->nentries = es->count;
	g->entries = gcalloc(g, es->count, sizeof(*g->entries));
	g->entry_names = gcalloc(g, es->count, sizeof(*g->entry_names));
	if (!g->nodes || !g->children || !g->entries || !g->entry_names)
		return IPUE_ENOMEM;
	for (uint32_t i = 0; i < cs->count; i++) {
		g->children[i] = rec_u32(L, IPU_GRAPH_SEC_PROGRAM_CHILDREN, i);
		if (g->children[i] >= g->nnodes)
			return fail(L, IPU_GRAPH_SEC_PROGRAM_CHILDREN, i,
				    "child node %u out of range (%u nodes)", g->children[i], g->nnodes);
	}
	for (uint32_t i = 0; i < ns->count; i++)
		rec(L, IPU_GRAPH_SEC_PROGRAM_NODES, i, &g->nodes[i]);
	for (uint32_t i = 0; i < ns->count; i++) {
		rc = check_node(L, i);
		if (rc)
			return rc;
	}
	state = calloc(ns->count + 1, 1);
	height = calloc(ns->count + 1, 1);
	if (!state || !height) {
		free(state);
		free(height);
		return IPUE_ENOMEM;
	}
	for (uint32_t i = 0; i < es->count && !rc; i++) {
		struct ipu_graph_entry en;

		rec(L, IPU_GRAPH_SEC_ENTRIES, i, &en);
		g->entry_names[i] = str(L, en.name);
		if (!g->entry_names[i])
			rc = fail(L, IPU_GRAPH_SEC_ENTRIES, i, "bad name string %u", en.name);
		else if (en.node >= g->nnodes)
			rc = fail(L, IPU_GRAPH_SEC_ENTRIES, i, "entry '%s': node %u out of range (%u nodes)",
				  g->entry_names[i], en.node, g->nnodes);
		else
			rc = node_height(L, en.node, 1, state, height);
		g->entries[i] = en.node;
	}
	/* unreachable nodes are validated too: no surprises for later users */
	for (uint32_t i = 0; i < ns->count && !rc; i++)
		if (state[i] == NODE_NEW)
			rc = node_height(L, i, 1, state, height);
	free(state);
	free(height);
	return rc;
}

/* ------------------------------------------------ handles, metadata, init */

struct named {
	const char *name;
	uint32_t idx;
};

static int named_cmp(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

static int load_handles(struct loader *L)
{
	struct ipue_graph *g = L->g;
	const struct ipue_section *s = &L->s[IPU_GRAPH_SEC_HOST_HANDLES];
	struct named *nm;
	int rc = 0;

	g->nhandles = s->count;
	g->handles = gcalloc(g, s->count, sizeof(*g->handles));
	nm = calloc(s->count + 1, sizeof(*nm));
	if (!g->handles || !nm) {
		free(nm);
		return IPUE_ENOMEM;
	}
	for (uint32_t i = 0; i < s->count && !rc; i++) {
		struct ipu_graph_host_handle h;
		struct ipue_rt_handle *rh = &g->handles[i];

		rec(L, IPU_GRAPH_SEC_HOST_HANDLES, i, &h);
		rh->name = str(L, h.name);
		if (!rh->name)
			rc = fail(L, IPU_GRAPH_SEC_HOST_HANDLES, i, "bad name string %u", h.name);
		else if (h.tensor >= g->ntensors)
			rc = fail(L, IPU_GRAPH_SEC_HOST_HANDLES, i, "handle '%s': tensor %u out of range (%u)",
				  rh->name, h.tensor, g->ntensors);
		else if (!h.access || (h.access & ~(IPU_HANDLE_READ | IPU_HANDLE_WRITE)))
			rc = fail(L, IPU_GRAPH_SEC_HOST_HANDLES, i, "handle '%s': bad access 0x%x",
				  rh->name, h.access);
		rh->tensor = h.tensor;
		rh->access = h.access;
		nm[i].name = rh->name;
		nm[i].idx = i;
	}
	if (!rc && s->count > 1) {
		qsort(nm, s->count, sizeof(*nm), named_cmp);
		for (uint32_t i = 1; i < s->count && !rc; i++)
			if (!strcmp(nm[i].name, nm[i - 1].name))
				rc = fail(L, IPU_GRAPH_SEC_HOST_HANDLES, nm[i].idx,
					  "duplicate handle name '%s'", nm[i].name);
	}
	free(nm);
	return rc;
}

static int load_metadata(struct loader *L)
{
	struct ipue_graph *g = L->g;
	const struct ipue_section *s = &L->s[IPU_GRAPH_SEC_METADATA];

	g->nmeta = s->count;
	g->meta = gcalloc(g, (uint64_t)s->count * 2, sizeof(*g->meta));
	if (!g->meta)
		return IPUE_ENOMEM;
	for (uint32_t i = 0; i < s->count; i++) {
		struct ipu_graph_kv kv;

		rec(L, IPU_GRAPH_SEC_METADATA, i, &kv);
		g->meta[2 * i] = str(L, kv.key);
		g->meta[2 * i + 1] = str(L, kv.value);
		if (!g->meta[2 * i] || !g->meta[2 * i + 1])
			return fail(L, IPU_GRAPH_SEC_METADATA, i, "bad key %u or value %u string",
				    kv.key, kv.value);
	}
	return 0;
}

static int load_init(struct loader *L)
{
	struct ipue_graph *g = L->g;
	const struct ipue_section *s = &L->s[IPU_GRAPH_SEC_INIT];
	const struct ipue_section *data = &L->s[IPU_GRAPH_SEC_DATA];

	for (uint32_t i = 0; i < s->count; i++) {
		struct ipu_graph_init in;

		rec(L, IPU_GRAPH_SEC_INIT, i, &in);
		if (!tile_range_ok(L, in.tile, in.tile_offset, in.bytes))
			return fail(L, IPU_GRAPH_SEC_INIT, i, "tile %u bytes [%u, +%u) outside the tile's plan",
				    in.tile, in.tile_offset, in.bytes);
		if (!range_ok(in.data_offset, in.bytes, data->size))
			return fail(L, IPU_GRAPH_SEC_INIT, i, "data [%u, +%u) outside the data section (%llu bytes)",
				    in.data_offset, in.bytes, (unsigned long long)data->size);
		if (in.bytes && g->tile_mem[in.tile])	/* else another member's */
			memcpy(g->tile_mem[in.tile] + in.tile_offset, data->p + in.data_offset, in.bytes);
	}
	return 0;
}

/* ------------------------------------------------------- memory regions */

/* one memory region record is sound (inside its tile's plan, known flags, steps in order) */
static int region_ok(struct loader *L, uint32_t i, const struct ipu_graph_mem_region *mr)
{
	const uint32_t known = IPU_GRAPH_REGION_ALWAYS_LIVE | IPU_GRAPH_REGION_TENSOR;

	if (mr->tile >= L->g->tiles || !L->g->tile_bytes[mr->tile])
		return fail(L, IPU_GRAPH_SEC_MEMORY_REGIONS, i, "tile %u has no plan", mr->tile);
	if (!tile_range_ok(L, mr->tile, mr->tile_offset, mr->bytes))
		return fail(L, IPU_GRAPH_SEC_MEMORY_REGIONS, i,
			    "tile %u bytes [%u, +%u) outside the tile's plan", mr->tile,
			    mr->tile_offset, mr->bytes);
	if (mr->flags & ~known)
		return fail(L, IPU_GRAPH_SEC_MEMORY_REGIONS, i, "unknown flags 0x%x", mr->flags);
	if (mr->first_step > mr->last_step)
		return fail(L, IPU_GRAPH_SEC_MEMORY_REGIONS, i, "live steps [%u, %u] reversed",
			    mr->first_step, mr->last_step);
	return 0;
}

/*
 * The builder's memory plan (optional): validated so that a corrupt table
 * is refused like any other record, then ignored, or with
 * IPUE_CONFIG_MEMCHECK handed to the checker (memcheck.c;
 * docs/graph-format.md, "Memory regions").
 */
static int load_memory_regions(struct loader *L)
{
	const struct ipue_section *s = &L->s[IPU_GRAPH_SEC_MEMORY_REGIONS];
	struct ipu_graph_mem_region *all = NULL;
	int rc = 0;

	if (L->e->memcheck && s->count) {
		all = malloc((size_t)s->count * sizeof(*all));
		if (!all)
			return IPUE_ENOMEM;
	}
	for (uint32_t i = 0; i < s->count && !rc; i++) {
		struct ipu_graph_mem_region mr;

		rec(L, IPU_GRAPH_SEC_MEMORY_REGIONS, i, &mr);
		rc = region_ok(L, i, &mr);
		if (all)
			all[i] = mr;
	}
	if (!rc && all)
		rc = ipue_memcheck_load(L->g, L->g->tiles, all, s->count, L->err);
	free(all);
	return rc;
}

/* ------------------------------------------------------------------ entry */

/*
 * Validate buf and build a graph for engine e. On success *out owns the
 * new graph (free with ipue_graph_free). Returns 0, IPUE_EFORMAT,
 * IPUE_EMODEL or IPUE_EMEMPLAN (err filled), or IPUE_ENOMEM.
 */
int ipue_graph_load(struct ipue_engine *e, const void *buf, size_t len,
		    struct ipue_graph **out, struct ipue_load_error *err)
{
	struct loader L;
	int rc;

	memset(&L, 0, sizeof(L));
	*out = NULL;
	L.e = e;
	L.err = err;
	L.bin = buf;
	L.len = len;
	if (err)
		memset(err, 0, sizeof(*err));
	if (!buf && len)
		return IPUE_EINVAL;
	L.g = calloc(1, sizeof(*L.g));
	if (!L.g)
		return IPUE_ENOMEM;
	L.g->host_bytes = sizeof(*L.g);
	rc = load_container(&L);
	if (!rc) rc = load_strings(&L);
	if (!rc) rc = load_tiles(&L);
	if (!rc) rc = load_tensors(&L);
	if (!rc) rc = load_vertices(&L);
	if (!rc) rc = load_compute_sets(&L);
	if (!rc) rc = load_exchanges(&L);
	if (!rc) rc = load_streams(&L);
	if (!rc) rc = load_programs(&L);
	if (!rc) rc = ipue_fuse_build(L.g, L.g->tiles);
	if (!rc) rc = load_handles(&L);
	if (!rc) rc = load_metadata(&L);
	if (!rc) rc = load_init(&L);
	if (!rc) rc = ipue_guards_load(L.g, &L.c, err);
	if (!rc) rc = load_memory_regions(&L);
	free(L.vcycles);
	free(L.foff);
	free(L.stand_in);
	for (unsigned t = 0; t < IPU_GRAPH_SEC_COUNT_; t++)
		free(L.unpacked[t]);
	if (rc) {
		if (err && !err->status) {
			err->status = rc;
			snprintf(err->section_name, sizeof(err->section_name), "%s", "-");
			snprintf(err->message, sizeof(err->message), "%s", ipue_strerror(rc));
			err->record = IPU_GRAPH_NONE;
		}
		ipue_graph_free(L.g);
		return rc;
	}
	*out = L.g;
	return 0;
}

/* Free a graph and everything it owns; NULL is a no-op. */
void ipue_graph_free(struct ipue_graph *g)
{
	if (!g)
		return;
	for (uint32_t i = 0; g->cs && i < g->ncs; i++) {
		free(g->cs[i].v);
		free(g->cs[i].split);
		free(g->cs[i].vtile);
		free(g->cs[i].wr);
	}
	for (uint32_t i = 0; g->ex && i < g->nex; i++) {
		free(g->ex[i].c);
		free(g->ex[i].push);
		free(g->ex[i].split);
	}
	for (uint32_t i = 0; g->streams && i < g->nstreams; i++)
		free(g->streams[i].fifo);
	ipue_fuse_free(g);
	ipue_arena_free(&g->arena);
	free((void *)g->strings);
	free(g->tile_mem);
	free(g->tile_bytes);
	free(g->tensors);
	free(g->intervals);
	free(g->fields);
	free(g->params);
	free(g->vertices);
	free(g->cs);
	free(g->ex);
	free(g->nodes);
	free(g->children);
	free(g->entries);
	free(g->entry_names);
	free(g->streams);
	free(g->handles);
	free(g->meta);
	free(g->guards);
	free(g->guard_first);
	free(g->written);
	ipue_memcheck_free(g->mc);
	ipue_multi_free(g);
	free(g);
}
