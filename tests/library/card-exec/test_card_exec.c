// SPDX-License-Identifier: MIT
/*
 * Host unit tests of the card execution path that need no card: the
 * completion-status messages, the graph-table parser against builder-made
 * binaries (and against every truncation and many corruptions of them), the
 * ranged / asynchronous / buffer calls on the model device, and the verdicts
 * of the engine's loader and the card path's pre-check on corrupted
 * binaries (container_verdicts_tests.h). Runs on the kernel's kselftest
 * harness (KTAP on stdout, why a test failed on stderr). Built with
 * ASan/UBSan; the harness runs each test in a child that leaves with
 * _exit(), so the fixtures of the tests that allocate check for leaks in
 * their teardown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ipu.h>

#include <sanitizer/lsan_interface.h>

#include "card.h"
#include "internal.h"
#include "ipu_engine.h"
#include "ipu/graph_format.h"
#include "ipu/ipu_models.h"
#include "kselftest_harness.h"

/*
 * No memory left unfreed (LSan; the test's child leaves with _exit(), which
 * skips the check at exit). Run from a fixture's teardown, once the test's
 * stack frame, whose pointers LSan would count as references, is gone.
 */
#define EXPECT_NO_LEAKS() \
	EXPECT_EQ(0, __lsan_do_recoverable_leak_check()) TH_LOG("leaks, see above")

/* tests that allocate: a leak check after each */
FIXTURE(heap) {};
FIXTURE_SETUP(heap) {}
FIXTURE_TEARDOWN(heap) { EXPECT_NO_LEAKS(); }

/* ---- status messages ---- */

TEST(status)
{
	struct ipu_error e;
	struct ipu__cmd_ctx x = { .dev = "ipu0", .opcode = IPU_CMD_WRITE,
				  .tensor = "weights", .handle = 2,
				  .offset = 4096, .length = 8192,
				  .tensor_bytes = 8192 };
	int r;

	r = ipu__card_status_err(&e, &x, IPU_STATUS_OUT_OF_RANGE, 0, 0);
	EXPECT_TRUE(r == -ERANGE && strstr(e.msg, "tensor 'weights': offset 4096 + 8192 bytes is beyond its 8192 bytes")) TH_LOG("%s: " "%d '%s'", "status: OUT_OF_RANGE names the tensor and the range", r, e.msg);

	x.opcode = IPU_CMD_LOAD;
	x.load_msg = "vertices: field 2 outside the tile";
	r = ipu__card_status_err(&e, &x, IPU_STATUS_LOAD_FAILED, IPU_GRAPH_SEC_VERTICES, 3);
	EXPECT_TRUE(r == -EINVAL && !strcmp(e.msg, "load on ipu0: graph refused: section vertices record 3: field 2 outside the tile")) TH_LOG("%s: " "%d '%s'", "status: LOAD_FAILED names section and record, message once", r, e.msg);
	x.load_msg = "header: bad magic 0x0";
	r = ipu__card_status_err(&e, &x, IPU_STATUS_LOAD_FAILED, 0, IPU_GRAPH_NONE);
	EXPECT_TRUE(r == -EINVAL && !strcmp(e.msg, "load on ipu0: graph refused: section header: bad magic 0x0")) TH_LOG("%s: " "%d '%s'", "status: LOAD_FAILED without record", r, e.msg);

	x.opcode = IPU_CMD_RUN;
	x.handle = 1;
	x.program = "main";
	r = ipu__card_status_err(&e, &x, IPU_STATUS_PROGRAM_ABORT, 42, 7);
	EXPECT_TRUE(r == -ECONNABORTED && strstr(e.msg, "program 1 ('main') on ipu0") && strstr(e.msg, "code 42")) TH_LOG("%s: " "%d '%s'", "status: PROGRAM_ABORT has the code", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_BAD_HANDLE, 1, 0);
	EXPECT_TRUE(r == -ERANGE && strstr(e.msg, "no program 1")) TH_LOG("%s: " "%d '%s'", "status: BAD_HANDLE on RUN is a program", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_RUN_FAILED, 10, 0);
	EXPECT_TRUE(r == -ELOOP && strstr(e.msg, "run failed")) TH_LOG("%s: " "%d '%s'", "status: RUN_FAILED step limit -> ELOOP", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_ABORTED, 0, 0);
	EXPECT_TRUE(r == -ECANCELED) TH_LOG("%s: " "%d '%s'", "status: ABORTED -> ECANCELED", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_RESET, 0, 0);
	EXPECT_TRUE(r == -EIO && strstr(e.msg, "reset")) TH_LOG("%s: " "%d '%s'", "status: RESET -> EIO", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_HUNG, IPU_HUNG_COMMAND, 0);
	EXPECT_TRUE(r == -ETIMEDOUT && strstr(e.msg, "hung (a command stalled)")) TH_LOG("%s: " "%d '%s'", "status: HUNG -> ETIMEDOUT with its cause", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_HUNG, IPU_HUNG_FATAL, 0);
	EXPECT_TRUE(r == -ETIMEDOUT && strstr(e.msg, "fatal error")) TH_LOG("%s: " "%d '%s'", "status: HUNG fatal", r, e.msg);

	x.opcode = IPU_CMD_READ;
	r = ipu__card_status_err(&e, &x, IPU_STATUS_DMA_ERROR, 0x1000, 0x2);
	EXPECT_TRUE(r == -EFAULT && strstr(e.msg, "0x200001000")) TH_LOG("%s: " "%d '%s'", "status: DMA_ERROR has the address", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_ACCESS, 2, 0);
	EXPECT_TRUE(r == -EACCES && strstr(e.msg, "readable")) TH_LOG("%s: " "%d '%s'", "status: ACCESS -> EACCES", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_NO_GRAPH, 0, 0);
	EXPECT_TRUE(r == -ENOENT && strstr(e.msg, "read of tensor 'weights' on ipu0")) TH_LOG("%s: " "%d '%s'", "status: NO_GRAPH -> ENOENT", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_INVALID_FIELD, 16, 0);
	EXPECT_TRUE(r == -EPROTO && strstr(e.msg, "driver bug")) TH_LOG("%s: " "%d '%s'", "status: INVALID_FIELD is a driver bug", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_INTERNAL, 0, 0);
	EXPECT_TRUE(r == -ENOMEM) TH_LOG("%s: " "%d '%s'", "status: INTERNAL -> ENOMEM", r, e.msg);
	r = ipu__card_status_err(&e, &x, 33, 0, 0);
	EXPECT_TRUE(r == -EIO && strstr(e.msg, "unknown completion status 33")) TH_LOG("%s: " "%d '%s'", "status: unknown -> EIO", r, e.msg);
	e.code = 77;
	r = ipu__card_status_err(&e, &x, IPU_STATUS_OK, 0, 0);
	EXPECT_TRUE(r == 0 && e.code == 77) TH_LOG("%s: " "%d", "status: OK leaves err alone", r);
}

/* ---- engine status -> errno, on both backends ---- */

/* The contract of docs/libipudev.md ("Engine status -> errno"). */
static const struct {
	int status, err;
} engine_errnos[] = {
	{ IPUE_OK, 0 },			{ IPUE_EINVAL, -EINVAL },
	{ IPUE_ENOMEM, -ENOMEM },	{ IPUE_EFORMAT, -EINVAL },
	{ IPUE_ENOGRAPH, -ENOENT },	{ IPUE_ERANGE, -ERANGE },
	{ IPUE_EACCES, -EACCES },	{ IPUE_ESTREAM, -EPIPE },
	{ IPUE_EABORT, -ECONNABORTED },	{ IPUE_ECANCELED, -ECANCELED },
	{ IPUE_ESTEPLIMIT, -ELOOP },	{ IPUE_EMODEL, -EINVAL },
	{ IPUE_EBUSY, -EBUSY },		{ IPUE_EUNWRITTEN, -ENODATA },
	{ IPUE_EMEMPLAN, -EINVAL },	{ IPUE_EMEMACCESS, -EFAULT },
	{ IPUE_ELINK, -ENOLINK },
	{ -99, -EIO },	/* newer than the library */
};

/* The card statuses that stand for an engine status (qemu-device/ipu-queue.c). */
static const struct {
	uint32_t card;
	int status;
} card_engine[] = {
	{ IPU_STATUS_LOAD_FAILED, IPUE_EFORMAT },	{ IPU_STATUS_NO_GRAPH, IPUE_ENOGRAPH },
	{ IPU_STATUS_OUT_OF_RANGE, IPUE_ERANGE },	{ IPU_STATUS_BAD_HANDLE, IPUE_ERANGE },
	{ IPU_STATUS_ACCESS, IPUE_EACCES },		{ IPU_STATUS_ABORTED, IPUE_ECANCELED },
	{ IPU_STATUS_PROGRAM_ABORT, IPUE_EABORT },	{ IPU_STATUS_INTERNAL, IPUE_ENOMEM },
	{ IPU_STATUS_UNWRITTEN_INPUT, IPUE_EUNWRITTEN },
};

TEST(engine_status_errno)
{
	for (size_t i = 0; i < sizeof(engine_errnos) / sizeof(engine_errnos[0]); i++) {
		EXPECT_EQ(engine_errnos[i].err, ipu__engine_errno(engine_errnos[i].status))
			TH_LOG("engine status: the documented errno of status %d",
			       engine_errnos[i].status);
	}
}

/* the model device reports ipu__engine_errno(s) and ipue_strerror(s); the
 * card's RUN_FAILED with s in its detail must give the same */
TEST(engine_status_run_failed)
{
	struct ipu__cmd_ctx x = { .dev = "ipu0", .opcode = IPU_CMD_RUN, .handle = 1,
				  .program = "main" };
	struct ipu_error e;
	char want[160];
	int r, st;

	for (size_t i = 1; i < sizeof(engine_errnos) / sizeof(engine_errnos[0]); i++) {
		st = engine_errnos[i].status;
		r = ipu__card_status_err(&e, &x, IPU_STATUS_RUN_FAILED, (uint32_t)-st, 0);
		snprintf(want, sizeof(want), "program 1 ('main') on ipu0: run failed: %s",
			 ipue_strerror(st));
		EXPECT_TRUE(r == engine_errnos[i].err && !strcmp(e.msg, want))
			TH_LOG("engine status: RUN_FAILED on the card as on the model device: "
			       "status %d: %d '%s'", st, r, e.msg);
	}
}

TEST(engine_status_card)
{
	struct ipu__cmd_ctx x = { .dev = "ipu0", .opcode = IPU_CMD_RUN, .handle = 1,
				  .program = "main" };
	struct ipu_error e;
	int r;

	for (size_t i = 0; i < sizeof(card_engine) / sizeof(card_engine[0]); i++) {
		x.opcode = card_engine[i].card == IPU_STATUS_LOAD_FAILED ? IPU_CMD_LOAD :
			   IPU_CMD_RUN;
		r = ipu__card_status_err(&e, &x, card_engine[i].card, 0, IPU_GRAPH_NONE);
		EXPECT_EQ(ipu__engine_errno(card_engine[i].status), r)
			TH_LOG("engine status: card statuses that stand for one have its errno: "
			       "card status %u", card_engine[i].card);
	}
}

/*
 * A run refused for a never-written input: the card's UNWRITTEN_INPUT (the
 * card backend names the handle) words it as the model device does.
 */
TEST(unwritten_input_both_backends)
{
	uint32_t shape[1] = { 8 };
	struct ipu_graph *g = NULL;
	struct ipu_device *d = NULL;
	struct ipu__cmd_ctx x = { .opcode = IPU_CMD_RUN, .handle = 0, .program = "neg",
				  .tensor = "in" };
	struct ipu_error e, m;
	void *bin = NULL;
	size_t len;
	int t, seq, r;

	ASSERT_EQ(0, ipu_graph_create(IPU_MODEL_TEST, &g, &e));
	t = ipu_graph_add_tensor(g, "in", IPU_DTYPE_F32, 1, shape, &e);
	ASSERT_LE(0, ipu_graph_map_linear(g, t, 4, &e));
	ASSERT_LE(0, ipu_graph_expose(g, t, NULL, IPU_HANDLE_WRITE, &e));
	seq = ipu_prog_sequence(g, &e);
	ASSERT_LE(0, ipu_unary(g, seq, IPU_OP_NEG, t, NULL, &e)) TH_LOG("%s", e.msg);
	ASSERT_LE(0, ipu_graph_add_program(g, "neg", seq, &e));
	ASSERT_EQ(0, ipu_graph_write(g, &bin, &len, &e));
	ASSERT_EQ(0, ipu_model_open("test", 1, &d, &e));
	ASSERT_EQ(0, ipu_load(d, bin, len, &e));
	r = ipu_run(d, 0, 1, NULL, &m);
	EXPECT_EQ(-ENODATA, r);
	x.dev = ipu_device_name(d);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_UNWRITTEN_INPUT, 0, 0);
	EXPECT_EQ(-ENODATA, r);
	EXPECT_STREQ(m.msg, e.msg);
	EXPECT_TRUE(strstr(e.msg, "reads tensor 'in', which was never written") != NULL) TH_LOG("%s", e.msg);
	x.tensor = NULL;
	r = ipu__card_status_err(&e, &x, IPU_STATUS_UNWRITTEN_INPUT, 3, 0);
	EXPECT_TRUE(r == -ENODATA && strstr(e.msg, "tensor handle 3")) TH_LOG("%s", e.msg);
	ipu_device_close(d);
	ipu_graph_free(g);
	free(bin);
}

/* ---- graph tables ---- */

/*
 * Three host handles, two entry programs, and (for container_verdicts.c) a
 * non-empty section of every type but the vertex ones: a constant with
 * initial data, a stream, metadata.
 */
static int build(uint32_t model, void **bin, size_t *len, struct ipu_error *err)
{
	struct ipu_graph *g;
	uint32_t s1[2] = { 3, 5 }, s2[1] = { 7 }, s3[3] = { 2, 3, 4 }, s4[1] = { 4 };
	float k[4] = { 1, 2, 3, 4 };
	int a, b, c, kt, st, seq, r;

	r = ipu_graph_create(model, &g, err);
	if (r)
		return r;
	if ((a = ipu_graph_add_tensor(g, "alpha", IPU_DTYPE_F32, 2, s1, err)) < 0 ||
	    (b = ipu_graph_add_tensor(g, "beta", IPU_DTYPE_F16, 1, s2, err)) < 0 ||
	    (c = ipu_graph_add_tensor(g, "gamma", IPU_DTYPE_I32, 3, s3, err)) < 0 ||
	    ipu_graph_map_linear(g, a, 1, err) < 0 || ipu_graph_map_tile(g, b, 1, err) < 0 ||
	    ipu_graph_map_linear(g, c, 2, err) < 0 ||
	    ipu_graph_expose(g, a, NULL, IPU_HANDLE_RW, err) < 0 ||
	    ipu_graph_expose(g, b, "beta_in", IPU_HANDLE_WRITE, err) < 0 ||
	    ipu_graph_expose(g, c, NULL, IPU_HANDLE_READ, err) < 0 ||
	    (kt = ipu_graph_add_tensor(g, "k", IPU_DTYPE_F32, 1, s4, err)) < 0 ||
	    ipu_graph_map_tile(g, kt, 3, err) < 0 ||
	    ipu_graph_set_initial(g, kt, k, sizeof(k), err) < 0 ||
	    (st = ipu_graph_add_stream(g, "feed", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32,
				       15, 2, err)) < 0 ||
	    ipu_graph_set_metadata(g, "origin", "test_card_exec", err) < 0 ||
	    (seq = ipu_prog_sequence(g, err)) < 0 ||
	    ipu_prog_append(g, seq, ipu_prog_stream_copy(g, st, a, err), err) < 0 ||
	    ipu_graph_add_program(g, "first", seq, err) < 0 ||
	    ipu_graph_add_program(g, "second", seq, err) < 0) {
		ipu_graph_free(g);
		return -1;
	}
	r = ipu_graph_write(g, bin, len, err);
	ipu_graph_free(g);
	return r;
}

TEST_F(heap, table)
{
	struct ipu_error e;
	struct ipu__graph_table t;
	struct ipu_device *d = NULL;
	void *bin = NULL;
	size_t len = 0;
	char why[160], pn[64];
	int r, n;

	r = build(IPU_MODEL_TEST, &bin, &len, &e);
	ASSERT_EQ(0, r) TH_LOG("table: builder makes a graph: %s", e.msg);
	r = ipu__graph_table_parse(bin, len, &t, why, sizeof(why));
	ASSERT_EQ(0, r) TH_LOG("table: parses: %s", why);
	EXPECT_TRUE(t.nhandles == 3 && t.nprograms == 2 && t.model == IPU_MODEL_TEST)
		TH_LOG("table: parses: handles %u programs %u model %u", t.nhandles,
		       t.nprograms, t.model);
	/* the model device reads the same binary with the engine's loader */
	r = ipu_model_open("test", 1, &d, &e);
	if (!r)
		r = ipu_load(d, bin, len, &e);
	ASSERT_EQ(0, r) TH_LOG("table: the model device loads it: %s", e.msg);
	n = ipu_tensor_count(d, &e);
	EXPECT_EQ((int)t.nhandles, n)
		TH_LOG("table: handles match the engine's: count %d: %s", n, e.msg);
	for (int i = 0; i < n && i < (int)t.nhandles; i++) {
		struct ipu_tensor_info ti;
		const struct ipu__graph_handle *h = &t.handles[i];

		memset(&ti, 0, sizeof(ti));
		r = ipu_tensor_info(d, (unsigned)i, &ti, &e);
		EXPECT_TRUE(!r && !strcmp(ti.name, h->name) &&
			    ti.dtype == h->dtype && ti.rank == h->rank && ti.bytes == h->bytes &&
			    ti.elements == h->elements && ti.access == h->access &&
			    !memcmp(ti.shape, h->shape, sizeof(ti.shape)))
			TH_LOG("table: handles match the engine's (names, dtype, shape, bytes, "
			       "access): handle %d: model '%s' %u %llu, table '%s' %u %llu",
			       i, ti.name, ti.dtype, (unsigned long long)ti.bytes, h->name,
			       h->dtype, (unsigned long long)h->bytes);
	}
	n = ipu_program_count(d, &e);
	EXPECT_EQ((int)t.nprograms, n) TH_LOG("table: programs match the engine's: count");
	for (unsigned k = 0; (int)k < n && k < t.nprograms; k++) {
		r = ipu_program_name(d, k, pn, sizeof(pn), &e);
		EXPECT_TRUE(!r && !strcmp(pn, t.programs[k]))
			TH_LOG("table: programs match the engine's: program %u '%s', table '%s'",
			       k, r ? e.msg : pn, t.programs[k]);
	}
	ipu__graph_table_free(&t);

	/* every truncation and single-byte corruption: no crash, no leak */
	for (size_t l = 0; l < len; l++) {
		r = ipu__graph_table_parse(bin, l, &t, why, sizeof(why));
		if (!r)
			ipu__graph_table_free(&t);
		EXPECT_NE(0, r) TH_LOG("table: every truncation refused: %zu accepted", l);
		if (!r)
			break;
	}
	{
		unsigned char *c = malloc(len);
		unsigned seed = 1;
		int crashes = 0;

		ASSERT_NE(NULL, c);
		for (int round = 0; round < 20000; round++) {
			memcpy(c, bin, len);
			for (int k = 0; k < 1 + round % 4; k++) {
				seed = seed * 1103515245u + 12345u;
				c[(seed >> 8) % len] ^= (unsigned char)(1u << ((seed >> 3) & 7));
			}
			r = ipu__graph_table_parse(c, len, &t, why, sizeof(why));
			if (!r) {
				for (unsigned i = 0; i < t.nhandles; i++)
					crashes += t.handles[i].name == NULL;
				ipu__graph_table_free(&t);
			}
		}
		free(c);
		EXPECT_EQ(0, crashes)
			TH_LOG("table: 20000 corrupted binaries parse or fail cleanly: %d handles "
			       "without a name", crashes);
	}
	r = ipu__graph_table_parse("IPUGxxxx", 8, &t, why, sizeof(why));
	EXPECT_TRUE(r == -EINVAL && strstr(why, "header"))
		TH_LOG("table: a stub is refused with a reason: %d %s", r, why);
	ipu_device_close(d);
	free(bin);
}

/* ---- ranged, async and buffer calls on the model device ---- */

/*
 * The group backend binds a stream on the member whose IPU holds its
 * StreamCopy's tensor: the table says which (-1: no StreamCopy; 0 in a
 * single-IPU binary).
 */
static int stream_graph(unsigned ipus, void **bin, size_t *len, struct ipu_error *e)
{
	struct ipu_graph *g;
	int seq, r, t[2], s[3];

	r = ipus > 1 ? ipu_graph_create_multi(IPU_MODEL_TEST, ipus, &g, e)
		     : ipu_graph_create(IPU_MODEL_TEST, &g, e);
	if (r)
		return r;
	seq = ipu_prog_sequence(g, e);
	for (int k = 0; k < 2; k++) {
		t[k] = ipu_graph_add_tensor(g, k ? "b" : "a", IPU_DTYPE_F32, 1,
					    (uint32_t[]){ 64 }, e);
		r = t[k] < 0 ? t[k] : ipu_graph_map_ipu(g, t[k], k ? 0 : ipus - 1, 0, e);
		if (r < 0)
			goto out;
	}
	s[0] = ipu_graph_add_stream(g, "in", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, 64, 1, e);
	s[1] = ipu_graph_add_stream(g, "out", IPU_STREAM_DEVICE_TO_HOST, IPU_DTYPE_F32, 64, 1, e);
	s[2] = ipu_graph_add_stream(g, "unused", IPU_STREAM_DEVICE_TO_HOST, IPU_DTYPE_F32, 64, 1, e);
	r = seq < 0 || s[0] < 0 || s[1] < 0 || s[2] < 0 ? -EINVAL : 0;
	if (!r && (r = ipu_prog_stream_copy(g, s[0], t[0], e)) >= 0)
		r = ipu_prog_append(g, seq, r, e);
	if (r >= 0 && (r = ipu_prog_stream_copy(g, s[1], t[1], e)) >= 0)
		r = ipu_prog_append(g, seq, r, e);
	if (r >= 0)
		r = ipu_graph_add_program(g, "main", seq, e);
	if (r >= 0)
		r = ipu_graph_write(g, bin, len, e);
out:
	ipu_graph_free(g);
	return r < 0 ? r : 0;
}

TEST_F(heap, stream_ipus)
{
	static const unsigned ipus[] = { 1, 2, 4 };

	for (unsigned i = 0; i < 3; i++) {
		struct ipu__graph_table t;
		struct ipu_error e = { 0 };
		void *bin = NULL;
		size_t len = 0;
		char why[160];
		int r = stream_graph(ipus[i], &bin, &len, &e);

		ASSERT_EQ(0, r) TH_LOG("%u IPUs: %s", ipus[i], e.msg);
		r = ipu__graph_table_parse(bin, len, &t, why, sizeof(why));
		free(bin);
		ASSERT_EQ(0, r) TH_LOG("%u IPUs: %s", ipus[i], why);
		ASSERT_EQ(3u, t.nstreams);
		EXPECT_EQ((int)ipus[i] - 1, t.streams[0].ipu) TH_LOG("'in' of %u IPUs", ipus[i]);
		EXPECT_EQ(0, t.streams[1].ipu) TH_LOG("'out' of %u IPUs", ipus[i]);
		EXPECT_EQ(-1, t.streams[2].ipu) TH_LOG("'unused' of %u IPUs", ipus[i]);
		ipu__graph_table_free(&t);
	}
}

TEST_F(heap, model_api)
{
	struct ipu_error e;
	struct ipu_device *d = NULL;
	struct ipu_buffer *ba = NULL, *bp = NULL;
	void *bin = NULL;
	size_t len;
	float in[15], out[15];
	unsigned char raw[64];
	uint64_t req = 99;
	int r;

	r = build(IPU_MODEL_TEST, &bin, &len, &e);
	if (!r)
		r = ipu_model_open("test", 1, &d, &e);
	if (!r)
		r = ipu_load(d, bin, len, &e);
	ASSERT_EQ(0, r) TH_LOG("model api: setup: %s", e.msg);
	for (int i = 0; i < 15; i++)
		in[i] = (float)i * 1.5f;
	r = ipu_tensor_write_at(d, "alpha", 8, in, 20, &e);
	r = r ? r : ipu_tensor_write_at(d, "alpha", 0, in, 8, &e);
	r = r ? r : ipu_tensor_write_at(d, "alpha", 28, in + 7, 32, &e);
	r = r ? r : ipu_tensor_read(d, "alpha", out, sizeof(out), &e);
	EXPECT_TRUE(r == 0 && !memcmp(out, in, 8) && !memcmp((char *)out + 8, in, 20) && !memcmp((char *)out + 28, in + 7, 32)) TH_LOG("%s: " "%d %s", "model api: write_at pieces make the tensor", r, e.msg);
	r = ipu_tensor_write_at(d, "alpha", 40, in, 24, &e);
	EXPECT_TRUE(r == -ERANGE && strstr(e.msg, "tensor 'alpha': offset 40 + 24 bytes is beyond its 60 bytes")) TH_LOG("%s: " "%d '%s'", "model api: out-of-range offset refused with the range", r, e.msg);
	r = ipu_tensor_write_at(d, "nope", 0, in, 4, &e);
	EXPECT_TRUE(r == -ENOENT && strstr(e.msg, "no tensor 'nope'")) TH_LOG("%s: " "%d '%s'", "model api: unknown tensor", r, e.msg);
	r = ipu_tensor_read_at(d, "beta_in", 0, raw, 2, &e);
	EXPECT_TRUE(r == -EACCES) TH_LOG("%s: " "%d '%s'", "model api: write-only tensor cannot be read", r, e.msg);
	r = ipu_tensor_read_async(d, "alpha", 4, out, 8, &req, &e);
	EXPECT_TRUE(r == 0 && !ipu_request_wait(d, req, 0, &e) && !memcmp(out, (char *)in + 4, 4)) TH_LOG("%s: " "%d %s", "model api: async read completes", r, e.msg);
	r = ipu_buffer_alloc(d, 4096, &ba, &e);
	EXPECT_TRUE(r == 0 && ipu_buffer_ptr(ba) && ipu_buffer_size(ba) == 4096) TH_LOG("%s: " "%d %s", "model api: buffer alloc", r, e.msg);
	if (!r) {
		memcpy(ipu_buffer_ptr(ba), in, 60);
		r = ipu_tensor_write(d, "alpha", ipu_buffer_ptr(ba), 60, &e);
		EXPECT_TRUE(r == 0) TH_LOG("%s: " "%s", "model api: write from a buffer", e.msg);
	}
	r = ipu_buffer_pin(d, raw + 1, 40, &bp, &e);
	EXPECT_TRUE(r == 0 && ipu_buffer_ptr(bp) == raw + 1) TH_LOG("%s: " "%d %s", "model api: buffer pin of unaligned memory", r, e.msg);
	{
		struct ipu_buffer *bz = NULL;

		r = ipu_buffer_alloc(d, 0, &bz, &e);
		EXPECT_TRUE(r == -EINVAL && !bz) TH_LOG("%s: " "%d", "model api: zero-size buffer refused", r);
	}
	ipu_buffer_free(bp);
	ipu_buffer_free(ba);
	r = ipu_run(d, 5, 1, NULL, &e);
	EXPECT_TRUE(r == -ERANGE && strstr(e.msg, "program 5")) TH_LOG("%s: " "%d '%s'", "model api: wrong program index", r, e.msg);
	ipu_device_close(d);
	free(bin);
}

#include "container_verdicts_tests.h"

TEST_HARNESS_MAIN
