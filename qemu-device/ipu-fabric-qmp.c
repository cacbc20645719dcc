/*
 * Run-time control of the fabric's links from QMP or HMP (docs/
 * hw-interface.md "QMP and HMP control"): QEMU 7.2 cannot take QMP
 * commands from outside its tree without regenerating its QAPI schema, so
 * these are properties of the fabric device, driven with qom-set and
 * qom-get on /machine/peripheral/ID:
 *   link          (write) index=I,port=P,state=down|up
 *   inject-error  (write) index=I,port=P,type=correctable|uncorrectable
 *                         [,count=N]
 *   links         (read)  one entry per wired port of every member
 * A refused request changes nothing and returns the error to the monitor.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qapi/error.h"
#include "qapi/visitor.h"

#include "ipu-fabric-int.h"
#include "trace.h"

#define IPU_INJECT_MAX  1000000

/* A request: an end (index, port), a word (state or type) and a count. */
typedef struct IpuLinkRequest {
    uint32_t index;
    uint32_t port;
    char *word;
    uint32_t count;
} IpuLinkRequest;

static bool ipu_req_number(const char *key, const char *val, uint32_t *out,
                           Error **errp)
{
    unsigned int v;

    if (qemu_strtoui(val, NULL, 10, &v) < 0) {
        error_setg(errp, "ipu-fabric: %s=%s is not a number", key, val);
        return false;
    }
    *out = v;
    return true;
}

/* One key=value of @val into @r; @word_key names the word's key. */
static bool ipu_req_item(const char *item, const char *word_key,
                         bool has_count, IpuLinkRequest *r, unsigned *seen,
                         Error **errp)
{
    const char *eq = strchr(item, '=');
    g_autofree char *key = eq ? g_strndup(item, eq - item) : NULL;
    const char *keys[] = { "index", "port", word_key, "count" };
    int k = -1;

    for (int i = 0; key && i < (has_count ? 4 : 3); i++) {
        if (!strcmp(key, keys[i])) {
            k = i;
        }
    }
    if (k < 0 || (*seen & (1u << k))) {
        error_setg(errp, "ipu-fabric: '%s': expected index=I,port=P,%s=...%s"
                   " (each once)", item, word_key,
                   has_count ? "[,count=N]" : "");
        return false;
    }
    *seen |= 1u << k;
    switch (k) {
    case 0:
        return ipu_req_number(key, eq + 1, &r->index, errp);
    case 1:
        return ipu_req_number(key, eq + 1, &r->port, errp);
    case 2:
        r->word = g_strdup(eq + 1);
        return true;
    default:
        return ipu_req_number(key, eq + 1, &r->count, errp);
    }
}

/*
 * Parses @val into @r (r->word to be freed by the caller) and finds its
 * link: NULL with @errp set when malformed or not wired.
 */
static IpuFabricLink *ipu_req_parse(IpuFabric *f, const char *val,
                                    const char *word_key, bool has_count,
                                    IpuLinkRequest *r, IpuFabricEnd **end,
                                    Error **errp)
{
    g_auto(GStrv) items = g_strsplit(val, ",", -1);
    unsigned seen = 0;
    IpuFabricLink *l;

    r->count = 1;
    for (char **it = items; *it; it++) {
        if (!ipu_req_item(*it, word_key, has_count, r, &seen, errp)) {
            return NULL;
        }
    }
    if ((seen & 7) != 7) {
        error_setg(errp, "ipu-fabric: index, port and %s are required",
                   word_key);
        return NULL;
    }
    l = ipu_fabric_link_at(f, r->index, r->port, end);
    if (!l) {
        error_setg(errp, "ipu-fabric: member %u port %u is not wired "
                   "(the fabric has %u members)", r->index, r->port,
                   f->size);
    }
    return l;
}

static void ipu_fabric_set_link(Object *obj, const char *val, Error **errp)
{
    IpuFabric *f = IPU_FABRIC(obj);
    IpuLinkRequest r = { 0 };
    IpuFabricLink *l = ipu_req_parse(f, val, "state", false, &r, NULL, errp);
    g_autofree char *word = r.word;

    if (!l) {
        trace_ipu_fabric_refused("link", val);
        return;
    }
    if (!strcmp(word, "down")) {
        trace_ipu_fabric_link_set(r.index, r.port, word);
        l->held_down = true;
        timer_del(l->train);
        ipu_fabric_link_set_state(l, IPU_LINK_STATE_DOWN);
    } else if (!strcmp(word, "up")) {
        trace_ipu_fabric_link_set(r.index, r.port, word);
        l->held_down = false;
        if (l->state == IPU_LINK_STATE_FAILED) {
            ipu_fabric_link_set_state(l, IPU_LINK_STATE_DOWN);
        }
        ipu_fabric_link_try_train(l);
    } else {
        trace_ipu_fabric_refused("link", val);
        error_setg(errp, "ipu-fabric: state=%s: down or up", word);
    }
}

static uint32_t ipu_sat_add(uint32_t a, uint32_t b)
{
    return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

static void ipu_fabric_inject_error(Object *obj, const char *val,
                                    Error **errp)
{
    IpuFabric *f = IPU_FABRIC(obj);
    IpuLinkRequest r = { 0 };
    IpuFabricEnd *end = NULL;
    IpuFabricLink *l = ipu_req_parse(f, val, "type", true, &r, &end, errp);
    g_autofree char *word = r.word;
    bool uncorr = word && !strcmp(word, "uncorrectable");

    if (l && !uncorr && strcmp(word, "correctable")) {
        error_setg(errp, "ipu-fabric: type=%s: correctable or uncorrectable",
                   word);
        l = NULL;
    } else if (l && (r.count < 1 || r.count > IPU_INJECT_MAX)) {
        error_setg(errp, "ipu-fabric: count=%u: 1 to %d", r.count,
                   IPU_INJECT_MAX);
        l = NULL;
    } else if (l && l->state != IPU_LINK_STATE_UP) {
        error_setg(errp, "ipu-fabric: the link at member %u port %u is %s, "
                   "not up", r.index, r.port, ipu_link_state_name(l->state));
        l = NULL;
    }
    if (!l) {
        trace_ipu_fabric_refused("inject-error", val);
        return;
    }
    trace_ipu_fabric_inject_error(r.index, r.port, word, r.count);
    qemu_mutex_lock(&f->lock);
    if (uncorr) {
        end->err_uncorr = ipu_sat_add(end->err_uncorr, r.count);
    } else {
        end->err_corr = ipu_sat_add(end->err_corr, r.count);
    }
    qemu_mutex_unlock(&f->lock);
    if (uncorr) {
        ipu_fabric_link_set_state(l, IPU_LINK_STATE_FAILED);
    }
}

/*
 * One struct of a list: @fields visits its members (false with @err set
 * on failure). False with @errp set when the visitor failed.
 */
static bool ipu_visit_struct(Visitor *v,
                             bool (*fields)(Visitor *v, void *opaque,
                                            Error **err),
                             void *opaque, Error **errp)
{
    Error *err = NULL;

    if (!visit_start_struct(v, NULL, NULL, 0, &err)) {
        error_propagate(errp, err);
        return false;
    }
    if (fields(v, opaque, &err)) {
        visit_check_struct(v, &err);
    }
    visit_end_struct(v, NULL);
    if (err) {
        error_propagate(errp, err);
        return false;
    }
    return true;
}

/* An end of a link, for `links`. */
typedef struct IpuEndView {
    IpuFabricLink *l;
    int e;
} IpuEndView;

static bool ipu_fabric_end_fields(Visitor *v, void *opaque, Error **err)
{
    IpuEndView *ev = opaque;
    IpuFabricLink *l = ev->l;
    IpuFabricEnd *end = &l->end[ev->e], *peer = &l->end[!ev->e];
    char *state = (char *)ipu_link_state_name(l->state);
    bool up = l->state == IPU_LINK_STATE_UP;
    uint32_t gen = up ? IPU_LINK_UP_GEN : 0;
    uint32_t lanes = up ? IPU_LINK_UP_LANES : 0;

    return visit_type_uint32(v, "index", &end->index, err) &&
           visit_type_uint32(v, "port", &end->port, err) &&
           visit_type_uint32(v, "peer-index", &peer->index, err) &&
           visit_type_uint32(v, "peer-port", &peer->port, err) &&
           visit_type_str(v, "state", &state, err) &&
           visit_type_bool(v, "held-down", &l->held_down, err) &&
           visit_type_uint32(v, "gen", &gen, err) &&
           visit_type_uint32(v, "lanes", &lanes, err) &&
           visit_type_uint32(v, "fom", &end->fom, err) &&
           visit_type_uint32(v, "err-corr", &end->err_corr, err) &&
           visit_type_uint32(v, "err-uncorr", &end->err_uncorr, err);
}

static void ipu_fabric_get_links(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    IpuFabric *f = IPU_FABRIC(obj);
    bool ok = true;

    if (!visit_start_list(v, name, NULL, 0, errp)) {
        return;
    }
    for (uint32_t i = 0; ok && f->complete && i < f->size; i++) {
        for (uint32_t p = 0; ok && p < IPU_LINK_PORTS_MAX; p++) {
            IpuFabricEnd *end;
            IpuFabricLink *l = ipu_fabric_link_at(f, i, p, &end);

            if (l) {
                IpuEndView ev = { .l = l, .e = end != &l->end[0] };

                ok = ipu_visit_struct(v, ipu_fabric_end_fields, &ev, errp);
            }
        }
    }
    visit_end_list(v, NULL);
}

/* A route, for `routes`. */
typedef struct IpuRouteView {
    IpuFabric *f;
    uint32_t from;
    uint32_t to;
} IpuRouteView;

/*
 * ipu_fabric_route() from @rv->from to @rv->to, as it answers (hops "I.P"
 * when it found a route, the link that is down otherwise).
 */
static bool ipu_fabric_route_fields(Visitor *v, void *opaque, Error **err)
{
    IpuRouteView *rv = opaque;
    IpuFabricHop hops[IPU_FABRIC_MAX_SIZE];
    uint32_t down = IPU_FABRIC_NONE;
    int n = ipu_fabric_route(rv->f, rv->from, rv->to, hops, ARRAY_SIZE(hops),
                             &down);
    char *result = n >= 0 ? (char *)"ok" :
                   n == -ENOLINK ? (char *)"link-down" : (char *)"no-route";
    bool ok;

    if (!visit_type_uint32(v, "from", &rv->from, err) ||
        !visit_type_uint32(v, "to", &rv->to, err) ||
        !visit_type_str(v, "result", &result, err) ||
        !visit_type_uint32(v, "down", &down, err) ||
        !visit_start_list(v, "hops", NULL, 0, err)) {
        return false;
    }
    ok = true;
    for (int i = 0; ok && i < n; i++) {
        char *hop = g_strdup_printf("%u.%u", hops[i].index, hops[i].port);

        ok = visit_type_str(v, NULL, &hop, err);
        g_free(hop);
    }
    visit_end_list(v, NULL);
    return ok;
}

/*
 * `routes`: what ipu_fabric_route() answers for every ordered pair of
 * members (the link transport's query), for tests.
 */
static void ipu_fabric_get_routes(Object *obj, Visitor *v, const char *name,
                                  void *opaque, Error **errp)
{
    IpuFabric *f = IPU_FABRIC(obj);
    bool ok = true;

    if (!visit_start_list(v, name, NULL, 0, errp)) {
        return;
    }
    for (uint32_t a = 0; ok && f->complete && a < f->size; a++) {
        for (uint32_t b = 0; ok && b < f->size; b++) {
            IpuRouteView rv = { .f = f, .from = a, .to = b };

            if (a != b) {
                ok = ipu_visit_struct(v, ipu_fabric_route_fields, &rv, errp);
            }
        }
    }
    visit_end_list(v, NULL);
}

void ipu_fabric_qmp_class_init(ObjectClass *oc)
{
    object_class_property_add_str(oc, "link", NULL, ipu_fabric_set_link);
    object_class_property_add_str(oc, "inject-error", NULL,
                                  ipu_fabric_inject_error);
    object_class_property_add(oc, "links", "IpuFabricLinks",
                              ipu_fabric_get_links, NULL, NULL, NULL);
    object_class_property_add(oc, "routes", "IpuFabricRoutes",
                              ipu_fabric_get_routes, NULL, NULL, NULL);
}
