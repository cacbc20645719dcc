// SPDX-License-Identifier: MIT
/*
 * libipudev: running graphs on a card. The card backend's execution ops
 * over the uAPI 1.1 command interface (docs/uapi.md): ATTACH, SUBMIT of
 * LOAD / WRITE / READ / RUN, WAIT; runs go through the context's user queue
 * (uAPI 1.2, card_uqueue.c) when the driver has one, keeping the order of
 * the two queues (section "Run"). A run's stats come from its completion
 * and the card's run record (uAPI 1.2: struct ipu_run_counters of SUBMIT
 * and WAIT, the user queue's record ring). Before a LOAD the
 * library checks the binary's container with the card's own reader, after
 * it keeps the host-visible part (handles, entry programs; card_graph.c)
 * to turn names into the card's handle indices, and maps the card's
 * completion statuses to errno values with messages that name the tensor
 * or program and the reason. Transfer strategy: docs/card-exec.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/ipu.h>

#include "card.h"
#include "ipu/graph_format.h"
#include "ipu/ipu_hw.h"
#include "ipu_engine.h"

/* ------------------------------------------------------------------------ */
/* Status mapping                                                           */

static const char *const status_names[] = {
	[IPU_STATUS_OK] = "OK",
	[IPU_STATUS_INVALID_OPCODE] = "INVALID_OPCODE",
	[IPU_STATUS_INVALID_FIELD] = "INVALID_FIELD",
	[IPU_STATUS_DMA_ERROR] = "DMA_ERROR",
	[IPU_STATUS_INVALID_SGL] = "INVALID_SGL",
	[IPU_STATUS_NO_GRAPH] = "NO_GRAPH",
	[IPU_STATUS_LOAD_FAILED] = "LOAD_FAILED",
	[IPU_STATUS_BAD_HANDLE] = "BAD_HANDLE",
	[IPU_STATUS_OUT_OF_RANGE] = "OUT_OF_RANGE",
	[IPU_STATUS_ACCESS] = "ACCESS",
	[IPU_STATUS_ABORTED] = "ABORTED",
	[IPU_STATUS_PROGRAM_ABORT] = "PROGRAM_ABORT",
	[IPU_STATUS_RUN_FAILED] = "RUN_FAILED",
	[IPU_STATUS_TOO_LARGE] = "TOO_LARGE",
	[IPU_STATUS_INTERNAL] = "INTERNAL",
};

const char *ipu__card_status_name(uint32_t status)
{
	if (status == IPU_STATUS_RESET)
		return "RESET";
	if (status < IPU__ARRAY_SIZE(status_names) && status_names[status])
		return status_names[status];
	return "unknown";
}

/* "write of tensor 'w' on ipu0", "program 1 ('main') on ipu0", ... */
static void cmd_what(const struct ipu__cmd_ctx *x, char *b, size_t n)
{
	switch (x->opcode) {
	case IPU_CMD_LOAD:
		snprintf(b, n, "load on %s", x->dev);
		break;
	case IPU_CMD_WRITE:
	case IPU_CMD_READ:
		if (x->tensor)
			snprintf(b, n, "%s of tensor '%s' on %s",
				 x->opcode == IPU_CMD_WRITE ? "write" : "read",
				 x->tensor, x->dev);
		else
			snprintf(b, n, "%s of tensor handle %u on %s",
				 x->opcode == IPU_CMD_WRITE ? "write" : "read",
				 x->handle, x->dev);
		break;
	case IPU_CMD_RUN:
		if (x->program)
			snprintf(b, n, "program %u ('%s') on %s", x->handle,
				 x->program, x->dev);
		else
			snprintf(b, n, "program %u on %s", x->handle, x->dev);
		break;
	default:	/* an asynchronous request: its kind is not kept */
		snprintf(b, n, "request on %s", x->dev);
		break;
	}
}

int ipu__card_status_err(struct ipu_error *err, const struct ipu__cmd_ctx *x,
			 uint32_t status, uint32_t detail, uint32_t detail2)
{
	char w[192];
	int es;

	if (status == IPU_STATUS_OK)
		return 0;
	cmd_what(x, w, sizeof(w));
	switch (status) {
	case IPU_STATUS_LOAD_FAILED: {
		const char *sn = ipu_graph_section_name(detail);
		const char *m = x->load_msg && x->load_msg[0] ? x->load_msg
							      : "(no message)";
		size_t l = strlen(sn);

		/* the card's message starts with the section name: skip it */
		if (!strncmp(m, sn, l) && m[l] == ':' && m[l + 1] == ' ')
			m += l + 2;
		if (detail2 != IPU_GRAPH_NONE)
			return ipu__err(err, ipu__engine_errno(IPUE_EFORMAT),
					"%s: graph refused: section %s record %u: %s",
					w, sn, detail2, m);
		return ipu__err(err, ipu__engine_errno(IPUE_EFORMAT),
				"%s: graph refused: section %s: %s", w, sn, m);
	}
	case IPU_STATUS_OUT_OF_RANGE:
		if (x->tensor)
			return ipu__err(err, ipu__engine_errno(IPUE_ERANGE),
					"tensor '%s': offset %llu + %llu bytes is beyond its %llu bytes (%s on %s)",
					x->tensor, (unsigned long long)x->offset,
					(unsigned long long)x->length,
					(unsigned long long)x->tensor_bytes,
					x->opcode == IPU_CMD_WRITE ? "write" : "read",
					x->dev);
		return ipu__err(err, ipu__engine_errno(IPUE_ERANGE),
				"%s: offset %llu + %llu bytes is beyond the tensor",
				w, (unsigned long long)x->offset,
				(unsigned long long)x->length);
	case IPU_STATUS_NO_GRAPH:
		return ipu__err(err, ipu__engine_errno(IPUE_ENOGRAPH),
				"%s: no graph loaded on the card (ipu_load)", w);
	case IPU_STATUS_BAD_HANDLE:
		if (x->opcode == IPU_CMD_RUN)
			return ipu__err(err, ipu__engine_errno(IPUE_ERANGE),
					"%s: the card's graph has no program %u", w,
					detail);
		return ipu__err(err, ipu__engine_errno(IPUE_ERANGE),
				"%s: the card's graph has no tensor handle %u", w,
				detail);
	case IPU_STATUS_ACCESS:
		return ipu__err(err, ipu__engine_errno(IPUE_EACCES),
				"%s: the card refuses: the tensor is not %s from the host",
				w, x->opcode == IPU_CMD_WRITE ? "writable" : "readable");
	case IPU_STATUS_ABORTED:
		return ipu__err(err, ipu__engine_errno(IPUE_ECANCELED),
				"%s: aborted (ABORT command)", w);
	case IPU_STATUS_PROGRAM_ABORT:
		return ipu__err(err, ipu__engine_errno(IPUE_EABORT),
				"%s: aborted by AbortOnCondition with code %u (program node %u)",
				w, detail, detail2);
	case IPU_STATUS_RUN_FAILED:
		es = -(int)detail;
		return ipu__err(err, ipu__engine_errno(es), "%s: run failed: %s",
				w, ipue_strerror(es));
	case IPU_STATUS_TOO_LARGE:
		return ipu__err(err, -EFBIG,
				"%s: the graph binary is %llu bytes; the card takes 1 byte to 256 MiB",
				w, (unsigned long long)x->length);
	case IPU_STATUS_INTERNAL:
		return ipu__err(err, ipu__engine_errno(IPUE_ENOMEM),
				"%s: the card ran out of host resources (INTERNAL)", w);
	case IPU_STATUS_DMA_ERROR:
		return ipu__err(err, -EFAULT,
				"%s: the card could not reach host memory at 0x%llx (DMA error)",
				w, (unsigned long long)detail |
				   ((unsigned long long)detail2 << 32));
	case IPU_STATUS_INVALID_OPCODE:
	case IPU_STATUS_INVALID_FIELD:
	case IPU_STATUS_INVALID_SGL:
		return ipu__err(err, -EPROTO,
				"%s: the card rejected the command as malformed (%s, detail %u): a driver bug",
				w, ipu__card_status_name(status), detail);
	case IPU_STATUS_RESET:
		return ipu__err(err, -EIO,
				"%s: the card was reset while the command was in flight",
				w);
	default:
		return ipu__err(err, -EIO, "%s: unknown completion status %u "
				"(detail %u/%u)", w, status, detail, detail2);
	}
}

/* ------------------------------------------------------------------------ */
/* Attach, submit, wait                                                     */

static struct ipu__card *card_of(struct ipu_device *dev)
{
	return dev->priv;
}

static int no_card(struct ipu_device *dev, const char *what,
		   struct ipu_error *err)
{
	return ipu__err(err, -ENODEV, "%s on %s: the device is not open", what,
			dev->name);
}

/* errno of a failed SUBMIT / WAIT / ATTACH / BUF_* ioctl -> message */
static int ioctl_err(struct ipu_device *dev, const char *ioc, const char *w,
		     int e, struct ipu_error *err)
{
	switch (e) {
	case ENOTTY:
		return ipu__err(err, -EOPNOTSUPP,
				"%s: the driver of %s has no command interface (%s needs uAPI 1.1)",
				w, dev->name, ioc);
	case ENOTCONN:
		return ipu__err(err, -ENOTCONN,
				"%s: %s: this file is not attached to %s", w, ioc,
				dev->name);
	case EAGAIN:
		return ipu__err(err, -EAGAIN,
				"%s: %u commands already in flight (wait for some)",
				w, IPU_MAX_INFLIGHT);
	case EIO:
		return ipu__err(err, -EIO,
				"%s: %s failed: the card failed or was reset", w, ioc);
	case EINTR:
		return ipu__err(err, -EINTR,
				"%s: interrupted while waiting (the command goes on)",
				w);
	default:
		return ipu__err_sys(err, -e, "%s: %s", w, ioc);
	}
}

int ipu__card_attach(struct ipu_device *dev, unsigned nonblock,
		     struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	struct ipu_attach a;
	struct ipu_info info;
	int e;

	if (!c)
		return no_card(dev, "attach", err);
	if (c->attached)
		return 0;
	if (dev->flags & IPU_OPEN_READONLY)
		return ipu__err(err, -EPERM,
				"attach to %s: the device was opened read-only (IPU_OPEN_READONLY)",
				dev->name);
	memset(&a, 0, sizeof(a));
	a.argsz = sizeof(a);
	a.flags = nonblock || (dev->flags & IPU_OPEN_NONBLOCK)
		  ? IPU_ATTACH_FLAG_NONBLOCK : 0;
	while (ioctl(c->fd, IPU_IOCTL_ATTACH, &a) < 0) {
		e = errno;
		if (e == EINTR)
			continue;
		if (e == EBUSY)
			return ipu__err(err, -EBUSY,
					"attach to %s: the card is in use by another process",
					dev->name);
		if (e == EPERM || e == EBADF)
			return ipu__err(err, -EPERM,
					"attach to %s: %s is not open for writing",
					dev->name, c->devnode);
		return ioctl_err(dev, "ATTACH", "attach", e, err);
	}
	c->attached = 1;
	c->queue = a.queue;
	memset(&info, 0, sizeof(info));
	info.argsz = sizeof(info);
	if (ioctl(c->fd, IPU_IOCTL_GET_INFO, &info) == 0) {
		c->model = info.model;
		c->clock_khz = info.clock_khz;
	}
	return 0;
}

static void cmd_init(struct ipu_cmd *cmd, unsigned opcode)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->argsz = sizeof(*cmd);
	cmd->opcode = opcode;
}

static void uq_settle(struct ipu_device *dev);

/*
 * SUBMIT; returns 0 (look at cmd->status unless ASYNC) or a reported error.
 * A run still in flight on the user queue completes first (uq_settle()):
 * the command must follow it, as it would on one queue.
 */
static int submit(struct ipu_device *dev, struct ipu_cmd *cmd, const char *w,
		  struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);

	uq_settle(dev);
	if (ioctl(c->fd, IPU_IOCTL_SUBMIT, cmd) < 0)
		return ioctl_err(dev, "SUBMIT", w, errno, err);
	return 0;
}

/* WAIT for @seq; fills @wt. -ETIMEDOUT (not reported) when not done. */
static int wait_seq(struct ipu_device *dev, uint64_t seq, unsigned timeout_ms,
		    struct ipu_wait *wt, const char *w, struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);

	for (;;) {
		memset(wt, 0, sizeof(*wt));
		wt->argsz = sizeof(*wt);
		wt->seq = seq;
		wt->timeout_ms = timeout_ms ? timeout_ms : UINT32_MAX;
		if (ioctl(c->fd, IPU_IOCTL_WAIT, wt) == 0)
			return 0;
		if (errno == EINTR && !timeout_ms)
			continue;
		if (errno == ETIMEDOUT)
			return -ETIMEDOUT;
		if (errno == ENOENT)
			return ipu__err(err, -ENOENT,
					"%s: no such request in flight (already collected?)",
					w);
		return ioctl_err(dev, "WAIT", w, errno, err);
	}
}

static int need_loaded(struct ipu_device *dev, const char *what,
		       struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);

	if (!c)
		return no_card(dev, what, err);
	if (!c->loaded)
		return ipu__err(err, -ENOENT, "%s on %s: no graph loaded (ipu_load)",
				what, dev->name);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Load                                                                     */

/* the card has no graph (any more): forget it and the run of it */
static void forget_graph(struct ipu__card *c)
{
	c->loaded = 0;
	c->run_started = 0;
	c->run_done = 0;
	c->run_uq = 0;
	ipu__graph_table_free(&c->g);
}

void ipu__card_after_reset(struct ipu_device *dev)
{
	struct ipu__card *c = card_of(dev);

	if (!c)
		return;
	forget_graph(c);
	/* the reset stopped the user queue: UQUEUE again at the next run */
	ipu__uq_lost(&c->uq);
}

void ipu__card_exec_close(struct ipu_device *dev)
{
	struct ipu__card *c = card_of(dev);

	if (!c)
		return;
	ipu__uq_close(&c->uq, "closed");
	while (c->bufs)
		ipu__card_buffer_free(dev, c->bufs);
	if (c->bounce) {
		ipu__card_buffer_free(dev, c->bounce);
		c->bounce = NULL;
	}
	ipu__graph_table_free(&c->g);
	c->loaded = 0;
}

int ipu__card_load(struct ipu_device *dev, const void *image, size_t size,
		   struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	struct ipu__graph_table t;
	struct ipue_container gc;
	struct ipue_load_error le;
	struct ipu__cmd_ctx x;
	struct ipu_cmd cmd;
	char msg[IPU_LOAD_MSG_MAX + 1];
	char why[160];
	int r;

	if (!c)
		return no_card(dev, "load", err);
	r = ipu__card_attach(dev, 0, err);
	if (r)
		return r;
	memset(&x, 0, sizeof(x));
	x.dev = dev->name;
	x.opcode = IPU_CMD_LOAD;
	x.length = size;
	/*
	 * Refused before the card sees it (the card keeps its graph, and so do
	 * we): another model, or a container the card's loader would refuse,
	 * in its words (the same reader).
	 */
	r = ipu__graph_precheck(image, size, c->model, &gc, &le);
	if (r && le.status == IPUE_EMODEL)
		return ipu__err(err, -EINVAL,
				"load on %s: the graph is built for model %s, the device is %s",
				dev->name, ipu_model_name(gc.h.model),
				ipu_model_name(c->model));
	if (r) {
		x.load_msg = le.message;
		return ipu__card_status_err(err, &x, IPU_STATUS_LOAD_FAILED,
					    le.section, le.record);
	}
	/* the card replaces its graph even when it refuses the new one */
	forget_graph(c);
	memset(msg, 0, sizeof(msg));
	cmd_init(&cmd, IPU_CMD_LOAD);
	cmd.user_ptr = (uintptr_t)image;
	cmd.length = size;
	cmd.msg_ptr = (uintptr_t)msg;
	r = submit(dev, &cmd, "load", err);
	if (r)
		return r;
	if (cmd.status) {
		x.load_msg = msg;
		return ipu__card_status_err(err, &x, cmd.status, cmd.detail,
					    cmd.detail2);
	}
	r = ipu__graph_table_read(&gc, &t, why, sizeof(why));
	if (r == -ENOMEM)
		return ipu__err(err, r, "load on %s: out of memory", dev->name);
	if (r)
		return ipu__err(err, -EPROTO,
				"load on %s: the card took the graph but its host handles cannot be read: %s",
				dev->name, why);
	c->g = t;
	c->loaded = 1;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Handles and programs                                                     */

int ipu__card_tensor_count(struct ipu_device *dev, struct ipu_error *err)
{
	int r = need_loaded(dev, "tensors", err);

	return r ? r : (int)card_of(dev)->g.nhandles;
}

int ipu__card_tensor_info(struct ipu_device *dev, unsigned index,
			  struct ipu_tensor_info *out, struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	const struct ipu__graph_handle *h;
	int r = need_loaded(dev, "tensor info", err);

	if (r)
		return r;
	if (index >= c->g.nhandles)
		return ipu__err(err, -ERANGE,
				"tensor %u on %s: out of range (the graph has %u host-visible tensors)",
				index, dev->name, c->g.nhandles);
	h = &c->g.handles[index];
	memset(out, 0, sizeof(*out));
	ipu__strlcpy(out->name, h->name, sizeof(out->name));
	out->index = index;
	out->dtype = h->dtype;
	out->rank = h->rank;
	for (unsigned i = 0; i < h->rank && i < 6; i++)
		out->shape[i] = h->shape[i];
	out->elements = h->elements;
	out->bytes = h->bytes;
	out->access = h->access;
	return 0;
}

int ipu__card_program_count(struct ipu_device *dev, struct ipu_error *err)
{
	int r = need_loaded(dev, "programs", err);

	return r ? r : (int)card_of(dev)->g.nprograms;
}

int ipu__card_program_name(struct ipu_device *dev, unsigned k, char *buf,
			   size_t size, struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	int r = need_loaded(dev, "program name", err);

	if (r)
		return r;
	if (k >= c->g.nprograms)
		return ipu__err(err, -ERANGE,
				"program %u on %s: out of range (the graph has %u programs)",
				k, dev->name, c->g.nprograms);
	ipu__strlcpy(buf, c->g.programs[k], size);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Transfers                                                                */

static void xfer_ctx(struct ipu_device *dev, int wr, uint32_t tensor,
		     uint64_t offset, size_t len, struct ipu__cmd_ctx *x)
{
	struct ipu__card *c = card_of(dev);

	memset(x, 0, sizeof(*x));
	x->dev = dev->name;
	x->opcode = wr ? IPU_CMD_WRITE : IPU_CMD_READ;
	x->handle = tensor;
	x->offset = offset;
	x->length = len;
	if (c->loaded && tensor < c->g.nhandles) {
		x->tensor = c->g.handles[tensor].name;
		x->tensor_bytes = c->g.handles[tensor].bytes;
	}
}

/* checks the library can make before the card sees the command */
static int xfer_check(struct ipu_device *dev, int wr, uint32_t tensor,
		      uint64_t offset, size_t len, struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	const struct ipu__graph_handle *h;
	int r = need_loaded(dev, wr ? "tensor write" : "tensor read", err);

	if (r)
		return r;
	if (tensor >= c->g.nhandles)
		return ipu__err(err, -ERANGE,
				"%s of tensor handle %u on %s: the graph has %u host-visible tensors",
				wr ? "write" : "read", tensor, dev->name,
				c->g.nhandles);
	h = &c->g.handles[tensor];
	if (!(h->access & (wr ? IPU_HANDLE_WRITE : IPU_HANDLE_READ)))
		return ipu__err(err, -EACCES,
				"tensor '%s' on %s: the host may not %s it (handle is %s)",
				h->name, dev->name, wr ? "write" : "read",
				wr ? "read-only" : "write-only");
	if (offset > h->bytes || len > h->bytes - offset)
		return ipu__err(err, -ERANGE,
				"tensor '%s': offset %llu + %zu bytes is beyond its %llu bytes (%s on %s)",
				h->name, (unsigned long long)offset, len,
				(unsigned long long)h->bytes,
				wr ? "write" : "read", dev->name);
	return 0;
}

/* fill the data source of @cmd: a registered buffer, else @p itself */
static void cmd_data(struct ipu__card *c, struct ipu_cmd *cmd, const void *p,
		     size_t len, int allow_user)
{
	struct ipu_buffer *b = ipu__card_buffer_find(c, p, len);

	if (b) {
		cmd->buf = b->handle;
		cmd->buf_offset = (uintptr_t)p - (uintptr_t)b->ptr;
	} else if (allow_user) {
		cmd->user_ptr = (uintptr_t)p;
	}
}

static int one_cmd(struct ipu_device *dev, int wr, uint32_t tensor,
		   uint64_t offset, void *p, size_t len, uint64_t *req,
		   struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	struct ipu__cmd_ctx x;
	struct ipu_cmd cmd;
	int r;

	cmd_init(&cmd, wr ? IPU_CMD_WRITE : IPU_CMD_READ);
	cmd.handle = tensor;
	cmd.offset = offset;
	cmd.length = len;
	cmd_data(c, &cmd, p, len, 1);
	if (req)
		cmd.flags = IPU_CMD_FLAG_ASYNC;
	r = submit(dev, &cmd, wr ? "tensor write" : "tensor read", err);
	if (r)
		return r;
	if (req) {
		*req = cmd.seq + 1;
		c->async_inflight++;
		return 0;
	}
	xfer_ctx(dev, wr, tensor, offset, len, &x);
	return ipu__card_status_err(err, &x, cmd.status, cmd.detail, cmd.detail2);
}

static int ensure_bounce(struct ipu_device *dev, struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	struct ipu_buffer *b;
	int r;

	if (c->bounce)
		return 0;
	b = calloc(1, sizeof(*b));
	if (!b)
		return ipu__err(err, -ENOMEM, "bounce buffer on %s: out of memory",
				dev->name);
	b->dev = dev;
	b->size = IPU__BOUNCE_SIZE;
	r = ipu__card_buffer_alloc(dev, b, err);
	if (r) {
		free(b);
		return r;
	}
	c->bounce = b;
	return 0;
}

/* collect the completion of chunk @seq and turn it into a result */
static int chunk_wait(struct ipu_device *dev, int wr, uint32_t tensor,
		      uint64_t seq, uint64_t offset, size_t len,
		      struct ipu_error *err)
{
	struct ipu__cmd_ctx x;
	struct ipu_wait wt;
	int r = wait_seq(dev, seq, 0, &wt, wr ? "tensor write" : "tensor read",
			 err);

	if (r)
		return r;
	xfer_ctx(dev, wr, tensor, offset, len, &x);
	return ipu__card_status_err(err, &x, wt.status, wt.detail, wt.detail2);
}

/*
 * Through the bounce buffer, in chunks of half its size, two in flight: the
 * process copies one half while the card moves the other.
 */
static int bounce_xfer(struct ipu_device *dev, int wr, uint32_t tensor,
		       uint64_t offset, uint8_t *p, size_t len,
		       struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	const size_t half = IPU__BOUNCE_SIZE / 2;
	uint64_t seq[2] = { 0, 0 };
	size_t pos[2] = { 0, 0 }, n[2] = { 0, 0 };
	int busy[2] = { 0, 0 };
	size_t done = 0, next = 0;
	int ret = 0, r;
	unsigned i;

	r = ensure_bounce(dev, err);
	if (r)
		return r;
	if (len <= half) {	/* one command, synchronous */
		struct ipu__cmd_ctx x;
		struct ipu_cmd cmd;

		cmd_init(&cmd, wr ? IPU_CMD_WRITE : IPU_CMD_READ);
		cmd.handle = tensor;
		cmd.offset = offset;
		cmd.length = len;
		cmd.buf = c->bounce->handle;
		if (wr)
			memcpy(c->bounce->ptr, p, len);
		r = submit(dev, &cmd, wr ? "tensor write" : "tensor read", err);
		if (r)
			return r;
		xfer_ctx(dev, wr, tensor, offset, len, &x);
		r = ipu__card_status_err(err, &x, cmd.status, cmd.detail,
					 cmd.detail2);
		if (!r && !wr)
			memcpy(p, c->bounce->ptr, len);
		return r;
	}
	for (i = 0; done < len; i ^= 1) {
		uint8_t *slot = (uint8_t *)c->bounce->ptr + i * half;

		if (busy[i]) {	/* collect the chunk that used this half */
			busy[i] = 0;
			r = chunk_wait(dev, wr, tensor, seq[i], offset + pos[i],
				       n[i], ret ? NULL : err);
			if (r && !ret)
				ret = r;
			if (!ret && !wr)
				memcpy(p + pos[i], slot, n[i]);
			done += n[i];
		}
		if (next < len && !ret) {
			struct ipu_cmd cmd;

			n[i] = len - next < half ? len - next : half;
			pos[i] = next;
			if (wr)
				memcpy(slot, p + next, n[i]);
			cmd_init(&cmd, wr ? IPU_CMD_WRITE : IPU_CMD_READ);
			cmd.flags = IPU_CMD_FLAG_ASYNC;
			cmd.handle = tensor;
			cmd.offset = offset + next;
			cmd.length = n[i];
			cmd.buf = c->bounce->handle;
			cmd.buf_offset = i * half;
			r = submit(dev, &cmd, wr ? "tensor write" : "tensor read",
				   err);
			if (r) {
				ret = r;
			} else {
				seq[i] = cmd.seq;
				busy[i] = 1;
				next += n[i];
			}
		}
		if (ret && !busy[0] && !busy[1])
			break;
	}
	return ret;
}

/*
 * The card writes a READ's user memory through a mapping that claims whole
 * cache lines, one mapping per line at a time (docs/uapi.md, "Buffers"):
 * the partial lines at the ends of [*p, *p + *len) are read here through
 * the bounce buffer, and the rest narrowed to whole lines, so that reads in
 * flight into neighbouring parts of one array never share a line.
 */
static int read_partial_lines(struct ipu_device *dev, uint32_t tensor,
			      uint64_t *offset, uint8_t **p, size_t *len,
			      struct ipu_error *err)
{
	size_t head = (IPU__CACHE_LINE - (uintptr_t)*p % IPU__CACHE_LINE) %
		      IPU__CACHE_LINE;
	size_t tail;
	int r;

	if (head > *len)
		head = *len;
	tail = (*len - head) % IPU__CACHE_LINE;
	if (head) {
		r = bounce_xfer(dev, 0, tensor, *offset, *p, head, err);
		if (r)
			return r;
	}
	if (tail) {
		r = bounce_xfer(dev, 0, tensor, *offset + *len - tail,
				*p + *len - tail, tail, err);
		if (r)
			return r;
	}
	*offset += head;
	*p += head;
	*len -= head + tail;
	return 0;
}

static int card_xfer(struct ipu_device *dev, int wr, uint32_t tensor,
		     uint64_t offset, void *p, size_t len, uint64_t *req,
		     struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	int r;

	if (!c)
		return no_card(dev, wr ? "tensor write" : "tensor read", err);
	r = xfer_check(dev, wr, tensor, offset, len, err);
	if (r)
		return r;
	if (req)
		*req = 0;
	if (!len)
		return 0;
	if (len > UINT32_MAX)
		return ipu__err(err, -EINVAL,
				"%s of tensor '%s' on %s: %zu bytes; one transfer moves at most 4 GiB - 1",
				wr ? "write" : "read", c->g.handles[tensor].name,
				dev->name, len);
	if (ipu__card_buffer_find(c, p, len))
		return one_cmd(dev, wr, tensor, offset, p, len, req, err);
	if (req || c->xfer_mode == IPU__XFER_DIRECT ||
	    (c->xfer_mode == IPU__XFER_AUTO && len > IPU__BOUNCE_MAX)) {
		if (!wr) {
			r = read_partial_lines(dev, tensor, &offset,
					       (uint8_t **)&p, &len, err);
			if (r || !len)
				return r;
		}
		return one_cmd(dev, wr, tensor, offset, p, len, req, err);
	}
	return bounce_xfer(dev, wr, tensor, offset, p, len, err);
}

int ipu__card_tensor_write(struct ipu_device *dev, uint32_t tensor,
			   uint64_t offset, const void *src, size_t len,
			   struct ipu_error *err)
{
	return card_xfer(dev, 1, tensor, offset, (void *)(uintptr_t)src, len,
			 NULL, err);
}

int ipu__card_tensor_read(struct ipu_device *dev, uint32_t tensor,
			  uint64_t offset, void *dst, size_t len,
			  struct ipu_error *err)
{
	return card_xfer(dev, 0, tensor, offset, dst, len, NULL, err);
}

int ipu__card_tensor_write_async(struct ipu_device *dev, uint32_t tensor,
				 uint64_t offset, const void *src, size_t len,
				 uint64_t *req, struct ipu_error *err)
{
	return card_xfer(dev, 1, tensor, offset, (void *)(uintptr_t)src, len,
			 req, err);
}

int ipu__card_tensor_read_async(struct ipu_device *dev, uint32_t tensor,
				uint64_t offset, void *dst, size_t len,
				uint64_t *req, struct ipu_error *err)
{
	return card_xfer(dev, 0, tensor, offset, dst, len, req, err);
}

int ipu__card_request_wait(struct ipu_device *dev, uint64_t req,
			   unsigned timeout_ms, struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	struct ipu__cmd_ctx x;
	struct ipu_wait wt;
	char w[80];
	int r;

	if (!c)
		return no_card(dev, "request wait", err);
	if (!req)
		return 0;	/* completed when it was started */
	snprintf(w, sizeof(w), "request %llu on %s", (unsigned long long)req,
		 dev->name);
	r = wait_seq(dev, req - 1, timeout_ms, &wt, w, err);
	if (r == -ETIMEDOUT)
		return ipu__err(err, r, "%s: not complete after %u ms", w,
				timeout_ms);
	if (r)
		return r;
	if (c->async_inflight)
		c->async_inflight--;
	memset(&x, 0, sizeof(x));
	x.dev = dev->name;
	x.opcode = 0;
	return ipu__card_status_err(err, &x, wt.status, wt.detail, wt.detail2);
}

/* ------------------------------------------------------------------------ */
/* Streams: rings in registered buffers (STREAM_BIND)                       */

int ipu__card_stream_bind(struct ipu_device *dev, const char *name,
			  struct ipu_buffer *buf, size_t offset, size_t bytes,
			  struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	const struct ipu__graph_stream *gs = NULL;
	struct ipu__cmd_ctx x;
	struct ipu_cmd cmd;
	char w[160];
	unsigned s;
	int r = need_loaded(dev, "stream bind", err);

	if (r)
		return r;
	for (s = 0; s < c->g.nstreams; s++)
		if (!strcmp(c->g.streams[s].name, name)) {
			gs = &c->g.streams[s];
			break;
		}
	if (!gs)
		return ipu__err(err, -ENOENT,
				"stream '%s' on %s: no such stream in the loaded graph",
				name, dev->name);
	snprintf(w, sizeof(w), "stream '%s' on %s", name, dev->name);
	cmd_init(&cmd, IPU_CMD_STREAM_BIND);
	cmd.handle = s;
	if (buf) {
		if (buf->kind != IPU__BUF_DRIVER && buf->kind != IPU__BUF_PINNED)
			return ipu__err(err, -EINVAL, "%s: not a buffer of this device", w);
		if (!bytes || !gs->bytes || bytes % gs->bytes)
			return ipu__err(err, -EINVAL,
					"%s: a ring of %zu bytes is not a whole number of %llu-byte transfers",
					w, bytes, (unsigned long long)gs->bytes);
		if (offset > buf->size || bytes > buf->size - offset)
			return ipu__err(err, -ERANGE,
					"%s: offset %zu + %zu bytes is beyond the buffer's %zu bytes",
					w, offset, bytes, buf->size);
		cmd.buf = buf->handle;
		cmd.buf_offset = offset;
		cmd.length = bytes;
	}
	r = submit(dev, &cmd, w, err);
	if (r)
		return r;
	if (cmd.status == IPU_STATUS_INVALID_FIELD)
		return ipu__err(err, -EINVAL, "%s: the card refused the ring of %zu bytes",
				w, bytes);
	memset(&x, 0, sizeof(x));
	x.dev = dev->name;
	x.opcode = IPU_CMD_STREAM_BIND;
	x.handle = s;
	return ipu__card_status_err(err, &x, cmd.status, cmd.detail, cmd.detail2);
}

/* ------------------------------------------------------------------------ */
/* Run                                                                      */
/*
 * A run goes to the user queue (card_uqueue.c) when the driver has one,
 * else through SUBMIT as a RUN command on the kernel queue. The two queues
 * are ordered only within themselves, so the library keeps the order of a
 * single queue:
 *  - a run sees every write started before it: synchronous transfers are
 *    complete when they return; while asynchronous kernel-queue requests
 *    are in flight, the run goes through SUBMIT (uq_usable());
 *  - a kernel-queue command issued while a user-queue run is in flight
 *    runs after it: submit() first consumes the run's completion
 *    (uq_settle()) and keeps the outcome for ipu_wait().
 */

/* "program 0 ('empty') on ipu0", for messages about the run */
static void run_what(struct ipu_device *dev, const struct ipu__cmd_ctx *x,
		     char *w, size_t size)
{
	snprintf(w, size, "program %u ('%s') on %s", x->handle,
		 x->program ? x->program : "", dev->name);
}

/* the card's run record as the uAPI's counters */
static void counters_of_record(struct ipu_run_counters *o,
			       const struct ipu_run_record *r)
{
	o->cycles_compute = r->cycles_compute;
	o->cycles_sync = r->cycles_sync;
	o->cycles_exchange = r->cycles_exchange;
	o->cycles_stream = r->cycles_stream;
	o->steps = r->steps;
	o->compute_sets = r->compute_sets;
	o->exchanges = r->exchanges;
	o->syncs = r->syncs;
	o->exchange_bytes = r->exchange_bytes;
	o->stream_bytes_h2d = r->stream_bytes_h2d;
	o->stream_bytes_d2h = r->stream_bytes_d2h;
}

/*
 * Consume the next completion of the user queue: the run's (its outcome
 * and run record go to run_result, run_done set) or one of a run the
 * library forgot
 * (a load meanwhile). A queue that is gone (POLLERR: a card reset, or a
 * detach) completes the run with IPU_STATUS_RESET, as the kernel queue does
 * for a command a reset dropped, and is created again at the next run.
 * Returns 0, or -ETIMEDOUT / -EINTR (nothing consumed; only with
 * @timeout_ms, 0 = no limit).
 */
static int uq_collect(struct ipu_device *dev, unsigned timeout_ms)
{
	struct ipu__card *c = card_of(dev);
	int mine = c->run_started && c->run_uq && !c->run_done;
	struct ipu_run_record rec;
	struct ipu_cqe e;
	int r = -ENODEV;

	if (c->uq.pending)
		r = ipu__uq_wait(&c->uq, c->fd, IPU__UQ_SPIN_US, timeout_ms, &e,
				 &rec);
	if (r == -ETIMEDOUT || r == -EINTR)
		return r;
	if (r) {
		ipu__uq_lost(&c->uq);
		memset(&e, 0, sizeof(e));
		memset(&rec, 0, sizeof(rec));
		e.cid = c->run_cid;
		e.status = (uint16_t)(IPU_STATUS_RESET << 1);
	}
	if (!mine)
		return 0;
	c->run_done = 1;
	if (e.cid != c->run_cid) {
		/* a completion that is not the run's: the queue cannot be
		 * trusted any more; SUBMIT from now on */
		c->run_result.status = IPU__STATUS_UQ_CID;
		c->run_result.detail = e.cid;
		c->run_result.detail2 = c->run_cid;
		c->run_result.host_ns = c->run_result.cycles = 0;
		memset(&c->run_result.run, 0, sizeof(c->run_result.run));
		ipu__uq_close(&c->uq, "a completion with an unexpected command id");
		return 0;
	}
	c->run_result.status = IPU_CQE_CODE(e.status);
	c->run_result.detail = e.detail;
	c->run_result.detail2 = e.detail2;
	c->run_result.host_ns = e.host_ns;
	c->run_result.cycles = e.cycles;
	counters_of_record(&c->run_result.run, &rec);
	return 0;
}

/* Complete whatever the user queue has in flight (see uq_collect()). */
static void uq_settle(struct ipu_device *dev)
{
	struct ipu__card *c = card_of(dev);

	while (c->uq.pending)
		uq_collect(dev, 0);
}

/*
 * Whether this run goes to the user queue; creates the queue at the first
 * run after attach, and again at the first after a reset. When it cannot
 * be created, every run goes through SUBMIT from then on (the reason stays
 * in c->uq.why), except after errors that pass: this run only. Those are
 * -EIO (the card is not ready yet), -EEXIST (a reset this process started
 * has not stopped the old queue yet), -EINTR, -EAGAIN.
 */
static int uq_usable(struct ipu__card *c)
{
	int r;

	if (c->runq_mode == IPU__RUNQ_KERNEL || c->uq.state == IPU__UQ_OFF)
		return 0;
	/*
	 * Asynchronous kernel-queue requests in flight (tensor_*_async not yet
	 * collected by ipu_request_wait): the run goes through SUBMIT, behind
	 * them on the kernel queue, exactly as before user queues. Waiting for
	 * them here instead would collect their completions (WAIT collects a
	 * completion once), which the library would then have to keep for
	 * ipu_request_wait(), and would turn ipu_run_start() into a call that
	 * blocks on transfers the caller chose not to wait for.
	 */
	if (c->async_inflight)
		return 0;
	if (c->uq.state == IPU__UQ_READY)
		return 1;
	r = ipu__uq_open(&c->uq, c->fd);
	if (!r)
		return 1;
	if (r != -EIO && r != -EEXIST && r != -EINTR && r != -EAGAIN)
		ipu__uq_close(&c->uq, NULL);
	return 0;
}

/* Start the run on the user queue; with @finish complete it too. Returns 0,
 * or -EAGAIN when the ring has no room (the caller uses SUBMIT). */
static int uq_run(struct ipu_device *dev, uint32_t program, uint32_t count,
		  int finish)
{
	struct ipu__card *c = card_of(dev);
	struct ipu_sqe e;
	int cid;

	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.handle = program;
	e.count = count;
	cid = ipu__uq_post(&c->uq, &e);
	if (cid < 0)
		return cid;
	c->run_started = 1;
	c->run_uq = 1;
	c->run_cid = (uint16_t)cid;
	c->run_program = program;
	c->have_result = 0;
	if (finish)
		uq_collect(dev, 0);	/* no limit: always completes */
	return 0;
}

/*
 * Start @program; with @finish complete it too when that is cheaper (the
 * caller waits next anyway): on the user queue the wait for its completion,
 * on the kernel queue a synchronous SUBMIT, which completes it here unless
 * a signal interrupts the wait: the command then stays in flight and
 * ipu__card_wait() collects it by seq.
 */
int ipu__card_run(struct ipu_device *dev, uint32_t program, uint32_t count,
		  int finish, struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	struct ipu_cmd cmd;
	int r = need_loaded(dev, "run", err);

	if (r)
		return r;
	if (c->run_started)
		return ipu__err(err, -EBUSY,
				"run on %s: a run was started and not waited for",
				dev->name);
	if (program >= c->g.nprograms)
		return ipu__err(err, -ERANGE,
				"run on %s: program %u does not exist (the graph has %u programs)",
				dev->name, program, c->g.nprograms);
	c->run_done = 0;
	c->run_uq = 0;
	uq_settle(dev);		/* nothing is left in flight there, normally */
	if (uq_usable(c) && !uq_run(dev, program, count, finish))
		return 0;
	cmd_init(&cmd, IPU_CMD_RUN);
	cmd.flags = finish ? 0 : IPU_CMD_FLAG_ASYNC;
	cmd.handle = program;
	cmd.count = count;
	if (ioctl(c->fd, IPU_IOCTL_SUBMIT, &cmd) == 0) {
		c->run_done = finish;
	} else if (!(finish && errno == EINTR && cmd.seq)) {
		return ioctl_err(dev, "SUBMIT", "run", errno, err);
	}
	if (c->run_done) {
		c->run_result.status = cmd.status;
		c->run_result.detail = cmd.detail;
		c->run_result.detail2 = cmd.detail2;
		c->run_result.host_ns = cmd.host_ns;
		c->run_result.cycles = cmd.cycles;
		c->run_result.run = cmd.run;
	}
	c->run_started = 1;
	c->run_seq = cmd.seq;
	c->run_program = program;
	c->have_result = 0;
	return 0;
}

/*
 * The stats of a collected run: host time and cycles from the completion,
 * the rest from the card's run record (wt->run: zeros on a driver or card
 * before run records, where steps come from the completion's detail as
 * before and the per-phase counters stay 0).
 */
static void run_stats_fill(struct ipu_run_stats *s, const struct ipu_wait *wt,
			   uint32_t clock_khz)
{
	const struct ipu_run_counters *k = &wt->run;

	memset(s, 0, sizeof(*s));
	s->host_ns = wt->host_ns;
	s->cycles = wt->cycles;
	s->cycles_compute = k->cycles_compute;
	s->cycles_sync = k->cycles_sync;
	s->cycles_exchange = k->cycles_exchange;
	s->cycles_stream = k->cycles_stream;
	s->steps = k->steps ? k->steps
		 : wt->status == IPU_STATUS_OK ? wt->detail : 0;
	s->compute_sets = k->compute_sets;
	s->exchanges = k->exchanges;
	s->syncs = k->syncs;
	s->exchange_bytes = k->exchange_bytes;
	s->stream_bytes_h2d = k->stream_bytes_h2d;
	s->stream_bytes_d2h = k->stream_bytes_d2h;
	s->clock_khz = clock_khz;
}

/* The run's description for messages (only built when one is needed). */
static void run_ctx(struct ipu_device *dev, const struct ipu__card *c,
		    struct ipu__cmd_ctx *x)
{
	memset(x, 0, sizeof(*x));
	x->dev = dev->name;
	x->opcode = IPU_CMD_RUN;
	x->handle = c->run_program;
	x->program = c->loaded && c->run_program < c->g.nprograms
		     ? c->g.programs[c->run_program] : NULL;
}

int ipu__card_wait(struct ipu_device *dev, unsigned timeout_ms,
		   struct ipu_error *err)
{
	struct ipu__card *c = card_of(dev);
	const struct ipu_wait *res = &c->run_result;
	struct ipu__cmd_ctx x;
	char w[160];
	int r = 0;

	if (!c)
		return no_card(dev, "wait", err);
	if (!c->run_started)
		return ipu__err(err, -EINVAL, "wait on %s: no run was started",
				dev->name);
	if (c->run_uq && !c->run_done) {
		r = uq_collect(dev, timeout_ms);
		if (r) {	/* the run goes on */
			run_ctx(dev, c, &x);
			run_what(dev, &x, w, sizeof(w));
			if (r == -ETIMEDOUT)
				return ipu__err(err, r, "%s: still running after %u ms",
						w, timeout_ms);
			return ipu__err(err, -EINTR,
					"%s: interrupted while waiting (the command goes on)",
					w);
		}
	}
	if (!c->run_done) {
		run_ctx(dev, c, &x);
		run_what(dev, &x, w, sizeof(w));
		r = wait_seq(dev, c->run_seq, timeout_ms, &c->run_result, w,
			     err);
		if (r == -ETIMEDOUT)
			return ipu__err(err, r, "%s: still running after %u ms",
					w, timeout_ms);
	}
	c->run_started = 0;
	c->run_done = 0;
	c->run_uq = 0;
	if (r)
		return r;
	c->have_result = 1;
	if (res->status == IPU_STATUS_OK)
		return 0;
	run_ctx(dev, c, &x);
	if (res->status == IPU__STATUS_UQ_CID) {
		c->have_result = 0;
		run_what(dev, &x, w, sizeof(w));
		return ipu__err(err, -EPROTO,
				"%s: the user queue completed command id %u, not the run's %u (runs go through SUBMIT from now on)",
				w, res->detail, res->detail2);
	}
	return ipu__card_status_err(err, &x, res->status, res->detail,
				    res->detail2);
}

/* The stats of the last run waited for (zeros before any). */
void ipu__card_run_stats(struct ipu_device *dev, struct ipu_run_stats *out)
{
	struct ipu__card *c = card_of(dev);

	if (!c || !c->have_result) {
		memset(out, 0, sizeof(*out));
		return;
	}
	run_stats_fill(out, &c->run_result, c->clock_khz);
}
