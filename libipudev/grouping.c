// SPDX-License-Identifier: MIT
/*
 * libipudev: multi-IPU device ids from the cards' links, and the getters
 * of struct ipu_group_info. No I/O: the numbering is a function of the
 * cards (in device order) and their ports, so tests give it topologies as
 * data. The rule (docs/libipudev.md "Multi-IPU device ids"): singles
 * 0..N-1, then every aligned block of 2, 4, 8, 16 device indices gets id
 * N + its index among all blocks, and is a device only when the links
 * both of whose ends are up connect its members.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

/* Whether any port of card @a is an UP link (both ends) to card @b. */
static bool joined(struct ipu_links *const *cards, unsigned n, unsigned a,
		   unsigned b)
{
	for (unsigned p = 0; p < cards[a]->nports; p++)
		if (ipu__link_joins(cards, n, a, p, b))
			return true;
	return false;
}

/*
 * Whether the members first .. first + size - 1 are connected by links
 * among themselves: a search from the first member over the block's
 * edges reaches them all.
 */
static bool block_linked(struct ipu_links *const *cards, unsigned n,
			 unsigned first, unsigned size)
{
	bool seen[IPU_GROUP_MAX_SIZE] = { true };
	unsigned stack[IPU_GROUP_MAX_SIZE], top = 0, reached = 1;

	stack[top++] = 0;
	while (top) {
		unsigned a = stack[--top];

		for (unsigned b = 0; b < size; b++) {
			if (seen[b] || !joined(cards, n, first + a, first + b))
				continue;
			seen[b] = true;
			reached++;
			stack[top++] = b;
		}
	}
	return reached == size;
}

static void fill(struct ipu_group_info *g, struct ipu_links *const *cards,
		 unsigned id, unsigned first, unsigned size)
{
	memset(g, 0, sizeof(*g));
	g->id = id;
	g->first = first;
	g->size = size;
	for (unsigned k = 0; k < size; k++)
		g->cards[k] = cards[first + k]->card;
}

unsigned ipu__num_ids(unsigned n)
{
	unsigned ids = n;

	for (unsigned s = 2; s <= IPU_GROUP_MAX_SIZE; s *= 2)
		ids += n / s;
	return ids;
}

bool ipu__block_of(unsigned n, unsigned id, unsigned *first, unsigned *size)
{
	unsigned next = n;

	for (unsigned s = 2; s <= IPU_GROUP_MAX_SIZE; s *= 2) {
		if (id >= next && id < next + n / s) {
			*first = (id - next) * s;
			*size = s;
			return true;
		}
		next += n / s;
	}
	return false;
}

int ipu__groups_compute(struct ipu_links *const *cards, unsigned n,
			struct ipu_group_info **out, unsigned *count,
			struct ipu_error *err)
{
	struct ipu_group_info *g;
	unsigned k = 0, id;

	*out = NULL;
	*count = 0;
	g = calloc((size_t)ipu__num_ids(n) + 1, sizeof(*g));	/* + 1: never 0 */
	if (!g)
		return ipu__err(err, -ENOMEM, "multi-IPU devices: out of memory");
	for (unsigned i = 0; i < n; i++)
		fill(&g[k++], cards, i, i, 1);
	id = n;
	for (unsigned s = 2; s <= IPU_GROUP_MAX_SIZE; s *= 2)
		for (unsigned first = 0; first + s <= n; first += s, id++)
			if (block_linked(cards, n, first, s))
				fill(&g[k++], cards, id, first, s);
	*out = g;
	*count = k;
	return 0;
}

IPU_API unsigned ipu_group_info_id(const struct ipu_group_info *gi)
{
	return gi ? gi->id : 0;
}

IPU_API unsigned ipu_group_info_size(const struct ipu_group_info *gi)
{
	return gi ? gi->size : 0;
}

IPU_API int ipu_group_info_member(const struct ipu_group_info *gi, unsigned k)
{
	return gi && k < gi->size ? (int)(gi->first + k) : -EINVAL;
}

IPU_API int ipu_group_info_card(const struct ipu_group_info *gi, unsigned k)
{
	return gi && k < gi->size ? (int)gi->cards[k] : -EINVAL;
}
