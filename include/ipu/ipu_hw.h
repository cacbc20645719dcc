/* SPDX-License-Identifier: MIT */
/*
 * Register interface of the emulated IPU PCIe card: the single mirror of
 * docs/hw-interface.md, shared by the QEMU device and the kernel driver.
 * Change the document first, then this header, then both sides.
 *
 * Plain C with no includes: it is used inside the kernel and inside QEMU.
 */
#ifndef IPU_HW_H
#define IPU_HW_H

#include "ipu_models.h"

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

/* PCI identity: this project's own ids, not a real vendor's card. */
#define IPU_PCI_VENDOR_ID		0x1ee7
#define IPU_PCI_DEVICE_ID		0x0001
#define IPU_PCI_CLASS			0x1200	/* processing accelerator */
#define IPU_PCI_REVISION		0x01

/* BARs */
#define IPU_BAR_REGS			0	/* registers, IPU_BAR_REGS_SIZE */
#define IPU_BAR_MSIX			2	/* MSI-X table and PBA */
#define IPU_BAR_REGS_SIZE		0x4000

/* Interface version reported in IPU_REG_VERSION: major << 16 | minor. */
#define IPU_HW_VERSION_MAJOR		1
#define IPU_HW_VERSION_MINOR		6	/* 1.4: IPU-Links; 1.5: groups;
						 * 1.6: health */
#define IPU_HW_VERSION \
	((IPU_HW_VERSION_MAJOR << 16) | IPU_HW_VERSION_MINOR)

#define IPU_MAGIC			0x49505543	/* "IPUC" */

/* Identity and capabilities (read-only) */
#define IPU_REG_MAGIC			0x000
#define IPU_REG_VERSION			0x004
#define IPU_REG_MODEL			0x008	/* IPU_MODEL_* */
#define IPU_REG_CARD_INDEX		0x00c
#define IPU_REG_TILES			0x010
#define IPU_REG_TILE_MEM		0x014	/* bytes per tile */
#define IPU_REG_THREADS			0x018	/* worker threads per tile */
#define IPU_REG_LINK_PORTS		0x01c
#define IPU_REG_FW_VERSION		0x020	/* major << 16 | minor << 8 | patch */
#define IPU_REG_CLOCK_KHZ		0x024
#define IPU_REG_CAPS			0x028	/* IPU_CAP_* */
#define IPU_REG_NUM_VECTORS		0x02c	/* MSI-X vectors implemented */
#define IPU_REG_SERIAL			0x040	/* 32 bytes, ASCII, NUL padded */
#define IPU_SERIAL_LEN			32

#define IPU_CAP_MSIX			(1u << 0)
#define IPU_CAP_SOFT_RESET		(1u << 1)
#define IPU_CAP_QUEUES			(1u << 2)
#define IPU_CAP_USER_QUEUES		(1u << 3)	/* BAR4 doorbell pages, CTRL.USER */
#define IPU_CAP_LINKS			(1u << 4)	/* 1.4: IPU-Link registers */
#define IPU_CAP_HEALTH			(1u << 5)	/* 1.6: heartbeat, telemetry */

/* Status and control */
#define IPU_REG_STATUS			0x100	/* RO */
#define IPU_REG_CONTROL			0x104	/* WO, reads as 0 */
#define IPU_REG_RESET_COUNT		0x108	/* RO, completed resets */
#define IPU_REG_SCRATCH			0x110	/* RW, cleared by reset */

/* STATUS register bits: IPU_CARD_*, apart from the uAPI's IPU_STATUS_* codes */
#define IPU_CARD_STATE_MASK		0xfu
#define IPU_CARD_STATE_OFF			0	/* power-on in progress */
#define IPU_CARD_STATE_READY			1
#define IPU_CARD_STATE_RESETTING		2
#define IPU_CARD_STATE_FAILED		3	/* 1.6: HEALTH says why */
#define IPU_CARD_READY			(1u << 4)

#define IPU_CONTROL_RESET		(1u << 0)
#define IPU_CONTROL_VALID		IPU_CONTROL_RESET

/* Emulated time from power-on or reset to READY, in microseconds. */
#define IPU_READY_DELAY_US		10000
/* Drivers should give up on READY after this long. */
#define IPU_READY_TIMEOUT_MS		2000

/* Interrupts: status is write-1-to-clear; a set mask bit blocks the source. */
#define IPU_REG_IRQ_STATUS		0x120	/* RW1C */
#define IPU_REG_IRQ_MASK		0x124	/* RW, all ones after reset */
#define IPU_REG_IRQ_TEST		0x128	/* WO: sets the written bits of
						 * IPU_IRQ_TEST in IRQ_STATUS */

#define IPU_IRQ_READY			(1u << 0)	/* became READY */
#define IPU_IRQ_ERROR			(1u << 1)	/* entered FAILED */
#define IPU_IRQ_LINK			(1u << 2)	/* 1.4: a link changed */
#define IPU_IRQ_TEST			(1u << 31)	/* software test */

/*
 * Health and telemetry (1.6, docs/hw-interface.md "Health and
 * telemetry"): how a driver tells a hung card or command from a slow one,
 * the modelled sensors, and error counters. All read-only.
 */
#define IPU_REG_HEARTBEAT		0x180	/* +1 per ms of READY (emulated) */
#define IPU_REG_PROGRESS		0x184	/* +1 per command, DMA chunk, step */
#define IPU_REG_ACTIVE			0x188	/* the command in progress */
#define IPU_REG_HEALTH			0x18c	/* IPU_HEALTH_* */
#define IPU_REG_TEMP			0x190	/* die temperature, milli-degC */
#define IPU_REG_POWER			0x194	/* mW */
#define IPU_REG_UTIL			0x198	/* busy per-mille, last window */
#define IPU_REG_ERR_DMA			0x19c	/* DMA_ERROR completions */
#define IPU_REG_ERR_RING		0x1a0	/* queues stopped with RING_DMA */
#define IPU_REG_ERR_FATAL		0x1a4	/* fatal errors (entries to FAILED) */

/* HEARTBEAT's period, and how long a driver waits before it calls the card hung. */
#define IPU_HEARTBEAT_PERIOD_US		1000
#define IPU_HEARTBEAT_TIMEOUT_MS	500
/* How long PROGRESS may stand still under one command before it is hung. */
#define IPU_PROGRESS_TIMEOUT_MS		2000
/* UTIL's window; POWER follows UTIL, TEMP follows POWER (ipu_models.h). */
#define IPU_UTIL_WINDOW_MS		100

#define IPU_ACTIVE_BUSY			(1u << 31)
#define IPU_ACTIVE_QUEUE(v)		(((v) >> 16) & 0x7u)
#define IPU_ACTIVE_CID(v)		((v) & 0xffffu)

#define IPU_HEALTH_FATAL		(1u << 0)	/* FAILED by a fatal error */
#define IPU_HEALTH_CAUSE(v)		(((v) >> 8) & 0xffu)
#define IPU_FATAL_NONE			0
#define IPU_FATAL_FIRMWARE		1	/* the firmware failed (injected) */

/*
 * A completion the card corrupted (fault injection "corrupt-cqe"): its
 * sq_id is this (no queue has it) and its cid is inverted; the phase is
 * right, so a driver reads it and must check sq_id against the queue.
 */
#define IPU_CQE_SQ_ID_CORRUPT		0xffffu


/* MSI-X: vector 0 carries IPU_IRQ_*; vectors 1.. are for command queues. */
#define IPU_MSIX_VECTORS		9
#define IPU_VECTOR_EVENTS		0

#define IPU_IRQ_QUEUE(q)		(1u << (8 + (q)))	/* no MSI-X */
#define IPU_IRQ_QUEUES			0x0000ff00u
#define IPU_IRQ_VALID	(IPU_IRQ_READY | IPU_IRQ_ERROR | IPU_IRQ_LINK | \
			 IPU_IRQ_QUEUES | IPU_IRQ_TEST)

/*
 * Command queues (docs/hw-interface.md "Command queues"): submission and
 * completion rings in host memory, one register block and one doorbell
 * pair per queue.
 */
#define IPU_NUM_QUEUES			8
#define IPU_REG_NUM_QUEUES		0x030	/* RO */
#define IPU_REG_QUEUE_BASE		0x1000
#define IPU_QUEUE_STRIDE		0x40
#define IPU_REG_Q(q, r)			(IPU_REG_QUEUE_BASE + (q) * IPU_QUEUE_STRIDE + (r))
#define IPU_Q_SQ_BASE_LO		0x00
#define IPU_Q_SQ_BASE_HI		0x04
#define IPU_Q_CQ_BASE_LO		0x08
#define IPU_Q_CQ_BASE_HI		0x0c
#define IPU_Q_SIZE			0x10	/* entries per ring, 2^n, 2..4096 */
#define IPU_Q_VECTOR			0x14	/* MSI-X vector, 1..8 */
#define IPU_Q_COALESCE			0x18
#define IPU_Q_CTRL			0x1c
#define IPU_Q_STATUS			0x20	/* RO */
#define IPU_Q_SQ_HEAD			0x24	/* RO: entries consumed */
#define IPU_Q_CQ_TAIL			0x28	/* RO: entries produced */
#define IPU_Q_CQ_HEAD			0x2c	/* RO: the last CQ_HEAD doorbell */
#define IPU_Q_REC_BASE_LO		0x30	/* 1.2: run record ring, or 0 */
#define IPU_Q_REC_BASE_HI		0x34

#define IPU_Q_SIZE_MIN			2
#define IPU_Q_SIZE_MAX			4096
#define IPU_Q_RING_ALIGN		4096
#define IPU_Q_COALESCE_COUNT(v)		((v) & 0xffu)
#define IPU_Q_COALESCE_USEC(v)		((v) >> 16)
#define IPU_Q_CTRL_ENABLE		(1u << 0)
#define IPU_Q_CTRL_USER			(1u << 1)	/* RUN, FENCE, ABORT only */
#define IPU_Q_STATUS_ENABLED		(1u << 0)
#define IPU_Q_STATUS_ERROR		(1u << 1)
#define IPU_Q_STATUS_CODE(v)		(((v) >> 8) & 0xffu)
#define IPU_QERR_SIZE			1	/* SIZE not a power of two in range */
#define IPU_QERR_ALIGN			2	/* a ring base is not 4 KiB aligned */
#define IPU_QERR_VECTOR			3	/* VECTOR outside 1..8 */
#define IPU_QERR_RING_DMA		4	/* a ring could not be read/written */

/* Doorbells: one page after the queue registers. */
#define IPU_REG_DOORBELL_BASE		0x2000
#define IPU_REG_SQ_TAIL(q)		(IPU_REG_DOORBELL_BASE + (q) * 8)
#define IPU_REG_CQ_HEAD(q)		(IPU_REG_DOORBELL_BASE + (q) * 8 + 4)

/*
 * BAR4: doorbell pages, one per queue, each mappable into one process
 * (docs/hw-interface.md "Doorbell pages and user queues").
 */
#define IPU_DB_BAR			4
#define IPU_DB_PAGE_SIZE		0x1000
#define IPU_DB_BAR_SIZE			(IPU_NUM_QUEUES * IPU_DB_PAGE_SIZE)
#define IPU_DB_SQ_TAIL			0x0
#define IPU_DB_CQ_HEAD			0x4

/*
 * IPU-Links (1.4, docs/hw-interface.md "IPU-Links"): the card's place in
 * its fabric, and one register block per IPU-Link port.
 */
#define IPU_REG_FABRIC_INDEX		0x130	/* RO, IPU_FABRIC_NONE: no fabric */
#define IPU_REG_FABRIC_SIZE		0x134	/* RO, members; 0: no fabric */
#define IPU_REG_LINK_CHANGED		0x138	/* RW1C, bit p: port p changed */
#define IPU_FABRIC_NONE			0xffffffffu
#define IPU_FABRIC_MAX_SIZE		64
#define IPU_LINK_PORTS_MAX		32	/* LINK_CHANGED's width */

#define IPU_REG_LINK_BASE		0x3000
#define IPU_LINK_STRIDE			0x40
#define IPU_REG_LINK(p, r)		(IPU_REG_LINK_BASE + (p) * IPU_LINK_STRIDE + (r))
#define IPU_LINK_STATE			0x00	/* IPU_LINK_STATE_* | WIRED */
#define IPU_LINK_PEER_INDEX		0x04	/* IPU_FABRIC_NONE: not wired */
#define IPU_LINK_PEER_PORT		0x08	/* 0xffffffff: not wired */
#define IPU_LINK_GEN			0x0c	/* 0 while not UP */
#define IPU_LINK_LANES			0x10	/* 0 while not UP */
#define IPU_LINK_FOM			0x14	/* 0-255; 0: never trained */
#define IPU_LINK_ERR_CORR		0x18	/* saturating */
#define IPU_LINK_ERR_UNCORR		0x1c	/* saturating */
#define IPU_LINK_PEER_SERIAL		0x20	/* IPU_SERIAL_LEN bytes */

#define IPU_LINK_STATE_MASK		0xfu
#define IPU_LINK_STATE_DOWN		0
#define IPU_LINK_STATE_TRAINING		1
#define IPU_LINK_STATE_UP		2
#define IPU_LINK_STATE_FAILED		3
#define IPU_LINK_WIRED			(1u << 8)

/* What a trained link reports, and how long training takes (emulated). */
#define IPU_LINK_UP_GEN			4
#define IPU_LINK_UP_LANES		8
#define IPU_LINK_UP_FOM			200
#define IPU_LINK_TRAIN_US		2000

/*
 * Fixed port assignment of the m2000 and pod16 topologies (ring: port
 * IPU_PORT_RING_NEXT to member i + 1, IPU_PORT_RING_PREV to member i - 1).
 */
#define IPU_PORT_RUNG0			0	/* to the pair partner, i ^ 1 */
#define IPU_PORT_RUNG1			1
#define IPU_PORT_RAIL_UP		2	/* to member i + 2, its RAIL_DOWN */
#define IPU_PORT_RAIL_DOWN		3	/* to member i - 2, its RAIL_UP */
#define IPU_PORT_RING_NEXT		0
#define IPU_PORT_RING_PREV		1

/* Submission queue entry: 64 bytes, little-endian. */
struct ipu_sqe {
	uint8_t opcode;		/* IPU_SQE_* */
	uint8_t flags;		/* IPU_SQE_LOAD_* for LOAD (1.3), else 0 */
	uint16_t cid;		/* command id, echoed in the completion */
	uint32_t handle;	/* tensor handle (WRITE, READ), program (RUN),
				 * stream (STREAM_BIND) */
	uint64_t offset;	/* byte offset in the tensor (WRITE, READ) */
	uint64_t length;	/* bytes to move (LOAD, WRITE, READ) */
	uint64_t data;		/* DMA address: the buffer, or the SG list */
	uint32_t sgl_count;	/* SG entries at data; 0: data is contiguous */
	uint32_t count;		/* RUN: times to run, 0 means 1 */
	uint64_t arg;		/* LOAD: DMA address of a 256-byte message
				 * buffer, or 0; other commands: 0 */
	uint64_t reserved[2];	/* must be 0 */
};

/* Scatter-gather entry: 16 bytes; the list is 16-byte aligned. */
struct ipu_sge {
	uint64_t addr;
	uint32_t len;		/* > 0 */
	uint32_t reserved;	/* must be 0 */
};

/* Completion queue entry: 32 bytes. */
struct ipu_cqe {
	uint16_t cid;
	uint16_t status;	/* bit 0 phase, bits 15:1 IPU_CS_* */
	uint16_t sq_head;	/* the queue's SQ_HEAD when this was posted */
	uint16_t sq_id;
	uint32_t detail;	/* IPU_CS_* specific */
	uint32_t detail2;
	uint64_t host_ns;	/* measured host time of the command */
	uint64_t cycles;	/* RUN: modeled chip cycles */
};

/*
 * Run record (1.2): written at REC_BASE + 128 * (CQ index of the RUN's
 * completion) before the completion, when the queue's REC_BASE is set.
 */
struct ipu_run_record {
	uint64_t cycles_compute;
	uint64_t cycles_sync;
	uint64_t cycles_exchange;
	uint64_t cycles_stream;
	uint64_t steps;
	uint64_t compute_sets;
	uint64_t exchanges;
	uint64_t syncs;
	uint64_t exchange_bytes;
	uint64_t stream_bytes_h2d;
	uint64_t stream_bytes_d2h;
	uint64_t reserved[5];	/* 0 */
};
#define IPU_RUN_RECORD_SIZE		128

#define IPU_SQE_LOAD			0x01
#define IPU_SQE_WRITE			0x02
#define IPU_SQE_READ			0x03
#define IPU_SQE_RUN			0x04
#define IPU_SQE_FENCE			0x05
#define IPU_SQE_ABORT			0x06
#define IPU_SQE_STREAM_BIND		0x07
#define IPU_SQE_UNLOAD			0x08	/* 1.2: drop the graph and its data */

/*
 * The SQE fields each opcode uses (docs/hw-interface.md "Commands"); every
 * other field, flags and reserved must be 0. The card refuses a set field
 * with INVALID_FIELD (detail: its byte offset); the driver refuses the
 * uAPI field that would fill it with -EINVAL.
 */
#define IPU_SQE_USES_HANDLE		(1u << 0)
#define IPU_SQE_USES_OFFSET		(1u << 1)
#define IPU_SQE_USES_LENGTH		(1u << 2)
#define IPU_SQE_USES_DATA		(1u << 3)	/* data and sgl_count */
#define IPU_SQE_USES_COUNT		(1u << 4)
#define IPU_SQE_USES_ARG		(1u << 5)
#define IPU_SQE_USES_FLAGS		(1u << 6)	/* 1.3: ipu_sqe_flags_valid() bits */

/* LOAD flags (1.3): commit all tile memory at load; other bits: INVALID_FIELD */
#define IPU_SQE_LOAD_COMMIT		(1u << 0)
#define IPU_SQE_LOAD_FLAGS_ALL		IPU_SQE_LOAD_COMMIT

static inline uint32_t ipu_sqe_uses(uint8_t opcode)
{
	switch (opcode) {
	case IPU_SQE_LOAD:	/* 1.5: offset = the group's member mask */
		return IPU_SQE_USES_OFFSET | IPU_SQE_USES_LENGTH |
		       IPU_SQE_USES_DATA | IPU_SQE_USES_ARG | IPU_SQE_USES_FLAGS;
	case IPU_SQE_WRITE:
	case IPU_SQE_READ:
		return IPU_SQE_USES_HANDLE | IPU_SQE_USES_OFFSET |
		       IPU_SQE_USES_LENGTH | IPU_SQE_USES_DATA;
	case IPU_SQE_RUN:
		return IPU_SQE_USES_HANDLE | IPU_SQE_USES_COUNT;
	case IPU_SQE_STREAM_BIND:
		return IPU_SQE_USES_HANDLE | IPU_SQE_USES_LENGTH |
		       IPU_SQE_USES_DATA;
	default:		/* FENCE, ABORT, UNLOAD */
		return 0;
	}
}

/* The flags bits an opcode that uses flags may set (0: none). */
static inline uint8_t ipu_sqe_flags_valid(uint8_t opcode)
{
	return opcode == IPU_SQE_LOAD ? IPU_SQE_LOAD_FLAGS_ALL : 0;
}

#define IPU_CQE_PHASE			1u
#define IPU_CQE_CODE(status)		((status) >> 1)
#define IPU_CS_SUCCESS			0
#define IPU_CS_INVALID_OPCODE		1
#define IPU_CS_INVALID_FIELD		2	/* detail: byte offset in the SQE */
#define IPU_CS_DMA_ERROR		3	/* detail/detail2: address lo/hi */
#define IPU_CS_INVALID_SGL		4	/* detail: entry index */
#define IPU_CS_NO_GRAPH			5
#define IPU_CS_LOAD_FAILED		6	/* detail: section, detail2: record */
#define IPU_CS_BAD_HANDLE		7	/* detail: handle or program */
#define IPU_CS_OUT_OF_RANGE		8
#define IPU_CS_ACCESS			9	/* handle not readable/writable */
#define IPU_CS_ABORTED			10	/* by ABORT, queue disable or reset */
#define IPU_CS_PROGRAM_ABORT		11	/* detail: abort code, detail2: node */
#define IPU_CS_RUN_FAILED		12	/* detail: engine status (negated) */
#define IPU_CS_TOO_LARGE		13
#define IPU_CS_INTERNAL			14	/* the card ran out of resources */
#define IPU_CS_UNWRITTEN_INPUT		15	/* 1.3: detail: the host handle a
						 * program reads, never written */
#define IPU_CS_LINK_DOWN		16	/* 1.5: detail: IPU_LINK_DETAIL() */
#define IPU_CS_GROUP_BUSY		17	/* 1.5: detail: fabric index in
						 * another group */
#define IPU_CS_SYNC_TIMEOUT		18	/* 1.5: a member missed a sync */

/* 1.5: LINK_DOWN's detail: the link as fabric index and port */
#define IPU_LINK_DETAIL(index, port)	(((uint32_t)(index) << 8) | ((port) & 0xffu))
#define IPU_LINK_DETAIL_INDEX(d)	((d) >> 8)
#define IPU_LINK_DETAIL_PORT(d)		((d) & 0xffu)
/* 1.5: LOAD's offset: bit i = fabric index i is a member; 0 = single IPU */
#define IPU_GROUP_MASK_MAX_BITS		64
#define IPU_SYNC_TIMEOUT_MS_DEFAULT	10000

#define IPU_MAX_GRAPH_BYTES		(256u << 20)
#define IPU_MAX_TRANSFER_BYTES		(1ull << 32)
#define IPU_MAX_SGL_ENTRIES		(1u << 20)
#define IPU_LOAD_MSG_LEN		256

#endif /* IPU_HW_H */
