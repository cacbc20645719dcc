/* SPDX-License-Identifier: MIT */
/*
 * Public fp16 conversion entry points (the inline scalar versions live in
 * codelets_fp16.h) and bulk conversion of arrays, which uses the x86 F16C
 * instructions when the host has them. F16C gives bit-identical results to
 * the scalar code (round to nearest even, NaN quieted with its top payload
 * bits kept; tested exhaustively), so the choice never changes a result.
 */
#include "codelets_impl.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define IPUE_X86 1
#include <immintrin.h>
#else
#define IPUE_X86 0
#endif

float ipue_f16_to_f32(uint16_t h)
{
	return ipue__h2f(h);
}

uint16_t ipue_f32_to_f16(float f)
{
	return ipue__f2h(f);
}

bool ipue__f16c_supported(void)
{
#if IPUE_X86 && defined(__clang__)
	return __builtin_cpu_supports("avx2");	/* clang has no "f16c" here; every AVX2 CPU has F16C */
#elif IPUE_X86
	return __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
#else
	return false;
#endif
}

#if IPUE_X86
__attribute__((target("avx,f16c")))
static void h2f_n_f16c(float *d, const uint16_t *s, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		_mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + i))));
	for (; i < n; i++)
		d[i] = ipue__h2f(s[i]);
}

__attribute__((target("avx,f16c")))
static void f2h_n_f16c(uint16_t *d, const float *s, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		_mm_storeu_si128((__m128i *)(d + i),
				 _mm256_cvtps_ph(_mm256_loadu_ps(s + i),
						 _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
	for (; i < n; i++)
		d[i] = ipue__f2h(s[i]);
}
#endif

void ipue__h2f_n(float *d, const uint16_t *s, size_t n, bool f16c)
{
#if IPUE_X86
	if (f16c) {
		h2f_n_f16c(d, s, n);
		return;
	}
#else
	(void)f16c;
#endif
	for (size_t i = 0; i < n; i++)
		d[i] = ipue__h2f(s[i]);
}

void ipue__f2h_n(uint16_t *d, const float *s, size_t n, bool f16c)
{
#if IPUE_X86
	if (f16c) {
		f2h_n_f16c(d, s, n);
		return;
	}
#else
	(void)f16c;
#endif
	for (size_t i = 0; i < n; i++)
		d[i] = ipue__f2h(s[i]);
}
