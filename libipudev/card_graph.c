// SPDX-License-Identifier: MIT
/*
 * libipudev: the graph binary as the card backend sees it. Before a LOAD
 * the library checks the container with the engine's reader
 * (ipue_container_read(), qemu-device/engine/graph_container.c), so a
 * binary the card's loader would refuse for its header, section table or
 * record sizes is refused here with the loader's own words, without a
 * command. After the card took the graph the library keeps its host-visible
 * part (handles, entry programs, streams) to turn names into the card's
 * indices; the records themselves are the card's loader's to judge.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "card.h"
#include "graph_packed.h"
#include "ipu/graph_format.h"

void ipu__graph_table_free(struct ipu__graph_table *t)
{
	if (!t)
		return;
	for (unsigned i = 0; i < t->nhandles; i++)
		free(t->handles[i].name);
	free(t->handles);
	for (unsigned i = 0; i < t->nprograms; i++)
		free(t->programs[i]);
	free(t->programs);
	for (unsigned i = 0; i < t->nstreams; i++)
		free(t->streams[i].name);
	free(t->streams);
	memset(t, 0, sizeof(*t));
}

int ipu__graph_precheck(const void *bin, size_t len, uint32_t model,
			struct ipue_container *c, struct ipue_load_error *le)
{
	memset(le, 0, sizeof(*le));
	if (ipue_container_read(bin, len, c, le))
		return -EINVAL;
	if (model && c->h.model != model) {
		/* the engine's words; ipu__card_load() names the models */
		ipue_load_errorf(le, 0, IPU_GRAPH_NONE,
				 "graph targets model %u, engine is model %u",
				 c->h.model, model);
		le->status = IPUE_EMODEL;
		return -EINVAL;
	}
	return 0;
}

/* the string at @ref of the STRINGS blob, NULL when it is not one */
static const char *gstr(const struct ipue_container *c, uint32_t ref)
{
	const struct ipue_section *s = &c->s[IPU_GRAPH_SEC_STRINGS];
	const char *p;

	if (ref == IPU_GRAPH_NONE)
		return "";
	if (!s->p || ref >= s->size)
		return NULL;
	p = (const char *)s->p + ref;
	return memchr(p, 0, s->size - ref) ? p : NULL;
}

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -EINVAL)

/* handle @i: its name and its tensor's dtype, shape and size */
static int read_handle(const struct ipue_container *c, uint32_t i,
		       struct ipu__graph_handle *o, char *why, size_t whylen)
{
	struct ipu_graph_host_handle hh;
	struct ipu_graph_tensor tr;
	const char *name;
	unsigned esz;

	ipue_container_rec(c, IPU_GRAPH_SEC_HOST_HANDLES, i, &hh);
	name = gstr(c, hh.name);
	if (!name)
		return WHY("host_handles record %u: bad name string %u", i, hh.name);
	if (hh.tensor >= c->s[IPU_GRAPH_SEC_TENSORS].count)
		return WHY("host_handles record %u: tensor %u out of range (%u tensors)",
			   i, hh.tensor, c->s[IPU_GRAPH_SEC_TENSORS].count);
	ipue_container_rec(c, IPU_GRAPH_SEC_TENSORS, hh.tensor, &tr);
	esz = ipu_dtype_size(tr.dtype);
	if (!esz || tr.rank > IPU_GRAPH_MAX_RANK || tr.elements > UINT64_MAX / esz)
		return WHY("tensors record %u: bad dtype %u / rank %u",
			   hh.tensor, tr.dtype, tr.rank);
	o->name = strdup(name);
	if (!o->name)
		return -ENOMEM;
	o->tensor = hh.tensor;
	o->access = hh.access;
	o->dtype = tr.dtype;
	o->rank = tr.rank;
	for (unsigned d = 0; d < tr.rank; d++)
		o->shape[d] = tr.shape[d];
	o->elements = tr.elements;
	o->bytes = tr.elements * esz;
	return 0;
}

/* entry @i: its name */
static int read_program(const struct ipue_container *c, uint32_t i,
			char **o, char *why, size_t whylen)
{
	struct ipu_graph_entry en;
	const char *name;

	ipue_container_rec(c, IPU_GRAPH_SEC_ENTRIES, i, &en);
	name = gstr(c, en.name);
	if (!name)
		return WHY("entries record %u: bad name string %u", i, en.name);
	*o = strdup(name);
	return *o ? 0 : -ENOMEM;
}

/* stream @i: its name, direction and bytes per transfer */
static int read_stream(const struct ipue_container *c, uint32_t i,
		       struct ipu__graph_stream *o, char *why, size_t whylen)
{
	struct ipu_graph_stream gs;
	const char *name;
	unsigned esz;

	ipue_container_rec(c, IPU_GRAPH_SEC_STREAMS, i, &gs);
	name = gstr(c, gs.name);
	esz = ipu_dtype_size(gs.dtype);
	if (!name || !esz)
		return WHY("streams record %u: bad name %u / dtype %u", i,
			   gs.name, gs.dtype);
	o->name = strdup(name);
	if (!o->name)
		return -ENOMEM;
	o->direction = gs.direction;
	o->bytes = (uint64_t)gs.elements * esz;
	return 0;
}

/*
 * Each stream's IPU: that of the first interval of the tensor of the first
 * StreamCopy node of it (the format puts a StreamCopy's tensor on one
 * IPU), for the group backend, which binds the stream on that member
 * only. Indices out of range are skipped (the card's loader judges them).
 * 0 or -ENOMEM.
 */
static int read_stream_ipus(const struct ipue_container *c0, struct ipu__graph_table *t)
{
	struct ipue_container c = *c0;	/* unpacked records go in the copy */
	uint8_t *bufs[IPU_GRAPH_SEC_COUNT_] = { 0 };
	uint32_t tiles_per_ipu = 0, nn, nt, ni;
	int r = 0;

	for (unsigned s = 0; s < t->nstreams; s++)
		t->streams[s].ipu = -1;
	if (c.s[IPU_GRAPH_SEC_IPUS].count) {
		struct ipu_graph_ipus ip;

		ipue_container_rec(&c, IPU_GRAPH_SEC_IPUS, 0, &ip);
		tiles_per_ipu = ip.tiles_per_ipu;
	}
	if (ipue_packed_unpack(&c, bufs))
		r = -ENOMEM;
	nn = c.s[IPU_GRAPH_SEC_PROGRAM_NODES].count;
	nt = c.s[IPU_GRAPH_SEC_TENSORS].count;
	ni = c.s[IPU_GRAPH_SEC_INTERVALS].count;
	for (uint32_t i = 0; !r && i < nn; i++) {
		struct ipu_graph_prog_node n;
		struct ipu_graph_tensor tr;
		struct ipu_graph_interval iv;

		ipue_container_rec(&c, IPU_GRAPH_SEC_PROGRAM_NODES, i, &n);
		if (n.kind != IPU_PROG_STREAM_COPY || n.a >= t->nstreams || n.b >= nt ||
		    t->streams[n.a].ipu >= 0)
			continue;
		ipue_container_rec(&c, IPU_GRAPH_SEC_TENSORS, n.b, &tr);
		if (!tr.interval_count || tr.first_interval >= ni)
			continue;
		ipue_container_rec(&c, IPU_GRAPH_SEC_INTERVALS, tr.first_interval, &iv);
		t->streams[n.a].ipu = tiles_per_ipu ? (int)(iv.tile / tiles_per_ipu) : 0;
	}
	for (unsigned k = 0; k < IPU_GRAPH_SEC_COUNT_; k++)
		free(bufs[k]);
	return r;
}

int ipu__graph_table_read(const struct ipue_container *c,
			  struct ipu__graph_table *t, char *why, size_t whylen)
{
	uint32_t nh = c->s[IPU_GRAPH_SEC_HOST_HANDLES].count;
	uint32_t ne = c->s[IPU_GRAPH_SEC_ENTRIES].count;
	uint32_t ns = c->s[IPU_GRAPH_SEC_STREAMS].count;
	int r = 0;

	memset(t, 0, sizeof(*t));
	t->model = c->h.model;
	/* zeroed arrays, counts set up front: a failure frees what was filled */
	if ((nh && !(t->handles = calloc(nh, sizeof(*t->handles)))) ||
	    (ne && !(t->programs = calloc(ne, sizeof(*t->programs)))) ||
	    (ns && !(t->streams = calloc(ns, sizeof(*t->streams)))))
		r = -ENOMEM;
	else {
		t->nhandles = nh;
		t->nprograms = ne;
		t->nstreams = ns;
	}
	for (uint32_t i = 0; !r && i < nh; i++)
		r = read_handle(c, i, &t->handles[i], why, whylen);
	for (uint32_t i = 0; !r && i < ne; i++)
		r = read_program(c, i, &t->programs[i], why, whylen);
	for (uint32_t i = 0; !r && i < ns; i++)
		r = read_stream(c, i, &t->streams[i], why, whylen);
	if (!r)
		r = read_stream_ipus(c, t);
	if (r)
		ipu__graph_table_free(t);
	return r;
}

int ipu__graph_table_parse(const void *bin, size_t len,
			   struct ipu__graph_table *t, char *why, size_t whylen)
{
	struct ipue_container c;
	struct ipue_load_error le;

	memset(t, 0, sizeof(*t));
	if (ipu__graph_precheck(bin, len, 0, &c, &le)) {
		if (le.record != IPU_GRAPH_NONE)
			return WHY("%s record %u: %s", le.section_name, le.record,
				   le.message);
		return WHY("%s: %s", le.section_name, le.message);
	}
	return ipu__graph_table_read(&c, t, why, whylen);
}
