/*
 * Emulated IPU card: health and telemetry (docs/hw-interface.md "Health and
 * telemetry"). The firmware's tick, once a millisecond of emulated time
 * (QEMU_CLOCK_VIRTUAL), advances HEARTBEAT while the card is READY and
 * models utilisation, power and die temperature from whether a command is
 * in progress; PROGRESS, ACTIVE and the error counters are kept by the
 * worker and the DMA paths; a fatal error takes the card to FAILED.
 * The per-chip figures are the model's row in include/ipu/ipu_models.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "ipu.h"
#include "trace.h"

#define IPU_TICK_NS         ((int64_t)IPU_HEARTBEAT_PERIOD_US * SCALE_US)
/* Ticks the tick catches up after a stall of the emulated clock, at most. */
#define IPU_TICK_CATCH_UP   1000

void ipu_health_count(uint32_t *counter)
{
    uint32_t old = qatomic_read(counter);

    while (old != UINT32_MAX) {
        uint32_t seen = qatomic_cmpxchg(counter, old, old + 1);

        if (seen == old) {
            return;
        }
        old = seen;
    }
}

/* The idle figures: power-on, PCI function reset. */
static void ipu_telemetry_idle(IpuState *s)
{
    IpuHealth *h = &s->health;

    h->window_ticks = 0;
    h->busy_ticks = 0;
    h->util = 0;
    h->power_mw = s->model->power_idle_mw;
    h->temp_uc = (int64_t)s->model->temp_idle_mc * 1000;
}

/*
 * One millisecond of telemetry: a sample of activity; at a window's end,
 * UTIL and POWER; TEMP a step towards the steady temperature of POWER.
 */
static void ipu_telemetry_tick(IpuState *s)
{
    const IpuModel *m = s->model;
    IpuHealth *h = &s->health;
    int64_t span = m->power_max_mw - m->power_idle_mw;
    int64_t target;

    h->busy_ticks += qatomic_read(&s->worker_busy) ? 1 : 0;
    if (++h->window_ticks == IPU_UTIL_WINDOW_MS) {
        h->util = h->busy_ticks * 1000 / IPU_UTIL_WINDOW_MS;
        h->power_mw = m->power_idle_mw + span * h->util / 1000;
        h->window_ticks = 0;
        h->busy_ticks = 0;
        trace_ipu_health_window(h->util, h->power_mw,
                                (int32_t)(h->temp_uc / 1000));
    }
    target = (int64_t)m->temp_idle_mc * 1000 +
             ((int64_t)m->temp_load_mc - m->temp_idle_mc) * 1000 *
             ((int64_t)h->power_mw - m->power_idle_mw) / MAX(span, 1);
    h->temp_uc += (target - h->temp_uc) / MAX(m->thermal_tau_ms, 1);
}

static void ipu_health_tick_cb(void *opaque)
{
    IpuState *s = opaque;
    IpuHealth *h = &s->health;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    /* Every tick the emulated clock passed, within reason. */
    if (now - h->next_tick > IPU_TICK_CATCH_UP * IPU_TICK_NS) {
        h->next_tick = now - IPU_TICK_CATCH_UP * IPU_TICK_NS;
    }
    while (h->next_tick <= now) {
        if (s->state == IPU_CARD_STATE_READY &&
            !s->faults.heartbeat_stopped) {
            h->heartbeat++;
        }
        ipu_telemetry_tick(s);
        h->next_tick += IPU_TICK_NS;
    }
    timer_mod(h->tick, h->next_tick);
}

void ipu_health_realize(IpuState *s)
{
    IpuHealth *h = &s->health;

    h->tick = timer_new_ns(QEMU_CLOCK_VIRTUAL, ipu_health_tick_cb, s);
    ipu_telemetry_idle(s);
}

void ipu_health_unrealize(IpuState *s)
{
    timer_free(s->health.tick);
    s->health.tick = NULL;
}

void ipu_health_reset(IpuState *s, bool power_on)
{
    IpuHealth *h = &s->health;

    h->heartbeat = 0;
    h->health = 0;
    qemu_mutex_lock(&s->lock);
    qatomic_set(&s->failed, false);
    qemu_mutex_unlock(&s->lock);
    if (power_on) {
        qatomic_set(&h->err_dma, 0);
        qatomic_set(&h->err_ring, 0);
        h->err_fatal = 0;
        ipu_telemetry_idle(s);
    }
    /* The tick runs in every state: the sensors are physical. */
    if (!timer_pending(h->tick)) {
        h->next_tick = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + IPU_TICK_NS;
        timer_mod(h->tick, h->next_tick);
    }
}

void ipu_health_ready(IpuState *s)
{
    IpuHealth *h = &s->health;

    /* HEARTBEAT counts whole milliseconds from this moment. */
    h->next_tick = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + IPU_TICK_NS;
    timer_mod(h->tick, h->next_tick);
}

void ipu_health_fatal(IpuState *s, uint32_t cause)
{
    IpuHealth *h = &s->health;

    trace_ipu_health_fatal(cause, s->state);
    qemu_mutex_lock(&s->lock);
    qatomic_set(&s->failed, true);
    if (s->worker_busy) {
        ipu_cancel_locked(s);   /* dropped: nothing is posted once failed */
    }
    qemu_cond_broadcast(&s->cond);
    qemu_mutex_unlock(&s->lock);
    s->state = IPU_CARD_STATE_FAILED;
    h->health = IPU_HEALTH_FATAL | (cause << 8);
    ipu_health_count(&h->err_fatal);
    ipu_raise(s, IPU_IRQ_ERROR);
}

bool ipu_health_reg(hwaddr addr)
{
    return addr >= IPU_REG_HEARTBEAT && addr <= IPU_REG_ERR_FATAL;
}

/* PROGRESS: the card's own count and its engine's program steps. */
static uint32_t ipu_progress_read(IpuState *s)
{
    uint32_t v;

    qemu_mutex_lock(&s->lock);  /* the engine pointer */
    v = qatomic_read(&s->health.progress) + (uint32_t)ipue_progress(s->engine);
    qemu_mutex_unlock(&s->lock);
    return v;
}

uint32_t ipu_health_reg_read(IpuState *s, hwaddr addr)
{
    IpuHealth *h = &s->health;

    switch (addr) {
    case IPU_REG_HEARTBEAT:
        return h->heartbeat;
    case IPU_REG_PROGRESS:
        return ipu_progress_read(s);
    case IPU_REG_ACTIVE:
        return qatomic_read(&h->active);
    case IPU_REG_HEALTH:
        return h->health;
    case IPU_REG_TEMP:
        return (uint32_t)(h->temp_uc / 1000);
    case IPU_REG_POWER:
        return h->power_mw;
    case IPU_REG_UTIL:
        return h->util;
    case IPU_REG_ERR_DMA:
        return qatomic_read(&h->err_dma);
    case IPU_REG_ERR_RING:
        return qatomic_read(&h->err_ring);
    case IPU_REG_ERR_FATAL:
        return h->err_fatal;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "ipu: read of undefined register 0x%" HWADDR_PRIx "\n",
                      addr);
        return 0;
    }
}
