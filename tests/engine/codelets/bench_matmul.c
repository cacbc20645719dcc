/* SPDX-License-Identifier: MIT */
/*
 * Single-thread fp32 matmul throughput of the MatMulPartial kernel vs
 * OpenBLAS cblas_sgemm (run with OPENBLAS_NUM_THREADS=1). Prints one JSON
 * record per (size, implementation). OpenBLAS runs in a child of this
 * program without OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE
 * (tests/bench/blas_baseline.h); its records name the core it ran
 * ("openblas_core"). Usage: bench_matmul [M N K ...]
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "codelets_impl.h"

#ifdef HAVE_CBLAS
#include <cblas.h>

#include "blas_baseline.h"
#endif

#define MAXSIZES 16

/* the job shared with the OpenBLAS child */
struct blas_job {
	int nsizes;
	uint32_t sizes[MAXSIZES][3];
	double gflops[MAXSIZES];	/* from the child */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* best of several timed runs, each at least ~0.2 s */
static double bench(int which, uint32_t m, uint32_t n, uint32_t k,
		    const void *a, const void *b, bool f16, float *c)
{
	double best = 1e30;

	for (int rep = 0; rep < 5; rep++) {
		int iters = 0;
		double t0 = now(), t;

		do {
			if (which >= 0)
				ipue_matmul_f32acc(which, m, n, k, a, b, f16, false, c);
#ifdef HAVE_CBLAS
			else
				cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n,
					    (int)k, 1.0f, (const float *)a, (int)k, (const float *)b, (int)n,
					    1.0f, c, (int)n);
#endif
			iters++;
			t = now() - t0;
		} while (t < 0.2);
		if (t / iters < best)
			best = t / iters;
	}
	return 2.0 * m * n * k / best * 1e-9;
}

/* @core: the OpenBLAS core of a baseline, or NULL */
static void record(int *first, const char *name, double v, double base, const char *target,
		   const char *core)
{
	printf("%s  {\"name\": \"%s\", \"value\": %.2f, \"unit\": \"GFLOP/s\"", *first ? "" : ",\n",
	       name, v);
	if (base > 0)
		printf(", \"baseline\": %.2f, \"ratio\": %.3f", base, v / base);
	if (target)
		printf(", \"target\": \"%s\"", target);
	if (core)
		printf(", \"openblas_core\": \"%s\"", core);
	printf("}");
	*first = 0;
	fflush(stdout);
}

/* random A (m x k) and B (k x n), a zeroed C (m x n); 0 or -1 */
static int inputs(const uint32_t *mnk, float **a, float **b, float **c)
{
	uint32_t m = mnk[0], n = mnk[1], k = mnk[2];

	*a = malloc(sizeof(float) * m * k);
	*b = malloc(sizeof(float) * k * n);
	*c = calloc((size_t)m * n, sizeof(float));
	if (!*a || !*b || !*c)
		return -1;
	for (size_t i = 0; i < (size_t)m * k; i++)
		(*a)[i] = (float)rand() / RAND_MAX - 0.5f;
	for (size_t i = 0; i < (size_t)k * n; i++)
		(*b)[i] = (float)rand() / RAND_MAX - 0.5f;
	return 0;
}

#ifdef HAVE_CBLAS
/* the child: OpenBLAS on every size */
static int baseline(struct blas_job *j)
{
	for (int s = 0; s < j->nsizes; s++) {
		float *a, *b, *c;

		if (inputs(j->sizes[s], &a, &b, &c))
			return 1;
		j->gflops[s] = bench(-1, j->sizes[s][0], j->sizes[s][1], j->sizes[s][2], a, b,
				     false, c);
		free(a);
		free(b);
		free(c);
	}
	return 0;
}
#endif

int main(int argc, char **argv)
{
	static struct blas_job own = { 4, { { 256, 256, 256 }, { 64, 64, 64 }, { 128, 128, 128 },
					    { 96, 120, 200 } }, { 0 } };
	struct blas_job *job = &own;
	const char *core = NULL;	/* the baseline's OpenBLAS core */
	int first = 1;
	static const char *const names[] = { "generic", "avx2", "avx512" };

#ifdef HAVE_CBLAS
	struct blas_job *child = bb_child(argc, argv);

	if (child)
		return baseline(child);
#endif
	if (argc > 1) {
		own.nsizes = 0;
		for (int i = 1; i + 2 < argc && own.nsizes < MAXSIZES; i += 3, own.nsizes++)
			for (int j = 0; j < 3; j++)
				own.sizes[own.nsizes][j] = (uint32_t)atoi(argv[i + j]);
	}
#ifdef HAVE_CBLAS
	job = bb_alloc(sizeof(*job));
	if (!job)
		return 1;
	*job = own;
	if (bb_run(1)) {
		fprintf(stderr, "bench_matmul: OpenBLAS baseline failed\n");
		return 1;
	}
	core = bb_core();
#endif
	printf("[\n");
	for (int s = 0; s < job->nsizes; s++) {
		uint32_t m = job->sizes[s][0], n = job->sizes[s][1], k = job->sizes[s][2];
		float *a, *b, *c;
		double base = job->gflops[s], g[3] = { 0 };
		char name[128];

		if (inputs(job->sizes[s], &a, &b, &c))
			return 1;
#ifdef HAVE_CBLAS
		snprintf(name, sizeof(name), "codelets.sgemm_openblas_1t_%ux%ux%u", m, n, k);
		record(&first, name, base, 0, NULL, core);
#endif
		for (int isa = 0; isa <= IPUE_ISA_AVX512; isa++) {
			if (!ipue_matmul_isa_supported(isa))
				continue;
			g[isa] = bench(isa, m, n, k, a, b, false, c);
			snprintf(name, sizeof(name), "codelets.matmul_f32_%s_1t_%ux%ux%u", names[isa], m, n, k);
			record(&first, name, g[isa], base,
			       isa == ipue_matmul_best_isa() && base > 0 ? ">= 0.5" : NULL,
			       base > 0 ? core : NULL);
		}
		if (s == 0) {	/* f16 inputs, f32 accumulation, best kernel */
			uint16_t *ah = malloc(2 * (size_t)m * k), *bh = malloc(2 * (size_t)k * n);

			if (!ah || !bh)
				return 1;
			for (size_t i = 0; i < (size_t)m * k; i++)
				ah[i] = ipue_f32_to_f16(a[i]);
			for (size_t i = 0; i < (size_t)k * n; i++)
				bh[i] = ipue_f32_to_f16(b[i]);
			snprintf(name, sizeof(name), "codelets.matmul_f16in_%s_1t_%ux%ux%u",
				 names[ipue_matmul_best_isa()], m, n, k);
			record(&first, name, bench(ipue_matmul_best_isa(), m, n, k, ah, bh, true, c),
			       0, NULL, NULL);
			free(ah);
			free(bh);
		}
		free(a);
		free(b);
		free(c);
	}
	printf("\n]\n");
	return 0;
}
