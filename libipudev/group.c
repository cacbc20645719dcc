// SPDX-License-Identifier: MIT
/*
 * libipudev: struct ipu_group, an open device id: the member cards of a
 * single IPU or a multi-IPU group, opened all or none.
 *
 * Each member is its own ipu_device_open(); the driver's atomic group
 * attach (GROUP_ATTACH) is ipu_group_device_open()'s (group_device.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "group_internal.h"
#include "topology.h"

struct ipu_group {
	unsigned id;
	unsigned size;
	struct ipu_device *members[IPU_GROUP_MAX_SIZE];
	unsigned cards[IPU_GROUP_MAX_SIZE];	/* N of member k's ipuN */
};

IPU_API void ipu_group_close(struct ipu_group *group)
{
	if (!group)
		return;
	for (unsigned k = 0; k < group->size; k++)
		ipu_device_close(group->members[k]);	/* NULL: taken */
	free(group);
}

int ipu__group_open_in(const struct ipu_topology *topo, unsigned id,
		       unsigned flags, struct ipu_group **out,
		       struct ipu_error *err)
{
	const struct ipu_group_info *gi = ipu_topology_find_group(topo, id);
	struct ipu_group *g;
	int ret;

	*out = NULL;
	if (!gi)
		return ipu_topology_check_group(topo, id, err);
	g = calloc(1, sizeof(*g));
	if (!g)
		return ipu__err(err, -ENOMEM, "open device %u: out of memory", id);
	g->id = id;
	for (unsigned k = 0; k < gi->size; k++) {
		g->cards[k] = gi->cards[k];
		ret = ipu_device_open(gi->cards[k], flags, &g->members[k], err);
		if (ret) {
			ipu_group_close(g);
			return ret;
		}
		g->size = k + 1;
	}
	*out = g;
	return 0;
}

IPU_API int ipu_group_open(unsigned id, unsigned flags, struct ipu_group **out,
			   struct ipu_error *err)
{
	struct ipu_topology *topo;
	int ret;

	if (!out)
		return ipu__err(err, -EINVAL, "ipu_group_open: out must not be NULL");
	*out = NULL;
	if (flags & ~IPU_OPEN_VALID_FLAGS)
		return ipu__err(err, -EINVAL, "ipu_group_open: unknown flags 0x%x",
				flags & ~IPU_OPEN_VALID_FLAGS);
	ret = ipu_topology_read(0, &topo, err);
	if (ret)
		return ret;
	ret = ipu__group_open_in(topo, id, flags, out, err);
	ipu_topology_free(topo);
	return ret;
}

IPU_API unsigned ipu_group_id(const struct ipu_group *group)
{
	return group ? group->id : 0;
}

IPU_API unsigned ipu_group_size(const struct ipu_group *group)
{
	return group ? group->size : 0;
}

IPU_API struct ipu_device *ipu_group_member(const struct ipu_group *group,
					    unsigned k)
{
	return group && k < group->size ? group->members[k] : NULL;
}

int ipu__group_take_member(struct ipu_group *group, unsigned k,
			   struct ipu_device **out)
{
	if (k >= group->size || !group->members[k])
		return -EINVAL;
	*out = group->members[k];
	group->members[k] = NULL;
	return 0;
}

/* The members' fabric indices as LOAD's mask; 0 or -EPROTO (named). */
int ipu__group_mask(const struct ipu_group *grp, unsigned id, uint64_t *mask,
		    struct ipu_error *err)
{
	*mask = 0;
	for (unsigned k = 0; k < ipu_group_size(grp); k++) {
		unsigned card = grp->cards[k];
		struct ipu_links *l;
		int r = ipu_links_read(card, &l, err);
		int fi = r ? -1 : ipu_links_fabric_index(l);

		ipu_links_free(l);
		if (r)
			return r;
		if (fi < 0 || fi >= 64)
			return ipu__err(err, -EPROTO,
					"open device %u: ipu%u reports no fabric index", id, card);
		*mask |= 1ull << fi;
	}
	return 0;
}
