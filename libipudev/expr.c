// SPDX-License-Identifier: MIT
/*
 * Elementwise expressions for ipu_map() (popops::expr): reference-counted
 * trees of placeholders, constants and unary/binary/compare/select/cast
 * nodes, and their compilation into the Map codelet's postfix program
 * (docs/codelets.md, "Map"). Dtypes are bound at ipu_map() time, from the
 * inputs. See docs/builder.md, "Fused elementwise expressions".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expr_internal.h"
#include "internal.h"
#include "codelets.h"

_Static_assert((int)IPU_EXPR_MAX_INPUTS == (int)IPUE_MAP_MAX_INPUTS, "placeholders are the codelet's inputs");

enum kind { K_IN, K_CONST, K_UNARY, K_BINARY, K_SELECT, K_CAST };

struct ipu_expr {
	unsigned refs;
	unsigned depth;		/* levels of the tree below and including this node */
	uint8_t kind;
	uint8_t arg;		/* input index (0-based), op or target dtype */
	uint8_t cdt;		/* a constant's dtype, 0: its sibling's */
	double value;
	struct ipu_expr *sub[3];
};

IPU_API void ipu_expr_free(struct ipu_expr *e)
{
	if (!e || --e->refs)
		return;
	for (unsigned i = 0; i < 3; i++)
		ipu_expr_free(e->sub[i]);
	free(e);
}

IPU_API struct ipu_expr *ipu_expr_ref(struct ipu_expr *e)
{
	if (e)
		e->refs++;
	return e;
}

/*
 * A node over @n operands (taken over: freed on failure too); NULL when
 * one is NULL (its constructor reported why) or on an error.
 */
static struct ipu_expr *node(const char *fn, uint8_t kind, uint8_t arg, unsigned n, struct ipu_expr *a,
			     struct ipu_expr *b, struct ipu_expr *c, struct ipu_error *err)
{
	struct ipu_expr *s[3] = { a, b, c }, *e = NULL;
	unsigned depth = 0, missing = 0;

	for (unsigned i = 0; i < n; i++) {
		missing |= !s[i];
		if (s[i] && s[i]->depth > depth)
			depth = s[i]->depth;
	}
	if (missing && !(err && err->code))
		ipu__err(err, -EINVAL, "%s: operand is NULL", fn);
	else if (!missing && depth >= IPU_EXPR_MAX_DEPTH)
		ipu__err(err, -EINVAL, "%s: expression deeper than %u levels", fn, IPU_EXPR_MAX_DEPTH);
	else if (!missing && !(e = calloc(1, sizeof(*e))))
		ipu__err(err, -ENOMEM, "%s: out of memory", fn);
	if (!e) {
		for (unsigned i = 0; i < n; i++)
			ipu_expr_free(s[i]);
		return NULL;
	}
	*e = (struct ipu_expr){ 1, depth + 1, kind, arg, 0, 0.0, { a, b, c } };
	return e;
}

IPU_API struct ipu_expr *ipu_expr_input(unsigned k, struct ipu_error *err)
{
	if (k < 1 || k > IPU_EXPR_MAX_INPUTS) {
		ipu__err(err, -EINVAL, "ipu_expr_input: placeholder _%u, must be _1 .. _%u", k, IPU_EXPR_MAX_INPUTS);
		return NULL;
	}
	return node("ipu_expr_input", K_IN, (uint8_t)(k - 1), 0, NULL, NULL, NULL, err);
}

IPU_API struct ipu_expr *ipu_expr_const_typed(unsigned dtype, double v, struct ipu_error *err)
{
	struct ipu_expr *e;

	if (dtype && dtype != IPU_DTYPE_F32 && dtype != IPU_DTYPE_F16 && dtype != IPU_DTYPE_I32) {
		ipu__err(err, -EINVAL, "ipu_expr_const_typed: dtype %u is not f32, f16 or i32", dtype);
		return NULL;
	}
	if (dtype == IPU_DTYPE_I32 && !(v == floor(v) && v >= INT32_MIN && v <= INT32_MAX)) {
		ipu__err(err, -EINVAL, "ipu_expr_const_typed: %g is not an i32 value", v);
		return NULL;
	}
	if ((e = node("ipu_expr_const", K_CONST, 0, 0, NULL, NULL, NULL, err))) {
		e->cdt = (uint8_t)dtype;
		e->value = v;
	}
	return e;
}

IPU_API struct ipu_expr *ipu_expr_const(double v, struct ipu_error *err)
{
	return ipu_expr_const_typed(0, v, err);
}

IPU_API struct ipu_expr *ipu_expr_unary(unsigned op, struct ipu_expr *x, struct ipu_error *err)
{
	if (op < IPU_OP_NEG || op > IPU_OP_GELU) {
		ipu_expr_free(x);
		ipu__err(err, -EINVAL, "ipu_expr_unary: unknown op %u", op);
		return NULL;
	}
	return node("ipu_expr_unary", K_UNARY, (uint8_t)op, 1, x, NULL, NULL, err);
}

IPU_API struct ipu_expr *ipu_expr_nonlinearity(unsigned type, struct ipu_expr *x, struct ipu_error *err)
{
	static const uint8_t uop[] = { 0, IPU_OP_RELU, IPU_OP_GELU, IPU_OP_SIGMOID, IPU_OP_TANH };

	if (type < IPU_NL_RELU || type > IPU_NL_TANH) {
		ipu_expr_free(x);
		ipu__err(err, -EINVAL, "ipu_expr_nonlinearity: unknown type %u", type);
		return NULL;
	}
	return node("ipu_expr_nonlinearity", K_UNARY, uop[type], 1, x, NULL, NULL, err);
}

IPU_API struct ipu_expr *ipu_expr_binary(unsigned op, struct ipu_expr *a, struct ipu_expr *b,
					 struct ipu_error *err)
{
	if (op < IPU_OP_ADD || op > IPU_OP_MIN) {
		ipu_expr_free(a);
		ipu_expr_free(b);
		ipu__err(err, -EINVAL, "ipu_expr_binary: unknown op %u", op);
		return NULL;
	}
	return node("ipu_expr_binary", K_BINARY, (uint8_t)op, 2, a, b, NULL, err);
}

IPU_API struct ipu_expr *ipu_expr_compare(unsigned op, struct ipu_expr *a, struct ipu_expr *b,
					  struct ipu_error *err)
{
	if (op < IPU_CMP_EQ || op > IPU_CMP_GE) {
		ipu_expr_free(a);
		ipu_expr_free(b);
		ipu__err(err, -EINVAL, "ipu_expr_compare: unknown op %u", op);
		return NULL;
	}
	return node("ipu_expr_compare", K_BINARY, (uint8_t)op, 2, a, b, NULL, err);
}

IPU_API struct ipu_expr *ipu_expr_select(struct ipu_expr *cond, struct ipu_expr *a, struct ipu_expr *b,
					 struct ipu_error *err)
{
	return node("ipu_expr_select", K_SELECT, 0, 3, cond, a, b, err);
}

IPU_API struct ipu_expr *ipu_expr_cast(struct ipu_expr *x, unsigned dtype, struct ipu_error *err)
{
	if (dtype != IPU_DTYPE_F32 && dtype != IPU_DTYPE_F16 && dtype != IPU_DTYPE_I32) {
		ipu_expr_free(x);
		ipu__err(err, -EINVAL, "ipu_expr_cast: dtype %u is not f32, f16 or i32", dtype);
		return NULL;
	}
	return node("ipu_expr_cast", K_CAST, (uint8_t)dtype, 1, x, NULL, NULL, err);
}

/* ------------------------------------------------------------------------ */
/* compilation                                                              */

struct emit {
	const uint8_t *indt;
	unsigned nin, used, len, sp, maxsp;
	uint8_t code[IPUE_MAP_MAX_PROGRAM];
	const char *op, *name;
	struct ipu_error *err;
};

static const char *dn(int dt)
{
	return dt ? ipu_dtype_name((unsigned)dt) : "an untyped constant";
}

/* the dtype of a binary op's or select's operands ta, tb (0: untyped constants); of its value */
static int pair(const struct ipu_expr *e, int ta, int tb, struct emit *m)
{
	if (ta && tb && ta != tb)
		return ipu__err(m->err, -EINVAL, "%s '%s': %s op %u on %s and %s (cast one: ipu_expr_cast)", m->op,
				m->name, e->kind == K_SELECT ? "select" : "binary", e->arg, dn(ta), dn(tb));
	if (!ta && !tb)
		return ipu__err(m->err, -EINVAL, "%s '%s': op %u of two untyped constants (give one a dtype)", m->op,
				m->name, e->arg);
	if (e->kind == K_BINARY && e->arg >= IPU_CMP_EQ)
		return IPU_DTYPE_I32;
	return ta ? ta : tb;
}

/* the dtype of e's value: > 0, 0 for a constant that takes its sibling's, or negative errno */
static int infer(const struct ipu_expr *e, struct emit *m)
{
	int t[3] = { 0, 0, 0 };

	for (unsigned i = 0; i < 3 && e->sub[i]; i++)
		if ((t[i] = infer(e->sub[i], m)) < 0)
			return t[i];
	switch (e->kind) {
	case K_IN:
		if (e->arg >= m->nin)
			return ipu__err(m->err, -EINVAL, "%s '%s': placeholder _%u, but %u inputs", m->op, m->name,
					e->arg + 1u, m->nin);
		return m->indt[e->arg];
	case K_CONST:
		return e->cdt;
	case K_UNARY:
		if (!t[0])
			return ipu__err(m->err, -EINVAL, "%s '%s': unary op %u of an untyped constant (give it a "
					"dtype: ipu_expr_const_typed)", m->op, m->name, e->arg);
		if (t[0] == IPU_DTYPE_I32 && e->arg != IPU_OP_NEG && e->arg != IPU_OP_ABS && e->arg != IPU_OP_RELU)
			return ipu__err(m->err, -EINVAL, "%s '%s': unary op %u is not defined for i32", m->op,
					m->name, e->arg);
		return t[0];
	case K_CAST:
		return e->arg;
	case K_SELECT:
		if (t[0] && t[0] != IPU_DTYPE_I32)
			return ipu__err(m->err, -EINVAL, "%s '%s': select's cond is %s, must be i32", m->op, m->name,
					dn(t[0]));
		return pair(e, t[1], t[2], m);
	default:
		return pair(e, t[0], t[1], m);
	}
}

/* one byte of the program (counted beyond the limit, for the message) */
static void put(struct emit *m, unsigned byte)
{
	if (m->len < IPUE_MAP_MAX_PROGRAM)
		m->code[m->len] = (uint8_t)byte;
	m->len++;
}

static void push(struct emit *m)
{
	if (++m->sp > m->maxsp)
		m->maxsp = m->sp;
}

/* a constant v as dtype dt: a signed byte when it is a small integer (not -0), else its bits */
static int put_const(struct emit *m, unsigned dt, double v)
{
	float f = (float)v;
	uint32_t bits;
	unsigned nb = 4;
	int small;

	if (dt == IPU_DTYPE_I32 && !(v == floor(v) && v >= INT32_MIN && v <= INT32_MAX))
		return ipu__err(m->err, -EINVAL, "%s '%s': constant %g is not an i32 value", m->op, m->name, v);
	if (dt == IPU_DTYPE_F16)
		f = ipue_f16_to_f32(ipue_f32_to_f16(f));
	if (dt == IPU_DTYPE_I32)
		small = v >= -128 && v <= 127;
	else
		small = f >= -128 && f <= 127 && f == floorf(f) && !(f == 0 && signbit(f));
	push(m);
	if (small) {
		put(m, IPUE_MAP_CONST8 | dt);
		put(m, (uint8_t)(int8_t)(dt == IPU_DTYPE_I32 ? v : f));
		return 0;
	}
	if (dt == IPU_DTYPE_I32) {
		bits = (uint32_t)(int64_t)v;
	} else if (dt == IPU_DTYPE_F16) {
		bits = ipue_f32_to_f16(f);
		nb = 2;
	} else {
		memcpy(&bits, &f, sizeof(bits));
	}
	put(m, IPUE_MAP_CONST | dt);
	for (unsigned b = 0; b < nb; b++)
		put(m, (bits >> (8 * b)) & 0xffu);
	return 0;
}

/* e in postfix; an untyped constant takes dtype want. 0 or negative errno */
static int emit(const struct ipu_expr *e, int want, struct emit *m)
{
	int t0 = e->sub[0] ? infer(e->sub[0], m) : 0, t1 = e->sub[1] ? infer(e->sub[1], m) : 0;
	int t2 = e->sub[2] ? infer(e->sub[2], m) : 0, r;

	if (t0 < 0 || t1 < 0 || t2 < 0)
		return t0 < 0 ? t0 : t1 < 0 ? t1 : t2;
	switch (e->kind) {
	case K_IN:
		m->used |= 1u << e->arg;
		put(m, IPUE_MAP_IN | e->arg);
		push(m);
		return 0;
	case K_CONST:
		return put_const(m, e->cdt ? e->cdt : (unsigned)want, e->value);
	case K_UNARY:
	case K_CAST:
		if ((r = emit(e->sub[0], e->kind == K_CAST ? e->arg : t0, m)))
			return r;
		put(m, (e->kind == K_CAST ? IPUE_MAP_CAST : IPUE_MAP_UNARY) | e->arg);
		return 0;
	case K_BINARY:
		if ((r = emit(e->sub[0], t0 ? t0 : t1, m)) || (r = emit(e->sub[1], t0 ? t0 : t1, m)))
			return r;
		put(m, IPUE_MAP_BINARY | e->arg);
		m->sp--;
		return 0;
	default:	/* select */
		if ((r = emit(e->sub[0], IPU_DTYPE_I32, m)) || (r = emit(e->sub[1], t1 ? t1 : t2, m)) ||
		    (r = emit(e->sub[2], t1 ? t1 : t2, m)))
			return r;
		put(m, IPUE_MAP_SELECT);
		m->sp -= 2;
		return 0;
	}
}

int ipu__expr_compile(const struct ipu_expr *e, unsigned nin, const uint8_t *indt, uint32_t *prm, uint8_t *rdt,
		      unsigned *used, const char *op, const char *name, struct ipu_error *err)
{
	struct emit m = { .indt = indt, .nin = nin, .op = op, .name = name, .err = err };
	int t, r;

	if (!e)
		return ipu__err(err, -EINVAL, "%s '%s': expression is NULL", op, name);
	if ((t = infer(e, &m)) < 0)
		return t;
	if (!t)
		return ipu__err(err, -EINVAL, "%s '%s': the expression is an untyped constant (give it a dtype)",
				op, name);
	if ((r = emit(e, t, &m)))
		return r;
	if (m.len > IPUE_MAP_MAX_PROGRAM)
		return ipu__err(err, -EINVAL, "%s '%s': expression compiles to %u bytes, the Map codelet takes "
				"at most %u (split it into two maps)", op, name, m.len, IPUE_MAP_MAX_PROGRAM);
	if (m.maxsp > IPUE_MAP_MAX_STACK)
		return ipu__err(err, -EINVAL, "%s '%s': expression needs %u values at once, the Map codelet "
				"holds at most %u (reorder operands or split it)", op, name, m.maxsp,
				IPUE_MAP_MAX_STACK);
	memset(prm, 0, IPUE_MAX_PARAMS * sizeof(*prm));
	prm[0] = m.len;
	for (unsigned j = 0; j < m.len; j++)
		prm[(j + 1) / 4] |= (uint32_t)m.code[j] << (8 * ((j + 1) % 4));
	*rdt = (uint8_t)t;
	*used = m.used;
	return 0;
}
