// SPDX-License-Identifier: MIT
/*
 * ipu-bench: host <-> card transfer bandwidth and command latency, in the
 * manner of gc-hosttraffictest. Builds at run time a graph with one large
 * host-visible tensor and an empty program, loads it on card ipuN, then
 * measures for sizes from --min to --max (doubling):
 *   host-to-card (tensor write) and card-to-host (tensor read) bandwidth
 *   through each buffer kind: "mapped" (driver buffer, ipu_buffer_alloc),
 *   "pinned" (user memory registered with ipu_buffer_pin) and "user"
 *   (plain memory: the library's own choice, bounce or per-command pin);
 * and the round trip of an empty program (ipu_run: through the user queue
 * when the driver has one; the graph's first run is timed alone and kept
 * out of the figures) against a null ioctl (IPU_IOCTL_NULL), the same
 * round trip with the library forced to SUBMIT (IPUDEV_RUNQ=kernel, on the
 * device opened again) and, as a reference, memcpy bandwidth in this
 * process.
 *
 * --links (bench_links.c) and --host-sync (bench_sync.c) are the other
 * modes: IPU-Link bandwidth of every linked pair, host sync latency; both
 * also on the model device (-m MODEL --ipus N).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "common.h"
#include "ipudev.h"
#include "uapi/linux/ipu.h"

#define PROG BENCH_PROG
#define KINDS BENCH_KINDS
static const char *const kind_names[KINDS] = { "mapped", "pinned", "user" };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ipu-bench [-d N] [--min SIZE] [--max SIZE] [--kinds LIST]\n"
		"                 [--time MS] [--latency-iters N] [--json]\n"
		"       ipu-bench --links [-m MODEL [--ipus N]] [--size SIZE] [--count N] [--json]\n"
		"       ipu-bench --host-sync [-d ID | -m MODEL [--ipus N]] [--count N] [--json]\n"
		"Measure host-to-card and card-to-host bandwidth and command latency of\n"
		"card ipuN (default 0). SIZE takes K, M, G suffixes (KiB, MiB, GiB).\n"
		"The empty-program round trip is measured as ipu_run() does it (the user\n"
		"queue when the driver has one), then again with the device opened anew\n"
		"with IPUDEV_RUNQ=kernel (through SUBMIT). The first run after a load\n"
		"is reported on its own (\"first\"); the figures are the runs after warm-up.\n"
		"--links measures, for every pair of IPUs joined by IPU-Links that are up,\n"
		"a copy from each to the other in one exchange (both directions summed, as\n"
		"gc-iputraffictest), on the smallest device id holding both: modelled time\n"
		"from the run's cycles and host wall time per run. --host-sync times COUNT\n"
		"host syncs (RUN round trips of a program that is one external sync) on\n"
		"device id ID, as gc-hostsynclatencytest. Both run on the model device\n"
		"with -m.\n\n"
		"  -d, --device N         the card (default 0); --host-sync: the device id\n"
		"      --min SIZE         smallest transfer (default 4K)\n"
		"      --max SIZE         largest transfer (default 256M, less when the\n"
		"                         card's memory is smaller)\n"
		"  -k, --kinds LIST       buffer kinds, comma-separated: mapped (driver\n"
		"                         buffer), pinned (ipu_buffer_pin), user (plain\n"
		"                         memory); default all\n"
		"  -t, --time MS          time per measurement (default 250)\n"
		"  -n, --latency-iters N  round trips for the latency figures (default 2000)\n"
		"      --links            card-to-card bandwidth of every linked pair\n"
		"      --host-sync        host sync latency\n"
		"  -m, --model NAME       --links, --host-sync: the in-process model device of\n"
		"                         that chip (%s) instead of the cards\n"
		"      --ipus N           IPUs of the model device: 1, 2, 4, 8, 16 (default 4\n"
		"                         for --links, 1 for --host-sync)\n"
		"  -s, --size SIZE        --links: bytes each way (default 64M)\n"
		"  -c, --count N          --links: timed runs a pair (default 10); --host-sync:\n"
		"                         syncs (default 4095)\n"
		"  -j, --json             print JSON\n"
		"  -h, --help             this help\n"
		"  -V, --version          library version\n\n"
		"Exit status: 0 ok, 1 runtime error, 2 usage error, 3 no such card (--links:\n"
		"no linked pair), 4 the card is in use.\n", tool_model_names());
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end == 'i' && end[1] == 'B')
		end += 2;
	else if (*end == 'B')
		end++;
	if (*end || !v)
		return -EINVAL;
	*out = v;
	return 0;
}

struct bw {
	int kind;
	int write;
	uint64_t bytes;
	unsigned iters;
	double seconds;
	double gbps;
};

struct lat {
	unsigned iters;
	double mean_us, median_us, min_us;
	double first_us;	/* the first run after the load, alone; 0: none */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void bench_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

static void lat_of(double *v, unsigned n, struct lat *l)
{
	double s = 0;

	bench_sort(v, n);
	for (unsigned i = 0; i < n; i++)
		s += v[i];
	l->iters = n;
	l->mean_us = n ? s / n * 1e6 : 0;
	l->median_us = n ? v[n / 2] * 1e6 : 0;
	l->min_us = n ? v[0] * 1e6 : 0;
}

static int build_graph(uint32_t model, uint64_t bytes, void **bin, size_t *len,
		       struct ipu_error *err);

/*
 * @n ipu_run() round trips of program @prog (after 20 to warm up) into @l;
 * the first of the warm-up, the graph's first run, goes to l->first_us.
 */
static int run_latency(struct ipu_device *d, unsigned prog, unsigned n, double *v,
		       struct lat *l, struct ipu_error *err)
{
	double first = bench_now_s();

	for (unsigned i = 0; i < 20; i++) {
		if (ipu_run(d, prog, 1, NULL, err))
			return -1;
		if (!i)
			first = bench_now_s() - first;
	}
	for (unsigned i = 0; i < n; i++) {
		double t0 = bench_now_s();

		if (ipu_run(d, prog, 1, NULL, err))
			return -1;
		v[i] = bench_now_s() - t0;
	}
	lat_of(v, n, l);
	l->first_us = first * 1e6;
	return 0;
}

/*
 * Close @*d and open card @devid again with IPUDEV_RUNQ=kernel (runs through
 * SUBMIT), with a small graph of the same kind loaded; the caller's
 * environment is restored. Returns the program, or -1 (@err filled).
 */
static int reopen_submit(unsigned devid, uint32_t model, struct ipu_device **d,
			 struct ipu_error *err)
{
	const char *old = getenv("IPUDEV_RUNQ");
	char *saved = old ? strdup(old) : NULL;
	void *bin = NULL;
	size_t len;
	int r;

	ipu_device_close(*d);
	*d = NULL;
	setenv("IPUDEV_RUNQ", "kernel", 1);
	r = ipu_device_open(devid, IPU_OPEN_ATTACH, d, err);
	if (saved)
		setenv("IPUDEV_RUNQ", saved, 1);
	else
		unsetenv("IPUDEV_RUNQ");
	free(saved);
	if (r)
		return -1;
	r = build_graph(model, 4096, &bin, &len, err);
	if (!r)
		r = ipu_load(*d, bin, len, err);
	free(bin);
	return r ? -1 : ipu_program_find(*d, "empty", err);
}

/* the graph: tensor "data" (i32, @bytes) spread over the tiles, program "empty" */
static int build_graph(uint32_t model, uint64_t bytes, void **bin, size_t *len,
		       struct ipu_error *err)
{
	struct ipu_graph *g;
	uint32_t shape[1] = { (uint32_t)(bytes / 4) };
	int t, seq, r;

	r = ipu_graph_create(model, &g, err);
	if (r)
		return r;
	if ((t = ipu_graph_add_tensor(g, "data", IPU_DTYPE_I32, 1, shape, err)) < 0 ||
	    (r = ipu_graph_map_linear(g, t, 256, err)) < 0 ||
	    (r = ipu_graph_expose(g, t, NULL, IPU_HANDLE_RW, err)) < 0 ||
	    (seq = ipu_prog_sequence(g, err)) < 0 ||
	    (r = ipu_graph_add_program(g, "empty", seq, err)) < 0) {
		ipu_graph_free(g);
		return r < 0 ? r : t < 0 ? t : seq;
	}
	r = ipu_graph_write(g, bin, len, err);
	ipu_graph_free(g);
	return r;
}

static int measure(struct ipu_device *d, uint8_t *p, uint64_t size, int write,
		   double min_s, struct bw *out, struct ipu_error *err)
{
	double t0 = bench_now_s(), t;
	unsigned n = 0;
	int r;

	do {
		r = write ? ipu_tensor_write_at(d, "data", 0, p, size, err)
			  : ipu_tensor_read_at(d, "data", 0, p, size, err);
		if (r)
			return r;
		n++;
		t = bench_now_s() - t0;
	} while ((t < min_s || n < 2) && n < 100000);
	out->bytes = size;
	out->write = write;
	out->iters = n;
	out->seconds = t;
	out->gbps = (double)size * n / t / 1e9;
	return 0;
}

static double memcpy_gbps(uint64_t size, double min_s)
{
	uint8_t *a = malloc(size), *b = malloc(size);
	double t0, t;
	unsigned n = 0;

	if (!a || !b) {
		free(a);
		free(b);
		return 0;
	}
	memset(a, 1, size);
	memset(b, 2, size);
	t0 = bench_now_s();
	do {
		memcpy(b, a, size);
		a[n % size] ^= b[(n * 7) % size];	/* keep the copies */
		n++;
		t = bench_now_s() - t0;
	} while (t < min_s || n < 2);
	free(a);
	free(b);
	return (double)size * n / t / 1e9;
}

/*
 * --kinds LIST into @kinds. Returns TOOL_CONTINUE, or EXIT_USAGE for an
 * unknown kind (EXIT_RUNTIME without memory), reported on stderr.
 */
static int parse_kinds(const char *arg, bool *kinds)
{
	char *s = strdup(arg), *tok, *save = NULL;
	int ret = TOOL_CONTINUE;

	if (!s) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_RUNTIME;
	}
	memset(kinds, 0, KINDS * sizeof(*kinds));
	for (tok = strtok_r(s, ",", &save); tok && ret == TOOL_CONTINUE;
	     tok = strtok_r(NULL, ",", &save)) {
		int k;

		for (k = 0; k < KINDS && strcmp(tok, kind_names[k]); k++)
			;
		if (k == KINDS) {
			fprintf(stderr, PROG ": --kinds: unknown kind '%s' (mapped, pinned, user)\n", tok);
			ret = EXIT_USAGE;
		} else {
			kinds[k] = true;
		}
	}
	free(s);
	return ret;
}

/*
 * An option of the default mode (@c as getopt_long() returned it) into
 * @cfg. Returns TOOL_CONTINUE, or EXIT_USAGE after the error on stderr.
 */
static int parse_host_option(int c, const char *arg, struct bench_config *cfg)
{
	cfg->host_opts = true;
	switch (c) {
	case 1:
	case 2:
		if (parse_size(arg, c == 1 ? &cfg->minsz : &cfg->maxsz))
			return tool_usage_error(PROG, "--%s: '%s' is not a size",
						c == 1 ? "min" : "max", arg);
		return TOOL_CONTINUE;
	case 'k':
		return parse_kinds(arg, cfg->kinds);
	case 't':
		if (tool_parse_uint(arg, 600000, &cfg->time_ms) || !cfg->time_ms)
			return tool_usage_error(PROG, "--time: '%s' is not a time in ms", arg);
		return TOOL_CONTINUE;
	default:	/* 'n' */
		if (tool_parse_uint(arg, 10000000, &cfg->lat_iters) || !cfg->lat_iters)
			return tool_usage_error(PROG, "--latency-iters: '%s' is not a count", arg);
		return TOOL_CONTINUE;
	}
}

/*
 * An option of --links and --host-sync (@c as getopt_long() returned it)
 * into @cfg. Returns TOOL_CONTINUE, or EXIT_USAGE after the error.
 */
static int parse_mode_option(int c, const char *arg, struct bench_config *cfg)
{
	switch (c) {
	case 3:
	case 4:
		if (cfg->mode != BENCH_HOST && cfg->mode != (c == 3 ? BENCH_LINKS : BENCH_HOST_SYNC))
			return tool_usage_error(PROG, "--links and --host-sync exclude each other");
		cfg->mode = c == 3 ? BENCH_LINKS : BENCH_HOST_SYNC;
		return TOOL_CONTINUE;
	case 'm':
		cfg->model = arg;
		return TOOL_CONTINUE;
	case 5:
		if (tool_parse_uint(arg, 16, &cfg->ipus) || !cfg->ipus || (cfg->ipus & (cfg->ipus - 1)))
			return tool_usage_error(PROG, "--ipus: '%s' is not 1, 2, 4, 8 or 16", arg);
		return TOOL_CONTINUE;
	case 's':
		if (parse_size(arg, &cfg->size) || (cfg->size & 3) || cfg->size > (1ull << 32))
			return tool_usage_error(PROG, "--size: '%s' is not a size (a multiple of 4, at most 4G)",
						arg);
		return TOOL_CONTINUE;
	default:	/* 'c' */
		if (tool_parse_uint(arg, 10000000, &cfg->count) || !cfg->count)
			return tool_usage_error(PROG, "--count: '%s' is not a count >= 1", arg);
		return TOOL_CONTINUE;
	}
}

/* Options that do not go together; TOOL_CONTINUE or EXIT_USAGE (reported). */
static int check_config(const struct bench_config *cfg)
{
	const char *mode = cfg->mode == BENCH_LINKS ? "--links" : "--host-sync";

	if (cfg->mode == BENCH_HOST) {
		if (cfg->model || cfg->ipus || cfg->size || cfg->count)
			return tool_usage_error(PROG, "--model, --ipus, --size and --count go with --links or --host-sync");
		if (cfg->minsz > cfg->maxsz || (cfg->minsz & 3) || (cfg->maxsz & 3))
			return tool_usage_error(PROG, "--min must not exceed --max; sizes are multiples of 4");
		return TOOL_CONTINUE;
	}
	if (cfg->host_opts)
		return tool_usage_error(PROG, "--min, --max, --kinds, --time and --latency-iters do not go with %s",
					mode);
	if (cfg->ipus && !cfg->model)
		return tool_usage_error(PROG, "--ipus is the model device's: give --model too");
	if (cfg->model && cfg->devid_given)
		return tool_usage_error(PROG, "--model and --device exclude each other");
	if (cfg->mode == BENCH_LINKS && cfg->devid_given)
		return tool_usage_error(PROG, "--links measures every linked pair: --device does not go with it");
	if (cfg->mode == BENCH_LINKS && cfg->ipus == 1)
		return tool_usage_error(PROG, "--links needs 2 IPUs or more (--ipus)");
	if (cfg->mode == BENCH_HOST_SYNC && cfg->size)
		return tool_usage_error(PROG, "--size goes with --links");
	return TOOL_CONTINUE;
}

/*
 * Fill @cfg from the command line. Returns TOOL_CONTINUE, or the exit code
 * after --help, --version or a usage error (reported on stderr).
 */
static int parse_args(int argc, char **argv, struct bench_config *cfg)
{
	static const struct option opts[] = {
		TOOL_OPT_DEVICE,
		{ "min", required_argument, NULL, 1 },
		{ "max", required_argument, NULL, 2 },
		{ "kinds", required_argument, NULL, 'k' },
		{ "time", required_argument, NULL, 't' },
		{ "latency-iters", required_argument, NULL, 'n' },
		{ "links", no_argument, NULL, 3 },
		{ "host-sync", no_argument, NULL, 4 },
		{ "model", required_argument, NULL, 'm' },
		{ "ipus", required_argument, NULL, 5 },
		{ "size", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'c' },
		TOOL_OPT_JSON,
		TOOL_OPT_HELP,
		TOOL_OPTS_VERSION_END,
	};
	int c, r = TOOL_CONTINUE;

	*cfg = (struct bench_config){ .minsz = 4096, .maxsz = 256ull << 20,
				      .kinds = { true, true, true },
				      .time_ms = 250, .lat_iters = 2000 };
	while (r == TOOL_CONTINUE && (c = getopt_long(argc, argv, ":d:k:t:n:m:s:c:jhV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (tool_parse_uint(optarg, 1u << 20, &cfg->devid))
				return tool_usage_error(PROG, "--device: '%s' is not a device number", optarg);
			cfg->devid_given = true;
			break;
		case 1: case 2: case 'k': case 't': case 'n':
			r = parse_host_option(c, optarg, cfg);
			break;
		case 3: case 4: case 'm': case 5: case 's': case 'c':
			r = parse_mode_option(c, optarg, cfg);
			break;
		case 'j':
			cfg->json = true;
			break;
		default:
			return tool_other_option(PROG, c, argv, usage);
		}
	}
	if (r == TOOL_CONTINUE)
		r = tool_no_operands(PROG, argc, argv);
	return r == TOOL_CONTINUE ? check_config(cfg) : r;
}

/*
 * One run of the benchmark: the card, its graph and buffers (owned, freed
 * by bench_free()) and the figures measured.
 */
struct bench {
	struct ipu_device *d;
	struct ipu_device_info info;
	uint64_t minsz, maxsz;		/* the sizes measured */
	int prog;			/* the empty program */
	void *bin;			/* the graph binary */
	struct ipu_buffer *buf[KINDS];	/* mapped, pinned: the library's */
	uint8_t *mem[KINDS];		/* pinned, user: ours; mapped: buf's */
	struct bw *res;			/* bandwidth figures */
	size_t nres;
	double *v;			/* lat_iters samples (seconds) */
	struct lat lrun, lnull, lsubmit;
	unsigned nnull;			/* null ioctls that succeeded */
	char devnode[64];		/* where the null ioctls went */
	uint64_t mcpy_bytes;
	double mcpy;			/* memcpy GB/s */
};

static void bench_free(struct bench *b)
{
	for (int k = 0; k < KINDS; k++) {
		ipu_buffer_free(b->buf[k]);
		if (k)
			free(b->mem[k]);
	}
	ipu_device_close(b->d);
	free(b->bin);
	free(b->res);
	free(b->v);
}

/* Report @e on stderr; returns EXIT_RUNTIME. */
static int fail(const struct ipu_error *e)
{
	fprintf(stderr, PROG ": %s\n", e->msg);
	return EXIT_RUNTIME;
}

int bench_device_error(const struct ipu_error *e)
{
	fprintf(stderr, PROG ": %s\n", e->msg);
	if (e->code == -ENODEV && !strstr(e->msg, "not open") && !strstr(e->msg, "device "))
		fprintf(stderr, PROG ": " TOOL_HINT_NO_DRIVER "\n");
	return e->code == -ENODEV ? EXIT_NODEV : e->code == -EBUSY ? EXIT_BUSY : EXIT_RUNTIME;
}

int bench_open_model(const struct bench_config *cfg, unsigned ipus, struct ipu_device **d)
{
	struct ipu_error e;

	if (ipu_model_open_multi(cfg->model, ipus, NULL, 0, d, &e) == 0)
		return TOOL_CONTINUE;
	fprintf(stderr, PROG ": %s\n", e.msg);
	return e.code == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
}

/*
 * Attach card @cfg->devid into @b->d. Returns TOOL_CONTINUE, or the exit
 * code after the failure was reported (EXIT_NODEV for an absent card or
 * driver, with the hint when the driver is missing).
 */
static int open_card(const struct bench_config *cfg, struct bench *b)
{
	struct ipu_error e;

	if (ipu_device_open(cfg->devid, IPU_OPEN_ATTACH, &b->d, &e) == 0)
		return TOOL_CONTINUE;
	return bench_device_error(&e);
}

/*
 * Cap the sizes by the card's memory (the tensor takes at most half of it)
 * and load the graph with a tensor of the largest. Returns 0 or
 * EXIT_RUNTIME (reported).
 */
static int load_graph(const struct bench_config *cfg, struct bench *b)
{
	struct ipu_error e;
	uint64_t cap = 4096;
	size_t binlen;

	if (ipu_device_info(b->d, &b->info, &e))
		return fail(&e);
	while (cap * 2 <= b->info.total_memory / 2)
		cap *= 2;
	b->maxsz = cfg->maxsz > cap ? cap : cfg->maxsz;
	b->minsz = cfg->minsz > b->maxsz ? b->maxsz : cfg->minsz;
	if (build_graph(b->info.model, b->maxsz, &b->bin, &binlen, &e) ||
	    ipu_load(b->d, b->bin, binlen, &e))
		return fail(&e);
	b->prog = ipu_program_find(b->d, "empty", &e);
	return b->prog < 0 ? fail(&e) : EXIT_OK;
}

/*
 * The buffers of each kind asked for (@b->maxsz bytes), the bandwidth
 * figures and the latency samples. Returns 0 or EXIT_RUNTIME (reported).
 */
static int alloc_memory(const struct bench_config *cfg, struct bench *b)
{
	struct ipu_error e;
	size_t nres = 0;

	for (int k = 0; k < KINDS; k++) {
		if (!cfg->kinds[k])
			continue;
		if (k == 0) {
			if (ipu_buffer_alloc(b->d, b->maxsz, &b->buf[k], &e))
				return fail(&e);
			b->mem[k] = ipu_buffer_ptr(b->buf[k]);
			continue;
		}
		if (posix_memalign((void **)&b->mem[k], 4096, b->maxsz)) {
			fprintf(stderr, PROG ": out of memory\n");
			return EXIT_RUNTIME;
		}
		memset(b->mem[k], 0x5a, b->maxsz);
		if (k == 1 && ipu_buffer_pin(b->d, b->mem[k], b->maxsz, &b->buf[k], &e))
			return fail(&e);
	}
	for (uint64_t s = b->minsz; s <= b->maxsz; s = s * 2 > s ? s * 2 : b->maxsz + 1)
		nres += 2 * (size_t)(cfg->kinds[0] + cfg->kinds[1] + cfg->kinds[2]);
	b->res = calloc(nres ? nres : 1, sizeof(*b->res));
	b->v = calloc(cfg->lat_iters, sizeof(*b->v));
	if (!b->res || !b->v) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/*
 * Write then read each size (doubling) through each kind into @b->res, a
 * line each on stderr unless JSON. Returns 0 or EXIT_RUNTIME (reported).
 */
static int measure_bandwidth(const struct bench_config *cfg, struct bench *b)
{
	struct ipu_error e;

	for (uint64_t s = b->minsz; s <= b->maxsz; s *= 2) {
		for (int k = 0; k < KINDS; k++) {
			if (!cfg->kinds[k])
				continue;
			for (int w = 1; w >= 0; w--) {
				struct bw *r = &b->res[b->nres];

				r->kind = k;
				if (measure(b->d, b->mem[k], s, w, cfg->time_ms / 1000.0, r, &e))
					return fail(&e);
				if (!cfg->json)
					fprintf(stderr, "%s %-6s %10llu bytes: %8.3f GB/s\n",
						w ? "h2d" : "d2h", kind_names[k],
						(unsigned long long)s, r->gbps);
				b->nres++;
			}
		}
		if (s > UINT64_MAX / 2)
			break;
	}
	return EXIT_OK;
}

/*
 * Round trips of IPU_IOCTL_NULL on the card's node (found by enumeration,
 * else /dev/ipuN) into @b->lnull; none when it cannot be opened or the
 * ioctl fails.
 */
static void null_ioctl_latency(const struct bench_config *cfg, struct bench *b)
{
	struct ipu_card *cards;
	size_t n;
	int fd;

	snprintf(b->devnode, sizeof(b->devnode), "/dev/ipu%u", cfg->devid);
	if (!ipu_enumerate(&cards, &n, NULL)) {
		const struct ipu_card *c = tool_find_card(cards, n, cfg->devid);

		if (c)
			snprintf(b->devnode, sizeof(b->devnode), "%s", c->devnode);
		ipu_cards_free(cards);
	}
	fd = open(b->devnode, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		for (unsigned i = 0; i < cfg->lat_iters; i++) {
			double t0 = bench_now_s();

			if (ioctl(fd, IPU_IOCTL_NULL, NULL) < 0)
				break;
			b->v[i] = bench_now_s() - t0;
			b->nnull++;
		}
		close(fd);
	}
	if (b->nnull)
		lat_of(b->v, b->nnull, &b->lnull);
}

/*
 * The round trips: the empty program as ipu_run() does it, the null
 * ioctl, memcpy in this process, then the empty program through SUBMIT on
 * the card opened again (its buffers go first). Returns 0 or EXIT_RUNTIME
 * (reported).
 */
static int measure_latency(const struct bench_config *cfg, struct bench *b)
{
	struct ipu_error e;

	if (run_latency(b->d, (unsigned)b->prog, cfg->lat_iters, b->v, &b->lrun, &e))
		return fail(&e);
	null_ioctl_latency(cfg, b);
	b->mcpy_bytes = b->maxsz < (64ull << 20) ? b->maxsz : 64ull << 20;
	b->mcpy = memcpy_gbps(b->mcpy_bytes, cfg->time_ms / 1000.0);

	/* informational: through SUBMIT, IPUDEV_RUNQ=kernel */
	for (int k = 0; k < KINDS; k++) {
		ipu_buffer_free(b->buf[k]);
		b->buf[k] = NULL;
	}
	b->mem[0] = NULL;
	b->prog = reopen_submit(cfg->devid, b->info.model, &b->d, &e);
	if (b->prog < 0 ||
	    run_latency(b->d, (unsigned)b->prog, cfg->lat_iters, b->v, &b->lsubmit, &e))
		return fail(&e);
	return EXIT_OK;
}

/* Member @key: one latency figure. */
static void lat_json(struct jw *w, const char *key, const struct lat *l)
{
	jw_obj_begin(w, key);
	jw_u64(w, "iterations", l->iters);
	jw_double(w, "mean_us", l->mean_us);
	jw_double(w, "median_us", l->median_us);
	jw_double(w, "min_us", l->min_us);
	if (l->first_us > 0)
		jw_double(w, "first_us", l->first_us);
	jw_obj_end(w);
}

/* The figures as one JSON object on stdout. */
static void print_json(const struct bench *b)
{
	const char *xfer = getenv("IPUDEV_XFER"), *runq = getenv("IPUDEV_RUNQ");
	struct jw w;

	jw_init(&w, stdout);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "device", ipu_device_name(b->d));
	jw_str(&w, "model", ipu_model_name(b->info.model));
	jw_str(&w, "transfer_mode", xfer ? xfer : "auto");
	jw_str(&w, "run_queue", runq ? runq : "auto");
	jw_arr_begin(&w, "bandwidth");
	for (size_t i = 0; i < b->nres; i++) {
		const struct bw *r = &b->res[i];

		jw_obj_begin(&w, NULL);
		jw_str(&w, "kind", kind_names[r->kind]);
		jw_str(&w, "direction", r->write ? "host-to-card" : "card-to-host");
		jw_u64(&w, "bytes", r->bytes);
		jw_u64(&w, "iterations", r->iters);
		jw_double(&w, "seconds", r->seconds);
		jw_double(&w, "gbps", r->gbps);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_begin(&w, "latency");
	lat_json(&w, "empty_program", &b->lrun);
	lat_json(&w, "empty_program_submit", &b->lsubmit);
	lat_json(&w, "null_ioctl", &b->lnull);
	jw_obj_end(&w);
	jw_obj_begin(&w, "baseline");
	jw_u64(&w, "memcpy_bytes", b->mcpy_bytes);
	jw_double(&w, "memcpy_gbps", b->mcpy);
	jw_obj_end(&w);
	jw_obj_end(&w);
	jw_end(&w);
}

/* The bandwidth table: a row a size, H2D then D2H columns of each kind. */
static void print_bw_table(const struct bench_config *cfg, const struct bench *b)
{
	const struct bw *res = b->res;

	printf("%-10s", "SIZE");
	for (int k = 0; k < KINDS; k++)
		if (cfg->kinds[k])
			printf("  %-8s%-8s", "H2D", kind_names[k]);
	for (int k = 0; k < KINDS; k++)
		if (cfg->kinds[k])
			printf("  %-8s%-8s", "D2H", kind_names[k]);
	printf("\n");
	for (size_t i = 0; i < b->nres;) {
		char sz[32];
		size_t j;

		tool_format_bytes(res[i].bytes, sz, sizeof(sz));
		printf("%-10s", sz);
		for (int w = 1; w >= 0; w--)
			for (j = i; j < b->nres && res[j].bytes == res[i].bytes; j++)
				if (res[j].write == w)
					printf("  %-16.3f", res[j].gbps);
		printf("\n");
		for (j = i; j < b->nres && res[j].bytes == res[i].bytes; j++)
			;
		i = j;
	}
}

/* A row of the latency table: LABEL mean median min (N WHAT[; first run]). */
static void print_lat_row(const char *label, const struct lat *l, const char *what)
{
	printf("%-23s %9.2f %9.2f %9.2f  (%u %s", label, l->mean_us,
	       l->median_us, l->min_us, l->iters, what);
	if (l->first_us > 0)
		printf("; first run %.2f", l->first_us);
	printf(")\n");
}

/* The figures as tables on stdout. */
static void print_text(const struct bench_config *cfg, const struct bench *b)
{
	printf("%s (%s): host <-> card bandwidth, GB/s\n", ipu_device_name(b->d),
	       ipu_model_name(b->info.model));
	print_bw_table(cfg, b);
	printf("\n%-23s %9s %9s %9s\n", "latency (us)", "mean", "median", "min");
	print_lat_row("empty program", &b->lrun, "round trips, ipu_run");
	print_lat_row("empty program (SUBMIT)", &b->lsubmit,
		      "round trips, IPUDEV_RUNQ=kernel");
	if (b->nnull)
		print_lat_row("null ioctl", &b->lnull, "calls");
	else
		printf("%-23s n/a (IPU_IOCTL_NULL failed on %s)\n", "null ioctl",
		       b->devnode);
	printf("\nmemcpy in this process: %.3f GB/s\n", b->mcpy);
}

int main(int argc, char **argv)
{
	struct bench_config cfg;
	struct bench b = { 0 };
	int rc = parse_args(argc, argv, &cfg);

	if (rc == TOOL_CONTINUE && cfg.mode == BENCH_LINKS)
		return bench_links(&cfg);
	if (rc == TOOL_CONTINUE && cfg.mode == BENCH_HOST_SYNC)
		return bench_host_sync(&cfg);
	if (rc == TOOL_CONTINUE)
		rc = open_card(&cfg, &b);
	if (rc != TOOL_CONTINUE)
		return rc;
	rc = load_graph(&cfg, &b);
	if (!rc)
		rc = alloc_memory(&cfg, &b);
	if (!rc)
		rc = measure_bandwidth(&cfg, &b);
	if (!rc)
		rc = measure_latency(&cfg, &b);
	if (!rc && cfg.json)
		print_json(&b);
	else if (!rc)
		print_text(&cfg, &b);
	bench_free(&b);
	return rc;
}
