// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_probe_test: every IPU function is bound, has /dev/ipuN and
 * /sys/class/ipu/ipuN, and the attributes parse and agree with GET_INFO.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"

static const char * const ipu_attrs[] = {
	"serial", "model", "tiles", "tile_memory", "firmware_version",
	"state", "card_index", "reset_count", "fabric_index", "recoveries",
	/* 1.8, every card of this stack has CAPS.HEALTH */
	"utilisation", "health", "errors_dma", "errors_ring", "errors_fatal",
	"holder",
	"generation",
};

TEST(every_function_is_bound)
{
	char names[IPU_TEST_MAX_CARDS * 4][IPU_TEST_NAME_MAX];
	struct ipu_vm_card cards[IPU_TEST_MAX_CARDS];
	int pci = ipu_pci_count();
	int n = ipu_list_cards(names, IPU_TEST_MAX_CARDS * 4);
	int vm = ipu_vm_cards(cards, IPU_TEST_MAX_CARDS);

	ASSERT_LT(0, pci) TH_LOG("no IPU PCI function in /sys/bus/pci/devices");
	EXPECT_EQ(pci, n) TH_LOG("%d PCI functions but %d class devices", pci, n);
	if (vm >= 0)
		EXPECT_EQ(vm, n) TH_LOG("IPU_VM_CARDS has %d cards, sysfs %d", vm, n);
}

TEST(card_indexes_unique)
{
	char names[IPU_TEST_MAX_CARDS * 4][IPU_TEST_NAME_MAX];
	int n = ipu_list_cards(names, IPU_TEST_MAX_CARDS * 4);
	uint32_t idx[IPU_TEST_MAX_CARDS * 4];

	for (int i = 0; i < n; i++) {
		ASSERT_EQ(0, ipu_sysfs_u32(names[i], "card_index", &idx[i]));
		for (int j = 0; j < i; j++) {
			EXPECT_NE(idx[i], idx[j]) TH_LOG("%s and %s: card_index %u",
							 names[i], names[j], idx[i]);
		}
	}
}

FIXTURE(card) {
	char name[IPU_TEST_NAME_MAX];
	int fd;
	struct ipu_info info;
};

FIXTURE_VARIANT(card) {
	int index;
};

IPU_CARD_VARIANTS(card);

FIXTURE_SETUP(card)
{
	self->fd = -1;
	IPU_FIND_CARD_OR_SKIP(variant->index, self->name);
	self->fd = ipu_open_name(self->name, O_RDONLY);
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/%s: %s", self->name, strerror(errno));
	ASSERT_EQ(0, ipu_get_info(self->fd, &self->info));
}

FIXTURE_TEARDOWN(card)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(card, dev_node_matches_sysfs)
{
	char path[64], buf[32];
	unsigned int maj, min;
	struct stat st;

	IPU_RETURN_IF_SKIPPED();
	snprintf(path, sizeof(path), "/dev/%s", self->name);
	ASSERT_EQ(0, stat(path, &st));
	ASSERT_TRUE(S_ISCHR(st.st_mode));
	ASSERT_EQ(0, ipu_sysfs_read(self->name, "dev", buf, sizeof(buf)));
	ASSERT_EQ(2, sscanf(buf, "%u:%u", &maj, &min));
	EXPECT_EQ(maj, major(st.st_rdev));
	EXPECT_EQ(min, minor(st.st_rdev));
	/* ipuN is numbered after its minor. */
	EXPECT_EQ((unsigned int)atoi(self->name + 3), min);
}

TEST_F(card, attributes_parse)
{
	const struct ipu_model *m;
	char buf[64], extra;
	unsigned int a, b, c;
	uint32_t v;

	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, ipu_sysfs_read(self->name, "serial", buf, sizeof(buf)));
	EXPECT_LT(0, (int)strlen(buf));
	EXPECT_GT(IPU_SERIAL_MAX, (int)strlen(buf));
	for (char *p = buf; *p; p++) {
		EXPECT_TRUE(*p > 0x20 && *p < 0x7f) TH_LOG("serial byte %#x", *p);
	}

	ASSERT_EQ(0, ipu_sysfs_read(self->name, "model", buf, sizeof(buf)));
	m = ipu_model_by_name(buf);
	ASSERT_NE(NULL, m) TH_LOG("model '%s'", buf);

	EXPECT_EQ(0, ipu_sysfs_u32(self->name, "tiles", &v));
	EXPECT_EQ(m->tiles, v);
	EXPECT_EQ(0, ipu_sysfs_u32(self->name, "tile_memory", &v));
	EXPECT_EQ(m->tile_mem, v);

	ASSERT_EQ(0, ipu_sysfs_read(self->name, "firmware_version", buf, sizeof(buf)));
	EXPECT_EQ(3, sscanf(buf, "%u.%u.%u%c", &a, &b, &c, &extra)) TH_LOG("'%s'", buf);

	ASSERT_EQ(0, ipu_sysfs_read(self->name, "state", buf, sizeof(buf)));
	EXPECT_TRUE(!strcmp(buf, "initializing") || !strcmp(buf, "ready") ||
		    !strcmp(buf, "resetting") || !strcmp(buf, "failed"))
		TH_LOG("state '%s'", buf);

	EXPECT_EQ(0, ipu_sysfs_u32(self->name, "card_index", &v));
	EXPECT_EQ((uint32_t)variant->index, v);
	EXPECT_EQ(0, ipu_sysfs_u32(self->name, "reset_count", &v));
}

TEST_F(card, attributes_match_get_info)
{
	const struct ipu_info *info = &self->info;
	char buf[64], fw[32];
	uint32_t v;

	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, ipu_sysfs_read(self->name, "serial", buf, sizeof(buf)));
	EXPECT_STREQ(info->serial, buf);
	ASSERT_EQ(0, ipu_sysfs_read(self->name, "model", buf, sizeof(buf)));
	ASSERT_NE(NULL, ipu_model_by_id(info->model));
	EXPECT_STREQ(ipu_model_by_id(info->model)->name, buf);
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "tiles", &v));
	EXPECT_EQ(info->tiles, v);
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "tile_memory", &v));
	EXPECT_EQ(info->tile_memory, v);
	ASSERT_EQ(0, ipu_sysfs_read(self->name, "firmware_version", buf, sizeof(buf)));
	snprintf(fw, sizeof(fw), "%u.%u.%u", info->fw_version >> 16,
		 (info->fw_version >> 8) & 0xff, info->fw_version & 0xff);
	EXPECT_STREQ(fw, buf);
	ASSERT_EQ(0, ipu_sysfs_read(self->name, "state", buf, sizeof(buf)));
	EXPECT_STREQ(info->state == IPU_DEV_STATE_READY ? "ready" :
		     info->state == IPU_DEV_STATE_INITIALIZING ? "initializing" :
		     info->state == IPU_DEV_STATE_RESETTING ? "resetting" :
		     "failed", buf);
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "card_index", &v));
	EXPECT_EQ(info->card_index, v);
	ASSERT_EQ(0, ipu_sysfs_u32(self->name, "reset_count", &v));
	EXPECT_EQ(info->reset_count, v);
}

TEST_F(card, device_link_is_the_pci_function)
{
	char link[PATH_MAX], pci[PATH_MAX], path[PATH_MAX + 32], buf[64];

	IPU_RETURN_IF_SKIPPED();
	snprintf(link, sizeof(link), "/sys/class/ipu/%s/device", self->name);
	ASSERT_NE(NULL, realpath(link, pci)) TH_LOG("%s: %s", link, strerror(errno));
	EXPECT_EQ(0, strncmp(pci, "/sys/devices/pci", 16)) TH_LOG("%s", pci);

	snprintf(path, sizeof(path), "%s/vendor", pci);
	ASSERT_EQ(0, ipu_read_file(path, buf, sizeof(buf)));
	EXPECT_EQ((unsigned long)IPU_PCI_VENDOR_ID, strtoul(buf, NULL, 16));
	snprintf(path, sizeof(path), "%s/device", pci);
	ASSERT_EQ(0, ipu_read_file(path, buf, sizeof(buf)));
	EXPECT_EQ((unsigned long)IPU_PCI_DEVICE_ID, strtoul(buf, NULL, 16));

	/* Bound to this driver. */
	snprintf(path, sizeof(path), "%s/driver", pci);
	ASSERT_NE(NULL, realpath(path, link));
	EXPECT_STREQ("ipu", basename(link));

	/* The class device's subsystem is the ipu class. */
	snprintf(link, sizeof(link), "/sys/class/ipu/%s/subsystem", self->name);
	ASSERT_NE(NULL, realpath(link, path));
	EXPECT_STREQ("ipu", basename(path));
}

TEST_F(card, attributes_read_only)
{
	char path[256];

	IPU_RETURN_IF_SKIPPED();
	for (size_t i = 0; i < sizeof(ipu_attrs) / sizeof(ipu_attrs[0]); i++) {
		struct stat st;
		int fd;

		snprintf(path, sizeof(path), "/sys/class/ipu/%s/%s", self->name,
			 ipu_attrs[i]);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
		EXPECT_EQ(0444u, st.st_mode & 0777u) TH_LOG("%s", path);
		fd = open(path, O_WRONLY);
		EXPECT_EQ(-1, fd) TH_LOG("%s opened for writing", path);
		if (fd >= 0)
			close(fd);
	}
}

TEST_F(card, any_open_mode_gets_info)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	struct ipu_info info;

	IPU_RETURN_IF_SKIPPED();
	for (size_t i = 0; i < 3; i++) {
		int fd = ipu_open_name(self->name, modes[i]);

		ASSERT_LE(0, fd);
		EXPECT_EQ(0, ipu_get_info(fd, &info)) TH_LOG("mode %d", modes[i]);
		EXPECT_EQ(self->info.card_index, info.card_index);
		close(fd);
	}
}

TEST_HARNESS_MAIN
