/*
 * The IPU-Link fabric (docs/hw-interface.md "IPU-Links"): the one interface
 * between cards. A card joins a fabric as a member (its fabric index),
 * tells it when it resets and when it is READY, reads its ports' state
 * through it and is told when one changes. No card touches another card:
 * everything that crosses links goes through these functions, so that a
 * later step can carry the fabric between QEMU processes (a remote member
 * behind the same calls) without changing the card.
 *
 * The in-process fabric (ipu-fabric.c: the device, its topology and
 * wiring; ipu-fabric-link.c: link states and training; ipu-fabric-qmp.c:
 * run-time control) is a device on no bus, `-device ipu-fabric,id=ID`.
 *
 * Threads and locks: members join, leave, reset and become READY with the
 * BQL, and every link state change happens with the BQL (timers, QMP,
 * register accesses). IpuFabric.lock protects the link states and member
 * presence for readers without the BQL (ipu_fabric_link_up() and
 * ipu_fabric_route(), for the engine's link transport). It is innermost:
 * nothing is called with it held. Lock order: BQL, IpuState.lock, fabric
 * lock. Notifications (IpuFabricNotify) are called with the BQL only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_IPU_FABRIC_H
#define HW_IPU_FABRIC_H

#include "qemu/thread.h"
#include "qom/object.h"
#include "ipu/ipu_hw.h"

struct ipue_engine;

#define TYPE_IPU_FABRIC "ipu-fabric"
OBJECT_DECLARE_SIMPLE_TYPE(IpuFabric, IPU_FABRIC)

/* Called (BQL) when port @port of the member's card changed state. */
typedef void (*IpuFabricNotify)(void *opaque, uint32_t port);

/* One end of a port, as the card's link registers show it. */
typedef struct IpuLinkPort {
    uint32_t state;             /* IPU_LINK_STATE_* */
    bool wired;
    uint32_t peer_index;        /* IPU_FABRIC_NONE when not wired */
    uint32_t peer_port;         /* IPU_FABRIC_NONE when not wired */
    uint32_t gen;               /* 0 while not UP */
    uint32_t lanes;
    uint32_t fom;               /* of the last training, 0: never */
    uint32_t err_corr;
    uint32_t err_uncorr;
    char peer_serial[IPU_SERIAL_LEN];   /* NUL padded; 0s: no peer card */
} IpuLinkPort;

/* A hop of a route: leaves member @index by port @port. */
typedef struct IpuFabricHop {
    uint32_t index;
    uint32_t port;
} IpuFabricHop;

/*
 * Joins member @index, a card with @nports link ports and board serial
 * @serial (copied), notified through @fn(@opaque, port). Fails with @errp
 * set when @index is out of range or taken, or when the wiring uses a port
 * >= @nports on this member. Its links stay DOWN until it is READY.
 */
bool ipu_fabric_join(IpuFabric *f, uint32_t index, uint32_t nports,
                     const char *serial, IpuFabricNotify fn, void *opaque,
                     Error **errp);
/* Member @index leaves (unplug): its links go DOWN, no more notifications. */
void ipu_fabric_leave(IpuFabric *f, uint32_t index);
/*
 * Member @index's card resets (soft, PCI function or power-on): its links
 * go DOWN (FAILED ones too) until it is READY again; @power_on also clears
 * its ends' error counters and figures of merit.
 */
void ipu_fabric_member_reset(IpuFabric *f, uint32_t index, bool power_on);
/* Member @index's card is READY: its links train where the peer is too. */
void ipu_fabric_member_ready(IpuFabric *f, uint32_t index);

/* Members of @f (its size, present or not). */
uint32_t ipu_fabric_size(IpuFabric *f);
/* Port @port of member @index, as the link registers show it. */
void ipu_fabric_port(IpuFabric *f, uint32_t index, uint32_t port,
                     IpuLinkPort *out);

/*
 * Route queries for traffic between members (any thread): is the link at
 * member @index's port @port UP?
 */
bool ipu_fabric_link_up(IpuFabric *f, uint32_t index, uint32_t port);
/*
 * The links a transfer from member @from to member @to crosses: the
 * shortest path over the wiring, each hop by an UP link where the hop has
 * one. Fills @hops (at most @max) and returns their number (0 when @from
 * is @to); -ENOENT when no wiring joins them or an index is out of range,
 * -E2BIG when the path is longer than @max, -ENOLINK when a hop has no UP
 * link: *@down (when not NULL) is then that hop's first link, as
 * index << 8 | port.
 */
int ipu_fabric_route(IpuFabric *f, uint32_t from, uint32_t to,
                     IpuFabricHop *hops, unsigned max, uint32_t *down);

/*
 * Multi-IPU groups (docs/hw-interface.md "Multi-IPU groups"; the card's
 * worker thread, no lock held). Member @index's engine @e joins the group
 * of member mask @mask for a LOAD; returns IPU_CS_SUCCESS, or the LOAD's
 * completion status with *@detail: INVALID_FIELD (a bad mask, logged as a
 * guest error), GROUP_BUSY (a member is in another group), INTERNAL. The
 * engine's graph is dropped either way.
 */
int ipu_fabric_group_join(IpuFabric *f, uint32_t index, uint64_t mask,
                          struct ipue_engine *e, uint32_t *detail);
/*
 * Member @index's engine leaves its group (LOAD, UNLOAD, reset, unplug),
 * ending the group's run if one is in progress; no run of it may be. No-op
 * when in none.
 */
void ipu_fabric_group_leave(IpuFabric *f, uint32_t index);

#endif /* HW_IPU_FABRIC_H */
