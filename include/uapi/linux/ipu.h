/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User API of the IPU driver (ipu.ko): the single mirror of docs/uapi.md.
 *
 * Conventions (all ioctls):
 *  - The argument starts with __u32 argsz and __u32 flags. argsz is the size
 *    of the caller's struct; the kernel accepts any argsz from the struct's
 *    first published size up to 4096 bytes. Bytes the kernel does not know
 *    must be zero (else -E2BIG); a smaller argsz than the first published
 *    size is -EINVAL. Output is written for min(argsz, kernel size) bytes.
 *  - Unknown flags, or non-zero reserved fields, are -EINVAL.
 *  - A bad pointer is -EFAULT; an unknown ioctl is -ENOTTY.
 *  - Ioctl numbers are never reused; new versions of a struct grow at the
 *    end and keep the number.
 */
#ifndef _UAPI_LINUX_IPU_H
#define _UAPI_LINUX_IPU_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define IPU_API_VERSION_MAJOR	1
#define IPU_API_VERSION_MINOR	0
#define IPU_API_VERSION		((IPU_API_VERSION_MAJOR << 16) | \
				 IPU_API_VERSION_MINOR)

#define IPU_IOCTL_MAGIC		0xB8
#define IPU_ARGSZ_MAX		4096

/* Card states, as reported by GET_INFO and sysfs "state". */
#define IPU_DEV_STATE_INITIALIZING	0	/* "initializing" */
#define IPU_DEV_STATE_READY		1	/* "ready" */
#define IPU_DEV_STATE_RESETTING		2	/* "resetting" */
#define IPU_DEV_STATE_FAILED		3	/* "failed": needs a reset */

#define IPU_SERIAL_MAX		32
#define IPU_VERSION_STR_MAX	16

/**
 * struct ipu_info - IPU_IOCTL_GET_INFO: identity and capabilities
 * @argsz:         in: sizeof(struct ipu_info); out: bytes written
 * @flags:         in: must be 0
 * @api_version:   out: IPU_API_VERSION of the driver
 * @hw_version:    out: card interface version (major << 16 | minor)
 * @model:         out: IPU_MODEL_* chip model (1 GC2, 2 GC200, 0x10 test)
 * @card_index:    out: the card's index
 * @tiles:         out: number of tiles
 * @tile_memory:   out: bytes of SRAM per tile
 * @threads_per_tile: out: worker threads per tile
 * @link_ports:    out: IPU-Link ports
 * @fw_version:    out: firmware version (major << 16 | minor << 8 | patch)
 * @clock_khz:     out: tile clock in kHz
 * @state:         out: IPU_DEV_STATE_*
 * @reset_count:   out: completed resets since power-on
 * @capabilities:  out: card CAPS register
 * @serial:        out: board serial, NUL terminated
 * @driver_version: out: driver version string, NUL terminated
 * @reserved:      in: must be 0; out: 0
 */
struct ipu_info {
	__u32 argsz;
	__u32 flags;
	__u32 api_version;
	__u32 hw_version;
	__u32 model;
	__u32 card_index;
	__u32 tiles;
	__u32 tile_memory;
	__u32 threads_per_tile;
	__u32 link_ports;
	__u32 fw_version;
	__u32 clock_khz;
	__u32 state;
	__u32 reset_count;
	__u64 capabilities;
	char serial[IPU_SERIAL_MAX];
	char driver_version[IPU_VERSION_STR_MAX];
	__u64 reserved[4];
};

/* Do not wait for the card to become ready again. */
#define IPU_RESET_FLAG_NOWAIT	(1u << 0)
#define IPU_RESET_FLAGS_ALL	IPU_RESET_FLAG_NOWAIT

/**
 * struct ipu_reset - IPU_IOCTL_RESET: soft-reset the card
 * @argsz:       in: sizeof(struct ipu_reset); out: bytes written
 * @flags:       in: IPU_RESET_FLAG_*
 * @timeout_ms:  in: how long to wait for READY, 0 for the driver's default
 *               (2000 ms); at most 60000
 * @state:       out: IPU_DEV_STATE_* after the reset (or when it started,
 *               with IPU_RESET_FLAG_NOWAIT)
 * @reset_count: out: completed resets since power-on
 * @reserved:    in: must be 0
 *
 * The file must be open for writing (else -EPERM). Returns -ETIMEDOUT when
 * the card does not become ready in time (state is then "failed"), -EINTR
 * when a signal arrived while waiting (the reset goes on).
 */
struct ipu_reset {
	__u32 argsz;
	__u32 flags;
	__u32 timeout_ms;
	__u32 state;
	__u32 reset_count;
	__u32 reserved;
};

#define IPU_IOCTL_GET_INFO	_IO(IPU_IOCTL_MAGIC, 0x00)
#define IPU_IOCTL_RESET		_IO(IPU_IOCTL_MAGIC, 0x01)

#endif /* _UAPI_LINUX_IPU_H */
