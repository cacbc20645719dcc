/* SPDX-License-Identifier: MIT */
/*
 * libipudev internals of the card backend (card.c, card_cmd.c,
 * card_status.c, card_load.c, card_graph.c, card_xfer.c, card_run.c,
 * card_buf.c, card_uqueue.c): the check before a LOAD and the graph table
 * the library reads out of the binary it loads, the completion-status to
 * message mapping, the user queue, the per-card state, and the functions
 * the card's files share. Never installed; hidden visibility.
 */
#ifndef IPUDEV_CARD_H
#define IPUDEV_CARD_H

#include <stdint.h>
#include <stddef.h>

#include <linux/ipu.h>		/* struct ipu_run_counters */

#include "internal.h"
#include "graph_container.h"	/* the engine's container reader */

/* ------------------------------------------------------------------------ */
/* The graph binary before and after a LOAD (card_graph.c)                 */

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
		int ipu;		/* the IPU holding its StreamCopy's tensor
					 * (0 in a single-IPU binary), -1: no
					 * StreamCopy uses it */
	} *streams;			/* index = the card's stream */
};

/*
 * ipu__graph_precheck() - what the library checks before a LOAD: the
 * container of @bin (ipue_container_read(), the reader the card's loader
 * runs first) and, when @model is not 0, the header's model. On success
 * fills @c (pointing into @bin) and returns 0. Otherwise returns -EINVAL
 * with @le filled as the engine fills it: status IPUE_EFORMAT (section,
 * record, message) or IPUE_EMODEL for another model.
 */
int ipu__graph_precheck(const void *bin, size_t len, uint32_t model,
			struct ipue_container *c, struct ipue_load_error *le);
/*
 * ipu__graph_table_read() - the header model, the host handles (with their
 * tensors' dtype, shape and size), the entry program names and the streams
 * of a graph whose container @c was read. Checks every index it follows
 * (never reads outside the binary) but validates nothing else: the card's
 * loader is the judge of the records. @t owns its strings and arrays
 * (ipu__graph_table_free()); on failure @t is empty.
 * Returns 0, -EINVAL with @why filled, or -ENOMEM.
 */
int ipu__graph_table_read(const struct ipue_container *c,
			  struct ipu__graph_table *t, char *why, size_t whylen);
/* ipu__graph_precheck() (any model) then ipu__graph_table_read(). */
int ipu__graph_table_parse(const void *bin, size_t len,
			   struct ipu__graph_table *t, char *why, size_t whylen);
void ipu__graph_table_free(struct ipu__graph_table *t);


/* ------------------------------------------------------------------------ */
/* Completion status -> errno and message (card_status.c)                   */

/* What a command was about, for messages. */
struct ipu__cmd_ctx {
	const char *dev;		/* "ipu0" */
	unsigned opcode;		/* IPU_CMD_* */
	const char *tensor;		/* WRITE/READ: handle name (RUN: the one
					 * UNWRITTEN_INPUT names), or NULL */
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
 * A status that stands for an engine status (RUN_FAILED's detail,
 * PROGRAM_ABORT, NO_GRAPH, ...) has that status's errno, ipu__engine_errno(),
 * as on the model device; docs/card-exec.md lists them all.
 */
int ipu__card_status_err(struct ipu_error *err, const struct ipu__cmd_ctx *x,
			 uint32_t status, uint32_t detail, uint32_t detail2);

/* "OUT_OF_RANGE" etc. for a status code; "unknown" otherwise. */
const char *ipu__card_status_name(uint32_t status);

/* ------------------------------------------------------------------------ */
/* The user queue (card_uqueue.c; uAPI 1.2, docs/uapi.md "User queue")      */

struct ipu_sqe;
struct ipu_cqe;
struct ipu_run_record;

enum ipu__uq_state {
	IPU__UQ_UNTRIED = 0,	/* created lazily by the first run */
	IPU__UQ_READY,		/* running: rings and doorbell page mapped */
	IPU__UQ_GONE,		/* stopped by a card reset: UQUEUE again (the
				 * rings stay mapped, the doorbell page not) */
	IPU__UQ_OFF,		/* not used: runs go through SUBMIT (@why) */
};

/*
 * Spin on the completion ring this long before sleeping in poll(). Longer
 * than the card's worker takes to wake up once it stopped watching for
 * doorbells (its poll-us, 100 us, ran out): with a shorter spin, one slow
 * round trip makes the next one slow too (the process sleeps, the worker
 * sleeps), and runs in a loop stay at ~170 us each instead of ~2 us.
 */
#define IPU__UQ_SPIN_US		200
/* A sleep in poll() lasts at most this long, then the ring is looked at
 * again (a lost wake-up costs this much, never a hang). */
#define IPU__UQ_POLL_SLICE_MS	250

/*
 * struct ipu__uqueue - the context's user queue, as the process drives it
 * @state:   enum ipu__uq_state
 * @entries: entries per ring (a power of two, 2-4096)
 * @queue:   the card's queue number (for messages)
 * @sq:      the submission ring (mapped read/write)
 * @cq:      the completion ring (mapped read-only; never written)
 * @db:      the doorbell page: SQ tail at word 0, CQ head at word 1
 * @rec:     the run record ring (hw 1.2, mapped read-only; entry i is the
 *           record of the RUN completed at CQ index i), or NULL when the
 *           driver offers none (rec_offset 0) or its mmap failed: runs then
 *           report no per-phase counters (zeros)
 * @sq_len, @cq_len, @rec_len: bytes mapped; @sq_off, @cq_off, @rec_off:
 *           their mmap offsets
 * @rec_errno: the errno of the record ring's failed mmap, else 0 (for
 *           debugging only)
 * @sq_tail, @cq_head, @phase: the process's side of the rings (phase of the
 *           next new completion: starts at 1, flips at each wrap)
 * @cid:     command id of the next entry (never reset, so that a stale
 *           completion is unlikely to carry the expected id)
 * @pending: entries posted whose completion was not consumed
 * @slice_ms: longest sleep in poll() (IPU__UQ_POLL_SLICE_MS; tests shorten
 *           it, their fd never wakes)
 * @why:     when @state is OFF (or the last creation failed), why; for
 *           debugging only
 */
struct ipu__uqueue {
	int state;
	uint32_t entries;
	uint32_t queue;
	struct ipu_sqe *sq;
	const struct ipu_cqe *cq;
	volatile uint32_t *db;
	const struct ipu_run_record *rec;
	size_t sq_len, cq_len, rec_len;
	uint64_t sq_off, cq_off, rec_off;
	int rec_errno;
	uint32_t sq_tail, cq_head;
	unsigned phase;
	uint16_t cid;
	unsigned pending;
	unsigned slice_ms;
	char why[160];
};

/*
 * ipu__uq_open() - create (or after a reset re-create) the user queue of
 * the attached context on @fd: UQUEUE, then mmap of both rings (kept when
 * already mapped at the same offsets), of the doorbell page and of the run
 * record ring when the driver has one (kept likewise; a record ring that
 * cannot be mapped is not an error: @q->rec stays NULL, @q->rec_errno
 * says why). On success @q is READY with empty rings. Returns 0 or a negative errno (-ENOTTY: a
 * driver before uAPI 1.2, -EOPNOTSUPP: a card without user queues, -EBUSY:
 * no free queue, -EEXIST, -EIO: the card is not ready, -EPROTO: an
 * answer the library cannot use, or mmap's errno) with @q->why filled, the
 * doorbell page not mapped and @q->state unchanged (the rings may stay
 * mapped until ipu__uq_close()).
 */
int ipu__uq_open(struct ipu__uqueue *q, int fd);

/* The queue was stopped (card reset, or POLLERR): unmap the doorbell page,
 * forget what was posted; @q is GONE (rings stay mapped) unless OFF. */
void ipu__uq_lost(struct ipu__uqueue *q);

/* Unmap everything; @q is OFF with @why (e.g. "closed"). */
void ipu__uq_close(struct ipu__uqueue *q, const char *why);

/*
 * ipu__uq_set_rings() - use @sq, @cq (@entries each), the doorbell page @db
 * and the run record ring @rec (@entries records, or NULL: none), all
 * empty: tail = head = 0, phase 1, nothing pending, the default poll()
 * slice. Takes no ownership (ipu__uq_open() maps them; tests give plain
 * memory).
 */
void ipu__uq_set_rings(struct ipu__uqueue *q, void *sq, const void *cq,
		       void *db, const void *rec, uint32_t entries);

/*
 * ipu__uq_post() - write @e into the next SQ slot with the next command id,
 * then ring the SQ tail doorbell (release ordering: the card sees the whole
 * entry). Returns the command id, or -EAGAIN when the rings are full
 * (@entries - 1 pending).
 */
int ipu__uq_post(struct ipu__uqueue *q, const struct ipu_sqe *e);

/*
 * ipu__uq_reap() - consume the next completion if the card has posted it
 * (phase bit; acquire ordering), copying it to @out and, when @rec is not
 * NULL, the run record at its CQ index to @rec (zeros when @q has no
 * record ring; a record is only meaningful for a RUN's completion), then
 * write the CQ head doorbell (after the copies: from then on the card may
 * reuse the slot). Returns 1, or 0 when there is none yet (@out and @rec
 * untouched).
 */
int ipu__uq_reap(struct ipu__uqueue *q, struct ipu_cqe *out,
		 struct ipu_run_record *rec);

/*
 * ipu__uq_wait() - the next completion into @out (and its run record into
 * @rec, optional, as ipu__uq_reap()): spins on the ring for up to @spin_us
 * (with a pause instruction), then sleeps in poll(@fd, POLLPRI).
 * @timeout_ms: 0 waits for ever (signals are then ignored).
 * Returns 0, -ETIMEDOUT, -EINTR (a signal, only with a timeout), -ENODEV
 * (POLLERR/POLLHUP: the queue is gone), -EBADF (POLLNVAL).
 */
int ipu__uq_wait(struct ipu__uqueue *q, int fd, unsigned spin_us,
		 unsigned timeout_ms, struct ipu_cqe *out,
		 struct ipu_run_record *rec);

/* ------------------------------------------------------------------------ */
/* The card (card.c opens it; the other card_*.c run on it)                 */

enum ipu__xfer_mode {
	IPU__XFER_AUTO = 0,	/* registered buffer, else bounce if small, else direct */
	IPU__XFER_BOUNCE,	/* always through the bounce buffer (sync) */
	IPU__XFER_DIRECT,	/* always the user pages (pinned per command) */
};

/* Where runs go (IPUDEV_RUNQ, read at open). */
enum ipu__runq_mode {
	IPU__RUNQ_AUTO = 0,	/* the user queue when the driver has one */
	IPU__RUNQ_KERNEL,	/* always SUBMIT ("kernel") */
};

/* Per-device bounce buffer (BUF_ALLOC), two halves used in turn. */
#define IPU__BOUNCE_SIZE	(8u << 20)
/* AUTO: copies up to this size go through the bounce buffer (measured
 * crossover with per-command pinning, docs/card-exec.md). */
#define IPU__BOUNCE_MAX		(64u << 10)
/*
 * The driver's granule of device-writable mappings (one per cache line,
 * docs/uapi.md "Buffers"): a READ into user memory covers whole lines.
 */
#define IPU__CACHE_LINE		64u

struct ipu__card {
	int fd;
	char devnode[IPU_CARD_STR_MAX];
	int attached;
	uint32_t queue;
	uint32_t model, clock_khz;	/* GET_INFO at attach */
	int loaded;			/* a graph is loaded: @g is valid */
	struct ipu__graph_table g;
	int run_started;
	int run_done;			/* finished (sync SUBMIT, or its completion
					 * consumed from the user queue): @run_result */
	int run_uq;			/* the run went to the user queue */
	uint64_t run_seq;		/* SUBMIT: the run's seq */
	uint16_t run_cid;		/* user queue: the run's command id */
	uint32_t run_program;
	/*
	 * The run's outcome: valid while @run_done, and after ipu_wait()
	 * for ipu__card_run_stats() until the next run (@have_result).
	 * status is IPU_STATUS_* or IPU__STATUS_*; run is what the run did
	 * (the card's run record: cmd.run, wt.run or the user queue's record
	 * ring), zeros when the driver or card has no records.
	 */
	struct ipu_wait run_result;
	int have_result;
	struct ipu_buffer *bufs;	/* registered buffers */
	struct ipu_buffer *bounce;	/* lazily allocated, not in @bufs */
	uint64_t bounce_gen;		/* the card's reset generation then */
	int xfer_mode;			/* enum ipu__xfer_mode (IPUDEV_XFER) */
	int runq_mode;			/* enum ipu__runq_mode (IPUDEV_RUNQ) */
	struct ipu__uqueue uq;
	unsigned async_inflight;	/* kernel-queue requests started by
					 * tensor_*_async, not yet collected */
	uint64_t group_mask;		/* LOAD's member mask (group_device.c);
					 * non-zero: READs merge into the caller's
					 * bytes (the card writes its tiles' only) */
};

/* run_result.status of a user-queue completion whose command id is not the
 * run's (detail: the id seen, detail2: the id expected) */
#define IPU__STATUS_UQ_CID	0x10000u

/* The card of @dev; NULL for a device made without one (the unit tests do):
 * the ops that use it check. */
static inline struct ipu__card *ipu__card_of(struct ipu_device *dev)
{
	return dev->priv;
}

/* card_cmd.c: commands on the context's kernel queue */

/* -ENODEV, "<what> on <dev>: the device is not open" */
int ipu__card_not_open(struct ipu_device *dev, const char *what,
		       struct ipu_error *err);
/*
 * ipu__card_ioctl_err() - report the errno @e of a failed SUBMIT / WAIT /
 * ATTACH ioctl @ioc for the command @w ("tensor write", "run"...); returns
 * the negative errno it reported.
 */
int ipu__card_ioctl_err(struct ipu_device *dev, const char *ioc,
			const char *w, int e, struct ipu_error *err);
/*
 * ipu__card_attach() - ATTACH this file to the card once (later calls
 * return 0), then note its model and clock (GET_INFO). @nonblock, or
 * IPU_OPEN_NONBLOCK: -EBUSY at once when another process holds the card.
 * Returns 0, -ENODEV, -EPERM (read-only), -EBUSY or an ioctl's error.
 */
int ipu__card_attach(struct ipu_device *dev, unsigned nonblock,
		     struct ipu_error *err);
/* The card is attached (by ATTACH, or a GROUP_ATTACH of its group). */
void ipu__card_attached(struct ipu_device *dev, uint32_t queue);
/* @cmd zeroed, with argsz and @opcode set. */
void ipu__card_cmd_init(struct ipu_cmd *cmd, unsigned opcode);
/*
 * ipu__card_submit() - SUBMIT @cmd for the command @w; a run in flight on
 * the user queue completes first (ipu__card_uq_settle()). Returns 0 (then
 * look at cmd->status, unless ASYNC) or a reported error.
 */
int ipu__card_submit(struct ipu_device *dev, struct ipu_cmd *cmd,
		     const char *w, struct ipu_error *err);
/*
 * ipu__card_wait_seq() - WAIT for the command of @seq (@timeout_ms 0: no
 * limit, signals ignored); fills @wt. Returns 0, -ETIMEDOUT (not
 * reported: the caller words it) or a reported error.
 */
int ipu__card_wait_seq(struct ipu_device *dev, uint64_t seq,
		       unsigned timeout_ms, struct ipu_wait *wt, const char *w,
		       struct ipu_error *err);
/* 0 when a graph is loaded; else -ENODEV or -ENOENT, reported for @what. */
int ipu__card_need_loaded(struct ipu_device *dev, const char *what,
			  struct ipu_error *err);

/*
 * The ops of ipu__card_ops below keep the contracts of their slots in
 * struct ipu_backend_ops (internal.h); with no card (ipu__card_of() NULL)
 * they return -ENODEV (run_stats: zeros).
 */

/* card_load.c: the graph on the card */

/* The card has no graph (any more): forget it and the run of it. */
void ipu__card_forget_graph(struct ipu__card *c);
int ipu__card_load(struct ipu_device *dev, const void *image, size_t size,
		   unsigned flags, struct ipu_load_info *info, struct ipu_error *err);
/* The same, as member of the group of member mask @mask (0: alone). */
int ipu__card_load_mask(struct ipu_device *dev, const void *image, size_t size,
			unsigned flags, uint64_t mask, struct ipu_load_info *info,
			struct ipu_error *err);
int ipu__card_tensor_count(struct ipu_device *dev, struct ipu_error *err);
int ipu__card_tensor_info(struct ipu_device *dev, unsigned index,
			  struct ipu_tensor_info *out, struct ipu_error *err);
int ipu__card_program_count(struct ipu_device *dev, struct ipu_error *err);
int ipu__card_program_name(struct ipu_device *dev, unsigned k, char *buf,
			   size_t size, struct ipu_error *err);
int ipu__card_stream_bind(struct ipu_device *dev, const char *name,
			  struct ipu_buffer *buf, size_t offset, size_t bytes,
			  struct ipu_error *err);

/* card_xfer.c: tensor transfers */
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

/* card_run.c: runs */
int ipu__card_run(struct ipu_device *dev, uint32_t program, uint32_t count,
		  int finish, struct ipu_error *err);
int ipu__card_wait(struct ipu_device *dev, unsigned timeout_ms,
		   struct ipu_error *err);
int ipu__card_run_group(struct ipu_device *dev, uint32_t program,
			uint32_t count, struct ipu_error *err);
/* The member a group run's result came from (0 = the leader). */
uint32_t ipu__card_run_member(struct ipu_device *dev);
void ipu__card_run_stats(struct ipu_device *dev, struct ipu_run_stats *out);
/* Complete whatever the user queue has in flight, keeping the run's
 * outcome for ipu__card_wait(). */
void ipu__card_uq_settle(struct ipu_device *dev);

/* card_buf.c: the card's buffer ops; alloc and pin put the buffer on the
 * card's list, free takes it off (if there), releases it and frees @b */
int ipu__card_buffer_alloc(struct ipu_device *dev, struct ipu_buffer *b,
			   struct ipu_error *err);
int ipu__card_buffer_pin(struct ipu_device *dev, struct ipu_buffer *b,
			 struct ipu_error *err);
void ipu__card_buffer_free(struct ipu_device *dev, struct ipu_buffer *b);
/* The registered buffer holding [p, p + len), or NULL. */
struct ipu_buffer *ipu__card_buffer_find(struct ipu__card *c, const void *p,
					 size_t len);
/* GET_INFO into *@info: 0, or -errno reported. */
int ipu__card_get_info(struct ipu_device *dev, struct ipu_info *info,
		       struct ipu_error *err);
/*
 * ipu__card_bounce() - allocate the card's bounce buffer (c->bounce,
 * IPU__BOUNCE_SIZE, not on the list) unless it has one from the card's
 * current reset generation (uAPI 1.8: a reset, this process's, another's
 * or a recovery, makes it stale and unmaps it, so it is replaced). Returns
 * 0 or a reported error.
 */
int ipu__card_bounce(struct ipu_device *dev, struct ipu_error *err);

#endif /* IPUDEV_CARD_H */
