/* SPDX-License-Identifier: MIT */
/*
 * libipudev internals of the card backend's execution path (card_exec.c,
 * card_buf.c, device.c): the graph table the library parses out of the
 * binary it loads, registered host buffers, the per-card state, and the
 * completion-status to message mapping. Never installed; hidden visibility.
 */
#ifndef IPUDEV_CARD_H
#define IPUDEV_CARD_H

#include <stdint.h>
#include <stddef.h>

#include "internal.h"

/* ------------------------------------------------------------------------ */
/* The host-visible part of a graph binary (card_exec.c)                    */

struct ipu__graph_handle {
	char *name;
	uint32_t tensor;		/* tensor record */
	unsigned dtype, rank, access;
	uint32_t shape[6];
	uint64_t elements, bytes;
};

struct ipu__graph_table {
	uint32_t model;			/* header model */
	unsigned nhandles;
	struct ipu__graph_handle *handles; /* index = the card's handle */
	unsigned nprograms;
	char **programs;		/* entry names, index = program K */
	unsigned nstreams;
	struct ipu__graph_stream {
		char *name;
		unsigned direction;	/* IPU_STREAM_* */
		uint64_t bytes;		/* per transfer */
	} *streams;			/* index = the card's stream */
};

/*
 * ipu__graph_table_parse() - the header model, the host handles (with their
 * tensors' dtype, shape and size) and the entry program names of a graph
 * binary. Checks every offset it follows (never reads outside @bin) but
 * validates nothing else: the card's loader is the judge of the graph.
 * Returns 0, -EINVAL with @why filled, or -ENOMEM.
 */
int ipu__graph_table_parse(const void *bin, size_t len,
			   struct ipu__graph_table *t, char *why, size_t whylen);
void ipu__graph_table_free(struct ipu__graph_table *t);


/* ------------------------------------------------------------------------ */
/* Completion status -> errno and message (card_exec.c)                     */

/* What a command was about, for messages. */
struct ipu__cmd_ctx {
	const char *dev;		/* "ipu0" */
	unsigned opcode;		/* IPU_CMD_* */
	const char *tensor;		/* WRITE/READ: handle name, or NULL */
	uint32_t handle;		/* WRITE/READ handle, RUN program */
	uint64_t offset, length;	/* WRITE/READ range; LOAD: binary bytes */
	uint64_t tensor_bytes;		/* WRITE/READ: the tensor's size */
	const char *program;		/* RUN: entry name, or NULL */
	const char *load_msg;		/* LOAD: the card's message, or NULL */
};

/*
 * ipu__card_status_err() - report a failed command: fills @err with a message
 * naming the tensor or program and the reason; returns the negative errno
 * (0 for IPU_STATUS_OK, @err untouched).
 */
int ipu__card_status_err(struct ipu_error *err, const struct ipu__cmd_ctx *x,
			 uint32_t status, uint32_t detail, uint32_t detail2);

/* "OUT_OF_RANGE" etc. for a status code; "unknown" otherwise. */
const char *ipu__card_status_name(uint32_t status);

/* ------------------------------------------------------------------------ */
/* Host buffers (card_buf.c)                                                */

enum ipu__buf_kind {
	IPU__BUF_DRIVER = 1,	/* card: BUF_ALLOC + mmap */
	IPU__BUF_PINNED = 2,	/* card: BUF_PIN of user memory */
	IPU__BUF_HOST = 3,	/* other backends: anonymous memory */
	IPU__BUF_HOST_USER = 4,	/* other backends: the caller's memory */
};

struct ipu_buffer {
	struct ipu_device *dev;
	struct ipu_buffer *next;	/* the card's list */
	void *ptr;
	size_t size;
	size_t map_size;		/* bytes mmap()ed (DRIVER, HOST) */
	int kind;			/* enum ipu__buf_kind */
	uint32_t handle;		/* the driver's buffer */
};

/* ------------------------------------------------------------------------ */
/* The card (device.c opens it; card_exec.c / card_buf.c run on it)         */

enum ipu__xfer_mode {
	IPU__XFER_AUTO = 0,	/* registered buffer, else bounce if small, else direct */
	IPU__XFER_BOUNCE,	/* always through the bounce buffer (sync) */
	IPU__XFER_DIRECT,	/* always the user pages (pinned per command) */
};

/* Per-device bounce buffer (BUF_ALLOC), two halves used in turn. */
#define IPU__BOUNCE_SIZE	(8u << 20)
/* AUTO: copies up to this size go through the bounce buffer (measured
 * crossover with per-command pinning, docs/card-exec.md). */
#define IPU__BOUNCE_MAX		(64u << 10)

struct ipu__card {
	int fd;
	char devnode[IPU_CARD_STR_MAX];
	int attached;
	uint32_t queue;
	uint32_t model, clock_khz;	/* GET_INFO at attach */
	int loaded;			/* a graph is loaded: @g is valid */
	struct ipu__graph_table g;
	int run_started;
	int run_done;			/* finished by a sync SUBMIT: @run_result */
	uint64_t run_seq;
	uint32_t run_program;
	struct ipu_run_stats stats;
	struct {			/* valid while @run_done */
		uint32_t status, detail, detail2;
		uint64_t host_ns, cycles;
	} run_result;
	struct ipu_buffer *bufs;	/* registered buffers */
	struct ipu_buffer *bounce;	/* lazily allocated, not in @bufs */
	int xfer_mode;			/* enum ipu__xfer_mode (IPUDEV_XFER) */
};

/* card_exec.c: the execution ops of ipu__card_ops */
int ipu__card_attach(struct ipu_device *dev, unsigned nonblock,
		     struct ipu_error *err);
void ipu__card_exec_close(struct ipu_device *dev);
void ipu__card_after_reset(struct ipu_device *dev);
int ipu__card_load(struct ipu_device *dev, const void *image, size_t size,
		   struct ipu_error *err);
int ipu__card_tensor_write(struct ipu_device *dev, uint32_t tensor,
			   uint64_t offset, const void *src, size_t len,
			   struct ipu_error *err);
int ipu__card_tensor_read(struct ipu_device *dev, uint32_t tensor,
			  uint64_t offset, void *dst, size_t len,
			  struct ipu_error *err);
int ipu__card_tensor_write_async(struct ipu_device *dev, uint32_t tensor,
				 uint64_t offset, const void *src, size_t len,
				 uint64_t *req, struct ipu_error *err);
int ipu__card_tensor_read_async(struct ipu_device *dev, uint32_t tensor,
				uint64_t offset, void *dst, size_t len,
				uint64_t *req, struct ipu_error *err);
int ipu__card_request_wait(struct ipu_device *dev, uint64_t req,
			   unsigned timeout_ms, struct ipu_error *err);
int ipu__card_run(struct ipu_device *dev, uint32_t program, uint32_t count,
		  int finish, struct ipu_error *err);
int ipu__card_wait(struct ipu_device *dev, unsigned timeout_ms,
		   struct ipu_error *err);
int ipu__card_stream_bind(struct ipu_device *dev, const char *name,
			  struct ipu_buffer *buf, size_t offset, size_t bytes,
			  struct ipu_error *err);
int ipu__card_tensor_count(struct ipu_device *dev, struct ipu_error *err);
int ipu__card_tensor_info(struct ipu_device *dev, unsigned index,
			  struct ipu_tensor_info *out, struct ipu_error *err);
int ipu__card_program_count(struct ipu_device *dev, struct ipu_error *err);
int ipu__card_program_name(struct ipu_device *dev, unsigned k, char *buf,
			   size_t size, struct ipu_error *err);
void ipu__card_run_stats(struct ipu_device *dev, struct ipu_run_stats *out);

/* card_buf.c: the card's buffer ops */
int ipu__card_buffer_alloc(struct ipu_device *dev, struct ipu_buffer *b,
			   struct ipu_error *err);
int ipu__card_buffer_pin(struct ipu_device *dev, struct ipu_buffer *b,
			 struct ipu_error *err);
void ipu__card_buffer_free(struct ipu_device *dev, struct ipu_buffer *b);
/* The registered buffer holding [p, p + len), or NULL. */
struct ipu_buffer *ipu__card_buffer_find(struct ipu__card *c, const void *p,
					 size_t len);

#endif /* IPUDEV_CARD_H */
