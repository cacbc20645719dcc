/*
 * The in-process IPU-Link fabric: `-device ipu-fabric,id=ID,topology=...`
 * (docs/hw-interface.md "IPU-Links"). This file is the device: its
 * configuration, checked at realize, the wiring of each topology
 * (and of an explicit `wiring`), and cards joining and leaving it. Link
 * states and training: ipu-fabric-link.c; run-time control from QMP:
 * ipu-fabric-qmp.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/cutils.h"
#include "qemu/module.h"
#include "hw/qdev-properties.h"

#include "ipu-fabric-int.h"
#include "trace.h"

/* Adds the link A.P - B.Q, checking it; false with @errp set. */
static bool ipu_fabric_wire(IpuFabric *f, uint32_t a, uint32_t p,
                            uint32_t b, uint32_t q, Error **errp)
{
    IpuFabricLink *l;

    if (a >= f->size || b >= f->size) {
        error_setg(errp, "ipu-fabric: link %u.%u-%u.%u: member index out of "
                   "range (size %u)", a, p, b, q, f->size);
        return false;
    }
    if (p >= IPU_LINK_PORTS_MAX || q >= IPU_LINK_PORTS_MAX) {
        error_setg(errp, "ipu-fabric: link %u.%u-%u.%u: ports are 0-%d",
                   a, p, b, q, IPU_LINK_PORTS_MAX - 1);
        return false;
    }
    if (a == b && p == q) {
        error_setg(errp, "ipu-fabric: link %u.%u-%u.%u joins a port to "
                   "itself", a, p, b, q);
        return false;
    }
    if (f->members[a].link[p] != IPU_FABRIC_NO_LINK ||
        f->members[b].link[q] != IPU_FABRIC_NO_LINK) {
        error_setg(errp, "ipu-fabric: link %u.%u-%u.%u: a port is wired "
                   "twice", a, p, b, q);
        return false;
    }
    f->links = g_renew(IpuFabricLink, f->links, f->nlinks + 1);
    l = &f->links[f->nlinks];
    memset(l, 0, sizeof(*l));
    l->f = f;
    l->end[0].index = a;
    l->end[0].port = p;
    l->end[1].index = b;
    l->end[1].port = q;
    l->state = IPU_LINK_STATE_DOWN;
    f->members[a].link[p] = f->nlinks;
    f->members[b].link[q] = f->nlinks;
    f->nlinks++;
    return true;
}

/*
 * The ladder of m2000 and pod16: rungs (i, i ^ 1) on ports 0 and 1, rails
 * from port 2 of member i to port 3 of member i + 2; @close joins the
 * rails' ends (pod16), which a single M2000 does not.
 */
static bool ipu_fabric_wire_ladder(IpuFabric *f, bool close, Error **errp)
{
    for (uint32_t i = 0; i < f->size; i += 2) {
        if (!ipu_fabric_wire(f, i, IPU_PORT_RUNG0, i + 1, IPU_PORT_RUNG0,
                             errp) ||
            !ipu_fabric_wire(f, i, IPU_PORT_RUNG1, i + 1, IPU_PORT_RUNG1,
                             errp)) {
            return false;
        }
    }
    for (uint32_t i = 0; i < f->size; i++) {
        if (i + 2 >= f->size && !close) {
            break;
        }
        if (!ipu_fabric_wire(f, i, IPU_PORT_RAIL_UP, (i + 2) % f->size,
                             IPU_PORT_RAIL_DOWN, errp)) {
            return false;
        }
    }
    return true;
}

static bool ipu_fabric_wire_ring(IpuFabric *f, Error **errp)
{
    for (uint32_t i = 0; i < f->size; i++) {
        if (!ipu_fabric_wire(f, i, IPU_PORT_RING_NEXT, (i + 1) % f->size,
                             IPU_PORT_RING_PREV, errp)) {
            return false;
        }
    }
    return true;
}

/* `wiring`: A.P-B.Q links joined by ':'. */
static bool ipu_fabric_wire_explicit(IpuFabric *f, Error **errp)
{
    g_auto(GStrv) items = g_strsplit(f->wiring, ":", -1);

    for (char **it = items; *it; it++) {
        unsigned a, p, b, q;
        int n = -1;

        if (sscanf(*it, "%u.%u-%u.%u%n", &a, &p, &b, &q, &n) != 4 ||
            n != (int)strlen(*it)) {
            error_setg(errp, "ipu-fabric: wiring: '%s' is not A.P-B.Q "
                       "(member A's port P to member B's port Q)", *it);
            return false;
        }
        if (!ipu_fabric_wire(f, a, p, b, q, errp)) {
            return false;
        }
    }
    return true;
}

typedef struct IpuTopology {
    const char *name;
    uint32_t size;              /* the only size, or 0: any (min..max) */
    uint32_t min;
    bool (*wire)(IpuFabric *f, Error **errp);
} IpuTopology;

static bool ipu_fabric_wire_m2000(IpuFabric *f, Error **errp)
{
    return ipu_fabric_wire_ladder(f, false, errp);
}

static bool ipu_fabric_wire_pod16(IpuFabric *f, Error **errp)
{
    return ipu_fabric_wire_ladder(f, true, errp);
}

static const IpuTopology ipu_topologies[] = {
    { "m2000", 4, 4, ipu_fabric_wire_m2000 },
    { "pod16", 16, 16, ipu_fabric_wire_pod16 },
    { "ring", 0, 2, ipu_fabric_wire_ring },
    { "explicit", 0, 1, ipu_fabric_wire_explicit },
};

/* Checks the size against topology @t (filling in its default). */
static bool ipu_fabric_check_size(IpuFabric *f, const IpuTopology *t,
                                  Error **errp)
{
    if (t->size) {
        if (f->size && f->size != t->size) {
            error_setg(errp, "ipu-fabric: topology %s has %u members, not "
                       "size=%u", t->name, t->size, f->size);
            return false;
        }
        f->size = t->size;
        return true;
    }
    if (f->size < t->min || f->size > IPU_FABRIC_MAX_SIZE) {
        error_setg(errp, "ipu-fabric: topology %s needs size=N, %u to %d",
                   t->name, t->min, IPU_FABRIC_MAX_SIZE);
        return false;
    }
    return true;
}

static void ipu_fabric_realize(DeviceState *dev, Error **errp)
{
    IpuFabric *f = IPU_FABRIC(dev);
    const char *name = f->topology ? f->topology : "explicit";
    const IpuTopology *t = NULL;

    for (size_t i = 0; i < ARRAY_SIZE(ipu_topologies); i++) {
        if (!strcmp(ipu_topologies[i].name, name)) {
            t = &ipu_topologies[i];
        }
    }
    if (!t) {
        error_setg(errp, "ipu-fabric: unknown topology '%s' (m2000, pod16, "
                   "ring, explicit)", name);
        return;
    }
    if ((t->wire == ipu_fabric_wire_explicit) != (f->wiring != NULL)) {
        error_setg(errp, "ipu-fabric: wiring= is %s with topology %s",
                   f->wiring ? "not allowed" : "required", t->name);
        return;
    }
    if (!ipu_fabric_check_size(f, t, errp)) {
        return;
    }
    if (f->sync_timeout_ms < 100 || f->sync_timeout_ms > 600000) {
        error_setg(errp, "ipu-fabric: sync-timeout-ms=%u: 100 to 600000",
                   f->sync_timeout_ms);
        return;
    }
    f->members = g_new0(IpuFabricMember, f->size);
    for (uint32_t i = 0; i < f->size; i++) {
        for (unsigned p = 0; p < IPU_LINK_PORTS_MAX; p++) {
            f->members[i].link[p] = IPU_FABRIC_NO_LINK;
        }
    }
    if (!t->wire(f, errp)) {
        g_free(f->links);
        f->links = NULL;
        f->nlinks = 0;
        g_free(f->members);
        f->members = NULL;
        return;
    }
    ipu_fabric_links_init(f);
    if (!ipu_fabric_transport_init(f, errp)) {
        ipu_fabric_transport_free(f);
        return;
    }
    f->complete = true;
    trace_ipu_fabric_complete(t->name, f->size, f->nlinks);
}

bool ipu_fabric_join(IpuFabric *f, uint32_t index, uint32_t nports,
                     const char *serial, IpuFabricNotify fn, void *opaque,
                     Error **errp)
{
    IpuFabricMember *m;

    if (!f->complete || index >= f->size) {
        error_setg(errp, "ipu: fabric-index %u out of range (the fabric has "
                   "%u members)", index, f->size);
        return false;
    }
    m = &f->members[index];
    if (m->present) {
        error_setg(errp, "ipu: fabric-index %u is taken by another card",
                   index);
        return false;
    }
    for (unsigned p = nports; p < IPU_LINK_PORTS_MAX; p++) {
        if (m->link[p] != IPU_FABRIC_NO_LINK) {
            error_setg(errp, "ipu: the card has %u link ports; the fabric "
                       "wires port %u of member %u", nports, p, index);
            return false;
        }
    }
    qemu_mutex_lock(&f->lock);
    m->present = true;
    m->ready = false;
    m->nports = nports;
    pstrcpy(m->serial, sizeof(m->serial), serial);
    m->notify = fn;
    m->opaque = opaque;
    qemu_mutex_unlock(&f->lock);
    trace_ipu_fabric_member(index, "join");
    return true;
}

void ipu_fabric_leave(IpuFabric *f, uint32_t index)
{
    IpuFabricMember *m = &f->members[index];

    /* Gone first: the card being unplugged is not notified. */
    qemu_mutex_lock(&f->lock);
    m->present = false;
    m->notify = NULL;
    m->opaque = NULL;
    memset(m->serial, 0, sizeof(m->serial));
    qemu_mutex_unlock(&f->lock);
    trace_ipu_fabric_member(index, "leave");
    ipu_fabric_member_reset(f, index, false);
}

uint32_t ipu_fabric_size(IpuFabric *f)
{
    return f->size;
}

static void ipu_fabric_init(Object *obj)
{
    qemu_mutex_init(&IPU_FABRIC(obj)->lock);
}

static void ipu_fabric_finalize(Object *obj)
{
    IpuFabric *f = IPU_FABRIC(obj);

    ipu_fabric_transport_free(f);
    ipu_fabric_links_free(f);
    g_free(f->links);
    g_free(f->members);
    qemu_mutex_destroy(&f->lock);
}

static Property ipu_fabric_properties[] = {
    DEFINE_PROP_STRING("topology", IpuFabric, topology),
    DEFINE_PROP_UINT32("size", IpuFabric, size, 0),
    DEFINE_PROP_STRING("wiring", IpuFabric, wiring),
    DEFINE_PROP_UINT32("sync-timeout-ms", IpuFabric, sync_timeout_ms,
                       IPU_SYNC_TIMEOUT_MS_DEFAULT),
    DEFINE_PROP_END_OF_LIST(),
};

/*
 * A device on no bus (`-device ipu-fabric,id=ID`, before the cards that
 * name it): QEMU 7.2's -object takes only the types of its QAPI schema.
 * Not hot-pluggable, so it cannot go while cards are on it.
 */
static void ipu_fabric_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->desc = "IPU-Link fabric joining IPU cards";
    dc->realize = ipu_fabric_realize;
    dc->hotpluggable = false;
    dc->user_creatable = true;
    device_class_set_props(dc, ipu_fabric_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
    ipu_fabric_qmp_class_init(oc);
}

static const TypeInfo ipu_fabric_info = {
    .name = TYPE_IPU_FABRIC,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(IpuFabric),
    .instance_init = ipu_fabric_init,
    .instance_finalize = ipu_fabric_finalize,
    .class_init = ipu_fabric_class_init,
};

static void ipu_fabric_register_types(void)
{
    type_register_static(&ipu_fabric_info);
}

type_init(ipu_fabric_register_types)
