/* SPDX-License-Identifier: MIT */
/*
 * The per-element operations of the elementwise codelets, and their cost
 * per element: the one place their math lives, shared by the single-op
 * codelets (codelets_elementwise.c, codelets_data.c) and the fused
 * expression codelet (codelets_map.c), so that both round alike.
 */
#ifndef IPUE_CODELETS_SCALAR_H
#define IPUE_CODELETS_SCALAR_H

#include <math.h>

#include "codelets_impl.h"

/* ---------------- scalar operations ---------------- */

static ALWAYS_INLINE float sigmoid_f32(float x)
{
	if (x >= 0.0f)
		return 1.0f / (1.0f + expf(-x));
	if (x < 0.0f) {
		float e = expf(x);

		return e / (1.0f + e);
	}
	return x;	/* NaN */
}

static ALWAYS_INLINE float uop_f32(int op, float x)
{
	switch (op) {
	case IPUE_UOP_NEG: return ipue__u2f(ipue__f2u(x) ^ 0x80000000u);
	case IPUE_UOP_ABS: return ipue__u2f(ipue__f2u(x) & 0x7fffffffu);
	case IPUE_UOP_EXP: return expf(x);
	case IPUE_UOP_LOG: return logf(x);
	case IPUE_UOP_SQRT: return sqrtf(x);
	case IPUE_UOP_TANH: return tanhf(x);
	case IPUE_UOP_SIGMOID: return sigmoid_f32(x);
	case IPUE_UOP_RELU: return x > 0.0f ? x : (x != x ? x : 0.0f);
	case IPUE_UOP_GELU: return (float)ipue__gelu(x);
	default: return x;
	}
}

static ALWAYS_INLINE int32_t wrap_i32(uint32_t u)
{
	/* modular conversion without implementation-defined behaviour */
	return u <= (uint32_t)INT32_MAX ? (int32_t)u : -(int32_t)(~u) - 1;
}

static ALWAYS_INLINE int32_t uop_i32(int op, int32_t x)
{
	switch (op) {
	case IPUE_UOP_NEG: return wrap_i32(0u - (uint32_t)x);
	case IPUE_UOP_ABS: return x < 0 ? wrap_i32(0u - (uint32_t)x) : x;
	case IPUE_UOP_RELU: return x > 0 ? x : 0;
	default: return x;	/* rejected by check() */
	}
}

static ALWAYS_INLINE float bop_f32(int op, float a, float b)
{
	switch (op) {
	case IPUE_BOP_ADD: return a + b;
	case IPUE_BOP_SUB: return a - b;
	case IPUE_BOP_MUL: return a * b;
	case IPUE_BOP_DIV: return a / b;
	case IPUE_BOP_MAX: return ipue__max_f32(a, b);
	case IPUE_BOP_MIN: return ipue__min_f32(a, b);
	default: return a;
	}
}

static ALWAYS_INLINE int32_t bop_i32(int op, int32_t a, int32_t b)
{
	switch (op) {
	case IPUE_BOP_ADD: return wrap_i32((uint32_t)a + (uint32_t)b);
	case IPUE_BOP_SUB: return wrap_i32((uint32_t)a - (uint32_t)b);
	case IPUE_BOP_MUL: return wrap_i32((uint32_t)a * (uint32_t)b);
	case IPUE_BOP_DIV:
		if (b == 0)
			return 0;
		if (b == -1)
			return wrap_i32(0u - (uint32_t)a);	/* INT32_MIN / -1 = INT32_MIN */
		return a / b;
	case IPUE_BOP_MAX: return a > b ? a : b;
	case IPUE_BOP_MIN: return a < b ? a : b;
	default: return a;
	}
}

/* the unary ops defined on i32 */
static inline bool uop_int_ok(int op)
{
	return op == IPUE_UOP_NEG || op == IPUE_UOP_ABS || op == IPUE_UOP_RELU;
}

/* IEEE comparisons: any NaN operand makes all false but ne (numpy, C) */
#define CMP(op, a, b)							\
	((op) == IPUE_BOP_EQ ? (a) == (b) : (op) == IPUE_BOP_NE ? (a) != (b) :	\
	 (op) == IPUE_BOP_LT ? (a) < (b) : (op) == IPUE_BOP_LE ? (a) <= (b) :	\
	 (op) == IPUE_BOP_GT ? (a) > (b) : (a) >= (b))

/* float -> int32: truncate toward zero, saturate, NaN -> 0 */
static ALWAYS_INLINE int32_t f32_to_i32(float x)
{
	if (x != x)
		return 0;
	if (x >= 2147483648.0f)
		return INT32_MAX;
	if (x <= -2147483648.0f)
		return INT32_MIN;
	return (int32_t)x;
}

/* cycles per element x 4 (quarter cycles), per dtype; see docs/codelets.md */
static inline uint64_t uop_qcycles(int op, uint8_t dt)
{
	bool h = dt == IPU_DTYPE_F16;

	if (dt == IPU_DTYPE_I32)
		return op == IPUE_UOP_ABS ? 8 : 4;		/* 1-2 cycles */
	switch (op) {
	case IPUE_UOP_NEG: case IPUE_UOP_ABS: case IPUE_UOP_RELU:
		return h ? 1 : 2;				/* 4 x f16 / 2 x f32 per cycle */
	case IPUE_UOP_EXP: case IPUE_UOP_LOG: case IPUE_UOP_TANH: case IPUE_UOP_SIGMOID:
		return h ? 4 : 8;				/* 1 x f16 / 0.5 x f32 per cycle */
	case IPUE_UOP_SQRT:
		return h ? 8 : 16;
	case IPUE_UOP_GELU:				/* tanh and 5 multiply-adds */
		return h ? 6 : 12;
	default:
		return 4;
	}
}

static inline uint64_t bop_qcycles(int op, uint8_t dt)
{
	bool h = dt == IPU_DTYPE_F16;

	if (dt == IPU_DTYPE_I32)
		return op == IPUE_BOP_DIV ? 128 : op == IPUE_BOP_MUL ? 8 : 4;
	if (op == IPUE_BOP_DIV)
		return h ? 8 : 16;
	return h ? 1 : 2;
}

#endif /* IPUE_CODELETS_SCALAR_H */
