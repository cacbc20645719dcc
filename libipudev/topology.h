/* SPDX-License-Identifier: MIT */
/*
 * libipudev internals of the IPU-Link objects (links.c, grouping.c,
 * topology.c, group.c): their layouts and the I/O-free numbering, so that
 * host tests can build topologies as data (docs/libipudev.md "IPU-Links
 * and multi-IPU devices").
 */
#ifndef IPUDEV_TOPOLOGY_H
#define IPUDEV_TOPOLOGY_H

#include "internal.h"

/* Where the driver's class directory is; tests pass a fake tree instead. */
#define IPU__CLASS_DIR		"/sys/class/ipu"
#define IPU__SERIAL_MAX		64

struct ipu_link_info {
	unsigned port;
	int state;			/* enum ipu_link_state */
	char peer_serial[IPU__SERIAL_MAX]; /* "" when not wired */
	int peer_port;			/* -1 when not wired */
	unsigned generation, lanes, fom;
	uint64_t errors_corr, errors_uncorr;
};

struct ipu_links {
	unsigned card;			/* N of ipuN */
	char serial[IPU__SERIAL_MAX];
	int fabric_index;		/* -1: none */
	unsigned nports;
	struct ipu_link_info *ports;	/* nports, owned */
};

struct ipu_group_info {
	unsigned id;
	unsigned size;			/* 1, 2, 4, 8, 16 */
	unsigned first;			/* device index of member 0 */
	unsigned cards[IPU_GROUP_MAX_SIZE]; /* N of ipuN of each member */
};

/*
 * ipu__links_new() - an empty struct ipu_links of card @card with @nports
 * ports, all DOWN and not wired, fabric index -1 (for readers and for
 * tests that describe cards as data). NULL when out of memory.
 */
struct ipu_links *ipu__links_new(unsigned card, const char *serial,
				 unsigned nports);

/*
 * ipu__links_read_dir() - ipu_links_read() of card @card under @class_dir
 * (IPU__CLASS_DIR, or a test's tree of the same shape). With @allow_none a
 * card without a links/ directory gives 0 ports instead of -EOPNOTSUPP.
 */
int ipu__links_read_dir(const char *class_dir, unsigned card, bool allow_none,
			struct ipu_links **out, struct ipu_error *err);

/*
 * ipu__links_index_of() - the index in @cards (@n) of the card whose serial
 * is @serial; -1 when none (or @serial is empty).
 */
int ipu__links_index_of(struct ipu_links *const *cards, unsigned n,
			const char *serial);

/*
 * ipu__link_joins() - whether port @p of @cards[@a] is a link to
 * @cards[@b] that both ends report UP, each end naming the other.
 */
bool ipu__link_joins(struct ipu_links *const *cards, unsigned n, unsigned a,
		     unsigned p, unsigned b);

/* ipu__num_ids() - ids the numbering gives @n cards (singles and blocks). */
unsigned ipu__num_ids(unsigned n);

/*
 * ipu__block_of() - the block that multi-IPU id @id names among @n cards:
 * its first device index and size; false when @id is a single IPU's
 * (< @n) or beyond the last block.
 */
bool ipu__block_of(unsigned n, unsigned id, unsigned *first, unsigned *size);

/*
 * ipu__groups_compute() - the device ids of @n cards in device order
 * (docs/libipudev.md "Multi-IPU device ids"); no I/O. *@out (malloc'ed,
 * the caller frees it) gets *@count entries in id order: the @n singles,
 * then every linked block. Returns 0 or -ENOMEM.
 */
int ipu__groups_compute(struct ipu_links *const *cards, unsigned n,
			struct ipu_group_info **out, unsigned *count,
			struct ipu_error *err);

/*
 * ipu__topology_read_dir() - ipu_topology_read() under @class_dir.
 */
int ipu__topology_read_dir(const char *class_dir, unsigned flags,
			   struct ipu_topology **out, struct ipu_error *err);

/*
 * ipu__topology_from_links() - a topology of @n cards given as data (in
 * device order); takes ownership of @cards (an array of @n malloc'ed
 * struct ipu_links, freed also on failure).
 */
int ipu__topology_from_links(struct ipu_links **cards, unsigned n,
			     struct ipu_topology **out, struct ipu_error *err);

/*
 * ipu__group_open_in() - ipu_group_open() with the topology given; the
 * members are opened with ipu_device_open().
 */
int ipu__group_open_in(const struct ipu_topology *topo, unsigned id,
		       unsigned flags, struct ipu_group **out,
		       struct ipu_error *err);

#endif /* IPUDEV_TOPOLOGY_H */
