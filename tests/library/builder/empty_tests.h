/* SPDX-License-Identifier: MIT */
/*
 * Empty (zero-size) tensors with numpy's semantics (docs/builder.md "Empty
 * tensors"): creation, mapping, host handles of 0 bytes, and every op family
 * over random shapes with a 0 dimension, the graphs loaded and run on the
 * model device; the refusals (max/min/argmax over an empty axis, shapes
 * that do not broadcast). Included by test_builder.c (uses err, rng, frand,
 * load_run, expect_err).
 */

/* a new tensor @name, mapped linearly (nothing to map when it is empty) */
static int et_add(struct ipu_graph *g, const char *name, unsigned dtype, unsigned rank, const uint32_t *shape)
{
	int t = ipu_graph_add_tensor(g, name, dtype, rank, shape, &err);

	if (t >= 0 && ipu_graph_map_linear(g, t, 1, &err) < 0)
		return -1;
	return t;
}

/* tensor t has shape (rank, shape) */
static void et_expect_shape(struct __test_metadata *_metadata, struct ipu_graph *g, int t, unsigned rank,
			    const uint32_t *shape, const char *what)
{
	struct ipu_tensor_desc d;

	ASSERT_LE(0, t) TH_LOG("%s: %s", what, err.msg);
	ASSERT_CALL(ipu_graph_tensor_desc(g, t, &d, &err));
	ASSERT_EQ(rank, d.rank) TH_LOG("%s: rank", what);
	for (unsigned i = 0; i < rank; i++) {
		ASSERT_EQ(shape[i], d.shape[i]) TH_LOG("%s: dimension %u", what, i);
	}
}

/* a random shape of rank 1..4 with dimensions 1..5 and dimension @zero (< rank) 0 */
static unsigned et_random_shape(uint32_t *shape, unsigned *zero)
{
	unsigned rank = 1 + (unsigned)((rng >> 5) % 4);

	for (unsigned i = 0; i < rank; i++) {
		frand();
		shape[i] = 1 + (uint32_t)((rng >> 9) % 5);
	}
	frand();
	*zero = (unsigned)((rng >> 7) % rank);
	shape[*zero] = 0;
	return rank;
}

/* numpy's broadcast of two shapes (right-aligned; 1 goes with anything, 0 included) */
static unsigned et_bcast(unsigned ra, const uint32_t *a, unsigned rb, const uint32_t *b, uint32_t *out)
{
	unsigned r = ra > rb ? ra : rb;

	for (unsigned d = 0; d < r; d++) {
		uint32_t x = d + ra >= r ? a[d + ra - r] : 1, y = d + rb >= r ? b[d + rb - r] : 1;

		out[d] = x == 1 ? y : x;
	}
	return r;
}

/* g loaded on a model device, program 0 run twice (the second run: a Fill rewrites what the first wrote) */
static struct ipu_device *et_load_run(struct __test_metadata *_metadata, struct ipu_graph *g)
{
	struct ipu_device *d = NULL;

	load_run(_metadata, g, "test", &d);
	EXPECT_EQ(0, ipu_run(d, 0, 1, NULL, &err)) TH_LOG("run: %s", err.msg);
	EXPECT_EQ(0, ipu_run(d, 0, 1, NULL, &err)) TH_LOG("second run: %s", err.msg);
	return d;
}

/* handle @name (n f32) written with 7s, then program 0 run: what the run must write is seen written */
static void et_junk_run(struct __test_metadata *_metadata, struct ipu_device *d, const char *name, uint64_t n)
{
	float *junk = malloc(n * 4 + 4);

	ASSERT_NE(NULL, junk);
	for (uint64_t i = 0; i < n; i++)
		junk[i] = 7;
	ASSERT_CALL(ipu_tensor_write(d, name, junk, n * 4, &err));
	free(junk);
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
}

/* n f32 of handle @name all equal to v (NaN: all NaN) */
static void et_expect_all(struct __test_metadata *_metadata, struct ipu_device *d, const char *name, uint64_t n,
			  float v)
{
	float *x = malloc(n * 4 + 4);

	ASSERT_NE(NULL, x);
	for (uint64_t i = 0; i < n; i++)
		x[i] = 12345.0f;
	ASSERT_CALL(ipu_tensor_read(d, name, x, n * 4, &err));
	for (uint64_t i = 0; i < n; i++) {
		EXPECT_TRUE(v != v ? x[i] != x[i] : x[i] == v) TH_LOG("%s[%llu] = %g, want %g", name,
								  (unsigned long long)i, x[i], v);
	}
	free(x);
}

TEST(empty_tensors_map_expose_and_load)
{
	static const uint32_t s3[] = { 3, 0, 2 }, s0[] = { 0 }, s4[] = { 4 };
	struct ipu_graph *g;
	struct ipu_device *d;
	struct ipu_tensor_desc td;
	int a, b, c, e, x, st;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(a = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 3, s3, &err));
	ASSERT_CALL(b = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F16, 1, s0, &err));
	ASSERT_CALL(c = ipu_graph_add_tensor(g, "c", IPU_DTYPE_I32, 1, s0, &err));
	ASSERT_CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, s4, &err));
	ASSERT_CALL(ipu_graph_tensor_desc(g, a, &td, &err));
	ASSERT_EQ(0u, td.elements);
	ASSERT_EQ(0u, ipu_graph_tile_used(g, 0));
	ASSERT_CALL(ipu_graph_map_tile(g, a, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, b, 4, &err));
	ASSERT_CALL(ipu_graph_map(g, c, 0, 0, 2, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, x, 0, &err));
	for (unsigned t = 0; t < ipu_graph_tiles(g); t++) {
		ASSERT_EQ(t == 0 ? 16u : 0u, ipu_graph_tile_used(g, t)) TH_LOG("tile %u", t);
	}
	/* refusals: a count of 0 for a tensor with elements, a tile that does not exist, elements past 0 */
	expect_err(_metadata, ipu_graph_map(g, x, 0, 0, 0, &err), "cannot map elements [0, 0)", "count 0");
	expect_err(_metadata, ipu_graph_map(g, c, 0, 0, 9999, &err), "", "no such tile");
	expect_err(_metadata, ipu_graph_map(g, c, 0, 1, 0, &err), "cannot map elements [0, 1)", "past the end");
	expect_err(_metadata, ipu_graph_add_stream(g, "s", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, 0, 1, &err),
		   "at least one element", "stream of 0 elements");
	ASSERT_CALL(st = ipu_graph_add_stream(g, "s1", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, 1, 1, &err));
	expect_err(_metadata, ipu_prog_stream_copy(g, st, c, &err), "", "stream copy into an empty tensor");
	/* a copy of nothing is a no-op; a vertex field of nothing is refused (graph-format.md) */
	ASSERT_CALL(e = et_add(g, "e", IPU_DTYPE_F16, 2, (const uint32_t[]){ 5, 0 }));
	ASSERT_CALL(ipu_prog_copy(g, ipu_slice_all(g, b), ipu_slice_all(g, e), &err));
	{
		int cs = ipu_graph_add_compute_set(g, "cs", &err);
		struct ipu_slice f[2] = { ipu_slice_all(g, c), ipu_slice_all(g, c) };

		ASSERT_CALL(cs);
		expect_err(_metadata, ipu_graph_add_vertex(g, cs, IPUE_CODELET_COPY, f, 2, NULL, 0, &err), "", "vertex");
	}
	ASSERT_CALL(ipu_graph_set_initial(g, c, NULL, 0, &err));
	expect_err(_metadata, ipu_graph_set_initial(g, c, s4, 4, &err), "initial data of 4 bytes", "bytes");
	ASSERT_CALL(ipu_graph_expose(g, a, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_expose(g, b, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, c, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", ipu_prog_sequence(g, &err), &err));
	{
		/* the memory report: only x's 16 bytes of tensor data, from the graph and from its binary */
		struct ipu_memory_report mr = { 0 }, mb = { 0 };
		void *bin;
		size_t len;

		ASSERT_CALL(ipu_graph_memory_report(g, &mr, &err));
		EXPECT_EQ(16u, mr.tensor_data);
		ASSERT_CALL(ipu_graph_write(g, &bin, &len, &err));
		ASSERT_CALL(ipu_graph_binary_memory_report(bin, len, &mb, &err));
		EXPECT_EQ(mr.total, mb.total);
		free(bin);
		ipu_memory_report_free(&mr);
		ipu_memory_report_free(&mb);
	}
	d = et_load_run(_metadata, g);
	ASSERT_CALL(ipu_tensor_write(d, "a", NULL, 0, &err));
	ASSERT_CALL(ipu_tensor_read(d, "a", NULL, 0, &err));
	ASSERT_CALL(ipu_tensor_read(d, "b", NULL, 0, &err));
	ASSERT_CALL(ipu_tensor_write(d, "c", s4, 0, &err));
	expect_err(_metadata, ipu_tensor_write(d, "a", s4, 4, &err), "4 bytes given, the tensor has 0", "4 bytes");
	ipu_device_close(d);
	ipu_graph_free(g);
}

/* one random elementwise case: a (a 0 somewhere) against b (1 or a's size per dimension, maybe fewer dims) */
static void et_elementwise_case(struct __test_metadata *_metadata, unsigned k)
{
	uint32_t sa[IPU_MAX_RANK], sb[IPU_MAX_RANK], so[IPU_MAX_RANK];
	unsigned zero, ra = et_random_shape(sa, &zero), rb, ro, drop = (unsigned)(rng % ra);
	struct ipu_graph *g;
	struct ipu_device *d;
	struct ipu_expr *e;
	size_t nv, ncopies;
	int a, b, l, r, cond, seq, out[8];
	char buf[64];

	rb = ra - drop;
	for (unsigned i = 0; i < rb; i++) {
		frand();
		sb[i] = rng % 3 == 0 ? 1 : sa[i + drop];
	}
	ro = et_bcast(ra, sa, rb, sb, so);
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(a = et_add(g, "a", IPU_DTYPE_F32, ra, sa));
	ASSERT_CALL(b = et_add(g, "b", IPU_DTYPE_F32, rb, sb));
	/* the side with the 0 first or second (numpy's result is the same) */
	l = k & 1 ? b : a, r = k & 1 ? a : b;
	nv = g->nv, ncopies = ipu__graph_copy_count(g);
	out[0] = ipu_unary(g, seq, IPU_OP_NEG + k % 9, a, "unary", &err);
	out[1] = ipu_binary(g, seq, IPU_OP_ADD + k % 6, l, r, "binary", &err);
	out[2] = cond = ipu_compare(g, seq, IPU_CMP_EQ + k % 6, l, r, "compare", &err);
	out[3] = ipu_select(g, seq, cond, ipu_graph_find_tensor(g, "binary"), a, "select", &err);
	out[4] = ipu_cast(g, seq, a, k % 2 ? IPU_DTYPE_F16 : IPU_DTYPE_I32, "cast", &err);
	out[5] = ipu_nonlinearity(g, seq, IPU_NL_RELU + k % 4, a, "nl", &err);
	out[6] = ipu_nonlinearity_grad(g, seq, IPU_NL_SIGMOID, a, a, "nl_grad", &err);
	e = ipu_expr_binary(IPU_OP_MUL, ipu_expr_unary(IPU_OP_EXP, ipu_expr_input(1, &err), &err),
			    ipu_expr_input(2, &err), &err);
	ASSERT_NE(NULL, e) TH_LOG("%s", err.msg);
	out[7] = ipu_map(g, seq, e, (const int[]){ l, r }, 2, "map", &err);
	ipu_expr_free(e);
	for (unsigned i = 0; i < 8; i++) {
		snprintf(buf, sizeof(buf), "case %u op %u", k, i);
		/* unary, cast, nonlinearities: a's shape; the rest: the broadcast shape */
		et_expect_shape(_metadata, g, out[i], i == 0 || (i >= 4 && i <= 6) ? ra : ro,
				i == 0 || (i >= 4 && i <= 6) ? sa : so, buf);
	}
	EXPECT_EQ(nv, g->nv) TH_LOG("case %u: vertices added for empty tensors", k);
	EXPECT_EQ(ncopies, ipu__graph_copy_count(g)) TH_LOG("case %u: copies added for empty tensors", k);
	ASSERT_CALL(ipu_graph_expose(g, out[1], NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	d = et_load_run(_metadata, g);
	ASSERT_CALL(ipu_tensor_read(d, "binary", NULL, 0, &err));
	ipu_device_close(d);
	ipu_graph_free(g);
}

TEST(empty_elementwise_random_shapes)
{
	rng = 0x5eed0e1;
	for (unsigned k = 0; k < 24; k++)
		et_elementwise_case(_metadata, k);
}

TEST(empty_broadcast_refused)
{
	static const uint32_t s03[] = { 0, 3 }, s23[] = { 2, 3 }, s3[] = { 3 };
	struct ipu_graph *g;
	int a, b, c, seq;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(a = et_add(g, "a", IPU_DTYPE_F32, 2, s03));
	ASSERT_CALL(b = et_add(g, "b", IPU_DTYPE_F32, 2, s23));
	ASSERT_CALL(c = et_add(g, "c", IPU_DTYPE_F32, 1, s3));
	/* 0 meets only 0 and 1 */
	expect_err(_metadata, ipu_binary(g, seq, IPU_OP_ADD, b, a, "y", &err), "dimension 0 is 0, must be 1 or 2",
		   "[2, 3] + [0, 3]");
	expect_err(_metadata, ipu_binary(g, seq, IPU_OP_ADD, a, b, "y", &err), "dimension 0 is 2, must be 1 or 0",
		   "[0, 3] + [2, 3]");
	expect_err(_metadata, ipu_broadcast(g, seq, a, 2, s23, "y", &err), "dimension 0 is 0, must be 1 or 2",
		   "broadcast [0, 3] to [2, 3]");
	expect_err(_metadata, ipu_broadcast(g, seq, c, 2, (const uint32_t[]){ 2, 0 }, "y", &err),
		   "dimension 1 is 3, must be 1 or 0", "broadcast [3] to [2, 0]");
	ipu_graph_free(g);
}

TEST(empty_views)
{
	static const uint32_t s23[] = { 2, 3 }, s03[] = { 0, 3 }, s4[] = { 4 };
	const float xv[6] = { 1, 2, 3, 4, 5, 6 };
	struct ipu_graph *g;
	struct ipu_device *d;
	float got[6];
	int x, e, v, seq, parts[4];

	rng = 0x71e35;
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(x = et_add(g, "x", IPU_DTYPE_F32, 2, s23));
	ASSERT_CALL(e = et_add(g, "e", IPU_DTYPE_F32, 2, s03));
	/* reshape to and from empty shapes */
	v = ipu_reshape(g, e, 3, (const uint32_t[]){ 5, 0, 7 }, "r1", &err);
	et_expect_shape(_metadata, g, v, 3, (const uint32_t[]){ 5, 0, 7 }, "reshape [0, 3] to [5, 0, 7]");
	v = ipu_reshape(g, v, 1, (const uint32_t[]){ 0 }, "r2", &err);
	et_expect_shape(_metadata, g, v, 1, (const uint32_t[]){ 0 }, "reshape to [0]");
	expect_err(_metadata, ipu_reshape(g, e, 1, s4, "r3", &err), "has 0 elements, shape [4] has 4", "0 to 4");
	/* random empty slices of x: begin == end in some dimension */
	for (unsigned k = 0; k < 8; k++) {
		uint32_t b[2], en[2];
		char name[16];

		for (unsigned i = 0; i < 2; i++) {
			frand();
			b[i] = (uint32_t)(rng % (s23[i] + 1));
			en[i] = b[i] + (uint32_t)((rng >> 8) % (s23[i] - b[i] + 1));
		}
		b[k % 2] = en[k % 2];
		snprintf(name, sizeof(name), "slice%u", k);
		v = ipu_slice_dims(g, x, b, en, name, &err);
		et_expect_shape(_metadata, g, v, 2, (const uint32_t[]){ en[0] - b[0], en[1] - b[1] }, name);
		/* a slice of the empty slice */
		snprintf(name, sizeof(name), "slice%u.0", k);
		v = ipu_slice_dims(g, v, (const uint32_t[]){ 0, 0 }, (const uint32_t[]){ en[0] - b[0], en[1] - b[1] },
				   name, &err);
		ASSERT_LE(0, v) TH_LOG("%s", err.msg);
	}
	/* concat with empty parts: the non-empty ones' elements in order */
	parts[0] = e, parts[1] = x, parts[3] = e;
	parts[2] = ipu_slice_dims(g, x, (const uint32_t[]){ 1, 0 }, (const uint32_t[]){ 1, 3 }, "rows1_1", &err);
	v = ipu_concat(g, parts, 4, 0, "cat", &err);
	et_expect_shape(_metadata, g, v, 2, s23, "concat [0, 3], [2, 3], x[1:1], [0, 3]");
	v = ipu_concat(g, (const int[]){ e, e }, 2, 1, "cat_e", &err);
	et_expect_shape(_metadata, g, v, 2, (const uint32_t[]){ 0, 6 }, "concat of empty tensors");
	v = ipu_transpose(g, seq, e, (const unsigned[]){ 1, 0 }, "tr", &err);
	et_expect_shape(_metadata, g, v, 2, (const uint32_t[]){ 3, 0 }, "transpose");
	v = ipu_broadcast(g, seq, ipu_slice_dims(g, x, (const uint32_t[]){ 0, 0 }, (const uint32_t[]){ 1, 3 }, "row",
						  &err), 2, s03, "bc", &err);
	et_expect_shape(_metadata, g, v, 2, s03, "broadcast [1, 3] to [0, 3]");
	v = ipu_broadcast(g, seq, e, 3, (const uint32_t[]){ 4, 0, 3 }, "bc3", &err);
	et_expect_shape(_metadata, g, v, 3, (const uint32_t[]){ 4, 0, 3 }, "broadcast [0, 3] to [4, 0, 3]");
	ASSERT_CALL(ipu_graph_expose(g, x, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, ipu_graph_find_tensor(g, "cat"), NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	load_run(_metadata, g, "test", &d);
	ASSERT_CALL(ipu_tensor_write(d, "x", xv, sizeof(xv), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "cat", got, sizeof(got), &err));
	for (unsigned i = 0; i < 6; i++) {
		EXPECT_EQ(xv[i], got[i]) TH_LOG("cat[%u]", i);
	}
	ipu_device_close(d);
	ipu_graph_free(g);
}

/* one random reduction of a tensor with a 0: numpy's shape, 0s, or the refusal */
static void et_reduce_case(struct __test_metadata *_metadata, unsigned k)
{
	uint32_t s[IPU_MAX_RANK], so[IPU_MAX_RANK];
	unsigned zero, rank = et_random_shape(s, &zero), op = IPU_REDUCE_SUM + k % 3, ro = 0, naxes = 0;
	int axes[IPU_MAX_RANK], x, y, seq, empty_axis = 0;
	uint64_t no = 1;
	struct ipu_graph *g;
	struct ipu_device *d;
	char what[96];

	for (unsigned i = 0; i < rank; i++) {
		frand();
		if (rng % 2 || (i == rank - 1 && !naxes)) {
			axes[naxes++] = (int)i;
			empty_axis |= !s[i];
		} else {
			so[ro++] = s[i];
			no *= s[i];
		}
	}
	snprintf(what, sizeof(what), "case %u: op %u over %u of %u axes, 0 at %u", k, op, naxes, rank, zero);
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(x = et_add(g, "x", k % 4 == 3 ? IPU_DTYPE_F16 : IPU_DTYPE_F32, rank, s));
	y = ipu_reduce_axes(g, seq, op, x, axes, naxes, "y", &err);
	if (empty_axis && no && op != IPU_REDUCE_SUM) {
		expect_err(_metadata, y, "of an empty axis is undefined (numpy raises)", what);
		EXPECT_NE(NULL, strstr(err.msg, "tensor 'x'")) TH_LOG("%s: %s", what, err.msg);
		ipu_graph_free(g);
		return;
	}
	et_expect_shape(_metadata, g, y, ro, so, what);
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	d = et_load_run(_metadata, g);
	if (no) {	/* a sum over nothing; written by every run (the host's write is overwritten) */
		et_junk_run(_metadata, d, "y", no);
		et_expect_all(_metadata, d, "y", no, 0.0f);
	}
	ipu_device_close(d);
	ipu_graph_free(g);
}

TEST(empty_reductions_random_shapes)
{
	rng = 0x7ed0c3;
	for (unsigned k = 0; k < 30; k++)
		et_reduce_case(_metadata, k);
}

TEST(empty_reduce_rows_and_argmax)
{
	static const uint32_t s30[] = { 3, 0 }, s05[] = { 0, 5 }, s00[] = { 0, 0 };
	struct ipu_graph *g;
	struct ipu_device *d;
	int a, b, z, seq, y;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(a = et_add(g, "a", IPU_DTYPE_F32, 2, s30));
	ASSERT_CALL(b = et_add(g, "b", IPU_DTYPE_F32, 2, s05));
	ASSERT_CALL(z = et_add(g, "z", IPU_DTYPE_F32, 2, s00));
	y = ipu_reduce_rows(g, seq, IPU_REDUCE_SUM, a, "rows_a", &err);
	et_expect_shape(_metadata, g, y, 1, (const uint32_t[]){ 3 }, "row sums of [3, 0]");
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, &err));
	y = ipu_reduce_rows(g, seq, IPU_REDUCE_MAX, b, "rows_b", &err);
	et_expect_shape(_metadata, g, y, 1, (const uint32_t[]){ 0 }, "row maxima of [0, 5]");
	y = ipu_reduce_rows(g, seq, IPU_REDUCE_MIN, z, "rows_z", &err);
	et_expect_shape(_metadata, g, y, 1, (const uint32_t[]){ 0 }, "row minima of [0, 0]: empty, as numpy");
	y = ipu_reduce(g, seq, IPU_REDUCE_SUM, b, "all_b", &err);
	et_expect_shape(_metadata, g, y, 0, NULL, "sum of [0, 5]");
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, &err));
	expect_err(_metadata, ipu_reduce(g, seq, IPU_REDUCE_MAX, b, "all_max", &err), "tensor 'b' [0, 5]",
		   "max of all of an empty tensor");
	expect_err(_metadata, ipu_reduce_rows(g, seq, IPU_REDUCE_MIN, a, "rmin", &err),
		   "the min of an empty axis is undefined", "row minima of [3, 0]");
	y = ipu_argmax(g, seq, b, "am_b", &err);
	et_expect_shape(_metadata, g, y, 1, (const uint32_t[]){ 0 }, "argmax of [0, 5]");
	expect_err(_metadata, ipu_argmax(g, seq, a, "am_a", &err), "tensor 'a' has empty rows", "argmax of [3, 0]");
	expect_err(_metadata, ipu_argmax(g, seq, z, "am_z", &err), "tensor 'z' has empty rows", "argmax of [0, 0]");
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	d = et_load_run(_metadata, g);
	et_expect_all(_metadata, d, "rows_a", 3, 0.0f);
	et_expect_all(_metadata, d, "all_b", 1, 0.0f);
	ipu_device_close(d);
	ipu_graph_free(g);
}

TEST(empty_matmul)
{
	static const struct { uint32_t m, n, k; } mm[] = { { 5, 7, 0 }, { 0, 7, 3 }, { 5, 0, 3 }, { 0, 0, 0 } };
	struct ipu_graph *g;
	struct ipu_device *d;
	int a, b, c, seq;

	for (unsigned i = 0; i < sizeof(mm) / sizeof(mm[0]); i++) {
		uint32_t sa[3] = { 2, mm[i].m, mm[i].k }, sb[3] = { 2, mm[i].k, mm[i].n };
		uint32_t sbt[2] = { mm[i].n, mm[i].k }, sc[3] = { 2, mm[i].m, mm[i].n };

		ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
		ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
		ASSERT_CALL(a = et_add(g, "a", IPU_DTYPE_F32, 2, sa + 1));
		ASSERT_CALL(b = et_add(g, "b", IPU_DTYPE_F32, 2, sb + 1));
		c = ipu_matmul(g, seq, a, b, "c", NULL, &err);
		et_expect_shape(_metadata, g, c, 2, sc + 1, "matmul");
		ASSERT_CALL(ipu_graph_expose(g, c, NULL, IPU_HANDLE_RW, &err));
		ASSERT_CALL(b = et_add(g, "bt", IPU_DTYPE_F16, 2, sbt));
		ASSERT_CALL(a = et_add(g, "a16", IPU_DTYPE_F16, 2, sa + 1));
		c = ipu_matmul_ex(g, seq, a, b, IPU_MATMUL_TRANSPOSE_B, "c16", NULL, &err);
		et_expect_shape(_metadata, g, c, 2, sc + 1, "matmul f16, B transposed");
		ASSERT_CALL(ipu_graph_expose(g, c, NULL, IPU_HANDLE_READ, &err));
		ASSERT_CALL(a = et_add(g, "ga", IPU_DTYPE_F32, 3, sa));
		ASSERT_CALL(b = et_add(g, "gb", IPU_DTYPE_F32, 3, sb));
		c = ipu_matmul_grouped(g, seq, a, b, 0, "cg", NULL, &err);
		et_expect_shape(_metadata, g, c, 3, sc, "grouped matmul");
		ASSERT_CALL(ipu_graph_expose(g, c, NULL, IPU_HANDLE_READ, &err));
		sa[0] = 0, sb[0] = 0, sc[0] = 0;
		ASSERT_CALL(a = et_add(g, "ga0", IPU_DTYPE_F32, 3, sa));
		ASSERT_CALL(b = et_add(g, "gb0", IPU_DTYPE_F32, 3, sb));
		c = ipu_matmul_grouped(g, seq, a, b, 0, "cg0", NULL, &err);
		et_expect_shape(_metadata, g, c, 3, sc, "0 groups");
		expect_err(_metadata, ipu_matmul_plan(g, mm[i].m, mm[i].n, mm[i].k, IPU_DTYPE_F32,
						      &(struct ipu_matmul_plan){ 0 }, &err), "empty matmul", "plan");
		ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
		d = et_load_run(_metadata, g);
		/* k = 0: C = 0 (a sum of nothing), every run */
		et_junk_run(_metadata, d, "c", (uint64_t)mm[i].m * mm[i].n);
		et_expect_all(_metadata, d, "c", (uint64_t)mm[i].m * mm[i].n, 0.0f);
		et_expect_all(_metadata, d, "c16", (uint64_t)mm[i].m * mm[i].n, 0.0f);
		et_expect_all(_metadata, d, "cg", 2ull * mm[i].m * mm[i].n, 0.0f);
		ipu_device_close(d);
		ipu_graph_free(g);
	}
}

TEST(empty_popnn_batch)
{
	static const uint32_t s05[] = { 0, 5 }, s30[] = { 3, 0 }, s5[] = { 5 }, s0[] = { 0 };
	struct ipu_graph *g;
	struct ipu_device *d;
	int x, t, lab, x30, gm, bt, seq, y, grad = -1, mean = -1, istd = -1, dg = -1, db = -1, dx;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(x = et_add(g, "x", IPU_DTYPE_F32, 2, s05));
	ASSERT_CALL(t = et_add(g, "t", IPU_DTYPE_F32, 2, s05));
	ASSERT_CALL(lab = et_add(g, "lab", IPU_DTYPE_I32, 1, s0));
	ASSERT_CALL(x30 = et_add(g, "x30", IPU_DTYPE_F32, 2, s30));
	ASSERT_CALL(gm = et_add(g, "gamma", IPU_DTYPE_F32, 1, s5));
	ASSERT_CALL(bt = et_add(g, "beta", IPU_DTYPE_F32, 1, s5));
	et_expect_shape(_metadata, g, y = ipu_softmax(g, seq, x, "sm", &err), 2, s05, "softmax");
	et_expect_shape(_metadata, g, ipu_softmax_grad(g, seq, y, x, "sm_grad", &err), 2, s05, "softmax_grad");
	et_expect_shape(_metadata, g, y = ipu_log_softmax(g, seq, x, "ls", &err), 2, s05, "log_softmax");
	et_expect_shape(_metadata, g, ipu_log_softmax_grad(g, seq, y, x, "ls_grad", &err), 2, s05, "log_softmax_grad");
	et_expect_shape(_metadata, g, ipu_softmax(g, seq, x30, "sm30", &err), 2, s30, "softmax of empty rows");
	/* cross-entropy: the mean of nothing (NaN), an empty gradient */
	et_expect_shape(_metadata, g, y = ipu_cross_entropy(g, seq, x, t, "ce", "ce_grad", &grad, &err), 0, NULL, "ce");
	et_expect_shape(_metadata, g, grad, 2, s05, "ce gradient");
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_RW, &err));
	et_expect_shape(_metadata, g, y = ipu_cross_entropy_labels(g, seq, x, lab, "cel", "cel_grad", &grad, &err), 0,
			NULL, "ce labels");
	et_expect_shape(_metadata, g, grad, 2, s05, "ce labels gradient");
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_RW, &err));
	expect_err(_metadata, ipu_cross_entropy(g, seq, x30, x30, "ce0", NULL, NULL, &err), "have 0 classes",
		   "no classes");
	/* batch norm: NaN statistics (means of nothing), empty y and dx, zero d_gamma and d_beta */
	et_expect_shape(_metadata, g, y = ipu_batch_norm(g, seq, x, gm, bt, 1e-5f, "bn", &mean, &istd, &err), 2, s05,
			"batch_norm");
	et_expect_shape(_metadata, g, mean, 1, s5, "batch_norm mean");
	ASSERT_CALL(ipu_graph_expose(g, mean, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_expose(g, istd, NULL, IPU_HANDLE_RW, &err));
	et_expect_shape(_metadata, g, dx = ipu_batch_norm_grad(g, seq, x, y, mean, istd, gm, "bn_grad", &dg, &db, &err), 2,
			s05, "batch_norm_grad");
	et_expect_shape(_metadata, g, dg, 1, s5, "d_gamma");
	ASSERT_CALL(ipu_graph_expose(g, dg, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_expose(g, db, NULL, IPU_HANDLE_RW, &err));
	et_expect_shape(_metadata, g, ipu_batch_norm_infer(g, seq, x, gm, bt, gm, bt, 1e-5f, "bn_infer", &err), 2, s05,
			"batch_norm_infer");
	/* layer norm over the last dimension: empty statistics, zero d_gamma and d_beta */
	et_expect_shape(_metadata, g, y = ipu_layer_norm(g, seq, x, gm, bt, 1, 1e-5f, "ln", &mean, &istd, &err), 2,
			s05, "layer_norm");
	et_expect_shape(_metadata, g, mean, 1, s0, "layer_norm mean");
	et_expect_shape(_metadata, g, ipu_layer_norm_grad(g, seq, x, y, mean, istd, gm, 1, "ln_grad", &dg, &db, &err), 2,
			s05, "layer_norm_grad");
	et_expect_shape(_metadata, g, db, 1, s5, "layer norm d_beta");
	ASSERT_CALL(ipu_graph_expose(g, dg, "ln_dg", IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_expose(g, db, "ln_db", IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	d = et_load_run(_metadata, g);
	{
		static const char *const nan_h[] = { "ce", "cel", "bn/mean", "bn/inv_std" };
		static const char *const zero_h[] = { "bn_grad/d_gamma", "bn_grad/d_beta", "ln_dg", "ln_db" };
		struct ipu_tensor_info ti;

		for (unsigned i = 0; i < 4; i++) {
			ASSERT_CALL(ipu_tensor_lookup(d, nan_h[i], &ti, &err));
			et_junk_run(_metadata, d, nan_h[i], ti.elements);
			et_expect_all(_metadata, d, nan_h[i], ti.elements, NAN);
		}
		for (unsigned i = 0; i < 4; i++) {
			ASSERT_CALL(ipu_tensor_lookup(d, zero_h[i], &ti, &err));
			et_junk_run(_metadata, d, zero_h[i], ti.elements);
			et_expect_all(_metadata, d, zero_h[i], ti.elements, 0.0f);
		}
	}
	ipu_device_close(d);
	ipu_graph_free(g);
}

TEST(empty_conv_pool)
{
	static const uint32_t sx[] = { 0, 3, 6, 6 }, sw[] = { 4, 3, 3, 3 }, sy[] = { 0, 4, 4, 4 }, sx0[] = { 2, 0, 6, 6 },
		sw0[] = { 4, 0, 3, 3 }, sy0[] = { 2, 4, 4, 4 }, sxc[] = { 2, 3, 6, 6 }, swo[] = { 0, 3, 3, 3 },
		syo[] = { 2, 0, 4, 4 }, sp[] = { 0, 3, 3, 3 }, sxh[] = { 2, 3, 0, 6 };
	struct ipu_conv2d_params cp = IPU_CONV2D_PARAMS_INIT;
	struct ipu_pool2d_params pp = { sizeof(pp), { 2, 2 }, { 2, 2 }, { 0, 0, 0, 0 } };
	struct ipu_graph *g;
	struct ipu_device *d;
	int x, w, y, x0, w0, xc, wo, xh, seq;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(x = et_add(g, "x", IPU_DTYPE_F32, 4, sx));
	ASSERT_CALL(w = et_add(g, "w", IPU_DTYPE_F32, 4, sw));
	ASSERT_CALL(x0 = et_add(g, "x0", IPU_DTYPE_F32, 4, sx0));
	ASSERT_CALL(w0 = et_add(g, "w0", IPU_DTYPE_F32, 4, sw0));
	ASSERT_CALL(xc = et_add(g, "xc", IPU_DTYPE_F32, 4, sxc));
	ASSERT_CALL(wo = et_add(g, "wo", IPU_DTYPE_F32, 4, swo));
	ASSERT_CALL(xh = et_add(g, "xh", IPU_DTYPE_F32, 4, sxh));
	/* an empty batch: empty y and dx, a zero weight gradient */
	et_expect_shape(_metadata, g, y = ipu_conv2d(g, seq, x, w, &cp, "y", &err), 4, sy, "conv2d, N = 0");
	et_expect_shape(_metadata, g, ipu_conv2d_grad_input(g, seq, y, w, x, &cp, "dx", &err), 4, sx, "grad_input");
	et_expect_shape(_metadata, g, y = ipu_conv2d_grad_weights(g, seq, x, y, w, &cp, "dw", &err), 4, sw,
			"grad_weights");
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_RW, &err));
	/* no input channels: sums over nothing */
	et_expect_shape(_metadata, g, y = ipu_conv2d(g, seq, x0, w0, &cp, "y0", &err), 4, sy0, "conv2d, Cin = 0");
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_RW, &err));
	et_expect_shape(_metadata, g, y = ipu_conv2d(g, seq, xc, wo, &cp, "yo", &err), 4, syo, "conv2d, Cout = 0");
	et_expect_shape(_metadata, g, y = ipu_conv2d_grad_input(g, seq, y, wo, xc, &cp, "dxo", &err), 4, sxc,
			"grad_input, Cout = 0");
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_RW, &err));
	expect_err(_metadata, ipu_conv2d(g, seq, xh, w, &cp, "yh", &err), "bigger than the padded input 0x6",
		   "H = 0");
	/* pooling */
	for (unsigned op = IPU_POOL_MAX; op <= IPU_POOL_AVG; op++) {
		char n1[16], n2[16];

		snprintf(n1, sizeof(n1), "pool%u", op);
		snprintf(n2, sizeof(n2), "pool%u_grad", op);
		et_expect_shape(_metadata, g, y = ipu_pool2d(g, seq, op, x, &pp, n1, &err), 4, sp, "pool2d, N = 0");
		et_expect_shape(_metadata, g, ipu_pool2d_grad(g, seq, op, x, y, &pp, n2, &err), 4, sx, "pool2d_grad");
	}
	et_expect_shape(_metadata, g, ipu_pool2d(g, seq, IPU_POOL_AVG, x0, &pp, "pool_c0", &err), 4,
			(const uint32_t[]){ 2, 0, 3, 3 }, "pool2d, C = 0");
	expect_err(_metadata, ipu_pool2d(g, seq, IPU_POOL_MAX, xh, &pp, "pool_h0", &err), "bigger than the padded input",
		   "pool, H = 0");
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	d = et_load_run(_metadata, g);
	et_junk_run(_metadata, d, "dw", 4 * 3 * 3 * 3);
	et_expect_all(_metadata, d, "dw", 4 * 3 * 3 * 3, 0.0f);
	et_junk_run(_metadata, d, "y0", 2 * 4 * 4 * 4);
	et_expect_all(_metadata, d, "y0", 2 * 4 * 4 * 4, 0.0f);
	et_junk_run(_metadata, d, "dxo", 2 * 3 * 6 * 6);
	et_expect_all(_metadata, d, "dxo", 2 * 3 * 6 * 6, 0.0f);
	ipu_device_close(d);
	ipu_graph_free(g);
}

TEST(empty_optimizers)
{
	static const uint32_t s04[] = { 0, 4 };
	struct ipu_adam_params ap = IPU_ADAM_DEFAULTS;
	struct ipu_graph *g;
	struct ipu_device *d;
	float lr = 0.5f;
	int w, gr, w2, seq, lr_t;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(w = et_add(g, "w", IPU_DTYPE_F32, 2, s04));
	ASSERT_CALL(w2 = et_add(g, "w2", IPU_DTYPE_F32, 2, s04));
	ASSERT_CALL(gr = et_add(g, "grad", IPU_DTYPE_F32, 2, s04));
	ASSERT_CALL(ipu_scaled_add(g, seq, w, gr, -0.1f, &err));
	ASSERT_CALL(lr_t = ipu_sgd_momentum(g, seq, w, gr, 0.1f, 0.9f, "sgd", &err));
	ASSERT_CALL(ipu_adam(g, seq, w2, gr, &ap, "adam", &err));
	ASSERT_EQ(lr_t, ipu_graph_find_tensor(g, "sgd/lr"));
	et_expect_shape(_metadata, g, ipu_graph_find_tensor(g, "sgd/velocity"), 2, s04, "velocity");
	et_expect_shape(_metadata, g, ipu_graph_find_tensor(g, "adam/m"), 2, s04, "adam m");
	ASSERT_CALL(ipu_graph_expose(g, w, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "main", seq, &err));
	d = et_load_run(_metadata, g);
	ASSERT_CALL(ipu_tensor_write(d, "sgd/lr", &lr, sizeof(lr), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "w", NULL, 0, &err));
	ipu_device_close(d);
	ipu_graph_free(g);
}
