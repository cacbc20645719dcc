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
#define IPU_HW_VERSION_MINOR		0
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

/* Status and control */
#define IPU_REG_STATUS			0x100	/* RO */
#define IPU_REG_CONTROL			0x104	/* WO, reads as 0 */
#define IPU_REG_RESET_COUNT		0x108	/* RO, completed resets */
#define IPU_REG_SCRATCH			0x110	/* RW, cleared by reset */

#define IPU_STATUS_STATE_MASK		0xfu
#define IPU_STATE_OFF			0	/* power-on in progress */
#define IPU_STATE_READY			1
#define IPU_STATE_RESETTING		2
#define IPU_STATE_FAILED		3
#define IPU_STATUS_READY		(1u << 4)

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
#define IPU_IRQ_TEST			(1u << 31)	/* software test */
#define IPU_IRQ_VALID	(IPU_IRQ_READY | IPU_IRQ_ERROR | IPU_IRQ_TEST)

/* MSI-X: vector 0 carries IPU_IRQ_*; vectors 1.. are for command queues. */
#define IPU_MSIX_VECTORS		9
#define IPU_VECTOR_EVENTS		0

/* Registers 0x1000 - 0x3fff are reserved for command queues. */
#define IPU_REG_QUEUE_BASE		0x1000

#endif /* IPU_HW_H */
