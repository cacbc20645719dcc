/* SPDX-License-Identifier: MIT */
/*
 * Tests of ipu_binary()'s numpy broadcasting of b onto a's shape (a's own
 * broadcast: views_tests.h), on the
 * model device, exact against the double result rounded once. Included by
 * test_builder.c (uses its helpers: err, rng, frand, load_run, expect_err).
 */

/* one binary op with b broadcast onto a, checked element by element */
struct bcast_case {
	const char *model;
	uint32_t model_id;
	unsigned ra, rb;
	uint32_t sa[IPU_MAX_RANK], sb[IPU_MAX_RANK];
	unsigned op;
	int b_on_one_tile;	/* else spread like a */
	int in_place;
};

static uint64_t count_of(unsigned rank, const uint32_t *shape)
{
	uint64_t n = 1;

	for (unsigned i = 0; i < rank; i++)
		n *= shape[i];
	return n;
}

/* the element of b (shape sb, rank rb, right-aligned) that a's element e meets */
static uint64_t ref_bindex(const struct bcast_case *c, uint64_t e)
{
	uint64_t coord[IPU_MAX_RANK], bi = 0;

	for (unsigned i = c->ra; i-- > 0;) {
		coord[i] = e % c->sa[i];
		e /= c->sa[i];
	}
	for (unsigned j = 0; j < c->rb; j++) {
		unsigned i = c->ra - c->rb + j;

		bi = bi * c->sb[j] + (c->sb[j] == 1 ? 0 : coord[i]);
	}
	return bi;
}

static double ref_binary(unsigned op, double a, double b)
{
	switch (op) {
	case IPU_OP_ADD: return a + b;
	case IPU_OP_SUB: return a - b;
	case IPU_OP_MUL: return a * b;
	case IPU_OP_DIV: return a / b;
	case IPU_OP_MAX: return a > b ? a : b;
	default: return a < b ? a : b;
	}
}

static void run_bcast_case(struct __test_metadata *_metadata, const struct bcast_case *c)
{
	uint64_t na = count_of(c->ra, c->sa), nb = count_of(c->rb, c->sb);
	/* + 1: an empty a or b (a 0 dimension) too */
	float *a = malloc((na + 1) * sizeof(*a)), *b = malloc((nb + 1) * sizeof(*b)), *o = malloc((na + 1) * sizeof(*o));
	struct ipu_graph *g;
	struct ipu_device *d;
	struct ipu_tensor_desc desc;
	int ta, tb, to, seq;

	ASSERT_TRUE(a && b && o);
	fill_rand(a, na);
	fill_rand(b, nb);
	for (uint64_t i = 0; i < nb; i++)	/* no division by ~0: exact comparison stays meaningful */
		b[i] = b[i] < 0 ? b[i] - 0.5f : b[i] + 0.5f;
	ASSERT_CALL(ipu_graph_create(c->model_id, &g, &err));
	ASSERT_CALL(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, c->ra, c->sa, &err));
	ASSERT_CALL(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, c->rb, c->sb, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ta, 1, &err));
	if (c->b_on_one_tile) {
		ASSERT_CALL(ipu_graph_map_tile(g, tb, ipu_graph_tiles(g) - 1, &err));
	} else {
		ASSERT_CALL(ipu_graph_map_linear(g, tb, 1, &err));
	}
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(to = ipu_binary(g, seq, c->op, ta, tb, c->in_place ? NULL : "out", &err));
	ASSERT_CALL(ipu_graph_tensor_desc(g, to, &desc, &err));
	ASSERT_EQ(c->ra, desc.rank);
	for (unsigned i = 0; i < c->ra; i++) {
		ASSERT_EQ(c->sa[i], desc.shape[i]);
	}
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	ASSERT_CALL(ipu_graph_expose(g, ta, NULL, c->in_place ? IPU_HANDLE_RW : IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
	if (!c->in_place) {
		ASSERT_CALL(ipu_graph_expose(g, to, NULL, IPU_HANDLE_READ, &err));
	}
	load_run(_metadata, g, c->model, &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_tensor_write(d, "a", a, na * sizeof(*a), &err));
	ASSERT_CALL(ipu_tensor_write(d, "b", b, nb * sizeof(*b), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, c->in_place ? "a" : "out", o, na * sizeof(*o), &err));
	ipu_device_close(d);
	/* binary f32 ops are correctly rounded: exactly the double result rounded once */
	for (uint64_t e = 0; e < na; e++) {
		float want = (float)ref_binary(c->op, a[e], b[ref_bindex(c, e)]);

		ASSERT_TRUE(o[e] == want)
			TH_LOG("op %u a rank %u [%u %u %u %u] b rank %u [%u %u %u %u]: element %llu is %g, "
			       "want %g", c->op, c->ra, c->sa[0], c->sa[1], c->sa[2], c->sa[3], c->rb,
			       c->sb[0], c->sb[1], c->sb[2], c->sb[3], (unsigned long long)e, o[e], want);
	}
	free(a);
	free(b);
	free(o);
}

TEST(broadcast_random_shapes)
{
	/* rank 1..4, odd sizes, a dimension of 1 in every position of b in turn, every 7th empty */
	for (int k = 0; k < 48; k++) {
		struct bcast_case c = { "test", IPU_MODEL_TEST, 0, 0, { 0 }, { 0 }, 0, 0, 0 };
		unsigned one = (unsigned)k % 4;

		c.ra = 1 + (unsigned)(rng % 4);
		frand();
		c.rb = 1 + (unsigned)(rng % c.ra);
		frand();
		for (unsigned i = 0; i < c.ra; i++) {
			c.sa[i] = 1 + (unsigned)(rng % (c.ra > 2 ? 13 : 97));
			frand();
		}
		for (unsigned j = 0; j < c.rb; j++) {
			unsigned i = c.ra - c.rb + j;

			c.sb[j] = (rng % 3 == 0 || i == one) ? 1 : c.sa[i];
			frand();
		}
		if (k % 7 == 6) {	/* a 0 in a (numpy: 0 meets 0 or 1 in b; an empty result) */
			unsigned z = (unsigned)k % c.ra;

			c.sa[z] = 0;
			if (z >= c.ra - c.rb && c.sb[z - (c.ra - c.rb)] != 1)
				c.sb[z - (c.ra - c.rb)] = 0;
		}
		c.op = IPU_OP_ADD + (unsigned)(k % 6);
		c.b_on_one_tile = k % 3 == 0;
		c.in_place = k % 5 == 0;
		run_bcast_case(_metadata, &c);
	}
}

TEST(broadcast_named_cases)
{
	static const struct bcast_case cases[] = {
		/* per row, the softmax case, over all 1472 tiles */
		{ "gc200", IPU_MODEL_GC200, 2, 2, { 301, 777 }, { 301, 1 }, IPU_OP_SUB, 0, 0 },
		{ "gc200", IPU_MODEL_GC200, 2, 2, { 301, 777 }, { 301, 1 }, IPU_OP_DIV, 1, 1 },
		{ "test", IPU_MODEL_TEST, 2, 1, { 37, 55 }, { 55 }, IPU_OP_ADD, 1, 0 },	/* bias */
		{ "test", IPU_MODEL_TEST, 2, 0, { 37, 55 }, { 0 }, IPU_OP_MUL, 0, 0 },	/* rank-0 b */
		{ "test", IPU_MODEL_TEST, 3, 3, { 5, 7, 9 }, { 5, 1, 9 }, IPU_OP_MAX, 0, 0 },
		{ "test", IPU_MODEL_TEST, 3, 3, { 5, 7, 9 }, { 1, 7, 1 }, IPU_OP_MIN, 1, 0 },
		{ "test", IPU_MODEL_TEST, 4, 4, { 3, 1, 5, 7 }, { 3, 1, 1, 7 }, IPU_OP_SUB, 0, 1 },
		{ "test", IPU_MODEL_TEST, 4, 2, { 2, 3, 5, 7 }, { 5, 1 }, IPU_OP_DIV, 0, 0 },
		/* tiles straddling a's rows 0/1 read both ends of b: per-vertex copies */
		{ "test", IPU_MODEL_TEST, 3, 3, { 4, 10, 10 }, { 1, 10, 10 }, IPU_OP_ADD, 0, 0 },
		{ "test", IPU_MODEL_TEST, 3, 2, { 4, 10, 10 }, { 10, 10 }, IPU_OP_SUB, 1, 1 },
		{ "test", IPU_MODEL_TEST, 1, 1, { 1 }, { 1 }, IPU_OP_ADD, 0, 0 },
		{ "test", IPU_MODEL_TEST, 2, 2, { 1000, 1 }, { 1, 1 }, IPU_OP_ADD, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_bcast_case(_metadata, &cases[i]);
}

TEST(broadcast_refused)
{
	struct ipu_graph *g;
	uint32_t sa[2] = { 4, 5 }, s3[1] = { 3 }, s145[3] = { 1, 4, 5 }, s41[2] = { 4, 1 }, s20[1] = { 20 };
	int ta, t3, t145, ti, t20, seq;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, sa, &err));
	ASSERT_CALL(t3 = ipu_graph_add_tensor(g, "b3", IPU_DTYPE_F32, 1, s3, &err));
	ASSERT_CALL(t145 = ipu_graph_add_tensor(g, "b145", IPU_DTYPE_F32, 3, s145, &err));
	ASSERT_CALL(ti = ipu_graph_add_tensor(g, "bi", IPU_DTYPE_I32, 2, s41, &err));
	ASSERT_CALL(t20 = ipu_graph_add_tensor(g, "b20", IPU_DTYPE_F32, 1, s20, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ta, 1, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, t3, 0, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, t145, 0, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, ti, 0, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, t20, 0, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	expect_err(_metadata, ipu_binary(g, seq, IPU_OP_ADD, ta, t3, "o1", &err),
		   "tensor 'b3' [3] does not broadcast to tensor 'a' [4, 5]", "[3] onto [4,5]");
	/* same element count, other shape: numpy refuses it, so do we */
	expect_err(_metadata, ipu_binary(g, seq, IPU_OP_ADD, ta, t20, "o2", &err),
		   "'b20' [20] does not broadcast to tensor 'a' [4, 5]", "[20] onto [4,5]");
	/* a higher-rank b broadcasts a (binary_broadcast_both_ways in views_tests.h runs it) */
	expect_err(_metadata, ipu_binary(g, seq, IPU_OP_ADD, ta, t145, NULL, &err),
		   "'a' [4, 5] would be broadcast to tensor 'b145' [1, 4, 5]", "higher rank b in place");
	expect_err(_metadata, ipu_binary(g, seq, IPU_OP_ADD, t3, ta, "o4", &err),
		   "tensors 'b3' [3] and 'a' [4, 5] do not broadcast together: dimension 1 is 3 and 5",
		   "a and b do not broadcast");
	expect_err(_metadata, ipu_binary(g, seq, IPU_OP_ADD, ta, ti, "o5", &err),
		   "tensor 'bi' is i32", "dtype");
	ASSERT_EQ(-ENOENT, ipu_graph_find_tensor(g, "o1"));
	ipu_graph_free(g);
}
