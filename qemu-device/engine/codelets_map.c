/* SPDX-License-Identifier: MIT */
/*
 * Map (0x0Exx): a fused elementwise expression, popops::map's vertex. A
 * postfix program in the vertex's params (encoding in codelets.h and
 * docs/codelets.md) is checked at load like any binding: every opcode,
 * operand index, constant, stack depth and dtype; run() only ever sees
 * programs check() accepted. Values are evaluated in chunks of CH elements
 * on a small stack; each op uses the single-op codelets' element function
 * (codelets_scalar.h) and rounds to its dtype as they do, so a Map equals
 * the chain of separate vertices bit for bit (NaN payloads aside).
 */
#include <stdio.h>
#include <string.h>

#include "codelets_impl.h"
#include "codelets_scalar.h"

#define CH 256	/* elements a chunk: slots stay in L1 (8 x 1 KiB) */

/* a decoded instruction */
struct minst {
	uint8_t code;		/* the opcode's family (IPUE_MAP_*) */
	uint8_t arg;		/* input index, op or dtype */
	uint8_t sdt;		/* dtype of the operand(s) (select: of a and b) */
	uint32_t imm;		/* a constant's bits: f32 (f16: its exact f32 value) or i32 */
};

/* one value of a chunk: f32 and f16 as f32 (f16 ones exact f16 values), i32 as i32 */
union mslot {
	float f[CH];
	int32_t i[CH];
};

static uint8_t pbyte(const uint32_t *p, unsigned j)
{
	return (uint8_t)(p[j / 4] >> (8 * (j % 4)));
}

static bool is_dtype(unsigned dt)
{
	return dt == IPU_DTYPE_F32 || dt == IPU_DTYPE_F16 || dt == IPU_DTYPE_I32;
}

/* a constant at byte *j (advanced past it) into x->imm; 0 or -EINVAL */
static int decode_const(const uint32_t *p, unsigned len, unsigned *j, struct minst *x, bool small,
			char *msg, size_t msglen)
{
	unsigned at = *j, nb = small ? 1 : x->arg == IPU_DTYPE_F16 ? 2 : 4;
	uint32_t v = 0;

	if (at + nb > len + 1)
		return ipue__fail(msg, msglen, "program byte %u: constant needs %u bytes, the program ends",
				  at - 1, nb);
	for (unsigned b = 0; b < nb; b++)
		v |= (uint32_t)pbyte(p, at + b) << (8 * b);
	*j = at + nb;
	if (small) {
		int32_t s = (int8_t)(uint8_t)v;

		x->imm = x->arg == IPU_DTYPE_I32 ? (uint32_t)s : ipue__f2u((float)s);
	} else {
		x->imm = x->arg == IPU_DTYPE_F16 ? ipue__f2u(ipue__h2f((uint16_t)v)) : v;
	}
	return 0;
}

/*
 * The dtype rule of instruction x over the stack st[0..*sp); updates the
 * stack. 0 or -EINVAL naming the program byte at.
 */
static int type_inst(struct minst *x, unsigned at, uint8_t *st, unsigned *sp, char *msg, size_t msglen)
{
	unsigned need = x->code == IPUE_MAP_UNARY || x->code == IPUE_MAP_CAST ? 1 :
			x->code == IPUE_MAP_BINARY ? 2 : x->code == IPUE_MAP_SELECT ? 3 : 0;
	uint8_t *t = st + *sp - need;

	if (*sp < need)
		return ipue__fail(msg, msglen, "program byte %u: opcode needs %u values, the stack has %u",
				  at, need, *sp);
	switch (x->code) {
	case IPUE_MAP_UNARY:
		x->sdt = t[0];
		if (t[0] == IPU_DTYPE_I32 && !uop_int_ok(x->arg))
			return ipue__fail(msg, msglen, "program byte %u: unary op %u not defined for i32", at, x->arg);
		return 0;
	case IPUE_MAP_BINARY:
		if (t[0] != t[1])
			return ipue__fail(msg, msglen, "program byte %u: binary op on %s and %s (one dtype needed)",
					  at, ipue__dtype_name(t[0]), ipue__dtype_name(t[1]));
		x->sdt = t[0];
		t[0] = x->arg >= IPUE_BOP_EQ ? IPU_DTYPE_I32 : t[0];
		break;
	case IPUE_MAP_SELECT:
		if (t[0] != IPU_DTYPE_I32 || t[1] != t[2])
			return ipue__fail(msg, msglen, "program byte %u: select needs an i32 cond and a, b of one "
					  "dtype, has %s, %s, %s", at, ipue__dtype_name(t[0]),
					  ipue__dtype_name(t[1]), ipue__dtype_name(t[2]));
		x->sdt = t[1];
		t[0] = t[1];
		break;
	case IPUE_MAP_CAST:
		x->sdt = t[0];
		t[0] = x->arg;
		return 0;
	default:	/* a push */
		if (*sp >= IPUE_MAP_MAX_STACK)
			return ipue__fail(msg, msglen, "program byte %u: more than %u values on the stack", at,
					  IPUE_MAP_MAX_STACK);
		st[(*sp)++] = x->sdt;
		return 0;
	}
	*sp -= need - 1;
	return 0;
}

/* the instruction of opcode c (its immediates from *j on); 0 or -EINVAL */
static int decode_inst(const uint32_t *p, unsigned len, unsigned *j, unsigned nin, const uint8_t *indt,
		       struct minst *x, char *msg, size_t msglen)
{
	unsigned at = *j, c = pbyte(p, at), lo = c & 0x0f;

	*j = at + 1;
	memset(x, 0, sizeof(*x));
	if (c >= IPUE_MAP_IN && c < IPUE_MAP_IN + IPUE_MAP_MAX_INPUTS) {
		if (lo >= nin)
			return ipue__fail(msg, msglen, "program byte %u: input %u, the vertex has %u", at, lo, nin);
		*x = (struct minst){ IPUE_MAP_IN, (uint8_t)lo, indt[lo], 0 };
		return 0;
	}
	if ((c & ~7u) == IPUE_MAP_CONST || (c & ~7u) == IPUE_MAP_CONST8) {
		if (!is_dtype(c & 7u))
			return ipue__fail(msg, msglen, "program byte %u: constant of unknown dtype %u", at, c & 7u);
		*x = (struct minst){ IPUE_MAP_CONST, (uint8_t)(c & 7u), (uint8_t)(c & 7u), 0 };
		return decode_const(p, len, j, x, (c & ~7u) == IPUE_MAP_CONST8, msg, msglen);
	}
	if ((c & 0xe0u) == IPUE_MAP_UNARY && (c & 0x1fu) >= 1 && (c & 0x1fu) < IPUE_UOP_COUNT_)
		x->code = IPUE_MAP_UNARY;
	else if ((c & 0xe0u) == IPUE_MAP_BINARY && (c & 0x1fu) >= 1 && (c & 0x1fu) < IPUE_BOP_CMP_END_)
		x->code = IPUE_MAP_BINARY;
	else if (c == IPUE_MAP_SELECT)
		x->code = IPUE_MAP_SELECT;
	else if ((c & 0xf0u) == IPUE_MAP_CAST && is_dtype(lo))
		x->code = IPUE_MAP_CAST;
	else
		return ipue__fail(msg, msglen, "program byte %u: unknown opcode 0x%02x", at, c);
	x->arg = (uint8_t)(x->code == IPUE_MAP_CAST ? lo : c & 0x1fu);
	return 0;
}

/*
 * The program of params p over nin inputs of dtypes indt into ins[] (at
 * most IPUE_MAP_MAX_PROGRAM); *rdt its result's dtype. Its length or
 * -EINVAL with a message.
 */
static int map_decode(const uint32_t *p, unsigned nin, const uint8_t *indt, struct minst *ins, uint8_t *rdt,
		      char *msg, size_t msglen)
{
	unsigned len = pbyte(p, 0), n = 0, sp = 0;
	uint8_t st[IPUE_MAP_MAX_STACK];
	int r;

	if (len < 1 || len > IPUE_MAP_MAX_PROGRAM)
		return ipue__fail(msg, msglen, "program length %u not in 1..%u", len, IPUE_MAP_MAX_PROGRAM);
	for (unsigned j = len + 1; j < 4 * IPUE_MAX_PARAMS; j++)
		if (pbyte(p, j))
			return ipue__fail(msg, msglen, "params byte %u after the program is not zero", j);
	for (unsigned j = 1; j <= len; n++) {
		unsigned at = j;

		if ((r = decode_inst(p, len, &j, nin, indt, &ins[n], msg, msglen)) ||
		    (r = type_inst(&ins[n], at, st, &sp, msg, msglen)))
			return r;
	}
	if (sp != 1)
		return ipue__fail(msg, msglen, "program leaves %u values, must leave 1", sp);
	*rdt = st[0];
	return (int)n;
}

static int map_check(unsigned nin, const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen)
{
	const struct ipue_field *out = &f[nin];
	struct minst ins[IPUE_MAP_MAX_PROGRAM];
	uint8_t indt[IPUE_MAP_MAX_INPUTS], rdt;
	char name[16];
	int r;

	if ((r = ipue__check_field(out, "out", msg, msglen)))
		return r;
	for (unsigned k = 0; k < nin; k++) {
		snprintf(name, sizeof(name), "in%u", k);
		if ((r = ipue__check_field(&f[k], name, msg, msglen)))
			return r;
		if (f[k].count != out->count && f[k].count != 1)
			return ipue__fail(msg, msglen, "in%u has %u elements, expected %u or 1", k, f[k].count,
					  out->count);
		/* elementwise-safe only when out is exactly in k, element for element */
		if (ipue__overlap(&f[k], out) && !(ipue__same_region(&f[k], out) && f[k].count == out->count))
			return ipue__fail(msg, msglen, "out overlaps in%u", k);
		indt[k] = f[k].dtype;
	}
	if ((r = map_decode(p, nin, indt, ins, &rdt, msg, msglen)) < 0)
		return r;
	if (rdt != out->dtype)
		return ipue__fail(msg, msglen, "program's result is %s, out is %s", ipue__dtype_name(rdt),
				  ipue__dtype_name(out->dtype));
	return 0;
}

/* ---------------- evaluation ---------------- */

static void round_f16(float *v, uint32_t m, bool f16c)
{
	uint16_t t[CH];

	ipue__f2h_n(t, v, m, f16c);
	ipue__h2f_n(v, t, m, f16c);
}

/* elements [i, i + m) of input field in (broadcast when it has 1 of several) into s */
static void load_in(union mslot *s, const struct ipue_field *in, uint32_t n, uint32_t i, uint32_t m, bool f16c)
{
	uint32_t at = in->count == n ? i : 0, k = in->count == n ? m : 1;

	if (in->dtype == IPU_DTYPE_F16)
		ipue__h2f_n(s->f, (const uint16_t *)in->data + at, k, f16c);
	else
		memcpy(s->i, (const int32_t *)in->data + at, k * sizeof(int32_t));
	for (uint32_t j = 1; k == 1 && j < m; j++)
		s->i[j] = s->i[0];
}

#define EACH_UOP(X) X(IPUE_UOP_NEG) X(IPUE_UOP_ABS) X(IPUE_UOP_EXP) X(IPUE_UOP_LOG) X(IPUE_UOP_SQRT) \
	X(IPUE_UOP_TANH) X(IPUE_UOP_SIGMOID) X(IPUE_UOP_RELU) X(IPUE_UOP_GELU)
#define EACH_BOP(X) X(IPUE_BOP_ADD) X(IPUE_BOP_SUB) X(IPUE_BOP_MUL) X(IPUE_BOP_DIV) X(IPUE_BOP_MAX) \
	X(IPUE_BOP_MIN)
#define EACH_CMP(X) X(IPUE_BOP_EQ) X(IPUE_BOP_NE) X(IPUE_BOP_LT) X(IPUE_BOP_LE) X(IPUE_BOP_GT) \
	X(IPUE_BOP_GE)

static void do_unary(const struct minst *x, union mslot *a, uint32_t m, bool f16c)
{
	if (x->sdt == IPU_DTYPE_I32) {
		for (uint32_t j = 0; j < m; j++)
			a->i[j] = uop_i32(x->arg, a->i[j]);
		return;
	}
	switch (x->arg) {
#define U(OP) case OP: for (uint32_t j = 0; j < m; j++) a->f[j] = uop_f32(OP, a->f[j]); break;
	EACH_UOP(U)
#undef U
	}
	if (x->sdt == IPU_DTYPE_F16)
		round_f16(a->f, m, f16c);
}

/* a = a op b (comparisons: i32 0/1); one loop per op and dtype, so that the compiler vectorizes it */
static void do_binary(const struct minst *x, union mslot *a, const union mslot *b, uint32_t m, bool f16c)
{
	if (x->sdt == IPU_DTYPE_I32) {
		switch (x->arg) {
#define B(OP) case OP: for (uint32_t j = 0; j < m; j++) a->i[j] = bop_i32(OP, a->i[j], b->i[j]); break;
		EACH_BOP(B)
#undef B
#define C(OP) case OP: for (uint32_t j = 0; j < m; j++) a->i[j] = CMP(OP, a->i[j], b->i[j]); break;
		EACH_CMP(C)
#undef C
		}
		return;
	}
	switch (x->arg) {
#define B(OP) case OP: for (uint32_t j = 0; j < m; j++) a->f[j] = bop_f32(OP, a->f[j], b->f[j]); break;
	EACH_BOP(B)
#undef B
#define C(OP) case OP: for (uint32_t j = 0; j < m; j++) a->i[j] = CMP(OP, a->f[j], b->f[j]); return;
	EACH_CMP(C)
#undef C
	}
	if (x->sdt == IPU_DTYPE_F16)
		round_f16(a->f, m, f16c);
}

/* Cast's rules; f16 results kept as their exact f32 values */
static void do_cast(const struct minst *x, union mslot *a, uint32_t m, bool f16c)
{
	bool from_int = x->sdt == IPU_DTYPE_I32, to_int = x->arg == IPU_DTYPE_I32;

	if (from_int && !to_int)
		for (uint32_t j = 0; j < m; j++)
			a->f[j] = (float)a->i[j];
	else if (!from_int && to_int)
		for (uint32_t j = 0; j < m; j++)
			a->i[j] = f32_to_i32(a->f[j]);
	if (x->arg == IPU_DTYPE_F16 && x->sdt != IPU_DTYPE_F16)
		round_f16(a->f, m, f16c);
}

/* the program on elements [i, i + m): its result in s[0] */
static void map_chunk(const struct minst *ins, unsigned nins, const struct ipue_field *f, uint32_t n, uint32_t i,
		      uint32_t m, union mslot *s, bool f16c)
{
	unsigned sp = 0;

	for (unsigned k = 0; k < nins; k++) {
		const struct minst *x = &ins[k];

		switch (x->code) {
		case IPUE_MAP_IN:
			load_in(&s[sp++], &f[x->arg], n, i, m, f16c);
			break;
		case IPUE_MAP_CONST:
			for (uint32_t j = 0; j < m; j++)
				s[sp].i[j] = (int32_t)x->imm;	/* the bits; read back through the union */
			sp++;
			break;
		case IPUE_MAP_UNARY:
			do_unary(x, &s[sp - 1], m, f16c);
			break;
		case IPUE_MAP_BINARY:
			do_binary(x, &s[sp - 2], &s[sp - 1], m, f16c);
			sp--;
			break;
		case IPUE_MAP_SELECT:
			for (uint32_t j = 0; j < m; j++)
				s[sp - 3].i[j] = s[sp - 3].i[j] ? s[sp - 2].i[j] : s[sp - 1].i[j];
			sp -= 2;
			break;
		default:
			do_cast(x, &s[sp - 1], m, f16c);
			break;
		}
	}
}

static void map_run(unsigned nin, const struct ipue_field *f, const uint32_t *p)
{
	const struct ipue_field *out = &f[nin];
	struct minst ins[IPUE_MAP_MAX_PROGRAM];
	union mslot s[IPUE_MAP_MAX_STACK];
	uint8_t indt[IPUE_MAP_MAX_INPUTS], rdt;
	bool f16c = ipue__f16c_supported();
	int nins;

	for (unsigned k = 0; k < nin; k++)
		indt[k] = f[k].dtype;
	if ((nins = map_decode(p, nin, indt, ins, &rdt, NULL, 0)) < 0)
		return;		/* never: check() accepted it */
	for (uint32_t i = 0; i < out->count; i += CH) {
		uint32_t m = out->count - i < CH ? out->count - i : CH;

		/* every input of the chunk is read before out's chunk is written: out may be an input */
		map_chunk(ins, (unsigned)nins, f, out->count, i, m, s, f16c);
		if (out->dtype == IPU_DTYPE_F16)
			ipue__f2h_n((uint16_t *)out->data + i, s[0].f, m, f16c);
		else
			memcpy((int32_t *)out->data + i, s[0].i, m * sizeof(int32_t));
	}
}

/* ---------------- cost model ---------------- */

/* quarter cycles per element of one instruction: the single-op codelet's rate */
static uint64_t inst_qcycles(const struct minst *x)
{
	switch (x->code) {
	case IPUE_MAP_UNARY:
		return uop_qcycles(x->arg, x->sdt);
	case IPUE_MAP_BINARY:
		return bop_qcycles(x->arg >= IPUE_BOP_EQ ? IPUE_BOP_MAX : x->arg, x->sdt);
	case IPUE_MAP_SELECT:
		return 4;				/* Select: 1 element/cycle */
	case IPUE_MAP_CAST:				/* Cast's rates; to its own dtype: nothing */
		if (x->arg == x->sdt)
			return 0;
		return x->arg == IPU_DTYPE_I32 || x->sdt == IPU_DTYPE_I32 ? 4 : 2;
	default:
		return 0;				/* inputs and constants: operands of the ops */
	}
}

static uint64_t map_cycles(unsigned nin, const struct ipue_field *f, const uint32_t *p)
{
	struct minst ins[IPUE_MAP_MAX_PROGRAM];
	uint8_t indt[IPUE_MAP_MAX_INPUTS], rdt;
	uint64_t q = 0;
	int nins;

	for (unsigned k = 0; k < nin; k++)
		indt[k] = f[k].dtype;
	nins = map_decode(p, nin, indt, ins, &rdt, NULL, 0);
	for (int k = 0; k < nins; k++)
		q += inst_qcycles(&ins[k]);
	return IPUE_CYCLES_VERTEX_OVERHEAD + ipue__ceil_div((uint64_t)f[nin].count * q, 4);
}

/* ---------------- registry slice ---------------- */

#define MAP_FNS(K)									\
static int map##K##_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t msglen) \
{											\
	return map_check(K, f, p, msg, msglen);						\
}											\
static void map##K##_run(const struct ipue_field *f, const uint32_t *p)		\
{											\
	map_run(K, f, p);								\
}											\
static uint64_t map##K##_cycles(const struct ipue_field *f, const uint32_t *p)		\
{											\
	return map_cycles(K, f, p);							\
}

MAP_FNS(1)
MAP_FNS(2)
MAP_FNS(3)
MAP_FNS(4)
MAP_FNS(5)
MAP_FNS(6)
MAP_FNS(7)

#define IN_F(i) { "in" #i, IPUE_FIELD_IN, 0, IPUE_DTMASK_ALL }
#define OUT_F { "out", IPUE_FIELD_OUT, 0, IPUE_DTMASK_ALL }
#define MAP_ENTRY(K, ...) {								\
	.id = IPUE_CODELET_MAP(K), .name = "Map" #K,					\
	.nfields = K + 1, .nparams = IPUE_MAX_PARAMS,					\
	.field = { __VA_ARGS__, OUT_F },						\
	.check = map##K##_check, .run = map##K##_run, .cycles = map##K##_cycles }

_Static_assert(4 * IPUE_MAX_PARAMS > IPUE_MAP_MAX_PROGRAM, "the program and its length fit the params");
_Static_assert(IPUE_MAP_MAX_INPUTS + 1 <= IPUE_MAX_FIELDS, "inputs and out fit the fields");

/* sorted by id */
static const struct ipue_codelet codelets[] = {
	MAP_ENTRY(1, IN_F(0)),
	MAP_ENTRY(2, IN_F(0), IN_F(1)),
	MAP_ENTRY(3, IN_F(0), IN_F(1), IN_F(2)),
	MAP_ENTRY(4, IN_F(0), IN_F(1), IN_F(2), IN_F(3)),
	MAP_ENTRY(5, IN_F(0), IN_F(1), IN_F(2), IN_F(3), IN_F(4)),
	MAP_ENTRY(6, IN_F(0), IN_F(1), IN_F(2), IN_F(3), IN_F(4), IN_F(5)),
	MAP_ENTRY(7, IN_F(0), IN_F(1), IN_F(2), IN_F(3), IN_F(4), IN_F(5), IN_F(6)),
};

const struct ipue__slice ipue__map_slice = {
	codelets, sizeof(codelets) / sizeof(codelets[0])
};
