// SPDX-License-Identifier: MIT
/*
 * ipu-info: list IPU cards and the device ids they form (single IPUs and
 * multi-IPU groups, as gc-info -l), show one in detail (with its health and
 * holder, as gc-info -i), their health and holders (as gc-monitor), or
 * their links.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "card_health.h"
#include "topo_view.h"

static const char *prog = "ipu-info";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTION]...\n"
"Show the IPU cards of this machine. Without options: a table of the cards.\n"
"\n"
"  -l, --list         list the devices as gc-info -l does: single IPUs, then\n"
"                     multi-IPU groups of linked IPUs with their members\n"
"  -d, --device N     show card N (ipuN), or multi-IPU device N, in detail\n"
"  -i, --info         the detail view, as `key: value` lines (with -d N: that\n"
"                     device; alone: every card)\n"
"  -a, --all          show every card in detail\n"
"  -m, --monitor      the cards' temperature, power, utilisation, health,\n"
"                     error counters, recoveries and the process holding\n"
"                     each (PID, user, command), as gc-monitor does\n"
"      --links        the IPU-Link channels (as ipu-links)\n"
"  -j, --json         write JSON instead of text\n"
"  -h, --help         show this help and exit\n"
"  -V, --version      show the version and exit\n"
"\n"
"Exit status: 0 ok, 1 runtime error, 2 usage error, 3 no card or no driver.\n",
		prog);
}

/* The links of card @c in @topo (NULL when unknown). */
static const struct ipu_links *links_of(const struct ipu_topology *topo,
					const struct ipu_card *c)
{
	for (unsigned i = 0; i < ipu_topology_num_cards(topo); i++)
		if (ipu_links_card(ipu_topology_card_links(topo, i)) == c->id)
			return ipu_topology_card_links(topo, i);
	return NULL;
}

/* Detail of one card: GET_INFO through a read-only open when possible;
 * then its IPU-Links when @topo could be read. */
static int show_detail(const struct ipu_card *c,
		       const struct ipu_topology *topo, struct jw *w)
{
	struct ipu_device *dev;
	struct ipu_device_info info;
	struct card_health health;
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
	card_health_read(c, &health);
	print_card_health(stdout, w, &health);
	if (links_of(topo, c))
		print_card_links_summary(stdout, w, links_of(topo, c));
	if (w)
		jw_obj_end(w);
	return EXIT_OK;
}

/* What the command line asks for. */
struct info_config {
	enum { INFO_TABLE, INFO_LIST, INFO_ONE, INFO_ALL, INFO_LINKS,
	       INFO_MONITOR } mode;
	unsigned id;		/* INFO_ONE: the card or device id */
	bool json;
	bool info;		/* -i */
};

#define OPT_LINKS	256

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
		{ "monitor", no_argument, NULL, 'm' },
		{ "info", no_argument, NULL, 'i' },
		{ "links", no_argument, NULL, OPT_LINKS },
		TOOL_OPT_JSON,
		TOOL_OPT_HELP,
		TOOL_OPTS_VERSION_END,
	};
	int opt;

	*cfg = (struct info_config){ .mode = INFO_TABLE };
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":ld:amijhV", opts, NULL)) != -1) {
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
		case 'm':
			cfg->mode = INFO_MONITOR;
			break;
		case 'i':
			cfg->info = true;
			break;
		case OPT_LINKS:
			cfg->mode = INFO_LINKS;
			break;
		case 'j':
			cfg->json = true;
			break;
		default:	/* -h, -V, or refused */
			return tool_other_option(prog, opt, argv, usage);
		}
	}
	if (cfg->info && cfg->mode != INFO_ONE) {
		if (cfg->mode != INFO_TABLE && cfg->mode != INFO_ALL)
			return tool_usage_error(prog, "-i shows details: it goes with -d N or alone");
		cfg->mode = INFO_ALL;
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

/*
 * The list of @cards (@n): a table, or {"ipus": [...]} with @json; with
 * @topo (-l) the device ids as gc-info -l lists them, in JSON also
 * "devices".
 */
static int show_list(const struct ipu_card *cards, size_t n,
		     const struct ipu_topology *topo, bool json)
{
	struct jw w;

	if (!json) {
		if (topo)
			print_devices_list(stdout, topo, cards, n);
		else
			print_cards_table(stdout, cards, n);
		return EXIT_OK;
	}
	ipus_begin(&w);
	for (size_t i = 0; i < n; i++) {
		jw_obj_begin(&w, NULL);
		print_card_json_members(&w, &cards[i]);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	if (topo)
		print_devices_json(&w, topo);
	jw_obj_end(&w);
	jw_end(&w);
	return EXIT_OK;
}

/* Multi-IPU device @id in detail; EXIT_NODEV (reported) when there is none. */
static int show_group(const struct ipu_topology *topo, unsigned id, bool json)
{
	const struct ipu_group_info *gi = ipu_topology_find_group(topo, id);
	struct ipu_error e;
	struct jw w;

	if (ipu_topology_check_group(topo, id, &e)) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return EXIT_NODEV;
	}
	if (!json) {
		print_group_detail(stdout, NULL, topo, gi);
		return EXIT_OK;
	}
	jw_init(&w, stdout);
	jw_obj_begin(&w, NULL);
	print_group_detail(stdout, &w, topo, gi);
	jw_obj_end(&w);
	jw_end(&w);
	return EXIT_OK;
}

/* --links: the channels, as ipu-links shows them. */
static int show_links(const struct ipu_topology *topo, bool json)
{
	if (print_links_view(stdout, topo, -1, false, json, false)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Card @id of @cards in detail, else multi-IPU device @id; EXIT_NODEV
 * (reported) when it is neither. */
static int show_one(const struct ipu_card *cards, size_t n,
		    const struct ipu_topology *topo, unsigned id, bool json)
{
	const struct ipu_card *c = tool_find_card(cards, n, id);
	struct jw w;
	int ret;

	if (!c && topo && id >= n && id < ipu_topology_num_ids(topo))
		return show_group(topo, id, json);
	if (!c)
		return tool_no_such_card(prog, id, cards, n);
	if (!json)
		return show_detail(c, topo, NULL);
	jw_init(&w, stdout);
	ret = show_detail(c, topo, &w);
	jw_end(&w);
	return ret;
}

/* Every card in detail: blank-line separated, or {"ipus": [...]}. */
static int show_all(const struct ipu_card *cards, size_t n,
		    const struct ipu_topology *topo, bool json)
{
	struct jw w;
	int ret = EXIT_OK;

	if (json)
		ipus_begin(&w);
	for (size_t i = 0; i < n && ret == EXIT_OK; i++) {
		if (!json && i)
			putchar('\n');
		ret = show_detail(&cards[i], topo, json ? &w : NULL);
	}
	if (json)
		ipus_end(&w);
	return ret;
}

/*
 * gc-monitor's view of @cards (@n): a table, or {"ipus": [...]} with @json,
 * each card's id, name and model with its health members.
 */
static int show_monitor(const struct ipu_card *cards, size_t n, bool json)
{
	struct card_health *hs = calloc(n, sizeof(*hs));
	struct jw w;

	if (!hs) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < n; i++)
		card_health_read(&cards[i], &hs[i]);
	if (!json) {
		print_health_table(stdout, cards, hs, n);
	} else {
		ipus_begin(&w);
		for (size_t i = 0; i < n; i++) {
			jw_obj_begin(&w, NULL);
			jw_u64(&w, "id", cards[i].id);
			jw_str(&w, "name", cards[i].name);
			jw_str(&w, "model", cards[i].model_name[0] ?
				   cards[i].model_name : NULL);
			print_card_health(stdout, &w, &hs[i]);
			jw_obj_end(&w);
		}
		ipus_end(&w);
	}
	free(hs);
	return EXIT_OK;
}

/*
 * The topology for every view but the plain table: NULL (and a warning,
 * unless @quiet) when it cannot be read; the views then go without it.
 */
static struct ipu_topology *read_topology(bool quiet)
{
	struct ipu_topology *topo;
	struct ipu_error e;

	if (ipu_topology_read(0, &topo, &e) == 0)
		return topo;
	if (!quiet)
		fprintf(stderr, "%s: warning: %s; no multi-IPU devices or links shown\n",
			prog, e.msg);
	return NULL;
}

int main(int argc, char **argv)
{
	struct info_config cfg;
	struct ipu_topology *topo = NULL;
	struct ipu_card *cards;
	size_t n;
	struct ipu_error e;
	int ret = parse_args(argc, argv, &cfg);

	if (ret != TOOL_CONTINUE)
		return ret;
	if (ipu_enumerate(&cards, &n, &e))
		return tool_no_cards(prog, &e);
	if (cfg.mode != INFO_TABLE && cfg.mode != INFO_MONITOR)
		topo = read_topology(cfg.mode == INFO_ONE || cfg.mode == INFO_ALL);
	switch (cfg.mode) {
	case INFO_TABLE:
		ret = show_list(cards, n, NULL, cfg.json);
		break;
	case INFO_LIST:
		ret = show_list(cards, n, topo, cfg.json);
		break;
	case INFO_ONE:
		ret = show_one(cards, n, topo, cfg.id, cfg.json);
		break;
	case INFO_LINKS:
		ret = topo ? show_links(topo, cfg.json) : EXIT_RUNTIME;
		break;
	case INFO_MONITOR:
		ret = show_monitor(cards, n, cfg.json);
		break;
	default:
		ret = show_all(cards, n, topo, cfg.json);
		break;
	}
	ipu_topology_free(topo);
	ipu_cards_free(cards);
	return tool_finish_stdout(prog, ret);
}
