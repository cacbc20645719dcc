/* SPDX-License-Identifier: MIT */
/*
 * Partial matrix multiply (0x0701): C[M][N] += A[M][K] x B[K][N], f32
 * accumulation, A/B f32 or f16 (converted exactly to f32 while packing).
 *
 * Structure (GotoBLAS-like, sized for one tile's block):
 *   for each KC=256 slice of K
 *     for each block of rows of A (all rows for f32; 24 rows for f16, which
 *         are converted to f32 into a stack buffer)
 *       for each NR-wide column panel of B: pack B[kslice][panel] (zero padded)
 *         for each MR=6 rows: register-blocked micro-kernel MR x NR,
 *             accumulators start at 0 and are added to C at the end
 * Micro-kernels: AVX-512F 6x32 and AVX2+FMA 6x16 (x86-64, chosen at run time
 * with __builtin_cpu_supports, compiled with __attribute__((target)) so the
 * file needs no special flags), and a portable 6x8 kernel written with GCC
 * vector extensions (SSE2/NEON/...), or plain C without GNU C.
 * Stack use: at most 57 KiB. No heap, no global state.
 *
 * Rounding: every product is accumulated in f32 in ascending k order within
 * a KC slice; the AVX kernels use fused multiply-add, the portable kernel a
 * separate multiply and add, so the last bits depend on the host ISA (the
 * error bound in docs/codelets.md holds for all of them).
 */
#include <string.h>

#include "codelets_impl.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define IPUE_X86 1
#include <immintrin.h>
#else
#define IPUE_X86 0
#endif

#define KC	256
#define MR	6
#define MC16	24	/* rows of an f16 A converted per block (multiple of MR) */
#define NR_MAX	32

typedef void kern_fn(size_t kc, const float *a, size_t lda, const float *bp,
		     float *c, size_t ldc, unsigned mr, unsigned nr);

/* adds the MR x NR tile t (row stride NR) to C, rows < mr, columns < nr */
static void add_tile(const float *t, unsigned nrfull, float *c, size_t ldc,
		     unsigned mr, unsigned nr)
{
	for (unsigned i = 0; i < mr; i++)
		for (unsigned j = 0; j < nr; j++)
			c[i * ldc + j] += t[i * nrfull + j];
}

/* ---------------- portable 6 x 8 kernel ---------------- */

#if defined(__GNUC__)
typedef float v4f __attribute__((vector_size(16)));

static inline v4f ld4(const float *p)
{
	v4f v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void st4(float *p, v4f v)
{
	memcpy(p, &v, sizeof(v));
}

#define GNR 8
static void kern_generic(size_t kc, const float *a, size_t lda, const float *bp,
			 float *c, size_t ldc, unsigned mr, unsigned nr)
{
	const float *a0 = a;
	const float *a1 = mr > 1 ? a + lda : a;
	const float *a2 = mr > 2 ? a + 2 * lda : a;
	const float *a3 = mr > 3 ? a + 3 * lda : a;
	const float *a4 = mr > 4 ? a + 4 * lda : a;
	const float *a5 = mr > 5 ? a + 5 * lda : a;
	v4f z = { 0, 0, 0, 0 };
	v4f c00 = z, c01 = z, c10 = z, c11 = z, c20 = z, c21 = z;
	v4f c30 = z, c31 = z, c40 = z, c41 = z, c50 = z, c51 = z;

	for (size_t k = 0; k < kc; k++) {
		v4f b0 = ld4(bp + k * GNR), b1 = ld4(bp + k * GNR + 4);
		v4f x;

		x = z + a0[k]; c00 += x * b0; c01 += x * b1;
		x = z + a1[k]; c10 += x * b0; c11 += x * b1;
		x = z + a2[k]; c20 += x * b0; c21 += x * b1;
		x = z + a3[k]; c30 += x * b0; c31 += x * b1;
		x = z + a4[k]; c40 += x * b0; c41 += x * b1;
		x = z + a5[k]; c50 += x * b0; c51 += x * b1;
	}
	if (mr == MR && nr == GNR) {
#define UPD(i, v0, v1) do {								\
		st4(c + (i) * ldc, ld4(c + (i) * ldc) + v0);				\
		st4(c + (i) * ldc + 4, ld4(c + (i) * ldc + 4) + v1);			\
	} while (0)
		UPD(0, c00, c01); UPD(1, c10, c11); UPD(2, c20, c21);
		UPD(3, c30, c31); UPD(4, c40, c41); UPD(5, c50, c51);
#undef UPD
	} else {
		float t[MR * GNR];

		st4(t + 0, c00); st4(t + 4, c01); st4(t + 8, c10); st4(t + 12, c11);
		st4(t + 16, c20); st4(t + 20, c21); st4(t + 24, c30); st4(t + 28, c31);
		st4(t + 32, c40); st4(t + 36, c41); st4(t + 40, c50); st4(t + 44, c51);
		add_tile(t, GNR, c, ldc, mr, nr);
	}
}
#else
#define GNR 8
static void kern_generic(size_t kc, const float *a, size_t lda, const float *bp,
			 float *c, size_t ldc, unsigned mr, unsigned nr)
{
	float t[MR * GNR] = { 0 };

	for (unsigned i = 0; i < mr; i++)
		for (size_t k = 0; k < kc; k++)
			for (unsigned j = 0; j < GNR; j++)
				t[i * GNR + j] += a[i * lda + k] * bp[k * GNR + j];
	add_tile(t, GNR, c, ldc, mr, nr);
}
#endif

/* ---------------- x86-64 kernels ---------------- */

#if IPUE_X86
#define X_ROWS								\
	const float *a0 = a;						\
	const float *a1 = mr > 1 ? a + lda : a;				\
	const float *a2 = mr > 2 ? a + 2 * lda : a;			\
	const float *a3 = mr > 3 ? a + 3 * lda : a;			\
	const float *a4 = mr > 4 ? a + 4 * lda : a;			\
	const float *a5 = mr > 5 ? a + 5 * lda : a

__attribute__((target("avx2,fma")))
static void kern_avx2(size_t kc, const float *a, size_t lda, const float *bp,
		      float *c, size_t ldc, unsigned mr, unsigned nr)
{
	X_ROWS;
	__m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00;
	__m256 c20 = c00, c21 = c00, c30 = c00, c31 = c00;
	__m256 c40 = c00, c41 = c00, c50 = c00, c51 = c00;

	for (size_t k = 0; k < kc; k++) {
		__m256 b0 = _mm256_load_ps(bp + k * 16), b1 = _mm256_load_ps(bp + k * 16 + 8);
		__m256 x;

		x = _mm256_broadcast_ss(a0 + k);
		c00 = _mm256_fmadd_ps(x, b0, c00); c01 = _mm256_fmadd_ps(x, b1, c01);
		x = _mm256_broadcast_ss(a1 + k);
		c10 = _mm256_fmadd_ps(x, b0, c10); c11 = _mm256_fmadd_ps(x, b1, c11);
		x = _mm256_broadcast_ss(a2 + k);
		c20 = _mm256_fmadd_ps(x, b0, c20); c21 = _mm256_fmadd_ps(x, b1, c21);
		x = _mm256_broadcast_ss(a3 + k);
		c30 = _mm256_fmadd_ps(x, b0, c30); c31 = _mm256_fmadd_ps(x, b1, c31);
		x = _mm256_broadcast_ss(a4 + k);
		c40 = _mm256_fmadd_ps(x, b0, c40); c41 = _mm256_fmadd_ps(x, b1, c41);
		x = _mm256_broadcast_ss(a5 + k);
		c50 = _mm256_fmadd_ps(x, b0, c50); c51 = _mm256_fmadd_ps(x, b1, c51);
	}
	if (mr == MR && nr == 16) {
#define UPD(i, v0, v1) do {								\
		float *r_ = c + (i) * ldc;						\
		_mm256_storeu_ps(r_, _mm256_add_ps(_mm256_loadu_ps(r_), v0));		\
		_mm256_storeu_ps(r_ + 8, _mm256_add_ps(_mm256_loadu_ps(r_ + 8), v1));	\
	} while (0)
		UPD(0, c00, c01); UPD(1, c10, c11); UPD(2, c20, c21);
		UPD(3, c30, c31); UPD(4, c40, c41); UPD(5, c50, c51);
#undef UPD
	} else {
		float t[MR * 16];

		_mm256_storeu_ps(t + 0, c00); _mm256_storeu_ps(t + 8, c01);
		_mm256_storeu_ps(t + 16, c10); _mm256_storeu_ps(t + 24, c11);
		_mm256_storeu_ps(t + 32, c20); _mm256_storeu_ps(t + 40, c21);
		_mm256_storeu_ps(t + 48, c30); _mm256_storeu_ps(t + 56, c31);
		_mm256_storeu_ps(t + 64, c40); _mm256_storeu_ps(t + 72, c41);
		_mm256_storeu_ps(t + 80, c50); _mm256_storeu_ps(t + 88, c51);
		add_tile(t, 16, c, ldc, mr, nr);
	}
}

__attribute__((target("avx512f")))
static void kern_avx512(size_t kc, const float *a, size_t lda, const float *bp,
			float *c, size_t ldc, unsigned mr, unsigned nr)
{
	X_ROWS;
	__m512 c00 = _mm512_setzero_ps(), c01 = c00, c10 = c00, c11 = c00;
	__m512 c20 = c00, c21 = c00, c30 = c00, c31 = c00;
	__m512 c40 = c00, c41 = c00, c50 = c00, c51 = c00;

	for (size_t k = 0; k < kc; k++) {
		__m512 b0 = _mm512_load_ps(bp + k * 32), b1 = _mm512_load_ps(bp + k * 32 + 16);
		__m512 x;

		x = _mm512_set1_ps(a0[k]);
		c00 = _mm512_fmadd_ps(x, b0, c00); c01 = _mm512_fmadd_ps(x, b1, c01);
		x = _mm512_set1_ps(a1[k]);
		c10 = _mm512_fmadd_ps(x, b0, c10); c11 = _mm512_fmadd_ps(x, b1, c11);
		x = _mm512_set1_ps(a2[k]);
		c20 = _mm512_fmadd_ps(x, b0, c20); c21 = _mm512_fmadd_ps(x, b1, c21);
		x = _mm512_set1_ps(a3[k]);
		c30 = _mm512_fmadd_ps(x, b0, c30); c31 = _mm512_fmadd_ps(x, b1, c31);
		x = _mm512_set1_ps(a4[k]);
		c40 = _mm512_fmadd_ps(x, b0, c40); c41 = _mm512_fmadd_ps(x, b1, c41);
		x = _mm512_set1_ps(a5[k]);
		c50 = _mm512_fmadd_ps(x, b0, c50); c51 = _mm512_fmadd_ps(x, b1, c51);
	}
	if (mr == MR && nr == 32) {
#define UPD(i, v0, v1) do {								\
		float *r_ = c + (i) * ldc;						\
		_mm512_storeu_ps(r_, _mm512_add_ps(_mm512_loadu_ps(r_), v0));		\
		_mm512_storeu_ps(r_ + 16, _mm512_add_ps(_mm512_loadu_ps(r_ + 16), v1));	\
	} while (0)
		UPD(0, c00, c01); UPD(1, c10, c11); UPD(2, c20, c21);
		UPD(3, c30, c31); UPD(4, c40, c41); UPD(5, c50, c51);
#undef UPD
	} else {
		float t[MR * 32];

		_mm512_storeu_ps(t + 0, c00); _mm512_storeu_ps(t + 16, c01);
		_mm512_storeu_ps(t + 32, c10); _mm512_storeu_ps(t + 48, c11);
		_mm512_storeu_ps(t + 64, c20); _mm512_storeu_ps(t + 80, c21);
		_mm512_storeu_ps(t + 96, c30); _mm512_storeu_ps(t + 112, c31);
		_mm512_storeu_ps(t + 128, c40); _mm512_storeu_ps(t + 144, c41);
		_mm512_storeu_ps(t + 160, c50); _mm512_storeu_ps(t + 176, c51);
		add_tile(t, 32, c, ldc, mr, nr);
	}
}
#endif

/* ---------------- dispatch ---------------- */

bool ipue_matmul_isa_supported(int isa)
{
	switch (isa) {
	case IPUE_ISA_GENERIC:
		return true;
#if IPUE_X86
	case IPUE_ISA_AVX2:
		return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
	case IPUE_ISA_AVX512:
		return __builtin_cpu_supports("avx512f");
#endif
	default:
		return false;
	}
}

int ipue_matmul_best_isa(void)
{
	if (ipue_matmul_isa_supported(IPUE_ISA_AVX512))
		return IPUE_ISA_AVX512;
	if (ipue_matmul_isa_supported(IPUE_ISA_AVX2))
		return IPUE_ISA_AVX2;
	return IPUE_ISA_GENERIC;
}

/* ---------------- driver ---------------- */

/* bp[kk][jj] = B(k0 + kk, j0 + jj), zero for jj >= nr; row stride NR */
static void pack_b(float *restrict bp, unsigned nrfull, const void *b, bool f16, bool f16c,
		   bool trans, uint32_t n, uint32_t k, uint32_t k0, uint32_t kc, uint32_t j0,
		   unsigned nr)
{
	if (!trans) {
		for (uint32_t kk = 0; kk < kc; kk++) {
			float *d = bp + (size_t)kk * nrfull;
			size_t off = (size_t)(k0 + kk) * n + j0;

			if (f16) {
				ipue__h2f_n(d, (const uint16_t *)b + off, nr, f16c);
			} else {
				memcpy(d, (const float *)b + off, nr * sizeof(float));
			}
			for (unsigned jj = nr; jj < nrfull; jj++)
				d[jj] = 0.0f;
		}
		return;
	}
	/* B stored [N][K] */
	for (unsigned jj = 0; jj < nrfull; jj++) {
		if (jj >= nr) {
			for (uint32_t kk = 0; kk < kc; kk++)
				bp[(size_t)kk * nrfull + jj] = 0.0f;
			continue;
		}
		size_t off = (size_t)(j0 + jj) * k + k0;

		if (f16) {
			float t[KC];

			ipue__h2f_n(t, (const uint16_t *)b + off, kc, f16c);
			for (uint32_t kk = 0; kk < kc; kk++)
				bp[(size_t)kk * nrfull + jj] = t[kk];
		} else {
			const float *s = (const float *)b + off;

			for (uint32_t kk = 0; kk < kc; kk++)
				bp[(size_t)kk * nrfull + jj] = s[kk];
		}
	}
}

void ipue_matmul_f32acc(int isa, uint32_t m, uint32_t n, uint32_t k,
			const void *a, const void *b, bool in_f16, bool b_trans,
			float *c)
{
	_Alignas(64) float bpack[KC * NR_MAX];
	_Alignas(64) float abuf[MC16 * KC];
	kern_fn *kern = kern_generic;
	unsigned nrfull = GNR;

	if (!m || !n || !k)
		return;
#if IPUE_X86
	if (isa == IPUE_ISA_AVX512) {
		kern = kern_avx512;
		nrfull = 32;
	} else if (isa == IPUE_ISA_AVX2) {
		kern = kern_avx2;
		nrfull = 16;
	}
#else
	(void)isa;
#endif
	uint32_t mc_max = in_f16 ? MC16 : m;
	bool f16c = in_f16 && ipue__f16c_supported();

	for (uint32_t k0 = 0; k0 < k; k0 += KC) {
		uint32_t kc = k - k0 < KC ? k - k0 : KC;

		for (uint32_t i0 = 0; i0 < m; i0 += mc_max) {
			uint32_t mc = m - i0 < mc_max ? m - i0 : mc_max;
			const float *ab;
			size_t lda;

			if (in_f16) {
				const uint16_t *s = (const uint16_t *)a + (size_t)i0 * k + k0;

				for (uint32_t i = 0; i < mc; i++)
					ipue__h2f_n(abuf + (size_t)i * kc, s + (size_t)i * k, kc, f16c);
				ab = abuf;
				lda = kc;
			} else {
				ab = (const float *)a + (size_t)i0 * k + k0;
				lda = k;
			}
			for (uint32_t j0 = 0; j0 < n; j0 += nrfull) {
				unsigned nr = n - j0 < nrfull ? n - j0 : nrfull;

				pack_b(bpack, nrfull, b, in_f16, f16c, b_trans, n, k, k0, kc, j0, nr);
				for (uint32_t i = 0; i < mc; i += MR) {
					unsigned mr = mc - i < MR ? mc - i : MR;

					kern(kc, ab + (size_t)i * lda, lda, bpack,
					     c + (size_t)(i0 + i) * n + j0, n, mr, nr);
				}
			}
		}
	}
}

/* ---------------- codelet ---------------- */

static int matmul_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	const struct ipue_field *A = &f[0], *B = &f[1], *C = &f[2];
	uint64_t m = p[0], n = p[1], k = p[2];
	int r;

	if ((r = ipue__check_field(A, "A", msg, msglen)) ||
	    (r = ipue__check_field(B, "B", msg, msglen)) ||
	    (r = ipue__check_field(C, "C", msg, msglen)))
		return r;
	if (A->dtype != B->dtype || A->dtype == IPU_DTYPE_I32)
		return ipue__fail(msg, msglen, "A (%s) and B (%s) must both be f32 or both f16",
				  ipue__dtype_name(A->dtype), ipue__dtype_name(B->dtype));
	if (C->dtype != IPU_DTYPE_F32)
		return ipue__fail(msg, msglen, "C must be f32");
	if (p[3] & ~IPUE_MATMUL_B_TRANSPOSED)
		return ipue__fail(msg, msglen, "unknown flags 0x%x", p[3]);
	if (A->count != m * k)
		return ipue__fail(msg, msglen, "A has %u elements, M*K = %llu",
				  A->count, (unsigned long long)(m * k));
	if (B->count != k * n)
		return ipue__fail(msg, msglen, "B has %u elements, K*N = %llu",
				  B->count, (unsigned long long)(k * n));
	if (C->count != m * n)
		return ipue__fail(msg, msglen, "C has %u elements, M*N = %llu",
				  C->count, (unsigned long long)(m * n));
	if (ipue__overlap(C, A) || ipue__overlap(C, B))
		return ipue__fail(msg, msglen, "C overlaps A or B");
	return 0;
}

static void matmul_run(const struct ipue_field *f, const uint32_t *p)
{
	ipue_matmul_f32acc(ipue_matmul_best_isa(), p[0], p[1], p[2], f[0].data, f[1].data,
			   f[0].dtype == IPU_DTYPE_F16, p[3] & IPUE_MATMUL_B_TRANSPOSED,
			   f[2].data);
}

static uint64_t matmul_cycles(const struct ipue_field *f, const uint32_t *p)
{
	uint64_t macs = (uint64_t)p[0] * p[1] * p[2];
	uint64_t rate = f[0].dtype == IPU_DTYPE_F16 ? IPUE_AMP_MACS_F16 : IPUE_AMP_MACS_F32;

	return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(macs, rate) +
	       ipue__ceil_div((uint64_t)p[0] * p[1], 2);
}

static const struct ipue_codelet codelets[] = {
	{ .id = IPUE_CODELET_MATMUL, .name = "MatMulPartial", .nfields = 3, .nparams = 4,
	  .field = { { "A", IPUE_FIELD_IN, 0, IPUE_DTMASK_FLOAT },
		     { "B", IPUE_FIELD_IN, 0, IPUE_DTMASK_FLOAT },
		     { "C", IPUE_FIELD_INOUT, 0, IPUE_DTMASK_F32 } },
	  .check = matmul_check, .run = matmul_run, .cycles = matmul_cycles },
};

const struct ipue__slice ipue__matmul_slice = {
	codelets, sizeof(codelets) / sizeof(codelets[0])
};
