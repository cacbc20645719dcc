// SPDX-License-Identifier: MIT
/*
 * popops-level operations: cast, reductions along any axes, comparisons,
 * select and argmax. They reuse partition.c's elementwise plan (binary ops
 * with numpy broadcasting) and its row reduction; cast and argmax add
 * their own vertices. See docs/builder.md, "popops-level ops".
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"

_Static_assert((int)IPU_CMP_EQ == (int)IPUE_BOP_EQ && (int)IPU_CMP_GE == (int)IPUE_BOP_GE, "compare ops");

#define WORKERS 6
#define MIN_CHUNK 64		/* elements: smaller pieces stay one vertex */

static int oom(const char *op, struct ipu_error *err)
{
	return ipu__err(err, -ENOMEM, "%s: out of memory", op);
}

/* "<base>/<suffix>" into buf */
static const char *sub(char *buf, size_t n, const char *base, const char *suffix)
{
	snprintf(buf, n, "%s/%s", base, suffix);
	return buf;
}

static int append(struct ipu_graph *g, int seq, int node, struct ipu_error *err)
{
	return node < 0 ? node : ipu_prog_append(g, seq, node, err);
}

static struct ipu__rawfield rawf(uint32_t off, uint64_t count, unsigned dtype, int tensor, uint64_t begin)
{
	struct ipu__rawfield f = { off, (uint32_t)count, (uint8_t)dtype, tensor, begin };

	return f;
}

/* ------------------------------------------------------------------------ */
/* cast                                                                     */

IPU_API int ipu_cast(struct ipu_graph *g, int seq, int in, unsigned dtype, const char *name,
		     struct ipu_error *err)
{
	const struct ipu__tensor *x;
	struct ipu__iv *iv;
	size_t niv;
	char buf[200];
	int out, cs, r = 0;

	if ((r = ipu__check_op_input(g, in, name, "ipu_cast", "input", err)))
		return r;
	if (dtype != IPU_DTYPE_F32 && dtype != IPU_DTYPE_F16 && dtype != IPU_DTYPE_I32)
		return ipu__err(err, -EINVAL, "ipu_cast '%s': dtype %u is not f32, f16 or i32", name, dtype);
	if ((out = ipu__output_like(g, name, in, dtype, err)) < 0)
		return out;
	if ((cs = ipu_graph_add_compute_set(g, sub(buf, sizeof(buf), name, "cast"), err)) < 0)
		return cs;
	x = ipu__graph_tensor(g, in);
	niv = x->niv;
	if (!(iv = malloc(niv * sizeof(*iv))))
		return oom("ipu_cast", err);
	memcpy(iv, x->iv, niv * sizeof(*iv));	/* adding vertices leaves tensors alone, but be safe */
	for (size_t i = 0; i < niv && !r; i++) {
		unsigned ies = ipu_dtype_size(x->dtype), ndt = x->dtype;
		uint64_t c = iv[i].count / WORKERS;

		/* up to WORKERS vertices per interval, none below MIN_CHUNK elements */
		c = c < MIN_CHUNK ? MIN_CHUNK : (c + 7) & ~(uint64_t)7;
		for (uint64_t b = 0; b < iv[i].count && !r; b += c) {
			uint64_t n = iv[i].count - b < c ? iv[i].count - b : c, e = iv[i].begin + b;
			struct ipu__rawfield f[2];
			long oo = ipu__piece_off(g, out, e, n, "ipu_cast", err);

			if (oo < 0) {
				r = (int)oo;
				break;
			}
			f[0] = rawf(iv[i].off + (uint32_t)(b * ies), n, ndt, in, e);
			f[1] = rawf((uint32_t)oo, n, dtype, out, e);
			r = ipu__add_vertex_raw(g, cs, IPUE_CODELET_CAST, iv[i].tile, f, 2, NULL, 0, err);
			r = r < 0 ? r : 0;
		}
		x = ipu__graph_tensor(g, in);
	}
	free(iv);
	if (r)
		return r;
	if ((r = append(g, seq, ipu_prog_execute(g, cs, err), err)) < 0)
		return r;
	return out;
}

/* ------------------------------------------------------------------------ */
/* comparisons and select                                                   */

IPU_API int ipu_compare(struct ipu_graph *g, int seq, unsigned op, int a, int b, const char *name,
			struct ipu_error *err)
{
	struct ipu__binspec sp = { "ipu_compare", "compare", IPUE_CODELET_BINARY(op), 0, IPU_DTYPE_I32, -1 };
	int r;

	if ((r = ipu__check_op_input(g, a, name, "ipu_compare", "a", err)))
		return r;
	if (op < IPU_CMP_EQ || op > IPU_CMP_GE)
		return ipu__err(err, -EINVAL, "ipu_compare '%s': unknown op %u", name, op);
	return ipu__binary_op(g, seq, &sp, a, b, 0, NULL, name, err);
}

IPU_API int ipu_select(struct ipu_graph *g, int seq, int cond, int a, int b, const char *name,
		       struct ipu_error *err)
{
	struct ipu__binspec sp = { "ipu_select", "select", IPUE_CODELET_SELECT, 0, 0, cond };
	const struct ipu__tensor *tc, *ta;
	int r;

	if ((r = ipu__check_op_input(g, a, name, "ipu_select", "a", err)) ||
	    (r = ipu__check_op_input(g, cond, name, "ipu_select", "cond", err)))
		return r;
	tc = ipu__graph_tensor(g, cond);
	ta = ipu__graph_tensor(g, a);
	if (tc->dtype != IPU_DTYPE_I32)
		return ipu__err(err, -EINVAL, "ipu_select '%s': cond '%s' is %s, must be i32 (0: b, else a)",
				name, tc->name, ipu_dtype_name(tc->dtype));
	if (tc->rank != ta->rank || memcmp(tc->shape, ta->shape, ta->rank * sizeof(*ta->shape)))
		return ipu__err(err, -EINVAL, "ipu_select '%s': cond '%s' must have the shape of a '%s' "
				"(only b is broadcast)", name, tc->name, ta->name);
	return ipu__binary_op(g, seq, &sp, a, b, 0, NULL, name, err);
}

/* ------------------------------------------------------------------------ */
/* reductions along axes                                                    */

/*
 * The axes of a reduction of a rank-@rank tensor as a mask (negative axes
 * count from the end, as numpy's). 0 or -EINVAL naming the axis.
 */
static int axes_mask(const int *axes, unsigned naxes, unsigned rank, const char *name, const char *tname,
		     unsigned *mask, struct ipu_error *err)
{
	*mask = 0;
	if (naxes && !axes)
		return ipu__err(err, -EINVAL, "ipu_reduce_axes '%s': %u axes but axes is NULL", name, naxes);
	for (unsigned i = 0; i < naxes; i++) {
		int ax = axes[i] < 0 ? axes[i] + (int)rank : axes[i];

		if (ax < 0 || ax >= (int)rank)
			return ipu__err(err, -EINVAL, "ipu_reduce_axes '%s': axis %d is out of range for "
					"tensor '%s' of rank %u", name, axes[i], tname, rank);
		if (*mask & (1u << ax))
			return ipu__err(err, -EINVAL, "ipu_reduce_axes '%s': axis %d is given twice", name,
					axes[i]);
		*mask |= 1u << ax;
	}
	return 0;
}

/*
 * The temporary NAME/moved: @in's elements with the kept dimensions first
 * and the reduced ones last (order kept within each), spread evenly over
 * the tiles; filled by exchange NAME/move, appended to @seq.
 * Copies go by runs of consecutive source elements. Id or negative errno.
 */
static int move_reduced_last(struct ipu_graph *g, int seq, int in, unsigned mask, uint64_t L,
			     const char *name, struct ipu_error *err)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, in);
	unsigned rank = t->rank, perm[IPU_MAX_RANK], k = 0;
	uint32_t shape[IPU_MAX_RANK], coord[IPU_MAX_RANK] = { 0 };
	uint64_t stride[IPU_MAX_RANK], n = t->elements, src = 0, run0 = 0, rs = 0;
	char buf[200];
	int tmp, ex, r;

	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < rank; i++)
			if (!!(mask & (1u << i)) == (int)pass)
				perm[k++] = i;
	stride[rank - 1] = 1;
	for (unsigned i = rank - 1; i-- > 0;)
		stride[i] = stride[i + 1] * t->shape[i + 1];
	for (unsigned i = 0; i < rank; i++)
		shape[i] = t->shape[perm[i]];
	tmp = ipu_graph_add_tensor(g, sub(buf, sizeof(buf), name, "moved"), t->dtype, rank, shape, err);
	if (tmp < 0)
		return tmp;
	/* whole rows per tile when there are enough rows to go round, else rows cut evenly (two-stage sums) */
	if ((r = ipu_graph_map_linear(g, tmp, n / L >= ipu_graph_tiles(g) ? L : 1, err)))
		return r;
	if ((ex = ipu_graph_add_exchange(g, sub(buf, sizeof(buf), name, "move"), err)) < 0)
		return ex;
	/* an odometer over the moved order; src follows it in the input */
	for (uint64_t e = 0; e < n; e++) {
		if (e && src != rs + (e - run0)) {
			r = ipu_graph_exchange_copy(g, ex, (struct ipu_slice){ in, rs, e - run0 },
						    (struct ipu_slice){ tmp, run0, e - run0 }, err);
			if (r)
				return r;
			run0 = e;
			rs = src;
		}
		for (unsigned i = rank; i-- > 0;) {
			src += stride[perm[i]];
			if (++coord[i] < shape[i])
				break;
			src -= stride[perm[i]] * shape[i];
			coord[i] = 0;
		}
	}
	r = ipu_graph_exchange_copy(g, ex, (struct ipu_slice){ in, rs, n - run0 },
				    (struct ipu_slice){ tmp, run0, n - run0 }, err);
	if (r)
		return r;
	if ((r = append(g, seq, ipu_prog_exchange(g, ex, err), err)) < 0)
		return r;
	return tmp;
}

IPU_API int ipu_reduce_axes(struct ipu_graph *g, int seq, unsigned op, int in, const int *axes,
			    unsigned naxes, const char *name, struct ipu_error *err)
{
	const struct ipu__tensor *t;
	uint32_t oshape[IPU_MAX_RANK];
	unsigned mask, orank = 0;
	uint64_t L = 1;
	int seen_reduced = 0, kept_after = 0, src = in, r;

	if ((r = ipu__check_op_input(g, in, name, "ipu_reduce_axes", "input", err)))
		return r;
	if (op < IPU_REDUCE_SUM || op > IPU_REDUCE_MIN)
		return ipu__err(err, -EINVAL, "ipu_reduce_axes '%s': unknown op %u", name, op);
	t = ipu__graph_tensor(g, in);
	if ((r = axes_mask(axes, naxes, t->rank, name, t->name, &mask, err)))
		return r;
	for (unsigned i = 0; i < t->rank; i++) {
		if (mask & (1u << i)) {
			L *= t->shape[i];
			seen_reduced |= t->shape[i] > 1;
		} else {
			oshape[orank++] = t->shape[i];
			/* a kept dimension after a reduced one (dims of 1 do not count) */
			kept_after |= t->shape[i] > 1 && seen_reduced;
		}
	}
	if (kept_after) {
		/* not the trailing dimensions: rows need rearranging into place first */
		if ((src = move_reduced_last(g, seq, in, mask, L, name, err)) < 0)
			return src;
	}
	return ipu__reduce_rows_as(g, seq, op, src, L, orank, oshape, name, err);
}

/* ------------------------------------------------------------------------ */
/* argmax                                                                   */

/* an argmax being built: rows of L elements of in, out[r] its index */
struct argmax {
	int in, out, cs, ex;
	uint64_t L, R;
	unsigned dtype;
	const char *name;
	char exname[200];
};

/* one ArgMax vertex on tile over rows [r0, r0 + nr), in at ioff there; maps them in out */
static int argmax_vertex(struct ipu_graph *g, struct argmax *x, unsigned tile, uint64_t r0, uint64_t nr,
			 uint32_t ioff, int itensor, struct ipu_error *err)
{
	struct ipu__rawfield f[2];
	uint32_t prm = (uint32_t)x->L;
	long oo;
	int r;

	if ((r = ipu_graph_map(g, x->out, r0, nr, tile, err)))
		return r;
	if ((oo = ipu__piece_off(g, x->out, r0, nr, "ipu_argmax", err)) < 0)
		return (int)oo;
	f[0] = rawf(ioff, nr * x->L, x->dtype, itensor, r0 * x->L);
	f[1] = rawf((uint32_t)oo, nr, IPU_DTYPE_I32, x->out, r0);
	r = ipu__add_vertex_raw(g, x->cs, IPUE_CODELET_ARGMAX, tile, f, 2, &prm, 1, err);
	return r < 0 ? r : 0;
}

/*
 * Row rr, which lies in several pieces: gathered on the tile of its first
 * element (exchange NAME/gather), one vertex there. 0 or negative errno.
 */
static int argmax_split_row(struct ipu_graph *g, struct argmax *x, uint64_t rr, struct ipu_error *err)
{
	int tile = ipu_graph_tile_of(g, x->in, rr * x->L);
	long off;

	if (tile < 0)
		return ipu__err(err, -EINVAL, "ipu_argmax: internal layout error");
	off = ipu__local_copy(g, &x->ex, x->exname, x->in, rr * x->L, x->L, (unsigned)tile, err);
	if (off < 0)
		return (int)off;
	return argmax_vertex(g, x, (unsigned)tile, rr, 1, (uint32_t)off, x->in, err);
}

/*
 * The vertices: the whole rows of each interval of in in up to WORKERS
 * vertices reading in place, then each row cut by intervals on its own.
 */
static int argmax_vertices(struct ipu_graph *g, struct argmax *x, struct ipu_error *err)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, x->in);
	unsigned es = ipu_dtype_size(x->dtype);
	unsigned char *done = calloc(x->R, 1);
	struct ipu__iv *iv = malloc(t->niv * sizeof(*iv));
	size_t niv = t->niv;
	int r = 0;

	if (!done || !iv) {
		free(done);
		free(iv);
		return oom("ipu_argmax", err);
	}
	memcpy(iv, t->iv, niv * sizeof(*iv));
	for (size_t i = 0; i < niv && !r; i++) {
		uint64_t r0 = (iv[i].begin + x->L - 1) / x->L, r1 = (iv[i].begin + iv[i].count) / x->L, c;

		if (r1 <= r0)
			continue;
		c = (r1 - r0 + WORKERS - 1) / WORKERS;
		if (c * x->L < MIN_CHUNK)
			c = (MIN_CHUNK + x->L - 1) / x->L;
		for (uint64_t b = r0; b < r1 && !r; b += c) {
			uint64_t nr = r1 - b < c ? r1 - b : c;

			r = argmax_vertex(g, x, iv[i].tile, b, nr,
					  iv[i].off + (uint32_t)((b * x->L - iv[i].begin) * es), x->in, err);
			memset(done + b, 1, nr);
		}
	}
	for (uint64_t rr = 0; rr < x->R && !r; rr++)
		if (!done[rr])
			r = argmax_split_row(g, x, rr, err);
	free(done);
	free(iv);
	return r;
}

IPU_API int ipu_argmax(struct ipu_graph *g, int seq, int in, const char *name, struct ipu_error *err)
{
	struct argmax x = { .in = in, .ex = -1, .name = name };
	const struct ipu__tensor *t;
	uint32_t shape[IPU_MAX_RANK];
	char buf[200];
	int r;

	if ((r = ipu__check_op_input(g, in, name, "ipu_argmax", "input", err)))
		return r;
	t = ipu__graph_tensor(g, in);
	if (t->rank < 1)
		return ipu__err(err, -EINVAL, "ipu_argmax '%s': tensor '%s' has rank 0, needs a dimension to "
				"search", name, t->name);
	x.L = t->shape[t->rank - 1];
	x.R = t->elements / x.L;
	x.dtype = t->dtype;
	if (x.L > UINT32_MAX)
		return ipu__err(err, -EINVAL, "ipu_argmax '%s': rows of tensor '%s' are too long", name, t->name);
	memcpy(shape, t->shape, sizeof(shape));	/* adding the output may move t */
	if ((x.out = ipu_graph_add_tensor(g, name, IPU_DTYPE_I32, t->rank - 1u, shape, err)) < 0)
		return x.out;
	snprintf(x.exname, sizeof(x.exname), "%s/gather", name);
	if ((x.cs = ipu_graph_add_compute_set(g, sub(buf, sizeof(buf), name, "argmax"), err)) < 0)
		return x.cs;
	if ((r = argmax_vertices(g, &x, err)))
		return r;
	if (x.ex >= 0 && (r = append(g, seq, ipu_prog_exchange(g, x.ex, err), err)) < 0)
		return r;
	if ((r = append(g, seq, ipu_prog_execute(g, x.cs, err), err)) < 0)
		return r;
	return x.out;
}
