/* SPDX-License-Identifier: MIT */
/*
 * Replicated graphs (docs/builder.md "Replication"): the binary they expand
 * to, their refusals, and a data-parallel MLP training step whose weights
 * equal the single-IPU step on the global batch. Included by
 * collectives_tests.h.
 */
#ifndef REPLICATE_TESTS_H
#define REPLICATE_TESTS_H

TEST(replicated_binary)
{
	struct ipu_graph *g;
	uint32_t s[1] = { 8 }, s6[6] = { 1, 1, 1, 1, 1, 2 }, n, tiles = 0;
	int x, y, seq, st;
	void *b;
	size_t len;
	const struct ipu_graph_tensor *t;
	const struct ipu_graph_interval *iv;
	const struct ipu_graph_ipus *ip;

	ASSERT_CALL(ipu_graph_create_replicated(IPU_MODEL_TEST, 4, &g, &err));
	EXPECT_EQ(4u, ipu_graph_replicas(g));
	EXPECT_EQ(4u, ipu_graph_ipus(g));
	EXPECT_EQ(TEST_TILES, ipu_graph_tiles(g));
	expect_err(_metadata, ipu_graph_ipu_tiles(g, 1, NULL, NULL, &err), "built as one replica",
		   "IPU 1 of a replicated graph");
	ASSERT_CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, s, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, x, 0, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(y = ipu_unary(g, seq, IPU_OP_NEG, x, "y", &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	ASSERT_CALL(st = ipu_graph_add_stream(g, "in", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, 8, 1,
					      &err));
	expect_err(_metadata, ipu_prog_stream_copy(g, st, x, &err), "not supported in a replicated",
		   "stream copy in a replicated graph");
	ASSERT_CALL(ipu__graph_write_form(g, false, &b, &len, &err));
	ip = bin_section(b, IPU_GRAPH_SEC_IPUS, &n, NULL);
	ASSERT_NE(NULL, ip);
	EXPECT_EQ(4u, ip->ipus);
	t = bin_section(b, IPU_GRAPH_SEC_TENSORS, &n, NULL);
	iv = bin_section(b, IPU_GRAPH_SEC_INTERVALS, &n, NULL);
	ASSERT_TRUE(t && iv);
	EXPECT_EQ(2, t[x].rank);
	EXPECT_EQ(4u, t[x].shape[0]);
	EXPECT_EQ(8u, t[x].shape[1]);
	EXPECT_EQ(32u, t[x].elements);
	for (uint32_t k = 0; k < t[x].interval_count; k++) {
		const struct ipu_graph_interval *v = &iv[t[x].first_interval + k];

		/* replica r's elements [8 r, 8 r + 8) on IPU r */
		EXPECT_EQ(v->begin / 8, v->tile / TEST_TILES);
		tiles |= 1u << (v->tile / TEST_TILES);
	}
	EXPECT_EQ(0xfu, tiles);
	EXPECT_EQ(2, t[y].rank);
	free(b);
	/* a rank-6 tensor would have rank 7 */
	ASSERT_CALL(x = ipu_graph_add_tensor(g, "r6", IPU_DTYPE_F32, 6, s6, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, x, 0, &err));
	expect_err(_metadata, ipu_graph_write(g, &b, &len, &err), "would have 7", "rank 6 replicated");
	ipu_graph_free(g);
}

enum { DP_B = 32, DP_I = 16, DP_H = 16, DP_C = 8 };
#define DP_LR 0.5f

/* a [r][c] f32 tensor spread over the tiles, exposed read-write */
static int dp_tensor(struct ipu_graph *g, const char *name, uint32_t r, uint32_t c)
{
	uint32_t shape[2] = { r, c };
	int t = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 2, shape, &err);

	if (t < 0 || ipu_graph_map_linear(g, t, 0, &err) < 0 ||
	    ipu_graph_expose(g, t, NULL, IPU_HANDLE_RW, &err) < 0)
		return -1;
	return t;
}

/*
 * One SGD step of logits = relu(x w1) w2 with the mean cross-entropy of a
 * batch of @B: the gradients all-reduced (mean) over the replicas when
 * @replicas > 1. Program "step". 0 or -1.
 */
static int dp_step_graph(struct ipu_graph *g, uint32_t B, unsigned replicas)
{
	int seq = ipu_prog_sequence(g, &err);
	int x = dp_tensor(g, "x", B, DP_I), t = dp_tensor(g, "t", B, DP_C);
	int w1 = dp_tensor(g, "w1", DP_I, DP_H), w2 = dp_tensor(g, "w2", DP_H, DP_C);
	int z, h, logits, dl, dw2, dh, dz, dw1;

	if (seq < 0 || x < 0 || t < 0 || w1 < 0 || w2 < 0 ||
	    (z = ipu_matmul(g, seq, x, w1, "z", NULL, &err)) < 0 ||
	    (h = ipu_nonlinearity(g, seq, IPU_NL_RELU, z, "h", &err)) < 0 ||
	    (logits = ipu_matmul(g, seq, h, w2, "logits", NULL, &err)) < 0 ||
	    ipu_cross_entropy(g, seq, logits, t, "loss", "dlogits", &dl, &err) < 0 ||
	    (dw2 = ipu_matmul_ex(g, seq, h, dl, IPU_MATMUL_TRANSPOSE_A, "dw2", NULL, &err)) < 0 ||
	    (dh = ipu_matmul_ex(g, seq, dl, w2, IPU_MATMUL_TRANSPOSE_B, "dh", NULL, &err)) < 0 ||
	    (dz = ipu_nonlinearity_grad(g, seq, IPU_NL_RELU, h, dh, "dz", &err)) < 0 ||
	    (dw1 = ipu_matmul_ex(g, seq, x, dz, IPU_MATMUL_TRANSPOSE_A, "dw1", NULL, &err)) < 0)
		return -1;
	if (replicas > 1 &&
	    (ipu_all_reduce(g, seq, dw1, IPU_COLL_MEAN, IPU_COLL_AUTO, NULL, &err) < 0 ||
	     ipu_all_reduce(g, seq, dw2, IPU_COLL_MEAN, IPU_COLL_AUTO, NULL, &err) < 0))
		return -1;
	if (ipu_scaled_add(g, seq, w1, dw1, -DP_LR, &err) < 0 ||
	    ipu_scaled_add(g, seq, w2, dw2, -DP_LR, &err) < 0 ||
	    ipu_graph_add_program(g, "step", seq, &err) < 0)
		return -1;
	return 0;
}

/* write the batch and @copies copies of the weights, run @steps steps, read the weights back */
static void dp_run(struct __test_metadata *_metadata, struct ipu_device *d, unsigned copies,
		    const float *x, const float *t, const float *w1, const float *w2, unsigned steps,
		    float *w1o, float *w2o)
{
	for (unsigned r = 0; r < copies; r++) {
		ASSERT_CALL(ipu_tensor_write_at(d, "w1", r * sizeof(float) * DP_I * DP_H, w1,
						sizeof(float) * DP_I * DP_H, &err));
		ASSERT_CALL(ipu_tensor_write_at(d, "w2", r * sizeof(float) * DP_H * DP_C, w2,
						sizeof(float) * DP_H * DP_C, &err));
	}
	/* [B][I] on one IPU is [R][B/R][I] replicated: replica r gets rows [r B/R, (r+1) B/R) */
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(float) * DP_B * DP_I, &err));
	ASSERT_CALL(ipu_tensor_write(d, "t", t, sizeof(float) * DP_B * DP_C, &err));
	ASSERT_CALL(ipu_run(d, 0, steps, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "w1", w1o, sizeof(float) * DP_I * DP_H * copies, &err));
	ASSERT_CALL(ipu_tensor_read(d, "w2", w2o, sizeof(float) * DP_H * DP_C * copies, &err));
}

/*
 * Data-parallel training: 4 replicas, each a quarter of the batch, the
 * gradients' mean all-reduced, against one IPU on the whole batch. Three
 * steps; the replicas' weights are bit-identical, and equal the single
 * IPU's within 2e-6 (the sums of a gradient are grouped differently:
 * per replica, then across replicas).
 */
TEST(replicated_mlp_step)
{
	enum { R = 4, W1 = DP_I * DP_H, W2 = DP_H * DP_C };
	static float x[DP_B * DP_I], t[DP_B * DP_C], w1[W1], w2[W2];
	static float s1[W1], s2[W2], r1[R * W1], r2[R * W2];
	struct ipu_graph *g;
	struct ipu_device *d;
	double e = 0, moved = 0;

	fill_rand(x, DP_B * DP_I);
	fill_rand(w1, W1);
	fill_rand(w2, W2);
	memset(t, 0, sizeof(t));
	for (int n = 0; n < DP_B; n++)
		t[n * DP_C + (n * 7) % DP_C] = 1;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_EQ(0, dp_step_graph(g, DP_B, 1)) TH_LOG("single: %s", err.msg);
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	dp_run(_metadata, d, 1, x, t, w1, w2, 3, s1, s2);
	ipu_device_close(d);

	ASSERT_CALL(ipu_graph_create_replicated(IPU_MODEL_TEST, R, &g, &err));
	ASSERT_EQ(0, dp_step_graph(g, DP_B / R, R)) TH_LOG("replicated: %s", err.msg);
	load_multi(_metadata, g, R, &d);
	ipu_graph_free(g);
	dp_run(_metadata, d, R, x, t, w1, w2, 3, r1, r2);
	ipu_device_close(d);

	for (int r = 1; r < R; r++) {
		EXPECT_EQ(0, memcmp(r1, r1 + r * W1, sizeof(float) * W1)) TH_LOG("w1 of replica %d", r);
		EXPECT_EQ(0, memcmp(r2, r2 + r * W2, sizeof(float) * W2)) TH_LOG("w2 of replica %d", r);
	}
	for (int i = 0; i < W1; i++) {
		e = fmax(e, fabs(r1[i] - s1[i]));
		moved = fmax(moved, fabs(s1[i] - w1[i]));
	}
	for (int i = 0; i < W2; i++) {
		e = fmax(e, fabs(r2[i] - s2[i]));
		moved = fmax(moved, fabs(s2[i] - w2[i]));
	}
	TH_LOG("replicated vs single IPU: max |dw| %.3g, weights moved up to %.3g", e, moved);
	EXPECT_GT(2e-6, e);
	EXPECT_LT(1e-3, moved);
}

#endif /* REPLICATE_TESTS_H */
