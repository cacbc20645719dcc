/* SPDX-License-Identifier: MIT */
/*
 * When a phase goes to the host thread pool (engine_internal.h,
 * IPUE_POOL_MIN_CYCLES), included by test_engine.c. A compute set of
 * t_cyc vertices (no fields; each costs its parameter in modelled cycles)
 * whose total host weight is just under the threshold stays on the calling
 * thread; one just over it is split into the pool's pieces. The split is
 * what the loader planned (cs->nsplit), read after a load on 2 threads.
 */

#define SP_VERTICES 16u

/* nsplit of the one compute set of a graph of SP_VERTICES t_cyc vertices */
static int small_phase_split(uint32_t cycles_each, uint32_t *nsplit)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 2);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipue_load_error err;
	uint32_t v[SP_VERTICES];
	int rc;

	for (uint32_t i = 0; i < SP_VERTICES; i++)
		v[i] = gw_vertex(w, TC_CYC, i, 0, NULL, 1, &cycles_each);
	gw_entry(w, "main", exec_cs(w, SP_VERTICES, v));
	rc = load(e, w, &err);
	gw_free(w);
	if (!rc)
		*nsplit = e->g->cs[0].nsplit;
	ipue_engine_destroy(e);
	return rc;
}

TEST(small_phase_single_thread)
{
	uint64_t per = IPUE_POOL_MIN_CYCLES / SP_VERTICES;
	uint32_t under = (uint32_t)(per - IPUE_POOL_VERTEX_WEIGHT - 1);
	uint32_t over = (uint32_t)(per - IPUE_POOL_VERTEX_WEIGHT + 1);
	uint32_t nsplit = 99;

	ASSERT_EQ(0, small_phase_split(under, &nsplit));
	EXPECT_EQ(0u, nsplit) TH_LOG("%u x %u cycles split", SP_VERTICES, under);
	ASSERT_EQ(0, small_phase_split(over, &nsplit));
	EXPECT_EQ(2u * IPUE_POOL_PIECES, nsplit) TH_LOG("%u x %u cycles not split", SP_VERTICES, over);
}
