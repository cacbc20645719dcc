/* SPDX-License-Identifier: MIT */
/*
 * ipu-train's networks: a stack of layers built with libipudev's graph
 * builder, and the table of models (--model) that names the stacks.
 *
 * A layer builds its forward pass into a program sequence (twice: once for
 * the training batch, once for the evaluation batch, sharing the weights),
 * and its backward pass once, after the loss. Weights and their gradients
 * are registered in the net, which adds one SGD-with-momentum update per
 * weight after every gradient is computed (so no layer reads a weight that
 * an update already changed).
 *
 * A new kind of layer is a new struct train_layer_ops in a file of its
 * own (dense and ReLU: train_layers.c; conv2d, pooling and the reshapes
 * between flat rows and images: train_conv.c); a new model is a row of the
 * table in train_models.c.
 */
#ifndef IPU_TOOLS_TRAIN_NET_H
#define IPU_TOOLS_TRAIN_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "ipudev.h"

#define TRAIN_MAX_LAYERS	16
#define TRAIN_MAX_PARAMS	32
#define TRAIN_NAME_MAX		64

struct train_net;
struct train_layer;

/* One forward pass being built: the training or the evaluation one. */
struct train_pass {
	int seq;		/* program sequence to append to */
	const char *prefix;	/* "train" or "eval": names its tensors */
	unsigned batch;		/* rows of its input */
	bool training;		/* keep what the backward pass needs */
};

struct train_layer_ops {
	const char *kind;	/* "dense", "relu", ... */
	/*
	 * Append the forward pass from @in (a [batch][...] f32 tensor id) to
	 * @p->seq; returns the output's tensor id, or a negative errno with
	 * @err set. With @p->training, keep what backward() needs in @l.
	 */
	int (*forward)(struct train_net *net, struct train_layer *l,
		       const struct train_pass *p, int in, struct ipu_error *err);
	/*
	 * Append the backward pass to @seq: from @dout (d loss / d output),
	 * register the weights' gradients (train_net_add_grad()) and return
	 * d loss / d input, or 0 when @need_din is false (the first layer);
	 * a negative errno with @err set.
	 */
	int (*backward)(struct train_net *net, struct train_layer *l, int seq,
			int dout, bool need_din, struct ipu_error *err);
};

struct train_layer {
	const struct train_layer_ops *ops;
	char name[TRAIN_NAME_MAX];	/* "fc1": prefixes its tensors */
	unsigned in, out;		/* features in and out (per sample) */
	uint32_t chw[3];		/* image layers: the image [C][H][W] of a sample */
	uint32_t kernel, pad;		/* conv: K x K, padding; pool: K x K, stride K */
	int w, b;			/* weight tensors, -1 without */
	int x, y;			/* the training pass's input and output */
};

/* A weight tensor and how it starts. */
struct train_param {
	int tensor;
	char name[TRAIN_NAME_MAX];	/* the host handle: "fc1/w" */
	uint64_t elements;
	unsigned fan_in;		/* uniform(-1/sqrt(fan_in), +): 0 = zeros */
	int grad;			/* set by the backward pass, -1 before */
};

struct train_net {
	struct ipu_graph *g;
	unsigned batch;			/* training batch (of one replica) */
	unsigned replicas;		/* 1, or the replicas of a data-parallel graph */
	unsigned in_features;		/* per sample: 64 for digits */
	unsigned classes;
	struct train_layer layers[TRAIN_MAX_LAYERS];
	unsigned nlayers;
	struct train_param params[TRAIN_MAX_PARAMS];
	unsigned nparams;
	int ones;			/* [1][batch] of 1.0, -1 until needed */
};

/*
 * train_net_add_param() - create weight tensor @lname/@what of @rank
 * dimensions @shape, f32, exposed read/write, and register it.
 * @map_like_plan (may be NULL): lay it out as that matmul plan's right-hand
 * side (@shape is then the plan's [k][n]); otherwise it lies on one tile.
 * Returns the tensor id or -errno.
 */
int train_net_add_param(struct train_net *net, const char *lname,
			const char *what, unsigned rank, const uint32_t *shape,
			unsigned fan_in, const struct ipu_matmul_plan *map_like_plan,
			struct ipu_error *err);
/* Register @grad as the gradient of weight tensor @w. */
int train_net_add_grad(struct train_net *net, int w, int grad,
		       struct ipu_error *err);
/*
 * train_net_add_layer() - append a layer of @ops named @name taking @in
 * features per sample; returns it (for its init) or NULL with @err set.
 */
struct train_layer *train_net_add_layer(struct train_net *net,
					const struct train_layer_ops *ops,
					const char *name, unsigned in, unsigned out,
					struct ipu_error *err);
/*
 * train_net_plan() - the plan of ipu-train's matmuls, C [m][n] = A [m][k]
 * x B [k][n]: C in blocks of at most TRAIN_MM_BLOCK x TRAIN_MM_BLOCK, one
 * per tile, K whole (pk = ks = 1), when that fits a quarter of a tile's
 * memory; else ipu_matmul_plan()'s. 0 or -errno.
 */
#define TRAIN_MM_BLOCK	32
int train_net_plan(const struct train_net *net, uint32_t m, uint32_t n,
		   uint32_t k, struct ipu_matmul_plan *plan, struct ipu_error *err);
/* ipu_matmul_ex() of @a and @b (@flags) with train_net_plan()'s plan. */
int train_net_matmul(struct train_net *net, int seq, int a, int b,
		     unsigned flags, const char *name, struct ipu_error *err);
/*
 * train_net_column_sums() - @name/db [C] = the sums over the batch of
 * @dy [batch][C] (a bias gradient), appended to @seq; returns its id or
 * -errno.
 */
int train_net_column_sums(struct train_net *net, int seq, int dy,
			  const char *name, struct ipu_error *err);
/* "@a/@b" into @buf of TRAIN_NAME_MAX * 2 bytes: tensor names. */
const char *train_name(char *buf, const char *a, const char *b);
/* "@p->prefix/@l->name/@what" into @buf of TRAIN_NAME_MAX * 2 bytes. */
const char *train_pass_name(char *buf, const struct train_pass *p,
			    const struct train_layer *l, const char *what);

/* -- layers (train_layers.c) -- */

/* y = x W + b, W [in][out] laid out for the training batch's matmul. */
struct train_layer *train_dense(struct train_net *net, const char *name,
				unsigned in, unsigned out, struct ipu_error *err);
/* y = max(x, 0), in place (any shape). */
struct train_layer *train_relu(struct train_net *net, const char *name,
			       unsigned features, struct ipu_error *err);

/* -- image layers (train_conv.c); @chw: a sample's input image -- */

/* The flat rows [batch][C*H*W] seen as images [batch][C][H][W]. */
struct train_layer *train_to_image(struct train_net *net, const char *name,
				   const uint32_t chw[3], struct ipu_error *err);
/* Images [batch][C][H][W] as flat rows [batch][C*H*W] (C order). */
struct train_layer *train_flatten(struct train_net *net, const char *name,
				  const uint32_t chw[3], struct ipu_error *err);
/*
 * y = conv2d(x, W) + b: W [@cout][C][@kernel][@kernel], stride 1, @pad
 * zeros on each side; b [@cout][1][1], broadcast over the positions.
 */
struct train_layer *train_conv(struct train_net *net, const char *name,
			       const uint32_t chw[3], unsigned cout,
			       unsigned kernel, unsigned pad, struct ipu_error *err);
/* Max pooling, @kernel x @kernel windows, stride @kernel, no padding. */
struct train_layer *train_maxpool(struct train_net *net, const char *name,
				  const uint32_t chw[3], unsigned kernel,
				  struct ipu_error *err);

/* -- models (train_models.c) -- */

struct train_model {
	const char *name;	/* --model NAME */
	const char *what;	/* for --help: a line, or lines after the first indented */
	unsigned epochs;	/* default --epochs */
	float lr;		/* default --lr */
	/* Add the layers to @net (its batch, in_features and classes set). */
	int (*build)(struct train_net *net, struct ipu_error *err);
};

/* The model named @name, or NULL. Static storage. */
const struct train_model *train_model_find(const char *name);
/* The @i-th model of the table, or NULL past its end. */
const struct train_model *train_model_at(unsigned i);

#endif /* IPU_TOOLS_TRAIN_NET_H */
