// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: health and telemetry in sysfs (API 1.8, docs/uapi.md
 * "Health and telemetry"): utilisation, the health word and the error
 * counters of a card with CAPS.HEALTH, the holder of any card; and the one
 * guarded read of the card's health registers that these and the hwmon
 * sensors (ipu_hwmon.c) share.
 */
#include <linux/cred.h>
#include <linux/device.h>
#include <linux/sysfs.h>
#include <linux/user_namespace.h>

#include "ipu_drv.h"

/*
 * Enters the card's hardware for a health read without waiting for it:
 * 0 with hw_rwsem held for reading (ipu_health_exit() drops it); -EAGAIN
 * while a PCI function reset holds hw_rwsem for writing; -ENODEV once
 * remove began or when the card is gone from the bus (STATUS reads all
 * ones; the counters themselves may legitimately saturate at all ones).
 */
static int ipu_health_enter(struct ipu_device *idev)
{
	if (READ_ONCE(idev->gone))
		return -ENODEV;
	if (!down_read_trylock(&idev->hw_rwsem))
		return READ_ONCE(idev->gone) ? -ENODEV : -EAGAIN;
	if (READ_ONCE(idev->gone) || ipu_read(idev, IPU_REG_STATUS) == ~0u) {
		up_read(&idev->hw_rwsem);
		return -ENODEV;
	}
	return 0;
}

static void ipu_health_exit(struct ipu_device *idev)
{
	up_read(&idev->hw_rwsem);
}

/*
 * ipu_health_read() - reads @n health registers @regs into @vals: 0, or
 * -EAGAIN / -ENODEV as ipu_health_enter(), with @vals untouched.
 */
int ipu_health_read(struct ipu_device *idev, const u32 *regs, u32 *vals,
		    unsigned int n)
{
	unsigned int i;
	int ret = ipu_health_enter(idev);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		vals[i] = ipu_read(idev, regs[i]);
	ipu_health_exit(idev);
	return 0;
}

static ssize_t ipu_health_show_reg(struct device *dev, u32 reg, char *buf)
{
	u32 val;
	int ret = ipu_health_read(to_ipu_device(dev), &reg, &val, 1);

	return ret ? ret : sysfs_emit(buf, "%u\n", val);
}

/* UTIL is per-mille; sysfs says percent, rounded. */
static ssize_t utilisation_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	u32 reg = IPU_REG_UTIL, util;
	int ret = ipu_health_read(to_ipu_device(dev), &reg, &util, 1);

	if (ret)
		return ret;
	return sysfs_emit(buf, "%u\n", (min(util, 1000u) + 5) / 10);
}
static DEVICE_ATTR_RO(utilisation);

static ssize_t errors_dma_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return ipu_health_show_reg(dev, IPU_REG_ERR_DMA, buf);
}
static DEVICE_ATTR_RO(errors_dma);

static ssize_t errors_ring_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return ipu_health_show_reg(dev, IPU_REG_ERR_RING, buf);
}
static DEVICE_ATTR_RO(errors_ring);

static ssize_t errors_fatal_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return ipu_health_show_reg(dev, IPU_REG_ERR_FATAL, buf);
}
static DEVICE_ATTR_RO(errors_fatal);

/*
 * The words of docs/uapi.md "Health and telemetry": the driver's view of
 * the state (ipu_hw_state(), which knows of halts and timed-out resets)
 * first, then what the card counted.
 */
static ssize_t health_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	static const u32 regs[] = { IPU_REG_ERR_DMA, IPU_REG_ERR_RING,
				    IPU_REG_ERR_FATAL };
	struct ipu_device *idev = to_ipu_device(dev);
	u32 errs[ARRAY_SIZE(regs)], state;
	const char *word = "ok";
	unsigned int i;
	int ret;

	ret = ipu_health_enter(idev);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(regs); i++)
		errs[i] = ipu_read(idev, regs[i]);
	state = ipu_hw_state(idev);
	ipu_health_exit(idev);

	if (state == IPU_DEV_STATE_FAILED)
		word = "failed";
	else if (state != IPU_DEV_STATE_READY)
		word = "resetting";
	else if (errs[0] || errs[1] || errs[2] ||
		 atomic_read(&idev->recoveries))
		word = "degraded";
	return sysfs_emit(buf, "%s\n", word);
}
static DEVICE_ATTR_RO(health);

/*
 * "PID UID COMM" of the attached context, or an empty line. attach_lock
 * keeps the context attached while we look (lock order: kernfs active
 * reference -> attach_lock; remove takes attach_lock only after
 * cdev_device_del() drained this reader).
 */
static ssize_t holder_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct ipu_device *idev = to_ipu_device(dev);
	struct ipu_ctx *ctx;
	ssize_t ret;

	ret = mutex_lock_interruptible(&idev->attach_lock);
	if (ret)
		return ret;
	ctx = idev->attached;
	if (ctx)
		ret = sysfs_emit(buf, "%d %u %s\n", ctx->holder_pid,
				 from_kuid_munged(&init_user_ns,
						  ctx->holder_uid),
				 ctx->holder_comm);
	else
		ret = sysfs_emit(buf, "\n");
	mutex_unlock(&idev->attach_lock);
	return ret;
}
static DEVICE_ATTR_RO(holder);

static struct attribute *ipu_health_attrs[] = {
	&dev_attr_utilisation.attr,
	&dev_attr_health.attr,
	&dev_attr_errors_dma.attr,
	&dev_attr_errors_ring.attr,
	&dev_attr_errors_fatal.attr,
	&dev_attr_holder.attr,
	NULL
};

/* The card's health attributes exist with CAPS.HEALTH; holder always. */
static umode_t ipu_health_visible(struct kobject *kobj, struct attribute *a,
				  int n)
{
	struct ipu_device *idev = to_ipu_device(kobj_to_dev(kobj));

	if (a == &dev_attr_holder.attr || idev->feat.health)
		return a->mode;
	return 0;
}

const struct attribute_group ipu_health_group = {
	.attrs = ipu_health_attrs,
	.is_visible = ipu_health_visible,
};
