/* SPDX-License-Identifier: MIT */
/*
 * Packed tables (docs/graph-format.md, "Packed tables"): the check of the
 * PACKED section, run by the container reader so that the engine's loader
 * and libipudev's check before a card LOAD refuse the same binaries, and
 * the rebuild of the records, run by the loader.
 *
 * Plain C, no global state; the check allocates nothing.
 */
#ifndef IPUE_GRAPH_PACKED_H
#define IPUE_GRAPH_PACKED_H

#include <stdint.h>

#include "graph_container.h"

/*
 * ipue_packed_scan() - check the PACKED section of @c (if any) and record
 * each table: c->pk[type] points at its groups, c->s[type] gets its count,
 * entsize and size with p still NULL (ipue_packed_unpack() fills it).
 * Checks every rule of the format: table heads inside the section, known
 * packable types at most once and not also plain, entsize, every varint,
 * n and lag, the exact end of the groups, zero padding, the expansion
 * limit against @total (the binary's size).
 * Returns 0 or IPUE_EFORMAT with @err (may be NULL) filled (section
 * "packed", record = the table's index, a message naming the table's type).
 */
int ipue_packed_scan(struct ipue_container *c, uint64_t total, struct ipue_load_error *err);

/*
 * ipue_packed_unpack() - rebuild the records of every table
 * ipue_packed_scan() recorded in @c: each into a buffer of count x entsize
 * bytes from malloc(), stored in bufs[type] (the caller's to free; entries
 * of types not packed are left alone) and in c->s[type].p, so the records
 * read as a plain section's. @c must come from a successful
 * ipue_container_read(). Returns 0 or IPUE_ENOMEM (the buffers made so far
 * are in @bufs).
 */
int ipue_packed_unpack(struct ipue_container *c, uint8_t *bufs[IPU_GRAPH_SEC_COUNT_]);

#endif /* IPUE_GRAPH_PACKED_H */
