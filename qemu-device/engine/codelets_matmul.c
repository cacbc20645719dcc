/* SPDX-License-Identifier: MIT */
/*
 * Partial matrix multiply (0x0701): C[M][N] += A[M][K] x B[K][N] (flag
 * OVERWRITE: C = A x B, C not read), f32 accumulation, A/B f32 or f16
 * (converted exactly to f32 while packing).
 *
 * Structure (GotoBLAS-like, sized for one tile's small block, which usually
 * streams from memory):
 *   for each chunk of NC=96 columns of B
 *     for each K slice (balanced, <= 256 and <= 11264 / padded chunk width)
 *       pack B[kslice][chunk] as NR-wide panels (zero padded), one pass
 *       for each MC=12 rows of A: copy (f16: convert) them to a stack buffer
 *         for each MR=6 rows, for each panel: register-blocked micro-kernel
 *             MR x NR, accumulators start at 0, then stored to C (first
 *             slice of an OVERWRITE) or added to it; masked at the edges
 *   M = 1 (f32, x86): no packing, 64 columns of C at a time over the rows of B
 * Micro-kernels: AVX-512F 6x32 and AVX2+FMA 6x16 (x86-64, chosen at run time
 * with __builtin_cpu_supports, compiled with __attribute__((target)) so the
 * file needs no special flags), and a portable 6x8 kernel written with GCC
 * vector extensions (SSE2/NEON/...), or plain C without GNU C.
 * Stack use: at most 58 KiB (44 KiB packed B, 12 KiB A). No heap, no global
 * state.
 *
 * Rounding: every product is accumulated in f32 in ascending k order within
 * a K slice; the AVX kernels use fused multiply-add, the portable kernel a
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

#define KC	256	/* longest K slice */
#define MR	6
#define MC	12	/* rows of A copied (f16: converted) per block (multiple of MR) */
#define NR_MAX	32
#define NC	96	/* columns of B packed at once: 3 (AVX-512), 6 (AVX2), 12 (generic) panels */
#define BP_FLOATS 11264	/* packed B, 44 KiB: K slices up to 117 at NC columns, longer when N is narrower */

/*
 * Micro-kernel: the MR x NR tile T = A[0..mr)[0..kc) x Bpanel[0..kc)[0..NR)
 * (bp: kc rows of NR floats, zero padded beyond nr) with T starting at 0;
 * then C[i][j] = T (acc false) or C[i][j] += T (acc true) for i < mr, j < nr.
 */
typedef void kern_fn(size_t kc, const float *a, size_t lda, const float *bp,
		     float *c, size_t ldc, unsigned mr, unsigned nr, bool acc);

/* writes / adds the MR x NR tile t (row stride NR) to C, rows < mr, columns < nr */
static void add_tile(const float *t, unsigned nrfull, float *c, size_t ldc,
		     unsigned mr, unsigned nr, bool acc)
{
	for (unsigned i = 0; i < mr; i++)
		for (unsigned j = 0; j < nr; j++)
			c[i * ldc + j] = acc ? c[i * ldc + j] + t[i * nrfull + j] : t[i * nrfull + j];
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
			 float *c, size_t ldc, unsigned mr, unsigned nr, bool acc)
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
		st4(c + (i) * ldc, acc ? ld4(c + (i) * ldc) + v0 : v0);			\
		st4(c + (i) * ldc + 4, acc ? ld4(c + (i) * ldc + 4) + v1 : v1);		\
	} while (0)
		UPD(0, c00, c01); UPD(1, c10, c11); UPD(2, c20, c21);
		UPD(3, c30, c31); UPD(4, c40, c41); UPD(5, c50, c51);
#undef UPD
	} else {
		float t[MR * GNR];

		st4(t + 0, c00); st4(t + 4, c01); st4(t + 8, c10); st4(t + 12, c11);
		st4(t + 16, c20); st4(t + 20, c21); st4(t + 24, c30); st4(t + 28, c31);
		st4(t + 32, c40); st4(t + 36, c41); st4(t + 40, c50); st4(t + 44, c51);
		add_tile(t, GNR, c, ldc, mr, nr, acc);
	}
}
#else
#define GNR 8
static void kern_generic(size_t kc, const float *a, size_t lda, const float *bp,
			 float *c, size_t ldc, unsigned mr, unsigned nr, bool acc)
{
	float t[MR * GNR] = { 0 };

	for (unsigned i = 0; i < mr; i++)
		for (size_t k = 0; k < kc; k++)
			for (unsigned j = 0; j < GNR; j++)
				t[i * GNR + j] += a[i * lda + k] * bp[k * GNR + j];
	add_tile(t, GNR, c, ldc, mr, nr, acc);
}
#endif

/* ---------------- x86-64 kernels ---------------- */

#if IPUE_X86
/*
 * _mm256_maskload_ps(@p, @m) for a prefix mask @m (lanes 0..n-1, as every
 * mask here is) that reads only those lanes. The CPU does the same, but
 * QEMU 7.2's TCG loads all 32 bytes of VMASKMOVPS and masks afterwards, so
 * a libipudev process in a TCG guest faulted on a row that ends at the end
 * of a mapping (the engine is in libipudev too). The instruction is kept
 * when its 32 bytes lie in the page of p[0] and lane 0 is selected (p[0]
 * is valid, so is its page); else a memcpy of n floats (a lane-by-lane
 * loop would be vectorized back into VMASKMOVPS).
 */
__attribute__((target("avx2")))
static inline __m256 mload8(const float *p, __m256i m)
{
	unsigned n = (unsigned)__builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m)));
	float t[8] = { 0 };

	if (((uintptr_t)p & 4095) <= 4096 - 32 && n)
		return _mm256_maskload_ps(p, m);
	memcpy(t, p, n * sizeof(float));
	return _mm256_loadu_ps(t);
}

#define X_ROWS								\
	const float *a0 = a;						\
	const float *a1 = mr > 1 ? a + lda : a;				\
	const float *a2 = mr > 2 ? a + 2 * lda : a;			\
	const float *a3 = mr > 3 ? a + 3 * lda : a;			\
	const float *a4 = mr > 4 ? a + 4 * lda : a;			\
	const float *a5 = mr > 5 ? a + 5 * lda : a

/*
 * The 6 x 2-vector register tile that kern_avx2() and kern_avx512() share:
 * its accumulators, one k step (row r's A element broadcast by BCAST times
 * the B vectors b0 and b1) and the update of the mr rows of C by UPD.
 */
#define X_ACCS(T, zero)							\
	T c00 = (zero), c01 = c00, c10 = c00, c11 = c00;		\
	T c20 = c00, c21 = c00, c30 = c00, c31 = c00;			\
	T c40 = c00, c41 = c00, c50 = c00, c51 = c00
#define X_ROW_STEP(BCAST, FMADD, ar, v0, v1)				\
	(x = BCAST(ar + k), v0 = FMADD(x, b0, v0), v1 = FMADD(x, b1, v1))
#define X_STEP(BCAST, FMADD) do {					\
		X_ROW_STEP(BCAST, FMADD, a0, c00, c01);			\
		X_ROW_STEP(BCAST, FMADD, a1, c10, c11);			\
		X_ROW_STEP(BCAST, FMADD, a2, c20, c21);			\
		X_ROW_STEP(BCAST, FMADD, a3, c30, c31);			\
		X_ROW_STEP(BCAST, FMADD, a4, c40, c41);			\
		X_ROW_STEP(BCAST, FMADD, a5, c50, c51);			\
	} while (0)
#define X_UPDATE(UPD) do {						\
		UPD(0, c00, c01);					\
		if (mr > 1) UPD(1, c10, c11);				\
		if (mr > 2) UPD(2, c20, c21);				\
		if (mr > 3) UPD(3, c30, c31);				\
		if (mr > 4) UPD(4, c40, c41);				\
		if (mr > 5) UPD(5, c50, c51);				\
	} while (0)
/*
 * Row i of C (+)= v0 v1, vectors of W floats: whole vectors when nr is 2 W,
 * else through the lane masks m0 and m1, which never touch columns >= nr.
 */
#define X_UPD_ROW(i, v0, v1, W, ADD, LOADU, STOREU, MLOAD, MSTORE) do {	\
		float *r_ = c + (i) * ldc;					\
		if (nr == 2 * (W)) {						\
			STOREU(r_, acc ? ADD(LOADU(r_), v0) : v0);		\
			STOREU(r_ + (W), acc ? ADD(LOADU(r_ + (W)), v1) : v1);	\
		} else {							\
			MSTORE(r_, m0, acc ? ADD(MLOAD(r_, m0), v0) : v0);	\
			MSTORE(r_ + (W), m1,					\
			       acc ? ADD(MLOAD(r_ + (W), m1), v1) : v1);	\
		}								\
	} while (0)
#define X512_BCAST(p) _mm512_set1_ps(*(p))
#define X512_MLOAD(p, m) _mm512_maskz_loadu_ps(m, p)

__attribute__((target("avx2,fma")))
static void kern_avx2(size_t kc, const float *a, size_t lda, const float *bp,
		      float *c, size_t ldc, unsigned mr, unsigned nr, bool acc)
{
	X_ROWS;
	X_ACCS(__m256, _mm256_setzero_ps());

	for (size_t k = 0; k < kc; k++) {
		__m256 b0 = _mm256_load_ps(bp + k * 16), b1 = _mm256_load_ps(bp + k * 16 + 8);
		__m256 x;

		X_STEP(_mm256_broadcast_ss, _mm256_fmadd_ps);
	}
	/* lane masks for the first nr columns (maskload/maskstore never touch the rest) */
	__m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	__m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)nr), lane);
	__m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)nr - 8), lane);
#define UPD(i, v0, v1) X_UPD_ROW(i, v0, v1, 8, _mm256_add_ps, _mm256_loadu_ps,	\
				       _mm256_storeu_ps, mload8,		\
				       _mm256_maskstore_ps)
	X_UPDATE(UPD);
#undef UPD
}

__attribute__((target("avx512f")))
static void kern_avx512(size_t kc, const float *a, size_t lda, const float *bp,
			float *c, size_t ldc, unsigned mr, unsigned nr, bool acc)
{
	X_ROWS;
	X_ACCS(__m512, _mm512_setzero_ps());

	for (size_t k = 0; k < kc; k++) {
		__m512 b0 = _mm512_load_ps(bp + k * 32), b1 = _mm512_load_ps(bp + k * 32 + 16);
		__m512 x;

		X_STEP(X512_BCAST, _mm512_fmadd_ps);
	}
	/* masked loads/stores never touch the columns >= nr */
	__mmask16 m0 = nr >= 16 ? 0xffff : (__mmask16)((1u << nr) - 1);
	__mmask16 m1 = nr >= 32 ? 0xffff : nr <= 16 ? 0 : (__mmask16)((1u << (nr - 16)) - 1);
#define UPD(i, v0, v1) X_UPD_ROW(i, v0, v1, 16, _mm512_add_ps, _mm512_loadu_ps,	\
				       _mm512_storeu_ps, X512_MLOAD,		\
				       _mm512_mask_storeu_ps)
	X_UPDATE(UPD);
#undef UPD
}

/*
 * One row of A (M = 1, e.g. a weighted sum of rows of B): C[0][j] (+)= sum over
 * the kc rows of a[kk] * B[kk][j], B row-major f32 (row stride ldb), 64 columns
 * at a time (4 accumulators, the last group masked), ascending kk.
 */
__attribute__((target("avx512f")))
static void row_avx512(size_t kc, const float *a, const float *b, size_t ldb, float *c,
		       size_t n, bool acc)
{
	for (size_t j = 0; j < n; j += 64) {
		size_t r = n - j;
		__mmask16 m[4];
		__m512 s[4];

		for (unsigned v = 0; v < 4; v++) {
			size_t rv = r > 16 * v ? r - 16 * v : 0;

			m[v] = rv >= 16 ? 0xffff : (__mmask16)((1u << rv) - 1);
			s[v] = _mm512_setzero_ps();
		}
		for (size_t kk = 0; kk < kc; kk++) {
			__m512 x = _mm512_set1_ps(a[kk]);
			const float *bk = b + kk * ldb + j;

			if (r >= 64) {
				s[0] = _mm512_fmadd_ps(x, _mm512_loadu_ps(bk), s[0]);
				s[1] = _mm512_fmadd_ps(x, _mm512_loadu_ps(bk + 16), s[1]);
				s[2] = _mm512_fmadd_ps(x, _mm512_loadu_ps(bk + 32), s[2]);
				s[3] = _mm512_fmadd_ps(x, _mm512_loadu_ps(bk + 48), s[3]);
			} else {
				for (unsigned v = 0; v < 4; v++)
					s[v] = _mm512_fmadd_ps(x, _mm512_maskz_loadu_ps(m[v], bk + 16 * v), s[v]);
			}
		}
		for (unsigned v = 0; v < 4; v++) {
			float *cv = c + j + 16 * v;

			_mm512_mask_storeu_ps(cv, m[v], acc ? _mm512_add_ps(_mm512_maskz_loadu_ps(m[v], cv), s[v]) : s[v]);
		}
	}
}

__attribute__((target("avx2,fma")))
static void row_avx2(size_t kc, const float *a, const float *b, size_t ldb, float *c,
		     size_t n, bool acc)
{
	__m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);

	for (size_t j = 0; j < n; j += 32) {
		size_t r = n - j;
		__m256i m[4];
		__m256 s[4];

		for (unsigned v = 0; v < 4; v++) {
			int rv = r > 8 * v ? (int)(r - 8 * v < 8 ? r - 8 * v : 8) : 0;

			m[v] = _mm256_cmpgt_epi32(_mm256_set1_epi32(rv), lane);
			s[v] = _mm256_setzero_ps();
		}
		for (size_t kk = 0; kk < kc; kk++) {
			__m256 x = _mm256_broadcast_ss(a + kk);
			const float *bk = b + kk * ldb + j;

			if (r >= 32) {
				s[0] = _mm256_fmadd_ps(x, _mm256_loadu_ps(bk), s[0]);
				s[1] = _mm256_fmadd_ps(x, _mm256_loadu_ps(bk + 8), s[1]);
				s[2] = _mm256_fmadd_ps(x, _mm256_loadu_ps(bk + 16), s[2]);
				s[3] = _mm256_fmadd_ps(x, _mm256_loadu_ps(bk + 24), s[3]);
			} else {
				for (unsigned v = 0; v < 4; v++)
					s[v] = _mm256_fmadd_ps(x, mload8(bk + 8 * v, m[v]), s[v]);
			}
		}
		for (unsigned v = 0; v < 4; v++) {
			float *cv = c + j + 8 * v;

			_mm256_maskstore_ps(cv, m[v], acc ? _mm256_add_ps(mload8(cv, m[v]), s[v]) : s[v]);
		}
	}
}

/* packs kc rows of a row-major f32 B (row stride ldb) of ncw columns into
 * panels of 16 (AVX2) or 32 (AVX-512) columns, zero padded */
__attribute__((target("avx2")))
static void pack_rows_avx2(float *restrict bp, size_t kc, const float *b, size_t ldb, unsigned ncw)
{
	unsigned np = (ncw + 15) / 16;
	__m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);

	for (size_t kk = 0; kk < kc; kk++) {
		const float *s = b + kk * ldb;

		for (unsigned p = 0; p < np; p++) {
			float *d = bp + (p * kc + kk) * 16;
			unsigned j = p * 16;

			if (j + 16 <= ncw) {
				_mm256_store_ps(d, _mm256_loadu_ps(s + j));
				_mm256_store_ps(d + 8, _mm256_loadu_ps(s + j + 8));
			} else {
				__m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(ncw - j)), lane);
				__m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(ncw - j) - 8), lane);

				_mm256_store_ps(d, mload8(s + j, m0));
				_mm256_store_ps(d + 8, mload8(s + j + 8, m1));
			}
		}
	}
}

__attribute__((target("avx512f")))
static void pack_rows_avx512(float *restrict bp, size_t kc, const float *b, size_t ldb, unsigned ncw)
{
	unsigned np = (ncw + 31) / 32;

	for (size_t kk = 0; kk < kc; kk++) {
		const float *s = b + kk * ldb;

		for (unsigned p = 0; p < np; p++) {
			float *d = bp + (p * kc + kk) * 32;
			unsigned j = p * 32;

			if (j + 32 <= ncw) {
				_mm512_store_ps(d, _mm512_loadu_ps(s + j));
				_mm512_store_ps(d + 16, _mm512_loadu_ps(s + j + 16));
			} else {
				unsigned r = ncw - j;
				__mmask16 m0 = r >= 16 ? 0xffff : (__mmask16)((1u << r) - 1);
				__mmask16 m1 = r <= 16 ? 0 : (__mmask16)((1u << (r - 16)) - 1);

				_mm512_store_ps(d, _mm512_maskz_loadu_ps(m0, s + j));
				_mm512_store_ps(d + 16, _mm512_maskz_loadu_ps(m1, s + j + 16));
			}
		}
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

/* one panel: bp[kk][jj] = B(k0 + kk, j0 + jj), zero for jj >= nr; row stride NR */
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

/* the ncw columns from j0 as panels of NR columns (panel p at bp + p * kc * NR) */
static void pack_chunk(int isa, float *restrict bp, unsigned nrfull, const void *b, bool f16,
		       bool f16c, bool trans, uint32_t n, uint32_t k, uint32_t k0, uint32_t kc,
		       uint32_t j0, unsigned ncw)
{
#if IPUE_X86
	if (!f16 && !trans && isa == IPUE_ISA_AVX512) {
		pack_rows_avx512(bp, kc, (const float *)b + (size_t)k0 * n + j0, n, ncw);
		return;
	}
	if (!f16 && !trans && isa == IPUE_ISA_AVX2) {
		pack_rows_avx2(bp, kc, (const float *)b + (size_t)k0 * n + j0, n, ncw);
		return;
	}
#else
	(void)isa;
#endif
	for (unsigned j = 0; j < ncw; j += nrfull)
		pack_b(bp + (size_t)j * kc, nrfull, b, f16, f16c, trans, n, k, k0, kc, j0 + j,
		       ncw - j < nrfull ? ncw - j : nrfull);
}

/*
 * Loop nest: for each chunk of NC columns of B, for each K slice (balanced,
 * at most KC and at most BP_FLOATS / padded chunk width), pack the chunk's
 * slice of B once (one sequential pass over its rows), then for each MC rows
 * of A: copy (f16: convert) them to abuf, and for each MR rows of those, for
 * each NR panel: the micro-kernel. A tile's block usually streams from
 * memory: B's and A's row-by-row copies are read sequentially, which the
 * hardware prefetches well, where the kernel's 6 interleaved rows of A read
 * in place stall on misses (about 20 % slower on 1440 tile blocks); the
 * 6 rows of A stay in L1 across the panels, the packed slice (<= 44 KiB) is
 * reused by every row block.
 */
void ipue_matmul_f32(int isa, uint32_t m, uint32_t n, uint32_t k, const void *a,
		     const void *b, bool in_f16, bool b_trans, bool accumulate, float *c)
{
	_Alignas(64) float bpack[BP_FLOATS];
	_Alignas(64) float abuf[MC * KC];
	kern_fn *kern = kern_generic;
	unsigned nrfull = GNR;

	if (!m || !n)
		return;
	if (!k) {
		if (!accumulate)
			for (size_t i = 0; i < (size_t)m * n; i++)
				c[i] = 0.0f;
		return;
	}
#if IPUE_X86
	if (isa == IPUE_ISA_AVX512) {
		kern = kern_avx512;
		nrfull = 32;
	} else if (isa == IPUE_ISA_AVX2) {
		kern = kern_avx2;
		nrfull = 16;
	}
#endif
	uint32_t mc_max = MC;
	bool f16c = in_f16 && ipue__f16c_supported();

#if IPUE_X86
	/* one f32 row of A: no packing, B streams once, row by row */
	if (m == 1 && !in_f16 && !b_trans && isa != IPUE_ISA_GENERIC) {
		uint32_t nks = (k + KC - 1) / KC;

		for (uint32_t s = 0, k0 = 0; s < nks; s++) {
			uint32_t kc = (k - k0 + (nks - s) - 1) / (nks - s);

			(isa == IPUE_ISA_AVX512 ? row_avx512 : row_avx2)(kc, (const float *)a + k0,
				(const float *)b + (size_t)k0 * n, n, c, n, accumulate || s > 0);
			k0 += kc;
		}
		return;
	}
#endif

	for (uint32_t j0 = 0; j0 < n; j0 += NC) {
		unsigned ncw = n - j0 < NC ? n - j0 : NC;
		unsigned ncp = (ncw + nrfull - 1) / nrfull * nrfull;
		uint32_t kcm = BP_FLOATS / ncp < KC ? BP_FLOATS / ncp : KC;
		uint32_t nks = (k + kcm - 1) / kcm;

		for (uint32_t s = 0, k0 = 0; s < nks; s++) {
			uint32_t kc = (k - k0 + (nks - s) - 1) / (nks - s);	/* balanced slices */
			bool acc = accumulate || s > 0;

			pack_chunk(isa, bpack, nrfull, b, in_f16, f16c, b_trans, n, k, k0, kc, j0, ncw);
			for (uint32_t i0 = 0; i0 < m; i0 += mc_max) {
				uint32_t mc = m - i0 < mc_max ? m - i0 : mc_max;
				const float *ab;
				size_t lda;

				if (in_f16) {
					const uint16_t *src = (const uint16_t *)a + (size_t)i0 * k + k0;

					for (uint32_t i = 0; i < mc; i++)
						ipue__h2f_n(abuf + (size_t)i * kc, src + (size_t)i * k, kc, f16c);
				} else {
					/* copied row by row: a sequential read the hardware prefetches
					 * well, where the kernel's 6 interleaved rows stall on misses */
					const float *src = (const float *)a + (size_t)i0 * k + k0;

					for (uint32_t i = 0; i < mc; i++)
						memcpy(abuf + (size_t)i * kc, src + (size_t)i * k, (size_t)kc * sizeof(float));
				}
				ab = abuf;
				lda = kc;
				for (uint32_t i = 0; i < mc; i += MR) {
					unsigned mr = mc - i < MR ? mc - i : MR;
					float *ci = c + (size_t)(i0 + i) * n + j0;

					for (unsigned p = 0; p * nrfull < ncw; p++) {
						unsigned nr = ncw - p * nrfull < nrfull ? ncw - p * nrfull : nrfull;

						kern(kc, ab + (size_t)i * lda, lda, bpack + (size_t)p * kc * nrfull,
						     ci + p * nrfull, n, mr, nr, acc);
					}
				}
			}
			k0 += kc;
		}
	}
}

void ipue_matmul_f32acc(int isa, uint32_t m, uint32_t n, uint32_t k,
			const void *a, const void *b, bool in_f16, bool b_trans,
			float *c)
{
	ipue_matmul_f32(isa, m, n, k, a, b, in_f16, b_trans, true, c);
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
	if (p[3] & ~(IPUE_MATMUL_B_TRANSPOSED | IPUE_MATMUL_OVERWRITE))
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
	ipue_matmul_f32(ipue_matmul_best_isa(), p[0], p[1], p[2], f[0].data, f[1].data,
			f[0].dtype == IPU_DTYPE_F16, p[3] & IPUE_MATMUL_B_TRANSPOSED,
			!(p[3] & IPUE_MATMUL_OVERWRITE), f[2].data);
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
