// SPDX-License-Identifier: MIT
/*
 * ipu-bench --host-sync: host sync latency in the manner of
 * gc-hostsynclatencytest (4095 syncs, "time_to_sync_us" their total).
 *
 * In this stack the device waits for the host at the end of a RUN: the
 * card completes the command, posts the completion, and does nothing until
 * the host has seen it and sends the next RUN. That round trip is the host
 * sync measured here: COUNT runs of a program that is one external sync
 * (a barrier of every IPU of the device, then the device reports to the
 * host). A StreamCopy per iteration is not one: a card moves a bound
 * stream's data from the host ring without the host (docs/card-exec.md),
 * so the device does not wait for the host there (docs/benchmarks.md).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "common.h"
#include "ipudev.h"

/* What was measured. */
struct sync_result {
	unsigned ipus, syncs;
	unsigned id;		/* the device id (cards) */
	double total_s;		/* all syncs */
	double mean_s, median_s, min_s, max_s;
	struct ipu_run_stats st;	/* of the last run: the device's side */
};

/* The graph: program "sync", one external sync of @ipus IPUs of @model. */
static int build_sync_graph(uint32_t model, unsigned ipus, void **bin, size_t *len,
			    struct ipu_error *err)
{
	struct ipu_graph *g;
	int seq, r;

	r = ipu_graph_create_multi(model, ipus, &g, err);
	if (r)
		return r;
	r = seq = ipu_prog_sequence(g, err);
	if (r >= 0)
		r = ipu_prog_append(g, seq, ipu_prog_sync_external(g, err), err);
	if (r >= 0)
		r = ipu_graph_add_program(g, "sync", seq, err);
	if (r >= 0)
		r = ipu_graph_write(g, bin, len, err);
	ipu_graph_free(g);
	return r < 0 ? r : 0;
}

/* Load the graph on @d, 20 syncs to warm up, then @res->syncs timed; @t holds them. */
static int measure_syncs(struct ipu_device *d, struct sync_result *res, double *t,
			 struct ipu_error *err)
{
	struct ipu_device_info info;
	void *bin = NULL;
	size_t len;
	int prog, r;

	r = ipu_device_info(d, &info, err);
	if (!r)
		r = build_sync_graph(info.model, res->ipus, &bin, &len, err);
	if (!r)
		r = ipu_load(d, bin, len, err);
	free(bin);
	prog = r ? r : ipu_program_find(d, "sync", err);
	for (unsigned i = 0; i < 20 && prog >= 0 && !r; i++)
		r = ipu_run(d, (unsigned)prog, 1, &res->st, err);
	if (prog < 0 || r)
		return prog < 0 ? prog : r;
	for (unsigned i = 0; i < res->syncs && !r; i++) {
		double t0 = bench_now_s();

		r = ipu_run(d, (unsigned)prog, 1, &res->st, err);
		t[i] = bench_now_s() - t0;
		res->total_s += t[i];
	}
	if (r)
		return r;
	res->mean_s = res->total_s / res->syncs;
	bench_sort(t, res->syncs);
	res->median_s = t[res->syncs / 2];
	res->min_s = t[0];
	res->max_s = t[res->syncs - 1];
	return 0;
}

/*
 * Open device id @cfg->devid (a card or a linked group) into @d, its
 * members into @res->ipus. Returns TOOL_CONTINUE or the exit code.
 */
static int open_device_id(const struct bench_config *cfg, struct ipu_device **d,
			  struct sync_result *res)
{
	struct ipu_topology *t;
	const struct ipu_group_info *gi;
	struct ipu_error e;

	if (ipu_topology_read(0, &t, &e))
		return bench_device_error(&e);
	gi = ipu_topology_find_group(t, cfg->devid);
	res->ipus = gi ? ipu_group_info_size(gi) : 1;
	ipu_topology_free(t);
	res->id = cfg->devid;
	if (ipu_group_device_open(cfg->devid, IPU_OPEN_ATTACH, d, &e))
		return bench_device_error(&e);
	return TOOL_CONTINUE;
}

static void print_result(const struct bench_config *cfg, const char *name,
			 const struct sync_result *r)
{
	double cyc_us = r->st.clock_khz ? r->st.cycles / (r->st.clock_khz * 1e3) * 1e6 : 0;
	struct jw w;

	if (!cfg->json) {
		printf("%s (%u IPU%s): host sync latency, %u syncs (RUN round trips of one external sync)\n",
		       name, r->ipus, r->ipus > 1 ? "s" : "", r->syncs);
		printf("  time to sync   %.1f us in all\n", r->total_s * 1e6);
		printf("  per sync       mean %.2f us, median %.2f, min %.2f, max %.2f\n",
		       r->mean_s * 1e6, r->median_s * 1e6, r->min_s * 1e6, r->max_s * 1e6);
		printf("  modelled       %llu cycles a sync (%.3f us)\n",
		       (unsigned long long)r->st.cycles, cyc_us);
		return;
	}
	jw_init(&w, stdout);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "device", name);
	jw_u64(&w, "ipus", r->ipus);
	jw_u64(&w, "syncs", r->syncs);
	jw_double(&w, "time_to_sync_us", r->total_s * 1e6);
	jw_double(&w, "per_sync_us", r->mean_s * 1e6);
	jw_double(&w, "median_us", r->median_s * 1e6);
	jw_double(&w, "min_us", r->min_s * 1e6);
	jw_double(&w, "max_us", r->max_s * 1e6);
	jw_u64(&w, "cycles_per_sync", r->st.cycles);
	jw_u64(&w, "cycles_sync", r->st.cycles_sync);
	jw_double(&w, "modelled_us_per_sync", cyc_us);
	jw_obj_end(&w);
	jw_end(&w);
}

int bench_host_sync(const struct bench_config *cfg)
{
	struct sync_result res = { .syncs = cfg->count ? cfg->count : BENCH_SYNC_COUNT };
	struct ipu_device *d = NULL;
	struct ipu_error e;
	double *t = calloc(res.syncs, sizeof(*t));
	int rc = TOOL_CONTINUE;

	if (!t)
		rc = (fprintf(stderr, BENCH_PROG ": out of memory\n"), EXIT_RUNTIME);
	else if (cfg->model)
		rc = bench_open_model(cfg, res.ipus = cfg->ipus ? cfg->ipus : 1, &d);
	else
		rc = open_device_id(cfg, &d, &res);
	if (rc == TOOL_CONTINUE && measure_syncs(d, &res, t, &e))
		rc = (fprintf(stderr, BENCH_PROG ": host sync on %s: %s\n", ipu_device_name(d), e.msg),
		      EXIT_RUNTIME);
	if (rc == TOOL_CONTINUE) {
		print_result(cfg, ipu_device_name(d), &res);
		rc = tool_finish_stdout(BENCH_PROG, EXIT_OK);
	}
	ipu_device_close(d);
	free(t);
	return rc;
}
