// SPDX-License-Identifier: MIT
/*
 * ipu-run: run a graph binary on the model device (of one IPU or several),
 * on a card or on a multi-IPU device of linked cards, with inputs and
 * outputs as .npy files, and print what the run cost.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define MAX_IO 256

struct io {
	const char *name;
	const char *path;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ipu-run [--model NAME [--ipus N] | --device ID] GRAPH\n"
		"               [--in NAME=FILE.npy]... [--out NAME=FILE.npy]...\n"
		"               [--program K|NAME] [--count N] [--threads N] [--json]\n"
		"Run entry program K (default 0) of graph binary GRAPH COUNT times\n"
		"(default 1) and print its cost: host time and modelled chip cycles.\n"
		"\n"
		"  -m, --model NAME     run on the in-process model of that chip: %s\n"
		"                       (default %s)\n"
		"  -n, --ipus N         the model device has N IPUs joined by IPU-Links\n"
		"                       (1, 2, 4, 8, 16; default 1): for a graph binary of\n"
		"                       N IPUs (ipu-mkgraph --ipus N)\n"
		"  -d, --device ID      run on card ipuID, else on the multi-IPU device ID of\n"
		"                       linked cards that ipu-info -l lists\n"
		"  -i, --in NAME=FILE   write FILE (.npy, <f4/<f2/<i4, C order) into tensor NAME\n"
		"                       before the run; dtype and shape must match the tensor\n"
		"  -o, --out NAME=FILE  save tensor NAME to FILE (.npy) after the run\n"
		"  -p, --program K      entry program by index or name\n"
		"  -c, --count N        run the program N times\n"
		"  -t, --threads N      host threads of the model device (default: all cores)\n"
		"  -j, --json           print the result as JSON\n"
		"  -l, --list           list the graph's host-visible tensors and programs\n"
		"  -M, --memory         print the graph's tile memory by category (always\n"
		"                       live, not always live, ...) and its busiest tiles\n"
		"  -h, --help           this help\n"
		"A graph binary runs on a device of as many IPUs as it was built for.\n"
		"Exit status: 0 success, 1 run-time failure, 2 usage error, 3 no such\n"
		"device.\n",
		tool_model_names(), TOOL_DEFAULT_MODEL);
}

static int split_io(const char *arg, struct io *io)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return -1;
	io->name = strndup(arg, (size_t)(eq - arg));
	io->path = eq + 1;
	return io->name ? 0 : -1;
}

static void shape_str(char *buf, size_t n, unsigned rank, const uint64_t *shape)
{
	size_t k = 0;

	k += (size_t)snprintf(buf, n, "(");
	for (unsigned i = 0; i < rank && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%llu", i ? ", " : "", (unsigned long long)shape[i]);
	if (rank == 1 && k < n)
		k += (size_t)snprintf(buf + k, n - k, ",");
	if (k < n)
		snprintf(buf + k, n - k, ")");
}

static void tensor_shape(const struct ipu_tensor_info *ti, uint64_t *s)
{
	for (unsigned i = 0; i < ti->rank; i++)
		s[i] = ti->shape[i];
}

static int list(struct ipu_device *d, struct ipu_error *err)
{
	int n = ipu_tensor_count(d, err), np;
	char b[256];

	if (n < 0)
		return n;
	printf("tensors:\n");
	for (int i = 0; i < n; i++) {
		struct ipu_tensor_info ti;
		uint64_t s[6];

		if (ipu_tensor_info(d, (unsigned)i, &ti, err))
			return -1;
		tensor_shape(&ti, s);
		shape_str(b, sizeof(b), ti.rank, s);
		printf("  %-24s %-4s %-16s %s%s\n", ti.name, ipu_dtype_name(ti.dtype), b,
		       ti.access & IPU_HANDLE_READ ? "r" : "-", ti.access & IPU_HANDLE_WRITE ? "w" : "-");
	}
	np = ipu_program_count(d, err);
	if (np < 0)
		return np;
	printf("programs:\n");
	for (int k = 0; k < np; k++) {
		if (ipu_program_name(d, (unsigned)k, b, sizeof(b), err))
			return -1;
		printf("  %d %s\n", k, b);
	}
	return 0;
}

/*
 * What the command line asks for. The names of @in and @out are owned
 * (strndup), freed by run_config_free(); the paths point into argv.
 */
struct run_config {
	const char *model;	/* the model device's chip; NULL with a card */
	unsigned ipus;		/* --ipus: the model device's IPUs, 0 not given */
	bool use_dev;
	unsigned devid;		/* use_dev: the card or multi-IPU device id */
	const char *graph;
	const char *program;	/* --program K|NAME, NULL: program 0 */
	unsigned count, threads;
	bool json, list, memory;
	struct io in[MAX_IO], out[MAX_IO];
	unsigned nin, nout;
};

static void run_config_free(struct run_config *cfg)
{
	for (unsigned i = 0; i < cfg->nin; i++)
		free((void *)cfg->in[i].name);
	for (unsigned i = 0; i < cfg->nout; i++)
		free((void *)cfg->out[i].name);
	cfg->nin = cfg->nout = 0;
}

/* Add NAME=FILE of --in (@c 'i') or --out to @cfg; EXIT_USAGE if malformed. */
static int add_io(struct run_config *cfg, int c, const char *arg)
{
	unsigned *n = c == 'i' ? &cfg->nin : &cfg->nout;
	struct io *io = c == 'i' ? cfg->in : cfg->out;

	if (*n >= MAX_IO || split_io(arg, &io[*n])) {
		fprintf(stderr, "ipu-run: --%s: expected NAME=FILE.npy, got '%s'\n",
			c == 'i' ? "in" : "out", arg);
		return EXIT_USAGE;
	}
	(*n)++;
	return TOOL_CONTINUE;
}

/*
 * Fill @cfg from the command line (getopt_long reports unknown options
 * itself). Returns TOOL_CONTINUE, or the exit code after --help or a usage
 * error (reported on stderr). @cfg is to be freed with run_config_free()
 * in either case.
 */
static int parse_args(int argc, char **argv, struct run_config *cfg)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "ipus", required_argument, NULL, 'n' },
		TOOL_OPT_DEVICE,
		{ "in", required_argument, NULL, 'i' },
		{ "out", required_argument, NULL, 'o' },
		{ "program", required_argument, NULL, 'p' },
		{ "count", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		TOOL_OPT_JSON,
		{ "list", no_argument, NULL, 'l' },
		{ "memory", no_argument, NULL, 'M' },
		TOOL_OPT_HELP,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(cfg, 0, sizeof(*cfg));
	cfg->count = 1;
	while ((c = getopt_long(argc, argv, "m:n:d:i:o:p:c:t:jlMh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			cfg->model = optarg;
			break;
		case 'n':
			if (tool_parse_uint(optarg, 16, &cfg->ipus) || !cfg->ipus ||
			    (cfg->ipus & (cfg->ipus - 1))) {
				fprintf(stderr, "ipu-run: --ipus: '%s' is not 1, 2, 4, 8 or 16\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'd':
			if (tool_parse_uint(optarg, 1u << 20, &cfg->devid)) {
				fprintf(stderr, "ipu-run: --device: '%s' is not a device number\n", optarg);
				return EXIT_USAGE;
			}
			cfg->use_dev = true;
			break;
		case 'i':
		case 'o':
			if (add_io(cfg, c, optarg) != TOOL_CONTINUE)
				return EXIT_USAGE;
			break;
		case 'p':
			cfg->program = optarg;
			break;
		case 'c':
			if (tool_parse_uint(optarg, 1u << 30, &cfg->count) || !cfg->count) {
				fprintf(stderr, "ipu-run: --count: '%s' is not a count >= 1\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 't':
			if (tool_parse_uint(optarg, 64, &cfg->threads)) {
				fprintf(stderr, "ipu-run: --threads: '%s' is not a number of threads (0-64)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			cfg->json = true;
			break;
		case 'l':
			cfg->list = true;
			break;
		case 'M':
			cfg->memory = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "ipu-run: %s\n", optind >= argc ? "no graph binary given" : "more than one graph given");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (cfg->use_dev && cfg->model) {
		fprintf(stderr, "ipu-run: --model and --device exclude each other\n");
		return EXIT_USAGE;
	}
	if (cfg->use_dev && cfg->ipus) {
		fprintf(stderr, "ipu-run: --ipus is the model device's; --device ID names a device"
			" of its own IPUs (ipu-info -l)\n");
		return EXIT_USAGE;
	}
	cfg->graph = argv[optind];
	if (!cfg->use_dev && !cfg->model)
		cfg->model = TOOL_DEFAULT_MODEL;
	return TOOL_CONTINUE;
}

/*
 * Graph binary @path into *@bin (malloc'ed, the caller frees it) of *@len
 * bytes. Returns 0, or -1 after "cannot read PATH" on stderr.
 */
static int read_binary(const char *path, void **bin, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n = -1;

	*bin = NULL;
	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (*bin = malloc(n ? (size_t)n : 1)) && fread(*bin, 1, (size_t)n, f) != (size_t)n)
		n = -1;
	if (f)
		fclose(f);
	if (!f || n < 0 || !*bin) {
		fprintf(stderr, "ipu-run: cannot read %s\n", path);
		free(*bin);
		*bin = NULL;
		return -1;
	}
	*len = (size_t)n;
	return 0;
}

/*
 * The binary @bin must be for the @ipus IPUs of @d: its tiles (all IPUs')
 * over the device's tiles per IPU. Returns 0, or -1 after the mismatch was
 * reported on stderr. A binary it cannot tell (another model, not a graph)
 * passes, for the load to refuse with the loader's words.
 */
static int check_ipus(const struct run_config *cfg, struct ipu_device *d, unsigned ipus,
		      const void *bin, size_t len)
{
	struct ipu_error err = { 0, "" };
	struct ipu_memory_report r = { 0 };
	struct ipu_device_info info;
	unsigned bin_ipus = 0;

	if (!ipu_device_info(d, &info, &err) && info.tiles &&
	    !ipu_graph_binary_memory_report(bin, len, &r, &err) && r.tiles % info.tiles == 0)
		bin_ipus = r.tiles / info.tiles;
	ipu_memory_report_free(&r);
	if (!bin_ipus || bin_ipus == ipus)
		return 0;
	fprintf(stderr, "ipu-run: %s is a graph binary for %u IPU%s, %s has %u IPU%s: run it %s %u\n",
		cfg->graph, bin_ipus, bin_ipus == 1 ? "" : "s", ipu_device_name(d), ipus,
		ipus == 1 ? "" : "s",
		bin_ipus == 1 ? "on a card or on the model device with --ipus" :
		"with -d on a multi-IPU device id (ipu-info -l) or on the model device with --ipus",
		bin_ipus);
	return -1;
}

/*
 * Open the card, multi-IPU device or model device of @cfg into @d (the
 * caller's, to close) and load the graph, which must be for as many IPUs.
 * Returns TOOL_CONTINUE, or the exit code after the failure was reported:
 * EXIT_NODEV for an absent device, EXIT_USAGE for an unknown model, else
 * EXIT_RUNTIME.
 */
static int open_and_load(const struct run_config *cfg, struct ipu_device **d)
{
	struct ipu_error err = { 0, "" };
	unsigned ipus = cfg->ipus ? cfg->ipus : 1;
	size_t len = 0;
	void *bin;
	int r;

	if (read_binary(cfg->graph, &bin, &len))
		return EXIT_RUNTIME;
	if (cfg->use_dev ? tool_open_device_id(cfg->devid, 0, d, &ipus, &err)
			 : ipu_model_open_multi(cfg->model, ipus, NULL, cfg->threads, d, &err)) {
		fprintf(stderr, "ipu-run: %s\n", err.msg);
		free(bin);
		if (cfg->use_dev && err.code == -ENODEV)
			return EXIT_NODEV;
		return err.code == -EINVAL && !cfg->use_dev ? EXIT_USAGE : EXIT_RUNTIME;
	}
	r = check_ipus(cfg, *d, ipus, bin, len);
	if (!r && ipu_load(*d, bin, len, &err)) {
		fprintf(stderr, "ipu-run: %s\n", err.msg);
		r = -1;
	}
	free(bin);
	return r ? EXIT_RUNTIME : TOOL_CONTINUE;
}

/*
 * The entry program of --program (an index, else a name; 0 without it)
 * into @program and its name into @pname (@size bytes). Returns
 * TOOL_CONTINUE, or EXIT_USAGE after "--program: ..." on stderr.
 */
static int find_program(struct ipu_device *d, const char *arg,
			unsigned *program, char *pname, size_t size)
{
	struct ipu_error err = { 0, "" };

	*program = 0;
	if (arg && tool_parse_uint(arg, 1u << 30, program)) {
		int k = ipu_program_find(d, arg, &err);

		if (k < 0) {
			fprintf(stderr, "ipu-run: --program: %s\n", err.msg);
			return EXIT_USAGE;
		}
		*program = (unsigned)k;
	}
	if (ipu_program_name(d, *program, pname, size, &err)) {
		fprintf(stderr, "ipu-run: --program: %s\n", err.msg);
		return EXIT_USAGE;
	}
	return TOOL_CONTINUE;
}

/*
 * Write .npy file @io->path into tensor @io->name, whose dtype and shape it
 * must have. Returns 0, or -1 after the reason was reported on stderr.
 */
static int write_input(struct ipu_device *d, const struct io *io)
{
	struct ipu_error err = { 0, "" };
	struct ipu_tensor_info ti;
	struct ipu_npy a;
	uint64_t s[6];
	char sa[128], st[128];
	int bad = 0;

	if (ipu_tensor_lookup(d, io->name, &ti, &err) ||
	    ipu_npy_read(io->path, &a, &err)) {
		fprintf(stderr, "ipu-run: --in %s: %s\n", io->name, err.msg);
		return -1;
	}
	tensor_shape(&ti, s);
	shape_str(sa, sizeof(sa), a.ndim, a.shape);
	shape_str(st, sizeof(st), ti.rank, s);
	if (a.dtype != ti.dtype) {
		fprintf(stderr, "ipu-run: --in %s=%s: dtype %s (%s) does not match tensor '%s' (%s, %s)\n",
			io->name, io->path, ipu_npy_descr((int)a.dtype), ipu_dtype_name(a.dtype),
			ti.name, ipu_dtype_name(ti.dtype), ipu_npy_descr((int)ti.dtype));
		bad = 1;
	} else if (a.ndim != ti.rank || memcmp(a.shape, s, sizeof(uint64_t) * ti.rank)) {
		fprintf(stderr, "ipu-run: --in %s=%s: shape %s does not match tensor '%s' shape %s\n",
			io->name, io->path, sa, ti.name, st);
		bad = 1;
	}
	if (!bad && ipu_tensor_write(d, io->name, a.data, a.bytes, &err)) {
		fprintf(stderr, "ipu-run: --in %s: %s\n", io->name, err.msg);
		bad = 1;
	}
	ipu_npy_free(&a);
	return bad ? -1 : 0;
}

/*
 * Before the run: tensor @io->name of --out exists and the host may read
 * it. Returns 0, or -1 after the reason was reported on stderr.
 */
static int check_output(struct ipu_device *d, const struct io *io)
{
	struct ipu_error err = { 0, "" };
	struct ipu_tensor_info ti;

	if (ipu_tensor_lookup(d, io->name, &ti, &err)) {
		fprintf(stderr, "ipu-run: --out %s: %s\n", io->name, err.msg);
		return -1;
	}
	if (!(ti.access & IPU_HANDLE_READ)) {
		fprintf(stderr, "ipu-run: --out %s: tensor '%s' is not readable by the host\n",
			io->name, ti.name);
		return -1;
	}
	return 0;
}

/*
 * After the run: save tensor @io->name as .npy file @io->path. Returns 0,
 * or -1 (reported on stderr, except a tensor gone since check_output()).
 */
static int save_output(struct ipu_device *d, const struct io *io)
{
	struct ipu_error err = { 0, "" };
	struct ipu_tensor_info ti;
	uint64_t s[6];
	void *buf;
	int ret = 0;

	if (ipu_tensor_lookup(d, io->name, &ti, &err))
		return -1;
	buf = malloc(ti.bytes ? ti.bytes : 1);
	if (!buf) {
		fprintf(stderr, "ipu-run: --out %s: out of memory\n", io->name);
		return -1;
	}
	tensor_shape(&ti, s);
	if (ipu_tensor_read(d, io->name, buf, ti.bytes, &err) ||
	    ipu_npy_write(io->path, (int)ti.dtype, ti.rank, s, buf, &err)) {
		fprintf(stderr, "ipu-run: --out %s: %s\n", io->name, err.msg);
		ret = -1;
	}
	free(buf);
	return ret;
}

/* Modelled time of @st in microseconds (0 without a clock). */
static double modelled_us(const struct ipu_run_stats *st)
{
	return st->clock_khz ? (double)st->cycles / st->clock_khz * 1e3 : 0;
}

/* The run's cost as one JSON object on stdout. */
static void print_json(const struct run_config *cfg, struct ipu_device *d,
		       unsigned program, const char *pname,
		       const struct ipu_run_stats *st)
{
	struct jw w;

	jw_init(&w, stdout);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "graph", cfg->graph);
	jw_str(&w, "device", ipu_device_name(d));
	jw_u64(&w, "program", program);
	jw_str(&w, "program_name", pname);
	jw_u64(&w, "count", cfg->count);
	jw_u64(&w, "host_ns", st->host_ns);
	jw_u64(&w, "cycles", st->cycles);
	jw_u64(&w, "cycles_compute", st->cycles_compute);
	jw_u64(&w, "cycles_exchange", st->cycles_exchange);
	jw_u64(&w, "cycles_sync", st->cycles_sync);
	jw_u64(&w, "cycles_stream", st->cycles_stream);
	jw_u64(&w, "clock_khz", st->clock_khz);
	jw_double(&w, "modelled_us", modelled_us(st));
	jw_u64(&w, "steps", st->steps);
	jw_u64(&w, "compute_sets", st->compute_sets);
	jw_u64(&w, "exchanges", st->exchanges);
	jw_u64(&w, "syncs", st->syncs);
	jw_u64(&w, "exchange_bytes", st->exchange_bytes);
	jw_u64(&w, "stream_bytes_h2d", st->stream_bytes_h2d);
	jw_u64(&w, "stream_bytes_d2h", st->stream_bytes_d2h);
	jw_obj_end(&w);
	jw_end(&w);
}

/* "    LABEL  N" of one phase's cycles */
static void print_phase(const char *label, uint64_t cycles)
{
	printf("    %-15s%llu\n", label, (unsigned long long)cycles);
}

/* The run's cost as text on stdout. */
static void print_text(const struct run_config *cfg, struct ipu_device *d,
		       unsigned program, const char *pname,
		       const struct ipu_run_stats *st)
{
	printf("program %u (%s) x%u on %s\n", program, pname, cfg->count, ipu_device_name(d));
	printf("  host time        %.3f ms\n", st->host_ns * 1e-6);
	printf("  modelled cycles  %llu (%.2f us at %.0f MHz)\n", (unsigned long long)st->cycles,
	       modelled_us(st), st->clock_khz / 1e3);
	/*
	 * A card reports the phases from its run records (interface and
	 * uAPI 1.2); an older card or driver gives the total only: cycles,
	 * every phase 0.
	 */
	if (st->cycles && !st->cycles_compute && !st->cycles_exchange &&
	    !st->cycles_sync && !st->cycles_stream) {
		printf("  (this device reports no per-phase breakdown)\n");
		return;
	}
	print_phase("compute", st->cycles_compute);
	print_phase("exchange", st->cycles_exchange);
	print_phase("sync", st->cycles_sync);
	print_phase("stream", st->cycles_stream);
	printf("  phases           %llu compute sets, %llu exchanges, %llu syncs\n",
	       (unsigned long long)st->compute_sets,
	       (unsigned long long)st->exchanges,
	       (unsigned long long)st->syncs);
	printf("  exchanged        %llu bytes\n",
	       (unsigned long long)st->exchange_bytes);
	if (st->stream_bytes_h2d || st->stream_bytes_d2h)
		printf("  streamed         %llu bytes to the device, %llu to the host\n",
		       (unsigned long long)st->stream_bytes_h2d,
		       (unsigned long long)st->stream_bytes_d2h);
}

/*
 * On the loaded graph: pick the program, write the inputs, check the
 * outputs, run, save the outputs and print the cost. Returns the exit code
 * (failures reported on stderr).
 */
static int run_graph(const struct run_config *cfg, struct ipu_device *d)
{
	struct ipu_error err = { 0, "" };
	struct ipu_run_stats st;
	char pname[256] = "";
	unsigned program;
	int ret;

	ret = find_program(d, cfg->program, &program, pname, sizeof(pname));
	if (ret != TOOL_CONTINUE)
		return ret;
	for (unsigned i = 0; i < cfg->nin; i++)
		if (write_input(d, &cfg->in[i]))
			return EXIT_RUNTIME;
	for (unsigned i = 0; i < cfg->nout; i++)
		if (check_output(d, &cfg->out[i]))
			return EXIT_RUNTIME;
	if (ipu_run(d, program, cfg->count, &st, &err)) {
		fprintf(stderr, "ipu-run: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	for (unsigned i = 0; i < cfg->nout; i++)
		if (save_output(d, &cfg->out[i]))
			return EXIT_RUNTIME;
	if (cfg->json)
		print_json(cfg, d, program, pname, &st);
	else
		print_text(cfg, d, program, pname, &st);
	return EXIT_OK;
}

/* --list: the graph's tensors and programs; the exit code. */
static int list_graph(struct ipu_device *d)
{
	struct ipu_error err = { 0, "" };

	if (list(d, &err)) {
		fprintf(stderr, "ipu-run: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

#define MEM_TOP_TILES 5

/* the indices of the MEM_TOP_TILES largest tile totals of @r, largest first, into top; their count */
static unsigned mem_top(const struct ipu_memory_report *r, unsigned *top)
{
	unsigned n = 0;

	for (unsigned t = 0; t < r->tiles; t++) {
		unsigned k = n;

		if (n < MEM_TOP_TILES)
			n++;
		else if (r->tile[t].total <= r->tile[top[MEM_TOP_TILES - 1]].total)
			continue;
		else
			k = MEM_TOP_TILES - 1;
		for (; k > 0 && r->tile[top[k - 1]].total < r->tile[t].total; k--)
			top[k] = top[k - 1];
		top[k] = t;
	}
	return n;
}

static void mem_json_tile(struct jw *w, const struct ipu_tile_memory *m)
{
	jw_obj_begin(w, NULL);
	jw_u64(w, "tile", m->tile);
	jw_u64(w, "total", m->total);
	jw_u64(w, "always_live", m->always_live);
	jw_u64(w, "not_always_live", m->not_always_live);
	jw_u64(w, "temporaries", m->temporaries);
	jw_u64(w, "tensor_data", m->tensor_data);
	jw_u64(w, "buffers", m->buffers);
	jw_u64(w, "vertices", m->vertices);
	jw_u64(w, "vertex_state", m->vertex_state);
	jw_u64(w, "exchange", m->exchange);
	jw_obj_end(w);
}

static void mem_print_json(const struct run_config *cfg, const struct ipu_memory_report *r,
			   const unsigned *top, unsigned ntop)
{
	struct jw w;

	jw_init(&w, stdout);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "graph", cfg->graph);
	jw_u64(&w, "tiles", r->tiles);
	jw_u64(&w, "tile_memory", r->tile_memory);
	jw_u64(&w, "total", r->total);
	jw_u64(&w, "always_live", r->always_live);
	jw_u64(&w, "not_always_live", r->not_always_live);
	jw_u64(&w, "temporaries", r->temporaries);
	jw_u64(&w, "tensor_data", r->tensor_data);
	jw_u64(&w, "buffers", r->buffers);
	jw_u64(&w, "vertex_state", r->vertex_state);
	jw_u64(&w, "exchange", r->exchange);
	jw_u64(&w, "control_program", r->control_program);
	jw_arr_begin(&w, "top_tiles");
	for (unsigned i = 0; i < ntop; i++)
		mem_json_tile(&w, &r->tile[top[i]]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	jw_end(&w);
}

static void mem_print_text(const struct run_config *cfg, const struct ipu_memory_report *r,
			   const unsigned *top, unsigned ntop)
{
	printf("memory of %s: %u tiles of %u bytes\n", cfg->graph, r->tiles, r->tile_memory);
	printf("  total            %llu bytes (%.1f%% of the chip)\n", (unsigned long long)r->total,
	       100.0 * (double)r->total / ((double)r->tiles * r->tile_memory));
	printf("  always live      %llu\n", (unsigned long long)r->always_live);
	printf("  not always live  %llu (temporaries: %llu bytes before reuse)\n",
	       (unsigned long long)r->not_always_live, (unsigned long long)r->temporaries);
	printf("  tensor data      %llu, op buffers %llu (before reuse)\n",
	       (unsigned long long)r->tensor_data, (unsigned long long)r->buffers);
	printf("  vertex state     %llu, exchange records %llu, control program %llu (in the binary)\n",
	       (unsigned long long)r->vertex_state, (unsigned long long)r->exchange,
	       (unsigned long long)r->control_program);
	printf("  tile      total  always-live  not-always-live  vertices\n");
	for (unsigned i = 0; i < ntop; i++) {
		const struct ipu_tile_memory *m = &r->tile[top[i]];

		printf("  %4u %10u %12u %16u %9u\n", m->tile, m->total, m->always_live,
		       m->not_always_live, m->vertices);
	}
}

/* --memory: the graph binary's memory report; the exit code */
static int memory_graph(const struct run_config *cfg)
{
	struct ipu_error err = { 0, "" };
	struct ipu_memory_report r;
	unsigned top[MEM_TOP_TILES], ntop;
	size_t len;
	void *bin;

	if (read_binary(cfg->graph, &bin, &len))
		return EXIT_RUNTIME;
	if (ipu_graph_binary_memory_report(bin, len, &r, &err)) {
		fprintf(stderr, "ipu-run: %s: %s\n", cfg->graph, err.msg);
		free(bin);
		return EXIT_RUNTIME;
	}
	free(bin);
	ntop = mem_top(&r, top);
	if (cfg->json)
		mem_print_json(cfg, &r, top, ntop);
	else
		mem_print_text(cfg, &r, top, ntop);
	ipu_memory_report_free(&r);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct run_config cfg;
	struct ipu_device *d = NULL;
	int rc = parse_args(argc, argv, &cfg);

	if (rc == TOOL_CONTINUE && cfg.memory) {
		rc = memory_graph(&cfg);
		run_config_free(&cfg);
		return rc;
	}
	if (rc == TOOL_CONTINUE)
		rc = open_and_load(&cfg, &d);
	if (rc == TOOL_CONTINUE)
		rc = cfg.list ? list_graph(d) : run_graph(&cfg, d);
	ipu_device_close(d);
	run_config_free(&cfg);
	return rc;
}
