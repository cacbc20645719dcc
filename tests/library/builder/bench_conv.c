// SPDX-License-Identifier: MIT
/*
 * Benchmark (make bench-conv -> $(B)/bench/conv.json): conv2d forward
 * (ipu_conv2d) and backward (ipu_conv2d_grad_input + _grad_weights) of a
 * LeNet-sized layer (N 64, 1 -> 6 channels, 28x28, 5x5) and a ResNet-block
 * layer (N 8, 64 -> 64, 28x28, 3x3, padding 1) on all tiles of a gc200
 * model device with N host threads, against the same convolution as
 * im2col + OpenBLAS cblas_sgemm per image (Caffe's lowering; backward:
 * W^T x dY then col2im, and dY x col^T summed over the images) on N
 * threads in a child without OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE
 * (tests/bench/blas_baseline.h). Only ipu_run() is timed: the first run
 * alone, then the median of REPS. The results are checked against the
 * baseline's (max |diff| / (|ref| + 1)). Records on stdout, a table on
 * stderr.
 *
 * Usage: bench_conv [THREADS [REPS]]   (THREADS 0 = online cores)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cblas.h>

#include "blas_baseline.h"
#include "bench_json.h"
#include "ipudev.h"

struct layer {
	const char *name;
	unsigned N, C, H, W, CO, K, pad;
};

/* the job shared with the OpenBLAS child: sizes, inputs, then its outputs */
struct conv_job {
	struct layer l;
	unsigned threads, reps;
	double secs_fwd, secs_bwd;
	float m[];		/* x, w, dy, then the child's y, dx, dw */
};

static unsigned oh(const struct layer *l)
{
	return l->H + 2 * l->pad - l->K + 1;
}

static unsigned ow(const struct layer *l)
{
	return l->W + 2 * l->pad - l->K + 1;
}

static size_t nx(const struct layer *l) { return (size_t)l->N * l->C * l->H * l->W; }
static size_t nw(const struct layer *l) { return (size_t)l->CO * l->C * l->K * l->K; }
static size_t ny(const struct layer *l) { return (size_t)l->N * l->CO * oh(l) * ow(l); }

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* col[(c, ky, kx)][oy * OW + ox] of one image (adjoint: add col back into x) */
static void im2col(const struct layer *l, float *x, float *col, int back)
{
	unsigned OH = oh(l), OW = ow(l);

	if (back)
		memset(x, 0, sizeof(float) * l->C * l->H * l->W);
	for (unsigned c = 0; c < l->C; c++)
		for (unsigned ky = 0; ky < l->K; ky++)
			for (unsigned kx = 0; kx < l->K; kx++, col += (size_t)OH * OW)
				for (unsigned oy = 0; oy < OH; oy++) {
					long iy = (long)(oy + ky) - l->pad;

					for (unsigned ox = 0; ox < OW; ox++) {
						long ix = (long)(ox + kx) - l->pad;
						int in = iy >= 0 && ix >= 0 && iy < l->H && ix < l->W;
						float *px = in ? &x[((size_t)c * l->H + (size_t)iy) * l->W + (size_t)ix] : NULL;

						if (back && in)
							*px += col[oy * OW + ox];
						else if (!back)
							col[oy * OW + ox] = in ? *px : 0;
					}
				}
}

static void blas_fwd(const struct layer *l, float *x, const float *w, float *y, float *col)
{
	int Kd = (int)(l->C * l->K * l->K), P = (int)(oh(l) * ow(l));

	for (unsigned n = 0; n < l->N; n++) {
		im2col(l, x + n * (size_t)l->C * l->H * l->W, col, 0);
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)l->CO, P, Kd, 1.0f, w, Kd, col, P,
			    0.0f, y + n * (size_t)l->CO * P, P);
	}
}

static void blas_bwd(const struct layer *l, float *x, const float *w, const float *dy, float *dx, float *dw,
		     float *col)
{
	int Kd = (int)(l->C * l->K * l->K), P = (int)(oh(l) * ow(l));

	for (unsigned n = 0; n < l->N; n++) {
		const float *d = dy + n * (size_t)l->CO * P;

		cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Kd, P, (int)l->CO, 1.0f, w, Kd, d, P, 0.0f,
			    col, P);
		im2col(l, dx + n * (size_t)l->C * l->H * l->W, col, 1);
		im2col(l, x + n * (size_t)l->C * l->H * l->W, col, 0);
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)l->CO, Kd, P, 1.0f, d, P, col, P,
			    n ? 1.0f : 0.0f, dw, Kd);
	}
}

/* the child: a warm-up, then the median of reps of each direction */
static int baseline(struct conv_job *j)
{
	const struct layer *l = &j->l;
	float *x = j->m, *w = x + nx(l), *dy = w + nw(l), *y = dy + ny(l), *dx = y + ny(l), *dw = dx + nx(l);
	float *col = malloc(sizeof(float) * l->C * l->K * l->K * oh(l) * ow(l));
	double *tf = calloc(j->reps, sizeof(double)), *tb = calloc(j->reps, sizeof(double));

	if (!col || !tf || !tb)
		return 1;
	openblas_set_num_threads((int)j->threads);
	blas_fwd(l, x, w, y, col);
	blas_bwd(l, x, w, dy, dx, dw, col);
	for (unsigned r = 0; r < j->reps; r++) {
		double t0 = bench_now_s();

		blas_fwd(l, x, w, y, col);
		tf[r] = bench_now_s() - t0;
		t0 = bench_now_s();
		blas_bwd(l, x, w, dy, dx, dw, col);
		tb[r] = bench_now_s() - t0;
	}
	j->secs_fwd = median(tf, j->reps);
	j->secs_bwd = median(tb, j->reps);
	free(col), free(tf), free(tb);
	return 0;
}

/* programs 0 (forward) and 1 (backward) on a gc200 graph */
static int build(const struct layer *l, void **bin, size_t *len)
{
	struct ipu_error err = { 0, "" };
	struct ipu_conv2d_params p = IPU_CONV2D_PARAMS_INIT;
	uint32_t xs[4] = { l->N, l->C, l->H, l->W }, ws[4] = { l->CO, l->C, l->K, l->K };
	uint32_t ys[4] = { l->N, l->CO, oh(l), ow(l) };
	struct ipu_graph *g;
	int x, w, dy, y, dx, dw, fwd, bwd;

	p.padding[0] = p.padding[1] = p.padding[2] = p.padding[3] = l->pad;
	if (ipu_graph_create(IPU_MODEL_GC200, &g, &err) ||
	    (x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 4, xs, &err)) < 0 ||
	    (w = ipu_graph_add_tensor(g, "w", IPU_DTYPE_F32, 4, ws, &err)) < 0 ||
	    (dy = ipu_graph_add_tensor(g, "dy", IPU_DTYPE_F32, 4, ys, &err)) < 0 ||
	    ipu_graph_map_linear(g, x, 64, &err) || ipu_graph_map_linear(g, w, 64, &err) ||
	    ipu_graph_map_linear(g, dy, 64, &err) || (fwd = ipu_prog_sequence(g, &err)) < 0 ||
	    (bwd = ipu_prog_sequence(g, &err)) < 0 ||
	    (y = ipu_conv2d(g, fwd, x, w, &p, "y", &err)) < 0 ||
	    (dx = ipu_conv2d_grad_input(g, bwd, dy, w, x, &p, "dx", &err)) < 0 ||
	    (dw = ipu_conv2d_grad_weights(g, bwd, x, dy, w, &p, "dw", &err)) < 0 ||
	    ipu_graph_add_program(g, "fwd", fwd, &err) < 0 || ipu_graph_add_program(g, "bwd", bwd, &err) < 0 ||
	    ipu_graph_expose(g, x, NULL, IPU_HANDLE_WRITE, &err) < 0 ||
	    ipu_graph_expose(g, w, NULL, IPU_HANDLE_WRITE, &err) < 0 ||
	    ipu_graph_expose(g, dy, NULL, IPU_HANDLE_WRITE, &err) < 0 ||
	    ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, &err) < 0 ||
	    ipu_graph_expose(g, dx, NULL, IPU_HANDLE_READ, &err) < 0 ||
	    ipu_graph_expose(g, dw, NULL, IPU_HANDLE_READ, &err) < 0 || ipu_graph_write(g, bin, len, &err)) {
		fprintf(stderr, "bench_conv %s: build: %s\n", l->name, err.msg);
		return 1;
	}
	ipu_graph_free(g);
	return 0;
}

struct cv_result {
	double first[2], secs[2], maxerr;
	unsigned long long cycles[2];
};

/* program k: the first run, then reps timed ones */
static int time_runs(struct ipu_device *d, unsigned k, unsigned reps, double *tm, struct cv_result *m)
{
	struct ipu_error err = { 0, "" };
	struct ipu_run_stats st;
	double t0 = bench_now_s();

	if (ipu_run(d, k, 1, &st, &err))
		return fprintf(stderr, "bench_conv: run: %s\n", err.msg), 1;
	m->first[k] = bench_now_s() - t0;
	for (unsigned r = 0; r < reps; r++) {
		t0 = bench_now_s();
		if (ipu_run(d, k, 1, &st, &err))
			return fprintf(stderr, "bench_conv: run: %s\n", err.msg), 1;
		tm[r] = bench_now_s() - t0;
	}
	m->secs[k] = median(tm, reps);
	m->cycles[k] = (unsigned long long)st.cycles;
	return 0;
}

static double max_diff(const float *a, const float *b, size_t n, double e)
{
	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)a[i] - b[i]) / (fabs(b[i]) + 1.0);

		if (!(d <= e))
			e = d;
	}
	return e;
}

/* the model device's runs; its results y, dx, dw into out */
static int model_side(const struct conv_job *j, void *bin, size_t len, struct cv_result *m, float *out)
{
	const struct layer *l = &j->l;
	const float *x = j->m, *w = x + nx(l), *dy = w + nw(l);
	struct ipu_error err = { 0, "" };
	struct ipu_device *d;
	double *tm = calloc(j->reps, sizeof(double));

	if (!out || !tm || ipu_model_open("gc200", j->threads, &d, &err) || ipu_load(d, bin, len, &err) ||
	    ipu_tensor_write(d, "x", x, nx(l) * 4, &err) || ipu_tensor_write(d, "w", w, nw(l) * 4, &err) ||
	    ipu_tensor_write(d, "dy", dy, ny(l) * 4, &err))
		return fprintf(stderr, "bench_conv %s: model device: %s\n", l->name, err.msg), 1;
	if (time_runs(d, 0, j->reps, tm, m) || time_runs(d, 1, j->reps, tm, m))
		return 1;
	if (ipu_tensor_read(d, "y", out, ny(l) * 4, &err) ||
	    ipu_tensor_read(d, "dx", out + ny(l), nx(l) * 4, &err) ||
	    ipu_tensor_read(d, "dw", out + ny(l) + nx(l), nw(l) * 4, &err))
		return fprintf(stderr, "bench_conv %s: read: %s\n", l->name, err.msg), 1;
	ipu_device_close(d);
	free(tm);
	return 0;
}

static void report(const struct conv_job *j, const struct cv_result *m, const char *core)
{
	const struct layer *l = &j->l;
	double flop = 2.0 * ny(l) * l->C * l->K * l->K, blas[2] = { j->secs_fwd, j->secs_bwd };
	static const char *const dir[2] = { "fwd", "bwd" };
	char name[128], extra[256];

	for (int k = 0; k < 2; k++) {
		double f = flop * (k ? 2 : 1);	/* backward: dx and dw */

		snprintf(name, sizeof(name), "conv2d_%s_%s_f32_gc200_model_%uthreads", dir[k], l->name, j->threads);
		snprintf(extra, sizeof(extra), ", \"first_run_s\": %.4g, \"steady_run_s\": %.4g, \"openblas_s\": %.4g, "
			 "\"modelled_cycles\": %llu, \"max_rel_diff\": %.3g, \"openblas_core\": \"%s\"", m->first[k],
			 m->secs[k], blas[k], m->cycles[k], m->maxerr, core);
		bench_record(name, f / m->secs[k] * 1e-9, "GFLOP/s", f / blas[k] * 1e-9, blas[k] / m->secs[k], ">= 0.5",
			     extra);
		fprintf(stderr, "conv2d %s %s: model %.1f GFLOP/s (%.2f ms, first %.2f ms), im2col+OpenBLAS (%s) "
			"%.1f GFLOP/s (%.2f ms), %u threads, ratio %.2f (target >= 0.5), max rel diff %.2g\n",
			dir[k], l->name, f / m->secs[k] * 1e-9, m->secs[k] * 1e3, m->first[k] * 1e3, core,
			f / blas[k] * 1e-9, blas[k] * 1e3, j->threads, blas[k] / m->secs[k], m->maxerr);
	}
}

static size_t job_bytes(const struct layer *l)
{
	return sizeof(struct conv_job) + sizeof(float) * 2 * (nx(l) + nw(l) + ny(l));
}

/* one layer in the job region j: inputs, the model side, the child, the records; 0 if the results agree */
static int run_layer(struct conv_job *j, const struct layer *l, unsigned threads, unsigned reps)
{
	struct cv_result m = { { 0 }, { 0 }, 0, { 0 } };
	void *bin;
	size_t len;

	*j = (struct conv_job){ .l = *l, .threads = threads, .reps = reps };
	srand(1);
	for (size_t i = 0; i < nx(l) + nw(l) + ny(l); i++)
		j->m[i] = (float)rand() / RAND_MAX - 0.5f;
	float *out = malloc(sizeof(float) * (ny(l) + nx(l) + nw(l))), *y = j->m + nx(l) + nw(l) + ny(l);

	if (!out || build(l, &bin, &len) || model_side(j, bin, len, &m, out))
		return 1;
	free(bin);
	if (bb_run(1))
		return fprintf(stderr, "bench_conv: OpenBLAS baseline failed\n"), 1;
	/* the child's y, dx, dw follow the inputs, in the order of out */
	m.maxerr = max_diff(out, y, ny(l) + nx(l) + nw(l), 0);
	free(out);
	report(j, &m, bb_core());
	return m.maxerr <= 1e-4 ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const struct layer layers[] = {
		{ "lenet_64x1x28x28_6x5x5", 64, 1, 28, 28, 6, 5, 0 },
		{ "resnet_8x64x28x28_64x3x3", 8, 64, 28, 28, 64, 3, 1 },
	};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned threads = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
	int reps = argc > 2 ? atoi(argv[2]) : 5, bad = 0;
	size_t n = sizeof(layers) / sizeof(layers[0]), big = 0;
	void *job = bb_child(argc, argv);

	if (job)
		return baseline(job);
	if (!threads)
		threads = ncpu > 0 ? (unsigned)ncpu : 1;
	for (size_t i = 0; i < n; i++)
		big = job_bytes(&layers[i]) > big ? job_bytes(&layers[i]) : big;
	if (!(job = bb_alloc(big)))
		return 1;
	for (size_t i = 0; i < n; i++)
		bad |= run_layer(job, &layers[i], threads, reps < 1 ? 1 : (unsigned)reps);
	printf("\n]\n");
	return bad;
}
