/* SPDX-License-Identifier: MIT */
/*
 * A pipelined (model-parallel) MLP (tests/common/ipu_pipeline_graph.h):
 * its layers placed on the IPUs of a graph of 2 or 4 IPUs
 * (ipu_graph_create_multi(), ipu_graph_map_ipu()) with the activations and
 * their gradients copied across the links between stages on the model
 * device of as many IPUs; three training steps give the weights
 * and the losses of the same model on one IPU, bit for bit: each stage's
 * matmuls are planned within its IPU, which has as many tiles as the
 * single IPU, so every sum has the same terms in the same order.
 * Included by multi_tests.h.
 */
#ifndef PIPELINE_TESTS_H
#define PIPELINE_TESTS_H

#include "../../common/ipu_pipeline_graph.h"

/* build for @stages IPUs, check the placement, train PL_STEPS steps from @w0 */
static void pl_train(struct __test_metadata *_metadata, unsigned stages, const float *x,
		     const float *t, float w0[PL_L][32 * 32], struct pl_result *out)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	int w[PL_L];

	if (stages > 1) {
		ASSERT_CALL(ipu_graph_create_multi(IPU_MODEL_TEST, stages, &g, &err));
	} else {
		ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	}
	ASSERT_EQ(0, pl_graph(g, stages, w, &err)) TH_LOG("%u stages: %s", stages, err.msg);
	if (stages > 1) {	/* each layer's weights and products on its IPU */
		const struct ipu_graph_tensor *bt;
		const struct ipu_graph_interval *iv;
		uint32_t nt, ni;
		void *b;
		size_t len;

		ASSERT_CALL(ipu__graph_write_form(g, false, &b, &len, &err));
		bt = bin_section(b, IPU_GRAPH_SEC_TENSORS, &nt, NULL);
		iv = bin_section(b, IPU_GRAPH_SEC_INTERVALS, &ni, NULL);
		ASSERT_TRUE(bt && iv);
		for (int l = 0; l < PL_L; l++) {
			int z = ipu_graph_find_tensor(g, (char[]){ 'z', (char)('0' + l), 0 });

			for (int k = 0; k < 2; k++) {
				const struct ipu_graph_tensor *tt = &bt[k ? z : w[l]];

				for (uint32_t i = 0; i < tt->interval_count; i++)
					ASSERT_EQ(l * stages / PL_L,
						  iv[tt->first_interval + i].tile / TEST_TILES)
						TH_LOG("%u stages: %s of layer %d", stages,
						       k ? "z" : "w", l);
			}
		}
		free(b);
		load_multi(_metadata, g, stages, &d);
	} else {
		load_run(_metadata, g, "test", &d);
	}
	ipu_graph_free(g);
	ASSERT_CALL(pl_run(d, x, t, w0, out, &err));
	ipu_device_close(d);
}

/* the model pipelined over @stages IPUs against one IPU, bit for bit */
static void pl_check(struct __test_metadata *_metadata, unsigned stages)
{
	static float x[PL_B * 16], t[PL_B * 8], w0[PL_L][32 * 32];
	static struct pl_result one, pipe;
	double moved = 0;

	pl_inputs(x, t, w0);
	pl_train(_metadata, 1, x, t, w0, &one);
	pl_train(_metadata, stages, x, t, w0, &pipe);
	for (int l = 0; l < PL_L; l++) {
		EXPECT_EQ(0, memcmp(one.w[l], pipe.w[l], sizeof(float) * pl_width[l] * pl_width[l + 1]))
			TH_LOG("%u stages: weights of layer %d differ from one IPU's", stages, l);
		for (uint32_t i = 0; i < pl_width[l] * pl_width[l + 1]; i++)
			moved = fmax(moved, fabs(one.w[l][i] - w0[l][i]));
	}
	EXPECT_EQ(0, memcmp(one.loss, pipe.loss, sizeof(one.loss)))
		TH_LOG("%u stages: losses %g %g %g, one IPU %g %g %g", stages, pipe.loss[0],
		       pipe.loss[1], pipe.loss[2], one.loss[0], one.loss[1], one.loss[2]);
	EXPECT_GT(one.loss[0], one.loss[PL_STEPS - 1]);	/* it trains */
	EXPECT_LT(1e-3, moved);
}

TEST(pipelined_mlp_2_ipus)
{
	pl_check(_metadata, 2);
}

TEST(pipelined_mlp_4_ipus)
{
	pl_check(_metadata, 4);
}

#endif /* PIPELINE_TESTS_H */
