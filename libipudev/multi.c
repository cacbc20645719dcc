// SPDX-License-Identifier: MIT
/*
 * Multi-IPU and replicated graphs: their constructors, the IPUs' global
 * tile ranges and mapping tensors to IPUs (docs/builder.md "Multi-IPU graphs"). The writing of their binaries is
 * builder.c's (the ipus section) and replicate.c's (the expansion).
 */
#include <errno.h>

#include "builder_internal.h"
#include "ipudev.h"

IPU_API int ipu_graph_create_multi(uint32_t model, unsigned ipus, struct ipu_graph **out,
				   struct ipu_error *err)
{
	return ipu__graph_new(model, ipus, 1, "ipu_graph_create_multi", out, err);
}

IPU_API int ipu_graph_create_replicated(uint32_t model, unsigned replicas, struct ipu_graph **out,
					struct ipu_error *err)
{
	return ipu__graph_new(model, replicas, replicas, "ipu_graph_create_replicated", out, err);
}

IPU_API unsigned ipu_graph_ipus(const struct ipu_graph *g)
{
	return g ? g->ipus : 0;
}

IPU_API unsigned ipu_graph_replicas(const struct ipu_graph *g)
{
	return g ? g->replicas : 0;
}

IPU_API unsigned ipu_graph_tiles_per_ipu(const struct ipu_graph *g)
{
	return g ? g->tiles_per_ipu : 0;
}

/* IPUs whose tiles the graph numbers: 1 for a replicated graph (one replica) */
static unsigned built_ipus(const struct ipu_graph *g)
{
	return g->tiles / g->tiles_per_ipu;
}

IPU_API int ipu_graph_ipu_tiles(const struct ipu_graph *g, unsigned ipu, unsigned *first,
				unsigned *count, struct ipu_error *err)
{
	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_ipu_tiles: graph is NULL");
	if (ipu >= built_ipus(g) && g->replicas > 1)
		return ipu__err(err, -EINVAL, "ipu_graph_ipu_tiles: no IPU %u: a replicated graph is "
				"built as one replica, on IPU 0", ipu);
	if (ipu >= built_ipus(g))
		return ipu__err(err, -EINVAL, "ipu_graph_ipu_tiles: no IPU %u: the graph has IPUs 0..%u",
				ipu, built_ipus(g) - 1);
	if (first)
		*first = ipu * g->tiles_per_ipu;
	if (count)
		*count = g->tiles_per_ipu;
	return 0;
}

IPU_API int ipu_graph_tile_ipu(const struct ipu_graph *g, unsigned tile, struct ipu_error *err)
{
	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_tile_ipu: graph is NULL");
	if (tile >= g->tiles)
		return ipu__err(err, -EINVAL, "ipu_graph_tile_ipu: tile %u does not exist: the graph "
				"has tiles 0..%u", tile, g->tiles - 1);
	return (int)(tile / g->tiles_per_ipu);
}

IPU_API int ipu_graph_map_ipu(struct ipu_graph *g, int tensor, unsigned ipu, uint64_t grain,
			      struct ipu_error *err)
{
	unsigned first, n;
	int r = ipu_graph_ipu_tiles(g, ipu, &first, &n, err);

	if (r)
		return r;
	return ipu__map_tiles(g, tensor, first, n, grain, "ipu_graph_map_ipu", err);
}

IPU_API int ipu_graph_map_rows_to_ipus(struct ipu_graph *g, int tensor, uint64_t grain,
				       struct ipu_error *err)
{
	const struct ipu__tensor *t;
	uint64_t n;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_map_rows_to_ipus: graph is NULL");
	t = ipu__graph_tensor(g, tensor);
	if (!t)
		return ipu__err(err, -EINVAL, "ipu_graph_map_rows_to_ipus: no tensor %d", tensor);
	if (t->rank < 1 || t->shape[0] != built_ipus(g))
		return ipu__err(err, -EINVAL, "ipu_graph_map_rows_to_ipus: tensor '%s' needs %u rows "
				"(one per IPU), has shape[0] = %u", t->name, built_ipus(g),
				t->rank ? t->shape[0] : 0);
	if (t->mapped)
		return ipu__err(err, -EINVAL, "ipu_graph_map_rows_to_ipus: tensor '%s' is already "
				"partly mapped", t->name);
	n = t->elements / t->shape[0];
	if (!grain)
		grain = 1;
	for (unsigned i = 0; i < t->shape[0]; i++) {
		uint64_t chunks = (n + grain - 1) / grain;
		uint64_t per = (chunks + g->tiles_per_ipu - 1) / g->tiles_per_ipu;

		for (uint64_t b = 0, tile = 0; b < n; tile++) {
			uint64_t c = per * grain < n - b ? per * grain : n - b;
			int r = ipu_graph_map(g, tensor, i * n + b, c,
					      (unsigned)(i * g->tiles_per_ipu + tile), err);

			if (r)
				return r;
			b += c;
		}
	}
	return 0;
}

int ipu__tensor_ipu(const struct ipu_graph *g, int tensor)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, tensor);
	unsigned ipu;

	if (!t || !t->niv || built_ipus(g) < 2)
		return -1;
	ipu = t->iv[0].tile / g->tiles_per_ipu;
	for (size_t k = 1; k < t->niv; k++)
		if (t->iv[k].tile / g->tiles_per_ipu != ipu)
			return -1;
	return (int)ipu;
}
