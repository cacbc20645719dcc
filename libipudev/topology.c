// SPDX-License-Identifier: MIT
/*
 * libipudev: struct ipu_topology, a snapshot of every card of the class
 * directory, its links, and the device ids they give (grouping.c).
 *
 * Cards are found by listing the class directory (ipuN entries, sorted by
 * N) rather than through libudev so that the same code reads the test
 * trees of tests/library/unit; the attributes are sysfs files either way.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

struct ipu_topology {
	unsigned ncards;
	struct ipu_links **cards;	/* device order, owned */
	unsigned ngroups;
	struct ipu_group_info *groups;	/* id order, owned */
};

IPU_API void ipu_topology_free(struct ipu_topology *topo)
{
	if (!topo)
		return;
	for (unsigned i = 0; i < topo->ncards; i++)
		ipu_links_free(topo->cards[i]);
	free(topo->cards);
	free(topo->groups);
	free(topo);
}

int ipu__topology_from_links(struct ipu_links **cards, unsigned n,
			     struct ipu_topology **out, struct ipu_error *err)
{
	struct ipu_topology *t = calloc(1, sizeof(*t));
	int ret;

	*out = NULL;
	if (!t) {
		for (unsigned i = 0; i < n; i++)
			ipu_links_free(cards[i]);
		free(cards);
		return ipu__err(err, -ENOMEM, "topology: out of memory");
	}
	t->cards = cards;
	t->ncards = n;
	ret = ipu__groups_compute(cards, n, &t->groups, &t->ngroups, err);
	if (ret) {
		ipu_topology_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* N of an "ipuN" entry (digits only, no leading zero but "ipu0"). */
static bool card_number(const char *name, unsigned *id)
{
	char *end;
	unsigned long v;

	if (strncmp(name, "ipu", 3) || name[3] < '0' || name[3] > '9' ||
	    (name[3] == '0' && name[4]))
		return false;
	errno = 0;
	v = strtoul(name + 3, &end, 10);
	if (errno || *end || v > 0xffffffUL)
		return false;
	*id = (unsigned)v;
	return true;
}

/* The sorted N of every ipuN in @class_dir into *@ids (malloc'ed). */
static int list_cards(const char *class_dir, unsigned **ids, unsigned *n,
		      struct ipu_error *err)
{
	DIR *d = opendir(class_dir);
	struct dirent *e;
	unsigned *list = NULL, cap = 0, k = 0, id;

	*ids = NULL;
	*n = 0;
	if (!d)
		return errno == ENOENT ?
			ipu__err(err, -ENODEV,
				 "no IPU cards found: driver ipu.ko not loaded (%s missing)",
				 class_dir) :
			ipu__err_sys(err, -errno, "list %s", class_dir);
	while ((e = readdir(d))) {
		if (!card_number(e->d_name, &id))
			continue;
		if (k == cap) {
			unsigned *l = realloc(list, (cap ? cap * 2 : 16) *
						    sizeof(*l));

			if (!l) {
				free(list);
				closedir(d);
				return ipu__err(err, -ENOMEM,
						"topology: out of memory");
			}
			list = l;
			cap = cap ? cap * 2 : 16;
		}
		list[k++] = id;
	}
	closedir(d);
	if (!k) {
		free(list);
		return ipu__err(err, -ENODEV,
				"no IPU cards found: driver ipu.ko is loaded but no card is bound (%s is empty)",
				class_dir);
	}
	qsort(list, k, sizeof(*list), cmp_unsigned);
	*ids = list;
	*n = k;
	return 0;
}

int ipu__topology_read_dir(const char *class_dir, unsigned flags,
			   struct ipu_topology **out, struct ipu_error *err)
{
	struct ipu_links **cards;
	unsigned *ids, n;
	int ret;

	if (!out)
		return ipu__err(err, -EINVAL,
				"ipu_topology_read: out must not be NULL");
	*out = NULL;
	if (flags & ~IPU_TOPOLOGY_VALID_FLAGS)
		return ipu__err(err, -EINVAL,
				"ipu_topology_read: unknown flags 0x%x",
				flags & ~IPU_TOPOLOGY_VALID_FLAGS);
	ret = list_cards(class_dir, &ids, &n, err);
	if (ret)
		return ret;
	cards = calloc(n, sizeof(*cards));
	if (!cards) {
		free(ids);
		return ipu__err(err, -ENOMEM, "topology: out of memory");
	}
	for (unsigned i = 0; i < n && !ret; i++)
		ret = ipu__links_read_dir(class_dir, ids[i], true, &cards[i],
					  err);
	free(ids);
	if (ret) {
		for (unsigned i = 0; i < n; i++)
			ipu_links_free(cards[i]);
		free(cards);
		return ret;
	}
	return ipu__topology_from_links(cards, n, out, err);
}

IPU_API int ipu_topology_read(unsigned flags, struct ipu_topology **out,
			      struct ipu_error *err)
{
	return ipu__topology_read_dir(IPU__CLASS_DIR, flags, out, err);
}

IPU_API unsigned ipu_topology_num_cards(const struct ipu_topology *topo)
{
	return topo ? topo->ncards : 0;
}

IPU_API const struct ipu_links *
ipu_topology_card_links(const struct ipu_topology *topo, unsigned index)
{
	return topo && index < topo->ncards ? topo->cards[index] : NULL;
}

IPU_API int ipu_topology_card_by_serial(const struct ipu_topology *topo,
					const char *serial)
{
	int i;

	if (!topo || !serial)
		return -EINVAL;
	i = ipu__links_index_of(topo->cards, topo->ncards, serial);
	return i < 0 ? -ENOENT : i;
}

IPU_API unsigned ipu_topology_num_ids(const struct ipu_topology *topo)
{
	return topo ? ipu__num_ids(topo->ncards) : 0;
}

IPU_API unsigned ipu_topology_num_groups(const struct ipu_topology *topo)
{
	return topo ? topo->ngroups : 0;
}

IPU_API const struct ipu_group_info *
ipu_topology_group(const struct ipu_topology *topo, unsigned index)
{
	return topo && index < topo->ngroups ? &topo->groups[index] : NULL;
}

IPU_API const struct ipu_group_info *
ipu_topology_find_group(const struct ipu_topology *topo, unsigned id)
{
	for (unsigned i = 0; topo && i < topo->ngroups; i++)
		if (topo->groups[i].id == id)
			return &topo->groups[i];
	return NULL;
}

IPU_API int ipu_topology_check_group(const struct ipu_topology *topo, unsigned id,
				     struct ipu_error *err)
{
	unsigned n = ipu_topology_num_cards(topo), first, size;
	char names[IPU_GROUP_MAX_SIZE * 12] = "";
	size_t len = 0;

	if (!topo)
		return ipu__err(err, -EINVAL, "ipu_topology_check_group: topo must not be NULL");
	if (ipu_topology_find_group(topo, id))
		return 0;
	if (!ipu__block_of(n, id, &first, &size))
		return ipu__err(err, -ENODEV,
				"no device %u (this machine numbers 0-%u)",
				id, ipu__num_ids(n) - 1);
	for (unsigned k = 0; k < size && len < sizeof(names); k++)
		len += (size_t)snprintf(names + len, sizeof(names) - len,
					"%sipu%u", k ? ", " : "",
					ipu_links_card(ipu_topology_card_links(topo,
									first + k)));
	return ipu__err(err, -ENODEV,
			"device %u (%s) is not linked: its IPUs are not all joined by IPU-Links that are up",
			id, names);
}
