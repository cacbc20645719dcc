// SPDX-License-Identifier: MIT
/*
 * libipudev: the "group" backend, a multi-IPU device made of member cards
 * (docs/libipudev.md "Running a multi-IPU graph on a group of cards"). It
 * holds an open struct ipu_group and sends every call to its members' card
 * backends: LOAD with the group's member mask, WRITE and READ to every
 * member (each card moves the bytes on its own tiles), and RUN: with a
 * driver of uAPI 1.7 and a group attached by GROUP_ATTACH, one group RUN
 * on member 0 (the leader) that the driver submits to every member and
 * completes once with the cause's status (docs/uapi.md "Group commands");
 * with an older driver, RUN on every member and then every completion
 * collected here. Tensors and programs are member 0's: every member loaded
 * the same binary. A stream is bound on the member whose IPU holds its
 * StreamCopy's tensor, the one that moves its transfers
 * (docs/graph-format.md "Multi-IPU binaries"): the ring's bytes are pinned
 * on that card alone, since two cards may not both map memory they write
 * (the driver's one-mapping rule, docs/uapi.md "Buffers").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "card.h"
#include "group_internal.h"

/* A bound stream: the member serving it and its pin of the ring. */
struct ipu__gbind {
	struct ipu__gbind *next;
	unsigned stream;		/* the loaded graph's stream index */
	unsigned member;
	struct ipu_buffer *pin;		/* member's, of the ring's bytes */
};

struct ipu__gdev {
	struct ipu_group *group;	/* owned: closes the members */
	unsigned size;
	uint64_t mask;			/* fabric index bits of the members */
	struct ipu__gbind *binds;	/* owned: the streams bound now */
	int kgroup;			/* the driver runs group commands */
};

static struct ipu__gdev *gdev_of(struct ipu_device *dev)
{
	return dev->priv;
}

static void gbind_drop_all(struct ipu_device *dev);

static struct ipu_device *member(struct ipu_device *dev, unsigned k)
{
	return ipu_group_member(gdev_of(dev)->group, k);
}

static void gdev_close(struct ipu_device *dev)
{
	struct ipu__gdev *g = gdev_of(dev);

	/* the pins are the members' buffers: closing the members frees them */
	while (g->binds) {
		struct ipu__gbind *e = g->binds;

		g->binds = e->next;
		free(e);
	}
	ipu_group_close(g->group);
	free(g);
}

static int gdev_info(struct ipu_device *dev, struct ipu_device_info *out,
		     struct ipu_error *err)
{
	struct ipu_device *m = member(dev, 0);
	int r = m->ops->info(m, out, err);

	out->id = dev->id;
	out->ipus = gdev_of(dev)->size;
	ipu__strlcpy(out->backend, "group", sizeof(out->backend));
	return r;
}

/* Every member; the first failure is the one reported, the rest go on. */
static int gdev_reset(struct ipu_device *dev, unsigned timeout_ms,
		      unsigned flags, struct ipu_reset_result *out,
		      struct ipu_error *err)
{
	int ret = 0;

	gbind_drop_all(dev);
	for (unsigned k = 0; k < gdev_of(dev)->size; k++) {
		struct ipu_device *m = member(dev, k);
		int r = m->ops->reset(m, timeout_ms, flags, out, ret ? NULL : err);

		if (r && !ret)
			ret = r;
	}
	return ret;
}

static int gdev_load(struct ipu_device *dev, const void *image, size_t size,
		     unsigned flags, struct ipu_load_info *info,
		     struct ipu_error *err)
{
	struct ipu__gdev *g = gdev_of(dev);

	gbind_drop_all(dev);
	for (unsigned k = 0; k < g->size; k++) {
		int r = ipu__card_load_mask(member(dev, k), image, size, flags,
					    g->mask, info, err);

		if (r)
			return r;
	}
	return 0;
}

/*
 * WRITE or READ of the same range on every member, one after the other:
 * each card moves the bytes on its own tiles, so the members' READs into
 * @p write disjoint bytes.
 */
static int gdev_xfer(struct ipu_device *dev, int wr, uint32_t tensor,
		     uint64_t offset, void *p, size_t len, struct ipu_error *err)
{
	int r = 0;

	for (unsigned k = 0; k < gdev_of(dev)->size && !r; k++)
		r = wr ? ipu__card_tensor_write(member(dev, k), tensor, offset, p, len, err)
		       : ipu__card_tensor_read(member(dev, k), tensor, offset, p, len, err);
	return r;
}

static int gdev_write(struct ipu_device *dev, uint32_t tensor, uint64_t offset,
		      const void *src, size_t len, struct ipu_error *err)
{
	return gdev_xfer(dev, 1, tensor, offset, (void *)src, len, err);
}

static int gdev_read(struct ipu_device *dev, uint32_t tensor, uint64_t offset,
		     void *dst, size_t len, struct ipu_error *err)
{
	return gdev_xfer(dev, 0, tensor, offset, dst, len, err);
}

/*
 * RUN on every member. A member that cannot start makes the others' runs
 * end at their first external sync (SYNC_TIMEOUT); they are collected
 * here, so that the device is ready for the next run.
 */
static int gdev_run(struct ipu_device *dev, uint32_t program, uint32_t count,
		    int finish, struct ipu_error *err)
{
	unsigned k, n = gdev_of(dev)->size;
	int r = 0;

	(void)finish;	/* the members finish together: start them all first */
	if (gdev_of(dev)->kgroup)
		return ipu__card_run_group(member(dev, 0), program, count, err);
	for (k = 0; k < n && !r; k++)
		r = ipu__card_run(member(dev, k), program, count, 0, err);
	if (!r)
		return 0;
	while (k-- > 1)
		(void)ipu__card_wait(member(dev, k - 1), 0, NULL);
	return r;
}

/*
 * The driver's group RUN (uAPI 1.7): its one completion on the leader
 * carries the cause (the same rule as below) and the member it came from,
 * which the message names.
 */
static int gdev_wait_group(struct ipu_device *dev, unsigned timeout_ms,
			   struct ipu_error *err)
{
	struct ipu_device *lead = member(dev, 0);
	struct ipu_error e = { 0 };
	int r = ipu__card_wait(lead, timeout_ms, &e);
	uint32_t k = ipu__card_run_member(lead);

	if (!r || r == -ETIMEDOUT || k >= gdev_of(dev)->size) {
		if (err && r)
			*err = e;
		return r;
	}
	return ipu__err(err, r, "%s (member %u, %s)", e.msg, k,
			member(dev, k)->name);
}

/*
 * Collect every member's run. The error reported is the cause, not its
 * echoes: the first member's whose status is not ABORTED or SYNC_TIMEOUT
 * (the others' ending because of it), else the first member's.
 */
static int gdev_wait(struct ipu_device *dev, unsigned timeout_ms,
		     struct ipu_error *err)
{
	struct ipu_error first = { 0 }, cause = { 0 };
	int r_first = 0, r_cause = 0;

	if (gdev_of(dev)->kgroup)
		return gdev_wait_group(dev, timeout_ms, err);
	for (unsigned k = 0; k < gdev_of(dev)->size; k++) {
		struct ipu_error e = { 0 };
		int r = ipu__card_wait(member(dev, k), timeout_ms, &e);

		if (r && !r_first) {
			r_first = r;
			first = e;
		}
		if (r && !r_cause && r != -ECANCELED && r != -ETIMEDOUT) {
			r_cause = r;
			cause = e;
		}
	}
	if (r_cause) {
		if (err)
			*err = cause;
		return r_cause;
	}
	if (r_first && err)
		*err = first;
	return r_first;
}

static void gdev_run_stats(struct ipu_device *dev, struct ipu_run_stats *out)
{
	ipu__card_run_stats(member(dev, 0), out);
}

static int gdev_tensor_count(struct ipu_device *dev, struct ipu_error *err)
{
	return ipu__card_tensor_count(member(dev, 0), err);
}

static int gdev_tensor_info(struct ipu_device *dev, unsigned index,
			    struct ipu_tensor_info *out, struct ipu_error *err)
{
	return ipu__card_tensor_info(member(dev, 0), index, out, err);
}

static int gdev_program_count(struct ipu_device *dev, struct ipu_error *err)
{
	return ipu__card_program_count(member(dev, 0), err);
}

static int gdev_program_name(struct ipu_device *dev, unsigned k, char *buf,
			     size_t size, struct ipu_error *err)
{
	return ipu__card_program_name(member(dev, 0), k, buf, size, err);
}

/* ------------------------------------------------------------------------ */
/* Streams                                                                  */

/* Unbind stream @stream where it is bound and release its pin. */
static void gbind_drop(struct ipu_device *dev, unsigned stream, const char *name)
{
	struct ipu__gdev *g = gdev_of(dev);

	for (struct ipu__gbind **pp = &g->binds; *pp; pp = &(*pp)->next) {
		struct ipu__gbind *e = *pp;

		if (e->stream != stream)
			continue;
		if (name)
			(void)ipu__card_stream_bind(member(dev, e->member), name, NULL, 0, 0, NULL);
		ipu_buffer_free(e->pin);
		*pp = e->next;
		free(e);
		return;
	}
}

/* Unbind every stream and release the pins (before a LOAD or a reset). */
static void gbind_drop_all(struct ipu_device *dev)
{
	struct ipu__gdev *g = gdev_of(dev);
	const struct ipu__graph_table *t = &ipu__card_of(member(dev, 0))->g;

	while (g->binds) {
		unsigned s = g->binds->stream;

		gbind_drop(dev, s, s < t->nstreams ? t->streams[s].name : NULL);
	}
}

/*
 * Bind @name on the member serving it (its StreamCopy's IPU; member 0 for
 * a stream no StreamCopy uses): pin the ring's bytes on that card and
 * STREAM_BIND it there. A new ring replaces the old binding; NULL unbinds.
 */
static int gdev_stream_bind(struct ipu_device *dev, const char *name,
			    struct ipu_buffer *buf, size_t offset, size_t bytes,
			    struct ipu_error *err)
{
	struct ipu__gdev *g = gdev_of(dev);
	const struct ipu__graph_table *t = &ipu__card_of(member(dev, 0))->g;
	struct ipu__gbind *e;
	unsigned s, k;
	int r = ipu__card_need_loaded(member(dev, 0), "stream bind", err);

	if (r)
		return r;
	for (s = 0; s < t->nstreams && strcmp(t->streams[s].name, name); s++)
		;
	if (s == t->nstreams)
		return ipu__err(err, -ENOENT, "stream '%s' on %s: no such stream in the loaded graph",
				name, dev->name);
	k = t->streams[s].ipu > 0 ? (unsigned)t->streams[s].ipu : 0;
	if (k >= g->size)
		return ipu__err(err, -EINVAL, "stream '%s' on %s: its tensor is on IPU %u of %u",
				name, dev->name, k, g->size);
	gbind_drop(dev, s, name);
	if (!buf)
		return 0;
	if (offset > buf->size || bytes > buf->size - offset)
		return ipu__err(err, -ERANGE,
				"stream '%s' on %s: offset %zu + %zu bytes is beyond the buffer's %zu bytes",
				name, dev->name, offset, bytes, buf->size);
	e = calloc(1, sizeof(*e));
	if (!e)
		return ipu__err(err, -ENOMEM, "stream '%s' on %s: out of memory", name, dev->name);
	e->stream = s;
	e->member = k;
	r = ipu_buffer_pin(member(dev, k), (char *)buf->ptr + offset, bytes, &e->pin, err);
	if (!r)
		r = ipu__card_stream_bind(member(dev, k), name, e->pin, 0, bytes, err);
	if (r) {
		ipu_buffer_free(e->pin);
		free(e);
		return r;
	}
	e->next = g->binds;
	g->binds = e;
	return 0;
}

static const struct ipu_backend_ops gdev_ops = {
	.name = "group",
	.close = gdev_close,
	.info = gdev_info,
	.reset = gdev_reset,
	.load = gdev_load,
	.tensor_write = gdev_write,
	.tensor_read = gdev_read,
	.run = gdev_run,
	.wait = gdev_wait,
	.tensor_count = gdev_tensor_count,
	.tensor_info = gdev_tensor_info,
	.program_count = gdev_program_count,
	.program_name = gdev_program_name,
	.stream_bind = gdev_stream_bind,
	.run_stats = gdev_run_stats,
};

/*
 * Whether the driver behind the leader's file runs group commands (uAPI
 * 1.7 or later); an older one gets RUN member by member.
 */
static int driver_has_group_cmds(struct ipu_device *lead)
{
	struct ipu_info info = { .argsz = sizeof(info) };

	if (ioctl(ipu__card_of(lead)->fd, IPU_IOCTL_GET_INFO, &info))
		return 0;
	return (info.api_version >> 16) == IPU_API_VERSION_MAJOR &&
	       (info.api_version & 0xffff) >= IPU_API_MINOR_GROUP_CMDS;
}

/*
 * GROUP_ATTACH (uAPI 1.6) of the members, all or none, on member 0's file
 * (*@kgroup: the driver also runs group commands on it); a driver without
 * it (-ENOTTY): member after member, in member order (*@kgroup 0).
 */
static int group_attach(struct ipu_group *grp, unsigned id, unsigned flags,
			int *kgroup, struct ipu_error *err)
{
	unsigned n = ipu_group_size(grp);
	struct ipu_group_attach ga = { .argsz = sizeof(ga), .count = n - 1 };
	int32_t fds[IPU_GROUP_MAX_SIZE];
	int r = 0;

	for (unsigned k = 1; k < n; k++)
		fds[k - 1] = ipu__card_of(ipu_group_member(grp, k))->fd;
	ga.fds_ptr = (uintptr_t)fds;
	if (ioctl(ipu__card_of(ipu_group_member(grp, 0))->fd,
		  IPU_IOCTL_GROUP_ATTACH, &ga) == 0) {
		for (unsigned k = 0; k < n; k++)
			ipu__card_attached(ipu_group_member(grp, k), 0);
		*kgroup = driver_has_group_cmds(ipu_group_member(grp, 0));
		return 0;
	}
	if (errno == EBUSY && ga.busy_index < n)
		return ipu__err(err, -EBUSY,
				"attach device %u: %s is in use by process %d",
				id, ipu_group_member(grp, ga.busy_index)->name,
				(int)ga.busy_pid);
	if (errno != ENOTTY)
		return ipu__err_sys(err, -errno, "attach device %u: GROUP_ATTACH", id);
	for (unsigned k = 0; k < n && !r; k++)
		r = ipu__card_attach(ipu_group_member(grp, k),
				     flags & IPU_OPEN_NONBLOCK, err);
	return r;
}

IPU_API int ipu_group_device_open(unsigned id, unsigned flags,
				  struct ipu_device **out,
				  struct ipu_error *err)
{
	struct ipu_group *grp;
	struct ipu__gdev *g;
	int kgroup = 0;
	char name[32];
	int r;

	if (!out)
		return ipu__err(err, -EINVAL, "ipu_group_device_open: out must not be NULL");
	*out = NULL;
	r = ipu_group_open(id, flags & ~IPU_OPEN_ATTACH, &grp, err);
	if (r)
		return r;
	if (flags & IPU_OPEN_ATTACH) {
		r = ipu_group_size(grp) > 1 ? group_attach(grp, id, flags, &kgroup, err)
			: ipu__card_attach(ipu_group_member(grp, 0), flags & IPU_OPEN_NONBLOCK, err);
		if (r) {
			ipu_group_close(grp);
			return r;
		}
	}
	if (ipu_group_size(grp) == 1) {	/* a single IPU: its own device */
		r = ipu__group_take_member(grp, 0, out);
		ipu_group_close(grp);
		return r;
	}
	g = calloc(1, sizeof(*g));
	if (!g) {
		ipu_group_close(grp);
		return ipu__err(err, -ENOMEM, "open device %u: out of memory", id);
	}
	g->group = grp;
	g->size = ipu_group_size(grp);
	g->kgroup = kgroup;
	r = ipu__group_mask(grp, id, &g->mask, err);
	snprintf(name, sizeof(name), "device %u", id);
	if (!r)
		r = ipu__device_new(&gdev_ops, g, id, flags, name, out, err);
	if (r) {
		ipu_group_close(grp);
		free(g);
	}
	return r;
}
