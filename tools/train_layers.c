// SPDX-License-Identifier: MIT
/*
 * ipu-train's layers (train_net.h): dense (y = x W + b) and ReLU, forward
 * and backward, from the graph builder's matmul, broadcast add and
 * nonlinearity ops.
 */
#include "common.h"
#include "train_net.h"

static int dense_forward(struct train_net *net, struct train_layer *l,
			 const struct train_pass *p, int in, struct ipu_error *err)
{
	char name[TRAIN_NAME_MAX * 2];
	int y, ret;

	y = train_net_matmul(net, p->seq, in, l->w, 0, train_pass_name(name, p, l, "y"), err);
	if (y < 0)
		return y;
	/* the bias [out] broadcast over the rows, in place */
	ret = ipu_binary(net->g, p->seq, IPU_OP_ADD, y, l->b, NULL, err);
	if (ret < 0)
		return ret;
	if (p->training) {
		l->x = in;
		l->y = y;
	}
	return y;
}

/*
 * dW = x^T dy, db = the column sums of dy, dx = dy W^T: no transposed copy
 * is made (ipu_matmul_ex's transpose flags).
 */
static int dense_backward(struct train_net *net, struct train_layer *l, int seq,
			  int dout, bool need_din, struct ipu_error *err)
{
	char name[TRAIN_NAME_MAX * 2];
	int dw, db, dx = 0, ret;

	dw = train_net_matmul(net, seq, l->x, dout, IPU_MATMUL_TRANSPOSE_A,
			      train_name(name, l->name, "dw"), err);
	if (dw < 0)
		return dw;
	db = train_net_column_sums(net, seq, dout, l->name, err);
	if (db < 0)
		return db;
	if (need_din) {
		dx = train_net_matmul(net, seq, dout, l->w, IPU_MATMUL_TRANSPOSE_B,
				      train_name(name, l->name, "dx"), err);
		if (dx < 0)
			return dx;
	}
	ret = train_net_add_grad(net, l->w, dw, err);
	if (!ret)
		ret = train_net_add_grad(net, l->b, db, err);
	return ret < 0 ? ret : dx;
}

static const struct train_layer_ops dense_ops = {
	.kind = "dense",
	.forward = dense_forward,
	.backward = dense_backward,
};

struct train_layer *train_dense(struct train_net *net, const char *name,
				unsigned in, unsigned out, struct ipu_error *err)
{
	struct train_layer *l = train_net_add_layer(net, &dense_ops, name, in, out, err);
	struct ipu_matmul_plan plan;

	if (!l)
		return NULL;
	/* W laid out for the training batch's forward matmul */
	if (train_net_plan(net, net->batch, out, in, &plan, err) < 0)
		return NULL;
	l->w = train_net_add_param(net, name, "w", 2, (uint32_t[]){ in, out }, in, &plan, err);
	if (l->w < 0)
		return NULL;
	l->b = train_net_add_param(net, name, "b", 1, (uint32_t[]){ out }, 0, NULL, err);
	return l->b < 0 ? NULL : l;
}

static int relu_forward(struct train_net *net, struct train_layer *l,
			const struct train_pass *p, int in, struct ipu_error *err)
{
	int y = ipu_nonlinearity(net->g, p->seq, IPU_NL_RELU, in, NULL, err);

	if (y >= 0 && p->training)
		l->x = l->y = y;
	return y;
}

/* ReLU's gradient from its output (as in Poplar), in place into @dout. */
static int relu_backward(struct train_net *net, struct train_layer *l, int seq,
			 int dout, bool need_din, struct ipu_error *err)
{
	(void)need_din;
	return ipu_nonlinearity_grad(net->g, seq, IPU_NL_RELU, l->y, dout, NULL, err);
}

static const struct train_layer_ops relu_ops = {
	.kind = "relu",
	.forward = relu_forward,
	.backward = relu_backward,
};

struct train_layer *train_relu(struct train_net *net, const char *name,
			       unsigned features, struct ipu_error *err)
{
	return train_net_add_layer(net, &relu_ops, name, features, features, err);
}
