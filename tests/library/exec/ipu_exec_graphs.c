// SPDX-License-Identifier: MIT
/*
 * In-VM test: graphs give the same output bytes on every card as on the
 * in-process model device of the same chip (ipu_model_open and
 * ipu_device_open in one process): a matmul through the partition helper,
 * an MLP forward pass, a Repeat loop, and a loop with streams (Repeat over:
 * StreamCopy in -> compute -> StreamCopy out, the streams bound to rings in
 * ipu_buffer_alloc() buffers with ipu_stream_bind()). The run stats must
 * agree exactly too (the card runs the same engine and reports its run
 * records: cycles per phase, steps, compute sets, exchanges, syncs,
 * exchanged and streamed bytes), through ipu_run and through
 * ipu_run_start + ipu_wait. Every case runs twice per card: runs through
 * the user queue (the library's default when the driver has one) and
 * through SUBMIT (IPUDEV_RUNQ=kernel). KTAP on stdout.
 */
#include "exec_common.h"

static struct ipu_error e;

/* results of card_case() */
#define TESTS_PER_CASE	11

struct io {
	const char *name;
	void *data;
	size_t bytes;
};

/* run program 0 @count times: ipu_run, or with @async ipu_run_start +
 * ipu_wait; its stats into @st */
static int run_prog(struct ipu_device *d, unsigned count, int async, struct ipu_run_stats *st)
{
	int r;

	memset(st, 0, sizeof(*st));
	if (!async)
		return ipu_run(d, 0, count, st, &e);
	r = ipu_run_start(d, 0, count, &e);
	return r ? r : ipu_wait(d, 0, st, &e);
}

/* load @bin, write the inputs, run program 0 @count times, read @out */
static int run_on(struct ipu_device *d, const void *bin, size_t len, const struct io *in,
		  int nin, unsigned count, int async, const char *out, void *res,
		  size_t rbytes, struct ipu_run_stats *st)
{
	int r = ipu_load(d, bin, len, &e);

	for (int i = 0; !r && i < nin; i++)
		r = ipu_tensor_write(d, in[i].name, in[i].data, in[i].bytes, &e);
	if (!r)
		r = run_prog(d, count, async, st);
	if (!r)
		r = ipu_tensor_read(d, out, res, rbytes, &e);
	return r;
}

/* the second result of a case: the card's run stats against the model's */
static void stats_result(const char *what, struct ipu_device *card,
			 const struct ipu_run_stats *sc, const struct ipu_run_stats *sm)
{
	char why[200];
	int ok = !stats_differ(sc, sm, why, sizeof(why));

	kt_result(ok, "%s: %s reports the model's run stats (%llu cycles: %llu compute, %llu sync, "
		  "%llu exchange, %llu stream; %llu steps)%s%s", what, ipu_device_name(card),
		  (unsigned long long)sm->cycles, (unsigned long long)sm->cycles_compute,
		  (unsigned long long)sm->cycles_sync, (unsigned long long)sm->cycles_exchange,
		  (unsigned long long)sm->cycles_stream, (unsigned long long)sm->steps,
		  ok ? "" : " # ", ok ? "" : why);
}

/*
 * Run on the card and the model, compare bytes, then the run stats: two
 * results. 0 when the bytes are equal.
 */
static int same(struct ipu_device *card, struct ipu_device *model, const char *what,
		const void *bin, size_t len, const struct io *in, int nin, unsigned count,
		int async, const char *out, size_t rbytes, float *result)
{
	void *a = malloc(rbytes), *b = malloc(rbytes);
	struct ipu_run_stats sc, sm;
	int ok = 0;

	if (!a || !b) {
		kt_result(0, "%s # out of memory", what);
		kt_result(0, "%s: run stats # not compared", what);
	} else if (run_on(card, bin, len, in, nin, count, async, out, a, rbytes, &sc)) {
		kt_result(0, "%s: on %s # %s", what, ipu_device_name(card), e.msg);
		kt_result(0, "%s: run stats # not compared", what);
	} else if (run_on(model, bin, len, in, nin, count, async, out, b, rbytes, &sm)) {
		kt_result(0, "%s: on the model # %s", what, e.msg);
		kt_result(0, "%s: run stats # not compared", what);
	} else {
		ok = !memcmp(a, b, rbytes);
		kt_result(ok, "%s: %s and the model give the same %zu bytes", what,
			  ipu_device_name(card), rbytes);
		stats_result(what, card, &sc, &sm);
		if (result)
			memcpy(result, a, rbytes);
	}
	free(a);
	free(b);
	return ok ? 0 : -1;
}

/* Repeat(@rounds) { in -> x; y = x * x + x; y -> out } over @l f32 */
static int graph_stream_loop(uint32_t model, uint32_t l, uint32_t rounds, void **bin,
			     size_t *len)
{
	uint32_t shape[1] = { l };
	struct ipu_graph *g;
	int x, sq, y, body, loop, sin, sout, n, r;

	r = ipu_graph_create(model, &g, &e);
	if (r)
		return r;
	x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, &e);
	if (x < 0 || ipu_graph_map_linear(g, x, 16, &e) < 0)
		goto fail;
	sin = ipu_graph_add_stream(g, "in", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, l, 2, &e);
	sout = ipu_graph_add_stream(g, "out", IPU_STREAM_DEVICE_TO_HOST, IPU_DTYPE_F32, l, 2, &e);
	body = ipu_prog_sequence(g, &e);
	if (sin < 0 || sout < 0 || body < 0)
		goto fail;
	n = ipu_prog_stream_copy(g, sin, x, &e);
	if (n < 0 || ipu_prog_append(g, body, n, &e) < 0)
		goto fail;
	sq = ipu_binary(g, body, IPU_OP_MUL, x, x, "sq", &e);
	y = sq < 0 ? sq : ipu_binary(g, body, IPU_OP_ADD, sq, x, "y", &e);
	if (y < 0)
		goto fail;
	n = ipu_prog_stream_copy(g, sout, y, &e);
	if (n < 0 || ipu_prog_append(g, body, n, &e) < 0)
		goto fail;
	loop = ipu_prog_repeat(g, rounds, body, &e);
	if (loop < 0 || ipu_graph_add_program(g, "rounds", loop, &e) < 0 ||
	    ipu_graph_write(g, bin, len, &e))
		goto fail;
	ipu_graph_free(g);
	return 0;
fail:
	ipu_graph_free(g);
	return -EINVAL;
}

/* load, bind "in"/"out" to rings of @rounds transfers, run once; out -> @res,
 * the run's stats -> @st */
static int stream_run_on(struct ipu_device *d, const void *bin, size_t len, const float *in,
			 size_t bytes, float *res, struct ipu_run_stats *st)
{
	struct ipu_buffer *bi = NULL, *bo = NULL;
	int r = ipu_load(d, bin, len, &e);

	if (!r)
		r = ipu_buffer_alloc(d, bytes, &bi, &e);
	if (!r)
		r = ipu_buffer_alloc(d, bytes, &bo, &e);
	if (!r) {
		memcpy(ipu_buffer_ptr(bi), in, bytes);
		r = ipu_stream_bind(d, "in", bi, 0, bytes, &e);
	}
	if (!r)
		r = ipu_stream_bind(d, "out", bo, 0, bytes, &e);
	if (!r)
		r = run_prog(d, 1, 0, st);
	if (!r)
		memcpy(res, ipu_buffer_ptr(bo), bytes);
	if (!r)
		r = ipu_stream_bind(d, "in", NULL, 0, 0, &e);
	if (!r)
		r = ipu_stream_bind(d, "out", NULL, 0, 0, &e);
	ipu_buffer_free(bi);
	ipu_buffer_free(bo);
	return r;
}

/* One card and its model device, and what names their tests. */
struct case_ctx {
	unsigned id;
	uint32_t model;
	const char *mname, *path;
	struct ipu_device *card, *md;
	uint64_t *seed;
};

/* matmul, against the model device and a host reference */
static void matmul_test(const struct case_ctx *cc)
{
	enum { M = 96, K = 128, N = 80 };
	float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
	float *c = malloc(sizeof(float) * M * N);
	double *ref = malloc(sizeof(double) * M * N);
	struct io in[2] = { { "a", a, sizeof(float) * M * K }, { "b", b, sizeof(float) * K * N } };
	void *bin = NULL;
	size_t len;
	char what[128];

	fill_floats(a, M * K, cc->seed);
	fill_floats(b, K * N, cc->seed);
	snprintf(what, sizeof(what), "ipu%u (%s, %s): matmul %ux%ux%u", cc->id, cc->mname, cc->path,
		 M, K, N);
	if (graph_matmul(cc->model, M, K, N, &bin, &len, &e)) {
		kt_result(0, "%s: build # %s", what, e.msg);
		kt_result(0, "%s: run stats", what);
		kt_result(0, "%s: reference", what);
	} else if (!same(cc->card, cc->md, what, bin, len, in, 2, 1, 0, "c", sizeof(float) * M * N,
			 c)) {
		double err;

		ref_matmul(a, b, ref, M, N, K);
		err = max_rel_err(c, ref, (size_t)M * N, sqrt((double)K));
		kt_result(err < 1e-5, "%s: matches the host reference (max rel. error %g)", what, err);
	} else {
		kt_result(0, "%s: reference # not compared", what);
	}
	free(bin);
	bin = NULL;
	free(a);
	free(b);
	free(c);
	free(ref);
}

/* MLP, against the model device */
static void mlp_test(const struct case_ctx *cc)
{
	enum { B = 32, I = 48, H = 64, O = 24 };
	static float x[B * I], w1[I * H], b1[H], w2[H * O], b2[O];
	struct io in[5] = { { "x", x, sizeof(x) }, { "w1", w1, sizeof(w1) },
			    { "b1", b1, sizeof(b1) }, { "w2", w2, sizeof(w2) },
			    { "b2", b2, sizeof(b2) } };
	void *bin = NULL;
	size_t len;
	char what[128];

	fill_floats(x, B * I, cc->seed);
	fill_floats(w1, I * H, cc->seed);
	fill_floats(b1, H, cc->seed);
	fill_floats(w2, H * O, cc->seed);
	fill_floats(b2, O, cc->seed);
	snprintf(what, sizeof(what), "ipu%u (%s, %s): MLP %ux%u-%u-%u", cc->id, cc->mname, cc->path, B,
		 I, H, O);
	if (graph_mlp(cc->model, B, I, H, O, &bin, &len, &e)) {
		kt_result(0, "%s: build # %s", what, e.msg);
		kt_result(0, "%s: run stats", what);
	} else {
		same(cc->card, cc->md, what, bin, len, in, 5, 1, 0, "y", sizeof(float) * B * O,
		     NULL);
	}
	free(bin);
	bin = NULL;
}

/* loop: acc += x, 10 times per run, run 3 times; @async: with ipu_run_start
 * + ipu_wait, else with ipu_run */
static void loop_test(const struct case_ctx *cc, int async)
{
	enum { L = 1000 };
	static float acc[L], x[L];
	struct io in[2] = { { "acc", acc, sizeof(acc) }, { "x", x, sizeof(x) } };
	void *bin = NULL;
	size_t len;
	char what[128];

	fill_floats(acc, L, cc->seed);
	fill_floats(x, L, cc->seed);
	snprintf(what, sizeof(what), "ipu%u (%s, %s): Repeat(10) loop, run 3 times%s", cc->id,
		 cc->mname, cc->path, async ? " (ipu_run_start + ipu_wait)" : "");
	if (graph_loop(cc->model, L, 10, &bin, &len, &e)) {
		kt_result(0, "%s: build # %s", what, e.msg);
		kt_result(0, "%s: run stats", what);
	} else {
		same(cc->card, cc->md, what, bin, len, in, 2, 3, async, "acc", sizeof(acc), NULL);
	}
	free(bin);
	bin = NULL;
}

/* loop with streams: Repeat(R) { in -> x; y = x*x + x; y -> out } */
static void stream_loop_test(const struct case_ctx *cc)
{
	enum { L = 500, R = 6 };
	static float in[L * R], a[L * R], b[L * R];
	struct ipu_run_stats sc, sm;
	void *bin = NULL;
	size_t len;
	char what[128];

	fill_floats(in, L * R, cc->seed);
	snprintf(what, sizeof(what), "ipu%u (%s, %s): Repeat(%u) loop with streams", cc->id,
		 cc->mname, cc->path, R);
	if (graph_stream_loop(cc->model, L, R, &bin, &len)) {
		kt_result(0, "%s: build # %s", what, e.msg);
		kt_result(0, "%s: run stats", what);
	} else if (stream_run_on(cc->card, bin, len, in, sizeof(in), a, &sc)) {
		kt_result(0, "%s: on %s # %s", what, ipu_device_name(cc->card), e.msg);
		kt_result(0, "%s: run stats # not compared", what);
	} else if (stream_run_on(cc->md, bin, len, in, sizeof(in), b, &sm)) {
		kt_result(0, "%s: on the model # %s", what, e.msg);
		kt_result(0, "%s: run stats # not compared", what);
	} else {
		kt_result(!memcmp(a, b, sizeof(a)) && a[L * R - 1] ==
			  in[L * R - 1] * in[L * R - 1] + in[L * R - 1],
			  "%s: %s and the model give the same %zu bytes", what,
			  ipu_device_name(cc->card), sizeof(a));
		stats_result(what, cc->card, &sc, &sm);
		if (!sm.stream_bytes_h2d || sm.stream_bytes_h2d != sizeof(in) ||
		    sm.stream_bytes_d2h != sizeof(in))
			printf("# %s: the model streamed %llu / %llu bytes, expected %zu\n",
			       what, (unsigned long long)sm.stream_bytes_h2d,
			       (unsigned long long)sm.stream_bytes_d2h, sizeof(in));
	}
	free(bin);
	bin = NULL;
}

/* @kernel: runs through SUBMIT (IPUDEV_RUNQ=kernel), else the default */
static void card_case(unsigned id, uint32_t model, uint64_t *seed, int kernel)
{
	struct ipu_device *card = NULL, *md = NULL;
	const char *mname = ipu_model_name(model);
	const char *path = kernel ? "SUBMIT" : "user queue";
	struct case_ctx cc;
	int r;

	if (kernel)
		setenv("IPUDEV_RUNQ", "kernel", 1);
	r = ipu_device_open(id, IPU_OPEN_ATTACH, &card, &e);
	unsetenv("IPUDEV_RUNQ");
	if (r || ipu_model_open(mname, 1, &md, &e)) {
		for (int i = 0; i < TESTS_PER_CASE; i++)
			kt_result(0, "ipu%u (%s, %s): open # %s", id, mname, path, e.msg);
		ipu_device_close(card);
		return;
	}
	cc = (struct case_ctx){ .id = id, .model = model, .mname = mname, .path = path,
				.card = card, .md = md, .seed = seed };
	matmul_test(&cc);
	mlp_test(&cc);
	/* loop: acc += x, 10 times per run, run 3 times: with ipu_run, then
	 * with ipu_run_start + ipu_wait */
	for (int async = 0; async < 2; async++)
		loop_test(&cc, async);
	stream_loop_test(&cc);
	ipu_device_close(card);
	ipu_device_close(md);
}

int main(void)
{
	struct ipu_card *cards;
	size_t n;
	uint64_t seed = 42;

	printf("TAP version 13\n");
	if (ipu_enumerate(&cards, &n, &e)) {
		printf("1..1\nnot ok 1 enumerate # %s\n", e.msg);
		return 1;
	}
	printf("1..%zu\n", n * 2 * TESTS_PER_CASE);
	for (size_t i = 0; i < n; i++)
		for (int kernel = 0; kernel < 2; kernel++)
			card_case(cards[i].id, cards[i].model, &seed, kernel);
	ipu_cards_free(cards);
	return kt_fail ? 1 : 0;
}
