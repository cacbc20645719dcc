/* SPDX-License-Identifier: MIT */
/*
 * Multi-IPU graphs, replicated graphs and the collectives (docs/builder.md
 * "Multi-IPU graphs"): the binaries they write (ipus section, global tiles,
 * cross-IPU copies), runs on the model device of N IPUs
 * (ipu_model_open_multi(), memory checker on) against host references,
 * every collective and method bit for bit against the documented sum
 * order, the automatic choice, a replicated data-parallel MLP step against
 * the single-IPU step on the global batch, and the refusals.
 * Included by test_builder.c.
 */
#ifndef MULTI_TESTS_H
#define MULTI_TESTS_H

#include "binary_graphs.h"

#define TEST_TILES 32u	/* the test chip's tiles per IPU (ipu_models.h) */

/* a model device of @ipus IPUs with the memory-plan checker on, @g written and loaded */
static void load_multi(struct __test_metadata *_metadata, struct ipu_graph *g, unsigned ipus,
		       struct ipu_device **out)
{
	load_run_ipus(_metadata, g, "test", ipus, out);
}

/* section @type of binary @b: its records and count, or NULL */
static const void *bin_section(const void *b, uint32_t type, uint32_t *count, uint32_t *flags)
{
	const struct ipu_graph_header *h = b;

	for (uint32_t i = 0; i < h->section_count; i++) {
		const struct ipu_graph_section *s = (const void *)((const char *)b + h->section_table +
								  i * h->section_entsize);

		if (s->type == type) {
			*count = s->count;
			if (flags)
				*flags = s->flags;
			return (const char *)b + s->offset;
		}
	}
	return NULL;
}

TEST(multi_create_and_tiles)
{
	static const unsigned ok[] = { 1, 2, 4, 8, 16 }, bad[] = { 0, 3, 6, 32 };
	struct ipu_graph *g;
	unsigned first, count;

	for (unsigned i = 0; i < 5; i++) {
		ASSERT_CALL(ipu_graph_create_multi(IPU_MODEL_TEST, ok[i], &g, &err));
		EXPECT_EQ(ok[i], ipu_graph_ipus(g));
		EXPECT_EQ(1u, ipu_graph_replicas(g));
		EXPECT_EQ(TEST_TILES, ipu_graph_tiles_per_ipu(g));
		EXPECT_EQ(ok[i] * TEST_TILES, ipu_graph_tiles(g));
		ASSERT_CALL(ipu_graph_ipu_tiles(g, ok[i] - 1, &first, &count, &err));
		EXPECT_EQ((ok[i] - 1) * TEST_TILES, first);
		EXPECT_EQ(TEST_TILES, count);
		EXPECT_EQ((int)ok[i] - 1, ipu_graph_tile_ipu(g, ok[i] * TEST_TILES - 1, &err));
		expect_err(_metadata, ipu_graph_ipu_tiles(g, ok[i], NULL, NULL, &err), "no IPU",
			   "IPU out of range");
		expect_err(_metadata, ipu_graph_tile_ipu(g, ok[i] * TEST_TILES, &err), "does not exist",
			   "tile out of range");
		ipu_graph_free(g);
	}
	for (unsigned i = 0; i < 4; i++) {
		g = NULL;
		expect_err(_metadata, ipu_graph_create_multi(IPU_MODEL_TEST, bad[i], &g, &err),
			   "1, 2, 4, 8 or 16", "bad IPU count");
		EXPECT_EQ(NULL, g);
		expect_err(_metadata, ipu_graph_create_replicated(IPU_MODEL_TEST, bad[i], &g, &err),
			   "1, 2, 4, 8 or 16", "bad replica count");
	}
	expect_err(_metadata, ipu_graph_create_multi(999, 2, &g, &err), "unknown model", "bad model");
}

TEST(multi_tile_out_of_range)
{
	struct ipu_graph *g;
	uint32_t shape[1] = { 64 };
	int t;

	ASSERT_CALL(ipu_graph_create_multi(IPU_MODEL_TEST, 2, &g, &err));
	ASSERT_CALL(t = ipu_graph_add_tensor(g, "t", IPU_DTYPE_F32, 1, shape, &err));
	expect_err(_metadata, ipu_graph_map(g, t, 0, 64, 2 * TEST_TILES, &err),
		   "the graph has tiles 0..63 (2 IPUs of test)", "tile 64 of 2 IPUs");
	ASSERT_CALL(ipu_graph_map(g, t, 0, 64, 2 * TEST_TILES - 1, &err));
	expect_err(_metadata, ipu_graph_map_ipu(g, t, 2, 0, &err), "no IPU 2", "map to IPU 2");
	ipu_graph_free(g);
}

/* the same MLP graph from ipu_graph_create() and ipu_graph_create_multi(1): the same bytes, 1.1 */
TEST(multi_one_ipu_byte_identical)
{
	struct ipu_graph *g1, *gm;
	uint64_t init = 0;
	void *a, *b;
	size_t la, lb;
	uint32_t n;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g1, &err));
	ASSERT_CALL(ipu_graph_create_multi(IPU_MODEL_TEST, 1, &gm, &err));
	ASSERT_EQ(0, bg_mlp(g1, 8, 16, 16, &init, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, bg_mlp(gm, 8, 16, 16, &init, &err)) TH_LOG("%s", err.msg);
	ASSERT_CALL(ipu_graph_write(g1, &a, &la, &err));
	ASSERT_CALL(ipu_graph_write(gm, &b, &lb, &err));
	ASSERT_EQ(la, lb);
	EXPECT_EQ(0, memcmp(a, b, la));
	EXPECT_EQ(1, ((const struct ipu_graph_header *)a)->version_minor);
	EXPECT_EQ(NULL, bin_section(a, IPU_GRAPH_SEC_IPUS, &n, NULL));
	free(a);
	free(b);
	ipu_graph_free(g1);
	ipu_graph_free(gm);
}

/*
 * A graph of @ipus IPUs: a [256] on IPU 0, b on the last IPU, c over all
 * tiles of all IPUs; "main": b = a (a cross-IPU copy), c = relu(c) + b
 * (operands on different IPUs), an external sync.
 */
static struct ipu_graph *cross_graph(struct __test_metadata *_metadata, unsigned ipus)
{
	struct ipu_graph *g;
	uint32_t shape[1] = { 256 };
	int a, b, c, seq;

	if (ipu_graph_create_multi(IPU_MODEL_TEST, ipus, &g, &err))
		return NULL;
	a = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 1, shape, &err);
	b = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 1, shape, &err);
	c = ipu_graph_add_tensor(g, "c", IPU_DTYPE_F32, 1, shape, &err);
	EXPECT_LE(0, ipu_graph_map_ipu(g, a, 0, 0, &err)) TH_LOG("%s", err.msg);
	EXPECT_LE(0, ipu_graph_map_ipu(g, b, ipus - 1, 0, &err)) TH_LOG("%s", err.msg);
	EXPECT_LE(0, ipu_graph_map_linear(g, c, 0, &err)) TH_LOG("%s", err.msg);
	seq = ipu_prog_sequence(g, &err);
	EXPECT_LE(0, ipu_prog_append(g, seq, ipu_prog_copy(g, (struct ipu_slice){ a, 0, 256 },
							   (struct ipu_slice){ b, 0, 256 }, &err), &err));
	EXPECT_LE(0, ipu_unary(g, seq, IPU_OP_RELU, c, NULL, &err)) TH_LOG("%s", err.msg);
	EXPECT_LE(0, ipu_binary(g, seq, IPU_OP_ADD, c, b, NULL, &err)) TH_LOG("%s", err.msg);
	EXPECT_LE(0, ipu_prog_append(g, seq, ipu_prog_sync_external(g, &err), &err));
	EXPECT_LE(0, ipu_graph_add_program(g, "main", seq, &err));
	EXPECT_LE(0, ipu_graph_expose(g, a, NULL, IPU_HANDLE_WRITE, &err));
	EXPECT_LE(0, ipu_graph_expose(g, b, NULL, IPU_HANDLE_READ, &err));
	EXPECT_LE(0, ipu_graph_expose(g, c, NULL, IPU_HANDLE_RW, &err));
	return g;
}

/* the plain binary: version 1.2, the ipus record, copies from IPU 0 to the last, the external sync */
TEST(multi_binary_sections)
{
	struct ipu_graph *g = cross_graph(_metadata, 4);
	const struct ipu_graph_ipus *ip;
	const struct ipu_graph_copy *cp;
	const struct ipu_graph_prog_node *nd;
	uint32_t n, flags, cross = 0, ext = 0;
	void *b;
	size_t len;

	ASSERT_NE(NULL, g);
	ASSERT_CALL(ipu__graph_write_form(g, false, &b, &len, &err));
	ipu_graph_free(g);
	EXPECT_EQ(2, ((const struct ipu_graph_header *)b)->version_minor);
	ip = bin_section(b, IPU_GRAPH_SEC_IPUS, &n, &flags);
	ASSERT_NE(NULL, ip);
	EXPECT_EQ(1u, n);
	EXPECT_NE(0u, flags & IPU_GRAPH_SECF_REQUIRED);
	EXPECT_EQ(4u, ip->ipus);
	EXPECT_EQ(TEST_TILES, ip->tiles_per_ipu);
	EXPECT_EQ(0u, ip->flags);
	cp = bin_section(b, IPU_GRAPH_SEC_COPIES, &n, NULL);
	ASSERT_NE(NULL, cp);
	for (uint32_t i = 0; i < n; i++) {
		EXPECT_LT(cp[i].src_tile, 4 * TEST_TILES);
		EXPECT_LT(cp[i].dst_tile, 4 * TEST_TILES);
		EXPECT_EQ(0u, cp[i].reserved);
		if (cp[i].src_tile / TEST_TILES == 0 && cp[i].dst_tile / TEST_TILES == 3)
			cross += cp[i].bytes;
	}
	EXPECT_LE(256u * 4, cross) TH_LOG("a to b crosses from IPU 0 to IPU 3");
	nd = bin_section(b, IPU_GRAPH_SEC_PROGRAM_NODES, &n, NULL);
	ASSERT_NE(NULL, nd);
	for (uint32_t i = 0; i < n; i++)
		ext += nd[i].kind == IPU_PROG_SYNC && nd[i].a == IPU_SYNC_EXTERNAL;
	EXPECT_EQ(1u, ext);
	free(b);
}

/* the memory reports of the graph and of its binary count every global tile */
TEST(multi_memory_report)
{
	struct ipu_graph *g = cross_graph(_metadata, 4);
	struct ipu_memory_report rg, rb;
	void *b;
	size_t len;

	ASSERT_NE(NULL, g);
	ASSERT_CALL(ipu_graph_memory_report(g, &rg, &err));
	ASSERT_CALL(ipu_graph_write(g, &b, &len, &err));
	ipu_graph_free(g);
	ASSERT_CALL(ipu_graph_binary_memory_report(b, len, &rb, &err));
	free(b);
	EXPECT_EQ(4 * TEST_TILES, rg.tiles);
	EXPECT_EQ(4 * TEST_TILES, rb.tiles);
	/* b (1 KiB) on IPU 3's first tiles, and c over every IPU */
	for (unsigned ipu = 0; ipu < 4; ipu++) {
		EXPECT_LT(0u, rg.tile[ipu * TEST_TILES].total) TH_LOG("IPU %u", ipu);
		EXPECT_LE(rg.tile[ipu * TEST_TILES].total, rb.tile[ipu * TEST_TILES].total);
	}
	EXPECT_EQ(rg.always_live, rb.always_live);
	ipu_memory_report_free(&rg);
	ipu_memory_report_free(&rb);
}

/*
 * A branch on a scalar held by IPU 1 steers every IPU alike (the engine
 * takes the holder's value on every member: the builder copies nothing):
 * then b (IPU 3) = a (IPU 0), else b = c (IPU 2).
 */
TEST(multi_if_on_another_ipu)
{
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t shape[1] = { 64 };
	float a[64], c[64], b[64];
	int ta, tb, tc, cond, seq, then_p, else_p;

	ASSERT_CALL(ipu_graph_create_multi(IPU_MODEL_TEST, 4, &g, &err));
	ASSERT_CALL(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(tc = ipu_graph_add_tensor(g, "c", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(cond = ipu_graph_add_tensor(g, "cond", IPU_DTYPE_I32, 0, NULL, &err));
	ASSERT_CALL(ipu_graph_map_ipu(g, ta, 0, 0, &err));
	ASSERT_CALL(ipu_graph_map_ipu(g, tb, 3, 0, &err));
	ASSERT_CALL(ipu_graph_map_ipu(g, tc, 2, 0, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, cond, TEST_TILES + 5, &err));
	ASSERT_CALL(then_p = ipu_prog_copy(g, (struct ipu_slice){ ta, 0, 64 }, (struct ipu_slice){ tb, 0, 64 },
					   &err));
	ASSERT_CALL(else_p = ipu_prog_copy(g, (struct ipu_slice){ tc, 0, 64 }, (struct ipu_slice){ tb, 0, 64 },
					   &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(ipu_prog_append(g, seq, ipu_prog_if(g, cond, then_p, else_p, &err), &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tc, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, cond, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_READ, &err));
	load_multi(_metadata, g, 4, &d);
	ipu_graph_free(g);
	fill_rand(a, 64);
	fill_rand(c, 64);
	ASSERT_CALL(ipu_tensor_write(d, "a", a, sizeof(a), &err));
	ASSERT_CALL(ipu_tensor_write(d, "c", c, sizeof(c), &err));
	for (int32_t v = 1; v >= 0; v--) {
		ASSERT_CALL(ipu_tensor_write(d, "cond", &v, sizeof(v), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "b", b, sizeof(b), &err));
		EXPECT_EQ(0, memcmp(b, v ? a : c, sizeof(b))) TH_LOG("cond %d", v);
	}
	ipu_device_close(d);
}

/* cross-IPU copies and an elementwise op over IPUs run on 2 and 4 IPUs */
TEST(multi_cross_ipu_copies_run)
{
	for (unsigned ipus = 2; ipus <= 4; ipus *= 2) {
		struct ipu_graph *g = cross_graph(_metadata, ipus);
		struct ipu_device *d;
		float a[256], b[256], c[256], c0[256];

		ASSERT_NE(NULL, g);
		load_multi(_metadata, g, ipus, &d);
		ipu_graph_free(g);
		fill_rand(a, 256);
		fill_rand(c0, 256);
		ASSERT_CALL(ipu_tensor_write(d, "a", a, sizeof(a), &err));
		ASSERT_CALL(ipu_tensor_write(d, "c", c0, sizeof(c0), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "b", b, sizeof(b), &err));
		ASSERT_CALL(ipu_tensor_read(d, "c", c, sizeof(c), &err));
		ipu_device_close(d);
		for (int i = 0; i < 256; i++) {
			ASSERT_EQ(a[i], b[i]) TH_LOG("%u IPUs: b[%d]", ipus, i);
			ASSERT_EQ((c0[i] > 0 ? c0[i] : 0) + a[i], c[i]) TH_LOG("%u IPUs: c[%d]", ipus, i);
		}
	}
}

/* a matmul whose operands and plan span both IPUs of a pair */
TEST(multi_matmul_spans_ipus)
{
	enum { M = 24, K = 40, N = 36 };
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t sa[2] = { M, K }, sb[2] = { K, N };
	static float A[M * K], B[K * N], C[M * N];
	int a, b, c, seq;

	ASSERT_CALL(ipu_graph_create_multi(IPU_MODEL_TEST, 2, &g, &err));
	ASSERT_CALL(a = ipu_graph_add_tensor(g, "A", IPU_DTYPE_F32, 2, sa, &err));
	ASSERT_CALL(b = ipu_graph_add_tensor(g, "B", IPU_DTYPE_F32, 2, sb, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, a, 0, &err));
	ASSERT_CALL(ipu_graph_map_ipu(g, b, 1, 0, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(c = ipu_matmul(g, seq, a, b, "C", NULL, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, a, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, b, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, c, NULL, IPU_HANDLE_READ, &err));
	load_multi(_metadata, g, 2, &d);
	ipu_graph_free(g);
	fill_rand(A, M * K);
	fill_rand(B, K * N);
	ASSERT_CALL(ipu_tensor_write(d, "A", A, sizeof(A), &err));
	ASSERT_CALL(ipu_tensor_write(d, "B", B, sizeof(B), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "C", C, sizeof(C), &err));
	ipu_device_close(d);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double want = 0;

			for (int k = 0; k < K; k++)
				want += (double)A[i * K + k] * B[k * N + j];
			ASSERT_GT(1e-5, fabs(C[i * N + j] - want) / (fabs(want) + 1))
				TH_LOG("C[%d][%d] = %g, want %g", i, j, C[i * N + j], want);
		}
}

/* a matmul whose operands lie on IPU 2 of 4 is planned within IPU 2: no copy leaves it */
TEST(multi_matmul_within_ipu)
{
	enum { M = 20, K = 48, N = 28 };
	struct ipu_graph *g;
	struct ipu_device *d;
	uint32_t sa[2] = { M, K }, sb[2] = { K, N }, n;
	static float A[M * K], B[K * N], C[M * N];
	const struct ipu_graph_copy *cp;
	int a, b, c, seq;
	void *bin;
	size_t len;

	ASSERT_CALL(ipu_graph_create_multi(IPU_MODEL_TEST, 4, &g, &err));
	ASSERT_CALL(a = ipu_graph_add_tensor(g, "A", IPU_DTYPE_F32, 2, sa, &err));
	ASSERT_CALL(b = ipu_graph_add_tensor(g, "B", IPU_DTYPE_F32, 2, sb, &err));
	ASSERT_CALL(ipu_graph_map_ipu(g, a, 2, 0, &err));
	ASSERT_CALL(ipu_graph_map_ipu(g, b, 2, 0, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(c = ipu_matmul(g, seq, a, b, "C", NULL, &err));
	for (uint64_t e = 0; e < M * N; e++)
		ASSERT_EQ(2, ipu_graph_tile_ipu(g, (unsigned)ipu_graph_tile_of(g, c, e), &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, a, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, b, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, c, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu__graph_write_form(g, false, &bin, &len, &err));
	cp = bin_section(bin, IPU_GRAPH_SEC_COPIES, &n, NULL);
	for (uint32_t i = 0; cp && i < n; i++) {
		EXPECT_EQ(2u, cp[i].src_tile / TEST_TILES);
		EXPECT_EQ(2u, cp[i].dst_tile / TEST_TILES);
	}
	free(bin);
	load_multi(_metadata, g, 4, &d);
	ipu_graph_free(g);
	fill_rand(A, M * K);
	fill_rand(B, K * N);
	ASSERT_CALL(ipu_tensor_write(d, "A", A, sizeof(A), &err));
	ASSERT_CALL(ipu_tensor_write(d, "B", B, sizeof(B), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "C", C, sizeof(C), &err));
	ipu_device_close(d);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double want = 0;

			for (int k = 0; k < K; k++)
				want += (double)A[i * K + k] * B[k * N + j];
			ASSERT_GT(1e-5, fabs(C[i * N + j] - want) / (fabs(want) + 1))
				TH_LOG("C[%d][%d] = %g, want %g", i, j, C[i * N + j], want);
		}
}

#include "collectives_tests.h"
#include "pipeline_tests.h"

#endif /* MULTI_TESTS_H */
