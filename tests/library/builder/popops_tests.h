/* SPDX-License-Identifier: MIT */
/*
 * Tests of the popops-level ops (libipudev/popops.c): cast, reductions
 * along axes, comparisons, select and argmax, on the model device against
 * double-precision references over random shapes (odd sizes, dimensions
 * of 1, broadcast operands, rows cut between tiles), and their refusals.
 * Included by test_builder.c after broadcast_tests.h (uses count_of()).
 */

static uint32_t urand(uint32_t n)
{
	frand();
	return (uint32_t)(rng % n);
}

/* random values of dtype dt: floats in [-range, range] (some repeated), i32 in [-range, range] */
static void fill_dtype(void *p, uint64_t n, unsigned dt, float range)
{
	for (uint64_t i = 0; i < n; i++) {
		float v = frand() * range;

		if (dt == IPU_DTYPE_F32)
			((float *)p)[i] = v;
		else if (dt == IPU_DTYPE_F16)
			((uint16_t *)p)[i] = ipue_f32_to_f16(v);
		else
			((int32_t *)p)[i] = (int32_t)lrintf(v);
	}
}

static double val_of(const void *p, uint64_t i, unsigned dt)
{
	if (dt == IPU_DTYPE_F32)
		return ((const float *)p)[i];
	if (dt == IPU_DTYPE_F16)
		return ipue_f16_to_f32(((const uint16_t *)p)[i]);
	return ((const int32_t *)p)[i];
}

/* a graph on @model with tensor "x" (dtype, rank, shape) mapped with grain, and a sequence */
static int popops_graph_on(struct __test_metadata *_metadata, uint32_t model, struct ipu_graph **g,
			   const char *xname, unsigned dt, unsigned rank, const uint32_t *shape, uint64_t grain,
			   int *seq)
{
	int tx = -1;

	ASSERT_CALL(ipu_graph_create(model, g, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(*g, xname, dt, rank, shape, &err));
	ASSERT_CALL(ipu_graph_map_linear(*g, tx, grain, &err));
	ASSERT_CALL(ipu_graph_expose(*g, tx, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(*seq = ipu_prog_sequence(*g, &err));
	return tx;
}

static int popops_graph(struct __test_metadata *_metadata, struct ipu_graph **g, const char *xname,
			unsigned dt, unsigned rank, const uint32_t *shape, uint64_t grain, int *seq)
{
	return popops_graph_on(_metadata, IPU_MODEL_TEST, g, xname, dt, rank, shape, grain, seq);
}

/* expose @outs for reading, add the program, write, load on a model device @model */
static void popops_load_on(struct __test_metadata *_metadata, const char *model, struct ipu_graph *g, int seq,
			   const int *outs, unsigned nouts, struct ipu_device **d)
{
	for (unsigned i = 0; i < nouts; i++)
		ASSERT_CALL(ipu_graph_expose(g, outs[i], NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	load_run(_metadata, g, model, d);
	ipu_graph_free(g);
}

static void popops_load(struct __test_metadata *_metadata, struct ipu_graph *g, int seq, const int *outs,
			unsigned nouts, struct ipu_device **d)
{
	popops_load_on(_metadata, "test", g, seq, outs, nouts, d);
}

static void rand_shape(unsigned *rank, uint32_t *shape, unsigned maxrank, uint32_t maxdim)
{
	*rank = 1 + urand(maxrank);
	for (unsigned i = 0; i < *rank; i++)
		shape[i] = urand(4) == 0 ? 1 : 1 + urand(maxdim);
}

/* ---------------- cast ---------------- */

static const unsigned pop_dt[3] = { IPU_DTYPE_F32, IPU_DTYPE_F16, IPU_DTYPE_I32 };

/* the reference conversion of element i of p (from) into q (to), as bits */
static void cast_ref(const void *p, uint64_t i, unsigned from, void *q, unsigned to)
{
	double v = val_of(p, i, from);

	if (to == IPU_DTYPE_I32) {
		((int32_t *)q)[0] = v != v ? 0 : v >= 2147483647.0 ? INT32_MAX :
				    v <= -2147483648.0 ? INT32_MIN : (int32_t)v;
	} else if (to == IPU_DTYPE_F32) {
		((float *)q)[0] = (float)v;	/* exact or, from i32, one rounding */
	} else {
		/* to f16: one rounding from the exact value (exhaustively tested in test_codelets) */
		((uint16_t *)q)[0] = from == IPU_DTYPE_F16 ? ((const uint16_t *)p)[i] : ipue_f32_to_f16((float)v);
	}
}

TEST(cast_matches_reference)
{
	for (int k = 0; k < 18; k++) {
		unsigned from = pop_dt[k % 3], to = pop_dt[k / 3 % 3], rank;
		uint32_t shape[IPU_MAX_RANK];
		struct ipu_graph *g;
		struct ipu_device *d;
		struct ipu_tensor_desc desc;
		int tx, ty, seq;
		uint64_t n;

		rand_shape(&rank, shape, 3, k < 9 ? 17 : 150);
		n = count_of(rank, shape);
		void *x = malloc(n * 4), *y = malloc(n * 4);

		ASSERT_TRUE(x && y);
		/* up to 1e5: f16 overflows and i32 -> f32 rounds sometimes */
		fill_dtype(x, n, from, from == IPU_DTYPE_F16 ? 60000.0f : 1e5f);
		if (from == IPU_DTYPE_F32 && n > 3) {
			((float *)x)[0] = NAN;
			((float *)x)[1] = 3e9f;		/* saturates in i32 */
			((float *)x)[2] = -2.5f;	/* truncates to -2 */
		}
		ASSERT_LE(0, tx = popops_graph(_metadata, &g, "x", from, rank, shape, k & 1 ? 1 : 7, &seq));
		ASSERT_CALL(ty = ipu_cast(g, seq, tx, to, "y", &err));
		ASSERT_CALL(ipu_graph_tensor_desc(g, ty, &desc, &err));
		ASSERT_EQ(to, desc.dtype);
		ASSERT_EQ(rank, desc.rank);
		for (uint64_t e = 0; e < n; e += 5) {
			ASSERT_EQ(ipu_graph_tile_of(g, tx, e), ipu_graph_tile_of(g, ty, e));
		}
		popops_load(_metadata, g, seq, &ty, 1, &d);
		ASSERT_CALL(ipu_tensor_write(d, "x", x, n * ipu_dtype_size(from), &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "y", y, n * ipu_dtype_size(to), &err));
		ipu_device_close(d);
		for (uint64_t i = 0; i < n; i++) {
			uint32_t want = 0, got = 0;
			size_t es = ipu_dtype_size(to);

			cast_ref(x, i, from, &want, to);
			memcpy(&got, (char *)y + i * es, es);
			ASSERT_TRUE(got == want || (to != IPU_DTYPE_I32 && val_of(&got, 0, to) != val_of(&got, 0, to) &&
						    val_of(&want, 0, to) != val_of(&want, 0, to)))
				TH_LOG("cast %s -> %s of %.9g: bits 0x%x, want 0x%x", ipu_dtype_name(from),
				       ipu_dtype_name(to), val_of(x, i, from), got, want);
		}
		free(x);
		free(y);
	}
}

/* ---------------- reductions along axes ---------------- */

/*
 * reduce_axes of x (dtype dt, rank, shape) over mask's axes (given to the
 * call in a random order, some negative), each op, against double: sums
 * within 1e-6 * sum|x| (f32 accumulation), max/min exact.
 */
static void run_reduce_axes_on(struct __test_metadata *_metadata, uint32_t model, unsigned dt, unsigned rank,
			       const uint32_t *shape, unsigned mask, uint64_t grain)
{
	uint64_t n = count_of(rank, shape), stride[IPU_MAX_RANK];
	uint32_t oshape[IPU_MAX_RANK];
	unsigned orank = 0, odt = dt == IPU_DTYPE_F16 ? IPU_DTYPE_F32 : dt;
	int axes[IPU_MAX_RANK], naxes = 0, tx, to[3], seq;
	struct ipu_graph *g;
	struct ipu_device *d;
	void *x = malloc(n * 4);
	uint64_t on = 1;

	ASSERT_TRUE(x != NULL);
	for (unsigned i = 0; i < rank; i++) {
		if (mask & (1u << i))
			axes[naxes++] = urand(2) ? (int)i - (int)rank : (int)i;
		else
			on *= oshape[orank++] = shape[i];
	}
	for (int i = naxes - 1; i > 0; i--) {	/* any order */
		int j = (int)urand((uint32_t)i + 1), t = axes[i];

		axes[i] = axes[j];
		axes[j] = t;
	}
	stride[rank - 1] = 1;
	for (unsigned i = rank - 1; i-- > 0;)
		stride[i] = stride[i + 1] * shape[i + 1];
	fill_dtype(x, n, dt, dt == IPU_DTYPE_I32 ? 1000 : 10);
	ASSERT_LE(0, tx = popops_graph_on(_metadata, model, &g, "x", dt, rank, shape, grain, &seq));
	for (unsigned op = IPU_REDUCE_SUM; op <= IPU_REDUCE_MIN; op++) {
		struct ipu_tensor_desc desc;
		char name[8];

		snprintf(name, sizeof(name), "r%u", op);
		ASSERT_CALL(to[op - 1] = ipu_reduce_axes(g, seq, op, tx, axes, (unsigned)naxes, name, &err));
		ASSERT_CALL(ipu_graph_tensor_desc(g, to[op - 1], &desc, &err));
		ASSERT_EQ(orank, desc.rank);
		ASSERT_EQ(odt, desc.dtype);
		for (unsigned i = 0; i < orank; i++)
			ASSERT_EQ(oshape[i], desc.shape[i]);
	}
	popops_load_on(_metadata, ipu_model_name(model), g, seq, to, 3, &d);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, n * ipu_dtype_size(dt), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	void *out = malloc(on * 4);
	double *sum = calloc(on, sizeof(double)), *abs = calloc(on, sizeof(double));
	double *mx = malloc(on * sizeof(double)), *mn = malloc(on * sizeof(double));

	ASSERT_TRUE(out && sum && abs && mx && mn);
	for (uint64_t o = 0; o < on; o++) {
		mx[o] = -INFINITY;
		mn[o] = INFINITY;
	}
	for (uint64_t e = 0; e < n; e++) {
		uint64_t o = 0;
		double v = val_of(x, e, dt);

		for (unsigned i = 0; i < rank; i++)
			if (!(mask & (1u << i)))
				o = o * shape[i] + e / stride[i] % shape[i];
		sum[o] += v;
		abs[o] += fabs(v);
		mx[o] = v > mx[o] ? v : mx[o];
		mn[o] = v < mn[o] ? v : mn[o];
	}
	for (unsigned op = IPU_REDUCE_SUM; op <= IPU_REDUCE_MIN; op++) {
		char name[8];

		snprintf(name, sizeof(name), "r%u", op);
		ASSERT_CALL(ipu_tensor_read(d, name, out, on * 4, &err));
		for (uint64_t o = 0; o < on; o++) {
			double got = val_of(out, o, odt), want = op == 1 ? sum[o] : op == 2 ? mx[o] : mn[o];

			ASSERT_TRUE(fabs(got - want) <= (op == 1 ? 1e-6 * abs[o] : 0))
				TH_LOG("%s reduce op %u of rank %u [%u %u %u %u] over mask 0x%x: out[%llu] = %.9g, "
				       "want %.9g", ipu_dtype_name(dt), op, rank, shape[0], shape[1], shape[2], shape[3],
				       mask, (unsigned long long)o, got, want);
		}
	}
	ipu_device_close(d);
	free(x);
	free(out);
	free(sum);
	free(abs);
	free(mx);
	free(mn);
}

static void run_reduce_axes(struct __test_metadata *_metadata, unsigned dt, unsigned rank,
			    const uint32_t *shape, unsigned mask, uint64_t grain)
{
	run_reduce_axes_on(_metadata, IPU_MODEL_TEST, dt, rank, shape, mask, grain);
}

TEST(reduce_axes_matches_reference)
{
	for (int k = 0; k < 30; k++) {
		uint32_t shape[IPU_MAX_RANK] = { 1, 1, 1, 1 };
		unsigned rank;

		do	/* the test model's 64 KiB tiles: at most 8000 elements (with three copies) */
			rand_shape(&rank, shape, 4, k < 15 ? 7 : 40);
		while (count_of(rank, shape) > 8000);
		run_reduce_axes(_metadata, pop_dt[k % 3], rank, shape, urand(1u << rank), k & 1 ? 1 : 5);
	}
}

TEST(reduce_axes_named_cases)
{
	static const struct { unsigned rank; uint32_t shape[4]; unsigned mask; } cases[] = {
		{ 2, { 37, 55 }, 0x1 },		/* columns: moved first */
		{ 2, { 37, 55 }, 0x2 },		/* rows, in place */
		{ 2, { 37, 55 }, 0x3 },		/* everything */
		{ 2, { 37, 55 }, 0x0 },		/* nothing: a copy */
		{ 3, { 4, 1, 9 }, 0x5 },	/* trailing once the 1 is ignored */
		{ 3, { 5, 7, 3 }, 0x2 },	/* the middle */
		{ 4, { 3, 5, 2, 7 }, 0xa },	/* interleaved */
		{ 1, { 1 }, 0x1 },
		{ 3, { 2, 300, 3 }, 0x1 },
		{ 3, { 6, 13, 11 }, 0x2 },	/* columns within each block */
		{ 3, { 7, 9, 11 }, 0x5 },	/* rows in place, then columns */
		{ 4, { 4, 6, 5, 3 }, 0x5 },	/* two kept groups: output rows from outer blocks */
		{ 4, { 4, 6, 5, 3 }, 0x6 },	/* middle pair */
		{ 4, { 5, 3, 4, 7 }, 0x9 },	/* outer and trailing reduced */
		{ 2, { 1999, 3 }, 0x1 },	/* long columns: rows chunked over the workers */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (unsigned di = 0; di < 3; di++)
			run_reduce_axes(_metadata, pop_dt[di], cases[i].rank, cases[i].shape, cases[i].mask, 3);
}

/* column reductions of [B][F] (B, F odd) over many gc200 tiles, rows cut between tiles or not */
TEST(reduce_axes_columns_gc200)
{
	static const struct { uint32_t shape[2]; uint64_t grain; unsigned dt; } cases[] = {
		{ { 333, 517 }, 1, IPU_DTYPE_F32 },
		{ { 333, 517 }, 517, IPU_DTYPE_F16 },
		{ { 333, 517 }, 7, IPU_DTYPE_I32 },
		{ { 1001, 999 }, 1, IPU_DTYPE_F32 },
		{ { 5001, 13 }, 39, IPU_DTYPE_F32 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_reduce_axes_on(_metadata, IPU_MODEL_GC200, cases[i].dt, 2, cases[i].shape, 0x1, cases[i].grain);
	run_reduce_axes_on(_metadata, IPU_MODEL_GC200, IPU_DTYPE_F32, 3, (uint32_t[]){ 9, 101, 77 }, 0x2, 1);
}

/*
 * The exchanges of a [512][512] axis-0 sum on gc200 copy partials by
 * ranges of columns, not elements: a few records per tile (2651 when
 * written), where a per-element rearrangement makes 262144 or more.
 */
TEST(reduce_axes_column_copies)
{
	struct ipu_graph *g;
	int tx, seq;

	ASSERT_LE(0, tx = popops_graph_on(_metadata, IPU_MODEL_GC200, &g, "x", IPU_DTYPE_F32, 2,
					  (uint32_t[]){ 512, 512 }, 1, &seq));
	ASSERT_CALL(ipu_reduce_axes(g, seq, IPU_REDUCE_SUM, tx, (int[]){ 0 }, 1, "s", &err));
	ASSERT_GT(4u * ipu_graph_tiles(g), ipu__graph_copy_count(g));
	ipu_graph_free(g);
}

/* ---------------- comparisons and select ---------------- */

static int cmp_of(unsigned op, double a, double b)
{
	switch (op) {
	case IPU_CMP_EQ: return a == b;
	case IPU_CMP_NE: return a != b;
	case IPU_CMP_LT: return a < b;
	case IPU_CMP_LE: return a <= b;
	case IPU_CMP_GT: return a > b;
	default: return a >= b;
	}
}

/*
 * c = compare(op, a, b) and s = select(c, a, b) with b broadcast (random
 * shapes as in broadcast_random_shapes, values from a small set so that
 * ties are frequent, a NaN in a for floats), exact against the reference.
 */
TEST(compare_select_random_shapes)
{
	for (int k = 0; k < 36; k++) {
		struct bcast_case c = { "test", IPU_MODEL_TEST, 0, 0, { 0 }, { 0 }, 0, 0, 0 };
		unsigned dt = pop_dt[k % 3], op = IPU_CMP_EQ + (unsigned)(k % 6);
		size_t es = ipu_dtype_size(dt);
		struct ipu_graph *g;
		struct ipu_device *d;
		int ta, tb, tc, ts, seq, outs[2];

		c.ra = 1 + urand(4);
		c.rb = urand(c.ra + 1);
		for (unsigned i = 0; i < c.ra; i++)
			c.sa[i] = 1 + urand(c.ra > 2 ? 11 : 90);
		for (unsigned j = 0; j < c.rb; j++)
			c.sb[j] = urand(3) == 0 ? 1 : c.sa[c.ra - c.rb + j];
		uint64_t na = count_of(c.ra, c.sa), nb = count_of(c.rb, c.sb);
		void *a = malloc(na * es), *b = malloc(nb * es), *s = malloc(na * es);
		int32_t *cond = malloc(na * 4);

		ASSERT_TRUE(a && b && s && cond);
		fill_dtype(a, na, dt, 2);
		fill_dtype(b, nb, dt, 2);
		if (dt == IPU_DTYPE_F32 && na > 1)
			((float *)a)[1] = NAN;
		ASSERT_LE(0, ta = popops_graph(_metadata, &g, "a", dt, c.ra, c.sa, 1, &seq));
		ASSERT_CALL(tb = ipu_graph_add_tensor(g, "b", dt, c.rb, c.sb, &err));
		if (k % 3 == 0) {
			ASSERT_CALL(ipu_graph_map_tile(g, tb, ipu_graph_tiles(g) - 1, &err));
		} else {
			ASSERT_CALL(ipu_graph_map_linear(g, tb, 1, &err));
		}
		ASSERT_CALL(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
		ASSERT_CALL(tc = ipu_compare(g, seq, op, ta, tb, "c", &err));
		ASSERT_CALL(ts = ipu_select(g, seq, tc, ta, tb, "s", &err));
		outs[0] = tc;
		outs[1] = ts;
		popops_load(_metadata, g, seq, outs, 2, &d);
		ASSERT_CALL(ipu_tensor_write(d, "a", a, na * es, &err));
		ASSERT_CALL(ipu_tensor_write(d, "b", b, nb * es, &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "c", cond, na * 4, &err));
		ASSERT_CALL(ipu_tensor_read(d, "s", s, na * es, &err));
		ipu_device_close(d);
		for (uint64_t e = 0; e < na; e++) {
			uint64_t bi = ref_bindex(&c, e);
			int want = cmp_of(op, val_of(a, e, dt), val_of(b, bi, dt));

			ASSERT_EQ(want, cond[e])
				TH_LOG("%s op %u: %g vs %g at %llu", ipu_dtype_name(dt), op, val_of(a, e, dt),
				       val_of(b, bi, dt), (unsigned long long)e);
			ASSERT_EQ(0, memcmp((char *)s + e * es, want ? (char *)a + e * es : (char *)b + bi * es, es))
				TH_LOG("select at %llu", (unsigned long long)e);
		}
		free(a);
		free(b);
		free(s);
		free(cond);
	}
}

/* ---------------- argmax ---------------- */

/* argmax of x (dtype, rank, shape) mapped with grain (1: rows cut between tiles), against numpy's rule */
static void run_argmax(struct __test_metadata *_metadata, unsigned dt, unsigned rank, const uint32_t *shape,
		       uint64_t grain, float range)
{
	uint64_t n = count_of(rank, shape), L = shape[rank - 1], R = n / L;
	void *x = malloc(n * 4);
	int32_t *o = malloc(R * 4);
	struct ipu_graph *g;
	struct ipu_device *d;
	struct ipu_tensor_desc desc;
	int tx, to, seq;

	ASSERT_TRUE(x && o);
	fill_dtype(x, n, dt, range);
	if (dt == IPU_DTYPE_F32 && R > 2 && L > 3) {	/* row 1: a NaN after the maximum */
		((float *)x)[L + 1] = 100;
		((float *)x)[L + 3] = NAN;
	}
	ASSERT_LE(0, tx = popops_graph(_metadata, &g, "x", dt, rank, shape, grain, &seq));
	ASSERT_CALL(to = ipu_argmax(g, seq, tx, "i", &err));
	ASSERT_CALL(ipu_graph_tensor_desc(g, to, &desc, &err));
	ASSERT_EQ((unsigned)IPU_DTYPE_I32, desc.dtype);
	ASSERT_EQ(rank - 1, desc.rank);
	popops_load(_metadata, g, seq, &to, 1, &d);
	ASSERT_CALL(ipu_tensor_write(d, "x", x, n * ipu_dtype_size(dt), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "i", o, R * 4, &err));
	ipu_device_close(d);
	for (uint64_t r = 0; r < R; r++) {
		int32_t want = 0;
		double best = val_of(x, r * L, dt);

		for (uint64_t i = 0; i < L; i++) {
			double v = val_of(x, r * L + i, dt);

			if (v != v) {
				want = (int32_t)i;
				break;
			}
			if (v > best) {
				best = v;
				want = (int32_t)i;
			}
		}
		ASSERT_EQ(want, o[r]) TH_LOG("%s argmax of row %llu of %llu (L %llu, grain %llu)",
					     ipu_dtype_name(dt), (unsigned long long)r, (unsigned long long)R,
					     (unsigned long long)L, (unsigned long long)grain);
	}
	free(x);
	free(o);
}

TEST(argmax_matches_reference)
{
	static const uint32_t s1[1] = { 1 }, s2[2] = { 64, 10 }, s3[3] = { 3, 5, 129 }, s4[2] = { 7, 1 };

	for (int k = 0; k < 24; k++) {
		uint32_t shape[IPU_MAX_RANK];
		unsigned rank;

		rand_shape(&rank, shape, 3, k < 12 ? 13 : 200);
		/* a small range gives ties: the first index must win */
		run_argmax(_metadata, pop_dt[k % 3], rank, shape, k % 4 == 0 ? 1 : shape[rank - 1], k & 1 ? 3 : 1000);
	}
	for (unsigned di = 0; di < 3; di++) {
		run_argmax(_metadata, pop_dt[di], 1, s1, 1, 5);
		run_argmax(_metadata, pop_dt[di], 2, s2, 1, 2);
		run_argmax(_metadata, pop_dt[di], 3, s3, 7, 100);
		run_argmax(_metadata, pop_dt[di], 2, s4, 1, 5);
	}
}

/* the worked example of docs/builder.md, "popops-level ops", with its numbers */
TEST(popops_worked_example)
{
	const float logits[6] = { 0.1f, 2, 2, 3, -1, NAN }, dl[6] = { 0.5f, -1, 0.25f, 0.5f, 1, -0.25f };
	const float x[6] = { 1, -2, 0, -0.0f, 3, -1 }, dy[6] = { 1, 2, 3, 4, 5, 6 }, zero = 0;
	const int32_t labels[2] = { 1, 0 };
	uint32_t s23[2] = { 2, 3 }, s2[1] = { 2 };
	struct ipu_graph *g;
	struct ipu_device *d;
	int tl, tlab, tdl, tx, tdy, tz, seq, outs[4];
	int32_t pred[2];
	float correct, dbias[3], dx[6];

	ASSERT_LE(0, tl = popops_graph(_metadata, &g, "logits", IPU_DTYPE_F32, 2, s23, 1, &seq));
	ASSERT_CALL(tlab = ipu_graph_add_tensor(g, "labels", IPU_DTYPE_I32, 1, s2, &err));
	ASSERT_CALL(tdl = ipu_graph_add_tensor(g, "dlogits", IPU_DTYPE_F32, 2, s23, &err));
	ASSERT_CALL(tx = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, s23, &err));
	ASSERT_CALL(tdy = ipu_graph_add_tensor(g, "dy", IPU_DTYPE_F32, 2, s23, &err));
	ASSERT_CALL(tz = ipu_graph_add_tensor(g, "zero", IPU_DTYPE_F32, 0, NULL, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tlab, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tdl, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tx, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tdy, 1, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, tz, 0, &err));
	ASSERT_CALL(ipu_graph_set_initial(g, tz, &zero, sizeof(zero), &err));
	ASSERT_CALL(ipu_graph_expose(g, tlab, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tdl, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tdy, NULL, IPU_HANDLE_WRITE, &err));

	int pr = ipu_argmax(g, seq, tl, "pred", &err);
	int hit = ipu_compare(g, seq, IPU_CMP_EQ, pr, tlab, "hit", &err);
	int hitf = ipu_cast(g, seq, hit, IPU_DTYPE_F32, "hitf", &err);
	int nc = ipu_reduce_axes(g, seq, IPU_REDUCE_SUM, hitf, (int[]){ 0 }, 1, "correct", &err);
	int db = ipu_reduce_axes(g, seq, IPU_REDUCE_SUM, tdl, (int[]){ 0 }, 1, "dbias", &err);
	int pos = ipu_compare(g, seq, IPU_CMP_GT, tx, tz, "pos", &err);
	int tdx = ipu_select(g, seq, pos, tdy, tz, "dx", &err);

	ASSERT_CALL(tdx);
	ASSERT_TRUE(pr >= 0 && hit >= 0 && hitf >= 0 && nc >= 0 && db >= 0 && pos >= 0);
	outs[0] = pr;
	outs[1] = nc;
	outs[2] = db;
	outs[3] = tdx;
	popops_load(_metadata, g, seq, outs, 4, &d);
	ASSERT_CALL(ipu_tensor_write(d, "logits", logits, sizeof(logits), &err));
	ASSERT_CALL(ipu_tensor_write(d, "labels", labels, sizeof(labels), &err));
	ASSERT_CALL(ipu_tensor_write(d, "dlogits", dl, sizeof(dl), &err));
	ASSERT_CALL(ipu_tensor_write(d, "x", x, sizeof(x), &err));
	ASSERT_CALL(ipu_tensor_write(d, "dy", dy, sizeof(dy), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "pred", pred, sizeof(pred), &err));
	ASSERT_CALL(ipu_tensor_read(d, "correct", &correct, sizeof(correct), &err));
	ASSERT_CALL(ipu_tensor_read(d, "dbias", dbias, sizeof(dbias), &err));
	ASSERT_CALL(ipu_tensor_read(d, "dx", dx, sizeof(dx), &err));
	ipu_device_close(d);
	ASSERT_TRUE(pred[0] == 1 && pred[1] == 2) TH_LOG("pred %d %d", pred[0], pred[1]);
	ASSERT_TRUE(correct == 1.0f) TH_LOG("correct %g", correct);
	ASSERT_TRUE(dbias[0] == 1 && dbias[1] == 0 && dbias[2] == 0)
		TH_LOG("dbias %g %g %g", dbias[0], dbias[1], dbias[2]);
	for (int i = 0; i < 6; i++) {
		ASSERT_TRUE(dx[i] == (x[i] > 0 ? dy[i] : 0)) TH_LOG("dx[%d] = %g", i, dx[i]);
	}
}

/* ---------------- refusals ---------------- */

TEST(popops_refused)
{
	struct ipu_graph *g;
	uint32_t s2[2] = { 4, 5 }, s3[1] = { 3 }, s54[2] = { 5, 4 };
	int tf, ti, th, t3, tu, t0, t54, seq, ax[3];

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tf = ipu_graph_add_tensor(g, "f", IPU_DTYPE_F32, 2, s2, &err));
	ASSERT_CALL(ti = ipu_graph_add_tensor(g, "i", IPU_DTYPE_I32, 2, s2, &err));
	ASSERT_CALL(th = ipu_graph_add_tensor(g, "h", IPU_DTYPE_F16, 2, s2, &err));
	ASSERT_CALL(t3 = ipu_graph_add_tensor(g, "b3", IPU_DTYPE_F32, 1, s3, &err));
	ASSERT_CALL(t54 = ipu_graph_add_tensor(g, "i54", IPU_DTYPE_I32, 2, s54, &err));
	ASSERT_CALL(t0 = ipu_graph_add_tensor(g, "s", IPU_DTYPE_F32, 0, NULL, &err));
	ASSERT_CALL(tu = ipu_graph_add_tensor(g, "unmapped", IPU_DTYPE_F32, 2, s2, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tf, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ti, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, th, 1, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, t3, 0, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, t54, 0, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, t0, 0, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	/* cast */
	expect_err(_metadata, ipu_cast(g, seq, tf, 9, "y", &err), "dtype 9 is not f32, f16 or i32", "cast dtype");
	expect_err(_metadata, ipu_cast(g, seq, tf, IPU_DTYPE_I32, "i", &err), "'i' already exists", "cast name");
	expect_err(_metadata, ipu_cast(g, seq, tf, IPU_DTYPE_I32, NULL, &err), "needs a name", "cast NULL name");
	expect_err(_metadata, ipu_cast(g, seq, tu, IPU_DTYPE_I32, "y", &err), "'unmapped' is not fully mapped",
		   "cast unmapped");
	expect_err(_metadata, ipu_cast(NULL, seq, tf, IPU_DTYPE_I32, "y", &err), "graph is NULL", "cast NULL graph");
	expect_err(_metadata, ipu_cast(g, seq, 99, IPU_DTYPE_I32, "y", &err), "no tensor 99", "cast bad id");
	/* reduce_axes */
	ax[0] = 2;
	expect_err(_metadata, ipu_reduce_axes(g, seq, IPU_REDUCE_SUM, tf, ax, 1, "y", &err),
		   "axis 2 is out of range for tensor 'f' of rank 2", "axis too large");
	ax[0] = -3;
	expect_err(_metadata, ipu_reduce_axes(g, seq, IPU_REDUCE_SUM, tf, ax, 1, "y", &err),
		   "axis -3 is out of range", "axis too negative");
	ax[0] = 1;
	ax[1] = -1;
	expect_err(_metadata, ipu_reduce_axes(g, seq, IPU_REDUCE_MAX, tf, ax, 2, "y", &err),
		   "axis -1 is given twice", "duplicate axes");
	expect_err(_metadata, ipu_reduce_axes(g, seq, IPU_REDUCE_MAX, tf, NULL, 1, "y", &err),
		   "axes is NULL", "NULL axes");
	expect_err(_metadata, ipu_reduce_axes(g, seq, 7, tf, ax, 1, "y", &err), "unknown op 7", "reduce op");
	ax[0] = 0;
	expect_err(_metadata, ipu_reduce_axes(g, seq, IPU_REDUCE_SUM, t0, ax, 1, "y", &err),
		   "axis 0 is out of range for tensor 's' of rank 0", "axis of a scalar");
	expect_err(_metadata, ipu_reduce_axes(g, seq, IPU_REDUCE_SUM, tf, ax, 1, "f", &err),
		   "'f' already exists", "reduce name");
	/* comparisons and select */
	expect_err(_metadata, ipu_compare(g, seq, IPU_CMP_LT, tf, t3, "y", &err),
		   "tensor 'b3' [3] does not broadcast to tensor 'f' [4, 5]", "compare broadcast");
	expect_err(_metadata, ipu_compare(g, seq, IPU_CMP_LT, tf, ti, "y", &err),
		   "tensor 'f' is f32, tensor 'i' is i32", "compare dtypes");
	expect_err(_metadata, ipu_compare(g, seq, IPU_OP_ADD, tf, tf, "y", &err), "unknown op 1", "compare op");
	expect_err(_metadata, ipu_compare(g, seq, IPU_CMP_EQ, tf, tf, NULL, &err), "needs a name",
		   "compare in place");
	expect_err(_metadata, ipu_compare(g, seq, IPU_CMP_EQ, tf, tf, "h", &err), "'h' already exists",
		   "compare name");
	expect_err(_metadata, ipu_select(g, seq, tf, tf, tf, "y", &err), "cond 'f' is f32, must be i32",
		   "select cond dtype");
	expect_err(_metadata, ipu_select(g, seq, t54, tf, tf, "y", &err),
		   "cond 'i54' must have the shape of a 'f'", "select cond shape");
	expect_err(_metadata, ipu_select(g, seq, ti, tf, th, "y", &err), "tensor 'f' is f32, tensor 'h' is f16",
		   "select a/b dtypes");
	expect_err(_metadata, ipu_select(g, seq, ti, tf, t3, "y", &err), "'b3' [3] does not broadcast",
		   "select broadcast");
	expect_err(_metadata, ipu_select(g, seq, ti, tf, tu, "y", &err), "'unmapped' is not fully mapped",
		   "select b unmapped");
	/* argmax */
	expect_err(_metadata, ipu_argmax(g, seq, t0, "y", &err), "tensor 's' has rank 0", "argmax rank 0");
	expect_err(_metadata, ipu_argmax(g, seq, tf, "f", &err), "'f' already exists", "argmax name");
	expect_err(_metadata, ipu_argmax(g, seq, tu, "y", &err), "'unmapped' is not fully mapped", "argmax unmapped");
	ASSERT_EQ(-ENOENT, ipu_graph_find_tensor(g, "y"));
	ipu_graph_free(g);
}
