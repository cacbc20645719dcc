/* SPDX-License-Identifier: MIT */
/*
 * Multi-IPU graphs (docs/graph-format.md "Multi-IPU binaries"): the ipus
 * section, routes and link costs at load, and at run the parts that cross
 * the link transport (fabric.h): the needed links, external syncs,
 * cross-IPU exchanges (push), condition values and the final barrier that
 * makes every member's cycles equal. A single-IPU graph never gets here.
 */
#include "engine_internal.h"
#include "graph_container.h"

#include <stdlib.h>
#include <string.h>

#define PAIRS	(IPU_GRAPH_MAX_IPUS * IPU_GRAPH_MAX_IPUS)

/* a directed hop's traffic in one exchange, and the routes the loader asked for */
struct ipue_link_acc {
	uint64_t bytes[PAIRS];		/* by hop (from * 16 + to) */
	uint32_t links[PAIRS];
	uint32_t hops;			/* most hops of one copy */
	uint8_t nroute[PAIRS];		/* 0: not asked yet */
	struct ipue_hop route[PAIRS][IPUE_ROUTE_MAX_HOPS];
};

static int fab_fail(struct ipue_engine *e, int rc, uint32_t link)
{
	if (rc == IPUE_ELINK) {
		e->linked = 1;
		e->link = link;
	}
	return rc;
}

/* ------------------------------------------------------------------ load */

/*
 * Read the ipus section: none (or 1 IPU) leaves g a single-IPU graph; else
 * g->multi, g->tiles = ipus x tiles per IPU. The engine must be member of
 * a group of exactly that many (ipue_set_fabric()).
 */
int ipue_multi_load(struct ipue_engine *e, struct ipue_graph *g, const struct ipue_container *c,
		    struct ipue_load_error *err)
{
	const struct ipue_section *s = &c->s[IPU_GRAPH_SEC_IPUS];
	const unsigned S = IPU_GRAPH_SEC_IPUS;
	struct ipu_graph_ipus r;

	g->tiles = e->m.tiles;
	if (!s->count)
		return 0;
	if (s->count != 1)
		return ipue_load_errorf(err, S, 1, "%u records, a binary has one", s->count);
	ipue_container_rec(c, S, 0, &r);
	if (!ipu_graph_ipus_ok(r.ipus))
		return ipue_load_errorf(err, S, 0, "%u IPUs: a binary spans 1, 2, 4, 8 or 16", r.ipus);
	if (r.tiles_per_ipu != e->m.tiles)
		return ipue_load_errorf(err, S, 0, "%u tiles per IPU, the model has %u",
					r.tiles_per_ipu, e->m.tiles);
	if (r.flags)
		return ipue_load_errorf(err, S, 0, "unknown flags 0x%x", r.flags);
	if (r.ipus == 1)
		return 0;
	if (!e->fab.ops)
		return ipue_load_errorf(err, S, 0, "graph for %u IPUs, engine is in no group", r.ipus);
	if (e->fab.members != r.ipus)
		return ipue_load_errorf(err, S, 0, "graph for %u IPUs, engine is in a group of %u",
					r.ipus, e->fab.members);
	g->multi = calloc(1, sizeof(*g->multi));
	if (!g->multi)
		return IPUE_ENOMEM;
	g->host_bytes += sizeof(*g->multi);
	g->multi->ipus = r.ipus;
	g->multi->tiles_per_ipu = r.tiles_per_ipu;
	g->multi->member = e->fab.member;
	g->tiles = r.ipus * r.tiles_per_ipu;
	return 0;
}

void ipue_multi_free(struct ipue_graph *g)
{
	if (!g || !g->multi)
		return;
	free(g->multi->xpairs);
	free(g->multi->epairs);
	free(g->multi->eknown);
	free(g->multi->seen);
	free(g->multi);
	g->multi = NULL;
}

struct ipue_link_acc *ipue_multi_acc_new(void)
{
	return calloc(1, sizeof(struct ipue_link_acc));
}

/*
 * Account a copy of @bytes from IPU @a to IPU @b (a != b) of exchange @xi:
 * its route's hops carry the bytes. IPUE_ERANGE when the fabric has no
 * route (the caller names the copy), IPUE_ENOMEM.
 */
int ipue_multi_copy(struct ipue_engine *e, struct ipue_graph *g, struct ipue_link_acc *acc,
		    uint32_t xi, uint32_t a, uint32_t b, uint64_t bytes)
{
	struct ipue_multi *m = g->multi;
	uint32_t p = a * IPU_GRAPH_MAX_IPUS + b;
	int n = acc->nroute[p];

	if (!m->xpairs) {
		m->xpairs = calloc(g->nex ? g->nex : 1, sizeof(*m->xpairs));
		if (!m->xpairs)
			return IPUE_ENOMEM;
		g->host_bytes += (uint64_t)g->nex * sizeof(*m->xpairs);
	}
	m->xpairs[xi][p / 64] |= 1ull << (p % 64);
	if (!n) {
		n = e->fab.ops->route(e->fab.ctx, a, b, acc->route[p], IPUE_ROUTE_MAX_HOPS);
		if (n < 1 || n > IPUE_ROUTE_MAX_HOPS)
			return IPUE_ERANGE;
		acc->nroute[p] = (uint8_t)n;
	}
	if ((uint32_t)n > acc->hops)
		acc->hops = (uint32_t)n;
	for (int h = 0; h < n; h++) {
		const struct ipue_hop *hp = &acc->route[p][h];
		uint32_t k = (hp->from % IPU_GRAPH_MAX_IPUS) * IPU_GRAPH_MAX_IPUS +
			     hp->to % IPU_GRAPH_MAX_IPUS;

		acc->bytes[k] += bytes;
		acc->links[k] = hp->links ? hp->links : 1;
	}
	return 0;
}

/*
 * The link part of an exchange's cycles (docs/cost-model.md): hop latency
 * times the longest route, plus the busiest hop direction. Clears the
 * exchange's traffic (not the routes) for the next one.
 */
uint64_t ipue_multi_link_cycles(const struct ipue_engine *e, struct ipue_link_acc *acc)
{
	uint64_t max = 0;

	for (uint32_t k = 0; k < PAIRS; k++) {
		if (acc->bytes[k]) {
			uint64_t c = ipue_cost_link(&e->m, acc->bytes[k], acc->links[k]);

			if (c > max)
				max = c;
		}
		acc->bytes[k] = 0;
	}
	max += (uint64_t)acc->hops * IPUE_COST_LINK_HOP_CYCLES;
	acc->hops = 0;
	return max;
}

/* ------------------------------------------------------------------- run */

/* IPU pairs the exchanges reachable from node @id join, into @set */
static void node_pairs(const struct ipue_graph *g, uint32_t id, uint64_t set[4])
{
	const struct ipu_graph_prog_node *n;

	if (id == IPU_GRAPH_NONE || g->multi->seen[id])
		return;
	g->multi->seen[id] = 1;
	n = &g->nodes[id];
	switch (n->kind) {
	case IPU_PROG_SEQUENCE:
		for (uint32_t k = 0; k < n->b; k++)
			node_pairs(g, g->children[n->a + k], set);
		return;
	case IPU_PROG_COPY:
		if (g->multi->xpairs)
			for (unsigned w = 0; w < 4; w++)
				set[w] |= g->multi->xpairs[n->a][w];
		return;
	case IPU_PROG_REPEAT:
		node_pairs(g, n->b, set);
		return;
	case IPU_PROG_REPEAT_WHILE_TRUE:
	case IPU_PROG_IF:
		node_pairs(g, n->b, set);
		node_pairs(g, n->c, set);
		return;
	default:
		return;
	}
}

/* the pairs of entry @program, walked once and kept */
static const uint64_t *entry_pairs(struct ipue_graph *g, uint32_t program)
{
	struct ipue_multi *m = g->multi;

	if (!m->epairs) {
		m->epairs = calloc(g->nentries, sizeof(*m->epairs));
		m->eknown = calloc(g->nentries, 1);
		m->seen = calloc(g->nnodes ? g->nnodes : 1, 1);
		if (!m->epairs || !m->eknown || !m->seen) {
			free(m->epairs);
			free(m->eknown);
			free(m->seen);
			m->epairs = NULL;
			m->eknown = m->seen = NULL;
			return NULL;
		}
	}
	if (!m->eknown[program]) {
		memset(m->seen, 0, g->nnodes);
		node_pairs(g, g->entries[program], m->epairs[program]);
		m->eknown[program] = 1;
	}
	return m->epairs[program];
}

/*
 * A multi-IPU run begins: tell the fabric, then check that every link the
 * program needs is up (else IPUE_ELINK before anything runs, on every
 * member: the first failing one ends the others').
 */
int ipue_multi_run_begin(struct ipue_engine *e, uint32_t program)
{
	struct ipue_graph *g = e->g;
	const uint64_t *set;
	struct ipue_hop hops[IPUE_ROUTE_MAX_HOPS];

	e->fab.ops->run_begin(e->fab.ctx);
	set = entry_pairs(g, program);
	if (!set)
		return IPUE_ENOMEM;
	for (uint32_t p = 0; p < PAIRS; p++) {
		int n;

		if (!(set[p / 64] >> (p % 64) & 1))
			continue;
		n = e->fab.ops->route(e->fab.ctx, p / IPU_GRAPH_MAX_IPUS, p % IPU_GRAPH_MAX_IPUS,
				      hops, IPUE_ROUTE_MAX_HOPS);
		if (n < 1)
			return IPUE_ERANGE;	/* the wiring changed since the load */
		for (int h = 0; h < n; h++)
			if (hops[h].down != IPUE_LINK_NONE)
				return fab_fail(e, IPUE_ELINK, hops[h].down);
	}
	return 0;
}

/* a barrier of the group; its status ends the run */
static int barrier(struct ipue_engine *e, uint64_t *val)
{
	uint32_t link = IPUE_LINK_NONE;
	int rc = e->fab.ops->barrier(e->fab.ctx, val, &link);

	return rc ? fab_fail(e, rc, link) : 0;
}

/* an external sync (Sync a = 1 of a multi-IPU graph): every member waits for all */
int ipue_multi_sync(struct ipue_engine *e, struct ipue_run_stats *st)
{
	uint64_t v = 0;

	st->cycles_sync += IPUE_COST_EXT_SYNC_CYCLES;
	st->syncs++;
	return barrier(e, &v);
}

/*
 * A push refused because the run had ended meanwhile (IPUE_ECANCELED) ends
 * this member's run with the run's own cause, as a barrier or poll would
 * report it (a link down names the link), not with the refusal's echo.
 */
static int push_failed(struct ipue_engine *e, int rc)
{
	uint32_t link = IPUE_LINK_NONE;
	int why;

	if (rc == IPUE_ECANCELED && (why = e->fab.ops->poll(e->fab.ctx, &link)))
		return fab_fail(e, why, link);
	return rc;
}

/*
 * A cross-IPU exchange: an external sync (every member finished the phase
 * before), this member's copies (its own and pushes into the others'
 * tiles), then a barrier: all copies read the state from before it.
 */
int ipue_multi_exchange(struct ipue_engine *e, const struct ipue_rt_exchange *x,
			struct ipue_run_stats *st)
{
	uint64_t v = 0;
	int rc = ipue_multi_sync(e, st);

	if (rc)
		return rc;
	ipue_exchange_run(e, x);
	if (e->fab.ops->write_batch && x->npush) {
		rc = e->fab.ops->write_batch(e->fab.ctx, x->push, x->npush);
		if (rc)
			return push_failed(e, rc);
	}
	for (uint32_t i = 0; !e->fab.ops->write_batch && i < x->npush; i++) {
		const struct ipue_rt_push *p = &x->push[i];

		rc = e->fab.ops->write(e->fab.ctx, p->to, p->tile, p->offset, p->src, p->bytes);
		if (rc)
			return push_failed(e, rc);
	}
	return barrier(e, &v);
}

/*
 * A condition's value: the member holding the scalar reads it, every
 * member takes it through the barrier (so all branch alike).
 */
int ipue_multi_cond(struct ipue_engine *e, const struct ipue_rt_tensor *t, int *value,
		    struct ipue_run_stats *st)
{
	const uint8_t *p = t->iv[0].ptr;
	uint64_t v = 0;
	int rc;

	for (uint64_t i = 0; p && i < t->bytes && !v; i++)
		v = p[i] != 0;
	st->cycles_sync += IPUE_COST_EXT_SYNC_CYCLES;
	st->syncs++;
	rc = barrier(e, &v);
	*value = v != 0;
	return rc;
}

/* 0 while the group's run goes on (checked at every program step) */
int ipue_multi_poll(struct ipue_engine *e)
{
	uint32_t link = IPUE_LINK_NONE;
	int rc = e->fab.ops->poll(e->fab.ctx, &link);

	return rc ? fab_fail(e, rc, link) : 0;
}

/*
 * The run ends: a failed member ends the others' runs; a successful one
 * meets them at a last barrier whose maximum of the cycles every member
 * reports (a member below it waited: sync).
 */
int ipue_multi_run_end(struct ipue_engine *e, int rc, struct ipue_run_stats *st)
{
	uint64_t v;

	if (rc) {
		e->fab.ops->cancel(e->fab.ctx, rc, e->linked ? e->link : IPUE_LINK_NONE);
		return rc;
	}
	v = st->cycles_compute + st->cycles_sync + st->cycles_exchange + st->cycles_stream;
	rc = barrier(e, &v);
	if (!rc)
		st->cycles_sync += v - (st->cycles_compute + st->cycles_sync +
					st->cycles_exchange + st->cycles_stream);
	return rc;
}
