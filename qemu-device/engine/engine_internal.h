/* SPDX-License-Identifier: MIT */
/*
 * Engine internals shared by the engine's .c files (not installed).
 * Ownership: struct ipue_engine owns one struct ipue_graph (or none); the
 * graph owns every table below and the tile arena. Everything is built and
 * bounds-checked once by the loader; run-time code trusts it.
 */
#ifndef IPUE_ENGINE_INTERNAL_H
#define IPUE_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "ipu/ipu_models.h"
#include "ipu_engine.h"
#include "codelets.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the engine reads graph binaries in place: little-endian hosts only"
#endif

/* loader limits (docs/graph-format.md "Limits") */
#define IPUE_MAX_PROGRAM_DEPTH	64
#define IPUE_MAX_PROGRAM_NODES	(1u << 20)
#define IPUE_TILE_ALIGN		64	/* each tile's base in the arena */

/* ---- cost model (docs/cost-model.md) ---- */
#define IPUE_COST_SYNC_CYCLES		500u
#define IPUE_COST_EXCHANGE_LATENCY	30u
#define IPUE_COST_EXCHANGE_BYTES_PER_CYCLE 4u
#define IPUE_COST_HOST_SYNC_CYCLES	480u	/* ~0.36 us at 1.33 GHz */
#define IPUE_COST_LINK_HOP_CYCLES	400u	/* ~0.3 us: an estimate, not published */
/* an external sync: the internal one, then the signal out and back over two hops */
#define IPUE_COST_EXT_SYNC_CYCLES	(IPUE_COST_SYNC_CYCLES + 2u * IPUE_COST_LINK_HOP_CYCLES)

struct ipue_model_figures {
	uint32_t model, tiles, tile_mem, clock_khz, threads;
	uint32_t host_bytes_per_kcycle;	/* host link bytes per 1000 tile cycles */
	uint32_t link_bytes_per_kcycle;	/* one IPU-Link, one direction, per 1000 cycles */
};
int ipue_model_lookup(uint32_t model, struct ipue_model_figures *out);
uint64_t ipue_cost_exchange(uint64_t max_tile_bytes);
uint64_t ipue_cost_stream(const struct ipue_model_figures *m, uint64_t bytes);
/* @bytes over a hop of @links links, one direction */
uint64_t ipue_cost_link(const struct ipue_model_figures *m, uint64_t bytes, uint32_t links);
/* list-schedule cycles[0..n) on IPU_WORKER_THREADS workers; the busiest one */
uint64_t ipue_cost_tile(const uint64_t *cycles, uint32_t n);

/* ---- tile memory: one lazily committed arena ---- */
struct ipue_arena {
	uint8_t *base;
	uint64_t size;		/* reserved bytes (page multiple) */
	int mmapped;
};
int ipue_arena_alloc(struct ipue_arena *a, uint64_t bytes);
void ipue_arena_free(struct ipue_arena *a);
uint64_t ipue_arena_resident(const struct ipue_arena *a);
/* commit every page now (IPUE_LOAD_COMMIT) */
void ipue_arena_commit(const struct ipue_arena *a);

/* ---- thread pool ---- */
typedef void (*ipue_job_fn)(void *arg, unsigned idx, unsigned n);
struct ipue_pool;
/* n participants including the caller of ipue_pool_run(); n-1 threads */
int ipue_pool_create(struct ipue_pool **out, unsigned n,
		     void (*thread_init)(void), void (*thread_exit)(void));
void ipue_pool_destroy(struct ipue_pool *p);
/* run fn(arg, i, n) for i in [0, n) concurrently; returns when all are done */
void ipue_pool_run(struct ipue_pool *p, ipue_job_fn fn, void *arg);
/* No job is coming soon: the threads stop spinning for one and sleep. */
void ipue_pool_idle(struct ipue_pool *p);
unsigned ipue_pool_size(const struct ipue_pool *p);

/* ---- run-time tables ---- */
struct ipue_rt_vertex {
	void (*run)(const struct ipue_field *f, const uint32_t *params);
	const struct ipue_field *f;
	const uint32_t *p;
	uint32_t nfields;		/* for the memory checker */
};

struct ipue_rt_cs {
	const char *name;
	struct ipue_rt_vertex *v;	/* nv vertices, graph order */
	uint32_t nv;
	uint32_t *split;		/* nsplit+1 bounds: piece i is [split[i], split[i+1]) */
	uint32_t nsplit;		/* 0: run on the calling thread, else
					 * host threads * IPUE_POOL_PIECES pieces */
	uint64_t cycles;		/* modeled compute-phase cycles */
	uint32_t *vtile;		/* [nv] tile of each vertex */
	struct ipue_span *wr;		/* bytes the vertices write, by begin */
	uint32_t nwr;
};

struct ipue_span {
	const uint8_t *b, *e;		/* [b, e) */
};

struct ipue_rt_copy {
	uint8_t *dst;
	const uint8_t *src;
	uint64_t bytes;
};

/* a copy into another member's tile memory, through the fabric (multi.c) */
/* a copy into another member's tiles: the fabric's write (fabric.h) */
#define ipue_rt_push ipue_fabric_write

struct ipue_rt_exchange {
	const char *name;
	struct ipue_rt_copy *c;		/* coalesced, sorted by dst; this member's
					 * own copies in a multi-IPU graph */
	uint32_t nc;
	struct ipue_rt_push *push;	/* multi-IPU: copies into other members */
	uint32_t npush;
	uint32_t cross;			/* multi-IPU: copies between IPUs, so the
					 * exchange is an external one */
	uint32_t *split;		/* as ipue_rt_cs */
	uint32_t nsplit;
	uint64_t bytes;
	uint64_t cycles;
};

/*
 * An exchange and the compute set right after it in a sequence, run tile by
 * tile (copies into a tile, then its vertices) so that the vertices read
 * what was just copied from cache. Same result as the two phases: vertices
 * touch only their tile, and none writes a byte the exchange reads
 * (fuse.c). Piece p: copies [cb[p], cb[p+1]) of x, then vertices
 * vorder[vb[p] .. vb[p+1]) of cs; one piece per tile.
 */
struct ipue_rt_fused {
	const struct ipue_rt_exchange *x;
	const struct ipue_rt_cs *cs;
	uint32_t *vorder, *cb, *vb;
	uint32_t npieces;
};

struct ipue_rt_interval {
	uint64_t byte_begin;		/* in the tensor's flattened bytes */
	uint64_t bytes;
	uint8_t *ptr;
};

struct ipue_rt_tensor {
	const char *name;
	uint8_t dtype, rank;
	uint32_t shape[IPU_GRAPH_MAX_RANK];
	uint64_t elements, bytes;
	struct ipue_rt_interval *iv;	/* points into graph->intervals */
	uint32_t niv;
};

struct ipue_rt_handle {
	const char *name;
	uint32_t tensor;
	uint32_t access;
};

struct ipue_rt_stream {
	const char *name;
	uint32_t index;			/* stream id passed to the callbacks */
	uint8_t direction, dtype;
	uint16_t depth;
	uint32_t elements;
	uint64_t bytes;
	struct ipue_stream_callbacks cb;
	int connected;
	uint8_t *fifo;			/* depth * bytes, allocated on first use */
	uint32_t head, count;
};

/* what a multi-IPU graph has beyond a single-IPU one (multi.c) */
struct ipue_multi {
	uint32_t ipus, tiles_per_ipu, member;
	uint64_t (*xpairs)[4];		/* [nex]: IPU pairs (a * 16 + b) of cross copies */
	uint64_t (*epairs)[4];		/* [nentries]: pairs a program's exchanges join */
	uint8_t *eknown;		/* [nentries]: epairs computed */
	uint8_t *seen;			/* [nnodes] scratch of that walk */
};

struct ipue_graph {
	uint8_t *bin;			/* private copy of the binary: strings live here */
	size_t bin_len;
	const char *strings;
	uint64_t strings_len;

	struct ipue_arena arena;
	uint32_t tiles;			/* tile numbers: the model's, x IPUs of a multi-IPU graph */
	uint8_t **tile_mem;		/* [tiles], NULL = no memory (or another member's) */
	uint32_t *tile_bytes;		/* [tiles] plan */
	struct ipue_multi *multi;	/* NULL: a single-IPU graph */
	uint64_t planned;
	uint32_t tiles_used;

	struct ipue_rt_tensor *tensors;	uint32_t ntensors;
	struct ipue_rt_interval *intervals; uint32_t nintervals;
	struct ipue_field *fields;	/* all vertices' bound fields */
	uint32_t *params;		/* IPUE_MAX_PARAMS per vertex, zero padded */
	struct ipue_rt_vertex *vertices; uint32_t nvertices;
	struct ipue_rt_cs *cs;		uint32_t ncs;
	struct ipue_rt_exchange *ex;	uint32_t nex;
	struct ipu_graph_prog_node *nodes; uint32_t nnodes;
	uint32_t *children;		uint32_t nchildren;
	struct ipue_rt_fused *fused;	uint32_t nfused;
	uint32_t *child_fused;		/* [nchildren] 0 or 1 + index in fused:
					 * this child and the next run fused */
	uint32_t *entries;		uint32_t nentries;
	const char **entry_names;
	struct ipue_rt_stream *streams;	uint32_t nstreams;
	struct ipue_rt_handle *handles;	uint32_t nhandles;
	const char **meta;		uint32_t nmeta;	/* key, value pairs */
	/* input guards (guards.c): records by program, written flag per tensor */
	struct ipu_graph_guard *guards;	uint32_t nguards;
	uint32_t *guard_first;		/* [nentries + 1] into guards */
	uint8_t *written;		/* [ntensors] */

	struct ipue_memcheck *mc;	/* IPUE_CONFIG_MEMCHECK and a plan: memcheck.c */

	uint64_t host_bytes;		/* metadata bytes allocated */
};

struct ipue_engine {
	struct ipue_model_figures m;
	unsigned host_threads;
	ipue_codelet_lookup_fn lookup;
	struct ipue_pool *pool;		/* created on first need */
	void (*thread_init)(void);	/* ipue_config hooks for pool threads */
	void (*thread_exit)(void);
	struct ipue_graph *g;		/* NULL = none */

	pthread_mutex_t run_lock;	/* guards running/cancel hand-over */
	int running;
	atomic_int cancel;
	atomic_uint_least64_t progress;	/* program steps ever run (ipue_progress) */

	int aborted;
	uint32_t abort_code, abort_node;
	int unwritten;			/* the last run was refused: guards.c */
	uint32_t unwritten_handle;
	int memcheck;			/* IPUE_CONFIG_MEMCHECK */
	int memcheck_failed;		/* the last run: IPUE_EMEMACCESS */
	char memcheck_msg[480];

	struct ipue_fabric fab;		/* ops NULL: in no group */
	/* peers' writes (ipue_fabric_deliver) against a reset freeing the graph */
	atomic_int accepting;		/* 1 while a graph takes them */
	atomic_int delivering;		/* writes under way */
	int linked;			/* the last run: IPUE_ELINK */
	uint32_t link;
};

/* loader.c */
int ipue_graph_load(struct ipue_engine *e, const void *buf, size_t len,
		    struct ipue_graph **out, struct ipue_load_error *err);
void ipue_graph_free(struct ipue_graph *g);

/* guards.c (docs/graph-format.md "Input guards") */
struct ipue_container;
int ipue_guards_load(struct ipue_graph *g, const struct ipue_container *c,
		     struct ipue_load_error *err);
void ipue_guards_mark(struct ipue_graph *g, uint32_t tensor);
int ipue_guards_check(struct ipue_engine *e, uint32_t program);
void ipue_guards_ran(struct ipue_graph *g, uint32_t program);


/* memcheck.c (IPUE_CONFIG_MEMCHECK): the regions checked at load, then accesses at run */
struct ipue_memcheck;
int ipue_memcheck_load(struct ipue_graph *g, uint32_t tiles, const struct ipu_graph_mem_region *r,
		       uint32_t n, struct ipue_load_error *err);
void ipue_memcheck_free(struct ipue_memcheck *mc);
/* the builder's step numbers: an entry program's first step, the steps a node counts */
uint64_t ipue_memcheck_entry_step(const struct ipue_memcheck *mc, uint32_t program);
uint64_t ipue_memcheck_steps(const struct ipue_memcheck *mc, uint32_t node);
int ipue_memcheck_cs(struct ipue_engine *e, const struct ipue_rt_cs *cs, uint64_t step);
int ipue_memcheck_exchange(struct ipue_engine *e, const struct ipue_rt_exchange *x, uint64_t step);
int ipue_memcheck_stream(struct ipue_engine *e, const struct ipue_rt_tensor *t, uint64_t step);

/* multi.c: multi-IPU graphs (docs/graph-format.md "Multi-IPU binaries") */
int ipue_multi_load(struct ipue_engine *e, struct ipue_graph *g, const struct ipue_container *c,
		    struct ipue_load_error *err);
void ipue_multi_free(struct ipue_graph *g);
/* the member owning global tile t */
static inline uint32_t ipue_tile_member(const struct ipue_graph *g, uint32_t t)
{
	return g->multi ? t / g->multi->tiles_per_ipu : 0;
}
static inline int ipue_tile_own(const struct ipue_graph *g, uint32_t t)
{
	return !g->multi || t / g->multi->tiles_per_ipu == g->multi->member;
}
/* load: a cross-IPU copy's traffic on its route's hops, then the exchange's link cycles */
struct ipue_link_acc;
struct ipue_link_acc *ipue_multi_acc_new(void);	/* free() it */
int ipue_multi_copy(struct ipue_engine *e, struct ipue_graph *g, struct ipue_link_acc *acc,
		    uint32_t xi, uint32_t a, uint32_t b, uint64_t bytes);
uint64_t ipue_multi_link_cycles(const struct ipue_engine *e, struct ipue_link_acc *acc);
int ipue_multi_run_begin(struct ipue_engine *e, uint32_t program);
int ipue_multi_run_end(struct ipue_engine *e, int rc, struct ipue_run_stats *st);
int ipue_multi_exchange(struct ipue_engine *e, const struct ipue_rt_exchange *x,
			struct ipue_run_stats *st);
int ipue_multi_cond(struct ipue_engine *e, const struct ipue_rt_tensor *t, int *value,
		    struct ipue_run_stats *st);
int ipue_multi_sync(struct ipue_engine *e, struct ipue_run_stats *st);
int ipue_multi_poll(struct ipue_engine *e);

/* exchange.c */
void ipue_exchange_run(struct ipue_engine *e, const struct ipue_rt_exchange *x);
void ipue_compute_run(struct ipue_engine *e, const struct ipue_rt_cs *cs);
void ipue_copy_range(const struct ipue_rt_copy *c, uint32_t b, uint32_t end);
void ipue_run_vertices(const struct ipue_rt_vertex *v, uint32_t b, uint32_t end);
/* a phase's pieces, claimed in order by the pool's threads */
struct ipue_claim {
	const void *obj;
	atomic_uint next;
};
unsigned ipue_claim_next(struct ipue_claim *cl);
/* pieces per host thread a phase is cut into; the threads claim them in
 * order, so a thread that runs slower (a busy core) takes fewer */
#define IPUE_POOL_PIECES	8u
/*
 * A phase runs on the pool's threads only when its host work is large
 * enough to pay for waking them: a compute set whose modelled cycles (plus
 * a dispatch cost per vertex) reach IPUE_POOL_MIN_CYCLES, an exchange that
 * copies IPUE_POOL_MIN_COPY_BYTES. Below that the calling thread runs it.
 * Measured on the MLP training step (bench-train, 2 threads): with 20k
 * cycles its many small phases spent more in wake-ups than in work and ran
 * 5-8x slower than on one thread; 400k keeps them on one thread while the
 * matmul and conv phases (millions of cycles) still split.
 */
#define IPUE_POOL_MIN_CYCLES		400000u
#define IPUE_POOL_VERTEX_WEIGHT		50u	/* host dispatch cost of a vertex */
#define IPUE_POOL_MIN_COPY_BYTES	(256u * 1024u)
int ipue_work_split(const uint64_t *weight, uint32_t n, unsigned parts,
		    uint64_t threshold, uint32_t **split, uint32_t *nsplit);

/* fuse.c */
int ipue_fuse_build(struct ipue_graph *g, uint32_t tiles);
void ipue_fused_run(struct ipue_engine *e, const struct ipue_rt_fused *f);
void ipue_fuse_free(struct ipue_graph *g);

/* stream.c */
int ipue_stream_h2d(struct ipue_rt_stream *s, const struct ipue_rt_tensor *t);
int ipue_stream_d2h(struct ipue_rt_stream *s, const struct ipue_rt_tensor *t);
int ipue_stream_flush(struct ipue_rt_stream *s);
void ipue_stream_drop(struct ipue_rt_stream *s);

/* tensor byte access through intervals (engine.c) */
void ipue_tensor_copy(const struct ipue_rt_tensor *t, uint64_t off, void *host,
		      uint64_t len, int to_tensor, int stream);

#endif /* IPUE_ENGINE_INTERNAL_H */
