/* SPDX-License-Identifier: MIT */
/*
 * Engine object: lifecycle, graph (re)loading, host access to tensors,
 * enumeration, streams connection, cancel, memory accounting.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "engine_internal.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *ipue_strerror(int status)
{
	switch (status) {
	case IPUE_OK: return "success";
	case IPUE_EINVAL: return "invalid argument";
	case IPUE_ENOMEM: return "out of host memory";
	case IPUE_EFORMAT: return "graph binary rejected";
	case IPUE_ENOGRAPH: return "no graph loaded";
	case IPUE_ERANGE: return "index or range out of range";
	case IPUE_EACCES: return "host handle lacks access";
	case IPUE_ESTREAM: return "host stream failed (not connected, callback error or underrun)";
	case IPUE_EABORT: return "program aborted (AbortOnCondition)";
	case IPUE_ECANCELED: return "run cancelled";
	case IPUE_ESTEPLIMIT: return "run step limit reached";
	case IPUE_EMODEL: return "unknown model or graph built for another model";
	case IPUE_EBUSY: return "a run is in progress";
	case IPUE_EUNWRITTEN: return "program reads a host-writable tensor never written";
	case IPUE_EMEMPLAN: return "memory plan lets two live regions overlap";
	case IPUE_EMEMACCESS: return "access outside the memory regions live at its step";
	case IPUE_ELINK: return "IPU-Link down";
	case IPUE_ESYNC: return "a member of the group missed a sync";
	default: return "unknown error";
	}
}

int ipue_engine_create(const struct ipue_config *cfg, struct ipue_engine **out)
{
	struct ipue_engine *e;
	long cores;
	int rc;

	if (!out)
		return IPUE_EINVAL;
	*out = NULL;
	if (!cfg || (cfg->flags & ~IPUE_CONFIG_FLAGS_ALL))
		return IPUE_EINVAL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return IPUE_ENOMEM;
	rc = ipue_model_lookup(cfg->model, &e->m);
	if (rc) {
		free(e);
		return rc;
	}
	cores = sysconf(_SC_NPROCESSORS_ONLN);
	e->host_threads = cfg->host_threads ? cfg->host_threads : (cores > 0 ? (unsigned)cores : 1);
	e->thread_init = cfg->thread_init;
	e->thread_exit = cfg->thread_exit;
	e->memcheck = (cfg->flags & IPUE_CONFIG_MEMCHECK) != 0;
	if (e->host_threads > IPUE_MAX_HOST_THREADS)
		e->host_threads = IPUE_MAX_HOST_THREADS;
	e->lookup = ipue_codelet_find;
	if (pthread_mutex_init(&e->run_lock, NULL) != 0) {
		free(e);
		return IPUE_ENOMEM;
	}
	atomic_init(&e->cancel, 0);
	atomic_init(&e->accepting, 0);
	atomic_init(&e->delivering, 0);
	*out = e;
	return 0;
}

void ipue_engine_destroy(struct ipue_engine *e)
{
	if (!e)
		return;
	ipue_engine_reset(e);	/* waits for peers still writing into it */
	ipue_pool_destroy(e->pool);
	pthread_mutex_destroy(&e->run_lock);
	free(e);
}

void ipue_engine_reset(struct ipue_engine *e)
{
	if (!e)
		return;
	/* a peer whose run outlived ours may still write into the tiles: let it finish */
	atomic_store(&e->accepting, 0);
	while (atomic_load(&e->delivering))
		sched_yield();
	ipue_graph_free(e->g);
	e->g = NULL;
	e->aborted = 0;
	e->abort_code = 0;
	e->abort_node = 0;
	e->unwritten = 0;
	e->memcheck_failed = 0;
	e->linked = 0;
}

void ipue_model_info(const struct ipue_engine *e, struct ipue_model_info *out)
{
	out->model = e->m.model;
	out->tiles = e->m.tiles;
	out->tile_mem = e->m.tile_mem;
	out->workers = e->m.threads;
	out->clock_khz = e->m.clock_khz;
	out->host_threads = e->host_threads;
}

void ipue_set_codelet_lookup(struct ipue_engine *e, ipue_codelet_lookup_fn fn)
{
	e->lookup = fn ? fn : ipue_codelet_find;
}

static int busy(struct ipue_engine *e)
{
	int r;

	pthread_mutex_lock(&e->run_lock);
	r = e->running;
	pthread_mutex_unlock(&e->run_lock);
	return r;
}

int ipue_load(struct ipue_engine *e, const void *buf, size_t len,
	      struct ipue_load_error *err)
{
	return ipue_load_ex(e, buf, len, 0, err);
}

int ipue_load_ex(struct ipue_engine *e, const void *buf, size_t len,
		 unsigned flags, struct ipue_load_error *err)
{
	struct ipue_graph *g;
	int rc;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!e || (flags & ~IPUE_LOAD_FLAGS_ALL))
		return IPUE_EINVAL;
	if (busy(e))
		return IPUE_EBUSY;
	ipue_engine_reset(e);	/* frees the old tiles before the new ones exist */
	rc = ipue_graph_load(e, buf, len, &g, err);
	if (rc)
		return rc;
	if (flags & IPUE_LOAD_COMMIT)
		ipue_arena_commit(&g->arena);
	e->g = g;
	atomic_store(&e->accepting, 1);
	return 0;
}

int ipue_loaded(const struct ipue_engine *e)
{
	return e && e->g;
}

/* ---- tensors ---- */

static void copy_plain(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

/*
 * memcpy() with non-temporal stores for the aligned middle: the
 * destination's lines are not read first and do not evict the cache.
 * Only SSE2 is assumed (x86-64's baseline); elsewhere plain memcpy().
 */
static void copy_nt(void *dst, const void *src, size_t n)
{
#if defined(__SSE2__)
	uint8_t *d = dst;
	const uint8_t *s = src;
	size_t head = (16 - ((uintptr_t)d & 15)) & 15;

	if (n < 256) {
		memcpy(d, s, n);
		return;
	}
	memcpy(d, s, head);
	d += head;
	s += head;
	n -= head;
	for (; n >= 64; n -= 64, d += 64, s += 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)s);
		__m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
		__m128i x = _mm_loadu_si128((const __m128i *)(s + 48));

		_mm_stream_si128((__m128i *)d, a);
		_mm_stream_si128((__m128i *)(d + 16), b);
		_mm_stream_si128((__m128i *)(d + 32), c);
		_mm_stream_si128((__m128i *)(d + 48), x);
	}
	memcpy(d, s, n);
#else
	memcpy(dst, src, n);
#endif
}

/*
 * Copy len bytes between host and tensor bytes [off, off + len); the range
 * was checked by the caller. to_tensor: 1 host -> tile memory, 0 back;
 * stream: non-temporal stores, fenced before returning.
 */
void ipue_tensor_copy(const struct ipue_rt_tensor *t, uint64_t off, void *host,
		      uint64_t len, int to_tensor, int stream)
{
	void (*copy)(void *, const void *, size_t) = stream ? copy_nt : copy_plain;
	uint32_t lo = 0, hi = t->niv;
	uint8_t *h = host;

	/* first interval ending after off */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->iv[mid].byte_begin + t->iv[mid].bytes <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t i = lo; len && i < t->niv; i++) {
		const struct ipue_rt_interval *iv = &t->iv[i];
		uint64_t skip = off - iv->byte_begin;
		uint64_t n = iv->bytes - skip < len ? iv->bytes - skip : len;

		if (!iv->ptr)
			;	/* another member's bytes (multi-IPU): its own copy moves them */
		else if (to_tensor)
			copy(iv->ptr + skip, h, (size_t)n);
		else
			copy(h, iv->ptr + skip, (size_t)n);
		h += n;
		off += n;
		len -= n;
	}
#if defined(__SSE2__)
	if (stream)
		_mm_sfence();
#endif
}

int ipue_handle_count(const struct ipue_engine *e)
{
	return e && e->g ? (int)e->g->nhandles : 0;
}

int ipue_handle_info(const struct ipue_engine *e, unsigned h, struct ipue_tensor_info *out)
{
	const struct ipue_rt_tensor *t;

	if (!e || !e->g)
		return IPUE_ENOGRAPH;
	if (h >= e->g->nhandles || !out)
		return IPUE_ERANGE;
	t = &e->g->tensors[e->g->handles[h].tensor];
	memset(out, 0, sizeof(*out));
	out->name = e->g->handles[h].name;
	out->tensor = e->g->handles[h].tensor;
	out->dtype = t->dtype;
	out->rank = t->rank;
	out->access = (uint16_t)e->g->handles[h].access;
	memcpy(out->shape, t->shape, sizeof(out->shape));
	out->elements = t->elements;
	out->bytes = t->bytes;
	return 0;
}

int ipue_handle_find(const struct ipue_engine *e, const char *name)
{
	if (!e || !e->g)
		return IPUE_ENOGRAPH;
	for (uint32_t i = 0; name && i < e->g->nhandles; i++)
		if (!strcmp(e->g->handles[i].name, name))
			return (int)i;
	return IPUE_ERANGE;
}

static int tensor_access(struct ipue_engine *e, unsigned h, uint64_t off,
			 void *buf, uint64_t len, int write, int stream)
{
	const struct ipue_rt_tensor *t;

	if (!e)
		return IPUE_EINVAL;
	if (!e->g)
		return IPUE_ENOGRAPH;
	if (h >= e->g->nhandles)
		return IPUE_ERANGE;
	if (!(e->g->handles[h].access & (write ? IPU_HANDLE_WRITE : IPU_HANDLE_READ)))
		return IPUE_EACCES;
	t = &e->g->tensors[e->g->handles[h].tensor];
	if (off > t->bytes || len > t->bytes - off || (len && !buf))
		return IPUE_ERANGE;
	if (busy(e))
		return IPUE_EBUSY;
	ipue_tensor_copy(t, off, buf, len, write, stream);
	if (write)	/* any host write counts: the host owns the contents */
		ipue_guards_mark(e->g, e->g->handles[h].tensor);
	return 0;
}

int ipue_tensor_write(struct ipue_engine *e, unsigned h, uint64_t off,
		      const void *src, uint64_t len)
{
	return tensor_access(e, h, off, (void *)src, len, 1, 0);
}

int ipue_tensor_read(struct ipue_engine *e, unsigned h, uint64_t off,
		     void *dst, uint64_t len)
{
	return tensor_access(e, h, off, dst, len, 0, 0);
}

int ipue_tensor_xfer(struct ipue_engine *e, unsigned h, uint64_t off,
		     void *buf, uint64_t len, unsigned flags)
{
	return tensor_access(e, h, off, buf, len, !!(flags & IPUE_XFER_WRITE),
			     !!(flags & IPUE_XFER_STREAM));
}

int ipue_parallel(struct ipue_engine *e, ipue_parallel_fn fn, void *arg)
{
	if (!e || !fn)
		return IPUE_EINVAL;
	if (busy(e))
		return IPUE_EBUSY;
	/* the owner thread calls this: the pool is not used concurrently */
	if (!e->pool && e->host_threads > 1)
		(void)ipue_pool_create(&e->pool, e->host_threads,
				       e->thread_init, e->thread_exit);
	if (!e->pool) {
		fn(arg, 0, 1);
		return 1;
	}
	ipue_pool_run(e->pool, fn, arg);
	ipue_pool_idle(e->pool);	/* a transfer: nothing follows soon */
	return (int)ipue_pool_size(e->pool);
}

/* ---- programs, metadata ---- */

int ipue_program_count(const struct ipue_engine *e)
{
	return e && e->g ? (int)e->g->nentries : 0;
}

const char *ipue_program_name(const struct ipue_engine *e, unsigned k)
{
	return e && e->g && k < e->g->nentries ? e->g->entry_names[k] : NULL;
}

int ipue_metadata_count(const struct ipue_engine *e)
{
	return e && e->g ? (int)e->g->nmeta : 0;
}

int ipue_metadata_at(const struct ipue_engine *e, unsigned i, const char **key, const char **value)
{
	if (!e || !e->g)
		return IPUE_ENOGRAPH;
	if (i >= e->g->nmeta)
		return IPUE_ERANGE;
	if (key)
		*key = e->g->meta[2 * i];
	if (value)
		*value = e->g->meta[2 * i + 1];
	return 0;
}

const char *ipue_metadata_get(const struct ipue_engine *e, const char *key)
{
	for (uint32_t i = 0; key && e && e->g && i < e->g->nmeta; i++)
		if (!strcmp(e->g->meta[2 * i], key))
			return e->g->meta[2 * i + 1];
	return NULL;
}

/* ---- streams ---- */

int ipue_stream_count(const struct ipue_engine *e)
{
	return e && e->g ? (int)e->g->nstreams : 0;
}

int ipue_stream_info(const struct ipue_engine *e, unsigned s, struct ipue_stream_info *out)
{
	const struct ipue_rt_stream *st;

	if (!e || !e->g)
		return IPUE_ENOGRAPH;
	if (s >= e->g->nstreams || !out)
		return IPUE_ERANGE;
	st = &e->g->streams[s];
	out->name = st->name;
	out->direction = st->direction;
	out->dtype = st->dtype;
	out->depth = st->depth;
	out->elements = st->elements;
	out->bytes = st->bytes;
	return 0;
}

int ipue_stream_find(const struct ipue_engine *e, const char *name)
{
	if (!e || !e->g)
		return IPUE_ENOGRAPH;
	for (uint32_t i = 0; name && i < e->g->nstreams; i++)
		if (!strcmp(e->g->streams[i].name, name))
			return (int)i;
	return IPUE_ERANGE;
}

int ipue_stream_connect(struct ipue_engine *e, unsigned s,
			const struct ipue_stream_callbacks *cb)
{
	struct ipue_rt_stream *st;

	if (!e)
		return IPUE_EINVAL;
	if (!e->g)
		return IPUE_ENOGRAPH;
	if (s >= e->g->nstreams)
		return IPUE_ERANGE;
	if (busy(e))
		return IPUE_EBUSY;
	st = &e->g->streams[s];
	ipue_stream_drop(st);
	if (cb) {
		st->cb = *cb;
		st->connected = 1;
	} else {
		memset(&st->cb, 0, sizeof(st->cb));
		st->connected = 0;
	}
	return 0;
}

/* ---- abort, cancel ---- */

int ipue_abort_status(const struct ipue_engine *e, uint32_t *code, uint32_t *node)
{
	if (!e || !e->aborted)
		return 0;
	if (code)
		*code = e->abort_code;
	if (node)
		*node = e->abort_node;
	return 1;
}

uint64_t ipue_progress(const struct ipue_engine *e)
{
	return e ? atomic_load_explicit(&e->progress, memory_order_relaxed) : 0;
}

int ipue_cancel(struct ipue_engine *e)
{
	int was;

	if (!e)
		return 0;
	pthread_mutex_lock(&e->run_lock);
	was = e->running;
	if (was)
		atomic_store(&e->cancel, 1);
	/* a member may wait in a barrier: end every member's run */
	if (was && e->g && e->g->multi)
		e->fab.ops->cancel(e->fab.ctx, IPUE_ECANCELED, IPUE_LINK_NONE);
	pthread_mutex_unlock(&e->run_lock);
	return was;
}

/* ---- multi-IPU groups ---- */

int ipue_set_fabric(struct ipue_engine *e, const struct ipue_fabric *f)
{
	if (!e)
		return IPUE_EINVAL;
	if (f && (!f->ops || !ipu_graph_ipus_ok(f->members) || f->member >= f->members ||
		  !f->ops->run_begin || !f->ops->barrier || !f->ops->write || !f->ops->route ||
		  !f->ops->cancel || !f->ops->poll))
		return IPUE_EINVAL;
	if (busy(e))
		return IPUE_EBUSY;
	ipue_engine_reset(e);
	memset(&e->fab, 0, sizeof(e->fab));
	if (f)
		e->fab = *f;
	return 0;
}

/* one peer's write into graph g's tile memory: 0 or IPUE_ERANGE */
static int deliver_one(const struct ipue_graph *g, uint32_t tile, uint32_t offset, const void *src,
		       uint64_t bytes)
{
	if (tile >= g->tiles || !g->tile_mem[tile] || offset > g->tile_bytes[tile] ||
	    bytes > g->tile_bytes[tile] - offset)
		return IPUE_ERANGE;
	memcpy(g->tile_mem[tile] + offset, src, (size_t)bytes);
	return 0;
}

int ipue_fabric_deliver_batch(struct ipue_engine *e, const struct ipue_fabric_write *w, uint32_t n)
{
	const struct ipue_graph *g;
	int rc = 0;

	if (!e || (n && !w))
		return IPUE_EINVAL;
	atomic_fetch_add(&e->delivering, 1);	/* then a reset waits for us */
	g = atomic_load(&e->accepting) ? e->g : NULL;
	if (!g)
		rc = IPUE_ENOGRAPH;
	for (uint32_t i = 0; g && i < n && !rc; i++)
		rc = deliver_one(g, w[i].tile, w[i].offset, w[i].src, w[i].bytes);
	atomic_fetch_sub(&e->delivering, 1);
	return rc;
}

int ipue_fabric_deliver(struct ipue_engine *e, uint32_t tile, uint32_t offset,
			const void *src, uint64_t bytes)
{
	const struct ipue_graph *g;
	int rc;

	if (!e)
		return IPUE_EINVAL;
	atomic_fetch_add(&e->delivering, 1);	/* then a reset waits for us */
	g = atomic_load(&e->accepting) ? e->g : NULL;
	rc = g ? deliver_one(g, tile, offset, src, bytes) : IPUE_ENOGRAPH;
	atomic_fetch_sub(&e->delivering, 1);
	return rc;
}

int ipue_link_status(const struct ipue_engine *e, uint32_t *link)
{
	if (!e || !e->linked)
		return 0;
	if (link)
		*link = e->link;
	return 1;
}

int ipue_graph_ipus(const struct ipue_engine *e, uint32_t *member)
{
	if (!e || !e->g)
		return IPUE_ENOGRAPH;
	if (member)
		*member = e->g->multi ? e->g->multi->member : 0;
	return e->g->multi ? (int)e->g->multi->ipus : 1;
}

/* ---- memory ---- */

void ipue_mem_stats(struct ipue_engine *e, struct ipue_mem_stats *out)
{
	const struct ipue_graph *g = e ? e->g : NULL;

	memset(out, 0, sizeof(*out));
	if (!g)
		return;
	out->tile_bytes_planned = g->planned;
	out->tile_bytes_reserved = g->arena.size;
	out->tile_bytes_resident = ipue_arena_resident(&g->arena);
	out->host_bytes = g->host_bytes;
	for (uint32_t s = 0; s < g->nstreams; s++)
		if (g->streams[s].fifo)
			out->host_bytes += g->streams[s].depth * g->streams[s].bytes;
	out->tiles_used = g->tiles_used;
}

uint64_t ipue_resident_bytes(struct ipue_engine *e)
{
	struct ipue_mem_stats ms;

	ipue_mem_stats(e, &ms);
	return ms.tile_bytes_resident + ms.host_bytes;
}
