/* SPDX-License-Identifier: MIT */
/*
 * libipudev: what group.c gives the group backend (group_device.c), which
 * cannot include topology.h: the uAPI header it needs names a struct
 * ipu_links of its own.
 */
#ifndef IPUDEV_GROUP_INTERNAL_H
#define IPUDEV_GROUP_INTERNAL_H

#include <stdint.h>

#include "internal.h"

/*
 * ipu__group_take_member() - hand member @k's device over to the caller
 * (*@out; ipu_group_close() no longer closes it). 0, or -EINVAL when @k is
 * out of range or already taken.
 */
int ipu__group_take_member(struct ipu_group *group, unsigned k,
			   struct ipu_device **out);
/*
 * ipu__group_mask() - the members' fabric indices (sysfs fabric_index) as
 * LOAD's member mask, for messages about device @id. 0, -EPROTO (a member
 * on no fabric, named) or the errors of ipu_links_read().
 */
int ipu__group_mask(const struct ipu_group *grp, unsigned id, uint64_t *mask,
		    struct ipu_error *err);

#endif /* IPUDEV_GROUP_INTERNAL_H */
