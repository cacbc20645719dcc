/* SPDX-License-Identifier: MIT */
/*
 * IPU graph binary format, version 1.2 (docs/graph-format.md is the reference).
 *
 * Written by the graph builder (libipudev), read by the tile engine
 * (qemu-device/engine). Plain C, no dependencies beyond <stdint.h>/<stddef.h>.
 *
 * Container: a header, a section table, then sections. All integers are
 * little-endian, all structs have fixed-width fields with explicit padding
 * (reserved fields are written as 0 and ignored by readers). Sections are
 * arrays of fixed-size records (or byte blobs) referenced by index. A
 * reader skips sections whose type it does not know unless the section has
 * IPU_GRAPH_SECF_REQUIRED set. Records may grow in later minor versions:
 * each section states its record size (entsize) and readers read the prefix
 * they know.
 *
 * Change rules: additive only. New section types, new program node kinds,
 * new fields at the end of records (bump VERSION_MINOR). Anything a version-1
 * reader would misinterpret needs VERSION_MAJOR + 1.
 */
#ifndef IPU_GRAPH_FORMAT_H
#define IPU_GRAPH_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define IPU_GRAPH_MAGIC		0x47555049u	/* bytes "IPUG" */
#define IPU_GRAPH_VERSION_MAJOR	1
#define IPU_GRAPH_VERSION_MINOR	2	/* 1: INPUT_GUARDS, PACKED, MEMORY_REGIONS; 2: IPUS */

#define IPU_GRAPH_NONE		0xffffffffu	/* "no string / no node / no id" */
#define IPU_GRAPH_MAX_RANK	6
#define IPU_GRAPH_ALIGN		8		/* every section starts 8-aligned */
#define IPU_GRAPH_MAX_SECTIONS	64		/* section_count limit of readers */

/* ---- element types ---- */
#define IPU_DTYPE_F32		1
#define IPU_DTYPE_F16		2
#define IPU_DTYPE_I32		3

/* bytes per element, 0 for an unknown dtype */
static inline unsigned ipu_dtype_size(unsigned dtype)
{
	switch (dtype) {
	case IPU_DTYPE_F32: return 4;
	case IPU_DTYPE_F16: return 2;
	case IPU_DTYPE_I32: return 4;
	default: return 0;
	}
}

/* ---- header: at offset 0 ---- */
struct ipu_graph_header {
	uint32_t magic;		/* IPU_GRAPH_MAGIC */
	uint16_t version_major;	/* readers reject another major */
	uint16_t version_minor;	/* readers accept any minor */
	uint32_t header_size;	/* >= sizeof(struct ipu_graph_header) */
	uint32_t model;		/* target IPU_MODEL_* (ipu_models.h) */
	uint64_t total_size;	/* bytes in the whole binary */
	uint64_t section_table;	/* offset of the section table, 8-aligned */
	uint32_t section_count;
	uint32_t section_entsize; /* >= sizeof(struct ipu_graph_section) */
	uint32_t checksum;	/* CRC-32 of all total_size bytes, this field as 0 */
	uint32_t flags;		/* 0 in version 1 */
	uint32_t tiles_used;	/* informational: highest tile used + 1 */
	uint32_t codelet_version; /* codelet library version built for, 0 = any */
	uint32_t reserved[2];
};
_Static_assert(sizeof(struct ipu_graph_header) == 64, "header size");

/* ---- section table entry ---- */
struct ipu_graph_section {
	uint32_t type;		/* IPU_GRAPH_SEC_* */
	uint32_t flags;		/* IPU_GRAPH_SECF_* */
	uint64_t offset;	/* from the start of the binary, 8-aligned */
	uint64_t size;		/* bytes; == entsize * count */
	uint32_t entsize;	/* record size (1 for blobs) */
	uint32_t count;		/* records */
};
_Static_assert(sizeof(struct ipu_graph_section) == 32, "section size");

#define IPU_GRAPH_SECF_REQUIRED	1u	/* reject if the type is unknown */

enum ipu_graph_section_type {
	IPU_GRAPH_SEC_STRINGS = 1,	/* blob: NUL-terminated UTF-8 strings */
	IPU_GRAPH_SEC_TENSORS = 2,	/* struct ipu_graph_tensor[] */
	IPU_GRAPH_SEC_INTERVALS = 3,	/* struct ipu_graph_interval[] */
	IPU_GRAPH_SEC_TILE_PLANS = 4,	/* struct ipu_graph_tile_plan[] */
	IPU_GRAPH_SEC_VERTICES = 5,	/* struct ipu_graph_vertex[] */
	IPU_GRAPH_SEC_FIELDS = 6,	/* struct ipu_graph_field[] */
	IPU_GRAPH_SEC_PARAMS = 7,	/* uint32_t[] vertex parameters */
	IPU_GRAPH_SEC_COMPUTE_SETS = 8,	/* struct ipu_graph_compute_set[] */
	IPU_GRAPH_SEC_CS_VERTICES = 9,	/* uint32_t[] vertex ids */
	IPU_GRAPH_SEC_EXCHANGES = 10,	/* struct ipu_graph_exchange[] */
	IPU_GRAPH_SEC_COPIES = 11,	/* struct ipu_graph_copy[] */
	IPU_GRAPH_SEC_PROGRAM_NODES = 12, /* struct ipu_graph_prog_node[] */
	IPU_GRAPH_SEC_PROGRAM_CHILDREN = 13, /* uint32_t[] node ids */
	IPU_GRAPH_SEC_ENTRIES = 14,	/* struct ipu_graph_entry[] */
	IPU_GRAPH_SEC_STREAMS = 15,	/* struct ipu_graph_stream[] */
	IPU_GRAPH_SEC_HOST_HANDLES = 16, /* struct ipu_graph_host_handle[] */
	IPU_GRAPH_SEC_METADATA = 17,	/* struct ipu_graph_kv[] */
	IPU_GRAPH_SEC_INIT = 18,	/* struct ipu_graph_init[] */
	IPU_GRAPH_SEC_DATA = 19,	/* blob: initial data bytes */
	IPU_GRAPH_SEC_INPUT_GUARDS = 20, /* 1.1: struct ipu_graph_guard[], optional */
	IPU_GRAPH_SEC_PACKED = 21,	/* blob: packed tables (1.1, below) */
	IPU_GRAPH_SEC_MEMORY_REGIONS = 24, /* struct ipu_graph_mem_region[], optional */
	IPU_GRAPH_SEC_IPUS = 25,	/* 1.2: struct ipu_graph_ipus, one record, required */
	IPU_GRAPH_SEC_COUNT_		/* one past the last known type */
};

/*
 * Strings are referenced by their byte offset in the STRINGS blob; the
 * string must end with a NUL inside the blob. IPU_GRAPH_NONE = no name ("").
 */

/* ---- tensors ---- */
#define IPU_GRAPH_TENSOR_CONSTANT 1u	/* informational */

struct ipu_graph_tensor {
	uint32_t name;		/* string */
	uint8_t dtype;		/* IPU_DTYPE_* */
	uint8_t rank;		/* 0..IPU_GRAPH_MAX_RANK, 0 = scalar */
	uint16_t flags;		/* IPU_GRAPH_TENSOR_* */
	uint32_t shape[IPU_GRAPH_MAX_RANK]; /* dims beyond rank are 0 */
	uint32_t first_interval; /* index into INTERVALS */
	uint32_t interval_count;
	uint64_t elements;	/* product of shape[0..rank) (1 if rank 0; 0: empty, no intervals) */
};
_Static_assert(sizeof(struct ipu_graph_tensor) == 48, "tensor size");

/*
 * Tile layout: elements [begin, begin + count) of the flattened (row-major)
 * tensor live at tile_offset on tile. A tensor's intervals are in ascending
 * order and cover [0, elements) exactly once (an empty tensor has none).
 */
struct ipu_graph_interval {
	uint64_t begin;
	uint32_t count;
	uint32_t tile;
	uint32_t tile_offset;	/* bytes, aligned to the element size */
	uint32_t reserved;
};
_Static_assert(sizeof(struct ipu_graph_interval) == 24, "interval size");

/*
 * Per-tile memory plan: the tile's high-water mark. Every tensor interval,
 * vertex field, copy and init record on the tile lies in [0, bytes). Tiles
 * without a plan have no memory. At most one plan per tile.
 */
struct ipu_graph_tile_plan {
	uint32_t tile;
	uint32_t bytes;		/* <= the model's tile memory */
	uint32_t reserved[2];
};
_Static_assert(sizeof(struct ipu_graph_tile_plan) == 16, "tile plan size");

/* ---- vertices ---- */
struct ipu_graph_vertex {
	uint16_t codelet;	/* codelet id (qemu-device/engine/codelets.h) */
	uint8_t nfields;	/* fields [first_field, first_field + nfields) */
	uint8_t nparams;	/* params [first_param, first_param + nparams) */
	uint32_t tile;
	uint32_t first_field;	/* index into FIELDS */
	uint32_t first_param;	/* index into PARAMS */
};
_Static_assert(sizeof(struct ipu_graph_vertex) == 16, "vertex size");

/* a field binding: count elements of dtype at tile_offset on the vertex's tile */
struct ipu_graph_field {
	uint32_t tile_offset;	/* bytes, aligned to the element size */
	uint32_t count;		/* elements */
	uint8_t dtype;
	uint8_t reserved[3];
};
_Static_assert(sizeof(struct ipu_graph_field) == 12, "field size");

/* a compute set: vertex ids CS_VERTICES[first, first + count) */
struct ipu_graph_compute_set {
	uint32_t name;
	uint32_t first;
	uint32_t count;
	uint32_t reserved;
};
_Static_assert(sizeof(struct ipu_graph_compute_set) == 16, "cs size");

/* ---- exchange ---- */
/* an exchange list: COPIES[first_copy, first_copy + copy_count) */
struct ipu_graph_exchange {
	uint32_t name;
	uint32_t first_copy;
	uint32_t copy_count;
	uint32_t reserved;
};
_Static_assert(sizeof(struct ipu_graph_exchange) == 16, "exchange size");

/*
 * One copy: all copies of an exchange read the state before the exchange;
 * destinations must not overlap each other nor any source of the same list.
 */
struct ipu_graph_copy {
	uint32_t src_tile;
	uint32_t src_offset;
	uint32_t dst_tile;
	uint32_t dst_offset;
	uint32_t bytes;
	uint32_t reserved;
};
_Static_assert(sizeof(struct ipu_graph_copy) == 24, "copy size");

/* ---- control program ---- */
enum ipu_graph_prog_kind {
	IPU_PROG_SEQUENCE = 1,	/* a = first child index (PROGRAM_CHILDREN), b = count */
	IPU_PROG_EXECUTE = 2,	/* a = compute set id */
	IPU_PROG_COPY = 3,	/* a = exchange id */
	IPU_PROG_REPEAT = 4,	/* a = iterations, b = body node */
	IPU_PROG_REPEAT_WHILE_TRUE = 5, /* a = scalar tensor, b = body node,
				 * c = condition program node run before each
				 * test, or IPU_GRAPH_NONE */
	IPU_PROG_IF = 6,	/* a = scalar tensor, b = then node, c = else node
				 * (IPU_GRAPH_NONE = nothing) */
	IPU_PROG_SYNC = 7,	/* a = IPU_SYNC_INTERNAL or IPU_SYNC_EXTERNAL */
	IPU_PROG_STREAM_COPY = 8, /* a = stream id, b = tensor id,
				 * c = IPU_STREAM_HOST_TO_DEVICE / DEVICE_TO_HOST
				 * (must equal the stream's direction) */
	IPU_PROG_ABORT_ON_CONDITION = 9, /* a = scalar tensor, b = abort code */
	IPU_PROG_KIND_COUNT_
};

/* Sync node's a: external = a barrier of all IPUs; any value but 1 is internal */
#define IPU_SYNC_INTERNAL	0u
#define IPU_SYNC_EXTERNAL	1u

/*
 * A scalar tensor is a tensor of exactly one element (any dtype); it is
 * "true" when its bytes are not all zero (for F32/F16 also -0.0 is true).
 */
struct ipu_graph_prog_node {
	uint16_t kind;		/* IPU_PROG_* */
	uint16_t flags;		/* 0 in version 1 */
	uint32_t a, b, c, d;	/* meaning per kind; unused are 0 */
	uint32_t reserved;
};
_Static_assert(sizeof(struct ipu_graph_prog_node) == 24, "prog node size");

/* an entry program: run by index K = its position in ENTRIES */
struct ipu_graph_entry {
	uint32_t name;
	uint32_t node;
};
_Static_assert(sizeof(struct ipu_graph_entry) == 8, "entry size");

/* ---- host streams ---- */
#define IPU_STREAM_HOST_TO_DEVICE 1
#define IPU_STREAM_DEVICE_TO_HOST 2
#define IPU_GRAPH_MAX_STREAM_DEPTH 16

struct ipu_graph_stream {
	uint32_t name;
	uint8_t direction;	/* IPU_STREAM_* */
	uint8_t dtype;
	uint16_t depth;		/* buffering depth, 1..IPU_GRAPH_MAX_STREAM_DEPTH */
	uint32_t elements;	/* per transfer, >= 1 (no stream of empty tensors) */
	uint32_t reserved[3];
};
_Static_assert(sizeof(struct ipu_graph_stream) == 24, "stream size");

/* ---- host-visible tensors ---- */
#define IPU_HANDLE_READ		1u
#define IPU_HANDLE_WRITE	2u

struct ipu_graph_host_handle {
	uint32_t name;		/* unique among handles */
	uint32_t tensor;
	uint32_t access;	/* IPU_HANDLE_READ | IPU_HANDLE_WRITE */
	uint32_t reserved;
};
_Static_assert(sizeof(struct ipu_graph_host_handle) == 16, "handle size");

/* ---- free-form metadata ---- */
struct ipu_graph_kv {
	uint32_t key;		/* string */
	uint32_t value;		/* string */
};
_Static_assert(sizeof(struct ipu_graph_kv) == 8, "kv size");

/* ---- initial tile memory contents, applied at load ---- */
struct ipu_graph_init {
	uint32_t tile;
	uint32_t tile_offset;
	uint32_t bytes;
	uint32_t data_offset;	/* into the DATA blob */
};
_Static_assert(sizeof(struct ipu_graph_init) == 16, "init size");

/* ---- the builder's memory plan (optional; readers may skip it) ---- */
#define IPU_GRAPH_REGION_ALWAYS_LIVE	1u	/* live for the whole program */
#define IPU_GRAPH_REGION_TENSOR		2u	/* holds tensor elements (else an op's buffer) */

/*
 * One tile allocation as planned: bytes [tile_offset, tile_offset + bytes)
 * of tile, inside its plan; live over steps [first_step, last_step] of the
 * builder's linearised programs. Regions may overlap (memory reuse).
 */
struct ipu_graph_mem_region {
	uint32_t tile;
	uint32_t tile_offset;
	uint32_t bytes;
	uint32_t flags;		/* IPU_GRAPH_REGION_* */
	uint32_t first_step;
	uint32_t last_step;
};
_Static_assert(sizeof(struct ipu_graph_mem_region) == 24, "mem region size");

/*
 * ---- input guards (1.1): which host-writable tensors a program reads ----
 * One record per (entry program, host handle) pair the builder found: READS
 * when the program may read the handle's tensor before writing all of it
 * (the engine refuses to run it while the tensor was never written), WRITES
 * when the program writes all of it (after a successful run it counts as
 * written). Records ascend by (program, handle), each pair at most once;
 * the handle has IPU_HANDLE_WRITE access. No section: no guards (1.0
 * binaries and graphs built with zero-initialised inputs).
 */
#define IPU_GRAPH_GUARD_READS	1u
#define IPU_GRAPH_GUARD_WRITES	2u

struct ipu_graph_guard {
	uint32_t program;	/* entry program index */
	uint32_t handle;	/* host handle index */
	uint32_t flags;		/* IPU_GRAPH_GUARD_*, non-zero */
	uint32_t reserved;
};
_Static_assert(sizeof(struct ipu_graph_guard) == 16, "guard size");

/*
 * ---- multi-IPU binaries (1.2) ----
 * One record in the IPUS section (written IPU_GRAPH_SECF_REQUIRED): the
 * binary spans @ipus IPUs of the header's model and every tile number in
 * every section is global: ipu * tiles_per_ipu + tile. No section (or
 * ipus == 1): a single-IPU binary. Each engine of a group of @ipus loads
 * the same binary as member k and runs its own part: the plans, init,
 * vertices on its tiles and the copies whose source is on its tiles
 * (push; into another IPU through the link transport). The control
 * program is replicated; conditions take the value of the member holding
 * the scalar. docs/graph-format.md "Multi-IPU binaries".
 */
#define IPU_GRAPH_MAX_IPUS	16

struct ipu_graph_ipus {
	uint32_t ipus;		/* 1, 2, 4, 8 or 16 */
	uint32_t tiles_per_ipu;	/* == the model's tiles */
	uint32_t flags;		/* 0 */
	uint32_t reserved;
};
_Static_assert(sizeof(struct ipu_graph_ipus) == 16, "ipus size");

/* is @n a valid IPU count of a binary (1, 2, 4, 8, 16)? */
static inline int ipu_graph_ipus_ok(uint32_t n)
{
	return n && n <= IPU_GRAPH_MAX_IPUS && !(n & (n - 1));
}

/* the IPU of global tile @t, and its tile on that IPU */
#define IPU_GRAPH_TILE_IPU(t, tiles_per_ipu)	((t) / (tiles_per_ipu))
#define IPU_GRAPH_TILE_LOCAL(t, tiles_per_ipu)	((t) % (tiles_per_ipu))
/* global tile number of @tile on IPU @ipu */
#define IPU_GRAPH_TILE_GLOBAL(ipu, tile, tiles_per_ipu) \
	((ipu) * (tiles_per_ipu) + (tile))

/* ---- packed tables (version 1.1): a compact form of record sections ---- */
/*
 * The PACKED section holds, one after the other, tables that stand for
 * record sections of the packable types below. A table is this 16-byte
 * head, @bytes bytes of groups, then zero bytes up to a multiple of 4.
 * A packed type appears at most once, and never also as a plain section.
 *
 * The @count records (each @entsize bytes: @entsize / 4 little-endian
 * 32-bit words) are rebuilt group by group. A group is varints
 *   n, lag, delta[0], ..., delta[entsize / 4 - 1]
 * and makes the next n records: word k of record r is word k of record
 * r - lag (an all-zero record if r - lag < 0) plus unzigzag(delta[k]),
 * modulo 2^32. So a regular run (a stride in tiles or offsets), or a run
 * with a period of up to IPU_GRAPH_PACKED_MAX_LAG records (the fields of
 * consecutive vertices, the copies of a row of tiles), is one group.
 */
struct ipu_graph_packed_table {
	uint32_t type;		/* IPU_GRAPH_SEC_*, one of IPU_GRAPH_PACKABLE */
	uint32_t count;		/* records */
	uint32_t entsize;	/* record size: a multiple of 4, >= the type's,
				 * <= IPU_GRAPH_PACKED_MAX_ENTSIZE */
	uint32_t bytes;		/* bytes of groups that follow */
};
_Static_assert(sizeof(struct ipu_graph_packed_table) == 16, "packed table size");

#define IPU_GRAPH_PACKABLE ((1u << IPU_GRAPH_SEC_INTERVALS) | \
	(1u << IPU_GRAPH_SEC_TILE_PLANS) | (1u << IPU_GRAPH_SEC_VERTICES) | \
	(1u << IPU_GRAPH_SEC_FIELDS) | (1u << IPU_GRAPH_SEC_PARAMS) | \
	(1u << IPU_GRAPH_SEC_CS_VERTICES) | (1u << IPU_GRAPH_SEC_COPIES) | \
	(1u << IPU_GRAPH_SEC_PROGRAM_CHILDREN) | (1u << IPU_GRAPH_SEC_INIT) | \
	(1u << IPU_GRAPH_SEC_MEMORY_REGIONS))
#define IPU_GRAPH_PACKED_MAX_LAG	256	/* lag is 1..256 */
#define IPU_GRAPH_PACKED_MAX_ENTSIZE	256
/*
 * The records of all tables together (count x entsize): at most
 * IPU_GRAPH_PACKED_MAX_EXPANSION x the binary's size + IPU_GRAPH_PACKED_SLACK
 * bytes (regular layouts of small graphs pack far better than 64 : 1).
 */
#define IPU_GRAPH_PACKED_MAX_EXPANSION	64
#define IPU_GRAPH_PACKED_SLACK		(64u << 20)
#define IPU_GRAPH_VARINT_MAX	5	/* bytes of a varint (a value < 2^32) */

/* may section type @type be packed? */
static inline int ipu_graph_packable(uint32_t type)
{
	return type < 32 && ((IPU_GRAPH_PACKABLE >> type) & 1);
}

/*
 * Varint (LEB128: 7 bits a byte, low first, bit 7 = more): @v into @p
 * (room for IPU_GRAPH_VARINT_MAX bytes); returns the bytes written.
 */
static inline unsigned ipu_graph_varint_put(uint8_t *p, uint32_t v)
{
	unsigned n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/*
 * The varint at @p (@avail bytes readable) into *@v. Returns its length,
 * or 0 if it is cut off by @avail, longer than IPU_GRAPH_VARINT_MAX bytes
 * or does not fit in 32 bits.
 */
static inline unsigned ipu_graph_varint_get(const uint8_t *p, size_t avail, uint32_t *v)
{
	uint32_t x = 0;

	for (unsigned n = 0; n < IPU_GRAPH_VARINT_MAX && n < avail; n++) {
		if (n == IPU_GRAPH_VARINT_MAX - 1 && p[n] > 0x0f)
			return 0;	/* bits 32 and up, or a 6th byte */
		x |= (uint32_t)(p[n] & 0x7f) << (7 * n);
		if (!(p[n] & 0x80)) {
			*v = x;
			return n + 1;
		}
	}
	return 0;
}

/* a word difference as a small unsigned number: 0, -1, 1, -2, ... -> 0, 1, 2, 3 */
static inline uint32_t ipu_graph_zigzag(uint32_t d)
{
	return (d << 1) ^ (uint32_t)-(d >> 31);
}

static inline uint32_t ipu_graph_unzigzag(uint32_t z)
{
	return (z >> 1) ^ (uint32_t)-(z & 1);
}

/*
 * Record size a version-1 reader knows for section type @type: the struct
 * (or uint32_t) of the table in docs/graph-format.md, 1 for blob sections,
 * 0 for a type it does not know. Writers use it as the entsize they write;
 * readers refuse a smaller entsize and read this prefix of larger ones.
 */
static inline uint32_t ipu_graph_record_size(uint32_t type)
{
	static const uint32_t size[IPU_GRAPH_SEC_COUNT_] = {
		[IPU_GRAPH_SEC_STRINGS] = 1,
		[IPU_GRAPH_SEC_TENSORS] = sizeof(struct ipu_graph_tensor),
		[IPU_GRAPH_SEC_INTERVALS] = sizeof(struct ipu_graph_interval),
		[IPU_GRAPH_SEC_TILE_PLANS] = sizeof(struct ipu_graph_tile_plan),
		[IPU_GRAPH_SEC_VERTICES] = sizeof(struct ipu_graph_vertex),
		[IPU_GRAPH_SEC_FIELDS] = sizeof(struct ipu_graph_field),
		[IPU_GRAPH_SEC_PARAMS] = sizeof(uint32_t),
		[IPU_GRAPH_SEC_COMPUTE_SETS] = sizeof(struct ipu_graph_compute_set),
		[IPU_GRAPH_SEC_CS_VERTICES] = sizeof(uint32_t),
		[IPU_GRAPH_SEC_EXCHANGES] = sizeof(struct ipu_graph_exchange),
		[IPU_GRAPH_SEC_COPIES] = sizeof(struct ipu_graph_copy),
		[IPU_GRAPH_SEC_PROGRAM_NODES] = sizeof(struct ipu_graph_prog_node),
		[IPU_GRAPH_SEC_PROGRAM_CHILDREN] = sizeof(uint32_t),
		[IPU_GRAPH_SEC_ENTRIES] = sizeof(struct ipu_graph_entry),
		[IPU_GRAPH_SEC_STREAMS] = sizeof(struct ipu_graph_stream),
		[IPU_GRAPH_SEC_HOST_HANDLES] = sizeof(struct ipu_graph_host_handle),
		[IPU_GRAPH_SEC_METADATA] = sizeof(struct ipu_graph_kv),
		[IPU_GRAPH_SEC_INIT] = sizeof(struct ipu_graph_init),
		[IPU_GRAPH_SEC_DATA] = 1,
		[IPU_GRAPH_SEC_INPUT_GUARDS] = sizeof(struct ipu_graph_guard),
		[IPU_GRAPH_SEC_MEMORY_REGIONS] = sizeof(struct ipu_graph_mem_region),
		[IPU_GRAPH_SEC_PACKED] = 1,
		[IPU_GRAPH_SEC_IPUS] = sizeof(struct ipu_graph_ipus),
	};

	return type < IPU_GRAPH_SEC_COUNT_ ? size[type] : 0;
}

/* Name of section type @type for messages ("unknown" for types not known). */
static inline const char *ipu_graph_section_name(uint32_t type)
{
	static const char *const names[IPU_GRAPH_SEC_COUNT_] = {
		[0] = "header",
		[IPU_GRAPH_SEC_STRINGS] = "strings",
		[IPU_GRAPH_SEC_TENSORS] = "tensors",
		[IPU_GRAPH_SEC_INTERVALS] = "intervals",
		[IPU_GRAPH_SEC_TILE_PLANS] = "tile_plans",
		[IPU_GRAPH_SEC_VERTICES] = "vertices",
		[IPU_GRAPH_SEC_FIELDS] = "fields",
		[IPU_GRAPH_SEC_PARAMS] = "params",
		[IPU_GRAPH_SEC_COMPUTE_SETS] = "compute_sets",
		[IPU_GRAPH_SEC_CS_VERTICES] = "cs_vertices",
		[IPU_GRAPH_SEC_EXCHANGES] = "exchanges",
		[IPU_GRAPH_SEC_COPIES] = "copies",
		[IPU_GRAPH_SEC_PROGRAM_NODES] = "program_nodes",
		[IPU_GRAPH_SEC_PROGRAM_CHILDREN] = "program_children",
		[IPU_GRAPH_SEC_ENTRIES] = "entries",
		[IPU_GRAPH_SEC_STREAMS] = "streams",
		[IPU_GRAPH_SEC_HOST_HANDLES] = "host_handles",
		[IPU_GRAPH_SEC_METADATA] = "metadata",
		[IPU_GRAPH_SEC_INIT] = "init",
		[IPU_GRAPH_SEC_DATA] = "data",
		[IPU_GRAPH_SEC_INPUT_GUARDS] = "input_guards",
		[IPU_GRAPH_SEC_MEMORY_REGIONS] = "memory_regions",
		[IPU_GRAPH_SEC_PACKED] = "packed",
		[IPU_GRAPH_SEC_IPUS] = "ipus",
	};

	return type < IPU_GRAPH_SEC_COUNT_ && names[type] ? names[type] : "unknown";
}

/*
 * CRC-32 (IEEE 802.3, reflected, poly 0xEDB88320), as zlib's crc32().
 * Start with crc = 0; chain calls to checksum in pieces. Four bytes a step
 * ("slicing by 4") with tables built on the stack per call (4 KiB, a few
 * microseconds): no global state, ~4x the bytes per second of a nibble
 * table, which made the checksum a quarter of a data-heavy graph's load.
 */
static inline uint32_t ipu_graph_crc32(uint32_t crc, const void *buf, size_t len)
{
	uint32_t t[4][256];
	const uint8_t *p = (const uint8_t *)buf;

	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (uint32_t)-(c & 1));
		t[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int s = 1; s < 4; s++)
			t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
	crc = ~crc;
	for (; len >= 4; p += 4, len -= 4) {
		crc ^= (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		       (uint32_t)p[3] << 24;
		crc = t[3][crc & 0xff] ^ t[2][(crc >> 8) & 0xff] ^ t[1][(crc >> 16) & 0xff] ^
		      t[0][crc >> 24];
	}
	while (len--)
		crc = (crc >> 8) ^ t[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

/* checksum of a whole binary whose header checksum field must read as 0 */
static inline uint32_t ipu_graph_checksum(const void *bin, size_t len)
{
	static const uint8_t zero[4] = { 0, 0, 0, 0 };
	size_t off = offsetof(struct ipu_graph_header, checksum);
	uint32_t crc;

	if (len < off + 4)
		return ipu_graph_crc32(0, bin, len);
	crc = ipu_graph_crc32(0, bin, off);
	crc = ipu_graph_crc32(crc, zero, 4);
	return ipu_graph_crc32(crc, (const uint8_t *)bin + off + 4, len - off - 4);
}

#endif /* IPU_GRAPH_FORMAT_H */
