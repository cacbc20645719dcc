// SPDX-License-Identifier: MIT
/*
 * ipu-train's net bookkeeping (train_net.h): layers in order, weight
 * tensors and their gradients.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "train_net.h"

const char *train_name(char *buf, const char *a, const char *b)
{
	snprintf(buf, TRAIN_NAME_MAX * 2, "%s/%s", a, b);
	return buf;
}

const char *train_pass_name(char *buf, const struct train_pass *p,
			    const struct train_layer *l, const char *what)
{
	snprintf(buf, TRAIN_NAME_MAX * 2, "%s/%s/%s", p->prefix, l->name, what);
	return buf;
}

int train_net_add_param(struct train_net *net, const char *lname,
			const char *what, unsigned rank, const uint32_t *shape,
			unsigned fan_in, const struct ipu_matmul_plan *map_like_plan,
			struct ipu_error *err)
{
	char name[TRAIN_NAME_MAX * 2];
	struct train_param *p;
	uint64_t elements = 1;
	int t, ret;

	if (net->nparams >= TRAIN_MAX_PARAMS)
		return tool_error(err, -ENOSPC, "ipu-train: more than %d weight tensors",
				  TRAIN_MAX_PARAMS);
	train_name(name, lname, what);
	if (strlen(name) >= TRAIN_NAME_MAX)
		return tool_error(err, -EINVAL, "ipu-train: weight name '%s' too long", name);
	for (unsigned i = 0; i < rank; i++)
		elements *= shape[i];
	if (map_like_plan) {
		t = ipu_matmul_create_rhs(net->g, map_like_plan, name, err);
	} else {
		t = ipu_graph_add_tensor(net->g, name, IPU_DTYPE_F32, rank, shape, err);
		if (t >= 0 && (ret = ipu_graph_map_tile(net->g, t, 0, err)) < 0)
			return ret;
	}
	if (t < 0)
		return t;
	ret = ipu_graph_expose(net->g, t, NULL, IPU_HANDLE_RW, err);
	if (ret < 0)
		return ret;
	p = &net->params[net->nparams++];
	p->tensor = t;
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->elements = elements;
	p->fan_in = fan_in;
	p->grad = -1;
	return t;
}

int train_net_add_grad(struct train_net *net, int w, int grad,
		       struct ipu_error *err)
{
	for (unsigned i = 0; i < net->nparams; i++) {
		if (net->params[i].tensor == w) {
			net->params[i].grad = grad;
			return 0;
		}
	}
	return tool_error(err, -EINVAL, "ipu-train: gradient for tensor %d, not a weight", w);
}

struct train_layer *train_net_add_layer(struct train_net *net,
					const struct train_layer_ops *ops,
					const char *name, unsigned in, unsigned out,
					struct ipu_error *err)
{
	struct train_layer *l;

	if (net->nlayers >= TRAIN_MAX_LAYERS) {
		tool_error(err, -ENOSPC, "ipu-train: more than %d layers", TRAIN_MAX_LAYERS);
		return NULL;
	}
	l = &net->layers[net->nlayers++];
	memset(l, 0, sizeof(*l));
	l->ops = ops;
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->in = in;
	l->out = out;
	l->w = l->b = l->x = l->y = -1;
	return l;
}

/* The [1][batch] row of ones, created (load-time data, tile 0) on first use. */
static int ones_row(struct train_net *net, struct ipu_error *err)
{
	float *one;
	int t, ret;

	if (net->ones >= 0)
		return net->ones;
	t = ipu_graph_add_tensor(net->g, "train/ones", IPU_DTYPE_F32, 2,
				 (uint32_t[]){ 1, net->batch }, err);
	if (t < 0)
		return t;
	one = malloc(net->batch * sizeof(float));
	if (!one)
		return tool_error(err, -ENOMEM, "ipu-train: out of memory");
	for (unsigned i = 0; i < net->batch; i++)
		one[i] = 1.0f;
	ret = ipu_graph_map_tile(net->g, t, 0, err);
	if (!ret)
		ret = ipu_graph_set_initial(net->g, t, one, net->batch * sizeof(float), err);
	free(one);
	if (ret < 0)
		return ret;
	net->ones = t;
	return t;
}

/*
 * A matmul by a row of ones ([1][batch] x [batch][C], products by 1 exact,
 * one f32 sum per column in the matmul's fixed order), not
 * ipu_reduce_axes(axis 0): on the digits MLP its ReduceColumns path halved
 * the model device's training rate (gc200, one host thread: 36-57k against
 * 80-114k samples/s; 1500 against 5000 with ipu_matmul_plan()'s plans).
 * The [1][C] product is seen (a free view) as the [C] gradient that the
 * bias's shape asks for.
 */
int train_net_column_sums(struct train_net *net, int seq, int dy,
			  const char *name, struct ipu_error *err)
{
	char n1[TRAIN_NAME_MAX * 2], n2[TRAIN_NAME_MAX * 2];
	struct ipu_tensor_desc d;
	int ones = ones_row(net, err), row;

	if (ones < 0)
		return ones;
	if (ipu_graph_tensor_desc(net->g, dy, &d, err) < 0)
		return err->code;
	row = train_net_matmul(net, seq, ones, dy, 0, train_name(n1, name, "db_row"), err);
	if (row < 0)
		return row;
	return ipu_reshape(net->g, row, 1, (uint32_t[]){ d.shape[1] },
			   train_name(n2, name, "db"), err);
}

/*
 * Why not ipu_matmul_plan() alone: it minimises the modelled cycles, which
 * spreads these small products over hundreds of tiles in blocks of a few
 * rows; on the model device each vertex then costs more host time than
 * its arithmetic: the digits MLP trained at 5000 samples/s on gc200 with
 * one host thread, against 80-230k with 32 x 32 blocks.
 */
int train_net_plan(const struct train_net *net, uint32_t m, uint32_t n,
		   uint32_t k, struct ipu_matmul_plan *plan, struct ipu_error *err)
{
	uint32_t pm = (m + TRAIN_MM_BLOCK - 1) / TRAIN_MM_BLOCK;
	uint32_t pn = (n + TRAIN_MM_BLOCK - 1) / TRAIN_MM_BLOCK;
	uint32_t bm = (m + pm - 1) / pm, bn = (n + pn - 1) / pn;
	uint64_t need = ((uint64_t)bm * k + (uint64_t)k * bn + (uint64_t)bm * bn) * 4;

	if ((uint64_t)pm * pn > ipu_graph_tiles(net->g) ||
	    need > ipu_graph_tile_memory(net->g) / 4)
		return ipu_matmul_plan(net->g, m, n, k, IPU_DTYPE_F32, plan, err);
	*plan = (struct ipu_matmul_plan){ .m = m, .n = n, .k = k, .dtype = IPU_DTYPE_F32,
		.pm = pm, .pn = pn, .pk = 1, .ks = 1, .bm = bm, .bn = bn, .bk = k,
		.tiles = pm * pn, .tile_bytes = need };
	return 0;
}

int train_net_matmul(struct train_net *net, int seq, int a, int b,
		     unsigned flags, const char *name, struct ipu_error *err)
{
	struct ipu_tensor_desc da, db;
	struct ipu_matmul_plan plan;
	uint32_t m, n, k;
	int ret;

	if (ipu_graph_tensor_desc(net->g, a, &da, err) < 0 ||
	    ipu_graph_tensor_desc(net->g, b, &db, err) < 0)
		return err->code;
	m = da.shape[flags & IPU_MATMUL_TRANSPOSE_A ? 1 : 0];
	k = da.shape[flags & IPU_MATMUL_TRANSPOSE_A ? 0 : 1];
	n = db.shape[flags & IPU_MATMUL_TRANSPOSE_B ? 0 : 1];
	ret = train_net_plan(net, m, n, k, &plan, err);
	return ret < 0 ? ret : ipu_matmul_ex(net->g, seq, a, b, flags, name, &plan, err);
}
