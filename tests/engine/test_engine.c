/* SPDX-License-Identifier: MIT */
/*
 * Engine host tests: BSP semantics, programs, streams, abort, cancel, cost
 * model, lazy tile memory and one loader negative case per validation rule.
 * Runs on the kselftest harness: one result per TEST, one per loader case
 * (fixture variants of `loader`); mk/engine.mk writes results/engine.ktap.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine_internal.h"
#include "ipu_engine.h"
#include "ipu/ipu_models.h"
#include "gw.h"
#include "tcodelets.h"
#include "kselftest_harness.h"

#define I32 IPU_DTYPE_I32
#define NONE IPU_GRAPH_NONE
#define RW (IPU_HANDLE_READ | IPU_HANDLE_WRITE)

static struct ipue_engine *mk(uint32_t model, unsigned threads)
{
	struct ipue_config cfg = { .model = model, .host_threads = threads };
	struct ipue_engine *e = NULL;

	if (ipue_engine_create(&cfg, &e))
		return NULL;
	ipue_set_codelet_lookup(e, tc_lookup);
	return e;
}

static int load(struct ipue_engine *e, struct gw *w, struct ipue_load_error *err)
{
	size_t len;
	uint8_t *bin = gw_finish(w, &len);
	int rc = ipue_load(e, bin, len, err);

	free(bin);
	return rc;
}

static struct ipu_graph_field fld(uint32_t off, uint32_t count)
{
	struct ipu_graph_field f = { .tile_offset = off, .count = count, .dtype = I32 };

	return f;
}

static uint32_t v_add(struct gw *w, uint32_t tile, uint32_t off, uint32_t n, int32_t d)
{
	struct ipu_graph_field f = fld(off, n);
	uint32_t p = (uint32_t)d;

	return gw_vertex(w, TC_ADD, tile, 1, &f, 1, &p);
}

static uint32_t exec_cs(struct gw *w, uint32_t n, const uint32_t *v)
{
	return gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "cs", n, v), 0, 0);
}

static int rd32(struct ipue_engine *e, const char *h, uint32_t idx, int32_t *out)
{
	int hd = ipue_handle_find(e, h);

	if (hd < 0)
		return hd;
	return ipue_tensor_read(e, (unsigned)hd, (uint64_t)idx * 4, out, 4);
}

static int wr32(struct ipue_engine *e, const char *h, uint32_t idx, int32_t v)
{
	int hd = ipue_handle_find(e, h);

	if (hd < 0)
		return hd;
	return ipue_tensor_write(e, (unsigned)hd, (uint64_t)idx * 4, &v, 4);
}

static int run(struct ipue_engine *e, uint32_t prog, struct ipue_run_stats *st)
{
	struct ipue_run_opts o = { .program = prog };

	return ipue_run(e, &o, st);
}

/* ------------------------------------------------------------ positive */

TEST(empty_graph)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipue_load_error err;
	int rc = load(e, w, &err);

	ASSERT_TRUE(rc == 0) TH_LOG("empty graph rejected: %s", err.message);
	ASSERT_TRUE(ipue_program_count(e) == 0 && ipue_handle_count(e) == 0) TH_LOG("counts");
	ASSERT_TRUE(run(e, 0, NULL) == IPUE_ERANGE) TH_LOG("run of missing program");
	gw_free(w);
	ipue_engine_destroy(e);
}

/* tensor write/read across intervals */
TEST(tensor_roundtrip)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	uint32_t shape[2] = { 4, 5 }, tiles[3] = { 3, 0, 7 }, offs[3] = { 8, 0, 100 * 4 },
		 counts[3] = { 7, 6, 7 };
	int32_t in[20], out[20];
	struct ipue_tensor_info ti;
	int h;

	gw_plan(w, 0, 1024);
	gw_plan(w, 3, 64);
	gw_plan(w, 7, 1024);
	gw_handle(w, "m", gw_tensor(w, "m", I32, 2, shape, 3, tiles, offs, counts), RW);
	gw_handle(w, "ro", gw_tensor1(w, "ro", I32, 4, 0, 512), IPU_HANDLE_READ);
	ASSERT_TRUE(load(e, w, NULL) == 0) TH_LOG("load");
	h = ipue_handle_find(e, "m");
	ASSERT_TRUE(h >= 0 && ipue_handle_info(e, (unsigned)h, &ti) == 0) TH_LOG("handle");
	ASSERT_TRUE(ti.rank == 2 && ti.shape[1] == 5 && ti.bytes == 80 && ti.dtype == I32) TH_LOG("info");
	for (int i = 0; i < 20; i++)
		in[i] = i * 11 - 3;
	ASSERT_TRUE(ipue_tensor_write(e, (unsigned)h, 0, in, 80) == 0) TH_LOG("write");
	memset(out, 0, sizeof(out));
	ASSERT_TRUE(ipue_tensor_read(e, (unsigned)h, 0, out, 80) == 0) TH_LOG("read");
	ASSERT_TRUE(!memcmp(in, out, 80)) TH_LOG("roundtrip differs");
	/* a byte range crossing two intervals */
	ASSERT_TRUE(ipue_tensor_read(e, (unsigned)h, 26, out, 10) == 0) TH_LOG("partial read");
	ASSERT_TRUE(!memcmp(out, (uint8_t *)in + 26, 10)) TH_LOG("partial range differs");
	ASSERT_TRUE(ipue_tensor_read(e, (unsigned)h, 76, out, 8) == IPUE_ERANGE) TH_LOG("overrun accepted");
	ASSERT_TRUE(ipue_tensor_write(e, 1, 0, in, 4) == IPUE_EACCES) TH_LOG("write to read-only handle");
	ASSERT_TRUE(ipue_tensor_read(e, 9, 0, out, 4) == IPUE_ERANGE) TH_LOG("bad handle");
	gw_free(w);
	ipue_engine_destroy(e);
}

/* an empty tensor (a 0 dimension, no intervals): loads, host reads/writes of 0 bytes move nothing */
TEST(empty_tensor_handle)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	uint32_t shape[3] = { 2, 0, 3 };
	struct ipue_tensor_info ti;
	struct ipue_load_error err;
	int32_t buf[1] = { 5 };
	int h;

	gw_plan(w, 0, 64);
	gw_handle(w, "e", gw_tensor(w, "e", I32, 3, shape, 0, NULL, NULL, NULL), RW);
	gw_handle(w, "x", gw_tensor1(w, "x", I32, 1, 0, 0), RW);
	ASSERT_TRUE(load(e, w, &err) == 0) TH_LOG("empty tensor refused: %s", err.message);
	h = ipue_handle_find(e, "e");
	ASSERT_TRUE(h >= 0 && ipue_handle_info(e, (unsigned)h, &ti) == 0) TH_LOG("handle");
	ASSERT_TRUE(ti.rank == 3 && ti.shape[1] == 0 && ti.bytes == 0) TH_LOG("info");
	ASSERT_TRUE(ipue_tensor_write(e, (unsigned)h, 0, buf, 0) == 0) TH_LOG("write of 0 bytes");
	ASSERT_TRUE(ipue_tensor_read(e, (unsigned)h, 0, buf, 0) == 0) TH_LOG("read of 0 bytes");
	ASSERT_TRUE(buf[0] == 5) TH_LOG("a read of 0 bytes wrote");
	ASSERT_TRUE(ipue_tensor_read(e, (unsigned)h, 0, buf, 4) == IPUE_ERANGE) TH_LOG("read past the end");
	gw_free(w);
	ipue_engine_destroy(e);
}

/* ipue_parallel(): every participant once, concurrent disjoint tensor copies */
struct par_ctx {
	struct ipue_engine *e;
	int h;
	const int32_t *in;
	int32_t *out;
	unsigned seen[IPUE_MAX_HOST_THREADS];
	int bad;
};

static void par_fn(void *arg, unsigned i, unsigned n)
{
	struct par_ctx *c = arg;
	uint64_t lo = 4096 * 4 * i / n / 4 * 4, hi = 4096 * 4 * (i + 1) / n / 4 * 4;

	c->seen[i]++;
	if (ipue_tensor_write(c->e, (unsigned)c->h, lo, (const uint8_t *)c->in + lo, hi - lo) ||
	    ipue_tensor_read(c->e, (unsigned)c->h, lo, (uint8_t *)c->out + lo, hi - lo))
		c->bad = 1;
}

/* parallel host copies over the engine's threads */
TEST(parallel_copy)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 3);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	static int32_t in[4096], out[4096];
	struct par_ctx c = { .e = e, .in = in, .out = out };
	int n;

	/* 4096 elements over 16 tiles, 256 each */
	for (uint32_t t = 0; t < 16; t++)
		gw_plan(w, t, 1024);
	{
		uint32_t shape[1] = { 4096 }, tiles[16], offs[16], counts[16];

		for (uint32_t t = 0; t < 16; t++)
			tiles[t] = t, offs[t] = 0, counts[t] = 256;
		gw_handle(w, "x", gw_tensor(w, "x", I32, 1, shape, 16, tiles, offs, counts), RW);
	}
	ASSERT_TRUE(load(e, w, NULL) == 0) TH_LOG("load");
	c.h = ipue_handle_find(e, "x");
	for (int i = 0; i < 4096; i++)
		in[i] = i * 7 + 1;
	n = ipue_parallel(e, par_fn, &c);
	ASSERT_TRUE(n == 3) TH_LOG("ran on %d threads, not 3", n);
	for (int i = 0; i < n; i++) {
		ASSERT_TRUE(c.seen[i] == 1) TH_LOG("participant %d ran %u times", i, c.seen[i]);
	}
	ASSERT_TRUE(!c.bad) TH_LOG("a copy failed");
	ASSERT_TRUE(!memcmp(in, out, sizeof(in))) TH_LOG("parallel round trip differs");
	ASSERT_TRUE(ipue_parallel(NULL, par_fn, &c) == IPUE_EINVAL) TH_LOG("NULL engine accepted");
	ASSERT_TRUE(ipue_parallel(e, NULL, &c) == IPUE_EINVAL) TH_LOG("NULL function accepted");
	gw_free(w);
	ipue_engine_destroy(e);
}

/* tile 0 vertex writes x; y on tile 1 changes only with the exchange */
TEST(bsp_isolation)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 2);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_copy c = { .src_tile = 0, .src_offset = 0, .dst_tile = 1,
				    .dst_offset = 0, .bytes = 16 };
	uint32_t v, cp, ex;
	int32_t y, x;

	gw_plan(w, 0, 64);
	gw_plan(w, 1, 64);
	gw_handle(w, "x", gw_tensor1(w, "x", I32, 4, 0, 0), RW);
	gw_handle(w, "y", gw_tensor1(w, "y", I32, 4, 1, 0), RW);
	v = v_add(w, 0, 0, 4, 5);
	ex = exec_cs(w, 1, &v);
	cp = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "x->y", 1, &c), 0, 0);
	gw_entry(w, "compute", ex);
	gw_entry(w, "exchange", cp);
	ASSERT_TRUE(load(e, w, NULL) == 0) TH_LOG("load");
	ASSERT_TRUE(run(e, 0, NULL) == 0) TH_LOG("compute");
	ASSERT_TRUE(rd32(e, "x", 2, &x) == 0 && x == 5) TH_LOG("x=%d", x);
	ASSERT_TRUE(rd32(e, "y", 2, &y) == 0 && y == 0) TH_LOG("y visible before exchange: %d", y);
	ASSERT_TRUE(run(e, 1, NULL) == 0) TH_LOG("exchange");
	ASSERT_TRUE(rd32(e, "y", 2, &y) == 0 && y == 5) TH_LOG("y after exchange %d", y);
	gw_free(w);
	ipue_engine_destroy(e);
}

/*
 * A graph big enough to use the thread pool: 32 tiles, 4 vertices per
 * tile, a ring exchange of 16 KiB per tile, repeated.
 */
#define RT 32
#define RN 4096			/* i32 per tile buffer */
/*
 * nt tiles with two buffers of n i32 each: tensor "a" (handle 0) at offset 0
 * and "b" (handle 1) at n * 4 of every tile; c[t] copies a(t) to b(t+1).
 */
static void ring_buffers(struct gw *w, uint32_t nt, uint32_t n, struct ipu_graph_copy *c)
{
	uint32_t shape = nt * n, *tiles = calloc(nt, 4), *offs = calloc(nt, 4), *counts = calloc(nt, 4);

	if (!tiles || !offs || !counts)
		abort();
	for (uint32_t t = 0; t < nt; t++) {
		gw_plan(w, t, 2 * n * 4);
		tiles[t] = t;
		counts[t] = n;
		c[t] = (struct ipu_graph_copy){ .src_tile = t, .src_offset = 0,
			.dst_tile = (t + 1) % nt, .dst_offset = n * 4, .bytes = n * 4 };
	}
	gw_handle(w, "a", gw_tensor(w, "a", I32, 1, &shape, nt, tiles, offs, counts), RW);
	for (uint32_t t = 0; t < nt; t++)
		offs[t] = n * 4;
	gw_handle(w, "b", gw_tensor(w, "b", I32, 1, &shape, nt, tiles, offs, counts), RW);
	free(tiles);
	free(offs);
	free(counts);
}

static uint8_t *ring_graph(size_t *len)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_copy c[RT];
	uint32_t va[RT * 4], k[2], body;
	uint8_t *bin;

	ring_buffers(w, RT, RN, c);
	for (uint32_t t = 0; t < RT; t++)
		for (uint32_t q = 0; q < 4; q++)
			va[t * 4 + q] = v_add(w, t, q * RN, RN / 4, (int32_t)(t * 7 + q + 1));
	k[0] = exec_cs(w, RT * 4, va);
	k[1] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "ring", RT, c), 0, 0);
	body = gw_seq(w, 2, k);
	gw_entry(w, "main", gw_node(w, IPU_PROG_REPEAT, 10, body, 0));
	bin = gw_finish(w, len);
	gw_free(w);
	return bin;
}

/* bsp: identical results with 1, 2, 7 host threads */
TEST(threads_identical)
{
	static const unsigned nth[3] = { 1, 2, 7 };
	size_t len, bytes = (size_t)RT * RN * 4;
	uint8_t *bin = ring_graph(&len);
	uint8_t *ref = calloc(2, bytes), *got = calloc(2, bytes);
	struct ipue_engine *e = NULL;
	struct ipue_run_stats st, st0 = { 0 };

	for (unsigned i = 0; i < 3; i++) {
		e = mk(IPU_MODEL_TEST, nth[i]);
		ASSERT_TRUE(e && ipue_load(e, bin, len, NULL) == 0) TH_LOG("load");
		ASSERT_TRUE(run(e, 0, &st) == 0) TH_LOG("run with %u threads", nth[i]);
		ASSERT_TRUE(ipue_tensor_read(e, 0, 0, got, bytes) == 0 &&
		      ipue_tensor_read(e, 1, 0, got + bytes, bytes) == 0) TH_LOG("read");
		if (i == 0) {
			memcpy(ref, got, 2 * bytes);
			st0 = st;
			/* spot check: a of tile 3, quarter 1 gained 10 * (3*7+1+1) */
			ASSERT_TRUE(((int32_t *)ref)[3 * RN + RN / 4] == 10 * 23) TH_LOG("value %d",
			      ((int32_t *)ref)[3 * RN + RN / 4]);
			ASSERT_TRUE(((int32_t *)(ref + bytes))[4 * RN + RN / 4] == 10 * 23) TH_LOG("b value");
		} else {
			ASSERT_TRUE(!memcmp(ref, got, 2 * bytes)) TH_LOG("%u threads differ from 1", nth[i]);
			ASSERT_TRUE(st.cycles == st0.cycles) TH_LOG("modeled cycles differ");
		}
		ipue_engine_destroy(e);
		e = NULL;
	}
	free(bin); free(ref); free(got);
}

/* repeat and cost model */
TEST(repeat_and_cost)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_copy c = { .src_tile = 0, .dst_tile = 1, .bytes = 400 };
	uint32_t v[7], p = 100, k[2];
	struct ipue_run_stats st;
	struct ipue_run_opts o = { .program = 0, .repeat = 2 };
	uint64_t before;
	int32_t x;

	gw_plan(w, 0, 512);
	gw_plan(w, 1, 512);
	gw_handle(w, "x", gw_tensor1(w, "x", I32, 1, 0, 0), RW);
	/* 7 vertices of 100 cycles on 6 workers: 200 cycles; plus the add (11) */
	for (int i = 0; i < 6; i++)
		v[i] = gw_vertex(w, TC_CYC, 0, 0, NULL, 1, &p);
	v[6] = v_add(w, 0, 0, 1, 1);
	k[0] = exec_cs(w, 7, v);
	k[1] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "x", 1, &c), 0, 0);
	gw_entry(w, "r", gw_node(w, IPU_PROG_REPEAT, 3, gw_seq(w, 2, k), 0));
	ASSERT_TRUE(load(e, w, NULL) == 0) TH_LOG("load");
	ASSERT_TRUE(ipue_progress(NULL) == 0) TH_LOG("no engine, no progress");
	before = ipue_progress(e);
	ASSERT_TRUE(ipue_run(e, &o, &st) == 0) TH_LOG("run");
	/* the card's PROGRESS register: every step of every run counts */
	ASSERT_TRUE(st.steps > 0 && ipue_progress(e) - before == st.steps)
		TH_LOG("progress %llu after %llu steps",
		       (unsigned long long)(ipue_progress(e) - before),
		       (unsigned long long)st.steps);
	ASSERT_TRUE(rd32(e, "x", 0, &x) == 0 && x == 6) TH_LOG("x=%d, want 6", x);
	ASSERT_TRUE(st.compute_sets == 6 && st.exchanges == 6) TH_LOG("counts %llu %llu",
	      (unsigned long long)st.compute_sets, (unsigned long long)st.exchanges);
	/* worker loads 100,100,100,100,100,100 then the add joins one: 111 */
	ASSERT_TRUE(st.cycles_compute == 6 * 111) TH_LOG("compute cycles %llu", (unsigned long long)st.cycles_compute);
	ASSERT_TRUE(st.cycles_sync == 6 * 500) TH_LOG("sync cycles %llu", (unsigned long long)st.cycles_sync);
	ASSERT_TRUE(st.cycles_exchange == 6 * (30 + 100)) TH_LOG("exchange cycles %llu",
	      (unsigned long long)st.cycles_exchange);
	ASSERT_TRUE(st.cycles == st.cycles_compute + st.cycles_sync + st.cycles_exchange) TH_LOG("sum");
	ASSERT_TRUE(st.host_ns > 0 && st.exchange_bytes == 2400) TH_LOG("host ns / bytes");
	gw_free(w);
	ipue_engine_destroy(e);
}

#include "fused_tests.h"

/* repeat while true */
TEST(repeat_while_true)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	uint32_t v[2], body, vc, condp;
	int32_t acc, c;

	gw_plan(w, 0, 64);
	gw_handle(w, "c", gw_tensor1(w, "c", I32, 1, 0, 0), RW);
	gw_handle(w, "acc", gw_tensor1(w, "acc", I32, 1, 0, 4), RW);
	gw_handle(w, "n", gw_tensor1(w, "n", I32, 1, 0, 8), RW);
	v[0] = v_add(w, 0, 0, 1, -1);
	v[1] = v_add(w, 0, 4, 1, 3);
	body = exec_cs(w, 2, v);
	gw_entry(w, "while", gw_node(w, IPU_PROG_REPEAT_WHILE_TRUE, 0, body, NONE));
	/* with a condition program: n counts how often it ran */
	vc = v_add(w, 0, 8, 1, 1);
	condp = exec_cs(w, 1, &vc);
	gw_entry(w, "while2", gw_node(w, IPU_PROG_REPEAT_WHILE_TRUE, 0, body, condp));
	ASSERT_TRUE(load(e, w, NULL) == 0) TH_LOG("load");
	ASSERT_TRUE(wr32(e, "c", 0, 5) == 0 && run(e, 0, NULL) == 0) TH_LOG("run");
	ASSERT_TRUE(rd32(e, "acc", 0, &acc) == 0 && acc == 15) TH_LOG("acc=%d want 15", acc);
	ASSERT_TRUE(rd32(e, "c", 0, &c) == 0 && c == 0) TH_LOG("c=%d", c);
	ASSERT_TRUE(run(e, 0, NULL) == 0 && rd32(e, "acc", 0, &acc) == 0 && acc == 15) TH_LOG("false condition must not run the body");
	ASSERT_TRUE(wr32(e, "c", 0, 2) == 0 && run(e, 1, NULL) == 0) TH_LOG("run2");
	ASSERT_TRUE(rd32(e, "n", 0, &c) == 0 && c == 3) TH_LOG("condition program ran %d times, want 3", c);
	gw_free(w);
	ipue_engine_destroy(e);
}

/* if / else */
TEST(if_else)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	uint32_t a, b;
	int32_t x;

	gw_plan(w, 0, 64);
	gw_handle(w, "f", gw_tensor1(w, "f", I32, 1, 0, 0), RW);
	gw_handle(w, "x", gw_tensor1(w, "x", I32, 1, 0, 4), RW);
	a = v_add(w, 0, 4, 1, 10);
	b = v_add(w, 0, 4, 1, 100);
	gw_entry(w, "if", gw_node(w, IPU_PROG_IF, 0, exec_cs(w, 1, &a), exec_cs(w, 1, &b)));
	gw_entry(w, "if-no-else", gw_node(w, IPU_PROG_IF, 0, exec_cs(w, 1, &a), NONE));
	ASSERT_TRUE(load(e, w, NULL) == 0) TH_LOG("load");
	ASSERT_TRUE(run(e, 0, NULL) == 0 && rd32(e, "x", 0, &x) == 0 && x == 100) TH_LOG("else branch: %d", x);
	ASSERT_TRUE(wr32(e, "f", 0, -7) == 0 && run(e, 0, NULL) == 0) TH_LOG("run");
	ASSERT_TRUE(rd32(e, "x", 0, &x) == 0 && x == 110) TH_LOG("then branch: %d", x);
	ASSERT_TRUE(wr32(e, "f", 0, 0) == 0 && run(e, 1, NULL) == 0) TH_LOG("run");
	ASSERT_TRUE(rd32(e, "x", 0, &x) == 0 && x == 110) TH_LOG("no else: %d", x);
	gw_free(w);
	ipue_engine_destroy(e);
}

struct slog {
	char ev[256];
	int32_t next, avail, pushed[16];
	int npushed, fail_push;
};

static int s_fetch(void *user, unsigned s, void *dst, size_t len)
{
	struct slog *l = user;
	int32_t v[4];

	(void)s;
	if (l->next >= l->avail)
		return IPUE_STREAM_NO_DATA;
	for (int i = 0; i < 4; i++)
		v[i] = l->next * 10 + i;
	memcpy(dst, v, len < sizeof(v) ? len : sizeof(v));
	snprintf(l->ev + strlen(l->ev), sizeof(l->ev) - strlen(l->ev), "F%d ", l->next++);
	return 0;
}

static int s_push(void *user, unsigned s, const void *src, size_t len)
{
	struct slog *l = user;
	int32_t v[4];

	(void)s;
	if (l->fail_push)
		return -1;
	memcpy(v, src, len < sizeof(v) ? len : sizeof(v));
	l->pushed[l->npushed++ % 16] = v[0];
	strncat(l->ev, "P ", sizeof(l->ev) - strlen(l->ev) - 1);
	return 0;
}

/* streams: fifo depth, order, underrun, errors */
TEST(streams)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipue_stream_callbacks cb = { s_fetch, s_push, NULL };
	struct slog l;
	struct ipue_run_stats st;
	struct ipue_stream_info si;
	uint32_t t, in, out, v, k[3];
	int rc;

	memset(&l, 0, sizeof(l));
	cb.user = &l;
	l.avail = 4;
	gw_plan(w, 0, 64);
	t = gw_tensor1(w, "t", I32, 4, 0, 0);
	in = gw_stream(w, "in", IPU_STREAM_HOST_TO_DEVICE, I32, 3, 4);
	out = gw_stream(w, "out", IPU_STREAM_DEVICE_TO_HOST, I32, 2, 4);
	v = v_add(w, 0, 0, 4, 1000);
	k[0] = gw_node(w, IPU_PROG_STREAM_COPY, in, t, IPU_STREAM_HOST_TO_DEVICE);
	k[1] = exec_cs(w, 1, &v);
	k[2] = gw_node(w, IPU_PROG_STREAM_COPY, out, t, IPU_STREAM_DEVICE_TO_HOST);
	gw_entry(w, "loop", gw_node(w, IPU_PROG_REPEAT, 4, gw_seq(w, 3, k), 0));
	gw_entry(w, "once", gw_seq(w, 3, k));
	ASSERT_TRUE(load(e, w, NULL) == 0) TH_LOG("load");
	ASSERT_TRUE(ipue_stream_count(e) == 2 && ipue_stream_info(e, 1, &si) == 0 &&
	      si.depth == 2 && si.bytes == 16 && !strcmp(si.name, "out")) TH_LOG("stream info");
	ASSERT_TRUE(run(e, 0, NULL) == IPUE_ESTREAM) TH_LOG("unconnected stream must fail");
	ASSERT_TRUE(ipue_stream_connect(e, 0, &cb) == 0 && ipue_stream_connect(e, 1, &cb) == 0) TH_LOG("connect");
	rc = run(e, 0, &st);
	ASSERT_TRUE(rc == 0) TH_LOG("run: %s", ipue_strerror(rc));
	/* depth 3 prefetch, pushes in pairs of depth 2 */
	ASSERT_TRUE(!strcmp(l.ev, "F0 F1 F2 P P F3 P P ")) TH_LOG("event order '%s'", l.ev);
	ASSERT_TRUE(l.npushed == 4 && l.pushed[0] == 1000 && l.pushed[3] == 1030) TH_LOG("pushed %d %d",
	      l.pushed[0], l.pushed[3]);
	ASSERT_TRUE(st.stream_bytes_h2d == 64 && st.stream_bytes_d2h == 64) TH_LOG("bytes");
	ASSERT_TRUE(st.cycles_stream == 8 * (480 + (16 * 1000 + 5899) / 5900)) TH_LOG("stream cycles %llu",
	      (unsigned long long)st.cycles_stream);
	/* no data left: underrun */
	l.ev[0] = 0;
	ASSERT_TRUE(run(e, 1, NULL) == IPUE_ESTREAM) TH_LOG("underrun must fail");
	/* partial output is still flushed when the run fails later */
	l.avail = 5;
	l.fail_push = 1;
	ASSERT_TRUE(run(e, 1, NULL) == IPUE_ESTREAM) TH_LOG("push failure must fail the run");
	gw_free(w);
	ipue_engine_destroy(e);
}

/* abort on condition */
TEST(abort_on_condition)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	uint32_t v, k[3], code, node, ab;
	int32_t x;

	gw_plan(w, 0, 64);
	gw_handle(w, "f", gw_tensor1(w, "f", I32, 1, 0, 0), RW);
	gw_handle(w, "x", gw_tensor1(w, "x", I32, 1, 0, 4), RW);
	v = v_add(w, 0, 4, 1, 1);
	k[0] = exec_cs(w, 1, &v);
	k[1] = ab = gw_node(w, IPU_PROG_ABORT_ON_CONDITION, 0, 42, 0);
	k[2] = k[0];
	gw_entry(w, "p", gw_seq(w, 3, k));
	ASSERT_TRUE(load(e, w, NULL) == 0) TH_LOG("load");
	ASSERT_TRUE(run(e, 0, NULL) == 0 && ipue_abort_status(e, &code, &node) == 0) TH_LOG("no abort");
	ASSERT_TRUE(rd32(e, "x", 0, &x) == 0 && x == 2) TH_LOG("x=%d", x);
	ASSERT_TRUE(wr32(e, "f", 0, 1) == 0 && run(e, 0, NULL) == IPUE_EABORT) TH_LOG("abort expected");
	ASSERT_TRUE(ipue_abort_status(e, &code, &node) == 1 && code == 42 && node == ab) TH_LOG("abort status code %u node %u", code, node);
	ASSERT_TRUE(rd32(e, "x", 0, &x) == 0 && x == 3) TH_LOG("nodes after the abort ran: x=%d", x);
	ASSERT_TRUE(wr32(e, "f", 0, 0) == 0 && run(e, 0, NULL) == 0 &&
	      ipue_abort_status(e, NULL, NULL) == 0) TH_LOG("abort status cleared by next run");
	gw_free(w);
	ipue_engine_destroy(e);
}

/* an endless RepeatWhileTrue: stopped by cancel and by the step limit */
static uint8_t *endless_graph(size_t *len)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	int32_t one = 1;
	uint32_t v;
	uint8_t *bin;

	gw_plan(w, 0, 64);
	gw_tensor1(w, "f", I32, 1, 0, 0);
	gw_init(w, 0, 0, 4, &one);
	v = v_add(w, 0, 4, 1, 1);
	gw_entry(w, "forever", gw_node(w, IPU_PROG_REPEAT_WHILE_TRUE, 0, exec_cs(w, 1, &v), NONE));
	bin = gw_finish(w, len);
	gw_free(w);
	return bin;
}

struct canceller {
	struct ipue_engine *e;
	int hit;
};

static void *cancel_main(void *arg)
{
	struct canceller *c = arg;
	struct timespec ts = { 0, 1000000 };

	/* retry until the run has started */
	for (int i = 0; i < 5000 && !c->hit; i++) {
		nanosleep(&ts, NULL);
		c->hit = ipue_cancel(c->e);
	}
	return NULL;
}

/* cancel from another thread, step limit */
TEST(cancel)
{
	size_t len;
	uint8_t *bin = endless_graph(&len);
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 2);
	struct canceller c = { e, 0 };
	struct ipue_run_stats st;
	pthread_t th;
	int rc;

	ASSERT_TRUE(ipue_load(e, bin, len, NULL) == 0) TH_LOG("load");
	ASSERT_TRUE(ipue_cancel(e) == 0) TH_LOG("cancel without a run must report 0");
	pthread_create(&th, NULL, cancel_main, &c);
	rc = run(e, 0, &st);
	pthread_join(th, NULL);
	ASSERT_TRUE(rc == IPUE_ECANCELED && c.hit == 1) TH_LOG("rc %s hit %d", ipue_strerror(rc), c.hit);
	ASSERT_TRUE(st.steps > 0) TH_LOG("steps");
	/* not sticky: the next run is not cancelled */
	{
		struct ipue_run_opts o = { .program = 0, .step_limit = 1001 };

		rc = ipue_run(e, &o, &st);
		ASSERT_TRUE(rc == IPUE_ESTEPLIMIT && st.steps == 1002) TH_LOG("step limit: %s steps %llu",
		      ipue_strerror(rc), (unsigned long long)st.steps);
	}
	free(bin);
	ipue_engine_destroy(e);
}

/* The cost model's figures are the model table's; the host link rates
 * derived from its PCIe links are those of docs/cost-model.md. */
TEST(model_figures)
{
	static const struct { uint32_t id, bpk; } rates[] = {
		{ IPU_MODEL_GC2, 6100 }, { IPU_MODEL_GC200, 23700 }, { IPU_MODEL_TEST, 5900 },
	};
	struct ipue_model_figures f;
	const struct ipu_model *m;

	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		m = ipu_model_by_id(rates[i].id);
		ASSERT_TRUE(m && ipue_model_lookup(rates[i].id, &f) == 0) TH_LOG("lookup %u", rates[i].id);
		ASSERT_TRUE(f.tiles == m->tiles && f.tile_mem == m->tile_mem && f.clock_khz == m->clock_khz &&
		      f.threads == m->threads) TH_LOG("%s figures", m->name);
		ASSERT_TRUE(f.host_bytes_per_kcycle == rates[i].bpk) TH_LOG("%s host link %u B/kcycle, want %u",
		      m->name, f.host_bytes_per_kcycle, rates[i].bpk);
	}
	ASSERT_TRUE(ipue_model_lookup(77, &f) == IPUE_EMODEL) TH_LOG("unknown model");
}

/* enumerate programs, metadata, reset */
TEST(enumerate)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	const struct ipu_model *m = ipu_model_by_id(IPU_MODEL_TEST);
	struct ipue_model_info mi;
	const char *k, *v;

	gw_plan(w, 0, 64);
	gw_meta(w, "builder", "test");
	gw_meta(w, "version", "7");
	gw_entry(w, "first", gw_node(w, IPU_PROG_SYNC, 0, 0, 0));
	gw_entry(w, "second", gw_seq(w, 0, NULL));
	ASSERT_TRUE(load(e, w, NULL) == 0) TH_LOG("load");
	ASSERT_TRUE(ipue_program_count(e) == 2 && !strcmp(ipue_program_name(e, 1), "second") &&
	      ipue_program_name(e, 2) == NULL) TH_LOG("programs");
	ASSERT_TRUE(ipue_metadata_count(e) == 2 && ipue_metadata_at(e, 1, &k, &v) == 0 &&
	      !strcmp(k, "version") && !strcmp(v, "7")) TH_LOG("metadata");
	ASSERT_TRUE(!strcmp(ipue_metadata_get(e, "builder"), "test") && !ipue_metadata_get(e, "x")) TH_LOG("get");
	ipue_model_info(e, &mi);
	ASSERT_TRUE(mi.tiles == m->tiles && mi.tile_mem == m->tile_mem && mi.workers == m->threads &&
	      mi.clock_khz == m->clock_khz) TH_LOG("model");
	ASSERT_TRUE(run(e, 1, NULL) == 0) TH_LOG("empty sequence");
	ipue_engine_reset(e);
	ASSERT_TRUE(!ipue_loaded(e) && run(e, 0, NULL) == IPUE_ENOGRAPH) TH_LOG("reset drops the graph");
	gw_free(w);
	ipue_engine_destroy(e);
}

static uint64_t rss_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long size = 0, res = 0;

	if (f) {
		if (fscanf(f, "%lu %lu", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* lazy tile memory (gc200, 10% graph) */
TEST(lazy_memory)
{
	struct ipue_engine *e = NULL;
	struct gw *w = gw_new(IPU_MODEL_GC200);
	struct ipue_mem_stats ms;
	const uint32_t tiles = ipu_model_by_id(IPU_MODEL_GC200)->tiles;
	uint32_t per = ipu_model_by_id(IPU_MODEL_GC200)->tile_mem / 10 / 4 * 4;
	uint64_t rss0, rss1, planned = (uint64_t)per * tiles;
	uint8_t *buf = NULL;
	int h;

	rss0 = rss_bytes();
	e = mk(IPU_MODEL_GC200, 2);
	ASSERT_NE(NULL, e) TH_LOG("create");
	ASSERT_TRUE(ipue_resident_bytes(e) == 0) TH_LOG("empty engine reports %llu bytes",
	      (unsigned long long)ipue_resident_bytes(e));
	ASSERT_TRUE(rss_bytes() - rss0 < 1024 * 1024) TH_LOG("engine creation grew RSS by %llu",
	      (unsigned long long)(rss_bytes() - rss0));
	for (uint32_t t = 0; t < tiles; t++)
		gw_plan(w, t, per);
	gw_handle(w, "t0", gw_tensor1(w, "t0", I32, per / 4, 0, 0), RW);
	ASSERT_TRUE(load(e, w, NULL) == 0) TH_LOG("load");
	ipue_mem_stats(e, &ms);
	ASSERT_TRUE(ms.tile_bytes_planned == planned) TH_LOG("planned %llu", (unsigned long long)ms.tile_bytes_planned);
	ASSERT_TRUE(ms.tile_bytes_reserved <= planned + tiles * 64 + 4096) TH_LOG("reserved %llu for %llu planned", (unsigned long long)ms.tile_bytes_reserved,
	      (unsigned long long)planned);
	ASSERT_TRUE(ms.tile_bytes_resident < 1024 * 1024) TH_LOG("untouched tiles resident: %llu",
	      (unsigned long long)ms.tile_bytes_resident);
	h = ipue_handle_find(e, "t0");
	buf = calloc(1, per);
	memset(buf, 0x5a, per);
	ASSERT_TRUE(ipue_tensor_write(e, (unsigned)h, 0, buf, per) == 0) TH_LOG("write");
	ipue_mem_stats(e, &ms);
	ASSERT_TRUE(ms.tile_bytes_resident >= per && ms.tile_bytes_resident < per + 3 * 4096) TH_LOG("after writing %u bytes resident %llu", per, (unsigned long long)ms.tile_bytes_resident);
	rss1 = rss_bytes();
	ASSERT_TRUE(rss1 - rss0 < 8u * 1024 * 1024) TH_LOG("RSS grew %llu bytes for a 10%% graph before use",
	      (unsigned long long)(rss1 - rss0));
	ipue_engine_reset(e);
	ipue_mem_stats(e, &ms);
	ASSERT_TRUE(ms.tile_bytes_reserved == 0 && ipue_resident_bytes(e) == 0) TH_LOG("reset frees tiles");
	free(buf);
	gw_free(w);
	ipue_engine_destroy(e);
}

/* the real codelet library through the default lookup: out = a + b (f32) */
TEST(library_codelet)
{
	struct ipue_config cfg = { .model = IPU_MODEL_TEST, .host_threads = 2 };
	struct ipue_engine *e = NULL;
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_field f[3] = {
		{ .tile_offset = 0, .count = 8, .dtype = IPU_DTYPE_F32 },
		{ .tile_offset = 32, .count = 8, .dtype = IPU_DTYPE_F32 },
		{ .tile_offset = 64, .count = 8, .dtype = IPU_DTYPE_F32 },
	};
	float a[8], b[8], out[8];
	struct ipue_run_stats st;
	struct ipue_load_error err;
	uint32_t v;
	int rc;

	ASSERT_TRUE(ipue_engine_create(&cfg, &e) == 0) TH_LOG("create");
	gw_plan(w, 5, 96);
	gw_handle(w, "a", gw_tensor1(w, "a", IPU_DTYPE_F32, 8, 5, 0), RW);
	gw_handle(w, "b", gw_tensor1(w, "b", IPU_DTYPE_F32, 8, 5, 32), RW);
	gw_handle(w, "out", gw_tensor1(w, "out", IPU_DTYPE_F32, 8, 5, 64), IPU_HANDLE_READ);
	v = gw_vertex(w, IPUE_CODELET_BINARY(IPUE_BOP_ADD), 5, 3, f, 0, NULL);
	gw_entry(w, "add", exec_cs(w, 1, &v));
	rc = load(e, w, &err);
	ASSERT_TRUE(rc == 0) TH_LOG("load: %s: %s", err.section_name, err.message);
	for (int i = 0; i < 8; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = 100.0f - (float)i;
	}
	ASSERT_TRUE(ipue_tensor_write(e, 0, 0, a, sizeof(a)) == 0 &&
	      ipue_tensor_write(e, 1, 0, b, sizeof(b)) == 0) TH_LOG("write");
	ASSERT_TRUE(run(e, 0, &st) == 0) TH_LOG("run");
	ASSERT_TRUE(ipue_tensor_read(e, 2, 0, out, sizeof(out)) == 0) TH_LOG("read");
	for (int i = 0; i < 8; i++) {
		ASSERT_TRUE(out[i] == a[i] + b[i]) TH_LOG("out[%d] = %g, want %g", i, out[i], a[i] + b[i]);
	}
	ASSERT_TRUE(st.cycles_compute > 0) TH_LOG("library codelet reports no cycles");
	gw_free(w);
	ipue_engine_destroy(e);
}

/* the container checksum is zlib's crc32(): its check value, and pieces chain */
TEST(checksum_crc32)
{
	uint8_t b[1031];
	uint32_t whole, c = 0;

	ASSERT_EQ(0xcbf43926u, ipu_graph_crc32(0, "123456789", 9));
	ASSERT_EQ(0u, ipu_graph_crc32(0, NULL, 0));
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 131 + 7);
	whole = ipu_graph_crc32(0, b, sizeof(b));
	for (size_t at = 0, step = 1; at < sizeof(b); at += step, step = step * 2 + 1)
		c = ipu_graph_crc32(c, b + at, at + step > sizeof(b) ? sizeof(b) - at : step);
	ASSERT_EQ(whole, c);
}

/* every prefix of a valid binary is rejected cleanly */
TEST(truncations)
{
	size_t len;
	uint8_t *bin = ring_graph(&len);
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct ipue_load_error err;
	size_t step = len / 997 + 1;

	for (size_t n = 0; n < len; n += (n < 512 ? 1 : step)) {
		int rc = ipue_load(e, bin, n, &err);

		ASSERT_TRUE(rc == IPUE_EFORMAT && !strcmp(err.section_name, "header")) TH_LOG("prefix %zu: rc %d section %s", n, rc, err.section_name);
	}
	ASSERT_TRUE(ipue_load(e, bin, len, &err) == 0) TH_LOG("full binary: %s", err.message);
	free(bin);
	ipue_engine_destroy(e);
}

/* ------------------------------------------------------------ negative */

/*
 * Base graph for negative cases: tiles 0 and 1 with 256 bytes; tensors
 * a (tile 0 @0, 16 i32), b (tile 1 @0, 16 i32), flag (tile 0 @128);
 * vertex 0 adds to a; cs 0 = [v0]; exchange 0 copies a -> b; stream 0
 * h2d of 16 i32; program node 0 = execute, 1 = copy, 2 = seq [0, 1].
 */
static void base(struct gw *w)
{
	struct ipu_graph_copy c = { .src_tile = 0, .dst_tile = 1, .bytes = 64 };
	uint32_t v, k[2];

	gw_plan(w, 0, 256);
	gw_plan(w, 1, 256);
	gw_handle(w, "a", gw_tensor1(w, "a", I32, 16, 0, 0), RW);
	gw_handle(w, "b", gw_tensor1(w, "b", I32, 16, 1, 0), RW);
	gw_tensor1(w, "flag", I32, 1, 0, 128);
	gw_stream(w, "s", IPU_STREAM_HOST_TO_DEVICE, I32, 2, 16);
	v = v_add(w, 0, 0, 16, 1);
	k[0] = exec_cs(w, 1, &v);
	k[1] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "a->b", 1, &c), 0, 0);
	gw_entry(w, "main", gw_seq(w, 2, k));
	gw_meta(w, "k", "v");
}

#define R(type, T, i) ((T *)gw_rec(w, IPU_GRAPH_SEC_##type, i))

static void m_none(struct gw *w) { (void)w; }
static void m_plan_big(struct gw *w) { R(TILE_PLANS, struct ipu_graph_tile_plan, 0)->bytes = ipu_model_by_id(IPU_MODEL_TEST)->tile_mem + 4; }
static void m_plan_tile(struct gw *w) { R(TILE_PLANS, struct ipu_graph_tile_plan, 1)->tile = ipu_model_by_id(IPU_MODEL_TEST)->tiles; }
static void m_plan_dup(struct gw *w) { gw_plan(w, 1, 16); }
static void m_t_dtype(struct gw *w) { R(TENSORS, struct ipu_graph_tensor, 0)->dtype = 9; }
static void m_t_rank(struct gw *w) { R(TENSORS, struct ipu_graph_tensor, 0)->rank = 7; }
static void m_t_elems(struct gw *w) { R(TENSORS, struct ipu_graph_tensor, 0)->elements = 17; }
static void m_t_shape_tail(struct gw *w) { R(TENSORS, struct ipu_graph_tensor, 0)->shape[3] = 1; }
static void m_t_name(struct gw *w) { R(TENSORS, struct ipu_graph_tensor, 0)->name = 1u << 30; }
static void m_iv_gap(struct gw *w) { R(INTERVALS, struct ipu_graph_interval, 0)->begin = 1; }
static void m_iv_short(struct gw *w) { R(INTERVALS, struct ipu_graph_interval, 0)->count = 15; }
static void m_iv_outside(struct gw *w) { R(INTERVALS, struct ipu_graph_interval, 1)->tile_offset = 240; }
static void m_iv_misaligned(struct gw *w) { R(INTERVALS, struct ipu_graph_interval, 1)->tile_offset = 2; }
static void m_iv_notile(struct gw *w) { R(INTERVALS, struct ipu_graph_interval, 1)->tile = 5; }
static void m_iv_range(struct gw *w) { R(TENSORS, struct ipu_graph_tensor, 1)->first_interval = 0; }
static void m_v_codelet(struct gw *w) { R(VERTICES, struct ipu_graph_vertex, 0)->codelet = 0x6fff; }
static void m_v_tile(struct gw *w) { R(VERTICES, struct ipu_graph_vertex, 0)->tile = 999; }
static void m_v_nfields(struct gw *w) { R(VERTICES, struct ipu_graph_vertex, 0)->nfields = 0; }
static void m_v_nparams(struct gw *w) { R(VERTICES, struct ipu_graph_vertex, 0)->nparams = 0; }
static void m_v_fieldrange(struct gw *w) { R(VERTICES, struct ipu_graph_vertex, 0)->first_field = 1; }
static void m_f_dtype(struct gw *w) { R(FIELDS, struct ipu_graph_field, 0)->dtype = IPU_DTYPE_F32; }
static void m_f_outside(struct gw *w) { R(FIELDS, struct ipu_graph_field, 0)->count = 65; }
static void m_f_misaligned(struct gw *w) { R(FIELDS, struct ipu_graph_field, 0)->tile_offset = 1; }
static void m_f_othertile(struct gw *w) { R(VERTICES, struct ipu_graph_vertex, 0)->tile = 4; }
static void m_f_scalar(struct gw *w)
{
	struct ipu_graph_field f[2] = { fld(0, 4), fld(128, 2) };

	gw_vertex(w, TC_ADD_S, 0, 2, f, 0, NULL);
}
static void m_check(struct gw *w)
{
	struct ipu_graph_field f = fld(0, 3);

	gw_vertex(w, TC_EVEN, 0, 1, &f, 0, NULL);
}
static void m_cs_vid(struct gw *w) { *R(CS_VERTICES, uint32_t, 0) = 7; }
static void m_cs_ww(struct gw *w)
{
	uint32_t v[2] = { 0, v_add(w, 0, 60, 1, 1) };

	gw_cs(w, "ww", 2, v);
}
static void m_cs_rw(struct gw *w)
{
	struct ipu_graph_field f[2] = { fld(32, 4), fld(192, 4) };
	uint32_t v[2] = { 0, gw_vertex(w, TC_COPY, 0, 2, f, 0, NULL) };

	gw_cs(w, "rw", 2, v);
}
static void m_cs_twice(struct gw *w)
{
	uint32_t v[2] = { 0, 0 };

	gw_cs(w, "twice", 2, v);
}
static void m_cs_range(struct gw *w) { R(COMPUTE_SETS, struct ipu_graph_compute_set, 0)->count = 2; }
static void m_cp_outside(struct gw *w) { R(COPIES, struct ipu_graph_copy, 0)->bytes = 300; }
static void m_cp_tile(struct gw *w) { R(COPIES, struct ipu_graph_copy, 0)->dst_tile = 2; }
static void m_cp_dstdst(struct gw *w)
{
	struct ipu_graph_copy c[2] = { { .src_tile = 0, .dst_tile = 1, .dst_offset = 64, .bytes = 64 },
				       { .src_tile = 0, .src_offset = 64, .dst_tile = 1,
					 .dst_offset = 120, .bytes = 8 } };

	gw_exchange(w, "dd", 2, c);
}
static void m_cp_dstsrc(struct gw *w)
{
	struct ipu_graph_copy c[2] = { { .src_tile = 0, .dst_tile = 1, .bytes = 64 },
				       { .src_tile = 1, .src_offset = 32, .dst_tile = 0,
					 .dst_offset = 64, .bytes = 64 } };

	gw_exchange(w, "ds", 2, c);
}
static void m_p_kind(struct gw *w) { R(PROGRAM_NODES, struct ipu_graph_prog_node, 0)->kind = 99; }
static void m_p_flags(struct gw *w) { R(PROGRAM_NODES, struct ipu_graph_prog_node, 0)->flags = 1; }
static void m_p_cs(struct gw *w) { R(PROGRAM_NODES, struct ipu_graph_prog_node, 0)->a = 1; }
static void m_p_ex(struct gw *w) { R(PROGRAM_NODES, struct ipu_graph_prog_node, 1)->a = 3; }
static void m_p_children(struct gw *w) { R(PROGRAM_NODES, struct ipu_graph_prog_node, 2)->b = 3; }
static void m_p_child_id(struct gw *w) { *R(PROGRAM_CHILDREN, uint32_t, 1) = 50; }
static void m_p_cycle(struct gw *w) { *R(PROGRAM_CHILDREN, uint32_t, 1) = 2; }
static void m_p_deep(struct gw *w)
{
	uint32_t n = 0;

	for (int i = 0; i < 70; i++)
		n = gw_node(w, IPU_PROG_REPEAT, 1, n, 0);
	gw_entry(w, "deep", n);
}
static void m_p_notscalar(struct gw *w) { gw_node(w, IPU_PROG_IF, 0, 0, NONE); }
static void m_p_abort_scalar(struct gw *w) { gw_node(w, IPU_PROG_ABORT_ON_CONDITION, 9, 1, 0); }
static void m_p_rwt_body(struct gw *w) { gw_node(w, IPU_PROG_REPEAT_WHILE_TRUE, 2, NONE, NONE); }
static void m_p_sc_dir(struct gw *w) { gw_node(w, IPU_PROG_STREAM_COPY, 0, 0, IPU_STREAM_DEVICE_TO_HOST); }
static void m_p_sc_size(struct gw *w) { gw_node(w, IPU_PROG_STREAM_COPY, 0, 2, IPU_STREAM_HOST_TO_DEVICE); }
static void m_p_entry(struct gw *w) { R(ENTRIES, struct ipu_graph_entry, 0)->node = 3; }
static void m_s_depth0(struct gw *w) { R(STREAMS, struct ipu_graph_stream, 0)->depth = 0; }
static void m_s_depth(struct gw *w) { R(STREAMS, struct ipu_graph_stream, 0)->depth = 17; }
static void m_s_elems0(struct gw *w) { R(STREAMS, struct ipu_graph_stream, 0)->elements = 0; }
static void m_s_dir(struct gw *w) { R(STREAMS, struct ipu_graph_stream, 0)->direction = 3; }
static void m_s_huge(struct gw *w) { R(STREAMS, struct ipu_graph_stream, 0)->elements = 0xffffffffu; }
static void m_h_dup(struct gw *w) { gw_handle(w, "a", 1, IPU_HANDLE_READ); }
static void m_h_tensor(struct gw *w) { gw_handle(w, "z", 3, IPU_HANDLE_READ); }
static void m_h_access(struct gw *w) { gw_handle(w, "z", 1, 4); }
static void m_meta(struct gw *w) { R(METADATA, struct ipu_graph_kv, 0)->value = 100000; }
static void m_init(struct gw *w) { gw_init(w, 1, 250, 8, "12345678"); }
static void m_init_data(struct gw *w)
{
	gw_init(w, 0, 0, 4, "1234");
	R(INIT, struct ipu_graph_init, 0)->data_offset = 2;
}
#define GR IPU_GRAPH_GUARD_READS
static void m_g_ok(struct gw *w) { gw_guard(w, 0, 0, IPU_GRAPH_GUARD_WRITES); gw_guard(w, 0, 1, IPU_GRAPH_GUARD_WRITES); }
static void m_g_prog(struct gw *w) { gw_guard(w, 1, 0, GR); }
static void m_g_handle(struct gw *w) { gw_guard(w, 0, 5, GR); }
static void m_g_access(struct gw *w) { gw_guard(w, 0, gw_handle(w, "r", 2, IPU_HANDLE_READ), GR); }
static void m_g_flags(struct gw *w) { gw_guard(w, 0, 0, 4); }
static void m_g_noflags(struct gw *w) { gw_guard(w, 0, 0, 0); }
static void m_g_order(struct gw *w) { gw_guard(w, 0, 1, GR); gw_guard(w, 0, 0, GR); }
static void m_g_dup(struct gw *w) { gw_guard(w, 0, 0, GR); gw_guard(w, 0, 0, GR); }
/* a memory_regions section of one record: the builder's plan, validated then ignored */
static void region(struct gw *w, uint32_t tile, uint32_t off, uint32_t bytes, uint32_t flags,
		   uint32_t first, uint32_t last)
{
	struct ipu_graph_mem_region mr = { tile, off, bytes, flags, first, last };

	gw_raw_section(w, IPU_GRAPH_SEC_MEMORY_REGIONS, 0, sizeof(mr), &mr, sizeof(mr));
}
static void m_region_ok(struct gw *w) { region(w, 1, 0, 64, IPU_GRAPH_REGION_TENSOR, 1, 2); }
static void m_region_range(struct gw *w) { region(w, 0, 250, 16, 0, 1, 1); }
static void m_region_tile(struct gw *w) { region(w, 5, 0, 4, 0, 1, 1); }
static void m_region_flags(struct gw *w) { region(w, 0, 0, 4, 8, 1, 1); }
static void m_region_steps(struct gw *w) { region(w, 0, 0, 4, 0, 3, 2); }
static void m_unknown_sec(struct gw *w) { gw_raw_section(w, 1000, 0, 1, "future", 6); }
static void m_unknown_req(struct gw *w)
{
	gw_raw_section(w, 1000, IPU_GRAPH_SECF_REQUIRED, 1, "future", 6);
}

/* binary-level mutations (header, section table) */
static void b_magic(uint8_t *b, size_t *n) { (void)n; b[0] ^= 1; gw_fix_checksum(b, *n); }
static void b_version(uint8_t *b, size_t *n) { b[4] = 2; gw_fix_checksum(b, *n); }
static void b_checksum(uint8_t *b, size_t *n) { b[*n - 1] ^= 0x40; }
static void b_total(uint8_t *b, size_t *n) { b[16] += 8; gw_fix_checksum(b, *n); }
static void b_model(uint8_t *b, size_t *n) { b[12] = IPU_MODEL_GC200; gw_fix_checksum(b, *n); }
static void b_flags(uint8_t *b, size_t *n) { b[44] = 1; gw_fix_checksum(b, *n); }
static void b_codelet_ver(uint8_t *b, size_t *n) { b[52] = 200; gw_fix_checksum(b, *n); }
static void b_nsec(uint8_t *b, size_t *n) { b[32] = 65; gw_fix_checksum(b, *n); }
static void b_sec_bounds(uint8_t *b, size_t *n)
{
	struct ipu_graph_section s;

	memcpy(&s, b + 64, sizeof(s));
	s.offset = *n - 8;
	memcpy(b + 64, &s, sizeof(s));
	gw_fix_checksum(b, *n);
}
static void b_sec_align(uint8_t *b, size_t *n)
{
	struct ipu_graph_section s;

	memcpy(&s, b + 64, sizeof(s));
	s.offset += 4;
	memcpy(b + 64, &s, sizeof(s));
	gw_fix_checksum(b, *n);
}
static void b_sec_size(uint8_t *b, size_t *n)
{
	struct ipu_graph_section s;

	memcpy(&s, b + 96, sizeof(s));
	s.count += 1;
	memcpy(b + 96, &s, sizeof(s));
	gw_fix_checksum(b, *n);
}
static void b_sec_overlap(uint8_t *b, size_t *n)
{
	struct ipu_graph_section s0, s1;

	memcpy(&s0, b + 64, sizeof(s0));
	memcpy(&s1, b + 96, sizeof(s1));
	s1.offset = s0.offset;
	memcpy(b + 96, &s1, sizeof(s1));
	gw_fix_checksum(b, *n);
}
static void b_sec_dup(uint8_t *b, size_t *n)
{
	struct ipu_graph_section s0, s1;

	memcpy(&s0, b + 64, sizeof(s0));
	memcpy(&s1, b + 96, sizeof(s1));
	s1.type = s0.type;
	s1.entsize = s0.entsize;
	s1.count = (uint32_t)(s1.size / s0.entsize);
	s1.size = (uint64_t)s1.count * s1.entsize;
	memcpy(b + 96, &s1, sizeof(s1));
	gw_fix_checksum(b, *n);
}
static void b_sec_entsize(uint8_t *b, size_t *n)
{
	struct ipu_graph_section s;

	memcpy(&s, b + 96, sizeof(s));	/* tensors: entsize 48 -> 24 */
	s.entsize /= 2;
	s.count *= 2;
	memcpy(b + 96, &s, sizeof(s));
	gw_fix_checksum(b, *n);
}
/* the strings blob loses its final NUL: the last string (a metadata value) runs off the end */
static void b_str_unterminated(uint8_t *b, size_t *n)
{
	struct ipu_graph_header h;

	memcpy(&h, b, sizeof(h));
	for (uint32_t i = 0; i < h.section_count; i++) {
		struct ipu_graph_section s;

		memcpy(&s, b + h.section_table + i * sizeof(s), sizeof(s));
		if (s.type == IPU_GRAPH_SEC_STRINGS)
			b[s.offset + s.size - 1] = 'x';
	}
	gw_fix_checksum(b, *n);
}
static void b_trunc(uint8_t *b, size_t *n) { (void)b; *n -= 8; }

FIXTURE(loader) {};
FIXTURE_SETUP(loader) {}
FIXTURE_TEARDOWN(loader) {}

/* one loader case: a mutation and the verdict it must get */
FIXTURE_VARIANT(loader) {
	const char *name;
	void (*mut)(struct gw *w);
	void (*bmut)(uint8_t *b, size_t *n);
	int status;		/* expected */
	const char *section;	/* expected section_name, NULL = any */
	const char *word;	/* expected in the message, NULL = any */
};

FIXTURE_VARIANT_ADD(loader, none) { "base graph loads", m_none, NULL, 0, NULL, NULL };
FIXTURE_VARIANT_ADD(loader, unknown_sec) { "unknown section skipped", m_unknown_sec, NULL, 0, NULL, NULL };
FIXTURE_VARIANT_ADD(loader, unknown_req) { "unknown required section", m_unknown_req, NULL, IPUE_EFORMAT, "header", "required" };
FIXTURE_VARIANT_ADD(loader, magic) { "bad magic", m_none, b_magic, IPUE_EFORMAT, "header", "magic" };
FIXTURE_VARIANT_ADD(loader, version) { "bad major version", m_none, b_version, IPUE_EFORMAT, "header", "version" };
FIXTURE_VARIANT_ADD(loader, checksum) { "bad checksum", m_none, b_checksum, IPUE_EFORMAT, "header", "checksum" };
FIXTURE_VARIANT_ADD(loader, total) { "total size mismatch", m_none, b_total, IPUE_EFORMAT, "header", "size" };
FIXTURE_VARIANT_ADD(loader, trunc) { "truncated", m_none, b_trunc, IPUE_EFORMAT, "header", "truncated" };
FIXTURE_VARIANT_ADD(loader, model) { "other model", m_none, b_model, IPUE_EMODEL, "header", "model" };
FIXTURE_VARIANT_ADD(loader, flags) { "header flags", m_none, b_flags, IPUE_EFORMAT, "header", "flags" };
FIXTURE_VARIANT_ADD(loader, codelet_ver) { "newer codelet library", m_none, b_codelet_ver, IPUE_EFORMAT, "header", "codelet" };
FIXTURE_VARIANT_ADD(loader, nsec) { "too many sections", m_none, b_nsec, IPUE_EFORMAT, "header", "sections" };
FIXTURE_VARIANT_ADD(loader, sec_bounds) { "section outside binary", m_none, b_sec_bounds, IPUE_EFORMAT, "header", "outside" };
FIXTURE_VARIANT_ADD(loader, sec_align) { "section misaligned", m_none, b_sec_align, IPUE_EFORMAT, "header", "aligned" };
FIXTURE_VARIANT_ADD(loader, sec_size) { "section size != entsize*count", m_none, b_sec_size, IPUE_EFORMAT, "header", "entsize" };
FIXTURE_VARIANT_ADD(loader, sec_overlap) { "sections overlap", m_none, b_sec_overlap, IPUE_EFORMAT, "header", "overlaps" };
FIXTURE_VARIANT_ADD(loader, sec_dup) { "duplicate section", m_none, b_sec_dup, IPUE_EFORMAT, NULL, "duplicate" };
FIXTURE_VARIANT_ADD(loader, sec_entsize) { "entsize too small", m_none, b_sec_entsize, IPUE_EFORMAT, "tensors", "entsize" };
FIXTURE_VARIANT_ADD(loader, str_unterminated) { "string not terminated", m_none, b_str_unterminated, IPUE_EFORMAT, "metadata", "string" };
FIXTURE_VARIANT_ADD(loader, plan_big) { "tile plan over tile memory", m_plan_big, NULL, IPUE_EFORMAT, "tile_plans", "tile memory" };
FIXTURE_VARIANT_ADD(loader, plan_tile) { "tile plan tile out of range", m_plan_tile, NULL, IPUE_EFORMAT, "tile_plans", "out of range" };
FIXTURE_VARIANT_ADD(loader, plan_dup) { "two plans for a tile", m_plan_dup, NULL, IPUE_EFORMAT, "tile_plans", "two plans" };
FIXTURE_VARIANT_ADD(loader, t_dtype) { "tensor unknown dtype", m_t_dtype, NULL, IPUE_EFORMAT, "tensors", "dtype" };
FIXTURE_VARIANT_ADD(loader, t_rank) { "tensor rank too big", m_t_rank, NULL, IPUE_EFORMAT, "tensors", "rank" };
FIXTURE_VARIANT_ADD(loader, t_elems) { "tensor elements != shape", m_t_elems, NULL, IPUE_EFORMAT, "tensors", "product" };
FIXTURE_VARIANT_ADD(loader, t_shape_tail) { "tensor shape beyond rank", m_t_shape_tail, NULL, IPUE_EFORMAT, "tensors", "beyond rank" };
FIXTURE_VARIANT_ADD(loader, t_name) { "tensor name out of range", m_t_name, NULL, IPUE_EFORMAT, "tensors", "name" };
FIXTURE_VARIANT_ADD(loader, iv_gap) { "interval gap", m_iv_gap, NULL, IPUE_EFORMAT, "intervals", "expected" };
FIXTURE_VARIANT_ADD(loader, iv_short) { "intervals cover too little", m_iv_short, NULL, IPUE_EFORMAT, "tensors", "cover" };
FIXTURE_VARIANT_ADD(loader, iv_outside) { "interval outside tile plan", m_iv_outside, NULL, IPUE_EFORMAT, "intervals", "outside" };
FIXTURE_VARIANT_ADD(loader, iv_misaligned) { "interval misaligned", m_iv_misaligned, NULL, IPUE_EFORMAT, "intervals", "misaligned" };
FIXTURE_VARIANT_ADD(loader, iv_notile) { "interval on a tile without memory", m_iv_notile, NULL, IPUE_EFORMAT, "intervals", "outside" };
FIXTURE_VARIANT_ADD(loader, iv_range) { "tensor interval range reused", m_iv_range, NULL, IPUE_EFORMAT, "tensors", "must start" };
FIXTURE_VARIANT_ADD(loader, v_codelet) { "unknown codelet", m_v_codelet, NULL, IPUE_EFORMAT, "vertices", "unknown codelet" };
FIXTURE_VARIANT_ADD(loader, v_tile) { "vertex tile out of range", m_v_tile, NULL, IPUE_EFORMAT, "vertices", "out of range" };
FIXTURE_VARIANT_ADD(loader, v_nfields) { "vertex field count", m_v_nfields, NULL, IPUE_EFORMAT, "vertices", "fields" };
FIXTURE_VARIANT_ADD(loader, v_nparams) { "vertex param count", m_v_nparams, NULL, IPUE_EFORMAT, "vertices", "params" };
FIXTURE_VARIANT_ADD(loader, v_fieldrange) { "vertex field range", m_v_fieldrange, NULL, IPUE_EFORMAT, "vertices", "out of range" };
FIXTURE_VARIANT_ADD(loader, f_dtype) { "field dtype not accepted", m_f_dtype, NULL, IPUE_EFORMAT, "vertices", "dtype" };
FIXTURE_VARIANT_ADD(loader, f_outside) { "field outside tile memory", m_f_outside, NULL, IPUE_EFORMAT, "vertices", "outside" };
FIXTURE_VARIANT_ADD(loader, f_misaligned) { "field misaligned", m_f_misaligned, NULL, IPUE_EFORMAT, "vertices", "misaligned" };
FIXTURE_VARIANT_ADD(loader, f_othertile) { "field on a tile without memory", m_f_othertile, NULL, IPUE_EFORMAT, "vertices", "outside" };
FIXTURE_VARIANT_ADD(loader, f_scalar) { "scalar field with 2 elements", m_f_scalar, NULL, IPUE_EFORMAT, "vertices", "scalar" };
FIXTURE_VARIANT_ADD(loader, check) { "codelet check() rejects", m_check, NULL, IPUE_EFORMAT, "vertices", "odd count" };
FIXTURE_VARIANT_ADD(loader, cs_vid) { "compute set vertex id", m_cs_vid, NULL, IPUE_EFORMAT, "cs_vertices", "out of range" };
FIXTURE_VARIANT_ADD(loader, cs_ww) { "compute set write/write overlap", m_cs_ww, NULL, IPUE_EFORMAT, "compute_sets", "overlapping" };
FIXTURE_VARIANT_ADD(loader, cs_rw) { "compute set write/read overlap", m_cs_rw, NULL, IPUE_EFORMAT, "compute_sets", "overlapping" };
FIXTURE_VARIANT_ADD(loader, cs_twice) { "compute set lists a writer twice", m_cs_twice, NULL, IPUE_EFORMAT, "compute_sets", "overlapping" };
FIXTURE_VARIANT_ADD(loader, cs_range) { "compute set range", m_cs_range, NULL, IPUE_EFORMAT, "compute_sets", "lie in" };
FIXTURE_VARIANT_ADD(loader, cp_outside) { "copy outside tile plan", m_cp_outside, NULL, IPUE_EFORMAT, "copies", "outside" };
FIXTURE_VARIANT_ADD(loader, cp_tile) { "copy to a tile without memory", m_cp_tile, NULL, IPUE_EFORMAT, "copies", "outside" };
FIXTURE_VARIANT_ADD(loader, cp_dstdst) { "copy destinations overlap", m_cp_dstdst, NULL, IPUE_EFORMAT, "copies", "another destination" };
FIXTURE_VARIANT_ADD(loader, cp_dstsrc) { "copy destination overlaps a source", m_cp_dstsrc, NULL, IPUE_EFORMAT, "copies", "a source" };
FIXTURE_VARIANT_ADD(loader, p_kind) { "program node kind", m_p_kind, NULL, IPUE_EFORMAT, "program_nodes", "unknown kind" };
FIXTURE_VARIANT_ADD(loader, p_flags) { "program node flags", m_p_flags, NULL, IPUE_EFORMAT, "program_nodes", "flags" };
FIXTURE_VARIANT_ADD(loader, p_cs) { "execute compute set id", m_p_cs, NULL, IPUE_EFORMAT, "program_nodes", "compute set" };
FIXTURE_VARIANT_ADD(loader, p_ex) { "copy exchange id", m_p_ex, NULL, IPUE_EFORMAT, "program_nodes", "exchange" };
FIXTURE_VARIANT_ADD(loader, p_children) { "sequence children range", m_p_children, NULL, IPUE_EFORMAT, "program_nodes", "children" };
FIXTURE_VARIANT_ADD(loader, p_child_id) { "child node id", m_p_child_id, NULL, IPUE_EFORMAT, "program_children", "out of range" };
FIXTURE_VARIANT_ADD(loader, p_cycle) { "program cycle", m_p_cycle, NULL, IPUE_EFORMAT, "program_nodes", "cycle" };
FIXTURE_VARIANT_ADD(loader, p_deep) { "program nesting > 64", m_p_deep, NULL, IPUE_EFORMAT, "program_nodes", "deeper" };
FIXTURE_VARIANT_ADD(loader, p_notscalar) { "if on a non-scalar", m_p_notscalar, NULL, IPUE_EFORMAT, "program_nodes", "scalar" };
FIXTURE_VARIANT_ADD(loader, p_abort_scalar) { "abort-on-condition tensor id", m_p_abort_scalar, NULL, IPUE_EFORMAT, "program_nodes", "scalar" };
FIXTURE_VARIANT_ADD(loader, p_rwt_body) { "repeat-while body none", m_p_rwt_body, NULL, IPUE_EFORMAT, "program_nodes", "body" };
FIXTURE_VARIANT_ADD(loader, p_sc_dir) { "stream copy direction", m_p_sc_dir, NULL, IPUE_EFORMAT, "program_nodes", "direction" };
FIXTURE_VARIANT_ADD(loader, p_sc_size) { "stream copy size mismatch", m_p_sc_size, NULL, IPUE_EFORMAT, "program_nodes", "does not match" };
FIXTURE_VARIANT_ADD(loader, p_entry) { "entry node id", m_p_entry, NULL, IPUE_EFORMAT, "entries", "out of range" };
FIXTURE_VARIANT_ADD(loader, s_depth0) { "stream depth 0", m_s_depth0, NULL, IPUE_EFORMAT, "streams", "depth" };
FIXTURE_VARIANT_ADD(loader, s_depth) { "stream depth 17", m_s_depth, NULL, IPUE_EFORMAT, "streams", "depth" };
FIXTURE_VARIANT_ADD(loader, s_elems0) { "stream of 0 elements", m_s_elems0, NULL, IPUE_EFORMAT, "streams",
					"0 elements" };
FIXTURE_VARIANT_ADD(loader, s_dir) { "stream direction", m_s_dir, NULL, IPUE_EFORMAT, "streams", "direction" };
FIXTURE_VARIANT_ADD(loader, s_huge) { "stream bigger than the chip", m_s_huge, NULL, IPUE_EFORMAT, "streams", "exceed" };
FIXTURE_VARIANT_ADD(loader, h_dup) { "duplicate handle name", m_h_dup, NULL, IPUE_EFORMAT, "host_handles", "duplicate" };
FIXTURE_VARIANT_ADD(loader, h_tensor) { "handle tensor id", m_h_tensor, NULL, IPUE_EFORMAT, "host_handles", "out of range" };
FIXTURE_VARIANT_ADD(loader, h_access) { "handle access bits", m_h_access, NULL, IPUE_EFORMAT, "host_handles", "access" };
FIXTURE_VARIANT_ADD(loader, meta) { "metadata string", m_meta, NULL, IPUE_EFORMAT, "metadata", "string" };
FIXTURE_VARIANT_ADD(loader, g_ok) { "guards load", m_g_ok, NULL, 0, NULL, NULL };
FIXTURE_VARIANT_ADD(loader, g_prog) { "guard program", m_g_prog, NULL, IPUE_EFORMAT, "input_guards", "program 1 out of range" };
FIXTURE_VARIANT_ADD(loader, g_handle) { "guard handle", m_g_handle, NULL, IPUE_EFORMAT, "input_guards", "handle 5 out of range" };
FIXTURE_VARIANT_ADD(loader, g_access) { "guard read-only handle", m_g_access, NULL, IPUE_EFORMAT, "input_guards", "not host-writable" };
FIXTURE_VARIANT_ADD(loader, g_flags) { "guard flags", m_g_flags, NULL, IPUE_EFORMAT, "input_guards", "bad flags 0x4" };
FIXTURE_VARIANT_ADD(loader, g_noflags) { "guard no flags", m_g_noflags, NULL, IPUE_EFORMAT, "input_guards", "bad flags 0x0" };
FIXTURE_VARIANT_ADD(loader, g_order) { "guard order", m_g_order, NULL, IPUE_EFORMAT, "input_guards", "ascending" };
FIXTURE_VARIANT_ADD(loader, g_dup) { "guard twice", m_g_dup, NULL, IPUE_EFORMAT, "input_guards", "ascending" };
FIXTURE_VARIANT_ADD(loader, init) { "init outside tile plan", m_init, NULL, IPUE_EFORMAT, "init", "outside" };
FIXTURE_VARIANT_ADD(loader, region_ok) { "memory region loads", m_region_ok, NULL, 0, NULL, NULL };
FIXTURE_VARIANT_ADD(loader, region_range) { "memory region outside plan", m_region_range, NULL, IPUE_EFORMAT, "memory_regions", "outside" };
FIXTURE_VARIANT_ADD(loader, region_tile) { "memory region tile without plan", m_region_tile, NULL, IPUE_EFORMAT, "memory_regions", "no plan" };
FIXTURE_VARIANT_ADD(loader, region_flags) { "memory region flags", m_region_flags, NULL, IPUE_EFORMAT, "memory_regions", "flags" };
FIXTURE_VARIANT_ADD(loader, region_steps) { "memory region steps", m_region_steps, NULL, IPUE_EFORMAT, "memory_regions", "reversed" };
FIXTURE_VARIANT_ADD(loader, init_data) { "init data outside data section", m_init_data, NULL, IPUE_EFORMAT, "init", "data" };

/* the base graph with one mutation: rejected by the rule under test, or loaded */
TEST_F(loader, load)
{
	const FIXTURE_VARIANT(loader) *n = variant;
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipue_load_error err;
	size_t len;
	uint8_t *bin;
	int rc;

	base(w);
	n->mut(w);
	bin = gw_finish(w, &len);
	if (n->bmut)
		n->bmut(bin, &len);
	rc = ipue_load(e, bin, len, &err);
	free(bin);
	gw_free(w);
	ASSERT_TRUE(rc == n->status) TH_LOG("%s: status %d (%s), want %d; %s: %s", n->name, rc, ipue_strerror(rc),
	      n->status, err.section_name, err.message);
	if (rc) {
		ASSERT_TRUE(err.status == rc) TH_LOG("err.status %d", err.status);
		ASSERT_TRUE(!n->section || !strcmp(err.section_name, n->section)) TH_LOG("section '%s', want '%s' (%s)", err.section_name, n->section, err.message);
		ASSERT_TRUE(!n->word || strstr(err.message, n->word)) TH_LOG("message '%s' lacks '%s'",
		      err.message, n->word);
		ASSERT_TRUE(!ipue_loaded(e)) TH_LOG("a rejected graph counts as loaded");
	} else {
		ASSERT_TRUE(run(e, 0, NULL) == 0) TH_LOG("base graph run");
	}
	ipue_engine_destroy(e);
}

/* the same base graph and mutations written compact: the same verdicts */
TEST_F(loader, load_packed)
{
	const FIXTURE_VARIANT(loader) *n = variant;
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipue_load_error err;
	size_t len;
	uint8_t *bin;
	int rc;

	if (n->bmut) {	/* they patch the plain form's section table */
		gw_free(w);
		ipue_engine_destroy(e);
		SKIP(return, "binary-level mutation of the plain form");
	}
	base(w);
	n->mut(w);
	bin = gw_finish_packed(w, &len);
	rc = ipue_load(e, bin, len, &err);
	free(bin);
	gw_free(w);
	ASSERT_TRUE(rc == n->status) TH_LOG("%s (packed): status %d, want %d; %s: %s", n->name, rc,
	      n->status, err.section_name, err.message);
	if (rc) {
		ASSERT_TRUE(!n->section || !strcmp(err.section_name, n->section)) TH_LOG("section '%s', want '%s' (%s)", err.section_name, n->section, err.message);
		ASSERT_TRUE(!n->word || strstr(err.message, n->word)) TH_LOG("message '%s' lacks '%s'",
		      err.message, n->word);
	} else {
		ASSERT_TRUE(run(e, 0, NULL) == 0) TH_LOG("base graph run (packed)");
	}
	ipue_engine_destroy(e);
}

/* ------------------------------------------------------- packed tables */

/* the PACKED section of a binary gw_finish_packed() wrote, and its size */
static uint8_t *packed_sec(uint8_t *b, uint64_t *size)
{
	struct ipu_graph_header h;

	memcpy(&h, b, sizeof(h));
	for (uint32_t i = 0; i < h.section_count; i++) {
		struct ipu_graph_section s;

		memcpy(&s, b + h.section_table + i * sizeof(s), sizeof(s));
		if (s.type == IPU_GRAPH_SEC_PACKED) {
			*size = s.size;
			return b + s.offset;
		}
	}
	return NULL;
}

/* word @k of table 0's head (type, count, entsize, bytes) */
static void pk_head(uint8_t *b, unsigned k, uint32_t v)
{
	uint64_t n;

	memcpy(packed_sec(b, &n) + 4 * k, &v, 4);
}

/* table 0 is INTERVALS (3 records, 6 words): group 0 = n, lag, 6 deltas */
static void k_type(uint8_t *b) { pk_head(b, 0, IPU_GRAPH_SEC_TENSORS); }
static void k_unknown(uint8_t *b) { pk_head(b, 0, 1000); }
static void k_twice(uint8_t *b) { pk_head(b, 0, IPU_GRAPH_SEC_TILE_PLANS); }
static void k_entsize4(uint8_t *b) { pk_head(b, 2, 26); }
static void k_entsize_small(uint8_t *b) { pk_head(b, 2, 20); }
static void k_bytes(uint8_t *b) { pk_head(b, 3, 1u << 20); }
static void k_count_up(uint8_t *b) { pk_head(b, 1, 4); }
static void k_count_down(uint8_t *b) { pk_head(b, 1, 2); }
static void k_expand(uint8_t *b) { pk_head(b, 1, 0x10000000u); }
static void k_n0(uint8_t *b) { uint64_t n; packed_sec(b, &n)[16] = 0; }
static void k_lag0(uint8_t *b) { uint64_t n; packed_sec(b, &n)[17] = 0; }
static void k_lag257(uint8_t *b)
{
	uint64_t n;

	/* the varint of IPU_GRAPH_PACKED_MAX_LAG + 1 (257) over the lag's byte */
	memcpy(packed_sec(b, &n) + 17, "\x81\x02", 2);
}
static void k_varint(uint8_t *b)
{
	uint64_t n;

	memset(packed_sec(b, &n) + 18, 0xff, 4);
	packed_sec(b, &n)[22] = 0x10;	/* 5 bytes, bit 32 set */
}
static void k_padding(uint8_t *b)
{
	uint64_t n;
	uint8_t *p = packed_sec(b, &n);
	uint32_t bytes;

	memcpy(&bytes, p + 12, 4);
	if (bytes % 4)
		p[16 + bytes] = 1;
	else	/* no padding to spoil: one more byte, that is left over */
		pk_head(b, 3, bytes + 1);
}

FIXTURE(packed) {};
FIXTURE_SETUP(packed) {}
FIXTURE_TEARDOWN(packed) {}

FIXTURE_VARIANT(packed) {
	const char *name;
	void (*mut)(uint8_t *b);
	const char *word;	/* expected in the message; section "packed" */
};

FIXTURE_VARIANT_ADD(packed, type) { "type not packable", k_type, "cannot be packed" };
FIXTURE_VARIANT_ADD(packed, unknown) { "unknown type", k_unknown, "cannot be packed" };
FIXTURE_VARIANT_ADD(packed, twice) { "type packed twice", k_twice, "twice" };
FIXTURE_VARIANT_ADD(packed, entsize4) { "entsize not a multiple of 4", k_entsize4, "entsize" };
FIXTURE_VARIANT_ADD(packed, entsize_small) { "entsize under the record size", k_entsize_small, "entsize" };
FIXTURE_VARIANT_ADD(packed, bytes) { "groups past the section", k_bytes, "past the section" };
FIXTURE_VARIANT_ADD(packed, count_up) { "count above the groups' records", k_count_up, "record 3" };
FIXTURE_VARIANT_ADD(packed, count_down) { "count below the groups' records", k_count_down, "(intervals): record 2" };
FIXTURE_VARIANT_ADD(packed, expand) { "records over the expansion limit", k_expand, "64 x" };
FIXTURE_VARIANT_ADD(packed, n0) { "group of 0 records", k_n0, "0 records" };
FIXTURE_VARIANT_ADD(packed, lag0) { "lag 0", k_lag0, "lag" };
FIXTURE_VARIANT_ADD(packed, lag257) { "lag 257", k_lag257, "lag" };
FIXTURE_VARIANT_ADD(packed, varint) { "varint over 32 bits", k_varint, "varint" };
FIXTURE_VARIANT_ADD(packed, padding) { "padding or bytes left over", k_padding, "" };

/* a corrupted packed table is refused by the container reader, naming it */
TEST_F(packed, refused)
{
	struct ipue_engine *e = mk(IPU_MODEL_TEST, 1);
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipue_load_error err;
	size_t len;
	uint8_t *bin;
	int rc;

	base(w);
	bin = gw_finish_packed(w, &len);
	variant->mut(bin);
	gw_fix_checksum(bin, len);
	rc = ipue_load(e, bin, len, &err);
	free(bin);
	gw_free(w);
	ASSERT_TRUE(rc == IPUE_EFORMAT) TH_LOG("%s: status %d (%s)", variant->name, rc, err.message);
	ASSERT_TRUE(!strcmp(err.section_name, "packed")) TH_LOG("%s: section '%s' (%s)",
	      variant->name, err.section_name, err.message);
	ASSERT_TRUE(strstr(err.message, variant->word) != NULL) TH_LOG("%s: message '%s' lacks '%s'",
	      variant->name, err.message, variant->word);
	ASSERT_TRUE(!ipue_loaded(e)) TH_LOG("a rejected graph counts as loaded");
	ipue_engine_destroy(e);
}

/*
 * A regular layout round-trips: 64 vertices over 16 tiles and a strided
 * exchange, written plain (version 1.0 in the header, as an old builder
 * wrote it) and compact; both load, run to the same tile state, and the
 * compact binary is the smaller by far.
 */
static uint8_t *ring16(int packed, size_t *len)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_copy c[16];
	uint32_t v[64], k[3], tiles[16], offs[16], counts[16], shape[1] = { 256 };
	uint8_t *bin;

	for (uint32_t t = 0; t < 16; t++) {
		gw_plan(w, t, 256);
		tiles[t] = t;
		offs[t] = 0;
		counts[t] = 16;
		for (uint32_t j = 0; j < 4; j++)
			v[4 * t + j] = v_add(w, t, 16 * j, 4, (int32_t)(t + j));
		c[t] = (struct ipu_graph_copy){ t, 0, (t + 1) % 16, 64, 64, 0 };
	}
	gw_handle(w, "r", gw_tensor(w, "r", I32, 1, shape, 16, tiles, offs, counts), RW);
	gw_handle(w, "s", gw_tensor(w, "s", I32, 1, shape, 16, tiles,
				    (uint32_t[16]){ 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
						    64, 64, 64, 64, 64, 64 }, counts), RW);
	k[0] = exec_cs(w, 64, v);
	k[1] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "x", 16, c), 0, 0);
	k[2] = k[0];
	gw_entry(w, "ring", gw_seq(w, 3, k));
	bin = packed ? gw_finish_packed(w, len) : gw_finish(w, len);
	if (!packed) {
		bin[6] = 0;	/* version_minor 0: the 1.0 form */
		gw_fix_checksum(bin, *len);
	}
	gw_free(w);
	return bin;
}

TEST(packed_roundtrip)
{
	int32_t out[2][512];
	size_t len[2];

	for (int packed = 0; packed < 2; packed++) {
		struct ipue_engine *e = mk(IPU_MODEL_TEST, 2);
		struct ipue_load_error err;
		uint8_t *bin = ring16(packed, &len[packed]);

		ASSERT_EQ(0, ipue_load(e, bin, len[packed], &err)) TH_LOG("form %d: %s", packed, err.message);
		free(bin);
		for (uint32_t i = 0; i < 256; i++) {
			ASSERT_EQ(0, wr32(e, "r", i, (int32_t)(i * 7)));
			ASSERT_EQ(0, wr32(e, "s", i, -(int32_t)i));
		}
		ASSERT_EQ(0, run(e, 0, NULL));
		for (uint32_t i = 0; i < 256; i++) {
			ASSERT_EQ(0, rd32(e, "r", i, &out[packed][i]));
			ASSERT_EQ(0, rd32(e, "s", i, &out[packed][256 + i]));
		}
		ipue_engine_destroy(e);
	}
	/* the reference: each add vertex adds t + j twice, s takes the ring's first add */
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t t = i / 16, j = (i % 16) / 4, src = (t + 15) % 16;
		int32_t first = (int32_t)((src * 16 + i % 16) * 7 + src + j);

		ASSERT_EQ((int32_t)(i * 7 + 2 * (t + j)), out[1][i]) TH_LOG("r[%u]", i);
		ASSERT_EQ(first, out[1][256 + i]) TH_LOG("s[%u]", i);
	}
	ASSERT_EQ(0, memcmp(out[0], out[1], sizeof(out[0])));
	ASSERT_TRUE(len[1] * 2 < len[0]) TH_LOG("compact %zu bytes, plain %zu", len[1], len[0]);
}
#include "guards_tests.h"
#include "memcheck_tests.h"
#include "small_phase_tests.h"
#include "multi_tests.h"

TEST_HARNESS_MAIN
