// SPDX-License-Identifier: MIT
/*
 * libipudev: the device handle, its generic entry points, and the card
 * backend (/dev/ipuN through the uAPI ioctls of docs/uapi.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/ipu.h>

#include "internal.h"
#include "card.h"

/* ------------------------------------------------------------------------ */
/* Generic handle                                                           */

int ipu__device_new(const struct ipu_backend_ops *ops, void *priv,
		    unsigned id, unsigned flags, const char *name,
		    struct ipu_device **out, struct ipu_error *err)
{
	struct ipu_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return ipu__err(err, -ENOMEM, "open %s: out of memory",
				name ? name : "device");
	dev->ops = ops;
	dev->priv = priv;
	dev->id = id;
	dev->flags = flags;
	ipu__strlcpy(dev->name, name, sizeof(dev->name));
	*out = dev;
	return 0;
}

int ipu__no_slot(struct ipu_device *dev, const char *what,
		 struct ipu_error *err)
{
	return ipu__err(err, -EOPNOTSUPP,
			"%s on %s: not supported by the %s backend", what,
			dev->name, dev->ops && dev->ops->name ? dev->ops->name : "?");
}

IPU_API void ipu_device_close(struct ipu_device *dev)
{
	if (!dev)
		return;
	if (dev->ops && dev->ops->close)
		dev->ops->close(dev);
	free(dev);
}

IPU_API unsigned ipu_device_id(const struct ipu_device *dev)
{
	return dev ? dev->id : 0;
}

IPU_API const char *ipu_device_name(const struct ipu_device *dev)
{
	return dev ? dev->name : "";
}

IPU_API int ipu_device_info(struct ipu_device *dev, struct ipu_device_info *out,
			    struct ipu_error *err)
{
	if (!dev || !out)
		return ipu__err(err, -EINVAL,
				"ipu_device_info: dev and out must not be NULL");
	memset(out, 0, sizeof(*out));
	out->id = dev->id;
	out->state = IPU_STATE_UNKNOWN;
	ipu__strlcpy(out->backend, dev->ops->name, sizeof(out->backend));
	if (!dev->ops->info)
		return ipu__no_slot(dev, "info", err);
	return dev->ops->info(dev, out, err);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

IPU_API int ipu_device_reset(struct ipu_device *dev, unsigned timeout_ms,
			     unsigned flags, struct ipu_reset_result *out,
			     struct ipu_error *err)
{
	struct ipu_reset_result res;
	uint64_t t0;
	int ret;

	if (!dev)
		return ipu__err(err, -EINVAL,
				"ipu_device_reset: dev must not be NULL");
	if (flags & ~IPU_RESET_VALID_FLAGS)
		return ipu__err(err, -EINVAL,
				"reset %s: unknown flags 0x%x", dev->name,
				flags & ~IPU_RESET_VALID_FLAGS);
	if (timeout_ms > IPU_RESET_TIMEOUT_MAX)
		return ipu__err(err, -EINVAL,
				"reset %s: timeout %u ms above the maximum of %u ms",
				dev->name, timeout_ms, IPU_RESET_TIMEOUT_MAX);
	if (dev->flags & IPU_OPEN_READONLY)
		return ipu__err(err, -EPERM,
				"reset %s: the device was opened read-only (IPU_OPEN_READONLY)",
				dev->name);
	if (!dev->ops->reset)
		return ipu__no_slot(dev, "reset", err);

	memset(&res, 0, sizeof(res));
	res.state = IPU_STATE_UNKNOWN;
	t0 = now_us();
	ret = dev->ops->reset(dev, timeout_ms, flags, &res, err);
	res.elapsed_us = now_us() - t0;
	if (out)
		*out = res;
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Card backend (execution: card_exec.c, buffers: card_buf.c)               */

static void card_close(struct ipu_device *dev)
{
	struct ipu__card *c = dev->priv;

	if (c) {
		ipu__card_exec_close(dev);
		if (c->fd >= 0)
			close(c->fd);	/* detaches: the driver frees the rest */
		free(c);
	}
}

static void fw_string(uint32_t v, char *buf, size_t size)
{
	snprintf(buf, size, "%u.%u.%u", (v >> 16) & 0xffff, (v >> 8) & 0xff,
		 v & 0xff);
}

static int card_info(struct ipu_device *dev, struct ipu_device_info *out,
		     struct ipu_error *err)
{
	struct ipu__card *c = dev->priv;
	struct ipu_info info;

	memset(&info, 0, sizeof(info));
	info.argsz = sizeof(info);
	if (ioctl(c->fd, IPU_IOCTL_GET_INFO, &info) < 0)
		return ipu__err_sys(err, -errno, "GET_INFO on %s", c->devnode);

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
		ipu__card_after_reset(dev);	/* the graph is gone */
		return 0;
	}
	e = errno;
	switch (e) {
	case ETIMEDOUT:
		out->state = IPU_STATE_FAILED;
		ipu__card_after_reset(dev);
		return ipu__err(err, -ETIMEDOUT,
				"reset %s: the card did not become ready within %u ms (it is now failed)",
				dev->name, timeout_ms ? timeout_ms : 2000);
	case EINTR:
		out->state = IPU_STATE_RESETTING;
		ipu__card_after_reset(dev);
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
