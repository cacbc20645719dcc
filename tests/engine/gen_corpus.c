/* SPDX-License-Identifier: MIT */
/*
 * Writes the fuzzer's seed corpus (tests/engine/fuzz/corpus/graph_loader): small
 * valid graphs covering every section and program node kind, each also in
 * the compact form (packed_*.bin: packed tables), a regular layout whose
 * packed tables have long groups and lags above 1, a Map vertex whose
 * params program the fuzzer mutates, and multi-IPU graphs (format 1.2) for
 * 2 and 4 IPUs, which the fuzzer runs on a group of engines.
 * Usage: gen_corpus DIR
 */
#include <stdio.h>
#include <stdlib.h>

#include "gw.h"
#include "tcodelets.h"
#include "ipu/ipu_models.h"

#define I32 IPU_DTYPE_I32

static void save_form(const char *dir, const char *name, uint8_t *bin, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(bin, 1, len, f) != len) {
		perror(path);
		exit(1);
	}
	fclose(f);
	free(bin);
}

/* NAME plain and packed_NAME compact (@forms: 1 plain, 2 compact, 3 both) */
static void save(const char *dir, const char *name, struct gw *w, unsigned forms)
{
	char packed[256];
	uint8_t *bin;
	size_t len;

	snprintf(packed, sizeof(packed), "packed_%s", name);
	if (forms & 1) {
		bin = gw_finish(w, &len);
		save_form(dir, name, bin, len);
	}
	if (forms & 2) {
		bin = gw_finish_packed(w, &len);
		save_form(dir, packed, bin, len);
	}
	gw_free(w);
}

/* 16 vertices over 8 tiles and a strided exchange: packed groups with lags 1 and 2 */
static void regular(const char *dir)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_copy c[8];
	uint32_t v[16], k[2], tiles[8], offs[8], counts[8], shape[1] = { 64 };

	for (uint32_t t = 0; t < 8; t++) {
		struct ipu_graph_field f[2] = { { 0, 8, IPU_DTYPE_I32, { 0 } },
						{ 32, 8, IPU_DTYPE_I32, { 0 } } };

		gw_plan(w, t, 128);
		tiles[t] = t;
		offs[t] = 0;
		counts[t] = 8;
		v[2 * t] = gw_vertex(w, TC_COPY, t, 2, f, 0, NULL);
		v[2 * t + 1] = gw_vertex(w, TC_NOP, t, 0, NULL, 0, NULL);
		c[t] = (struct ipu_graph_copy){ t, 0, (t + 1) % 8, 64, 32, 0 };
	}
	gw_handle(w, "r", gw_tensor(w, "r", I32, 1, shape, 8, tiles, offs, counts),
		  IPU_HANDLE_READ | IPU_HANDLE_WRITE);
	k[0] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "cs", 16, v), 0, 0);
	k[1] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "x", 8, c), 0, 0);
	gw_entry(w, "regular", gw_seq(w, 2, k));
	save(dir, "regular.bin", w, 2);
}

static uint32_t add(struct gw *w, uint32_t tile, uint32_t off, uint32_t n, uint32_t d)
{
	struct ipu_graph_field f = { .tile_offset = off, .count = n, .dtype = I32 };

	return gw_vertex(w, TC_ADD, tile, 1, &f, 1, &d);
}

/* 7: input guards (format 1.1): reads and writes of two host-writable tensors */
static void seed_guards(const char *dir)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_copy c = { .src_tile = 0, .dst_tile = 1, .bytes = 16 };
	uint32_t x, y, v, k[2];

	gw_plan(w, 0, 64);
	gw_plan(w, 1, 64);
	x = gw_tensor1(w, "x", I32, 4, 0, 0);
	y = gw_tensor1(w, "y", I32, 4, 1, 0);
	gw_handle(w, "x", x, IPU_HANDLE_READ | IPU_HANDLE_WRITE);
	gw_handle(w, "y", y, IPU_HANDLE_READ | IPU_HANDLE_WRITE);
	gw_stream(w, "in", IPU_STREAM_HOST_TO_DEVICE, I32, 1, 4);
	v = add(w, 0, 0, 4, 1);
	k[0] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "inc", 1, &v), 0, 0);
	k[1] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "x->y", 1, &c), 0, 0);
	gw_entry(w, "use", gw_seq(w, 2, k));
	gw_entry(w, "feed", gw_node(w, IPU_PROG_STREAM_COPY, 0, x, IPU_STREAM_HOST_TO_DEVICE));
	gw_guard(w, 0, 0, IPU_GRAPH_GUARD_READS | IPU_GRAPH_GUARD_WRITES);
	gw_guard(w, 0, 1, IPU_GRAPH_GUARD_WRITES);
	gw_guard(w, 1, 0, IPU_GRAPH_GUARD_WRITES);
	save(dir, "guards.bin", w, 3);
}

/*
 * 9: a multi-IPU graph (1.2) of n IPUs: on each, x (4 i32) += 1; a cross-IPU
 * exchange x_k -> y_(k+1); an external sync; a loop on a counter held by
 * the last IPU; a host stream into the first IPU's x.
 */
static void multi_seed(const char *dir, uint32_t n, const char *name)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	const uint32_t T = ipu_model_by_id(IPU_MODEL_TEST)->tiles;
	struct ipu_graph_copy c[4];
	uint32_t v[5], k[4], cnt;
	char nm[16];

	gw_ipus(w, n);
	for (uint32_t i = 0; i < n; i++) {
		gw_plan(w, i * T + i, 64);
		snprintf(nm, sizeof(nm), "x%u", i);
		gw_handle(w, nm, gw_tensor1(w, nm, I32, 4, i * T + i, 0),
			  IPU_HANDLE_READ | IPU_HANDLE_WRITE);
		v[i] = add(w, i * T + i, 0, 4, i + 1);
		c[i] = (struct ipu_graph_copy){ i * T + i, 0, (i + 1) % n * T + (i + 1) % n, 32, 16, 0 };
	}
	cnt = gw_tensor1(w, "c", I32, 1, (n - 1) * T + n - 1, 48);
	gw_init(w, (n - 1) * T + n - 1, 48, 4, &(int32_t){ 2 });
	v[n] = add(w, (n - 1) * T + n - 1, 48, 1, (uint32_t)-1);
	k[0] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "inc", n + 1, v), 0, 0);
	k[1] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "ring", n, c), 0, 0);
	k[2] = gw_node(w, IPU_PROG_SYNC, IPU_SYNC_EXTERNAL, 0, 0);
	k[3] = gw_node(w, IPU_PROG_REPEAT_WHILE_TRUE, cnt, gw_seq(w, 3, k), IPU_GRAPH_NONE);
	gw_entry(w, "main", k[3]);
	gw_stream(w, "in", IPU_STREAM_HOST_TO_DEVICE, I32, 1, 4);
	gw_entry(w, "feed", gw_node(w, IPU_PROG_STREAM_COPY, 0, 0 /* x0 */,
					  IPU_STREAM_HOST_TO_DEVICE));
	save(dir, name, w, 3);
}

/* two temporaries at one offset, written at steps 1 and 2; the second's region live over [first, last] */
static void memory_regions_seed(const char *dir, uint32_t first, uint32_t last, const char *name)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	uint32_t v[2], k[2];
	struct ipu_graph_mem_region mr[3] = {
		{ 0, 0, 16, IPU_GRAPH_REGION_ALWAYS_LIVE | IPU_GRAPH_REGION_TENSOR, 1, 2 },
		{ 0, 16, 16, 0, 1, 1 },
		{ 0, 16, 16, IPU_GRAPH_REGION_TENSOR, first, last },
	};

	gw_plan(w, 0, 64);
	gw_tensor1(w, "r", I32, 4, 0, 0);
	v[0] = add(w, 0, 16, 4, 1);
	v[1] = add(w, 0, 16, 4, 2);
	k[0] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "a", 1, &v[0]), 0, 0);
	k[1] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "b", 1, &v[1]), 0, 0);
	gw_entry(w, "main", gw_seq(w, 2, k));
	gw_raw_section(w, IPU_GRAPH_SEC_MEMORY_REGIONS, 0, sizeof(mr[0]), mr, sizeof(mr));
	save(dir, name, w, 1);
}

/* 7: a fused expression (Map2: relu(in0 + in1) * 2; the fuzzer mutates its program) */
static void map_seed(const char *dir)
{
	const uint8_t F = IPU_DTYPE_F32;
	struct ipu_graph_field mf[3] = { { 0, 8, F, { 0 } }, { 32, 1, F, { 0 } }, { 64, 8, F, { 0 } } };
	uint32_t prog[8] = { 0x61111007u, 0x63022948u, 0, 0, 0, 0, 0, 0 };
	float init[9] = { 1, -2, 3, -4, 0.5f, 0.25f, 2, 8, -1 };
	struct gw *w = gw_new(IPU_MODEL_TEST);
	uint32_t v;

	gw_plan(w, 3, 128);
	gw_init(w, 3, 0, 32, init);
	gw_init(w, 3, 32, 4, init + 8);
	v = gw_vertex(w, IPUE_CODELET_MAP(2), 3, 3, mf, 8, prog);
	gw_entry(w, "map", gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "map", 1, &v), 0, 0));
	save(dir, "map.bin", w, 3);
}

/* the seeds of the later minor versions' sections */
static void format_1_1_and_1_2_seeds(const char *dir)
{
	map_seed(dir);

	/* 8: the builder's memory plan (memory_regions): overlapping temporaries */
	memory_regions_seed(dir, 2, 2, "memory_regions.bin");
	/* the memory checker (the fuzzer runs with it): live regions that overlap, an access outside */
	memory_regions_seed(dir, 1, 2, "memory_regions_overlap.bin");
	memory_regions_seed(dir, 3, 3, "memory_regions_outside.bin");

	seed_guards(dir);
	multi_seed(dir, 2, "multi_2ipu.bin");
	multi_seed(dir, 4, "multi_4ipu.bin");
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	struct gw *w;
	uint32_t v[4], k[8], n, cs, shape[2] = { 2, 8 }, tiles[2] = { 0, 1 },
		 offs[2] = { 0, 64 }, counts[2] = { 8, 8 };
	struct ipu_graph_copy c[2] = {
		{ .src_tile = 0, .src_offset = 0, .dst_tile = 1, .dst_offset = 0, .bytes = 32 },
		{ .src_tile = 1, .src_offset = 64, .dst_tile = 0, .dst_offset = 64, .bytes = 32 },
	};
	int32_t one = 1;

	/* 1: empty graph */
	save(dir, "empty.bin", gw_new(IPU_MODEL_TEST), 1);

	/* 2: compute + exchange + repeat, 2-D tensor over two tiles */
	w = gw_new(IPU_MODEL_TEST);
	gw_plan(w, 0, 256);
	gw_plan(w, 1, 256);
	gw_handle(w, "m", gw_tensor(w, "m", I32, 2, shape, 2, tiles, offs, counts),
		  IPU_HANDLE_READ | IPU_HANDLE_WRITE);
	v[0] = add(w, 0, 0, 8, 1);
	v[1] = add(w, 1, 64, 8, 2);
	k[0] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "cs", 2, v), 0, 0);
	k[1] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "x", 2, c), 0, 0);
	k[2] = gw_node(w, IPU_PROG_SYNC, 0, 0, 0);
	n = gw_seq(w, 3, k);
	gw_entry(w, "main", gw_node(w, IPU_PROG_REPEAT, 3, n, 0));
	gw_meta(w, "seed", "compute");
	save(dir, "compute_exchange.bin", w, 3);

	/* 3: loops and conditions */
	w = gw_new(IPU_MODEL_TEST);
	gw_plan(w, 0, 64);
	gw_tensor1(w, "c", I32, 1, 0, 0);
	gw_tensor1(w, "acc", I32, 1, 0, 4);
	gw_init(w, 0, 0, 4, &(int32_t){ 3 });
	v[0] = add(w, 0, 0, 1, (uint32_t)-1);
	v[1] = add(w, 0, 4, 1, 5);
	cs = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "body", 2, v), 0, 0);
	k[0] = gw_node(w, IPU_PROG_REPEAT_WHILE_TRUE, 0, cs, IPU_GRAPH_NONE);
	k[1] = gw_node(w, IPU_PROG_IF, 1, cs, IPU_GRAPH_NONE);
	k[2] = gw_node(w, IPU_PROG_ABORT_ON_CONDITION, 0, 7, 0);
	gw_entry(w, "loop", gw_seq(w, 3, k));
	gw_entry(w, "if", k[1]);
	save(dir, "control.bin", w, 3);

	/* 4: streams */
	w = gw_new(IPU_MODEL_TEST);
	gw_plan(w, 0, 64);
	n = gw_tensor1(w, "t", I32, 4, 0, 0);
	gw_stream(w, "in", IPU_STREAM_HOST_TO_DEVICE, I32, 2, 4);
	gw_stream(w, "out", IPU_STREAM_DEVICE_TO_HOST, I32, 3, 4);
	v[0] = add(w, 0, 0, 4, 9);
	k[0] = gw_node(w, IPU_PROG_STREAM_COPY, 0, n, IPU_STREAM_HOST_TO_DEVICE);
	k[1] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "inc", 1, v), 0, 0);
	k[2] = gw_node(w, IPU_PROG_STREAM_COPY, 1, n, IPU_STREAM_DEVICE_TO_HOST);
	gw_entry(w, "stream", gw_node(w, IPU_PROG_REPEAT, 5, gw_seq(w, 3, k), 0));
	gw_handle(w, "t", n, IPU_HANDLE_READ);
	save(dir, "streams.bin", w, 3);

	/* 5: every test codelet, scalar field, init data, an unknown section */
	w = gw_new(IPU_MODEL_TEST);
	gw_plan(w, 0, 128);
	gw_plan(w, 31, 128);
	gw_tensor1(w, "f", I32, 1, 0, 96);
	gw_init(w, 0, 96, 4, &one);
	{
		struct ipu_graph_field f2[2] = { { 0, 8, I32, { 0 } }, { 32, 8, I32, { 0 } } };
		struct ipu_graph_field fs[2] = { { 64, 4, I32, { 0 } }, { 96, 1, I32, { 0 } } };
		struct ipu_graph_field fe = { 0, 4, I32, { 0 } };
		uint32_t p = 77, q[2];

		v[0] = gw_vertex(w, TC_COPY, 31, 2, f2, 0, NULL);
		v[1] = gw_vertex(w, TC_ADD_S, 0, 2, fs, 0, NULL);
		v[2] = gw_vertex(w, TC_CYC, 0, 0, NULL, 1, &p);
		v[3] = gw_vertex(w, TC_NOP, 31, 0, NULL, 0, NULL);
		q[0] = gw_vertex(w, TC_EVEN, 0, 1, &fe, 0, NULL);
		q[1] = gw_vertex(w, TC_SET, 31, 1, &f2[0], 1, &p);
		k[0] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "a", 4, v), 0, 0);
		k[1] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "b", 2, q), 0, 0);
	}
	gw_entry(w, "all", gw_seq(w, 2, k));
	gw_raw_section(w, 4242, 0, 4, "abcdefgh", 8);
	save(dir, "codelets.bin", w, 3);

	/* 6: codelets of the real library (what QEMU runs) */
	w = gw_new(IPU_MODEL_TEST);
	gw_plan(w, 2, 256);
	{
		const uint8_t F = IPU_DTYPE_F32;
		struct ipu_graph_field ab[3] = { { 0, 4, F, { 0 } }, { 16, 4, F, { 0 } },
						 { 32, 4, F, { 0 } } };
		struct ipu_graph_field un[2] = { { 0, 4, F, { 0 } }, { 48, 4, F, { 0 } } };
		struct ipu_graph_field rd[2] = { { 0, 4, F, { 0 } }, { 64, 1, F, { 0 } } };
		struct ipu_graph_field mm[3] = { { 0, 4, F, { 0 } }, { 16, 4, F, { 0 } },
						 { 128, 4, F, { 0 } } };
		uint32_t mp[4] = { 2, 2, 2, 0 }, rp = 0, q[2];
		float init[8] = { 1, -2, 3, -4, 0.5f, 0.25f, 2, 8 };

		gw_init(w, 2, 0, sizeof(init), init);
		v[0] = gw_vertex(w, IPUE_CODELET_BINARY(IPUE_BOP_ADD), 2, 3, ab, 0, NULL);
		v[1] = gw_vertex(w, IPUE_CODELET_UNARY(IPUE_UOP_RELU), 2, 2, un, 0, NULL);
		v[2] = gw_vertex(w, IPUE_CODELET_REDUCE_SUM, 2, 2, rd, 1, &rp);
		q[0] = gw_vertex(w, IPUE_CODELET_MATMUL, 2, 3, mm, 4, mp);
		k[0] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "elementwise", 3, v), 0, 0);
		k[1] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "matmul", 1, q), 0, 0);
		gw_entry(w, "lib", gw_seq(w, 2, k));
	}
	save(dir, "library.bin", w, 3);
	regular(dir);

	format_1_1_and_1_2_seeds(dir);
	return 0;
}
