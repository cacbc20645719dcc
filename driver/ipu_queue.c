// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: the card's command queues (docs/hw-interface.md,
 * "Command queues"). Ring memory, programming and stopping a queue,
 * pushing submission entries, consuming completions (from the queue's
 * MSI-X vector, the QUEUE(n) cause of the shared vector, or a waiter's
 * poll), and re-programming queues after a card reset.
 */
#include <linux/dma-mapping.h>
#include <linux/eventfd.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "ipu_drv.h"
#include "ipu_trace.h"

#define IPU_SQ_BYTES	(IPU_QUEUE_ENTRIES * sizeof(struct ipu_sqe))
#define IPU_CQ_BYTES	(IPU_QUEUE_ENTRIES * sizeof(struct ipu_cqe))
#define IPU_REC_BYTES	(IPU_QUEUE_ENTRIES * sizeof(struct ipu_run_record))

static_assert(sizeof(struct ipu_run_record) == IPU_RUN_RECORD_SIZE);

void ipu_queues_init(struct ipu_device *idev)
{
	unsigned int i;

	for (i = 0; i < IPU_NUM_QUEUES; i++) {
		struct ipu_queue *q = &idev->queues[i];

		q->idev = idev;
		q->index = i;
		spin_lock_init(&q->lock);
		init_waitqueue_head(&q->wq);
	}
}

bool ipu_card_ready(struct ipu_device *idev)
{
	return (ipu_read(idev, IPU_REG_STATUS) & IPU_CARD_STATE_MASK) ==
	       IPU_CARD_STATE_READY;
}

/*
 * Delay completion interrupts a little: a synchronous command that polls
 * (poll_us) consumes its completion first, and the card then sends no
 * interrupt at all. The count threshold is the largest there is, so that
 * the delay decides (a count of 1 would interrupt at once).
 */
static u32 ipu_queue_coalesce(void)
{
	u32 us = min_t(u32, READ_ONCE(irq_delay_us), IPU_IRQ_DELAY_US_MAX);

	return us ? us << 16 | IPU_Q_COALESCE_COUNT(~0u) : 0;
}

/**
 * ipu_queue_enable_locked() - program queue @q's registers and enable it
 * @q:    the queue, its lock held, the hardware reachable
 * @r:    its rings: the CQ zeroed (phase 0 is "empty" for the first lap),
 *        records only on a card that has them
 * @ctrl: CTRL bits besides ENABLE (IPU_Q_CTRL_USER)
 *
 * Enables the queue only if the card is READY; q->hw_ok says whether the
 * card took it.
 */
void ipu_queue_enable_locked(struct ipu_queue *q,
			     const struct ipu_queue_rings *r, u32 ctrl)
{
	struct ipu_device *idev = q->idev;
	unsigned int n = q->index;

	q->hw_ok = false;
	if (!ipu_card_ready(idev))
		return;

	ipu_write(idev, IPU_REG_Q(n, IPU_Q_CTRL), 0);
	ipu_write(idev, IPU_REG_Q(n, IPU_Q_SQ_BASE_LO), lower_32_bits(r->sq));
	ipu_write(idev, IPU_REG_Q(n, IPU_Q_SQ_BASE_HI), upper_32_bits(r->sq));
	ipu_write(idev, IPU_REG_Q(n, IPU_Q_CQ_BASE_LO), lower_32_bits(r->cq));
	ipu_write(idev, IPU_REG_Q(n, IPU_Q_CQ_BASE_HI), upper_32_bits(r->cq));
	if (idev->feat.run_records) {
		ipu_write(idev, IPU_REG_Q(n, IPU_Q_REC_BASE_LO),
			  lower_32_bits(r->rec));
		ipu_write(idev, IPU_REG_Q(n, IPU_Q_REC_BASE_HI),
			  upper_32_bits(r->rec));
	}
	ipu_write(idev, IPU_REG_Q(n, IPU_Q_SIZE), r->entries);
	ipu_write(idev, IPU_REG_Q(n, IPU_Q_VECTOR), n + 1);
	ipu_write(idev, IPU_REG_Q(n, IPU_Q_COALESCE), ipu_queue_coalesce());
	ipu_write(idev, IPU_REG_Q(n, IPU_Q_CTRL), IPU_Q_CTRL_ENABLE | ctrl);
	q->reset_count = ipu_read(idev, IPU_REG_RESET_COUNT);
	q->hw_ok = !!(ipu_read(idev, IPU_REG_Q(n, IPU_Q_STATUS)) &
		      IPU_Q_STATUS_ENABLED);
	if (!q->hw_ok)
		dev_warn(&idev->dev, "queue %u not enabled: status %#x\n", n,
			 ipu_read(idev, IPU_REG_Q(n, IPU_Q_STATUS)));
}

/* q->lock held, hardware reachable: fresh kernel rings, then enable. */
static void ipu_queue_program_locked(struct ipu_queue *q)
{
	struct ipu_queue_rings r = {
		.sq = q->sq_dma, .cq = q->cq_dma,
		.rec = q->rec ? q->rec_dma : 0, .entries = IPU_QUEUE_ENTRIES,
	};

	q->sq_tail = 0;
	q->cq_head = 0;
	q->phase = 1;
	memset(q->cq, 0, IPU_CQ_BYTES);
	ipu_queue_enable_locked(q, &r, 0);
}

/**
 * ipu_queue_start() - give queue @q to @ctx
 * @q:   an inactive queue
 * @ctx: the attaching context
 *
 * Caller holds attach_lock, ctx->mutex and hw_rwsem (read), card not gone.
 * Return: 0 or -ENOMEM.
 */
int ipu_queue_start(struct ipu_queue *q, struct ipu_ctx *ctx)
{
	struct device *dev = &q->idev->pdev->dev;
	unsigned long flags;

	q->sq = dma_alloc_coherent(dev, IPU_SQ_BYTES, &q->sq_dma, GFP_KERNEL);
	q->cq = dma_alloc_coherent(dev, IPU_CQ_BYTES, &q->cq_dma, GFP_KERNEL);
	if (q->idev->feat.run_records)
		q->rec = dma_alloc_coherent(dev, IPU_REC_BYTES, &q->rec_dma,
					    GFP_KERNEL);
	if (!q->sq || !q->cq || (q->idev->feat.run_records && !q->rec)) {
		ipu_queue_free(q);
		return -ENOMEM;
	}
	spin_lock_irqsave(&q->lock, flags);
	q->ctx = ctx;
	q->active = true;
	q->user = false;
	q->closing = false;
	q->reset_seen = false;
	q->hung_cause = 0;
	q->inflight = 0;
	bitmap_zero(q->internal, IPU_QUEUE_ENTRIES);
	memset(q->slots, 0, sizeof(q->slots));
	ipu_queue_program_locked(q);
	spin_unlock_irqrestore(&q->lock, flags);
	return 0;
}

/* Frees the rings; the queue is stopped and its commands are gone. */
void ipu_queue_free(struct ipu_queue *q)
{
	struct device *dev = &q->idev->pdev->dev;
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	q->active = false;
	q->hw_ok = false;
	q->ctx = NULL;
	spin_unlock_irqrestore(&q->lock, flags);

	if (q->sq)
		dma_free_coherent(dev, IPU_SQ_BYTES, q->sq, q->sq_dma);
	if (q->cq)
		dma_free_coherent(dev, IPU_CQ_BYTES, q->cq, q->cq_dma);
	if (q->rec)
		dma_free_coherent(dev, IPU_REC_BYTES, q->rec, q->rec_dma);
	q->sq = NULL;
	q->cq = NULL;
	q->rec = NULL;
}

/* q->lock held: the card no longer uses @b (its buffer may be freed). */
static void ipu_sbind_retire_locked(struct ipu_sbind *b)
{
	if (b->buf) {
		atomic_dec(&b->buf->busy);
		b->buf = NULL;
	}
}

/* q->lock held: every binding of @q's context is gone; onto @to. */
static void ipu_binds_retire_all_locked(struct ipu_queue *q,
					struct list_head *to)
{
	struct ipu_sbind *b, *tmp;

	if (!q->ctx)
		return;
	list_for_each_entry_safe(b, tmp, &q->ctx->binds, node) {
		ipu_sbind_retire_locked(b);
		list_move_tail(&b->node, to);
	}
}

/*
 * q->lock held: what the card's completion of @cmd did to the stream
 * bindings. A successful STREAM_BIND replaces (or, unbinding, removes) the
 * stream's binding; a LOAD the card got to (accepted, or refused as a
 * graph) dropped them all. Other outcomes leave the card's bindings alone.
 */
static void ipu_kcmd_binds_locked(struct ipu_queue *q, struct ipu_kcmd *cmd,
				  u32 status)
{
	struct ipu_sbind *b, *tmp;

	if (!q->ctx)
		return;
	if (cmd->opcode == IPU_CMD_STREAM_BIND && status == IPU_STATUS_OK) {
		list_for_each_entry_safe(b, tmp, &q->ctx->binds, node) {
			if (b->stream != cmd->stream)
				continue;
			ipu_sbind_retire_locked(b);
			list_move_tail(&b->node, &cmd->stale);
		}
		if (cmd->sbind) {
			list_add_tail(&cmd->sbind->node, &q->ctx->binds);
			cmd->sbind = NULL;
		}
	} else if (cmd->opcode == IPU_CMD_LOAD &&
		   (status == IPU_STATUS_OK || status == IPU_STATUS_LOAD_FAILED)) {
		ipu_binds_retire_all_locked(q, &cmd->stale);
	}
}

/* q->lock held: @cmd completed (by the card, or failed by the driver). */
static void ipu_kcmd_complete_locked(struct ipu_kcmd *cmd, u32 status,
				     u32 detail, u32 detail2, u64 host_ns,
				     u64 cycles)
{
	struct ipu_device *idev = cmd->ctx->idev;

	trace_ipu_cmd_complete(idev->minor, cmd->cid, cmd->seq, cmd->opcode,
			       status, detail);
	dev_dbg(&idev->dev, "complete: cid %u seq %llu opcode %u status %u detail %#x\n",
		cmd->cid, cmd->seq, cmd->opcode, status, detail);
	cmd->status = status;
	cmd->detail = detail;
	cmd->detail2 = detail2;
	cmd->host_ns = host_ns;
	cmd->cycles = cycles;
	if (cmd->buf) {
		atomic_dec(&cmd->buf->busy);
		cmd->buf = NULL;
	}
	cmd->state = IPU_KCMD_DONE;
	if (cmd->grp)
		ipu_kcmd_group_done_locked(cmd);	/* may free a member's */
}

/* q->lock held: every command on the card completes with @status. */
static void ipu_queue_fail_all_locked(struct ipu_queue *q, u32 status,
				      u32 detail)
{
	unsigned int i;

	for (i = 0; i < IPU_QUEUE_ENTRIES; i++) {
		struct ipu_kcmd *cmd = q->slots[i];

		if (cmd)
			ipu_kcmd_complete_locked(cmd, status, detail, 0, 0, 0);
		q->slots[i] = NULL;
	}
	bitmap_zero(q->internal, IPU_QUEUE_ENTRIES);
	q->inflight = 0;
}

/* The card's little-endian run record, for user space. */
static void ipu_run_record_get(struct ipu_run_counters *c,
			       const struct ipu_run_record *r)
{
	c->cycles_compute = ipu_from_le64(r->cycles_compute);
	c->cycles_sync = ipu_from_le64(r->cycles_sync);
	c->cycles_exchange = ipu_from_le64(r->cycles_exchange);
	c->cycles_stream = ipu_from_le64(r->cycles_stream);
	c->steps = ipu_from_le64(r->steps);
	c->compute_sets = ipu_from_le64(r->compute_sets);
	c->exchanges = ipu_from_le64(r->exchanges);
	c->syncs = ipu_from_le64(r->syncs);
	c->exchange_bytes = ipu_from_le64(r->exchange_bytes);
	c->stream_bytes_h2d = ipu_from_le64(r->stream_bytes_h2d);
	c->stream_bytes_d2h = ipu_from_le64(r->stream_bytes_d2h);
}

/*
 * q->lock held: @e names no command of @q (another queue's sq_id, or a cid
 * not in flight). Whose completion it was is lost, and its waiter would
 * wait forever: the watchdog recovers the card (IPU_HUNG_CORRUPT).
 */
static void ipu_queue_corrupt_cqe(struct ipu_queue *q, struct ipu_cqe *e)
{
	dev_warn_ratelimited(&q->idev->dev,
			     "queue %u: corrupt completion (sq_id %#x, cid %#x): recovering\n",
			     q->index, ipu_from_le16(e->sq_id),
			     ipu_from_le16(e->cid));
	atomic_set(&q->idev->corrupt_cqe, 1);
}

/* q->lock held, hardware reachable: consume new completions. */
static unsigned int ipu_queue_consume_locked(struct ipu_queue *q)
{
	unsigned int n = 0;

	while (n < IPU_QUEUE_ENTRIES) {
		struct ipu_cqe *e = &q->cq[q->cq_head];
		u16 status = ipu_from_le16(READ_ONCE(e->status));
		struct ipu_kcmd *cmd;
		u16 cid;

		if ((status & IPU_CQE_PHASE) != q->phase)
			break;
		/* The entry's other fields are read after its phase. */
		dma_rmb();
		cid = ipu_from_le16(e->cid);
		cmd = cid < IPU_QUEUE_ENTRIES ? q->slots[cid] : NULL;
		if (ipu_from_le16(e->sq_id) != q->index) {
			ipu_queue_corrupt_cqe(q, e);
		} else if (cmd) {
			q->slots[cid] = NULL;
			q->inflight--;
			if (cmd->opcode == IPU_CMD_RUN && q->rec)
				ipu_run_record_get(&cmd->run,
						   &q->rec[q->cq_head]);
			ipu_kcmd_binds_locked(q, cmd, IPU_CQE_CODE(status));
			ipu_kcmd_complete_locked(cmd, IPU_CQE_CODE(status),
						 ipu_from_le32(e->detail),
						 ipu_from_le32(e->detail2),
						 ipu_from_le64(e->host_ns),
						 ipu_from_le64(e->cycles));
		} else if (cid < IPU_QUEUE_ENTRIES &&
			   test_and_clear_bit(cid, q->internal)) {
			q->inflight--;
		} else {
			ipu_queue_corrupt_cqe(q, e);
		}
		q->cq_head = (q->cq_head + 1) % IPU_QUEUE_ENTRIES;
		if (!q->cq_head)
			q->phase ^= 1;
		n++;
	}
	if (n)
		ipu_write(q->idev, IPU_REG_CQ_HEAD(q->index), q->cq_head);
	return n;
}

/**
 * ipu_queue_process() - consume @q's completions and wake their waiters
 * @q: the queue
 *
 * Any context: the queue's IRQ handler, the events handler (QUEUE(n)
 * causes), or a waiter holding hw_rwsem (read) while the card is not gone.
 */
void ipu_queue_process(struct ipu_queue *q)
{
	unsigned long flags;
	unsigned int n = 0;
	bool user;

	spin_lock_irqsave(&q->lock, flags);
	/* A user queue's completions are its process's: only wake poll(). */
	user = q->user;
	if (q->active && q->hw_ok && !user)
		n = ipu_queue_consume_locked(q);
	if (n && q->ctx && q->ctx->eventfd)
		eventfd_signal(q->ctx->eventfd, n);
	spin_unlock_irqrestore(&q->lock, flags);
	if (n || user)
		wake_up_all(&q->wq);
}

irqreturn_t ipu_irq_queue(int irq, void *data)
{
	ipu_queue_process(data);
	return IRQ_HANDLED;
}

/* The ring's copy of @sqe, little-endian, with command id @cid. */
static void ipu_sqe_to_le(struct ipu_sqe *dst, const struct ipu_sqe *sqe,
			  u16 cid)
{
	memset(dst, 0, sizeof(*dst));
	dst->opcode = sqe->opcode;
	dst->cid = ipu_le16(cid);
	dst->handle = ipu_le32(sqe->handle);
	dst->offset = ipu_le64(sqe->offset);
	dst->length = ipu_le64(sqe->length);
	dst->data = ipu_le64(sqe->data);
	dst->sgl_count = ipu_le32(sqe->sgl_count);
	dst->count = ipu_le32(sqe->count);
	dst->arg = ipu_le64(sqe->arg);
}

/*
 * q->lock held, hardware reachable (hw_rwsem read, not gone): put @sqe on
 * the ring and ring the doorbell. @cmd NULL is the driver's own entry (ABORT, FENCE).
 */
int ipu_queue_push_locked(struct ipu_queue *q, struct ipu_sqe *sqe,
			  struct ipu_kcmd *cmd)
{
	u32 slot = q->sq_tail;

	if (!q->active)
		return -ENOTCONN;
	if (!q->hw_ok)
		return -EIO;
	/* In-order completion: fewer than ENTRIES - 1 leaves the slot free. */
	if (q->inflight >= IPU_QUEUE_ENTRIES - 1 || q->slots[slot] ||
	    test_bit(slot, q->internal))
		return -EAGAIN;

	ipu_sqe_to_le(&q->sq[slot], sqe, slot);
	if (cmd) {
		cmd->cid = slot;
		q->slots[slot] = cmd;
	} else {
		set_bit(slot, q->internal);
	}
	q->inflight++;
	q->sq_tail = (slot + 1) % IPU_QUEUE_ENTRIES;
	/* writel() orders the ring write before the doorbell. */
	ipu_write(q->idev, IPU_REG_SQ_TAIL(q->index), q->sq_tail);
	return 0;
}

/*
 * q->lock held, hardware reachable: CTRL = 0. The card may still be in the
 * middle of the queue's command and its DMA: nothing the queue referenced
 * may be released before ipu_queue_let_go() says the card let go of it.
 */
static void ipu_queue_disable_locked(struct ipu_queue *q)
{
	ipu_write(q->idev, IPU_REG_Q(q->index, IPU_Q_CTRL), 0);
	q->hw_ok = false;
}

/*
 * Has the card let go of queue @q? STATUS.ENABLED stays 1 after CTRL = 0
 * until the card is done with the queue's command and rings; a reset
 * clears it at once, but the card reports READY only after it let go of
 * everything (docs/hw-interface.md). A card gone from the bus reads all
 * ones, and does no DMA.
 */
static bool ipu_queue_released(struct ipu_queue *q)
{
	struct ipu_device *idev = q->idev;
	u32 status;

	if (READ_ONCE(idev->halted))	/* no bus mastering: no DMA */
		return true;
	status = ipu_read(idev, IPU_REG_STATUS);
	if (status == ~0u)
		return true;
	if ((status & IPU_CARD_STATE_MASK) != IPU_CARD_STATE_READY)
		return false;
	return !(ipu_read(idev, IPU_REG_Q(q->index, IPU_Q_STATUS)) &
		 IPU_Q_STATUS_ENABLED);
}

/**
 * ipu_queue_let_go() - wait for the card to confirm that @q stopped
 * @q: a queue written CTRL = 0 (or dropped by a reset)
 *
 * Sleeps (never under q->lock) up to IPU_LETGO_MS, and not at all once the
 * card is stuck (ipu_card_stuck()). Caller holds hw_rwsem (read or write)
 * with the BAR mapped.
 * Return: true once the card let go, false when it did not in time or is
 * stuck.
 */
bool ipu_queue_let_go(struct ipu_queue *q)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(IPU_LETGO_MS);
	unsigned int us = 10;

	while (!ipu_queue_released(q)) {
		/* Failed or hung: it lets go only when reset. */
		if (ipu_card_stuck(q->idev))
			return false;
		if (time_after(jiffies, deadline)) {
			dev_warn(&q->idev->dev,
				 "queue %u: the card did not let go within %u ms\n",
				 q->index, IPU_LETGO_MS);
			return false;
		}
		usleep_range(us, 2 * us);
		us = min(2 * us, 20000u);
	}
	return true;
}

/**
 * ipu_queue_stop_hw() - stop @q on the card and wait until it let go
 * @q: a queue
 *
 * Caller holds hw_rwsem (read or write) with the BAR still mapped (the card
 * may be "gone" already: remove is then waiting for us), and no spinlock.
 * A card that does not confirm the stop is recovered at once if it failed
 * or hung (ipu_recover_detaching(): a detach holds attach_lock), else
 * halted (ipu_card_halt()). Either ends only once the card confirmed it
 * let go (READY after a reset) or lost its bus mastering. After this the
 * card touches nothing the queue referenced. Idempotent.
 */
void ipu_queue_stop_hw(struct ipu_queue *q)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	if (q->active && q->hw_ok)
		ipu_queue_disable_locked(q);
	spin_unlock_irqrestore(&q->lock, flags);
	if (!ipu_queue_let_go(q) && !ipu_recover_detaching(q->idev))
		ipu_card_halt(q->idev);
}

static bool ipu_queue_idle(struct ipu_queue *q)
{
	unsigned long flags;
	bool idle;

	spin_lock_irqsave(&q->lock, flags);
	idle = !q->inflight || !q->hw_ok;
	spin_unlock_irqrestore(&q->lock, flags);
	return idle || READ_ONCE(q->idev->gone);
}

/*
 * Waits (uninterruptibly: this is also close() of a dying process) up to
 * @ms, not on a stuck card (ipu_card_stuck(): it finishes nothing until
 * reset). An ABORT that reached the card before its RUN started has
 * nothing to stop, so every poll period without progress sends another one.
 */
static bool ipu_queue_wait_idle(struct ipu_queue *q, unsigned int ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(ms);
	struct ipu_sqe sqe = { .opcode = IPU_SQE_ABORT };
	unsigned long flags;

	while (!ipu_queue_idle(q)) {
		if (time_after(jiffies, deadline) || ipu_card_stuck(q->idev))
			return false;
		if (wait_event_timeout(q->wq, ipu_queue_idle(q),
				       msecs_to_jiffies(IPU_POLL_MS)))
			continue;
		ipu_queue_process(q);
		spin_lock_irqsave(&q->lock, flags);
		if (q->hw_ok && q->inflight && q->inflight < IPU_QUEUE_ENTRIES / 2)
			ipu_queue_push_locked(q, &sqe, NULL);
		spin_unlock_irqrestore(&q->lock, flags);
	}
	return true;
}

/**
 * ipu_queue_drain() - make the card let go of everything @q had
 * @q: the detaching context's queue
 *
 * Stops the queue (the card cancels the command in progress, a RUN at its
 * next step and a transfer at its next chunk, and drops the queued ones),
 * waits until the card confirmed it let go (or halts the card), and only
 * then fails what was in flight with ABORTED: its memory may be released
 * from here on. Caller holds ctx->mutex and hw_rwsem (read), the BAR
 * mapped (also when the card is gone: remove waits for hw_rwsem).
 */
void ipu_queue_drain(struct ipu_queue *q)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	q->closing = true;		/* recovery leaves it alone now */
	spin_unlock_irqrestore(&q->lock, flags);
	ipu_queue_stop_hw(q);

	spin_lock_irqsave(&q->lock, flags);
	ipu_queue_fail_all_locked(q, IPU_STATUS_ABORTED, 0);
	spin_unlock_irqrestore(&q->lock, flags);
	wake_up_all(&q->wq);
}

/*
 * A detach's wait for @what on the card ended unfinished: a stuck card
 * (ipu_card_stuck()) is recovered now, whether or not it would let go of
 * the queue, since only its reset drops what it holds for the context
 * (graph, stream bindings to the buffers about to be freed).
 */
static void ipu_queue_wait_failed(struct ipu_queue *q, const char *what)
{
	if (ipu_card_stuck(q->idev) && ipu_recover_detaching(q->idev))
		return;
	dev_warn(&q->idev->dev, "queue %u: %s not done\n", q->index, what);
}

/*
 * q->lock held, the queue programmed: pushes an unbind of every stream
 * the card may hold for the context (bound, or named by a bind command
 * that did not complete), skipping the first @skip. Returns how many it
 * could not push for want of ring space.
 */
static unsigned int ipu_queue_push_unbinds_locked(struct ipu_queue *q,
						  unsigned int skip)
{
	struct ipu_sqe sqe = { .opcode = IPU_SQE_STREAM_BIND };
	struct ipu_ctx *ctx = q->ctx;
	unsigned int i = 0, left = 0;
	struct ipu_kcmd *cmd;
	struct ipu_sbind *b;

	list_for_each_entry(b, &ctx->binds, node) {
		if (i++ < skip)
			continue;
		sqe.handle = b->stream;
		if (left || ipu_queue_push_locked(q, &sqe, NULL))
			left++;
	}
	list_for_each_entry(cmd, &ctx->cmds, node) {
		if (!cmd->sbind || i++ < skip)
			continue;
		sqe.handle = cmd->stream;
		if (left || ipu_queue_push_locked(q, &sqe, NULL))
			left++;
	}
	return left;
}

/* Interface 1.1: every stream the context bound, unbound one by one. */
static void ipu_queue_unbind_streams(struct ipu_queue *q)
{
	unsigned int skip = 0, left, total;
	struct ipu_kcmd *cmd;
	struct ipu_sbind *b;
	unsigned long flags;

	do {
		spin_lock_irqsave(&q->lock, flags);
		total = 0;
		list_for_each_entry(b, &q->ctx->binds, node)
			total++;
		list_for_each_entry(cmd, &q->ctx->cmds, node)
			total += !!cmd->sbind;
		if (skip >= total) {
			spin_unlock_irqrestore(&q->lock, flags);
			break;
		}
		ipu_queue_program_locked(q);
		left = q->hw_ok ? ipu_queue_push_unbinds_locked(q, skip) : 0;
		spin_unlock_irqrestore(&q->lock, flags);
		if (!ipu_queue_wait_idle(q, IPU_DRAIN_MS)) {
			ipu_queue_wait_failed(q, "stream unbind");
			break;
		}
		skip = total - left;
	} while (left);
	ipu_queue_stop_hw(q);
}

/**
 * ipu_queue_release_card() - make the card drop what the context left on it
 * @q: the detaching context's queue, drained (stopped, nothing in flight)
 *
 * The card keeps the graph, its tensors and the stream bindings across
 * queues and contexts: before the context's buffers are freed and another
 * context attaches, UNLOAD (interface 1.2) drops them all, through the
 * queue, enabled for that and stopped again. A 1.1 card only unbinds the
 * streams (the next context's LOAD replaces the graph).
 * Caller holds ctx->mutex and hw_rwsem (read), the card not gone.
 */
void ipu_queue_release_card(struct ipu_queue *q)
{
	struct ipu_sqe sqe = { .opcode = IPU_SQE_UNLOAD };
	unsigned long flags;

	if (!q->idev->feat.unload) {
		ipu_queue_unbind_streams(q);
		return;
	}
	spin_lock_irqsave(&q->lock, flags);
	ipu_queue_program_locked(q);
	if (q->hw_ok)
		ipu_queue_push_locked(q, &sqe, NULL);
	spin_unlock_irqrestore(&q->lock, flags);
	if (!ipu_queue_wait_idle(q, IPU_DRAIN_MS))
		ipu_queue_wait_failed(q, "UNLOAD");
	ipu_queue_stop_hw(q);
}

/*
 * q->lock held: a user queue the card stopped (or programmed before the
 * last reset) stays stopped: its process owns the rings, and learns it from
 * poll() (EPOLLERR); UQUEUE restarts it. Returns whether it stopped now.
 */
static bool ipu_uqueue_recover_locked(struct ipu_queue *q, u32 count)
{
	u32 st;

	if (!q->hw_ok)
		return false;
	st = ipu_read(q->idev, IPU_REG_Q(q->index, IPU_Q_STATUS));
	if (count == q->reset_count && (st & IPU_Q_STATUS_ENABLED))
		return false;
	if (st & IPU_Q_STATUS_ENABLED)
		ipu_queue_disable_locked(q);
	q->hw_ok = false;
	q->uq_dead = true;
	return true;
}

/*
 * q->lock held, the card READY: a kernel queue the card no longer has
 * enabled (or programmed before the last reset) loses its commands
 * (IPU_STATUS_RESET, or IPU_STATUS_HUNG after a recovery) and is
 * programmed again. READY after a reset, or a
 * queue the card stopped itself (ERROR), means the card let go of the
 * commands: their memory may go now. Returns whether anything changed.
 */
static bool ipu_queue_recover_locked(struct ipu_queue *q, u32 count,
				     bool card_reset)
{
	struct ipu_device *idev = q->idev;
	u32 st = ipu_read(idev, IPU_REG_Q(q->index, IPU_Q_STATUS));
	bool reset = card_reset || q->reset_seen || count != q->reset_count;

	if (q->hw_ok && !reset && (st & IPU_Q_STATUS_ENABLED))
		return false;
	if (st & IPU_Q_STATUS_ENABLED) {
		/* Not ours any more: stop it, and finish once it let go. */
		ipu_queue_disable_locked(q);
		q->reset_seen = reset;
		schedule_work(&idev->recover_work);
		return false;
	}
	/* A recovery's reset says why (API 1.8). */
	if (q->hung_cause)
		ipu_queue_fail_all_locked(q, IPU_STATUS_HUNG, q->hung_cause);
	else
		ipu_queue_fail_all_locked(q, IPU_STATUS_RESET, 0);
	q->hung_cause = 0;
	/* A reset unbinds every stream on the card. */
	if (reset)
		ipu_binds_retire_all_locked(q, &q->ctx->stale_binds);
	q->reset_seen = false;
	ipu_queue_program_locked(q);
	return true;
}

/*
 * After a soft reset, a function reset or an ERROR. While the card is not
 * READY (a reset in progress) it may still be moving the data of the
 * commands in flight: queues only stop taking commands (SUBMIT gets -EIO)
 * and keep them; once it is READY they are failed and the queues
 * programmed again (ipu_queue_recover_locked()). @card_reset: the caller
 * knows the card was reset (a function reset keeps no RESET_COUNT).
 * Caller holds hw_rwsem (read or write), the BAR mapped.
 */
void ipu_queues_recover(struct ipu_device *idev, bool card_reset)
{
	u32 count = ipu_read(idev, IPU_REG_RESET_COUNT);
	bool ready = ipu_card_ready(idev);
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < IPU_NUM_QUEUES; i++) {
		struct ipu_queue *q = &idev->queues[i];
		bool woke = false;

		spin_lock_irqsave(&q->lock, flags);
		if (q->active && q->user) {
			woke = ipu_uqueue_recover_locked(q, count);
		} else if (q->active && !q->closing && !ready) {
			q->hw_ok = false;
			q->reset_seen = true;
		} else if (q->active && !q->closing) {
			woke = ipu_queue_recover_locked(q, count, card_reset);
		}
		spin_unlock_irqrestore(&q->lock, flags);
		if (woke)
			wake_up_all(&q->wq);
	}
}

/*
 * A recovery is about to reset the card (reset_lock held, hw_rwsem read):
 * the commands in flight on kernel queues will complete with
 * IPU_STATUS_HUNG, detail @cause, once the card is READY again.
 */
void ipu_queues_mark_hung(struct ipu_device *idev, u32 cause)
{
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < IPU_NUM_QUEUES; i++) {
		struct ipu_queue *q = &idev->queues[i];

		spin_lock_irqsave(&q->lock, flags);
		if (q->active && !q->user && !q->closing)
			q->hung_cause = cause;
		spin_unlock_irqrestore(&q->lock, flags);
	}
}

void ipu_recover_work(struct work_struct *work)
{
	struct ipu_device *idev = container_of(work, struct ipu_device,
					       recover_work);

	down_read(&idev->hw_rwsem);
	if (!READ_ONCE(idev->gone))
		ipu_queues_recover(idev, false);
	up_read(&idev->hw_rwsem);
}

/* remove, with hw_rwsem held for writing: no queue may run on. */
void ipu_queues_stop_all(struct ipu_device *idev)
{
	unsigned int i;

	for (i = 0; i < IPU_NUM_QUEUES; i++)
		if (READ_ONCE(idev->queues[i].active))
			ipu_queue_stop_hw(&idev->queues[i]);
}
