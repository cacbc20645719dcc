/*
 * The card's IPU-Link registers (docs/hw-interface.md "IPU-Links", 1.4):
 * FABRIC_INDEX, FABRIC_SIZE, LINK_CHANGED and one block per port. The
 * card's place in its fabric: it joins at realize, leaves at unplug, and
 * tells the fabric when it resets and when it is READY; the fabric tells
 * it when a port changed (LINK_CHANGED and the LINK cause). Everything
 * else about links is the fabric's (ipu-fabric.h): this file only reads
 * it. All with the BQL.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"

#include "ipu.h"
#include "ipu-fabric.h"
#include "trace.h"

/* The fabric's notification: port @port of this card changed state. */
static void ipu_link_changed(void *opaque, uint32_t port)
{
    IpuState *s = opaque;

    s->link_changed |= 1u << port;
    trace_ipu_link_changed(s->fabric_index, port, s->link_changed);
    ipu_raise(s, IPU_IRQ_LINK);
}

bool ipu_link_realize(IpuState *s, Error **errp)
{
    if (!s->fabric) {
        if (s->fabric_index != IPU_FABRIC_NONE) {
            error_setg(errp, "ipu: fabric-index needs fabric=ID");
            return false;
        }
        return true;
    }
    if (s->fabric_index == IPU_FABRIC_NONE) {
        error_setg(errp, "ipu: fabric=%s needs fabric-index=N",
                   object_get_canonical_path_component(OBJECT(s->fabric)));
        return false;
    }
    return ipu_fabric_join(s->fabric, s->fabric_index, s->model->link_ports,
                           s->serial_buf, ipu_link_changed, s, errp);
}

void ipu_link_unrealize(IpuState *s)
{
    if (s->fabric) {
        ipu_fabric_leave(s->fabric, s->fabric_index);
    }
}

void ipu_link_reset(IpuState *s, bool power_on)
{
    if (power_on) {
        s->link_changed = 0;
    }
    if (s->fabric) {
        ipu_fabric_member_reset(s->fabric, s->fabric_index, power_on);
    }
}

void ipu_link_ready(IpuState *s)
{
    if (s->fabric) {
        ipu_fabric_member_ready(s->fabric, s->fabric_index);
    }
}

static bool ipu_link_port_reg(IpuState *s, hwaddr addr)
{
    return addr >= IPU_REG_LINK_BASE &&
           addr < IPU_REG_LINK(s->model->link_ports, 0);
}

bool ipu_link_reg(IpuState *s, hwaddr addr)
{
    return addr == IPU_REG_FABRIC_INDEX || addr == IPU_REG_FABRIC_SIZE ||
           addr == IPU_REG_LINK_CHANGED || ipu_link_port_reg(s, addr);
}

static uint32_t ipu_link_port_read(IpuState *s, uint32_t port, hwaddr r)
{
    IpuLinkPort lp = {
        .peer_index = IPU_FABRIC_NONE,
        .peer_port = IPU_FABRIC_NONE,
    };
    uint32_t v = 0;

    if (s->fabric) {
        ipu_fabric_port(s->fabric, s->fabric_index, port, &lp);
    }
    if (r >= IPU_LINK_PEER_SERIAL) {
        for (int i = 3; i >= 0; i--) {
            v = (v << 8) |
                (uint8_t)lp.peer_serial[r - IPU_LINK_PEER_SERIAL + i];
        }
        return v;
    }
    switch (r) {
    case IPU_LINK_STATE:
        return lp.state | (lp.wired ? IPU_LINK_WIRED : 0);
    case IPU_LINK_PEER_INDEX:
        return lp.peer_index;
    case IPU_LINK_PEER_PORT:
        return lp.peer_port;
    case IPU_LINK_GEN:
        return lp.gen;
    case IPU_LINK_LANES:
        return lp.lanes;
    case IPU_LINK_FOM:
        return lp.fom;
    case IPU_LINK_ERR_CORR:
        return lp.err_corr;
    default:
        return lp.err_uncorr;
    }
}

uint32_t ipu_link_reg_read(IpuState *s, hwaddr addr)
{
    switch (addr) {
    case IPU_REG_FABRIC_INDEX:
        return s->fabric ? s->fabric_index : IPU_FABRIC_NONE;
    case IPU_REG_FABRIC_SIZE:
        return s->fabric ? ipu_fabric_size(s->fabric) : 0;
    case IPU_REG_LINK_CHANGED:
        return s->link_changed;
    default:
        return ipu_link_port_read(s, (addr - IPU_REG_LINK_BASE) /
                                  IPU_LINK_STRIDE,
                                  addr % IPU_LINK_STRIDE);
    }
}

void ipu_link_reg_write(IpuState *s, hwaddr addr, uint32_t val)
{
    uint32_t valid = MAKE_64BIT_MASK(0, s->model->link_ports);

    if (addr != IPU_REG_LINK_CHANGED) {
        ipu_log_write_ignored("link ", addr, val, true);
        return;
    }
    if (val & ~valid) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: LINK_CHANGED write 0x%x clears bits of ports "
                      "the card does not have (%u)\n", val,
                      s->model->link_ports);
    }
    s->link_changed &= ~(val & valid);
}

/* ---- multi-IPU groups (worker thread; docs/hw-interface.md) ---- */

int ipu_link_group_join(IpuState *s, uint64_t mask, uint32_t *detail)
{
    if (!s->fabric) {
        qemu_log_mask(LOG_GUEST_ERROR, "ipu: LOAD with member mask 0x%"
                      PRIx64 " on a card on no fabric\n", mask);
        trace_ipu_group_refused(IPU_FABRIC_NONE, mask, "no fabric");
        *detail = offsetof(struct ipu_sqe, offset);
        return IPU_CS_INVALID_FIELD;
    }
    return ipu_fabric_group_join(s->fabric, s->fabric_index, mask,
                                 s->engine, detail);
}

void ipu_link_group_leave(IpuState *s)
{
    if (s->fabric) {
        ipu_fabric_group_leave(s->fabric, s->fabric_index);
    }
}
