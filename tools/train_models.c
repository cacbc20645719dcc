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

/*
 * LeNet-style CNN on the 8x8 digits: conv 1->8 3x3 (padding 1), ReLU, max
 * pool 2x2 -> 8x4x4; conv 8->16 3x3 (padding 1), ReLU, max pool 2x2 ->
 * 16x2x2; flattened to 64, dense 64-10.
 */
static int build_cnn(struct train_net *net, struct ipu_error *err)
{
	const uint32_t in[3] = { 1, 8, 8 }, c1[3] = { 8, 8, 8 }, p1[3] = { 8, 4, 4 },
		       c2[3] = { 16, 4, 4 }, p2[3] = { 16, 2, 2 };

	if (net->in_features != in[0] * in[1] * in[2])
		return tool_error(err, -EINVAL, "ipu-train: the cnn wants 8x8 images, not %u pixels",
				  net->in_features);
	if (!train_to_image(net, "image", in, err) ||
	    !train_conv(net, "conv1", in, c1[0], 3, 1, err) ||
	    !train_relu(net, "relu1", 8 * 8 * 8, err) ||
	    !train_maxpool(net, "pool1", c1, 2, err) ||
	    !train_conv(net, "conv2", p1, c2[0], 3, 1, err) ||
	    !train_relu(net, "relu2", 16 * 4 * 4, err) ||
	    !train_maxpool(net, "pool2", c2, 2, err) ||
	    !train_flatten(net, "flat", p2, err) ||
	    !train_dense(net, "fc", 16 * 2 * 2, net->classes, err))
		return err->code;
	return 0;
}

static const struct train_model models[] = {
	{ "softmax", "softmax regression, 64-10", 15, 0.05f, build_softmax },
	{ "mlp", "multi-layer perceptron, 64-128-10, ReLU", 15, 0.05f, build_mlp },
	{ "cnn", "LeNet-style CNN: conv 3x3 1-8, ReLU, max pool 2x2,\n"
	  "                                   conv 3x3 8-16, ReLU, max pool 2x2, 64-10",
	  15, 0.05f, build_cnn },
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
