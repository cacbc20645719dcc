// SPDX-License-Identifier: MIT
/*
 * libipudev, card backend: commands on the context's kernel queue (uAPI
 * 1.1, docs/uapi.md): ATTACH, SUBMIT, WAIT by seq and the messages of
 * their failed ioctls, and the "no graph loaded" check the command paths
 * (card_load.c, card_xfer.c, card_run.c) share.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/ipu.h>

#include "card.h"

int ipu__card_not_open(struct ipu_device *dev, const char *what,
		       struct ipu_error *err)
{
	return ipu__err(err, -ENODEV, "%s on %s: the device is not open", what,
			dev->name);
}

int ipu__card_ioctl_err(struct ipu_device *dev, const char *ioc,
			const char *w, int e, struct ipu_error *err)
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
	struct ipu__card *c = ipu__card_of(dev);
	struct ipu_attach a;
	int e;

	if (!c)
		return ipu__card_not_open(dev, "attach", err);
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
		return ipu__card_ioctl_err(dev, "ATTACH", "attach", e, err);
	}
	ipu__card_attached(dev, a.queue);
	return 0;
}

void ipu__card_attached(struct ipu_device *dev, uint32_t queue)
{
	struct ipu__card *c = ipu__card_of(dev);
	struct ipu_info info;

	c->attached = 1;
	c->queue = queue;
	memset(&info, 0, sizeof(info));
	info.argsz = sizeof(info);
	if (ioctl(c->fd, IPU_IOCTL_GET_INFO, &info) == 0) {
		c->model = info.model;
		c->clock_khz = info.clock_khz;
	}
}

void ipu__card_cmd_init(struct ipu_cmd *cmd, unsigned opcode)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->argsz = sizeof(*cmd);
	cmd->opcode = opcode;
}

/* a run in flight on the user queue completes first: the command must
 * follow it, as it would on one queue */
int ipu__card_submit(struct ipu_device *dev, struct ipu_cmd *cmd,
		     const char *w, struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);

	ipu__card_uq_settle(dev);
	if (ioctl(c->fd, IPU_IOCTL_SUBMIT, cmd) < 0)
		return ipu__card_ioctl_err(dev, "SUBMIT", w, errno, err);
	return 0;
}

int ipu__card_wait_seq(struct ipu_device *dev, uint64_t seq,
		       unsigned timeout_ms, struct ipu_wait *wt, const char *w,
		       struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);

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
		return ipu__card_ioctl_err(dev, "WAIT", w, errno, err);
	}
}

int ipu__card_need_loaded(struct ipu_device *dev, const char *what,
			  struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);

	if (!c)
		return ipu__card_not_open(dev, what, err);
	if (!c->loaded)
		return ipu__err(err, -ENOENT, "%s on %s: no graph loaded (ipu_load)",
				what, dev->name);
	return 0;
}

