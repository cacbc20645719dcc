// SPDX-License-Identifier: MIT
/*
 * libipudev, card backend: the graph on the card. LOAD (after the
 * library's pre-check of the binary with the card's own container reader),
 * the host-visible part it keeps of the binary (card_graph.c) to answer
 * the tensor and program queries by index, and STREAM_BIND of a loaded
 * graph's streams to rings in registered buffers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/ipu.h>

#include "card.h"
#include "ipu/graph_format.h"
#include "ipu_engine.h"

void ipu__card_forget_graph(struct ipu__card *c)
{
	c->loaded = 0;
	c->run_started = 0;
	c->run_done = 0;
	c->run_uq = 0;
	c->group_mask = 0;
	ipu__graph_table_free(&c->g);
}

int ipu__card_load(struct ipu_device *dev, const void *image, size_t size,
		   unsigned flags, struct ipu_load_info *info, struct ipu_error *err)
{
	return ipu__card_load_mask(dev, image, size, flags, 0, info, err);
}

int ipu__card_load_mask(struct ipu_device *dev, const void *image, size_t size,
			unsigned flags, uint64_t mask, struct ipu_load_info *info,
			struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);
	struct ipu__graph_table t;
	struct ipue_container gc;
	struct ipue_load_error le;
	struct ipu__cmd_ctx x;
	struct ipu_cmd cmd;
	char msg[IPU_LOAD_MSG_MAX + 1];
	char why[160];
	int r;

	if (!c)
		return ipu__card_not_open(dev, "load", err);
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
	ipu__card_forget_graph(c);
	memset(msg, 0, sizeof(msg));
	ipu__card_cmd_init(&cmd, IPU_CMD_LOAD);
	cmd.offset = mask;		/* uAPI 1.6: the group's member mask */
	cmd.user_ptr = (uintptr_t)image;
	cmd.length = size;
	cmd.msg_ptr = (uintptr_t)msg;
	if (flags & IPU_LOAD_COMMIT_MEMORY)
		cmd.flags |= IPU_CMD_FLAG_LOAD_COMMIT;
	r = ipu__card_submit(dev, &cmd, "load", err);
	if (r == -EOPNOTSUPP && mask)
		return ipu__err(err, r, "load on %s: the card or driver is too old for "
				"multi-IPU groups (LOAD's member mask)", dev->name);
	if (r == -EOPNOTSUPP)
		return ipu__err(err, r, "load on %s: the card or driver is too old to commit "
				"tile memory at load (IPU_LOAD_COMMIT_MEMORY)", dev->name);
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
	c->group_mask = mask;
	info->committed_bytes = cmd.detail | (uint64_t)cmd.detail2 << 32;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Handles and programs                                                     */

int ipu__card_tensor_count(struct ipu_device *dev, struct ipu_error *err)
{
	int r = ipu__card_need_loaded(dev, "tensors", err);

	return r ? r : (int)ipu__card_of(dev)->g.nhandles;
}

int ipu__card_tensor_info(struct ipu_device *dev, unsigned index,
			  struct ipu_tensor_info *out, struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);
	const struct ipu__graph_handle *h;
	int r = ipu__card_need_loaded(dev, "tensor info", err);

	if (r)
		return r;
	if (index >= c->g.nhandles)
		return ipu__err_index(err, dev, "tensor", index, c->g.nhandles,
				      "host-visible tensors");
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
	int r = ipu__card_need_loaded(dev, "programs", err);

	return r ? r : (int)ipu__card_of(dev)->g.nprograms;
}

int ipu__card_program_name(struct ipu_device *dev, unsigned k, char *buf,
			   size_t size, struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);
	int r = ipu__card_need_loaded(dev, "program name", err);

	if (r)
		return r;
	if (k >= c->g.nprograms)
		return ipu__err_index(err, dev, "program", k, c->g.nprograms,
				      "programs");
	ipu__strlcpy(buf, c->g.programs[k], size);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Streams: rings in registered buffers (STREAM_BIND)                       */

int ipu__card_stream_bind(struct ipu_device *dev, const char *name,
			  struct ipu_buffer *buf, size_t offset, size_t bytes,
			  struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);
	const struct ipu__graph_stream *gs = NULL;
	struct ipu__cmd_ctx x;
	struct ipu_cmd cmd;
	char w[160];
	unsigned s;
	int r = ipu__card_need_loaded(dev, "stream bind", err);

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
	ipu__card_cmd_init(&cmd, IPU_CMD_STREAM_BIND);
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
	r = ipu__card_submit(dev, &cmd, w, err);
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

