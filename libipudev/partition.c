// SPDX-License-Identifier: MIT
/*
 * Partitioned operations over all tiles, in the spirit of Poplar's popops and
 * poplin: elementwise unary/binary ops, reductions, and the matrix multiply
 * C = A x B with its tile grid, exchanges, partial matmul vertices and the
 * reduction of partials when K is split. See docs/builder.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"

_Static_assert((int)IPU_OP_RELU == (int)IPUE_UOP_RELU && (int)IPU_OP_NEG == (int)IPUE_UOP_NEG &&
	       (int)IPU_OP_GELU == (int)IPUE_UOP_GELU, "unary ops");
_Static_assert((int)IPU_OP_ADD == (int)IPUE_BOP_ADD && (int)IPU_OP_MIN == (int)IPUE_BOP_MIN, "binary ops");

#define WORKERS 6
#define MIN_CHUNK 64		/* elements: smaller pieces stay one vertex */

static int oom(struct ipu_error *err)
{
	return ipu__err(err, -ENOMEM, "partition: out of memory");
}

static struct ipu__rawfield rf(uint32_t off, uint64_t count, unsigned dtype, int tensor)
{
	struct ipu__rawfield f = { off, (uint32_t)count, (uint8_t)dtype, tensor, 0 };

	return f;
}

static int seq_add(struct ipu_graph *g, int seq, int node, struct ipu_error *err)
{
	if (node < 0)
		return node;
	return ipu_prog_append(g, seq, node, err);
}

static int add_exec(struct ipu_graph *g, int seq, int cs, struct ipu_error *err)
{
	return seq_add(g, seq, ipu_prog_execute(g, cs, err), err);
}

static int add_exch(struct ipu_graph *g, int seq, int ex, struct ipu_error *err)
{
	return seq_add(g, seq, ipu_prog_exchange(g, ex, err), err);
}

static char *nm(char *buf, size_t n, const char *base, const char *suffix)
{
	snprintf(buf, n, "%s/%s", base, suffix);
	return buf;
}

int ipu__output_like(struct ipu_graph *g, const char *name, int like, unsigned dtype,
		     struct ipu_error *err)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, like);
	uint32_t shape[IPU_MAX_RANK];
	int out, r;

	if (!name)
		return like;
	/* a copy: adding a tensor may move the graph's tensor array, t->shape with it */
	memcpy(shape, t->shape, sizeof(shape));
	out = ipu_graph_add_tensor(g, name, dtype ? dtype : t->dtype, t->rank, shape, err);
	if (out < 0)
		return out;
	if ((r = ipu_graph_map_like(g, out, like, err)))
		return r;
	return out;
}

static int output_like(struct ipu_graph *g, const char *name, int like, struct ipu_error *err)
{
	return ipu__output_like(g, name, like, 0, err);
}

/*
 * Offset on their tile of elements [begin, begin + count) of t, which the
 * caller laid out as one piece; -EINVAL "OP: internal layout error" if
 * they are not.
 */
long ipu__piece_off(const struct ipu_graph *g, int t, uint64_t begin, uint64_t count, const char *op,
		    struct ipu_error *err)
{
	struct ipu__piece *pc;
	long np = ipu__slice_pieces(g, t, begin, count, &pc, NULL), off;

	if (np != 1) {
		free(np > 0 ? pc : NULL);
		return ipu__err(err, -EINVAL, "%s: internal layout error", op);
	}
	off = pc[0].off;
	free(pc);
	return off;
}

static long piece_off(const struct ipu_graph *g, int t, uint64_t begin, uint64_t count,
		      const char *op, struct ipu_error *err)
{
	return ipu__piece_off(g, t, begin, count, op, err);
}

/* room in *arr (n of *cap elements of elsz bytes used) for one more; 0 or -ENOMEM (*arr kept) */
static int grow_array(void **arr, size_t n, size_t *cap, size_t elsz)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? 2 * *cap : 256;
	p = realloc(*arr, ncap * elsz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static int check_mapped(const struct ipu_graph *g, int t, const char *op, struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);

	if (!x)
		return ipu__err(err, -EINVAL, "%s: no tensor %d", op, t);
	if (x->mapped != x->elements)
		return ipu__err(err, -EINVAL, "%s: tensor '%s' is not fully mapped to tiles", op, x->name);
	return 0;
}

/*
 * The common checks of an op making output @name from tensor @in: a graph,
 * a free name, a fully mapped @in. 0 or -EINVAL/-EEXIST naming @op, the
 * tensor and the reason.
 */
int ipu__check_op_input(const struct ipu_graph *g, int in, const char *name, const char *op, const char *what,
			struct ipu_error *err)
{
	const struct ipu__tensor *t;

	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", op);
	if (!name || !*name)
		return ipu__err(err, -EINVAL, "%s: the output needs a name", op);
	if (!(t = ipu__graph_tensor(g, in)))
		return ipu__err(err, -EINVAL, "%s '%s': no tensor %d (%s)", op, name, in, what);
	if (t->mapped != t->elements)
		return ipu__err(err, -EINVAL, "%s '%s': tensor '%s' is not fully mapped to tiles", op, name,
				t->name);
	if (ipu_graph_find_tensor(g, name) >= 0)
		return ipu__err(err, -EEXIST, "%s: a tensor '%s' already exists", op, name);
	return 0;
}

/*
 * Copy the @n pieces @pc of tensor @t one after another to @tile from
 * offset @d on, by exchange @ex; a piece already in its place stays. Frees
 * @pc. Returns 0 or a negative errno (reported).
 */
static int gather(struct ipu_graph *g, int ex, int t, struct ipu__piece *pc, long n,
		  unsigned tile, uint32_t d, struct ipu_error *err)
{
	unsigned es = ipu_dtype_size(ipu__graph_tensor(g, t)->dtype);
	int r = 0;

	for (long i = 0; i < n && !r; i++) {
		if (pc[i].tile != tile || pc[i].off != d)
			r = ipu__exchange_raw(g, ex, pc[i].tile, pc[i].off, tile, d,
					      (uint32_t)(pc[i].count * es), t, -1, err);
		d += (uint32_t)(pc[i].count * es);
	}
	free(pc);
	return r;
}

int ipu__gather_to(struct ipu_graph *g, int ex, int t, uint64_t begin, uint64_t count, unsigned tile,
		   uint32_t dst, struct ipu_error *err)
{
	struct ipu__piece *pc;
	long n = ipu__slice_pieces(g, t, begin, count, &pc, NULL);

	if (n < 0)
		return n == -ENOMEM ? oom(err)
				    : ipu__err(err, -EINVAL, "tensor '%s' is not mapped", ipu__graph_tensor(g, t)->name);
	return gather(g, ex, t, pc, n, tile, dst, err);
}

/*
 * Make elements [begin, begin + count) of tensor t available contiguously on
 * tile: their offset there if they already are, else a new buffer filled by
 * copies added to exchange ex (created on first use: *ex < 0).
 */
long ipu__local_copy(struct ipu_graph *g, int *ex, const char *exname, int t, uint64_t begin,
		     uint64_t count, unsigned tile, struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);
	unsigned es = ipu_dtype_size(x->dtype);
	struct ipu__piece *pc;
	long n = ipu__slice_pieces(g, t, begin, count, &pc, NULL);
	long off;
	int r;

	if (n < 0)
		return n == -ENOMEM ? oom(err) : ipu__err(err, -EINVAL, "tensor '%s' is not mapped", x->name);
	if (n == 1 && pc[0].tile == tile) {
		off = pc[0].off;
		free(pc);
		return off;
	}
	off = ipu__tile_alloc(g, tile, count * es, 16, exname, err);
	if (off < 0 || (*ex < 0 && (*ex = ipu_graph_add_exchange(g, exname, err)) < 0)) {
		free(pc);
		return off < 0 ? off : *ex;
	}
	r = gather(g, *ex, t, pc, n, tile, (uint32_t)off, err);
	return r ? r : off;
}

static long local_copy(struct ipu_graph *g, int *ex, const char *exname, int t, uint64_t begin,
		       uint64_t count, unsigned tile, struct ipu_error *err)
{
	return ipu__local_copy(g, ex, exname, t, begin, count, tile, err);
}

/* split count elements into up to WORKERS chunks (aligned to 8 elements) */
static unsigned chunks(uint64_t count, uint64_t *size)
{
	uint64_t c = count / WORKERS;

	if (count < 2 * MIN_CHUNK) {
		*size = count;
		return 1;
	}
	if (c < MIN_CHUNK)
		c = MIN_CHUNK;
	c = (c + 7) & ~(uint64_t)7;
	*size = c;
	return (unsigned)((count + c - 1) / c);
}

/* ------------------------------------------------------------------------ */
/* elementwise                                                              */

IPU_API int ipu_unary(struct ipu_graph *g, int seq, unsigned op, int in, const char *name,
		      struct ipu_error *err)
{
	const struct ipu__tensor *x;
	char buf[200];
	int out, cs, r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_unary: graph is NULL");
	if ((r = check_mapped(g, in, "ipu_unary", err)))
		return r;
	if (op < IPU_OP_NEG || op > IPU_OP_GELU)
		return ipu__err(err, -EINVAL, "ipu_unary: unknown op %u", op);
	out = output_like(g, name, in, err);
	if (out < 0)
		return out;
	x = ipu__graph_tensor(g, in);
	cs = ipu_graph_add_compute_set(g, nm(buf, sizeof(buf), name ? name : x->name, "unary"), err);
	if (cs < 0)
		return cs;
	for (size_t i = 0; i < x->niv; i++) {
		const struct ipu__iv v = x->iv[i];
		uint64_t csz, es = ipu_dtype_size(x->dtype);
		unsigned nc = chunks(v.count, &csz);

		for (unsigned c = 0; c < nc; c++) {
			uint64_t b = c * csz, n = v.count - b < csz ? v.count - b : csz;
			struct ipu__rawfield f[2];
			long oo;

			f[0] = rf(v.off + (uint32_t)(b * es), n, x->dtype, in);
			if (out == in) {
				r = ipu__add_vertex_raw(g, cs, IPUE_CODELET_UNARY_INPLACE(op), v.tile, f, 1,
							NULL, 0, err);
			} else {
				if ((oo = piece_off(g, out, v.begin + b, n, "ipu_unary", err)) < 0)
					return (int)oo;
				f[1] = rf((uint32_t)oo, n, x->dtype, out);
				r = ipu__add_vertex_raw(g, cs, IPUE_CODELET_UNARY(op), v.tile, f, 2, NULL, 0, err);
			}
			if (r < 0)
				return r;
			x = ipu__graph_tensor(g, in);
		}
	}
	if ((r = add_exec(g, seq, cs, err)))
		return r;
	return out;
}

/*
 * How b meets a in a binary op (numpy broadcasting of b onto a's shape): a
 * is cut in segments of seg elements (its trailing dimensions) within
 * which b's elements either follow a's one for one (contiguous) or stay
 * one element (constant, e.g. b [R,1] on a [R,C]).
 */
struct binop {
	const struct ipu__binspec *spec;
	int a, b, out;
	int same;		/* b has a's elements: each vertex gets its own copy of its part */
	int constant;		/* within a segment, b is one element */
	uint64_t seg;		/* elements of a segment */
	unsigned rank;		/* a's */
	uint32_t ashape[IPU_MAX_RANK], bshape[IPU_MAX_RANK];	/* bshape: b's, right-aligned, 1-padded */
	uint64_t es, bes;	/* bytes of an element of a, of b */
	struct vplan { uint32_t tile; uint64_t e; uint64_t n; uint32_t aoff; uint64_t bi; long boff, coff; } *vp;
	size_t nvp, cvp;
	int64_t *lo, *hi;	/* !same, per tile: the part [lo, hi) of b it needs */
	uint64_t *need;		/* !same, per tile: elements of b its vertices read (with repeats) */
	long *boff;		/* !same, per tile: where that part is on it, -1: per vertex */
	int ex;			/* the operand exchange, -1 until one is needed */
	char exname[200];
};

const char *ipu__shape_str(char *buf, size_t n, unsigned rank, const uint32_t *shape)
{
	size_t k = (size_t)snprintf(buf, n, "[");

	for (unsigned i = 0; i < rank && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, i ? ", %u" : "%u", shape[i]);
	if (k < n)
		snprintf(buf + k, n - k, "]");
	return buf;
}

/*
 * x's broadcast fields from a's shape and b's (brank, bshape: b's own or a
 * view of it with the same elements); 0 or -EINVAL naming both tensors and
 * shapes.
 */
static int binary_broadcast(struct ipu_graph *g, struct binop *x, unsigned brank, const uint32_t *bshape,
			    struct ipu_error *err)
{
	const struct ipu__tensor *ta = ipu__graph_tensor(g, x->a), *tb = ipu__graph_tensor(g, x->b);
	char sa[96], sb[96];
	uint64_t nb = 1;
	int kind = -1;

	x->es = ipu_dtype_size(ta->dtype);
	x->bes = ipu_dtype_size(tb->dtype);
	x->rank = ta->rank;
	ipu__shape_str(sa, sizeof(sa), ta->rank, ta->shape);
	ipu__shape_str(sb, sizeof(sb), brank, bshape);
	for (unsigned j = 0; j < brank; j++)
		nb *= bshape[j];
	if (brank > IPU_MAX_RANK || nb != tb->elements)
		return ipu__err(err, -EINVAL, "%s: shape %s is not one of tensor '%s' (%llu elements)",
				x->spec->op, sb, tb->name, (unsigned long long)tb->elements);
	for (unsigned i = 0; i < ta->rank; i++) {
		unsigned j = i + brank - ta->rank;	/* b's dimension, when i >= rank - brank */

		x->ashape[i] = ta->shape[i];
		x->bshape[i] = i + brank >= ta->rank ? bshape[j] : 1;
		if (x->bshape[i] != 1 && x->bshape[i] != x->ashape[i])
			return ipu__err(err, -EINVAL, "%s: tensor '%s' %s does not broadcast to tensor "
					"'%s' %s: dimension %u is %u, must be 1 or %u (numpy rules, shapes "
					"right-aligned)", x->spec->op, tb->name, sb, ta->name, sa, j, x->bshape[i], x->ashape[i]);
	}
	/* the trailing dimensions of one kind (those of size 1 in a go with either) form a segment */
	x->seg = 1;
	for (unsigned i = ta->rank; i-- > 0;) {
		int k = x->bshape[i] == 1;

		if (x->ashape[i] == 1)
			continue;
		if (kind >= 0 && k != kind)
			break;
		kind = k;
		x->seg *= x->ashape[i];
	}
	x->constant = kind == 1;
	x->same = tb->elements == ta->elements;
	return 0;
}

/* the index in b of the element a's element e meets */
static uint64_t binary_bindex(const struct binop *x, uint64_t e)
{
	uint64_t bi = 0, stride = 1;

	for (unsigned i = x->rank; i-- > 0;) {
		uint64_t c = e % x->ashape[i];

		e /= x->ashape[i];
		if (x->bshape[i] != 1)
			bi += c * stride;
		stride *= x->bshape[i];
	}
	return bi;
}

/* one vertex on tile for elements [e, e + n) of a (at aoff there); widens the tile's part of b */
static int binary_plan_add(struct binop *x, uint32_t tile, uint64_t e, uint64_t n, uint32_t aoff,
			   struct ipu_error *err)
{
	uint64_t bi = binary_bindex(x, e);

	if (grow_array((void **)&x->vp, x->nvp, &x->cvp, sizeof(*x->vp)))
		return oom(err);
	x->vp[x->nvp++] = (struct vplan){ tile, e, n, aoff, bi, -1, -1 };
	if (!x->same) {
		int64_t c0 = (int64_t)bi, c1 = c0 + (int64_t)(x->constant ? 1 : n);

		if (c0 < x->lo[tile])
			x->lo[tile] = c0;
		if (c1 > x->hi[tile])
			x->hi[tile] = c1;
		x->need[tile] += (uint64_t)(c1 - c0);
	}
	return 0;
}

/*
 * The vertex plan: each interval of a cut in segments, each segment in up
 * to WORKERS chunks. Allocates x's arrays (freed by binary_free). 0 or
 * -ENOMEM.
 */
static int binary_plan(struct ipu_graph *g, struct binop *x, struct ipu_error *err)
{
	unsigned tiles = ipu_graph_tiles(g);
	const struct ipu__tensor *ta = ipu__graph_tensor(g, x->a);

	if (!x->same) {
		x->lo = malloc(tiles * sizeof(*x->lo));
		x->hi = malloc(tiles * sizeof(*x->hi));
		x->boff = malloc(tiles * sizeof(*x->boff));
		x->need = calloc(tiles, sizeof(*x->need));
		if (!x->lo || !x->hi || !x->boff || !x->need)
			return oom(err);
		for (unsigned t = 0; t < tiles; t++) {
			x->lo[t] = INT64_MAX;
			x->hi[t] = -1;
		}
	}
	for (size_t i = 0; i < ta->niv; i++) {
		struct ipu__iv v = ta->iv[i];

		for (uint64_t e = v.begin, end = v.begin + v.count, seg; e < end; e += seg) {
			uint64_t csz;
			unsigned nc;

			seg = end - e;
			if (seg > x->seg - e % x->seg)
				seg = x->seg - e % x->seg;	/* stay within one segment */
			nc = chunks(seg, &csz);
			for (unsigned c = 0; c < nc; c++) {
				uint64_t b0 = e + c * csz, n = seg - c * csz < csz ? seg - c * csz : csz;

				if (binary_plan_add(x, v.tile, b0, n, v.off + (uint32_t)((b0 - v.begin) * x->es),
						    err))
					return -ENOMEM;
			}
		}
	}
	return 0;
}

/*
 * The part of b each vertex reads, on its tile (vp[].boff): one copy per
 * tile of the range of b its vertices read when that range is no larger
 * than their reads together (a bias read by many rows), else (b has a's
 * elements, or a tile's reads are far apart in b) per vertex its own part,
 * so that a tile never holds more of b than of a. Copies go to exchange
 * x->ex. 0 or negative errno.
 */
static int binary_operand(struct ipu_graph *g, struct binop *x, struct ipu_error *err)
{
	unsigned tiles = ipu_graph_tiles(g);

	for (unsigned t = 0; t < tiles && !x->same; t++) {
		x->boff[t] = -1;
		if (x->hi[t] < 0 || (uint64_t)(x->hi[t] - x->lo[t]) > x->need[t])
			continue;
		x->boff[t] = local_copy(g, &x->ex, x->exname, x->b, (uint64_t)x->lo[t],
					(uint64_t)(x->hi[t] - x->lo[t]), t, err);
		if (x->boff[t] < 0)
			return (int)x->boff[t];
	}
	for (size_t i = 0; i < x->nvp; i++) {
		struct vplan *v = &x->vp[i];

		if (!x->same && x->boff[v->tile] >= 0)
			v->boff = x->boff[v->tile] + (long)((v->bi - (uint64_t)x->lo[v->tile]) * x->bes);
		else
			v->boff = local_copy(g, &x->ex, x->exname, x->b, v->bi, x->constant ? 1 : v->n,
					     v->tile, err);
		if (v->boff < 0)
			return (int)v->boff;
		/* cond has a's elements: the vertex's own part, in place when it is on the tile */
		if (x->spec->cond >= 0 &&
		    (v->coff = local_copy(g, &x->ex, x->exname, x->spec->cond, v->e, v->n, v->tile, err)) < 0)
			return (int)v->coff;
	}
	return 0;
}

/* the planned vertices in compute set cs (in place into a when out == a); 0 or negative errno */
static int binary_vertices(struct ipu_graph *g, struct binop *x, int cs, struct ipu_error *err)
{
	const struct ipu__binspec *sp = x->spec;
	unsigned dtype = ipu__graph_tensor(g, x->a)->dtype;
	unsigned odt = ipu__graph_tensor(g, x->out)->dtype;

	for (size_t i = 0; i < x->nvp; i++) {
		const struct vplan *v = &x->vp[i];
		struct ipu__rawfield f[4], *ab = f + (sp->cond >= 0);
		unsigned nf = sp->cond >= 0;
		int r;

		if (sp->cond >= 0)
			f[0] = rf((uint32_t)v->coff, v->n, IPU_DTYPE_I32, sp->cond);
		ab[0] = rf(v->aoff, v->n, dtype, x->a);
		ab[1] = rf((uint32_t)v->boff, x->constant ? 1 : v->n, dtype, x->b);
		nf += 2;
		if (x->out == x->a && sp->inplace != sp->codelet) {
			r = ipu__add_vertex_raw(g, cs, sp->inplace, v->tile, f, nf, NULL, 0, err);
		} else {
			/* in place by binding out over a (the codelet allows that exact alias) */
			long oo = x->out == x->a ? (long)v->aoff : piece_off(g, x->out, v->e, v->n, sp->op, err);

			if (oo < 0)
				return (int)oo;
			f[nf] = rf((uint32_t)oo, v->n, odt, x->out);
			r = ipu__add_vertex_raw(g, cs, sp->codelet, v->tile, f, nf + 1, NULL, 0, err);
		}
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * Appended to seq: the operand exchange, if any copy was needed, then
 * compute set BASE/binary with the planned vertices. 0 or negative errno.
 */
static int binary_program(struct ipu_graph *g, int seq, struct binop *x, const char *base,
			  struct ipu_error *err)
{
	char buf[200];
	int cs, r;

	if (x->ex >= 0 && (r = add_exch(g, seq, x->ex, err)))
		return r;
	cs = ipu_graph_add_compute_set(g, nm(buf, sizeof(buf), base, x->spec->cs), err);
	if (cs < 0)
		return cs;
	if ((r = binary_vertices(g, x, cs, err)))
		return r;
	return add_exec(g, seq, cs, err);
}

/* frees what binary_plan allocated */
static void binary_free(struct binop *x)
{
	free(x->vp);
	free(x->lo);
	free(x->hi);
	free(x->need);
	free(x->boff);
}

/*
 * Numpy broadcasting both ways: when the broadcast of a's and b's shapes is
 * not a's, *a becomes a's broadcast to it (ipu_broadcast(), a copy named
 * NAME/a#N), onto which b then broadcasts as usual. 0 or -EINVAL naming
 * both tensors and shapes (and when the op is in place or has a cond).
 */
static int binary_broadcast_a(struct ipu_graph *g, int seq, const struct ipu__binspec *sp, int *a, int b,
			      unsigned brank, const uint32_t *bshape, const char *name, struct ipu_error *err)
{
	const struct ipu__tensor *ta = ipu__graph_tensor(g, *a), *tb = ipu__graph_tensor(g, b);
	unsigned orank = ta->rank > brank ? ta->rank : brank;
	uint32_t oshape[IPU_MAX_RANK];
	char sa[96], sb[96];
	int grow = orank > ta->rank;

	if (brank > IPU_MAX_RANK || ta->dtype != tb->dtype)
		return 0;	/* binary_broadcast() refuses them */
	for (unsigned d = 0; d < orank; d++) {
		uint32_t da = d + ta->rank >= orank ? ta->shape[d + ta->rank - orank] : 1;
		uint32_t db = d + brank >= orank ? bshape[d + brank - orank] : 1;

		if (da != db && da != 1 && db != 1 && brank <= ta->rank)
			return 0;	/* binary_broadcast() names b as the one that does not fit */
		if (da != db && da != 1 && db != 1)
			return ipu__err(err, -EINVAL, "%s: tensors '%s' %s and '%s' %s do not broadcast together: "
					"dimension %u is %u and %u, must be equal or 1 (numpy rules, shapes "
					"right-aligned)", sp->op, ta->name,
					ipu__shape_str(sa, sizeof(sa), ta->rank, ta->shape), tb->name,
					ipu__shape_str(sb, sizeof(sb), brank, bshape), d, da, db);
		oshape[d] = da == 1 ? db : da;	/* numpy: 1 goes with anything, 0 included */
		grow |= oshape[d] != da;
	}
	if (!grow)
		return 0;
	if (!name || sp->cond >= 0)
		return ipu__err(err, -EINVAL, "%s: tensor '%s' %s would be broadcast to tensor '%s' %s: that needs "
				"an output of its own%s", sp->op, ta->name,
				ipu__shape_str(sa, sizeof(sa), ta->rank, ta->shape), tb->name,
				ipu__shape_str(sb, sizeof(sb), brank, bshape),
				name ? " and no cond" : " (a name), not in place");
	*a = ipu_broadcast(g, seq, *a, orank, oshape, ipu__graph_uname(g, name, "/a"), err);
	return *a < 0 ? *a : 0;
}

int ipu__binary_op(struct ipu_graph *g, int seq, const struct ipu__binspec *sp, int a, int b,
		   unsigned brank, const uint32_t *bshape, const char *name, struct ipu_error *err)
{
	struct binop x = { .spec = sp, .a = a, .b = b, .ex = -1 };
	const char *base;
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", sp->op);
	if ((r = check_mapped(g, a, sp->op, err)) || (r = check_mapped(g, b, sp->op, err)))
		return r;
	if (!name && !sp->inplace)
		return ipu__err(err, -EINVAL, "%s: the output needs a name (no in-place form)", sp->op);
	if (!bshape) {
		bshape = ipu__graph_tensor(g, b)->shape;
		brank = ipu__graph_tensor(g, b)->rank;
	}
	if (ipu__graph_tensor(g, a)->dtype != ipu__graph_tensor(g, b)->dtype) {
		const struct ipu__tensor *ta = ipu__graph_tensor(g, a), *tb = ipu__graph_tensor(g, b);

		return ipu__err(err, -EINVAL, "%s: tensor '%s' is %s, tensor '%s' is %s", sp->op,
				ta->name, ipu_dtype_name(ta->dtype), tb->name, ipu_dtype_name(tb->dtype));
	}
	if ((r = binary_broadcast_a(g, seq, sp, &a, b, brank, bshape, name, err)))
		return r;
	x.a = a;
	if ((r = binary_broadcast(g, &x, brank, bshape, err)))
		return r;
	x.out = ipu__output_like(g, name, a, sp->out_dtype, err);
	if (x.out < 0 || ipu__empty(g, a))
		return x.out;	/* numpy: an empty result, nothing to compute */
	base = name ? name : ipu__graph_tensor(g, a)->name;
	snprintf(x.exname, sizeof(x.exname), "%s/operand", base);
	r = binary_plan(g, &x, err);
	if (!r)
		r = binary_operand(g, &x, err);
	if (!r)
		r = binary_program(g, seq, &x, base, err);
	binary_free(&x);
	return r < 0 ? r : x.out;
}

long ipu__bcast_plan(struct ipu_graph *g, const char *op, int a, const int *b, unsigned nb, int *ex,
		     const char *exname, struct ipu__bcast_vertex **vs, struct ipu_error *err)
{
	struct ipu__binspec sp = { op, "", 0, 0, 0, -1 };
	struct binop *x = calloc(nb ? nb : 1, sizeof(*x));
	uint64_t seg = UINT64_MAX;
	long r = 0, nv;

	*vs = NULL;
	if (nb > IPU__BCAST_MAX)
		return ipu__err(err, -EINVAL, "%s: %u operands, at most %u", op, nb, IPU__BCAST_MAX);
	if (!x)
		return oom(err);
	for (unsigned k = 0; k < nb && !r; k++) {
		const struct ipu__tensor *tb = ipu__graph_tensor(g, b[k]);

		x[k] = (struct binop){ .spec = &sp, .a = a, .b = b[k], .ex = -1 };
		r = binary_broadcast(g, &x[k], tb->rank, tb->shape, err);
		seg = x[k].seg < seg ? x[k].seg : seg;
	}
	/* one cut for all: every segment length is a product of a's trailing dimensions, the least divides the rest */
	for (unsigned k = 0; k < nb && !r; k++) {
		x[k].seg = seg;
		x[k].ex = *ex;
		snprintf(x[k].exname, sizeof(x[k].exname), "%s", exname);
		if (!(r = binary_plan(g, &x[k], err)))
			r = binary_operand(g, &x[k], err);
		*ex = x[k].ex;
	}
	nv = nb ? (long)x[0].nvp : 0;
	if (!r && !(*vs = malloc((nv ? (size_t)nv : 1) * sizeof(**vs))))
		r = oom(err);
	for (long i = 0; i < nv && !r; i++) {
		struct ipu__bcast_vertex *v = &(*vs)[i];

		*v = (struct ipu__bcast_vertex){ x[0].vp[i].tile, x[0].vp[i].e, x[0].vp[i].n, x[0].vp[i].aoff,
						 { 0 }, { 0 } };
		for (unsigned k = 0; k < nb; k++) {
			v->boff[k] = (uint32_t)x[k].vp[i].boff;
			v->bcount[k] = x[k].constant ? 1 : (uint32_t)v->n;
		}
	}
	for (unsigned k = 0; k < nb; k++)
		binary_free(&x[k]);
	free(x);
	return r < 0 ? r : nv;
}

int ipu__elementwise2(struct ipu_graph *g, int seq, unsigned codelet, int a, int b, const char *name,
		      struct ipu_error *err)
{
	struct ipu__binspec sp = { "ipu_binary", "binary", codelet, codelet, 0, -1 };

	return ipu__binary_op(g, seq, &sp, a, b, 0, NULL, name, err);
}

int ipu__binary_bcast(struct ipu_graph *g, int seq, unsigned op, int a, int b, unsigned brank,
		      const uint32_t *bshape, const char *name, struct ipu_error *err)
{
	struct ipu__binspec sp = { "ipu_binary", "binary", IPUE_CODELET_BINARY(op),
				   IPUE_CODELET_BINARY_INPLACE(op), 0, -1 };

	if (op < IPU_OP_ADD || op > IPU_OP_MIN) {
		if (!g)
			return ipu__err(err, -EINVAL, "ipu_binary: graph is NULL");
		return ipu__err(err, -EINVAL, "ipu_binary: unknown op %u", op);
	}
	return ipu__binary_op(g, seq, &sp, a, b, brank, bshape, name, err);
}

IPU_API int ipu_binary(struct ipu_graph *g, int seq, unsigned op, int a, int b, const char *name,
		       struct ipu_error *err)
{
	return ipu__binary_bcast(g, seq, op, a, b, 0, NULL, name, err);
}

/* ------------------------------------------------------------------------ */
/* reductions                                                               */

/*
 * A reduction being built: R rows of L elements of in, each cut into
 * stage-1 chunks; a row of several chunks reduces them into partials
 * (one slot each) that stage 2 gathers on the row's home tile.
 */
struct reduction {
	int in, out, part;	/* part: the partials tensor, -1 if no row needs one */
	unsigned codelet, odt;	/* odt: the output dtype (f32 for f16 input) */
	uint64_t L, R;
	struct chunk { uint32_t tile; uint32_t off; uint64_t n; uint64_t row; uint64_t slot; } *ch;
	size_t nch, cch;
	uint64_t *first;	/* per row: index of its first chunk; first[R] = nch */
	uint32_t *home;		/* per row: the tile of its first chunk */
	const char *name;
};

/* the number of stage-1 chunks of row rr */
static uint64_t row_chunks(const struct reduction *x, uint64_t rr)
{
	return x->first[rr + 1] - x->first[rr];
}

/*
 * The output tensor of orank dimensions oshape (R elements), of in's dtype
 * or f32 for f16; sets L, R and odt. 0 or negative errno.
 */
static int reduce_output(struct ipu_graph *g, struct reduction *x, uint64_t L, unsigned orank,
			 const uint32_t *oshape, struct ipu_error *err)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, x->in);
	uint32_t shape[IPU_MAX_RANK];

	memcpy(shape, oshape, orank * sizeof(*shape));	/* oshape may be t's: adding the output may move t */
	x->odt = t->dtype == IPU_DTYPE_F16 ? IPU_DTYPE_F32 : t->dtype;
	x->L = L;
	x->R = t->elements / L;
	x->out = ipu_graph_add_tensor(g, x->name, x->odt, orank, shape, err);
	return x->out < 0 ? x->out : 0;
}

/*
 * Stage-1 chunks, row by row (each piece of a row in up to WORKERS), each
 * row's home tile, and the output's element rr mapped there. Allocates x's
 * arrays (freed by reduce_free). 0 or negative errno.
 */
static int reduce_chunks(struct ipu_graph *g, struct reduction *x, struct ipu_error *err)
{
	unsigned es = ipu_dtype_size(ipu__graph_tensor(g, x->in)->dtype);
	int r;

	x->first = calloc(x->R + 1, sizeof(*x->first));
	x->home = calloc(x->R, sizeof(*x->home));
	if (!x->first || !x->home)
		return oom(err);
	for (uint64_t rr = 0; rr < x->R; rr++) {
		struct ipu__piece *pc;
		long np = ipu__slice_pieces(g, x->in, rr * x->L, x->L, &pc, NULL);

		if (np < 0)
			return oom(err);
		x->first[rr] = x->nch;
		for (long i = 0; i < np; i++) {
			uint64_t csz;
			unsigned nc = chunks(pc[i].count, &csz);

			for (unsigned c = 0; c < nc; c++) {
				uint64_t b = c * csz, n = pc[i].count - b < csz ? pc[i].count - b : csz;

				if (grow_array((void **)&x->ch, x->nch, &x->cch, sizeof(*x->ch))) {
					free(pc);
					return oom(err);
				}
				x->ch[x->nch++] = (struct chunk){ pc[i].tile, pc[i].off + (uint32_t)(b * es), n,
								  rr, 0 };
			}
		}
		x->home[rr] = x->ch[x->first[rr]].tile;
		free(pc);
	}
	x->first[x->R] = x->nch;
	for (uint64_t rr = 0; rr < x->R; rr++)
		if ((r = ipu_graph_map(g, x->out, rr, 1, x->home[rr], err)))
			return r;
	return 0;
}

/*
 * The partials tensor NAME/partials, when some row has several chunks: a
 * slot per chunk of such rows, each on its chunk's tile. 0 or negative errno.
 */
static int reduce_partials(struct ipu_graph *g, struct reduction *x, struct ipu_error *err)
{
	uint64_t nslots = 0;
	uint32_t sh[1];
	char buf[200];
	int r;

	for (uint64_t rr = 0; rr < x->R; rr++)
		if (row_chunks(x, rr) > 1)
			for (uint64_t c = x->first[rr]; c < x->first[rr + 1]; c++)
				x->ch[c].slot = nslots++;
	if (!nslots)
		return 0;
	sh[0] = (uint32_t)nslots;
	x->part = ipu_graph_add_tensor(g, nm(buf, sizeof(buf), x->name, "partials"), x->odt, 1, sh, err);
	if (x->part < 0)
		return x->part;
	for (size_t c = 0; c < x->nch; c++)
		if (row_chunks(x, x->ch[c].row) > 1 &&
		    (r = ipu_graph_map(g, x->part, x->ch[c].slot, 1, x->ch[c].tile, err)))
			return r;
	return 0;
}

/*
 * Stage 1, compute set NAME/reduce: a vertex per chunk, into the output
 * when it is its row's only chunk, else into its partial slot. 0 or
 * negative errno.
 */
static int reduce_stage1(struct ipu_graph *g, int seq, struct reduction *x, struct ipu_error *err)
{
	const uint32_t zero = 0;
	char buf[200];
	int cs = ipu_graph_add_compute_set(g, nm(buf, sizeof(buf), x->name, "reduce"), err);

	if (cs < 0)
		return cs;
	for (uint64_t rr = 0; rr < x->R; rr++) {
		int single = row_chunks(x, rr) == 1;

		for (uint64_t c = x->first[rr]; c < x->first[rr + 1]; c++) {
			const struct chunk *k = &x->ch[c];
			struct ipu__rawfield f[2];
			int t = single ? x->out : x->part, r;
			long oo = piece_off(g, t, single ? rr : k->slot, 1, "ipu_reduce", err);

			if (oo < 0)
				return (int)oo;
			f[0] = rf(k->off, k->n, ipu__graph_tensor(g, x->in)->dtype, x->in);
			f[1] = rf((uint32_t)oo, 1, x->odt, t);
			r = ipu__add_vertex_raw(g, cs, x->codelet, k->tile, f, 2, &zero, 1, err);
			if (r < 0)
				return r;
		}
	}
	return add_exec(g, seq, cs, err);
}

/*
 * Stage 2: exchange NAME/gather brings each row's partials together on its
 * home tile, compute set NAME/reduce2 reduces them into the output. 0 or
 * negative errno.
 */
static int reduce_stage2(struct ipu_graph *g, int seq, struct reduction *x, struct ipu_error *err)
{
	const uint32_t zero = 0;
	char buf[200];
	int cs = -1, ex = -1, r;

	for (uint64_t rr = 0; rr < x->R && x->part >= 0; rr++) {
		uint64_t n = row_chunks(x, rr);
		struct ipu__rawfield f[2];
		long goff, oo;

		if (n < 2)
			continue;
		goff = local_copy(g, &ex, nm(buf, sizeof(buf), x->name, "gather"), x->part,
				  x->ch[x->first[rr]].slot, n, x->home[rr], err);
		if (goff < 0)
			return (int)goff;
		if (cs < 0 && (cs = ipu_graph_add_compute_set(g, nm(buf, sizeof(buf), x->name, "reduce2"),
							      err)) < 0)
			return cs;
		if ((oo = piece_off(g, x->out, rr, 1, "ipu_reduce", err)) < 0)
			return (int)oo;
		f[0] = rf((uint32_t)goff, n, x->odt, x->part);
		f[1] = rf((uint32_t)oo, 1, x->odt, x->out);
		r = ipu__add_vertex_raw(g, cs, x->codelet, x->home[rr], f, 2, &zero, 1, err);
		if (r < 0)
			return r;
	}
	if (ex >= 0 && (r = add_exch(g, seq, ex, err)))
		return r;
	if (cs >= 0 && (r = add_exec(g, seq, cs, err)))
		return r;
	return 0;
}

/* frees what reduce_chunks allocated */
static void reduce_free(struct reduction *x)
{
	free(x->ch);
	free(x->first);
	free(x->home);
}

/*
 * A reduction of an empty @in, as numpy: empty rows (L = 0) sum to 0 and
 * have no max or min (refused, naming the tensor, unless there are no rows
 * either); no rows (L > 0) give an empty output.
 */
static int reduce_empty(struct ipu_graph *g, int seq, unsigned op, int in, uint64_t L, unsigned orank,
			const uint32_t *oshape, const char *name, struct ipu_error *err)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, in);
	unsigned odt = t->dtype == IPU_DTYPE_F16 ? IPU_DTYPE_F32 : t->dtype;
	char s[96];

	if (L || !ipu__shape_count(orank, oshape))
		return ipu__empty_output(g, name, odt, orank, oshape, err);
	if (op != IPU_REDUCE_SUM)
		return ipu__err(err, -EINVAL, "ipu_reduce '%s': tensor '%s' %s: the %s of an empty axis is "
				"undefined (numpy raises)", name, t->name, ipu__shape_str(s, sizeof(s), t->rank,
				t->shape), op == IPU_REDUCE_MAX ? "max" : "min");
	return ipu__zeros(g, seq, name, odt, orank, oshape, err);
}

int ipu__reduce_rows_as(struct ipu_graph *g, int seq, unsigned op, int in, uint64_t L, unsigned orank,
			const uint32_t *oshape, const char *name, struct ipu_error *err)
{
	struct reduction x = { .in = in, .part = -1, .name = name };
	int r;

	x.codelet = op == IPU_REDUCE_SUM ? IPUE_CODELET_REDUCE_SUM :
		    op == IPU_REDUCE_MAX ? IPUE_CODELET_REDUCE_MAX : IPUE_CODELET_REDUCE_MIN;
	if (ipu__empty(g, in))
		return reduce_empty(g, seq, op, in, L, orank, oshape, name, err);
	if ((r = reduce_output(g, &x, L, orank, oshape, err)))
		return r;
	r = reduce_chunks(g, &x, err);
	if (!r)
		r = reduce_partials(g, &x, err);
	if (!r)
		r = reduce_stage1(g, seq, &x, err);
	if (!r)
		r = reduce_stage2(g, seq, &x, err);
	reduce_free(&x);
	return r < 0 ? r : x.out;
}

/*
 * ipu_reduce() (rows_mode 0: to a scalar) and ipu_reduce_rows() (1: over
 * the last dimension): stage 1 per chunk, stage 2 per row of several.
 * The output's id or negative errno.
 */
static int reduce_impl(struct ipu_graph *g, int seq, unsigned op, int in, const char *name,
		       int rows_mode, struct ipu_error *err)
{
	const struct ipu__tensor *t;
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_reduce: graph is NULL");
	if ((r = check_mapped(g, in, "ipu_reduce", err)))
		return r;
	if (op < IPU_REDUCE_SUM || op > IPU_REDUCE_MIN)
		return ipu__err(err, -EINVAL, "ipu_reduce: unknown op %u", op);
	if (!name || !*name)
		return ipu__err(err, -EINVAL, "ipu_reduce: the output needs a name");
	t = ipu__graph_tensor(g, in);
	if (!rows_mode)
		return ipu__reduce_rows_as(g, seq, op, in, t->elements, 0, NULL, name, err);
	if (t->rank < 1)
		return ipu__err(err, -EINVAL, "ipu_reduce_rows: tensor '%s' has rank 0", t->name);
	return ipu__reduce_rows_as(g, seq, op, in, t->shape[t->rank - 1], t->rank - 1u, t->shape, name, err);
}

IPU_API int ipu_reduce(struct ipu_graph *g, int seq, unsigned op, int in, const char *name,
		       struct ipu_error *err)
{
	return reduce_impl(g, seq, op, in, name, 0, err);
}

IPU_API int ipu_reduce_rows(struct ipu_graph *g, int seq, unsigned op, int in, const char *name,
			    struct ipu_error *err)
{
	return reduce_impl(g, seq, op, in, name, 1, err);
}

/* ------------------------------------------------------------------------ */
/* matmul                                                                   */

#define MM_MR 6		/* rows of the codelet's register block */
#define MM_NR 32	/* columns of its widest (AVX-512) register block */
#define PHASE_CYCLES 600 /* sync + exchange latency of one more phase */

static uint32_t cdiv(uint64_t a, uint64_t b)
{
	return (uint32_t)((a + b - 1) / b);
}

static uint64_t rup(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b * b;
}

/* block i of n split in blocks of b: [lo, hi) */
static void blk(uint32_t n, uint32_t b, uint32_t i, uint32_t *lo, uint32_t *hi)
{
	uint64_t l = (uint64_t)i * b, h = l + b;

	*lo = (uint32_t)(l < n ? l : n);
	*hi = (uint32_t)(h < n ? h : n);
}

/*
 * The grid of m x n x k (dtype) on at most T tiles with at most mem bytes
 * per tile, of which at most tmp for temporaries (what the tile receives,
 * partials to reduce, gather buffers), that minimises the modelled cycles:
 * 0 or -ENOSPC (no message; *min_tmp, when not NULL, the fewest bytes of
 * temporaries per tile a grid needed).
 */
static int mm_plan_search(uint32_t m, uint32_t n, uint32_t k, unsigned dtype, unsigned T, uint64_t mem,
			  uint64_t tmp, struct ipu_matmul_plan *plan, uint64_t *min_tmp)
{
	uint64_t es = ipu_dtype_size(dtype), rate, best = UINT64_MAX, least = UINT64_MAX;

	rate = dtype == IPU_DTYPE_F16 ? IPUE_AMP_MACS_F16 : IPUE_AMP_MACS_F32;
	memset(plan, 0, sizeof(*plan));
	for (uint32_t pm = 1; pm <= T && pm <= m; pm++) {
		uint32_t bm = cdiv(m, pm);

		if (cdiv(m, bm) != pm)
			continue;
		for (uint32_t pn = 1; pm * pn <= T && pn <= n; pn++) {
			uint32_t bn = cdiv(n, pn);

			if (cdiv(n, bn) != pn)
				continue;
			for (uint32_t pk = 1; pm * pn * pk <= T && pk <= k && pk <= 64; pk++) {
				/* the fewest serial steps that fit */
				for (uint32_t ks = 1; (uint64_t)pk * ks <= k; ks++) {
					uint32_t bk = cdiv(k, (uint64_t)pk * ks), rows;
					uint64_t need, cyc, step, recv, a_b, b_b, p_b, g_b, t_b;

					if (cdiv(k, bk) != (uint64_t)pk * ks)
						continue;
					rows = cdiv(bm, pk);
					a_b = (uint64_t)bm * bk * es;
					b_b = (uint64_t)bk * bn * es;
					p_b = (uint64_t)bm * bn * 4;
					g_b = pk > 1 ? (uint64_t)(pk - 1) * rows * bn * 4 : 0;
					/* operand buffers (with ks == 1 they hold the tile's share of
					 * A and B), the shares of the other steps, partials, gather, ones */
					need = a_b + b_b + p_b + g_b + 4 * pk + 512 +
					       (ks > 1 ? ks * (a_b / pn + b_b / pm + 256) : 0);
					/* each tile receives the other shares of its blocks */
					recv = a_b / pn * (pn - 1) + b_b / pm * (pm - 1);
					t_b = need - a_b - b_b - (pk > 1 ? 0 : p_b) + recv;
					if (t_b < least)
						least = t_b;
					if (need > mem || t_b > tmp) {
						if (ks > 64)
							break;
						continue;
					}
					/* modelled cycles, compute counted on the kernel's padded block */
					step = rup(bm, MM_MR) * rup(bn, MM_NR) * bk / rate;
					/* (the first step overwrites the partials: no zero fill) */
					cyc = ks * (step + recv / 4 + 2 * PHASE_CYCLES) + bm * bn / 2;
					if (pk > 1) {
						/* gather, then one [1 x pk-1] x [pk-1 x rows*bn] MatMulPartial
						 * per owner adding the others' partials to its own */
						cyc += g_b / 4 + PHASE_CYCLES + (uint64_t)(pk - 1) * rows * bn / rate +
						       (uint64_t)rows * bn / 2 + PHASE_CYCLES;
					}
					if (cyc < best || (cyc == best && pm * pn * pk < plan->tiles)) {
						best = cyc;
						*plan = (struct ipu_matmul_plan){ .m = m, .n = n, .k = k,
							.dtype = dtype, .pm = pm, .pn = pn, .pk = pk, .ks = ks,
							.bm = bm, .bn = bn, .bk = bk, .tiles = pm * pn * pk,
							.est_cycles = cyc, .tile_bytes = need };
					}
					break;
				}
			}
		}
	}
	if (min_tmp)
		*min_tmp = least;
	return best == UINT64_MAX ? -ENOSPC : 0;
}

/*
 * Bytes per tile a matmul plan may take: *budget in all, no more than the
 * busiest tile has free (ipu__mem_in_use(): *busy bytes on tile
 * *busy_tile), and *tmp for temporaries, the availableMemoryProportion of
 * the tile memory (or *budget if less).
 */
static int mm_budget(const struct ipu_graph *g, uint64_t *budget, uint64_t *tmp, uint32_t *busy,
		     unsigned *busy_tile)
{
	uint32_t *used = calloc(g->tiles, sizeof(*used));
	uint64_t amp = (uint64_t)(g->amp * g->tile_mem);

	if (!used || ipu__mem_in_use(g, used)) {
		free(used);
		return -ENOMEM;
	}
	*busy = 0;
	*busy_tile = 0;
	for (unsigned t = 0; t < g->tiles; t++)
		if (used[t] > *busy) {
			*busy = used[t];
			*busy_tile = t;
		}
	free(used);
	*budget = g->tile_mem - *busy;
	*tmp = *budget < amp ? *budget : amp;
	return 0;
}

/* ipu_matmul_plan() on a grid of at most @T tiles */
static int mm_plan_tiles(const struct ipu_graph *g, uint32_t m, uint32_t n, uint32_t k, unsigned dtype,
			 unsigned T, struct ipu_matmul_plan *plan, struct ipu_error *err)
{
	uint64_t budget, tmp, need;
	uint32_t busy;
	unsigned busy_tile;

	if (!g || !plan)
		return ipu__err(err, -EINVAL, "ipu_matmul_plan: NULL argument");
	if (!m || !n || !k)
		return ipu__err(err, -EINVAL, "ipu_matmul_plan: empty matmul %ux%ux%u", m, n, k);
	if (dtype != IPU_DTYPE_F32 && dtype != IPU_DTYPE_F16)
		return ipu__err(err, -EINVAL, "ipu_matmul_plan: A and B must be f32 or f16, not %s",
				ipu_dtype_name(dtype));
	if (mm_budget(g, &budget, &tmp, &busy, &busy_tile))
		return ipu__err(err, -ENOMEM, "ipu_matmul_plan: out of memory");
	if (mm_plan_search(m, n, k, dtype, T, budget, tmp, plan, &need))
		return ipu__err(err, -ENOSPC, "ipu_matmul_plan: %ux%ux%u (%s) needs at least %llu bytes "
				"per tile for its temporaries, %llu available on the %s model "
				"(availableMemoryProportion %.2f of %u bytes; tile %u has %u bytes in "
				"use), or no grid fits the %llu bytes free", m, n, k, ipu_dtype_name(dtype),
				(unsigned long long)need, (unsigned long long)tmp,
				ipu_model_name(ipu_graph_model(g)), g->amp, g->tile_mem, busy_tile, busy,
				(unsigned long long)budget);
	return 0;
}

IPU_API int ipu_matmul_plan(const struct ipu_graph *g, uint32_t m, uint32_t n, uint32_t k,
			    unsigned dtype, struct ipu_matmul_plan *plan, struct ipu_error *err)
{
	return mm_plan_tiles(g, m, n, k, dtype, ipu_graph_tiles(g), plan, err);
}

/*
 * A plan a caller made or edited by hand: the fields docs/builder.md
 * ("A plan by hand") says it must set. -EINVAL naming the first bad field.
 */
static int bad_plan(const struct ipu_graph *g, const struct ipu_matmul_plan *p, struct ipu_error *err)
{
	static const char *const fn[] = { "pm", "pn", "pk", "ks", "bm", "bn", "bk" };
	const uint32_t *f[7];

	if (!p)
		return ipu__err(err, -EINVAL, "matmul: the plan is NULL");
	f[0] = &p->pm, f[1] = &p->pn, f[2] = &p->pk, f[3] = &p->ks;
	f[4] = &p->bm, f[5] = &p->bn, f[6] = &p->bk;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!*f[i])
			return ipu__err(err, -EINVAL, "matmul plan: %s is 0 (pm, pn, pk, ks, bm, bn "
					"and bk must all be set)", fn[i]);
	if ((uint64_t)p->pm * p->pn * p->pk > ipu_graph_tiles(g))
		return ipu__err(err, -EINVAL, "matmul plan: a %ux%ux%u grid needs %llu tiles, "
				"the graph has %u", p->pm, p->pn, p->pk,
				(unsigned long long)p->pm * p->pn * p->pk, ipu_graph_tiles(g));
	if ((uint64_t)p->pm * p->bm < p->m || (uint64_t)p->pn * p->bn < p->n ||
	    (uint64_t)p->pk * p->ks * p->bk < p->k)
		return ipu__err(err, -EINVAL, "matmul plan: blocks do not cover %ux%ux%u "
				"(need pm*bm >= m, pn*bn >= n, pk*ks*bk >= k; have %llu, %llu, %llu)",
				p->m, p->n, p->k, (unsigned long long)p->pm * p->bm,
				(unsigned long long)p->pn * p->bn,
				(unsigned long long)p->pk * p->ks * p->bk);
	return 0;
}

static unsigned mm_tile(const struct ipu_matmul_plan *p, uint32_t i, uint32_t j, uint32_t l)
{
	return (l * p->pm + i) * p->pn + j;
}

/* a rank-2 operand laid out block by block, each block contiguous on its home tile */
static int create_blocked(struct ipu_graph *g, const struct ipu_matmul_plan *p, const char *name,
			  int lhs, struct ipu_error *err)
{
	uint32_t rows, cols, br, bc, nr, nc, shape[2];
	unsigned es;
	int t, r;

	if (!g)
		return ipu__err(err, -EINVAL, "matmul: graph is NULL");
	if ((r = bad_plan(g, p, err)))
		return r;
	rows = lhs ? p->m : p->k;
	cols = lhs ? p->k : p->n;
	br = lhs ? p->bm : p->bk;
	bc = lhs ? p->bk : p->bn;
	nr = lhs ? p->pm : p->pk * p->ks;
	nc = lhs ? p->pk * p->ks : p->pn;
	shape[0] = rows;
	shape[1] = cols;
	es = ipu_dtype_size(p->dtype);
	t = ipu_graph_add_tensor(g, name, p->dtype, 2, shape, err);
	if (t < 0)
		return t;
	for (uint32_t bi = 0; bi < nr; bi++) {
		for (uint32_t bj = 0; bj < nc; bj++) {
			uint32_t r0, r1, c0, c1, ncons = lhs ? p->pn : p->pm;
			uint64_t rowb;

			blk(rows, br, bi, &r0, &r1);
			blk(cols, bc, bj, &c0, &c1);
			if (r0 == r1 || c0 == c1)
				continue;
			rowb = (uint64_t)(c1 - c0) * es;
			/* the block's rows are shared out over the tiles that use it */
			for (uint32_t q = 0; q < ncons; q++) {
				/* A block (i, kb) is used by tiles (i, q, kb / ks), B block (kb, j) by (q, j, kb / ks) */
				unsigned tile = lhs ? mm_tile(p, bi, q, bj / p->ks) : mm_tile(p, q, bj, bi / p->ks);
				uint32_t q0, q1;
				long off;
				char what[160];

				blk(r1 - r0, cdiv(r1 - r0, ncons), q, &q0, &q1);
				snprintf(what, sizeof(what), "tensor '%s' block (%u, %u)", name, bi, bj);
				if (p->ks == 1) {
					/* the whole block's buffer, the share at its place in it */
					struct ipu__hint h;

					off = ipu__tile_alloc(g, tile, (uint64_t)(r1 - r0) * rowb, 64, what, err);
					if (off < 0)
						return (int)off;
					h = (struct ipu__hint){ tile, (uint32_t)off, r0, r1, c0, c1 };
					if (ipu__hint_add(g, t, &h))
						return oom(err);
					off += (long)(q0 * rowb);
				} else {
					if (q0 == q1)
						continue;
					off = ipu__tile_alloc(g, tile, (uint64_t)(q1 - q0) * rowb, 64, what, err);
					if (off < 0)
						return (int)off;
				}
				for (uint32_t rr = r0 + q0; rr < r0 + q1; rr++) {
					r = ipu__map_at(g, t, (uint64_t)rr * cols + c0, c1 - c0, tile,
							(uint32_t)(off + (uint64_t)(rr - r0 - q0) * rowb), err);
					if (r)
						return r;
				}
			}
		}
	}
	return t;
}

IPU_API int ipu_matmul_create_lhs(struct ipu_graph *g, const struct ipu_matmul_plan *plan,
				  const char *name, struct ipu_error *err)
{
	return create_blocked(g, plan, name, 1, err);
}

IPU_API int ipu_matmul_create_rhs(struct ipu_graph *g, const struct ipu_matmul_plan *plan,
				  const char *name, struct ipu_error *err)
{
	return create_blocked(g, plan, name, 0, err);
}

/*
 * Offset on tile of block rows [r0, r1) x cols [c0, c1) of rank-2 tensor t
 * (cols total columns), stored row-major and contiguous: the tensor's own
 * memory when it already is so on tile, else a buffer filled by exchange ex.
 */
static long block_on_tile(struct ipu_graph *g, int *ex, const char *exname, int t, uint32_t cols,
			  uint32_t r0, uint32_t r1, uint32_t c0, uint32_t c1, unsigned tile,
			  long *buf, uint64_t bufbytes, struct ipu_error *err)
{
	unsigned es = ipu_dtype_size(ipu__graph_tensor(g, t)->dtype);
	uint64_t rowb = (uint64_t)(c1 - c0) * es;
	long base = -1, off;
	int inplace = 1;

	for (uint32_t rr = r0; rr < r1 && inplace; rr++) {
		struct ipu__piece *pc;
		long np = ipu__slice_pieces(g, t, (uint64_t)rr * cols + c0, c1 - c0, &pc, NULL);

		if (np < 0)
			return np == -ENOMEM ? oom(err) : ipu__err(err, -EINVAL, "matmul: operand not mapped");
		if (np != 1 || pc[0].tile != tile)
			inplace = 0;
		else if (rr == r0)
			base = pc[0].off;
		else if ((uint64_t)pc[0].off != (uint64_t)base + (rr - r0) * rowb)
			inplace = 0;
		free(pc);
	}
	if (inplace)
		return base;
	if (*buf < 0)
		*buf = ipu__hint_find(g, t, tile, r0, r1, c0, c1);
	if (*buf < 0) {
		*buf = ipu__tile_alloc(g, tile, bufbytes, 64, exname, err);
		if (*buf < 0)
			return *buf;
	}
	off = *buf;
	if (*ex < 0 && (*ex = ipu_graph_add_exchange(g, exname, err)) < 0)
		return *ex;
	for (uint32_t rr = r0; rr < r1; rr++) {
		struct ipu__piece *pc;
		long np = ipu__slice_pieces(g, t, (uint64_t)rr * cols + c0, c1 - c0, &pc, NULL);
		int r;

		if (np < 0)
			return oom(err);
		r = gather(g, *ex, t, pc, np, tile, (uint32_t)(off + (uint64_t)(rr - r0) * rowb), err);
		if (r)
			return r;
	}
	return off;
}

/*
 * A matmul being built: one group's C[m][n] = op(A) x op(B). The operands
 * are seen as rank-2 [rows][cols] views of their tensors (a grouped
 * operand [G][R][C] as [G*R][C]); this group's matrices start at rows a0,
 * b0, c0 of them, and its grid at tile tile0.
 */
struct mm {
	struct ipu_matmul_plan p;
	int a, b, c;		/* c: the result, -1 until created */
	const char *name;
	unsigned flags;		/* IPU_MATMUL_TRANSPOSE_* */
	uint32_t a0, b0, c0;	/* first rows of the group's A, B, C */
	uint32_t acols, bcols;	/* stored columns of A and B */
	unsigned tile0;
	size_t ntile;		/* pm * pn * pk */
	long *poff;		/* per grid tile: its partial C block, -1 when its C block is empty */
	long *abuf, *bbuf;	/* per grid tile: its A and B operand buffers, -1 until needed */
	unsigned char *inited;	/* per grid tile: some step has written its partials */
};

/* C block (i, j): rows [m0, m1), columns [n0, n1) */
struct mm_blk {
	uint32_t m0, m1, n0, n1;
};

static struct mm_blk mm_cblock(const struct ipu_matmul_plan *p, uint32_t i, uint32_t j)
{
	struct mm_blk b;

	blk(p->m, p->bm, i, &b.m0, &b.m1);
	blk(p->n, p->bn, j, &b.n0, &b.n1);
	return b;
}

/* the C block of grid tile `tile` */
static struct mm_blk mm_tile_cblock(const struct ipu_matmul_plan *p, size_t tile)
{
	return mm_cblock(p, (uint32_t)(tile / p->pn % p->pm), (uint32_t)(tile % p->pn));
}

/* rows [q0, q1) of C block b that tile l of the pk sharing it owns (sums) */
static void mm_own_rows(const struct ipu_matmul_plan *p, const struct mm_blk *b, uint32_t l,
			uint32_t *q0, uint32_t *q1)
{
	blk(b->m1 - b->m0, cdiv(b->m1 - b->m0, p->pk), l, q0, q1);
}

/* "[d0][d1]..." of tensor t, for messages */
static const char *mm_shape(const struct ipu__tensor *t, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = 0;
	for (unsigned d = 0; d < t->rank && o < n; d++)
		o += (size_t)snprintf(buf + o, n - o, "[%u]", t->shape[d]);
	return buf;
}

/*
 * The logical m, n, k of op(A) x op(B) (the last two dimensions, after the
 * transposes in flags) and the group count (rank 3: grouped). Checks the
 * ranks, the group counts, K and the dtypes. 0 or -EINVAL with a message
 * naming op, the matmul, the tensors and their shapes.
 */
static int mm_dims(const struct ipu_graph *g, const char *op, const char *name, int a, int b,
		   unsigned flags, unsigned rank, uint32_t dims[4], struct ipu_error *err)
{
	const struct ipu__tensor *ta = ipu__graph_tensor(g, a), *tb = ipu__graph_tensor(g, b);
	char sa[48], sb[48];
	int tA = !!(flags & IPU_MATMUL_TRANSPOSE_A), tB = !!(flags & IPU_MATMUL_TRANSPOSE_B);
	uint32_t ka, kb;

	mm_shape(ta, sa, sizeof(sa));
	mm_shape(tb, sb, sizeof(sb));
	if (ta->rank != rank || tb->rank != rank)
		return ipu__err(err, -EINVAL, "%s '%s': '%s' %s and '%s' %s must both have rank %u", op, name,
				ta->name, sa, tb->name, sb, rank);
	if (rank == 3 && ta->shape[0] != tb->shape[0])
		return ipu__err(err, -EINVAL, "%s '%s': '%s' %s has %u groups, '%s' %s has %u", op, name,
				ta->name, sa, ta->shape[0], tb->name, sb, tb->shape[0]);
	dims[0] = rank == 3 ? ta->shape[0] : 1;
	dims[1] = ta->shape[rank - 2 + tA];		/* m */
	ka = ta->shape[rank - 1 - tA];
	kb = tb->shape[rank - 2 + tB];
	dims[2] = tb->shape[rank - 1 - tB];		/* n */
	dims[3] = ka;
	if (ka != kb)
		return ipu__err(err, -EINVAL, "%s '%s': shapes do not match: '%s' %s%s has K = %u, '%s' %s%s "
				"has K = %u", op, name, ta->name, sa, tA ? " (transposed)" : "", ka, tb->name, sb,
				tB ? " (transposed)" : "", kb);
	if (ta->dtype != tb->dtype || (ta->dtype != IPU_DTYPE_F32 && ta->dtype != IPU_DTYPE_F16))
		return ipu__err(err, -EINVAL, "%s '%s': '%s' (%s) and '%s' (%s) must both be f32 or f16", op, name,
				ta->name, ipu_dtype_name(ta->dtype), tb->name, ipu_dtype_name(tb->dtype));
	return 0;
}

/*
 * *p: a copy of plan when it fits m x n x k of dtype, else -EINVAL naming
 * the matmul. 0 or negative errno.
 */
static int mm_check_plan(const struct ipu_graph *g, const char *op, const char *name,
			 const struct ipu_matmul_plan *plan, const uint32_t dims[4], unsigned dtype,
			 struct ipu_matmul_plan *p, struct ipu_error *err)
{
	*p = *plan;
	if (p->m != dims[1] || p->n != dims[2] || p->k != dims[3] || p->dtype != dtype)
		return ipu__err(err, -EINVAL, "%s '%s': the plan is for %ux%ux%u %s, the operands "
				"are %ux%ux%u %s", op, name, p->m, p->n, p->k, ipu_dtype_name(p->dtype),
				dims[1], dims[2], dims[3], ipu_dtype_name(dtype));
	return bad_plan(g, p, err);
}

/*
 * The per-tile arrays (freed by mm_free) and each tile's partial C block,
 * f32, on it (written by the tile's first MatMulPartial, OVERWRITE). 0 or
 * negative errno.
 */
static int mm_partials(struct ipu_graph *g, struct mm *x, struct ipu_error *err)
{
	x->ntile = (size_t)x->p.pm * x->p.pn * x->p.pk;
	x->poff = malloc(x->ntile * sizeof(*x->poff));
	x->abuf = malloc(x->ntile * sizeof(*x->abuf));
	x->bbuf = malloc(x->ntile * sizeof(*x->bbuf));
	x->inited = malloc(x->ntile);
	if (!x->poff || !x->abuf || !x->bbuf || !x->inited)
		return oom(err);
	for (size_t tile = 0; tile < x->ntile; tile++) {
		struct mm_blk cb = mm_tile_cblock(&x->p, tile);

		x->abuf[tile] = x->bbuf[tile] = -1;
		x->inited[tile] = 0;
		x->poff[tile] = -1;
		if (cb.m0 == cb.m1 || cb.n0 == cb.n1)
			continue;
		x->poff[tile] = ipu__tile_alloc(g, x->tile0 + (unsigned)tile,
						(uint64_t)(cb.m1 - cb.m0) * (cb.n1 - cb.n0) * 4, 64, x->name, err);
		if (x->poff[tile] < 0)
			return (int)x->poff[tile];
	}
	return 0;
}

/* rows [q0, q1) of C block b that tile j of the pn sharing its A block transposes */
static void mm_tr_rows(const struct ipu_matmul_plan *p, const struct mm_blk *b, uint32_t j, uint32_t *q0,
		       uint32_t *q1)
{
	blk(b->m1 - b->m0, cdiv(b->m1 - b->m0, p->pn), j, q0, q1);
}

/*
 * Tile (i, j, l)'s A block rows [m0, m1) x K [k0, k1) as [m][k] on its
 * tile: gathered rows; with TRANSPOSE_A the rows that the other pn - 1
 * tiles sharing the block transposed (mm_transpose()), one copy each.
 * Offset or negative errno.
 */
static long mm_a_block(struct ipu_graph *g, struct mm *x, uint32_t i, uint32_t j, uint32_t l,
		       const struct mm_blk *cb, uint32_t k0, uint32_t k1, int *ex, const char *exname,
		       struct ipu_error *err)
{
	const struct ipu_matmul_plan *p = &x->p;
	unsigned lt = mm_tile(p, i, j, l), tile = x->tile0 + lt, es = ipu_dtype_size(p->dtype);
	uint64_t rowb = (uint64_t)(k1 - k0) * es;
	int r;

	if (!(x->flags & IPU_MATMUL_TRANSPOSE_A))
		return block_on_tile(g, ex, exname, x->a, x->acols, x->a0 + cb->m0, x->a0 + cb->m1, k0, k1, tile,
				     &x->abuf[lt], (uint64_t)p->bm * p->bk * es, err);
	for (uint32_t j2 = 0; j2 < p->pn; j2++) {
		unsigned src = mm_tile(p, i, j2, l);
		uint32_t q0, q1;

		mm_tr_rows(p, cb, j2, &q0, &q1);
		if (j2 == j || q0 == q1)
			continue;
		if (*ex < 0 && (*ex = ipu_graph_add_exchange(g, exname, err)) < 0)
			return *ex;
		r = ipu__exchange_raw(g, *ex, x->tile0 + src, (uint32_t)(x->abuf[src] + q0 * rowb), tile,
				      (uint32_t)(x->abuf[lt] + q0 * rowb), (uint32_t)((q1 - q0) * rowb), x->a, -1, err);
		if (r)
			return r;
	}
	return x->abuf[lt];
}

/*
 * Where tile lt's Transpose vertex may read its gathered share (rows [q0,
 * q1) of the block, kk long) without new memory: the part of its A buffer
 * (bm x kk used) that the other tiles' shares fill only later, or its
 * partials before any step wrote them; -1 when neither has room.
 */
static long mm_tr_scratch(const struct mm *x, unsigned lt, uint32_t kk, uint32_t q0, uint32_t q1,
			  const struct mm_blk *cb)
{
	uint64_t es = ipu_dtype_size(x->p.dtype), need = (uint64_t)(q1 - q0) * kk * es;

	if ((uint64_t)q0 * kk * es >= need)
		return x->abuf[lt];
	if ((uint64_t)(x->p.bm - q1) * kk * es >= need)
		return x->abuf[lt] + (long)((uint64_t)q1 * kk * es);
	if (!x->inited[lt] && (uint64_t)(cb->m1 - cb->m0) * (cb->n1 - cb->n0) * 4 >= need)
		return x->poff[lt];
	return -1;
}

/*
 * TRANSPOSE_A, serial step s: the pn tiles (i, j, l) sharing A block (i,
 * l * ks + s) each transpose a 1/pn share of its rows from the stored
 * [k][m] into their buffer: exchange NAME/transpose[.s] gathers the share's
 * stored rows, then a Transpose vertex in compute set NAME/transpose[.s]
 * writes them as [m][k]; mm_a_block() then exchanges the shares like an
 * all-gather. The traffic is balanced as without the transpose. 0 or
 * negative errno.
 */
static int mm_transpose(struct ipu_graph *g, int seq, struct mm *xs, size_t nx, uint32_t s,
			struct ipu_error *err)
{
	const struct ipu_matmul_plan *p = &xs[0].p;
	uint64_t bytes = (uint64_t)p->bm * p->bk * ipu_dtype_size(p->dtype);
	char sfx[32], exname[200];
	int ex = -1, cs = -1, r;

	snprintf(sfx, sizeof(sfx), p->ks > 1 ? "transpose.%u" : "transpose", s);
	nm(exname, sizeof(exname), xs[0].name, sfx);
	for (size_t t = 0; t < nx * xs[0].ntile; t++) {
		struct mm *x = &xs[t / xs[0].ntile];
		unsigned lt = (unsigned)(t % xs[0].ntile), tile = x->tile0 + lt;
		uint32_t k0, k1, q0, q1;
		struct mm_blk cb = mm_tile_cblock(p, lt);

		blk(p->k, p->bk, (uint32_t)(lt / (p->pm * p->pn)) * p->ks + s, &k0, &k1);
		if (x->poff[lt] < 0 || k0 == k1)
			continue;
		if (x->abuf[lt] < 0 && (x->abuf[lt] = ipu__tile_alloc(g, tile, bytes, 64, exname, err)) < 0)
			return (int)x->abuf[lt];
		mm_tr_rows(p, &cb, lt % p->pn, &q0, &q1);
		if (q0 < q1 && (r = ipu__transpose_block(g, &ex, &cs, exname, x->a, x->acols, x->a0 + k0, x->a0 + k1,
							 cb.m0 + q0, cb.m0 + q1, tile,
							 (uint32_t)(x->abuf[lt] + (uint64_t)q0 * (k1 - k0) *
								    ipu_dtype_size(p->dtype)),
							 mm_tr_scratch(x, lt, k1 - k0, q0, q1, &cb), err)))
			return r;
	}
	if (ex >= 0 && (r = add_exch(g, seq, ex, err)))
		return r;
	if (cs >= 0 && (r = add_exec(g, seq, cs, err)))
		return r;
	return 0;
}

/*
 * Grid tile lt's B block K [k0, k1) x columns [n0, n1): gathered rows of
 * [k][n], or with TRANSPOSE_B of the stored [n][k] (the codelet's
 * B_TRANSPOSED reads it as it is). Offset or negative errno.
 */
static long mm_b_block(struct ipu_graph *g, struct mm *x, size_t lt, const struct mm_blk *cb,
		       uint32_t k0, uint32_t k1, int *ex, const char *exname, struct ipu_error *err)
{
	const struct ipu_matmul_plan *p = &x->p;
	unsigned tile = x->tile0 + (unsigned)lt;
	uint64_t bytes = (uint64_t)p->bk * p->bn * ipu_dtype_size(p->dtype);

	if (x->flags & IPU_MATMUL_TRANSPOSE_B)
		return block_on_tile(g, ex, exname, x->b, x->bcols, x->b0 + cb->n0, x->b0 + cb->n1, k0, k1, tile,
				     &x->bbuf[lt], bytes, err);
	return block_on_tile(g, ex, exname, x->b, x->bcols, x->b0 + k0, x->b0 + k1, cb->n0, cb->n1, tile,
			     &x->bbuf[lt], bytes, err);
}

/*
 * Tile (i, j, l)'s part of serial step s: its A block (i, l * ks + s) and
 * B block (l * ks + s, j) brought to it (copies into exchange *ex, created
 * on first use) and one MatMulPartial adding their product to its
 * partials in compute set cs. 0 or negative errno.
 */
static int mm_step_tile(struct ipu_graph *g, struct mm *x, uint32_t s, uint32_t i, uint32_t j,
			uint32_t l, int cs, int *ex, const char *exname, struct ipu_error *err)
{
	const struct ipu_matmul_plan *p = &x->p;
	unsigned lt = mm_tile(p, i, j, l);
	struct mm_blk cb = mm_cblock(p, i, j);
	uint32_t k0, k1, prm[4];
	struct ipu__rawfield f[3];
	long ao, bo;
	int r;

	blk(p->k, p->bk, l * p->ks + s, &k0, &k1);
	if (x->poff[lt] < 0 || k0 == k1)
		return 0;
	if ((ao = mm_a_block(g, x, i, j, l, &cb, k0, k1, ex, exname, err)) < 0)
		return (int)ao;
	if ((bo = mm_b_block(g, x, lt, &cb, k0, k1, ex, exname, err)) < 0)
		return (int)bo;
	f[0] = rf((uint32_t)ao, (uint64_t)(cb.m1 - cb.m0) * (k1 - k0), p->dtype, x->a);
	f[1] = rf((uint32_t)bo, (uint64_t)(k1 - k0) * (cb.n1 - cb.n0), p->dtype, x->b);
	f[2] = rf((uint32_t)x->poff[lt], (uint64_t)(cb.m1 - cb.m0) * (cb.n1 - cb.n0), IPU_DTYPE_F32, -1);
	prm[0] = cb.m1 - cb.m0;
	prm[1] = cb.n1 - cb.n0;
	prm[2] = k1 - k0;
	prm[3] = x->inited[lt] ? 0 : IPUE_MATMUL_OVERWRITE;
	if (x->flags & IPU_MATMUL_TRANSPOSE_B)
		prm[3] |= IPUE_MATMUL_B_TRANSPOSED;
	x->inited[lt] = 1;
	r = ipu__add_vertex_raw(g, cs, IPUE_CODELET_MATMUL, x->tile0 + lt, f, 3, prm, 4, err);
	return r < 0 ? r : 0;
}

/*
 * Serial step s of the nx groups xs (one plan, disjoint tiles): exchange
 * NAME/operands[.s] with the operand blocks, then compute set
 * NAME/matmul[.s] with every tile's partial product. 0 or negative errno.
 */
static int mm_step(struct ipu_graph *g, int seq, struct mm *xs, size_t nx, uint32_t s, struct ipu_error *err)
{
	const struct ipu_matmul_plan *p = &xs[0].p;
	char sfx[32], buf[200], exname[200];
	int cs, ex = -1, r;

	snprintf(sfx, sizeof(sfx), p->ks > 1 ? "matmul.%u" : "matmul", s);
	cs = ipu_graph_add_compute_set(g, nm(buf, sizeof(buf), xs[0].name, sfx), err);
	if (cs < 0)
		return cs;
	snprintf(sfx, sizeof(sfx), p->ks > 1 ? "operands.%u" : "operands", s);
	nm(exname, sizeof(exname), xs[0].name, sfx);
	for (size_t x = 0; x < nx; x++)
		for (uint32_t l = 0; l < p->pk; l++)
			for (uint32_t i = 0; i < p->pm; i++)
				for (uint32_t j = 0; j < p->pn; j++)
					if ((r = mm_step_tile(g, &xs[x], s, i, j, l, cs, &ex, exname, err)))
						return r;
	if (ex >= 0 && (r = add_exch(g, seq, ex, err)))
		return r;
	return add_exec(g, seq, cs, err);
}

/*
 * Partials no step wrote (only with a plan whose K blocks can be empty):
 * zeroed by compute set NAME/zero. 0 or negative errno.
 */
static int mm_zero_unwritten(struct ipu_graph *g, int seq, struct mm *xs, size_t nx, struct ipu_error *err)
{
	const uint32_t zero = 0;
	char buf[200];
	int cs = -1, r;

	for (size_t x = 0; x < nx; x++)
		for (size_t tile = 0; tile < xs[x].ntile; tile++) {
			struct mm_blk cb = mm_tile_cblock(&xs[x].p, tile);
			struct ipu__rawfield f[1];

			if (xs[x].poff[tile] < 0 || xs[x].inited[tile])
				continue;
			if (cs < 0 && (cs = ipu_graph_add_compute_set(g, nm(buf, sizeof(buf), xs[0].name, "zero"),
								      err)) < 0)
				return cs;
			f[0] = rf((uint32_t)xs[x].poff[tile], (uint64_t)(cb.m1 - cb.m0) * (cb.n1 - cb.n0),
				  IPU_DTYPE_F32, -1);
			r = ipu__add_vertex_raw(g, cs, IPUE_CODELET_FILL, xs[x].tile0 + (unsigned)tile, f, 1, &zero,
						1, err);
			if (r < 0)
				return r;
		}
	return cs >= 0 ? add_exec(g, seq, cs, err) : 0;
}

/*
 * The tensor NAME/ones: pk - 1 ones for each owner of some rows (load-time
 * data, mapped later next to each owner's gathered rows). Id or negative
 * errno.
 */
static int mm_ones(struct ipu_graph *g, const struct mm *x, struct ipu_error *err)
{
	const struct ipu_matmul_plan *p = &x->p;
	uint64_t nown = 0;
	uint32_t n1;
	float *one;
	int ones, r;

	for (uint32_t i = 0; i < p->pm; i++)
		for (uint32_t j = 0; j < p->pn; j++)
			for (uint32_t l = 0; l < p->pk; l++) {
				struct mm_blk cb = mm_cblock(p, i, j);
				uint32_t q0, q1;

				mm_own_rows(p, &cb, l, &q0, &q1);
				if (x->poff[mm_tile(p, i, j, l)] >= 0 && q1 > q0)
					nown++;
			}
	n1 = (uint32_t)(nown * (p->pk - 1));
	ones = ipu_graph_add_tensor(g, ipu__graph_uname(g, x->name, "/ones"), IPU_DTYPE_F32, 1, &n1, err);
	if (ones < 0)
		return ones;
	one = malloc((size_t)n1 * sizeof(*one));
	if (!one)
		return oom(err);
	for (uint32_t q = 0; q < n1; q++)
		one[q] = 1.0f;
	r = ipu_graph_set_initial(g, ones, one, (size_t)n1 * sizeof(*one), err);
	free(one);
	return r ? r : ones;
}

/* the reduction's state: the group's ones tensor and how much of it is mapped, exchange, compute set */
struct mm_red {
	int ones, ex, cs;
	uint64_t o1;
	char exname[200];
};

/*
 * Owner tile (i, j, l) of its rows of C block (i, j): those rows of the
 * other pk - 1 partials gathered next to each other on it (ascending l,
 * into exchange rd->ex), and one MatMulPartial [1 x pk-1] x [pk-1 x
 * rows*bn] by its pk - 1 ones adding them to its own rows. 0 or negative
 * errno.
 */
static int mm_reduce_owner(struct ipu_graph *g, struct mm *x, struct mm_red *rd, uint32_t i,
			   uint32_t j, uint32_t l, struct ipu_error *err)
{
	const struct ipu_matmul_plan *p = &x->p;
	unsigned lt = mm_tile(p, i, j, l), tile = x->tile0 + lt, slot = 0;
	struct mm_blk cb = mm_cblock(p, i, j);
	uint32_t q0, q1, bn = cb.n1 - cb.n0, prm[4];
	struct ipu__rawfield f[3];
	uint64_t nel;
	long go, oo;
	int r;

	if (x->poff[lt] < 0)
		return 0;
	mm_own_rows(p, &cb, l, &q0, &q1);
	if (q1 == q0)
		return 0;
	nel = (uint64_t)(q1 - q0) * bn;
	go = ipu__tile_alloc(g, tile, nel * 4 * (p->pk - 1), 64, rd->exname, err);
	if (go < 0)
		return (int)go;
	oo = ipu__tile_alloc(g, tile, 4 * (p->pk - 1), 4, rd->exname, err);
	if (oo < 0)
		return (int)oo;
	if ((r = ipu__map_at(g, rd->ones, rd->o1, p->pk - 1, tile, (uint32_t)oo, err)))
		return r;
	if (rd->ex < 0 && (rd->ex = ipu_graph_add_exchange(g, rd->exname, err)) < 0)
		return rd->ex;
	for (uint32_t l2 = 0; l2 < p->pk; l2++) {
		unsigned src = mm_tile(p, i, j, l2);

		if (l2 == l)
			continue;
		r = ipu__exchange_raw(g, rd->ex, x->tile0 + src, (uint32_t)(x->poff[src] + (uint64_t)q0 * bn * 4),
				      tile, (uint32_t)(go + slot * nel * 4), (uint32_t)(nel * 4), -1, -1, err);
		if (r)
			return r;
		slot++;
	}
	/* own rows (the result) += ones[1][pk-1] x gathered[pk-1][nel] */
	f[0] = rf((uint32_t)oo, p->pk - 1, IPU_DTYPE_F32, rd->ones);
	f[0].begin = rd->o1;
	f[1] = rf((uint32_t)go, nel * (p->pk - 1), IPU_DTYPE_F32, -1);
	f[2] = rf((uint32_t)(x->poff[lt] + (uint64_t)q0 * bn * 4), nel, IPU_DTYPE_F32, x->c);
	prm[0] = 1;
	prm[1] = (uint32_t)nel;
	prm[2] = p->pk - 1;
	prm[3] = 0;
	r = ipu__add_vertex_raw(g, rd->cs, IPUE_CODELET_MATMUL, tile, f, 3, prm, 4, err);
	if (r < 0)
		return r;
	rd->o1 += p->pk - 1;
	return 0;
}

/*
 * Reduction of the K partials (pk > 1) of the nx groups xs: the pk tiles
 * of a C block each own some of its rows and add the others' partials of
 * them to their own, in exchange NAME/partials and compute set
 * NAME/reduce; each sum in fixed order (own + (p1 + p2 + ...)). 0 or
 * negative errno.
 */
static int mm_reduce(struct ipu_graph *g, int seq, struct mm *xs, size_t nx, struct ipu_error *err)
{
	struct mm_red rd = { .ex = -1, .cs = -1 };
	char buf[200];
	int r;

	snprintf(rd.exname, sizeof(rd.exname), "%s/partials", xs[0].name);
	for (size_t x = 0; x < nx; x++) {
		if ((rd.ones = mm_ones(g, &xs[x], err)) < 0)
			return rd.ones;
		rd.o1 = 0;
		if (rd.cs < 0 &&
		    (rd.cs = ipu_graph_add_compute_set(g, nm(buf, sizeof(buf), xs[0].name, "reduce"), err)) < 0)
			return rd.cs;
		for (uint32_t i = 0; i < xs[x].p.pm; i++)
			for (uint32_t j = 0; j < xs[x].p.pn; j++)
				for (uint32_t l = 0; l < xs[x].p.pk; l++)
					if ((r = mm_reduce_owner(g, &xs[x], &rd, i, j, l, err)))
						return r;
	}
	if (rd.ex >= 0 && (r = add_exch(g, seq, rd.ex, err)))
		return r;
	if (rd.ex >= 0 && (r = add_exec(g, seq, rd.cs, err)))
		return r;
	return 0;
}

/*
 * C's elements: the rows of each C block on the tile that holds their
 * final sum (its owner, or with pk == 1 the block's only tile), in its
 * partials (no copy). 0 or negative errno.
 */
static int mm_map_result(struct ipu_graph *g, struct mm *x, struct ipu_error *err)
{
	const struct ipu_matmul_plan *p = &x->p;

	for (uint32_t i = 0; i < p->pm; i++)
		for (uint32_t j = 0; j < p->pn; j++)
			for (uint32_t l = 0; l < p->pk; l++) {
				unsigned lt = mm_tile(p, i, j, l);
				struct mm_blk cb = mm_cblock(p, i, j);
				uint32_t q0, q1, cols = cb.n1 - cb.n0;
				int r;

				if (cb.m0 == cb.m1 || cb.n0 == cb.n1)
					continue;
				if (p->pk > 1) {
					mm_own_rows(p, &cb, l, &q0, &q1);
				} else if (l == 0) {
					q0 = 0;
					q1 = cb.m1 - cb.m0;
				} else {
					continue;
				}
				if (x->poff[lt] < 0)
					continue;
				for (uint32_t q = q0; q < q1; q++)
					if ((r = ipu__map_at(g, x->c, (uint64_t)(x->c0 + cb.m0 + q) * p->n + cb.n0, cols,
							     x->tile0 + lt,
							     (uint32_t)(x->poff[lt] + (uint64_t)q * cols * 4), err)))
						return r;
			}
	return 0;
}

/* frees what mm_partials allocated */
static void mm_free(struct mm *x)
{
	free(x->poff);
	free(x->abuf);
	free(x->bbuf);
	free(x->inited);
}

/*
 * The program of the nx groups xs, which run side by side on disjoint
 * tiles with one plan: partials, the serial steps, zeroing, the reduction,
 * C mapped. 0 or negative errno.
 */
static int mm_build(struct ipu_graph *g, int seq, struct mm *xs, size_t nx, struct ipu_error *err)
{
	int r = 0;

	for (size_t x = 0; !r && x < nx; x++)
		r = mm_partials(g, &xs[x], err);
	for (uint32_t s = 0; !r && s < xs[0].p.ks; s++) {
		if (xs[0].flags & IPU_MATMUL_TRANSPOSE_A)
			r = mm_transpose(g, seq, xs, nx, s, err);
		if (!r)
			r = mm_step(g, seq, xs, nx, s, err);
	}
	if (!r)
		r = mm_zero_unwritten(g, seq, xs, nx, err);
	if (!r && xs[0].p.pk > 1)
		r = mm_reduce(g, seq, xs, nx, err);
	for (size_t x = 0; !r && x < nx; x++)
		r = mm_map_result(g, &xs[x], err);
	for (size_t x = 0; x < nx; x++)
		mm_free(&xs[x]);
	return r;
}

/* the checks every matmul entry point makes; 0 or -EINVAL naming op and the reason */
static int mm_check_args(const struct ipu_graph *g, const char *op, int a, int b, unsigned flags,
			 const char *name, struct ipu_error *err)
{
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", op);
	if (!name || !*name)
		return ipu__err(err, -EINVAL, "%s: the output needs a name", op);
	if (flags & ~(unsigned)(IPU_MATMUL_TRANSPOSE_A | IPU_MATMUL_TRANSPOSE_B))
		return ipu__err(err, -EINVAL, "%s '%s': unknown flags 0x%x", op, name,
				flags & ~(unsigned)(IPU_MATMUL_TRANSPOSE_A | IPU_MATMUL_TRANSPOSE_B));
	if ((r = check_mapped(g, a, op, err)) || (r = check_mapped(g, b, op, err)))
		return r;
	return 0;
}

/* x's operand geometry for group grp of op(A) [m][k], op(B) [k][n] (dims as mm_dims gives them) */
static void mm_group(struct mm *x, const uint32_t dims[4], uint32_t grp)
{
	int tA = !!(x->flags & IPU_MATMUL_TRANSPOSE_A), tB = !!(x->flags & IPU_MATMUL_TRANSPOSE_B);

	x->acols = tA ? dims[1] : dims[3];
	x->bcols = tB ? dims[3] : dims[2];
	x->a0 = grp * (tA ? dims[3] : dims[1]);
	x->b0 = grp * (tB ? dims[2] : dims[3]);
	x->c0 = grp * dims[1];
}

/*
 * numpy's matmul with a 0 among (groups, m, n, k) of dims (as mm_dims gives
 * them): C f32 [groups][m][n] (rank 3) or [m][n], empty when groups, m or n
 * is 0, else zeros (k = 0: sums of nothing); the plan is not needed.
 */
static int mm_empty(struct ipu_graph *g, int seq, const char *name, unsigned rank, const uint32_t dims[4],
		    struct ipu_error *err)
{
	uint32_t shape[3] = { dims[0], dims[1], dims[2] };

	return ipu__zeros(g, seq, name, IPU_DTYPE_F32, rank, rank == 3 ? shape : shape + 1, err);
}

IPU_API int ipu_matmul_ex(struct ipu_graph *g, int seq, int a, int b, unsigned flags, const char *name,
			  const struct ipu_matmul_plan *plan, struct ipu_error *err)
{
	struct mm x = { .a = a, .b = b, .c = -1, .name = name, .flags = flags };
	uint32_t dims[4], shape[2];
	int r, ipu;

	if ((r = mm_check_args(g, "ipu_matmul", a, b, flags, name, err)) ||
	    (r = mm_dims(g, "ipu_matmul", name, a, b, flags, 2, dims, err)))
		return r;
	if (!dims[1] || !dims[2] || !dims[3])
		return mm_empty(g, seq, name, 2, dims, err);
	/* operands on one IPU of several: planned within that IPU (as on a virtual graph) */
	ipu = ipu__tensor_ipu(g, a);
	if (ipu != ipu__tensor_ipu(g, b))
		ipu = -1;
	if (!plan && ipu >= 0) {
		r = mm_plan_tiles(g, dims[1], dims[2], dims[3], ipu__graph_tensor(g, a)->dtype,
				  ipu_graph_tiles_per_ipu(g), &x.p, err);
		x.tile0 = (unsigned)ipu * ipu_graph_tiles_per_ipu(g);
	} else if (!plan)
		r = ipu_matmul_plan(g, dims[1], dims[2], dims[3], ipu__graph_tensor(g, a)->dtype, &x.p, err);
	else
		r = mm_check_plan(g, "ipu_matmul", name, plan, dims, ipu__graph_tensor(g, a)->dtype, &x.p, err);
	if (r)
		return r;
	mm_group(&x, dims, 0);
	shape[0] = x.p.m;
	shape[1] = x.p.n;
	x.c = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 2, shape, err);
	if (x.c < 0)
		return x.c;
	r = mm_build(g, seq, &x, 1, err);
	return r < 0 ? r : x.c;
}

IPU_API int ipu_matmul(struct ipu_graph *g, int seq, int a, int b, const char *name,
		       const struct ipu_matmul_plan *plan, struct ipu_error *err)
{
	return ipu_matmul_ex(g, seq, a, b, 0, name, plan, err);
}

/*
 * Plan for G groups of m x n x k: for each number of waves w (groups run
 * w after another, ceil(G / w) side by side), the best grid within that
 * many groups' share of the tiles and 1/w of the tile memory (a tile
 * holds the buffers of up to w groups); the fewest modelled cycles
 * (w x the group's) wins. 0 or -ENOSPC.
 */
static int mm_plan_grouped(const struct ipu_graph *g, uint32_t G, const uint32_t dims[4], unsigned dtype,
			   struct ipu_matmul_plan *plan, struct ipu_error *err)
{
	unsigned T = ipu_graph_tiles(g), busy_tile;
	uint64_t mem, tmp, best = UINT64_MAX;
	uint32_t busy;

	if (mm_budget(g, &mem, &tmp, &busy, &busy_tile))
		return ipu__err(err, -ENOMEM, "ipu_matmul_grouped: out of memory");
	for (uint32_t w = 1; w <= G; w++) {
		uint32_t gp = cdiv(G, w);
		struct ipu_matmul_plan p;

		if (cdiv(G, gp) != w || gp > T)
			continue;
		if (mm_plan_search(dims[1], dims[2], dims[3], dtype, T / gp, mem / w, tmp / w, &p, NULL))
			continue;
		if (p.est_cycles * w < best) {
			best = p.est_cycles * w;
			*plan = p;
		}
	}
	if (best == UINT64_MAX)
		return ipu__err(err, -ENOSPC, "ipu_matmul_grouped: %u groups of %ux%ux%u (%s) do not fit the "
				"%llu bytes per tile available on the %s model (availableMemoryProportion "
				"%.2f of %u bytes, and tile %u has %u bytes in use)", G, dims[1], dims[2],
				dims[3], ipu_dtype_name(dtype), (unsigned long long)mem,
				ipu_model_name(ipu_graph_model(g)), g->amp, g->tile_mem, busy_tile, busy);
	return 0;
}

/* the waves of a grouped matmul: gp groups side by side on gp grids of plan->tiles tiles each */
static int mm_grouped_waves(struct ipu_graph *g, int seq, const struct mm *proto, const uint32_t dims[4],
			    struct ipu_error *err)
{
	uint32_t G = dims[0], tiles = proto->p.pm * proto->p.pn * proto->p.pk;
	uint32_t gp = ipu_graph_tiles(g) / tiles, waves;
	struct mm *xs;
	int r = 0;

	gp = gp < G ? gp : G;
	waves = cdiv(G, gp);
	if (!(xs = calloc(gp, sizeof(*xs))))
		return oom(err);
	for (uint32_t w = 0; !r && w < waves; w++) {
		uint32_t first = w * gp, nx = G - first < gp ? G - first : gp;
		char wname[200];

		/* waves reuse the tiles; their programs get distinct names */
		if (waves > 1)
			snprintf(wname, sizeof(wname), "%s/wave.%u", proto->name, w);
		for (uint32_t q = 0; q < nx; q++) {
			xs[q] = *proto;
			xs[q].name = waves > 1 ? wname : proto->name;
			xs[q].tile0 = q * tiles;
			mm_group(&xs[q], dims, first + q);
		}
		r = mm_build(g, seq, xs, nx, err);
	}
	free(xs);
	return r;
}

IPU_API int ipu_matmul_grouped(struct ipu_graph *g, int seq, int a, int b, unsigned flags,
			       const char *name, const struct ipu_matmul_plan *plan,
			       struct ipu_error *err)
{
	struct mm x = { .a = a, .b = b, .c = -1, .name = name, .flags = flags };
	uint32_t dims[4], shape[3];
	unsigned dtype;
	int r;

	if ((r = mm_check_args(g, "ipu_matmul_grouped", a, b, flags, name, err)) ||
	    (r = mm_dims(g, "ipu_matmul_grouped", name, a, b, flags, 3, dims, err)))
		return r;
	dtype = ipu__graph_tensor(g, a)->dtype;
	if (!dims[0] || !dims[1] || !dims[2] || !dims[3])
		return mm_empty(g, seq, name, 3, dims, err);
	if (!plan)
		r = mm_plan_grouped(g, dims[0], dims, dtype, &x.p, err);
	else
		r = mm_check_plan(g, "ipu_matmul_grouped", name, plan, dims, dtype, &x.p, err);
	if (r)
		return r;
	shape[0] = dims[0];
	shape[1] = dims[1];
	shape[2] = dims[2];
	x.c = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 3, shape, err);
	if (x.c < 0)
		return x.c;
	r = mm_grouped_waves(g, seq, &x, dims, err);
	return r < 0 ? r : x.c;
}
