// SPDX-License-Identifier: MIT
/*
 * Sliding-window geometry and work splitting shared by the convolution
 * (conv.c) and the pools (pool.c); see window.h.
 */
#include <errno.h>
#include <stdlib.h>

#include "window.h"

static int64_t floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

void ipu__win_rows(const struct ipu__win *w, uint64_t p0, uint64_t p1, uint32_t *y0, uint32_t *rows)
{
	int64_t a = (int64_t)(p0 / w->OW) * w->SY - w->PT;
	int64_t b = (int64_t)((p1 - 1) / w->OW) * w->SY - w->PT + (int64_t)(w->KH - 1) * w->DY + 1;

	if (a < 0)
		a = 0;
	if (b > w->H)
		b = w->H;
	*y0 = b > a ? (uint32_t)a : 0;
	*rows = b > a ? (uint32_t)(b - a) : 0;
}

void ipu__win_positions(const struct ipu__win *w, uint32_t y0, uint32_t y1, uint64_t *p0, uint64_t *p1)
{
	int64_t lo = -floor_div(-((int64_t)y0 + w->PT - (int64_t)(w->KH - 1) * w->DY), w->SY);
	int64_t hi = floor_div((int64_t)y1 - 1 + w->PT, w->SY) + 1;

	if (lo < 0)
		lo = 0;
	if (hi > w->OH)
		hi = w->OH;
	if (hi < lo)
		hi = lo;
	*p0 = (uint64_t)lo * w->OW;
	*p1 = (uint64_t)hi * w->OW;
}

void ipu__win_vparams(const struct ipu__win *w, uint32_t p[8], uint32_t C, uint32_t goff, uint32_t wy0,
		      uint32_t wh, uint64_t p0)
{
	p[0] = C | goff << 16;
	p[1] = w->W | wh << 16;
	p[2] = w->KH | w->KW << 16;
	p[3] = w->SY | w->SX << 16;
	p[4] = w->DY | w->DX << 16;
	p[5] = w->PT | w->PL << 16;
	p[6] = w->OW | wy0 << 16;
	p[7] = (uint32_t)p0;
}

int ipu__win_check(struct ipu__win *w, const char *op, const char *name, struct ipu_error *err)
{
	uint64_t eh = (uint64_t)(w->KH - 1) * w->DY + 1, ew = (uint64_t)(w->KW - 1) * w->DX + 1;
	uint64_t ph = (uint64_t)w->H + w->PT + w->PB, pw = (uint64_t)w->W + w->PL + w->PR;

	if (!w->SY || !w->SX)
		return ipu__err(err, -EINVAL, "%s '%s': zero stride (%u, %u)", op, name, w->SY, w->SX);
	if (!w->DY || !w->DX)
		return ipu__err(err, -EINVAL, "%s '%s': zero dilation (%u, %u)", op, name, w->DY, w->DX);
	if (!w->KH || !w->KW)
		return ipu__err(err, -EINVAL, "%s '%s': empty kernel %ux%u", op, name, w->KH, w->KW);
	if (eh > ph || ew > pw)
		return ipu__err(err, -EINVAL,
				"%s '%s': kernel %ux%u (dilated %llux%llu) is bigger than the padded input %llux%llu",
				op, name, w->KH, w->KW, (unsigned long long)eh, (unsigned long long)ew,
				(unsigned long long)ph, (unsigned long long)pw);
	w->OH = (uint32_t)((ph - eh) / w->SY + 1);
	w->OW = (uint32_t)((pw - ew) / w->SX + 1);
	if (w->H > 0xffff || w->W > 0xffff || w->KH > 0xffff || w->KW > 0xffff || w->SY > 0xffff ||
	    w->SX > 0xffff || w->DY > 0xffff || w->DX > 0xffff || w->PT > 0xffff || w->PL > 0xffff ||
	    w->PB > 0xffff || w->PR > 0xffff || w->OW > 0xffff || (uint64_t)w->OH * w->OW > UINT32_MAX)
		return ipu__err(err, -EINVAL, "%s '%s': image, kernel, stride, dilation and padding "
				"must each be below 65536", op, name);
	return 0;
}

static uint64_t tile_free(const struct ipu_graph *g, unsigned t)
{
	return ipu_graph_tile_memory(g) - ipu_graph_tile_used(g, t);
}

static uint64_t win_block_within(const struct ipu_graph *g, const unsigned *order, uint64_t S, uint64_t U,
				 uint64_t b, unsigned div, uint64_t (*bytes)(const void *ctx, uint64_t b),
				 const void *ctx)
{
	unsigned T = ipu_graph_tiles(g);

	for (;;) {
		uint64_t items = S * ((U + b - 1) / b), per = (items + T - 1) / T;
		/* the fullest tile that gets an item: order is emptiest first */
		unsigned last = order[items < T ? items - 1 : T - 1];

		if (per * bytes(ctx, b) <= tile_free(g, last) / div)
			return b;
		if (b == 1)
			return 0;
		b = (b + 1) / 2;
	}
}

uint64_t ipu__win_block(const struct ipu_graph *g, const unsigned *order, uint64_t S, uint64_t U, uint64_t b0,
			uint64_t (*bytes)(const void *ctx, uint64_t b), const void *ctx)
{
	uint64_t b = b0 < 1 ? 1 : b0 > U ? U : b0, r;

	/* half of the free memory first: the ops that follow need some too */
	r = win_block_within(g, order, S, U, b, 2, bytes, ctx);
	return r ? r : win_block_within(g, order, S, U, b, 1, bytes, ctx);
}

/*
 * Every tile's used bytes come from one memory plan: ipu_graph_tile_used()
 * plans the whole graph on each call, which per tile made this quadratic
 * (ipu-train's CNN took minutes to build on gc200). The same numbers:
 * g->top without reuse or when planning fails, as that function does.
 */
unsigned *ipu__win_order(const struct ipu_graph *g)
{
	unsigned T = ipu_graph_tiles(g), *o = malloc(sizeof(*o) * T);
	struct ipu__memplan p;
	int planned = g->reuse && !ipu__memplan_make(g, &p);
	const uint32_t *used = planned ? p.top : g->top;

	for (unsigned t = 0; o && t < T; t++)
		o[t] = t;
	/* insertion by used bytes, stable: tiles are mostly equal, so this is near linear */
	for (unsigned i = 1; o && i < T; i++) {
		unsigned v = o[i], j = i;

		while (j > 0 && used[o[j - 1]] > used[v]) {
			o[j] = o[j - 1];
			j--;
		}
		o[j] = v;
	}
	if (planned)
		ipu__memplan_free(&p);
	return o;
}

uint64_t ipu__win_avail(const struct ipu_graph *g)
{
	uint64_t m = 0;

	for (unsigned t = 0; t < ipu_graph_tiles(g); t++)
		if (tile_free(g, t) > m)
			m = tile_free(g, t);
	return m;
}

int ipu__win_gather_to(struct ipu_graph *g, int *ex, const char *exname, int t, uint64_t e0, uint64_t stride,
		       uint64_t run, uint32_t nruns, unsigned tile, uint32_t off, struct ipu_error *err)
{
	unsigned es = ipu_dtype_size(ipu__graph_tensor(g, t)->dtype);

	if (run && nruns && *ex < 0 && (*ex = ipu_graph_add_exchange(g, exname, err)) < 0)
		return *ex;
	for (uint32_t i = 0; i < nruns && run; i++) {
		struct ipu__piece *pc;
		long n = ipu__slice_pieces(g, t, e0 + i * stride, run, &pc, NULL);
		uint32_t d = (uint32_t)(off + i * run * es);
		int r = 0;

		if (n < 0)
			return n == -ENOMEM ? ipu__err(err, -ENOMEM, "%s: out of memory", exname)
					    : ipu__err(err, -EINVAL, "%s: tensor '%s' is not mapped", exname,
						       ipu__graph_tensor(g, t)->name);
		for (long k = 0; k < n && !r; k++) {
			r = ipu__exchange_raw(g, *ex, pc[k].tile, pc[k].off, tile, d, (uint32_t)(pc[k].count * es),
					      t, -1, err);
			d += (uint32_t)(pc[k].count * es);
		}
		free(pc);
		if (r)
			return r;
	}
	return 0;
}

long ipu__win_gather(struct ipu_graph *g, int *ex, const char *exname, int t, uint64_t e0, uint64_t stride,
		     uint64_t run, uint32_t nruns, unsigned tile, struct ipu_error *err)
{
	unsigned es = ipu_dtype_size(ipu__graph_tensor(g, t)->dtype);
	long off;
	int r;

	if (!run || !nruns)
		return 0;	/* an empty field: no buffer */
	if (nruns == 1)
		return ipu__local_copy(g, ex, exname, t, e0, run, tile, err);
	off = ipu__tile_alloc(g, tile, run * nruns * es, 64, exname, err);
	if (off < 0)
		return off;
	r = ipu__win_gather_to(g, ex, exname, t, e0, stride, run, nruns, tile, (uint32_t)off, err);
	return r ? r : off;
}

int ipu__win_map(struct ipu_graph *g, int t, uint64_t e0, uint64_t stride, uint64_t run, uint32_t nruns,
		 unsigned tile, uint32_t off, struct ipu_error *err)
{
	unsigned es = ipu_dtype_size(ipu__graph_tensor(g, t)->dtype);
	int r = 0;

	for (uint32_t i = 0; i < nruns && !r && run; i++)
		r = ipu__map_at(g, t, e0 + i * stride, run, tile, (uint32_t)(off + i * run * es), err);
	return r;
}

int ipu__win_rank4(const struct ipu_graph *g, int t, const char *op, const char *name, const char *role,
		   uint32_t s[4], struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);

	if (!x)
		return ipu__err(err, -EINVAL, "%s '%s': no tensor %d (%s)", op, name, t, role);
	if (x->rank != 4)
		return ipu__err(err, -EINVAL, "%s '%s': %s '%s' has rank %u, must be 4 (%s)", op, name, role,
				x->name, x->rank, role[0] == 'w' ? "[Cout][Cin/groups][KH][KW]" : "NCHW");
	for (int i = 0; i < 4; i++)
		s[i] = x->shape[i];
	return 0;
}
