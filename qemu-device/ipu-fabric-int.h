/*
 * The in-process IPU-Link fabric's internals, shared by its files only:
 * ipu-fabric.c (the object, topologies, wiring, members), ipu-fabric-link.c
 * (link states, training, route queries) and ipu-fabric-qmp.c (run-time
 * control and the links query). Cards use ipu-fabric.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_IPU_FABRIC_INT_H
#define HW_IPU_FABRIC_INT_H

#include "qemu/timer.h"
#include "hw/qdev-core.h"
#include "ipu-fabric.h"
#include "fabric_local.h"

#define IPU_FABRIC_NO_LINK  (-1)

/* One end of a link: a member's port, and what that end has seen. */
typedef struct IpuFabricEnd {
    uint32_t index;
    uint32_t port;
    uint32_t err_corr;          /* saturating */
    uint32_t err_uncorr;
    uint32_t fom;               /* of the last training; 0: never */
} IpuFabricEnd;

typedef struct IpuFabricLink {
    IpuFabric *f;
    IpuFabricEnd end[2];
    uint32_t state;             /* IPU_LINK_STATE_*, both ends alike */
    bool held_down;             /* taken down from QMP: through resets */
    QEMUTimer *train;           /* TRAINING -> UP */
} IpuFabricLink;

typedef struct IpuFabricMember {
    bool present;               /* a card joined as this member */
    bool ready;                 /* its card is READY */
    uint32_t nports;
    char serial[IPU_SERIAL_LEN];
    IpuFabricNotify notify;
    void *opaque;
    int link[IPU_LINK_PORTS_MAX];   /* link at each port, or NO_LINK */
} IpuFabricMember;

struct IpuFabric {
    DeviceState parent_obj;

    /* Properties, fixed once realized */
    char *topology;
    uint32_t size;              /* 0: the topology's default */
    char *wiring;
    uint32_t sync_timeout_ms;   /* groups: longest wait at a sync (1.5) */

    bool complete;              /* realized: the wiring is built */
    QemuMutex lock;             /* link states, presence (see ipu-fabric.h) */
    IpuFabricMember *members;   /* size of them */
    IpuFabricLink *links;
    unsigned nlinks;
    /* the engines' link transport, wired as links[] (ipu-fabric-group.c) */
    struct ipue_fabric_local *transport;
};

/* ipu-fabric-link.c (BQL) */
/* Creates the links' training timers, once the wiring is known. */
void ipu_fabric_links_init(IpuFabric *f);
void ipu_fabric_links_free(IpuFabric *f);
/* Moves @l to @state (no-op if it is there): both ends are notified. */
void ipu_fabric_link_set_state(IpuFabricLink *l, uint32_t state);
/* Starts training @l if it is DOWN, not held down and both ends READY. */
void ipu_fabric_link_try_train(IpuFabricLink *l);
/* The link at member @index's port @port, or NULL (not wired, bad index). */
IpuFabricLink *ipu_fabric_link_at(IpuFabric *f, uint32_t index,
                                  uint32_t port, IpuFabricEnd **end);
/* "down", "training", "up", "failed". */
const char *ipu_link_state_name(uint32_t state);

/* ipu-fabric-group.c */
/* Creates the transport, wired as f->links (all DOWN); at realize. */
bool ipu_fabric_transport_init(IpuFabric *f, Error **errp);
void ipu_fabric_transport_free(IpuFabric *f);
/* @l went UP (@up) or left UP: the transport carries it or ends runs. */
void ipu_fabric_transport_link(IpuFabricLink *l, bool up);

/* ipu-fabric-qmp.c: the run-time control and query properties. */
void ipu_fabric_qmp_class_init(ObjectClass *oc);

#endif /* HW_IPU_FABRIC_INT_H */
