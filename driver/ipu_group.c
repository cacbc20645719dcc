// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: multi-IPU groups (docs/uapi.md "Multi-IPU
 * groups"). GROUP_ATTACH attaches the leader's file and the other members'
 * files, all or none; the leader keeps a reference on each member file and
 * detaches those it attached when it detaches or is closed.
 *
 * Locking: ipu_group_mutex serialises group attaches and ends; under it,
 * each card's attach_lock is taken alone, in ascending minor order (never
 * two at once, so lockdep sees no nesting of the one lock class). A plain
 * ATTACH may therefore find a member busy that a failing group attach is
 * about to let go of: it waits, or gets -EBUSY with NONBLOCK, as for any
 * holder.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>

#include "ipu_drv.h"

#define IPU_GROUP_ATTACH_SIZE_V1	offsetofend(struct ipu_group_attach, reserved)

static DEFINE_MUTEX(ipu_group_mutex);

/* One member of an attach in progress: its file, context, list position. */
struct ipu_group_member {
	struct file *file;	/* NULL: the leader (no reference taken) */
	struct ipu_ctx *ctx;
	u32 index;		/* 0: leader, k: fds[k - 1] */
	bool attached;		/* attached by this call */
};

static int ipu_group_cmp(const void *a, const void *b)
{
	const struct ipu_group_member *x = a, *y = b;

	return x->ctx->idev->minor - y->ctx->idev->minor;
}

/* Takes a reference on the file behind @fd and checks it. 0 or -errno. */
static int ipu_group_get(int fd, struct ipu_group_member *m, u32 index)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (f->f_op != &ipu_fops) {
		fput(f);
		return -EINVAL;
	}
	if (!(f->f_mode & FMODE_WRITE)) {
		fput(f);
		return -EPERM;
	}
	m->file = f;
	m->ctx = f->private_data;
	m->index = index;
	return 0;
}

static void ipu_group_put_all(struct ipu_group_member *m, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (m[i].file)
			fput(m[i].file);
}

/* The members' files from user space, sorted by minor; 0 or -errno. */
static int ipu_group_collect(struct ipu_ctx *leader,
			     const struct ipu_group_attach *ga,
			     struct ipu_group_member *m)
{
	s32 fds[IPU_GROUP_MAX_OTHERS];
	unsigned int n = ga->count + 1;
	int ret;

	if (copy_from_user(fds, u64_to_user_ptr(ga->fds_ptr),
			   ga->count * sizeof(fds[0])))
		return -EFAULT;
	m[0] = (struct ipu_group_member){ .ctx = leader };
	for (unsigned int k = 1; k < n; k++) {
		ret = ipu_group_get(fds[k - 1], &m[k], k);
		if (ret) {
			ipu_group_put_all(m, k);
			return ret;
		}
	}
	sort(m, n, sizeof(m[0]), ipu_group_cmp, NULL);
	for (unsigned int i = 1; i < n; i++) {
		if (m[i].ctx->idev == m[i - 1].ctx->idev) {	/* one card twice */
			ipu_group_put_all(m, n);
			return -EINVAL;
		}
	}
	return 0;
}

/* Attach one member; its attach_lock alone. 0, -EBUSY (*pid), or -errno. */
static int ipu_group_attach_one(struct ipu_group_member *m, pid_t *pid)
{
	struct ipu_device *idev = m->ctx->idev;
	int ret;

	mutex_lock(&idev->attach_lock);
	if (READ_ONCE(idev->gone)) {
		ret = -ENODEV;
	} else if (idev->attached == m->ctx) {
		ret = -EALREADY;
	} else if (idev->attached) {
		*pid = idev->attached->holder_pid;
		ret = -EBUSY;
	} else {
		ret = ipu_ctx_attach_locked(m->ctx);
		m->attached = !ret;
	}
	mutex_unlock(&idev->attach_lock);
	return ret;
}

static void ipu_group_detach_one(struct ipu_ctx *ctx)
{
	struct ipu_device *idev = ctx->idev;

	mutex_lock(&idev->attach_lock);
	ipu_ctx_detach_if_attached(ctx);
	mutex_unlock(&idev->attach_lock);
}

/*
 * ipu_group_mutex held: attach every member in minor order; on a failure
 * detach those this call attached. 0, or the failure with ga->busy_* set.
 */
static int ipu_group_attach_all(struct ipu_group_member *m, unsigned int n,
				struct ipu_group_attach *ga)
{
	pid_t pid = 0;
	int ret = 0;

	for (unsigned int i = 0; i < n && !ret; i++) {
		ret = ipu_group_attach_one(&m[i], &pid);
		if (ret == -EBUSY) {
			ga->busy_index = m[i].index;
			ga->busy_pid = pid;
		}
	}
	if (!ret)
		return 0;
	for (unsigned int i = 0; i < n; i++)
		if (m[i].attached)
			ipu_group_detach_one(m[i].ctx);
	return ret;
}

long ipu_ioctl_group_attach(struct ipu_ctx *ctx, struct file *filp,
			    void __user *uarg)
{
	struct ipu_group_member m[IPU_GROUP_MAX_OTHERS + 1];
	struct ipu_group_attach ga;
	unsigned int n, j = 0;
	u32 usize;
	int ret;

	if (!(filp->f_mode & FMODE_WRITE))
		return -EPERM;
	ret = ipu_args_in(&ga, sizeof(ga), IPU_GROUP_ATTACH_SIZE_V1, 0, uarg,
			  &usize);
	if (ret)
		return ret;
	if (ga.reserved0 || ga.reserved[0] || ga.reserved[1] ||
	    ga.busy_index || ga.busy_pid || !ga.count ||
	    ga.count > IPU_GROUP_MAX_OTHERS)
		return -EINVAL;
	ret = ipu_group_collect(ctx, &ga, m);
	if (ret)
		return ret;
	n = ga.count + 1;

	mutex_lock(&ipu_group_mutex);
	ret = ctx->group_count ? -EALREADY : ipu_group_attach_all(m, n, &ga);
	if (!ret) {
		for (unsigned int i = 0; i < n; i++) {
			if (!m[i].file)
				continue;
			ctx->group_files[j] = m[i].file;	/* keeps the ref */
			ctx->group_index[j] = m[i].index;
			ctx->group_gens[j++] = READ_ONCE(m[i].ctx->attach_gen);
			m[i].file = NULL;
		}
		ctx->group_count = j;
	}
	mutex_unlock(&ipu_group_mutex);
	ipu_group_put_all(m, n);
	if (ret == -EBUSY) {
		/* say who holds it; the call fails with -EBUSY either way */
		if (ipu_args_out(uarg, &ga, sizeof(ga), usize))
			return -EFAULT;
	}
	return ret;
}

void ipu_group_end(struct ipu_ctx *ctx)
{
	mutex_lock(&ipu_group_mutex);
	for (unsigned int i = 0; i < ctx->group_count; i++) {
		struct file *f = ctx->group_files[i];
		struct ipu_ctx *mc = f->private_data;
		struct ipu_device *idev = mc->idev;

		mutex_lock(&idev->attach_lock);
		mutex_lock(&mc->mutex);
		/* only the attachment the group made, not a later one */
		if (mc->attached && mc->attach_gen == ctx->group_gens[i])
			ipu_ctx_detach_locked(mc);
		mutex_unlock(&mc->mutex);
		mutex_unlock(&idev->attach_lock);
		fput(f);
		ctx->group_files[i] = NULL;
	}
	ctx->group_count = 0;
	mutex_unlock(&ipu_group_mutex);
}

int ipu_group_lock(struct ipu_ctx *ctx, struct ipu_group_part *parts,
		   unsigned int *n)
{
	mutex_lock(&ipu_group_mutex);
	if (!ctx->group_count) {
		mutex_unlock(&ipu_group_mutex);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < ctx->group_count; i++) {
		parts[i].ctx = ctx->group_files[i]->private_data;
		parts[i].gen = ctx->group_gens[i];
		parts[i].index = ctx->group_index[i];
	}
	*n = ctx->group_count;
	return 0;
}

void ipu_group_unlock(void)
{
	mutex_unlock(&ipu_group_mutex);
}
