// SPDX-License-Identifier: MIT
/*
 * ipu-reset: soft-reset one, several or all IPU cards.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define MAX_IDS	256

static const char *prog = "ipu-reset";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s -d N [-d N]... | --all [OPTION]...\n"
"Soft-reset IPU cards and show their state afterwards.\n"
"\n"
"  -d, --device N     reset card N (ipuN); may be repeated\n"
"  -a, --all          reset every card\n"
"  -t, --timeout MS   wait at most MS milliseconds for each card to become\n"
"                     ready (default: the driver's, 2000; at most %u)\n"
"  -n, --nowait       do not wait for the cards to become ready\n"
"  -f, --force        reset a card even if another process holds it (that\n"
"                     process's work in flight fails, its graph is gone)\n"
"  -j, --json         write JSON instead of text\n"
"  -h, --help         show this help and exit\n"
"  -V, --version      show the version and exit\n"
"\n"
"A card that another process is attached to is not reset without --force:\n"
"the holder (pid and command) is named instead.\n"
"\n"
"Exit status: 0 all resets succeeded, 1 a reset failed, 2 usage error,\n"
"3 no card or no driver, 4 a card is held by another process (see --force).\n",
		prog, IPU_RESET_TIMEOUT_MAX);
}

struct result {
	unsigned id;
	bool ok;
	bool tried;		/* the driver was asked (else: not reset) */
	int code;		/* the failure's negative errno */
	int holder_pid;		/* -EBUSY: who holds the card */
	char holder_comm[16];
	int state;
	uint32_t reset_count;
	bool have_count;
	double elapsed_ms;
	struct ipu_error err;
};

static void reset_one(unsigned id, unsigned timeout_ms, unsigned flags,
		      struct result *r)
{
	struct ipu_device *dev;
	struct ipu_reset_result rr;
	struct ipu_device_info info;
	struct ipu_error e2;

	memset(r, 0, sizeof(*r));
	memset(&rr, 0, sizeof(rr));
	r->id = id;
	r->state = IPU_STATE_UNKNOWN;
	r->code = ipu_device_open(id, 0, &dev, &r->err);
	if (r->code)
		return;
	r->code = ipu_device_reset(dev, timeout_ms, flags, &rr, &r->err);
	/* Refused before the card was touched: nothing was reset. */
	r->tried = r->code != -EBUSY && r->code != -EPERM;
	if (r->code == 0) {
		r->ok = true;
		r->state = rr.state;
		r->reset_count = rr.reset_count;
		r->have_count = true;
	} else if (r->code == -EBUSY) {
		r->holder_pid = rr.holder_pid;
		memcpy(r->holder_comm, rr.holder_comm, sizeof(r->holder_comm));
		r->holder_comm[sizeof(r->holder_comm) - 1] = '\0';
	}
	r->elapsed_ms = (double)rr.elapsed_us / 1000.0;
	/* After a failure, report what the card says now. */
	if (!r->ok && ipu_device_info(dev, &info, &e2) == 0) {
		r->state = info.state;
		r->reset_count = info.reset_count;
		r->have_count = true;
	}
	ipu_device_close(dev);
}

/* What the command line asks for. */
struct reset_config {
	unsigned ids[MAX_IDS];	/* the cards, in order (all of them: --all) */
	unsigned nids;
	bool all;
	unsigned timeout_ms;	/* 0: the driver's */
	unsigned flags;		/* IPU_RESET_NOWAIT, IPU_RESET_FORCE */
	bool json;
};

/*
 * Fill @cfg from the command line. Returns TOOL_CONTINUE, or the exit code
 * after --help, --version or a usage error (reported on stderr).
 */
static int parse_args(int argc, char **argv, struct reset_config *cfg)
{
	static const struct option opts[] = {
		TOOL_OPT_DEVICE,
		{ "all", no_argument, NULL, 'a' },
		{ "timeout", required_argument, NULL, 't' },
		{ "nowait", no_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		TOOL_OPT_JSON,
		TOOL_OPT_HELP,
		TOOL_OPTS_VERSION_END,
	};
	int opt;

	memset(cfg, 0, sizeof(*cfg));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":d:at:nfjhV", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (cfg->nids == MAX_IDS) {
				fprintf(stderr, "%s: too many -d options\n",
					prog);
				return EXIT_USAGE;
			}
			if (tool_parse_card_id(prog, optarg,
					       &cfg->ids[cfg->nids]) !=
			    TOOL_CONTINUE)
				return EXIT_USAGE;
			cfg->nids++;
			break;
		case 'a':
			cfg->all = true;
			break;
		case 't':
			if (tool_parse_uint(optarg, IPU_RESET_TIMEOUT_MAX,
					    &cfg->timeout_ms)) {
				fprintf(stderr,
					"%s: invalid timeout '%s' (milliseconds, 0 to %u)\n",
					prog, optarg, IPU_RESET_TIMEOUT_MAX);
				return EXIT_USAGE;
			}
			break;
		case 'n':
			cfg->flags |= IPU_RESET_NOWAIT;
			break;
		case 'f':
			cfg->flags |= IPU_RESET_FORCE;
			break;
		case 'j':
			cfg->json = true;
			break;
		default:	/* -h, -V, or refused */
			return tool_other_option(prog, opt, argv, usage);
		}
	}
	if (tool_no_operands(prog, argc, argv) != TOOL_CONTINUE)
		return EXIT_USAGE;
	if (cfg->all == (cfg->nids > 0))
		return tool_usage_error(prog, "give either -d N or --all");
	return TOOL_CONTINUE;
}

/*
 * Settle which cards to reset: with --all every card present goes into
 * @cfg->ids; otherwise each id given must be present. Returns
 * TOOL_CONTINUE, or the exit code after the failure was reported.
 */
static int resolve_cards(struct reset_config *cfg)
{
	struct ipu_card *cards;
	size_t n;
	struct ipu_error e;
	int ret = TOOL_CONTINUE;

	if (ipu_enumerate(&cards, &n, &e))
		return tool_no_cards(prog, &e);
	if (cfg->all) {
		cfg->nids = 0;
		for (size_t i = 0; i < n && cfg->nids < MAX_IDS; i++)
			cfg->ids[cfg->nids++] = cards[i].id;
	} else {
		for (unsigned k = 0; k < cfg->nids && ret == TOOL_CONTINUE; k++)
			if (!tool_find_card(cards, n, cfg->ids[k]))
				ret = tool_no_such_card(prog, cfg->ids[k],
							cards, n);
	}
	ipu_cards_free(cards);
	return ret;
}

/*
 * Reset the cards of @cfg one after the other into @res (@cfg->nids
 * entries, the caller's); a failure is reported on stderr and does not stop
 * the others. Returns the exit code: EXIT_RUNTIME for any failure but a
 * held card, else EXIT_BUSY for a held card, else EXIT_OK.
 */
static int reset_cards(const struct reset_config *cfg, struct result *res)
{
	int ret = EXIT_OK;

	for (size_t i = 0; i < cfg->nids; i++) {
		reset_one(cfg->ids[i], cfg->timeout_ms, cfg->flags, &res[i]);
		if (res[i].ok)
			continue;
		fprintf(stderr, "%s: %s\n", prog, res[i].err.msg);
		if (res[i].code == -EBUSY) {
			fprintf(stderr,
				"%s: ipu%u is held by process %d (%s); use --force to reset it anyway\n",
				prog, res[i].id, res[i].holder_pid,
				res[i].holder_comm[0] ? res[i].holder_comm : "?");
			if (ret == EXIT_OK)
				ret = EXIT_BUSY;
		} else {
			ret = EXIT_RUNTIME;
		}
	}
	return ret;
}

/*
 * Where a failed card could not be asked (e.g. no permission to open it),
 * fill in the state and reset count sysfs shows now (one enumeration for
 * all of @res, @n entries). Nothing is reported if that fails too.
 */
static void fill_from_sysfs(struct result *res, size_t n)
{
	struct ipu_card *cards;
	size_t ncards;
	bool missing = false;

	for (size_t i = 0; i < n; i++)
		missing |= !res[i].have_count;
	if (!missing || ipu_enumerate(&cards, &ncards, NULL))
		return;
	for (size_t i = 0; i < n; i++) {
		const struct ipu_card *c;

		if (res[i].have_count)
			continue;
		c = tool_find_card(cards, ncards, res[i].id);
		if (c) {
			res[i].state = c->state;
			res[i].reset_count = c->reset_count;
			res[i].have_count = true;
		}
	}
	ipu_cards_free(cards);
}

/* The results as {"resets": [...]} on stdout. */
static void print_json(const struct result *res, size_t n)
{
	struct jw w;

	jw_init(&w, stdout);
	jw_obj_begin(&w, NULL);
	jw_arr_begin(&w, "resets");
	for (size_t i = 0; i < n; i++) {
		const struct result *r = &res[i];
		char name[24];

		snprintf(name, sizeof(name), "ipu%u", r->id);
		jw_obj_begin(&w, NULL);
		jw_u64(&w, "id", r->id);
		jw_str(&w, "name", name);
		jw_bool(&w, "ok", r->ok);
		jw_bool(&w, "reset_attempted", r->ok || r->tried);
		if (r->code == -EBUSY) {
			jw_u64(&w, "holder_pid", (uint64_t)r->holder_pid);
			jw_str(&w, "holder_comm", r->holder_comm);
		} else {
			jw_null(&w, "holder_pid");
			jw_null(&w, "holder_comm");
		}
		jw_str(&w, "state", ipu_state_name(r->state));
		if (r->have_count)
			jw_u64(&w, "reset_count", r->reset_count);
		else
			jw_null(&w, "reset_count");
		jw_double(&w, "elapsed_ms", r->elapsed_ms);
		jw_str(&w, "error", r->ok ? NULL : r->err.msg);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_obj_end(&w);
	jw_end(&w);
}

/* The results on stdout, a line a card. */
static void print_text(const struct result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (r->ok)
			printf("ipu%u: reset", r->id);
		else if (r->code == -EBUSY)
			printf("ipu%u: not reset (held by process %d, %s)",
			       r->id, r->holder_pid,
			       r->holder_comm[0] ? r->holder_comm : "?");
		else if (!r->tried)
			printf("ipu%u: not reset (%s)", r->id,
			       strerror(-r->code));
		else
			printf("ipu%u: reset FAILED", r->id);
		printf(", state %s, reset count ", ipu_state_name(r->state));
		if (r->have_count)
			printf("%u", r->reset_count);
		else
			printf("n/a");
		if (r->ok)
			printf(" (%.1f ms)", r->elapsed_ms);
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	struct reset_config cfg;
	struct result *res;
	int ret = parse_args(argc, argv, &cfg);

	if (ret == TOOL_CONTINUE)
		ret = resolve_cards(&cfg);
	if (ret != TOOL_CONTINUE)
		return ret;
	res = calloc(cfg.nids, sizeof(*res));
	if (!res) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	ret = reset_cards(&cfg, res);
	fill_from_sysfs(res, cfg.nids);
	if (cfg.json)
		print_json(res, cfg.nids);
	else
		print_text(res, cfg.nids);
	free(res);
	return tool_finish_stdout(prog, ret);
}
