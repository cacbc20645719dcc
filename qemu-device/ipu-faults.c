/*
 * Emulated IPU card: fault injection from QMP or HMP (docs/hw-interface.md
 * "Fault injection"). As for the fabric (ipu-fabric-qmp.c), these are QOM
 * properties of the card, driven with qom-set and qom-get on
 * /machine/peripheral/ID:
 *   inject-fault  (write) type=T[,ms=N]: arm T, or act at once (fatal,
 *                         heartbeat-stop); type=clear disarms every fault
 *   faults        (read)  what is armed, in effect, and counts injected
 * Armed faults fire on the card's paths through ipu_fault_take(), from
 * whatever thread gets there first (the worker, the DMA threads, the
 * vCPU); a refused request changes nothing and returns the error.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/cutils.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "ipu.h"
#include "trace.h"

#define IPU_READY_DELAY_MAX_MS  60000

/* The type names of the contract, by IpuFaultType. */
static const char *const ipu_fault_names[IPU_FAULT__MAX] = {
    [IPU_FAULT_HANG_JOB] = "hang-job",
    [IPU_FAULT_DMA_ERROR] = "dma-error",
    [IPU_FAULT_FATAL] = "fatal",
    [IPU_FAULT_DROP_IRQ] = "drop-irq",
    [IPU_FAULT_CORRUPT_CQE] = "corrupt-cqe",
    [IPU_FAULT_READY_DELAY] = "ready-delay",
    [IPU_FAULT_HEARTBEAT_STOP] = "heartbeat-stop",
};

/* A fault took effect: count it, trace it, print it. */
static void ipu_fault_report(IpuState *s, IpuFaultType t, const char *what)
{
    qatomic_inc(&s->faults.injected[t]);
    trace_ipu_fault_injected(s->card_index, ipu_fault_names[t], what);
    info_report("ipu: card %u: fault injected: %s%s%s", s->card_index,
                ipu_fault_names[t], *what ? ": " : "", what);
}

bool ipu_fault_take(IpuState *s, IpuFaultType t, const char *fmt, ...)
{
    uint32_t bit = 1u << t;
    g_autofree char *what = NULL;
    va_list ap;

    if (!(qatomic_read(&s->faults.armed) & bit) ||
        !(qatomic_fetch_and(&s->faults.armed, ~bit) & bit)) {
        return false;
    }
    va_start(ap, fmt);
    what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    ipu_fault_report(s, t, what);
    return true;
}

uint32_t ipu_fault_ready_delay(IpuState *s)
{
    uint32_t ms = s->faults.ready_delay_ms;

    if (!ipu_fault_take(s, IPU_FAULT_READY_DELAY, "READY %u ms late", ms)) {
        return 0;
    }
    s->faults.ready_delay_ms = 0;
    return ms;
}

void ipu_faults_reset(IpuState *s)
{
    s->faults.heartbeat_stopped = false;
}

/* A request: the type and, for ready-delay, the milliseconds. */
typedef struct IpuFaultRequest {
    int type;               /* IpuFaultType, or -1 for clear */
    bool has_ms;
    uint32_t ms;
} IpuFaultRequest;

static bool ipu_fault_parse_item(const char *item, IpuFaultRequest *r,
                                 bool *has_type, Error **errp)
{
    const char *eq = strchr(item, '=');
    unsigned int v;

    if (eq && !strncmp(item, "type=", 5) && !*has_type) {
        *has_type = true;
        if (!strcmp(eq + 1, "clear")) {
            r->type = -1;
            return true;
        }
        for (int t = 0; t < IPU_FAULT__MAX; t++) {
            if (!strcmp(eq + 1, ipu_fault_names[t])) {
                r->type = t;
                return true;
            }
        }
        error_setg(errp, "ipu: type=%s: hang-job, dma-error, fatal, "
                   "drop-irq, corrupt-cqe, ready-delay, heartbeat-stop or "
                   "clear", eq + 1);
        return false;
    }
    if (eq && !strncmp(item, "ms=", 3) && !r->has_ms) {
        if (qemu_strtoui(eq + 1, NULL, 10, &v) < 0) {
            error_setg(errp, "ipu: ms=%s is not a number", eq + 1);
            return false;
        }
        r->has_ms = true;
        r->ms = v;
        return true;
    }
    error_setg(errp, "ipu: '%s': expected type=T[,ms=N] (each once)", item);
    return false;
}

/* @val into @r; false with @errp set when it is not a valid request. */
static bool ipu_fault_parse(const char *val, IpuFaultRequest *r,
                            Error **errp)
{
    g_auto(GStrv) items = g_strsplit(val, ",", -1);
    bool has_type = false;

    for (char **it = items; *it; it++) {
        if (!ipu_fault_parse_item(*it, r, &has_type, errp)) {
            return false;
        }
    }
    if (!has_type) {
        error_setg(errp, "ipu: type=T is required");
        return false;
    }
    if (r->type == IPU_FAULT_READY_DELAY &&
        (!r->has_ms || r->ms < 1 || r->ms > IPU_READY_DELAY_MAX_MS)) {
        error_setg(errp, "ipu: ready-delay needs ms=N, 1 to %d",
                   IPU_READY_DELAY_MAX_MS);
        return false;
    }
    if (r->type != IPU_FAULT_READY_DELAY && r->has_ms) {
        error_setg(errp, "ipu: ms= is for ready-delay only");
        return false;
    }
    return true;
}

/* BQL: the faults that act at once. */
static bool ipu_fault_now(IpuState *s, IpuFaultType t, Error **errp)
{
    if (t == IPU_FAULT_HEARTBEAT_STOP) {
        if (s->faults.heartbeat_stopped) {
            error_setg(errp, "ipu: the heartbeat is stopped already");
            return false;
        }
        s->faults.heartbeat_stopped = true;
        ipu_fault_report(s, t, "until the next reset");
        return true;
    }
    if (s->state != IPU_CARD_STATE_READY) {
        error_setg(errp, "ipu: fatal needs a READY card (state %u)",
                   s->state);
        return false;
    }
    ipu_fault_report(s, t, "the card fails");
    ipu_health_fatal(s, IPU_FATAL_FIRMWARE);
    return true;
}

static void ipu_set_inject_fault(Object *obj, const char *val, Error **errp)
{
    IpuState *s = IPU_PCI(obj);
    IpuFaultRequest r = { 0 };
    uint32_t bit;
    bool ok;

    if (!ipu_fault_parse(val, &r, errp)) {
        trace_ipu_fault_refused(s->card_index, val);
        return;
    }
    if (r.type < 0) {
        qatomic_set(&s->faults.armed, 0);
        s->faults.ready_delay_ms = 0;
        trace_ipu_fault_cleared(s->card_index);
        return;
    }
    if (r.type == IPU_FAULT_FATAL || r.type == IPU_FAULT_HEARTBEAT_STOP) {
        ok = ipu_fault_now(s, r.type, errp);
    } else {
        bit = 1u << r.type;
        ok = !(qatomic_read(&s->faults.armed) & bit);
        if (!ok) {
            error_setg(errp, "ipu: %s is armed already",
                       ipu_fault_names[r.type]);
        } else {
            if (r.type == IPU_FAULT_READY_DELAY) {
                s->faults.ready_delay_ms = r.ms;
            }
            qatomic_or(&s->faults.armed, bit);
            trace_ipu_fault_armed(s->card_index, ipu_fault_names[r.type],
                                  r.ms);
        }
    }
    if (!ok) {
        trace_ipu_fault_refused(s->card_index, val);
    }
}

/* The members of `faults` after "armed" (a list, visited by the caller). */
static bool ipu_faults_fields(Visitor *v, IpuState *s, Error **errp)
{
    uint32_t delay = s->faults.ready_delay_ms;
    bool hung = qatomic_read(&s->faults.hung_job);
    bool fatal = qatomic_read(&s->failed);
    bool ok;

    if (!visit_type_uint32(v, "ready-delay-ms", &delay, errp) ||
        !visit_type_bool(v, "hung-job", &hung, errp) ||
        !visit_type_bool(v, "heartbeat-stopped",
                         &s->faults.heartbeat_stopped, errp) ||
        !visit_type_bool(v, "fatal", &fatal, errp) ||
        !visit_start_struct(v, "injected", NULL, 0, errp)) {
        return false;
    }
    ok = true;
    for (int t = 0; ok && t < IPU_FAULT__MAX; t++) {
        uint64_t n = qatomic_read(&s->faults.injected[t]);

        ok = visit_type_uint64(v, ipu_fault_names[t], &n, errp);
    }
    ok = ok && visit_check_struct(v, errp);
    visit_end_struct(v, NULL);
    return ok;
}

static void ipu_get_faults(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    IpuState *s = IPU_PCI(obj);
    uint32_t armed = qatomic_read(&s->faults.armed);
    bool ok = true;

    if (!visit_start_struct(v, name, NULL, 0, errp)) {
        return;
    }
    if (!visit_start_list(v, "armed", NULL, 0, errp)) {
        visit_end_struct(v, NULL);
        return;
    }
    for (int t = 0; ok && t < IPU_FAULT__MAX; t++) {
        char *n = (char *)ipu_fault_names[t];

        if (armed & (1u << t)) {
            ok = visit_type_str(v, NULL, &n, errp);
        }
    }
    visit_end_list(v, NULL);
    if (ok && ipu_faults_fields(v, s, errp)) {
        visit_check_struct(v, errp);
    }
    visit_end_struct(v, NULL);
}

void ipu_faults_class_init(ObjectClass *oc)
{
    object_class_property_add_str(oc, "inject-fault", NULL,
                                  ipu_set_inject_fault);
    object_class_property_add(oc, "faults", "IpuFaults", ipu_get_faults,
                              NULL, NULL, NULL);
}
