// SPDX-License-Identifier: MIT
/*
 * popnn-level max and average pooling and their gradients (ipu_pool2d,
 * ipu_pool2d_grad) with the sliding-window codelets 0x0Bxx
 * (codelets_window.c). The NCHW input is N * C planes; an item is a block
 * of output positions (forward) or input rows (gradient) of one plane, or
 * whole planes several at a time, on one tile, with its window rows
 * brought there by exchange "@name/gather". See docs/builder.md, "popnn:
 * pooling".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codelets.h"
#include "window.h"

#define NAME_LEN 200

struct pool {
	struct ipu__win w;
	unsigned op;
	uint64_t Q, U;		/* planes, output positions a plane */
	int x, dy, out;
	int ex, cs;
	unsigned *order;
	char exname[NAME_LEN];
};

static int pool_params(const struct ipu_pool2d_params *in, struct ipu_pool2d_params *p, const char *op,
		       const char *name, struct ipu_error *err)
{
	if (!in)
		return ipu__err(err, -EINVAL, "%s '%s': params are NULL (the kernel must be given)", op, name);
	if (in->argsz < sizeof(*p))
		return ipu__err(err, -EINVAL, "%s '%s': params argsz %u is smaller than the first version's %zu",
				op, name, in->argsz, sizeof(*p));
	for (size_t i = sizeof(*p); i < in->argsz; i++)
		if (((const unsigned char *)in)[i])
			return ipu__err(err, -EINVAL, "%s '%s': params byte %zu (past the %zu this library knows) "
					"is not zero", op, name, i, sizeof(*p));
	memcpy(p, in, sizeof(*p));
	return 0;
}

/* x's shape, the params and the op: the geometry, or a refusal */
static int pool_geometry(struct ipu_graph *g, struct pool *pl, unsigned op, const char *fn, const char *name,
			 int x, const struct ipu_pool2d_params *pin, struct ipu_error *err)
{
	struct ipu_pool2d_params p;
	uint32_t xs[4];
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", fn);
	if (!name || !*name)
		return ipu__err(err, -EINVAL, "%s: the output needs a name", fn);
	if (ipu_graph_find_tensor(g, name) >= 0)
		return ipu__err(err, -EEXIST, "%s: a tensor '%s' already exists", fn, name);
	if (op != IPU_POOL_MAX && op != IPU_POOL_AVG)
		return ipu__err(err, -EINVAL, "%s '%s': unknown pool op %u (IPU_POOL_MAX or IPU_POOL_AVG)", fn, name,
				op);
	if ((r = pool_params(pin, &p, fn, name, err)) || (r = ipu__win_rank4(g, x, fn, name, "x", xs, err)))
		return r;
	if (ipu__graph_tensor(g, x)->dtype != IPU_DTYPE_F32)
		return ipu__err(err, -EINVAL, "%s '%s': x '%s' must be f32", fn, name, ipu__graph_tensor(g, x)->name);
	if (p.padding[0] >= p.kernel[0] || p.padding[1] >= p.kernel[0] || p.padding[2] >= p.kernel[1] ||
	    p.padding[3] >= p.kernel[1])
		return ipu__err(err, -EINVAL, "%s '%s': padding (%u, %u, %u, %u) must be below the kernel %ux%u "
				"(a window of padding only has no value)", fn, name, p.padding[0], p.padding[1],
				p.padding[2], p.padding[3], p.kernel[0], p.kernel[1]);
	memset(pl, 0, sizeof(*pl));
	pl->w = (struct ipu__win){ .H = xs[2], .W = xs[3], .KH = p.kernel[0], .KW = p.kernel[1],
				   .SY = p.stride[0], .SX = p.stride[1], .DY = 1, .DX = 1, .PT = p.padding[0],
				   .PB = p.padding[1], .PL = p.padding[2], .PR = p.padding[3] };
	if ((r = ipu__win_check(&pl->w, fn, name, err)))
		return r;
	pl->op = op, pl->x = x, pl->dy = -1, pl->ex = -1;
	pl->Q = (uint64_t)xs[0] * xs[1];
	pl->U = (uint64_t)pl->w.OH * pl->w.OW;
	snprintf(pl->exname, sizeof(pl->exname), "%s/gather", name);
	return 0;
}

static int pool_mapped(const struct ipu_graph *g, int t, const char *fn, const char *name, const char *role,
		       struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);

	if (x->mapped != x->elements)
		return ipu__err(err, -EINVAL, "%s '%s': %s '%s' is not fully mapped to tiles", fn, name, role, x->name);
	return 0;
}

static struct ipu__rawfield fld(long off, uint64_t count, int tensor)
{
	struct ipu__rawfield f = { (uint32_t)off, (uint32_t)count, IPU_DTYPE_F32, tensor, 0 };

	return f;
}

/* the memory of an item of b positions (forward) or rows (gradient) of one plane */
static uint64_t pool_fwd_bytes(const void *ctx, uint64_t b)
{
	const struct pool *p = ctx;
	uint64_t rows = (b + p->w.OW - 1) / p->w.OW + 1;

	return (((rows - 1) * p->w.SY + p->w.KH) * p->w.W + b) * 4 + 128;
}

static uint64_t pool_grad_bytes(const void *ctx, uint64_t b)
{
	const struct pool *p = ctx;
	uint64_t P = ((b - 1 + p->w.KH - 1) / p->w.SY + 1) * p->w.OW;
	uint64_t xrows = p->op == IPU_POOL_MAX ? ((P / p->w.OW - 1) * p->w.SY + p->w.KH + b) : 0;

	return ((xrows + b) * p->w.W + P) * 4 + 192;
}

/* qb whole planes: qb times one plane's item */
struct planes {
	const struct pool *p;
	uint64_t (*bytes)(const void *ctx, uint64_t b);
	uint64_t U;
};

static uint64_t planes_bytes(const void *ctx, uint64_t q)
{
	const struct planes *s = ctx;

	return q * s->bytes(s->p, s->U);
}

/*
 * Items: @b units (positions or rows of @U) of one plane, or, when b = U,
 * qb whole planes at a time (as many as spread the planes over the tiles
 * and fit). Fills *b and *qb.
 */
static int pool_fit(struct ipu_graph *g, struct pool *p, uint64_t U, uint64_t (*bytes)(const void *, uint64_t),
		    const char *fn, const char *name, uint64_t *b, uint64_t *qb, struct ipu_error *err)
{
	unsigned T = ipu_graph_tiles(g);
	uint64_t spread = (p->Q * U + T - 1) / T;

	if (!(p->order = ipu__win_order(g)))
		return ipu__err(err, -ENOMEM, "%s '%s': out of memory", fn, name);
	*b = ipu__win_block(g, p->order, p->Q, U, spread, bytes, p);
	*qb = 1;
	if (*b == U) {	/* whole planes: several a vertex when there are more planes than tiles */
		struct planes s = { p, bytes, U };

		*qb = ipu__win_block(g, p->order, 1, p->Q, (p->Q + T - 1) / T, planes_bytes, &s);
		if (*qb > 0xffff)
			*qb = 0xffff;	/* the codelets' 16-bit channel count */
	}
	if (!*b || !*qb)
		return ipu__err(err, -ENOSPC, "%s '%s': does not fit in tile memory (%llu bytes free on the "
				"emptiest tile)", fn, name, (unsigned long long)ipu__win_avail(g));
	return 0;
}

static int pool_program(struct ipu_graph *g, int seq, const struct pool *p, struct ipu_error *err)
{
	int n;

	if (p->ex >= 0 && ((n = ipu_prog_exchange(g, p->ex, err)) < 0 || (n = ipu_prog_append(g, seq, n, err)) < 0))
		return n;
	if ((n = ipu_prog_execute(g, p->cs, err)) < 0 || (n = ipu_prog_append(g, seq, n, err)) < 0)
		return n;
	return 0;
}

/* a new f32 output @name of @shape and compute set "@name/@cs" */
static int pool_begin(struct ipu_graph *g, struct pool *p, const char *name, const uint32_t shape[4],
		      const char *cs, struct ipu_error *err)
{
	char b[NAME_LEN];

	snprintf(b, sizeof(b), "%s/%s", name, cs);
	if ((p->out = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 4, shape, err)) < 0)
		return p->out;
	p->cs = ipu_graph_add_compute_set(g, b, err);
	return p->cs < 0 ? p->cs : 0;
}

/* forward item: planes [q0, q0 + qn), positions [p0, p1) */
static int pool_fwd_item(struct ipu_graph *g, struct pool *p, unsigned tile, uint64_t q0, uint32_t qn, uint64_t p0,
			 uint64_t p1, struct ipu_error *err)
{
	uint64_t hw = (uint64_t)p->w.H * p->w.W, P = p1 - p0;
	uint32_t y0, rows, prm[8];
	long in, out;
	int r;

	ipu__win_rows(&p->w, p0, p1, &y0, &rows);
	in = ipu__win_gather(g, &p->ex, p->exname, p->x, q0 * hw + (uint64_t)y0 * p->w.W, hw,
			     (uint64_t)rows * p->w.W, qn, tile, err);
	if (in < 0 || (out = ipu__tile_alloc(g, tile, qn * P * 4, 16, p->exname, err)) < 0)
		return (int)(in < 0 ? in : out);
	if ((r = ipu__win_map(g, p->out, q0 * p->U + p0, p->U, P, qn, tile, (uint32_t)out, err)))
		return r;
	struct ipu__rawfield f[2] = { fld(in, (uint64_t)qn * rows * p->w.W, p->x), fld(out, qn * P, p->out) };

	ipu__win_vparams(&p->w, prm, qn, 0, y0, rows, p0);
	r = ipu__add_vertex_raw(g, p->cs, p->op == IPU_POOL_MAX ? IPUE_CODELET_MAX_POOL : IPUE_CODELET_AVG_POOL,
				tile, f, 2, prm, 8, err);
	return r < 0 ? r : 0;
}

static int pool_finish(struct pool *p, int r)
{
	free(p->order);
	return r;
}

IPU_API int ipu_pool2d(struct ipu_graph *g, int seq, unsigned op, int x,
		       const struct ipu_pool2d_params *prm, const char *name, struct ipu_error *err)
{
	const char *fn = "ipu_pool2d";
	struct pool p;
	uint64_t b, qb, i = 0;
	int r;

	if ((r = pool_geometry(g, &p, op, fn, name, x, prm, err)) || (r = pool_mapped(g, x, fn, name, "x", err)))
		return r;
	const struct ipu__tensor *xt = ipu__graph_tensor(g, x);
	uint32_t ys[4] = { xt->shape[0], xt->shape[1], p.w.OH, p.w.OW };

	if ((r = pool_fit(g, &p, p.U, pool_fwd_bytes, fn, name, &b, &qb, err)) ||
	    (r = pool_begin(g, &p, name, ys, op == IPU_POOL_MAX ? "max" : "avg", err)))
		return pool_finish(&p, r);
	for (uint64_t q = 0; q < p.Q && !r; q += qb)
		for (uint64_t p0 = 0; p0 < p.U && !r; p0 += b, i++)
			r = pool_fwd_item(g, &p, p.order[i % ipu_graph_tiles(g)], q,
					  (uint32_t)(q + qb < p.Q ? qb : p.Q - q), p0, p0 + b < p.U ? p0 + b : p.U, err);
	if (r || (r = pool_program(g, seq, &p, err)))
		return pool_finish(&p, r);
	return pool_finish(&p, p.out);
}

/* gradient item: planes [q0, q0 + qn), input rows [y0, y1) */
static int pool_grad_item(struct ipu_graph *g, struct pool *p, unsigned tile, uint64_t q0, uint32_t qn, uint32_t y0,
			  uint32_t y1, struct ipu_error *err)
{
	uint64_t hw = (uint64_t)p->w.H * p->w.W, p0, p1;
	uint32_t xy0 = y0, xrows = y1 - y0, prm[8];
	long dyo = 0, xo = 0, dxo;
	int r, nf = 0;

	ipu__win_positions(&p->w, y0, y1, &p0, &p1);
	if (p1 > p0 && p->op == IPU_POOL_MAX) {	/* x rows: the windows of those positions and [y0, y1) */
		uint32_t a, n;

		ipu__win_rows(&p->w, p0, p1, &a, &n);
		xy0 = a < y0 ? a : y0;
		xrows = (a + n > y1 ? a + n : y1) - xy0;
	}
	uint64_t P = p1 - p0;

	if ((P && (dyo = ipu__win_gather(g, &p->ex, p->exname, p->dy, q0 * p->U + p0, p->U, P, qn, tile, err)) < 0) ||
	    (p->op == IPU_POOL_MAX && (xo = ipu__win_gather(g, &p->ex, p->exname, p->x, q0 * hw + (uint64_t)xy0 * p->w.W,
							   hw, (uint64_t)xrows * p->w.W, qn, tile, err)) < 0) ||
	    (dxo = ipu__tile_alloc(g, tile, (uint64_t)qn * (y1 - y0) * p->w.W * 4, 16, p->exname, err)) < 0)
		return (int)(dyo < 0 ? dyo : xo < 0 ? xo : dxo);
	if ((r = ipu__win_map(g, p->out, q0 * hw + (uint64_t)y0 * p->w.W, hw, (uint64_t)(y1 - y0) * p->w.W, qn, tile,
			      (uint32_t)dxo, err)))
		return r;
	struct ipu__rawfield f[3];

	if (p->op == IPU_POOL_MAX) {
		f[nf++] = fld(xo, (uint64_t)qn * xrows * p->w.W, p->x);
		ipu__win_vparams(&p->w, prm, qn, y0 - xy0, xy0, xrows, p0);
	} else {
		ipu__win_vparams(&p->w, prm, qn, 0, y0, y1 - y0, p0);
	}
	f[nf++] = fld(dyo, qn * P, p->dy);
	f[nf++] = fld(dxo, (uint64_t)qn * (y1 - y0) * p->w.W, p->out);
	r = ipu__add_vertex_raw(g, p->cs, p->op == IPU_POOL_MAX ? IPUE_CODELET_MAX_POOL_GRAD :
				IPUE_CODELET_AVG_POOL_GRAD, tile, f, (unsigned)nf, prm, 8, err);
	return r < 0 ? r : 0;
}

/* dy f32 [N][C][OH][OW], mapped */
static int pool_check_dy(const struct ipu_graph *g, const struct pool *p, int dy, const char *fn, const char *name,
			 struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, p->x);
	uint32_t s[4], want[4] = { x->shape[0], x->shape[1], p->w.OH, p->w.OW };
	char b1[64], b2[64];
	int r;

	if ((r = ipu__win_rank4(g, dy, fn, name, "dy", s, err)))
		return r;
	if (ipu__graph_tensor(g, dy)->dtype != IPU_DTYPE_F32)
		return ipu__err(err, -EINVAL, "%s '%s': dy '%s' must be f32", fn, name, ipu__graph_tensor(g, dy)->name);
	if (memcmp(s, want, sizeof(s)))
		return ipu__err(err, -EINVAL, "%s '%s': dy '%s' %s does not match the pool's output %s", fn, name,
				ipu__graph_tensor(g, dy)->name, ipu__shape_str(b1, sizeof(b1), 4, s),
				ipu__shape_str(b2, sizeof(b2), 4, want));
	return pool_mapped(g, dy, fn, name, "dy", err);
}

IPU_API int ipu_pool2d_grad(struct ipu_graph *g, int seq, unsigned op, int x, int dy,
			    const struct ipu_pool2d_params *prm, const char *name, struct ipu_error *err)
{
	const char *fn = "ipu_pool2d_grad";
	struct pool p;
	uint64_t b, qb, i = 0;
	int r;

	if ((r = pool_geometry(g, &p, op, fn, name, x, prm, err)) || (r = pool_check_dy(g, &p, dy, fn, name, err)) ||
	    (op == IPU_POOL_MAX && (r = pool_mapped(g, x, fn, name, "x", err))))
		return r;
	const struct ipu__tensor *xt = ipu__graph_tensor(g, x);
	uint32_t xs[4] = { xt->shape[0], xt->shape[1], xt->shape[2], xt->shape[3] };

	p.dy = dy;
	if ((r = pool_fit(g, &p, p.w.H, pool_grad_bytes, fn, name, &b, &qb, err)) ||
	    (r = pool_begin(g, &p, name, xs, op == IPU_POOL_MAX ? "max_grad" : "avg_grad", err)))
		return pool_finish(&p, r);
	for (uint64_t q = 0; q < p.Q && !r; q += qb)
		for (uint32_t y0 = 0; y0 < p.w.H && !r; y0 += (uint32_t)b, i++)
			r = pool_grad_item(g, &p, p.order[i % ipu_graph_tiles(g)], q,
					   (uint32_t)(q + qb < p.Q ? qb : p.Q - q), y0,
					   y0 + b < p.w.H ? y0 + (uint32_t)b : p.w.H, err);
	if (r || (r = pool_program(g, seq, &p, err)))
		return pool_finish(&p, r);
	return pool_finish(&p, p.out);
}
