// SPDX-License-Identifier: MIT
/*
 * Graph memory options and the memory report (docs/builder.md, Memory):
 * the plan of memplan.c by tile and category, as PopVision's memory view.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"

IPU_API int ipu_graph_set_option(struct ipu_graph *g, const char *key, const char *value,
				 struct ipu_error *err)
{
	if (!g || !key || !value)
		return ipu__err(err, -EINVAL, "ipu_graph_set_option: NULL argument");
	if (!strcmp(key, "memory.reuse")) {
		int on = !strcmp(value, "true");

		if (!on && strcmp(value, "false"))
			return ipu__err(err, -EINVAL, "option memory.reuse: '%s' is not true or false", value);
		if (on != g->reuse && g->nal)
			return ipu__err(err, -EBUSY, "option memory.reuse: set it before the graph's "
					"first allocation (%zu made)", g->nal);
		g->reuse = on;
		return 0;
	}
	if (!strcmp(key, "availableMemoryProportion")) {
		char *end;
		double v = strtod(value, &end);

		if (end == value || *end || !(v > 0 && v <= 1))
			return ipu__err(err, -EINVAL, "option availableMemoryProportion: '%s' is not a "
					"number in (0, 1]", value);
		g->amp = v;
		return 0;
	}
	return ipu__err(err, -EINVAL, "ipu_graph_set_option: unknown option '%s' (known: memory.reuse, "
			"availableMemoryProportion)", key);
}

IPU_API void ipu_memory_report_free(struct ipu_memory_report *r)
{
	if (!r)
		return;
	free(r->tile);
	r->tile = NULL;
}

/* per tile: the data volumes of the plan's allocations */
static void report_data(const struct ipu__memplan *p, struct ipu_memory_report *out)
{
	for (size_t i = 0; i < p->n; i++) {
		struct ipu_tile_memory *t = &out->tile[p->r[i].tile];

		if (p->tensor[i])
			t->tensor_data += p->r[i].bytes;
		else
			t->buffers += p->r[i].bytes;
	}
	for (uint32_t k = 0; k < out->tiles; k++) {
		struct ipu_tile_memory *t = &out->tile[k];

		t->tile = k;
		t->total = p->top[k];
		t->always_live = p->live[k];
		t->not_always_live = p->top[k] - p->live[k];
		t->temporaries = p->temp[k];
	}
}

/* per tile: vertices and copies as the binary holds them (and the control program) */
static void report_records(const struct ipu_graph *g, struct ipu_memory_report *out)
{
	for (size_t v = 0; v < g->nv; v++) {
		struct ipu_tile_memory *t = &out->tile[g->v[v].tile];

		t->vertices++;
		t->vertex_state += (uint32_t)(sizeof(struct ipu_graph_vertex) +
					      g->v[v].nfields * sizeof(struct ipu_graph_field) +
					      g->v[v].nparams * sizeof(uint32_t));
	}
	for (size_t x = 0; x < g->nex; x++)
		for (size_t i = 0; i < g->ex[x].n; i++) {
			const struct ipu_graph_copy *c = &g->ex[x].c[i];

			out->tile[c->src_tile].exchange += sizeof(*c);
			if (c->dst_tile != c->src_tile)
				out->tile[c->dst_tile].exchange += sizeof(*c);
		}
	for (size_t n = 0; n < g->nn; n++)
		out->control_program += sizeof(struct ipu_graph_prog_node) + g->nodes[n].nch * sizeof(uint32_t);
	out->control_program += g->ne * sizeof(struct ipu_graph_entry);
}

void ipu__memory_report_sums(struct ipu_memory_report *out)
{
	for (uint32_t k = 0; k < out->tiles; k++) {
		const struct ipu_tile_memory *t = &out->tile[k];

		out->total += t->total;
		out->always_live += t->always_live;
		out->not_always_live += t->not_always_live;
		out->temporaries += t->temporaries;
		out->tensor_data += t->tensor_data;
		out->buffers += t->buffers;
		out->vertex_state += t->vertex_state;
		out->exchange += t->exchange;
		if (t->total > out->tile[out->peak_tile].total)
			out->peak_tile = k;
	}
}

IPU_API int ipu_graph_memory_report(const struct ipu_graph *g, struct ipu_memory_report *out,
				    struct ipu_error *err)
{
	struct ipu__memplan p;

	if (!out)
		return ipu__err(err, -EINVAL, "ipu_graph_memory_report: out is NULL");
	memset(out, 0, sizeof(*out));
	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_memory_report: graph is NULL");
	out->tile = calloc(g->tiles, sizeof(*out->tile));
	if (!out->tile || ipu__memplan_make(g, &p)) {
		ipu_memory_report_free(out);
		return ipu__err(err, -ENOMEM, "ipu_graph_memory_report: out of memory");
	}
	out->tiles = g->tiles;
	out->tile_memory = g->tile_mem;
	report_data(&p, out);
	report_records(g, out);
	ipu__memory_report_sums(out);
	ipu__memplan_free(&p);
	return 0;
}
