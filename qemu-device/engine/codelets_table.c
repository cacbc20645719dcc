/* SPDX-License-Identifier: MIT */
/*
 * Codelet registry: the concatenation of the per-concern slices (all const),
 * plus the helpers the check() functions share.
 */
#include <stdio.h>

#include "codelets_impl.h"

static const struct ipue__slice *const slices[] = {
	&ipue__elementwise_slice,
	&ipue__data_slice,
	&ipue__reduce_slice,
	&ipue__matmul_slice,
	&ipue__conv_slice,
	&ipue__update_slice,
	&ipue__grad_slice,
	&ipue__optim_slice,
	&ipue__map_slice,
	&ipue__window_slice,
};
#define NSLICES (sizeof(slices) / sizeof(slices[0]))

size_t ipue_codelet_count(void)
{
	size_t n = 0;

	for (size_t s = 0; s < NSLICES; s++)
		n += slices[s]->count;
	return n;
}

const struct ipue_codelet *ipue_codelet_at(size_t i)
{
	for (size_t s = 0; s < NSLICES; s++) {
		if (i < slices[s]->count)
			return &slices[s]->codelets[i];
		i -= slices[s]->count;
	}
	return NULL;
}

const struct ipue_codelet *ipue_codelet_find(uint16_t id)
{
	for (size_t s = 0; s < NSLICES; s++) {
		const struct ipue_codelet *c = slices[s]->codelets;
		size_t lo = 0, hi = slices[s]->count;

		/* each slice is sorted by id (the tests check it) */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (c[mid].id == id)
				return &c[mid];
			if (c[mid].id < id)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	return NULL;
}

int ipue__fail(char *msg, size_t msglen, const char *fmt, ...)
{
	if (msg && msglen) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

size_t ipue__dtype_size(uint8_t dtype)
{
	switch (dtype) {
	case IPU_DTYPE_F32: return 4;
	case IPU_DTYPE_F16: return 2;
	case IPU_DTYPE_I32: return 4;
	default: return 0;
	}
}

const char *ipue__dtype_name(uint8_t dtype)
{
	switch (dtype) {
	case IPU_DTYPE_F32: return "f32";
	case IPU_DTYPE_F16: return "f16";
	case IPU_DTYPE_I32: return "i32";
	default: return "?";
	}
}

int ipue__check_field(const struct ipue_field *f, const char *name, char *msg, size_t msglen)
{
	size_t sz = ipue__dtype_size(f->dtype);

	if (!sz)
		return ipue__fail(msg, msglen, "field %s: unknown dtype %u", name, f->dtype);
	if (f->count && !f->data)
		return ipue__fail(msg, msglen, "field %s: NULL data", name);
	if (f->count && ((uintptr_t)f->data % sz))
		return ipue__fail(msg, msglen, "field %s: address not %zu-byte aligned", name, sz);
	if (f->count && (uintptr_t)f->data > UINTPTR_MAX - (uint64_t)f->count * sz)
		return ipue__fail(msg, msglen, "field %s: region wraps", name);
	return 0;
}

bool ipue__overlap(const struct ipue_field *a, const struct ipue_field *b)
{
	uintptr_t a0 = (uintptr_t)a->data, b0 = (uintptr_t)b->data;
	uintptr_t a1 = a0 + (uintptr_t)a->count * ipue__dtype_size(a->dtype);
	uintptr_t b1 = b0 + (uintptr_t)b->count * ipue__dtype_size(b->dtype);

	if (!a->count || !b->count)
		return false;
	return a0 < b1 && b0 < a1;
}

bool ipue__same_region(const struct ipue_field *a, const struct ipue_field *b)
{
	return a->data == b->data &&
	       ipue__dtype_size(a->dtype) == ipue__dtype_size(b->dtype);
}

int ipue_codelet_validate(const struct ipue_codelet *c, const struct ipue_field *f,
			  unsigned nfields, const uint32_t *params, unsigned nparams,
			  char *msg, size_t msglen)
{
	static const uint32_t no_params[IPUE_MAX_PARAMS];

	if (msg && msglen)
		msg[0] = '\0';
	if (!c)
		return ipue__fail(msg, msglen, "unknown codelet");
	if (nfields != c->nfields)
		return ipue__fail(msg, msglen, "%s: %u fields bound, %u expected",
				  c->name, nfields, c->nfields);
	if (nparams != c->nparams)
		return ipue__fail(msg, msglen, "%s: %u params, %u expected",
				  c->name, nparams, c->nparams);
	for (unsigned i = 0; i < nfields; i++) {
		const struct ipue_field_desc *d = &c->field[i];

		if (f[i].dtype >= 16 || !(d->dtype_mask & (1u << f[i].dtype)))
			return ipue__fail(msg, msglen, "%s: field %s: dtype %s not accepted",
					  c->name, d->name, ipue__dtype_name(f[i].dtype));
		if (d->scalar && f[i].count != 1)
			return ipue__fail(msg, msglen, "%s: field %s: scalar field has %u elements",
					  c->name, d->name, f[i].count);
	}
	return c->check(f, nparams ? params : no_params, msg, msglen);
}
