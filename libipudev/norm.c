// SPDX-License-Identifier: MIT
/*
 * popnn-level normalisations: batch norm (training and inference forms)
 * and layer norm, forward and backward (like popnn::bn and popnn::ln).
 * Composed from the partitioned ops (ipu_reduce_axes, broadcast binary
 * ops, sqrt); no codelet of their own. The variance is the mean of the
 * squared deviations from the mean (two passes), never E[x^2] - E[x]^2,
 * which cancels catastrophically when the mean is large. See
 * docs/builder.md, "Normalisation".
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"

/*
 * Where statistics and parameters live in x's shape: the statistics (mean,
 * inv_std) reduce x over saxes, and are seen as sb (x's rank, 1 on saxes)
 * to broadcast back; gamma and beta have shape pshape, are seen as pb (x's
 * rank) and their gradients reduce over paxes.
 */
struct norm_geom {
	const char *op;
	unsigned rank;
	uint32_t shape[IPU_MAX_RANK];
	int saxes[IPU_MAX_RANK], paxes[IPU_MAX_RANK];
	unsigned nsaxes, npaxes;
	uint32_t sb[IPU_MAX_RANK], pb[IPU_MAX_RANK];
	unsigned srank, prank;			/* own ranks of the statistics and parameters */
	uint32_t sshape[IPU_MAX_RANK], pshape[IPU_MAX_RANK];
	float count;				/* elements per statistic */
	int per_channel;			/* batch norm: statistics and parameters share a shape */
};

/* one composed op being built: its graph, sequence, base name and a name buffer */
struct norm_ctx {
	struct ipu_graph *g;
	int seq;
	const char *name;
	struct ipu_error *err;
	char buf[256];
};

static const char *sub(struct norm_ctx *c, const char *suffix)
{
	return ipu__sub_name(c->buf, sizeof(c->buf), c->name, suffix);
}

/* a op b, b seen as shape bs (rank of a); in place into a when suffix is NULL */
static int bin(struct norm_ctx *c, unsigned op, int a, int b, const struct norm_geom *ge, const uint32_t *bs,
	       const char *suffix)
{
	return ipu__binary_bcast(c->g, c->seq, op, a, b, bs ? ge->rank : 0, bs, suffix ? sub(c, suffix) : NULL,
				 c->err);
}

static int sum_over(struct norm_ctx *c, int in, const int *axes, unsigned naxes, const char *suffix)
{
	return ipu_reduce_axes(c->g, c->seq, IPU_REDUCE_SUM, in, axes, naxes, sub(c, suffix), c->err);
}

/* geometry of batch norm over x [N][C] or [N][C][H][W]; 0 or -EINVAL */
static int bn_geom(const struct ipu__tensor *x, const char *op, const char *name, struct norm_geom *ge,
		   struct ipu_error *err)
{
	memset(ge, 0, sizeof(*ge));
	ge->op = op;
	if (x->rank != 2 && x->rank != 4)
		return ipu__err(err, -EINVAL, "%s '%s': x '%s' has rank %u, must be [N][C] or [N][C][H][W]", op,
				name, x->name, x->rank);
	ge->rank = x->rank;
	memcpy(ge->shape, x->shape, x->rank * sizeof(x->shape[0]));
	ge->count = 1;
	for (unsigned i = 0; i < x->rank; i++) {
		ge->sb[i] = i == 1 ? x->shape[1] : 1;
		if (i != 1) {
			ge->saxes[ge->nsaxes++] = (int)i;
			ge->count *= (float)x->shape[i];
		}
	}
	memcpy(ge->pb, ge->sb, sizeof(ge->sb));
	memcpy(ge->paxes, ge->saxes, sizeof(ge->saxes));
	ge->npaxes = ge->nsaxes;
	ge->srank = ge->prank = 1;
	ge->sshape[0] = ge->pshape[0] = x->shape[1];
	ge->per_channel = 1;
	return 0;
}

/* geometry of layer norm over the last k dimensions of x; 0 or -EINVAL */
static int ln_geom(const struct ipu__tensor *x, unsigned k, const char *op, const char *name,
		   struct norm_geom *ge, struct ipu_error *err)
{
	unsigned lead;

	memset(ge, 0, sizeof(*ge));
	ge->op = op;
	if (k < 1 || k > x->rank)
		return ipu__err(err, -EINVAL, "%s '%s': normalising over the last %u dimensions of x '%s' of "
				"rank %u (needs 1 <= k <= rank)", op, name, k, x->name, x->rank);
	lead = x->rank - k;
	ge->rank = x->rank;
	memcpy(ge->shape, x->shape, x->rank * sizeof(x->shape[0]));
	ge->count = 1;
	for (unsigned i = 0; i < x->rank; i++) {
		if (i < lead) {
			ge->sb[i] = ge->sshape[ge->srank++] = x->shape[i];
			ge->pb[i] = 1;
			ge->paxes[ge->npaxes++] = (int)i;
		} else {
			ge->sb[i] = 1;
			ge->pb[i] = ge->pshape[ge->prank++] = x->shape[i];
			ge->saxes[ge->nsaxes++] = (int)i;
			ge->count *= (float)x->shape[i];
		}
	}
	return 0;
}

/* @t (role @what) an f32 tensor of rank/shape, fully mapped; 0 or -EINVAL naming it */
static int check_shaped(const struct ipu_graph *g, int t, unsigned rank, const uint32_t *shape, const char *op,
			const char *name, const char *what, struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);
	char want[96], got[96];

	if (!x)
		return ipu__err(err, -EINVAL, "%s '%s': no tensor %d (%s)", op, name, t, what);
	ipu__shape_str(want, sizeof(want), rank, shape);
	if (x->dtype != IPU_DTYPE_F32 || x->rank != rank || memcmp(x->shape, shape, rank * sizeof(*shape)))
		return ipu__err(err, -EINVAL, "%s '%s': %s '%s' is %s %s, must be f32 %s", op, name, what, x->name,
				ipu_dtype_name(x->dtype), ipu__shape_str(got, sizeof(got), x->rank, x->shape),
				want);
	if (x->mapped != x->elements)
		return ipu__err(err, -EINVAL, "%s '%s': %s '%s' is not fully mapped to tiles", op, name, what,
				x->name);
	return 0;
}

/* the input x of a norm: checked, f32; its tensor or NULL after an error in *r */
static const struct ipu__tensor *check_x(const struct ipu_graph *g, int x, const char *name, const char *op,
					 int *r, struct ipu_error *err)
{
	const struct ipu__tensor *t;

	if ((*r = ipu__check_op_input(g, x, name, op, "x", err)))
		return NULL;
	t = ipu__graph_tensor(g, x);
	if (t->dtype != IPU_DTYPE_F32) {
		*r = ipu__err(err, -EINVAL, "%s '%s': x '%s' is %s, must be f32", op, name, t->name,
			      ipu_dtype_name(t->dtype));
		return NULL;
	}
	return t;
}

static int check_eps(float eps, const char *op, const char *name, struct ipu_error *err)
{
	if (!(eps > 0) || !isfinite(eps))
		return ipu__err(err, -EINVAL, "%s '%s': epsilon %g must be finite and > 0", op, name, (double)eps);
	return 0;
}

/* gamma and beta (either may be -2: not checked) of the geometry's parameter shape */
static int check_params(const struct ipu_graph *g, const struct norm_geom *ge, int gamma, int beta,
			const char *name, struct ipu_error *err)
{
	int r;

	if ((r = check_shaped(g, gamma, ge->prank, ge->pshape, ge->op, name, "gamma", err)))
		return r;
	if (beta != -2 && (r = check_shaped(g, beta, ge->prank, ge->pshape, ge->op, name, "beta", err)))
		return r;
	return 0;
}

/* a tensor "<name>/<suffix>" like @like holding v everywhere (read-only: initial data) */
static int filled_like(struct norm_ctx *c, int like, float v, const char *suffix)
{
	const struct ipu__tensor *t;
	float *data;
	int out, r;

	if ((out = ipu__output_like(c->g, sub(c, suffix), like, 0, c->err)) < 0)
		return out;
	t = ipu__graph_tensor(c->g, out);
	if (!(data = malloc(t->elements * sizeof(*data))))
		return ipu__err(c->err, -ENOMEM, "%s: out of memory", c->name);
	for (uint64_t i = 0; i < t->elements; i++)
		data[i] = v;
	r = ipu_graph_set_initial(c->g, out, data, t->elements * sizeof(*data), c->err);
	free(data);
	return r < 0 ? r : out;
}

/*
 * The training forward: mean, inv_std = 1 / sqrt(var + eps) over the
 * statistics' axes, y = (x - mean) * inv_std * gamma + beta. Returns y.
 */
static int norm_forward(struct norm_ctx *c, const struct norm_geom *ge, int x, int gamma, int beta, float eps,
			int *mean, int *inv_std)
{
	int sum, count, m, y, sq, var, e, one, is, r;

	if ((sum = sum_over(c, x, ge->saxes, ge->nsaxes, "sum")) < 0)
		return sum;
	if ((count = ipu__constant_near(c->g, c->name, "count", ge->count, sum, c->err)) < 0)
		return count;
	if ((m = bin(c, IPU_OP_DIV, sum, count, ge, NULL, "mean")) < 0)
		return m;
	/* y holds the deviations first, then is scaled in place */
	if ((y = ipu__binary_bcast(c->g, c->seq, IPU_OP_SUB, x, m, ge->rank, ge->sb, c->name, c->err)) < 0)
		return y;
	if ((sq = ipu_binary(c->g, c->seq, IPU_OP_MUL, y, y, sub(c, "sq"), c->err)) < 0)
		return sq;
	if ((var = sum_over(c, sq, ge->saxes, ge->nsaxes, "var")) < 0)
		return var;
	if ((e = ipu__constant_near(c->g, c->name, "eps", eps, var, c->err)) < 0)
		return e;
	if ((r = bin(c, IPU_OP_DIV, var, count, ge, NULL, NULL)) < 0 ||
	    (r = bin(c, IPU_OP_ADD, var, e, ge, NULL, NULL)) < 0 ||
	    (r = ipu_unary(c->g, c->seq, IPU_OP_SQRT, var, NULL, c->err)) < 0)
		return r;
	if ((one = filled_like(c, var, 1.0f, "one")) < 0)
		return one;
	if ((is = bin(c, IPU_OP_DIV, one, var, ge, NULL, "inv_std")) < 0)
		return is;
	if (ge->per_channel) {
		/* one pass over y: scale = inv_std * gamma per channel */
		int sc = bin(c, IPU_OP_MUL, is, gamma, ge, NULL, "scale");

		if (sc < 0)
			return sc;
		if ((r = bin(c, IPU_OP_MUL, y, sc, ge, ge->sb, NULL)) < 0)
			return r;
	} else if ((r = bin(c, IPU_OP_MUL, y, is, ge, ge->sb, NULL)) < 0 ||
		   (r = bin(c, IPU_OP_MUL, y, gamma, ge, ge->pb, NULL)) < 0) {
		return r;
	}
	if ((r = bin(c, IPU_OP_ADD, y, beta, ge, ge->pb, NULL)) < 0)
		return r;
	*mean = m;
	*inv_std = is;
	return y;
}

/*
 * The backward: xhat = (x - mean) * inv_std, d_gamma = sum(dy * xhat),
 * d_beta = sum(dy) over the parameters' axes; with g = dy * gamma,
 * dx = inv_std * (g - mean(g) - xhat * mean(g * xhat)) over the
 * statistics' axes (for batch norm gamma is per statistic and factors out:
 * those means are d_beta / count and d_gamma / count). Returns dx.
 */
static int norm_backward(struct norm_ctx *c, const struct norm_geom *ge, int x, int dy, int mean, int inv_std,
			 int gamma, int *d_gamma, int *d_beta)
{
	int xh, p, dg, db, gg, s1, s2, count, m1, m2, dx, f, r;

	if ((xh = bin(c, IPU_OP_SUB, x, mean, ge, ge->sb, "xhat")) < 0 ||
	    (r = bin(c, IPU_OP_MUL, xh, inv_std, ge, ge->sb, NULL)) < 0)
		return xh < 0 ? xh : r;
	if ((p = ipu_binary(c->g, c->seq, IPU_OP_MUL, dy, xh, sub(c, "dy_xhat"), c->err)) < 0)
		return p;
	if ((dg = sum_over(c, p, ge->paxes, ge->npaxes, "d_gamma")) < 0)
		return dg;
	if ((db = sum_over(c, dy, ge->paxes, ge->npaxes, "d_beta")) < 0)
		return db;
	if (ge->per_channel) {
		gg = dy, s1 = db, s2 = dg;
	} else {
		if ((gg = bin(c, IPU_OP_MUL, dy, gamma, ge, ge->pb, "g")) < 0)
			return gg;
		/* p = dy * xhat becomes g * xhat, after d_gamma has read it */
		if ((r = bin(c, IPU_OP_MUL, p, gamma, ge, ge->pb, NULL)) < 0)
			return r;
		if ((s1 = sum_over(c, gg, ge->saxes, ge->nsaxes, "g_sum")) < 0)
			return s1;
		if ((s2 = sum_over(c, p, ge->saxes, ge->nsaxes, "g_xhat_sum")) < 0)
			return s2;
	}
	if ((count = ipu__constant_near(c->g, c->name, "count", ge->count, s1, c->err)) < 0)
		return count;
	if ((m1 = bin(c, IPU_OP_DIV, s1, count, ge, NULL, "g_mean")) < 0)
		return m1;
	if ((m2 = bin(c, IPU_OP_DIV, s2, count, ge, NULL, "g_xhat_mean")) < 0)
		return m2;
	if ((r = bin(c, IPU_OP_MUL, xh, m2, ge, ge->sb, NULL)) < 0 ||
	    (r = bin(c, IPU_OP_ADD, xh, m1, ge, ge->sb, NULL)) < 0)
		return r;
	if ((dx = ipu__binary_bcast(c->g, c->seq, IPU_OP_SUB, gg, xh, 0, NULL, c->name, c->err)) < 0)
		return dx;
	f = inv_std;
	if (ge->per_channel && (f = bin(c, IPU_OP_MUL, inv_std, gamma, ge, NULL, "scale")) < 0)
		return f;
	if ((r = bin(c, IPU_OP_MUL, dx, f, ge, ge->sb, NULL)) < 0)
		return r;
	*d_gamma = dg;
	*d_beta = db;
	return dx;
}

/* the outputs' pointers of an op; 0 or -EINVAL */
static int check_outs(const void *a, const void *b, const char *op, const char *name, const char *what,
		      struct ipu_error *err)
{
	if (!a || !b)
		return ipu__err(err, -EINVAL, "%s '%s': %s is NULL", op, name, what);
	return 0;
}

IPU_API int ipu_batch_norm(struct ipu_graph *g, int seq, int x, int gamma, int beta, float eps,
			   const char *name, int *mean, int *inv_std, struct ipu_error *err)
{
	const char *op = "ipu_batch_norm";
	struct norm_ctx c = { g, seq, name, err, "" };
	const struct ipu__tensor *t;
	struct norm_geom ge;
	int r;

	if (!(t = check_x(g, x, name, op, &r, err)))
		return r;
	if ((r = bn_geom(t, op, name, &ge, err)) || (r = check_params(g, &ge, gamma, beta, name, err)) ||
	    (r = check_eps(eps, op, name, err)) || (r = check_outs(mean, inv_std, op, name, "mean or inv_std", err)))
		return r;
	return norm_forward(&c, &ge, x, gamma, beta, eps, mean, inv_std);
}

IPU_API int ipu_batch_norm_infer(struct ipu_graph *g, int seq, int x, int gamma, int beta, int mean, int var,
				 float eps, const char *name, struct ipu_error *err)
{
	const char *op = "ipu_batch_norm_infer";
	struct norm_ctx c = { g, seq, name, err, "" };
	const struct ipu__tensor *t;
	struct norm_geom ge;
	int e, sd, sc, y, r;

	if (!(t = check_x(g, x, name, op, &r, err)))
		return r;
	if ((r = bn_geom(t, op, name, &ge, err)) || (r = check_params(g, &ge, gamma, beta, name, err)) ||
	    (r = check_shaped(g, mean, 1, ge.sshape, op, name, "mean", err)) ||
	    (r = check_shaped(g, var, 1, ge.sshape, op, name, "var", err)) || (r = check_eps(eps, op, name, err)))
		return r;
	/* scale = gamma / sqrt(var + eps) per channel, then one pass: y = (x - mean) * scale + beta */
	if ((e = ipu__constant_near(g, name, "eps", eps, var, err)) < 0)
		return e;
	if ((sd = bin(&c, IPU_OP_ADD, var, e, &ge, NULL, "std")) < 0)
		return sd;
	if ((r = ipu_unary(g, seq, IPU_OP_SQRT, sd, NULL, err)) < 0)
		return r;
	if ((sc = bin(&c, IPU_OP_DIV, gamma, sd, &ge, NULL, "scale")) < 0)
		return sc;
	if ((y = ipu__binary_bcast(g, seq, IPU_OP_SUB, x, mean, ge.rank, ge.sb, name, err)) < 0)
		return y;
	if ((r = bin(&c, IPU_OP_MUL, y, sc, &ge, ge.sb, NULL)) < 0 ||
	    (r = bin(&c, IPU_OP_ADD, y, beta, &ge, ge.pb, NULL)) < 0)
		return r;
	return y;
}

/* the backward's inputs: dy like x, mean and inv_std of the statistics' shape, gamma */
static int check_backward(const struct ipu_graph *g, const struct norm_geom *ge, int dy, int mean,
			  int inv_std, int gamma, const char *name, const int *d_gamma, const int *d_beta,
			  struct ipu_error *err)
{
	int r;

	if ((r = check_shaped(g, dy, ge->rank, ge->shape, ge->op, name, "dy", err)) ||
	    (r = check_shaped(g, mean, ge->srank, ge->sshape, ge->op, name, "mean", err)) ||
	    (r = check_shaped(g, inv_std, ge->srank, ge->sshape, ge->op, name, "inv_std", err)) ||
	    (r = check_params(g, ge, gamma, -2, name, err)))
		return r;
	return check_outs(d_gamma, d_beta, ge->op, name, "d_gamma or d_beta", err);
}

IPU_API int ipu_batch_norm_grad(struct ipu_graph *g, int seq, int x, int dy, int mean, int inv_std, int gamma,
				const char *name, int *d_gamma, int *d_beta, struct ipu_error *err)
{
	const char *op = "ipu_batch_norm_grad";
	struct norm_ctx c = { g, seq, name, err, "" };
	const struct ipu__tensor *t;
	struct norm_geom ge;
	int r;

	if (!(t = check_x(g, x, name, op, &r, err)))
		return r;
	if ((r = bn_geom(t, op, name, &ge, err)) ||
	    (r = check_backward(g, &ge, dy, mean, inv_std, gamma, name, d_gamma, d_beta, err)))
		return r;
	return norm_backward(&c, &ge, x, dy, mean, inv_std, gamma, d_gamma, d_beta);
}

IPU_API int ipu_layer_norm(struct ipu_graph *g, int seq, int x, int gamma, int beta, unsigned k, float eps,
			   const char *name, int *mean, int *inv_std, struct ipu_error *err)
{
	const char *op = "ipu_layer_norm";
	struct norm_ctx c = { g, seq, name, err, "" };
	const struct ipu__tensor *t;
	struct norm_geom ge;
	int r;

	if (!(t = check_x(g, x, name, op, &r, err)))
		return r;
	if ((r = ln_geom(t, k, op, name, &ge, err)) || (r = check_params(g, &ge, gamma, beta, name, err)) ||
	    (r = check_eps(eps, op, name, err)) || (r = check_outs(mean, inv_std, op, name, "mean or inv_std", err)))
		return r;
	return norm_forward(&c, &ge, x, gamma, beta, eps, mean, inv_std);
}

IPU_API int ipu_layer_norm_grad(struct ipu_graph *g, int seq, int x, int dy, int mean, int inv_std, int gamma,
				unsigned k, const char *name, int *d_gamma, int *d_beta, struct ipu_error *err)
{
	const char *op = "ipu_layer_norm_grad";
	struct norm_ctx c = { g, seq, name, err, "" };
	const struct ipu__tensor *t;
	struct norm_geom ge;
	int r;

	if (!(t = check_x(g, x, name, op, &r, err)))
		return r;
	if ((r = ln_geom(t, k, op, name, &ge, err)) ||
	    (r = check_backward(g, &ge, dy, mean, inv_std, gamma, name, d_gamma, d_beta, err)))
		return r;
	return norm_backward(&c, &ge, x, dy, mean, inv_std, gamma, d_gamma, d_beta);
}
