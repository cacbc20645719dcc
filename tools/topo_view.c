// SPDX-License-Identifier: MIT
/*
 * The tools' views of device ids, groups and IPU-Links: gc-info -l's
 * device list, the links table and its JSON (in the manner of gc-links),
 * and the ladder drawn in the terminal. Everything is printed from a
 * struct ipu_topology (libipudev), so the host tests feed it data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_view.h"

/* "ipuN" of device index @i. */
static const char *card_name(const struct ipu_topology *topo, unsigned i,
			     char *buf, size_t size)
{
	snprintf(buf, size, "ipu%u",
		 ipu_links_card(ipu_topology_card_links(topo, i)));
	return buf;
}

/* Whether @b is wired back to port @p of device index @i. */
static bool names_back(const struct ipu_topology *topo, unsigned i,
		       unsigned p, const struct ipu_link_info *b)
{
	return b && ipu_link_info_peer_port(b) == (int)p &&
	       !strcmp(ipu_link_info_peer_serial(b),
		       ipu_links_serial(ipu_topology_card_links(topo, i)));
}

/* The channel of port @a of device index @i; false when the other end
 * lists it (its end comes first). */
static bool channel_of(const struct ipu_topology *topo, unsigned i,
		       const struct ipu_link_info *a, struct channel *c)
{
	int q = ipu_link_info_peer_port(a);
	int j = q < 0 ? -1 :
		ipu_topology_card_by_serial(topo, ipu_link_info_peer_serial(a));

	*c = (struct channel){ .from = i, .a = a, .to = -1 };
	if (j < 0)
		return true;
	c->to = j;
	c->b = ipu_links_port(ipu_topology_card_links(topo, (unsigned)j),
			      (unsigned)q);
	if (names_back(topo, i, ipu_link_info_port(a), c->b) &&
	    ((unsigned)j < i ||
	     ((unsigned)j == i && (unsigned)q < ipu_link_info_port(a))))
		return false;
	return true;
}

size_t topo_channels(const struct ipu_topology *topo, int only, bool unwired,
		     struct channel *out, size_t max)
{
	size_t n = 0;

	for (unsigned i = 0; i < ipu_topology_num_cards(topo); i++) {
		const struct ipu_links *l = ipu_topology_card_links(topo, i);

		for (unsigned p = 0; p < ipu_links_num_ports(l); p++) {
			const struct ipu_link_info *a = ipu_links_port(l, p);
			struct channel c;

			if (ipu_link_info_peer_port(a) < 0 && !unwired)
				continue;
			if (!channel_of(topo, i, a, &c))
				continue;
			if (only >= 0 && c.from != (unsigned)only && c.to != only)
				continue;
			if (out && n < max)
				out[n] = c;
			n++;
		}
	}
	return n;
}

unsigned topo_link_ports(const struct ipu_topology *topo)
{
	unsigned ports = 0;

	for (unsigned i = 0; i < ipu_topology_num_cards(topo); i++)
		ports += ipu_links_num_ports(ipu_topology_card_links(topo, i));
	return ports;
}

static const struct ipu_card *card_of(const struct ipu_card *cards, size_t n,
				      unsigned id)
{
	for (size_t i = 0; cards && i < n; i++)
		if (cards[i].id == id)
			return &cards[i];
	return NULL;
}

void print_devices_list(FILE *f, const struct ipu_topology *topo,
			const struct ipu_card *cards, size_t n)
{
	char name[24];

	for (unsigned g = 0; g < ipu_topology_num_groups(topo); g++) {
		const struct ipu_group_info *gi = ipu_topology_group(topo, g);
		unsigned size = ipu_group_info_size(gi);

		if (size == 1) {
			unsigned i = (unsigned)ipu_group_info_member(gi, 0);
			const struct ipu_links *l = ipu_topology_card_links(topo, i);
			const struct ipu_card *c = card_of(cards, n, ipu_links_card(l));

			fprintf(f, "-+- Id: [%u], target: [PCIe], IPU: [%s], model: [%s], serial: [%s], PCI: [%s]\n",
				ipu_group_info_id(gi), card_name(topo, i, name, sizeof(name)),
				c ? c->model_name : "", ipu_links_serial(l),
				c ? c->pci_address : "");
			continue;
		}
		fprintf(f, "-+- Id: [%u], target: [Multi IPU], IPUs: [%u]\n",
			ipu_group_info_id(gi), size);
		for (unsigned k = 0; k < size; k++) {
			unsigned i = (unsigned)ipu_group_info_member(gi, k);

			fprintf(f, " |--- Id: [%u], DNC Id: [%u], IPU: [%s], serial: [%s]\n",
				i, k, card_name(topo, i, name, sizeof(name)),
				ipu_links_serial(ipu_topology_card_links(topo, i)));
		}
	}
}

/* The members of @gi: "members" (device ids) and "ipus" (names). */
static void group_members_json(struct jw *w, const struct ipu_topology *topo,
			       const struct ipu_group_info *gi)
{
	char name[24];

	jw_arr_begin(w, "members");
	for (unsigned k = 0; k < ipu_group_info_size(gi); k++)
		jw_u64(w, NULL, (uint64_t)ipu_group_info_member(gi, k));
	jw_arr_end(w);
	jw_arr_begin(w, "ipus");
	for (unsigned k = 0; k < ipu_group_info_size(gi); k++)
		jw_str(w, NULL, card_name(topo, (unsigned)ipu_group_info_member(gi, k),
					  name, sizeof(name)));
	jw_arr_end(w);
}

void print_devices_json(struct jw *w, const struct ipu_topology *topo)
{
	jw_arr_begin(w, "devices");
	for (unsigned g = 0; g < ipu_topology_num_groups(topo); g++) {
		const struct ipu_group_info *gi = ipu_topology_group(topo, g);

		jw_obj_begin(w, NULL);
		jw_u64(w, "id", ipu_group_info_id(gi));
		jw_str(w, "type", ipu_group_info_size(gi) == 1 ? "single" : "multi");
		jw_u64(w, "size", ipu_group_info_size(gi));
		group_members_json(w, topo, gi);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

void print_group_detail(FILE *f, struct jw *w, const struct ipu_topology *topo,
			const struct ipu_group_info *gi)
{
	char name[24];

	if (w) {
		jw_u64(w, "id", ipu_group_info_id(gi));
		jw_str(w, "type", "multi");
		jw_u64(w, "size", ipu_group_info_size(gi));
		group_members_json(w, topo, gi);
		return;
	}
	fprintf(f, "id: %u\ntype: Multi IPU\nnum ipus: %u\nmembers:",
		ipu_group_info_id(gi), ipu_group_info_size(gi));
	for (unsigned k = 0; k < ipu_group_info_size(gi); k++)
		fprintf(f, " %d", ipu_group_info_member(gi, k));
	fprintf(f, "\n");
	for (unsigned k = 0; k < ipu_group_info_size(gi); k++) {
		unsigned i = (unsigned)ipu_group_info_member(gi, k);

		fprintf(f, "member %u: %s (%s)\n", k,
			card_name(topo, i, name, sizeof(name)),
			ipu_links_serial(ipu_topology_card_links(topo, i)));
	}
}

void print_card_links_summary(FILE *f, struct jw *w, const struct ipu_links *l)
{
	unsigned ports = ipu_links_num_ports(l), up = 0;
	uint64_t corr = 0, uncorr = 0;
	int fi = ipu_links_fabric_index(l);

	for (unsigned p = 0; p < ports; p++) {
		const struct ipu_link_info *li = ipu_links_port(l, p);

		up += ipu_link_info_state(li) == IPU_LINK_UP;
		corr += ipu_link_info_errors_corr(li);
		uncorr += ipu_link_info_errors_uncorr(li);
	}
	if (w) {
		fi >= 0 ? jw_i64(w, "fabric_index", fi) : jw_null(w, "fabric_index");
		jw_u64(w, "link_ports", ports);
		if (!ports) {
			jw_null(w, "links_up");
			jw_null(w, "link_correctable_error_count");
			jw_null(w, "link_uncorrectable_error_count");
			return;
		}
		jw_u64(w, "links_up", up);
		jw_u64(w, "link_correctable_error_count", corr);
		jw_u64(w, "link_uncorrectable_error_count", uncorr);
		return;
	}
	if (fi >= 0)
		fprintf(f, "fabric index: %d\n", fi);
	else
		fprintf(f, "fabric index: n/a\n");
	if (!ports) {
		fprintf(f, "ipu-links: no IPU-Link information\n");
		return;
	}
	fprintf(f, "ipu-link ports: %u\nipu-links up: %u\n", ports, up);
	fprintf(f, "ipu-link correctable error count: %llu\n",
		(unsigned long long)corr);
	fprintf(f, "ipu-link uncorrectable error count: %llu\n",
		(unsigned long long)uncorr);
}

/* "ipuN:P", "SERIAL:P" (a card not in the topology) or "-" (not wired). */
static const char *to_name(const struct ipu_topology *topo,
			   const struct channel *c, char *buf, size_t size)
{
	int q = ipu_link_info_peer_port(c->a);

	if (c->to >= 0)
		snprintf(buf, size, "ipu%u:%d",
			 ipu_links_card(ipu_topology_card_links(topo, (unsigned)c->to)), q);
	else if (q >= 0)
		snprintf(buf, size, "%s:%d", ipu_link_info_peer_serial(c->a), q);
	else
		snprintf(buf, size, "-");
	return buf;
}

/* The channel's state: both ends' when they agree, "a/b" when not. */
static const char *state_name(const struct channel *c, char *buf, size_t size)
{
	int sa = ipu_link_info_state(c->a);

	if (!c->b || ipu_link_info_state(c->b) == sa)
		snprintf(buf, size, "%s", ipu_link_state_name(sa));
	else
		snprintf(buf, size, "%s/%s", ipu_link_state_name(sa),
			 ipu_link_state_name(ipu_link_info_state(c->b)));
	return buf;
}

/* Errors of both ends; the lower figure of merit. */
static void channel_figures(const struct channel *c, uint64_t *corr,
			    uint64_t *uncorr, unsigned *fom)
{
	*corr = ipu_link_info_errors_corr(c->a);
	*uncorr = ipu_link_info_errors_uncorr(c->a);
	*fom = ipu_link_info_fom(c->a);
	if (!c->b)
		return;
	*corr += ipu_link_info_errors_corr(c->b);
	*uncorr += ipu_link_info_errors_uncorr(c->b);
	if (ipu_link_info_fom(c->b) < *fom)
		*fom = ipu_link_info_fom(c->b);
}

void print_links_table(FILE *f, const struct ipu_topology *topo,
		       const struct channel *ch, size_t n)
{
	char from[80], to[80], st[32], name[24];

	fprintf(f, "%-10s %-20s %-16s %3s %5s %3s %8s %6s\n", "FROM", "TO",
		"STATE", "GEN", "LANES", "FOM", "CORR", "UNCORR");
	for (size_t i = 0; i < n; i++) {
		const struct channel *c = &ch[i];
		uint64_t corr, uncorr;
		unsigned fom;

		channel_figures(c, &corr, &uncorr, &fom);
		snprintf(from, sizeof(from), "%s:%u",
			 card_name(topo, c->from, name, sizeof(name)),
			 ipu_link_info_port(c->a));
		fprintf(f, "%-10s %-20s %-16s %3u %5u %3u %8llu %6llu\n", from,
			to_name(topo, c, to, sizeof(to)),
			state_name(c, st, sizeof(st)),
			ipu_link_info_generation(c->a), ipu_link_info_lanes(c->a),
			fom, (unsigned long long)corr, (unsigned long long)uncorr);
	}
}

/* One channel's record: from/to as "ipuN:P" and their parts. */
static void channel_json(struct jw *w, const struct ipu_topology *topo,
			 const struct channel *c)
{
	char buf[80], name[24];
	uint64_t corr, uncorr;
	unsigned fom;
	int q = ipu_link_info_peer_port(c->a);

	channel_figures(c, &corr, &uncorr, &fom);
	jw_obj_begin(w, NULL);
	snprintf(buf, sizeof(buf), "%s:%u", card_name(topo, c->from, name, sizeof(name)),
		 ipu_link_info_port(c->a));
	jw_str(w, "from", buf);
	jw_str(w, "to", q >= 0 ? to_name(topo, c, buf, sizeof(buf)) : NULL);
	jw_u64(w, "from_ipu", ipu_links_card(ipu_topology_card_links(topo, c->from)));
	jw_u64(w, "from_port", ipu_link_info_port(c->a));
	jw_str(w, "from_serial", ipu_links_serial(ipu_topology_card_links(topo, c->from)));
	if (c->to >= 0)
		jw_u64(w, "to_ipu", ipu_links_card(ipu_topology_card_links(topo, (unsigned)c->to)));
	else
		jw_null(w, "to_ipu");
	q >= 0 ? jw_u64(w, "to_port", (uint64_t)q) : jw_null(w, "to_port");
	jw_str(w, "to_serial", q >= 0 ? ipu_link_info_peer_serial(c->a) : NULL);
	jw_str(w, "state", state_name(c, buf, sizeof(buf)));
	jw_str(w, "from_state", ipu_link_state_name(ipu_link_info_state(c->a)));
	jw_str(w, "to_state", c->b ? ipu_link_state_name(ipu_link_info_state(c->b)) : NULL);
	jw_u64(w, "gen", ipu_link_info_generation(c->a));
	jw_u64(w, "lanes", ipu_link_info_lanes(c->a));
	jw_u64(w, "fom", fom);
	jw_u64(w, "errors_corr", corr);
	jw_u64(w, "errors_uncorr", uncorr);
	jw_obj_end(w);
}

/* Whether a channel between two cards of the topology is up at both ends. */
static bool channel_up(const struct channel *c)
{
	return c->b && ipu_link_info_state(c->a) == IPU_LINK_UP &&
	       ipu_link_info_state(c->b) == IPU_LINK_UP;
}

void print_links_json(struct jw *w, const struct ipu_topology *topo,
		      const struct channel *ch, size_t n)
{
	size_t wired = 0, up = 0;

	for (size_t i = 0; i < n; i++) {
		wired += ch[i].to >= 0;
		up += ch[i].to >= 0 && channel_up(&ch[i]);
	}
	jw_obj_begin(w, NULL);
	jw_u64(w, "num_ipus", ipu_topology_num_cards(topo));
	jw_bool(w, "link_information", topo_link_ports(topo) != 0);
	jw_str(w, "overall_result", !wired ? "none" : up == wired ? "passed" : "failed");
	jw_u64(w, "channels_up", up);
	jw_arr_begin(w, "channels");
	for (size_t i = 0; i < n; i++)
		channel_json(w, topo, &ch[i]);
	jw_arr_end(w);
	jw_obj_end(w);
}

int print_links_view(FILE *f, const struct ipu_topology *topo, int only,
		     bool unwired, bool json, bool ladder)
{
	size_t n = topo_channels(topo, only, unwired, NULL, 0);
	struct channel *ch = calloc(n + 1, sizeof(*ch));
	struct jw w;

	if (!ch)
		return -ENOMEM;
	topo_channels(topo, only, unwired, ch, n);
	if (json) {
		jw_init(&w, f);
		print_links_json(&w, topo, ch, n);
		jw_end(&w);
	} else if (!topo_link_ports(topo)) {
		fprintf(f, "%s\n", TOPO_NO_LINKS);
	} else if (ladder) {
		print_ladder(f, topo);
	} else if (!n) {
		fprintf(f, "no IPU-Link channels: no port is wired\n");
	} else {
		print_links_table(f, topo, ch, n);
	}
	free(ch);
	return 0;
}
