// SPDX-License-Identifier: MIT
/*
 * Benchmark (make bench-map -> $(B)/bench/map.json): a 6-op elementwise
 * chain over a [1024, 1024] f32 tensor and a [1024] bias on a gc200 model
 * device, fused by ipu_map() (one compute set) against the same ops one
 * compute set each: modelled cycles (syncs, compute) and host time of
 * ipu_run() (first run, then the median of REPS), both programs in one
 * graph on the same inputs; their outputs must be equal bit for bit.
 * Prints a table on stderr and JSON records on stdout.
 *
 * Usage: bench_map [THREADS [REPS]]   (THREADS 0 = online cores)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_json.h"
#include "ipudev.h"

#define R 1024
#define C 1024

static struct ipu_error err;

static int die(const char *what)
{
	fprintf(stderr, "bench_map: %s: %s\n", what, err.msg);
	exit(1);
}

#define CALL(call) ((call) < 0 ? die(#call) : 0)

/* y = max(relu(x * 2 + b) - b * 0.5, 0.25) */
static struct ipu_expr *expr6(void)
{
	struct ipu_expr *t = ipu_expr_binary(IPU_OP_MUL, ipu_expr_input(1, &err), ipu_expr_const(2, &err), &err);

	t = ipu_expr_binary(IPU_OP_ADD, t, ipu_expr_input(2, &err), &err);
	t = ipu_expr_unary(IPU_OP_RELU, t, &err);
	t = ipu_expr_binary(IPU_OP_SUB, t, ipu_expr_binary(IPU_OP_MUL, ipu_expr_input(2, &err),
							    ipu_expr_const(0.5, &err), &err), &err);
	return ipu_expr_binary(IPU_OP_MAX, t, ipu_expr_const(0.25, &err), &err);
}

/* a rank-0 f32 constant on tile 0 */
static int scalar(struct ipu_graph *g, const char *name, float v)
{
	int t = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 0, NULL, &err);

	CALL(t);
	CALL(ipu_graph_map_tile(g, t, 0, &err));
	CALL(ipu_graph_set_initial(g, t, &v, sizeof(v), &err));
	return t;
}

/* the same as separate ops; the output's id */
static int chain6(struct ipu_graph *g, int seq, int x, int b)
{
	int t = ipu_binary(g, seq, IPU_OP_MUL, x, scalar(g, "k2", 2), "chain", &err), u;

	CALL(t);
	CALL(ipu_binary(g, seq, IPU_OP_ADD, t, b, NULL, &err));
	CALL(ipu_unary(g, seq, IPU_OP_RELU, t, NULL, &err));
	CALL(u = ipu_binary(g, seq, IPU_OP_MUL, b, scalar(g, "k05", 0.5f), "chain/bh", &err));
	CALL(ipu_binary(g, seq, IPU_OP_SUB, t, u, NULL, &err));
	CALL(ipu_binary(g, seq, IPU_OP_MAX, t, scalar(g, "k025", 0.25f), NULL, &err));
	return t;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct timing {
	struct ipu_run_stats st;
	double first_s, median_s;
};

/* program @name: the first run alone, then the median of reps */
static void timed(struct ipu_device *d, const char *name, int reps, struct timing *t)
{
	int p = ipu_program_find(d, name, &err);
	double *v = calloc((size_t)reps, sizeof(*v)), t0;

	if (p < 0 || !v)
		die(name);
	t0 = bench_now_s();
	CALL(ipu_run(d, (unsigned)p, 1, &t->st, &err));
	t->first_s = bench_now_s() - t0;
	for (int i = 0; i < reps; i++) {
		t0 = bench_now_s();
		CALL(ipu_run(d, (unsigned)p, 1, &t->st, &err));
		v[i] = bench_now_s() - t0;
	}
	qsort(v, (size_t)reps, sizeof(*v), cmp_d);
	t->median_s = v[reps / 2];
	free(v);
}

/* the graph: x [R, C], bias b [C], programs "fused" and "chain" */
static void build(struct ipu_graph **g)
{
	uint32_t shape[2] = { R, C };
	struct ipu_expr *e = expr6();
	int x, b, fs, cs;

	if (!e)
		die("expression");
	CALL(ipu_graph_create(IPU_MODEL_GC200, g, &err));
	CALL(x = ipu_graph_add_tensor(*g, "x", IPU_DTYPE_F32, 2, shape, &err));
	CALL(b = ipu_graph_add_tensor(*g, "b", IPU_DTYPE_F32, 1, shape + 1, &err));
	CALL(ipu_graph_map_linear(*g, x, 8, &err));
	CALL(ipu_graph_map_linear(*g, b, 1, &err));
	CALL(ipu_graph_expose(*g, x, NULL, IPU_HANDLE_WRITE, &err));
	CALL(ipu_graph_expose(*g, b, NULL, IPU_HANDLE_WRITE, &err));
	CALL(fs = ipu_prog_sequence(*g, &err));
	CALL(cs = ipu_prog_sequence(*g, &err));
	CALL(ipu_graph_expose(*g, ipu_map(*g, fs, e, (int[]){ x, b }, 2, "fused", &err), NULL,
			      IPU_HANDLE_READ, &err));
	CALL(ipu_graph_expose(*g, chain6(*g, cs, x, b), NULL, IPU_HANDLE_READ, &err));
	CALL(ipu_graph_add_program(*g, "fused", fs, &err));
	CALL(ipu_graph_add_program(*g, "chain", cs, &err));
	ipu_expr_free(e);
}

int main(int argc, char **argv)
{
	unsigned threads = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
	int reps = argc > 2 ? atoi(argv[2]) : 9;
	float *x = malloc((size_t)R * C * 4), *b = malloc(C * 4), *yf = malloc((size_t)R * C * 4);
	float *yc = malloc((size_t)R * C * 4);
	struct ipu_graph *g;
	struct ipu_device *d;
	struct timing f, c;
	void *bin;
	size_t len;
	char extra[256];

	if (!x || !b || !yf || !yc || reps < 1)
		die("setup");
	for (size_t i = 0; i < (size_t)R * C; i++)
		x[i] = (float)((int)(i * 2654435761u % 2001) - 1000) / 250.0f;
	for (int i = 0; i < C; i++)
		b[i] = (float)(i % 17 - 8) / 4.0f;
	build(&g);
	CALL(ipu_graph_write(g, &bin, &len, &err));
	ipu_graph_free(g);
	CALL(ipu_model_open("gc200", threads, &d, &err));
	CALL(ipu_load(d, bin, len, &err));
	free(bin);
	CALL(ipu_tensor_write(d, "x", x, (size_t)R * C * 4, &err));
	CALL(ipu_tensor_write(d, "b", b, C * 4, &err));
	timed(d, "fused", reps, &f);
	timed(d, "chain", reps, &c);
	CALL(ipu_tensor_read(d, "fused", yf, (size_t)R * C * 4, &err));
	CALL(ipu_tensor_read(d, "chain", yc, (size_t)R * C * 4, &err));
	ipu_device_close(d);
	if (memcmp(yf, yc, (size_t)R * C * 4)) {
		fprintf(stderr, "bench_map: fused and chain outputs differ\n");
		return 1;
	}
	fprintf(stderr, "map 6 ops [%d, %d] f32 gc200: cycles fused %llu (sync %llu, %llu syncs), chain %llu "
		"(sync %llu, %llu syncs); host median %.3f ms fused, %.3f ms chain; first %.3f / %.3f ms\n", R, C,
		(unsigned long long)f.st.cycles, (unsigned long long)f.st.cycles_sync,
		(unsigned long long)f.st.syncs, (unsigned long long)c.st.cycles,
		(unsigned long long)c.st.cycles_sync, (unsigned long long)c.st.syncs, f.median_s * 1e3,
		c.median_s * 1e3, f.first_s * 1e3, c.first_s * 1e3);
	snprintf(extra, sizeof(extra), ", \"syncs_fused\": %llu, \"syncs_chain\": %llu",
		 (unsigned long long)f.st.syncs, (unsigned long long)c.st.syncs);
	bench_record("map_fused_6op_1M_f32_gc200_model_cycles", (double)f.st.cycles, "cycles",
		     (double)c.st.cycles, (double)c.st.cycles / (double)f.st.cycles, "> 1 (chain / fused)", extra);
	snprintf(extra, sizeof(extra), ", \"first_run_s\": %.6f, \"first_run_chain_s\": %.6f", f.first_s,
		 c.first_s);
	bench_record("map_fused_6op_1M_f32_gc200_model_host", f.median_s, "s", c.median_s,
		     c.median_s / f.median_s, "> 1 (chain / fused)", extra);
	printf("\n]\n");
	free(x);
	free(b);
	free(yf);
	free(yc);
	return 0;
}
