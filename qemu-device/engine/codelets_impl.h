/* SPDX-License-Identifier: MIT */
/*
 * Internal declarations shared by the codelets*.c files and their host tests.
 * Not part of the engine interface (that is codelets.h).
 */
#ifndef IPUE_CODELETS_IMPL_H
#define IPUE_CODELETS_IMPL_H

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codelets.h"
#include "codelets_fp16.h"

#if defined(__GNUC__)
#define IPUE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define IPUE_PRINTF(a, b)
#define ALWAYS_INLINE inline
#endif

/* each concern file exports one slice of the registry, sorted by id */
struct ipue__slice {
	const struct ipue_codelet *codelets;
	size_t count;
};
extern const struct ipue__slice ipue__elementwise_slice;
extern const struct ipue__slice ipue__data_slice;
extern const struct ipue__slice ipue__reduce_slice;
extern const struct ipue__slice ipue__matmul_slice;
extern const struct ipue__slice ipue__conv_slice;
extern const struct ipue__slice ipue__update_slice;
extern const struct ipue__slice ipue__grad_slice;
extern const struct ipue__slice ipue__optim_slice;
extern const struct ipue__slice ipue__map_slice;
extern const struct ipue__slice ipue__window_slice;

/* check() helpers: all return 0 or -EINVAL after formatting msg */
int ipue__fail(char *msg, size_t msglen, const char *fmt, ...) IPUE_PRINTF(3, 4);
size_t ipue__dtype_size(uint8_t dtype);		/* 0 if unknown */
const char *ipue__dtype_name(uint8_t dtype);
/* known dtype, natural alignment, count * size does not overflow */
int ipue__check_field(const struct ipue_field *f, const char *name, char *msg, size_t msglen);
/* do the byte ranges of two fields intersect (empty fields never do) */
bool ipue__overlap(const struct ipue_field *a, const struct ipue_field *b);
/* out exactly coincides with in: same address, same element size */
bool ipue__same_region(const struct ipue_field *a, const struct ipue_field *b);

/*
 * IEEE 754-2019 maximum/minimum (elementwise max/min and the max/min
 * reductions): any NaN gives the canonical quiet NaN, -0 < +0.
 */
#define IPUE_F32_QNAN 0x7fc00000u

static ALWAYS_INLINE float ipue__max_f32(float a, float b)
{
	if (a != a || b != b)
		return ipue__u2f(IPUE_F32_QNAN);
	if (a > b)
		return a;
	if (b > a)
		return b;
	return (ipue__f2u(a) & 0x80000000u) ? b : a;
}

static ALWAYS_INLINE float ipue__min_f32(float a, float b)
{
	if (a != a || b != b)
		return ipue__u2f(IPUE_F32_QNAN);
	if (a < b)
		return a;
	if (b < a)
		return b;
	return (ipue__f2u(a) & 0x80000000u) ? a : b;
}

/*
 * GELU, tanh approximation (Hendrycks & Gimpel; BERT, Poplar's GELU):
 * gelu(x) = x/2 (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), evaluated
 * as x * sigmoid(2u) (the same function; no cancellation in 1 + tanh(u)
 * for x < 0). In double, rounded once by the caller: f32 results are within
 * 1 ulp although exp() amplifies the error of 2u by |2u| (up to 88).
 */
#define IPUE_GELU_A	1.5957691216057308	/* 2 sqrt(2/pi) */
#define IPUE_GELU_K	0.044715

static inline double ipue__gelu(double x)
{
	double z = IPUE_GELU_A * (x + IPUE_GELU_K * x * x * x), e;

	if (z >= 0)
		return x / (1.0 + exp(-z));
	e = exp(z);			/* NaN x lands here and stays NaN */
	if (e == 0)
		return -0.0;		/* the limit, also at -Inf (where x * e is NaN) */
	return x * e / (1.0 + e);
}

/* d gelu / dx = s + x s (1 - s) 2u'(x), s = sigmoid(2u), s (1 - s) = e / (1 + e)^2 */
static inline double ipue__gelu_grad(double x)
{
	double z = IPUE_GELU_A * (x + IPUE_GELU_K * x * x * x);
	double e = exp(-fabs(z)), s = (z >= 0 ? 1.0 : e) / (1.0 + e);
	double sd = e / ((1.0 + e) * (1.0 + e));

	if (sd == 0)
		return s;		/* |x| > ~22 or Inf: avoids Inf * 0 */
	return s + x * sd * (IPUE_GELU_A * (1.0 + 3.0 * IPUE_GELU_K * x * x));
}

/* cost-model helpers */
static inline uint64_t ipue__ceil_div(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* ---- matmul internals, exposed for the tests and the benchmark ---- */
enum ipue_isa {
	IPUE_ISA_GENERIC = 0,	/* portable C with 16-byte vector extensions */
	IPUE_ISA_AVX2 = 1,	/* x86-64 AVX2 + FMA (runtime-detected) */
	IPUE_ISA_AVX512 = 2,	/* x86-64 AVX-512F (runtime-detected) */
};
int ipue_matmul_best_isa(void);
bool ipue_matmul_isa_supported(int isa);
/* C[M][N] = A[M][K] x B (accumulate false; C is never read) or C += A x B
 * (B is [K][N], or [N][K] if b_trans); row-major, contiguous. in_f16: A and B
 * are binary16. */
void ipue_matmul_f32(int isa, uint32_t m, uint32_t n, uint32_t k, const void *a,
		     const void *b, bool in_f16, bool b_trans, bool accumulate, float *c);
/* ipue_matmul_f32(..., accumulate = true, c) */
void ipue_matmul_f32acc(int isa, uint32_t m, uint32_t n, uint32_t k,
			const void *a, const void *b, bool in_f16, bool b_trans,
			float *c);

#endif /* IPUE_CODELETS_IMPL_H */
