// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_ioctl_test: the argument conventions of every ioctl (docs/uapi.md):
 * argsz limits, copy_struct_from_user() tail rules, flags, reserved fields,
 * bad pointers down to the byte at a page boundary, unknown ioctls and the
 * RESET-specific checks. Runs on the first card.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"

#define PAGE 4096

FIXTURE(args) {
	char name[IPU_TEST_NAME_MAX];
	int fd;
	unsigned char *map;	/* 3 pages: 2 read-write, then PROT_NONE */
	unsigned char *guard;	/* the PROT_NONE page */
};

/* The ioctl under test: GET_INFO or RESET, with its struct's layout. */
FIXTURE_VARIANT(args) {
	unsigned long cmd;
	size_t size;			/* kernel struct size */
	size_t first_size;		/* its first published (1.0) size */
	size_t reserved_off;		/* reserved input field(s) */
	size_t reserved_len;
	uint32_t bad_flags[3];		/* flag bits the ioctl rejects */
};

FIXTURE_VARIANT_ADD(args, get_info) {
	.cmd = IPU_IOCTL_GET_INFO,
	.size = sizeof(struct ipu_info),
	.first_size = sizeof(struct ipu_info),
	.reserved_off = offsetof(struct ipu_info, reserved),
	.reserved_len = sizeof(((struct ipu_info *)0)->reserved),
	.bad_flags = { 1u << 0, 1u << 1, 1u << 31 },
};

FIXTURE_VARIANT_ADD(args, reset) {
	.cmd = IPU_IOCTL_RESET,
	.size = sizeof(struct ipu_reset),
	.first_size = offsetof(struct ipu_reset, holder_pid),	/* 1.3 grew it */
	.reserved_off = offsetof(struct ipu_reset, reserved),
	.reserved_len = sizeof(((struct ipu_reset *)0)->reserved),
	.bad_flags = { 1u << 2, 1u << 3, 1u << 31 },	/* 1.3: FORCE is 1 << 1 */
};

FIXTURE_SETUP(args)
{
	char names[IPU_TEST_MAX_CARDS][IPU_TEST_NAME_MAX];

	self->fd = -1;
	self->map = MAP_FAILED;
	ASSERT_LT(0, ipu_list_cards(names, IPU_TEST_MAX_CARDS)) TH_LOG("no IPU card");
	snprintf(self->name, sizeof(self->name), "%s", names[0]);
	self->fd = ipu_open_name(self->name, O_RDWR);
	ASSERT_LE(0, self->fd);

	self->map = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->map);
	self->guard = self->map + 2 * PAGE;
	ASSERT_EQ(0, mprotect(self->guard, PAGE, PROT_NONE));
	memset(self->map, 0, 2 * PAGE);
}

FIXTURE_TEARDOWN(args)
{
	if (self->map != MAP_FAILED)
		munmap(self->map, 3 * PAGE);
	if (self->fd >= 0)
		close(self->fd);
}

/* A zeroed argument of argsz bytes at @p; returns 0 or errno. */
static int call(int fd, unsigned long cmd, void *p, uint32_t argsz)
{
	memcpy(p, &argsz, sizeof(argsz));
	return ioctl(fd, cmd, p) ? errno : 0;
}

static uint32_t argsz_of(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

TEST_F(args, exact_size_ok)
{
	ASSERT_EQ(0, call(self->fd, variant->cmd, self->map, variant->size));
	EXPECT_EQ(variant->size, argsz_of(self->map));
}

TEST_F(args, argsz_zero)
{
	EXPECT_EQ(EINVAL, call(self->fd, variant->cmd, self->map, 0));
}

TEST_F(args, argsz_too_small)
{
	EXPECT_EQ(EINVAL, call(self->fd, variant->cmd, self->map, 4));
	EXPECT_EQ(EINVAL, call(self->fd, variant->cmd, self->map, 8));
	EXPECT_EQ(EINVAL, call(self->fd, variant->cmd, self->map,
			       variant->first_size - 1));
}

TEST_F(args, argsz_above_max)
{
	EXPECT_EQ(E2BIG, call(self->fd, variant->cmd, self->map, IPU_ARGSZ_MAX + 1));
	EXPECT_EQ(E2BIG, call(self->fd, variant->cmd, self->map, 2 * PAGE));
	EXPECT_EQ(E2BIG, call(self->fd, variant->cmd, self->map, UINT32_MAX));
}

TEST_F(args, larger_zero_tail_ok)
{
	/* A newer user space's struct: the kernel writes back its own size. */
	ASSERT_EQ(0, call(self->fd, variant->cmd, self->map, variant->size + 8));
	EXPECT_EQ(variant->size, argsz_of(self->map));
	for (size_t i = variant->size; i < variant->size + 8; i++) {
		ASSERT_EQ(0, self->map[i]) TH_LOG("byte %zu written", i);
	}

	memset(self->map, 0, 2 * PAGE);
	ASSERT_EQ(0, call(self->fd, variant->cmd, self->map, IPU_ARGSZ_MAX));
	EXPECT_EQ(variant->size, argsz_of(self->map));
}

TEST_F(args, larger_nonzero_tail_e2big)
{
	self->map[variant->size] = 1;
	EXPECT_EQ(E2BIG, call(self->fd, variant->cmd, self->map, variant->size + 8));
	self->map[variant->size] = 0;

	self->map[IPU_ARGSZ_MAX - 1] = 0x80;
	EXPECT_EQ(E2BIG, call(self->fd, variant->cmd, self->map, IPU_ARGSZ_MAX));
	/* ... but a byte past argsz is not the kernel's business. */
	EXPECT_EQ(0, call(self->fd, variant->cmd, self->map, IPU_ARGSZ_MAX - 1));
}

TEST_F(args, unknown_flags)
{
	for (int i = 0; i < 3; i++) {
		uint32_t flags = variant->bad_flags[i];

		memset(self->map, 0, variant->size);
		memcpy(self->map + 4, &flags, sizeof(flags));
		EXPECT_EQ(EINVAL, call(self->fd, variant->cmd, self->map, variant->size))
			TH_LOG("flags %#x", flags);
	}
}

TEST_F(args, reserved_nonzero)
{
	for (size_t i = 0; i < variant->reserved_len; i++) {
		memset(self->map, 0, variant->size);
		self->map[variant->reserved_off + i] = 0x01;
		EXPECT_EQ(EINVAL, call(self->fd, variant->cmd, self->map, variant->size))
			TH_LOG("reserved byte %zu", i);
	}
}

TEST_F(args, null_pointer)
{
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, variant->cmd, NULL));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(args, unmapped_pointer)
{
	void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p, PAGE));
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, variant->cmd, p));
	EXPECT_EQ(EFAULT, errno);
	/* The guard page itself. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, variant->cmd, self->guard));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(args, read_only_mapping)
{
	/* Readable but not writable: the write back must fail cleanly. */
	void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t argsz = variant->size;

	ASSERT_NE(MAP_FAILED, p);
	memcpy(p, &argsz, sizeof(argsz));
	ASSERT_EQ(0, mprotect(p, PAGE, PROT_READ));
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, variant->cmd, p));
	EXPECT_EQ(EFAULT, errno);
	munmap(p, PAGE);
}

TEST_F(args, ends_at_page_end_ok)
{
	unsigned char *p = self->guard - variant->size;

	ASSERT_EQ(0, call(self->fd, variant->cmd, p, variant->size));
	EXPECT_EQ(variant->size, argsz_of(p));
}

TEST_F(args, crosses_into_guard_efault)
{
	/* The struct overlaps the PROT_NONE page by 4 bytes. */
	EXPECT_EQ(EFAULT, call(self->fd, variant->cmd,
			       self->guard - variant->size + 4, variant->size));
	/* The kernel's part fits, the zero tail argsz announces does not. */
	EXPECT_EQ(EFAULT, call(self->fd, variant->cmd,
			       self->guard - variant->size, variant->size + 8));
}

TEST_F(args, argsz_itself_unreadable)
{
	unsigned char *p = self->guard - 2;

	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, variant->cmd, p));
	EXPECT_EQ(EFAULT, errno);
}

FIXTURE(dev) {
	char name[IPU_TEST_NAME_MAX];
	int fd;
};

FIXTURE_SETUP(dev)
{
	char names[IPU_TEST_MAX_CARDS][IPU_TEST_NAME_MAX];

	self->fd = -1;
	ASSERT_LT(0, ipu_list_cards(names, IPU_TEST_MAX_CARDS)) TH_LOG("no IPU card");
	snprintf(self->name, sizeof(self->name), "%s", names[0]);
	self->fd = ipu_open_name(self->name, O_RDWR);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(dev, unknown_ioctl_enotty)
{
	static const unsigned long cmds[] = {
		_IO(IPU_IOCTL_MAGIC, 0x0e),	/* 0x02..0x0a: API 1.1, 0x0b: 1.2, 0x0c: 1.5, 0x0d: 1.6 */
		_IO(IPU_IOCTL_MAGIC, 0x7f),
		_IO(IPU_IOCTL_MAGIC, 0xff),
		_IOWR(IPU_IOCTL_MAGIC, 0x00, struct ipu_info),	/* size encoded */
		_IOW(IPU_IOCTL_MAGIC, 0x01, struct ipu_reset),
		_IO('x', 0x00),
	};
	struct ipu_info info = { .argsz = sizeof(info) };

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, cmds[i], &info)) TH_LOG("cmd %#lx", cmds[i]);
		EXPECT_EQ(ENOTTY, errno) TH_LOG("cmd %#lx", cmds[i]);
	}
}

TEST_F(dev, get_info_ignores_output_fields)
{
	struct ipu_info info;

	/* Garbage in the out fields is fine; only flags/reserved are inputs. */
	memset(&info, 0xa5, sizeof(info));
	info.argsz = sizeof(info);
	info.flags = 0;
	memset(info.reserved, 0, sizeof(info.reserved));
	ASSERT_EQ(0, ioctl(self->fd, IPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ((uint32_t)IPU_API_VERSION_MAJOR, info.api_version >> 16);
	EXPECT_EQ(0u, info.flags);
	EXPECT_EQ(0ull, info.reserved[0] | info.reserved[1] | info.reserved[2]);
}

TEST_F(dev, reset_read_only_eperm)
{
	struct ipu_reset r = { .argsz = sizeof(r) };
	int fd = ipu_open_name(self->name, O_RDONLY);

	ASSERT_LE(0, fd);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, IPU_IOCTL_RESET, &r));
	EXPECT_EQ(EPERM, errno);
	/* GET_INFO works on the same file. */
	EXPECT_EQ(0, ipu_get_info(fd, &(struct ipu_info){ 0 }));
	close(fd);
}

TEST_F(dev, reset_timeout_limit)
{
	EXPECT_EQ(-EINVAL, ipu_reset(self->fd, 0, 60001, NULL));
	EXPECT_EQ(-EINVAL, ipu_reset(self->fd, 0, UINT32_MAX, NULL));
	EXPECT_EQ(0, ipu_reset(self->fd, 0, 60000, NULL));
}

TEST_F(dev, reset_output_fields_ignored)
{
	struct ipu_reset r = {
		.argsz = sizeof(r),
		.state = 0xdead,
		.reset_count = 0xbeef,
	};

	ASSERT_EQ(0, ioctl(self->fd, IPU_IOCTL_RESET, &r));
	EXPECT_EQ((uint32_t)IPU_DEV_STATE_READY, r.state);
	EXPECT_NE(0xbeefu, r.reset_count);
	EXPECT_EQ(0u, r.reserved);
	/* 1.3: the holder fields are outputs only, 0 when nobody holds it. */
	r.holder_pid = 1234;
	strcpy(r.holder_comm, "garbage");
	ASSERT_EQ(0, ioctl(self->fd, IPU_IOCTL_RESET, &r));
	EXPECT_EQ(0, r.holder_pid);
	EXPECT_EQ('\0', r.holder_comm[0]);
}

TEST_HARNESS_MAIN
