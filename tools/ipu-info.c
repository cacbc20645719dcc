// SPDX-License-Identifier: MIT
/*
 * ipu-info: list IPU cards, or show one in detail.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "device", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	enum { LIST, ONE, ALL } mode = LIST;
	bool json = false;
	unsigned id = 0;
	struct ipu_card *cards;
	size_t n;
	struct ipu_error e;
	int opt, ret = EXIT_OK;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":ld:ajhV", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			mode = LIST;
			break;
		case 'd':
			if (tool_parse_uint(optarg, 0xffffffu, &id)) {
				fprintf(stderr, "%s: invalid card id '%s'\n",
					prog, optarg);
				return EXIT_USAGE;
			}
			mode = ONE;
			break;
		case 'a':
			mode = ALL;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("%s (libipudev) %s\n", prog, ipu_version());
			return EXIT_OK;
		default:
			return tool_bad_option(prog, opt, argv);
		}
	}
	if (optind < argc)
		return tool_usage_error(prog, "unexpected argument '%s'",
					argv[optind]);

	if (ipu_enumerate(&cards, &n, &e))
		return tool_no_cards(prog, &e);

	if (mode == LIST) {
		if (json) {
			struct jw w;

			jw_init(&w, stdout);
			jw_obj_begin(&w, NULL);
			jw_arr_begin(&w, "ipus");
			for (size_t i = 0; i < n; i++) {
				jw_obj_begin(&w, NULL);
				print_card_json_members(&w, &cards[i]);
				jw_obj_end(&w);
			}
			jw_arr_end(&w);
			jw_obj_end(&w);
			jw_end(&w);
		} else {
			print_cards_table(stdout, cards, n);
		}
	} else if (mode == ONE) {
		const struct ipu_card *c = NULL;

		for (size_t i = 0; i < n; i++)
			if (cards[i].id == id)
				c = &cards[i];
		if (!c) {
			fprintf(stderr, "%s: no IPU with id %u (found:", prog,
				id);
			for (size_t i = 0; i < n; i++)
				fprintf(stderr, " %u", cards[i].id);
			fprintf(stderr, ")\n");
			ret = EXIT_NODEV;
		} else if (json) {
			struct jw w;

			jw_init(&w, stdout);
			ret = show_detail(c, &w);
			jw_end(&w);
		} else {
			ret = show_detail(c, NULL);
		}
	} else {
		struct jw w;

		if (json) {
			jw_init(&w, stdout);
			jw_obj_begin(&w, NULL);
			jw_arr_begin(&w, "ipus");
		}
		for (size_t i = 0; i < n && ret == EXIT_OK; i++) {
			if (!json && i)
				putchar('\n');
			ret = show_detail(&cards[i], json ? &w : NULL);
		}
		if (json) {
			jw_arr_end(&w);
			jw_obj_end(&w);
			jw_end(&w);
		}
	}
	ipu_cards_free(cards);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		return EXIT_RUNTIME;
	}
	return ret;
}
