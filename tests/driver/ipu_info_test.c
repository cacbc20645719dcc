// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_info_test: GET_INFO reports what QEMU was told (IPU_VM_CARDS, set by
 * tools/ipu-vm as index:model:serial,...), the model's figures
 * (include/ipu/ipu_models.h) and the card's fixed values
 * (docs/hw-interface.md), and the PCI function looks like that model.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"

#define IPU_FW_1_4_0		0x010400u
#define IPU_DRIVER_VERSION	"0.1.0"

FIXTURE(info) {
	char name[IPU_TEST_NAME_MAX];
	const struct ipu_vm_card *vm;
	const struct ipu_model *model;
	int fd;
	struct ipu_info info;
};

FIXTURE_VARIANT(info) {
	int index;
};

IPU_CARD_VARIANTS(info);

FIXTURE_SETUP(info)
{
	self->fd = -1;
	if (!getenv("IPU_VM_CARDS"))
		SKIP(return, "card%d.%s: IPU_VM_CARDS is not set",
		     variant->index, _metadata->name);
	self->vm = ipu_vm_card(variant->index);
	if (!self->vm)
		SKIP(return, "card%d.%s: card %d is not in IPU_VM_CARDS",
		     variant->index, _metadata->name, variant->index);
	self->model = ipu_model_by_name(self->vm->model);
	ASSERT_NE(NULL, self->model) TH_LOG("model '%s'", self->vm->model);
	ASSERT_EQ(0, ipu_find_card(variant->index, self->name, sizeof(self->name)))
		TH_LOG("card %d is in IPU_VM_CARDS but not bound", variant->index);
	self->fd = ipu_open_name(self->name, O_RDONLY);
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/%s: %s", self->name, strerror(errno));
	ASSERT_EQ(0, ipu_get_info(self->fd, &self->info));
}

FIXTURE_TEARDOWN(info)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(info, identity_matches_vm)
{
	IPU_RETURN_IF_SKIPPED();
	EXPECT_EQ((uint32_t)variant->index, self->info.card_index);
	EXPECT_STREQ(self->vm->serial, self->info.serial);
	EXPECT_EQ(self->model->id, self->info.model);
}

TEST_F(info, model_figures)
{
	const struct ipu_model *m = self->model;

	IPU_RETURN_IF_SKIPPED();
	EXPECT_EQ(m->tiles, self->info.tiles);
	EXPECT_EQ(m->tile_mem, self->info.tile_memory);
	EXPECT_EQ((uint32_t)IPU_WORKER_THREADS, self->info.threads_per_tile);
	EXPECT_EQ(m->clock_khz, self->info.clock_khz);
	EXPECT_EQ(m->link_ports, self->info.link_ports);
}

TEST_F(info, versions)
{
	IPU_RETURN_IF_SKIPPED();
	EXPECT_EQ(IPU_FW_1_4_0, self->info.fw_version);
	EXPECT_EQ((uint32_t)IPU_HW_VERSION, self->info.hw_version);
	/* The driver implements at most the header's API. */
	EXPECT_EQ((uint32_t)IPU_API_VERSION_MAJOR, self->info.api_version >> 16);
	EXPECT_GE((uint32_t)IPU_API_VERSION_MINOR, self->info.api_version & 0xffff);
	EXPECT_STREQ(IPU_DRIVER_VERSION, self->info.driver_version);
}

TEST_F(info, state_caps_and_padding)
{
	static const char zero[sizeof(self->info.reserved)];

	IPU_RETURN_IF_SKIPPED();
	EXPECT_EQ((uint32_t)sizeof(struct ipu_info), self->info.argsz);
	EXPECT_EQ(0u, self->info.flags);
	EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, self->info.state);
	EXPECT_NE(0ull, self->info.capabilities & IPU_CAP_SOFT_RESET);
	/* The card's CAPS: every card offers user queues (interface 1.2). */
	EXPECT_NE(0ull, self->info.capabilities & IPU_CAP_USER_QUEUES);
	/* ... and IPU-Link registers (interface 1.4), on a fabric or not. */
	EXPECT_NE(0ull, self->info.capabilities & IPU_CAP_LINKS);
	/* ... and health and telemetry registers (interface 1.6). */
	EXPECT_NE(0ull, self->info.capabilities & IPU_CAP_HEALTH);
	EXPECT_EQ(0ull, self->info.capabilities &
		  ~(uint64_t)(IPU_CAP_SOFT_RESET | IPU_CAP_MSIX | IPU_CAP_QUEUES |
			      IPU_CAP_USER_QUEUES | IPU_CAP_LINKS |
			      IPU_CAP_HEALTH));
	EXPECT_EQ(0, memcmp(zero, self->info.reserved, sizeof(zero)));
	/* NUL terminated strings. */
	EXPECT_GT(sizeof(self->info.serial), strnlen(self->info.serial, sizeof(self->info.serial)));
	EXPECT_GT(sizeof(self->info.driver_version),
		  strnlen(self->info.driver_version, sizeof(self->info.driver_version)));
}

TEST_F(info, pci_identity)
{
	char link[PATH_MAX], pci[PATH_MAX], path[PATH_MAX + 32], buf[64];
	const struct ipu_model *m = self->model;

	IPU_RETURN_IF_SKIPPED();
	snprintf(link, sizeof(link), "/sys/class/ipu/%s/device", self->name);
	ASSERT_NE(NULL, realpath(link, pci));

	snprintf(path, sizeof(path), "%s/class", pci);
	ASSERT_EQ(0, ipu_read_file(path, buf, sizeof(buf)));
	EXPECT_EQ((unsigned long)IPU_PCI_CLASS << 8, strtoul(buf, NULL, 16));
	snprintf(path, sizeof(path), "%s/revision", pci);
	ASSERT_EQ(0, ipu_read_file(path, buf, sizeof(buf)));
	EXPECT_EQ((unsigned long)IPU_PCI_REVISION, strtoul(buf, NULL, 16));
	snprintf(path, sizeof(path), "%s/subsystem_vendor", pci);
	ASSERT_EQ(0, ipu_read_file(path, buf, sizeof(buf)));
	EXPECT_EQ((unsigned long)IPU_PCI_VENDOR_ID, strtoul(buf, NULL, 16));
	snprintf(path, sizeof(path), "%s/subsystem_device", pci);
	ASSERT_EQ(0, ipu_read_file(path, buf, sizeof(buf)));
	EXPECT_EQ((unsigned long)m->id, strtoul(buf, NULL, 16));
}

/* The modelled host link: GC200 Gen4 x16, GC2 and test Gen3 x8. */
static void check_link(struct __test_metadata *_metadata, const char *name,
		       const struct ipu_model *m, const char *which)
{
	char link[PATH_MAX], pci[PATH_MAX], path[PATH_MAX + 32], buf[64];
	char want[32];

	/* Gen3 is 8 GT/s; each later generation doubles it */
	snprintf(want, sizeof(want), "%u.0 GT/s PCIe", 8u << (m->pcie_gen - 3));
	snprintf(link, sizeof(link), "/sys/class/ipu/%s/device", name);
	ASSERT_NE(NULL, realpath(link, pci));
	snprintf(path, sizeof(path), "%s/%s_link_speed", pci, which);
	ASSERT_EQ(0, ipu_read_file(path, buf, sizeof(buf)));
	EXPECT_STREQ(want, buf);
	snprintf(path, sizeof(path), "%s/%s_link_width", pci, which);
	ASSERT_EQ(0, ipu_read_file(path, buf, sizeof(buf)));
	EXPECT_EQ(m->pcie_width, (unsigned int)atoi(buf));
}

TEST_F(info, pcie_link_current)
{
	IPU_RETURN_IF_SKIPPED();
	check_link(_metadata, self->name, self->model, "current");
}

TEST_F(info, pcie_link_max)
{
	/* Speeds above 5 GT/s need the Supported Link Speeds of LNKCAP2. */
	IPU_RETURN_IF_SKIPPED();
	check_link(_metadata, self->name, self->model, "max");
}

TEST_F(info, stable_across_calls)
{
	struct ipu_info again;

	IPU_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, ipu_get_info(self->fd, &again));
	EXPECT_EQ(0, memcmp(&self->info, &again, sizeof(again)));
}

TEST(all_vm_cards_present)
{
	struct ipu_vm_card cards[IPU_TEST_MAX_CARDS];
	int n = ipu_vm_cards(cards, IPU_TEST_MAX_CARDS);
	char name[IPU_TEST_NAME_MAX];

	if (n < 0)
		SKIP(return, "IPU_VM_CARDS is not set");
	ASSERT_LT(0, n);
	for (int i = 0; i < n; i++) {
		EXPECT_EQ(0, ipu_find_card(cards[i].index, name, sizeof(name)))
			TH_LOG("card %d (%s %s) is not bound", cards[i].index,
			       cards[i].model, cards[i].serial);
	}
}

TEST_HARNESS_MAIN
