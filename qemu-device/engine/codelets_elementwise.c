/* SPDX-License-Identifier: MIT */
/*
 * Elementwise codelets: unary (0x01xx, 0x02xx in place) and binary
 * (0x03xx, 0x04xx in place) over f32, f16 and i32. f16 is computed in f32
 * and rounded to nearest even once. i32 arithmetic is two's complement
 * wrap-around (computed via uint32_t, no UB). Comparisons (0x0307..0x030c)
 * write i32 0/1 for any input dtype; see docs/codelets.md.
 */
#include <math.h>
#include <string.h>

#include "codelets_impl.h"
#include "codelets_scalar.h"

/* ---------------- run loops ----------------
 * f32: direct loops, with 8-wide GCC vector code for the arithmetic ops
 * (each vector is loaded before it is stored: exact in-place aliasing is
 * safe). f16: chunks of CH elements converted in bulk to local f32 arrays
 * (F16C when available, identical results); full chunks have a constant
 * trip count and cannot alias, so GCC vectorizes them at -O2. A chunk is read
 * completely before it is written. */

#define CH 64

#if defined(__GNUC__)
typedef float v8f __attribute__((vector_size(32)));
typedef uint32_t v8u __attribute__((vector_size(32)));
#endif

static ALWAYS_INLINE void unary_chunk(int op, float *t, uint32_t m)
{
	if (m == CH) {
		for (uint32_t j = 0; j < CH; j++)
			t[j] = uop_f32(op, t[j]);
	} else {
		for (uint32_t j = 0; j < m; j++)
			t[j] = uop_f32(op, t[j]);
	}
}

static ALWAYS_INLINE void binary_chunk(int op, float *ta, const float *tb, uint32_t m)
{
	if (m == CH) {
		for (uint32_t j = 0; j < CH; j++)
			ta[j] = bop_f32(op, ta[j], tb[j]);
	} else {
		for (uint32_t j = 0; j < m; j++)
			ta[j] = bop_f32(op, ta[j], tb[j]);
	}
}

static ALWAYS_INLINE void binary_chunk_s(int op, float *ta, float s, uint32_t m)
{
	if (m == CH) {
		for (uint32_t j = 0; j < CH; j++)
			ta[j] = bop_f32(op, ta[j], s);
	} else {
		for (uint32_t j = 0; j < m; j++)
			ta[j] = bop_f32(op, ta[j], s);
	}
}

static ALWAYS_INLINE void load_chunk(float *t, uint8_t dt, const void *p, uint32_t i,
				     uint32_t m, bool f16c)
{
	if (dt == IPU_DTYPE_F16)
		ipue__h2f_n(t, (const uint16_t *)p + i, m, f16c);
	else
		memcpy(t, (const float *)p + i, m * sizeof(float));
}

static ALWAYS_INLINE void store_chunk(void *p, uint8_t dt, const float *t, uint32_t i,
				      uint32_t m, bool f16c)
{
	if (dt == IPU_DTYPE_F16)
		ipue__f2h_n((uint16_t *)p + i, t, m, f16c);
	else
		memcpy((float *)p + i, t, m * sizeof(float));
}

static ALWAYS_INLINE void unary_loop(int op, uint8_t dt, const void *in, void *out, uint32_t n)
{
	if (dt == IPU_DTYPE_I32) {
		const int32_t *x = in;
		int32_t *y = out;

		for (uint32_t i = 0; i < n; i++)
			y[i] = uop_i32(op, x[i]);
		return;
	}

	if (dt == IPU_DTYPE_F32) {
		const float *x = in;
		float *y = out;
		uint32_t i = 0;

#if defined(__GNUC__)
		if (op == IPUE_UOP_NEG || op == IPUE_UOP_ABS) {
			const v8u mask = { 0, 0, 0, 0, 0, 0, 0, 0 };
			const v8u bit = mask + 0x80000000u;

			for (; i + 8 <= n; i += 8) {
				v8u v;

				memcpy(&v, x + i, sizeof(v));
				v = op == IPUE_UOP_NEG ? v ^ bit : v & ~bit;
				memcpy(y + i, &v, sizeof(v));
			}
		}
#endif
		for (; i < n; i++)
			y[i] = uop_f32(op, x[i]);
		return;
	}

	bool f16c = ipue__f16c_supported();
	float t[CH];

	for (uint32_t i = 0; i < n; i += CH) {
		uint32_t m = n - i < CH ? n - i : CH;

		load_chunk(t, dt, in, i, m, f16c);
		unary_chunk(op, t, m);
		store_chunk(out, dt, t, i, m, f16c);
	}
}

/* b_step is 0 (broadcast b[0]) or 1 */
static ALWAYS_INLINE void binary_loop(int op, uint8_t dt, const void *a, const void *b,
				      uint32_t b_step, void *out, uint32_t n)
{
	if (dt == IPU_DTYPE_I32) {
		const int32_t *x = a, *y = b;
		int32_t *z = out;

		if (!b_step) {
			int32_t s = y[0];

			for (uint32_t i = 0; i < n; i++)
				z[i] = bop_i32(op, x[i], s);
		} else {
			for (uint32_t i = 0; i < n; i++)
				z[i] = bop_i32(op, x[i], y[i]);
		}
		return;
	}

	if (dt == IPU_DTYPE_F32) {
		const float *x = a, *y = b;
		float *z = out;
		uint32_t i = 0;

#if defined(__GNUC__)
		/* IEEE arithmetic is elementwise-exact in vectors: same results */
		if (op == IPUE_BOP_ADD || op == IPUE_BOP_SUB || op == IPUE_BOP_MUL ||
		    op == IPUE_BOP_DIV) {
			for (; i + 8 <= n; i += 8) {
				v8f va, vb, vc;

				memcpy(&va, x + i, sizeof(va));
				if (b_step)
					memcpy(&vb, y + i, sizeof(vb));
				else	/* a splat, not 0 + y[0]: that turns -0 into +0 */
					vb = (v8f){ y[0], y[0], y[0], y[0],
						    y[0], y[0], y[0], y[0] };
				vc = op == IPUE_BOP_ADD ? va + vb : op == IPUE_BOP_SUB ? va - vb :
				     op == IPUE_BOP_MUL ? va * vb : va / vb;
				memcpy(z + i, &vc, sizeof(vc));
			}
		}
#endif
		for (; i < n; i++)
			z[i] = bop_f32(op, x[i], y[b_step ? i : 0]);
		return;
	}

	bool f16c = ipue__f16c_supported();
	float ta[CH], tb[CH], s = 0;

	if (!b_step && n)
		load_chunk(&s, dt, b, 0, 1, false);
	for (uint32_t i = 0; i < n; i += CH) {
		uint32_t m = n - i < CH ? n - i : CH;

		load_chunk(ta, dt, a, i, m, f16c);
		if (b_step) {
			load_chunk(tb, dt, b, i, m, f16c);
			binary_chunk(op, ta, tb, m);
		} else {
			binary_chunk_s(op, ta, s, m);
		}
		store_chunk(out, dt, ta, i, m, f16c);
	}
}

/* out[i] = a[i] op b[i * b_step] as i32 0/1; f16 compared exactly in f32 */
static ALWAYS_INLINE void compare_loop(int op, uint8_t dt, const void *a, const void *b,
				       uint32_t b_step, int32_t *z, uint32_t n)
{
	if (dt == IPU_DTYPE_I32) {
		const int32_t *x = a, *y = b;

		for (uint32_t i = 0; i < n; i++)
			z[i] = CMP(op, x[i], y[i * b_step]);
		return;
	}
	if (dt == IPU_DTYPE_F32) {
		const float *x = a, *y = b;

		for (uint32_t i = 0; i < n; i++)
			z[i] = CMP(op, x[i], y[i * b_step]);
		return;
	}

	bool f16c = ipue__f16c_supported();
	float ta[CH], tb[CH];

	for (uint32_t i = 0; i < n; i += CH) {
		uint32_t m = n - i < CH ? n - i : CH;

		/* the whole chunk is read before z is written: z may alias a or b */
		load_chunk(ta, dt, a, i, m, f16c);
		if (b_step)
			load_chunk(tb, dt, b, i, m, f16c);
		else
			for (uint32_t j = 0; j < m; j++)
				tb[j] = ipue__h2f(((const uint16_t *)b)[0]);
		for (uint32_t j = 0; j < m; j++)
			z[i + j] = CMP(op, ta[j], tb[j]);
	}
}

/* ---------------- checks ---------------- */

static int unary_check(int op, const struct ipue_field *in, const struct ipue_field *out,
		       char *msg, size_t msglen)
{
	int r;

	if ((r = ipue__check_field(in, "in", msg, msglen)) ||
	    (r = ipue__check_field(out, "out", msg, msglen)))
		return r;
	if (in->dtype != out->dtype)
		return ipue__fail(msg, msglen, "in is %s but out is %s",
				  ipue__dtype_name(in->dtype), ipue__dtype_name(out->dtype));
	if (in->dtype == IPU_DTYPE_I32 && !uop_int_ok(op))
		return ipue__fail(msg, msglen, "operation not defined for i32");
	if (in->count != out->count)
		return ipue__fail(msg, msglen, "in has %u elements, out %u", in->count, out->count);
	if (in != out && ipue__overlap(in, out) && !ipue__same_region(in, out))
		return ipue__fail(msg, msglen, "out partially overlaps in");
	return 0;
}

/*
 * a (In or InOut), b, out (== a for the in-place form); a comparison's out
 * is i32 whatever a's dtype (it may still coincide with a 4-byte a or b)
 */
static int binary_check(const struct ipue_field *a, const struct ipue_field *b,
			const struct ipue_field *out, bool cmp, char *msg, size_t msglen)
{
	int r;

	if ((r = ipue__check_field(a, "a", msg, msglen)) ||
	    (r = ipue__check_field(b, "b", msg, msglen)) ||
	    (r = ipue__check_field(out, "out", msg, msglen)))
		return r;
	if (a->dtype != b->dtype || (cmp ? out->dtype != IPU_DTYPE_I32 : a->dtype != out->dtype))
		return ipue__fail(msg, msglen, "dtypes differ: a %s, b %s, out %s%s",
				  ipue__dtype_name(a->dtype), ipue__dtype_name(b->dtype),
				  ipue__dtype_name(out->dtype), cmp ? " (a comparison's out is i32)" : "");
	if (a->count != out->count)
		return ipue__fail(msg, msglen, "a has %u elements, out %u", a->count, out->count);
	if (b->count != a->count && b->count != 1)
		return ipue__fail(msg, msglen, "b has %u elements, expected %u or 1",
				  b->count, a->count);
	if (a != out && ipue__overlap(a, out) && !ipue__same_region(a, out))
		return ipue__fail(msg, msglen, "out partially overlaps a");
	if (ipue__overlap(b, out) && !(ipue__same_region(b, out) && b->count == out->count))
		return ipue__fail(msg, msglen, "out overlaps b");
	return 0;
}

/* ---------------- cost model ---------------- */

/* ---------------- per-op entry points ---------------- */

#define UNARY_FNS(OP, lname)								\
static int unary_##lname##_check(const struct ipue_field *f, const uint32_t *p,	\
				 char *msg, size_t msglen)			\
{											\
	(void)p;									\
	return unary_check(OP, &f[0], &f[1], msg, msglen);			\
}											\
static void unary_##lname##_run(const struct ipue_field *f, const uint32_t *p)	\
{											\
	(void)p;									\
	unary_loop(OP, f[0].dtype, f[0].data, f[1].data, f[0].count);		\
}											\
static int unary_ip_##lname##_check(const struct ipue_field *f, const uint32_t *p,	\
				    char *msg, size_t msglen)			\
{											\
	(void)p;									\
	return unary_check(OP, &f[0], &f[0], msg, msglen);			\
}											\
static void unary_ip_##lname##_run(const struct ipue_field *f, const uint32_t *p)	\
{											\
	(void)p;									\
	unary_loop(OP, f[0].dtype, f[0].data, f[0].data, f[0].count);		\
}											\
static uint64_t unary_##lname##_cycles(const struct ipue_field *f, const uint32_t *p)	\
{											\
	(void)p;									\
	return IPUE_CYCLES_VERTEX_OVERHEAD +						\
	       ipue__ceil_div((uint64_t)f[0].count * uop_qcycles(OP, f[0].dtype), 4);	\
}

#define BINARY_FNS(OP, lname)								\
static int binary_##lname##_check(const struct ipue_field *f, const uint32_t *p,	\
				  char *msg, size_t msglen)			\
{											\
	(void)p;									\
	return binary_check(&f[0], &f[1], &f[2], false, msg, msglen);		\
}											\
static void binary_##lname##_run(const struct ipue_field *f, const uint32_t *p)	\
{											\
	(void)p;									\
	binary_loop(OP, f[0].dtype, f[0].data, f[1].data, f[1].count != 1 || f[0].count == 1,	\
		    f[2].data, f[0].count);						\
}											\
static int binary_ip_##lname##_check(const struct ipue_field *f, const uint32_t *p,	\
				     char *msg, size_t msglen)			\
{											\
	(void)p;									\
	return binary_check(&f[0], &f[1], &f[0], false, msg, msglen);		\
}											\
static void binary_ip_##lname##_run(const struct ipue_field *f, const uint32_t *p)	\
{											\
	(void)p;									\
	binary_loop(OP, f[0].dtype, f[0].data, f[1].data, f[1].count != 1 || f[0].count == 1,	\
		    f[0].data, f[0].count);						\
}											\
static uint64_t binary_##lname##_cycles(const struct ipue_field *f, const uint32_t *p)	\
{											\
	(void)p;									\
	return IPUE_CYCLES_VERTEX_OVERHEAD +						\
	       ipue__ceil_div((uint64_t)f[0].count * bop_qcycles(OP, f[0].dtype), 4);	\
}

#define COMPARE_FNS(OP, lname)								\
static int compare_##lname##_check(const struct ipue_field *f, const uint32_t *p,	\
				   char *msg, size_t msglen)			\
{											\
	(void)p;									\
	return binary_check(&f[0], &f[1], &f[2], true, msg, msglen);		\
}											\
static void compare_##lname##_run(const struct ipue_field *f, const uint32_t *p)	\
{											\
	(void)p;									\
	compare_loop(OP, f[0].dtype, f[0].data, f[1].data, f[1].count != 1 || f[0].count == 1,	\
		     f[2].data, f[0].count);						\
}

/* like the simple binary ops: 2 f32 / 4 f16 / 1 i32 per cycle */
static uint64_t compare_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;
	return IPUE_CYCLES_VERTEX_OVERHEAD +
	       ipue__ceil_div((uint64_t)f[0].count * bop_qcycles(IPUE_BOP_MAX, f[0].dtype), 4);
}

UNARY_FNS(IPUE_UOP_NEG, neg)
UNARY_FNS(IPUE_UOP_ABS, abs)
UNARY_FNS(IPUE_UOP_EXP, exp)
UNARY_FNS(IPUE_UOP_LOG, log)
UNARY_FNS(IPUE_UOP_SQRT, sqrt)
UNARY_FNS(IPUE_UOP_TANH, tanh)
UNARY_FNS(IPUE_UOP_SIGMOID, sigmoid)
UNARY_FNS(IPUE_UOP_RELU, relu)
UNARY_FNS(IPUE_UOP_GELU, gelu)

BINARY_FNS(IPUE_BOP_ADD, add)
BINARY_FNS(IPUE_BOP_SUB, sub)
BINARY_FNS(IPUE_BOP_MUL, mul)
BINARY_FNS(IPUE_BOP_DIV, div)
BINARY_FNS(IPUE_BOP_MAX, max)
BINARY_FNS(IPUE_BOP_MIN, min)

COMPARE_FNS(IPUE_BOP_EQ, eq)
COMPARE_FNS(IPUE_BOP_NE, ne)
COMPARE_FNS(IPUE_BOP_LT, lt)
COMPARE_FNS(IPUE_BOP_LE, le)
COMPARE_FNS(IPUE_BOP_GT, gt)
COMPARE_FNS(IPUE_BOP_GE, ge)

/* ---------------- registry slice ---------------- */

#define UNARY_ENTRY(OP, lname, Name, mask) {						\
	.id = IPUE_CODELET_UNARY(OP), .name = "Unary" Name,				\
	.nfields = 2, .nparams = 0,							\
	.field = { { "in", IPUE_FIELD_IN, 0, mask }, { "out", IPUE_FIELD_OUT, 0, mask } },	\
	.check = unary_##lname##_check, .run = unary_##lname##_run,			\
	.cycles = unary_##lname##_cycles }
#define UNARY_IP_ENTRY(OP, lname, Name, mask) {						\
	.id = IPUE_CODELET_UNARY_INPLACE(OP), .name = "Unary" Name "InPlace",		\
	.nfields = 1, .nparams = 0,							\
	.field = { { "x", IPUE_FIELD_INOUT, 0, mask } },				\
	.check = unary_ip_##lname##_check, .run = unary_ip_##lname##_run,		\
	.cycles = unary_##lname##_cycles }
#define BINARY_ENTRY(OP, lname, Name) {							\
	.id = IPUE_CODELET_BINARY(OP), .name = "Binary" Name,				\
	.nfields = 3, .nparams = 0,							\
	.field = { { "a", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },				\
		   { "b", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },				\
		   { "out", IPUE_FIELD_OUT, 0, IPUE_DTMASK_ALL } },			\
	.check = binary_##lname##_check, .run = binary_##lname##_run,			\
	.cycles = binary_##lname##_cycles }
#define BINARY_IP_ENTRY(OP, lname, Name) {						\
	.id = IPUE_CODELET_BINARY_INPLACE(OP), .name = "Binary" Name "InPlace",		\
	.nfields = 2, .nparams = 0,							\
	.field = { { "a", IPUE_FIELD_INOUT, 0, IPUE_DTMASK_ALL },			\
		   { "b", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL } },			\
	.check = binary_ip_##lname##_check, .run = binary_ip_##lname##_run,		\
	.cycles = binary_##lname##_cycles }

#define COMPARE_ENTRY(OP, lname, Name) {						\
	.id = IPUE_CODELET_BINARY(OP), .name = "Binary" Name,				\
	.nfields = 3, .nparams = 0,							\
	.field = { { "a", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },				\
		   { "b", IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL },				\
		   { "out", IPUE_FIELD_OUT, 0, IPUE_DTMASK_I32 } },			\
	.check = compare_##lname##_check, .run = compare_##lname##_run,			\
	.cycles = compare_cycles }

#define M_ALL IPUE_DTMASK_ALL
#define M_FLT IPUE_DTMASK_FLOAT

/* sorted by id */
static const struct ipue_codelet codelets[] = {
	UNARY_ENTRY(IPUE_UOP_NEG, neg, "Neg", M_ALL),
	UNARY_ENTRY(IPUE_UOP_ABS, abs, "Abs", M_ALL),
	UNARY_ENTRY(IPUE_UOP_EXP, exp, "Exp", M_FLT),
	UNARY_ENTRY(IPUE_UOP_LOG, log, "Log", M_FLT),
	UNARY_ENTRY(IPUE_UOP_SQRT, sqrt, "Sqrt", M_FLT),
	UNARY_ENTRY(IPUE_UOP_TANH, tanh, "Tanh", M_FLT),
	UNARY_ENTRY(IPUE_UOP_SIGMOID, sigmoid, "Sigmoid", M_FLT),
	UNARY_ENTRY(IPUE_UOP_RELU, relu, "Relu", M_ALL),
	UNARY_ENTRY(IPUE_UOP_GELU, gelu, "Gelu", M_FLT),

	UNARY_IP_ENTRY(IPUE_UOP_NEG, neg, "Neg", M_ALL),
	UNARY_IP_ENTRY(IPUE_UOP_ABS, abs, "Abs", M_ALL),
	UNARY_IP_ENTRY(IPUE_UOP_EXP, exp, "Exp", M_FLT),
	UNARY_IP_ENTRY(IPUE_UOP_LOG, log, "Log", M_FLT),
	UNARY_IP_ENTRY(IPUE_UOP_SQRT, sqrt, "Sqrt", M_FLT),
	UNARY_IP_ENTRY(IPUE_UOP_TANH, tanh, "Tanh", M_FLT),
	UNARY_IP_ENTRY(IPUE_UOP_SIGMOID, sigmoid, "Sigmoid", M_FLT),
	UNARY_IP_ENTRY(IPUE_UOP_RELU, relu, "Relu", M_ALL),
	UNARY_IP_ENTRY(IPUE_UOP_GELU, gelu, "Gelu", M_FLT),

	BINARY_ENTRY(IPUE_BOP_ADD, add, "Add"),
	BINARY_ENTRY(IPUE_BOP_SUB, sub, "Sub"),
	BINARY_ENTRY(IPUE_BOP_MUL, mul, "Mul"),
	BINARY_ENTRY(IPUE_BOP_DIV, div, "Div"),
	BINARY_ENTRY(IPUE_BOP_MAX, max, "Max"),
	BINARY_ENTRY(IPUE_BOP_MIN, min, "Min"),
	COMPARE_ENTRY(IPUE_BOP_EQ, eq, "Eq"),
	COMPARE_ENTRY(IPUE_BOP_NE, ne, "Ne"),
	COMPARE_ENTRY(IPUE_BOP_LT, lt, "Lt"),
	COMPARE_ENTRY(IPUE_BOP_LE, le, "Le"),
	COMPARE_ENTRY(IPUE_BOP_GT, gt, "Gt"),
	COMPARE_ENTRY(IPUE_BOP_GE, ge, "Ge"),

	BINARY_IP_ENTRY(IPUE_BOP_ADD, add, "Add"),
	BINARY_IP_ENTRY(IPUE_BOP_SUB, sub, "Sub"),
	BINARY_IP_ENTRY(IPUE_BOP_MUL, mul, "Mul"),
	BINARY_IP_ENTRY(IPUE_BOP_DIV, div, "Div"),
	BINARY_IP_ENTRY(IPUE_BOP_MAX, max, "Max"),
	BINARY_IP_ENTRY(IPUE_BOP_MIN, min, "Min"),
};

const struct ipue__slice ipue__elementwise_slice = {
	codelets, sizeof(codelets) / sizeof(codelets[0])
};
