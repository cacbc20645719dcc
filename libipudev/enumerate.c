// SPDX-License-Identifier: MIT
/*
 * libipudev: finding cards through libudev (subsystem "ipu").
 *
 * Only sysfs is read (libudev's enumeration and attribute access go to
 * /sys directly): no udev database and no udevd are needed, so this works
 * in a minimal VM. The device node is udev's devnode, i.e. "/dev/" plus the
 * DEVNAME of the device's uevent.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libudev.h>
#include <linux/ipu.h>

#include "internal.h"

#define IPU_SUBSYSTEM	"ipu"
#define IPU_CLASS_DIR	"/sys/class/" IPU_SUBSYSTEM

bool ipu__driver_present(void)
{
	struct stat st;

	return stat(IPU_CLASS_DIR, &st) == 0 && S_ISDIR(st.st_mode);
}

int ipu__err_no_cards(struct ipu_error *err)
{
	if (!ipu__driver_present())
		return ipu__err(err, -ENODEV,
				"no IPU cards found: driver ipu.ko not loaded (%s missing)",
				IPU_CLASS_DIR);
	return ipu__err(err, -ENODEV,
			"no IPU cards found: driver ipu.ko is loaded but no card is bound (%s is empty)",
			IPU_CLASS_DIR);
}

/* Parse "ipuN" into N. */
static int parse_sysname(const char *sysname, unsigned *id)
{
	char *end;
	unsigned long v;

	if (!sysname || strncmp(sysname, IPU_SUBSYSTEM, 3) ||
	    sysname[3] < '0' || sysname[3] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(sysname + 3, &end, 10);
	if (errno || *end || v > 0xffffffffUL)
		return -EINVAL;
	*id = (unsigned)v;
	return 0;
}

static const char *attr(struct udev_device *d, const char *name)
{
	const char *v = udev_device_get_sysattr_value(d, name);

	return v ? v : "";
}

static uint32_t attr_u32(struct udev_device *d, const char *name)
{
	const char *v = udev_device_get_sysattr_value(d, name);
	unsigned long long x;
	char *end;

	if (!v || !*v)
		return 0;
	errno = 0;
	x = strtoull(v, &end, 0);
	if (errno || x > UINT32_MAX)
		return 0;
	return (uint32_t)x;
}

/* Copy a sysfs value, dropping trailing white space. */
static void copy_attr(char *dst, size_t size, const char *v)
{
	size_t n;

	ipu__strlcpy(dst, v, size);
	n = strlen(dst);
	while (n && (dst[n - 1] == '\n' || dst[n - 1] == ' ' ||
		     dst[n - 1] == '\t'))
		dst[--n] = '\0';
}

/* The driver version: the module's "version" attribute, else GET_INFO. */
static void driver_version(struct udev *udev, const char *devnode,
			   char *out, size_t size)
{
	struct udev_device *mod;
	struct ipu_info info;
	int fd;

	mod = udev_device_new_from_subsystem_sysname(udev, "module", "ipu");
	if (mod) {
		copy_attr(out, size, attr(mod, "version"));
		udev_device_unref(mod);
		if (*out)
			return;
	}
	if (!devnode || !*devnode)
		return;
	fd = open(devnode, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	memset(&info, 0, sizeof(info));
	info.argsz = sizeof(info);
	if (ioctl(fd, IPU_IOCTL_GET_INFO, &info) == 0) {
		info.driver_version[sizeof(info.driver_version) - 1] = '\0';
		ipu__strlcpy(out, info.driver_version, size);
	}
	close(fd);
}

static void fill_card(struct udev_device *d, unsigned id,
		      struct ipu_card *c, struct ipu__pci *pci)
{
	struct udev_device *parent;
	uint32_t model;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->numa_node = -1;
	snprintf(c->name, sizeof(c->name), "ipu%u", id);
	ipu__strlcpy(c->syspath, udev_device_get_syspath(d), sizeof(c->syspath));
	ipu__strlcpy(c->devnode, udev_device_get_devnode(d), sizeof(c->devnode));

	copy_attr(c->model_name, sizeof(c->model_name), attr(d, "model"));
	if (ipu_model_from_name(c->model_name, &model) == 0)
		c->model = model;
	copy_attr(c->serial, sizeof(c->serial), attr(d, "serial"));
	c->tiles = attr_u32(d, "tiles");
	c->tile_memory = attr_u32(d, "tile_memory");
	c->total_memory = (uint64_t)c->tiles * c->tile_memory;
	copy_attr(c->firmware_version, sizeof(c->firmware_version),
		  attr(d, "firmware_version"));
	copy_attr(c->state_name, sizeof(c->state_name), attr(d, "state"));
	c->state = ipu_state_from_name(c->state_name);
	c->card_index = attr_u32(d, "card_index");
	c->reset_count = attr_u32(d, "reset_count");

	parent = udev_device_get_parent_with_subsystem_devtype(d, "pci", NULL);
	if (parent) {
		struct ipu__pci_link link;

		ipu__strlcpy(c->pci_address, udev_device_get_sysname(parent),
			     sizeof(c->pci_address));
		c->vendor_id = (uint16_t)attr_u32(parent, "vendor");
		c->device_id = (uint16_t)attr_u32(parent, "device");
		if (ipu__pci_query(pci, c->pci_address,
				   udev_device_get_syspath(parent), &link) == 0) {
			ipu__strlcpy(c->link_speed, link.speed,
				     sizeof(c->link_speed));
			c->link_width = link.width;
			ipu__strlcpy(c->link_speed_max, link.speed_max,
				     sizeof(c->link_speed_max));
			c->link_width_max = link.width_max;
			c->numa_node = link.numa_node;
		}
	}
}

static int cmp_card(const void *a, const void *b)
{
	const struct ipu_card *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

IPU_API int ipu_enumerate(struct ipu_card **cards, size_t *count,
			  struct ipu_error *err)
{
	struct udev *udev;
	struct udev_enumerate *en = NULL;
	struct udev_list_entry *e;
	struct ipu_card *list = NULL;
	struct ipu__pci *pci = NULL;
	size_t n = 0, cap = 0;
	int ret;

	if (!cards || !count)
		return ipu__err(err, -EINVAL,
				"ipu_enumerate: cards and count must not be NULL");
	*cards = NULL;
	*count = 0;

	udev = udev_new();
	if (!udev)
		return ipu__err(err, -ENOMEM, "enumerate IPUs: udev_new failed");
	en = udev_enumerate_new(udev);
	if (!en) {
		ret = ipu__err(err, -ENOMEM,
			       "enumerate IPUs: udev_enumerate_new failed");
		goto out;
	}
	ret = udev_enumerate_add_match_subsystem(en, IPU_SUBSYSTEM);
	if (ret >= 0)
		ret = udev_enumerate_scan_devices(en);
	if (ret < 0) {
		ret = ipu__err_sys(err, ret < 0 ? ret : -EIO,
				   "enumerate IPUs: scanning subsystem \"%s\"",
				   IPU_SUBSYSTEM);
		goto out;
	}

	udev_list_entry_foreach(e, udev_enumerate_get_list_entry(en)) {
		struct udev_device *d;
		unsigned id;

		d = udev_device_new_from_syspath(udev,
						 udev_list_entry_get_name(e));
		if (!d)
			continue;	/* vanished meanwhile */
		if (parse_sysname(udev_device_get_sysname(d), &id)) {
			udev_device_unref(d);
			continue;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			struct ipu_card *l = realloc(list, ncap * sizeof(*l));

			if (!l) {
				udev_device_unref(d);
				ret = ipu__err(err, -ENOMEM,
					       "enumerate IPUs: out of memory");
				goto out;
			}
			list = l;
			cap = ncap;
		}
		if (!pci)
			pci = ipu__pci_open();
		fill_card(d, id, &list[n++], pci);
		udev_device_unref(d);
	}

	if (n == 0) {
		ret = ipu__err_no_cards(err);
		goto out;
	}
	qsort(list, n, sizeof(*list), cmp_card);

	{
		char drv[32] = "";

		driver_version(udev, list[0].devnode, drv, sizeof(drv));
		for (size_t i = 0; i < n; i++)
			ipu__strlcpy(list[i].driver_version, drv,
				     sizeof(list[i].driver_version));
	}

	*cards = list;
	*count = n;
	list = NULL;
	ret = 0;
out:
	free(list);
	ipu__pci_close(pci);
	udev_enumerate_unref(en);
	udev_unref(udev);
	return ret;
}

IPU_API void ipu_cards_free(struct ipu_card *cards)
{
	free(cards);
}

int ipu__find_devnode(unsigned id, char *devnode, size_t size,
		      struct ipu_error *err)
{
	struct udev *udev;
	struct udev_device *d;
	char sysname[24];
	const char *node;
	int ret = 0;

	snprintf(sysname, sizeof(sysname), "ipu%u", id);
	udev = udev_new();
	if (!udev)
		return ipu__err(err, -ENOMEM, "open %s: udev_new failed",
				sysname);
	d = udev_device_new_from_subsystem_sysname(udev, IPU_SUBSYSTEM,
						   sysname);
	if (!d) {
		if (!ipu__driver_present())
			ret = ipu__err(err, -ENODEV,
				       "open %s: driver ipu.ko not loaded (%s missing)",
				       sysname, IPU_CLASS_DIR);
		else
			ret = ipu__err(err, -ENODEV,
				       "open %s: no such IPU (not in %s)",
				       sysname, IPU_CLASS_DIR);
		goto out;
	}
	node = udev_device_get_devnode(d);
	if (!node || !*node) {
		ret = ipu__err(err, -ENODEV,
			       "open %s: the device has no device node (no DEVNAME in its uevent)",
			       sysname);
	} else if (strlen(node) >= size) {
		ret = ipu__err(err, -ENAMETOOLONG,
			       "open %s: device node name too long", sysname);
	} else {
		ipu__strlcpy(devnode, node, size);
	}
	udev_device_unref(d);
out:
	udev_unref(udev);
	return ret;
}
