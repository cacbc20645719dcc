// SPDX-License-Identifier: MIT
/*
 * ipu-info: list IPU cards, or show one in detail.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static const char *prog = "ipu-info";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTION]...\n"
"Show the IPU cards of this machine.\n"
"\n"
"  -l, --list         list all cards as a table (the default)\n"
"  -d, --device N     show card N (ipuN) in detail, as `key: value` lines\n"
"  -a, --all          show every card in detail\n"
"  -j, --json         write JSON instead of text\n"
"  -h, --help         show this help and exit\n"
"  -V, --version      show the version and exit\n"
"\n"
"Exit status: 0 ok, 1 runtime error, 2 usage error, 3 no card or no driver.\n",
		prog);
}

/* Detail of one card: GET_INFO through a read-only open when possible. */
static int show_detail(const struct ipu_card *c, struct jw *w)
{
	struct ipu_device *dev;
	struct ipu_device_info info;
	struct ipu_error e;
	bool have_info = false;

	if (ipu_device_open(c->id, IPU_OPEN_READONLY, &dev, &e) == 0) {
		if (ipu_device_info(dev, &info, &e) == 0)
			have_info = true;
		ipu_device_close(dev);
	}
	if (!have_info)
		fprintf(stderr,
			"%s: warning: %s; clock, threads and versions are not available\n",
			prog, e.msg);
	if (w)
		jw_obj_begin(w, NULL);
	print_card_detail(stdout, w, c, have_info ? &info : NULL);
	if (w)
		jw_obj_end(w);
	return EXIT_OK;
}

/* What the command line asks for. */
struct info_config {
	enum { INFO_LIST, INFO_ONE, INFO_ALL } mode;
	unsigned id;		/* INFO_ONE: the card */
	bool json;
};

/*
 * Fill @cfg from the command line. Returns TOOL_CONTINUE, or the exit code
 * after --help, --version or a usage error (reported on stderr).
 */
static int parse_args(int argc, char **argv, struct info_config *cfg)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		TOOL_OPT_DEVICE,
		{ "all", no_argument, NULL, 'a' },
		TOOL_OPT_JSON,
		TOOL_OPT_HELP,
		TOOL_OPTS_VERSION_END,
	};
	int opt;

	*cfg = (struct info_config){ .mode = INFO_LIST };
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":ld:ajhV", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			cfg->mode = INFO_LIST;
			break;
		case 'd':
			if (tool_parse_card_id(prog, optarg, &cfg->id) !=
			    TOOL_CONTINUE)
				return EXIT_USAGE;
			cfg->mode = INFO_ONE;
			break;
		case 'a':
			cfg->mode = INFO_ALL;
			break;
		case 'j':
			cfg->json = true;
			break;
		default:	/* -h, -V, or refused */
			return tool_other_option(prog, opt, argv, usage);
		}
	}
	return tool_no_operands(prog, argc, argv);
}

/* Open the JSON document of several cards: {"ipus": [ ... */
static void ipus_begin(struct jw *w)
{
	jw_init(w, stdout);
	jw_obj_begin(w, NULL);
	jw_arr_begin(w, "ipus");
}

/* ... ]} */
static void ipus_end(struct jw *w)
{
	jw_arr_end(w);
	jw_obj_end(w);
	jw_end(w);
}

/* The list of @cards (@n): a table, or {"ipus": [...]} with @json. */
static int show_list(const struct ipu_card *cards, size_t n, bool json)
{
	struct jw w;

	if (!json) {
		print_cards_table(stdout, cards, n);
		return EXIT_OK;
	}
	ipus_begin(&w);
	for (size_t i = 0; i < n; i++) {
		jw_obj_begin(&w, NULL);
		print_card_json_members(&w, &cards[i]);
		jw_obj_end(&w);
	}
	ipus_end(&w);
	return EXIT_OK;
}

/* Card @id of @cards in detail; EXIT_NODEV (reported) when it is absent. */
static int show_one(const struct ipu_card *cards, size_t n, unsigned id,
		    bool json)
{
	const struct ipu_card *c = tool_find_card(cards, n, id);
	struct jw w;
	int ret;

	if (!c)
		return tool_no_such_card(prog, id, cards, n);
	if (!json)
		return show_detail(c, NULL);
	jw_init(&w, stdout);
	ret = show_detail(c, &w);
	jw_end(&w);
	return ret;
}

/* Every card in detail: blank-line separated, or {"ipus": [...]}. */
static int show_all(const struct ipu_card *cards, size_t n, bool json)
{
	struct jw w;
	int ret = EXIT_OK;

	if (json)
		ipus_begin(&w);
	for (size_t i = 0; i < n && ret == EXIT_OK; i++) {
		if (!json && i)
			putchar('\n');
		ret = show_detail(&cards[i], json ? &w : NULL);
	}
	if (json)
		ipus_end(&w);
	return ret;
}

int main(int argc, char **argv)
{
	struct info_config cfg;
	struct ipu_card *cards;
	size_t n;
	struct ipu_error e;
	int ret = parse_args(argc, argv, &cfg);

	if (ret != TOOL_CONTINUE)
		return ret;
	if (ipu_enumerate(&cards, &n, &e))
		return tool_no_cards(prog, &e);
	switch (cfg.mode) {
	case INFO_LIST:
		ret = show_list(cards, n, cfg.json);
		break;
	case INFO_ONE:
		ret = show_one(cards, n, cfg.id, cfg.json);
		break;
	default:
		ret = show_all(cards, n, cfg.json);
		break;
	}
	ipu_cards_free(cards);
	return tool_finish_stdout(prog, ret);
}
