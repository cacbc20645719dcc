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
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/rcu.h"
#include "exec/memory.h"
#include "sysemu/dma.h"
#include "ipu.h"

/* SG entries read from the guest per batch. */
#define IPU_SGE_BATCH 256

/*
 * Length of the RAM run that starts at @addr (at most @len), or 0 when
 * @addr is not RAM (or is read-only and @to_guest).
 */
/* The card reaches guest RAM only: never device memory or its own BARs. */
static bool ipu_dma_target_ok(MemoryRegion *mr, bool to_guest)
{
    return memory_region_is_ram(mr) && !memory_region_is_ram_device(mr) &&
           !(to_guest && mr->readonly);
}

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
 * piece. Returns IPU_CS_*.
 */
static int ipu_dma_map_range(PCIDevice *pdev, uint64_t addr, uint64_t len,
                             bool to_guest, IpuDmaFn fn, void *opaque,
                             uint64_t off, IpuDmaFault *fault)
{
    DMADirection dir = to_guest ? DMA_DIRECTION_FROM_DEVICE :
                                  DMA_DIRECTION_TO_DEVICE;

    while (len) {
        uint64_t run = ipu_dma_ram_run(pdev, addr, len, to_guest);
        dma_addr_t plen = run;
        void *ptr;
        int ret;

        if (!run || addr + run < addr) {
            fault->addr = addr;
            return IPU_CS_DMA_ERROR;
        }
        ptr = pci_dma_map(pdev, addr, &plen, dir);
        if (!ptr || !plen) {
            if (ptr) {
                pci_dma_unmap(pdev, ptr, plen, dir, 0);
            }
            fault->addr = addr;
            return IPU_CS_DMA_ERROR;
        }
        ret = fn(opaque, ptr, plen, off);
        pci_dma_unmap(pdev, ptr, plen, dir, ret == IPU_CS_SUCCESS ? plen : 0);
        if (ret != IPU_CS_SUCCESS) {
            return ret;
        }
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
static int ipu_dma_read_ram(PCIDevice *pdev, uint64_t addr, void *buf,
                            uint64_t len, IpuDmaFault *fault)
{
    AddressSpace *as = pci_get_address_space(pdev);

    RCU_READ_LOCK_GUARD();
    while (len) {
        hwaddr xlat, plen = len;
        MemoryRegion *mr = address_space_translate(as, addr, &xlat, &plen,
                                                   false,
                                                   MEMTXATTRS_UNSPECIFIED);

        if (!ipu_dma_target_ok(mr, false) || !plen || addr + plen < addr) {
            fault->addr = addr;
            return IPU_CS_DMA_ERROR;
        }
        plen = MIN(plen, len);
        memcpy(buf, (uint8_t *)memory_region_get_ram_ptr(mr) + xlat, plen);
        buf = (uint8_t *)buf + plen;
        addr += plen;
        len -= plen;
    }
    return IPU_CS_SUCCESS;
}

int ipu_dma_ram(PCIDevice *pdev, uint64_t addr, void *buf, uint64_t len,
                bool to_guest, IpuDmaFault *fault)
{
    IpuCopy c = { .buf = buf, .to_guest = to_guest };

    if (!to_guest) {
        return ipu_dma_read_ram(pdev, addr, buf, len, fault);
    }
    /* Writes go through pci_dma_map/unmap, which mark the pages dirty. */
    return ipu_dma_map_range(pdev, addr, len, to_guest, ipu_dma_copy_fn, &c,
                             0, fault);
}

/*
 * Hand bytes [@start, @start + @len) of the transfer @fn, piece by piece;
 * with a NULL @fn only check that they are guest RAM.
 */
static int ipu_dma_piece(PCIDevice *pdev, uint64_t addr, uint64_t seg_len,
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
            uint64_t run = ipu_dma_ram_run(pdev, a, n, to_guest);

            if (!run || a + run < a) {
                fault->addr = a;
                return IPU_CS_DMA_ERROR;
            }
            a += run;
            n -= run;
        }
        return IPU_CS_SUCCESS;
    }
    return ipu_dma_map_range(pdev, addr + (lo - seg_off), hi - lo, to_guest,
                             fn, opaque, lo - start, fault);
}

int ipu_dma_walk(PCIDevice *pdev, uint64_t data, uint32_t sgl_count,
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
    if (!sgl_count) {
        return ipu_dma_piece(pdev, data, length, 0, start, len, to_guest, fn,
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
        int ret = ipu_dma_ram(pdev, data + (uint64_t)i * sizeof(*batch),
                              batch, n * sizeof(*batch), false, fault);

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
            ret = ipu_dma_piece(pdev, addr, l, off, start, len, to_guest, fn,
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
