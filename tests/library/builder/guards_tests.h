/* SPDX-License-Identifier: MIT */
/*
 * Guards (docs/builder.md "Guards"): a run that reads a host-writable
 * tensor nothing wrote fails naming it; what counts as written; the
 * zero-init option; commit-at-load. On the model device. Included by
 * test_builder.c (its ASSERT_CALL, err, load_run).
 */

#define GUARD_N 64u

/* the contents of the one-stream feed of guard_graph() */
struct guard_feed {
	float x[GUARD_N];
	int fed;
};

static int guard_fetch(void *user, void *dst, size_t len)
{
	struct guard_feed *f = user;

	if (len != sizeof(f->x))
		return -1;
	memcpy(dst, f->x, len);
	f->fed++;
	return 0;
}

/*
 * x [64] f32 over 4 tiles, exposed for writing; y = -x exposed for reading.
 * Programs: 0 "neg" (y = -x), 1 "feed" (x from stream "in"), 2 "fill"
 * (x = -y, then y = -x: writes x before reading it). @zero_init: the
 * graph option.
 */
static struct ipu_graph *guard_graph(struct __test_metadata *_metadata, int zero_init)
{
	uint32_t shape[1] = { GUARD_N };
	struct ipu_graph *g;
	int x, y, s, neg, feed, st, fill;

	if (ipu_graph_create(IPU_MODEL_TEST, &g, &err))
		return NULL;
	x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, &err);
	EXPECT_LE(0, x);
	EXPECT_LE(0, ipu_graph_map_linear(g, x, GUARD_N / 4, &err));
	EXPECT_LE(0, ipu_graph_expose(g, x, NULL, IPU_HANDLE_READ | IPU_HANDLE_WRITE, &err));
	neg = ipu_prog_sequence(g, &err);
	y = ipu_unary(g, neg, IPU_OP_NEG, x, "y", &err);
	EXPECT_LE(0, y) TH_LOG("%s", err.msg);
	EXPECT_LE(0, ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, &err));
	EXPECT_LE(0, ipu_graph_add_program(g, "neg", neg, &err));
	s = ipu_graph_add_stream(g, "in", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, GUARD_N, 1, &err);
	feed = ipu_prog_sequence(g, &err);
	st = ipu_prog_stream_copy(g, s, x, &err);
	EXPECT_LE(0, ipu_prog_append(g, feed, st, &err)) TH_LOG("%s", err.msg);
	EXPECT_LE(0, ipu_graph_add_program(g, "feed", feed, &err));
	/* x written from y first (y itself unwritten: not host-visible for writing) */
	fill = ipu_prog_sequence(g, &err);
	EXPECT_LE(0, ipu_unary(g, fill, IPU_OP_NEG, y, "x2", &err)) TH_LOG("%s", err.msg);
	EXPECT_LE(0, ipu_prog_append(g, fill, ipu_prog_copy(g, ipu_slice_all(g, ipu_graph_find_tensor(g, "x2")),
							    ipu_slice_all(g, x), &err), &err)) TH_LOG("%s", err.msg);
	EXPECT_LE(0, ipu_prog_append(g, fill, neg, &err));
	EXPECT_LE(0, ipu_graph_add_program(g, "fill", fill, &err));
	EXPECT_LE(0, ipu_graph_set_zero_init(g, zero_init, &err));
	return g;
}

static struct ipu_device *guard_load(struct __test_metadata *_metadata, struct ipu_graph *g)
{
	struct ipu_device *d = NULL;

	load_run(_metadata, g, "test", &d);
	return d;
}

/* y read back equals -x for the x given */
static int guard_y_is_neg(struct ipu_device *d, const float *x)
{
	float y[GUARD_N];

	if (ipu_tensor_read(d, "y", y, sizeof(y), &err))
		return 0;
	for (unsigned i = 0; i < GUARD_N; i++)
		if (y[i] != -x[i])
			return 0;
	return 1;
}

TEST(guards_unwritten_input_named)
{
	struct ipu_graph *g = guard_graph(_metadata, 0);
	struct ipu_device *d;
	float x[GUARD_N];

	ASSERT_TRUE(g != NULL);
	d = guard_load(_metadata, g);
	ASSERT_EQ(-ENODATA, ipu_run(d, 0, 1, NULL, &err));
	EXPECT_TRUE(strstr(err.msg, "reads tensor 'x', which was never written") != NULL) TH_LOG("%s", err.msg);
	EXPECT_TRUE(strstr(err.msg, "program 0 ('neg')") != NULL) TH_LOG("%s", err.msg);
	/* writing it then running works, with the right result */
	fill_rand(x, GUARD_N);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	EXPECT_TRUE(guard_y_is_neg(d, x));
	/* a new load forgets what was written */
	ipu_device_close(d);
	d = guard_load(_metadata, g);
	EXPECT_EQ(-ENODATA, ipu_run(d, 0, 1, NULL, &err));
	ipu_device_close(d);
	ipu_graph_free(g);
}

TEST(guards_program_writes_before_reading)
{
	struct ipu_graph *g = guard_graph(_metadata, 0);
	struct ipu_device *d;
	float zero[GUARD_N] = { 0 };

	ASSERT_TRUE(g != NULL);
	d = guard_load(_metadata, g);
	/* "fill" writes all of x before reading it: runs; then "neg" may read x */
	ASSERT_CALL(ipu_run(d, 2, 1, NULL, &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	EXPECT_TRUE(guard_y_is_neg(d, zero));
	ipu_device_close(d);
	ipu_graph_free(g);
}

TEST(guards_stream_counts_as_written)
{
	struct ipu_graph *g = guard_graph(_metadata, 0);
	struct guard_feed f = { .fed = 0 };
	struct ipu_stream_callbacks cb = { guard_fetch, NULL, &f };
	struct ipu_device *d;

	ASSERT_TRUE(g != NULL);
	d = guard_load(_metadata, g);
	fill_rand(f.x, GUARD_N);
	ASSERT_CALL(ipu_stream_connect(d, "in", &cb, &err));
	EXPECT_EQ(-ENODATA, ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_run(d, 1, 1, NULL, &err));
	EXPECT_EQ(1, f.fed);
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	EXPECT_TRUE(guard_y_is_neg(d, f.x));
	ipu_device_close(d);
	ipu_graph_free(g);
}

TEST(guards_initial_data_and_zero_init)
{
	struct ipu_graph *g = guard_graph(_metadata, 0);
	struct ipu_device *d;
	float x[GUARD_N], zero[GUARD_N] = { 0 };

	ASSERT_TRUE(g != NULL);
	/* initial data counts as written */
	fill_rand(x, GUARD_N);
	ASSERT_CALL(ipu_graph_set_initial(g, ipu_graph_find_tensor(g, "x"), x, sizeof(x), &err));
	d = guard_load(_metadata, g);
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	EXPECT_TRUE(guard_y_is_neg(d, x));
	ipu_device_close(d);
	ipu_graph_free(g);
	/* the zero-init option: the old behaviour, x reads as zeros */
	g = guard_graph(_metadata, 1);
	ASSERT_TRUE(g != NULL);
	d = guard_load(_metadata, g);
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	EXPECT_TRUE(guard_y_is_neg(d, zero));
	ipu_device_close(d);
	ipu_graph_free(g);
}

/* load g on a fresh model device with @flags; the load's info */
static struct ipu_device *guard_load_ex(struct __test_metadata *_metadata, struct ipu_graph *g,
					unsigned flags, struct ipu_load_info *li)
{
	struct ipu_device *d = NULL;
	void *bin;
	size_t len;
	int r;

	if (ipu_graph_write(g, &bin, &len, &err) || test_model_open("test", 0, &d, &err))
		return NULL;
	r = ipu_load_ex(d, bin, len, flags, li, &err);
	free(bin);
	EXPECT_EQ(0, r) TH_LOG("%s", err.msg);
	return d;
}

TEST(guards_commit_at_load)
{
	struct ipu_graph *g = guard_graph(_metadata, 0);
	static const uint8_t junk[128];
	struct ipu_load_info lazy, eager;
	struct ipu_device *d;
	float x[GUARD_N];
	uint64_t planned = 0;

	ASSERT_TRUE(g != NULL);
	for (unsigned t = 0; t < ipu_graph_tiles(g); t++)
		planned += ipu_graph_tile_used(g, t);
	fill_rand(x, GUARD_N);
	d = guard_load_ex(_metadata, g, 0, &lazy);
	ASSERT_TRUE(d != NULL);
	ipu_device_close(d);
	d = guard_load_ex(_metadata, g, IPU_LOAD_COMMIT_MEMORY, &eager);
	ASSERT_TRUE(d != NULL);
	/* committed: at least every planned byte, and more than a lazy load */
	EXPECT_LE(planned, eager.committed_bytes);
	EXPECT_LT(lazy.committed_bytes, eager.committed_bytes);
	/* same results */
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	EXPECT_TRUE(guard_y_is_neg(d, x));
	/* unknown flags are refused */
	EXPECT_EQ(-EINVAL, ipu_load_ex(d, junk, sizeof(junk), 0x80, NULL, &err));
	EXPECT_TRUE(strstr(err.msg, "unknown flags 0x80") != NULL) TH_LOG("%s", err.msg);
	ipu_device_close(d);
	ipu_graph_free(g);
}

/*
 * x written by an If's branches (a copy of constant k), then read by y = -x:
 * with both branches writing x, the program runs without a host write; with
 * only one, it may read x unwritten and is refused.
 */
static struct ipu_graph *guard_if_graph(struct __test_metadata *_metadata, int both,
					const float *kval)
{
	uint32_t shape[1] = { GUARD_N };
	int32_t one = 1;
	struct ipu_graph *g;
	int x, k, c, seq, then_p, else_p;

	if (ipu_graph_create(IPU_MODEL_TEST, &g, &err))
		return NULL;
	x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, &err);
	k = ipu_graph_add_tensor(g, "k", IPU_DTYPE_F32, 1, shape, &err);
	c = ipu_graph_add_tensor(g, "c", IPU_DTYPE_I32, 0, NULL, &err);
	EXPECT_LE(0, ipu_graph_map_linear(g, x, GUARD_N / 4, &err));
	EXPECT_LE(0, ipu_graph_map_linear(g, k, GUARD_N / 2, &err));
	EXPECT_LE(0, ipu_graph_map_tile(g, c, 0, &err));
	EXPECT_LE(0, ipu_graph_set_initial(g, k, kval, GUARD_N * 4, &err));
	EXPECT_LE(0, ipu_graph_set_initial(g, c, &one, 4, &err));
	EXPECT_LE(0, ipu_graph_expose(g, x, NULL, IPU_HANDLE_WRITE, &err));
	then_p = ipu_prog_copy(g, ipu_slice_all(g, k), ipu_slice_all(g, x), &err);
	else_p = both ? ipu_prog_copy(g, ipu_slice_all(g, k), ipu_slice_all(g, x), &err) : -1;
	seq = ipu_prog_sequence(g, &err);
	EXPECT_LE(0, ipu_prog_append(g, seq, ipu_prog_if(g, c, then_p, else_p, &err), &err))
		TH_LOG("%s", err.msg);
	EXPECT_LE(0, ipu_graph_expose(g, ipu_unary(g, seq, IPU_OP_NEG, x, "y", &err), NULL,
				      IPU_HANDLE_READ, &err)) TH_LOG("%s", err.msg);
	EXPECT_LE(0, ipu_graph_add_program(g, "if", seq, &err));
	return g;
}

TEST(guards_if_branches)
{
	float k[GUARD_N];
	struct ipu_graph *g;
	struct ipu_device *d;

	fill_rand(k, GUARD_N);
	g = guard_if_graph(_metadata, 1, k);
	ASSERT_TRUE(g != NULL);
	d = guard_load(_metadata, g);
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	EXPECT_TRUE(guard_y_is_neg(d, k));
	ipu_device_close(d);
	ipu_graph_free(g);
	g = guard_if_graph(_metadata, 0, k);
	ASSERT_TRUE(g != NULL);
	d = guard_load(_metadata, g);
	EXPECT_EQ(-ENODATA, ipu_run(d, 0, 1, NULL, &err));
	EXPECT_TRUE(strstr(err.msg, "'x'") != NULL) TH_LOG("%s", err.msg);
	ipu_device_close(d);
	ipu_graph_free(g);
}
