/* SPDX-License-Identifier: MIT */
/*
 * Tests of the optimizers (libipudev/optim.c): scaled add, SGD with
 * momentum and Adam over several runs of one loaded program (weights and
 * state stay on the device, the host writes a gradient each step), against
 * the documented double sequence (bit for bit: each element is computed in
 * double and every state rounded to f32 once) and against a plain double
 * reference (1e-5 relative); a least-squares fit whose loss goes down; the
 * refusals. Included by test_builder.c.
 */

/* w, grad (of n elements) on @model, w spread linearly, grad by @grad_grain (0: on tile 0) */
static void optim_graph(struct __test_metadata *_metadata, uint32_t model_id, uint32_t n,
			uint64_t grad_grain, struct ipu_graph **out, int *w, int *grad, int *seq)
{
	ASSERT_CALL(ipu_graph_create(model_id, out, &err));
	ASSERT_CALL(*w = ipu_graph_add_tensor(*out, "w", IPU_DTYPE_F32, 1, &n, &err));
	ASSERT_CALL(*grad = ipu_graph_add_tensor(*out, "grad", IPU_DTYPE_F32, 1, &n, &err));
	ASSERT_CALL(ipu_graph_map_linear(*out, *w, 1, &err));
	if (grad_grain) {
		ASSERT_CALL(ipu_graph_map_linear(*out, *grad, grad_grain, &err));
	} else {
		ASSERT_CALL(ipu_graph_map_tile(*out, *grad, 0, &err));
	}
	ASSERT_CALL(ipu_graph_expose(*out, *w, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_expose(*out, *grad, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(*seq = ipu_prog_sequence(*out, &err));
}

/* every element of got equals want bit for bit */
static int same_bits(const float *got, const float *want, size_t n, size_t *at)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&got[i], &want[i], sizeof(float))) {
			*at = i;
			return 0;
		}
	return 1;
}

/*
 * @steps runs of SGD with momentum on w of n elements; the learning rate
 * is halved by the host before step 3 (a schedule). Compared after every
 * run with the rounded sequence (bit for bit) and the double one.
 */
static void run_sgd(struct __test_metadata *_metadata, const char *model, uint32_t model_id, uint32_t n,
		    uint64_t grad_grain, unsigned steps)
{
	float *w = malloc(n * 4ull), *gr = malloc(n * 4ull), *v = malloc(n * 4ull), *got = malloc(n * 4ull);
	double *wd = malloc(n * 8ull), *vd = malloc(n * 8ull);
	float lr = 0.05f, mu = 0.9f;
	struct ipu_graph *g;
	struct ipu_device *d;
	int tw, tg, seq, tlr;
	size_t at = 0;

	ASSERT_TRUE(w && gr && v && got && wd && vd);
	optim_graph(_metadata, model_id, n, grad_grain, &g, &tw, &tg, &seq);
	ASSERT_CALL(tlr = ipu_sgd_momentum(g, seq, tw, tg, lr, mu, "sgd", &err));
	ASSERT_EQ(tlr, ipu_graph_find_tensor(g, "sgd/lr"));
	ASSERT_CALL(ipu_graph_add_program(g, "step", seq, &err));
	load_run(_metadata, g, model, &d);
	ipu_graph_free(g);
	fill_rand(w, n);
	for (uint32_t i = 0; i < n; i++) {
		v[i] = 0;
		vd[i] = 0;
		wd[i] = w[i];
	}
	ASSERT_CALL(ipu_tensor_write(d, "w", w, n * 4ull, &err));
	for (unsigned s = 0; s < steps; s++) {
		if (s == 3) {
			lr /= 2;
			ASSERT_CALL(ipu_tensor_write(d, "sgd/lr", &lr, 4, &err));
		}
		fill_rand(gr, n);
		ASSERT_CALL(ipu_tensor_write(d, "grad", gr, n * 4ull, &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		for (uint32_t i = 0; i < n; i++) {
			v[i] = (float)((double)mu * v[i] + gr[i]);
			w[i] = (float)(w[i] - (double)lr * v[i]);
			vd[i] = (double)mu * vd[i] + gr[i];
			wd[i] -= (double)lr * vd[i];
		}
		ASSERT_CALL(ipu_tensor_read(d, "w", got, n * 4ull, &err));
		ASSERT_TRUE(same_bits(got, w, n, &at))
			TH_LOG("step %u: w[%zu] = %a, want %a", s, at, got[at], w[at]);
		ASSERT_LE(max_err(got, wd, n, 1.0), 1e-5) TH_LOG("step %u: w against double", s);
		ASSERT_CALL(ipu_tensor_read(d, "sgd/velocity", got, n * 4ull, &err));
		ASSERT_TRUE(same_bits(got, v, n, &at))
			TH_LOG("step %u: velocity[%zu] = %a, want %a", s, at, got[at], v[at]);
		ASSERT_LE(max_err(got, vd, n, 1.0), 1e-5) TH_LOG("step %u: velocity against double", s);
	}
	ipu_device_close(d);
	free(w);
	free(gr);
	free(v);
	free(got);
	free(wd);
	free(vd);
}

/*
 * @steps runs of Adam (@p) on w of n elements, the host writing the
 * learning rate before step 2; compared after every run with the rounded
 * sequence (bit for bit) and Kingma & Ba in double (1e-5 relative).
 */
static void run_adam(struct __test_metadata *_metadata, const char *model, uint32_t model_id, uint32_t n,
		     uint64_t grad_grain, unsigned steps, struct ipu_adam_params p)
{
	float *w = malloc(n * 4ull), *gr = malloc(n * 4ull), *m = malloc(n * 4ull), *v = malloc(n * 4ull);
	float *got = malloc(n * 4ull);
	double *wd = malloc(n * 8ull), *md = malloc(n * 8ull), *vd = malloc(n * 8ull);
	struct ipu_graph *g;
	struct ipu_device *d;
	int tw, tg, seq;
	int32_t step;
	size_t at = 0;

	ASSERT_TRUE(w && gr && m && v && got && wd && md && vd);
	optim_graph(_metadata, model_id, n, grad_grain, &g, &tw, &tg, &seq);
	ASSERT_CALL(ipu_adam(g, seq, tw, tg, &p, "adam", &err));
	ASSERT_CALL(ipu_graph_add_program(g, "step", seq, &err));
	load_run(_metadata, g, model, &d);
	ipu_graph_free(g);
	fill_rand(w, n);
	for (uint32_t i = 0; i < n; i++) {
		m[i] = v[i] = 0;
		md[i] = vd[i] = 0;
		wd[i] = w[i];
	}
	ASSERT_CALL(ipu_tensor_write(d, "w", w, n * 4ull, &err));
	for (unsigned s = 0; s < steps; s++) {
		double t = s + 1, b1 = p.beta1, b2 = p.beta2;
		float k0, k1;

		if (s == 2) {
			p.lr *= 0.5f;
			ASSERT_CALL(ipu_tensor_write(d, "adam/lr", &p.lr, 4, &err));
		}
		k0 = (float)(p.lr / (1.0 - pow(b1, t)));
		k1 = (float)(1.0 / sqrt(1.0 - pow(b2, t)));
		fill_rand(gr, n);
		ASSERT_CALL(ipu_tensor_write(d, "grad", gr, n * 4ull, &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		for (uint32_t i = 0; i < n; i++) {
			double gi = gr[i];

			m[i] = (float)(b1 * m[i] + (1.0 - b1) * gi);
			v[i] = (float)(b2 * v[i] + (1.0 - b2) * (gi * gi));
			w[i] = (float)(w[i] - (double)k0 * m[i] / (sqrt((double)v[i]) * k1 + p.eps));
			md[i] = b1 * md[i] + (1 - b1) * gi;
			vd[i] = b2 * vd[i] + (1 - b2) * gi * gi;
			wd[i] -= p.lr * (md[i] / (1 - pow(b1, t))) / (sqrt(vd[i] / (1 - pow(b2, t))) + p.eps);
		}
		ASSERT_CALL(ipu_tensor_read(d, "adam/step", &step, 4, &err));
		ASSERT_EQ((int32_t)s + 1, step);
		ASSERT_CALL(ipu_tensor_read(d, "w", got, n * 4ull, &err));
		ASSERT_TRUE(same_bits(got, w, n, &at))
			TH_LOG("step %u: w[%zu] = %a, want %a", s, at, got[at], w[at]);
		ASSERT_LE(max_err(got, wd, n, 1.0), 1e-5) TH_LOG("step %u: w against Kingma-Ba", s);
		ASSERT_CALL(ipu_tensor_read(d, "adam/m", got, n * 4ull, &err));
		ASSERT_TRUE(same_bits(got, m, n, &at)) TH_LOG("step %u: m[%zu]", s, at);
		ASSERT_CALL(ipu_tensor_read(d, "adam/v", got, n * 4ull, &err));
		ASSERT_TRUE(same_bits(got, v, n, &at)) TH_LOG("step %u: v[%zu]", s, at);
	}
	ipu_device_close(d);
	free(w);
	free(gr);
	free(m);
	free(v);
	free(got);
	free(wd);
	free(md);
	free(vd);
}

TEST(sgd_momentum_steps_match_reference)
{
	run_sgd(_metadata, "test", IPU_MODEL_TEST, 1, 1, 5);
	run_sgd(_metadata, "test", IPU_MODEL_TEST, 1001, 1, 6);	/* grad laid out like w */
	run_sgd(_metadata, "test", IPU_MODEL_TEST, 333, 0, 5);	/* grad on one tile: copied */
	run_sgd(_metadata, "test", IPU_MODEL_TEST, 4099, 64, 4);	/* other grain: partly copied */
}

TEST(adam_steps_match_reference)
{
	struct ipu_adam_params def = IPU_ADAM_DEFAULTS, other = { 0.01f, 0.5f, 0.75f, 1e-3f };

	run_adam(_metadata, "test", IPU_MODEL_TEST, 1, 1, 5, def);
	run_adam(_metadata, "test", IPU_MODEL_TEST, 1001, 1, 6, def);
	run_adam(_metadata, "test", IPU_MODEL_TEST, 333, 0, 5, other);
	run_adam(_metadata, "test", IPU_MODEL_TEST, 4099, 64, 4, other);
}

TEST(optimizers_spread_over_many_tiles)
{
	struct ipu_adam_params def = IPU_ADAM_DEFAULTS;

	run_sgd(_metadata, "gc200", IPU_MODEL_GC200, 100003, 16, 3);
	run_adam(_metadata, "gc200", IPU_MODEL_GC200, 100003, 16, 3, def);
}

/*
 * min |X w - y|^2 / N for X [N][K] and y = X w* with the optimizer
 * (0 SGD-momentum, 1 Adam) on the device: forward, loss, gradient
 * 2/N X^T (X w - y) and update in one program, run @steps times; the loss
 * (computed before each update) must fall below 1e-3 of its first value.
 */
static void run_least_squares(struct __test_metadata *_metadata, int adam, unsigned steps)
{
	enum { N = 16, K = 4 };
	uint32_t sx[2] = { N, K }, sxt[2] = { K, N }, sw[2] = { K, 1 }, sy[2] = { N, 1 };
	float x[N * K], xt[K * N], y[N], ws[K] = { 0.5f, -1.0f, 2.0f, 0.25f }, w0[K] = { 0 }, loss0 = 0, loss;
	struct ipu_adam_params p = IPU_ADAM_DEFAULTS;
	struct ipu_graph *g;
	struct ipu_device *d;
	int tx, txt, ty, tw, seq, pred, res, sq, tl, grad;

	for (int i = 0; i < N; i++) {
		y[i] = 0;
		for (int k = 0; k < K; k++) {
			x[i * K + k] = frand();
			xt[k * N + i] = x[i * K + k] * 2.0f / N;	/* the gradient's scale folded in */
			y[i] += x[i * K + k] * ws[k];
		}
	}
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, sx, &err));
	ASSERT_CALL(txt = ipu_graph_add_tensor(g, "xt", IPU_DTYPE_F32, 2, sxt, &err));
	ASSERT_CALL(ty = ipu_graph_add_tensor(g, "y", IPU_DTYPE_F32, 2, sy, &err));
	ASSERT_CALL(tw = ipu_graph_add_tensor(g, "w", IPU_DTYPE_F32, 2, sw, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tx, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, txt, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ty, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tw, 1, &err));
	ASSERT_CALL(ipu_graph_set_initial(g, tx, x, sizeof(x), &err));
	ASSERT_CALL(ipu_graph_set_initial(g, txt, xt, sizeof(xt), &err));
	ASSERT_CALL(ipu_graph_set_initial(g, ty, y, sizeof(y), &err));
	ASSERT_CALL(ipu_graph_set_initial(g, tw, w0, sizeof(w0), &err));
	ASSERT_CALL(ipu_graph_expose(g, tw, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(pred = ipu_matmul(g, seq, tx, tw, "pred", NULL, &err));
	ASSERT_CALL(res = ipu_binary(g, seq, IPU_OP_SUB, pred, ty, "res", &err));
	ASSERT_CALL(sq = ipu_binary(g, seq, IPU_OP_MUL, res, res, "sq", &err));
	ASSERT_CALL(tl = ipu_reduce(g, seq, IPU_REDUCE_SUM, sq, "loss", &err));
	ASSERT_CALL(ipu_graph_expose(g, tl, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(grad = ipu_matmul(g, seq, txt, res, "grad", NULL, &err));
	p.lr = 0.05f;
	if (adam) {
		ASSERT_CALL(ipu_adam(g, seq, tw, grad, &p, "opt", &err));
	} else {
		ASSERT_CALL(ipu_sgd_momentum(g, seq, tw, grad, 0.1f, 0.9f, "opt", &err));
	}
	ASSERT_CALL(ipu_graph_add_program(g, "train", seq, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	for (unsigned s = 0; s < steps; s++) {
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "loss", &loss, 4, &err));
		if (s == 0)
			loss0 = loss;
	}
	ASSERT_GT(loss0, 1.0f);
	ASSERT_LT(loss, 1e-3f * loss0) TH_LOG("%s: loss %g after %u steps, first %g",
					      adam ? "adam" : "sgd", loss, steps, loss0);
	ipu_device_close(d);
}

TEST(least_squares_loss_goes_down)
{
	run_least_squares(_metadata, 0, 200);
	run_least_squares(_metadata, 1, 400);
}

TEST(scaled_add_matches_reference)
{
	uint32_t n = 777;
	float *x = malloc(n * 4ull), *y = malloc(n * 4ull), *got = malloc(n * 4ull), s = -0.375f;
	struct ipu_graph *g;
	struct ipu_device *d;
	int tx, ty, seq;
	size_t at = 0;

	ASSERT_TRUE(x && y && got);
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, &n, &err));
	ASSERT_CALL(ty = ipu_graph_add_tensor(g, "y", IPU_DTYPE_F32, 1, &n, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tx, 1, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, ty, 1, &err));
	ASSERT_CALL(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_expose(g, ty, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_EQ(tx, ipu_scaled_add(g, seq, tx, ty, s, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(tx, ipu_scaled_add(g, seq, tx, tx, 0.5f, &err)) TH_LOG("%s", err.msg);	/* y = x */
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	fill_rand(x, n);
	fill_rand(y, n);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, n * 4ull, &err));
	ASSERT_CALL(ipu_tensor_write(d, "y", y, n * 4ull, &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "x", got, n * 4ull, &err));
	ipu_device_close(d);
	for (uint32_t i = 0; i < n; i++) {	/* product and sum rounded separately */
		float t = s * y[i];

		x[i] = x[i] + t;
		t = 0.5f * x[i];
		x[i] = x[i] + t;
	}
	ASSERT_TRUE(same_bits(got, x, n, &at)) TH_LOG("x[%zu] = %a, want %a", at, got[at], x[at]);
	free(x);
	free(y);
	free(got);
}

/* a refused call: the code, a message containing @frag, no state tensor added */
#define ASSERT_REFUSED(call, code, frag) do {						\
	ASSERT_EQ((code), (call)) TH_LOG("%s: %s", #call, err.msg);			\
	ASSERT_NE(NULL, strstr(err.msg, (frag))) TH_LOG("%s: '%s' lacks '%s'", #call, err.msg, (frag)); \
	ASSERT_GT(0, ipu_graph_find_tensor(g, "o/lr"));					\
} while (0)

TEST(optimizer_refusals)
{
	uint32_t n = 10, n2 = 11;
	struct ipu_adam_params p = IPU_ADAM_DEFAULTS, bp;
	struct ipu_graph *g;
	int w, gr, h, i32, bad_shape, unmapped, seq, vel;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(w = ipu_graph_add_tensor(g, "w", IPU_DTYPE_F32, 1, &n, &err));
	ASSERT_CALL(gr = ipu_graph_add_tensor(g, "g", IPU_DTYPE_F32, 1, &n, &err));
	ASSERT_CALL(h = ipu_graph_add_tensor(g, "h", IPU_DTYPE_F16, 1, &n, &err));
	ASSERT_CALL(i32 = ipu_graph_add_tensor(g, "i", IPU_DTYPE_I32, 1, &n, &err));
	ASSERT_CALL(bad_shape = ipu_graph_add_tensor(g, "g11", IPU_DTYPE_F32, 1, &n2, &err));
	ASSERT_CALL(unmapped = ipu_graph_add_tensor(g, "u", IPU_DTYPE_F32, 1, &n, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, w, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, gr, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, h, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, i32, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, bad_shape, 1, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));

	ASSERT_REFUSED(ipu_sgd_momentum(NULL, seq, w, gr, 0.1f, 0.9f, "o", &err), -EINVAL, "graph is NULL");
	ASSERT_REFUSED(ipu_sgd_momentum(g, seq, w, gr, 0.1f, 0.9f, NULL, &err), -EINVAL, "needs a name");
	ASSERT_REFUSED(ipu_adam(g, seq, w, gr, &p, "", &err), -EINVAL, "needs a name");
	ASSERT_REFUSED(ipu_sgd_momentum(g, seq, h, h, 0.1f, 0.9f, "o", &err), -EINVAL, "only f32 weights");
	ASSERT_REFUSED(ipu_adam(g, seq, h, gr, &p, "o", &err), -EINVAL, "'h' are f16");
	ASSERT_REFUSED(ipu_sgd_momentum(g, seq, w, h, 0.1f, 0.9f, "o", &err), -EINVAL, "gradient 'h' is f16");
	ASSERT_REFUSED(ipu_adam(g, seq, w, bad_shape, &p, "o", &err), -EINVAL, "'g11' is [11]");
	ASSERT_REFUSED(ipu_adam(g, seq, w, unmapped, &p, "o", &err), -EINVAL, "'u' (gradient) is not fully mapped");
	ASSERT_REFUSED(ipu_adam(g, seq, w, 999, &p, "o", &err), -EINVAL, "no tensor 999");
	ASSERT_REFUSED(ipu_sgd_momentum(g, seq, w, w, 0.1f, 0.9f, "o", &err), -EINVAL, "both the weights");
	ASSERT_REFUSED(ipu_sgd_momentum(g, seq, w, gr, -0.1f, 0.9f, "o", &err), -EINVAL, "learning rate -0.1");
	ASSERT_REFUSED(ipu_sgd_momentum(g, seq, w, gr, NAN, 0.9f, "o", &err), -EINVAL, "learning rate nan");
	ASSERT_REFUSED(ipu_sgd_momentum(g, seq, w, gr, 0.1f, 1.0f, "o", &err), -EINVAL, "momentum 1 is not");
	ASSERT_REFUSED(ipu_sgd_momentum(g, seq, w, gr, 0.1f, -0.5f, "o", &err), -EINVAL, "momentum -0.5");
	bp = p, bp.lr = INFINITY;
	ASSERT_REFUSED(ipu_adam(g, seq, w, gr, &bp, "o", &err), -EINVAL, "learning rate inf");
	bp = p, bp.beta1 = 1.0f;
	ASSERT_REFUSED(ipu_adam(g, seq, w, gr, &bp, "o", &err), -EINVAL, "beta1 1 and beta2 0.999");
	bp = p, bp.beta2 = -0.1f;
	ASSERT_REFUSED(ipu_adam(g, seq, w, gr, &bp, "o", &err), -EINVAL, "must be in [0, 1)");
	bp = p, bp.eps = 0;
	ASSERT_REFUSED(ipu_adam(g, seq, w, gr, &bp, "o", &err), -EINVAL, "eps 0 is not positive");
	/* names: a state name taken, then the same optimizer name twice */
	ASSERT_CALL(vel = ipu_graph_add_tensor(g, "o/velocity", IPU_DTYPE_F32, 1, &n, &err));
	ASSERT_REFUSED(ipu_sgd_momentum(g, seq, w, gr, 0.1f, 0.9f, "o", &err), -EEXIST, "'o/velocity' already");
	ASSERT_CALL(ipu_adam(g, seq, w, gr, &p, "o", &err));
	ASSERT_EQ(-EEXIST, ipu_adam(g, seq, w, gr, &p, "o", &err));
	ASSERT_NE(NULL, strstr(err.msg, "'o/lr' already exists")) TH_LOG("%s", err.msg);
	/* scaled add */
	ASSERT_EQ(-EINVAL, ipu_scaled_add(g, seq, i32, i32, 1.0f, &err));
	ASSERT_NE(NULL, strstr(err.msg, "must both be f32 or both f16")) TH_LOG("%s", err.msg);
	ASSERT_EQ(-EINVAL, ipu_scaled_add(g, seq, w, h, 1.0f, &err));
	ASSERT_NE(NULL, strstr(err.msg, "'w' (f32) and 'h' (f16)")) TH_LOG("%s", err.msg);
	ASSERT_EQ(-EINVAL, ipu_scaled_add(g, seq, w, bad_shape, 1.0f, &err));
	ASSERT_NE(NULL, strstr(err.msg, "'g11' is [11] but 'w' is [10]")) TH_LOG("%s", err.msg);
	ASSERT_EQ(-EINVAL, ipu_scaled_add(g, seq, w, gr, INFINITY, &err));
	ASSERT_NE(NULL, strstr(err.msg, "not finite")) TH_LOG("%s", err.msg);
	ASSERT_EQ(-EINVAL, ipu_scaled_add(g, seq, unmapped, gr, 1.0f, &err));
	ASSERT_NE(NULL, strstr(err.msg, "'u' (x) is not fully mapped")) TH_LOG("%s", err.msg);
	ASSERT_EQ(h, ipu_scaled_add(g, seq, h, h, -1.0f, &err)) TH_LOG("%s", err.msg);	/* f16 accepted */
	ipu_graph_free(g);
}
