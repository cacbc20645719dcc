/* SPDX-License-Identifier: MIT */
/*
 * Graph builder internals shared by builder.c and partition.c (never
 * installed). See docs/builder.md.
 */
#ifndef IPUDEV_BUILDER_INTERNAL_H
#define IPUDEV_BUILDER_INTERNAL_H

#include <stdint.h>

#include "internal.h"
#include "ipu/graph_format.h"

/* ---- the graph's objects (builder.c builds them, memplan.c plans their memory) ---- */

struct rgn {
	uint32_t off, end;	/* bytes [off, end) */
	uint32_t owner;		/* vertex id (compute sets) */
	int32_t tensor;		/* for messages, -1 = none */
	uint8_t write;
};

struct tile_rgns {
	struct rgn *r;
	size_t n, cap;
};

struct ipu__cs {
	char *name;
	uint32_t *v;
	size_t n, cap;
	struct tile_rgns *tiles;	/* [g->tiles], allocated on first vertex */
};

struct ipu__ex {
	char *name;
	struct ipu_graph_copy *c;
	size_t n, cap;
	struct tile_rgns *dst;		/* [g->tiles] */
	struct tile_rgns *src;
};

struct ipu__node {
	struct ipu_graph_prog_node n;
	uint32_t *ch;
	size_t nch, cch;
};

struct ipu__stream {
	char *name;
	uint8_t dir, dtype;
	uint16_t depth;
	uint32_t elements;
};

struct ipu__handle {
	char *name;
	uint32_t tensor, access;
};

struct ipu__kv {
	char *k, *v;
};

struct ipu__entry {
	char *name;
	uint32_t node;
};

/* one ipu__tile_alloc(): bytes [off, off + bytes) of tile */
struct ipu__alloc {
	uint32_t tile, off, bytes;
};

struct ipu_graph {
	uint32_t model, tiles, tile_mem;
	/*
	 * IPUs (multi.c): a graph of ipus IPUs has tiles = ipus * tiles_per_ipu,
	 * all global; a replicated one (replicas > 1) is built as one replica on
	 * tiles = tiles_per_ipu and written for ipus = replicas (replicate.c).
	 */
	uint32_t ipus, tiles_per_ipu, replicas;
	uint32_t *top;			/* bytes allocated per tile (build-time offsets) */
	uint32_t vmem;			/* limit of top: tile_mem, or more with reuse */
	unsigned char *scratch;		/* vmem bytes, for codelet checks */
	struct ipu__alloc *al;		/* every allocation, in order */
	size_t nal, cal;
	int reuse;			/* option "memory.reuse" (memplan.c) */
	unsigned memplan_fault;		/* IPU__MEMPLAN_FAULT_*: tests of the engine's checker */
	double amp;			/* option "availableMemoryProportion" */

	struct ipu__tensor *t;
	size_t nt, ct;
	struct ipu_graph_vertex *v;
	size_t nv, cv;
	struct ipu_graph_field *f;
	size_t nf, cf;
	uint32_t *p;
	size_t np, cp;
	struct ipu__cs *cs;
	size_t ncs, ccs;
	struct ipu__ex *ex;
	size_t nex, cex;
	struct ipu__node *nodes;
	size_t nn, cn;
	struct ipu__entry *ent;
	size_t ne, ce;
	struct ipu__stream *st;
	size_t ns, cst;
	struct ipu__handle *h;
	size_t nh, ch;
	struct ipu__kv *kv;
	size_t nkv, ckv;
	char **unames;
	size_t nun, cun;
	unsigned useq;
	bool zero_init;		/* no input guards: ipu_graph_set_zero_init() */
};


/* one mapped range of a tensor: elements [begin, begin + count) on tile at off */
struct ipu__iv {
	uint64_t begin;
	uint64_t count;
	uint32_t tile;
	uint32_t off;
};

struct ipu__tensor {
	char *name;
	uint8_t dtype;
	uint8_t rank;
	uint16_t flags;
	uint32_t shape[IPU_GRAPH_MAX_RANK];
	uint64_t elements;
	struct ipu__iv *iv;	/* sorted by begin, non-overlapping */
	size_t niv, civ;
	uint64_t mapped;	/* elements mapped so far */
	void *init;		/* initial contents (elements * size bytes) or NULL */
	int exposed_write;
	struct ipu__hint *hint;	/* block buffers reserved by the partition helpers */
	size_t nhint, chint;
	/*
	 * A view (views.c: reshape, slice, concat, a transpose that keeps runs):
	 * its intervals point into memory that other tensors own, so a view
	 * NEVER owns memory. A memory planner allocates nothing for it, frees
	 * nothing through it, and counts its reads and writes as uses of the
	 * tensors whose memory its intervals reach (base, followed while it is
	 * itself a view; a concat also reaches its other inputs).
	 */
	uint8_t view;
	int32_t base;		/* view: the tensor it was made from (a concat's first input) */
};

/*
 * A hint: on tile, a row-major buffer at off holds (or will hold, after an
 * exchange) block rows [r0, r1) x cols [c0, c1) of a rank-2 tensor; the
 * elements of the block mapped to this tile already live at their place in
 * it. Set by ipu_matmul_create_lhs/rhs, used by ipu_matmul.
 */
struct ipu__hint {
	uint32_t tile, off, r0, r1, c0, c1;
};
int ipu__hint_add(struct ipu_graph *g, int tensor, const struct ipu__hint *h);
long ipu__hint_find(const struct ipu_graph *g, int tensor, unsigned tile, uint32_t r0,
		    uint32_t r1, uint32_t c0, uint32_t c1);

/* the part of a slice that lies in one interval */
struct ipu__piece {
	uint64_t begin;		/* element index in the tensor */
	uint64_t count;
	uint32_t tile;
	uint32_t off;		/* bytes on the tile */
};

/*
 * Walk the intervals of a slice: fills up to max pieces (merged when
 * consecutive intervals continue each other in one tile's memory); returns
 * the number of pieces, or -ENOENT if some element is unmapped (then
 * *unmapped is its index).
 */
long ipu__slice_pieces(const struct ipu_graph *g, int tensor, uint64_t begin,
		       uint64_t count, struct ipu__piece **out, uint64_t *unmapped);

const struct ipu__tensor *ipu__graph_tensor(const struct ipu_graph *g, int t);

/* allocate bytes on a tile with an alignment (power of two); offset or -ENOSPC */
long ipu__tile_alloc(struct ipu_graph *g, unsigned tile, uint64_t bytes,
		     unsigned align, const char *what, struct ipu_error *err);
/* like ipu_graph_map() with a minimum alignment for the allocation */
int ipu__map_aligned(struct ipu_graph *g, int tensor, uint64_t begin,
		     uint64_t count, unsigned tile, unsigned align,
		     struct ipu_error *err);

/* a unique name "<base><suffix>" kept by the graph (for generated objects) */
const char *ipu__graph_uname(struct ipu_graph *g, const char *base, const char *suffix);

/* a raw vertex field: a region of the vertex's tile */
struct ipu__rawfield {
	uint32_t off;		/* bytes */
	uint32_t count;		/* elements */
	uint8_t dtype;
	int32_t tensor;		/* for messages, -1 = internal buffer */
	uint64_t begin;		/* element index in the tensor, for messages */
};
int ipu__add_vertex_raw(struct ipu_graph *g, int cs, unsigned codelet, unsigned tile,
			const struct ipu__rawfield *fl, unsigned nfields,
			const uint32_t *params, unsigned nparams, struct ipu_error *err);
/* one copy of bytes between tile regions (validated, merged with the previous) */
int ipu__exchange_raw(struct ipu_graph *g, int ex, unsigned src_tile, uint32_t src_off,
		      unsigned dst_tile, uint32_t dst_off, uint32_t bytes,
		      int32_t src_tensor, int32_t dst_tensor, struct ipu_error *err);
/*
 * A copy between replicas of a replicated graph (collectives.c): bytes from
 * tile src_tile of replica src_rep to dst_tile of replica dst_rep (tiles of
 * one replica), written once at its place in the expanded binary (not
 * repeated per replica). Kept in the exchange's copies with the replicas in
 * the record's reserved field (IPU__COPY_REPLICA), so the memory planner
 * sees its ends like any copy's; only its ranges are checked (the replicas'
 * copies overlap in one replica's tiles). 0 or negative errno (reported).
 */
#define IPU__COPY_REPLICA		0x80000000u
#define IPU__COPY_REPLICA_TAG(s, d)	(IPU__COPY_REPLICA | (uint32_t)(s) << 8 | (uint32_t)(d))
#define IPU__COPY_SRC_REP(tag)		(((tag) >> 8) & 0xffu)
#define IPU__COPY_DST_REP(tag)		((tag) & 0xffu)
int ipu__exchange_replica(struct ipu_graph *g, int ex, unsigned src_rep, unsigned src_tile,
			  uint32_t src_off, unsigned dst_rep, unsigned dst_tile, uint32_t dst_off,
			  uint32_t bytes, struct ipu_error *err);
/* a graph of @ipus IPUs of @model, built as @replicas... (multi.c: 1, 1 for ipu_graph_create()) */
int ipu__graph_new(uint32_t model, unsigned ipus, unsigned replicas, const char *fn,
		   struct ipu_graph **out, struct ipu_error *err);
/* the IPU all of @tensor's mapped elements lie on; -1 if they span IPUs, none, or one IPU is built (multi.c) */
int ipu__tensor_ipu(const struct ipu_graph *g, int tensor);
/* map all of @tensor evenly over tiles [first, first + n) in chunks of @grain (0: 1) elements */
int ipu__map_tiles(struct ipu_graph *g, int tensor, unsigned first, unsigned n, uint64_t grain,
		   const char *fn, struct ipu_error *err);
/*
 * The planned graph @v of a replicated graph expanded over its replicas into
 * *@e (replicate.c): tensors of shape [replicas, ...], tile plans, vertices,
 * compute sets, copies and initial contents repeated on each replica's IPU,
 * cross-replica copies at their places. *e shares v's other arrays; free
 * with ipu__replicate_free(). 0, -ENOMEM or -EINVAL (a rank 6 tensor:
 * reported).
 */
int ipu__replicate(const struct ipu_graph *v, struct ipu_graph *e, struct ipu_error *err);
void ipu__replicate_free(struct ipu_graph *e);

/* the copy records of all the graph's exchanges so far (for tests of a plan's cost) */
size_t ipu__graph_copy_count(const struct ipu_graph *g);
/*
 * ipu_graph_write() with the form chosen: @compact packs the record
 * sections (docs/graph-format.md, "Packed tables"; ipu_graph_write()'s
 * form), else every section is plain (the 1.0 form, for tests and the
 * benchmark's comparison). Ownership and errors as ipu_graph_write().
 */
int ipu__graph_write_form(struct ipu_graph *g, bool compact, void **out, size_t *outlen,
			  struct ipu_error *err);
/* map elements at a given offset of memory already allocated on the tile */
int ipu__map_at(struct ipu_graph *g, int tensor, uint64_t begin, uint64_t count,
		unsigned tile, uint32_t off, struct ipu_error *err);

/*
 * Copy elements [begin, begin + count) of t, in order, to tile from offset
 * dst on, by exchange ex (pieces already in place stay). 0 or negative
 * errno (reported; -EINVAL when an element is unmapped) (partition.c).
 */
int ipu__gather_to(struct ipu_graph *g, int ex, int t, uint64_t begin, uint64_t count, unsigned tile,
		   uint32_t dst, struct ipu_error *err);
/*
 * Write at dst on tile the [c1 - c0][r1 - r0] row-major transpose of rows
 * [r0, r1) x columns [c0, c1) of t seen as rows of cols elements: the
 * block's rows gathered by exchange *ex to scratch on tile (room for the
 * block, not overlapping dst; < 0: allocated), then a Transpose vertex in
 * compute set *cs (gathered straight to dst when a side is 1: nothing to
 * transpose). *ex and *cs are created, named name, on first use (< 0).
 * 0 or negative errno (views.c).
 */
int ipu__transpose_block(struct ipu_graph *g, int *ex, int *cs, const char *name, int t, uint64_t cols,
			 uint64_t r0, uint64_t r1, uint64_t c0, uint64_t c1, unsigned tile, uint32_t dst,
			 long scratch, struct ipu_error *err);

/*
 * ipu_binary() with b seen as shape bshape (brank dims, b's element count;
 * NULL: b's own shape), e.g. a row reduction [R] as [R, 1] (partition.c).
 */
int ipu__binary_bcast(struct ipu_graph *g, int seq, unsigned op, int a, int b, unsigned brank,
		      const uint32_t *bshape, const char *name, struct ipu_error *err);
/* "[4, 5]" (rank 0: "[]") into buf (partition.c) */
const char *ipu__shape_str(char *buf, size_t n, unsigned rank, const uint32_t *shape);
/*
 * A three-field elementwise codelet (a, b, out) over a and b of one dtype
 * and shape (mapped; the caller checks): out laid out like a, or a itself
 * when name is NULL; parts of b not on a's tiles are copied there. The
 * output's id or negative errno (partition.c).
 */
int ipu__elementwise2(struct ipu_graph *g, int seq, unsigned codelet, int a, int b, const char *name,
		      struct ipu_error *err);

/*
 * A binary-shaped elementwise op for ipu__binary_op(): out = f(a, b) with b
 * broadcast onto a (and cond, when given, an i32 tensor of a's shape read
 * elementwise as the codelet's first field).
 */
struct ipu__binspec {
	const char *op;		/* the public name, for messages */
	const char *cs;		/* suffix of the compute set's name */
	unsigned codelet;	/* fields [cond,] a, b, out */
	unsigned inplace;	/* in place: a codelet of fields [cond,] a (InOut), b; = codelet: out
				 * bound over a (the codelet allows it); 0: none, a name is required */
	unsigned out_dtype;	/* 0: a's */
	int cond;		/* -1 or the cond tensor */
};
int ipu__binary_op(struct ipu_graph *g, int seq, const struct ipu__binspec *spec, int a, int b,
		   unsigned brank, const uint32_t *bshape, const char *name, struct ipu_error *err);

/*
 * The plan of a fused elementwise op over n <= IPU__BCAST_MAX operands
 * (map.c): @a (mapped; the output) cut into vertices as ipu__binary_op()
 * cuts it, within segments where every operand b[k] (numpy-broadcast onto
 * a's shape, any dtype) is either contiguous or one element; the parts of
 * each b[k] a vertex reads made local to its tile by copies in exchange
 * *ex (named exname, created on first use: *ex < 0). *vs gets the vertices
 * (free() it, also on error); their count or negative errno (-EINVAL
 * naming @op and the shapes that do not broadcast).
 */
#define IPU__BCAST_MAX 8
struct ipu__bcast_vertex {
	uint32_t tile;
	uint64_t e, n;			/* elements [e, e + n) of a */
	uint32_t aoff;			/* their offset on tile */
	uint32_t boff[IPU__BCAST_MAX];	/* b[k]'s part on tile */
	uint32_t bcount[IPU__BCAST_MAX];	/* its elements: n, or 1 (broadcast) */
};
long ipu__bcast_plan(struct ipu_graph *g, const char *op, int a, const int *b, unsigned nb, int *ex,
		     const char *exname, struct ipu__bcast_vertex **vs, struct ipu_error *err);

/*
 * A new tensor @name of @like's shape and layout and dtype @dtype (0:
 * like's); @like itself when @name is NULL. Id or negative errno.
 */
int ipu__output_like(struct ipu_graph *g, const char *name, int like, unsigned dtype,
		     struct ipu_error *err);

/*
 * The checks of an op @op making output @name from tensor @in (@what names
 * its role): a graph, a name, a fully mapped @in, @name free. 0 or
 * -EINVAL/-EEXIST naming @op, the tensor and the reason (partition.c).
 */
int ipu__check_op_input(const struct ipu_graph *g, int in, const char *name, const char *op, const char *what,
			struct ipu_error *err);
/*
 * Offset on their tile of elements [begin, begin + count) of t, which the
 * caller laid out as one piece; -EINVAL "OP: internal layout error" if not.
 */
long ipu__piece_off(const struct ipu_graph *g, int t, uint64_t begin, uint64_t count, const char *op,
		    struct ipu_error *err);
/*
 * Elements [begin, begin + count) of t contiguous on tile: their offset there
 * when they already are, else a new buffer filled by copies added to
 * exchange *ex (created, named exname, on first use: *ex < 0).
 */
long ipu__local_copy(struct ipu_graph *g, int *ex, const char *exname, int t, uint64_t begin,
		     uint64_t count, unsigned tile, struct ipu_error *err);

/*
 * Reduce @in (mapped, elements a multiple of @L >= 1) seen as rows of @L
 * elements into a new tensor @name of @orank dimensions @oshape (one element
 * per row; f32 for f16 input), spread like the rows (partition.c). An empty
 * @in (then @L may be 0: empty rows) gives numpy's result: sums of empty
 * rows are 0, their max/min -EINVAL naming @in (unless @oshape is empty
 * too); no rows, an empty output.
 */
int ipu__reduce_rows_as(struct ipu_graph *g, int seq, unsigned op, int in, uint64_t L, unsigned orank,
			const uint32_t *oshape, const char *name, struct ipu_error *err);

/* "<base>/<suffix>" into buf, for the temporaries of composed ops (nn.c) */
const char *ipu__sub_name(char *buf, size_t n, const char *base, const char *suffix);
/*
 * A rank-0 f32 constant named "<base>/<suffix>" of value v on the tile of
 * element 0 of @near (where its one user is). Id or negative errno (nn.c).
 */
int ipu__constant_near(struct ipu_graph *g, const char *base, const char *suffix, float v, int near,
		       struct ipu_error *err);
/* ---- empty tensors (empty.c; docs/builder.md "Empty tensors") ---- */

/* tensor t exists and has no elements */
bool ipu__empty(const struct ipu_graph *g, int t);
/* the product of a shape (1 for rank 0) */
uint64_t ipu__shape_count(unsigned rank, const uint32_t *shape);
/*
 * A new tensor @name (dtype, rank, shape) mapped linearly, every element
 * set to @bits (the dtype's bits, low bytes for f16) by a Fill compute set
 * appended to @seq on each run (nothing when the shape is empty): numpy's
 * result of an op over empty operands (0 for a sum, NaN for a mean). Id or
 * negative errno.
 */
int ipu__filled(struct ipu_graph *g, int seq, const char *name, unsigned dtype, unsigned rank,
		const uint32_t *shape, uint32_t bits, struct ipu_error *err);
/* ipu__filled() with 0 */
int ipu__zeros(struct ipu_graph *g, int seq, const char *name, unsigned dtype, unsigned rank,
	       const uint32_t *shape, struct ipu_error *err);
/*
 * A new empty tensor @name (the shape has a 0): no intervals, no program.
 * Id or negative errno.
 */
int ipu__empty_output(struct ipu_graph *g, const char *name, unsigned dtype, unsigned rank,
		      const uint32_t *shape, struct ipu_error *err);
/*
 * 0 when tensor t has elements, else -EINVAL "OP 'NAME': tensor 'T' [shape]
 * is empty: WHY" (an op that cannot take an empty operand).
 */
int ipu__refuse_empty(const struct ipu_graph *g, int t, const char *op, const char *name, const char *why,
		      struct ipu_error *err);

/* ---- memory planning (memplan.c; docs/builder.md "Memory") ---- */

/* how much more than its memory a tile may allocate while the graph is built, with reuse */
#define IPU__VMEM_FACTOR 32

/*
 * The planned tile memory of a graph: every allocation's group (the
 * allocations one record spans) moves from its build-time base to a planned
 * offset. Arrays by allocation are in (tile, build-time offset) order.
 */
struct ipu__memplan {
	uint32_t tiles;
	struct ipu__alloc *r;	/* the allocations, sorted */
	size_t n;
	size_t *tfirst;		/* [tiles + 1]: tile t's are [tfirst[t], tfirst[t + 1]) */
	uint32_t *gbase;	/* per allocation: its group's build-time base */
	uint32_t *goff;		/* per allocation: its group's planned offset */
	uint8_t *glive;		/* per allocation: its group is always live */
	uint8_t *tensor;	/* per allocation: holds tensor elements (else an op's buffer) */
	int64_t *gfirst, *glast; /* per allocation: its group's live steps */
	uint32_t *top;		/* [tiles] planned bytes (may exceed the tile's memory) */
	uint32_t *live;		/* [tiles] always-live bytes (the bottom of the plan) */
	uint64_t *temp;		/* [tiles] bytes of the not-always-live groups, before reuse */
	int bad;		/* a record pointed outside every allocation */
	unsigned fault;		/* the graph's memplan_fault */
};
/*
 * Faults a test plants in the plan to see the engine's memory checker
 * (IPUE_CONFIG_MEMCHECK) catch them; never set otherwise:
 * OVERLAP places every temporary at the bottom of the temporaries, so
 * temporaries live together share bytes (refused at load);
 * SHORTEN writes each temporary's region as live at its first step only
 * (the plan itself is sound: a later access fails the run).
 */
#define IPU__MEMPLAN_FAULT_OVERLAP	1u
#define IPU__MEMPLAN_FAULT_SHORTEN	2u
/* set g's planted faults (0: none); for tests, not public ABI */
void ipu__memplan_set_fault(struct ipu_graph *g, unsigned fault);
/* plan g's memory (g->reuse off: build-time offsets kept). 0 or -ENOMEM. */
int ipu__memplan_make(const struct ipu_graph *g, struct ipu__memplan *p);
void ipu__memplan_free(struct ipu__memplan *p);
/* planned offset of build-time bytes [off, end) of tile */
/* allocation i's MEMORY_REGIONS record (graph_format.h) */
void ipu__memplan_region(const struct ipu__memplan *p, size_t i, struct ipu_graph_mem_region *out);
uint32_t ipu__memplan_reloc(const struct ipu__memplan *p, unsigned tile, uint32_t off, uint32_t end);
/*
 * *v = g as planned: tensors' intervals, vertex fields and copies at their
 * planned offsets, top = p->top (v shares g's other arrays and p's top; free
 * with ipu__memplan_view_free()). 0 or -ENOMEM.
 */
int ipu__memplan_view(const struct ipu_graph *g, const struct ipu__memplan *p, struct ipu_graph *v);
void ipu__memplan_view_free(struct ipu_graph *v);
/*
 * Bytes per tile in use from the end of the programs built so far: always
 * live, or allocated and not used by a program yet (used[tiles]). 0 or -ENOMEM.
 */
int ipu__mem_in_use(const struct ipu_graph *g, uint32_t *used);
/* a report's sums and peak tile from its tiles (memreport.c) */
struct ipu_memory_report;
void ipu__memory_report_sums(struct ipu_memory_report *out);

#endif /* IPUDEV_BUILDER_INTERNAL_H */
