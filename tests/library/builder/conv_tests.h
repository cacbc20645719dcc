/* SPDX-License-Identifier: MIT */
/*
 * Tests of the convolution (libipudev/conv.c: ipu_conv2d and its input
 * and weight gradients) on the model device against a naive double
 * reference, over random shapes with odd sizes, stride, asymmetric
 * padding, dilation, groups (depthwise included) and batches; central
 * finite differences of the gradients; f16 inputs; the refusals.
 * Included by test_builder.c (uses frand(), expect_err(), load_run()).
 */

struct cshape {
	uint32_t N, C, H, W, CO, KH, KW;
	struct ipu_conv2d_params p;
};

static uint32_t cs_oh(const struct cshape *s)
{
	return (s->H + s->p.padding[0] + s->p.padding[1] - ((s->KH - 1) * s->p.dilation[0] + 1)) / s->p.stride[0] + 1;
}

static uint32_t cs_ow(const struct cshape *s)
{
	return (s->W + s->p.padding[2] + s->p.padding[3] - ((s->KW - 1) * s->p.dilation[1] + 1)) / s->p.stride[1] + 1;
}

/*
 * Visit every (output, input, weight) index triple of the convolution:
 * y[yi] += x[xi] * w[wi]. The one loop nest the three references share.
 */
static void conv_visit(const struct cshape *s, void (*f)(void *ctx, size_t yi, size_t xi, size_t wi), void *ctx)
{
	uint32_t G = s->p.groups, cig = s->C / G, cog = s->CO / G, OH = cs_oh(s), OW = cs_ow(s);

	for (uint32_t n = 0; n < s->N; n++)
		for (uint32_t co = 0; co < s->CO; co++)
			for (uint32_t oy = 0; oy < OH; oy++)
				for (uint32_t ox = 0; ox < OW; ox++)
					for (uint32_t ci = 0; ci < cig; ci++)
						for (uint32_t ky = 0; ky < s->KH; ky++)
							for (uint32_t kx = 0; kx < s->KW; kx++) {
								long iy = (long)(oy * s->p.stride[0] + ky * s->p.dilation[0]) - s->p.padding[0];
								long ix = (long)(ox * s->p.stride[1] + kx * s->p.dilation[1]) - s->p.padding[2];
								uint32_t c = co / cog * cig + ci;

								if (iy < 0 || ix < 0 || iy >= s->H || ix >= s->W)
									continue;
								f(ctx, (((size_t)n * s->CO + co) * OH + oy) * OW + ox,
								  (((size_t)n * s->C + c) * s->H + (size_t)iy) * s->W + (size_t)ix,
								  (((size_t)co * cig + ci) * s->KH + ky) * s->KW + kx);
							}
}

struct cref {
	const float *x, *w, *dy;
	double *y, *ya, *dx, *dxa, *dw, *dwa;	/* results and sums of |products| */
};

static void cref_step(void *ctx, size_t yi, size_t xi, size_t wi)
{
	struct cref *r = ctx;

	r->y[yi] += (double)r->x[xi] * r->w[wi];
	r->ya[yi] += fabs((double)r->x[xi] * r->w[wi]);
	r->dx[xi] += (double)r->dy[yi] * r->w[wi];
	r->dxa[xi] += fabs((double)r->dy[yi] * r->w[wi]);
	r->dw[wi] += (double)r->dy[yi] * r->x[xi];
	r->dwa[wi] += fabs((double)r->dy[yi] * r->x[xi]);
}

/* got within tol of want relative to the sum of |products| (plus a tiny floor) */
static int conv_close(const float *got, const double *want, const double *abs, size_t n, double tol, size_t *at)
{
	for (size_t i = 0; i < n; i++)
		if (!(fabs(got[i] - want[i]) <= tol * abs[i] + 1e-30)) {
			*at = i;
			return 0;
		}
	return 1;
}

struct cgraph {
	size_t nx, nw, ny;
	int x, w, dy, y, dx, dw;
};

/* x, w (dtype), dy: mapped linearly (grain 7, so pieces cut rows), exposed; y, dx, dw built */
static void conv_build(struct __test_metadata *_metadata, struct ipu_graph *g, const struct cshape *s, unsigned dt,
		       int grads, struct cgraph *c)
{
	uint32_t xs[4] = { s->N, s->C, s->H, s->W }, ws[4] = { s->CO, s->C / s->p.groups, s->KH, s->KW };
	uint32_t ys[4] = { s->N, s->CO, cs_oh(s), cs_ow(s) };
	int seq;

	c->nx = (size_t)xs[0] * xs[1] * xs[2] * xs[3];
	c->nw = (size_t)ws[0] * ws[1] * ws[2] * ws[3];
	c->ny = (size_t)ys[0] * ys[1] * ys[2] * ys[3];
	ASSERT_CALL(c->x = ipu_graph_add_tensor(g, "x", dt, 4, xs, &err));
	ASSERT_CALL(c->w = ipu_graph_add_tensor(g, "w", dt, 4, ws, &err));
	ASSERT_CALL(c->dy = ipu_graph_add_tensor(g, "dy", IPU_DTYPE_F32, 4, ys, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, c->x, 7, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, c->w, 5, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, c->dy, 9, &err));
	ASSERT_CALL(ipu_graph_expose(g, c->x, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, c->w, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, c->dy, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(c->y = ipu_conv2d(g, seq, c->x, c->w, &s->p, "y", &err));
	ASSERT_CALL(ipu_graph_expose(g, c->y, NULL, IPU_HANDLE_READ, &err));
	if (grads) {
		ASSERT_CALL(c->dx = ipu_conv2d_grad_input(g, seq, c->dy, c->w, c->x, &s->p, "dx", &err));
		ASSERT_CALL(c->dw = ipu_conv2d_grad_weights(g, seq, c->x, c->dy, c->w, &s->p, "dw", &err));
		ASSERT_CALL(ipu_graph_expose(g, c->dx, NULL, IPU_HANDLE_READ, &err));
		ASSERT_CALL(ipu_graph_expose(g, c->dw, NULL, IPU_HANDLE_READ, &err));
	}
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
}

static void conv_write(struct __test_metadata *_metadata, struct ipu_device *d, const char *t, const float *v,
		       size_t n, unsigned dt)
{
	act_write(_metadata, d, t, v, n, dt == IPU_DTYPE_F16);
}

/* one shape on @model: forward (and, f32, both gradients) against the reference */
static void conv_case(struct __test_metadata *_metadata, const char *model, uint32_t model_id,
		      const struct cshape *s, unsigned dt)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	struct cgraph c;
	struct cref r;
	size_t at = 0;
	int grads = dt == IPU_DTYPE_F32;

	ASSERT_CALL(ipu_graph_create(model_id, &g, &err));
	conv_build(_metadata, g, s, dt, grads, &c);
	load_run(_metadata, g, model, &d);
	ipu_graph_free(g);
	/* + 4: an empty batch too */
	float *x = malloc(c.nx * 4 + 4), *w = malloc(c.nw * 4 + 4), *dy = malloc(c.ny * 4 + 4);
	float *gy = malloc(c.ny * 4 + 4), *gdx = malloc(c.nx * 4 + 4), *gdw = malloc(c.nw * 4 + 4);
	double *buf = calloc(2 * (c.ny + c.nx + c.nw) + 1, sizeof(double));

	ASSERT_TRUE(x && w && dy && gy && gdx && gdw && buf);
	fill_rand(x, c.nx);
	fill_rand(w, c.nw);
	fill_rand(dy, c.ny);
	for (size_t i = 0; dt == IPU_DTYPE_F16 && i < c.nx + c.nw; i++)	/* the values f16 holds */
		*(i < c.nx ? &x[i] : &w[i - c.nx]) = act_round(i < c.nx ? x[i] : w[i - c.nx], 1);
	r = (struct cref){ x, w, dy, buf, buf + c.ny, buf + 2 * c.ny, buf + 2 * c.ny + c.nx,
			   buf + 2 * (c.ny + c.nx), buf + 2 * (c.ny + c.nx) + c.nw };
	conv_visit(s, cref_step, &r);
	conv_write(_metadata, d, "x", x, c.nx, dt);
	conv_write(_metadata, d, "w", w, c.nw, dt);
	ASSERT_CALL(ipu_tensor_write(d, "dy", dy, c.ny * 4, &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y", gy, c.ny * 4, &err));
	EXPECT_TRUE(conv_close(gy, r.y, r.ya, c.ny, 2e-5, &at))
		TH_LOG("y[%zu] = %.9g, want %.9g (N%u C%u %ux%u CO%u K%ux%u G%u)", at, gy[at], r.y[at], s->N, s->C,
		       s->H, s->W, s->CO, s->KH, s->KW, s->p.groups);
	if (grads) {
		ASSERT_CALL(ipu_tensor_read(d, "dx", gdx, c.nx * 4, &err));
		ASSERT_CALL(ipu_tensor_read(d, "dw", gdw, c.nw * 4, &err));
		EXPECT_TRUE(conv_close(gdx, r.dx, r.dxa, c.nx, 2e-5, &at))
			TH_LOG("dx[%zu] = %.9g, want %.9g", at, gdx[at], r.dx[at]);
		EXPECT_TRUE(conv_close(gdw, r.dw, r.dwa, c.nw, 2e-5, &at))
			TH_LOG("dw[%zu] = %.9g, want %.9g", at, gdw[at], r.dw[at]);
	}
	ipu_device_close(d);
	free(x), free(w), free(dy), free(gy), free(gdx), free(gdw), free(buf);
}

static uint32_t crnd(uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)((frand() + 1.0f) * 0.5f * (float)(hi - lo + 1)) % (hi - lo + 1);
}

/* a random valid shape: odd sizes, stride, padding, dilation, groups (some depthwise), some empty batches */
static struct cshape conv_random(unsigned i)
{
	struct cshape s = { .p = IPU_CONV2D_PARAMS_INIT };

	do {
		uint32_t G = i % 4 == 3 ? crnd(2, 5) : crnd(1, 3);

		s.p.groups = G;
		s.N = crnd(1, 3);
		s.C = G * (i % 4 == 3 ? 1 : crnd(1, 3));
		s.CO = i % 4 == 3 ? s.C : G * crnd(1, 4);
		s.H = crnd(1, 11), s.W = crnd(1, 11), s.KH = crnd(1, 4), s.KW = crnd(1, 4);
		s.p.stride[0] = crnd(1, 3), s.p.stride[1] = crnd(1, 3);
		s.p.dilation[0] = crnd(1, 2), s.p.dilation[1] = crnd(1, 2);
		for (int k = 0; k < 4; k++)
			s.p.padding[k] = crnd(0, 2);
	} while ((s.KH - 1) * s.p.dilation[0] + 1 > s.H + s.p.padding[0] + s.p.padding[1] ||
		 (s.KW - 1) * s.p.dilation[1] + 1 > s.W + s.p.padding[2] + s.p.padding[3]);
	if (i % 8 == 5)
		s.N = 0;	/* an empty batch: empty y and dx, dw = 0 (numpy) */
	return s;
}

TEST(conv2d_random_shapes)
{
	for (unsigned i = 0; i < 24; i++) {
		struct cshape s = conv_random(i);

		conv_case(_metadata, "test", IPU_MODEL_TEST, &s, IPU_DTYPE_F32);
	}
}

TEST(conv2d_layers_gc200_and_f16)
{
	struct cshape lenet = { 4, 1, 28, 28, 6, 5, 5, IPU_CONV2D_PARAMS_INIT };
	struct cshape block = { 2, 16, 14, 14, 16, 3, 3, IPU_CONV2D_PARAMS_INIT };
	struct cshape half = { 2, 3, 9, 7, 4, 3, 3, IPU_CONV2D_PARAMS_INIT };
	struct cshape small = { 2, 8, 14, 14, 8, 3, 3, IPU_CONV2D_PARAMS_INIT };

	block.p.padding[0] = block.p.padding[1] = block.p.padding[2] = block.p.padding[3] = 1;
	half.p.stride[1] = 2;
	half.p.padding[0] = 1;
	conv_case(_metadata, "gc200", IPU_MODEL_GC200, &lenet, IPU_DTYPE_F32);
	conv_case(_metadata, "gc200", IPU_MODEL_GC200, &block, IPU_DTYPE_F32);
	/* 8 channels of 14x14 on the test chip's 64 KiB tiles: blocks cut output and input rows */
	small.p = block.p;
	conv_case(_metadata, "test", IPU_MODEL_TEST, &small, IPU_DTYPE_F32);
	conv_case(_metadata, "test", IPU_MODEL_TEST, &half, IPU_DTYPE_F16);
}

/* loss = sum(dy * y) in double from the device's y for inputs x, w */
static double conv_loss(struct __test_metadata *_metadata, struct ipu_device *d, const struct cgraph *c,
			const float *x, const float *w, const float *dy, float *y)
{
	double l = 0;

	ASSERT_CALL(ipu_tensor_write(d, "x", x, c->nx * 4, &err));
	ASSERT_CALL(ipu_tensor_write(d, "w", w, c->nw * 4, &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y", y, c->ny * 4, &err));
	for (size_t i = 0; i < c->ny; i++)
		l += (double)dy[i] * y[i];
	return l;
}

/* d loss / d v[i] by central differences (h = 0.05; the loss is linear in each) within 1e-3 (1 + |g|) */
static void conv_fd(struct __test_metadata *_metadata, struct ipu_device *d, const struct cgraph *c, float *x,
		    float *w, const float *dy, float *y, float *v, size_t n, const float *grad, const char *what)
{
	for (unsigned k = 0; k < 12; k++) {
		size_t i = (size_t)k * 7919 % n;
		float keep = v[i];
		double lp, lm;

		v[i] = keep + 0.05f;
		lp = conv_loss(_metadata, d, c, x, w, dy, y);
		v[i] = keep - 0.05f;
		lm = conv_loss(_metadata, d, c, x, w, dy, y);
		v[i] = keep;
		double fd = (lp - lm) / ((double)(keep + 0.05f) - (double)(keep - 0.05f));

		EXPECT_TRUE(fabs(fd - grad[i]) <= 1e-3 * (1 + fabs(grad[i])))
			TH_LOG("%s[%zu]: finite difference %.7g, gradient %.7g", what, i, fd, grad[i]);
	}
}

TEST(conv2d_gradients_finite_differences)
{
	struct cshape s = { 2, 4, 5, 6, 4, 3, 2, { sizeof(struct ipu_conv2d_params), { 2, 1 }, { 1, 2 },
						    { 1, 0, 1, 1 }, 2 } };
	struct ipu_graph *g;
	struct ipu_device *d;
	struct cgraph c;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	conv_build(_metadata, g, &s, IPU_DTYPE_F32, 1, &c);
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	float *x = malloc(c.nx * 4), *w = malloc(c.nw * 4), *dy = malloc(c.ny * 4), *y = malloc(c.ny * 4);
	float *dx = malloc(c.nx * 4), *dw = malloc(c.nw * 4);

	ASSERT_TRUE(x && w && dy && y && dx && dw);
	fill_rand(x, c.nx);
	fill_rand(w, c.nw);
	fill_rand(dy, c.ny);
	ASSERT_CALL(ipu_tensor_write(d, "dy", dy, c.ny * 4, &err));
	conv_loss(_metadata, d, &c, x, w, dy, y);
	ASSERT_CALL(ipu_tensor_read(d, "dx", dx, c.nx * 4, &err));
	ASSERT_CALL(ipu_tensor_read(d, "dw", dw, c.nw * 4, &err));
	conv_fd(_metadata, d, &c, x, w, dy, y, x, c.nx, dx, "dx");
	conv_fd(_metadata, d, &c, x, w, dy, y, w, c.nw, dw, "dw");
	ipu_device_close(d);
	free(x), free(w), free(dy), free(y), free(dx), free(dw);
}

/* the refusals, each with the words that must be in the message */
TEST(conv2d_refusals)
{
	struct ipu_graph *g;
	struct ipu_conv2d_params p = IPU_CONV2D_PARAMS_INIT, q;
	uint32_t xs[4] = { 2, 4, 6, 6 }, ws[4] = { 4, 2, 3, 3 }, w3[3] = { 4, 2, 3 }, ys[4] = { 2, 4, 4, 4 };
	int x, w, wg, v, u, dy, xh, seq;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 4, xs, &err));
	ASSERT_CALL(w = ipu_graph_add_tensor(g, "w", IPU_DTYPE_F32, 4, (uint32_t[]){ 4, 4, 3, 3 }, &err));
	ASSERT_CALL(wg = ipu_graph_add_tensor(g, "wg", IPU_DTYPE_F32, 4, ws, &err));
	ASSERT_CALL(v = ipu_graph_add_tensor(g, "v", IPU_DTYPE_F32, 3, w3, &err));
	ASSERT_CALL(u = ipu_graph_add_tensor(g, "u", IPU_DTYPE_F32, 4, xs, &err));
	ASSERT_CALL(dy = ipu_graph_add_tensor(g, "dy", IPU_DTYPE_F32, 4, ys, &err));
	ASSERT_CALL(xh = ipu_graph_add_tensor(g, "xh", IPU_DTYPE_F16, 4, xs, &err));
	for (int t = 0; t < 7; t++)
		if (t != u)
			ASSERT_CALL(ipu_graph_map_linear(g, t, 4, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	expect_err(_metadata, ipu_conv2d(g, seq, x, wg, &p, "y", &err), "shapes do not match", "channels");
	expect_err(_metadata, ipu_conv2d(g, seq, x, v, &p, "y", &err), "rank 3, must be 4", "rank");
	expect_err(_metadata, ipu_conv2d(g, seq, u, w, &p, "y", &err), "not fully mapped", "unmapped");
	expect_err(_metadata, ipu_conv2d(g, seq, xh, w, &p, "y", &err), "must be f16", "dtypes");
	q = p, q.groups = 3;
	expect_err(_metadata, ipu_conv2d(g, seq, x, w, &q, "y", &err), "3 groups must divide", "groups");
	q = p, q.groups = 0;
	expect_err(_metadata, ipu_conv2d(g, seq, x, w, &q, "y", &err), "0 groups must divide", "zero groups");
	q = p, q.stride[1] = 0;
	expect_err(_metadata, ipu_conv2d(g, seq, x, w, &q, "y", &err), "zero stride", "stride");
	q = p, q.dilation[0] = 0;
	expect_err(_metadata, ipu_conv2d(g, seq, x, w, &q, "y", &err), "zero dilation", "dilation");
	q = p, q.dilation[0] = 3;
	expect_err(_metadata, ipu_conv2d(g, seq, x, w, &q, "y", &err), "bigger than the padded input", "kernel");
	q = p, q.argsz = 8;
	expect_err(_metadata, ipu_conv2d(g, seq, x, w, &q, "y", &err), "argsz 8", "argsz");
	expect_err(_metadata, ipu_conv2d(g, seq, x, w, &p, "x", &err), "already exists", "name taken");
	expect_err(_metadata, ipu_conv2d(g, seq, x, w, &p, NULL, &err), "needs a name", "no name");
	expect_err(_metadata, ipu_conv2d(NULL, seq, x, w, &p, "y", &err), "graph is NULL", "no graph");
	expect_err(_metadata, ipu_conv2d_grad_input(g, seq, x, w, x, &p, "dx", &err), "does not match the convolution",
		   "dy shape");
	expect_err(_metadata, ipu_conv2d_grad_weights(g, seq, xh, dy, wg, &p, "dw", &err), "shapes do not match",
		   "dw channels");
	expect_err(_metadata, ipu_conv2d_grad_weights(g, seq, u, dy, w, &p, "dw", &err), "not fully mapped",
		   "dw unmapped x");
	/* a bigger params struct from a newer caller: accepted when its tail is zero */
	struct { struct ipu_conv2d_params p; uint32_t more; } big = { p, 1 };

	big.p.argsz = sizeof(big);
	expect_err(_metadata, ipu_conv2d(g, seq, x, w, &big.p, "y", &err), "is not zero", "argsz tail");
	big.more = 0;
	EXPECT_LE(0, ipu_conv2d(g, seq, x, w, &big.p, "y", &err)) TH_LOG("%s", err.msg);
	ipu_graph_free(g);
}

/* a weight gradient whose blocks run in waves on the test chip: right, and in more than one wave */
TEST(conv2d_weight_gradient_waves)
{
	struct cshape s = { 1, 4, 40, 40, 4, 3, 3, { sizeof(struct ipu_conv2d_params), { 1, 1 }, { 1, 1 },
						     { 1, 1, 1, 1 }, 1 } };
	uint32_t xs[4] = { 1, 4, 40, 40 }, ws[4] = { 4, 4, 3, 3 };
	struct ipu_tensor_desc pd;
	struct ipu_graph *g;
	int x, w, dy, seq, cs0, cs1;

	conv_case(_metadata, "test", IPU_MODEL_TEST, &s, IPU_DTYPE_F32);
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 4, xs, &err));
	ASSERT_CALL(w = ipu_graph_add_tensor(g, "w", IPU_DTYPE_F32, 4, ws, &err));
	ASSERT_CALL(dy = ipu_graph_add_tensor(g, "dy", IPU_DTYPE_F32, 4, xs, &err));
	for (int t = x; t <= dy; t++)
		ASSERT_CALL(ipu_graph_map_linear(g, t, 8, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(cs0 = ipu_graph_add_compute_set(g, "probe0", &err));
	ASSERT_CALL(ipu_conv2d_grad_weights(g, seq, x, dy, w, &s.p, "dw", &err));
	ASSERT_CALL(cs1 = ipu_graph_add_compute_set(g, "probe1", &err));
	ASSERT_CALL(ipu_graph_tensor_desc(g, ipu_graph_find_tensor(g, "dw/partials"), &pd, &err));
	/* two compute sets a wave plus the reduction's: several waves into fewer partial rows */
	EXPECT_LT(5, cs1 - cs0 - 1) TH_LOG("%d compute sets", cs1 - cs0 - 1);
	EXPECT_GE(2u, pd.shape[0]) TH_LOG("%u partial rows", pd.shape[0]);
	ipu_graph_free(g);
}
