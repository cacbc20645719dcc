// SPDX-License-Identifier: MIT
/*
 * Replicated graphs written as multi-IPU binaries (docs/builder.md
 * "Replication"): the planned graph of one replica repeated on each
 * replica's IPU. Tensors gain a leading dimension of the replicas (row r =
 * replica r's), tile plans, vertices and copies repeat with their tiles
 * moved to IPU r, compute sets and exchanges hold every replica's
 * vertices and copies (so the replicas run in the same supersteps), and
 * the collectives' copies between replicas (IPU__COPY_REPLICA) are
 * written once, at the replicas they join.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"

/* tensor t of one replica as the tensor [R, shape...] of all of them. 0 or -ENOMEM. */
static int rep_tensor(const struct ipu__tensor *t, uint32_t R, uint32_t T, struct ipu__tensor *o)
{
	size_t es = ipu_dtype_size(t->dtype);

	*o = *t;
	o->rank = (uint8_t)(t->rank + 1);
	o->shape[0] = R;
	for (unsigned d = 0; d < t->rank; d++)
		o->shape[d + 1] = t->shape[d];
	o->elements = t->elements * R;
	o->mapped = t->mapped * R;
	o->niv = o->civ = t->niv * R;
	o->iv = malloc((o->niv ? o->niv : 1) * sizeof(*o->iv));
	o->init = NULL;
	if (!o->iv)
		return -ENOMEM;
	for (uint32_t r = 0; r < R; r++)
		for (size_t k = 0; k < t->niv; k++) {
			struct ipu__iv *iv = &o->iv[r * t->niv + k];

			*iv = t->iv[k];
			iv->begin += r * t->elements;
			iv->tile += r * T;
		}
	if (!t->init)
		return 0;
	o->init = malloc(o->elements * es);
	if (!o->init)
		return -ENOMEM;
	for (uint32_t r = 0; r < R; r++)
		memcpy((char *)o->init + r * t->elements * es, t->init, t->elements * es);
	return 0;
}

/* the vertices repeated per replica, and each compute set's list of them. 0 or -ENOMEM. */
static int rep_vertices(const struct ipu_graph *v, struct ipu_graph *e)
{
	uint32_t R = v->replicas, T = v->tiles_per_ipu;

	e->nv = e->cv = v->nv * R;
	e->v = malloc((e->nv ? e->nv : 1) * sizeof(*e->v));
	e->cs = calloc(v->ncs ? v->ncs : 1, sizeof(*e->cs));
	if (!e->v || !e->cs)
		return -ENOMEM;
	for (uint32_t r = 0; r < R; r++)
		for (size_t k = 0; k < v->nv; k++) {
			e->v[r * v->nv + k] = v->v[k];
			e->v[r * v->nv + k].tile += r * T;
		}
	for (size_t i = 0; i < v->ncs; i++) {
		const struct ipu__cs *c = &v->cs[i];

		e->cs[i].name = c->name;
		e->cs[i].n = e->cs[i].cap = c->n * R;
		e->cs[i].v = malloc((e->cs[i].n ? e->cs[i].n : 1) * sizeof(*e->cs[i].v));
		if (!e->cs[i].v)
			return -ENOMEM;
		for (uint32_t r = 0; r < R; r++)
			for (size_t k = 0; k < c->n; k++)
				e->cs[i].v[r * c->n + k] = c->v[k] + r * (uint32_t)v->nv;
	}
	return 0;
}

/* each exchange's copies: a replica's repeated per replica, a collective's once. 0 or -ENOMEM. */
static int rep_copies(const struct ipu_graph *v, struct ipu_graph *e)
{
	uint32_t R = v->replicas, T = v->tiles_per_ipu;

	e->ex = calloc(v->nex ? v->nex : 1, sizeof(*e->ex));
	if (!e->ex)
		return -ENOMEM;
	for (size_t x = 0; x < v->nex; x++) {
		const struct ipu__ex *in = &v->ex[x];
		struct ipu__ex *o = &e->ex[x];

		o->name = in->name;
		o->c = malloc((in->n ? in->n * R : 1) * sizeof(*o->c));
		if (!o->c)
			return -ENOMEM;
		for (uint32_t r = 0; r < R; r++)
			for (size_t i = 0; i < in->n; i++) {
				struct ipu_graph_copy c = in->c[i];

				if (c.reserved & IPU__COPY_REPLICA) {
					if (r)
						continue;	/* written once */
					c.src_tile += IPU__COPY_SRC_REP(c.reserved) * T;
					c.dst_tile += IPU__COPY_DST_REP(c.reserved) * T;
				} else {
					c.src_tile += r * T;
					c.dst_tile += r * T;
				}
				c.reserved = 0;
				o->c[o->n++] = c;
			}
		o->cap = o->n;
	}
	return 0;
}

int ipu__replicate(const struct ipu_graph *v, struct ipu_graph *e, struct ipu_error *err)
{
	uint32_t R = v->replicas, T = v->tiles_per_ipu;

	for (size_t i = 0; i < v->nt; i++)
		if (v->t[i].rank >= IPU_GRAPH_MAX_RANK)
			return ipu__err(err, -EINVAL, "replicated graph: tensor '%s' has rank %u: "
					"replicated over %u IPUs it would have %u (at most %d)",
					v->t[i].name, v->t[i].rank, R, v->t[i].rank + 1,
					IPU_GRAPH_MAX_RANK);
	*e = *v;
	e->t = NULL;
	e->v = NULL;
	e->cs = NULL;
	e->ex = NULL;
	e->tiles = R * T;
	e->top = malloc((size_t)R * T * sizeof(*e->top));
	e->t = calloc(v->nt ? v->nt : 1, sizeof(*e->t));
	if (!e->top || !e->t)
		goto nomem;
	for (uint32_t r = 0; r < R; r++)
		memcpy(e->top + (size_t)r * T, v->top, T * sizeof(*e->top));
	for (size_t i = 0; i < v->nt; i++)
		if (rep_tensor(&v->t[i], R, T, &e->t[i]))
			goto nomem;
	if (rep_vertices(v, e) || rep_copies(v, e))
		goto nomem;
	return 0;
nomem:
	ipu__replicate_free(e);
	return ipu__err(err, -ENOMEM, "replicated graph: out of memory");
}

void ipu__replicate_free(struct ipu_graph *e)
{
	if (e->t)
		for (size_t i = 0; i < e->nt; i++) {
			free(e->t[i].iv);
			free(e->t[i].init);
		}
	if (e->cs)
		for (size_t i = 0; i < e->ncs; i++)
			free(e->cs[i].v);
	if (e->ex)
		for (size_t x = 0; x < e->nex; x++)
			free(e->ex[x].c);
	free(e->t);
	free(e->v);
	free(e->cs);
	free(e->ex);
	free(e->top);
	e->t = NULL;
	e->v = NULL;
	e->cs = NULL;
	e->ex = NULL;
	e->top = NULL;
}
