/*
 * Emulated IPU card: command queues (docs/hw-interface.md "Command queues").
 *
 * The vCPU writes queue registers and doorbells; a worker thread per card
 * fetches submissions round-robin over the queues, executes them on the
 * tile engine (qemu-device/engine/), posts completions (a RUN's after its
 * run record, when the queue has REC_BASE) and raises their interrupts
 * (under the BQL) as each queue's coalescing settings say.
 * Locking rules are in ipu.h.
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
#include "ipu_engine.h"
#include "trace.h"

static uint64_t ipu_now_ns(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
}

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
static void ipu_cancel_locked(IpuState *s)
{
    qatomic_set(&s->dma_cancel, true);
    if (s->engine) {
        ipue_cancel(s->engine);
    }
}

/*
 * With the lock held: stop queue @qi. A command of it in progress is
 * cancelled and its completion dropped; ENABLED reads 1 until the worker has
 * let go of the queue (ipu_worker_release_locked()): from then on the card
 * does no DMA to the rings or anything the commands referenced, and the
 * guest may free them.
 */
static void ipu_queue_disable_locked(IpuState *s, unsigned qi)
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

static void ipu_queue_enable_locked(IpuState *s, IpuQueue *q, unsigned qi,
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
            ipu_queue_enable_locked(s, q, qi, val & IPU_Q_CTRL_USER);
        } else if (!(val & IPU_Q_CTRL_ENABLE) && q->enable_req) {
            ipu_queue_disable_locked(s, qi);
        }
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: write 0x%x to %s queue register 0x%" HWADDR_PRIx
                      " ignored\n", val,
                      ipu_queue_reg_read_only(addr) ? "read-only" : "undefined",
                      addr);
        break;
    }
out:
    qemu_mutex_unlock(&s->lock);
}

/* ---- command execution (worker thread, lock not held) ---- */

static void ipu_streams_unbind_all(IpuState *s);

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

/* Transfers at least this large are split over the engine's host threads. */
#define IPU_PAR_XFER_MIN    (1u << 20)
/*
 * ... and from this size on, larger than a host's caches, copied with
 * non-temporal stores (nothing will read the destination soon).
 */
#define IPU_STREAM_XFER_MIN (8u << 20)
#define IPU_PAR_MAX         IPUE_MAX_HOST_THREADS

/* One host thread's share of a WRITE or READ: bytes [start, start + len). */
typedef struct IpuXferPart {
    IpuCmd *c;
    bool to_guest;
    uint64_t start, len;
    int cs;
    IpuDmaFault fault;
} IpuXferPart;

/* A piece of a WRITE (host -> tensor) or READ, at @ptr in guest RAM. */
static int ipu_tensor_xfer_fn(void *opaque, void *ptr, uint64_t len,
                              uint64_t off)
{
    IpuXferPart *p = opaque;
    unsigned flags = (p->to_guest ? 0 : IPUE_XFER_WRITE) |
                     (p->c->sqe.length >= IPU_STREAM_XFER_MIN ?
                      IPUE_XFER_STREAM : 0);

    return ipue_tensor_xfer(p->c->s->engine, p->c->handle,
                            p->c->sqe.offset + p->start + off, ptr, len,
                            flags) ? IPU_CS_INTERNAL : IPU_CS_SUCCESS;
}

static void ipu_xfer_part(IpuXferPart *p)
{
    IpuCmd *c = p->c;

    p->cs = ipu_dma_walk(c->s, c->sqe.data, c->sqe.sgl_count,
                         c->sqe.length, p->start, p->len, p->to_guest,
                         ipu_tensor_xfer_fn, p, &p->fault);
}

/* An engine host thread: its page-aligned share of the transfer. */
static void ipu_xfer_par_fn(void *arg, unsigned i, unsigned n)
{
    IpuXferPart *parts = arg;
    uint64_t len = parts[0].len;
    uint64_t lo = i ? QEMU_ALIGN_DOWN(len * i / n, 4096) : 0;
    uint64_t hi = i + 1 < n ? QEMU_ALIGN_DOWN(len * (i + 1) / n, 4096) : len;

    if (i >= IPU_PAR_MAX) {
        return;
    }
    parts[i + 1] = parts[0];
    parts[i + 1].start = lo;
    parts[i + 1].len = hi - lo;
    ipu_xfer_part(&parts[i + 1]);
}

static int ipu_dma_result(IpuCmd *c, int cs, IpuDmaFault *fault)
{
    if (cs == IPU_CS_DMA_ERROR) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: command %u: DMA address 0x%" PRIx64
                      " is not guest RAM\n", c->sqe.cid, fault->addr);
        c->cqe.detail = (uint32_t)fault->addr;
        c->cqe.detail2 = fault->addr >> 32;
    } else if (cs == IPU_CS_INVALID_SGL) {
        c->cqe.detail = (uint32_t)fault->addr;
    }
    return cs;
}

static int ipu_engine_ready(IpuState *s)
{
    struct ipue_config cfg = {
        .model = s->model->id,
        .host_threads = s->host_threads,
        /* the engine's threads do DMA for large transfers */
        .thread_init = rcu_register_thread,
        .thread_exit = rcu_unregister_thread,
    };

    struct ipue_engine *e;

    if (s->engine) {
        return IPU_CS_SUCCESS;
    }
    if (ipue_engine_create(&cfg, &e)) {
        return IPU_CS_INTERNAL;
    }
    qemu_mutex_lock(&s->lock);      /* others cancel through it */
    s->engine = e;
    qemu_mutex_unlock(&s->lock);
    return IPU_CS_SUCCESS;
}

static int ipu_cmd_load(IpuCmd *c)
{
    IpuState *s = c->s;
    struct ipue_load_error lerr = { 0 };
    IpuCopy gather = { .to_guest = false };
    IpuDmaFault fault = { 0 };
    char msg[IPU_LOAD_MSG_LEN];
    int cs, ret;

    if (!c->sqe.length || c->sqe.length > IPU_MAX_GRAPH_BYTES) {
        return IPU_CS_TOO_LARGE;
    }
    cs = ipu_engine_ready(s);
    if (cs) {
        return cs;
    }
    c->buf = g_try_malloc(c->sqe.length);
    if (!c->buf) {
        return IPU_CS_INTERNAL;
    }
    gather.buf = c->buf;
    cs = ipu_dma_walk(s, c->sqe.data, c->sqe.sgl_count, c->sqe.length,
                      0, c->sqe.length, false, ipu_dma_copy_fn, &gather,
                      &fault);
    if (cs) {
        return ipu_dma_result(c, cs, &fault);
    }
    ipu_streams_unbind_all(s);
    ret = ipue_load(s->engine, c->buf, c->sqe.length, &lerr);
    if (!ret) {
        s->nstreams = ipue_stream_count(s->engine);
        s->streams = g_new0(IpuStreamRing, s->nstreams);
        return IPU_CS_SUCCESS;
    }
    if (ret == IPUE_ENOMEM) {
        return IPU_CS_INTERNAL;
    }
    c->cqe.detail = lerr.section;
    c->cqe.detail2 = lerr.record;
    if (c->sqe.arg) {
        memset(msg, 0, sizeof(msg));
        snprintf(msg, sizeof(msg), "%s: %s", lerr.section_name[0] ?
                 lerr.section_name : "graph", lerr.message[0] ?
                 lerr.message : ipue_strerror(ret));
        cs = ipu_dma_ram(s, c->sqe.arg, msg, sizeof(msg), true, &fault);
        if (cs) {
            return ipu_dma_result(c, cs, &fault);
        }
    }
    return IPU_CS_LOAD_FAILED;
}

static int ipu_cmd_transfer(IpuCmd *c, bool to_guest)
{
    IpuState *s = c->s;
    struct ipue_tensor_info info;
    IpuXferPart parts[IPU_PAR_MAX + 1];
    int n;

    if (!s->engine || !ipue_loaded(s->engine)) {
        return IPU_CS_NO_GRAPH;
    }
    if (ipue_handle_info(s->engine, c->sqe.handle, &info)) {
        c->cqe.detail = c->sqe.handle;
        return IPU_CS_BAD_HANDLE;
    }
    if (!(info.access & (to_guest ? IPU_HANDLE_READ : IPU_HANDLE_WRITE))) {
        c->cqe.detail = c->sqe.handle;
        return IPU_CS_ACCESS;
    }
    if (c->sqe.offset > info.bytes || c->sqe.length > info.bytes - c->sqe.offset) {
        return IPU_CS_OUT_OF_RANGE;
    }
    c->handle = c->sqe.handle;
    parts[0] = (IpuXferPart) {
        .c = c, .to_guest = to_guest, .start = 0, .len = c->sqe.length,
    };
    if (c->sqe.length < IPU_PAR_XFER_MIN) {
        ipu_xfer_part(&parts[0]);
        return ipu_dma_result(c, parts[0].cs, &parts[0].fault);
    }
    /* Big: every host thread copies a share (the first error wins). */
    n = ipue_parallel(s->engine, ipu_xfer_par_fn, parts);
    if (n < 0) {
        return IPU_CS_INTERNAL;
    }
    for (int i = 1; i <= MIN(n, IPU_PAR_MAX); i++) {
        if (parts[i].cs) {
            return ipu_dma_result(c, parts[i].cs, &parts[i].fault);
        }
    }
    return IPU_CS_SUCCESS;
}

/* ---- host streams bound to rings in guest memory ---- */


static int ipu_stream_move(IpuStreamRing *r, void *buf, size_t len)
{
    IpuCopy c = { .buf = buf, .to_guest = r->to_guest };
    uint64_t slots = r->length / r->transfer;
    IpuDmaFault fault;
    int cs;

    cs = ipu_dma_walk(r->s, r->data, r->sgl_count, r->length,
                      (r->pos % slots) * r->transfer, len, r->to_guest,
                      ipu_dma_copy_fn, &c, &fault);
    if (cs) {
        if (cs != IPU_CS_ABORTED) {     /* not a guest error: a cancel */
            qemu_log_mask(LOG_GUEST_ERROR, "ipu: stream ring transfer %"
                          PRIu64 " failed (status %d)\n", r->pos, cs);
        }
        return -1;          /* the run fails with a stream error */
    }
    r->pos++;
    return 0;
}

static int ipu_stream_fetch(void *user, unsigned stream, void *dst, size_t len)
{
    return ipu_stream_move(user, dst, len);
}

static int ipu_stream_push(void *user, unsigned stream, const void *src,
                           size_t len)
{
    return ipu_stream_move(user, (void *)src, len);
}

/* Worker thread: forget every binding (LOAD, UNLOAD, reset, exit). */
static void ipu_streams_unbind_all(IpuState *s)
{
    g_free(s->streams);
    s->streams = NULL;
    s->nstreams = 0;
}

static int ipu_cmd_stream_bind(IpuCmd *c)
{
    IpuState *s = c->s;
    struct ipue_stream_callbacks cb = {
        .fetch = ipu_stream_fetch,
        .push = ipu_stream_push,
    };
    struct ipue_stream_info info;
    IpuDmaFault fault = { 0 };
    IpuStreamRing *r;
    int cs;

    if (!s->engine || !ipue_loaded(s->engine)) {
        return IPU_CS_NO_GRAPH;
    }
    if (c->sqe.handle >= s->nstreams ||
        ipue_stream_info(s->engine, c->sqe.handle, &info)) {
        c->cqe.detail = c->sqe.handle;
        return IPU_CS_BAD_HANDLE;
    }
    r = &s->streams[c->sqe.handle];
    if (!c->sqe.length && !c->sqe.data && !c->sqe.sgl_count) {
        ipue_stream_connect(s->engine, c->sqe.handle, NULL);
        memset(r, 0, sizeof(*r));
        return IPU_CS_SUCCESS;
    }
    if (!info.bytes || !c->sqe.length || c->sqe.length % info.bytes) {
        qemu_log_mask(LOG_GUEST_ERROR, "ipu: stream %u: a ring of %" PRIu64
                      " bytes is not a whole number of %" PRIu64 "-byte "
                      "transfers\n", c->sqe.handle, c->sqe.length,
                      info.bytes);
        c->cqe.detail = offsetof(struct ipu_sqe, length);
        return IPU_CS_INVALID_FIELD;
    }
    /* Check the whole ring now, so a run fails only if the guest changes it. */
    cs = ipu_dma_walk(s, c->sqe.data, c->sqe.sgl_count,
                      c->sqe.length, 0, c->sqe.length,
                      info.direction == IPU_STREAM_DEVICE_TO_HOST, NULL, NULL,
                      &fault);
    if (cs) {
        return ipu_dma_result(c, cs, &fault);
    }
    *r = (IpuStreamRing) {
        .s = s,
        .data = c->sqe.data,
        .sgl_count = c->sqe.sgl_count,
        .length = c->sqe.length,
        .transfer = info.bytes,
        .to_guest = info.direction == IPU_STREAM_DEVICE_TO_HOST,
    };
    cb.user = r;
    return ipue_stream_connect(s->engine, c->sqe.handle, &cb) ?
           IPU_CS_INTERNAL : IPU_CS_SUCCESS;
}

static int ipu_cmd_run(IpuCmd *c)
{
    IpuState *s = c->s;
    struct ipue_run_opts opts = {
        .program = c->sqe.handle,
        .repeat = c->sqe.count ? c->sqe.count : 1,
    };
    struct ipue_run_stats *st = &c->stats;
    uint32_t code = 0, node = 0;
    int ret;

    if (!s->engine || !ipue_loaded(s->engine)) {
        return IPU_CS_NO_GRAPH;
    }
    if (c->sqe.handle >= (uint32_t)ipue_program_count(s->engine)) {
        c->cqe.detail = c->sqe.handle;
        return IPU_CS_BAD_HANDLE;
    }
    /* The engine fills *st also when the run fails part-way. */
    ret = ipue_run(s->engine, &opts, st);
    c->cqe.cycles = st->cycles;
    switch (ret) {
    case 0:
        c->cqe.detail = (uint32_t)st->steps;
        return IPU_CS_SUCCESS;
    case IPUE_ECANCELED:
        return IPU_CS_ABORTED;
    case IPUE_EABORT:
        ipue_abort_status(s->engine, &code, &node);
        c->cqe.detail = code;
        c->cqe.detail2 = node;
        return IPU_CS_PROGRAM_ABORT;
    case IPUE_ENOMEM:
        return IPU_CS_INTERNAL;
    default:
        c->cqe.detail = -ret;
        return IPU_CS_RUN_FAILED;
    }
}

/*
 * UNLOAD: drop the graph, as a soft reset does (docs/hw-interface.md). The
 * engine frees the graph's tile arena (munmap: a later LOAD maps fresh
 * zero pages, so no later graph or READ sees this one's data), its host
 * handles, programs and stream connections; the card forgets its rings.
 * Only the worker runs the engine, so no run is in progress here.
 */
static int ipu_cmd_unload(IpuCmd *c)
{
    IpuState *s = c->s;

    if (s->engine) {
        ipue_engine_reset(s->engine);
    }
    ipu_streams_unbind_all(s);
    return IPU_CS_SUCCESS;
}

/*
 * Checks that the fields the opcode does not use (ipu_sqe_uses()) are zero;
 * IPU_CS_*. The first such field, in this order, is the one reported.
 */
static int ipu_cmd_check(IpuCmd *c)
{
    const struct ipu_sqe *e = &c->sqe;
    uint32_t uses = ipu_sqe_uses(e->opcode);
    const struct {
        bool set;
        uint32_t needs;     /* 0: never allowed */
        size_t at;
    } fields[] = {
        { e->flags, 0, offsetof(struct ipu_sqe, flags) },
        { e->reserved[0] || e->reserved[1], 0,
          offsetof(struct ipu_sqe, reserved) },
        { e->arg, IPU_SQE_USES_ARG, offsetof(struct ipu_sqe, arg) },
        { e->handle, IPU_SQE_USES_HANDLE, offsetof(struct ipu_sqe, handle) },
        { e->offset, IPU_SQE_USES_OFFSET, offsetof(struct ipu_sqe, offset) },
        { e->length, IPU_SQE_USES_LENGTH, offsetof(struct ipu_sqe, length) },
        { e->data, IPU_SQE_USES_DATA, offsetof(struct ipu_sqe, data) },
        { e->sgl_count, IPU_SQE_USES_DATA,
          offsetof(struct ipu_sqe, sgl_count) },
        { e->count, IPU_SQE_USES_COUNT, offsetof(struct ipu_sqe, count) },
    };
    size_t bad = SIZE_MAX;

    for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
        if (fields[i].set && !(uses & fields[i].needs)) {
            bad = fields[i].at;
            break;
        }
    }
    if (bad != SIZE_MAX) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: command %u (opcode 0x%x): field at byte %zu must "
                      "be 0\n", e->cid, e->opcode, bad);
        c->cqe.detail = bad;
        return IPU_CS_INVALID_FIELD;
    }
    return IPU_CS_SUCCESS;
}

/*
 * A user queue's rings belong to an unprivileged process: only the commands
 * that carry no host address may run from it (docs/hw-interface.md "Doorbell
 * pages and user queues"). UNLOAD carries none either, but it is the
 * driver's (a detach scrubs the card), never a user queue's. Decided before
 * anything else, so a refused command does no DMA.
 */
static bool ipu_user_opcode_ok(uint8_t opcode)
{
    return opcode == IPU_SQE_RUN || opcode == IPU_SQE_FENCE ||
           opcode == IPU_SQE_ABORT;
}

static int ipu_cmd_execute(IpuCmd *c)
{
    int cs;

    if (c->user && !ipu_user_opcode_ok(c->sqe.opcode)) {
        qemu_log_mask(LOG_GUEST_ERROR, "ipu: queue %u is a user queue: "
                      "command %u with opcode 0x%x refused\n", c->qi,
                      c->sqe.cid, c->sqe.opcode);
        c->cqe.detail = c->sqe.opcode;
        return IPU_CS_INVALID_OPCODE;
    }
    cs = ipu_cmd_check(c);
    if (cs) {
        return cs;
    }
    switch (c->sqe.opcode) {
    case IPU_SQE_LOAD:
        return ipu_cmd_load(c);
    case IPU_SQE_WRITE:
        return ipu_cmd_transfer(c, false);
    case IPU_SQE_READ:
        return ipu_cmd_transfer(c, true);
    case IPU_SQE_RUN:
        return ipu_cmd_run(c);
    case IPU_SQE_STREAM_BIND:
        return ipu_cmd_stream_bind(c);
    case IPU_SQE_UNLOAD:
        return ipu_cmd_unload(c);
    case IPU_SQE_FENCE:
    case IPU_SQE_ABORT:
        /*
         * One worker executes commands in fetch order, so everything fetched
         * before a FENCE has completed; ABORT acted at its doorbell.
         */
        return IPU_CS_SUCCESS;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "ipu: command %u: unknown opcode "
                      "0x%x\n", c->sqe.cid, c->sqe.opcode);
        c->cqe.detail = c->sqe.opcode;
        return IPU_CS_INVALID_OPCODE;
    }
}

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
    for (unsigned i = 0; i < IPU_NUM_QUEUES; i++) {
        if (ipu_queue_has_work(&s->queues[i])) {
            return true;
        }
    }
    return false;
}

static IpuQueue *ipu_pick_queue_locked(IpuState *s, unsigned *qi)
{
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
    ipu_queue_disable_locked(s, qi);
    qatomic_set(&q->status, IPU_Q_STATUS_ERROR | (IPU_QERR_RING_DMA << 8));
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
            msix_notify(PCI_DEVICE(s), vectors[i]);
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
        qemu_mutex_unlock(&s->lock);

        ipu_sqe_from_le(&c.sqe);
        c.cqe.cid = c.sqe.cid;
        trace_ipu_cmd_start(qi, c.sqe.cid, c.sqe.opcode);
        t0 = ipu_now_ns();
        cs = ipu_cmd_execute(&c);
        c.cqe.host_ns = ipu_now_ns() - t0;
        c.cqe.status = cs << 1;
        g_free(c.buf);
        trace_ipu_cmd_done(qi, c.sqe.cid, c.sqe.opcode, cs, c.cqe.detail,
                           c.cqe.host_ns);

        qemu_mutex_lock(&s->lock);
        /* Disabled or reset meanwhile: the completion is dropped. */
        if (q->gen == gen && (q->status & IPU_Q_STATUS_ENABLED)) {
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

void ipu_queues_init(IpuState *s)
{
    qemu_mutex_init(&s->lock);
    qemu_cond_init(&s->cond);
    qemu_thread_create(&s->worker, "ipu-worker", ipu_worker, s,
                       QEMU_THREAD_JOINABLE);
}

void ipu_queues_exit(IpuState *s)
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
