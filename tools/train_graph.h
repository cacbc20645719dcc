/* SPDX-License-Identifier: MIT */
/*
 * ipu-train's graph: one graph with two entry programs over a net
 * (train_net.h) whose weights stay on the device between runs.
 *
 *   "train" (TRAIN_PROG_STEP): one SGD step. Streams in a batch of images
 *           (TRAIN_STREAM_X, f32 [batch][64], pixels / 16) and their one-hot
 *           targets (TRAIN_STREAM_T, f32 [batch][10]); forward, mean
 *           cross-entropy, backward, one SGD-with-momentum update per
 *           weight; streams the batch's loss out (TRAIN_STREAM_LOSS, f32).
 *   "eval"  (TRAIN_PROG_EVAL): the forward pass over a batch of
 *           TRAIN_EVAL_BATCH images (TRAIN_STREAM_EVAL_X) with their
 *           labels (TRAIN_STREAM_EVAL_Y, i32; -1 for padding rows, which
 *           never count); streams out how many were classified right
 *           (TRAIN_STREAM_EVAL_CORRECT, f32).
 * The host runs a program N times (ipu_run()'s count) to go through N
 * batches; each stream is bound to a ring of exactly N transfers.
 */
#ifndef IPU_TOOLS_TRAIN_GRAPH_H
#define IPU_TOOLS_TRAIN_GRAPH_H

#include "train_net.h"

#define TRAIN_PROG_STEP		0
#define TRAIN_PROG_EVAL		1
#define TRAIN_EVAL_BATCH	120
#define TRAIN_MOMENTUM		0.9f

#define TRAIN_STREAM_X		"train/x"
#define TRAIN_STREAM_T		"train/t"
#define TRAIN_STREAM_LOSS	"train/loss"
#define TRAIN_STREAM_EVAL_X	"eval/x"
#define TRAIN_STREAM_EVAL_Y	"eval/y"
#define TRAIN_STREAM_EVAL_CORRECT "eval/correct"

/*
 * train_graph_build() - create the graph for chip @chip (IPU_MODEL_*) with
 * model @m's layers, training batch @batch (of one replica), learning rate
 * @lr, into @net; @replicas > 1: a replicated graph (data-parallel: the
 * gradients averaged over the replicas, no streams: the inputs and outputs
 * are host handles written and read around each run)
 * (its g to be freed with ipu_graph_free() by the caller, also after a
 * failure). @net->in_features and ->classes must be set. Returns 0 or a
 * negative errno with @err set (naming the op that failed).
 */
int train_graph_build(struct train_net *net, const struct train_model *m,
		      uint32_t chip, unsigned batch, unsigned replicas, float lr,
		      struct ipu_error *err);

#endif /* IPU_TOOLS_TRAIN_GRAPH_H */
