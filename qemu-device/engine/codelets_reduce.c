/* SPDX-License-Identifier: MIT */
/*
 * Reductions of one region to a scalar (0x06xx): sum, max, min.
 * Floating-point sums accumulate in f32 (also for f16 input) in a fixed,
 * documented order: element i is added to lane i % 8 in ascending i, then
 * the lanes are combined as ((l0+l1)+(l2+l3))+((l4+l5)+(l6+l7)). The result
 * is bit-reproducible on every host. i32 sums wrap (two's complement).
 * max/min follow IEEE 754-2019 maximum/minimum (-0 < +0); any NaN gives the
 * canonical quiet NaN. ArgMax (0x0604): the first index of each row's
 * maximum, a NaN counting as the maximum (numpy.argmax). ReduceColumns*
 * (0x0605-0x0607): rows of C elements into one result per column, for
 * reductions over leading axes without rearranging the input.
 */
#include <string.h>

#include "codelets_impl.h"

#define LANES 8

enum { R_SUM, R_MAX, R_MIN };

static float combine_lanes(const float l[LANES])
{
	return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
}

static ALWAYS_INLINE float load_float(uint8_t dt, const void *p, uint32_t i)
{
	return dt == IPU_DTYPE_F16 ? ipue__h2f(((const uint16_t *)p)[i]) : ((const float *)p)[i];
}

#if defined(__GNUC__)
typedef float v8f __attribute__((vector_size(32)));

/*
 * The sum of the @n f32 or f16 (@dt) elements of @x in the documented
 * order; inlined into sum_f32() and sum_f16() with @dt a constant.
 */
static ALWAYS_INLINE float sum_lanes(uint8_t dt, const void *x, uint32_t n)
{
	v8f acc = { 0, 0, 0, 0, 0, 0, 0, 0 };
	float l[LANES];
	uint32_t i = 0;

	for (; i + LANES <= n; i += LANES) {
		v8f v;

		if (dt == IPU_DTYPE_F16) {
			for (int j = 0; j < LANES; j++)
				v[j] = load_float(dt, x, i + j);
		} else {
			memcpy(&v, (const float *)x + i, sizeof(v));
		}
		acc += v;
	}
	memcpy(l, &acc, sizeof(l));
	for (uint32_t j = 0; i + j < n; j++)
		l[j] += load_float(dt, x, i + j);
	return combine_lanes(l);
}
#else
static ALWAYS_INLINE float sum_lanes(uint8_t dt, const void *x, uint32_t n)
{
	float l[LANES] = { 0 };

	for (uint32_t i = 0; i < n; i++)
		l[i % LANES] += load_float(dt, x, i);
	return combine_lanes(l);
}
#endif

static float sum_f32(const float *x, uint32_t n)
{
	return sum_lanes(IPU_DTYPE_F32, x, n);
}

static float sum_f16(const uint16_t *x, uint32_t n)
{
	return sum_lanes(IPU_DTYPE_F16, x, n);
}

static void reduce_run(int kind, const struct ipue_field *f, const uint32_t *p)
{
	const struct ipue_field *in = &f[0], *out = &f[1];
	bool acc = p[0] & IPUE_REDUCE_ACCUMULATE;
	uint32_t n = in->count;

	if (in->dtype == IPU_DTYPE_I32) {
		const int32_t *x = in->data;
		int32_t *y = out->data;
		int32_t r;

		if (kind == R_SUM) {
			uint32_t s = acc ? (uint32_t)y[0] : 0u;

			for (uint32_t i = 0; i < n; i++)
				s += (uint32_t)x[i];
			r = s <= (uint32_t)INT32_MAX ? (int32_t)s : -(int32_t)(~s) - 1;
		} else {
			bool mx = kind == R_MAX;

			r = acc ? y[0] : mx ? INT32_MIN : INT32_MAX;
			for (uint32_t i = 0; i < n; i++)
				r = mx ? (x[i] > r ? x[i] : r) : (x[i] < r ? x[i] : r);
		}
		y[0] = r;
		return;
	}

	float r;

	if (kind == R_SUM) {
		r = in->dtype == IPU_DTYPE_F16 ? sum_f16(in->data, n) : sum_f32(in->data, n);
		if (acc)
			r = load_float(out->dtype, out->data, 0) + r;
	} else {
		bool mx = kind == R_MAX;

		r = ipue__u2f(mx ? 0xff800000u : 0x7f800000u);
		if (acc)
			r = load_float(out->dtype, out->data, 0);
		for (uint32_t i = 0; i < n; i++) {
			float v = load_float(in->dtype, in->data, i);

			r = mx ? ipue__max_f32(r, v) : ipue__min_f32(r, v);
		}
	}
	if (out->dtype == IPU_DTYPE_F16)
		*(uint16_t *)out->data = ipue__f2h(r);
	else
		*(float *)out->data = r;
}

/* the checks Reduce* and ReduceColumns* share: both fields, out's dtype, the flags */
static int reduce_io_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	const struct ipue_field *in = &f[0], *out = &f[1];
	int r;

	if ((r = ipue__check_field(in, "in", msg, msglen)) ||
	    (r = ipue__check_field(out, "out", msg, msglen)))
		return r;
	if (!(out->dtype == in->dtype ||
	      (in->dtype == IPU_DTYPE_F16 && out->dtype == IPU_DTYPE_F32)))
		return ipue__fail(msg, msglen, "out dtype %s invalid for in dtype %s",
				  ipue__dtype_name(out->dtype), ipue__dtype_name(in->dtype));
	if (p[0] & ~IPUE_REDUCE_ACCUMULATE)
		return ipue__fail(msg, msglen, "unknown flags 0x%x", p[0]);
	return 0;
}

static int reduce_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	int r;

	if ((r = reduce_io_check(f, p, msg, msglen)))
		return r;
	if (f[1].count != 1)
		return ipue__fail(msg, msglen, "out must have 1 element, has %u", f[1].count);
	if (ipue__overlap(&f[0], &f[1]))
		return ipue__fail(msg, msglen, "out overlaps in");
	return 0;
}

static uint64_t reduce_cycles(const struct ipue_field *f, const uint32_t *p)
{
	uint64_t n = f[0].count;

	(void)p;
	switch (f[0].dtype) {
	case IPU_DTYPE_F16: return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(n, 4);
	case IPU_DTYPE_F32: return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(n, 2);
	default: return IPUE_CYCLES_VERTEX_OVERHEAD + n;
	}
}

/* ---------------- argmax ---------------- */

/* in: rows of params[0] (>= 1) elements; out (i32): one index per row */
static int argmax_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	const struct ipue_field *in = &f[0], *out = &f[1];
	int r;

	if ((r = ipue__check_field(in, "in", msg, msglen)) ||
	    (r = ipue__check_field(out, "out", msg, msglen)))
		return r;
	if (out->dtype != IPU_DTYPE_I32)
		return ipue__fail(msg, msglen, "out is %s, must be i32", ipue__dtype_name(out->dtype));
	if (!p[0])
		return ipue__fail(msg, msglen, "row length 0: an empty row has no argmax");
	if ((uint64_t)out->count * p[0] != in->count)
		return ipue__fail(msg, msglen, "in has %u elements, not %u rows of %u", in->count,
				  out->count, p[0]);
	if (ipue__overlap(in, out))
		return ipue__fail(msg, msglen, "out overlaps in");
	return 0;
}

/* index of the first maximum of the n >= 1 floats (f32 or f16: dt) at x; the first NaN wins */
static ALWAYS_INLINE int32_t argmax_float(uint8_t dt, const void *x, uint32_t n)
{
	float bv = load_float(dt, x, 0);
	int32_t best = 0;

	if (bv != bv)
		return 0;
	for (uint32_t i = 1; i < n; i++) {
		float v = load_float(dt, x, i);

		if (v != v)
			return (int32_t)i;
		if (v > bv) {
			bv = v;
			best = (int32_t)i;
		}
	}
	return best;
}

static void argmax_run(const struct ipue_field *f, const uint32_t *p)
{
	uint32_t L = p[0], rows = f[1].count;
	size_t es = ipue__dtype_size(f[0].dtype);
	int32_t *out = f[1].data;

	for (uint32_t r = 0; r < rows; r++) {
		const void *x = (const char *)f[0].data + (size_t)r * L * es;

		if (f[0].dtype == IPU_DTYPE_I32) {
			const int32_t *y = x;
			int32_t best = 0;

			for (uint32_t i = 1; i < L; i++)
				if (y[i] > y[best])
					best = (int32_t)i;
			out[r] = best;
		} else if (f[0].dtype == IPU_DTYPE_F16) {
			out[r] = argmax_float(IPU_DTYPE_F16, x, L);
		} else {
			out[r] = argmax_float(IPU_DTYPE_F32, x, L);
		}
	}
}

/* a compare and a predicated move per element, a store per row */
static uint64_t argmax_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;
	return IPUE_CYCLES_VERTEX_OVERHEAD + f[0].count + 2ull * f[1].count;
}

/* ---------------- column reductions ---------------- */

/*
 * ReduceColumns* (0x0605-0x0607): in is read as rows of C = p[1] elements,
 * its element i at column (p[2] + i) % C (row (p[2] + i) / C); out[j]
 * reduces the elements at column p[3] + j in ascending row order (the
 * identity when there are none). Sums go to lane row % 8 and combine as
 * ReduceSum's, so the error bound is ReduceSum's with n = rows.
 */
#define COL_BLOCK 256	/* columns per pass: 8 lanes of them fit a small stack */

static int cols_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	const struct ipue_field *in = &f[0], *out = &f[1];
	int r;

	if ((r = reduce_io_check(f, p, msg, msglen)))
		return r;
	if (!p[1])
		return ipue__fail(msg, msglen, "row length 0");
	if (p[2] >= p[1])
		return ipue__fail(msg, msglen, "first column %u not below the row length %u", p[2], p[1]);
	if (p[3] > p[1] || out->count > p[1] - p[3])
		return ipue__fail(msg, msglen, "out columns [%u, %llu) exceed the row length %u", p[3],
				  (unsigned long long)p[3] + out->count, p[1]);
	if (ipue__overlap(in, out))
		return ipue__fail(msg, msglen, "out overlaps in");
	return 0;
}

/* the columns [*lo, *hi) of block [ca, ca + w) that row k of the vertex holds */
static ALWAYS_INLINE void cols_row(const uint32_t *p, uint32_t n, uint64_t k, uint32_t ca, uint32_t w,
				   int64_t *lo, int64_t *hi)
{
	int64_t first = (int64_t)p[2] - (int64_t)(k * p[1]);	/* column of in[0] in row k's frame */

	*lo = first > (int64_t)ca ? first : (int64_t)ca;
	*hi = first + (int64_t)n < (int64_t)(ca + w) ? first + (int64_t)n : (int64_t)(ca + w);
}

/* float columns [ca, ca + w) into out[ca - p[3] ...] */
static void cols_block_float(int kind, const struct ipue_field *f, const uint32_t *p, uint32_t ca, uint32_t w)
{
	float l[LANES][COL_BLOCK], r[COL_BLOCK];
	uint32_t n = f[0].count, o = ca - p[3];
	uint64_t rows = n ? ((uint64_t)p[2] + n - 1) / p[1] + 1 : 0;
	bool acc = p[0] & IPUE_REDUCE_ACCUMULATE, mx = kind == R_MAX;

	for (uint32_t j = 0; j < w; j++) {
		r[j] = kind == R_SUM ? 0.0f : ipue__u2f(mx ? 0xff800000u : 0x7f800000u);
		for (int q = 0; q < LANES; q++)
			l[q][j] = 0.0f;
	}
	if (acc && kind != R_SUM)
		for (uint32_t j = 0; j < w; j++)
			r[j] = load_float(f[1].dtype, f[1].data, o + j);
	for (uint64_t k = 0; k < rows; k++) {
		int64_t lo, hi, base = (int64_t)(k * p[1]) - (int64_t)p[2];

		cols_row(p, n, k, ca, w, &lo, &hi);
		for (int64_t c = lo; c < hi; c++) {
			float v = load_float(f[0].dtype, f[0].data, (uint32_t)(base + c));

			if (kind == R_SUM)
				l[k % LANES][c - ca] += v;
			else
				r[c - ca] = mx ? ipue__max_f32(r[c - ca], v) : ipue__min_f32(r[c - ca], v);
		}
	}
	for (uint32_t j = 0; j < w; j++) {
		if (kind == R_SUM) {
			float lj[LANES];

			for (int q = 0; q < LANES; q++)
				lj[q] = l[q][j];
			r[j] = combine_lanes(lj);
			if (acc)
				r[j] = load_float(f[1].dtype, f[1].data, o + j) + r[j];
		}
		if (f[1].dtype == IPU_DTYPE_F16)
			((uint16_t *)f[1].data)[o + j] = ipue__f2h(r[j]);
		else
			((float *)f[1].data)[o + j] = r[j];
	}
}

/* i32 columns [ca, ca + w) into out[ca - p[3] ...]; sums wrap */
static void cols_block_i32(int kind, const struct ipue_field *f, const uint32_t *p, uint32_t ca, uint32_t w)
{
	const int32_t *x = f[0].data;
	int32_t *y = f[1].data;
	uint32_t n = f[0].count, o = ca - p[3], s[COL_BLOCK];
	int32_t m[COL_BLOCK];
	uint64_t rows = n ? ((uint64_t)p[2] + n - 1) / p[1] + 1 : 0;
	bool acc = p[0] & IPUE_REDUCE_ACCUMULATE, mx = kind == R_MAX;

	for (uint32_t j = 0; j < w; j++) {
		s[j] = acc ? (uint32_t)y[o + j] : 0u;
		m[j] = acc ? y[o + j] : mx ? INT32_MIN : INT32_MAX;
	}
	for (uint64_t k = 0; k < rows; k++) {
		int64_t lo, hi, base = (int64_t)(k * p[1]) - (int64_t)p[2];

		cols_row(p, n, k, ca, w, &lo, &hi);
		for (int64_t c = lo; c < hi; c++) {
			int32_t v = x[base + c];

			s[c - ca] += (uint32_t)v;
			m[c - ca] = mx ? (v > m[c - ca] ? v : m[c - ca]) : (v < m[c - ca] ? v : m[c - ca]);
		}
	}
	for (uint32_t j = 0; j < w; j++)
		y[o + j] = kind != R_SUM ? m[j] :
			   s[j] <= (uint32_t)INT32_MAX ? (int32_t)s[j] : -(int32_t)(~s[j]) - 1;
}

static void cols_run(int kind, const struct ipue_field *f, const uint32_t *p)
{
	for (uint32_t a = 0; a < f[1].count; a += COL_BLOCK) {
		uint32_t w = f[1].count - a < COL_BLOCK ? f[1].count - a : COL_BLOCK;

		if (f[0].dtype == IPU_DTYPE_I32)
			cols_block_i32(kind, f, p, p[3] + a, w);
		else
			cols_block_float(kind, f, p, p[3] + a, w);
	}
}

/* ReduceSum's per element, a store per column and a loop step per row and pass */
static uint64_t cols_cycles(const struct ipue_field *f, const uint32_t *p)
{
	uint64_t rows = f[0].count ? ((uint64_t)p[2] + f[0].count - 1) / p[1] + 1 : 0;
	uint64_t passes = ipue__ceil_div(f[1].count, COL_BLOCK);

	return reduce_cycles(f, p) + f[1].count + rows * passes;
}

static void sum_run(const struct ipue_field *f, const uint32_t *p) { reduce_run(R_SUM, f, p); }
static void max_run(const struct ipue_field *f, const uint32_t *p) { reduce_run(R_MAX, f, p); }
static void min_run(const struct ipue_field *f, const uint32_t *p) { reduce_run(R_MIN, f, p); }
static void csum_run(const struct ipue_field *f, const uint32_t *p) { cols_run(R_SUM, f, p); }
static void cmax_run(const struct ipue_field *f, const uint32_t *p) { cols_run(R_MAX, f, p); }
static void cmin_run(const struct ipue_field *f, const uint32_t *p) { cols_run(R_MIN, f, p); }

#define REDUCE_ENTRY(ID, NAME, RUN) {							\
	.id = ID, .name = NAME, .nfields = 2, .nparams = 1,				\
	.field = { { "in", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },				\
		   { "out", IPUE_FIELD_INOUT, 1, IPUE_DTMASK_ALL } },			\
	.check = reduce_check, .run = RUN, .cycles = reduce_cycles }

#define COLS_ENTRY(ID, NAME, RUN) {							\
	.id = ID, .name = NAME, .nfields = 2, .nparams = 4,				\
	.field = { { "in", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },				\
		   { "out", IPUE_FIELD_INOUT, 0, IPUE_DTMASK_ALL } },			\
	.check = cols_check, .run = RUN, .cycles = cols_cycles }

static const struct ipue_codelet codelets[] = {
	REDUCE_ENTRY(IPUE_CODELET_REDUCE_SUM, "ReduceSum", sum_run),
	REDUCE_ENTRY(IPUE_CODELET_REDUCE_MAX, "ReduceMax", max_run),
	REDUCE_ENTRY(IPUE_CODELET_REDUCE_MIN, "ReduceMin", min_run),
	{ .id = IPUE_CODELET_ARGMAX, .name = "ArgMax", .nfields = 2, .nparams = 1,
	  .field = { { "in", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },
		     { "out", IPUE_FIELD_OUT, 0, IPUE_DTMASK_I32 } },
	  .check = argmax_check, .run = argmax_run, .cycles = argmax_cycles },
	COLS_ENTRY(IPUE_CODELET_REDUCE_COLS_SUM, "ReduceColumnsSum", csum_run),
	COLS_ENTRY(IPUE_CODELET_REDUCE_COLS_MAX, "ReduceColumnsMax", cmax_run),
	COLS_ENTRY(IPUE_CODELET_REDUCE_COLS_MIN, "ReduceColumnsMin", cmin_run),
};

const struct ipue__slice ipue__reduce_slice = {
	codelets, sizeof(codelets) / sizeof(codelets[0])
};
