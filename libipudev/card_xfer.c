// SPDX-License-Identifier: MIT
/*
 * libipudev, card backend: tensor transfers (WRITE / READ). A registered
 * buffer is used as it is; otherwise small copies go through the
 * per-device bounce buffer (two halves in flight) and large ones use the
 * user pages, pinned per command; asynchronous transfers are kernel-queue
 * requests collected by ipu__card_request_wait(). Strategy and measured
 * crossover: docs/card-exec.md.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/ipu.h>

#include "card.h"

static void xfer_ctx(struct ipu_device *dev, int wr, uint32_t tensor,
		     uint64_t offset, size_t len, struct ipu__cmd_ctx *x)
{
	struct ipu__card *c = ipu__card_of(dev);

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
	struct ipu__card *c = ipu__card_of(dev);
	const struct ipu__graph_handle *h;
	int r = ipu__card_need_loaded(dev, wr ? "tensor write" : "tensor read", err);

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
	struct ipu__card *c = ipu__card_of(dev);
	struct ipu__cmd_ctx x;
	struct ipu_cmd cmd;
	int r;

	ipu__card_cmd_init(&cmd, wr ? IPU_CMD_WRITE : IPU_CMD_READ);
	cmd.handle = tensor;
	cmd.offset = offset;
	cmd.length = len;
	cmd_data(c, &cmd, p, len, 1);
	if (req)
		cmd.flags = IPU_CMD_FLAG_ASYNC;
	r = ipu__card_submit(dev, &cmd, wr ? "tensor write" : "tensor read", err);
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

/* collect the completion of chunk @seq and turn it into a result */
static int chunk_wait(struct ipu_device *dev, int wr, uint32_t tensor,
		      uint64_t seq, uint64_t offset, size_t len,
		      struct ipu_error *err)
{
	struct ipu__cmd_ctx x;
	struct ipu_wait wt;
	int r = ipu__card_wait_seq(dev, seq, 0, &wt, wr ? "tensor write" : "tensor read",
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
	struct ipu__card *c = ipu__card_of(dev);
	const size_t half = IPU__BOUNCE_SIZE / 2;
	uint64_t seq[2] = { 0, 0 };
	size_t pos[2] = { 0, 0 }, n[2] = { 0, 0 };
	int busy[2] = { 0, 0 };
	size_t done = 0, next = 0;
	int ret = 0, r;
	unsigned i;

	r = ipu__card_bounce(dev, err);
	if (r)
		return r;
	if (len <= half) {	/* one command, synchronous */
		struct ipu__cmd_ctx x;
		struct ipu_cmd cmd;

		ipu__card_cmd_init(&cmd, wr ? IPU_CMD_WRITE : IPU_CMD_READ);
		cmd.handle = tensor;
		cmd.offset = offset;
		cmd.length = len;
		cmd.buf = c->bounce->handle;
		if (wr || c->group_mask)	/* group: keep the others' bytes */
			memcpy(c->bounce->ptr, p, len);
		r = ipu__card_submit(dev, &cmd, wr ? "tensor write" : "tensor read", err);
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
			if (wr || c->group_mask)
				memcpy(slot, p + next, n[i]);
			ipu__card_cmd_init(&cmd, wr ? IPU_CMD_WRITE : IPU_CMD_READ);
			cmd.flags = IPU_CMD_FLAG_ASYNC;
			cmd.handle = tensor;
			cmd.offset = offset + next;
			cmd.length = n[i];
			cmd.buf = c->bounce->handle;
			cmd.buf_offset = i * half;
			r = ipu__card_submit(dev, &cmd, wr ? "tensor write" : "tensor read",
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
	struct ipu__card *c = ipu__card_of(dev);
	int r;

	if (!c)
		return ipu__card_not_open(dev, wr ? "tensor write" : "tensor read", err);
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
	struct ipu__card *c = ipu__card_of(dev);
	struct ipu__cmd_ctx x;
	struct ipu_wait wt;
	char w[80];
	int r;

	if (!c)
		return ipu__card_not_open(dev, "request wait", err);
	if (!req)
		return 0;	/* completed when it was started */
	snprintf(w, sizeof(w), "request %llu on %s", (unsigned long long)req,
		 dev->name);
	r = ipu__card_wait_seq(dev, req - 1, timeout_ms, &wt, w, err);
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

