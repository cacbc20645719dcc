// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: contexts (one per open file), ATTACH and DETACH.
 * One context per card is attached at a time; it owns one of the card's
 * queues, its buffers and its commands until DETACH, close or remove.
 */
#include <linux/eventfd.h>
#include <linux/fs.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipu_drv.h"

#define IPU_ATTACH_SIZE_V1	offsetofend(struct ipu_attach, reserved)

int ipu_ctx_open(struct ipu_device *idev, struct file *filp)
{
	struct ipu_ctx *ctx;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->idev = idev;
	mutex_init(&ctx->mutex);
	xa_init_flags(&ctx->bufs, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&ctx->cmds);
	INIT_LIST_HEAD(&ctx->binds);
	INIT_LIST_HEAD(&ctx->stale_binds);
	ctx->uq_id = -1;
	ctx->mapping = filp->f_mapping;
	filp->private_data = ctx;
	mutex_lock(&idev->ctxs_lock);
	list_add_tail(&ctx->node, &idev->ctxs);
	mutex_unlock(&idev->ctxs_lock);
	return 0;
}

/*
 * Ends the attachment. Caller holds attach_lock and ctx->mutex; ctx is
 * attached. The card lets go of the user queue and then of the queue
 * (ipu_queue_drain(): it confirms it stopped, or is halted), then
 * commands, buffers and rings are freed and the next waiter may attach.
 * The user queue's pages stay until release: the process may still map
 * them (remove ends their DMA mapping).
 */
void ipu_ctx_detach_locked(struct ipu_ctx *ctx)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_queue *q = ctx->q;
	struct eventfd_ctx *efd;
	unsigned long flags;

	down_read(&idev->hw_rwsem);
	/*
	 * Holding hw_rwsem, the BAR is mapped even if gone was just set:
	 * remove waits for us before it stops the queues itself.
	 */
	ipu_uqueue_stop(ctx);
	ipu_queue_drain(q);
	/*
	 * The graph, its data and the streams bound to our buffers (a halted
	 * card keeps them until the RESET that gives it back its DMA).
	 */
	if (!READ_ONCE(idev->gone) && !READ_ONCE(idev->halted))
		ipu_queue_release_card(q);
	up_read(&idev->hw_rwsem);

	ipu_cmds_teardown(ctx);
	ipu_binds_teardown(ctx);
	ipu_bufs_free_all(ctx);

	spin_lock_irqsave(&q->lock, flags);
	efd = ctx->eventfd;
	ctx->eventfd = NULL;
	spin_unlock_irqrestore(&q->lock, flags);
	if (efd)
		eventfd_ctx_put(efd);

	ipu_queue_free(q);
	WRITE_ONCE(ctx->attach_gen, ctx->attach_gen + 1);
	ctx->attached = false;
	ctx->q = NULL;
	idev->attached = NULL;
	wake_up_all(&q->wq);
	wake_up_all(&idev->attach_wq);
}

/*
 * The entry guard of every ioctl that needs an attached context: takes
 * ctx->mutex and checks, once for all of them, that the card is still
 * there and @ctx attached to it. 0 with ctx->mutex held (the caller drops
 * it), or -ENODEV / -ENOTCONN without it.
 */
int ipu_ctx_enter(struct ipu_ctx *ctx)
{
	int ret = 0;

	mutex_lock(&ctx->mutex);
	if (READ_ONCE(ctx->idev->gone))
		ret = -ENODEV;
	else if (!ctx->attached)
		ret = -ENOTCONN;
	if (ret)
		mutex_unlock(&ctx->mutex);
	return ret;
}

/* Detaches @ctx if it still is attached. Caller holds idev->attach_lock. */
void ipu_ctx_detach_if_attached(struct ipu_ctx *ctx)
{
	mutex_lock(&ctx->mutex);
	if (ctx->attached)
		ipu_ctx_detach_locked(ctx);
	mutex_unlock(&ctx->mutex);
}

void ipu_ctx_release(struct ipu_ctx *ctx)
{
	struct ipu_device *idev = ctx->idev;

	mutex_lock(&idev->attach_lock);
	ipu_ctx_detach_if_attached(ctx);
	mutex_unlock(&idev->attach_lock);
	ipu_group_end(ctx);	/* a leader's members, after its own lock */
	/*
	 * Under ctxs_lock: remove either unmapped the user queue's rings
	 * already or waits until they are unmapped here, with the device
	 * still there.
	 */
	mutex_lock(&idev->ctxs_lock);
	list_del(&ctx->node);
	ipu_uqueue_free(ctx);
	mutex_unlock(&idev->ctxs_lock);
	kfree(ctx->spare_cmd);
	xa_destroy(&ctx->bufs);
	mutex_destroy(&ctx->mutex);
	kfree(ctx);
}

/*
 * remove: after the queues were stopped. Detaches whoever is attached and
 * ends every DMA mapping an open file still has (the user queue's rings):
 * nothing DMA-related outlives remove.
 */
void ipu_ctx_remove(struct ipu_device *idev)
{
	struct ipu_ctx *ctx;

	mutex_lock(&idev->attach_lock);
	ctx = idev->attached;
	if (ctx)
		ipu_ctx_detach_if_attached(ctx);
	wake_up_all(&idev->attach_wq);
	mutex_unlock(&idev->attach_lock);

	mutex_lock(&idev->ctxs_lock);
	list_for_each_entry(ctx, &idev->ctxs, node) {
		mutex_lock(&ctx->mutex);
		ipu_uqueue_unmap(ctx);
		mutex_unlock(&ctx->mutex);
	}
	mutex_unlock(&idev->ctxs_lock);
}

/*
 * Attaches @ctx: a queue of its own on the card. Caller holds attach_lock,
 * and the card has no attached context. 0, -ENODEV, or the queue's error.
 */
int ipu_ctx_attach_locked(struct ipu_ctx *ctx)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_queue *q;
	int ret;

	mutex_lock(&ctx->mutex);
	q = &idev->queues[idev->next_queue];
	down_read(&idev->hw_rwsem);
	if (READ_ONCE(idev->gone))
		ret = -ENODEV;
	else
		ret = ipu_queue_start(q, ctx);
	up_read(&idev->hw_rwsem);
	if (!ret) {
		idev->next_queue = (idev->next_queue + 1) % IPU_NUM_QUEUES;
		/* Named to whoever tries to reset the card meanwhile. */
		ctx->holder_pid = task_tgid_nr(current);
		get_task_comm(ctx->holder_comm, current);
		ctx->holder_uid = current_uid();
		ctx->q = q;
		ctx->attached = true;
		idev->attached = ctx;
	}
	mutex_unlock(&ctx->mutex);
	return ret;
}

static bool ipu_attach_possible(struct ipu_device *idev)
{
	return !READ_ONCE(idev->attached) || READ_ONCE(idev->gone);
}

long ipu_ioctl_attach(struct ipu_ctx *ctx, struct file *filp,
		      void __user *uarg)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_attach at;
	u32 usize;
	int ret;

	if (!(filp->f_mode & FMODE_WRITE))
		return -EPERM;
	ret = ipu_args_in(&at, sizeof(at), IPU_ATTACH_SIZE_V1,
			  IPU_ATTACH_FLAGS_ALL, uarg, &usize);
	if (ret)
		return ret;
	if (at.reserved)
		return -EINVAL;

	for (;;) {
		if (mutex_lock_interruptible(&idev->attach_lock))
			return -ERESTARTSYS;
		if (READ_ONCE(idev->gone)) {
			ret = -ENODEV;
			goto out_attach;
		}
		if (idev->attached == ctx) {
			ret = -EALREADY;
			goto out_attach;
		}
		if (!idev->attached)
			break;
		mutex_unlock(&idev->attach_lock);
		if (at.flags & IPU_ATTACH_FLAG_NONBLOCK)
			return -EBUSY;
		if (wait_event_interruptible(idev->attach_wq,
					     ipu_attach_possible(idev)))
			return -ERESTARTSYS;
	}

	/* attach_lock held, the card free. */
	ret = ipu_ctx_attach_locked(ctx);
	if (!ret) {
		at.queue = ctx->q->index;
		ret = ipu_args_out(uarg, &at, sizeof(at), usize);
		if (ret)
			ipu_ctx_detach_if_attached(ctx);
	}
out_attach:
	mutex_unlock(&idev->attach_lock);
	return ret;
}

long ipu_ioctl_detach(struct ipu_ctx *ctx, void __user *uarg)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_attach at;
	u32 usize;
	int ret;

	ret = ipu_args_in(&at, sizeof(at), IPU_ATTACH_SIZE_V1, 0, uarg, &usize);
	if (ret)
		return ret;
	if (at.reserved)
		return -EINVAL;

	mutex_lock(&idev->attach_lock);
	ret = ipu_ctx_enter(ctx);
	if (!ret) {
		ipu_ctx_detach_locked(ctx);
		mutex_unlock(&ctx->mutex);
	}
	mutex_unlock(&idev->attach_lock);
	if (!ret)
		ipu_group_end(ctx);
	return ret;
}
