// SPDX-License-Identifier: MIT
/*
 * libipudev's front end: the device handle and every public call on an
 * open device or its buffers (info, reset, load, tensors, programs,
 * streams, transfers, runs, buffers). Each checks its generic arguments
 * and dispatches through the backend's struct ipu_backend_ops (internal.h);
 * the backends (the card: card*.c, the model device: model_device.c) hold
 * only their ops and their constructors ipu_device_open() and
 * ipu_model_open(). Objects of their own keep their files: enumeration
 * (enumerate.c), the builder (builder.c, partition.c), errors (error.c),
 * .npy (npy.c), PCI information (pci_info.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "internal.h"
#include "ipu/graph_format.h"

#define IPU__BUF_MAX	(1ull << 30)	/* the driver's limit per buffer */

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

int ipu__err_index(struct ipu_error *err, const struct ipu_device *dev,
		   const char *what, unsigned k, unsigned n,
		   const char *things)
{
	return ipu__err(err, -ERANGE,
			"%s %u on %s: out of range (the graph has %u %s)", what,
			k, dev->name, n, things);
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
	out->ipus = 1;		/* a backend of several IPUs says so */
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
/* Graphs, tensors, programs, streams, runs                                 */

#define NEED(dev, slot, what)						\
	do {								\
		if (!(dev))						\
			return ipu__err(err, -EINVAL, "%s: device is NULL", what); \
		if (!(dev)->ops->slot)					\
			return ipu__no_slot((dev), what, err);		\
	} while (0)

IPU_API int ipu_load(struct ipu_device *dev, const void *buf, size_t len, struct ipu_error *err)
{
	return ipu_load_ex(dev, buf, len, 0, NULL, err);
}

IPU_API int ipu_load_ex(struct ipu_device *dev, const void *buf, size_t len, unsigned flags,
			struct ipu_load_info *info, struct ipu_error *err)
{
	struct ipu_load_info local;
	int r;

	NEED(dev, load, "load");
	if (!buf || len < sizeof(struct ipu_graph_header))
		return ipu__err(err, -EINVAL, "load on %s: %zu bytes are no graph binary", dev->name, len);
	if (flags & ~IPU_LOAD_VALID_FLAGS)
		return ipu__err(err, -EINVAL, "load on %s: unknown flags 0x%x (valid: 0x%x)", dev->name,
				flags & ~IPU_LOAD_VALID_FLAGS, IPU_LOAD_VALID_FLAGS);
	memset(&local, 0, sizeof(local));
	r = dev->ops->load(dev, buf, len, flags, &local, err);
	if (info)
		*info = local;
	return r;
}

IPU_API int ipu_load_file(struct ipu_device *dev, const char *path, struct ipu_error *err)
{
	void *b;
	size_t n;
	int r, step;

	NEED(dev, load, "load");
	if (!path)
		return ipu__err(err, -EINVAL, "load on %s: no path", dev->name);
	r = ipu__file_read(path, &b, &n, &step);
	if (r && step == IPU__FILE_OPEN)
		return ipu__err_sys(err, r, "open %s", path);
	if (r == -ENOMEM)
		return ipu__err(err, r, "load %s: out of memory", path);
	if (r)
		return ipu__err(err, r, "read %s: I/O error", path);
	r = ipu_load(dev, b, n, err);
	free(b);
	if (r && err) {
		char m[2 * IPU_ERROR_MSG_MAX];

		snprintf(m, sizeof(m), "%s: %s", path, err->msg);
		ipu__strlcpy(err->msg, m, sizeof(err->msg));
	}
	return r;
}

IPU_API int ipu_tensor_count(struct ipu_device *dev, struct ipu_error *err)
{
	NEED(dev, tensor_count, "tensors");
	return dev->ops->tensor_count(dev, err);
}

IPU_API int ipu_tensor_info(struct ipu_device *dev, unsigned index, struct ipu_tensor_info *out,
			    struct ipu_error *err)
{
	NEED(dev, tensor_info, "tensor info");
	if (!out)
		return ipu__err(err, -EINVAL, "tensor info: out is NULL");
	return dev->ops->tensor_info(dev, index, out, err);
}

IPU_API int ipu_tensor_lookup(struct ipu_device *dev, const char *name, struct ipu_tensor_info *out,
			      struct ipu_error *err)
{
	char names[160];
	size_t used = 0;
	int n;

	NEED(dev, tensor_info, "tensor lookup");
	if (!name || !out)
		return ipu__err(err, -EINVAL, "tensor lookup: NULL argument");
	n = ipu_tensor_count(dev, err);
	if (n < 0)
		return n;
	names[0] = 0;
	for (int i = 0; i < n; i++) {
		int r = dev->ops->tensor_info(dev, (unsigned)i, out, err);

		if (r)
			return r;
		if (!strcmp(out->name, name))
			return 0;
		if (used < sizeof(names) - 1) {
			int k = snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "", out->name);

			used += k > 0 ? (size_t)k : 0;
			if (used >= sizeof(names))
				used = sizeof(names) - 1;
		}
	}
	memset(out, 0, sizeof(*out));
	return ipu__err(err, -ENOENT, "no tensor '%s' in the loaded graph (host-visible: %s)", name,
			n ? names : "none");
}

/* Tensor @name of the loaded graph, if the host may write (@wr) or read it. */
static int lookup_io(struct ipu_device *dev, const char *name, int wr, struct ipu_tensor_info *ti,
		     struct ipu_error *err)
{
	int r = ipu_tensor_lookup(dev, name, ti, err);

	if (r)
		return r;
	if (!(ti->access & (wr ? IPU_HANDLE_WRITE : IPU_HANDLE_READ)))
		return ipu__err(err, -EACCES, "tensor '%s' on %s: the host may not %s it (handle is %s)",
				name, dev->name, wr ? "write" : "read", wr ? "read-only" : "write-only");
	return 0;
}

static int tensor_io(struct ipu_device *dev, const char *name, void *data, size_t bytes, int wr,
		     struct ipu_error *err)
{
	struct ipu_tensor_info ti;
	int r;

	if (!name || (!data && bytes))
		return ipu__err(err, -EINVAL, "tensor %s: NULL argument", wr ? "write" : "read");
	r = lookup_io(dev, name, wr, &ti, err);
	if (r)
		return r;
	if (bytes != ti.bytes)
		return ipu__err(err, -EINVAL, "tensor '%s' on %s: %zu bytes given, the tensor has %llu "
				"(%llu x %s)", name, dev->name, bytes, (unsigned long long)ti.bytes,
				(unsigned long long)ti.elements, ipu_dtype_name(ti.dtype));
	if (wr)
		return dev->ops->tensor_write(dev, ti.index, 0, data, bytes, err);
	return dev->ops->tensor_read(dev, ti.index, 0, data, bytes, err);
}

IPU_API int ipu_tensor_write(struct ipu_device *dev, const char *name, const void *data, size_t bytes,
			     struct ipu_error *err)
{
	NEED(dev, tensor_write, "tensor write");
	return tensor_io(dev, name, (void *)(uintptr_t)data, bytes, 1, err);
}

IPU_API int ipu_tensor_read(struct ipu_device *dev, const char *name, void *data, size_t bytes,
			    struct ipu_error *err)
{
	NEED(dev, tensor_read, "tensor read");
	return tensor_io(dev, name, data, bytes, 0, err);
}

IPU_API int ipu_program_count(struct ipu_device *dev, struct ipu_error *err)
{
	NEED(dev, program_count, "programs");
	return dev->ops->program_count(dev, err);
}

IPU_API int ipu_program_name(struct ipu_device *dev, unsigned k, char *buf, size_t size,
			     struct ipu_error *err)
{
	NEED(dev, program_name, "program name");
	if (!buf || !size)
		return ipu__err(err, -EINVAL, "program name: no buffer");
	return dev->ops->program_name(dev, k, buf, size, err);
}

IPU_API int ipu_program_find(struct ipu_device *dev, const char *name, struct ipu_error *err)
{
	char b[256];
	int n;

	NEED(dev, program_name, "program lookup");
	if (!name)
		return ipu__err(err, -EINVAL, "program lookup: no name");
	n = ipu_program_count(dev, err);
	if (n < 0)
		return n;
	for (int k = 0; k < n; k++)
		if (!dev->ops->program_name(dev, (unsigned)k, b, sizeof(b), err) && !strcmp(b, name))
			return k;
	return ipu__err(err, -ENOENT, "no program '%s' in the loaded graph (%d programs)", name, n);
}

IPU_API int ipu_stream_bind(struct ipu_device *dev, const char *name, struct ipu_buffer *buf,
			    size_t offset, size_t bytes, struct ipu_error *err)
{
	NEED(dev, stream_bind, "stream bind");
	if (!name)
		return ipu__err(err, -EINVAL, "stream bind: no name");
	if (!buf != !bytes)
		return ipu__err(err, -EINVAL,
				"stream '%s': a ring needs a buffer and a size (both NULL/0 unbind)", name);
	if (buf && buf->dev != dev)
		return ipu__err(err, -EINVAL, "stream '%s': the buffer belongs to another device", name);
	return dev->ops->stream_bind(dev, name, buf, offset, bytes, err);
}

IPU_API int ipu_stream_connect(struct ipu_device *dev, const char *name,
			       const struct ipu_stream_callbacks *cb, struct ipu_error *err)
{
	NEED(dev, stream_connect, "stream connect");
	if (!name)
		return ipu__err(err, -EINVAL, "stream connect: no name");
	return dev->ops->stream_connect(dev, name, cb, err);
}

/* ipu_run_start(), or with @finish the first half of ipu_run(). */
static int run_start(struct ipu_device *dev, unsigned program, uint64_t count, int finish,
		     struct ipu_error *err)
{
	NEED(dev, run, "run");
	if (count > UINT32_MAX)
		return ipu__err(err, -EINVAL, "run on %s: count %llu exceeds %u", dev->name,
				(unsigned long long)count, UINT32_MAX);
	return dev->ops->run(dev, program, count ? (uint32_t)count : 1, finish, err);
}

IPU_API int ipu_run_start(struct ipu_device *dev, unsigned program, uint64_t count,
			  struct ipu_error *err)
{
	return run_start(dev, program, count, 0, err);
}

IPU_API int ipu_wait(struct ipu_device *dev, unsigned timeout_ms, struct ipu_run_stats *stats,
		     struct ipu_error *err)
{
	int r;

	NEED(dev, wait, "wait");
	r = dev->ops->wait(dev, timeout_ms, err);
	if (stats) {
		memset(stats, 0, sizeof(*stats));
		if (dev->ops->run_stats)
			dev->ops->run_stats(dev, stats);
	}
	return r;
}

IPU_API int ipu_run(struct ipu_device *dev, unsigned program, uint64_t count,
		    struct ipu_run_stats *stats, struct ipu_error *err)
{
	int r = run_start(dev, program, count, 1, err);

	if (r) {
		if (stats)
			memset(stats, 0, sizeof(*stats));
		return r;
	}
	return ipu_wait(dev, 0, stats, err);
}

/* ------------------------------------------------------------------------ */
/* Buffers                                                                  */

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
/* Ranged and asynchronous transfers                                        */

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
	r = lookup_io(dev, name, wr, &ti, err);
	if (r)
		return r;
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
