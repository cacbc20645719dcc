/*
 * Emulated IPU card: the command queues' registers and doorbells
 * (docs/hw-interface.md "Command queues"): ENABLE and disable, the ring
 * checks at ENABLE, the doorbells (which wake the worker, ipu-worker.c,
 * and act on ABORTs at once). Locking rules are in ipu.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/atomic.h"
#include "ipu.h"
#include "trace.h"

/* ---- registers ---- */

static bool ipu_qsize_ok(uint32_t size)
{
    return size >= IPU_Q_SIZE_MIN && size <= IPU_Q_SIZE_MAX &&
           is_power_of_2(size);
}

bool ipu_queue_reg_read_only(hwaddr addr)
{
    hwaddr r = (addr - IPU_REG_QUEUE_BASE) % IPU_QUEUE_STRIDE;

    return addr >= IPU_REG_QUEUE_BASE &&
           addr < IPU_REG_Q(IPU_NUM_QUEUES, 0) &&
           (r == IPU_Q_STATUS || r == IPU_Q_SQ_HEAD || r == IPU_Q_CQ_TAIL ||
            r == IPU_Q_CQ_HEAD);
}

uint64_t ipu_queue_reg_read(IpuState *s, hwaddr addr)
{
    unsigned qi;
    hwaddr r;
    IpuQueue *q;
    uint64_t v;

    if (addr >= IPU_REG_DOORBELL_BASE) {
        return 0;   /* doorbells are write-only */
    }
    qi = (addr - IPU_REG_QUEUE_BASE) / IPU_QUEUE_STRIDE;
    r = (addr - IPU_REG_QUEUE_BASE) % IPU_QUEUE_STRIDE;
    q = &s->queues[qi];

    qemu_mutex_lock(&s->lock);
    switch (r) {
    case IPU_Q_SQ_BASE_LO:
        v = (uint32_t)q->sq_base;
        break;
    case IPU_Q_SQ_BASE_HI:
        v = q->sq_base >> 32;
        break;
    case IPU_Q_CQ_BASE_LO:
        v = (uint32_t)q->cq_base;
        break;
    case IPU_Q_CQ_BASE_HI:
        v = q->cq_base >> 32;
        break;
    case IPU_Q_REC_BASE_LO:
        v = (uint32_t)q->rec_base;
        break;
    case IPU_Q_REC_BASE_HI:
        v = q->rec_base >> 32;
        break;
    case IPU_Q_SIZE:
        v = q->size;
        break;
    case IPU_Q_VECTOR:
        v = q->vector;
        break;
    case IPU_Q_COALESCE:
        v = q->coalesce;
        break;
    case IPU_Q_CTRL:
        v = q->enable_req ?
            IPU_Q_CTRL_ENABLE | (q->user ? IPU_Q_CTRL_USER : 0) : 0;
        break;
    case IPU_Q_STATUS:
        v = q->status;
        break;
    case IPU_Q_SQ_HEAD:
        v = q->sq_head;
        break;
    case IPU_Q_CQ_TAIL:
        v = q->cq_tail;
        break;
    case IPU_Q_CQ_HEAD:
        v = qatomic_read(&q->cq_head);  /* the doorbell writes it unlocked */
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: read of undefined queue register 0x%" HWADDR_PRIx
                      "\n", addr);
        v = 0;
        break;
    }
    qemu_mutex_unlock(&s->lock);
    return v;
}

/*
 * With the lock held: cancel the command the worker is busy with. A run
 * stops at its next step, a transfer (the worker's, the engine host
 * threads', a stream's) before its next chunk (ipu-dma.c); the worker drops
 * its completion, as the queue's gen has changed.
 */
/*
 * With the lock held: stop queue @qi. A command of it in progress is
 * cancelled and its completion dropped; ENABLED reads 1 until the worker has
 * let go of the queue (ipu_worker_release_locked()): from then on the card
 * does no DMA to the rings or anything the commands referenced, and the
 * guest may free them.
 */
void ipu_q_disable_locked(IpuState *s, unsigned qi)
{
    IpuQueue *q = &s->queues[qi];

    q->enable_req = false;
    q->gen++;
    q->irq_pending = 0;
    trace_ipu_queue_disable(qi, s->worker_busy && s->busy_queue == qi);
    if (s->worker_busy && s->busy_queue == qi) {
        ipu_cancel_locked(s);
        return;
    }
    qatomic_set(&q->status, q->status & ~IPU_Q_STATUS_ENABLED);
}

/* A ring of @n entries at @base would run past the end of the bus. */
static bool ipu_ring_wraps(uint64_t base, uint32_t n, uint32_t entry)
{
    return base && base + (uint64_t)n * entry - 1 < base;
}

static void ipu_q_enable_locked(IpuState *s, IpuQueue *q, unsigned qi,
                                    bool user)
{
    uint32_t err = 0;

    if (!ipu_qsize_ok(q->size)) {
        err = IPU_QERR_SIZE;
    } else if ((q->sq_base | q->cq_base | q->rec_base) &
               (IPU_Q_RING_ALIGN - 1)) {
        err = IPU_QERR_ALIGN;
    } else if (ipu_msix_on(s) &&
               (q->vector < 1 || q->vector >= IPU_MSIX_VECTORS)) {
        err = IPU_QERR_VECTOR;
    } else if (ipu_ring_wraps(q->sq_base, q->size, sizeof(struct ipu_sqe)) ||
               ipu_ring_wraps(q->cq_base, q->size, sizeof(struct ipu_cqe)) ||
               ipu_ring_wraps(q->rec_base, q->size, IPU_RUN_RECORD_SIZE)) {
        err = IPU_QERR_RING_DMA;
    }
    if (err) {
        trace_ipu_queue_enable_refused(qi, err);
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: queue %u cannot be enabled (error %u)\n", qi, err);
        qatomic_set(&q->status, IPU_Q_STATUS_ERROR | (err << 8));
        q->enable_req = false;
        return;
    }
    q->sq_head = q->sq_tail = q->cq_head = q->cq_tail = 0;
    q->abort_scan = 0;
    q->phase = true;
    q->irq_pending = 0;
    q->user = user;
    q->enable_req = true;
    trace_ipu_queue_enable(qi, q->size, user);
    qatomic_set(&q->status, IPU_Q_STATUS_ENABLED);
    qemu_cond_broadcast(&s->cond);
}

/*
 * ABORT acts when its doorbell rings, ahead of the queue's order: look at
 * the opcodes of the entries just submitted. BQL held (abort_scan belongs
 * to the doorbell); the lock is taken only to cancel.
 */
static void ipu_scan_for_abort(IpuState *s, IpuQueue *q, uint32_t tail)
{
    IpuDmaFault fault;

    /* An idle worker fetches the entries in order soon enough. */
    if (!qatomic_read(&s->worker_busy)) {
        q->abort_scan = tail;
        return;
    }
    while (q->abort_scan != tail) {
        uint8_t op;

        if (ipu_dma_ram(s, q->sq_base +
                        (uint64_t)q->abort_scan * sizeof(struct ipu_sqe),
                        &op, 1, false, &fault) == IPU_CS_SUCCESS &&
            op == IPU_SQE_ABORT) {
            qemu_mutex_lock(&s->lock);
            if (s->engine) {
                ipue_cancel(s->engine);
            }
            qemu_mutex_unlock(&s->lock);
        }
        q->abort_scan = (q->abort_scan + 1) & (q->size - 1);
    }
}

/*
 * A doorbell, BQL held, without the lock: the worker spinning for work
 * must not have to give the lock to the vCPU it is waiting for. The
 * doorbell values are written only here and (lock and BQL held) by enable
 * and reset; the worker reads them atomically. A sleeping worker is woken
 * under the lock: it set worker_sleeping and looked for work once more
 * before sleeping, so either it sees this doorbell or we see it asleep.
 */
void ipu_doorbell_write(IpuState *s, unsigned qi, bool cq, uint32_t val)
{
    IpuQueue *q;
    bool enabled;

    if (qi >= IPU_NUM_QUEUES) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: doorbell of queue %u ignored (no such queue)\n",
                      qi);
        return;
    }
    q = &s->queues[qi];
    enabled = qatomic_read(&q->status) & IPU_Q_STATUS_ENABLED;

    if (!enabled || val >= q->size) {
        trace_ipu_doorbell_ignored(qi, cq, val);
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: queue %u %s doorbell 0x%x ignored (%s)\n",
                      qi, cq ? "CQ head" : "SQ tail", val,
                      enabled ? "beyond the ring" : "queue disabled");
        return;
    }
    trace_ipu_doorbell(qi, cq, val);
    if (cq) {
        uint32_t old = qatomic_xchg(&q->cq_head, val);  /* a full barrier */

        /*
         * Only a worker that found the CQ full waits for CQ space; the
         * delayed interrupts read CQ_HEAD themselves. Waking the worker
         * for every consumed completion would cost the next command.
         */
        if (((qatomic_read(&q->cq_tail) + 1) & (q->size - 1)) != old) {
            return;
        }
    } else {
        qatomic_store_release(&q->sq_tail, val);
        ipu_scan_for_abort(s, q, val);
    }
    qatomic_inc(&s->kicks);                         /* a full barrier */
    if (qatomic_read(&s->worker_sleeping)) {
        qemu_mutex_lock(&s->lock);
        qemu_cond_broadcast(&s->cond);
        qemu_mutex_unlock(&s->lock);
    }
}

/* The registers that are locked while the queue is enabled. */
static bool ipu_queue_config_reg(hwaddr r)
{
    return r <= IPU_Q_COALESCE || r == IPU_Q_REC_BASE_LO ||
           r == IPU_Q_REC_BASE_HI;
}

void ipu_queue_reg_write(IpuState *s, hwaddr addr, uint32_t val)
{
    bool doorbell = addr >= IPU_REG_DOORBELL_BASE;
    unsigned qi;
    hwaddr r;
    IpuQueue *q;

    if (doorbell) {
        qi = (addr - IPU_REG_DOORBELL_BASE) / 8;
        r = (addr - IPU_REG_DOORBELL_BASE) % 8;
    } else {
        qi = (addr - IPU_REG_QUEUE_BASE) / IPU_QUEUE_STRIDE;
        r = (addr - IPU_REG_QUEUE_BASE) % IPU_QUEUE_STRIDE;
    }
    q = &s->queues[qi];

    if (doorbell) {
        ipu_doorbell_write(s, qi, r != 0, val);
        return;
    }
    qemu_mutex_lock(&s->lock);
    if (ipu_queue_config_reg(r) && q->enable_req) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: queue %u register 0x%" HWADDR_PRIx " is locked "
                      "while the queue is enabled\n", qi, r);
        goto out;
    }
    switch (r) {
    case IPU_Q_SQ_BASE_LO:
        q->sq_base = deposit64(q->sq_base, 0, 32, val);
        break;
    case IPU_Q_SQ_BASE_HI:
        q->sq_base = deposit64(q->sq_base, 32, 32, val);
        break;
    case IPU_Q_CQ_BASE_LO:
        q->cq_base = deposit64(q->cq_base, 0, 32, val);
        break;
    case IPU_Q_CQ_BASE_HI:
        q->cq_base = deposit64(q->cq_base, 32, 32, val);
        break;
    case IPU_Q_REC_BASE_LO:
        q->rec_base = deposit64(q->rec_base, 0, 32, val);
        break;
    case IPU_Q_REC_BASE_HI:
        q->rec_base = deposit64(q->rec_base, 32, 32, val);
        break;
    case IPU_Q_SIZE:
        q->size = val;
        break;
    case IPU_Q_VECTOR:
        q->vector = val;
        break;
    case IPU_Q_COALESCE:
        q->coalesce = val;
        break;
    case IPU_Q_CTRL:
        if (val & ~(IPU_Q_CTRL_ENABLE | IPU_Q_CTRL_USER)) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "ipu: queue %u CTRL 0x%x sets undefined bits\n",
                          qi, val);
        }
        /* USER is taken with ENABLE: an enabled queue keeps its kind. */
        if ((val & IPU_Q_CTRL_ENABLE) && q->enable_req &&
            !(val & IPU_Q_CTRL_USER) != !q->user) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "ipu: queue %u CTRL.USER cannot change while the "
                          "queue is enabled\n", qi);
        }
        if ((val & IPU_Q_CTRL_ENABLE) && !q->enable_req) {
            ipu_q_enable_locked(s, q, qi, val & IPU_Q_CTRL_USER);
        } else if (!(val & IPU_Q_CTRL_ENABLE) && q->enable_req) {
            ipu_q_disable_locked(s, qi);
        }
        break;
    default:
        ipu_log_write_ignored("queue ", addr, val,
                              ipu_queue_reg_read_only(addr));
        break;
    }
out:
    qemu_mutex_unlock(&s->lock);
}
