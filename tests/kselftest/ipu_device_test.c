// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated card's register interface as docs/hw-interface.md specifies
 * it, driven directly through BAR0 (sysfs resource0) with the driver
 * unbound: identity, access rules (widths, alignment, undefined and
 * read-only offsets), the reset handshake and interrupt causes. Accesses the
 * specification forbids must be refused, logged as guest errors by QEMU
 * (the launcher puts QEMU's guest-error log in the share), and never stop
 * the VM. The driver is bound again afterwards (remove/probe).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"
#include "ipu_bar0.h"

/* The harness compares expected and actual values of mixed types by design. */
#pragma GCC diagnostic ignored "-Wsign-compare"

#define DEV_CARD 3	/* the VM's last card: the others stay bound */

FIXTURE(bar0) {
	struct ipu_bar0 bar;
};

static uint32_t rd32(FIXTURE_DATA(bar0) *self, uint32_t off)
{
	return ipu_bar0_rd(&self->bar, off);
}

static void wr32(FIXTURE_DATA(bar0) *self, uint32_t off, uint32_t v)
{
	ipu_bar0_wr(&self->bar, off, v);
}

/* Counts lines of QEMU's guest-error log that contain @needle (-1: no log). */
static int guest_errors(const char *needle)
{
	const char *ctl = getenv("IPU_VM_CTL");
	char path[PATH_MAX], line[512];
	int n = 0;
	FILE *f;

	if (!ctl)
		return -1;
	snprintf(path, sizeof(path), "/mnt/host/%s/guest-errors.log", ctl);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			n++;
	fclose(f);
	return n;
}

FIXTURE_SETUP(bar0)
{
	char msg[256];
	int ret = ipu_bar0_take(&self->bar, DEV_CARD, false, msg, sizeof(msg));

	if (ret == -ENODEV)
		SKIP(return, "card %d is not present", DEV_CARD);
	ASSERT_EQ(0, ret) TH_LOG("%s", msg);
	/* The driver left the card ready; settle any reset in flight. */
	ASSERT_LE(0, ipu_bar0_wait_state(&self->bar, IPU_CARD_STATE_READY,
					 IPU_READY_TIMEOUT_MS));
}

FIXTURE_TEARDOWN(bar0)
{
	/* Give the card back: probe must succeed again. */
	EXPECT_EQ(0, ipu_bar0_release(&self->bar));
}

TEST_F(bar0, identity)
{
	IPU_RETURN_IF_SKIPPED();
	const struct ipu_vm_card *vm = ipu_vm_card(DEV_CARD);
	const struct ipu_model_figures *m;
	char serial[IPU_SERIAL_LEN + 1] = { 0 };
	uint32_t caps;

	EXPECT_EQ((uint32_t)(IPU_MAGIC), rd32(self, IPU_REG_MAGIC));
	EXPECT_EQ((uint32_t)(IPU_HW_VERSION), rd32(self, IPU_REG_VERSION));
	EXPECT_EQ((uint32_t)(DEV_CARD), rd32(self, IPU_REG_CARD_INDEX));
	EXPECT_EQ((uint32_t)(IPU_WORKER_THREADS), rd32(self, IPU_REG_THREADS));
	EXPECT_EQ((uint32_t)(0x010400), rd32(self, IPU_REG_FW_VERSION));
	/* MSI-X can be switched off (-global ipu.msix=off). */
	caps = rd32(self, IPU_REG_CAPS);
	EXPECT_EQ((uint32_t)(IPU_CAP_SOFT_RESET | IPU_CAP_QUEUES),
		  caps & ~IPU_CAP_MSIX);
	EXPECT_EQ(caps & IPU_CAP_MSIX ? IPU_MSIX_VECTORS : 0u,
		  rd32(self, IPU_REG_NUM_VECTORS));
	EXPECT_EQ((uint32_t)IPU_NUM_QUEUES, rd32(self, IPU_REG_NUM_QUEUES));
	for (int i = 0; i < IPU_SERIAL_LEN; i += 4) {
		uint32_t w = rd32(self, IPU_REG_SERIAL + i);

		memcpy(serial + i, &w, 4);
	}
	ASSERT_NE(NULL, vm);
	EXPECT_STREQ(vm->serial, serial);
	m = ipu_model_by_name(vm->model);
	ASSERT_NE(NULL, m);
	EXPECT_EQ((uint32_t)(m->id), rd32(self, IPU_REG_MODEL));
	EXPECT_EQ((uint32_t)(m->tiles), rd32(self, IPU_REG_TILES));
	EXPECT_EQ((uint32_t)(m->tile_memory), rd32(self, IPU_REG_TILE_MEM));
	EXPECT_EQ((uint32_t)(m->clock_khz), rd32(self, IPU_REG_CLOCK_KHZ));
	EXPECT_EQ((uint32_t)(m->link_ports), rd32(self, IPU_REG_LINK_PORTS));
}

TEST_F(bar0, scratch_and_read_only)
{
	IPU_RETURN_IF_SKIPPED();
	uint32_t tiles = rd32(self, IPU_REG_TILES);

	wr32(self, IPU_REG_SCRATCH, 0xdeadbeef);
	EXPECT_EQ((uint32_t)(0xdeadbeef), rd32(self, IPU_REG_SCRATCH));
	wr32(self, IPU_REG_SCRATCH, 0x12345678);
	EXPECT_EQ((uint32_t)(0x12345678), rd32(self, IPU_REG_SCRATCH));
	/* Read-only registers ignore writes. */
	wr32(self, IPU_REG_TILES, 7);
	EXPECT_EQ((uint32_t)(tiles), rd32(self, IPU_REG_TILES));
	wr32(self, IPU_REG_MAGIC, 0);
	EXPECT_EQ((uint32_t)(IPU_MAGIC), rd32(self, IPU_REG_MAGIC));
	/* Write-only registers read as 0. */
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_CONTROL));
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_IRQ_TEST));
}

TEST_F(bar0, bad_widths_and_offsets)
{
	IPU_RETURN_IF_SKIPPED();
	int before = guest_errors("ipu: ");

	wr32(self, IPU_REG_SCRATCH, 0x11223344);
	/*
	 * Narrow and wide accesses are refused: reads are all ones. (x86 TCG
	 * splits an unaligned access into aligned ones, or bytes for stores,
	 * before it reaches the card, so only the byte stores show here.)
	 */
	EXPECT_EQ(0xff, *(volatile uint8_t *)(self->bar.regs + IPU_REG_MAGIC));
	EXPECT_EQ(0xffff, *(volatile uint16_t *)(self->bar.regs + IPU_REG_MAGIC));
	EXPECT_EQ(UINT64_MAX, *(volatile uint64_t *)(self->bar.regs + IPU_REG_MAGIC));
	*(volatile uint8_t *)(self->bar.regs + IPU_REG_SCRATCH) = 0x55;
	*(volatile uint16_t *)(self->bar.regs + IPU_REG_SCRATCH) = 0x5555;
	*(volatile uint64_t *)(self->bar.regs + IPU_REG_SCRATCH) = 0x5555555555555555ull;
	*(volatile uint32_t *)(self->bar.regs + IPU_REG_SCRATCH + 1) = 0x55555555;
	EXPECT_EQ((uint32_t)(0x11223344), rd32(self, IPU_REG_SCRATCH));
	/* Undefined offsets read 0 and ignore writes, up to the BAR's end. */
	EXPECT_EQ((uint32_t)(0), rd32(self, 0x0f0));
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_QUEUE_BASE));
	wr32(self, IPU_BAR_REGS_SIZE - 4, 0xffffffff);
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_BAR_REGS_SIZE - 4));
	/* Undefined control bits do nothing (no reset). */
	wr32(self, IPU_REG_CONTROL, 0xfffffffe);
	EXPECT_EQ((uint32_t)(IPU_CARD_STATE_READY | IPU_STATUS_READY), rd32(self, IPU_REG_STATUS));
	EXPECT_EQ((uint32_t)(0x11223344), rd32(self, IPU_REG_SCRATCH));
	/* The card is still there and QEMU logged each refused access. */
	EXPECT_EQ((uint32_t)(IPU_MAGIC), rd32(self, IPU_REG_MAGIC));
	if (before < 0)
		SKIP(return, "QEMU's guest-error log is not in the share");
	EXPECT_LE(before + 12, guest_errors("ipu: "));
}

TEST_F(bar0, reset_handshake)
{
	IPU_RETURN_IF_SKIPPED();
	uint32_t count = rd32(self, IPU_REG_RESET_COUNT);
	long ms;

	wr32(self, IPU_REG_SCRATCH, 0xabcd);
	wr32(self, IPU_REG_CONTROL, IPU_CONTROL_RESET);
	EXPECT_EQ((uint32_t)(IPU_CARD_STATE_RESETTING), rd32(self, IPU_REG_STATUS));
	/* A second reset while resetting is ignored. */
	wr32(self, IPU_REG_CONTROL, IPU_CONTROL_RESET);
	ms = ipu_bar0_wait_state(&self->bar, IPU_CARD_STATE_READY,
				 IPU_READY_TIMEOUT_MS);
	ASSERT_LE(0, ms);
	EXPECT_EQ((uint32_t)(IPU_CARD_STATE_READY | IPU_STATUS_READY), rd32(self, IPU_REG_STATUS));
	EXPECT_EQ((uint32_t)(count + 1), rd32(self, IPU_REG_RESET_COUNT));
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_SCRATCH));
	/* The ready cause is pending (masked or not). */
	EXPECT_NE((uint32_t)(0), rd32(self, IPU_REG_IRQ_STATUS) & IPU_IRQ_READY);
	wr32(self, IPU_REG_IRQ_STATUS, IPU_IRQ_READY);
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_IRQ_STATUS) & IPU_IRQ_READY);
	TH_LOG("reset took %ld ms (emulated delay %d us)", ms, IPU_READY_DELAY_US);
}

TEST_F(bar0, irq_causes)
{
	IPU_RETURN_IF_SKIPPED();
	wr32(self, IPU_REG_IRQ_STATUS, IPU_IRQ_VALID);
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_IRQ_STATUS));
	wr32(self, IPU_REG_IRQ_MASK, 0xffffffff);
	/* Only bit 31 of IRQ_TEST is defined. */
	wr32(self, IPU_REG_IRQ_TEST, 0x7fffffff);
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_IRQ_STATUS));
	wr32(self, IPU_REG_IRQ_TEST, IPU_IRQ_TEST);
	EXPECT_EQ((uint32_t)(IPU_IRQ_TEST), rd32(self, IPU_REG_IRQ_STATUS));
	/* Status is write-1-to-clear: writing 0 keeps it. */
	wr32(self, IPU_REG_IRQ_STATUS, 0);
	EXPECT_EQ((uint32_t)(IPU_IRQ_TEST), rd32(self, IPU_REG_IRQ_STATUS));
	wr32(self, IPU_REG_IRQ_STATUS, IPU_IRQ_TEST);
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_IRQ_STATUS));
	/* Defined mask bits stick; undefined ones read as set. */
	wr32(self, IPU_REG_IRQ_MASK, IPU_IRQ_TEST);
	EXPECT_EQ((uint32_t)~(IPU_IRQ_VALID & ~IPU_IRQ_TEST), rd32(self, IPU_REG_IRQ_MASK));
	wr32(self, IPU_REG_IRQ_MASK, 0xffffffff);
	EXPECT_EQ((uint32_t)(0xffffffff), rd32(self, IPU_REG_IRQ_MASK));
}

/*
 * Random accesses of every width to every offset of BAR0 (queue enables
 * and resets left out: they would DMA to random guest memory or take the
 * card away mid-run): the card must still answer as specified afterwards.
 */
TEST_F(bar0, register_fuzz)
{
	IPU_RETURN_IF_SKIPPED();
	static const unsigned widths[] = { 1, 2, 4, 8 };
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
	const struct ipu_vm_card *vm = ipu_vm_card(DEV_CARD);

	for (int i = 0; i < 200000; i++) {
		uint32_t off, w, val;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		w = widths[seed & 3];
		off = (seed >> 8) % IPU_BAR_REGS_SIZE & ~(w - 1);
		val = seed >> 32;
		if (off + w > IPU_BAR_REGS_SIZE)
			continue;
		if (!((seed >> 2) & 1)) {
			switch (w) {
			case 1: (void)*(volatile uint8_t *)(self->bar.regs + off); break;
			case 2: (void)*(volatile uint16_t *)(self->bar.regs + off); break;
			case 4: (void)*(volatile uint32_t *)(self->bar.regs + off); break;
			default: (void)*(volatile uint64_t *)(self->bar.regs + off); break;
			}
			continue;
		}
		/* No reset, no queue enable, no unmasked interrupt causes. */
		if ((off & ~7u) == (IPU_REG_CONTROL & ~7u) ||
		    (off & ~7u) == (IPU_REG_IRQ_MASK & ~7u) ||
		    (off >= IPU_REG_QUEUE_BASE &&
		     off < IPU_REG_Q(IPU_NUM_QUEUES, 0) &&
		     ((off - IPU_REG_QUEUE_BASE) % IPU_QUEUE_STRIDE & ~7u) ==
		     (IPU_Q_CTRL & ~7u)))
			continue;
		switch (w) {
		case 1: *(volatile uint8_t *)(self->bar.regs + off) = val; break;
		case 2: *(volatile uint16_t *)(self->bar.regs + off) = val; break;
		case 4: *(volatile uint32_t *)(self->bar.regs + off) = val; break;
		default: *(volatile uint64_t *)(self->bar.regs + off) = seed; break;
		}
	}
	EXPECT_EQ(IPU_MAGIC, rd32(self, IPU_REG_MAGIC));
	EXPECT_EQ((uint32_t)(IPU_CARD_STATE_READY | IPU_STATUS_READY),
		  rd32(self, IPU_REG_STATUS));
	ASSERT_NE(NULL, vm);
	EXPECT_EQ((uint32_t)DEV_CARD, rd32(self, IPU_REG_CARD_INDEX));
	for (unsigned q = 0; q < IPU_NUM_QUEUES; q++)
		EXPECT_EQ(0u, rd32(self, IPU_REG_Q(q, IPU_Q_STATUS)) &
			  IPU_Q_STATUS_ENABLED);
}

TEST_HARNESS_MAIN
