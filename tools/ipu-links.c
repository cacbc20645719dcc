// SPDX-License-Identifier: MIT
/*
 * ipu-links: the IPU-Links of the cards, as gc-links shows them: one row
 * (or JSON record) per channel, or the topology drawn as a ladder.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "topo_view.h"

static const char *prog = "ipu-links";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTION]...\n"
"Show the IPU-Links between the IPU cards of this machine, one row per\n"
"channel: from and to (ipuN:PORT), state (both ends' when they differ),\n"
"generation, lanes, the lower figure of merit of its ends, and the\n"
"correctable and uncorrectable errors of both ends.\n"
"\n"
"  -d, --device N     only the channels of card N (ipuN)\n"
"  -a, --all          also ports wired to nothing\n"
"  -t, --topology     draw the topology as a ladder instead of the table\n"
"  -j, --json         one JSON record per channel (like gc-links -j)\n"
"  -h, --help         show this help and exit\n"
"  -V, --version      show the version and exit\n"
"\n"
"Without IPU-Link information from the driver it says so and exits 0.\n"
"Exit status: 0 ok, 1 runtime error, 2 usage error, 3 no card or no driver\n"
"or no card N.\n",
		prog);
}

struct links_config {
	int card;		/* -d: the card, -1 all */
	bool all, topology, json;
};

static int parse_args(int argc, char **argv, struct links_config *cfg)
{
	static const struct option opts[] = {
		TOOL_OPT_DEVICE,
		{ "all", no_argument, NULL, 'a' },
		{ "topology", no_argument, NULL, 't' },
		TOOL_OPT_JSON,
		TOOL_OPT_HELP,
		TOOL_OPTS_VERSION_END,
	};
	unsigned id;
	int opt;

	*cfg = (struct links_config){ .card = -1 };
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":d:atjhV", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (tool_parse_card_id(prog, optarg, &id) != TOOL_CONTINUE)
				return EXIT_USAGE;
			cfg->card = (int)id;
			break;
		case 'a':
			cfg->all = true;
			break;
		case 't':
			cfg->topology = true;
			break;
		case 'j':
			cfg->json = true;
			break;
		default:
			return tool_other_option(prog, opt, argv, usage);
		}
	}
	if (cfg->topology && cfg->json)
		return tool_usage_error(prog, "--topology draws text; it does not go with --json");
	return tool_no_operands(prog, argc, argv);
}

/* The device index of card ipu@card in @topo, or -1. */
static int index_of(const struct ipu_topology *topo, unsigned card)
{
	for (unsigned i = 0; i < ipu_topology_num_cards(topo); i++)
		if (ipu_links_card(ipu_topology_card_links(topo, i)) == card)
			return (int)i;
	return -1;
}

static int show(const struct ipu_topology *topo, const struct links_config *cfg)
{
	int only = -1;

	if (cfg->card >= 0) {
		only = index_of(topo, (unsigned)cfg->card);
		if (only < 0) {
			fprintf(stderr, "%s: no IPU with id %d\n", prog, cfg->card);
			return EXIT_NODEV;
		}
	}
	if (print_links_view(stdout, topo, only, cfg->all, cfg->json,
			     cfg->topology)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct links_config cfg;
	struct ipu_topology *topo;
	struct ipu_error e;
	int ret = parse_args(argc, argv, &cfg);

	if (ret != TOOL_CONTINUE)
		return ret;
	if (ipu_topology_read(0, &topo, &e))
		return tool_no_cards(prog, &e);
	ret = show(topo, &cfg);
	ipu_topology_free(topo);
	return tool_finish_stdout(prog, ret);
}
