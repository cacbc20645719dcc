/* SPDX-License-Identifier: MIT */
/*
 * libipudev: the user-space library of the IPU stack. The ONE public header.
 *
 * Conventions of every function below:
 *  - Fallible functions return 0 (or a count) on success and a negative errno
 *    on failure. They take an optional `struct ipu_error *err` as the last
 *    argument (NULL allowed); on failure it receives the same negative errno
 *    and a message saying what failed and why, e.g.
 *        "open /dev/ipu2: Permission denied".
 *    On success *err is left untouched.
 *  - The library keeps no global state: every call works on what it is given
 *    and is safe to call from several threads as long as each `struct
 *    ipu_device` is used by one thread at a time.
 *  - Objects the library allocates are freed by the matching _free or _close
 *    function; pointers returned by the *_name() helpers point to static,
 *    read-only strings.
 *
 * Link with `pkg-config --cflags --libs libipudev`.
 */
#ifndef IPUDEV_H
#define IPUDEV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define IPU_API __attribute__((visibility("default")))
#else
#define IPU_API
#endif

#define IPUDEV_VERSION_MAJOR	1
#define IPUDEV_VERSION_MINOR	0
#define IPUDEV_VERSION_PATCH	0
#define IPUDEV_VERSION_STRING	"1.0.0"

/* --- Errors (error.c) --- */

#define IPU_ERROR_MSG_MAX	256

/**
 * struct ipu_error - what failed and why
 * @code: negative errno, the value the failing function returned
 * @msg:  NUL-terminated message (truncated to fit)
 */
struct ipu_error {
	int code;
	char msg[IPU_ERROR_MSG_MAX];
};

/**
 * ipu_error_clear() - reset @err to "no error" (code 0, empty message).
 * NULL is allowed and ignored.
 */
IPU_API void ipu_error_clear(struct ipu_error *err);

/**
 * ipu_strerror() - description of a (negative or positive) errno value.
 * Returns a static string (never NULL, "Success" for 0, "Unknown error" for
 * values the C library does not know). Thread-safe; not translated.
 */
IPU_API const char *ipu_strerror(int code);

/**
 * ipu_version() - the library version, IPUDEV_VERSION_STRING of the build.
 * Static string.
 */
IPU_API const char *ipu_version(void);

/* --- Models and states --- */

/* Chip model ids: the IPU_MODEL_* values of include/ipu/ipu_models.h. */
#ifndef IPU_MODELS_H
#define IPU_MODEL_GC2		1
#define IPU_MODEL_GC200		2
#define IPU_MODEL_TEST		0x10
#endif

/**
 * ipu_model_name() - short name of a chip model id: "gc2", "gc200", "test",
 * or "unknown". Static string.
 */
IPU_API const char *ipu_model_name(uint32_t model);

/**
 * ipu_model_arch() - IPU architecture of a model: "ipu1" (GC2), "ipu2"
 * (GC200), "test", or "unknown". Static string.
 */
IPU_API const char *ipu_model_arch(uint32_t model);

/**
 * ipu_model_from_name() - model id for a name as ipu_model_name() gives it
 * (case-insensitive). Returns 0 or -EINVAL when @name is NULL or unknown.
 */
IPU_API int ipu_model_from_name(const char *name, uint32_t *model);

/* Card states, the values of GET_INFO / sysfs "state". */
enum ipu_state {
	IPU_STATE_UNKNOWN = -1,
	IPU_STATE_INITIALIZING = 0,
	IPU_STATE_READY = 1,
	IPU_STATE_RESETTING = 2,
	IPU_STATE_FAILED = 3,
};

/**
 * ipu_state_name() - "initializing", "ready", "resetting", "failed" or
 * "unknown". Static string.
 */
IPU_API const char *ipu_state_name(int state);

/**
 * ipu_state_from_name() - enum ipu_state for a sysfs state string (trailing
 * white space ignored); IPU_STATE_UNKNOWN for NULL or anything else.
 */
IPU_API int ipu_state_from_name(const char *name);

/* --- Enumeration (enumerate.c, pci_info.c) --- */

#define IPU_CARD_STR_MAX	64

/**
 * struct ipu_card - one card as sysfs and the PCI layer describe it
 *
 * Found through libudev (subsystem "ipu"); no device is opened except, when
 * the module has no version attribute, to read the driver version. Strings
 * are NUL-terminated, "" when unknown; numbers are 0 when unknown unless
 * said otherwise.
 */
struct ipu_card {
	unsigned id;				/* N of ipuN */
	char name[16];				/* "ipuN" */
	char devnode[IPU_CARD_STR_MAX];		/* from udev, e.g. "/dev/ipu0" */
	char syspath[256];			/* udev syspath of the ipu device */
	char pci_address[32];			/* "0000:00:04.0" */
	uint16_t vendor_id;			/* PCI vendor, 0x1ee7 */
	uint16_t device_id;			/* PCI device, 0x0001 */
	uint32_t model;				/* IPU_MODEL_*, 0 unknown */
	char model_name[16];			/* sysfs "model": "gc200" */
	char serial[IPU_CARD_STR_MAX];		/* board serial */
	uint32_t tiles;
	uint32_t tile_memory;			/* bytes per tile */
	uint64_t total_memory;			/* tiles * tile_memory */
	char firmware_version[32];		/* "1.4.0" */
	int state;				/* enum ipu_state */
	char state_name[16];			/* sysfs "state" as read */
	uint32_t card_index;
	uint32_t reset_count;
	char driver_version[32];		/* ipu.ko version */
	char link_speed[16];			/* current, "16.0 GT/s"; "" unknown */
	unsigned link_width;			/* current lanes, 16; 0 unknown */
	char link_speed_max[16];		/* capability of the endpoint */
	unsigned link_width_max;
	int numa_node;				/* -1: none / unknown */
	uint32_t reserved[16];
};

/**
 * ipu_enumerate() - list the IPU cards of the machine
 * @cards: out: array of *@count cards sorted by id, allocated by the
 *         library; free it with ipu_cards_free(). NULL on failure.
 * @count: out: number of cards (0 on failure)
 * @err:   optional error report
 *
 * Returns 0 when at least one card was found; -ENODEV when there is none,
 * with a message telling whether the driver is not loaded or loaded without
 * cards; -ENOMEM; -EINVAL for NULL @cards or @count; other negative errno
 * when libudev fails. PCIe link and NUMA figures come from libpci and are
 * best-effort (left unknown when they cannot be read).
 */
IPU_API int ipu_enumerate(struct ipu_card **cards, size_t *count,
			  struct ipu_error *err);

/**
 * ipu_cards_free() - free an array returned by ipu_enumerate(). NULL is
 * allowed.
 */
IPU_API void ipu_cards_free(struct ipu_card *cards);

/* --- Devices (device.c; ipu_device_open: card.c) --- */

/* An open IPU: a card (/dev/ipuN) or, through the execution backends, an
 * in-process model device. Opaque. */
struct ipu_device;

/* ipu_device_open() flags */
#define IPU_OPEN_READONLY	(1u << 0)	/* info only: reset gives -EPERM */
/* Attach to the card at once (else: at the first load, transfer or buffer
 * call). Attachment is exclusive: another process's attach waits. */
#define IPU_OPEN_ATTACH		(1u << 1)
/* Attaching fails with -EBUSY instead of waiting while another process
 * holds the card. */
#define IPU_OPEN_NONBLOCK	(1u << 2)
#define IPU_OPEN_VALID_FLAGS	(IPU_OPEN_READONLY | IPU_OPEN_ATTACH | \
				 IPU_OPEN_NONBLOCK)

/**
 * ipu_device_open() - open card ipu@id
 * @id:    N of /dev/ipuN (struct ipu_card.id)
 * @flags: IPU_OPEN_*
 * @out:   out: the device, to be closed with ipu_device_close(); NULL on
 *         failure
 * @err:   optional error report
 *
 * The device node is the one udev reports for ipu@id. Returns 0; -EINVAL
 * for unknown flags or NULL @out; -ENODEV when there is no such card (or no
 * driver); the errno of open(2) otherwise (-EACCES, -ENOENT...); -ENOMEM.
 */
IPU_API int ipu_device_open(unsigned id, unsigned flags,
			    struct ipu_device **out, struct ipu_error *err);

/**
 * ipu_device_close() - close @dev and free it. NULL is allowed.
 */
IPU_API void ipu_device_close(struct ipu_device *dev);

/**
 * ipu_device_id() - the id the device was opened with (N of ipuN).
 */
IPU_API unsigned ipu_device_id(const struct ipu_device *dev);

/**
 * ipu_device_name() - "ipuN" for a card; the backend's name otherwise.
 * The string lives as long as @dev.
 */
IPU_API const char *ipu_device_name(const struct ipu_device *dev);

/**
 * struct ipu_device_info - identity, capabilities and state (GET_INFO)
 */
struct ipu_device_info {
	unsigned id;			/* N of ipuN */
	char backend[16];		/* "card" or "model" */
	uint32_t api_version;		/* driver uAPI major << 16 | minor */
	uint32_t hw_version;		/* card interface major << 16 | minor */
	uint32_t model;			/* IPU_MODEL_* */
	uint32_t card_index;
	uint32_t tiles;
	uint32_t tile_memory;		/* bytes per tile */
	uint64_t total_memory;		/* tiles * tile_memory */
	uint32_t threads_per_tile;	/* worker threads */
	uint32_t link_ports;		/* IPU-Link ports (of each IPU) */
	uint32_t fw_version;		/* major << 16 | minor << 8 | patch */
	char firmware_version[16];	/* "1.4.0" */
	uint32_t clock_khz;
	int state;			/* enum ipu_state */
	uint32_t reset_count;
	uint64_t capabilities;		/* card CAPS register */
	char serial[32];
	char driver_version[32];
	uint32_t ipus;			/* IPUs of the device: 1, a model device's
					 * ipu_model_open_multi() count or a group
					 * device's members (tiles and memory
					 * above are each IPU's) */
	uint32_t reserved[15];
};

/**
 * ipu_device_info() - query identity and state of @dev
 * @out: out: filled completely (zeroed first)
 *
 * Returns 0; -EINVAL for NULL arguments; the ioctl's errno for a card
 * (-ENODEV when the card went away).
 */
IPU_API int ipu_device_info(struct ipu_device *dev, struct ipu_device_info *out,
			    struct ipu_error *err);

/* ipu_device_reset() flags */
#define IPU_RESET_NOWAIT	(1u << 0)	/* do not wait for READY */
#define IPU_RESET_FORCE		(1u << 1)	/* also a card another process holds */
#define IPU_RESET_VALID_FLAGS	(IPU_RESET_NOWAIT | IPU_RESET_FORCE)
#define IPU_RESET_TIMEOUT_MAX	60000		/* ms */

/**
 * struct ipu_reset_result - state after a reset
 */
struct ipu_reset_result {
	int state;			/* enum ipu_state after the reset */
	uint32_t reset_count;		/* completed resets since power-on */
	uint64_t elapsed_us;		/* wall time of the call */
	int32_t holder_pid;		/* -EBUSY: the process holding the card */
	char holder_comm[16];		/* -EBUSY: its command name */
	uint32_t reserved[3];
};

/**
 * ipu_device_reset() - soft-reset @dev and wait until it is ready again
 * @timeout_ms: how long to wait for READY; 0 for the driver's default
 *              (2000 ms); at most IPU_RESET_TIMEOUT_MAX
 * @flags:      IPU_RESET_*
 * @out:        optional result (NULL allowed)
 *
 * Returns 0; -EINVAL for bad arguments; -EPERM when @dev was opened with
 * IPU_OPEN_READONLY; -ETIMEDOUT when the card did not become ready (it is
 * then "failed"); -EINTR when a signal interrupted the wait (the reset goes
 * on in the background); -EBUSY when another process holds (is attached to)
 * the card and IPU_RESET_FORCE is not given: @out names it (holder_pid,
 * holder_comm); with IPU_RESET_FORCE that process's work in flight fails
 * with a reset status and its graph is gone. Other negative errno from the
 * driver.
 */
IPU_API int ipu_device_reset(struct ipu_device *dev, unsigned timeout_ms,
			     unsigned flags, struct ipu_reset_result *out,
			     struct ipu_error *err);

/* --- IPU-Links and multi-IPU devices (links.c, grouping.c, topology.c,
 *     group.c); docs/libipudev.md "IPU-Links and multi-IPU devices" --- */

/*
 * Objects, in the manner of libgpiod v2 (all opaque, read with getters):
 *  - struct ipu_links: one card's IPU-Link ports as the driver reports them
 *    in sysfs (/sys/class/ipu/ipuN/links/portP/, fabric_index). A snapshot:
 *    nothing is re-read after it was made. Owned by the caller
 *    (ipu_links_free()) or, when a topology hands it out, by the topology.
 *  - struct ipu_link_info: one port of a card; borrowed from its struct
 *    ipu_links and valid as long as that is.
 *  - struct ipu_topology: a snapshot of every card, its links and the
 *    multi-IPU devices (groups) they form; owned by the caller
 *    (ipu_topology_free()).
 *  - struct ipu_group_info: one device id of a topology (a single IPU or a
 *    multi-IPU group) and its members; borrowed from the topology.
 *  - struct ipu_group: an open device id: its member cards opened as
 *    struct ipu_device; owned by the caller (ipu_group_close()).
 */
struct ipu_links;
struct ipu_link_info;
struct ipu_topology;
struct ipu_group_info;
struct ipu_group;

/* Port states: the sysfs `state` words "down", "training", "up", "failed". */
enum ipu_link_state {
	IPU_LINK_UNKNOWN = -1,
	IPU_LINK_DOWN = 0,
	IPU_LINK_TRAINING = 1,
	IPU_LINK_UP = 2,
	IPU_LINK_FAILED = 3,
};

/* The largest multi-IPU device (members of one group). */
#define IPU_GROUP_MAX_SIZE	16

/**
 * ipu_link_state_name() - "down", "training", "up", "failed" or "unknown".
 * Static string.
 */
IPU_API const char *ipu_link_state_name(int state);

/**
 * ipu_link_state_from_name() - enum ipu_link_state of a sysfs `state` word
 * (trailing white space ignored); IPU_LINK_UNKNOWN for NULL or anything
 * else.
 */
IPU_API int ipu_link_state_from_name(const char *name);

/**
 * ipu_links_read() - read card ipu@card's IPU-Links from sysfs
 * @card: N of ipuN
 * @out:  out: the links, freed with ipu_links_free(); NULL on failure
 *
 * Reads /sys/class/ipu/ipu@card/serial, fabric_index and every
 * links/portP/ directory (P = 0, 1, ... while they exist). Returns 0;
 * -EINVAL for NULL @out; -ENODEV when there is no such card (or no driver);
 * -EOPNOTSUPP when the driver reports no IPU-Links for the card (no links/
 * directory: "ipuN: no IPU-Link information ..."); -EPROTO when a file
 * holds something the format of docs/uapi.md does not allow (the message
 * names the file); -ENOMEM; the errno of a failed read.
 */
IPU_API int ipu_links_read(unsigned card, struct ipu_links **out,
			   struct ipu_error *err);

/** ipu_links_free() - free @links from ipu_links_read(). NULL allowed. */
IPU_API void ipu_links_free(struct ipu_links *links);

/** ipu_links_card() - the N of ipuN the links belong to. */
IPU_API unsigned ipu_links_card(const struct ipu_links *links);

/**
 * ipu_links_serial() - the card's board serial (what peers name it by).
 * Lives as long as @links.
 */
IPU_API const char *ipu_links_serial(const struct ipu_links *links);

/**
 * ipu_links_fabric_index() - the card's fabric index, -1 when it is on no
 * fabric (or the driver does not say).
 */
IPU_API int ipu_links_fabric_index(const struct ipu_links *links);

/**
 * ipu_links_num_ports() - ports the driver reports for the card; 0 when it
 * reports no IPU-Link information.
 */
IPU_API unsigned ipu_links_num_ports(const struct ipu_links *links);

/**
 * ipu_links_port() - port @port of @links (borrowed: valid while @links
 * is), or NULL when @port >= ipu_links_num_ports().
 */
IPU_API const struct ipu_link_info *ipu_links_port(const struct ipu_links *links, unsigned port);

/** ipu_link_info_port() - the port's number P (of links/portP). */
IPU_API unsigned ipu_link_info_port(const struct ipu_link_info *li);
/** ipu_link_info_state() - enum ipu_link_state. */
IPU_API int ipu_link_info_state(const struct ipu_link_info *li);
/**
 * ipu_link_info_peer_serial() - the serial of the board at the other end,
 * "" when the port is not wired. Lives as long as the port.
 */
IPU_API const char *ipu_link_info_peer_serial(const struct ipu_link_info *li);
/** ipu_link_info_peer_port() - the peer's port, -1 when not wired. */
IPU_API int ipu_link_info_peer_port(const struct ipu_link_info *li);
/** ipu_link_info_generation() - link generation (e.g. 4); 0 while not up. */
IPU_API unsigned ipu_link_info_generation(const struct ipu_link_info *li);
/** ipu_link_info_lanes() - lanes; 0 while not up. */
IPU_API unsigned ipu_link_info_lanes(const struct ipu_link_info *li);
/** ipu_link_info_fom() - figure of merit 0..255 of the last training. */
IPU_API unsigned ipu_link_info_fom(const struct ipu_link_info *li);
/** ipu_link_info_errors_corr() - correctable errors since power-on. */
IPU_API uint64_t ipu_link_info_errors_corr(const struct ipu_link_info *li);
/** ipu_link_info_errors_uncorr() - uncorrectable errors since power-on. */
IPU_API uint64_t ipu_link_info_errors_uncorr(const struct ipu_link_info *li);

/* ipu_topology_read() flags: none yet. The model device of N IPUs lists
 * its IPUs in the same numbering with ipu_model_topology(). */
#define IPU_TOPOLOGY_VALID_FLAGS	0u

/**
 * ipu_topology_read() - every card of /sys/class/ipu, its links, and the
 * device ids they give (docs/libipudev.md "Multi-IPU device ids")
 * @flags: 0 (IPU_TOPOLOGY_VALID_FLAGS)
 * @out:   out: the snapshot, freed with ipu_topology_free(); NULL on failure
 *
 * A card whose driver reports no IPU-Links is listed with 0 ports and is
 * linked to nothing (it is a single IPU only). Returns 0; -EINVAL for
 * unknown @flags or NULL @out; -ENODEV when there is no card (or no
 * driver), with the reason; -EPROTO for a malformed sysfs file (named);
 * -ENOMEM; the errno of a failed read.
 */
IPU_API int ipu_topology_read(unsigned flags, struct ipu_topology **out,
			      struct ipu_error *err);

/**
 * ipu_model_topology() - the IPUs of model device @dev and their links as a
 * topology, numbered as ipu_topology_read() numbers cards (docs/libipudev.md
 * "The model device of several IPUs")
 * @dev: a device of ipu_model_open() or ipu_model_open_multi()
 * @out: out: the snapshot, freed with ipu_topology_free(); NULL on failure
 *
 * IPU k of the model is listed as card k (fabric index k, serial
 * "NAME.k", NAME the device's name), with the model's link ports: a wired
 * port names its peer IPU's serial and port and is up or down as the
 * model's fabric has it; generation, lanes and figure of merit are 0 (the
 * model does not train links). A model of one IPU is one card without
 * ports. Returns 0; -EINVAL for NULL arguments or a device that is not a
 * model device; -ENOMEM.
 */
IPU_API int ipu_model_topology(struct ipu_device *dev, struct ipu_topology **out,
			       struct ipu_error *err);

/** ipu_topology_free() - free @topo and all it handed out. NULL allowed. */
IPU_API void ipu_topology_free(struct ipu_topology *topo);

/** ipu_topology_num_cards() - cards in @topo (the N of the numbering). */
IPU_API unsigned ipu_topology_num_cards(const struct ipu_topology *topo);

/**
 * ipu_topology_card_links() - the links of the @index-th card (device
 * order, 0 .. num_cards - 1); borrowed from @topo. NULL when @index is out
 * of range.
 */
IPU_API const struct ipu_links *ipu_topology_card_links(const struct ipu_topology *topo, unsigned index);

/**
 * ipu_topology_card_by_serial() - the device index of the card with board
 * serial @serial; -ENOENT when no card of @topo has it, -EINVAL for NULL.
 */
IPU_API int ipu_topology_card_by_serial(const struct ipu_topology *topo,
					const char *serial);

/**
 * ipu_topology_num_ids() - how many ids the numbering gives @topo's cards,
 * linked or not: ids run from 0 to this - 1 (4 cards: 7, 16 cards: 31).
 */
IPU_API unsigned ipu_topology_num_ids(const struct ipu_topology *topo);

/**
 * ipu_topology_num_groups() - device ids that exist in @topo: every single
 * IPU and every linked multi-IPU group (blocks that are not linked are
 * left out; their ids stay free).
 */
IPU_API unsigned ipu_topology_num_groups(const struct ipu_topology *topo);

/**
 * ipu_topology_group() - the @index-th existing device id (in id order,
 * 0 .. num_groups - 1), borrowed from @topo; NULL when out of range.
 */
IPU_API const struct ipu_group_info *ipu_topology_group(const struct ipu_topology *topo, unsigned index);

/**
 * ipu_topology_find_group() - device id @id, borrowed from @topo; NULL
 * when @topo has no such device (never numbered, or a block that is not
 * linked).
 */
IPU_API const struct ipu_group_info *ipu_topology_find_group(const struct ipu_topology *topo, unsigned id);

/**
 * ipu_topology_check_group() - whether @id is a device of @topo: 0, or
 * -ENODEV with the reason in @err: "device 5 (ipu2, ipu3) is not linked:
 * ..." for a block that is not linked, "no device 31 (this machine
 * numbers 0-30)" for an id never numbered; -EINVAL for a NULL @topo.
 */
IPU_API int ipu_topology_check_group(const struct ipu_topology *topo, unsigned id,
				     struct ipu_error *err);

/** ipu_group_info_id() - the device id (0 .. N-1 single IPUs, then groups). */
IPU_API unsigned ipu_group_info_id(const struct ipu_group_info *gi);
/** ipu_group_info_size() - members: 1 (a single IPU), 2, 4, 8 or 16. */
IPU_API unsigned ipu_group_info_size(const struct ipu_group_info *gi);
/**
 * ipu_group_info_member() - member @k's device index (its single-IPU id),
 * in block order (member k is device index first + k); -EINVAL when @k >=
 * size.
 */
IPU_API int ipu_group_info_member(const struct ipu_group_info *gi, unsigned k);
/** ipu_group_info_card() - member @k's card (N of ipuN); -EINVAL when @k >= size. */
IPU_API int ipu_group_info_card(const struct ipu_group_info *gi, unsigned k);

/**
 * ipu_group_open() - open device id @id: a single IPU or a multi-IPU group
 * @id:    the device id, as ipu_topology_group() lists it
 * @flags: IPU_OPEN_* for every member
 * @out:   out: the group, closed with ipu_group_close(); NULL on failure
 *
 * Reads the topology now, then opens the members with ipu_device_open()
 * in member order (so that two processes attaching overlapping groups
 * wait in the same order). All or none: when one member fails, the
 * members already opened are closed. IPU_OPEN_ATTACH here attaches the
 * members one after the other, each by its own ipu_device_open(); for an
 * attach of the whole group at once (the driver's GROUP_ATTACH, all or
 * none) open it with ipu_group_device_open() instead. Returns 0; -EINVAL for unknown flags or NULL @out; -ENODEV
 * when @id is no device (the message says whether it was never numbered
 * or its block is not linked); the errors of ipu_topology_read() and
 * ipu_device_open() (-EBUSY with IPU_OPEN_NONBLOCK, naming the member).
 */
IPU_API int ipu_group_open(unsigned id, unsigned flags, struct ipu_group **out,
			   struct ipu_error *err);

/** ipu_group_close() - close every member and free @group. NULL allowed. */
IPU_API void ipu_group_close(struct ipu_group *group);
/** ipu_group_id() - the device id @group was opened with. */
IPU_API unsigned ipu_group_id(const struct ipu_group *group);
/** ipu_group_size() - members of @group: 1, 2, 4, 8 or 16. */
IPU_API unsigned ipu_group_size(const struct ipu_group *group);
/**
 * ipu_group_member() - member @k's open device, borrowed: closed by
 * ipu_group_close(), never by the caller. NULL when @k >= size.
 */
IPU_API struct ipu_device *ipu_group_member(const struct ipu_group *group,
					    unsigned k);

/**
 * ipu_group_device_open() - open device id @id as one struct ipu_device
 * @id:    the device id (a single IPU, or a multi-IPU group)
 * @flags: IPU_OPEN_* for every member
 * @out:   out: the device, closed with ipu_device_close(); NULL on failure
 *
 * A single IPU's id gives that card's device (as ipu_device_open()). A
 * group's device runs multi-IPU graph binaries on its member cards
 * (docs/libipudev.md "Running a multi-IPU graph on a group of cards"):
 * load, tensor write/read and run go to every member; a stream is bound
 * on the member whose IPU holds its tensor (its ring pinned there: two
 * bound rings must not share a 64-byte cache line); ipu_device_info() is
 * member 0's with ipus = the members. Errors: those of
 * ipu_group_open(); -EPROTO when a member card reports no fabric index;
 * -ENOMEM.
 */
IPU_API int ipu_group_device_open(unsigned id, unsigned flags,
				  struct ipu_device **out,
				  struct ipu_error *err);

/* --- Graph builder (builder.c) --- */

/*
 * Build a graph binary (docs/graph-format.md) in memory, then write it to a
 * buffer or a file; see docs/builder.md. Tensors are row-major arrays whose
 * elements are mapped, range by range, to tiles; vertices (codelet instances,
 * docs/codelets.md) bind slices of tensors that live on their tile; compute
 * sets group vertices; exchanges group tile-to-tile copies; program nodes
 * (sequence, execute, copy, repeat, if, ...) form the control programs run by
 * index. Every add/map call validates at once and fails with a message that
 * names the object and the reason. Ids are small integers >= 0; every
 * builder function returns an id (or 0) on success, a negative errno on
 * failure. A graph is used by one thread at a time.
 */
struct ipu_graph;

/* Element types (values of include/ipu/graph_format.h). */
#ifndef IPU_GRAPH_FORMAT_H
#define IPU_DTYPE_F32		1
#define IPU_DTYPE_F16		2
#define IPU_DTYPE_I32		3
#define IPU_STREAM_HOST_TO_DEVICE 1
#define IPU_STREAM_DEVICE_TO_HOST 2
#define IPU_HANDLE_READ		1u
#define IPU_HANDLE_WRITE	2u
#endif
#define IPU_HANDLE_RW		(IPU_HANDLE_READ | IPU_HANDLE_WRITE)
#define IPU_MAX_RANK		6

/** "f32", "f16", "i32" or "unknown". Static string. */
IPU_API const char *ipu_dtype_name(unsigned dtype);

/** ipu_graph_create() - empty graph for chip model @model (IPU_MODEL_*). */
IPU_API int ipu_graph_create(uint32_t model, struct ipu_graph **out,
			     struct ipu_error *err);
IPU_API void ipu_graph_free(struct ipu_graph *g);
IPU_API uint32_t ipu_graph_model(const struct ipu_graph *g);
IPU_API unsigned ipu_graph_tiles(const struct ipu_graph *g);
IPU_API uint32_t ipu_graph_tile_memory(const struct ipu_graph *g);
/**
 * ipu_graph_tile_used() - bytes tile @tile needs: its memory plan as
 * ipu_graph_write() would write it now. With memory reuse (the default, see
 * ipu_graph_set_option()) the always-live data and then the temporaries
 * packed by liveness, computed on each call (it walks the whole graph: for
 * all tiles at once use ipu_graph_memory_report()); without, the bytes
 * allocated so far. 0 for a NULL graph or a tile that does not exist.
 */
IPU_API uint32_t ipu_graph_tile_used(const struct ipu_graph *g, unsigned tile);

/*
 * ---- Multi-IPU graphs (multi.c; docs/builder.md "Multi-IPU graphs") ----
 * A graph for N = 1, 2, 4, 8 or 16 IPUs of one model, written as ONE binary
 * of graph format 1.2 (an `ipus` section; docs/graph-format.md "Multi-IPU
 * binaries") that every member of a group of N IPUs loads. Tiles are
 * numbered globally as in Poplar: global tile = ipu * tiles_per_ipu + tile,
 * and every call that takes a tile takes a global one; ipu_graph_tiles()
 * returns ipus * tiles_per_ipu. A copy between tiles of different IPUs is
 * an ordinary copy (an exchange crossing IPU-Links). A graph of N = 1 is a
 * single-IPU graph, written byte for byte as ipu_graph_create()'s.
 */
/**
 * ipu_graph_create_multi() - empty graph for @ipus IPUs of model @model
 * (IPU_MODEL_*). *@out owns the graph until ipu_graph_free().
 * Errors: -EINVAL (unknown model, @ipus not 1, 2, 4, 8 or 16, @out NULL),
 * -ENOMEM.
 */
IPU_API int ipu_graph_create_multi(uint32_t model, unsigned ipus,
				   struct ipu_graph **out,
				   struct ipu_error *err);
/** IPUs of the graph (1 for ipu_graph_create()'s; replicas of a replicated one); 0 for NULL. */
IPU_API unsigned ipu_graph_ipus(const struct ipu_graph *g);
/** Tiles of one IPU (the model's tiles); 0 for NULL. */
IPU_API unsigned ipu_graph_tiles_per_ipu(const struct ipu_graph *g);
/**
 * ipu_graph_ipu_tiles() - the global tiles of IPU @ipu: [*@first, *@first +
 * *@count) (either pointer may be NULL). Like Poplar's virtual graph of
 * one IPU. Errors: -EINVAL (NULL graph, @ipu >= ipu_graph_ipus()).
 */
IPU_API int ipu_graph_ipu_tiles(const struct ipu_graph *g, unsigned ipu,
				unsigned *first, unsigned *count,
				struct ipu_error *err);
/**
 * ipu_graph_tile_ipu() - the IPU of global tile @tile (>= 0), or -EINVAL
 * (NULL graph, tile out of range; message names the range).
 */
IPU_API int ipu_graph_tile_ipu(const struct ipu_graph *g, unsigned tile,
			       struct ipu_error *err);
/**
 * ipu_graph_map_ipu() - map the whole of @tensor evenly over the tiles of
 * IPU @ipu in chunks that are multiples of @grain elements (0: 1), as
 * ipu_graph_map_linear() does over all tiles. Errors as
 * ipu_graph_map_linear(), and -EINVAL for an IPU out of range.
 */
IPU_API int ipu_graph_map_ipu(struct ipu_graph *g, int tensor, unsigned ipu,
			      uint64_t grain, struct ipu_error *err);
/**
 * ipu_graph_map_rows_to_ipus() - map @tensor, of rank >= 1 with shape[0]
 * == ipu_graph_ipus(), so that row i (elements [i * n, (i + 1) * n), n =
 * elements / shape[0]) lies on IPU i, spread over its tiles in chunks of
 * @grain elements (0: 1): the layout the collectives take in a graph of N
 * IPUs (GCL's "one slice per IPU"). Errors: -EINVAL (wrong shape, already
 * partly mapped), -ENOSPC.
 */
IPU_API int ipu_graph_map_rows_to_ipus(struct ipu_graph *g, int tensor,
				       uint64_t grain, struct ipu_error *err);
/**
 * ipu_prog_sync_external() - a Sync node that is a barrier of all IPUs of
 * the graph (an external sync; in a graph of one IPU it waits for nobody).
 * Node id or negative errno (-EINVAL NULL graph, -ENOMEM).
 */
IPU_API int ipu_prog_sync_external(struct ipu_graph *g, struct ipu_error *err);

/*
 * ---- Replicated graphs (replicate.c; docs/builder.md "Replication") ----
 * Like Poplar's Graph(target, replicationFactor): the caller builds ONE
 * replica's graph on the tiles of one IPU (tiles 0..tiles_per_ipu-1; every
 * op works unchanged) and ipu_graph_write() replicates it over @replicas
 * IPUs: replica r is the same subgraph on IPU r. Every tensor of the
 * replica becomes, in the binary, a tensor of shape [replicas, shape...]
 * whose row r is replica r's (the host writes and reads all replicas at
 * once through one handle: row r for replica r; written for the same
 * contents on every replica by repeating the data). The replica-aware
 * collectives (ipu_all_reduce() and friends on a replicated graph) are the
 * only cross-replica traffic. Streams are refused (a stream's tensor must
 * lie on one IPU); initial contents are the same on every replica.
 */
/**
 * ipu_graph_create_replicated() - empty graph of one replica, replicated
 * over @replicas IPUs (1, 2, 4, 8, 16) of model @model when written.
 * ipu_graph_tiles() is one IPU's tiles; ipu_graph_ipus() and
 * ipu_graph_replicas() are @replicas. *@out owns it until ipu_graph_free().
 * Errors: -EINVAL (unknown model, bad count, @out NULL), -ENOMEM.
 */
IPU_API int ipu_graph_create_replicated(uint32_t model, unsigned replicas,
					struct ipu_graph **out,
					struct ipu_error *err);
/** Replicas (1 for a graph that is not replicated); 0 for NULL. */
IPU_API unsigned ipu_graph_replicas(const struct ipu_graph *g);

/* the default of option "availableMemoryProportion" (Poplar's default too) */
#define IPU_DEFAULT_AVAILABLE_MEMORY_PROPORTION 0.6

/**
 * ipu_graph_set_option() - set graph option @key to @value (strings, as
 * Poplar's OptionFlags):
 *   "memory.reuse"               "true" (default) or "false": reuse the tile
 *                                memory of temporaries across compute sets by
 *                                liveness (docs/builder.md, Memory). Only
 *                                before the graph's first allocation.
 *   "availableMemoryProportion"  a number in (0, 1], default 0.6: the share
 *                                of a tile's memory a matmul plan may take
 *                                for its temporaries (operand buffers,
 *                                partials), also bounded by what is free.
 * Errors: -EINVAL (NULL graph, unknown key, bad value: the message says
 * which), -EBUSY (memory.reuse changed after an allocation).
 */
IPU_API int ipu_graph_set_option(struct ipu_graph *g, const char *key,
				 const char *value, struct ipu_error *err);

/**
 * struct ipu_tile_memory - one tile's memory, as PopVision's memory view
 * shows it. total = always_live + not_always_live. The other byte counts
 * are volumes before reuse: tensor_data + buffers is what a graph without
 * reuse would need (less alignment padding).
 */
struct ipu_tile_memory {
	uint32_t tile;
	uint32_t total;		/* the tile's plan: == ipu_graph_tile_used() */
	uint32_t always_live;	/* the bottom of the plan: data live for the whole program */
	uint32_t not_always_live; /* the rest: temporaries at their peak, with padding */
	uint64_t temporaries;	/* bytes of not-always-live data before reuse */
	uint32_t tensor_data;	/* bytes of allocations that hold tensor elements */
	uint32_t buffers;	/* bytes of ops' internal buffers (exchange, operands, partials) */
	uint32_t vertices;	/* vertices on the tile */
	uint32_t vertex_state;	/* bytes of their records, fields and params in the binary */
	uint32_t exchange;	/* bytes of copy records from or to the tile */
	uint32_t reserved[3];
};

/**
 * struct ipu_memory_report - a graph's memory by tile and in sum. @tile is
 * owned by the report: free it with ipu_memory_report_free().
 */
struct ipu_memory_report {
	uint32_t tiles;		/* entries of tile[]: the model's tiles (x its IPUs: global tiles) */
	uint32_t tile_memory;	/* bytes per tile of the model */
	uint32_t peak_tile;	/* the tile of the largest total */
	uint32_t reserved;
	uint64_t total, always_live, not_always_live, temporaries;
	uint64_t tensor_data, buffers, vertex_state, exchange;
	uint64_t control_program; /* program nodes, children and entries in the binary */
	struct ipu_tile_memory *tile;
};

/**
 * ipu_graph_memory_report() - @g's memory plan by category into *@out
 * (filled; free with ipu_memory_report_free() also on failure). The plan is
 * the one ipu_graph_write() writes, also when it does not fit (then some
 * total exceeds tile_memory). Errors: -EINVAL (NULL argument), -ENOMEM.
 */
IPU_API int ipu_graph_memory_report(const struct ipu_graph *g, struct ipu_memory_report *out,
				    struct ipu_error *err);
/**
 * ipu_graph_binary_memory_report() - the memory report of graph binary
 * @bin (@len bytes) into *@out, from its tile plans and its memory_regions
 * section (docs/graph-format.md): what ipu_graph_memory_report() said when
 * it was written (totals are the written plans, rounded up to 8 bytes).
 * Without that section every planned byte counts as always live. Free
 * with ipu_memory_report_free(). Errors: -EINVAL (NULL argument, a binary
 * the container reader refuses, a record out of range: the message says
 * which), -ENOMEM.
 */
IPU_API int ipu_graph_binary_memory_report(const void *bin, size_t len,
					   struct ipu_memory_report *out,
					   struct ipu_error *err);
/** Free the arrays of a report (not @r itself); NULL allowed. */
IPU_API void ipu_memory_report_free(struct ipu_memory_report *r);

/* -- tensors -- */

/**
 * ipu_graph_add_tensor() - a new tensor, not yet mapped to tiles
 * @name:  unique, non-empty (it names the tensor in messages and handles)
 * @dtype: IPU_DTYPE_*; @rank 0..IPU_MAX_RANK (0: one element); @shape dims
 * >= 0: a 0 makes an empty tensor (no elements, no tile memory; every op
 * gives numpy's result for it, docs/builder.md "Empty tensors").
 * Returns the tensor id.
 */
IPU_API int ipu_graph_add_tensor(struct ipu_graph *g, const char *name,
				 unsigned dtype, unsigned rank,
				 const uint32_t *shape, struct ipu_error *err);
/**
 * ipu_graph_map() - place elements [@begin, @begin + @count) of the
 * flattened tensor on @tile; the builder allocates the tile memory
 * (consecutive calls for consecutive ranges on one tile get consecutive
 * memory). Refused: a range already mapped, out of the tensor, a tile that
 * does not exist, a tile out of memory, a @count of 0 (except [0, 0) of an
 * empty tensor, which maps nothing).
 */
IPU_API int ipu_graph_map(struct ipu_graph *g, int tensor, uint64_t begin,
			  uint64_t count, unsigned tile, struct ipu_error *err);
/** Map the whole tensor to one tile. */
IPU_API int ipu_graph_map_tile(struct ipu_graph *g, int tensor, unsigned tile,
			       struct ipu_error *err);
/**
 * ipu_graph_map_linear() - spread the whole tensor evenly over all tiles in
 * chunks that are multiples of @grain elements (0: 1).
 */
IPU_API int ipu_graph_map_linear(struct ipu_graph *g, int tensor, uint64_t grain,
				 struct ipu_error *err);
/** Give @tensor the same element-to-tile layout as @like (same elements). */
IPU_API int ipu_graph_map_like(struct ipu_graph *g, int tensor, int like,
			       struct ipu_error *err);
/**
 * ipu_graph_set_initial() - contents the tensor has after load (@bytes must
 * be its size); makes it a constant unless it is exposed for writing.
 * Refused (-EINVAL) on a view (ipu_reshape() etc.): set it on the base.
 */
IPU_API int ipu_graph_set_initial(struct ipu_graph *g, int tensor,
				  const void *data, size_t bytes,
				  struct ipu_error *err);
/**
 * ipu_graph_expose() - make @tensor host-visible as handle @name (NULL: the
 * tensor's name) with @access IPU_HANDLE_READ and/or IPU_HANDLE_WRITE.
 */
IPU_API int ipu_graph_expose(struct ipu_graph *g, int tensor, const char *name,
			     unsigned access, struct ipu_error *err);
/** Tensor id of @name, or -ENOENT. */
IPU_API int ipu_graph_find_tensor(const struct ipu_graph *g, const char *name);

struct ipu_tensor_desc {
	const char *name;	/* lives as long as the graph */
	unsigned dtype;
	unsigned rank;
	uint32_t shape[IPU_MAX_RANK];
	uint64_t elements;
};
IPU_API int ipu_graph_tensor_desc(const struct ipu_graph *g, int tensor,
				  struct ipu_tensor_desc *out,
				  struct ipu_error *err);
/** Tile of element @index of @tensor, or -ENOENT if it is not mapped. */
IPU_API int ipu_graph_tile_of(const struct ipu_graph *g, int tensor,
			      uint64_t index);

/* -- vertices and compute sets -- */

/** A slice: elements [begin, begin + count) of the flattened tensor. */
struct ipu_slice {
	int tensor;
	uint64_t begin;
	uint64_t count;
};
/** The whole tensor as a slice (count = its elements). */
IPU_API struct ipu_slice ipu_slice_all(const struct ipu_graph *g, int tensor);

IPU_API int ipu_graph_add_compute_set(struct ipu_graph *g, const char *name,
				      struct ipu_error *err);
/**
 * ipu_graph_add_vertex() - an instance of codelet @codelet (docs/codelets.md)
 * in compute set @cs. Each field is a slice that must lie contiguously in
 * ONE tile's memory, the same tile for all fields (the vertex's tile).
 * The binding is checked as the engine's loader checks it, and against the
 * other vertices of @cs: a vertex may not write memory that another vertex
 * of the same compute set reads or writes. Returns the vertex id.
 */
IPU_API int ipu_graph_add_vertex(struct ipu_graph *g, int cs, unsigned codelet,
				 const struct ipu_slice *fields, unsigned nfields,
				 const uint32_t *params, unsigned nparams,
				 struct ipu_error *err);

/* -- exchanges (tile-to-tile copies run as one phase) -- */

IPU_API int ipu_graph_add_exchange(struct ipu_graph *g, const char *name,
				   struct ipu_error *err);
/**
 * ipu_graph_exchange_copy() - add "dst = src" (same dtype and count) to
 * exchange @ex. All copies of an exchange read the state before it;
 * destinations may not overlap each other nor any source of the exchange.
 */
IPU_API int ipu_graph_exchange_copy(struct ipu_graph *g, int ex,
				    struct ipu_slice src, struct ipu_slice dst,
				    struct ipu_error *err);

/* -- host streams and metadata -- */

/** A FIFO of transfers of @elements elements; @depth 1..16. Returns the id. */
IPU_API int ipu_graph_add_stream(struct ipu_graph *g, const char *name,
				 unsigned direction, unsigned dtype,
				 uint32_t elements, unsigned depth,
				 struct ipu_error *err);
IPU_API int ipu_graph_set_metadata(struct ipu_graph *g, const char *key,
				   const char *value, struct ipu_error *err);

/* -- control programs: each function returns a program node id -- */

/** An empty sequence; add children with ipu_prog_append(). */
IPU_API int ipu_prog_sequence(struct ipu_graph *g, struct ipu_error *err);
IPU_API int ipu_prog_append(struct ipu_graph *g, int seq, int child,
			    struct ipu_error *err);
IPU_API int ipu_prog_execute(struct ipu_graph *g, int cs, struct ipu_error *err);
IPU_API int ipu_prog_exchange(struct ipu_graph *g, int ex, struct ipu_error *err);
/** A one-copy exchange "dst = src" and the node running it. */
IPU_API int ipu_prog_copy(struct ipu_graph *g, struct ipu_slice src,
			  struct ipu_slice dst, struct ipu_error *err);
IPU_API int ipu_prog_repeat(struct ipu_graph *g, uint32_t count, int body,
			    struct ipu_error *err);
/** Run @cond_prog (-1: none), test scalar @cond; while true run @body. */
IPU_API int ipu_prog_repeat_while_true(struct ipu_graph *g, int cond,
				       int cond_prog, int body,
				       struct ipu_error *err);
/** If scalar tensor @cond is true run @then_prog else @else_prog (-1: none). */
IPU_API int ipu_prog_if(struct ipu_graph *g, int cond, int then_prog,
			int else_prog, struct ipu_error *err);
IPU_API int ipu_prog_sync(struct ipu_graph *g, struct ipu_error *err);
/** Move one transfer of @stream into (host->device) or out of @tensor. */
IPU_API int ipu_prog_stream_copy(struct ipu_graph *g, int stream, int tensor,
				 struct ipu_error *err);
IPU_API int ipu_prog_abort_on(struct ipu_graph *g, int cond, uint32_t code,
			      struct ipu_error *err);
/** Make node @node entry program @name; returns its index K (0, 1, ...). */
IPU_API int ipu_graph_add_program(struct ipu_graph *g, const char *name,
				  int node, struct ipu_error *err);

/* -- output -- */

/**
 * ipu_graph_set_zero_init() - with @on, the written graph has no input
 * guards: a program that reads a host-writable tensor nothing wrote reads
 * zeros, as before guards existed. Off (the default), such a run fails with
 * -ENODATA and a message naming the tensor (docs/builder.md "Guards").
 * Returns 0; -EINVAL for a NULL graph.
 */
IPU_API int ipu_graph_set_zero_init(struct ipu_graph *g, int on, struct ipu_error *err);

/**
 * Serialize: *@buf (free() it) of *@len bytes, format 1.1 in its compact
 * form (docs/graph-format.md, "Packed tables"). The graph stays usable.
 */
IPU_API int ipu_graph_write(struct ipu_graph *g, void **buf, size_t *len,
			    struct ipu_error *err);
IPU_API int ipu_graph_write_file(struct ipu_graph *g, const char *path,
				 struct ipu_error *err);

/* --- Partitioned operations (partition.c) ---
 *
 * Like Poplar's popops/poplin: each call creates the compute sets,
 * exchanges and vertices that spread an operation over the tiles and
 * appends the program nodes to sequence @seq. Output tensors are created
 * and mapped by the call and named @name (must be unique).
 */

/* unary ops (values of the engine's codelet library); GELU: the tanh
 * approximation x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), f32/f16 */
enum ipu_unary_op {
	IPU_OP_NEG = 1, IPU_OP_ABS, IPU_OP_EXP, IPU_OP_LOG,
	IPU_OP_SQRT, IPU_OP_TANH, IPU_OP_SIGMOID, IPU_OP_RELU,
	IPU_OP_GELU,
};
enum ipu_binary_op {
	IPU_OP_ADD = 1, IPU_OP_SUB, IPU_OP_MUL, IPU_OP_DIV, IPU_OP_MAX, IPU_OP_MIN,
};
enum ipu_reduce_op {
	IPU_REDUCE_SUM = 1, IPU_REDUCE_MAX, IPU_REDUCE_MIN,
};

/**
 * ipu_unary() - out = op(in) elementwise, out laid out like @in, or in place
 * when @name is NULL (returns @in). Returns the output tensor id.
 */
IPU_API int ipu_unary(struct ipu_graph *g, int seq, unsigned op, int in,
		      const char *name, struct ipu_error *err);
/**
 * ipu_binary() - out = a op b with numpy broadcasting both ways: the shapes
 * right-aligned, each pair of dimensions equal or one of them 1; out has
 * the broadcast of both shapes. When that is @a's shape, out is laid out
 * like @a (in place into @a when @name is NULL) and @b is broadcast onto
 * it, e.g. [C] (a bias) or [R, 1] (per row) onto [R, C], a rank-0 or
 * one-element @b (scalar); parts of @b that are not on the tile that needs
 * them are copied there (once per tile when @b has fewer elements than
 * @a). Otherwise @a is first copied to out's shape (ipu_broadcast(), a
 * tensor NAME/a#N) and a @name is required. Shapes that do not broadcast
 * are refused with -EINVAL naming both tensors and shapes; so are
 * different dtypes.
 */
IPU_API int ipu_binary(struct ipu_graph *g, int seq, unsigned op, int a, int b,
		       const char *name, struct ipu_error *err);
/** ipu_reduce() - scalar (rank 0, f32 for float input) = reduce(all of @in). */
IPU_API int ipu_reduce(struct ipu_graph *g, int seq, unsigned op, int in,
		       const char *name, struct ipu_error *err);
/** ipu_reduce_rows() - out[r] = reduce(in[r][:]) over the last dimension. */
IPU_API int ipu_reduce_rows(struct ipu_graph *g, int seq, unsigned op, int in,
			    const char *name, struct ipu_error *err);

/* --- Views (views.c) ---
 *
 * Like Poplar's Tensor methods: each call makes a new tensor @name (unique)
 * from mapped tensors. Reshape, slice, concat and a transpose that keeps
 * the innermost dimension innermost are free: the new tensor is a VIEW, its
 * elements are the input's elements in the input's tile memory (no tile
 * memory, no program), so whatever writes through it (an op in place, an
 * ipu_prog_copy() or a stream copy into it) writes the input. A transpose
 * that moves the innermost dimension, and every broadcast, are copies:
 * a new tensor that owns its memory, filled by programs appended to @seq.
 * Errors (-EINVAL, the message naming the call, @name, the tensors, shapes
 * and the fault): no graph, an unknown or not fully mapped input, no or a
 * used @name (-EEXIST), and the call's own faults below. Returns the id.
 */
/** ipu_reshape() - @in's elements, in order, as shape @shape (same element count). */
IPU_API int ipu_reshape(struct ipu_graph *g, int in, unsigned rank, const uint32_t *shape,
			const char *name, struct ipu_error *err);
/**
 * ipu_slice_dims() - in[begin[0]:end[0], begin[1]:end[1], ...]: per
 * dimension of @in a range inside it, begin <= end (begin == end: an empty
 * view) (@begin, @end: @in's rank entries). Free.
 */
IPU_API int ipu_slice_dims(struct ipu_graph *g, int in, const uint32_t *begin,
			   const uint32_t *end, const char *name, struct ipu_error *err);
/**
 * ipu_concat() - @in[0..n) joined along @axis (numpy.concatenate): the
 * same rank, dtype and dims outside @axis. Free.
 */
IPU_API int ipu_concat(struct ipu_graph *g, const int *in, unsigned n, unsigned axis,
		       const char *name, struct ipu_error *err);
/**
 * ipu_transpose() - dimension d of the result is dimension @perm[d] of
 * @in (numpy.transpose; @perm a permutation of 0..rank-1). Free when the
 * last dimension of size > 1 stays last (e.g. [A][B][C] -> [B][A][C], or
 * one moving only size-1 dims); otherwise a copy: an exchange brings each
 * tile the rows it needs, then Transpose vertices (docs/codelets.md)
 * write the result, spread by rows over the tiles (appended to @seq).
 */
IPU_API int ipu_transpose(struct ipu_graph *g, int seq, int in, const unsigned *perm,
			  const char *name, struct ipu_error *err);
/**
 * ipu_broadcast() - @in broadcast to (@rank, @shape) by numpy's rules
 * (shapes right-aligned, each of @in's dims 1 or equal). Always a copy
 * (one exchange appended to @seq) into a new tensor spread over the tiles,
 * so that no two elements alias one memory cell.
 */
IPU_API int ipu_broadcast(struct ipu_graph *g, int seq, int in, unsigned rank,
			  const uint32_t *shape, const char *name, struct ipu_error *err);

/**
 * struct ipu_matmul_plan - how C[m][n] = A[m][k] x B[k][n] is spread: the
 * tiles form a pm x pn x pk grid and K is cut in pk * ks blocks; in serial
 * step s, tile (i, j, l) adds the product of A block (i, l * ks + s) and B
 * block (l * ks + s, j) (bm x bk and bk x bn) to its partial C block; when
 * pk > 1 the pk partials of a C block are then summed by the tiles that own
 * the C block's rows. ks > 1 only when the blocks would not fit the tile
 * memory otherwise. Chosen by ipu_matmul_plan() to minimise the modelled
 * cycles (compute at the AMP rate on the codelet's register-block padded
 * sizes, exchange at 4 bytes/cycle/tile, phase latencies) within tile
 * memory.
 */
struct ipu_matmul_plan {
	uint32_t m, n, k;
	unsigned dtype;		/* of A and B: IPU_DTYPE_F32 or F16; C is f32 */
	uint32_t pm, pn, pk;	/* grid */
	uint32_t ks;		/* serial steps over K (>= 1) */
	uint32_t bm, bn, bk;	/* block (the last blocks may be smaller) */
	uint32_t tiles;		/* pm * pn * pk */
	uint64_t est_cycles;	/* modelled: compute + exchange + reduction */
	uint64_t tile_bytes;	/* estimated bytes per tile (inputs included) */
	uint32_t reserved[6];
};
/** Plan for @g's model; 0 or -ENOSPC when no grid fits the tile memory. */
IPU_API int ipu_matmul_plan(const struct ipu_graph *g, uint32_t m, uint32_t n,
			    uint32_t k, unsigned dtype,
			    struct ipu_matmul_plan *plan, struct ipu_error *err);
/**
 * ipu_matmul_create_lhs() / _rhs() - A [m][k] / B [k][n] laid out as @plan
 * wants them: each block on one of the tiles that use it, contiguous, so
 * that the matmul needs no rearrangement.
 */
IPU_API int ipu_matmul_create_lhs(struct ipu_graph *g,
				  const struct ipu_matmul_plan *plan,
				  const char *name, struct ipu_error *err);
IPU_API int ipu_matmul_create_rhs(struct ipu_graph *g,
				  const struct ipu_matmul_plan *plan,
				  const char *name, struct ipu_error *err);
/**
 * ipu_matmul() - C = A x B (rank-2 tensors of any layout; A [m][k], B
 * [k][n], A and B of one dtype f32/f16); C is f32 [m][n], created and
 * named @name. @plan NULL: planned now. Returns C's tensor id.
 * Same as ipu_matmul_ex() with flags 0.
 */
IPU_API int ipu_matmul(struct ipu_graph *g, int seq, int a, int b,
		       const char *name, const struct ipu_matmul_plan *plan,
		       struct ipu_error *err);

/* ipu_matmul_ex() / ipu_matmul_grouped() flags: use the stored operand transposed */
#define IPU_MATMUL_TRANSPOSE_A	1u	/* A stored [k][m], used as A^T */
#define IPU_MATMUL_TRANSPOSE_B	2u	/* B stored [n][k], used as B^T */

/**
 * ipu_matmul_ex() - C = op(A) x op(B), op() transposing the operands
 * @flags name (IPU_MATMUL_TRANSPOSE_*); like Poplar's poplin::matMul on
 * transposed views, so dX = dY x W^T and dW = X^T x dY need no
 * materialised transpose. op(A) is [m][k], op(B) [k][n]; C is f32 [m][n],
 * created and named @name; @plan (for m, n, k; NULL: planned now) is not
 * kept. TRANSPOSE_B costs nothing (the codelet reads B as [n][k]);
 * TRANSPOSE_A transposes A in the operand exchange, one copy per element
 * of A, shared out over the tiles using each block (see docs/builder.md). Appends to @seq; the graph owns everything created.
 * Returns C's tensor id, or -EINVAL (message names the matmul, the
 * tensors, their shapes and the reason) for unknown flags, ranks other
 * than 2, K mismatch, dtypes other than both f32 or both f16, unmapped
 * operands or a plan for other sizes; -ENOSPC when it does not fit;
 * -EEXIST when @name is taken; -ENOMEM.
 */
IPU_API int ipu_matmul_ex(struct ipu_graph *g, int seq, int a, int b,
			  unsigned flags, const char *name,
			  const struct ipu_matmul_plan *plan,
			  struct ipu_error *err);
/**
 * ipu_matmul_grouped() - C[g] = op(A[g]) x op(B[g]) for G groups, like
 * poplin::matMulGrouped: A [G][m][k] (TRANSPOSE_A: [G][k][m]), B [G][k][n]
 * (TRANSPOSE_B: [G][n][k]), C f32 [G][m][n] named @name. Groups run side
 * by side on disjoint tiles, as many at once as the chip has room for
 * grids of @plan (one group's m x n x k; NULL: planned now, trading
 * tiles per group against waves of groups with ipu_matmul_plan()'s cost
 * model). Ownership and errors as ipu_matmul_ex(); -EINVAL also for ranks
 * other than 3, group counts that differ and empty groups.
 */
IPU_API int ipu_matmul_grouped(struct ipu_graph *g, int seq, int a, int b,
			       unsigned flags, const char *name,
			       const struct ipu_matmul_plan *plan,
			       struct ipu_error *err);

/* --- popops-level ops (popops.c) ---
 *
 * Like Poplar's popops: cast, reductions along any axes, comparisons,
 * select and argmax, each appending its program nodes to sequence @seq and
 * creating its output tensor @name (non-NULL, unique) and temporaries
 * "@name/..." (those names must be free as well). Errors: -EINVAL (message
 * names the op, the tensor and the reason) for a NULL graph, a missing
 * name, an unknown op, a tensor that is not fully mapped, a bad dtype, bad
 * axes, shapes that do not broadcast; -EEXIST when @name is taken;
 * -ENOSPC when a tile runs out of memory; -ENOMEM. On an error the graph
 * may hold some of the op's objects already: drop it. (Tensors have no
 * empty dimensions in this builder, so no op sees an empty input.)
 */

/* comparisons: values of the engine's binary codelet ops (IPUE_BOP_EQ ...) */
enum ipu_compare_op {
	IPU_CMP_EQ = 7, IPU_CMP_NE, IPU_CMP_LT, IPU_CMP_LE, IPU_CMP_GT, IPU_CMP_GE,
};

/**
 * ipu_cast() - out = @in converted to @dtype (IPU_DTYPE_F32, F16 or I32),
 * of @in's shape and laid out like it (popops::cast). f32 -> f16 rounds to
 * nearest even (overflow to Inf); float -> i32 truncates toward zero,
 * saturates, NaN -> 0; i32 -> float rounds to nearest even; the same dtype
 * copies (docs/codelets.md, Cast). Returns the output's id.
 */
IPU_API int ipu_cast(struct ipu_graph *g, int seq, int in, unsigned dtype,
		     const char *name, struct ipu_error *err);
/**
 * ipu_reduce_axes() - out = reduce(@in) over dimensions @axes[0..@naxes)
 * (IPU_REDUCE_SUM, MAX, MIN; numpy's keepdims=False): the output has @in's
 * shape without those dimensions, rank 0 when all are reduced, @in itself
 * reduced over nothing (converted) when @naxes is 0. Axes may be negative
 * (-1: the last); out of range or repeated axes are refused. Output dtype:
 * @in's, f32 for f16 input; sums and NaN as ipu_reduce(). When the reduced
 * dimensions are the trailing ones (dimensions of 1 aside) the rows reduce
 * where they lie, as ipu_reduce_rows() (whose case this is); otherwise
 * each tile reduces what it holds into partials per output column, which
 * exchange "@name/gather" brings to the output's tiles for a second
 * reduction (docs/builder.md). Returns the output's id.
 */
IPU_API int ipu_reduce_axes(struct ipu_graph *g, int seq, unsigned op, int in,
			    const int *axes, unsigned naxes, const char *name,
			    struct ipu_error *err);
/**
 * ipu_compare() - out = (a op b) as i32 0/1 (IPU_CMP_*), @a and @b
 * broadcast both ways as in ipu_binary() (out of @a's shape and laid out
 * like @a when @b broadcasts onto @a; same dtype, any of f32, f16, i32). IEEE: a NaN operand makes every comparison false
 * but NE, and -0 == +0. Returns the output's id.
 */
IPU_API int ipu_compare(struct ipu_graph *g, int seq, unsigned op, int a, int b,
			const char *name, struct ipu_error *err);
/**
 * ipu_select() - out = cond ? a : b elementwise (popops::select), of @a's
 * shape, dtype and layout. @cond: i32 (non-zero: take @a) of @a's shape
 * (an ipu_compare() result); @b of @a's dtype, broadcast onto @a as in
 * ipu_binary() (@a itself is not broadcast here). Values are copied bit for bit. Returns the output's id.
 */
IPU_API int ipu_select(struct ipu_graph *g, int seq, int cond, int a, int b,
		       const char *name, struct ipu_error *err);
/**
 * ipu_argmax() - out[r] = the index of the maximum of row r of @in (its
 * last dimension), i32 of @in's shape without that dimension; the first
 * index on ties, and the first NaN when a row holds one (numpy.argmax).
 * Rows lying whole in one tile's piece are searched in place, others are
 * gathered first ("@name/gather"). Empty rows (last dimension 0) are
 * refused (numpy raises). Returns the output's id.
 */
IPU_API int ipu_argmax(struct ipu_graph *g, int seq, int in, const char *name,
		       struct ipu_error *err);

/* --- popnn-level ops (nn.c) ---
 *
 * Like Poplar's popnn, composed from the partitioned operations above (row
 * reductions, broadcast binary ops, exp and log; the nonlinearities and
 * their gradients have codelets of their own), with their program nodes
 * appended to sequence @seq. Each call creates its output tensor @name
 * (unique; laid out like the input; non-NULL except where a NULL name
 * means in place) and temporaries named
 * "@name/..." (max, sum, exp, ...), so those names must be free as well.
 * Errors: -EINVAL (message names the op, the tensor and the reason) for a
 * NULL graph, a missing name, a tensor that is not f32 or not fully mapped,
 * a bad shape; -EEXIST when @name is taken; -ENOSPC when a tile runs out
 * of memory; -ENOMEM.
 */

/**
 * ipu_softmax() - out = exp(x - max) / sum(exp(x - max)) over the last
 * dimension of @in (f32, rank >= 1), each row shifted by its maximum so
 * that exp() cannot overflow (logits of 1e3 or more are fine). Returns the
 * output's id.
 */
IPU_API int ipu_softmax(struct ipu_graph *g, int seq, int in, const char *name,
			struct ipu_error *err);
/**
 * ipu_log_softmax() - out = (x - max) - log(sum(exp(x - max))) over the
 * last dimension of @in (f32, rank >= 1); stable as ipu_softmax(). Returns
 * the output's id.
 */
IPU_API int ipu_log_softmax(struct ipu_graph *g, int seq, int in,
			    const char *name, struct ipu_error *err);
/**
 * ipu_softmax_grad() - the input gradient of ipu_softmax():
 * dx = y * (dy - sum(dy * y)) over the last dimension, @y the softmax
 * output and @dy d loss / d y (both f32 of one shape, fully mapped). dx is
 * created as @name laid out like @dy; temporaries "@name/...". Returns
 * dx's id. Errors as ipu_softmax(), plus -EINVAL when @y and @dy differ in
 * shape.
 */
IPU_API int ipu_softmax_grad(struct ipu_graph *g, int seq, int y, int dy,
			     const char *name, struct ipu_error *err);
/**
 * ipu_log_softmax_grad() - the input gradient of ipu_log_softmax():
 * dx = dy - exp(y) * sum(dy) over the last dimension, @y the log-softmax
 * output. Arguments, result and errors as ipu_softmax_grad().
 */
IPU_API int ipu_log_softmax_grad(struct ipu_graph *g, int seq, int y, int dy,
				 const char *name, struct ipu_error *err);
/**
 * ipu_cross_entropy() - mean cross-entropy loss of a batch:
 * loss = -(1/N) sum_n sum_c targets[n][c] * log_softmax(logits)[n][c]
 * @logits:    f32 [N][C], unnormalised scores
 * @targets:   f32 [N][C]: one-hot rows (class labels) or class
 *             probabilities, each row summing to 1 (not checked)
 * @name:      the loss, a rank-0 f32 tensor created by the call
 * @grad_name: NULL: no gradient; else the name of the gradient
 *             d(loss)/d(logits) = (softmax(logits) - targets) / N, an f32
 *             [N][C] tensor laid out like @logits, whose id goes to *@grad
 *             (non-NULL then)
 * Returns the loss's id. Temporaries are named "@name/..." and
 * "@grad_name/...".
 */
IPU_API int ipu_cross_entropy(struct ipu_graph *g, int seq, int logits,
			      int targets, const char *name,
			      const char *grad_name, int *grad,
			      struct ipu_error *err);
/**
 * ipu_cross_entropy_labels() - ipu_cross_entropy() with integer class
 * labels (PyTorch's CrossEntropyLoss with class indices): @labels is an
 * i32 [N] tensor (fully mapped, any layout) and the target of row n is
 * one-hot at class labels[n], built on the device as (labels[n] == c)
 * into an f32 [N][C] tensor "@name/onehot" laid out like @logits (with an
 * i32 constant "@name/classes" of its shape holding c, and "@name/match").
 * A label outside [0, C) is never used as an address: its row's target is
 * all zero, so the row adds 0 to the loss and softmax(row) / N to the
 * gradient (check labels on the host if that matters). Loss, gradient,
 * @name, @grad_name and @grad as ipu_cross_entropy(); -EINVAL also for
 * labels that are not i32 or not of shape [N] (their shape named).
 */
IPU_API int ipu_cross_entropy_labels(struct ipu_graph *g, int seq, int logits,
				     int labels, const char *name,
				     const char *grad_name, int *grad,
				     struct ipu_error *err);

/* nonlinearities (popnn::NonLinearityType; values of the engine's gradient codelets) */
enum ipu_nonlinearity {
	IPU_NL_RELU = 1,	/* max(x, 0) */
	IPU_NL_GELU,		/* tanh approximation, as IPU_OP_GELU */
	IPU_NL_SIGMOID,		/* 1 / (1 + exp(-x)) */
	IPU_NL_TANH,
};
/**
 * ipu_nonlinearity() - out = f(in) elementwise (popnn::nonLinearity), for
 * @in f32 or f16 of any shape (fully mapped); out is laid out like @in and
 * named @name, or @in itself when @name is NULL (in place, returns @in;
 * the only case where the name may be NULL). One compute set, appended to
 * @seq. Returns the output's id. Errors: -EINVAL naming the tensor and the
 * reason (NULL graph, unknown @type, no such tensor, i32, unmapped),
 * -EEXIST for a taken @name, -ENOSPC, -ENOMEM.
 */
IPU_API int ipu_nonlinearity(struct ipu_graph *g, int seq, unsigned type,
			     int in, const char *name, struct ipu_error *err);
/**
 * ipu_nonlinearity_grad() - the input gradient of a nonlinearity
 * (popnn::nonLinearityInputGradient): in_grad = f'(x) * out_grad.
 * @act:      for RELU, SIGMOID and TANH the forward OUTPUT y = f(x) (as in
 *            Poplar: f' is a function of it, y' = y (1 - y), 1 - y^2,
 *            y > 0); for GELU the forward INPUT x (its derivative is not a
 *            function of the output, which is not one-to-one)
 * @out_grad: d loss / d y, of @act's dtype (f32 or f16) and shape
 * @name:     the gradient, created laid out like @out_grad; NULL: written
 *            over @out_grad (in place, returns @out_grad)
 * Parts of @act that are not on @out_grad's tiles are copied there first.
 * Returns the gradient's id. Errors as ipu_nonlinearity(), plus -EINVAL
 * when @act and @out_grad differ in dtype or shape (both named).
 */
IPU_API int ipu_nonlinearity_grad(struct ipu_graph *g, int seq, unsigned type,
				  int act, int out_grad, const char *name,
				  struct ipu_error *err);

/* --- normalisation (norm.c) ---
 *
 * Batch norm and layer norm, forward and backward, like popnn::bn and
 * popnn::ln; composed from ipu_reduce_axes() and broadcast binary ops. The
 * variance is the mean of squared deviations from the mean (two passes:
 * exact for data with a large mean, unlike E[x^2] - E[x]^2), biased (/M,
 * as in training). All tensors are f32 and fully mapped; the outputs are
 * created and named by the call, the output named @name laid out like @x
 * (@dy for the gradients), temporaries "@name/..." (sum, sq, var, count,
 * eps, one, scale, xhat, ...; those names must be free). The graph owns
 * everything. Errors: -EINVAL (message names the op, the tensor, its
 * shape and the wanted one) for a NULL graph, a missing name, an unmapped
 * or non-f32 tensor, a wrong rank, gamma/beta/statistics of the wrong
 * shape, @eps not finite and > 0, NULL output pointers, k out of range;
 * -EEXIST when a name is taken; -ENOSPC; -ENOMEM. On an error after the
 * checks the graph may hold part of the op: drop it.
 */

/**
 * ipu_batch_norm() - training-mode batch norm of @x [N][C] (statistics per
 * feature over N) or [N][C][H][W] (per channel over N, H, W):
 * y = (x - mean) * inv_std * gamma + beta, inv_std = 1 / sqrt(var + @eps)
 * with the batch's mean and (biased) variance. @gamma, @beta: f32 [C].
 * The statistics are created as "@name/mean" and "@name/inv_std" (f32
 * [C]) and their ids stored in *@mean and *@inv_std, for
 * ipu_batch_norm_grad() (and the host's running averages). Returns y's id.
 */
IPU_API int ipu_batch_norm(struct ipu_graph *g, int seq, int x, int gamma,
			   int beta, float eps, const char *name, int *mean,
			   int *inv_std, struct ipu_error *err);
/**
 * ipu_batch_norm_infer() - inference-mode batch norm with given statistics
 * (e.g. running averages): y = (x - @mean) / sqrt(@var + @eps) * gamma +
 * beta, @mean and @var f32 [C]; shapes of @x, @gamma, @beta as
 * ipu_batch_norm(). One pass over x after a per-channel
 * "@name/scale" = gamma / sqrt(var + eps). Returns y's id.
 */
IPU_API int ipu_batch_norm_infer(struct ipu_graph *g, int seq, int x,
				 int gamma, int beta, int mean, int var,
				 float eps, const char *name,
				 struct ipu_error *err);
/**
 * ipu_batch_norm_grad() - the backward of ipu_batch_norm(): with
 * xhat = (x - mean) * inv_std and M = N (H W) elements per channel,
 * d_beta = sum(dy), d_gamma = sum(dy * xhat) per channel and
 * dx = gamma * inv_std * (dy - d_beta / M - xhat * d_gamma / M).
 * @x the forward input, @dy d loss / d y (f32 of x's shape), @mean and
 * @inv_std the forward's statistics, @gamma the forward's. dx is created
 * as @name; d_gamma and d_beta as "@name/d_gamma", "@name/d_beta" (f32
 * [C]), their ids stored in *@d_gamma, *@d_beta. Returns dx's id.
 */
IPU_API int ipu_batch_norm_grad(struct ipu_graph *g, int seq, int x, int dy,
				int mean, int inv_std, int gamma,
				const char *name, int *d_gamma, int *d_beta,
				struct ipu_error *err);
/**
 * ipu_layer_norm() - layer norm of @x over its last @k dimensions
 * (1 <= k <= rank; k = 1: the last axis): statistics per index of the
 * leading rank - k dimensions, y = (x - mean) * inv_std * gamma + beta
 * with @gamma and @beta f32 of the last k dimensions' shape (per element
 * of the normalised part). Statistics "@name/mean", "@name/inv_std" of
 * the leading dimensions' shape (rank 0 when k = rank), ids to *@mean and
 * *@inv_std. Returns y's id.
 */
IPU_API int ipu_layer_norm(struct ipu_graph *g, int seq, int x, int gamma,
			   int beta, unsigned k, float eps, const char *name,
			   int *mean, int *inv_std, struct ipu_error *err);
/**
 * ipu_layer_norm_grad() - the backward of ipu_layer_norm() (same @k): with
 * xhat as above, g = dy * gamma and M the normalised elements per row,
 * dx = inv_std * (g - sum(g) / M - xhat * sum(g * xhat) / M) per row;
 * d_gamma = sum(dy * xhat), d_beta = sum(dy) over the leading dimensions.
 * Outputs and ids as ipu_batch_norm_grad(); d_gamma and d_beta have
 * gamma's shape. Returns dx's id.
 */
IPU_API int ipu_layer_norm_grad(struct ipu_graph *g, int seq, int x, int dy,
				int mean, int inv_std, int gamma, unsigned k,
				const char *name, int *d_gamma, int *d_beta,
				struct ipu_error *err);
/* --- fused elementwise expressions (expr.c, map.c) ---
 *
 * Like popops::map with popops::expr: an expression tree over placeholders
 * _1 .. _N (the inputs), constants and the elementwise ops above, run as
 * ONE compute set (one vertex kind, the Map codelet, docs/codelets.md)
 * instead of one compute set and sync per op. Results equal the chain of
 * separate ops bit for bit: each node rounds to its dtype as the separate
 * op does.
 *
 * Ownership: struct ipu_expr is opaque and reference-counted. Every
 * constructor returns a new reference (NULL on an error, reported in
 * @err) and TAKES OVER the references to its operands, on success and on
 * failure alike, so calls nest: ipu_expr_binary(IPU_OP_ADD,
 * ipu_expr_input(1, err), ipu_expr_const(1.0, err), err). A NULL operand
 * (a failed inner call) makes the outer call fail too, keeping the first
 * message. To use a node twice, pass ipu_expr_ref(node) the second time.
 * ipu_map() only reads the expression; drop yours with ipu_expr_free().
 * Expressions hold no graph state and may be reused across graphs.
 *
 * Dtypes come from the inputs at ipu_map() time: binary ops, comparisons
 * and select's a and b need one dtype (cast with ipu_expr_cast()), select's
 * cond is i32; i32 allows only neg, abs and relu among the unary ops. An
 * untyped constant (ipu_expr_const) takes the dtype of its sibling operand;
 * ipu_expr_const_typed() fixes it. Constants are rounded to f32, then to
 * their dtype; i32 constants must be integers in range.
 */
#define IPU_EXPR_MAX_INPUTS	7	/* placeholders _1 .. _7 */
#define IPU_EXPR_MAX_DEPTH	32	/* levels of a tree */
struct ipu_expr;

/** ipu_expr_input() - placeholder _@k (1 .. IPU_EXPR_MAX_INPUTS): ipu_map()'s input k - 1. */
IPU_API struct ipu_expr *ipu_expr_input(unsigned k, struct ipu_error *err);
/** ipu_expr_const() - a constant of its sibling operand's dtype. */
IPU_API struct ipu_expr *ipu_expr_const(double v, struct ipu_error *err);
/** ipu_expr_const_typed() - a constant of @dtype (f32, f16, i32; 0: untyped). */
IPU_API struct ipu_expr *ipu_expr_const_typed(unsigned dtype, double v, struct ipu_error *err);
/** ipu_expr_unary() - op(@x), IPU_OP_NEG .. IPU_OP_GELU, as ipu_unary(). */
IPU_API struct ipu_expr *ipu_expr_unary(unsigned op, struct ipu_expr *x, struct ipu_error *err);
/** ipu_expr_nonlinearity() - f(@x), IPU_NL_*, as ipu_nonlinearity(). */
IPU_API struct ipu_expr *ipu_expr_nonlinearity(unsigned type, struct ipu_expr *x, struct ipu_error *err);
/** ipu_expr_binary() - @a op @b, IPU_OP_ADD .. IPU_OP_MIN, as ipu_binary(). */
IPU_API struct ipu_expr *ipu_expr_binary(unsigned op, struct ipu_expr *a, struct ipu_expr *b,
					 struct ipu_error *err);
/** ipu_expr_compare() - (@a op @b) as i32 0/1, IPU_CMP_*, as ipu_compare(). */
IPU_API struct ipu_expr *ipu_expr_compare(unsigned op, struct ipu_expr *a, struct ipu_expr *b,
					  struct ipu_error *err);
/** ipu_expr_select() - @cond ? @a : @b, as ipu_select(). */
IPU_API struct ipu_expr *ipu_expr_select(struct ipu_expr *cond, struct ipu_expr *a, struct ipu_expr *b,
					 struct ipu_error *err);
/** ipu_expr_cast() - @x converted to @dtype, as ipu_cast(). */
IPU_API struct ipu_expr *ipu_expr_cast(struct ipu_expr *x, unsigned dtype, struct ipu_error *err);
/** ipu_expr_ref() - one more reference to @e (NULL stays NULL); returns @e. */
IPU_API struct ipu_expr *ipu_expr_ref(struct ipu_expr *e);
/** ipu_expr_free() - drop a reference; the last frees the tree. NULL is ignored. */
IPU_API void ipu_expr_free(struct ipu_expr *e);

/**
 * ipu_map() - out = @e(@inputs[0], ..., @inputs[@ninputs - 1]) elementwise
 * in one compute set "@name/map" (popops::map). The inputs (1 ..
 * IPU_EXPR_MAX_INPUTS, any dtypes, fully mapped) broadcast onto one
 * shape by numpy's rules (right-aligned, each dimension 1 or the common
 * size), the output's: created as @name, laid out like the first input of
 * that shape (none: spread over the tiles linearly), of the expression's
 * dtype. @name NULL: in place into @inputs[0] (popops::mapInPlace), which
 * must have the output's shape and dtype; returns @inputs[0]. Parts of
 * inputs not on the tile that needs them are copied there first (exchange
 * "@name/operand", as ipu_binary()). The graph owns what is created; @e
 * is only read. Returns the output's id, or -EINVAL naming the map, the
 * tensor or node and the reason (NULL graph or expression, no inputs or
 * too many, a tensor that is not fully mapped, shapes that do not
 * broadcast, a placeholder beyond the inputs, dtype mismatches, an
 * expression too long or too deep for the codelet: at most 31 program
 * bytes and 8 live values, docs/codelets.md); -EEXIST when @name is
 * taken; -ENOSPC; -ENOMEM.
 */
IPU_API int ipu_map(struct ipu_graph *g, int seq, const struct ipu_expr *e, const int *inputs,
		    unsigned ninputs, const char *name, struct ipu_error *err);

/* --- training: optimizers (optim.c) ---
 *
 * Weight updates on the device, like popops::scaledAddTo and the Poplar
 * MNIST demo's SGD. An optimizer named @name creates its state as tensors
 * "@name/..." laid out like the weights (zero at load, exposed for
 * read/write so that the host can checkpoint or reset them) and appends
 * to @seq one exchange (gradient pieces not on their weights' tiles,
 * per-tile copies of the learning rate or step factors) and one compute
 * set of fused vertices, one per tile-contiguous region of the weights
 * (codelets 0x0Axx, docs/codelets.md). Run the same program every step:
 * weights and state stay on the device between runs. Weights and
 * gradients are f32 (f16 weights are refused: keep an f32 master copy);
 * the gradient may have any layout. The graph owns everything created;
 * nothing is returned to free. Errors (nothing added to the graph when
 * the arguments are refused): -EINVAL naming the op, the tensor and the
 * reason (NULL graph, missing name, unmapped tensor, dtype, shape
 * mismatch, weights passed as their own gradient, hyper-parameter out of
 * range), -EEXIST when a "@name/..." tensor exists; errors while adding
 * (e.g. -ENOSPC: tile memory) may leave part of the update in the graph.
 */

/**
 * ipu_scaled_add() - @x += @scale * @y in place (popops::scaledAddTo), @x
 * and @y of one shape and dtype (f32 or f16, f16 computed in f32 and
 * rounded once), any layouts (parts of @y not on @x's tiles are copied
 * there); @y may be @x. @scale must be finite. Returns @x.
 */
IPU_API int ipu_scaled_add(struct ipu_graph *g, int seq, int x, int y, float scale,
			   struct ipu_error *err);
/**
 * ipu_sgd_momentum() - SGD with momentum, PyTorch's convention (dampening
 * 0, no Nesterov, no weight decay): v = momentum * v + grad; w -= lr * v.
 * (Poplar's and Sutskever's v = momentum * v - lr * grad agree with it when
 * lr is constant.) Creates "@name/velocity" (laid out like @w) and the
 * learning rate "@name/lr", an f32 scalar on @w's first tile holding @lr
 * at load: the host may write it between runs (a learning-rate schedule;
 * not validated on the device). @momentum is a build-time constant.
 * @lr finite and >= 0, @momentum in [0, 1). Each element is computed in
 * double and v, w rounded to f32 once. Returns the id of "@name/lr".
 */
IPU_API int ipu_sgd_momentum(struct ipu_graph *g, int seq, int w, int grad, float lr,
			     float momentum, const char *name, struct ipu_error *err);

/** Adam's hyper-parameters; IPU_ADAM_DEFAULTS are PyTorch's. */
struct ipu_adam_params {
	float lr;	/* finite, >= 0; initial value of "@name/lr" */
	float beta1;	/* [0, 1) */
	float beta2;	/* [0, 1) */
	float eps;	/* > 0, finite */
};
#define IPU_ADAM_DEFAULTS { .lr = 1e-3f, .beta1 = 0.9f, .beta2 = 0.999f, .eps = 1e-8f }

/**
 * ipu_adam() - Adam (Kingma & Ba, with bias correction), as PyTorch
 * computes it: t += 1; m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
 * w -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps). Creates
 * "@name/m", "@name/v" (f32, laid out like @w), the step counter
 * "@name/step" (i32 scalar, 0 at load; the host may read it, or write 0 to
 * restart the bias correction), "@name/lr" (f32 scalar, host-writable as
 * for SGD) and "@name/k" (internal). Each run, one vertex on @w's first
 * tile advances the step and computes the step factors from it, so the
 * same program serves every step. @p NULL: IPU_ADAM_DEFAULTS. Returns the
 * id of "@name/lr".
 */
IPU_API int ipu_adam(struct ipu_graph *g, int seq, int w, int grad,
		     const struct ipu_adam_params *p, const char *name,
		     struct ipu_error *err);

/* --- poplin/popnn-level convolution and pooling (conv.c, pool.c) ---
 *
 * NCHW images: x [N][C][H][W]. Each call appends its exchanges and compute
 * sets to @seq and creates its output "@name" (f32, laid out by the op
 * over all tiles) and temporaries "@name/...". The graph owns everything.
 * Errors (-EINVAL unless said, naming the op, the output, the tensors and
 * the cause; nothing added when the arguments are refused): NULL graph,
 * missing or taken name (-EEXIST), tensors that are not rank 4 or not fully
 * mapped, dtypes, shape mismatches (both shapes quoted), groups that do not
 * divide the channels, zero stride or dilation, a kernel bigger than the
 * padded input, extents of 65536 or more, an unknown params argsz or
 * non-zero bytes past the known fields; -ENOSPC when the work does not fit
 * in tile memory even one output position a tile. See docs/builder.md,
 * "poplin: conv2d" and "popnn: pooling".
 *
 * Options structs are versioned by @argsz (like Linux's extensible
 * syscall structs): set it to sizeof(the struct) you compiled with; a
 * newer library reads only that many bytes and defaults the rest, an
 * older one refuses an argsz larger than its own unless the extra bytes
 * are zero.
 */

/** Convolution options; IPU_CONV2D_PARAMS_INIT: stride 1, no padding, dilation 1, 1 group. */
struct ipu_conv2d_params {
	uint32_t argsz;		/* sizeof(struct ipu_conv2d_params) */
	uint32_t stride[2];	/* y, x; >= 1 */
	uint32_t dilation[2];	/* y, x; >= 1 (1: dense kernel) */
	uint32_t padding[4];	/* zeros before/after: top, bottom, left, right */
	uint32_t groups;	/* >= 1, divides Cin and Cout; Cin = Cout = groups: depthwise */
};
#define IPU_CONV2D_PARAMS_INIT { sizeof(struct ipu_conv2d_params), { 1, 1 }, { 1, 1 }, { 0, 0, 0, 0 }, 1 }

/**
 * ipu_conv2d() - y = conv2d(x, w) like poplin::convolution (cross-
 * correlation, as PyTorch's conv2d): x [N][Cin][H][W], w
 * [Cout][Cin/groups][KH][KW], both f32 or both f16 (f32 accumulation), y
 * f32 [N][Cout][OH][OW] with OH = (H + pad_top + pad_bottom - ((KH-1) *
 * dil_y + 1)) / stride_y + 1 (OW alike). @p NULL: IPU_CONV2D_PARAMS_INIT.
 * Lowered per tile to Im2Col (codelet 0x0703) + MatMulPartial: exchange
 * "@name/gather" brings each tile the input rows and weights of its block
 * of output positions. No bias: add one [Cout][1][1] with ipu_binary().
 * Returns y's id.
 */
IPU_API int ipu_conv2d(struct ipu_graph *g, int seq, int x, int w, const struct ipu_conv2d_params *p,
		       const char *name, struct ipu_error *err);
/**
 * ipu_conv2d_grad_input() - dx = d loss / d x of ipu_conv2d(x, w, p) given
 * dy = d loss / d y (f32 [N][Cout][OH][OW]); @x is only read for its
 * shape (it need not be mapped), @w f32. dx f32 of x's shape. Lowered to
 * MatMulPartial (W^T, made once as "@name/wt") + Col2Im (0x0704) per
 * block of input rows. Returns dx's id.
 */
IPU_API int ipu_conv2d_grad_input(struct ipu_graph *g, int seq, int dy, int w, int x,
				  const struct ipu_conv2d_params *p, const char *name,
				  struct ipu_error *err);
/**
 * ipu_conv2d_grad_weights() - dw = d loss / d w of ipu_conv2d(x, w, p)
 * given dy; @x f32 (mapped), @w only read for its shape. dw f32 of w's
 * shape: per block of positions, Im2Col + MatMulPartial write a partial
 * "@name/partials" [I][Cout][Cin/groups][KH][KW], summed over I by
 * ipu_reduce_axes(). The bias gradient is ipu_reduce_axes(SUM, dy,
 * {0, 2, 3}). Returns dw's id.
 */
IPU_API int ipu_conv2d_grad_weights(struct ipu_graph *g, int seq, int x, int dy, int w,
				    const struct ipu_conv2d_params *p, const char *name,
				    struct ipu_error *err);

/** Pool kinds */
#define IPU_POOL_MAX	1u	/* maximum; NaN wins; padding never wins */
#define IPU_POOL_AVG	2u	/* sum / (KH * KW): padding counts as 0 (count_include_pad) */

/** Pooling options (no defaults: the kernel must be given). */
struct ipu_pool2d_params {
	uint32_t argsz;		/* sizeof(struct ipu_pool2d_params) */
	uint32_t kernel[2];	/* KH, KW >= 1 */
	uint32_t stride[2];	/* >= 1 */
	uint32_t padding[4];	/* top, bottom, left, right; each below the kernel's extent */
};

/**
 * ipu_pool2d() - y = pool(x) like popnn::pooling::pool: @op IPU_POOL_MAX
 * or IPU_POOL_AVG, x f32 [N][C][H][W], y f32 [N][C][OH][OW] (OH as
 * ipu_conv2d() without dilation). Max: the first maximum in (ky, kx)
 * order, a NaN in the window gives NaN. Average: the f32 sum of the
 * window's image pixels in (ky, kx) order divided by KH * KW. Codelets
 * MaxPool/AvgPool (0x0B01/0x0B02). Returns y's id.
 */
IPU_API int ipu_pool2d(struct ipu_graph *g, int seq, unsigned op, int x,
		       const struct ipu_pool2d_params *p, const char *name, struct ipu_error *err);
/**
 * ipu_pool2d_grad() - dx = d loss / d x of ipu_pool2d(op, x, p) given dy
 * (f32 [N][C][OH][OW]); dx f32 of x's shape. Max: each dy element goes to
 * its window's argmax, the first maximum in (ky, kx) order (the first NaN
 * when there is one), as PyTorch's max_pool2d indices; overlapping windows
 * add in ascending output position. Average: dy / (KH * KW) to every image
 * pixel of the window. @x must be mapped for IPU_POOL_MAX (its values pick
 * the argmax), only its shape is read for IPU_POOL_AVG. Returns dx's id.
 */
IPU_API int ipu_pool2d_grad(struct ipu_graph *g, int seq, unsigned op, int x, int dy,
			    const struct ipu_pool2d_params *p, const char *name, struct ipu_error *err);

/* --- collectives in the manner of GCL (collectives.c; docs/builder.md "Collectives") ---
 * The operand is "replicated per IPU", one slice per IPU:
 *  - in a graph of N IPUs (ipu_graph_create_multi()), a tensor of rank >= 1
 *    with shape[0] == N whose row i lies wholly on IPU i (e.g. mapped with
 *    ipu_graph_map_rows_to_ipus()); slice i = row i, of n elements;
 *  - in a replicated graph, any tensor of the replica: slice r = replica
 *    r's copy, of n = its elements.
 * Slices are cut into N chunks of n / N elements (n must be a multiple of
 * N), chunk c going to rank c. The steps run on a ring through the IPUs in
 * the ladder's order (ipu_collective_ring()), each step one exchange
 * between ring neighbours and, for reductions, one compute set adding the
 * received partials in place; each reduction sums in the fixed order the
 * doc gives for its method, so results are deterministic, the same on
 * every backend, and the same on every rank.
 * Ops append their programs to sequence @seq. Dtypes f32, f16 (summed in
 * f16) and i32. Errors (negative errno, message naming the op and tensor):
 * -EINVAL (not a graph of >= 2 IPUs or a replicated one, bad shape or
 * layout, n not a multiple of N, unknown op or method, name taken),
 * -ENOSPC (tile memory), -ENOMEM.
 */
enum ipu_collective_op {
	IPU_COLL_SUM = 1,	/* the sum of the slices */
	IPU_COLL_MEAN,		/* the sum divided by N (exact: N is a power of two); f32, f16 */
	IPU_COLL_MAX,
	IPU_COLL_MIN,
	IPU_COLL_OP_COUNT_
};
enum ipu_collective_method {
	IPU_COLL_AUTO = 0,		/* the least modelled cycles (ipu_collective_method()) */
	IPU_COLL_CLOCKWISE,		/* one ring, data to the next IPU of the ring order */
	IPU_COLL_ANTICLOCKWISE,		/* one ring, data to the previous IPU */
	IPU_COLL_BIDIRECTIONAL,		/* half the data each way round at once */
	IPU_COLL_MEET_IN_MIDDLE,	/* each chunk from both sides, meeting at its owner */
	IPU_COLL_METHOD_COUNT_
};
enum ipu_collective_kind {
	IPU_COLL_ALL_REDUCE = 1, IPU_COLL_REDUCE_SCATTER, IPU_COLL_ALL_GATHER
};
/** "auto", "clockwise", "anticlockwise", "bidirectional", "meet-in-middle" or "unknown". Static. */
IPU_API const char *ipu_collective_method_name(unsigned method);
/**
 * ipu_collective_ring() - the ring order of the graph's N IPUs (ranks), up
 * one rail of the ladder and down the other: 0, 1 (N = 2); 0, 2, 3, 1
 * (N = 4, an M2000); 0, 2, 4, 6, 7, 5, 3, 1 (N = 8); 0, 2, ..., 14, 15, 13,
 * ..., 1 (N = 16, a POD16). Fills order[0..N); returns N, or -EINVAL
 * (NULL graph or order, a graph of one IPU).
 */
IPU_API int ipu_collective_ring(const struct ipu_graph *g, unsigned *order,
				struct ipu_error *err);
/**
 * ipu_collective_cycles() - the modelled cycles of collective @kind
 * (IPU_COLL_*) by @method (not AUTO) over the graph's N IPUs for slices of
 * @bytes bytes (the formula of docs/builder.md "Collectives"). 0 for a bad
 * argument.
 */
IPU_API uint64_t ipu_collective_cycles(const struct ipu_graph *g, unsigned kind,
				       unsigned method, uint64_t bytes);
/**
 * ipu_collective_method() - the method IPU_COLL_AUTO picks for @kind on
 * slices of @bytes bytes: the least ipu_collective_cycles(), ties to the
 * lower method number. 0 for a bad argument.
 */
IPU_API unsigned ipu_collective_method(const struct ipu_graph *g, unsigned kind,
				       uint64_t bytes);
/**
 * ipu_collective_map() - map @tensor (unmapped, shape [N, ...] in a graph
 * of N IPUs, not replicated; a multiple of N elements per row) in the
 * collectives' layout for @method (AUTO: the automatic choice of an
 * all-reduce of a row): row i on IPU i, each chunk's pieces on the tiles
 * where the collectives work on them. An ipu_all_reduce() in place (NULL
 * name) of such a tensor by the same method then works on the tensor's
 * own memory, without copies into and out of work buffers (GCL's in-place
 * allReduce). Errors: -EINVAL (not such a graph or tensor, unknown
 * method), -ENOSPC, -ENOMEM.
 */
IPU_API int ipu_collective_map(struct ipu_graph *g, int tensor, unsigned method,
			       struct ipu_error *err);
/**
 * ipu_all_reduce() - every slice becomes @op of all slices (GCL allReduce):
 * a reduce-scatter then an all-gather by @method. The output @name has
 * @in's shape and layout; NULL name: in place (on the tensor's own memory,
 * without work buffers, when it has the layout of ipu_collective_map() for
 * @method in a graph of N IPUs). Its id or negative errno.
 */
IPU_API int ipu_all_reduce(struct ipu_graph *g, int seq, int in, unsigned op,
			   unsigned method, const char *name,
			   struct ipu_error *err);
/**
 * ipu_reduce_scatter() - rank c gets chunk c of @op of all slices (GCL
 * reduceScatter). Output @name: in a graph of N IPUs [N, n / N] (row c on
 * IPU c); replicated: [n / N]. Its id or negative errno.
 */
IPU_API int ipu_reduce_scatter(struct ipu_graph *g, int seq, int in, unsigned op,
			       unsigned method, const char *name,
			       struct ipu_error *err);
/**
 * ipu_all_gather() - every rank gets all slices in rank order (GCL
 * allGather). Output @name: in a graph of N IPUs [N, N * n] (row i on IPU
 * i); replicated: [N, shape of @in...] (rank + 1 <= IPU_MAX_RANK). Its id
 * or negative errno.
 */
IPU_API int ipu_all_gather(struct ipu_graph *g, int seq, int in, unsigned method,
			   const char *name, struct ipu_error *err);

/* --- .npy files (npy.c): little-endian <f4, <f2, <i4, C order --- */

#define IPU_NPY_MAX_DIMS	8
struct ipu_npy {
	unsigned dtype;			/* IPU_DTYPE_* */
	unsigned ndim;
	uint64_t shape[IPU_NPY_MAX_DIMS];
	uint64_t count;			/* elements */
	size_t bytes;
	void *data;			/* malloc'ed; ipu_npy_free() */
};
/** "<f4", "<f2", "<i4" for IPU_DTYPE_*, NULL otherwise. */
IPU_API const char *ipu_npy_descr(int dtype);
/** Parse a whole .npy image; @what names it in messages (e.g. the path). */
IPU_API int ipu_npy_parse(const void *buf, size_t len, struct ipu_npy *out,
			  const char *what, struct ipu_error *err);
IPU_API int ipu_npy_read(const char *path, struct ipu_npy *out,
			 struct ipu_error *err);
IPU_API void ipu_npy_free(struct ipu_npy *a);
/** Encode to *@out (free()) of *@outlen bytes. */
IPU_API int ipu_npy_encode(int dtype, unsigned ndim, const uint64_t *shape,
			   const void *data, void **out, size_t *outlen,
			   struct ipu_error *err);
IPU_API int ipu_npy_write(const char *path, int dtype, unsigned ndim,
			  const uint64_t *shape, const void *data,
			  struct ipu_error *err);

/* --- Execution: load, tensors, run (device.c; ipu_model_open: model_device.c) --- */

/*
 * Flow: open a device (a card with ipu_device_open(), or the in-process
 * model with ipu_model_open()), ipu_load() a graph binary, write its
 * host-visible tensors, ipu_run() an entry program, read tensors back.
 * Messages name the tensor, program or stream and the reason. The calls
 * dispatch to the device's backend; a card reports -EOPNOTSUPP until its
 * command interface exists.
 */

/**
 * ipu_model_open() - an in-process model of an IPU that runs graph binaries
 * on the tile engine (no card needed)
 * @model:        "gc200", "gc2" or "test"
 * @host_threads: host threads a run uses; 0 = the online cores
 * Returns 0; -EINVAL for an unknown model; -ENOMEM.
 */
IPU_API int ipu_model_open(const char *model, unsigned host_threads,
			   struct ipu_device **out, struct ipu_error *err);

/**
 * ipu_model_open_multi() - an in-process model of @ipus IPUs joined by
 * IPU-Links, like Poplar's IPUModel with several IPUs: it runs multi-IPU
 * graph binaries (docs/graph-format.md "Multi-IPU binaries") on one engine
 * per IPU, one thread each during a run, with the cross-IPU exchanges and
 * external syncs over an in-process fabric; a single-IPU binary runs on
 * IPU 0. Tensor reads and writes by handle reach whichever IPUs hold the
 * bytes; a run completes when every IPU's has, and its stats are the
 * group's (every IPU models the same cycles). A binary for another number
 * of IPUs is refused at load (-EINVAL, naming the counts).
 * @model:        as ipu_model_open()
 * @ipus:         1, 2, 4, 8 or 16 (1: as ipu_model_open())
 * @topology:     the links: "m2000" (4 IPUs: a ladder of two pairs),
 *                "pod16" (16: four M2000s), "ring" (2 or more), or NULL
 *                for m2000 with 4, pod16 with 16, a ring otherwise
 * @host_threads: host threads each IPU's runs use; 0 = the online cores
 *                shared out among the IPUs (at least 1 each)
 * @out:          the device, the caller's until ipu_device_close() (which
 *                frees the engines and the fabric)
 * A run that loses a link fails with -ENOLINK naming it ("IPU 0 port 1").
 * Returns 0; -EINVAL for an unknown model, an IPU count other than 1, 2,
 * 4, 8, 16, or a topology that does not take it; -ENOMEM.
 */
IPU_API int ipu_model_open_multi(const char *model, unsigned ipus, const char *topology,
				 unsigned host_threads, struct ipu_device **out,
				 struct ipu_error *err);

/** Load a graph binary (copied); replaces the loaded graph. */
IPU_API int ipu_load(struct ipu_device *dev, const void *buf, size_t len,
		     struct ipu_error *err);

/* ipu_load_ex() flags */
#define IPU_LOAD_COMMIT_MEMORY	(1u << 0)	/* commit all tile memory at load */
#define IPU_LOAD_VALID_FLAGS	IPU_LOAD_COMMIT_MEMORY

/* what a load did */
struct ipu_load_info {
	uint64_t committed_bytes;	/* tile memory in RAM right after the load
					 * (0 from a card before interface 1.3) */
	uint64_t reserved[7];
};

/**
 * ipu_load_ex() - ipu_load() with @flags (IPU_LOAD_*) and, if @info is not
 * NULL, what the load committed. IPU_LOAD_COMMIT_MEMORY commits every
 * planned tile's memory during the load: the load takes longer, the first
 * run no longer pays for committing memory page by page (without it, the
 * first run is many times slower than later ones). Same on a card (the LOAD
 * command carries the flag) and on the model device.
 * Errors: those of ipu_load(); -EINVAL for unknown flags; -EOPNOTSUPP for
 * the flag on a card or driver too old for it.
 */
IPU_API int ipu_load_ex(struct ipu_device *dev, const void *buf, size_t len,
			unsigned flags, struct ipu_load_info *info,
			struct ipu_error *err);
IPU_API int ipu_load_file(struct ipu_device *dev, const char *path,
			  struct ipu_error *err);

/* a host-visible tensor of the loaded graph */
struct ipu_tensor_info {
	char name[128];
	unsigned index;		/* 0 .. ipu_tensor_count() - 1 */
	unsigned dtype;		/* IPU_DTYPE_* */
	unsigned rank;		/* 0 = one element */
	uint32_t shape[6];
	uint64_t elements;
	uint64_t bytes;
	unsigned access;	/* IPU_HANDLE_READ | IPU_HANDLE_WRITE */
	uint32_t reserved[7];
};
/** Number of host-visible tensors (>= 0) of the loaded graph. */
IPU_API int ipu_tensor_count(struct ipu_device *dev, struct ipu_error *err);
IPU_API int ipu_tensor_info(struct ipu_device *dev, unsigned index,
			    struct ipu_tensor_info *out, struct ipu_error *err);
/** Find by name; -ENOENT with "no tensor 'x' in the loaded graph". */
IPU_API int ipu_tensor_lookup(struct ipu_device *dev, const char *name,
			      struct ipu_tensor_info *out, struct ipu_error *err);
/**
 * ipu_tensor_write() / ipu_tensor_read() - all @bytes of tensor @name
 * (row-major, native element encoding); @bytes must equal its size.
 */
IPU_API int ipu_tensor_write(struct ipu_device *dev, const char *name,
			     const void *data, size_t bytes,
			     struct ipu_error *err);
IPU_API int ipu_tensor_read(struct ipu_device *dev, const char *name,
			    void *data, size_t bytes, struct ipu_error *err);

/** Entry programs of the loaded graph: count, name of K, K of a name. */
IPU_API int ipu_program_count(struct ipu_device *dev, struct ipu_error *err);
IPU_API int ipu_program_name(struct ipu_device *dev, unsigned k, char *buf,
			     size_t size, struct ipu_error *err);
IPU_API int ipu_program_find(struct ipu_device *dev, const char *name,
			     struct ipu_error *err);

/* host side of a stream; called on the thread that runs the program */
#define IPU_STREAM_NO_DATA	1
struct ipu_stream_callbacks {
	/* host->device: fill @dst (one transfer); 0, IPU_STREAM_NO_DATA, or < 0 */
	int (*fetch)(void *user, void *dst, size_t len);
	/* device->host: consume one transfer; 0 or < 0 (fails the run) */
	int (*push)(void *user, const void *src, size_t len);
	void *user;
};
/** Connect stream @name (@cb copied; NULL disconnects). */
IPU_API int ipu_stream_connect(struct ipu_device *dev, const char *name,
			       const struct ipu_stream_callbacks *cb,
			       struct ipu_error *err);

struct ipu_buffer;
/**
 * ipu_stream_bind() - bind stream @name of the loaded graph to a ring of
 * whole transfers: @bytes at @offset of @buf (ipu_buffer_alloc() or
 * ipu_buffer_pin() of this device). Transfer i of the runs that follow is
 * slot i mod N of the ring of N transfers, counted from the bind (binding
 * again starts over at slot 0); host-to-device streams read their slot,
 * device-to-host streams write it. @buf NULL and @bytes 0 unbind. Works the
 * same on a card (STREAM_BIND: the card moves the data, no callbacks) and
 * on the model device. The buffer must not be freed while bound; a new
 * ipu_load() or a reset unbinds every stream. -ENOENT no such stream (or
 * no graph), -EINVAL not whole transfers, -ERANGE beyond the buffer.
 */
IPU_API int ipu_stream_bind(struct ipu_device *dev, const char *name,
			    struct ipu_buffer *buf, size_t offset, size_t bytes,
			    struct ipu_error *err);

/* what a run cost: measured host time and the chip cycles the model gives */
struct ipu_run_stats {
	uint64_t host_ns;		/* wall time of the run */
	uint64_t cycles;		/* modelled: sum of the four below */
	uint64_t cycles_compute;
	uint64_t cycles_sync;
	uint64_t cycles_exchange;
	uint64_t cycles_stream;
	uint64_t steps;			/* program steps */
	uint64_t compute_sets;		/* compute phases run */
	uint64_t exchanges;		/* exchange phases run */
	uint64_t syncs;
	uint64_t exchange_bytes;
	uint64_t stream_bytes_h2d;
	uint64_t stream_bytes_d2h;
	uint32_t clock_khz;		/* to turn cycles into time */
	uint32_t reserved[15];
};

/**
 * ipu_run() - run entry program @program @count times (0 counts as 1) and
 * wait for it; @stats (optional) filled also when the run fails part-way.
 * Errors: -ENOENT no graph; -ERANGE bad program; -ECONNABORTED the graph's
 * AbortOnCondition fired (message has the code); -EPIPE a stream failed;
 * -ENODATA the program reads a host-writable tensor nothing wrote (the
 * message names it; nothing ran; see ipu_graph_set_zero_init()).
 */
IPU_API int ipu_run(struct ipu_device *dev, unsigned program, uint64_t count,
		    struct ipu_run_stats *stats, struct ipu_error *err);
/** Start a run without waiting; complete it with ipu_wait(). */
IPU_API int ipu_run_start(struct ipu_device *dev, unsigned program,
			  uint64_t count, struct ipu_error *err);
/** Wait (0 = no limit) for the started run; its result and stats. */
IPU_API int ipu_wait(struct ipu_device *dev, unsigned timeout_ms,
		     struct ipu_run_stats *stats, struct ipu_error *err);

/* --- Transfers: ranges, asynchronous requests, host buffers (device.c) ---
 *
 * A card attaches on the first load, transfer or buffer call (or at open
 * with IPU_OPEN_ATTACH) and keeps the attachment until ipu_device_close().
 * Transfers from memory inside a buffer of ipu_buffer_alloc() or
 * ipu_buffer_pin() go to the card without a copy and without pinning;
 * other memory is copied through a per-device bounce buffer when small and
 * pinned for the command when large (docs/card-exec.md). The model device
 * accepts the same calls (its buffers are plain memory, its requests
 * complete at once).
 */

/**
 * ipu_tensor_write_at() / ipu_tensor_read_at() - @len bytes at byte
 * @offset of tensor @name. -ENOENT no such tensor (or no graph), -EACCES
 * the host may not write / read it, -ERANGE @offset + @len beyond the
 * tensor ("tensor 'w': offset 4096 + 8192 bytes is beyond its 8192 bytes").
 */
IPU_API int ipu_tensor_write_at(struct ipu_device *dev, const char *name,
				uint64_t offset, const void *data, size_t len,
				struct ipu_error *err);
IPU_API int ipu_tensor_read_at(struct ipu_device *dev, const char *name,
			       uint64_t offset, void *data, size_t len,
			       struct ipu_error *err);
/**
 * ipu_tensor_write_async() / ipu_tensor_read_async() - start the transfer
 * and return; *@req identifies it for ipu_request_wait(). @data must stay
 * valid (and, for a read, untouched) until then. Requests and runs of one
 * device complete in the order they were started. Every request must be
 * waited for (a card holds at most 256 in flight: -EAGAIN beyond).
 */
IPU_API int ipu_tensor_write_async(struct ipu_device *dev, const char *name,
				   uint64_t offset, const void *data,
				   size_t len, uint64_t *req,
				   struct ipu_error *err);
IPU_API int ipu_tensor_read_async(struct ipu_device *dev, const char *name,
				  uint64_t offset, void *data, size_t len,
				  uint64_t *req, struct ipu_error *err);
/**
 * ipu_request_wait() - wait (@timeout_ms, 0 = no limit) for request @req
 * and return its result. -ETIMEDOUT: not complete yet (wait again);
 * -ENOENT: no such request (or already collected).
 */
IPU_API int ipu_request_wait(struct ipu_device *dev, uint64_t req,
			     unsigned timeout_ms, struct ipu_error *err);

/* Host memory the device reaches directly. */
struct ipu_buffer;
/**
 * ipu_buffer_alloc() - @size bytes (> 0, at most 1 GiB) of driver-allocated
 * memory mapped into the process (card: BUF_ALLOC + mmap; zeroed).
 */
IPU_API int ipu_buffer_alloc(struct ipu_device *dev, size_t size,
			     struct ipu_buffer **out, struct ipu_error *err);
/**
 * ipu_buffer_pin() - register [@ptr, @ptr + @size) of the caller's memory
 * (any alignment): the card pins it (BUF_PIN) until ipu_buffer_free().
 * Counts against RLIMIT_MEMLOCK (-ENOMEM beyond it).
 */
IPU_API int ipu_buffer_pin(struct ipu_device *dev, void *ptr, size_t size,
			   struct ipu_buffer **out, struct ipu_error *err);
IPU_API void *ipu_buffer_ptr(const struct ipu_buffer *buf);
IPU_API size_t ipu_buffer_size(const struct ipu_buffer *buf);
/**
 * ipu_buffer_free() - unmap / unpin and free @buf (NULL allowed). Buffers
 * still registered at ipu_device_close() are freed by it.
 */
IPU_API void ipu_buffer_free(struct ipu_buffer *buf);

#ifdef __cplusplus
}
#endif

#endif /* IPUDEV_H */
