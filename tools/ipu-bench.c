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
 * when the driver has one) against a null ioctl (IPU_IOCTL_NULL), the same
 * round trip with the library forced to SUBMIT (IPUDEV_RUNQ=kernel, on the
 * device opened again) and, as a reference, memcpy bandwidth in this
 * process.
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

#include "common.h"
#include "ipudev.h"
#include "uapi/linux/ipu.h"

#define PROG "ipu-bench"
#define KINDS 3
static const char *const kind_names[KINDS] = { "mapped", "pinned", "user" };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ipu-bench [-d N] [--min SIZE] [--max SIZE] [--kinds LIST]\n"
		"                 [--time MS] [--latency-iters N] [--json]\n"
		"Measure host-to-card and card-to-host bandwidth and command latency of\n"
		"card ipuN (default 0). SIZE takes K, M, G suffixes (KiB, MiB, GiB).\n"
		"The empty-program round trip is measured as ipu_run() does it (the user\n"
		"queue when the driver has one), then again with the device opened anew\n"
		"with IPUDEV_RUNQ=kernel (through SUBMIT).\n\n"
		"  -d, --device N         the card (default 0)\n"
		"      --min SIZE         smallest transfer (default 4K)\n"
		"      --max SIZE         largest transfer (default 256M, less when the\n"
		"                         card's memory is smaller)\n"
		"  -k, --kinds LIST       buffer kinds, comma-separated: mapped (driver\n"
		"                         buffer), pinned (ipu_buffer_pin), user (plain\n"
		"                         memory); default all\n"
		"  -t, --time MS          time per measurement (default 250)\n"
		"  -n, --latency-iters N  round trips for the latency figures (default 2000)\n"
		"  -j, --json             print JSON\n"
		"  -h, --help             this help\n"
		"  -V, --version          library version\n\n"
		"Exit status: 0 ok, 1 runtime error, 2 usage error, 3 no such card.\n");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void lat_of(double *v, unsigned n, struct lat *l)
{
	double s = 0;

	qsort(v, n, sizeof(*v), cmp_double);
	for (unsigned i = 0; i < n; i++)
		s += v[i];
	l->iters = n;
	l->mean_us = n ? s / n * 1e6 : 0;
	l->median_us = n ? v[n / 2] * 1e6 : 0;
	l->min_us = n ? v[0] * 1e6 : 0;
}

static int build_graph(uint32_t model, uint64_t bytes, void **bin, size_t *len,
		       struct ipu_error *err);

/* @n ipu_run() round trips of program @prog (after 20 to warm up) into @l */
static int run_latency(struct ipu_device *d, unsigned prog, unsigned n, double *v,
		       struct lat *l, struct ipu_error *err)
{
	for (unsigned i = 0; i < 20; i++)
		if (ipu_run(d, prog, 1, NULL, err))
			return -1;
	for (unsigned i = 0; i < n; i++) {
		double t0 = now_s();

		if (ipu_run(d, prog, 1, NULL, err))
			return -1;
		v[i] = now_s() - t0;
	}
	lat_of(v, n, l);
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
	double t0 = now_s(), t;
	unsigned n = 0;
	int r;

	do {
		r = write ? ipu_tensor_write_at(d, "data", 0, p, size, err)
			  : ipu_tensor_read_at(d, "data", 0, p, size, err);
		if (r)
			return r;
		n++;
		t = now_s() - t0;
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
	t0 = now_s();
	do {
		memcpy(b, a, size);
		a[n % size] ^= b[(n * 7) % size];	/* keep the copies */
		n++;
		t = now_s() - t0;
	} while (t < min_s || n < 2);
	free(a);
	free(b);
	return (double)size * n / t / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "min", required_argument, NULL, 1 },
		{ "max", required_argument, NULL, 2 },
		{ "kinds", required_argument, NULL, 'k' },
		{ "time", required_argument, NULL, 't' },
		{ "latency-iters", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned devid = 0, time_ms = 250, lat_iters = 2000;
	uint64_t minsz = 4096, maxsz = 256ull << 20, cap;
	int json = 0, kinds[KINDS] = { 1, 1, 1 }, rc = EXIT_RUNTIME, c, nnull = 0;
	struct ipu_device *d = NULL;
	struct ipu_device_info info;
	struct ipu_buffer *buf[KINDS] = { NULL, NULL, NULL };
	uint8_t *mem[KINDS] = { NULL, NULL, NULL };
	struct ipu_error e;
	struct bw *res = NULL;
	size_t nres = 0;
	struct lat lrun = { 0 }, lnull = { 0 }, lsubmit = { 0 };
	double *v = NULL, mcpy = 0;
	void *bin = NULL;
	size_t binlen;
	char devnode[64];
	int prog;

	while ((c = getopt_long(argc, argv, "d:k:t:n:jhV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (tool_parse_uint(optarg, 1u << 20, &devid)) {
				fprintf(stderr, PROG ": --device: '%s' is not a card number\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 1:
		case 2:
			if (parse_size(optarg, c == 1 ? &minsz : &maxsz)) {
				fprintf(stderr, PROG ": --%s: '%s' is not a size\n",
					c == 1 ? "min" : "max", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'k': {
			char *s = strdup(optarg), *tok, *save = NULL;

			memset(kinds, 0, sizeof(kinds));
			for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				int k;

				for (k = 0; k < KINDS && strcmp(tok, kind_names[k]); k++)
					;
				if (k == KINDS) {
					fprintf(stderr, PROG ": --kinds: unknown kind '%s' (mapped, pinned, user)\n", tok);
					free(s);
					return EXIT_USAGE;
				}
				kinds[k] = 1;
			}
			free(s);
			break;
		}
		case 't':
			if (tool_parse_uint(optarg, 600000, &time_ms) || !time_ms) {
				fprintf(stderr, PROG ": --time: '%s' is not a time in ms\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'n':
			if (tool_parse_uint(optarg, 10000000, &lat_iters) || !lat_iters) {
				fprintf(stderr, PROG ": --latency-iters: '%s' is not a count\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("ipu-bench (libipudev %s)\n", ipu_version());
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (minsz > maxsz || (minsz & 3) || (maxsz & 3)) {
		fprintf(stderr, PROG ": --min must not exceed --max; sizes are multiples of 4\n");
		return EXIT_USAGE;
	}

	if (ipu_device_open(devid, IPU_OPEN_ATTACH, &d, &e)) {
		fprintf(stderr, PROG ": %s\n", e.msg);
		if (e.code == -ENODEV && !strstr(e.msg, "not open"))
			fprintf(stderr, PROG ": " TOOL_HINT_NO_DRIVER "\n");
		return e.code == -ENODEV ? EXIT_NODEV : EXIT_RUNTIME;
	}
	if (ipu_device_info(d, &info, &e))
		goto fail;
	/* the tensor may take at most half of the card's memory */
	cap = 4096;
	while (cap * 2 <= info.total_memory / 2)
		cap *= 2;
	if (maxsz > cap)
		maxsz = cap;
	if (minsz > maxsz)
		minsz = maxsz;
	if (build_graph(info.model, maxsz, &bin, &binlen, &e) || ipu_load(d, bin, binlen, &e))
		goto fail;
	prog = ipu_program_find(d, "empty", &e);
	if (prog < 0)
		goto fail;

	for (int k = 0; k < KINDS; k++) {
		if (!kinds[k])
			continue;
		if (k == 0) {
			if (ipu_buffer_alloc(d, maxsz, &buf[k], &e))
				goto fail;
			mem[k] = ipu_buffer_ptr(buf[k]);
		} else {
			if (posix_memalign((void **)&mem[k], 4096, maxsz)) {
				fprintf(stderr, PROG ": out of memory\n");
				goto out;
			}
			memset(mem[k], 0x5a, maxsz);
			if (k == 1 && ipu_buffer_pin(d, mem[k], maxsz, &buf[k], &e))
				goto fail;
		}
	}
	for (uint64_t s = minsz; s <= maxsz; s = s * 2 > s ? s * 2 : maxsz + 1)
		nres += 2 * (size_t)(kinds[0] + kinds[1] + kinds[2]);
	res = calloc(nres ? nres : 1, sizeof(*res));
	v = calloc(lat_iters, sizeof(*v));
	if (!res || !v) {
		fprintf(stderr, PROG ": out of memory\n");
		goto out;
	}
	nres = 0;
	for (uint64_t s = minsz; s <= maxsz; s *= 2) {
		for (int k = 0; k < KINDS; k++) {
			if (!kinds[k])
				continue;
			for (int w = 1; w >= 0; w--) {
				res[nres].kind = k;
				if (measure(d, mem[k], s, w, time_ms / 1000.0, &res[nres], &e))
					goto fail;
				if (!json)
					fprintf(stderr, "%s %-6s %10llu bytes: %8.3f GB/s\n",
						w ? "h2d" : "d2h", kind_names[k],
						(unsigned long long)s, res[nres].gbps);
				nres++;
			}
		}
		if (s > UINT64_MAX / 2)
			break;
	}

	/* latency: empty program round trip, null ioctl */
	if (run_latency(d, (unsigned)prog, lat_iters, v, &lrun, &e))
		goto fail;
	snprintf(devnode, sizeof(devnode), "/dev/ipu%u", devid);
	{
		struct ipu_card *cards;
		size_t n;

		if (!ipu_enumerate(&cards, &n, NULL)) {
			for (size_t i = 0; i < n; i++)
				if (cards[i].id == devid)
					snprintf(devnode, sizeof(devnode), "%s", cards[i].devnode);
			ipu_cards_free(cards);
		}
	}
	{
		int fd = open(devnode, O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			for (unsigned i = 0; i < lat_iters; i++) {
				double t0 = now_s();

				if (ioctl(fd, IPU_IOCTL_NULL, NULL) < 0)
					break;
				v[i] = now_s() - t0;
				nnull++;
			}
			close(fd);
		}
		if (nnull)
			lat_of(v, (unsigned)nnull, &lnull);
	}
	mcpy = memcpy_gbps(maxsz < (64ull << 20) ? maxsz : 64ull << 20, time_ms / 1000.0);

	/* informational: the empty-program round trip through SUBMIT, on the
	 * device opened again with IPUDEV_RUNQ=kernel (its buffers go first) */
	for (int k = 0; k < KINDS; k++) {
		ipu_buffer_free(buf[k]);
		buf[k] = NULL;
	}
	mem[0] = NULL;
	prog = reopen_submit(devid, info.model, &d, &e);
	if (prog < 0 || run_latency(d, (unsigned)prog, lat_iters, v, &lsubmit, &e))
		goto fail;

	if (json) {
		struct jw w;

		jw_init(&w, stdout);
		jw_obj_begin(&w, NULL);
		jw_str(&w, "device", ipu_device_name(d));
		jw_str(&w, "model", ipu_model_name(info.model));
		jw_str(&w, "transfer_mode", getenv("IPUDEV_XFER") ? getenv("IPUDEV_XFER") : "auto");
		jw_str(&w, "run_queue", getenv("IPUDEV_RUNQ") ? getenv("IPUDEV_RUNQ") : "auto");
		jw_arr_begin(&w, "bandwidth");
		for (size_t i = 0; i < nres; i++) {
			jw_obj_begin(&w, NULL);
			jw_str(&w, "kind", kind_names[res[i].kind]);
			jw_str(&w, "direction", res[i].write ? "host-to-card" : "card-to-host");
			jw_u64(&w, "bytes", res[i].bytes);
			jw_u64(&w, "iterations", res[i].iters);
			jw_double(&w, "seconds", res[i].seconds);
			jw_double(&w, "gbps", res[i].gbps);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_obj_begin(&w, "latency");
		jw_obj_begin(&w, "empty_program");
		jw_u64(&w, "iterations", lrun.iters);
		jw_double(&w, "mean_us", lrun.mean_us);
		jw_double(&w, "median_us", lrun.median_us);
		jw_double(&w, "min_us", lrun.min_us);
		jw_obj_end(&w);
		jw_obj_begin(&w, "empty_program_submit");
		jw_u64(&w, "iterations", lsubmit.iters);
		jw_double(&w, "mean_us", lsubmit.mean_us);
		jw_double(&w, "median_us", lsubmit.median_us);
		jw_double(&w, "min_us", lsubmit.min_us);
		jw_obj_end(&w);
		jw_obj_begin(&w, "null_ioctl");
		jw_u64(&w, "iterations", lnull.iters);
		jw_double(&w, "mean_us", lnull.mean_us);
		jw_double(&w, "median_us", lnull.median_us);
		jw_double(&w, "min_us", lnull.min_us);
		jw_obj_end(&w);
		jw_obj_end(&w);
		jw_obj_begin(&w, "baseline");
		jw_u64(&w, "memcpy_bytes", maxsz < (64ull << 20) ? maxsz : 64ull << 20);
		jw_double(&w, "memcpy_gbps", mcpy);
		jw_obj_end(&w);
		jw_obj_end(&w);
		jw_end(&w);
	} else {
		printf("%s (%s): host <-> card bandwidth, GB/s\n", ipu_device_name(d),
		       ipu_model_name(info.model));
		printf("%-10s", "SIZE");
		for (int k = 0; k < KINDS; k++)
			if (kinds[k])
				printf("  %-8s%-8s", "H2D", kind_names[k]);
		for (int k = 0; k < KINDS; k++)
			if (kinds[k])
				printf("  %-8s%-8s", "D2H", kind_names[k]);
		printf("\n");
		for (size_t i = 0; i < nres;) {
			char sz[32];
			size_t j;

			tool_format_bytes(res[i].bytes, sz, sizeof(sz));
			printf("%-10s", sz);
			for (int w = 1; w >= 0; w--)
				for (j = i; j < nres && res[j].bytes == res[i].bytes; j++)
					if (res[j].write == w)
						printf("  %-16.3f", res[j].gbps);
			printf("\n");
			for (j = i; j < nres && res[j].bytes == res[i].bytes; j++)
				;
			i = j;
		}
		printf("\n%-23s %9s %9s %9s\n", "latency (us)", "mean", "median", "min");
		printf("%-23s %9.2f %9.2f %9.2f  (%u round trips, ipu_run)\n", "empty program",
		       lrun.mean_us, lrun.median_us, lrun.min_us, lrun.iters);
		printf("%-23s %9.2f %9.2f %9.2f  (%u round trips, IPUDEV_RUNQ=kernel)\n",
		       "empty program (SUBMIT)", lsubmit.mean_us, lsubmit.median_us,
		       lsubmit.min_us, lsubmit.iters);
		if (nnull)
			printf("%-23s %9.2f %9.2f %9.2f  (%u calls)\n", "null ioctl", lnull.mean_us,
			       lnull.median_us, lnull.min_us, lnull.iters);
		else
			printf("%-23s n/a (IPU_IOCTL_NULL failed on %s)\n", "null ioctl", devnode);
		printf("\nmemcpy in this process: %.3f GB/s\n", mcpy);
	}
	rc = EXIT_OK;
	goto out;
fail:
	fprintf(stderr, PROG ": %s\n", e.msg);
	rc = EXIT_RUNTIME;
out:
	for (int k = 0; k < KINDS; k++) {
		ipu_buffer_free(buf[k]);
		if (k)
			free(mem[k]);
	}
	ipu_device_close(d);
	free(bin);
	free(res);
	free(v);
	return rc;
}
