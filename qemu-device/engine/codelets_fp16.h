/* SPDX-License-Identifier: MIT */
/*
 * IEEE binary16 <-> binary32 conversion, inline for the codelets' hot loops.
 * Pure integer/FP bit manipulation, no host F16C needed; results do not
 * depend on the host ISA. Requires the default FP environment (round to
 * nearest even, no flush-to-zero), which is what QEMU and the engine run in.
 */
#ifndef IPUE_CODELETS_FP16_H
#define IPUE_CODELETS_FP16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* bulk conversion (codelets_fp16.c); f16c: use the host's F16C instructions,
 * only if ipue__f16c_supported(). Results are identical either way. */
bool ipue__f16c_supported(void);
void ipue__h2f_n(float *d, const uint16_t *s, size_t n, bool f16c);
void ipue__f2h_n(uint16_t *d, const float *s, size_t n, bool f16c);

static inline uint32_t ipue__f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static inline float ipue__u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* exact (signaling NaNs come out quiet) */
static inline float ipue__h2f(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t o = (uint32_t)(h & 0x7fffu) << 13;	/* exponent/mantissa bits */
	uint32_t e = o & 0x0f800000u;			/* just the exponent */

	o += (uint32_t)(127 - 15) << 23;		/* rebias */
	if (e == 0x0f800000u) {				/* Inf/NaN */
		o += (uint32_t)(128 - 16) << 23;
		if (o & 0x007fffffu)
			o |= 0x00400000u;		/* quiet signaling NaNs, as F16C does */
	} else if (e == 0) {				/* zero/subnormal: renormalise */
		o += 1u << 23;
		o = ipue__f2u(ipue__u2f(o) - ipue__u2f(113u << 23));
	}
	return ipue__u2f(o | sign);
}

/* round to nearest even; overflow -> Inf; NaN -> quiet NaN keeping the top
 * 9 payload bits */
static inline uint16_t ipue__f2h(float f)
{
	uint32_t u = ipue__f2u(f);
	uint32_t sign = u & 0x80000000u;
	uint32_t o;

	u ^= sign;
	if (u >= 0x47800000u) {				/* >= 65536, Inf or NaN */
		if (u > 0x7f800000u)
			o = 0x7e00u | ((u >> 13) & 0x3ffu);
		else
			o = 0x7c00u;
	} else if (u < 0x38800000u) {			/* < 2^-14: subnormal or zero */
		/* let the FPU do the rounding: add 0.5 so the result's mantissa
		 * holds the half-precision subnormal */
		float v = ipue__u2f(u) + ipue__u2f(126u << 23);

		o = ipue__f2u(v) - (126u << 23);
	} else {
		uint32_t odd = (u >> 13) & 1u;

		u += ((uint32_t)(15 - 127) << 23) + 0xfffu;
		u += odd;
		o = u >> 13;				/* carries into Inf for >= 65520 */
	}
	return (uint16_t)(o | (sign >> 16));
}

#endif /* IPUE_CODELETS_FP16_H */
