/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the in-VM kselftests (tests/driver/, tests/card/):
 * finding cards in sysfs, reading attributes, the VM's card list
 * (IPU_VM_CARDS) and the model figures of include/ipu/ipu_models.h.
 */
#ifndef IPU_TEST_H
#define IPU_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "ipu/ipu_hw.h"
#include "ipu/ipu_models.h"
#include "uapi/linux/ipu.h"

#define IPU_TEST_MAX_CARDS	16
#define IPU_TEST_NAME_MAX	32

/*
 * The 6.1 harness runs a test's body even when FIXTURE_SETUP() called SKIP():
 * bodies of fixtures whose setup may skip start with this.
 */
#define IPU_RETURN_IF_SKIPPED() do { \
	if (_metadata->skip) \
		return; \
} while (0)

/*
 * For a FIXTURE_SETUP(): the class device of card @index into @dev (a
 * char array), or the test skipped (returning from the setup) when the card
 * is absent; failed when IPU_VM_CARDS lists it.
 */
#define IPU_FIND_CARD_OR_SKIP(index, dev) do { \
	if (ipu_find_card((index), (dev), sizeof(dev))) { \
		ASSERT_EQ(NULL, ipu_vm_card(index)) \
			TH_LOG("card %d is in IPU_VM_CARDS but not bound", (index)); \
		SKIP(return, "card%d.%s: card %d is absent", (index), \
		     _metadata->name, (index)); \
	} \
} while (0)

/* The per-card variants: card0..card3 of the VM (tools/ipu-vm). */
#define IPU_CARD_VARIANTS(fixture) \
	FIXTURE_VARIANT_ADD(fixture, card0) { .index = 0 }; \
	FIXTURE_VARIANT_ADD(fixture, card1) { .index = 1 }; \
	FIXTURE_VARIANT_ADD(fixture, card2) { .index = 2 }; \
	FIXTURE_VARIANT_ADD(fixture, card3) { .index = 3 }

/* One entry of IPU_VM_CARDS ("index:model:serial,..."). */
struct ipu_vm_card {
	int index;
	char model[16];
	char serial[IPU_SERIAL_MAX];
};

/* Parses IPU_VM_CARDS; returns the number of cards, -1 when it is unset. */
int ipu_vm_cards(struct ipu_vm_card *cards, int max);
/* The IPU_VM_CARDS entry of card @index, or NULL (also when unset). */
const struct ipu_vm_card *ipu_vm_card(int index);

/*
 * Finds the class device ("ipuN") of the card whose card_index is @index.
 * Returns 0, or -1 when no such card is bound.
 */
int ipu_find_card(int index, char *name, size_t len);
/* The class devices present, sorted by N; returns how many (at most max). */
int ipu_list_cards(char names[][IPU_TEST_NAME_MAX], int max);
/* PCI functions with the IPU's vendor and device id. */
int ipu_pci_count(void);

/* Reads /sys/class/ipu/NAME/ATTR without its trailing newline; 0 or -errno. */
int ipu_sysfs_read(const char *name, const char *attr, char *buf, size_t len);
/* Same, parsed as a decimal unsigned number; 0 or -errno (-EINVAL). */
int ipu_sysfs_u32(const char *name, const char *attr, uint32_t *val);
/* Reads any sysfs/proc file without its trailing newline; 0 or -errno. */
int ipu_read_file(const char *path, char *buf, size_t len);
/* Writes a string to a sysfs file; 0 or -errno. */
int ipu_write_file(const char *path, const char *s);

/* Opens /dev/NAME; the fd or -1 with errno. */
int ipu_open_name(const char *name, int flags);
/* GET_INFO with argsz = sizeof(*info); 0 or -errno. */
int ipu_get_info(int fd, struct ipu_info *info);
/* RESET with the given flags and timeout; 0 or -errno. */
int ipu_reset(int fd, uint32_t flags, uint32_t timeout_ms,
	      struct ipu_reset *out);

/*
 * Waits until sysfs shows @count class devices, each with its /dev node, and
 * every one is past "initializing". 0, or -1 on timeout.
 */
int ipu_wait_cards(int count, int timeout_ms);
/* Waits until the state attribute of NAME reads @state; 0 or -1. */
int ipu_wait_state(const char *name, const char *state, int timeout_ms);

/* Monotonic milliseconds. */
long long ipu_now_ms(void);

/* Opens /dev/ipuN of the card with card_index @index; the fd or -1. */
int ipu_test_open_card(int index, int flags);
/* ATTACH with @flags: the queue number, or -errno. */
int ipu_test_attach(int fd, uint32_t flags);
/* DETACH: 0 or -errno. */
int ipu_test_detach(int fd);
/*
 * SUBMIT @c (argsz set here): -errno, or the completion status of a
 * synchronous command, 0 for an ASYNC one (its seq in c->seq).
 */
int ipu_test_submit(int fd, struct ipu_cmd *c);
/*
 * SUBMIT of opcode @op with @flags on @handle, @len bytes at @p: as
 * ipu_test_submit(); the command's seq in *@seq unless it is NULL.
 */
int ipu_test_xfer(int fd, uint32_t op, uint32_t flags, uint32_t handle,
		  void *p, uint64_t len, uint64_t *seq);
/*
 * WAIT for @seq (or any, with IPU_WAIT_FLAG_ANY in @flags) up to @ms: the
 * command's status or -errno; the reply in *@out unless it is NULL.
 */
int ipu_test_wait_seq(int fd, uint64_t seq, uint32_t flags, uint32_t ms,
		      struct ipu_wait *out);
/* BUF_PIN @size bytes at @p: the buffer handle or -errno. */
int ipu_test_buf_pin(int fd, void *p, uint64_t size);
/* BUF_FREE handle @h: 0 or -errno. */
int ipu_test_buf_free(int fd, uint32_t h);
/*
 * Waits (5 s) until the driver's debugfs counters of card @index (pinned and
 * allocated pages, buffers, commands) are back to zero: 0, or -1 with the
 * counters on stderr.
 */
int ipu_test_no_leaks(int index);

/* A kernel uevent socket (NETLINK_KOBJECT_UEVENT, group 1, a 1 MiB receive
 * buffer so that bursts are not lost): the fd, or -1 with errno. */
int ipu_test_uevent_open(void);

#endif /* IPU_TEST_H */
