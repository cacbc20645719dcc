/* SPDX-License-Identifier: MIT */
/*
 * In-process link transport (fabric_local.h): wiring and link states of
 * the IPUs of one process, and the groups whose engines run multi-IPU
 * graphs together through the ops of fabric.h.
 *
 * Runs of a group are matched by their order: each member counts its runs
 * (its epoch, bumped by run_begin). Ending a run (a member's failure, a
 * cancel, a link going down) marks every epoch up to the run's as ended,
 * so a member still in it, or arriving late, leaves at its next barrier or
 * poll, and no member waits for one that has left. One mutex guards
 * everything but the epochs and the ended mark, which poll reads lock-free.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L	/* rwlocks, clock_gettime */
#endif
#include "fabric_local.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ipu/graph_format.h"

enum topo { TOPO_NONE, TOPO_RING, TOPO_M2000, TOPO_POD16 };

struct port {
	int wired, up;
	uint32_t peer, peer_port;
};

struct group;

/* an IPU's place in its group: the ctx of its ops */
struct endpoint {
	struct ipue_fabric_local *f;
	struct group *g;
	struct ipue_engine *e;
	uint32_t ipu, member;
	atomic_uint_fast64_t epoch;	/* runs begun */
};

struct group {
	uint64_t mask;
	uint32_t n;			/* members */
	uint32_t joined;
	uint32_t ipu[IPU_GRAPH_MAX_IPUS]; /* by member */
	struct endpoint *ep[IPU_GRAPH_MAX_IPUS];
	pthread_cond_t cv;
	/* the barrier in progress */
	uint32_t arrived;
	uint64_t bar_epoch, max, result, gen;
	/* runs up to this epoch have ended, with this status */
	atomic_uint_fast64_t ended;
	int status;
	uint32_t link;
};

struct ipue_fabric_local {
	pthread_mutex_t lock;
	/* writes into members (read side) against leaving (write side) */
	pthread_rwlock_t xfer;
	uint32_t sync_timeout_ms;	/* 0: none */
	enum topo topo;
	uint32_t ipus, ports;
	struct port *port;		/* [ipus * ports] */
	struct endpoint *ep[IPUE_FABRIC_MAX_IPUS]; /* NULL: in no group */
};

static struct port *port_at(const struct ipue_fabric_local *f, uint32_t ipu, uint32_t p)
{
	return &f->port[(size_t)ipu * f->ports + p];
}

static int wire_locked(struct ipue_fabric_local *f, uint32_t a, uint32_t pa, uint32_t b, uint32_t pb)
{
	struct port *x, *y;

	if (a >= f->ipus || b >= f->ipus || pa >= f->ports || pb >= f->ports)
		return IPUE_ERANGE;
	x = port_at(f, a, pa);
	y = port_at(f, b, pb);
	if (a == b || x->wired || y->wired)
		return IPUE_EINVAL;
	*x = (struct port){ 1, 1, b, pb };
	*y = (struct port){ 1, 1, a, pa };
	return 0;
}

/* the wiring of fabric_local.h's topologies */
static int wire_topology(struct ipue_fabric_local *f)
{
	uint32_t n = f->ipus;
	int rc = 0;

	if (f->topo == TOPO_RING) {
		for (uint32_t i = 0; i < n && !rc; i++)
			rc = wire_locked(f, i, 0, (i + 1) % n, 1);
		return rc;
	}
	if (f->topo == TOPO_NONE)
		return 0;
	for (uint32_t k = 0; k + 1 < n && !rc; k += 2) {
		rc = wire_locked(f, k, 0, k + 1, 0);	/* the rung: two links */
		if (!rc)
			rc = wire_locked(f, k, 1, k + 1, 1);
		if (!rc && k + 2 < n)			/* rails to the next pair */
			rc = wire_locked(f, k, 2, k + 2, 3);
		if (!rc && k + 3 < n)
			rc = wire_locked(f, k + 1, 2, k + 3, 3);
	}
	if (!rc && f->topo == TOPO_POD16) {		/* the rails close into rings */
		rc = wire_locked(f, n - 2, 2, 0, 3);
		if (!rc)
			rc = wire_locked(f, n - 1, 2, 1, 3);
	}
	return rc;
}

int ipue_fabric_local_create(const char *topology, uint32_t ipus, uint32_t ports,
			     struct ipue_fabric_local **out)
{
	static const struct { const char *name; enum topo t; uint32_t ipus, ports; } known[] = {
		{ "none", TOPO_NONE, 0, 0 }, { "ring", TOPO_RING, 0, 2 },
		{ "m2000", TOPO_M2000, 4, 4 }, { "pod16", TOPO_POD16, 16, 4 },
	};
	struct ipue_fabric_local *f;
	unsigned k;

	if (!out)
		return IPUE_EINVAL;
	*out = NULL;
	for (k = 0; topology && k < sizeof(known) / sizeof(known[0]); k++)
		if (!strcmp(topology, known[k].name))
			break;
	if (!topology || k == sizeof(known) / sizeof(known[0]) || !ipus ||
	    ipus > IPUE_FABRIC_MAX_IPUS || ports > IPUE_FABRIC_MAX_PORTS ||
	    (known[k].ipus && ipus != known[k].ipus) || ports < known[k].ports ||
	    (known[k].t == TOPO_RING && ipus < 2))
		return IPUE_EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return IPUE_ENOMEM;
	f->port = calloc((size_t)ipus * (ports ? ports : 1), sizeof(*f->port));
	if (!f->port || pthread_mutex_init(&f->lock, NULL)) {
		free(f->port);
		free(f);
		return IPUE_ENOMEM;
	}
	if (pthread_rwlock_init(&f->xfer, NULL)) {
		pthread_mutex_destroy(&f->lock);
		free(f->port);
		free(f);
		return IPUE_ENOMEM;
	}
	f->topo = known[k].t;
	f->ipus = ipus;
	f->ports = ports;
	if (wire_topology(f)) {	/* cannot fail for the sizes checked above */
		ipue_fabric_local_destroy(f);
		return IPUE_EINVAL;
	}
	*out = f;
	return 0;
}

void ipue_fabric_local_destroy(struct ipue_fabric_local *f)
{
	if (!f)
		return;
	for (uint32_t i = 0; i < f->ipus; i++)
		ipue_fabric_local_leave(f, i);
	pthread_rwlock_destroy(&f->xfer);
	pthread_mutex_destroy(&f->lock);
	free(f->port);
	free(f);
}

int ipue_fabric_local_group_of(struct ipue_fabric_local *f, uint32_t ipu, uint64_t *mask)
{
	int in;

	if (ipu >= f->ipus)
		return IPUE_ERANGE;
	pthread_mutex_lock(&f->lock);
	in = f->ep[ipu] != NULL;
	if (in && mask)
		*mask = f->ep[ipu]->g->mask;
	pthread_mutex_unlock(&f->lock);
	return in;
}

void ipue_fabric_local_set_sync_timeout(struct ipue_fabric_local *f, uint32_t ms)
{
	pthread_mutex_lock(&f->lock);
	f->sync_timeout_ms = ms;
	pthread_mutex_unlock(&f->lock);
}

/* the barrier's deadline, @ms from now (CLOCK_MONOTONIC: the cv's clock) */
static struct timespec deadline_in(uint32_t ms)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

uint32_t ipue_fabric_local_ipus(const struct ipue_fabric_local *f)
{
	return f->ipus;
}

uint32_t ipue_fabric_local_ports(const struct ipue_fabric_local *f)
{
	return f->ports;
}

int ipue_fabric_local_wire(struct ipue_fabric_local *f, uint32_t a, uint32_t pa,
			   uint32_t b, uint32_t pb)
{
	int rc;

	pthread_mutex_lock(&f->lock);
	rc = wire_locked(f, a, pa, b, pb);
	pthread_mutex_unlock(&f->lock);
	return rc;
}

int ipue_fabric_local_peer(const struct ipue_fabric_local *f, uint32_t ipu, uint32_t port,
			   uint32_t *peer, uint32_t *peer_port)
{
	const struct port *p;

	if (ipu >= f->ipus || port >= f->ports)
		return IPUE_ERANGE;
	p = port_at(f, ipu, port);	/* wiring is fixed once made: no lock */
	if (!p->wired)
		return 0;
	if (peer)
		*peer = p->peer;
	if (peer_port)
		*peer_port = p->peer_port;
	return 1;
}

/* end group g's current run (and any before it) with status, link; f->lock held */
static void end_run_locked(struct group *g, uint64_t epoch, int status, uint32_t link)
{
	if (epoch <= atomic_load(&g->ended) && atomic_load(&g->ended))
		return;		/* the first status wins */
	g->status = status;
	g->link = link;
	atomic_store(&g->ended, epoch);
	if (g->bar_epoch <= epoch) {	/* its arrivals wait for nothing now */
		g->arrived = 0;
		g->max = 0;
	}
	pthread_cond_broadcast(&g->cv);
}

/* the epoch of g's latest run */
static uint64_t group_epoch(struct group *g)
{
	uint64_t max = 0;

	for (uint32_t k = 0; k < g->n; k++)
		if (g->ep[k] && atomic_load(&g->ep[k]->epoch) > max)
			max = atomic_load(&g->ep[k]->epoch);
	return max;
}

int ipue_fabric_local_set_link(struct ipue_fabric_local *f, uint32_t ipu, uint32_t port, int up)
{
	struct port *p, *q;

	if (ipu >= f->ipus || port >= f->ports)
		return IPUE_ERANGE;
	pthread_mutex_lock(&f->lock);
	p = port_at(f, ipu, port);
	if (!p->wired) {
		pthread_mutex_unlock(&f->lock);
		return IPUE_EINVAL;
	}
	q = port_at(f, p->peer, p->peer_port);
	p->up = q->up = up != 0;
	for (int end = 0; !up && end < 2; end++) {
		struct endpoint *ep = f->ep[end ? p->peer : ipu];

		if (ep)
			end_run_locked(ep->g, group_epoch(ep->g), IPUE_ELINK, IPUE_LINK_ID(ipu, port));
	}
	pthread_mutex_unlock(&f->lock);
	return 0;
}

int ipue_fabric_local_link_up(const struct ipue_fabric_local *f, uint32_t ipu, uint32_t port)
{
	struct ipue_fabric_local *mf = (struct ipue_fabric_local *)f;
	int up;

	if (ipu >= f->ipus || port >= f->ports)
		return IPUE_ERANGE;
	pthread_mutex_lock(&mf->lock);
	up = port_at(f, ipu, port)->wired && port_at(f, ipu, port)->up;
	pthread_mutex_unlock(&mf->lock);
	return up;
}

int ipue_fabric_local_ring(const struct ipue_fabric_local *f, uint32_t *order)
{
	uint32_t n = f->ipus, k = 0;

	if (f->topo != TOPO_M2000 && f->topo != TOPO_POD16) {
		for (uint32_t i = 0; i < n; i++)
			order[i] = i;
		return (int)n;
	}
	for (uint32_t i = 0; i < n; i += 2)	/* up one rail */
		order[k++] = i;
	for (uint32_t i = n; i >= 2; i -= 2)	/* down the other */
		order[k++] = i - 1;
	return (int)n;
}

/* ---------------------------------------------------------------- the ops */

static void op_run_begin(void *ctx)
{
	struct endpoint *ep = ctx;

	atomic_fetch_add(&ep->epoch, 1);
}

/* has the run of ep ended? f->lock held or not: the mark only grows */
static int run_ended(const struct endpoint *ep)
{
	return atomic_load(&ep->g->ended) >= atomic_load(&ep->epoch);
}

static int op_barrier(void *ctx, uint64_t *val, uint32_t *link)
{
	struct endpoint *ep = ctx;
	struct group *g = ep->g;
	struct ipue_fabric_local *f = ep->f;
	uint64_t gen;
	int rc = 0;

	pthread_mutex_lock(&f->lock);
	const uint32_t tmo = f->sync_timeout_ms;
	const struct timespec until = deadline_in(tmo);

	if (!run_ended(ep)) {
		if (!g->arrived)
			g->bar_epoch = atomic_load(&ep->epoch);
		if (*val > g->max)
			g->max = *val;
		gen = g->gen;
		if (++g->arrived == g->n) {
			g->result = g->max;
			g->arrived = 0;
			g->max = 0;
			g->gen++;
			pthread_cond_broadcast(&g->cv);
		}
		while (g->gen == gen && !run_ended(ep)) {
			if (!tmo) {
				pthread_cond_wait(&g->cv, &f->lock);
			} else if (pthread_cond_timedwait(&g->cv, &f->lock, &until) == ETIMEDOUT &&
				   g->gen == gen) {
				/* a member never came: nobody waits for it any longer */
				end_run_locked(g, atomic_load(&ep->epoch), IPUE_ESYNC, IPUE_LINK_NONE);
			}
		}
		if (g->gen != gen) {
			/* it completed (an end after that shows at the next poll or barrier) */
			*val = g->result;	/* the next one needs this member: stable */
			pthread_mutex_unlock(&f->lock);
			return 0;
		}
	}
	if (run_ended(ep)) {
		rc = g->status;
		*link = g->link;
	}
	pthread_mutex_unlock(&f->lock);
	return rc;
}

static int op_write(void *ctx, uint32_t to, uint32_t tile, uint32_t offset,
		    const void *src, uint64_t bytes)
{
	struct endpoint *ep = ctx;
	struct ipue_fabric_local *f = ep->f;
	int rc = IPUE_EINVAL;

	/* a member may leave (its card reset) meanwhile: leave() waits for us */
	pthread_rwlock_rdlock(&f->xfer);
	if (run_ended(ep))	/* a member left or reloads: its graph is not ours */
		rc = IPUE_ECANCELED;
	else if (to < ep->g->n && ep->g->ep[to])
		rc = ipue_fabric_deliver(ep->g->ep[to]->e, tile, offset, src, bytes);
	pthread_rwlock_unlock(&f->xfer);
	return rc;
}

/* runs of writes to one member, each delivered as one batch, under one read lock */
static int op_write_batch(void *ctx, const struct ipue_fabric_write *w, uint32_t n)
{
	struct endpoint *ep = ctx;
	struct ipue_fabric_local *f = ep->f;
	int rc = 0;

	pthread_rwlock_rdlock(&f->xfer);	/* as op_write */
	if (run_ended(ep))
		rc = IPUE_ECANCELED;
	for (uint32_t i = 0, j; i < n && !rc; i = j) {
		uint32_t to = w[i].to;

		for (j = i + 1; j < n && w[j].to == to; j++)
			;
		rc = to < ep->g->n && ep->g->ep[to] ?
		     ipue_fabric_deliver_batch(ep->g->ep[to]->e, w + i, j - i) : IPUE_EINVAL;
	}
	pthread_rwlock_unlock(&f->xfer);
	return rc;
}

/* wired links between IPUs a and b; the first (by a's port) not up into *down */
static uint32_t links_between(const struct ipue_fabric_local *f, uint32_t a, uint32_t b,
			      uint32_t *down)
{
	uint32_t n = 0;

	*down = IPUE_LINK_NONE;
	for (uint32_t p = 0; p < f->ports; p++) {
		const struct port *x = port_at(f, a, p);

		if (!x->wired || x->peer != b)
			continue;
		n++;
		if (!x->up && *down == IPUE_LINK_NONE)
			*down = IPUE_LINK_ID(a, p);
	}
	return n;
}

/* shortest path over the group's members (lowest member first on ties) */
static int op_route(void *ctx, uint32_t from, uint32_t to, struct ipue_hop *hops, uint32_t max)
{
	struct endpoint *ep = ctx;
	struct group *g = ep->g;
	struct ipue_fabric_local *f = ep->f;
	uint32_t prev[IPU_GRAPH_MAX_IPUS], queue[IPU_GRAPH_MAX_IPUS], qh = 0, qt = 0, down, n = 0;

	if (from >= g->n || to >= g->n)
		return IPUE_ERANGE;
	if (from == to)
		return IPUE_EINVAL;
	pthread_mutex_lock(&f->lock);
	for (uint32_t k = 0; k < g->n; k++)
		prev[k] = IPU_GRAPH_NONE;
	prev[from] = from;
	queue[qt++] = from;
	while (qh < qt && prev[to] == IPU_GRAPH_NONE) {
		uint32_t u = queue[qh++];

		for (uint32_t v = 0; v < g->n; v++)
			if (prev[v] == IPU_GRAPH_NONE && links_between(f, g->ipu[u], g->ipu[v], &down)) {
				prev[v] = u;
				queue[qt++] = v;
			}
	}
	for (uint32_t v = to; prev[to] != IPU_GRAPH_NONE && v != from; v = prev[v])
		n++;
	if (prev[to] == IPU_GRAPH_NONE || n > max) {
		pthread_mutex_unlock(&f->lock);
		return IPUE_ERANGE;
	}
	for (uint32_t v = to, i = n; v != from; v = prev[v]) {
		struct ipue_hop *h = &hops[--i];

		h->from = prev[v];
		h->to = v;
		h->links = links_between(f, g->ipu[prev[v]], g->ipu[v], &h->down);
	}
	pthread_mutex_unlock(&f->lock);
	return (int)n;
}

static void op_cancel(void *ctx, int status, uint32_t link)
{
	struct endpoint *ep = ctx;

	pthread_mutex_lock(&ep->f->lock);
	end_run_locked(ep->g, atomic_load(&ep->epoch), status, link);
	pthread_mutex_unlock(&ep->f->lock);
}

static int op_poll(void *ctx, uint32_t *link)
{
	struct endpoint *ep = ctx;
	int rc;

	if (!run_ended(ep))
		return 0;
	pthread_mutex_lock(&ep->f->lock);
	rc = ep->g->status;
	*link = ep->g->link;
	pthread_mutex_unlock(&ep->f->lock);
	return rc;
}

static const struct ipue_fabric_ops local_ops = {
	.run_begin = op_run_begin,
	.barrier = op_barrier,
	.write = op_write,
	.write_batch = op_write_batch,
	.route = op_route,
	.cancel = op_cancel,
	.poll = op_poll,
};

/* ------------------------------------------------------------- groups */

/* an empty group whose cv waits on CLOCK_MONOTONIC (barrier deadlines), or NULL */
static struct group *group_new(void)
{
	struct group *g = calloc(1, sizeof(*g));
	pthread_condattr_t ca;
	int bad;

	if (!g || pthread_condattr_init(&ca)) {
		free(g);
		return NULL;
	}
	bad = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
	      pthread_cond_init(&g->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (bad) {
		free(g);
		return NULL;
	}
	return g;
}

/* the group of mask, found through a joined member, or a new one; f->lock held */
static int group_for(struct ipue_fabric_local *f, uint64_t mask, struct group **out)
{
	struct group *g = NULL;
	uint32_t n = 0;

	for (uint32_t i = 0; i < f->ipus; i++) {
		if (!(mask >> i & 1))
			continue;
		if (f->ep[i] && f->ep[i]->g->mask != mask)
			return IPUE_EINVAL;	/* overlaps another group */
		if (f->ep[i])
			g = f->ep[i]->g;
		n++;
	}
	if (!ipu_graph_ipus_ok(n))
		return IPUE_EINVAL;
	if (!g) {
		g = group_new();
		if (!g)
			return IPUE_ENOMEM;
		g->mask = mask;
		for (uint32_t i = 0; i < f->ipus; i++)
			if (mask >> i & 1)
				g->ipu[g->n++] = i;
	}
	*out = g;
	return 0;
}

/* undo a join's registration; f->lock held. Returns the group if it is now empty. */
static struct group *unregister_locked(struct ipue_fabric_local *f, struct endpoint *ep)
{
	struct group *g = ep->g;

	f->ep[ep->ipu] = NULL;
	g->ep[ep->member] = NULL;
	return --g->joined ? NULL : g;
}

static void group_free(struct group *g)
{
	if (!g)
		return;
	pthread_cond_destroy(&g->cv);
	free(g);
}

int ipue_fabric_local_join(struct ipue_fabric_local *f, uint64_t mask, uint32_t ipu,
			   struct ipue_engine *e)
{
	struct endpoint *ep;
	struct ipue_fabric fab;
	struct group *g;
	int rc;

	if (!f || !e || ipu >= f->ipus || (f->ipus < 64 && (mask >> f->ipus)))
		return IPUE_ERANGE;
	if (!(mask >> ipu & 1))
		return IPUE_EINVAL;
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return IPUE_ENOMEM;
	pthread_mutex_lock(&f->lock);
	rc = f->ep[ipu] ? IPUE_EINVAL : group_for(f, mask, &g);
	if (!rc) {
		ep->f = f;
		ep->g = g;
		ep->e = e;
		ep->ipu = ipu;
		for (ep->member = 0; g->ipu[ep->member] != ipu; ep->member++)
			;
		atomic_init(&ep->epoch, group_epoch(g));	/* joins at the group's run count */
		g->ep[ep->member] = ep;
		g->joined++;
		f->ep[ipu] = ep;
	}
	pthread_mutex_unlock(&f->lock);
	if (rc) {
		free(ep);
		return rc;
	}
	/* outside f->lock: ipue_cancel() holds the engine's lock, then takes f->lock */
	fab = (struct ipue_fabric){ &local_ops, ep, ep->member, g->n };
	rc = ipue_set_fabric(e, &fab);
	if (rc) {
		pthread_mutex_lock(&f->lock);
		g = unregister_locked(f, ep);
		pthread_mutex_unlock(&f->lock);
		group_free(g);
		free(ep);
	}
	return rc;
}

void ipue_fabric_local_leave(struct ipue_fabric_local *f, uint32_t ipu)
{
	struct endpoint *ep;
	struct group *g;

	if (!f || ipu >= f->ipus)
		return;
	pthread_rwlock_wrlock(&f->xfer);	/* no write into it is in progress */
	pthread_mutex_lock(&f->lock);
	ep = f->ep[ipu];
	if (ep)		/* the others, were they running, wait for it no longer */
		end_run_locked(ep->g, group_epoch(ep->g), IPUE_ESYNC, IPUE_LINK_NONE);
	g = ep ? unregister_locked(f, ep) : NULL;
	pthread_mutex_unlock(&f->lock);
	pthread_rwlock_unlock(&f->xfer);
	if (!ep)
		return;
	(void)ipue_set_fabric(ep->e, NULL);
	free(ep);
	group_free(g);
}
