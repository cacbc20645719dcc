/* SPDX-License-Identifier: MIT */
/*
 * libipudev internal: the writer of packed tables (docs/graph-format.md,
 * "Packed tables"); the builder's ipu_graph_write() packs its record
 * sections with it.
 */
#ifndef IPU_GRAPH_PACK_H
#define IPU_GRAPH_PACK_H

#include <stddef.h>
#include <stdint.h>

/* the most bytes ipu__pack_table() writes for @count records of @entsize bytes */
size_t ipu__pack_bound(uint32_t count, uint32_t entsize);

/*
 * ipu__pack_table() - write the packed table of section type @type (a
 * packable one) holding the @count records at @recs (@entsize bytes each,
 * a multiple of 4 up to IPU_GRAPH_PACKED_MAX_ENTSIZE) into @out, which has
 * room for ipu__pack_bound(@count, @entsize) bytes: the table head, the
 * groups, the padding. Returns the bytes written. Cannot fail.
 */
size_t ipu__pack_table(uint32_t type, const void *recs, uint32_t count, uint32_t entsize,
		       uint8_t *out);

#endif /* IPU_GRAPH_PACK_H */
