// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: the card's IPU-Links (docs/uapi.md "Links", uAPI
 * 1.5). The link registers (docs/hw-interface.md "IPU-Links") become
 * /sys/class/ipu/ipuN/links/portP/, a uevent per port state change and
 * IPU_IOCTL_LINKS. Only for cards with CAPS.LINKS (idev->feat.links).
 */
#include <linux/bitops.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>

#include "ipu_drv.h"

/* The first published sizes (API 1.5). */
#define IPU_LINKS_SIZE_V1	offsetofend(struct ipu_link_list, reserved)
#define IPU_LINK_SIZE_V1	offsetofend(struct ipu_link, reserved)

/* One port's directory, links/portP: its own kobject, freed on release. */
struct ipu_link_port {
	struct kobject kobj;
	struct ipu_device *idev;
	unsigned int port;
};

/* The uAPI's link states are the card's STATE codes. */
static_assert(IPU_LINKSTATE_DOWN == IPU_LINK_STATE_DOWN);
static_assert(IPU_LINKSTATE_TRAINING == IPU_LINK_STATE_TRAINING);
static_assert(IPU_LINKSTATE_UP == IPU_LINK_STATE_UP);
static_assert(IPU_LINKSTATE_FAILED == IPU_LINK_STATE_FAILED);

static const char *const ipu_link_state_names[] = {
	[IPU_LINKSTATE_DOWN] = "down",
	[IPU_LINKSTATE_TRAINING] = "training",
	[IPU_LINKSTATE_UP] = "up",
	[IPU_LINKSTATE_FAILED] = "failed",
};

/* The uAPI state of a STATE register (an unknown code counts as failed). */
static u32 ipu_link_state(u32 reg)
{
	u32 st = reg & IPU_LINK_STATE_MASK;

	return st <= IPU_LINKSTATE_FAILED ? st : IPU_LINKSTATE_FAILED;
}

/* Probe: the card's place in its fabric and the ports the driver shows. */
void ipu_links_probe(struct ipu_device *idev)
{
	u32 index;

	idev->fabric_index = -1;
	if (!idev->feat.links)
		return;
	index = ipu_read(idev, IPU_REG_FABRIC_INDEX);
	idev->fabric_size = ipu_read(idev, IPU_REG_FABRIC_SIZE);
	if (index != IPU_FABRIC_NONE && index < idev->fabric_size)
		idev->fabric_index = index;
	idev->link_nports = min_t(u32, idev->link_ports, IPU_LINK_PORTS_MAX);
	if (idev->link_nports < idev->link_ports)
		dev_warn(&idev->pdev->dev, "%u link ports, the driver shows the first %u\n",
			 idev->link_ports, idev->link_nports);
}

/*
 * Port @p's registers at one moment into @l. Caller holds hw_rwsem for
 * reading and has checked that the card is not gone.
 */
static void ipu_link_read(struct ipu_device *idev, unsigned int p,
			  struct ipu_link *l)
{
	u32 st = ipu_read(idev, IPU_REG_LINK(p, IPU_LINK_STATE));

	memset(l, 0, sizeof(*l));
	l->port = p;
	l->state = ipu_link_state(st);
	l->peer_index = -1;
	l->peer_port = -1;
	if (st & IPU_LINK_WIRED) {
		l->flags |= IPU_LINK_FLAG_WIRED;
		l->peer_index = ipu_read(idev, IPU_REG_LINK(p, IPU_LINK_PEER_INDEX));
		l->peer_port = ipu_read(idev, IPU_REG_LINK(p, IPU_LINK_PEER_PORT));
		BUILD_BUG_ON(sizeof(l->peer_serial) != IPU_SERIAL_LEN);
		ipu_read_serial(idev, IPU_REG_LINK(p, IPU_LINK_PEER_SERIAL),
				l->peer_serial);
	}
	l->generation = ipu_read(idev, IPU_REG_LINK(p, IPU_LINK_GEN));
	l->lanes = ipu_read(idev, IPU_REG_LINK(p, IPU_LINK_LANES));
	l->fom = ipu_read(idev, IPU_REG_LINK(p, IPU_LINK_FOM));
	l->errors_corr = ipu_read(idev, IPU_REG_LINK(p, IPU_LINK_ERR_CORR));
	l->errors_uncorr = ipu_read(idev, IPU_REG_LINK(p, IPU_LINK_ERR_UNCORR));
}

/* --- sysfs: links/portP/ ------------------------------------------------ */

static void ipu_link_port_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct ipu_link_port, kobj));
}

/*
 * Reads the port for an attribute. Its directory is removed (and readers
 * drained) before remove fences hw_rwsem, so gone is only a safety net.
 */
static int ipu_link_port_read(struct kobject *kobj, struct ipu_link *l)
{
	struct ipu_link_port *lp = container_of(kobj, struct ipu_link_port,
						kobj);
	struct ipu_device *idev = lp->idev;
	int ret = -ENODEV;

	down_read(&idev->hw_rwsem);
	if (!READ_ONCE(idev->gone)) {
		ipu_link_read(idev, lp->port, l);
		ret = 0;
	}
	up_read(&idev->hw_rwsem);
	return ret;
}

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct ipu_link l;
	int ret = ipu_link_port_read(kobj, &l);

	return ret ?: sysfs_emit(buf, "%s\n", ipu_link_state_names[l.state]);
}

static ssize_t peer_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct ipu_link l;
	int ret = ipu_link_port_read(kobj, &l);

	if (ret)
		return ret;
	if (!(l.flags & IPU_LINK_FLAG_WIRED))
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s:%u\n", l.peer_serial, (u32)l.peer_port);
}

/* A port attribute that is one number of the port's record. */
#define IPU_LINK_ATTR_U32(_name, _field)				\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	struct ipu_link l;						\
	int ret = ipu_link_port_read(kobj, &l);				\
									\
	return ret ?: sysfs_emit(buf, "%u\n", l._field);		\
}									\
static struct kobj_attribute ipu_link_attr_##_name = __ATTR_RO(_name)

IPU_LINK_ATTR_U32(generation, generation);
IPU_LINK_ATTR_U32(lanes, lanes);
IPU_LINK_ATTR_U32(fom, fom);

static ssize_t errors_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct ipu_link l;
	int ret = ipu_link_port_read(kobj, &l);

	return ret ?: sysfs_emit(buf, "%u %u\n", l.errors_corr,
				 l.errors_uncorr);
}

static struct kobj_attribute ipu_link_attr_state = __ATTR_RO(state);
static struct kobj_attribute ipu_link_attr_peer = __ATTR_RO(peer);
static struct kobj_attribute ipu_link_attr_errors = __ATTR_RO(errors);

static struct attribute *ipu_link_port_attrs[] = {
	&ipu_link_attr_state.attr,
	&ipu_link_attr_peer.attr,
	&ipu_link_attr_generation.attr,
	&ipu_link_attr_lanes.attr,
	&ipu_link_attr_fom.attr,
	&ipu_link_attr_errors.attr,
	NULL
};
ATTRIBUTE_GROUPS(ipu_link_port);

static const struct kobj_type ipu_link_port_ktype = {
	.release = ipu_link_port_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ipu_link_port_groups,
};

/* Takes the directories down; remove, or probe failing after links_add. */
static void ipu_links_del(struct ipu_device *idev)
{
	unsigned int p;

	for (p = 0; p < idev->link_nports; p++) {
		if (!idev->link_port[p])
			continue;
		kobject_del(&idev->link_port[p]->kobj);
		kobject_put(&idev->link_port[p]->kobj);
		idev->link_port[p] = NULL;
	}
	if (idev->links_kobj) {
		kobject_del(idev->links_kobj);
		kobject_put(idev->links_kobj);
		idev->links_kobj = NULL;
	}
}

/*
 * Probe, after the class device was added (its uevent still held back):
 * links/ and one directory per port, whose attributes exist before the
 * directory's own (suppressed) uevent. 0 or -errno, nothing left behind.
 */
int ipu_links_add(struct ipu_device *idev)
{
	struct ipu_link_port *lp;
	unsigned int p;
	int ret;

	if (!idev->feat.links)
		return 0;
	idev->links_kobj = kobject_create_and_add("links", &idev->dev.kobj);
	if (!idev->links_kobj)
		return -ENOMEM;
	for (p = 0; p < idev->link_nports; p++) {
		lp = kzalloc(sizeof(*lp), GFP_KERNEL);
		if (!lp) {
			ret = -ENOMEM;
			goto err;
		}
		lp->idev = idev;
		lp->port = p;
		ret = kobject_init_and_add(&lp->kobj, &ipu_link_port_ktype,
					   idev->links_kobj, "port%u", p);
		if (ret) {
			kobject_put(&lp->kobj);
			goto err;
		}
		idev->link_port[p] = lp;
	}
	return 0;

err:
	ipu_links_del(idev);
	return ret;
}

/* --- link state changes: interrupt, work, uevent ------------------------ */

/*
 * Takes the card's LINK_CHANGED bits (RW1C) into link_pending and has the
 * work announce them. From the events IRQ handler on the LINK cause, and
 * once where a cause may have been cleared unseen (start, function reset).
 * Takes no lock; the BAR is mapped (IRQ handler, or hw_rwsem held).
 */
void ipu_links_changed(struct ipu_device *idev)
{
	u32 changed = ipu_read(idev, IPU_REG_LINK_CHANGED);

	if (!changed || changed == ~0u)
		return;
	ipu_write(idev, IPU_REG_LINK_CHANGED, changed);
	changed &= (u32)(BIT_ULL(idev->link_nports) - 1);
	if (!changed)
		return;
	atomic_or(changed, &idev->link_pending);
	schedule_work(&idev->link_work);
}

/*
 * Process context: one KOBJ_CHANGE uevent on the class device per changed
 * port, with the state read now. A change after the read raises the cause
 * again and queues the work again, so a port's last uevent carries its
 * latest state.
 */
static void ipu_link_work(struct work_struct *work)
{
	struct ipu_device *idev = container_of(work, struct ipu_device,
					       link_work);
	char event[] = "IPU_EVENT=link";
	char port[24], state[32];
	char *envp[4];
	unsigned long changed;
	unsigned int p;
	u32 st;

	if (READ_ONCE(idev->links_off))
		return;
	envp[0] = event;
	envp[1] = port;
	envp[2] = state;
	envp[3] = NULL;
	changed = (u32)atomic_xchg(&idev->link_pending, 0);
	for_each_set_bit(p, &changed, idev->link_nports) {
		down_read(&idev->hw_rwsem);
		if (READ_ONCE(idev->gone)) {
			up_read(&idev->hw_rwsem);
			return;
		}
		st = ipu_read(idev, IPU_REG_LINK(p, IPU_LINK_STATE));
		up_read(&idev->hw_rwsem);

		snprintf(port, sizeof(port), "IPU_PORT=%u", p);
		snprintf(state, sizeof(state), "IPU_LINK_STATE=%s",
			 ipu_link_state_names[ipu_link_state(st)]);
		dev_dbg(&idev->dev, "link: port %u %s\n", p,
			ipu_link_state_names[ipu_link_state(st)]);
		kobject_uevent_env(&idev->dev.kobj, KOBJ_CHANGE, envp);
	}
}

void ipu_links_init(struct ipu_device *idev)
{
	atomic_set(&idev->link_pending, 0);
	INIT_WORK(&idev->link_work, ipu_link_work);
}

/*
 * Probe, once the class device and its directories are announced: the
 * LINK cause is unmasked, and changes since power-on (whose cause the
 * IRQ setup cleared) are picked up.
 */
void ipu_links_start(struct ipu_device *idev)
{
	if (!idev->feat.links)
		return;
	WRITE_ONCE(idev->irq_causes, idev->irq_causes | IPU_IRQ_LINK);
	ipu_write(idev, IPU_REG_IRQ_MASK, ~idev->irq_causes);
	ipu_links_changed(idev);
}

/*
 * remove, before the class device goes: no uevent is sent after this, and
 * the directories are gone (their readers drained). remove cancels the
 * work once more after free_irq().
 */
void ipu_links_remove(struct ipu_device *idev)
{
	WRITE_ONCE(idev->links_off, true);
	cancel_work_sync(&idev->link_work);
	ipu_links_del(idev);
}

/* --- IPU_IOCTL_LINKS ----------------------------------------------------- */

/*
 * Copies @n records of @ksize bytes into the user array of @stride-byte
 * records at @uptr, zeroing each record's bytes past @ksize.
 */
static int ipu_links_copy_out(u64 uptr, u32 stride, const struct ipu_link *l,
			      u32 n)
{
	void __user *dst = u64_to_user_ptr(uptr);
	u32 i;

	for (i = 0; i < n; i++, dst += stride) {
		if (copy_to_user(dst, &l[i], sizeof(*l)))
			return -EFAULT;
		if (stride > sizeof(*l) &&
		    clear_user(dst + sizeof(*l), stride - sizeof(*l)))
			return -EFAULT;
	}
	return 0;
}

long ipu_ioctl_links(struct ipu_device *idev, void __user *uarg)
{
	struct ipu_link *recs = NULL;
	struct ipu_link_list arg;
	u32 usize, n, p;
	int ret;

	ret = ipu_args_in(&arg, sizeof(arg), IPU_LINKS_SIZE_V1, 0, uarg,
			  &usize);
	if (ret)
		return ret;
	if (memchr_inv(arg.reserved, 0, sizeof(arg.reserved)))
		return -EINVAL;
	if (arg.record_size < IPU_LINK_SIZE_V1 ||
	    arg.record_size > IPU_ARGSZ_MAX || arg.record_size % 8)
		return -EINVAL;

	n = min(arg.count, idev->feat.links ? idev->link_nports : 0);
	if (n) {
		recs = kcalloc(n, sizeof(*recs), GFP_KERNEL);
		if (!recs)
			return -ENOMEM;
	}
	/* Read under the lock, copied out after it (no fault under it). */
	down_read(&idev->hw_rwsem);
	if (READ_ONCE(idev->gone))
		ret = -ENODEV;
	for (p = 0; !ret && p < n; p++)
		ipu_link_read(idev, p, &recs[p]);
	up_read(&idev->hw_rwsem);
	if (!ret)
		ret = ipu_links_copy_out(arg.links_ptr, arg.record_size, recs,
					 n);
	kfree(recs);
	if (ret)
		return ret;

	arg.count = idev->feat.links ? idev->link_nports : 0;
	arg.record_size = sizeof(struct ipu_link);
	arg.fabric_index = idev->fabric_index;
	arg.fabric_size = idev->feat.links ? idev->fabric_size : 0;
	return ipu_args_out(uarg, &arg, sizeof(arg), usize);
}
