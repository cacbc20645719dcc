/* SPDX-License-Identifier: MIT */
/*
 * Tile/BSP engine: runs a graph binary (include/ipu/graph_format.h,
 * docs/graph-format.md) on an emulated IPU made of tiles with private SRAM.
 *
 * Plain C11 + pthreads, no global mutable state. Users: the QEMU card
 * (runs it off the vCPU thread, cancels from another thread) and libipudev's
 * in-process model device.
 *
 * Threading: one engine is used by one thread at a time (the "owner"),
 * except ipue_cancel(), ipue_resident_bytes() and ipue_mem_stats(), which
 * any thread may call at any time. Internally a run spreads tiles over a
 * persistent pool of host threads.
 *
 * Errors: functions returning int return 0 (or a count/index >= 0) on
 * success and a negative IPUE_E* code on failure; ipue_strerror() names it.
 * Cost model and limits: docs/cost-model.md, docs/graph-format.md.
 */
#ifndef IPU_ENGINE_H
#define IPU_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "ipu/graph_format.h"
#include "fabric.h"

#define IPUE_API_VERSION	1

/* ---- status codes (negative) ---- */
enum ipue_status {
	IPUE_OK = 0,
	IPUE_EINVAL = -1,	/* bad argument */
	IPUE_ENOMEM = -2,	/* host allocation failed */
	IPUE_EFORMAT = -3,	/* graph binary rejected (see struct ipue_load_error) */
	IPUE_ENOGRAPH = -4,	/* no graph loaded */
	IPUE_ERANGE = -5,	/* index or byte range out of range */
	IPUE_EACCES = -6,	/* host handle lacks READ or WRITE access */
	IPUE_ESTREAM = -7,	/* stream not connected, callback failed, or underrun */
	IPUE_EABORT = -8,	/* AbortOnCondition fired: ipue_abort_status() */
	IPUE_ECANCELED = -9,	/* ipue_cancel() stopped the run */
	IPUE_ESTEPLIMIT = -10,	/* the run's step_limit was reached */
	IPUE_EMODEL = -11,	/* unknown model id, or graph for another model */
	IPUE_EBUSY = -12,	/* a run is in progress */
	IPUE_EUNWRITTEN = -13,	/* the program reads a host-writable tensor never
				 * written: ipue_unwritten_status() */
	IPUE_EMEMPLAN = -14,	/* IPUE_CONFIG_MEMCHECK: the memory plan lets two live
				 * regions overlap (struct ipue_load_error says which) */
	IPUE_EMEMACCESS = -15,	/* IPUE_CONFIG_MEMCHECK: an access outside the regions
				 * live at its step: ipue_memcheck_message() */
	IPUE_ELINK = -16,	/* multi-IPU run: a link it needs is down, or a link
				 * of the group went down: ipue_link_status() */
	IPUE_ESYNC = -17,	/* multi-IPU run: a member did not reach a sync in
				 * time, or left the group (fabric_local.h) */
};

const char *ipue_strerror(int status);	/* static string, never NULL */

struct ipue_engine;

/* ---- lifecycle ---- */
struct ipue_config {
	uint32_t model;		/* IPU_MODEL_* */
	uint32_t host_threads;	/* 0 = online cores; capped at IPUE_MAX_HOST_THREADS */
	uint32_t flags;		/* IPUE_CONFIG_* */
	uint32_t reserved;
	/*
	 * Optional: called on each of the engine's own threads as it starts
	 * and before it ends, for what the embedding program needs of its
	 * threads (QEMU: RCU registration, for DMA from ipue_parallel()).
	 */
	void (*thread_init)(void);
	void (*thread_exit)(void);
};
#define IPUE_MAX_HOST_THREADS 64
/*
 * Check the builder's memory plan (the memory_regions section; a binary
 * without one is not checked): at load, no two regions of a tile that
 * share a byte are live at one step (else IPUE_EMEMPLAN); at run, every
 * vertex field, exchange copy end and stream copy lies in regions of its
 * tile live at its step (else IPUE_EMEMACCESS). For tests: it costs a
 * search per access (docs/graph-format.md "Memory regions").
 */
#define IPUE_CONFIG_MEMCHECK	(1u << 0)
#define IPUE_CONFIG_FLAGS_ALL	IPUE_CONFIG_MEMCHECK

/*
 * Create an engine; *out owns it until ipue_engine_destroy(). Costs a few
 * KiB: no tile memory and no threads exist until a graph is loaded / run.
 * Errors: IPUE_EMODEL, IPUE_EINVAL, IPUE_ENOMEM.
 */
int ipue_engine_create(const struct ipue_config *cfg, struct ipue_engine **out);
/* stop threads and free everything; NULL is a no-op; no run may be in progress */
void ipue_engine_destroy(struct ipue_engine *e);
/* drop the graph, stream connections and abort status; free all tile memory */
void ipue_engine_reset(struct ipue_engine *e);

/* figures of the engine's model */
struct ipue_model_info {
	uint32_t model;
	uint32_t tiles;
	uint32_t tile_mem;	/* bytes per tile */
	uint32_t workers;	/* worker threads per tile (6) */
	uint32_t clock_khz;
	uint32_t host_threads;	/* host threads used by runs */
};
void ipue_model_info(const struct ipue_engine *e, struct ipue_model_info *out);

/*
 * Codelet lookup used by the loader: default ipue_codelet_find() (codelets.h).
 * Tests and fuzzers may install their own; must be set before ipue_load().
 * The returned pointers must stay valid while the graph is loaded.
 */
struct ipue_codelet;
typedef const struct ipue_codelet *(*ipue_codelet_lookup_fn)(uint16_t id);
void ipue_set_codelet_lookup(struct ipue_engine *e, ipue_codelet_lookup_fn fn);

/* ---- multi-IPU groups (docs/graph-format.md "Multi-IPU binaries") ---- */
/*
 * Make the engine member f->member of a group of f->members engines joined
 * by the link transport f (fabric.h; *f is copied, f->ctx stays the
 * fabric's), or leave any group (f NULL). Takes effect at the next load;
 * drops the loaded graph. A single-IPU binary runs alone whatever the
 * group; a multi-IPU binary of N IPUs loads only in a group of N.
 * Errors: IPUE_EINVAL (no ops, member >= members, members not 1, 2, 4, 8
 * or 16), IPUE_EBUSY (a run is in progress).
 */
int ipue_set_fabric(struct ipue_engine *e, const struct ipue_fabric *f);
/*
 * For the fabric: write @bytes from @src into this engine's own tile
 * memory at global tile @tile, byte @offset, as a peer's exchange copy
 * does. Any thread, also during a run (the exchange rules keep the bytes
 * apart). Errors: IPUE_ENOGRAPH, IPUE_ERANGE (not this member's tile, or
 * outside its plan).
 */
/*
 * For the fabric: the writes w[0..n), all into this engine, in order, as
 * ipue_fabric_deliver() does each (the graph taken once for the batch).
 * Returns 0 or the first failure's status (the writes after it not done).
 */
int ipue_fabric_deliver_batch(struct ipue_engine *e, const struct ipue_fabric_write *w, uint32_t n);
int ipue_fabric_deliver(struct ipue_engine *e, uint32_t tile, uint32_t offset,
			const void *src, uint64_t bytes);
/*
 * After IPUE_ELINK: *link = IPUE_LINK_ID(fabric index, port) of the link
 * that was down or went down; returns 1 if the last run ended so, else 0.
 * Cleared by the next run.
 */
int ipue_link_status(const struct ipue_engine *e, uint32_t *link);
/*
 * The loaded graph's IPUs (1 for a single-IPU binary) and this engine's
 * member index in it; returns the IPU count or IPUE_ENOGRAPH.
 */
int ipue_graph_ipus(const struct ipue_engine *e, uint32_t *member);

/* ---- loading ---- */
struct ipue_load_error {
	int status;		/* same as ipue_load()'s return */
	uint32_t section;	/* IPU_GRAPH_SEC_* at fault, 0 = header/section table */
	uint32_t record;	/* record index in that section, or IPU_GRAPH_NONE */
	char section_name[24];	/* "header", "vertices", ... */
	char message[200];	/* human readable, NUL-terminated */
};

/*
 * Validate and load a graph binary from buf (copied: the caller keeps buf),
 * replacing any loaded graph (even on failure the old graph is gone).
 * Allocates tile memory per the memory plans (committed on first touch) and
 * applies INIT records. err may be NULL.
 * Errors: IPUE_EFORMAT (details in *err), IPUE_EMODEL, IPUE_ENOMEM, IPUE_EBUSY.
 */
int ipue_load(struct ipue_engine *e, const void *buf, size_t len,
	      struct ipue_load_error *err);
/*
 * ipue_load() with flags: IPUE_LOAD_COMMIT commits every planned tile's
 * memory now (the pages are touched at load, so the first run does not
 * pay for committing them; ipue_mem_stats() shows them resident).
 * Errors: those of ipue_load(), IPUE_EINVAL for unknown flags.
 */
#define IPUE_LOAD_COMMIT	(1u << 0)
#define IPUE_LOAD_FLAGS_ALL	IPUE_LOAD_COMMIT
int ipue_load_ex(struct ipue_engine *e, const void *buf, size_t len,
		 unsigned flags, struct ipue_load_error *err);
int ipue_loaded(const struct ipue_engine *e);	/* 1 if a graph is loaded */

/* ---- host-visible tensors (handles) ---- */
struct ipue_tensor_info {
	const char *name;	/* owned by the engine, valid until reset/load */
	uint32_t tensor;	/* tensor id in the graph */
	uint8_t dtype;		/* IPU_DTYPE_* */
	uint8_t rank;
	uint16_t access;	/* IPU_HANDLE_READ | IPU_HANDLE_WRITE */
	uint32_t shape[IPU_GRAPH_MAX_RANK];
	uint64_t elements;
	uint64_t bytes;
};
int ipue_handle_count(const struct ipue_engine *e);	/* >= 0 */
int ipue_handle_info(const struct ipue_engine *e, unsigned h, struct ipue_tensor_info *out);
int ipue_handle_find(const struct ipue_engine *e, const char *name); /* handle, IPUE_ERANGE or IPUE_ENOGRAPH */
/*
 * Copy len bytes at byte offset off of the tensor behind handle h (row-major
 * element order, native element encoding) from/to host memory.
 * Errors: IPUE_ENOGRAPH, IPUE_ERANGE, IPUE_EACCES, IPUE_EBUSY.
 */
int ipue_tensor_write(struct ipue_engine *e, unsigned h, uint64_t off,
		      const void *src, uint64_t len);
int ipue_tensor_read(struct ipue_engine *e, unsigned h, uint64_t off,
		     void *dst, uint64_t len);
/*
 * The same, for a piece of a bigger transfer: with IPUE_XFER_STREAM (the
 * whole transfer is far larger than the caches) the destination is written
 * with non-temporal stores, which do not read it first: a third less
 * memory traffic. The stores are fenced before the call returns.
 */
#define IPUE_XFER_WRITE		(1u << 0)	/* host -> tensor */
#define IPUE_XFER_STREAM	(1u << 1)
int ipue_tensor_xfer(struct ipue_engine *e, unsigned h, uint64_t off,
		     void *buf, uint64_t len, unsigned flags);

/*
 * Run fn(arg, i, n) for i in [0, n) on the engine's host threads (n of
 * them, the caller included) and return n when all are done: a bulk host
 * copy split over them goes at the memory's speed, not one core's. While
 * it runs, fn may call ipue_tensor_write()/ipue_tensor_read() on disjoint
 * byte ranges concurrently; nothing else. Errors: IPUE_EINVAL, IPUE_EBUSY.
 */
typedef void (*ipue_parallel_fn)(void *arg, unsigned i, unsigned n);
int ipue_parallel(struct ipue_engine *e, ipue_parallel_fn fn, void *arg);

/* ---- programs ---- */
int ipue_program_count(const struct ipue_engine *e);
const char *ipue_program_name(const struct ipue_engine *e, unsigned k); /* NULL if out of range */

/* ---- metadata (free-form key/value strings of the graph) ---- */
int ipue_metadata_count(const struct ipue_engine *e);
int ipue_metadata_at(const struct ipue_engine *e, unsigned i, const char **key, const char **value);
const char *ipue_metadata_get(const struct ipue_engine *e, const char *key); /* NULL if absent */

/* ---- streams ---- */
struct ipue_stream_info {
	const char *name;
	uint8_t direction;	/* IPU_STREAM_* */
	uint8_t dtype;
	uint16_t depth;
	uint32_t elements;
	uint64_t bytes;		/* per transfer */
};
int ipue_stream_count(const struct ipue_engine *e);
int ipue_stream_info(const struct ipue_engine *e, unsigned s, struct ipue_stream_info *out);
int ipue_stream_find(const struct ipue_engine *e, const char *name); /* id, IPUE_ERANGE or IPUE_ENOGRAPH */

/*
 * Host callbacks of a stream, called on the thread running ipue_run().
 * fetch (host->device): fill dst with len bytes (one transfer). Return 0 on
 *   success, IPUE_STREAM_NO_DATA if no more data is available now (ends a
 *   prefetch; an underrun if the FIFO is empty), or a negative value to fail
 *   the run with IPUE_ESTREAM.
 * push (device->host): consume len bytes (one transfer); 0 or negative
 *   (fails the run with IPUE_ESTREAM).
 * Buffering depth d: a StreamCopy from an empty host->device FIFO fetches up
 * to d transfers ahead; device->host transfers are queued and pushed when
 * d are queued, and at the end of the run (also on error/abort/cancel).
 */
#define IPUE_STREAM_NO_DATA 1
struct ipue_stream_callbacks {
	int (*fetch)(void *user, unsigned stream, void *dst, size_t len);
	int (*push)(void *user, unsigned stream, const void *src, size_t len);
	void *user;
};
/* connect (cb copied) or disconnect (cb NULL); drops queued transfers */
int ipue_stream_connect(struct ipue_engine *e, unsigned s,
			const struct ipue_stream_callbacks *cb);

/* ---- running ---- */
struct ipue_run_opts {
	uint32_t program;	/* entry program index K */
	uint32_t flags;		/* 0 */
	uint64_t repeat;	/* run it this many times; 0 = once */
	uint64_t step_limit;	/* max program steps (nodes + loop iterations)
				 * per call, 0 = unlimited; exceeded: IPUE_ESTEPLIMIT */
};

struct ipue_run_stats {
	uint64_t host_ns;	/* measured wall time of the call */
	uint64_t cycles;	/* modeled chip cycles: sum of the four below */
	uint64_t cycles_compute;
	uint64_t cycles_sync;
	uint64_t cycles_exchange;
	uint64_t cycles_stream;	/* host stream transfers */
	uint64_t steps;		/* program steps executed */
	uint64_t compute_sets;	/* Execute nodes run */
	uint64_t exchanges;	/* Copy nodes run */
	uint64_t syncs;
	uint64_t stream_bytes_h2d;
	uint64_t stream_bytes_d2h;
	uint64_t exchange_bytes;
	uint64_t reserved[4];
};

/*
 * Run entry program opts->program (opts->repeat times). stats may be NULL;
 * it is filled also when the run fails part-way.
 * Returns 0, or IPUE_EABORT / IPUE_ECANCELED / IPUE_ESTEPLIMIT / IPUE_ESTREAM /
 * IPUE_ENOGRAPH / IPUE_ERANGE / IPUE_ENOMEM / IPUE_EMEMACCESS, or IPUE_EUNWRITTEN before
 * anything ran. Tile memory keeps whatever the
 * program wrote before stopping. A multi-IPU graph's run goes on only while
 * every member's does: a member that fails ends the others' runs with its
 * status (IPUE_ELINK for a link), and ipue_cancel() on one member cancels
 * all.
 */
int ipue_run(struct ipue_engine *e, const struct ipue_run_opts *opts,
	     struct ipue_run_stats *stats);

/*
 * After IPUE_EABORT: *code = the node's abort code, *node = its node id;
 * returns 1 if the last run aborted, else 0. Cleared by the next run.
 */
int ipue_abort_status(const struct ipue_engine *e, uint32_t *code, uint32_t *node);

/*
 * After IPUE_EUNWRITTEN: *handle = the host handle whose tensor the program
 * reads but nothing wrote (host write, stream copy, a program that writes
 * it whole, initial data; docs/graph-format.md "Input guards"); returns 1
 * if the last run was refused so, else 0. Cleared by the next run.
 */
int ipue_unwritten_status(const struct ipue_engine *e, uint32_t *handle);

/*
 * After IPUE_EMEMACCESS: the message naming the step, tile, bytes and the
 * regions found (owned by the engine, valid until the next run or reset);
 * NULL if the last run did not fail so.
 */
const char *ipue_memcheck_message(const struct ipue_engine *e);

/*
 * Any thread: stop the run in progress at the next program step or
 * superstep boundary (it returns IPUE_ECANCELED). Returns 1 if a run was in
 * progress, 0 if not (then nothing happens: cancel is not sticky).
 */
int ipue_cancel(struct ipue_engine *e);

/*
 * Any thread: program steps this engine has executed since it was created,
 * over all runs (a card's watchdog tells a moving run from a hung one by
 * it). Never decreases; 0 for a NULL engine.
 */
uint64_t ipue_progress(const struct ipue_engine *e);

/* ---- memory ---- */
struct ipue_mem_stats {
	uint64_t tile_bytes_planned;	/* sum of tile memory plans */
	uint64_t tile_bytes_reserved;	/* address space held for tiles */
	uint64_t tile_bytes_resident;	/* of it in RAM (Linux: mincore), else = reserved */
	uint64_t host_bytes;		/* engine metadata: graph copy, tables, FIFOs */
	uint32_t tiles_used;		/* tiles with a plan */
	uint32_t reserved;
};
/* any thread; consistent while no load/reset runs concurrently */
void ipue_mem_stats(struct ipue_engine *e, struct ipue_mem_stats *out);
/* tile_bytes_resident + host_bytes */
uint64_t ipue_resident_bytes(struct ipue_engine *e);

#endif /* IPU_ENGINE_H */
