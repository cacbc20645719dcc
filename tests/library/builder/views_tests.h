/* SPDX-License-Identifier: MIT */
/*
 * Tests of the views (libipudev/views.c) and of ipu_binary()'s two-way
 * broadcasting, on the model device against plain C references: random
 * chains of reshape, slice, transpose, concat and broadcast over odd and
 * size-1 shapes in all three dtypes (the base holds each element's index,
 * so the result names the element each position reads), the free views'
 * zero cost, writes through views, ops consuming views, and every refusal.
 * Included by test_builder.c (uses its helpers: err, rng, frand, load_run,
 * expect_err, fill_rand).
 */

/* the reference: a tensor of base element indices */
struct vref {
	unsigned rank;
	uint32_t shape[IPU_MAX_RANK];
	uint64_t n;
	uint32_t *idx;
};

static uint32_t vrand(uint32_t n)
{
	frand();
	return (uint32_t)(rng % n);
}

static void vref_set(struct vref *v, unsigned rank, const uint32_t *shape)
{
	v->rank = rank;
	v->n = 1;
	for (unsigned d = 0; d < rank; d++)
		v->n *= (v->shape[d] = shape[d]);
	v->idx = malloc(v->n * sizeof(*v->idx) + 1);
}

/* the flat index of coordinates c in shape */
static uint64_t vflat(unsigned rank, const uint32_t *shape, const uint32_t *c)
{
	uint64_t i = 0;

	for (unsigned d = 0; d < rank; d++)
		i = i * shape[d] + c[d];
	return i;
}

/* coordinates of flat index i in shape */
static void vcoord(unsigned rank, const uint32_t *shape, uint64_t i, uint32_t *c)
{
	for (unsigned d = rank; d-- > 0;) {
		c[d] = (uint32_t)(i % shape[d]);
		i /= shape[d];
	}
}

/* out = f(in) for one view kind, element by element from coordinates */
static void vref_transpose(const struct vref *in, const unsigned *perm, struct vref *out)
{
	uint32_t shape[IPU_MAX_RANK], c[IPU_MAX_RANK], ci[IPU_MAX_RANK];

	for (unsigned d = 0; d < in->rank; d++)
		shape[d] = in->shape[perm[d]];
	vref_set(out, in->rank, shape);
	for (uint64_t o = 0; o < out->n; o++) {
		vcoord(out->rank, shape, o, c);
		for (unsigned d = 0; d < in->rank; d++)
			ci[perm[d]] = c[d];
		out->idx[o] = in->idx[vflat(in->rank, in->shape, ci)];
	}
}

static void vref_slice(const struct vref *in, const uint32_t *b, const uint32_t *e, struct vref *out)
{
	uint32_t shape[IPU_MAX_RANK], c[IPU_MAX_RANK];

	for (unsigned d = 0; d < in->rank; d++)
		shape[d] = e[d] - b[d];
	vref_set(out, in->rank, shape);
	for (uint64_t o = 0; o < out->n; o++) {
		vcoord(out->rank, shape, o, c);
		for (unsigned d = 0; d < in->rank; d++)
			c[d] += b[d];
		out->idx[o] = in->idx[vflat(in->rank, in->shape, c)];
	}
}

/* in concatenated with in2 along axis */
static void vref_concat(const struct vref *in, const struct vref *in2, unsigned axis, struct vref *out)
{
	uint32_t shape[IPU_MAX_RANK], c[IPU_MAX_RANK];

	memcpy(shape, in->shape, sizeof(shape));
	shape[axis] += in2->shape[axis];
	vref_set(out, in->rank, shape);
	for (uint64_t o = 0; o < out->n; o++) {
		vcoord(out->rank, shape, o, c);
		if (c[axis] < in->shape[axis]) {
			out->idx[o] = in->idx[vflat(in->rank, in->shape, c)];
		} else {
			c[axis] -= in->shape[axis];
			out->idx[o] = in2->idx[vflat(in2->rank, in2->shape, c)];
		}
	}
}

/* in broadcast to (rank, shape), in's shape right-aligned */
static void vref_broadcast(const struct vref *in, unsigned rank, const uint32_t *shape, struct vref *out)
{
	uint32_t c[IPU_MAX_RANK], ci[IPU_MAX_RANK];

	vref_set(out, rank, shape);
	for (uint64_t o = 0; o < out->n; o++) {
		vcoord(rank, shape, o, c);
		for (unsigned d = 0; d < in->rank; d++)
			ci[d] = in->shape[d] == 1 ? 0 : c[d + rank - in->rank];
		out->idx[o] = in->idx[vflat(in->rank, in->shape, ci)];
	}
}

/* the bytes used on all tiles (free views leave it as it is) */
static uint64_t vused(const struct ipu_graph *g)
{
	uint64_t s = 0;

	for (unsigned t = 0; t < ipu_graph_tiles(g); t++)
		s += ipu_graph_tile_used(g, t);
	return s;
}

/* transposes of view_step() that copied, and that were free (both paths must be covered) */
static unsigned views_tr_copied, views_tr_free;

/*
 * One random view op on tensor *t (reference *v): its kind k (0 reshape,
 * 1 slice, 2 transpose, 3 concat of two slices, 4 broadcast); *t and *v
 * become the result. Checks that free views use no memory and no copy.
 */
static void view_step(struct __test_metadata *_metadata, struct ipu_graph *g, int seq, unsigned k, int *t,
		      struct vref *v, const char *name)
{
	uint32_t shape[IPU_MAX_RANK], b[IPU_MAX_RANK], e[IPU_MAX_RANK];
	unsigned perm[IPU_MAX_RANK];
	uint64_t used = vused(g), copies = ipu__graph_copy_count(g);
	struct vref o = { 0 };
	int free_view = 1, r = -1;

	if (k == 0) {	/* reshape: split n into factors, with 1s */
		unsigned rank = 0;
		uint64_t n = v->n;

		for (uint32_t f = 2; f <= n && rank < 3; f++)
			while (n % f == 0 && rank < 3) {
				shape[rank++] = f;
				n /= f;
			}
		shape[rank++] = (uint32_t)n;
		if (rank < IPU_MAX_RANK && vrand(2))
			shape[rank++] = 1;
		vref_set(&o, rank, shape);
		memcpy(o.idx, v->idx, v->n * sizeof(*o.idx));
		r = ipu_reshape(g, *t, rank, shape, name, &err);
	} else if (k == 1 || k == 3) {
		for (unsigned d = 0; d < v->rank; d++) {
			b[d] = vrand(v->shape[d]);
			e[d] = b[d] + 1 + vrand(v->shape[d] - b[d]);
		}
		vref_slice(v, b, e, &o);
		if (k == 1) {
			r = ipu_slice_dims(g, *t, b, e, name, &err);
		} else {	/* concat a slice of t with all of t along a dim where all else matches */
			struct vref c;
			unsigned axis = vrand(v->rank);
			int in[2] = { -1, *t };

			for (unsigned d = 0; d < v->rank; d++)
				if (d != axis)
					b[d] = 0, e[d] = v->shape[d];
			free(o.idx);
			vref_slice(v, b, e, &o);
			in[0] = ipu_slice_dims(g, *t, b, e, ipu__graph_uname(g, name, "/s"), &err);
			ASSERT_CALL(in[0]);
			vref_concat(&o, v, axis, &c);
			free(o.idx);
			o = c;
			r = ipu_concat(g, in, 2, axis, name, &err);
		}
	} else if (k == 2) {
		for (unsigned d = 0; d < v->rank; d++)
			perm[d] = d;
		for (unsigned d = v->rank; d > 1; d--) {
			unsigned j = vrand(d), x = perm[d - 1];

			perm[d - 1] = perm[j];
			perm[j] = x;
		}
		vref_transpose(v, perm, &o);
		free_view = -1;	/* depends on the layout */
		r = ipu_transpose(g, seq, *t, perm, name, &err);
	} else {
		unsigned rank = v->rank + (v->rank < 4);

		for (unsigned d = 0; d < rank; d++) {
			unsigned j = d + v->rank - rank;

			shape[d] = d + v->rank >= rank && v->shape[j] != 1 ? v->shape[j] : 1 + vrand(3);
		}
		vref_broadcast(v, rank, shape, &o);
		free_view = 0;
		r = ipu_broadcast(g, seq, *t, rank, shape, name, &err);
	}
	ASSERT_CALL(r);
	if (free_view == -1 && ipu__graph_copy_count(g) == copies)
		views_tr_free++;
	else if (free_view == -1)
		views_tr_copied++;
	if (free_view == 1) {
		EXPECT_EQ(used, vused(g)) TH_LOG("view %u '%s' used tile memory", k, name);
		EXPECT_EQ(copies, ipu__graph_copy_count(g)) TH_LOG("view %u '%s' copies", k, name);
	}
	free(v->idx);
	*v = o;
	*t = r;
}

static double vval(const void *p, uint64_t i, unsigned dt)
{
	if (dt == IPU_DTYPE_F32)
		return ((const float *)p)[i];
	if (dt == IPU_DTYPE_F16)
		return ipue_f16_to_f32(((const uint16_t *)p)[i]);
	return ((const int32_t *)p)[i];
}

/* one random chain of steps views on a base holding its indices, run and checked */
static void view_chain(struct __test_metadata *_metadata, unsigned dt, const unsigned *kinds, unsigned nk)
{
	static const uint32_t dims[] = { 1, 2, 3, 5, 7, 4 };
	unsigned rank = 1 + vrand(4), es = dt == IPU_DTYPE_F16 ? 2 : 4;
	uint32_t shape[IPU_MAX_RANK];
	struct vref v;
	struct ipu_graph *g;
	struct ipu_device *d;
	char name[32];
	void *host, *got;
	uint64_t nbase;
	int t, seq;

	for (unsigned i = 0; i < rank; i++)
		shape[i] = dims[vrand(6)];
	vref_set(&v, rank, shape);
	nbase = v.n;
	host = malloc(v.n * es);
	for (uint64_t i = 0; i < v.n; i++) {
		v.idx[i] = (uint32_t)i;
		if (dt == IPU_DTYPE_F32)
			((float *)host)[i] = (float)i;
		else if (dt == IPU_DTYPE_F16)
			((uint16_t *)host)[i] = ipue_f32_to_f16((float)i);
		else
			((int32_t *)host)[i] = (int32_t)i;
	}
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(t = ipu_graph_add_tensor(g, "base", dt, rank, shape, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, t, 1 + vrand(3), &err));
	ASSERT_CALL(ipu_graph_expose(g, t, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	for (unsigned s = 0; s < nk; s++) {
		snprintf(name, sizeof(name), "v%u", s);
		view_step(_metadata, g, seq, kinds[s], &t, &v, name);
	}
	ASSERT_CALL(ipu_graph_expose(g, t, "out", IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	got = malloc(v.n * es);
	ASSERT_CALL(ipu_tensor_write(d, "base", host, (size_t)nbase * es, &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "out", got, v.n * es, &err));
	ipu_device_close(d);
	for (uint64_t i = 0; i < v.n; i++) {
		ASSERT_EQ((double)v.idx[i], vval(got, i, dt))
			TH_LOG("%s chain %u %u %u: element %llu", ipu_dtype_name(dt), kinds[0], kinds[1], kinds[2],
			       (unsigned long long)i);
	}
	free(host);
	free(got);
	free(v.idx);
}

/* every pair and some triples of view kinds, in all dtypes, on random shapes */
TEST(views_compose)
{
	static const unsigned dts[] = { IPU_DTYPE_F32, IPU_DTYPE_F16, IPU_DTYPE_I32 };

	for (unsigned k = 0; k < 75; k++) {
		unsigned kinds[3] = { k % 5, k / 5 % 5, (k * 7 + 3) % 5 };

		view_chain(_metadata, dts[k % 3], kinds, k < 25 ? 2 : 3);
	}
	EXPECT_LT(0u, views_tr_copied);
	EXPECT_LT(0u, views_tr_free);
	TH_LOG("%u transposes copied, %u free", views_tr_copied, views_tr_free);
}

/* free transposes (size-1 dims, last dim kept) cost nothing; the others copy on the tiles */
TEST(views_transpose_cost)
{
	static const struct { unsigned rank; uint32_t shape[4]; unsigned perm[4]; int free_view; } c[] = {
		{ 3, { 3, 1, 4 }, { 1, 0, 2 }, 1 },
		{ 2, { 1, 9 }, { 1, 0 }, 1 },
		{ 3, { 5, 6, 7 }, { 1, 0, 2 }, 1 },
		{ 2, { 5, 7 }, { 1, 0 }, 0 },
		{ 4, { 2, 3, 1, 5 }, { 3, 2, 0, 1 }, 0 },
		{ 3, { 40, 50, 3 }, { 2, 1, 0 }, 0 },
	};
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ipu_graph *g;
		uint64_t used, copies;
		int t, seq, v;

		ASSERT_CALL(ipu_graph_create(IPU_MODEL_GC200, &g, &err));
		ASSERT_CALL(t = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, c[i].rank, c[i].shape, &err));
		ASSERT_CALL(ipu_graph_map_linear(g, t, 1, &err));
		ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
		used = vused(g);
		copies = ipu__graph_copy_count(g);
		ASSERT_CALL(v = ipu_transpose(g, seq, t, c[i].perm, "xt", &err));
		EXPECT_EQ(c[i].free_view, vused(g) == used && ipu__graph_copy_count(g) == copies)
			TH_LOG("case %u: %llu -> %llu bytes", i, (unsigned long long)used,
			       (unsigned long long)vused(g));
		if (c[i].free_view) {
			EXPECT_EQ(1, ipu__graph_tensor(g, v)->view);
		}
		ipu_graph_free(g);
	}
}

/* a host-to-device stream's one transfer: the floats at user */
static int views_fetch(void *user, void *dst, size_t len)
{
	memcpy(dst, user, len);
	return 0;
}

/*
 * Writes through views reach the base: an op in place on a slice, a
 * program copy into a reshape, a stream copy into a concat of two slices.
 */
TEST(views_write_through)
{
	uint32_t sb[2] = { 4, 6 }, b0[2] = { 1, 2 }, e0[2] = { 3, 5 }, b1[2] = { 3, 0 }, e1[2] = { 4, 6 };
	uint32_t b2[2] = { 0, 0 }, e2[2] = { 1, 2 }, flat[1] = { 6 }, s4[1] = { 4 };
	float x[24], y[4], st[8], got[24], want[24];
	struct ipu_graph *g;
	struct ipu_device *d;
	int tb, ty, sl, rs, c0, c1, cc, seq, stream;

	fill_rand(x, 24);
	fill_rand(y, 4);
	fill_rand(st, 8);
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(tb = ipu_graph_add_tensor(g, "base", IPU_DTYPE_F32, 2, sb, &err));
	ASSERT_CALL(ty = ipu_graph_add_tensor(g, "y", IPU_DTYPE_F32, 1, s4, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tb, 1, &err));
	ASSERT_CALL(ipu_graph_map_tile(g, ty, 5, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	/* base[1:3, 2:5] = -base[1:3, 2:5] in place */
	ASSERT_CALL(sl = ipu_slice_dims(g, tb, b0, e0, "mid", &err));
	ASSERT_EQ(sl, ipu_unary(g, seq, IPU_OP_NEG, sl, NULL, &err));
	/* base[3, 0:4] (as a flat view of row 3) = y */
	ASSERT_CALL(c0 = ipu_slice_dims(g, tb, b1, e1, "row3", &err));
	ASSERT_CALL(rs = ipu_reshape(g, c0, 1, flat, "row3flat", &err));
	ASSERT_CALL(ipu_prog_append(g, seq, ipu_prog_copy(g, ipu_slice_all(g, ty),
							   (struct ipu_slice){ rs, 0, 4 }, &err), &err));
	/* concat(base[0, 0:2], base[3, 4:6]) from a stream */
	b1[1] = 4;
	ASSERT_CALL(c0 = ipu_slice_dims(g, tb, b2, e2, "r0", &err));
	ASSERT_CALL(c1 = ipu_slice_dims(g, tb, b1, e1, "r3", &err));
	ASSERT_CALL(cc = ipu_concat(g, (int[]){ c0, c1 }, 2, 1, "cat", &err));
	ASSERT_CALL(stream = ipu_graph_add_stream(g, "in", IPU_STREAM_HOST_TO_DEVICE, IPU_DTYPE_F32, 4, 1, &err));
	ASSERT_CALL(ipu_prog_append(g, seq, ipu_prog_stream_copy(g, stream, cc, &err), &err));
	ASSERT_CALL(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_RW, &err));
	ASSERT_CALL(ipu_graph_expose(g, ty, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_tensor_write(d, "base", x, sizeof(x), &err));
	ASSERT_CALL(ipu_tensor_write(d, "y", y, sizeof(y), &err));
	ASSERT_CALL(ipu_stream_connect(d, "in", &(struct ipu_stream_callbacks){ views_fetch, NULL, st }, &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "base", got, sizeof(got), &err));
	ipu_device_close(d);
	memcpy(want, x, sizeof(want));
	for (unsigned r = 1; r < 3; r++)
		for (unsigned c = 2; c < 5; c++)
			want[r * 6 + c] = -x[r * 6 + c];
	memcpy(want + 18, y, sizeof(y));
	want[0] = st[0], want[1] = st[1], want[22] = st[2], want[23] = st[3];
	for (unsigned i = 0; i < 24; i++) {
		EXPECT_EQ(want[i], got[i]) TH_LOG("base[%u]", i);
	}
}

/* matmul of a copied transpose by a slice, and a binary op of a reshape and a concat */
TEST(views_feed_ops)
{
	uint32_t sa[2] = { 6, 5 }, sb[2] = { 7, 4 }, sb0[2] = { 1, 0 }, sb1[2] = { 7, 4 }, s20[1] = { 20 };
	uint32_t s54[2] = { 5, 4 }, s0[2] = { 0, 0 }, e0[2] = { 2, 4 }, s2[2] = { 2, 0 }, e2[2] = { 5, 4 };
	unsigned p10[2] = { 1, 0 };
	float a[30], b[28], c[20], s[20];
	struct ipu_graph *g;
	struct ipu_device *d;
	int ta, tb, at, bs, tc, r20, top, bot, cat, ts, seq;

	fill_rand(a, 30);
	fill_rand(b, 28);
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 2, sa, &err));
	ASSERT_CALL(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 2, sb, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ta, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, tb, 3, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	ASSERT_CALL(at = ipu_transpose(g, seq, ta, p10, "at", &err));	/* [5][6], a copy */
	ASSERT_CALL(bs = ipu_slice_dims(g, tb, sb0, sb1, "bs", &err));	/* b[1:7] [6][4] */
	ASSERT_CALL(tc = ipu_matmul(g, seq, at, bs, "c", NULL, &err));	/* [5][4] */
	/* s = reshape(c[2:5] ++ c[0:2]) + reshape(that, [20]) = 2 * rows rotated */
	ASSERT_CALL(top = ipu_slice_dims(g, tc, s2, e2, "c.top", &err));
	ASSERT_CALL(bot = ipu_slice_dims(g, tc, s0, e0, "c.bot", &err));
	ASSERT_CALL(cat = ipu_concat(g, (int[]){ top, bot }, 2, 0, "c.rot", &err));
	ASSERT_CALL(r20 = ipu_reshape(g, cat, 1, s20, "c.flat", &err));
	ASSERT_CALL(ts = ipu_binary(g, seq, IPU_OP_ADD, cat, ipu_reshape(g, r20, 2, s54, "c.back", &err), "s", &err));
	ASSERT_CALL(ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, tc, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, ts, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_tensor_write(d, "a", a, sizeof(a), &err));
	ASSERT_CALL(ipu_tensor_write(d, "b", b, sizeof(b), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "c", c, sizeof(c), &err));
	ASSERT_CALL(ipu_tensor_read(d, "s", s, sizeof(s), &err));
	ipu_device_close(d);
	for (unsigned i = 0; i < 5; i++)
		for (unsigned j = 0; j < 4; j++) {
			double w = 0;

			for (unsigned k = 0; k < 6; k++)
				w += (double)a[k * 5 + i] * b[(k + 1) * 4 + j];
			EXPECT_LE(fabs(c[i * 4 + j] - w), 1e-5) TH_LOG("c[%u][%u] %g want %g", i, j, c[i * 4 + j], w);
			EXPECT_EQ(2 * c[i * 4 + j], s[((i + 3) % 5) * 4 + j]) TH_LOG("s row of c[%u][%u]", i, j);
		}
}

/* ipu_binary() broadcasts a as well as b: the output has the broadcast of both shapes */
TEST(binary_broadcast_both_ways)
{
	static const struct { unsigned ra, rb; uint32_t sa[3], sb[3], so[3]; unsigned ro; } c[] = {
		{ 2, 1, { 5, 1 }, { 3 }, { 5, 3 }, 2 },
		{ 1, 2, { 3 }, { 2, 3 }, { 2, 3 }, 2 },
		{ 1, 3, { 1 }, { 4, 1, 3 }, { 4, 1, 3 }, 3 },
		{ 3, 3, { 2, 1, 7 }, { 1, 3, 1 }, { 2, 3, 7 }, 3 },
	};
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint64_t na = count_of(c[i].ra, c[i].sa), nb = count_of(c[i].rb, c[i].sb), no = count_of(c[i].ro, c[i].so);
		float a[64], b[64], o[64];
		uint32_t co[3], ca[3], cb[3];
		struct ipu_tensor_desc desc;
		struct ipu_graph *g;
		struct ipu_device *d;
		int ta, tb, to, seq;

		fill_rand(a, na);
		fill_rand(b, nb);
		ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
		ASSERT_CALL(ta = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, c[i].ra, c[i].sa, &err));
		ASSERT_CALL(tb = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, c[i].rb, c[i].sb, &err));
		ASSERT_CALL(ipu_graph_map_linear(g, ta, 1, &err));
		ASSERT_CALL(ipu_graph_map_tile(g, tb, 3, &err));
		ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
		expect_err(_metadata, ipu_binary(g, seq, IPU_OP_SUB, ta, tb, NULL, &err), "not in place",
			   "in place into a broadcast a");
		ASSERT_CALL(to = ipu_binary(g, seq, IPU_OP_SUB, ta, tb, "o", &err));
		ASSERT_CALL(ipu_graph_tensor_desc(g, to, &desc, &err));
		ASSERT_EQ(c[i].ro, desc.rank);
		for (unsigned k = 0; k < c[i].ro; k++) {
			ASSERT_EQ(c[i].so[k], desc.shape[k]);
		}
		ASSERT_CALL(ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err));
		ASSERT_CALL(ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, &err));
		ASSERT_CALL(ipu_graph_expose(g, to, NULL, IPU_HANDLE_READ, &err));
		ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
		load_run(_metadata, g, "test", &d);
		ipu_graph_free(g);
		ASSERT_CALL(ipu_tensor_write(d, "a", a, na * 4, &err));
		ASSERT_CALL(ipu_tensor_write(d, "b", b, nb * 4, &err));
		ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
		ASSERT_CALL(ipu_tensor_read(d, "o", o, no * 4, &err));
		ipu_device_close(d);
		for (uint64_t e = 0; e < no; e++) {
			vcoord(c[i].ro, c[i].so, e, co);
			for (unsigned k = 0; k < c[i].ra; k++)
				ca[k] = c[i].sa[k] == 1 ? 0 : co[k + c[i].ro - c[i].ra];
			for (unsigned k = 0; k < c[i].rb; k++)
				cb[k] = c[i].sb[k] == 1 ? 0 : co[k + c[i].ro - c[i].rb];
			EXPECT_EQ((float)((double)a[vflat(c[i].ra, c[i].sa, ca)] - b[vflat(c[i].rb, c[i].sb, cb)]), o[e])
				TH_LOG("case %u element %llu", i, (unsigned long long)e);
		}
	}
}

/* every refusal names the call, the tensors and the fault */
TEST(views_refused)
{
	uint32_t s45[2] = { 4, 5 }, s7[1] = { 7 }, s21[1] = { 21 }, s3[1] = { 3 }, s35[2] = { 3, 5 };
	uint32_t b[2] = { 0, 0 }, e[2] = { 4, 6 }, e2[2] = { 2, 2 }, b2[2] = { 3, 2 }, s2x5[2] = { 2, 5 };
	unsigned pdup[2] = { 0, 0 }, pbig[2] = { 0, 2 };
	uint32_t s20[1] = { 20 };
	float init20[20] = { 0 };
	struct ipu_graph *g;
	int t, ti, tu, t3, seq, tflat;

	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(t = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, s45, &err));
	ASSERT_CALL(ti = ipu_graph_add_tensor(g, "xi", IPU_DTYPE_I32, 2, s45, &err));
	ASSERT_CALL(t3 = ipu_graph_add_tensor(g, "x3", IPU_DTYPE_F32, 2, s35, &err));
	ASSERT_CALL(tu = ipu_graph_add_tensor(g, "unmapped", IPU_DTYPE_F32, 1, s7, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, t, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, ti, 1, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, t3, 1, &err));
	ASSERT_CALL(ipu_graph_map(g, tu, 0, 3, 0, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	expect_err(_metadata, ipu_reshape(g, t, 1, s21, "r", &err), "'x' [4, 5] has 20 elements, shape [21] has 21",
		   "reshape count");
	expect_err(_metadata, ipu_reshape(g, tu, 1, s7, "r", &err), "'unmapped' is not fully mapped", "unmapped");
	expect_err(_metadata, ipu_reshape(g, 99, 1, s7, "r", &err), "no tensor 99", "no tensor");
	expect_err(_metadata, ipu_reshape(NULL, t, 1, s7, "r", &err), "graph is NULL", "no graph");
	expect_err(_metadata, ipu_reshape(g, t, 2, s45, NULL, &err), "needs a name", "no name");
	expect_err(_metadata, ipu_reshape(g, t, 2, s45, "x3", &err), "'x3' already exists", "name used");
	expect_err(_metadata, ipu_slice_dims(g, t, b, e, "s", &err), "dimension 1 of tensor 'x' is 5, [0, 6)",
		   "slice past the end");
	expect_err(_metadata, ipu_slice_dims(g, t, b2, e2, "s", &err), "[3, 2) is not a range", "end before begin");
	expect_err(_metadata, ipu_slice_dims(g, t, NULL, e, "s", &err), "begin or end is NULL", "no begin");
	expect_err(_metadata, ipu_transpose(g, seq, t, pdup, "t", &err), "names dimension 0 twice", "dup perm");
	expect_err(_metadata, ipu_transpose(g, seq, t, pbig, "t", &err), "perm[1] = 2 is not a dimension",
		   "perm out of range");
	expect_err(_metadata, ipu_transpose(g, seq, t, NULL, "t", &err), "perm is NULL", "no perm");
	expect_err(_metadata, ipu_concat(g, (int[]){ t, ti }, 2, 0, "c", &err), "tensor 'xi' is i32", "dtypes");
	expect_err(_metadata, ipu_concat(g, (int[]){ t, t3 }, 2, 1, "c", &err),
		   "'x3' [3, 5] does not match tensor 'x' [4, 5] outside axis 1", "shapes");
	expect_err(_metadata, ipu_concat(g, (int[]){ t, t3 }, 2, 2, "c", &err), "axis 2 is not a dimension",
		   "axis");
	expect_err(_metadata, ipu_concat(g, NULL, 0, 0, "c", &err), "no inputs", "no inputs");
	expect_err(_metadata, ipu_concat(g, (int[]){ t, tu }, 2, 0, "c", &err), "'unmapped' is not fully mapped",
		   "unmapped concat input");
	expect_err(_metadata, ipu_broadcast(g, seq, t, 2, s2x5, "b", &err),
		   "'x' [4, 5] does not broadcast to [2, 5]: dimension 0 is 4, must be 1 or 2", "bad broadcast");
	expect_err(_metadata, ipu_broadcast(g, seq, t, 1, s3, "b", &err), "'x' [4, 5] has a higher rank than [3]",
		   "broadcast to a lower rank");
	expect_err(_metadata, ipu_binary(g, seq, IPU_OP_ADD, t, t3, "o", &err),
		   "tensor 'x3' [3, 5] does not broadcast to tensor 'x' [4, 5]: dimension 0 is 3", "binary shapes");
	expect_err(_metadata, ipu_binary(g, seq, IPU_OP_ADD, t3, t, "o", &err),
		   "tensor 'x' [4, 5] does not broadcast to tensor 'x3' [3, 5]", "binary shapes swapped");
	ASSERT_EQ(-ENOENT, ipu_graph_find_tensor(g, "r"));
	ASSERT_EQ(-ENOENT, ipu_graph_find_tensor(g, "c"));
	ASSERT_CALL(tflat = ipu_reshape(g, t, 1, s20, "flat", &err));
	expect_err(_metadata, ipu_graph_set_initial(g, tflat, init20, sizeof(init20), &err),
		   "tensor 'flat' is a view of 'x': give the initial data to 'x'", "initial data on a view");
	ipu_graph_free(g);
}

/* docs/builder.md's worked example: per-head Q K^T from a packed [T][2][H][D], rows rotated */
TEST(views_worked_example)
{
	enum { T = 5, H = 3, D = 4 };
	uint32_t sqk[4] = { T, 2, H, D }, q0[4] = { 0, 0, 0, 0 }, q1[4] = { T, 1, H, D };
	uint32_t k0[4] = { 0, 1, 0, 0 }, k1[4] = { T, 2, H, D }, g3[3] = { H, T, D };
	uint32_t a0[3] = { 0, 1, 0 }, a1[3] = { 1, T, T }, b0[3] = { 0, 0, 0 }, b1[3] = { 1, 1, T };
	unsigned p[4] = { 2, 1, 0, 3 };
	float x[T * 2 * H * D], s[H * T * T], rot[T * T];
	uint64_t used;
	struct ipu_graph *g;
	struct ipu_device *d;
	int qk, q, k, qh, kh, qg, kg, ts, parts[2], tr, seq;

	fill_rand(x, T * 2 * H * D);
	ASSERT_CALL(ipu_graph_create(IPU_MODEL_TEST, &g, &err));
	ASSERT_CALL(qk = ipu_graph_add_tensor(g, "qk", IPU_DTYPE_F32, 4, sqk, &err));
	ASSERT_CALL(ipu_graph_map_linear(g, qk, 2, &err));
	ASSERT_CALL(seq = ipu_prog_sequence(g, &err));
	used = vused(g);
	ASSERT_CALL(q = ipu_slice_dims(g, qk, q0, q1, "q", &err));
	ASSERT_CALL(k = ipu_slice_dims(g, qk, k0, k1, "k", &err));
	ASSERT_CALL(qh = ipu_transpose(g, seq, q, p, "qh", &err));
	ASSERT_CALL(kh = ipu_transpose(g, seq, k, p, "kh", &err));
	ASSERT_CALL(qg = ipu_reshape(g, qh, 3, g3, "qg", &err));
	ASSERT_CALL(kg = ipu_reshape(g, kh, 3, g3, "kg", &err));
	EXPECT_EQ(used, vused(g));
	ASSERT_CALL(ts = ipu_matmul_grouped(g, seq, qg, kg, IPU_MATMUL_TRANSPOSE_B, "s", NULL, &err));
	ASSERT_CALL(parts[0] = ipu_slice_dims(g, ts, a0, a1, "s.tail", &err));
	ASSERT_CALL(parts[1] = ipu_slice_dims(g, ts, b0, b1, "s.head", &err));
	ASSERT_CALL(tr = ipu_concat(g, parts, 2, 1, "s.rot", &err));
	ASSERT_CALL(ipu_graph_expose(g, qk, NULL, IPU_HANDLE_WRITE, &err));
	ASSERT_CALL(ipu_graph_expose(g, ts, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_expose(g, tr, NULL, IPU_HANDLE_READ, &err));
	ASSERT_CALL(ipu_graph_add_program(g, "p", seq, &err));
	load_run(_metadata, g, "test", &d);
	ipu_graph_free(g);
	ASSERT_CALL(ipu_tensor_write(d, "qk", x, sizeof(x), &err));
	ASSERT_CALL(ipu_run(d, 0, 1, NULL, &err));
	ASSERT_CALL(ipu_tensor_read(d, "s", s, sizeof(s), &err));
	ASSERT_CALL(ipu_tensor_read(d, "s.rot", rot, sizeof(rot), &err));
	ipu_device_close(d);
	for (unsigned h = 0; h < H; h++)
		for (unsigned i = 0; i < T; i++)
			for (unsigned j = 0; j < T; j++) {
				double w = 0;

				for (unsigned e = 0; e < D; e++)
					w += (double)x[((i * 2 + 0) * H + h) * D + e] * x[((j * 2 + 1) * H + h) * D + e];
				EXPECT_LE(fabs(s[(h * T + i) * T + j] - w), 1e-5) TH_LOG("s[%u][%u][%u]", h, i, j);
				if (h == 0) {
					EXPECT_EQ(s[i * T + j], rot[((i + T - 1) % T) * T + j]) TH_LOG("rot of row %u", i);
				}
			}
}
