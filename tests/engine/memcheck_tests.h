/* SPDX-License-Identifier: MIT */
/*
 * The memory-plan checker (IPUE_CONFIG_MEMCHECK, memcheck.c) on hand-made
 * binaries: overlapping live regions refused at load; each access of a run
 * checked at the step the builder's linearisation gives it (included by
 * test_engine.c).
 */

static struct ipue_engine *mk_checked(void)
{
	struct ipue_config cfg = { .model = IPU_MODEL_TEST, .host_threads = 1,
				   .flags = IPUE_CONFIG_MEMCHECK };
	struct ipue_engine *e = NULL;

	if (ipue_engine_create(&cfg, &e))
		return NULL;
	ipue_set_codelet_lookup(e, tc_lookup);
	return e;
}

static void regions(struct gw *w, uint32_t n, const struct ipu_graph_mem_region *mr)
{
	gw_raw_section(w, IPU_GRAPH_SEC_MEMORY_REGIONS, 0, sizeof(*mr), mr, n * sizeof(*mr));
}

#define AL IPU_GRAPH_REGION_ALWAYS_LIVE

/* a tile of 256 bytes, no program but an empty sequence, and regions mr[0..n) */
static int load_regions(struct ipue_engine *e, uint32_t n, const struct ipu_graph_mem_region *mr,
			struct ipue_load_error *err)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	int rc;

	gw_plan(w, 0, 256);
	gw_entry(w, "main", gw_seq(w, 0, NULL));
	regions(w, n, mr);
	rc = load(e, w, err);
	gw_free(w);
	return rc;
}

TEST(memcheck_static)
{
	static const struct ipu_graph_mem_region live[2] = { { 0, 0, 64, 0, 1, 2 }, { 0, 32, 64, 0, 2, 3 } };
	static const struct ipu_graph_mem_region ok[4] = {
		{ 0, 0, 64, 0, 1, 2 }, { 0, 32, 64, 0, 3, 4 },	/* reused after the first died */
		{ 0, 96, 64, AL, 0, 0 }, { 0, 160, 0, 0, 1, 9 },	/* an empty one shares nothing */
	};
	static const struct ipu_graph_mem_region always[2] = { { 0, 64, 64, AL, 0, 0 }, { 0, 0, 72, 0, 7, 7 } };
	struct ipue_engine *e = mk_checked(), *plain = mk(IPU_MODEL_TEST, 1);
	struct ipue_load_error le;

	ASSERT_TRUE(e && plain) TH_LOG("create");
	ASSERT_EQ(IPUE_EMEMPLAN, load_regions(e, 2, live, &le));
	EXPECT_EQ(IPUE_EMEMPLAN, le.status);
	EXPECT_STREQ("memory_regions", le.section_name);
	EXPECT_EQ(1u, le.record);
	EXPECT_STREQ("tile 0: regions 0 [0, +64) steps [1, 2] and 1 [32, +64) steps [2, 3] share bytes "
		     "and are live at step 2", le.message);
	EXPECT_EQ(0, ipue_loaded(e));
	ASSERT_EQ(IPUE_EMEMPLAN, load_regions(e, 2, always, &le));
	EXPECT_STREQ("tile 0: regions 1 [0, +72) steps [7, 7] and 0 [64, +64) always live share bytes "
		     "and are live at step 7", le.message);
	EXPECT_EQ(0, load_regions(e, 4, ok, &le)) TH_LOG("%s", le.message);
	/* without the checker the plan is only validated */
	EXPECT_EQ(0, load_regions(plain, 2, live, &le)) TH_LOG("%s", le.message);
	ipue_engine_destroy(e);
	ipue_engine_destroy(plain);
}

/*
 * Entry 0: A; Repeat 2 { B; copy }; If f { C } else { D }; RepeatWhileTrue
 * (cond E) { F }; entry 1: G. The builder's steps: A 1, B 2, copy 3, C 4,
 * D 5, E 6, F 7, G 8. Region k holds access k's 4 bytes, live at its step.
 */
enum { MC_A, MC_B, MC_SRC, MC_DST, MC_C, MC_D, MC_E, MC_F, MC_G, MC_N };
static const uint32_t mc_step[MC_N] = { 1, 2, 3, 3, 4, 5, 6, 7, 8 };
static const uint32_t mc_off[MC_N] = { 0, 4, 8, 0, 12, 16, 20, 24, 28 };	/* MC_DST on tile 1 */

/* the program above, region @moved live at the step after its own (none: MC_N) */
static int load_steps(struct ipue_engine *e, unsigned moved)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_mem_region mr[MC_N + 2];
	struct ipu_graph_copy cp = { .src_tile = 0, .src_offset = 8, .dst_tile = 1, .dst_offset = 0, .bytes = 4 };
	uint32_t v[MC_N], k[4], body[2], cond;
	int rc;

	gw_plan(w, 0, 64);
	gw_plan(w, 1, 64);
	gw_handle(w, "f", gw_tensor1(w, "f", I32, 1, 0, 32), RW);
	gw_handle(w, "c", gw_tensor1(w, "c", I32, 1, 0, 36), RW);
	for (unsigned i = 0; i < MC_N; i++) {
		uint32_t s = mc_step[i] + (i == moved);

		mr[i] = (struct ipu_graph_mem_region){ i == MC_DST, mc_off[i], 4, 0, s, s };
		if (i != MC_SRC && i != MC_DST)
			v[i] = v_add(w, 0, mc_off[i], 1, 1);
	}
	mr[MC_N] = (struct ipu_graph_mem_region){ 0, 32, 8, AL, 0, 0 };	/* f and c */
	mr[MC_N + 1] = (struct ipu_graph_mem_region){ 1, 8, 4, 0, 1, 1 };	/* a bystander */
	body[0] = exec_cs(w, 1, &v[MC_B]);
	body[1] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "x", 1, &cp), 0, 0);
	k[0] = exec_cs(w, 1, &v[MC_A]);
	k[1] = gw_node(w, IPU_PROG_REPEAT, 2, gw_seq(w, 2, body), 0);
	k[2] = gw_node(w, IPU_PROG_IF, 0, exec_cs(w, 1, &v[MC_C]), exec_cs(w, 1, &v[MC_D]));
	cond = exec_cs(w, 1, &v[MC_E]);
	k[3] = gw_node(w, IPU_PROG_REPEAT_WHILE_TRUE, 1, exec_cs(w, 1, &v[MC_F]), cond);
	gw_entry(w, "main", gw_seq(w, 4, k));
	gw_entry(w, "g", exec_cs(w, 1, &v[MC_G]));
	regions(w, MC_N + 2, mr);
	rc = load(e, w, NULL);
	gw_free(w);
	return rc;
}

TEST(memcheck_steps)
{
	struct ipue_engine *e = mk_checked();
	int32_t x;

	ASSERT_TRUE(e != NULL);
	ASSERT_EQ(0, load_steps(e, MC_N));
	ASSERT_EQ(0, wr32(e, "f", 0, 0));
	ASSERT_EQ(0, wr32(e, "c", 0, 0));	/* the loop runs E, then ends: F never runs */
	ASSERT_EQ(0, run(e, 0, NULL)) TH_LOG("%s", ipue_memcheck_message(e));
	ASSERT_EQ(0, run(e, 1, NULL)) TH_LOG("%s", ipue_memcheck_message(e));
	EXPECT_EQ(NULL, ipue_memcheck_message(e));
	ASSERT_TRUE(rd32(e, "f", 0, &x) == 0 && x == 0) TH_LOG("f %d", x);
	for (unsigned m = 0; m < MC_N; m++) {
		int ran = m != MC_C && m != MC_F;	/* the branch and body not taken */
		char want[200];
		int rc;

		ASSERT_EQ(0, load_steps(e, m));
		ASSERT_EQ(0, wr32(e, "f", 0, 0));
		ASSERT_EQ(0, wr32(e, "c", 0, 0));
		rc = run(e, m == MC_G, NULL);
		if (!ran) {
			EXPECT_EQ(0, rc) TH_LOG("region %u: %s", m, ipue_memcheck_message(e));
			continue;
		}
		ASSERT_EQ(IPUE_EMEMACCESS, rc) TH_LOG("region %u moved: accepted", m);
		snprintf(want, sizeof(want), "step %u: ", mc_step[m]);
		EXPECT_EQ(ipue_memcheck_message(e), strstr(ipue_memcheck_message(e), want))
			TH_LOG("region %u: '%s' does not start with '%s'", m, ipue_memcheck_message(e), want);
		snprintf(want, sizeof(want), "%s: tile %u bytes [%u, %u): bytes below %u are in no region "
			 "live at the step; regions there: %u [%u, +4) steps [%u, %u]",
			 m == MC_SRC ? "copy 0 source" : m == MC_DST ? "copy 0 destination" : "vertex 0 field 0",
			 m == MC_DST, mc_off[m], mc_off[m] + 4, mc_off[m] + 4, m, mc_off[m], mc_step[m] + 1,
			 mc_step[m] + 1);
		EXPECT_NE(NULL, strstr(ipue_memcheck_message(e), want))
			TH_LOG("region %u: '%s' lacks '%s'", m, ipue_memcheck_message(e), want);
	}
	ipue_engine_destroy(e);
}
