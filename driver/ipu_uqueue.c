// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: the user queue (docs/uapi.md, "User queue"). An
 * attached context may own a second queue of the card that its process
 * drives itself: the rings are driver pages mapped for the card and into
 * the process (the process's mappings hold page references, so the pages
 * outlive the card's mapping, which remove ends),
 * the doorbell page is the queue's page of BAR4, and the card runs it with
 * CTRL.USER, which limits it to commands that carry no host address (RUN,
 * FENCE, ABORT). The driver only creates, stops and unmaps it; completions
 * on it are the process's, the driver just wakes poll() for them.
 *
 * mmap offsets: each context with rings gets an id (ipu_uq_ida) and the
 * pages id * IPU_UQ_PIECES + {SQ, CQ, DB, REC} below 4 GiB, so that DETACH can
 * unmap exactly its doorbell page from every process that mapped it
 * (unmap_mapping_range() on the device inode's mapping). Buffers live at
 * handle << 32 (ipu_buf.c), above.
 *
 * Locking: ctx->uq and the rings change under ctx->mutex; the queue's user,
 * ctx, hw_ok, uq_dead and uq_gen under q->lock. The doorbell fault handler
 * runs under mmap_lock and takes only q->lock; DETACH bumps uq_gen under
 * q->lock before it unmaps, and a fault that raced with it undoes its own
 * insertion (see ipu_uq_db_fault()).
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/poll.h>

#include "ipu_drv.h"

#define IPU_UQ_ENTRIES		64
#define IPU_UQ_SQ_BYTES		PAGE_ALIGN(IPU_UQ_ENTRIES * sizeof(struct ipu_sqe))
#define IPU_UQ_CQ_BYTES		PAGE_ALIGN(IPU_UQ_ENTRIES * sizeof(struct ipu_cqe))
#define IPU_UQ_REC_BYTES	PAGE_ALIGN(IPU_UQ_ENTRIES * sizeof(struct ipu_run_record))
#define IPU_UQ_SIZE_V1		offsetofend(struct ipu_uqueue, reserved)

/* mmap pages of one context: SQ, CQ, doorbell, a gap, records (2 pages). */
enum {
	IPU_UQ_PIECE_SQ, IPU_UQ_PIECE_CQ, IPU_UQ_PIECE_DB,
	IPU_UQ_PIECE_REC = 4, IPU_UQ_PIECES = 8
};

/* Ids whose pages stay below 4 GiB, where no buffer is mapped. */
#define IPU_UQ_IDS		(SZ_4G / PAGE_SIZE / IPU_UQ_PIECES)

static DEFINE_IDA(ipu_uq_ida);

static_assert(IPU_UQ_ENTRIES >= IPU_Q_SIZE_MIN && IPU_UQ_ENTRIES <= IPU_Q_SIZE_MAX);

static u64 ipu_uq_offset(const struct ipu_ctx *ctx, unsigned int piece)
{
	return ((u64)ctx->uq_id * IPU_UQ_PIECES + piece) << PAGE_SHIFT;
}

/* Where each ring lies in ctx->uq_mem (page aligned). */
#define IPU_UQ_SQ_OFF		0
#define IPU_UQ_CQ_OFF		(IPU_UQ_SQ_OFF + IPU_UQ_SQ_BYTES)
#define IPU_UQ_REC_OFF		(IPU_UQ_CQ_OFF + IPU_UQ_CQ_BYTES)
#define IPU_UQ_BYTES		(IPU_UQ_REC_OFF + IPU_UQ_REC_BYTES)

static void *ipu_uq_ring(struct ipu_ctx *ctx, size_t off)
{
	return page_address(ctx->uq_mem.pages[off >> PAGE_SHIFT]);
}

static dma_addr_t ipu_uq_dma(struct ipu_ctx *ctx, size_t off)
{
	return sg_dma_address(ctx->uq_mem.sgt.sgl) + off;
}

/*
 * ctx->mutex held: zeroed pages for the rings, physically contiguous (one
 * DMA segment), each its own page for the process's mappings.
 */
static int ipu_uq_alloc_pages(struct ipu_ctx *ctx)
{
	struct ipu_dmamem *mem = &ctx->uq_mem;
	unsigned int order = get_order(IPU_UQ_BYTES), i;
	unsigned long n = IPU_UQ_BYTES >> PAGE_SHIFT;
	struct page *page;

	mem->pages = kcalloc(n, sizeof(*mem->pages), GFP_KERNEL);
	if (!mem->pages)
		return -ENOMEM;
	page = alloc_pages(GFP_KERNEL | __GFP_ZERO | __GFP_ACCOUNT, order);
	if (!page) {
		kfree(mem->pages);
		mem->pages = NULL;
		return -ENOMEM;
	}
	split_page(page, order);
	for (i = 0; i < (1u << order); i++) {
		if (i < n)
			mem->pages[i] = page + i;
		else
			__free_page(page + i);
	}
	mem->npages = n;
	atomic_add(n, &ctx->idev->alloc_pages);
	mem->size = IPU_UQ_BYTES;
	mem->offset = 0;
	mem->dir = DMA_BIDIRECTIONAL;
	return 0;
}

/* ctx->mutex held: the rings, mapped for the card, and the mmap id, once. */
static int ipu_uq_alloc(struct ipu_ctx *ctx, struct file *filp)
{
	int id, ret;

	if (ctx->uq_id >= 0)
		return 0;
	ret = ipu_uq_alloc_pages(ctx);
	if (ret)
		return ret;
	ret = ipu_dmamem_map(ctx->idev, &ctx->uq_mem);
	if (!ret && ctx->uq_mem.sgt.nents != 1)
		ret = -ENOMEM;		/* the rings need one DMA segment */
	id = ret ? -1 : ida_alloc_max(&ipu_uq_ida, IPU_UQ_IDS - 1, GFP_KERNEL);
	if (ret || id < 0) {
		ipu_uqueue_free(ctx);
		return ret ?: id;
	}
	/* mmap() looks at the pages once it sees the id (no ctx->mutex). */
	smp_store_release(&ctx->uq_id, id);
	return 0;
}

/*
 * Remove (ctxs_lock and ctx->mutex held), or release: the card has let go
 * of the user queue (ipu_uqueue_stop()); its DMA mapping ends now, while
 * the device is still there. The pages stay for the process's mappings.
 */
void ipu_uqueue_unmap(struct ipu_ctx *ctx)
{
	if (ctx->uq_mem.mapped)
		ipu_dmamem_unmap(ctx->idev, &ctx->uq_mem);
}

/*
 * release (after remove, or with ctxs_lock held): the process has no
 * mapping left; the card let go at detach. Also undoes ipu_uq_alloc().
 */
void ipu_uqueue_free(struct ipu_ctx *ctx)
{
	ipu_uqueue_unmap(ctx);
	ipu_dmamem_release(ctx->idev, &ctx->uq_mem);
	memset(&ctx->uq_mem, 0, sizeof(ctx->uq_mem));
	if (ctx->uq_id >= 0)
		ida_free(&ipu_uq_ida, ctx->uq_id);
	ctx->uq_id = -1;
}

/* ctx->mutex held, attached: a queue of the card nobody uses, claimed. */
static struct ipu_queue *ipu_uq_claim(struct ipu_ctx *ctx)
{
	struct ipu_device *idev = ctx->idev;
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < IPU_NUM_QUEUES; i++) {
		struct ipu_queue *q = &idev->queues[i];
		bool mine = false;

		spin_lock_irqsave(&q->lock, flags);
		if (!q->active) {
			q->active = true;
			q->user = true;
			q->uq_dead = true;	/* not running yet */
			q->hw_ok = false;
			q->closing = false;
			q->ctx = ctx;
			mine = true;
		}
		spin_unlock_irqrestore(&q->lock, flags);
		if (mine)
			return q;
	}
	return NULL;
}

long ipu_ioctl_uqueue(struct ipu_ctx *ctx, struct file *filp,
		      void __user *uarg)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_uqueue uq;
	struct ipu_queue *q;
	unsigned long flags;
	u32 usize;
	int ret;

	ret = ipu_args_in(&uq, sizeof(uq), IPU_UQ_SIZE_V1, 0, uarg, &usize);
	if (ret)
		return ret;
	if (uq.rec_offset || memchr_inv(uq.reserved, 0, sizeof(uq.reserved)))
		return -EINVAL;
	if (!idev->feat.user_queues)
		return -EOPNOTSUPP;

	ret = ipu_ctx_enter(ctx);
	if (ret)
		return ret;
	ret = ipu_uq_alloc(ctx, filp);
	if (!ret && !ctx->uq_mem.mapped)
		ret = -ENODEV;		/* unmapped by remove */
	if (ret)
		goto out;
	q = ctx->uq;
	if (!q) {
		q = ipu_uq_claim(ctx);
		if (!q) {
			ret = -EBUSY;
			goto out;
		}
		ctx->uq = q;
	}

	down_read(&idev->hw_rwsem);
	spin_lock_irqsave(&q->lock, flags);
	if (READ_ONCE(idev->gone)) {
		ret = -ENODEV;
	} else if (!q->uq_dead) {
		ret = -EEXIST;
	} else {
		struct ipu_queue_rings r = {
			.sq = ipu_uq_dma(ctx, IPU_UQ_SQ_OFF),
			.cq = ipu_uq_dma(ctx, IPU_UQ_CQ_OFF),
			.rec = ipu_uq_dma(ctx, IPU_UQ_REC_OFF),
			.entries = IPU_UQ_ENTRIES,
		};

		/* Empty rings: tail and head 0, a zeroed CQ is phase 0. */
		memset(ipu_uq_ring(ctx, IPU_UQ_SQ_OFF), 0, IPU_UQ_SQ_BYTES);
		memset(ipu_uq_ring(ctx, IPU_UQ_CQ_OFF), 0, IPU_UQ_CQ_BYTES);
		memset(ipu_uq_ring(ctx, IPU_UQ_REC_OFF), 0, IPU_UQ_REC_BYTES);
		ipu_queue_enable_locked(q, &r, IPU_Q_CTRL_USER);
		if (q->hw_ok)
			q->uq_dead = false;
		else
			ret = -EIO;
	}
	spin_unlock_irqrestore(&q->lock, flags);
	up_read(&idev->hw_rwsem);
	if (ret)
		goto out;

	uq.entries = IPU_UQ_ENTRIES;
	uq.queue = q->index;
	uq.sq_offset = ipu_uq_offset(ctx, IPU_UQ_PIECE_SQ);
	uq.cq_offset = ipu_uq_offset(ctx, IPU_UQ_PIECE_CQ);
	uq.db_offset = ipu_uq_offset(ctx, IPU_UQ_PIECE_DB);
	uq.rec_offset = idev->feat.run_records ?
			ipu_uq_offset(ctx, IPU_UQ_PIECE_REC) : 0;
	ret = ipu_args_out(uarg, &uq, sizeof(uq), usize);
out:
	mutex_unlock(&ctx->mutex);
	return ret;
}

/**
 * ipu_uqueue_stop() - end the context's user queue (DETACH, close, remove)
 * @ctx: the detaching context
 *
 * The card lets go of the queue (a RUN in progress on it is aborted), the
 * queue goes back to the card's pool and every mapping of the doorbell page
 * is removed. Caller holds ctx->mutex and hw_rwsem (read); the BAR is
 * mapped even if the card is gone (remove waits for hw_rwsem).
 */
void ipu_uqueue_stop(struct ipu_ctx *ctx)
{
	struct ipu_queue *q = ctx->uq;
	unsigned long flags;

	if (!q)
		return;
	ipu_queue_stop_hw(q);
	spin_lock_irqsave(&q->lock, flags);
	q->active = false;
	q->user = false;
	q->uq_dead = true;
	q->uq_gen++;
	q->ctx = NULL;
	spin_unlock_irqrestore(&q->lock, flags);
	wake_up_all(&q->wq);
	ctx->uq = NULL;
	unmap_mapping_range(ctx->mapping,
			    ipu_uq_offset(ctx, IPU_UQ_PIECE_DB), PAGE_SIZE, 1);
}

/* q->lock held: does the doorbell page of @q belong to @ctx? */
static bool ipu_uq_db_mine_locked(struct ipu_queue *q, struct ipu_ctx *ctx)
{
	return q->user && q->ctx == ctx;
}

/*
 * The doorbell page is inserted at the first access, not at mmap(): a
 * mapping made while the queue is being stopped would otherwise survive the
 * unmap. A fault that inserted after ipu_uqueue_stop() unmapped (uq_gen
 * moved) removes its own page again.
 */
static vm_fault_t ipu_uq_db_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct ipu_ctx *ctx = vma->vm_private_data;
	struct ipu_queue *q = READ_ONCE(ctx->uq);
	unsigned long flags, pfn;
	vm_fault_t ret;
	bool mine;
	u32 gen;

	if (!q)
		return VM_FAULT_SIGBUS;
	spin_lock_irqsave(&q->lock, flags);
	mine = ipu_uq_db_mine_locked(q, ctx);
	gen = q->uq_gen;
	spin_unlock_irqrestore(&q->lock, flags);
	if (!mine)
		return VM_FAULT_SIGBUS;

	pfn = PHYS_PFN(ctx->idev->db_phys) + q->index;
	ret = vmf_insert_pfn_prot(vma, vma->vm_start, pfn,
				  pgprot_noncached(vma->vm_page_prot));

	spin_lock_irqsave(&q->lock, flags);
	mine = ipu_uq_db_mine_locked(q, ctx) && q->uq_gen == gen;
	spin_unlock_irqrestore(&q->lock, flags);
	if (!mine) {
		zap_vma_ptes(vma, vma->vm_start, PAGE_SIZE);
		return VM_FAULT_SIGBUS;
	}
	return ret;
}

static const struct vm_operations_struct ipu_uq_db_vm_ops = {
	.fault = ipu_uq_db_fault,
};

/*
 * One ring, whole, at @off in the rings' pages; @ro: the card writes it,
 * the process only reads. The mapping takes its own page references.
 */
static int ipu_uq_mmap_ring(struct ipu_ctx *ctx, struct vm_area_struct *vma,
			    size_t off, size_t size, bool ro)
{
	unsigned long num = size >> PAGE_SHIFT;

	if (vma->vm_end - vma->vm_start != size ||
	    (ro && (vma->vm_flags & VM_WRITE)))
		return -EINVAL;
	if (ro)
		vma->vm_flags &= ~VM_MAYWRITE;
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_flags &= ~VM_MAYEXEC;
	return vm_insert_pages(vma, vma->vm_start,
			       ctx->uq_mem.pages + (off >> PAGE_SHIFT), &num);
}

/*
 * mmap() of a user-queue piece (offsets below 4 GiB). Runs under mmap_lock:
 * takes no ctx->mutex; the pages never move once the id is published and
 * are freed only at release, when no file reference (so no mmap) is left.
 */
int ipu_uqueue_mmap(struct ipu_ctx *ctx, struct vm_area_struct *vma)
{
	/* Pairs with ipu_uq_alloc(): the pages are set once the id is. */
	int id = smp_load_acquire(&ctx->uq_id);
	unsigned long piece;

	if (id < 0 || vma->vm_pgoff / IPU_UQ_PIECES != id ||
	    (vma->vm_flags & VM_EXEC))
		return -EINVAL;
	piece = vma->vm_pgoff % IPU_UQ_PIECES;
	switch (piece) {
	case IPU_UQ_PIECE_SQ:
		return ipu_uq_mmap_ring(ctx, vma, IPU_UQ_SQ_OFF,
					IPU_UQ_SQ_BYTES, false);
	case IPU_UQ_PIECE_CQ:
		return ipu_uq_mmap_ring(ctx, vma, IPU_UQ_CQ_OFF,
					IPU_UQ_CQ_BYTES, true);
	case IPU_UQ_PIECE_REC:
		return ipu_uq_mmap_ring(ctx, vma, IPU_UQ_REC_OFF,
					IPU_UQ_REC_BYTES, true);
	case IPU_UQ_PIECE_DB:
		if (vma->vm_end - vma->vm_start != PAGE_SIZE)
			return -EINVAL;
		vma->vm_flags |= VM_IO | VM_PFNMAP | VM_DONTEXPAND |
				 VM_DONTDUMP | VM_DONTCOPY;
		vma->vm_flags &= ~VM_MAYEXEC;
		vma->vm_private_data = ctx;
		vma->vm_ops = &ipu_uq_db_vm_ops;
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * poll(): EPOLLPRI while the user queue holds a completion the process has
 * not consumed (the card's CQ_HEAD behind its CQ_TAIL), EPOLLERR once it
 * stopped (card reset, remove). Registers on the queue's wait queue, which
 * its interrupt wakes.
 */
__poll_t ipu_uqueue_poll(struct ipu_ctx *ctx, struct file *filp,
			 struct poll_table_struct *wait)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_queue *q = READ_ONCE(ctx->uq);
	unsigned long flags;
	__poll_t mask = 0;

	if (!q)
		return 0;
	poll_wait(filp, &q->wq, wait);
	down_read(&idev->hw_rwsem);
	spin_lock_irqsave(&q->lock, flags);
	if (READ_ONCE(idev->gone) || !ipu_uq_db_mine_locked(q, ctx) ||
	    q->uq_dead || !q->hw_ok)
		mask = EPOLLERR;
	else if (ipu_read(idev, IPU_REG_Q(q->index, IPU_Q_CQ_HEAD)) !=
		 ipu_read(idev, IPU_REG_Q(q->index, IPU_Q_CQ_TAIL)))
		mask = EPOLLPRI;
	spin_unlock_irqrestore(&q->lock, flags);
	up_read(&idev->hw_rwsem);
	return mask;
}

void ipu_uqueue_exit(void)
{
	ida_destroy(&ipu_uq_ida);
}
