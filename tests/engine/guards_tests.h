/* SPDX-License-Identifier: MIT */
/*
 * Input guards at run time (docs/graph-format.md "Input guards") and
 * commit-at-load. Included by test_engine.c (its mk, gw, rd32/wr32, run).
 */

/*
 * x (h0) and y (h1), 16 i32 each on tile 0, host read/write; stream "in".
 * 0 "use": x += 1 (reads and writes x); 1 "feed": x from "in";
 * 2 "sety": y = x (copy); 3 "usey": y += 1. Guards as a builder would write.
 */
static uint8_t *guards_graph(size_t *len)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_copy c = { .src_tile = 0, .src_offset = 0, .dst_tile = 0,
				    .dst_offset = 64, .bytes = 64 };
	uint32_t x, y, in, v;
	uint8_t *bin;

	gw_plan(w, 0, 128);
	x = gw_tensor1(w, "x", I32, 16, 0, 0);
	y = gw_tensor1(w, "y", I32, 16, 0, 64);
	gw_handle(w, "x", x, IPU_HANDLE_READ | IPU_HANDLE_WRITE);
	gw_handle(w, "y", y, IPU_HANDLE_READ | IPU_HANDLE_WRITE);
	in = gw_stream(w, "in", IPU_STREAM_HOST_TO_DEVICE, I32, 1, 16);
	v = v_add(w, 0, 0, 16, 1);
	gw_entry(w, "use", exec_cs(w, 1, &v));
	gw_entry(w, "feed", gw_node(w, IPU_PROG_STREAM_COPY, in, x, IPU_STREAM_HOST_TO_DEVICE));
	gw_entry(w, "sety", gw_node(w, IPU_PROG_COPY, gw_exchange(w, "x->y", 1, &c), 0, 0));
	v = v_add(w, 0, 64, 16, 1);
	gw_entry(w, "usey", exec_cs(w, 1, &v));
	gw_guard(w, 0, 0, IPU_GRAPH_GUARD_READS | IPU_GRAPH_GUARD_WRITES);
	gw_guard(w, 1, 0, IPU_GRAPH_GUARD_WRITES);
	gw_guard(w, 2, 0, IPU_GRAPH_GUARD_READS);
	gw_guard(w, 2, 1, IPU_GRAPH_GUARD_WRITES);
	gw_guard(w, 3, 1, IPU_GRAPH_GUARD_READS | IPU_GRAPH_GUARD_WRITES);
	bin = gw_finish(w, len);
	gw_free(w);
	return bin;
}

static int g_fetch(void *user, unsigned s, void *dst, size_t len)
{
	(void)user;
	(void)s;
	for (size_t i = 0; i < len / 4; i++)
		((int32_t *)dst)[i] = 7;
	return 0;
}

TEST(guards_refuse_unwritten)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct ipue_stream_callbacks cb = { g_fetch, NULL, NULL };
	struct ipue_run_stats st;
	size_t len;
	uint8_t *bin = guards_graph(&len);
	uint32_t h = 99;
	int32_t v = -1;

	ASSERT_EQ(0, ipue_load(e, bin, len, NULL));
	/* refused before anything runs, naming handle 0 */
	ASSERT_EQ(IPUE_EUNWRITTEN, run(e, 0, &st));
	EXPECT_EQ(0u, st.steps);
	EXPECT_EQ(1, ipue_unwritten_status(e, &h));
	EXPECT_EQ(0u, h);
	EXPECT_TRUE(strstr(ipue_strerror(IPUE_EUNWRITTEN), "never written") != NULL);
	/* a host write counts; the status clears with the next run */
	ASSERT_EQ(0, wr32(e, "x", 3, 5));
	ASSERT_EQ(0, run(e, 0, NULL));
	EXPECT_EQ(0, ipue_unwritten_status(e, NULL));
	ASSERT_EQ(0, rd32(e, "x", 3, &v));
	EXPECT_EQ(6, v);
	/* y: refused until a program that writes it whole ran */
	ASSERT_EQ(IPUE_EUNWRITTEN, run(e, 3, NULL));
	EXPECT_EQ(1, ipue_unwritten_status(e, &h));
	EXPECT_EQ(1u, h);
	ASSERT_EQ(0, run(e, 2, NULL));
	ASSERT_EQ(0, run(e, 3, NULL));
	ASSERT_EQ(0, rd32(e, "y", 3, &v));
	EXPECT_EQ(7, v);
	/* a new load forgets; a stream copy counts as written */
	ASSERT_EQ(0, ipue_load(e, bin, len, NULL));
	ASSERT_EQ(IPUE_EUNWRITTEN, run(e, 0, NULL));
	ASSERT_EQ(IPUE_ESTREAM, run(e, 1, NULL));	/* not connected: x stays unwritten */
	ASSERT_EQ(IPUE_EUNWRITTEN, run(e, 0, NULL));
	ASSERT_EQ(0, ipue_stream_connect(e, 0, &cb));
	ASSERT_EQ(0, run(e, 1, NULL));
	ASSERT_EQ(0, run(e, 0, NULL));
	ASSERT_EQ(0, rd32(e, "x", 0, &v));
	EXPECT_EQ(8, v);
	free(bin);
	ipue_engine_destroy(e);
}

/* 4 tiles of 48 KiB planned, one small tensor written by the host */
static uint8_t *commit_graph(size_t *len)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	uint32_t v;
	uint8_t *bin;

	for (uint32_t t = 0; t < 4; t++)
		gw_plan(w, t, 48 * 1024);
	gw_handle(w, "x", gw_tensor1(w, "x", I32, 16, 0, 0), IPU_HANDLE_READ | IPU_HANDLE_WRITE);
	v = v_add(w, 0, 0, 16, 1);
	gw_entry(w, "use", exec_cs(w, 1, &v));
	bin = gw_finish(w, len);
	gw_free(w);
	return bin;
}

TEST(commit_at_load)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct ipue_mem_stats lazy, eager;
	size_t len;
	uint8_t *bin = commit_graph(&len);
	int32_t v = 0;

	ASSERT_EQ(IPUE_EINVAL, ipue_load_ex(e, bin, len, 0x80, NULL));
	ASSERT_EQ(0, ipue_load_ex(e, bin, len, 0, NULL));
	ipue_mem_stats(e, &lazy);
	ASSERT_EQ(0, ipue_load_ex(e, bin, len, IPUE_LOAD_COMMIT, NULL));
	ipue_mem_stats(e, &eager);
	/* everything planned is resident at once; lazily, nothing was touched */
	EXPECT_EQ(4u * 48 * 1024, eager.tile_bytes_planned);
	EXPECT_LE(eager.tile_bytes_planned, eager.tile_bytes_resident);
	EXPECT_EQ(eager.tile_bytes_reserved, eager.tile_bytes_resident);
	EXPECT_LT(lazy.tile_bytes_resident, eager.tile_bytes_resident);
	/* and the graph runs the same: zeros + 1 */
	ASSERT_EQ(0, run(e, 0, NULL));
	ASSERT_EQ(0, rd32(e, "x", 15, &v));
	EXPECT_EQ(1, v);
	free(bin);
	ipue_engine_destroy(e);
}
