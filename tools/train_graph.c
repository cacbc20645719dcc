// SPDX-License-Identifier: MIT
/*
 * ipu-train's graph (train_graph.h): inputs and streams, the training
 * step and the evaluation program.
 */
#include <errno.h>
#include <stdio.h>

#include "common.h"
#include "train_graph.h"

/*
 * A [rows][cols] input tensor fed by a host-to-device stream of its size:
 * spread over the tiles a row at a time; the stream copy is appended to
 * @seq. A replicated graph has no streams (docs/builder.md "Replication"):
 * there the host writes the tensor before each run (every replica's rows
 * at once). Returns the tensor id or -errno.
 */
static int streamed_input(struct ipu_graph *g, int seq, const char *name,
			  unsigned dtype, unsigned rows, unsigned cols,
			  struct ipu_error *err)
{
	uint32_t shape[2] = { rows, cols };
	int t, s, ret;

	t = ipu_graph_add_tensor(g, name, dtype, cols ? 2 : 1, shape, err);
	if (t < 0)
		return t;
	ret = ipu_graph_map_linear(g, t, cols ? cols : 1, err);
	if (ret < 0)
		return ret;
	if (ipu_graph_replicas(g) > 1) {
		ret = ipu_graph_expose(g, t, NULL, IPU_HANDLE_WRITE, err);
		return ret < 0 ? ret : t;
	}
	s = ipu_graph_add_stream(g, name, IPU_STREAM_HOST_TO_DEVICE, dtype,
				 rows * (cols ? cols : 1), 2, err);
	if (s < 0)
		return s;
	ret = ipu_prog_stream_copy(g, s, t, err);
	if (ret < 0)
		return ret;
	ret = ipu_prog_append(g, seq, ret, err);
	return ret < 0 ? ret : t;
}

/*
 * Stream scalar tensor @t out through a new device-to-host stream @name;
 * in a replicated graph, expose it as host handle @name for the host to
 * read after each run (one value per replica).
 */
static int stream_out(struct ipu_graph *g, int seq, const char *name, int t,
		      struct ipu_error *err)
{
	int s, ret;

	if (ipu_graph_replicas(g) > 1) {
		ret = ipu_graph_expose(g, t, name, IPU_HANDLE_READ, err);
		return ret < 0 ? ret : 0;
	}
	s = ipu_graph_add_stream(g, name, IPU_STREAM_DEVICE_TO_HOST, IPU_DTYPE_F32, 1, 2, err);
	if (s < 0)
		return s;
	ret = ipu_prog_stream_copy(g, s, t, err);
	if (ret < 0)
		return ret;
	ret = ipu_prog_append(g, seq, ret, err);
	return ret < 0 ? ret : 0;
}

/* The forward pass of every layer from @in; returns the logits' id. */
static int forward(struct train_net *net, const struct train_pass *p, int in,
		   struct ipu_error *err)
{
	int t = in;

	for (unsigned i = 0; i < net->nlayers && t >= 0; i++)
		t = net->layers[i].ops->forward(net, &net->layers[i], p, t, err);
	return t;
}

/*
 * Gradient @p->grad of a replicated graph becomes the mean over the
 * replicas (ipu_all_reduce() in place, over the links). The collectives cut
 * a slice into one chunk per replica, so a gradient whose size is not a
 * multiple of the replicas is reduced as a view of it joined to a few
 * zeros (the mean of zeros: they stay zero).
 */
static int mean_over_replicas(struct train_net *net, int seq, const struct train_param *p,
			      struct ipu_error *err)
{
	char name[TRAIN_NAME_MAX * 2];
	uint64_t r = net->replicas, n = p->elements, extra = (r - n % r) % r;
	float zeros[16] = { 0 };	/* extra < replicas <= 16 */
	int t = p->grad, parts[2], ret;

	if (extra) {
		parts[1] = ipu_graph_add_tensor(net->g, train_name(name, p->name, "grad_pad"),
						IPU_DTYPE_F32, 1, (uint32_t[]){ (uint32_t)extra },
						err);
		if (parts[1] < 0)
			return parts[1];
		ret = ipu_graph_map_tile(net->g, parts[1], 0, err);
		if (!ret)
			ret = ipu_graph_set_initial(net->g, parts[1], zeros,
						    extra * sizeof(float), err);
		parts[0] = ipu_reshape(net->g, p->grad, 1, (uint32_t[]){ (uint32_t)n },
				       train_name(name, p->name, "grad_flat"), err);
		if (ret < 0 || parts[0] < 0)
			return ret < 0 ? ret : parts[0];
		t = ipu_concat(net->g, parts, 2, 0, train_name(name, p->name, "grad_padded"), err);
		if (t < 0)
			return t;
	}
	return ipu_all_reduce(net->g, seq, t, IPU_COLL_MEAN, IPU_COLL_AUTO, NULL, err);
}

/*
 * Backward from @dlogits through the layers in reverse, then one update
 * per weight (after every gradient, so that each gradient sees the
 * weights of the forward pass). Data-parallel: each gradient is first
 * averaged over the replicas, so every replica applies the same update.
 */
static int backward_and_update(struct train_net *net, int seq, int dlogits,
			       float lr, struct ipu_error *err)
{
	char name[TRAIN_NAME_MAX * 2];
	int d = dlogits;

	for (unsigned i = net->nlayers; i-- > 0 && d >= 0;)
		d = net->layers[i].ops->backward(net, &net->layers[i], seq, d, i > 0, err);
	if (d < 0)
		return d;
	for (unsigned i = 0; i < net->nparams; i++) {
		struct train_param *p = &net->params[i];
		int ret;

		if (p->grad < 0)
			return tool_error(err, -EINVAL, "ipu-train: weight '%s' got no gradient",
					  p->name);
		if (net->replicas > 1 && (ret = mean_over_replicas(net, seq, p, err)) < 0)
			return ret;
		ret = ipu_sgd_momentum(net->g, seq, p->tensor, p->grad, lr, TRAIN_MOMENTUM,
				       train_name(name, p->name, "sgd"), err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Entry program "train": one step on a streamed batch. */
static int build_step(struct train_net *net, float lr, struct ipu_error *err)
{
	struct train_pass p = { .prefix = "train", .batch = net->batch, .training = true };
	int x, t, logits, loss, dlogits, ret;

	p.seq = ipu_prog_sequence(net->g, err);
	if (p.seq < 0)
		return p.seq;
	x = streamed_input(net->g, p.seq, TRAIN_STREAM_X, IPU_DTYPE_F32, net->batch,
			   net->in_features, err);
	if (x < 0)
		return x;
	t = streamed_input(net->g, p.seq, TRAIN_STREAM_T, IPU_DTYPE_F32, net->batch,
			   net->classes, err);
	if (t < 0)
		return t;
	logits = forward(net, &p, x, err);
	if (logits < 0)
		return logits;
	loss = ipu_cross_entropy(net->g, p.seq, logits, t, "train/loss_value",
				 "train/dlogits", &dlogits, err);
	if (loss < 0)
		return loss;
	ret = backward_and_update(net, p.seq, dlogits, lr, err);
	if (!ret)
		ret = stream_out(net->g, p.seq, TRAIN_STREAM_LOSS, loss, err);
	if (!ret)
		ret = ipu_graph_add_program(net->g, "train", p.seq, err);
	return ret < 0 ? ret : 0;
}

/* Entry program "eval": count the right answers of a streamed batch. */
static int build_eval(struct train_net *net, struct ipu_error *err)
{
	struct train_pass p = { .prefix = "eval", .batch = TRAIN_EVAL_BATCH };
	int x, y, logits, pred, hit, correct, ret;

	p.seq = ipu_prog_sequence(net->g, err);
	if (p.seq < 0)
		return p.seq;
	x = streamed_input(net->g, p.seq, TRAIN_STREAM_EVAL_X, IPU_DTYPE_F32,
			   TRAIN_EVAL_BATCH, net->in_features, err);
	if (x < 0)
		return x;
	y = streamed_input(net->g, p.seq, TRAIN_STREAM_EVAL_Y, IPU_DTYPE_I32,
			   TRAIN_EVAL_BATCH, 0, err);
	if (y < 0)
		return y;
	logits = forward(net, &p, x, err);
	if (logits < 0)
		return logits;
	pred = ipu_argmax(net->g, p.seq, logits, "eval/pred", err);
	if (pred < 0)
		return pred;
	hit = ipu_compare(net->g, p.seq, IPU_CMP_EQ, pred, y, "eval/hit", err);
	if (hit < 0)
		return hit;
	hit = ipu_cast(net->g, p.seq, hit, IPU_DTYPE_F32, "eval/hitf", err);
	if (hit < 0)
		return hit;
	correct = ipu_reduce(net->g, p.seq, IPU_REDUCE_SUM, hit, "eval/correct_count", err);
	if (correct < 0)
		return correct;
	ret = stream_out(net->g, p.seq, TRAIN_STREAM_EVAL_CORRECT, correct, err);
	if (!ret)
		ret = ipu_graph_add_program(net->g, "eval", p.seq, err);
	return ret < 0 ? ret : 0;
}

int train_graph_build(struct train_net *net, const struct train_model *m,
		      uint32_t chip, unsigned batch, unsigned replicas, float lr,
		      struct ipu_error *err)
{
	int ret;

	net->g = NULL;
	net->nlayers = net->nparams = 0;
	net->ones = -1;
	net->batch = batch;
	net->replicas = replicas;
	ret = replicas > 1 ? ipu_graph_create_replicated(chip, replicas, &net->g, err)
			   : ipu_graph_create(chip, &net->g, err);
	if (!ret)
		ret = m->build(net, err);
	if (!ret)
		ret = build_step(net, lr, err);
	if (!ret)
		ret = build_eval(net, err);
	if (!ret)
		ret = ipu_graph_set_metadata(net->g, "ipu-train.model", m->name, err);
	return ret < 0 ? ret : 0;
}
