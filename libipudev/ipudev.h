/* SPDX-License-Identifier: MIT */
/*
 * libipudev: the user-space library of the IPU stack. The ONE public header.
 *
 * Conventions of every function below:
 *  - Fallible functions return 0 (or a count) on success and a negative errno
 *    on failure. They take an optional `struct ipu_error *err` as the last
 *    argument (NULL allowed); on failure it receives the same negative errno
 *    and a message saying what failed and why, e.g.
 *        "open /dev/ipu2: Permission denied".
 *    On success *err is left untouched.
 *  - The library keeps no global state: every call works on what it is given
 *    and is safe to call from several threads as long as each `struct
 *    ipu_device` is used by one thread at a time.
 *  - Objects the library allocates are freed by the matching _free or _close
 *    function; pointers returned by the *_name() helpers point to static,
 *    read-only strings.
 *
 * Link with `pkg-config --cflags --libs libipudev`.
 */
#ifndef IPUDEV_H
#define IPUDEV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define IPU_API __attribute__((visibility("default")))
#else
#define IPU_API
#endif

#define IPUDEV_VERSION_MAJOR	1
#define IPUDEV_VERSION_MINOR	0
#define IPUDEV_VERSION_PATCH	0
#define IPUDEV_VERSION_STRING	"1.0.0"

/* --- Errors (error.c) --- */

#define IPU_ERROR_MSG_MAX	256

/**
 * struct ipu_error - what failed and why
 * @code: negative errno, the value the failing function returned
 * @msg:  NUL-terminated message (truncated to fit)
 */
struct ipu_error {
	int code;
	char msg[IPU_ERROR_MSG_MAX];
};

/**
 * ipu_error_clear() - reset @err to "no error" (code 0, empty message).
 * NULL is allowed and ignored.
 */
IPU_API void ipu_error_clear(struct ipu_error *err);

/**
 * ipu_strerror() - description of a (negative or positive) errno value.
 * Returns a static string (never NULL, "Success" for 0, "Unknown error" for
 * values the C library does not know). Thread-safe; not translated.
 */
IPU_API const char *ipu_strerror(int code);

/**
 * ipu_version() - the library version, IPUDEV_VERSION_STRING of the build.
 * Static string.
 */
IPU_API const char *ipu_version(void);

/* --- Models and states --- */

/* Chip model ids: the IPU_MODEL_* values of include/ipu/ipu_models.h. */
#ifndef IPU_MODELS_H
#define IPU_MODEL_GC2		1
#define IPU_MODEL_GC200		2
#define IPU_MODEL_TEST		0x10
#endif

/**
 * ipu_model_name() - short name of a chip model id: "gc2", "gc200", "test",
 * or "unknown". Static string.
 */
IPU_API const char *ipu_model_name(uint32_t model);

/**
 * ipu_model_arch() - IPU architecture of a model: "ipu1" (GC2), "ipu2"
 * (GC200), "test", or "unknown". Static string.
 */
IPU_API const char *ipu_model_arch(uint32_t model);

/**
 * ipu_model_from_name() - model id for a name as ipu_model_name() gives it
 * (case-insensitive). Returns 0 or -EINVAL when @name is NULL or unknown.
 */
IPU_API int ipu_model_from_name(const char *name, uint32_t *model);

/* Card states, the values of GET_INFO / sysfs "state". */
enum ipu_state {
	IPU_STATE_UNKNOWN = -1,
	IPU_STATE_INITIALIZING = 0,
	IPU_STATE_READY = 1,
	IPU_STATE_RESETTING = 2,
	IPU_STATE_FAILED = 3,
};

/**
 * ipu_state_name() - "initializing", "ready", "resetting", "failed" or
 * "unknown". Static string.
 */
IPU_API const char *ipu_state_name(int state);

/**
 * ipu_state_from_name() - enum ipu_state for a sysfs state string (trailing
 * white space ignored); IPU_STATE_UNKNOWN for NULL or anything else.
 */
IPU_API int ipu_state_from_name(const char *name);

/* --- Enumeration (enumerate.c, pci_info.c) --- */

#define IPU_CARD_STR_MAX	64

/**
 * struct ipu_card - one card as sysfs and the PCI layer describe it
 *
 * Found through libudev (subsystem "ipu"); no device is opened except, when
 * the module has no version attribute, to read the driver version. Strings
 * are NUL-terminated, "" when unknown; numbers are 0 when unknown unless
 * said otherwise.
 */
struct ipu_card {
	unsigned id;				/* N of ipuN */
	char name[16];				/* "ipuN" */
	char devnode[IPU_CARD_STR_MAX];		/* from udev, e.g. "/dev/ipu0" */
	char syspath[256];			/* udev syspath of the ipu device */
	char pci_address[32];			/* "0000:00:04.0" */
	uint16_t vendor_id;			/* PCI vendor, 0x1ee7 */
	uint16_t device_id;			/* PCI device, 0x0001 */
	uint32_t model;				/* IPU_MODEL_*, 0 unknown */
	char model_name[16];			/* sysfs "model": "gc200" */
	char serial[IPU_CARD_STR_MAX];		/* board serial */
	uint32_t tiles;
	uint32_t tile_memory;			/* bytes per tile */
	uint64_t total_memory;			/* tiles * tile_memory */
	char firmware_version[32];		/* "1.4.0" */
	int state;				/* enum ipu_state */
	char state_name[16];			/* sysfs "state" as read */
	uint32_t card_index;
	uint32_t reset_count;
	char driver_version[32];		/* ipu.ko version */
	char link_speed[16];			/* current, "16.0 GT/s"; "" unknown */
	unsigned link_width;			/* current lanes, 16; 0 unknown */
	char link_speed_max[16];		/* capability of the endpoint */
	unsigned link_width_max;
	int numa_node;				/* -1: none / unknown */
	uint32_t reserved[16];
};

/**
 * ipu_enumerate() - list the IPU cards of the machine
 * @cards: out: array of *@count cards sorted by id, allocated by the
 *         library; free it with ipu_cards_free(). NULL on failure.
 * @count: out: number of cards (0 on failure)
 * @err:   optional error report
 *
 * Returns 0 when at least one card was found; -ENODEV when there is none,
 * with a message telling whether the driver is not loaded or loaded without
 * cards; -ENOMEM; -EINVAL for NULL @cards or @count; other negative errno
 * when libudev fails. PCIe link and NUMA figures come from libpci and are
 * best-effort (left unknown when they cannot be read).
 */
IPU_API int ipu_enumerate(struct ipu_card **cards, size_t *count,
			  struct ipu_error *err);

/**
 * ipu_cards_free() - free an array returned by ipu_enumerate(). NULL is
 * allowed.
 */
IPU_API void ipu_cards_free(struct ipu_card *cards);

/* --- Devices (device.c; ipu_device_open: card.c) --- */

/* An open IPU: a card (/dev/ipuN) or, through the execution backends, an
 * in-process model device. Opaque. */
struct ipu_device;

/* ipu_device_open() flags */
#define IPU_OPEN_READONLY	(1u << 0)	/* info only: reset gives -EPERM */
/* Attach to the card at once (else: at the first load, transfer or buffer
 * call). Attachment is exclusive: another process's attach waits. */
#define IPU_OPEN_ATTACH		(1u << 1)
/* Attaching fails with -EBUSY instead of waiting while another process
 * holds the card. */
#define IPU_OPEN_NONBLOCK	(1u << 2)
#define IPU_OPEN_VALID_FLAGS	(IPU_OPEN_READONLY | IPU_OPEN_ATTACH | \
				 IPU_OPEN_NONBLOCK)

/**
 * ipu_device_open() - open card ipu@id
 * @id:    N of /dev/ipuN (struct ipu_card.id)
 * @flags: IPU_OPEN_*
 * @out:   out: the device, to be closed with ipu_device_close(); NULL on
 *         failure
 * @err:   optional error report
 *
 * The device node is the one udev reports for ipu@id. Returns 0; -EINVAL
 * for unknown flags or NULL @out; -ENODEV when there is no such card (or no
 * driver); the errno of open(2) otherwise (-EACCES, -ENOENT...); -ENOMEM.
 */
IPU_API int ipu_device_open(unsigned id, unsigned flags,
			    struct ipu_device **out, struct ipu_error *err);

/**
 * ipu_device_close() - close @dev and free it. NULL is allowed.
 */
IPU_API void ipu_device_close(struct ipu_device *dev);

/**
 * ipu_device_id() - the id the device was opened with (N of ipuN).
 */
IPU_API unsigned ipu_device_id(const struct ipu_device *dev);

/**
 * ipu_device_name() - "ipuN" for a card; the backend's name otherwise.
 * The string lives as long as @dev.
 */
IPU_API const char *ipu_device_name(const struct ipu_device *dev);

/**
 * struct ipu_device_info - identity, capabilities and state (GET_INFO)
 */
struct ipu_device_info {
	unsigned id;			/* N of ipuN */
	char backend[16];		/* "card" or "model" */
	uint32_t api_version;		/* driver uAPI major << 16 | minor */
	uint32_t hw_version;		/* card interface major << 16 | minor */
	uint32_t model;			/* IPU_MODEL_* */
	uint32_t card_index;
	uint32_t tiles;
	uint32_t tile_memory;		/* bytes per tile */
	uint64_t total_memory;		/* tiles * tile_memory */
	uint32_t threads_per_tile;	/* worker threads */
	uint32_t link_ports;		/* IPU-Link ports */
	uint32_t fw_version;		/* major << 16 | minor << 8 | patch */
	char firmware_version[16];	/* "1.4.0" */
	uint32_t clock_khz;
	int state;			/* enum ipu_state */
	uint32_t reset_count;
	uint64_t capabilities;		/* card CAPS register */
	char serial[32];
	char driver_version[32];
	uint32_t reserved[16];
};

/**
 * ipu_device_info() - query identity and state of @dev
 * @out: out: filled completely (zeroed first)
 *
 * Returns 0; -EINVAL for NULL arguments; the ioctl's errno for a card
 * (-ENODEV when the card went away).
 */
IPU_API int ipu_device_info(struct ipu_device *dev, struct ipu_device_info *out,
			    struct ipu_error *err);

/* ipu_device_reset() flags */
#define IPU_RESET_NOWAIT	(1u << 0)	/* do not wait for READY */
#define IPU_RESET_FORCE		(1u << 1)	/* also a card another process holds */
#define IPU_RESET_VALID_FLAGS	(IPU_RESET_NOWAIT | IPU_RESET_FORCE)
#define IPU_RESET_TIMEOUT_MAX	60000		/* ms */

/**
 * struct ipu_reset_result - state after a reset
 */
struct ipu_reset_result {
	int state;			/* enum ipu_state after the reset */
	uint32_t reset_count;		/* completed resets since power-on */
	uint64_t elapsed_us;		/* wall time of the call */
	int32_t holder_pid;		/* -EBUSY: the process holding the card */
	char holder_comm[16];		/* -EBUSY: its command name */
	uint32_t reserved[3];
};

/**
 * ipu_device_reset() - soft-reset @dev and wait until it is ready again
 * @timeout_ms: how long to wait for READY; 0 for the driver's default
 *              (2000 ms); at most IPU_RESET_TIMEOUT_MAX
 * @flags:      IPU_RESET_*
 * @out:        optional result (NULL allowed)
 *
 * Returns 0; -EINVAL for bad arguments; -EPERM when @dev was opened with
 * IPU_OPEN_READONLY; -ETIMEDOUT when the card did not become ready (it is
 * then "failed"); -EINTR when a signal interrupted the wait (the reset goes
 * on in the background); -EBUSY when another process holds (is attached to)
 * the card and IPU_RESET_FORCE is not given: @out names it (holder_pid,
 * holder_comm); with IPU_RESET_FORCE that process's work in flight fails
 * with a reset status and its graph is gone. Other negative errno from the
 * driver.
 */
IPU_API int ipu_device_reset(struct ipu_device *dev, unsigned timeout_ms,
			     unsigned flags, struct ipu_reset_result *out,
			     struct ipu_error *err);

/* --- Graph builder (builder.c) --- */

/*
 * Build a graph binary (docs/graph-format.md) in memory, then write it to a
 * buffer or a file; see docs/builder.md. Tensors are row-major arrays whose
 * elements are mapped, range by range, to tiles; vertices (codelet instances,
 * docs/codelets.md) bind slices of tensors that live on their tile; compute
 * sets group vertices; exchanges group tile-to-tile copies; program nodes
 * (sequence, execute, copy, repeat, if, ...) form the control programs run by
 * index. Every add/map call validates at once and fails with a message that
 * names the object and the reason. Ids are small integers >= 0; every
 * builder function returns an id (or 0) on success, a negative errno on
 * failure. A graph is used by one thread at a time.
 */
struct ipu_graph;

/* Element types (values of include/ipu/graph_format.h). */
#ifndef IPU_GRAPH_FORMAT_H
#define IPU_DTYPE_F32		1
#define IPU_DTYPE_F16		2
#define IPU_DTYPE_I32		3
#define IPU_STREAM_HOST_TO_DEVICE 1
#define IPU_STREAM_DEVICE_TO_HOST 2
#define IPU_HANDLE_READ		1u
#define IPU_HANDLE_WRITE	2u
#endif
#define IPU_HANDLE_RW		(IPU_HANDLE_READ | IPU_HANDLE_WRITE)
#define IPU_MAX_RANK		6

/** "f32", "f16", "i32" or "unknown". Static string. */
IPU_API const char *ipu_dtype_name(unsigned dtype);

/** ipu_graph_create() - empty graph for chip model @model (IPU_MODEL_*). */
IPU_API int ipu_graph_create(uint32_t model, struct ipu_graph **out,
			     struct ipu_error *err);
IPU_API void ipu_graph_free(struct ipu_graph *g);
IPU_API uint32_t ipu_graph_model(const struct ipu_graph *g);
IPU_API unsigned ipu_graph_tiles(const struct ipu_graph *g);
IPU_API uint32_t ipu_graph_tile_memory(const struct ipu_graph *g);
/** Bytes of tile @tile allocated so far (its memory plan). */
IPU_API uint32_t ipu_graph_tile_used(const struct ipu_graph *g, unsigned tile);

/* -- tensors -- */

/**
 * ipu_graph_add_tensor() - a new tensor, not yet mapped to tiles
 * @name:  unique, non-empty (it names the tensor in messages and handles)
 * @dtype: IPU_DTYPE_*; @rank 0..IPU_MAX_RANK (0: one element); @shape dims >= 1
 * Returns the tensor id.
 */
IPU_API int ipu_graph_add_tensor(struct ipu_graph *g, const char *name,
				 unsigned dtype, unsigned rank,
				 const uint32_t *shape, struct ipu_error *err);
/**
 * ipu_graph_map() - place elements [@begin, @begin + @count) of the
 * flattened tensor on @tile; the builder allocates the tile memory
 * (consecutive calls for consecutive ranges on one tile get consecutive
 * memory). Refused: a range already mapped, out of the tensor, a tile that
 * does not exist, a tile out of memory.
 */
IPU_API int ipu_graph_map(struct ipu_graph *g, int tensor, uint64_t begin,
			  uint64_t count, unsigned tile, struct ipu_error *err);
/** Map the whole tensor to one tile. */
IPU_API int ipu_graph_map_tile(struct ipu_graph *g, int tensor, unsigned tile,
			       struct ipu_error *err);
/**
 * ipu_graph_map_linear() - spread the whole tensor evenly over all tiles in
 * chunks that are multiples of @grain elements (0: 1).
 */
IPU_API int ipu_graph_map_linear(struct ipu_graph *g, int tensor, uint64_t grain,
				 struct ipu_error *err);
/** Give @tensor the same element-to-tile layout as @like (same elements). */
IPU_API int ipu_graph_map_like(struct ipu_graph *g, int tensor, int like,
			       struct ipu_error *err);
/**
 * ipu_graph_set_initial() - contents the tensor has after load (@bytes must
 * be its size); makes it a constant unless it is exposed for writing.
 */
IPU_API int ipu_graph_set_initial(struct ipu_graph *g, int tensor,
				  const void *data, size_t bytes,
				  struct ipu_error *err);
/**
 * ipu_graph_expose() - make @tensor host-visible as handle @name (NULL: the
 * tensor's name) with @access IPU_HANDLE_READ and/or IPU_HANDLE_WRITE.
 */
IPU_API int ipu_graph_expose(struct ipu_graph *g, int tensor, const char *name,
			     unsigned access, struct ipu_error *err);
/** Tensor id of @name, or -ENOENT. */
IPU_API int ipu_graph_find_tensor(const struct ipu_graph *g, const char *name);

struct ipu_tensor_desc {
	const char *name;	/* lives as long as the graph */
	unsigned dtype;
	unsigned rank;
	uint32_t shape[IPU_MAX_RANK];
	uint64_t elements;
};
IPU_API int ipu_graph_tensor_desc(const struct ipu_graph *g, int tensor,
				  struct ipu_tensor_desc *out,
				  struct ipu_error *err);
/** Tile of element @index of @tensor, or -ENOENT if it is not mapped. */
IPU_API int ipu_graph_tile_of(const struct ipu_graph *g, int tensor,
			      uint64_t index);

/* -- vertices and compute sets -- */

/** A slice: elements [begin, begin + count) of the flattened tensor. */
struct ipu_slice {
	int tensor;
	uint64_t begin;
	uint64_t count;
};
/** The whole tensor as a slice (count = its elements). */
IPU_API struct ipu_slice ipu_slice_all(const struct ipu_graph *g, int tensor);

IPU_API int ipu_graph_add_compute_set(struct ipu_graph *g, const char *name,
				      struct ipu_error *err);
/**
 * ipu_graph_add_vertex() - an instance of codelet @codelet (docs/codelets.md)
 * in compute set @cs. Each field is a slice that must lie contiguously in
 * ONE tile's memory, the same tile for all fields (the vertex's tile).
 * The binding is checked as the engine's loader checks it, and against the
 * other vertices of @cs: a vertex may not write memory that another vertex
 * of the same compute set reads or writes. Returns the vertex id.
 */
IPU_API int ipu_graph_add_vertex(struct ipu_graph *g, int cs, unsigned codelet,
				 const struct ipu_slice *fields, unsigned nfields,
				 const uint32_t *params, unsigned nparams,
				 struct ipu_error *err);

/* -- exchanges (tile-to-tile copies run as one phase) -- */

IPU_API int ipu_graph_add_exchange(struct ipu_graph *g, const char *name,
				   struct ipu_error *err);
/**
 * ipu_graph_exchange_copy() - add "dst = src" (same dtype and count) to
 * exchange @ex. All copies of an exchange read the state before it;
 * destinations may not overlap each other nor any source of the exchange.
 */
IPU_API int ipu_graph_exchange_copy(struct ipu_graph *g, int ex,
				    struct ipu_slice src, struct ipu_slice dst,
				    struct ipu_error *err);

/* -- host streams and metadata -- */

/** A FIFO of transfers of @elements elements; @depth 1..16. Returns the id. */
IPU_API int ipu_graph_add_stream(struct ipu_graph *g, const char *name,
				 unsigned direction, unsigned dtype,
				 uint32_t elements, unsigned depth,
				 struct ipu_error *err);
IPU_API int ipu_graph_set_metadata(struct ipu_graph *g, const char *key,
				   const char *value, struct ipu_error *err);

/* -- control programs: each function returns a program node id -- */

/** An empty sequence; add children with ipu_prog_append(). */
IPU_API int ipu_prog_sequence(struct ipu_graph *g, struct ipu_error *err);
IPU_API int ipu_prog_append(struct ipu_graph *g, int seq, int child,
			    struct ipu_error *err);
IPU_API int ipu_prog_execute(struct ipu_graph *g, int cs, struct ipu_error *err);
IPU_API int ipu_prog_exchange(struct ipu_graph *g, int ex, struct ipu_error *err);
/** A one-copy exchange "dst = src" and the node running it. */
IPU_API int ipu_prog_copy(struct ipu_graph *g, struct ipu_slice src,
			  struct ipu_slice dst, struct ipu_error *err);
IPU_API int ipu_prog_repeat(struct ipu_graph *g, uint32_t count, int body,
			    struct ipu_error *err);
/** Run @cond_prog (-1: none), test scalar @cond; while true run @body. */
IPU_API int ipu_prog_repeat_while_true(struct ipu_graph *g, int cond,
				       int cond_prog, int body,
				       struct ipu_error *err);
/** If scalar tensor @cond is true run @then_prog else @else_prog (-1: none). */
IPU_API int ipu_prog_if(struct ipu_graph *g, int cond, int then_prog,
			int else_prog, struct ipu_error *err);
IPU_API int ipu_prog_sync(struct ipu_graph *g, struct ipu_error *err);
/** Move one transfer of @stream into (host->device) or out of @tensor. */
IPU_API int ipu_prog_stream_copy(struct ipu_graph *g, int stream, int tensor,
				 struct ipu_error *err);
IPU_API int ipu_prog_abort_on(struct ipu_graph *g, int cond, uint32_t code,
			      struct ipu_error *err);
/** Make node @node entry program @name; returns its index K (0, 1, ...). */
IPU_API int ipu_graph_add_program(struct ipu_graph *g, const char *name,
				  int node, struct ipu_error *err);

/* -- output -- */

/**
 * Serialize: *@buf (free() it) of *@len bytes, format 1.1 in its compact
 * form (docs/graph-format.md, "Packed tables"). The graph stays usable.
 */
IPU_API int ipu_graph_write(struct ipu_graph *g, void **buf, size_t *len,
			    struct ipu_error *err);
IPU_API int ipu_graph_write_file(struct ipu_graph *g, const char *path,
				 struct ipu_error *err);

/* --- Partitioned operations (partition.c) ---
 *
 * Like Poplar's popops/poplin: each call creates the compute sets,
 * exchanges and vertices that spread an operation over the tiles and
 * appends the program nodes to sequence @seq. Output tensors are created
 * and mapped by the call and named @name (must be unique).
 */

/* unary ops (values of the engine's codelet library); GELU: the tanh
 * approximation x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), f32/f16 */
enum ipu_unary_op {
	IPU_OP_NEG = 1, IPU_OP_ABS, IPU_OP_EXP, IPU_OP_LOG,
	IPU_OP_SQRT, IPU_OP_TANH, IPU_OP_SIGMOID, IPU_OP_RELU,
	IPU_OP_GELU,
};
enum ipu_binary_op {
	IPU_OP_ADD = 1, IPU_OP_SUB, IPU_OP_MUL, IPU_OP_DIV, IPU_OP_MAX, IPU_OP_MIN,
};
enum ipu_reduce_op {
	IPU_REDUCE_SUM = 1, IPU_REDUCE_MAX, IPU_REDUCE_MIN,
};

/**
 * ipu_unary() - out = op(in) elementwise, out laid out like @in, or in place
 * when @name is NULL (returns @in). Returns the output tensor id.
 */
IPU_API int ipu_unary(struct ipu_graph *g, int seq, unsigned op, int in,
		      const char *name, struct ipu_error *err);
/**
 * ipu_binary() - out = a op b, out of @a's shape and laid out like @a (in
 * place into @a when @name is NULL). @b is broadcast onto @a's shape by
 * numpy's rules: its shape right-aligned to @a's, each of its dimensions 1
 * or equal to @a's, its rank at most @a's; e.g. [C] (a bias) or [R, 1]
 * (per row) onto [R, C], a rank-0 or one-element @b (scalar). @a is never
 * broadcast (numpy would): a @b of higher rank or a shape that does not
 * broadcast is refused with -EINVAL naming both tensors and shapes; so are
 * different dtypes. Parts of @b that are not on the tile that needs them
 * are copied there (once per tile when @b has fewer elements than @a).
 */
IPU_API int ipu_binary(struct ipu_graph *g, int seq, unsigned op, int a, int b,
		       const char *name, struct ipu_error *err);
/** ipu_reduce() - scalar (rank 0, f32 for float input) = reduce(all of @in). */
IPU_API int ipu_reduce(struct ipu_graph *g, int seq, unsigned op, int in,
		       const char *name, struct ipu_error *err);
/** ipu_reduce_rows() - out[r] = reduce(in[r][:]) over the last dimension. */
IPU_API int ipu_reduce_rows(struct ipu_graph *g, int seq, unsigned op, int in,
			    const char *name, struct ipu_error *err);

/**
 * struct ipu_matmul_plan - how C[m][n] = A[m][k] x B[k][n] is spread: the
 * tiles form a pm x pn x pk grid and K is cut in pk * ks blocks; in serial
 * step s, tile (i, j, l) adds the product of A block (i, l * ks + s) and B
 * block (l * ks + s, j) (bm x bk and bk x bn) to its partial C block; when
 * pk > 1 the pk partials of a C block are then summed by the tiles that own
 * the C block's rows. ks > 1 only when the blocks would not fit the tile
 * memory otherwise. Chosen by ipu_matmul_plan() to minimise the modelled
 * cycles (compute at the AMP rate on the codelet's register-block padded
 * sizes, exchange at 4 bytes/cycle/tile, phase latencies) within tile
 * memory.
 */
struct ipu_matmul_plan {
	uint32_t m, n, k;
	unsigned dtype;		/* of A and B: IPU_DTYPE_F32 or F16; C is f32 */
	uint32_t pm, pn, pk;	/* grid */
	uint32_t ks;		/* serial steps over K (>= 1) */
	uint32_t bm, bn, bk;	/* block (the last blocks may be smaller) */
	uint32_t tiles;		/* pm * pn * pk */
	uint64_t est_cycles;	/* modelled: compute + exchange + reduction */
	uint64_t tile_bytes;	/* estimated bytes per tile (inputs included) */
	uint32_t reserved[6];
};
/** Plan for @g's model; 0 or -ENOSPC when no grid fits the tile memory. */
IPU_API int ipu_matmul_plan(const struct ipu_graph *g, uint32_t m, uint32_t n,
			    uint32_t k, unsigned dtype,
			    struct ipu_matmul_plan *plan, struct ipu_error *err);
/**
 * ipu_matmul_create_lhs() / _rhs() - A [m][k] / B [k][n] laid out as @plan
 * wants them: each block on one of the tiles that use it, contiguous, so
 * that the matmul needs no rearrangement.
 */
IPU_API int ipu_matmul_create_lhs(struct ipu_graph *g,
				  const struct ipu_matmul_plan *plan,
				  const char *name, struct ipu_error *err);
IPU_API int ipu_matmul_create_rhs(struct ipu_graph *g,
				  const struct ipu_matmul_plan *plan,
				  const char *name, struct ipu_error *err);
/**
 * ipu_matmul() - C = A x B (rank-2 tensors of any layout; A [m][k], B
 * [k][n], A and B of one dtype f32/f16); C is f32 [m][n], created and
 * named @name. @plan NULL: planned now. Returns C's tensor id.
 * Same as ipu_matmul_ex() with flags 0.
 */
IPU_API int ipu_matmul(struct ipu_graph *g, int seq, int a, int b,
		       const char *name, const struct ipu_matmul_plan *plan,
		       struct ipu_error *err);

/* ipu_matmul_ex() / ipu_matmul_grouped() flags: use the stored operand transposed */
#define IPU_MATMUL_TRANSPOSE_A	1u	/* A stored [k][m], used as A^T */
#define IPU_MATMUL_TRANSPOSE_B	2u	/* B stored [n][k], used as B^T */

/**
 * ipu_matmul_ex() - C = op(A) x op(B), op() transposing the operands
 * @flags name (IPU_MATMUL_TRANSPOSE_*); like Poplar's poplin::matMul on
 * transposed views, so dX = dY x W^T and dW = X^T x dY need no
 * materialised transpose. op(A) is [m][k], op(B) [k][n]; C is f32 [m][n],
 * created and named @name; @plan (for m, n, k; NULL: planned now) is not
 * kept. TRANSPOSE_B costs nothing (the codelet reads B as [n][k]);
 * TRANSPOSE_A transposes A in the operand exchange, one copy per element
 * of A, shared out over the tiles using each block (see docs/builder.md). Appends to @seq; the graph owns everything created.
 * Returns C's tensor id, or -EINVAL (message names the matmul, the
 * tensors, their shapes and the reason) for unknown flags, ranks other
 * than 2, K mismatch, dtypes other than both f32 or both f16, unmapped
 * operands or a plan for other sizes; -ENOSPC when it does not fit;
 * -EEXIST when @name is taken; -ENOMEM.
 */
IPU_API int ipu_matmul_ex(struct ipu_graph *g, int seq, int a, int b,
			  unsigned flags, const char *name,
			  const struct ipu_matmul_plan *plan,
			  struct ipu_error *err);
/**
 * ipu_matmul_grouped() - C[g] = op(A[g]) x op(B[g]) for G groups, like
 * poplin::matMulGrouped: A [G][m][k] (TRANSPOSE_A: [G][k][m]), B [G][k][n]
 * (TRANSPOSE_B: [G][n][k]), C f32 [G][m][n] named @name. Groups run side
 * by side on disjoint tiles, as many at once as the chip has room for
 * grids of @plan (one group's m x n x k; NULL: planned now, trading
 * tiles per group against waves of groups with ipu_matmul_plan()'s cost
 * model). Ownership and errors as ipu_matmul_ex(); -EINVAL also for ranks
 * other than 3, group counts that differ and empty groups.
 */
IPU_API int ipu_matmul_grouped(struct ipu_graph *g, int seq, int a, int b,
			       unsigned flags, const char *name,
			       const struct ipu_matmul_plan *plan,
			       struct ipu_error *err);

/* --- popops-level ops (popops.c) ---
 *
 * Like Poplar's popops: cast, reductions along any axes, comparisons,
 * select and argmax, each appending its program nodes to sequence @seq and
 * creating its output tensor @name (non-NULL, unique) and temporaries
 * "@name/..." (those names must be free as well). Errors: -EINVAL (message
 * names the op, the tensor and the reason) for a NULL graph, a missing
 * name, an unknown op, a tensor that is not fully mapped, a bad dtype, bad
 * axes, shapes that do not broadcast; -EEXIST when @name is taken;
 * -ENOSPC when a tile runs out of memory; -ENOMEM. On an error the graph
 * may hold some of the op's objects already: drop it. (Tensors have no
 * empty dimensions in this builder, so no op sees an empty input.)
 */

/* comparisons: values of the engine's binary codelet ops (IPUE_BOP_EQ ...) */
enum ipu_compare_op {
	IPU_CMP_EQ = 7, IPU_CMP_NE, IPU_CMP_LT, IPU_CMP_LE, IPU_CMP_GT, IPU_CMP_GE,
};

/**
 * ipu_cast() - out = @in converted to @dtype (IPU_DTYPE_F32, F16 or I32),
 * of @in's shape and laid out like it (popops::cast). f32 -> f16 rounds to
 * nearest even (overflow to Inf); float -> i32 truncates toward zero,
 * saturates, NaN -> 0; i32 -> float rounds to nearest even; the same dtype
 * copies (docs/codelets.md, Cast). Returns the output's id.
 */
IPU_API int ipu_cast(struct ipu_graph *g, int seq, int in, unsigned dtype,
		     const char *name, struct ipu_error *err);
/**
 * ipu_reduce_axes() - out = reduce(@in) over dimensions @axes[0..@naxes)
 * (IPU_REDUCE_SUM, MAX, MIN; numpy's keepdims=False): the output has @in's
 * shape without those dimensions, rank 0 when all are reduced, @in itself
 * reduced over nothing (converted) when @naxes is 0. Axes may be negative
 * (-1: the last); out of range or repeated axes are refused. Output dtype:
 * @in's, f32 for f16 input; sums and NaN as ipu_reduce(). When the reduced
 * dimensions are the trailing ones (dimensions of 1 aside) the rows reduce
 * where they lie, as ipu_reduce_rows() (whose case this is); otherwise
 * each tile reduces what it holds into partials per output column, which
 * exchange "@name/gather" brings to the output's tiles for a second
 * reduction (docs/builder.md). Returns the output's id.
 */
IPU_API int ipu_reduce_axes(struct ipu_graph *g, int seq, unsigned op, int in,
			    const int *axes, unsigned naxes, const char *name,
			    struct ipu_error *err);
/**
 * ipu_compare() - out = (a op b) as i32 0/1 (IPU_CMP_*), of @a's shape and
 * laid out like @a; @b broadcast onto @a as in ipu_binary() (same dtype,
 * any of f32, f16, i32). IEEE: a NaN operand makes every comparison false
 * but NE, and -0 == +0. Returns the output's id.
 */
IPU_API int ipu_compare(struct ipu_graph *g, int seq, unsigned op, int a, int b,
			const char *name, struct ipu_error *err);
/**
 * ipu_select() - out = cond ? a : b elementwise (popops::select), of @a's
 * shape, dtype and layout. @cond: i32 (non-zero: take @a) of @a's shape
 * (an ipu_compare() result); @b of @a's dtype, broadcast onto @a as in
 * ipu_binary(). Values are copied bit for bit. Returns the output's id.
 */
IPU_API int ipu_select(struct ipu_graph *g, int seq, int cond, int a, int b,
		       const char *name, struct ipu_error *err);
/**
 * ipu_argmax() - out[r] = the index of the maximum of row r of @in (its
 * last dimension), i32 of @in's shape without that dimension; the first
 * index on ties, and the first NaN when a row holds one (numpy.argmax).
 * Rows lying whole in one tile's piece are searched in place, others are
 * gathered first ("@name/gather"). Returns the output's id.
 */
IPU_API int ipu_argmax(struct ipu_graph *g, int seq, int in, const char *name,
		       struct ipu_error *err);

/* --- popnn-level ops (nn.c) ---
 *
 * Like Poplar's popnn, composed from the partitioned operations above (row
 * reductions, broadcast binary ops, exp and log; the nonlinearities and
 * their gradients have codelets of their own), with their program nodes
 * appended to sequence @seq. Each call creates its output tensor @name
 * (unique; laid out like the input; non-NULL except where a NULL name
 * means in place) and temporaries named
 * "@name/..." (max, sum, exp, ...), so those names must be free as well.
 * Errors: -EINVAL (message names the op, the tensor and the reason) for a
 * NULL graph, a missing name, a tensor that is not f32 or not fully mapped,
 * a bad shape; -EEXIST when @name is taken; -ENOSPC when a tile runs out
 * of memory; -ENOMEM.
 */

/**
 * ipu_softmax() - out = exp(x - max) / sum(exp(x - max)) over the last
 * dimension of @in (f32, rank >= 1), each row shifted by its maximum so
 * that exp() cannot overflow (logits of 1e3 or more are fine). Returns the
 * output's id.
 */
IPU_API int ipu_softmax(struct ipu_graph *g, int seq, int in, const char *name,
			struct ipu_error *err);
/**
 * ipu_log_softmax() - out = (x - max) - log(sum(exp(x - max))) over the
 * last dimension of @in (f32, rank >= 1); stable as ipu_softmax(). Returns
 * the output's id.
 */
IPU_API int ipu_log_softmax(struct ipu_graph *g, int seq, int in,
			    const char *name, struct ipu_error *err);
/**
 * ipu_cross_entropy() - mean cross-entropy loss of a batch:
 * loss = -(1/N) sum_n sum_c targets[n][c] * log_softmax(logits)[n][c]
 * @logits:    f32 [N][C], unnormalised scores
 * @targets:   f32 [N][C]: one-hot rows (class labels) or class
 *             probabilities, each row summing to 1 (not checked)
 * @name:      the loss, a rank-0 f32 tensor created by the call
 * @grad_name: NULL: no gradient; else the name of the gradient
 *             d(loss)/d(logits) = (softmax(logits) - targets) / N, an f32
 *             [N][C] tensor laid out like @logits, whose id goes to *@grad
 *             (non-NULL then)
 * Returns the loss's id. Temporaries are named "@name/..." and
 * "@grad_name/...".
 */
IPU_API int ipu_cross_entropy(struct ipu_graph *g, int seq, int logits,
			      int targets, const char *name,
			      const char *grad_name, int *grad,
			      struct ipu_error *err);

/* nonlinearities (popnn::NonLinearityType; values of the engine's gradient codelets) */
enum ipu_nonlinearity {
	IPU_NL_RELU = 1,	/* max(x, 0) */
	IPU_NL_GELU,		/* tanh approximation, as IPU_OP_GELU */
	IPU_NL_SIGMOID,		/* 1 / (1 + exp(-x)) */
	IPU_NL_TANH,
};
/**
 * ipu_nonlinearity() - out = f(in) elementwise (popnn::nonLinearity), for
 * @in f32 or f16 of any shape (fully mapped); out is laid out like @in and
 * named @name, or @in itself when @name is NULL (in place, returns @in;
 * the only case where the name may be NULL). One compute set, appended to
 * @seq. Returns the output's id. Errors: -EINVAL naming the tensor and the
 * reason (NULL graph, unknown @type, no such tensor, i32, unmapped),
 * -EEXIST for a taken @name, -ENOSPC, -ENOMEM.
 */
IPU_API int ipu_nonlinearity(struct ipu_graph *g, int seq, unsigned type,
			     int in, const char *name, struct ipu_error *err);
/**
 * ipu_nonlinearity_grad() - the input gradient of a nonlinearity
 * (popnn::nonLinearityInputGradient): in_grad = f'(x) * out_grad.
 * @act:      for RELU, SIGMOID and TANH the forward OUTPUT y = f(x) (as in
 *            Poplar: f' is a function of it, y' = y (1 - y), 1 - y^2,
 *            y > 0); for GELU the forward INPUT x (its derivative is not a
 *            function of the output, which is not one-to-one)
 * @out_grad: d loss / d y, of @act's dtype (f32 or f16) and shape
 * @name:     the gradient, created laid out like @out_grad; NULL: written
 *            over @out_grad (in place, returns @out_grad)
 * Parts of @act that are not on @out_grad's tiles are copied there first.
 * Returns the gradient's id. Errors as ipu_nonlinearity(), plus -EINVAL
 * when @act and @out_grad differ in dtype or shape (both named).
 */
IPU_API int ipu_nonlinearity_grad(struct ipu_graph *g, int seq, unsigned type,
				  int act, int out_grad, const char *name,
				  struct ipu_error *err);

/* --- training: optimizers (optim.c) ---
 *
 * Weight updates on the device, like popops::scaledAddTo and the Poplar
 * MNIST demo's SGD. An optimizer named @name creates its state as tensors
 * "@name/..." laid out like the weights (zero at load, exposed for
 * read/write so that the host can checkpoint or reset them) and appends
 * to @seq one exchange (gradient pieces not on their weights' tiles,
 * per-tile copies of the learning rate or step factors) and one compute
 * set of fused vertices, one per tile-contiguous region of the weights
 * (codelets 0x0Axx, docs/codelets.md). Run the same program every step:
 * weights and state stay on the device between runs. Weights and
 * gradients are f32 (f16 weights are refused: keep an f32 master copy);
 * the gradient may have any layout. The graph owns everything created;
 * nothing is returned to free. Errors (nothing added to the graph when
 * the arguments are refused): -EINVAL naming the op, the tensor and the
 * reason (NULL graph, missing name, unmapped tensor, dtype, shape
 * mismatch, weights passed as their own gradient, hyper-parameter out of
 * range), -EEXIST when a "@name/..." tensor exists; errors while adding
 * (e.g. -ENOSPC: tile memory) may leave part of the update in the graph.
 */

/**
 * ipu_scaled_add() - @x += @scale * @y in place (popops::scaledAddTo), @x
 * and @y of one shape and dtype (f32 or f16, f16 computed in f32 and
 * rounded once), any layouts (parts of @y not on @x's tiles are copied
 * there); @y may be @x. @scale must be finite. Returns @x.
 */
IPU_API int ipu_scaled_add(struct ipu_graph *g, int seq, int x, int y, float scale,
			   struct ipu_error *err);
/**
 * ipu_sgd_momentum() - SGD with momentum, PyTorch's convention (dampening
 * 0, no Nesterov, no weight decay): v = momentum * v + grad; w -= lr * v.
 * (Poplar's and Sutskever's v = momentum * v - lr * grad agree with it when
 * lr is constant.) Creates "@name/velocity" (laid out like @w) and the
 * learning rate "@name/lr", an f32 scalar on @w's first tile holding @lr
 * at load: the host may write it between runs (a learning-rate schedule;
 * not validated on the device). @momentum is a build-time constant.
 * @lr finite and >= 0, @momentum in [0, 1). Each element is computed in
 * double and v, w rounded to f32 once. Returns the id of "@name/lr".
 */
IPU_API int ipu_sgd_momentum(struct ipu_graph *g, int seq, int w, int grad, float lr,
			     float momentum, const char *name, struct ipu_error *err);

/** Adam's hyper-parameters; IPU_ADAM_DEFAULTS are PyTorch's. */
struct ipu_adam_params {
	float lr;	/* finite, >= 0; initial value of "@name/lr" */
	float beta1;	/* [0, 1) */
	float beta2;	/* [0, 1) */
	float eps;	/* > 0, finite */
};
#define IPU_ADAM_DEFAULTS { .lr = 1e-3f, .beta1 = 0.9f, .beta2 = 0.999f, .eps = 1e-8f }

/**
 * ipu_adam() - Adam (Kingma & Ba, with bias correction), as PyTorch
 * computes it: t += 1; m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
 * w -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps). Creates
 * "@name/m", "@name/v" (f32, laid out like @w), the step counter
 * "@name/step" (i32 scalar, 0 at load; the host may read it, or write 0 to
 * restart the bias correction), "@name/lr" (f32 scalar, host-writable as
 * for SGD) and "@name/k" (internal). Each run, one vertex on @w's first
 * tile advances the step and computes the step factors from it, so the
 * same program serves every step. @p NULL: IPU_ADAM_DEFAULTS. Returns the
 * id of "@name/lr".
 */
IPU_API int ipu_adam(struct ipu_graph *g, int seq, int w, int grad,
		     const struct ipu_adam_params *p, const char *name,
		     struct ipu_error *err);

/* --- .npy files (npy.c): little-endian <f4, <f2, <i4, C order --- */

#define IPU_NPY_MAX_DIMS	8
struct ipu_npy {
	unsigned dtype;			/* IPU_DTYPE_* */
	unsigned ndim;
	uint64_t shape[IPU_NPY_MAX_DIMS];
	uint64_t count;			/* elements */
	size_t bytes;
	void *data;			/* malloc'ed; ipu_npy_free() */
};
/** "<f4", "<f2", "<i4" for IPU_DTYPE_*, NULL otherwise. */
IPU_API const char *ipu_npy_descr(int dtype);
/** Parse a whole .npy image; @what names it in messages (e.g. the path). */
IPU_API int ipu_npy_parse(const void *buf, size_t len, struct ipu_npy *out,
			  const char *what, struct ipu_error *err);
IPU_API int ipu_npy_read(const char *path, struct ipu_npy *out,
			 struct ipu_error *err);
IPU_API void ipu_npy_free(struct ipu_npy *a);
/** Encode to *@out (free()) of *@outlen bytes. */
IPU_API int ipu_npy_encode(int dtype, unsigned ndim, const uint64_t *shape,
			   const void *data, void **out, size_t *outlen,
			   struct ipu_error *err);
IPU_API int ipu_npy_write(const char *path, int dtype, unsigned ndim,
			  const uint64_t *shape, const void *data,
			  struct ipu_error *err);

/* --- Execution: load, tensors, run (device.c; ipu_model_open: model_device.c) --- */

/*
 * Flow: open a device (a card with ipu_device_open(), or the in-process
 * model with ipu_model_open()), ipu_load() a graph binary, write its
 * host-visible tensors, ipu_run() an entry program, read tensors back.
 * Messages name the tensor, program or stream and the reason. The calls
 * dispatch to the device's backend; a card reports -EOPNOTSUPP until its
 * command interface exists.
 */

/**
 * ipu_model_open() - an in-process model of an IPU that runs graph binaries
 * on the tile engine (no card needed)
 * @model:        "gc200", "gc2" or "test"
 * @host_threads: host threads a run uses; 0 = the online cores
 * Returns 0; -EINVAL for an unknown model; -ENOMEM.
 */
IPU_API int ipu_model_open(const char *model, unsigned host_threads,
			   struct ipu_device **out, struct ipu_error *err);

/** Load a graph binary (copied); replaces the loaded graph. */
IPU_API int ipu_load(struct ipu_device *dev, const void *buf, size_t len,
		     struct ipu_error *err);
IPU_API int ipu_load_file(struct ipu_device *dev, const char *path,
			  struct ipu_error *err);

/* a host-visible tensor of the loaded graph */
struct ipu_tensor_info {
	char name[128];
	unsigned index;		/* 0 .. ipu_tensor_count() - 1 */
	unsigned dtype;		/* IPU_DTYPE_* */
	unsigned rank;		/* 0 = one element */
	uint32_t shape[6];
	uint64_t elements;
	uint64_t bytes;
	unsigned access;	/* IPU_HANDLE_READ | IPU_HANDLE_WRITE */
	uint32_t reserved[7];
};
/** Number of host-visible tensors (>= 0) of the loaded graph. */
IPU_API int ipu_tensor_count(struct ipu_device *dev, struct ipu_error *err);
IPU_API int ipu_tensor_info(struct ipu_device *dev, unsigned index,
			    struct ipu_tensor_info *out, struct ipu_error *err);
/** Find by name; -ENOENT with "no tensor 'x' in the loaded graph". */
IPU_API int ipu_tensor_lookup(struct ipu_device *dev, const char *name,
			      struct ipu_tensor_info *out, struct ipu_error *err);
/**
 * ipu_tensor_write() / ipu_tensor_read() - all @bytes of tensor @name
 * (row-major, native element encoding); @bytes must equal its size.
 */
IPU_API int ipu_tensor_write(struct ipu_device *dev, const char *name,
			     const void *data, size_t bytes,
			     struct ipu_error *err);
IPU_API int ipu_tensor_read(struct ipu_device *dev, const char *name,
			    void *data, size_t bytes, struct ipu_error *err);

/** Entry programs of the loaded graph: count, name of K, K of a name. */
IPU_API int ipu_program_count(struct ipu_device *dev, struct ipu_error *err);
IPU_API int ipu_program_name(struct ipu_device *dev, unsigned k, char *buf,
			     size_t size, struct ipu_error *err);
IPU_API int ipu_program_find(struct ipu_device *dev, const char *name,
			     struct ipu_error *err);

/* host side of a stream; called on the thread that runs the program */
#define IPU_STREAM_NO_DATA	1
struct ipu_stream_callbacks {
	/* host->device: fill @dst (one transfer); 0, IPU_STREAM_NO_DATA, or < 0 */
	int (*fetch)(void *user, void *dst, size_t len);
	/* device->host: consume one transfer; 0 or < 0 (fails the run) */
	int (*push)(void *user, const void *src, size_t len);
	void *user;
};
/** Connect stream @name (@cb copied; NULL disconnects). */
IPU_API int ipu_stream_connect(struct ipu_device *dev, const char *name,
			       const struct ipu_stream_callbacks *cb,
			       struct ipu_error *err);

struct ipu_buffer;
/**
 * ipu_stream_bind() - bind stream @name of the loaded graph to a ring of
 * whole transfers: @bytes at @offset of @buf (ipu_buffer_alloc() or
 * ipu_buffer_pin() of this device). Transfer i of the runs that follow is
 * slot i mod N of the ring of N transfers, counted from the bind (binding
 * again starts over at slot 0); host-to-device streams read their slot,
 * device-to-host streams write it. @buf NULL and @bytes 0 unbind. Works the
 * same on a card (STREAM_BIND: the card moves the data, no callbacks) and
 * on the model device. The buffer must not be freed while bound; a new
 * ipu_load() or a reset unbinds every stream. -ENOENT no such stream (or
 * no graph), -EINVAL not whole transfers, -ERANGE beyond the buffer.
 */
IPU_API int ipu_stream_bind(struct ipu_device *dev, const char *name,
			    struct ipu_buffer *buf, size_t offset, size_t bytes,
			    struct ipu_error *err);

/* what a run cost: measured host time and the chip cycles the model gives */
struct ipu_run_stats {
	uint64_t host_ns;		/* wall time of the run */
	uint64_t cycles;		/* modelled: sum of the four below */
	uint64_t cycles_compute;
	uint64_t cycles_sync;
	uint64_t cycles_exchange;
	uint64_t cycles_stream;
	uint64_t steps;			/* program steps */
	uint64_t compute_sets;		/* compute phases run */
	uint64_t exchanges;		/* exchange phases run */
	uint64_t syncs;
	uint64_t exchange_bytes;
	uint64_t stream_bytes_h2d;
	uint64_t stream_bytes_d2h;
	uint32_t clock_khz;		/* to turn cycles into time */
	uint32_t reserved[15];
};

/**
 * ipu_run() - run entry program @program @count times (0 counts as 1) and
 * wait for it; @stats (optional) filled also when the run fails part-way.
 * Errors: -ENOENT no graph; -ERANGE bad program; -ECONNABORTED the graph's
 * AbortOnCondition fired (message has the code); -EPIPE a stream failed.
 */
IPU_API int ipu_run(struct ipu_device *dev, unsigned program, uint64_t count,
		    struct ipu_run_stats *stats, struct ipu_error *err);
/** Start a run without waiting; complete it with ipu_wait(). */
IPU_API int ipu_run_start(struct ipu_device *dev, unsigned program,
			  uint64_t count, struct ipu_error *err);
/** Wait (0 = no limit) for the started run; its result and stats. */
IPU_API int ipu_wait(struct ipu_device *dev, unsigned timeout_ms,
		     struct ipu_run_stats *stats, struct ipu_error *err);

/* --- Transfers: ranges, asynchronous requests, host buffers (device.c) ---
 *
 * A card attaches on the first load, transfer or buffer call (or at open
 * with IPU_OPEN_ATTACH) and keeps the attachment until ipu_device_close().
 * Transfers from memory inside a buffer of ipu_buffer_alloc() or
 * ipu_buffer_pin() go to the card without a copy and without pinning;
 * other memory is copied through a per-device bounce buffer when small and
 * pinned for the command when large (docs/card-exec.md). The model device
 * accepts the same calls (its buffers are plain memory, its requests
 * complete at once).
 */

/**
 * ipu_tensor_write_at() / ipu_tensor_read_at() - @len bytes at byte
 * @offset of tensor @name. -ENOENT no such tensor (or no graph), -EACCES
 * the host may not write / read it, -ERANGE @offset + @len beyond the
 * tensor ("tensor 'w': offset 4096 + 8192 bytes is beyond its 8192 bytes").
 */
IPU_API int ipu_tensor_write_at(struct ipu_device *dev, const char *name,
				uint64_t offset, const void *data, size_t len,
				struct ipu_error *err);
IPU_API int ipu_tensor_read_at(struct ipu_device *dev, const char *name,
			       uint64_t offset, void *data, size_t len,
			       struct ipu_error *err);
/**
 * ipu_tensor_write_async() / ipu_tensor_read_async() - start the transfer
 * and return; *@req identifies it for ipu_request_wait(). @data must stay
 * valid (and, for a read, untouched) until then. Requests and runs of one
 * device complete in the order they were started. Every request must be
 * waited for (a card holds at most 256 in flight: -EAGAIN beyond).
 */
IPU_API int ipu_tensor_write_async(struct ipu_device *dev, const char *name,
				   uint64_t offset, const void *data,
				   size_t len, uint64_t *req,
				   struct ipu_error *err);
IPU_API int ipu_tensor_read_async(struct ipu_device *dev, const char *name,
				  uint64_t offset, void *data, size_t len,
				  uint64_t *req, struct ipu_error *err);
/**
 * ipu_request_wait() - wait (@timeout_ms, 0 = no limit) for request @req
 * and return its result. -ETIMEDOUT: not complete yet (wait again);
 * -ENOENT: no such request (or already collected).
 */
IPU_API int ipu_request_wait(struct ipu_device *dev, uint64_t req,
			     unsigned timeout_ms, struct ipu_error *err);

/* Host memory the device reaches directly. */
struct ipu_buffer;
/**
 * ipu_buffer_alloc() - @size bytes (> 0, at most 1 GiB) of driver-allocated
 * memory mapped into the process (card: BUF_ALLOC + mmap; zeroed).
 */
IPU_API int ipu_buffer_alloc(struct ipu_device *dev, size_t size,
			     struct ipu_buffer **out, struct ipu_error *err);
/**
 * ipu_buffer_pin() - register [@ptr, @ptr + @size) of the caller's memory
 * (any alignment): the card pins it (BUF_PIN) until ipu_buffer_free().
 * Counts against RLIMIT_MEMLOCK (-ENOMEM beyond it).
 */
IPU_API int ipu_buffer_pin(struct ipu_device *dev, void *ptr, size_t size,
			   struct ipu_buffer **out, struct ipu_error *err);
IPU_API void *ipu_buffer_ptr(const struct ipu_buffer *buf);
IPU_API size_t ipu_buffer_size(const struct ipu_buffer *buf);
/**
 * ipu_buffer_free() - unmap / unpin and free @buf (NULL allowed). Buffers
 * still registered at ipu_device_close() are freed by it.
 */
IPU_API void ipu_buffer_free(struct ipu_buffer *buf);

#ifdef __cplusplus
}
#endif

#endif /* IPUDEV_H */
