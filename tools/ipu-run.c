// SPDX-License-Identifier: MIT
/*
 * ipu-run: run a graph binary on the model device (or a card) with inputs
 * and outputs as .npy files, and print what the run cost.
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
		"Usage: ipu-run [--model gc200|gc2|test | --device N] GRAPH\n"
		"               [--in NAME=FILE.npy]... [--out NAME=FILE.npy]...\n"
		"               [--program K|NAME] [--count N] [--threads N] [--json]\n"
		"Run entry program K (default 0) of graph binary GRAPH COUNT times\n"
		"(default 1) and print its cost: host time and modelled chip cycles.\n"
		"\n"
		"  -m, --model NAME     run on the in-process model of that chip (default gc200)\n"
		"  -d, --device N       run on card ipuN\n"
		"  -i, --in NAME=FILE   write FILE (.npy, <f4/<f2/<i4, C order) into tensor NAME\n"
		"                       before the run; dtype and shape must match the tensor\n"
		"  -o, --out NAME=FILE  save tensor NAME to FILE (.npy) after the run\n"
		"  -p, --program K      entry program by index or name\n"
		"  -c, --count N        run the program N times\n"
		"  -t, --threads N      host threads of the model device (default: all cores)\n"
		"  -j, --json           print the result as JSON\n"
		"  -l, --list           list the graph's host-visible tensors and programs\n"
		"  -h, --help           this help\n"
		"Exit status: 0 success, 1 run-time failure, 2 usage error.\n");
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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "device", required_argument, NULL, 'd' },
		{ "in", required_argument, NULL, 'i' },
		{ "out", required_argument, NULL, 'o' },
		{ "program", required_argument, NULL, 'p' },
		{ "count", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *model = NULL, *graph, *progarg = NULL;
	unsigned devid = 0, count = 1, threads = 0, program = 0;
	int use_dev = 0, json = 0, do_list = 0, c, rc = EXIT_RUNTIME;
	struct io in[MAX_IO], out[MAX_IO];
	unsigned nin = 0, nout = 0;
	struct ipu_error err = { 0, "" };
	struct ipu_device *d = NULL;
	struct ipu_run_stats st;
	char pname[256] = "";

	while ((c = getopt_long(argc, argv, "m:d:i:o:p:c:t:jlh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			model = optarg;
			break;
		case 'd':
			if (tool_parse_uint(optarg, 1u << 20, &devid)) {
				fprintf(stderr, "ipu-run: --device: '%s' is not a device number\n", optarg);
				return EXIT_USAGE;
			}
			use_dev = 1;
			break;
		case 'i':
		case 'o':
			if ((c == 'i' ? nin : nout) >= MAX_IO ||
			    split_io(optarg, c == 'i' ? &in[nin] : &out[nout])) {
				fprintf(stderr, "ipu-run: --%s: expected NAME=FILE.npy, got '%s'\n",
					c == 'i' ? "in" : "out", optarg);
				return EXIT_USAGE;
			}
			if (c == 'i')
				nin++;
			else
				nout++;
			break;
		case 'p':
			progarg = optarg;
			break;
		case 'c':
			if (tool_parse_uint(optarg, 1u << 30, &count) || !count) {
				fprintf(stderr, "ipu-run: --count: '%s' is not a count >= 1\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 't':
			if (tool_parse_uint(optarg, 64, &threads)) {
				fprintf(stderr, "ipu-run: --threads: '%s' is not a number of threads (0-64)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			json = 1;
			break;
		case 'l':
			do_list = 1;
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
	if (use_dev && model) {
		fprintf(stderr, "ipu-run: --model and --device exclude each other\n");
		return EXIT_USAGE;
	}
	graph = argv[optind];
	if (!use_dev && !model)
		model = "gc200";

	if (use_dev ? ipu_device_open(devid, 0, &d, &err) : ipu_model_open(model, threads, &d, &err)) {
		fprintf(stderr, "ipu-run: %s\n", err.msg);
		return use_dev && err.code == -ENODEV ? EXIT_NODEV : (err.code == -EINVAL && !use_dev ? EXIT_USAGE : EXIT_RUNTIME);
	}
	if (ipu_load_file(d, graph, &err)) {
		fprintf(stderr, "ipu-run: %s\n", err.msg);
		goto out;
	}
	if (do_list) {
		if (list(d, &err)) {
			fprintf(stderr, "ipu-run: %s\n", err.msg);
			goto out;
		}
		rc = EXIT_OK;
		goto out;
	}
	if (progarg) {
		if (tool_parse_uint(progarg, 1u << 30, &program)) {
			int k = ipu_program_find(d, progarg, &err);

			if (k < 0) {
				fprintf(stderr, "ipu-run: --program: %s\n", err.msg);
				rc = EXIT_USAGE;
				goto out;
			}
			program = (unsigned)k;
		}
	}
	if (ipu_program_name(d, program, pname, sizeof(pname), &err)) {
		fprintf(stderr, "ipu-run: --program: %s\n", err.msg);
		rc = EXIT_USAGE;
		goto out;
	}
	/* inputs: dtype and shape must match */
	for (unsigned i = 0; i < nin; i++) {
		struct ipu_tensor_info ti;
		struct ipu_npy a;
		uint64_t s[6];
		char sa[128], st_[128];
		int bad = 0;

		if (ipu_tensor_lookup(d, in[i].name, &ti, &err)) {
			fprintf(stderr, "ipu-run: --in %s: %s\n", in[i].name, err.msg);
			goto out;
		}
		if (ipu_npy_read(in[i].path, &a, &err)) {
			fprintf(stderr, "ipu-run: --in %s: %s\n", in[i].name, err.msg);
			goto out;
		}
		tensor_shape(&ti, s);
		shape_str(sa, sizeof(sa), a.ndim, a.shape);
		shape_str(st_, sizeof(st_), ti.rank, s);
		if (a.dtype != ti.dtype) {
			fprintf(stderr, "ipu-run: --in %s=%s: dtype %s (%s) does not match tensor '%s' (%s, %s)\n",
				in[i].name, in[i].path, ipu_npy_descr((int)a.dtype), ipu_dtype_name(a.dtype),
				ti.name, ipu_dtype_name(ti.dtype), ipu_npy_descr((int)ti.dtype));
			bad = 1;
		} else if (a.ndim != ti.rank || memcmp(a.shape, s, sizeof(uint64_t) * ti.rank)) {
			fprintf(stderr, "ipu-run: --in %s=%s: shape %s does not match tensor '%s' shape %s\n",
				in[i].name, in[i].path, sa, ti.name, st_);
			bad = 1;
		}
		if (!bad && ipu_tensor_write(d, in[i].name, a.data, a.bytes, &err)) {
			fprintf(stderr, "ipu-run: --in %s: %s\n", in[i].name, err.msg);
			bad = 1;
		}
		ipu_npy_free(&a);
		if (bad)
			goto out;
	}
	/* outputs must exist and be readable before the run */
	for (unsigned i = 0; i < nout; i++) {
		struct ipu_tensor_info ti;

		if (ipu_tensor_lookup(d, out[i].name, &ti, &err)) {
			fprintf(stderr, "ipu-run: --out %s: %s\n", out[i].name, err.msg);
			goto out;
		}
		if (!(ti.access & IPU_HANDLE_READ)) {
			fprintf(stderr, "ipu-run: --out %s: tensor '%s' is not readable by the host\n",
				out[i].name, ti.name);
			goto out;
		}
	}
	if (ipu_run(d, program, count, &st, &err)) {
		fprintf(stderr, "ipu-run: %s\n", err.msg);
		goto out;
	}
	for (unsigned i = 0; i < nout; i++) {
		struct ipu_tensor_info ti;
		uint64_t s[6];
		void *buf;

		if (ipu_tensor_lookup(d, out[i].name, &ti, &err))
			goto out;
		buf = malloc(ti.bytes ? ti.bytes : 1);
		if (!buf) {
			fprintf(stderr, "ipu-run: --out %s: out of memory\n", out[i].name);
			goto out;
		}
		tensor_shape(&ti, s);
		if (ipu_tensor_read(d, out[i].name, buf, ti.bytes, &err) ||
		    ipu_npy_write(out[i].path, (int)ti.dtype, ti.rank, s, buf, &err)) {
			fprintf(stderr, "ipu-run: --out %s: %s\n", out[i].name, err.msg);
			free(buf);
			goto out;
		}
		free(buf);
	}
	{
		double us = st.clock_khz ? (double)st.cycles / st.clock_khz * 1e3 : 0;

		if (json) {
			struct jw w;

			jw_init(&w, stdout);
			jw_obj_begin(&w, NULL);
			jw_str(&w, "graph", graph);
			jw_str(&w, "device", ipu_device_name(d));
			jw_u64(&w, "program", program);
			jw_str(&w, "program_name", pname);
			jw_u64(&w, "count", count);
			jw_u64(&w, "host_ns", st.host_ns);
			jw_u64(&w, "cycles", st.cycles);
			jw_u64(&w, "cycles_compute", st.cycles_compute);
			jw_u64(&w, "cycles_exchange", st.cycles_exchange);
			jw_u64(&w, "cycles_sync", st.cycles_sync);
			jw_u64(&w, "cycles_stream", st.cycles_stream);
			jw_u64(&w, "clock_khz", st.clock_khz);
			jw_double(&w, "modelled_us", us);
			jw_u64(&w, "steps", st.steps);
			jw_u64(&w, "compute_sets", st.compute_sets);
			jw_u64(&w, "exchanges", st.exchanges);
			jw_u64(&w, "syncs", st.syncs);
			jw_u64(&w, "exchange_bytes", st.exchange_bytes);
			jw_u64(&w, "stream_bytes_h2d", st.stream_bytes_h2d);
			jw_u64(&w, "stream_bytes_d2h", st.stream_bytes_d2h);
			jw_obj_end(&w);
			jw_end(&w);
		} else {
			printf("program %u (%s) x%u on %s\n", program, pname, count, ipu_device_name(d));
			printf("  host time        %.3f ms\n", st.host_ns * 1e-6);
			printf("  modelled cycles  %llu (%.2f us at %.0f MHz)\n", (unsigned long long)st.cycles,
			       us, st.clock_khz / 1e3);
			/*
			 * A card reports the phases from its run records
			 * (interface and uAPI 1.2); an older card or driver
			 * gives the total only: cycles, every phase 0.
			 */
			if (st.cycles && !st.cycles_compute && !st.cycles_exchange &&
			    !st.cycles_sync && !st.cycles_stream) {
				printf("  (this device reports no per-phase breakdown)\n");
			} else {
				printf("    compute        %llu\n", (unsigned long long)st.cycles_compute);
				printf("    exchange       %llu\n", (unsigned long long)st.cycles_exchange);
				printf("    sync           %llu\n", (unsigned long long)st.cycles_sync);
				printf("    stream         %llu\n", (unsigned long long)st.cycles_stream);
				printf("  phases           %llu compute sets, %llu exchanges, %llu syncs\n",
				       (unsigned long long)st.compute_sets,
				       (unsigned long long)st.exchanges,
				       (unsigned long long)st.syncs);
				printf("  exchanged        %llu bytes\n",
				       (unsigned long long)st.exchange_bytes);
				if (st.stream_bytes_h2d || st.stream_bytes_d2h)
					printf("  streamed         %llu bytes to the device, %llu to the host\n",
					       (unsigned long long)st.stream_bytes_h2d,
					       (unsigned long long)st.stream_bytes_d2h);
			}
		}
	}
	rc = EXIT_OK;
out:
	ipu_device_close(d);
	for (unsigned i = 0; i < nin; i++)
		free((void *)in[i].name);
	for (unsigned i = 0; i < nout; i++)
		free((void *)out[i].name);
	return rc;
}
