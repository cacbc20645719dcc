/* SPDX-License-Identifier: MIT */
/*
 * libipudev internals, shared by the library's sources only (never
 * installed). Everything here has hidden visibility: the build compiles with
 * -fvisibility=hidden and exports only IPU_API functions listed in
 * libipudev.map. Internal functions are named ipu__*.
 */
#ifndef IPUDEV_INTERNAL_H
#define IPUDEV_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipudev.h"

#define IPU__ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define IPU__PRINTF(f, a)	__attribute__((format(printf, f, a)))
#else
#define IPU__PRINTF(f, a)
#endif

/* ------------------------------------------------------------------------ */
/* Errors (error.c)                                                         */

/*
 * ipu__err() - fill @err (when not NULL) with @code and the formatted
 * message; returns @code so that callers can `return ipu__err(...)`.
 * @code must be a negative errno.
 */
int ipu__err(struct ipu_error *err, int code, const char *fmt, ...)
	IPU__PRINTF(3, 4);
int ipu__verr(struct ipu_error *err, int code, const char *fmt, va_list ap)
	IPU__PRINTF(3, 0);

/*
 * ipu__err_sys() - like ipu__err() and appends ": <strerror(code)>", e.g.
 * ipu__err_sys(err, -errno, "open %s", path) -> "open /dev/ipu2: Permission
 * denied".
 */
int ipu__err_sys(struct ipu_error *err, int code, const char *fmt, ...)
	IPU__PRINTF(3, 4);

/*
 * ipu__engine_errno() - the negative errno of an engine status (IPUE_*,
 * qemu-device/engine/ipu_engine.h): the one mapping of both backends, for
 * the model device's engine and for the card's RUN_FAILED detail and the
 * card statuses that stand for an engine status. 0 for IPUE_OK; -EIO for a
 * status it does not know. The message that goes with it is the engine's
 * ipue_strerror(). Table: docs/libipudev.md ("Engine status -> errno").
 */
int ipu__engine_errno(int status);

/*
 * ipu__unwritten_err() - the report of a run refused because program @what
 * ("program 0 ('main') on ipu0") reads tensor @tensor that nothing wrote
 * (IPUE_EUNWRITTEN; the card's UNWRITTEN_INPUT): -ENODATA, one wording for
 * both backends (error.c).
 */
int ipu__unwritten_err(struct ipu_error *err, const char *what, const char *tensor);

/*
 * ipu__word_index() - index of @name among @words[0..@count) (trailing
 * white space of @name ignored: sysfs values end in a newline); -1 for
 * NULL or no match.
 */
int ipu__word_index(const char *const *words, size_t count, const char *name);

/* Copy at most @size - 1 bytes of @src into @dst, always NUL-terminate. */
void ipu__strlcpy(char *dst, const char *src, size_t size);

/* ------------------------------------------------------------------------ */
/* Device handle and backends (front end: device.c)                         */

/*
 * struct ipu_backend_ops - what a device does, per backend
 *
 * The card backend (card*.c) talks to /dev/ipuN; the model backend
 * (model_device.c) runs the engine in-process. Every slot returns 0 or a
 * negative errno and reports through @err (which may be NULL). The public
 * wrappers validate generic arguments (NULL pointers, flags, limits) before
 * calling a slot, so slots may assume @dev and non-optional pointers are
 * valid. A NULL slot means "not supported" (-EOPNOTSUPP).
 *
 * New slots are added at the end.
 */
struct ipu_backend_ops {
	const char *name;	/* "card", "model" */

	/* Free backend-private data; @dev itself is freed by the caller. */
	void (*close)(struct ipu_device *dev);

	/* Fill @out (already zeroed, id and backend set). */
	int (*info)(struct ipu_device *dev, struct ipu_device_info *out,
		    struct ipu_error *err);

	/* Soft reset. @out is never NULL (the wrapper passes a local). */
	int (*reset)(struct ipu_device *dev, unsigned timeout_ms,
		     unsigned flags, struct ipu_reset_result *out,
		     struct ipu_error *err);

	/* Load a graph binary (docs/graph-format.md) of @size bytes. */
	int (*load)(struct ipu_device *dev, const void *image, size_t size,
		    unsigned flags, struct ipu_load_info *info,
		    struct ipu_error *err);

	/* Host <-> device tensor data, @len bytes from byte @offset. */
	int (*tensor_write)(struct ipu_device *dev, uint32_t tensor,
			    uint64_t offset, const void *src, size_t len,
			    struct ipu_error *err);
	int (*tensor_read)(struct ipu_device *dev, uint32_t tensor,
			   uint64_t offset, void *dst, size_t len,
			   struct ipu_error *err);

	/*
	 * Start program @program, @count times; ipu_wait() collects it. With
	 * @finish the caller waits next anyway: the backend may complete the
	 * run before returning (one round trip instead of two), and wait then
	 * only reports the outcome.
	 */
	int (*run)(struct ipu_device *dev, uint32_t program, uint32_t count,
		   int finish, struct ipu_error *err);
	int (*wait)(struct ipu_device *dev, unsigned timeout_ms,
		    struct ipu_error *err);

	/* --- slots added by the execution backends go below --- */

	/* Host-visible tensors (handles) of the loaded graph: count, and the
	 * one at @index (its index is what tensor_write/read take). */
	int (*tensor_count)(struct ipu_device *dev, struct ipu_error *err);
	int (*tensor_info)(struct ipu_device *dev, unsigned index,
			   struct ipu_tensor_info *out, struct ipu_error *err);

	/* Entry programs of the loaded graph. */
	int (*program_count)(struct ipu_device *dev, struct ipu_error *err);
	int (*program_name)(struct ipu_device *dev, unsigned k, char *buf,
			    size_t size, struct ipu_error *err);

	/* Connect (or, @cb NULL, disconnect) the host side of a stream. */
	int (*stream_connect)(struct ipu_device *dev, const char *name,
			      const struct ipu_stream_callbacks *cb,
			      struct ipu_error *err);

	/* Bind stream @name to a ring of whole transfers in @buf at
	 * @offset (@bytes); @buf NULL and @bytes 0 unbind. */
	int (*stream_bind)(struct ipu_device *dev, const char *name,
			   struct ipu_buffer *buf, size_t offset, size_t bytes,
			   struct ipu_error *err);

	/* Stats of the last completed run (zeroed if none). */
	void (*run_stats)(struct ipu_device *dev, struct ipu_run_stats *out);

	/* --- asynchronous transfers and host buffers (card_xfer.c,
	 * card_buf.c); NULL: the wrappers in device.c fall back to the
	 * synchronous slots and to plain host memory --- */

	/* Start a transfer; *@req (never 0) is collected by request_wait. */
	int (*tensor_write_async)(struct ipu_device *dev, uint32_t tensor,
				  uint64_t offset, const void *src, size_t len,
				  uint64_t *req, struct ipu_error *err);
	int (*tensor_read_async)(struct ipu_device *dev, uint32_t tensor,
				 uint64_t offset, void *dst, size_t len,
				 uint64_t *req, struct ipu_error *err);
	int (*request_wait)(struct ipu_device *dev, uint64_t req,
			    unsigned timeout_ms, struct ipu_error *err);

	/* Host memory the device reaches without copies: @b->size set; fill
	 * @b->ptr (alloc) / use it (pin), @b->handle, @b->map_size. */
	int (*buffer_alloc)(struct ipu_device *dev, struct ipu_buffer *b,
			    struct ipu_error *err);
	int (*buffer_pin)(struct ipu_device *dev, struct ipu_buffer *b,
			  struct ipu_error *err);
	void (*buffer_free)(struct ipu_device *dev, struct ipu_buffer *b);
};

/*
 * struct ipu_device - an open device (opaque in ipudev.h)
 * @ops:   the backend
 * @priv:  backend-private data, owned by the backend (freed by ops->close)
 * @id:    N of ipuN, or the id the model backend gives itself
 * @flags: IPU_OPEN_* the device was opened with
 * @name:  for messages: "ipu2", "model0"...
 */
struct ipu_device {
	const struct ipu_backend_ops *ops;
	void *priv;
	unsigned id;
	unsigned flags;
	char name[32];
};

/*
 * ipu__device_new() - allocate a device for a backend. Takes no ownership
 * of @priv until it returns 0 (then ipu_device_close() calls ops->close).
 * Returns 0 or -ENOMEM.
 */
int ipu__device_new(const struct ipu_backend_ops *ops, void *priv,
		    unsigned id, unsigned flags, const char *name,
		    struct ipu_device **out, struct ipu_error *err);

/*
 * ipu__model_open() - ipu_model_open() with @flags: IPU__MODEL_MEMCHECK
 * runs the engine's memory-plan checker (IPUE_CONFIG_MEMCHECK: a load whose
 * plan lets two live regions overlap fails with -EINVAL, a run that
 * touches memory outside the regions live at its step with -EFAULT; the
 * messages name tile, regions and steps). For tests; not public ABI.
 * Errors: those of ipu_model_open(), -EINVAL for unknown flags.
 */
#define IPU__MODEL_MEMCHECK	1u
int ipu__model_open(const char *model, unsigned host_threads, unsigned flags,
		    struct ipu_device **out, struct ipu_error *err);
/* ipu_model_open_multi() with @flags as ipu__model_open()'s */
int ipu__model_open_multi(const char *model, unsigned ipus, const char *topology,
			  unsigned host_threads, unsigned flags, struct ipu_device **out,
			  struct ipu_error *err);
/*
 * ipu__model_set_link() - take the IPU-Link at IPU @ipu (0-based in the
 * model device) port @port down (@up 0) or up (1), both ends, as QMP does
 * to a card's: a run in progress ends with -ENOLINK, later runs that need
 * it fail before they start. For tests; not public ABI. Errors: -EINVAL
 * (not a model device of several IPUs, or the port is not wired), -ERANGE.
 */
int ipu__model_set_link(struct ipu_device *dev, unsigned ipu, unsigned port, int up,
			struct ipu_error *err);

/*
 * ipu__model_fabric() - what ipu_model_topology() reads of model device
 * @dev: its fabric (*@fab; NULL for a model of one IPU, borrowed: valid
 * while @dev is open), its IPUs and each IPU's link ports. -EINVAL when
 * @dev is not a model device.
 */
struct ipue_fabric_local;
int ipu__model_fabric(struct ipu_device *dev, const struct ipue_fabric_local **fab,
		      unsigned *ipus, unsigned *ports, struct ipu_error *err);

/* The card backend (card.c; its ops in card_*.c). */
extern const struct ipu_backend_ops ipu__card_ops;

/* The message of the card backend's execution stubs (-EOPNOTSUPP). */
#define IPU__CARD_EXEC_MSG \
	"card execution needs the command-queue interface (not yet in this driver)"

/*
 * struct ipu_buffer - host memory of a device (opaque in ipudev.h). Made
 * by the front end (device.c), filled by the backend's buffer_alloc or
 * buffer_pin slot, or by the front end for backends without them.
 * @dev:      the device
 * @next:     the card's list (card_buf.c)
 * @ptr:      the memory
 * @size:     bytes asked for
 * @map_size: bytes mmap()ed (DRIVER, HOST)
 * @kind:     enum ipu__buf_kind
 * @handle:   the driver's buffer
 */
enum ipu__buf_kind {
	IPU__BUF_DRIVER = 1,	/* card: BUF_ALLOC + mmap */
	IPU__BUF_PINNED = 2,	/* card: BUF_PIN of user memory */
	IPU__BUF_HOST = 3,	/* other backends: anonymous memory */
	IPU__BUF_HOST_USER = 4,	/* other backends: the caller's memory */
};

struct ipu_buffer {
	struct ipu_device *dev;
	struct ipu_buffer *next;
	void *ptr;
	size_t size;
	size_t map_size;
	int kind;
	uint32_t handle;
};

/*
 * ipu__no_slot() - the report for a NULL ops slot: -EOPNOTSUPP with
 * "<what> on <dev name>: not supported by the <backend> backend".
 */
int ipu__no_slot(struct ipu_device *dev, const char *what,
		 struct ipu_error *err);

/*
 * ipu__err_index() - the report of a backend for index @k of the loaded
 * graph's @n @things: -ERANGE with "<what> <k> on <dev name>: out of range
 * (the graph has <n> <things>)".
 */
int ipu__err_index(struct ipu_error *err, const struct ipu_device *dev,
		   const char *what, unsigned k, unsigned n,
		   const char *things);

/* ------------------------------------------------------------------------ */
/* Whole files (file.c)                                                     */

/* The step of a file call that failed, for the caller's message. */
enum ipu__file_step {
	IPU__FILE_OPEN = 1,	/* fopen(): the errno returned */
	IPU__FILE_MEMORY,	/* -ENOMEM growing the buffer */
	IPU__FILE_IO,		/* -EIO: a read or write error */
	IPU__FILE_CLOSE,	/* fclose() after writing: the errno returned */
};

/*
 * ipu__file_read() - the whole of @path into *@buf (malloc'ed, owned by the
 * caller; *@len bytes). Returns 0, or a negative errno with *@step set
 * (*@buf NULL). Reports nothing.
 */
int ipu__file_read(const char *path, void **buf, size_t *len, int *step);

/*
 * ipu__file_write() - create or truncate @path and write @len bytes of
 * @buf. Returns 0, or a negative errno with *@step set. Reports nothing.
 */
int ipu__file_write(const char *path, const void *buf, size_t len, int *step);

/* ------------------------------------------------------------------------ */
/* udev helpers (enumerate.c)                                               */

/*
 * ipu__find_devnode() - device node of ipu@id as udev reports it (the
 * uevent DEVNAME; works without udevd). Returns 0, -ENODEV (no such card or
 * no driver, with a message), -ENOMEM.
 */
int ipu__find_devnode(unsigned id, char *devnode, size_t size,
		      struct ipu_error *err);

/* Is the driver present (the "ipu" class exists in sysfs)? */
bool ipu__driver_present(void);

/* Message for "nothing found", telling whether the driver is loaded. */
int ipu__err_no_cards(struct ipu_error *err);

/* ------------------------------------------------------------------------ */
/* PCI information via libpci (pci_info.c)                                  */

struct ipu__pci_link {
	char speed[16];		/* "16.0 GT/s", "" unknown */
	unsigned width;		/* 0 unknown */
	char speed_max[16];
	unsigned width_max;
	int numa_node;		/* -1 unknown */
};

struct ipu__pci;	/* a libpci access context */

/* Open a libpci context (NULL when libpci cannot be initialised). */
struct ipu__pci *ipu__pci_open(void);
void ipu__pci_close(struct ipu__pci *pci);

/*
 * ipu__pci_query() - link status and NUMA node of @address ("DDDD:BB:DD.F").
 * @sysfs_dir: the device's sysfs directory for the fallback when the PCIe
 *             capability cannot be read (non-root users see only the first
 *             64 bytes of config space); may be NULL.
 * Best-effort: unknown fields are left as documented in struct
 * ipu__pci_link. Returns 0, or -EINVAL for a malformed address.
 */
int ipu__pci_query(struct ipu__pci *pci, const char *address,
		   const char *sysfs_dir, struct ipu__pci_link *out);

/* "16.0 GT/s" for a PCIe Link Speed field value (1..6); NULL otherwise. */
const char *ipu__pcie_speed_name(unsigned code);

#endif /* IPUDEV_INTERNAL_H */
