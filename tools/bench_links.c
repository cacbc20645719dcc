// SPDX-License-Identifier: MIT
/*
 * ipu-bench --links: card-to-card bandwidth of every pair of IPUs joined
 * by UP IPU-Links, both directions summed, as gc-iputraffictest reports
 * it. The pairs come from the topology (ipu_topology_read() on cards,
 * ipu_model_topology() on the model device). For each pair a multi-IPU
 * graph copies a tensor from IPU a to IPU b and one from b to a in the
 * same exchange; it runs on the smallest device id holding both (a rail
 * pair of an M2000 only in the group of four, whose other members idle),
 * or on the whole model device. Figures: the modelled time from the run's
 * cycles, and the host's wall time per run. The copies are checked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "common.h"
#include "ipu/ipu_models.h"
#include "ipudev.h"

/* One linked pair and what was measured on it. */
struct link_pair {
	unsigned a, b;		/* device indices, a < b */
	unsigned links;		/* UP links between them */
	unsigned id;		/* the smallest device id holding both */
	unsigned size;		/* its members */
	unsigned ka, kb;	/* a's and b's IPU in the graph */
	uint64_t bytes;		/* per run, both directions */
	unsigned runs;
	struct ipu_run_stats st;	/* of the last run */
	double host_s;		/* median wall time of a run */
	double limit_gbps;	/* the links' modelled limit, both directions */
};

/* Whether port @p of device index @a is an UP link to @b that @b's end agrees with. */
static bool port_joins(const struct ipu_topology *t, unsigned a, unsigned p, unsigned b)
{
	const struct ipu_link_info *li = ipu_links_port(ipu_topology_card_links(t, a), p), *lj;
	int peer_port;

	if (!li || ipu_link_info_state(li) != IPU_LINK_UP ||
	    ipu_topology_card_by_serial(t, ipu_link_info_peer_serial(li)) != (int)b)
		return false;
	peer_port = ipu_link_info_peer_port(li);
	lj = peer_port < 0 ? NULL : ipu_links_port(ipu_topology_card_links(t, b), (unsigned)peer_port);
	return lj && ipu_link_info_state(lj) == IPU_LINK_UP &&
	       ipu_topology_card_by_serial(t, ipu_link_info_peer_serial(lj)) == (int)a &&
	       ipu_link_info_peer_port(lj) == (int)p;
}

/* The smallest multi-IPU device of @t holding @pr's a and b, into @pr; false if none. */
static bool smallest_group(const struct ipu_topology *t, struct link_pair *pr)
{
	bool found = false;

	for (unsigned i = 0; i < ipu_topology_num_groups(t); i++) {
		const struct ipu_group_info *gi = ipu_topology_group(t, i);
		unsigned n = ipu_group_info_size(gi), ka = n, kb = n;

		if (n < 2 || (found && n >= pr->size))
			continue;
		for (unsigned k = 0; k < n; k++) {
			if (ipu_group_info_member(gi, k) == (int)pr->a)
				ka = k;
			if (ipu_group_info_member(gi, k) == (int)pr->b)
				kb = k;
		}
		if (ka == n || kb == n)
			continue;
		*pr = (struct link_pair){ .a = pr->a, .b = pr->b, .links = pr->links,
					  .id = ipu_group_info_id(gi), .size = n, .ka = ka, .kb = kb };
		found = true;
	}
	return found;
}

/*
 * Every pair of @t joined by UP links, in order of (a, b), into *@out
 * (malloc'ed) and *@n. Returns 0 or -ENOMEM.
 */
static int find_pairs(const struct ipu_topology *t, struct link_pair **out, unsigned *n)
{
	unsigned cards = ipu_topology_num_cards(t), cap = 0;
	struct link_pair *v = NULL;

	*n = 0;
	for (unsigned a = 0; a < cards; a++) {
		for (unsigned b = a + 1; b < cards; b++) {
			struct link_pair pr = { .a = a, .b = b };
			unsigned ports = ipu_links_num_ports(ipu_topology_card_links(t, a));

			for (unsigned p = 0; p < ports; p++)
				pr.links += port_joins(t, a, p, b);
			if (!pr.links || !smallest_group(t, &pr))
				continue;
			if (*n == cap) {
				struct link_pair *nv = realloc(v, (cap ? cap * 2 : 8) * sizeof(*v));

				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
				cap = cap ? cap * 2 : 8;
			}
			v[(*n)++] = pr;
		}
	}
	*out = v;
	return 0;
}

/*
 * The graph of @pr on @ipus IPUs of @model: "ab_src" on IPU ka copied to
 * "ab_dst" on kb and "ba_src" on kb to "ba_dst" on ka, @bytes each, in one
 * exchange; program "links".
 */
static int build_pair_graph(uint32_t model, unsigned ipus, const struct link_pair *pr,
			    uint64_t bytes, void **bin, size_t *len, struct ipu_error *err)
{
	static const char *const names[4] = { "ab_src", "ab_dst", "ba_src", "ba_dst" };
	uint32_t shape[1] = { (uint32_t)(bytes / 4) };
	unsigned on[4] = { pr->ka, pr->kb, pr->kb, pr->ka };
	struct ipu_graph *g;
	int t[4], ex, seq, r = 0;

	r = ipu_graph_create_multi(model, ipus, &g, err);
	if (r)
		return r;
	for (int i = 0; i < 4 && r >= 0; i++) {
		t[i] = r = ipu_graph_add_tensor(g, names[i], IPU_DTYPE_I32, 1, shape, err);
		if (r >= 0)
			r = ipu_graph_map_ipu(g, t[i], on[i], 0, err);
		if (r >= 0)
			r = ipu_graph_expose(g, t[i], NULL, i & 1 ? IPU_HANDLE_READ : IPU_HANDLE_WRITE,
					     err);
	}
	if (r >= 0)
		r = ex = ipu_graph_add_exchange(g, "links", err);
	if (r >= 0)
		r = ipu_graph_exchange_copy(g, ex, ipu_slice_all(g, t[0]), ipu_slice_all(g, t[1]), err);
	if (r >= 0)
		r = ipu_graph_exchange_copy(g, ex, ipu_slice_all(g, t[2]), ipu_slice_all(g, t[3]), err);
	if (r >= 0)
		r = seq = ipu_prog_sequence(g, err);
	if (r >= 0)
		r = ipu_prog_append(g, seq, ipu_prog_exchange(g, ex, err), err);
	if (r >= 0)
		r = ipu_graph_add_program(g, "links", seq, err);
	if (r >= 0)
		r = ipu_graph_write(g, bin, len, err);
	ipu_graph_free(g);
	return r < 0 ? r : 0;
}

/* The pattern IPU @from sends in pair @pr: word i = from << 24 ^ i * 2654435761. */
static void fill_pattern(uint32_t *w, size_t words, unsigned from)
{
	for (size_t i = 0; i < words; i++)
		w[i] = ((uint32_t)from << 24) ^ (uint32_t)(i * 2654435761u);
}

/*
 * Read @dst back and compare it with the pattern IPU @from sent; -EIO with
 * the first word that differs.
 */
static int check_copy(struct ipu_device *d, const char *dst, uint32_t *buf, size_t words,
		      unsigned from, unsigned to, struct ipu_error *err)
{
	int r = ipu_tensor_read(d, dst, buf, words * 4, err);

	if (r)
		return r;
	for (size_t i = 0; i < words; i++)
		if (buf[i] != (((uint32_t)from << 24) ^ (uint32_t)(i * 2654435761u)))
			return tool_error(err, -EIO,
					  "IPU %u -> IPU %u: word %zu of %zu arrived as 0x%08x, sent 0x%08x",
					  from, to, i, words, buf[i],
					  ((uint32_t)from << 24) ^ (uint32_t)(i * 2654435761u));
	return 0;
}

/*
 * Measure @pr on @d (loaded with nothing yet; @ipus IPUs): load its graph,
 * write both sources, one warm-up run, @runs timed runs, check both
 * copies. @buf holds @bytes. Returns 0 or a negative errno (@err filled).
 */
static int measure_pair(struct ipu_device *d, unsigned ipus, struct link_pair *pr, uint64_t bytes,
			unsigned runs, uint32_t *buf, double *t, struct ipu_error *err)
{
	struct ipu_device_info info;
	size_t len, words = (size_t)(bytes / 4);
	void *bin = NULL;
	int prog, r;

	r = ipu_device_info(d, &info, err);
	if (!r && ipu_model_by_id(info.model))	/* docs/cost-model.md: per link and direction */
		pr->limit_gbps = 2.0 * pr->links * ipu_model_by_id(info.model)->link_mb_s / 1e3;
	if (!r)
		r = build_pair_graph(info.model, ipus, pr, bytes, &bin, &len, err);
	if (!r)
		r = ipu_load(d, bin, len, err);
	free(bin);
	for (int dir = 0; dir < 2 && !r; dir++) {
		fill_pattern(buf, words, dir ? pr->b : pr->a);
		r = ipu_tensor_write(d, dir ? "ba_src" : "ab_src", buf, bytes, err);
	}
	prog = r ? r : ipu_program_find(d, "links", err);
	if (prog < 0)
		return prog;
	r = ipu_run(d, (unsigned)prog, 1, &pr->st, err);	/* warm-up: first touch of the memory */
	for (unsigned i = 0; i < runs && !r; i++) {
		double t0 = bench_now_s();

		r = ipu_run(d, (unsigned)prog, 1, &pr->st, err);
		t[i] = bench_now_s() - t0;
	}
	if (r)
		return r;
	bench_sort(t, runs);
	pr->host_s = t[runs / 2];
	pr->runs = runs;
	pr->bytes = 2 * bytes;
	r = check_copy(d, "ab_dst", buf, words, pr->a, pr->b, err);
	return r ? r : check_copy(d, "ba_dst", buf, words, pr->b, pr->a, err);
}

static double modelled_s(const struct ipu_run_stats *st)
{
	return st->clock_khz ? (double)st->cycles / (st->clock_khz * 1e3) : 0;
}

static double gbps(uint64_t bytes, double s)
{
	return s > 0 ? (double)bytes / s / 1e9 : 0;
}

static void print_json(const char *device, uint64_t size, const struct link_pair *v, unsigned n)
{
	struct jw w;

	jw_init(&w, stdout);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "device", device);
	jw_u64(&w, "bytes_per_direction", size);
	jw_arr_begin(&w, "pairs");
	for (unsigned i = 0; i < n; i++) {
		const struct link_pair *p = &v[i];

		jw_obj_begin(&w, NULL);
		jw_u64(&w, "ipu_a", p->a);
		jw_u64(&w, "ipu_b", p->b);
		jw_u64(&w, "links", p->links);
		jw_u64(&w, "device_id", p->id);
		jw_u64(&w, "device_ipus", p->size);
		jw_u64(&w, "bytes", p->bytes);
		jw_u64(&w, "runs", p->runs);
		jw_u64(&w, "cycles", p->st.cycles);
		jw_u64(&w, "cycles_exchange", p->st.cycles_exchange);
		jw_u64(&w, "clock_khz", p->st.clock_khz);
		jw_double(&w, "modelled_us", modelled_s(&p->st) * 1e6);
		jw_double(&w, "modelled_gbps", gbps(p->bytes, modelled_s(&p->st)));
		jw_double(&w, "link_limit_gbps", p->limit_gbps);
		jw_double(&w, "host_us", p->host_s * 1e6);
		jw_double(&w, "host_gbps", gbps(p->bytes, p->host_s));
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
	jw_end(&w);
}

static void print_table(const char *device, uint64_t size, const struct link_pair *v, unsigned n)
{
	char sz[32];

	tool_format_bytes(size, sz, sizeof(sz));
	printf("%s: IPU-Link bandwidth, both directions summed (%s each way)\n", device, sz);
	printf("%-7s %5s %6s %12s %10s %12s %10s %10s %12s %10s\n", "PAIR", "LINKS", "DEVICE",
	       "BYTES", "CYCLES", "MODELLED_US", "MOD_GB/s", "LIMIT_GB/s", "HOST_US", "HOST_GB/s");
	for (unsigned i = 0; i < n; i++) {
		const struct link_pair *p = &v[i];
		char pair[16];

		snprintf(pair, sizeof(pair), "%u-%u", p->a, p->b);
		printf("%-7s %5u %6u %12llu %10llu %12.2f %10.2f %10.1f %12.2f %10.3f\n", pair,
		       p->links, p->id, (unsigned long long)p->bytes,
		       (unsigned long long)p->st.cycles, modelled_s(&p->st) * 1e6,
		       gbps(p->bytes, modelled_s(&p->st)), p->limit_gbps, p->host_s * 1e6,
		       gbps(p->bytes, p->host_s));
	}
}

/*
 * The topology of the model device @d, or of the cards (@d NULL), into
 * @t. Returns TOOL_CONTINUE or the exit code (reported).
 */
static int read_topology(struct ipu_device *d, struct ipu_topology **t)
{
	struct ipu_error e;

	if (!(d ? ipu_model_topology(d, t, &e) : ipu_topology_read(0, t, &e)))
		return TOOL_CONTINUE;
	return d ? (fprintf(stderr, BENCH_PROG ": %s\n", e.msg), EXIT_RUNTIME) : bench_device_error(&e);
}

/*
 * On the model device, which runs graphs of all its IPUs only, the pair
 * runs on the whole device: its id (the last of the numbering) and a, b as
 * the graph's IPUs. False when the whole device is no linked group.
 */
static bool on_whole_model(const struct ipu_topology *t, unsigned ipus, struct link_pair *p)
{
	const struct ipu_group_info *gi = ipu_topology_find_group(t, ipu_topology_num_ids(t) - 1);

	if (!gi || ipu_group_info_size(gi) != ipus)
		return false;
	p->id = ipu_group_info_id(gi);
	p->size = ipus;
	p->ka = p->a;
	p->kb = p->b;
	return true;
}

/* Measure pair @p: on the model device @model, else on its device id. */
static int run_pair(struct ipu_device *model, struct link_pair *p, uint64_t size,
		    unsigned runs, uint32_t *buf, double *t)
{
	struct ipu_device *d = model;
	struct ipu_error e;
	int r;

	if (!model && ipu_group_device_open(p->id, IPU_OPEN_ATTACH, &d, &e))
		return bench_device_error(&e);
	r = measure_pair(d, p->size, p, size, runs, buf, t, &e);
	if (r)
		fprintf(stderr, BENCH_PROG ": pair %u-%u on device %u: %s\n", p->a, p->b, p->id, e.msg);
	if (!model)
		ipu_device_close(d);
	return r ? EXIT_RUNTIME : EXIT_OK;
}

int bench_links(const struct bench_config *cfg)
{
	uint64_t size = cfg->size ? cfg->size : BENCH_LINKS_SIZE;
	unsigned runs = cfg->count ? cfg->count : BENCH_LINKS_RUNS, n = 0;
	unsigned ipus = cfg->ipus ? cfg->ipus : BENCH_LINKS_IPUS;
	struct ipu_device *model = NULL;
	struct ipu_topology *t = NULL;
	struct link_pair *v = NULL;
	uint32_t *buf = NULL;
	double *times = NULL;
	int rc = TOOL_CONTINUE;

	if (cfg->model)
		rc = bench_open_model(cfg, ipus, &model);
	if (rc == TOOL_CONTINUE)
		rc = read_topology(model, &t);
	if (rc == TOOL_CONTINUE && find_pairs(t, &v, &n))
		rc = (fprintf(stderr, BENCH_PROG ": out of memory\n"), EXIT_RUNTIME);
	if (rc == TOOL_CONTINUE && !n)
		rc = (fprintf(stderr, BENCH_PROG ": no pair of IPUs is joined by an IPU-Link that is up "
			      "(ipu-links shows them)\n"), EXIT_NODEV);
	if (rc == TOOL_CONTINUE) {
		buf = malloc(size);
		times = calloc(runs, sizeof(*times));
		if (!buf || !times)
			rc = (fprintf(stderr, BENCH_PROG ": out of memory\n"), EXIT_RUNTIME);
	}
	for (unsigned i = 0; i < n && rc == TOOL_CONTINUE; i++) {
		int r;

		if (model && !on_whole_model(t, ipus, &v[i])) {
			fprintf(stderr, BENCH_PROG ": %s: its %u IPUs are not all linked\n",
				ipu_device_name(model), ipus);
			rc = EXIT_RUNTIME;
			break;
		}
		r = run_pair(model, &v[i], size, runs, buf, times);

		rc = r ? r : TOOL_CONTINUE;
	}
	if (rc == TOOL_CONTINUE) {
		const char *name = model ? ipu_device_name(model) : "cards";

		if (cfg->json)
			print_json(name, size, v, n);
		else
			print_table(name, size, v, n);
		rc = tool_finish_stdout(BENCH_PROG, EXIT_OK);
	}
	free(times);
	free(buf);
	free(v);
	ipu_topology_free(t);
	ipu_device_close(model);
	return rc;
}
