// SPDX-License-Identifier: MIT
/*
 * Host unit tests of the card execution path that need no card: the
 * completion-status messages, the graph-table parser against builder-made
 * binaries (and against every truncation and many corruptions of them), the
 * ranged / asynchronous / buffer calls on the model device, and the verdicts
 * of the engine's loader and the card path's pre-check on corrupted
 * binaries (container_verdicts.c). KTAP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ipu.h>

#include "card.h"
#include "check.h"
#include "internal.h"
#include "ipu_engine.h"
#include "ipu/graph_format.h"
#include "ipu/ipu_models.h"

int ntest, nfail;

/* ---- status messages ---- */

static void t_status(void)
{
	struct ipu_error e;
	struct ipu__cmd_ctx x = { .dev = "ipu0", .opcode = IPU_CMD_WRITE,
				  .tensor = "weights", .handle = 2,
				  .offset = 4096, .length = 8192,
				  .tensor_bytes = 8192 };
	int r;

	r = ipu__card_status_err(&e, &x, IPU_STATUS_OUT_OF_RANGE, 0, 0);
	CHECK("status: OUT_OF_RANGE names the tensor and the range",
	      r == -ERANGE && strstr(e.msg, "tensor 'weights': offset 4096 + 8192 bytes is beyond its 8192 bytes"),
	      "%d '%s'", r, e.msg);

	x.opcode = IPU_CMD_LOAD;
	x.load_msg = "vertices: field 2 outside the tile";
	r = ipu__card_status_err(&e, &x, IPU_STATUS_LOAD_FAILED, IPU_GRAPH_SEC_VERTICES, 3);
	CHECK("status: LOAD_FAILED names section and record, message once",
	      r == -EINVAL && !strcmp(e.msg, "load on ipu0: graph refused: section vertices record 3: field 2 outside the tile"),
	      "%d '%s'", r, e.msg);
	x.load_msg = "header: bad magic 0x0";
	r = ipu__card_status_err(&e, &x, IPU_STATUS_LOAD_FAILED, 0, IPU_GRAPH_NONE);
	CHECK("status: LOAD_FAILED without record",
	      r == -EINVAL && !strcmp(e.msg, "load on ipu0: graph refused: section header: bad magic 0x0"),
	      "%d '%s'", r, e.msg);

	x.opcode = IPU_CMD_RUN;
	x.handle = 1;
	x.program = "main";
	r = ipu__card_status_err(&e, &x, IPU_STATUS_PROGRAM_ABORT, 42, 7);
	CHECK("status: PROGRAM_ABORT has the code",
	      r == -ECONNABORTED && strstr(e.msg, "program 1 ('main') on ipu0") && strstr(e.msg, "code 42"),
	      "%d '%s'", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_BAD_HANDLE, 1, 0);
	CHECK("status: BAD_HANDLE on RUN is a program", r == -ERANGE && strstr(e.msg, "no program 1"),
	      "%d '%s'", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_RUN_FAILED, 10, 0);
	CHECK("status: RUN_FAILED step limit -> ELOOP", r == -ELOOP && strstr(e.msg, "run failed"),
	      "%d '%s'", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_ABORTED, 0, 0);
	CHECK("status: ABORTED -> ECANCELED", r == -ECANCELED, "%d '%s'", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_RESET, 0, 0);
	CHECK("status: RESET -> EIO", r == -EIO && strstr(e.msg, "reset"), "%d '%s'", r, e.msg);

	x.opcode = IPU_CMD_READ;
	r = ipu__card_status_err(&e, &x, IPU_STATUS_DMA_ERROR, 0x1000, 0x2);
	CHECK("status: DMA_ERROR has the address", r == -EFAULT && strstr(e.msg, "0x200001000"),
	      "%d '%s'", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_ACCESS, 2, 0);
	CHECK("status: ACCESS -> EACCES", r == -EACCES && strstr(e.msg, "readable"), "%d '%s'", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_NO_GRAPH, 0, 0);
	CHECK("status: NO_GRAPH -> ENOENT", r == -ENOENT && strstr(e.msg, "read of tensor 'weights' on ipu0"),
	      "%d '%s'", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_INVALID_FIELD, 16, 0);
	CHECK("status: INVALID_FIELD is a driver bug", r == -EPROTO && strstr(e.msg, "driver bug"),
	      "%d '%s'", r, e.msg);
	r = ipu__card_status_err(&e, &x, IPU_STATUS_INTERNAL, 0, 0);
	CHECK("status: INTERNAL -> ENOMEM", r == -ENOMEM, "%d '%s'", r, e.msg);
	r = ipu__card_status_err(&e, &x, 33, 0, 0);
	CHECK("status: unknown -> EIO", r == -EIO && strstr(e.msg, "unknown completion status 33"),
	      "%d '%s'", r, e.msg);
	e.code = 77;
	r = ipu__card_status_err(&e, &x, IPU_STATUS_OK, 0, 0);
	CHECK("status: OK leaves err alone", r == 0 && e.code == 77, "%d", r);
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
	{ IPUE_EBUSY, -EBUSY },		{ -99, -EIO },	/* newer than the library */
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
};

static void t_engine_status(void)
{
	struct ipu__cmd_ctx x = { .dev = "ipu0", .opcode = IPU_CMD_RUN, .handle = 1,
				  .program = "main" };
	struct ipu_error e;
	char want[160], why[sizeof(e.msg) + 32] = "";
	size_t i;
	int r, st;

	for (i = 0; i < sizeof(engine_errnos) / sizeof(engine_errnos[0]) && !why[0]; i++) {
		r = ipu__engine_errno(engine_errnos[i].status);
		if (r != engine_errnos[i].err)
			snprintf(why, sizeof(why), "status %d: %d, want %d",
				 engine_errnos[i].status, r, engine_errnos[i].err);
	}
	CHECK("engine status: the documented errno of each status", !why[0], "%s", why);

	/* the model device reports ipu__engine_errno(s) and ipue_strerror(s);
	 * the card's RUN_FAILED with s in its detail must give the same */
	for (i = 1; i < sizeof(engine_errnos) / sizeof(engine_errnos[0]) && !why[0]; i++) {
		st = engine_errnos[i].status;
		r = ipu__card_status_err(&e, &x, IPU_STATUS_RUN_FAILED, (uint32_t)-st, 0);
		snprintf(want, sizeof(want), "program 1 ('main') on ipu0: run failed: %s",
			 ipue_strerror(st));
		if (r != engine_errnos[i].err || strcmp(e.msg, want))
			snprintf(why, sizeof(why), "status %d: %d '%s'", st, r, e.msg);
	}
	CHECK("engine status: RUN_FAILED on the card as on the model device", !why[0], "%s", why);

	for (i = 0; i < sizeof(card_engine) / sizeof(card_engine[0]) && !why[0]; i++) {
		x.opcode = card_engine[i].card == IPU_STATUS_LOAD_FAILED ? IPU_CMD_LOAD :
			   IPU_CMD_RUN;
		r = ipu__card_status_err(&e, &x, card_engine[i].card, 0, IPU_GRAPH_NONE);
		if (r != ipu__engine_errno(card_engine[i].status))
			snprintf(why, sizeof(why), "card status %u: %d, engine's %d",
				 card_engine[i].card, r, ipu__engine_errno(card_engine[i].status));
	}
	CHECK("engine status: card statuses that stand for one have its errno", !why[0], "%s",
	      why);
}

/* ---- graph tables ---- */

/*
 * Three host handles, two entry programs, and (for container_verdicts.c) a
 * non-empty section of every type but the vertex ones: a constant with
 * initial data, a stream, metadata.
 */
int build(uint32_t model, void **bin, size_t *len, struct ipu_error *err)
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

static void t_table(void)
{
	struct ipu_error e;
	struct ipu__graph_table t;
	struct ipu_device *d = NULL;
	void *bin = NULL;
	size_t len = 0;
	char why[160], pn[64];
	int r, ok = 1, n;

	r = build(IPU_MODEL_TEST, &bin, &len, &e);
	CHECK("table: builder makes a graph", r == 0, "%s", e.msg);
	if (r)
		return;
	r = ipu__graph_table_parse(bin, len, &t, why, sizeof(why));
	CHECK("table: parses", r == 0 && t.nhandles == 3 && t.nprograms == 2 &&
	      t.model == IPU_MODEL_TEST, "%d %s handles %u programs %u", r, why, t.nhandles,
	      t.nprograms);
	if (r)
		goto out;
	/* the model device reads the same binary with the engine's loader */
	r = ipu_model_open("test", 1, &d, &e);
	if (!r)
		r = ipu_load(d, bin, len, &e);
	CHECK("table: the model device loads it", r == 0, "%s", e.msg);
	if (r)
		goto out;
	n = ipu_tensor_count(d, &e);
	ok = n == (int)t.nhandles;
	for (int i = 0; ok && i < n; i++) {
		struct ipu_tensor_info ti;
		const struct ipu__graph_handle *h = &t.handles[i];

		ok = !ipu_tensor_info(d, (unsigned)i, &ti, &e) && !strcmp(ti.name, h->name) &&
		     ti.dtype == h->dtype && ti.rank == h->rank && ti.bytes == h->bytes &&
		     ti.elements == h->elements && ti.access == h->access &&
		     !memcmp(ti.shape, h->shape, sizeof(ti.shape));
		if (!ok)
			printf("# handle %d: model '%s' %u %llu, table '%s' %u %llu\n", i, ti.name,
			       ti.dtype, (unsigned long long)ti.bytes, h->name, h->dtype,
			       (unsigned long long)h->bytes);
	}
	CHECK("table: handles match the engine's (names, dtype, shape, bytes, access)", ok, "count %d", n);
	ok = ipu_program_count(d, &e) == (int)t.nprograms;
	for (unsigned k = 0; ok && k < t.nprograms; k++)
		ok = !ipu_program_name(d, k, pn, sizeof(pn), &e) && !strcmp(pn, t.programs[k]);
	CHECK("table: programs match the engine's", ok, "programs differ");
	ipu__graph_table_free(&t);

	/* every truncation and single-byte corruption: no crash, no leak */
	ok = 1;
	for (size_t l = 0; l < len; l++) {
		r = ipu__graph_table_parse(bin, l, &t, why, sizeof(why));
		if (!r)
			ipu__graph_table_free(&t);
		if (!r && l < len) {
			ok = 0;
			printf("# truncation to %zu accepted\n", l);
			break;
		}
	}
	CHECK("table: every truncation refused", ok, "see above");
	{
		unsigned char *c = malloc(len);
		unsigned seed = 1;
		int crashes = 0;

		for (int round = 0; round < 20000 && c; round++) {
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
		CHECK("table: 20000 corrupted binaries parse or fail cleanly", crashes == 0, "%d", crashes);
	}
	r = ipu__graph_table_parse("IPUGxxxx", 8, &t, why, sizeof(why));
	CHECK("table: a stub is refused with a reason", r == -EINVAL && strstr(why, "header"), "%d %s",
	      r, why);
out:
	ipu_device_close(d);
	free(bin);
}

/* ---- ranged, async and buffer calls on the model device ---- */

static void t_model_api(void)
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

	if (build(IPU_MODEL_TEST, &bin, &len, &e) || ipu_model_open("test", 1, &d, &e) ||
	    ipu_load(d, bin, len, &e)) {
		CHECK("model api: setup", 0, "%s", e.msg);
		free(bin);
		ipu_device_close(d);
		return;
	}
	for (int i = 0; i < 15; i++)
		in[i] = (float)i * 1.5f;
	r = ipu_tensor_write_at(d, "alpha", 8, in, 20, &e);
	r = r ? r : ipu_tensor_write_at(d, "alpha", 0, in, 8, &e);
	r = r ? r : ipu_tensor_write_at(d, "alpha", 28, in + 7, 32, &e);
	r = r ? r : ipu_tensor_read(d, "alpha", out, sizeof(out), &e);
	CHECK("model api: write_at pieces make the tensor", r == 0 &&
	      !memcmp(out, in, 8) && !memcmp((char *)out + 8, in, 20) &&
	      !memcmp((char *)out + 28, in + 7, 32), "%d %s", r, e.msg);
	r = ipu_tensor_write_at(d, "alpha", 40, in, 24, &e);
	CHECK("model api: out-of-range offset refused with the range",
	      r == -ERANGE && strstr(e.msg, "tensor 'alpha': offset 40 + 24 bytes is beyond its 60 bytes"),
	      "%d '%s'", r, e.msg);
	r = ipu_tensor_write_at(d, "nope", 0, in, 4, &e);
	CHECK("model api: unknown tensor", r == -ENOENT && strstr(e.msg, "no tensor 'nope'"), "%d '%s'", r,
	      e.msg);
	r = ipu_tensor_read_at(d, "beta_in", 0, raw, 2, &e);
	CHECK("model api: write-only tensor cannot be read", r == -EACCES, "%d '%s'", r, e.msg);
	r = ipu_tensor_read_async(d, "alpha", 4, out, 8, &req, &e);
	CHECK("model api: async read completes", r == 0 && !ipu_request_wait(d, req, 0, &e) &&
	      !memcmp(out, (char *)in + 4, 4), "%d %s", r, e.msg);
	r = ipu_buffer_alloc(d, 4096, &ba, &e);
	CHECK("model api: buffer alloc", r == 0 && ipu_buffer_ptr(ba) && ipu_buffer_size(ba) == 4096,
	      "%d %s", r, e.msg);
	if (!r) {
		memcpy(ipu_buffer_ptr(ba), in, 60);
		r = ipu_tensor_write(d, "alpha", ipu_buffer_ptr(ba), 60, &e);
		CHECK("model api: write from a buffer", r == 0, "%s", e.msg);
	}
	r = ipu_buffer_pin(d, raw + 1, 40, &bp, &e);
	CHECK("model api: buffer pin of unaligned memory", r == 0 && ipu_buffer_ptr(bp) == raw + 1,
	      "%d %s", r, e.msg);
	{
		struct ipu_buffer *bz = NULL;

		r = ipu_buffer_alloc(d, 0, &bz, &e);
		CHECK("model api: zero-size buffer refused", r == -EINVAL && !bz, "%d", r);
	}
	ipu_buffer_free(bp);
	ipu_buffer_free(ba);
	r = ipu_run(d, 5, 1, NULL, &e);
	CHECK("model api: wrong program index", r == -ERANGE && strstr(e.msg, "program 5"), "%d '%s'", r,
	      e.msg);
	ipu_device_close(d);
	free(bin);
}

int main(void)
{
	printf("KTAP version 1\n");
	t_status();
	t_engine_status();
	t_table();
	t_model_api();
	t_container_verdicts();
	printf("1..%d\n", ntest);
	return nfail ? 1 : 0;
}
