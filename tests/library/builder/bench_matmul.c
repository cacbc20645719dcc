// SPDX-License-Identifier: MIT
/*
 * Benchmark 1 (make bench-matmul -> $(B)/bench/matmul.json): fp32 matmul
 * 1024 x 1024 x 1024 partitioned by ipu_matmul() over all tiles of a gc200
 * model device with N host threads, against OpenBLAS cblas_sgemm on N threads
 * in the same run. Only ipu_run() is timed (not build, load or tensor
 * writes): the first run of the loaded graph alone ("first_run_s": tile
 * memory is committed then), and the median of REPS later runs (the
 * record's value, steady state). OpenBLAS runs in a child of this program
 * without OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE (tests/bench/blas_baseline.h),
 * on the same inputs; its result is checked against the model device's and
 * the core it ran is recorded ("openblas_core"). The same graph is then
 * loaded again with IPU_LOAD_COMMIT_MEMORY, which commits the tile memory
 * at load: its load time, first and steady runs are recorded beside the
 * lazy load's ("..._commit_at_load_..."). When those variables are
 * set, the baseline is also run with them, as an informational record.
 *
 * The copy bound ("..._exchange_copy_bound"): a faithful run must copy
 * every byte the chip's exchanges move (ipu_run_stats.exchange_bytes: the
 * operands to each tile of the grid, the partials to their owners), and
 * no plan over all tiles moves much less (about 4 bytes x n^2 x (pm + pn +
 * pk)). The host's memcpy of that many bytes on the same threads, from one
 * buffer into another already committed (the best case for memcpy), is
 * timed in the same run: OpenBLAS's time over it is the ratio the model
 * device could reach if its compute were free, and OpenBLAS's time over
 * the model's steady run less that copy time is the ratio of the rest
 * (kernels, partitioning, scheduling) against OpenBLAS. The engine's own
 * tile kernel (codelets_impl.h) is timed too on the plan's blocks, once per
 * grid tile, on the same threads (plus the reduction's sums), with its
 * operands in cache: the engine runs a tile's vertices right after the
 * copies into that tile (engine/fuse.c), so they find their operands
 * there. Copies at memcpy speed plus those kernels is the fastest a
 * faithful run of this plan can be on this host, and OpenBLAS's time over
 * that sum the highest ratio it can reach ("bound_ratio").
 * Prints a table line on stderr and JSON records on stdout.
 *
 * Usage: bench_matmul [THREADS [REPS [SIZE]]]   (THREADS 0 = online cores)
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cblas.h>

#include "blas_baseline.h"
#include "codelets_impl.h"
#include "ipudev.h"
#include "bench_json.h"

/* the job shared with the OpenBLAS child */
struct blas_job {
	unsigned n, threads, reps;
	double secs;		/* the child's median sgemm time */
	float m[];		/* A, B, then the child's C, n x n each */
};

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void sgemm(unsigned n, const float *a, const float *b, float *c)
{
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0f, a,
		    (int)n, b, (int)n, 0.0f, c, (int)n);
}

/* the child: a warm-up sgemm, then the median of reps timed ones */
static int baseline(struct blas_job *j)
{
	size_t nn = (size_t)j->n * j->n;
	double *t = calloc((size_t)j->reps, sizeof(double));

	if (!t)
		return 1;
	openblas_set_num_threads((int)j->threads);
	sgemm(j->n, j->m, j->m + nn, j->m + 2 * nn);
	for (unsigned r = 0; r < j->reps; r++) {
		double t0 = bench_now_s();

		sgemm(j->n, j->m, j->m + nn, j->m + 2 * nn);
		t[r] = bench_now_s() - t0;
	}
	j->secs = median(t, (int)j->reps);
	free(t);
	return 0;
}

/* What the runs measured, for the records. */
struct mm_result {
	double t_first, t_model, t_blas, gf_model, gf_blas, gf_pinned, maxerr;
	double t_load;			/* the lazy load */
	double c_load, c_first, c_steady; /* with IPU_LOAD_COMMIT_MEMORY */
	double t_copy;			/* host memcpy of the run's exchange bytes */
	double t_kernel;		/* the tile kernels of the plan's blocks */
	uint64_t c_committed, l_committed; /* bytes committed by either load */
	char core[64], pinned_core[64];
	struct ipu_run_stats st;
	struct ipu_matmul_plan p;
};

/* The graph: A and B laid out as the plan wants them, C = A x B. */
static int build_graph(unsigned n, struct ipu_matmul_plan *plan, void **bin, size_t *len)
{
	struct ipu_error err = { 0, "" };
	struct ipu_graph *g;
	int ta, tb_, tc, seq;

	if (ipu_graph_create(IPU_MODEL_GC200, &g, &err) ||
	    ipu_matmul_plan(g, n, n, n, IPU_DTYPE_F32, plan, &err) ||
	    (ta = ipu_matmul_create_lhs(g, plan, "a", &err)) < 0 ||
	    (tb_ = ipu_matmul_create_rhs(g, plan, "b", &err)) < 0 ||
	    (seq = ipu_prog_sequence(g, &err)) < 0 ||
	    (tc = ipu_matmul(g, seq, ta, tb_, "c", plan, &err)) < 0 ||
	    ipu_graph_add_program(g, "matmul", seq, &err) < 0 ||
	    ipu_graph_expose(g, ta, NULL, IPU_HANDLE_WRITE, &err) < 0 ||
	    ipu_graph_expose(g, tb_, NULL, IPU_HANDLE_WRITE, &err) < 0 ||
	    ipu_graph_expose(g, tc, NULL, IPU_HANDLE_READ, &err) < 0 ||
	    ipu_graph_write(g, bin, len, &err)) {
		fprintf(stderr, "bench_matmul: build: %s\n", err.msg);
		return 1;
	}
	ipu_graph_free(g);
	return 0;
}

/* On the model device: the first run, then @reps timed ones; C read back. */
static int model_runs(unsigned threads, int reps, void *bin, size_t len, const float *a,
		      const float *b, float *c, size_t nn, double *tm, struct mm_result *m)
{
	struct ipu_error err = { 0, "" };
	struct ipu_load_info li;
	struct ipu_device *d;

	if (ipu_model_open("gc200", threads, &d, &err)) {
		fprintf(stderr, "bench_matmul: model device: %s\n", err.msg);
		return 1;
	}
	m->t_load = bench_now_s();
	if (ipu_load_ex(d, bin, len, 0, &li, &err) ||
	    (m->t_load = bench_now_s() - m->t_load, m->l_committed = li.committed_bytes,
	     ipu_tensor_write(d, "a", a, nn * 4, &err)) || ipu_tensor_write(d, "b", b, nn * 4, &err)) {
		fprintf(stderr, "bench_matmul: model device: %s\n", err.msg);
		return 1;
	}
	m->t_first = bench_now_s();	/* the first run commits tile memory: timed on its own */
	if (ipu_run(d, 0, 1, &m->st, &err)) {
		fprintf(stderr, "bench_matmul: first run: %s\n", err.msg);
		return 1;
	}
	m->t_first = bench_now_s() - m->t_first;
	for (int r = 0; r < reps; r++) {
		double t0 = bench_now_s();

		if (ipu_run(d, 0, 1, &m->st, &err)) {
			fprintf(stderr, "bench_matmul: run: %s\n", err.msg);
			return 1;
		}
		tm[r] = bench_now_s() - t0;
		if (getenv("BENCH_VERBOSE"))
			fprintf(stderr, "run %d: %.2f ms (host_ns %.2f ms)\n", r, tm[r] * 1e3,
				m->st.host_ns * 1e-6);
	}
	if (ipu_tensor_read(d, "c", c, nn * 4, &err)) {
		fprintf(stderr, "bench_matmul: read: %s\n", err.msg);
		return 1;
	}
	ipu_device_close(d);
	return 0;
}

/*
 * The graph loaded with IPU_LOAD_COMMIT_MEMORY on a fresh model device:
 * load time, the first run and the median of @reps later ones.
 */
static int commit_runs(unsigned threads, int reps, const void *bin, size_t len, const float *a,
		       const float *b, size_t nn, double *tm, struct mm_result *m)
{
	struct ipu_error err = { 0, "" };
	struct ipu_load_info li;
	struct ipu_device *d;
	double t0;

	if (ipu_model_open("gc200", threads, &d, &err))
		goto fail;
	t0 = bench_now_s();
	if (ipu_load_ex(d, bin, len, IPU_LOAD_COMMIT_MEMORY, &li, &err))
		goto fail;
	m->c_load = bench_now_s() - t0;
	m->c_committed = li.committed_bytes;
	if (ipu_tensor_write(d, "a", a, nn * 4, &err) || ipu_tensor_write(d, "b", b, nn * 4, &err))
		goto fail;
	for (int r = -1; r < reps; r++) {
		t0 = bench_now_s();
		if (ipu_run(d, 0, 1, NULL, &err))
			goto fail;
		if (r < 0)
			m->c_first = bench_now_s() - t0;
		else
			tm[r] = bench_now_s() - t0;
	}
	m->c_steady = median(tm, reps);
	ipu_device_close(d);
	return 0;
fail:
	fprintf(stderr, "bench_matmul: commit at load: %s\n", err.msg);
	return 1;
}

/*
 * Best of 5 runs of @fn on @threads threads at once, thread i given part i
 * of @parts (@size bytes each); a thread that cannot start runs its part on
 * the caller. Seconds.
 */
static double best_parallel(void *(*fn)(void *), void *parts, size_t size, unsigned threads)
{
	pthread_t th[64];
	double best = 0;

	for (int r = 0; r < 5; r++) {
		double t0 = bench_now_s(), t;
		int started[64];

		for (unsigned i = 0; i < threads; i++) {
			void *part = (char *)parts + i * size;

			started[i] = !pthread_create(&th[i], NULL, fn, part);
			if (!started[i])
				fn(part);
		}
		for (unsigned i = 0; i < threads; i++)
			if (started[i])
				pthread_join(th[i], NULL);
		t = bench_now_s() - t0;
		if (!best || t < best)
			best = t;
	}
	return best;
}

/* one thread's share of a timed copy */
struct copy_part {
	char *dst;
	const char *src;
	size_t bytes;
};

static void *copy_part(void *arg)
{
	struct copy_part *c = arg;

	memcpy(c->dst, c->src, c->bytes);
	return NULL;
}

/*
 * Best of 5 copies of @bytes from one committed buffer into another, cut
 * into @threads (<= 64) contiguous parts copied at once. 0 on failure.
 */
static double copy_time(size_t bytes, unsigned threads)
{
	char *src = malloc(bytes), *dst = malloc(bytes);
	struct copy_part part[64];
	double best = 0;

	if (threads > 64)
		threads = 64;
	if (src && dst && bytes) {
		memset(src, 1, bytes);
		memset(dst, 2, bytes);
		for (unsigned i = 0; i < threads; i++) {
			size_t b0 = bytes / threads * i, b1 = i + 1 == threads ? bytes : bytes / threads * (i + 1);

			part[i] = (struct copy_part){ dst + b0, src + b0, b1 - b0 };
		}
		best = best_parallel(copy_part, part, sizeof(part[0]), threads);
	}
	free(src);
	free(dst);
	return best;
}

/* one thread's tiles of the timed kernels: [t0, t1) of the grid */
struct kern_part {
	const struct ipu_matmul_plan *p;
	float *mem;		/* this thread's A block, B block, C block, partials */
	uint32_t t0, t1;
};

static void *kern_part(void *arg)
{
	struct kern_part *k = arg;
	const struct ipu_matmul_plan *p = k->p;
	int isa = ipue_matmul_best_isa();
	size_t ab = (size_t)p->bm * p->bk, bb = (size_t)p->bk * p->bn, cb = (size_t)p->bm * p->bn;
	uint32_t rows = (p->bm + p->pk - 1) / p->pk;

	for (uint32_t t = k->t0; t < k->t1; t++) {
		float *a = k->mem, *b = a + ab, *c = b + bb, *part = c + cb;

		ipue_matmul_f32(isa, p->bm, p->bn, p->bk * p->ks, a, b, false, false, false, c);
		if (p->pk > 1)	/* the owner's sum of pk - 1 gathered partials, by a row of ones */
			ipue_matmul_f32(isa, 1, rows * p->bn, p->pk - 1, part + (size_t)rows * p->bn * (p->pk - 1),
					part, false, false, true, c);
	}
	return NULL;
}

/* Best of 5 runs of every grid tile's kernels, split over @threads. 0 on failure. */
static double kernel_time(const struct ipu_matmul_plan *p, unsigned threads)
{
	uint32_t tiles = p->pm * p->pn * p->pk, rows = (p->bm + p->pk - 1) / p->pk;
	size_t per = (size_t)p->bm * p->bk * p->ks + (size_t)p->bk * p->ks * p->bn +
		     (size_t)p->bm * p->bn + (size_t)rows * p->bn * (p->pk - 1) + p->pk;
	struct kern_part part[64];
	double best;
	float *mem;

	if (threads > 64)
		threads = 64;
	mem = malloc((size_t)threads * per * sizeof(float));
	if (!mem)
		return 0;
	for (size_t i = 0; i < (size_t)threads * per; i++)
		mem[i] = (float)(i % 17) * 0.0625f;
	for (unsigned i = 0; i < threads; i++)
		part[i] = (struct kern_part){ p, mem + i * per, (uint32_t)((uint64_t)tiles * i / threads),
					      (uint32_t)((uint64_t)tiles * (i + 1) / threads) };
	best = best_parallel(kern_part, part, sizeof(part[0]), threads);
	free(mem);
	return best;
}

/* The copy-bound record: what the exchange's copies alone allow. */
static void report_copy_bound(unsigned n, unsigned threads, const struct mm_result *m)
{
	char name[128], extra[256];
	double rest = m->t_model - m->t_copy, bound = m->t_kernel > 0 ? m->t_blas / (m->t_copy + m->t_kernel) : 0;

	snprintf(name, sizeof(name), "matmul_f32_%u_gc200_exchange_copy_bound_%uthreads", n, threads);
	snprintf(extra, sizeof(extra),
		 ", \"exchange_bytes\": %llu, \"copy_s\": %.4g, \"steady_run_s\": %.4g, "
		 "\"openblas_s\": %.4g, \"ratio_without_copies\": %.4g, \"kernel_s\": %.4g, "
		 "\"bound_ratio\": %.4g",
		 (unsigned long long)m->st.exchange_bytes, m->t_copy, m->t_model, m->t_blas,
		 rest > 0 ? m->t_blas / rest : 0, m->t_kernel, bound);
	/* value: the ratio the copies alone allow; baseline: the ratio reached */
	bench_record(name, m->t_blas / m->t_copy, "ratio", m->t_blas / m->t_model,
		     (m->t_blas / m->t_model) / (m->t_blas / m->t_copy), "info", extra);
	fprintf(stderr, "exchange copies: %.1f MiB per run, host memcpy %.2f ms on %u threads: "
		"ratio at most %.2f with free compute; without the copies the run is %.2f ms, "
		"ratio %.2f; tile kernels %.2f ms: copies + kernels allow at most %.2f\n",
		m->st.exchange_bytes / 1048576.0, m->t_copy * 1e3, threads, m->t_blas / m->t_copy,
		rest * 1e3, rest > 0 ? m->t_blas / rest : 0, m->t_kernel * 1e3, bound);
}

/* The commit-at-load record (first run and load, beside the lazy load's). */
static void report_commit(unsigned n, unsigned threads, const struct mm_result *m)
{
	char name[128], extra[320];

	snprintf(name, sizeof(name), "matmul_f32_%u_gc200_commit_at_load_%uthreads", n, threads);
	snprintf(extra, sizeof(extra),
		 ", \"first_run_s\": %.4g, \"steady_run_s\": %.4g, \"load_s\": %.4g, "
		 "\"committed_bytes\": %llu, \"lazy_first_run_s\": %.4g, \"lazy_steady_run_s\": %.4g, "
		 "\"lazy_load_s\": %.4g, \"lazy_committed_bytes\": %llu",
		 m->c_first, m->c_steady, m->c_load, (unsigned long long)m->c_committed, m->t_first,
		 m->t_model, m->t_load, (unsigned long long)m->l_committed);
	/* value: first / steady run with commit; baseline: the same without */
	bench_record(name, m->c_first / m->c_steady, "first/steady", m->t_first / m->t_model,
		     (m->c_first / m->c_steady) / (m->t_first / m->t_model), "info", extra);
	fprintf(stderr, "commit at load: load %.1f ms (lazy %.1f ms), first run %.2f ms, steady %.2f ms "
		"(lazy: first %.2f ms, steady %.2f ms); committed %.1f MiB (lazy %.1f MiB)\n",
		m->c_load * 1e3, m->t_load * 1e3, m->c_first * 1e3, m->c_steady * 1e3,
		m->t_first * 1e3, m->t_model * 1e3, m->c_committed / 1048576.0,
		m->l_committed / 1048576.0);
}

/* The JSON records on stdout, and the table line on stderr. */
static void report(unsigned n, unsigned threads, double flop, const struct mm_result *m)
{
	char name[128], extra[192];

	snprintf(name, sizeof(name), "matmul_f32_%u_gc200_model_%uthreads", n, threads);
	snprintf(extra, sizeof(extra),
		 ", \"first_run_s\": %.4g, \"steady_run_s\": %.4g, \"openblas_core\": \"%s\"",
		 m->t_first, m->t_model, m->core);
	bench_record(name, m->gf_model, "GFLOP/s", m->gf_blas, m->gf_model / m->gf_blas, ">= 0.8",
		     extra);
	snprintf(extra, sizeof(extra), ", \"openblas_core\": \"%s\"", m->core);
	snprintf(name, sizeof(name), "matmul_f32_%u_openblas_%uthreads", n, threads);
	bench_record(name, m->gf_blas, "GFLOP/s", m->gf_blas, 1.0, "", extra);
	if (m->gf_pinned > 0) {
		snprintf(name, sizeof(name), "matmul_f32_%u_openblas_inherited_env_%uthreads", n,
			 threads);
		snprintf(extra, sizeof(extra), ", \"openblas_core\": \"%s\"", m->pinned_core);
		bench_record(name, m->gf_pinned, "GFLOP/s", m->gf_blas, m->gf_pinned / m->gf_blas,
		       "info (OPENBLAS_CORETYPE/L2_SIZE kept)", extra);
	}
	snprintf(name, sizeof(name), "matmul_f32_%u_gc200_modelled_tflops", n);
	bench_record(name, flop / ((double)m->st.cycles / (m->st.clock_khz * 1e3)) * 1e-12,
		     "TFLOP/s", 62.5,
		     flop / ((double)m->st.cycles / (m->st.clock_khz * 1e3)) * 1e-12 / 62.5, "", "");
	snprintf(extra, sizeof(extra), ", \"openblas_core\": \"%s\"", m->core);
	snprintf(name, sizeof(name), "matmul_f32_%u_max_rel_diff_vs_openblas", n);
	bench_record(name, m->maxerr, "", 0, 0, "<= 1e-5", extra);
	report_commit(n, threads, m);
	if (m->t_copy > 0)
		report_copy_bound(n, threads, m);
	printf("\n]\n");
	fprintf(stderr,
		"matmul %ux%ux%u f32: model device gc200 %.1f GFLOP/s (%.2f ms; first run %.2f ms), "
		"OpenBLAS (%s) %.1f GFLOP/s (%.2f ms), %u threads, ratio %.2f (target >= 0.8); "
		"grid %ux%ux%u ks %u, blocks %ux%ux%u; modelled %llu cycles (compute %llu, "
		"exchange %llu, sync %llu); max rel diff %.2g\n",
		n, n, n, m->gf_model, m->t_model * 1e3, m->t_first * 1e3, m->core, m->gf_blas,
		m->t_blas * 1e3, threads, m->gf_model / m->gf_blas, m->p.pm, m->p.pn, m->p.pk,
		m->p.ks, m->p.bm, m->p.bn, m->p.bk, (unsigned long long)m->st.cycles,
		(unsigned long long)m->st.cycles_compute, (unsigned long long)m->st.cycles_exchange,
		(unsigned long long)m->st.cycles_sync, m->maxerr);
	if (m->gf_pinned > 0)
		fprintf(stderr, "OpenBLAS with the inherited environment (%s): %.1f GFLOP/s\n",
			m->pinned_core, m->gf_pinned);
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned threads = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
	int reps = argc > 2 ? atoi(argv[2]) : 7;
	unsigned n = argc > 3 ? (unsigned)atoi(argv[3]) : 1024;
	double flop = 2.0 * n * n * n, *tm;
	struct mm_result m = { .maxerr = 0, .gf_pinned = 0, .pinned_core = "" };
	float *a, *b, *c, *cb;
	void *bin;
	size_t len, nn = (size_t)n * n;
	struct blas_job *job = bb_child(argc, argv);

	if (job)
		return baseline(job);
	if (!threads)
		threads = ncpu > 0 ? (unsigned)ncpu : 1;
	if (reps < 1)
		reps = 1;
	job = bb_alloc(sizeof(*job) + 3 * nn * 4);
	c = malloc(nn * 4);
	tm = calloc((size_t)reps, sizeof(double));
	if (!job || !c || !tm)
		return 1;
	*job = (struct blas_job){ .n = n, .threads = threads, .reps = (unsigned)reps };
	a = job->m;
	b = a + nn;
	cb = b + nn;
	srand(1);
	for (size_t i = 0; i < nn; i++) {
		a[i] = (float)rand() / RAND_MAX - 0.5f;
		b[i] = (float)rand() / RAND_MAX - 0.5f;
	}

	if (build_graph(n, &m.p, &bin, &len))
		return 1;
	if (model_runs(threads, reps, bin, len, a, b, c, nn, tm, &m))
		return 1;
	m.t_model = median(tm, reps);	/* before commit_runs() reuses tm */
	if (commit_runs(threads, reps, bin, len, a, b, nn, tm, &m))
		return 1;
	free(bin);

	/* OpenBLAS on as many threads, in the child; last with the clean environment */
	if (bb_env_pinned()) {
		if (bb_run(0)) {
			fprintf(stderr, "bench_matmul: OpenBLAS baseline (inherited environment) failed\n");
			return 1;
		}
		m.gf_pinned = flop / job->secs * 1e-9;
		snprintf(m.pinned_core, sizeof(m.pinned_core), "%s", bb_core());
	}
	if (bb_run(1)) {
		fprintf(stderr, "bench_matmul: OpenBLAS baseline failed\n");
		return 1;
	}
	snprintf(m.core, sizeof(m.core), "%s", bb_core());
	for (size_t i = 0; i < nn; i++) {
		double e = fabs((double)c[i] - cb[i]) / (fabs(cb[i]) + 1.0);

		if (!(e <= m.maxerr))
			m.maxerr = e;
	}
	m.t_blas = job->secs;
	m.t_copy = copy_time(m.st.exchange_bytes, threads);
	m.t_kernel = kernel_time(&m.p, threads);
	m.gf_model = flop / m.t_model * 1e-9;
	m.gf_blas = flop / m.t_blas * 1e-9;

	report(n, threads, flop, &m);
	free(c);
	free(tm);
	return m.maxerr <= 1e-5 ? 0 : 1;
}
