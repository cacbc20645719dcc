// SPDX-License-Identifier: MIT
/*
 * libipudev, graph builder: the INPUT_GUARDS records of a graph
 * (docs/graph-format.md "Input guards"), found from the records the writer
 * produced. Per entry program, its nodes are walked in order over the bytes
 * of every host-writable tensor, one bit per element: an access that reads
 * an element not yet written makes a READS record; a program that leaves
 * every element written makes a WRITES record. Works on the format's
 * records only, so it follows whatever the builder emits.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codelets.h"
#include "guards.h"

/* the bytes of one guarded tensor's interval on a tile */
struct span {
	uint32_t tile, lo, hi;	/* bytes [lo, hi) */
	uint32_t gt;		/* guarded tensor index */
	uint32_t es;		/* element size */
	uint64_t elem0;		/* element at lo */
};

struct walk {
	const struct ipu__guard_graph *gr;
	struct span *sp;
	size_t nsp;
	uint32_t ng;		/* guarded tensors */
	uint32_t *gt_tensor;	/* [ng] tensor id */
	uint64_t *words;	/* [ng] bitmap words */
	uint64_t **bits;	/* [ng] written elements now */
	uint8_t *reads;		/* [ng] read before written */
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->tile != y->tile)
		return x->tile < y->tile ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* first span of tile t (or nsp) */
static size_t span_lower(const struct walk *w, uint32_t tile)
{
	size_t lo = 0, hi = w->nsp;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->sp[mid].tile < tile)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* are all bits [b, e) of m set? */
static int bits_all(const uint64_t *m, uint64_t b, uint64_t e)
{
	for (uint64_t i = b; i < e; i++)
		if (!(m[i / 64] >> (i % 64) & 1))
			return 0;
	return 1;
}

static void bits_set(uint64_t *m, uint64_t b, uint64_t e)
{
	for (uint64_t i = b; i < e; i++)
		m[i / 64] |= 1ull << (i % 64);
}

/* bytes [off, off + bytes) of tile are read (write 0) or written (1) */
static void access_bytes(struct walk *w, uint32_t tile, uint32_t off, uint64_t bytes, int write)
{
	uint64_t end = (uint64_t)off + bytes;

	for (size_t i = span_lower(w, tile); i < w->nsp && w->sp[i].tile == tile &&
	     w->sp[i].lo < end; i++) {
		const struct span *s = &w->sp[i];
		uint64_t b = off > s->lo ? off : s->lo, e = end < s->hi ? end : s->hi;
		uint64_t eb, ee;

		if (b >= e)
			continue;
		eb = s->elem0 + (b - s->lo) / s->es;
		ee = s->elem0 + (e - s->lo + s->es - 1) / s->es;
		if (write)
			bits_set(w->bits[s->gt], eb, ee);
		else if (!w->reads[s->gt] && !bits_all(w->bits[s->gt], eb, ee))
			w->reads[s->gt] = 1;
	}
}

/* every interval of tensor t is read or written */
static void access_tensor(struct walk *w, uint32_t t, int write)
{
	const struct ipu_graph_tensor *tr = &w->gr->t[t];
	unsigned es = ipu_dtype_size(tr->dtype);

	for (uint32_t k = 0; k < tr->interval_count; k++) {
		const struct ipu_graph_interval *iv = &w->gr->iv[tr->first_interval + k];

		access_bytes(w, iv->tile, iv->tile_offset, (uint64_t)iv->count * es, write);
	}
}

/* a compute set: every vertex reads (In, InOut), then every vertex writes */
static void walk_cs(struct walk *w, uint32_t cs)
{
	const struct ipu__guard_graph *gr = w->gr;
	const struct ipu_graph_compute_set *c = &gr->cs[cs];

	for (int write = 0; write <= 1; write++)
		for (uint32_t i = 0; i < c->count; i++) {
			const struct ipu_graph_vertex *v = &gr->v[gr->csv[c->first + i]];
			const struct ipue_codelet *cl = ipue_codelet_find(v->codelet);

			for (unsigned k = 0; cl && k < v->nfields && k < IPUE_MAX_FIELDS; k++) {
				const struct ipu_graph_field *f = &gr->f[v->first_field + k];
				unsigned dir = cl->field[k].dir;

				if (write ? !(dir & IPUE_FIELD_OUT) : !(dir & IPUE_FIELD_IN))
					continue;
				access_bytes(w, v->tile, f->tile_offset,
					     (uint64_t)f->count * ipu_dtype_size(f->dtype), write);
			}
		}
}

static void walk_ex(struct walk *w, uint32_t ex)
{
	const struct ipu_graph_exchange *x = &w->gr->ex[ex];

	for (int write = 0; write <= 1; write++)
		for (uint32_t i = 0; i < x->copy_count; i++) {
			const struct ipu_graph_copy *c = &w->gr->cp[x->first_copy + i];

			access_bytes(w, write ? c->dst_tile : c->src_tile,
				     write ? c->dst_offset : c->src_offset, c->bytes, write);
		}
}

/* the written state, to run a branch or a loop body that may not run */
static uint64_t *state_save(const struct walk *w)
{
	uint64_t n = 0, *s;

	for (uint32_t i = 0; i < w->ng; i++)
		n += w->words[i];
	s = malloc((n ? n : 1) * sizeof(*s));
	for (uint32_t i = 0, at = 0; s && i < w->ng; at += w->words[i], i++)
		memcpy(s + at, w->bits[i], w->words[i] * sizeof(*s));
	return s;
}

/* restore saved state; with and_now, keep only what both have written */
static void state_restore(struct walk *w, const uint64_t *s, int and_now)
{
	for (uint32_t i = 0, at = 0; i < w->ng; at += w->words[i], i++)
		for (uint64_t k = 0; k < w->words[i]; k++)
			w->bits[i][k] = and_now ? w->bits[i][k] & s[at + k] : s[at + k];
}

static int walk_node(struct walk *w, uint32_t id, unsigned depth);

/* node id (NONE: nothing) in a state thrown away after it */
static int walk_maybe(struct walk *w, uint32_t id, unsigned depth)
{
	uint64_t *s;
	int rc;

	if (id == IPU_GRAPH_NONE)
		return 0;
	s = state_save(w);
	if (!s)
		return -ENOMEM;
	rc = walk_node(w, id, depth);
	state_restore(w, s, 0);
	free(s);
	return rc;
}

/* If: both branches from the same state; after it, what both wrote */
static int walk_if(struct walk *w, const struct ipu_graph_prog_node *n, unsigned depth)
{
	uint64_t *s0 = state_save(w), *s1 = NULL;
	int rc;

	if (!s0)
		return -ENOMEM;
	rc = n->b == IPU_GRAPH_NONE ? 0 : walk_node(w, n->b, depth);
	if (!rc)
		s1 = state_save(w);
	if (!rc && !s1)
		rc = -ENOMEM;
	if (!rc) {
		state_restore(w, s0, 0);
		rc = n->c == IPU_GRAPH_NONE ? 0 : walk_node(w, n->c, depth);
		state_restore(w, s1, 1);
	}
	free(s0);
	free(s1);
	return rc;
}

static int walk_node(struct walk *w, uint32_t id, unsigned depth)
{
	const struct ipu_graph_prog_node *n = &w->gr->nodes[id];
	int rc = 0;

	if (depth > IPU__GUARD_MAX_DEPTH)
		return -ELOOP;
	switch (n->kind) {
	case IPU_PROG_SEQUENCE:
		for (uint32_t k = 0; k < n->b && !rc; k++)
			rc = walk_node(w, w->gr->children[n->a + k], depth + 1);
		return rc;
	case IPU_PROG_EXECUTE:
		walk_cs(w, n->a);
		return 0;
	case IPU_PROG_COPY:
		walk_ex(w, n->a);
		return 0;
	case IPU_PROG_REPEAT:	/* runs at least once when a > 0 */
		return n->a ? walk_node(w, n->b, depth + 1) : 0;
	case IPU_PROG_REPEAT_WHILE_TRUE:
		if (n->c != IPU_GRAPH_NONE)
			rc = walk_node(w, n->c, depth + 1);
		if (!rc)
			access_tensor(w, n->a, 0);
		return rc ? rc : walk_maybe(w, n->b, depth + 1);
	case IPU_PROG_IF:
		access_tensor(w, n->a, 0);
		return walk_if(w, n, depth + 1);
	case IPU_PROG_STREAM_COPY:
		access_tensor(w, n->b, n->c == IPU_STREAM_HOST_TO_DEVICE);
		return 0;
	case IPU_PROG_ABORT_ON_CONDITION:
		access_tensor(w, n->a, 0);
		return 0;
	default:		/* Sync */
		return 0;
	}
}

/* guarded tensors (of host-writable handles), their spans and bitmaps */
static int walk_init(struct walk *w, const struct ipu__guard_graph *gr)
{
	memset(w, 0, sizeof(*w));
	w->gr = gr;
	w->gt_tensor = calloc(gr->nh + 1, sizeof(*w->gt_tensor));
	w->words = calloc(gr->nh + 1, sizeof(*w->words));
	w->bits = calloc(gr->nh + 1, sizeof(*w->bits));
	w->reads = calloc(gr->nh + 1, 1);
	if (!w->gt_tensor || !w->words || !w->bits || !w->reads)
		return -ENOMEM;
	for (uint32_t h = 0; h < gr->nh; h++) {
		uint32_t t = gr->h[h].tensor, g;

		if (!(gr->h[h].access & IPU_HANDLE_WRITE))
			continue;
		for (g = 0; g < w->ng && w->gt_tensor[g] != t; g++)
			;
		if (g < w->ng)
			continue;
		w->gt_tensor[w->ng] = t;
		w->words[w->ng] = (gr->t[t].elements + 63) / 64;
		w->ng++;
		w->nsp += gr->t[t].interval_count;
	}
	w->sp = calloc(w->nsp + 1, sizeof(*w->sp));
	if (!w->sp)
		return -ENOMEM;
	for (uint32_t g = 0, n = 0; g < w->ng; g++) {
		const struct ipu_graph_tensor *tr = &gr->t[w->gt_tensor[g]];
		uint32_t es = ipu_dtype_size(tr->dtype);

		w->bits[g] = calloc(w->words[g] ? w->words[g] : 1, sizeof(uint64_t));
		if (!w->bits[g])
			return -ENOMEM;
		for (uint32_t k = 0; k < tr->interval_count; k++, n++) {
			const struct ipu_graph_interval *iv = &gr->iv[tr->first_interval + k];

			w->sp[n] = (struct span){ iv->tile, iv->tile_offset,
						  iv->tile_offset + iv->count * es, g, es, iv->begin };
		}
	}
	qsort(w->sp, w->nsp, sizeof(*w->sp), span_cmp);
	return 0;
}

static void walk_free(struct walk *w)
{
	for (uint32_t g = 0; w->bits && g < w->ng; g++)
		free(w->bits[g]);
	free(w->bits);
	free(w->sp);
	free(w->gt_tensor);
	free(w->words);
	free(w->reads);
}

/* the state before any program: nothing written but the initial data */
static void walk_reset(struct walk *w)
{
	for (uint32_t g = 0; g < w->ng; g++) {
		memset(w->bits[g], 0, w->words[g] * sizeof(uint64_t));
		w->reads[g] = 0;
	}
	for (uint32_t i = 0; i < w->gr->ninit; i++)
		access_bytes(w, w->gr->init[i].tile, w->gr->init[i].tile_offset,
			     w->gr->init[i].bytes, 1);
}

/* program k's records, appended to out[*n] */
static void program_guards(struct walk *w, uint32_t k, struct ipu_graph_guard *out, size_t *n)
{
	for (uint32_t h = 0; h < w->gr->nh; h++) {
		uint32_t g, flags = 0;

		if (!(w->gr->h[h].access & IPU_HANDLE_WRITE))
			continue;
		for (g = 0; w->gt_tensor[g] != w->gr->h[h].tensor; g++)
			;
		if (w->reads[g])
			flags |= IPU_GRAPH_GUARD_READS;
		if (bits_all(w->bits[g], 0, w->gr->t[w->gt_tensor[g]].elements))
			flags |= IPU_GRAPH_GUARD_WRITES;
		if (flags)
			out[(*n)++] = (struct ipu_graph_guard){ k, h, flags, 0 };
	}
}

int ipu__guards_find(const struct ipu__guard_graph *gr, struct ipu_graph_guard **out, size_t *n)
{
	struct walk w;
	int rc;

	*out = NULL;
	*n = 0;
	rc = walk_init(&w, gr);
	if (!rc && w.ng) {
		*out = calloc((size_t)gr->nent * gr->nh, sizeof(**out));
		rc = *out ? 0 : -ENOMEM;
	}
	for (uint32_t k = 0; !rc && w.ng && k < gr->nent; k++) {
		walk_reset(&w);
		rc = walk_node(&w, gr->ent[k].node, 1);
		if (!rc)
			program_guards(&w, k, *out, n);
	}
	walk_free(&w);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}
