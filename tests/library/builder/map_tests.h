/* SPDX-License-Identifier: MIT */
/*
 * Tests of ipu_map() and the expressions (libipudev/map.c, expr.c) on the
 * model device: random expressions over random shapes (odd sizes,
 * broadcast inputs, inputs on one tile) against the same chain of
 * separate ops (ipu_unary, ipu_binary, ipu_compare, ipu_select, ipu_cast)
 * bit for bit, one compute set and one sync per map against one per op in
 * the chain, in place, and every refusal. Included by test_builder.c
 * after popops_tests.h (uses urand(), fill_dtype(), popops_graph()).
 */

/* a random expression being built with its unfused chain (both over the same inputs) */
struct mgen {
	struct ipu_graph *g;
	int seq;		/* the chain's */
	int in[IPU_EXPR_MAX_INPUTS];
	unsigned nin;
	int budget;		/* program bytes left (a constant counted as 5) */
	unsigned dt;		/* the inputs' dtype */
	unsigned nconst, nops;
	uint64_t nsyncs;	/* the chain's compute sets: one per op */
	char first[IPU_ERROR_MSG_MAX];	/* the first failure building the case */
};

/* a node and its chain tensor */
struct mnode {
	struct ipu_expr *e;
	int t;
	unsigned dt;
};

static void mgen_name(char *buf, size_t n, const char *what, unsigned k)
{
	snprintf(buf, n, "chain/%s%u", what, k);
}

/* n, after noting the first failure */
static struct mnode mgen_ok(struct mgen *m, struct mnode n)
{
	if ((!n.e || n.t < 0) && !m->first[0])
		snprintf(m->first, sizeof(m->first), "%s", err.msg[0] ? err.msg : "?");
	return n;
}

/* a constant of dtype dt: untyped or typed in the expression, a rank-0 tensor in the chain */
static struct mnode mgen_const(struct mgen *m, unsigned dt)
{
	double v = dt == IPU_DTYPE_I32 ? (double)urand(300) - 150 : ((double)urand(41) - 20) * 0.375;
	float f = (float)v;
	int32_t iv = (int32_t)v;
	uint16_t h = ipue_f32_to_f16(f);
	char nm[64];
	struct mnode r = { urand(2) ? ipu_expr_const(v, &err) : ipu_expr_const_typed(dt, v, &err), -1, dt };

	mgen_name(nm, sizeof(nm), "const", m->nconst++);
	r.t = ipu_graph_add_tensor(m->g, nm, dt, 0, NULL, &err);
	if (r.t >= 0 && (ipu_graph_map_tile(m->g, r.t, urand(ipu_graph_tiles(m->g)), &err) ||
			 ipu_graph_set_initial(m->g, r.t, dt == IPU_DTYPE_F32 ? (void *)&f : dt == IPU_DTYPE_F16 ?
					       (void *)&h : (void *)&iv, ipu_dtype_size(dt), &err)))
		r.t = -1;
	m->budget -= 5;
	return mgen_ok(m, r);
}

static struct mnode mgen_full(struct mgen *m, unsigned depth);

/* an operand of dtype dt of any broadcastable shape: an input, a constant or a full subtree */
static struct mnode mgen_any(struct mgen *m, unsigned dt, unsigned depth)
{
	unsigned k = urand(m->nin), pick = urand(4);
	struct mnode r;
	char nm[64];

	if (pick < 2 && m->dt == dt && m->budget > 0) {
		m->budget--;
		return mgen_ok(m, (struct mnode){ ipu_expr_input(k + 1, &err), m->in[k], dt });
	}
	if (pick == 2 || !depth || m->budget < 8)
		return mgen_const(m, dt);
	r = mgen_full(m, depth - 1);
	if (r.dt == dt)
		return r;
	mgen_name(nm, sizeof(nm), "cast", m->nops++);
	m->budget--;
	m->nsyncs++;
	return mgen_ok(m, (struct mnode){ ipu_expr_cast(r.e, dt, &err), ipu_cast(m->g, m->seq, r.t, dt, nm, &err),
					  dt });
}

/* a subtree of the output's shape (its leftmost leaf is _1), its chain alongside */
static struct mnode mgen_full(struct mgen *m, unsigned depth)
{
	static const unsigned iu[3] = { IPU_OP_NEG, IPU_OP_ABS, IPU_OP_RELU };
	struct mnode a, b, c;
	unsigned op, pick = depth && m->budget > 6 ? urand(5) : 5;
	char nm[64];

	mgen_name(nm, sizeof(nm), "op", m->nops++);
	if (pick == 5) {
		m->budget--;
		return mgen_ok(m, (struct mnode){ ipu_expr_input(1, &err), m->in[0], m->dt });
	}
	a = mgen_full(m, depth - 1);
	m->budget--;
	m->nsyncs += pick == 3 ? 2 : 1;
	switch (pick) {
	case 0:
		op = a.dt == IPU_DTYPE_I32 ? iu[urand(3)] : 1 + urand(IPU_OP_GELU);
		return mgen_ok(m, (struct mnode){ ipu_expr_unary(op, a.e, &err),
						  ipu_unary(m->g, m->seq, op, a.t, nm, &err), a.dt });
	case 1:
		op = pop_dt[urand(3)];
		return mgen_ok(m, (struct mnode){ ipu_expr_cast(a.e, op, &err),
						  ipu_cast(m->g, m->seq, a.t, op, nm, &err), op });
	case 2:
		b = mgen_any(m, a.dt, depth - 1);
		op = IPU_CMP_EQ + urand(6);
		return mgen_ok(m, (struct mnode){ ipu_expr_compare(op, a.e, b.e, &err),
				       ipu_compare(m->g, m->seq, op, a.t, b.t, nm, &err), IPU_DTYPE_I32 });
	case 3:	/* select(a > b, c, d): cond a comparison of full a */
		m->budget -= 2;
		b = mgen_any(m, a.dt, 0);
		c = mgen_full(m, 0);
		{
			struct mnode d = mgen_any(m, c.dt, 0);
			struct ipu_expr *cond = ipu_expr_compare(IPU_CMP_GT, a.e, b.e, &err);
			char cn[72];
			int tc;

			snprintf(cn, sizeof(cn), "%s/cond", nm);
			tc = ipu_compare(m->g, m->seq, IPU_CMP_GT, a.t, b.t, cn, &err);
			return mgen_ok(m, (struct mnode){ ipu_expr_select(cond, c.e, d.e, &err),
							  ipu_select(m->g, m->seq, tc, c.t, d.t, nm, &err), c.dt });
		}
	default:
		b = mgen_any(m, a.dt, depth - 1);
		op = IPU_OP_ADD + urand(6);
		return mgen_ok(m, (struct mnode){ ipu_expr_binary(op, a.e, b.e, &err),
				       ipu_binary(m->g, m->seq, op, a.t, b.t, nm, &err), a.dt });
	}
}

/* equal bits, any NaN equal to any NaN (payloads are unspecified) */
static int map_same(const void *p, const void *q, uint64_t n, unsigned dt, uint64_t *at)
{
	size_t es = ipu_dtype_size(dt);

	for (uint64_t i = 0; i < n; i++) {
		double a = val_of(p, i, dt), b = val_of(q, i, dt);

		if (memcmp((const char *)p + i * es, (const char *)q + i * es, es) && !(a != a && b != b)) {
			*at = i;
			return 0;
		}
	}
	return 1;
}

/* input k of a random case: the output's shape for k = 0, else a broadcastable one; on one tile or spread */
static int map_add_input(struct __test_metadata *_metadata, struct ipu_graph *g, unsigned k, unsigned dt,
			 unsigned rank, const uint32_t *shape, uint32_t *ishape, unsigned *irank)
{
	char nm[16];
	int t = -1;

	*irank = k ? urand(rank + 1) : rank;
	for (unsigned j = 0; j < *irank; j++)
		ishape[j] = k && urand(3) == 0 ? 1 : shape[rank - *irank + j];
	snprintf(nm, sizeof(nm), "in%u", k);
	ASSERT_CALL(t = ipu_graph_add_tensor(g, nm, dt, *irank, ishape, &err));
	if (urand(3) == 0) {
		ASSERT_CALL(ipu_graph_map_tile(g, t, urand(ipu_graph_tiles(g)), &err));
	} else {
		ASSERT_CALL(ipu_graph_map_linear(g, t, 1 + urand(3), &err));
	}
	ASSERT_CALL(ipu_graph_expose(g, t, NULL, IPU_HANDLE_WRITE, &err));
	return t;
}

/* run program @name on d; its stats */
static void map_run(struct __test_metadata *_metadata, struct ipu_device *d, const char *name,
		    struct ipu_run_stats *st)
{
	int p = -1;

	ASSERT_CALL(p = ipu_program_find(d, name, &err));
	ASSERT_CALL(ipu_run(d, (unsigned)p, 1, st, &err));
}

/*
 * One random case: inputs, expression and chain built together, loaded,
 * run with random data; the fused output equals the chain's bit for bit,
 * in one compute set and one sync.
 */
static void map_random_case(struct __test_metadata *_metadata, unsigned k)
{
	struct mgen m = { .dt = pop_dt[k % 3], .budget = IPUE_MAP_MAX_PROGRAM, .nin = 1 + urand(IPU_EXPR_MAX_INPUTS) };
	uint32_t shape[IPU_MAX_RANK], ishape[IPU_EXPR_MAX_INPUTS][IPU_MAX_RANK];
	unsigned rank, irank[IPU_EXPR_MAX_INPUTS];
	size_t es = ipu_dtype_size(m.dt);
	struct ipu_run_stats sc, sf;
	struct ipu_device *d;
	struct mnode root;
	int fused = -1, fseq = -1, outs[2];
	uint64_t n, at = 0;
	void *x[IPU_EXPR_MAX_INPUTS], *yc = NULL, *yf = NULL;
	char nm[16], cname[80] = "";

	rand_shape(&rank, shape, k % 2 ? 2 : 3, k % 2 ? 37 : 6);
	n = count_of(rank, shape);
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &m.g, &err));
	for (unsigned i = 0; i < m.nin; i++)
		ASSERT_LE(0, m.in[i] = map_add_input(_metadata, m.g, i, m.dt, rank, shape, ishape[i], &irank[i]));
	ASSERT_CALL(m.seq = ipu_prog_sequence(m.g, &err));
	ASSERT_CALL(fseq = ipu_prog_sequence(m.g, &err));
	root = mgen_full(&m, 3);
	ASSERT_TRUE(root.e != NULL && root.t >= 0) TH_LOG("building the case: %s", m.first);
	ASSERT_CALL(fused = ipu_map(m.g, fseq, root.e, m.in, m.nin, "fused", &err));
	ipu_expr_free(root.e);
	outs[0] = fused;
	outs[1] = root.t;
	if (root.t != m.in[0]) {
		struct ipu_tensor_desc td;

		ASSERT_CALL(ipu_graph_tensor_desc(m.g, root.t, &td, &err));
		snprintf(cname, sizeof(cname), "%s", td.name);
	}
	ASSERT_CALL(ipu_graph_add_program(m.g, "chain", m.seq, &err));
	popops_load(_metadata, m.g, fseq, outs, root.t == m.in[0] ? 1 : 2, &d);
	for (unsigned i = 0; i < m.nin; i++) {
		uint64_t ni = count_of(irank[i], ishape[i]);

		ASSERT_TRUE((x[i] = malloc(ni * 4)) != NULL);
		fill_dtype(x[i], ni, m.dt, m.dt == IPU_DTYPE_I32 ? 50 : 4);
		snprintf(nm, sizeof(nm), "in%u", i);
		ASSERT_CALL(ipu_tensor_write(d, nm, x[i], ni * es, &err));
	}
	map_run(_metadata, d, "chain", &sc);
	map_run(_metadata, d, "p", &sf);
	ASSERT_TRUE((yc = malloc(n * 4)) && (yf = malloc(n * 4)));
	ASSERT_CALL(ipu_tensor_read(d, "fused", yf, n * ipu_dtype_size(root.dt), &err));
	if (root.t == m.in[0])
		memcpy(yc, x[0], n * es);
	else
		ASSERT_CALL(ipu_tensor_read(d, cname, yc, n * ipu_dtype_size(root.dt), &err));
	ipu_device_close(d);
	EXPECT_TRUE(map_same(yf, yc, n, root.dt, &at))
		TH_LOG("case %u (%s, %u inputs, %llu elements): fused %g, chain %g at %llu", k,
		       ipu_dtype_name(m.dt), m.nin, (unsigned long long)n, val_of(yf, at, root.dt),
		       val_of(yc, at, root.dt), (unsigned long long)at);
	EXPECT_EQ(1u, sf.compute_sets);
	EXPECT_EQ(1u, sf.syncs);
	EXPECT_EQ(m.nsyncs, sc.syncs);
	free(yc);
	free(yf);
	for (unsigned i = 0; i < m.nin; i++)
		free(x[i]);
}

TEST(map_random_matches_chain)
{
	for (unsigned k = 0; k < 45; k++)
		map_random_case(_metadata, k);
}

/* relu(_1 * 2 + _2) - _2 * 0.5, max 0.25: 6 ops over x [n] and a bias y [C] */
static struct ipu_expr *map_chain6(void)
{
	struct ipu_expr *t = ipu_expr_binary(IPU_OP_ADD, ipu_expr_binary(IPU_OP_MUL, ipu_expr_input(1, &err),
									 ipu_expr_const(2, &err), &err),
					     ipu_expr_input(2, &err), &err);

	t = ipu_expr_nonlinearity(IPU_NL_RELU, t, &err);
	t = ipu_expr_binary(IPU_OP_SUB, t, ipu_expr_binary(IPU_OP_MUL, ipu_expr_input(2, &err),
							    ipu_expr_const(0.5, &err), &err), &err);
	return ipu_expr_binary(IPU_OP_MAX, t, ipu_expr_const(0.25, &err), &err);
}

/* the same as separate ops (constants as rank-0 tensors "k2", "k05", "k025") */
static int map_chain6_ops(struct __test_metadata *_metadata, struct ipu_graph *g, int seq, int x, int y)
{
	static const float kv[3] = { 2, 0.5f, 0.25f };
	static const char *const kn[3] = { "k2", "k05", "k025" };
	int k[3], t = -1, u = -1;

	for (int i = 0; i < 3; i++) {
		ASSERT_CALL(k[i] = ipu_graph_add_tensor(g, kn[i], IPU_DTYPE_F32, 0, NULL, &err));
		ASSERT_CALL(ipu_graph_map_tile(g, k[i], 0, &err));
		ASSERT_CALL(ipu_graph_set_initial(g, k[i], &kv[i], 4, &err));
	}
	ASSERT_CALL(t = ipu_binary(g, seq, IPU_OP_MUL, x, k[0], "c/mul", &err));
	ASSERT_CALL(ipu_binary(g, seq, IPU_OP_ADD, t, y, NULL, &err));
	ASSERT_CALL(ipu_nonlinearity(g, seq, IPU_NL_RELU, t, NULL, &err));
	ASSERT_CALL(u = ipu_binary(g, seq, IPU_OP_MUL, y, k[1], "c/yh", &err));
	ASSERT_CALL(ipu_binary(g, seq, IPU_OP_SUB, t, u, NULL, &err));
	ASSERT_CALL(ipu_binary(g, seq, IPU_OP_MAX, t, k[2], NULL, &err));
	return t;
}

/* the 6-op chain fused: equal bits, 1 compute set and sync against 6, fewer modelled cycles */
TEST(map_fused_chain_counts)
{
	uint32_t shape[2] = { 64, 157 };
	struct ipu_graph *g;
	struct ipu_device *d;
	struct ipu_run_stats sc, sf;
	int x, y, seq, cseq = -1, fused = -1, outs[2];
	struct ipu_expr *e = map_chain6();
	static float xv[64 * 157], yv[157], yc[64 * 157], yf[64 * 157];
	uint64_t at = 0;

	ASSERT_TRUE(e != NULL) TH_LOG("%s", err.msg);
	ASSERT_LE(0, x = popops_graph(_metadata, &g, "x", IPU_DTYPE_F32, 2, shape, 1, &seq));
	ASSERT_CALL(y = ipu_graph_add_tensor(g, "y", IPU_DTYPE_F32, 1, shape + 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, y, 1, &err));
	ASSERT_CALL(ipu_graph_expose(g, y, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(fused = ipu_map(g, seq, e, (int[]){ x, y }, 2, "fused", &err));
	ipu_expr_free(e);
	ASSERT_CALL(cseq = ipu_prog_sequence(g, &err));
	ASSERT_LE(0, outs[1] = map_chain6_ops(_metadata, g, cseq, x, y));
	outs[0] = fused;
	ASSERT_CALL(ipu_graph_add_program(g, "chain", cseq, &err));
	popops_load(_metadata, g, seq, outs, 2, &d);
	fill_rand(xv, 64 * 157);
	fill_rand(yv, 157);
	ASSERT_CALL(ipu_tensor_write(d, "x", xv, sizeof(xv), &err));
	ASSERT_CALL(ipu_tensor_write(d, "y", yv, sizeof(yv), &err));
	map_run(_metadata, d, "p", &sf);
	map_run(_metadata, d, "chain", &sc);
	ASSERT_CALL(ipu_tensor_read(d, "fused", yf, sizeof(yf), &err));
	ASSERT_CALL(ipu_tensor_read(d, "c/mul", yc, sizeof(yc), &err));
	ipu_device_close(d);
	EXPECT_TRUE(map_same(yf, yc, 64 * 157, IPU_DTYPE_F32, &at)) TH_LOG("at %llu", (unsigned long long)at);
	for (unsigned i = 0; i < 64 * 157; i++) {	/* and against plain C float arithmetic */
		float r = fmaxf(xv[i] * 2 + yv[i % 157], 0) - yv[i % 157] * 0.5f;

		ASSERT_EQ(r > 0.25f ? r : 0.25f, yf[i]) TH_LOG("at %u", i);
	}
	EXPECT_EQ(1u, sf.compute_sets);
	EXPECT_EQ(1u, sf.syncs);
	EXPECT_EQ(6u, sc.syncs);
	EXPECT_GT(sc.cycles, sf.cycles);
	printf("# 6-op chain over [64, 157]: modelled cycles %llu fused, %llu unfused (sync %llu / %llu)\n",
	       (unsigned long long)sf.cycles, (unsigned long long)sc.cycles, (unsigned long long)sf.cycles_sync,
	       (unsigned long long)sc.cycles_sync);
	fflush(stdout);
}

/* in place into input 0 (f16), and an output no input has the shape of ([3, 1] with [1, 4]: linear) */
TEST(map_in_place_and_outer_broadcast)
{
	uint32_t sx[1] = { 333 }, sa[2] = { 3, 1 }, sb[2] = { 1, 4 };
	struct ipu_graph *g;
	struct ipu_device *d;
	int x, a, b, seq, r = -1, o = -1;
	uint16_t xv[333], xo[333];
	float av[3] = { 1, 2, 3 }, bv[4] = { 10, 20, 30, 40 }, ov[12];
	struct ipu_expr *sq = ipu_expr_binary(IPU_OP_ADD, ipu_expr_binary(IPU_OP_MUL, ipu_expr_input(1, &err),
									  ipu_expr_input(1, &err), &err),
					      ipu_expr_const(1, &err), &err);
	struct ipu_expr *sum = ipu_expr_binary(IPU_OP_SUB, ipu_expr_input(2, &err), ipu_expr_input(1, &err), &err);

	ASSERT_TRUE(sq && sum) TH_LOG("%s", err.msg);
	ASSERT_LE(0, x = popops_graph(_metadata, &g, "x", IPU_DTYPE_F16, 1, sx, 1, &seq));
	ASSERT_CALL(r = ipu_map(g, seq, sq, &x, 1, NULL, &err));
	EXPECT_EQ(x, r);
	ASSERT_CALL(a = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, sa, &err));
	ASSERT_CALL(b = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 2, sb, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, a, 1, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, b, 2, &err));
	ASSERT_CALL(ipu_graph_expose(g, a, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, b, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(o = ipu_map(g, seq, sum, (int[]){ a, b }, 2, "outer", &err));
	ipu_expr_free(sq);
	ipu_expr_free(sum);
	ASSERT_CALL(ipu_graph_expose(g, x, "xr", IPU_HANDLE_READ, &err));
	popops_load(_metadata, g, seq, &o, 1, &d);
	fill_dtype(xv, 333, IPU_DTYPE_F16, 30);
	ASSERT_CALL(ipu_tensor_write(d, "x", xv, sizeof(xv), &err));
	ASSERT_CALL(ipu_tensor_write(d, "a", av, sizeof(av), &err));
	ASSERT_CALL(ipu_tensor_write(d, "b", bv, sizeof(bv), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "xr", xo, sizeof(xo), &err));
	ASSERT_CALL(ipu_tensor_read(d, "outer", ov, sizeof(ov), &err));
	ipu_device_close(d);
	for (int i = 0; i < 333; i++) {	/* f16: each op rounds to f16 */
		float v = ipue_f16_to_f32(xv[i]);
		uint16_t want = ipue_f32_to_f16(ipue_f16_to_f32(ipue_f32_to_f16(v * v)) + 1);

		ASSERT_EQ(want, xo[i]) TH_LOG("x[%d] = %g", i, v);
	}
	for (int i = 0; i < 12; i++) {
		ASSERT_EQ(bv[i % 4] - av[i / 4], ov[i]) TH_LOG("outer[%d]", i);
	}
}

/* an expression call fails with NULL and a message holding @needle */
#define EXPR_REFUSED(call, needle) do {							\
	ipu_error_clear(&err);								\
	EXPECT_TRUE((call) == NULL) TH_LOG("%s accepted", #call);				\
	EXPECT_TRUE(strstr(err.msg, needle) != NULL) TH_LOG("%s: '%s' lacks '%s'", #call, err.msg, needle); \
} while (0)

/* ipu_map refuses with @code and a message holding @needle */
#define MAP_REFUSED(code, call, needle) do {						\
	ipu_error_clear(&err);								\
	EXPECT_EQ(code, (call)) TH_LOG("%s", #call);						\
	EXPECT_TRUE(strstr(err.msg, needle) != NULL) TH_LOG("%s: '%s' lacks '%s'", #call, err.msg, needle); \
} while (0)

TEST(map_expr_refused)
{
	struct ipu_expr *deep = ipu_expr_input(1, &err);

	EXPR_REFUSED(ipu_expr_input(0, &err), "placeholder _0");
	EXPR_REFUSED(ipu_expr_input(8, &err), "_1 .. _7");
	EXPR_REFUSED(ipu_expr_unary(99, ipu_expr_input(1, &err), &err), "unknown op 99");
	EXPR_REFUSED(ipu_expr_binary(IPU_CMP_EQ, ipu_expr_input(1, &err), ipu_expr_input(2, &err), &err),
		     "unknown op");
	EXPR_REFUSED(ipu_expr_compare(IPU_OP_ADD, ipu_expr_input(1, &err), ipu_expr_input(2, &err), &err),
		     "unknown op");
	EXPR_REFUSED(ipu_expr_nonlinearity(9, ipu_expr_input(1, &err), &err), "unknown type 9");
	EXPR_REFUSED(ipu_expr_cast(ipu_expr_input(1, &err), 9, &err), "dtype 9");
	EXPR_REFUSED(ipu_expr_const_typed(IPU_DTYPE_I32, 0.5, &err), "not an i32 value");
	EXPR_REFUSED(ipu_expr_const_typed(7, 1, &err), "dtype 7");
	/* a failed operand fails the node and keeps the first message */
	EXPR_REFUSED(ipu_expr_binary(IPU_OP_ADD, ipu_expr_input(9, &err), ipu_expr_input(1, &err), &err),
		     "placeholder _9");
	EXPR_REFUSED(ipu_expr_select(NULL, NULL, NULL, &err), "operand is NULL");
	for (int i = 0; i < IPU_EXPR_MAX_DEPTH - 1; i++)
		deep = ipu_expr_unary(IPU_OP_NEG, deep, &err);
	ASSERT_TRUE(deep != NULL) TH_LOG("%s", err.msg);
	EXPR_REFUSED(ipu_expr_unary(IPU_OP_NEG, deep, &err), "deeper than 32");
}

/* a left-leaning sum of _1 n times, and a right-leaning one (its values all live at once) */
static struct ipu_expr *map_sum(unsigned n, int right)
{
	struct ipu_expr *e = ipu_expr_input(1, &err);

	for (unsigned i = 1; i < n; i++)
		e = right ? ipu_expr_binary(IPU_OP_ADD, ipu_expr_input(1, &err), e, &err) :
			    ipu_expr_binary(IPU_OP_ADD, e, ipu_expr_input(1, &err), &err);
	return e;
}

/* the refusals that need a graph: each names the map and the reason */
static void map_refusals(struct __test_metadata *_metadata, struct ipu_graph *g, int seq, int x, int xi, int v,
			 int un)
{
	struct ipu_expr *one = ipu_expr_input(1, &err), *two = map_sum(2, 0), *third = ipu_expr_input(3, &err);
	struct ipu_expr *mix = ipu_expr_binary(IPU_OP_ADD, ipu_expr_input(1, &err), ipu_expr_input(2, &err), &err);
	struct ipu_expr *iexp = ipu_expr_unary(IPU_OP_EXP, ipu_expr_input(1, &err), &err);
	struct ipu_expr *fsel = ipu_expr_select(ipu_expr_input(1, &err), ipu_expr_input(1, &err),
						ipu_expr_input(1, &err), &err);
	struct ipu_expr *cc = ipu_expr_binary(IPU_OP_ADD, ipu_expr_const(1, &err), ipu_expr_const(2, &err), &err);
	struct ipu_expr *half = ipu_expr_binary(IPU_OP_ADD, ipu_expr_input(1, &err), ipu_expr_const(0.5, &err), &err);
	struct ipu_expr *lng = map_sum(17, 0), *wide = map_sum(9, 1), *cmp = ipu_expr_compare(IPU_CMP_LT,
		ipu_expr_input(1, &err), ipu_expr_input(1, &err), &err);
	int in8[8] = { x, x, x, x, x, x, x, x };

	ASSERT_TRUE(one && two && third && mix && iexp && fsel && cc && half && lng && wide && cmp)
		TH_LOG("%s", err.msg);
	MAP_REFUSED(-EINVAL, ipu_map(NULL, seq, one, &x, 1, "m", &err), "graph is NULL");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, NULL, &x, 1, "m", &err), "expression is NULL");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, one, &x, 0, "m", &err), "0 inputs");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, one, in8, 8, "m", &err), "8 inputs");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, one, NULL, 1, "m", &err), "(NULL)");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, one, &x, 1, "", &err), "name is empty");
	MAP_REFUSED(-EEXIST, ipu_map(g, seq, one, &x, 1, "x", &err), "'x' already exists");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, one, (int[]){ 999 }, 1, "m", &err), "no tensor 999");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, one, &un, 1, "m", &err), "not fully mapped");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, two, (int[]){ x, v }, 2, "m", &err), "does not broadcast");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, third, (int[]){ x, x }, 2, "m", &err), "placeholder _3, but 2 inputs");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, mix, (int[]){ x, xi }, 2, "m", &err), "on f32 and i32");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, iexp, &xi, 1, "m", &err), "not defined for i32");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, fsel, &x, 1, "m", &err), "cond is f32");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, cc, &x, 1, "m", &err), "two untyped constants");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, half, &xi, 1, "m", &err), "constant 0.5 is not an i32 value");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, lng, &x, 1, "m", &err), "33 bytes");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, wide, &x, 1, "m", &err), "needs 9 values");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, cmp, &x, 1, NULL, &err), "(in place): input 0 'x' is f32");
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, two, (int[]){ v, x }, 2, NULL, &err), "does not broadcast");
	ipu_expr_free(one);
	ipu_expr_free(two);
	ipu_expr_free(third);
	ipu_expr_free(mix);
	ipu_expr_free(iexp);
	ipu_expr_free(fsel);
	ipu_expr_free(cc);
	ipu_expr_free(half);
	ipu_expr_free(lng);
	ipu_expr_free(wide);
	ipu_expr_free(cmp);
}

TEST(map_refused)
{
	uint32_t s[2] = { 4, 6 }, s5 = 5, s3[1] = { 6 };
	struct ipu_graph *g;
	int x, xi = -1, v = -1, un = -1, seq, b = -1;
	struct ipu_expr *two = map_sum(2, 0);

	ASSERT_LE(0, x = popops_graph(_metadata, &g, "x", IPU_DTYPE_F32, 2, s, 1, &seq));
	ASSERT_CALL(xi = ipu_graph_add_tensor(g, "xi", IPU_DTYPE_I32, 2, s, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, xi, 1, &err));
	ASSERT_CALL(v = ipu_graph_add_tensor(g, "v", IPU_DTYPE_F32, 1, &s5, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, v, 1, &err));
	ASSERT_CALL(un = ipu_graph_add_tensor(g, "un", IPU_DTYPE_F32, 1, &s5, &err));
	map_refusals(_metadata, g, seq, x, xi, v, un);
	/* a broadcast input 0 cannot take the result in place */
	ASSERT_CALL(b = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 1, s3, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, b, 1, &err));
	MAP_REFUSED(-EINVAL, ipu_map(g, seq, two, (int[]){ b, x }, 2, NULL, &err), "result is f32 [4, 6]");
	ipu_expr_free(two);
	ipu_graph_free(g);
}

/* docs/builder.md's worked example: its program bytes and its results */
TEST(map_worked_example)
{
	uint32_t s[2] = { 40, 33 };
	struct ipu_graph *g;
	struct ipu_device *d;
	int x, b = -1, y = -1, seq, outs[2];
	static float xv[40 * 33], bv[33], yv[40 * 33], xo[40 * 33];
	static const uint8_t want[11] = { 10, 0x10, 0x29, 0x02, 0x63, 0x11, 0x61, 0x48, 0x29, 0x06, 0x66 };
	uint32_t prm[IPUE_MAX_PARAMS];
	uint8_t dt = 0, indt[2] = { IPU_DTYPE_F32, IPU_DTYPE_F32 };
	unsigned used = 0;
	struct ipu_expr *e = ipu_expr_binary(IPU_OP_MIN,
		ipu_expr_nonlinearity(IPU_NL_RELU,
			ipu_expr_binary(IPU_OP_ADD,
				ipu_expr_binary(IPU_OP_MUL, ipu_expr_input(1, &err), ipu_expr_const(2, &err), &err),
				ipu_expr_input(2, &err), &err), &err),
		ipu_expr_const(6, &err), &err);
	struct ipu_expr *lk = ipu_expr_select(
		ipu_expr_compare(IPU_CMP_GT, ipu_expr_input(1, &err), ipu_expr_const(0, &err), &err),
		ipu_expr_input(1, &err),
		ipu_expr_binary(IPU_OP_MUL, ipu_expr_input(1, &err), ipu_expr_const(0.01, &err), &err), &err);

	ASSERT_TRUE(e && lk) TH_LOG("%s", err.msg);
	ASSERT_CALL(ipu__expr_compile(e, 2, indt, prm, &dt, &used, "t", "y", &err));
	for (unsigned j = 0; j < sizeof(want); j++) {
		EXPECT_EQ(want[j], (uint8_t)(prm[j / 4] >> (8 * (j % 4)))) TH_LOG("program byte %u", j);
	}
	EXPECT_EQ(3u, used);
	ASSERT_LE(0, x = popops_graph(_metadata, &g, "x", IPU_DTYPE_F32, 2, s, 1, &seq));
	ASSERT_CALL(b = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 1, s + 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, b, 1, &err));
	ASSERT_CALL(ipu_graph_expose(g, b, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(y = ipu_map(g, seq, e, (int[]){ x, b }, 2, "y", &err));
	ASSERT_EQ(x, ipu_map(g, seq, lk, &x, 1, NULL, &err)) TH_LOG("%s", err.msg);
	ipu_expr_free(e);
	ipu_expr_free(lk);
	ASSERT_CALL(ipu_graph_expose(g, x, "xr", IPU_HANDLE_READ, &err));
	outs[0] = y;
	popops_load(_metadata, g, seq, outs, 1, &d);
	fill_rand(xv, 40 * 33);
	for (int i = 0; i < 33; i++)
		bv[i] = (float)(i - 16) / 2;
	ASSERT_CALL(ipu_tensor_write(d, "x", xv, sizeof(xv), &err));
	ASSERT_CALL(ipu_tensor_write(d, "b", bv, sizeof(bv), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "y", yv, sizeof(yv), &err));
	ASSERT_CALL(ipu_tensor_read(d, "xr", xo, sizeof(xo), &err));
	ipu_device_close(d);
	for (int i = 0; i < 40 * 33; i++) {
		float r = xv[i] * 2 + bv[i % 33];

		ASSERT_EQ(fminf(r > 0 ? r : 0, 6), yv[i]) TH_LOG("y[%d]", i);
		ASSERT_EQ(xv[i] > 0 ? xv[i] : xv[i] * 0.01f, xo[i]) TH_LOG("x[%d]", i);
	}
}
