/* SPDX-License-Identifier: MIT */
/*
 * Memory planning (docs/builder.md, Memory): reuse of temporaries by
 * liveness, loops keep carried state, availableMemoryProportion, the
 * report. Included by test_builder.c.
 */

#define MEM_N 4096	/* elements: 128 per tile of the test model, 512 bytes */

/* a graph for the test model with memory.reuse @reuse */
static struct ipu_graph *mem_graph(struct __test_metadata *_metadata, int reuse)
{
	struct ipu_graph *g;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(ipu_graph_set_option(g, "memory.reuse", reuse ? "true" : "false", &err));
	return g;
}

/* x (written by the host) -> neg -> exp -> neg -> abs -> relu -> y (read): four temporaries */
static struct ipu_graph *mem_chain(struct __test_metadata *_metadata, int reuse)
{
	static const unsigned ops[5] = { IPU_OP_NEG, IPU_OP_EXP, IPU_OP_NEG, IPU_OP_ABS, IPU_OP_RELU };
	static const char *const names[5] = { "t1", "t2", "t3", "t4", "y" };
	uint32_t shape[1] = { MEM_N };
	struct ipu_graph *g = mem_graph(_metadata, reuse);
	int x, t, seq;

	ASSERT_CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, x, 8, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	t = x;
	for (int i = 0; i < 5; i++)
		ASSERT_CALL(t = ipu_unary(g, seq, ops[i], t, names[i], &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, x, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, t, NULL, IPU_HANDLE_READ, &err));
	return g;
}

/* run a graph with x = @x ([MEM_N]) in, y out */
static void mem_run(struct __test_metadata *_metadata, struct ipu_graph *g, const float *x, float *y)
{
	struct ipu_device *d;

	load_run(_metadata, g, "test", &d);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, MEM_N * sizeof(float), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y", y, MEM_N * sizeof(float), &err));
	ipu_device_close(d);
}

TEST(memory_chain_reuses_temporaries)
{
	static float x[MEM_N], y_on[MEM_N], y_off[MEM_N];
	struct ipu_graph *on = mem_chain(_metadata, 1), *off = mem_chain(_metadata, 0);

	ASSERT_TRUE(on && off);
	/* x and y always live (host-visible, 512 bytes each); t1..t4 live in
	 * overlapping pairs (t1-t2, t2-t3, t3-t4): two slots of 512 bytes */
	for (unsigned t = 0; t < ipu_graph_tiles(on); t++) {
		ASSERT_EQ(2048u, ipu_graph_tile_used(on, t)) TH_LOG("tile %u with reuse", t);
		ASSERT_EQ(3072u, ipu_graph_tile_used(off, t)) TH_LOG("tile %u without reuse", t);
	}
	fill_rand(x, MEM_N);
	mem_run(_metadata, on, x, y_on);
	mem_run(_metadata, off, x, y_off);
	ASSERT_EQ(0, memcmp(y_on, y_off, sizeof(y_on)));
	for (int i = 0; i < MEM_N; i++) {
		ASSERT_EQ(y_on[i], fabsf(-expf(-x[i]))) TH_LOG("y[%d] for x = %g", i, x[i]);
	}
	ipu_graph_free(on);
	ipu_graph_free(off);
}

TEST(memory_report_matches_tile_used)
{
	struct ipu_graph *g = mem_chain(_metadata, 1);
	struct ipu_memory_report r;
	uint64_t total = 0;

	ASSERT_TRUE(g != NULL);
	ASSERT_CALL(ipu_graph_memory_report(g, &r, &err));
	ASSERT_EQ(ipu_graph_tiles(g), r.tiles);
	for (unsigned t = 0; t < r.tiles; t++) {
		const struct ipu_tile_memory *m = &r.tile[t];

		ASSERT_EQ(ipu_graph_tile_used(g, t), m->total);
		ASSERT_EQ(m->total, m->always_live + m->not_always_live);
		ASSERT_EQ(1024u, m->always_live);
		ASSERT_EQ(2048u, m->temporaries);
		ASSERT_EQ(3072u, m->tensor_data);
		ASSERT_EQ(0u, m->buffers);
		ASSERT_LE(5u, m->vertices);	/* five ops, each one or more vertices a tile */
		ASSERT_LE(m->vertices * (16u + 2 * 12u), m->vertex_state);
		total += m->total;
	}
	ASSERT_EQ(total, r.total);
	ASSERT_EQ(2048u * r.tiles, r.total);
	ASSERT_TRUE(r.control_program > 0);
	ipu_memory_report_free(&r);
	ipu_memory_report_free(&r);	/* twice is harmless */
	expect_err(_metadata, ipu_graph_memory_report(NULL, &r, &err), "graph is NULL", "NULL graph");
	ipu_graph_free(g);
}

/*
 * repeat 3 { t = s + x; s = t }: s is read before it is written in the
 * loop body (state carried across iterations) and must stay live; t is
 * written first and may share memory. y = -s after the loop.
 */
TEST(memory_loop_keeps_carried_state)
{
	static float x[MEM_N], y[MEM_N];
	uint32_t shape[1] = { MEM_N };
	struct ipu_graph *g = mem_graph(_metadata, 1);
	struct ipu_memory_report r;
	int tx, s, t, yy, seq, body;

	ASSERT_TRUE(g != NULL);
	ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(s = ipu_graph_add_tensor(g, "s", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tx, 8, &err));
	ASSERT_CALL(ipu_graph_map_like(g, s, tx, &err));
	ASSERT_CALL(body = ipu_prog_sequence(g, &err));
	ASSERT_CALL(t = ipu_binary(g, body, IPU_OP_ADD, s, tx, "t", &err));
	ASSERT_CALL(ipu_prog_append(g, body, ipu_prog_copy(g, ipu_slice_all(g, t), ipu_slice_all(g, s), &err),
				    &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(ipu_prog_append(g, seq, ipu_prog_repeat(g, 3, body, &err), &err));
	ASSERT_CALL(yy = ipu_unary(g, seq, IPU_OP_NEG, s, "y", &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, yy, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_memory_report(g, &r, &err));
	/* x, y and s always live; t alone above them */
	ASSERT_EQ(1536u, r.tile[0].always_live);
	ASSERT_EQ(512u, r.tile[0].temporaries);
	ASSERT_EQ(2048u, r.tile[0].total);
	ipu_memory_report_free(&r);
	fill_rand(x, MEM_N);
	mem_run(_metadata, g, x, y);
	for (int i = 0; i < MEM_N; i++) {
		ASSERT_EQ(y[i], -((x[i] + x[i]) + x[i])) TH_LOG("y[%d] for x = %g", i, x[i]);
	}
	ipu_graph_free(g);
}

TEST(memory_options_refused)
{
	struct ipu_graph *g = mem_graph(_metadata, 1);
	uint32_t shape[1] = { 16 };
	int t;

	ASSERT_TRUE(g != NULL);
	expect_err(_metadata, ipu_graph_set_option(g, "memory.reuse", "maybe", &err), "not true or false",
		   "bad boolean");
	expect_err(_metadata, ipu_graph_set_option(g, "availableMemoryProportion", "0", &err), "(0, 1]",
		   "proportion 0");
	expect_err(_metadata, ipu_graph_set_option(g, "availableMemoryProportion", "0.5x", &err), "(0, 1]",
		   "not a number");
	expect_err(_metadata, ipu_graph_set_option(g, "memoryReuse", "true", &err), "unknown option",
		   "unknown key");
	expect_err(_metadata, ipu_graph_set_option(NULL, "memory.reuse", "true", &err), "NULL", "NULL graph");
	ASSERT_CALL(t = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 1, shape, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, t, 0, &err));
	ASSERT_EQ(-EBUSY, ipu_graph_set_option(g, "memory.reuse", "false", &err));
	ASSERT_TRUE(strstr(err.msg, "first allocation") != NULL) TH_LOG("%s", err.msg);
	ASSERT_CALL(ipu_graph_set_option(g, "memory.reuse", "true", &err));	/* unchanged: fine */
	ipu_graph_free(g);
}

TEST(memory_planner_fails_clearly)
{
	struct ipu_graph *g = mem_graph(_metadata, 1);
	struct ipu_matmul_plan p;

	ASSERT_TRUE(g != NULL);
	ASSERT_CALL(ipu_matmul_plan(g, 256, 128, 512, IPU_DTYPE_F32, &p, &err));
	ASSERT_TRUE(p.tile_bytes <= ipu_graph_tile_memory(g));
	ASSERT_CALL(ipu_graph_set_option(g, "availableMemoryProportion", "0.02", &err));
	expect_err(_metadata, ipu_matmul_plan(g, 256, 128, 512, IPU_DTYPE_F32, &p, &err),
		   "availableMemoryProportion 0.02", "planner under a small proportion");
	ASSERT_TRUE(strstr(err.msg, "needs at least") != NULL) TH_LOG("%s", err.msg);
	ASSERT_EQ(-ENOSPC, err.code);
	ipu_graph_free(g);
}

#define MLP_B 64
#define MLP_I 784
#define MLP_H 128
#define MLP_O 10
#define MLP_LR 0.01f

struct mlp {
	float x[MLP_B * MLP_I], t[MLP_B * MLP_O];
	float w1[MLP_I * MLP_H], w2[MLP_H * MLP_O];
};

/* one SGD step of o = relu(x W1) W2 with loss 1/2 |o - t|^2: the ops after the forward pass */
static int mlp_backward(struct ipu_graph *g, int seq, int x, int w1, int w2, int h, int o, int t)
{
	int d, dw2, dh, r;

	if ((r = d = ipu_binary(g, seq, IPU_OP_SUB, o, t, NULL, &err)) < 0 ||
	    (r = dw2 = ipu_matmul_ex(g, seq, h, d, IPU_MATMUL_TRANSPOSE_A, "dw2", NULL, &err)) < 0 ||
	    (r = dh = ipu_matmul_ex(g, seq, d, w2, IPU_MATMUL_TRANSPOSE_B, "dh", NULL, &err)) < 0 ||
	    (r = ipu_nonlinearity_grad(g, seq, IPU_NL_RELU, h, dh, NULL, &err)) < 0 ||
	    (r = d = ipu_matmul_ex(g, seq, x, dh, IPU_MATMUL_TRANSPOSE_A, "dw1", NULL, &err)) < 0 ||
	    (r = ipu_scaled_add(g, seq, w1, d, -MLP_LR, &err)) < 0)
		return r;
	return ipu_scaled_add(g, seq, w2, dw2, -MLP_LR, &err);
}

/*
 * The batch-64 MLP of issue 10 on the test model (32 tiles x 64 KiB):
 * a training step of o = relu(x W1) W2, weights (0.4 MiB) on the device,
 * x (0.2 MiB) and targets from the host. Returns the graph, or NULL with
 * the failing call's code in *code (the message in err).
 */
static struct ipu_graph *mlp_graph(struct __test_metadata *_metadata, int reuse, const struct mlp *m, int *code)
{
	uint32_t sx[2] = { MLP_B, MLP_I }, sw1[2] = { MLP_I, MLP_H };
	uint32_t sw2[2] = { MLP_H, MLP_O }, st[2] = { MLP_B, MLP_O };
	struct ipu_graph *g = mem_graph(_metadata, reuse);
	int x, w1, w2, t, seq, h, o;

	ASSERT_CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, sx, &err));
	ASSERT_CALL(t = ipu_graph_add_tensor(g, "t", IPU_DTYPE_F32, 2, st, &err));
	ASSERT_CALL(w1 = ipu_graph_add_tensor(g, "w1", IPU_DTYPE_F32, 2, sw1, &err));
	ASSERT_CALL(w2 = ipu_graph_add_tensor(g, "w2", IPU_DTYPE_F32, 2, sw2, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, x, 16, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, t, 16, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, w1, 16, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, w2, 16, &err));
	ASSERT_CALL(ipu_graph_set_initial(g, w1, m->w1, sizeof(m->w1), &err));
	ASSERT_CALL(ipu_graph_set_initial(g, w2, m->w2, sizeof(m->w2), &err));
	ASSERT_CALL(ipu_graph_expose(g, x, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, t, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, w1, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, w2, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	if ((*code = h = ipu_matmul(g, seq, x, w1, "h", NULL, &err)) < 0 ||
	    (*code = ipu_nonlinearity(g, seq, IPU_NL_RELU, h, NULL, &err)) < 0 ||
	    (*code = o = ipu_matmul(g, seq, h, w2, "o", NULL, &err)) < 0 ||
	    (*code = mlp_backward(g, seq, x, w1, w2, h, o, t)) < 0) {
		ipu_graph_free(g);
		return NULL;
	}
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	return g;
}

/* the step in double: m's weights updated in w1, w2 */
static void mlp_ref(const struct mlp *m, double *w1, double *w2)
{
	static double h[MLP_B * MLP_H], d[MLP_B * MLP_O], dh[MLP_B * MLP_H];

	for (int i = 0; i < MLP_B; i++)
		for (int j = 0; j < MLP_H; j++) {
			double s = 0;

			for (int k = 0; k < MLP_I; k++)
				s += (double)m->x[i * MLP_I + k] * m->w1[k * MLP_H + j];
			h[i * MLP_H + j] = s > 0 ? s : 0;
		}
	for (int i = 0; i < MLP_B; i++)
		for (int j = 0; j < MLP_O; j++) {
			double s = 0;

			for (int k = 0; k < MLP_H; k++)
				s += h[i * MLP_H + k] * m->w2[k * MLP_O + j];
			d[i * MLP_O + j] = s - m->t[i * MLP_O + j];
		}
	for (int i = 0; i < MLP_B; i++)
		for (int k = 0; k < MLP_H; k++) {
			double s = 0;

			for (int j = 0; j < MLP_O; j++)
				s += d[i * MLP_O + j] * m->w2[k * MLP_O + j];
			dh[i * MLP_H + k] = h[i * MLP_H + k] > 0 ? s : 0;
		}
	for (int k = 0; k < MLP_H * MLP_O; k++) {
		double s = 0;

		for (int i = 0; i < MLP_B; i++)
			s += h[i * MLP_H + k / MLP_O] * d[i * MLP_O + k % MLP_O];
		w2[k] = m->w2[k] - (double)MLP_LR * s;
	}
	for (int k = 0; k < MLP_I * MLP_H; k++) {
		double s = 0;

		for (int i = 0; i < MLP_B; i++)
			s += (double)m->x[i * MLP_I + k / MLP_H] * dh[i * MLP_H + k % MLP_H];
		w1[k] = m->w1[k] - (double)MLP_LR * s;
	}
}

TEST(memory_mlp_batch64_fits_test_chip)
{
	static struct mlp m;
	static float w1[MLP_I * MLP_H], w2[MLP_H * MLP_O];
	static double r1[MLP_I * MLP_H], r2[MLP_H * MLP_O];
	struct ipu_graph *g;
	struct ipu_device *d;
	void *bin;
	size_t len;
	int code = 0;

	fill_rand(m.x, MLP_B * MLP_I);
	fill_rand(m.t, MLP_B * MLP_O);
	fill_rand(m.w1, MLP_I * MLP_H);
	fill_rand(m.w2, MLP_H * MLP_O);
	/* without reuse it does not fit */
	g = mlp_graph(_metadata, 0, &m, &code);
	if (g) {
		code = ipu_graph_write(g, &bin, &len, &err);
		if (!code)
			free(bin);
		ipu_graph_free(g);
	}
	ASSERT_EQ(-ENOSPC, code) TH_LOG("without reuse: %s", err.msg);
	g = mlp_graph(_metadata, 1, &m, &code);
	ASSERT_TRUE(g != NULL) TH_LOG("with reuse: %s", err.msg);
	{
		struct ipu_memory_report r;

		ASSERT_CALL(ipu_graph_memory_report(g, &r, &err));
		printf("# mlp step with reuse: %llu bytes (always live %llu, temporaries %llu before reuse),"
		       " peak tile %u: %u of %u\n", (unsigned long long)r.total,
		       (unsigned long long)r.always_live, (unsigned long long)r.temporaries, r.peak_tile,
		       r.tile[r.peak_tile].total, r.tile_memory);
		fflush(stdout);
		ASSERT_TRUE(r.tile[r.peak_tile].total <= r.tile_memory);
		ipu_memory_report_free(&r);
	}
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_tensor_write(d, "x", m.x, sizeof(m.x), &err));
	ASSERT_CALL(ipu_tensor_write(d, "t", m.t, sizeof(m.t), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "w1", w1, sizeof(w1), &err));
	ASSERT_CALL(ipu_tensor_read(d, "w2", w2, sizeof(w2), &err));
	ipu_device_close(d);
	mlp_ref(&m, r1, r2);
	ASSERT_GE(1e-4, max_err(w1, r1, MLP_I * MLP_H, 1.0));
	ASSERT_GE(1e-4, max_err(w2, r2, MLP_H * MLP_O, 1.0));
}

/* the memory_regions section of a written binary: its first record, and the count */
static struct ipu_graph_mem_region *mem_regions(void *bin, uint32_t *count)
{
	struct ipu_graph_header h;

	memcpy(&h, bin, sizeof(h));
	for (uint32_t i = 0; i < h.section_count; i++) {
		struct ipu_graph_section e;

		memcpy(&e, (char *)bin + h.section_table + (uint64_t)i * h.section_entsize, sizeof(e));
		if (e.type == IPU_GRAPH_SEC_MEMORY_REGIONS) {
			*count = e.count;
			return (struct ipu_graph_mem_region *)((char *)bin + e.offset);
		}
	}
	*count = 0;
	return NULL;
}

/* the binary holds the plan: its report says what the graph's said; a corrupt table is refused */
TEST(memory_binary_report_and_corrupt_regions)
{
	struct ipu_graph *g = mem_chain(_metadata, 1);
	struct ipu_memory_report r, b;
	struct ipu_graph_mem_region *mr;
	struct ipu_graph_header h;
	struct ipu_device *d;
	uint32_t n;
	void *bin;
	size_t len;

	ASSERT_TRUE(g != NULL);
	ASSERT_CALL(ipu_graph_memory_report(g, &r, &err));
	ASSERT_CALL(ipu_graph_write(g, &bin, &len, &err));
	ASSERT_CALL(ipu_graph_binary_memory_report(bin, len, &b, &err));
	ASSERT_EQ(r.tiles, b.tiles);
	for (unsigned t = 0; t < r.tiles; t++) {
		ASSERT_EQ((r.tile[t].total + 7u) & ~7u, b.tile[t].total);
		ASSERT_EQ(r.tile[t].always_live, b.tile[t].always_live);
		ASSERT_EQ(r.tile[t].temporaries, b.tile[t].temporaries);
		ASSERT_EQ(r.tile[t].tensor_data, b.tile[t].tensor_data);
		ASSERT_EQ(r.tile[t].vertices, b.tile[t].vertices);
		ASSERT_EQ(r.tile[t].vertex_state, b.tile[t].vertex_state);
	}
	ASSERT_EQ(r.control_program, b.control_program);
	ipu_memory_report_free(&r);
	ipu_memory_report_free(&b);
	/* a region past its tile's plan: refused by the loader and by the report
	 * (patched in the plain form, where the regions are a section of their own) */
	free(bin);
	ASSERT_CALL(ipu__graph_write_form(g, false, &bin, &len, &err));
	mr = mem_regions(bin, &n);
	ASSERT_TRUE(mr && n == 6 * ipu_graph_tiles(g)) TH_LOG("%u regions", n);
	mr[3].tile_offset = 0x7fff0000u;
	memcpy(&h, bin, sizeof(h));
	h.checksum = 0;
	memcpy(bin, &h, sizeof(h));
	h.checksum = ipu_graph_checksum(bin, len);
	memcpy(bin, &h, sizeof(h));
	expect_err(_metadata, ipu_graph_binary_memory_report(bin, len, &b, &err), "outside the tile's plan",
		   "report of a corrupt region");
	ASSERT_CALL(test_model_open("test", 0, &d, &err));
	expect_err(_metadata, ipu_load(d, bin, len, &err), "memory_regions", "load of a corrupt region");
	ipu_device_close(d);
	free(bin);
	ipu_graph_free(g);
}

/* the chain written with a planted plan fault (IPU__MEMPLAN_FAULT_*) */
static void *mem_chain_fault(struct __test_metadata *_metadata, unsigned fault, size_t *len)
{
	struct ipu_graph *g = mem_chain(_metadata, 1);
	void *bin = NULL;

	ipu__memplan_set_fault(g, fault);
	EXPECT_EQ(0, ipu_graph_write(g, &bin, len, &err)) TH_LOG("write: %s", err.msg);
	ipu_graph_free(g);
	return bin;
}

/*
 * Temporaries planted at one offset: t1 (written at step 1, read at 2) and
 * t2 (written at 2) share bytes while both are live. The checking model
 * device refuses the load naming the tile, both regions and the step; the
 * engine without the checker takes it (nothing else looks at the plan).
 */
TEST(memcheck_refuses_live_regions_that_overlap)
{
	struct ipu_device *d;
	size_t len;
	void *bin = mem_chain_fault(_metadata, IPU__MEMPLAN_FAULT_OVERLAP, &len);

	ASSERT_TRUE(bin != NULL);
	ASSERT_CALL(test_model_open("test", 0, &d, &err));
	expect_err(_metadata, ipu_load(d, bin, len, &err), "memory_regions record", "overlapping plan");
	EXPECT_EQ(-EINVAL, ipu_load(d, bin, len, &err));
	EXPECT_NE(NULL, strstr(err.msg, "tile 0: regions ")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "steps [1, 2] and ")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "steps [2, 3] share bytes and are live at step 2")) TH_LOG("%s", err.msg);
	ipu_device_close(d);
	ASSERT_CALL(ipu_model_open("test", 0, &d, &err));
	EXPECT_EQ(0, ipu_load(d, bin, len, &err)) TH_LOG("without the checker: %s", err.msg);
	ipu_device_close(d);
	free(bin);
}

/*
 * Regions written as live at their first step only (the plan is sound, so
 * the results are right): the load passes the static check, and the run
 * fails at step 2, where exp reads t1, naming step, tile, bytes and the
 * region found there; without the checker the same binary runs right.
 */
TEST(memcheck_catches_access_outside_live_regions)
{
	float x[MEM_N], y[MEM_N];
	struct ipu_device *d;
	size_t len;
	void *bin = mem_chain_fault(_metadata, IPU__MEMPLAN_FAULT_SHORTEN, &len);

	ASSERT_TRUE(bin != NULL);
	for (int i = 0; i < MEM_N; i++)
		x[i] = (float)(i % 7) - 3.0f;
	ASSERT_CALL(test_model_open("test", 0, &d, &err));
	ASSERT_CALL(ipu_load(d, bin, len, &err));
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	EXPECT_EQ(-EFAULT, ipu_run(d, 0, 1, NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "memory check: step 2: compute set ")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "in no region live at the step; regions there: ")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "steps [1, 1]")) TH_LOG("%s", err.msg);
	ipu_device_close(d);
	ASSERT_CALL(ipu_model_open("test", 0, &d, &err));
	ASSERT_CALL(ipu_load(d, bin, len, &err));
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y", y, sizeof(y), &err));
	for (int i = 0; i < MEM_N; i++) {
		double want = exp(-(double)x[i]);	/* relu(abs(neg(exp(neg x)))) */

		ASSERT_TRUE(fabs(y[i] - want) <= 1e-5 * want) TH_LOG("y[%d] %g, want %g", i, y[i], want);
	}
	ipu_device_close(d);
	free(bin);
}
