/* SPDX-License-Identifier: MIT */
/*
 * The graph container reader: header, section table and record sizes of a
 * graph binary (docs/graph-format.md, "Container"). One reader for the
 * engine's loader and for libipudev's check before a card LOAD, so both
 * refuse the same binaries for the same reason. It validates the container
 * only; what the records say is the loader's business.
 *
 * Plain C, no global state, no allocation; usable without the rest of the
 * engine (needs ipu_engine.h only for struct ipue_load_error).
 */
#ifndef IPUE_GRAPH_CONTAINER_H
#define IPUE_GRAPH_CONTAINER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ipu/graph_format.h"
#include "ipu_engine.h"

/* a known section: count records of entsize bytes (a blob: entsize 1) */
struct ipue_section {
	const uint8_t *p;	/* into the caller's binary; NULL if absent */
	uint64_t size;		/* entsize * count */
	uint32_t entsize;	/* >= ipu_graph_record_size(type) */
	uint32_t count;
};

/* a packed table's groups (docs/graph-format.md, "Packed tables") */
struct ipue_packed_ref {
	const uint8_t *p;	/* into the caller's binary; NULL if not packed */
	uint32_t bytes;
};

/*
 * What ipue_container_read() found; points into the caller's binary. A
 * packed type has its count, entsize and size in s[type] but p NULL until
 * ipue_packed_unpack() (graph_packed.h) rebuilds its records.
 */
struct ipue_container {
	struct ipu_graph_header h;	/* a copy of the header */
	struct ipue_section s[IPU_GRAPH_SEC_COUNT_]; /* by type; absent = empty */
	struct ipue_packed_ref pk[IPU_GRAPH_SEC_COUNT_]; /* by type */
};

/*
 * ipue_container_read() - check the header and section table of @bin
 * (@len bytes) against docs/graph-format.md and fill @c. Checks: magic,
 * major version, total_size == @len, header_size, checksum, header flags,
 * section count (<= IPU_GRAPH_MAX_SECTIONS), table entry size and place,
 * each section's alignment, bounds and size == entsize * count, no overlaps
 * (header, table, sections), known types at most once with an entsize of at
 * least their record size, unknown types skipped unless required, and the
 * packed tables (ipue_packed_scan(), graph_packed.h). Does not
 * check the model nor the codelet version (the reader's owner decides).
 * @c keeps pointers into @bin: valid while the caller keeps @bin.
 * Returns 0, or IPUE_EFORMAT with @err (may be NULL) filled: section
 * 0 ("header") or the type at fault, the table index or record, a message.
 */
int ipue_container_read(const void *bin, size_t len, struct ipue_container *c,
			struct ipue_load_error *err);

/*
 * ipue_container_rec() - copy record @i (< the section's count) of section
 * @type into @out: the ipu_graph_record_size(@type) bytes a version-1
 * reader knows (a later minor version's longer records are cut). A packed
 * type's records must have been rebuilt (ipue_packed_unpack()).
 */
void ipue_container_rec(const struct ipue_container *c, unsigned type,
			uint32_t i, void *out);

/*
 * ipue_load_errorf() - fill @err (may be NULL) as a format refusal of
 * section @sec (0 = header), record @rec (IPU_GRAPH_NONE = none): status
 * IPUE_EFORMAT, the section's name and the printf-style message. Returns
 * IPUE_EFORMAT. ipue_load_verrorf() takes a va_list.
 */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int ipue_load_errorf(struct ipue_load_error *err, uint32_t sec, uint32_t rec,
		     const char *fmt, ...);
#if defined(__GNUC__)
__attribute__((format(printf, 4, 0)))
#endif
int ipue_load_verrorf(struct ipue_load_error *err, uint32_t sec, uint32_t rec,
		      const char *fmt, va_list ap);

#endif /* IPUE_GRAPH_CONTAINER_H */
