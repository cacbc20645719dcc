// SPDX-License-Identifier: MIT
/*
 * In-VM test of libipudev's device ids on the cards (libipudev/topology.c,
 * group.c): the topology agrees with the enumeration, every single IPU's id
 * opens its card, ids that are no device say why, and a multi-IPU group
 * opens all its members or none. The group tests need linked cards (a VM
 * booted with a fabric, e.g. tools/ipu-vm --topology m2000); without links
 * they check that the first pair is refused as not linked. All or none is
 * checked on the first group of 4 and on the largest group (an M2000's
 * device 6; a POD16's 24 and 30): the library's member-by-member open and
 * the group device's one GROUP_ATTACH.
 */
#include <stdbool.h>
#include <unistd.h>

#include "exec_common.h"

static struct ipu_error e;

/* The topology's cards are the enumeration's, in order. */
static void check_cards(const struct ipu_topology *t)
{
	struct ipu_card *cards;
	size_t n;
	bool same;

	if (ipu_enumerate(&cards, &n, &e)) {
		kt_result(0, "topology cards match the enumeration # %s", e.msg);
		return;
	}
	same = n == ipu_topology_num_cards(t);
	for (size_t i = 0; same && i < n; i++) {
		const struct ipu_links *l = ipu_topology_card_links(t, (unsigned)i);

		same = ipu_links_card(l) == cards[i].id &&
		       !strcmp(ipu_links_serial(l), cards[i].serial);
	}
	kt_result(same, "topology: %zu cards, ids and serials as enumerated", n);
	ipu_cards_free(cards);
}

/* Every single IPU's id opens its card as a group of one. */
static void check_singles(const struct ipu_topology *t)
{
	unsigned n = ipu_topology_num_cards(t), bad = 0;

	for (unsigned i = 0; i < n; i++) {
		struct ipu_group *g;
		struct ipu_device_info info;
		unsigned card = ipu_links_card(ipu_topology_card_links(t, i));

		if (ipu_group_open(i, IPU_OPEN_READONLY, &g, &e)) {
			bad++;
			continue;
		}
		if (ipu_group_size(g) != 1 || ipu_group_id(g) != i ||
		    ipu_device_id(ipu_group_member(g, 0)) != card ||
		    ipu_device_info(ipu_group_member(g, 0), &info, &e) ||
		    !info.tiles || ipu_group_member(g, 1))
			bad++;
		ipu_group_close(g);
	}
	kt_result(!bad, "ids 0-%u open their card (%u wrong)", n - 1, bad);
}

/*
 * The groups whose attach is tested, into @out (2 at most): the first
 * linked group of 4 and the largest linked group when it is larger (an
 * M2000: device 6; a POD16: 24 and 30). How many.
 */
static unsigned groups_to_test(const struct ipu_topology *t, const struct ipu_group_info **out)
{
	const struct ipu_group_info *four = NULL, *best = NULL;
	unsigned n = 0;

	for (unsigned i = 0; i < ipu_topology_num_groups(t); i++) {
		const struct ipu_group_info *gi = ipu_topology_group(t, i);
		unsigned sz = ipu_group_info_size(gi);

		if (sz == 4 && !four)
			four = gi;
		if (sz > 1 && (!best || sz > ipu_group_info_size(best)))
			best = gi;
	}
	if (four)
		out[n++] = four;
	if (best && best != four)
		out[n++] = best;
	return n;
}

/* Members of @gi other than @skip that can be attached now (and detached). */
static unsigned members_free(const struct ipu_group_info *gi, unsigned skip)
{
	unsigned n = 0;

	for (unsigned k = 0; k < ipu_group_info_size(gi); k++) {
		struct ipu_device *d;

		if (k == skip || ipu_device_open((unsigned)ipu_group_info_card(gi, k),
						 IPU_OPEN_ATTACH | IPU_OPEN_NONBLOCK, &d, &e))
			continue;
		ipu_device_close(d);
		n++;
	}
	return n;
}

/*
 * All or none: with member 1 of @gi held by another attach, opening the
 * group with ATTACH|NONBLOCK, and the group device's one GROUP_ATTACH, fail
 * with -EBUSY naming the holder and leave every other member free; once
 * member 1 is free both attach all the members.
 */
static void check_all_or_none(const struct ipu_group_info *gi)
{
	struct ipu_device *holder = NULL, *dev = (void *)1;
	struct ipu_group *g = (void *)1;
	unsigned flags = IPU_OPEN_ATTACH | IPU_OPEN_NONBLOCK;
	unsigned id = ipu_group_info_id(gi), size = ipu_group_info_size(gi);
	int held = ipu_group_info_card(gi, 1);
	char want[96];
	int r;

	if (ipu_device_open((unsigned)held, flags, &holder, &e)) {
		kt_result(0, "hold member 1 of device %u # %s", id, e.msg);
		return;
	}
	r = ipu_group_open(id, flags, &g, &e);
	kt_result(r == -EBUSY && g == NULL, "device %u with member 1 held: -EBUSY (%d: %s)",
		  id, r, e.msg);
	r = ipu_group_device_open(id, IPU_OPEN_ATTACH, &dev, &e);
	snprintf(want, sizeof(want), "ipu%d is in use by process %d", held, (int)getpid());
	kt_result(r == -EBUSY && dev == NULL && strstr(e.msg, want),
		  "device %u group attach: -EBUSY naming the holder (%d: %s)", id, r, e.msg);
	r = (int)members_free(gi, 1);
	kt_result(r == (int)size - 1, "device %u: the other %u members left free (%d free)",
		  id, size - 1, r);
	ipu_device_close(holder);
	r = ipu_group_device_open(id, IPU_OPEN_ATTACH, &dev, &e);
	kt_result(r == 0 && members_free(gi, size) == 0,
		  "device %u attaches its %u members at once once free (%d: %s)", id, size, r,
		  r ? e.msg : "");
	if (!r)
		ipu_device_close(dev);
	r = ipu_group_open(id, flags, &g, &e);
	kt_result(r == 0 && ipu_group_size(g) == size,
		  "device %u opens and attaches its %u members once free (%d)", id, size, r);
	if (!r)
		ipu_group_close(g);
}

int main(void)
{
	struct ipu_topology *t;
	const struct ipu_group_info *gi[2];
	struct ipu_group *g = (void *)1;
	unsigned n, ids, ng;
	char want[64];
	int r;

	printf("TAP version 13\n");
	if (ipu_topology_read(0, &t, &e)) {
		printf("1..1\nnot ok 1 topology # %s\n", e.msg);
		return 1;
	}
	ng = groups_to_test(t, gi);
	printf("1..%u\n", 5 + 5 * (ng ? ng : 1));
	n = ipu_topology_num_cards(t);
	ids = ipu_topology_num_ids(t);
	check_cards(t);
	check_singles(t);

	r = ipu_group_open(ids, 0, &g, &e);
	snprintf(want, sizeof(want), "no device %u (this machine numbers 0-%u)", ids, ids - 1);
	kt_result(r == -ENODEV && g == NULL && strstr(e.msg, want),
		  "id %u beyond the numbering: -ENODEV (%s)", ids, e.msg);
	r = ipu_group_open(0, 0x80, &g, &e);
	kt_result(r == -EINVAL, "unknown open flags: -EINVAL (%d)", r);

	if (!ng) {
		r = ipu_group_open(n, IPU_OPEN_READONLY, &g, &e);
		kt_result(n < 2 || (r == -ENODEV && strstr(e.msg, "is not linked")),
			  "without links the first pair (id %u) is refused: %s", n, e.msg);
		kt_skip("all or none", "no linked cards (a VM with a fabric: tools/ipu-vm --topology)");
		kt_skip("group attach names the holder", "no linked cards");
		kt_skip("the other members left free", "no linked cards");
		kt_skip("group attach once free", "no linked cards");
		kt_skip("a group opens once free", "no linked cards");
	} else {
		kt_result(ipu_topology_find_group(t, n) != NULL,
			  "linked cards: the first pair is device %u", n);
		for (unsigned i = 0; i < ng; i++)
			check_all_or_none(gi[i]);
	}
	ipu_topology_free(t);
	return kt_fail ? 1 : 0;
}
