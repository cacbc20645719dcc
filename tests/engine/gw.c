/* SPDX-License-Identifier: MIT */
/* Test-only graph writer, see gw.h. */
#include "gw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libipudev/graph_pack.h"
#include "ipu/ipu_models.h"

struct buf {
	uint8_t *p;
	size_t len, cap;
};

struct raw {
	uint32_t type, flags, entsize;
	struct buf b;
};

struct gw {
	uint32_t model;
	struct buf s[IPU_GRAPH_SEC_COUNT_];
	struct raw raw[8];
	unsigned nraw;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "gw: out of memory\n");
		abort();
	}
	return p;
}

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

/* records written so far in section type */
static uint32_t nrec(const struct gw *w, uint32_t type)
{
	return (uint32_t)(w->s[type].len / ipu_graph_record_size(type));
}

/* append one record; returns its index */
static uint32_t add(struct gw *w, uint32_t type, const void *r)
{
	uint32_t idx = nrec(w, type);

	put(&w->s[type], r, ipu_graph_record_size(type));
	return idx;
}

struct gw *gw_new(uint32_t model)
{
	struct gw *w = xrealloc(NULL, sizeof(*w));

	memset(w, 0, sizeof(*w));
	w->model = model;
	return w;
}

void gw_free(struct gw *w)
{
	if (!w)
		return;
	for (unsigned i = 0; i < IPU_GRAPH_SEC_COUNT_; i++)
		free(w->s[i].p);
	for (unsigned i = 0; i < w->nraw; i++)
		free(w->raw[i].b.p);
	free(w);
}

uint32_t gw_str(struct gw *w, const char *s)
{
	uint32_t off = (uint32_t)w->s[IPU_GRAPH_SEC_STRINGS].len;

	if (!s)
		return IPU_GRAPH_NONE;
	put(&w->s[IPU_GRAPH_SEC_STRINGS], s, strlen(s) + 1);
	return off;
}

void gw_ipus(struct gw *w, uint32_t ipus)
{
	const struct ipu_model *m = ipu_model_by_id(w->model);
	struct ipu_graph_ipus r = { .ipus = ipus, .tiles_per_ipu = m ? m->tiles : 0 };

	add(w, IPU_GRAPH_SEC_IPUS, &r);
}

void gw_plan(struct gw *w, uint32_t tile, uint32_t bytes)
{
	struct ipu_graph_tile_plan p = { .tile = tile, .bytes = bytes };

	add(w, IPU_GRAPH_SEC_TILE_PLANS, &p);
}

uint32_t gw_tensor(struct gw *w, const char *name, uint8_t dtype, uint8_t rank,
		   const uint32_t *shape, uint32_t n, const uint32_t *tiles,
		   const uint32_t *offs, const uint32_t *counts)
{
	struct ipu_graph_tensor t;
	uint64_t begin = 0, prod = 1;

	memset(&t, 0, sizeof(t));
	t.name = gw_str(w, name);
	t.dtype = dtype;
	t.rank = rank;
	for (unsigned d = 0; d < rank; d++) {
		t.shape[d] = shape[d];
		prod *= shape[d];
	}
	t.elements = prod;
	t.first_interval = nrec(w, IPU_GRAPH_SEC_INTERVALS);
	t.interval_count = n;
	for (uint32_t i = 0; i < n; i++) {
		struct ipu_graph_interval iv = { .begin = begin, .count = counts[i],
						 .tile = tiles[i], .tile_offset = offs[i] };

		add(w, IPU_GRAPH_SEC_INTERVALS, &iv);
		begin += counts[i];
	}
	return add(w, IPU_GRAPH_SEC_TENSORS, &t);
}

uint32_t gw_tensor1(struct gw *w, const char *name, uint8_t dtype, uint32_t elements,
		    uint32_t tile, uint32_t off)
{
	return gw_tensor(w, name, dtype, 1, &elements, 1, &tile, &off, &elements);
}

uint32_t gw_vertex(struct gw *w, uint16_t codelet, uint32_t tile, uint8_t nfields,
		   const struct ipu_graph_field *f, uint8_t nparams, const uint32_t *p)
{
	struct ipu_graph_vertex v = {
		.codelet = codelet, .nfields = nfields, .nparams = nparams, .tile = tile,
		.first_field = nrec(w, IPU_GRAPH_SEC_FIELDS),
		.first_param = (uint32_t)(w->s[IPU_GRAPH_SEC_PARAMS].len / 4),
	};

	for (unsigned i = 0; i < nfields; i++)
		add(w, IPU_GRAPH_SEC_FIELDS, &f[i]);
	for (unsigned i = 0; i < nparams; i++)
		add(w, IPU_GRAPH_SEC_PARAMS, &p[i]);
	return add(w, IPU_GRAPH_SEC_VERTICES, &v);
}

uint32_t gw_cs(struct gw *w, const char *name, uint32_t n, const uint32_t *vids)
{
	struct ipu_graph_compute_set c = {
		.name = gw_str(w, name), .count = n,
		.first = (uint32_t)(w->s[IPU_GRAPH_SEC_CS_VERTICES].len / 4),
	};

	for (uint32_t i = 0; i < n; i++)
		add(w, IPU_GRAPH_SEC_CS_VERTICES, &vids[i]);
	return add(w, IPU_GRAPH_SEC_COMPUTE_SETS, &c);
}

uint32_t gw_exchange(struct gw *w, const char *name, uint32_t n, const struct ipu_graph_copy *c)
{
	struct ipu_graph_exchange x = {
		.name = gw_str(w, name), .copy_count = n,
		.first_copy = nrec(w, IPU_GRAPH_SEC_COPIES),
	};

	for (uint32_t i = 0; i < n; i++)
		add(w, IPU_GRAPH_SEC_COPIES, &c[i]);
	return add(w, IPU_GRAPH_SEC_EXCHANGES, &x);
}

uint32_t gw_node(struct gw *w, uint16_t kind, uint32_t a, uint32_t b, uint32_t c)
{
	struct ipu_graph_prog_node n = { .kind = kind, .a = a, .b = b, .c = c };

	return add(w, IPU_GRAPH_SEC_PROGRAM_NODES, &n);
}

uint32_t gw_seq(struct gw *w, uint32_t n, const uint32_t *kids)
{
	uint32_t first = (uint32_t)(w->s[IPU_GRAPH_SEC_PROGRAM_CHILDREN].len / 4);

	for (uint32_t i = 0; i < n; i++)
		add(w, IPU_GRAPH_SEC_PROGRAM_CHILDREN, &kids[i]);
	return gw_node(w, IPU_PROG_SEQUENCE, first, n, 0);
}

uint32_t gw_entry(struct gw *w, const char *name, uint32_t node)
{
	struct ipu_graph_entry e = { .name = gw_str(w, name), .node = node };

	return add(w, IPU_GRAPH_SEC_ENTRIES, &e);
}

uint32_t gw_stream(struct gw *w, const char *name, uint8_t dir, uint8_t dtype,
		   uint16_t depth, uint32_t elements)
{
	struct ipu_graph_stream s = { .name = gw_str(w, name), .direction = dir,
				      .dtype = dtype, .depth = depth, .elements = elements };

	return add(w, IPU_GRAPH_SEC_STREAMS, &s);
}

uint32_t gw_handle(struct gw *w, const char *name, uint32_t tensor, uint32_t access)
{
	struct ipu_graph_host_handle h = { .name = gw_str(w, name), .tensor = tensor,
					   .access = access };

	return add(w, IPU_GRAPH_SEC_HOST_HANDLES, &h);
}

uint32_t gw_guard(struct gw *w, uint32_t program, uint32_t handle, uint32_t flags)
{
	struct ipu_graph_guard g = { .program = program, .handle = handle, .flags = flags };

	return add(w, IPU_GRAPH_SEC_INPUT_GUARDS, &g);
}

void gw_meta(struct gw *w, const char *key, const char *value)
{
	struct ipu_graph_kv kv = { .key = gw_str(w, key), .value = gw_str(w, value) };

	add(w, IPU_GRAPH_SEC_METADATA, &kv);
}

void gw_init(struct gw *w, uint32_t tile, uint32_t off, uint32_t bytes, const void *data)
{
	struct ipu_graph_init in = { .tile = tile, .tile_offset = off, .bytes = bytes,
				     .data_offset = (uint32_t)w->s[IPU_GRAPH_SEC_DATA].len };

	put(&w->s[IPU_GRAPH_SEC_DATA], data, bytes);
	add(w, IPU_GRAPH_SEC_INIT, &in);
}

void gw_raw_section(struct gw *w, uint32_t type, uint32_t flags, uint32_t entsize,
		    const void *data, uint32_t size)
{
	struct raw *r = &w->raw[w->nraw++];

	r->type = type;
	r->flags = flags;
	r->entsize = entsize;
	put(&r->b, data, size);
}

void *gw_rec(struct gw *w, uint32_t type, uint32_t index)
{
	return w->s[type].p + (size_t)index * ipu_graph_record_size(type);
}

void gw_fix_checksum(uint8_t *bin, size_t len)
{
	uint32_t c = ipu_graph_checksum(bin, len);

	memcpy(bin + offsetof(struct ipu_graph_header, checksum), &c, 4);
}

static size_t align8(size_t x)
{
	return (x + 7) & ~(size_t)7;
}

uint8_t *gw_finish(struct gw *w, size_t *len)
{
	struct ipu_graph_header h;
	struct ipu_graph_section sec[IPU_GRAPH_SEC_COUNT_ + 8];
	unsigned ns = 0;
	size_t off, total;
	uint8_t *bin;

	memset(&h, 0, sizeof(h));
	memset(sec, 0, sizeof(sec));
	for (unsigned t = 1; t < IPU_GRAPH_SEC_COUNT_; t++) {
		if (!w->s[t].len)
			continue;
		sec[ns].type = t;
		/* a 1.1 reader must refuse a multi-IPU binary, not run a part */
		sec[ns].flags = t == IPU_GRAPH_SEC_IPUS ? IPU_GRAPH_SECF_REQUIRED : 0;
		sec[ns].size = w->s[t].len;
		sec[ns].entsize = ipu_graph_record_size(t);
		sec[ns].count = (uint32_t)(w->s[t].len / sec[ns].entsize);
		ns++;
	}
	for (unsigned i = 0; i < w->nraw; i++) {
		sec[ns].type = w->raw[i].type;
		sec[ns].flags = w->raw[i].flags;
		sec[ns].size = w->raw[i].b.len;
		sec[ns].entsize = w->raw[i].entsize;
		sec[ns].count = (uint32_t)(w->raw[i].b.len / w->raw[i].entsize);
		ns++;
	}
	off = sizeof(h) + ns * sizeof(sec[0]);
	for (unsigned i = 0; i < ns; i++) {
		off = align8(off);
		sec[i].offset = off;
		off += sec[i].size;
	}
	total = align8(off);
	bin = xrealloc(NULL, total);
	memset(bin, 0, total);
	h.magic = IPU_GRAPH_MAGIC;
	h.version_major = IPU_GRAPH_VERSION_MAJOR;
	h.version_minor = IPU_GRAPH_VERSION_MINOR;
	h.header_size = sizeof(h);
	h.model = w->model;
	h.total_size = total;
	h.section_table = sizeof(h);
	h.section_count = ns;
	h.section_entsize = sizeof(sec[0]);
	memcpy(bin, &h, sizeof(h));
	memcpy(bin + sizeof(h), sec, ns * sizeof(sec[0]));
	for (unsigned i = 0; i < ns; i++) {
		const uint8_t *src;

		if (sec[i].type < IPU_GRAPH_SEC_COUNT_ && i < ns - w->nraw)
			src = w->s[sec[i].type].p;
		else
			src = w->raw[i - (ns - w->nraw)].b.p;
		if (sec[i].size)
			memcpy(bin + sec[i].offset, src, sec[i].size);
	}
	gw_fix_checksum(bin, total);
	*len = total;
	return bin;
}

uint8_t *gw_finish_packed(struct gw *w, size_t *len)
{
	struct buf plain[IPU_GRAPH_SEC_COUNT_], *pk = &w->s[IPU_GRAPH_SEC_PACKED];
	uint8_t *bin;

	memcpy(plain, w->s, sizeof(plain));
	for (unsigned t = 1; t < IPU_GRAPH_SEC_COUNT_; t++) {
		uint32_t es, n;
		size_t bound;

		/* (types without records, e.g. unassigned numbers, have size 0) */
		if (!ipu_graph_packable(t))
			continue;
		es = ipu_graph_record_size(t);
		n = (uint32_t)(w->s[t].len / es);
		if (!n)
			continue;
		bound = ipu__pack_bound(n, es);
		pk->p = xrealloc(pk->p, pk->len + bound);
		pk->len += ipu__pack_table(t, plain[t].p, n, es, pk->p + pk->len);
		w->s[t].len = 0;
	}
	bin = gw_finish(w, len);
	free(pk->p);
	memcpy(w->s, plain, sizeof(plain));
	return bin;
}
