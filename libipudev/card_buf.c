// SPDX-License-Identifier: MIT
/*
 * libipudev, card backend: host buffers the card reaches without copies
 * (BUF_ALLOC + mmap, BUF_PIN of user memory) and the card's list of them,
 * which the transfer path looks data up in (card_xfer.c). The public
 * ipu_buffer_* calls are in the front end (device.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/ipu.h>

#include "card.h"

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

/*
 * BUF_ALLOC or BUF_PIN (@nr) of @b->size bytes (at @b->ptr for a pin) on
 * the attached card; fills @ib.
 */
static int buf_new(struct ipu_device *dev, unsigned long nr,
		   struct ipu_buffer *b, struct ipu_buf *ib,
		   struct ipu_error *err)
{
	int r;

	if (!dev->priv)
		return ipu__card_not_open(dev, "buffer", err);
	r = ipu__card_attach(dev, 0, err);
	if (r)
		return r;
	memset(ib, 0, sizeof(*ib));
	ib->argsz = sizeof(*ib);
	ib->size = b->size;
	if (nr == IPU_IOCTL_BUF_PIN)
		ib->user_addr = (uintptr_t)b->ptr;
	return buf_ioctl(dev, nr, ib,
			 nr == IPU_IOCTL_BUF_PIN ? "BUF_PIN" : "BUF_ALLOC", err);
}

/* a new buffer of @c goes on its list, where transfers look for it */
static void buf_link(struct ipu__card *c, struct ipu_buffer *b)
{
	b->next = c->bufs;
	c->bufs = b;
}

/* BUF_ALLOC and mmap of @b->size bytes, not on the card's list */
static int buf_alloc(struct ipu_device *dev, struct ipu_buffer *b,
		     struct ipu_error *err)
{
	struct ipu__card *c = dev->priv;
	struct ipu_buf ib;
	void *p;
	int r;

	r = buf_new(dev, IPU_IOCTL_BUF_ALLOC, b, &ib, err);
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

int ipu__card_buffer_alloc(struct ipu_device *dev, struct ipu_buffer *b,
			   struct ipu_error *err)
{
	int r = buf_alloc(dev, b, err);

	if (!r)
		buf_link(dev->priv, b);
	return r;
}

int ipu__card_bounce(struct ipu_device *dev, struct ipu_error *err)
{
	struct ipu__card *c = dev->priv;
	struct ipu_buffer *b;
	struct ipu_info info;
	uint64_t gen;
	int r;

	/* Read before BUF_ALLOC: a reset in between is seen next time. */
	r = ipu__card_get_info(dev, &info, err);
	if (r)
		return r;
	gen = info.generation;	/* 0 before uAPI 1.8 */
	if (c->bounce && c->bounce_gen == gen)
		return 0;
	if (c->bounce)
		ipu__card_buffer_free(dev, c->bounce);
	b = calloc(1, sizeof(*b));
	if (!b)
		return ipu__err(err, -ENOMEM, "bounce buffer on %s: out of memory",
				dev->name);
	b->dev = dev;
	b->size = IPU__BOUNCE_SIZE;
	r = buf_alloc(dev, b, err);
	if (r) {
		free(b);
		return r;
	}
	c->bounce = b;
	c->bounce_gen = gen;
	return 0;
}

int ipu__card_buffer_pin(struct ipu_device *dev, struct ipu_buffer *b,
			 struct ipu_error *err)
{
	struct ipu_buf ib;
	int r;

	r = buf_new(dev, IPU_IOCTL_BUF_PIN, b, &ib, err);
	if (r)
		return r;
	b->handle = ib.handle;
	b->kind = IPU__BUF_PINNED;
	buf_link(dev->priv, b);
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
