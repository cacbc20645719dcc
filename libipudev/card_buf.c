// SPDX-License-Identifier: MIT
/*
 * libipudev: host buffers (driver-allocated mmap buffers and pinned user
 * memory) of the card backend, and the public calls for ranged,
 * asynchronous and buffer transfers, which validate their arguments and
 * dispatch through dev->ops (falling back to the synchronous slots and
 * plain memory on backends without the asynchronous ones).
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

#define IPU__BUF_MAX	(1ull << 30)	/* the driver's limit per buffer */

/* ------------------------------------------------------------------------ */
/* Card buffers                                                             */

struct ipu_buffer *ipu__card_buffer_find(struct ipu__card *c, const void *p,
					 size_t len)
{
	uintptr_t a = (uintptr_t)p;

	for (struct ipu_buffer *b = c->bufs; b; b = b->next) {
		uintptr_t s = (uintptr_t)b->ptr;

		if (a >= s && a - s <= b->size && len <= b->size - (a - s))
			return b;
	}
	return NULL;
}

static int buf_ioctl(struct ipu_device *dev, unsigned long nr,
		     struct ipu_buf *ib, const char *what, struct ipu_error *err)
{
	struct ipu__card *c = dev->priv;
	int e;

	if (ioctl(c->fd, nr, ib) == 0)
		return 0;
	e = errno;
	if (e == ENOTTY)
		return ipu__err(err, -EOPNOTSUPP,
				"%s on %s: the driver has no buffer interface (uAPI 1.1)",
				what, dev->name);
	if (e == ENOMEM && nr == IPU_IOCTL_BUF_PIN)
		return ipu__err(err, -ENOMEM,
				"%s of %llu bytes on %s: cannot pin (RLIMIT_MEMLOCK, or out of memory)",
				what, (unsigned long long)ib->size, dev->name);
	return ipu__err_sys(err, -e, "%s of %llu bytes on %s", what,
			    (unsigned long long)ib->size, dev->name);
}

int ipu__card_buffer_alloc(struct ipu_device *dev, struct ipu_buffer *b,
			   struct ipu_error *err)
{
	struct ipu__card *c = dev->priv;
	struct ipu_buf ib;
	void *p;
	int r;

	if (!c)
		return ipu__err(err, -ENODEV, "buffer on %s: the device is not open",
				dev->name);
	r = ipu__card_attach(dev, 0, err);
	if (r)
		return r;
	memset(&ib, 0, sizeof(ib));
	ib.argsz = sizeof(ib);
	ib.size = b->size;
	r = buf_ioctl(dev, IPU_IOCTL_BUF_ALLOC, &ib, "BUF_ALLOC", err);
	if (r)
		return r;
	p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
		 (off_t)ib.mmap_offset);
	if (p == MAP_FAILED) {
		uint32_t h = ib.handle;

		r = ipu__err_sys(err, -errno, "mmap of a %zu-byte buffer of %s",
				 b->size, dev->name);
		memset(&ib, 0, sizeof(ib));
		ib.argsz = sizeof(ib);
		ib.handle = h;
		ioctl(c->fd, IPU_IOCTL_BUF_FREE, &ib);
		return r;
	}
	b->ptr = p;
	b->map_size = b->size;
	b->handle = ib.handle;
	b->kind = IPU__BUF_DRIVER;
	return 0;
}

int ipu__card_buffer_pin(struct ipu_device *dev, struct ipu_buffer *b,
			 struct ipu_error *err)
{
	struct ipu__card *c = dev->priv;
	struct ipu_buf ib;
	int r;

	if (!c)
		return ipu__err(err, -ENODEV, "buffer on %s: the device is not open",
				dev->name);
	r = ipu__card_attach(dev, 0, err);
	if (r)
		return r;
	memset(&ib, 0, sizeof(ib));
	ib.argsz = sizeof(ib);
	ib.size = b->size;
	ib.user_addr = (uintptr_t)b->ptr;
	r = buf_ioctl(dev, IPU_IOCTL_BUF_PIN, &ib, "BUF_PIN", err);
	if (r)
		return r;
	b->handle = ib.handle;
	b->kind = IPU__BUF_PINNED;
	return 0;
}

/* unlink from the card's list (if there), release, free @b */
void ipu__card_buffer_free(struct ipu_device *dev, struct ipu_buffer *b)
{
	struct ipu__card *c = dev->priv;
	struct ipu_buf ib;

	if (c) {
		for (struct ipu_buffer **pp = &c->bufs; *pp; pp = &(*pp)->next)
			if (*pp == b) {
				*pp = b->next;
				break;
			}
		if (c->bounce == b)
			c->bounce = NULL;
		if (b->handle) {
			memset(&ib, 0, sizeof(ib));
			ib.argsz = sizeof(ib);
			ib.handle = b->handle;
			/* -EBUSY while a command uses it: then close frees it */
			ioctl(c->fd, IPU_IOCTL_BUF_FREE, &ib);
		}
	}
	if (b->kind == IPU__BUF_DRIVER && b->ptr)
		munmap(b->ptr, b->map_size);
	free(b);
}

/* ------------------------------------------------------------------------ */
/* Public: buffers                                                          */

static int is_card(const struct ipu_device *dev)
{
	return dev->ops == &ipu__card_ops;
}

static int new_buf(struct ipu_device *dev, void *ptr, size_t size, int pin,
		   struct ipu_buffer **out, struct ipu_error *err)
{
	const char *what = pin ? "ipu_buffer_pin" : "ipu_buffer_alloc";
	struct ipu_buffer *b;
	int r;

	if (out)
		*out = NULL;
	if (!dev || !out || (pin && !ptr))
		return ipu__err(err, -EINVAL, "%s: NULL argument", what);
	if (!size || size > IPU__BUF_MAX)
		return ipu__err(err, -EINVAL,
				"%s on %s: %zu bytes (1 byte to 1 GiB)", what,
				dev->name, size);
	b = calloc(1, sizeof(*b));
	if (!b)
		return ipu__err(err, -ENOMEM, "%s on %s: out of memory", what,
				dev->name);
	b->dev = dev;
	b->size = size;
	b->ptr = ptr;
	if (pin && dev->ops->buffer_pin) {
		r = dev->ops->buffer_pin(dev, b, err);
	} else if (!pin && dev->ops->buffer_alloc) {
		r = dev->ops->buffer_alloc(dev, b, err);
	} else if (pin) {
		b->kind = IPU__BUF_HOST_USER;
		r = 0;
	} else {
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		r = 0;
		if (p == MAP_FAILED)
			r = ipu__err_sys(err, -errno, "%s on %s: %zu bytes",
					 what, dev->name, size);
		b->ptr = p;
		b->map_size = size;
		b->kind = IPU__BUF_HOST;
	}
	if (r) {
		free(b);
		return r;
	}
	if (is_card(dev) && dev->priv) {
		struct ipu__card *c = dev->priv;

		b->next = c->bufs;
		c->bufs = b;
	}
	*out = b;
	return 0;
}

IPU_API int ipu_buffer_alloc(struct ipu_device *dev, size_t size,
			     struct ipu_buffer **out, struct ipu_error *err)
{
	return new_buf(dev, NULL, size, 0, out, err);
}

IPU_API int ipu_buffer_pin(struct ipu_device *dev, void *ptr, size_t size,
			   struct ipu_buffer **out, struct ipu_error *err)
{
	return new_buf(dev, ptr, size, 1, out, err);
}

IPU_API void *ipu_buffer_ptr(const struct ipu_buffer *buf)
{
	return buf ? buf->ptr : NULL;
}

IPU_API size_t ipu_buffer_size(const struct ipu_buffer *buf)
{
	return buf ? buf->size : 0;
}

IPU_API void ipu_buffer_free(struct ipu_buffer *buf)
{
	struct ipu_device *dev;

	if (!buf)
		return;
	dev = buf->dev;
	if (dev && dev->ops->buffer_free &&
	    (buf->kind == IPU__BUF_DRIVER || buf->kind == IPU__BUF_PINNED)) {
		dev->ops->buffer_free(dev, buf);
		return;
	}
	if (buf->kind == IPU__BUF_HOST && buf->ptr)
		munmap(buf->ptr, buf->map_size);
	free(buf);
}

/* ------------------------------------------------------------------------ */
/* Public: ranged and asynchronous transfers                                */

static int range_io(struct ipu_device *dev, const char *name, uint64_t offset,
		    void *data, size_t len, int wr, uint64_t *req,
		    struct ipu_error *err)
{
	const char *what = wr ? "tensor write" : "tensor read";
	struct ipu_tensor_info ti;
	int r;

	if (req)
		*req = 0;
	if (!dev)
		return ipu__err(err, -EINVAL, "%s: device is NULL", what);
	if ((wr ? !dev->ops->tensor_write : !dev->ops->tensor_read) ||
	    !dev->ops->tensor_info)
		return ipu__no_slot(dev, what, err);
	if (!name || (!data && len))
		return ipu__err(err, -EINVAL, "%s: NULL argument", what);
	r = ipu_tensor_lookup(dev, name, &ti, err);
	if (r)
		return r;
	if (!(ti.access & (wr ? IPU_HANDLE_WRITE : IPU_HANDLE_READ)))
		return ipu__err(err, -EACCES,
				"tensor '%s' on %s: the host may not %s it (handle is %s)",
				name, dev->name, wr ? "write" : "read",
				wr ? "read-only" : "write-only");
	if (offset > ti.bytes || len > ti.bytes - offset)
		return ipu__err(err, -ERANGE,
				"tensor '%s': offset %llu + %zu bytes is beyond its %llu bytes (%s on %s)",
				name, (unsigned long long)offset, len,
				(unsigned long long)ti.bytes,
				wr ? "write" : "read", dev->name);
	if (req && (wr ? dev->ops->tensor_write_async != NULL
		       : dev->ops->tensor_read_async != NULL)) {
		if (wr)
			return dev->ops->tensor_write_async(dev, ti.index,
							    offset, data, len,
							    req, err);
		return dev->ops->tensor_read_async(dev, ti.index, offset, data,
						   len, req, err);
	}
	/* synchronous (or a backend without requests: done at once) */
	if (wr)
		return dev->ops->tensor_write(dev, ti.index, offset, data, len,
					      err);
	return dev->ops->tensor_read(dev, ti.index, offset, data, len, err);
}

IPU_API int ipu_tensor_write_at(struct ipu_device *dev, const char *name,
				uint64_t offset, const void *data, size_t len,
				struct ipu_error *err)
{
	return range_io(dev, name, offset, (void *)(uintptr_t)data, len, 1,
			NULL, err);
}

IPU_API int ipu_tensor_read_at(struct ipu_device *dev, const char *name,
			       uint64_t offset, void *data, size_t len,
			       struct ipu_error *err)
{
	return range_io(dev, name, offset, data, len, 0, NULL, err);
}

IPU_API int ipu_tensor_write_async(struct ipu_device *dev, const char *name,
				   uint64_t offset, const void *data,
				   size_t len, uint64_t *req,
				   struct ipu_error *err)
{
	if (!req)
		return ipu__err(err, -EINVAL, "tensor write: req is NULL");
	return range_io(dev, name, offset, (void *)(uintptr_t)data, len, 1,
			req, err);
}

IPU_API int ipu_tensor_read_async(struct ipu_device *dev, const char *name,
				  uint64_t offset, void *data, size_t len,
				  uint64_t *req, struct ipu_error *err)
{
	if (!req)
		return ipu__err(err, -EINVAL, "tensor read: req is NULL");
	return range_io(dev, name, offset, data, len, 0, req, err);
}

IPU_API int ipu_request_wait(struct ipu_device *dev, uint64_t req,
			     unsigned timeout_ms, struct ipu_error *err)
{
	if (!dev)
		return ipu__err(err, -EINVAL, "request wait: device is NULL");
	if (!req)
		return 0;
	if (!dev->ops->request_wait)
		return ipu__err(err, -ENOENT,
				"request %llu on %s: no such request",
				(unsigned long long)req, dev->name);
	return dev->ops->request_wait(dev, req, timeout_ms, err);
}
