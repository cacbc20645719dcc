/*
 * Emulated IPU card: the worker thread. It fetches submissions round-robin
 * over the queues, has each executed (ipu-cmd.c), posts completions (a
 * RUN's after its run record, when the queue has REC_BASE) and raises
 * their interrupts (under the BQL) as each queue's coalescing settings
 * say; and the queues' life cycle (start, stop, reset). Locking rules are
 * in ipu.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qemu/atomic.h"
#include "qemu/rcu.h"
#include "hw/pci/msix.h"
#include "ipu.h"
#include "trace.h"

static uint64_t ipu_now_ns(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
}

void ipu_cancel_locked(IpuState *s)
{
    qatomic_set(&s->dma_cancel, true);
    if (s->engine) {
        ipue_cancel(s->engine);
    }
}

/* The fetched SQE in host byte order. */
static void ipu_sqe_from_le(struct ipu_sqe *e)
{
    e->cid = le16_to_cpu(e->cid);
    e->handle = le32_to_cpu(e->handle);
    e->offset = le64_to_cpu(e->offset);
    e->length = le64_to_cpu(e->length);
    e->data = le64_to_cpu(e->data);
    e->sgl_count = le32_to_cpu(e->sgl_count);
    e->count = le32_to_cpu(e->count);
    e->arg = le64_to_cpu(e->arg);
}

/* ---- the worker ---- */

/*
 * Worker thread, lock held, command @c just fetched: when fault hang-job
 * fires, it hangs here (no DMA, no progress, ABORT and disable ignored)
 * until a reset or unplug; true then, and the command is dropped.
 */
static bool ipu_hang_locked(IpuState *s, IpuCmd *c)
{
    if (!ipu_fault_take(s, IPU_FAULT_HANG_JOB, "queue %u cid %u opcode "
                        "0x%x", c->qi, c->sqe.cid, c->sqe.opcode)) {
        return false;
    }
    qatomic_set(&s->faults.hung_job, true);
    while (!s->engine_reset && !s->worker_exit) {
        qemu_cond_wait(&s->cond, &s->lock);
    }
    qatomic_set(&s->faults.hung_job, false);
    return true;
}

/* Lock held; the doorbells are read atomically (ipu_doorbell_write()). */
static bool ipu_queue_has_work(IpuQueue *q)
{
    return (q->status & IPU_Q_STATUS_ENABLED) &&
           q->sq_head != qatomic_load_acquire(&q->sq_tail) &&
           ((q->cq_tail + 1) & (q->size - 1)) !=
           qatomic_load_acquire(&q->cq_head);
}

static bool ipu_pick_queue_peek_locked(IpuState *s)
{
    if (s->failed) {
        return false;   /* a fatal error: nothing until a reset */
    }
    for (unsigned i = 0; i < IPU_NUM_QUEUES; i++) {
        if (ipu_queue_has_work(&s->queues[i])) {
            return true;
        }
    }
    return false;
}

static IpuQueue *ipu_pick_queue_locked(IpuState *s, unsigned *qi)
{
    if (s->failed) {
        return NULL;
    }
    for (unsigned n = 0; n < IPU_NUM_QUEUES; n++) {
        unsigned i = (s->next_queue + n) % IPU_NUM_QUEUES;

        if (ipu_queue_has_work(&s->queues[i])) {
            s->next_queue = (i + 1) % IPU_NUM_QUEUES;
            *qi = i;
            return &s->queues[i];
        }
    }
    return NULL;
}

/*
 * Lock held, the worker not busy on queue @qi: a ring of it could not be
 * read or written; the queue stops with ERROR code 4.
 */
static void ipu_queue_ring_error_locked(IpuState *s, IpuQueue *q, unsigned qi,
                                        const char *ring, uint64_t addr)
{
    trace_ipu_queue_ring_fault(qi, ring, addr);
    qemu_log_mask(LOG_GUEST_ERROR,
                  "ipu: queue %u %s at 0x%" PRIx64 " is not in guest RAM; "
                  "queue stopped\n", qi, ring, addr);
    ipu_q_disable_locked(s, qi);
    qatomic_set(&q->status, IPU_Q_STATUS_ERROR | (IPU_QERR_RING_DMA << 8));
    ipu_health_count(&s->health.err_ring);
}

/*
 * Writes the run record @st at @addr (docs/hw-interface.md "Run records"),
 * without the lock; IPU_CS_*.
 */
static int ipu_write_record(IpuState *s, uint64_t addr,
                            const struct ipue_run_stats *st,
                            IpuDmaFault *fault)
{
    struct ipu_run_record rec = {
        .cycles_compute = cpu_to_le64(st->cycles_compute),
        .cycles_sync = cpu_to_le64(st->cycles_sync),
        .cycles_exchange = cpu_to_le64(st->cycles_exchange),
        .cycles_stream = cpu_to_le64(st->cycles_stream),
        .steps = cpu_to_le64(st->steps),
        .compute_sets = cpu_to_le64(st->compute_sets),
        .exchanges = cpu_to_le64(st->exchanges),
        .syncs = cpu_to_le64(st->syncs),
        .exchange_bytes = cpu_to_le64(st->exchange_bytes),
        .stream_bytes_h2d = cpu_to_le64(st->stream_bytes_h2d),
        .stream_bytes_d2h = cpu_to_le64(st->stream_bytes_d2h),
    };

    QEMU_BUILD_BUG_ON(sizeof(rec) != IPU_RUN_RECORD_SIZE);
    return ipu_dma_ram(s, addr, &rec, sizeof(rec), true, fault);
}

/* A ring the worker could not read or write (ipu_post_locked()). */
typedef struct IpuRingFault {
    const char *ring;       /* NULL: none */
    uint64_t addr;
} IpuRingFault;

/*
 * Posts command @c's completion on its queue @q, after its run record when
 * it is a RUN and the queue has REC_BASE set; the lock is held and the
 * worker is busy on @q with a command of generation @gen. The DMA runs with
 * the lock dropped: the result counts only if @q is still that generation
 * (a disable or reset meanwhile drops it). A ring the card cannot write is
 * returned in @rf (the caller stops the queue once it has let go of it).
 * The worker signals the completion (ipu_signal_locked()) as the queue's
 * coalescing settings say.
 */
static void ipu_post_locked(IpuState *s, IpuQueue *q, uint32_t gen,
                            IpuCmd *c, IpuRingFault *rf)
{
    uint32_t tail = q->cq_tail;
    uint64_t cq_addr = q->cq_base + (uint64_t)tail * sizeof(struct ipu_cqe);
    uint64_t rec_addr = q->rec_base + (uint64_t)tail * IPU_RUN_RECORD_SIZE;
    bool record = c->sqe.opcode == IPU_SQE_RUN && q->rec_base;
    bool rec_wraps = rec_addr < q->rec_base;    /* refused at ENABLE */
    struct ipu_cqe le = {
        .cid = cpu_to_le16(c->cqe.cid),
        .status = cpu_to_le16(c->cqe.status |
                              (q->phase ? IPU_CQE_PHASE : 0)),
        .sq_head = cpu_to_le16(q->sq_head),
        .sq_id = cpu_to_le16(c->qi),
        .detail = cpu_to_le32(c->cqe.detail),
        .detail2 = cpu_to_le32(c->cqe.detail2),
        .host_ns = cpu_to_le64(c->cqe.host_ns),
        .cycles = cpu_to_le64(c->cqe.cycles),
    };
    IpuDmaFault fault = { 0 };
    int cs = IPU_CS_SUCCESS;

    if (ipu_fault_take(s, IPU_FAULT_CORRUPT_CQE, "queue %u cid %u: sq_id "
                       "0x%x, cid %u", c->qi, c->cqe.cid,
                       IPU_CQE_SQ_ID_CORRUPT, (uint16_t)~c->cqe.cid)) {
        le.cid = cpu_to_le16((uint16_t)~c->cqe.cid);
        le.sq_id = cpu_to_le16(IPU_CQE_SQ_ID_CORRUPT);
    }
    qemu_mutex_unlock(&s->lock);
    /* A RUN's record goes with its completion, zero or not. */
    if (record) {
        cs = rec_wraps ? IPU_CS_DMA_ERROR :
             ipu_write_record(s, rec_addr, &c->stats, &fault);
        if (cs) {
            *rf = (IpuRingFault) { "run record", rec_addr };
        }
        /* The record before the completion that announces it. */
        smp_wmb();
    }
    if (!cs) {
        cs = ipu_dma_ram(s, cq_addr, &le, sizeof(le), true, &fault);
        if (cs) {
            *rf = (IpuRingFault) { "CQ", fault.addr };
        }
    }
    qemu_mutex_lock(&s->lock);
    if (q->gen != gen || cs) {
        return;
    }
    qatomic_set(&q->cq_tail, (tail + 1) & (q->size - 1));
    if (!q->cq_tail) {
        q->phase = !q->phase;
    }
    if (!q->irq_pending++) {
        q->irq_first_ns = ipu_now_ns();
    }
}

/*
 * Worker thread, lock held: the queues whose completion interrupt is due
 * now (COALESCE count reached or delay over; a delay of 0 is due at once),
 * as a mask; *@next is when the next one falls due (INT64_MAX: none).
 * Completions the driver has consumed meanwhile need no interrupt.
 */
static uint32_t ipu_due_interrupts_locked(IpuState *s, int64_t *next)
{
    int64_t now = ipu_now_ns();
    uint32_t due = 0;

    *next = INT64_MAX;
    for (unsigned i = 0; i < IPU_NUM_QUEUES; i++) {
        IpuQueue *q = &s->queues[i];
        uint32_t count = MAX(IPU_Q_COALESCE_COUNT(q->coalesce), 1);
        int64_t delay = (int64_t)IPU_Q_COALESCE_USEC(q->coalesce) * SCALE_US;

        if (!q->irq_pending) {
            continue;
        }
        if (delay && qatomic_read(&q->cq_head) == q->cq_tail) {
            q->irq_pending = 0;         /* the driver polled them all */
            continue;
        }
        if (delay && q->irq_pending < count && now - q->irq_first_ns < delay) {
            *next = MIN(*next, q->irq_first_ns + delay);
            continue;
        }
        q->irq_pending = 0;
        due |= 1u << i;
    }
    return due;
}

/*
 * Worker thread, lock held: send the interrupts that are due. The BQL is
 * taken with IpuState.lock dropped (lock order: BQL first).
 */
static void ipu_signal_locked(IpuState *s, int64_t *next)
{
    uint32_t due = ipu_due_interrupts_locked(s, next);
    uint32_t vectors[IPU_NUM_QUEUES];

    if (!due) {
        return;
    }
    for (unsigned i = 0; i < IPU_NUM_QUEUES; i++) {
        vectors[i] = s->queues[i].vector;
    }
    qemu_mutex_unlock(&s->lock);
    qemu_mutex_lock_iothread();
    for (unsigned i = 0; i < IPU_NUM_QUEUES; i++) {
        if (!(due & (1u << i))) {
            continue;
        }
        if (ipu_msix_on(s)) {
            if (!ipu_fault_take(s, IPU_FAULT_DROP_IRQ, "MSI-X vector %u "
                                "(queue %u)", vectors[i], i)) {
                msix_notify(PCI_DEVICE(s), vectors[i]);
            }
        } else {
            ipu_raise(s, IPU_IRQ_QUEUE(i));
        }
    }
    qemu_mutex_unlock_iothread();
    qemu_mutex_lock(&s->lock);
}

/*
 * Worker thread, lock held: wait for work, or until the coalesced interrupt
 * due at @irq_due. Right after a command the next one usually follows at
 * once, so spin on the doorbell count until @spin_until (the card's poll-us
 * property) before sleeping on the condition; an interrupt due within
 * 1 ms is waited for spinning too (the condition's timeout is in ms).
 */
static void ipu_wait_for_work_locked(IpuState *s, int64_t spin_until,
                                     int64_t irq_due)
{
    unsigned kicks = qatomic_read(&s->kicks);
    int64_t now = ipu_now_ns();
    int64_t until = irq_due - now <= SCALE_MS ? MAX(spin_until, irq_due) :
                                                spin_until;

    if (until > now) {
        qemu_mutex_unlock(&s->lock);
        until = MIN(until, irq_due);
        /* The doorbell count at every turn, the clock at every 16th. */
        for (unsigned i = 1; qatomic_read(&s->kicks) == kicks; i++) {
            if (!(i % 16) && (ipu_now_ns() >= until ||
                              qatomic_read(&s->worker_exit))) {
                break;
            }
            cpu_relax();
        }
        qemu_mutex_lock(&s->lock);
        return;
    }
    /* ipu_signal_locked() may have dropped the lock: look again. */
    if (s->engine_reset || s->worker_exit || ipu_pick_queue_peek_locked(s)) {
        return;
    }
    qatomic_set(&s->worker_sleeping, true);
    smp_mb();       /* pairs with the barrier of ipu_doorbell_write() */
    if (ipu_pick_queue_peek_locked(s)) {
        qatomic_set(&s->worker_sleeping, false);
        return;
    }
    if (irq_due != INT64_MAX) {
        qemu_cond_timedwait(&s->cond, &s->lock,
                            (irq_due - now + SCALE_MS - 1) / SCALE_MS);
    } else {
        qemu_cond_wait(&s->cond, &s->lock);
    }
    qatomic_set(&s->worker_sleeping, false);
}

/*
 * Worker thread, lock held: it is no longer busy on queue @q. A disable
 * that came meanwhile takes effect now: ENABLED reads 0, and the card does
 * no more DMA for the queue. A reset waiting for READY may go on.
 */
static void ipu_worker_release_locked(IpuState *s, IpuQueue *q)
{
    qatomic_set(&s->health.active, 0);
    qatomic_set(&s->worker_busy, false);
    if (!q->enable_req) {
        qatomic_set(&q->status, q->status & ~IPU_Q_STATUS_ENABLED);
    }
    qemu_cond_broadcast(&s->cond);
}

static void *ipu_worker(void *opaque)
{
    IpuState *s = opaque;
    int64_t spin_until = 0, irq_due;

    rcu_register_thread();      /* DMA translates addresses under RCU */
    qemu_mutex_lock(&s->lock);
    while (!s->worker_exit) {
        IpuCmd c = { .s = s };
        IpuRingFault rf = { NULL };
        IpuDmaFault fault = { 0 };
        IpuQueue *q;
        unsigned qi;
        uint32_t gen;
        uint64_t t0, sqe_addr;
        int cs;

        if (s->engine_reset) {
            qemu_mutex_unlock(&s->lock);
            ipu_link_group_leave(s);    /* before its graph goes */
            qemu_mutex_lock(&s->lock);
            if (s->engine) {
                ipue_engine_reset(s->engine);
            }
            ipu_streams_unbind_all(s);
            s->engine_reset = false;
            qemu_cond_broadcast(&s->cond);
            continue;
        }
        ipu_signal_locked(s, &irq_due);
        q = ipu_pick_queue_locked(s, &qi);
        if (!q) {
            ipu_wait_for_work_locked(s, spin_until, irq_due);
            if (ipu_now_ns() >= spin_until) {
                spin_until = 0;
            }
            continue;
        }

        /*
         * Busy on the queue from the fetch to the completion: a disable
         * keeps ENABLED at 1 and a reset's READY waits until the worker
         * lets go (ipu_worker_release_locked()). No DMA with the lock held.
         */
        gen = q->gen;
        c.qi = qi;
        c.user = q->user;   /* as the queue was enabled when fetched */
        sqe_addr = q->sq_base + (uint64_t)q->sq_head * sizeof(c.sqe);
        s->busy_queue = qi;
        qatomic_set(&s->dma_cancel, false);
        qatomic_set(&s->worker_busy, true);
        qemu_mutex_unlock(&s->lock);

        cs = ipu_dma_ram(s, sqe_addr, &c.sqe, sizeof(c.sqe), false, &fault);

        qemu_mutex_lock(&s->lock);
        if (q->gen != gen || cs) {
            /* Stopped meanwhile (the entry is dropped), or an SQ fault. */
            ipu_worker_release_locked(s, q);
            if (q->gen == gen) {
                ipu_queue_ring_error_locked(s, q, qi, "SQ", fault.addr);
            }
            continue;
        }
        q->sq_head = (q->sq_head + 1) & (q->size - 1);
        ipu_sqe_from_le(&c.sqe);
        c.cqe.cid = c.sqe.cid;
        ipu_progress(s);
        qatomic_set(&s->health.active, IPU_ACTIVE_BUSY | (qi << 16) |
                    c.sqe.cid);
        if (ipu_hang_locked(s, &c)) {
            trace_ipu_cmd_dropped(qi, c.sqe.cid);
            ipu_worker_release_locked(s, q);
            continue;
        }
        qemu_mutex_unlock(&s->lock);

        trace_ipu_cmd_start(qi, c.sqe.cid, c.sqe.opcode);
        t0 = ipu_now_ns();
        cs = ipu_cmd_execute(&c);
        c.cqe.host_ns = ipu_now_ns() - t0;
        c.cqe.status = cs << 1;
        if (cs == IPU_CS_DMA_ERROR) {
            ipu_health_count(&s->health.err_dma);
        }
        g_free(c.buf);
        trace_ipu_cmd_done(qi, c.sqe.cid, c.sqe.opcode, cs, c.cqe.detail,
                           c.cqe.host_ns);

        qemu_mutex_lock(&s->lock);
        /*
         * Disabled or reset meanwhile, or the card failed: the completion
         * is dropped.
         */
        if (q->gen == gen && (q->status & IPU_Q_STATUS_ENABLED) &&
            !s->failed) {
            ipu_post_locked(s, q, gen, &c, &rf);
        } else {
            trace_ipu_cmd_dropped(qi, c.sqe.cid);
        }
        ipu_worker_release_locked(s, q);
        if (rf.ring && q->gen == gen) {
            ipu_queue_ring_error_locked(s, q, qi, rf.ring, rf.addr);
        }
        spin_until = s->poll_ns ? ipu_now_ns() + s->poll_ns : 0;
    }
    qemu_mutex_unlock(&s->lock);
    rcu_unregister_thread();
    return NULL;
}

/* ---- lifecycle ---- */

void ipu_worker_start(IpuState *s)
{
    qemu_mutex_init(&s->lock);
    qemu_cond_init(&s->cond);
    qemu_thread_create(&s->worker, "ipu-worker", ipu_worker, s,
                       QEMU_THREAD_JOINABLE);
}

void ipu_worker_stop(IpuState *s)
{
    qemu_mutex_lock(&s->lock);
    s->worker_exit = true;
    ipu_cancel_locked(s);
    qemu_cond_broadcast(&s->cond);
    qemu_mutex_unlock(&s->lock);
    /* The worker may be waiting for the BQL to signal a completion. */
    qemu_mutex_unlock_iothread();
    qemu_thread_join(&s->worker);
    qemu_mutex_lock_iothread();
    ipu_link_group_leave(s);
    ipue_engine_destroy(s->engine);
    s->engine = NULL;
    ipu_streams_unbind_all(s);
    qemu_cond_destroy(&s->cond);
    qemu_mutex_destroy(&s->lock);
}

/*
 * Soft or PCI reset: every queue stops and forgets its registers, a command
 * in progress is cancelled and dropped, and the worker drops the graph. The
 * card reports READY only once ipu_queues_idle() says all that is done.
 */
void ipu_queues_reset(IpuState *s)
{
    qemu_mutex_lock(&s->lock);
    for (unsigned i = 0; i < IPU_NUM_QUEUES; i++) {
        IpuQueue *q = &s->queues[i];
        uint32_t gen = q->gen + 1;

        memset(q, 0, sizeof(*q));
        q->gen = gen;
    }
    if (s->worker_busy) {
        ipu_cancel_locked(s);
    }
    s->engine_reset = true;
    qemu_cond_broadcast(&s->cond);
    qemu_mutex_unlock(&s->lock);
}

bool ipu_queues_idle(IpuState *s)
{
    bool idle;

    qemu_mutex_lock(&s->lock);
    idle = !s->worker_busy && !s->engine_reset;
    if (!idle && s->worker_busy) {
        ipu_cancel_locked(s);       /* a run may have started since */
    }
    if (!idle) {
        qemu_cond_broadcast(&s->cond);
    }
    qemu_mutex_unlock(&s->lock);
    return idle;
}
