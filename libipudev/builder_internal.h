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
 * per row; f32 for f16 input), spread like the rows (partition.c).
 */
int ipu__reduce_rows_as(struct ipu_graph *g, int seq, unsigned op, int in, uint64_t L, unsigned orank,
			const uint32_t *oshape, const char *name, struct ipu_error *err);

#endif /* IPUDEV_BUILDER_INTERNAL_H */
