/* SPDX-License-Identifier: MIT */
/*
 * Fused exchange + compute (qemu-device/engine/fuse.c), included by
 * test_engine.c. A ring exchange a(tile t) -> b(tile t+1) followed in a
 * sequence by a compute set: fused when no vertex writes a byte the
 * exchange reads, and then the results, run statistics and modelled cycles
 * equal those of the two phases run one after the other (checked against
 * values computed here, with 1, 2 and 5 host threads). When the compute set
 * also writes a (the exchange's sources), fusing would let tile t's vertices
 * change a(t) before the copy into tile t+1 reads it: the pair must not be
 * fused and b must hold the old a.
 */

#define FT 32		/* tiles of the test model */
#define FN 4096		/* i32 per buffer: 16 KiB per tile, 512 KiB exchanged */

/* a(t) = t * 1000 + i; b(t) of each tile += t + 1 (and a(t) += 7 when @write_a) */
static uint8_t *fused_graph(int write_a, size_t *len)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_copy c[FT];
	uint32_t v[2 * FT], nv = 0, k[2];
	static int32_t init[FN];
	uint8_t *bin;

	ring_buffers(w, FT, FN, c);
	for (uint32_t t = 0; t < FT; t++) {
		for (uint32_t i = 0; i < FN; i++)
			init[i] = (int32_t)(t * 1000 + i);
		gw_init(w, t, 0, FN * 4, init);
		v[nv++] = v_add(w, t, FN * 4, FN, (int32_t)t + 1);
		if (write_a)
			v[nv++] = v_add(w, t, 0, FN, 7);
	}
	k[0] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "ring", FT, c), 0, 0);
	k[1] = exec_cs(w, nv, v);
	gw_entry(w, "main", gw_node(w, IPU_PROG_REPEAT, 3, gw_seq(w, 2, k), 0));
	bin = gw_finish(w, len);
	gw_free(w);
	return bin;
}

/* after 3 runs of (exchange, compute): b(t) = a_before(t-1) + t + 1 */
static int fused_expect(const int32_t *a, const int32_t *b, int write_a, char *msg, size_t n)
{
	for (uint32_t t = 0; t < FT; t++) {
		uint32_t s = (t + FT - 1) % FT;

		for (uint32_t i = 0; i < FN; i++) {
			int32_t wa = (int32_t)(t * 1000 + i) + (write_a ? 3 * 7 : 0);
			int32_t wb = (int32_t)(s * 1000 + i) + (write_a ? 2 * 7 : 0) + (int32_t)t + 1;

			if (a[t * FN + i] != wa || b[t * FN + i] != wb) {
				snprintf(msg, n, "tile %u [%u]: a %d (want %d), b %d (want %d)", t, i,
					 a[t * FN + i], wa, b[t * FN + i], wb);
				return 1;
			}
		}
	}
	return 0;
}

static void fused_case(struct __test_metadata *_metadata, int write_a)
{
	static const unsigned nth[3] = { 1, 2, 5 };
	size_t len, bytes = (size_t)FT * FN * 4;
	uint8_t *bin = fused_graph(write_a, &len);
	int32_t *a = calloc(FT * FN, 4), *b = calloc(FT * FN, 4);
	char msg[160];

	ASSERT_TRUE(bin && a && b) TH_LOG("allocation");
	for (unsigned i = 0; i < 3; i++) {
		struct ipue_engine *e = mk(IPU_MODEL_TEST, nth[i]);
		struct ipue_run_stats st;

		ASSERT_TRUE(e && ipue_load(e, bin, len, NULL) == 0) TH_LOG("load");
		ASSERT_TRUE(e->g->nfused == (write_a ? 0u : 1u)) TH_LOG("%u fused pairs, want %d",
			      e->g->nfused, write_a ? 0 : 1);
		ASSERT_TRUE(run(e, 0, &st) == 0) TH_LOG("run with %u threads", nth[i]);
		ASSERT_TRUE(ipue_tensor_read(e, 0, 0, a, bytes) == 0 &&
			    ipue_tensor_read(e, 1, 0, b, bytes) == 0) TH_LOG("read");
		ASSERT_TRUE(!fused_expect(a, b, write_a, msg, sizeof(msg))) TH_LOG("%u threads: %s",
			      nth[i], msg);
		/* the phases' statistics, fused or not: 1 + 3 * 3 steps, 3 of each phase */
		ASSERT_TRUE(st.steps == 10 && st.exchanges == 3 && st.compute_sets == 3 &&
			    st.syncs == 3 && st.exchange_bytes == 3 * bytes) TH_LOG("stats");
		ASSERT_TRUE(st.cycles_exchange == 3 * ipue_cost_exchange(FN * 4)) TH_LOG("exchange cycles");
		ipue_engine_destroy(e);
	}
	free(bin);
	free(a);
	free(b);
}

TEST(fused_exchange_compute)
{
	fused_case(_metadata, 0);
}

/* the compute set writes the exchange's sources: run as two phases */
TEST(fused_refused_when_sources_written)
{
	fused_case(_metadata, 1);
}

/* a step limit between the exchange and the compute set: the exchange alone */
TEST(fused_step_limit)
{
	size_t len, bytes = (size_t)FT * FN * 4;
	uint8_t *bin = fused_graph(0, &len);
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 2);
	struct ipue_run_opts o = { .program = 0, .step_limit = 3 };
	struct ipue_run_stats st;
	int32_t *b = calloc(FT * FN, 4);

	ASSERT_TRUE(bin && b && e && ipue_load(e, bin, len, NULL) == 0) TH_LOG("load");
	ASSERT_TRUE(e->g->nfused == 1) TH_LOG("not fused");
	/* steps: repeat, sequence, exchange; the compute set is step 4 */
	ASSERT_TRUE(ipue_run(e, &o, &st) == IPUE_ESTEPLIMIT) TH_LOG("step limit not hit");
	ASSERT_TRUE(st.exchanges == 1 && st.compute_sets == 0) TH_LOG("%llu exchanges, %llu compute sets",
		      (unsigned long long)st.exchanges, (unsigned long long)st.compute_sets);
	ASSERT_TRUE(ipue_tensor_read(e, 1, 0, b, bytes) == 0) TH_LOG("read");
	ASSERT_TRUE(b[FN + 5] == 5) TH_LOG("b(1)[5] = %d, want a(0)[5] = 5 uncomputed", b[FN + 5]);
	ipue_engine_destroy(e);
	free(bin);
	free(b);
}
