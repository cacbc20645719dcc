/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IPU PCIe card driver: shared definitions of the driver's files.
 *
 * Lifetimes (docs/driver.md has the long form):
 *  - struct ipu_device is reference counted by its embedded class device
 *    (idev->dev, a kobject kref). References: the PCI binding (probe until
 *    remove), every open file (taken in open, dropped in release) and the
 *    cdev, whose kobject is a child of idev->dev (cdev_device_add()). The
 *    last put_device() frees it in ipu_dev_release().
 *  - The hardware (BAR0 mapping, IRQ vectors) belongs to the PCI binding: it
 *    lives from probe to remove. Every user outside the IRQ handler reaches
 *    it under hw_rwsem held for reading and only while !gone; remove sets
 *    gone, wakes all waiters and takes hw_rwsem for writing before the
 *    hardware is released, so a file that outlives the binding gets -ENODEV.
 *  - The IRQ handler runs from request_irq() in probe to free_irq() in
 *    remove, strictly inside the BAR0 mapping's lifetime.
 *
 *  - struct ipu_ctx is one open file (filp->private_data), freed in release.
 *    While attached it owns one struct ipu_queue of the device (rings, cid
 *    table), its buffers (xarray) and its commands. Commands are kref'd: a
 *    sync SUBMIT waiting for its command holds a reference, so DETACH or
 *    remove may release the command's DMA resources while the waiter still
 *    looks at it. Whoever takes a command off ctx->cmds (under ctx->mutex
 *    and q->lock: its collector, or detach) releases its DMA resources,
 *    exactly once, before it drops ctx->mutex.
 *  - Memory the card may touch is released only after the card confirmed
 *    that it let go of it: the command's completion; a queue stop that the
 *    card acknowledged (STATUS.ENABLED clear with the card READY,
 *    ipu_queue_let_go()); READY after a reset (commands in flight at a
 *    reset complete only then, ipu_queues_recover()); or, when the card
 *    does not confirm in time, its bus mastering turned off
 *    (ipu_card_halt()).
 *  - Rings, buffers and uncollected commands are released by DETACH,
 *    release or, at the latest, remove (which stops every queue, then
 *    detaches the attached context and ends the DMA mapping of every open
 *    file's user-queue rings, found on idev->ctxs). Nothing DMA-related
 *    outlives remove; the rings' pages stay for the process's mappings
 *    until release.
 *
 * Lock order (outermost first):
 *   reset_lock (mutex) -> attach_lock -> hw_rwsem (read) -> wait on event_wq
 *   reset_lock -> attach_lock -> hw_rwsem (read) -> q->lock (queue
 *     recovery after a reset)
 *   recovery (ipu_recovery.c): wdt_work takes hw_rwsem (read) alone and
 *     queues recovery_work; recovery_work takes reset_lock -> attach_lock
 *     -> hw_rwsem (read) -> q->lock as RESET does, and sends its uevent
 *     holding no lock. Neither is queued again once gone is set; remove
 *     cancels them before it takes hw_rwsem for writing.
 *   a detach that finds the card failed or hung (ipu_card_stuck()) does
 *     not wait for it: it recovers it itself (ipu_recover_detaching())
 *     under attach_lock -> ctx->mutex -> hw_rwsem (read) -> q->lock, the
 *     locks it holds already (attach_lock excludes every other reset),
 *     never reset_lock, and queues recovery_work for the uevents.
 *   attach_lock (mutex) -> ctx->mutex -> hw_rwsem (read) -> q->lock (spin)
 *   device_lock (PCI core) -> hw_rwsem (write: remove stops the queues,
 *     reset_prepare..reset_done) -> q->lock; remove then takes
 *     attach_lock -> ctx->mutex (with no hw_rwsem) to detach, and
 *     ctxs_lock -> ctx->mutex to unmap the user queues' rings.
 *   release: attach_lock -> ctx->mutex (detach), then ctxs_lock alone.
 *   groups (ipu_group.c): ipu_group_mutex (global) -> one card's
 *     attach_lock at a time, in ascending minor order -> ctx->mutex; never
 *     two attach_locks at once. A leader's release or DETACH drops its own
 *     attach_lock before it takes ipu_group_mutex to detach its members.
 *   group commands (ipu_group_cmd.c, API 1.7): SUBMIT with
 *     IPU_CMD_FLAG_GROUP takes ipu_group_mutex -> one ctx->mutex at a time
 *     (the leader's, then each member's, never two) -> hw_rwsem (read) ->
 *     q->lock. A member's completion, under the member's q->lock, takes
 *     the group record's spinlock (innermost) and, as the last one, the
 *     leader's q->lock nested (SINGLE_DEPTH_NESTING; a leader's queue is
 *     never a member's, and nothing takes a member's q->lock under the
 *     leader's) to signal the leader's eventfd. A member's part is taken
 *     off its list by its completion (q->lock, no ctx->mutex: it holds no
 *     DMA resources, RUN and ABORT only).
 *   reset_lock -> attach_lock -> hw_rwsem (read) -> i_mmap_rwsem (a reset
 *     zaps the attached file's buffer mappings, ipu_generation_advance())
 *   ctx->mutex -> mmap_lock (pin_user_pages); mmap() runs under mmap_lock
 *     and so never takes ctx->mutex: it finds the buffer under the xarray's
 *     own lock and holds a buffer reference (kref) while it maps pages.
 *   ctx->mutex -> ipu_wclaims_lock (spin, ipu_wmem.c; takes nothing).
 *   WAIT and a sync SUBMIT collect under ctx->mutex -> q->lock, and wait
 *     for completions holding neither.
 *   user queue (ipu_uqueue.c): ctx->mutex -> hw_rwsem (read) -> q->lock;
 *     its doorbell fault handler runs under mmap_lock and takes q->lock
 *     only; poll() takes hw_rwsem (read) -> q->lock.
 *   kernfs active reference (sysfs show) -> hw_rwsem (read)
 *   kernfs active reference (sysfs holder) -> attach_lock (ipu_health.c);
 *     health and hwmon reads only try hw_rwsem (read): -EAGAIN, no wait
 *   hw_rwsem (read) -> q->lock (spin, IRQ-safe, innermost)
 *   hybrid polling (poll_us): a sync SUBMIT / WAIT takes hw_rwsem (read)
 *     while it spins, and q->lock for each look at the completion ring.
 *   links (ipu_links.c): kernfs active reference (links/portP show) ->
 *     hw_rwsem (read); link_work takes hw_rwsem (read) to read a port and
 *     sends its uevent holding no lock; LINKS reads under hw_rwsem (read)
 *     and copies out after dropping it. link_pending is an atomic bitmask
 *     (the IRQ handler sets bits, link_work takes them); no new lock.
 * Stream bindings (ctx->binds, ctx->stale_binds, cmd->stale, struct
 * ipu_sbind) change under q->lock (completions, recovery) and are freed
 * under ctx->mutex.
 * remove takes hw_rwsem for writing only after cdev_device_del(), which
 * drains sysfs readers; it never takes reset_lock. The events IRQ handler
 * takes no lock; the queue handlers take only q->lock. Nothing sleeps with
 * q->lock held.
 */
#ifndef IPU_DRV_H
#define IPU_DRV_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/dma-mapping.h>
#include <linux/kref.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/wait.h>

#include "ipu/ipu_hw.h"
#include "uapi/linux/ipu.h"

#define IPU_DRIVER_NAME		"ipu"
#define IPU_DRIVER_VERSION	"0.1.0"
#define IPU_MAX_DEVICES		256

/*
 * The uAPI version this driver implements, reported by GET_INFO: the
 * header's major, and the minor of the newest ioctls implemented here (1.0:
 * GET_INFO and RESET; 1.1: contexts, buffers, commands; 1.2: the user
 * queue; 1.3: RESET's holder check, one device-writable mapping per
 * line; 1.4: LOAD's commit flag; 1.5: IPU-Links; 1.6: GROUP_ATTACH and
 * LOAD's member mask; 1.7: group commands; 1.8: hang detection and
 * recovery, IPU_STATUS_HUNG, health in sysfs and hwmon). Raise it with the
 * ioctls, not with the header.
 */
#define IPU_DRIVER_API_MINOR	8
#define IPU_DRIVER_API_VERSION	((IPU_API_VERSION_MAJOR << 16) | \
				 IPU_DRIVER_API_MINOR)

/* Causes the driver unmasks and handles on the events vector. */
#define IPU_IRQ_HANDLED_CAUSES	(IPU_IRQ_READY | IPU_IRQ_ERROR | IPU_IRQ_TEST)
/* Without MSI-X the queues' completions come as causes, too. */
#define IPU_IRQ_HANDLED_NOMSIX	(IPU_IRQ_HANDLED_CAUSES | IPU_IRQ_QUEUES)

/* The driver's poll period while it waits for an interrupt. */
#define IPU_POLL_MS		50

/*
 * Hybrid polling of synchronous SUBMIT and WAIT (module parameter poll_us,
 * in ipu_cmd.c): how long a waiter spins on the completion ring before it
 * sleeps until the interrupt. Chosen from measurements (docs/driver.md).
 */
#define IPU_POLL_US_DEFAULT	100
extern unsigned int poll_us;

/* Completion interrupt delay (module parameter irq_delay_us). */
#define IPU_IRQ_DELAY_US_DEFAULT	20
#define IPU_IRQ_DELAY_US_MAX		1000
extern unsigned int irq_delay_us;

/* Entries of each queue's rings: > IPU_MAX_INFLIGHT plus internal ABORTs. */
#define IPU_QUEUE_ENTRIES	512
/* How long DETACH waits for the card to finish what a context left. */
#define IPU_DRAIN_MS		10000
/* How long the driver waits for the card to confirm a queue stopped. */
#define IPU_LETGO_MS		10000

struct ipu_device;
struct ipu_ctx;

/*
 * A DMA-mapped piece of memory: driver pages (BUF_ALLOC) or pinned user
 * pages (BUF_PIN, SUBMIT user_ptr). Owned by its buffer or command; changed
 * only under the owner context's mutex.
 */
struct ipu_dmamem {
	struct page **pages;
	unsigned long npages;
	unsigned int offset;		/* of the data in pages[0] (pinned) */
	u64 size;			/* bytes of data */
	struct sg_table sgt;
	bool mapped;			/* sgt is DMA mapped */
	bool user;			/* pinned user pages (else driver's) */
	bool dirty;			/* the card may have written them */
	enum dma_data_direction dir;
	struct mm_struct *acct_mm;	/* pinned_vm charged to (mmgrab) */
	struct ipu_wclaim *claims;	/* lines claimed while mapped (ipu_wmem.c) */
	unsigned long nclaims;
};

/* A buffer of BUF_ALLOC / BUF_PIN: in ctx->bufs, under ctx->mutex. */
struct ipu_buffer {
	struct kref ref;		/* ctx->bufs, mmap() in progress */
	struct ipu_device *idev;
	u32 handle;
	u64 gen;			/* idev->generation at creation */
	bool alloc;			/* BUF_ALLOC (mmap-able) */
	atomic_t busy;			/* commands in flight on the card */
	struct ipu_dmamem mem;
};

/*
 * A stream of the loaded graph bound to a ring in a buffer (STREAM_BIND).
 * Pending in its command (cmd->sbind) until the card completes the bind,
 * then on ctx->binds (under q->lock) while the card holds it. Once the card
 * dropped it (unbind, rebind, LOAD, reset) it is retired: the buffer's busy
 * count is dropped and buf cleared at once (IRQ context), the SG list is
 * freed later in process context (cmd->stale, ctx->stale_binds).
 */
struct ipu_sbind {
	struct list_head node;
	u32 stream;
	struct ipu_buffer *buf;		/* busy-counted while set */
	void *sgl;			/* the ring's SG list, or NULL */
	dma_addr_t sgl_dma;
	size_t sgl_bytes;
};

enum ipu_kcmd_state {
	IPU_KCMD_QUEUED,		/* on the card */
	IPU_KCMD_DONE,			/* completed, not yet collected */
};

/*
 * A submitted command. state, the status fields, owned and the list node
 * are under the queue's q->lock; the DMA resources under ctx->mutex.
 */
struct ipu_kcmd {
	struct kref ref;
	struct ipu_ctx *ctx;		/* the submitter's, alive while cmd is */
	struct list_head node;		/* ctx->cmds, until collected */
	u64 seq;
	u16 cid;
	u8 opcode;
	enum ipu_kcmd_state state;
	bool owned;			/* a sync SUBMIT is waiting for it */
	bool in_list;
	u32 status, detail, detail2;
	u64 host_ns, cycles;
	struct ipu_run_counters run;	/* RUN: the card's run record */
	struct ipu_buffer *buf;		/* busy-counted until completion */
	struct ipu_dmamem *umem;	/* user_ptr pinned for the command */
	void *sgl;			/* the card's SG list */
	dma_addr_t sgl_dma;
	size_t sgl_bytes;
	char *msg;			/* LOAD: the card's message buffer */
	dma_addr_t msg_dma;
	u64 msg_ptr;			/* user buffer for msg */
	bool msg_saved;			/* msg_text holds LOAD_FAILED's message */
	char msg_text[IPU_LOAD_MSG_LEN]; /* kept when msg is released */
	u32 stream;			/* STREAM_BIND: the stream */
	struct ipu_sbind *sbind;	/* STREAM_BIND: the new binding */
	struct list_head stale;		/* bindings dropped at completion */
	/*
	 * A group command's part (ipu_group_cmd.c): the group's record (a
	 * reference, dropped when the command is freed), the member's index
	 * (0 = leader, k = GROUP_ATTACH's fds[k - 1]); gchild: a member's
	 * part, which WAIT and poll() of its file do not see and whose
	 * completion takes it off the member's list.
	 */
	struct ipu_grun *grp;
	u32 gmember;
	bool gchild;
};

/*
 * One of the card's command queues. Protected by lock (IRQ-safe): the ring
 * indices, slots[], ctx, active, hw_ok, and the commands' completion state.
 */
struct ipu_queue {
	struct ipu_device *idev;
	unsigned int index;
	spinlock_t lock;		/* IRQ-safe; see the comment above */
	wait_queue_head_t wq;		/* completions, detach, remove */
	int irq;			/* MSI-X vector's IRQ, or 0 */
	bool active;			/* rings allocated, a ctx attached */
	bool hw_ok;			/* programmed and enabled on the card */
	bool closing;			/* detach in progress: no recovery */
	bool reset_seen;		/* dropped by a reset not yet READY */
	u32 hung_cause;			/* 1.8: IPU_HUNG_* for the next failure */
	bool user;			/* a context's user queue (ipu_uqueue.c) */
	bool uq_dead;			/* user queue: stopped (reset, or not yet started) */
	u32 uq_gen;			/* user queue: bumped when its doorbell page goes */
	u32 reset_count;		/* RESET_COUNT when programmed */
	struct ipu_ctx *ctx;
	struct ipu_sqe *sq;
	struct ipu_cqe *cq;
	dma_addr_t sq_dma, cq_dma;
	struct ipu_run_record *rec;	/* run records (1.2 card), or NULL */
	dma_addr_t rec_dma;
	u32 sq_tail, cq_head;
	u32 phase;
	u32 inflight;			/* entries on the card */
	/* cids of the driver's own entries (ABORT, FENCE) */
	unsigned long internal[BITS_TO_LONGS(IPU_QUEUE_ENTRIES)];
	struct ipu_kcmd *slots[IPU_QUEUE_ENTRIES];	/* by cid */
};

/* An open file. */
struct ipu_ctx {
	struct ipu_device *idev;
	struct mutex mutex;		/* attach state, buffers, submission */
	bool attached;
	unsigned int attach_gen;	/* bumped by detach */
	struct ipu_queue *q;		/* while attached */
	struct xarray bufs;		/* handle -> struct ipu_buffer */
	struct list_head cmds;		/* under q->lock, seq order */
	unsigned int ncmds;		/* uncollected, under q->lock */
	u64 next_seq;
	struct eventfd_ctx *eventfd;	/* under q->lock */
	struct list_head binds;		/* bound streams, under q->lock */
	struct list_head stale_binds;	/* dropped by a reset, q->lock */
	struct ipu_kcmd *spare_cmd;	/* a freed command for reuse (xchg) */
	/*
	 * The user queue (ipu_uqueue.c): rings (driver pages, mapped into
	 * the process) from the first UQUEUE to release; their DMA mapping
	 * goes at release or, at the latest, at remove.
	 */
	struct ipu_queue *uq;		/* owned while attached, ctx->mutex */
	struct ipu_dmamem uq_mem;	/* SQ, CQ, records: one mapping */
	int uq_id;			/* mmap id, -1: no rings */
	struct address_space *mapping;	/* the file's: buffers, user queue */
	struct list_head node;		/* idev->ctxs, under ctxs_lock */
	pid_t holder_pid;		/* the attaching process (RESET) */
	char holder_comm[TASK_COMM_LEN];
	kuid_t holder_uid;		/* 1.8: sysfs holder */
	/*
	 * A group leader (ipu_group.c): the other members' files (a
	 * reference each) and the attach_gen their contexts had when the
	 * group attached them; under ipu_group_mutex.
	 */
	unsigned int group_count;
	struct file *group_files[IPU_GROUP_MAX_OTHERS];
	unsigned int group_gens[IPU_GROUP_MAX_OTHERS];
	u32 group_index[IPU_GROUP_MAX_OTHERS];	/* k of fds[k - 1] */
};

/*
 * Debug messages (dev_dbg) name their category first: "submit:",
 * "complete:", "reset:", "remove:" or "link:", which dynamic debug selects by
 * (docs/driver.md "Debugging"); the tracepoints (ipu_trace.h) carry the
 * same events to tracefs.
 */

/*
 * What the card offers that the driver uses, decided once at probe from
 * VERSION and CAPS (ipu_read_features()); nothing else tests versions or
 * capability bits.
 */
struct ipu_features {
	bool soft_reset;	/* CAPS.SOFT_RESET: RESET works */
	bool user_queues;	/* CAPS.USER_QUEUES and a usable BAR4 */
	bool run_records;	/* 1.2: REC_BASE, a record per RUN */
	bool unload;		/* 1.2: UNLOAD drops the graph at DETACH */
	bool load_flags;	/* 1.3: LOAD flags (IPU_SQE_LOAD_COMMIT) */
	bool load_mask;		/* 1.5: LOAD's group member mask */
	bool links;		/* CAPS.LINKS: IPU-Link registers */
	bool health;		/* 1.6 CAPS.HEALTH: the watchdog runs */
};

struct ipu_link_port;

struct ipu_device {
	struct device dev;		/* the class device, /sys/class/ipu/ipuN */
	struct cdev cdev;		/* /dev/ipuN, child kobject of dev */
	struct pci_dev *pdev;		/* parent; valid while dev lives */
	int minor;			/* N of ipuN, from ipu_ida */

	/* Hardware: valid while !gone, reached under hw_rwsem (read). */
	struct rw_semaphore hw_rwsem;
	bool gone;			/* set once by remove */
	void __iomem *regs;		/* BAR0 */
	phys_addr_t db_phys;		/* BAR4, doorbell pages (user queues) */
	int irq;			/* Linux IRQ of the events vector */
	const char *irq_mode;		/* "msix", "msi" or "intx" */

	/* Events: bumped by the IRQ handler, waited on by probe and reset. */
	wait_queue_head_t event_wq;
	atomic_t events;		/* READY and ERROR causes seen */
	atomic_t test_irqs;		/* TEST causes seen */
	bool warned_poll;		/* logged that polling saw a change */

	/* Reset: serializes RESET ioctls; protects timed_out. */
	struct mutex reset_lock;
	bool timed_out;			/* last reset timed out: "failed" */
	bool halted;			/* bus mastering off until a RESET */

	/* Every open file, for remove to release their DMA memory. */
	struct mutex ctxs_lock;
	struct list_head ctxs;

	/* Attachment: attach_lock protects attached; attach_wq its waiters. */
	struct mutex attach_lock;
	wait_queue_head_t attach_wq;
	struct ipu_ctx *attached;
	unsigned int next_queue;
	bool msix;			/* one vector per queue */
	u32 irq_causes;			/* IRQ_STATUS causes unmasked */
	struct ipu_queue queues[IPU_NUM_QUEUES];
	struct work_struct recover_work; /* READY/ERROR: re-program queues */

	/* Hang detection and recovery (ipu_recovery.c). */
	struct delayed_work wdt_work;	/* the watchdog */
	struct work_struct recovery_work; /* one recovery at a time */
	u32 hung_cause;			/* IPU_HUNG_*, for recovery_work */
	u32 detach_recovered;		/* a detach recovered it: its cause */
	u32 wdt_heartbeat;		/* last values the watchdog saw, */
	u32 wdt_progress;		/* and since when (jiffies); only */
	u32 wdt_active;			/* wdt_work touches them */
	u32 wdt_reset_count;
	unsigned long wdt_hb_since;
	unsigned long wdt_progress_since;
	atomic_t recoveries;		/* recoveries that brought it back */
	struct device *hwmon;		/* ipu_hwmon.c: probe .. remove, or NULL */
	atomic_t corrupt_cqe;		/* a queue saw one; the watchdog recovers */
	/*
	 * 1.8: advanced by every reset the driver makes (ipu_do_reset()):
	 * buffers of an older one are stale (ipu_buf_stale()).
	 */
	atomic64_t generation;

	/* Debug counters (debugfs). */
	atomic_t pinned_pages;
	atomic_t alloc_pages;
	atomic_t nbufs;
	atomic_t ncmds;
	struct dentry *debugfs;

	/* Identity, read once at probe (read-only registers). */
	u32 hw_version;
	u32 model;
	u32 card_index;
	u32 tiles;
	u32 tile_memory;
	u32 threads;
	u32 link_ports;
	u32 fw_version;
	u32 clock_khz;
	u32 caps;			/* as GET_INFO reports them */
	struct ipu_features feat;
	char serial[IPU_SERIAL_LEN];

	/*
	 * IPU-Links (ipu_links.c), with feat.links: ports shown (link_ports,
	 * at most IPU_LINK_PORTS_MAX), the fabric (read at probe; index -1:
	 * none), links/ and its port directories (probe .. remove), and the
	 * ports whose change link_work has yet to announce.
	 */
	u32 link_nports;
	s32 fabric_index;
	u32 fabric_size;
	struct kobject *links_kobj;
	struct ipu_link_port *link_port[IPU_LINK_PORTS_MAX];
	atomic_t link_pending;
	struct work_struct link_work;
	bool links_off;			/* remove began: no more uevents */
};

/*
 * The card's rings and lists are little-endian; ipu_hw.h (shared with QEMU)
 * declares them with plain integer types.
 */
#define ipu_le16(v)	((__force u16)cpu_to_le16(v))
#define ipu_le32(v)	((__force u32)cpu_to_le32(v))
#define ipu_le64(v)	((__force u64)cpu_to_le64(v))
#define ipu_from_le16(v)	le16_to_cpu((__force __le16)(v))
#define ipu_from_le32(v)	le32_to_cpu((__force __le32)(v))
#define ipu_from_le64(v)	le64_to_cpu((__force __le64)(v))

static inline struct ipu_device *to_ipu_device(struct device *dev)
{
	return container_of(dev, struct ipu_device, dev);
}

static inline u32 ipu_read(struct ipu_device *idev, u32 reg)
{
	return readl(idev->regs + reg);
}

static inline void ipu_write(struct ipu_device *idev, u32 reg, u32 val)
{
	writel(val, idev->regs + reg);
}

/* ipu_main.c */
extern struct class ipu_class;
extern dev_t ipu_devt;
extern unsigned int ready_timeout_ms;
int ipu_minor_alloc(void);
void ipu_minor_free(int minor);
const char *ipu_model_name(u32 model);
const char *ipu_state_name(u32 state);

/* ipu_pci.c */
int ipu_pci_register(void);
void ipu_pci_unregister(void);
u32 ipu_hw_state(struct ipu_device *idev);
void ipu_read_serial(struct ipu_device *idev, u32 reg, char *dst);
bool ipu_card_reset_done(struct ipu_device *idev, void *arg);
void ipu_card_halt(struct ipu_device *idev);
int ipu_wait_event(struct ipu_device *idev,
		   bool (*done)(struct ipu_device *idev, void *arg), void *arg,
		   unsigned int timeout_ms, bool interruptible);

/* ipu_recovery.c: the watchdog and recovery (API 1.8) */
void ipu_recovery_init(struct ipu_device *idev);
void ipu_recovery_start(struct ipu_device *idev);
void ipu_recovery_stop(struct ipu_device *idev);
void ipu_health_uevent(struct ipu_device *idev, const char *event, u32 cause);
bool ipu_card_stuck(struct ipu_device *idev);
bool ipu_recover_detaching(struct ipu_device *idev);

/* ipu_irq.c */
int ipu_irq_init(struct ipu_device *idev);
void ipu_irq_fini(struct ipu_device *idev);
void ipu_irq_selftest(struct ipu_device *idev);
irqreturn_t ipu_irq_queue(int irq, void *data);

/* ipu_ioctl.c */
extern const struct file_operations ipu_fops;
int ipu_args_in(void *karg, size_t ksize, size_t first_size, u32 flags_ok,
		const void __user *uarg, u32 *usize);
int ipu_args_out(void __user *uarg, void *karg, size_t ksize, u32 usize);
int ipu_do_reset(struct ipu_device *idev, struct ipu_reset *rst);

/* ipu_ctx.c */
int ipu_ctx_open(struct ipu_device *idev, struct file *filp);
void ipu_ctx_release(struct ipu_ctx *ctx);
int ipu_ctx_enter(struct ipu_ctx *ctx);
long ipu_ioctl_attach(struct ipu_ctx *ctx, struct file *filp,
		      void __user *uarg);
long ipu_ioctl_detach(struct ipu_ctx *ctx, void __user *uarg);
void ipu_ctx_remove(struct ipu_device *idev);
int ipu_ctx_attach_locked(struct ipu_ctx *ctx);
void ipu_ctx_detach_if_attached(struct ipu_ctx *ctx);
/* attach_lock and ctx->mutex held, @ctx attached */
void ipu_ctx_detach_locked(struct ipu_ctx *ctx);

/* ipu_group.c: GROUP_ATTACH, and the end of a leader's group */
long ipu_ioctl_group_attach(struct ipu_ctx *ctx, struct file *filp,
			    void __user *uarg);
void ipu_group_end(struct ipu_ctx *ctx);
/*
 * The leader's members, under ipu_group_mutex (taken by lock, dropped by
 * unlock): 0 and *n set, or -EINVAL (@ctx leads no group).
 */
struct ipu_group_part {
	struct ipu_ctx *ctx;
	unsigned int gen;		/* the group's attachment of it */
	u32 index;			/* k of fds[k - 1] */
};

int ipu_group_lock(struct ipu_ctx *ctx, struct ipu_group_part *parts,
		   unsigned int *n);
void ipu_group_unlock(void);

/* ipu_group_cmd.c: group commands and their record of completions */
struct ipu_grun;
/* Who holds which q->lock when a part reports (ipu_grun_done()). */
enum ipu_grun_locked {
	IPU_GRUN_UNLOCKED,		/* none: the submitter */
	IPU_GRUN_MEMBER_LOCKED,		/* the member's: its completion */
	IPU_GRUN_LEADER_LOCKED,		/* the leader's: its completion */
};

/* A group command's part, for ipu_cmd_queue(). */
struct ipu_cmd_part {
	struct ipu_grun *grp;
	u32 member;			/* 0 = leader, k = fds[k - 1] */
	bool child;			/* a member's part (not the leader's) */
	unsigned int gen;		/* child: the group's attachment */
};

long ipu_group_submit(struct ipu_ctx *ctx, struct ipu_cmd *c,
		      void __user *uarg, u32 usize);
struct ipu_grun *ipu_grun_new(struct ipu_ctx *leader, unsigned int n);
void ipu_grun_set_queue(struct ipu_grun *grp, struct ipu_queue *q);
void ipu_grun_get(struct ipu_grun *grp);
void ipu_grun_put(struct ipu_grun *grp);
void ipu_grun_done(struct ipu_grun *grp, u32 member, u32 status,
		   u32 detail, u32 detail2, enum ipu_grun_locked locked);
bool ipu_grun_complete(const struct ipu_grun *grp);
void ipu_grun_result(struct ipu_grun *grp, u32 *status, u32 *detail,
		     u32 *detail2, u32 *member);

/* ipu_queue.c */
void ipu_queues_init(struct ipu_device *idev);
int ipu_queue_start(struct ipu_queue *q, struct ipu_ctx *ctx);
void ipu_queue_drain(struct ipu_queue *q);
bool ipu_card_ready(struct ipu_device *idev);
bool ipu_queue_let_go(struct ipu_queue *q);
void ipu_queue_stop_hw(struct ipu_queue *q);
void ipu_queue_free(struct ipu_queue *q);
void ipu_queue_process(struct ipu_queue *q);
int ipu_queue_push_locked(struct ipu_queue *q, struct ipu_sqe *sqe,
			  struct ipu_kcmd *cmd);
struct ipu_queue_rings {
	dma_addr_t sq, cq, rec;		/* rec: 0 without run records */
	u32 entries;
};

void ipu_queue_enable_locked(struct ipu_queue *q,
			     const struct ipu_queue_rings *r, u32 ctrl);
void ipu_queues_recover(struct ipu_device *idev, bool card_reset);
void ipu_queue_release_card(struct ipu_queue *q);
void ipu_recover_work(struct work_struct *work);
void ipu_queues_mark_hung(struct ipu_device *idev, u32 cause);
void ipu_queues_stop_all(struct ipu_device *idev);

/* ipu_uqueue.c */
long ipu_ioctl_uqueue(struct ipu_ctx *ctx, struct file *filp,
		      void __user *uarg);
void ipu_uqueue_stop(struct ipu_ctx *ctx);
void ipu_uqueue_free(struct ipu_ctx *ctx);
void ipu_uqueue_unmap(struct ipu_ctx *ctx);
int ipu_uqueue_mmap(struct ipu_ctx *ctx, struct vm_area_struct *vma);
__poll_t ipu_uqueue_poll(struct ipu_ctx *ctx, struct file *filp,
			 struct poll_table_struct *wait);
void ipu_uqueue_exit(void);

/* ipu_wmem.c */
int ipu_wmem_claim(struct ipu_dmamem *mem);
void ipu_wmem_release(struct ipu_dmamem *mem);

/* ipu_buf.c */
int ipu_dmamem_map(struct ipu_device *idev, struct ipu_dmamem *mem);
void ipu_dmamem_unmap(struct ipu_device *idev, struct ipu_dmamem *mem);
int ipu_dmamem_pin(struct ipu_device *idev, struct ipu_dmamem *mem,
		   u64 uaddr, u64 size, bool write, bool longterm,
		   bool account);
void ipu_dmamem_release(struct ipu_device *idev, struct ipu_dmamem *mem);
int ipu_sgl_build(struct ipu_device *idev, struct ipu_dmamem *mem,
		  u64 offset, u64 length, struct ipu_kcmd *cmd,
		  struct ipu_sqe *sqe);
long ipu_ioctl_buf_alloc(struct ipu_ctx *ctx, void __user *uarg);
long ipu_ioctl_buf_pin(struct ipu_ctx *ctx, void __user *uarg);
long ipu_ioctl_buf_free(struct ipu_ctx *ctx, void __user *uarg);
void ipu_bufs_free_all(struct ipu_ctx *ctx);
int ipu_mmap(struct file *filp, struct vm_area_struct *vma);
void ipu_generation_advance(struct ipu_device *idev);

/* 1.8: @buf is from before the card's last reset ("Resets invalidate"). */
static inline bool ipu_buf_stale(const struct ipu_buffer *buf)
{
	return buf->gen != (u64)atomic64_read(&buf->idev->generation);
}

/* ipu_cmd.c */
long ipu_ioctl_submit(struct ipu_ctx *ctx, void __user *uarg);
long ipu_ioctl_wait(struct ipu_ctx *ctx, void __user *uarg);
long ipu_ioctl_set_eventfd(struct ipu_ctx *ctx, void __user *uarg);
__poll_t ipu_poll(struct file *filp, struct poll_table_struct *wait);
void ipu_kcmd_release_res(struct ipu_device *idev, struct ipu_kcmd *cmd);
void ipu_kcmd_put(struct ipu_kcmd *cmd);
void ipu_cmds_teardown(struct ipu_ctx *ctx);
void ipu_kcmd_group_done_locked(struct ipu_kcmd *cmd);
struct ipu_cmd_part;
int ipu_cmd_queue(struct ipu_ctx *ctx, const struct ipu_cmd *c,
		  const struct ipu_cmd_part *part, struct ipu_kcmd **cmdp,
		  struct ipu_queue **qp, u64 *seq);
long ipu_cmd_submitted(struct ipu_ctx *ctx, struct ipu_queue *q,
		       struct ipu_kcmd *cmd, struct ipu_cmd *c, u64 seq,
		       void __user *uarg, u32 usize);
void ipu_sbind_free(struct ipu_device *idev, struct ipu_sbind *b);
void ipu_binds_free_stale(struct ipu_ctx *ctx);
void ipu_binds_teardown(struct ipu_ctx *ctx);

/* ipu_debugfs (ipu_main.c) */
void ipu_debugfs_add(struct ipu_device *idev);
void ipu_debugfs_remove(struct ipu_device *idev);

/* ipu_links.c */
void ipu_links_init(struct ipu_device *idev);
void ipu_links_probe(struct ipu_device *idev);
int ipu_links_add(struct ipu_device *idev);
void ipu_links_start(struct ipu_device *idev);
void ipu_links_changed(struct ipu_device *idev);
void ipu_links_remove(struct ipu_device *idev);
long ipu_ioctl_links(struct ipu_device *idev, void __user *uarg);

/* ipu_sysfs.c */
extern const struct attribute_group *ipu_groups[];

/* ipu_health.c: health in sysfs (API 1.8), the health registers' read */
extern const struct attribute_group ipu_health_group;
int ipu_health_read(struct ipu_device *idev, const u32 *regs, u32 *vals,
		    unsigned int n);

/* ipu_hwmon.c: the hwmon sensors (CAPS.HEALTH), in a kernel with hwmon */
#if IS_ENABLED(CONFIG_HWMON)
void ipu_hwmon_add(struct ipu_device *idev);
void ipu_hwmon_remove(struct ipu_device *idev);
#else
static inline void ipu_hwmon_add(struct ipu_device *idev) { }
static inline void ipu_hwmon_remove(struct ipu_device *idev) { }
#endif

#endif /* IPU_DRV_H */
