// SPDX-License-Identifier: MIT
/*
 * libipudev: packed tables (graph_pack.h). Greedy: from each record, the
 * group that covers the most records per byte among the lags 1..256 (each
 * lag's run is as long as the records keep the first one's deltas). The
 * work is at most lags x records x words.
 */
#include "graph_pack.h"

#include <string.h>

#include "ipu/graph_format.h"

#define WORDS_MAX (IPU_GRAPH_PACKED_MAX_ENTSIZE / 4)

struct table {
	const uint8_t *recs;
	uint32_t count, words;
};

static uint32_t word(const struct table *t, uint64_t r, uint32_t k)
{
	uint32_t v;

	memcpy(&v, t->recs + (r * t->words + k) * 4, 4);
	return v;
}

/* word k of record r minus word k of record r - lag (0 before record 0) */
static uint32_t delta(const struct table *t, uint32_t r, uint32_t lag, uint32_t k)
{
	return word(t, r, k) - (r >= lag ? word(t, r - lag, k) : 0);
}

static unsigned varint_len(uint32_t v)
{
	unsigned n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* the group from record r with @lag: its records (*n) and its bytes */
static unsigned group_cost(const struct table *t, uint32_t r, uint32_t lag, uint32_t *n)
{
	uint32_t d[WORDS_MAX], e = r + 1;
	unsigned bytes = 1;	/* the lag */

	for (uint32_t k = 0; k < t->words; k++) {
		d[k] = delta(t, r, lag, k);
		bytes += varint_len(ipu_graph_zigzag(d[k]));
	}
	for (; e < t->count; e++) {
		uint32_t k = 0;

		while (k < t->words && delta(t, e, lag, k) == d[k])
			k++;
		if (k < t->words)
			break;
	}
	*n = e - r;
	return bytes + varint_len(*n);
}

size_t ipu__pack_bound(uint32_t count, uint32_t entsize)
{
	/* a group per record at worst: n, lag and every word at its longest */
	return sizeof(struct ipu_graph_packed_table) + 3 +
	       (size_t)count * (IPU_GRAPH_VARINT_MAX + 1 + IPU_GRAPH_VARINT_MAX * (entsize / 4));
}

size_t ipu__pack_table(uint32_t type, const void *recs, uint32_t count, uint32_t entsize,
		       uint8_t *out)
{
	struct table t = { recs, count, entsize / 4 };
	struct ipu_graph_packed_table head = { type, count, entsize, 0 };
	size_t o = sizeof(head);

	for (uint32_t r = 0; r < count;) {
		uint32_t best_lag = 1, best_n = 0, n;
		unsigned best = 0, cost;

		for (uint32_t lag = 1; lag <= IPU_GRAPH_PACKED_MAX_LAG; lag++) {
			cost = group_cost(&t, r, lag, &n);
			if (!best_n || (uint64_t)cost * best_n < (uint64_t)best * n) {
				best = cost;
				best_n = n;
				best_lag = lag;
			}
		}
		o += ipu_graph_varint_put(out + o, best_n);
		o += ipu_graph_varint_put(out + o, best_lag);
		for (uint32_t k = 0; k < t.words; k++)
			o += ipu_graph_varint_put(out + o, ipu_graph_zigzag(delta(&t, r, best_lag, k)));
		r += best_n;
	}
	head.bytes = (uint32_t)(o - sizeof(head));
	memcpy(out, &head, sizeof(head));
	while (o % 4)
		out[o++] = 0;
	return o;
}
