// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: module init and exit, the "ipu" class, the
 * character device region and the ipuN number allocator.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "ipu_drv.h"

#define CREATE_TRACE_POINTS
#include "ipu_trace.h"

unsigned int ready_timeout_ms = IPU_READY_TIMEOUT_MS;
module_param(ready_timeout_ms, uint, 0644);
MODULE_PARM_DESC(ready_timeout_ms,
		 "How long probe waits for the card to become ready, in ms (default 2000)");

dev_t ipu_devt;
static DEFINE_IDA(ipu_ida);
static struct dentry *ipu_debugfs_root;

/*
 * /sys/kernel/debug/ipu/ipuN/: pages pinned and allocated for the card,
 * buffers and commands alive (the kselftests check them for leaks).
 */
void ipu_debugfs_add(struct ipu_device *idev)
{
	struct dentry *d;

	d = debugfs_create_dir(dev_name(&idev->dev), ipu_debugfs_root);
	idev->debugfs = d;
	debugfs_create_atomic_t("pinned_pages", 0444, d, &idev->pinned_pages);
	debugfs_create_atomic_t("alloc_pages", 0444, d, &idev->alloc_pages);
	debugfs_create_atomic_t("buffers", 0444, d, &idev->nbufs);
	debugfs_create_atomic_t("commands", 0444, d, &idev->ncmds);
}

void ipu_debugfs_remove(struct ipu_device *idev)
{
	debugfs_remove_recursive(idev->debugfs);
	idev->debugfs = NULL;
}

struct class ipu_class = {
	.name = "ipu",
	.owner = THIS_MODULE,
	.dev_groups = ipu_groups,
};

int ipu_minor_alloc(void)
{
	return ida_alloc_max(&ipu_ida, IPU_MAX_DEVICES - 1, GFP_KERNEL);
}

void ipu_minor_free(int minor)
{
	ida_free(&ipu_ida, minor);
}

const char *ipu_model_name(u32 model)
{
	const struct ipu_model *m = ipu_model_by_id(model);

	return m ? m->name : "unknown";
}

const char *ipu_state_name(u32 state)
{
	switch (state) {
	case IPU_DEV_STATE_INITIALIZING:
		return "initializing";
	case IPU_DEV_STATE_READY:
		return "ready";
	case IPU_DEV_STATE_RESETTING:
		return "resetting";
	default:
		return "failed";
	}
}

static int __init ipu_init(void)
{
	int ret;

	ret = class_register(&ipu_class);
	if (ret)
		return ret;

	ret = alloc_chrdev_region(&ipu_devt, 0, IPU_MAX_DEVICES,
				  IPU_DRIVER_NAME);
	if (ret)
		goto err_class;

	ipu_debugfs_root = debugfs_create_dir(IPU_DRIVER_NAME, NULL);
	ret = ipu_pci_register();
	if (ret)
		goto err_chrdev;

	return 0;

err_chrdev:
	debugfs_remove_recursive(ipu_debugfs_root);
	unregister_chrdev_region(ipu_devt, IPU_MAX_DEVICES);
err_class:
	class_unregister(&ipu_class);
	return ret;
}

static void __exit ipu_exit(void)
{
	ipu_pci_unregister();
	debugfs_remove_recursive(ipu_debugfs_root);
	unregister_chrdev_region(ipu_devt, IPU_MAX_DEVICES);
	class_unregister(&ipu_class);
	ida_destroy(&ipu_ida);
	ipu_uqueue_exit();
}

module_init(ipu_init);
module_exit(ipu_exit);

MODULE_DESCRIPTION("IPU PCIe accelerator card driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(IPU_DRIVER_VERSION);
