// SPDX-License-Identifier: MIT
/*
 * The memory report of a graph binary (docs/builder.md, Memory): the same
 * struct ipu_memory_report as ipu_graph_memory_report(), read from the tile
 * plans and the optional memory_regions section (docs/graph-format.md),
 * through the one container reader.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "graph_container.h"
#include "graph_packed.h"
#include "ipu/ipu_models.h"

/* tile plans and regions; -EINVAL naming the record when one is out of range */
static int bin_data(const struct ipue_container *c, struct ipu_memory_report *out, struct ipu_error *err)
{
	for (uint32_t i = 0; i < c->s[IPU_GRAPH_SEC_TILE_PLANS].count; i++) {
		struct ipu_graph_tile_plan tp;

		ipue_container_rec(c, IPU_GRAPH_SEC_TILE_PLANS, i, &tp);
		if (tp.tile >= out->tiles)
			return ipu__err(err, -EINVAL, "graph binary: tile plan %u: tile %u out of range", i, tp.tile);
		out->tile[tp.tile].total = tp.bytes;
	}
	for (uint32_t i = 0; i < c->s[IPU_GRAPH_SEC_MEMORY_REGIONS].count; i++) {
		struct ipu_graph_mem_region mr;
		struct ipu_tile_memory *t;
		uint64_t end;

		ipue_container_rec(c, IPU_GRAPH_SEC_MEMORY_REGIONS, i, &mr);
		end = (uint64_t)mr.tile_offset + mr.bytes;
		if (mr.tile >= out->tiles || end > out->tile[mr.tile].total)
			return ipu__err(err, -EINVAL, "graph binary: memory region %u: tile %u bytes [%u, +%u) "
					"outside the tile's plan", i, mr.tile, mr.tile_offset, mr.bytes);
		t = &out->tile[mr.tile];
		if (mr.flags & IPU_GRAPH_REGION_ALWAYS_LIVE) {
			if (end > t->always_live)
				t->always_live = (uint32_t)end;
		} else {
			t->temporaries += mr.bytes;
		}
		if (mr.flags & IPU_GRAPH_REGION_TENSOR)
			t->tensor_data += mr.bytes;
		else
			t->buffers += mr.bytes;
	}
	for (uint32_t k = 0; k < out->tiles; k++) {
		out->tile[k].tile = k;
		if (!c->s[IPU_GRAPH_SEC_MEMORY_REGIONS].count)	/* no plan recorded: all live */
			out->tile[k].always_live = out->tile[k].total;
		out->tile[k].not_always_live = out->tile[k].total - out->tile[k].always_live;
	}
	return 0;
}

/* vertices, copies and the control program; -EINVAL for a tile out of range */
static int bin_records(const struct ipue_container *c, struct ipu_memory_report *out, struct ipu_error *err)
{
	for (uint32_t i = 0; i < c->s[IPU_GRAPH_SEC_VERTICES].count; i++) {
		struct ipu_graph_vertex v;

		ipue_container_rec(c, IPU_GRAPH_SEC_VERTICES, i, &v);
		if (v.tile >= out->tiles)
			return ipu__err(err, -EINVAL, "graph binary: vertex %u: tile %u out of range", i, v.tile);
		out->tile[v.tile].vertices++;
		out->tile[v.tile].vertex_state += (uint32_t)(sizeof(v) + v.nfields * sizeof(struct ipu_graph_field) +
							     v.nparams * sizeof(uint32_t));
	}
	for (uint32_t i = 0; i < c->s[IPU_GRAPH_SEC_COPIES].count; i++) {
		struct ipu_graph_copy cp;

		ipue_container_rec(c, IPU_GRAPH_SEC_COPIES, i, &cp);
		if (cp.src_tile >= out->tiles || cp.dst_tile >= out->tiles)
			return ipu__err(err, -EINVAL, "graph binary: copy %u: tile out of range", i);
		out->tile[cp.src_tile].exchange += sizeof(cp);
		if (cp.dst_tile != cp.src_tile)
			out->tile[cp.dst_tile].exchange += sizeof(cp);
	}
	out->control_program = (uint64_t)c->s[IPU_GRAPH_SEC_PROGRAM_NODES].count * sizeof(struct ipu_graph_prog_node) +
			       (uint64_t)c->s[IPU_GRAPH_SEC_PROGRAM_CHILDREN].count * sizeof(uint32_t) +
			       (uint64_t)c->s[IPU_GRAPH_SEC_ENTRIES].count * sizeof(struct ipu_graph_entry);
	return 0;
}

IPU_API int ipu_graph_binary_memory_report(const void *bin, size_t len, struct ipu_memory_report *out,
					   struct ipu_error *err)
{
	uint8_t *unpacked[IPU_GRAPH_SEC_COUNT_] = { 0 };
	struct ipue_container c;
	struct ipue_load_error le;
	struct ipu_graph_ipus ip = { 1, 0, 0, 0 };
	const struct ipu_model *m;
	int r;

	if (!out)
		return ipu__err(err, -EINVAL, "ipu_graph_binary_memory_report: out is NULL");
	memset(out, 0, sizeof(*out));
	if (!bin)
		return ipu__err(err, -EINVAL, "ipu_graph_binary_memory_report: no binary");
	if (ipue_container_read(bin, len, &c, &le))
		return ipu__err(err, -EINVAL, "graph binary: %s: %s", le.section_name, le.message);
	m = ipu_model_by_id(c.h.model);
	if (!m)
		return ipu__err(err, -EINVAL, "graph binary: unknown model %u", c.h.model);
	/* a multi-IPU binary numbers the tiles of all its IPUs (global tiles) */
	if (c.s[IPU_GRAPH_SEC_IPUS].count)
		ipue_container_rec(&c, IPU_GRAPH_SEC_IPUS, 0, &ip);
	if (!ipu_graph_ipus_ok(ip.ipus))
		return ipu__err(err, -EINVAL, "graph binary: ipus: %u IPUs", ip.ipus);
	out->tile = calloc((size_t)m->tiles * ip.ipus, sizeof(*out->tile));
	/* a compact binary's packed tables become plain records first */
	if (!out->tile || ipue_packed_unpack(&c, unpacked)) {
		for (unsigned k = 0; k < IPU_GRAPH_SEC_COUNT_; k++)
			free(unpacked[k]);
		free(out->tile);
		out->tile = NULL;
		return ipu__err(err, -ENOMEM, "ipu_graph_binary_memory_report: out of memory");
	}
	out->tiles = m->tiles * ip.ipus;
	out->tile_memory = m->tile_mem;
	r = bin_data(&c, out, err);
	if (!r)
		r = bin_records(&c, out, err);
	for (unsigned k = 0; k < IPU_GRAPH_SEC_COUNT_; k++)
		free(unpacked[k]);
	if (r) {
		ipu_memory_report_free(out);
		return r;
	}
	ipu__memory_report_sums(out);
	return 0;
}
