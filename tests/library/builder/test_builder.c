// SPDX-License-Identifier: MIT
/*
 * Host tests of the graph builder, the partition helpers, the model device
 * and the .npy reader/writer, on the kernel's kselftest harness (KTAP on
 * stdout, why a test failed on stderr). Usage: see main().
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
#include "builder_internal.h"	/* ipu__graph_copy_count() */
#include "internal.h"		/* ipu__model_open(): the memory-plan checker on */
#include "expr_internal.h"	/* ipu__expr_compile(): the worked example's program */
#include "codelets.h"
#include "../ref_matmul.h"
#include "kselftest_harness.h"

static const char *tmpdir = "/tmp";
static struct ipu_error err;

/* a library call succeeds (returns >= 0); its message when not */
#define ASSERT_CALL(call) ASSERT_LE(0, (call)) TH_LOG("%s: %s", #call, err.msg)

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

/*
 * A model device with the engine's memory-plan checker on (IPU__MODEL_MEMCHECK):
 * every graph the tests run has its plan checked at load and each access at run.
 */
static int test_model_open(const char *model, unsigned threads, struct ipu_device **out,
			   struct ipu_error *e)
{
	return ipu__model_open(model, threads, IPU__MODEL_MEMCHECK, out, e);
}

/* g written, and loaded on a fresh model device @model of @ipus IPUs (memory checker on) */
static void load_run_ipus(struct __test_metadata *_metadata, struct ipu_graph *g, const char *model,
			  unsigned ipus, struct ipu_device **out)
{
	void *bin;
	size_t len;
	int r;

	ASSERT_CALL(ipu_graph_write(g, &bin, &len, &err));
	r = ipus > 1 ? ipu__model_open_multi(model, ipus, NULL, 0, IPU__MODEL_MEMCHECK, out, &err) :
	    test_model_open(model, 0, out, &err);
	if (!r) {
		r = ipu_load(*out, bin, len, &err);
		if (r)
			ipu_device_close(*out);
	}
	free(bin);
	ASSERT_EQ(0, r) TH_LOG("model_open/load on %s x %u: %s", model, ipus, err.msg);
}

/* g written, and loaded on a fresh model device @model */
static void load_run(struct __test_metadata *_metadata, struct ipu_graph *g, const char *model,
		     struct ipu_device **out)
{
	load_run_ipus(_metadata, g, model, 1, out);
}

/* ---------------- tests ---------------- */

TEST(builder_loads_and_runs)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t shape[1] = { 1000 };
	float x[1000], y[1000];
	int tx, ty, cs, seq;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(ty = ipu_graph_add_tensor(g, "y", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tx, 8, &err));
	ASSERT_CALL(ipu_graph_map_like(g, ty, tx, &err));
	ASSERT_CALL(cs = ipu_graph_add_compute_set(g, "relu", &err));
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

		ASSERT_CALL(ipu_graph_add_vertex(g, cs, IPUE_CODELET_UNARY(IPUE_UOP_RELU), f, 2, NULL, 0, &err));
	}
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(ipu_prog_append(g, seq, ipu_prog_execute(g, cs, &err), &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, ty, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_set_metadata(g, "test", "simple", &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	fill_rand(x, 1000);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y", y, sizeof(y), &err));
	ipu_device_close(d);
	for (int i = 0; i < 1000; i++) {
		ASSERT_TRUE(y[i] == (x[i] > 0 ? x[i] : 0))
			TH_LOG("y[%d] = %g for x = %g", i, y[i], x[i]);
	}
}

/* a call refused (< 0) with needle in its message */
static void expect_err(struct __test_metadata *_metadata, int r, const char *needle,
		       const char *what)
{
	EXPECT_GT(0, r) TH_LOG("%s: accepted", what);
	if (r < 0) {
		EXPECT_NE(NULL, strstr(err.msg, needle))
			TH_LOG("%s: message '%s' lacks '%s'", what, err.msg, needle);
	}
}

TEST(builder_bad_mapping_refused)
{
	struct ipu_graph *g;
	uint32_t shape[2] = { 4, 64 }, big[1] = { 20000 };
	int t, t2, cs;
	void *bin;
	size_t len;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(t = ipu_graph_add_tensor(g, "w", IPU_DTYPE_F32, 2, shape, &err));
	expect_err(_metadata, ipu_graph_map(g, t, 0, 64, 32, &err), "tile 32", "map to tile 32");
	expect_err(_metadata, ipu_graph_map(g, t, 200, 100, 0, &err), "cannot map", "map past the end");
	ASSERT_CALL(ipu_graph_map(g, t, 0, 128, 0, &err));
	expect_err(_metadata, ipu_graph_map(g, t, 64, 10, 1, &err), "already mapped", "double map");
	ASSERT_CALL(ipu_graph_map(g, t, 128, 64, 1, &err));
	/* element 192.. unmapped: write refuses */
	ASSERT_CALL(ipu_graph_add_program(g, "p", ipu_prog_sequence(g, &err), &err));
	expect_err(_metadata, ipu_graph_write(g, &bin, &len, &err), "element 192 is not mapped", "unmapped");
	ASSERT_CALL(ipu_graph_map(g, t, 192, 64, 2, &err));
	/* a field across two tiles */
	ASSERT_CALL(cs = ipu_graph_add_compute_set(g, "cs", &err));
	{
		struct ipu_slice f[1] = { { t, 100, 50 } };
		uint32_t p = 0;

		expect_err(_metadata, ipu_graph_add_vertex(g, cs, IPUE_CODELET_FILL, f, 1, &p, 1, &err),
				    "not contiguous in one tile", "field across tiles");
	}
	/* fields on different tiles */
	{
		struct ipu_slice f[2] = { { t, 0, 10 }, { t, 128, 10 } };

		expect_err(_metadata, ipu_graph_add_vertex(g, cs, IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2,
							 NULL, 0, &err), "on tile 1", "fields on two tiles");
	}
	/* codelet check: unary with in/out counts differing */
	{
		struct ipu_slice f[2] = { { t, 0, 10 }, { t, 10, 11 } };

		expect_err(_metadata, ipu_graph_add_vertex(g, cs, IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2,
							 NULL, 0, &err), "refused", "codelet check");
	}
	/* tile memory exhausted */
	ASSERT_CALL(t2 = ipu_graph_add_tensor(g, "big", IPU_DTYPE_F32, 1, big, &err));
	expect_err(_metadata, ipu_graph_map_tile(g, t2, 0, &err), "out of memory", "tile memory");
	ipu_graph_free(g);
}

TEST(builder_overlapping_writes_refused)
{
	struct ipu_graph *g;
	uint32_t shape[1] = { 256 };
	int t, u, cs, ex;
	uint32_t p = 0;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(t = ipu_graph_add_tensor(g, "acc", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(u = ipu_graph_add_tensor(g, "src", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, t, 3, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, u, 3, &err));
	ASSERT_CALL(cs = ipu_graph_add_compute_set(g, "racy", &err));
	{
		struct ipu_slice f1[1] = { { t, 0, 128 } }, f2[1] = { { t, 64, 128 } }, f3[1] = { { t, 128, 128 } };

		ASSERT_CALL(ipu_graph_add_vertex(g, cs, IPUE_CODELET_FILL, f1, 1, &p, 1, &err));
		expect_err(_metadata, ipu_graph_add_vertex(g, cs, IPUE_CODELET_FILL, f2, 1, &p, 1, &err),
				    "overlapping writes in one compute set", "write/write overlap");
		ASSERT_TRUE(strstr(err.msg, "'acc'") && strstr(err.msg, "'racy'"))
			TH_LOG("message lacks names: %s", err.msg);
		ASSERT_CALL(ipu_graph_add_vertex(g, cs, IPUE_CODELET_FILL, f3, 1, &p, 1, &err));
	}
	/* read of a region another vertex writes */
	{
		struct ipu_slice f[2] = { { t, 0, 16 }, { u, 0, 16 } };

		expect_err(_metadata, ipu_graph_add_vertex(g, cs, IPUE_CODELET_UNARY(IPUE_UOP_NEG), f, 2,
							 NULL, 0, &err), "writes", "read/write overlap");
	}
	/* exchange: overlapping destinations */
	ASSERT_CALL(ex = ipu_graph_add_exchange(g, "ex", &err));
	{
		struct ipu_slice s1 = { u, 0, 32 }, d1 = { t, 0, 32 }, d2 = { t, 16, 32 };

		ASSERT_CALL(ipu_graph_exchange_copy(g, ex, s1, d1, &err));
		expect_err(_metadata, ipu_graph_exchange_copy(g, ex, s1, d2, &err), "overlap another destination",
				    "exchange dst overlap");
		expect_err(_metadata, ipu_graph_exchange_copy(g, ex, d1, s1, &err), "overlap",
				    "exchange src/dst overlap");
	}
	ipu_graph_free(g);
}

/* one matmul: chip model, sizes, blocked (planned) or linear operand layout */
FIXTURE(matmul) {};
FIXTURE_SETUP(matmul) {}
FIXTURE_TEARDOWN(matmul) {}

FIXTURE_VARIANT(matmul) {
	const char *model;
	uint32_t modelid;
	unsigned m, k, n;
	int blocked;
};

FIXTURE_VARIANT_ADD(matmul, 256x512x128_test) { "test", IPU_MODEL_TEST, 256, 512, 128, 1 };
FIXTURE_VARIANT_ADD(matmul, 256x512x128_gc200) { "gc200", IPU_MODEL_GC200, 256, 512, 128, 1 };
FIXTURE_VARIANT_ADD(matmul, odd_linear_layout_test) { "test", IPU_MODEL_TEST, 37, 53, 29, 0 };
FIXTURE_VARIANT_ADD(matmul, odd_gc2) { "gc2", IPU_MODEL_GC2, 130, 300, 70, 0 };

TEST_F(matmul, matches_reference)
{
	const char *model = variant->model;
	unsigned m = variant->m, k = variant->k, n = variant->n;
	struct ipu_graph *g;
	struct ipu_device *d;
	struct ipu_matmul_plan p;
	uint32_t sa[2] = { m, k }, sb[2] = { k, n };
	float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n);
	float *c = malloc(sizeof(float) * m * n);
	double *ref = malloc(sizeof(double) * m * n), e;
	int ta, tb, tc, seq;

	ASSERT_TRUE(a && b && c && ref) TH_LOG("oom");
	ASSERT_CALL(ipu_graph_create(variant->modelid, &g, &err));
	ASSERT_CALL(ipu_matmul_plan(g, m, n, k, IPU_DTYPE_F32, &p, &err));
	if (variant->blocked) {
		ASSERT_CALL(ta = ipu_matmul_create_lhs(g, &p, "a", &err));
		ASSERT_CALL(tb = ipu_matmul_create_rhs(g, &p, "b", &err));
	} else {
		ASSERT_CALL(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, sa, &err));
		ASSERT_CALL(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 2, sb, &err));
		ASSERT_CALL(ipu_graph_map_linear(g, ta, 1, &err));
		ASSERT_CALL(ipu_graph_map_linear(g, tb, 1, &err));
	}
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(tc = ipu_matmul(g, seq, ta, tb, "c", &p, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "matmul", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tc, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, g, model, &d);
	ipu_graph_free(g);
	fill_rand(a, (size_t)m * k);
	fill_rand(b, (size_t)k * n);
	ASSERT_CALL(ipu_tensor_write(d, "a", a, sizeof(float) * m * k, &err));
	ASSERT_CALL(ipu_tensor_write(d, "b", b, sizeof(float) * k * n, &err));
	for (int rep = 0; rep < 2; rep++) {	/* twice: the partials are re-zeroed */
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	}
	ASSERT_CALL(ipu_tensor_read(d, "c", c, sizeof(float) * m * n, &err));
	ipu_device_close(d);
	ref_matmul(a, b, ref, m, n, k);
	e = max_err(c, ref, (size_t)m * n, sqrt((double)k));
	free(a);
	free(b);
	free(c);
	free(ref);
	ASSERT_TRUE(e < 1e-5)
		TH_LOG("%s %ux%ux%u: max relative error %g (grid %ux%ux%u ks %u)", model, m, k, n, e,
	      p.pm, p.pn, p.pk, p.ks);
}

/*
 * A plan made by hand (docs/builder.md "A plan by hand"): only m, n, k,
 * dtype, the grid, ks and the blocks set; tiles, est_cycles, tile_bytes
 * and reserved left 0. It runs and gives the reference product; a plan
 * missing any of the fields it must set, a grid larger than the chip,
 * blocks that do not cover the operands, or a plan for other operands are
 * refused with a message naming what is wrong.
 */
static int hand_matmul(struct ipu_graph *g, const struct ipu_matmul_plan *p, int *tc)
{
	uint32_t sa[2] = { 37, 29 }, sb[2] = { 29, 53 };
	int ta, tb, seq, r;

	if ((ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, sa, &err)) < 0 ||
	    (tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 2, sb, &err)) < 0 ||
	    (r = ipu_graph_map_linear(g, ta, 1, &err)) < 0 ||
	    (r = ipu_graph_map_linear(g, tb, 1, &err)) < 0 || (seq = ipu_prog_sequence(g, &err)) < 0)
		return -1;
	if ((*tc = ipu_matmul(g, seq, ta, tb, "c", p, &err)) < 0)
		return *tc;
	if ((r = ipu_graph_add_program(g, "matmul", seq, &err)) < 0 ||
	    (r = ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err)) < 0 ||
	    (r = ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err)) < 0 ||
	    (r = ipu_graph_expose(g, *tc, NULL, IPU_HANDLE_READ, &err)) < 0)
		return r;
	return 0;
}

static const struct ipu_matmul_plan hand_plan = {
	.m = 37, .n = 53, .k = 29, .dtype = IPU_DTYPE_F32,
	.pm = 2, .pn = 3, .pk = 2, .ks = 1, .bm = 19, .bn = 18, .bk = 15,
};

TEST(matmul_plan_by_hand)
{
	static float a[37 * 29], b[29 * 53], c[37 * 53];
	static double ref[37 * 53];
	struct ipu_graph *g;
	struct ipu_device *d;
	int tc;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(hand_matmul(g, &hand_plan, &tc));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	fill_rand(a, 37 * 29);
	fill_rand(b, 29 * 53);
	ASSERT_CALL(ipu_tensor_write(d, "a", a, sizeof(a), &err));
	ASSERT_CALL(ipu_tensor_write(d, "b", b, sizeof(b), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "c", c, sizeof(c), &err));
	ipu_device_close(d);
	ref_matmul(a, b, ref, 37, 53, 29);
	EXPECT_TRUE(max_err(c, ref, 37 * 53, sqrt(29.0)) < 1e-5);
}

TEST(matmul_plan_by_hand_refused)
{
	static const char *const field[] = { "pm", "pn", "pk", "ks", "bm", "bn", "bk" };
	struct ipu_matmul_plan p;
	struct ipu_graph *g;
	char what[64];
	int tc;

	for (unsigned i = 0; i < 7; i++) {
		uint32_t *f[] = { &p.pm, &p.pn, &p.pk, &p.ks, &p.bm, &p.bn, &p.bk };

		p = hand_plan;
		*f[i] = 0;
		snprintf(what, sizeof(what), "%s is 0", field[i]);
		ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
		expect_err(_metadata, hand_matmul(g, &p, &tc), what, what);
		ipu_graph_free(g);
	}
	p = hand_plan;
	p.pm = 8;	/* 8 x 3 x 2 = 48 tiles on a 32-tile chip */
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	expect_err(_metadata, hand_matmul(g, &p, &tc), "needs 48 tiles", "grid too large");
	ipu_graph_free(g);
	p = hand_plan;
	p.bk = 14;	/* 2 x 1 x 14 < 29 */
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	expect_err(_metadata, hand_matmul(g, &p, &tc), "blocks do not cover", "short blocks");
	ipu_graph_free(g);
	p = hand_plan;
	p.m = 36;
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	expect_err(_metadata, hand_matmul(g, &p, &tc), "the plan is for 36x53x29", "other operands");
	ipu_graph_free(g);
}

TEST(mlp_two_layers)
{
	/* x[B][I] -> relu(x W1 + b1) -> relu(. W2 + b2) */
	enum { B = 64, I = 96, H = 128, O = 40 };
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t sx[2] = { B, I }, sw1[2] = { I, H }, sb1[1] = { H }, sw2[2] = { H, O }, sb2[1] = { O };
	static float x[B * I], w1[I * H], b1[H], w2[H * O], b2[O], y[B * O];
	static double h[B * H], o[B * O];
	static float hf[B * H];
	int tx, tw1, tb1, tw2, tb2, h1, y1, seq;
	double e;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, sx, &err));
	ASSERT_CALL(tw1 = ipu_graph_add_tensor(g, "w1", IPU_DTYPE_F32, 2, sw1, &err));
	ASSERT_CALL(tb1 = ipu_graph_add_tensor(g, "b1", IPU_DTYPE_F32, 1, sb1, &err));
	ASSERT_CALL(tw2 = ipu_graph_add_tensor(g, "w2", IPU_DTYPE_F32, 2, sw2, &err));
	ASSERT_CALL(tb2 = ipu_graph_add_tensor(g, "b2", IPU_DTYPE_F32, 1, sb2, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tx, 16, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tw1, 16, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tw2, 16, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, tb1, 5, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, tb2, 9, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(h1 = ipu_matmul(g, seq, tx, tw1, "h1", NULL, &err));
	ASSERT_CALL(ipu_binary(g, seq, IPU_OP_ADD, h1, tb1, NULL, &err));
	ASSERT_CALL(ipu_unary(g, seq, IPU_OP_RELU, h1, NULL, &err));
	ASSERT_CALL(y1 = ipu_matmul(g, seq, h1, tw2, "y", NULL, &err));
	ASSERT_CALL(ipu_binary(g, seq, IPU_OP_ADD, y1, tb2, NULL, &err));
	ASSERT_CALL(ipu_unary(g, seq, IPU_OP_RELU, y1, NULL, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "forward", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tw1, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tb1, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tw2, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tb2, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, y1, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	fill_rand(x, B * I);
	fill_rand(w1, I * H);
	fill_rand(b1, H);
	fill_rand(w2, H * O);
	fill_rand(b2, O);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	ASSERT_CALL(ipu_tensor_write(d, "w1", w1, sizeof(w1), &err));
	ASSERT_CALL(ipu_tensor_write(d, "b1", b1, sizeof(b1), &err));
	ASSERT_CALL(ipu_tensor_write(d, "w2", w2, sizeof(w2), &err));
	ASSERT_CALL(ipu_tensor_write(d, "b2", b2, sizeof(b2), &err));
	ASSERT_CALL(ipu_program_find(d, "forward", &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y", y, sizeof(y), &err));
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
	ASSERT_TRUE(e < 1e-5) TH_LOG("mlp: max relative error %g", e);
}

TEST(elementwise_and_reductions)
{
	enum { R = 7, L = 1000 };
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t sh[2] = { R, L };
	static float a[R * L], b[R * L], o[R * L], rs[R], rm[R];
	float s, mx;
	double ref = 0;
	int ta, tb, to, tm, ts, tr, tmx, seq;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, sh, &err));
	ASSERT_CALL(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 2, sh, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ta, 1, &err));
	/* b mapped differently: exchange needed */
	for (unsigned t = 0; t < 7; t++) {
		ASSERT_CALL(ipu_graph_map(g, tb, t * 1000, 1000, 31 - t, &err));
	}
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(to = ipu_binary(g, seq, IPU_OP_MUL, ta, tb, "prod", &err));
	ASSERT_CALL(ipu_unary(g, seq, IPU_OP_EXP, to, NULL, &err));
	ASSERT_CALL(tm = ipu_binary(g, seq, IPU_OP_MAX, to, ta, "m", &err));
	ASSERT_CALL(ts = ipu_reduce(g, seq, IPU_REDUCE_SUM, tm, "sum", &err));
	ASSERT_CALL(tmx = ipu_reduce(g, seq, IPU_REDUCE_MAX, tm, "max", &err));
	ASSERT_CALL(tr = ipu_reduce_rows(g, seq, IPU_REDUCE_SUM, tm, "rowsum", &err));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tm, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, ts, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, tmx, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, tr, NULL, IPU_HANDLE_READ, &err));
	(void)rm;
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	fill_rand(a, R * L);
	fill_rand(b, R * L);
	ASSERT_CALL(ipu_tensor_write(d, "a", a, sizeof(a), &err));
	ASSERT_CALL(ipu_tensor_write(d, "b", b, sizeof(b), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "m", o, sizeof(o), &err));
	ASSERT_CALL(ipu_tensor_read(d, "sum", &s, sizeof(s), &err));
	ASSERT_CALL(ipu_tensor_read(d, "max", &mx, sizeof(mx), &err));
	ASSERT_CALL(ipu_tensor_read(d, "rowsum", rs, sizeof(rs), &err));
	ipu_device_close(d);
	{
		double gmax = -1e30;

		for (int i = 0; i < R * L; i++) {
			double w = exp((double)a[i] * b[i]);

			w = w > a[i] ? w : a[i];
			ASSERT_TRUE(fabs(o[i] - w) <= 1e-6 * fabs(w) + 1e-6)
				TH_LOG("m[%d] = %g, want %g", i, o[i], w);
			ref += o[i];
			if (o[i] > gmax)
				gmax = o[i];
		}
		ASSERT_TRUE(fabs(s - ref) <= 1e-5 * fabs(ref)) TH_LOG("sum %g, want %g", s, ref);
		ASSERT_TRUE(mx == (float)gmax) TH_LOG("max %g, want %g", mx, gmax);
		for (int rr = 0; rr < R; rr++) {
			double q = 0;

			for (int i = 0; i < L; i++)
				q += o[rr * L + i];
			ASSERT_TRUE(fabs(rs[rr] - q) <= 1e-5 * fabs(q))
				TH_LOG("rowsum[%d] %g, want %g", rr, rs[rr], q);
		}
	}
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

/*
 * The loop tests' graph so far: *ctx zeroed with 5 transfers of 16 f32 to
 * fetch, x (tiles 1 and 2) and *acc (tile 2, zeroed) of 16 f32, streams "in"
 * (depth 2) and "out" (depth 1), and the sequence it returns: "in" into x,
 * acc += x, acc to "out".
 */
static int loop_body(struct __test_metadata *_metadata, struct sctx *ctx,
		     struct ipu_graph **gp, int *accp)
{
	struct ipu_graph *g;
	uint32_t sh[1] = { 16 };
	float zero[16] = { 0 };
	int x, acc, sin, sout, body;

	memset(ctx, 0, sizeof(*ctx));
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 16; j++)
			ctx->data[i][j] = (float)(i * 16 + j);
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	*gp = g;
	ASSERT_CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, sh, &err));
	ASSERT_CALL(acc = ipu_graph_add_tensor(g, "acc", IPU_DTYPE_F32, 1, sh, &err));
	ASSERT_CALL(ipu_graph_map(g, x, 0, 8, 1, &err));
	ASSERT_CALL(ipu_graph_map(g, x, 8, 8, 2, &err));
	ASSERT_CALL(ipu_graph_map(g, acc, 0, 16, 2, &err));
	ASSERT_CALL(ipu_graph_set_initial(g, acc, zero, sizeof(zero), &err));
	ASSERT_CALL(sin = ipu_graph_add_stream(g, "in", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, 16, 2, &err));
	ASSERT_CALL(sout = ipu_graph_add_stream(g, "out", IPU_STREAM_DEVICE_TO_HOST, IPU_DTYPE_F32, 16, 1, &err));
	ASSERT_CALL(body = ipu_prog_sequence(g, &err));
	ASSERT_CALL(ipu_prog_append(g, body, ipu_prog_stream_copy(g, sin, x, &err), &err));
	ASSERT_CALL(ipu_binary(g, body, IPU_OP_ADD, acc, x, NULL, &err));
	ASSERT_CALL(ipu_prog_append(g, body, ipu_prog_stream_copy(g, sout, acc, &err), &err));
	*accp = acc;
	return body;
}

TEST(loop_streams_errors)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	struct sctx ctx;
	struct ipu_stream_callbacks cin = { s_fetch, NULL, &ctx }, cout = { NULL, s_push, &ctx };
	int acc, body, rep, seq;

	body = loop_body(_metadata, &ctx, &g, &acc);
	ASSERT_CALL(rep = ipu_prog_repeat(g, 5, body, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(ipu_prog_append(g, seq, rep, &err));
	expect_err(_metadata, ipu_prog_append(g, body, seq, &err), "contain itself", "program cycle");
	ASSERT_CALL(ipu_graph_add_program(g, "loop", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, acc, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	/* not connected: the run fails with a message naming the program */
	expect_err(_metadata, ipu_run(d, 0, 1, NULL, &err), "loop", "unconnected stream");
	ASSERT_CALL(ipu_stream_connect(d, "in", &cin, &err));
	ASSERT_CALL(ipu_stream_connect(d, "out", &cout, &err));
	expect_err(_metadata, ipu_stream_connect(d, "nope", &cin, &err), "nope", "unknown stream");
	expect_err(_metadata, ipu_run(d, 7, 1, NULL, &err), "program 7", "bad program");
	ipu_device_close(d);
}

/* the same loop, run for real on a fresh device */
TEST(loop_streams_run)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	struct sctx ctx;
	float accv[16];
	struct ipu_stream_callbacks cin = { s_fetch, NULL, &ctx }, cout = { NULL, s_push, &ctx };
	struct ipu_run_stats st;
	int acc, body, seq;

	body = loop_body(_metadata, &ctx, &g, &acc);
	ASSERT_CALL(seq = ipu_prog_repeat(g, 5, body, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "loop", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, acc, NULL, IPU_HANDLE_READ, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_stream_connect(d, "in", &cin, &err));
	ASSERT_CALL(ipu_stream_connect(d, "out", &cout, &err));
	ASSERT_CALL(ipu_run(d, 0, 1, &st, &err));
	ASSERT_CALL(ipu_tensor_read(d, "acc", accv, sizeof(accv), &err));
	expect_err(_metadata, ipu_tensor_write(d, "acc", accv, sizeof(accv), &err), "may not write",
			    "read-only handle");
	expect_err(_metadata, ipu_tensor_read(d, "acc", accv, 12, &err), "12 bytes given", "size");
	ipu_device_close(d);
	ASSERT_TRUE(ctx.ngot == 5) TH_LOG("%d transfers pushed, want 5", ctx.ngot);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 16; j++) {
			float want = 0;

			for (int q = 0; q <= i; q++)
				want += (float)(q * 16 + j);
			ASSERT_TRUE(ctx.got[i][j] == want)
				TH_LOG("transfer %d [%d] = %g, want %g", i, j, ctx.got[i][j], want);
		}
	ASSERT_TRUE(accv[3] == 0 + 3 + 16 + 3 + 32 + 3 + 48 + 3 + 64 + 3)
		TH_LOG("acc[3] = %g", accv[3]);
	ASSERT_TRUE(st.cycles > 0 && st.stream_bytes_h2d == 5 * 64 && st.stream_bytes_d2h == 5 * 64)
		TH_LOG("stats: cycles %llu h2d %llu d2h %llu", (unsigned long long)st.cycles,
	      (unsigned long long)st.stream_bytes_h2d, (unsigned long long)st.stream_bytes_d2h);
}

/* ---------------- npy ---------------- */

TEST(npy_roundtrip)
{
	char path[512];
	float f[6] = { 1, -2, 3.5f, 0, 1e30f, -0.0f };
	uint16_t h[3] = { 0x3c00, 0xc000, 0x7c00 };
	int32_t i4[1] = { -7 };
	uint64_t s23[2] = { 2, 3 }, s3[1] = { 3 };
	struct ipu_npy a;

	snprintf(path, sizeof(path), "%s/rt.npy", tmpdir);
	ASSERT_CALL(ipu_npy_write(path, IPU_DTYPE_F32, 2, s23, f, &err));
	ASSERT_CALL(ipu_npy_read(path, &a, &err));
	ASSERT_TRUE(a.dtype == IPU_DTYPE_F32 && a.ndim == 2 && a.shape[0] == 2 && a.shape[1] == 3 &&
	      a.bytes == 24 && !memcmp(a.data, f, 24)) TH_LOG("f32 round trip");
	ipu_npy_free(&a);
	ASSERT_CALL(ipu_npy_write(path, IPU_DTYPE_F16, 1, s3, h, &err));
	ASSERT_CALL(ipu_npy_read(path, &a, &err));
	ASSERT_TRUE(a.dtype == IPU_DTYPE_F16 && a.ndim == 1 && a.shape[0] == 3 && !memcmp(a.data, h, 6))
		TH_LOG("f16");
	ipu_npy_free(&a);
	ASSERT_CALL(ipu_npy_write(path, IPU_DTYPE_I32, 0, NULL, i4, &err));
	ASSERT_CALL(ipu_npy_read(path, &a, &err));
	ASSERT_TRUE(a.dtype == IPU_DTYPE_I32 && a.ndim == 0 && a.count == 1 && *(int32_t *)a.data == -7)
		TH_LOG("i32 scalar");
	ipu_npy_free(&a);
	/* header exactly as numpy writes it, and 64-byte aligned data */
	{
		void *b;
		size_t n;

		ASSERT_CALL(ipu_npy_encode(IPU_DTYPE_F32, 2, s23, f, &b, &n, &err));
		ASSERT_TRUE((n - 24) % 64 == 0) TH_LOG("data offset %zu not 64-aligned", n - 24);
		ASSERT_NE(NULL, memmem(b, n, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 59))
			TH_LOG("header text differs from numpy's");
		free(b);
		ASSERT_CALL(ipu_npy_encode(IPU_DTYPE_F32, 1, s3, f, &b, &n, &err));
		ASSERT_NE(NULL, memmem(b, n, "'shape': (3,), }", 16)) TH_LOG("1-D shape text");
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
		ASSERT_CALL(ipu_npy_parse(buf, tot + 8, &a, "v2", &err));
		ASSERT_TRUE(a.dtype == IPU_DTYPE_I32 && a.shape[0] == 2 && ((int32_t *)a.data)[1] == 6)
			TH_LOG("v2 parse");
		ipu_npy_free(&a);
	}
}

/* a .npy file of version @ver with header @hdr and @datalen bytes of data */
static void npy_bad(struct __test_metadata *_metadata, const char *what, const char *hdr,
		    size_t datalen, int ver, const char *needle)
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
	expect_err(_metadata, ipu_npy_parse(buf, off + hl + datalen, &a, "bad.npy", &err), needle,
		   what);
}

/* malformed headers: header, data bytes, version, word of the refusal */
static const struct {
	const char *hdr;
	size_t datalen;
	int ver;
	const char *needle;
} npy_bads[] = {
	{ "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }\n", 8, 1, "'>f4'" },
	{ "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n", 16, 1, "accepted" },
	{ "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n", 16, 1, "Fortran" },
	{ "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }\n", 12, 1, "truncated" },
	{ "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 12, 1, "unexpected" },
	{ "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 8, 3, "version 3" },
	{ "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }\n", 8, 1, "shape" },
	{ "{'descr': '<f4', 'shape': (2,), }\n", 8, 1, "fortran_order" },
	{ "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }\n", 8, 1, "structured" },
	{ "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ", 8, 1, "malformed" },
};

TEST(npy_malformed_refused)
{
	struct ipu_npy a;

	expect_err(_metadata, ipu_npy_parse("hello world", 11, &a, "x", &err), "bad magic", "magic");
	for (size_t i = 0; i < sizeof(npy_bads) / sizeof(npy_bads[0]); i++) {
		char what[48];

		/* expect_err's message names the case */
		snprintf(what, sizeof(what), "npy_bads[%zu] (%s)", i, npy_bads[i].needle);
		npy_bad(_metadata, what, npy_bads[i].hdr, npy_bads[i].datalen, npy_bads[i].ver,
			npy_bads[i].needle);
	}
	{
		unsigned char b[12] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 200, 0, '{', '}' };

		expect_err(_metadata, ipu_npy_parse(b, 12, &a, "x", &err), "truncated .npy header",
			   "hlen");
	}
	expect_err(_metadata, ipu_npy_read("/nonexistent/x.npy", &a, &err), "No such file",
		   "missing");
}

TEST(model_open_and_load_errors)
{
	struct ipu_device *d;
	struct ipu_graph *g;
	void *bin;
	size_t len;

	expect_err(_metadata, ipu_model_open("gc9000", 0, &d, &err), "unknown model", "model name");
	expect_err(_metadata, ipu_tensor_write(NULL, "x", "", 0, &err), "NULL", "NULL device");
	/* a graph for gc200 refused by the test model */
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_GC200, &g, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "empty", ipu_prog_sequence(g, &err), &err));
	ASSERT_CALL(ipu_graph_write(g, &bin, &len, &err));
	ipu_graph_free(g);
	ASSERT_CALL(ipu_model_open("test", 1, &d, &err));
	expect_err(_metadata, ipu_load(d, bin, len, &err), "gc200", "wrong model");
	expect_err(_metadata, ipu_run(d, 0, 1, NULL, &err), "no graph loaded", "run without graph");
	ipu_device_close(d);
	{
		ASSERT_CALL(test_model_open("gc200", 1, &d, &err));
		ASSERT_CALL(ipu_load(d, bin, len, &err));
		((unsigned char *)bin)[len - 1] ^= 1;	/* breaks the checksum */
		expect_err(_metadata, ipu_load(d, bin, len, &err), "rejected", "bad checksum");
		ipu_device_close(d);
	}
	free(bin);
}

#include "broadcast_tests.h"
#include "nn_tests.h"
#include "act_tests.h"
#include "popops_tests.h"
#include "map_tests.h"
#include "optim_tests.h"
#include "matmul_tests.h"
#include "gradcheck.h"
#include "grad_tests.h"
#include "norm_tests.h"
#include "conv_tests.h"
#include "pool_tests.h"
#include "views_tests.h"
#include "guards_tests.h"
#include "memory_tests.h"
#include "graph_binary_tests.h"
#include "empty_tests.h"
#include "multi_tests.h"

/* ---------------- files for the ipu-run end-to-end test (run.sh) ---------------- */

/*
 * --example and --compare run outside the harness (run.sh checks their exit
 * status): the first failure is kept in why[] and ends the function.
 */
static char why[512];

static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return -1;
}

#define TRY(call) do { if ((call) < 0) return fail("%s: %s", #call, err.msg); } while (0)
#define TRY_TRUE(cond, ...) do { if (!(cond)) return fail(__VA_ARGS__); } while (0)

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
	TRY(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	TRY(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, sa, &err));
	TRY(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 2, sb, &err));
	TRY(ipu_graph_map_linear(g, ta, 8, &err));
	TRY(ipu_graph_map_linear(g, tb, 8, &err));
	TRY(seq = ipu_prog_sequence(g, &err));
	TRY(tc = ipu_matmul(g, seq, ta, tb, "c", NULL, &err));
	TRY(ipu_graph_add_program(g, "matmul", seq, &err));
	TRY(ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err));
	TRY(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
	TRY(ipu_graph_expose(g, tc, NULL, IPU_HANDLE_READ, &err));
	TRY(ipu_graph_set_metadata(g, "example", "matmul 48x40x24", &err));
	snprintf(path, sizeof(path), "%s/mm.graph", dir);
	TRY(ipu_graph_write_file(g, path, &err));
	ipu_graph_free(g);
	snprintf(path, sizeof(path), "%s/a.npy", dir);
	TRY(ipu_npy_write(path, IPU_DTYPE_F32, 2, ua, a, &err));
	snprintf(path, sizeof(path), "%s/b.npy", dir);
	TRY(ipu_npy_write(path, IPU_DTYPE_F32, 2, ub, b, &err));
	snprintf(path, sizeof(path), "%s/want.npy", dir);
	TRY(ipu_npy_write(path, IPU_DTYPE_F32, 2, uc, c, &err));
	snprintf(path, sizeof(path), "%s/a_f16.npy", dir);
	TRY(ipu_npy_write(path, IPU_DTYPE_F16, 2, ua, h, &err));
	snprintf(path, sizeof(path), "%s/a_shape.npy", dir);
	TRY(ipu_npy_write(path, IPU_DTYPE_F32, 2, bad, a, &err));
	return 0;
}

static int compare(const char *got, const char *want)
{
	struct ipu_npy x, y;

	TRY(ipu_npy_read(got, &x, &err));
	TRY(ipu_npy_read(want, &y, &err));
	TRY_TRUE(x.dtype == IPU_DTYPE_F32 && y.dtype == IPU_DTYPE_F32 && x.count == y.count &&
	      x.ndim == y.ndim, "dtype/shape differ");
	for (uint64_t i = 0; i < x.count; i++) {
		float p = ((float *)x.data)[i], q = ((float *)y.data)[i];

		TRY_TRUE(fabsf(p - q) <= 1e-5f * (fabsf(q) + 1), "element %llu: %g, want %g",
		      (unsigned long long)i, p, q);
	}
	ipu_npy_free(&x);
	ipu_npy_free(&y);
	return 0;
}

/*
 * test_builder                      the tests (kselftest harness options;
 *                                   .npy files go to $TMPDIR, default /tmp)
 * test_builder --example DIR        files for run.sh's ipu-run tests
 * test_builder --compare GOT WANT   two f32 .npy files agree
 */
int main(int argc, char **argv)
{
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
	if (getenv("TMPDIR"))
		tmpdir = getenv("TMPDIR");
	return test_harness_run(argc, argv);
}
