// SPDX-License-Identifier: MIT
/*
 * ipu-train's image layers (train_net.h): conv2d with a bias, max pooling,
 * and the reshapes between the flat rows the streams carry ([batch][64])
 * and NCHW images, forward and backward, from the graph builder's conv2d,
 * pooling, reduction and broadcast ops.
 */
#include <errno.h>
#include <string.h>

#include "common.h"
#include "train_net.h"

static unsigned chw_elements(const uint32_t chw[3])
{
	return chw[0] * chw[1] * chw[2];
}

/* A layer of @ops over a sample image @chw, @out features out. */
static struct train_layer *image_layer(struct train_net *net,
				       const struct train_layer_ops *ops,
				       const char *name, const uint32_t chw[3],
				       unsigned out, struct ipu_error *err)
{
	struct train_layer *l;

	if (!chw[0] || !chw[1] || !chw[2]) {
		tool_error(err, -EINVAL, "ipu-train: layer '%s': empty image %ux%ux%u",
			   name, chw[0], chw[1], chw[2]);
		return NULL;
	}
	l = train_net_add_layer(net, ops, name, chw_elements(chw), out, err);
	if (l)
		memcpy(l->chw, chw, sizeof(l->chw));
	return l;
}

/*
 * @t [batch][...] seen as images [batch][C][H][W] (@to_image) or as flat
 * rows [batch][C*H*W], @l->chw the image: view @name (no copy, no program).
 */
static int reshape(struct train_net *net, const struct train_layer *l,
		   int t, bool to_image, const char *name, struct ipu_error *err)
{
	struct ipu_tensor_desc d;
	uint32_t shape[4];

	if (ipu_graph_tensor_desc(net->g, t, &d, err) < 0)
		return err->code;
	shape[0] = d.shape[0];
	if (to_image)
		memcpy(&shape[1], l->chw, sizeof(l->chw));
	else
		shape[1] = chw_elements(l->chw);
	return ipu_reshape(net->g, t, to_image ? 4 : 2, shape, name, err);
}

static int to_image_forward(struct train_net *net, struct train_layer *l,
			    const struct train_pass *p, int in, struct ipu_error *err)
{
	char name[TRAIN_NAME_MAX * 2];

	return reshape(net, l, in, true, train_pass_name(name, p, l, "y"), err);
}

static int to_image_backward(struct train_net *net, struct train_layer *l, int seq,
			     int dout, bool need_din, struct ipu_error *err)
{
	char name[TRAIN_NAME_MAX * 2];

	(void)seq;	/* a view: nothing to run */
	return need_din ? reshape(net, l, dout, false, train_name(name, l->name, "dx"), err)
			: 0;
}

static const struct train_layer_ops to_image_ops = {
	.kind = "to_image",
	.forward = to_image_forward,
	.backward = to_image_backward,
};

struct train_layer *train_to_image(struct train_net *net, const char *name,
				   const uint32_t chw[3], struct ipu_error *err)
{
	return image_layer(net, &to_image_ops, name, chw, chw_elements(chw), err);
}

static int flatten_forward(struct train_net *net, struct train_layer *l,
			   const struct train_pass *p, int in, struct ipu_error *err)
{
	char name[TRAIN_NAME_MAX * 2];

	return reshape(net, l, in, false, train_pass_name(name, p, l, "y"), err);
}

static int flatten_backward(struct train_net *net, struct train_layer *l, int seq,
			    int dout, bool need_din, struct ipu_error *err)
{
	char name[TRAIN_NAME_MAX * 2];

	(void)seq;	/* a view: nothing to run */
	return need_din ? reshape(net, l, dout, true, train_name(name, l->name, "dx"), err)
			: 0;
}

static const struct train_layer_ops flatten_ops = {
	.kind = "flatten",
	.forward = flatten_forward,
	.backward = flatten_backward,
};

struct train_layer *train_flatten(struct train_net *net, const char *name,
				  const uint32_t chw[3], struct ipu_error *err)
{
	return image_layer(net, &flatten_ops, name, chw, chw_elements(chw), err);
}

static struct ipu_conv2d_params conv_params(const struct train_layer *l)
{
	struct ipu_conv2d_params p = IPU_CONV2D_PARAMS_INIT;

	for (unsigned i = 0; i < 4; i++)
		p.padding[i] = l->pad;
	return p;
}

static int conv_forward(struct train_net *net, struct train_layer *l,
			const struct train_pass *p, int in, struct ipu_error *err)
{
	struct ipu_conv2d_params cp = conv_params(l);
	char name[TRAIN_NAME_MAX * 2];
	int y, ret;

	y = ipu_conv2d(net->g, p->seq, in, l->w, &cp, train_pass_name(name, p, l, "y"), err);
	if (y < 0)
		return y;
	/* the bias [Cout][1][1] broadcast over each channel's positions, in place */
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
 * dW and dx by the builder's conv2d gradients; db = the sums of dy over
 * the images and positions (axes 0, 2, 3: the conv docs' way; the dense
 * layer's matmul by a row of ones needs the channels last), seen (a view)
 * as the bias's [Cout][1][1].
 */
static int conv_backward(struct train_net *net, struct train_layer *l, int seq,
			 int dout, bool need_din, struct ipu_error *err)
{
	struct ipu_conv2d_params cp = conv_params(l);
	char name[TRAIN_NAME_MAX * 2];
	struct ipu_tensor_desc bd;
	int dw, dbc, db, dx = 0, ret;

	dw = ipu_conv2d_grad_weights(net->g, seq, l->x, dout, l->w, &cp,
				     train_name(name, l->name, "dw"), err);
	if (dw < 0)
		return dw;
	dbc = ipu_reduce_axes(net->g, seq, IPU_REDUCE_SUM, dout, (int[]){ 0, 2, 3 }, 3,
			      train_name(name, l->name, "db_c"), err);
	if (dbc < 0)
		return dbc;
	if (ipu_graph_tensor_desc(net->g, l->b, &bd, err) < 0)
		return err->code;
	db = ipu_reshape(net->g, dbc, bd.rank, bd.shape, train_name(name, l->name, "db"), err);
	if (db < 0)
		return db;
	if (need_din) {
		dx = ipu_conv2d_grad_input(net->g, seq, dout, l->w, l->x, &cp,
					   train_name(name, l->name, "dx"), err);
		if (dx < 0)
			return dx;
	}
	ret = train_net_add_grad(net, l->w, dw, err);
	if (!ret)
		ret = train_net_add_grad(net, l->b, db, err);
	return ret < 0 ? ret : dx;
}

static const struct train_layer_ops conv_ops = {
	.kind = "conv2d",
	.forward = conv_forward,
	.backward = conv_backward,
};

struct train_layer *train_conv(struct train_net *net, const char *name,
			       const uint32_t chw[3], unsigned cout,
			       unsigned kernel, unsigned pad, struct ipu_error *err)
{
	unsigned oh = chw[1] + 2 * pad + 1 - kernel, ow = chw[2] + 2 * pad + 1 - kernel;
	struct train_layer *l;

	if (!kernel || chw[1] + 2 * pad < kernel || chw[2] + 2 * pad < kernel || !cout) {
		tool_error(err, -EINVAL, "ipu-train: conv '%s': %u channels of %ux%u kernels do not fit images %ux%ux%u padded by %u",
			   name, cout, kernel, kernel, chw[0], chw[1], chw[2], pad);
		return NULL;
	}
	l = image_layer(net, &conv_ops, name, chw, cout * oh * ow, err);
	if (!l)
		return NULL;
	l->kernel = kernel;
	l->pad = pad;
	l->w = train_net_add_param(net, name, "w", 4,
				   (uint32_t[]){ cout, chw[0], kernel, kernel },
				   chw[0] * kernel * kernel, NULL, err);
	if (l->w < 0)
		return NULL;
	l->b = train_net_add_param(net, name, "b", 3, (uint32_t[]){ cout, 1, 1 }, 0, NULL, err);
	return l->b < 0 ? NULL : l;
}

static struct ipu_pool2d_params pool_params(const struct train_layer *l)
{
	return (struct ipu_pool2d_params){ sizeof(struct ipu_pool2d_params),
		{ l->kernel, l->kernel }, { l->kernel, l->kernel }, { 0, 0, 0, 0 } };
}

static int maxpool_forward(struct train_net *net, struct train_layer *l,
			   const struct train_pass *p, int in, struct ipu_error *err)
{
	struct ipu_pool2d_params pp = pool_params(l);
	char name[TRAIN_NAME_MAX * 2];
	int y = ipu_pool2d(net->g, p->seq, IPU_POOL_MAX, in, &pp,
			   train_pass_name(name, p, l, "y"), err);

	if (y >= 0 && p->training) {
		l->x = in;	/* the gradient finds each window's maximum again */
		l->y = y;
	}
	return y;
}

static int maxpool_backward(struct train_net *net, struct train_layer *l, int seq,
			    int dout, bool need_din, struct ipu_error *err)
{
	struct ipu_pool2d_params pp = pool_params(l);
	char name[TRAIN_NAME_MAX * 2];

	if (!need_din)
		return 0;
	return ipu_pool2d_grad(net->g, seq, IPU_POOL_MAX, l->x, dout, &pp,
			       train_name(name, l->name, "dx"), err);
}

static const struct train_layer_ops maxpool_ops = {
	.kind = "maxpool",
	.forward = maxpool_forward,
	.backward = maxpool_backward,
};

struct train_layer *train_maxpool(struct train_net *net, const char *name,
				  const uint32_t chw[3], unsigned kernel,
				  struct ipu_error *err)
{
	struct train_layer *l;

	if (!kernel || chw[1] < kernel || chw[2] < kernel) {
		tool_error(err, -EINVAL, "ipu-train: pool '%s': %ux%u windows do not fit images %ux%u",
			   name, kernel, kernel, chw[1], chw[2]);
		return NULL;
	}
	l = image_layer(net, &maxpool_ops, name, chw,
			chw[0] * (chw[1] / kernel) * (chw[2] / kernel), err);
	if (l)
		l->kernel = kernel;
	return l;
}
