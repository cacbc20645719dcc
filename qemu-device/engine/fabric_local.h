/* SPDX-License-Identifier: MIT */
/*
 * In-process link transport (fabric.h): IPUs 0..N-1 of one process, their
 * wiring (a topology or explicit links), each link's state, and groups of
 * engines that run multi-IPU graphs together. Used by libipudev's model
 * device (N engines, one thread each) and wrapped by QEMU's fabric object
 * (its cards' engines), which adds link training and registers.
 *
 * Topologies (fabric indices 0..N-1, ports per IPU as given at create):
 * - "m2000" (N = 4) and "pod16" (N = 16): a ladder. Pairs (2k, 2k+1) are
 *   rungs of two links (ports 0 and 1 of both ends); rails join 2k to
 *   2k+2 and 2k+1 to 2k+3 by one link (port 2 towards the higher pair,
 *   port 3 towards the lower). pod16 closes the rails into rings: 14-0 and
 *   15-1 (ports 2 of 14/15, 3 of 0/1).
 * - "ring" (N >= 2): i to i+1 mod N by one link (port 0 of i, port 1 of
 *   i+1); with N = 2 the two links join the same pair.
 * - "none": no links; wire them with ipue_fabric_local_wire().
 * Collective ring order: ipue_fabric_local_ring().
 *
 * Ownership: the fabric owns its groups and endpoints; engines stay the
 * caller's, and must leave (ipue_fabric_local_leave) before they are
 * destroyed. Thread-safe: every call may come from any thread.
 * Errors: negative IPUE_E* codes (ipu_engine.h).
 */
#ifndef IPUE_FABRIC_LOCAL_H
#define IPUE_FABRIC_LOCAL_H

#include <stdint.h>

#include "fabric.h"
#include "ipu_engine.h"

#define IPUE_FABRIC_MAX_IPUS	64
#define IPUE_FABRIC_MAX_PORTS	16

struct ipue_fabric_local;

/*
 * A fabric of @ipus IPUs with @ports link ports each, wired as @topology
 * ("m2000", "pod16", "ring", "none"); every wired link starts up.
 * *out owns it until ipue_fabric_local_destroy().
 * Errors: IPUE_EINVAL (unknown topology, an IPU count it does not take,
 * too few ports for it, ipus or ports above the maxima), IPUE_ENOMEM.
 */
int ipue_fabric_local_create(const char *topology, uint32_t ipus, uint32_t ports,
			     struct ipue_fabric_local **out);
/* free it; NULL is a no-op; no engine may still be joined */
void ipue_fabric_local_destroy(struct ipue_fabric_local *f);

/* IPUs and ports per IPU */
uint32_t ipue_fabric_local_ipus(const struct ipue_fabric_local *f);
uint32_t ipue_fabric_local_ports(const struct ipue_fabric_local *f);

/*
 * Wire port @pa of IPU @a to port @pb of IPU @b (up). Errors: IPUE_ERANGE
 * (no such IPU or port), IPUE_EINVAL (a == b, or a port already wired).
 */
int ipue_fabric_local_wire(struct ipue_fabric_local *f, uint32_t a, uint32_t pa,
			   uint32_t b, uint32_t pb);
/*
 * The peer of port @port of IPU @ipu: *peer, *peer_port. Returns 1 if
 * wired, 0 if not, IPUE_ERANGE for no such IPU or port.
 */
int ipue_fabric_local_peer(const struct ipue_fabric_local *f, uint32_t ipu, uint32_t port,
			   uint32_t *peer, uint32_t *peer_port);
/*
 * Take the link at IPU @ipu port @port down (@up 0) or bring it up (1):
 * both ends. Taking a link down ends, with IPUE_ELINK naming
 * IPUE_LINK_ID(ipu, port), the run in progress of every group with a
 * member at either end. Errors: IPUE_ERANGE, IPUE_EINVAL (not wired).
 */
int ipue_fabric_local_set_link(struct ipue_fabric_local *f, uint32_t ipu, uint32_t port, int up);
/* 1 if the link at @ipu port @port is wired and up, 0 if not, IPUE_ERANGE */
int ipue_fabric_local_link_up(const struct ipue_fabric_local *f, uint32_t ipu, uint32_t port);

/*
 * The order of a ring through all IPUs for collectives (design: up one
 * rail, down the other): m2000 0, 2, 3, 1; pod16 0, 2, ..., 14, 15, 13,
 * ..., 1; ring and none 0, 1, ..., N-1. Fills order[0..ipus). Returns ipus.
 */
int ipue_fabric_local_ring(const struct ipue_fabric_local *f, uint32_t *order);

/*
 * Join engine @e, at fabric index @ipu, to the group of IPUs @mask (bit i
 * = fabric index i; @ipu's bit set): it becomes member k, the rank of @ipu
 * among the set bits, and is given its place with ipue_set_fabric(). All
 * members of a group join with the same mask. The endpoint is the
 * fabric's until ipue_fabric_local_leave(). Errors: IPUE_ERANGE (@ipu or
 * @mask outside the fabric), IPUE_EINVAL (@ipu not in @mask, a count of
 * members not 1, 2, 4, 8 or 16, @ipu already joined, or @mask overlapping
 * another group), IPUE_EBUSY (@e is running), IPUE_ENOMEM.
 */
int ipue_fabric_local_join(struct ipue_fabric_local *f, uint64_t mask, uint32_t ipu,
			   struct ipue_engine *e);
/*
 * The engine at @ipu leaves its group (ipue_set_fabric(e, NULL)); no run of
 * it may be in progress. The group's latest run ends with IPUE_ESYNC (its
 * other members, were they running, stop at once instead of waiting for
 * it), and no member's write reaches the engine any more once this
 * returns (a write in progress is waited for). No-op if @ipu is in no
 * group.
 */
void ipue_fabric_local_leave(struct ipue_fabric_local *f, uint32_t ipu);

/*
 * Is the engine at @ipu in a group? 1 (and its mask in *@mask, when not
 * NULL), 0 if not, IPUE_ERANGE for no such IPU.
 */
int ipue_fabric_local_group_of(struct ipue_fabric_local *f, uint32_t ipu, uint64_t *mask);
/*
 * Members wait at most @ms milliseconds (CLOCK_MONOTONIC) at a barrier for
 * the last member; then the run ends on every member with IPUE_ESYNC. 0
 * (the default): they wait until the run ends otherwise (cancel, a link).
 */
void ipue_fabric_local_set_sync_timeout(struct ipue_fabric_local *f, uint32_t ms);

#endif /* IPUE_FABRIC_LOCAL_H */
