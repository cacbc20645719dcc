/* SPDX-License-Identifier: MIT */
/*
 * Map (0x0Exx, codelets_map.c), included by test_codelets.c: every opcode
 * and random programs against the same chain of single-op codelets (the
 * reference: bit for bit, NaN payloads aside), broadcast inputs, in place,
 * malformed programs refused with a message, random params never crash.
 */

/* the params of a program of len bytes */
static void map_prog(uint32_t *p, const uint8_t *code, unsigned len)
{
	memset(p, 0, IPUE_MAX_PARAMS * sizeof(*p));
	p[0] = len;
	for (unsigned j = 0; j < len; j++)
		p[(j + 1) / 4] |= (uint32_t)code[j] << (8 * ((j + 1) % 4));
}

/* a value of the reference stack: n elements of dtype dt */
struct mval {
	void *p;
	uint8_t dt;
};

struct mref {
	uint32_t n;
	struct mval st[IPUE_MAP_MAX_STACK];
	unsigned sp;
	uint8_t code[IPUE_MAP_MAX_PROGRAM];
	unsigned len;
};

static struct mval mval_new(uint32_t n, uint8_t dt)
{
	struct mval v = { xalloc((size_t)n * 4), dt };

	return v;
}

/* pop k values, push the result of single-op codelet id over them (out of dtype odt) */
static void mref_apply(struct mref *m, uint16_t id, unsigned k, uint8_t odt)
{
	struct ipue_field f[4];
	struct mval o = mval_new(m->n, odt);

	for (unsigned i = 0; i < k; i++)
		f[i] = fld(m->st[m->sp - k + i].p, m->n, m->st[m->sp - k + i].dt);
	f[k] = fld(o.p, m->n, odt);
	run_ok(id, f, k + 1, NULL, 0);
	for (unsigned i = 0; i < k; i++)
		free(m->st[--m->sp].p);
	m->st[m->sp++] = o;
}

static void mref_put(struct mref *m, unsigned byte)
{
	m->code[m->len++] = (uint8_t)byte;
}

/* opcode byte with the reference's evaluation of it; the stack's top dtypes allow it */
static void mref_unary(struct mref *m, int op)
{
	mref_put(m, IPUE_MAP_UNARY | (unsigned)op);
	mref_apply(m, IPUE_CODELET_UNARY(op), 1, m->st[m->sp - 1].dt);
}

static void mref_binary(struct mref *m, int op)
{
	mref_put(m, IPUE_MAP_BINARY | (unsigned)op);
	mref_apply(m, IPUE_CODELET_BINARY(op), 2, op >= IPUE_BOP_EQ ? IPU_DTYPE_I32 : m->st[m->sp - 1].dt);
}

static void mref_cast(struct mref *m, uint8_t dt)
{
	mref_put(m, IPUE_MAP_CAST | dt);
	mref_apply(m, IPUE_CODELET_CAST, 1, dt);
}

static void mref_select(struct mref *m)
{
	mref_put(m, IPUE_MAP_SELECT);
	mref_apply(m, IPUE_CODELET_SELECT, 3, m->st[m->sp - 1].dt);
}

/* push input k (its data in[k], broadcast when bc[k]) */
static void mref_in(struct mref *m, unsigned k, const struct ipue_field *in)
{
	struct mval v = mval_new(m->n, in[k].dtype);
	size_t es = dsize(in[k].dtype);

	for (uint32_t i = 0; i < m->n; i++)
		memcpy((char *)v.p + i * es, (const char *)in[k].data + (in[k].count == m->n ? i : 0) * es, es);
	mref_put(m, IPUE_MAP_IN | k);
	m->st[m->sp++] = v;
}

/* push a random constant of dtype dt, small (1-byte form) or full */
static void mref_const(struct mref *m, uint8_t dt)
{
	struct mval v = mval_new(m->n, dt);
	int small = rndn(2);
	int32_t s = (int32_t)rndn(256) - 128;
	uint32_t bits;

	if (small) {
		mref_put(m, IPUE_MAP_CONST8 | dt);
		mref_put(m, (uint8_t)s);
		bits = dt == IPU_DTYPE_I32 ? (uint32_t)s : dt == IPU_DTYPE_F16 ? ipue__f2h((float)s) :
		       ipue__f2u((float)s);
	} else {
		fill_random(&bits, 1, dt, 1);
		if (dt == IPU_DTYPE_F16)
			bits &= 0xffffu;
		mref_put(m, IPUE_MAP_CONST | dt);
		for (unsigned b = 0; b < (dt == IPU_DTYPE_F16 ? 2u : 4u); b++)
			mref_put(m, (bits >> (8 * b)) & 0xffu);
	}
	for (uint32_t i = 0; i < m->n; i++)
		memcpy((char *)v.p + i * dsize(dt), &bits, dsize(dt));
	m->st[m->sp++] = v;
}

/* a random op valid for the stack's top (or a push when none is) */
static void mref_random_op(struct mref *m, const struct ipue_field *in, unsigned nin)
{
	uint8_t t0 = m->st[m->sp - 1].dt, t1 = m->sp > 1 ? m->st[m->sp - 2].dt : 0;
	uint8_t t2 = m->sp > 2 ? m->st[m->sp - 3].dt : 0;
	static const int iu[] = { IPUE_UOP_NEG, IPUE_UOP_ABS, IPUE_UOP_RELU };

	switch (rndn(5)) {
	case 0:
		mref_unary(m, t0 == IPU_DTYPE_I32 ? iu[rndn(3)] : 1 + (int)rndn(IPUE_UOP_COUNT_ - 1));
		return;
	case 1:
		mref_cast(m, all_dt[rndn(3)]);
		return;
	case 2:
		if (t2 == IPU_DTYPE_I32 && t1 == t0) {
			mref_select(m);
			return;
		}
		break;
	default:
		if (t1 && t1 == t0) {
			mref_binary(m, 1 + (int)rndn(IPUE_BOP_CMP_END_ - 1));
			return;
		}
		break;
	}
	mref_in(m, rndn(nin), in);
}

/* the Map of m's program over in[0..nin) (out over in[0] when inplace allows) against m's result; frees it */
static void map_check_ref(struct mref *m, const struct ipue_field *in, unsigned nin, int inplace)
{
	struct ipue_field f[IPUE_MAP_MAX_INPUTS + 1];
	uint32_t p[IPUE_MAX_PARAMS];
	uint8_t odt = m->st[0].dt;
	void *out;

	memcpy(f, in, nin * sizeof(*f));
	map_prog(p, m->code, m->len);
	out = inplace && in[0].count == m->n && dsize(in[0].dtype) == dsize(odt) ? in[0].data :
	      xalloc((size_t)m->n * 4);
	f[nin] = fld(out, m->n, odt);
	if (!run_ok(IPUE_CODELET_MAP(nin), f, nin + 1, p, IPUE_MAX_PARAMS))
		EXPECT(same_values(out, m->st[0].p, m->n, odt), "Map%u n=%u: program of %u bytes (first 0x%02x) "
		       "differs from its single-op chain", nin, m->n, m->len, m->code[0]);
	free(m->st[0].p);
	if (out != in[0].data)
		free(out);
}

/* a random program over nin random inputs of n elements (some broadcast) */
static void map_random_case(uint32_t n, unsigned nin, int inplace)
{
	struct ipue_field f[IPUE_MAP_MAX_INPUTS];
	struct mref m = { .n = n };

	for (unsigned k = 0; k < nin; k++) {
		uint8_t dt = k == nin - 1 && nin > 2 ? IPU_DTYPE_I32 : all_dt[rndn(3)];
		uint32_t c = n > 1 && k && rndn(3) == 0 ? 1 : n;

		f[k] = fld(xalloc((size_t)c * 4), c, dt);
		fill_random(f[k].data, c, dt, (int)rndn(2));
	}
	mref_in(&m, 0, f);
	while (m.len + 2 * m.sp + 5 < IPUE_MAP_MAX_PROGRAM)
		if (m.sp < 3 && rndn(3) == 0)
			mref_const(&m, m.st[m.sp - 1].dt);
		else if (m.sp < IPUE_MAP_MAX_STACK - 1)
			mref_random_op(&m, f, nin);
		else
			mref_cast(&m, m.st[m.sp - 1].dt);
	while (m.sp > 1) {
		if (m.st[m.sp - 1].dt != m.st[m.sp - 2].dt)
			mref_cast(&m, m.st[m.sp - 2].dt);
		mref_binary(&m, 1 + (int)rndn(IPUE_BOP_CMP_END_ - 1));
	}
	map_check_ref(&m, f, nin, inplace);
	for (unsigned k = 0; k < nin; k++)
		free(f[k].data);
}

static void t_map_random(void)
{
	for (unsigned i = 0; i < 600; i++)
		map_random_case(sizes[rndn(NSIZES)], 1 + rndn(IPUE_MAP_MAX_INPUTS), (int)rndn(2));
}

/* each opcode on its own, every dtype it takes, against its single-op codelet */
static void t_map_opcodes(void)
{
	for (unsigned si = 0; si < NSIZES; si++) {
		uint32_t n = sizes[si];

		for (unsigned d = 0; d < 3; d++) {
			uint8_t dt = all_dt[d];
			struct ipue_field in[3] = { fld(xalloc((size_t)n * 4 + 4), n, dt),
						    fld(xalloc((size_t)n * 4 + 4), n, dt),
						    fld(xalloc((size_t)n * 4 + 4), n, IPU_DTYPE_I32) };

			fill_random(in[0].data, n, dt, 0);
			fill_random(in[1].data, n, dt, 1);
			fill_random(in[2].data, n, IPU_DTYPE_I32, 1);
			in[1].count = n > 1 && si % 2 ? 1 : n;	/* broadcast every other size */
			for (int op = 1; op < IPUE_UOP_COUNT_; op++) {
				if (dt != IPU_DTYPE_I32 || op == IPUE_UOP_NEG || op == IPUE_UOP_ABS ||
				    op == IPUE_UOP_RELU) {
					struct mref m = { .n = n };

					mref_in(&m, 0, in);
					mref_unary(&m, op);
					map_check_ref(&m, in, 1, 0);
				}
			}
			for (int op = 1; op < IPUE_BOP_CMP_END_; op++) {
				struct mref m = { .n = n };

				mref_in(&m, 0, in);
				if (op % 2)
					mref_in(&m, 1, in);
				else
					mref_const(&m, dt);
				mref_binary(&m, op);
				map_check_ref(&m, in, 2, 0);
			}
			for (unsigned c = 0; c < 3; c++) {
				struct mref m = { .n = n };

				mref_in(&m, 0, in);
				mref_cast(&m, all_dt[c]);
				map_check_ref(&m, in, 1, 0);
			}
			{
				struct mref m = { .n = n };

				mref_in(&m, 2, in);
				mref_in(&m, 0, in);
				mref_in(&m, 1, in);
				mref_select(&m);
				map_check_ref(&m, in, 3, 0);
			}
			for (unsigned k = 0; k < 3; k++)
				free(in[k].data);
		}
	}
}

/* refused programs and bindings: each with a message */
static void t_map_negative(void)
{
	static const struct { uint8_t len; uint8_t code[IPUE_MAP_MAX_PROGRAM]; const char *what; } bad[] = {
		{ 0, { 0 }, "empty program" },
		{ 32, { 0x10 }, "length beyond 31" },
		{ 1, { 0x12 }, "input 2 of 2" },
		{ 1, { 0x17 }, "input 7 (no such opcode)" },
		{ 1, { 0x00 }, "opcode 0" },
		{ 2, { 0x10, 0xff }, "unknown opcode 0xff" },
		{ 2, { 0x10, 0x4a }, "unary op beyond the last" },
		{ 2, { 0x10, 0x40 }, "unary op 0" },
		{ 2, { 0x10, 0x6d }, "binary op beyond the last" },
		{ 2, { 0x10, 0x61 }, "binary op with one value" },
		{ 1, { 0x41 }, "unary op on an empty stack" },
		{ 3, { 0x10, 0x10, 0x80 }, "select with two values" },
		{ 2, { 0x10, 0x10 }, "two values left" },
		{ 2, { 0x10, 0x94 }, "cast to dtype 4" },
		{ 2, { 0x10, 0x90 }, "cast to dtype 0" },
		{ 3, { 0x10, 0x21, 0x00 }, "truncated f32 constant" },
		{ 2, { 0x10, 0x29 }, "truncated small constant" },
		{ 4, { 0x10, 0x20, 0, 0 }, "constant of dtype 0" },
		{ 3, { 0x10, 0x2b, 0x05 }, "i32 constant left with f32" },
		{ 4, { 0x10, 0x2b, 0x05, 0x61 }, "f32 + i32" },
		{ 3, { 0x10, 0x11, 0x80 }, "select without cond" },
		{ 9, { 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10 }, "nine values on the stack" },
		{ 2, { 0x10, 0x97 }, "cast to dtype 7" },
		{ 2, { 0x10, 0x93 }, "result i32, out f32" },
	};
	float a[16], b[16], o[16];
	struct ipue_field f[3] = { fld(a, 16, IPU_DTYPE_F32), fld(b, 16, IPU_DTYPE_F32), fld(o, 16, IPU_DTYPE_F32) };
	uint32_t p[IPUE_MAX_PARAMS];
	static const uint8_t add[3] = { 0x10, 0x11, 0x61 }, ok1[2] = { 0x10, 0x41 };
	int32_t ia[16];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		map_prog(p, bad[i].code, bad[i].len > IPUE_MAP_MAX_PROGRAM ? 1 : bad[i].len);
		if (bad[i].len > IPUE_MAP_MAX_PROGRAM)
			p[0] = (p[0] & ~0xffu) | bad[i].len;
		run_bad(IPUE_CODELET_MAP(2), f, 3, p, IPUE_MAX_PARAMS, bad[i].what);
	}
	map_prog(p, add, 3);
	p[7] = 1u << 24;
	run_bad(IPUE_CODELET_MAP(2), f, 3, p, IPUE_MAX_PARAMS, "a non-zero byte after the program");
	map_prog(p, add, 3);
	run_bad(IPUE_CODELET_MAP(2), f, 3, p, 0, "no params");
	run_bad(IPUE_CODELET_MAP(3), f, 3, p, IPUE_MAX_PARAMS, "two fields for Map3");
	f[1].count = 3;
	run_bad(IPUE_CODELET_MAP(2), f, 3, p, IPUE_MAX_PARAMS, "in1 of 3 elements for 16");
	f[1] = fld(o + 4, 4, IPU_DTYPE_F32);
	run_bad(IPUE_CODELET_MAP(2), f, 3, p, IPUE_MAX_PARAMS, "out partially over in1");
	f[1] = fld(o, 1, IPU_DTYPE_F32);
	run_bad(IPUE_CODELET_MAP(2), f, 3, p, IPUE_MAX_PARAMS, "out over a broadcast in1");
	f[1] = fld((char *)b + 1, 16, IPU_DTYPE_F32);
	run_bad(IPUE_CODELET_MAP(2), f, 3, p, IPUE_MAX_PARAMS, "misaligned in1");
	f[0] = fld(ia, 16, IPU_DTYPE_I32);
	f[1] = fld(o, 16, IPU_DTYPE_F32);
	map_prog(p, ok1, 2);
	run_bad(IPUE_CODELET_MAP(1), f, 2, p, IPUE_MAX_PARAMS, "neg of i32 into an f32 out");
	f[1] = fld(o, 16, IPU_DTYPE_I32);
	map_prog(p, (const uint8_t[]){ 0x10, 0x43 }, 2);
	run_bad(IPUE_CODELET_MAP(1), f, 2, p, IPUE_MAX_PARAMS, "exp of i32");
}

/* random params: validation never crashes, and what it accepts runs (the sanitizer build watches) */
static void t_map_fuzz(void)
{
	float a[40], b[40], o[40];
	int32_t c[40];
	unsigned accepted = 0;

	fill_random(a, 40, IPU_DTYPE_F32, 0);
	fill_random(b, 40, IPU_DTYPE_F32, 0);
	fill_random(c, 40, IPU_DTYPE_I32, 0);
	for (unsigned i = 0; i < 20000; i++) {
		struct ipue_field f[4] = { fld(a, 40, IPU_DTYPE_F32), fld(b, rndn(2) ? 40 : 1, IPU_DTYPE_F32),
					   fld(c, 40, IPU_DTYPE_I32), fld(o, 40, all_dt[rndn(2) ? 0 : 2]) };
		const struct ipue_codelet *cl = ipue_codelet_find(IPUE_CODELET_MAP(3));
		uint32_t p[IPUE_MAX_PARAMS] = { 0 };
		unsigned len = 1 + rndn(12);
		char msg[160];

		p[0] = len;
		for (unsigned j = 1; j <= len; j++)	/* opcodes from the used families, sometimes any byte */
			p[j / 4] |= (uint32_t)(rndn(4) ? (uint8_t[]){ 0x10, 0x11, 0x12, 0x21, 0x29, 0x2b, 0x41, 0x43,
							 0x48, 0x61, 0x64, 0x67, 0x6b, 0x80, 0x91, 0x92,
							 0x93 }[rndn(17)] : rndn(256)) << (8 * (j % 4));
		if (!ipue_codelet_validate(cl, f, 4, p, IPUE_MAX_PARAMS, msg, sizeof(msg))) {
			accepted++;
			cl->run(f, p);
			EXPECT(cl->cycles(f, p) >= IPUE_CYCLES_VERTEX_OVERHEAD, "cycles");
		} else {
			EXPECT(msg[0] != 0, "refused without a message");
		}
	}
	EXPECT(accepted > 20, "only %u of 20000 random programs accepted: the fuzz reaches little", accepted);
}

/* a Map costs its ops' per-element cycles, one vertex overhead */
static void t_map_cycles(void)
{
	static float a[4];
	struct ipue_field f[3] = { fld(a, 1000, IPU_DTYPE_F32), fld(a, 1000, IPU_DTYPE_F32),
				   fld(a, 1000, IPU_DTYPE_F32) };
	uint32_t p[IPUE_MAX_PARAMS];
	const struct ipue_codelet *m2 = ipue_codelet_find(IPUE_CODELET_MAP(2));

	map_prog(p, (const uint8_t[]){ 0x10, 0x11, 0x61, 0x48, 0x29, 0x02, 0x63 }, 7);	/* relu(a + b) * 2 */
	EXPECT(m2->cycles(f, p) == 50 + 500 + 500 + 500, "map f32 cycles %" PRIu64, m2->cycles(f, p));
	f[0].dtype = f[1].dtype = f[2].dtype = IPU_DTYPE_F16;
	map_prog(p, (const uint8_t[]){ 0x10, 0x11, 0x61, 0x48, 0x2a, 0x02, 0x63 }, 7);
	EXPECT(m2->cycles(f, p) == 50 + 750, "map f16 cycles %" PRIu64, m2->cycles(f, p));
}
