// SPDX-License-Identifier: MIT
/*
 * The two readers of a graph binary's container must agree: the engine's
 * loader (ipue_load(), what the card runs on LOAD) and the card path's
 * pre-check in libipudev (ipu__graph_precheck(), run before the LOAD is
 * sent). Each case corrupts a builder-made graph (header, section table,
 * record sizes, packed tables: the builder writes the compact form), feeds it to both, and checks the verdict the format doc
 * gives, and that both give it with the same section, record and message.
 * Then every truncation and random corruptions of the header and table, and
 * of the packed tables.
 * Included by test_card_exec.c (one kselftest harness test list per binary).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "card.h"
#include "ipu/graph_format.h"
#include "ipu/ipu_models.h"

struct bin {
	uint8_t *p;
	size_t n;
};

/* ---- editing a binary: header, table entries, appended bytes ---- */

static struct ipu_graph_header hdr(const struct bin *b)
{
	struct ipu_graph_header h;

	memcpy(&h, b->p, sizeof(h));
	return h;
}

static void set_hdr(struct bin *b, const struct ipu_graph_header *h)
{
	memcpy(b->p, h, sizeof(*h));
}

/* total_size and checksum made right again (a writer's mistake, not noise) */
static void reseal(struct bin *b)
{
	struct ipu_graph_header h = hdr(b);

	h.total_size = b->n;
	set_hdr(b, &h);
	h.checksum = ipu_graph_checksum(b->p, b->n);
	set_hdr(b, &h);
}

static uint8_t *entry_at(const struct bin *b, uint32_t i)
{
	struct ipu_graph_header h = hdr(b);

	return b->p + h.section_table + (uint64_t)i * h.section_entsize;
}

/* table index of section type t (the builder writes each type once) */
static uint32_t index_of(const struct bin *b, uint32_t t)
{
	struct ipu_graph_header h = hdr(b);

	for (uint32_t i = 0; i < h.section_count; i++) {
		struct ipu_graph_section e;

		memcpy(&e, entry_at(b, i), sizeof(e));
		if (e.type == t)
			return i;
	}
	abort();	/* the base graph has every type */
}

static struct ipu_graph_section sec(const struct bin *b, uint32_t t)
{
	struct ipu_graph_section e;

	memcpy(&e, entry_at(b, index_of(b, t)), sizeof(e));
	return e;
}

static void set_sec(struct bin *b, uint32_t t, const struct ipu_graph_section *e)
{
	memcpy(entry_at(b, index_of(b, t)), e, sizeof(*e));
}

/* append n bytes (8-aligned start) and return their offset */
static uint64_t append(struct bin *b, const void *src, size_t n)
{
	size_t off = (b->n + 7) & ~(size_t)7;
	uint8_t *p = realloc(b->p, off + n);

	if (!p)
		abort();
	memset(p + b->n, 0, off - b->n);
	memcpy(p + off, src, n);
	b->p = p;
	b->n = off + n;
	return off;
}

/* ---- the cases ---- */

#define HDR(field, expr) do { struct ipu_graph_header h = hdr(b); h.field = (expr); \
	set_hdr(b, &h); } while (0)
#define SEC(type, stmt) do { struct ipu_graph_section e = sec(b, type); stmt; \
	set_sec(b, type, &e); } while (0)

static void c_none(struct bin *b) { (void)b; }
static void c_trunc(struct bin *b) { b->n -= 8; }
static void c_trunc_sealed(struct bin *b) { b->n -= 8; reseal(b); }
static void c_total_up(struct bin *b) { HDR(total_size, b->n + 8); }
static void c_total_down(struct bin *b) { HDR(total_size, b->n - 8); }
static void c_trailing(struct bin *b) { append(b, "\0\0\0\0\0\0\0\0", 8); reseal(b); }
static void c_magic(struct bin *b) { b->p[1] ^= 0x20; }
static void c_major(struct bin *b) { HDR(version_major, 2); }
static void c_minor(struct bin *b) { HDR(version_minor, 9); }
static void c_hsize_small(struct bin *b) { HDR(header_size, 32); }
static void c_hsize_big(struct bin *b) { HDR(header_size, (uint32_t)b->n + 64); }
static void c_flags(struct bin *b) { HDR(flags, 1); }
static void c_crc_body(struct bin *b) { b->p[b->n / 2] ^= 0x40; }
static void c_crc_field(struct bin *b) { HDR(checksum, hdr(b).checksum + 1); }
static void c_nsec_65(struct bin *b) { HDR(section_count, IPU_GRAPH_MAX_SECTIONS + 1); }
static void c_nsec_4096(struct bin *b) { HDR(section_count, 4096); }
static void c_entsz_small(struct bin *b) { HDR(section_entsize, 16); }
static void c_entsz_33(struct bin *b) { HDR(section_entsize, 33); }
static void c_table_misaligned(struct bin *b) { HDR(section_table, hdr(b).section_table + 4); }
static void c_table_in_header(struct bin *b) { HDR(section_table, 0); }
static void c_table_outside(struct bin *b) { HDR(section_table, (b->n + 7) & ~(size_t)7); }
static void c_sec_misaligned(struct bin *b) { SEC(IPU_GRAPH_SEC_TENSORS, e.offset += 4); }
static void c_sec_outside(struct bin *b) { SEC(IPU_GRAPH_SEC_TENSORS, e.offset = b->n - 8); }
static void c_sec_huge(struct bin *b)
{
	SEC(IPU_GRAPH_SEC_DATA, (e.count += 1u << 31, e.size = (uint64_t)e.count * e.entsize));
}
static void c_overlap(struct bin *b)
{
	uint64_t off = sec(b, IPU_GRAPH_SEC_TENSORS).offset;

	SEC(IPU_GRAPH_SEC_HOST_HANDLES, e.offset = off);
}
static void c_overlap_header(struct bin *b) { SEC(IPU_GRAPH_SEC_STRINGS, e.offset = 0); }
static void c_overlap_table(struct bin *b)
{
	uint64_t off = hdr(b).section_table;

	SEC(IPU_GRAPH_SEC_DATA, e.offset = off);
}
static void c_duplicate(struct bin *b) { SEC(IPU_GRAPH_SEC_STREAMS, e.type = IPU_GRAPH_SEC_TENSORS); }
static void c_count(struct bin *b) { SEC(IPU_GRAPH_SEC_VERTICES, e.count += 1); }
static void c_rec_small(struct bin *b)
{
	SEC(IPU_GRAPH_SEC_TENSORS, (e.entsize /= 2, e.count *= 2));
}
static void c_blob_entsize(struct bin *b)
{
	SEC(IPU_GRAPH_SEC_STRINGS, (e.entsize = 2, e.count /= 2, e.size = (uint64_t)e.count * 2));
}
static void c_entsize_zero(struct bin *b)
{
	SEC(IPU_GRAPH_SEC_ENTRIES, (e.entsize = 0, e.count = 0, e.size = 0));
}
static void c_unknown_optional(struct bin *b) { SEC(IPU_GRAPH_SEC_METADATA, (e.type = 1000, e.flags = 0)); }
static void c_unknown_required(struct bin *b)
{
	SEC(IPU_GRAPH_SEC_METADATA, (e.type = 1000, e.flags = IPU_GRAPH_SECF_REQUIRED));
}
static void c_type0_required(struct bin *b)
{
	SEC(IPU_GRAPH_SEC_METADATA, (e.type = 0, e.flags = IPU_GRAPH_SECF_REQUIRED));
}
static void c_unknown_empty(struct bin *b)
{
	SEC(IPU_GRAPH_SEC_METADATA, (e.type = 1000, e.flags = 0, e.entsize = 0, e.count = 0,
				     e.size = 0));
}
static void c_model(struct bin *b) { HDR(model, IPU_MODEL_GC200); }
/* a later minor version: 40-byte table entries, at the end */
static void c_grown_table(struct bin *b)
{
	struct ipu_graph_header h = hdr(b);
	uint8_t *t = calloc(h.section_count, 40);

	if (!t)
		abort();
	for (uint32_t i = 0; i < h.section_count; i++)
		memcpy(t + i * 40, entry_at(b, i), sizeof(struct ipu_graph_section));
	h.section_table = append(b, t, (size_t)h.section_count * 40);
	h.section_entsize = 40;
	set_hdr(b, &h);
	free(t);
}
/* a later minor version: 24-byte host handle records, at the end */
static void c_grown_records(struct bin *b)
{
	struct ipu_graph_section e = sec(b, IPU_GRAPH_SEC_HOST_HANDLES);
	uint8_t *r = calloc(e.count, 24);

	if (!r)
		abort();
	for (uint32_t i = 0; i < e.count; i++)
		memcpy(r + i * 24, b->p + e.offset + i * e.entsize, e.entsize);
	e.offset = append(b, r, (size_t)e.count * 24);
	e.entsize = 24;
	e.size = (uint64_t)e.count * 24;
	set_sec(b, IPU_GRAPH_SEC_HOST_HANDLES, &e);
	free(r);
}

/* ---- packed tables (the builder's compact form): table 0 is the intervals' ---- */

/* byte @at of the PACKED section */
static uint8_t *pk(const struct bin *b, uint64_t at)
{
	return b->p + sec(b, IPU_GRAPH_SEC_PACKED).offset + at;
}

static void pk_word(struct bin *b, unsigned k, uint32_t v) { memcpy(pk(b, 4 * k), &v, 4); }
static void c_pk_type(struct bin *b) { pk_word(b, 0, IPU_GRAPH_SEC_TENSORS); }
static void c_pk_plain_too(struct bin *b) { pk_word(b, 0, IPU_GRAPH_SEC_VERTICES); }
static void c_pk_entsize(struct bin *b) { pk_word(b, 2, 22); }
static void c_pk_bytes(struct bin *b) { pk_word(b, 3, 0x7ffffff0u); }
static void c_pk_expand(struct bin *b) { pk_word(b, 1, 0xffffffffu); }
static void c_pk_n0(struct bin *b) { *pk(b, 16) = 0; }
static void c_pk_lag(struct bin *b) { memcpy(pk(b, 17), "\x81\x02", 2); /* 257 */ }
static void c_pk_varint(struct bin *b) { memset(pk(b, 18), 0x80, 5); }
static void c_pk_section_cut(struct bin *b) { SEC(IPU_GRAPH_SEC_PACKED, (e.size = 8, e.count = 8)); }

/* a builder-made graph and a test-model engine (set up below) */
struct vbase {
	struct bin base;
	struct ipue_engine *e;
};

FIXTURE(verdict) {
	struct vbase v;
};

/* one case: a corruption and the doc's verdict on it */
FIXTURE_VARIANT(verdict) {
	const char *name;
	void (*mut)(struct bin *b);
	int seal;		/* fix total_size and checksum after mut */
	int status;		/* the doc's verdict: 0, IPUE_EFORMAT, IPUE_EMODEL */
	const char *word;	/* in the message when refused */
};

FIXTURE_VARIANT_ADD(verdict, none) { "valid graph", c_none, 0, 0, NULL };
FIXTURE_VARIANT_ADD(verdict, trunc) { "truncated by 8 bytes", c_trunc, 0, IPUE_EFORMAT, "truncated" };
FIXTURE_VARIANT_ADD(verdict, trunc_sealed) { "truncated, total_size and checksum fixed", c_trunc_sealed, 0, IPUE_EFORMAT, "outside" };
FIXTURE_VARIANT_ADD(verdict, total_up) { "total_size beyond the buffer", c_total_up, 0, IPUE_EFORMAT, "size mismatch" };
FIXTURE_VARIANT_ADD(verdict, total_down) { "total_size smaller than the buffer", c_total_down, 0, IPUE_EFORMAT, "size mismatch" };
FIXTURE_VARIANT_ADD(verdict, trailing) { "unreferenced trailing bytes", c_trailing, 0, 0, NULL };
FIXTURE_VARIANT_ADD(verdict, magic) { "bad magic", c_magic, 1, IPUE_EFORMAT, "magic" };
FIXTURE_VARIANT_ADD(verdict, major) { "major version 2", c_major, 1, IPUE_EFORMAT, "version" };
FIXTURE_VARIANT_ADD(verdict, minor) { "minor version 9", c_minor, 1, 0, NULL };
FIXTURE_VARIANT_ADD(verdict, hsize_small) { "header_size below 64", c_hsize_small, 1, IPUE_EFORMAT, "header_size" };
FIXTURE_VARIANT_ADD(verdict, hsize_big) { "header_size beyond the binary", c_hsize_big, 1, IPUE_EFORMAT, "header_size" };
FIXTURE_VARIANT_ADD(verdict, flags) { "header flags", c_flags, 1, IPUE_EFORMAT, "flags" };
FIXTURE_VARIANT_ADD(verdict, crc_body) { "a flipped byte: bad checksum", c_crc_body, 0, IPUE_EFORMAT, "checksum" };
FIXTURE_VARIANT_ADD(verdict, crc_field) { "checksum field off by one", c_crc_field, 0, IPUE_EFORMAT, "checksum" };
FIXTURE_VARIANT_ADD(verdict, nsec_65) { "65 sections", c_nsec_65, 1, IPUE_EFORMAT, "limit 64" };
FIXTURE_VARIANT_ADD(verdict, nsec_4096) { "4096 sections", c_nsec_4096, 1, IPUE_EFORMAT, "limit 64" };
FIXTURE_VARIANT_ADD(verdict, entsz_small) { "table entries of 16 bytes", c_entsz_small, 1, IPUE_EFORMAT, "section_entsize" };
FIXTURE_VARIANT_ADD(verdict, entsz_33) { "table entries of 33 bytes: table past the end", c_entsz_33, 1, IPUE_EFORMAT, "outside" };
FIXTURE_VARIANT_ADD(verdict, table_misaligned) { "table misaligned", c_table_misaligned, 1, IPUE_EFORMAT, "section table" };
FIXTURE_VARIANT_ADD(verdict, table_in_header) { "table inside the header", c_table_in_header, 1, IPUE_EFORMAT, "section table" };
FIXTURE_VARIANT_ADD(verdict, table_outside) { "table past the end", c_table_outside, 1, IPUE_EFORMAT, "section table" };
FIXTURE_VARIANT_ADD(verdict, grown_table) { "40-byte table entries (later minor)", c_grown_table, 1, 0, NULL };
FIXTURE_VARIANT_ADD(verdict, sec_misaligned) { "section misaligned", c_sec_misaligned, 1, IPUE_EFORMAT, "aligned" };
FIXTURE_VARIANT_ADD(verdict, sec_outside) { "section past the end", c_sec_outside, 1, IPUE_EFORMAT, "outside" };
FIXTURE_VARIANT_ADD(verdict, sec_huge) { "section of 2^31 more records", c_sec_huge, 1, IPUE_EFORMAT, "outside" };
FIXTURE_VARIANT_ADD(verdict, overlap) { "two sections overlap", c_overlap, 1, IPUE_EFORMAT, "overlaps section" };
FIXTURE_VARIANT_ADD(verdict, overlap_header) { "a section overlaps the header", c_overlap_header, 1, IPUE_EFORMAT, "overlaps the header" };
FIXTURE_VARIANT_ADD(verdict, overlap_table) { "a section overlaps the table", c_overlap_table, 1, IPUE_EFORMAT, "section table" };
FIXTURE_VARIANT_ADD(verdict, duplicate) { "duplicate section", c_duplicate, 1, IPUE_EFORMAT, "duplicate tensors" };
FIXTURE_VARIANT_ADD(verdict, count) { "size != entsize x count", c_count, 1, IPUE_EFORMAT, "entsize" };
FIXTURE_VARIANT_ADD(verdict, rec_small) { "records smaller than version 1's", c_rec_small, 1, IPUE_EFORMAT, "entsize 24, need >= 48" };
FIXTURE_VARIANT_ADD(verdict, blob_entsize) { "blob with entsize 2", c_blob_entsize, 1, IPUE_EFORMAT, "entsize 2, need 1" };
FIXTURE_VARIANT_ADD(verdict, entsize_zero) { "known section with entsize 0", c_entsize_zero, 1, IPUE_EFORMAT, "entsize 0" };
FIXTURE_VARIANT_ADD(verdict, grown_records) { "24-byte host handles (later minor)", c_grown_records, 1, 0, NULL };
FIXTURE_VARIANT_ADD(verdict, unknown_optional) { "unknown optional section skipped", c_unknown_optional, 1, 0, NULL };
FIXTURE_VARIANT_ADD(verdict, unknown_required) { "unknown required section", c_unknown_required, 1, IPUE_EFORMAT, "unknown required" };
FIXTURE_VARIANT_ADD(verdict, type0_required) { "type 0 required", c_type0_required, 1, IPUE_EFORMAT, "unknown required" };
FIXTURE_VARIANT_ADD(verdict, unknown_empty) { "empty unknown section of entsize 0", c_unknown_empty, 1, 0, NULL };
FIXTURE_VARIANT_ADD(verdict, pk_type) { "packed table of a type not packable", c_pk_type, 1, IPUE_EFORMAT, "cannot be packed" };
FIXTURE_VARIANT_ADD(verdict, pk_plain_too) { "packed type also plain", c_pk_plain_too, 1, IPUE_EFORMAT, "also plain" };
FIXTURE_VARIANT_ADD(verdict, pk_entsize) { "packed entsize not a multiple of 4", c_pk_entsize, 1, IPUE_EFORMAT, "entsize 22" };
FIXTURE_VARIANT_ADD(verdict, pk_bytes) { "packed groups past the section", c_pk_bytes, 1, IPUE_EFORMAT, "past the section" };
FIXTURE_VARIANT_ADD(verdict, pk_expand) { "packed records over 64 x the binary", c_pk_expand, 1, IPUE_EFORMAT, "64 x" };
FIXTURE_VARIANT_ADD(verdict, pk_n0) { "packed group of 0 records", c_pk_n0, 1, IPUE_EFORMAT, "0 records" };
FIXTURE_VARIANT_ADD(verdict, pk_lag) { "packed lag 257", c_pk_lag, 1, IPUE_EFORMAT, "lag" };
FIXTURE_VARIANT_ADD(verdict, pk_varint) { "packed varint over 5 bytes", c_pk_varint, 1, IPUE_EFORMAT, "varint" };
FIXTURE_VARIANT_ADD(verdict, pk_section_cut) { "packed table head cut off", c_pk_section_cut, 1, IPUE_EFORMAT, "head cut off" };
FIXTURE_VARIANT_ADD(verdict, model) { "another model", c_model, 1, IPUE_EMODEL, "model" };

/* ---- the two paths ---- */

struct verdict {
	int eng;			/* ipue_load() status */
	struct ipue_load_error ee;
	int lib;			/* ipu__graph_precheck() status: le.status or 0 */
	struct ipue_load_error le;
	struct ipue_container c;
};

static void judge(struct ipue_engine *e, const struct bin *b, struct verdict *v)
{
	v->eng = ipue_load(e, b->p, b->n, &v->ee);
	v->lib = ipu__graph_precheck(b->p, b->n, IPU_MODEL_TEST, &v->c, &v->le) ?
		 v->le.status : 0;
}

/* both refuse with one section, record and message, or both accept */
static int same(const struct verdict *v)
{
	if (v->eng != v->lib)
		return 0;
	if (v->eng != IPUE_EFORMAT)
		return 1;
	return v->ee.section == v->le.section && v->ee.record == v->le.record &&
	       !strcmp(v->ee.message, v->le.message);
}

/* an accepted graph: the library's table matches the engine's handles */
static int same_handles(struct ipue_engine *e, const struct verdict *v)
{
	struct ipu__graph_table t;
	char why[160];
	int ok;

	if (ipu__graph_table_read(&v->c, &t, why, sizeof(why)))
		return 0;
	ok = (int)t.nhandles == ipue_handle_count(e) && t.nhandles > 0;
	for (unsigned i = 0; ok && i < t.nhandles; i++) {
		struct ipue_tensor_info ti;

		ok = !ipue_handle_info(e, i, &ti) && !strcmp(ti.name, t.handles[i].name) &&
		     ti.bytes == t.handles[i].bytes;
	}
	ipu__graph_table_free(&t);
	return ok;
}

static void vbase_setup(struct __test_metadata *_metadata, struct vbase *self)
{
	struct ipue_config cfg = { .model = IPU_MODEL_TEST, .host_threads = 1 };
	struct ipu_error err;
	int r;

	memset(&err, 0, sizeof(err));
	self->base.p = NULL;
	self->base.n = 0;
	self->e = NULL;
	r = build(IPU_MODEL_TEST, (void **)&self->base.p, &self->base.n, &err);
	ASSERT_EQ(0, r) TH_LOG("verdict: a builder-made graph: %s", err.msg);
	r = ipue_engine_create(&cfg, &self->e);
	ASSERT_EQ(0, r) TH_LOG("verdict: a test-model engine: %d", r);
}

static void vbase_teardown(struct __test_metadata *_metadata, struct vbase *self)
{
	if (self->e)
		ipue_engine_destroy(self->e);
	free(self->base.p);
	EXPECT_NO_LEAKS();
}

FIXTURE_SETUP(verdict) { vbase_setup(_metadata, &self->v); }
FIXTURE_TEARDOWN(verdict) { vbase_teardown(_metadata, &self->v); }

/* the loader and the pre-check give the case the doc's verdict, alike */
TEST_F(verdict, alike)
{
	const struct bin *base = &self->v.base;
	struct ipue_engine *e = self->v.e;
	struct bin b = { malloc(base->n), base->n };
	struct verdict v;

	ASSERT_NE(NULL, b.p);
	memcpy(b.p, base->p, base->n);
	variant->mut(&b);
	if (variant->seal)
		reseal(&b);
	judge(e, &b, &v);
#define V_WHY "engine %d %s rec %u '%s', pre-check %d %s rec %u '%s'"
#define V_ARGS v.eng, v.ee.section_name, v.ee.record, v.ee.message, v.lib, \
	v.le.section_name, v.le.record, v.le.message
	EXPECT_EQ(variant->status, v.eng)
		TH_LOG("verdict: %s: the loader's status is the doc's: " V_WHY, variant->name,
		       V_ARGS);
	EXPECT_TRUE(same(&v))
		TH_LOG("verdict: %s: loader and pre-check %s: " V_WHY, variant->name,
		       variant->status ? "refuse alike" : "accept", V_ARGS);
	if (variant->status) {
		EXPECT_NE(NULL, strstr(v.le.message, variant->word))
			TH_LOG("verdict: %s: the message names '%s': " V_WHY, variant->name,
			       variant->word, V_ARGS);
	} else {
		EXPECT_TRUE(same_handles(e, &v))
			TH_LOG("verdict: %s: the pre-check's table has the engine's handles",
			       variant->name);
	}
#undef V_WHY
#undef V_ARGS
	free(b.p);
}

FIXTURE(verdict_noise) {
	struct vbase v;
};
FIXTURE_SETUP(verdict_noise) { vbase_setup(_metadata, &self->v); }
FIXTURE_TEARDOWN(verdict_noise) { vbase_teardown(_metadata, &self->v); }

/* every truncation */
TEST_F(verdict_noise, truncations)
{
	const struct bin *base = &self->v.base;
	struct bin b = { malloc(base->n), 0 };
	struct verdict v;
	unsigned bad = 0;

	ASSERT_NE(NULL, b.p);
	for (size_t l = 0; l < base->n && bad < 3; l++) {
		memcpy(b.p, base->p, l);
		b.n = l;
		judge(self->v.e, &b, &v);
		EXPECT_TRUE(same(&v) && v.eng)
			TH_LOG("verdict: every truncation refused alike: truncation to %zu: "
			       "engine %d '%s', pre-check %d '%s'", l, v.eng, v.ee.message, v.lib,
			       v.le.message);
		bad += !same(&v) || !v.eng;
	}
	free(b.p);
}

/* random flips in the header and table, resealed */
TEST_F(verdict_noise, corruptions)
{
	const struct bin *base = &self->v.base;
	struct ipu_graph_header h = hdr(base);
	struct bin b = { malloc(base->n), 0 };
	struct verdict v;
	size_t table_end = h.section_table + (size_t)h.section_count * h.section_entsize;
	unsigned seed = 9, bad = 0, refused = 0;

	ASSERT_NE(NULL, b.p);
	for (int round = 0; round < 3000 && bad < 3; round++) {
		memcpy(b.p, base->p, base->n);
		b.n = base->n;
		for (int k = 0; k < 1 + round % 3; k++) {
			size_t at;

			seed = seed * 1103515245u + 12345u;
			/* half in the header, half in the table */
			at = (seed >> 9) & 1 ? (seed >> 10) % sizeof(h) :
			     h.section_table + (seed >> 10) % (table_end - h.section_table);
			b.p[at] ^= (uint8_t)(1u << ((seed >> 3) & 7));
		}
		if (round & 1)
			reseal(&b);
		judge(self->v.e, &b, &v);
		refused += v.lib != 0;
		/* the pre-check refuses exactly as the loader; what it passes the loader may refuse */
		EXPECT_FALSE((v.lib && !same(&v)) || (!v.eng && v.lib))
			TH_LOG("verdict: 3000 header/table corruptions: every pre-check refusal "
			       "is the loader's: round %d: engine %d '%s', pre-check %d '%s'",
			       round, v.eng, v.ee.message, v.lib, v.le.message);
		bad += (v.lib && !same(&v)) || (!v.eng && v.lib);
	}
	EXPECT_GT(refused, 1000u)
		TH_LOG("verdict: 3000 header/table corruptions: %u refused, want > 1000", refused);
	free(b.p);
}

/* random flips in the packed tables, resealed: refused alike, or accepted by both */
TEST_F(verdict_noise, packed_corruptions)
{
	const struct bin *base = &self->v.base;
	struct ipu_graph_section ps = sec(base, IPU_GRAPH_SEC_PACKED);
	struct bin b = { malloc(base->n), 0 };
	struct verdict v;
	unsigned seed = 7, bad = 0, refused = 0;

	ASSERT_NE(NULL, b.p);
	ASSERT_GT(ps.size, 16u);
	for (int round = 0; round < 2000 && bad < 3; round++) {
		memcpy(b.p, base->p, base->n);
		b.n = base->n;
		for (int k = 0; k < 1 + round % 3; k++) {
			seed = seed * 1103515245u + 12345u;
			b.p[ps.offset + (seed >> 10) % ps.size] ^= (uint8_t)(1u << ((seed >> 3) & 7));
		}
		reseal(&b);
		judge(self->v.e, &b, &v);
		refused += v.lib != 0;
		EXPECT_FALSE((v.lib && !same(&v)) || (!v.eng && v.lib))
			TH_LOG("verdict: 2000 packed-table corruptions: every pre-check refusal "
			       "is the loader's: round %d: engine %d '%s', pre-check %d '%s'",
			       round, v.eng, v.ee.message, v.lib, v.le.message);
		bad += (v.lib && !same(&v)) || (!v.eng && v.lib);
	}
	EXPECT_GT(refused, 500u)
		TH_LOG("verdict: 2000 packed-table corruptions: %u refused by the pre-check, want > 500",
		       refused);
	free(b.p);
}
