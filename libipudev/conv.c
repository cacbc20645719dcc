// SPDX-License-Identifier: MIT
/*
 * poplin-level 2-D convolution (ipu_conv2d) and its input and weight
 * gradients, lowered per tile to the sliding-window codelets Im2Col /
 * Col2Im (codelets_window.c) and MatMulPartial. The work is cut into
 * items - a block of output positions (or, for the input gradient, of
 * input rows) of one image and group - placed round robin on the tiles;
 * each item gets its window of input rows and its group's weights by one
 * exchange, then runs one compute set per stage. See docs/builder.md,
 * "poplin: conv2d".
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codelets.h"
#include "window.h"

#define NAME_LEN 200

struct conv {
	struct ipu__win w;
	uint32_t N, C, CO, G, CIg, COg;
	uint64_t K;		/* CIg * KH * KW: a col row per (ci, ky, kx) */
	uint64_t U;		/* OH * OW positions a plane */
	unsigned dtype, es;	/* of x and w */
	int x, wt, dy, out;	/* tensors (wt: the weights as used) */
	unsigned T;
	int ex;			/* exchange "@name/gather" */
	int cs1, cs2;
	long *wcache;		/* [T][G]: offset of the group's weights on a tile, -1 none */
	unsigned *order;	/* item i runs on tile order[i % T] (window.h) */
	char exname[NAME_LEN];
};

static int conv_params(const struct ipu_conv2d_params *in, struct ipu_conv2d_params *p, const char *op,
		       const char *name, struct ipu_error *err)
{
	static const struct ipu_conv2d_params def = IPU_CONV2D_PARAMS_INIT;
	size_t v1 = offsetof(struct ipu_conv2d_params, groups) + sizeof(in->groups);

	*p = def;
	if (!in)
		return 0;
	if (in->argsz < v1)
		return ipu__err(err, -EINVAL, "%s '%s': params argsz %u is smaller than the first version's %zu",
				op, name, in->argsz, v1);
	for (size_t i = sizeof(*p); i < in->argsz; i++)
		if (((const unsigned char *)in)[i])
			return ipu__err(err, -EINVAL, "%s '%s': params byte %zu (past the %zu this library knows) "
					"is not zero", op, name, i, sizeof(*p));
	memcpy(p, in, sizeof(*p));
	p->argsz = sizeof(*p);
	return 0;
}

static const char *shp(char *b, size_t n, const uint32_t s[4])
{
	return ipu__shape_str(b, n, 4, s);
}

/* x [N][C][H][W] and w [CO][C/G][KH][KW]: the geometry, or a refusal */
static int conv_geometry(struct ipu_graph *g, struct conv *c, const char *op, const char *name, int x,
			 int w, const struct ipu_conv2d_params *pin, struct ipu_error *err)
{
	struct ipu_conv2d_params p;
	uint32_t xs[4], ws[4];
	char b1[64], b2[64];
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", op);
	if (!name || !*name)
		return ipu__err(err, -EINVAL, "%s: the output needs a name", op);
	if (ipu_graph_find_tensor(g, name) >= 0)
		return ipu__err(err, -EEXIST, "%s: a tensor '%s' already exists", op, name);
	if ((r = conv_params(pin, &p, op, name, err)) || (r = ipu__win_rank4(g, x, op, name, "x", xs, err)) ||
	    (r = ipu__win_rank4(g, w, op, name, "weights", ws, err)))
		return r;
	if (!p.groups || xs[1] % p.groups || ws[0] % p.groups)
		return ipu__err(err, -EINVAL, "%s '%s': %u groups must divide Cin %u of x %s and Cout %u of "
				"weights %s", op, name, p.groups, xs[1], shp(b1, sizeof(b1), xs), ws[0],
				shp(b2, sizeof(b2), ws));
	if (ws[1] != xs[1] / p.groups)
		return ipu__err(err, -EINVAL, "%s '%s': shapes do not match: weights %s have %u input channels "
				"a group, x %s with %u groups has %u", op, name, shp(b2, sizeof(b2), ws), ws[1],
				shp(b1, sizeof(b1), xs), p.groups, xs[1] / p.groups);
	memset(c, 0, sizeof(*c));
	c->w = (struct ipu__win){ .H = xs[2], .W = xs[3], .KH = ws[2], .KW = ws[3], .SY = p.stride[0],
				  .SX = p.stride[1], .DY = p.dilation[0], .DX = p.dilation[1],
				  .PT = p.padding[0], .PB = p.padding[1], .PL = p.padding[2], .PR = p.padding[3] };
	if ((r = ipu__win_check(&c->w, op, name, err)))
		return r;
	c->N = xs[0], c->C = xs[1], c->CO = ws[0], c->G = p.groups, c->CIg = ws[1], c->COg = ws[0] / p.groups;
	c->K = (uint64_t)c->CIg * c->w.KH * c->w.KW;
	c->U = (uint64_t)c->w.OH * c->w.OW;
	c->T = ipu_graph_tiles(g);
	c->ex = c->cs1 = c->cs2 = -1;
	if (c->CIg > 0xffff)
		return ipu__err(err, -EINVAL, "%s '%s': %u input channels a group, must be below 65536", op, name,
				c->CIg);
	return 0;
}

/* a tensor of role @what with the right dtype (and, @mapped, fully mapped) */
static int conv_operand(const struct ipu_graph *g, int t, const char *op, const char *name, const char *what,
			unsigned dtype, int mapped, struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);

	if (dtype && x->dtype != dtype)
		return ipu__err(err, -EINVAL, "%s '%s': %s '%s' is %s, must be %s", op, name, what, x->name,
				x->dtype == IPU_DTYPE_F16 ? "f16" : x->dtype == IPU_DTYPE_I32 ? "i32" : "f32",
				dtype == IPU_DTYPE_F16 ? "f16" : "f32");
	if (mapped && x->mapped != x->elements)
		return ipu__err(err, -EINVAL, "%s '%s': %s '%s' is not fully mapped to tiles", op, name, what,
				x->name);
	return 0;
}

/* dy must be f32 [N][CO][OH][OW] and mapped */
static int conv_check_dy(struct ipu_graph *g, const struct conv *c, int dy, const char *op, const char *name,
			 struct ipu_error *err)
{
	uint32_t s[4], want[4] = { c->N, c->CO, c->w.OH, c->w.OW };
	char b1[64], b2[64];
	int r;

	if ((r = ipu__win_rank4(g, dy, op, name, "dy", s, err)) ||
	    (r = conv_operand(g, dy, op, name, "dy", IPU_DTYPE_F32, 1, err)))
		return r;
	if (memcmp(s, want, sizeof(s)))
		return ipu__err(err, -EINVAL, "%s '%s': dy '%s' %s does not match the convolution's output %s", op,
				name, ipu__graph_tensor(g, dy)->name, shp(b1, sizeof(b1), s),
				shp(b2, sizeof(b2), want));
	return 0;
}

static struct ipu__rawfield fld(long off, uint64_t count, unsigned dtype, int tensor)
{
	struct ipu__rawfield f = { (uint32_t)off, (uint32_t)count, (uint8_t)dtype, tensor, 0 };

	return f;
}

static int conv_begin(struct ipu_graph *g, struct conv *c, const char *name, const char *s1, const char *s2,
		      struct ipu_error *err)
{
	char b[NAME_LEN];

	snprintf(c->exname, sizeof(c->exname), "%s/gather", name);
	c->wcache = malloc(sizeof(long) * c->T * c->G);
	if (!c->wcache)
		return ipu__err(err, -ENOMEM, "conv2d '%s': out of memory", name);
	for (size_t i = 0; i < (size_t)c->T * c->G; i++)
		c->wcache[i] = -1;
	snprintf(b, sizeof(b), "%s/%s", name, s1);
	if ((c->cs1 = ipu_graph_add_compute_set(g, b, err)) < 0)
		return c->cs1;
	snprintf(b, sizeof(b), "%s/%s", name, s2);
	c->cs2 = ipu_graph_add_compute_set(g, b, err);
	return c->cs2 < 0 ? c->cs2 : 0;
}

/* the program: the gather exchange (if any copy), then the two compute sets */
static int conv_program(struct ipu_graph *g, int seq, const struct conv *c, struct ipu_error *err)
{
	int n;

	if (c->ex >= 0 && ((n = ipu_prog_exchange(g, c->ex, err)) < 0 || (n = ipu_prog_append(g, seq, n, err)) < 0))
		return n;
	if ((n = ipu_prog_execute(g, c->cs1, err)) < 0 || (n = ipu_prog_append(g, seq, n, err)) < 0)
		return n;
	if ((n = ipu_prog_execute(g, c->cs2, err)) < 0 || (n = ipu_prog_append(g, seq, n, err)) < 0)
		return n;
	return 0;
}

/* rows [off, off + rows) of group grp's weights (c->wt: [G][rows_total][cols]) on tile, cached */
static long conv_weights(struct ipu_graph *g, struct conv *c, unsigned tile, uint32_t grp, uint64_t count,
			 struct ipu_error *err)
{
	long *slot = &c->wcache[(size_t)tile * c->G + grp];

	if (*slot < 0)
		*slot = ipu__local_copy(g, &c->ex, c->exname, c->wt, grp * count, count, tile, err);
	return *slot;
}

/* x's window rows for positions [p0, p1) of image n, group grp, on tile, and its Im2Col vertex */
static long conv_im2col(struct ipu_graph *g, struct conv *c, unsigned tile, uint32_t n, uint32_t grp,
			uint64_t p0, uint64_t p1, struct ipu_error *err)
{
	const struct ipu__win *w = &c->w;
	uint32_t y0, rows, prm[8];
	uint64_t hw = (uint64_t)w->H * w->W, e0;
	long in, col;
	int r;

	ipu__win_rows(w, p0, p1, &y0, &rows);
	e0 = ((uint64_t)n * c->C + (uint64_t)grp * c->CIg) * hw + (uint64_t)y0 * w->W;
	in = ipu__win_gather(g, &c->ex, c->exname, c->x, e0, hw, (uint64_t)rows * w->W, c->CIg, tile, err);
	if (in < 0)
		return in;
	col = ipu__tile_alloc(g, tile, c->K * (p1 - p0) * c->es, 64, c->exname, err);
	if (col < 0)
		return col;
	struct ipu__rawfield f[2] = { fld(in, (uint64_t)c->CIg * rows * w->W, c->dtype, c->x),
				      fld(col, c->K * (p1 - p0), c->dtype, -1) };

	ipu__win_vparams(w, prm, c->CIg, 0, y0, rows, p0);
	r = ipu__add_vertex_raw(g, c->cs1, IPUE_CODELET_IM2COL, tile, f, 2, prm, 8, err);
	return r < 0 ? r : col;
}

/* bytes an item of b positions needs: window rows, col, weights, output */
struct conv_fwd_ctx {
	const struct conv *c;
	uint64_t per_pos_out;	/* output elements a position (COg forward, 0 for dw) */
	uint64_t fixed;		/* f32 elements independent of b (dw: the partial) */
	uint64_t weights;	/* elements of weights an item holds (forward: COg * K; dw: none) */
};

static uint64_t conv_item_bytes(const void *ctx, uint64_t b)
{
	const struct conv_fwd_ctx *x = ctx;
	const struct conv *c = x->c;
	uint64_t rows = (b + c->w.OW - 1) / c->w.OW + 1;
	uint64_t win = (uint64_t)c->CIg * ((rows - 1) * c->w.SY + (uint64_t)(c->w.KH - 1) * c->w.DY + 1) * c->w.W;

	return (win + c->K * b + x->weights) * c->es + (x->per_pos_out * b + x->fixed) * 4 +
	       4 * 64;
}

/* the block of U units (positions or rows) a stream an item takes, and the tile order; ENOSPC/ENOMEM */
static int conv_fit(struct ipu_graph *g, struct conv *c, uint64_t U, uint64_t b0,
		    uint64_t (*bytes)(const void *ctx, uint64_t b), const void *ctx, const char *op,
		    const char *name, uint64_t *b, struct ipu_error *err)
{
	if (!(c->order = ipu__win_order(g)))
		return ipu__err(err, -ENOMEM, "%s '%s': out of memory", op, name);
	*b = ipu__win_block(g, c->order, (uint64_t)c->N * c->G, U, b0, bytes, ctx);
	if (!*b)
		return ipu__err(err, -ENOSPC, "%s '%s': does not fit in tile memory (%llu bytes free on the "
				"emptiest tile)", op, name, (unsigned long long)ipu__win_avail(g));
	return 0;
}

static int conv_fwd_items(struct ipu_graph *g, struct conv *c, uint64_t pb, struct ipu_error *err)
{
	unsigned i = 0;

	for (uint32_t n = 0; n < c->N; n++)
		for (uint32_t grp = 0; grp < c->G; grp++)
			for (uint64_t p0 = 0; p0 < c->U; p0 += pb, i++) {
				unsigned tile = c->order[i % c->T];
				uint64_t p1 = p0 + pb < c->U ? p0 + pb : c->U, P = p1 - p0;
				long col = conv_im2col(g, c, tile, n, grp, p0, p1, err), wo, yo;
				uint32_t prm[4] = { c->COg, (uint32_t)P, (uint32_t)c->K, IPUE_MATMUL_OVERWRITE };
				int r;

				if (col < 0 || (wo = conv_weights(g, c, tile, grp, c->COg * c->K, err)) < 0)
					return col < 0 ? (int)col : (int)wo;
				if ((yo = ipu__tile_alloc(g, tile, c->COg * P * 4, 64, c->exname, err)) < 0)
					return (int)yo;
				r = ipu__win_map(g, c->out, ((uint64_t)n * c->CO + (uint64_t)grp * c->COg) * c->U + p0,
						 c->U, P, c->COg, tile, (uint32_t)yo, err);
				struct ipu__rawfield f[3] = { fld(wo, c->COg * c->K, c->dtype, c->wt),
							      fld(col, c->K * P, c->dtype, -1),
							      fld(yo, c->COg * P, IPU_DTYPE_F32, c->out) };

				if (r || (r = ipu__add_vertex_raw(g, c->cs2, IPUE_CODELET_MATMUL, tile, f, 3, prm, 4,
								  err)) < 0)
					return r;
			}
	return 0;
}

static int conv_finish(struct conv *c, int r)
{
	free(c->wcache);
	free(c->order);
	return r;
}

IPU_API int ipu_conv2d(struct ipu_graph *g, int seq, int x, int w, const struct ipu_conv2d_params *p,
		       const char *name, struct ipu_error *err)
{
	const char *op = "ipu_conv2d";
	struct conv c;
	uint64_t pb;
	int r;

	if ((r = conv_geometry(g, &c, op, name, x, w, p, err)) ||
	    (r = conv_operand(g, x, op, name, "x", 0, 1, err)) ||
	    (r = conv_operand(g, w, op, name, "weights", ipu__graph_tensor(g, x)->dtype, 1, err)))
		return r;
	if (ipu__graph_tensor(g, x)->dtype == IPU_DTYPE_I32)
		return ipu__err(err, -EINVAL, "%s '%s': x is i32, must be f32 or f16", op, name);
	c.x = x, c.wt = w, c.dtype = ipu__graph_tensor(g, x)->dtype, c.es = ipu_dtype_size(c.dtype);
	struct conv_fwd_ctx ctx = { &c, c.COg, 0, (uint64_t)c.COg * c.K };
	uint64_t spread = ((uint64_t)c.N * c.G * c.U + c.T - 1) / c.T;

	uint32_t ys[4] = { c.N, c.CO, c.w.OH, c.w.OW };

	if (!c.K)	/* no input channels: numpy's sums over nothing, zeros */
		return conv_finish(&c, ipu__zeros(g, seq, name, IPU_DTYPE_F32, 4, ys, err));
	if ((r = conv_fit(g, &c, c.U, spread < 256 ? 256 : spread, conv_item_bytes, &ctx, op, name, &pb, err)) ||
	    (r = c.out = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 4, ys, err)) < 0 ||
	    (r = conv_begin(g, &c, name, "im2col", "matmul", err)) || (r = conv_fwd_items(g, &c, pb, err)) ||
	    (r = conv_program(g, seq, &c, err)))
		return conv_finish(&c, r);
	return conv_finish(&c, c.out);
}

/* ---------------- weight gradient ---------------- */

/* a slot of the weight gradient: one tile's buffers, reused by its blocks wave after wave */
struct dw_slot {
	unsigned tile;
	long win, col, dy, part;
};

/* slot s = (stream n * G + grp, j): its buffers, and its partial row n * spw + j mapped */
static int conv_dw_slots(struct ipu_graph *g, struct conv *c, uint64_t pb, uint32_t spw, int part,
			 struct dw_slot *sl, struct ipu_error *err)
{
	uint64_t rows = (pb + c->w.OW - 1) / c->w.OW * c->w.SY + (uint64_t)(c->w.KH - 1) * c->w.DY + 1;
	size_t ns = (size_t)c->N * c->G * spw;

	if (rows > c->w.H)
		rows = c->w.H;
	for (size_t s = 0; s < ns; s++) {
		struct dw_slot *d = &sl[s];
		uint64_t n = s / spw / c->G, grp = s / spw % c->G, i = n * spw + s % spw;
		int r;

		d->tile = c->order[s % c->T];
		if ((d->win = ipu__tile_alloc(g, d->tile, c->CIg * rows * c->w.W * 4, 64, c->exname, err)) < 0 ||
		    (d->col = ipu__tile_alloc(g, d->tile, c->K * pb * 4, 64, c->exname, err)) < 0 ||
		    (d->dy = ipu__tile_alloc(g, d->tile, c->COg * pb * 4, 64, c->exname, err)) < 0 ||
		    (d->part = ipu__tile_alloc(g, d->tile, c->COg * c->K * 4, 64, c->exname, err)) < 0)
			return -ENOSPC;
		if ((r = ipu__map_at(g, part, (i * c->CO + grp * c->COg) * c->K, c->COg * c->K, d->tile,
				     (uint32_t)d->part, err)))
			return r;
	}
	return 0;
}

/* block b of stream (n, grp) in slot d: gathers, Im2Col, MatMulPartial (accumulating after wave 0) */
static int conv_dw_block(struct ipu_graph *g, struct conv *c, const struct dw_slot *d, uint32_t n, uint32_t grp,
			 uint64_t p0, uint64_t p1, int first, int part, struct ipu_error *err)
{
	uint64_t hw = (uint64_t)c->w.H * c->w.W, P = p1 - p0;
	uint32_t y0, rows, prm[8];
	int r;

	ipu__win_rows(&c->w, p0, p1, &y0, &rows);
	if ((r = ipu__win_gather_to(g, &c->ex, c->exname, c->x,
				    ((uint64_t)n * c->C + (uint64_t)grp * c->CIg) * hw + (uint64_t)y0 * c->w.W, hw,
				    (uint64_t)rows * c->w.W, c->CIg, d->tile, (uint32_t)d->win, err)) ||
	    (r = ipu__win_gather_to(g, &c->ex, c->exname, c->dy,
				    ((uint64_t)n * c->CO + (uint64_t)grp * c->COg) * c->U + p0, c->U, P, c->COg,
				    d->tile, (uint32_t)d->dy, err)))
		return r;
	struct ipu__rawfield f[2] = { fld(d->win, (uint64_t)c->CIg * rows * c->w.W, IPU_DTYPE_F32, c->x),
				      fld(d->col, c->K * P, IPU_DTYPE_F32, -1) };
	struct ipu__rawfield m[3] = { fld(d->dy, c->COg * P, IPU_DTYPE_F32, c->dy), f[1],
				      fld(d->part, c->COg * c->K, IPU_DTYPE_F32, part) };
	uint32_t mm[4] = { c->COg, (uint32_t)c->K, (uint32_t)P,
			   IPUE_MATMUL_B_TRANSPOSED | (first ? IPUE_MATMUL_OVERWRITE : 0) };

	ipu__win_vparams(&c->w, prm, c->CIg, 0, y0, rows, p0);
	if ((r = ipu__add_vertex_raw(g, c->cs1, IPUE_CODELET_IM2COL, d->tile, f, 2, prm, 8, err)) < 0 ||
	    (r = ipu__add_vertex_raw(g, c->cs2, IPUE_CODELET_MATMUL, d->tile, m, 3, mm, 4, err)) < 0)
		return r;
	return 0;
}

/*
 * The weight gradient's blocks in waves: each of the N * G * spw slots
 * takes blocks j, spw + j, 2 spw + j, ... of its stream, one a wave, and
 * accumulates them into its partial row, so that the reduction has
 * N * spw rows instead of one per block. Each wave: exchange, im2col,
 * matmul ("NAME/gather.W", ...).
 */
static int conv_dw_waves(struct ipu_graph *g, int seq, struct conv *c, uint64_t pb, uint32_t spw, int part,
			 const char *name, struct ipu_error *err)
{
	uint64_t npb = (c->U + pb - 1) / pb, nw = (npb + spw - 1) / spw;
	size_t ns = (size_t)c->N * c->G * spw;
	struct dw_slot *sl = calloc(ns, sizeof(*sl));
	char b[NAME_LEN];
	int r = sl ? conv_dw_slots(g, c, pb, spw, part, sl, err) : ipu__err(err, -ENOMEM, "out of memory");

	for (uint64_t w = 0; w < nw && !r; w++) {
		snprintf(c->exname, sizeof(c->exname), "%s/gather.%llu", name, (unsigned long long)w);
		c->ex = -1;
		snprintf(b, sizeof(b), "%s/im2col.%llu", name, (unsigned long long)w);
		if ((r = c->cs1 = ipu_graph_add_compute_set(g, b, err)) < 0)
			break;
		snprintf(b, sizeof(b), "%s/matmul.%llu", name, (unsigned long long)w);
		if ((r = c->cs2 = ipu_graph_add_compute_set(g, b, err)) < 0)
			break;
		r = 0;
		for (size_t s = 0; s < ns && !r; s++) {
			uint64_t blk = w * spw + s % spw, p0 = blk * pb;

			if (blk < npb)
				r = conv_dw_block(g, c, &sl[s], (uint32_t)(s / spw / c->G), (uint32_t)(s / spw % c->G),
						  p0, p0 + pb < c->U ? p0 + pb : c->U, w == 0, part, err);
		}
		if (!r)
			r = conv_program(g, seq, c, err);
	}
	free(sl);
	return r;
}

IPU_API int ipu_conv2d_grad_weights(struct ipu_graph *g, int seq, int x, int dy, int w,
				    const struct ipu_conv2d_params *p, const char *name,
				    struct ipu_error *err)
{
	const char *op = "ipu_conv2d_grad_weights";
	char b[NAME_LEN];
	struct conv c;
	uint64_t pb;
	int r, part;

	if ((r = conv_geometry(g, &c, op, name, x, w, p, err)) ||
	    (r = conv_operand(g, x, op, name, "x", IPU_DTYPE_F32, 1, err)) ||
	    (r = conv_check_dy(g, &c, dy, op, name, err)))
		return r;
	snprintf(b, sizeof(b), "%s/partials", name);
	if (ipu_graph_find_tensor(g, b) >= 0)
		return ipu__err(err, -EEXIST, "%s: a tensor '%s' already exists", op, b);
	c.x = x, c.dy = dy, c.wt = -1, c.dtype = IPU_DTYPE_F32, c.es = 4;
	struct conv_fwd_ctx ctx = { &c, c.COg, (uint64_t)c.COg * c.K, 0 };

	if ((r = conv_fit(g, &c, c.U, c.U, conv_item_bytes, &ctx, op, name, &pb, err)))
		return conv_finish(&c, r);
	/* up to 8 waves: a block's partial is added in place, so the reduction shrinks 8-fold */
	uint64_t npb = (c.U + pb - 1) / pb, nw = npb < 8 ? npb : 8;
	uint32_t spw = (uint32_t)((npb + nw - 1) / nw);
	uint32_t ps[5] = { c.N * spw, c.CO, c.CIg, c.w.KH, c.w.KW };

	if ((r = part = ipu_graph_add_tensor(g, b, IPU_DTYPE_F32, 5, ps, err)) < 0 ||
	    (r = conv_dw_waves(g, seq, &c, pb, spw, part, name, err)))
		return conv_finish(&c, r);
	conv_finish(&c, 0);
	return ipu_reduce_axes(g, seq, IPU_REDUCE_SUM, part, (int[]){ 0 }, 1, name, err);
}

/* ---------------- input gradient ---------------- */

/* the tile and offset of element e among pieces pc[0..n) (sorted, covering) */
static const struct ipu__piece *piece_of(const struct ipu__piece *pc, long n, uint64_t e)
{
	long lo = 0, hi = n - 1;

	while (lo < hi) {
		long mid = (lo + hi + 1) / 2;

		if (pc[mid].begin <= e)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &pc[lo];
}

/* "@name/wt" [G][K][COg] = each group's weights transposed, by one element copy each */
static int conv_transpose_w(struct ipu_graph *g, int seq, struct conv *c, int w, const char *name,
			    struct ipu_error *err)
{
	char b[NAME_LEN];
	uint32_t s[3] = { c->G, (uint32_t)c->K, c->COg };
	struct ipu__piece *ps = NULL, *pd = NULL;
	long ns, nd;
	int ex, r;

	snprintf(b, sizeof(b), "%s/wt", name);
	if ((c->wt = ipu_graph_add_tensor(g, b, IPU_DTYPE_F32, 3, s, err)) < 0 ||
	    (r = ipu_graph_map_linear(g, c->wt, 64, err)) < 0)
		return c->wt < 0 ? c->wt : r;
	snprintf(b, sizeof(b), "%s/transpose", name);
	if ((ex = ipu_graph_add_exchange(g, b, err)) < 0)
		return ex;
	uint64_t n = (uint64_t)c->CO * c->K;

	ns = ipu__slice_pieces(g, w, 0, n, &ps, NULL);
	nd = ipu__slice_pieces(g, c->wt, 0, n, &pd, NULL);
	r = ns < 0 || nd < 0 ? ipu__err(err, -ENOMEM, "ipu_conv2d_grad_input '%s': out of memory", name) : 0;
	for (uint64_t e = 0; e < n && !r; e++) {	/* destination order: (grp, k, co) */
		uint64_t grp = e / (c->K * c->COg), k = e / c->COg % c->K, co = e % c->COg;
		uint64_t se = (grp * c->COg + co) * c->K + k;
		const struct ipu__piece *a = piece_of(ps, ns, se), *d = piece_of(pd, nd, e);

		r = ipu__exchange_raw(g, ex, a->tile, (uint32_t)(a->off + (se - a->begin) * 4), d->tile,
				      (uint32_t)(d->off + (e - d->begin) * 4), 4, w, c->wt, err);
	}
	free(ps);
	free(pd);
	if (r < 0 || (r = ipu_prog_exchange(g, ex, err)) < 0)
		return r;
	r = ipu_prog_append(g, seq, r, err);
	return r < 0 ? r : 0;
}

static uint64_t conv_dx_bytes(const void *ctx, uint64_t b)
{
	const struct conv *c = ctx;
	uint64_t P = ((b - 1 + (uint64_t)(c->w.KH - 1) * c->w.DY) / c->w.SY + 1) * c->w.OW;

	if (P > c->U)
		P = c->U;
	return ((c->K + c->COg) * P + c->K * c->COg + (uint64_t)c->CIg * b * c->w.W) * 4 + 4 * 64;
}

/* one item: rows [y0, y1) of image n, group grp */
static int conv_dx_item(struct ipu_graph *g, struct conv *c, unsigned tile, uint32_t n, uint32_t grp, uint32_t y0,
			uint32_t y1, struct ipu_error *err)
{
	uint64_t p0, p1, hw = (uint64_t)c->w.H * c->w.W;
	uint32_t prm[8], mm[4];
	long dyo = 0, wo = 0, col, dxo;
	int r = 0;

	ipu__win_positions(&c->w, y0, y1, &p0, &p1);
	uint64_t P = p1 - p0;

	if (P && ((dyo = ipu__win_gather(g, &c->ex, c->exname, c->dy,
					 ((uint64_t)n * c->CO + (uint64_t)grp * c->COg) * c->U + p0, c->U, P,
					 c->COg, tile, err)) < 0 ||
		  (wo = conv_weights(g, c, tile, grp, c->K * c->COg, err)) < 0))
		return dyo < 0 ? (int)dyo : (int)wo;
	if ((col = ipu__tile_alloc(g, tile, c->K * P * 4, 64, c->exname, err)) < 0 ||
	    (dxo = ipu__tile_alloc(g, tile, (uint64_t)c->CIg * (y1 - y0) * c->w.W * 4, 64, c->exname, err)) < 0)
		return (int)(col < 0 ? col : dxo);
	if ((r = ipu__win_map(g, c->out, ((uint64_t)n * c->C + (uint64_t)grp * c->CIg) * hw + (uint64_t)y0 * c->w.W,
			      hw, (uint64_t)(y1 - y0) * c->w.W, c->CIg, tile, (uint32_t)dxo, err)))
		return r;
	struct ipu__rawfield f[3] = { fld(wo, c->K * c->COg, IPU_DTYPE_F32, c->wt),
				      fld(dyo, c->COg * P, IPU_DTYPE_F32, c->dy),
				      fld(col, c->K * P, IPU_DTYPE_F32, -1) };
	struct ipu__rawfield h[2] = { f[2], fld(dxo, (uint64_t)c->CIg * (y1 - y0) * c->w.W, IPU_DTYPE_F32, c->out) };

	mm[0] = (uint32_t)c->K, mm[1] = (uint32_t)P, mm[2] = c->COg, mm[3] = IPUE_MATMUL_OVERWRITE;
	if (P && (r = ipu__add_vertex_raw(g, c->cs1, IPUE_CODELET_MATMUL, tile, f, 3, mm, 4, err)) < 0)
		return r;
	ipu__win_vparams(&c->w, prm, c->CIg, 0, y0, y1 - y0, p0);
	r = ipu__add_vertex_raw(g, c->cs2, IPUE_CODELET_COL2IM, tile, h, 2, prm, 8, err);
	return r < 0 ? r : 0;
}

IPU_API int ipu_conv2d_grad_input(struct ipu_graph *g, int seq, int dy, int w, int x,
				  const struct ipu_conv2d_params *p, const char *name,
				  struct ipu_error *err)
{
	const char *op = "ipu_conv2d_grad_input";
	char b[NAME_LEN];
	struct conv c;
	unsigned i = 0;
	int r;

	if ((r = conv_geometry(g, &c, op, name, x, w, p, err)) ||
	    (r = conv_operand(g, w, op, name, "weights", IPU_DTYPE_F32, 1, err)) ||
	    (r = conv_check_dy(g, &c, dy, op, name, err)))
		return r;
	snprintf(b, sizeof(b), "%s/wt", name);
	if (ipu_graph_find_tensor(g, b) >= 0)
		return ipu__err(err, -EEXIST, "%s: a tensor '%s' already exists", op, b);
	c.dy = dy, c.dtype = IPU_DTYPE_F32, c.es = 4;
	uint64_t spread = ((uint64_t)c.N * c.G * c.w.H + c.T - 1) / c.T;
	uint32_t xs[4] = { c.N, c.C, c.w.H, c.w.W };
	uint64_t rb;

	/* a block's output rows are recomputed by its neighbours' halo: keep blocks a few kernels high */
	if (spread < 4ull * c.w.KH * c.w.DY)
		spread = 4ull * c.w.KH * c.w.DY;
	if ((r = conv_fit(g, &c, c.w.H, spread, conv_dx_bytes, &c, op, name, &rb, err)) ||
	    (r = c.out = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 4, xs, err)) < 0 ||
	    (r = conv_transpose_w(g, seq, &c, w, name, err)) || (r = conv_begin(g, &c, name, "matmul", "col2im", err)))
		return conv_finish(&c, r);
	for (uint32_t n = 0; n < c.N && !r; n++)
		for (uint32_t grp = 0; grp < c.G && !r; grp++)
			for (uint32_t y0 = 0; y0 < c.w.H && !r; y0 += (uint32_t)rb, i++)
				r = conv_dx_item(g, &c, c.order[i % c.T], n, grp, y0,
						 y0 + rb < c.w.H ? y0 + (uint32_t)rb : c.w.H, err);
	if (r || (r = conv_program(g, seq, &c, err)))
		return conv_finish(&c, r);
	return conv_finish(&c, c.out);
}
