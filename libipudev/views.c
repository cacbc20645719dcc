// SPDX-License-Identifier: MIT
/*
 * Tensor views, like Poplar's Tensor methods: reshape, slice, concat and a
 * transpose that keeps contiguous runs are new tensors whose intervals
 * point into the memory of the tensors they view (no tile memory, no
 * program); a transpose that moves the innermost dimension is an exchange
 * then Transpose vertices, and a broadcast an exchange into a new tensor.
 * See docs/builder.md, "Views".
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"

/* where a view's elements are in its input: in(o) = base + sum coord_d(o) * stride[d] */
struct strided {
	unsigned rank;
	uint32_t shape[IPU_MAX_RANK];	/* the view's */
	uint64_t stride[IPU_MAX_RANK];	/* in the input's elements */
	uint64_t base;
};

/* the identity order of dims */
static const unsigned ident[IPU_MAX_RANK] = { 0, 1, 2, 3, 4, 5 };

/* node appended to seq (node < 0: its error, already reported) */
static int append(struct ipu_graph *g, int seq, int node, struct ipu_error *err)
{
	if (node < 0)
		return node;
	node = ipu_prog_append(g, seq, node, err);
	return node < 0 ? node : 0;
}

static uint64_t elements_of(unsigned rank, const uint32_t *shape)
{
	uint64_t n = 1;

	for (unsigned i = 0; i < rank; i++)
		n *= shape[i];
	return n;
}

/* row-major strides of a shape */
static void strides_of(unsigned rank, const uint32_t *shape, uint64_t *st)
{
	uint64_t s = 1;

	for (unsigned i = rank; i-- > 0;) {
		st[i] = s;
		s *= shape[i];
	}
}

/*
 * The common checks and the new tensor @name of @in's dtype and the given
 * shape, marked a view of @in when @view. Id or negative errno naming @op.
 */
static int view_tensor(struct ipu_graph *g, int in, const char *name, unsigned rank, const uint32_t *shape,
		       int view, const char *op, struct ipu_error *err)
{
	int r = ipu__check_op_input(g, in, name, op, "input", err);
	struct ipu__tensor *t;

	if (r)
		return r;
	r = ipu_graph_add_tensor(g, name, ipu__graph_tensor(g, in)->dtype, rank, shape, err);
	if (r < 0)
		return r;
	/* the graph owns its tensors; views.c records which are views */
	t = (struct ipu__tensor *)ipu__graph_tensor(g, r);
	t->view = (uint8_t)view;
	t->base = in;
	return r;
}

/* map elements [ob, ob + n) of view out onto elements [ib, ib + n) of in's memory */
static int map_range(struct ipu_graph *g, int out, uint64_t ob, int in, uint64_t ib, uint64_t n,
		     struct ipu_error *err)
{
	struct ipu__piece *pc;
	long np = ipu__slice_pieces(g, in, ib, n, &pc, NULL);
	int r = 0;

	if (np < 0)
		return np == -ENOMEM ? ipu__err(err, -ENOMEM, "views: out of memory")
				     : ipu__err(err, -EINVAL, "tensor '%s' is not fully mapped to tiles",
						ipu__graph_tensor(g, in)->name);
	for (long i = 0; i < np && !r; i++) {
		r = ipu__map_at(g, out, ob, pc[i].count, pc[i].tile, pc[i].off, err);
		ob += pc[i].count;
	}
	free(pc);
	return r;
}

/* elements of the trailing dimensions of s that are contiguous in the input (a run) */
static uint64_t run_length(const struct strided *s)
{
	uint64_t L = 1;

	for (unsigned d = s->rank; d-- > 0;) {
		if (s->shape[d] == 1)
			continue;
		if (s->stride[d] != L)
			break;
		L *= s->shape[d];
	}
	return L;
}

/* the input index of view element o */
static uint64_t strided_index(const struct strided *s, uint64_t o)
{
	uint64_t i = s->base;

	for (unsigned d = s->rank; d-- > 0;) {
		i += (o % s->shape[d]) * s->stride[d];
		o /= s->shape[d];
	}
	return i;
}

/* map every element of view out (shape s) onto in's memory, one run at a time */
static int map_strided(struct ipu_graph *g, int out, int in, const struct strided *s, struct ipu_error *err)
{
	uint64_t n = elements_of(s->rank, s->shape), L = run_length(s);
	int r = 0;

	for (uint64_t o = 0; o < n && !r; o += L)
		r = map_range(g, out, o, in, strided_index(s, o), L, err);
	return r;
}

/* a new view @name of @in described by s; id or negative errno */
static int strided_view(struct ipu_graph *g, int in, const struct strided *s, const char *name, const char *op,
			struct ipu_error *err)
{
	int out = view_tensor(g, in, name, s->rank, s->shape, 1, op, err);
	int r;

	if (out < 0 || ipu__empty(g, out))
		return out;	/* an empty view: no elements to place */
	r = map_strided(g, out, in, s, err);
	return r ? r : out;
}

static int bad_graph_or_tensor(const struct ipu_graph *g, int in, const char *op, struct ipu_error *err)
{
	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", op);
	if (!ipu__graph_tensor(g, in))
		return ipu__err(err, -EINVAL, "%s: no tensor %d", op, in);
	return 0;
}

IPU_API int ipu_reshape(struct ipu_graph *g, int in, unsigned rank, const uint32_t *shape, const char *name,
			struct ipu_error *err)
{
	const struct ipu__tensor *t;
	char si[96], so[96];
	uint64_t n = 1;
	int out, r;

	if ((r = bad_graph_or_tensor(g, in, "ipu_reshape", err)))
		return r;
	t = ipu__graph_tensor(g, in);
	if (rank > IPU_MAX_RANK || (rank && !shape))
		return ipu__err(err, -EINVAL, "ipu_reshape '%s': rank %u (at most %d) or no shape",
				name ? name : "", rank, IPU_MAX_RANK);
	for (unsigned i = 0; i < rank; i++)
		n *= shape[i] ? shape[i] : 0;
	if (n != t->elements)
		return ipu__err(err, -EINVAL, "ipu_reshape '%s': tensor '%s' %s has %llu elements, shape %s has %llu",
				name ? name : "", t->name, ipu__shape_str(si, sizeof(si), t->rank, t->shape),
				(unsigned long long)t->elements, ipu__shape_str(so, sizeof(so), rank, shape),
				(unsigned long long)n);
	out = view_tensor(g, in, name, rank, shape, 1, "ipu_reshape", err);
	if (out < 0)
		return out;
	r = map_range(g, out, 0, in, 0, n, err);	/* the same elements in the same order */
	return r ? r : out;
}

IPU_API int ipu_slice_dims(struct ipu_graph *g, int in, const uint32_t *begin, const uint32_t *end,
			   const char *name, struct ipu_error *err)
{
	const struct ipu__tensor *t;
	struct strided s;
	int r;

	if ((r = bad_graph_or_tensor(g, in, "ipu_slice_dims", err)))
		return r;
	t = ipu__graph_tensor(g, in);
	if (t->rank && (!begin || !end))
		return ipu__err(err, -EINVAL, "ipu_slice_dims '%s': begin or end is NULL", name ? name : "");
	memset(&s, 0, sizeof(s));
	s.rank = t->rank;
	strides_of(t->rank, t->shape, s.stride);
	for (unsigned d = 0; d < t->rank; d++) {
		if (begin[d] > end[d] || end[d] > t->shape[d])	/* begin == end: numpy's empty slice */
			return ipu__err(err, -EINVAL, "ipu_slice_dims '%s': dimension %u of tensor '%s' is %u, "
					"[%u, %u) is not a range inside it", name ? name : "", d, t->name,
					t->shape[d], begin[d], end[d]);
		s.shape[d] = end[d] - begin[d];
		s.base += begin[d] * s.stride[d];
	}
	return strided_view(g, in, &s, name, "ipu_slice_dims", err);
}

/* 0 when perm is a permutation of 0 .. rank - 1, else -EINVAL naming the fault */
static int check_perm(const struct ipu__tensor *t, const unsigned *perm, const char *name, struct ipu_error *err)
{
	unsigned seen = 0;

	if (t->rank && !perm)
		return ipu__err(err, -EINVAL, "ipu_transpose '%s': perm is NULL", name ? name : "");
	for (unsigned d = 0; d < t->rank; d++) {
		if (perm[d] >= t->rank)
			return ipu__err(err, -EINVAL, "ipu_transpose '%s': perm[%u] = %u is not a dimension of "
					"tensor '%s' (rank %u)", name ? name : "", d, perm[d], t->name, t->rank);
		if (seen & (1u << perm[d]))
			return ipu__err(err, -EINVAL, "ipu_transpose '%s': perm names dimension %u twice "
					"(a permutation of 0..%u is needed)", name ? name : "", perm[d], t->rank - 1);
		seen |= 1u << perm[d];
	}
	return 0;
}

/* the view of t's dims in order perm (free: no data moves) */
static void permuted(const struct ipu__tensor *t, unsigned rank, const unsigned *perm, struct strided *s)
{
	uint64_t st[IPU_MAX_RANK];

	memset(s, 0, sizeof(*s));
	strides_of(t->rank, t->shape, st);
	s->rank = rank;
	for (unsigned d = 0; d < rank; d++) {
		s->shape[d] = t->shape[perm[d]];
		s->stride[d] = st[perm[d]];
	}
}

/* does order (input dims) keep the input's element order? (size-1 dims do not count) */
static int keeps_order(const struct ipu__tensor *t, unsigned rank, const unsigned *order)
{
	int last = -1;

	for (unsigned d = 0; d < rank; d++) {
		if (t->shape[order[d]] == 1)
			continue;
		if ((int)order[d] < last)
			return 0;
		last = (int)order[d];
	}
	return 1;
}

/* the last dimension of size > 1 in order (input dims), or -1 */
static int last_moving(const struct ipu__tensor *t, unsigned rank, const unsigned *order)
{
	for (unsigned d = rank; d-- > 0;)
		if (t->shape[order[d]] > 1)
			return (int)d;
	return -1;
}

/*
 * Y [batch][C][R] = the transpose of each [R][C] matrix of v ([batch][R][C]
 * in element order): Y's rows spread over the tiles, each tile gathering
 * the columns of v it needs, then transposing them locally. 0 or errno.
 */
static int transpose_rows(struct ipu_graph *g, int seq, int v, int y, uint64_t R, uint64_t C, const char *name,
			  struct ipu_error *err)
{
	uint64_t rows = ipu__graph_tensor(g, y)->elements / R, tiles = ipu_graph_tiles(g);
	uint64_t per = (rows + tiles - 1) / tiles;
	char buf[200];
	int ex = -1, cs = -1, r = 0;

	if (per * R < 256)
		per = (256 + R - 1) / R;	/* vertices worth their overhead */
	snprintf(buf, sizeof(buf), "%s/transpose", name);
	for (uint64_t y0 = 0, tile = 0; y0 < rows && !r; y0 += per, tile++) {
		uint64_t y1 = y0 + per < rows ? y0 + per : rows;

		if ((r = ipu_graph_map(g, y, y0 * R, (y1 - y0) * R, (unsigned)tile, err)))
			return r;
		/* one block per matrix the tile's rows of y fall in */
		for (uint64_t q = y0; q < y1 && !r;) {
			uint64_t b = q / C, c0 = q % C, c1 = (y1 - b * C) < C ? y1 - b * C : C;
			long off = ipu__piece_off(g, y, q * R, (c1 - c0) * R, "ipu_transpose", err);

			if (off < 0)
				return (int)off;
			r = ipu__transpose_block(g, &ex, &cs, buf, v, C, b * R, b * R + R, c0, c1, (unsigned)tile,
						 (uint32_t)off, -1, err);
			q = b * C + c1;
		}
	}
	if (!r && ex >= 0)
		r = append(g, seq, ipu_prog_exchange(g, ex, err), err);
	if (!r && cs >= 0)
		r = append(g, seq, ipu_prog_execute(g, cs, err), err);
	return r;
}

int ipu__transpose_block(struct ipu_graph *g, int *ex, int *cs, const char *name, int t, uint64_t cols,
			 uint64_t r0, uint64_t r1, uint64_t c0, uint64_t c1, unsigned tile, uint32_t dst,
			 long scratch, struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);
	unsigned dtype = x->dtype, es = ipu_dtype_size(dtype);
	uint64_t R = r1 - r0, C = c1 - c0;
	long buf = dst;
	int r = 0;

	if (*ex < 0 && (*ex = ipu_graph_add_exchange(g, name, err)) < 0)
		return *ex;
	if (R > 1 && C > 1 && (buf = scratch) < 0 && (buf = ipu__tile_alloc(g, tile, R * C * es, 8, name, err)) < 0)
		return (int)buf;
	for (uint64_t rr = r0; rr < r1 && !r; rr++)
		r = ipu__gather_to(g, *ex, t, rr * cols + c0, C, tile, (uint32_t)(buf + (rr - r0) * C * es), err);
	if (r || buf == dst)
		return r;
	if (*cs < 0 && (*cs = ipu_graph_add_compute_set(g, name, err)) < 0)
		return *cs;
	{
		struct ipu__rawfield f[2] = { { (uint32_t)buf, (uint32_t)(R * C), (uint8_t)dtype, -1, 0 },
					      { dst, (uint32_t)(R * C), (uint8_t)dtype, -1, 0 } };
		uint32_t prm[2] = { (uint32_t)R, (uint32_t)C };

		r = ipu__add_vertex_raw(g, *cs, IPUE_CODELET_TRANSPOSE, tile, f, 2, prm, 2, err);
	}
	return r < 0 ? r : 0;
}

/*
 * The transpose that moves the innermost dimension: v = in seen with the
 * dims in order B + [j, i] (free), Y = [B][i][j] transposed by
 * transpose_rows(), out = Y with the dims in perm's order (free). Output
 * id or negative errno.
 */
static int transpose_copy(struct ipu_graph *g, int seq, int in, const unsigned *perm, int dl, const char *name,
			  struct ipu_error *err)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, in);
	unsigned rank = t->rank, vo[IPU_MAX_RANK], yo[IPU_MAX_RANK], p2[IPU_MAX_RANK], nb = 0;
	unsigned j = perm[dl], i = (unsigned)last_moving(t, rank, ident);
	uint32_t yshape[IPU_MAX_RANK], R = t->shape[j], C = t->shape[i];
	struct ipu__tensor ty = { 0 };
	char nbuf[200];
	struct strided s;
	int v = in, y, r;

	for (unsigned d = 0; d < rank; d++)
		if (perm[d] != i && perm[d] != j)
			vo[nb] = yo[nb] = perm[d], nb++;
	vo[nb] = j, vo[nb + 1] = i, yo[nb] = i, yo[nb + 1] = j;
	for (unsigned d = 0; d < rank; d++) {
		yshape[d] = t->shape[yo[d]];
		for (unsigned k = 0; k < rank; k++)
			if (yo[k] == perm[d])
				p2[d] = k;
	}
	if (!keeps_order(t, rank, vo)) {
		permuted(t, rank, vo, &s);
		snprintf(nbuf, sizeof(nbuf), "%s/rows", name);
		if ((v = strided_view(g, in, &s, nbuf, "ipu_transpose", err)) < 0)
			return v;
	}
	t = ipu__graph_tensor(g, in);
	ty.rank = (uint8_t)rank;	/* Y's shape, for keeps_order() */
	memcpy(ty.shape, yshape, sizeof(yshape));
	if (keeps_order(&ty, rank, p2)) {
		/* Y in the output's element order is the output itself */
		for (unsigned d = 0; d < rank; d++)
			yshape[d] = t->shape[perm[d]];
		if ((y = ipu_graph_add_tensor(g, name, t->dtype, rank, yshape, err)) < 0)
			return y;
		r = transpose_rows(g, seq, v, y, R, C, name, err);
		return r ? r : y;
	}
	snprintf(nbuf, sizeof(nbuf), "%s/transposed", name);
	if ((y = ipu_graph_add_tensor(g, nbuf, t->dtype, rank, yshape, err)) < 0)
		return y;
	if ((r = transpose_rows(g, seq, v, y, R, C, name, err)))
		return r;
	permuted(ipu__graph_tensor(g, y), rank, p2, &s);
	return strided_view(g, y, &s, name, "ipu_transpose", err);
}

IPU_API int ipu_transpose(struct ipu_graph *g, int seq, int in, const unsigned *perm, const char *name,
			  struct ipu_error *err)
{
	const struct ipu__tensor *t;
	struct strided s;
	int r, dl, il;

	if ((r = bad_graph_or_tensor(g, in, "ipu_transpose", err)))
		return r;
	t = ipu__graph_tensor(g, in);
	if ((r = check_perm(t, perm, name, err)) || (r = ipu__check_op_input(g, in, name, "ipu_transpose", "input", err)))
		return r;
	dl = last_moving(t, t->rank, perm);
	il = last_moving(t, t->rank, ident);
	if (dl < 0 || (int)perm[dl] == il) {
		permuted(t, t->rank, perm, &s);
		return strided_view(g, in, &s, name, "ipu_transpose", err);
	}
	return transpose_copy(g, seq, in, perm, dl, name, err);
}

/* 0 when in[0..n) can be concatenated along axis, else -EINVAL naming the fault */
static int check_concat(const struct ipu_graph *g, const int *in, unsigned n, unsigned axis, const char *name,
			uint32_t *total, struct ipu_error *err)
{
	const struct ipu__tensor *t0, *t;
	char s0[96], s1[96];
	uint64_t sum = 0;
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "ipu_concat: graph is NULL");
	if (!in || !n)
		return ipu__err(err, -EINVAL, "ipu_concat '%s': no inputs", name ? name : "");
	for (unsigned k = 0; k < n; k++)
		if ((r = ipu__check_op_input(g, in[k], name, "ipu_concat", "input", err)))
			return r;
	t0 = ipu__graph_tensor(g, in[0]);
	if (axis >= t0->rank)
		return ipu__err(err, -EINVAL, "ipu_concat '%s': axis %u is not a dimension of tensor '%s' %s",
				name, axis, t0->name, ipu__shape_str(s0, sizeof(s0), t0->rank, t0->shape));
	for (unsigned k = 0; k < n; k++) {
		t = ipu__graph_tensor(g, in[k]);
		if (t->dtype != t0->dtype)
			return ipu__err(err, -EINVAL, "ipu_concat '%s': tensor '%s' is %s, tensor '%s' is %s", name,
					t->name, ipu_dtype_name(t->dtype), t0->name, ipu_dtype_name(t0->dtype));
		for (unsigned d = 0; d < t0->rank; d++)
			if (t->rank != t0->rank || (d != axis && t->shape[d] != t0->shape[d]))
				return ipu__err(err, -EINVAL, "ipu_concat '%s': tensor '%s' %s does not match tensor "
						"'%s' %s outside axis %u", name, t->name,
						ipu__shape_str(s1, sizeof(s1), t->rank, t->shape), t0->name,
						ipu__shape_str(s0, sizeof(s0), t0->rank, t0->shape), axis);
		sum += t->shape[axis];
	}
	if (sum > UINT32_MAX)
		return ipu__err(err, -EINVAL, "ipu_concat '%s': %llu along axis %u is too many", name,
				(unsigned long long)sum, axis);
	*total = (uint32_t)sum;
	return 0;
}

IPU_API int ipu_concat(struct ipu_graph *g, const int *in, unsigned n, unsigned axis, const char *name,
		       struct ipu_error *err)
{
	uint32_t shape[IPU_MAX_RANK], total = 0;
	uint64_t inner = 1, outer = 1;
	unsigned rank;
	int out, r;

	if ((r = check_concat(g, in, n, axis, name, &total, err)))
		return r;
	rank = ipu__graph_tensor(g, in[0])->rank;
	memcpy(shape, ipu__graph_tensor(g, in[0])->shape, sizeof(shape));
	shape[axis] = total;
	for (unsigned d = 0; d < rank; d++)
		if (d < axis)
			outer *= shape[d];
		else if (d > axis)
			inner *= shape[d];
	if ((out = view_tensor(g, in[0], name, rank, shape, 1, "ipu_concat", err)) < 0)
		return out;
	/* output row q: input k's row q in turn, each one run */
	for (uint64_t q = 0, o = 0; q < outer; q++)
		for (unsigned k = 0; k < n; k++) {
			uint64_t len = ipu__graph_tensor(g, in[k])->shape[axis] * inner;

			if ((r = map_range(g, out, o, in[k], q * len, len, err)))
				return r;
			o += len;
		}
	return out;
}

/* 0 when in's shape broadcasts to (rank, shape) by numpy's rules; s: where out's elements are in in */
static int check_broadcast(const struct ipu__tensor *t, unsigned rank, const uint32_t *shape, const char *name,
			   struct strided *s, struct ipu_error *err)
{
	uint64_t st[IPU_MAX_RANK];
	char si[96], so[96];

	if (rank > IPU_MAX_RANK || (rank && !shape))
		return ipu__err(err, -EINVAL, "ipu_broadcast '%s': rank %u (at most %d) or no shape",
				name ? name : "", rank, IPU_MAX_RANK);
	if (rank < t->rank)
		return ipu__err(err, -EINVAL, "ipu_broadcast '%s': tensor '%s' %s has a higher rank than %s",
				name ? name : "", t->name, ipu__shape_str(si, sizeof(si), t->rank, t->shape),
				ipu__shape_str(so, sizeof(so), rank, shape));
	memset(s, 0, sizeof(*s));
	s->rank = rank;
	strides_of(t->rank, t->shape, st);
	for (unsigned d = 0; d < rank; d++) {
		unsigned j = d + t->rank - rank;	/* in's dimension, when d >= rank - t->rank */
		uint32_t di = d + t->rank >= rank ? t->shape[j] : 1;

		if (di != 1 && di != shape[d])	/* numpy: 1 broadcasts to any size, 0 included */
			return ipu__err(err, -EINVAL, "ipu_broadcast '%s': tensor '%s' %s does not broadcast to %s: "
					"dimension %u is %u, must be 1 or %u (numpy rules, shapes right-aligned)",
					name ? name : "", t->name, ipu__shape_str(si, sizeof(si), t->rank, t->shape),
					ipu__shape_str(so, sizeof(so), rank, shape), d, di, shape[d]);
		s->shape[d] = shape[d];
		s->stride[d] = di == 1 ? 0 : st[j];
	}
	return 0;
}

IPU_API int ipu_broadcast(struct ipu_graph *g, int seq, int in, unsigned rank, const uint32_t *shape,
			  const char *name, struct ipu_error *err)
{
	const struct ipu__tensor *t;
	struct strided s;
	uint64_t L;
	char buf[200];
	int out, ex, r;

	if ((r = bad_graph_or_tensor(g, in, "ipu_broadcast", err)))
		return r;
	if ((r = check_broadcast(ipu__graph_tensor(g, in), rank, shape, name, &s, err)))
		return r;
	if ((out = view_tensor(g, in, name, rank, shape, 0, "ipu_broadcast", err)) < 0 || ipu__empty(g, out))
		return out;	/* an empty result: nothing to copy */
	if ((r = ipu_graph_map_linear(g, out, 1, err)))
		return r;
	snprintf(buf, sizeof(buf), "%s/broadcast", name);
	if ((ex = ipu_graph_add_exchange(g, buf, err)) < 0)
		return ex;
	L = run_length(&s);
	t = ipu__graph_tensor(g, out);
	/* each interval of out, run by run (a run: elements contiguous in in) */
	for (size_t i = 0; i < t->niv; i++) {
		struct ipu__iv v = ipu__graph_tensor(g, out)->iv[i];
		unsigned es = ipu_dtype_size(t->dtype);

		for (uint64_t e = v.begin, n; e < v.begin + v.count; e += n) {
			n = L - e % L;
			if (n > v.begin + v.count - e)
				n = v.begin + v.count - e;
			r = ipu__gather_to(g, ex, in, strided_index(&s, e), n, v.tile,
					   (uint32_t)(v.off + (e - v.begin) * es), err);
			if (r)
				return r;
		}
	}
	r = append(g, seq, ipu_prog_exchange(g, ex, err), err);
	return r ? r : out;
}
