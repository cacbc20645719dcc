// SPDX-License-Identifier: MIT
/*
 * A pipelined model on the cards (VM, an M2000; run by
 * tests/library/group/run.sh): the MLP of tests/common/ipu_pipeline_graph.h
 * with its four layers over 2 IPUs on device 4 (a pair) and over 4 IPUs on
 * device 6 (all four cards), the stages joined by cross-IPU copies over
 * the links, trains three steps to the weights and losses of the same
 * model on one IPU of the model device, bit for bit (and of the model
 * device of as many IPUs). KTAP on stdout; without an M2000 the card tests
 * skip.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipudev.h"
#include "ipu/ipu_models.h"
#include "ipu_pipeline_graph.h"

#define NTESTS	5

#include "ipu_ktap.h"

/*
 * Build the MLP for @stages IPUs, load it on @dev (the model device of
 * @stages IPUs when NULL) and train: the results into @out.
 */
static int train(unsigned stages, struct ipu_device *dev, const float *x, const float *t,
		 float w0[PL_L][32 * 32], struct pl_result *out, struct ipu_error *e)
{
	struct ipu_device *model = NULL;
	struct ipu_graph *g;
	void *bin = NULL;
	size_t len = 0;
	int w[PL_L];
	int r = stages > 1 ? ipu_graph_create_multi(IPU_MODEL_TEST, stages, &g, e)
			   : ipu_graph_create(IPU_MODEL_TEST, &g, e);

	if (r)
		return r;
	r = pl_graph(g, stages, w, e);
	if (!r)
		r = ipu_graph_write(g, &bin, &len, e);
	ipu_graph_free(g);
	if (!r && !dev)
		r = ipu_model_open_multi("test", stages, NULL, 1, &model, e);
	if (!r)
		r = ipu_load(dev ? dev : model, bin, len, e);
	if (!r)
		r = pl_run(dev ? dev : model, x, t, w0, out, e);
	ipu_device_close(model);
	free(bin);
	return r;
}

static int same(const struct pl_result *a, const struct pl_result *b)
{
	for (int l = 0; l < PL_L; l++)
		if (memcmp(a->w[l], b->w[l], sizeof(float) * pl_width[l] * pl_width[l + 1]))
			return 0;
	return !memcmp(a->loss, b->loss, sizeof(a->loss));
}

int main(void)
{
	static float x[PL_B * 16], t[PL_B * 8], w0[PL_L][32 * 32];
	static struct pl_result one, model, card;
	static const unsigned ids[2] = { 4, 6 }, stages[2] = { 2, 4 };
	struct ipu_error e = { 0 };
	int r;

	printf("KTAP version 1\n1..%d\n", NTESTS);
	pl_inputs(x, t, w0);
	r = train(1, NULL, x, t, w0, &one, &e);
	kt(!r && one.loss[PL_STEPS - 1] < one.loss[0], "group_pipeline.one_ipu_trains",
	   r ? e.msg : "the loss did not go down");
	for (int i = 0; i < 2; i++) {
		struct ipu_device *dev = NULL;
		char name[64];

		r = train(stages[i], NULL, x, t, w0, &model, &e);
		snprintf(name, sizeof(name), "group_pipeline.model_%u_ipus_equal_one_ipu", stages[i]);
		kt(!r && same(&model, &one), name, r ? e.msg : "results differ from one IPU's");
		r = ipu_group_device_open(ids[i], IPU_OPEN_ATTACH, &dev, &e);
		snprintf(name, sizeof(name), "group_pipeline.device_%u_equals_one_ipu", ids[i]);
		if (r) {
			printf("ok %d %s # SKIP no M2000 (device %u: %s)\n", ++kt_n, name, ids[i],
			       e.msg);
			continue;
		}
		r = train(stages[i], dev, x, t, w0, &card, &e);
		kt(!r && same(&card, &one), name, r ? e.msg : "results differ from one IPU's");
		ipu_device_close(dev);
	}
	printf("# %d failed\n", kt_fail);
	return kt_fail ? 1 : 0;
}
