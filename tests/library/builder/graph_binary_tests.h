/* SPDX-License-Identifier: MIT */
/*
 * The compact form of graph binaries (docs/graph-format.md, "Packed
 * tables"): a graph written compact and the same graph written plain run
 * to identical results on the model device, both right against a host
 * reference; the compact binary of the MLP stays within a stated overhead
 * of its initial data. Included by test_builder.c.
 */
#include "binary_graphs.h"

enum { GB_B = 64, GB_I = 384, GB_H = 256 };

/* y of the MLP of binary_graphs.h, from the same weights, in double */
static void gb_mlp_ref(const float *x, double *y)
{
	static float w1[GB_I * GB_H], b1[GB_H], w2[GB_H * GB_H], b2[GB_H], hf[GB_B * GB_H];
	static double h[GB_B * GB_H];

	bg_fill(w1, GB_I * GB_H, 11);
	bg_fill(b1, GB_H, 12);
	bg_fill(w2, GB_H * GB_H, 13);
	bg_fill(b2, GB_H, 14);
	ref_matmul(x, w1, h, GB_B, GB_H, GB_I);
	for (int i = 0; i < GB_B * GB_H; i++) {
		h[i] += b1[i % GB_H];
		hf[i] = (float)(h[i] > 0 ? h[i] : 0);
	}
	ref_matmul(hf, w2, y, GB_B, GB_H, GB_H);
	for (int i = 0; i < GB_B * GB_H; i++) {
		y[i] += b2[i % GB_H];
		y[i] = y[i] > 0 ? y[i] : 0;
	}
}

/* load @bin on a fresh gc200 model device, run "forward" on @x, read y */
static int gb_run(const void *bin, size_t len, const float *x, float *y)
{
	struct ipu_device *d;
	int r = test_model_open("gc200", 0, &d, &err);

	if (r)
		return r;
	if (!(r = ipu_load(d, bin, len, &err)) &&
	    !(r = ipu_tensor_write(d, "x", x, sizeof(float) * GB_B * GB_I, &err)) &&
	    (r = ipu_program_find(d, "forward", &err)) >= 0 &&
	    !(r = ipu_run(d, (unsigned)r, 1, NULL, &err)))
		r = ipu_tensor_read(d, "y", y, sizeof(float) * GB_B * GB_H, &err);
	ipu_device_close(d);
	return r;
}

/*
 * The MLP (B 64, I 384, H 256 on gc200, 0.63 MiB of weights as initial
 * data) written both ways. Measured: plain 9.4 x its initial data, compact
 * 1.37 x (the rest: other initial data the ops make, 118 kB, and the
 * packed records, 107 kB). Stated overhead: compact at most 1.5 x the
 * initial data and at most a fifth of the plain binary.
 */
TEST(compact_binary_mlp)
{
	static float x[GB_B * GB_I], y[2][GB_B * GB_H];
	static double want[GB_B * GB_H];
	struct ipu_graph *g;
	uint64_t init = 0;
	void *bin[2];
	size_t len[2];

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_GC200, &g, &err));
	ASSERT_EQ(0, bg_mlp(g, GB_B, GB_I, GB_H, &init, &err)) TH_LOG("mlp: %s", err.msg);
	ASSERT_CALL(ipu__graph_write_form(g, false, &bin[0], &len[0], &err));
	ASSERT_CALL(ipu__graph_write_form(g, true, &bin[1], &len[1], &err));
	ipu_graph_free(g);
	bg_fill(x, GB_B * GB_I, 5);
	for (int c = 0; c < 2; c++) {
		ASSERT_EQ(0, gb_run(bin[c], len[c], x, y[c])) TH_LOG("%s form: %s",
		      c ? "compact" : "plain", err.msg);
		free(bin[c]);
	}
	ASSERT_EQ(0, memcmp(y[0], y[1], sizeof(y[0]))) TH_LOG("plain and compact runs differ");
	gb_mlp_ref(x, want);
	ASSERT_TRUE(max_err(y[1], want, GB_B * GB_H, 10) < 1e-5) TH_LOG("mlp against the reference");
	ASSERT_EQ(657408u, init);
	ASSERT_LE(2 * len[1], 3 * init) TH_LOG("compact %zu bytes for %llu of initial data",
	      len[1], (unsigned long long)init);
	ASSERT_LE(5 * len[1], len[0]) TH_LOG("compact %zu bytes, plain %zu", len[1], len[0]);
}

/* ipu_graph_write() writes the compact form: the bytes ipu__graph_write_form(compact) does */
TEST(compact_binary_is_default)
{
	struct ipu_graph *g;
	uint64_t init = 0;
	void *a, *b;
	size_t la, lb;
	struct ipu_graph_header h;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_EQ(0, bg_mlp(g, 8, 16, 16, &init, &err)) TH_LOG("mlp: %s", err.msg);
	ASSERT_CALL(ipu_graph_write(g, &a, &la, &err));
	ASSERT_CALL(ipu__graph_write_form(g, true, &b, &lb, &err));
	ipu_graph_free(g);
	ASSERT_EQ(la, lb);
	ASSERT_EQ(0, memcmp(a, b, la));
	memcpy(&h, a, sizeof(h));
	/* a single-IPU binary stays 1.1, byte for byte as before 1.2 (multi_tests.h checks 1.2) */
	ASSERT_EQ(1, h.version_minor);
	free(a);
	free(b);
}
