// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: PCI probe and remove, BAR0, the identity check and
 * the ready handshake.
 */
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <asm/unaligned.h>

#include "ipu_drv.h"
#include "ipu_trace.h"

/* Upper bound of any wait of the driver (RESET's timeout_ms limit). */
#define IPU_WAIT_MAX_MS		60000

/*
 * The card's state as user space sees it (IPU_DEV_STATE_*). A reset that
 * timed out reports "failed" until the card itself becomes ready.
 * Caller holds hw_rwsem for reading (or is probe) and the card is not gone.
 */
u32 ipu_hw_state(struct ipu_device *idev)
{
	u32 state = ipu_read(idev, IPU_REG_STATUS) & IPU_CARD_STATE_MASK;

	if (READ_ONCE(idev->halted))
		return IPU_DEV_STATE_FAILED;
	if (state == IPU_CARD_STATE_READY)
		return IPU_DEV_STATE_READY;
	if (READ_ONCE(idev->timed_out))
		return IPU_DEV_STATE_FAILED;
	switch (state) {
	case IPU_CARD_STATE_OFF:
		return IPU_DEV_STATE_INITIALIZING;
	case IPU_CARD_STATE_RESETTING:
		return IPU_DEV_STATE_RESETTING;
	default:
		return IPU_DEV_STATE_FAILED;
	}
}

/* A READY or ERROR cause arrived since @seen, or remove wants us out. */
static bool ipu_woken(struct ipu_device *idev, int seen)
{
	return atomic_read(&idev->events) != seen || READ_ONCE(idev->gone);
}

/**
 * ipu_wait_event() - wait until @done is true, interrupt driven with polling
 * @idev:          the card; hw_rwsem held for reading (or probe)
 * @done:          predicate, may read registers
 * @arg:           passed to @done
 * @timeout_ms:    give up after this long
 * @interruptible: a signal ends the wait with -EINTR
 *
 * Sleeps on event_wq, which the IRQ handler wakes on each READY or ERROR
 * cause, and re-checks @done at least every IPU_POLL_MS in case interrupts
 * are lost.
 *
 * Return: 0, -ETIMEDOUT, -EINTR or -ENODEV (the card is being removed).
 */
int ipu_wait_event(struct ipu_device *idev,
		   bool (*done)(struct ipu_device *idev, void *arg), void *arg,
		   unsigned int timeout_ms, bool interruptible)
{
	unsigned long deadline;
	bool polled = false;
	long left, slice;
	int seen;

	timeout_ms = clamp(timeout_ms, 1u, (unsigned int)IPU_WAIT_MAX_MS);
	deadline = jiffies + msecs_to_jiffies(timeout_ms);

	for (;;) {
		seen = atomic_read(&idev->events);
		if (READ_ONCE(idev->gone))
			return -ENODEV;
		if (done(idev, arg))
			break;
		left = (long)(deadline - jiffies);
		if (left <= 0)
			return -ETIMEDOUT;
		slice = min_t(long, left, msecs_to_jiffies(IPU_POLL_MS));

		if (interruptible) {
			left = wait_event_interruptible_timeout(idev->event_wq,
								ipu_woken(idev, seen),
								slice);
			if (left < 0)
				return -EINTR;
		} else {
			left = wait_event_timeout(idev->event_wq,
						  ipu_woken(idev, seen), slice);
		}
		polled = !left;
	}

	if (polled && !idev->warned_poll) {
		idev->warned_poll = true;
		dev_warn(&idev->pdev->dev,
			 "state change seen by polling, its interrupt (%s) was not received\n",
			 idev->irq_mode);
	}
	return 0;
}

/* The reset started with RESET_COUNT == *arg is over (READY or FAILED). */
bool ipu_card_reset_done(struct ipu_device *idev, void *arg)
{
	u32 state = ipu_read(idev, IPU_REG_STATUS) & IPU_CARD_STATE_MASK;

	if (state == IPU_CARD_STATE_FAILED)
		return true;
	return state == IPU_CARD_STATE_READY &&
	       ipu_read(idev, IPU_REG_RESET_COUNT) != *(u32 *)arg;
}

/**
 * ipu_card_halt() - stop a card that did not confirm a queue stop
 * @idev: the card; hw_rwsem held (read or write), the BAR mapped
 *
 * A soft reset: READY confirms that the card let go of everything. A card
 * that does not come back (or is being removed) loses its bus mastering,
 * so that it reaches no memory any more; it stays "failed" until a RESET
 * (which gives it back). Queues are recovered by the READY interrupt.
 */
void ipu_card_halt(struct ipu_device *idev)
{
	u32 count;

	if (READ_ONCE(idev->halted))
		return;
	if (!READ_ONCE(idev->gone)) {
		count = ipu_read(idev, IPU_REG_RESET_COUNT);
		dev_warn(&idev->dev, "resetting the card to make it let go\n");
		ipu_write(idev, IPU_REG_CONTROL, IPU_CONTROL_RESET);
		if (!ipu_wait_event(idev, ipu_card_reset_done, &count,
				    READ_ONCE(ready_timeout_ms), false) &&
		    ipu_card_ready(idev))
			return;
	}
	dev_err(&idev->dev, "the card does not stop: bus mastering off until a reset\n");
	pci_clear_master(idev->pdev);
	WRITE_ONCE(idev->halted, true);
}

static void ipu_dev_release(struct device *dev)
{
	struct ipu_device *idev = to_ipu_device(dev);

	pci_dev_put(idev->pdev);
	kfree(idev);
}

static bool ipu_probe_settled(struct ipu_device *idev, void *arg)
{
	u32 state = ipu_read(idev, IPU_REG_STATUS) & IPU_CARD_STATE_MASK;

	return state == IPU_CARD_STATE_READY || state == IPU_CARD_STATE_FAILED;
}

/*
 * A board serial of IPU_SERIAL_LEN bytes at @reg (the card's own, or a link
 * peer's) into @dst: NUL terminated, anything unprintable as '?'.
 */
void ipu_read_serial(struct ipu_device *idev, u32 reg, char *dst)
{
	unsigned int i;

	/* BAR0 takes 32-bit accesses only: no memcpy_fromio(). */
	for (i = 0; i < IPU_SERIAL_LEN; i += 4)
		put_unaligned_le32(ipu_read(idev, reg + i), &dst[i]);
	dst[IPU_SERIAL_LEN - 1] = '\0';
	for (i = 0; dst[i]; i++)
		if (dst[i] < 0x20 || dst[i] > 0x7e)
			dst[i] = '?';
}

static void ipu_read_identity(struct ipu_device *idev)
{
	idev->model = ipu_read(idev, IPU_REG_MODEL);
	idev->card_index = ipu_read(idev, IPU_REG_CARD_INDEX);
	idev->tiles = ipu_read(idev, IPU_REG_TILES);
	idev->tile_memory = ipu_read(idev, IPU_REG_TILE_MEM);
	idev->threads = ipu_read(idev, IPU_REG_THREADS);
	idev->link_ports = ipu_read(idev, IPU_REG_LINK_PORTS);
	idev->fw_version = ipu_read(idev, IPU_REG_FW_VERSION);
	idev->clock_khz = ipu_read(idev, IPU_REG_CLOCK_KHZ);
	idev->caps = ipu_read(idev, IPU_REG_CAPS);

	ipu_read_serial(idev, IPU_REG_SERIAL, idev->serial);
}

/*
 * Everything the driver uses beyond interface 1.0, from VERSION (minor) and
 * CAPS (after ipu_probe_doorbells() dropped what it could not map).
 */
static void ipu_read_features(struct ipu_device *idev)
{
	u32 minor = idev->hw_version & 0xffff;

	idev->feat.soft_reset = idev->caps & IPU_CAP_SOFT_RESET;
	idev->feat.user_queues = idev->caps & IPU_CAP_USER_QUEUES;
	idev->feat.run_records = minor >= 2;
	idev->feat.unload = minor >= 2;
	idev->feat.load_flags = minor >= 3;
	idev->feat.load_mask = minor >= 5;
	idev->feat.links = idev->caps & IPU_CAP_LINKS;
	idev->feat.health = idev->caps & IPU_CAP_HEALTH;
}

/*
 * User queues need the doorbell pages of BAR4: claimed here (never mapped
 * by the kernel; ipu_uqueue.c maps single pages into processes). Without
 * them, or with CPU pages larger than a doorbell page (one mapping would
 * reach several queues), the card is used without user queues.
 */
static void ipu_probe_doorbells(struct ipu_device *idev)
{
	struct pci_dev *pdev = idev->pdev;

	if (!(idev->caps & IPU_CAP_USER_QUEUES))
		return;
	if (PAGE_SIZE != IPU_DB_PAGE_SIZE) {
		idev->caps &= ~IPU_CAP_USER_QUEUES;
		return;
	}
	if (!(pci_resource_flags(pdev, IPU_DB_BAR) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, IPU_DB_BAR) < IPU_DB_BAR_SIZE ||
	    pcim_iomap_regions(pdev, BIT(IPU_DB_BAR), IPU_DRIVER_NAME)) {
		dev_warn(&pdev->dev, "BAR%d (doorbell pages) unusable: no user queues\n",
			 IPU_DB_BAR);
		idev->caps &= ~IPU_CAP_USER_QUEUES;
		return;
	}
	idev->db_phys = pci_resource_start(pdev, IPU_DB_BAR);
}

/* BAR0 is mapped and the card's identity checked before anything else. */
static int ipu_check_card(struct pci_dev *pdev, void __iomem *regs)
{
	u32 magic, version;

	magic = readl(regs + IPU_REG_MAGIC);
	if (magic != IPU_MAGIC) {
		dev_err(&pdev->dev, "bad magic %#010x (expected %#010x), not an IPU card\n",
			magic, IPU_MAGIC);
		return -ENODEV;
	}

	version = readl(regs + IPU_REG_VERSION);
	if ((version >> 16) != IPU_HW_VERSION_MAJOR) {
		dev_err(&pdev->dev,
			"unsupported card interface version %u.%u: this driver supports major version %u only\n",
			version >> 16, version & 0xffff, IPU_HW_VERSION_MAJOR);
		return -ENODEV;
	}
	return 0;
}

/*
 * Probe, steps 1-3 and 6 (docs/driver.md "Probe"): the function enabled,
 * BAR0 mapped into *@regs (devres releases both), the card checked, bus
 * mastering and DMA set up. 0 or -errno.
 */
static int ipu_probe_function(struct pci_dev *pdev, void __iomem **regs)
{
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;

	if (!(pci_resource_flags(pdev, IPU_BAR_REGS) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, IPU_BAR_REGS) < IPU_BAR_REGS_SIZE) {
		dev_err(&pdev->dev, "BAR%d is not a %#x byte memory BAR\n",
			IPU_BAR_REGS, IPU_BAR_REGS_SIZE);
		return -ENODEV;
	}
	ret = pcim_iomap_regions(pdev, BIT(IPU_BAR_REGS), IPU_DRIVER_NAME);
	if (ret) {
		dev_err(&pdev->dev, "cannot map BAR%d: %d\n", IPU_BAR_REGS, ret);
		return ret;
	}
	*regs = pcim_iomap_table(pdev)[IPU_BAR_REGS];

	ret = ipu_check_card(pdev, *regs);
	if (ret)
		return ret;

	/* MSI and MSI-X messages are memory writes by the function. */
	pci_set_master(pdev);
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret) {
		dev_err(&pdev->dev, "no usable DMA configuration: %d\n", ret);
		return ret;
	}
	/* The card takes SG entries up to 4 GiB - 1: let mappings merge. */
	dma_set_max_seg_size(&pdev->dev, UINT_MAX & PAGE_MASK);
	return 0;
}

/*
 * Probe, step 4: a new ipu_device for @pdev, its locks and queues set up,
 * device_initialize()d (the last put_device() frees it); NULL: -ENOMEM.
 */
static struct ipu_device *ipu_device_new(struct pci_dev *pdev,
					 void __iomem *regs)
{
	struct ipu_device *idev = kzalloc(sizeof(*idev), GFP_KERNEL);

	if (!idev)
		return NULL;
	/* Commands may release DMA memory after remove: keep pdev. */
	idev->pdev = pci_dev_get(pdev);
	idev->regs = regs;
	init_rwsem(&idev->hw_rwsem);
	mutex_init(&idev->reset_lock);
	mutex_init(&idev->ctxs_lock);
	INIT_LIST_HEAD(&idev->ctxs);
	mutex_init(&idev->attach_lock);
	init_waitqueue_head(&idev->attach_wq);
	ipu_queues_init(idev);
	INIT_WORK(&idev->recover_work, ipu_recover_work);
	ipu_recovery_init(idev);
	ipu_links_init(idev);
	init_waitqueue_head(&idev->event_wq);
	atomic_set(&idev->events, 0);
	atomic_set(&idev->test_irqs, 0);

	device_initialize(&idev->dev);
	idev->dev.class = &ipu_class;
	idev->dev.parent = &pdev->dev;
	idev->dev.release = ipu_dev_release;
	return idev;
}

static int ipu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	unsigned int timeout_ms = READ_ONCE(ready_timeout_ms);
	struct ipu_device *idev;
	void __iomem *regs;
	u32 hw_state;
	int ret;

	ret = ipu_probe_function(pdev, &regs);
	if (ret)
		return ret;
	idev = ipu_device_new(pdev, regs);
	if (!idev)
		return -ENOMEM;
	/* From here on the last put_device() frees idev. */

	idev->minor = ipu_minor_alloc();
	if (idev->minor < 0) {
		ret = idev->minor;
		dev_err(&pdev->dev, "no free ipu number: %d\n", ret);
		goto err_put;
	}
	idev->dev.devt = MKDEV(MAJOR(ipu_devt), idev->minor);
	ret = dev_set_name(&idev->dev, "ipu%d", idev->minor);
	if (ret)
		goto err_minor;

	idev->hw_version = readl(regs + IPU_REG_VERSION);
	ipu_read_identity(idev);
	ipu_probe_doorbells(idev);
	ipu_read_features(idev);
	ipu_links_probe(idev);

	ret = ipu_irq_init(idev);
	if (ret)
		goto err_minor;
	ipu_irq_selftest(idev);

	/* Power-on: OFF for 10 ms, then READY and the READY cause. */
	ret = ipu_wait_event(idev, ipu_probe_settled, NULL, timeout_ms, false);
	if (ret) {
		dev_err(&pdev->dev, "card not ready after %u ms (status %#x)\n",
			timeout_ms, ipu_read(idev, IPU_REG_STATUS));
		goto err_irq;
	}
	hw_state = ipu_hw_state(idev);
	if (hw_state == IPU_DEV_STATE_FAILED)
		dev_warn(&pdev->dev, "card is in the failed state; it needs a reset\n");

	cdev_init(&idev->cdev, &ipu_fops);
	idev->cdev.owner = THIS_MODULE;
	/* Announced once links/ is there too (its dirs are no attributes). */
	dev_set_uevent_suppress(&idev->dev, true);
	ret = cdev_device_add(&idev->cdev, &idev->dev);
	if (ret) {
		dev_err(&pdev->dev, "cannot add %s: %d\n",
			dev_name(&idev->dev), ret);
		goto err_irq;
	}
	ret = ipu_links_add(idev);
	if (ret) {
		dev_err(&pdev->dev, "cannot add %s's links: %d\n",
			dev_name(&idev->dev), ret);
		cdev_device_del(&idev->cdev, &idev->dev);
		goto err_irq;
	}
	dev_set_uevent_suppress(&idev->dev, false);
	kobject_uevent(&idev->dev.kobj, KOBJ_ADD);
	pci_set_drvdata(pdev, idev);
	ipu_links_start(idev);
	ipu_debugfs_add(idev);
	ipu_recovery_start(idev);
	ipu_hwmon_add(idev);

	dev_info(&idev->dev, "%s card %u, serial %s, %u tiles x %u KiB, firmware %u.%u.%u, irq %s, %s\n",
		 ipu_model_name(idev->model), idev->card_index, idev->serial,
		 idev->tiles, idev->tile_memory / 1024,
		 idev->fw_version >> 16, (idev->fw_version >> 8) & 0xff,
		 idev->fw_version & 0xff, idev->irq_mode,
		 ipu_state_name(hw_state));
	return 0;

err_irq:
	ipu_irq_fini(idev);
	cancel_work_sync(&idev->recover_work);
	cancel_work_sync(&idev->link_work);
err_minor:
	ipu_minor_free(idev->minor);
err_put:
	put_device(&idev->dev);
	return ret;
}

static void ipu_remove(struct pci_dev *pdev)
{
	struct ipu_device *idev = pci_get_drvdata(pdev);
	unsigned int q;

	trace_ipu_remove(idev->minor, !!READ_ONCE(idev->attached));
	ipu_hwmon_remove(idev);
	dev_dbg(&idev->dev, "remove: %s\n",
		READ_ONCE(idev->attached) ? "a context is attached" : "idle");
	ipu_debugfs_remove(idev);
	/* No link uevents from here on; links/ goes (readers drained). */
	ipu_links_remove(idev);
	/* No new opens; sysfs readers are drained. Open files remain. */
	cdev_device_del(&idev->cdev, &idev->dev);

	/* Wake waiters (they hold hw_rwsem for reading), then fence them. */
	WRITE_ONCE(idev->gone, true);
	wake_up_all(&idev->event_wq);
	wake_up_all(&idev->attach_wq);
	for (q = 0; q < IPU_NUM_QUEUES; q++)
		wake_up_all(&idev->queues[q].wq);
	/* A recovery holds hw_rwsem (read): it ends first (it sees gone). */
	ipu_recovery_stop(idev);
	down_write(&idev->hw_rwsem);
	/* Exclusive, BAR still mapped: the card lets go of every queue. */
	ipu_queues_stop_all(idev);
	up_write(&idev->hw_rwsem);

	/* The attached context loses its queue, buffers and commands. */
	ipu_ctx_remove(idev);

	/* No user reaches the hardware any more; only the IRQ handler may. */
	ipu_irq_fini(idev);
	cancel_work_sync(&idev->recover_work);
	cancel_work_sync(&idev->link_work);
	ipu_minor_free(idev->minor);
	pci_set_drvdata(pdev, NULL);

	/* Drop the binding's reference; open files may hold theirs. */
	put_device(&idev->dev);
	/* pcim: BAR0 is unmapped and the device disabled after we return. */
}

/*
 * PCI function reset (sysfs "reset", or a reset of the link): the card
 * restarts in OFF with every cause masked. Users are fenced off hw_rwsem for
 * the duration; afterwards the events vector is unmasked again and the card
 * reports READY on its own.
 */
static void ipu_reset_prepare(struct pci_dev *pdev)
{
	struct ipu_device *idev = pci_get_drvdata(pdev);

	if (!idev)
		return;
	down_write(&idev->hw_rwsem);
	ipu_write(idev, IPU_REG_IRQ_MASK, ~0u);
}

static void ipu_reset_done(struct pci_dev *pdev)
{
	struct ipu_device *idev = pci_get_drvdata(pdev);

	if (!idev)
		return;
	WRITE_ONCE(idev->timed_out, false);
	ipu_write(idev, IPU_REG_IRQ_STATUS, IPU_IRQ_VALID | IPU_IRQ_QUEUES);
	ipu_write(idev, IPU_REG_IRQ_MASK, ~idev->irq_causes);
	/* The card dropped every queue: fail their commands (STATUS_RESET). */
	ipu_queues_recover(idev, true);
	/* Its links went down meanwhile; that cause was cleared above. */
	if (idev->irq_causes & IPU_IRQ_LINK)
		ipu_links_changed(idev);
	up_write(&idev->hw_rwsem);
	dev_info(&idev->dev, "function reset, card restarting\n");
}

static const struct pci_error_handlers ipu_err_handlers = {
	.reset_prepare = ipu_reset_prepare,
	.reset_done = ipu_reset_done,
};

static const struct pci_device_id ipu_pci_ids[] = {
	{ PCI_DEVICE(IPU_PCI_VENDOR_ID, IPU_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, ipu_pci_ids);

static struct pci_driver ipu_pci_driver = {
	.name = IPU_DRIVER_NAME,
	.id_table = ipu_pci_ids,
	.probe = ipu_probe,
	.remove = ipu_remove,
	.err_handler = &ipu_err_handlers,
};

int ipu_pci_register(void)
{
	return pci_register_driver(&ipu_pci_driver);
}

void ipu_pci_unregister(void)
{
	pci_unregister_driver(&ipu_pci_driver);
}
