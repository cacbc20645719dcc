/* SPDX-License-Identifier: MIT */
/*
 * Topologies as data for the host tests of the IPU-Link objects
 * (groups_tests.h) and the links view's printers (unit --dump-links...):
 * cards described as struct ipu_links (libipudev/topology.h), wired as the
 * M2000 and POD16 ladders, a ring, or by hand, and written out as a sysfs
 * tree of the driver's shape (docs/libipudev.md "What the library reads").
 *
 * Port use in this data (the fabric's own assignment is in
 * docs/hw-interface.md; the numbering does not depend on it): rungs on
 * ports 0 and 1, the rail to the next pair on port 2, to the previous pair
 * on port 3; a ring uses port 0 forward and port 1 back.
 */
#ifndef TOPO_DATA_H
#define TOPO_DATA_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "topology.h"

#define TD_PORTS	10u
#define TD_MAX		32

struct td {
	unsigned n;
	struct ipu_links *c[TD_MAX];
};

/* @n cards ipu0.. with serials IPU-SN-000i, fabric index i, ports down. */
static inline void td_init(struct td *t, unsigned n)
{
	char serial[32];

	memset(t, 0, sizeof(*t));
	t->n = n;
	for (unsigned i = 0; i < n; i++) {
		snprintf(serial, sizeof(serial), "IPU-SN-%04u", i);
		t->c[i] = ipu__links_new(i, serial, TD_PORTS);
		if (!t->c[i])
			abort();
		t->c[i]->fabric_index = (int)i;
	}
}

static inline void td_free(struct td *t)
{
	for (unsigned i = 0; i < t->n; i++)
		ipu_links_free(t->c[i]);
	t->n = 0;
}

/* One end: port @p of card @a, @state, naming @b's port @q. */
static inline void td_end(struct td *t, unsigned a, unsigned p, unsigned b,
			  unsigned q, int state)
{
	struct ipu_link_info *li = &t->c[a]->ports[p];

	li->state = state;
	ipu__strlcpy(li->peer_serial, t->c[b]->serial, sizeof(li->peer_serial));
	li->peer_port = (int)q;
	li->generation = state == IPU_LINK_UP ? 4 : 0;
	li->lanes = state == IPU_LINK_UP ? 8 : 0;
	li->fom = 200 + a % 50;
	li->errors_corr = a * 100 + p;
	li->errors_uncorr = 0;
}

/* A link @a:@p <-> @b:@q, both ends in @state. */
static inline void td_wire(struct td *t, unsigned a, unsigned p, unsigned b,
			   unsigned q, int state)
{
	td_end(t, a, p, b, q, state);
	td_end(t, b, q, a, p, state);
}

/* Both ends of the link on @a's port @p (wired already) to @state. */
static inline void td_set(struct td *t, unsigned a, unsigned p, int state)
{
	struct ipu_link_info *li = &t->c[a]->ports[p];
	int b = ipu__links_index_of(t->c, t->n, li->peer_serial);

	td_wire(t, a, p, (unsigned)b, (unsigned)li->peer_port, state);
}

/* The ladder of @t->n cards: M2000 (4), POD16 (16, @close: the ends of
 * the rails joined, 0 to n-2 and 1 to n-1). */
static inline void td_ladder(struct td *t, bool close)
{
	for (unsigned i = 0; i + 1 < t->n; i += 2) {
		td_wire(t, i, 0, i + 1, 0, IPU_LINK_UP);
		td_wire(t, i, 1, i + 1, 1, IPU_LINK_UP);
	}
	for (unsigned i = 0; i + 2 < t->n; i++)
		td_wire(t, i, 2, i + 2, 3, IPU_LINK_UP);
	if (close && t->n >= 6) {
		td_wire(t, t->n - 2, 2, 0, 3, IPU_LINK_UP);
		td_wire(t, t->n - 1, 2, 1, 3, IPU_LINK_UP);
	}
}

/* A ring: i to i + 1 mod n. */
static inline void td_ring(struct td *t)
{
	for (unsigned i = 0; i < t->n; i++)
		td_wire(t, i, 0, (i + 1) % t->n, 1, IPU_LINK_UP);
}

/* A topology of @t's cards; @t keeps its own (copied) cards. */
static inline struct ipu_topology *td_topology(const struct td *t)
{
	struct ipu_links **cards = calloc(t->n + 1, sizeof(*cards));
	struct ipu_topology *topo;

	for (unsigned i = 0; cards && i < t->n; i++) {
		const struct ipu_links *s = t->c[i];

		cards[i] = ipu__links_new(s->card, s->serial, s->nports);
		if (!cards[i])
			abort();
		cards[i]->fabric_index = s->fabric_index;
		if (s->nports)
			memcpy(cards[i]->ports, s->ports,
			       s->nports * sizeof(*s->ports));
	}
	if (!cards || ipu__topology_from_links(cards, t->n, &topo, NULL))
		abort();
	return topo;
}

static inline int td_put(const char *dir, const char *name, const char *v)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%s\n", v);
	return fclose(f) ? -errno : 0;
}

/* One port directory of the driver's shape. */
static inline int td_write_port(const char *dir, const struct ipu_link_info *li)
{
	char v[128];
	int r;

	if (mkdir(dir, 0755))
		return -errno;
	r = td_put(dir, "state", ipu_link_state_name(li->state));
	if (li->peer_port >= 0)
		snprintf(v, sizeof(v), "%s:%d", li->peer_serial, li->peer_port);
	else
		snprintf(v, sizeof(v), "none");
	r = r ? r : td_put(dir, "peer", v);
	snprintf(v, sizeof(v), "%u", li->generation);
	r = r ? r : td_put(dir, "generation", v);
	snprintf(v, sizeof(v), "%u", li->lanes);
	r = r ? r : td_put(dir, "lanes", v);
	snprintf(v, sizeof(v), "%u", li->fom);
	r = r ? r : td_put(dir, "fom", v);
	snprintf(v, sizeof(v), "%llu %llu",
		 (unsigned long long)li->errors_corr,
		 (unsigned long long)li->errors_uncorr);
	return r ? r : td_put(dir, "errors", v);
}

/*
 * Write @t under @root (which must exist) as /sys/class/ipu would show
 * it: ipuN/{serial,fabric_index} and, with @links, ipuN/links/portP/.
 */
static inline int td_write_tree(const struct td *t, const char *root,
				bool links)
{
	char dir[400], sub[440], v[32];
	int r = 0;

	for (unsigned i = 0; i < t->n && !r; i++) {
		const struct ipu_links *c = t->c[i];

		snprintf(dir, sizeof(dir), "%s/ipu%u", root, c->card);
		if (mkdir(dir, 0755))
			return -errno;
		snprintf(v, sizeof(v), "%d", c->fabric_index);
		r = td_put(dir, "serial", c->serial);
		r = r ? r : td_put(dir, "fabric_index", v);
		if (r || !links)
			continue;
		snprintf(sub, sizeof(sub), "%s/links", dir);
		if (mkdir(sub, 0755))
			return -errno;
		for (unsigned p = 0; p < c->nports && !r; p++) {
			char pd[480];

			snprintf(pd, sizeof(pd), "%s/port%u", sub, p);
			r = td_write_port(pd, &c->ports[p]);
		}
	}
	return r;
}

#endif /* TOPO_DATA_H */
