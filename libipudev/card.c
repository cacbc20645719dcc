// SPDX-License-Identifier: MIT
/*
 * libipudev, card backend: /dev/ipuN through the uAPI ioctls of
 * docs/uapi.md. Its constructor ipu_device_open(), its ops table and the
 * ops on the card as a whole (close, GET_INFO, RESET); the other ops live
 * by concern in card_load.c, card_xfer.c, card_run.c and card_buf.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/ipu.h>

#include "card.h"

static void card_close(struct ipu_device *dev)
{
	struct ipu__card *c = dev->priv;

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
	if (c->fd >= 0)
		close(c->fd);	/* detaches: the driver frees the rest */
	free(c);
}

/* the reset took the graph with it, and stopped the user queue (UQUEUE
 * again at the next run) */
static void card_after_reset(struct ipu__card *c)
{
	ipu__card_forget_graph(c);
	ipu__uq_lost(&c->uq);
}

static void fw_string(uint32_t v, char *buf, size_t size)
{
	snprintf(buf, size, "%u.%u.%u", (v >> 16) & 0xffff, (v >> 8) & 0xff,
		 v & 0xff);
}

int ipu__card_get_info(struct ipu_device *dev, struct ipu_info *info,
		       struct ipu_error *err)
{
	struct ipu__card *c = dev->priv;

	memset(info, 0, sizeof(*info));
	info->argsz = sizeof(*info);
	if (ioctl(c->fd, IPU_IOCTL_GET_INFO, info) < 0)
		return ipu__err_sys(err, -errno, "GET_INFO on %s", c->devnode);
	return 0;
}

static int card_info(struct ipu_device *dev, struct ipu_device_info *out,
		     struct ipu_error *err)
{
	struct ipu_info info;
	int r = ipu__card_get_info(dev, &info, err);

	if (r)
		return r;

	info.serial[sizeof(info.serial) - 1] = '\0';
	info.driver_version[sizeof(info.driver_version) - 1] = '\0';
	out->api_version = info.api_version;
	out->hw_version = info.hw_version;
	out->model = info.model;
	out->card_index = info.card_index;
	out->tiles = info.tiles;
	out->tile_memory = info.tile_memory;
	out->total_memory = (uint64_t)info.tiles * info.tile_memory;
	out->threads_per_tile = info.threads_per_tile;
	out->link_ports = info.link_ports;
	out->fw_version = info.fw_version;
	fw_string(info.fw_version, out->firmware_version,
		  sizeof(out->firmware_version));
	out->clock_khz = info.clock_khz;
	out->state = info.state <= IPU_STATE_FAILED ? (int)info.state
						    : IPU_STATE_UNKNOWN;
	out->reset_count = info.reset_count;
	out->capabilities = info.capabilities;
	ipu__strlcpy(out->serial, info.serial, sizeof(out->serial));
	ipu__strlcpy(out->driver_version, info.driver_version,
		     sizeof(out->driver_version));
	return 0;
}

static int card_reset(struct ipu_device *dev, unsigned timeout_ms,
		      unsigned flags, struct ipu_reset_result *out,
		      struct ipu_error *err)
{
	struct ipu__card *c = dev->priv;
	struct ipu_reset r;
	int e;

	memset(&r, 0, sizeof(r));
	r.argsz = sizeof(r);
	r.flags = ((flags & IPU_RESET_NOWAIT) ? IPU_RESET_FLAG_NOWAIT : 0) |
		  ((flags & IPU_RESET_FORCE) ? IPU_RESET_FLAG_FORCE : 0);
	r.timeout_ms = timeout_ms;
	if (ioctl(c->fd, IPU_IOCTL_RESET, &r) == 0) {
		out->state = r.state <= IPU_STATE_FAILED ? (int)r.state
							 : IPU_STATE_UNKNOWN;
		out->reset_count = r.reset_count;
		card_after_reset(c);
		return 0;
	}
	e = errno;
	switch (e) {
	case ETIMEDOUT:
		out->state = IPU_STATE_FAILED;
		card_after_reset(c);
		return ipu__err(err, -ETIMEDOUT,
				"reset %s: the card did not become ready within %u ms (it is now failed)",
				dev->name, timeout_ms ? timeout_ms : 2000);
	case EINTR:
		out->state = IPU_STATE_RESETTING;
		card_after_reset(c);
		return ipu__err(err, -EINTR,
				"reset %s: interrupted while waiting (the reset goes on in the background)",
				dev->name);
	case EBUSY:
		out->state = r.state <= IPU_STATE_FAILED ? (int)r.state
							 : IPU_STATE_UNKNOWN;
		out->holder_pid = r.holder_pid;
		memcpy(out->holder_comm, r.holder_comm,
		       sizeof(out->holder_comm));
		out->holder_comm[sizeof(out->holder_comm) - 1] = '\0';
		return ipu__err(err, -EBUSY,
				"reset %s: not reset, the card is in use by process %d (%s); force it to reset anyway",
				dev->name, (int)r.holder_pid,
				out->holder_comm[0] ? out->holder_comm : "?");
	case EPERM:
	case EBADF:
		return ipu__err(err, -EPERM,
				"reset %s: %s is not open for writing",
				dev->name, c->devnode);
	default:
		return ipu__err_sys(err, -e, "reset %s (%s)", dev->name,
				    c->devnode);
	}
}

const struct ipu_backend_ops ipu__card_ops = {
	.name = "card",
	.close = card_close,
	.info = card_info,
	.reset = card_reset,
	.load = ipu__card_load,
	.tensor_write = ipu__card_tensor_write,
	.tensor_read = ipu__card_tensor_read,
	.run = ipu__card_run,
	.wait = ipu__card_wait,
	.tensor_count = ipu__card_tensor_count,
	.tensor_info = ipu__card_tensor_info,
	.program_count = ipu__card_program_count,
	.program_name = ipu__card_program_name,
	.stream_connect = NULL,	/* the card's queues carry no stream traffic */
	.stream_bind = ipu__card_stream_bind,
	.run_stats = ipu__card_run_stats,
	.tensor_write_async = ipu__card_tensor_write_async,
	.tensor_read_async = ipu__card_tensor_read_async,
	.request_wait = ipu__card_request_wait,
	.buffer_alloc = ipu__card_buffer_alloc,
	.buffer_pin = ipu__card_buffer_pin,
	.buffer_free = ipu__card_buffer_free,
};

static int xfer_mode_from_env(void)
{
	const char *m = secure_getenv("IPUDEV_XFER");

	if (m && !strcmp(m, "bounce"))
		return IPU__XFER_BOUNCE;
	if (m && !strcmp(m, "direct"))
		return IPU__XFER_DIRECT;
	return IPU__XFER_AUTO;
}

/* IPUDEV_RUNQ=kernel: runs always go through SUBMIT (docs/card-exec.md) */
static int runq_mode_from_env(void)
{
	const char *m = secure_getenv("IPUDEV_RUNQ");

	if (m && !strcmp(m, "kernel"))
		return IPU__RUNQ_KERNEL;
	return IPU__RUNQ_AUTO;
}

IPU_API int ipu_device_open(unsigned id, unsigned flags,
			    struct ipu_device **out, struct ipu_error *err)
{
	struct ipu__card *c;
	char name[24];
	int ret;

	if (!out)
		return ipu__err(err, -EINVAL,
				"ipu_device_open: out must not be NULL");
	*out = NULL;
	snprintf(name, sizeof(name), "ipu%u", id);
	if (flags & ~IPU_OPEN_VALID_FLAGS)
		return ipu__err(err, -EINVAL, "open %s: unknown flags 0x%x",
				name, flags & ~IPU_OPEN_VALID_FLAGS);

	c = calloc(1, sizeof(*c));
	if (!c)
		return ipu__err(err, -ENOMEM, "open %s: out of memory", name);
	c->fd = -1;
	ret = ipu__find_devnode(id, c->devnode, sizeof(c->devnode), err);
	if (ret)
		goto fail;
	c->fd = open(c->devnode, ((flags & IPU_OPEN_READONLY) ? O_RDONLY
							       : O_RDWR) |
				 O_CLOEXEC);
	if (c->fd < 0) {
		ret = ipu__err_sys(err, -errno, "open %s", c->devnode);
		goto fail;
	}
	c->xfer_mode = xfer_mode_from_env();
	c->runq_mode = runq_mode_from_env();
	if (c->runq_mode == IPU__RUNQ_KERNEL)
		ipu__uq_close(&c->uq, "IPUDEV_RUNQ=kernel");
	ret = ipu__device_new(&ipu__card_ops, c, id, flags, name, out, err);
	if (ret)
		goto fail;
	if (flags & IPU_OPEN_ATTACH) {
		ret = ipu__card_attach(*out, flags & IPU_OPEN_NONBLOCK, err);
		if (ret) {
			ipu_device_close(*out);
			*out = NULL;
		}
		return ret;
	}
	return 0;
fail:
	if (c->fd >= 0)
		close(c->fd);
	free(c);
	return ret;
}
