/* SPDX-License-Identifier: MIT */
/*
 * Multi-IPU graphs (docs/graph-format.md "Multi-IPU binaries") on groups of
 * engines joined by the in-process fabric (fabric_local.h): cross-IPU
 * copies, external syncs, conditions, the link cost model, links down
 * before and during a run, cancel, a failing member, and the loader's
 * refusals. Included by test_engine.c (its mk, gw, run helpers).
 */
#include <sched.h>

#include "fabric_local.h"

#define MT 32u		/* tiles per IPU of the test chip */

/* a group of n engines at fabric indices 0..n-1 of fabric f */
struct grp {
	struct ipue_fabric_local *f;
	struct ipue_engine *e[16];
	uint32_t n;
	/* the last grp_run() */
	int rc[16];
	struct ipue_run_stats st[16];
	struct ipue_run_opts o[16];
};

static int grp_open(struct grp *g, const char *topo, uint32_t fabric_ipus, uint32_t n)
{
	int rc;

	memset(g, 0, sizeof(*g));
	rc = ipue_fabric_local_create(topo, fabric_ipus, 4, &g->f);
	for (uint32_t k = 0; !rc && k < n; k++) {
		g->e[k] = mk(IPU_MODEL_TEST, 1);
		rc = g->e[k] ? ipue_fabric_local_join(g->f, (1ull << n) - 1, k, g->e[k]) : IPUE_ENOMEM;
		g->n = k + 1;
	}
	return rc;
}

static void grp_close(struct grp *g)
{
	for (uint32_t k = 0; k < g->n; k++) {
		ipue_fabric_local_leave(g->f, k);
		ipue_engine_destroy(g->e[k]);
	}
	ipue_fabric_local_destroy(g->f);
}

/* every member loads bin; returns member 0's status, or 99 when the members disagree */
static int grp_load(struct grp *g, const uint8_t *bin, size_t len, struct ipue_load_error *err)
{
	int rc0 = 0;

	for (uint32_t k = 0; k < g->n; k++) {
		struct ipue_load_error e2;
		int rc = ipue_load(g->e[k], bin, len, k ? &e2 : err);

		if (!k)
			rc0 = rc;
		else if (rc != rc0 || (err && rc && strcmp(e2.message, err->message)))
			return 99;
	}
	return rc0;
}

struct member_run {
	struct grp *g;
	uint32_t k;
};

static void *member_main(void *arg)
{
	struct member_run *m = arg;

	m->g->rc[m->k] = ipue_run(m->g->e[m->k], &m->g->o[m->k], &m->g->st[m->k]);
	return NULL;
}

/* start every member's run of program prog on its own thread (o[] may be set before) */
static void grp_start(struct grp *g, uint32_t prog, pthread_t *th, struct member_run *m)
{
	for (uint32_t k = 0; k < g->n; k++) {
		g->o[k].program = prog;
		m[k] = (struct member_run){ g, k };
		pthread_create(&th[k], NULL, member_main, &m[k]);
	}
}

static void grp_join(struct grp *g, pthread_t *th)
{
	for (uint32_t k = 0; k < g->n; k++)
		pthread_join(th[k], NULL);
}

static void grp_run(struct grp *g, uint32_t prog)
{
	pthread_t th[16];
	struct member_run m[16];

	grp_start(g, prog, th, m);
	grp_join(g, th);
	memset(g->o, 0, sizeof(g->o));
}

/* every member ended with rc and reports member 0's cycles */
static int grp_all(const struct grp *g, int rc)
{
	for (uint32_t k = 0; k < g->n; k++)
		if (g->rc[k] != rc || g->st[k].cycles != g->st[0].cycles)
			return 0;
	return 1;
}

static uint8_t *finish(struct gw *w, size_t *len)
{
	uint8_t *bin = gw_finish(w, len);

	gw_free(w);
	return bin;
}

/*
 * n IPUs: x_k, y_k (16 i32 each) on tile 0 of IPU k, at 0 and 64. Program 0:
 * x_k += 1 on every IPU; copy x_k to y_(k+1 mod n) (across the links);
 * y_k += 10. Program 1: the same copy alone. Handles "x0".. and "y0"...
 */
static uint8_t *pipe_graph(uint32_t n, size_t *len)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	uint32_t vx[16], vy[16], k3[3];
	struct ipu_graph_copy c[16];
	char name[16];

	gw_ipus(w, n);
	for (uint32_t k = 0; k < n; k++) {
		gw_plan(w, k * MT, 128);
		snprintf(name, sizeof(name), "x%u", k);
		gw_handle(w, name, gw_tensor1(w, name, I32, 16, k * MT, 0), RW);
		snprintf(name, sizeof(name), "y%u", k);
		gw_handle(w, name, gw_tensor1(w, name, I32, 16, k * MT, 64), RW);
		vx[k] = v_add(w, k * MT, 0, 16, 1);
		vy[k] = v_add(w, k * MT, 64, 16, 10);
		c[k] = (struct ipu_graph_copy){ .src_tile = k * MT, .src_offset = 0,
						.dst_tile = (k + 1) % n * MT, .dst_offset = 64,
						.bytes = 64 };
	}
	k3[0] = exec_cs(w, n, vx);
	k3[1] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "ring", n, c), 0, 0);
	k3[2] = exec_cs(w, n, vy);
	gw_entry(w, "pipe", gw_seq(w, 3, k3));
	gw_entry(w, "copy", k3[1]);
	return finish(w, len);
}

/* host writes x_k[i] = 100 k + i through every member (each takes its bytes) */
static int pipe_fill(struct grp *g)
{
	char name[16];
	int32_t v[16];

	for (uint32_t k = 0; k < g->n; k++) {
		snprintf(name, sizeof(name), "x%u", k);
		for (int i = 0; i < 16; i++)
			v[i] = (int32_t)(100 * k) + i;
		for (uint32_t m = 0; m < g->n; m++) {
			int h = ipue_handle_find(g->e[m], name);

			if (h < 0 || ipue_tensor_write(g->e[m], (unsigned)h, 0, v, sizeof(v)))
				return -1;
			if (ipue_tensor_write(g->e[m], (unsigned)h + 1, 0, v, sizeof(v)))
				return -1;	/* y_k too: written (guards), overwritten by the copy */
		}
	}
	return 0;
}

/*
 * y_k read through member m into a buffer of -1s: member k gives
 * x_(k-1) + 11, every other member leaves the -1s. Returns 0 if so.
 */
static int pipe_check(struct grp *g, uint32_t n, char *why, size_t wn)
{
	char name[16];
	int32_t v[16];

	for (uint32_t k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "y%u", k);
		for (uint32_t m = 0; m < n; m++) {
			int h = ipue_handle_find(g->e[m], name);

			memset(v, 0xff, sizeof(v));
			if (h < 0 || ipue_tensor_read(g->e[m], (unsigned)h, 0, v, sizeof(v))) {
				snprintf(why, wn, "read %s on member %u", name, m);
				return -1;
			}
			for (int i = 0; i < 16; i++) {
				int32_t want = m == k ? (int32_t)(100 * ((k + n - 1) % n)) + i + 11 : -1;

				if (v[i] != want) {
					snprintf(why, wn, "%s[%d] through member %u = %d, want %d",
						 name, i, m, v[i], want);
					return -1;
				}
			}
		}
	}
	return 0;
}

/*
 * 2 IPUs over a ring of 2 (two links join them): the bytes cross, every
 * member reports the documented cycles: 2 compute sets of 26, 2 syncs of
 * 500 and the external sync of the cross exchange (1300), and the
 * exchange 30 + 64 / 4 + one hop (400) + 64 bytes over 2 links at 24.1
 * B/cycle (2).
 */
TEST(multi_pipe_2ipu)
{
	struct grp g;
	struct ipue_load_error err;
	size_t len;
	uint8_t *bin = pipe_graph(2, &len);
	uint32_t member;
	char why[160] = "";

	ASSERT_EQ(0, grp_open(&g, "ring", 2, 2));
	ASSERT_TRUE(grp_load(&g, bin, len, &err) == 0) TH_LOG("load: %s", err.message);
	ASSERT_TRUE(ipue_graph_ipus(g.e[1], &member) == 2 && member == 1) TH_LOG("ipus/member");
	ASSERT_EQ(0, pipe_fill(&g));
	grp_run(&g, 0);
	ASSERT_TRUE(grp_all(&g, 0)) TH_LOG("rc %s / %s, cycles %llu / %llu", ipue_strerror(g.rc[0]),
	      ipue_strerror(g.rc[1]), (unsigned long long)g.st[0].cycles,
	      (unsigned long long)g.st[1].cycles);
	ASSERT_TRUE(pipe_check(&g, 2, why, sizeof(why)) == 0) TH_LOG("%s", why);
	for (uint32_t k = 0; k < 2; k++) {
		EXPECT_EQ(52u, g.st[k].cycles_compute);
		EXPECT_EQ(1000u + 1300u, g.st[k].cycles_sync);
		EXPECT_EQ(30u + 16u + 400u + 2u, g.st[k].cycles_exchange);
		EXPECT_EQ(52u + 2300u + 448u, g.st[k].cycles);
		EXPECT_EQ(3u, g.st[k].syncs);
	}
	free(bin);
	grp_close(&g);
}

/*
 * The M2000 (4 IPUs, ladder): x_k to y_(k+1). Routes (fewest hops, lower
 * member first): 0-1 and 2-3 the rungs; 1 to 2 via 0, 3 to 0 via 1: two
 * hops (800); the busiest hop direction, 1 -> 0, carries 128 bytes over
 * the rung's 2 links (3 cycles), as do 0 -> 2 and 3 -> 1 with 64 bytes
 * over one link.
 */
TEST(multi_pipe_m2000)
{
	struct grp g;
	struct ipue_load_error err;
	size_t len;
	uint8_t *bin = pipe_graph(4, &len);
	char why[160] = "";

	ASSERT_EQ(0, grp_open(&g, "m2000", 4, 4));
	ASSERT_TRUE(grp_load(&g, bin, len, &err) == 0) TH_LOG("load: %s", err.message);
	ASSERT_EQ(0, pipe_fill(&g));
	grp_run(&g, 0);
	ASSERT_TRUE(grp_all(&g, 0)) TH_LOG("rc %s, cycles differ or fail", ipue_strerror(g.rc[0]));
	ASSERT_TRUE(pipe_check(&g, 4, why, sizeof(why)) == 0) TH_LOG("%s", why);
	for (uint32_t k = 0; k < 4; k++)
		EXPECT_EQ(30u + 16u + 800u + 3u, g.st[k].cycles_exchange);
	EXPECT_EQ(52u + 2300u + 849u, g.st[3].cycles);
	/* again: runs of a group follow each other */
	ASSERT_EQ(0, pipe_fill(&g));
	grp_run(&g, 0);
	ASSERT_TRUE(grp_all(&g, 0) && pipe_check(&g, 4, why, sizeof(why)) == 0) TH_LOG("second run: %s", why);
	free(bin);
	grp_close(&g);
}

/* docs/cost-model.md's example: a ring of 4, 4096 bytes from IPU 0 to IPU 2: 2024 cycles */
TEST(multi_link_cost_example)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_copy c = { .src_tile = 5, .dst_tile = 2 * MT + 7, .bytes = 4096 };
	struct grp g;
	size_t len;
	uint8_t *bin;

	gw_ipus(w, 4);
	gw_plan(w, 5, 4096);
	gw_plan(w, 2 * MT + 7, 4096);
	gw_entry(w, "x", gw_node(w, IPU_PROG_COPY, gw_exchange(w, "x", 1, &c), 0, 0));
	bin = finish(w, &len);
	ASSERT_EQ(0, grp_open(&g, "ring", 4, 4));
	ASSERT_EQ(0, grp_load(&g, bin, len, NULL));
	grp_run(&g, 0);
	ASSERT_TRUE(grp_all(&g, 0)) TH_LOG("rc %s", ipue_strerror(g.rc[0]));
	for (uint32_t k = 0; k < 4; k++) {
		EXPECT_EQ(1054u + 800u + 170u, g.st[k].cycles_exchange);
		EXPECT_EQ(1300u, g.st[k].cycles_sync);
		EXPECT_EQ(4096u, g.st[k].exchange_bytes);
	}
	free(bin);
	grp_close(&g);
}

/*
 * Sync 1 is an external sync (1300 cycles, a barrier) in a multi-IPU
 * graph; Sync 0 internal (500). A single-IPU graph's Sync 1 stays 500.
 */
TEST(multi_external_sync)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct ipue_run_stats st;
	uint32_t k2[2];
	struct grp g;
	size_t len;
	uint8_t *bin;

	k2[0] = gw_node(w, IPU_PROG_SYNC, IPU_SYNC_EXTERNAL, 0, 0);
	k2[1] = gw_node(w, IPU_PROG_SYNC, IPU_SYNC_INTERNAL, 0, 0);
	gw_entry(w, "s", gw_seq(w, 2, k2));
	ASSERT_EQ(0, load(e, w, NULL));
	ASSERT_EQ(0, run(e, 0, &st));
	EXPECT_EQ(1000u, st.cycles_sync);	/* single IPU: as in 1.1 */
	gw_ipus(w, 2);
	bin = finish(w, &len);
	ASSERT_EQ(0, grp_open(&g, "ring", 2, 2));
	ASSERT_EQ(0, grp_load(&g, bin, len, NULL));
	grp_run(&g, 0);
	ASSERT_TRUE(grp_all(&g, 0)) TH_LOG("rc %s", ipue_strerror(g.rc[0]));
	EXPECT_TRUE(g.st[0].cycles_sync == 1800 && g.st[1].syncs == 2) TH_LOG("sync %llu",
		    (unsigned long long)g.st[0].cycles_sync);
	free(bin);
	grp_close(&g);
	ipue_engine_destroy(e);
}

/*
 * Conditions read the holder's scalar on every member: c (on IPU 1) = 3;
 * while c: c -= 1 (IPU 1), x += 1 (IPU 0): x gains 3. Then an
 * AbortOnCondition on IPU 1's scalar a ends every member alike.
 */
TEST(multi_conditions)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct grp g;
	uint32_t v[2], cnt, a, member, code;
	int32_t three = 3, x = -1;
	size_t len;
	uint8_t *bin;

	gw_ipus(w, 2);
	gw_plan(w, 0, 64);
	gw_plan(w, MT + 3, 64);
	gw_handle(w, "x", gw_tensor1(w, "x", I32, 1, 0, 0), RW);
	cnt = gw_tensor1(w, "c", I32, 1, MT + 3, 0);
	a = gw_tensor1(w, "a", I32, 1, MT + 3, 4);
	gw_handle(w, "a", a, RW);
	gw_init(w, MT + 3, 0, 4, &three);
	v[0] = v_add(w, MT + 3, 0, 1, -1);
	v[1] = v_add(w, 0, 0, 1, 1);
	gw_entry(w, "loop", gw_node(w, IPU_PROG_REPEAT_WHILE_TRUE, cnt, exec_cs(w, 2, v), NONE));
	gw_entry(w, "abort", gw_node(w, IPU_PROG_ABORT_ON_CONDITION, a, 77, 0));
	bin = finish(w, &len);
	ASSERT_EQ(0, grp_open(&g, "ring", 2, 2));
	ASSERT_EQ(0, grp_load(&g, bin, len, NULL));
	for (uint32_t k = 0; k < 2; k++) {
		ASSERT_EQ(0, wr32(g.e[k], "x", 0, 10));
		ASSERT_EQ(0, wr32(g.e[k], "a", 0, 0));
	}
	grp_run(&g, 0);
	ASSERT_TRUE(grp_all(&g, 0)) TH_LOG("rc %s", ipue_strerror(g.rc[0]));
	ASSERT_TRUE(rd32(g.e[0], "x", 0, &x) == 0 && x == 13) TH_LOG("x = %d, want 13", x);
	/* 4 tests of c, each an external sync; 3 compute sets */
	EXPECT_EQ(4u * 1300u + 3u * 500u, g.st[1].cycles_sync);
	grp_run(&g, 1);
	ASSERT_TRUE(grp_all(&g, 0)) TH_LOG("a = 0 must not abort: %s", ipue_strerror(g.rc[0]));
	for (uint32_t k = 0; k < 2; k++)
		ASSERT_EQ(0, wr32(g.e[k], "a", 0, 1));
	grp_run(&g, 1);
	ASSERT_TRUE(grp_all(&g, IPUE_EABORT)) TH_LOG("rc %s / %s", ipue_strerror(g.rc[0]),
	      ipue_strerror(g.rc[1]));
	for (uint32_t k = 0; k < 2; k++)
		EXPECT_TRUE(ipue_abort_status(g.e[k], &code, &member) == 1 && code == 77);
	free(bin);
	grp_close(&g);
}

/*
 * An endless loop whose body is a cross-IPU exchange (IPU 0 -> 1); entry
 * 1 is the same exchange once.
 */
static uint8_t *endless_cross(uint32_t n, size_t *len)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_copy c = { .src_tile = 0, .src_offset = 64, .dst_tile = MT, .bytes = 64 };
	int32_t one = 1;
	uint32_t t, x;

	gw_ipus(w, n);
	gw_plan(w, 0, 128);
	gw_plan(w, MT, 64);
	t = gw_tensor1(w, "t", I32, 1, 0, 0);
	gw_handle(w, "t", t, RW);
	gw_init(w, 0, 0, 4, &one);
	x = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "x", 1, &c), 0, 0);
	gw_entry(w, "endless", gw_node(w, IPU_PROG_REPEAT_WHILE_TRUE, t, x, NONE));
	gw_entry(w, "once", x);
	return finish(w, len);
}

/* a link the program needs, down before the run: IPUE_ELINK naming it, on every member */
TEST(multi_link_down_before)
{
	struct grp g;
	size_t len;
	uint8_t *bin = pipe_graph(4, &len);
	uint32_t link = 0;

	ASSERT_EQ(0, grp_open(&g, "m2000", 4, 4));
	ASSERT_EQ(0, grp_load(&g, bin, len, NULL));
	ASSERT_EQ(0, pipe_fill(&g));
	ASSERT_EQ(0, ipue_fabric_local_set_link(g.f, 0, 0, 0));
	ASSERT_EQ(0, ipue_fabric_local_link_up(g.f, 1, 0));	/* both ends */
	grp_run(&g, 0);
	ASSERT_TRUE(grp_all(&g, IPUE_ELINK)) TH_LOG("rc %s %s %s %s", ipue_strerror(g.rc[0]),
	      ipue_strerror(g.rc[1]), ipue_strerror(g.rc[2]), ipue_strerror(g.rc[3]));
	for (uint32_t k = 0; k < 4; k++) {
		EXPECT_TRUE(ipue_link_status(g.e[k], &link) == 1 && link == IPUE_LINK_ID(0, 0))
			TH_LOG("member %u: link 0x%x", k, link);
		EXPECT_EQ(0u, g.st[k].compute_sets);	/* nothing ran */
	}
	ASSERT_EQ(0, ipue_fabric_local_set_link(g.f, 1, 0, 1));
	grp_run(&g, 0);
	ASSERT_TRUE(grp_all(&g, 0)) TH_LOG("link up again: %s", ipue_strerror(g.rc[0]));
	EXPECT_EQ(0, ipue_link_status(g.e[0], &link));
	free(bin);
	grp_close(&g);
}

/* a link going down during an endless run ends every member's run with IPUE_ELINK */
TEST(multi_link_down_during)
{
	struct grp g;
	size_t len;
	uint8_t *bin = endless_cross(2, &len);
	pthread_t th[16];
	struct member_run m[16];
	uint32_t link = 0;

	ASSERT_EQ(0, grp_open(&g, "m2000", 4, 2));
	ASSERT_EQ(0, grp_load(&g, bin, len, NULL));
	grp_start(&g, 0, th, m);
	/* wait until both members run (their tensors are busy), not for a time */
	for (uint32_t k = 0; k < 2; k++) {
		int32_t t;

		while (rd32(g.e[k], "t", 0, &t) != IPUE_EBUSY)
			sched_yield();
	}
	ASSERT_EQ(0, ipue_fabric_local_set_link(g.f, 0, 1, 0));
	grp_join(&g, th);
	for (uint32_t k = 0; k < 2; k++) {
		EXPECT_EQ(IPUE_ELINK, g.rc[k]);
		EXPECT_TRUE(ipue_link_status(g.e[k], &link) == 1 && link == IPUE_LINK_ID(0, 1))
			TH_LOG("member %u: link 0x%x", k, link);
	}
	ASSERT_EQ(0, ipue_fabric_local_set_link(g.f, 0, 1, 1));
	grp_run(&g, 1);
	ASSERT_TRUE(grp_all(&g, 0)) TH_LOG("after the link is back: %s", ipue_strerror(g.rc[0]));
	free(bin);
	grp_close(&g);
}

/* ipue_cancel() on one member ends every member's run; no member is left waiting */
TEST(multi_cancel)
{
	struct grp g;
	size_t len;
	uint8_t *bin = endless_cross(4, &len);
	pthread_t th[16];
	struct member_run m[16];

	ASSERT_EQ(0, grp_open(&g, "pod16", 16, 4));
	ASSERT_EQ(0, grp_load(&g, bin, len, NULL));
	grp_start(&g, 0, th, m);
	while (!ipue_cancel(g.e[2]))
		sched_yield();
	grp_join(&g, th);
	for (uint32_t k = 0; k < 4; k++)
		EXPECT_EQ(IPUE_ECANCELED, g.rc[k]);
	free(bin);
	grp_close(&g);
}

/* one member's failure (its step limit) ends the others' runs with its status */
TEST(multi_member_fails)
{
	struct grp g;
	size_t len;
	uint8_t *bin = endless_cross(2, &len);
	pthread_t th[16];
	struct member_run m[16];

	ASSERT_EQ(0, grp_open(&g, "ring", 2, 2));
	ASSERT_EQ(0, grp_load(&g, bin, len, NULL));
	g.o[1].step_limit = 50;
	grp_start(&g, 0, th, m);
	grp_join(&g, th);
	EXPECT_EQ(IPUE_ESTEPLIMIT, g.rc[1]);
	EXPECT_EQ(IPUE_ESTEPLIMIT, g.rc[0]);
	free(bin);
	grp_close(&g);
}

/* a single-IPU binary on a group member runs alone, with the cycles of an engine in no group */
TEST(multi_single_binary_on_member)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct ipue_run_stats st, st2;
	struct grp g;
	uint32_t v;
	int32_t x = 0;

	gw_plan(w, 0, 64);
	gw_handle(w, "x", gw_tensor1(w, "x", I32, 4, 0, 0), RW);
	v = v_add(w, 0, 0, 4, 3);
	gw_entry(w, "p", exec_cs(w, 1, &v));
	ASSERT_EQ(0, grp_open(&g, "ring", 2, 2));
	ASSERT_EQ(0, load(g.e[1], w, NULL));
	ASSERT_EQ(0, load(e, w, NULL));
	ASSERT_EQ(0, wr32(g.e[1], "x", 0, 4));
	ASSERT_EQ(0, wr32(e, "x", 0, 4));
	ASSERT_EQ(0, run(g.e[1], 0, &st));	/* member 0 never runs: no barrier waits for it */
	ASSERT_EQ(0, run(e, 0, &st2));
	ASSERT_TRUE(rd32(g.e[1], "x", 0, &x) == 0 && x == 7) TH_LOG("x = %d", x);
	EXPECT_EQ(st2.cycles, st.cycles);
	ASSERT_EQ(1, ipue_graph_ipus(g.e[1], NULL));
	gw_free(w);
	grp_close(&g);
	ipue_engine_destroy(e);
}

/* the wiring of the topologies (fabric_local.h) and their collective ring orders */
/*
 * A batch of peer writes (the transport's write_batch; the pipes above
 * push through it): its refusals. No graph: ENOGRAPH; a tile of another
 * member or a range outside the plan: ERANGE, and nothing after the first
 * failure; an empty batch: 0.
 */
TEST(multi_deliver_batch)
{
	struct grp g;
	struct ipue_load_error err;
	size_t len;
	uint8_t *bin = pipe_graph(2, &len);
	uint8_t b[8] = { 0 };
	struct ipue_fabric_write w[2] = { { b, 1, 0, 0, 4 }, { b, 1, MT, 0, 4 } };

	ASSERT_EQ(0, grp_open(&g, "ring", 2, 2));
	EXPECT_EQ(IPUE_ENOGRAPH, ipue_fabric_deliver_batch(g.e[1], w + 1, 1));
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_deliver_batch(NULL, w, 1));
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_deliver_batch(g.e[1], NULL, 1));
	ASSERT_TRUE(grp_load(&g, bin, len, &err) == 0) TH_LOG("load: %s", err.message);
	EXPECT_EQ(0, ipue_fabric_deliver_batch(g.e[1], w, 0));
	EXPECT_EQ(IPUE_ERANGE, ipue_fabric_deliver_batch(g.e[1], w, 2));	/* tile 0: member 0's */
	w[1].offset = 0xfffffff0u;
	EXPECT_EQ(IPUE_ERANGE, ipue_fabric_deliver_batch(g.e[1], w + 1, 1));
	free(bin);
	grp_close(&g);
}

TEST(multi_topologies)
{
	struct ipue_fabric_local *f = NULL;
	uint32_t order[16], peer = 0, port = 0;
	static const uint32_t m2000[] = { 0, 2, 3, 1 };
	static const uint32_t pod16[] = { 0, 2, 4, 6, 8, 10, 12, 14, 15, 13, 11, 9, 7, 5, 3, 1 };

	ASSERT_EQ(0, ipue_fabric_local_create("m2000", 4, 4, &f));
	ASSERT_TRUE(ipue_fabric_local_peer(f, 0, 1, &peer, &port) == 1 && peer == 1 && port == 1);
	ASSERT_TRUE(ipue_fabric_local_peer(f, 1, 2, &peer, &port) == 1 && peer == 3 && port == 3);
	ASSERT_EQ(0, ipue_fabric_local_peer(f, 2, 2, &peer, &port));	/* the ladder's end */
	ASSERT_EQ(4, ipue_fabric_local_ring(f, order));
	ASSERT_EQ(0, memcmp(order, m2000, sizeof(m2000)));
	ipue_fabric_local_destroy(f);
	ASSERT_EQ(0, ipue_fabric_local_create("pod16", 16, 10, &f));
	ASSERT_TRUE(ipue_fabric_local_peer(f, 14, 2, &peer, &port) == 1 && peer == 0 && port == 3);
	ASSERT_TRUE(ipue_fabric_local_peer(f, 9, 3, &peer, &port) == 1 && peer == 7 && port == 2);
	ASSERT_EQ(16, ipue_fabric_local_ring(f, order));
	ASSERT_EQ(0, memcmp(order, pod16, sizeof(pod16)));
	ipue_fabric_local_destroy(f);
	ASSERT_EQ(0, ipue_fabric_local_create("ring", 3, 2, &f));
	ASSERT_TRUE(ipue_fabric_local_peer(f, 2, 0, &peer, &port) == 1 && peer == 0 && port == 1);
	ipue_fabric_local_destroy(f);
	/* refusals: sizes a topology does not take, too few ports, unknown names */
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_local_create("m2000", 8, 4, &f));
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_local_create("pod16", 16, 3, &f));
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_local_create("ring", 1, 2, &f));
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_local_create("torus", 4, 4, &f));
	ASSERT_EQ(0, ipue_fabric_local_create("none", 4, 2, &f));
	EXPECT_EQ(0, ipue_fabric_local_wire(f, 0, 0, 1, 0));
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_local_wire(f, 0, 0, 2, 0));	/* port taken */
	EXPECT_EQ(IPUE_ERANGE, ipue_fabric_local_wire(f, 0, 2, 2, 0));	/* no port 2 */
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_local_set_link(f, 3, 1, 0));	/* not wired */
	ipue_fabric_local_destroy(f);
}

/* groups: members by mask rank, overlapping and odd-sized groups refused */
TEST(multi_groups)
{
	struct ipue_fabric_local *f = NULL;
	struct ipue_engine *e[3] = { mk(IPU_MODEL_TEST, 1), mk(IPU_MODEL_TEST, 1), mk(IPU_MODEL_TEST, 1) };
	struct ipue_fabric bad = { NULL, NULL, 0, 2 };

	ASSERT_EQ(0, ipue_fabric_local_create("m2000", 4, 4, &f));
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_local_join(f, 0x7, 0, e[0]));	/* 3 members */
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_local_join(f, 0xc, 0, e[0]));	/* not in the mask */
	EXPECT_EQ(IPUE_ERANGE, ipue_fabric_local_join(f, 0x30, 4, e[0]));	/* outside */
	ASSERT_EQ(0, ipue_fabric_local_join(f, 0xc, 3, e[0]));			/* member 1 of {2, 3} */
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_local_join(f, 0xf, 2, e[1]));	/* overlaps {2, 3} */
	EXPECT_EQ(IPUE_EINVAL, ipue_fabric_local_join(f, 0xc, 3, e[1]));	/* 3 taken */
	ASSERT_EQ(0, ipue_fabric_local_join(f, 0x3, 0, e[1]));
	ASSERT_EQ(0, ipue_fabric_local_join(f, 0x3, 1, e[2]));
	EXPECT_EQ(IPUE_EINVAL, ipue_set_fabric(e[0], &bad));			/* no ops */
	for (uint32_t i = 0; i < 4; i++)
		ipue_fabric_local_leave(f, i);
	ipue_fabric_local_destroy(f);
	for (int i = 0; i < 3; i++)
		ipue_engine_destroy(e[i]);
}

/* ---- the loader's refusals of multi-IPU binaries (every member alike) ---- */

struct multi_bad {
	const char *what;
	void (*make)(struct gw *w);
	const char *topo;	/* the group: the binary's 4 IPUs, unless said */
	uint32_t fabric_ipus, members;
	const char *section, *needle;
};

static void mb_ipus3(struct gw *w) { ((struct ipu_graph_ipus *)gw_rec(w, IPU_GRAPH_SEC_IPUS, 0))->ipus = 3; }
static void mb_tpi(struct gw *w) { ((struct ipu_graph_ipus *)gw_rec(w, IPU_GRAPH_SEC_IPUS, 0))->tiles_per_ipu = 31; }
static void mb_flags(struct gw *w) { ((struct ipu_graph_ipus *)gw_rec(w, IPU_GRAPH_SEC_IPUS, 0))->flags = 2; }
static void mb_two(struct gw *w) { gw_ipus(w, 4); }
static void mb_none(struct gw *w) { (void)w; }
static void mb_plan(struct gw *w) { gw_plan(w, 4 * MT, 64); }
static void mb_vertex(struct gw *w) { v_add(w, 4 * MT + 1, 0, 1, 1); }
static void mb_stream(struct gw *w)
{
	uint32_t tiles[2] = { 0, MT }, offs[2] = { 0, 0 }, counts[2] = { 2, 2 }, shape = 4;
	uint32_t t = gw_tensor(w, "split", I32, 1, &shape, 2, tiles, offs, counts);
	uint32_t s = gw_stream(w, "in", IPU_STREAM_HOST_TO_DEVICE, I32, 1, 4);

	gw_entry(w, "s", gw_node(w, IPU_PROG_STREAM_COPY, s, t, IPU_STREAM_HOST_TO_DEVICE));
}
static void mb_route(struct gw *w)
{
	struct ipu_graph_copy c = { .src_tile = 0, .dst_tile = 2 * MT, .bytes = 4 };

	gw_entry(w, "x", gw_node(w, IPU_PROG_COPY, gw_exchange(w, "far", 1, &c), 0, 0));
}

static const struct multi_bad multi_bads[] = {
	{ "ipus 3", mb_ipus3, "m2000", 4, 4, "ipus", "1, 2, 4, 8 or 16" },
	{ "tiles per IPU", mb_tpi, "m2000", 4, 4, "ipus", "tiles per IPU" },
	{ "unknown flags", mb_flags, "m2000", 4, 4, "ipus", "flags" },
	{ "two records", mb_two, "m2000", 4, 4, "ipus", "one" },
	{ "group of 2", mb_none, "m2000", 4, 2, "ipus", "group of 2" },
	{ "no group", mb_none, NULL, 0, 0, "ipus", "no group" },
	{ "plan beyond the IPUs", mb_plan, "m2000", 4, 4, "tile_plans", "out of range" },
	{ "vertex beyond the IPUs", mb_vertex, "m2000", 4, 4, "vertices", "out of range" },
	{ "stream tensor over two IPUs", mb_stream, "m2000", 4, 4, "program_nodes", "spans IPUs" },
	{ "no route", mb_route, "none", 4, 4, "copies", "no route from IPU 0 to IPU 2" },
};

TEST(multi_loader_refusals)
{
	for (size_t i = 0; i < sizeof(multi_bads) / sizeof(multi_bads[0]); i++) {
		const struct multi_bad *b = &multi_bads[i];
		struct gw *w = gw_new(IPU_MODEL_TEST);
		struct ipue_load_error err;
		struct grp g;
		size_t len;
		uint8_t *bin;
		int rc;

		gw_ipus(w, 4);
		gw_plan(w, 0, 64);
		gw_plan(w, MT, 64);
		gw_plan(w, 2 * MT, 64);
		b->make(w);
		bin = finish(w, &len);
		if (b->topo) {
			ASSERT_EQ(0, grp_open(&g, b->topo, b->fabric_ipus, b->members));
			if (!strcmp(b->topo, "none"))	/* two pairs, not joined */
				ASSERT_TRUE(!ipue_fabric_local_wire(g.f, 0, 0, 1, 0) &&
					    !ipue_fabric_local_wire(g.f, 2, 0, 3, 0));
			rc = grp_load(&g, bin, len, &err);
		} else {
			struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);

			rc = ipue_load(e, bin, len, &err);
			ipue_engine_destroy(e);
		}
		EXPECT_TRUE(rc == IPUE_EFORMAT && !strcmp(err.section_name, b->section) &&
			    strstr(err.message, b->needle))
			TH_LOG("%s: rc %d section %s: %s", b->what, rc, err.section_name, err.message);
		if (b->topo)
			grp_close(&g);
		free(bin);
	}
}
