/* SPDX-License-Identifier: MIT */
/*
 * Nonlinearity gradients (0x09xx), popnn::nonLinearityInputGradient:
 * in_grad[i] = f'(act[i]) * out_grad[i], f32 or f16 (f16 computed in f32
 * and rounded once). act is the forward output for relu, sigmoid and tanh
 * (Poplar's convention: the output is what training keeps), the forward
 * input for gelu. Fields out_grad, act, in_grad as Poplar's
 * NonLinearityGrad vertex (outGrad, out, inGrad). See docs/codelets.md.
 */
#include <string.h>

#include "codelets_impl.h"

/* f'(act) * g in f32; gelu in double (see ipue__gelu), rounded once */
static ALWAYS_INLINE float grad_f32(int t, float a, float g)
{
	switch (t) {
	case IPUE_NL_RELU:	/* a select, as PyTorch's threshold_backward; NaN act stays NaN */
		return a > 0.0f ? g : (a != a ? a : 0.0f);
	case IPUE_NL_SIGMOID:
		return (a * (1.0f - a)) * g;
	case IPUE_NL_TANH:	/* (1 - a)(1 + a), not 1 - a*a: exact factors near |a| = 1 */
		return ((1.0f - a) * (1.0f + a)) * g;
	case IPUE_NL_GELU:
		return (float)(ipue__gelu_grad(a) * g);
	default:
		return g;
	}
}

#define CH 64

/* fields: out_grad, act, in_grad (in_grad may be exactly out_grad or act) */
static ALWAYS_INLINE void grad_loop(int t, const struct ipue_field *f)
{
	uint32_t n = f[0].count;

	if (f[0].dtype == IPU_DTYPE_F32) {
		const float *g = f[0].data, *a = f[1].data;
		float *ig = f[2].data;

		for (uint32_t i = 0; i < n; i++)
			ig[i] = grad_f32(t, a[i], g[i]);
		return;
	}

	/* f16: chunks converted in bulk; a chunk is read completely before it is written */
	bool f16c = ipue__f16c_supported();
	float tg[CH], ta[CH];

	for (uint32_t i = 0; i < n; i += CH) {
		uint32_t m = n - i < CH ? n - i : CH;

		ipue__h2f_n(tg, (const uint16_t *)f[0].data + i, m, f16c);
		ipue__h2f_n(ta, (const uint16_t *)f[1].data + i, m, f16c);
		for (uint32_t j = 0; j < m; j++)
			tg[j] = grad_f32(t, ta[j], tg[j]);
		ipue__f2h_n((uint16_t *)f[2].data + i, tg, m, f16c);
	}
}

static int grad_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	const struct ipue_field *g = &f[0], *a = &f[1], *ig = &f[2];
	int r;

	(void)p;
	if ((r = ipue__check_field(g, "out_grad", msg, msglen)) ||
	    (r = ipue__check_field(a, "act", msg, msglen)) ||
	    (r = ipue__check_field(ig, "in_grad", msg, msglen)))
		return r;
	if (g->dtype != a->dtype || g->dtype != ig->dtype || g->dtype == IPU_DTYPE_I32)
		return ipue__fail(msg, msglen, "out_grad %s, act %s, in_grad %s: must all be f32 or all f16",
				  ipue__dtype_name(g->dtype), ipue__dtype_name(a->dtype),
				  ipue__dtype_name(ig->dtype));
	if (a->count != g->count || ig->count != g->count)
		return ipue__fail(msg, msglen, "out_grad has %u elements, act %u, in_grad %u",
				  g->count, a->count, ig->count);
	/* in place over either input is elementwise-safe; partial overlap is not */
	if (ipue__overlap(ig, g) && !ipue__same_region(ig, g))
		return ipue__fail(msg, msglen, "in_grad partially overlaps out_grad");
	if (ipue__overlap(ig, a) && !ipue__same_region(ig, a))
		return ipue__fail(msg, msglen, "in_grad partially overlaps act");
	return 0;
}

/* cycles per element x 4, per type: f32 at 2 simple ops per cycle, f16 at 4 */
static uint64_t grad_qcycles(int t, uint8_t dt)
{
	bool h = dt == IPU_DTYPE_F16;

	switch (t) {
	case IPUE_NL_RELU: return h ? 1 : 2;		/* compare + select */
	case IPUE_NL_SIGMOID: return h ? 3 : 6;		/* sub, 2 mul */
	case IPUE_NL_TANH: return h ? 4 : 8;		/* sub, add, 2 mul */
	case IPUE_NL_GELU: return h ? 8 : 16;		/* exp and ~10 multiply-adds */
	default: return 4;
	}
}

#define GRAD_FNS(T, lname)								\
static void grad_##lname##_run(const struct ipue_field *f, const uint32_t *p)		\
{											\
	(void)p;									\
	grad_loop(T, f);								\
}											\
static uint64_t grad_##lname##_cycles(const struct ipue_field *f, const uint32_t *p)	\
{											\
	(void)p;									\
	return IPUE_CYCLES_VERTEX_OVERHEAD +						\
	       ipue__ceil_div((uint64_t)f[0].count * grad_qcycles(T, f[0].dtype), 4);	\
}

GRAD_FNS(IPUE_NL_RELU, relu)
GRAD_FNS(IPUE_NL_GELU, gelu)
GRAD_FNS(IPUE_NL_SIGMOID, sigmoid)
GRAD_FNS(IPUE_NL_TANH, tanh)

#define GRAD_ENTRY(T, lname, Name) {						\
	.id = IPUE_CODELET_NL_GRAD(T), .name = Name "Grad",				\
	.nfields = 3, .nparams = 0,							\
	.field = { { "out_grad", IPUE_FIELD_IN, 0, IPUE_DTMASK_FLOAT },			\
		   { "act", IPUE_FIELD_IN, 0, IPUE_DTMASK_FLOAT },				\
		   { "in_grad", IPUE_FIELD_OUT, 0, IPUE_DTMASK_FLOAT } },		\
	.check = grad_check, .run = grad_##lname##_run, .cycles = grad_##lname##_cycles }

/* sorted by id */
static const struct ipue_codelet codelets[] = {
	GRAD_ENTRY(IPUE_NL_RELU, relu, "Relu"),
	GRAD_ENTRY(IPUE_NL_GELU, gelu, "Gelu"),
	GRAD_ENTRY(IPUE_NL_SIGMOID, sigmoid, "Sigmoid"),
	GRAD_ENTRY(IPUE_NL_TANH, tanh, "Tanh"),
};

const struct ipue__slice ipue__grad_slice = {
	codelets, sizeof(codelets) / sizeof(codelets[0])
};
