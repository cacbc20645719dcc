/*
 * IPU-Link states in the in-process fabric (docs/hw-interface.md "Link
 * behaviour"): a link trains when both its cards are READY (DOWN ->
 * TRAINING, then UP IPU_LINK_TRAIN_US of emulated time later), goes DOWN
 * when either card resets or leaves, and both ends always show one state.
 * Every change notifies both ends' cards. Also the route queries the
 * link transport uses (any thread, under the fabric lock).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"

#include "ipu-fabric-int.h"
#include "trace.h"

const char *ipu_link_state_name(uint32_t state)
{
    static const char *const names[] = {
        [IPU_LINK_STATE_DOWN] = "down",
        [IPU_LINK_STATE_TRAINING] = "training",
        [IPU_LINK_STATE_UP] = "up",
        [IPU_LINK_STATE_FAILED] = "failed",
    };

    return state < ARRAY_SIZE(names) ? names[state] : "?";
}

IpuFabricLink *ipu_fabric_link_at(IpuFabric *f, uint32_t index,
                                  uint32_t port, IpuFabricEnd **end)
{
    IpuFabricLink *l;
    int li;

    if (!f->complete || index >= f->size || port >= IPU_LINK_PORTS_MAX) {
        return NULL;
    }
    li = f->members[index].link[port];
    if (li == IPU_FABRIC_NO_LINK) {
        return NULL;
    }
    l = &f->links[li];
    if (end) {
        bool second = l->end[1].index == index && l->end[1].port == port;

        *end = &l->end[second];
    }
    return l;
}

void ipu_fabric_link_set_state(IpuFabricLink *l, uint32_t state)
{
    IpuFabric *f = l->f;
    uint32_t old = l->state;

    if (old == state) {
        return;
    }
    qemu_mutex_lock(&f->lock);
    l->state = state;
    if (state == IPU_LINK_STATE_UP) {
        l->end[0].fom = l->end[1].fom = IPU_LINK_UP_FOM;
    }
    qemu_mutex_unlock(&f->lock);
    if (old == IPU_LINK_STATE_UP || state == IPU_LINK_STATE_UP) {
        ipu_fabric_transport_link(l, state == IPU_LINK_STATE_UP);
    }
    trace_ipu_link_state(l->end[0].index, l->end[0].port, l->end[1].index,
                         l->end[1].port, ipu_link_state_name(old),
                         ipu_link_state_name(state));
    for (int e = 0; e < 2; e++) {
        IpuFabricMember *m = &f->members[l->end[e].index];

        if (m->present && m->notify) {
            m->notify(m->opaque, l->end[e].port);
        }
    }
}

void ipu_fabric_link_try_train(IpuFabricLink *l)
{
    IpuFabricMember *a = &l->f->members[l->end[0].index];
    IpuFabricMember *b = &l->f->members[l->end[1].index];

    if (l->state != IPU_LINK_STATE_DOWN || l->held_down ||
        !a->present || !a->ready || !b->present || !b->ready) {
        return;
    }
    ipu_fabric_link_set_state(l, IPU_LINK_STATE_TRAINING);
    timer_mod(l->train, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
              (int64_t)IPU_LINK_TRAIN_US * SCALE_US);
}

static void ipu_fabric_train_done(void *opaque)
{
    IpuFabricLink *l = opaque;

    if (l->state == IPU_LINK_STATE_TRAINING) {
        ipu_fabric_link_set_state(l, IPU_LINK_STATE_UP);
    }
}

void ipu_fabric_links_init(IpuFabric *f)
{
    for (unsigned i = 0; i < f->nlinks; i++) {
        f->links[i].train = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                         ipu_fabric_train_done, &f->links[i]);
    }
}

void ipu_fabric_links_free(IpuFabric *f)
{
    for (unsigned i = 0; i < f->nlinks; i++) {
        if (f->links[i].train) {
            timer_free(f->links[i].train);
            f->links[i].train = NULL;
        }
    }
}

void ipu_fabric_member_reset(IpuFabric *f, uint32_t index, bool power_on)
{
    IpuFabricMember *m = &f->members[index];

    trace_ipu_fabric_member(index, power_on ? "power-on" : "reset");
    m->ready = false;
    for (unsigned p = 0; p < IPU_LINK_PORTS_MAX; p++) {
        IpuFabricEnd *end;
        IpuFabricLink *l = ipu_fabric_link_at(f, index, p, &end);

        if (!l) {
            continue;
        }
        timer_del(l->train);
        if (power_on) {
            qemu_mutex_lock(&f->lock);
            end->err_corr = end->err_uncorr = end->fom = 0;
            qemu_mutex_unlock(&f->lock);
        }
        ipu_fabric_link_set_state(l, IPU_LINK_STATE_DOWN);
    }
}

void ipu_fabric_member_ready(IpuFabric *f, uint32_t index)
{
    trace_ipu_fabric_member(index, "ready");
    f->members[index].ready = true;
    for (unsigned p = 0; p < IPU_LINK_PORTS_MAX; p++) {
        IpuFabricLink *l = ipu_fabric_link_at(f, index, p, NULL);

        if (l) {
            ipu_fabric_link_try_train(l);
        }
    }
}

void ipu_fabric_port(IpuFabric *f, uint32_t index, uint32_t port,
                     IpuLinkPort *out)
{
    IpuFabricEnd *end;
    IpuFabricLink *l = ipu_fabric_link_at(f, index, port, &end);
    IpuFabricEnd *peer;

    memset(out, 0, sizeof(*out));
    out->peer_index = out->peer_port = IPU_FABRIC_NONE;
    if (!l) {
        return;
    }
    peer = &l->end[end == &l->end[0]];
    qemu_mutex_lock(&f->lock);
    out->state = l->state;
    out->wired = true;
    out->peer_index = peer->index;
    out->peer_port = peer->port;
    if (l->state == IPU_LINK_STATE_UP) {
        out->gen = IPU_LINK_UP_GEN;
        out->lanes = IPU_LINK_UP_LANES;
    }
    out->fom = end->fom;
    out->err_corr = end->err_corr;
    out->err_uncorr = end->err_uncorr;
    if (f->members[peer->index].present) {
        memcpy(out->peer_serial, f->members[peer->index].serial,
               IPU_SERIAL_LEN);
    }
    qemu_mutex_unlock(&f->lock);
}

bool ipu_fabric_link_up(IpuFabric *f, uint32_t index, uint32_t port)
{
    IpuFabricLink *l = ipu_fabric_link_at(f, index, port, NULL);
    bool up;

    if (!l) {
        return false;
    }
    qemu_mutex_lock(&f->lock);
    up = l->state == IPU_LINK_STATE_UP;
    qemu_mutex_unlock(&f->lock);
    return up;
}

/*
 * The port of member @a for the hop to member @b: an UP link if the hop
 * has one, else its first link (*@up false); IPU_FABRIC_NONE if none.
 * Fabric lock held.
 */
static uint32_t ipu_fabric_hop_port(IpuFabric *f, uint32_t a, uint32_t b,
                                    bool *up)
{
    uint32_t first = IPU_FABRIC_NONE;

    for (uint32_t p = 0; p < IPU_LINK_PORTS_MAX; p++) {
        IpuFabricEnd *end;
        IpuFabricLink *l = ipu_fabric_link_at(f, a, p, &end);

        if (!l || l->end[end == &l->end[0]].index != b) {
            continue;
        }
        if (l->state == IPU_LINK_STATE_UP) {
            *up = true;
            return p;
        }
        if (first == IPU_FABRIC_NONE) {
            first = p;
        }
    }
    *up = false;
    return first;
}

/* Breadth-first search over the wiring: prev[] of each member reached. */
static bool ipu_fabric_bfs(IpuFabric *f, uint32_t from, uint32_t to,
                           uint32_t *prev)
{
    g_autofree uint32_t *queue = g_new(uint32_t, f->size);
    unsigned head = 0, tail = 0;

    for (uint32_t i = 0; i < f->size; i++) {
        prev[i] = IPU_FABRIC_NONE;
    }
    prev[from] = from;
    queue[tail++] = from;
    while (head < tail) {
        uint32_t a = queue[head++];

        if (a == to) {
            return true;
        }
        for (uint32_t p = 0; p < IPU_LINK_PORTS_MAX; p++) {
            IpuFabricEnd *end;
            IpuFabricLink *l = ipu_fabric_link_at(f, a, p, &end);
            uint32_t b;

            if (!l) {
                continue;
            }
            b = l->end[end == &l->end[0]].index;
            if (prev[b] == IPU_FABRIC_NONE) {
                prev[b] = a;
                queue[tail++] = b;
            }
        }
    }
    return false;
}

int ipu_fabric_route(IpuFabric *f, uint32_t from, uint32_t to,
                     IpuFabricHop *hops, unsigned max, uint32_t *down)
{
    g_autofree uint32_t *prev = NULL;
    g_autofree bool *up = NULL;
    unsigned count = 0, n;

    if (!f->complete || from >= f->size || to >= f->size) {
        return -ENOENT;
    }
    prev = g_new(uint32_t, f->size);
    if (!ipu_fabric_bfs(f, from, to, prev)) {
        return -ENOENT;
    }
    for (uint32_t m = to; m != from; m = prev[m]) {
        count++;
    }
    if (count > max) {
        return -E2BIG;
    }
    up = g_new0(bool, count + 1);
    n = count;
    qemu_mutex_lock(&f->lock);
    for (uint32_t m = to; m != from; m = prev[m]) {
        n--;
        hops[n].index = prev[m];
        hops[n].port = ipu_fabric_hop_port(f, prev[m], m, &up[n]);
    }
    qemu_mutex_unlock(&f->lock);
    for (unsigned i = 0; i < count; i++) {
        if (!up[i]) {
            if (down) {
                *down = hops[i].index << 8 | hops[i].port;
            }
            return -ENOLINK;
        }
    }
    return count;
}
