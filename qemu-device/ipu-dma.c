/*
 * Emulated IPU card: DMA between the card and guest RAM.
 *
 * Every address the guest gives the card goes through the device's PCI
 * address space (so through a vIOMMU when there is one) and must resolve to
 * RAM: the card refuses MMIO targets, its own BARs included, because a device
 * that DMAs into device registers re-enters device code (a known class of
 * QEMU security bugs). Such an address completes the command with
 * DMA_ERROR; nothing here can abort QEMU or allocate without bound.
 *
 * Behind an IOMMU, a translation that faults is reported by the IOMMU's
 * fault interrupt, and raising an interrupt needs the BQL: every
 * translation and mapping then runs with the BQL held (taken here when the
 * calling thread, the worker or an engine host thread, does not hold it),
 * one chunk of at most IPU_DMA_CHUNK bytes at a time, and the copy itself
 * runs without it. Without an IOMMU the BQL is never taken.
 *
 * Between chunks a transfer stops when the command was cancelled by a
 * disable of its queue or a reset (IpuState.dma_cancel), so the card lets
 * go of guest memory within one chunk's copy.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/rcu.h"
#include "qemu/atomic.h"
#include "qemu/main-loop.h"
#include "exec/memory.h"
#include "exec/address-spaces.h"
#include "sysemu/dma.h"
#include "ipu.h"
#include "trace.h"

/* SG entries read from the guest per batch. */
#define IPU_SGE_BATCH 256

void ipu_dma_init(IpuState *s)
{
    /*
     * The bus-master address space is never address_space_memory itself;
     * the one behind it is, unless an IOMMU translates the card's DMA.
     */
    s->dma_iommu = pci_device_iommu_address_space(PCI_DEVICE(s)) !=
                   &address_space_memory;
}

/* Takes the BQL for a translation if it is needed and not held: true if so. */
static bool ipu_dma_lock(IpuState *s)
{
    if (!s->dma_iommu || qemu_mutex_iothread_locked()) {
        return false;
    }
    qemu_mutex_lock_iothread();
    return true;
}

static void ipu_dma_unlock(bool locked)
{
    if (locked) {
        qemu_mutex_unlock_iothread();
    }
}

/* The worker was told to stop (disable, reset) before the DMA at @addr. */
static bool ipu_dma_cancelled(IpuState *s, uint64_t addr)
{
    if (!qatomic_read(&s->dma_cancel)) {
        return false;
    }
    trace_ipu_dma_cancelled(addr);
    return true;
}

/* Guest RAM does not back @addr: the command's fault, IPU_CS_DMA_ERROR. */
static int ipu_dma_fault(IpuDmaFault *fault, uint64_t addr, uint64_t len,
                         bool to_guest)
{
    trace_ipu_dma_fault(addr, len, to_guest);
    fault->addr = addr;
    return IPU_CS_DMA_ERROR;
}

/* The card reaches guest RAM only: never device memory or its own BARs. */
static bool ipu_dma_target_ok(MemoryRegion *mr, bool to_guest)
{
    return memory_region_is_ram(mr) && !memory_region_is_ram_device(mr) &&
           !(to_guest && mr->readonly);
}

/*
 * Length of the RAM run that starts at @addr (at most @len), or 0 when
 * @addr is not RAM (or is read-only and @to_guest). The BQL is held when
 * the card is behind an IOMMU.
 */
static uint64_t ipu_dma_ram_run(PCIDevice *pdev, uint64_t addr, uint64_t len,
                                bool to_guest)
{
    AddressSpace *as = pci_get_address_space(pdev);
    MemoryRegion *mr;
    hwaddr xlat, plen = len;

    RCU_READ_LOCK_GUARD();
    mr = address_space_translate(as, addr, &xlat, &plen, to_guest,
                                 MEMTXATTRS_UNSPECIFIED);
    if (!ipu_dma_target_ok(mr, to_guest)) {
        return 0;
    }
    return MIN(plen, len);
}

/*
 * Map the RAM at @addr for up to @len bytes and hand it to @fn piece by
 * piece, each at most IPU_DMA_CHUNK bytes. Returns IPU_CS_*.
 */
static int ipu_dma_map_range(IpuState *s, uint64_t addr, uint64_t len,
                             bool to_guest, IpuDmaFn fn, void *opaque,
                             uint64_t off, IpuDmaFault *fault)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    DMADirection dir = to_guest ? DMA_DIRECTION_FROM_DEVICE :
                                  DMA_DIRECTION_TO_DEVICE;

    while (len) {
        dma_addr_t plen = 0;
        ram_addr_t ram_off;
        MemoryRegion *mr;
        void *ptr = NULL;
        uint64_t run;
        bool locked;
        int ret;

        if (ipu_dma_cancelled(s, addr)) {
            return IPU_CS_ABORTED;
        }
        locked = ipu_dma_lock(s);
        run = ipu_dma_ram_run(pdev, addr, MIN(len, IPU_DMA_CHUNK), to_guest);
        if (run && addr + run >= addr) {
            plen = run;
            ptr = pci_dma_map(pdev, addr, &plen, dir);
            /*
             * The translation may have changed since the check (the guest
             * rewrote its IOMMU tables): a bounce buffer is not RAM.
             */
            mr = ptr ? memory_region_from_host(ptr, &ram_off) : NULL;
            if (ptr && (!plen || !mr || !ipu_dma_target_ok(mr, to_guest))) {
                pci_dma_unmap(pdev, ptr, plen, dir, 0);
                ptr = NULL;
            }
        }
        ipu_dma_unlock(locked);
        if (!ptr) {
            return ipu_dma_fault(fault, addr, len, to_guest);
        }
        ret = fn(opaque, ptr, plen, off);
        pci_dma_unmap(pdev, ptr, plen, dir, ret == IPU_CS_SUCCESS ? plen : 0);
        if (ret != IPU_CS_SUCCESS) {
            return ret;
        }
        ipu_progress(s);
        addr += plen;
        off += plen;
        len -= plen;
    }
    return IPU_CS_SUCCESS;
}

int ipu_dma_copy_fn(void *opaque, void *ptr, uint64_t len, uint64_t off)
{
    IpuCopy *c = opaque;

    if (c->to_guest) {
        memcpy(ptr, c->buf + off, len);
    } else {
        memcpy(c->buf + off, ptr, len);
    }
    return IPU_CS_SUCCESS;
}

/*
 * A read of guest RAM into @buf: one translation per contiguous run and a
 * copy straight from the RAM block, under the RCU read lock (a read has
 * nothing to mark dirty). The rings' entries and SG lists come this way:
 * a mapping per entry would cost more than the entry.
 */
static int ipu_dma_read_ram(IpuState *s, uint64_t addr, void *buf,
                            uint64_t len, IpuDmaFault *fault)
{
    AddressSpace *as = pci_get_address_space(PCI_DEVICE(s));

    while (len) {
        hwaddr xlat, plen = MIN(len, IPU_DMA_CHUNK);
        MemoryRegion *mr;
        bool locked = ipu_dma_lock(s);
        bool ok;

        /* BQL (if needed) outside the RCU read side, as vCPUs take them. */
        rcu_read_lock();
        mr = address_space_translate(as, addr, &xlat, &plen, false,
                                     MEMTXATTRS_UNSPECIFIED);
        ipu_dma_unlock(locked);
        ok = ipu_dma_target_ok(mr, false) && plen && addr + plen >= addr;
        if (ok) {
            plen = MIN(plen, len);
            memcpy(buf, (uint8_t *)memory_region_get_ram_ptr(mr) + xlat,
                   plen);
        }
        rcu_read_unlock();
        if (!ok) {
            return ipu_dma_fault(fault, addr, len, false);
        }
        buf = (uint8_t *)buf + plen;
        addr += plen;
        len -= plen;
    }
    return IPU_CS_SUCCESS;
}

int ipu_dma_ram(IpuState *s, uint64_t addr, void *buf, uint64_t len,
                bool to_guest, IpuDmaFault *fault)
{
    IpuCopy c = { .buf = buf, .to_guest = to_guest };

    if (!to_guest) {
        return ipu_dma_read_ram(s, addr, buf, len, fault);
    }
    /* Writes go through pci_dma_map/unmap, which mark the pages dirty. */
    return ipu_dma_map_range(s, addr, len, to_guest, ipu_dma_copy_fn, &c,
                             0, fault);
}

/*
 * Hand bytes [@start, @start + @len) of the transfer @fn, piece by piece;
 * with a NULL @fn only check that they are guest RAM.
 */
static int ipu_dma_piece(IpuState *s, uint64_t addr, uint64_t seg_len,
                         uint64_t seg_off, uint64_t start, uint64_t len,
                         bool to_guest, IpuDmaFn fn, void *opaque,
                         IpuDmaFault *fault)
{
    uint64_t lo = MAX(seg_off, start), hi = MIN(seg_off + seg_len, start + len);

    if (lo >= hi) {
        return IPU_CS_SUCCESS;
    }
    if (!fn) {
        for (uint64_t a = addr + (lo - seg_off), n = hi - lo; n;) {
            uint64_t run;
            bool locked;

            if (ipu_dma_cancelled(s, a)) {
                return IPU_CS_ABORTED;
            }
            locked = ipu_dma_lock(s);
            run = ipu_dma_ram_run(PCI_DEVICE(s), a, MIN(n, IPU_DMA_CHUNK),
                                  to_guest);
            ipu_dma_unlock(locked);
            if (!run || a + run < a) {
                return ipu_dma_fault(fault, a, n, to_guest);
            }
            a += run;
            n -= run;
        }
        return IPU_CS_SUCCESS;
    }
    return ipu_dma_map_range(s, addr + (lo - seg_off), hi - lo, to_guest,
                             fn, opaque, lo - start, fault);
}

int ipu_dma_walk(IpuState *s, uint64_t data, uint32_t sgl_count,
                 uint64_t length, uint64_t start, uint64_t len,
                 bool to_guest, IpuDmaFn fn, void *opaque, IpuDmaFault *fault)
{
    g_autofree struct ipu_sge *batch = NULL;
    uint64_t off = 0;
    uint32_t i = 0;

    if (start > length || len > length - start) {
        fault->addr = 0;
        return IPU_CS_OUT_OF_RANGE;
    }
    if (ipu_fault_take(s, IPU_FAULT_DMA_ERROR, "transfer at 0x%" PRIx64
                       " (%" PRIu64 " bytes)", data, length)) {
        fault->addr = data;
        return IPU_CS_DMA_ERROR;
    }
    if (!sgl_count) {
        return ipu_dma_piece(s, data, length, 0, start, len, to_guest, fn,
                             opaque, fault);
    }
    if (sgl_count > IPU_MAX_SGL_ENTRIES || (data & 15)) {
        fault->addr = sgl_count > IPU_MAX_SGL_ENTRIES ? sgl_count : 0;
        return IPU_CS_INVALID_SGL;
    }

    batch = g_new(struct ipu_sge, IPU_SGE_BATCH);
    /* A window that ends at the end reads the whole list: extra entries
     * are an error there. */
    while (i < sgl_count && (off < start + len || start + len == length)) {
        uint32_t n = MIN(sgl_count - i, IPU_SGE_BATCH);
        int ret;

        if (ipu_dma_cancelled(s, data + (uint64_t)i * sizeof(*batch))) {
            return IPU_CS_ABORTED;
        }
        ret = ipu_dma_ram(s, data + (uint64_t)i * sizeof(*batch), batch,
                          n * sizeof(*batch), false, fault);
        if (ret != IPU_CS_SUCCESS) {
            return ret;
        }
        for (uint32_t j = 0; j < n; j++, i++) {
            uint64_t addr = le64_to_cpu(batch[j].addr);
            uint32_t l = le32_to_cpu(batch[j].len);

            if (!l || batch[j].reserved || l > length - off) {
                qemu_log_mask(LOG_GUEST_ERROR,
                              "ipu: SG entry %u: length %u, reserved %u, "
                              "%" PRIu64 " of %" PRIu64 " bytes left\n",
                              i, l, le32_to_cpu(batch[j].reserved),
                              length - off, length);
                fault->addr = i;
                return IPU_CS_INVALID_SGL;
            }
            ret = ipu_dma_piece(s, addr, l, off, start, len, to_guest, fn,
                                opaque, fault);
            if (ret != IPU_CS_SUCCESS) {
                return ret;
            }
            off += l;
        }
    }
    /* A list read to its end must cover the transfer exactly. */
    if (i == sgl_count ? off != length : off < start + len) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: SG list covers %" PRIu64 " of %" PRIu64 " bytes\n",
                      off, length);
        fault->addr = sgl_count;
        return IPU_CS_INVALID_SGL;
    }
    return IPU_CS_SUCCESS;
}
