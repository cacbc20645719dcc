// SPDX-License-Identifier: MIT
/*
 * The IPU-Link topology drawn in the terminal as the ladder of the M2000
 * and POD16: a row per pair (2k, 2k+1) with its rung between the two, the
 * rails (2k to 2k+2, 2k+1 to 2k+3) below the cards, and every other link
 * (the POD's closing links, a ring's) listed after. ASCII only.
 */
#include <stdio.h>
#include <string.h>

#include "topo_view.h"

#define CELL	6	/* "ipu15" and a space */
#define RUNG	9	/* "==(2/2)==" */

struct tally {
	unsigned wired, up;
};

/* Links between device indices @a and @b, and how many are up at both ends. */
static struct tally between(const struct ipu_topology *topo, unsigned a,
			    unsigned b)
{
	const struct ipu_links *la = ipu_topology_card_links(topo, a);
	const struct ipu_links *lb = ipu_topology_card_links(topo, b);
	struct tally t = { 0, 0 };

	for (unsigned p = 0; p < ipu_links_num_ports(la); p++) {
		const struct ipu_link_info *x = ipu_links_port(la, p), *y;
		int q = ipu_link_info_peer_port(x);

		if (q < 0 || strcmp(ipu_link_info_peer_serial(x), ipu_links_serial(lb)))
			continue;
		t.wired++;
		y = ipu_links_port(lb, (unsigned)q);
		t.up += ipu_link_info_state(x) == IPU_LINK_UP && y &&
			ipu_link_info_state(y) == IPU_LINK_UP;
	}
	return t;
}

static void rung_text(struct tally t, char *buf, size_t size)
{
	const char *end = t.up == t.wired ? "==" : t.up ? "=-" : "xx";

	if (!t.wired)
		snprintf(buf, size, "%*s", RUNG, "");
	else
		snprintf(buf, size, "%s(%u/%u)%c%c", end, t.up, t.wired,
			 end[1], end[0]);
}

static char rail_char(struct tally t)
{
	if (!t.wired)
		return ' ';
	return t.up == t.wired ? '|' : t.up ? ':' : 'x';
}

/* The pair row of device indices @a (and @a + 1 when it exists). */
static void pair_row(FILE *f, const struct ipu_topology *topo, unsigned a)
{
	unsigned n = ipu_topology_num_cards(topo);
	char rung[32], name[24];

	snprintf(name, sizeof(name), "ipu%u",
		 ipu_links_card(ipu_topology_card_links(topo, a)));
	if (a + 1 >= n) {
		fprintf(f, "%s\n", name);
		return;
	}
	rung_text(between(topo, a, a + 1), rung, sizeof(rung));
	fprintf(f, "%-*s%s ipu%u\n", CELL, name, rung,
		ipu_links_card(ipu_topology_card_links(topo, a + 1)));
}

/* The rails from the row of @a to the next one. */
static void rail_row(FILE *f, const struct ipu_topology *topo, unsigned a)
{
	unsigned n = ipu_topology_num_cards(topo);
	char line[CELL + RUNG + 8];

	memset(line, ' ', sizeof(line));
	line[1] = rail_char(between(topo, a, a + 2));
	if (a + 3 < n)
		line[CELL + RUNG + 2] = rail_char(between(topo, a + 1, a + 3));
	line[CELL + RUNG + 3] = '\0';
	for (size_t k = strlen(line); k && line[k - 1] == ' '; k--)
		line[k - 1] = '\0';
	fprintf(f, "%s\n", line);
}

/* Whether a link @a-@b (a < b) is drawn: a rung or a rail. */
static bool drawn(unsigned a, unsigned b)
{
	return (a % 2 == 0 && b == a + 1) || b == a + 2;
}

void print_ladder(FILE *f, const struct ipu_topology *topo)
{
	unsigned n = ipu_topology_num_cards(topo);
	bool other = false;

	fprintf(f, "IPU-Link topology of %u IPUs (pairs across, rails down; (up/links)):\n\n", n);
	for (unsigned a = 0; a < n; a += 2) {
		pair_row(f, topo, a);
		if (a + 2 < n)
			rail_row(f, topo, a);
	}
	for (unsigned a = 0; a < n; a++) {
		for (unsigned b = a + 1; b < n; b++) {
			struct tally t = between(topo, a, b);

			if (!t.wired || drawn(a, b))
				continue;
			if (!other)
				fprintf(f, "\nother links:\n");
			other = true;
			fprintf(f, "  ipu%u - ipu%u (%u/%u)\n",
				ipu_links_card(ipu_topology_card_links(topo, a)),
				ipu_links_card(ipu_topology_card_links(topo, b)),
				t.up, t.wired);
		}
	}
	fprintf(f, "\nrungs: == all up, =- some up, xx none up; rails: | up, : some up, x down\n");
}
