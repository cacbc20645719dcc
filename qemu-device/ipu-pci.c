/*
 * Emulated IPU PCIe card: the PCI function, its register file (BAR0), the
 * doorbell pages (BAR4), the ready handshake, soft reset and interrupts.
 * Command queues: ipu-queue.c (registers, doorbells), ipu-worker.c (the
 * worker thread), ipu-cmd.c (commands).
 *
 * The register interface is specified in docs/hw-interface.md and mirrored
 * by include/ipu/ipu_hw.h. Every guest access is validated here: anything
 * the specification does not allow is ignored (or reads as it says) and
 * logged with LOG_GUEST_ERROR; nothing the guest does can abort QEMU.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msi.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "qom/object.h"

#include "ipu.h"
#include "trace.h"

#define IPU_FW_VERSION      ((1 << 16) | (4 << 8) | 0)  /* 1.4.0 */
#define IPU_PCIE_CAP_OFFSET 0x80

bool ipu_msix_on(IpuState *s)
{
    return s->msix && msix_enabled(PCI_DEVICE(s));
}

/*
 * Signal the causes in @new_bits that just became pending and unmasked.
 * Message interrupts are sent for each such event; INTx follows the level
 * of IRQ_STATUS & ~IRQ_MASK.
 */
static void ipu_irq_update(IpuState *s, uint32_t new_bits)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint32_t pending = s->irq_status & ~s->irq_mask;

    trace_ipu_irq(s->irq_status, s->irq_mask, new_bits);

    if (ipu_msix_on(s)) {
        if ((new_bits & pending) &&
            !ipu_fault_take(s, IPU_FAULT_DROP_IRQ, "MSI-X vector %u (events "
                            "0x%x)", IPU_VECTOR_EVENTS, new_bits & pending)) {
            msix_notify(pdev, IPU_VECTOR_EVENTS);
        }
    } else if (msi_enabled(pdev)) {
        if ((new_bits & pending) &&
            !ipu_fault_take(s, IPU_FAULT_DROP_IRQ, "MSI (causes 0x%x)",
                            new_bits & pending)) {
            msi_notify(pdev, 0);
        }
    } else {
        bool level = pending != 0;

        /* A dropped assertion: the pin follows at the next change. */
        if (level && !s->intx_level &&
            ipu_fault_take(s, IPU_FAULT_DROP_IRQ, "INTx (causes 0x%x)",
                           pending)) {
            return;
        }
        if (level != s->intx_level) {
            s->intx_level = level;
            pci_set_irq(pdev, level);
        }
    }
}

void ipu_raise(IpuState *s, uint32_t causes)
{
    uint32_t new_bits = causes & ~s->irq_status;

    s->irq_status |= causes;
    ipu_irq_update(s, new_bits);
}

/*
 * A card in a slot without power (pci_set_power(), the PCIe slot's power
 * controller) stays OFF; its bring-up starts again once power is back, as
 * a power-on (QEMU has no power-on hook: the ready timer looks every ms).
 * True while the card must wait.
 */
static bool ipu_wait_power(IpuState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (!PCI_DEVICE(s)->has_power) {
        if (!s->unpowered) {
            trace_ipu_power(false);
        }
        s->unpowered = true;
        timer_mod(s->ready_timer, now + SCALE_MS);
        return true;
    }
    if (s->unpowered) {
        s->unpowered = false;
        trace_ipu_power(true);
        timer_mod(s->ready_timer,
                  now + (int64_t)IPU_READY_DELAY_US * SCALE_US);
        return true;
    }
    return false;
}

static void ipu_ready_timer_cb(void *opaque)
{
    IpuState *s = opaque;

    if (ipu_wait_power(s)) {
        return;
    }
    /* The card is ready once the worker has let go of the old work. */
    if (!ipu_queues_idle(s)) {
        timer_mod(s->ready_timer,
                  qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + SCALE_MS);
        return;
    }
    if (s->state == IPU_CARD_STATE_RESETTING) {
        s->reset_count++;
    }
    s->state = IPU_CARD_STATE_READY;
    trace_ipu_ready(s->reset_count);
    ipu_health_ready(s);
    ipu_raise(s, IPU_IRQ_READY);
    ipu_link_ready(s);
}

/* Enter @state and schedule the transition to READY. */
static void ipu_begin_bringup(IpuState *s, uint32_t state)
{
    int64_t delay = (int64_t)IPU_READY_DELAY_US * SCALE_US +
                    (int64_t)ipu_fault_ready_delay(s) * SCALE_MS;

    trace_ipu_reset_begin(state);
    s->state = state;
    s->scratch = 0;
    s->irq_status &= ~IPU_IRQ_QUEUES;
    ipu_irq_update(s, 0);
    ipu_queues_reset(s);
    ipu_link_reset(s, state == IPU_CARD_STATE_OFF);
    ipu_health_reset(s, state == IPU_CARD_STATE_OFF);
    ipu_faults_reset(s);
    timer_mod(s->ready_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + delay);
}

static uint32_t ipu_serial_word(IpuState *s, hwaddr off)
{
    uint32_t v = 0;

    for (int i = 3; i >= 0; i--) {
        v = (v << 8) | (uint8_t)s->serial_buf[off + i];
    }
    return v;
}

/* The queue register blocks and the doorbells (ipu-queue.c). */
static bool ipu_queue_reg(hwaddr addr)
{
    return (addr >= IPU_REG_QUEUE_BASE &&
            addr < IPU_REG_Q(IPU_NUM_QUEUES, 0)) ||
           (addr >= IPU_REG_DOORBELL_BASE &&
            addr < IPU_REG_SQ_TAIL(IPU_NUM_QUEUES));
}

static bool ipu_reg_read_only(hwaddr addr)
{
    return addr <= IPU_REG_NUM_QUEUES ||
           (addr >= IPU_REG_SERIAL && addr < IPU_REG_SERIAL + IPU_SERIAL_LEN) ||
           addr == IPU_REG_STATUS || addr == IPU_REG_RESET_COUNT ||
           ipu_health_reg(addr);
}

/*
 * Both BARs take naturally aligned 32-bit accesses only: others are not
 * performed (reads return all ones from the bus) and are logged.
 */
static bool ipu_access_ok(const char *bar, hwaddr addr, unsigned size,
                          bool write)
{
    if (size == 4 && !(addr & 3)) {
        return true;
    }
    trace_ipu_access_refused(bar, addr, size, write ? "write" : "read");
    qemu_log_mask(LOG_GUEST_ERROR,
                  "ipu: %u-byte %s at %s 0x%" HWADDR_PRIx " not performed "
                  "(32-bit, aligned accesses only)\n",
                  size, write ? "write" : "read", bar, addr);
    return false;
}

void ipu_log_write_ignored(const char *kind, hwaddr addr, uint32_t val,
                           bool read_only)
{
    qemu_log_mask(LOG_GUEST_ERROR,
                  "ipu: write 0x%x to %s %sregister 0x%" HWADDR_PRIx
                  " ignored\n", val, read_only ? "read-only" : "undefined",
                  kind, addr);
}

/* Queue registers and doorbells work only while the card is READY. */
static bool ipu_ready_for(IpuState *s, const char *what, hwaddr addr)
{
    if (s->state == IPU_CARD_STATE_READY) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR,
                  "ipu: %s 0x%" HWADDR_PRIx " written while the card is not "
                  "ready\n", what, addr);
    return false;
}

static uint32_t ipu_reg_read(IpuState *s, hwaddr addr)
{
    const IpuModel *m = s->model;

    if (addr >= IPU_REG_SERIAL && addr < IPU_REG_SERIAL + IPU_SERIAL_LEN) {
        return ipu_serial_word(s, addr - IPU_REG_SERIAL);
    }
    if (ipu_queue_reg(addr)) {
        return ipu_queue_reg_read(s, addr);
    }
    if (ipu_link_reg(s, addr)) {
        return ipu_link_reg_read(s, addr);
    }
    if (ipu_health_reg(addr)) {
        return ipu_health_reg_read(s, addr);
    }

    switch (addr) {
    case IPU_REG_MAGIC:
        return IPU_MAGIC;
    case IPU_REG_VERSION:
        return IPU_HW_VERSION;
    case IPU_REG_MODEL:
        return m->id;
    case IPU_REG_CARD_INDEX:
        return s->card_index;
    case IPU_REG_TILES:
        return m->tiles;
    case IPU_REG_TILE_MEM:
        return m->tile_mem;
    case IPU_REG_THREADS:
        return m->threads;
    case IPU_REG_LINK_PORTS:
        return m->link_ports;
    case IPU_REG_FW_VERSION:
        return IPU_FW_VERSION;
    case IPU_REG_CLOCK_KHZ:
        return m->clock_khz;
    case IPU_REG_CAPS:
        return IPU_CAP_SOFT_RESET | IPU_CAP_QUEUES | IPU_CAP_USER_QUEUES |
               IPU_CAP_LINKS | IPU_CAP_HEALTH |
               (s->msix ? IPU_CAP_MSIX : 0);
    case IPU_REG_NUM_VECTORS:
        return s->msix ? IPU_MSIX_VECTORS : 0;
    case IPU_REG_NUM_QUEUES:
        return IPU_NUM_QUEUES;
    case IPU_REG_STATUS:
        return s->state |
               (s->state == IPU_CARD_STATE_READY ? IPU_CARD_READY : 0);
    case IPU_REG_CONTROL:
    case IPU_REG_IRQ_TEST:
        return 0;   /* write-only, reads as 0 by specification */
    case IPU_REG_RESET_COUNT:
        return s->reset_count;
    case IPU_REG_SCRATCH:
        return s->scratch;
    case IPU_REG_IRQ_STATUS:
        return s->irq_status;
    case IPU_REG_IRQ_MASK:
        return s->irq_mask;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: read of undefined register 0x%" HWADDR_PRIx "\n",
                      addr);
        return 0;
    }
}

static uint64_t ipu_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    IpuState *s = opaque;
    uint32_t val;

    if (!ipu_access_ok("BAR0", addr, size, false)) {
        return MAKE_64BIT_MASK(0, size * 8);
    }
    val = ipu_reg_read(s, addr);
    trace_ipu_mmio_read(addr, val);
    return val;
}

static void ipu_write_control(IpuState *s, uint32_t val)
{
    if (val & ~IPU_CONTROL_VALID) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: CONTROL write 0x%x sets undefined bits\n", val);
    }
    if (!(val & IPU_CONTROL_RESET)) {
        return;
    }
    if (s->state == IPU_CARD_STATE_OFF || s->state == IPU_CARD_STATE_RESETTING) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: reset requested while the card is coming up\n");
        return;
    }
    ipu_begin_bringup(s, IPU_CARD_STATE_RESETTING);
}

static void ipu_mmio_write(void *opaque, hwaddr addr, uint64_t val64,
                           unsigned size)
{
    IpuState *s = opaque;
    uint32_t val = val64;
    uint32_t old;

    if (!ipu_access_ok("BAR0", addr, size, true)) {
        return;
    }
    trace_ipu_mmio_write(addr, val);

    if (ipu_queue_reg(addr)) {
        if (ipu_ready_for(s, "queue register", addr)) {
            ipu_queue_reg_write(s, addr, val);
        }
        return;
    }
    if (ipu_link_reg(s, addr)) {
        ipu_link_reg_write(s, addr, val);
        return;
    }

    switch (addr) {
    case IPU_REG_CONTROL:
        ipu_write_control(s, val);
        break;
    case IPU_REG_SCRATCH:
        s->scratch = val;
        break;
    case IPU_REG_IRQ_STATUS:
        if (val & ~IPU_IRQ_VALID) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "ipu: IRQ_STATUS write 0x%x clears undefined "
                          "bits\n", val);
        }
        s->irq_status &= ~val;
        ipu_irq_update(s, 0);
        break;
    case IPU_REG_IRQ_MASK:
        if (val & ~IPU_IRQ_VALID) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "ipu: IRQ_MASK write 0x%x sets undefined bits\n",
                          val);
        }
        old = s->irq_mask;
        s->irq_mask = (val & IPU_IRQ_VALID) | ~IPU_IRQ_VALID;
        /* Unmasking a pending cause signals it. */
        ipu_irq_update(s, old & ~s->irq_mask);
        break;
    case IPU_REG_IRQ_TEST:
        if (val & ~IPU_IRQ_TEST) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "ipu: IRQ_TEST write 0x%x sets undefined bits\n",
                          val);
        }
        if (val & IPU_IRQ_TEST) {
            ipu_raise(s, IPU_IRQ_TEST);
        }
        break;
    default:
        ipu_log_write_ignored("", addr, val, ipu_reg_read_only(addr));
        break;
    }
}

/*
 * The access sizes of both BARs: every width reaches the handlers, so that
 * they can refuse it and log (ipu_access_ok()).
 */
#define IPU_EVERY_ACCESS                                                    \
    .valid = {                                                              \
        .min_access_size = 1,                                               \
        .max_access_size = 8,                                               \
        .unaligned = true,                                                  \
    },                                                                      \
    .impl = {                                                               \
        .min_access_size = 1,                                               \
        .max_access_size = 8,                                               \
        .unaligned = true,                                                  \
    }

static const MemoryRegionOps ipu_mmio_ops = {
    .read = ipu_mmio_read,
    .write = ipu_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    IPU_EVERY_ACCESS,
};

/*
 * BAR4: doorbell pages (docs/hw-interface.md "Doorbell pages and user
 * queues"). Page n holds queue n's SQ_TAIL and CQ_HEAD doorbells, the same
 * doorbells as BAR0's (ipu_doorbell_write(), without IpuState.lock), so a
 * page can be mapped into one process. The access rules are BAR0's.
 */
static uint64_t ipu_db_read(void *opaque, hwaddr addr, unsigned size)
{
    hwaddr off = addr % IPU_DB_PAGE_SIZE;

    if (!ipu_access_ok("BAR4", addr, size, false)) {
        return MAKE_64BIT_MASK(0, size * 8);
    }
    if (off != IPU_DB_SQ_TAIL && off != IPU_DB_CQ_HEAD) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: read of undefined doorbell page offset 0x%"
                      HWADDR_PRIx "\n", addr);
    }
    return 0;   /* doorbells are write-only and read as 0 */
}

static void ipu_db_write(void *opaque, hwaddr addr, uint64_t val64,
                         unsigned size)
{
    IpuState *s = opaque;
    hwaddr off = addr % IPU_DB_PAGE_SIZE;
    unsigned qi = addr / IPU_DB_PAGE_SIZE;

    if (!ipu_access_ok("BAR4", addr, size, true)) {
        return;
    }
    if (qi >= IPU_NUM_QUEUES ||
        (off != IPU_DB_SQ_TAIL && off != IPU_DB_CQ_HEAD)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: write 0x%x to undefined doorbell page offset 0x%"
                      HWADDR_PRIx " ignored\n", (uint32_t)val64, addr);
        return;
    }
    trace_ipu_db_page_write(qi, off == IPU_DB_CQ_HEAD, val64);
    if (ipu_ready_for(s, "doorbell page", addr)) {
        ipu_doorbell_write(s, qi, off == IPU_DB_CQ_HEAD, val64);
    }
}

static const MemoryRegionOps ipu_db_ops = {
    .read = ipu_db_read,
    .write = ipu_db_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    IPU_EVERY_ACCESS,
};

static void ipu_config_write(PCIDevice *pdev, uint32_t addr, uint32_t val,
                             int len)
{
    IpuState *s = IPU_PCI(pdev);

    pci_default_write_config(pdev, addr, val, len);
    /* INTx is not used once message interrupts are on: drop its level. */
    if ((ipu_msix_on(s) || msi_enabled(pdev)) && s->intx_level) {
        s->intx_level = false;
        pci_set_irq(pdev, 0);
    }
}

static void ipu_set_link(PCIDevice *pdev, const IpuModel *m)
{
    uint8_t *exp = pdev->config + pdev->exp.exp_cap;

    pci_long_test_and_clear_mask(exp + PCI_EXP_LNKCAP,
                                 PCI_EXP_LNKCAP_MLW | PCI_EXP_LNKCAP_SLS);
    /* The Link Speed codes are the generations: 3 is 8 GT/s, 4 is 16. */
    pci_long_test_and_set_mask(exp + PCI_EXP_LNKCAP,
                               (m->pcie_width << 4) | m->pcie_gen);
    pci_set_word(exp + PCI_EXP_LNKSTA,
                 (m->pcie_width << 4) | m->pcie_gen);
    /* Speeds above 5 GT/s are read from the Supported Link Speeds vector. */
    pci_set_long(exp + PCI_EXP_LNKCAP2,
                 ((1u << m->pcie_gen) - 1) << 1);
}

static void ipu_realize(PCIDevice *pdev, Error **errp)
{
    IpuState *s = IPU_PCI(pdev);
    uint8_t *conf = pdev->config;

    s->model = s->model_name ? ipu_model_by_name(s->model_name)
                             : ipu_model_by_id(IPU_MODEL_GC200);
    if (!s->model) {
        char names[64];

        error_setg(errp, "ipu: unknown model '%s' (%s)", s->model_name,
                   ipu_model_names(names, sizeof(names)));
        return;
    }

    memset(s->serial_buf, 0, sizeof(s->serial_buf));
    if (s->serial) {
        size_t len = strlen(s->serial);

        if (len == 0 || len >= IPU_SERIAL_LEN) {
            error_setg(errp, "ipu: serial must be 1-%d characters",
                       IPU_SERIAL_LEN - 1);
            return;
        }
        for (size_t i = 0; i < len; i++) {
            if (!g_ascii_isgraph(s->serial[i])) {
                error_setg(errp, "ipu: serial must be printable ASCII "
                           "without spaces");
                return;
            }
        }
        memcpy(s->serial_buf, s->serial, len);
    } else {
        snprintf(s->serial_buf, sizeof(s->serial_buf), "IPU-%u-%s",
                 s->card_index, s->model->name);
    }

    pci_set_word(conf + PCI_SUBSYSTEM_VENDOR_ID, IPU_PCI_VENDOR_ID);
    pci_set_word(conf + PCI_SUBSYSTEM_ID, s->model->id);
    pci_config_set_interrupt_pin(conf, 1);

    memory_region_init_io(&s->regs, OBJECT(s), &ipu_mmio_ops, s, "ipu-regs",
                          IPU_BAR_REGS_SIZE);
    pci_register_bar(pdev, IPU_BAR_REGS, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->regs);
    memory_region_init_io(&s->doorbells, OBJECT(s), &ipu_db_ops, s,
                          "ipu-doorbells", IPU_DB_BAR_SIZE);
    pci_register_bar(pdev, IPU_DB_BAR, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->doorbells);

    if (pcie_endpoint_cap_init(pdev, IPU_PCIE_CAP_OFFSET) < 0) {
        error_setg(errp, "ipu: cannot add the PCI Express capability");
        return;
    }
    ipu_set_link(pdev, s->model);

    if (msi_init(pdev, 0, 1, true, false, errp)) {
        goto fail_pcie;
    }
    if (s->msix) {
        if (msix_init_exclusive_bar(pdev, IPU_MSIX_VECTORS, IPU_BAR_MSIX,
                                    errp)) {
            goto fail_msi;
        }
        for (unsigned v = 0; v < IPU_MSIX_VECTORS; v++) {
            msix_vector_use(pdev, v);
        }
    }

    if (s->poll_us > 10000) {
        error_setg(errp, "ipu: poll-us must be at most 10000");
        goto fail_msix;
    }
    s->poll_ns = (int64_t)s->poll_us * SCALE_US;
    if (!ipu_link_realize(s, errp)) {
        goto fail_msix;
    }
    s->ready_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, ipu_ready_timer_cb, s);
    ipu_health_realize(s);
    ipu_dma_init(s);
    ipu_worker_start(s);
    return;

fail_msix:
    if (s->msix) {
        msix_unuse_all_vectors(pdev);
        msix_uninit_exclusive_bar(pdev);
    }
fail_msi:
    msi_uninit(pdev);
fail_pcie:
    pcie_cap_exit(pdev);
}

static void ipu_pci_exit(PCIDevice *pdev)
{
    IpuState *s = IPU_PCI(pdev);

    ipu_worker_stop(s);
    ipu_link_unrealize(s);
    timer_free(s->ready_timer);
    s->ready_timer = NULL;
    ipu_health_unrealize(s);
    if (s->msix) {
        msix_unuse_all_vectors(pdev);
        msix_uninit_exclusive_bar(pdev);
    }
    msi_uninit(pdev);
    pcie_cap_exit(pdev);
}

/* Power-on and PCI function reset: the card comes up again from OFF. */
static void ipu_reset(DeviceState *dev)
{
    IpuState *s = IPU_PCI(dev);

    s->reset_count = 0;
    s->irq_status = 0;
    s->irq_mask = ~0u;
    if (s->intx_level) {
        s->intx_level = false;
        pci_set_irq(PCI_DEVICE(s), 0);
    }
    ipu_begin_bringup(s, IPU_CARD_STATE_OFF);
}

static const VMStateDescription ipu_vmstate = {
    .name = "ipu",
    .unmigratable = 1,
};

static Property ipu_properties[] = {
    DEFINE_PROP_STRING("model", IpuState, model_name),
    DEFINE_PROP_STRING("serial", IpuState, serial),
    DEFINE_PROP_UINT32("card", IpuState, card_index, 0),
    DEFINE_PROP_BOOL("msix", IpuState, msix, true),
    DEFINE_PROP_UINT32("threads", IpuState, host_threads, 0),
    DEFINE_PROP_UINT32("poll-us", IpuState, poll_us, 100),
    DEFINE_PROP_LINK("fabric", IpuState, fabric, TYPE_IPU_FABRIC,
                     IpuFabric *),
    DEFINE_PROP_UINT32("fabric-index", IpuState, fabric_index,
                       IPU_FABRIC_NONE),
    DEFINE_PROP_END_OF_LIST(),
};

static void ipu_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = ipu_realize;
    k->exit = ipu_pci_exit;
    k->config_write = ipu_config_write;
    k->vendor_id = IPU_PCI_VENDOR_ID;
    k->device_id = IPU_PCI_DEVICE_ID;
    k->revision = IPU_PCI_REVISION;
    k->class_id = IPU_PCI_CLASS;
    dc->desc = "IPU accelerator card (emulated)";
    dc->reset = ipu_reset;
    dc->vmsd = &ipu_vmstate;
    device_class_set_props(dc, ipu_properties);
    ipu_faults_class_init(klass);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo ipu_info = {
    .name = TYPE_IPU_PCI,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(IpuState),
    .class_init = ipu_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void ipu_register_types(void)
{
    type_register_static(&ipu_info);
}

type_init(ipu_register_types)
