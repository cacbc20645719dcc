// SPDX-License-Identifier: MIT
/*
 * ipu-mkgraph: write an example graph binary (and random inputs for it as
 * .npy files) with libipudev's graph builder, for ipu-run and for trying a
 * card: a partitioned matmul, a two-layer MLP, an elementwise add, each on
 * one IPU or spread over N (--ipus), or an all-reduce across N IPUs.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ipudev.h"

static const char *prog = "ipu-mkgraph";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: ipu-mkgraph [options] KIND OUT.ipug\n"
"Write an example graph binary for ipu-run, with random inputs.\n"
"\n"
"Kinds:\n"
"  matmul     c = a x b, f32, partitioned over the tiles (--size M,K,N)\n"
"  mlp        y = relu(relu(x w1 + b1) w2 + b2) (--size BATCH,IN,HIDDEN;\n"
"             the output has HIDDEN columns too)\n"
"  add        c = a + b elementwise over all tiles (--size ELEMENTS)\n"
"  allreduce  y = x all-reduced: x is [N, ELEMENTS] with row i on IPU i,\n"
"             every row of y the sum of x's rows, over the IPU-Links\n"
"             (--size ELEMENTS; needs --ipus N of 2 or more)\n"
"\n"
"  -m, --model NAME   chip model: %s (default %s)\n"
"  -n, --ipus N       a graph binary for N IPUs (1, 2, 4, 8, 16; default 1):\n"
"                     matmul, mlp and add spread over the tiles of all N\n"
"                     (their exchanges cross the IPU-Links); run it on a\n"
"                     device of N IPUs (ipu-run --ipus N, or -d ID)\n"
"  -s, --size LIST    sizes, comma-separated (defaults: 256,512,128 /\n"
"                     64,256,128 / 1048576 / 65536)\n"
"  -i, --inputs DIR   also write each input tensor as DIR/NAME.npy\n"
"      --seed N       seed of the random inputs (default 1)\n"
"  -h, --help         this help\n"
"\n"
"Exit status: 0 ok, 1 the graph could not be built or written, 2 usage.\n"
"Example: ipu-mkgraph -i in matmul mm.ipug &&\n"
"         ipu-run mm.ipug --in a=in/a.npy --in b=in/b.npy --out c=c.npy\n"
"         ipu-mkgraph --ipus 4 -i in allreduce ar.ipug &&\n"
"         ipu-run --ipus 4 ar.ipug --in x=in/x.npy --out y=y.npy\n",
		tool_model_names(), TOOL_DEFAULT_MODEL);
}

struct input {
	const char *name;
	int tensor;
};

/* xorshift, so the inputs are the same on every host */
static float next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (float)((*s >> 40) & 0xffff) / 32768.0f - 1.0f;
}

static int write_input(struct ipu_graph *g, const char *dir,
		       const struct input *in, uint64_t *seed,
		       struct ipu_error *err)
{
	struct ipu_tensor_desc d;
	uint64_t shape[IPU_MAX_RANK];
	char path[PATH_MAX];
	float *data;
	int ret;

	ret = ipu_graph_tensor_desc(g, in->tensor, &d, err);
	if (ret)
		return ret;
	data = malloc(d.elements * sizeof(float) + 1);
	if (!data)
		return -ENOMEM;
	for (uint64_t i = 0; i < d.elements; i++)
		data[i] = next_rand(seed);
	for (unsigned r = 0; r < d.rank; r++)
		shape[r] = d.shape[r];
	snprintf(path, sizeof(path), "%s/%s.npy", dir, in->name);
	ret = ipu_npy_write(path, IPU_DTYPE_F32, d.rank, shape, data, err);
	free(data);
	return ret;
}

/* A tensor of rank 2 spread over the tiles and writable by the host. */
static int input2(struct ipu_graph *g, const char *name, uint32_t r,
		  uint32_t c, struct ipu_error *err)
{
	uint32_t shape[2] = { r, c };
	int t = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 2, shape, err);

	if (t < 0 || ipu_graph_map_linear(g, t, 0, err) < 0 ||
	    ipu_graph_expose(g, t, NULL, IPU_HANDLE_WRITE, err) < 0)
		return -EINVAL;
	return t;
}

/*
 * x [N, @n] of a graph of N IPUs (*@x), row i on IPU i and writable by the
 * host, all-reduced over the IPUs (a ring through the links) into y: every
 * row of y is the sum of the rows of x. Returns y's id, -EDOM after a usage
 * message (a graph of one IPU), or a negative errno.
 */
static int all_reduce_input(struct ipu_graph *g, int seq, uint32_t n, int *x,
			    struct ipu_error *err)
{
	uint32_t shape[2] = { ipu_graph_ipus(g), n };

	if (shape[0] < 2)
		return tool_usage_error(prog, "allreduce needs --ipus 2 or more") ?
		       -EDOM : 0;
	*x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 2, shape, err);
	if (*x < 0 || ipu_graph_map_rows_to_ipus(g, *x, 0, err) < 0 ||
	    ipu_graph_expose(g, *x, NULL, IPU_HANDLE_WRITE, err) < 0)
		return -EINVAL;
	return ipu_all_reduce(g, seq, *x, IPU_COLL_SUM, IPU_COLL_AUTO, "y", err);
}

static int build(struct ipu_graph *g, const char *kind, const uint32_t *sz,
		 struct input *in, unsigned *nin, struct ipu_error *err)
{
	int seq = ipu_prog_sequence(g, err), out = -1;

	if (seq < 0)
		return seq;
	*nin = 0;
	if (!strcmp(kind, "matmul")) {
		struct ipu_matmul_plan plan;
		int a, b;

		if (ipu_matmul_plan(g, sz[0], sz[2], sz[1], IPU_DTYPE_F32, &plan,
				    err))
			return -EINVAL;
		a = ipu_matmul_create_lhs(g, &plan, "a", err);
		b = ipu_matmul_create_rhs(g, &plan, "b", err);
		if (a < 0 || b < 0 ||
		    ipu_graph_expose(g, a, NULL, IPU_HANDLE_WRITE, err) < 0 ||
		    ipu_graph_expose(g, b, NULL, IPU_HANDLE_WRITE, err) < 0)
			return -EINVAL;
		in[(*nin)++] = (struct input){ "a", a };
		in[(*nin)++] = (struct input){ "b", b };
		out = ipu_matmul(g, seq, a, b, "c", &plan, err);
	} else if (!strcmp(kind, "mlp")) {
		int x = input2(g, "x", sz[0], sz[1], err);
		int w1 = input2(g, "w1", sz[1], sz[2], err);
		int w2 = input2(g, "w2", sz[2], sz[2], err);
		int b1 = input2(g, "b1", 1, sz[2], err);
		int b2 = input2(g, "b2", 1, sz[2], err);
		int h;

		if (x < 0 || w1 < 0 || w2 < 0 || b1 < 0 || b2 < 0)
			return -EINVAL;
		in[(*nin)++] = (struct input){ "x", x };
		in[(*nin)++] = (struct input){ "w1", w1 };
		in[(*nin)++] = (struct input){ "b1", b1 };
		in[(*nin)++] = (struct input){ "w2", w2 };
		in[(*nin)++] = (struct input){ "b2", b2 };
		h = ipu_matmul(g, seq, x, w1, "h", NULL, err);
		if (h < 0 || ipu_binary(g, seq, IPU_OP_ADD, h, b1, NULL, err) < 0 ||
		    ipu_unary(g, seq, IPU_OP_RELU, h, NULL, err) < 0)
			return -EINVAL;
		out = ipu_matmul(g, seq, h, w2, "y", NULL, err);
		if (out < 0 ||
		    ipu_binary(g, seq, IPU_OP_ADD, out, b2, NULL, err) < 0 ||
		    ipu_unary(g, seq, IPU_OP_RELU, out, NULL, err) < 0)
			return -EINVAL;
	} else if (!strcmp(kind, "add")) {
		int a = input2(g, "a", 1, sz[0], err);
		int b = input2(g, "b", 1, sz[0], err);

		if (a < 0 || b < 0)
			return -EINVAL;
		in[(*nin)++] = (struct input){ "a", a };
		in[(*nin)++] = (struct input){ "b", b };
		out = ipu_binary(g, seq, IPU_OP_ADD, a, b, "c", err);
	} else if (!strcmp(kind, "allreduce")) {
		int x = -1;

		out = all_reduce_input(g, seq, sz[0], &x, err);
		if (out == -EDOM)
			return out;
		if (x >= 0)
			in[(*nin)++] = (struct input){ "x", x };
	} else {
		return tool_usage_error(prog, "unknown kind '%s'", kind) ? -EDOM : 0;
	}
	if (out < 0 || ipu_graph_expose(g, out, NULL, IPU_HANDLE_READ, err) < 0 ||
	    ipu_graph_add_program(g, kind, seq, err) < 0)
		return -EINVAL;
	return 0;
}

/* What the command line asks for. */
struct mkgraph_config {
	uint32_t model;		/* chip model id */
	const char *dir;	/* --inputs DIR, NULL: no .npy files */
	const char *kind;	/* matmul, mlp, add, allreduce (checked by build()) */
	unsigned ipus;		/* --ipus: 1, 2, 4, 8, 16 */
	const char *path;	/* the graph binary to write */
	uint32_t sz[3];		/* --size, defaults filled in */
	unsigned seed;
};

/* --size LIST (up to 3 numbers, 1 to 2^26) into @sz; EXIT_USAGE if bad. */
static int parse_sizes(const char *arg, uint32_t *sz)
{
	const char *p = arg;
	char *end;

	for (int i = 0; i < 3 && *p; i++) {
		unsigned long v = strtoul(p, &end, 10);

		if (end == p || !v || v > (1ul << 26) || (*end && *end != ','))
			return tool_usage_error(prog, "bad --size '%s'", arg);
		sz[i] = v;
		p = *end ? end + 1 : end;
	}
	return TOOL_CONTINUE;
}

/* Sizes not given: the kind's defaults, or the last size given repeated. */
static void default_sizes(const char *kind, uint32_t *sz)
{
	if (!sz[0]) {
		uint32_t d[3] = { 256, 512, 128 };

		if (!strcmp(kind, "mlp"))
			d[0] = 64, d[1] = 256, d[2] = 128;
		else if (!strcmp(kind, "add"))
			d[0] = 1u << 20;
		else if (!strcmp(kind, "allreduce"))
			d[0] = 1u << 16;
		memcpy(sz, d, sizeof(d));
	}
	for (int i = 1; i < 3; i++)
		if (!sz[i])
			sz[i] = sz[i - 1];
}

/*
 * Fill @cfg from the command line. Returns TOOL_CONTINUE, or the exit code
 * after --help or a usage error (reported on stderr).
 */
static int parse_args(int argc, char **argv, struct mkgraph_config *cfg)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "ipus", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, 's' },
		{ "inputs", required_argument, NULL, 'i' },
		{ "seed", required_argument, NULL, 'S' },
		TOOL_OPT_HELP,
		{ NULL, 0, NULL, 0 },
	};
	const char *model = TOOL_DEFAULT_MODEL;
	int opt;

	*cfg = (struct mkgraph_config){ .seed = 1, .ipus = 1 };
	while ((opt = getopt_long(argc, argv, ":m:n:s:i:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			model = optarg;
			break;
		case 'n':
			if (tool_parse_uint(optarg, 16, &cfg->ipus) ||
			    (cfg->ipus & (cfg->ipus - 1)) || !cfg->ipus)
				return tool_usage_error(prog, "bad --ipus '%s': 1, 2, 4, 8 or 16",
							optarg);
			break;
		case 's':
			if (parse_sizes(optarg, cfg->sz) != TOOL_CONTINUE)
				return EXIT_USAGE;
			break;
		case 'i':
			cfg->dir = optarg;
			break;
		case 'S':
			if (tool_parse_uint(optarg, UINT_MAX, &cfg->seed))
				return tool_usage_error(prog, "bad --seed '%s'",
							optarg);
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return tool_bad_option(prog, opt, argv);
		}
	}
	if (argc - optind != 2)
		return tool_usage_error(prog, "give KIND and OUT.ipug");
	cfg->kind = argv[optind];
	cfg->path = argv[optind + 1];
	default_sizes(cfg->kind, cfg->sz);
	if (ipu_model_from_name(model, &cfg->model))
		return tool_usage_error(prog, "unknown model '%s'", model);
	return TOOL_CONTINUE;
}

/*
 * Build the graph of @cfg, write it and its inputs. Returns the exit code:
 * EXIT_USAGE for an unknown kind, EXIT_RUNTIME for anything else that
 * failed (reported on stderr).
 */
static int make_graph(const struct mkgraph_config *cfg)
{
	struct ipu_error err = { 0, "" };
	struct input in[8];
	struct ipu_graph *g;
	unsigned nin = 0;
	uint64_t s;
	int ret;

	if (ipu_graph_create_multi(cfg->model, cfg->ipus, &g, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return EXIT_RUNTIME;
	}
	ret = build(g, cfg->kind, cfg->sz, in, &nin, &err);
	if (ret == -EDOM) {
		ipu_graph_free(g);
		return EXIT_USAGE;
	}
	if (!ret)
		ret = ipu_graph_write_file(g, cfg->path, &err);
	s = 0x9e3779b97f4a7c15ull * (cfg->seed + 1);
	for (unsigned i = 0; !ret && cfg->dir && i < nin; i++)
		ret = write_input(g, cfg->dir, &in[i], &s, &err);
	ipu_graph_free(g);
	if (ret) {
		fprintf(stderr, "%s: %s %s: %s\n", prog, cfg->kind, cfg->path,
			err.msg[0] ? err.msg : strerror(-ret));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct mkgraph_config cfg;
	int ret = parse_args(argc, argv, &cfg);

	if (ret != TOOL_CONTINUE)
		return ret;
	return make_graph(&cfg);
}
