// SPDX-License-Identifier: MIT
/*
 * Benchmark (make bench-allreduce -> $(B)/bench/allreduce.json): an
 * all-reduce (sum) of SIZE MiB of fp32 per IPU over 4 and 16 gc200 IPUs of
 * the model device (ipu_model_open_multi(): m2000 and pod16 wiring), by
 * the automatic method, in place on a tensor in the collectives' layout
 * (ipu_collective_map()). Figures, as NCCL and GCL define them: algorithm
 * bandwidth = bytes per IPU / time, bus bandwidth = algbw x 2 (N - 1) / N;
 * this host's memory carries every emulated IPU's traffic, so the ratio
 * against host memcpy (same run, same size) is taken on the aggregate
 * busbw x N (target >= 0.5). Beside them the modelled time (the run's
 * modelled cycles at the chip's clock) against the modelled link limit:
 * each IPU sends 2 (N - 1) / N x bytes, at best over both of its ring
 * neighbours' links at once, one link direction's bandwidth each (a rail:
 * one link), so (N - 1) / N x bytes / link bandwidth. Host time of ipu_run(): the
 * median of REPS runs after a first one. Table on stderr, JSON on stdout.
 *
 * Usage: bench_allreduce [SIZE_MIB [REPS]]   (defaults 64, 3)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_json.h"
#include "ipu/ipu_models.h"
#include "ipudev.h"

static struct ipu_error err;

static int die(const char *what)
{
	fprintf(stderr, "bench_allreduce: %s: %s\n", what, err.msg);
	exit(1);
}

#define CALL(call) ((call) < 0 ? die(#call) : 0)

/* host memcpy bandwidth of @bytes, best of a few, bytes/s */
static double memcpy_bw(size_t bytes)
{
	char *a = malloc(bytes), *b = malloc(bytes);
	double best = 0;

	if (!a || !b)
		die("memcpy buffers");
	memset(a, 1, bytes);
	memset(b, 2, bytes);
	for (int i = 0; i < 5; i++) {
		double t0 = bench_now_s(), t;

		memcpy(i & 1 ? a : b, i & 1 ? b : a, bytes);
		t = bench_now_s() - t0;
		if (t > 0 && bytes / t > best)
			best = bytes / t;
	}
	free(a);
	free(b);
	return best;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* one N-IPU all-reduce of @mib MiB per IPU: its records */
static void bench_one(unsigned N, unsigned mib, unsigned reps, double mbw)
{
	const struct ipu_model *m = ipu_model_by_id(IPU_MODEL_GC200);
	uint32_t shape[2] = { N, (uint32_t)((uint64_t)mib << 20) / 4 };
	uint64_t bytes = (uint64_t)mib << 20;
	struct ipu_graph *g;
	struct ipu_device *d;
	struct ipu_run_stats st;
	double *t = calloc(reps, sizeof(*t)), t0, algbw, busbw, model_s, limit_s;
	char name[64], extra[256];
	unsigned method;
	void *bin;
	size_t len;
	int x, seq;

	if (!t)
		die("times");
	CALL(ipu_graph_create_multi(IPU_MODEL_GC200, N, &g, &err));
	CALL(x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, shape, &err));
	method = ipu_collective_method(g, IPU_COLL_ALL_REDUCE, bytes);
	CALL(ipu_collective_map(g, x, method, &err));	/* in place: no work buffers */
	CALL(seq = ipu_prog_sequence(g, &err));
	CALL(ipu_all_reduce(g, seq, x, IPU_COLL_SUM, method, NULL, &err));
	CALL(ipu_graph_add_program(g, "main", seq, &err));
	CALL(ipu_graph_set_zero_init(g, 1, &err));
	CALL(ipu_graph_write(g, &bin, &len, &err));
	ipu_graph_free(g);
	CALL(ipu_model_open_multi("gc200", N, NULL, 0, &d, &err));
	CALL(ipu_load(d, bin, len, &err));
	free(bin);
	CALL(ipu_run(d, 0, 1, &st, &err));	/* first run: tile memory committed */
	for (unsigned i = 0; i < reps; i++) {
		t0 = bench_now_s();
		CALL(ipu_run(d, 0, 1, &st, &err));
		t[i] = bench_now_s() - t0;
	}
	ipu_device_close(d);
	qsort(t, reps, sizeof(*t), cmp_d);
	algbw = bytes / t[reps / 2];
	busbw = algbw * 2.0 * (N - 1) / N;
	model_s = st.cycles / (m->clock_khz * 1e3);
	limit_s = (double)(N - 1) / N * bytes / (m->link_mb_s * 1e6);
	fprintf(stderr, "allreduce %u MiB x %u IPUs (%s): %.3f s, algbw %.2f GB/s, busbw %.2f GB/s, "
		"aggregate %.2f GB/s = %.2f x memcpy (%.2f GB/s); modelled %.3f ms, link limit %.3f ms "
		"(%.2f x)\n", mib, N, ipu_collective_method_name(method), t[reps / 2], algbw / 1e9,
		busbw / 1e9, busbw * N / 1e9, busbw * N / mbw, mbw / 1e9, model_s * 1e3, limit_s * 1e3,
		model_s / limit_s);
	snprintf(extra, sizeof(extra), ", \"method\": \"%s\", \"algbw_gb_s\": %.4g, \"busbw_gb_s\": %.4g, "
		 "\"modelled_ms\": %.4g, \"link_limit_ms\": %.4g, \"modelled_over_limit\": %.4g",
		 ipu_collective_method_name(method), algbw / 1e9, busbw / 1e9, model_s * 1e3,
		 limit_s * 1e3, model_s / limit_s);
	snprintf(name, sizeof(name), "allreduce_%uMiB_%uipu", mib, N);
	bench_record(name, busbw * N / 1e9, "GB/s aggregate", mbw / 1e9, busbw * N / mbw,
		     ">= 0.5 x memcpy", extra);
	snprintf(name, sizeof(name), "allreduce_%uMiB_%uipu_modelled", mib, N);
	bench_record(name, model_s * 1e3, "ms modelled", limit_s * 1e3, model_s / limit_s,
		     "close to the link limit", NULL);
	free(t);
}

int main(int argc, char **argv)
{
	unsigned mib = argc > 1 ? (unsigned)atoi(argv[1]) : 64, reps = argc > 2 ? (unsigned)atoi(argv[2]) : 3;
	double mbw;

	if (!mib || !reps || mib > 256) {
		fprintf(stderr, "usage: bench_allreduce [SIZE_MIB (1..256) [REPS]]\n");
		return 2;
	}
	mbw = memcpy_bw((size_t)mib << 20);
	bench_one(4, mib, reps, mbw);
	bench_one(16, mib, reps, mbw);
	printf("\n]\n");
	return 0;
}
