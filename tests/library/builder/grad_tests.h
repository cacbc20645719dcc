/* SPDX-License-Identifier: MIT */
/*
 * Finite-difference checks (gradcheck.h) of the backward ops: softmax,
 * log-softmax, cross-entropy (one-hot and i32 labels), the nonlinearities,
 * matmul (gradients through ipu_matmul_ex() transposes), scaled_add and a
 * broadcast binary op, over random shapes with fixed seeds; and a negative
 * control: a wrong backward is caught. Included by test_builder.c after
 * gradcheck.h.
 */

/* --- softmax, log-softmax --- */

static int gc_softmax_fwd(struct ipu_graph *g, int seq, const int *in, void *ctx)
{
	return *(int *)ctx ? ipu_log_softmax(g, seq, in[0], "y", &err) : ipu_softmax(g, seq, in[0], "y", &err);
}

static int gc_softmax_bwd(struct ipu_graph *g, int seq, const int *in, int y, int w, int *grads, void *ctx)
{
	(void)in;
	grads[0] = *(int *)ctx ? ipu_log_softmax_grad(g, seq, y, w, "dx", &err) :
				 ipu_softmax_grad(g, seq, y, w, "dx", &err);
	return grads[0];
}

TEST(gradcheck_softmax)
{
	for (int log = 0; log < 2; log++) {
		/* seed 4: an empty batch (numpy: empty y and dx) */
		for (uint64_t seed = 1; seed <= 4; seed++) {
			struct gc_op op = { "softmax", 1, { { "x", GC_RAND, 2, { 0 }, 1, 3, 0, 0, 0 } },
					    gc_softmax_fwd, gc_softmax_bwd, &log, 0, 0, 0, 0, seed * 7 + (uint64_t)log, 0 };
			unsigned bad;

			rng = seed;
			op.what = log ? "log_softmax" : "softmax";
			op.in[0].rank = 1 + seed % 3;
			for (unsigned i = 0; i < op.in[0].rank; i++)
				op.in[0].shape[i] = gc_dim(1, 9);
			op.in[0].shape[op.in[0].rank - 1] = gc_dim(2, 13);
			if (seed == 4)
				op.in[0].shape[0] = 0;
			gc_run(_metadata, &op, &bad);
			ASSERT_EQ(0u, bad) TH_LOG("%s, seed %llu", op.what, (unsigned long long)seed);
		}
	}
}

/* --- cross-entropy: in[1] targets (f32) or labels (i32); the loss scaled by w --- */

struct gc_ce {
	int labels, grad;
};

static int gc_ce_fwd(struct ipu_graph *g, int seq, const int *in, void *ctx)
{
	struct gc_ce *c = ctx;

	return c->labels ? ipu_cross_entropy_labels(g, seq, in[0], in[1], "loss", "dlogits", &c->grad, &err) :
			   ipu_cross_entropy(g, seq, in[0], in[1], "loss", "dlogits", &c->grad, &err);
}

static int gc_ce_bwd(struct ipu_graph *g, int seq, const int *in, int y, int w, int *grads, void *ctx)
{
	(void)in, (void)y;
	grads[0] = ipu_binary(g, seq, IPU_OP_MUL, ((struct gc_ce *)ctx)->grad, w, "dx", &err);
	return grads[0];
}

TEST(gradcheck_cross_entropy)
{
	for (int labels = 0; labels < 2; labels++) {
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct gc_ce c = { labels, -1 };
			struct gc_op op = { "cross_entropy", 2, {
				{ "logits", GC_RAND, 2, { 0 }, 1, 4, 0, 0, 0 },
				{ "targets", labels ? GC_LABELS : GC_ONEHOT, labels ? 1 : 2, { 0 }, 0, 1, 0, 0, 5 },
			}, gc_ce_fwd, gc_ce_bwd, &c, 0, 0, 0, 0, seed + 100 * (uint64_t)labels, 0 };
			unsigned bad;

			rng = seed + 40;
			op.in[0].shape[0] = op.in[1].shape[0] = gc_dim(1, 9);
			op.in[0].shape[1] = op.in[1].shape[1] = gc_dim(2, 11);
			op.in[1].classes = op.in[0].shape[1];
			gc_run(_metadata, &op, &bad);
			ASSERT_EQ(0u, bad) TH_LOG("%s, seed %llu", labels ? "labels" : "one-hot",
						  (unsigned long long)seed);
		}
	}
}

/* --- nonlinearities: ctx the type --- */

static int gc_nl_fwd(struct ipu_graph *g, int seq, const int *in, void *ctx)
{
	return ipu_nonlinearity(g, seq, *(unsigned *)ctx, in[0], "y", &err);
}

static int gc_nl_bwd(struct ipu_graph *g, int seq, const int *in, int y, int w, int *grads, void *ctx)
{
	unsigned type = *(unsigned *)ctx;

	grads[0] = ipu_nonlinearity_grad(g, seq, type, type == IPU_NL_GELU ? in[0] : y, w, "dx", &err);
	return grads[0];
}

TEST(gradcheck_nonlinearities)
{
	for (unsigned type = IPU_NL_RELU; type <= IPU_NL_TANH; type++) {
		struct gc_op op = { "nonlinearity", 1, { { "x", GC_AWAY, 3, { 0 }, 1, 2.5f, 0, 0, 0 } },
				    gc_nl_fwd, gc_nl_bwd, &type, 0, 0, 0, 0, type, 0 };
		unsigned bad;

		rng = type + 9;
		for (unsigned i = 0; i < 3; i++)
			op.in[0].shape[i] = gc_dim(1, 7);
		if (type == IPU_NL_TANH)	/* an empty input: empty y and dx */
			op.in[0].shape[1] = 0;
		gc_run(_metadata, &op, &bad);
		ASSERT_EQ(0u, bad) TH_LOG("nonlinearity %u", type);
	}
}

/* a wrong backward: tanh's rule y' = 1 - y^2 applied to a sigmoid's output */
static int gc_nl_bwd_wrong(struct ipu_graph *g, int seq, const int *in, int y, int w, int *grads, void *ctx)
{
	(void)in, (void)ctx;
	grads[0] = ipu_nonlinearity_grad(g, seq, IPU_NL_TANH, y, w, "dx", &err);
	return grads[0];
}

/* the checker can fail: the right backward passes, a wrong one is flagged almost everywhere */
TEST(gradcheck_catches_wrong_gradient)
{
	unsigned type = IPU_NL_SIGMOID;
	struct gc_op op = { "sigmoid", 1, { { "x", GC_RAND, 2, { 5, 7 }, 1, 2, 0, 0, 0 } },
			    gc_nl_fwd, gc_nl_bwd, &type, 0, 0, 0, 40, 3, 0 };
	unsigned bad;

	gc_run(_metadata, &op, &bad);
	ASSERT_EQ(0u, bad);
	op.backward = gc_nl_bwd_wrong;
	op.quiet = 1;
	gc_run(_metadata, &op, &bad);
	ASSERT_LE(30u, bad) TH_LOG("only %u of 35 elements flagged", bad);
}

/* --- matmul: C = A B; dA = W B^T, dB = A^T W through ipu_matmul_ex() --- */

static int gc_mm_fwd(struct ipu_graph *g, int seq, const int *in, void *ctx)
{
	(void)ctx;
	return ipu_matmul(g, seq, in[0], in[1], "y", NULL, &err);
}

static int gc_mm_bwd(struct ipu_graph *g, int seq, const int *in, int y, int w, int *grads, void *ctx)
{
	(void)y, (void)ctx;
	if ((grads[0] = ipu_matmul_ex(g, seq, w, in[1], IPU_MATMUL_TRANSPOSE_B, "dA", NULL, &err)) < 0)
		return grads[0];
	return grads[1] = ipu_matmul_ex(g, seq, in[0], w, IPU_MATMUL_TRANSPOSE_A, "dB", NULL, &err);
}

TEST(gradcheck_matmul)
{
	/* seeds 5, 6, 7: m, n, k = 0 (numpy: empty C, or zeros for k = 0; the other gradient is 0 or empty) */
	for (uint64_t seed = 1; seed <= 7; seed++) {
		struct gc_op op = { "matmul", 2, { { "A", GC_RAND, 2, { 0 }, 1, 1, 0, 0, 0 },
						   { "B", GC_RAND, 2, { 0 }, 1, 1, 0, 0, 0 } },
				    gc_mm_fwd, gc_mm_bwd, NULL, 0, 0, 0, 0, seed, 0 };
		unsigned bad;

		rng = seed + 77;
		op.in[0].shape[0] = gc_dim(1, 12);
		op.in[0].shape[1] = op.in[1].shape[0] = gc_dim(1, 12);
		op.in[1].shape[1] = gc_dim(1, 12);
		if (seed == 5)
			op.in[0].shape[0] = 0;
		if (seed == 6)
			op.in[1].shape[1] = 0;
		if (seed == 7)
			op.in[0].shape[1] = op.in[1].shape[0] = 0;
		op.in[1].grain = 2;
		gc_run(_metadata, &op, &bad);
		ASSERT_EQ(0u, bad) TH_LOG("seed %llu", (unsigned long long)seed);
	}
}

/* --- scaled_add: x += s y in place; d x = w, d y = s w --- */

static int gc_sa_fwd(struct ipu_graph *g, int seq, const int *in, void *ctx)
{
	return ipu_scaled_add(g, seq, in[0], in[1], *(float *)ctx, &err);
}

static int gc_sa_bwd(struct ipu_graph *g, int seq, const int *in, int y, int w, int *grads, void *ctx)
{
	int r;

	(void)in, (void)y;
	if ((grads[0] = ipu_cast(g, seq, w, IPU_DTYPE_F32, "dx", &err)) < 0 ||
	    (grads[1] = ipu_cast(g, seq, w, IPU_DTYPE_F32, "dy", &err)) < 0)
		return -1;
	/* dy += (s - 1) dy: the y == x case of scaled_add */
	r = ipu_scaled_add(g, seq, grads[1], grads[1], *(float *)ctx - 1, &err);
	return r < 0 ? r : 0;
}

TEST(gradcheck_scaled_add)
{
	float scale = -0.75f;

	for (uint64_t seed = 1; seed <= 2; seed++) {
		struct gc_op op = { "scaled_add", 2, { { "x", GC_RAND, 2, { 0 }, 1, 1, 0, 0, 0 },
						       { "y", GC_RAND, 2, { 0 }, 1, 1, 0, 0, 3 } },
				    gc_sa_fwd, gc_sa_bwd, &scale, 0, 0, 0, 0, seed, 0 };
		unsigned bad;

		rng = seed + 5;
		op.in[0].shape[0] = op.in[1].shape[0] = gc_dim(1, 9);
		op.in[0].shape[1] = op.in[1].shape[1] = gc_dim(1, 9);
		gc_run(_metadata, &op, &bad);
		ASSERT_EQ(0u, bad);
	}
}

/* --- a broadcast product: y = a * b, b [C] or [R, 1] onto a; d b sums over the broadcast axes --- */

static int gc_bc_fwd(struct ipu_graph *g, int seq, const int *in, void *ctx)
{
	(void)ctx;
	return ipu_binary(g, seq, IPU_OP_MUL, in[0], in[1], "y", &err);
}

static int gc_bc_bwd(struct ipu_graph *g, int seq, const int *in, int y, int w, int *grads, void *ctx)
{
	const int *axis = ctx;
	int p;

	(void)y;
	if ((grads[0] = ipu_binary(g, seq, IPU_OP_MUL, w, in[1], "da", &err)) < 0 ||
	    (p = ipu_binary(g, seq, IPU_OP_MUL, w, in[0], "w_a", &err)) < 0)
		return -1;
	return grads[1] = ipu_reduce_axes(g, seq, IPU_REDUCE_SUM, p, axis, 1, "db", &err);
}

TEST(gradcheck_broadcast_mul)
{
	/* per_row 2, 3: as 0, 1 with a's broadcast dimension 0 (numpy: empty y, b's gradient 0) */
	for (int per_row = 0; per_row < 4; per_row++) {
		int axis = per_row & 1;
		struct gc_op op = { "broadcast mul", 2, { { "a", GC_RAND, 2, { 0 }, 1, 1, 0, 0, 0 },
							  { "b", GC_RAND, 0, { 0 }, 1, 1, 0, 0, 0 } },
				    gc_bc_fwd, gc_bc_bwd, &axis, 0, 0, 0, 0, 11 + (uint64_t)per_row, 0 };
		unsigned bad;

		rng = 31 + (uint64_t)per_row;
		op.in[0].shape[0] = gc_dim(2, 9);
		op.in[0].shape[1] = gc_dim(2, 9);
		/* a [R][C]: b [C] (reduced over axis 0) or b [R][1] (over axis 1; kept as [R] by reduce_axes) */
		if (per_row >= 2)
			op.in[0].shape[axis] = 0;
		op.in[1].rank = axis ? 2 : 1;
		op.in[1].shape[0] = axis ? op.in[0].shape[0] : op.in[0].shape[1];
		op.in[1].shape[1] = 1;
		gc_run(_metadata, &op, &bad);
		ASSERT_EQ(0u, bad) TH_LOG("per_row %d", per_row);
	}
}
