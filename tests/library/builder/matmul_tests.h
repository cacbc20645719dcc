/* SPDX-License-Identifier: MIT */
/*
 * Tests of the poplin-level matmuls (libipudev/partition.c): ipu_matmul_ex
 * with transposed operands and ipu_matmul_grouped, f32 and f16 inputs, on
 * the model device against ref_matmul (double) with the tolerance of the
 * matmul test above (max |c - ref| / (|ref| + sqrt(k)) < 1e-5), and their
 * refusals. Included by test_builder.c.
 */

/* one case: G groups (0: ipu_matmul_ex) of op(A) [m][k] x op(B) [k][n] */
struct mmx_case {
	const char *model;
	uint32_t modelid, G, m, n, k;
	unsigned flags, dtype;
	int own_plan;	/* grouped: a plan of the whole chip for one group (forces waves) */
};

/* x [r][c] stored as its transpose [c][r] when t (one group) */
static void mmx_store(const float *x, float *st, uint32_t r, uint32_t c, int t)
{
	for (uint32_t i = 0; i < r; i++)
		for (uint32_t j = 0; j < c; j++) {
			if (t)
				st[(size_t)j * r + i] = x[(size_t)i * c + j];
			else
				st[(size_t)i * c + j] = x[(size_t)i * c + j];
		}
}

/* random logical values (exact in f16 when f16) and their stored bytes (f32 or f16) */
static void *mmx_operand(float *x, size_t n, unsigned dtype, uint32_t r, uint32_t c, uint32_t G, int t)
{
	float *st = malloc(n * sizeof(*st));
	uint16_t *h = malloc(n * sizeof(*h));

	if (!st || !h) {
		free(st);
		free(h);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		x[i] = frand();
		if (dtype == IPU_DTYPE_F16)
			x[i] = ipue_f16_to_f32(ipue_f32_to_f16(x[i]));
	}
	for (uint32_t q = 0; q < G; q++)
		mmx_store(x + (size_t)q * r * c, st + (size_t)q * r * c, r, c, t);
	if (dtype == IPU_DTYPE_F32) {
		free(h);
		return st;
	}
	for (size_t i = 0; i < n; i++)
		h[i] = ipue_f32_to_f16(st[i]);
	free(st);
	return h;
}

/* the graph of case cs: stored operands "a", "b" mapped linearly, the result "c" */
static void mmx_graph(struct __test_metadata *_metadata, const struct mmx_case *cs, struct ipu_graph *g)
{
	int tA = !!(cs->flags & IPU_MATMUL_TRANSPOSE_A), tB = !!(cs->flags & IPU_MATMUL_TRANSPOSE_B);
	uint32_t G = cs->G ? cs->G : 1, rk = cs->G ? 3 : 2, off = rk - 2;
	uint32_t sa[3] = { G }, sb[3] = { G };
	struct ipu_matmul_plan p;
	int ta, tb, tc = -1, seq;

	sa[off] = tA ? cs->k : cs->m;
	sa[off + 1] = tA ? cs->m : cs->k;
	sb[off] = tB ? cs->n : cs->k;
	sb[off + 1] = tB ? cs->k : cs->n;
	ASSERT_CALL(ta = ipu_graph_add_tensor(g, "a", cs->dtype, rk, sa, &err));
	ASSERT_CALL(tb = ipu_graph_add_tensor(g, "b", cs->dtype, rk, sb, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ta, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tb, 1, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	if (!cs->G) {
		ASSERT_CALL(tc = ipu_matmul_ex(g, seq, ta, tb, cs->flags, "c", NULL, &err));
	} else if (cs->own_plan) {
		ASSERT_CALL(ipu_matmul_plan(g, cs->m, cs->n, cs->k, cs->dtype, &p, &err));
		ASSERT_CALL(tc = ipu_matmul_grouped(g, seq, ta, tb, cs->flags, "c", &p, &err));
	} else {
		ASSERT_CALL(tc = ipu_matmul_grouped(g, seq, ta, tb, cs->flags, "c", NULL, &err));
	}
	ASSERT_CALL(ipu_graph_add_program(g, "mm", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tc, NULL, IPU_HANDLE_READ, &err));
}

/* case cs built, run twice (partials re-zeroed) and each group checked against ref_matmul */
static void run_mmx(struct __test_metadata *_metadata, const struct mmx_case *cs)
{
	uint32_t G = cs->G ? cs->G : 1, m = cs->m, n = cs->n, k = cs->k;
	size_t na = (size_t)G * m * k, nb = (size_t)G * k * n, nc = (size_t)G * m * n;
	size_t es = cs->dtype == IPU_DTYPE_F16 ? 2 : 4;
	float *a = malloc(na * sizeof(*a)), *b = malloc(nb * sizeof(*b)), *c = malloc(nc * sizeof(*c));
	double *ref = malloc(nc * sizeof(*ref)), e;
	void *sa, *sb;
	struct ipu_graph *g;
	struct ipu_device *d;

	ASSERT_TRUE(a && b && c && ref);
	sa = mmx_operand(a, na, cs->dtype, m, k, G, !!(cs->flags & IPU_MATMUL_TRANSPOSE_A));
	sb = mmx_operand(b, nb, cs->dtype, k, n, G, !!(cs->flags & IPU_MATMUL_TRANSPOSE_B));
	ASSERT_TRUE(sa && sb);
	ASSERT_CALL(ipu_graph_create(cs->modelid, &g, &err));
	mmx_graph(_metadata, cs, g);
	load_run(_metadata, g, cs->model, &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_tensor_write(d, "a", sa, na * es, &err));
	ASSERT_CALL(ipu_tensor_write(d, "b", sb, nb * es, &err));
	for (int rep = 0; rep < 2; rep++)
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "c", c, nc * sizeof(*c), &err));
	ipu_device_close(d);
	for (uint32_t q = 0; q < G; q++)
		ref_matmul(a + (size_t)q * m * k, b + (size_t)q * k * n, ref + (size_t)q * m * n, m, n, k);
	e = max_err(c, ref, nc, sqrt((double)k));
	free(a);
	free(b);
	free(c);
	free(ref);
	free(sa);
	free(sb);
	ASSERT_TRUE(e < 1e-5)
		TH_LOG("%s G %u %ux%ux%u flags %u %s: max relative error %g", cs->model, cs->G, m, n, k, cs->flags,
		       ipu_dtype_name(cs->dtype), e);
}

/* all four transpose combinations of each size */
static void run_mmx_flags(struct __test_metadata *_metadata, struct mmx_case cs)
{
	for (unsigned f = 0; f < 4; f++) {
		cs.flags = f;
		run_mmx(_metadata, &cs);
	}
}

#define MMX_F32 IPU_DTYPE_F32
#define MMX_F16 IPU_DTYPE_F16

TEST(matmul_transposed_test_chip)
{
	static const uint32_t sz[][3] = {	/* m, n, k: 1s, odd, many tiles, K split */
		{ 1, 1, 1 }, { 1, 7, 5 }, { 9, 1, 13 }, { 5, 3, 1 }, { 37, 53, 29 }, { 130, 70, 33 }, { 8, 8, 700 },
		{ 2, 300, 40 },		/* 2 rows shared out over 30 tiles: most transpose shares empty */
		{ 256, 256, 256 },	/* K split over 2 tiles and 3 serial steps */
	};

	for (size_t i = 0; i < sizeof(sz) / sizeof(sz[0]); i++) {
		run_mmx_flags(_metadata, (struct mmx_case){ "test", IPU_MODEL_TEST, 0, sz[i][0], sz[i][1], sz[i][2],
							    0, MMX_F32, 0 });
		run_mmx_flags(_metadata, (struct mmx_case){ "test", IPU_MODEL_TEST, 0, sz[i][0], sz[i][1], sz[i][2],
							    0, MMX_F16, 0 });
	}
}

TEST(matmul_transposed_gc200)
{
	run_mmx_flags(_metadata, (struct mmx_case){ "gc200", IPU_MODEL_GC200, 0, 256, 96, 200, 0, MMX_F32, 0 });
	run_mmx_flags(_metadata, (struct mmx_case){ "gc200", IPU_MODEL_GC200, 0, 67, 301, 45, 0, MMX_F16, 0 });
}

TEST(matmul_grouped)
{
	static const struct mmx_case cs[] = {
		{ "test", IPU_MODEL_TEST, 1, 37, 53, 29, 0, MMX_F32, 0 },
		{ "test", IPU_MODEL_TEST, 3, 1, 7, 5, 0, MMX_F32, 0 },
		{ "test", IPU_MODEL_TEST, 3, 21, 17, 9, 0, MMX_F16, 0 },
		{ "test", IPU_MODEL_TEST, 16, 13, 11, 7, 0, MMX_F32, 0 },
		{ "test", IPU_MODEL_TEST, 16, 40, 24, 31, 0, MMX_F16, 0 },
		{ "test", IPU_MODEL_TEST, 3, 64, 48, 100, 0, MMX_F32, 1 },	/* one group per wave */
		{ "gc200", IPU_MODEL_GC200, 16, 64, 33, 50, 0, MMX_F32, 0 },
		{ "gc200", IPU_MODEL_GC200, 3, 90, 70, 61, 0, MMX_F16, 1 },
	};

	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
		run_mmx_flags(_metadata, cs[i]);
}

/*
 * A refusal: ipu_matmul_ex (rank 2) or _grouped (rank 3) of a [sa] (rank
 * dims) x b [sb] (rank rb) returns want, the message has `has`.
 */
static void mmx_refused(struct __test_metadata *_metadata, unsigned rank, const uint32_t *sa, unsigned da,
			unsigned rb, const uint32_t *sb, unsigned db, unsigned flags, int want, const char *has)
{
	struct ipu_graph *g;
	int ta, tb, seq, r;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(ta = ipu_graph_add_tensor(g, "a", da, rank, sa, &err));
	ASSERT_CALL(tb = ipu_graph_add_tensor(g, "b", db, rb, sb, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ta, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tb, 1, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	if (rank == 3)
		r = ipu_matmul_grouped(g, seq, ta, tb, flags, "c", NULL, &err);
	else
		r = ipu_matmul_ex(g, seq, ta, tb, flags, "c", NULL, &err);
	ipu_graph_free(g);
	ASSERT_EQ(want, r) TH_LOG("rank %u flags %u: %d (%s)", rank, flags, r, err.msg);
	ASSERT_TRUE(strstr(err.msg, has) != NULL) TH_LOG("'%s' lacks '%s'", err.msg, has);
}

TEST(matmul_ex_refusals)
{
	static const uint32_t s34[] = { 3, 4 }, s35[] = { 3, 5 }, s43[] = { 4, 3 }, s53[] = { 5, 3 };
	static const uint32_t g234[] = { 2, 3, 4 }, g245[] = { 2, 4, 5 }, g345[] = { 3, 4, 5 }, g254[] = { 2, 5, 4 };
	const unsigned F = IPU_DTYPE_F32, H = IPU_DTYPE_F16, I = IPU_DTYPE_I32;

	mmx_refused(_metadata, 2, s34, F, 2, s43, F, 4, -EINVAL, "unknown flags 0x4");
	mmx_refused(_metadata, 3, g234, F, 3, g245, F, 8, -EINVAL, "unknown flags 0x8");
	/* [3][4] x [3][5]: K 4 vs 3; transposed A [4][3] x [3][5] fits */
	mmx_refused(_metadata, 2, s34, F, 2, s35, F, 0, -EINVAL, "'a' [3][4] has K = 4, 'b' [3][5] has K = 3");
	mmx_refused(_metadata, 2, s43, F, 2, s53, F, IPU_MATMUL_TRANSPOSE_A | IPU_MATMUL_TRANSPOSE_B, -EINVAL,
		    "'a' [4][3] (transposed) has K = 4, 'b' [5][3] (transposed) has K = 3");
	mmx_refused(_metadata, 2, s34, F, 2, s43, F, IPU_MATMUL_TRANSPOSE_B, -EINVAL,
		    "'b' [4][3] (transposed) has K = 3");
	mmx_refused(_metadata, 3, g234, F, 3, g254, F, 0, -EINVAL, "'b' [2][5][4] has K = 5");
	mmx_refused(_metadata, 3, g234, F, 3, g345, F, 0, -EINVAL,
		    "'a' [2][3][4] has 2 groups, 'b' [3][4][5] has 3");
	mmx_refused(_metadata, 2, s34, F, 2, s43, H, 0, -EINVAL, "'a' (f32) and 'b' (f16) must both be f32 or f16");
	mmx_refused(_metadata, 2, s34, I, 2, s43, I, 0, -EINVAL, "'a' (i32) and 'b' (i32)");
	mmx_refused(_metadata, 3, g234, H, 3, g245, F, 0, -EINVAL, "must both be f32 or f16");
	mmx_refused(_metadata, 2, s34, F, 3, g245, F, 0, -EINVAL,
		    "'a' [3][4] and 'b' [2][4][5] must both have rank 2");
}

TEST(matmul_ex_plan_mismatch)
{
	static const uint32_t s34[] = { 3, 4 }, s54[] = { 5, 4 };
	struct ipu_matmul_plan p;
	struct ipu_graph *g;
	int ta, tb, seq, r;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, s34, &err));
	ASSERT_CALL(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 2, s54, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ta, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tb, 1, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	/* the plan of the untransposed sizes 3x4x5 for A [3][4] x B^T, B [5][4]: 3x5x4 */
	ASSERT_CALL(ipu_matmul_plan(g, 3, 4, 5, IPU_DTYPE_F32, &p, &err));
	r = ipu_matmul_ex(g, seq, ta, tb, IPU_MATMUL_TRANSPOSE_B, "c", &p, &err);
	ASSERT_EQ(-EINVAL, r);
	ASSERT_TRUE(strstr(err.msg, "the plan is for 3x4x5 f32, the operands are 3x5x4 f32") != NULL)
		TH_LOG("%s", err.msg);
	ASSERT_CALL(ipu_matmul_plan(g, 3, 5, 4, IPU_DTYPE_F32, &p, &err));
	ASSERT_CALL(ipu_matmul_ex(g, seq, ta, tb, IPU_MATMUL_TRANSPOSE_B, "c", &p, &err));
	ipu_graph_free(g);
}

/* docs/builder.md's worked example: a linear layer's backward, dX = dY W^T and dW = X^T dY */
TEST(matmul_linear_backward_example)
{
	enum { B = 64, I = 96, O = 40 };
	static float x[B * I], w[I * O], dy[B * O], dx[B * I], dw[I * O], wt[O * I], xt[I * B];
	static double rdx[B * I], rdw[I * O];
	uint32_t sx[2] = { B, I }, sw[2] = { I, O }, sdy[2] = { B, O };
	struct ipu_graph *g;
	struct ipu_device *d;
	int tx, tw, tdy, tdx, tdw, seq;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, sx, &err));
	ASSERT_CALL(tw = ipu_graph_add_tensor(g, "w", IPU_DTYPE_F32, 2, sw, &err));
	ASSERT_CALL(tdy = ipu_graph_add_tensor(g, "dy", IPU_DTYPE_F32, 2, sdy, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tx, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tw, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tdy, 1, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(tdx = ipu_matmul_ex(g, seq, tdy, tw, IPU_MATMUL_TRANSPOSE_B, "dx", NULL, &err));
	ASSERT_CALL(tdw = ipu_matmul_ex(g, seq, tx, tdy, IPU_MATMUL_TRANSPOSE_A, "dw", NULL, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "backward", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tw, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tdy, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tdx, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, tdw, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	fill_rand(x, B * I);
	fill_rand(w, I * O);
	fill_rand(dy, B * O);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	ASSERT_CALL(ipu_tensor_write(d, "w", w, sizeof(w), &err));
	ASSERT_CALL(ipu_tensor_write(d, "dy", dy, sizeof(dy), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "dx", dx, sizeof(dx), &err));
	ASSERT_CALL(ipu_tensor_read(d, "dw", dw, sizeof(dw), &err));
	ipu_device_close(d);
	mmx_store(w, wt, I, O, 1);
	mmx_store(x, xt, B, I, 1);
	ref_matmul(dy, wt, rdx, B, I, O);
	ref_matmul(xt, dy, rdw, I, O, B);
	ASSERT_TRUE(max_err(dx, rdx, B * I, sqrt((double)O)) < 1e-5);
	ASSERT_TRUE(max_err(dw, rdw, I * O, sqrt((double)B)) < 1e-5);
}
