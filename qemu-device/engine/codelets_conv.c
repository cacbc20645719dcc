/* SPDX-License-Identifier: MIT */
/*
 * 2-D convolution partial for one image block (0x0702), CHW layout, no
 * padding (the graph builder pads), f32 accumulation into an f32 output:
 *   out[oc][oy][ox] += sum_{ic,ky,kx} in[ic][oy*SY+ky][ox*SX+kx] * w[oc][ic][ky][kx]
 * with OH = (H-KH)/SY + 1, OW = (W-KW)/SX + 1. Each output element receives
 * its products one at a time (multiply, round, add, round) in lexicographic
 * (ic, ky, kx) order, so results are bit-reproducible on every host.
 */
#include <string.h>

#include "codelets_impl.h"

#if defined(__GNUC__)
typedef float v8f __attribute__((vector_size(32)));
#endif

#define ROWMAX 2048	/* f16 input rows up to this width are converted once per use */

enum { P_CIN, P_H, P_W, P_COUT, P_KH, P_KW, P_SY, P_SX };

static float wget(const void *w, bool f16, size_t i)
{
	return f16 ? ipue__h2f(((const uint16_t *)w)[i]) : ((const float *)w)[i];
}

/* o[x] += w[kx] * r[x * sx + kx] for kx ascending; r is f32 (row) or f16 (row16) */
static void conv_row(float *o, uint32_t ow, const float *row, const uint16_t *row16,
		     uint32_t sx, const void *w, bool f16, size_t woff, uint32_t kw)
{
	for (uint32_t kx = 0; kx < kw; kx++) {
		float wv = wget(w, f16, woff + kx);

		if (row) {
			const float *r = row + kx;

			for (uint32_t x = 0; x < ow; x++)
				o[x] += wv * r[(size_t)x * sx];
		} else {
			const uint16_t *r = row16 + kx;

			for (uint32_t x = 0; x < ow; x++)
				o[x] += wv * ipue__h2f(r[(size_t)x * sx]);
		}
	}
}

/* stride 1: the same operations in the same order per element, 8 outputs at
 * a time kept in a vector across the kx taps */
static void conv_row_s1(float *o, uint32_t ow, const float *row, const void *w, bool f16,
			size_t woff, uint32_t kw)
{
	uint32_t x = 0;

#if defined(__GNUC__)
	for (; x + 8 <= ow; x += 8) {
		v8f acc;

		memcpy(&acc, o + x, sizeof(acc));
		for (uint32_t kx = 0; kx < kw; kx++) {
			v8f r;

			memcpy(&r, row + x + kx, sizeof(r));
			acc = acc + wget(w, f16, woff + kx) * r;
		}
		memcpy(o + x, &acc, sizeof(acc));
	}
#endif
	for (; x < ow; x++) {
		float acc = o[x];

		for (uint32_t kx = 0; kx < kw; kx++)
			acc = acc + wget(w, f16, woff + kx) * row[x + kx];
		o[x] = acc;
	}
}

#if defined(__GNUC__)
/* stride 1, four output channels at once (sharing the input loads); per
 * element exactly the operations of conv_row_s1. ostride/wstride: distance
 * between consecutive output channels in out and in w. */
static void conv_row_s1_x4(float *o, size_t ostride, uint32_t ow, const float *row,
			   const void *w, bool f16, size_t woff, size_t wstride, uint32_t kw)
{
	uint32_t x = 0;

	for (; x + 8 <= ow; x += 8) {
		v8f a0, a1, a2, a3;

		memcpy(&a0, o + x, sizeof(a0));
		memcpy(&a1, o + ostride + x, sizeof(a1));
		memcpy(&a2, o + 2 * ostride + x, sizeof(a2));
		memcpy(&a3, o + 3 * ostride + x, sizeof(a3));
		for (uint32_t kx = 0; kx < kw; kx++) {
			v8f r;

			memcpy(&r, row + x + kx, sizeof(r));
			a0 = a0 + wget(w, f16, woff + kx) * r;
			a1 = a1 + wget(w, f16, woff + wstride + kx) * r;
			a2 = a2 + wget(w, f16, woff + 2 * wstride + kx) * r;
			a3 = a3 + wget(w, f16, woff + 3 * wstride + kx) * r;
		}
		memcpy(o + x, &a0, sizeof(a0));
		memcpy(o + ostride + x, &a1, sizeof(a1));
		memcpy(o + 2 * ostride + x, &a2, sizeof(a2));
		memcpy(o + 3 * ostride + x, &a3, sizeof(a3));
	}
	for (uint32_t c = 0; c < 4; c++) {
		float *oc = o + c * ostride;
		size_t wo = woff + c * wstride;

		for (uint32_t xx = x; xx < ow; xx++) {
			float acc = oc[xx];

			for (uint32_t kx = 0; kx < kw; kx++)
				acc = acc + wget(w, f16, wo + kx) * row[xx + kx];
			oc[xx] = acc;
		}
	}
}
#endif

static void conv_run(const struct ipue_field *f, const uint32_t *p)
{
	uint32_t cin = p[P_CIN], h = p[P_H], w = p[P_W], cout = p[P_COUT];
	uint32_t kh = p[P_KH], kw = p[P_KW], sy = p[P_SY], sx = p[P_SX];
	uint32_t oh = (h - kh) / sy + 1, ow = (w - kw) / sx + 1;
	bool f16 = f[0].dtype == IPU_DTYPE_F16;
	bool f16c = f16 && ipue__f16c_supported();
	float *out = f[2].data;
	float rowbuf[ROWMAX];

	for (uint32_t ic = 0; ic < cin; ic++) {
		for (uint32_t ky = 0; ky < kh; ky++) {
			for (uint32_t oy = 0; oy < oh; oy++) {
				size_t roff = ((size_t)ic * h + (size_t)oy * sy + ky) * w;
				const float *row = NULL;
				const uint16_t *row16 = NULL;

				if (!f16) {
					row = (const float *)f[0].data + roff;
				} else if (w <= ROWMAX) {
					ipue__h2f_n(rowbuf, (const uint16_t *)f[0].data + roff, w, f16c);
					row = rowbuf;
				} else {
					row16 = (const uint16_t *)f[0].data + roff;
				}
				uint32_t oc = 0;

#if defined(__GNUC__)
				if (row && sx == 1) {
					size_t ostride = (size_t)oh * ow, wstride = (size_t)cin * kh * kw;

					for (; oc + 4 <= cout; oc += 4)
						conv_row_s1_x4(out + ((size_t)oc * oh + oy) * ow, ostride, ow,
							       row, f[1].data, f16,
							       (((size_t)oc * cin + ic) * kh + ky) * kw,
							       wstride, kw);
				}
#endif
				for (; oc < cout; oc++) {
					float *o = out + ((size_t)oc * oh + oy) * ow;
					size_t woff = (((size_t)oc * cin + ic) * kh + ky) * kw;

					if (row && sx == 1)
						conv_row_s1(o, ow, row, f[1].data, f16, woff, kw);
					else
						conv_row(o, ow, row, row16, sx, f[1].data, f16, woff, kw);
				}
			}
		}
	}
}

/* products of the dims, saturated far above any 32-bit count */
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	const uint64_t lim = 1ull << 40;

	if (!a || !b)
		return 0;
	return a > lim / b ? lim : a * b;
}

static int conv_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	const struct ipue_field *in = &f[0], *w = &f[1], *out = &f[2];
	uint64_t cin = p[P_CIN], h = p[P_H], wd = p[P_W], cout = p[P_COUT];
	uint64_t kh = p[P_KH], kw = p[P_KW], oh, ow;
	int r;

	if ((r = ipue__check_field(in, "in", msg, msglen)) ||
	    (r = ipue__check_field(w, "w", msg, msglen)) ||
	    (r = ipue__check_field(out, "out", msg, msglen)))
		return r;
	if (in->dtype != w->dtype || in->dtype == IPU_DTYPE_I32)
		return ipue__fail(msg, msglen, "in (%s) and w (%s) must both be f32 or both f16",
				  ipue__dtype_name(in->dtype), ipue__dtype_name(w->dtype));
	if (out->dtype != IPU_DTYPE_F32)
		return ipue__fail(msg, msglen, "out must be f32");
	if (!p[P_SY] || !p[P_SX])
		return ipue__fail(msg, msglen, "stride must be >= 1");
	if (!kh || !kw || kh > h || kw > wd)
		return ipue__fail(msg, msglen, "kernel %llux%llu does not fit input %llux%llu",
				  (unsigned long long)kh, (unsigned long long)kw,
				  (unsigned long long)h, (unsigned long long)wd);
	oh = (h - kh) / p[P_SY] + 1;
	ow = (wd - kw) / p[P_SX] + 1;
	uint64_t nin = sat_mul(sat_mul(cin, h), wd);
	uint64_t nw = sat_mul(sat_mul(cout, cin), sat_mul(kh, kw));
	uint64_t nout = sat_mul(sat_mul(cout, oh), ow);

	if (in->count != nin)
		return ipue__fail(msg, msglen, "in has %u elements, Cin*H*W = %llu",
				  in->count, (unsigned long long)nin);
	if (w->count != nw)
		return ipue__fail(msg, msglen, "w has %u elements, Cout*Cin*KH*KW = %llu",
				  w->count, (unsigned long long)nw);
	if (out->count != nout)
		return ipue__fail(msg, msglen, "out has %u elements, Cout*OH*OW = %llu",
				  out->count, (unsigned long long)nout);
	if (ipue__overlap(out, in) || ipue__overlap(out, w))
		return ipue__fail(msg, msglen, "out overlaps in or w");
	return 0;
}

static uint64_t conv_cycles(const struct ipue_field *f, const uint32_t *p)
{
	uint64_t macs = (uint64_t)f[2].count * p[P_CIN] * p[P_KH] * p[P_KW];
	uint64_t rate = f[0].dtype == IPU_DTYPE_F16 ? IPUE_AMP_MACS_F16 : IPUE_AMP_MACS_F32;

	return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div(macs, rate) +
	       ipue__ceil_div(f[2].count, 2);
}

static const struct ipue_codelet codelets[] = {
	{ .id = IPUE_CODELET_CONV2D, .name = "Conv2dPartial", .nfields = 3, .nparams = 8,
	  .field = { { "in", IPUE_FIELD_IN, 0, IPUE_DTMASK_FLOAT },
		     { "w", IPUE_FIELD_IN, 0, IPUE_DTMASK_FLOAT },
		     { "out", IPUE_FIELD_INOUT, 0, IPUE_DTMASK_F32 } },
	  .check = conv_check, .run = conv_run, .cycles = conv_cycles },
};

const struct ipue__slice ipue__conv_slice = {
	codelets, sizeof(codelets) / sizeof(codelets[0])
};
