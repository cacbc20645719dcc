// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: the hwmon sensors of a card with CAPS.HEALTH (API
 * 1.8, docs/uapi.md "Health and telemetry"). temp1_input and power1_input
 * read the card's TEMP and POWER registers (through ipu_health_read(), so
 * a read never waits for a reset and fails cleanly after remove);
 * temp1_max and temp1_crit are the chip's figures, which the card has no
 * register for: the row of its MODEL in include/ipu/ipu_models.h, the one
 * place they live.
 *
 * Lifetime: registered at the end of probe, unregistered first thing in
 * remove (hwmon_device_unregister() removes the attributes and drains
 * their readers), so no read reaches the card after remove fenced it.
 */
#include <linux/hwmon.h>

#include "ipu/ipu_models.h"
#include "ipu_drv.h"

static umode_t ipu_hwmon_visible(const void *data,
				 enum hwmon_sensor_types type, u32 attr,
				 int channel)
{
	const struct ipu_device *idev = data;

	/* Limits only for a model the table knows. */
	if (type == hwmon_temp && attr != hwmon_temp_input &&
	    !ipu_model_by_id(idev->model))
		return 0;
	return 0444;
}

static int ipu_hwmon_read(struct device *dev, enum hwmon_sensor_types type,
			  u32 attr, int channel, long *val)
{
	struct ipu_device *idev = dev_get_drvdata(dev);
	const struct ipu_model *m = ipu_model_by_id(idev->model);
	u32 reg, raw;
	int ret;

	if (type == hwmon_temp && attr == hwmon_temp_max && m) {
		*val = m->temp_max_mc;
		return 0;
	}
	if (type == hwmon_temp && attr == hwmon_temp_crit && m) {
		*val = m->temp_crit_mc;
		return 0;
	}
	if (type == hwmon_temp && attr == hwmon_temp_input)
		reg = IPU_REG_TEMP;
	else if (type == hwmon_power && attr == hwmon_power_input)
		reg = IPU_REG_POWER;
	else
		return -EOPNOTSUPP;

	ret = ipu_health_read(idev, &reg, &raw, 1);
	if (ret)
		return ret;
	/* TEMP is signed milli-degC; POWER mW, hwmon wants uW. */
	*val = reg == IPU_REG_TEMP ? (long)(s32)raw : (long)raw * 1000;
	return 0;
}

static const struct hwmon_ops ipu_hwmon_ops = {
	.is_visible = ipu_hwmon_visible,
	.read = ipu_hwmon_read,
};

static const struct hwmon_channel_info *ipu_hwmon_channels[] = {
	HWMON_CHANNEL_INFO(temp, HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_CRIT),
	HWMON_CHANNEL_INFO(power, HWMON_P_INPUT),
	NULL
};

static const struct hwmon_chip_info ipu_hwmon_chip = {
	.ops = &ipu_hwmon_ops,
	.info = ipu_hwmon_channels,
};

/*
 * ipu_hwmon_add() - registers @idev's sensors under its PCI device, named
 * "ipu", on a card with CAPS.HEALTH. The sensors are optional: a failure
 * is logged and the card works without them (idev->hwmon stays NULL).
 */
void ipu_hwmon_add(struct ipu_device *idev)
{
	struct device *hw;

	if (!idev->feat.health)
		return;
	hw = hwmon_device_register_with_info(&idev->pdev->dev, IPU_DRIVER_NAME,
					     idev, &ipu_hwmon_chip, NULL);
	if (IS_ERR(hw)) {
		dev_warn(&idev->dev, "no hwmon sensors: %ld\n", PTR_ERR(hw));
		return;
	}
	idev->hwmon = hw;
}

/* ipu_hwmon_remove() - unregisters the sensors; readers are drained. */
void ipu_hwmon_remove(struct ipu_device *idev)
{
	if (!idev->hwmon)
		return;
	hwmon_device_unregister(idev->hwmon);
	idev->hwmon = NULL;
}
