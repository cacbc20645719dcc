// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: the character device, /dev/ipuN, and its ioctls
 * (docs/uapi.md).
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ipu_drv.h"
#include "ipu_trace.h"

/* The first published size of each argument struct (version 1.0). */
#define IPU_INFO_SIZE_V1	offsetofend(struct ipu_info, reserved)
#define IPU_RESET_SIZE_V1	offsetofend(struct ipu_reset, reserved)

#define IPU_RESET_TIMEOUT_MAX_MS	60000

/* What every argument struct starts with (include/uapi/linux/ipu.h). */
struct ipu_args_head {
	u32 argsz;
	u32 flags;
};

/*
 * Copies an argument struct in with copy_struct_from_user() semantics and
 * the size limits of docs/uapi.md, and refuses flags outside @flags_ok
 * (-EINVAL): the uAPI's rule, kept here for every ioctl. On success *usize
 * is the caller's argsz.
 */
int ipu_args_in(void *karg, size_t ksize, size_t first_size, u32 flags_ok,
		const void __user *uarg, u32 *usize)
{
	const struct ipu_args_head *head = karg;
	u32 argsz;
	int ret;

	if (get_user(argsz, (const u32 __user *)uarg))
		return -EFAULT;
	if (argsz < first_size)
		return -EINVAL;
	if (argsz > IPU_ARGSZ_MAX)
		return -E2BIG;

	ret = copy_struct_from_user(karg, ksize, uarg, argsz);
	if (ret)
		return ret;
	if (head->flags & ~flags_ok)
		return -EINVAL;
	*usize = argsz;
	return 0;
}

/* Writes back min(usize, ksize) bytes with argsz set to that number. */
int ipu_args_out(void __user *uarg, void *karg, size_t ksize, u32 usize)
{
	u32 n = min_t(u32, usize, ksize);

	memcpy(karg, &n, sizeof(n));
	if (copy_to_user(uarg, karg, n))
		return -EFAULT;
	return 0;
}

static long ipu_ioctl_get_info(struct ipu_device *idev, void __user *uarg)
{
	struct ipu_info info;
	u32 usize;
	int ret;

	ret = ipu_args_in(&info, sizeof(info), IPU_INFO_SIZE_V1, 0, uarg,
			  &usize);
	if (ret)
		return ret;
	if (memchr_inv(info.reserved, 0, sizeof(info.reserved)))
		return -EINVAL;

	memset(&info, 0, sizeof(info));
	info.api_version = IPU_DRIVER_API_VERSION;
	info.hw_version = idev->hw_version;
	info.model = idev->model;
	info.card_index = idev->card_index;
	info.tiles = idev->tiles;
	info.tile_memory = idev->tile_memory;
	info.threads_per_tile = idev->threads;
	info.link_ports = idev->link_ports;
	info.fw_version = idev->fw_version;
	info.clock_khz = idev->clock_khz;
	info.capabilities = idev->caps;
	info.generation = atomic64_read(&idev->generation);
	strscpy(info.serial, idev->serial, sizeof(info.serial));
	strscpy(info.driver_version, IPU_DRIVER_VERSION,
		sizeof(info.driver_version));

	down_read(&idev->hw_rwsem);
	if (READ_ONCE(idev->gone)) {
		up_read(&idev->hw_rwsem);
		return -ENODEV;
	}
	info.state = ipu_hw_state(idev);
	info.reset_count = ipu_read(idev, IPU_REG_RESET_COUNT);
	up_read(&idev->hw_rwsem);

	return ipu_args_out(uarg, &info, sizeof(info), usize);
}

/* No reset or power-on in progress: the card would ignore CONTROL.RESET. */
static bool ipu_reset_idle(struct ipu_device *idev, void *arg)
{
	u32 state = ipu_read(idev, IPU_REG_STATUS) & IPU_CARD_STATE_MASK;

	return state != IPU_CARD_STATE_OFF && state != IPU_CARD_STATE_RESETTING;
}

/*
 * Called with attach_lock and hw_rwsem (read) held (and reset_lock, but by
 * a detach's recovery: attach_lock alone excludes the other resets), the card
 * not gone. Commands in flight stay in flight until the card is READY
 * again (ipu_queues_recover()): until then it may still move their data.
 */
int ipu_do_reset(struct ipu_device *idev, struct ipu_reset *rst)
{
	unsigned int timeout = rst->timeout_ms ?: IPU_READY_TIMEOUT_MS;
	u32 count;
	int ret;

	if (!idev->feat.soft_reset)
		return -EOPNOTSUPP;

	/* An earlier reset may still run (NOWAIT, or its waiter was killed). */
	ret = ipu_wait_event(idev, ipu_reset_idle, NULL, timeout, true);
	if (ret == -ETIMEDOUT) {
		WRITE_ONCE(idev->timed_out, true);
		dev_warn(&idev->dev, "card still busy after %u ms, cannot reset\n",
			 timeout);
	}
	if (ret)
		return ret;

	/* What user space holds from before is stale from now on. */
	ipu_generation_advance(idev);
	count = ipu_read(idev, IPU_REG_RESET_COUNT);
	WRITE_ONCE(idev->timed_out, false);
	if (READ_ONCE(idev->halted)) {
		/* Halted by a detach that could not stop it: the reset
		 * confirms it let go, so it may reach memory again.
		 */
		pci_set_master(idev->pdev);
		WRITE_ONCE(idev->halted, false);
	}
	ipu_write(idev, IPU_REG_CONTROL, IPU_CONTROL_RESET);
	/* Queues stop taking commands; theirs complete once READY. */
	ipu_queues_recover(idev, false);

	if (!(rst->flags & IPU_RESET_FLAG_NOWAIT)) {
		ret = ipu_wait_event(idev, ipu_card_reset_done, &count, timeout,
				     true);
		if (ret == -ETIMEDOUT) {
			WRITE_ONCE(idev->timed_out, true);
			dev_warn(&idev->dev, "card not ready %u ms after reset\n",
				 timeout);
		} else if (!ret && ipu_hw_state(idev) == IPU_DEV_STATE_FAILED) {
			dev_warn(&idev->dev, "card failed during reset\n");
			ret = -EIO;
		}
		if (ret)
			return ret;
		/* READY again: the commands complete, queues run again. */
		ipu_queues_recover(idev, false);
	}

	rst->state = ipu_hw_state(idev);
	rst->reset_count = ipu_read(idev, IPU_REG_RESET_COUNT);
	return 0;
}

/*
 * attach_lock held: a file other than @ctx's holds the card; its process
 * goes into @rst for the caller to name.
 */
static bool ipu_reset_refused(struct ipu_device *idev, struct ipu_ctx *ctx,
			      struct ipu_reset *rst)
{
	struct ipu_ctx *holder = idev->attached;

	if (!holder || holder == ctx || (rst->flags & IPU_RESET_FLAG_FORCE))
		return false;
	rst->holder_pid = holder->holder_pid;
	strscpy(rst->holder_comm, holder->holder_comm,
		sizeof(rst->holder_comm));
	return true;
}

static long ipu_ioctl_reset(struct ipu_ctx *ctx, struct file *filp,
			    void __user *uarg)
{
	struct ipu_device *idev = ctx->idev;
	struct ipu_reset rst;
	u32 usize;
	int ret;

	if (!(filp->f_mode & FMODE_WRITE))
		return -EPERM;

	ret = ipu_args_in(&rst, sizeof(rst), IPU_RESET_SIZE_V1,
			  IPU_RESET_FLAGS_ALL, uarg, &usize);
	if (ret)
		return ret;
	if (rst.reserved || rst.reserved2)
		return -EINVAL;
	if (rst.timeout_ms > IPU_RESET_TIMEOUT_MAX_MS)
		return -EINVAL;
	/* Outputs only. */
	rst.state = 0;
	rst.reset_count = 0;
	rst.holder_pid = 0;
	memset(rst.holder_comm, 0, sizeof(rst.holder_comm));

	if (mutex_lock_interruptible(&idev->reset_lock))
		return -EINTR;
	/* Held across the check and the reset: nobody attaches meanwhile. */
	if (mutex_lock_interruptible(&idev->attach_lock)) {
		mutex_unlock(&idev->reset_lock);
		return -EINTR;
	}
	down_read(&idev->hw_rwsem);
	if (READ_ONCE(idev->gone)) {
		ret = -ENODEV;
	} else if (ipu_reset_refused(idev, ctx, &rst)) {
		rst.state = ipu_hw_state(idev);
		rst.reset_count = ipu_read(idev, IPU_REG_RESET_COUNT);
		ret = -EBUSY;
	} else {
		u32 count = ipu_read(idev, IPU_REG_RESET_COUNT);

		trace_ipu_reset(idev->minor, rst.flags, count);
		dev_dbg(&idev->dev, "reset: flags %#x by %d (%s)\n",
			rst.flags, task_tgid_nr(current), current->comm);
		ret = ipu_do_reset(idev, &rst);
		trace_ipu_reset_done(idev->minor, ret, rst.reset_count);
		dev_dbg(&idev->dev, "reset: %d, %u resets\n", ret,
			rst.reset_count);
	}
	up_read(&idev->hw_rwsem);
	mutex_unlock(&idev->attach_lock);
	mutex_unlock(&idev->reset_lock);
	if (ret == -EBUSY)
		return ipu_args_out(uarg, &rst, sizeof(rst), usize) ?: -EBUSY;
	if (ret)
		return ret;
	if (!(rst.flags & IPU_RESET_FLAG_NOWAIT))
		ipu_health_uevent(idev, "reset", 0);

	return ipu_args_out(uarg, &rst, sizeof(rst), usize);
}

static long ipu_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct ipu_ctx *ctx = filp->private_data;
	struct ipu_device *idev = ctx->idev;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case IPU_IOCTL_GET_INFO:
		return ipu_ioctl_get_info(idev, uarg);
	case IPU_IOCTL_RESET:
		return ipu_ioctl_reset(ctx, filp, uarg);
	case IPU_IOCTL_ATTACH:
		return ipu_ioctl_attach(ctx, filp, uarg);
	case IPU_IOCTL_DETACH:
		return ipu_ioctl_detach(ctx, uarg);
	case IPU_IOCTL_BUF_ALLOC:
		return ipu_ioctl_buf_alloc(ctx, uarg);
	case IPU_IOCTL_BUF_PIN:
		return ipu_ioctl_buf_pin(ctx, uarg);
	case IPU_IOCTL_BUF_FREE:
		return ipu_ioctl_buf_free(ctx, uarg);
	case IPU_IOCTL_SUBMIT:
		return ipu_ioctl_submit(ctx, uarg);
	case IPU_IOCTL_WAIT:
		return ipu_ioctl_wait(ctx, uarg);
	case IPU_IOCTL_SET_EVENTFD:
		return ipu_ioctl_set_eventfd(ctx, uarg);
	case IPU_IOCTL_NULL:
		return 0;
	case IPU_IOCTL_UQUEUE:
		return ipu_ioctl_uqueue(ctx, filp, uarg);
	case IPU_IOCTL_LINKS:
		return ipu_ioctl_links(idev, uarg);
	case IPU_IOCTL_GROUP_ATTACH:
		return ipu_ioctl_group_attach(ctx, filp, uarg);
	default:
		return -ENOTTY;
	}
}

static int ipu_open(struct inode *inode, struct file *filp)
{
	struct ipu_device *idev = container_of(inode->i_cdev,
					       struct ipu_device, cdev);
	int ret;

	if (READ_ONCE(idev->gone))
		return -ENODEV;
	ret = ipu_ctx_open(idev, filp);
	if (ret)
		return ret;
	/* The file's reference: idev outlives the binding while open. */
	get_device(&idev->dev);
	return stream_open(inode, filp);
}

static int ipu_release(struct inode *inode, struct file *filp)
{
	struct ipu_ctx *ctx = filp->private_data;
	struct ipu_device *idev = ctx->idev;

	ipu_ctx_release(ctx);
	put_device(&idev->dev);
	return 0;
}

const struct file_operations ipu_fops = {
	.owner = THIS_MODULE,
	.open = ipu_open,
	.release = ipu_release,
	.unlocked_ioctl = ipu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = ipu_mmap,
	.poll = ipu_poll,
	.llseek = no_llseek,
};
