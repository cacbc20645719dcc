/* SPDX-License-Identifier: MIT */
/*
 * Optimizers (0x0Axx): SGD with momentum and Adam, fused per tile-contiguous
 * region so that the weights, gradients and state are each read and written
 * once per step. f32 only. Each element is computed in double from its f32
 * inputs and every state (v, m, w) is rounded to f32 once, so the result is
 * a fixed sequence of correctly rounded operations (no fused multiply-add:
 * the engine is built -std=c11, which keeps contraction off) that a host
 * reference reproduces exactly. See docs/codelets.md.
 */
#include "codelets_impl.h"

/* a hyper-parameter in [0, 1) (NaN fails the comparison) */
static bool unit_param(float x)
{
	return x >= 0.0f && x < 1.0f;
}

/* f[i] for each i in outs must not overlap any other field of the vertex */
static int no_overlap(const struct ipue_field *f, unsigned nf, const char *const *names,
		      const unsigned *outs, unsigned nouts, char *msg, size_t msglen)
{
	for (unsigned o = 0; o < nouts; o++)
		for (unsigned j = 0; j < nf; j++)
			if (j != outs[o] && ipue__overlap(&f[outs[o]], &f[j]))
				return ipue__fail(msg, msglen, "%s overlaps %s", names[outs[o]], names[j]);
	return 0;
}

/* the fields' dtype/alignment, equal counts for the first nsame */
static int fields_check(const struct ipue_field *f, unsigned nf, const char *const *names,
			unsigned nsame, char *msg, size_t msglen)
{
	int r;

	for (unsigned i = 0; i < nf; i++)
		if ((r = ipue__check_field(&f[i], names[i], msg, msglen)))
			return r;
	for (unsigned i = 1; i < nsame; i++)
		if (f[i].count != f[0].count)
			return ipue__fail(msg, msglen, "%s has %u elements, %s %u", names[0], f[0].count,
					  names[i], f[i].count);
	return 0;
}

/* ---- SgdMomentum: v = mu * v + g; w -= lr * v (PyTorch's convention) ---- */

static const char *const sgd_names[] = { "w", "g", "v", "lr" };

static int sgd_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	static const unsigned outs[] = { 0, 2 };
	int r;

	if ((r = fields_check(f, 4, sgd_names, 3, msg, msglen)) ||
	    (r = no_overlap(f, 4, sgd_names, outs, 2, msg, msglen)))
		return r;
	if (!unit_param(ipue__u2f(p[0])))
		return ipue__fail(msg, msglen, "momentum %g is not in [0, 1)", ipue__u2f(p[0]));
	return 0;
}

static void sgd_run(const struct ipue_field *f, const uint32_t *p)
{
	float *w = f[0].data, *v = f[2].data;
	const float *g = f[1].data;
	double mu = ipue__u2f(p[0]), lr = *(const float *)f[3].data;

	for (uint32_t i = 0; i < f[0].count; i++) {
		v[i] = (float)(mu * v[i] + g[i]);
		w[i] = (float)(w[i] - lr * v[i]);
	}
}

static uint64_t sgd_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;	/* two f32x2 multiply-adds per pair */
	return IPUE_CYCLES_VERTEX_OVERHEAD + 2 * ipue__ceil_div(f[0].count, 2);
}

/* ---- AdamStep: t += 1; k = { lr / (1 - b1^t), 1 / sqrt(1 - b2^t) } ---- */

static const char *const step_names[] = { "step", "lr", "k" };

static int betas_check(const uint32_t *p, char *msg, size_t msglen)
{
	if (!unit_param(ipue__u2f(p[0])))
		return ipue__fail(msg, msglen, "beta1 %g is not in [0, 1)", ipue__u2f(p[0]));
	if (!unit_param(ipue__u2f(p[1])))
		return ipue__fail(msg, msglen, "beta2 %g is not in [0, 1)", ipue__u2f(p[1]));
	return 0;
}

static int step_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	static const unsigned outs[] = { 0, 2 };
	int r;

	if ((r = fields_check(f, 3, step_names, 0, msg, msglen)) ||
	    (r = no_overlap(f, 3, step_names, outs, 2, msg, msglen)))
		return r;
	if (f[2].count != 2)
		return ipue__fail(msg, msglen, "k has %u elements, must have 2", f[2].count);
	return betas_check(p, msg, msglen);
}

static void step_run(const struct ipue_field *f, const uint32_t *p)
{
	int32_t *step = f[0].data;
	float *k = f[2].data;
	double lr = *(const float *)f[1].data, t;

	if (*step < INT32_MAX)	/* saturates rather than wrapping to a negative count */
		++*step;
	t = *step < 1 ? 1 : *step;	/* a host-written 0 or negative count acts as step 1 */
	k[0] = (float)(lr / (1.0 - pow(ipue__u2f(p[0]), t)));
	k[1] = (float)(1.0 / sqrt(1.0 - pow(ipue__u2f(p[1]), t)));
}

static uint64_t step_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)f;
	(void)p;	/* two pow, a sqrt and two divisions in software */
	return IPUE_CYCLES_VERTEX_OVERHEAD + 200;
}

/* ---- Adam: m, v moments; w -= k0 * m / (sqrt(v) * k1 + eps) ---- */

static const char *const adam_names[] = { "w", "g", "m", "v", "k" };

static int adam_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	static const unsigned outs[] = { 0, 2, 3 };
	float eps = ipue__u2f(p[2]);
	int r;

	if ((r = fields_check(f, 5, adam_names, 4, msg, msglen)) ||
	    (r = no_overlap(f, 5, adam_names, outs, 3, msg, msglen)))
		return r;
	if (f[4].count != 2)
		return ipue__fail(msg, msglen, "k has %u elements, must have 2", f[4].count);
	if ((r = betas_check(p, msg, msglen)))
		return r;
	if (!(eps > 0.0f && eps <= 3.4e38f))
		return ipue__fail(msg, msglen, "eps %g is not positive and finite", eps);
	return 0;
}

static void adam_run(const struct ipue_field *f, const uint32_t *p)
{
	float *w = f[0].data, *m = f[2].data, *v = f[3].data;
	const float *g = f[1].data, *k = f[4].data;
	double b1 = ipue__u2f(p[0]), b2 = ipue__u2f(p[1]), eps = ipue__u2f(p[2]);
	double c1 = 1.0 - b1, c2 = 1.0 - b2, k0 = k[0], k1 = k[1];

	for (uint32_t i = 0; i < f[0].count; i++) {
		double gi = g[i];

		m[i] = (float)(b1 * m[i] + c1 * gi);
		v[i] = (float)(b2 * v[i] + c2 * (gi * gi));
		w[i] = (float)(w[i] - k0 * m[i] / (sqrt((double)v[i]) * k1 + eps));
	}
}

static uint64_t adam_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;	/* four f32x2 multiply-adds per pair, then a sqrt and a division per element */
	return IPUE_CYCLES_VERTEX_OVERHEAD + 4 * ipue__ceil_div(f[0].count, 2) + 2ull * f[0].count;
}

#define F32 IPUE_DTMASK_F32
static const struct ipue_codelet codelets[] = {
	{ .id = IPUE_CODELET_SGD_MOMENTUM, .name = "SgdMomentum", .nfields = 4, .nparams = 1,
	  .field = { { "w", IPUE_FIELD_INOUT, 0, F32 }, { "g", IPUE_FIELD_IN, 0, F32 },
		     { "v", IPUE_FIELD_INOUT, 0, F32 }, { "lr", IPUE_FIELD_IN, 1, F32 } },
	  .check = sgd_check, .run = sgd_run, .cycles = sgd_cycles },
	{ .id = IPUE_CODELET_ADAM_STEP, .name = "AdamStep", .nfields = 3, .nparams = 2,
	  .field = { { "step", IPUE_FIELD_INOUT, 1, IPUE_DTMASK_I32 }, { "lr", IPUE_FIELD_IN, 1, F32 },
		     { "k", IPUE_FIELD_OUT, 0, F32 } },
	  .check = step_check, .run = step_run, .cycles = step_cycles },
	{ .id = IPUE_CODELET_ADAM, .name = "Adam", .nfields = 5, .nparams = 3,
	  .field = { { "w", IPUE_FIELD_INOUT, 0, F32 }, { "g", IPUE_FIELD_IN, 0, F32 },
		     { "m", IPUE_FIELD_INOUT, 0, F32 }, { "v", IPUE_FIELD_INOUT, 0, F32 },
		     { "k", IPUE_FIELD_IN, 0, F32 } },
	  .check = adam_check, .run = adam_run, .cycles = adam_cycles },
};
#undef F32

const struct ipue__slice ipue__optim_slice = {
	codelets, sizeof(codelets) / sizeof(codelets[0])
};
