/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IPU PCIe card driver: shared definitions of the driver's files.
 *
 * Lifetimes (docs/driver.md has the long form):
 *  - struct ipu_device is reference counted by its embedded class device
 *    (idev->dev, a kobject kref). References: the PCI binding (probe until
 *    remove), every open file (taken in open, dropped in release) and the
 *    cdev, whose kobject is a child of idev->dev (cdev_device_add()). The
 *    last put_device() frees it in ipu_dev_release().
 *  - The hardware (BAR0 mapping, IRQ vectors) belongs to the PCI binding: it
 *    lives from probe to remove. Every user outside the IRQ handler reaches
 *    it under hw_rwsem held for reading and only while !gone; remove sets
 *    gone, wakes all waiters and takes hw_rwsem for writing before the
 *    hardware is released, so a file that outlives the binding gets -ENODEV.
 *  - The IRQ handler runs from request_irq() in probe to free_irq() in
 *    remove, strictly inside the BAR0 mapping's lifetime.
 *
 * Lock order (outermost first):
 *   reset_lock (mutex) -> hw_rwsem (read) -> wait on event_wq
 *   kernfs active reference (sysfs show) -> hw_rwsem (read)
 * remove takes hw_rwsem for writing only after cdev_device_del(), which
 * drains sysfs readers; it never takes reset_lock. The IRQ handler takes no
 * lock; it only reads and clears IRQ_STATUS and bumps atomic counters.
 */
#ifndef IPU_DRV_H
#define IPU_DRV_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "ipu/ipu_hw.h"
#include "uapi/linux/ipu.h"

#define IPU_DRIVER_NAME		"ipu"
#define IPU_DRIVER_VERSION	"0.1.0"
#define IPU_MAX_DEVICES		256

/*
 * The uAPI version this driver implements, reported by GET_INFO: the
 * header's major, and the minor of the newest ioctls implemented here (1.0:
 * GET_INFO and RESET). Raise it with the ioctls, not with the header.
 */
#define IPU_DRIVER_API_MINOR	0
#define IPU_DRIVER_API_VERSION	((IPU_API_VERSION_MAJOR << 16) | \
				 IPU_DRIVER_API_MINOR)

/* Causes the driver unmasks and handles on the events vector. */
#define IPU_IRQ_HANDLED_CAUSES	(IPU_IRQ_READY | IPU_IRQ_ERROR | IPU_IRQ_TEST)

/* The driver's poll period while it waits for an interrupt. */
#define IPU_POLL_MS		50

struct ipu_device {
	struct device dev;		/* the class device, /sys/class/ipu/ipuN */
	struct cdev cdev;		/* /dev/ipuN, child kobject of dev */
	struct pci_dev *pdev;		/* parent; valid while dev lives */
	int minor;			/* N of ipuN, from ipu_ida */

	/* Hardware: valid while !gone, reached under hw_rwsem (read). */
	struct rw_semaphore hw_rwsem;
	bool gone;			/* set once by remove */
	void __iomem *regs;		/* BAR0 */
	int irq;			/* Linux IRQ of the events vector */
	const char *irq_mode;		/* "msix", "msi" or "intx" */

	/* Events: bumped by the IRQ handler, waited on by probe and reset. */
	wait_queue_head_t event_wq;
	atomic_t events;		/* READY and ERROR causes seen */
	atomic_t test_irqs;		/* TEST causes seen */
	bool warned_poll;		/* logged that polling saw a change */

	/* Reset: serializes RESET ioctls; protects timed_out. */
	struct mutex reset_lock;
	bool timed_out;			/* last reset timed out: "failed" */

	/* Identity, read once at probe (read-only registers). */
	u32 hw_version;
	u32 model;
	u32 card_index;
	u32 tiles;
	u32 tile_memory;
	u32 threads;
	u32 link_ports;
	u32 fw_version;
	u32 clock_khz;
	u32 caps;
	char serial[IPU_SERIAL_LEN];
};

static inline struct ipu_device *to_ipu_device(struct device *dev)
{
	return container_of(dev, struct ipu_device, dev);
}

static inline u32 ipu_read(struct ipu_device *idev, u32 reg)
{
	return readl(idev->regs + reg);
}

static inline void ipu_write(struct ipu_device *idev, u32 reg, u32 val)
{
	writel(val, idev->regs + reg);
}

/* ipu_main.c */
extern struct class ipu_class;
extern dev_t ipu_devt;
extern unsigned int ready_timeout_ms;
int ipu_minor_alloc(void);
void ipu_minor_free(int minor);
const char *ipu_model_name(u32 model);
const char *ipu_state_name(u32 state);

/* ipu_pci.c */
int ipu_pci_register(void);
void ipu_pci_unregister(void);
u32 ipu_hw_state(struct ipu_device *idev);
int ipu_wait_event(struct ipu_device *idev,
		   bool (*done)(struct ipu_device *idev, void *arg), void *arg,
		   unsigned int timeout_ms, bool interruptible);

/* ipu_irq.c */
int ipu_irq_init(struct ipu_device *idev);
void ipu_irq_fini(struct ipu_device *idev);
void ipu_irq_selftest(struct ipu_device *idev);

/* ipu_ioctl.c */
extern const struct file_operations ipu_fops;

/* ipu_sysfs.c */
extern const struct attribute_group *ipu_groups[];

#endif /* IPU_DRV_H */
