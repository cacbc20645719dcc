/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the in-VM execution tests (tests/library/exec/ipu_exec_*.c): KTAP lines,
 * a fast PRNG, the graphs they run, and host references.
 */
#ifndef IPU_EXEC_COMMON_H
#define IPU_EXEC_COMMON_H

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ipudev.h"
#include "../ref_matmul.h"

static int kt_n, kt_fail;

static inline void kt_result(int ok, const char *fmt, ...)
{
	va_list ap;

	kt_n++;
	if (!ok)
		kt_fail++;
	printf("%sok %d ", ok ? "" : "not ", kt_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static inline void kt_skip(const char *name, const char *why)
{
	kt_n++;
	printf("ok %d %s # SKIP %s\n", kt_n, name, why);
	fflush(stdout);
}

static inline double kt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* xorshift64* */
static inline uint64_t rnd64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static inline void fill_bytes(void *p, size_t n, uint64_t *s)
{
	uint8_t *b = p;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t v = rnd64(s);

		memcpy(b + i, &v, 8);
	}
	if (i < n) {
		uint64_t v = rnd64(s);

		memcpy(b + i, &v, n - i);
	}
}

static inline void fill_floats(float *p, size_t n, uint64_t *s)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (float)((double)(rnd64(s) >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

/* the card's model name ("gc200"...) */
static inline int card_model(struct ipu_device *d, uint32_t *model, struct ipu_error *e)
{
	struct ipu_device_info info;
	int r = ipu_device_info(d, &info, e);

	if (!r)
		*model = info.model;
	return r;
}

/* graph: tensor "data" (i32, @bytes) spread over the tiles, program "empty" */
static inline int graph_data(uint32_t model, uint64_t bytes, void **bin, size_t *len,
			     struct ipu_error *e)
{
	struct ipu_graph *g;
	uint32_t shape[1] = { (uint32_t)(bytes / 4) };
	int t, seq, r;

	if ((r = ipu_graph_create(model, &g, e)))
		return r;
	if ((t = r = ipu_graph_add_tensor(g, "data", IPU_DTYPE_I32, 1, shape, e)) < 0 ||
	    (r = ipu_graph_map_linear(g, t, 256, e)) < 0 ||
	    (r = ipu_graph_expose(g, t, NULL, IPU_HANDLE_RW, e)) < 0 ||
	    (seq = r = ipu_prog_sequence(g, e)) < 0 ||
	    (r = ipu_graph_add_program(g, "empty", seq, e)) < 0)
		goto out;
	r = ipu_graph_write(g, bin, len, e);
out:
	ipu_graph_free(g);
	return r < 0 ? r : 0;
}

/* graph: c = a x b (f32 [m][k] x [k][n]) through the partition helper */
static inline int graph_matmul(uint32_t model, unsigned m, unsigned k, unsigned n, void **bin,
			       size_t *len, struct ipu_error *e)
{
	struct ipu_graph *g;
	struct ipu_matmul_plan p;
	int ta, tb, tc, seq, r;

	if ((r = ipu_graph_create(model, &g, e)))
		return r;
	if ((r = ipu_matmul_plan(g, m, n, k, IPU_DTYPE_F32, &p, e)) < 0 ||
	    (ta = r = ipu_matmul_create_lhs(g, &p, "a", e)) < 0 ||
	    (tb = r = ipu_matmul_create_rhs(g, &p, "b", e)) < 0 ||
	    (seq = r = ipu_prog_sequence(g, e)) < 0 ||
	    (tc = r = ipu_matmul(g, seq, ta, tb, "c", &p, e)) < 0 ||
	    (r = ipu_graph_add_program(g, "matmul", seq, e)) < 0 ||
	    (r = ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, e)) < 0 ||
	    (r = ipu_graph_expose(g, tb, NULL, IPU_HANDLE_WRITE, e)) < 0 ||
	    (r = ipu_graph_expose(g, tc, NULL, IPU_HANDLE_READ, e)) < 0)
		goto out;
	r = ipu_graph_write(g, bin, len, e);
out:
	ipu_graph_free(g);
	return r < 0 ? r : 0;
}

/* graph: y = relu(relu(x W1 + b1) W2 + b2), program "forward" */
static inline int graph_mlp(uint32_t model, unsigned B, unsigned I, unsigned H, unsigned O,
			    void **bin, size_t *len, struct ipu_error *e)
{
	struct ipu_graph *g;
	uint32_t sx[2] = { B, I }, sw1[2] = { I, H }, sb1[1] = { H }, sw2[2] = { H, O },
		 sb2[1] = { O };
	int tx, tw1, tb1, tw2, tb2, h1, y, seq, r;

	if ((r = ipu_graph_create(model, &g, e)))
		return r;
	if ((tx = r = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, sx, e)) < 0 ||
	    (tw1 = r = ipu_graph_add_tensor(g, "w1", IPU_DTYPE_F32, 2, sw1, e)) < 0 ||
	    (tb1 = r = ipu_graph_add_tensor(g, "b1", IPU_DTYPE_F32, 1, sb1, e)) < 0 ||
	    (tw2 = r = ipu_graph_add_tensor(g, "w2", IPU_DTYPE_F32, 2, sw2, e)) < 0 ||
	    (tb2 = r = ipu_graph_add_tensor(g, "b2", IPU_DTYPE_F32, 1, sb2, e)) < 0 ||
	    (r = ipu_graph_map_linear(g, tx, 16, e)) < 0 ||
	    (r = ipu_graph_map_linear(g, tw1, 16, e)) < 0 ||
	    (r = ipu_graph_map_linear(g, tw2, 16, e)) < 0 ||
	    (r = ipu_graph_map_tile(g, tb1, 1, e)) < 0 ||
	    (r = ipu_graph_map_tile(g, tb2, 2, e)) < 0 ||
	    (seq = r = ipu_prog_sequence(g, e)) < 0 ||
	    (h1 = r = ipu_matmul(g, seq, tx, tw1, "h1", NULL, e)) < 0 ||
	    (r = ipu_binary(g, seq, IPU_OP_ADD, h1, tb1, NULL, e)) < 0 ||
	    (r = ipu_unary(g, seq, IPU_OP_RELU, h1, NULL, e)) < 0 ||
	    (y = r = ipu_matmul(g, seq, h1, tw2, "y", NULL, e)) < 0 ||
	    (r = ipu_binary(g, seq, IPU_OP_ADD, y, tb2, NULL, e)) < 0 ||
	    (r = ipu_unary(g, seq, IPU_OP_RELU, y, NULL, e)) < 0 ||
	    (r = ipu_graph_add_program(g, "forward", seq, e)) < 0 ||
	    (r = ipu_graph_expose(g, tx, NULL, IPU_HANDLE_WRITE, e)) < 0 ||
	    (r = ipu_graph_expose(g, tw1, NULL, IPU_HANDLE_WRITE, e)) < 0 ||
	    (r = ipu_graph_expose(g, tb1, NULL, IPU_HANDLE_WRITE, e)) < 0 ||
	    (r = ipu_graph_expose(g, tw2, NULL, IPU_HANDLE_WRITE, e)) < 0 ||
	    (r = ipu_graph_expose(g, tb2, NULL, IPU_HANDLE_WRITE, e)) < 0 ||
	    (r = ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, e)) < 0)
		goto out;
	r = ipu_graph_write(g, bin, len, e);
out:
	ipu_graph_free(g);
	return r < 0 ? r : 0;
}

/* graph: acc += x, @iters times in a Repeat loop; program "loop" */
static inline int graph_loop(uint32_t model, unsigned n, unsigned iters, void **bin,
			     size_t *len, struct ipu_error *e)
{
	struct ipu_graph *g;
	uint32_t s[1] = { n };
	int acc, x, body, loop, seq, r;

	if ((r = ipu_graph_create(model, &g, e)))
		return r;
	if ((acc = r = ipu_graph_add_tensor(g, "acc", IPU_DTYPE_F32, 1, s, e)) < 0 ||
	    (x = r = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, s, e)) < 0 ||
	    (r = ipu_graph_map_linear(g, acc, 8, e)) < 0 ||
	    (r = ipu_graph_map_like(g, x, acc, e)) < 0 ||
	    (body = r = ipu_prog_sequence(g, e)) < 0 ||
	    (r = ipu_binary(g, body, IPU_OP_ADD, acc, x, NULL, e)) < 0 ||
	    (loop = r = ipu_prog_repeat(g, iters, body, e)) < 0 ||
	    (seq = r = ipu_prog_sequence(g, e)) < 0 ||
	    (r = ipu_prog_append(g, seq, loop, e)) < 0 ||
	    (r = ipu_graph_add_program(g, "loop", seq, e)) < 0 ||
	    (r = ipu_graph_expose(g, acc, NULL, IPU_HANDLE_RW, e)) < 0 ||
	    (r = ipu_graph_expose(g, x, NULL, IPU_HANDLE_WRITE, e)) < 0)
		goto out;
	r = ipu_graph_write(g, bin, len, e);
out:
	ipu_graph_free(g);
	return r < 0 ? r : 0;
}

/* max |got - want| / (|want| + scale) */
static inline double max_rel_err(const float *got, const double *want, size_t n, double scale)
{
	double m = 0;

	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)got[i] - want[i]) / (fabs(want[i]) + scale);

		if (d > m || d != d)
			m = d != d ? INFINITY : d;
	}
	return m;
}

/*
 * Run stats of a card against the model device's for the same run: the
 * card runs the same engine, so every counter agrees exactly (all but
 * host_ns). Returns 0, or -1 with the first field that differs in @why.
 */
static inline int stats_differ(const struct ipu_run_stats *card,
			       const struct ipu_run_stats *model, char *why, size_t n)
{
#define STAT_FIELD(f) { #f, offsetof(struct ipu_run_stats, f) }
	static const struct { const char *name; size_t off; } f[] = {
		STAT_FIELD(cycles), STAT_FIELD(cycles_compute), STAT_FIELD(cycles_sync),
		STAT_FIELD(cycles_exchange), STAT_FIELD(cycles_stream), STAT_FIELD(steps),
		STAT_FIELD(compute_sets), STAT_FIELD(exchanges), STAT_FIELD(syncs),
		STAT_FIELD(exchange_bytes), STAT_FIELD(stream_bytes_h2d),
		STAT_FIELD(stream_bytes_d2h),
	};
#undef STAT_FIELD
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		uint64_t a, b;

		memcpy(&a, (const char *)card + f[i].off, sizeof(a));
		memcpy(&b, (const char *)model + f[i].off, sizeof(b));
		if (a != b) {
			snprintf(why, n, "%s: card %llu, model %llu", f[i].name,
				 (unsigned long long)a, (unsigned long long)b);
			return -1;
		}
	}
	if (card->clock_khz != model->clock_khz) {
		snprintf(why, n, "clock_khz: card %u, model %u", card->clock_khz,
			 model->clock_khz);
		return -1;
	}
	if (card->cycles != card->cycles_compute + card->cycles_sync +
			    card->cycles_exchange + card->cycles_stream) {
		snprintf(why, n, "card: cycles %llu is not the sum of the phases",
			 (unsigned long long)card->cycles);
		return -1;
	}
	if (!model->cycles || !model->steps) {
		snprintf(why, n, "the model device reports no cycles or steps");
		return -1;
	}
	return 0;
}

#endif /* IPU_EXEC_COMMON_H */
