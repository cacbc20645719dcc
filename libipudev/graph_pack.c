// SPDX-License-Identifier: MIT
/*
 * libipudev: packed tables (graph_pack.h). Greedy: from each record, the
 * group that covers the most records per byte among the lags 1..256 (each
 * lag's run is as long as the records keep the first one's deltas; a run
 * of one record is priced for the lags 1..8 only). Irregular records cost
 * a compare or two per lag; a lag's scan of a run is at most about 5 x
 * the run taken (a run is chosen over one 5 x longer only if it costs
 * fewer bytes per record).
 */
#include "graph_pack.h"

#include <string.h>

#include "ipu/graph_format.h"

#define SINGLE_LAGS 8	/* lags tried for a group of one record */

_Static_assert(IPU_GRAPH_PACKED_MAX_LAG < (1u << 14), "a lag's varint: 2 bytes in ipu__pack_bound()");

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

/* how many records from r keep record r's deltas against @lag (>= 1) */
static uint32_t run_len(const struct table *t, uint32_t r, uint32_t lag)
{
	uint32_t e = r + 1;

	for (; e < t->count; e++) {
		uint32_t k = 0;

		while (k < t->words && delta(t, e, lag, k) == delta(t, r, lag, k))
			k++;
		if (k < t->words)
			break;
	}
	return e - r;
}

/* bytes of the group of @n records from r with @lag */
static unsigned group_bytes(const struct table *t, uint32_t r, uint32_t lag, uint32_t n)
{
	unsigned bytes = varint_len(n) + varint_len(lag);

	for (uint32_t k = 0; k < t->words; k++)
		bytes += varint_len(ipu_graph_zigzag(delta(t, r, lag, k)));
	return bytes;
}

size_t ipu__pack_bound(uint32_t count, uint32_t entsize)
{
	/* a group per record at worst: n, lag (<= 256: 2 bytes), every word at its longest */
	return sizeof(struct ipu_graph_packed_table) + 3 +
	       (size_t)count * (IPU_GRAPH_VARINT_MAX + 2 + IPU_GRAPH_VARINT_MAX * (entsize / 4));
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
			n = run_len(&t, r, lag);
			/* a lone record: only the nearest lags are worth its deltas' cost */
			if (n == 1 && lag > SINGLE_LAGS)
				continue;
			cost = group_bytes(&t, r, lag, n);
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
