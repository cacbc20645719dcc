/*
 * Emulated IPU card: state shared by the register file (ipu-pci.c), the
 * queue registers and doorbells (ipu-queue.c), the worker thread
 * (ipu-worker.c), command execution (ipu-cmd.c), the DMA helpers
 * (ipu-dma.c), health and telemetry (ipu-health.c) and fault injection
 * (ipu-faults.c).
 *
 * Threads and locks:
 * - vCPU and main-loop code runs with the BQL: register accesses and the
 *   ready timer.
 * - One worker thread per card fetches and executes commands; the engine's
 *   host threads copy shares of big transfers for it (ipue_parallel()).
 *   They take the BQL to signal a completion and, behind an IOMMU, around
 *   every DMA translation (ipu-dma.c: the IOMMU reports a fault by raising
 *   an interrupt, which needs the BQL), never while holding IpuState.lock.
 *   So BQL holders may wait on IpuState.lock but must never wait for the
 *   worker or its DMA while holding the BQL (ipu_worker_stop() drops it to
 *   join the worker).
 * - IpuState.lock protects the queues, the worker's flags and the engine
 *   pointer. Lock order: BQL, then IpuState.lock. No DMA is done with the
 *   lock held: the worker takes what it needs of a queue under the lock,
 *   marks itself busy on it (worker_busy, busy_queue), drops the lock for
 *   the DMA (SQ entry, the command's data, run record, CQ entry) and, with
 *   the lock again, uses the result only if the queue's gen is unchanged.
 *   While it is busy on a queue, a disable of that queue keeps ENABLED at 1
 *   and a reset's READY waits (ipu_queues_idle()); both set dma_cancel,
 *   which every transfer reads between chunks of at most 1 MiB, so the
 *   card lets go within a chunk. The engine belongs to the worker; other
 *   threads only call ipue_cancel() on it, under the lock.
 * - Doorbells (BAR0's and BAR4's pages alike) take the BQL only: the SQ
 *   tail and CQ head they write are read by the worker (and the CQ_HEAD
 *   register) atomically, and the flags they read (a queue's status,
 *   worker_busy, worker_sleeping) are written atomically under the lock
 *   (ipu_doorbell_write()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_IPU_H
#define HW_IPU_H

#include "qemu/atomic.h"
#include "qemu/thread.h"
#include "hw/pci/pci.h"
#include "ipu/ipu_hw.h"
#include "ipu_engine.h"
#include "ipu-fabric.h"

struct ipue_engine;
typedef struct IpuState IpuState;

/* A stream of the loaded graph bound to a ring of transfers in host memory. */
typedef struct IpuStreamRing {
    IpuState *s;
    uint64_t data;          /* the ring: contiguous, or an SG list */
    uint32_t sgl_count;
    uint64_t length;
    uint64_t transfer;      /* bytes per transfer */
    uint64_t pos;           /* transfers moved since the bind */
    bool to_guest;          /* device-to-host */
} IpuStreamRing;

/* A chip model: a row of the table in include/ipu/ipu_models.h. */
typedef struct ipu_model IpuModel;

/*
 * Health and telemetry (ipu-health.c, docs/hw-interface.md "Health and
 * telemetry"): BQL, except the fields marked atomic, which the worker and
 * the DMA threads update.
 */
typedef struct IpuHealth {
    QEMUTimer *tick;        /* every ms of emulated time, from READY */
    int64_t next_tick;
    uint32_t heartbeat;
    uint32_t progress;      /* commands fetched and DMA chunks (atomic) */
    uint32_t active;        /* ACTIVE (atomic) */
    uint32_t health;        /* HEALTH */
    uint32_t err_dma;       /* atomic, saturating */
    uint32_t err_ring;      /* atomic, saturating */
    uint32_t err_fatal;
    uint32_t window_ticks;  /* of the current utilisation window */
    uint32_t busy_ticks;
    uint32_t util;          /* UTIL, per-mille of the last window */
    uint32_t power_mw;
    int64_t temp_uc;        /* micro-degC: TEMP without rounding drift */
} IpuHealth;

/* Fault injection (ipu-faults.c, docs/hw-interface.md "Fault injection"). */
typedef enum IpuFaultType {
    IPU_FAULT_HANG_JOB,
    IPU_FAULT_DMA_ERROR,
    IPU_FAULT_FATAL,
    IPU_FAULT_DROP_IRQ,
    IPU_FAULT_CORRUPT_CQE,
    IPU_FAULT_READY_DELAY,
    IPU_FAULT_HEARTBEAT_STOP,
    IPU_FAULT__MAX,
} IpuFaultType;

typedef struct IpuFaults {
    uint32_t armed;         /* 1 << IpuFaultType (atomic: any thread fires) */
    uint32_t ready_delay_ms;
    bool hung_job;          /* the worker holds a hung command (lock) */
    bool heartbeat_stopped; /* BQL */
    uint64_t injected[IPU_FAULT__MAX];  /* atomic */
} IpuFaults;

typedef struct IpuQueue {
    /* Registers */
    uint64_t sq_base;
    uint64_t cq_base;
    uint64_t rec_base;      /* run records (1.2), or 0 */
    uint32_t size;
    uint32_t vector;
    uint32_t coalesce;
    uint32_t status;        /* IPU_Q_STATUS_* (written atomically) */
    uint32_t sq_head;
    uint32_t sq_tail;       /* doorbells: BQL, read atomically */
    uint32_t cq_head;
    uint32_t cq_tail;       /* worker, written atomically (doorbells read it) */
    /* Internal */
    bool phase;
    bool enable_req;        /* ENABLE as written; ENABLED follows it */
    bool user;              /* CTRL.USER, taken when ENABLE was set */
    uint32_t gen;           /* bumped on disable: drops stale completions */
    uint32_t abort_scan;    /* next SQ index the doorbell scans (BQL) */
    uint32_t irq_pending;   /* completions posted since the last interrupt */
    int64_t irq_first_ns;   /* when the oldest of them was posted (realtime) */
} IpuQueue;

struct IpuState {
    PCIDevice parent_obj;

    MemoryRegion regs;
    MemoryRegion doorbells; /* BAR4: one doorbell page per queue */
    QEMUTimer *ready_timer;
    bool unpowered;         /* the ready timer saw the slot without power */
    const IpuModel *model;
    char serial_buf[IPU_SERIAL_LEN];

    /* Guest-visible state (BQL) */
    uint32_t state;
    uint32_t reset_count;
    uint32_t scratch;
    uint32_t irq_status;
    uint32_t irq_mask;
    bool intx_level;
    uint32_t link_changed;  /* LINK_CHANGED (1.4) */
    IpuHealth health;       /* 1.6 */
    IpuFaults faults;

    /* Command queues (lock) */
    QemuMutex lock;
    QemuCond cond;          /* work arrived, or the worker went idle */
    QemuThread worker;
    IpuQueue queues[IPU_NUM_QUEUES];
    unsigned next_queue;    /* round-robin position */
    bool worker_busy;       /* fetching, executing or posting a command */
    unsigned busy_queue;    /* of this queue */
    /* That command was cancelled: its DMA stops at the next chunk (atomic) */
    bool dma_cancel;
    bool worker_exit;
    bool worker_sleeping;   /* in qemu_cond_wait: doorbells must wake it */
    unsigned kicks;         /* doorbell writes (atomic): ends a worker spin */
    int64_t poll_ns;        /* how long the worker spins for more work */
    bool engine_reset;      /* reset requested: drop the graph when idle */
    bool failed;            /* a fatal error: fetch and post nothing (atomic) */
    struct ipue_engine *engine;
    IpuStreamRing *streams; /* one per stream of the loaded graph (worker) */
    unsigned nstreams;

    /* Properties */
    char *model_name;
    char *serial;
    uint32_t card_index;
    uint32_t host_threads;
    uint32_t poll_us;
    bool msix;
    IpuFabric *fabric;      /* the fabric it joined, or NULL */
    uint32_t fabric_index;  /* IPU_FABRIC_NONE without a fabric */
    bool dma_iommu;         /* DMA goes through an IOMMU (ipu_dma_init()) */
};

#define TYPE_IPU_PCI "ipu"
OBJECT_DECLARE_SIMPLE_TYPE(IpuState, IPU_PCI)

/* ipu-pci.c */
bool ipu_msix_on(IpuState *s);
void ipu_raise(IpuState *s, uint32_t causes);
/* Log the write of @val that no register at @addr takes (@kind: "queue "). */
void ipu_log_write_ignored(const char *kind, hwaddr addr, uint32_t val,
                           bool read_only);

/* ipu-link.c: the IPU-Link registers and the card's place in its fabric */
bool ipu_link_realize(IpuState *s, Error **errp);
void ipu_link_unrealize(IpuState *s);
/* The card resets (@power_on: power-on, PCI function reset): links drop. */
void ipu_link_reset(IpuState *s, bool power_on);
/* The card is READY: its links may train. */
void ipu_link_ready(IpuState *s);
/* Is @addr a link register (FABRIC_*, LINK_CHANGED, a port block)? */
bool ipu_link_reg(IpuState *s, hwaddr addr);
uint32_t ipu_link_reg_read(IpuState *s, hwaddr addr);
void ipu_link_reg_write(IpuState *s, hwaddr addr, uint32_t val);
/*
 * Worker thread, no lock: the engine joins the group of member mask @mask
 * (LOAD's offset): IPU_CS_*, *@detail set on failure; or leaves its group
 * (LOAD, UNLOAD, reset, unplug: before the engine's graph goes).
 */
int ipu_link_group_join(IpuState *s, uint64_t mask, uint32_t *detail);
void ipu_link_group_leave(IpuState *s);

/* ipu-health.c: heartbeat, progress, telemetry, HEALTH and ERR_* */
void ipu_health_realize(IpuState *s);
void ipu_health_unrealize(IpuState *s);
/* A reset begins (@power_on: power-on, PCI function reset). BQL. */
void ipu_health_reset(IpuState *s, bool power_on);
/* The card entered READY: the heartbeat starts. BQL. */
void ipu_health_ready(IpuState *s);
bool ipu_health_reg(hwaddr addr);
uint32_t ipu_health_reg_read(IpuState *s, hwaddr addr);
/* BQL: the card fails with IPU_FATAL_* @cause (FAILED, the ERROR cause). */
void ipu_health_fatal(IpuState *s, uint32_t cause);
/* Any thread: +1 on a saturating counter (ERR_*). */
void ipu_health_count(uint32_t *counter);
/* Any thread: PROGRESS moves by one (a command fetched, a DMA chunk). */
static inline void ipu_progress(IpuState *s)
{
    qatomic_inc(&s->health.progress);
}

/* ipu-faults.c: fault injection from QMP (the card's QOM properties) */
void ipu_faults_class_init(ObjectClass *oc);
/*
 * Any thread: fires fault @t if it is armed (disarms it, counts it, and
 * traces and prints what it hit, @fmt...). True if it fired.
 */
bool ipu_fault_take(IpuState *s, IpuFaultType t, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);
/* The milliseconds of an armed ready-delay, firing it; 0 when not armed. */
uint32_t ipu_fault_ready_delay(IpuState *s);
/* A reset begins: the effects of hang-job, fatal, heartbeat-stop end. */
void ipu_faults_reset(IpuState *s);

/* ipu-queue.c: queue registers and doorbells */
uint64_t ipu_queue_reg_read(IpuState *s, hwaddr addr);
void ipu_queue_reg_write(IpuState *s, hwaddr addr, uint32_t val);
bool ipu_queue_reg_read_only(hwaddr addr);
/* Queue @qi's SQ_TAIL (@cq false) or CQ_HEAD doorbell: BQL, not the lock. */
void ipu_doorbell_write(IpuState *s, unsigned qi, bool cq, uint32_t val);
/* Lock held: stop queue @qi (ENABLED reads 1 until the worker let go). */
void ipu_q_disable_locked(IpuState *s, unsigned qi);

/* ipu-worker.c: the worker thread and the queues' life cycle */
void ipu_worker_start(IpuState *s);
void ipu_worker_stop(IpuState *s);
void ipu_queues_reset(IpuState *s);
bool ipu_queues_idle(IpuState *s);
/* Lock held: the command in progress stops at its next DMA chunk or step. */
void ipu_cancel_locked(IpuState *s);

/* ipu-cmd.c: one command, executed by the worker without the lock */
typedef struct IpuCmd {
    IpuState *s;
    unsigned qi;            /* the queue it came from */
    bool user;              /* a user queue's: RUN, FENCE and ABORT only */
    struct ipu_sqe sqe;
    struct ipu_cqe cqe;
    /* RUN: what it did, for its run record (zero if it did not start) */
    struct ipue_run_stats stats;
    uint8_t *buf;           /* LOAD: the gathered binary */
    unsigned handle;
} IpuCmd;

/* Executes @c (its SQE in host order); IPU_CS_*, details in c->cqe. */
int ipu_cmd_execute(IpuCmd *c);
/* Worker: drops every stream binding (reset, UNLOAD, a new LOAD). */
void ipu_streams_unbind_all(IpuState *s);

/*
 * ipu-dma.c: DMA to and from guest RAM only; IPU_CS_* results. Any thread,
 * without IpuState.lock; with or without the BQL (behind an IOMMU it is
 * taken around each translation when the caller does not hold it). Data
 * moves in chunks of at most IPU_DMA_CHUNK bytes; before each, a transfer
 * stops with IPU_CS_ABORTED when dma_cancel is set.
 */
#define IPU_DMA_CHUNK   (1u << 20)

typedef struct IpuDmaFault {
    uint64_t addr;          /* DMA_ERROR: the address; INVALID_SGL: entry */
} IpuDmaFault;

/* At realize: does the card's DMA go through an IOMMU? */
void ipu_dma_init(IpuState *s);

/*
 * Called for each piece of a transfer with a host pointer into guest RAM,
 * the piece's length and its offset in the transfer; returns IPU_CS_*.
 */
typedef int (*IpuDmaFn)(void *opaque, void *ptr, uint64_t len, uint64_t off);

/* An IpuDmaFn copying between the guest and the host buffer @buf. */
typedef struct IpuCopy {
    uint8_t *buf;
    bool to_guest;
} IpuCopy;
int ipu_dma_copy_fn(void *opaque, void *ptr, uint64_t len, uint64_t off);

/*
 * Ring entries, SG lists, records: reads are not cancelled (they are small
 * and the doorbell's ABORT scan uses them too), writes are.
 */
int ipu_dma_ram(IpuState *s, uint64_t addr, void *buf, uint64_t len,
                bool to_guest, IpuDmaFault *fault);
/*
 * The transfer of @length bytes at @data (contiguous, or an SG list of
 * @sgl_count entries), bytes [@start, @start + @len) of it: each piece goes
 * to @fn (offsets relative to @start); a NULL @fn only checks the memory.
 */
int ipu_dma_walk(IpuState *s, uint64_t data, uint32_t sgl_count,
                 uint64_t length, uint64_t start, uint64_t len,
                 bool to_guest, IpuDmaFn fn, void *opaque, IpuDmaFault *fault);

#endif /* HW_IPU_H */
