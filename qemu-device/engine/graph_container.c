/* SPDX-License-Identifier: MIT */
/*
 * The graph container reader (graph_container.h): the one place that knows
 * the rules of docs/graph-format.md "Container" and "Section table entry".
 * Messages keep the words the engine's tests and the card's users match on
 * ("magic", "checksum", "outside", "aligned", "overlaps", ...).
 */
#include "graph_container.h"
#include "graph_packed.h"

#include <stdio.h>
#include <string.h>

int ipue_load_verrorf(struct ipue_load_error *err, uint32_t sec, uint32_t rec,
		      const char *fmt, va_list ap)
{
	if (!err)
		return IPUE_EFORMAT;
	err->status = IPUE_EFORMAT;
	err->section = sec;
	err->record = rec;
	snprintf(err->section_name, sizeof(err->section_name), "%s",
		 ipu_graph_section_name(sec));
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	return IPUE_EFORMAT;
}

int ipue_load_errorf(struct ipue_load_error *err, uint32_t sec, uint32_t rec,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ipue_load_verrorf(err, sec, rec, fmt, ap);
	va_end(ap);
	return IPUE_EFORMAT;
}

void ipue_container_rec(const struct ipue_container *c, unsigned type,
			uint32_t i, void *out)
{
	const struct ipue_section *s = &c->s[type];

	memcpy(out, s->p + (uint64_t)i * s->entsize, ipu_graph_record_size(type));
}

/* [off, off + n) lies inside [0, total) */
static int inside(uint64_t off, uint64_t n, uint64_t total)
{
	return off <= total && n <= total - off;
}

/* the header fields, before the table is looked at */
static int read_header(const uint8_t *bin, size_t len, struct ipu_graph_header *h,
		       struct ipue_load_error *err)
{
	uint32_t crc;

	if (len < sizeof(*h))
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE,
					"truncated: %zu bytes, header needs %zu",
					len, sizeof(*h));
	memcpy(h, bin, sizeof(*h));
	if (h->magic != IPU_GRAPH_MAGIC)
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE, "bad magic 0x%08x",
					h->magic);
	if (h->version_major != IPU_GRAPH_VERSION_MAJOR)
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE,
					"format version %u.%u not supported (need %u.x)",
					h->version_major, h->version_minor,
					IPU_GRAPH_VERSION_MAJOR);
	if (h->total_size != len)
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE,
					"size mismatch: header says %llu bytes, got %zu%s",
					(unsigned long long)h->total_size, len,
					h->total_size > len ? " (truncated)" : "");
	if (h->header_size < sizeof(*h) || h->header_size > len)
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE, "bad header_size %u",
					h->header_size);
	crc = ipu_graph_checksum(bin, len);
	if (crc != h->checksum)
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE,
					"checksum mismatch: header 0x%08x, computed 0x%08x",
					h->checksum, crc);
	if (h->flags)
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE,
					"unknown header flags 0x%x", h->flags);
	if (h->section_count > IPU_GRAPH_MAX_SECTIONS)
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE, "%u sections, limit %u",
					h->section_count, IPU_GRAPH_MAX_SECTIONS);
	/* no upper bound: the table must fit in the binary, that is enough */
	if (h->section_entsize < sizeof(struct ipu_graph_section))
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE,
					"bad section_entsize %u", h->section_entsize);
	if (h->section_table % IPU_GRAPH_ALIGN || h->section_table < h->header_size ||
	    !inside(h->section_table, (uint64_t)h->section_count * h->section_entsize, len))
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE,
					"section table at %llu (%u x %u bytes) outside the binary",
					(unsigned long long)h->section_table,
					h->section_count, h->section_entsize);
	return 0;
}

/* byte spans that must not overlap: the header, then each non-empty section */
struct span {
	uint64_t off, end;
	uint32_t idx;		/* table index, IPU_GRAPH_NONE = the header */
};

/* one table entry: its own bounds, then what its type allows */
static int read_entry(const uint8_t *bin, size_t len, struct ipue_container *c,
		      uint32_t i, struct span *sp, struct ipue_load_error *err)
{
	const struct ipu_graph_header *h = &c->h;
	uint64_t table_end = h->section_table + (uint64_t)h->section_count * h->section_entsize;
	struct ipu_graph_section e;
	uint32_t t, need;

	memcpy(&e, bin + h->section_table + (uint64_t)i * h->section_entsize, sizeof(e));
	t = e.type;
	if (e.offset % IPU_GRAPH_ALIGN)
		return ipue_load_errorf(err, 0, i, "section %u (type %u): offset %llu not %u-aligned",
					i, t, (unsigned long long)e.offset, IPU_GRAPH_ALIGN);
	if (!inside(e.offset, e.size, len))
		return ipue_load_errorf(err, 0, i, "section %u (type %u): [%llu, +%llu) outside the binary",
					i, t, (unsigned long long)e.offset,
					(unsigned long long)e.size);
	if (e.size != (uint64_t)e.entsize * e.count)
		return ipue_load_errorf(err, 0, i, "section %u (type %u): size %llu != entsize %u x count %u",
					i, t, (unsigned long long)e.size, e.entsize, e.count);
	if (e.size && e.offset < table_end && e.offset + e.size > h->section_table)
		return ipue_load_errorf(err, 0, i, "section %u overlaps the section table", i);
	sp->off = e.offset;
	sp->end = e.offset + e.size;
	sp->idx = i;
	need = ipu_graph_record_size(t);
	if (!need) {
		if (e.flags & IPU_GRAPH_SECF_REQUIRED)
			return ipue_load_errorf(err, 0, i, "section %u: unknown required type %u",
						i, t);
		return 0;	/* a later format's section: skipped */
	}
	if (c->s[t].p)
		return ipue_load_errorf(err, t, IPU_GRAPH_NONE, "duplicate %s section",
					ipu_graph_section_name(t));
	if (e.entsize < need || (need == 1 && e.entsize != 1))
		return ipue_load_errorf(err, t, IPU_GRAPH_NONE, "entsize %u, need %s%u",
					e.entsize, need == 1 ? "" : ">= ", need);
	c->s[t].p = bin + e.offset;
	c->s[t].size = e.size;
	c->s[t].entsize = e.entsize;
	c->s[t].count = e.count;
	return 0;
}

int ipue_container_read(const void *binv, size_t len, struct ipue_container *c,
			struct ipue_load_error *err)
{
	const uint8_t *bin = binv;
	struct span span[IPU_GRAPH_MAX_SECTIONS + 1];
	unsigned nspan = 1;
	int rc;

	memset(c, 0, sizeof(*c));
	if (!bin && len)
		return ipue_load_errorf(err, 0, IPU_GRAPH_NONE, "no binary");
	rc = read_header(bin, len, &c->h, err);
	if (rc)
		return rc;
	span[0].off = 0;
	span[0].end = c->h.header_size;
	span[0].idx = IPU_GRAPH_NONE;
	for (uint32_t i = 0; i < c->h.section_count; i++) {
		rc = read_entry(bin, len, c, i, &span[nspan], err);
		if (rc)
			return rc;
		nspan += span[nspan].end > span[nspan].off;	/* empty ones overlap nothing */
	}
	for (unsigned i = 1; i < nspan; i++) {
		for (unsigned j = 0; j < i; j++) {
			if (span[i].off >= span[j].end || span[j].off >= span[i].end)
				continue;
			if (span[j].idx == IPU_GRAPH_NONE)
				return ipue_load_errorf(err, 0, span[i].idx,
							"section %u overlaps the header",
							span[i].idx);
			return ipue_load_errorf(err, 0, span[i].idx,
						"section %u overlaps section %u",
						span[i].idx, span[j].idx);
		}
	}
	return ipue_packed_scan(c, len, err);
}
