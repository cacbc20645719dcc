/* SPDX-License-Identifier: MIT */
/*
 * The tools' views of device ids, groups and IPU-Links (ipu-info -l,
 * ipu-info --links, ipu-links), printed from a struct ipu_topology so that
 * host tests check them on topologies given as data.
 */
#ifndef IPU_TOOLS_TOPO_VIEW_H
#define IPU_TOOLS_TOPO_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "common.h"

/*
 * One IPU-Link channel: a wired port and what is at its other end. A
 * channel between two cards of the topology is listed once, from the end
 * with the lower (device index, port).
 */
struct channel {
	unsigned from;			/* device index */
	const struct ipu_link_info *a;	/* the from end */
	int to;				/* device index, -1: not in the topology */
	const struct ipu_link_info *b;	/* the to end, NULL when unknown */
};

/*
 * topo_channels() - the channels of @topo into @out (at most @max; NULL
 * @out only counts), those touching device index @only (-1: all); with
 * @unwired also ports wired to nothing (to == -1, b == NULL, a's peer
 * port -1). Returns how many there are.
 */
size_t topo_channels(const struct ipu_topology *topo, int only, bool unwired,
		     struct channel *out, size_t max);

/* topo_link_ports() - ports the driver reports over all cards of @topo. */
unsigned topo_link_ports(const struct ipu_topology *topo);

/*
 * print_devices_list() - every device id of @topo as `gc-info -l` shows
 * them: single IPUs (with PCI address and serial from @cards, @n of them,
 * when given), then multi-IPU groups with their members.
 */
void print_devices_list(FILE *f, const struct ipu_topology *topo,
			const struct ipu_card *cards, size_t n);

/* print_devices_json() - the array "devices" of @topo's ids into @w. */
void print_devices_json(struct jw *w, const struct ipu_topology *topo);

/*
 * print_group_detail() - multi-IPU device @gi as `key: value` lines (or
 * JSON members with @w).
 */
void print_group_detail(FILE *f, struct jw *w, const struct ipu_topology *topo,
			const struct ipu_group_info *gi);

/*
 * print_card_links_summary() - the IPU-Link lines of one card's detail
 * (fabric index, ports up, error counts), `key: value` or JSON members.
 */
void print_card_links_summary(FILE *f, struct jw *w, const struct ipu_links *l);

/* print_links_table() - one row per channel of @ch (@n) of @topo. */
void print_links_table(FILE *f, const struct ipu_topology *topo,
		       const struct channel *ch, size_t n);

/*
 * print_links_json() - {"num_ipus", "link_information", "overall_result",
 * "channels": [one record per channel]} into @w (a document of its own).
 */
void print_links_json(struct jw *w, const struct ipu_topology *topo,
		      const struct channel *ch, size_t n);

/*
 * print_ladder() - @topo drawn as a ladder: a row per pair (2k, 2k+1)
 * with its rung, the rails below each card, and the links that fit
 * neither listed after.
 */
void print_ladder(FILE *f, const struct ipu_topology *topo);

/*
 * print_links_view() - the links view of ipu-links and ipu-info --links on
 * @f: the channels of @topo touching device index @only (-1: all; with
 * @unwired also unwired ports) as JSON, or the table, or with @ladder the
 * ladder; the "no IPU-Link information" line when the driver reports no
 * ports. Returns 0, or -ENOMEM (nothing printed).
 */
int print_links_view(FILE *f, const struct ipu_topology *topo, int only,
		     bool unwired, bool json, bool ladder);

/* The message of a topology whose driver reports no links. */
#define TOPO_NO_LINKS "no IPU-Link information: the driver reports no IPU-Link ports (/sys/class/ipu/ipuN/links is missing)"

#endif /* IPU_TOOLS_TOPO_VIEW_H */
