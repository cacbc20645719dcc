// SPDX-License-Identifier: MIT
/*
 * ipu-train's models (--model): each row names a stack of layers
 * (train_net.h), its default number of epochs and learning rate.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "common.h"
#include "train_net.h"

/* Softmax regression: logits = x W + b (the loss applies the softmax). */
static int build_softmax(struct train_net *net, struct ipu_error *err)
{
	return train_dense(net, "fc", net->in_features, net->classes, err) ? 0 : err->code;
}

/* MLP 64-128-10: dense, ReLU, dense. */
static int build_mlp(struct train_net *net, struct ipu_error *err)
{
	const unsigned hidden = 128;

	if (!train_dense(net, "fc1", net->in_features, hidden, err) ||
	    !train_relu(net, "relu1", hidden, err) ||
	    !train_dense(net, "fc2", hidden, net->classes, err))
		return err->code;
	return 0;
}

static const struct train_model models[] = {
	{ "softmax", "softmax regression, 64-10", 15, 0.05f, build_softmax, NULL },
	{ "mlp", "multi-layer perceptron, 64-128-10, ReLU", 15, 0.05f, build_mlp, NULL },
	/*
	 * The LeNet-style CNN: conv2d and pooling layers (train_layer_ops of
	 * their own over the graph builder's conv2d and pool ops) stacked by a
	 * build_cnn() here; the input is then seen as [batch][1][8][8].
	 */
	{ "cnn", "LeNet-style convolutional net", 0, 0.0f, NULL,
	  "it needs conv2d and pooling in the graph builder" },
};

const struct train_model *train_model_at(unsigned i)
{
	return i < sizeof(models) / sizeof(models[0]) ? &models[i] : NULL;
}

const struct train_model *train_model_find(const char *name)
{
	const struct train_model *m;

	for (unsigned i = 0; (m = train_model_at(i)); i++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}
