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
#include <string.h>
#include <time.h>

#include "codelets_impl.h"

#ifdef HAVE_CBLAS
#include <cblas.h>

#include "blas_baseline.h"
#endif

/* the job shared with the OpenBLAS child: one size */
struct blas_job {
	uint32_t mnk[3];
	double gflops;		/* from the child */
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
/* the child: OpenBLAS on the job's size */
static int baseline(struct blas_job *j)
{
	float *a, *b, *c;

	if (inputs(j->mnk, &a, &b, &c))
		return 1;
	j->gflops = bench(-1, j->mnk[0], j->mnk[1], j->mnk[2], a, b, false, c);
	free(a);
	free(b);
	free(c);
	return 0;
}
#endif

int main(int argc, char **argv)
{
	uint32_t sizes[16][3] = { { 256, 256, 256 }, { 64, 64, 64 }, { 128, 128, 128 },
				  { 96, 120, 200 } };
	int nsizes = 4, first = 1;
	static const char *const names[] = { "generic", "avx2", "avx512" };
#ifdef HAVE_CBLAS
	struct blas_job *job = bb_child(argc, argv);

	if (job)
		return baseline(job);
	job = bb_alloc(sizeof(*job));
	if (!job)
		return 1;
#endif
	if (argc > 1) {
		nsizes = 0;
		for (int i = 1; i + 2 < argc && nsizes < 16; i += 3, nsizes++)
			for (int j = 0; j < 3; j++)
				sizes[nsizes][j] = (uint32_t)atoi(argv[i + j]);
	}
	printf("[\n");
	for (int s = 0; s < nsizes; s++) {
		uint32_t m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
		float *a, *b, *c;
		double base = 0, g[3] = { 0 };
		const char *core = NULL;	/* the baseline's OpenBLAS core */
		char name[128];

		if (inputs(sizes[s], &a, &b, &c))
			return 1;
#ifdef HAVE_CBLAS
		/* right before the kernels of the same size: the host's load drifts */
		memcpy(job->mnk, sizes[s], sizeof(job->mnk));
		if (bb_run(1)) {
			fprintf(stderr, "bench_matmul: OpenBLAS baseline failed\n");
			return 1;
		}
		base = job->gflops;
		core = bb_core();
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
