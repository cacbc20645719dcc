/* SPDX-License-Identifier: MIT */
/*
 * A finite-difference gradient checker for the builder's backward ops.
 * For an op y = f(x_1, ..., x_k) described by a struct gc_op, it builds a
 * graph with two programs on the model device: "fwd" computes y, "bwd"
 * computes the input gradients of the scalar loss L = sum(w .* y) through
 * the op's backward (w, a random tensor of y's shape, is d L / d y). The
 * host then perturbs elements of each differentiable input by +-h, runs
 * "fwd", reads y and forms L in double, and compares the central
 * difference (L(x + h) - L(x - h)) / 2h with the device's gradient.
 *
 * Tolerance, per checked element:
 *   |grad - fd| <= rtol |fd| + atol + 8 u S / h
 * with u = 2^-24 (f32 unit roundoff) and S = sum |w .* y| at the base
 * point: the last term bounds the f32 rounding of y carried into L and
 * divided by the step; rtol covers the O(h^2) truncation of the central
 * difference and the f32 error of the backward; atol a floor for
 * gradients that are zero. Defaults: h = 1e-2, rtol = 1e-2, atol = 1e-4.
 *
 * Inputs are random with a fixed seed (the harness's xorshift, reseeded);
 * at most max_checks elements of each input are checked (spread evenly).
 * gc_run() returns the number of mismatches (so a negative control can
 * expect some) and logs the first few. An input or y may be empty (a 0
 * dimension): then L = 0 at every point, and a non-empty input's gradient
 * must be 0 (numpy's sums over nothing). Included by test_builder.c before
 * the *_tests.h files that use it (uses frand(), load_run(), err).
 */

#define GC_MAX_IN 4

/* how an input's host values are drawn */
enum gc_kind {
	GC_RAND = 0,	/* f32: offset + scale * U(-1, 1) */
	GC_AWAY,	/* f32: like GC_RAND, but |v| >= 0.1 (kinks at 0, e.g. relu) */
	GC_ONEHOT,	/* f32 [N][C]: one 1 per row at a random class */
	GC_LABELS,	/* i32 [N]: a random class in [0, classes) */
};

struct gc_input {
	const char *name;
	enum gc_kind kind;
	unsigned rank;
	uint32_t shape[IPU_MAX_RANK];
	int diff;		/* checked by finite differences */
	float scale, offset;
	uint32_t classes;	/* GC_LABELS */
	uint64_t grain;		/* ipu_graph_map_linear() grain; 0: 1 */
};

struct gc_op {
	const char *what;
	unsigned nin;
	struct gc_input in[GC_MAX_IN];
	/* builds y from the inputs (ids in[]) into @seq; y's id or negative (err set) */
	int (*forward)(struct ipu_graph *g, int seq, const int *in, void *ctx);
	/* builds grads[i] = d L / d in[i] for the diff inputs, w = d L / d y; 0 or negative */
	int (*backward)(struct ipu_graph *g, int seq, const int *in, int y, int w, int *grads, void *ctx);
	void *ctx;
	double h, rtol, atol;	/* 0: the defaults */
	unsigned max_checks;	/* 0: 24 */
	uint64_t seed;
	int quiet;		/* no log of mismatches (a negative control) */
};

/* the device and host state of one check */
struct gc_state {
	struct ipu_device *d;
	float *x[GC_MAX_IN];
	uint64_t n[GC_MAX_IN];
	float *w, *y, *grad;
	uint64_t ny;
	int y_is_input;		/* -1 or the input y aliases (an in-place op) */
};

static uint64_t gc_count(const struct gc_input *in)
{
	uint64_t n = 1;

	for (unsigned i = 0; i < in->rank; i++)
		n *= in->shape[i];
	return n;
}

static void gc_fill(const struct gc_input *in, float *x, uint64_t n)
{
	uint32_t C = in->rank ? in->shape[in->rank - 1] : 1;

	for (uint64_t i = 0; i < n; i++) {
		float v = in->offset + in->scale * frand();

		if (in->kind == GC_AWAY && fabsf(v - in->offset) < 0.1f)
			v += v < in->offset ? -0.1f : 0.1f;
		x[i] = v;
		if (in->kind == GC_ONEHOT)
			x[i] = 0;
		if (in->kind == GC_LABELS) {
			int32_t c = (int32_t)(rng % in->classes);

			memcpy(&x[i], &c, sizeof(c));
		}
	}
	if (in->kind == GC_ONEHOT)
		for (uint64_t r = 0; r < n / C; r++)
			x[r * C + (rng >> 7) % C] = 1, frand();
}

static const char *gc_gname(char *buf, size_t n, const struct gc_input *in)
{
	snprintf(buf, n, "gc/d_%s", in->name);
	return buf;
}

/* the graph of @op loaded on a model device into st->d */
static void gc_build(struct __test_metadata *_metadata, const struct gc_op *op, struct gc_state *st)
{
	struct ipu_graph *g;
	struct ipu_tensor_desc yd;
	int in[GC_MAX_IN], grads[GC_MAX_IN], y, w, fwd, bwd;
	char buf[64];

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	for (unsigned i = 0; i < op->nin; i++) {
		const struct gc_input *p = &op->in[i];

		ASSERT_CALL(in[i] = ipu_graph_add_tensor(g, p->name, p->kind == GC_LABELS ? IPU_DTYPE_I32 :
							 IPU_DTYPE_F32, p->rank, p->shape, &err));
		ASSERT_CALL(ipu_graph_map_linear(g, in[i], p->grain ? p->grain : 1, &err));
		grads[i] = -1;
	}
	ASSERT_CALL(fwd = ipu_prog_sequence(g, &err));
	ASSERT_CALL(bwd = ipu_prog_sequence(g, &err));
	ASSERT_CALL(y = op->forward(g, fwd, in, op->ctx));
	ASSERT_CALL(ipu_graph_tensor_desc(g, y, &yd, &err));
	ASSERT_CALL(w = ipu_graph_add_tensor(g, "gc/w", IPU_DTYPE_F32, yd.rank, yd.shape, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, w, 3, &err));
	ASSERT_CALL(op->backward(g, bwd, in, y, w, grads, op->ctx));
	ASSERT_CALL(ipu_graph_add_program(g, "fwd", fwd, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "bwd", bwd, &err));
	st->y_is_input = -1;
	for (unsigned i = 0; i < op->nin; i++) {
		unsigned acc = IPU_HANDLE_WRITE;

		if (in[i] == y) {
			st->y_is_input = (int)i;
			acc |= IPU_HANDLE_READ;
		}
		ASSERT_CALL(ipu_graph_expose(g, in[i], NULL, acc, &err));
		if (op->in[i].diff) {
			ASSERT_LE(0, grads[i]) TH_LOG("%s: no gradient for %s", op->what, op->in[i].name);
			ASSERT_CALL(ipu_graph_expose(g, grads[i], gc_gname(buf, sizeof(buf), &op->in[i]),
						     IPU_HANDLE_READ, &err));
		}
	}
	if (st->y_is_input < 0)
		ASSERT_CALL(ipu_graph_expose(g, y, "gc/y", IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, w, NULL, IPU_HANDLE_WRITE, &err));
	st->ny = yd.elements;
	load_run(_metadata, g, "test", &st->d);
	ipu_graph_free(g);
}

/* L = sum(w .* y) in double after running "fwd" at the host inputs; S = sum |w .* y| */
static double gc_loss(struct __test_metadata *_metadata, const struct gc_op *op, struct gc_state *st,
		      double *S)
{
	double L = 0, s = 0;

	for (unsigned i = 0; i < op->nin; i++)
		ASSERT_CALL(ipu_tensor_write(st->d, op->in[i].name, st->x[i], st->n[i] * 4, &err));
	ASSERT_CALL(ipu_run(st->d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(st->d, st->y_is_input < 0 ? "gc/y" : op->in[st->y_is_input].name, st->y,
				    st->ny * 4, &err));
	for (uint64_t i = 0; i < st->ny; i++) {
		L += (double)st->w[i] * st->y[i];
		s += fabs((double)st->w[i] * st->y[i]);
	}
	if (S)
		*S = s;
	return L;
}

/* input k's checked elements: mismatches added to *bad */
static void gc_check_input(struct __test_metadata *_metadata, const struct gc_op *op, struct gc_state *st,
			   unsigned k, double S, unsigned *bad)
{
	double h = op->h ? op->h : 1e-2, rtol = op->rtol ? op->rtol : 1e-2, atol = op->atol ? op->atol : 1e-4;
	double noise = 8 * 0x1p-24 * S / h;
	uint64_t n = st->n[k], checks = op->max_checks ? op->max_checks : 24, step;
	char buf[64];

	ASSERT_CALL(ipu_tensor_read(st->d, gc_gname(buf, sizeof(buf), &op->in[k]), st->grad, n * 4, &err));
	step = n <= checks ? 1 : (n + checks - 1) / checks;
	for (uint64_t e = 0; e < n; e += step) {
		float x0 = st->x[k][e];
		double lp, lm, fd, tol;

		st->x[k][e] = (float)(x0 + h);
		lp = gc_loss(_metadata, op, st, NULL);
		st->x[k][e] = (float)(x0 - h);
		lm = gc_loss(_metadata, op, st, NULL);
		st->x[k][e] = x0;
		/* the step actually taken in f32 */
		fd = (lp - lm) / ((double)(float)(x0 + h) - (double)(float)(x0 - h));
		tol = rtol * fabs(fd) + atol + noise;
		if (!(fabs(st->grad[e] - fd) <= tol) && (*bad)++ < 4 && !op->quiet)
			TH_LOG("%s: d L / d %s[%llu] = %.7g, finite difference %.7g (tolerance %.3g)", op->what,
			       op->in[k].name, (unsigned long long)e, st->grad[e], fd, tol);
	}
}

/* checks @op; the number of mismatching elements to *mismatches */
static void gc_run(struct __test_metadata *_metadata, const struct gc_op *op, unsigned *mismatches)
{
	struct gc_state st = { 0 };
	uint64_t nmax = 0;
	double S;

	*mismatches = 0;
	rng = op->seed ? op->seed : 88172645463325252ull;
	gc_build(_metadata, op, &st);
	for (unsigned i = 0; i < op->nin; i++) {
		st.n[i] = gc_count(&op->in[i]);
		nmax = st.n[i] > nmax ? st.n[i] : nmax;
		ASSERT_NE(NULL, st.x[i] = malloc(st.n[i] * 4 + 4));	/* + 4: an empty input too */
		gc_fill(&op->in[i], st.x[i], st.n[i]);
	}
	ASSERT_NE(NULL, st.w = malloc(st.ny * 4 + 4));
	ASSERT_NE(NULL, st.y = malloc(st.ny * 4 + 4));
	ASSERT_NE(NULL, st.grad = malloc(nmax * 4 + 4));
	fill_rand(st.w, st.ny);
	ASSERT_CALL(ipu_tensor_write(st.d, "gc/w", st.w, st.ny * 4, &err));
	gc_loss(_metadata, op, &st, &S);
	ASSERT_CALL(ipu_run(st.d, 1, 1, NULL, &err));
	for (unsigned i = 0; i < op->nin; i++)
		if (op->in[i].diff)
			gc_check_input(_metadata, op, &st, i, S, mismatches);
	ipu_device_close(st.d);
	for (unsigned i = 0; i < op->nin; i++)
		free(st.x[i]);
	free(st.w);
	free(st.y);
	free(st.grad);
}

/* a random dimension in [lo, hi] (odd sizes included) */
static uint32_t gc_dim(uint32_t lo, uint32_t hi)
{
	frand();
	return lo + (uint32_t)((rng >> 9) % (hi - lo + 1));
}
