/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Taking a card away from the driver to drive its registers from user space
 * (tests of the card itself: ipu_device_test, ipu_queue_test): unbind,
 * enable, map BAR0 and the doorbell pages (BAR4); and giving it back (bind,
 * wait for the class device).
 */
#ifndef IPU_BAR0_H
#define IPU_BAR0_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipu/ipu_hw.h"

struct ipu_bar0 {
	int card;			/* the card's index */
	char bdf[32];			/* its PCI address, "" when not taken */
	char pcidir[PATH_MAX];		/* /sys/bus/pci/devices/BDF */
	volatile uint8_t *regs;		/* BAR0, or NULL */
	int fd;
	volatile uint8_t *db;		/* BAR4 (doorbell pages), or NULL */
	int db_fd;
	char db_err[128];		/* why db is NULL */
	uint64_t phys;			/* BAR0's physical address */
};

/*
 * Unbinds card @card from ipu.ko, enables the PCI function (with bus
 * mastering if @busmaster) and maps BAR0 with every interrupt cause masked.
 * Returns 0, -ENODEV when the card is not present, or another -errno with
 * what failed in @msg. BAR4 is mapped too when the card has it; db is NULL
 * (and db_err says why) when it cannot be: tests that need it assert it.
 */
int ipu_bar0_take(struct ipu_bar0 *b, int card, bool busmaster,
		  char *msg, size_t len);
/*
 * Unmaps BAR0, disables the function and binds it to ipu.ko again; returns
 * 0 once the card's class device is back (5 s at most), else -ETIMEDOUT.
 * Does nothing for a card that was not taken.
 */
int ipu_bar0_release(struct ipu_bar0 *b);

static inline uint32_t ipu_bar0_rd(const struct ipu_bar0 *b, uint32_t off)
{
	return *(volatile uint32_t *)(b->regs + off);
}

static inline void ipu_bar0_wr(const struct ipu_bar0 *b, uint32_t off,
			       uint32_t v)
{
	*(volatile uint32_t *)(b->regs + off) = v;
}

/* Writes @v at byte @off of queue @q's doorbell page (BAR4). */
static inline void ipu_db_wr(const struct ipu_bar0 *b, unsigned q,
			     uint32_t off, uint32_t v)
{
	*(volatile uint32_t *)(b->db + q * IPU_DB_PAGE_SIZE + off) = v;
}

/* Waits for STATUS to report @state; the milliseconds it took, or -1. */
long ipu_bar0_wait_state(const struct ipu_bar0 *b, uint32_t state,
			 long max_ms);
/* Soft-resets the card and waits for READY; 0 or -ETIMEDOUT. */
int ipu_bar0_reset(const struct ipu_bar0 *b);
/* Waits (5 s at most) for queue @qi to leave ENABLED; returns its STATUS. */
uint32_t ipu_bar0_wait_q_stopped(const struct ipu_bar0 *b, unsigned int qi);

/*
 * Counts the lines of QEMU's log (guest errors, and trace events when the
 * VM enables some) that contain @needle; -1 when the log is not in the
 * share (tools/ipu-vm puts it there).
 */
int ipu_guest_log_count(const char *needle);

#endif /* IPU_BAR0_H */
