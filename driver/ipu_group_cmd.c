// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: group commands (docs/uapi.md "Group commands", API
 * 1.7). SUBMIT with IPU_CMD_FLAG_GROUP on a group leader's file queues the
 * RUN or ABORT on the leader's queue (the command user space collects) and
 * then on every member's (parts that only the group sees). A record shared
 * by the parts counts the completions and keeps the cause; the leader's
 * command is complete for WAIT, poll() and a sync SUBMIT once the record
 * counted every part.
 *
 * Lifetimes: the record is kref'd by the submitter while it submits and by
 * every part (dropped when the part is freed). It points to the leader's
 * context and queue: a member's part completes at the latest when the
 * member is detached, which the leader's DETACH or release does
 * (ipu_group_end()) before the leader's context goes, so both outlive every
 * part that reports. Lock order: the top of ipu_drv.h.
 */
#include <linux/eventfd.h>
#include <linux/slab.h>

#include "ipu_drv.h"

struct ipu_grun {
	struct kref ref;
	atomic_t pending;		/* parts not yet complete */
	spinlock_t lock;		/* the cause below; innermost */
	u32 rank;			/* the cause's: see ipu_grun_rank() */
	u32 status, detail, detail2, member;
	struct ipu_ctx *lctx;		/* the leader's context */
	struct ipu_queue *lq;		/* the leader's queue */
};

/*
 * How much a status says about why a group command ended: OK nothing,
 * ABORTED and SYNC_TIMEOUT are echoes of another member's end, anything
 * else is a cause (libipudev's rule before 1.7, docs/uapi.md).
 */
static u32 ipu_grun_rank(u32 status)
{
	if (status == IPU_STATUS_OK)
		return 0;
	if (status == IPU_STATUS_ABORTED || status == IPU_STATUS_SYNC_TIMEOUT)
		return 1;
	return 2;
}

/* A record of @n parts for @leader's group command; NULL: -ENOMEM. */
struct ipu_grun *ipu_grun_new(struct ipu_ctx *leader, unsigned int n)
{
	struct ipu_grun *grp = kzalloc(sizeof(*grp), GFP_KERNEL);

	if (!grp)
		return NULL;
	kref_init(&grp->ref);
	atomic_set(&grp->pending, n);
	spin_lock_init(&grp->lock);
	grp->lctx = leader;
	return grp;
}

/* The leader's queue, once its part is queued (before any member's). */
void ipu_grun_set_queue(struct ipu_grun *grp, struct ipu_queue *q)
{
	grp->lq = q;
}

void ipu_grun_get(struct ipu_grun *grp)
{
	kref_get(&grp->ref);
}

static void ipu_grun_free(struct kref *ref)
{
	kfree(container_of(ref, struct ipu_grun, ref));
}

/* Any context: the last reference may go with a part's completion. */
void ipu_grun_put(struct ipu_grun *grp)
{
	kref_put(&grp->ref, ipu_grun_free);
}

/* Every part completed: the leader's command may be collected. */
bool ipu_grun_complete(const struct ipu_grun *grp)
{
	return !atomic_read(&grp->pending);
}

/*
 * The last part completed on a member's card: wake the leader's waiters
 * and signal its eventfd (the leader's own completion did that already
 * when it was the last). @locked: the q->lock the caller holds.
 */
static void ipu_grun_notify(struct ipu_grun *grp, enum ipu_grun_locked locked)
{
	struct ipu_queue *lq = grp->lq;
	unsigned long flags;

	if (locked == IPU_GRUN_LEADER_LOCKED)
		return;
	if (locked == IPU_GRUN_MEMBER_LOCKED)
		spin_lock_nested(&lq->lock, SINGLE_DEPTH_NESTING);
	else
		spin_lock_irqsave(&lq->lock, flags);
	if (lq->ctx == grp->lctx && grp->lctx->eventfd)
		eventfd_signal(grp->lctx->eventfd, 1);
	if (locked == IPU_GRUN_MEMBER_LOCKED)
		spin_unlock(&lq->lock);
	else
		spin_unlock_irqrestore(&lq->lock, flags);
	wake_up_all(&lq->wq);
}

/**
 * ipu_grun_done() - one part of a group command completed
 * @grp:     the record
 * @member:  the part's member (0 = leader, k = fds[k - 1])
 * @status:  its IPU_STATUS_*
 * @detail:  its detail
 * @detail2: its second detail
 * @locked:  which q->lock the caller holds
 *
 * Any context. The cause kept is the part with the highest rank, the
 * lowest member among equals.
 */
void ipu_grun_done(struct ipu_grun *grp, u32 member, u32 status,
		   u32 detail, u32 detail2, enum ipu_grun_locked locked)
{
	u32 rank = ipu_grun_rank(status);
	unsigned long flags;

	spin_lock_irqsave(&grp->lock, flags);
	if (rank > grp->rank || (rank && rank == grp->rank &&
				 member < grp->member)) {
		grp->rank = rank;
		grp->status = status;
		grp->detail = detail;
		grp->detail2 = detail2;
		grp->member = member;
	}
	spin_unlock_irqrestore(&grp->lock, flags);
	/* The cause is in place before the count says complete. */
	if (atomic_dec_and_test(&grp->pending))
		ipu_grun_notify(grp, locked);
}

/* The group command's result: its cause's status and details. */
void ipu_grun_result(struct ipu_grun *grp, u32 *status, u32 *detail,
		     u32 *detail2, u32 *member)
{
	unsigned long flags;

	spin_lock_irqsave(&grp->lock, flags);
	*status = grp->status;
	*detail = grp->detail;
	*detail2 = grp->detail2;
	*member = grp->member;
	spin_unlock_irqrestore(&grp->lock, flags);
}

/*
 * SUBMIT with IPU_CMD_FLAG_GROUP (@c checked): the leader's part first
 * (its failure fails the SUBMIT, nothing queued), then each member's under
 * ipu_group_mutex, so that the group cannot end meanwhile. A member the
 * command cannot be queued on reports NOT_SUBMITTED at once; the parts
 * queued already run on (a queued command is never taken back).
 */
long ipu_group_submit(struct ipu_ctx *ctx, struct ipu_cmd *c,
		      void __user *uarg, u32 usize)
{
	struct ipu_group_part parts[IPU_GROUP_MAX_OTHERS];
	struct ipu_cmd_part part = { 0 };
	struct ipu_queue *q = NULL;
	struct ipu_kcmd *cmd;
	unsigned int n;
	u64 seq = 0;
	int ret;

	ret = ipu_group_lock(ctx, parts, &n);
	if (ret)
		return ret;
	part.grp = ipu_grun_new(ctx, n + 1);
	if (!part.grp) {
		ipu_group_unlock();
		return -ENOMEM;
	}
	ret = ipu_cmd_queue(ctx, c, &part, &cmd, &q, &seq);
	if (ret) {
		ipu_group_unlock();
		ipu_grun_put(part.grp);
		return ret;
	}
	ipu_grun_set_queue(part.grp, q);
	part.child = true;
	for (unsigned int i = 0; i < n; i++) {
		struct ipu_kcmd *none;
		struct ipu_queue *mq;
		u64 mseq;

		part.member = parts[i].index;
		part.gen = parts[i].gen;
		ret = ipu_cmd_queue(parts[i].ctx, c, &part, &none, &mq, &mseq);
		if (ret)
			ipu_grun_done(part.grp, part.member,
				      IPU_STATUS_NOT_SUBMITTED, -ret, 0,
				      IPU_GRUN_UNLOCKED);
	}
	ipu_group_unlock();
	ipu_grun_put(part.grp);		/* the parts hold it now */
	return ipu_cmd_submitted(ctx, q, cmd, c, seq, uarg, usize);
}
