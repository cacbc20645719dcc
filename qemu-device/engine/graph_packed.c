/* SPDX-License-Identifier: MIT */
/*
 * Packed tables (graph_packed.h): one walk over a table's groups checks
 * them, and, given a buffer, rebuilds the records on the way. Records are
 * words of 32 bits, little-endian as the host's (the engine's hosts are).
 */
#include "graph_packed.h"

#include <stdlib.h>
#include <string.h>

#define WORDS_MAX (IPU_GRAPH_PACKED_MAX_ENTSIZE / 4)

/* why a table's groups are refused; NULL when they are fine */
struct walk {
	const uint8_t *p;	/* the groups */
	uint32_t bytes, count, words;
	uint32_t *out;		/* count x words, NULL = check only */
	uint64_t at;		/* group's byte offset, for the message */
	uint32_t rec;		/* records made so far */
};

/* the next varint of the groups at *pos into *v; a reason, or NULL */
static const char *next(const struct walk *w, uint32_t *pos, uint32_t *v)
{
	unsigned n = ipu_graph_varint_get(w->p + *pos, w->bytes - *pos, v);

	if (!n)
		return *pos + IPU_GRAPH_VARINT_MAX > w->bytes ? "varint cut off by the table's end"
							      : "varint longer than 5 bytes or over 32 bits";
	*pos += n;
	return NULL;
}

/* make the group's n records from lag and the deltas (into w->out if any) */
static void make(struct walk *w, uint32_t n, uint32_t lag, const uint32_t *d)
{
	for (uint32_t r = w->rec; w->out && r < w->rec + n; r++) {
		uint32_t *o = w->out + (uint64_t)r * w->words;
		const uint32_t *ref = r >= lag ? o - (uint64_t)lag * w->words : NULL;

		for (uint32_t k = 0; k < w->words; k++)
			o[k] = (ref ? ref[k] : 0) + d[k];
	}
	w->rec += n;
}

/* all groups of one table: NULL, or why they are refused (w->at: where) */
static const char *walk_groups(struct walk *w)
{
	uint32_t pos = 0, d[WORDS_MAX];
	const char *why;

	while (w->rec < w->count) {
		uint32_t n, lag;

		w->at = pos;
		if ((why = next(w, &pos, &n)) || (why = next(w, &pos, &lag)))
			return why;
		if (!n || n > w->count - w->rec)
			return "group of 0 records or past the table's count";
		if (!lag || lag > IPU_GRAPH_PACKED_MAX_LAG)
			return "lag not in 1..256";
		for (uint32_t k = 0; k < w->words; k++) {
			if ((why = next(w, &pos, &d[k])))
				return why;
			d[k] = ipu_graph_unzigzag(d[k]);
		}
		make(w, n, lag, d);
	}
	w->at = pos;
	return pos == w->bytes ? NULL : "bytes left after the last record";
}

/* the table head at *off of the PACKED section, checked against the rules */
static int read_table(struct ipue_container *c, uint64_t total, uint32_t idx, uint64_t *off,
		      uint64_t *expanded, struct ipue_load_error *err)
{
	const struct ipue_section *ps = &c->s[IPU_GRAPH_SEC_PACKED];
	struct ipu_graph_packed_table t;
	uint64_t end, pad;
	struct walk w;
	const char *why;

	if (ps->size - *off < sizeof(t))
		return ipue_load_errorf(err, IPU_GRAPH_SEC_PACKED, idx,
					"table %u: head cut off by the section's end", idx);
	memcpy(&t, ps->p + *off, sizeof(t));
	*off += sizeof(t);
	if (!ipu_graph_packable(t.type))
		return ipue_load_errorf(err, IPU_GRAPH_SEC_PACKED, idx,
					"table %u: type %u cannot be packed", idx, t.type);
	if (c->s[t.type].p || c->pk[t.type].p)
		return ipue_load_errorf(err, IPU_GRAPH_SEC_PACKED, idx,
					"table %u: %s packed twice or also plain", idx,
					ipu_graph_section_name(t.type));
	if (t.entsize % 4 || t.entsize < ipu_graph_record_size(t.type) ||
	    t.entsize > IPU_GRAPH_PACKED_MAX_ENTSIZE)
		return ipue_load_errorf(err, IPU_GRAPH_SEC_PACKED, idx,
					"table %u (%s): entsize %u not a multiple of 4 in [%u, %u]",
					idx, ipu_graph_section_name(t.type), t.entsize,
					ipu_graph_record_size(t.type), IPU_GRAPH_PACKED_MAX_ENTSIZE);
	pad = (4 - t.bytes % 4) % 4;
	if (t.bytes + pad > ps->size - *off)
		return ipue_load_errorf(err, IPU_GRAPH_SEC_PACKED, idx,
					"table %u (%s): %u bytes of groups past the section's end",
					idx, ipu_graph_section_name(t.type), t.bytes);
	*expanded += (uint64_t)t.count * t.entsize;
	if (*expanded > IPU_GRAPH_PACKED_MAX_EXPANSION * total + IPU_GRAPH_PACKED_SLACK)
		return ipue_load_errorf(err, IPU_GRAPH_SEC_PACKED, idx,
					"table %u (%s): %u records of %u bytes: packed records over %u x the binary's size + %u MiB",
					idx, ipu_graph_section_name(t.type), t.count, t.entsize,
					IPU_GRAPH_PACKED_MAX_EXPANSION, IPU_GRAPH_PACKED_SLACK >> 20);
	w = (struct walk){ ps->p + *off, t.bytes, t.count, t.entsize / 4, NULL, 0, 0 };
	if ((why = walk_groups(&w)))
		return ipue_load_errorf(err, IPU_GRAPH_SEC_PACKED, idx,
					"table %u (%s): record %u, byte %llu: %s", idx,
					ipu_graph_section_name(t.type), w.rec,
					(unsigned long long)w.at, why);
	for (end = *off + t.bytes; end < *off + t.bytes + pad; end++)
		if (ps->p[end])
			return ipue_load_errorf(err, IPU_GRAPH_SEC_PACKED, idx,
						"table %u (%s): padding not zero", idx,
						ipu_graph_section_name(t.type));
	c->pk[t.type] = (struct ipue_packed_ref){ ps->p + *off, t.bytes };
	c->s[t.type] = (struct ipue_section){ NULL, (uint64_t)t.count * t.entsize, t.entsize,
					      t.count };
	*off += t.bytes + pad;
	return 0;
}

int ipue_packed_scan(struct ipue_container *c, uint64_t total, struct ipue_load_error *err)
{
	const struct ipue_section *ps = &c->s[IPU_GRAPH_SEC_PACKED];
	uint64_t off = 0, expanded = 0;
	int rc;

	for (uint32_t idx = 0; ps->p && off < ps->size; idx++)
		if ((rc = read_table(c, total, idx, &off, &expanded, err)))
			return rc;
	return 0;
}

int ipue_packed_unpack(struct ipue_container *c, uint8_t *bufs[IPU_GRAPH_SEC_COUNT_])
{
	for (unsigned t = 0; t < IPU_GRAPH_SEC_COUNT_; t++) {
		struct ipue_section *s = &c->s[t];
		struct walk w;

		if (!c->pk[t].p)
			continue;
		bufs[t] = malloc(s->size ? s->size : 1);
		if (!bufs[t])
			return IPUE_ENOMEM;
		w = (struct walk){ c->pk[t].p, c->pk[t].bytes, s->count, s->entsize / 4,
				   (uint32_t *)bufs[t], 0, 0 };
		if (walk_groups(&w))	/* checked by ipue_packed_scan() */
			return IPUE_EFORMAT;
		s->p = bufs[t];
	}
	return 0;
}
