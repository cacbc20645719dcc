/* SPDX-License-Identifier: MIT */
/*
 * Sliding-window codelets over one block of image rows: Im2Col and Col2Im
 * (0x0703, 0x0704; the convolution lowering to MatMulPartial) and the
 * pools with their gradients (0x0B01-0x0B04). All share one geometry, in
 * the same eight params (docs/codelets.md, "Sliding windows"):
 *   p0 C | goff << 16     channels of the block; MaxPoolGrad's in_grad row offset
 *   p1 W | wh << 16       image width, rows in the window
 *   p2 KH | KW << 16      kernel
 *   p3 SY | SX << 16      stride
 *   p4 DY | DX << 16      dilation
 *   p5 PT | PL << 16      padding before the first row / column
 *   p6 OW | wy0 << 16     output width, image row of the window's first row
 *   p7 p0                 first output position (oy * OW + ox) of the block
 * Output position p reads image pixel (p/OW*SY - PT + ky*DY, p%OW*SX - PL +
 * kx*DX) for tap (ky, kx); a pixel outside the window (rows) or the image
 * (columns) is padding: 0 for Im2Col/AvgPool, absent for MaxPool.
 */
#include <string.h>

#include "codelets_impl.h"

struct win {
	uint32_t C, goff, W, wh, KH, KW, SY, SX, DY, DX, PT, PL, OW, wy0, p0;
	uint64_t P;		/* output positions of the block */
};

static struct win win_of(const uint32_t *p)
{
	struct win w = {
		.C = p[0] & 0xffff, .goff = p[0] >> 16, .W = p[1] & 0xffff, .wh = p[1] >> 16,
		.KH = p[2] & 0xffff, .KW = p[2] >> 16, .SY = p[3] & 0xffff, .SX = p[3] >> 16,
		.DY = p[4] & 0xffff, .DX = p[4] >> 16, .PT = p[5] & 0xffff, .PL = p[5] >> 16,
		.OW = p[6] & 0xffff, .wy0 = p[6] >> 16, .p0 = p[7],
	};
	return w;
}

/* the window row of tap ky at output row oy, or -1 outside the window */
static inline int64_t win_row(const struct win *w, uint64_t oy, uint32_t ky)
{
	int64_t r = (int64_t)(oy * w->SY) - w->PT + (int64_t)ky * w->DY - w->wy0;

	return r >= 0 && r < w->wh ? r : -1;
}

/* the image column of tap kx at output column ox (may be outside [0, W)) */
static inline int64_t win_col(const struct win *w, uint64_t ox, uint32_t kx)
{
	return (int64_t)(ox * w->SX) - w->PL + (int64_t)kx * w->DX;
}

/*
 * Geometry checks shared by all: nonzero extents, and the block's last
 * output position within the 32-bit range. @P is the positions the block's
 * position-shaped field implies (its count over @per).
 */
static int win_check(struct win *w, uint64_t pcount, uint64_t per, const char *pname, char *msg,
		     size_t msglen)
{
	if (!w->C || !w->W || !w->KH || !w->KW || !w->SY || !w->SX || !w->DY || !w->DX || !w->OW)
		return ipue__fail(msg, msglen, "C, W, KH, KW, SY, SX, DY, DX and OW must be >= 1 "
				  "(C %u W %u K %ux%u S %ux%u D %ux%u OW %u)", w->C, w->W, w->KH,
				  w->KW, w->SY, w->SX, w->DY, w->DX, w->OW);
	if (pcount % per)
		return ipue__fail(msg, msglen, "%s has %llu elements, not a multiple of %llu", pname,
				  (unsigned long long)pcount, (unsigned long long)per);
	w->P = pcount / per;
	if ((uint64_t)w->p0 + w->P > UINT32_MAX)
		return ipue__fail(msg, msglen, "positions [%u, %llu) exceed 32 bits", w->p0,
				  (unsigned long long)(w->p0 + w->P));
	return 0;
}

/* the window-shaped field f holds C x rows x W elements of dtype dt */
static int win_field(const struct ipue_field *f, const char *name, uint64_t rows, const struct win *w,
		     uint8_t dt, char *msg, size_t msglen)
{
	int r = ipue__check_field(f, name, msg, msglen);

	if (r)
		return r;
	if (f->dtype != dt)
		return ipue__fail(msg, msglen, "%s is %s, must be %s", name, ipue__dtype_name(f->dtype),
				  ipue__dtype_name(dt));
	if (f->count != (uint64_t)w->C * rows * w->W)
		return ipue__fail(msg, msglen, "%s has %u elements, C x rows x W = %u x %llu x %u", name,
				  f->count, w->C, (unsigned long long)rows, w->W);
	return 0;
}

static int no_overlap(const struct ipue_field *o, const struct ipue_field *i, const char *on, const char *in,
		      char *msg, size_t msglen)
{
	return ipue__overlap(o, i) ? ipue__fail(msg, msglen, "%s overlaps %s", on, in) : 0;
}

/* ---------------- Im2Col / Col2Im ---------------- */

/* fields: in (window [C][wh][W]), col ([C*KH*KW][P]); same dtype (f32 or f16) */
static int im2col_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	struct win w = win_of(p);
	int r;

	if (w.goff)
		return ipue__fail(msg, msglen, "params[0] bits 16-31 must be 0");
	if ((r = ipue__check_field(&f[1], "col", msg, msglen)) ||
	    (r = win_check(&w, f[1].count, (uint64_t)w.C * w.KH * w.KW, "col", msg, msglen)) ||
	    (r = win_field(&f[0], "in", w.wh, &w, f[1].dtype, msg, msglen)))
		return r;
	return no_overlap(&f[1], &f[0], "col", "in", msg, msglen);
}

/* the valid output columns [*a, *b) of tap kx: 0 <= col(ox) < W */
static void valid_cols(const struct win *w, uint32_t kx, uint64_t *a, uint64_t *b)
{
	int64_t c0 = win_col(w, 0, kx);		/* col(ox) = c0 + ox * SX */

	*a = c0 >= 0 ? 0 : (uint64_t)((-c0 + w->SX - 1) / w->SX);
	*b = c0 >= (int64_t)w->W ? 0 : (uint64_t)(((int64_t)w->W - 1 - c0) / w->SX + 1);
	if (*b > w->OW)
		*b = w->OW;
	if (*a > *b)
		*a = *b;
}

/* one col row (tap c, ky, kx) over the block's positions: copy or zero */
static void im2col_row(const struct win *w, const uint8_t *in, uint8_t *out, size_t es, uint32_t c,
		       uint32_t ky, uint32_t kx)
{
	uint64_t a, b, p = w->p0, end = w->p0 + w->P;

	valid_cols(w, kx, &a, &b);
	while (p < end) {
		uint64_t oy = p / w->OW, ox = p % w->OW, n = w->OW - ox;
		int64_t r = win_row(w, oy, ky);

		if (n > end - p)
			n = end - p;
		uint64_t lo = ox > a ? ox : a, hi = ox + n < b ? ox + n : b;

		if (r < 0 || lo >= hi) {
			memset(out, 0, n * es);
		} else {
			const uint8_t *src = in + (((uint64_t)c * w->wh + (uint64_t)r) * w->W) * es;

			memset(out, 0, (lo - ox) * es);
			if (w->SX == 1) {
				memcpy(out + (lo - ox) * es, src + (uint64_t)win_col(w, lo, kx) * es, (hi - lo) * es);
			} else {
				for (uint64_t x = lo; x < hi; x++)
					memcpy(out + (x - ox) * es, src + (uint64_t)win_col(w, x, kx) * es, es);
			}
			memset(out + (hi - ox) * es, 0, (ox + n - hi) * es);
		}
		out += n * es;
		p += n;
	}
}

static void im2col_run(const struct ipue_field *f, const uint32_t *p)
{
	struct win w = win_of(p);
	size_t es = ipue__dtype_size(f[1].dtype);
	uint8_t *out = f[1].data;

	w.P = f[1].count / ((uint64_t)w.C * w.KH * w.KW);
	for (uint32_t c = 0; c < w.C; c++)
		for (uint32_t ky = 0; ky < w.KH; ky++)
			for (uint32_t kx = 0; kx < w.KW; kx++, out += w.P * es)
				im2col_row(&w, f[0].data, out, es, c, ky, kx);
}

static uint64_t im2col_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;
	/* 64-bit loads and stores: 2 f32 or 4 f16 elements a cycle */
	return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(f[1].count, f[1].dtype == IPU_DTYPE_F16 ? 4 : 2);
}

/* fields: col ([C*KH*KW][P], f32), out (window [C][wh][W], f32) */
static int col2im_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	struct win w = win_of(p);
	int r;

	if (w.goff)
		return ipue__fail(msg, msglen, "params[0] bits 16-31 must be 0");
	if ((r = ipue__check_field(&f[0], "col", msg, msglen)) ||
	    (r = win_check(&w, f[0].count, (uint64_t)w.C * w.KH * w.KW, "col", msg, msglen)) ||
	    (r = win_field(&f[1], "out", w.wh, &w, IPU_DTYPE_F32, msg, msglen)))
		return r;
	if (f[0].dtype != IPU_DTYPE_F32)
		return ipue__fail(msg, msglen, "col is %s, must be f32", ipue__dtype_name(f[0].dtype));
	return no_overlap(&f[1], &f[0], "out", "col", msg, msglen);
}

/* one col row (tap c, ky, kx) added at its taps, output row by output row */
static void col2im_row(const struct win *w, const float *col, float *out, uint32_t c, uint32_t ky, uint32_t kx)
{
	uint64_t a, b, p = w->p0, end = w->p0 + w->P;

	valid_cols(w, kx, &a, &b);
	while (p < end) {
		uint64_t oy = p / w->OW, ox = p % w->OW, n = w->OW - ox;
		int64_t r = win_row(w, oy, ky);

		if (n > end - p)
			n = end - p;
		uint64_t lo = ox > a ? ox : a, hi = ox + n < b ? ox + n : b;

		if (r >= 0 && lo < hi) {
			float *dst = out + ((uint64_t)c * w->wh + (uint64_t)r) * w->W;
			const float *src = col + (lo - ox);
			int64_t x0 = win_col(w, lo, kx);

			for (uint64_t i = 0; i < hi - lo; i++)
				dst[x0 + (int64_t)(i * w->SX)] += src[i];
		}
		col += n;
		p += n;
	}
}

/* out (zeroed) += each col row at its taps; per element in ascending (c, ky, kx) */
static void col2im_run(const struct ipue_field *f, const uint32_t *p)
{
	struct win w = win_of(p);
	const float *col = f[0].data;
	float *out = f[1].data;

	w.P = f[0].count / ((uint64_t)w.C * w.KH * w.KW);
	memset(out, 0, (size_t)f[1].count * sizeof(float));
	for (uint32_t c = 0; c < w.C; c++)
		for (uint32_t ky = 0; ky < w.KH; ky++)
			for (uint32_t kx = 0; kx < w.KW; kx++, col += w.P)
				col2im_row(&w, col, out, c, ky, kx);
}

static uint64_t col2im_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;
	/* zero the window at 2 a cycle, then a load-add-store per col element */
	return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(f[1].count, 2) + f[0].count;
}

/* ---------------- pools ---------------- */

/*
 * The tap of position pos that MaxPool picks: the first maximum in (ky, kx)
 * order, a NaN counting as the maximum (the first NaN wins); -1 if the
 * window holds no image pixel. *v is its value.
 */
static int64_t max_tap(const struct win *w, const float *x, uint64_t pos, float *v)
{
	uint64_t oy = pos / w->OW, ox = pos % w->OW;
	int64_t best = -1;
	float m = 0;

	for (uint32_t ky = 0; ky < w->KH; ky++) {
		int64_t r = win_row(w, oy, ky);

		if (r < 0)
			continue;
		for (uint32_t kx = 0; kx < w->KW; kx++) {
			int64_t c = win_col(w, ox, kx);

			if (c < 0 || c >= (int64_t)w->W)
				continue;
			int64_t i = r * (int64_t)w->W + c;
			float e = x[i];

			if (best < 0 || e > m || (e != e && m == m)) {
				best = i;
				m = e;
			}
		}
	}
	*v = m;
	return best;
}

/* fields: in (window [C][wh][W]), out ([C][P]); f32 */
static int pool_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	struct win w = win_of(p);
	int r;

	if (w.goff)
		return ipue__fail(msg, msglen, "params[0] bits 16-31 must be 0");
	if ((r = ipue__check_field(&f[1], "out", msg, msglen)) ||
	    (r = win_check(&w, f[1].count, w.C, "out", msg, msglen)) ||
	    (r = win_field(&f[0], "in", w.wh, &w, IPU_DTYPE_F32, msg, msglen)))
		return r;
	if (f[1].dtype != IPU_DTYPE_F32)
		return ipue__fail(msg, msglen, "out is %s, must be f32", ipue__dtype_name(f[1].dtype));
	return no_overlap(&f[1], &f[0], "out", "in", msg, msglen);
}

static void maxpool_run(const struct ipue_field *f, const uint32_t *p)
{
	struct win w = win_of(p);
	float *out = f[1].data;

	w.P = f[1].count / w.C;
	for (uint32_t c = 0; c < w.C; c++) {
		const float *x = (const float *)f[0].data + (uint64_t)c * w.wh * w.W;

		for (uint64_t q = 0; q < w.P; q++, out++) {
			float v;

			*out = max_tap(&w, x, w.p0 + q, &v) < 0 ? -INFINITY : v;
		}
	}
}

/* the f32 sum of a position's taps in (ky, kx) order (padding adds nothing) */
static float tap_sum(const struct win *w, const float *x, uint64_t pos)
{
	uint64_t oy = pos / w->OW, ox = pos % w->OW;
	float s = 0;

	for (uint32_t ky = 0; ky < w->KH; ky++) {
		int64_t r = win_row(w, oy, ky);

		for (uint32_t kx = 0; r >= 0 && kx < w->KW; kx++) {
			int64_t c = win_col(w, ox, kx);

			if (c >= 0 && c < (int64_t)w->W)
				s += x[r * (int64_t)w->W + c];
		}
	}
	return s;
}

static void avgpool_run(const struct ipue_field *f, const uint32_t *p)
{
	struct win w = win_of(p);
	float *out = f[1].data, k = (float)(w.KH * w.KW);

	w.P = f[1].count / w.C;
	for (uint32_t c = 0; c < w.C; c++) {
		const float *x = (const float *)f[0].data + (uint64_t)c * w.wh * w.W;

		for (uint64_t q = 0; q < w.P; q++)
			*out++ = tap_sum(&w, x, w.p0 + q) / k;
	}
}

static uint64_t taps(const uint32_t *p)
{
	return (uint64_t)(p[2] & 0xffff) * (p[2] >> 16);
}

static uint64_t maxpool_cycles(const struct ipue_field *f, const uint32_t *p)
{
	/* a compare and a select per tap, 2 f32 a cycle */
	return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(f[1].count * taps(p), 2);
}

static uint64_t avgpool_cycles(const struct ipue_field *f, const uint32_t *p)
{
	/* an add per tap at 2 a cycle, a division per output (4 cycles) */
	return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(f[1].count * taps(p), 2) + 4 * (uint64_t)f[1].count;
}

/* fields: in (x window [C][wh][W]), out_grad ([C][P]), in_grad ([C][gh][W], rows goff..) */
static int maxgrad_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	struct win w = win_of(p);
	uint64_t gh;
	int r;

	if ((r = ipue__check_field(&f[1], "out_grad", msg, msglen)) ||
	    (r = win_check(&w, f[1].count, w.C, "out_grad", msg, msglen)) ||
	    (r = win_field(&f[0], "in", w.wh, &w, IPU_DTYPE_F32, msg, msglen)) ||
	    (r = ipue__check_field(&f[2], "in_grad", msg, msglen)))
		return r;
	gh = f[2].count / ((uint64_t)w.C * w.W);
	if ((r = win_field(&f[2], "in_grad", gh, &w, IPU_DTYPE_F32, msg, msglen)))
		return r;
	if (f[1].dtype != IPU_DTYPE_F32)
		return ipue__fail(msg, msglen, "out_grad is %s, must be f32", ipue__dtype_name(f[1].dtype));
	if (w.goff + gh > w.wh)
		return ipue__fail(msg, msglen, "in_grad rows [%u, %llu) outside the window's %u rows", w.goff,
				  (unsigned long long)(w.goff + gh), w.wh);
	if ((r = no_overlap(&f[2], &f[0], "in_grad", "in", msg, msglen)))
		return r;
	return no_overlap(&f[2], &f[1], "in_grad", "out_grad", msg, msglen);
}

/* in_grad (zeroed) += out_grad at each position's max tap, in ascending position order */
static void maxgrad_run(const struct ipue_field *f, const uint32_t *p)
{
	struct win w = win_of(p);
	const float *dy = f[1].data;
	float *dx = f[2].data;
	uint64_t gh = f[2].count / ((uint64_t)w.C * w.W), lo = (uint64_t)w.goff * w.W, hi = lo + gh * w.W;

	w.P = f[1].count / w.C;
	memset(dx, 0, (size_t)f[2].count * sizeof(float));
	for (uint32_t c = 0; c < w.C; c++) {
		const float *x = (const float *)f[0].data + (uint64_t)c * w.wh * w.W;
		float *g = dx + (uint64_t)c * gh * w.W;

		for (uint64_t q = 0; q < w.P; q++, dy++) {
			float v;
			int64_t i = max_tap(&w, x, w.p0 + q, &v);

			if (i >= 0 && (uint64_t)i >= lo && (uint64_t)i < hi)
				g[(uint64_t)i - lo] += *dy;
		}
	}
}

static uint64_t maxgrad_cycles(const struct ipue_field *f, const uint32_t *p)
{
	/* zero in_grad, the forward's search, a load-add-store per output */
	return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(f[2].count, 2) +
	       ipue__ceil_div(f[1].count * taps(p), 2) + f[1].count;
}

/* fields: out_grad ([C][P]), in_grad (window [C][wh][W]); f32 */
static int avggrad_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	struct win w = win_of(p);
	int r;

	if (w.goff)
		return ipue__fail(msg, msglen, "params[0] bits 16-31 must be 0");
	if ((r = ipue__check_field(&f[0], "out_grad", msg, msglen)) ||
	    (r = win_check(&w, f[0].count, w.C, "out_grad", msg, msglen)) ||
	    (r = win_field(&f[1], "in_grad", w.wh, &w, IPU_DTYPE_F32, msg, msglen)))
		return r;
	if (f[0].dtype != IPU_DTYPE_F32)
		return ipue__fail(msg, msglen, "out_grad is %s, must be f32", ipue__dtype_name(f[0].dtype));
	return no_overlap(&f[1], &f[0], "in_grad", "out_grad", msg, msglen);
}

/* in_grad (zeroed) += out_grad / (KH*KW) at every tap in the window, positions ascending */
static void avggrad_run(const struct ipue_field *f, const uint32_t *p)
{
	struct win w = win_of(p);
	const float *dy = f[0].data;
	float k = (float)(w.KH * w.KW);

	w.P = f[0].count / w.C;
	memset(f[1].data, 0, (size_t)f[1].count * sizeof(float));
	for (uint32_t c = 0; c < w.C; c++) {
		float *g = (float *)f[1].data + (uint64_t)c * w.wh * w.W;

		for (uint64_t q = 0; q < w.P; q++) {
			uint64_t pos = w.p0 + q, oy = pos / w.OW, ox = pos % w.OW;
			float d = *dy++ / k;

			for (uint32_t ky = 0; ky < w.KH; ky++) {
				int64_t r = win_row(&w, oy, ky);

				for (uint32_t kx = 0; r >= 0 && kx < w.KW; kx++) {
					int64_t cc = win_col(&w, ox, kx);

					if (cc >= 0 && cc < (int64_t)w.W)
						g[r * (int64_t)w.W + cc] += d;
				}
			}
		}
	}
}

static uint64_t avggrad_cycles(const struct ipue_field *f, const uint32_t *p)
{
	/* zero in_grad, a division per output, a load-add-store per tap */
	return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(f[1].count, 2) + 4 * (uint64_t)f[0].count +
	       f[0].count * taps(p);
}

#define FLD(n, d, m) { n, IPUE_FIELD_##d, 0, m }

/* sorted by id */
static const struct ipue_codelet codelets[] = {
	{ .id = IPUE_CODELET_IM2COL, .name = "Im2Col", .nfields = 2, .nparams = 8,
	  .field = { FLD("in", IN, IPUE_DTMASK_FLOAT), FLD("col", OUT, IPUE_DTMASK_FLOAT) },
	  .check = im2col_check, .run = im2col_run, .cycles = im2col_cycles },
	{ .id = IPUE_CODELET_COL2IM, .name = "Col2Im", .nfields = 2, .nparams = 8,
	  .field = { FLD("col", IN, IPUE_DTMASK_F32), FLD("out", OUT, IPUE_DTMASK_F32) },
	  .check = col2im_check, .run = col2im_run, .cycles = col2im_cycles },
	{ .id = IPUE_CODELET_MAX_POOL, .name = "MaxPool", .nfields = 2, .nparams = 8,
	  .field = { FLD("in", IN, IPUE_DTMASK_F32), FLD("out", OUT, IPUE_DTMASK_F32) },
	  .check = pool_check, .run = maxpool_run, .cycles = maxpool_cycles },
	{ .id = IPUE_CODELET_AVG_POOL, .name = "AvgPool", .nfields = 2, .nparams = 8,
	  .field = { FLD("in", IN, IPUE_DTMASK_F32), FLD("out", OUT, IPUE_DTMASK_F32) },
	  .check = pool_check, .run = avgpool_run, .cycles = avgpool_cycles },
	{ .id = IPUE_CODELET_MAX_POOL_GRAD, .name = "MaxPoolGrad", .nfields = 3, .nparams = 8,
	  .field = { FLD("in", IN, IPUE_DTMASK_F32), FLD("out_grad", IN, IPUE_DTMASK_F32),
		     FLD("in_grad", OUT, IPUE_DTMASK_F32) },
	  .check = maxgrad_check, .run = maxgrad_run, .cycles = maxgrad_cycles },
	{ .id = IPUE_CODELET_AVG_POOL_GRAD, .name = "AvgPoolGrad", .nfields = 2, .nparams = 8,
	  .field = { FLD("out_grad", IN, IPUE_DTMASK_F32), FLD("in_grad", OUT, IPUE_DTMASK_F32) },
	  .check = avggrad_check, .run = avggrad_run, .cycles = avggrad_cycles },
};

const struct ipue__slice ipue__window_slice = {
	codelets, sizeof(codelets) / sizeof(codelets[0])
};
