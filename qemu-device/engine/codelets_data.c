/* SPDX-License-Identifier: MIT */
/* Data movement codelets: cast, fill, copy, select, transpose (0x05xx). */
#include <string.h>

#include "codelets_impl.h"
#include "codelets_scalar.h"

/* ---------------- cast ---------------- */

static int cast_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	int r;

	(void)p;
	if ((r = ipue__check_field(&f[0], "in", msg, msglen)) ||
	    (r = ipue__check_field(&f[1], "out", msg, msglen)))
		return r;
	if (f[0].count != f[1].count)
		return ipue__fail(msg, msglen, "in has %u elements, out %u", f[0].count, f[1].count);
	if (ipue__overlap(&f[0], &f[1]) && !ipue__same_region(&f[0], &f[1]))
		return ipue__fail(msg, msglen, "out overlaps in");
	return 0;
}

static void cast_run(const struct ipue_field *f, const uint32_t *p)
{
	uint8_t from = f[0].dtype, to = f[1].dtype;
	uint32_t n = f[0].count;
	const void *in = f[0].data;
	void *out = f[1].data;

	(void)p;
	if (from == to) {
		if (n && in != out)
			memmove(out, in, (size_t)n * ipue__dtype_size(from));
		return;
	}
	switch (from * 16 + to) {
	case IPU_DTYPE_F32 * 16 + IPU_DTYPE_F16: {
		const float *x = in;
		uint16_t *y = out;

		for (uint32_t i = 0; i < n; i++)
			y[i] = ipue__f2h(x[i]);
		break;
	}
	case IPU_DTYPE_F32 * 16 + IPU_DTYPE_I32: {
		const float *x = in;
		int32_t *y = out;

		for (uint32_t i = 0; i < n; i++)
			y[i] = f32_to_i32(x[i]);
		break;
	}
	case IPU_DTYPE_F16 * 16 + IPU_DTYPE_F32: {
		const uint16_t *x = in;
		float *y = out;

		for (uint32_t i = 0; i < n; i++)
			y[i] = ipue__h2f(x[i]);
		break;
	}
	case IPU_DTYPE_F16 * 16 + IPU_DTYPE_I32: {
		const uint16_t *x = in;
		int32_t *y = out;

		for (uint32_t i = 0; i < n; i++)
			y[i] = f32_to_i32(ipue__h2f(x[i]));
		break;
	}
	case IPU_DTYPE_I32 * 16 + IPU_DTYPE_F32: {
		const int32_t *x = in;
		float *y = out;

		for (uint32_t i = 0; i < n; i++)
			y[i] = (float)x[i];
		break;
	}
	case IPU_DTYPE_I32 * 16 + IPU_DTYPE_F16: {
		const int32_t *x = in;
		uint16_t *y = out;

		/* exact in f32 for |x| < 2^24, and everything >= 65520 is Inf */
		for (uint32_t i = 0; i < n; i++)
			y[i] = ipue__f2h((float)x[i]);
		break;
	}
	default:
		break;
	}
}

static uint64_t cast_cycles(const struct ipue_field *f, const uint32_t *p)
{
	uint8_t from = f[0].dtype, to = f[1].dtype;
	uint64_t n = f[0].count;

	(void)p;
	if (from == to)
		return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(n * ipue__dtype_size(from), 8);
	if (from == IPU_DTYPE_I32 || to == IPU_DTYPE_I32)
		return IPUE_CYCLES_VERTEX_OVERHEAD + n;			/* 1 element/cycle */
	return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(n, 2);	/* f32v2 <-> f16v2 */
}

/* ---------------- fill ---------------- */

static int fill_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	int r;

	if ((r = ipue__check_field(&f[0], "out", msg, msglen)))
		return r;
	if (f[0].dtype == IPU_DTYPE_F16 && p[0] > 0xffffu)
		return ipue__fail(msg, msglen, "f16 fill value 0x%x has bits above 15", p[0]);
	return 0;
}

static void fill_run(const struct ipue_field *f, const uint32_t *p)
{
	uint32_t n = f[0].count;

	if (f[0].dtype == IPU_DTYPE_F16) {
		uint16_t *y = f[0].data, v = (uint16_t)p[0];

		for (uint32_t i = 0; i < n; i++)
			y[i] = v;
	} else {
		uint32_t *y = f[0].data, v = p[0];

		for (uint32_t i = 0; i < n; i++)
			y[i] = v;
	}
}

static uint64_t fill_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;
	return IPUE_CYCLES_VERTEX_OVERHEAD +
	       ipue__ceil_div((uint64_t)f[0].count * ipue__dtype_size(f[0].dtype), 8);
}

/* ---------------- copy ---------------- */

static int copy_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	int r;

	(void)p;
	if ((r = ipue__check_field(&f[0], "in", msg, msglen)) ||
	    (r = ipue__check_field(&f[1], "out", msg, msglen)))
		return r;
	if (f[0].dtype != f[1].dtype)
		return ipue__fail(msg, msglen, "in is %s but out is %s (use Cast)",
				  ipue__dtype_name(f[0].dtype), ipue__dtype_name(f[1].dtype));
	if (f[0].count != f[1].count)
		return ipue__fail(msg, msglen, "in has %u elements, out %u", f[0].count, f[1].count);
	return 0;	/* any overlap is fine: memmove */
}

static void copy_run(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;
	if (f[0].count && f[0].data != f[1].data)
		memmove(f[1].data, f[0].data, (size_t)f[0].count * ipue__dtype_size(f[0].dtype));
}

/* ---------------- transpose ---------------- */

/* in [R][C] row-major, out [C][R]: one dtype, R * C elements each, disjoint */
static int transpose_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	int r;

	if ((r = ipue__check_field(&f[0], "in", msg, msglen)) ||
	    (r = ipue__check_field(&f[1], "out", msg, msglen)))
		return r;
	if (f[0].dtype != f[1].dtype)
		return ipue__fail(msg, msglen, "in is %s but out is %s (use Cast)",
				  ipue__dtype_name(f[0].dtype), ipue__dtype_name(f[1].dtype));
	if (!p[0] || !p[1])
		return ipue__fail(msg, msglen, "R = %u and C = %u must both be >= 1", p[0], p[1]);
	if ((uint64_t)p[0] * p[1] != f[0].count || f[1].count != f[0].count)
		return ipue__fail(msg, msglen, "R x C = %u x %u but in has %u elements, out %u",
				  p[0], p[1], f[0].count, f[1].count);
	if (ipue__overlap(&f[0], &f[1]))
		return ipue__fail(msg, msglen, "out overlaps in (a transpose cannot run in place)");
	return 0;
}

/* 16 x 16 blocks keep both the rows read and the rows written in cache */
#define TRANSPOSE_LOOP(T)							\
do {										\
	const T *x = f[0].data;							\
	T *y = f[1].data;							\
										\
	for (uint32_t r0 = 0; r0 < R; r0 += 16)					\
		for (uint32_t c0 = 0; c0 < C; c0 += 16)				\
			for (uint32_t r = r0; r < R && r < r0 + 16; r++)	\
				for (uint32_t c = c0; c < C && c < c0 + 16; c++)	\
					y[(size_t)c * R + r] = x[(size_t)r * C + c];	\
} while (0)

static void transpose_run(const struct ipue_field *f, const uint32_t *p)
{
	uint32_t R = p[0], C = p[1];

	if (ipue__dtype_size(f[0].dtype) == 2)
		TRANSPOSE_LOOP(uint16_t);
	else
		TRANSPOSE_LOOP(uint32_t);
}

/* one load and one store per element, plus a strided-pointer set-up per row */
static uint64_t transpose_cycles(const struct ipue_field *f, const uint32_t *p)
{
	return IPUE_CYCLES_VERTEX_OVERHEAD + (uint64_t)f[0].count + p[0];
}

/* ---------------- select ---------------- */

/*
 * cond (i32), a, b, out: a, b, out of one dtype; cond, a, out of one count,
 * b of that count or 1; out may coincide exactly with a, with a full b, or
 * (4-byte types) with cond.
 */
static int select_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	const struct ipue_field *c = &f[0], *a = &f[1], *b = &f[2], *o = &f[3];
	int r;

	(void)p;
	if ((r = ipue__check_field(c, "cond", msg, msglen)) ||
	    (r = ipue__check_field(a, "a", msg, msglen)) ||
	    (r = ipue__check_field(b, "b", msg, msglen)) ||
	    (r = ipue__check_field(o, "out", msg, msglen)))
		return r;
	if (c->dtype != IPU_DTYPE_I32)
		return ipue__fail(msg, msglen, "cond is %s, must be i32", ipue__dtype_name(c->dtype));
	if (a->dtype != b->dtype || a->dtype != o->dtype)
		return ipue__fail(msg, msglen, "dtypes differ: a %s, b %s, out %s",
				  ipue__dtype_name(a->dtype), ipue__dtype_name(b->dtype),
				  ipue__dtype_name(o->dtype));
	if (c->count != o->count || a->count != o->count)
		return ipue__fail(msg, msglen, "cond has %u elements, a %u, out %u", c->count,
				  a->count, o->count);
	if (b->count != o->count && b->count != 1)
		return ipue__fail(msg, msglen, "b has %u elements, expected %u or 1", b->count,
				  o->count);
	if (ipue__overlap(c, o) && !ipue__same_region(c, o))
		return ipue__fail(msg, msglen, "out overlaps cond");
	if (ipue__overlap(a, o) && !ipue__same_region(a, o))
		return ipue__fail(msg, msglen, "out overlaps a");
	if (ipue__overlap(b, o) && !(ipue__same_region(b, o) && b->count == o->count))
		return ipue__fail(msg, msglen, "out overlaps b");
	return 0;
}

/* bit copies (NaN payloads kept); element i is read before it is written */
#define SELECT_LOOP(T)								\
do {										\
	const int32_t *c = f[0].data;						\
	const T *a = f[1].data, *b = f[2].data;					\
	T *o = f[3].data;							\
										\
	if (f[2].count == 1 && n > 1) {						\
		T s = b[0];							\
										\
		for (uint32_t i = 0; i < n; i++)				\
			o[i] = c[i] ? a[i] : s;					\
	} else {								\
		for (uint32_t i = 0; i < n; i++)				\
			o[i] = c[i] ? a[i] : b[i];				\
	}									\
} while (0)

static void select_run(const struct ipue_field *f, const uint32_t *p)
{
	uint32_t n = f[3].count;

	(void)p;
	if (f[3].dtype == IPU_DTYPE_F16)
		SELECT_LOOP(uint16_t);
	else
		SELECT_LOOP(uint32_t);
}

/* one predicated move per element */
static uint64_t select_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;
	return IPUE_CYCLES_VERTEX_OVERHEAD + f[0].count;	/* cond's count: out's */
}

static const struct ipue_codelet codelets[] = {
	{ .id = IPUE_CODELET_CAST, .name = "Cast", .nfields = 2, .nparams = 0,
	  .field = { { "in", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },
		     { "out", IPUE_FIELD_OUT, 0, IPUE_DTMASK_ALL } },
	  .check = cast_check, .run = cast_run, .cycles = cast_cycles },
	{ .id = IPUE_CODELET_FILL, .name = "Fill", .nfields = 1, .nparams = 1,
	  .field = { { "out", IPUE_FIELD_OUT, 0, IPUE_DTMASK_ALL } },
	  .check = fill_check, .run = fill_run, .cycles = fill_cycles },
	{ .id = IPUE_CODELET_COPY, .name = "Copy", .nfields = 2, .nparams = 0,
	  .field = { { "in", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },
		     { "out", IPUE_FIELD_OUT, 0, IPUE_DTMASK_ALL } },
	  .check = copy_check, .run = copy_run, .cycles = cast_cycles },
	{ .id = IPUE_CODELET_SELECT, .name = "Select", .nfields = 4, .nparams = 0,
	  .field = { { "cond", IPUE_FIELD_IN, 0, IPUE_DTMASK_I32 },
		     { "a", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },
		     { "b", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },
		     { "out", IPUE_FIELD_OUT, 0, IPUE_DTMASK_ALL } },
	  .check = select_check, .run = select_run, .cycles = select_cycles },
	{ .id = IPUE_CODELET_TRANSPOSE, .name = "Transpose", .nfields = 2, .nparams = 2,
	  .field = { { "in", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },
		     { "out", IPUE_FIELD_OUT, 0, IPUE_DTMASK_ALL } },
	  .check = transpose_check, .run = transpose_run, .cycles = transpose_cycles },
};

const struct ipue__slice ipue__data_slice = {
	codelets, sizeof(codelets) / sizeof(codelets[0])
};
