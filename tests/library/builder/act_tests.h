/* SPDX-License-Identifier: MIT */
/*
 * Tests of the popnn nonlinearities and their gradients (libipudev/nn.c:
 * ipu_nonlinearity, ipu_nonlinearity_grad) on the model device against
 * double-precision references and a central finite difference. Included
 * by test_builder.c after broadcast_tests.h and nn_tests.h (uses
 * count_of(), expect_err(), load_run(), frand()).
 */

static const char *const act_name[] = { "", "relu", "gelu", "sigmoid", "tanh" };

/* f(x) in double; gelu: the tanh approximation as x * sigmoid(2u) (no cancellation) */
static double act_ref(unsigned type, double x)
{
	double z = 1.5957691216057308 * (x + 0.044715 * x * x * x);

	switch (type) {
	case IPU_NL_RELU: return x > 0 ? x : 0;
	case IPU_NL_SIGMOID: return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x));
	case IPU_NL_TANH: return tanh(x);
	default: return z >= 0 ? x / (1 + exp(-z)) : x * exp(z) / (1 + exp(z));
	}
}

/* in_grad in double from act (the forward output; gelu: the input) and out_grad */
static double act_grad_ref(unsigned type, double a, double g)
{
	double z, e, s;

	switch (type) {
	case IPU_NL_RELU: return a > 0 ? g : 0;
	case IPU_NL_SIGMOID: return a * (1 - a) * g;
	case IPU_NL_TANH: return (1 - a) * (1 + a) * g;
	default:
		z = 1.5957691216057308 * (a + 0.044715 * a * a * a);
		e = exp(-fabs(z));
		s = (z >= 0 ? 1 : e) / (1 + e);
		return (s + a * e / ((1 + e) * (1 + e)) * 1.5957691216057308 *
			    (1 + 3 * 0.044715 * a * a)) * g;
	}
}

/* |got - want| within the codelets' ULP bounds (docs/codelets.md), as a relative bound */
static int act_close(float got, double want, int f16)
{
	double tol = f16 ? 0x1p-10 * fabs(want) + 0x1p-24 : 0x1.2p-22 * fabs(want) + 1e-40;

	return fabs(got - want) <= tol;
}

static float act_round(float v, int f16)
{
	return f16 ? ipue_f16_to_f32(ipue_f32_to_f16(v)) : v;
}

/* host f32 values into a tensor of dtype f32 or f16 */
static void act_write(struct __test_metadata *_metadata, struct ipu_device *d, const char *t,
		      const float *v, uint64_t n, int f16)
{
	if (!f16) {
		ASSERT_CALL(ipu_tensor_write(d, t, v, n * sizeof(*v), &err));
		return;
	}
	uint16_t *h = malloc(n * sizeof(*h) + 1);

	ASSERT_TRUE(h != NULL);
	for (uint64_t i = 0; i < n; i++)
		h[i] = ipue_f32_to_f16(v[i]);
	ASSERT_CALL(ipu_tensor_write(d, t, h, n * sizeof(*h), &err));
	free(h);
}

static void act_read(struct __test_metadata *_metadata, struct ipu_device *d, const char *t,
		     float *v, uint64_t n, int f16)
{
	if (!f16) {
		ASSERT_CALL(ipu_tensor_read(d, t, v, n * sizeof(*v), &err));
		return;
	}
	uint16_t *h = malloc(n * sizeof(*h) + 1);

	ASSERT_TRUE(h != NULL);
	ASSERT_CALL(ipu_tensor_read(d, t, h, n * sizeof(*h), &err));
	for (uint64_t i = 0; i < n; i++)
		v[i] = ipue_f16_to_f32(h[i]);
	free(h);
}

/*
 * One graph per case: y = f(x) into "y" and in place into "xi"; the
 * gradient "dx" = f'(.) * g from act = y (gelu: x) and in place into "gi".
 * x is spread with grain 1, g with grain 5 (elsewhere than y: act is
 * copied to g's tiles). Checks the values against double references, the
 * in-place forms bit for bit, dx laid out like g.
 */
static void run_act(struct __test_metadata *_metadata, const char *model, uint32_t model_id,
		    unsigned type, unsigned dtype, unsigned rank, const uint32_t *shape, float spread)
{
	uint64_t n = count_of(rank, shape);
	int f16 = dtype == IPU_DTYPE_F16;
	size_t bytes = n * sizeof(float) + 4;
	float *x = malloc(bytes), *g = malloc(bytes), *y = malloc(bytes), *yi = malloc(bytes);
	float *dx = malloc(bytes), *gi = malloc(bytes);
	struct ipu_graph *gr;
	struct ipu_device *d;
	int tx, txi, tg, tgi, ty, tdx, seq;

	ASSERT_TRUE(x && g && y && yi && dx && gi);
	for (uint64_t i = 0; i < n; i++) {
		x[i] = act_round(frand() * spread, f16);
		g[i] = act_round(frand() * 3, f16);
	}
	ASSERT_CALL(ipu_graph_create(model_id, &gr, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(gr, "x", dtype, rank, shape, &err));
	ASSERT_CALL(txi = ipu_graph_add_tensor(gr, "xi", dtype, rank, shape, &err));
	ASSERT_CALL(tg = ipu_graph_add_tensor(gr, "g", dtype, rank, shape, &err));
	ASSERT_CALL(tgi = ipu_graph_add_tensor(gr, "gi", dtype, rank, shape, &err));
	ASSERT_CALL(ipu_graph_map_linear(gr, tx, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(gr, txi, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(gr, tg, 5, &err));
	ASSERT_CALL(ipu_graph_map_linear(gr, tgi, 5, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(gr, &err));
	ASSERT_CALL(ty = ipu_nonlinearity(gr, seq, type, tx, "y", &err));
	ASSERT_EQ(txi, ipu_nonlinearity(gr, seq, type, txi, NULL, &err));
	ASSERT_CALL(tdx = ipu_nonlinearity_grad(gr, seq, type, type == IPU_NL_GELU ? tx : ty, tg, "dx",
						&err));
	ASSERT_EQ(tgi, ipu_nonlinearity_grad(gr, seq, type, type == IPU_NL_GELU ? tx : ty, tgi, NULL,
					     &err));
	for (uint64_t e = 0; e < n; e += 3) {
		ASSERT_EQ(ipu_graph_tile_of(gr, tg, e), ipu_graph_tile_of(gr, tdx, e));
		ASSERT_EQ(ipu_graph_tile_of(gr, tx, e), ipu_graph_tile_of(gr, ty, e));
	}
	ASSERT_CALL(ipu_graph_add_program(gr, "p", seq, &err));
	ASSERT_CALL(ipu_graph_expose(gr, tx, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(gr, txi, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_expose(gr, tg, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(gr, tgi, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_expose(gr, ty, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(gr, tdx, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, gr, model, &d);
	ipu_graph_free(gr);
	act_write(_metadata, d, "x", x, n, f16);
	act_write(_metadata, d, "xi", x, n, f16);
	act_write(_metadata, d, "g", g, n, f16);
	act_write(_metadata, d, "gi", g, n, f16);
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	act_read(_metadata, d, "y", y, n, f16);
	act_read(_metadata, d, "xi", yi, n, f16);
	act_read(_metadata, d, "dx", dx, n, f16);
	act_read(_metadata, d, "gi", gi, n, f16);
	ipu_device_close(d);
	for (uint64_t i = 0; i < n; i++) {
		double wy = act_ref(type, x[i]);
		double wdx = act_grad_ref(type, type == IPU_NL_GELU ? x[i] : y[i], g[i]);

		ASSERT_TRUE(act_close(y[i], wy, f16))
			TH_LOG("%s %s(x[%llu] = %.9g) = %.9g, want %.9g", f16 ? "f16" : "f32", act_name[type],
			       (unsigned long long)i, x[i], y[i], wy);
		ASSERT_TRUE(act_close(dx[i], wdx, f16))
			TH_LOG("%s %s grad(x[%llu] = %.9g, y %.9g, g %.9g) = %.9g, want %.9g",
			       f16 ? "f16" : "f32", act_name[type], (unsigned long long)i, x[i], y[i], g[i],
			       dx[i], wdx);
		ASSERT_TRUE(!memcmp(&y[i], &yi[i], sizeof(float)) && !memcmp(&dx[i], &gi[i], sizeof(float)))
			TH_LOG("%s in place differs at %llu", act_name[type], (unsigned long long)i);
	}
	free(x);
	free(g);
	free(y);
	free(yi);
	free(dx);
	free(gi);
}

TEST(nonlinearity_matches_reference)
{
	static const uint32_t s1[1] = { 1 }, s7[1] = { 7 }, s2[2] = { 3, 5 }, s3[3] = { 2, 3, 17 },
			      s4[4] = { 1, 1, 1, 1 }, big[2] = { 64, 1000 };
	uint32_t rs[3][3];

	for (unsigned t = IPU_NL_RELU; t <= IPU_NL_TANH; t++) {
		run_act(_metadata, "test", IPU_MODEL_TEST, t, IPU_DTYPE_F32, 1, s1, 4);
		run_act(_metadata, "test", IPU_MODEL_TEST, t, IPU_DTYPE_F32, 1, s7, 4);
		run_act(_metadata, "test", IPU_MODEL_TEST, t, IPU_DTYPE_F32, 2, s2, 8);
		run_act(_metadata, "test", IPU_MODEL_TEST, t, IPU_DTYPE_F32, 3, s3, 12);
		run_act(_metadata, "test", IPU_MODEL_TEST, t, IPU_DTYPE_F32, 4, s4, 2);
		run_act(_metadata, "test", IPU_MODEL_TEST, t, IPU_DTYPE_F16, 3, s3, 6);
		/* random shapes of rank 1-3, dimensions 1-40 */
		for (unsigned k = 0; k < 3; k++) {
			for (unsigned j = 0; j < 3; j++)
				rs[k][j] = 1 + (uint32_t)((frand() + 1) * 19.5f);
			run_act(_metadata, "test", IPU_MODEL_TEST, t, IPU_DTYPE_F32, k + 1, rs[k], 6);
		}
	}
	/* 64000 elements over the gc200's tiles */
	for (unsigned t = IPU_NL_RELU; t <= IPU_NL_TANH; t++)
		run_act(_metadata, "gc200", IPU_MODEL_GC200, t, IPU_DTYPE_F32, 2, big, 10);
}

/*
 * The gradient (out_grad = 1) against a central difference of the forward
 * op on the device, h = 1e-2, x kept 2h away from relu's kink: truncation
 * O(h^2 f''') <= 1e-4, f32 rounding / 2h ~ 6e-6.
 */
TEST(nonlinearity_grad_finite_difference)
{
	enum { N = 97 };
	const float h = 1e-2f;
	uint32_t sh[1] = { N };
	float x[N], xp[N], xm[N], one[N], dx[N], yp[N], ym[N];

	for (int i = 0; i < N; i++) {
		x[i] = frand() * 5;
		if (fabsf(x[i]) < 2 * h)
			x[i] = 0.5f;
		xp[i] = x[i] + h;
		xm[i] = x[i] - h;
		one[i] = 1;
	}
	for (unsigned t = IPU_NL_RELU; t <= IPU_NL_TANH; t++) {
		struct ipu_graph *g;
		struct ipu_device *d;
		int tx, tg, ty, tdx, seq;

		ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
		ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, sh, &err));
		ASSERT_CALL(tg = ipu_graph_add_tensor(g, "g", IPU_DTYPE_F32, 1, sh, &err));
		ASSERT_CALL(ipu_graph_map_linear(g, tx, 1, &err));
		ASSERT_CALL(ipu_graph_map_linear(g, tg, 1, &err));
		ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
		ASSERT_CALL(ty = ipu_nonlinearity(g, seq, t, tx, "y", &err));
		ASSERT_CALL(tdx = ipu_nonlinearity_grad(g, seq, t, t == IPU_NL_GELU ? tx : ty, tg, "dx", &err));
		ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
		ASSERT_CALL(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, &err));
		ASSERT_CALL(ipu_graph_expose(g, tg, NULL, IPU_HANDLE_WRITE, &err));
		ASSERT_CALL(ipu_graph_expose(g, ty, NULL, IPU_HANDLE_READ, &err));
		ASSERT_CALL(ipu_graph_expose(g, tdx, NULL, IPU_HANDLE_READ, &err));
		load_run(_metadata, g, "test", &d);
		ipu_graph_free(g);
		ASSERT_CALL(ipu_tensor_write(d, "g", one, sizeof(one), &err));
		ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "dx", dx, sizeof(dx), &err));
		ASSERT_CALL(ipu_tensor_write(d, "x", xp, sizeof(xp), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "y", yp, sizeof(yp), &err));
		ASSERT_CALL(ipu_tensor_write(d, "x", xm, sizeof(xm), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "y", ym, sizeof(ym), &err));
		ipu_device_close(d);
		for (int i = 0; i < N; i++) {
			double fd = ((double)yp[i] - ym[i]) / ((double)xp[i] - xm[i]);

			ASSERT_TRUE(fabs(fd - dx[i]) <= 1e-4 + 1e-4 * fabs(fd))
				TH_LOG("%s'(%.7g): gradient %.7g, finite difference %.7g", act_name[t], x[i],
				       dx[i], fd);
		}
	}
}

TEST(nonlinearity_refused)
{
	/* [4, 5] f32, f16, i32; [5, 4] f32; [4, 5] f32 left unmapped */
	static const char *const names[] = { "f", "h", "i", "ft", "unmapped" };
	static const unsigned dts[] = { IPU_DTYPE_F32, IPU_DTYPE_F16, IPU_DTYPE_I32, IPU_DTYPE_F32,
					IPU_DTYPE_F32 };
	uint32_t s45[2] = { 4, 5 }, s54[2] = { 5, 4 };
	struct ipu_graph *g;
	int t[5], seq;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	for (int k = 0; k < 5; k++) {
		ASSERT_CALL(t[k] = ipu_graph_add_tensor(g, names[k], dts[k], 2, k == 3 ? s54 : s45, &err));
		if (k < 4)
			ASSERT_CALL(ipu_graph_map_linear(g, t[k], 1, &err));
	}
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	const int tf = t[0], th = t[1], ti = t[2], tt = t[3], tu = t[4];

	expect_err(_metadata, ipu_nonlinearity(g, seq, 0, tf, "y", &err), "unknown nonlinearity type 0",
		   "type 0");
	expect_err(_metadata, ipu_nonlinearity(g, seq, 5, tf, "y", &err), "unknown nonlinearity type 5",
		   "type 5");
	expect_err(_metadata, ipu_nonlinearity_grad(g, seq, 99, tf, tf, "y", &err),
		   "unknown nonlinearity type 99", "grad type 99");
	expect_err(_metadata, ipu_nonlinearity(g, seq, IPU_NL_RELU, ti, "y", &err),
		   "input 'i' is i32, must be f32 or f16", "i32");
	expect_err(_metadata, ipu_nonlinearity_grad(g, seq, IPU_NL_TANH, ti, ti, "y", &err),
		   "act (the forward output) 'i' is i32", "grad i32");
	expect_err(_metadata, ipu_nonlinearity_grad(g, seq, IPU_NL_GELU, tf, ti, "y", &err),
		   "out_grad 'i' is i32", "grad out_grad i32");
	expect_err(_metadata, ipu_nonlinearity_grad(g, seq, IPU_NL_SIGMOID, tf, tt, "y", &err),
		   "act 'f' [4, 5] and out_grad 'ft' [5, 4] differ in shape", "shape mismatch");
	expect_err(_metadata, ipu_nonlinearity_grad(g, seq, IPU_NL_SIGMOID, tf, th, "y", &err),
		   "act 'f' is f32 but out_grad 'h' is f16", "dtype mismatch");
	expect_err(_metadata, ipu_nonlinearity(g, seq, IPU_NL_TANH, tu, "y", &err),
		   "'unmapped' is not fully mapped", "unmapped");
	expect_err(_metadata, ipu_nonlinearity_grad(g, seq, IPU_NL_GELU, tu, tf, "y", &err),
		   "act (the forward input) 'unmapped' is not fully mapped", "grad unmapped");
	expect_err(_metadata, ipu_nonlinearity(g, seq, IPU_NL_TANH, 99, "y", &err), "no tensor 99",
		   "bad id");
	expect_err(_metadata, ipu_nonlinearity_grad(g, seq, IPU_NL_TANH, tf, 99, "y", &err),
		   "no tensor 99 (out_grad)", "grad bad id");
	expect_err(_metadata, ipu_nonlinearity(g, seq, IPU_NL_TANH, tf, "", &err),
		   "output name is empty", "empty name");
	expect_err(_metadata, ipu_nonlinearity(g, seq, IPU_NL_TANH, tf, "h", &err),
		   "a tensor 'h' already exists", "name taken");
	expect_err(_metadata, ipu_nonlinearity_grad(g, seq, IPU_NL_TANH, tf, tf, "f", &err),
		   "a tensor 'f' already exists", "grad name taken");
	expect_err(_metadata, ipu_nonlinearity(NULL, seq, IPU_NL_TANH, tf, "y", &err), "graph is NULL",
		   "NULL graph");
	expect_err(_metadata, ipu_nonlinearity_grad(NULL, seq, IPU_NL_TANH, tf, tf, "y", &err),
		   "graph is NULL", "grad NULL graph");
	ASSERT_EQ(-ENOENT, ipu_graph_find_tensor(g, "y"));
	/* GELU through ipu_unary as well; f16 accepted */
	ASSERT_CALL(ipu_unary(g, seq, IPU_OP_GELU, tf, "u", &err));
	ASSERT_CALL(ipu_nonlinearity(g, seq, IPU_NL_GELU, th, "y", &err));
	expect_err(_metadata, ipu_unary(g, seq, IPU_OP_GELU + 1, tf, "u2", &err), "unknown op", "op");
	ipu_graph_free(g);
}
