// SPDX-License-Identifier: MIT
/*
 * popnn-level operations composed from the partitioned ops of partition.c:
 * softmax, log-softmax and the cross-entropy loss with its gradient (no
 * codelet of their own: row reductions, broadcast binary ops and exp/log);
 * the nonlinearities relu, gelu, sigmoid, tanh (unary codelets) and their
 * input gradients (the 0x09xx codelets). See docs/builder.md, "popnn-level
 * ops".
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"

const char *ipu__sub_name(char *buf, size_t n, const char *base, const char *suffix)
{
	snprintf(buf, n, "%s/%s", base, suffix);
	return buf;
}

/*
 * @in a mapped f32 tensor of rank >= 1 and @name a free output name,
 * checked before anything is added to the graph; 0, or -EINVAL (-EEXIST
 * for a taken name) naming @op, the tensor and the reason.
 */
static int check_rows_input(const struct ipu_graph *g, int in, const char *name, const char *op,
			    struct ipu_error *err)
{
	const struct ipu__tensor *t;
	int r;

	if ((r = ipu__check_op_input(g, in, name, op, "input", err)))
		return r;
	t = ipu__graph_tensor(g, in);
	if (t->dtype != IPU_DTYPE_F32)
		return ipu__err(err, -EINVAL, "%s '%s': tensor '%s' is %s, must be f32", op, name, t->name,
				ipu_dtype_name(t->dtype));
	if (t->rank < 1)
		return ipu__err(err, -EINVAL, "%s '%s': tensor '%s' has rank 0, needs a dimension to "
				"normalise over", op, name, t->name);
	return 0;
}

/*
 * a op rows (ipu_binary(): in place into a when name is NULL), with @rows
 * the per-row values of a row reduction of a tensor shaped like a, seen as
 * a's shape with a last dimension of 1. The output's id or negative errno.
 */
static int per_row(struct ipu_graph *g, int seq, unsigned op, int a, int rows, const char *name,
		   struct ipu_error *err)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, a);
	uint32_t sh[IPU_MAX_RANK];

	for (unsigned i = 0; i + 1 < t->rank; i++)
		sh[i] = t->shape[i];
	sh[t->rank - 1] = 1;
	return ipu__binary_bcast(g, seq, op, a, rows, t->rank, sh, name, err);
}

/*
 * name = in - max(in) per row (new tensor laid out like @in): the shift
 * that keeps exp() from overflowing. Its id or negative errno.
 */
static int shifted(struct ipu_graph *g, int seq, int in, const char *name, struct ipu_error *err)
{
	char buf[200];
	int mx;

	if (ipu__empty(g, in))	/* nothing to shift (and empty rows have no max) */
		return ipu__output_like(g, name, in, 0, err);
	mx = ipu_reduce_rows(g, seq, IPU_REDUCE_MAX, in, ipu__sub_name(buf, sizeof(buf), name, "max"), err);
	if (mx < 0)
		return mx;
	return per_row(g, seq, IPU_OP_SUB, in, mx, name, err);
}

IPU_API int ipu_softmax(struct ipu_graph *g, int seq, int in, const char *name,
			struct ipu_error *err)
{
	char buf[200];
	int out, sum, r;

	if ((r = check_rows_input(g, in, name, "ipu_softmax", err)))
		return r;
	if ((out = shifted(g, seq, in, name, err)) < 0)
		return out;
	if ((r = ipu_unary(g, seq, IPU_OP_EXP, out, NULL, err)) < 0)
		return r;
	sum = ipu_reduce_rows(g, seq, IPU_REDUCE_SUM, out, ipu__sub_name(buf, sizeof(buf), name, "sum"), err);
	if (sum < 0)
		return sum;
	if ((r = per_row(g, seq, IPU_OP_DIV, out, sum, NULL, err)) < 0)
		return r;
	return out;
}

IPU_API int ipu_log_softmax(struct ipu_graph *g, int seq, int in, const char *name,
			    struct ipu_error *err)
{
	char buf[200];
	int out, e, sum, r;

	if ((r = check_rows_input(g, in, name, "ipu_log_softmax", err)))
		return r;
	if ((out = shifted(g, seq, in, name, err)) < 0)
		return out;
	if ((e = ipu_unary(g, seq, IPU_OP_EXP, out, ipu__sub_name(buf, sizeof(buf), name, "exp"), err)) < 0)
		return e;
	sum = ipu_reduce_rows(g, seq, IPU_REDUCE_SUM, e, ipu__sub_name(buf, sizeof(buf), name, "sum"), err);
	if (sum < 0)
		return sum;
	if ((r = ipu_unary(g, seq, IPU_OP_LOG, sum, NULL, err)) < 0)
		return r;
	if ((r = per_row(g, seq, IPU_OP_SUB, out, sum, NULL, err)) < 0)
		return r;
	return out;
}

int ipu__constant_near(struct ipu_graph *g, const char *base, const char *suffix, float v, int near,
			 struct ipu_error *err)
{
	char buf[200];
	int c, tile, r;

	c = ipu_graph_add_tensor(g, ipu__sub_name(buf, sizeof(buf), base, suffix), IPU_DTYPE_F32, 0, NULL, err);
	if (c < 0)
		return c;
	tile = ipu_graph_tile_of(g, near, 0);
	if ((r = ipu_graph_map_tile(g, c, tile < 0 ? 0 : (unsigned)tile, err)) ||
	    (r = ipu_graph_set_initial(g, c, &v, sizeof(v), err)))
		return r;
	return c;
}

/* logits f32 [N][C] and free loss and gradient names; 0 or -EINVAL/-EEXIST naming them */
static int check_ce_logits(const struct ipu_graph *g, int logits, const char *name, const char *grad_name,
			   int *grad, const char *op, struct ipu_error *err)
{
	const struct ipu__tensor *tl;
	int r;

	if ((r = check_rows_input(g, logits, name, op, err)))
		return r;
	tl = ipu__graph_tensor(g, logits);
	if (tl->rank != 2)
		return ipu__err(err, -EINVAL, "%s '%s': logits '%s' have rank %u, must be [N][C]", op, name,
				tl->name, tl->rank);
	if (!tl->shape[1])	/* numpy: the labels would index an empty axis */
		return ipu__err(err, -EINVAL, "%s '%s': logits '%s' have 0 classes (C = 0): no class to score",
				op, name, tl->name);
	if (grad_name && !*grad_name)
		return ipu__err(err, -EINVAL, "%s '%s': the gradient name is empty", op, name);
	if (grad_name && (ipu_graph_find_tensor(g, grad_name) >= 0 || !strcmp(grad_name, name)))
		return ipu__err(err, -EEXIST, "%s '%s': gradient name '%s' is taken", op, name, grad_name);
	if (grad_name && !grad)
		return ipu__err(err, -EINVAL, "%s '%s': gradient '%s' wanted but grad is NULL", op, name,
				grad_name);
	return 0;
}

/* targets f32 of the logits' shape, mapped; 0 or -EINVAL naming them */
static int check_ce_targets(const struct ipu_graph *g, int logits, int targets, const char *name,
			    struct ipu_error *err)
{
	const struct ipu__tensor *tl = ipu__graph_tensor(g, logits), *tt;

	if (!(tt = ipu__graph_tensor(g, targets)))
		return ipu__err(err, -EINVAL, "ipu_cross_entropy '%s': no tensor %d", name, targets);
	if (tt->dtype != IPU_DTYPE_F32 || tt->rank != 2 || tt->shape[0] != tl->shape[0] ||
	    tt->shape[1] != tl->shape[1])
		return ipu__err(err, -EINVAL, "ipu_cross_entropy '%s': targets '%s' (%s, rank %u) must be f32 "
				"[%u][%u] like logits '%s' (one-hot rows or class probabilities)", name,
				tt->name, ipu_dtype_name(tt->dtype), tt->rank, tl->shape[0], tl->shape[1],
				tl->name);
	if (tt->mapped != tt->elements)
		return ipu__err(err, -EINVAL, "ipu_cross_entropy '%s': targets '%s' are not fully mapped to tiles",
				name, tt->name);
	return 0;
}

/* the loss (and gradient) of checked logits and f32 targets */
static int ce_build(struct ipu_graph *g, int seq, int logits, int targets, const char *name,
		    const char *grad_name, int *grad, struct ipu_error *err)
{
	char buf[200];
	float n;
	int ls, prod, total, scale, loss, gr, inv, r;

	n = (float)ipu__graph_tensor(g, logits)->shape[0];
	/* loss = sum(targets * log_softmax(logits)) / -N (a division by N is exact to the rounding) */
	if ((ls = ipu_log_softmax(g, seq, logits, ipu__sub_name(buf, sizeof(buf), name, "log_softmax"), err)) < 0)
		return ls;
	prod = ipu_binary(g, seq, IPU_OP_MUL, ls, targets, ipu__sub_name(buf, sizeof(buf), name, "product"), err);
	if (prod < 0)
		return prod;
	total = ipu_reduce(g, seq, IPU_REDUCE_SUM, prod, ipu__sub_name(buf, sizeof(buf), name, "total"), err);
	if (total < 0)
		return total;
	if ((scale = ipu__constant_near(g, name, "count", -n, total, err)) < 0)
		return scale;
	if ((loss = ipu_binary(g, seq, IPU_OP_DIV, total, scale, name, err)) < 0)
		return loss;
	if (!grad_name)
		return loss;
	/* d loss / d logits = (softmax - targets) / N, softmax = exp(log_softmax): no second reduction */
	if ((gr = ipu_unary(g, seq, IPU_OP_EXP, ls, grad_name, err)) < 0)
		return gr;
	if ((r = ipu_binary(g, seq, IPU_OP_SUB, gr, targets, NULL, err)) < 0)
		return r;
	if ((inv = ipu__constant_near(g, grad_name, "count", n, gr, err)) < 0)
		return inv;
	if ((r = ipu_binary(g, seq, IPU_OP_DIV, gr, inv, NULL, err)) < 0)
		return r;
	*grad = gr;
	return loss;
}

IPU_API int ipu_cross_entropy(struct ipu_graph *g, int seq, int logits, int targets, const char *name,
			      const char *grad_name, int *grad, struct ipu_error *err)
{
	int r;

	if ((r = check_ce_logits(g, logits, name, grad_name, grad, "ipu_cross_entropy", err)) ||
	    (r = check_ce_targets(g, logits, targets, name, err)))
		return r;
	return ce_build(g, seq, logits, targets, name, grad_name, grad, err);
}

/* "@name/classes": i32 like @logits [N][C] holding c at [n][c] (read-only initial data) */
static int class_index(struct ipu_graph *g, int logits, const char *name, struct ipu_error *err)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, logits);
	uint32_t C = t->shape[1];
	uint64_t n = t->elements;
	char buf[200];
	int32_t *v;
	int out, r;

	out = ipu__output_like(g, ipu__sub_name(buf, sizeof(buf), name, "classes"), logits, IPU_DTYPE_I32, err);
	if (out < 0)
		return out;
	if (!(v = malloc(n * sizeof(*v))))
		return ipu__err(err, -ENOMEM, "ipu_cross_entropy_labels '%s': out of memory", name);
	for (uint64_t i = 0; i < n; i++)
		v[i] = (int32_t)(i % C);
	r = ipu_graph_set_initial(g, out, v, n * sizeof(*v), err);
	free(v);
	return r < 0 ? r : out;
}

IPU_API int ipu_cross_entropy_labels(struct ipu_graph *g, int seq, int logits, int labels, const char *name,
				     const char *grad_name, int *grad, struct ipu_error *err)
{
	static const char op[] = "ipu_cross_entropy_labels";
	struct ipu__binspec eq = { op, "onehot", IPUE_CODELET_BINARY(IPU_CMP_EQ), 0, IPU_DTYPE_I32, -1 };
	const struct ipu__tensor *tl, *tb;
	uint32_t col[2];
	char buf[200], got[96];
	int cls, match, onehot, r;

	if ((r = check_ce_logits(g, logits, name, grad_name, grad, op, err)))
		return r;
	tl = ipu__graph_tensor(g, logits);
	if (!(tb = ipu__graph_tensor(g, labels)))
		return ipu__err(err, -EINVAL, "%s '%s': no tensor %d (labels)", op, name, labels);
	if (tb->dtype != IPU_DTYPE_I32 || tb->rank != 1 || tb->shape[0] != tl->shape[0])
		return ipu__err(err, -EINVAL, "%s '%s': labels '%s' are %s %s, must be i32 [%u] (one class "
				"index per row of logits '%s')", op, name, tb->name, ipu_dtype_name(tb->dtype),
				ipu__shape_str(got, sizeof(got), tb->rank, tb->shape), tl->shape[0], tl->name);
	if (tb->mapped != tb->elements)
		return ipu__err(err, -EINVAL, "%s '%s': labels '%s' are not fully mapped to tiles", op, name,
				tb->name);
	/* onehot[n][c] = (c == labels[n]): labels seen as [N][1], compared, never used as an address */
	col[0] = tl->shape[0];
	col[1] = 1;
	if ((cls = class_index(g, logits, name, err)) < 0)
		return cls;
	match = ipu__binary_op(g, seq, &eq, cls, labels, 2, col, ipu__sub_name(buf, sizeof(buf), name, "match"),
			       err);
	if (match < 0)
		return match;
	onehot = ipu_cast(g, seq, match, IPU_DTYPE_F32, ipu__sub_name(buf, sizeof(buf), name, "onehot"), err);
	if (onehot < 0)
		return onehot;
	return ce_build(g, seq, logits, onehot, name, grad_name, grad, err);
}

/* y (rows of a softmax output) and dy of y's shape, both checked; 0 or -EINVAL/-EEXIST */
static int check_softmax_grad(const struct ipu_graph *g, int y, int dy, const char *name, const char *op,
			      struct ipu_error *err)
{
	const struct ipu__tensor *ty, *td;
	char sy[96], sd[96];
	int r;

	if ((r = check_rows_input(g, y, name, op, err)) || (r = check_rows_input(g, dy, name, op, err)))
		return r;
	ty = ipu__graph_tensor(g, y);
	td = ipu__graph_tensor(g, dy);
	if (ty->rank != td->rank || memcmp(ty->shape, td->shape, ty->rank * sizeof(ty->shape[0])))
		return ipu__err(err, -EINVAL, "%s '%s': y '%s' %s and dy '%s' %s differ in shape", op, name,
				ty->name, ipu__shape_str(sy, sizeof(sy), ty->rank, ty->shape), td->name,
				ipu__shape_str(sd, sizeof(sd), td->rank, td->shape));
	return 0;
}

IPU_API int ipu_softmax_grad(struct ipu_graph *g, int seq, int y, int dy, const char *name,
			     struct ipu_error *err)
{
	char buf[200];
	int p, s, dx, r;

	if ((r = check_softmax_grad(g, y, dy, name, "ipu_softmax_grad", err)))
		return r;
	/* dx = y * (dy - sum(dy * y)) per row */
	if ((p = ipu_binary(g, seq, IPU_OP_MUL, dy, y, ipu__sub_name(buf, sizeof(buf), name, "prod"), err)) < 0)
		return p;
	if ((s = ipu_reduce_rows(g, seq, IPU_REDUCE_SUM, p, ipu__sub_name(buf, sizeof(buf), name, "sum"), err)) < 0)
		return s;
	if ((dx = per_row(g, seq, IPU_OP_SUB, dy, s, name, err)) < 0)
		return dx;
	if ((r = ipu_binary(g, seq, IPU_OP_MUL, dx, y, NULL, err)) < 0)
		return r;
	return dx;
}

IPU_API int ipu_log_softmax_grad(struct ipu_graph *g, int seq, int y, int dy, const char *name,
				 struct ipu_error *err)
{
	char buf[200];
	int s, e, r;

	if ((r = check_softmax_grad(g, y, dy, name, "ipu_log_softmax_grad", err)))
		return r;
	/* dx = dy - exp(y) * sum(dy) per row */
	if ((s = ipu_reduce_rows(g, seq, IPU_REDUCE_SUM, dy, ipu__sub_name(buf, sizeof(buf), name, "sum"), err)) < 0)
		return s;
	if ((e = ipu_unary(g, seq, IPU_OP_EXP, y, ipu__sub_name(buf, sizeof(buf), name, "exp"), err)) < 0)
		return e;
	if ((r = per_row(g, seq, IPU_OP_MUL, e, s, NULL, err)) < 0)
		return r;
	return ipu_binary(g, seq, IPU_OP_SUB, dy, e, name, err);
}

/* ------------------------------------------------------------------------ */
/* nonlinearities                                                           */

_Static_assert((int)IPU_NL_RELU == (int)IPUE_NL_RELU && (int)IPU_NL_GELU == (int)IPUE_NL_GELU &&
	       (int)IPU_NL_SIGMOID == (int)IPUE_NL_SIGMOID && (int)IPU_NL_TANH == (int)IPUE_NL_TANH,
	       "nonlinearity types");

static const char *nl_name(unsigned type)
{
	static const char *const names[] = { "?", "relu", "gelu", "sigmoid", "tanh" };

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

/*
 * @t a mapped f32/f16 tensor for @op's @role; 0 or -EINVAL naming op, the
 * nonlinearity, the output, the tensor and the reason.
 */
static int check_nl_tensor(const struct ipu_graph *g, int t, const char *op, unsigned type,
			   const char *out, const char *role, struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);

	if (!x)
		return ipu__err(err, -EINVAL, "%s %s '%s': no tensor %d (%s)", op, nl_name(type), out, t,
				role);
	if (x->dtype != IPU_DTYPE_F32 && x->dtype != IPU_DTYPE_F16)
		return ipu__err(err, -EINVAL, "%s %s '%s': %s '%s' is %s, must be f32 or f16", op,
				nl_name(type), out, role, x->name, ipu_dtype_name(x->dtype));
	if (x->mapped != x->elements)
		return ipu__err(err, -EINVAL, "%s %s '%s': %s '%s' is not fully mapped to tiles", op,
				nl_name(type), out, role, x->name);
	return 0;
}

/* graph, type and output name of a nonlinearity call; 0, -EINVAL or -EEXIST */
static int check_nl_call(const struct ipu_graph *g, unsigned type, const char *name, const char *op,
			 struct ipu_error *err)
{
	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", op);
	if (type < IPU_NL_RELU || type > IPU_NL_TANH)
		return ipu__err(err, -EINVAL, "%s '%s': unknown nonlinearity type %u", op,
				name ? name : "(in place)", type);
	if (name && !*name)
		return ipu__err(err, -EINVAL, "%s %s: the output name is empty (NULL: in place)", op,
				nl_name(type));
	if (name && ipu_graph_find_tensor(g, name) >= 0)
		return ipu__err(err, -EEXIST, "%s %s: a tensor '%s' already exists", op, nl_name(type), name);
	return 0;
}

IPU_API int ipu_nonlinearity(struct ipu_graph *g, int seq, unsigned type, int in, const char *name,
			     struct ipu_error *err)
{
	static const unsigned uop[] = { 0, IPU_OP_RELU, IPU_OP_GELU, IPU_OP_SIGMOID, IPU_OP_TANH };
	int r;

	if ((r = check_nl_call(g, type, name, "ipu_nonlinearity", err)) ||
	    (r = check_nl_tensor(g, in, "ipu_nonlinearity", type, name ? name : "(in place)", "input", err)))
		return r;
	return ipu_unary(g, seq, uop[type], in, name, err);
}

IPU_API int ipu_nonlinearity_grad(struct ipu_graph *g, int seq, unsigned type, int act, int out_grad,
				  const char *name, struct ipu_error *err)
{
	const char *op = "ipu_nonlinearity_grad", *out = name ? name : "(in place)";
	const char *role = type == IPU_NL_GELU ? "act (the forward input)" : "act (the forward output)";
	const struct ipu__tensor *ta, *tg;
	int r;

	if ((r = check_nl_call(g, type, name, op, err)) ||
	    (r = check_nl_tensor(g, act, op, type, out, role, err)) ||
	    (r = check_nl_tensor(g, out_grad, op, type, out, "out_grad", err)))
		return r;
	ta = ipu__graph_tensor(g, act);
	tg = ipu__graph_tensor(g, out_grad);
	if (ta->dtype != tg->dtype)
		return ipu__err(err, -EINVAL, "%s %s '%s': act '%s' is %s but out_grad '%s' is %s", op,
				nl_name(type), out, ta->name, ipu_dtype_name(ta->dtype), tg->name,
				ipu_dtype_name(tg->dtype));
	if (ta->rank != tg->rank || memcmp(ta->shape, tg->shape, ta->rank * sizeof(ta->shape[0]))) {
		char sa[96], sg[96];

		ipu__shape_str(sa, sizeof(sa), ta->rank, ta->shape);
		ipu__shape_str(sg, sizeof(sg), tg->rank, tg->shape);
		return ipu__err(err, -EINVAL, "%s %s '%s': act '%s' %s and out_grad '%s' %s differ in shape",
				op, nl_name(type), out, ta->name, sa, tg->name, sg);
	}
	/* the vertices follow out_grad (the output's layout); act comes to them */
	return ipu__elementwise2(g, seq, IPUE_CODELET_NL_GRAD(type), out_grad, act, name, err);
}
