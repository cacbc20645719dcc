// SPDX-License-Identifier: MIT
/*
 * ipu_map(): a fused elementwise expression (popops::map) as one compute
 * set of Map vertices. The inputs broadcast onto the output's shape with
 * partition.c's plan (ipu__bcast_plan, the one ipu_binary() uses); the
 * expression (expr.c) becomes each vertex's program. See docs/builder.md,
 * "Fused elementwise expressions".
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"
#include "expr_internal.h"

_Static_assert(IPU__BCAST_MAX >= IPU_EXPR_MAX_INPUTS, "the plan takes every input");

/* a map being built */
struct map {
	const char *name;	/* for messages: @name or "(in place)" */
	unsigned n;
	const int *in;
	uint8_t indt[IPU_EXPR_MAX_INPUTS];
	unsigned rank;
	uint32_t shape[IPU_MAX_RANK];
	uint32_t prm[IPUE_MAX_PARAMS];
	uint8_t dtype;		/* the expression's */
	int out;
};

/* the inputs exist and are mapped; their broadcast shape into x; 0 or -EINVAL */
static int map_inputs(const struct ipu_graph *g, struct map *x, struct ipu_error *err)
{
	char s1[96], s2[96];

	x->rank = 0;
	for (unsigned k = 0; k < x->n; k++) {
		const struct ipu__tensor *t = ipu__graph_tensor(g, x->in[k]);

		if (!t)
			return ipu__err(err, -EINVAL, "ipu_map '%s': no tensor %d (input %u)", x->name, x->in[k], k);
		if (t->mapped != t->elements)
			return ipu__err(err, -EINVAL, "ipu_map '%s': tensor '%s' is not fully mapped to tiles",
					x->name, t->name);
		x->indt[k] = t->dtype;
		for (unsigned i = 0; i < t->rank; i++) {
			unsigned xi = IPU_MAX_RANK - t->rank + i;	/* right-aligned in x->shape */
			uint32_t d = t->shape[i], *o = &x->shape[xi];

			if (IPU_MAX_RANK - xi > x->rank) {
				*o = d;
			} else if (*o != d && *o != 1 && d != 1) {
				ipu__shape_str(s1, sizeof(s1), t->rank, t->shape);
				ipu__shape_str(s2, sizeof(s2), x->rank, x->shape + IPU_MAX_RANK - x->rank);
				return ipu__err(err, -EINVAL, "ipu_map '%s': input %u '%s' %s does not broadcast with "
						"the inputs before it %s (numpy rules, shapes right-aligned)", x->name,
						k, t->name, s1, s2);
			} else if (*o == 1) {
				*o = d;
			}
		}
		if (t->rank > x->rank)
			x->rank = t->rank;
	}
	memmove(x->shape, x->shape + IPU_MAX_RANK - x->rank, x->rank * sizeof(*x->shape));
	return 0;
}

static int same_shape(const struct ipu__tensor *t, const struct map *x)
{
	return t->rank == x->rank && !memcmp(t->shape, x->shape, x->rank * sizeof(*x->shape));
}

/* the output: input 0 in place, else @name like the first input of its shape (or linear) */
static int map_output(struct ipu_graph *g, struct map *x, const char *name, struct ipu_error *err)
{
	const struct ipu__tensor *t0 = ipu__graph_tensor(g, x->in[0]);
	char s0[96], s1[96];
	int r;

	if (!name) {
		if (!same_shape(t0, x) || t0->dtype != x->dtype)
			return ipu__err(err, -EINVAL, "ipu_map (in place): input 0 '%s' is %s %s, the result is %s "
					"%s", t0->name, ipu_dtype_name(t0->dtype),
					ipu__shape_str(s0, sizeof(s0), t0->rank, t0->shape), ipu_dtype_name(x->dtype),
					ipu__shape_str(s1, sizeof(s1), x->rank, x->shape));
		return x->in[0];
	}
	for (unsigned k = 0; k < x->n; k++)
		if (same_shape(ipu__graph_tensor(g, x->in[k]), x))
			return ipu__output_like(g, name, x->in[k], x->dtype, err);
	if ((x->out = ipu_graph_add_tensor(g, name, x->dtype, x->rank, x->shape, err)) < 0)
		return x->out;
	if ((r = ipu_graph_map_linear(g, x->out, 0, err)))
		return r;
	return x->out;
}

/* one Map vertex per planned piece, in compute set cs */
static int map_vertices(struct ipu_graph *g, const struct map *x, int cs, const struct ipu__bcast_vertex *vs,
			long nv, struct ipu_error *err)
{
	for (long i = 0; i < nv; i++) {
		const struct ipu__bcast_vertex *v = &vs[i];
		struct ipu__rawfield f[IPU_EXPR_MAX_INPUTS + 1];
		int r;

		for (unsigned k = 0; k < x->n; k++)
			f[k] = (struct ipu__rawfield){ v->boff[k], v->bcount[k], x->indt[k], x->in[k], 0 };
		f[x->n] = (struct ipu__rawfield){ v->aoff, (uint32_t)v->n, x->dtype, x->out, v->e };
		r = ipu__add_vertex_raw(g, cs, IPUE_CODELET_MAP(x->n), v->tile, f, x->n + 1, x->prm,
					IPUE_MAX_PARAMS, err);
		if (r < 0)
			return r;
	}
	return 0;
}

static int append(struct ipu_graph *g, int seq, int node, struct ipu_error *err)
{
	return node < 0 ? node : ipu_prog_append(g, seq, node, err);
}

/* the checks that need no tensor */
static int map_args(const struct ipu_graph *g, const struct ipu_expr *e, const int *inputs, unsigned n,
		    const char *name, struct ipu_error *err)
{
	const char *nm = name ? name : "(in place)";

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_map '%s': graph is NULL", nm);
	if (!e)
		return ipu__err(err, -EINVAL, "ipu_map '%s': expression is NULL", nm);
	if (!inputs || n < 1 || n > IPU_EXPR_MAX_INPUTS)
		return ipu__err(err, -EINVAL, "ipu_map '%s': %u inputs%s, must be 1 .. %u", nm, n,
				inputs ? "" : " (NULL)", IPU_EXPR_MAX_INPUTS);
	if (name && !*name)
		return ipu__err(err, -EINVAL, "ipu_map: the output's name is empty (NULL: in place)");
	if (name && ipu_graph_find_tensor(g, name) >= 0)
		return ipu__err(err, -EEXIST, "ipu_map: a tensor '%s' already exists", name);
	return 0;
}

IPU_API int ipu_map(struct ipu_graph *g, int seq, const struct ipu_expr *e, const int *inputs,
		    unsigned ninputs, const char *name, struct ipu_error *err)
{
	struct map x = { .name = name ? name : "(in place)", .n = ninputs, .in = inputs, .out = -1 };
	struct ipu__bcast_vertex *vs = NULL;
	char base[200], exname[216];
	unsigned used;
	long nv;
	int ex = -1, cs = -1, r;

	if ((r = map_args(g, e, inputs, ninputs, name, err)) || (r = map_inputs(g, &x, err)))
		return r;
	if ((r = ipu__expr_compile(e, x.n, x.indt, x.prm, &x.dtype, &used, "ipu_map", x.name, err)))
		return r;
	if ((x.out = map_output(g, &x, name, err)) < 0)
		return x.out;
	snprintf(base, sizeof(base), "%s", name ? name : ipu__graph_tensor(g, x.out)->name);
	snprintf(exname, sizeof(exname), "%s/operand", base);
	nv = ipu__bcast_plan(g, "ipu_map", x.out, x.in, x.n, &ex, exname, &vs, err);
	r = nv < 0 ? (int)nv : 0;
	if (!r && ex >= 0)
		r = append(g, seq, ipu_prog_exchange(g, ex, err), err);
	snprintf(exname, sizeof(exname), "%s/map", base);
	if (!r && (cs = ipu_graph_add_compute_set(g, exname, err)) < 0)
		r = cs;
	if (!r)
		r = map_vertices(g, &x, cs, vs, nv, err);
	if (!r)
		r = append(g, seq, ipu_prog_execute(g, cs, err), err);
	free(vs);
	return r < 0 ? r : x.out;
}
