/* SPDX-License-Identifier: MIT */
/*
 * A pipelined (model-parallel) MLP (docs/builder.md "Multi-IPU graphs"):
 * four dense layers with ReLU, the mean cross-entropy and SGD, its layers
 * placed on the IPUs of a graph of 2 or 4 IPUs (ipu_graph_create_multi(),
 * ipu_graph_map_ipu()) with the activations and their gradients copied
 * across the links between stages; three training steps give the weights
 * and the losses of the same model on one IPU, bit for bit: each stage's
 * matmuls are planned within its IPU, which has as many tiles as the
 * single IPU, so every sum has the same terms in the same order.
 * Included by multi_tests.h.
 */
#ifndef PIPELINE_TESTS_H
#define PIPELINE_TESTS_H

enum { PL_B = 16, PL_L = 4, PL_STEPS = 3 };
static const uint32_t pl_width[PL_L + 1] = { 16, 32, 32, 24, 8 };
#define PL_LR 0.25f

/* a [r][c] f32 tensor on IPU @ipu, exposed read-write when @rw; -1 on error */
static int pl_tensor(struct ipu_graph *g, const char *name, uint32_t r, uint32_t c,
		     unsigned ipu, bool rw)
{
	int t = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 2, (uint32_t[]){ r, c }, &err);

	if (t < 0 || ipu_graph_map_ipu(g, t, ipu, 0, &err) < 0 ||
	    (rw && ipu_graph_expose(g, t, NULL, IPU_HANDLE_RW, &err) < 0))
		return -1;
	return t;
}

/* @src copied into a new tensor @name on IPU @ipu (across the links when it is elsewhere) */
static int pl_to_ipu(struct ipu_graph *g, int seq, int src, const char *name, unsigned ipu)
{
	struct ipu_tensor_desc d;
	int t, c;

	if (ipu_graph_tensor_desc(g, src, &d, &err) < 0)
		return -1;
	t = pl_tensor(g, name, d.shape[0], d.shape[1], ipu, false);
	if (t < 0 || (c = ipu_prog_copy(g, ipu_slice_all(g, src), ipu_slice_all(g, t), &err)) < 0 ||
	    ipu_prog_append(g, seq, c, &err) < 0)
		return -1;
	return t;
}

/*
 * The training step of the MLP with layer l on IPU l * @stages / PL_L
 * (@stages 1: a single-IPU graph). Handles x, t, w0..w3 (RW), loss (a
 * scalar, read). Program "step". 0 or -1.
 */
static int pl_graph(struct ipu_graph *g, unsigned stages, int w[PL_L])
{
	int seq = ipu_prog_sequence(g, &err), x, t, a[PL_L], h[PL_L], dz, dl, da, loss;
	int dw[PL_L];
	char n[32];

	x = pl_tensor(g, "x", PL_B, pl_width[0], 0, true);
	t = pl_tensor(g, "t", PL_B, pl_width[PL_L], stages - 1, true);
	if (seq < 0 || x < 0 || t < 0)
		return -1;
	for (int l = 0; l < PL_L; l++) {
		unsigned s = l * stages / PL_L;

		snprintf(n, sizeof(n), "w%d", l);
		w[l] = pl_tensor(g, n, pl_width[l], pl_width[l + 1], s, true);
		snprintf(n, sizeof(n), "a%d", l);	/* the stage's input, on its IPU */
		a[l] = pl_to_ipu(g, seq, l ? h[l - 1] : x, n, s);
		snprintf(n, sizeof(n), "z%d", l);
		if (w[l] < 0 || a[l] < 0 || (h[l] = ipu_matmul(g, seq, a[l], w[l], n, NULL, &err)) < 0)
			return -1;
		snprintf(n, sizeof(n), "h%d", l);
		if (l < PL_L - 1 &&
		    (h[l] = ipu_nonlinearity(g, seq, IPU_NL_RELU, h[l], n, &err)) < 0)
			return -1;
	}
	loss = ipu_cross_entropy(g, seq, h[PL_L - 1], t, "loss", "dlogits", &dl, &err);
	if (loss < 0 || ipu_graph_expose(g, loss, NULL, IPU_HANDLE_READ, &err) < 0)
		return -1;
	dz = dl;
	for (int l = PL_L - 1; l >= 0; l--) {
		unsigned prev = (l ? l - 1 : 0) * stages / PL_L;

		snprintf(n, sizeof(n), "dw%d", l);
		dw[l] = ipu_matmul_ex(g, seq, a[l], dz, IPU_MATMUL_TRANSPOSE_A, n, NULL, &err);
		if (dw[l] < 0)
			return -1;
		if (!l)
			break;
		snprintf(n, sizeof(n), "da%d", l);
		da = ipu_matmul_ex(g, seq, dz, w[l], IPU_MATMUL_TRANSPOSE_B, n, NULL, &err);
		snprintf(n, sizeof(n), "dh%d", l - 1);	/* back to the previous stage */
		if (da < 0 || (da = pl_to_ipu(g, seq, da, n, prev)) < 0)
			return -1;
		snprintf(n, sizeof(n), "dz%d", l - 1);
		dz = ipu_nonlinearity_grad(g, seq, IPU_NL_RELU, h[l - 1], da, n, &err);
		if (dz < 0)
			return -1;
	}
	for (int l = 0; l < PL_L; l++)
		if (ipu_scaled_add(g, seq, w[l], dw[l], -PL_LR, &err) < 0)
			return -1;
	return ipu_graph_add_program(g, "step", seq, &err) < 0 ? -1 : 0;
}

struct pl_result {
	float w[PL_L][32 * 32];
	float loss[PL_STEPS];
};

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
	ASSERT_EQ(0, pl_graph(g, stages, w)) TH_LOG("%u stages: %s", stages, err.msg);
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
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(float) * PL_B * pl_width[0], &err));
	ASSERT_CALL(ipu_tensor_write(d, "t", t, sizeof(float) * PL_B * pl_width[PL_L], &err));
	for (int l = 0; l < PL_L; l++) {
		char n[8];

		snprintf(n, sizeof(n), "w%d", l);
		ASSERT_CALL(ipu_tensor_write(d, n, w0[l], sizeof(float) * pl_width[l] * pl_width[l + 1],
					     &err));
	}
	for (int s = 0; s < PL_STEPS; s++) {
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "loss", &out->loss[s], sizeof(float), &err));
	}
	for (int l = 0; l < PL_L; l++) {
		char n[8];

		snprintf(n, sizeof(n), "w%d", l);
		ASSERT_CALL(ipu_tensor_read(d, n, out->w[l], sizeof(float) * pl_width[l] * pl_width[l + 1],
					    &err));
	}
	ipu_device_close(d);
}

/* the model pipelined over @stages IPUs against one IPU, bit for bit */
static void pl_check(struct __test_metadata *_metadata, unsigned stages)
{
	static float x[PL_B * 16], t[PL_B * 8], w0[PL_L][32 * 32];
	static struct pl_result one, pipe;
	double moved = 0;

	rng = 777;
	fill_rand(x, PL_B * pl_width[0]);
	memset(t, 0, sizeof(t));
	for (int n = 0; n < PL_B; n++)
		t[n * pl_width[PL_L] + (n * 5) % pl_width[PL_L]] = 1;
	for (int l = 0; l < PL_L; l++)
		fill_rand(w0[l], pl_width[l] * pl_width[l + 1]);
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
