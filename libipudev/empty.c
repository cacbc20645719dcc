// SPDX-License-Identifier: MIT
/*
 * Empty (zero-size) tensors in the ops (docs/builder.md "Empty tensors"):
 * the results numpy gives when an operand has no elements. An empty output
 * is a tensor with no intervals and no program; a non-empty result of an
 * empty input (a sum over an empty axis, a mean's NaN, a weight gradient)
 * is a tensor filled by a Fill vertex per interval, so every run writes it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"

bool ipu__empty(const struct ipu_graph *g, int t)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);

	return x && !x->elements;
}

uint64_t ipu__shape_count(unsigned rank, const uint32_t *shape)
{
	uint64_t n = 1;

	for (unsigned i = 0; i < rank; i++)
		n *= shape[i];
	return n;
}

int ipu__filled(struct ipu_graph *g, int seq, const char *name, unsigned dtype, unsigned rank,
		const uint32_t *shape, uint32_t bits, struct ipu_error *err)
{
	char buf[256];
	const struct ipu__tensor *t;
	int out, cs, r;

	out = ipu_graph_add_tensor(g, name, dtype, rank, shape, err);
	if (out < 0)
		return out;
	if ((r = ipu_graph_map_linear(g, out, 1, err)))
		return r;
	t = ipu__graph_tensor(g, out);
	if (!t->elements)
		return out;
	snprintf(buf, sizeof(buf), "%s/fill", name);
	if ((cs = ipu_graph_add_compute_set(g, buf, err)) < 0)
		return cs;
	for (size_t i = 0; i < t->niv; i++) {
		struct ipu__rawfield f = { t->iv[i].off, (uint32_t)t->iv[i].count, t->dtype, out, t->iv[i].begin };

		if ((r = ipu__add_vertex_raw(g, cs, IPUE_CODELET_FILL, t->iv[i].tile, &f, 1, &bits, 1, err)) < 0)
			return r;
		t = ipu__graph_tensor(g, out);
	}
	if ((r = ipu_prog_append(g, seq, ipu_prog_execute(g, cs, err), err)))
		return r;
	return out;
}

int ipu__zeros(struct ipu_graph *g, int seq, const char *name, unsigned dtype, unsigned rank,
	       const uint32_t *shape, struct ipu_error *err)
{
	return ipu__filled(g, seq, name, dtype, rank, shape, 0, err);
}

int ipu__empty_output(struct ipu_graph *g, const char *name, unsigned dtype, unsigned rank,
		      const uint32_t *shape, struct ipu_error *err)
{
	uint32_t s[IPU_MAX_RANK];

	/* a copy: shape may be a tensor's, which adding a tensor moves */
	memcpy(s, shape, rank * sizeof(*s));
	if (ipu__shape_count(rank, s))
		return ipu__err(err, -EINVAL, "tensor '%s': internal error: an empty output with elements", name);
	return ipu_graph_add_tensor(g, name, dtype, rank, s, err);
}

int ipu__refuse_empty(const struct ipu_graph *g, int t, const char *op, const char *name, const char *why,
		      struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);
	char s[96];

	if (!x || x->elements)
		return 0;
	return ipu__err(err, -EINVAL, "%s '%s': tensor '%s' %s is empty: %s", op, name ? name : "", x->name,
			ipu__shape_str(s, sizeof(s), x->rank, x->shape), why);
}
