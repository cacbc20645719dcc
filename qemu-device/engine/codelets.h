/* SPDX-License-Identifier: MIT */
/*
 * Built-in codelet (vertex) library of the tile engine.
 *
 * A vertex is an instance of a codelet bound to regions of ONE tile's memory
 * (its fields) and to a few 32-bit parameters. The engine's loader checks the
 * field count, each field's dtype against field[i].dtype_mask and scalar-ness
 * (scalar fields have count == 1), then calls check(); run() is only ever
 * called with bindings check() accepted. See docs/codelets.md for every
 * codelet's fields, params, semantics, error bounds and cycle formula.
 *
 * Codelet ids are part of the graph binary format: they never change meaning.
 * New codelets get new ids and bump IPUE_CODELET_LIBRARY_VERSION.
 *
 * Aliasing: a field of direction OUT or INOUT must not overlap any other
 * field of the same vertex, except where the codelet documents otherwise
 * (elementwise codelets and cast between equal-size types accept an output
 * that coincides exactly - same address, same element size - with an input;
 * copy accepts any overlap). Input fields may overlap each other freely.
 * check() enforces these rules and natural alignment of every field.
 *
 * Plain C11, no global mutable state, thread-safe: run() may be called
 * concurrently for different vertices.
 */
#ifndef IPUE_CODELETS_H
#define IPUE_CODELETS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__has_include)
#if __has_include("ipu/graph_format.h")
#include "ipu/graph_format.h"
#endif
#endif

/* element types; values fixed by the graph format (include/ipu/graph_format.h) */
#ifndef IPU_DTYPE_F32
#define IPU_DTYPE_F32 1
#endif
#ifndef IPU_DTYPE_F16
#define IPU_DTYPE_F16 2
#endif
#ifndef IPU_DTYPE_I32
#define IPU_DTYPE_I32 3
#endif

#define IPUE_DTMASK(t)		((uint16_t)(1u << (t)))
#define IPUE_DTMASK_F32		IPUE_DTMASK(IPU_DTYPE_F32)
#define IPUE_DTMASK_F16		IPUE_DTMASK(IPU_DTYPE_F16)
#define IPUE_DTMASK_I32		IPUE_DTMASK(IPU_DTYPE_I32)
#define IPUE_DTMASK_FLOAT	(IPUE_DTMASK_F32 | IPUE_DTMASK_F16)
#define IPUE_DTMASK_ALL		(IPUE_DTMASK_FLOAT | IPUE_DTMASK_I32)

#define IPUE_MAX_FIELDS 8
#define IPUE_MAX_PARAMS 8

enum { IPUE_FIELD_IN = 1, IPUE_FIELD_OUT = 2, IPUE_FIELD_INOUT = 3 };

/* bound by the engine, already bounds-checked; count = elements */
struct ipue_field {
	void *data;
	uint32_t count;
	uint8_t dtype;
};

struct ipue_field_desc {
	const char *name;
	uint8_t dir;		/* IPUE_FIELD_* */
	uint8_t scalar;		/* 1: count must be 1 */
	uint16_t dtype_mask;	/* bit (1u << dtype) */
};

struct ipue_codelet {
	uint16_t id;
	const char *name;
	uint8_t nfields;
	uint8_t nparams;
	struct ipue_field_desc field[IPUE_MAX_FIELDS];
	/* load time: are the bound shapes/dtypes/params consistent?
	 * 0, or -EINVAL with a message in msg (always NUL-terminated if msglen > 0) */
	int (*check)(const struct ipue_field *f, const uint32_t *params,
		     char *msg, size_t msglen);
	/* no bounds checks needed, never fails */
	void (*run)(const struct ipue_field *f, const uint32_t *params);
	/* modeled tile cycles on the real chip (GC200), see docs/codelets.md */
	uint64_t (*cycles)(const struct ipue_field *f, const uint32_t *params);
};

const struct ipue_codelet *ipue_codelet_find(uint16_t id); /* NULL if unknown */
size_t ipue_codelet_count(void);
const struct ipue_codelet *ipue_codelet_at(size_t i);	/* NULL if i >= count */

/*
 * Full validation of a binding as the loader does it: field count/dtype
 * masks/scalar-ness, then check(). Convenience for the engine and tests;
 * returns 0 or -EINVAL with a message.
 */
int ipue_codelet_validate(const struct ipue_codelet *c, const struct ipue_field *f,
			  unsigned nfields, const uint32_t *params, unsigned nparams,
			  char *msg, size_t msglen);

#define IPUE_CODELET_LIBRARY_VERSION 5	/* 2: MatMulPartial OVERWRITE flag; 3: GELU, 0x09xx, compare, Select, ArgMax; 4: 0x0Axx optimizers, ReduceColumns*; 5: 0x0Exx Map (fused expressions), Im2Col, Col2Im, 0x0Bxx pools, Transpose */

/* ---- codelet ids (stable; see docs/codelets.md) ----
 * 0x01xx unary   out = op(in)        fields: in, out
 * 0x02xx unary   x = op(x)           fields: x (InOut)
 * 0x03xx binary  out = a op b        fields: a, b, out (comparisons: out i32)
 * 0x04xx binary  a = a op b          fields: a (InOut), b
 * 0x05xx data movement: cast, fill, copy, select, transpose
 * 0x06xx reductions
 * 0x07xx matmul / convolution partials
 * 0x08xx weight update
 * 0x09xx gradients: in_grad = f'(act) * out_grad   fields: out_grad, act, in_grad
 * 0x0Axx optimizers (f32): SGD with momentum, Adam
 * 0x0Bxx pooling and its gradients (f32, sliding-window params as Im2Col)
 * 0x0Exx fused elementwise expressions (Map): fields in0..in(k-1), out;
 *        params: the expression program (see below, docs/codelets.md)
 */
enum ipue_unary_op {
	IPUE_UOP_NEG = 1, IPUE_UOP_ABS, IPUE_UOP_EXP, IPUE_UOP_LOG,
	IPUE_UOP_SQRT, IPUE_UOP_TANH, IPUE_UOP_SIGMOID, IPUE_UOP_RELU,
	IPUE_UOP_GELU,	/* tanh approximation, see docs/codelets.md */
	IPUE_UOP_COUNT_ /* one past the last */
};
enum ipue_binary_op {
	IPUE_BOP_ADD = 1, IPUE_BOP_SUB, IPUE_BOP_MUL, IPUE_BOP_DIV,
	IPUE_BOP_MAX, IPUE_BOP_MIN,
	IPUE_BOP_COUNT_, /* one past the last arithmetic op */
	/* comparisons: out is i32 0/1 whatever a's dtype, so no in-place form */
	IPUE_BOP_EQ = IPUE_BOP_COUNT_, IPUE_BOP_NE, IPUE_BOP_LT, IPUE_BOP_LE,
	IPUE_BOP_GT, IPUE_BOP_GE,
	IPUE_BOP_CMP_END_ /* one past the last comparison */
};

#define IPUE_CODELET_UNARY(op)		((uint16_t)(0x0100 | (op)))
#define IPUE_CODELET_UNARY_INPLACE(op)	((uint16_t)(0x0200 | (op)))
#define IPUE_CODELET_BINARY(op)		((uint16_t)(0x0300 | (op)))
#define IPUE_CODELET_BINARY_INPLACE(op)	((uint16_t)(0x0400 | (op)))

/* nonlinearity gradients (popnn::nonLinearityInputGradient): act is the
 * forward OUTPUT for relu, sigmoid and tanh (Poplar's convention), the
 * forward INPUT for gelu (its derivative is not a function of the output) */
enum ipue_nl_type {
	IPUE_NL_RELU = 1, IPUE_NL_GELU, IPUE_NL_SIGMOID, IPUE_NL_TANH,
	IPUE_NL_COUNT_
};
#define IPUE_CODELET_NL_GRAD(t)		((uint16_t)(0x0900 | (t)))

enum {
	IPUE_CODELET_CAST		= 0x0501, /* in, out; any dtype -> any dtype */
	IPUE_CODELET_FILL		= 0x0502, /* out; params[0] = value bits */
	IPUE_CODELET_COPY		= 0x0503, /* in, out; memmove semantics */
	IPUE_CODELET_SELECT		= 0x0504, /* cond(i32), a, b, out: out = cond ? a : b */
	IPUE_CODELET_TRANSPOSE		= 0x0505, /* in [R][C], out [C][R]; params R, C */

	IPUE_CODELET_REDUCE_SUM		= 0x0601, /* in, out(scalar); params[0] = flags */
	IPUE_CODELET_REDUCE_MAX		= 0x0602,
	IPUE_CODELET_REDUCE_MIN		= 0x0603,
	IPUE_CODELET_ARGMAX		= 0x0604, /* in, out(i32); params[0] = row length */
	/* in, out; params flags, row length C, column of in[0], column of out[0] */
	IPUE_CODELET_REDUCE_COLS_SUM	= 0x0605,
	IPUE_CODELET_REDUCE_COLS_MAX	= 0x0606,
	IPUE_CODELET_REDUCE_COLS_MIN	= 0x0607,

	IPUE_CODELET_MATMUL		= 0x0701, /* A, B, C(f32); params M, N, K, flags */
	IPUE_CODELET_CONV2D		= 0x0702, /* in, w, out(f32); params Cin,H,W,Cout,KH,KW,SY,SX */
	/* sliding windows (codelets_window.c): 8 params, the window geometry */
	IPUE_CODELET_IM2COL		= 0x0703, /* in (window), col [C*KH*KW][P] */
	IPUE_CODELET_COL2IM		= 0x0704, /* col (f32), out (window, f32) = adjoint of Im2Col */

	IPUE_CODELET_SCALED_ADD		= 0x0801, /* x(InOut), y; params[0] = f32 bits of s */
	IPUE_CODELET_SCALED_ADD_S	= 0x0802, /* x(InOut), y, s(scalar f32 field) */

	/* optimizers (codelets_optim.c); params are f32 bits */
	IPUE_CODELET_SGD_MOMENTUM	= 0x0A01, /* w, v (InOut), g, lr(scalar); params momentum */
	IPUE_CODELET_ADAM_STEP		= 0x0A02, /* step(i32 InOut), lr, k[2] (Out); params beta1, beta2 */
	IPUE_CODELET_ADAM		= 0x0A03, /* w, m, v (InOut), g, k[2]; params beta1, beta2, eps */

	IPUE_CODELET_MAX_POOL		= 0x0B01, /* in (window), out [C][P] */
	IPUE_CODELET_AVG_POOL		= 0x0B02, /* in (window), out [C][P] */
	IPUE_CODELET_MAX_POOL_GRAD	= 0x0B03, /* in (window), out_grad [C][P], in_grad (rows goff..) */
	IPUE_CODELET_AVG_POOL_GRAD	= 0x0B04, /* out_grad [C][P], in_grad (window) */
};

/*
 * Map with k inputs (1 <= k <= IPUE_MAP_MAX_INPUTS): out[i] = P(in0[i], ...),
 * each input of out's count or 1 (broadcast). P is a postfix program in the
 * bytes of the 8 params (little-endian: byte j is bits 8 (j % 4) of
 * params[j / 4]): byte 0 its length L (1..IPUE_MAP_MAX_PROGRAM), bytes
 * 1..L the opcodes, the rest zero. Every value has a dtype; each op rounds
 * to it as the single-op codelet does.
 */
#define IPUE_MAP_MAX_INPUTS	7
#define IPUE_MAP_MAX_PROGRAM	31	/* bytes */
#define IPUE_MAP_MAX_STACK	8	/* values live at once */
#define IPUE_CODELET_MAP(k)	((uint16_t)(0x0E00 | (k)))
enum ipue_map_opcode {
	IPUE_MAP_IN = 0x10,		/* | k: push input k (k < inputs) */
	IPUE_MAP_CONST = 0x20,		/* | dtype: push a constant, 4 bytes (f32, i32) or 2 (f16) follow, LE */
	IPUE_MAP_CONST8 = 0x28,		/* | dtype: push a signed byte (1 follows) as dtype */
	IPUE_MAP_UNARY = 0x40,		/* | ipue_unary_op: x -> op(x) */
	IPUE_MAP_BINARY = 0x60,		/* | ipue_binary_op (compares too): a b -> a op b */
	IPUE_MAP_SELECT = 0x80,		/* cond(i32) a b -> cond ? a : b */
	IPUE_MAP_CAST = 0x90,		/* | dtype: x -> x as dtype (Cast's rules) */
};

/* reduce flags (params[0]) */
#define IPUE_REDUCE_ACCUMULATE	1u	/* out = out op reduce(in) instead of out = reduce(in) */

/* matmul flags (params[3]) */
#define IPUE_MATMUL_B_TRANSPOSED 1u	/* B stored as [N][K] */
#define IPUE_MATMUL_OVERWRITE	2u	/* C = A x B: C's old contents are not read */

/* cost model figures (GC200), docs/codelets.md */
#define IPUE_CYCLES_VERTEX_OVERHEAD	50u
#define IPUE_AMP_MACS_F32		16u	/* 62.5 TFLOPS / 1472 tiles / 1.33 GHz / 2 */
#define IPUE_AMP_MACS_F16		64u	/* 250 TFLOPS / 1472 tiles / 1.33 GHz / 2 */

/* fp16 <-> fp32 conversion (IEEE binary16; f32 -> f16 round-to-nearest-even,
 * overflow -> inf, NaN stays NaN with the top payload bits kept, quiet bit set) */
float ipue_f16_to_f32(uint16_t h);
uint16_t ipue_f32_to_f16(float f);

#endif /* IPUE_CODELETS_H */
