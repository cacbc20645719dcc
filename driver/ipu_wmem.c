// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: memory the card may write is the target of one
 * mapping at a time (docs/uapi.md, "Buffers").
 *
 * Two device-writable mappings of one cache line would let two transfers
 * race into the same bytes, and the CPU's view of the line would depend on
 * which finished last (the DMA API forbids it; DMA-API debugging reports
 * it as "cacheline tracking EEXIST"). Every device-writable mapping of the
 * driver (BUF_ALLOC's pages, BUF_PIN, a READ's user_ptr, the user queue's
 * rings) claims the physical cache lines it covers here, across all cards,
 * before it is DMA-mapped, and gives them back after it is unmapped. A
 * second claim of a line is -EBUSY.
 *
 * The claims are an interval tree of line numbers under one spinlock; a
 * mapping claims one interval per physically contiguous run of its pages.
 */
#include <linux/cache.h>
#include <linux/interval_tree_generic.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "ipu_drv.h"

struct ipu_wclaim {
	struct rb_node rb;
	unsigned long first, last;	/* cache line numbers, inclusive */
	unsigned long subtree_last;
};

#define IPU_WCLAIM_FIRST(c)	((c)->first)
#define IPU_WCLAIM_LAST(c)	((c)->last)

INTERVAL_TREE_DEFINE(struct ipu_wclaim, rb, unsigned long, subtree_last,
		     IPU_WCLAIM_FIRST, IPU_WCLAIM_LAST, static inline,
		     ipu_wclaim)

static struct rb_root_cached ipu_wclaims = RB_ROOT_CACHED;
static DEFINE_SPINLOCK(ipu_wclaims_lock);

/*
 * The physically contiguous runs of @mem's data, as cache line intervals,
 * into @out (NULL: only count them). Returns the number of runs.
 */
static unsigned long ipu_wmem_runs(const struct ipu_dmamem *mem,
				   struct ipu_wclaim *out)
{
	u64 end = mem->offset + mem->size;
	phys_addr_t lo = 0, hi = 0;
	unsigned long i, n = 0;

	for (i = 0; i < mem->npages; i++) {
		u64 a = i ? 0 : mem->offset;
		u64 b = min_t(u64, PAGE_SIZE, end - (u64)i * PAGE_SIZE);
		phys_addr_t p = page_to_phys(mem->pages[i]);

		if (n && p + a == hi) {
			hi = p + b;
			continue;
		}
		if (n && out) {
			out[n - 1].first = lo >> L1_CACHE_SHIFT;
			out[n - 1].last = (hi - 1) >> L1_CACHE_SHIFT;
		}
		lo = p + a;
		hi = p + b;
		n++;
	}
	if (n && out) {
		out[n - 1].first = lo >> L1_CACHE_SHIFT;
		out[n - 1].last = (hi - 1) >> L1_CACHE_SHIFT;
	}
	return n;
}

/**
 * ipu_wmem_claim() - claim the cache lines of device-writable @mem
 * @mem: pages, offset and size set; not yet DMA-mapped
 *
 * Memory the card only reads (DMA_TO_DEVICE) claims nothing.
 * Return: 0, -EBUSY (a line is claimed already, also by @mem itself:
 * the same page twice), -ENOMEM.
 */
int ipu_wmem_claim(struct ipu_dmamem *mem)
{
	struct ipu_wclaim *c;
	unsigned long n, i;
	bool busy;

	if (mem->dir == DMA_TO_DEVICE || !mem->npages)
		return 0;
	n = ipu_wmem_runs(mem, NULL);
	c = kvcalloc(n, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	ipu_wmem_runs(mem, c);

	spin_lock(&ipu_wclaims_lock);
	for (i = 0; i < n; i++) {
		if (ipu_wclaim_iter_first(&ipu_wclaims, c[i].first,
					  c[i].last))
			break;
		ipu_wclaim_insert(&c[i], &ipu_wclaims);
	}
	busy = i < n;
	if (busy) {
		while (i--)
			ipu_wclaim_remove(&c[i], &ipu_wclaims);
	}
	spin_unlock(&ipu_wclaims_lock);
	if (busy) {
		kvfree(c);
		return -EBUSY;
	}
	mem->claims = c;
	mem->nclaims = n;
	return 0;
}

/* Gives @mem's lines back, once it is unmapped. Idempotent. */
void ipu_wmem_release(struct ipu_dmamem *mem)
{
	unsigned long i;

	if (!mem->claims)
		return;
	spin_lock(&ipu_wclaims_lock);
	for (i = 0; i < mem->nclaims; i++)
		ipu_wclaim_remove(&mem->claims[i], &ipu_wclaims);
	spin_unlock(&ipu_wclaims_lock);
	kvfree(mem->claims);
	mem->claims = NULL;
	mem->nclaims = 0;
}
