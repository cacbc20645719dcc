// SPDX-License-Identifier: MIT
/*
 * Graph binary size and load time, plain (format 1.0) against compact
 * (packed tables, docs/graph-format.md), for the MLP (B 64, I 384, H 256,
 * weights as initial data: 0.63 MiB) and the 1024^3 matmul (operands as
 * initial data: 8 MiB) on gc200. Records per graph and form: the binary's
 * size over its initial data (ratio, target "<= 1.5" for compact, the
 * overhead graph_binary_tests.h states), the
 * load time per MB of binary, and the load time itself (median of REPS
 * ipue_load() into a gc200 engine, what the card runs on LOAD).
 * Usage: bench_graph_binary [REPS] > graph_binary.json
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_json.h"
#include "binary_graphs.h"
#include "builder_internal.h"
#include "ipu_engine.h"
#include "ipu/ipu_models.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* median seconds of @reps loads of @bin into @e; < 0 if one fails */
static double load_time(struct ipue_engine *e, const void *bin, size_t len, int reps)
{
	double t[64];
	struct ipue_load_error le;

	for (int i = 0; i < reps; i++) {
		double t0;

		ipue_engine_reset(e);
		t0 = bench_now_s();
		if (ipue_load(e, bin, len, &le)) {
			fprintf(stderr, "bench_graph_binary: load: %s: %s\n", le.section_name,
				le.message);
			return -1;
		}
		t[i] = bench_now_s() - t0;
	}
	qsort(t, (size_t)reps, sizeof(t[0]), cmp_d);
	return t[reps / 2];
}

/* the records of one graph in one form */
static int measure(struct ipu_graph *g, const char *what, int compact, uint64_t init,
		   struct ipue_engine *e, int reps)
{
	struct ipu_error err;
	char name[96], extra[160];
	void *bin;
	size_t len;
	double s, mb;

	if (ipu__graph_write_form(g, compact, &bin, &len, &err)) {
		fprintf(stderr, "bench_graph_binary: write %s: %s\n", what, err.msg);
		return -1;
	}
	s = load_time(e, bin, len, reps);
	free(bin);
	if (s < 0)
		return -1;
	mb = (double)len / 1e6;
	snprintf(extra, sizeof(extra), ", \"binary_bytes\": %zu, \"initial_bytes\": %llu, "
		 "\"load_ms\": %.3f", len, (unsigned long long)init, s * 1e3);
	snprintf(name, sizeof(name), "graph_binary_size_%s_%s", what, compact ? "compact" : "plain");
	bench_record(name, (double)len, "bytes", (double)init, (double)len / (double)init,
		     compact ? "<= 1.5" : "", extra);
	snprintf(name, sizeof(name), "graph_binary_load_%s_%s", what, compact ? "compact" : "plain");
	bench_record(name, s * 1e3 / mb, "ms/MB", 0, 0, "", extra);
	return 0;
}

int main(int argc, char **argv)
{
	struct ipue_config cfg = { .model = IPU_MODEL_GC200, .host_threads = 0 };
	int reps = argc > 1 ? atoi(argv[1]) : 7;
	struct ipue_engine *e;
	int rc = 0;

	if (reps < 1 || reps > 64)
		reps = 7;
	if (ipue_engine_create(&cfg, &e))
		return 1;
	for (int which = 0; which < 2 && !rc; which++) {
		struct ipu_graph *g;
		struct ipu_error err;
		uint64_t init = 0;

		if (ipu_graph_create(IPU_MODEL_GC200, &g, &err))
			return 1;
		rc = which ? bg_matmul(g, 1024, &init, &err) : bg_mlp(g, 64, 384, 256, &init, &err);
		if (rc)
			fprintf(stderr, "bench_graph_binary: build: %s\n", err.msg);
		for (int compact = 0; compact < 2 && !rc; compact++)
			rc = measure(g, which ? "matmul_1024" : "mlp", compact, init, e, reps);
		ipu_graph_free(g);
	}
	printf("\n]\n");
	ipue_engine_destroy(e);
	return rc ? 1 : 0;
}
