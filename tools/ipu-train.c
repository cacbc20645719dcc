// SPDX-License-Identifier: MIT
/*
 * ipu-train: train a model on the digits data set on the model device or
 * a card, printing loss, accuracies and samples/s per epoch.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ipu/ipu_models.h"
#include "train_graph.h"
#include "train_session.h"

#define TRAIN_DEFAULT_BATCH	32
#define TRAIN_DEFAULT_SEED	1
#define TRAIN_MAX_EPOCHS	100000

struct train_config {
	const struct train_model *model;
	bool use_dev;
	unsigned devid;
	const char *chip;	/* model device's chip */
	unsigned threads, epochs, batch, seed;
	unsigned replicas;	/* data-parallel replicas, 1 = none */
	unsigned ipus;		/* the model device's IPUs, 0 = the replicas */
	float lr;
	const char *data, *save_dir, *dump_dir;
	bool json;
};

static void usage(FILE *f)
{
	const struct train_model *m;

	fprintf(f,
		"Usage: ipu-train digits --model NAME [--device model|N] [--replicas R]\n"
		"                 [--ipus N] [--epochs E] [--batch B] [--lr LR] [--seed S]\n"
		"                 [--chip NAME] [--threads N] [--data FILE]\n"
		"                 [--save-weights DIR] [--dump DIR] [--json]\n"
		"Train a model on the digits data set (8x8 images, 10 classes; a fixed split\n"
		"of 1437 training and 360 test images) with SGD (momentum %.1f) and mean\n"
		"cross-entropy; print per epoch the mean loss, the accuracy on the training\n"
		"and the test set and the training samples per second.\n"
		"\n"
		"  -m, --model NAME      the model:\n", TRAIN_MOMENTUM);
	/* the defaults on a line of their own after a long description */
	for (unsigned i = 0; (m = train_model_at(i)); i++)
		fprintf(f, "                          %-8s %s%s(%u epochs, lr %g)\n",
			m->name, m->what,
			strlen(m->what) > 40 ? "\n                                   " : " ",
			m->epochs, m->lr);
	fprintf(f,
		"  -d, --device model|N  the in-process model device (default) or device id N:\n"
		"                        card ipuN, or a multi-IPU device (ipu-info -l)\n"
		"  -r, --replicas R      data-parallel over R IPUs (1, 2, 4, 8, 16; default 1):\n"
		"                        each replica trains on its slice of the batch, the\n"
		"                        gradients are averaged over the IPU-Links every step\n"
		"  -i, --ipus N          the model device's IPUs (default: the replicas)\n"
		"  -c, --chip NAME       the model device's chip: %s (default %s)\n"
		"  -t, --threads N       host threads of the model device (default: all cores)\n"
		"  -e, --epochs E        epochs (default: the model's)\n"
		"  -b, --batch B         training batch, 1-1437 (default %u; the last partial\n"
		"                        batch of an epoch is dropped)\n"
		"  -l, --lr LR           learning rate (default: the model's)\n"
		"  -s, --seed S          initial weights and batch order (default %u)\n"
		"  -D, --data FILE       the data set (default %s)\n"
		"  -w, --save-weights DIR  each weight tensor as DIR/NAME.npy after training\n"
		"  -u, --dump DIR        what a reference needs to repeat the run: init_NAME.npy,\n"
		"                        x_train.npy, y_train.npy, order.npy, loss.npy (per step)\n"
		"  -j, --json            one JSON record per epoch (one line each)\n"
		"  -h, --help            this help\n"
		"Exit status: 0 success, 1 run-time failure (data file, device), 2 usage error,\n"
		"3 no such card.\n",
		tool_model_names(), TOOL_DEFAULT_MODEL, TRAIN_DEFAULT_BATCH, TRAIN_DEFAULT_SEED,
		DIGITS_DEFAULT_PATH);
}

/* --lr: a finite number > 0 and at most 10, nothing after it. */
static int parse_lr(const char *s, float *out)
{
	char *end;
	float v;

	errno = 0;
	v = strtof(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v <= 0 || v > 10)
		return -1;
	*out = v;
	return 0;
}

/* One option of @c with argument @arg into @cfg; TOOL_CONTINUE or EXIT_USAGE. */
static int set_option(struct train_config *cfg, int c, const char *arg)
{
	switch (c) {
	case 'm':
		cfg->model = train_model_find(arg);
		if (!cfg->model)
			return tool_usage_error("ipu-train", "--model: unknown model '%s'", arg);
		return TOOL_CONTINUE;
	case 'd':
		cfg->use_dev = strcmp(arg, "model") != 0;
		if (cfg->use_dev && tool_parse_uint(arg, 0xffffff, &cfg->devid))
			return tool_usage_error("ipu-train", "--device: '%s' is neither 'model' nor a card number", arg);
		return TOOL_CONTINUE;
	case 'c':
		cfg->chip = arg;
		if (!ipu_model_by_name(arg))
			return tool_usage_error("ipu-train", "--chip: unknown chip '%s' (known: %s)",
						arg, tool_model_names());
		return TOOL_CONTINUE;
	case 't':
		if (tool_parse_uint(arg, 64, &cfg->threads))
			return tool_usage_error("ipu-train", "--threads: '%s' is not a number of threads (0-64)", arg);
		return TOOL_CONTINUE;
	case 'e':
		if (tool_parse_uint(arg, TRAIN_MAX_EPOCHS, &cfg->epochs) || !cfg->epochs)
			return tool_usage_error("ipu-train", "--epochs: '%s' is not a number of epochs (1-%u)", arg, TRAIN_MAX_EPOCHS);
		return TOOL_CONTINUE;
	case 'b':
		if (tool_parse_uint(arg, 1437, &cfg->batch) || !cfg->batch)
			return tool_usage_error("ipu-train", "--batch: '%s' is not a batch size (1-1437)", arg);
		return TOOL_CONTINUE;
	case 'l':
		if (parse_lr(arg, &cfg->lr))
			return tool_usage_error("ipu-train", "--lr: '%s' is not a learning rate (a number > 0, at most 10)", arg);
		return TOOL_CONTINUE;
	case 's':
		if (tool_parse_uint(arg, 0xffffffffu, &cfg->seed))
			return tool_usage_error("ipu-train", "--seed: '%s' is not a seed (0-4294967295)", arg);
		return TOOL_CONTINUE;
	case 'r':
		if (tool_parse_uint(arg, IPU_GROUP_MAX_SIZE, &cfg->replicas) || !cfg->replicas ||
		    (cfg->replicas & (cfg->replicas - 1)))
			return tool_usage_error("ipu-train", "--replicas: '%s' is not 1, 2, 4, 8 or 16", arg);
		return TOOL_CONTINUE;
	case 'i':
		if (tool_parse_uint(arg, IPU_GROUP_MAX_SIZE, &cfg->ipus) || !cfg->ipus ||
		    (cfg->ipus & (cfg->ipus - 1)))
			return tool_usage_error("ipu-train", "--ipus: '%s' is not 1, 2, 4, 8 or 16", arg);
		return TOOL_CONTINUE;
	case 'D': cfg->data = arg; return TOOL_CONTINUE;
	case 'w': cfg->save_dir = arg; return TOOL_CONTINUE;
	case 'u': cfg->dump_dir = arg; return TOOL_CONTINUE;
	case 'j': cfg->json = true; return TOOL_CONTINUE;
	}
	return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct train_config *cfg)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		TOOL_OPT_DEVICE,
		{ "chip", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		{ "epochs", required_argument, NULL, 'e' },
		{ "batch", required_argument, NULL, 'b' },
		{ "lr", required_argument, NULL, 'l' },
		{ "seed", required_argument, NULL, 's' },
		{ "replicas", required_argument, NULL, 'r' },
		{ "ipus", required_argument, NULL, 'i' },
		{ "data", required_argument, NULL, 'D' },
		{ "save-weights", required_argument, NULL, 'w' },
		{ "dump", required_argument, NULL, 'u' },
		TOOL_OPT_JSON,
		TOOL_OPT_HELP,
		TOOL_OPTS_VERSION_END,
	};
	int c, ret;

	memset(cfg, 0, sizeof(*cfg));
	cfg->chip = TOOL_DEFAULT_MODEL;
	cfg->batch = TRAIN_DEFAULT_BATCH;
	cfg->seed = TRAIN_DEFAULT_SEED;
	cfg->replicas = 1;
	cfg->data = DIGITS_DEFAULT_PATH;
	while ((c = getopt_long(argc, argv, ":m:d:c:t:e:b:l:s:r:i:D:w:u:jhV", opts, NULL)) != -1) {
		if (!strchr("mdctebls" "riDwuj", c) || c == ':')
			return tool_other_option("ipu-train", c, argv, usage);
		ret = set_option(cfg, c, optarg);
		if (ret != TOOL_CONTINUE)
			return ret;
	}
	if (optind >= argc)
		return tool_usage_error("ipu-train", "no data set given (digits)");
	if (strcmp(argv[optind], "digits"))
		return tool_usage_error("ipu-train", "unknown data set '%s' (known: digits)",
					argv[optind]);
	optind++;
	ret = tool_no_operands("ipu-train", argc, argv);
	if (ret != TOOL_CONTINUE)
		return ret;
	if (!cfg->model)
		return tool_usage_error("ipu-train", "no --model given");
	if (!cfg->epochs)
		cfg->epochs = cfg->model->epochs;
	if (cfg->lr == 0)
		cfg->lr = cfg->model->lr;
	if (cfg->ipus && cfg->use_dev)
		return tool_usage_error("ipu-train", "--ipus is the model device's; a device id "
					"has its own IPUs");
	if (!cfg->ipus)
		cfg->ipus = cfg->replicas;
	if (cfg->batch % cfg->replicas)
		return tool_usage_error("ipu-train", "--batch %u does not split into %u replicas "
					"(make it a multiple of %u)", cfg->batch, cfg->replicas,
					cfg->replicas);
	return TOOL_CONTINUE;
}

/*
 * Device id @id: card ipuN, else a multi-IPU device id (its member cards
 * attached all at once).
 */
static int open_id(unsigned id, struct ipu_device **d, struct ipu_error *err)
{
	int ret = ipu_device_open(id, 0, d, err);

	if (ret != -ENODEV)
		return ret;
	return ipu_group_device_open(id, IPU_OPEN_ATTACH, d, err);
}

/*
 * Open the device or the model device (of --ipus IPUs) into *@d (the
 * caller closes it) and tell its chip: a card's own, else --chip; the
 * replicas must use every IPU of the device. Returns TOOL_CONTINUE or the
 * exit code after the failure was reported.
 */
static int open_device(const struct train_config *cfg, struct ipu_device **d,
		       uint32_t *chip)
{
	struct ipu_error err = { 0, "" };
	struct ipu_device_info info;
	int ret;

	if (!cfg->use_dev)
		ret = ipu_model_open_multi(cfg->chip, cfg->ipus, NULL, cfg->threads, d, &err);
	else
		ret = open_id(cfg->devid, d, &err);
	if (!ret)
		ret = ipu_device_info(*d, &info, &err);
	if (ret && cfg->use_dev && err.code == -ENODEV)
		return tool_no_cards("ipu-train", &err);	/* with the hint that fits */
	if (ret) {
		fprintf(stderr, "ipu-train: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	*chip = cfg->use_dev ? info.model : ipu_model_by_name(cfg->chip)->id;
	if (info.ipus != cfg->replicas) {
		fprintf(stderr, "ipu-train: --replicas %u: %s has %u IPU%s; the replicas take "
			"one IPU each and must use them all%s\n", cfg->replicas,
			ipu_device_name(*d), info.ipus, info.ipus == 1 ? "" : "s",
			info.ipus < cfg->replicas ? " (too many replicas)" : "");
		return EXIT_USAGE;
	}
	return TOOL_CONTINUE;
}

/* One epoch's line, or its JSON record on one line. */
static void print_epoch(const struct train_config *cfg, struct ipu_device *d,
			unsigned epoch, const struct train_epoch *e)
{
	if (!cfg->json) {
		printf("epoch %3u/%u  loss %.4f  train acc %6.2f %%  test acc %6.2f %%  %.0f samples/s\n",
		       epoch, cfg->epochs, e->loss, 100 * e->train_acc, 100 * e->test_acc,
		       e->samples_per_s);
	} else {
		printf("{\"model\": ");
		json_write_string(stdout, cfg->model->name);
		printf(", \"device\": ");
		json_write_string(stdout, ipu_device_name(d));
		printf(", \"epoch\": %u, \"epochs\": %u, \"batch\": %u, \"lr\": %.9g, "
		       "\"replicas\": %u, \"loss\": %.9g, \"train_acc\": %.6f, \"test_acc\": %.6f, "
		       "\"seconds\": %.6f, \"samples_per_s\": %.1f}\n",
		       epoch, cfg->epochs, cfg->batch, cfg->lr, cfg->replicas, e->loss, e->train_acc,
		       e->test_acc, e->seconds, e->samples_per_s);
	}
	fflush(stdout);
}

/* The header line of the text output. */
static void print_header(const struct train_config *cfg, struct ipu_device *d,
			 const struct train_session *s)
{
	if (cfg->json)
		return;
	printf("ipu-train: %s on %s: %u training / %u test images, batch %u "
	       "(%u steps per epoch), lr %g, momentum %.1f, seed %u\n",
	       cfg->model->name, ipu_device_name(d), s->data->ntrain, s->data->ntest,
	       cfg->batch, s->steps, cfg->lr, TRAIN_MOMENTUM, cfg->seed);
	if (cfg->replicas > 1)
		printf("ipu-train: data-parallel: %u replicas of batch %u, gradients "
		       "averaged over the links\n", cfg->replicas, cfg->batch / cfg->replicas);
}

/* --dump: the arrays of the run beside the initial weights. */
struct dump {
	uint32_t *order;	/* [epochs][steps * batch] */
	float *loss;		/* [epochs][steps] */
};

static int dump_write(const struct train_config *cfg, const struct train_session *s,
		      const struct dump *dp, struct ipu_error *err)
{
	char path[4096];
	uint64_t n = (uint64_t)s->steps * cfg->batch;
	int ret;

	snprintf(path, sizeof(path), "%s/x_train.npy", cfg->dump_dir);
	ret = ipu_npy_write(path, IPU_DTYPE_F32, 2,
			    (uint64_t[]){ s->data->ntrain, DIGITS_PIXELS }, s->data->x_train, err);
	snprintf(path, sizeof(path), "%s/y_train.npy", cfg->dump_dir);
	if (!ret)
		ret = ipu_npy_write(path, IPU_DTYPE_I32, 1, (uint64_t[]){ s->data->ntrain },
				    s->data->y_train, err);
	snprintf(path, sizeof(path), "%s/order.npy", cfg->dump_dir);
	if (!ret)
		ret = ipu_npy_write(path, IPU_DTYPE_I32, 2, (uint64_t[]){ cfg->epochs, n },
				    dp->order, err);
	snprintf(path, sizeof(path), "%s/loss.npy", cfg->dump_dir);
	if (!ret)
		ret = ipu_npy_write(path, IPU_DTYPE_F32, 2, (uint64_t[]){ cfg->epochs, s->steps },
				    dp->loss, err);
	return ret;
}

/* The epochs, with --dump's records; 0 or -errno with @err set. */
static int train_epochs(const struct train_config *cfg, struct train_session *s,
			struct dump *dp, struct ipu_error *err)
{
	size_t n = (size_t)s->steps * cfg->batch;
	struct train_epoch e;
	int ret;

	for (unsigned k = 0; k < cfg->epochs; k++) {
		ret = train_session_epoch(s, &e, err);
		if (ret)
			return ret;
		if (dp->order) {
			memcpy(&dp->order[k * n], s->order, n * sizeof(uint32_t));
			memcpy(&dp->loss[(size_t)k * s->steps], e.step_loss,
			       s->steps * sizeof(float));
		}
		print_epoch(cfg, s->dev, k + 1, &e);
	}
	return 0;
}

/* Train on the open device; the exit code, failures reported. */
static int run(const struct train_config *cfg, struct ipu_device *d, uint32_t chip,
	       const struct train_split *data)
{
	struct ipu_error err = { 0, "" };
	struct train_session s;
	struct dump dp = { NULL, NULL };
	int ret;

	ret = train_session_open(&s, d, data, cfg->model, chip, cfg->batch, cfg->replicas,
				 cfg->lr, cfg->seed, &err);
	if (!ret && cfg->dump_dir) {
		dp.order = malloc((size_t)cfg->epochs * s.steps * cfg->batch * sizeof(uint32_t));
		dp.loss = malloc((size_t)cfg->epochs * s.steps * sizeof(float));
		ret = dp.order && dp.loss ? train_session_save(&s, cfg->dump_dir, "init_", &err)
					  : tool_error(&err, -ENOMEM, "ipu-train: out of memory");
	}
	if (!ret) {
		print_header(cfg, d, &s);
		ret = train_epochs(cfg, &s, &dp, &err);
	}
	if (!ret && cfg->dump_dir)
		ret = dump_write(cfg, &s, &dp, &err);
	if (!ret && cfg->save_dir)
		ret = train_session_save(&s, cfg->save_dir, "", &err);
	if (ret)
		fprintf(stderr, "ipu-train: %s\n", err.msg);
	free(dp.order);
	free(dp.loss);
	train_session_close(&s);
	return ret ? EXIT_RUNTIME : EXIT_OK;
}

int main(int argc, char **argv)
{
	struct ipu_error err = { 0, "" };
	struct train_config cfg;
	struct ipu_device *d = NULL;
	struct digits digits;
	struct train_split split = { 0 };
	uint32_t chip = 0;
	int rc = parse_args(argc, argv, &cfg);

	if (rc != TOOL_CONTINUE)
		return rc;
	if (digits_load(cfg.data, &digits, &err) || train_split(&digits, &split, &err)) {
		fprintf(stderr, "ipu-train: %s\n", err.msg);
		digits_free(&digits);
		return EXIT_RUNTIME;
	}
	digits_free(&digits);
	if (split.ntrain < cfg.batch) {
		train_split_free(&split);
		return tool_usage_error("ipu-train", "--batch %u: more than the %u training images",
					cfg.batch, split.ntrain);
	}
	rc = open_device(&cfg, &d, &chip);
	if (rc == TOOL_CONTINUE)
		rc = run(&cfg, d, chip, &split);
	ipu_device_close(d);
	train_split_free(&split);
	return tool_finish_stdout("ipu-train", rc);
}
