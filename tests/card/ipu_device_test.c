// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated card's register interface as docs/hw-interface.md specifies
 * it, driven directly through BAR0 (sysfs resource0) and the doorbell pages
 * (BAR4, resource4) with the driver unbound: identity, access rules (widths,
 * alignment, undefined and read-only offsets), the reset handshake,
 * interrupt causes, CTRL.USER, the CQ_HEAD read-back and REC_BASE (run
 * records: the checks at ENABLE and the lock). Accesses the
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
	const struct ipu_model *m;
	char serial[IPU_SERIAL_LEN + 1] = { 0 };
	uint32_t caps;

	EXPECT_EQ((uint32_t)(IPU_MAGIC), rd32(self, IPU_REG_MAGIC));
	EXPECT_EQ((uint32_t)(IPU_HW_VERSION), rd32(self, IPU_REG_VERSION));
	EXPECT_EQ((uint32_t)IPU_HW_VERSION, rd32(self, IPU_REG_VERSION));
	EXPECT_EQ((uint32_t)(DEV_CARD), rd32(self, IPU_REG_CARD_INDEX));
	EXPECT_EQ((uint32_t)(IPU_WORKER_THREADS), rd32(self, IPU_REG_THREADS));
	EXPECT_EQ((uint32_t)(0x010400), rd32(self, IPU_REG_FW_VERSION));
	/* MSI-X can be switched off (-global ipu.msix=off). */
	caps = rd32(self, IPU_REG_CAPS);
	EXPECT_EQ((uint32_t)(IPU_CAP_SOFT_RESET | IPU_CAP_QUEUES |
			     IPU_CAP_USER_QUEUES | IPU_CAP_LINKS |
			     IPU_CAP_HEALTH),
		  caps & ~IPU_CAP_MSIX);
	EXPECT_EQ(0x3eu, caps & ~IPU_CAP_MSIX);
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
	EXPECT_EQ((uint32_t)(m->tile_mem), rd32(self, IPU_REG_TILE_MEM));
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

/*
 * Health and telemetry (1.6) as the VM's guest sees them; the exact
 * behaviour under stepped emulated time and faults is the host's
 * tests/card/health/check.py.
 */
TEST_F(bar0, health_registers)
{
	IPU_RETURN_IF_SKIPPED();
	const struct ipu_model *m = ipu_model_by_id(rd32(self, IPU_REG_MODEL));
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	uint32_t hb, temp, power, errs[3];
	int i;

	ASSERT_NE(NULL, m);
	EXPECT_EQ(0u, rd32(self, IPU_REG_HEALTH));
	EXPECT_EQ(0u, rd32(self, IPU_REG_ACTIVE));	/* its queues are idle */
	/* The heartbeat follows emulated time, as the guest's clock does. */
	hb = rd32(self, IPU_REG_HEARTBEAT);
	nanosleep(&ts, NULL);
	EXPECT_LT(hb, rd32(self, IPU_REG_HEARTBEAT));
	temp = rd32(self, IPU_REG_TEMP);
	power = rd32(self, IPU_REG_POWER);
	EXPECT_LE(m->temp_idle_mc - 1000, (int32_t)temp);
	EXPECT_GE(m->temp_load_mc, (int32_t)temp);
	EXPECT_LE(m->power_idle_mw, power);
	EXPECT_GE(m->power_max_mw, power);
	EXPECT_GE(1000u, rd32(self, IPU_REG_UTIL));
	/* All read-only: writes are ignored (and logged). */
	for (i = 0; i < 3; i++)
		errs[i] = rd32(self, IPU_REG_ERR_DMA + 4 * i);
	for (i = 0; i < 3; i++)
		wr32(self, IPU_REG_ERR_DMA + 4 * i, 0x55);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(errs[i], rd32(self, IPU_REG_ERR_DMA + 4 * i));
	wr32(self, IPU_REG_HEALTH, IPU_HEALTH_FATAL);
	EXPECT_EQ(0u, rd32(self, IPU_REG_HEALTH));
	EXPECT_EQ((uint32_t)IPU_CARD_STATE_READY | IPU_CARD_READY,
		  rd32(self, IPU_REG_STATUS));
}

TEST_F(bar0, bad_widths_and_offsets)
{
	IPU_RETURN_IF_SKIPPED();
	int before = ipu_guest_log_count("ipu: ");

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
	/* (0x38-0x3f of a queue block; 0x00 is SQ_BASE_LO, 0x34 REC_BASE_HI) */
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_Q(0, 0x38)));
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_Q(IPU_NUM_QUEUES - 1, 0x3c)));
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_REG_SQ_TAIL(IPU_NUM_QUEUES)));
	wr32(self, IPU_BAR_REGS_SIZE - 4, 0xffffffff);
	EXPECT_EQ((uint32_t)(0), rd32(self, IPU_BAR_REGS_SIZE - 4));
	/* Undefined control bits do nothing (no reset). */
	wr32(self, IPU_REG_CONTROL, 0xfffffffe);
	EXPECT_EQ((uint32_t)(IPU_CARD_STATE_READY | IPU_CARD_READY), rd32(self, IPU_REG_STATUS));
	EXPECT_EQ((uint32_t)(0x11223344), rd32(self, IPU_REG_SCRATCH));
	/* The card is still there and QEMU logged each refused access. */
	EXPECT_EQ((uint32_t)(IPU_MAGIC), rd32(self, IPU_REG_MAGIC));
	if (before < 0)
		SKIP(return, "QEMU's guest-error log is not in the share");
	EXPECT_LE(before + 12, ipu_guest_log_count("ipu: "));
}

/*
 * A second CONTROL.RESET while the card resets is ignored. The test can only
 * see that when the second write lands inside the first reset's emulated
 * delay: a vCPU descheduled for longer (TCG on a busy host) lets the first
 * reset finish, and the second then rightly starts another. Such a try is
 * told by the guest's clock and repeated.
 */
TEST_F(bar0, reset_handshake)
{
	IPU_RETURN_IF_SKIPPED();
	uint32_t count, status, got = 0;
	long long gap_ms;
	long ms = -1;

	for (int attempt = 0; attempt < 3; attempt++) {
		long long t0 = ipu_now_ms();

		count = rd32(self, IPU_REG_RESET_COUNT);
		wr32(self, IPU_REG_SCRATCH, 0xabcd);
		wr32(self, IPU_REG_CONTROL, IPU_CONTROL_RESET);
		status = rd32(self, IPU_REG_STATUS);
		wr32(self, IPU_REG_CONTROL, IPU_CONTROL_RESET);
		gap_ms = ipu_now_ms() - t0;
		ms = ipu_bar0_wait_state(&self->bar, IPU_CARD_STATE_READY,
					 IPU_READY_TIMEOUT_MS);
		ASSERT_LE(0, ms);
		got = rd32(self, IPU_REG_RESET_COUNT);
		if (got == count + 1 || gap_ms * 2000 < IPU_READY_DELAY_US)
			break;
		TH_LOG("try %d: the writes were %lld ms apart, the first reset may have ended; again",
		       attempt, gap_ms);
	}
	EXPECT_EQ((uint32_t)(IPU_CARD_STATE_RESETTING), status);
	EXPECT_EQ((uint32_t)(IPU_CARD_STATE_READY | IPU_CARD_READY), rd32(self, IPU_REG_STATUS));
	EXPECT_EQ((uint32_t)(count + 1), got);
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
 * Queues for the register tests: rings at an address that is no memory and
 * bus mastering off, so the card never moves data. A doorbell the card
 * wrongly took for an SQ_TAIL would make it fetch from there and stop the
 * queue with ERROR code 4, which the tests see in STATUS.
 */
#define NO_RAM		(1ull << 40)
#define QSIZE		64

/* ... with run records at @rec (0: none) */
static uint32_t enable_queue_rec(FIXTURE_DATA(bar0) *self, unsigned q,
				 uint32_t ctrl, uint64_t rec)
{
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), 0);
	wr32(self, IPU_REG_Q(q, IPU_Q_SQ_BASE_LO), 0);
	wr32(self, IPU_REG_Q(q, IPU_Q_SQ_BASE_HI), NO_RAM >> 32);
	wr32(self, IPU_REG_Q(q, IPU_Q_CQ_BASE_LO), IPU_Q_RING_ALIGN);
	wr32(self, IPU_REG_Q(q, IPU_Q_CQ_BASE_HI), NO_RAM >> 32);
	wr32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_LO), (uint32_t)rec);
	wr32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_HI), rec >> 32);
	wr32(self, IPU_REG_Q(q, IPU_Q_SIZE), QSIZE);
	wr32(self, IPU_REG_Q(q, IPU_Q_VECTOR), 1);
	wr32(self, IPU_REG_Q(q, IPU_Q_COALESCE), 0);
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), ctrl);
	return rd32(self, IPU_REG_Q(q, IPU_Q_STATUS));
}

static uint32_t enable_queue(FIXTURE_DATA(bar0) *self, unsigned q,
			     uint32_t ctrl)
{
	return enable_queue_rec(self, q, ctrl, 0);
}

static uint32_t cq_head(FIXTURE_DATA(bar0) *self, unsigned q)
{
	return rd32(self, IPU_REG_Q(q, IPU_Q_CQ_HEAD));
}

/* CTRL.USER and the CQ_HEAD read-back (hw-interface 1.2). */
TEST_F(bar0, user_ctrl_and_cq_head)
{
	IPU_RETURN_IF_SKIPPED();
	const uint32_t en = IPU_Q_CTRL_ENABLE, user = IPU_Q_CTRL_USER;
	const unsigned q = 2, k = 5;

	ASSERT_NE(NULL, self->bar.db) TH_LOG("BAR4: %s", self->bar.db_err);
	ASSERT_EQ(IPU_Q_STATUS_ENABLED, enable_queue(self, q, en | user));
	ASSERT_EQ(IPU_Q_STATUS_ENABLED, enable_queue(self, k, en));
	EXPECT_EQ(en | user, rd32(self, IPU_REG_Q(q, IPU_Q_CTRL)));
	EXPECT_EQ(en, rd32(self, IPU_REG_Q(k, IPU_Q_CTRL)));
	EXPECT_EQ(0, cq_head(self, q));

	/* CQ_HEAD reads the last CQ_HEAD doorbell, from BAR0 or BAR4. */
	wr32(self, IPU_REG_CQ_HEAD(q), 5);
	EXPECT_EQ(5, cq_head(self, q));
	ipu_db_wr(&self->bar, q, IPU_DB_CQ_HEAD, 9);
	EXPECT_EQ(9, cq_head(self, q));
	ipu_db_wr(&self->bar, q, IPU_DB_CQ_HEAD, 0);
	EXPECT_EQ(0, cq_head(self, q));
	ipu_db_wr(&self->bar, q, IPU_DB_CQ_HEAD, QSIZE - 1);
	EXPECT_EQ(QSIZE - 1, cq_head(self, q));
	/* The register is read-only; doorbells beyond the ring are ignored. */
	wr32(self, IPU_REG_Q(q, IPU_Q_CQ_HEAD), 33);
	EXPECT_EQ(QSIZE - 1, cq_head(self, q));
	ipu_db_wr(&self->bar, q, IPU_DB_CQ_HEAD, QSIZE);
	wr32(self, IPU_REG_CQ_HEAD(q), 0xffffffff);
	EXPECT_EQ(QSIZE - 1, cq_head(self, q));
	/* Each page and register block is its queue's own. */
	ipu_db_wr(&self->bar, k, IPU_DB_CQ_HEAD, 3);
	EXPECT_EQ(3, cq_head(self, k));
	EXPECT_EQ(QSIZE - 1, cq_head(self, q));
	wr32(self, IPU_REG_CQ_HEAD(q), 7);
	EXPECT_EQ(3, cq_head(self, k));
	EXPECT_EQ(7, cq_head(self, q));

	/* USER is taken with ENABLE: an enabled queue keeps its kind. */
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), en);
	EXPECT_EQ(en | user, rd32(self, IPU_REG_Q(q, IPU_Q_CTRL)));
	wr32(self, IPU_REG_Q(k, IPU_Q_CTRL), en | user);
	EXPECT_EQ(en, rd32(self, IPU_REG_Q(k, IPU_Q_CTRL)));
	EXPECT_EQ(7, cq_head(self, q));	/* and was not enabled again */
	EXPECT_EQ(3, cq_head(self, k));

	/* Disabled: CTRL reads 0 and the doorbells are ignored. */
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), 0);
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(q, IPU_Q_CTRL)));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(q, IPU_Q_STATUS)));
	ipu_db_wr(&self->bar, q, IPU_DB_CQ_HEAD, 4);
	EXPECT_EQ(7, cq_head(self, q));
	/* USER without ENABLE does nothing. */
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), user);
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(q, IPU_Q_STATUS)));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(q, IPU_Q_CTRL)) & en);
	/* Enabling starts CQ_HEAD at 0; undefined CTRL bits are dropped. */
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), en | user | 0xfffffffc);
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(q, IPU_Q_STATUS)));
	EXPECT_EQ(en | user, rd32(self, IPU_REG_Q(q, IPU_Q_CTRL)));
	EXPECT_EQ(0, cq_head(self, q));
	/* A queue enabled without USER afterwards is not a user queue. */
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, enable_queue(self, q, en));
	EXPECT_EQ(en, rd32(self, IPU_REG_Q(q, IPU_Q_CTRL)));

	/* Nothing was fetched: no doorbell was taken for an SQ_TAIL. */
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(q, IPU_Q_SQ_HEAD)));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(k, IPU_Q_STATUS)));
	/* Reset clears it all. */
	ASSERT_EQ(0, ipu_bar0_reset(&self->bar));
	for (unsigned i = 0; i < IPU_NUM_QUEUES; i++) {
		EXPECT_EQ(0, rd32(self, IPU_REG_Q(i, IPU_Q_CTRL)));
		EXPECT_EQ(0, cq_head(self, i));
	}
}

static uint64_t rec_base(FIXTURE_DATA(bar0) *self, unsigned q)
{
	return rd32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_LO)) |
	       (uint64_t)rd32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_HI)) << 32;
}

/*
 * REC_BASE (hw-interface 1.2, run records): RW while the queue is disabled,
 * checked when ENABLE is set (4 KiB aligned, or 0 for no records: else
 * ERROR code 2), locked while the queue is enabled (writes ignored and
 * logged), kept when it is disabled, 0 after reset.
 */
TEST_F(bar0, rec_base_register)
{
	IPU_RETURN_IF_SKIPPED();
	const uint32_t en = IPU_Q_CTRL_ENABLE;
	const uint64_t rec = NO_RAM + 0x7000;
	const unsigned q = 4;
	int before = ipu_guest_log_count("is locked while the queue is enabled");

	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), 0);
	wr32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_LO), 0xdeadbeef);
	wr32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_HI), 0x12345678);
	EXPECT_EQ(0xdeadbeefu, rd32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_LO)));
	EXPECT_EQ(0x12345678u, rd32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_HI)));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(q, 0x38)));	/* still undefined */

	/* Not 4 KiB aligned: ENABLE fails with code 2. */
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_ALIGN << 8),
		  enable_queue_rec(self, q, en, rec + IPU_RUN_RECORD_SIZE));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(q, IPU_Q_CTRL)));
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_ALIGN << 8),
		  enable_queue_rec(self, q, en | IPU_Q_CTRL_USER, rec | 4));
	/* Aligned (or 0) it enables, and is locked while enabled. */
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, enable_queue_rec(self, q, en, 0));
	EXPECT_EQ(0, rec_base(self, q));
	ASSERT_EQ(IPU_Q_STATUS_ENABLED, enable_queue_rec(self, q, en, rec));
	EXPECT_EQ(rec, rec_base(self, q));
	wr32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_LO), 0x1000);
	wr32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_HI), 0);
	EXPECT_EQ(rec, rec_base(self, q));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(q, IPU_Q_STATUS)));
	/* Disabled, it keeps its value and takes writes again. */
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), 0);
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(q, IPU_Q_STATUS)));
	EXPECT_EQ(rec, rec_base(self, q));
	wr32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_LO), 0x1000);
	EXPECT_EQ(0x1000u, rd32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_LO)));
	/* A user queue takes it too. */
	EXPECT_EQ(IPU_Q_STATUS_ENABLED,
		  enable_queue_rec(self, q, en | IPU_Q_CTRL_USER, rec));
	EXPECT_EQ(rec, rec_base(self, q));
	/* Nothing was fetched, so nothing was recorded. */
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(q, IPU_Q_SQ_HEAD)));

	/* Reset clears every queue's. */
	wr32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_HI), 1);
	ASSERT_EQ(0, ipu_bar0_reset(&self->bar));
	for (unsigned i = 0; i < IPU_NUM_QUEUES; i++)
		EXPECT_EQ(0, rec_base(self, i));
	if (before < 0)
		SKIP(return, "QEMU's guest-error log is not in the share");
	EXPECT_LE(before + 2,
		  ipu_guest_log_count("is locked while the queue is enabled"));
}

/*
 * BAR4 accepts naturally aligned 32-bit writes of the two doorbells of each
 * page only; anything else is not performed (and logged), reads return 0
 * (all ones for the widths the card refuses, as on BAR0).
 */
TEST_F(bar0, doorbell_page_bad_accesses)
{
	IPU_RETURN_IF_SKIPPED();
	static const uint32_t other[] = { 0x8, 0xc, 0x10, 0x800, 0xffc };
	const unsigned a = 1, b = 6;
	volatile uint8_t *db = self->bar.db, *pa;
	int before = ipu_guest_log_count("ipu: ");

	ASSERT_NE(NULL, db) TH_LOG("BAR4: %s", self->bar.db_err);
	pa = db + a * IPU_DB_PAGE_SIZE;
	ASSERT_EQ(IPU_Q_STATUS_ENABLED, enable_queue(self, a, IPU_Q_CTRL_ENABLE));
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  enable_queue(self, b, IPU_Q_CTRL_ENABLE | IPU_Q_CTRL_USER));
	ipu_db_wr(&self->bar, a, IPU_DB_CQ_HEAD, 7);
	ipu_db_wr(&self->bar, b, IPU_DB_CQ_HEAD, 7);
	ASSERT_EQ(7, cq_head(self, a));
	ASSERT_EQ(7, cq_head(self, b));

	/* Reads: 0 everywhere in 32 bits, all ones in other widths. */
	for (unsigned q = 0; q < IPU_NUM_QUEUES; q++) {
		volatile uint8_t *p = db + q * IPU_DB_PAGE_SIZE;

		EXPECT_EQ(0, *(volatile uint32_t *)(p + IPU_DB_SQ_TAIL));
		EXPECT_EQ(0, *(volatile uint32_t *)(p + IPU_DB_CQ_HEAD));
		for (unsigned i = 0; i < sizeof(other) / sizeof(other[0]); i++)
			EXPECT_EQ(0, *(volatile uint32_t *)(p + other[i]));
	}
	EXPECT_EQ(0xff, *(volatile uint8_t *)(pa + IPU_DB_CQ_HEAD));
	EXPECT_EQ(0xffff, *(volatile uint16_t *)(pa + IPU_DB_CQ_HEAD));
	EXPECT_EQ(UINT64_MAX, *(volatile uint64_t *)(pa + IPU_DB_SQ_TAIL));

	/*
	 * Narrow, wide and unaligned writes of the doorbells are refused:
	 * none may set a CQ head or an SQ tail (which would make the card
	 * fetch from the rings that are no memory and stop the queue).
	 */
	*(volatile uint8_t *)(pa + IPU_DB_CQ_HEAD) = 3;
	*(volatile uint16_t *)(pa + IPU_DB_CQ_HEAD) = 3;
	*(volatile uint8_t *)(pa + IPU_DB_SQ_TAIL) = 1;
	*(volatile uint16_t *)(pa + IPU_DB_SQ_TAIL) = 1;
	*(volatile uint64_t *)(pa + IPU_DB_SQ_TAIL) = 0x0000000300000001ull;
	*(volatile uint32_t *)(pa + IPU_DB_SQ_TAIL + 1) = 0x01000001;
	*(volatile uint32_t *)(pa + IPU_DB_SQ_TAIL + 2) = 0x00030001;
	*(volatile uint32_t *)(pa + IPU_DB_CQ_HEAD + 2) = 0x00030003;
	/* Other offsets of every page ignore writes. */
	for (unsigned q = 0; q < IPU_NUM_QUEUES; q++)
		for (unsigned i = 0; i < sizeof(other) / sizeof(other[0]); i++)
			*(volatile uint32_t *)(db + q * IPU_DB_PAGE_SIZE +
					       other[i]) = 1;
	usleep(20000);
	EXPECT_EQ(7, cq_head(self, a));
	EXPECT_EQ(7, cq_head(self, b));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(a, IPU_Q_STATUS)));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(b, IPU_Q_STATUS)));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(a, IPU_Q_SQ_HEAD)));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(b, IPU_Q_SQ_HEAD)));
	for (unsigned q = 0; q < IPU_NUM_QUEUES; q++)
		if (q != a && q != b)
			EXPECT_EQ(0, rd32(self, IPU_REG_Q(q, IPU_Q_STATUS)));

	/* The card and its doorbell pages keep working. */
	ipu_db_wr(&self->bar, a, IPU_DB_CQ_HEAD, 2);
	EXPECT_EQ(2, cq_head(self, a));
	EXPECT_EQ(7, cq_head(self, b));
	EXPECT_EQ(IPU_MAGIC, rd32(self, IPU_REG_MAGIC));
	EXPECT_EQ((uint32_t)(IPU_CARD_STATE_READY | IPU_CARD_READY),
		  rd32(self, IPU_REG_STATUS));
	if (before < 0)
		SKIP(return, "QEMU's guest-error log is not in the share");
	/* 3 bad reads, at least 8 bad writes, 40 writes to other offsets. */
	EXPECT_LE(before + 51, ipu_guest_log_count("ipu: "));
}

/*
 * Random accesses of every width to every offset of BAR0 (queue enables
 * and resets left out: they would DMA to random guest memory or take the
 * card away mid-run) and of the doorbell pages (BAR4; every queue stays
 * disabled, so the doorbells are refused): the card must still answer as
 * specified afterwards.
 */
TEST_F(bar0, register_fuzz)
{
	IPU_RETURN_IF_SKIPPED();
	static const unsigned widths[] = { 1, 2, 4, 8 };
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
	const struct ipu_vm_card *vm = ipu_vm_card(DEV_CARD);
	unsigned db_accesses = 0, rec_writes = 0;

	ASSERT_NE(NULL, self->bar.db) TH_LOG("BAR4: %s", self->bar.db_err);
	for (int i = 0; i < 200000; i++) {
		volatile uint8_t *bar;
		uint32_t off, w, val, size;
		bool db;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		/* A quarter of the accesses go to the doorbell pages. */
		db = !((seed >> 3) & 3);
		bar = db ? self->bar.db : self->bar.regs;
		size = db ? IPU_DB_BAR_SIZE : IPU_BAR_REGS_SIZE;
		w = widths[seed & 3];
		off = (seed >> 8) % size & ~(w - 1);
		val = seed >> 32;
		if (off + w > size)
			continue;
		db_accesses += db;
		if (!((seed >> 2) & 1)) {
			switch (w) {
			case 1: (void)*(volatile uint8_t *)(bar + off); break;
			case 2: (void)*(volatile uint16_t *)(bar + off); break;
			case 4: (void)*(volatile uint32_t *)(bar + off); break;
			default: (void)*(volatile uint64_t *)(bar + off); break;
			}
			continue;
		}
		/*
		 * No reset, no queue enable, no unmasked interrupt causes (the
		 * doorbell pages can do none of that: every queue is disabled).
		 */
		if (!db &&
		    ((off & ~7u) == (IPU_REG_CONTROL & ~7u) ||
		     (off & ~7u) == (IPU_REG_IRQ_MASK & ~7u) ||
		     (off >= IPU_REG_QUEUE_BASE &&
		      off < IPU_REG_Q(IPU_NUM_QUEUES, 0) &&
		      ((off - IPU_REG_QUEUE_BASE) % IPU_QUEUE_STRIDE & ~7u) ==
		      (IPU_Q_CTRL & ~7u))))
			continue;
		rec_writes += !db && off >= IPU_REG_QUEUE_BASE &&
			      off < IPU_REG_Q(IPU_NUM_QUEUES, 0) &&
			      ((off - IPU_REG_QUEUE_BASE) % IPU_QUEUE_STRIDE &
			       ~7u) == IPU_Q_REC_BASE_LO;
		switch (w) {
		case 1: *(volatile uint8_t *)(bar + off) = val; break;
		case 2: *(volatile uint16_t *)(bar + off) = val; break;
		case 4: *(volatile uint32_t *)(bar + off) = val; break;
		default: *(volatile uint64_t *)(bar + off) = seed; break;
		}
	}
	EXPECT_LT(10000, db_accesses);
	EXPECT_EQ(IPU_MAGIC, rd32(self, IPU_REG_MAGIC));
	EXPECT_EQ((uint32_t)(IPU_CARD_STATE_READY | IPU_CARD_READY),
		  rd32(self, IPU_REG_STATUS));
	ASSERT_NE(NULL, vm);
	EXPECT_EQ((uint32_t)DEV_CARD, rd32(self, IPU_REG_CARD_INDEX));
	for (unsigned q = 0; q < IPU_NUM_QUEUES; q++)
		EXPECT_EQ(0u, rd32(self, IPU_REG_Q(q, IPU_Q_STATUS)) &
			  IPU_Q_STATUS_ENABLED);
	/*
	 * The fuzzed REC_BASEs (run records, 1.2): ENABLE takes each exactly
	 * when it is 4 KiB aligned (rings that are no memory, no doorbell:
	 * nothing is fetched or recorded).
	 */
	EXPECT_LT(10, rec_writes);
	for (unsigned q = 0; q < IPU_NUM_QUEUES; q++) {
		uint64_t rec = rec_base(self, q);

		EXPECT_EQ(rec & (IPU_Q_RING_ALIGN - 1) ?
			  IPU_Q_STATUS_ERROR | (IPU_QERR_ALIGN << 8) :
			  IPU_Q_STATUS_ENABLED,
			  enable_queue_rec(self, q, IPU_Q_CTRL_ENABLE, rec))
			TH_LOG("queue %u, REC_BASE 0x%llx", q,
			       (unsigned long long)rec);
		EXPECT_EQ(rec, rec_base(self, q));
		wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), 0);
	}
}

TEST_HARNESS_MAIN
