/* SPDX-License-Identifier: MIT */
/*
 * Tests of max and average pooling and their gradients (libipudev/pool.c)
 * on the model device: bit for bit against an f32 reference in the
 * documented order over random shapes (odd sizes, stride, padding,
 * batches, whole planes grouped or rows cut), the tie rule, NaN, central
 * finite differences, the refusals. Included by test_builder.c after
 * conv_tests.h (uses crnd(), fill_rand(), expect_err(), load_run()).
 */

struct pshape {
	uint32_t N, C, H, W;
	struct ipu_pool2d_params p;
};

static uint32_t ps_oh(const struct pshape *s)
{
	return (s->H + s->p.padding[0] + s->p.padding[1] - s->p.kernel[0]) / s->p.stride[0] + 1;
}

static uint32_t ps_ow(const struct pshape *s)
{
	return (s->W + s->p.padding[2] + s->p.padding[3] - s->p.kernel[1]) / s->p.stride[1] + 1;
}

/*
 * The reference, in f32 in the codelets' order: for each plane and output
 * position ascending, the taps in (ky, kx) order inside the image. Max:
 * the first maximum (a NaN wins at once), its gradient to that tap; avg:
 * the sum / (KH*KW), its gradient dy / (KH*KW) to every tap.
 */
static void pool_ref(const struct pshape *s, unsigned op, const float *x, const float *dy, float *y, float *dx)
{
	uint32_t OH = ps_oh(s), OW = ps_ow(s);
	float k = (float)(s->p.kernel[0] * s->p.kernel[1]);

	memset(dx, 0, sizeof(float) * s->N * s->C * s->H * s->W);
	for (size_t q = 0; q < (size_t)s->N * s->C; q++)
		for (uint32_t oy = 0; oy < OH; oy++)
			for (uint32_t ox = 0; ox < OW; ox++) {
				size_t yi = (q * OH + oy) * OW + ox, best = 0;
				float m = 0, sum = 0;
				int found = 0;

				for (uint32_t ky = 0; ky < s->p.kernel[0]; ky++)
					for (uint32_t kx = 0; kx < s->p.kernel[1]; kx++) {
						long iy = (long)(oy * s->p.stride[0] + ky) - s->p.padding[0];
						long ix = (long)(ox * s->p.stride[1] + kx) - s->p.padding[2];

						if (iy < 0 || ix < 0 || iy >= s->H || ix >= s->W)
							continue;
						size_t xi = (q * s->H + (size_t)iy) * s->W + (size_t)ix;

						if (op == IPU_POOL_AVG) {
							sum += x[xi];
							dx[xi] += dy[yi] / k;
						} else if (!found || x[xi] > m || (x[xi] != x[xi] && m == m)) {
							found = 1, m = x[xi], best = xi;
						}
					}
				y[yi] = op == IPU_POOL_AVG ? sum / k : m;
				if (op == IPU_POOL_MAX)
					dx[best] += dy[yi];
			}
}

static int pool_same(const float *a, const float *b, size_t n, size_t *at)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&a[i], &b[i], 4) && !(a[i] != a[i] && b[i] != b[i])) {
			*at = i;
			return 0;
		}
	return 1;
}

struct pgraph {
	size_t nx, ny;
};

static void pool_build(struct __test_metadata *_metadata, struct ipu_graph *g, const struct pshape *s, unsigned op,
		       struct pgraph *c)
{
	uint32_t xs[4] = { s->N, s->C, s->H, s->W }, ys[4] = { s->N, s->C, ps_oh(s), ps_ow(s) };
	int x, dy, y, dx, seq;

	c->nx = (size_t)xs[0] * xs[1] * xs[2] * xs[3];
	c->ny = (size_t)ys[0] * ys[1] * ys[2] * ys[3];
	ASSERT_CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 4, xs, &err));
	ASSERT_CALL(dy = ipu_graph_add_tensor(g, "dy", IPU_DTYPE_F32, 4, ys, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, x, 5, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, dy, 3, &err));
	ASSERT_CALL(ipu_graph_expose(g, x, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, dy, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(y = ipu_pool2d(g, seq, op, x, &s->p, "y", &err));
	ASSERT_CALL(dx = ipu_pool2d_grad(g, seq, op, x, dy, &s->p, "dx", &err));
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, dx, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
}

/* one shape and op on @model with input x (NULL: random): y and dx bit for bit */
static void pool_case(struct __test_metadata *_metadata, const char *model, uint32_t model_id,
		      const struct pshape *s, unsigned op, const float *xin)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	struct pgraph c;
	size_t at = 0;

	ASSERT_CALL(ipu_graph_create(model_id, &g, &err));
	pool_build(_metadata, g, s, op, &c);
	load_run(_metadata, g, model, &d);
	ipu_graph_free(g);
	/* + 4: an empty batch or channels too */
	float *x = malloc(c.nx * 4 + 4), *dy = malloc(c.ny * 4 + 4), *y = malloc(c.ny * 4 + 4);
	float *dx = malloc(c.nx * 4 + 4), *wy = malloc(c.ny * 4 + 4), *wdx = malloc(c.nx * 4 + 4);

	ASSERT_TRUE(x && dy && y && dx && wy && wdx);
	if (xin)
		memcpy(x, xin, c.nx * 4);
	else
		fill_rand(x, c.nx);
	fill_rand(dy, c.ny);
	pool_ref(s, op, x, dy, wy, wdx);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, c.nx * 4, &err));
	ASSERT_CALL(ipu_tensor_write(d, "dy", dy, c.ny * 4, &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y", y, c.ny * 4, &err));
	ASSERT_CALL(ipu_tensor_read(d, "dx", dx, c.nx * 4, &err));
	EXPECT_TRUE(pool_same(y, wy, c.ny, &at))
		TH_LOG("%s y[%zu] = %.9g, want %.9g (N%u C%u %ux%u K%ux%u S%ux%u)", op == IPU_POOL_MAX ? "max" : "avg",
		       at, y[at], wy[at], s->N, s->C, s->H, s->W, s->p.kernel[0], s->p.kernel[1], s->p.stride[0],
		       s->p.stride[1]);
	EXPECT_TRUE(pool_same(dx, wdx, c.nx, &at))
		TH_LOG("%s dx[%zu] = %.9g, want %.9g", op == IPU_POOL_MAX ? "max" : "avg", at, dx[at], wdx[at]);
	ipu_device_close(d);
	free(x), free(dy), free(y), free(dx), free(wy), free(wdx);
}

static struct pshape pool_random(void)
{
	struct pshape s = { .p = { .argsz = sizeof(struct ipu_pool2d_params) } };

	do {
		s.N = crnd(1, 3), s.C = crnd(1, 4), s.H = crnd(1, 13), s.W = crnd(1, 13);
		s.p.kernel[0] = crnd(1, 4), s.p.kernel[1] = crnd(1, 4);
		s.p.stride[0] = crnd(1, 3), s.p.stride[1] = crnd(1, 3);
		for (int k = 0; k < 4; k++)
			s.p.padding[k] = crnd(0, s.p.kernel[k / 2] - 1);
	} while (s.p.kernel[0] > s.H + s.p.padding[0] + s.p.padding[1] ||
		 s.p.kernel[1] > s.W + s.p.padding[2] + s.p.padding[3]);
	return s;
}

TEST(pool2d_random_shapes)
{
	for (unsigned i = 0; i < 30; i++) {
		struct pshape s = pool_random();

		if (i % 10 == 4)	/* an empty batch, then no channels: empty y and dx (numpy) */
			*(i == 4 ? &s.N : &s.C) = 0;

		pool_case(_metadata, "test", IPU_MODEL_TEST, &s, i % 2 ? IPU_POOL_AVG : IPU_POOL_MAX, NULL);
	}
	/* LeNet's pools on gc200 (planes grouped), and planes cut in rows on the test chip */
	struct pshape lenet = { 16, 6, 24, 24, { sizeof(struct ipu_pool2d_params), { 2, 2 }, { 2, 2 }, { 0 } } };
	struct pshape big = { 1, 2, 90, 70, { sizeof(struct ipu_pool2d_params), { 3, 3 }, { 2, 1 }, { 1, 1, 1, 0 } } };

	pool_case(_metadata, "gc200", IPU_MODEL_GC200, &lenet, IPU_POOL_MAX, NULL);
	pool_case(_metadata, "gc200", IPU_MODEL_GC200, &lenet, IPU_POOL_AVG, NULL);
	pool_case(_metadata, "test", IPU_MODEL_TEST, &big, IPU_POOL_MAX, NULL);
	pool_case(_metadata, "test", IPU_MODEL_TEST, &big, IPU_POOL_AVG, NULL);
}

/* ties go to the first tap in (ky, kx) order; a NaN wins and takes the gradient */
TEST(pool2d_ties_and_nan)
{
	struct pshape s = { 1, 1, 3, 3, { sizeof(struct ipu_pool2d_params), { 2, 2 }, { 1, 1 }, { 0 } } };
	float x[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 }, dy[4] = { 1, 1, 1, 1 }, y[4], dx[9];
	const float want_dx[9] = { 1, 1, 0, 1, 1, 0, 0, 0, 0 };
	struct ipu_graph *g;
	struct ipu_device *d;
	struct pgraph c;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	pool_build(_metadata, g, &s, IPU_POOL_MAX, &c);
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			x[4] = NAN;	/* the centre is in every window */
		ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
		ASSERT_CALL(ipu_tensor_write(d, "dy", dy, sizeof(dy), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "y", y, sizeof(y), &err));
		ASSERT_CALL(ipu_tensor_read(d, "dx", dx, sizeof(dx), &err));
		for (int i = 0; i < 4; i++) {
			EXPECT_TRUE(pass ? y[i] != y[i] : y[i] == 1) TH_LOG("pass %d y[%d] = %g", pass, i, y[i]);
		}
		for (int i = 0; i < 9; i++) {
			EXPECT_TRUE((pass ? (i == 4 ? 4.0f : 0.0f) : want_dx[i]) == dx[i])
				TH_LOG("pass %d dx[%d] = %g", pass, i, dx[i]);
		}
	}
	ipu_device_close(d);
}

/* d sum(dy * pool(x)) / dx by central differences (h = 0.01; x spaced 0.1 apart, so no argmax moves) */
TEST(pool2d_gradients_finite_differences)
{
	struct pshape s = { 2, 2, 7, 6, { sizeof(struct ipu_pool2d_params), { 3, 2 }, { 2, 1 }, { 1, 2, 0, 1 } } };
	struct ipu_graph *g;
	struct ipu_device *d;
	struct pgraph c;

	for (unsigned op = IPU_POOL_MAX; op <= IPU_POOL_AVG; op++) {
		ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
		pool_build(_metadata, g, &s, op, &c);
		load_run(_metadata, g, "test", &d);
		ipu_graph_free(g);
		float x[168], dy[96], y[96], dx[168];

		ASSERT_EQ(sizeof(x) / 4, c.nx);
		ASSERT_EQ(sizeof(dy) / 4, c.ny);
		for (size_t i = 0; i < c.nx; i++)
			x[i] = (float)((i * 73) % c.nx) * 0.1f - 8.0f;	/* distinct values */
		fill_rand(dy, c.ny);
		ASSERT_CALL(ipu_tensor_write(d, "dy", dy, sizeof(dy), &err));
		for (unsigned k = 0; k <= 24; k++) {
			size_t i = k * 7 % c.nx;
			float keep = x[i];
			double l[2];

			for (int sgn = 0; sgn < 2; sgn++) {
				x[i] = keep + (sgn ? -0.01f : 0.01f);
				ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
				ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
				ASSERT_CALL(ipu_tensor_read(d, "y", y, sizeof(y), &err));
				l[sgn] = 0;
				for (size_t j = 0; j < c.ny; j++)
					l[sgn] += (double)dy[j] * y[j];
			}
			x[i] = keep;
			ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
			ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
			ASSERT_CALL(ipu_tensor_read(d, "dx", dx, sizeof(dx), &err));
			double fd = (l[0] - l[1]) / ((double)(keep + 0.01f) - (double)(keep - 0.01f));

			EXPECT_TRUE(fabs(fd - dx[i]) <= 1e-3 * (1 + fabs(dx[i])))
				TH_LOG("op %u dx[%zu]: finite difference %.7g, gradient %.7g", op, i, fd, dx[i]);
		}
		ipu_device_close(d);
	}
}

TEST(pool2d_refusals)
{
	struct ipu_graph *g;
	struct ipu_pool2d_params p = { sizeof(p), { 2, 2 }, { 2, 2 }, { 0 } }, q;
	uint32_t xs[4] = { 1, 2, 6, 6 };
	int x, u, xi, x3, dy, bad, seq;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 4, xs, &err));
	ASSERT_CALL(u = ipu_graph_add_tensor(g, "u", IPU_DTYPE_F32, 4, xs, &err));
	ASSERT_CALL(xi = ipu_graph_add_tensor(g, "xi", IPU_DTYPE_I32, 4, xs, &err));
	ASSERT_CALL(x3 = ipu_graph_add_tensor(g, "x3", IPU_DTYPE_F32, 3, xs, &err));
	ASSERT_CALL(dy = ipu_graph_add_tensor(g, "dy", IPU_DTYPE_F32, 4, (uint32_t[]){ 1, 2, 3, 3 }, &err));
	ASSERT_CALL(bad = ipu_graph_add_tensor(g, "bad", IPU_DTYPE_F32, 4, (uint32_t[]){ 1, 2, 3, 4 }, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, x, 4, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, xi, 4, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, x3, 4, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, dy, 4, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, bad, 4, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	expect_err(_metadata, ipu_pool2d(g, seq, 3, x, &p, "y", &err), "unknown pool op 3", "op");
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_MAX, u, &p, "y", &err), "not fully mapped", "unmapped");
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_MAX, xi, &p, "y", &err), "must be f32", "i32");
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_MAX, x3, &p, "y", &err), "rank 3, must be 4", "rank");
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_MAX, x, NULL, "y", &err), "params are NULL", "no params");
	q = p, q.stride[0] = 0;
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_AVG, x, &q, "y", &err), "zero stride", "stride");
	q = p, q.kernel[1] = 0;
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_AVG, x, &q, "y", &err), "must be below the kernel", "kernel 0");
	q = p, q.kernel[1] = 9;
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_AVG, x, &q, "y", &err), "bigger than the padded input",
		   "kernel too big");
	q = p, q.padding[3] = 2;
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_MAX, x, &q, "y", &err), "must be below the kernel", "padding");
	q = p, q.argsz = 4;
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_MAX, x, &q, "y", &err), "argsz 4", "argsz");
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_MAX, x, &p, "x", &err), "already exists", "name");
	expect_err(_metadata, ipu_pool2d_grad(g, seq, IPU_POOL_MAX, x, bad, &p, "dx", &err),
		   "does not match the pool's output", "dy shape");
	expect_err(_metadata, ipu_pool2d_grad(g, seq, IPU_POOL_MAX, u, dy, &p, "dx", &err), "not fully mapped",
		   "max grad needs x's values");
	EXPECT_LE(0, ipu_pool2d_grad(g, seq, IPU_POOL_AVG, u, dy, &p, "dx", &err)) TH_LOG("%s", err.msg);
	ipu_graph_free(g);
}
