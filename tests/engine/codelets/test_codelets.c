/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the built-in codelet library (qemu-device/engine/codelets*.c):
 * every codelet x every dtype against straightforward scalar references,
 * random shapes including empty and odd sizes, negative check() cases,
 * exhaustive fp16 conversions, matmul/conv against double references.
 * Runs on the kselftest harness: one result per group (TEST); a group's
 * failed checks are listed as KTAP comments. mk/engine.mk writes
 * results/codelets.ktap and, built with ASan+UBSan, codelets-san.ktap.
 * Usage: test_codelets [seed]
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "codelets_impl.h"
#include "kselftest_harness.h"

/* ---------------- checks ---------------- */

/*
 * Each group runs in its own process (the harness forks per TEST), which
 * leaves with _exit(): diagnostics go out at once. The groups draw from one
 * random stream, in order, as if they ran in one process: its state is in
 * memory shared with the children (main()).
 */
static unsigned g_fail;		/* failures in the group */
static unsigned g_diag;		/* diagnostics printed in the group */
static unsigned long g_checks;	/* checks made in the group */
static uint64_t g_rng_own = 0x9e3779b97f4a7c15ull;
static uint64_t *g_rngp = &g_rng_own;
#define g_rng (*g_rngp)

#define FAIL(...) do {							\
	if (g_diag++ < 8) {						\
		printf("# %s:%d: ", __func__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		fflush(stdout);						\
	}								\
	g_fail++;							\
} while (0)

#define EXPECT(cond, ...) do { g_checks++; if (!(cond)) FAIL(__VA_ARGS__); } while (0)

static uint64_t rnd64(void)
{
	g_rng ^= g_rng << 13;
	g_rng ^= g_rng >> 7;
	g_rng ^= g_rng << 17;
	return g_rng;
}

static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
static uint32_t rndn(uint32_t n) { return n ? rnd32() % n : 0; }
static double rndu(void) { return (double)(rnd64() >> 11) * 0x1p-53; }

static const uint32_t sizes[] = { 0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1023, 1024, 1025 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static float rnd_f32(int kind)
{
	static const uint32_t special[] = { 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
					    0x7fc00000u, 0x00000001u, 0x807fffffu, 0x7f7fffffu,
					    0x3f800000u, 0xbf800000u, 0x00800000u, 0x42b17218u };
	uint32_t r = rndn(100);

	if (r < 8)
		return ipue__u2f(special[rndn(sizeof(special) / sizeof(special[0]))]);
	if (r < 16)
		return ipue__u2f(rnd32());			/* any bit pattern */
	if (kind == 1)						/* moderate range */
		return (float)((rndu() - 0.5) * 40.0);
	return (float)ldexp(rndu() - 0.5, (int)rndn(60) - 30);
}

static uint16_t rnd_f16(void)
{
	return (uint16_t)rnd32();
}

static int32_t rnd_i32(void)
{
	static const int32_t special[] = { 0, 1, -1, INT32_MIN, INT32_MAX, 2, -2, 7 };
	uint32_t r = rndn(10);
	uint32_t u;
	int32_t v;

	if (r < 2)
		return special[rndn(8)];
	u = r < 5 ? rnd32() : rnd32() % 2001 - 1000;
	memcpy(&v, &u, sizeof(v));
	return v;
}

static int32_t wrap(int64_t v)
{
	uint32_t u = (uint32_t)(uint64_t)v;
	int32_t r;

	memcpy(&r, &u, sizeof(r));
	return r;
}

/* distance in units in the last place between two floats (NaN: both NaN -> 0) */
static uint32_t ulp_diff_f32(float a, float b)
{
	if (a != a || b != b)
		return (a != a && b != b) ? 0 : UINT32_MAX;
	int64_t ia = ipue__f2u(a), ib = ipue__f2u(b);

	ia = ia & 0x80000000 ? -(ia & 0x7fffffff) : ia;
	ib = ib & 0x80000000 ? -(ib & 0x7fffffff) : ib;
	return (uint32_t)(ia > ib ? ia - ib : ib - ia);
}

static int h_isnan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

static uint32_t ulp_diff_f16(uint16_t a, uint16_t b)
{
	if (h_isnan(a) || h_isnan(b))
		return (h_isnan(a) && h_isnan(b)) ? 0 : UINT32_MAX;
	int32_t ia = a & 0x8000 ? -(a & 0x7fff) : a;
	int32_t ib = b & 0x8000 ? -(b & 0x7fff) : b;

	return (uint32_t)(ia > ib ? ia - ib : ib - ia);
}

/* independent references for binary16 */
static double half_decode_ref(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double s = (h & 0x8000) ? -1.0 : 1.0;

	if (e == 31)
		return m ? NAN : s * INFINITY;
	if (e == 0)
		return s * ldexp(m, -24);
	return s * ldexp(1024 + m, e - 25);
}

/* double -> half, round to nearest even, single rounding */
static uint16_t half_round_ref(double v)
{
	uint16_t sign = signbit(v) ? 0x8000 : 0;
	double a = fabs(v), r;
	int ex;

	if (v != v)
		return 0x7e00;
	if (a >= 65520.0)
		return sign | 0x7c00;
	if (a == 0)
		return sign;
	frexp(a, &ex);
	ex -= 1;
	if (ex < -14)
		ex = -14;
	r = nearbyint(ldexp(a, 10 - ex));		/* exact scaling, then RNE */
	r = ldexp(r, ex - 10);
	/* r is representable as a half now; encode */
	if (r >= 0x1p-14) {
		frexp(r, &ex);
		ex -= 1;
		return sign | (uint16_t)(((ex + 15) << 10) | ((int)ldexp(r, 10 - ex) - 1024));
	}
	return sign | (uint16_t)ldexp(r, 24);
}

/* ---------------- vertex helpers ---------------- */

static void *xalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	return p;
}

static struct ipue_field fld(void *data, uint32_t count, uint8_t dtype)
{
	struct ipue_field f = { data, count, dtype };

	return f;
}

/* validate + run; returns 0 or the validation error (and reports it) */
static int run_ok(uint16_t id, const struct ipue_field *f, unsigned nf,
		  const uint32_t *p, unsigned np)
{
	const struct ipue_codelet *c = ipue_codelet_find(id);
	char msg[160];
	int r;

	if (!c) {
		FAIL("codelet 0x%04x missing", id);
		return -1;
	}
	r = ipue_codelet_validate(c, f, nf, p, np, msg, sizeof(msg));
	if (r) {
		FAIL("%s rejected a valid binding: %s", c->name, msg);
		return r;
	}
	uint64_t cy = c->cycles(f, p);

	EXPECT(cy >= IPUE_CYCLES_VERTEX_OVERHEAD, "%s cycles %" PRIu64, c->name, cy);
	c->run(f, p);
	return 0;
}

/* expect validation to fail */
static void run_bad(uint16_t id, const struct ipue_field *f, unsigned nf,
		    const uint32_t *p, unsigned np, const char *what)
{
	const struct ipue_codelet *c = ipue_codelet_find(id);
	char msg[160] = "untouched";
	int r;

	if (!c) {
		FAIL("codelet 0x%04x missing", id);
		return;
	}
	r = ipue_codelet_validate(c, f, nf, p, np, msg, sizeof(msg));
	EXPECT(r == -EINVAL, "%s accepted a bad binding (%s)", c->name, what);
	EXPECT(r == 0 || (msg[0] && strcmp(msg, "untouched")), "%s: no message for %s",
	       c->name, what);
}

static size_t dsize(uint8_t dt) { return ipue__dtype_size(dt); }

static void fill_random(void *p, uint32_t n, uint8_t dt, int kind)
{
	for (uint32_t i = 0; i < n; i++) {
		if (dt == IPU_DTYPE_F32)
			((float *)p)[i] = rnd_f32(kind);
		else if (dt == IPU_DTYPE_F16)
			((uint16_t *)p)[i] = kind == 1 ? ipue__f2h((float)((rndu() - 0.5) * 20))
						       : rnd_f16();
		else
			((int32_t *)p)[i] = rnd_i32();
	}
}

/* equal bits, except that any NaN equals any NaN (payloads are unspecified) */
static int same_values(const void *p, const void *q, uint32_t n, uint8_t dt)
{
	for (uint32_t i = 0; i < n; i++) {
		if (dt == IPU_DTYPE_F32) {
			uint32_t a = ((const uint32_t *)p)[i], b = ((const uint32_t *)q)[i];
			int na = (a & 0x7fffffffu) > 0x7f800000u, nb = (b & 0x7fffffffu) > 0x7f800000u;

			if (a != b && !(na && nb))
				return 0;
		} else if (dt == IPU_DTYPE_F16) {
			uint16_t a = ((const uint16_t *)p)[i], b = ((const uint16_t *)q)[i];

			if (a != b && !(h_isnan(a) && h_isnan(b)))
				return 0;
		} else if (((const int32_t *)p)[i] != ((const int32_t *)q)[i]) {
			return 0;
		}
	}
	return 1;
}

static const uint8_t all_dt[] = { IPU_DTYPE_F32, IPU_DTYPE_F16, IPU_DTYPE_I32 };

#include "map_tests.h"

/* ---------------- groups ---------------- */

static void t_registry(void)
{
	size_t n = ipue_codelet_count();
	static const struct { uint16_t id; const char *name; } stable[] = {
		{ 0x0101, "UnaryNeg" }, { 0x0103, "UnaryExp" }, { 0x0108, "UnaryRelu" },
		{ 0x0207, "UnarySigmoidInPlace" }, { 0x0301, "BinaryAdd" },
		{ 0x0304, "BinaryDiv" }, { 0x0406, "BinaryMinInPlace" }, { 0x0501, "Cast" },
		{ 0x0502, "Fill" }, { 0x0503, "Copy" }, { 0x0601, "ReduceSum" },
		{ 0x0602, "ReduceMax" }, { 0x0603, "ReduceMin" }, { 0x0701, "MatMulPartial" },
		{ 0x0702, "Conv2dPartial" }, { 0x0801, "ScaledAdd" }, { 0x0802, "ScaledAddScalar" },
		{ 0x0109, "UnaryGelu" }, { 0x0209, "UnaryGeluInPlace" }, { 0x0901, "ReluGrad" },
		{ 0x0902, "GeluGrad" }, { 0x0903, "SigmoidGrad" }, { 0x0904, "TanhGrad" },
		{ 0x0307, "BinaryEq" }, { 0x0308, "BinaryNe" }, { 0x0309, "BinaryLt" },
		{ 0x030a, "BinaryLe" }, { 0x030b, "BinaryGt" }, { 0x030c, "BinaryGe" },
		{ 0x0504, "Select" }, { 0x0505, "Transpose" }, { 0x0604, "ArgMax" },
		{ 0x0a01, "SgdMomentum" }, { 0x0a02, "AdamStep" }, { 0x0a03, "Adam" },
		{ 0x0e01, "Map1" }, { 0x0e07, "Map7" },
		{ 0x0703, "Im2Col" }, { 0x0704, "Col2Im" }, { 0x0b01, "MaxPool" }, { 0x0b02, "AvgPool" },
		{ 0x0b03, "MaxPoolGrad" }, { 0x0b04, "AvgPoolGrad" },
	};

	EXPECT(n == 72, "expected 72 codelets, have %zu", n);
	EXPECT(ipue_codelet_find(IPUE_CODELET_BINARY_INPLACE(IPUE_BOP_EQ)) == NULL,
	       "comparisons have no in-place form");
	EXPECT(ipue_codelet_at(n) == NULL, "at(count) not NULL");
	EXPECT(ipue_codelet_find(0) == NULL && ipue_codelet_find(0xffff) == NULL &&
	       ipue_codelet_find(0x010a) == NULL && ipue_codelet_find(0x0905) == NULL,
	       "unknown ids found");
	for (size_t i = 0; i < n; i++) {
		const struct ipue_codelet *c = ipue_codelet_at(i);

		EXPECT(c && ipue_codelet_find(c->id) == c, "find(at(%zu)) mismatch", i);
		if (!c)
			continue;
		EXPECT(c->name && c->check && c->run && c->cycles, "0x%04x incomplete", c->id);
		EXPECT(c->nfields >= 1 && c->nfields <= IPUE_MAX_FIELDS, "%s nfields", c->name);
		EXPECT(c->nparams <= IPUE_MAX_PARAMS, "%s nparams", c->name);
		for (unsigned j = 0; j < c->nfields; j++) {
			const struct ipue_field_desc *d = &c->field[j];

			EXPECT(d->name && d->dir >= 1 && d->dir <= 3, "%s field %u", c->name, j);
			EXPECT(d->dtype_mask && !(d->dtype_mask & ~IPUE_DTMASK_ALL),
			       "%s field %u mask", c->name, j);
		}
		for (size_t j = 0; j < i; j++) {
			const struct ipue_codelet *o = ipue_codelet_at(j);

			EXPECT(o->id != c->id, "duplicate id 0x%04x", c->id);
			EXPECT(strcmp(o->name, c->name), "duplicate name %s", c->name);
		}
	}
	for (size_t i = 0; i < sizeof(stable) / sizeof(stable[0]); i++) {
		const struct ipue_codelet *c = ipue_codelet_find(stable[i].id);

		EXPECT(c && !strcmp(c->name, stable[i].name), "id 0x%04x is not %s",
		       stable[i].id, stable[i].name);
	}
}

static void t_fp16_exhaustive(void)
{
	for (uint32_t h = 0; h < 65536; h++) {
		float f = ipue_f16_to_f32((uint16_t)h);
		double ref = half_decode_ref((uint16_t)h);
		uint16_t back = ipue_f32_to_f16(f);

		if (h_isnan((uint16_t)h)) {
			EXPECT(f != f, "h2f(0x%04x) not NaN", h);
			EXPECT(back == (h | 0x0200), "f2h(h2f(0x%04x)) = 0x%04x", h, back);
			continue;
		}
		EXPECT((double)f == ref && !!signbit(f) == !!signbit(ref), "h2f(0x%04x) = %a, want %a",
		       h, f, ref);
		EXPECT(back == h, "f2h(h2f(0x%04x)) = 0x%04x", h, back);
		EXPECT(half_round_ref(ref) == h, "reference rounding broken at 0x%04x", h);
	}
	/* NaN payloads: f32 NaN with payload only in low bits stays NaN */
	EXPECT(h_isnan(ipue_f32_to_f16(ipue__u2f(0x7f800001u))), "f32 sNaN low payload lost");
	EXPECT(ipue_f32_to_f16(ipue__u2f(0xffc00000u)) == 0xfe00, "-qNaN");
}

/* bulk conversion (F16C when the host has it) must equal the scalar code */
static void t_fp16_bulk(void)
{
	enum { NF = 1 << 20 };
	uint16_t *h = xalloc(65536 * 2), *h2 = xalloc(NF * 2);
	float *f = xalloc(NF * 4);
	bool modes[2] = { false, ipue__f16c_supported() };

	printf("# F16C %s\n", modes[1] ? "used" : "not available");
	for (int mi = 0; mi < 2; mi++) {
		bool f16c = modes[mi];

		if (mi && !f16c)
			break;
		for (uint32_t i = 0; i < 65536; i++)
			h[i] = (uint16_t)i;
		ipue__h2f_n(f, h, 65536, f16c);
		for (uint32_t i = 0; i < 65536; i++)
			EXPECT(ipue__f2u(f[i]) == ipue__f2u(ipue__h2f((uint16_t)i)),
			       "h2f_n(0x%04x) f16c=%d", i, f16c);
		/* all floats that are halves, midpoints and neighbours, random bits */
		for (uint32_t i = 0; i < NF; i++) {
			uint32_t r = rnd32();

			switch (i % 4) {
			case 0: f[i] = ipue__h2f((uint16_t)i); break;
			case 1: f[i] = ipue__u2f((ipue__f2u(ipue__h2f((uint16_t)r)) + (1u << 12)) +
						 (r >> 30) - 1); break;
			default: f[i] = ipue__u2f(r); break;
			}
		}
		for (uint32_t n = 0; n < 20; n++) {	/* odd lengths and offsets */
			ipue__f2h_n(h2 + n, f + n, n * 7 + 1, f16c);
			for (uint32_t i = 0; i < n * 7 + 1; i++)
				EXPECT(h2[n + i] == ipue__f2h(f[n + i]), "f2h_n len");
		}
		ipue__f2h_n(h2, f, NF, f16c);
		for (uint32_t i = 0; i < NF; i++)
			EXPECT(h2[i] == ipue__f2h(f[i]), "f2h_n(%a) = 0x%04x want 0x%04x f16c=%d",
			       f[i], h2[i], ipue__f2h(f[i]), f16c);
	}
	free(h);
	free(h2);
	free(f);
}

static void t_fp16_rounding(void)
{
	/* ties and neighbours of every midpoint between consecutive finite halves */
	for (uint32_t h = 0; h < 0x7c00; h++) {
		for (int s = 0; s < 2; s++) {
			uint16_t lo = (uint16_t)(h | (s << 15)), hi = (uint16_t)((h + 1) | (s << 15));
			double mid = h + 1 == 0x7c00 ? (s ? -65520.0 : 65520.0)
						     : (half_decode_ref(lo) + half_decode_ref(hi)) / 2;
			float fm = (float)mid;			/* exact: 12 significant bits */
			uint16_t even = (h & 1) ? hi : lo;

			if (h + 1 == 0x7c00)			/* 65520: rounds to Inf */
				even = hi;
			EXPECT((double)fm == mid, "midpoint not exact");
			EXPECT(ipue_f32_to_f16(fm) == even, "tie at 0x%04x -> 0x%04x", lo,
			       ipue_f32_to_f16(fm));
			EXPECT(ipue_f32_to_f16(nextafterf(fm, 0.0f)) == lo, "below tie 0x%04x", lo);
			EXPECT(ipue_f32_to_f16(nextafterf(fm, s ? -INFINITY : INFINITY)) == hi,
			       "above tie 0x%04x", lo);
		}
	}
	/* random floats of every magnitude against the single-rounding reference */
	for (int i = 0; i < 2000000; i++) {
		float f = ipue__u2f(rnd32());

		if (f != f)
			continue;
		uint16_t got = ipue_f32_to_f16(f), want = half_round_ref(f);

		EXPECT(got == want, "f2h(%a) = 0x%04x want 0x%04x", f, got, want);
	}
	EXPECT(ipue_f32_to_f16(65519.99f) == 0x7bff && ipue_f32_to_f16(65520.0f) == 0x7c00 &&
	       ipue_f32_to_f16(-65520.0f) == 0xfc00, "overflow threshold");
	EXPECT(ipue_f32_to_f16(0x1p-25f) == 0 && ipue_f32_to_f16(0x1.000002p-25f) == 1 &&
	       ipue_f32_to_f16(0x1.8p-24f) == 2, "subnormal rounding");
}

/*
 * GELU (tanh approximation) in long double, as x * sigmoid(2u): the same
 * function as x/2 (1 + tanh(u)) without its cancellation for x < 0.
 * ref_gelu_grad is its derivative, checked against a central difference
 * in t_grad.
 */
static const long double gelu_a = 1.5957691216057308008L;	/* 2 sqrt(2/pi) */

static double ref_gelu(double x)
{
	long double lx = x, z = gelu_a * (lx + 0.044715L * lx * lx * lx), e;

	if (x != x)
		return x;
	if (x == -INFINITY)
		return -0.0;
	if (z >= 0)
		return (double)(lx / (1 + expl(-z)));
	e = expl(z);
	return (double)(lx * e / (1 + e));
}

static double ref_gelu_grad(double x)
{
	long double lx = x, z = gelu_a * (lx + 0.044715L * lx * lx * lx);
	long double e = expl(-fabsl(z)), s = (z >= 0 ? 1 : e) / (1 + e);

	if (x != x)
		return x;
	if (isinf(x))
		return x > 0 ? 1 : 0;
	return (double)(s + lx * e / ((1 + e) * (1 + e)) * gelu_a * (1 + 3 * 0.044715L * lx * lx));
}

/* unary reference in double */
static double uref(int op, double x)
{
	switch (op) {
	case IPUE_UOP_NEG: return -x;
	case IPUE_UOP_ABS: return fabs(x);
	case IPUE_UOP_EXP: return exp(x);
	case IPUE_UOP_LOG: return log(x);
	case IPUE_UOP_SQRT: return sqrt(x);
	case IPUE_UOP_TANH: return tanh(x);
	case IPUE_UOP_SIGMOID: return 1.0 / (1.0 + exp(-x));
	case IPUE_UOP_RELU: return x != x ? x : x > 0 ? x : 0.0;
	case IPUE_UOP_GELU: return ref_gelu(x);
	default: return 0;
	}
}

/* documented ULP bounds: f32 results, and f16 results (in f16 ulps) */
static const uint32_t ulp_f32[IPUE_UOP_COUNT_] = {
	[IPUE_UOP_EXP] = 1, [IPUE_UOP_LOG] = 1, [IPUE_UOP_TANH] = 2, [IPUE_UOP_SIGMOID] = 2,
	[IPUE_UOP_GELU] = 1,
};
static const uint32_t ulp_f16[IPUE_UOP_COUNT_] = {
	[IPUE_UOP_EXP] = 1, [IPUE_UOP_LOG] = 1, [IPUE_UOP_TANH] = 1, [IPUE_UOP_SIGMOID] = 1,
	[IPUE_UOP_GELU] = 1,
};
static const char *const uop_name[IPUE_UOP_COUNT_] = {
	"", "neg", "abs", "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "gelu"
};

static int uop_int(int op)
{
	return op == IPUE_UOP_NEG || op == IPUE_UOP_ABS || op == IPUE_UOP_RELU;
}

static void t_unary(uint8_t dt)
{
	uint32_t worst[IPUE_UOP_COUNT_] = { 0 };

	for (int op = 1; op < IPUE_UOP_COUNT_; op++) {
		if (dt == IPU_DTYPE_I32 && !uop_int(op))
			continue;
		for (unsigned si = 0; si < NSIZES + 4; si++) {
			uint32_t n = si < NSIZES ? sizes[si] : 2000 + rndn(3000);
			size_t bytes = (size_t)n * dsize(dt);
			void *in = xalloc(bytes), *out = xalloc(bytes), *x = xalloc(bytes);
			struct ipue_field f[2] = { fld(in, n, dt), fld(out, n, dt) };

			fill_random(in, n, dt, (si & 1) ? 1 : 0);
			if (run_ok(IPUE_CODELET_UNARY(op), f, 2, NULL, 0))
				goto next;
			for (uint32_t i = 0; i < n; i++) {
				if (dt == IPU_DTYPE_F32) {
					float a = ((float *)in)[i], got = ((float *)out)[i];
					float want = (float)uref(op, a);
					uint32_t d = ulp_diff_f32(got, want);

					if (d > worst[op])
						worst[op] = d;
					EXPECT(d <= ulp_f32[op], "f32 %s(%a) = %a want %a (%u ulp)",
					       uop_name[op], a, got, want, d);
				} else if (dt == IPU_DTYPE_F16) {
					uint16_t a = ((uint16_t *)in)[i], got = ((uint16_t *)out)[i];
					uint16_t want = half_round_ref(uref(op, half_decode_ref(a)));
					uint32_t d = ulp_diff_f16(got, want);

					EXPECT(d <= ulp_f16[op], "f16 %s(0x%04x) = 0x%04x want 0x%04x",
					       uop_name[op], a, got, want);
				} else {
					int32_t a = ((int32_t *)in)[i], got = ((int32_t *)out)[i];
					int64_t w = op == IPUE_UOP_NEG ? -(int64_t)a :
						    op == IPUE_UOP_ABS ? (a < 0 ? -(int64_t)a : a) :
						    (a > 0 ? a : 0);

					EXPECT(got == wrap(w), "i32 %s(%d) = %d", uop_name[op], a, got);
				}
			}
			/* in-place form and exact alias must give identical bits */
			memcpy(x, in, bytes);
			f[0] = fld(x, n, dt);
			if (!run_ok(IPUE_CODELET_UNARY_INPLACE(op), f, 1, NULL, 0))
				EXPECT(same_values(x, out, n, dt), "%s in-place differs", uop_name[op]);
			memcpy(x, in, bytes);
			f[0] = fld(x, n, dt);
			f[1] = fld(x, n, dt);
			if (!run_ok(IPUE_CODELET_UNARY(op), f, 2, NULL, 0))
				EXPECT(same_values(x, out, n, dt), "%s aliased differs", uop_name[op]);
next:
			free(in);
			free(out);
			free(x);
		}
	}
	if (dt == IPU_DTYPE_F32) {
		printf("# max f32 ulp:");
		for (int op = 1; op < IPUE_UOP_COUNT_; op++)
			printf(" %s=%u", uop_name[op], worst[op]);
		printf("\n");
	}
	/* full f16 input space for every float op */
	if (dt == IPU_DTYPE_F16) {
		uint16_t *in = xalloc(65536 * 2), *out = xalloc(65536 * 2);

		for (uint32_t h = 0; h < 65536; h++)
			in[h] = (uint16_t)h;
		for (int op = 1; op < IPUE_UOP_COUNT_; op++) {
			struct ipue_field f[2] = { fld(in, 65536, dt), fld(out, 65536, dt) };

			if (run_ok(IPUE_CODELET_UNARY(op), f, 2, NULL, 0))
				continue;
			for (uint32_t h = 0; h < 65536; h++) {
				uint16_t want = half_round_ref(uref(op, half_decode_ref((uint16_t)h)));

				EXPECT(ulp_diff_f16(out[h], want) <= ulp_f16[op],
				       "f16 %s(0x%04x) = 0x%04x want 0x%04x", uop_name[op], h,
				       out[h], want);
			}
		}
		free(in);
		free(out);
	}
}

static double bref(int op, double a, double b)
{
	switch (op) {
	case IPUE_BOP_ADD: return a + b;
	case IPUE_BOP_SUB: return a - b;
	case IPUE_BOP_MUL: return a * b;
	case IPUE_BOP_DIV: return a / b;
	case IPUE_BOP_MAX:
		if (a != a || b != b)
			return NAN;
		if (a == 0 && b == 0)
			return signbit(a) && signbit(b) ? -0.0 : 0.0;
		return a > b ? a : b;
	case IPUE_BOP_MIN:
		if (a != a || b != b)
			return NAN;
		if (a == 0 && b == 0)
			return signbit(a) || signbit(b) ? -0.0 : 0.0;
		return a < b ? a : b;
	default: return 0;
	}
}

static int32_t bref_i32(int op, int32_t a, int32_t b)
{
	switch (op) {
	case IPUE_BOP_ADD: return wrap((int64_t)a + b);
	case IPUE_BOP_SUB: return wrap((int64_t)a - b);
	case IPUE_BOP_MUL: return wrap((int64_t)a * b);
	case IPUE_BOP_DIV: return b == 0 ? 0 : wrap((int64_t)a / b);
	case IPUE_BOP_MAX: return a > b ? a : b;
	case IPUE_BOP_MIN: return a < b ? a : b;
	default: return 0;
	}
}

static const char *const bop_name[IPUE_BOP_COUNT_] = { "", "add", "sub", "mul", "div", "max", "min" };

static void t_binary(uint8_t dt)
{
	for (int op = 1; op < IPUE_BOP_COUNT_; op++) {
		for (unsigned si = 0; si < 2 * NSIZES + 4; si++) {
			uint32_t n = si < 2 * NSIZES ? sizes[si % NSIZES] : 2000 + rndn(3000);
			uint32_t nb = (si >= NSIZES && si < 2 * NSIZES) ? 1 : n;	/* broadcast */
			size_t bytes = (size_t)n * dsize(dt);
			void *a = xalloc(bytes), *b = xalloc((size_t)nb * dsize(dt));
			void *out = xalloc(bytes), *x = xalloc(bytes);
			struct ipue_field f[3] = { fld(a, n, dt), fld(b, nb, dt), fld(out, n, dt) };

			fill_random(a, n, dt, si & 1);
			fill_random(b, nb, dt, si & 1);
			if (dt == IPU_DTYPE_I32 && op == IPUE_BOP_DIV && n > 4 && nb == n) {
				((int32_t *)a)[0] = INT32_MIN; ((int32_t *)b)[0] = -1;
				((int32_t *)a)[1] = 5; ((int32_t *)b)[1] = 0;
				((int32_t *)a)[2] = -7; ((int32_t *)b)[2] = 2;
			}
			if (run_ok(IPUE_CODELET_BINARY(op), f, 3, NULL, 0))
				goto next;
			for (uint32_t i = 0; i < n; i++) {
				uint32_t j = nb == 1 ? 0 : i;

				if (dt == IPU_DTYPE_F32) {
					float va = ((float *)a)[i], vb = ((float *)b)[j];
					float got = ((float *)out)[i], want = (float)bref(op, va, vb);

					EXPECT(ulp_diff_f32(got, want) == 0 &&
					       (got != got || !!signbit(got) == !!signbit(want)),
					       "f32 %a %s %a = %a want %a", va, bop_name[op], vb, got, want);
				} else if (dt == IPU_DTYPE_F16) {
					uint16_t va = ((uint16_t *)a)[i], vb = ((uint16_t *)b)[j];
					uint16_t got = ((uint16_t *)out)[i];
					uint16_t want = half_round_ref(bref(op, half_decode_ref(va),
									   half_decode_ref(vb)));

					EXPECT(ulp_diff_f16(got, want) == 0 &&
					       (h_isnan(got) || got == want),
					       "f16 0x%04x %s 0x%04x = 0x%04x want 0x%04x",
					       va, bop_name[op], vb, got, want);
				} else {
					int32_t va = ((int32_t *)a)[i], vb = ((int32_t *)b)[j];
					int32_t got = ((int32_t *)out)[i];

					EXPECT(got == bref_i32(op, va, vb), "i32 %d %s %d = %d",
					       va, bop_name[op], vb, got);
				}
			}
			/* in-place a op= b, and out aliasing a exactly */
			memcpy(x, a, bytes);
			f[0] = fld(x, n, dt);
			if (!run_ok(IPUE_CODELET_BINARY_INPLACE(op), f, 2, NULL, 0))
				EXPECT(same_values(x, out, n, dt), "%s in-place differs", bop_name[op]);
			memcpy(x, a, bytes);
			f[2] = fld(x, n, dt);
			if (!run_ok(IPUE_CODELET_BINARY(op), f, 3, NULL, 0))
				EXPECT(same_values(x, out, n, dt), "%s aliased differs", bop_name[op]);
next:
			free(a);
			free(b);
			free(out);
			free(x);
		}
	}
	if (dt == IPU_DTYPE_F32) {
		/* a broadcast -0 keeps its sign in the vector path (n >= 8) */
		float a[16], mz = -0.0f, o[16];
		struct ipue_field f[3] = { fld(a, 16, dt), fld(&mz, 1, dt), fld(o, 16, dt) };

		for (int i = 0; i < 16; i++)
			a[i] = i % 2 ? 1.5f * i : -0.0f;
		for (int op = IPUE_BOP_ADD; op <= IPUE_BOP_DIV; op++) {
			if (run_ok(IPUE_CODELET_BINARY(op), f, 3, NULL, 0))
				continue;
			for (int i = 0; i < 16; i++) {
				float want = (float)bref(op, a[i], mz);

				EXPECT(ulp_diff_f32(o[i], want) == 0 &&
				       (want != want || !!signbit(o[i]) == !!signbit(want)),
				       "f32 %a %s broadcast -0 = %a want %a",
				       a[i], bop_name[op], o[i], want);
			}
		}
	}
	if (dt == IPU_DTYPE_I32) {
		int32_t a[3] = { INT32_MIN, 42, INT32_MIN }, b[3] = { -1, 0, 0 }, o[3];
		struct ipue_field f[3] = { fld(a, 3, dt), fld(b, 3, dt), fld(o, 3, dt) };

		if (!run_ok(IPUE_CODELET_BINARY(IPUE_BOP_DIV), f, 3, NULL, 0))
			EXPECT(o[0] == INT32_MIN && o[1] == 0 && o[2] == 0, "i32 div specials");
	}
}

static float f32_to_i32_ref_in(double v, int32_t *r)
{
	if (v != v)
		*r = 0;
	else if (v >= 2147483648.0)
		*r = INT32_MAX;
	else if (v <= -2147483648.0)
		*r = INT32_MIN;
	else
		*r = (int32_t)trunc(v);
	return 0;
}

static void t_cast(void)
{
	for (unsigned fi = 0; fi < 3; fi++) {
		for (unsigned ti = 0; ti < 3; ti++) {
			uint8_t from = all_dt[fi], to = all_dt[ti];

			for (unsigned si = 0; si < NSIZES; si++) {
				uint32_t n = sizes[si];
				void *in = xalloc((size_t)n * dsize(from));
				void *out = xalloc((size_t)n * dsize(to));
				struct ipue_field f[2] = { fld(in, n, from), fld(out, n, to) };

				fill_random(in, n, from, si & 1);
				if (from == IPU_DTYPE_F32 && (si & 2))	/* int-range magnitudes */
					for (uint32_t i = 0; i < n; i++)
						((float *)in)[i] = (float)ldexp(rndu() - 0.5, (int)rndn(34));
				if (run_ok(IPUE_CODELET_CAST, f, 2, NULL, 0))
					goto next;
				for (uint32_t i = 0; i < n; i++) {
					double v = from == IPU_DTYPE_F32 ? ((float *)in)[i] :
						   from == IPU_DTYPE_F16 ? half_decode_ref(((uint16_t *)in)[i]) :
						   ((int32_t *)in)[i];

					if (to == IPU_DTYPE_F32) {
						float got = ((float *)out)[i], want = (float)v;

						EXPECT(ulp_diff_f32(got, want) == 0, "cast %u->f32 %a: %a",
						       from, v, got);
					} else if (to == IPU_DTYPE_F16) {
						uint16_t got = ((uint16_t *)out)[i];
						uint16_t want = from == IPU_DTYPE_F16 ? ((uint16_t *)in)[i]
										       : half_round_ref(v);

						EXPECT(got == want || (h_isnan(got) && h_isnan(want)),
						       "cast %u->f16 %a: 0x%04x want 0x%04x", from, v, got, want);
					} else {
						int32_t got = ((int32_t *)out)[i], want;

						f32_to_i32_ref_in(v, &want);
						EXPECT(got == want, "cast %u->i32 %a: %d want %d", from, v,
						       got, want);
					}
				}
next:
				free(in);
				free(out);
			}
		}
	}
	/* in place between equal-size types */
	float v[4] = { 1.5f, -2.7f, NAN, 3e9f };
	struct ipue_field f[2] = { fld(v, 4, IPU_DTYPE_F32), fld(v, 4, IPU_DTYPE_I32) };
	int32_t r[4];

	if (!run_ok(IPUE_CODELET_CAST, f, 2, NULL, 0)) {
		memcpy(r, v, sizeof(r));
		EXPECT(r[0] == 1 && r[1] == -2 && r[2] == 0 && r[3] == INT32_MAX, "in-place cast");
	}
}

static void t_fill_copy(void)
{
	for (unsigned di = 0; di < 3; di++) {
		uint8_t dt = all_dt[di];

		for (unsigned si = 0; si < NSIZES; si++) {
			uint32_t n = sizes[si], bits = dt == IPU_DTYPE_F16 ? rnd32() & 0xffff : rnd32();
			size_t bytes = (size_t)n * dsize(dt);
			void *in = xalloc(bytes), *out = xalloc(bytes);
			struct ipue_field f[2] = { fld(out, n, dt), fld(NULL, 0, dt) };

			if (!run_ok(IPUE_CODELET_FILL, f, 1, &bits, 1))
				for (uint32_t i = 0; i < n; i++) {
					uint32_t g = dt == IPU_DTYPE_F16 ? ((uint16_t *)out)[i]
									 : ((uint32_t *)out)[i];

					EXPECT(g == bits, "fill %u[%u] = 0x%x want 0x%x", dt, i, g, bits);
				}
			fill_random(in, n, dt, 0);
			f[0] = fld(in, n, dt);
			f[1] = fld(out, n, dt);
			if (!run_ok(IPUE_CODELET_COPY, f, 2, NULL, 0))
				EXPECT(!memcmp(in, out, bytes), "copy %u differs", n);
			free(in);
			free(out);
		}
	}
	/* overlapping copy has memmove semantics */
	int32_t buf[40], ref[40];

	for (int i = 0; i < 40; i++)
		buf[i] = ref[i] = i;
	memmove(ref + 3, ref, 30 * sizeof(int32_t));
	struct ipue_field f[2] = { fld(buf, 30, IPU_DTYPE_I32), fld(buf + 3, 30, IPU_DTYPE_I32) };

	if (!run_ok(IPUE_CODELET_COPY, f, 2, NULL, 0))
		EXPECT(!memcmp(buf, ref, sizeof(buf)), "overlapping copy");
}

/* the documented summation order */
static float sum_ref_order(const float *x, uint32_t n)
{
	float l[8] = { 0 };

	for (uint32_t i = 0; i < n; i++)
		l[i % 8] += x[i];
	return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
}

static void t_reduce(void)
{
	for (unsigned di = 0; di < 3; di++) {
		uint8_t dt = all_dt[di];

		for (unsigned si = 0; si < NSIZES + 3; si++) {
			uint32_t n = si < NSIZES ? sizes[si] : 5000 + rndn(50000);
			void *in = xalloc((size_t)n * dsize(dt));
			float *fv = xalloc((size_t)n * sizeof(float));

			fill_random(in, n, dt, 1);
			for (uint32_t i = 0; i < n; i++)
				fv[i] = dt == IPU_DTYPE_F32 ? ((float *)in)[i] :
					dt == IPU_DTYPE_F16 ? ipue__h2f(((uint16_t *)in)[i]) : 0;
			for (int kind = 0; kind < 3; kind++) {
				for (int acc = 0; acc < 2; acc++) {
					for (int o16 = 0; o16 < 2; o16++) {
						uint8_t odt = dt == IPU_DTYPE_F16 && !o16 ? IPU_DTYPE_F32 : dt;
						uint16_t id = (uint16_t)(IPUE_CODELET_REDUCE_SUM + kind);
						union { float f; int32_t i; uint16_t h; } o, o0;
						uint32_t flags = acc ? IPUE_REDUCE_ACCUMULATE : 0;
						struct ipue_field f[2] = { fld(in, n, dt), fld(&o, 1, odt) };

						if (o16 && dt != IPU_DTYPE_F16)
							continue;
						memset(&o, 0, sizeof(o));
						if (odt == IPU_DTYPE_F32)
							o.f = (float)(rndu() * 10);
						else if (odt == IPU_DTYPE_F16)
							o.h = ipue__f2h((float)(rndu() * 10));
						else
							o.i = rnd_i32();
						o0 = o;
						if (run_ok(id, f, 2, &flags, 1))
							continue;
						if (dt == IPU_DTYPE_I32) {
							const int32_t *x = in;
							int64_t r = kind == 0 ? 0 : kind == 1 ? INT32_MIN : INT32_MAX;

							if (acc)
								r = o0.i;
							for (uint32_t i = 0; i < n; i++)
								r = kind == 0 ? (int64_t)wrap(r + x[i]) :
								    kind == 1 ? (x[i] > r ? x[i] : r) :
								    (x[i] < r ? x[i] : r);
							EXPECT(o.i == wrap(r), "i32 reduce %d n=%u: %d want %d",
							       kind, n, o.i, wrap(r));
							continue;
						}
						float want, init = odt == IPU_DTYPE_F16 ? ipue__h2f(o0.h) : o0.f;
						double exact = 0, mag = 0;

						if (kind == 0) {
							want = sum_ref_order(fv, n);
							for (uint32_t i = 0; i < n; i++) {
								exact += fv[i];
								mag += fabs(fv[i]);
							}
							if (acc) {
								want = init + want;
								exact += init;
								mag += fabs(init);
							}
						} else {
							double r = kind == 1 ? -INFINITY : INFINITY;

							if (acc)
								r = init;
							for (uint32_t i = 0; i < n; i++)
								r = bref(kind == 1 ? IPUE_BOP_MAX : IPUE_BOP_MIN, r, fv[i]);
							want = (float)r;
						}
						if (odt == IPU_DTYPE_F16) {
							EXPECT(o.h == ipue__f2h(want), "f16 reduce %d n=%u", kind, n);
						} else {
							EXPECT(ulp_diff_f32(o.f, want) == 0, "reduce %d dt %u n=%u acc %d: %a want %a",
							       kind, dt, n, acc, o.f, want);
							if (kind == 0 && mag < 1e30)
								EXPECT(fabs(o.f - exact) <= (n / 8.0 + 4) * 0x1p-24 * mag,
								       "sum error bound n=%u", n);
						}
					}
				}
			}
			free(in);
			free(fv);
		}
	}
	/* NaN and signed zero */
	float z[3] = { -0.0f, 0.0f, -0.0f }, o;
	uint32_t flags = 0;
	struct ipue_field f[2] = { fld(z, 3, IPU_DTYPE_F32), fld(&o, 1, IPU_DTYPE_F32) };

	if (!run_ok(IPUE_CODELET_REDUCE_MAX, f, 2, &flags, 1))
		EXPECT(o == 0 && !signbit(o), "max(-0,+0)");
	if (!run_ok(IPUE_CODELET_REDUCE_MIN, f, 2, &flags, 1))
		EXPECT(o == 0 && signbit(o), "min(-0,+0)");
	z[1] = NAN;
	if (!run_ok(IPUE_CODELET_REDUCE_MAX, f, 2, &flags, 1))
		EXPECT(ipue__f2u(o) == 0x7fc00000u, "max NaN");
	f[0].count = 0;
	if (!run_ok(IPUE_CODELET_REDUCE_MAX, f, 2, &flags, 1))
		EXPECT(o == -INFINITY, "empty max");
	if (!run_ok(IPUE_CODELET_REDUCE_SUM, f, 2, &flags, 1))
		EXPECT(o == 0, "empty sum");
}

/* ---- matmul ---- */

static void matmul_case(int isa, bool via_codelet, uint32_t m, uint32_t n, uint32_t k,
			bool f16, bool bt, bool ow, double *worst)
{
	size_t es = f16 ? 2 : 4;
	void *a = xalloc((size_t)m * k * es), *b = xalloc((size_t)k * n * es);
	float *c = xalloc((size_t)m * n * 4), *c0 = xalloc((size_t)m * n * 4);
	double *fa = xalloc((size_t)m * k * 8), *fb = xalloc((size_t)k * n * 8);

	for (size_t i = 0; i < (size_t)m * k; i++) {
		float v = (float)(rndu() * 2 - 1);

		if (f16) {
			((uint16_t *)a)[i] = ipue__f2h(v);
			fa[i] = half_decode_ref(((uint16_t *)a)[i]);
		} else {
			((float *)a)[i] = v;
			fa[i] = v;
		}
	}
	for (size_t i = 0; i < (size_t)k * n; i++) {	/* fb is always [K][N] */
		float v = (float)(rndu() * 2 - 1);
		size_t kk = i / n, j = i % n, si = bt ? j * k + kk : i;

		if (f16) {
			((uint16_t *)b)[si] = ipue__f2h(v);
			fb[i] = half_decode_ref(((uint16_t *)b)[si]);
		} else {
			((float *)b)[si] = v;
			fb[i] = v;
		}
	}
	for (size_t i = 0; i < (size_t)m * n; i++) {
		/* overwrite: C's old contents (NaN, Inf) must not be read */
		c0[i] = ow ? 0.0f : (float)(rndu() * 4 - 2);
		c[i] = ow ? (i % 2 ? NAN : -INFINITY) : c0[i];
	}
	if (via_codelet) {
		uint32_t p[4] = { m, n, k, (bt ? IPUE_MATMUL_B_TRANSPOSED : 0) |
					   (ow ? IPUE_MATMUL_OVERWRITE : 0) };
		uint8_t dt = f16 ? IPU_DTYPE_F16 : IPU_DTYPE_F32;
		struct ipue_field f[3] = { fld(a, m * k, dt), fld(b, k * n, dt), fld(c, m * n, IPU_DTYPE_F32) };

		run_ok(IPUE_CODELET_MATMUL, f, 3, p, 4);
	} else {
		if (ow)
			ipue_matmul_f32(isa, m, n, k, a, b, f16, bt, false, c);
		else
			ipue_matmul_f32acc(isa, m, n, k, a, b, f16, bt, c);
	}
	for (uint32_t i = 0; i < m; i++) {
		for (uint32_t j = 0; j < n; j++) {
			double s = c0[(size_t)i * n + j], mag = fabs(s);

			for (uint32_t kk = 0; kk < k; kk++) {
				double t = fa[(size_t)i * k + kk] * fb[(size_t)kk * n + j];

				s += t;
				mag += fabs(t);
			}
			double err = fabs(c[(size_t)i * n + j] - s);
			double bound = (k + 2) * 0x1p-24 * mag;

			if (mag > 0 && err / mag > *worst)
				*worst = err / mag;
			EXPECT(err <= bound, "matmul isa %d %ux%ux%u f16=%d bt=%d C[%u][%u] = %.9g want %.9g",
			       isa, m, n, k, f16, bt, i, j, c[(size_t)i * n + j], s);
		}
	}
	free(a);
	free(b);
	free(c);
	free(c0);
	free(fa);
	free(fb);
}

static void t_matmul(bool f16)
{
	static const uint32_t dims[] = { 0, 1, 2, 5, 6, 7, 13, 16, 17, 31, 32, 33, 64, 65 };
	double worst = 0;

	for (int isa = 0; isa <= IPUE_ISA_AVX512; isa++) {
		if (!ipue_matmul_isa_supported(isa)) {
			printf("# isa %d not supported on this host, not tested\n", isa);
			continue;
		}
		for (int t = 0; t < 40; t++) {
			uint32_t m = dims[rndn(14)], n = dims[rndn(14)], k = dims[rndn(14)];

			matmul_case(isa, false, m, n, k, f16, t & 1, t & 2, &worst);
		}
		matmul_case(isa, false, 50, 70, 600, f16, false, false, &worst);	/* several K slices */
		matmul_case(isa, false, 61, 45, 300, f16, true, false, &worst);
		matmul_case(isa, false, 1, 1, 1, f16, false, false, &worst);
		/* N over several column chunks, K over several slices, overwrite then accumulate */
		matmul_case(isa, false, 54, 200, 147, f16, false, true, &worst);
		matmul_case(isa, false, 13, 230, 530, f16, false, false, &worst);
		matmul_case(isa, false, 19, 97, 257, f16, true, true, &worst);
		matmul_case(isa, false, 7, 5, 0, f16, false, true, &worst);	/* K = 0: C = 0 */
		/* one row of A (the row path: no packing) */
		matmul_case(isa, false, 1, 768, 9, f16, false, false, &worst);
		matmul_case(isa, false, 1, 93, 600, f16, false, true, &worst);
		matmul_case(isa, false, 1, 5, 3, f16, false, true, &worst);
		matmul_case(isa, false, 1, 70, 17, f16, true, false, &worst);
	}
	matmul_case(-1, true, 37, 41, 29, f16, false, false, &worst);
	matmul_case(-1, true, 96, 96, 260, f16, true, false, &worst);
	matmul_case(-1, true, 54, 94, 147, f16, false, true, &worst);
	matmul_case(-1, true, 33, 40, 70, f16, true, true, &worst);
	matmul_case(-1, true, 1, 768, 9, f16, false, false, &worst);
	printf("# max relative error (|err| / sum|a*b|) %.3g\n", worst);
}

/* ---- conv ---- */

static void t_conv(bool f16)
{
	for (int t = 0; t < 60; t++) {
		uint32_t cin = rndn(5), cout = rndn(10), kh = 1 + rndn(4), kw = 1 + rndn(4);
		uint32_t sy = 1 + rndn(3), sx = t % 3 ? 1 : 1 + rndn(3);
		uint32_t h = kh + rndn(9), w = kw + (t == 59 ? 2100 + rndn(900) : rndn(30));
		uint32_t oh = (h - kh) / sy + 1, ow = (w - kw) / sx + 1;
		uint32_t nin = cin * h * w, nw = cout * cin * kh * kw, nout = cout * oh * ow;
		size_t es = f16 ? 2 : 4;
		uint8_t dt = f16 ? IPU_DTYPE_F16 : IPU_DTYPE_F32;
		void *in = xalloc(nin * es), *wt = xalloc(nw * es);
		float *out = xalloc(nout * 4), *ref = xalloc(nout * 4);
		float *fin = xalloc(nin * 4), *fw = xalloc(nw * 4);
		uint32_t p[8] = { cin, h, w, cout, kh, kw, sy, sx };

		for (uint32_t i = 0; i < nin; i++) {
			fin[i] = (float)(rndu() * 2 - 1);
			if (f16) {
				((uint16_t *)in)[i] = ipue__f2h(fin[i]);
				fin[i] = ipue__h2f(((uint16_t *)in)[i]);
			} else {
				((float *)in)[i] = fin[i];
			}
		}
		for (uint32_t i = 0; i < nw; i++) {
			fw[i] = (float)(rndu() * 2 - 1);
			if (f16) {
				((uint16_t *)wt)[i] = ipue__f2h(fw[i]);
				fw[i] = ipue__h2f(((uint16_t *)wt)[i]);
			} else {
				((float *)wt)[i] = fw[i];
			}
		}
		for (uint32_t i = 0; i < nout; i++)
			out[i] = ref[i] = (float)(rndu() - 0.5);
		/* reference: documented order, f32 multiply then add */
		for (uint32_t oc = 0; oc < cout; oc++)
			for (uint32_t oy = 0; oy < oh; oy++)
				for (uint32_t ox = 0; ox < ow; ox++) {
					float *o = &ref[((size_t)oc * oh + oy) * ow + ox];
					double exact = *o, mag = fabs(*o);

					for (uint32_t ic = 0; ic < cin; ic++)
						for (uint32_t ky = 0; ky < kh; ky++)
							for (uint32_t kx = 0; kx < kw; kx++) {
								float x = fin[((size_t)ic * h + oy * sy + ky) * w + ox * sx + kx];
								float wv = fw[(((size_t)oc * cin + ic) * kh + ky) * kw + kx];
								float prod = wv * x;

								*o = *o + prod;
								exact += (double)wv * x;
								mag += fabs((double)wv * x);
							}
					EXPECT(fabs(*o - exact) <= (cin * kh * kw + 2) * 0x1p-24 * mag,
					       "conv reference error bound");
				}
		struct ipue_field f[3] = { fld(in, nin, dt), fld(wt, nw, dt), fld(out, nout, IPU_DTYPE_F32) };

		if (!run_ok(IPUE_CODELET_CONV2D, f, 3, p, 8))
			for (uint32_t i = 0; i < nout; i++)
				EXPECT(ulp_diff_f32(out[i], ref[i]) == 0,
				       "conv %u,%u,%u,%u,%u,%u,%u,%u out[%u] = %a want %a",
				       cin, h, w, cout, kh, kw, sy, sx, i, out[i], ref[i]);
		free(in);
		free(wt);
		free(out);
		free(ref);
		free(fin);
		free(fw);
	}
}

static void t_scaled_add(void)
{
	for (int f16 = 0; f16 < 2; f16++) {
		uint8_t dt = f16 ? IPU_DTYPE_F16 : IPU_DTYPE_F32;

		for (unsigned si = 0; si < NSIZES; si++) {
			for (int via_field = 0; via_field < 2; via_field++) {
				uint32_t n = sizes[si];
				size_t bytes = (size_t)n * dsize(dt);
				void *x = xalloc(bytes), *y = xalloc(bytes), *x0 = xalloc(bytes);
				float s = (float)(rndu() * 4 - 2);
				uint32_t sb = ipue__f2u(s);
				uint16_t s16 = ipue__f2h(s);
				struct ipue_field f[3] = { fld(x, n, dt), fld(y, n, dt),
							   f16 ? fld(&s16, 1, IPU_DTYPE_F16) : fld(&s, 1, IPU_DTYPE_F32) };

				fill_random(x, n, dt, 1);
				fill_random(y, n, dt, 1);
				memcpy(x0, x, bytes);
				if (via_field ? run_ok(IPUE_CODELET_SCALED_ADD_S, f, 3, NULL, 0)
					      : run_ok(IPUE_CODELET_SCALED_ADD, f, 2, &sb, 1))
					goto next;
				if (via_field && f16)
					s = ipue__h2f(s16);
				for (uint32_t i = 0; i < n; i++) {
					if (f16) {
						float t = s * ipue__h2f(((uint16_t *)y)[i]);
						uint16_t want = ipue__f2h(ipue__h2f(((uint16_t *)x0)[i]) + t);

						EXPECT(((uint16_t *)x)[i] == want, "f16 scaled add");
					} else {
						float t = s * ((float *)y)[i];
						float want = ((float *)x0)[i] + t;

						EXPECT(ulp_diff_f32(((float *)x)[i], want) == 0, "f32 scaled add");
					}
				}
next:
				free(x);
				free(y);
				free(x0);
			}
		}
	}
}

/* ---- optimizers (0x0Axx) ---- */

/* SgdMomentum on n random elements against the documented double sequence, exactly */
static void sgd_case(uint32_t n, float mu, float lr)
{
	float *w = xalloc(n * 4ull), *g = xalloc(n * 4ull), *v = xalloc(n * 4ull);
	float *w0 = xalloc(n * 4ull), *v0 = xalloc(n * 4ull);
	uint32_t mb = ipue__f2u(mu);
	struct ipue_field f[4] = { fld(w, n, IPU_DTYPE_F32), fld(g, n, IPU_DTYPE_F32),
				   fld(v, n, IPU_DTYPE_F32), fld(&lr, 1, IPU_DTYPE_F32) };

	fill_random(w, n, IPU_DTYPE_F32, 1);
	fill_random(g, n, IPU_DTYPE_F32, 1);
	fill_random(v, n, IPU_DTYPE_F32, 1);
	memcpy(w0, w, n * 4ull);
	memcpy(v0, v, n * 4ull);
	if (!run_ok(IPUE_CODELET_SGD_MOMENTUM, f, 4, &mb, 1)) {
		for (uint32_t i = 0; i < n; i++) {
			float wv = (float)((double)mu * v0[i] + g[i]);
			float ww = (float)(w0[i] - (double)lr * wv);

			EXPECT(ulp_diff_f32(v[i], wv) == 0 && ulp_diff_f32(w[i], ww) == 0,
			       "sgd[%u] of %u: v %a w %a, want %a %a", i, n, v[i], w[i], wv, ww);
			/* and close to the f32 PyTorch sequence (which rounds mu * v first) */
			float pv = mu * v0[i] + g[i];
			double tol = 2 * FLT_EPSILON * (fabs((double)mu * v0[i]) + fabs(g[i])) + 2 * FLT_TRUE_MIN;

			EXPECT(!isfinite(pv) || fabs((double)v[i] - pv) <= tol,
			       "sgd v[%u] %a vs f32 %a", i, v[i], pv);
		}
	}
	free(w);
	free(g);
	free(v);
	free(w0);
	free(v0);
}

/* AdamStep from step t0, then Adam on n elements, each exactly as documented */
static void adam_case(uint32_t n, int32_t t0, float b1, float b2, float eps, float lr)
{
	float *w = xalloc(n * 4ull), *g = xalloc(n * 4ull), *m = xalloc(n * 4ull), *v = xalloc(n * 4ull);
	float *w0 = xalloc(n * 4ull), *m0 = xalloc(n * 4ull), *v0 = xalloc(n * 4ull), k[2];
	int32_t step = t0;
	uint32_t pb[3] = { ipue__f2u(b1), ipue__f2u(b2), ipue__f2u(eps) };
	struct ipue_field fs[3] = { fld(&step, 1, IPU_DTYPE_I32), fld(&lr, 1, IPU_DTYPE_F32),
				    fld(k, 2, IPU_DTYPE_F32) };
	struct ipue_field f[5] = { fld(w, n, IPU_DTYPE_F32), fld(g, n, IPU_DTYPE_F32),
				   fld(m, n, IPU_DTYPE_F32), fld(v, n, IPU_DTYPE_F32),
				   fld(k, 2, IPU_DTYPE_F32) };

	fill_random(w, n, IPU_DTYPE_F32, 1);
	fill_random(g, n, IPU_DTYPE_F32, 1);
	fill_random(m, n, IPU_DTYPE_F32, 1);
	for (uint32_t i = 0; i < n; i++)	/* a second moment is never negative */
		v[i] = (float)(rndu() * 10);
	memcpy(w0, w, n * 4ull);
	memcpy(m0, m, n * 4ull);
	memcpy(v0, v, n * 4ull);
	if (run_ok(IPUE_CODELET_ADAM_STEP, fs, 3, pb, 2))
		goto out;
	{
		double t = step < 1 ? 1 : step;
		float k0 = (float)(lr / (1.0 - pow(b1, t))), k1 = (float)(1.0 / sqrt(1.0 - pow(b2, t)));

		EXPECT((int64_t)step == (int64_t)t0 + 1 || (t0 == INT32_MAX && step == t0),
		       "step %d after %d", step, t0);
		EXPECT(ulp_diff_f32(k[0], k0) == 0 && ulp_diff_f32(k[1], k1) == 0,
		       "AdamStep t %g: k %a %a, want %a %a", t, k[0], k[1], k0, k1);
	}
	if (run_ok(IPUE_CODELET_ADAM, f, 5, pb, 3))
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		double gi = g[i];
		float wm = (float)((double)b1 * m0[i] + (1.0 - b1) * gi);
		float wv = (float)((double)b2 * v0[i] + (1.0 - b2) * (gi * gi));
		float ww = (float)(w0[i] - (double)k[0] * wm / (sqrt((double)wv) * k[1] + eps));
		/* Kingma & Ba's m_hat / (sqrt(v_hat) + eps) in long double, from the same moments */
		long double t = (long double)step, mh = wm / (1.0L - powl(b1, t)),
			    vh = wv / (1.0L - powl(b2, t)),
			    kb = w0[i] - (long double)lr * mh / (sqrtl(vh) + eps);

		EXPECT(ulp_diff_f32(m[i], wm) == 0 && ulp_diff_f32(v[i], wv) == 0 &&
		       ulp_diff_f32(w[i], ww) == 0,
		       "adam[%u] of %u: m %a v %a w %a, want %a %a %a", i, n, m[i], v[i], w[i], wm, wv, ww);
		/* the f32 rounding of k and the eps placement keep w within 4 ulp of the step */
		EXPECT(!isfinite((double)kb) || !isfinite(w0[i]) || fabsl(w[i] - kb) <= 4 * FLT_EPSILON * (fabsl(kb - w0[i]) + fabsl(kb)) + 1e-30L,
		       "adam[%u] w %a, Kingma-Ba %La", i, w[i], kb);
	}
out:
	free(w);
	free(g);
	free(m);
	free(v);
	free(w0);
	free(m0);
	free(v0);
}

static void t_optim(void)
{
	for (unsigned si = 0; si < NSIZES; si++) {
		sgd_case(sizes[si], 0.9f, 0.01f);
		sgd_case(sizes[si], 0.0f, (float)rndu());
		adam_case(sizes[si], 0, 0.9f, 0.999f, 1e-8f, 1e-3f);
		adam_case(sizes[si], (int32_t)rndn(1000), (float)(rndu() * 0.99), (float)rndu(),
			  (float)(rndu() * 1e-3 + 1e-9), (float)rndu());
	}
	sgd_case(100000, 0.5f, 0.1f);
	adam_case(100000, 7, 0.9f, 0.999f, 1e-8f, 1e-3f);
	adam_case(3, -5, 0.9f, 0.999f, 1e-8f, 1e-3f);	/* a host-written count below 0: t = 1 */
	adam_case(3, INT32_MAX, 0.0f, 0.0f, 1e-8f, 1e-3f);	/* saturates */
}

/* ---- nonlinearity gradients ---- */

static const char *const nl_name[IPUE_NL_COUNT_] = { "", "relu", "gelu", "sigmoid", "tanh" };
/* documented ULP bounds of in_grad: f32, and f16 in f16 ulps */
static const uint32_t grad_ulp_f32[IPUE_NL_COUNT_] = {
	[IPUE_NL_GELU] = 1, [IPUE_NL_SIGMOID] = 2, [IPUE_NL_TANH] = 2,
};
static const uint32_t grad_ulp_f16[IPUE_NL_COUNT_] = {
	[IPUE_NL_GELU] = 1, [IPUE_NL_SIGMOID] = 1, [IPUE_NL_TANH] = 1,
};

/* in_grad in double from act (the output; gelu: the input) and out_grad */
static double gref(int t, double a, double g)
{
	switch (t) {
	case IPUE_NL_RELU: return a > 0 ? g : a != a ? a : 0.0;
	case IPUE_NL_SIGMOID: return a * (1 - a) * g;
	case IPUE_NL_TANH: return (1 - a) * (1 + a) * g;
	case IPUE_NL_GELU: return ref_gelu_grad(a) * g;
	default: return 0;
	}
}

/* the forward op of gradient type t */
static int nl_uop(int t)
{
	return t == IPUE_NL_RELU ? IPUE_UOP_RELU : t == IPUE_NL_GELU ? IPUE_UOP_GELU :
	       t == IPUE_NL_SIGMOID ? IPUE_UOP_SIGMOID : IPUE_UOP_TANH;
}

/* a realistic act: the forward output of a random input (gelu: any input), at times a special */
static float rnd_act(int t, int kind)
{
	static const float special[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, NAN };
	float x = rnd_f32(kind);

	if (rndn(16) == 0)
		return special[rndn(sizeof(special) / sizeof(special[0]))];
	if (t == IPUE_NL_GELU || t == IPUE_NL_RELU)
		return x;	/* relu's select is exact for any value */
	return (float)uref(nl_uop(t), x);
}

static void grad_case(int t, uint8_t dt, uint32_t n, int kind, uint32_t *worst)
{
	size_t bytes = (size_t)n * dsize(dt);
	void *g = xalloc(bytes), *a = xalloc(bytes), *out = xalloc(bytes), *x = xalloc(bytes);
	struct ipue_field f[3] = { fld(g, n, dt), fld(a, n, dt), fld(out, n, dt) };
	uint16_t id = IPUE_CODELET_NL_GRAD(t);

	for (uint32_t i = 0; i < n; i++) {
		float av = rnd_act(t, kind), gv = rnd_f32(rndn(4) ? 1 : 0);

		if (dt == IPU_DTYPE_F32) {
			((float *)a)[i] = av;
			((float *)g)[i] = gv;
		} else {
			((uint16_t *)a)[i] = ipue__f2h(av);
			((uint16_t *)g)[i] = rndn(8) ? ipue__f2h(gv) : rnd_f16();
		}
	}
	if (run_ok(id, f, 3, NULL, 0))
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		if (dt == IPU_DTYPE_F32) {
			float av = ((float *)a)[i], gv = ((float *)g)[i], got = ((float *)out)[i];
			float want = (float)gref(t, av, gv);
			uint32_t d = ulp_diff_f32(got, want);

			if (d > *worst)
				*worst = d;
			/* relu's select gives +0; elsewhere a zero's sign is that of an underflow */
			EXPECT(d <= grad_ulp_f32[t] && (t != IPUE_NL_RELU || got != 0 ||
							!!signbit(got) == !!signbit(want)),
			       "f32 %s grad(act %a, out_grad %a) = %a want %a (%u ulp)",
			       nl_name[t], av, gv, got, want, d);
		} else {
			uint16_t av = ((uint16_t *)a)[i], gv = ((uint16_t *)g)[i], got = ((uint16_t *)out)[i];
			uint16_t want = half_round_ref(gref(t, half_decode_ref(av), half_decode_ref(gv)));

			EXPECT(ulp_diff_f16(got, want) <= grad_ulp_f16[t],
			       "f16 %s grad(act 0x%04x, out_grad 0x%04x) = 0x%04x want 0x%04x",
			       nl_name[t], av, gv, got, want);
		}
	}
	/* in_grad exactly over out_grad, then over act: identical bits */
	for (int over = 0; over < 2; over++) {
		memcpy(x, over ? a : g, bytes);
		f[over] = fld(x, n, dt);
		f[2] = fld(x, n, dt);
		if (!run_ok(id, f, 3, NULL, 0))
			EXPECT(same_values(x, out, n, dt), "%s grad in place over %s differs",
			       nl_name[t], over ? "act" : "out_grad");
		f[over] = fld(over ? a : g, n, dt);
	}
out:
	free(g);
	free(a);
	free(out);
	free(x);
}

static void t_grad(uint8_t dt)
{
	uint32_t worst[IPUE_NL_COUNT_] = { 0 };

	for (int t = 1; t < IPUE_NL_COUNT_; t++)
		for (unsigned si = 0; si < NSIZES + 4; si++)
			grad_case(t, dt, si < NSIZES ? sizes[si] : 2000 + rndn(30000), (si & 1) ? 1 : 0,
				  &worst[t]);
	if (dt == IPU_DTYPE_F32) {
		printf("# max f32 ulp:");
		for (int t = 1; t < IPUE_NL_COUNT_; t++)
			printf(" %s=%u", nl_name[t], worst[t]);
		printf("\n");
		/* the references are the derivatives: f'(x) from the output (gelu: the input)
		 * against a central difference of the forward reference, h = 1e-4 */
		for (int t = 1; t < IPUE_NL_COUNT_; t++)
			for (double xv = -8.03; xv < 8; xv += 0.05) {
				double h = 1e-4, op = nl_uop(t);
				double fd = (uref((int)op, xv + h) - uref((int)op, xv - h)) / (2 * h);
				double an = gref(t, t == IPUE_NL_GELU ? xv : uref((int)op, xv), 1.0);

				EXPECT(fabs(fd - an) <= 1e-7, "%s'(%g): reference %.12g, difference %.12g",
				       nl_name[t], xv, an, fd);
			}
	}
	/* f16: every act with random out_grad */
	if (dt == IPU_DTYPE_F16) {
		uint16_t *a = xalloc(65536 * 2), *g = xalloc(65536 * 2), *out = xalloc(65536 * 2);

		for (uint32_t h = 0; h < 65536; h++) {
			a[h] = (uint16_t)h;
			g[h] = rndn(4) ? ipue__f2h((float)((rndu() - 0.5) * 8)) : rnd_f16();
		}
		for (int t = 1; t < IPUE_NL_COUNT_; t++) {
			struct ipue_field f[3] = { fld(g, 65536, dt), fld(a, 65536, dt), fld(out, 65536, dt) };

			if (run_ok(IPUE_CODELET_NL_GRAD(t), f, 3, NULL, 0))
				continue;
			for (uint32_t h = 0; h < 65536; h++) {
				uint16_t want = half_round_ref(gref(t, half_decode_ref(a[h]),
								    half_decode_ref(g[h])));

				EXPECT(ulp_diff_f16(out[h], want) <= grad_ulp_f16[t],
				       "f16 %s grad(act 0x%04x, out_grad 0x%04x) = 0x%04x want 0x%04x",
				       nl_name[t], a[h], g[h], out[h], want);
			}
		}
		free(a);
		free(g);
		free(out);
	}
}

/* ---------------- comparisons, select, argmax ---------------- */

static const char *const cmp_name[] = { "eq", "ne", "lt", "le", "gt", "ge" };

/* the value of element i of p (dtype dt) as a double: exact for all three dtypes */
static double value_at(const void *p, uint32_t i, uint8_t dt)
{
	if (dt == IPU_DTYPE_F32)
		return ((const float *)p)[i];
	if (dt == IPU_DTYPE_F16)
		return half_decode_ref(((const uint16_t *)p)[i]);
	return ((const int32_t *)p)[i];
}

static int cmp_ref(int op, double a, double b)
{
	switch (op) {
	case IPUE_BOP_EQ: return a == b;
	case IPUE_BOP_NE: return a != b;
	case IPUE_BOP_LT: return a < b;
	case IPUE_BOP_LE: return a <= b;
	case IPUE_BOP_GT: return a > b;
	default: return a >= b;
	}
}

/*
 * Every comparison on random sizes (b full or one element), exact against
 * double; ties are frequent (b copies some of a, ±0 mixed in); out aliasing
 * a exactly when a's elements are 4 bytes.
 */
static void t_compare(uint8_t dt)
{
	for (int op = IPUE_BOP_EQ; op < IPUE_BOP_CMP_END_; op++) {
		for (unsigned si = 0; si < 2 * NSIZES + 4; si++) {
			uint32_t n = si < 2 * NSIZES ? sizes[si % NSIZES] : 2000 + rndn(3000);
			uint32_t nb = (si >= NSIZES && si < 2 * NSIZES) ? 1 : n;
			size_t es = dsize(dt);
			void *a = xalloc((size_t)n * es), *b = xalloc((size_t)nb * es), *x = xalloc((size_t)n * 4);
			int32_t *out = xalloc((size_t)n * 4);
			struct ipue_field f[3] = { fld(a, n, dt), fld(b, nb, dt), fld(out, n, IPU_DTYPE_I32) };

			fill_random(a, n, dt, si & 1);
			fill_random(b, nb, dt, si & 1);
			for (uint32_t i = 0; i < nb && nb == n; i++)
				if (rndn(3) == 0)
					memcpy((char *)b + i * es, (char *)a + i * es, es);
			if (dt == IPU_DTYPE_F32 && n > 2 && nb == n) {
				((float *)a)[0] = -0.0f; ((float *)b)[0] = 0.0f;
				((float *)a)[1] = NAN; ((float *)b)[1] = NAN;
			}
			if (run_ok(IPUE_CODELET_BINARY(op), f, 3, NULL, 0))
				goto next;
			for (uint32_t i = 0; i < n; i++) {
				double va = value_at(a, i, dt), vb = value_at(b, nb == 1 ? 0 : i, dt);

				EXPECT(out[i] == cmp_ref(op, va, vb), "%s %s(%g, %g) = %d", ipue__dtype_name(dt),
				       cmp_name[op - IPUE_BOP_EQ], va, vb, out[i]);
			}
			if (es == 4) {	/* out written over a */
				memcpy(x, a, (size_t)n * 4);
				f[0] = fld(x, n, dt);
				f[2] = fld(x, n, IPU_DTYPE_I32);
				if (!run_ok(IPUE_CODELET_BINARY(op), f, 3, NULL, 0))
					EXPECT(same_values(x, out, n, IPU_DTYPE_I32), "%s aliased differs",
					       cmp_name[op - IPUE_BOP_EQ]);
			}
next:
			free(a);
			free(b);
			free(x);
			free(out);
		}
	}
}

/* select of every dtype, b full or broadcast, bit-exact (NaN payloads kept), aliased out */
static void t_select(void)
{
	for (unsigned di = 0; di < 3; di++) {
		uint8_t dt = all_dt[di];
		size_t es = dsize(dt);

		for (unsigned si = 0; si < 2 * NSIZES + 3; si++) {
			uint32_t n = si < 2 * NSIZES ? sizes[si % NSIZES] : 1000 + rndn(5000);
			uint32_t nb = (si >= NSIZES && si < 2 * NSIZES) ? 1 : n;
			int32_t *c = xalloc((size_t)n * 4);
			void *a = xalloc((size_t)n * es), *b = xalloc((size_t)nb * es);
			void *out = xalloc((size_t)n * es), *want = xalloc((size_t)n * es), *x = xalloc((size_t)n * es);
			struct ipue_field f[4] = { fld(c, n, IPU_DTYPE_I32), fld(a, n, dt), fld(b, nb, dt),
						   fld(out, n, dt) };

			for (uint32_t i = 0; i < n; i++)
				c[i] = rndn(3) ? (int32_t)rndn(2) : rnd_i32();
			fill_random(a, n, dt, 0);
			fill_random(b, nb, dt, 0);
			for (uint32_t i = 0; i < n; i++)
				memcpy((char *)want + i * es, c[i] ? (char *)a + i * es : (char *)b + (nb == 1 ? 0 : i) * es, es);
			if (run_ok(IPUE_CODELET_SELECT, f, 4, NULL, 0))
				goto next;
			EXPECT(!n || !memcmp(out, want, (size_t)n * es), "select %s n %u nb %u differs",
			       ipue__dtype_name(dt), n, nb);
			/* out over a, then over a full b */
			memcpy(x, a, (size_t)n * es);
			f[1] = fld(x, n, dt);
			f[3] = fld(x, n, dt);
			if (!run_ok(IPUE_CODELET_SELECT, f, 4, NULL, 0))
				EXPECT(!n || !memcmp(x, want, (size_t)n * es), "select over a differs");
			if (nb == n) {
				memcpy(x, b, (size_t)n * es);
				f[1] = fld(a, n, dt);
				f[2] = fld(x, n, dt);
				if (!run_ok(IPUE_CODELET_SELECT, f, 4, NULL, 0))
					EXPECT(!n || !memcmp(x, want, (size_t)n * es), "select over b differs");
			}
next:
			free(c);
			free(a);
			free(b);
			free(out);
			free(want);
			free(x);
		}
	}
}

/* the reference: first index of the maximum, the first NaN wins (numpy.argmax) */
static int32_t argmax_ref(const void *p, uint32_t base, uint32_t L, uint8_t dt)
{
	int32_t best = 0;
	double bv = value_at(p, base, dt);

	for (uint32_t i = 0; i < L; i++) {
		double v = value_at(p, base + i, dt);

		if (v != v)
			return (int32_t)i;
		if (v > bv) {
			bv = v;
			best = (int32_t)i;
		}
	}
	return best;
}

/* argmax over rows of random lengths (1, odd, long), many ties, NaN and ±0 */
static void t_argmax(void)
{
	for (unsigned di = 0; di < 3; di++) {
		uint8_t dt = all_dt[di];
		size_t es = dsize(dt);

		for (unsigned si = 0; si < NSIZES + 8; si++) {
			uint32_t L = si < NSIZES ? (sizes[si] ? sizes[si] : 1) : 1 + rndn(3000);
			uint32_t R = si % 3 == 0 ? 1 : rndn(9);	/* R = 0: no rows */
			uint32_t n = R * L;
			void *in = xalloc((size_t)n * es);
			int32_t *out = xalloc((size_t)R * 4 + 4);
			struct ipue_field f[2] = { fld(in, n, dt), fld(out, R, IPU_DTYPE_I32) };

			fill_random(in, n, dt, (si & 1) ? 1 : 0);
			if (si & 2)	/* few values: ties everywhere */
				for (uint32_t i = 0; i < n; i++) {
					int32_t v = (int32_t)rndn(4) - 2;

					if (dt == IPU_DTYPE_F32)
						((float *)in)[i] = v ? (float)v : (rndn(2) ? -0.0f : 0.0f);
					else if (dt == IPU_DTYPE_F16)
						((uint16_t *)in)[i] = ipue__f2h(v ? (float)v : (rndn(2) ? -0.0f : 0.0f));
					else
						((int32_t *)in)[i] = v;
				}
			if (run_ok(IPUE_CODELET_ARGMAX, f, 2, &L, 1))
				goto next;
			for (uint32_t r = 0; r < R; r++)
				EXPECT(out[r] == argmax_ref(in, r * L, L, dt), "%s argmax row %u of %u = %d want %d",
				       ipue__dtype_name(dt), r, L, out[r], argmax_ref(in, r * L, L, dt));
next:
			free(in);
			free(out);
		}
	}
	/* the first NaN wins, also over a later +Inf; -0 and +0 tie */
	{
		float x[8] = { 1, -INFINITY, NAN, INFINITY, NAN, 0, 0, 0 }, z[4] = { -0.0f, 0.0f, -0.0f, 0.0f };
		int32_t o[2];
		uint32_t L = 4;
		struct ipue_field f[2] = { fld(x, 8, IPU_DTYPE_F32), fld(o, 2, IPU_DTYPE_I32) };

		if (!run_ok(IPUE_CODELET_ARGMAX, f, 2, &L, 1))
			EXPECT(o[0] == 2 && o[1] == 0, "NaN row: %d, then %d", o[0], o[1]);
		f[0] = fld(z, 4, IPU_DTYPE_F32);
		f[1] = fld(o, 1, IPU_DTYPE_I32);
		if (!run_ok(IPUE_CODELET_ARGMAX, f, 2, &L, 1))
			EXPECT(o[0] == 0, "-0/+0 tie: %d", o[0]);
	}
}

/*
 * ReduceColumns* against a reference that follows the documented order
 * (lane = row % 8): floats bit-exact (f32 out) and within the sum bound,
 * max/min exact, i32 sums wrapping; random geometry with sizes 0, 1, odd.
 */
static void cols_case(uint8_t dt, uint8_t odt, int kind, int acc, uint32_t n, const uint32_t p[4], uint32_t m)
{
	size_t es = dsize(dt), oes = dsize(odt);
	void *in = xalloc((size_t)n * es), *out = xalloc((size_t)m * oes + 4), *out0 = xalloc((size_t)m * oes + 4);
	uint32_t prm[4] = { acc ? IPUE_REDUCE_ACCUMULATE : 0, p[1], p[2], p[3] };
	struct ipue_field f[2] = { fld(in, n, dt), fld(out, m, odt) };

	fill_random(in, n, dt, 1);
	fill_random(out, m, odt, 1);
	memcpy(out0, out, (size_t)m * oes);
	if (run_ok((uint16_t)(IPUE_CODELET_REDUCE_COLS_SUM + kind), f, 2, prm, 4))
		goto done;
	for (uint32_t j = 0; j < m; j++) {
		uint32_t col = p[3] + j;
		float l[8] = { 0 }, init = odt == IPU_DTYPE_F16 ? ipue__h2f(((uint16_t *)out0)[j]) :
					   odt == IPU_DTYPE_F32 ? ((float *)out0)[j] : 0;
		double r = kind == 1 ? -INFINITY : INFINITY, exact = acc ? init : 0, mag = acc ? fabs(init) : 0;
		int64_t ri = acc && dt == IPU_DTYPE_I32 ? ((int32_t *)out0)[j] :
			     kind == 0 ? 0 : kind == 1 ? INT32_MIN : INT32_MAX;

		if (acc && kind)
			r = init;
		for (uint64_t i = (col + (uint64_t)p[1] - p[2]) % p[1]; i < n; i += p[1]) {
			uint64_t row = (p[2] + i) / p[1];
			double v;

			if (dt == IPU_DTYPE_I32) {
				int32_t x = ((int32_t *)in)[i];

				ri = kind == 0 ? wrap(ri + x) : kind == 1 ? (x > ri ? x : ri) : (x < ri ? x : ri);
				continue;
			}
			v = dt == IPU_DTYPE_F16 ? ipue__h2f(((uint16_t *)in)[i]) : ((float *)in)[i];
			l[row % 8] += (float)v;
			exact += v;
			mag += fabs(v);
			r = kind ? bref(kind == 1 ? IPUE_BOP_MAX : IPUE_BOP_MIN, r, v) : r;
		}
		if (dt == IPU_DTYPE_I32) {
			EXPECT(((int32_t *)out)[j] == wrap(ri), "i32 cols %d C=%u col %u: %d want %d", kind, p[1], col,
			       ((int32_t *)out)[j], wrap(ri));
			continue;
		}
		float want = kind ? (float)r : ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));

		if (!kind && acc)
			want = init + want;
		if (odt == IPU_DTYPE_F16) {
			EXPECT(((uint16_t *)out)[j] == ipue__f2h(want), "f16-out cols %d col %u", kind, col);
			continue;
		}
		EXPECT(ulp_diff_f32(((float *)out)[j], want) == 0, "cols %d dt %u C=%u c0=%u col %u n=%u: %a want %a",
		       kind, dt, p[1], p[2], col, n, ((float *)out)[j], want);
		if (!kind && mag < 1e30)
			EXPECT(fabs(((float *)out)[j] - exact) <= ((double)n / p[1] / 8.0 + 5) * 0x1p-24 * mag,
			       "cols sum bound col %u", col);
	}
done:
	free(in);
	free(out);
	free(out0);
}

static void t_reduce_cols(void)
{
	static const uint32_t cs[] = { 1, 2, 3, 7, 8, 9, 255, 256, 257, 600 };

	for (unsigned di = 0; di < 3; di++)
		for (unsigned ci = 0; ci < sizeof(cs) / sizeof(cs[0]); ci++)
			for (int k = 0; k < 6; k++) {
				uint8_t dt = all_dt[di], odt = dt == IPU_DTYPE_F16 && k != 5 ? IPU_DTYPE_F32 : dt;
				uint32_t C = cs[ci], p[4] = { 0, C, rndn(C), rndn(C + 1) };
				uint32_t n = k == 0 ? 0 : k == 1 ? 1 : rndn(C * 40 + 3), m = rndn(C - p[3] + 1);

				if (k == 4)
					m = C - p[3];
				for (int kind = 0; kind < 3; kind++)
					for (int acc = 0; acc < 2; acc++)
						cols_case(dt, odt, kind, acc, n, p, m);
			}
	/* NaN and signed zero in one column, +Inf in the other */
	{
		float x[6] = { -0.0f, INFINITY, 0.0f, 1, NAN, 2 }, o[2];
		uint32_t p[4] = { 0, 2, 0, 0 };
		struct ipue_field f[2] = { fld(x, 6, IPU_DTYPE_F32), fld(o, 2, IPU_DTYPE_F32) };

		if (!run_ok(IPUE_CODELET_REDUCE_COLS_MAX, f, 2, p, 4))
			EXPECT(o[0] != o[0] && o[1] == INFINITY, "cols max NaN/Inf: %g %g", o[0], o[1]);
		x[4] = -0.0f;
		if (!run_ok(IPUE_CODELET_REDUCE_COLS_MIN, f, 2, p, 4))
			EXPECT(o[0] == 0 && signbit(o[0]) && o[1] == 1, "cols min -0: %g %g", o[0], o[1]);
	}
}

/* Rejected fields of the loader, unary, binary, cast, fill and copy. */
static void t_negative_elementwise(char *buf)
{
	void *p = buf, *q = buf + 1024, *r = buf + 2048;
	uint32_t fl0 = 0, big = 0x10000;
	const uint8_t F32 = IPU_DTYPE_F32, F16 = IPU_DTYPE_F16, I32 = IPU_DTYPE_I32;

	/* loader-level */
	{
		struct ipue_field f[3] = { fld(p, 4, F32), fld(q, 4, F32), fld(r, 4, F32) };

		run_bad(IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 3, NULL, 0, "too many fields");
		run_bad(IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2, &fl0, 1, "too many params");
		f[1].dtype = 7;
		run_bad(IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2, NULL, 0, "unknown dtype");
		f[0].dtype = f[1].dtype = I32;
		run_bad(IPUE_CODELET_UNARY(IPUE_UOP_EXP), f, 2, NULL, 0, "i32 exp");
	}
	/* unary */
	{
		struct ipue_field f[2] = { fld(p, 4, F32), fld(q, 4, F16) };

		run_bad(IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2, NULL, 0, "dtype mismatch");
		f[1] = fld(q, 5, F32);
		run_bad(IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2, NULL, 0, "count mismatch");
		f[1] = fld(buf + 4, 4, F32);
		run_bad(IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2, NULL, 0, "partial overlap");
		f[1] = fld(buf + 1026, 4, F32);
		run_bad(IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2, NULL, 0, "misaligned");
		f[1] = fld(NULL, 4, F32);
		run_bad(IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2, NULL, 0, "NULL");
		f[0] = fld(buf + 2, 4, F32);
		run_bad(IPUE_CODELET_UNARY_INPLACE(IPUE_UOP_ABS), f, 1, NULL, 0, "misaligned in place");
		f[0] = fld(buf + 2, 4, F16);
		f[1] = fld(buf, 4, F16);
		run_bad(IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2, NULL, 0, "f16 partial overlap");
	}
	/* binary */
	{
		struct ipue_field f[3] = { fld(p, 8, F32), fld(q, 3, F32), fld(r, 8, F32) };

		run_bad(IPUE_CODELET_BINARY(IPUE_BOP_ADD), f, 3, NULL, 0, "b count");
		f[1] = fld(q, 8, I32);
		run_bad(IPUE_CODELET_BINARY(IPUE_BOP_ADD), f, 3, NULL, 0, "b dtype");
		f[1] = fld(q, 8, F32);
		f[2] = fld(r, 9, F32);
		run_bad(IPUE_CODELET_BINARY(IPUE_BOP_ADD), f, 3, NULL, 0, "out count");
		f[2] = fld(q, 1, F32);
		f[1] = fld(q, 1, F32);
		f[0] = fld(p, 1, F32);
		f[2] = fld(q, 1, F32);
		/* out == b exactly with equal count is fine */
		{
			char m[64];
			EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_BINARY(IPUE_BOP_ADD)),
						      f, 3, NULL, 0, m, sizeof(m)), "out == b rejected: %s", m);
		}
		f[0] = fld(p, 8, F32);
		f[2] = fld(q, 8, F32);
		run_bad(IPUE_CODELET_BINARY(IPUE_BOP_ADD), f, 3, NULL, 0, "out over broadcast b");
		f[1] = fld(buf + 8, 8, F32);
		run_bad(IPUE_CODELET_BINARY_INPLACE(IPUE_BOP_MUL), f, 2, NULL, 0, "b overlaps a");
	}
	/* cast, fill, copy */
	{
		struct ipue_field f[2] = { fld(p, 4, F32), fld(q, 5, F16) };

		run_bad(IPUE_CODELET_CAST, f, 2, NULL, 0, "cast count");
		f[1] = fld(buf + 8, 4, F16);
		run_bad(IPUE_CODELET_CAST, f, 2, NULL, 0, "cast overlap");
		f[1] = fld(p, 4, F16);
		run_bad(IPUE_CODELET_CAST, f, 2, NULL, 0, "cast in place f32->f16");
		f[0] = fld(q, 4, F16);
		run_bad(IPUE_CODELET_FILL, f, 1, &big, 1, "f16 fill bits");
		f[1] = fld(r, 4, F32);
		run_bad(IPUE_CODELET_COPY, f, 2, NULL, 0, "copy dtype");
		f[1] = fld(r, 3, F16);
		run_bad(IPUE_CODELET_COPY, f, 2, NULL, 0, "copy count");
	}
}

/* Rejected fields and params of reductions, matmul and conv. */
static void t_negative_reduce_matmul_conv(char *buf)
{
	void *p = buf, *q = buf + 1024, *r = buf + 2048;
	uint32_t fl0 = 0, fl2 = 2;
	const uint8_t F32 = IPU_DTYPE_F32, F16 = IPU_DTYPE_F16, I32 = IPU_DTYPE_I32;

	/* reductions */
	{
		struct ipue_field f[2] = { fld(p, 4, F32), fld(q, 2, F32) };

		run_bad(IPUE_CODELET_REDUCE_SUM, f, 2, &fl0, 1, "out not scalar");
		f[1] = fld(q, 1, F16);
		run_bad(IPUE_CODELET_REDUCE_SUM, f, 2, &fl0, 1, "f32 -> f16");
		f[1] = fld(q, 1, F32);
		run_bad(IPUE_CODELET_REDUCE_MAX, f, 2, &fl2, 1, "flags");
		f[1] = fld(buf + 8, 1, F32);
		run_bad(IPUE_CODELET_REDUCE_MIN, f, 2, &fl0, 1, "out overlaps in");
		f[0] = fld(p, 4, I32);
		f[1] = fld(q, 1, F32);
		run_bad(IPUE_CODELET_REDUCE_SUM, f, 2, &fl0, 1, "i32 -> f32");
	}
	/* matmul */
	{
		uint32_t pm[4] = { 2, 3, 4, 0 };
		struct ipue_field f[3] = { fld(p, 8, F32), fld(q, 12, F32), fld(r, 6, F32) };
		char m[64];

		EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_MATMUL), f, 3, pm, 4,
					      m, sizeof(m)), "valid matmul rejected: %s", m);
		f[0].count = 7;
		run_bad(IPUE_CODELET_MATMUL, f, 3, pm, 4, "A count");
		f[0].count = 8;
		f[1].count = 11;
		run_bad(IPUE_CODELET_MATMUL, f, 3, pm, 4, "B count");
		f[1].count = 12;
		f[2].count = 7;
		run_bad(IPUE_CODELET_MATMUL, f, 3, pm, 4, "C count");
		f[2] = fld(r, 6, F16);
		run_bad(IPUE_CODELET_MATMUL, f, 3, pm, 4, "C f16");
		f[2] = fld(r, 6, F32);
		f[1].dtype = F16;
		run_bad(IPUE_CODELET_MATMUL, f, 3, pm, 4, "A/B dtype mix");
		f[1].dtype = F32;
		pm[3] = 4;
		run_bad(IPUE_CODELET_MATMUL, f, 3, pm, 4, "flags");
		pm[3] = 0x80000000u;
		run_bad(IPUE_CODELET_MATMUL, f, 3, pm, 4, "flags (high bit)");
		pm[3] = IPUE_MATMUL_B_TRANSPOSED | IPUE_MATMUL_OVERWRITE;
		EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_MATMUL), f, 3, pm, 4,
					      m, sizeof(m)), "matmul with both flags rejected: %s", m);
		pm[3] = 0;
		f[2] = fld(buf + 16, 6, F32);
		run_bad(IPUE_CODELET_MATMUL, f, 3, pm, 4, "C overlaps A");
		pm[0] = 0x10000;
		pm[1] = 0x10000;
		f[2] = fld(r, 0, F32);
		run_bad(IPUE_CODELET_MATMUL, f, 3, pm, 4, "M*N overflows 32 bits");
	}
	/* conv */
	{
		uint32_t pc[8] = { 1, 4, 4, 2, 3, 3, 1, 1 };	/* out 2x2x2 */
		struct ipue_field f[3] = { fld(p, 16, F32), fld(q, 18, F32), fld(r, 8, F32) };
		char m[64];

		EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_CONV2D), f, 3, pc, 8,
					      m, sizeof(m)), "valid conv rejected: %s", m);
		pc[6] = 0;
		run_bad(IPUE_CODELET_CONV2D, f, 3, pc, 8, "stride 0");
		pc[6] = 1;
		pc[4] = 5;
		run_bad(IPUE_CODELET_CONV2D, f, 3, pc, 8, "kernel taller than input");
		pc[4] = 3;
		f[2].count = 9;
		run_bad(IPUE_CODELET_CONV2D, f, 3, pc, 8, "out count");
		f[2].count = 8;
		f[1].count = 17;
		run_bad(IPUE_CODELET_CONV2D, f, 3, pc, 8, "w count");
		f[1].count = 18;
		f[2] = fld(buf + 1040, 8, F32);
		run_bad(IPUE_CODELET_CONV2D, f, 3, pc, 8, "out overlaps w");
		f[2] = fld(r, 8, F32);
		f[0].dtype = F16;
		run_bad(IPUE_CODELET_CONV2D, f, 3, pc, 8, "in/w dtype mix");
		f[0].dtype = F32;
		/* 2^32 * 2^32 * 16 wraps to 0 in 64 bits: must not match empty fields */
		{
			uint32_t po[8] = { 0x80000000u, 0x80000000u, 16, 0x80000000u, 1, 1, 1, 1 };
			struct ipue_field e[3] = { fld(p, 0, F32), fld(q, 0, F32), fld(r, 0, F32) };

			run_bad(IPUE_CODELET_CONV2D, e, 3, po, 8, "dims overflow 64 bits");
		}
	}
}

/* Rejected fields of scaled add and the nonlinearity gradients. */
static void t_negative_scaled_add_nl_grad(char *buf)
{
	void *p = buf, *q = buf + 1024, *r = buf + 2048;
	const uint8_t F32 = IPU_DTYPE_F32, F16 = IPU_DTYPE_F16, I32 = IPU_DTYPE_I32;

	/* scaled add */
	{
		uint32_t sb = 0x3f800000;
		struct ipue_field f[3] = { fld(p, 4, F32), fld(q, 5, F32), fld(r, 1, F32) };

		run_bad(IPUE_CODELET_SCALED_ADD, f, 2, &sb, 1, "count");
		f[1] = fld(q, 4, F16);
		run_bad(IPUE_CODELET_SCALED_ADD, f, 2, &sb, 1, "dtype");
		f[1] = fld(q, 4, F32);
		f[2] = fld(r, 2, F32);
		run_bad(IPUE_CODELET_SCALED_ADD_S, f, 3, NULL, 0, "s not scalar");
		f[2] = fld(buf + 4, 1, F32);
		run_bad(IPUE_CODELET_SCALED_ADD_S, f, 3, NULL, 0, "s inside x");
	}
	/* nonlinearity gradients: out_grad, act, in_grad */
	{
		uint16_t id = IPUE_CODELET_NL_GRAD(IPUE_NL_TANH);
		struct ipue_field f[3] = { fld(p, 8, F32), fld(q, 8, F32), fld(r, 8, F32) };
		char m[64];

		EXPECT(!ipue_codelet_validate(ipue_codelet_find(id), f, 3, NULL, 0, m, sizeof(m)),
		       "valid tanh grad rejected: %s", m);
		run_bad(id, f, 2, NULL, 0, "two fields");
		f[1] = fld(q, 8, F16);
		run_bad(id, f, 3, NULL, 0, "act f16, out_grad f32");
		f[1] = fld(q, 8, F32);
		f[2] = fld(r, 8, F16);
		run_bad(IPUE_CODELET_NL_GRAD(IPUE_NL_GELU), f, 3, NULL, 0, "in_grad f16");
		f[0] = fld(p, 8, I32);
		f[1] = fld(q, 8, I32);
		f[2] = fld(r, 8, I32);
		run_bad(IPUE_CODELET_NL_GRAD(IPUE_NL_RELU), f, 3, NULL, 0, "i32");
		f[0] = fld(p, 8, F32);
		f[1] = fld(q, 7, F32);
		f[2] = fld(r, 8, F32);
		run_bad(IPUE_CODELET_NL_GRAD(IPUE_NL_SIGMOID), f, 3, NULL, 0, "act count");
		f[1] = fld(q, 8, F32);
		f[2] = fld(r, 9, F32);
		run_bad(id, f, 3, NULL, 0, "in_grad count");
		f[2] = fld(buf + 4, 8, F32);
		run_bad(id, f, 3, NULL, 0, "in_grad partially over out_grad");
		f[2] = fld(buf + 1028, 8, F32);
		run_bad(id, f, 3, NULL, 0, "in_grad partially over act");
		f[2] = fld(buf + 2, 8, F32);
		run_bad(id, f, 3, NULL, 0, "in_grad misaligned");
		f[0] = fld(p, 4, F16);
		f[1] = fld(q, 4, F16);
		f[2] = fld(p, 2, F32);
		run_bad(id, f, 3, NULL, 0, "in_grad f32 over f16 out_grad");
		f[2] = fld(q, 4, F16);	/* exactly over act: fine */
		EXPECT(!ipue_codelet_validate(ipue_codelet_find(id), f, 3, NULL, 0, m, sizeof(m)),
		       "in_grad == act rejected: %s", m);
		f[1] = fld(p, 4, F16);	/* act == out_grad == in_grad: fine */
		f[2] = fld(p, 4, F16);
		EXPECT(!ipue_codelet_validate(ipue_codelet_find(id), f, 3, NULL, 0, m, sizeof(m)),
		       "all three aliased rejected: %s", m);
	}
}

/* Rejected fields and params of comparisons, select and argmax. */
static void t_negative_compare_select_argmax(char *buf)
{
	void *p = buf, *q = buf + 1024, *r = buf + 2048;
	uint32_t big = 0x10000;
	const uint8_t F32 = IPU_DTYPE_F32, F16 = IPU_DTYPE_F16, I32 = IPU_DTYPE_I32;

	/* comparisons, select, argmax */
	{
		uint16_t eq = IPUE_CODELET_BINARY(IPUE_BOP_EQ), lt = IPUE_CODELET_BINARY(IPUE_BOP_LT);
		uint32_t L4 = 4, L0 = 0;
		struct ipue_field f[4] = { fld(p, 4, F32), fld(q, 4, F32), fld(r, 4, I32), fld(r, 4, F32) };
		char m[96];

		EXPECT(!ipue_codelet_validate(ipue_codelet_find(eq), f, 3, NULL, 0, m, sizeof(m)),
		       "valid compare rejected: %s", m);
		f[2] = fld(r, 4, F32);
		run_bad(eq, f, 3, NULL, 0, "compare out f32");
		f[2] = fld(r, 4, I32);
		f[1] = fld(q, 4, I32);
		run_bad(lt, f, 3, NULL, 0, "compare a/b dtypes differ");
		f[1] = fld(q, 3, F32);
		run_bad(lt, f, 3, NULL, 0, "compare b count");
		f[1] = fld(q, 4, F32);
		f[2] = fld(r, 3, I32);
		run_bad(lt, f, 3, NULL, 0, "compare out count");
		f[2] = fld(buf + 4, 4, I32);
		run_bad(lt, f, 3, NULL, 0, "compare out overlaps a partly");
		f[0] = fld(p, 4, F16);
		f[1] = fld(q, 4, F16);
		f[2] = fld(p, 4, I32);
		run_bad(lt, f, 3, NULL, 0, "compare i32 out over f16 a");
		/* select: cond, a, b, out */
		f[0] = fld(r, 4, I32);
		f[1] = fld(p, 4, F32);
		f[2] = fld(q, 4, F32);
		f[3] = fld(buf + 3072, 4, F32);
		EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_SELECT), f, 4, NULL, 0, m, sizeof(m)),
		       "valid select rejected: %s", m);
		f[0] = fld(r, 4, F32);
		run_bad(IPUE_CODELET_SELECT, f, 4, NULL, 0, "select cond f32");
		f[0] = fld(r, 3, I32);
		run_bad(IPUE_CODELET_SELECT, f, 4, NULL, 0, "select cond count");
		f[0] = fld(r, 4, I32);
		f[2] = fld(q, 4, F16);
		run_bad(IPUE_CODELET_SELECT, f, 4, NULL, 0, "select a/b dtypes");
		f[2] = fld(q, 2, F32);
		run_bad(IPUE_CODELET_SELECT, f, 4, NULL, 0, "select b count");
		f[2] = fld(q, 4, F32);
		f[3] = fld(buf + 8, 4, F32);
		run_bad(IPUE_CODELET_SELECT, f, 4, NULL, 0, "select out overlaps a partly");
		f[3] = fld(q, 4, F32);
		f[2] = fld(q, 1, F32);
		run_bad(IPUE_CODELET_SELECT, f, 4, NULL, 0, "select out over a one-element b");
		f[2] = fld(buf + 1040, 4, F32);
		f[3] = fld(r, 4, F16);
		run_bad(IPUE_CODELET_SELECT, f, 4, NULL, 0, "select out dtype");
		/* argmax: in, out(i32); params[0] = L */
		f[0] = fld(p, 8, F32);
		f[1] = fld(q, 2, I32);
		EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_ARGMAX), f, 2, &L4, 1, m, sizeof(m)),
		       "valid argmax rejected: %s", m);
		run_bad(IPUE_CODELET_ARGMAX, f, 2, &L0, 1, "argmax row length 0");
		f[1] = fld(q, 3, I32);
		run_bad(IPUE_CODELET_ARGMAX, f, 2, &L4, 1, "argmax count");
		f[1] = fld(q, 2, F32);
		run_bad(IPUE_CODELET_ARGMAX, f, 2, &L4, 1, "argmax out f32");
		f[1] = fld(buf + 16, 2, I32);
		run_bad(IPUE_CODELET_ARGMAX, f, 2, &L4, 1, "argmax out overlaps in");
		f[1] = fld(q, 2, I32);
		run_bad(IPUE_CODELET_ARGMAX, f, 2, NULL, 0, "argmax without its param");
		f[1] = fld(q, 0x10000, I32);
		f[0] = fld(p, 0, F32);
		run_bad(IPUE_CODELET_ARGMAX, f, 2, &big, 1, "argmax rows x L wraps 32 bits");
	}
}

/* Rejected fields and parameters of the optimizers (0x0Axx). */
static void t_negative_optim(char *buf)
{
	void *p = buf, *q = buf + 1024, *r = buf + 2048;
	const uint8_t F32 = IPU_DTYPE_F32, F16 = IPU_DTYPE_F16;

	/* optimizers: w, g, v, lr / step, lr, k / w, g, m, v, k */
	{
		uint32_t mu = ipue__f2u(0.9f), pb[3] = { ipue__f2u(0.9f), ipue__f2u(0.999f),
							  ipue__f2u(1e-8f) };
		int32_t step = 0;
		struct ipue_field s4[4] = { fld(p, 8, F32), fld(q, 8, F32), fld(r, 8, F32), fld(buf + 3000, 1, F32) };
		struct ipue_field st[3] = { fld(&step, 1, IPU_DTYPE_I32), fld(buf + 3000, 1, F32),
					    fld(buf + 3008, 2, F32) };
		struct ipue_field a5[5] = { fld(p, 8, F32), fld(q, 8, F32), fld(r, 8, F32),
					    fld(buf + 3072, 8, F32), fld(buf + 3008, 2, F32) };
		uint32_t bad = ipue__f2u(1.0f), nan = 0x7fc00000u, neg = ipue__f2u(-0.5f);
		char m[96];

		EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_SGD_MOMENTUM), s4, 4, &mu, 1,
					      m, sizeof(m)), "valid sgd rejected: %s", m);
		EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_ADAM_STEP), st, 3, pb, 2,
					      m, sizeof(m)), "valid adam step rejected: %s", m);
		EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_ADAM), a5, 5, pb, 3,
					      m, sizeof(m)), "valid adam rejected: %s", m);
		run_bad(IPUE_CODELET_SGD_MOMENTUM, s4, 4, &bad, 1, "momentum 1");
		run_bad(IPUE_CODELET_SGD_MOMENTUM, s4, 4, &nan, 1, "momentum NaN");
		run_bad(IPUE_CODELET_SGD_MOMENTUM, s4, 4, &neg, 1, "momentum < 0");
		run_bad(IPUE_CODELET_SGD_MOMENTUM, s4, 3, &mu, 1, "three fields");
		s4[1] = fld(q, 7, F32);
		run_bad(IPUE_CODELET_SGD_MOMENTUM, s4, 4, &mu, 1, "g count");
		s4[1] = fld(q, 8, F16);
		run_bad(IPUE_CODELET_SGD_MOMENTUM, s4, 4, &mu, 1, "g f16");
		s4[1] = fld(q, 8, F32);
		s4[2] = fld(buf + 4, 8, F32);
		run_bad(IPUE_CODELET_SGD_MOMENTUM, s4, 4, &mu, 1, "v overlaps w");
		s4[2] = fld(r, 8, F32);
		s4[3] = fld(p, 1, F32);
		run_bad(IPUE_CODELET_SGD_MOMENTUM, s4, 4, &mu, 1, "lr inside w");
		s4[3] = fld(buf + 3000, 2, F32);
		run_bad(IPUE_CODELET_SGD_MOMENTUM, s4, 4, &mu, 1, "lr not scalar");

		st[0] = fld(buf + 3000, 1, F32);
		run_bad(IPUE_CODELET_ADAM_STEP, st, 3, pb, 2, "step f32");
		st[0] = fld(&step, 1, IPU_DTYPE_I32);
		st[2] = fld(buf + 3008, 3, F32);
		run_bad(IPUE_CODELET_ADAM_STEP, st, 3, pb, 2, "k of 3");
		st[2] = fld(buf + 3000, 2, F32);
		run_bad(IPUE_CODELET_ADAM_STEP, st, 3, pb, 2, "k over lr");
		st[2] = fld(buf + 3008, 2, F32);
		run_bad(IPUE_CODELET_ADAM_STEP, st, 3, (uint32_t[]){ bad, pb[1] }, 2, "beta1 1");
		run_bad(IPUE_CODELET_ADAM_STEP, st, 3, (uint32_t[]){ pb[0], neg }, 2, "beta2 < 0");

		run_bad(IPUE_CODELET_ADAM, a5, 5, (uint32_t[]){ pb[0], pb[1], 0 }, 3, "eps 0");
		run_bad(IPUE_CODELET_ADAM, a5, 5, (uint32_t[]){ pb[0], pb[1], 0x7f800000u }, 3, "eps inf");
		run_bad(IPUE_CODELET_ADAM, a5, 5, (uint32_t[]){ pb[0], nan, pb[2] }, 3, "beta2 NaN");
		run_bad(IPUE_CODELET_ADAM, a5, 5, (uint32_t[]){ bad, pb[1], pb[2] }, 3, "beta1 1");
		a5[3] = fld(r, 8, F32);
		run_bad(IPUE_CODELET_ADAM, a5, 5, pb, 3, "v is m");
		a5[3] = fld(buf + 3072, 9, F32);
		run_bad(IPUE_CODELET_ADAM, a5, 5, pb, 3, "v count");
		a5[3] = fld(buf + 3072, 8, F32);
		a5[4] = fld(buf + 3008, 1, F32);
		run_bad(IPUE_CODELET_ADAM, a5, 5, pb, 3, "k of 1");
		a5[4] = fld(buf + 3076, 2, F32);
		run_bad(IPUE_CODELET_ADAM, a5, 5, pb, 3, "k inside v");
		a5[4] = fld(buf + 3008, 2, F32);
		a5[0] = fld(p, 8, F16);
		run_bad(IPUE_CODELET_ADAM, a5, 5, pb, 3, "w f16");
	}
}

/* Rejected fields and parameters of ReduceColumns*. */
static void t_negative_reduce_cols(char *buf)
{
	void *p = buf, *q = buf + 1024;
	const uint8_t F32 = IPU_DTYPE_F32, I32 = IPU_DTYPE_I32;
	struct ipue_field f[2];
	char m[96];

	/* reduce columns: in, out; flags, C, first column, first out column */
	{
		uint32_t cp[4] = { 0, 4, 1, 2 };

		f[0] = fld(p, 8, F32);
		f[1] = fld(q, 2, F32);
		EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_REDUCE_COLS_SUM), f, 2, cp, 4, m,
					      sizeof(m)), "valid cols rejected: %s", m);
		f[1] = fld(q, 3, F32);
		run_bad(IPUE_CODELET_REDUCE_COLS_SUM, f, 2, cp, 4, "cols out past the row");
		f[1] = fld(q, 2, I32);
		run_bad(IPUE_CODELET_REDUCE_COLS_MAX, f, 2, cp, 4, "cols out dtype");
		f[1] = fld(buf + 16, 2, F32);
		run_bad(IPUE_CODELET_REDUCE_COLS_MIN, f, 2, cp, 4, "cols out overlaps in");
		f[1] = fld(q, 2, F32);
		run_bad(IPUE_CODELET_REDUCE_COLS_SUM, f, 2, cp, 1, "cols without its params");
		cp[1] = 0;
		run_bad(IPUE_CODELET_REDUCE_COLS_SUM, f, 2, cp, 4, "cols row length 0");
		cp[1] = 4;
		cp[2] = 4;
		run_bad(IPUE_CODELET_REDUCE_COLS_SUM, f, 2, cp, 4, "cols first column past the row");
		cp[2] = 0;
		cp[0] = 2;
		run_bad(IPUE_CODELET_REDUCE_COLS_SUM, f, 2, cp, 4, "cols unknown flag");
	}
}

#include "window_tests.h"

/* ---------------- transpose ---------------- */

/* every dtype, shapes with 1, odd and block-straddling sides, against an index reference */
static void t_transpose(void)
{
	static const uint32_t side[] = { 1, 2, 3, 15, 16, 17, 33, 100 };
	const unsigned ns = sizeof(side) / sizeof(side[0]);

	for (unsigned di = 0; di < 3; di++) {
		uint8_t dt = all_dt[di];
		size_t es = dsize(dt);

		for (unsigned i = 0; i < ns * ns; i++) {
			uint32_t p[2] = { side[i / ns], side[i % ns] }, n = p[0] * p[1];
			char *in = xalloc((size_t)n * es), *out = xalloc((size_t)n * es);
			char *want = xalloc((size_t)n * es);
			struct ipue_field f[2] = { fld(in, n, dt), fld(out, n, dt) };

			fill_random(in, n, dt, 0);
			for (uint32_t r = 0; r < p[0]; r++)
				for (uint32_t c = 0; c < p[1]; c++)
					memcpy(want + ((size_t)c * p[0] + r) * es, in + ((size_t)r * p[1] + c) * es, es);
			if (!run_ok(IPUE_CODELET_TRANSPOSE, f, 2, p, 2))
				EXPECT(!memcmp(out, want, (size_t)n * es), "transpose %s %ux%u differs",
				       ipue__dtype_name(dt), p[0], p[1]);
			free(in);
			free(out);
			free(want);
		}
	}
}

/* Rejected fields and params of Transpose. */
static void t_negative_transpose(char *buf)
{
	const uint8_t F32 = IPU_DTYPE_F32, F16 = IPU_DTYPE_F16;
	struct ipue_field f[2] = { fld(buf, 6, F32), fld(buf + 1024, 6, F32) };
	uint32_t p[2] = { 2, 3 };
	char m[96];

	EXPECT(!ipue_codelet_validate(ipue_codelet_find(IPUE_CODELET_TRANSPOSE), f, 2, p, 2, m, sizeof(m)),
	       "valid transpose rejected: %s", m);
	run_bad(IPUE_CODELET_TRANSPOSE, f, 2, p, 1, "transpose without C");
	p[0] = 0;
	run_bad(IPUE_CODELET_TRANSPOSE, f, 2, p, 2, "transpose R 0");
	p[0] = 3;
	p[1] = 3;
	run_bad(IPUE_CODELET_TRANSPOSE, f, 2, p, 2, "transpose R x C != count");
	p[1] = 2;
	f[1] = fld(buf + 1024, 5, F32);
	run_bad(IPUE_CODELET_TRANSPOSE, f, 2, p, 2, "transpose out count");
	f[1] = fld(buf + 1024, 6, F16);
	run_bad(IPUE_CODELET_TRANSPOSE, f, 2, p, 2, "transpose out dtype");
	f[1] = fld(buf + 8, 6, F32);
	run_bad(IPUE_CODELET_TRANSPOSE, f, 2, p, 2, "transpose out overlaps in");
	f[1] = fld(buf, 6, F32);
	run_bad(IPUE_CODELET_TRANSPOSE, f, 2, p, 2, "transpose in place");
}

static void t_check_negative(void)
{
	_Alignas(16) char buf[4096];

	t_negative_elementwise(buf);
	t_negative_reduce_matmul_conv(buf);
	t_negative_scaled_add_nl_grad(buf);
	t_negative_optim(buf);
	t_negative_compare_select_argmax(buf);
	t_negative_reduce_cols(buf);
	t_negative_window(buf);
	t_negative_transpose(buf);
}

static void t_cycles(void)
{
	static float a[4], b[4], c[4];
	uint32_t pm[4] = { 256, 256, 256, 0 };
	struct ipue_field f[3] = { fld(a, 256 * 256, IPU_DTYPE_F32), fld(b, 256 * 256, IPU_DTYPE_F32),
				   fld(c, 256 * 256, IPU_DTYPE_F32) };
	const struct ipue_codelet *mm = ipue_codelet_find(IPUE_CODELET_MATMUL);

	/* cycles() only looks at counts/dtypes/params, never at the data */
	EXPECT(mm->cycles(f, pm) == 50 + 256 * 256 * 256 / 16 + 256 * 256 / 2, "matmul f32 cycles %" PRIu64,
	       mm->cycles(f, pm));
	f[0].dtype = f[1].dtype = IPU_DTYPE_F16;
	EXPECT(mm->cycles(f, pm) == 50 + 256 * 256 * 256 / 64 + 256 * 256 / 2, "matmul f16 cycles");
	struct ipue_field g[2] = { fld(a, 1000, IPU_DTYPE_F32), fld(b, 1000, IPU_DTYPE_F32) };
	const struct ipue_codelet *add = ipue_codelet_find(IPUE_CODELET_BINARY(IPUE_BOP_ADD));

	EXPECT(add->cycles(g, NULL) == 50 + 500, "add f32 cycles %" PRIu64, add->cycles(g, NULL));
	g[0].dtype = IPU_DTYPE_F16;
	EXPECT(add->cycles(g, NULL) == 50 + 250, "add f16 cycles");
	EXPECT(ipue_codelet_find(IPUE_CODELET_BINARY(IPUE_BOP_LT))->cycles(g, NULL) == 50 + 250,
	       "lt f16 cycles");
	{
		struct ipue_field s4[4] = { fld(a, 1000, IPU_DTYPE_I32), fld(a, 1000, IPU_DTYPE_F32),
					    fld(b, 1000, IPU_DTYPE_F32), fld(c, 1000, IPU_DTYPE_F32) };
		struct ipue_field am[2] = { fld(a, 1000, IPU_DTYPE_F32), fld(b, 10, IPU_DTYPE_I32) };
		uint32_t L = 100;

		EXPECT(ipue_codelet_find(IPUE_CODELET_SELECT)->cycles(s4, NULL) == 50 + 1000, "select cycles");
		EXPECT(ipue_codelet_find(IPUE_CODELET_ARGMAX)->cycles(am, &L) == 50 + 1000 + 20,
		       "argmax cycles");
		uint32_t rc[2] = { 40, 25 };

		EXPECT(ipue_codelet_find(IPUE_CODELET_TRANSPOSE)->cycles(am, rc) == 50 + 1000 + 40,
		       "transpose cycles");
	}
	g[0].count = 0;
	for (size_t i = 0; i < ipue_codelet_count(); i++) {
		const struct ipue_codelet *c2 = ipue_codelet_at(i);

		if (c2->nparams == 0 || c2->id == IPUE_CODELET_FILL)
			EXPECT(c2->cycles(g, (uint32_t[IPUE_MAX_PARAMS]){ 0 }) >= IPUE_CYCLES_VERTEX_OVERHEAD,
			       "%s cycles", c2->name);
	}
}

/* ---------------- groups as tests ---------------- */

/* the group's verdict: its check count, and a failure if any check failed */
#define GROUP(name, call)						\
TEST(name)								\
{									\
	call;								\
	printf("# %s: %lu checks\n", #name, g_checks);			\
	fflush(stdout);							\
	EXPECT_EQ(0u, g_fail) TH_LOG("%s: %u failures", #name, g_fail);	\
}

GROUP(registry, t_registry())
GROUP(fp16_exhaustive, t_fp16_exhaustive())
GROUP(fp16_rounding, t_fp16_rounding())
GROUP(fp16_bulk, t_fp16_bulk())
GROUP(unary_f32, t_unary(IPU_DTYPE_F32))
GROUP(unary_f16, t_unary(IPU_DTYPE_F16))
GROUP(unary_i32, t_unary(IPU_DTYPE_I32))
GROUP(binary_f32, t_binary(IPU_DTYPE_F32))
GROUP(binary_f16, t_binary(IPU_DTYPE_F16))
GROUP(binary_i32, t_binary(IPU_DTYPE_I32))
GROUP(cast, t_cast())
GROUP(fill_copy, t_fill_copy())
GROUP(reduce, t_reduce())
GROUP(matmul_f32, t_matmul(false))
GROUP(matmul_f16, t_matmul(true))
GROUP(conv_f32, t_conv(false))
GROUP(conv_f16, t_conv(true))
GROUP(scaled_add, t_scaled_add())
GROUP(optim, t_optim())
GROUP(grad_f32, t_grad(IPU_DTYPE_F32))
GROUP(grad_f16, t_grad(IPU_DTYPE_F16))
GROUP(compare_f32, t_compare(IPU_DTYPE_F32))
GROUP(compare_f16, t_compare(IPU_DTYPE_F16))
GROUP(compare_i32, t_compare(IPU_DTYPE_I32))
GROUP(select_all, t_select())
GROUP(argmax, t_argmax())
GROUP(reduce_cols, t_reduce_cols())
GROUP(window_im2col_f32, t_window_im2col(false))
GROUP(window_im2col_f16, t_window_im2col(true))
GROUP(window_col2im, t_window_col2im())
GROUP(window_pool, t_window_pool())
GROUP(window_cycles, t_window_cycles())
GROUP(transpose, t_transpose())
GROUP(check_negative, t_check_negative())
GROUP(cycles, t_cycles())
GROUP(map_opcodes, t_map_opcodes())
GROUP(map_random, t_map_random())
GROUP(map_negative, t_map_negative())
GROUP(map_fuzz, t_map_fuzz())
GROUP(map_cycles, t_map_cycles())

int main(int argc, char **argv)
{
	uint64_t *shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (shared != MAP_FAILED) {
		*shared = g_rng;
		g_rngp = shared;
	}
	if (argc > 1)
		g_rng = strtoull(argv[1], NULL, 0) | 1;
	printf("# codelet library version %d, %zu codelets, seed 0x%llx, matmul isa %d\n",
	       IPUE_CODELET_LIBRARY_VERSION, ipue_codelet_count(), (unsigned long long)g_rng,
	       ipue_matmul_best_isa());
	return test_harness_run(argc, argv);
}
