// SPDX-License-Identifier: MIT
/*
 * Graph builder: tensors and their tile mapping, vertices, compute sets,
 * exchanges, control programs, streams, host handles, metadata; writes the
 * graph binary of docs/graph-format.md. See docs/builder.md.
 *
 * Every call validates what it is given at once, so that a mistake is
 * reported where it is made, with the names of the objects involved.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"
#include "graph_pack.h"
#include "guards.h"
#include "ipu/ipu_models.h"

/* ------------------------------------------------------------------------ */
/* growable arrays                                                          */

static int grow(void **p, size_t *cap, size_t need, size_t elsz)
{
	size_t nc;
	void *np;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : 8;
	while (nc < need)
		nc *= 2;
	np = realloc(*p, nc * elsz);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = nc;
	return 0;
}

#define GROW(arr, n, cap, need) grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* ------------------------------------------------------------------------ */
/* objects                                                                  */

/* the objects' structs are in builder_internal.h (memplan.c reads them too) */

static int oom(struct ipu_error *err)
{
	return ipu__err(err, -ENOMEM, "graph builder: out of memory");
}

IPU_API const char *ipu_dtype_name(unsigned dtype)
{
	switch (dtype) {
	case IPU_DTYPE_F32: return "f32";
	case IPU_DTYPE_F16: return "f16";
	case IPU_DTYPE_I32: return "i32";
	default: return "unknown";
	}
}

/* "1 gc2, 2 gc200, 16 test" into @buf (@size > 0), for a message; returns @buf. */
static char *model_ids(char *buf, size_t size)
{
	const struct ipu_model *m;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; n < size && (m = ipu_model_at(i)); i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%u %s", i ? ", " : "", m->id, m->name);
	return buf;
}

int ipu__graph_new(uint32_t model, unsigned ipus, unsigned replicas, const char *fn,
		   struct ipu_graph **out, struct ipu_error *err)
{
	const struct ipu_model *m;
	struct ipu_graph *g;
	char ids[64];

	if (!out)
		return ipu__err(err, -EINVAL, "%s: out is NULL", fn);
	*out = NULL;
	m = ipu_model_by_id(model);
	if (!m)
		return ipu__err(err, -EINVAL, "%s: unknown model id %u (known: %s)",
				fn, model, model_ids(ids, sizeof(ids)));
	if (!ipu_graph_ipus_ok(ipus))
		return ipu__err(err, -EINVAL, "%s: %u IPUs: a graph spans 1, 2, 4, 8 or 16", fn, ipus);
	g = calloc(1, sizeof(*g));
	if (!g)
		return oom(err);
	g->model = model;
	g->ipus = ipus;
	g->replicas = replicas;
	g->tiles_per_ipu = m->tiles;
	/* a replicated graph is built as one replica: one IPU's tiles */
	g->tiles = replicas > 1 ? m->tiles : m->tiles * ipus;
	g->tile_mem = m->tile_mem;
	g->reuse = 1;
	g->amp = IPU_DEFAULT_AVAILABLE_MEMORY_PROPORTION;
	/* with reuse, build-time offsets may go past the tile's memory: the plan packs them */
	g->vmem = (uint64_t)g->tile_mem * IPU__VMEM_FACTOR > (1u << 30) ? (1u << 30)
		: g->tile_mem * IPU__VMEM_FACTOR;
	g->top = calloc(g->tiles, sizeof(*g->top));
	g->scratch = aligned_alloc(64, g->vmem);
	if (!g->top || !g->scratch) {
		ipu_graph_free(g);
		return oom(err);
	}
	*out = g;
	return 0;
}

IPU_API int ipu_graph_create(uint32_t model, struct ipu_graph **out, struct ipu_error *err)
{
	return ipu__graph_new(model, 1, 1, "ipu_graph_create", out, err);
}

static void free_rgns(struct tile_rgns *r, uint32_t tiles)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < tiles; i++)
		free(r[i].r);
	free(r);
}

IPU_API void ipu_graph_free(struct ipu_graph *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nt; i++) {
		free(g->t[i].name);
		free(g->t[i].iv);
		free(g->t[i].init);
		free(g->t[i].hint);
	}
	free(g->t);
	free(g->v);
	free(g->f);
	free(g->p);
	for (size_t i = 0; i < g->ncs; i++) {
		free(g->cs[i].name);
		free(g->cs[i].v);
		free_rgns(g->cs[i].tiles, g->tiles);
	}
	free(g->cs);
	for (size_t i = 0; i < g->nex; i++) {
		free(g->ex[i].name);
		free(g->ex[i].c);
		free_rgns(g->ex[i].dst, g->tiles);
		free_rgns(g->ex[i].src, g->tiles);
	}
	free(g->ex);
	for (size_t i = 0; i < g->nn; i++)
		free(g->nodes[i].ch);
	free(g->nodes);
	for (size_t i = 0; i < g->ne; i++)
		free(g->ent[i].name);
	free(g->ent);
	for (size_t i = 0; i < g->ns; i++)
		free(g->st[i].name);
	free(g->st);
	for (size_t i = 0; i < g->nh; i++)
		free(g->h[i].name);
	free(g->h);
	for (size_t i = 0; i < g->nkv; i++) {
		free(g->kv[i].k);
		free(g->kv[i].v);
	}
	free(g->kv);
	for (size_t i = 0; i < g->nun; i++)
		free(g->unames[i]);
	free(g->unames);
	free(g->top);
	free(g->al);
	free(g->scratch);
	free(g);
}

/* "the gc200 model has tiles 0..1471" or "the graph has tiles 0..5887 (4 IPUs of gc200)" */
static const char *tiles_str(const struct ipu_graph *g, char *buf, size_t n)
{
	if (g->tiles == g->tiles_per_ipu)
		snprintf(buf, n, "the %s model has tiles 0..%u", ipu_model_name(g->model), g->tiles - 1);
	else
		snprintf(buf, n, "the graph has tiles 0..%u (%u IPUs of %s)", g->tiles - 1, g->ipus,
			 ipu_model_name(g->model));
	return buf;
}

IPU_API uint32_t ipu_graph_model(const struct ipu_graph *g)
{
	return g ? g->model : 0;
}

IPU_API unsigned ipu_graph_tiles(const struct ipu_graph *g)
{
	return g ? g->tiles : 0;
}

IPU_API uint32_t ipu_graph_tile_memory(const struct ipu_graph *g)
{
	return g ? g->tile_mem : 0;
}

IPU_API uint32_t ipu_graph_tile_used(const struct ipu_graph *g, unsigned tile)
{
	struct ipu__memplan p;
	uint32_t used;

	if (!g || tile >= g->tiles)
		return 0;
	if (!g->reuse)
		return g->top[tile];
	if (ipu__memplan_make(g, &p))
		return g->top[tile];	/* out of memory: the bound without reuse */
	used = p.top[tile];
	ipu__memplan_free(&p);
	return used;
}

const char *ipu__graph_uname(struct ipu_graph *g, const char *base, const char *suffix)
{
	char buf[256];
	char *s;

	snprintf(buf, sizeof(buf), "%s%s#%u", base ? base : "", suffix ? suffix : "", g->useq++);
	if (GROW(g->unames, g->nun, g->cun, g->nun + 1))
		return NULL;
	s = strdup(buf);
	if (!s)
		return NULL;
	g->unames[g->nun++] = s;
	return s;
}

/* ------------------------------------------------------------------------ */
/* tensors and mapping                                                      */

static int bad_tensor(const struct ipu_graph *g, int t, const char *fn, struct ipu_error *err)
{
	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", fn);
	if (t < 0 || (size_t)t >= g->nt)
		return ipu__err(err, -EINVAL, "%s: no tensor with id %d (graph has %zu)", fn, t, g->nt);
	return 0;
}

const struct ipu__tensor *ipu__graph_tensor(const struct ipu_graph *g, int t)
{
	if (!g || t < 0 || (size_t)t >= g->nt)
		return NULL;
	return &g->t[t];
}

IPU_API int ipu_graph_find_tensor(const struct ipu_graph *g, const char *name)
{
	if (!g || !name)
		return -EINVAL;
	for (size_t i = 0; i < g->nt; i++)
		if (!strcmp(g->t[i].name, name))
			return (int)i;
	return -ENOENT;
}

IPU_API int ipu_graph_add_tensor(struct ipu_graph *g, const char *name, unsigned dtype,
				 unsigned rank, const uint32_t *shape, struct ipu_error *err)
{
	struct ipu__tensor *t;
	uint64_t n = 1;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_add_tensor: graph is NULL");
	if (!name || !*name)
		return ipu__err(err, -EINVAL, "ipu_graph_add_tensor: a tensor needs a name");
	if (!ipu_dtype_size(dtype))
		return ipu__err(err, -EINVAL, "tensor '%s': unknown dtype %u (f32=%d, f16=%d, i32=%d)",
				name, dtype, IPU_DTYPE_F32, IPU_DTYPE_F16, IPU_DTYPE_I32);
	if (rank > IPU_GRAPH_MAX_RANK)
		return ipu__err(err, -EINVAL, "tensor '%s': rank %u exceeds %d", name, rank,
				IPU_GRAPH_MAX_RANK);
	if (rank && !shape)
		return ipu__err(err, -EINVAL, "tensor '%s': no shape", name);
	/* a dimension may be 0: an empty tensor (docs/builder.md "Empty tensors") */
	for (unsigned i = 0; i < rank; i++) {
		n *= shape[i];
		if (n > ((uint64_t)1 << 40))
			return ipu__err(err, -EINVAL, "tensor '%s': too many elements", name);
	}
	if (ipu_graph_find_tensor(g, name) >= 0)
		return ipu__err(err, -EEXIST, "tensor '%s': the name is already used", name);
	if (g->nt >= INT32_MAX || GROW(g->t, g->nt, g->ct, g->nt + 1))
		return oom(err);
	t = &g->t[g->nt];
	memset(t, 0, sizeof(*t));
	t->name = strdup(name);
	if (!t->name)
		return oom(err);
	t->dtype = (uint8_t)dtype;
	t->rank = (uint8_t)rank;
	for (unsigned i = 0; i < rank; i++)
		t->shape[i] = shape[i];
	t->elements = n;
	return (int)g->nt++;
}

IPU_API int ipu_graph_tensor_desc(const struct ipu_graph *g, int tensor,
				  struct ipu_tensor_desc *out, struct ipu_error *err)
{
	int r = bad_tensor(g, tensor, "ipu_graph_tensor_desc", err);
	const struct ipu__tensor *t;

	if (r)
		return r;
	if (!out)
		return ipu__err(err, -EINVAL, "ipu_graph_tensor_desc: out is NULL");
	t = &g->t[tensor];
	memset(out, 0, sizeof(*out));
	out->name = t->name;
	out->dtype = t->dtype;
	out->rank = t->rank;
	for (unsigned i = 0; i < t->rank; i++)
		out->shape[i] = t->shape[i];
	out->elements = t->elements;
	return 0;
}

IPU_API struct ipu_slice ipu_slice_all(const struct ipu_graph *g, int tensor)
{
	struct ipu_slice s = { tensor, 0, 0 };

	if (g && tensor >= 0 && (size_t)tensor < g->nt)
		s.count = g->t[tensor].elements;
	return s;
}

long ipu__tile_alloc(struct ipu_graph *g, unsigned tile, uint64_t bytes, unsigned align,
		     const char *what, struct ipu_error *err)
{
	uint64_t off;

	if (tile >= g->tiles) {
		char ts[96];

		return ipu__err(err, -EINVAL, "%s: tile %u does not exist (%s)", what, tile,
				tiles_str(g, ts, sizeof(ts)));
	}
	if (align < 1)
		align = 1;
	off = ((uint64_t)g->top[tile] + align - 1) & ~(uint64_t)(align - 1);
	if (bytes > g->tile_mem || (!g->reuse && off + bytes > g->tile_mem))
		return ipu__err(err, -ENOSPC,
				"%s: tile %u out of memory: %llu more bytes needed, %u of %u bytes in use",
				what, tile, (unsigned long long)bytes, g->top[tile], g->tile_mem);
	if (off + bytes > g->vmem)
		return ipu__err(err, -ENOSPC,
				"%s: tile %u out of memory: %llu more bytes needed, and the tile's "
				"allocations before memory reuse already take %u bytes (%u times its "
				"%u bytes)", what, tile, (unsigned long long)bytes, g->top[tile],
				IPU__VMEM_FACTOR, g->tile_mem);
	if (bytes) {
		if (GROW(g->al, g->nal, g->cal, g->nal + 1))
			return oom(err);
		g->al[g->nal++] = (struct ipu__alloc){ tile, (uint32_t)off, (uint32_t)bytes };
	}
	g->top[tile] = (uint32_t)(off + bytes);
	return (long)off;
}

/* index of the first interval with begin + count > e (binary search) */
static size_t iv_lower(const struct ipu__tensor *t, uint64_t e)
{
	size_t lo = 0, hi = t->niv;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->iv[mid].begin + t->iv[mid].count <= e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* record [begin, begin+count) at (tile, off); merges with its predecessor */
static int iv_insert(struct ipu_graph *g, struct ipu__tensor *t, uint64_t begin, uint64_t count,
		     uint32_t tile, uint32_t off, struct ipu_error *err)
{
	size_t pos = iv_lower(t, begin);
	unsigned es = ipu_dtype_size(t->dtype);

	if (pos < t->niv && t->iv[pos].begin < begin + count) {
		const struct ipu__iv *o = &t->iv[pos];

		return ipu__err(err, -EEXIST,
				"tensor '%s': elements [%llu, %llu) are already mapped (to tile %u); "
				"cannot map [%llu, %llu) to tile %u",
				t->name, (unsigned long long)o->begin,
				(unsigned long long)(o->begin + o->count), o->tile,
				(unsigned long long)begin, (unsigned long long)(begin + count), tile);
	}
	if (pos > 0) {
		struct ipu__iv *p = &t->iv[pos - 1];

		if (p->tile == tile && p->begin + p->count == begin &&
		    (uint64_t)p->off + p->count * es == off) {
			p->count += count;
			t->mapped += count;
			return 0;
		}
	}
	if (GROW(t->iv, t->niv, t->civ, t->niv + 1))
		return oom(err);
	memmove(&t->iv[pos + 1], &t->iv[pos], (t->niv - pos) * sizeof(*t->iv));
	t->iv[pos] = (struct ipu__iv){ begin, count, tile, off };
	t->niv++;
	t->mapped += count;
	(void)g;
	return 0;
}

int ipu__map_aligned(struct ipu_graph *g, int tensor, uint64_t begin, uint64_t count,
		     unsigned tile, unsigned align, struct ipu_error *err)
{
	struct ipu__tensor *t;
	unsigned es;
	long off;
	char what[160];
	int r = bad_tensor(g, tensor, "ipu_graph_map", err);

	if (r)
		return r;
	t = &g->t[tensor];
	es = ipu_dtype_size(t->dtype);
	if (!t->elements && !begin && !count && tile < g->tiles)
		return 0;	/* an empty tensor: [0, 0) is all of it, and takes no memory */
	if (!count || begin > t->elements || count > t->elements - begin)
		return ipu__err(err, -EINVAL,
				"tensor '%s': cannot map elements [%llu, %llu): the tensor has %llu",
				t->name, (unsigned long long)begin,
				(unsigned long long)(begin + count), (unsigned long long)t->elements);
	if (tile >= g->tiles) {
		char ts[96];

		return ipu__err(err, -EINVAL, "tensor '%s': cannot map to tile %u: %s", t->name, tile,
				tiles_str(g, ts, sizeof(ts)));
	}
	/* refuse double mapping before allocating */
	{
		size_t pos = iv_lower(t, begin);

		if (pos < t->niv && t->iv[pos].begin < begin + count)
			return iv_insert(g, t, begin, count, tile, 0, err);
	}
	/* continue the previous interval in memory when it ends the tile's memory */
	{
		size_t pos = iv_lower(t, begin);

		if (pos > 0) {
			const struct ipu__iv *p = &t->iv[pos - 1];

			if (p->tile == tile && p->begin + p->count == begin &&
			    p->off + p->count * es == g->top[tile])
				align = es;
		}
	}
	snprintf(what, sizeof(what), "tensor '%s' elements [%llu, %llu)", t->name,
		 (unsigned long long)begin, (unsigned long long)(begin + count));
	off = ipu__tile_alloc(g, tile, count * es, align < es ? es : align, what, err);
	if (off < 0)
		return (int)off;
	return iv_insert(g, t, begin, count, tile, (uint32_t)off, err);
}

IPU_API int ipu_graph_map(struct ipu_graph *g, int tensor, uint64_t begin, uint64_t count,
			  unsigned tile, struct ipu_error *err)
{
	return ipu__map_aligned(g, tensor, begin, count, tile, 8, err);
}

/* internal: map at a given offset without allocating (memory from ipu__tile_alloc) */
int ipu__map_at(struct ipu_graph *g, int tensor, uint64_t begin, uint64_t count,
		unsigned tile, uint32_t off, struct ipu_error *err)
{
	struct ipu__tensor *t = &g->t[tensor];

	if (off + count * ipu_dtype_size(t->dtype) > g->top[tile])
		return ipu__err(err, -EINVAL, "tensor '%s': internal mapping outside tile %u's memory",
				t->name, tile);
	return iv_insert(g, t, begin, count, tile, off, err);
}

IPU_API int ipu_graph_map_tile(struct ipu_graph *g, int tensor, unsigned tile,
			       struct ipu_error *err)
{
	int r = bad_tensor(g, tensor, "ipu_graph_map_tile", err);

	if (r)
		return r;
	return ipu_graph_map(g, tensor, 0, g->t[tensor].elements, tile, err);
}

int ipu__map_tiles(struct ipu_graph *g, int tensor, unsigned first, unsigned ntiles, uint64_t grain,
		   const char *fn, struct ipu_error *err)
{
	uint64_t n, chunks, per, b = 0;
	int r = bad_tensor(g, tensor, fn, err);

	if (r)
		return r;
	if (!grain)
		grain = 1;
	n = g->t[tensor].elements;
	chunks = (n + grain - 1) / grain;
	per = (chunks + ntiles - 1) / ntiles;	/* grains per tile */
	for (unsigned tile = first; tile < first + ntiles && b < n; tile++) {
		uint64_t c = per * grain;

		if (c > n - b)
			c = n - b;
		r = ipu_graph_map(g, tensor, b, c, tile, err);
		if (r)
			return r;
		b += c;
	}
	return 0;
}

IPU_API int ipu_graph_map_linear(struct ipu_graph *g, int tensor, uint64_t grain,
				 struct ipu_error *err)
{
	return ipu__map_tiles(g, tensor, 0, g ? g->tiles : 0, grain, "ipu_graph_map_linear", err);
}

IPU_API int ipu_graph_map_like(struct ipu_graph *g, int tensor, int like, struct ipu_error *err)
{
	int r = bad_tensor(g, tensor, "ipu_graph_map_like", err);

	if (r || (r = bad_tensor(g, like, "ipu_graph_map_like", err)))
		return r;
	if (g->t[tensor].elements != g->t[like].elements)
		return ipu__err(err, -EINVAL, "tensor '%s' (%llu elements) cannot be mapped like '%s' (%llu)",
				g->t[tensor].name, (unsigned long long)g->t[tensor].elements,
				g->t[like].name, (unsigned long long)g->t[like].elements);
	if (g->t[like].mapped != g->t[like].elements)
		return ipu__err(err, -EINVAL, "tensor '%s' cannot be mapped like '%s': that one is not fully mapped",
				g->t[tensor].name, g->t[like].name);
	for (size_t i = 0; i < g->t[like].niv; i++) {
		struct ipu__iv v = g->t[like].iv[i];

		r = ipu_graph_map(g, tensor, v.begin, v.count, v.tile, err);
		if (r)
			return r;
	}
	return 0;
}

int ipu__hint_add(struct ipu_graph *g, int tensor, const struct ipu__hint *h)
{
	struct ipu__tensor *t = &g->t[tensor];

	if (GROW(t->hint, t->nhint, t->chint, t->nhint + 1))
		return -ENOMEM;
	t->hint[t->nhint++] = *h;
	return 0;
}

long ipu__hint_find(const struct ipu_graph *g, int tensor, unsigned tile, uint32_t r0,
		    uint32_t r1, uint32_t c0, uint32_t c1)
{
	const struct ipu__tensor *t = &g->t[tensor];

	for (size_t i = 0; i < t->nhint; i++) {
		const struct ipu__hint *h = &t->hint[i];

		if (h->tile == tile && h->r0 == r0 && h->r1 == r1 && h->c0 == c0 && h->c1 == c1)
			return h->off;
	}
	return -1;
}

IPU_API int ipu_graph_tile_of(const struct ipu_graph *g, int tensor, uint64_t index)
{
	const struct ipu__tensor *t;
	size_t pos;

	if (!g || tensor < 0 || (size_t)tensor >= g->nt)
		return -EINVAL;
	t = &g->t[tensor];
	pos = iv_lower(t, index);
	if (pos < t->niv && t->iv[pos].begin <= index)
		return (int)t->iv[pos].tile;
	return -ENOENT;
}

long ipu__slice_pieces(const struct ipu_graph *g, int tensor, uint64_t begin, uint64_t count,
		       struct ipu__piece **out, uint64_t *unmapped)
{
	const struct ipu__tensor *t = &g->t[tensor];
	unsigned es = ipu_dtype_size(t->dtype);
	struct ipu__piece *p = NULL;
	size_t n = 0, cap = 0;
	uint64_t e = begin, end = begin + count;
	size_t pos = iv_lower(t, begin);

	*out = NULL;
	while (e < end) {
		const struct ipu__iv *v;
		uint64_t c;
		uint32_t off;

		if (pos >= t->niv || t->iv[pos].begin > e) {
			free(p);
			if (unmapped)
				*unmapped = e;
			return -ENOENT;
		}
		v = &t->iv[pos];
		c = v->begin + v->count - e;
		if (c > end - e)
			c = end - e;
		off = v->off + (uint32_t)((e - v->begin) * es);
		if (n && p[n - 1].tile == v->tile && p[n - 1].off + p[n - 1].count * es == off) {
			p[n - 1].count += c;
		} else {
			if (GROW(p, n, cap, n + 1)) {
				free(p);
				return -ENOMEM;
			}
			p[n++] = (struct ipu__piece){ e, c, v->tile, off };
		}
		e += c;
		pos++;
	}
	*out = p;
	return (long)n;
}

IPU_API int ipu_graph_set_initial(struct ipu_graph *g, int tensor, const void *data,
				  size_t bytes, struct ipu_error *err)
{
	struct ipu__tensor *t;
	int r = bad_tensor(g, tensor, "ipu_graph_set_initial", err);

	if (r)
		return r;
	t = &g->t[tensor];
	/* a view's memory belongs to its base: initial data goes on the base */
	if (t->view)
		return ipu__err(err, -EINVAL, "tensor '%s' is a view of '%s': give the initial data to '%s'",
				t->name, g->t[t->base].name, g->t[t->base].name);
	if (!t->elements && !bytes)
		return 0;	/* an empty tensor: nothing to set (data may be NULL) */
	if (bytes != t->elements * ipu_dtype_size(t->dtype) || !data)
		return ipu__err(err, -EINVAL, "tensor '%s': initial data of %zu bytes, the tensor has %llu",
				t->name, bytes,
				(unsigned long long)(t->elements * ipu_dtype_size(t->dtype)));
	free(t->init);
	t->init = malloc(bytes);
	if (!t->init)
		return oom(err);
	memcpy(t->init, data, bytes);
	if (!t->exposed_write)
		t->flags |= IPU_GRAPH_TENSOR_CONSTANT;
	return 0;
}

IPU_API int ipu_graph_expose(struct ipu_graph *g, int tensor, const char *name,
			     unsigned access, struct ipu_error *err)
{
	struct ipu__tensor *t;
	int r = bad_tensor(g, tensor, "ipu_graph_expose", err);

	if (r)
		return r;
	t = &g->t[tensor];
	if (!name)
		name = t->name;
	if (!*name)
		return ipu__err(err, -EINVAL, "tensor '%s': a host handle needs a name", t->name);
	if (!access || (access & ~(unsigned)IPU_HANDLE_RW))
		return ipu__err(err, -EINVAL, "tensor '%s': access 0x%x is not READ and/or WRITE",
				t->name, access);
	for (size_t i = 0; i < g->nh; i++)
		if (!strcmp(g->h[i].name, name))
			return ipu__err(err, -EEXIST, "host handle '%s' already exists", name);
	if (GROW(g->h, g->nh, g->ch, g->nh + 1))
		return oom(err);
	g->h[g->nh].name = strdup(name);
	if (!g->h[g->nh].name)
		return oom(err);
	g->h[g->nh].tensor = (uint32_t)tensor;
	g->h[g->nh].access = access;
	if (access & IPU_HANDLE_WRITE) {
		t->exposed_write = 1;
		t->flags &= (uint16_t)~IPU_GRAPH_TENSOR_CONSTANT;
	}
	return (int)g->nh++;
}

/* ------------------------------------------------------------------------ */
/* compute sets and vertices                                                */

IPU_API int ipu_graph_add_compute_set(struct ipu_graph *g, const char *name, struct ipu_error *err)
{
	struct ipu__cs *c;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_add_compute_set: graph is NULL");
	if (GROW(g->cs, g->ncs, g->ccs, g->ncs + 1))
		return oom(err);
	c = &g->cs[g->ncs];
	memset(c, 0, sizeof(*c));
	c->name = strdup(name ? name : "");
	if (!c->name)
		return oom(err);
	return (int)g->ncs++;
}

static int rgn_add(struct tile_rgns *tr, struct rgn r)
{
	if (GROW(tr->r, tr->n, tr->cap, tr->n + 1))
		return -ENOMEM;
	tr->r[tr->n++] = r;
	return 0;
}

static const char *tname(const struct ipu_graph *g, int32_t t)
{
	return t >= 0 && (size_t)t < g->nt ? g->t[t].name : "(internal buffer)";
}

int ipu__add_vertex_raw(struct ipu_graph *g, int cs, unsigned codelet, unsigned tile,
			const struct ipu__rawfield *fl, unsigned nfields,
			const uint32_t *params, unsigned nparams, struct ipu_error *err)
{
	const struct ipue_codelet *c = ipue_codelet_find((uint16_t)codelet);
	struct ipue_field ef[IPUE_MAX_FIELDS];
	char msg[200];
	struct ipu__cs *s;
	uint32_t vid;
	int r;

	if (cs < 0 || (size_t)cs >= g->ncs)
		return ipu__err(err, -EINVAL, "ipu_graph_add_vertex: no compute set %d", cs);
	s = &g->cs[cs];
	if (!c || codelet > 0xffff)
		return ipu__err(err, -EINVAL, "compute set '%s': unknown codelet 0x%04x "
				"(see docs/codelets.md)", s->name, codelet);
	if (nfields > IPUE_MAX_FIELDS || nparams > IPUE_MAX_PARAMS || (nparams && !params))
		return ipu__err(err, -EINVAL, "compute set '%s': codelet %s: bad field/param count",
				s->name, c->name);
	for (unsigned i = 0; i < nfields; i++) {
		uint64_t bytes = (uint64_t)fl[i].count * ipu_dtype_size(fl[i].dtype);

		if ((uint64_t)fl[i].off + bytes > g->vmem || bytes > g->tile_mem)
			return ipu__err(err, -EINVAL, "compute set '%s': codelet %s field %u outside tile memory",
					s->name, c->name, i);
		ef[i].data = g->scratch + fl[i].off;
		ef[i].count = fl[i].count;
		ef[i].dtype = fl[i].dtype;
	}
	r = ipue_codelet_validate(c, ef, nfields, params, nparams, msg, sizeof(msg));
	if (r)
		return ipu__err(err, -EINVAL, "compute set '%s': vertex %s on tile %u refused: %s",
				s->name, c->name, tile, msg);
	vid = (uint32_t)g->nv;
	/* writes may not overlap other vertices' reads or writes in this compute set */
	if (!s->tiles) {
		s->tiles = calloc(g->tiles, sizeof(*s->tiles));
		if (!s->tiles)
			return oom(err);
	}
	{
		struct tile_rgns *tr = &s->tiles[tile];

		for (unsigned i = 0; i < nfields; i++) {
			uint32_t b = fl[i].off, e = b + fl[i].count * ipu_dtype_size(fl[i].dtype);
			int w = c->field[i].dir != IPUE_FIELD_IN;

			if (b == e)
				continue;
			for (size_t k = 0; k < tr->n; k++) {
				const struct rgn *o = &tr->r[k];
				const struct ipu_graph_vertex *ov;
				const struct ipue_codelet *oc;

				if (o->end <= b || e <= o->off || (!w && !o->write))
					continue;
				ov = &g->v[o->owner];
				oc = ipue_codelet_find(ov->codelet);
				return ipu__err(err, -EINVAL,
						"compute set '%s': vertex %s on tile %u %s field %s "
						"(tensor '%s', bytes [%u, %u)) which vertex %u (%s) %s "
						"(tensor '%s', bytes [%u, %u)): overlapping writes in one "
						"compute set race",
						s->name, c->name, tile, w ? "writes" : "reads",
						c->field[i].name, tname(g, fl[i].tensor), b, e, o->owner,
						oc ? oc->name : "?", o->write ? "writes" : "reads",
						tname(g, o->tensor), o->off, o->end);
			}
		}
		for (unsigned i = 0; i < nfields; i++) {
			struct rgn rr = { fl[i].off, fl[i].off + fl[i].count * ipu_dtype_size(fl[i].dtype),
					  vid, fl[i].tensor, c->field[i].dir != IPUE_FIELD_IN };

			if (rr.off != rr.end && rgn_add(tr, rr))
				return oom(err);
		}
	}
	if (GROW(g->v, g->nv, g->cv, g->nv + 1) || GROW(g->f, g->nf, g->cf, g->nf + nfields) ||
	    GROW(g->p, g->np, g->cp, g->np + nparams) || GROW(s->v, s->n, s->cap, s->n + 1))
		return oom(err);
	g->v[vid] = (struct ipu_graph_vertex){ (uint16_t)codelet, (uint8_t)nfields, (uint8_t)nparams,
					      tile, (uint32_t)g->nf, (uint32_t)g->np };
	for (unsigned i = 0; i < nfields; i++) {
		memset(&g->f[g->nf], 0, sizeof(g->f[0]));
		g->f[g->nf].tile_offset = fl[i].off;
		g->f[g->nf].count = fl[i].count;
		g->f[g->nf].dtype = fl[i].dtype;
		g->nf++;
	}
	for (unsigned i = 0; i < nparams; i++)
		g->p[g->np++] = params[i];
	s->v[s->n++] = vid;
	g->nv++;
	return (int)vid;
}

IPU_API int ipu_graph_add_vertex(struct ipu_graph *g, int cs, unsigned codelet,
				 const struct ipu_slice *fields, unsigned nfields,
				 const uint32_t *params, unsigned nparams, struct ipu_error *err)
{
	struct ipu__rawfield fl[IPUE_MAX_FIELDS];
	const struct ipue_codelet *c = ipue_codelet_find((uint16_t)codelet);
	const char *cname = c ? c->name : "?";
	long tile = -1;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_add_vertex: graph is NULL");
	if (cs < 0 || (size_t)cs >= g->ncs)
		return ipu__err(err, -EINVAL, "ipu_graph_add_vertex: no compute set %d", cs);
	if (!c)
		return ipu__err(err, -EINVAL, "compute set '%s': unknown codelet 0x%04x (see docs/codelets.md)",
				g->cs[cs].name, codelet);
	if (nfields != c->nfields || (nfields && !fields))
		return ipu__err(err, -EINVAL, "compute set '%s': codelet %s takes %u fields, %u given",
				g->cs[cs].name, cname, c->nfields, nfields);
	for (unsigned i = 0; i < nfields; i++) {
		const struct ipu_slice *sl = &fields[i];
		const struct ipu__tensor *t;
		struct ipu__piece *pc;
		uint64_t um = 0;
		long n;

		if (sl->tensor < 0 || (size_t)sl->tensor >= g->nt)
			return ipu__err(err, -EINVAL, "compute set '%s': codelet %s field %s: no tensor %d",
					g->cs[cs].name, cname, c->field[i].name, sl->tensor);
		t = &g->t[sl->tensor];
		if (sl->begin > t->elements || sl->count > t->elements - sl->begin || !sl->count ||
		    sl->count > UINT32_MAX)
			return ipu__err(err, -EINVAL,
					"compute set '%s': codelet %s field %s: elements [%llu, %llu) "
					"of tensor '%s' (%llu elements) are not a valid slice",
					g->cs[cs].name, cname, c->field[i].name,
					(unsigned long long)sl->begin,
					(unsigned long long)(sl->begin + sl->count), t->name,
					(unsigned long long)t->elements);
		n = ipu__slice_pieces(g, sl->tensor, sl->begin, sl->count, &pc, &um);
		if (n == -ENOMEM)
			return oom(err);
		if (n < 0)
			return ipu__err(err, -EINVAL,
					"compute set '%s': codelet %s field %s: element %llu of tensor '%s' "
					"is not mapped to a tile", g->cs[cs].name, cname,
					c->field[i].name, (unsigned long long)um, t->name);
		if (n != 1 || (tile >= 0 && pc[0].tile != tile)) {
			unsigned t0 = pc[0].tile, t1 = n > 1 ? pc[1].tile : pc[0].tile;
			uint64_t at = n > 1 ? pc[1].begin : sl->begin;

			free(pc);
			if (n != 1)
				return ipu__err(err, -EINVAL,
						"compute set '%s': codelet %s field %s: elements [%llu, %llu) "
						"of tensor '%s' are not contiguous in one tile's memory "
						"(element %llu: tile %u, element %llu: tile %u)",
						g->cs[cs].name, cname, c->field[i].name,
						(unsigned long long)sl->begin,
						(unsigned long long)(sl->begin + sl->count), t->name,
						(unsigned long long)sl->begin, t0, (unsigned long long)at, t1);
			return ipu__err(err, -EINVAL,
					"compute set '%s': codelet %s field %s: tensor '%s' elements [%llu, %llu) "
					"are on tile %u, the vertex's other fields on tile %ld",
					g->cs[cs].name, cname, c->field[i].name, t->name,
					(unsigned long long)sl->begin,
					(unsigned long long)(sl->begin + sl->count), t0, tile);
		}
		tile = pc[0].tile;
		fl[i] = (struct ipu__rawfield){ pc[0].off, (uint32_t)sl->count, t->dtype, sl->tensor, sl->begin };
		free(pc);
	}
	if (tile < 0)
		return ipu__err(err, -EINVAL, "compute set '%s': codelet %s without fields has no tile",
				g->cs[cs].name, cname);
	return ipu__add_vertex_raw(g, cs, codelet, (unsigned)tile, fl, nfields, params, nparams, err);
}

/* ------------------------------------------------------------------------ */
/* exchanges                                                                */

IPU_API int ipu_graph_add_exchange(struct ipu_graph *g, const char *name, struct ipu_error *err)
{
	struct ipu__ex *x;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_add_exchange: graph is NULL");
	if (GROW(g->ex, g->nex, g->cex, g->nex + 1))
		return oom(err);
	x = &g->ex[g->nex];
	memset(x, 0, sizeof(*x));
	x->name = strdup(name ? name : "");
	x->dst = calloc(g->tiles, sizeof(*x->dst));
	x->src = calloc(g->tiles, sizeof(*x->src));
	if (!x->name || !x->dst || !x->src) {
		free(x->name);
		free(x->dst);
		free(x->src);
		return oom(err);
	}
	return (int)g->nex++;
}

static int rgn_conflict(const struct tile_rgns *tr, uint32_t b, uint32_t e, const struct rgn **hit)
{
	for (size_t k = tr->n; k-- > 0;) {
		if (tr->r[k].off < e && b < tr->r[k].end) {
			*hit = &tr->r[k];
			return 1;
		}
	}
	return 0;
}

/* add or extend a region (extends the last one when contiguous) */
static int rgn_put(struct tile_rgns *tr, uint32_t b, uint32_t e, int32_t tensor)
{
	if (tr->n) {
		struct rgn *l = &tr->r[tr->n - 1];

		if (l->end == b && l->tensor == tensor) {
			l->end = e;
			return 0;
		}
		if (l->off <= b && e <= l->end)
			return 0;
	}
	return rgn_add(tr, (struct rgn){ b, e, 0, tensor, 0 });
}

/*
 * -EINVAL (reported) when bytes [b, e) of tensor t on tile, the @end
 * ("source", "destination") of a copy of exchange x, overlap a region of
 * @r (@other: which regions those are); else 0.
 */
static int copy_conflict(const struct ipu_graph *g, const struct ipu__ex *x,
			 const struct tile_rgns *r, const char *end, int32_t t, unsigned tile,
			 uint32_t b, uint32_t e, const char *other, struct ipu_error *err)
{
	const struct rgn *hit;

	if (!rgn_conflict(r, b, e, &hit))
		return 0;
	return ipu__err(err, -EINVAL,
			"exchange '%s': %s tensor '%s' bytes [%u, %u) on tile %u overlap %s "
			"(tensor '%s', bytes [%u, %u))",
			x->name, end, tname(g, t), b, e, tile, other, tname(g, hit->tensor),
			hit->off, hit->end);
}

/*
 * Append copy @c to exchange @x, extending the previous copy instead when
 * both ends continue it (and both are between the same replicas: reserved).
 * 0 or -ENOMEM (reported).
 */
static int copy_append(struct ipu__ex *x, struct ipu_graph_copy c, struct ipu_error *err)
{
	if (x->n) {
		struct ipu_graph_copy *l = &x->c[x->n - 1];

		if (l->reserved == c.reserved && l->src_tile == c.src_tile && l->dst_tile == c.dst_tile &&
		    l->src_offset + l->bytes == c.src_offset && l->dst_offset + l->bytes == c.dst_offset &&
		    (uint64_t)l->bytes + c.bytes <= UINT32_MAX) {
			l->bytes += c.bytes;
			return 0;
		}
	}
	if (GROW(x->c, x->n, x->cap, x->n + 1))
		return oom(err);
	x->c[x->n++] = c;
	return 0;
}

int ipu__exchange_raw(struct ipu_graph *g, int ex, unsigned src_tile, uint32_t src_off,
		      unsigned dst_tile, uint32_t dst_off, uint32_t bytes,
		      int32_t src_tensor, int32_t dst_tensor, struct ipu_error *err)
{
	struct ipu__ex *x;
	uint32_t se = src_off + bytes, de = dst_off + bytes;
	int r;

	if (ex < 0 || (size_t)ex >= g->nex)
		return ipu__err(err, -EINVAL, "no exchange %d", ex);
	x = &g->ex[ex];
	if (!bytes)
		return 0;
	if (src_tile >= g->tiles || dst_tile >= g->tiles || se > g->top[src_tile] ||
	    de > g->top[dst_tile])
		return ipu__err(err, -EINVAL, "exchange '%s': copy outside the allocated tile memory",
				x->name);
	if (src_tile == dst_tile && src_off < de && dst_off < se)
		return ipu__err(err, -EINVAL,
				"exchange '%s': a copy from tensor '%s' to tensor '%s' on tile %u overlaps itself",
				x->name, tname(g, src_tensor), tname(g, dst_tensor), dst_tile);
	r = copy_conflict(g, x, &x->dst[dst_tile], "destination", dst_tensor, dst_tile, dst_off, de,
			  "another destination of the exchange", err);
	if (!r)
		r = copy_conflict(g, x, &x->src[dst_tile], "destination", dst_tensor, dst_tile, dst_off,
				  de, "a source of the same exchange", err);
	if (!r)
		r = copy_conflict(g, x, &x->dst[src_tile], "source", src_tensor, src_tile, src_off, se,
				  "a destination of the same exchange", err);
	if (r)
		return r;
	if (rgn_put(&x->dst[dst_tile], dst_off, de, dst_tensor) ||
	    rgn_put(&x->src[src_tile], src_off, se, src_tensor))
		return oom(err);
	return copy_append(x, (struct ipu_graph_copy){ src_tile, src_off, dst_tile, dst_off, bytes, 0 },
			   err);
}

int ipu__exchange_replica(struct ipu_graph *g, int ex, unsigned src_rep, unsigned src_tile,
			  uint32_t src_off, unsigned dst_rep, unsigned dst_tile, uint32_t dst_off,
			  uint32_t bytes, struct ipu_error *err)
{
	uint32_t tag = IPU__COPY_REPLICA_TAG(src_rep, dst_rep);
	struct ipu__ex *x;

	if (ex < 0 || (size_t)ex >= g->nex)
		return ipu__err(err, -EINVAL, "no exchange %d", ex);
	x = &g->ex[ex];
	if (!bytes)
		return 0;
	if (src_rep >= g->replicas || dst_rep >= g->replicas || src_tile >= g->tiles ||
	    dst_tile >= g->tiles || src_off + bytes > g->top[src_tile] ||
	    dst_off + bytes > g->top[dst_tile])
		return ipu__err(err, -EINVAL, "exchange '%s': copy between replicas outside the "
				"allocated tile memory", x->name);
	return copy_append(x, (struct ipu_graph_copy){ src_tile, src_off, dst_tile, dst_off, bytes, tag },
			   err);
}

size_t ipu__graph_copy_count(const struct ipu_graph *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nex; i++)
		n += g->ex[i].n;
	return n;
}

static int check_slice(const struct ipu_graph *g, const struct ipu_slice *s, const char *role,
		       const char *ctx, struct ipu_error *err)
{
	const struct ipu__tensor *t;

	if (s->tensor < 0 || (size_t)s->tensor >= g->nt)
		return ipu__err(err, -EINVAL, "%s: %s: no tensor %d", ctx, role, s->tensor);
	t = &g->t[s->tensor];
	if (s->begin > t->elements || s->count > t->elements - s->begin)
		return ipu__err(err, -EINVAL, "%s: %s elements [%llu, %llu) outside tensor '%s' (%llu elements)",
				ctx, role, (unsigned long long)s->begin,
				(unsigned long long)(s->begin + s->count), t->name,
				(unsigned long long)t->elements);
	return 0;
}

IPU_API int ipu_graph_exchange_copy(struct ipu_graph *g, int ex, struct ipu_slice src,
				    struct ipu_slice dst, struct ipu_error *err)
{
	struct ipu__piece *ps = NULL, *pd = NULL;
	const struct ipu__tensor *ts, *td;
	char ctx[160];
	long ns, nd;
	uint64_t um = 0;
	size_t i = 0, j = 0;
	uint64_t ui = 0, uj = 0;	/* elements consumed of piece i / j */
	unsigned es;
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_exchange_copy: graph is NULL");
	if (ex < 0 || (size_t)ex >= g->nex)
		return ipu__err(err, -EINVAL, "ipu_graph_exchange_copy: no exchange %d", ex);
	snprintf(ctx, sizeof(ctx), "exchange '%s'", g->ex[ex].name);
	if ((r = check_slice(g, &src, "source", ctx, err)) || (r = check_slice(g, &dst, "destination", ctx, err)))
		return r;
	ts = &g->t[src.tensor];
	td = &g->t[dst.tensor];
	if (ts->dtype != td->dtype)
		return ipu__err(err, -EINVAL, "%s: copy from tensor '%s' (%s) to tensor '%s' (%s): dtypes differ",
				ctx, ts->name, ipu_dtype_name(ts->dtype), td->name, ipu_dtype_name(td->dtype));
	if (src.count != dst.count)
		return ipu__err(err, -EINVAL, "%s: copy of %llu elements of tensor '%s' into %llu of tensor '%s'",
				ctx, (unsigned long long)src.count, ts->name,
				(unsigned long long)dst.count, td->name);
	if (!src.count)
		return 0;
	es = ipu_dtype_size(ts->dtype);
	ns = ipu__slice_pieces(g, src.tensor, src.begin, src.count, &ps, &um);
	if (ns == -ENOENT)
		return ipu__err(err, -EINVAL, "%s: element %llu of source tensor '%s' is not mapped to a tile",
				ctx, (unsigned long long)um, ts->name);
	nd = ipu__slice_pieces(g, dst.tensor, dst.begin, dst.count, &pd, &um);
	if (nd == -ENOENT) {
		free(ps);
		return ipu__err(err, -EINVAL, "%s: element %llu of destination tensor '%s' is not mapped to a tile",
				ctx, (unsigned long long)um, td->name);
	}
	if (ns < 0 || nd < 0) {
		free(ps);
		free(pd);
		return oom(err);
	}
	r = 0;
	while (i < (size_t)ns && j < (size_t)nd) {
		uint64_t c = ps[i].count - ui;

		if (pd[j].count - uj < c)
			c = pd[j].count - uj;
		r = ipu__exchange_raw(g, ex, ps[i].tile, ps[i].off + (uint32_t)(ui * es), pd[j].tile,
				      pd[j].off + (uint32_t)(uj * es), (uint32_t)(c * es), src.tensor,
				      dst.tensor, err);
		if (r)
			break;
		ui += c;
		uj += c;
		if (ui == ps[i].count) {
			i++;
			ui = 0;
		}
		if (uj == pd[j].count) {
			j++;
			uj = 0;
		}
	}
	free(ps);
	free(pd);
	return r;
}

/* ------------------------------------------------------------------------ */
/* streams and metadata                                                     */

IPU_API int ipu_graph_add_stream(struct ipu_graph *g, const char *name, unsigned direction,
				 unsigned dtype, uint32_t elements, unsigned depth,
				 struct ipu_error *err)
{
	struct ipu__stream *s;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_add_stream: graph is NULL");
	if (!name || !*name)
		return ipu__err(err, -EINVAL, "ipu_graph_add_stream: a stream needs a name");
	if (direction != IPU_STREAM_HOST_TO_DEVICE && direction != IPU_STREAM_DEVICE_TO_HOST)
		return ipu__err(err, -EINVAL, "stream '%s': direction %u is neither host-to-device (%d) "
				"nor device-to-host (%d)", name, direction,
				IPU_STREAM_HOST_TO_DEVICE, IPU_STREAM_DEVICE_TO_HOST);
	if (!ipu_dtype_size(dtype))
		return ipu__err(err, -EINVAL, "stream '%s': unknown dtype %u", name, dtype);
	if (!elements)
		return ipu__err(err, -EINVAL, "stream '%s': a transfer needs at least one element", name);
	if (depth < 1 || depth > IPU_GRAPH_MAX_STREAM_DEPTH)
		return ipu__err(err, -EINVAL, "stream '%s': depth %u not in 1..%d", name, depth,
				IPU_GRAPH_MAX_STREAM_DEPTH);
	for (size_t i = 0; i < g->ns; i++)
		if (!strcmp(g->st[i].name, name))
			return ipu__err(err, -EEXIST, "stream '%s' already exists", name);
	if (GROW(g->st, g->ns, g->cst, g->ns + 1))
		return oom(err);
	s = &g->st[g->ns];
	s->name = strdup(name);
	if (!s->name)
		return oom(err);
	s->dir = (uint8_t)direction;
	s->dtype = (uint8_t)dtype;
	s->depth = (uint16_t)depth;
	s->elements = elements;
	return (int)g->ns++;
}

IPU_API int ipu_graph_set_metadata(struct ipu_graph *g, const char *key, const char *value,
				   struct ipu_error *err)
{
	char *v;

	if (!g || !key || !*key || !value)
		return ipu__err(err, -EINVAL, "ipu_graph_set_metadata: needs a graph, a key and a value");
	v = strdup(value);
	if (!v)
		return oom(err);
	for (size_t i = 0; i < g->nkv; i++) {
		if (!strcmp(g->kv[i].k, key)) {
			free(g->kv[i].v);
			g->kv[i].v = v;
			return 0;
		}
	}
	if (GROW(g->kv, g->nkv, g->ckv, g->nkv + 1)) {
		free(v);
		return oom(err);
	}
	g->kv[g->nkv].k = strdup(key);
	if (!g->kv[g->nkv].k) {
		free(v);
		return oom(err);
	}
	g->kv[g->nkv++].v = v;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* programs                                                                 */

static int new_node(struct ipu_graph *g, uint16_t kind, uint32_t a, uint32_t b, uint32_t c,
		    struct ipu_error *err)
{
	struct ipu__node *n;

	if (GROW(g->nodes, g->nn, g->cn, g->nn + 1))
		return oom(err);
	n = &g->nodes[g->nn];
	memset(n, 0, sizeof(*n));
	n->n.kind = kind;
	n->n.a = a;
	n->n.b = b;
	n->n.c = c;
	return (int)g->nn++;
}

static int bad_node(const struct ipu_graph *g, int node, const char *fn, const char *what,
		    struct ipu_error *err)
{
	if (node < 0 || (size_t)node >= g->nn)
		return ipu__err(err, -EINVAL, "%s: %s: no program node %d (graph has %zu)", fn, what,
				node, g->nn);
	return 0;
}

static int bad_scalar(const struct ipu_graph *g, int t, const char *fn, struct ipu_error *err)
{
	int r = bad_tensor(g, t, fn, err);

	if (r)
		return r;
	if (g->t[t].elements != 1)
		return ipu__err(err, -EINVAL, "%s: condition tensor '%s' has %llu elements, a scalar has 1",
				fn, g->t[t].name, (unsigned long long)g->t[t].elements);
	return 0;
}

IPU_API int ipu_prog_sequence(struct ipu_graph *g, struct ipu_error *err)
{
	if (!g)
		return ipu__err(err, -EINVAL, "ipu_prog_sequence: graph is NULL");
	return new_node(g, IPU_PROG_SEQUENCE, 0, 0, 0, err);
}

/* does node `from` reach node `to` (through children/bodies)? */
static int reaches(const struct ipu_graph *g, uint32_t from, uint32_t to, unsigned depth)
{
	const struct ipu__node *n;

	if (from == to)
		return 1;
	if (from >= g->nn || depth > 10000)
		return 0;
	n = &g->nodes[from];
	switch (n->n.kind) {
	case IPU_PROG_SEQUENCE:
		for (size_t i = 0; i < n->nch; i++)
			if (reaches(g, n->ch[i], to, depth + 1))
				return 1;
		return 0;
	case IPU_PROG_REPEAT:
		return reaches(g, n->n.b, to, depth + 1);
	case IPU_PROG_REPEAT_WHILE_TRUE:
		return reaches(g, n->n.b, to, depth + 1) ||
		       (n->n.c != IPU_GRAPH_NONE && reaches(g, n->n.c, to, depth + 1));
	case IPU_PROG_IF:
		return (n->n.b != IPU_GRAPH_NONE && reaches(g, n->n.b, to, depth + 1)) ||
		       (n->n.c != IPU_GRAPH_NONE && reaches(g, n->n.c, to, depth + 1));
	default:
		return 0;
	}
}

IPU_API int ipu_prog_append(struct ipu_graph *g, int seq, int child, struct ipu_error *err)
{
	struct ipu__node *n;
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_prog_append: graph is NULL");
	if ((r = bad_node(g, seq, "ipu_prog_append", "sequence", err)) ||
	    (r = bad_node(g, child, "ipu_prog_append", "child", err)))
		return r;
	n = &g->nodes[seq];
	if (n->n.kind != IPU_PROG_SEQUENCE)
		return ipu__err(err, -EINVAL, "ipu_prog_append: node %d is not a sequence", seq);
	if (reaches(g, (uint32_t)child, (uint32_t)seq, 0))
		return ipu__err(err, -ELOOP, "ipu_prog_append: node %d contains sequence %d: "
				"a program may not contain itself", child, seq);
	if (GROW(n->ch, n->nch, n->cch, n->nch + 1))
		return oom(err);
	n->ch[n->nch++] = (uint32_t)child;
	return 0;
}

IPU_API int ipu_prog_execute(struct ipu_graph *g, int cs, struct ipu_error *err)
{
	if (!g || cs < 0 || (size_t)cs >= g->ncs)
		return ipu__err(err, -EINVAL, "ipu_prog_execute: no compute set %d", cs);
	return new_node(g, IPU_PROG_EXECUTE, (uint32_t)cs, 0, 0, err);
}

IPU_API int ipu_prog_exchange(struct ipu_graph *g, int ex, struct ipu_error *err)
{
	if (!g || ex < 0 || (size_t)ex >= g->nex)
		return ipu__err(err, -EINVAL, "ipu_prog_exchange: no exchange %d", ex);
	return new_node(g, IPU_PROG_COPY, (uint32_t)ex, 0, 0, err);
}

IPU_API int ipu_prog_copy(struct ipu_graph *g, struct ipu_slice src, struct ipu_slice dst,
			  struct ipu_error *err)
{
	char name[160];
	int ex, r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_prog_copy: graph is NULL");
	if ((r = check_slice(g, &src, "source", "ipu_prog_copy", err)) ||
	    (r = check_slice(g, &dst, "destination", "ipu_prog_copy", err)))
		return r;
	snprintf(name, sizeof(name), "copy %s -> %s", g->t[src.tensor].name, g->t[dst.tensor].name);
	ex = ipu_graph_add_exchange(g, name, err);
	if (ex < 0)
		return ex;
	r = ipu_graph_exchange_copy(g, ex, src, dst, err);
	if (r)
		return r;
	return ipu_prog_exchange(g, ex, err);
}

IPU_API int ipu_prog_repeat(struct ipu_graph *g, uint32_t count, int body, struct ipu_error *err)
{
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_prog_repeat: graph is NULL");
	if ((r = bad_node(g, body, "ipu_prog_repeat", "body", err)))
		return r;
	return new_node(g, IPU_PROG_REPEAT, count, (uint32_t)body, 0, err);
}

IPU_API int ipu_prog_repeat_while_true(struct ipu_graph *g, int cond, int cond_prog, int body,
				       struct ipu_error *err)
{
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_prog_repeat_while_true: graph is NULL");
	if ((r = bad_scalar(g, cond, "ipu_prog_repeat_while_true", err)) ||
	    (r = bad_node(g, body, "ipu_prog_repeat_while_true", "body", err)) ||
	    (cond_prog >= 0 && (r = bad_node(g, cond_prog, "ipu_prog_repeat_while_true", "condition program", err))))
		return r;
	return new_node(g, IPU_PROG_REPEAT_WHILE_TRUE, (uint32_t)cond, (uint32_t)body,
			cond_prog >= 0 ? (uint32_t)cond_prog : IPU_GRAPH_NONE, err);
}

IPU_API int ipu_prog_if(struct ipu_graph *g, int cond, int then_prog, int else_prog,
			struct ipu_error *err)
{
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_prog_if: graph is NULL");
	if ((r = bad_scalar(g, cond, "ipu_prog_if", err)) ||
	    (then_prog >= 0 && (r = bad_node(g, then_prog, "ipu_prog_if", "then", err))) ||
	    (else_prog >= 0 && (r = bad_node(g, else_prog, "ipu_prog_if", "else", err))))
		return r;
	return new_node(g, IPU_PROG_IF, (uint32_t)cond,
			then_prog >= 0 ? (uint32_t)then_prog : IPU_GRAPH_NONE,
			else_prog >= 0 ? (uint32_t)else_prog : IPU_GRAPH_NONE, err);
}

IPU_API int ipu_prog_sync(struct ipu_graph *g, struct ipu_error *err)
{
	if (!g)
		return ipu__err(err, -EINVAL, "ipu_prog_sync: graph is NULL");
	return new_node(g, IPU_PROG_SYNC, IPU_SYNC_INTERNAL, 0, 0, err);
}

IPU_API int ipu_prog_sync_external(struct ipu_graph *g, struct ipu_error *err)
{
	if (!g)
		return ipu__err(err, -EINVAL, "ipu_prog_sync_external: graph is NULL");
	return new_node(g, IPU_PROG_SYNC, IPU_SYNC_EXTERNAL, 0, 0, err);
}

IPU_API int ipu_prog_stream_copy(struct ipu_graph *g, int stream, int tensor, struct ipu_error *err)
{
	const struct ipu__stream *s;
	const struct ipu__tensor *t;
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_prog_stream_copy: graph is NULL");
	if (stream < 0 || (size_t)stream >= g->ns)
		return ipu__err(err, -EINVAL, "ipu_prog_stream_copy: no stream %d", stream);
	if ((r = bad_tensor(g, tensor, "ipu_prog_stream_copy", err)))
		return r;
	s = &g->st[stream];
	t = &g->t[tensor];
	if (g->replicas > 1)
		return ipu__err(err, -EINVAL, "ipu_prog_stream_copy: tensor '%s': streams are not "
				"supported in a replicated graph (the tensor would span %u IPUs)",
				t->name, g->replicas);
	if (s->dtype != t->dtype || s->elements != t->elements)
		return ipu__err(err, -EINVAL,
				"stream '%s' (%u x %s) cannot copy %s tensor '%s' (%llu x %s): "
				"element count and dtype must match",
				s->name, s->elements, ipu_dtype_name(s->dtype),
				s->dir == IPU_STREAM_HOST_TO_DEVICE ? "into" : "from", t->name,
				(unsigned long long)t->elements, ipu_dtype_name(t->dtype));
	return new_node(g, IPU_PROG_STREAM_COPY, (uint32_t)stream, (uint32_t)tensor, s->dir, err);
}

IPU_API int ipu_prog_abort_on(struct ipu_graph *g, int cond, uint32_t code, struct ipu_error *err)
{
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_prog_abort_on: graph is NULL");
	if ((r = bad_scalar(g, cond, "ipu_prog_abort_on", err)))
		return r;
	return new_node(g, IPU_PROG_ABORT_ON_CONDITION, (uint32_t)cond, code, 0, err);
}

IPU_API int ipu_graph_add_program(struct ipu_graph *g, const char *name, int node,
				  struct ipu_error *err)
{
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_add_program: graph is NULL");
	if ((r = bad_node(g, node, "ipu_graph_add_program", name ? name : "program", err)))
		return r;
	if (!name || !*name)
		return ipu__err(err, -EINVAL, "ipu_graph_add_program: a program needs a name");
	for (size_t i = 0; i < g->ne; i++)
		if (!strcmp(g->ent[i].name, name))
			return ipu__err(err, -EEXIST, "program '%s' already exists", name);
	if (GROW(g->ent, g->ne, g->ce, g->ne + 1))
		return oom(err);
	g->ent[g->ne].name = strdup(name);
	if (!g->ent[g->ne].name)
		return oom(err);
	g->ent[g->ne].node = (uint32_t)node;
	return (int)g->ne++;
}

/* ------------------------------------------------------------------------ */
/* serialization                                                            */

struct buf {
	unsigned char *p;
	size_t n, cap;
	bool failed;		/* a str_add() ran out of memory */
};

static int buf_put(struct buf *b, const void *d, size_t n)
{
	if (GROW(b->p, b->n, b->cap, b->n + n))
		return -ENOMEM;
	if (n)
		memcpy(b->p + b->n, d, n);
	b->n += n;
	return 0;
}

static int buf_align(struct buf *b)
{
	static const unsigned char z[IPU_GRAPH_ALIGN];

	return buf_put(b, z, (IPU_GRAPH_ALIGN - b->n % IPU_GRAPH_ALIGN) % IPU_GRAPH_ALIGN);
}

/* string table: append, return offset */
static uint32_t str_add(struct buf *s, const char *str)
{
	uint32_t off = (uint32_t)s->n;

	if (!str || !*str)
		return IPU_GRAPH_NONE;
	if (buf_put(s, str, strlen(str) + 1)) {
		s->failed = true;	/* put_sections() fails the write */
		return IPU_GRAPH_NONE;
	}
	return off;
}

struct sec {
	uint32_t type;
	struct buf b;
	uint32_t entsize;
	uint32_t count;
};

static int sec_rec(struct sec *s, const void *rec)
{
	s->count++;
	return buf_put(&s->b, rec, s->entsize);
}

enum { S_STR, S_IPUS, S_TEN, S_IV, S_PLAN, S_VTX, S_FLD, S_PAR, S_CS, S_CSV, S_EX, S_CP, S_NODE,
       S_CH, S_ENT, S_STRM, S_HND, S_META, S_INIT, S_DATA, S_GUARD, S_MEM, S_PACK, S_N };

/* s[S_N] empty, in file order, each with the record size the format gives its type */
static void sections_init(struct sec *s)
{
	static const uint32_t types[S_N] = {
		IPU_GRAPH_SEC_STRINGS, IPU_GRAPH_SEC_IPUS, IPU_GRAPH_SEC_TENSORS, IPU_GRAPH_SEC_INTERVALS,
		IPU_GRAPH_SEC_TILE_PLANS, IPU_GRAPH_SEC_VERTICES, IPU_GRAPH_SEC_FIELDS,
		IPU_GRAPH_SEC_PARAMS, IPU_GRAPH_SEC_COMPUTE_SETS, IPU_GRAPH_SEC_CS_VERTICES,
		IPU_GRAPH_SEC_EXCHANGES, IPU_GRAPH_SEC_COPIES, IPU_GRAPH_SEC_PROGRAM_NODES,
		IPU_GRAPH_SEC_PROGRAM_CHILDREN, IPU_GRAPH_SEC_ENTRIES, IPU_GRAPH_SEC_STREAMS,
		IPU_GRAPH_SEC_HOST_HANDLES, IPU_GRAPH_SEC_METADATA, IPU_GRAPH_SEC_INIT,
		IPU_GRAPH_SEC_DATA, IPU_GRAPH_SEC_INPUT_GUARDS, IPU_GRAPH_SEC_MEMORY_REGIONS,
		IPU_GRAPH_SEC_PACKED,
	};

	memset(s, 0, S_N * sizeof(*s));
	for (int i = 0; i < S_N; i++) {
		s[i].type = types[i];
		s[i].entsize = ipu_graph_record_size(types[i]);
	}
}

/* free the buffers of all sections (s itself is the caller's) */
static void sections_free(struct sec *s)
{
	for (int i = 0; i < S_N; i++)
		free(s[i].b.p);
}

/*
 * The checks that need the whole graph: every element mapped (the message
 * names the first unmapped one), at least one entry program. 0 or -EINVAL.
 */
static int check_complete(const struct ipu_graph *g, struct ipu_error *err)
{
	for (size_t i = 0; i < g->nt; i++) {
		const struct ipu__tensor *t = &g->t[i];
		uint64_t e = 0;

		if (t->mapped == t->elements)
			continue;
		for (size_t k = 0; k < t->niv && t->iv[k].begin == e; k++)
			e += t->iv[k].count;
		return ipu__err(err, -EINVAL, "tensor '%s': element %llu is not mapped to a tile "
				"(%llu of %llu elements mapped)", t->name, (unsigned long long)e,
				(unsigned long long)t->mapped, (unsigned long long)t->elements);
	}
	if (!g->ne)
		return ipu__err(err, -EINVAL, "graph has no entry program (ipu_graph_add_program)");
	return 0;
}

/*
 * INTERVALS records of tensor t (intervals longer than a record's 31-bit
 * count are cut), and for a tensor with initial contents the INIT record
 * and DATA bytes of each. 0 or -ENOMEM.
 */
static int put_intervals(const struct ipu__tensor *t, struct sec *s)
{
	unsigned es = ipu_dtype_size(t->dtype);

	for (size_t k = 0; k < t->niv; k++) {
		for (uint64_t done = 0; done < t->iv[k].count;) {
			struct ipu_graph_interval iv;
			uint64_t c = t->iv[k].count - done;

			if (c > 0x7fffffffu)
				c = 0x7fffffffu;
			memset(&iv, 0, sizeof(iv));
			iv.begin = t->iv[k].begin + done;
			iv.count = (uint32_t)c;
			iv.tile = t->iv[k].tile;
			iv.tile_offset = t->iv[k].off + (uint32_t)(done * es);
			if (sec_rec(&s[S_IV], &iv))
				return -ENOMEM;
			if (t->init) {
				struct ipu_graph_init in = { iv.tile, iv.tile_offset,
							     (uint32_t)(c * es), (uint32_t)s[S_DATA].b.n };

				if (buf_put(&s[S_DATA].b, (const unsigned char *)t->init + iv.begin * es,
					    c * es) || buf_align(&s[S_DATA].b) || sec_rec(&s[S_INIT], &in))
					return -ENOMEM;
			}
			done += c;
		}
	}
	return 0;
}

/* TENSORS with their intervals, INIT and DATA (whose count is its size). 0 or -ENOMEM. */
static int put_tensors(const struct ipu_graph *g, struct sec *s)
{
	for (size_t i = 0; i < g->nt; i++) {
		const struct ipu__tensor *t = &g->t[i];
		struct ipu_graph_tensor rec;

		memset(&rec, 0, sizeof(rec));
		rec.name = str_add(&s[S_STR].b, t->name);
		rec.dtype = t->dtype;
		rec.rank = t->rank;
		rec.flags = t->flags;
		for (unsigned d = 0; d < t->rank; d++)
			rec.shape[d] = t->shape[d];
		rec.first_interval = s[S_IV].count;
		if (put_intervals(t, s))
			return -ENOMEM;
		rec.interval_count = s[S_IV].count - rec.first_interval;
		rec.elements = t->elements;
		if (sec_rec(&s[S_TEN], &rec))
			return -ENOMEM;
	}
	s[S_DATA].count = (uint32_t)s[S_DATA].b.n;
	return 0;
}

/*
 * TILE_PLANS: one per tile with memory, rounded up to 8 bytes when that
 * still fits; *tiles_used = the highest such tile + 1. 0 or -ENOMEM.
 */
static int put_tile_plans(const struct ipu_graph *g, struct sec *s, uint32_t *tiles_used)
{
	*tiles_used = 0;
	for (uint32_t tile = 0; tile < g->tiles; tile++) {
		struct ipu_graph_tile_plan pl = { tile, g->top[tile], { 0, 0 } };

		if (!g->top[tile])
			continue;
		pl.bytes = (g->top[tile] + 7u) & ~7u;
		if (pl.bytes > g->tile_mem)
			pl.bytes = g->top[tile];
		*tiles_used = tile + 1;
		if (sec_rec(&s[S_PLAN], &pl))
			return -ENOMEM;
	}
	return 0;
}

/* n records kept as the format has them (stride bytes apart), copied as they are. 0 or -ENOMEM. */
static int put_records(struct sec *sec, const void *recs, size_t n, size_t stride)
{
	for (size_t i = 0; i < n; i++)
		if (sec_rec(sec, (const unsigned char *)recs + i * stride))
			return -ENOMEM;
	return 0;
}

#define PUT_RECORDS(sec, arr, n) put_records((sec), (arr), (n), sizeof(*(arr)))

/*
 * A named list and its run of records: the @n records @recs (@stride bytes
 * apart) go to section @child, the list's record {name, first, count, 0}
 * to @parent; *@first counts the children so far. COMPUTE_SETS (runs of
 * CS_VERTICES) and EXCHANGES (runs of COPIES) are such lists.
 * 0 or -ENOMEM.
 */
static int put_list(struct sec *s, int parent, int child, const char *name, const void *recs,
		    size_t n, size_t stride, uint32_t *first)
{
	struct ipu_graph_compute_set l = { str_add(&s[S_STR].b, name), *first, (uint32_t)n, 0 };

	if (put_records(&s[child], recs, n, stride))
		return -ENOMEM;
	*first += (uint32_t)n;
	return sec_rec(&s[parent], &l) ? -ENOMEM : 0;
}

_Static_assert(sizeof(struct ipu_graph_exchange) == sizeof(struct ipu_graph_compute_set) &&
	       offsetof(struct ipu_graph_exchange, first_copy) ==
	       offsetof(struct ipu_graph_compute_set, first) &&
	       offsetof(struct ipu_graph_exchange, copy_count) ==
	       offsetof(struct ipu_graph_compute_set, count),
	       "an exchange record is laid out as a compute set's: put_list() writes both");

/* COMPUTE_SETS, each with its run of CS_VERTICES; EXCHANGES, each with its run of COPIES. */
static int put_lists(const struct ipu_graph *g, struct sec *s)
{
	uint32_t ncsv = 0, ncopies = 0;

	for (size_t i = 0; i < g->ncs; i++)
		if (put_list(s, S_CS, S_CSV, g->cs[i].name, g->cs[i].v, g->cs[i].n,
			     sizeof(*g->cs[i].v), &ncsv))
			return -ENOMEM;
	for (size_t i = 0; i < g->nex; i++)
		if (put_list(s, S_EX, S_CP, g->ex[i].name, g->ex[i].c, g->ex[i].n,
			     sizeof(*g->ex[i].c), &ncopies))
			return -ENOMEM;
	return 0;
}

/* PROGRAM_NODES (a sequence points at its run of PROGRAM_CHILDREN) and ENTRIES. 0 or -ENOMEM. */
static int put_programs(const struct ipu_graph *g, struct sec *s)
{
	uint32_t nch = 0;

	for (size_t i = 0; i < g->nn; i++) {
		struct ipu_graph_prog_node n = g->nodes[i].n;

		if (n.kind == IPU_PROG_SEQUENCE) {
			n.a = nch;
			n.b = (uint32_t)g->nodes[i].nch;
			if (PUT_RECORDS(&s[S_CH], g->nodes[i].ch, g->nodes[i].nch))
				return -ENOMEM;
			nch += n.b;
		}
		if (sec_rec(&s[S_NODE], &n))
			return -ENOMEM;
	}
	for (size_t i = 0; i < g->ne; i++) {
		struct ipu_graph_entry e = { str_add(&s[S_STR].b, g->ent[i].name), g->ent[i].node };

		if (sec_rec(&s[S_ENT], &e))
			return -ENOMEM;
	}
	return 0;
}

/* STREAMS, HOST_HANDLES and METADATA. 0 or -ENOMEM. */
static int put_host_objects(const struct ipu_graph *g, struct sec *s)
{
	for (size_t i = 0; i < g->ns; i++) {
		struct ipu_graph_stream st;

		memset(&st, 0, sizeof(st));
		st.name = str_add(&s[S_STR].b, g->st[i].name);
		st.direction = g->st[i].dir;
		st.dtype = g->st[i].dtype;
		st.depth = g->st[i].depth;
		st.elements = g->st[i].elements;
		if (sec_rec(&s[S_STRM], &st))
			return -ENOMEM;
	}
	for (size_t i = 0; i < g->nh; i++) {
		struct ipu_graph_host_handle hh = { str_add(&s[S_STR].b, g->h[i].name), g->h[i].tensor,
						    g->h[i].access, 0 };

		if (sec_rec(&s[S_HND], &hh))
			return -ENOMEM;
	}
	for (size_t i = 0; i < g->nkv; i++) {
		struct ipu_graph_kv kv = { str_add(&s[S_STR].b, g->kv[i].k), str_add(&s[S_STR].b, g->kv[i].v) };

		if (!*g->kv[i].v)
			kv.value = 0;	/* the leading NUL: "" */
		if (sec_rec(&s[S_META], &kv))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Every section's records, in the order that fills the string table as the
 * format's readers expect it (names of tensors, compute sets, exchanges,
 * entries, streams, handles, metadata). 0 or -ENOMEM.
 */
static int put_sections(const struct ipu_graph *g, struct sec *s, uint32_t *tiles_used)
{
	/* strings: offset 0 must not be a real string's start, so start with a NUL */
	if (buf_put(&s[S_STR].b, "", 1) || put_tensors(g, s) || put_tile_plans(g, s, tiles_used) ||
	    PUT_RECORDS(&s[S_VTX], g->v, g->nv) || PUT_RECORDS(&s[S_FLD], g->f, g->nf) ||
	    PUT_RECORDS(&s[S_PAR], g->p, g->np) || put_lists(g, s) ||
	    put_programs(g, s) || put_host_objects(g, s))
		return -ENOMEM;
	s[S_STR].count = (uint32_t)s[S_STR].b.n;
	/* A string that could not be added, or offsets past 32 bits. */
	if (s[S_STR].b.failed || s[S_STR].b.n > 0xfffffff0u)
		return -ENOMEM;
	return 0;
}

/* INPUT_GUARDS from the records put so far (guards.c). 0, -ENOMEM or -ELOOP. */
static int put_guards(struct sec *s)
{
	const struct ipu__guard_graph gr = {
		(const void *)s[S_TEN].b.p, (const void *)s[S_IV].b.p, (const void *)s[S_VTX].b.p,
		(const void *)s[S_FLD].b.p, (const void *)s[S_CS].b.p, (const void *)s[S_CSV].b.p,
		(const void *)s[S_EX].b.p, (const void *)s[S_CP].b.p, (const void *)s[S_NODE].b.p,
		(const void *)s[S_CH].b.p, (const void *)s[S_ENT].b.p, s[S_ENT].count,
		(const void *)s[S_HND].b.p, s[S_HND].count, (const void *)s[S_INIT].b.p,
		s[S_INIT].count,
	};
	struct ipu_graph_guard *rec;
	size_t n;
	int r = ipu__guards_find(&gr, &rec, &n);

	if (!r)
		r = put_records(&s[S_GUARD], rec, n, sizeof(*rec));
	free(rec);
	return r;
}

/*
 * The compact form (docs/graph-format.md, "Packed tables"): every non-empty
 * packable section whose table is smaller than its records becomes a table
 * of PACKED (graph_pack.c) and leaves the file (its type set to 0).
 * 0 or -ENOMEM.
 */
static int pack_sections(struct sec *s)
{
	for (int i = 0; i < S_N; i++) {
		struct buf *pk = &s[S_PACK].b;
		size_t bound, n;

		if (!ipu_graph_packable(s[i].type) || !s[i].count)
			continue;
		bound = ipu__pack_bound(s[i].count, s[i].entsize);
		if (bound > 0xffffffffu)
			continue;	/* stays plain: a table's bytes are 32-bit */
		if (GROW(pk->p, pk->n, pk->cap, pk->n + bound))
			return -ENOMEM;
		n = ipu__pack_table(s[i].type, s[i].b.p, s[i].count, s[i].entsize, pk->p + pk->n);
		if (n >= s[i].b.n)
			continue;	/* irregular records: plain is smaller */
		pk->n += n;
		s[i].type = 0;
	}
	s[S_PACK].count = (uint32_t)s[S_PACK].b.n;
	return 0;
}

/*
 * The file into *out: header, the sections (each aligned), the section
 * table, then the header filled in with the checksum over it all. *out is
 * the caller's on success and on failure (free() it). 0 or -ENOMEM.
 */
static int assemble(const struct ipu_graph *g, const struct sec *s, uint32_t tiles_used,
		    struct buf *out)
{
	struct ipu_graph_section tab[S_N];
	struct ipu_graph_header h;
	uint32_t n = 0;

	memset(&h, 0, sizeof(h));
	if (buf_put(out, &h, sizeof(h)))
		return -ENOMEM;
	for (int i = 0; i < S_N; i++) {
		/*
		 * packed away, or no packed tables (a plain binary reads as 1.0),
		 * or a single-IPU graph (no ipus section)
		 */
		if (!s[i].type || ((i == S_PACK || i == S_IPUS) && !s[i].count))
			continue;
		if (buf_align(out))
			return -ENOMEM;
		memset(&tab[n], 0, sizeof(tab[n]));
		tab[n].type = s[i].type;
		/* optional sections: a reader that does not know them may skip them */
		tab[n].flags = s[i].type == IPU_GRAPH_SEC_METADATA ||
			       s[i].type == IPU_GRAPH_SEC_INPUT_GUARDS ||
			       s[i].type == IPU_GRAPH_SEC_MEMORY_REGIONS ? 0 : IPU_GRAPH_SECF_REQUIRED;
		tab[n].offset = out->n;
		tab[n].size = s[i].b.n;
		tab[n].entsize = s[i].entsize;
		tab[n].count = s[i].count;
		if (buf_put(out, s[i].b.p, s[i].b.n))
			return -ENOMEM;
		n++;
	}
	if (buf_align(out))
		return -ENOMEM;
	h.section_table = out->n;
	if (buf_put(out, tab, n * sizeof(tab[0])))
		return -ENOMEM;
	h.magic = IPU_GRAPH_MAGIC;
	h.version_major = IPU_GRAPH_VERSION_MAJOR;
	/* a single-IPU binary stays a 1.1 one, byte for byte as before 1.2 */
	h.version_minor = g->ipus > 1 ? IPU_GRAPH_VERSION_MINOR : 1;
	h.header_size = sizeof(h);
	h.model = g->model;
	h.total_size = out->n;
	h.section_count = n;
	h.section_entsize = sizeof(struct ipu_graph_section);
	h.tiles_used = tiles_used;
	h.codelet_version = IPUE_CODELET_LIBRARY_VERSION;
	memcpy(out->p, &h, sizeof(h));
	h.checksum = ipu_graph_checksum(out->p, out->n);
	memcpy(out->p, &h, sizeof(h));
	return 0;
}

/*
 * The memory plan of g into *p, refused when a tile does not fit: the
 * message names the tile and its always-live and temporary bytes.
 * 0, -ENOSPC or -ENOMEM (reported).
 */
static int plan_memory(const struct ipu_graph *g, struct ipu__memplan *p, struct ipu_error *err)
{
	if (ipu__memplan_make(g, p))
		return oom(err);
	if (p->bad) {
		ipu__memplan_free(p);
		return ipu__err(err, -EINVAL, "memory plan: a record points outside every allocation "
				"(internal error; set option memory.reuse=false to write without reuse)");
	}
	for (uint32_t t = 0; t < g->tiles; t++) {
		if (p->top[t] <= g->tile_mem)
			continue;
		ipu__err(err, -ENOSPC, "memory plan: tile %u needs %u bytes, the %s model has %u: "
			 "%u bytes always live, %llu bytes of temporaries (before reuse) take %u "
			 "more after reuse", t, p->top[t], ipu_model_name(g->model), g->tile_mem,
			 p->live[t], (unsigned long long)p->temp[t], p->top[t] - p->live[t]);
		ipu__memplan_free(p);
		return -ENOSPC;
	}
	return 0;
}

/*
 * The sections of the planned graph @v (a replicated one already expanded)
 * and the memory regions of @plan, repeated on every replica's IPU. 0,
 * -ENOMEM or -ELOOP.
 */
static int put_all(const struct ipu_graph *g, const struct ipu_graph *v,
		   const struct ipu__memplan *plan, struct sec *s, uint32_t *tiles_used)
{
	int r = 0;

	if (v->ipus > 1) {
		struct ipu_graph_ipus ip = { v->ipus, v->tiles_per_ipu, 0, 0 };

		r = sec_rec(&s[S_IPUS], &ip);
	}
	if (!r)
		r = put_sections(v, s, tiles_used);
	if (!r && !g->zero_init)
		r = put_guards(s);
	for (uint32_t rep = 0; !r && rep < g->replicas; rep++) {
		for (size_t i = 0; !r && i < plan->n; i++) {
			struct ipu_graph_mem_region mr;

			ipu__memplan_region(plan, i, &mr);
			mr.tile += rep * g->tiles_per_ipu;
			r = sec_rec(&s[S_MEM], &mr);
		}
	}
	return r;
}

int ipu__graph_write_form(struct ipu_graph *g, bool compact, void **out, size_t *outlen,
			  struct ipu_error *err)
{
	struct ipu__memplan plan;
	struct ipu_graph v, e;
	struct sec s[S_N];
	struct buf outb = { 0 };
	uint32_t tiles_used;
	int r;

	if (!g || !out || !outlen)
		return ipu__err(err, -EINVAL, "ipu_graph_write: NULL argument");
	*out = NULL;
	*outlen = 0;
	if ((r = check_complete(g, err)) || (r = plan_memory(g, &plan, err)))
		return r;
	r = ipu__memplan_view(g, &plan, &v);
	if (r) {
		ipu__memplan_free(&plan);
		return oom(err);
	}
	e = v;
	if (g->replicas > 1 && (r = ipu__replicate(&v, &e, err))) {
		ipu__memplan_view_free(&v);
		ipu__memplan_free(&plan);
		return r;
	}
	sections_init(s);
	r = put_all(g, &e, &plan, s, &tiles_used);
	/* last: the guards and the plan are read from the plain records */
	if (!r && compact)
		r = pack_sections(s);
	if (!r)
		r = assemble(&e, s, tiles_used, &outb);
	sections_free(s);
	if (g->replicas > 1)
		ipu__replicate_free(&e);
	ipu__memplan_view_free(&v);
	ipu__memplan_free(&plan);
	if (r) {
		free(outb.p);
		if (r == -ELOOP)
			return ipu__err(err, -EINVAL, "graph: a program nests deeper than %d levels "
					"(the engine's limit)", IPU__GUARD_MAX_DEPTH);
		return oom(err);
	}
	*out = outb.p;
	*outlen = outb.n;
	return 0;
}

IPU_API int ipu_graph_write(struct ipu_graph *g, void **out, size_t *outlen, struct ipu_error *err)
{
	return ipu__graph_write_form(g, true, out, outlen, err);
}

IPU_API int ipu_graph_set_zero_init(struct ipu_graph *g, int on, struct ipu_error *err)
{
	if (!g)
		return ipu__err(err, -EINVAL, "ipu_graph_set_zero_init: NULL graph");
	g->zero_init = on != 0;
	return 0;
}

IPU_API int ipu_graph_write_file(struct ipu_graph *g, const char *path, struct ipu_error *err)
{
	void *b;
	size_t n;
	int r, step;

	if (!path)
		return ipu__err(err, -EINVAL, "ipu_graph_write_file: no path");
	r = ipu_graph_write(g, &b, &n, err);
	if (r)
		return r;
	r = ipu__file_write(path, b, n, &step);
	free(b);
	if (r && step == IPU__FILE_OPEN)
		return ipu__err_sys(err, r, "open %s", path);
	if (r && step == IPU__FILE_IO)
		return ipu__err(err, r, "write %s: I/O error", path);
	if (r)
		return ipu__err_sys(err, r, "close %s", path);
	return 0;
}
