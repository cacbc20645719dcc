/*
 * The fabric's link transport (docs/hw-interface.md "Multi-IPU groups"):
 * the one way the cards' engines reach each other. It wraps the engine's
 * in-process fabric (engine/fabric_local.h: barriers, writes into a peer's
 * tile memory, routes, run cancellation), wired exactly as this fabric's
 * links and told every change of their state, so a link going down ends
 * the runs of the groups using it. Cards join a group at LOAD (the member
 * mask) and leave it at LOAD, UNLOAD, reset and unplug.
 *
 * Threads: join and leave come from the cards' worker threads, link
 * states from the BQL; the engine's fabric has its own lock (innermost,
 * after IpuFabric.lock is released).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"

#include "ipu-fabric-int.h"
#include "trace.h"

bool ipu_fabric_transport_init(IpuFabric *f, Error **errp)
{
    uint32_t ports = MIN(IPU_LINK_PORTS_MAX, IPUE_FABRIC_MAX_PORTS);
    int rc;

    if (f->size > IPUE_FABRIC_MAX_IPUS) {
        error_setg(errp, "ipu-fabric: %u members, the link transport "
                   "takes %d", f->size, IPUE_FABRIC_MAX_IPUS);
        return false;
    }
    rc = ipue_fabric_local_create("none", f->size, ports, &f->transport);
    if (rc) {
        error_setg(errp, "ipu-fabric: link transport: %s",
                   ipue_strerror(rc));
        return false;
    }
    ipue_fabric_local_set_sync_timeout(f->transport, f->sync_timeout_ms);
    for (unsigned i = 0; i < f->nlinks; i++) {
        IpuFabricLink *l = &f->links[i];

        if (l->end[0].port >= ports || l->end[1].port >= ports) {
            error_setg(errp, "ipu-fabric: link %u.%u-%u.%u: groups use "
                       "ports below %u only", l->end[0].index,
                       l->end[0].port, l->end[1].index, l->end[1].port,
                       ports);
            return false;
        }
        rc = ipue_fabric_local_wire(f->transport, l->end[0].index,
                                    l->end[0].port, l->end[1].index,
                                    l->end[1].port);
        /* links start DOWN: they carry nothing before they trained */
        if (!rc) {
            rc = ipue_fabric_local_set_link(f->transport, l->end[0].index,
                                            l->end[0].port, 0);
        }
        if (rc) {
            error_setg(errp, "ipu-fabric: link transport: wiring %u.%u: %s",
                       l->end[0].index, l->end[0].port, ipue_strerror(rc));
            return false;
        }
    }
    return true;
}

void ipu_fabric_transport_free(IpuFabric *f)
{
    ipue_fabric_local_destroy(f->transport);
    f->transport = NULL;
}

void ipu_fabric_transport_link(IpuFabricLink *l, bool up)
{
    /* named by its lower end, as LINK_DOWN's detail */
    int lo = l->end[1].index < l->end[0].index;

    if (l->f->transport) {
        ipue_fabric_local_set_link(l->f->transport, l->end[lo].index,
                                   l->end[lo].port, up);
    }
}

/* Why @mask is no group for member @index, or NULL; BQL not needed. */
static const char *ipu_group_mask_error(IpuFabric *f, uint32_t index,
                                        uint64_t mask)
{
    bool absent = false;

    if (!(mask >> index & 1)) {
        return "the card's own bit is clear";
    }
    if (f->size < 64 && mask >> f->size) {
        return "a bit at or above the fabric's size";
    }
    if (!ipu_graph_ipus_ok(ctpop64(mask))) {
        return "not 1, 2, 4, 8 or 16 members";
    }
    qemu_mutex_lock(&f->lock);
    for (uint32_t i = 0; i < f->size; i++) {
        if ((mask >> i & 1) && !f->members[i].present) {
            absent = true;
        }
    }
    qemu_mutex_unlock(&f->lock);
    return absent ? "a member no card has joined" : NULL;
}

int ipu_fabric_group_join(IpuFabric *f, uint32_t index, uint64_t mask,
                          struct ipue_engine *e, uint32_t *detail)
{
    const char *why = ipu_group_mask_error(f, index, mask);
    uint64_t other;
    int rc;

    if (why) {
        qemu_log_mask(LOG_GUEST_ERROR, "ipu: member %u: LOAD with mask 0x%"
                      PRIx64 ": %s\n", index, mask, why);
        trace_ipu_group_refused(index, mask, why);
        *detail = offsetof(struct ipu_sqe, offset);
        return IPU_CS_INVALID_FIELD;
    }
    for (uint32_t i = 0; i < f->size; i++) {
        if ((mask >> i & 1) &&
            ipue_fabric_local_group_of(f->transport, i, &other) == 1 &&
            other != mask) {
            qemu_log_mask(LOG_GUEST_ERROR, "ipu: member %u: LOAD with mask "
                          "0x%" PRIx64 ": member %u is in group 0x%" PRIx64
                          "\n", index, mask, i, other);
            trace_ipu_group_refused(index, mask, "member in another group");
            *detail = i;
            return IPU_CS_GROUP_BUSY;
        }
    }
    rc = ipue_fabric_local_join(f->transport, mask, index, e);
    if (rc == IPUE_ENOMEM) {
        return IPU_CS_INTERNAL;
    }
    if (rc) {       /* another member joined another group meanwhile */
        trace_ipu_group_refused(index, mask, ipue_strerror(rc));
        *detail = index;
        return IPU_CS_GROUP_BUSY;
    }
    trace_ipu_group_join(index, mask);
    return IPU_CS_SUCCESS;
}

void ipu_fabric_group_leave(IpuFabric *f, uint32_t index)
{
    if (ipue_fabric_local_group_of(f->transport, index, NULL) == 1) {
        ipue_fabric_local_leave(f->transport, index);
        trace_ipu_group_leave(index);
    }
}
