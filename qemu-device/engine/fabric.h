/* SPDX-License-Identifier: MIT */
/*
 * The link transport: the one interface through which an engine reaches the
 * other members of its multi-IPU group (docs/graph-format.md "Multi-IPU
 * binaries"). An engine is told its group with ipue_set_fabric(); it then
 * loads a multi-IPU binary as member @member of @members and, while it
 * runs, calls these operations on its own @ctx only.
 *
 * Implementations: fabric_local.c (in-process: the model device's N
 * engines, QEMU's cards of one process); a later one may carry links
 * between processes. Members are group indices 0..members-1 (a card's
 * member k is the k-th set bit of the group mask); links are named by
 * fabric index and port: IPUE_LINK_ID(fabric index, port).
 *
 * Threading: each member calls its ops from the thread running its
 * ipue_run() (or its pool threads, for write()); cancel() from any thread.
 */
#ifndef IPUE_FABRIC_H
#define IPUE_FABRIC_H

#include <stdint.h>

/* a link: fabric index << 8 | port, as the card's LINK_DOWN detail */
#define IPUE_LINK_ID(ipu, port)	(((uint32_t)(ipu) << 8) | ((uint32_t)(port) & 0xffu))
#define IPUE_LINK_IPU(id)	((id) >> 8)
#define IPUE_LINK_PORT(id)	((id) & 0xffu)
#define IPUE_LINK_NONE		0xffffffffu

#define IPUE_ROUTE_MAX_HOPS	16	/* longest route a fabric returns */

/* one hop of a route: between two members, over every link wired between them */
struct ipue_hop {
	uint32_t from, to;	/* members */
	uint32_t links;		/* links the hop's bytes spread over, >= 1 */
	uint32_t down;		/* a link of the hop that is not up, or IPUE_LINK_NONE */
};

/* one write of a batch (write_batch): @bytes from @src into member @to's tile memory */
struct ipue_fabric_write {
	const uint8_t *src;
	uint32_t to;		/* member */
	uint32_t tile, offset;	/* global tile, byte in it */
	uint32_t bytes;
};

struct ipue_fabric_ops {
	/*
	 * A run of this member begins: later barriers, polls and cancels
	 * belong to it. Each member calls it once per ipue_run() of a
	 * multi-IPU graph, before anything else of the run; runs of the group
	 * are matched by their order.
	 */
	void (*run_begin)(void *ctx);
	/*
	 * Wait until every member of the group is at its matching barrier.
	 * *val: in, this member's value; out, the maximum over the members.
	 * Returns 0, or the status that ended the group's run (IPUE_ELINK
	 * with *link, IPUE_ECANCELED, or a member's failure passed to
	 * cancel()), at once if it had already ended. Never blocks after the
	 * run ended.
	 */
	int (*barrier)(void *ctx, uint64_t *val, uint32_t *link);
	/*
	 * Write @bytes from @src into member @to's tile memory at global tile
	 * @tile, byte @offset (the engine there checks the range). Returns 0,
	 * IPUE_ERANGE / IPUE_EINVAL for a bad member or range, or
	 * IPUE_ECANCELED when the run has ended (the engine then asks poll()
	 * for the run's cause).
	 */
	int (*write)(void *ctx, uint32_t to, uint32_t tile, uint32_t offset,
		     const void *src, uint64_t bytes);
	/*
	 * Optional (NULL: the engine calls write() for each): the writes
	 * w[0..n) of one exchange, in order, each as write() does it, with
	 * the transport's per-call costs (locks, checks of the run) paid once
	 * for the batch: an exchange has a write per piece of tile memory,
	 * thousands of them. Returns 0 or the first failure's status (the
	 * writes after it are not done).
	 */
	int (*write_batch)(void *ctx, const struct ipue_fabric_write *w, uint32_t n);
	/*
	 * The route from member @from to member @to (static: the wiring, not
	 * the links' states): fills hops[0..n) (at most @max) and returns n
	 * >= 1; each hop's @down names a link of it that is not up. Returns
	 * IPUE_ERANGE when the wiring joins no path of at most @max hops
	 * (or a member is out of range), IPUE_EINVAL for @from == @to.
	 */
	int (*route)(void *ctx, uint32_t from, uint32_t to, struct ipue_hop *hops,
		     uint32_t max);
	/*
	 * End the group's current run with @status (negative IPUE_E*) and
	 * @link (IPUE_LINK_NONE unless IPUE_ELINK): every member's waiting or
	 * later barrier returns it, and poll() reports it. The first status
	 * wins. Any thread.
	 */
	void (*cancel)(void *ctx, int status, uint32_t link);
	/* 0 while the group's current run goes on, else its status (and *link) */
	int (*poll)(void *ctx, uint32_t *link);
};

/* an engine's place in a group: what ipue_set_fabric() is given */
struct ipue_fabric {
	const struct ipue_fabric_ops *ops;
	void *ctx;		/* the member's endpoint, owned by the fabric */
	uint32_t member;	/* this engine's index in the group */
	uint32_t members;	/* group size (1, 2, 4, 8, 16) */
};

#endif /* IPUE_FABRIC_H */
