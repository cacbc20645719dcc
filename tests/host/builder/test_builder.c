// SPDX-License-Identifier: MIT
/*
 * Host tests of the graph builder, the partition helpers, the model device
 * and the .npy reader/writer. KTAP on stdout. Usage: test_builder [TMPDIR]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipudev.h"
#include "codelets.h"

static const char *tmpdir = "/tmp";
static char why[512];

static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return -1;
}

#define CHECK(cond, ...) do { if (!(cond)) return fail(__VA_ARGS__); } while (0)
#define OK(call) do { struct ipu_error e_ = { 0, "" }; (void)e_; \
	if ((call) < 0) return fail("%s: %s", #call, err.msg); } while (0)

static struct ipu_error err;

static uint64_t rng = 88172645463325252ull;

static float frand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (float)((rng >> 11) % 2000001) / 1000000.0f - 1.0f;
}

static void fill_rand(float *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = frand();
}

/* C[m][n] = A[m][k] B[k][n] in double */
static void ref_matmul(const float *a, const float *b, double *c, unsigned m, unsigned n, unsigned k)
{
	for (unsigned i = 0; i < m; i++)
		for (unsigned j = 0; j < n; j++) {
			double s = 0;

			for (unsigned l = 0; l < k; l++)
				s += (double)a[(size_t)i * k + l] * b[(size_t)l * n + j];
			c[(size_t)i * n + j] = s;
		}
}

/* max |got - want| / (|want| + scale) */
static double max_err(const float *got, const double *want, size_t n, double scale)
{
	double e = 0;

	for (size_t i = 0; i < n; i++) {
		double d = fabs(got[i] - want[i]) / (fabs(want[i]) + scale);

		if (!(d <= e))
			e = d;
	}
	return e;
}

static int load_run(struct ipu_graph *g, const char *model, struct ipu_device **out)
{
	void *bin;
	size_t len;

	OK(ipu_graph_write(g, &bin, &len, &err));
	if (ipu_model_open(model, 0, out, &err)) {
		free(bin);
		return fail("model_open: %s", err.msg);
	}
	if (ipu_load(*out, bin, len, &err)) {
		free(bin);
		ipu_device_close(*out);
		return fail("load: %s", err.msg);
	}
	free(bin);
	return 0;
}

/* ---------------- tests ---------------- */

static int t_builder_simple(void)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t shape[1] = { 1000 };
	float x[1000], y[1000];
	int tx, ty, cs, seq, r;

	OK(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	OK(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, &err));
	OK(ty = ipu_graph_add_tensor(g, "y", IPU_DTYPE_F32, 1, shape, &err));
	OK(ipu_graph_map_linear(g, tx, 8, &err));
	OK(ipu_graph_map_like(g, ty, tx, &err));
	OK(cs = ipu_graph_add_compute_set(g, "relu", &err));
	for (unsigned t = 0; t < ipu_graph_tiles(g); t++) {
		/* one vertex per tile over its part */
		uint64_t b = 0, n = 0;

		for (uint64_t e = 0; e < 1000; e++)
			if (ipu_graph_tile_of(g, tx, e) == (int)t) {
				if (!n)
					b = e;
				n++;
			}
		if (!n)
			continue;
		struct ipu_slice f[2] = { { tx, b, n }, { ty, b, n } };

		OK(ipu_graph_add_vertex(g, cs, IPUE_CODELET_UNARY(IPUE_UOP_RELU), f, 2, NULL, 0, &err));
	}
	OK(seq = ipu_prog_sequence(g, &err));
	OK(ipu_prog_append(g, seq, ipu_prog_execute(g, cs, &err), &err));
	OK(ipu_graph_add_program(g, "main", seq, &err));
	OK(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, ty, NULL, IPU_HANDLE_READ, &err));
	OK(ipu_graph_set_metadata(g, "test", "simple", &err));
	r = load_run(g, "test", &d);
	ipu_graph_free(g);
	if (r)
		return r;
	fill_rand(x, 1000);
	OK(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	OK(ipu_run(d, 0, 1, NULL, &err));
	OK(ipu_tensor_read(d, "y", y, sizeof(y), &err));
	ipu_device_close(d);
	for (int i = 0; i < 1000; i++)
		CHECK(y[i] == (x[i] > 0 ? x[i] : 0), "y[%d] = %g for x = %g", i, y[i], x[i]);
	return 0;
}

static int expect_err(int r, const char *needle, const char *what)
{
	CHECK(r < 0, "%s: accepted", what);
	CHECK(strstr(err.msg, needle), "%s: message '%s' lacks '%s'", what, err.msg, needle);
	return 0;
}

static int t_builder_bad_mapping(void)
{
	struct ipu_graph *g;
	uint32_t shape[2] = { 4, 64 }, big[1] = { 20000 };
	int t, t2, cs, r;
	void *bin;
	size_t len;

	OK(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	OK(t = ipu_graph_add_tensor(g, "w", IPU_DTYPE_F32, 2, shape, &err));
	if ((r = expect_err(ipu_graph_map(g, t, 0, 64, 32, &err), "tile 32", "map to tile 32")))
		goto out;
	if ((r = expect_err(ipu_graph_map(g, t, 200, 100, 0, &err), "cannot map", "map past the end")))
		goto out;
	OK(ipu_graph_map(g, t, 0, 128, 0, &err));
	if ((r = expect_err(ipu_graph_map(g, t, 64, 10, 1, &err), "already mapped", "double map")))
		goto out;
	OK(ipu_graph_map(g, t, 128, 64, 1, &err));
	/* element 192.. unmapped: write refuses */
	OK(ipu_graph_add_program(g, "p", ipu_prog_sequence(g, &err), &err));
	if ((r = expect_err(ipu_graph_write(g, &bin, &len, &err), "element 192 is not mapped", "unmapped")))
		goto out;
	OK(ipu_graph_map(g, t, 192, 64, 2, &err));
	/* a field across two tiles */
	OK(cs = ipu_graph_add_compute_set(g, "cs", &err));
	{
		struct ipu_slice f[1] = { { t, 100, 50 } };
		uint32_t p = 0;

		if ((r = expect_err(ipu_graph_add_vertex(g, cs, IPUE_CODELET_FILL, f, 1, &p, 1, &err),
				    "not contiguous in one tile", "field across tiles")))
			goto out;
	}
	/* fields on different tiles */
	{
		struct ipu_slice f[2] = { { t, 0, 10 }, { t, 128, 10 } };

		if ((r = expect_err(ipu_graph_add_vertex(g, cs, IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2,
							 NULL, 0, &err), "on tile 1", "fields on two tiles")))
			goto out;
	}
	/* codelet check: unary with in/out counts differing */
	{
		struct ipu_slice f[2] = { { t, 0, 10 }, { t, 10, 11 } };

		if ((r = expect_err(ipu_graph_add_vertex(g, cs, IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2,
							 NULL, 0, &err), "refused", "codelet check")))
			goto out;
	}
	/* tile memory exhausted */
	OK(t2 = ipu_graph_add_tensor(g, "big", IPU_DTYPE_F32, 1, big, &err));
	if ((r = expect_err(ipu_graph_map_tile(g, t2, 0, &err), "out of memory", "tile memory")))
		goto out;
	r = 0;
out:
	ipu_graph_free(g);
	return r;
}

static int t_builder_overlap(void)
{
	struct ipu_graph *g;
	uint32_t shape[1] = { 256 };
	int t, u, cs, ex, r;
	uint32_t p = 0;

	OK(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	OK(t = ipu_graph_add_tensor(g, "acc", IPU_DTYPE_F32, 1, shape, &err));
	OK(u = ipu_graph_add_tensor(g, "src", IPU_DTYPE_F32, 1, shape, &err));
	OK(ipu_graph_map_tile(g, t, 3, &err));
	OK(ipu_graph_map_tile(g, u, 3, &err));
	OK(cs = ipu_graph_add_compute_set(g, "racy", &err));
	{
		struct ipu_slice f1[1] = { { t, 0, 128 } }, f2[1] = { { t, 64, 128 } }, f3[1] = { { t, 128, 128 } };

		OK(ipu_graph_add_vertex(g, cs, IPUE_CODELET_FILL, f1, 1, &p, 1, &err));
		if ((r = expect_err(ipu_graph_add_vertex(g, cs, IPUE_CODELET_FILL, f2, 1, &p, 1, &err),
				    "overlapping writes in one compute set", "write/write overlap")))
			goto out;
		CHECK(strstr(err.msg, "'acc'") && strstr(err.msg, "'racy'"), "message lacks names: %s", err.msg);
		OK(ipu_graph_add_vertex(g, cs, IPUE_CODELET_FILL, f3, 1, &p, 1, &err));
	}
	/* read of a region another vertex writes */
	{
		struct ipu_slice f[2] = { { t, 0, 16 }, { u, 0, 16 } };

		if ((r = expect_err(ipu_graph_add_vertex(g, cs, IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2,
							 NULL, 0, &err), "writes", "read/write overlap")))
			goto out;
	}
	/* exchange: overlapping destinations */
	OK(ex = ipu_graph_add_exchange(g, "ex", &err));
	{
		struct ipu_slice s1 = { u, 0, 32 }, d1 = { t, 0, 32 }, d2 = { t, 16, 32 };

		OK(ipu_graph_exchange_copy(g, ex, s1, d1, &err));
		if ((r = expect_err(ipu_graph_exchange_copy(g, ex, s1, d2, &err), "overlap another destination",
				    "exchange dst overlap")))
			goto out;
		if ((r = expect_err(ipu_graph_exchange_copy(g, ex, d1, s1, &err), "overlap",
				    "exchange src/dst overlap")))
			goto out;
	}
	r = 0;
out:
	ipu_graph_free(g);
	return r;
}

static int matmul_case(const char *model, uint32_t modelid, unsigned m, unsigned k, unsigned n,
		       int blocked)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	struct ipu_matmul_plan p;
	uint32_t sa[2] = { m, k }, sb[2] = { k, n };
	float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n);
	float *c = malloc(sizeof(float) * m * n);
	double *ref = malloc(sizeof(double) * m * n), e;
	int ta, tb, tc, seq, r;

	if (!a || !b || !c || !ref)
		return fail("oom");
	OK(ipu_graph_create(modelid, &g, &err));
	OK(ipu_matmul_plan(g, m, n, k, IPU_DTYPE_F32, &p, &err));
	if (blocked) {
		OK(ta = ipu_matmul_create_lhs(g, &p, "a", &err));
		OK(tb = ipu_matmul_create_rhs(g, &p, "b", &err));
	} else {
		OK(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, sa, &err));
		OK(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 2, sb, &err));
		OK(ipu_graph_map_linear(g, ta, 1, &err));
		OK(ipu_graph_map_linear(g, tb, 1, &err));
	}
	OK(seq = ipu_prog_sequence(g, &err));
	OK(tc = ipu_matmul(g, seq, ta, tb, "c", &p, &err));
	OK(ipu_graph_add_program(g, "matmul", seq, &err));
	OK(ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, tc, NULL, IPU_HANDLE_READ, &err));
	r = load_run(g, model, &d);
	ipu_graph_free(g);
	if (r)
		return r;
	fill_rand(a, (size_t)m * k);
	fill_rand(b, (size_t)k * n);
	OK(ipu_tensor_write(d, "a", a, sizeof(float) * m * k, &err));
	OK(ipu_tensor_write(d, "b", b, sizeof(float) * k * n, &err));
	for (int rep = 0; rep < 2; rep++)	/* twice: the partials are re-zeroed */
		OK(ipu_run(d, 0, 1, NULL, &err));
	OK(ipu_tensor_read(d, "c", c, sizeof(float) * m * n, &err));
	ipu_device_close(d);
	ref_matmul(a, b, ref, m, n, k);
	e = max_err(c, ref, (size_t)m * n, sqrt((double)k));
	free(a);
	free(b);
	free(c);
	free(ref);
	CHECK(e < 1e-5, "%s %ux%ux%u: max relative error %g (grid %ux%ux%u ks %u)", model, m, k, n, e,
	      p.pm, p.pn, p.pk, p.ks);
	return 0;
}

static int t_matmul_test(void) { return matmul_case("test", IPU_MODEL_TEST, 256, 512, 128, 1); }
static int t_matmul_gc200(void) { return matmul_case("gc200", IPU_MODEL_GC200, 256, 512, 128, 1); }
static int t_matmul_linear(void) { return matmul_case("test", IPU_MODEL_TEST, 37, 53, 29, 0); }
static int t_matmul_gc2_odd(void) { return matmul_case("gc2", IPU_MODEL_GC2, 130, 300, 70, 0); }

static int t_mlp(void)
{
	/* x[B][I] -> relu(x W1 + b1) -> relu(. W2 + b2) */
	enum { B = 64, I = 96, H = 128, O = 40 };
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t sx[2] = { B, I }, sw1[2] = { I, H }, sb1[1] = { H }, sw2[2] = { H, O }, sb2[1] = { O };
	static float x[B * I], w1[I * H], b1[H], w2[H * O], b2[O], y[B * O];
	static double h[B * H], o[B * O];
	static float hf[B * H];
	int tx, tw1, tb1, tw2, tb2, h1, y1, seq, r;
	double e;

	OK(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	OK(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, sx, &err));
	OK(tw1 = ipu_graph_add_tensor(g, "w1", IPU_DTYPE_F32, 2, sw1, &err));
	OK(tb1 = ipu_graph_add_tensor(g, "b1", IPU_DTYPE_F32, 1, sb1, &err));
	OK(tw2 = ipu_graph_add_tensor(g, "w2", IPU_DTYPE_F32, 2, sw2, &err));
	OK(tb2 = ipu_graph_add_tensor(g, "b2", IPU_DTYPE_F32, 1, sb2, &err));
	OK(ipu_graph_map_linear(g, tx, 16, &err));
	OK(ipu_graph_map_linear(g, tw1, 16, &err));
	OK(ipu_graph_map_linear(g, tw2, 16, &err));
	OK(ipu_graph_map_tile(g, tb1, 5, &err));
	OK(ipu_graph_map_tile(g, tb2, 9, &err));
	OK(seq = ipu_prog_sequence(g, &err));
	OK(h1 = ipu_matmul(g, seq, tx, tw1, "h1", NULL, &err));
	OK(ipu_binary(g, seq, IPU_OP_ADD, h1, tb1, NULL, &err));
	OK(ipu_unary(g, seq, IPU_OP_RELU, h1, NULL, &err));
	OK(y1 = ipu_matmul(g, seq, h1, tw2, "y", NULL, &err));
	OK(ipu_binary(g, seq, IPU_OP_ADD, y1, tb2, NULL, &err));
	OK(ipu_unary(g, seq, IPU_OP_RELU, y1, NULL, &err));
	OK(ipu_graph_add_program(g, "forward", seq, &err));
	OK(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, tw1, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, tb1, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, tw2, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, tb2, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, y1, NULL, IPU_HANDLE_READ, &err));
	r = load_run(g, "test", &d);
	ipu_graph_free(g);
	if (r)
		return r;
	fill_rand(x, B * I);
	fill_rand(w1, I * H);
	fill_rand(b1, H);
	fill_rand(w2, H * O);
	fill_rand(b2, O);
	OK(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	OK(ipu_tensor_write(d, "w1", w1, sizeof(w1), &err));
	OK(ipu_tensor_write(d, "b1", b1, sizeof(b1), &err));
	OK(ipu_tensor_write(d, "w2", w2, sizeof(w2), &err));
	OK(ipu_tensor_write(d, "b2", b2, sizeof(b2), &err));
	OK(ipu_program_find(d, "forward", &err));
	OK(ipu_run(d, 0, 1, NULL, &err));
	OK(ipu_tensor_read(d, "y", y, sizeof(y), &err));
	ipu_device_close(d);
	ref_matmul(x, w1, h, B, H, I);
	for (int i = 0; i < B * H; i++) {
		h[i] += b1[i % H];
		hf[i] = (float)(h[i] > 0 ? h[i] : 0);
	}
	ref_matmul(hf, w2, o, B, O, H);
	for (int i = 0; i < B * O; i++) {
		o[i] += b2[i % O];
		o[i] = o[i] > 0 ? o[i] : 0;
	}
	e = max_err(y, o, B * O, 10);
	CHECK(e < 1e-5, "mlp: max relative error %g", e);
	return 0;
}

static int t_elementwise_reduce(void)
{
	enum { R = 7, L = 1000 };
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t sh[2] = { R, L };
	static float a[R * L], b[R * L], o[R * L], rs[R], rm[R];
	float s, mx;
	double ref = 0;
	int ta, tb, to, tm, ts, tr, tmx, seq, r;

	OK(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	OK(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, sh, &err));
	OK(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 2, sh, &err));
	OK(ipu_graph_map_linear(g, ta, 1, &err));
	/* b mapped differently: exchange needed */
	for (unsigned t = 0; t < 7; t++)
		OK(ipu_graph_map(g, tb, t * 1000, 1000, 31 - t, &err));
	OK(seq = ipu_prog_sequence(g, &err));
	OK(to = ipu_binary(g, seq, IPU_OP_MUL, ta, tb, "prod", &err));
	OK(ipu_unary(g, seq, IPU_OP_EXP, to, NULL, &err));
	OK(tm = ipu_binary(g, seq, IPU_OP_MAX, to, ta, "m", &err));
	OK(ts = ipu_reduce(g, seq, IPU_REDUCE_SUM, tm, "sum", &err));
	OK(tmx = ipu_reduce(g, seq, IPU_REDUCE_MAX, tm, "max", &err));
	OK(tr = ipu_reduce_rows(g, seq, IPU_REDUCE_SUM, tm, "rowsum", &err));
	OK(ipu_graph_add_program(g, "p", seq, &err));
	OK(ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, tm, NULL, IPU_HANDLE_READ, &err));
	OK(ipu_graph_expose(g, ts, NULL, IPU_HANDLE_READ, &err));
	OK(ipu_graph_expose(g, tmx, NULL, IPU_HANDLE_READ, &err));
	OK(ipu_graph_expose(g, tr, NULL, IPU_HANDLE_READ, &err));
	(void)rm;
	r = load_run(g, "test", &d);
	ipu_graph_free(g);
	if (r)
		return r;
	fill_rand(a, R * L);
	fill_rand(b, R * L);
	OK(ipu_tensor_write(d, "a", a, sizeof(a), &err));
	OK(ipu_tensor_write(d, "b", b, sizeof(b), &err));
	OK(ipu_run(d, 0, 1, NULL, &err));
	OK(ipu_tensor_read(d, "m", o, sizeof(o), &err));
	OK(ipu_tensor_read(d, "sum", &s, sizeof(s), &err));
	OK(ipu_tensor_read(d, "max", &mx, sizeof(mx), &err));
	OK(ipu_tensor_read(d, "rowsum", rs, sizeof(rs), &err));
	ipu_device_close(d);
	{
		double gmax = -1e30;

		for (int i = 0; i < R * L; i++) {
			double w = exp((double)a[i] * b[i]);

			w = w > a[i] ? w : a[i];
			CHECK(fabs(o[i] - w) <= 1e-6 * fabs(w) + 1e-6, "m[%d] = %g, want %g", i, o[i], w);
			ref += o[i];
			if (o[i] > gmax)
				gmax = o[i];
		}
		CHECK(fabs(s - ref) <= 1e-5 * fabs(ref), "sum %g, want %g", s, ref);
		CHECK(mx == (float)gmax, "max %g, want %g", mx, gmax);
		for (int rr = 0; rr < R; rr++) {
			double q = 0;

			for (int i = 0; i < L; i++)
				q += o[rr * L + i];
			CHECK(fabs(rs[rr] - q) <= 1e-5 * fabs(q), "rowsum[%d] %g, want %g", rr, rs[rr], q);
		}
	}
	return 0;
}

/* loop + streams: for 5 transfers: x <- stream; acc += x; out stream <- acc */
struct sctx {
	float data[5][16];
	int next;
	float got[8][16];
	int ngot;
};

static int s_fetch(void *user, void *dst, size_t len)
{
	struct sctx *c = user;

	if (c->next >= 5)
		return IPU_STREAM_NO_DATA;
	memcpy(dst, c->data[c->next++], len);
	return 0;
}

static int s_push(void *user, const void *src, size_t len)
{
	struct sctx *c = user;

	if (c->ngot >= 8 || len != sizeof(c->got[0]))
		return -1;
	memcpy(c->got[c->ngot++], src, len);
	return 0;
}

static int t_loop_streams(void)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t sh[1] = { 16 };
	struct sctx ctx;
	float zero[16] = { 0 };
	struct ipu_stream_callbacks cin = { s_fetch, NULL, &ctx }, cout = { NULL, s_push, &ctx };
	int x, acc, sin, sout, body, rep, seq, r;

	memset(&ctx, 0, sizeof(ctx));
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 16; j++)
			ctx.data[i][j] = (float)(i * 16 + j);
	OK(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	OK(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, sh, &err));
	OK(acc = ipu_graph_add_tensor(g, "acc", IPU_DTYPE_F32, 1, sh, &err));
	OK(ipu_graph_map(g, x, 0, 8, 1, &err));
	OK(ipu_graph_map(g, x, 8, 8, 2, &err));
	OK(ipu_graph_map(g, acc, 0, 16, 2, &err));
	OK(ipu_graph_set_initial(g, acc, zero, sizeof(zero), &err));
	OK(sin = ipu_graph_add_stream(g, "in", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, 16, 2, &err));
	OK(sout = ipu_graph_add_stream(g, "out", IPU_STREAM_DEVICE_TO_HOST, IPU_DTYPE_F32, 16, 1, &err));
	OK(body = ipu_prog_sequence(g, &err));
	OK(ipu_prog_append(g, body, ipu_prog_stream_copy(g, sin, x, &err), &err));
	OK(ipu_binary(g, body, IPU_OP_ADD, acc, x, NULL, &err));
	OK(ipu_prog_append(g, body, ipu_prog_stream_copy(g, sout, acc, &err), &err));
	OK(rep = ipu_prog_repeat(g, 5, body, &err));
	OK(seq = ipu_prog_sequence(g, &err));
	OK(ipu_prog_append(g, seq, rep, &err));
	if ((r = expect_err(ipu_prog_append(g, body, seq, &err), "contain itself", "program cycle")))
		return r;
	OK(ipu_graph_add_program(g, "loop", seq, &err));
	OK(ipu_graph_expose(g, acc, NULL, IPU_HANDLE_READ, &err));
	r = load_run(g, "test", &d);
	ipu_graph_free(g);
	if (r)
		return r;
	/* not connected: the run fails with a message naming the program */
	if ((r = expect_err(ipu_run(d, 0, 1, NULL, &err), "loop", "unconnected stream")))
		return r;
	OK(ipu_stream_connect(d, "in", &cin, &err));
	OK(ipu_stream_connect(d, "out", &cout, &err));
	if ((r = expect_err(ipu_stream_connect(d, "nope", &cin, &err), "nope", "unknown stream")))
		return r;
	if ((r = expect_err(ipu_run(d, 7, 1, NULL, &err), "program 7", "bad program")))
		return r;
	ipu_device_close(d);
	return 0;
}

/* the same loop, run for real on a fresh device */
static int t_loop_streams_run(void)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t sh[1] = { 16 };
	struct sctx ctx;
	float zero[16] = { 0 }, accv[16];
	struct ipu_stream_callbacks cin = { s_fetch, NULL, &ctx }, cout = { NULL, s_push, &ctx };
	struct ipu_run_stats st;
	int x, acc, sin, sout, body, seq, r;

	memset(&ctx, 0, sizeof(ctx));
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 16; j++)
			ctx.data[i][j] = (float)(i * 16 + j);
	OK(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	OK(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, sh, &err));
	OK(acc = ipu_graph_add_tensor(g, "acc", IPU_DTYPE_F32, 1, sh, &err));
	OK(ipu_graph_map(g, x, 0, 8, 1, &err));
	OK(ipu_graph_map(g, x, 8, 8, 2, &err));
	OK(ipu_graph_map(g, acc, 0, 16, 2, &err));
	OK(ipu_graph_set_initial(g, acc, zero, sizeof(zero), &err));
	OK(sin = ipu_graph_add_stream(g, "in", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, 16, 2, &err));
	OK(sout = ipu_graph_add_stream(g, "out", IPU_STREAM_DEVICE_TO_HOST, IPU_DTYPE_F32, 16, 1, &err));
	OK(body = ipu_prog_sequence(g, &err));
	OK(ipu_prog_append(g, body, ipu_prog_stream_copy(g, sin, x, &err), &err));
	OK(ipu_binary(g, body, IPU_OP_ADD, acc, x, NULL, &err));
	OK(ipu_prog_append(g, body, ipu_prog_stream_copy(g, sout, acc, &err), &err));
	OK(seq = ipu_prog_repeat(g, 5, body, &err));
	OK(ipu_graph_add_program(g, "loop", seq, &err));
	OK(ipu_graph_expose(g, acc, NULL, IPU_HANDLE_READ, &err));
	r = load_run(g, "test", &d);
	ipu_graph_free(g);
	if (r)
		return r;
	OK(ipu_stream_connect(d, "in", &cin, &err));
	OK(ipu_stream_connect(d, "out", &cout, &err));
	OK(ipu_run(d, 0, 1, &st, &err));
	OK(ipu_tensor_read(d, "acc", accv, sizeof(accv), &err));
	if ((r = expect_err(ipu_tensor_write(d, "acc", accv, sizeof(accv), &err), "may not write",
			    "read-only handle")))
		return r;
	if ((r = expect_err(ipu_tensor_read(d, "acc", accv, 12, &err), "12 bytes given", "size")))
		return r;
	ipu_device_close(d);
	CHECK(ctx.ngot == 5, "%d transfers pushed, want 5", ctx.ngot);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 16; j++) {
			float want = 0;

			for (int q = 0; q <= i; q++)
				want += (float)(q * 16 + j);
			CHECK(ctx.got[i][j] == want, "transfer %d [%d] = %g, want %g", i, j, ctx.got[i][j], want);
		}
	CHECK(accv[3] == 0 + 3 + 16 + 3 + 32 + 3 + 48 + 3 + 64 + 3, "acc[3] = %g", accv[3]);
	CHECK(st.cycles > 0 && st.stream_bytes_h2d == 5 * 64 && st.stream_bytes_d2h == 5 * 64,
	      "stats: cycles %llu h2d %llu d2h %llu", (unsigned long long)st.cycles,
	      (unsigned long long)st.stream_bytes_h2d, (unsigned long long)st.stream_bytes_d2h);
	return 0;
}

/* ---------------- npy ---------------- */

static int t_npy_roundtrip(void)
{
	char path[512];
	float f[6] = { 1, -2, 3.5f, 0, 1e30f, -0.0f };
	uint16_t h[3] = { 0x3c00, 0xc000, 0x7c00 };
	int32_t i4[1] = { -7 };
	uint64_t s23[2] = { 2, 3 }, s3[1] = { 3 };
	struct ipu_npy a;

	snprintf(path, sizeof(path), "%s/rt.npy", tmpdir);
	OK(ipu_npy_write(path, IPU_DTYPE_F32, 2, s23, f, &err));
	OK(ipu_npy_read(path, &a, &err));
	CHECK(a.dtype == IPU_DTYPE_F32 && a.ndim == 2 && a.shape[0] == 2 && a.shape[1] == 3 &&
	      a.bytes == 24 && !memcmp(a.data, f, 24), "f32 round trip");
	ipu_npy_free(&a);
	OK(ipu_npy_write(path, IPU_DTYPE_F16, 1, s3, h, &err));
	OK(ipu_npy_read(path, &a, &err));
	CHECK(a.dtype == IPU_DTYPE_F16 && a.ndim == 1 && a.shape[0] == 3 && !memcmp(a.data, h, 6), "f16");
	ipu_npy_free(&a);
	OK(ipu_npy_write(path, IPU_DTYPE_I32, 0, NULL, i4, &err));
	OK(ipu_npy_read(path, &a, &err));
	CHECK(a.dtype == IPU_DTYPE_I32 && a.ndim == 0 && a.count == 1 && *(int32_t *)a.data == -7, "i32 scalar");
	ipu_npy_free(&a);
	/* header exactly as numpy writes it, and 64-byte aligned data */
	{
		void *b;
		size_t n;

		OK(ipu_npy_encode(IPU_DTYPE_F32, 2, s23, f, &b, &n, &err));
		CHECK((n - 24) % 64 == 0, "data offset %zu not 64-aligned", n - 24);
		CHECK(memmem(b, n, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 59),
		      "header text differs from numpy's");
		free(b);
		OK(ipu_npy_encode(IPU_DTYPE_F32, 1, s3, f, &b, &n, &err));
		CHECK(memmem(b, n, "'shape': (3,), }", 16), "1-D shape text");
		free(b);
	}
	/* a version 2.0 file written by hand, keys in another order */
	{
		const char hdr[] = "{'shape': (2,), 'fortran_order': False, 'descr': '<i4'}";
		unsigned char buf[256];
		size_t hl = sizeof(hdr) - 1, tot = 12 + hl + 1;
		int32_t v[2] = { 5, 6 };

		memcpy(buf, "\x93NUMPY\x02\x00", 8);
		buf[8] = (unsigned char)(hl + 1);
		buf[9] = buf[10] = buf[11] = 0;
		memcpy(buf + 12, hdr, hl);
		buf[12 + hl] = '\n';
		memcpy(buf + tot, v, 8);
		OK(ipu_npy_parse(buf, tot + 8, &a, "v2", &err));
		CHECK(a.dtype == IPU_DTYPE_I32 && a.shape[0] == 2 && ((int32_t *)a.data)[1] == 6, "v2 parse");
		ipu_npy_free(&a);
	}
	return 0;
}

static int npy_bad(const char *hdr, size_t datalen, int ver, const char *needle)
{
	unsigned char buf[1024];
	size_t hl = strlen(hdr), off = ver == 1 ? 10 : 12;
	struct ipu_npy a;

	memcpy(buf, "\x93NUMPY", 6);
	buf[6] = (unsigned char)ver;
	buf[7] = 0;
	buf[8] = (unsigned char)hl;
	buf[9] = 0;
	buf[10] = buf[11] = 0;
	memcpy(buf + off, hdr, hl);
	memset(buf + off + hl, 0, datalen);
	return expect_err(ipu_npy_parse(buf, off + hl + datalen, &a, "bad.npy", &err), needle, hdr);
}

static int t_npy_malformed(void)
{
	struct ipu_npy a;
	int r;

	if ((r = expect_err(ipu_npy_parse("hello world", 11, &a, "x", &err), "bad magic", "magic")))
		return r;
	if ((r = npy_bad("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }\n", 8, 1, "'>f4'")) ||
	    (r = npy_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n", 16, 1, "accepted")) ||
	    (r = npy_bad("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n", 16, 1, "Fortran")) ||
	    (r = npy_bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }\n", 12, 1, "truncated")) ||
	    (r = npy_bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 12, 1, "unexpected")) ||
	    (r = npy_bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 8, 3, "version 3")) ||
	    (r = npy_bad("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }\n", 8, 1, "shape")) ||
	    (r = npy_bad("{'descr': '<f4', 'shape': (2,), }\n", 8, 1, "fortran_order")) ||
	    (r = npy_bad("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }\n", 8, 1,
			 "structured")) ||
	    (r = npy_bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ", 8, 1, "malformed")))
		return r;
	{
		unsigned char b[12] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 200, 0, '{', '}' };

		if ((r = expect_err(ipu_npy_parse(b, 12, &a, "x", &err), "truncated .npy header", "hlen")))
			return r;
	}
	return expect_err(ipu_npy_read("/nonexistent/x.npy", &a, &err), "No such file", "missing");
}

static int t_model_open_bad(void)
{
	struct ipu_device *d;
	struct ipu_graph *g;
	void *bin;
	size_t len;
	int r;

	if ((r = expect_err(ipu_model_open("gc9000", 0, &d, &err), "unknown model", "model name")))
		return r;
	if ((r = expect_err(ipu_tensor_write(NULL, "x", "", 0, &err), "NULL", "NULL device")))
		return r;
	/* a graph for gc200 refused by the test model */
	OK(ipu_graph_create(IPU_MODEL_GC200, &g, &err));
	OK(ipu_graph_add_program(g, "empty", ipu_prog_sequence(g, &err), &err));
	OK(ipu_graph_write(g, &bin, &len, &err));
	ipu_graph_free(g);
	OK(ipu_model_open("test", 1, &d, &err));
	r = expect_err(ipu_load(d, bin, len, &err), "gc200", "wrong model");
	if (!r)
		r = expect_err(ipu_run(d, 0, 1, NULL, &err), "no graph loaded", "run without graph");
	ipu_device_close(d);
	if (!r) {
		OK(ipu_model_open("gc200", 1, &d, &err));
		OK(ipu_load(d, bin, len, &err));
		((unsigned char *)bin)[len - 1] ^= 1;	/* breaks the checksum */
		r = expect_err(ipu_load(d, bin, len, &err), "rejected", "bad checksum");
		ipu_device_close(d);
	}
	free(bin);
	return r;
}

/* ---------------- files for the ipu-run end-to-end test (run.sh) ---------------- */

static int make_example(const char *dir)
{
	enum { M = 48, K = 40, N = 24 };
	struct ipu_graph *g;
	uint32_t sa[2] = { M, K }, sb[2] = { K, N };
	uint64_t ua[2] = { M, K }, ub[2] = { K, N }, uc[2] = { M, N }, bad[2] = { K, M };
	static float a[M * K], b[K * N], c[M * N];
	static uint16_t h[M * K];
	static double ref[M * N];
	char path[512];
	int ta, tb, tc, seq;

	fill_rand(a, M * K);
	fill_rand(b, K * N);
	ref_matmul(a, b, ref, M, N, K);
	for (int i = 0; i < M * N; i++)
		c[i] = (float)ref[i];
	OK(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	OK(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, sa, &err));
	OK(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 2, sb, &err));
	OK(ipu_graph_map_linear(g, ta, 8, &err));
	OK(ipu_graph_map_linear(g, tb, 8, &err));
	OK(seq = ipu_prog_sequence(g, &err));
	OK(tc = ipu_matmul(g, seq, ta, tb, "c", NULL, &err));
	OK(ipu_graph_add_program(g, "matmul", seq, &err));
	OK(ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
	OK(ipu_graph_expose(g, tc, NULL, IPU_HANDLE_READ, &err));
	OK(ipu_graph_set_metadata(g, "example", "matmul 48x40x24", &err));
	snprintf(path, sizeof(path), "%s/mm.graph", dir);
	OK(ipu_graph_write_file(g, path, &err));
	ipu_graph_free(g);
	snprintf(path, sizeof(path), "%s/a.npy", dir);
	OK(ipu_npy_write(path, IPU_DTYPE_F32, 2, ua, a, &err));
	snprintf(path, sizeof(path), "%s/b.npy", dir);
	OK(ipu_npy_write(path, IPU_DTYPE_F32, 2, ub, b, &err));
	snprintf(path, sizeof(path), "%s/want.npy", dir);
	OK(ipu_npy_write(path, IPU_DTYPE_F32, 2, uc, c, &err));
	snprintf(path, sizeof(path), "%s/a_f16.npy", dir);
	OK(ipu_npy_write(path, IPU_DTYPE_F16, 2, ua, h, &err));
	snprintf(path, sizeof(path), "%s/a_shape.npy", dir);
	OK(ipu_npy_write(path, IPU_DTYPE_F32, 2, bad, a, &err));
	return 0;
}

static int compare(const char *got, const char *want)
{
	struct ipu_npy x, y;

	OK(ipu_npy_read(got, &x, &err));
	OK(ipu_npy_read(want, &y, &err));
	CHECK(x.dtype == IPU_DTYPE_F32 && y.dtype == IPU_DTYPE_F32 && x.count == y.count &&
	      x.ndim == y.ndim, "dtype/shape differ");
	for (uint64_t i = 0; i < x.count; i++) {
		float p = ((float *)x.data)[i], q = ((float *)y.data)[i];

		CHECK(fabsf(p - q) <= 1e-5f * (fabsf(q) + 1), "element %llu: %g, want %g",
		      (unsigned long long)i, p, q);
	}
	ipu_npy_free(&x);
	ipu_npy_free(&y);
	return 0;
}

struct test {
	const char *name;
	int (*fn)(void);
};

static const struct test tests[] = {
	{ "npy_roundtrip", t_npy_roundtrip },
	{ "npy_malformed_refused", t_npy_malformed },
	{ "builder_loads_and_runs", t_builder_simple },
	{ "builder_bad_mapping_refused", t_builder_bad_mapping },
	{ "builder_overlapping_writes_refused", t_builder_overlap },
	{ "model_open_and_load_errors", t_model_open_bad },
	{ "matmul_256x512x128_test", t_matmul_test },
	{ "matmul_256x512x128_gc200", t_matmul_gc200 },
	{ "matmul_odd_linear_layout_test", t_matmul_linear },
	{ "matmul_odd_gc2", t_matmul_gc2_odd },
	{ "mlp_two_layers", t_mlp },
	{ "elementwise_and_reductions", t_elementwise_reduce },
	{ "loop_streams_errors", t_loop_streams },
	{ "loop_streams_run", t_loop_streams_run },
};

int main(int argc, char **argv)
{
	size_t n = sizeof(tests) / sizeof(tests[0]);
	const char *only = getenv("BUILDER_TEST");

	if (argc == 3 && !strcmp(argv[1], "--example")) {
		if (make_example(argv[2])) {
			fprintf(stderr, "%s\n", why);
			return 1;
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--compare")) {
		if (compare(argv[2], argv[3])) {
			fprintf(stderr, "%s\n", why);
			return 1;
		}
		return 0;
	}
	if (argc > 1)
		tmpdir = argv[1];
	printf("KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		int r;

		if (only && !strstr(tests[i].name, only)) {
			printf("ok %zu %s # SKIP filtered\n", i + 1, tests[i].name);
			continue;
		}
		why[0] = 0;
		memset(&err, 0, sizeof(err));
		r = tests[i].fn();
		if (r)
			printf("not ok %zu %s # %s\n", i + 1, tests[i].name, why);
		else
			printf("ok %zu %s\n", i + 1, tests[i].name);
		fflush(stdout);
	}
	return 0;
}
