/*
 * Emulated IPU card: executing one command on the tile engine
 * (docs/hw-interface.md "Submission entry"): LOAD, WRITE, READ, RUN,
 * STREAM_BIND, UNLOAD, FENCE and ABORT, their field checks, and the host
 * streams bound to rings in guest memory. The worker thread (ipu-worker.c)
 * calls ipu_cmd_execute() without IpuState.lock. Locking rules are in ipu.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/atomic.h"
#include "ipu.h"
#include "trace.h"

/* ---- command execution (worker thread, lock not held) ---- */

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
    ipu_link_group_leave(s);        /* 1.5: any LOAD leaves the old group */
    if (c->sqe.offset) {
        cs = ipu_link_group_join(s, c->sqe.offset, &c->cqe.detail);
        if (cs) {
            ipue_engine_reset(s->engine);
            return cs;
        }
    }
    ret = ipue_load_ex(s->engine, c->buf, c->sqe.length,
                       (c->sqe.flags & IPU_SQE_LOAD_COMMIT) ?
                       IPUE_LOAD_COMMIT : 0, &lerr);
    if (!ret) {
        struct ipue_mem_stats ms;

        s->nstreams = ipue_stream_count(s->engine);
        s->streams = g_new0(IpuStreamRing, s->nstreams);
        /* 1.3: what the load committed, for the guest to compare */
        ipue_mem_stats(s->engine, &ms);
        c->cqe.detail = (uint32_t)ms.tile_bytes_resident;
        c->cqe.detail2 = (uint32_t)(ms.tile_bytes_resident >> 32);
        return IPU_CS_SUCCESS;
    }
    ipu_link_group_leave(s);        /* no graph: no member of a group */
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
void ipu_streams_unbind_all(IpuState *s)
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
    uint32_t code = 0, node = 0, handle = 0;
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
    case IPUE_EUNWRITTEN:
        ipue_unwritten_status(s->engine, &handle);
        c->cqe.detail = handle;
        return IPU_CS_UNWRITTEN_INPUT;
    case IPUE_ELINK:                /* 1.5: the link, as fabric.h names it */
        ipue_link_status(s->engine, &c->cqe.detail);
        trace_ipu_group_run_end(s->fabric_index, IPU_CS_LINK_DOWN,
                                c->cqe.detail);
        return IPU_CS_LINK_DOWN;
    case IPUE_ESYNC:
        trace_ipu_group_run_end(s->fabric_index, IPU_CS_SYNC_TIMEOUT, 0);
        return IPU_CS_SYNC_TIMEOUT;
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

    ipu_link_group_leave(s);
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
static int ipu_sqe_check(IpuCmd *c)
{
    const struct ipu_sqe *e = &c->sqe;
    uint32_t uses = ipu_sqe_uses(e->opcode);
    const struct {
        bool set;
        uint32_t needs;     /* 0: never allowed */
        size_t at;
    } fields[] = {
        /* an opcode that uses flags may set only its own bits (1.3) */
        { e->flags & ~((uses & IPU_SQE_USES_FLAGS) ?
                       ipu_sqe_flags_valid(e->opcode) : 0), 0,
          offsetof(struct ipu_sqe, flags) },
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

int ipu_cmd_execute(IpuCmd *c)
{
    int cs;

    if (c->user && !ipu_user_opcode_ok(c->sqe.opcode)) {
        qemu_log_mask(LOG_GUEST_ERROR, "ipu: queue %u is a user queue: "
                      "command %u with opcode 0x%x refused\n", c->qi,
                      c->sqe.cid, c->sqe.opcode);
        c->cqe.detail = c->sqe.opcode;
        return IPU_CS_INVALID_OPCODE;
    }
    cs = ipu_sqe_check(c);
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
