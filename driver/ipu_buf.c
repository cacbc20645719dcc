// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: DMA memory. Driver pages (BUF_ALLOC, mmap-able),
 * pinned user memory (BUF_PIN and a SUBMIT's user_ptr), their DMA mappings
 * and the card's scatter-gather lists.
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipu_drv.h"

#define IPU_BUF_SIZE_V1		offsetofend(struct ipu_buf, reserved)
#define IPU_BUF_MAX_SIZE	BIT_ULL(30)
/* Largest driver allocation tried first: 2 MiB chunks, split into pages. */
#define IPU_ALLOC_MAX_ORDER	9
/* One SG entry covers at most this much (the card allows 4 GiB - 1). */
#define IPU_SGE_MAX_LEN		0x80000000ull
/* BUF_ALLOC buffers are mapped at handle << IPU_MMAP_SHIFT. */
#define IPU_MMAP_SHIFT		32

static struct device *ipu_dma_dev(struct ipu_device *idev)
{
	return &idev->pdev->dev;
}

/*
 * Maps @mem (pages, offset, size and dir set) for the card. Memory the card
 * may write claims its cache lines first (ipu_wmem.c): -EBUSY when another
 * mapping has one of them.
 */
int ipu_dmamem_map(struct ipu_device *idev, struct ipu_dmamem *mem)
{
	int ret;

	ret = ipu_wmem_claim(mem);
	if (ret)
		return ret;
	ret = sg_alloc_table_from_pages(&mem->sgt, mem->pages, mem->npages,
					mem->offset, mem->size, GFP_KERNEL);
	if (ret)
		goto err_claim;
	ret = dma_map_sgtable(ipu_dma_dev(idev), &mem->sgt, mem->dir, 0);
	if (ret)
		goto err_sgt;
	mem->mapped = true;
	return 0;

err_sgt:
	sg_free_table(&mem->sgt);
err_claim:
	ipu_wmem_release(mem);
	return ret;
}

/* Ends the card's access: DMA unmap and free the sg table. Idempotent. */
void ipu_dmamem_unmap(struct ipu_device *idev, struct ipu_dmamem *mem)
{
	if (!mem->mapped)
		return;
	dma_unmap_sgtable(ipu_dma_dev(idev), &mem->sgt, mem->dir, 0);
	sg_free_table(&mem->sgt);
	ipu_wmem_release(mem);
	mem->mapped = false;
}

/* Drops the pages: unpin (and uncharge) user pages, free driver pages. */
static void ipu_dmamem_put_pages(struct ipu_device *idev,
				 struct ipu_dmamem *mem)
{
	unsigned long i;

	if (!mem->pages)
		return;
	if (mem->user) {
		unpin_user_pages_dirty_lock(mem->pages, mem->npages,
					    mem->dirty);
		atomic_sub(mem->npages, &idev->pinned_pages);
		if (mem->acct_mm) {
			atomic64_sub(mem->npages, &mem->acct_mm->pinned_vm);
			mmdrop(mem->acct_mm);
			mem->acct_mm = NULL;
		}
	} else {
		for (i = 0; i < mem->npages; i++)
			if (mem->pages[i])
				put_page(mem->pages[i]);
		atomic_sub(mem->npages, &idev->alloc_pages);
	}
	kvfree(mem->pages);
	mem->pages = NULL;
}

void ipu_dmamem_release(struct ipu_device *idev, struct ipu_dmamem *mem)
{
	ipu_dmamem_unmap(idev, mem);
	ipu_dmamem_put_pages(idev, mem);
}

/* Charges @npages to the caller's pinned_vm; -ENOMEM beyond RLIMIT_MEMLOCK. */
static int ipu_account_pinned(struct ipu_dmamem *mem, unsigned long npages)
{
	struct mm_struct *mm = current->mm;
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	s64 now;

	if (!mm)
		return -ESRCH;
	now = atomic64_add_return(npages, &mm->pinned_vm);
	if (now > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(npages, &mm->pinned_vm);
		return -ENOMEM;
	}
	mmgrab(mm);
	mem->acct_mm = mm;
	return 0;
}

/**
 * ipu_dmamem_pin() - pin user memory and map it for the card
 * @idev:     the card
 * @mem:      zeroed; filled in
 * @uaddr:    start of the user memory (any alignment)
 * @size:     bytes, > 0
 * @write:    the card writes the memory (FOLL_WRITE)
 * @longterm: FOLL_LONGTERM (buffers that outlive the ioctl)
 * @account:  charge RLIMIT_MEMLOCK (pinned_vm)
 *
 * Return: 0, -EFAULT (unmapped or, with @write, read-only memory), -ENOMEM,
 * -EBUSY (@write, and the card may already write some of its cache lines).
 */
int ipu_dmamem_pin(struct ipu_device *idev, struct ipu_dmamem *mem,
		   u64 uaddr, u64 size, bool write, bool longterm,
		   bool account)
{
	unsigned int gup = (write ? FOLL_WRITE : 0) |
			   (longterm ? FOLL_LONGTERM : 0);
	unsigned long start = uaddr & PAGE_MASK, done = 0, npages;
	int ret;

	if (!size || uaddr + size < uaddr ||
	    !access_ok(u64_to_user_ptr(uaddr), size))
		return -EFAULT;
	npages = (offset_in_page(uaddr) + size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	mem->user = true;
	mem->dirty = write;
	/* Memory the card only reads is never mapped writable for it. */
	mem->dir = write ? DMA_BIDIRECTIONAL : DMA_TO_DEVICE;
	mem->offset = offset_in_page(uaddr);
	mem->size = size;

	if (account) {
		ret = ipu_account_pinned(mem, npages);
		if (ret)
			return ret;
	}
	mem->pages = kvmalloc_array(npages, sizeof(*mem->pages), GFP_KERNEL);
	if (!mem->pages) {
		ret = -ENOMEM;
		goto err_acct;
	}
	while (done < npages) {
		int n = min_t(unsigned long, npages - done, SZ_64K);

		ret = pin_user_pages_fast(start + done * PAGE_SIZE, n, gup,
					  mem->pages + done);
		if (ret <= 0) {
			ret = ret ?: -EFAULT;
			goto err_unpin;
		}
		done += ret;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto err_unpin;
		}
	}
	mem->npages = npages;
	atomic_add(npages, &idev->pinned_pages);

	ret = ipu_dmamem_map(idev, mem);
	if (ret) {
		ipu_dmamem_put_pages(idev, mem);
		return ret;
	}
	return 0;

err_unpin:
	if (done)
		unpin_user_pages(mem->pages, done);
	kvfree(mem->pages);
	mem->pages = NULL;
err_acct:
	if (mem->acct_mm) {
		atomic64_sub(npages, &mem->acct_mm->pinned_vm);
		mmdrop(mem->acct_mm);
		mem->acct_mm = NULL;
	}
	return ret;
}

/* Zeroed driver pages, in chunks of up to 2 MiB split into single pages. */
static int ipu_dmamem_alloc(struct ipu_device *idev, struct ipu_dmamem *mem,
			    u64 size)
{
	unsigned long npages = DIV_ROUND_UP(size, PAGE_SIZE), done = 0, i;
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO | __GFP_ACCOUNT;
	int ret;

	mem->dir = DMA_BIDIRECTIONAL;
	mem->size = size;
	mem->pages = kvcalloc(npages, sizeof(*mem->pages), GFP_KERNEL);
	if (!mem->pages)
		return -ENOMEM;
	mem->npages = npages;
	atomic_add(npages, &idev->alloc_pages);

	while (done < npages) {
		unsigned int order = min_t(unsigned int, IPU_ALLOC_MAX_ORDER,
					   ilog2(npages - done));
		struct page *page = NULL;

		for (; order > 0 && !page; order--) {
			page = alloc_pages(gfp | __GFP_NOWARN | __GFP_NORETRY,
					   order);
			if (page)
				break;
		}
		if (!page) {
			order = 0;
			page = alloc_page(gfp);
		}
		if (!page) {
			ret = -ENOMEM;
			goto err;
		}
		if (order)
			split_page(page, order);
		for (i = 0; i < (1ul << order); i++)
			mem->pages[done + i] = page + i;
		done += 1ul << order;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto err;
		}
	}

	ret = ipu_dmamem_map(idev, mem);
	if (ret)
		goto err;
	return 0;
err:
	ipu_dmamem_put_pages(idev, mem);
	return ret;
}

/*
 * Walks the DMA segments of @mem covering [offset, offset + length), merging
 * contiguous ones; fills @ent when non-NULL. Returns the number of entries.
 */
static size_t ipu_sgl_walk(struct ipu_dmamem *mem, u64 offset, u64 length,
			   struct ipu_sge *ent)
{
	struct scatterlist *sg;
	u64 last_addr = 0, last_len = 0;
	size_t n = 0;
	unsigned int i;

	for_each_sgtable_dma_sg(&mem->sgt, sg, i) {
		u64 addr = sg_dma_address(sg), len = sg_dma_len(sg);

		if (!length)
			break;
		if (offset >= len) {
			offset -= len;
			continue;
		}
		addr += offset;
		len -= offset;
		offset = 0;
		len = min(len, length);
		length -= len;

		while (len) {
			u64 take;

			if (n && last_addr + last_len == addr &&
			    last_len < IPU_SGE_MAX_LEN) {
				take = min(len, IPU_SGE_MAX_LEN - last_len);
				last_len += take;
				if (ent)
					ent[n - 1].len = ipu_le32(last_len);
			} else {
				take = min(len, IPU_SGE_MAX_LEN);
				last_addr = addr;
				last_len = take;
				if (ent) {
					ent[n].addr = ipu_le64(addr);
					ent[n].len = ipu_le32(take);
					ent[n].reserved = 0;
				}
				n++;
			}
			addr += take;
			len -= take;
		}
	}
	return n;
}

/**
 * ipu_sgl_build() - point @sqe's data at [offset, offset + length) of @mem
 * @idev:   the card
 * @mem:    mapped memory
 * @offset: start in @mem's data
 * @length: bytes, > 0, offset + length <= mem->size
 * @cmd:    receives the SG list (freed by ipu_kcmd_release_res())
 * @sqe:    data, sgl_count and length are set
 *
 * One contiguous DMA range needs no list (sgl_count 0).
 */
int ipu_sgl_build(struct ipu_device *idev, struct ipu_dmamem *mem,
		  u64 offset, u64 length, struct ipu_kcmd *cmd,
		  struct ipu_sqe *sqe)
{
	struct ipu_sge one;
	size_t n;

	n = ipu_sgl_walk(mem, offset, length, NULL);
	if (!n || n > IPU_MAX_SGL_ENTRIES)
		return -EINVAL;
	sqe->length = length;
	if (n == 1) {
		ipu_sgl_walk(mem, offset, length, &one);
		sqe->data = le64_to_cpu((__force __le64)one.addr);
		sqe->sgl_count = 0;
		return 0;
	}
	cmd->sgl_bytes = n * sizeof(struct ipu_sge);
	cmd->sgl = dma_alloc_coherent(ipu_dma_dev(idev), cmd->sgl_bytes,
				      &cmd->sgl_dma, GFP_KERNEL);
	if (!cmd->sgl)
		return -ENOMEM;
	ipu_sgl_walk(mem, offset, length, cmd->sgl);
	sqe->data = cmd->sgl_dma;
	sqe->sgl_count = n;
	return 0;
}

static void ipu_buffer_kref_release(struct kref *ref)
{
	struct ipu_buffer *buf = container_of(ref, struct ipu_buffer, ref);

	/*
	 * Unmapped already (free or detach). The pages go now; a user mapping
	 * keeps its own page references (vm_insert_pages()).
	 */
	ipu_dmamem_put_pages(buf->idev, &buf->mem);
	kfree(buf);
}

static void ipu_buffer_put(struct ipu_buffer *buf)
{
	kref_put(&buf->ref, ipu_buffer_kref_release);
}

/* Called with ctx->mutex held, the buffer out of ctx->bufs and idle. */
static void ipu_buffer_destroy(struct ipu_ctx *ctx, struct ipu_buffer *buf)
{
	ipu_dmamem_unmap(ctx->idev, &buf->mem);
	atomic_dec(&ctx->idev->nbufs);
	ipu_buffer_put(buf);
}

/* Argument checks common to ALLOC and PIN; ctx->mutex not held. */
static int ipu_buf_args(struct ipu_buf *ab, void __user *uarg, u32 *usize)
{
	int ret;

	ret = ipu_args_in(ab, sizeof(*ab), IPU_BUF_SIZE_V1, 0, uarg, usize);
	if (ret)
		return ret;
	if (ab->reserved0 ||
	    memchr_inv(ab->reserved, 0, sizeof(ab->reserved)))
		return -EINVAL;
	return 0;
}

static long ipu_buf_create(struct ipu_ctx *ctx, void __user *uarg, bool pin)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_buffer *buf;
	struct ipu_buf ab;
	u32 usize, id;
	int ret;

	ret = ipu_buf_args(&ab, uarg, &usize);
	if (ret)
		return ret;
	if (ab.handle || ab.mmap_offset || (!pin && ab.user_addr))
		return -EINVAL;
	if (!ab.size || ab.size > IPU_BUF_MAX_SIZE)
		return -EINVAL;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	kref_init(&buf->ref);
	buf->idev = idev;
	atomic_set(&buf->busy, 0);
	buf->alloc = !pin;

	ret = ipu_ctx_enter(ctx);
	if (ret) {
		kfree(buf);
		return ret;
	}
	/* A reset from here on makes the buffer stale: its first use says so. */
	buf->gen = atomic64_read(&idev->generation);
	if (pin)
		ret = ipu_dmamem_pin(idev, &buf->mem, ab.user_addr, ab.size,
				     true, true, true);
	else
		ret = ipu_dmamem_alloc(idev, &buf->mem, ab.size);
	if (ret)
		goto err_unlock;
	ret = xa_alloc(&ctx->bufs, &id, buf, XA_LIMIT(1, INT_MAX), GFP_KERNEL);
	if (ret) {
		ipu_dmamem_release(idev, &buf->mem);
		goto err_unlock;
	}
	buf->handle = id;
	atomic_inc(&idev->nbufs);
	ab.handle = id;
	ab.mmap_offset = pin ? 0 : (u64)id << IPU_MMAP_SHIFT;
	ret = ipu_args_out(uarg, &ab, sizeof(ab), usize);
	if (ret) {
		xa_erase(&ctx->bufs, id);
		ipu_buffer_destroy(ctx, buf);
	}
	mutex_unlock(&ctx->mutex);
	return ret;

err_unlock:
	mutex_unlock(&ctx->mutex);
	kfree(buf);
	return ret;
}

long ipu_ioctl_buf_alloc(struct ipu_ctx *ctx, void __user *uarg)
{
	return ipu_buf_create(ctx, uarg, false);
}

long ipu_ioctl_buf_pin(struct ipu_ctx *ctx, void __user *uarg)
{
	return ipu_buf_create(ctx, uarg, true);
}

long ipu_ioctl_buf_free(struct ipu_ctx *ctx, void __user *uarg)
{
	struct ipu_buffer *buf;
	struct ipu_buf ab;
	u32 usize;
	int ret;

	ret = ipu_buf_args(&ab, uarg, &usize);
	if (ret)
		return ret;
	if (ab.size || ab.user_addr || ab.mmap_offset)
		return -EINVAL;

	ret = ipu_ctx_enter(ctx);
	if (ret)
		return ret;
	buf = ab.handle ? xa_load(&ctx->bufs, ab.handle) : NULL;
	if (!buf) {
		ret = -ENOENT;
		goto out;
	}
	/* Submission holds ctx->mutex too: busy cannot rise meanwhile. */
	if (atomic_read(&buf->busy)) {
		ret = -EBUSY;
		goto out;
	}
	xa_erase(&ctx->bufs, ab.handle);
	ipu_buffer_destroy(ctx, buf);
out:
	mutex_unlock(&ctx->mutex);
	return ret;
}

/* Detach: ctx->mutex held, the queue stopped, every command released. */
void ipu_bufs_free_all(struct ipu_ctx *ctx)
{
	struct ipu_buffer *buf;
	unsigned long id;

	xa_for_each(&ctx->bufs, id, buf) {
		xa_erase(&ctx->bufs, id);
		ipu_buffer_destroy(ctx, buf);
	}
}

/**
 * ipu_generation_advance() - a reset starts: every buffer becomes stale
 * @idev: the card; reset_lock, attach_lock and hw_rwsem (read) held
 *
 * Only the attached context has buffers (they go at detach), and
 * attach_lock keeps it attached. Its file's buffer mappings (offsets from
 * 4 GiB up, of every process and every file on the same inode) are zapped
 * after the generation moved on: a mapping made meanwhile either is zapped
 * here or sees the new generation in ipu_mmap() and is refused. The pages
 * themselves stay the buffer's until BUF_FREE, detach or release.
 */
void ipu_generation_advance(struct ipu_device *idev)
{
	struct ipu_ctx *ctx = idev->attached;

	atomic64_inc(&idev->generation);
	/* Pairs with the barrier in ipu_mmap() after it inserted pages. */
	smp_mb__after_atomic();
	if (ctx)
		unmap_mapping_range(ctx->mapping, BIT_ULL(IPU_MMAP_SHIFT), 0, 1);
}

/*
 * Pages of a buffer mapping are inserted at mmap(): a fault means the
 * mapping was zapped by a reset (the buffer is stale) and gets SIGBUS.
 */
static vm_fault_t ipu_buf_fault(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct ipu_buf_vm_ops = {
	.fault = ipu_buf_fault,
};

/*
 * mmap() of a BUF_ALLOC buffer at its mmap_offset (plus whole pages), or of
 * a piece of the user queue (below 4 GiB, ipu_uqueue.c). A stale buffer
 * (1.8) is -EIO, also when a reset started while its pages went in.
 * Runs under mmap_lock: takes no ctx->mutex (see the lock order).
 */
int ipu_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct ipu_ctx *ctx = filp->private_data;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	unsigned long first, num = vma_pages(vma);
	struct ipu_buffer *buf;
	struct page **pages;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (off < BIT_ULL(IPU_MMAP_SHIFT))
		return ipu_uqueue_mmap(ctx, vma);
	first = (off & (BIT_ULL(IPU_MMAP_SHIFT) - 1)) >> PAGE_SHIFT;

	xa_lock(&ctx->bufs);
	buf = xa_load(&ctx->bufs, off >> IPU_MMAP_SHIFT);
	if (buf && buf->alloc)
		kref_get(&buf->ref);
	else
		buf = NULL;
	xa_unlock(&ctx->bufs);
	if (!buf)
		return -EINVAL;

	/* pages is stable: it goes only with the last reference's owner. */
	pages = READ_ONCE(buf->mem.pages);
	if (!pages || first >= buf->mem.npages ||
	    num > buf->mem.npages - first) {
		ret = -EINVAL;
		goto out;
	}
	if (ipu_buf_stale(buf)) {
		ret = -EIO;
		goto out;
	}
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_ops = &ipu_buf_vm_ops;
	ret = vm_insert_pages(vma, vma->vm_start, pages + first, &num);
	/*
	 * The vma is not yet on the file's mapping: a reset that zapped it
	 * meanwhile missed these pages. mmap_region() undoes them on error.
	 */
	smp_mb();
	if (!ret && ipu_buf_stale(buf))
		ret = -EIO;
out:
	ipu_buffer_put(buf);
	return ret;
}
