/* SPDX-License-Identifier: MIT */
/*
 * Tests of batch norm and layer norm (libipudev/norm.c): the forward
 * against a double-precision reference, the backward through the
 * finite-difference checker (gradcheck.h), and the refused inputs.
 * Included by test_builder.c after gradcheck.h.
 */

/*
 * Reference normalisation of x seen as [A][S][B], statistics over A and B
 * per index s (batch norm: A = N, S = C, B = H W; layer norm: A = 1,
 * S = leading, B = normalised; then gamma/beta indexed per s or per b).
 */
static void ref_norm(const float *x, const float *gamma, const float *beta, uint64_t A, uint64_t S,
		     uint64_t B, int per_s, double eps, double *y, double *mean, double *inv_std)
{
	for (uint64_t s = 0; s < S; s++) {
		double m = 0, v = 0;

		for (uint64_t a = 0; a < A; a++)
			for (uint64_t b = 0; b < B; b++)
				m += x[(a * S + s) * B + b];
		m /= (double)(A * B);
		for (uint64_t a = 0; a < A; a++)
			for (uint64_t b = 0; b < B; b++)
				v += (x[(a * S + s) * B + b] - m) * (x[(a * S + s) * B + b] - m);
		v /= (double)(A * B);
		mean[s] = m;
		inv_std[s] = 1 / sqrt(v + eps);
		for (uint64_t a = 0; a < A; a++)
			for (uint64_t b = 0; b < B; b++) {
				uint64_t i = (a * S + s) * B + b, p = per_s ? s : b;

				y[i] = (x[i] - m) * inv_std[s] * gamma[p] + beta[p];
			}
	}
}

/* a norm's forward and its case: x's shape, the kind and the data's offset */
struct norm_case {
	int layer;		/* 0: batch norm, 1: layer norm over the last k dims */
	unsigned k, rank;
	uint32_t shape[4];
	float offset, spread;
};

static int norm_fwd(struct ipu_graph *g, int seq, const int *in, const struct norm_case *c, int *mean,
		    int *inv_std)
{
	if (c->layer)
		return ipu_layer_norm(g, seq, in[0], in[1], in[2], c->k, 1e-5f, "y", mean, inv_std, &err);
	return ipu_batch_norm(g, seq, in[0], in[1], in[2], 1e-5f, "y", mean, inv_std, &err);
}

/* run one forward case on the model device and compare y, mean, inv_std with ref_norm() */
static void run_norm_forward(struct __test_metadata *_metadata, const struct norm_case *c)
{
	uint64_t n = 1, A, S, B = 1, P = 1, lead = c->layer ? c->rank - c->k : 0;
	uint32_t pshape[4];
	unsigned prank = 0;
	struct ipu_graph *g;
	struct ipu_device *d;
	int in[3], y, mean, is, seq;

	for (unsigned i = 0; i < c->rank; i++)
		n *= c->shape[i];
	for (unsigned i = c->layer ? (unsigned)lead : 1; i < (c->layer ? c->rank : 2u); i++)
		pshape[prank++] = c->shape[i], P *= c->shape[i];
	if (c->layer) {
		A = 1, S = n / P, B = P;
	} else {
		A = c->shape[0], S = c->shape[1], B = n / (A * S);
	}
	float *x = malloc(n * 4), *gb = malloc(2 * P * 4), *got = malloc(n * 4), *gs = malloc(2 * S * 4);
	double *wy = malloc(n * 8), *wm = malloc(S * 8), *wi = malloc(S * 8);

	ASSERT_TRUE(x && gb && got && gs && wy && wm && wi);
	for (uint64_t i = 0; i < n; i++)
		x[i] = c->offset + c->spread * frand();
	fill_rand(gb, 2 * P);
	ref_norm(x, gb, gb + P, A, S, B, !c->layer, 1e-5, wy, wm, wi);
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(in[0] = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, c->rank, c->shape, &err));
	ASSERT_CALL(in[1] = ipu_graph_add_tensor(g, "gamma", IPU_DTYPE_F32, prank, pshape, &err));
	ASSERT_CALL(in[2] = ipu_graph_add_tensor(g, "beta", IPU_DTYPE_F32, prank, pshape, &err));
	for (int i = 0; i < 3; i++)
		ASSERT_CALL(ipu_graph_map_linear(g, in[i], i ? 1 : 4, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(y = norm_fwd(g, seq, in, c, &mean, &is));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	for (int i = 0; i < 3; i++)
		ASSERT_CALL(ipu_graph_expose(g, in[i], NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, mean, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, is, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, n * 4, &err));
	ASSERT_CALL(ipu_tensor_write(d, "gamma", gb, P * 4, &err));
	ASSERT_CALL(ipu_tensor_write(d, "beta", gb + P, P * 4, &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y", got, n * 4, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y/mean", gs, S * 4, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y/inv_std", gs + S, S * 4, &err));
	ipu_device_close(d);
	/*
	 * mean: recursive f32 summation, within M u (|offset| + spread). A mean
	 * off by dm (in units of the deviation) adds dm^2 to the variance:
	 * inv_std within (2e-5 + dm^2) relative, y within 1e-4 + max |dm| (|gamma|
	 * <= 1); with E[x^2] - E[x]^2 the large-offset cases would be off by orders.
	 */
	double dmax = 0, M = (double)(n / S);

	for (uint64_t s = 0; s < S; s++) {
		double dm = fabs(gs[s] - wm[s]) * wi[s];

		ASSERT_TRUE(fabs(gs[s] - wm[s]) <= 0x1p-24 * M * (fabs(c->offset) + c->spread))
			TH_LOG("mean[%llu] %.9g, want %.9g", (unsigned long long)s, gs[s], wm[s]);
		ASSERT_TRUE(fabs(gs[S + s] - wi[s]) <= (2e-5 + dm * dm) * wi[s])
			TH_LOG("inv_std[%llu] %.9g, want %.9g", (unsigned long long)s, gs[S + s], wi[s]);
		dmax = dm > dmax ? dm : dmax;
	}
	EXPECT_GT(1e-4 + dmax, max_err(got, wy, n, 1.0)) TH_LOG("y, layer %d, offset %g", c->layer, c->offset);
	free(x), free(gb), free(got), free(gs), free(wy), free(wm), free(wi);
}

TEST(norm_forward_matches_reference)
{
	static const struct norm_case cases[] = {
		{ 0, 0, 2, { 16, 5 }, 0, 1 },
		{ 0, 0, 2, { 3, 33 }, 2, 3 },
		{ 0, 0, 4, { 2, 3, 5, 7 }, -1, 2 },
		{ 0, 0, 4, { 5, 1, 4, 3 }, 0, 1 },
		{ 1, 1, 2, { 9, 13 }, 0, 1 },
		{ 1, 1, 3, { 2, 3, 17 }, 1, 0.5f },
		{ 1, 2, 3, { 4, 3, 5 }, 0, 2 },
		{ 1, 2, 2, { 6, 7 }, 0, 1 },	/* k = rank: one statistic, rank 0 */
		/* a large mean with a small spread: E[x^2] - E[x]^2 would lose every digit in f32 */
		{ 0, 0, 2, { 64, 3 }, 1000, 0.01f },
		{ 1, 1, 2, { 5, 64 }, -3000, 0.05f },
		/* spread over many tiles: column and row reductions in two stages */
		{ 0, 0, 4, { 8, 16, 9, 9 }, 0.5f, 1 },
		{ 1, 1, 2, { 64, 500 }, 0, 1 },
		{ 1, 3, 3, { 3, 40, 50 }, 0, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_norm_forward(_metadata, &cases[i]);
}

TEST(batch_norm_infer_matches_reference)
{
	enum { N = 3, C = 4, HW = 10 };
	uint32_t sx[4] = { N, C, 2, 5 }, sc[1] = { C };
	static float x[N * C * HW], y[N * C * HW], p[4][C];
	static double want[N * C * HW];
	const char *pn[4] = { "gamma", "beta", "rmean", "rvar" };
	struct ipu_graph *g;
	struct ipu_device *d;
	int tx, t[4], ty, seq;

	fill_rand(x, N * C * HW);
	fill_rand(&p[0][0], 4 * C);
	for (int c = 0; c < C; c++)
		p[3][c] = 0.5f + fabsf(p[3][c]);
	for (int i = 0; i < N * C * HW; i++) {
		int c = i / HW % C;

		want[i] = (x[i] - p[2][c]) / sqrt(p[3][c] + 1e-3) * p[0][c] + p[1][c];
	}
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 4, sx, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tx, 7, &err));
	ASSERT_CALL(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, &err));
	for (int i = 0; i < 4; i++) {
		ASSERT_CALL(t[i] = ipu_graph_add_tensor(g, pn[i], IPU_DTYPE_F32, 1, sc, &err));
		ASSERT_CALL(ipu_graph_map_linear(g, t[i], 1, &err));
		ASSERT_CALL(ipu_graph_expose(g, t[i], NULL, IPU_HANDLE_WRITE, &err));
	}
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(ty = ipu_batch_norm_infer(g, seq, tx, t[0], t[1], t[2], t[3], 1e-3f, "y", &err));
	ASSERT_CALL(ipu_graph_expose(g, ty, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	for (int i = 0; i < 4; i++)
		ASSERT_CALL(ipu_tensor_write(d, pn[i], p[i], sizeof(p[i]), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y", y, sizeof(y), &err));
	ipu_device_close(d);
	EXPECT_GT(1e-5, max_err(y, want, N * C * HW, 1.0));
}

/* --- backward through the gradchecker: in = x, gamma, beta --- */

struct gc_norm {
	struct norm_case c;
	int mean, inv_std;
};

static int gc_norm_fwd(struct ipu_graph *g, int seq, const int *in, void *ctx)
{
	struct gc_norm *n = ctx;

	return norm_fwd(g, seq, in, &n->c, &n->mean, &n->inv_std);
}

static int gc_norm_bwd(struct ipu_graph *g, int seq, const int *in, int y, int w, int *grads, void *ctx)
{
	struct gc_norm *n = ctx;

	(void)y;
	if (n->c.layer)
		grads[0] = ipu_layer_norm_grad(g, seq, in[0], w, n->mean, n->inv_std, in[1], n->c.k, "dx",
					       &grads[1], &grads[2], &err);
	else
		grads[0] = ipu_batch_norm_grad(g, seq, in[0], w, n->mean, n->inv_std, in[1], "dx", &grads[1],
					       &grads[2], &err);
	return grads[0];
}

TEST(gradcheck_norms)
{
	/* seeds 9 (layer norm), 10 (batch norm): an empty batch (numpy: empty dx, zero d_gamma and d_beta) */
	for (uint64_t seed = 1; seed <= 10; seed++) {
		struct gc_norm n = { { (int)(seed & 1), 1, 2, { 0 }, 0, 1 }, -1, -1 };
		struct gc_op op = { "norm", 3, { { "x", GC_RAND, 2, { 0 }, 1, 1.5f, 0.5f, 0, 0 },
						 { "gamma", GC_RAND, 1, { 0 }, 1, 1, 0, 0, 0 },
						 { "beta", GC_RAND, 1, { 0 }, 1, 1, 0, 0, 0 } },
				    gc_norm_fwd, gc_norm_bwd, &n, 0, 0, 0, 16, seed, 0 };
		unsigned bad, lead;

		rng = seed * 13;
		n.c.rank = op.in[0].rank = seed < 5 ? 2 : (n.c.layer ? 3 : 4);
		for (unsigned i = 0; i < n.c.rank; i++)
			op.in[0].shape[i] = n.c.shape[i] = gc_dim(i == 0 && !n.c.layer ? 2 : 1, 6);
		if (seed > 8)
			op.in[0].shape[0] = n.c.shape[0] = 0;
		n.c.k = n.c.layer ? 1 + (unsigned)(seed / 2) % n.c.rank : 0;
		lead = n.c.layer ? n.c.rank - n.c.k : 1;
		op.in[1].rank = op.in[2].rank = n.c.layer ? n.c.k : 1;
		for (unsigned i = 0; i < op.in[1].rank; i++)
			op.in[1].shape[i] = op.in[2].shape[i] = n.c.shape[lead + i];
		op.what = n.c.layer ? "layer_norm" : "batch_norm";
		gc_run(_metadata, &op, &bad);
		ASSERT_EQ(0u, bad) TH_LOG("%s seed %llu, rank %u, k %u", op.what, (unsigned long long)seed,
					  n.c.rank, n.c.k);
	}
}

TEST(norm_ops_refused)
{
	struct ipu_graph *g;
	uint32_t s2[2] = { 4, 3 }, s3[3] = { 4, 3, 2 }, s4[4] = { 2, 3, 2, 2 }, c3[1] = { 3 }, c4[1] = { 4 };
	int x, x3, x4, xi, gm, bt, g4, gi, gu, m, is, dg, db, seq, r;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, s2, &err));
	ASSERT_CALL(x3 = ipu_graph_add_tensor(g, "x3", IPU_DTYPE_F32, 3, s3, &err));
	ASSERT_CALL(x4 = ipu_graph_add_tensor(g, "x4", IPU_DTYPE_F32, 4, s4, &err));
	ASSERT_CALL(xi = ipu_graph_add_tensor(g, "xi", IPU_DTYPE_I32, 2, s2, &err));
	ASSERT_CALL(gm = ipu_graph_add_tensor(g, "gamma", IPU_DTYPE_F32, 1, c3, &err));
	ASSERT_CALL(bt = ipu_graph_add_tensor(g, "beta", IPU_DTYPE_F32, 1, c3, &err));
	ASSERT_CALL(g4 = ipu_graph_add_tensor(g, "gamma4", IPU_DTYPE_F32, 1, c4, &err));
	ASSERT_CALL(gi = ipu_graph_add_tensor(g, "gammai", IPU_DTYPE_I32, 1, c3, &err));
	ASSERT_CALL(gu = ipu_graph_add_tensor(g, "unmapped", IPU_DTYPE_F32, 1, c3, &err));
	ASSERT_CALL(r = ipu_graph_add_tensor(g, "xu", IPU_DTYPE_F32, 2, s2, &err));
	for (int t = x; t <= gi; t++)
		ASSERT_CALL(ipu_graph_map_linear(g, t, 1, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	expect_err(_metadata, ipu_batch_norm(g, seq, x3, gm, bt, 1e-5f, "y", &m, &is, &err),
		   "x 'x3' has rank 3, must be [N][C] or [N][C][H][W]", "bn rank");
	expect_err(_metadata, ipu_batch_norm(g, seq, x, g4, bt, 1e-5f, "y", &m, &is, &err),
		   "gamma 'gamma4' is f32 [4], must be f32 [3]", "bn gamma shape");
	expect_err(_metadata, ipu_batch_norm(g, seq, x4, gm, g4, 1e-5f, "y", &m, &is, &err),
		   "beta 'gamma4' is f32 [4], must be f32 [3]", "bn beta shape");
	expect_err(_metadata, ipu_batch_norm(g, seq, x, gi, bt, 1e-5f, "y", &m, &is, &err),
		   "gamma 'gammai' is i32 [3], must be f32 [3]", "bn gamma dtype");
	expect_err(_metadata, ipu_batch_norm(g, seq, x, gu, bt, 1e-5f, "y", &m, &is, &err),
		   "gamma 'unmapped' is not fully mapped", "bn gamma unmapped");
	expect_err(_metadata, ipu_batch_norm(g, seq, r, gm, bt, 1e-5f, "y", &m, &is, &err),
		   "tensor 'xu' is not fully mapped", "bn x unmapped");
	expect_err(_metadata, ipu_batch_norm(g, seq, xi, gm, bt, 1e-5f, "y", &m, &is, &err),
		   "x 'xi' is i32, must be f32", "bn x dtype");
	expect_err(_metadata, ipu_batch_norm(g, seq, x, gm, bt, 0, "y", &m, &is, &err),
		   "epsilon 0 must be finite and > 0", "bn eps 0");
	expect_err(_metadata, ipu_batch_norm(g, seq, x, gm, bt, -1e-3f, "y", &m, &is, &err),
		   "must be finite and > 0", "bn eps < 0");
	expect_err(_metadata, ipu_batch_norm(g, seq, x, gm, bt, INFINITY, "y", &m, &is, &err),
		   "epsilon inf must be finite", "bn eps inf");
	expect_err(_metadata, ipu_batch_norm(g, seq, x, gm, bt, NAN, "y", &m, &is, &err),
		   "must be finite and > 0", "bn eps nan");
	expect_err(_metadata, ipu_batch_norm(g, seq, x, gm, bt, 1e-5f, "y", NULL, &is, &err),
		   "mean or inv_std is NULL", "bn NULL out");
	expect_err(_metadata, ipu_batch_norm(g, seq, x, gm, bt, 1e-5f, "x3", &m, &is, &err),
		   "a tensor 'x3' already exists", "bn name taken");
	expect_err(_metadata, ipu_batch_norm(g, seq, x, gm, bt, 1e-5f, NULL, &m, &is, &err),
		   "needs a name", "bn NULL name");
	expect_err(_metadata, ipu_batch_norm(NULL, seq, x, gm, bt, 1e-5f, "y", &m, &is, &err),
		   "graph is NULL", "bn NULL graph");
	expect_err(_metadata, ipu_batch_norm_infer(g, seq, x, gm, bt, g4, bt, 1e-5f, "y", &err),
		   "mean 'gamma4' is f32 [4], must be f32 [3]", "infer mean shape");
	expect_err(_metadata, ipu_batch_norm_infer(g, seq, x, gm, bt, gm, gu, 1e-5f, "y", &err),
		   "var 'unmapped' is not fully mapped", "infer var unmapped");
	expect_err(_metadata, ipu_batch_norm_infer(g, seq, x, gm, bt, gm, bt, -2, "y", &err),
		   "epsilon -2 must be", "infer eps");
	expect_err(_metadata, ipu_layer_norm(g, seq, x, gm, bt, 3, 1e-5f, "y", &m, &is, &err),
		   "last 3 dimensions of x 'x' of rank 2", "ln k > rank");
	expect_err(_metadata, ipu_layer_norm(g, seq, x, gm, bt, 0, 1e-5f, "y", &m, &is, &err),
		   "last 0 dimensions", "ln k 0");
	expect_err(_metadata, ipu_layer_norm(g, seq, x3, gm, bt, 1, 1e-5f, "y", &m, &is, &err),
		   "gamma 'gamma' is f32 [3], must be f32 [2]", "ln gamma shape");
	expect_err(_metadata, ipu_layer_norm(g, seq, x, gm, bt, 1, -0.0f, "y", &m, &is, &err),
		   "must be finite and > 0", "ln eps -0");
	/* the backward: its statistics and dy checked against x */
	ASSERT_CALL(ipu_batch_norm(g, seq, x, gm, bt, 1e-5f, "bn", &m, &is, &err));
	expect_err(_metadata, ipu_batch_norm_grad(g, seq, x, x3, m, is, gm, "dx", &dg, &db, &err),
		   "dy 'x3' is f32 [4, 3, 2], must be f32 [4, 3]", "bn grad dy");
	expect_err(_metadata, ipu_batch_norm_grad(g, seq, x, x, g4, is, gm, "dx", &dg, &db, &err),
		   "mean 'gamma4' is f32 [4], must be f32 [3]", "bn grad mean");
	expect_err(_metadata, ipu_batch_norm_grad(g, seq, x, x, m, x, gm, "dx", &dg, &db, &err),
		   "inv_std 'x' is f32 [4, 3], must be f32 [3]", "bn grad inv_std");
	expect_err(_metadata, ipu_batch_norm_grad(g, seq, x, x, m, is, gm, "dx", NULL, &db, &err),
		   "d_gamma or d_beta is NULL", "bn grad NULL out");
	expect_err(_metadata, ipu_batch_norm_grad(g, seq, x, x, m, is, gm, "bn", &dg, &db, &err),
		   "a tensor 'bn' already exists", "bn grad name");
	ASSERT_CALL(ipu_layer_norm(g, seq, x, gm, bt, 1, 1e-5f, "ln", &m, &is, &err));
	expect_err(_metadata, ipu_layer_norm_grad(g, seq, x, x, m, is, g4, 1, "dx", &dg, &db, &err),
		   "gamma 'gamma4' is f32 [4], must be f32 [3]", "ln grad gamma");
	expect_err(_metadata, ipu_layer_norm_grad(g, seq, x, x, gm, is, gm, 1, "dx", &dg, &db, &err),
		   "mean 'gamma' is f32 [3], must be f32 [4]", "ln grad mean");
	expect_err(_metadata, ipu_layer_norm_grad(g, seq, x, x, m, is, gm, 2, "dx", &dg, &db, &err),
		   "mean 'ln/mean' is f32 [4], must be f32 []", "ln grad k");
	/* a temporary's name taken: -EEXIST naming it */
	ASSERT_CALL(r = ipu_graph_add_tensor(g, "ln2/sum", IPU_DTYPE_F32, 1, c3, &err));
	expect_err(_metadata, ipu_layer_norm(g, seq, x, gm, bt, 1, 1e-5f, "ln2", &m, &is, &err),
		   "'ln2/sum' already exists", "temporary name taken");
	ASSERT_EQ(-EEXIST, ipu_layer_norm(g, seq, x, gm, bt, 1, 1e-5f, "ln2", &m, &is, &err));
	ASSERT_EQ(-ENOENT, ipu_graph_find_tensor(g, "dx"));
	ASSERT_CALL(ipu_layer_norm_grad(g, seq, x, x, m, is, gm, 1, "dx", &dg, &db, &err));
	ipu_graph_free(g);
}

/* the worked example of docs/builder.md ("Normalisation"), to its printed digits */
TEST(norm_docs_example)
{
	static const float x[8] = { 1, 10, 2, 20, 3, 30, 4, 50 }, gb[4] = { 1, 0.5f, 0, 1 },
			   dy[8] = { 1, 0, 0, 0, 0, 0, 0, 1 };
	static const float want_y[8] = { -1.3416f, 0.4084f, -0.4472f, 0.7465f, 0.4472f, 1.0845f, 1.3416f, 1.7606f };
	static const float want_dx[8] = { 0.2683f, 0.0068f, -0.3578f, -0.0019f, -0.0894f, -0.0106f, 0.1789f, 0.0058f };
	static const float want_dgb[4] = { -1.3416f, 1.5213f, 1, 1 };
	uint32_t sx[2] = { 4, 2 }, sc[1] = { 2 };
	struct ipu_graph *g;
	struct ipu_device *d;
	int tx, tg, tb, tdy, mean, is, y, dx, dgm, dbt, seq;
	float got[8];

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, sx, &err));
	ASSERT_CALL(tdy = ipu_graph_add_tensor(g, "dy", IPU_DTYPE_F32, 2, sx, &err));
	ASSERT_CALL(tg = ipu_graph_add_tensor(g, "gamma", IPU_DTYPE_F32, 1, sc, &err));
	ASSERT_CALL(tb = ipu_graph_add_tensor(g, "beta", IPU_DTYPE_F32, 1, sc, &err));
	for (int t = tx; t <= tb; t++)
		ASSERT_CALL(ipu_graph_map_linear(g, t, 1, &err));
	ASSERT_CALL(ipu_graph_set_initial(g, tx, x, sizeof(x), &err));
	ASSERT_CALL(ipu_graph_set_initial(g, tdy, dy, sizeof(dy), &err));
	ASSERT_CALL(ipu_graph_set_initial(g, tg, gb, 8, &err));
	ASSERT_CALL(ipu_graph_set_initial(g, tb, gb + 2, 8, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(y = ipu_batch_norm(g, seq, tx, tg, tb, 1e-5f, "bn", &mean, &is, &err));
	ASSERT_CALL(dx = ipu_batch_norm_grad(g, seq, tx, tdy, mean, is, tg, "bn_grad", &dgm, &dbt, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, dx, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, dgm, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, dbt, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "bn", got, sizeof(got), &err));
	for (int i = 0; i < 8; i++) {
		EXPECT_GT(6e-5, fabs(got[i] - want_y[i])) TH_LOG("y[%d] %.6f, docs %.4f", i, got[i], want_y[i]);
	}
	ASSERT_CALL(ipu_tensor_read(d, "bn_grad", got, sizeof(got), &err));
	for (int i = 0; i < 8; i++) {
		EXPECT_GT(6e-5, fabs(got[i] - want_dx[i])) TH_LOG("dx[%d] %.6f, docs %.4f", i, got[i], want_dx[i]);
	}
	ASSERT_CALL(ipu_tensor_read(d, "bn_grad/d_gamma", got, 8, &err));
	ASSERT_CALL(ipu_tensor_read(d, "bn_grad/d_beta", got + 2, 8, &err));
	for (int i = 0; i < 4; i++) {
		EXPECT_GT(6e-5, fabs(got[i] - want_dgb[i])) TH_LOG("d_gamma/d_beta[%d] %.6f", i, got[i]);
	}
	ipu_device_close(d);
}
