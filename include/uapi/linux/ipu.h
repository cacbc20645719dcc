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
#define IPU_API_VERSION_MINOR	8
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
 * @generation:    out (API 1.8; input ignored): the card's reset
 *                 generation, advanced by every RESET and recovery; buffers
 *                 of an older one are stale (-EIO, mappings SIGBUS)
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
	__u64 generation;
	__u64 reserved[3];
};

/* Do not wait for the card to become ready again. */
#define IPU_RESET_FLAG_NOWAIT	(1u << 0)
/* API 1.3: reset a card another file is attached to (its holder). */
#define IPU_RESET_FLAG_FORCE	(1u << 1)
#define IPU_RESET_FLAGS_ALL	(IPU_RESET_FLAG_NOWAIT | IPU_RESET_FLAG_FORCE)

#define IPU_COMM_MAX		16

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
 * @holder_pid:  out (API 1.3): with -EBUSY, the process (thread group id)
 *               holding the card; 0 otherwise. Input ignored.
 * @reserved2:   in: must be 0
 * @holder_comm: out (API 1.3): with -EBUSY, that process's command name,
 *               NUL terminated. Input ignored.
 *
 * The file must be open for writing (else -EPERM). A card that another
 * file is attached to is not reset: -EBUSY, with the holder copied out
 * (also for the 1.0 argsz: then only argsz is written), unless
 * IPU_RESET_FLAG_FORCE; the holder's commands in flight then complete with
 * IPU_STATUS_RESET and its graph is gone. Returns -ETIMEDOUT when the card
 * does not become ready in time (state is then "failed"), -EINTR when a
 * signal arrived while waiting (the reset goes on).
 */
struct ipu_reset {
	__u32 argsz;
	__u32 flags;
	__u32 timeout_ms;
	__u32 state;
	__u32 reset_count;
	__u32 reserved;
	__s32 holder_pid;
	__u32 reserved2;
	char holder_comm[IPU_COMM_MAX];
};

#define IPU_IOCTL_GET_INFO	_IO(IPU_IOCTL_MAGIC, 0x00)
#define IPU_IOCTL_RESET		_IO(IPU_IOCTL_MAGIC, 0x01)

/* ---- API 1.1: contexts, buffers and commands (docs/uapi.md) ---- */

/* Fail at once with -EBUSY instead of waiting for the card. */
#define IPU_ATTACH_FLAG_NONBLOCK	(1u << 0)
#define IPU_ATTACH_FLAGS_ALL		IPU_ATTACH_FLAG_NONBLOCK

/**
 * struct ipu_attach - IPU_IOCTL_ATTACH / IPU_IOCTL_DETACH
 * @argsz:    in: sizeof(struct ipu_attach)
 * @flags:    in: IPU_ATTACH_FLAG_* (ATTACH), 0 (DETACH)
 * @queue:    out: the command queue the context was given
 * @reserved: in: must be 0
 *
 * ATTACH makes this file the card's one attached context (exclusive), with a
 * command queue of its own; it waits (interruptibly) while another context
 * holds the card, or fails with -EBUSY under IPU_ATTACH_FLAG_NONBLOCK.
 * Commands and buffers need an attached context (else -ENOTCONN). DETACH (or
 * close) waits for the context's commands, frees its buffers and lets the
 * next context in. The file must be open for writing (-EPERM).
 */
struct ipu_attach {
	__u32 argsz;
	__u32 flags;
	__u32 queue;
	__u32 reserved;
};

/* BUF_ALLOC: the card's DMA buffer, mmap-able at @mmap_offset. */
/* BUF_PIN: user memory [user_addr, user_addr + size), pinned. */
/**
 * struct ipu_buf - IPU_IOCTL_BUF_ALLOC / IPU_IOCTL_BUF_PIN / IPU_IOCTL_BUF_FREE
 * @argsz:       in: sizeof(struct ipu_buf)
 * @flags:       in: must be 0
 * @handle:      out (ALLOC, PIN) / in (FREE): the buffer, never 0
 * @reserved0:   in: must be 0
 * @size:        in (ALLOC, PIN): bytes, > 0, at most 1 GiB
 * @user_addr:   in (PIN): start of the user memory (any alignment)
 * @mmap_offset: out (ALLOC): offset to mmap() the buffer at on this file
 * @reserved:    in: must be 0
 *
 * ALLOC allocates pages the card can DMA to and from (zeroed). PIN pins the
 * user pages for as long as the buffer lives (pin_user_pages, FOLL_LONGTERM),
 * accounted against RLIMIT_MEMLOCK (-ENOMEM beyond it unless CAP_IPC_LOCK).
 * FREE of a buffer still used by a command in flight fails with -EBUSY.
 * Buffers belong to the attached context and die with it.
 */
struct ipu_buf {
	__u32 argsz;
	__u32 flags;
	__u32 handle;
	__u32 reserved0;
	__u64 size;
	__u64 user_addr;
	__u64 mmap_offset;
	__u64 reserved[2];
};

/* Commands (struct ipu_cmd.opcode): what the card's queue does. */
#define IPU_CMD_LOAD		1	/* load the graph binary in the data */
#define IPU_CMD_WRITE		2	/* data -> host-visible tensor @handle */
#define IPU_CMD_READ		3	/* host-visible tensor @handle -> data */
#define IPU_CMD_RUN		4	/* run program @handle @count times */
#define IPU_CMD_FENCE		5	/* completes after all earlier commands */
#define IPU_CMD_ABORT		6	/* stops the RUN in progress */
#define IPU_CMD_STREAM_BIND	7	/* stream @handle <-> ring in @buf */

/* Return at once; wait for the result with IPU_IOCTL_WAIT (@seq). */
#define IPU_CMD_FLAG_ASYNC	(1u << 0)
/*
 * LOAD only (API 1.4, a card of interface 1.3 or later): commit all tile
 * memory during the load, so the first RUN does not pay for it. Another
 * opcode with it is -EINVAL; an older card, -EOPNOTSUPP.
 */
#define IPU_CMD_FLAG_LOAD_COMMIT (1u << 1)
/*
 * API 1.7: on the group leader's file, RUN or ABORT on every member of the
 * group with one completion on the leader's file (docs/uapi.md "Group
 * commands"). Another opcode, or a file that leads no group, is -EINVAL.
 */
#define IPU_CMD_FLAG_GROUP	(1u << 2)
/* The API minor version (of major 1) that added IPU_CMD_FLAG_GROUP. */
#define IPU_API_MINOR_GROUP_CMDS	7
#define IPU_CMD_FLAGS_ALL	(IPU_CMD_FLAG_ASYNC | IPU_CMD_FLAG_LOAD_COMMIT | \
				 IPU_CMD_FLAG_GROUP)

/* Completion status (struct ipu_cmd.status, struct ipu_wait.status) */
#define IPU_STATUS_OK			0
#define IPU_STATUS_INVALID_OPCODE	1
#define IPU_STATUS_INVALID_FIELD	2
#define IPU_STATUS_DMA_ERROR		3
#define IPU_STATUS_INVALID_SGL		4
#define IPU_STATUS_NO_GRAPH		5
#define IPU_STATUS_LOAD_FAILED		6
#define IPU_STATUS_BAD_HANDLE		7
#define IPU_STATUS_OUT_OF_RANGE		8
#define IPU_STATUS_ACCESS		9
#define IPU_STATUS_ABORTED		10
#define IPU_STATUS_PROGRAM_ABORT	11
#define IPU_STATUS_RUN_FAILED		12
#define IPU_STATUS_TOO_LARGE		13
#define IPU_STATUS_INTERNAL		14
#define IPU_STATUS_UNWRITTEN_INPUT	15	/* 1.4: detail = the tensor handle */
#define IPU_STATUS_LINK_DOWN		16	/* 1.6: detail = index << 8 | port */
#define IPU_STATUS_GROUP_BUSY		17	/* 1.6: detail = fabric index */
#define IPU_STATUS_SYNC_TIMEOUT		18	/* 1.6: a member missed a sync */
#define IPU_STATUS_RESET		64	/* the card was reset meanwhile */
/* 1.7: a group command not queued on member @member: detail = errno */
#define IPU_STATUS_NOT_SUBMITTED	65
#define IPU_STATUS_HUNG			66	/* 1.8: recovered; detail IPU_HUNG_* */

/* Why the driver recovered the card (IPU_STATUS_HUNG detail, uevent). */
#define IPU_HUNG_CARD			1	/* heartbeat stopped */
#define IPU_HUNG_COMMAND		2	/* a command stalled PROGRESS */
#define IPU_HUNG_FATAL			3	/* the card entered FAILED */
#define IPU_HUNG_CORRUPT		4	/* a corrupt completion entry */

#define IPU_LOAD_MSG_MAX	256

/**
 * struct ipu_run_counters - what a RUN did, by phase (API 1.2)
 *
 * The card's run record (docs/hw-interface.md "Run records"): modeled
 * cycles of each phase (they add up to the command's cycles), program
 * steps, compute sets, exchanges and syncs run, bytes exchanged between
 * tiles and moved by host streams. Appended to struct ipu_cmd and struct
 * ipu_wait: a caller with the 1.1 argsz does not get it.
 */
struct ipu_run_counters {
	__u64 cycles_compute;
	__u64 cycles_sync;
	__u64 cycles_exchange;
	__u64 cycles_stream;
	__u64 steps;
	__u64 compute_sets;
	__u64 exchanges;
	__u64 syncs;
	__u64 exchange_bytes;
	__u64 stream_bytes_h2d;
	__u64 stream_bytes_d2h;
};

/**
 * struct ipu_cmd - IPU_IOCTL_SUBMIT: queue one command on the context's queue
 * @argsz:      in: sizeof(struct ipu_cmd)
 * @flags:      in: IPU_CMD_FLAG_*
 * @opcode:     in: IPU_CMD_*
 * @handle:     in: tensor handle (WRITE, READ) or program index (RUN)
 * @offset:     in: byte offset in the tensor (WRITE, READ); LOAD (1.6):
 *              the group's member mask by fabric index, 0 = single IPU
 * @length:     in: bytes of data (LOAD, WRITE, READ), at most 4 GiB - 1
 * @user_ptr:   in: the data in user memory (pinned for the command), or 0
 *              when @buf names a buffer
 * @buf:        in: buffer handle (BUF_ALLOC or BUF_PIN), or 0
 * @count:      in: RUN: times to run, 0 = once
 * @buf_offset: in: where the data starts in @buf
 * @msg_ptr:    in: LOAD: user buffer of IPU_LOAD_MSG_MAX bytes for the
 *              card's message on IPU_STATUS_LOAD_FAILED, or 0
 * @seq:        out: the command's sequence number in this context
 * @status:     out (not ASYNC): IPU_STATUS_*
 * @detail:     out (not ASYNC): status detail (docs/hw-interface.md);
 *              LOAD OK (1.4): tile memory bytes committed, low 32 bits
 *              (@detail2: high 32 bits)
 * @detail2:    out (not ASYNC): status detail
 * @reserved0:  in: must be 0
 * @host_ns:    out (not ASYNC): time the card spent on the command
 * @cycles:     out (not ASYNC): RUN: modeled chip cycles
 * @reserved:   in: must be 0
 * @run:        out (not ASYNC, 1.2): RUN: what the run did (zero for other
 *              commands, and on a card without run records)
 * @member:     out (not ASYNC, 1.7): IPU_CMD_FLAG_GROUP: the member the
 *              status came from (0 = leader, k = GROUP_ATTACH's fds[k-1]);
 *              in: must be 0
 * @reserved1:  in: must be 0
 *
 * Returns 0 once the command is queued (ASYNC) or completed; a failing
 * command is not an ioctl error: look at @status. Ioctl errors: -ENOTCONN
 * (not attached), -EINVAL (fields), -ENOENT (no such buffer), -ERANGE (data
 * beyond the buffer), -EFAULT, -ENOMEM, -EAGAIN (ASYNC: IPU_MAX_INFLIGHT
 * commands in flight), -EINTR (waiting: the command goes on; WAIT for @seq),
 * -EIO (the card failed or was reset).
 */
struct ipu_cmd {
	__u32 argsz;
	__u32 flags;
	__u32 opcode;
	__u32 handle;
	__u64 offset;
	__u64 length;
	__u64 user_ptr;
	__u32 buf;
	__u32 count;
	__u64 buf_offset;
	__u64 msg_ptr;
	__u64 seq;
	__u32 status;
	__u32 detail;
	__u32 detail2;
	__u32 reserved0;
	__u64 host_ns;
	__u64 cycles;
	__u64 reserved[2];
	struct ipu_run_counters run;	/* 1.2 */
	__u32 member;			/* 1.7 */
	__u32 reserved1;
};

#define IPU_MAX_INFLIGHT	256

/* Wait for any completed command of the context instead of @seq. */
#define IPU_WAIT_FLAG_ANY	(1u << 0)
#define IPU_WAIT_FLAGS_ALL	IPU_WAIT_FLAG_ANY

/**
 * struct ipu_wait - IPU_IOCTL_WAIT: collect an ASYNC command's completion
 * @argsz:      in: sizeof(struct ipu_wait)
 * @flags:      in: IPU_WAIT_FLAG_*
 * @seq:        in: the command (from IPU_IOCTL_SUBMIT); out: with
 *              IPU_WAIT_FLAG_ANY, the command collected
 * @timeout_ms: in: 0 = do not wait, U32_MAX = forever
 * @status:     out: IPU_STATUS_*
 * @detail:     out
 * @detail2:    out
 * @host_ns:    out
 * @cycles:     out
 * @reserved:   in: must be 0
 * @run:        out (1.2): RUN: what the run did (see struct ipu_cmd)
 * @member:     out (1.7): a group command's cause (see struct ipu_cmd); in: 0
 * @reserved1:  in: must be 0
 *
 * A completion is collected once. -ETIMEDOUT: not complete in time;
 * -ENOENT: no such command in flight (or already collected); -EINTR.
 * poll() reports POLLIN while completions wait to be collected.
 */
struct ipu_wait {
	__u32 argsz;
	__u32 flags;
	__u64 seq;
	__u32 timeout_ms;
	__u32 status;
	__u32 detail;
	__u32 detail2;
	__u64 host_ns;
	__u64 cycles;
	__u64 reserved[2];
	struct ipu_run_counters run;	/* 1.2 */
	__u32 member;			/* 1.7 */
	__u32 reserved1;
};

/**
 * struct ipu_eventfd - IPU_IOCTL_SET_EVENTFD: signal an eventfd on completions
 * @argsz:    in: sizeof(struct ipu_eventfd)
 * @flags:    in: must be 0
 * @fd:       in: an eventfd, or -1 to stop
 * @reserved: in: must be 0
 */
struct ipu_eventfd {
	__u32 argsz;
	__u32 flags;
	__s32 fd;
	__u32 reserved;
};

#define IPU_IOCTL_ATTACH	_IO(IPU_IOCTL_MAGIC, 0x02)
#define IPU_IOCTL_DETACH	_IO(IPU_IOCTL_MAGIC, 0x03)
#define IPU_IOCTL_BUF_ALLOC	_IO(IPU_IOCTL_MAGIC, 0x04)
#define IPU_IOCTL_BUF_PIN	_IO(IPU_IOCTL_MAGIC, 0x05)
#define IPU_IOCTL_BUF_FREE	_IO(IPU_IOCTL_MAGIC, 0x06)
#define IPU_IOCTL_SUBMIT	_IO(IPU_IOCTL_MAGIC, 0x07)
#define IPU_IOCTL_WAIT		_IO(IPU_IOCTL_MAGIC, 0x08)
#define IPU_IOCTL_SET_EVENTFD	_IO(IPU_IOCTL_MAGIC, 0x09)
#define IPU_IOCTL_NULL		_IO(IPU_IOCTL_MAGIC, 0x0a)	/* no-op, for latency baselines */

/* ---- API 1.2: the user queue (docs/uapi.md "User queue") ---- */

/**
 * struct ipu_uqueue - IPU_IOCTL_UQUEUE: the context's user queue
 * @argsz:     in: sizeof(struct ipu_uqueue)
 * @flags:     in: must be 0
 * @entries:   out: entries per ring (a power of two)
 * @queue:     out: the card's queue number
 * @sq_offset: out: mmap() offset of the submission ring (entries x 64 bytes,
 *             whole pages, read/write)
 * @cq_offset: out: mmap() offset of the completion ring (entries x 32 bytes,
 *             whole pages, read only)
 * @db_offset: out: mmap() offset of the doorbell page (4096 bytes; SQ tail
 *             at 0, CQ head at 4, 32-bit stores)
 * @rec_offset: out: mmap() offset of the run record ring (entries x 128
 *             bytes, struct ipu_run_record of ipu/ipu_hw.h, read only)
 * @reserved:  in: must be 0
 *
 * Creates (or after a card reset, re-creates) the attached context's queue
 * that user space drives itself: RUN, FENCE and ABORT in the card's entry
 * format (ipu/ipu_hw.h). -EEXIST while one is running.
 */
struct ipu_uqueue {
	__u32 argsz;
	__u32 flags;
	__u32 entries;
	__u32 queue;
	__u64 sq_offset;
	__u64 cq_offset;
	__u64 db_offset;
	__u64 rec_offset;
	__u64 reserved[1];
};

#define IPU_IOCTL_UQUEUE	_IO(IPU_IOCTL_MAGIC, 0x0b)

/* ---- API 1.5: IPU-Links (docs/uapi.md "Links") ---- */

/*
 * Link states (struct ipu_link.state; sysfs links/portP/state). The driver
 * pairs each with the card's code (ipu_hw.h's IPU_LINK_STATE_*) by a
 * static_assert.
 */
#define IPU_LINKSTATE_DOWN		0	/* "down" */
#define IPU_LINKSTATE_TRAINING		1	/* "training" */
#define IPU_LINKSTATE_UP		2	/* "up" */
#define IPU_LINKSTATE_FAILED		3	/* "failed": an uncorrectable error */

/* struct ipu_link.flags: the port is cabled to a peer. */
#define IPU_LINK_FLAG_WIRED		(1u << 0)

/**
 * struct ipu_link - one IPU-Link port of the card (IPU_IOCTL_LINKS record)
 * @port:          the port, 0..link_ports-1
 * @state:         IPU_LINKSTATE_*
 * @flags:         IPU_LINK_FLAG_*
 * @peer_index:    the peer's fabric index, -1 when not wired
 * @peer_port:     the peer's port, -1 when not wired
 * @generation:    link generation while up, else 0
 * @lanes:         lanes while up, else 0
 * @fom:           figure of merit (0..255) of the last training, 0 if never
 * @errors_corr:   correctable errors since power-on (saturating)
 * @errors_uncorr: uncorrectable errors since power-on (saturating)
 * @peer_serial:   the peer's board serial, NUL terminated ("" when not
 *                 wired or the peer's card is not present)
 * @reserved:      0
 *
 * Every field is an output; a record is read from the card's registers
 * port by port, each port's fields at one moment.
 */
struct ipu_link {
	__u32 port;
	__u32 state;
	__u32 flags;
	__s32 peer_index;
	__s32 peer_port;
	__u32 generation;
	__u32 lanes;
	__u32 fom;
	__u32 errors_corr;
	__u32 errors_uncorr;
	char peer_serial[IPU_SERIAL_MAX];
	__u64 reserved[2];
};

/**
 * struct ipu_link_list - IPU_IOCTL_LINKS: the card's IPU-Links
 * @argsz:        in: sizeof(struct ipu_link_list); out: bytes written
 * @flags:        in: must be 0
 * @count:        in: records there is room for at @links_ptr (0: none, a
 *                query); out: the card's ports (0 when the card has no
 *                IPU-Link registers). min(in, out) records are written.
 * @record_size:  in: the stride of the array at @links_ptr, a multiple of
 *                8 from sizeof(struct ipu_link) of API 1.5 (88) to 4096;
 *                out: bytes of each record the kernel filled (the bytes
 *                after them, up to the stride, are zeroed)
 * @links_ptr:    in: user pointer to the array of records (may be 0 when
 *                @count is 0)
 * @fabric_index: out: the card's index in its fabric, -1 when on none
 * @fabric_size:  out: members of the card's fabric, 0 when on none
 * @reserved:     in: must be 0
 *
 * Any open file may ask. -EFAULT when a record cannot be written.
 */
struct ipu_link_list {
	__u32 argsz;
	__u32 flags;
	__u32 count;
	__u32 record_size;
	__u64 links_ptr;
	__s32 fabric_index;
	__u32 fabric_size;
	__u64 reserved[2];
};

#define IPU_IOCTL_LINKS		_IO(IPU_IOCTL_MAGIC, 0x0c)

#define IPU_GROUP_MAX_OTHERS	15	/* members besides the leader */

/**
 * struct ipu_group_attach - IPU_IOCTL_GROUP_ATTACH (1.6): attach this file
 * and the other members' files at once, all or none (docs/uapi.md
 * "Multi-IPU groups")
 * @argsz:      in: sizeof(struct ipu_group_attach)
 * @flags:      in: must be 0
 * @count:      in: members besides this one (the leader), 1..15
 * @busy_index: out, on -EBUSY: the busy member, 0 = the leader, k = fds[k-1]
 * @busy_pid:   out, on -EBUSY: the tgid of the process holding it
 * @reserved0:  in: must be 0
 * @fds_ptr:    in: user pointer to __s32 fds[@count], open /dev/ipuN files
 * @reserved:   in: must be 0
 *
 * DETACH (or close) of the leader detaches every member still attached by
 * the group. Errors: -EBUSY, -EPERM, -EBADF, -EINVAL, -EALREADY, -ENODEV,
 * -EFAULT.
 */
struct ipu_group_attach {
	__u32 argsz;
	__u32 flags;
	__u32 count;
	__u32 busy_index;
	__s32 busy_pid;
	__u32 reserved0;
	__u64 fds_ptr;
	__u64 reserved[2];
};

#define IPU_IOCTL_GROUP_ATTACH	_IO(IPU_IOCTL_MAGIC, 0x0d)

#endif /* _UAPI_LINUX_IPU_H */
