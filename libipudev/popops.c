// SPDX-License-Identifier: MIT
/*
 * popops-level operations: cast, reductions along any axes, comparisons,
 * select and argmax. They reuse partition.c's elementwise plan (binary ops
 * with numpy broadcasting) and its row reduction; cast and argmax add
 * their own vertices. See docs/builder.md, "popops-level ops".
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"

_Static_assert((int)IPU_CMP_EQ == (int)IPUE_BOP_EQ && (int)IPU_CMP_GE == (int)IPUE_BOP_GE, "compare ops");

#define WORKERS 6
#define MIN_CHUNK 64		/* elements: smaller pieces stay one vertex */

static int oom(const char *op, struct ipu_error *err)
{
	return ipu__err(err, -ENOMEM, "%s: out of memory", op);
}

/* "<base>/<suffix>" into buf */
static const char *sub(char *buf, size_t n, const char *base, const char *suffix)
{
	snprintf(buf, n, "%s/%s", base, suffix);
	return buf;
}

static int append(struct ipu_graph *g, int seq, int node, struct ipu_error *err)
{
	return node < 0 ? node : ipu_prog_append(g, seq, node, err);
}

static struct ipu__rawfield rawf(uint32_t off, uint64_t count, unsigned dtype, int tensor, uint64_t begin)
{
	struct ipu__rawfield f = { off, (uint32_t)count, (uint8_t)dtype, tensor, begin };

	return f;
}

/* ------------------------------------------------------------------------ */
/* cast                                                                     */

IPU_API int ipu_cast(struct ipu_graph *g, int seq, int in, unsigned dtype, const char *name,
		     struct ipu_error *err)
{
	const struct ipu__tensor *x;
	struct ipu__iv *iv;
	size_t niv;
	char buf[200];
	int out, cs, r = 0;

	if ((r = ipu__check_op_input(g, in, name, "ipu_cast", "input", err)))
		return r;
	if (dtype != IPU_DTYPE_F32 && dtype != IPU_DTYPE_F16 && dtype != IPU_DTYPE_I32)
		return ipu__err(err, -EINVAL, "ipu_cast '%s': dtype %u is not f32, f16 or i32", name, dtype);
	if ((out = ipu__output_like(g, name, in, dtype, err)) < 0)
		return out;
	if ((cs = ipu_graph_add_compute_set(g, sub(buf, sizeof(buf), name, "cast"), err)) < 0)
		return cs;
	x = ipu__graph_tensor(g, in);
	niv = x->niv;
	if (!(iv = malloc(niv * sizeof(*iv))))
		return oom("ipu_cast", err);
	memcpy(iv, x->iv, niv * sizeof(*iv));	/* adding vertices leaves tensors alone, but be safe */
	for (size_t i = 0; i < niv && !r; i++) {
		unsigned ies = ipu_dtype_size(x->dtype), ndt = x->dtype;
		uint64_t c = iv[i].count / WORKERS;

		/* up to WORKERS vertices per interval, none below MIN_CHUNK elements */
		c = c < MIN_CHUNK ? MIN_CHUNK : (c + 7) & ~(uint64_t)7;
		for (uint64_t b = 0; b < iv[i].count && !r; b += c) {
			uint64_t n = iv[i].count - b < c ? iv[i].count - b : c, e = iv[i].begin + b;
			struct ipu__rawfield f[2];
			long oo = ipu__piece_off(g, out, e, n, "ipu_cast", err);

			if (oo < 0) {
				r = (int)oo;
				break;
			}
			f[0] = rawf(iv[i].off + (uint32_t)(b * ies), n, ndt, in, e);
			f[1] = rawf((uint32_t)oo, n, dtype, out, e);
			r = ipu__add_vertex_raw(g, cs, IPUE_CODELET_CAST, iv[i].tile, f, 2, NULL, 0, err);
			r = r < 0 ? r : 0;
		}
		x = ipu__graph_tensor(g, in);
	}
	free(iv);
	if (r)
		return r;
	if ((r = append(g, seq, ipu_prog_execute(g, cs, err), err)) < 0)
		return r;
	return out;
}

/* ------------------------------------------------------------------------ */
/* comparisons and select                                                   */

IPU_API int ipu_compare(struct ipu_graph *g, int seq, unsigned op, int a, int b, const char *name,
			struct ipu_error *err)
{
	struct ipu__binspec sp = { "ipu_compare", "compare", IPUE_CODELET_BINARY(op), 0, IPU_DTYPE_I32, -1 };
	int r;

	if ((r = ipu__check_op_input(g, a, name, "ipu_compare", "a", err)))
		return r;
	if (op < IPU_CMP_EQ || op > IPU_CMP_GE)
		return ipu__err(err, -EINVAL, "ipu_compare '%s': unknown op %u", name, op);
	return ipu__binary_op(g, seq, &sp, a, b, 0, NULL, name, err);
}

IPU_API int ipu_select(struct ipu_graph *g, int seq, int cond, int a, int b, const char *name,
		       struct ipu_error *err)
{
	struct ipu__binspec sp = { "ipu_select", "select", IPUE_CODELET_SELECT, 0, 0, cond };
	const struct ipu__tensor *tc, *ta;
	int r;

	if ((r = ipu__check_op_input(g, a, name, "ipu_select", "a", err)) ||
	    (r = ipu__check_op_input(g, cond, name, "ipu_select", "cond", err)))
		return r;
	tc = ipu__graph_tensor(g, cond);
	ta = ipu__graph_tensor(g, a);
	if (tc->dtype != IPU_DTYPE_I32)
		return ipu__err(err, -EINVAL, "ipu_select '%s': cond '%s' is %s, must be i32 (0: b, else a)",
				name, tc->name, ipu_dtype_name(tc->dtype));
	if (tc->rank != ta->rank || memcmp(tc->shape, ta->shape, ta->rank * sizeof(*ta->shape)))
		return ipu__err(err, -EINVAL, "ipu_select '%s': cond '%s' must have the shape of a '%s' "
				"(only b is broadcast)", name, tc->name, ta->name);
	return ipu__binary_op(g, seq, &sp, a, b, 0, NULL, name, err);
}

/* ------------------------------------------------------------------------ */
/* reductions along axes                                                    */

/*
 * The axes of a reduction of a rank-@rank tensor as a mask (negative axes
 * count from the end, as numpy's). 0 or -EINVAL naming the axis.
 */
static int axes_mask(const int *axes, unsigned naxes, unsigned rank, const char *name, const char *tname,
		     unsigned *mask, struct ipu_error *err)
{
	*mask = 0;
	if (naxes && !axes)
		return ipu__err(err, -EINVAL, "ipu_reduce_axes '%s': %u axes but axes is NULL", name, naxes);
	for (unsigned i = 0; i < naxes; i++) {
		int ax = axes[i] < 0 ? axes[i] + (int)rank : axes[i];

		if (ax < 0 || ax >= (int)rank)
			return ipu__err(err, -EINVAL, "ipu_reduce_axes '%s': axis %d is out of range for "
					"tensor '%s' of rank %u", name, axes[i], tname, rank);
		if (*mask & (1u << ax))
			return ipu__err(err, -EINVAL, "ipu_reduce_axes '%s': axis %d is given twice", name,
					axes[i]);
		*mask |= 1u << ax;
	}
	return 0;
}

/*
 * Reductions over leading or middle axes (popops::reduce's plan): the input
 * is seen as blocks of Ra rows of C elements (Ra, C: the last reduced and
 * the last kept group of dimensions); every block adds into one output row
 * ko of C elements. Stage 1 (compute set NAME/reduce): a ReduceColumns
 * vertex per contiguous run of a tile's interval turns it into partials for
 * the columns it holds, padded with the identity to whole ranges of w
 * columns. Stage 2 (exchange NAME/gather, compute set NAME/reduce2): each
 * range's P partial rows gathered [P][w] on its owner tile and reduced
 * there; when P > COLS_FANIN, groups of COLS_FANIN rows first reduce on
 * tiles of their own (NAME/gather2, NAME/reduce3, ...), a tree. Copies go
 * by (partial row, range), never by element.
 */
#define COLS_BUDGET_DIV 32	/* a gather buffer: at most 1/32 of a tile's memory */
#define COLS_FANIN 16		/* partial rows of a range reduced together; more go through levels */

/* a stage-1 vertex: n elements of in at in_off on tile, from column c0 of output row ko */
struct colv {
	uint32_t tile, in_off, n, c0;
	uint32_t lo, hi;	/* the partial's columns [lo, hi), whole ranges once w is known */
	uint32_t buf;		/* the partial's offset on tile */
	uint64_t ko, begin;
};

struct colred {
	int in, out;
	unsigned codelet, dt, odt;
	uint64_t C, Ra, nko;	/* row length, rows per block, output rows */
	unsigned ngrp;		/* groups of dimensions before the Ra group, outermost first */
	uint64_t gsize[IPU_MAX_RANK];
	unsigned char gkept[IPU_MAX_RANK];
	uint32_t w;		/* columns per range; ranges of output row ko: ko * nk + k */
	uint64_t nk, nr;
	struct colv *v;
	size_t nv, cv;
	size_t *first, *list;	/* the vertices of range r: list[first[r] .. first[r + 1]) */
	const char *name;
};

/* the output row of block ob: its kept coordinates among the outer groups */
static uint64_t col_block_row(const struct colred *x, uint64_t ob)
{
	uint64_t ko = 0, mul = 1;

	for (unsigned i = x->ngrp; i-- > 0;) {
		if (x->gkept[i]) {
			ko += ob % x->gsize[i] * mul;
			mul *= x->gsize[i];
		}
		ob /= x->gsize[i];
	}
	return ko;
}

static int col_push(struct colred *x, uint32_t tile, uint32_t off, uint64_t n, uint64_t c0, uint64_t ko,
		    uint64_t begin)
{
	if (x->nv == x->cv) {
		size_t nc = x->cv ? 2 * x->cv : 256;
		struct colv *p = realloc(x->v, nc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		x->v = p;
		x->cv = nc;
	}
	x->v[x->nv++] = (struct colv){ tile, off, (uint32_t)n, (uint32_t)c0, (uint32_t)c0,
				       (uint32_t)(c0 + n < x->C ? c0 + n : x->C), 0, ko, begin };
	return 0;
}

/*
 * The vertices of a run of n elements within one block, at off on tile,
 * from column c0: the rest of a started row on its own (so that every
 * partial covers one window of columns), then whole rows in up to WORKERS
 * vertices.
 */
static int col_run(struct colred *x, uint32_t tile, uint32_t off, uint64_t n, uint64_t c0, uint64_t ko,
		   uint64_t begin)
{
	unsigned es = ipu_dtype_size(x->dt);
	uint64_t rows, per, nc;

	if (c0 && c0 + n > x->C) {
		uint64_t h = x->C - c0;

		if (col_push(x, tile, off, h, c0, ko, begin))
			return -ENOMEM;
		off += (uint32_t)(h * es);
		begin += h;
		n -= h;
		c0 = 0;
	}
	rows = (c0 + n + x->C - 1) / x->C;
	nc = rows < WORKERS ? rows : WORKERS;
	if (n < 2 * MIN_CHUNK || nc < 2)
		nc = 1;
	per = (rows + nc - 1) / nc * x->C;	/* whole rows: every chunk starts at c0 */
	for (uint64_t b = 0; b < n; b += per)
		if (col_push(x, tile, off + (uint32_t)(b * es), n - b < per ? n - b : per, c0, ko, begin + b))
			return -ENOMEM;
	return 0;
}

/* the stage-1 vertices: each interval of in cut at block boundaries */
static int col_vertices(struct ipu_graph *g, struct colred *x, struct ipu_error *err)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, x->in);
	unsigned es = ipu_dtype_size(x->dt);
	uint64_t bl = x->Ra * x->C;

	for (size_t i = 0; i < t->niv; i++) {
		const struct ipu__iv *iv = &t->iv[i];

		for (uint64_t e = iv->begin; e < iv->begin + iv->count;) {
			uint64_t ob = e / bl, end = (ob + 1) * bl, n;

			if (end > iv->begin + iv->count)
				end = iv->begin + iv->count;
			n = end - e;
			if (col_run(x, iv->tile, iv->off + (uint32_t)((e - iv->begin) * es), n, (e - ob * bl) % x->C,
				    col_block_row(x, ob), e))
				return oom("ipu_reduce_axes", err);
			e = end;
		}
	}
	return 0;
}

/*
 * The range width w: as wide as lets a gather of the most partial rows a
 * column has (at most COLS_FANIN) fit the budget; the partials' windows
 * then rounded out to whole ranges.
 */
static int col_width(struct ipu_graph *g, struct colred *x, struct ipu_error *err)
{
	uint64_t on = x->nko * x->C, pmax = 0, budget;
	int64_t *d = calloc(on + 1, sizeof(*d)), cov = 0;

	if (!d)
		return oom("ipu_reduce_axes", err);
	for (size_t i = 0; i < x->nv; i++) {
		d[x->v[i].ko * x->C + x->v[i].lo]++;
		d[x->v[i].ko * x->C + x->v[i].hi]--;
	}
	for (uint64_t o = 0; o < on; o++)
		if ((cov += d[o]) > (int64_t)pmax)
			pmax = (uint64_t)cov;
	free(d);
	budget = ipu_graph_tile_memory(g) / COLS_BUDGET_DIV / ipu_dtype_size(x->odt);
	pmax = pmax < COLS_FANIN ? pmax : COLS_FANIN;	/* a gather holds at most COLS_FANIN rows */
	x->w = (uint32_t)(budget / pmax < x->C ? budget / pmax : x->C);
	if (!x->w)
		x->w = 1;
	x->nk = (x->C + x->w - 1) / x->w;
	x->nr = x->nko * x->nk;
	for (size_t i = 0; i < x->nv; i++) {
		struct colv *v = &x->v[i];

		v->lo -= v->lo % x->w;
		v->hi = (uint32_t)((v->hi + x->w - 1) / x->w * x->w < x->C ? (v->hi + x->w - 1) / x->w * x->w : x->C);
	}
	return 0;
}

/* the vertices of every range (CSR in x->first, x->list) */
static int col_ranges(struct colred *x, struct ipu_error *err)
{
	size_t *fill;

	x->first = calloc(x->nr + 1, sizeof(*x->first));
	fill = calloc(x->nr + 1, sizeof(*fill));
	if (!x->first || !fill) {
		free(fill);
		return oom("ipu_reduce_axes", err);
	}
	for (size_t i = 0; i < x->nv; i++)
		for (uint32_t k = x->v[i].lo / x->w; k * (uint64_t)x->w < x->v[i].hi; k++)
			x->first[x->v[i].ko * x->nk + k + 1]++;
	for (uint64_t r = 0; r < x->nr; r++)
		x->first[r + 1] += x->first[r];
	if (!(x->list = malloc((x->first[x->nr] ? x->first[x->nr] : 1) * sizeof(*x->list)))) {
		free(fill);
		return oom("ipu_reduce_axes", err);
	}
	for (size_t i = 0; i < x->nv; i++)
		for (uint32_t k = x->v[i].lo / x->w; k * (uint64_t)x->w < x->v[i].hi; k++) {
			uint64_t r = x->v[i].ko * x->nk + k;

			x->list[x->first[r] + fill[r]++] = i;
		}
	free(fill);
	return 0;
}

/* range r's first column (in its output row) and width */
static uint32_t col_range(const struct colred *x, uint64_t r, uint32_t *width)
{
	uint64_t c = r % x->nk * x->w;

	*width = (uint32_t)(x->C - c < x->w ? x->C - c : x->w);
	return (uint32_t)c;
}

/* the output, range by range on its owner: the tile of its one partial, else spread evenly */
static int col_output(struct ipu_graph *g, struct colred *x, uint32_t *owner, const uint32_t *oshape,
		      unsigned orank, struct ipu_error *err)
{
	int r;

	if ((x->out = ipu_graph_add_tensor(g, x->name, x->odt, orank, oshape, err)) < 0)
		return x->out;
	for (uint64_t rr = 0; rr < x->nr; rr++) {
		uint32_t wr, c = col_range(x, rr, &wr);

		owner[rr] = x->first[rr + 1] - x->first[rr] == 1 ? x->v[x->list[x->first[rr]]].tile :
			    (uint32_t)(rr * ipu_graph_tiles(g) / x->nr);
		if ((r = ipu_graph_map(g, x->out, rr / x->nk * x->C + c, wr, owner[rr], err)))
			return r;
	}
	return 0;
}

/* stage 1: every vertex's partial, allocated on its tile */
static int col_stage1(struct ipu_graph *g, int seq, struct colred *x, struct ipu_error *err)
{
	unsigned oes = ipu_dtype_size(x->odt);
	char buf[200];
	int cs = ipu_graph_add_compute_set(g, sub(buf, sizeof(buf), x->name, "reduce"), err), r;

	if (cs < 0)
		return cs;
	sub(buf, sizeof(buf), x->name, "partials");
	for (size_t i = 0; i < x->nv; i++) {
		struct colv *v = &x->v[i];
		struct ipu__rawfield f[2];
		uint32_t prm[4] = { 0, (uint32_t)x->C, v->c0, v->lo };
		long off = ipu__tile_alloc(g, v->tile, (uint64_t)(v->hi - v->lo) * oes, 8, buf, err);

		if (off < 0)
			return (int)off;
		v->buf = (uint32_t)off;
		f[0] = rawf(v->in_off, v->n, x->dt, x->in, v->begin);
		f[1] = rawf(v->buf, v->hi - v->lo, x->odt, -1, 0);
		if ((r = ipu__add_vertex_raw(g, cs, x->codelet, v->tile, f, 2, prm, 4, err)) < 0)
			return r;
	}
	return append(g, seq, ipu_prog_execute(g, cs, err), err);
}

/* a partial row of a range: its columns at off on tile */
struct csrc {
	uint32_t tile, off;
};

/* a level of the tree: the partial rows of each range, s[first[rr] .. first[rr + 1]) */
struct collevel {
	struct csrc *s;
	size_t *first;
	int ex, cs;
	unsigned lvl;
};

/* up to WORKERS vertices on tile reducing [p][wr] at goff into wr elements at oo (tensor ot from element ob) */
static int col_reduce(struct ipu_graph *g, const struct colred *x, int cs, uint32_t tile, uint32_t goff, uint32_t p,
		      uint32_t wr, uint32_t oo, int ot, uint64_t ob, struct ipu_error *err)
{
	unsigned oes = ipu_dtype_size(x->odt);
	uint64_t ns = ((uint64_t)p * wr + 4 * MIN_CHUNK - 1) / (4 * MIN_CHUNK);
	int r;

	ns = ns < WORKERS ? ns : WORKERS;
	ns = ns < wr ? ns : wr;
	for (uint32_t s = 0, per = (uint32_t)((wr + ns - 1) / ns); s < wr; s += per) {
		uint32_t n = wr - s < per ? wr - s : per, prm[4] = { 0, wr, 0, s };
		struct ipu__rawfield f[2] = { rawf(goff, (uint64_t)p * wr, x->odt, -1, 0),
					      rawf(oo + s * oes, n, x->odt, ot, ob + s) };

		if ((r = ipu__add_vertex_raw(g, cs, x->codelet, tile, f, 2, prm, 4, err)) < 0)
			return r;
	}
	return 0;
}

/*
 * The p partial rows s of wr columns as [p][wr] on tile: in place when
 * there is one there, else gathered by the level's exchange (created on
 * first use). Offset or negative errno.
 */
static long col_gather(struct ipu_graph *g, const struct colred *x, struct collevel *lv, const struct csrc *s,
		       size_t p, uint32_t wr, uint32_t tile, struct ipu_error *err)
{
	unsigned oes = ipu_dtype_size(x->odt);
	char sfx[16], buf[200];
	long goff;
	int r;

	if (p == 1 && s[0].tile == tile)
		return s[0].off;
	snprintf(sfx, sizeof(sfx), lv->lvl ? "gather%u" : "gather", lv->lvl + 1);
	sub(buf, sizeof(buf), x->name, sfx);
	if ((goff = ipu__tile_alloc(g, tile, (uint64_t)p * wr * oes, 8, buf, err)) < 0)
		return goff;
	if (lv->ex < 0 && (lv->ex = ipu_graph_add_exchange(g, buf, err)) < 0)
		return lv->ex;
	for (size_t j = 0; j < p; j++)
		if ((r = ipu__exchange_raw(g, lv->ex, s[j].tile, s[j].off, tile, (uint32_t)goff + (uint32_t)(j * wr * oes),
					   wr * oes, -1, x->out, err)))
			return r;
	return goff;
}

/*
 * One range rr of the level: at most COLS_FANIN rows reduce into the
 * output on its owner; more, each group of COLS_FANIN into a new row on a
 * tile of its own (*gi counts the level's groups, of ngroups), appended to
 * next. 0 or negative errno.
 */
static int col_level_range(struct ipu_graph *g, struct colred *x, uint64_t rr, uint32_t owner, struct collevel *lv,
			   struct collevel *next, size_t *gi, size_t ngroups, struct ipu_error *err)
{
	unsigned oes = ipu_dtype_size(x->odt);
	size_t p = lv->first[rr + 1] - lv->first[rr], k = next->first[rr];
	uint32_t wr, c = col_range(x, rr, &wr);
	uint64_t ob = rr / x->nk * x->C + c;
	long goff, oo;
	char buf[200];
	int r;

	if (p <= COLS_FANIN) {
		if ((goff = col_gather(g, x, lv, lv->s + lv->first[rr], p, wr, owner, err)) < 0)
			return (int)goff;
		if ((oo = ipu__piece_off(g, x->out, ob, wr, "ipu_reduce_axes", err)) < 0)
			return (int)oo;
		return col_reduce(g, x, lv->cs, owner, (uint32_t)goff, (uint32_t)p, wr, (uint32_t)oo, x->out, ob, err);
	}
	sub(buf, sizeof(buf), x->name, "partials");
	for (size_t j = 0; j < p; j += COLS_FANIN, (*gi)++) {
		size_t q = p - j < COLS_FANIN ? p - j : COLS_FANIN;
		uint32_t tile = (uint32_t)(*gi * ipu_graph_tiles(g) / ngroups);

		if ((goff = col_gather(g, x, lv, lv->s + lv->first[rr] + j, q, wr, tile, err)) < 0)
			return (int)goff;
		if ((oo = ipu__tile_alloc(g, tile, (uint64_t)wr * oes, 8, buf, err)) < 0)
			return (int)oo;
		if ((r = col_reduce(g, x, lv->cs, tile, (uint32_t)goff, (uint32_t)q, wr, (uint32_t)oo, -1, 0, err)))
			return r;
		next->s[k++] = (struct csrc){ tile, (uint32_t)oo };
	}
	next->first[rr + 1] = k;
	return 0;
}

/* one level of stage 2 (exchange, compute set); next: the rows left. Their number or negative errno */
static long col_level(struct ipu_graph *g, int seq, struct colred *x, const uint32_t *owner, struct collevel *lv,
		      struct collevel *next, struct ipu_error *err)
{
	size_t ngroups = 0, gi = 0;
	char sfx[16], buf[200];
	int r = 0;

	for (uint64_t rr = 0; rr < x->nr; rr++) {
		size_t p = lv->first[rr + 1] - lv->first[rr];

		ngroups += p > COLS_FANIN ? (p + COLS_FANIN - 1) / COLS_FANIN : 0;
	}
	next->first = calloc(x->nr + 1, sizeof(*next->first));
	next->s = malloc((ngroups ? ngroups : 1) * sizeof(*next->s));
	if (!next->first || !next->s)
		return oom("ipu_reduce_axes", err);
	snprintf(sfx, sizeof(sfx), "reduce%u", lv->lvl + 2);
	if ((lv->cs = ipu_graph_add_compute_set(g, sub(buf, sizeof(buf), x->name, sfx), err)) < 0)
		return lv->cs;
	for (uint64_t rr = 0; rr < x->nr && !r; rr++) {
		next->first[rr + 1] = next->first[rr];
		if (lv->first[rr + 1] > lv->first[rr])
			r = col_level_range(g, x, rr, owner[rr], lv, next, &gi, ngroups, err);
	}
	if (!r && lv->ex >= 0)
		r = append(g, seq, ipu_prog_exchange(g, lv->ex, err), err);
	if (!r)
		r = append(g, seq, ipu_prog_execute(g, lv->cs, err), err);
	return r < 0 ? r : (long)ngroups;
}

/*
 * Stage 2: each range's partial rows (one per stage-1 vertex touching it)
 * reduced on its owner, through levels of COLS_FANIN-row groups while
 * there are more. 0 or negative errno.
 */
static int col_stage2(struct ipu_graph *g, int seq, struct colred *x, const uint32_t *owner,
		      struct ipu_error *err)
{
	unsigned oes = ipu_dtype_size(x->odt);
	struct collevel lv = { NULL, x->first, -1, -1, 0 }, nx;
	long left;

	if (!(lv.s = malloc((x->first[x->nr] ? x->first[x->nr] : 1) * sizeof(*lv.s))))
		return oom("ipu_reduce_axes", err);
	for (uint64_t rr = 0; rr < x->nr; rr++)
		for (size_t j = x->first[rr]; j < x->first[rr + 1]; j++) {
			const struct colv *v = &x->v[x->list[j]];

			lv.s[j] = (struct csrc){ v->tile, v->buf + (uint32_t)(rr % x->nk * x->w - v->lo) * oes };
		}
	do {
		nx = (struct collevel){ NULL, NULL, -1, -1, lv.lvl + 1 };
		left = col_level(g, seq, x, owner, &lv, &nx, err);
		free(lv.s);
		if (lv.first != x->first)
			free(lv.first);
		lv = nx;
	} while (left > 0);
	free(lv.s);
	free(lv.first);
	return left < 0 ? (int)left : 0;
}

/* @t's dimensions of more than 1 element merged into alternating groups (gk[i]: kept); their count */
static unsigned dim_groups(const struct ipu__tensor *t, unsigned mask, uint64_t *gs, unsigned char *gk)
{
	unsigned m = 0;

	for (unsigned i = 0; i < t->rank; i++) {
		unsigned char k = !(mask & (1u << i));

		if (t->shape[i] == 1)
			continue;
		if (m && gk[m - 1] == k) {
			gs[m - 1] *= t->shape[i];
		} else {
			gs[m] = t->shape[i];
			gk[m++] = k;
		}
	}
	return m;
}

/* frees what the column reduction allocated */
static void col_free(struct colred *x, uint32_t *owner)
{
	free(x->v);
	free(x->first);
	free(x->list);
	free(owner);
}

/*
 * @in, whose m groups gs/gk end in a reduced then a kept group, reduced
 * into a new tensor @name (@orank dims @oshape) by the two stages above.
 * Its id or negative errno.
 */
static int reduce_columns(struct ipu_graph *g, int seq, unsigned op, int in, const uint64_t *gs,
			  const unsigned char *gk, unsigned m, unsigned orank, const uint32_t *oshape,
			  const char *name, struct ipu_error *err)
{
	struct colred x = { .in = in, .out = -1, .name = name, .nko = 1 };
	const struct ipu__tensor *t = ipu__graph_tensor(g, in);
	uint32_t *owner = NULL;
	int r;

	x.codelet = IPUE_CODELET_REDUCE_COLS_SUM + (op - IPU_REDUCE_SUM);
	x.dt = t->dtype;
	x.odt = t->dtype == IPU_DTYPE_F16 ? IPU_DTYPE_F32 : t->dtype;
	x.C = gs[m - 1];
	x.Ra = gs[m - 2];
	x.ngrp = m - 2;
	for (unsigned i = 0; i < x.ngrp; i++) {
		x.gsize[i] = gs[i];
		x.gkept[i] = gk[i];
		x.nko *= gk[i] ? gs[i] : 1;
	}
	if (x.C > UINT32_MAX)
		return ipu__err(err, -EINVAL, "ipu_reduce_axes '%s': the kept trailing dimensions of tensor '%s' "
				"hold more than 2^32 - 1 elements", name, t->name);
	r = col_vertices(g, &x, err);
	if (!r)
		r = col_width(g, &x, err);
	if (!r)
		r = col_ranges(&x, err);
	if (!r && !(owner = malloc(x.nr * sizeof(*owner))))
		r = oom("ipu_reduce_axes", err);
	if (!r)
		r = col_output(g, &x, owner, oshape, orank, err);
	if (!r)
		r = col_stage1(g, seq, &x, err);
	if (!r)
		r = col_stage2(g, seq, &x, owner, err);
	col_free(&x, owner);
	return r < 0 ? r : x.out;
}

IPU_API int ipu_reduce_axes(struct ipu_graph *g, int seq, unsigned op, int in, const int *axes,
			    unsigned naxes, const char *name, struct ipu_error *err)
{
	const struct ipu__tensor *t;
	uint32_t oshape[IPU_MAX_RANK], ishape[IPU_MAX_RANK];
	uint64_t gs[IPU_MAX_RANK], L = 1;
	unsigned char gk[IPU_MAX_RANK];
	unsigned mask, orank = 0, m;
	int seen_reduced = 0, kept_after = 0, src = in, r;
	char buf[200];

	if ((r = ipu__check_op_input(g, in, name, "ipu_reduce_axes", "input", err)))
		return r;
	if (op < IPU_REDUCE_SUM || op > IPU_REDUCE_MIN)
		return ipu__err(err, -EINVAL, "ipu_reduce_axes '%s': unknown op %u", name, op);
	t = ipu__graph_tensor(g, in);
	if ((r = axes_mask(axes, naxes, t->rank, name, t->name, &mask, err)))
		return r;
	for (unsigned i = 0; i < t->rank; i++) {
		if (mask & (1u << i)) {
			L *= t->shape[i];
			seen_reduced |= t->shape[i] > 1;
		} else {
			oshape[orank++] = t->shape[i];
			/* a kept dimension after a reduced one (dims of 1 do not count) */
			kept_after |= t->shape[i] > 1 && seen_reduced;
		}
	}
	if (!kept_after || !t->elements)	/* trailing dimensions (or empty): rows reduce where they lie */
		return ipu__reduce_rows_as(g, seq, op, in, L, orank, oshape, name, err);
	m = dim_groups(t, mask, gs, gk);
	if (!gk[m - 1]) {
		/* reduced trailing group first, in place as rows; then the columns of what is left */
		for (unsigned i = 0; i + 1 < m; i++) {
			if (gs[i] > UINT32_MAX)
				return ipu__err(err, -EINVAL, "ipu_reduce_axes '%s': merged dimensions of tensor "
						"'%s' hold more than 2^32 - 1 elements", name, t->name);
			ishape[i] = (uint32_t)gs[i];
		}
		src = ipu__reduce_rows_as(g, seq, op, in, gs[m - 1], m - 1, ishape, sub(buf, sizeof(buf), name, "inner"),
					  err);
		if (src < 0)
			return src;
		m--;
	}
	return reduce_columns(g, seq, op, src, gs, gk, m, orank, oshape, name, err);
}

/* ------------------------------------------------------------------------ */
/* argmax                                                                   */

/* an argmax being built: rows of L elements of in, out[r] its index */
struct argmax {
	int in, out, cs, ex;
	uint64_t L, R;
	unsigned dtype;
	const char *name;
	char exname[200];
};

/* one ArgMax vertex on tile over rows [r0, r0 + nr), in at ioff there; maps them in out */
static int argmax_vertex(struct ipu_graph *g, struct argmax *x, unsigned tile, uint64_t r0, uint64_t nr,
			 uint32_t ioff, int itensor, struct ipu_error *err)
{
	struct ipu__rawfield f[2];
	uint32_t prm = (uint32_t)x->L;
	long oo;
	int r;

	if ((r = ipu_graph_map(g, x->out, r0, nr, tile, err)))
		return r;
	if ((oo = ipu__piece_off(g, x->out, r0, nr, "ipu_argmax", err)) < 0)
		return (int)oo;
	f[0] = rawf(ioff, nr * x->L, x->dtype, itensor, r0 * x->L);
	f[1] = rawf((uint32_t)oo, nr, IPU_DTYPE_I32, x->out, r0);
	r = ipu__add_vertex_raw(g, x->cs, IPUE_CODELET_ARGMAX, tile, f, 2, &prm, 1, err);
	return r < 0 ? r : 0;
}

/*
 * Row rr, which lies in several pieces: gathered on the tile of its first
 * element (exchange NAME/gather), one vertex there. 0 or negative errno.
 */
static int argmax_split_row(struct ipu_graph *g, struct argmax *x, uint64_t rr, struct ipu_error *err)
{
	int tile = ipu_graph_tile_of(g, x->in, rr * x->L);
	long off;

	if (tile < 0)
		return ipu__err(err, -EINVAL, "ipu_argmax: internal layout error");
	off = ipu__local_copy(g, &x->ex, x->exname, x->in, rr * x->L, x->L, (unsigned)tile, err);
	if (off < 0)
		return (int)off;
	return argmax_vertex(g, x, (unsigned)tile, rr, 1, (uint32_t)off, x->in, err);
}

/*
 * The vertices: the whole rows of each interval of in in up to WORKERS
 * vertices reading in place, then each row cut by intervals on its own.
 */
static int argmax_vertices(struct ipu_graph *g, struct argmax *x, struct ipu_error *err)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, x->in);
	unsigned es = ipu_dtype_size(x->dtype);
	unsigned char *done = calloc(x->R, 1);
	struct ipu__iv *iv = malloc(t->niv * sizeof(*iv));
	size_t niv = t->niv;
	int r = 0;

	if (!done || !iv) {
		free(done);
		free(iv);
		return oom("ipu_argmax", err);
	}
	memcpy(iv, t->iv, niv * sizeof(*iv));
	for (size_t i = 0; i < niv && !r; i++) {
		uint64_t r0 = (iv[i].begin + x->L - 1) / x->L, r1 = (iv[i].begin + iv[i].count) / x->L, c;

		if (r1 <= r0)
			continue;
		c = (r1 - r0 + WORKERS - 1) / WORKERS;
		if (c * x->L < MIN_CHUNK)
			c = (MIN_CHUNK + x->L - 1) / x->L;
		for (uint64_t b = r0; b < r1 && !r; b += c) {
			uint64_t nr = r1 - b < c ? r1 - b : c;

			r = argmax_vertex(g, x, iv[i].tile, b, nr,
					  iv[i].off + (uint32_t)((b * x->L - iv[i].begin) * es), x->in, err);
			memset(done + b, 1, nr);
		}
	}
	for (uint64_t rr = 0; rr < x->R && !r; rr++)
		if (!done[rr])
			r = argmax_split_row(g, x, rr, err);
	free(done);
	free(iv);
	return r;
}

IPU_API int ipu_argmax(struct ipu_graph *g, int seq, int in, const char *name, struct ipu_error *err)
{
	struct argmax x = { .in = in, .ex = -1, .name = name };
	const struct ipu__tensor *t;
	uint32_t shape[IPU_MAX_RANK];
	char buf[200];
	int r;

	if ((r = ipu__check_op_input(g, in, name, "ipu_argmax", "input", err)))
		return r;
	t = ipu__graph_tensor(g, in);
	if (t->rank < 1)
		return ipu__err(err, -EINVAL, "ipu_argmax '%s': tensor '%s' has rank 0, needs a dimension to "
				"search", name, t->name);
	x.L = t->shape[t->rank - 1];
	if (!x.L)	/* numpy raises "attempt to get argmax of an empty sequence" */
		return ipu__err(err, -EINVAL, "ipu_argmax '%s': tensor '%s' has empty rows (its last dimension "
				"is 0): no argmax (numpy raises)", name, t->name);
	if (!t->elements)	/* no rows: numpy's empty result */
		return ipu__empty_output(g, name, IPU_DTYPE_I32, t->rank - 1u, t->shape, err);
	x.R = t->elements / x.L;
	x.dtype = t->dtype;
	if (x.L > UINT32_MAX)
		return ipu__err(err, -EINVAL, "ipu_argmax '%s': rows of tensor '%s' are too long", name, t->name);
	memcpy(shape, t->shape, sizeof(shape));	/* adding the output may move t */
	if ((x.out = ipu_graph_add_tensor(g, name, IPU_DTYPE_I32, t->rank - 1u, shape, err)) < 0)
		return x.out;
	snprintf(x.exname, sizeof(x.exname), "%s/gather", name);
	if ((x.cs = ipu_graph_add_compute_set(g, sub(buf, sizeof(buf), name, "argmax"), err)) < 0)
		return x.cs;
	if ((r = argmax_vertices(g, &x, err)))
		return r;
	if (x.ex >= 0 && (r = append(g, seq, ipu_prog_exchange(g, x.ex, err), err)) < 0)
		return r;
	if ((r = append(g, seq, ipu_prog_execute(g, x.cs, err), err)) < 0)
		return r;
	return x.out;
}
