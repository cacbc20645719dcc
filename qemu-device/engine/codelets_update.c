/* SPDX-License-Identifier: MIT */
/*
 * Weight update (0x08xx): x += s * y, f32 or f16 (f16 computed in f32:
 * x = f16(f32(x) + s * f32(y)), one rounding to f16). s comes from a param
 * (f32 bits) or from a scalar f32/f16 field. Product and sum are rounded
 * separately (no fused multiply-add).
 */
#include "codelets_impl.h"

static void axpy(const struct ipue_field *x, const struct ipue_field *y, float s)
{
	uint32_t n = x->count;

	if (x->dtype == IPU_DTYPE_F16) {
		uint16_t *xd = x->data;
		const uint16_t *yd = y->data;

		for (uint32_t i = 0; i < n; i++) {
			float t = s * ipue__h2f(yd[i]);

			xd[i] = ipue__f2h(ipue__h2f(xd[i]) + t);
		}
	} else {
		float *xd = x->data;
		const float *yd = y->data;

		for (uint32_t i = 0; i < n; i++) {
			float t = s * yd[i];

			xd[i] = xd[i] + t;
		}
	}
}

static int xy_check(const struct ipue_field *f, char *msg, size_t msglen)
{
	int r;

	if ((r = ipue__check_field(&f[0], "x", msg, msglen)) ||
	    (r = ipue__check_field(&f[1], "y", msg, msglen)))
		return r;
	if (f[0].dtype != f[1].dtype || f[0].dtype == IPU_DTYPE_I32)
		return ipue__fail(msg, msglen, "x (%s) and y (%s) must both be f32 or both f16",
				  ipue__dtype_name(f[0].dtype), ipue__dtype_name(f[1].dtype));
	if (f[0].count != f[1].count)
		return ipue__fail(msg, msglen, "x has %u elements, y %u", f[0].count, f[1].count);
	if (ipue__overlap(&f[0], &f[1]) && !ipue__same_region(&f[0], &f[1]))
		return ipue__fail(msg, msglen, "y partially overlaps x");
	return 0;
}

static int sa_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	(void)p;
	return xy_check(f, msg, msglen);
}

static int sas_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	int r;

	(void)p;
	if ((r = xy_check(f, msg, msglen)) ||
	    (r = ipue__check_field(&f[2], "s", msg, msglen)))
		return r;
	if (f[2].count != 1 || f[2].dtype == IPU_DTYPE_I32)
		return ipue__fail(msg, msglen, "s must be one f32 or f16 element");
	if (ipue__overlap(&f[2], &f[0]))
		return ipue__fail(msg, msglen, "s overlaps x");
	return 0;
}

static void sa_run(const struct ipue_field *f, const uint32_t *p)
{
	axpy(&f[0], &f[1], ipue__u2f(p[0]));
}

static void sas_run(const struct ipue_field *f, const uint32_t *p)
{
	float s = f[2].dtype == IPU_DTYPE_F16 ? ipue__h2f(*(const uint16_t *)f[2].data)
					      : *(const float *)f[2].data;

	(void)p;
	axpy(&f[0], &f[1], s);
}

static uint64_t sa_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;
	return IPUE_CYCLES_VERTEX_OVERHEAD +
	       ipue__ceil_div(f[0].count, f[0].dtype == IPU_DTYPE_F16 ? 4 : 2);
}

static const struct ipue_codelet codelets[] = {
	{ .id = IPUE_CODELET_SCALED_ADD, .name = "ScaledAdd", .nfields = 2, .nparams = 1,
	  .field = { { "x", IPUE_FIELD_INOUT, 0, IPUE_DTMASK_FLOAT },
		     { "y", IPUE_FIELD_IN, 0, IPUE_DTMASK_FLOAT } },
	  .check = sa_check, .run = sa_run, .cycles = sa_cycles },
	{ .id = IPUE_CODELET_SCALED_ADD_S, .name = "ScaledAddScalar", .nfields = 3, .nparams = 0,
	  .field = { { "x", IPUE_FIELD_INOUT, 0, IPUE_DTMASK_FLOAT },
		     { "y", IPUE_FIELD_IN, 0, IPUE_DTMASK_FLOAT },
		     { "s", IPUE_FIELD_IN, 1, IPUE_DTMASK_FLOAT } },
	  .check = sas_check, .run = sas_run, .cycles = sa_cycles },
};

const struct ipue__slice ipue__update_slice = {
	codelets, sizeof(codelets) / sizeof(codelets[0])
};
