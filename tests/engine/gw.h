/* SPDX-License-Identifier: MIT */
/*
 * Test-only graph writer: builds graph binaries (include/ipu/graph_format.h)
 * record by record, so engine tests can make valid graphs and then break
 * them on purpose. Not the library's builder. Aborts on allocation failure.
 */
#ifndef IPUE_TEST_GW_H
#define IPUE_TEST_GW_H

#include <stddef.h>
#include <stdint.h>

#include "ipu/graph_format.h"

struct gw;

struct gw *gw_new(uint32_t model);
void gw_free(struct gw *w);

uint32_t gw_str(struct gw *w, const char *s);
/* the IPUS section (multi-IPU binary): ipus IPUs of the model's tiles; tiles are global */
void gw_ipus(struct gw *w, uint32_t ipus);
void gw_plan(struct gw *w, uint32_t tile, uint32_t bytes);
/* tensor laid out as n intervals of 'per' elements, interval i on tiles[i] at offs[i] */
uint32_t gw_tensor(struct gw *w, const char *name, uint8_t dtype, uint8_t rank,
		   const uint32_t *shape, uint32_t n, const uint32_t *tiles,
		   const uint32_t *offs, const uint32_t *counts);
/* 1-D tensor on one tile */
uint32_t gw_tensor1(struct gw *w, const char *name, uint8_t dtype, uint32_t elements,
		    uint32_t tile, uint32_t off);
uint32_t gw_vertex(struct gw *w, uint16_t codelet, uint32_t tile, uint8_t nfields,
		   const struct ipu_graph_field *f, uint8_t nparams, const uint32_t *p);
uint32_t gw_cs(struct gw *w, const char *name, uint32_t n, const uint32_t *vids);
uint32_t gw_exchange(struct gw *w, const char *name, uint32_t n, const struct ipu_graph_copy *c);
uint32_t gw_node(struct gw *w, uint16_t kind, uint32_t a, uint32_t b, uint32_t c);
uint32_t gw_seq(struct gw *w, uint32_t n, const uint32_t *kids);
uint32_t gw_entry(struct gw *w, const char *name, uint32_t node);
uint32_t gw_stream(struct gw *w, const char *name, uint8_t dir, uint8_t dtype,
		   uint16_t depth, uint32_t elements);
uint32_t gw_handle(struct gw *w, const char *name, uint32_t tensor, uint32_t access);
void gw_meta(struct gw *w, const char *key, const char *value);
/* an INPUT_GUARDS record (records are written in call order) */
uint32_t gw_guard(struct gw *w, uint32_t program, uint32_t handle, uint32_t flags);
void gw_init(struct gw *w, uint32_t tile, uint32_t off, uint32_t bytes, const void *data);
/* append raw bytes as a section of any type (unknown types for skip tests) */
void gw_raw_section(struct gw *w, uint32_t type, uint32_t flags, uint32_t entsize,
		    const void *data, uint32_t size);

/* direct access to a section's record bytes for corrupting tests */
void *gw_rec(struct gw *w, uint32_t type, uint32_t index);

/* the binary (malloc'd, caller frees); the gw stays usable */
uint8_t *gw_finish(struct gw *w, size_t *len);
/*
 * the same graph in the compact form: every packable section as a table of
 * a PACKED section (libipudev/graph_pack.c writes them, as for the builder)
 */
uint8_t *gw_finish_packed(struct gw *w, size_t *len);
/* recompute the header checksum after patching a binary */
void gw_fix_checksum(uint8_t *bin, size_t len);

#endif
