// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: commands. SUBMIT (sync and ASYNC), WAIT, poll(),
 * SET_EVENTFD, and the release of a command's DMA resources.
 *
 * A command is on ctx->cmds from SUBMIT until it is collected (a sync
 * SUBMIT's own wait, WAIT, or detach). Whoever unlinks it does so under
 * ctx->mutex and q->lock, and releases its DMA resources before it drops
 * ctx->mutex (so remove, which detaches under ctx->mutex, finds every DMA
 * resource either released or still on the list); the memory goes with the
 * last reference (the list's, and a sync submitter's while it waits).
 * Nothing reads a command it holds no reference to after dropping the lock
 * that kept it alive.
 */
#include <linux/dma-mapping.h>
#include <linux/eventfd.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipu_drv.h"
#include "ipu_trace.h"

#define IPU_CMD_SIZE_V1		offsetofend(struct ipu_cmd, reserved)
#define IPU_WAIT_SIZE_V1	offsetofend(struct ipu_wait, reserved)
#define IPU_EVENTFD_SIZE_V1	offsetofend(struct ipu_eventfd, reserved)
#define IPU_MAX_LENGTH		(IPU_MAX_TRANSFER_BYTES - 1)
/*
 * SUBMIT hands opcodes to the card and the card's completion statuses to
 * user space untranslated: the uAPI mirrors them value for value, and the
 * driver's own status lies outside the card's range.
 */
static_assert(IPU_CMD_LOAD == IPU_SQE_LOAD);
static_assert(IPU_CMD_WRITE == IPU_SQE_WRITE);
static_assert(IPU_CMD_READ == IPU_SQE_READ);
static_assert(IPU_CMD_RUN == IPU_SQE_RUN);
static_assert(IPU_CMD_FENCE == IPU_SQE_FENCE);
static_assert(IPU_CMD_ABORT == IPU_SQE_ABORT);
static_assert(IPU_CMD_STREAM_BIND == IPU_SQE_STREAM_BIND);
static_assert(IPU_STATUS_OK == IPU_CS_SUCCESS);
static_assert(IPU_STATUS_INVALID_OPCODE == IPU_CS_INVALID_OPCODE);
static_assert(IPU_STATUS_INVALID_FIELD == IPU_CS_INVALID_FIELD);
static_assert(IPU_STATUS_DMA_ERROR == IPU_CS_DMA_ERROR);
static_assert(IPU_STATUS_INVALID_SGL == IPU_CS_INVALID_SGL);
static_assert(IPU_STATUS_NO_GRAPH == IPU_CS_NO_GRAPH);
static_assert(IPU_STATUS_LOAD_FAILED == IPU_CS_LOAD_FAILED);
static_assert(IPU_STATUS_BAD_HANDLE == IPU_CS_BAD_HANDLE);
static_assert(IPU_STATUS_OUT_OF_RANGE == IPU_CS_OUT_OF_RANGE);
static_assert(IPU_STATUS_ACCESS == IPU_CS_ACCESS);
static_assert(IPU_STATUS_ABORTED == IPU_CS_ABORTED);
static_assert(IPU_STATUS_PROGRAM_ABORT == IPU_CS_PROGRAM_ABORT);
static_assert(IPU_STATUS_RUN_FAILED == IPU_CS_RUN_FAILED);
static_assert(IPU_STATUS_TOO_LARGE == IPU_CS_TOO_LARGE);
static_assert(IPU_STATUS_INTERNAL == IPU_CS_INTERNAL);
static_assert(IPU_STATUS_UNWRITTEN_INPUT == IPU_CS_UNWRITTEN_INPUT);
static_assert(IPU_STATUS_LINK_DOWN == IPU_CS_LINK_DOWN);
static_assert(IPU_STATUS_GROUP_BUSY == IPU_CS_GROUP_BUSY);
static_assert(IPU_STATUS_SYNC_TIMEOUT == IPU_CS_SYNC_TIMEOUT);
static_assert(IPU_STATUS_RESET > IPU_CS_INTERNAL);

/* Upper bound of poll_us: spinning longer than this is never worth it. */
#define IPU_POLL_US_MAX		10000

/*
 * Hybrid polling: a synchronous SUBMIT or a WAIT spins on its queue's
 * completion ring for up to poll_us microseconds before it sleeps until the
 * completion interrupt (docs/driver.md, "Waiting for commands").
 */
unsigned int poll_us = IPU_POLL_US_DEFAULT;
module_param(poll_us, uint, 0644);
MODULE_PARM_DESC(poll_us,
		 "Microseconds a synchronous SUBMIT or WAIT polls the completion ring before sleeping (0: never poll; default "
		 __stringify(IPU_POLL_US_DEFAULT) ", at most "
		 __stringify(IPU_POLL_US_MAX) ")");

/*
 * Completion interrupt delay of the card's queues (its COALESCE register),
 * taken when a queue is programmed: a polled completion within the delay
 * costs no interrupt; a sleeping waiter is woken at most this much later.
 */
unsigned int irq_delay_us = IPU_IRQ_DELAY_US_DEFAULT;
module_param(irq_delay_us, uint, 0644);
MODULE_PARM_DESC(irq_delay_us,
		 "Microseconds the card may delay a completion interrupt (0: none; default "
		 __stringify(IPU_IRQ_DELAY_US_DEFAULT) ", at most "
		 __stringify(IPU_IRQ_DELAY_US_MAX) ")");

/*
 * The last reference goes while the context lives (an ioctl of its file,
 * or its detach): one freed command is kept for the context's next SUBMIT.
 */
static void ipu_kcmd_free(struct kref *ref)
{
	struct ipu_kcmd *cmd = container_of(ref, struct ipu_kcmd, ref);

	if (cmd->grp)
		ipu_grun_put(cmd->grp);
	if (cmpxchg(&cmd->ctx->spare_cmd, NULL, cmd))
		kfree(cmd);
}

static struct ipu_kcmd *ipu_kcmd_alloc(struct ipu_ctx *ctx)
{
	struct ipu_kcmd *cmd = xchg(&ctx->spare_cmd, NULL);

	if (cmd)
		memset(cmd, 0, sizeof(*cmd));
	else
		cmd = kzalloc(sizeof(*cmd), GFP_KERNEL);
	if (cmd)
		cmd->ctx = ctx;
	return cmd;
}

void ipu_kcmd_put(struct ipu_kcmd *cmd)
{
	kref_put(&cmd->ref, ipu_kcmd_free);
}

/* Process context: a binding the card no longer uses (or never got). */
void ipu_sbind_free(struct ipu_device *idev, struct ipu_sbind *b)
{
	if (b->buf)
		atomic_dec(&b->buf->busy);
	if (b->sgl)
		dma_free_coherent(&idev->pdev->dev, b->sgl_bytes, b->sgl,
				  b->sgl_dma);
	kfree(b);
}

static void ipu_sbind_free_list(struct ipu_device *idev,
				struct list_head *list)
{
	struct ipu_sbind *b, *tmp;

	list_for_each_entry_safe(b, tmp, list, node) {
		list_del(&b->node);
		ipu_sbind_free(idev, b);
	}
}

/* ctx->mutex held: frees the bindings a card reset dropped. */
void ipu_binds_free_stale(struct ipu_ctx *ctx)
{
	unsigned long flags;
	LIST_HEAD(dead);

	/*
	 * Only a reset adds to the list: one that races with this look is
	 * freed at the next SUBMIT or at detach.
	 */
	if (!ctx->q || list_empty_careful(&ctx->stale_binds))
		return;
	spin_lock_irqsave(&ctx->q->lock, flags);
	list_splice_init(&ctx->stale_binds, &dead);
	spin_unlock_irqrestore(&ctx->q->lock, flags);
	ipu_sbind_free_list(ctx->idev, &dead);
}

/* Detach: the card dropped every binding (or is gone); free them all. */
void ipu_binds_teardown(struct ipu_ctx *ctx)
{
	unsigned long flags;
	LIST_HEAD(dead);

	spin_lock_irqsave(&ctx->q->lock, flags);
	list_splice_init(&ctx->binds, &dead);
	list_splice_init(&ctx->stale_binds, &dead);
	spin_unlock_irqrestore(&ctx->q->lock, flags);
	ipu_sbind_free_list(ctx->idev, &dead);
}

/* The card is done with @cmd (completed, or its queue stopped). */
void ipu_kcmd_release_res(struct ipu_device *idev, struct ipu_kcmd *cmd)
{
	struct device *dev = &idev->pdev->dev;

	if (cmd->sbind) {
		ipu_sbind_free(idev, cmd->sbind);
		cmd->sbind = NULL;
	}
	ipu_sbind_free_list(idev, &cmd->stale);

	if (cmd->umem) {
		ipu_dmamem_release(idev, cmd->umem);
		kfree(cmd->umem);
		cmd->umem = NULL;
	}
	if (cmd->sgl)
		dma_free_coherent(dev, cmd->sgl_bytes, cmd->sgl, cmd->sgl_dma);
	cmd->sgl = NULL;
	if (cmd->msg) {
		/*
		 * A refused graph's message outlives the card's buffer: its
		 * submitter may collect it after a DETACH released the command.
		 */
		if (READ_ONCE(cmd->state) == IPU_KCMD_DONE &&
		    cmd->status == IPU_STATUS_LOAD_FAILED) {
			memcpy(cmd->msg_text, cmd->msg, sizeof(cmd->msg_text));
			cmd->msg_text[sizeof(cmd->msg_text) - 1] = '\0';
			cmd->msg_saved = true;
		}
		dma_free_coherent(dev, IPU_LOAD_MSG_LEN, cmd->msg, cmd->msg_dma);
	}
	cmd->msg = NULL;
	atomic_dec(&idev->ncmds);
}

/* q->lock held: take @cmd off the context's list. */
static void ipu_kcmd_unlink_locked(struct ipu_ctx *ctx, struct ipu_kcmd *cmd)
{
	list_del(&cmd->node);
	cmd->in_list = false;
	ctx->ncmds--;
}

/*
 * Detach: the queue is stopped and every command is DONE. Unlinks and
 * releases them all; a sync submitter still waiting keeps its reference.
 */
void ipu_cmds_teardown(struct ipu_ctx *ctx)
{
	struct ipu_queue *q = ctx->q;
	struct ipu_kcmd *cmd, *tmp;
	unsigned long flags;
	LIST_HEAD(dead);

	spin_lock_irqsave(&q->lock, flags);
	list_for_each_entry_safe(cmd, tmp, &ctx->cmds, node) {
		ipu_kcmd_unlink_locked(ctx, cmd);
		list_add_tail(&cmd->node, &dead);
	}
	spin_unlock_irqrestore(&q->lock, flags);

	list_for_each_entry_safe(cmd, tmp, &dead, node) {
		list_del(&cmd->node);
		ipu_kcmd_release_res(ctx->idev, cmd);
		ipu_kcmd_put(cmd);
	}
}

/*
 * q->lock of @cmd's queue held, @cmd (a group command's part) just
 * completed: it reports to the group's record; a member's part also leaves
 * the member's list (RUN and ABORT hold no DMA resources, only the count)
 * and goes with the list's reference, the only one it has.
 */
void ipu_kcmd_group_done_locked(struct ipu_kcmd *cmd)
{
	struct ipu_ctx *ctx = cmd->ctx;
	u32 status = cmd->status;

	/* A removed member: its drain's ABORTED would read as an echo. */
	if (READ_ONCE(ctx->idev->gone))
		status = IPU_STATUS_RESET;
	ipu_grun_done(cmd->grp, cmd->gmember, status, cmd->detail,
		      cmd->detail2, cmd->gchild ? IPU_GRUN_MEMBER_LOCKED :
		      IPU_GRUN_LEADER_LOCKED);
	if (!cmd->gchild || !cmd->in_list)
		return;
	ipu_kcmd_unlink_locked(ctx, cmd);
	atomic_dec(&ctx->idev->ncmds);
	kref_put(&cmd->ref, ipu_kcmd_free);
}

/* A command WAIT may report: complete, and so every member of a group's. */
static bool ipu_kcmd_is_done(const struct ipu_kcmd *cmd)
{
	return READ_ONCE(cmd->state) == IPU_KCMD_DONE &&
	       (!cmd->grp || ipu_grun_complete(cmd->grp));
}

/* A refused LOAD's message to its user buffer: 0 or -EFAULT. */
static int ipu_kcmd_copy_msg(const struct ipu_kcmd *cmd)
{
	if (!cmd->msg_saved || !cmd->msg_ptr)
		return 0;
	if (copy_to_user(u64_to_user_ptr(cmd->msg_ptr), cmd->msg_text,
			 sizeof(cmd->msg_text)))
		return -EFAULT;
	return 0;
}

/*
 * A collected command: releases the DMA resources, copies the LOAD message
 * out. Returns 0 or -EFAULT (the message could not be written).
 */
static int ipu_kcmd_finish(struct ipu_ctx *ctx, struct ipu_kcmd *cmd)
{
	ipu_kcmd_release_res(ctx->idev, cmd);
	return ipu_kcmd_copy_msg(cmd);
}

/*
 * The fields an opcode does not use must be zero: the card's rule
 * (ipu_sqe_uses()) for the SQE field each uAPI field fills; then what the
 * driver needs of the ones it uses.
 */
static int ipu_cmd_check(const struct ipu_cmd *c)
{
	u32 uses = ipu_sqe_uses(c->opcode);

	if (c->reserved0 || memchr_inv(c->reserved, 0, sizeof(c->reserved)) ||
	    c->member || c->reserved1)
		return -EINVAL;
	if ((c->flags & IPU_CMD_FLAG_GROUP) && c->opcode != IPU_CMD_RUN &&
	    c->opcode != IPU_CMD_ABORT)
		return -EINVAL;
	if (c->opcode < IPU_CMD_LOAD || c->opcode > IPU_CMD_STREAM_BIND)
		return -EINVAL;
	if ((c->flags & IPU_CMD_FLAG_LOAD_COMMIT) && c->opcode != IPU_CMD_LOAD)
		return -EINVAL;
	if ((c->handle && !(uses & IPU_SQE_USES_HANDLE)) ||
	    (c->offset && !(uses & IPU_SQE_USES_OFFSET)) ||
	    (c->length && !(uses & IPU_SQE_USES_LENGTH)) ||
	    ((c->user_ptr || c->buf || c->buf_offset) &&
	     !(uses & IPU_SQE_USES_DATA)) ||
	    (c->count && !(uses & IPU_SQE_USES_COUNT)) ||
	    (c->msg_ptr && !(uses & IPU_SQE_USES_ARG)))
		return -EINVAL;
	if (c->opcode == IPU_CMD_STREAM_BIND) {
		/* The ring outlives the command: a buffer, never user_ptr. */
		if (c->user_ptr)
			return -EINVAL;
		if (!c->length)		/* unbind */
			return c->buf || c->buf_offset ? -EINVAL : 0;
		return !c->buf || c->length > IPU_MAX_LENGTH ? -EINVAL : 0;
	}
	if (uses & IPU_SQE_USES_DATA) {		/* LOAD, WRITE, READ */
		if (!c->length || c->length > IPU_MAX_LENGTH)
			return -EINVAL;
		if (!!c->user_ptr == !!c->buf)
			return -EINVAL;
		if (c->user_ptr && c->buf_offset)
			return -EINVAL;
	}
	return 0;
}

/* ctx->mutex held: the data of a LOAD, WRITE or READ. */
static int ipu_cmd_map_data(struct ipu_ctx *ctx, const struct ipu_cmd *c,
			    struct ipu_kcmd *cmd, struct ipu_sqe *sqe)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_buffer *buf;
	int ret;

	if (c->buf) {
		buf = xa_load(&ctx->bufs, c->buf);
		if (!buf)
			return -ENOENT;
		if (ipu_buf_stale(buf))
			return -EIO;
		if (c->buf_offset > buf->mem.size ||
		    c->length > buf->mem.size - c->buf_offset)
			return -ERANGE;
		ret = ipu_sgl_build(idev, &buf->mem, c->buf_offset, c->length,
				    cmd, sqe);
		if (ret)
			return ret;
		atomic_inc(&buf->busy);
		cmd->buf = buf;
		return 0;
	}

	cmd->umem = kzalloc(sizeof(*cmd->umem), GFP_KERNEL);
	if (!cmd->umem)
		return -ENOMEM;
	ret = ipu_dmamem_pin(idev, cmd->umem, c->user_ptr, c->length,
			     c->opcode == IPU_CMD_READ, false, false);
	if (ret) {
		kfree(cmd->umem);
		cmd->umem = NULL;
		return ret;
	}
	return ipu_sgl_build(idev, cmd->umem, 0, c->length, cmd, sqe);
}

/* ctx->mutex held: STREAM_BIND; the ring's SG list goes to the binding. */
static int ipu_cmd_map_bind(struct ipu_ctx *ctx, const struct ipu_cmd *c,
			    struct ipu_kcmd *cmd, struct ipu_sqe *sqe)
{
	struct ipu_buffer *buf;
	struct ipu_sbind *b;
	int ret;

	cmd->stream = c->handle;
	if (!c->length)
		return 0;		/* unbind: data, sgl_count, length 0 */
	buf = xa_load(&ctx->bufs, c->buf);
	if (!buf)
		return -ENOENT;
	if (ipu_buf_stale(buf))
		return -EIO;
	if (c->buf_offset > buf->mem.size ||
	    c->length > buf->mem.size - c->buf_offset)
		return -ERANGE;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	ret = ipu_sgl_build(ctx->idev, &buf->mem, c->buf_offset, c->length,
			    cmd, sqe);
	if (ret) {
		kfree(b);
		return ret;
	}
	INIT_LIST_HEAD(&b->node);
	b->stream = c->handle;
	b->sgl = cmd->sgl;
	b->sgl_dma = cmd->sgl_dma;
	b->sgl_bytes = cmd->sgl_bytes;
	cmd->sgl = NULL;
	atomic_inc(&buf->busy);		/* until the card drops the binding */
	b->buf = buf;
	cmd->sbind = b;
	return 0;
}

static bool ipu_kcmd_done(struct ipu_queue *q, struct ipu_kcmd *cmd)
{
	return ipu_kcmd_is_done(cmd) ||
	       READ_ONCE(q->idev->gone);
}

/*
 * Consume completions by polling, in case an interrupt was lost; a queue
 * stopped by a reset is recovered once the card is READY again (its READY
 * interrupt may have been lost too).
 */
static void ipu_queue_poll(struct ipu_queue *q)
{
	struct ipu_device *idev = q->idev;

	down_read(&idev->hw_rwsem);
	if (!READ_ONCE(idev->gone)) {
		if (!READ_ONCE(q->hw_ok) && ipu_card_ready(idev))
			ipu_queues_recover(idev, false);
		ipu_queue_process(q);
	}
	up_read(&idev->hw_rwsem);
}

/*
 * Hybrid polling: spins on @q's completion ring for up to poll_us (and at
 * most @max_us) until @done(@arg) holds. Completions found are consumed by
 * ipu_queue_process(), under q->lock exactly as from the interrupt, so each
 * is processed once whoever sees it first. Gives up early when the CPU is
 * wanted elsewhere or a signal is pending; the caller then sleeps.
 * Returns @done(@arg).
 */
static bool ipu_queue_spin(struct ipu_queue *q, bool (*done)(void *arg),
			   void *arg, u64 max_us)
{
	struct ipu_device *idev = q->idev;
	u64 us = min_t(u64, min_t(u32, READ_ONCE(poll_us), IPU_POLL_US_MAX),
		       max_us);
	ktime_t end;
	bool ret;

	if (done(arg))
		return true;
	if (!us)
		return false;
	end = ktime_add_us(ktime_get(), us);
	down_read(&idev->hw_rwsem);
	for (;;) {
		if (READ_ONCE(idev->gone)) {
			ret = false;
			break;
		}
		ipu_queue_process(q);
		ret = done(arg);
		if (ret || need_resched() || signal_pending(current) ||
		    ktime_after(ktime_get(), end))
			break;
		cpu_relax();
	}
	up_read(&idev->hw_rwsem);
	return ret || done(arg);
}

struct ipu_sync_state {
	struct ipu_queue *q;
	struct ipu_kcmd *cmd;
};

static bool ipu_sync_done(void *arg)
{
	struct ipu_sync_state *ss = arg;

	return ipu_kcmd_done(ss->q, ss->cmd);
}

static void ipu_cmd_result(struct ipu_cmd *c, const struct ipu_kcmd *cmd)
{
	c->status = cmd->status;
	c->detail = cmd->detail;
	c->detail2 = cmd->detail2;
	c->host_ns = cmd->host_ns;
	c->cycles = cmd->cycles;
	c->run = cmd->run;
	if (cmd->grp)
		ipu_grun_result(cmd->grp, &c->status, &c->detail, &c->detail2,
				&c->member);
}

/* Sync SUBMIT: wait for @cmd (holding the owner's reference). */
static long ipu_cmd_wait_sync(struct ipu_ctx *ctx, struct ipu_queue *q,
			      struct ipu_kcmd *cmd, struct ipu_cmd *c,
			      void __user *uarg, u32 usize)
{
	struct ipu_sync_state ss = { .q = q, .cmd = cmd };
	unsigned long flags;
	bool mine;
	long left;
	int ret;

	ipu_queue_spin(q, ipu_sync_done, &ss, U64_MAX);
	for (;;) {
		left = wait_event_interruptible_timeout(q->wq,
							ipu_kcmd_done(q, cmd),
							msecs_to_jiffies(IPU_POLL_MS));
		if (left < 0) {
			/*
			 * Leave it in flight, collectable by WAIT: the caller
			 * gets its seq (and no status) with -EINTR.
			 */
			spin_lock_irqsave(&q->lock, flags);
			cmd->owned = false;
			spin_unlock_irqrestore(&q->lock, flags);
			wake_up_all(&q->wq);
			ipu_kcmd_put(cmd);
			ret = ipu_args_out(uarg, c, sizeof(*c), usize);
			return ret ? ret : -EINTR;
		}
		if (ipu_kcmd_is_done(cmd))
			break;
		if (READ_ONCE(q->idev->gone)) {
			spin_lock_irqsave(&q->lock, flags);
			cmd->owned = false;
			spin_unlock_irqrestore(&q->lock, flags);
			ipu_kcmd_put(cmd);
			return -ENODEV;
		}
		if (!left)
			ipu_queue_poll(q);
	}

	/* Collected under ctx->mutex (see the top of this file). */
	mutex_lock(&ctx->mutex);
	spin_lock_irqsave(&q->lock, flags);
	cmd->owned = false;
	mine = cmd->in_list;
	if (mine)
		ipu_kcmd_unlink_locked(ctx, cmd);
	spin_unlock_irqrestore(&q->lock, flags);

	ipu_cmd_result(c, cmd);
	if (mine) {
		ret = ipu_kcmd_finish(ctx, cmd);
		ipu_kcmd_put(cmd);		/* the list's */
	} else {
		/* A DETACH released it: its message was kept. */
		ret = ipu_kcmd_copy_msg(cmd);
	}
	mutex_unlock(&ctx->mutex);
	ipu_kcmd_put(cmd);			/* ours */
	if (ret)
		return ret;
	return ipu_args_out(uarg, c, sizeof(*c), usize);
}

/* A new command for @ctx, holding the list's reference; NULL: -ENOMEM. */
static struct ipu_kcmd *ipu_kcmd_new(struct ipu_ctx *ctx, u32 opcode)
{
	struct ipu_kcmd *cmd = ipu_kcmd_alloc(ctx);

	if (!cmd)
		return NULL;
	kref_init(&cmd->ref);			/* the list's reference */
	INIT_LIST_HEAD(&cmd->stale);
	cmd->opcode = opcode;
	cmd->state = IPU_KCMD_QUEUED;
	atomic_inc(&ctx->idev->ncmds);
	return cmd;
}

/*
 * ctx->mutex held: the SQE of @c, with its data, stream ring and message
 * buffer mapped for the card (released with the command). 0 or -errno.
 */
static int ipu_cmd_build_sqe(struct ipu_ctx *ctx, const struct ipu_cmd *c,
			     struct ipu_kcmd *cmd, struct ipu_sqe *sqe)
{
	struct ipu_device *idev = ctx->idev;
	int ret = 0;

	sqe->opcode = c->opcode;	/* IPU_CMD_* == IPU_SQE_* (top) */
	if (c->flags & IPU_CMD_FLAG_LOAD_COMMIT) {
		if (!idev->feat.load_flags)
			return -EOPNOTSUPP;
		sqe->flags = IPU_SQE_LOAD_COMMIT;
	}
	/* 1.6: LOAD's offset is the group's member mask (card 1.5) */
	if (c->opcode == IPU_CMD_LOAD && c->offset && !idev->feat.load_mask)
		return -EOPNOTSUPP;
	sqe->handle = c->handle;
	sqe->offset = c->offset;
	sqe->count = c->count;
	if (c->opcode == IPU_CMD_LOAD || c->opcode == IPU_CMD_WRITE ||
	    c->opcode == IPU_CMD_READ)
		ret = ipu_cmd_map_data(ctx, c, cmd, sqe);
	else if (c->opcode == IPU_CMD_STREAM_BIND)
		ret = ipu_cmd_map_bind(ctx, c, cmd, sqe);
	if (ret || !c->msg_ptr)
		return ret;
	cmd->msg = dma_alloc_coherent(&idev->pdev->dev, IPU_LOAD_MSG_LEN,
				      &cmd->msg_dma, GFP_KERNEL);
	if (!cmd->msg)
		return -ENOMEM;
	cmd->msg_ptr = c->msg_ptr;
	sqe->arg = cmd->msg_dma;
	return 0;
}

/*
 * ctx->mutex held: @cmd gets its seq, goes on ctx->cmds and its SQE onto
 * queue @q. A sync submitter takes a reference of its own. 0 with *@seq
 * set, or -errno with @cmd off the list (the caller releases it).
 */
static int ipu_cmd_enqueue(struct ipu_ctx *ctx, struct ipu_queue *q,
			   struct ipu_kcmd *cmd, struct ipu_sqe *sqe,
			   bool sync, u64 *seq)
{
	struct ipu_device *idev = ctx->idev;
	unsigned long flags;
	int ret;

	down_read(&idev->hw_rwsem);
	if (READ_ONCE(idev->gone)) {
		up_read(&idev->hw_rwsem);
		return -ENODEV;
	}
	spin_lock_irqsave(&q->lock, flags);
	cmd->seq = ++ctx->next_seq;
	/*
	 * An ASYNC command is the list's once q->lock goes: another thread's
	 * WAIT or DETACH may collect and free it.
	 */
	*seq = cmd->seq;
	cmd->owned = sync;
	if (sync)
		kref_get(&cmd->ref);	/* ours, while we wait */
	list_add_tail(&cmd->node, &ctx->cmds);
	cmd->in_list = true;
	ctx->ncmds++;
	/* Completion may come at once: cmd is complete here first. */
	ret = ipu_queue_push_locked(q, sqe, cmd);
	if (ret) {
		ipu_kcmd_unlink_locked(ctx, cmd);
		if (sync)
			kref_put(&cmd->ref, ipu_kcmd_free);
	} else {
		trace_ipu_cmd_submit(idev->minor, q->index, cmd->cid, *seq,
				     cmd->opcode, sync);
		dev_dbg(&idev->dev, "submit: queue %u cid %u seq %llu opcode %u%s\n",
			q->index, cmd->cid, *seq, cmd->opcode,
			sync ? "" : " async");
	}
	spin_unlock_irqrestore(&q->lock, flags);
	up_read(&idev->hw_rwsem);
	return ret;
}

/*
 * Builds @c's command for @ctx and queues it, taking and dropping
 * ctx->mutex. @part: a group command's part, or NULL. A sync command
 * (not ASYNC, not a member's part) comes back in *@cmdp with the caller's
 * reference and its queue in *@qp; otherwise *@cmdp is NULL. 0 with *@seq
 * set, or -errno with nothing queued.
 */
int ipu_cmd_queue(struct ipu_ctx *ctx, const struct ipu_cmd *c,
		  const struct ipu_cmd_part *part, struct ipu_kcmd **cmdp,
		  struct ipu_queue **qp, u64 *seq)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_sqe sqe = { 0 };
	struct ipu_kcmd *cmd;
	bool sync = !(c->flags & IPU_CMD_FLAG_ASYNC) && !(part && part->child);
	int ret;

	*cmdp = NULL;
	cmd = ipu_kcmd_new(ctx, c->opcode);
	if (!cmd)
		return -ENOMEM;
	if (part) {
		ipu_grun_get(part->grp);	/* dropped with the command */
		cmd->grp = part->grp;
		cmd->gmember = part->member;
		cmd->gchild = part->child;
	}
	ret = ipu_ctx_enter(ctx);
	if (ret)
		goto err_new;
	/* A member the group no longer holds is not the group's to use. */
	if (part && part->child && ctx->attach_gen != part->gen)
		ret = -ENOTCONN;
	else if (ctx->ncmds >= IPU_MAX_INFLIGHT)
		ret = -EAGAIN;
	if (ret) {
		mutex_unlock(&ctx->mutex);
		goto err_new;
	}
	*qp = ctx->q;
	ipu_binds_free_stale(ctx);
	ret = ipu_cmd_build_sqe(ctx, c, cmd, &sqe);
	if (!ret)
		ret = ipu_cmd_enqueue(ctx, ctx->q, cmd, &sqe, sync, seq);
	if (ret)
		goto err_res;
	mutex_unlock(&ctx->mutex);
	if (sync)
		*cmdp = cmd;
	return 0;

err_res:
	/* Never reached the card: the buffer is not in use by it. */
	if (cmd->buf)
		atomic_dec(&cmd->buf->busy);
	ipu_kcmd_release_res(idev, cmd);
	mutex_unlock(&ctx->mutex);
	ipu_kcmd_free(&cmd->ref);
	return ret;
err_new:
	atomic_dec(&idev->ncmds);
	ipu_kcmd_free(&cmd->ref);
	return ret;
}

/*
 * SUBMIT's answer once @c is queued as @seq: an ASYNC one returns the seq,
 * a sync one (@cmd, the caller's reference) waits for its completion.
 */
long ipu_cmd_submitted(struct ipu_ctx *ctx, struct ipu_queue *q,
		       struct ipu_kcmd *cmd, struct ipu_cmd *c, u64 seq,
		       void __user *uarg, u32 usize)
{
	c->seq = seq;
	c->status = 0;
	c->detail = 0;
	c->detail2 = 0;
	c->host_ns = 0;
	c->cycles = 0;
	c->member = 0;
	memset(&c->run, 0, sizeof(c->run));
	if (!cmd)
		return ipu_args_out(uarg, c, sizeof(*c), usize);
	return ipu_cmd_wait_sync(ctx, q, cmd, c, uarg, usize);
}

/*
 * SUBMIT: check the argument, build the command and its SQE under the
 * entry guard, queue it; an ASYNC one returns its seq, a sync one waits.
 * IPU_CMD_FLAG_GROUP goes to every member (ipu_group_cmd.c).
 */
long ipu_ioctl_submit(struct ipu_ctx *ctx, void __user *uarg)
{
	struct ipu_queue *q = NULL;
	struct ipu_kcmd *cmd;
	struct ipu_cmd c;
	u64 seq = 0;
	u32 usize;
	int ret;

	ret = ipu_args_in(&c, sizeof(c), IPU_CMD_SIZE_V1, IPU_CMD_FLAGS_ALL,
			  uarg, &usize);
	if (ret)
		return ret;
	ret = ipu_cmd_check(&c);
	if (ret)
		return ret;
	if (c.msg_ptr && !access_ok(u64_to_user_ptr(c.msg_ptr),
				    IPU_LOAD_MSG_MAX))
		return -EFAULT;
	if (c.flags & IPU_CMD_FLAG_GROUP)
		return ipu_group_submit(ctx, &c, uarg, usize);
	ret = ipu_cmd_queue(ctx, &c, NULL, &cmd, &q, &seq);
	if (ret)
		return ret;
	return ipu_cmd_submitted(ctx, q, cmd, &c, seq, uarg, usize);
}

/* q->lock held: the command WAIT would collect, or NULL; *any: one exists. */
static struct ipu_kcmd *ipu_wait_find_locked(struct ipu_ctx *ctx,
					     const struct ipu_wait *w,
					     bool *exists)
{
	struct ipu_kcmd *cmd;

	*exists = false;
	list_for_each_entry(cmd, &ctx->cmds, node) {
		if (cmd->owned || cmd->gchild)
			continue;
		if (!(w->flags & IPU_WAIT_FLAG_ANY) && cmd->seq != w->seq)
			continue;
		*exists = true;
		if (ipu_kcmd_is_done(cmd))
			return cmd;
		if (!(w->flags & IPU_WAIT_FLAG_ANY))
			break;
	}
	return NULL;
}

struct ipu_wait_state {
	struct ipu_ctx *ctx;
	struct ipu_queue *q;
	const struct ipu_wait *w;
	unsigned int gen;
};

/* Wake-up condition of WAIT: something to collect or to report. */
static bool ipu_wait_cond(struct ipu_wait_state *ws)
{
	unsigned long flags;
	bool exists, ret;

	if (READ_ONCE(ws->ctx->idev->gone) ||
	    READ_ONCE(ws->ctx->attach_gen) != ws->gen)
		return true;
	spin_lock_irqsave(&ws->q->lock, flags);
	ret = ipu_wait_find_locked(ws->ctx, ws->w, &exists) || !exists;
	spin_unlock_irqrestore(&ws->q->lock, flags);
	return ret;
}

static bool ipu_wait_spin_done(void *arg)
{
	return ipu_wait_cond(arg);
}

long ipu_ioctl_wait(struct ipu_ctx *ctx, void __user *uarg)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_wait_state ws = { .ctx = ctx };
	unsigned long deadline = 0, flags;
	struct ipu_kcmd *cmd;
	struct ipu_wait w;
	bool exists;
	u32 usize;
	long left;
	int ret;

	ret = ipu_args_in(&w, sizeof(w), IPU_WAIT_SIZE_V1, IPU_WAIT_FLAGS_ALL,
			  uarg, &usize);
	if (ret)
		return ret;
	if (memchr_inv(w.reserved, 0, sizeof(w.reserved)) || w.member ||
	    w.reserved1)
		return -EINVAL;
	ws.w = &w;

	ret = ipu_ctx_enter(ctx);
	if (ret)
		return ret;
	ws.q = ctx->q;
	ws.gen = ctx->attach_gen;
	mutex_unlock(&ctx->mutex);
	/* + 1: the current jiffy is partly gone; never return early. */
	if (w.timeout_ms != U32_MAX)
		deadline = jiffies + msecs_to_jiffies(w.timeout_ms) +
			   (w.timeout_ms ? 1 : 0);

	/* Hybrid polling first (not for a zero timeout: that only looks). */
	if (w.timeout_ms)
		ipu_queue_spin(ws.q, ipu_wait_spin_done, &ws,
			       w.timeout_ms == U32_MAX ? U64_MAX :
			       (u64)w.timeout_ms * USEC_PER_MSEC);
	for (;;) {
		if (READ_ONCE(idev->gone))
			return -ENODEV;
		/* Collected under ctx->mutex (see the top of this file). */
		mutex_lock(&ctx->mutex);
		if (READ_ONCE(ctx->attach_gen) != ws.gen) {
			mutex_unlock(&ctx->mutex);
			return -ENOTCONN;
		}
		spin_lock_irqsave(&ws.q->lock, flags);
		cmd = ipu_wait_find_locked(ctx, &w, &exists);
		if (cmd)
			ipu_kcmd_unlink_locked(ctx, cmd);
		spin_unlock_irqrestore(&ws.q->lock, flags);
		if (cmd)
			break;
		mutex_unlock(&ctx->mutex);
		if (!exists)
			return -ENOENT;

		if (w.timeout_ms == U32_MAX) {
			left = msecs_to_jiffies(IPU_POLL_MS);
		} else {
			left = (long)(deadline - jiffies);
			if (left <= 0)
				return -ETIMEDOUT;
			left = min_t(long, left, msecs_to_jiffies(IPU_POLL_MS));
		}
		left = wait_event_interruptible_timeout(ws.q->wq,
							ipu_wait_cond(&ws),
							left);
		if (left < 0)
			return -EINTR;
		if (!left)
			ipu_queue_poll(ws.q);
	}

	w.seq = cmd->seq;
	w.status = cmd->status;
	w.detail = cmd->detail;
	w.detail2 = cmd->detail2;
	w.host_ns = cmd->host_ns;
	w.cycles = cmd->cycles;
	w.run = cmd->run;
	if (cmd->grp)
		ipu_grun_result(cmd->grp, &w.status, &w.detail, &w.detail2,
				&w.member);
	ret = ipu_kcmd_finish(ctx, cmd);
	mutex_unlock(&ctx->mutex);
	ipu_kcmd_put(cmd);
	if (ret)
		return ret;
	return ipu_args_out(uarg, &w, sizeof(w), usize);
}

__poll_t ipu_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct ipu_ctx *ctx = filp->private_data;
	struct ipu_queue *q = READ_ONCE(ctx->q);
	struct ipu_kcmd *cmd;
	unsigned long flags;
	__poll_t mask = 0;

	if (!q || READ_ONCE(ctx->idev->gone))
		return EPOLLERR;
	poll_wait(filp, &q->wq, wait);
	spin_lock_irqsave(&q->lock, flags);
	if (q->ctx != ctx) {
		mask = EPOLLERR;
	} else {
		list_for_each_entry(cmd, &ctx->cmds, node) {
			if (!cmd->owned && !cmd->gchild &&
			    ipu_kcmd_is_done(cmd)) {
				mask = EPOLLIN | EPOLLRDNORM;
				break;
			}
		}
	}
	spin_unlock_irqrestore(&q->lock, flags);
	return mask | ipu_uqueue_poll(ctx, filp, wait);
}

long ipu_ioctl_set_eventfd(struct ipu_ctx *ctx, void __user *uarg)
{
	struct eventfd_ctx *efd = NULL, *old;
	struct ipu_eventfd ev;
	unsigned long flags;
	u32 usize;
	int ret;

	ret = ipu_args_in(&ev, sizeof(ev), IPU_EVENTFD_SIZE_V1, 0, uarg,
			  &usize);
	if (ret)
		return ret;
	if (ev.reserved || ev.fd < -1)
		return -EINVAL;
	if (ev.fd >= 0) {
		efd = eventfd_ctx_fdget(ev.fd);
		if (IS_ERR(efd))
			return PTR_ERR(efd);
	}

	ret = ipu_ctx_enter(ctx);
	if (ret) {
		if (efd)
			eventfd_ctx_put(efd);
		return ret;
	}
	spin_lock_irqsave(&ctx->q->lock, flags);
	old = ctx->eventfd;
	ctx->eventfd = efd;
	spin_unlock_irqrestore(&ctx->q->lock, flags);
	mutex_unlock(&ctx->mutex);
	if (old)
		eventfd_ctx_put(old);
	return 0;
}
