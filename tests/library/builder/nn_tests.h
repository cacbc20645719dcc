/* SPDX-License-Identifier: MIT */
/*
 * Tests of the popnn-level ops (libipudev/nn.c): softmax, log-softmax,
 * cross-entropy and its gradient, on the model device against
 * double-precision references and a finite difference. Included by
 * test_builder.c after broadcast_tests.h (uses count_of()).
 */

/* softmax / log-softmax of rows of x (R rows of C) in double */
static void ref_softmax(const float *x, double *sm, double *lsm, size_t R, size_t C)
{
	for (size_t r = 0; r < R; r++) {
		const float *row = x + r * C;
		double m = row[0], s = 0;

		for (size_t i = 1; i < C; i++)
			m = row[i] > m ? row[i] : m;
		for (size_t i = 0; i < C; i++)
			s += exp((double)row[i] - m);
		for (size_t i = 0; i < C; i++) {
			sm[r * C + i] = exp((double)row[i] - m) / s;
			lsm[r * C + i] = ((double)row[i] - m) - log(s);
		}
	}
}

/*
 * softmax and log-softmax of x (rank, shape; logits = frand() * spread +
 * offset, some rows all equal) on model: softmax within 1e-5 relative +
 * 1e-7 absolute (the f32 result of exp (1 ulp), a row sum in f32 and a
 * division), log-softmax within 2e-6 * (|want| + 1).
 */
static void run_softmax(struct __test_metadata *_metadata, const char *model, uint32_t model_id,
			unsigned rank, const uint32_t *shape, float spread, float offset)
{
	uint64_t n = count_of(rank, shape), C = shape[rank - 1], R = n / C;
	float *x = malloc(n * sizeof(*x)), *sm = malloc(n * sizeof(*sm)), *lsm = malloc(n * sizeof(*lsm));
	double *wsm = malloc(n * sizeof(*wsm)), *wlsm = malloc(n * sizeof(*wlsm));
	struct ipu_graph *g;
	struct ipu_device *d;
	int tx, ts, tl, seq;

	ASSERT_TRUE(x && sm && lsm && wsm && wlsm);
	for (uint64_t i = 0; i < n; i++)
		x[i] = frand() * spread + offset;
	for (uint64_t i = 0; i < C; i++)	/* row 0 all equal: 1/C each */
		x[i] = offset;
	ref_softmax(x, wsm, wlsm, R, C);
	ASSERT_CALL(ipu_graph_create(model_id, &g, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, rank, shape, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tx, 1, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(ts = ipu_softmax(g, seq, tx, "sm", &err));
	ASSERT_CALL(tl = ipu_log_softmax(g, seq, tx, "lsm", &err));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, ts, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, tl, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, g, model, &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, n * sizeof(*x), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "sm", sm, n * sizeof(*sm), &err));
	ASSERT_CALL(ipu_tensor_read(d, "lsm", lsm, n * sizeof(*lsm), &err));
	ipu_device_close(d);
	for (uint64_t i = 0; i < n; i++) {
		ASSERT_TRUE(fabs(sm[i] - wsm[i]) <= 1e-5 * wsm[i] + 1e-7)
			TH_LOG("softmax[%llu] of x = %g: %.9g, want %.9g (C %llu, offset %g)",
			       (unsigned long long)i, x[i], sm[i], wsm[i], (unsigned long long)C, offset);
		ASSERT_TRUE(fabs(lsm[i] - wlsm[i]) <= 2e-6 * (fabs(wlsm[i]) + 1))
			TH_LOG("log_softmax[%llu] of x = %g: %.9g, want %.9g (C %llu, offset %g)",
			       (unsigned long long)i, x[i], lsm[i], wlsm[i], (unsigned long long)C, offset);
	}
	free(x);
	free(sm);
	free(lsm);
	free(wsm);
	free(wlsm);
}

TEST(softmax_matches_reference)
{
	static const uint32_t s1[1] = { 13 }, s2[2] = { 37, 11 }, s3[3] = { 3, 5, 129 },
			      s4[4] = { 2, 1, 3, 7 }, big[2] = { 64, 1000 };

	run_softmax(_metadata, "test", IPU_MODEL_TEST, 1, s1, 3, 0);
	run_softmax(_metadata, "test", IPU_MODEL_TEST, 2, s2, 5, 0);
	run_softmax(_metadata, "test", IPU_MODEL_TEST, 3, s3, 8, -2);
	run_softmax(_metadata, "test", IPU_MODEL_TEST, 4, s4, 1, 0);
	/* rows spread over many tiles: reduce_rows' two stages */
	run_softmax(_metadata, "gc200", IPU_MODEL_GC200, 2, big, 10, 0);
}

TEST(softmax_large_logits_stable)
{
	static const uint32_t s2[2] = { 17, 10 }, s1[1] = { 5 };

	/* exp(1000) overflows f32 (and double): only the shift by the row max keeps it finite */
	run_softmax(_metadata, "test", IPU_MODEL_TEST, 2, s2, 4, 1000);
	run_softmax(_metadata, "test", IPU_MODEL_TEST, 2, s2, 4, -1000);
	run_softmax(_metadata, "test", IPU_MODEL_TEST, 2, s2, 1000, 0);
	run_softmax(_metadata, "test", IPU_MODEL_TEST, 1, s1, 0, 1000);
}

/* a cross-entropy graph: logits and targets f32 [N][C] written by the host, loss and gradient read */
static void ce_graph(struct __test_metadata *_metadata, uint32_t N, uint32_t C, struct ipu_device **d)
{
	struct ipu_graph *g;
	uint32_t sh[2] = { N, C };
	struct ipu_tensor_desc desc;
	int tl, tt, loss, grad = -1, seq;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tl = ipu_graph_add_tensor(g, "logits", IPU_DTYPE_F32, 2, sh, &err));
	ASSERT_CALL(tt = ipu_graph_add_tensor(g, "targets", IPU_DTYPE_F32, 2, sh, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tl, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tt, 4, &err));	/* not like the logits */
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(loss = ipu_cross_entropy(g, seq, tl, tt, "loss", "dlogits", &grad, &err));
	ASSERT_CALL(ipu_graph_tensor_desc(g, loss, &desc, &err));
	ASSERT_EQ(0u, desc.rank);
	ASSERT_EQ((unsigned)IPU_DTYPE_F32, desc.dtype);
	ASSERT_CALL(ipu_graph_tensor_desc(g, grad, &desc, &err));
	ASSERT_EQ(2u, desc.rank);
	for (uint64_t e = 0; e < (uint64_t)N * C; e += 7) {
		ASSERT_EQ(ipu_graph_tile_of(g, tl, e), ipu_graph_tile_of(g, grad, e));
	}
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, tl, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tt, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, loss, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, grad, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, g, "test", d);
	ipu_graph_free(g);
}

/* loss and gradient of logits x and one-hot targets t in double */
static double ref_ce(const float *x, const float *t, double *grad, size_t N, size_t C)
{
	double *sm = malloc(N * C * sizeof(*sm)), *lsm = malloc(N * C * sizeof(*lsm)), loss = 0;

	if (!sm || !lsm)
		abort();
	ref_softmax(x, sm, lsm, N, C);
	for (size_t i = 0; i < N * C; i++) {
		loss -= t[i] * lsm[i];
		grad[i] = (sm[i] - t[i]) / (double)N;
	}
	free(sm);
	free(lsm);
	return loss / (double)N;
}

TEST(cross_entropy_matches_reference)
{
	enum { N = 37, C = 11 };
	static float x[N * C], t[N * C], gr[N * C];
	static double wg[N * C];
	struct ipu_device *d;
	double want;
	float loss;

	ce_graph(_metadata, N, C, &d);
	for (int rep = 0; rep < 2; rep++) {
		fill_rand(x, N * C);
		memset(t, 0, sizeof(t));
		for (int i = 0; i < N * C; i++)
			x[i] *= rep ? 500 : 5;	/* rep 1: large logits */
		for (int n = 0; n < N; n++) {
			t[n * C + (int)(rng % C)] = 1;
			frand();
		}
		want = ref_ce(x, t, wg, N, C);
		ASSERT_CALL(ipu_tensor_write(d, "logits", x, sizeof(x), &err));
		ASSERT_CALL(ipu_tensor_write(d, "targets", t, sizeof(t), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "loss", &loss, sizeof(loss), &err));
		ASSERT_CALL(ipu_tensor_read(d, "dlogits", gr, sizeof(gr), &err));
		/* the loss: log-softmax's 2e-6 (|x| + 1) per term, averaged */
		ASSERT_TRUE(fabs(loss - want) <= 2e-6 * (fabs(want) + 1))
			TH_LOG("loss %.9g, want %.9g", loss, want);
		/* gradient: softmax's 1e-5 relative + 1e-7 absolute, over N */
		for (int i = 0; i < N * C; i++) {
			ASSERT_TRUE(fabs(gr[i] - wg[i]) * N <= 1e-5 * fabs(wg[i] * N) + 2e-7)
				TH_LOG("grad[%d] %.9g, want %.9g", i, gr[i], wg[i]);
		}
	}
	ipu_device_close(d);
}

TEST(cross_entropy_gradient_finite_difference)
{
	enum { N = 3, C = 4 };
	const float h = 1e-2f;
	float x[N * C], t[N * C] = { 0 }, gr[N * C], lp, lm;
	struct ipu_device *d;

	ce_graph(_metadata, N, C, &d);
	fill_rand(x, N * C);
	for (int n = 0; n < N; n++)
		t[n * C + (n * 3 + 1) % C] = 1;
	t[C] = t[C + 1] = 0.5f;	/* row 1: a soft target, [0.5 0.5 0 0] */
	ASSERT_CALL(ipu_tensor_write(d, "targets", t, sizeof(t), &err));
	ASSERT_CALL(ipu_tensor_write(d, "logits", x, sizeof(x), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "dlogits", gr, sizeof(gr), &err));
	for (int i = 0; i < N * C; i++) {
		float xi = x[i], fd;

		x[i] = xi + h;
		ASSERT_CALL(ipu_tensor_write(d, "logits", x, sizeof(x), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "loss", &lp, sizeof(lp), &err));
		x[i] = xi - h;
		ASSERT_CALL(ipu_tensor_write(d, "logits", x, sizeof(x), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "loss", &lm, sizeof(lm), &err));
		x[i] = xi;
		/* central difference: O(h^2) ~ 1e-5 truncation, f32 loss rounding / 2h ~ 3e-5 */
		fd = (float)(((double)lp - lm) / (2.0 * h));
		ASSERT_TRUE(fabsf(fd - gr[i]) <= 2e-4f)
			TH_LOG("d loss / d logits[%d]: gradient %.7g, finite difference %.7g", i, gr[i], fd);
	}
	ipu_device_close(d);
}

TEST(nn_ops_refused)
{
	struct ipu_graph *g;
	uint32_t s2[2] = { 4, 5 }, s3[3] = { 2, 4, 5 }, s45[2] = { 5, 4 };
	int tf, ti, t0, t3, tt, tw, tu, seq, grad;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tf = ipu_graph_add_tensor(g, "f", IPU_DTYPE_F32, 2, s2, &err));
	ASSERT_CALL(ti = ipu_graph_add_tensor(g, "i", IPU_DTYPE_I32, 2, s2, &err));
	ASSERT_CALL(t0 = ipu_graph_add_tensor(g, "s", IPU_DTYPE_F32, 0, NULL, &err));
	ASSERT_CALL(t3 = ipu_graph_add_tensor(g, "f3", IPU_DTYPE_F32, 3, s3, &err));
	ASSERT_CALL(tt = ipu_graph_add_tensor(g, "t", IPU_DTYPE_F32, 2, s2, &err));
	ASSERT_CALL(tw = ipu_graph_add_tensor(g, "w", IPU_DTYPE_F32, 2, s45, &err));
	ASSERT_CALL(tu = ipu_graph_add_tensor(g, "unmapped", IPU_DTYPE_F32, 2, s2, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tf, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ti, 1, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, t0, 3, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, t3, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tt, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tw, 1, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	expect_err(_metadata, ipu_softmax(g, seq, ti, "y", &err), "tensor 'i' is i32, must be f32", "i32");
	expect_err(_metadata, ipu_log_softmax(g, seq, t0, "y", &err), "tensor 's' has rank 0", "rank 0");
	expect_err(_metadata, ipu_softmax(g, seq, tf, NULL, &err), "needs a name", "NULL name");
	expect_err(_metadata, ipu_softmax(g, seq, tf, "f", &err), "'f' already exists", "name taken");
	expect_err(_metadata, ipu_softmax(g, seq, tu, "y", &err), "'unmapped' is not fully mapped", "unmapped");
	expect_err(_metadata, ipu_softmax(g, seq, 99, "y", &err), "no tensor 99", "bad id");
	expect_err(_metadata, ipu_softmax(NULL, seq, tf, "y", &err), "graph is NULL", "NULL graph");
	expect_err(_metadata, ipu_cross_entropy(g, seq, t3, tt, "l", NULL, NULL, &err),
		   "logits 'f3' have rank 3", "logits rank");
	expect_err(_metadata, ipu_cross_entropy(g, seq, tf, tw, "l", NULL, NULL, &err),
		   "targets 'w' (f32, rank 2) must be f32 [4][5]", "targets shape");
	expect_err(_metadata, ipu_cross_entropy(g, seq, tf, ti, "l", NULL, NULL, &err),
		   "targets 'i' (i32", "targets dtype");
	expect_err(_metadata, ipu_cross_entropy(g, seq, tf, tu, "l", NULL, NULL, &err),
		   "targets 'unmapped' are not fully mapped", "targets unmapped");
	expect_err(_metadata, ipu_cross_entropy(g, seq, tf, tt, "l", "", &grad, &err),
		   "gradient name is empty", "grad name empty");
	expect_err(_metadata, ipu_cross_entropy(g, seq, tf, tt, "l", "l", &grad, &err),
		   "gradient name 'l' is taken", "grad name = loss name");
	expect_err(_metadata, ipu_cross_entropy(g, seq, tf, tt, "l", "t", &grad, &err),
		   "gradient name 't' is taken", "grad name taken");
	expect_err(_metadata, ipu_cross_entropy(g, seq, tf, tt, "l", "dl", NULL, &err),
		   "grad is NULL", "grad NULL");
	ASSERT_EQ(-ENOENT, ipu_graph_find_tensor(g, "l"));
	/* the loss alone: no gradient tensor */
	ASSERT_CALL(ipu_cross_entropy(g, seq, tf, tt, "l", NULL, NULL, &err));
	ASSERT_EQ(-ENOENT, ipu_graph_find_tensor(g, "l/grad"));
	/* softmax of rank 3 works; its temporaries take names "y/..." */
	ASSERT_CALL(ipu_softmax(g, seq, t3, "y", &err));
	expect_err(_metadata, ipu_log_softmax(g, seq, tf, "y", &err), "'y' already exists", "name reused");
	ipu_graph_free(g);
}

/*
 * Cross-entropy with i32 labels against ref_ce() on the one-hot rows; a
 * label outside [0, C) (negative, = C, huge) gives its documented result:
 * an all-zero target row, adding 0 to the loss and softmax / N to the
 * gradient, and no read outside the tensors.
 */
TEST(cross_entropy_labels_match_reference)
{
	enum { N = 13, C = 7 };
	static const int32_t bad[4] = { -1, C, 1 << 30, INT32_MIN };
	static float x[N * C], t[N * C], gr[N * C];
	static double wg[N * C];
	uint32_t sl[2] = { N, C }, sn[1] = { N };
	int32_t lab[N];
	struct ipu_graph *g;
	struct ipu_device *d;
	int tl, tb, loss, grad = -1, seq;
	double want;
	float got;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tl = ipu_graph_add_tensor(g, "logits", IPU_DTYPE_F32, 2, sl, &err));
	ASSERT_CALL(tb = ipu_graph_add_tensor(g, "labels", IPU_DTYPE_I32, 1, sn, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tl, 3, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tb, 2, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(loss = ipu_cross_entropy_labels(g, seq, tl, tb, "loss", "dlogits", &grad, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, tl, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, loss, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, grad, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	for (int rep = 0; rep < 2; rep++) {
		fill_rand(x, N * C);
		memset(t, 0, sizeof(t));
		for (int n = 0; n < N; n++) {
			lab[n] = (int32_t)((rng >> 5) % C);
			frand();
			if (rep && n % 3 == 0)
				lab[n] = bad[n / 3 % 4];	/* out of range: no target */
			if (lab[n] >= 0 && lab[n] < C)
				t[n * C + lab[n]] = 1;
		}
		want = ref_ce(x, t, wg, N, C);
		ASSERT_CALL(ipu_tensor_write(d, "logits", x, sizeof(x), &err));
		ASSERT_CALL(ipu_tensor_write(d, "labels", lab, sizeof(lab), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "loss", &got, sizeof(got), &err));
		ASSERT_CALL(ipu_tensor_read(d, "dlogits", gr, sizeof(gr), &err));
		ASSERT_TRUE(fabs(got - want) <= 2e-6 * (fabs(want) + 1)) TH_LOG("loss %.9g, want %.9g", got, want);
		for (int i = 0; i < N * C; i++) {
			ASSERT_TRUE(fabs(gr[i] - wg[i]) * N <= 1e-5 * fabs(wg[i] * N) + 2e-7)
				TH_LOG("rep %d grad[%d] %.9g, want %.9g (label %d)", rep, i, gr[i], wg[i], lab[i / C]);
		}
	}
	ipu_device_close(d);
}

TEST(cross_entropy_labels_refused)
{
	struct ipu_graph *g;
	uint32_t s2[2] = { 4, 5 }, s4[1] = { 4 }, s5[1] = { 5 }, s41[2] = { 4, 1 };
	int tf, ok, l5, l41, lf, lu, seq, grad;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tf = ipu_graph_add_tensor(g, "f", IPU_DTYPE_F32, 2, s2, &err));
	ASSERT_CALL(ok = ipu_graph_add_tensor(g, "lab", IPU_DTYPE_I32, 1, s4, &err));
	ASSERT_CALL(l5 = ipu_graph_add_tensor(g, "lab5", IPU_DTYPE_I32, 1, s5, &err));
	ASSERT_CALL(l41 = ipu_graph_add_tensor(g, "lab41", IPU_DTYPE_I32, 2, s41, &err));
	ASSERT_CALL(lf = ipu_graph_add_tensor(g, "labf", IPU_DTYPE_F32, 1, s4, &err));
	ASSERT_CALL(lu = ipu_graph_add_tensor(g, "labu", IPU_DTYPE_I32, 1, s4, &err));
	for (int t = tf; t <= lf; t++)
		ASSERT_CALL(ipu_graph_map_linear(g, t, 1, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	expect_err(_metadata, ipu_cross_entropy_labels(g, seq, tf, l5, "l", NULL, NULL, &err),
		   "labels 'lab5' are i32 [5], must be i32 [4]", "labels length");
	expect_err(_metadata, ipu_cross_entropy_labels(g, seq, tf, l41, "l", NULL, NULL, &err),
		   "labels 'lab41' are i32 [4, 1], must be i32 [4]", "labels rank");
	expect_err(_metadata, ipu_cross_entropy_labels(g, seq, tf, lf, "l", NULL, NULL, &err),
		   "labels 'labf' are f32 [4], must be i32 [4]", "labels dtype");
	expect_err(_metadata, ipu_cross_entropy_labels(g, seq, tf, lu, "l", NULL, NULL, &err),
		   "labels 'labu' are not fully mapped", "labels unmapped");
	expect_err(_metadata, ipu_cross_entropy_labels(g, seq, tf, 99, "l", NULL, NULL, &err),
		   "no tensor 99 (labels)", "labels id");
	expect_err(_metadata, ipu_cross_entropy_labels(g, seq, ok, ok, "l", NULL, NULL, &err),
		   "tensor 'lab' is i32, must be f32", "logits dtype");
	expect_err(_metadata, ipu_cross_entropy_labels(g, seq, tf, ok, "l", "dl", NULL, &err),
		   "grad is NULL", "grad NULL");
	expect_err(_metadata, ipu_cross_entropy_labels(g, seq, tf, ok, "f", NULL, NULL, &err),
		   "'f' already exists", "name taken");
	ASSERT_CALL(ipu_cross_entropy_labels(g, seq, tf, ok, "l", "dl", &grad, &err));
	expect_err(_metadata, ipu_softmax_grad(g, seq, tf, l5, "dx", &err), "tensor 'lab5' is i32", "sm grad dy");
	ASSERT_CALL(l5 = ipu_graph_add_tensor(g, "f3", IPU_DTYPE_F32, 1, s5, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, l5, 1, &err));
	expect_err(_metadata, ipu_log_softmax_grad(g, seq, tf, l5, "dx", &err),
		   "y 'f' [4, 5] and dy 'f3' [5] differ in shape", "lsm grad shape");
	ipu_graph_free(g);
}
