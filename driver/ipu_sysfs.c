// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: attributes of /sys/class/ipu/ipuN (docs/uapi.md),
 * the default groups of the "ipu" class.
 */
#include <linux/device.h>
#include <linux/sysfs.h>

#include "ipu_drv.h"

static ssize_t serial_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", to_ipu_device(dev)->serial);
}
static DEVICE_ATTR_RO(serial);

static ssize_t model_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  ipu_model_name(to_ipu_device(dev)->model));
}
static DEVICE_ATTR_RO(model);

static ssize_t tiles_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", to_ipu_device(dev)->tiles);
}
static DEVICE_ATTR_RO(tiles);

static ssize_t tile_memory_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_ipu_device(dev)->tile_memory);
}
static DEVICE_ATTR_RO(tile_memory);

static ssize_t firmware_version_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	u32 fw = to_ipu_device(dev)->fw_version;

	return sysfs_emit(buf, "%u.%u.%u\n", fw >> 16, (fw >> 8) & 0xff,
			  fw & 0xff);
}
static DEVICE_ATTR_RO(firmware_version);

static ssize_t card_index_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_ipu_device(dev)->card_index);
}
static DEVICE_ATTR_RO(card_index);

/* The card's index in its IPU-Link fabric, -1 when none (read at probe). */
static ssize_t fabric_index_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", to_ipu_device(dev)->fabric_index);
}
static DEVICE_ATTR_RO(fabric_index);

/*
 * The live attributes read the card. The class device's attributes are
 * removed (and their readers drained) before remove fences hw_rwsem, so gone
 * is only a safety net here.
 */
static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct ipu_device *idev = to_ipu_device(dev);
	ssize_t ret = -ENODEV;

	down_read(&idev->hw_rwsem);
	if (!READ_ONCE(idev->gone))
		ret = sysfs_emit(buf, "%s\n",
				 ipu_state_name(ipu_hw_state(idev)));
	up_read(&idev->hw_rwsem);
	return ret;
}
static DEVICE_ATTR_RO(state);

static ssize_t reset_count_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct ipu_device *idev = to_ipu_device(dev);
	ssize_t ret = -ENODEV;

	down_read(&idev->hw_rwsem);
	if (!READ_ONCE(idev->gone))
		ret = sysfs_emit(buf, "%u\n",
				 ipu_read(idev, IPU_REG_RESET_COUNT));
	up_read(&idev->hw_rwsem);
	return ret;
}
static DEVICE_ATTR_RO(reset_count);

/* 1.8: counted by the driver, so no hardware access. */
static ssize_t recoveries_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&to_ipu_device(dev)->recoveries));
}
static DEVICE_ATTR_RO(recoveries);

/* 1.8: the reset generation ("Resets invalidate old state"). */
static ssize_t generation_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&to_ipu_device(dev)->generation));
}
static DEVICE_ATTR_RO(generation);

static struct attribute *ipu_attrs[] = {
	&dev_attr_serial.attr,
	&dev_attr_model.attr,
	&dev_attr_tiles.attr,
	&dev_attr_tile_memory.attr,
	&dev_attr_firmware_version.attr,
	&dev_attr_state.attr,
	&dev_attr_card_index.attr,
	&dev_attr_reset_count.attr,
	&dev_attr_fabric_index.attr,
	&dev_attr_recoveries.attr,
	&dev_attr_generation.attr,
	NULL
};

static const struct attribute_group ipu_group = {
	.attrs = ipu_attrs,
};

const struct attribute_group *ipu_groups[] = {
	&ipu_group,
	&ipu_health_group,
	NULL
};
