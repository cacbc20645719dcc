/* SPDX-License-Identifier: MIT */
/*
 * The graphs whose binaries the compact-form test (graph_binary_tests.h)
 * and benchmark (bench_graph_binary.c) measure: an MLP whose weights are
 * initial data, and a partitioned matmul whose operands are. Deterministic
 * values (a linear congruential sequence in [-1, 1)).
 */
#ifndef BINARY_GRAPHS_H
#define BINARY_GRAPHS_H

#include <stdint.h>
#include <stdlib.h>

#include "ipudev.h"

static inline void bg_fill(float *p, uint64_t n, uint32_t seed)
{
	for (uint64_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = (float)(seed >> 8) / 8388608.0f - 1.0f;
	}
}

/* a [r][c] f32 tensor spread over the tiles; with initial values if @seed */
static inline int bg_tensor(struct ipu_graph *g, const char *name, uint32_t r, uint32_t c,
			    uint32_t seed, uint64_t *init_bytes, struct ipu_error *err)
{
	uint32_t shape[2] = { r, c };
	uint64_t n = (uint64_t)r * c;
	int t = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 2, shape, err);
	float *v;

	if (t < 0 || ipu_graph_map_linear(g, t, 0, err) < 0)
		return -1;
	if (!seed)
		return ipu_graph_expose(g, t, NULL, IPU_HANDLE_WRITE, err) < 0 ? -1 : t;
	v = malloc(n * sizeof(float));
	if (!v)
		return -1;
	bg_fill(v, n, seed);
	if (ipu_graph_set_initial(g, t, v, n * sizeof(float), err) < 0)
		t = -1;
	free(v);
	*init_bytes += n * sizeof(float);
	return t;
}

/*
 * y = relu(relu(x w1 + b1) w2 + b2), x [B][I] written by the host, the
 * weights w1 [I][H], b1 [1][H], w2 [H][H], b2 [1][H] initial data (their
 * bytes added to *@init_bytes); program "forward", y readable. 0 or -1.
 */
static inline int bg_mlp(struct ipu_graph *g, uint32_t B, uint32_t I, uint32_t H,
			 uint64_t *init_bytes, struct ipu_error *err)
{
	int seq = ipu_prog_sequence(g, err);
	int x = bg_tensor(g, "x", B, I, 0, init_bytes, err);
	int w1 = bg_tensor(g, "w1", I, H, 11, init_bytes, err);
	int b1 = bg_tensor(g, "b1", 1, H, 12, init_bytes, err);
	int w2 = bg_tensor(g, "w2", H, H, 13, init_bytes, err);
	int b2 = bg_tensor(g, "b2", 1, H, 14, init_bytes, err);
	int h, y;

	if (seq < 0 || x < 0 || w1 < 0 || b1 < 0 || w2 < 0 || b2 < 0)
		return -1;
	h = ipu_matmul(g, seq, x, w1, "h", NULL, err);
	if (h < 0 || ipu_binary(g, seq, IPU_OP_ADD, h, b1, NULL, err) < 0 ||
	    ipu_unary(g, seq, IPU_OP_RELU, h, NULL, err) < 0)
		return -1;
	y = ipu_matmul(g, seq, h, w2, "y", NULL, err);
	if (y < 0 || ipu_binary(g, seq, IPU_OP_ADD, y, b2, NULL, err) < 0 ||
	    ipu_unary(g, seq, IPU_OP_RELU, y, NULL, err) < 0 ||
	    ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, err) < 0 ||
	    ipu_graph_add_program(g, "forward", seq, err) < 0)
		return -1;
	return 0;
}

/*
 * c = a x b, n x n x n f32 as ipu_matmul_plan() spreads it, a and b
 * initial data laid out as the plan wants them; program "matmul". 0 or -1.
 */
static inline int bg_matmul(struct ipu_graph *g, uint32_t n, uint64_t *init_bytes,
			    struct ipu_error *err)
{
	struct ipu_matmul_plan plan;
	uint64_t nn = (uint64_t)n * n;
	float *v = malloc(nn * sizeof(float));
	int seq = ipu_prog_sequence(g, err), a, b, c, r = -1;

	if (!v || seq < 0 || ipu_matmul_plan(g, n, n, n, IPU_DTYPE_F32, &plan, err))
		goto out;
	a = ipu_matmul_create_lhs(g, &plan, "a", err);
	b = ipu_matmul_create_rhs(g, &plan, "b", err);
	if (a < 0 || b < 0)
		goto out;
	bg_fill(v, nn, 21);
	if (ipu_graph_set_initial(g, a, v, nn * sizeof(float), err) < 0)
		goto out;
	bg_fill(v, nn, 22);
	if (ipu_graph_set_initial(g, b, v, nn * sizeof(float), err) < 0)
		goto out;
	*init_bytes += 2 * nn * sizeof(float);
	c = ipu_matmul(g, seq, a, b, "c", &plan, err);
	if (c >= 0 && ipu_graph_expose(g, c, NULL, IPU_HANDLE_READ, err) >= 0 &&
	    ipu_graph_add_program(g, "matmul", seq, err) >= 0)
		r = 0;
out:
	free(v);
	return r;
}

#endif /* BINARY_GRAPHS_H */
