/* SPDX-License-Identifier: MIT */
/*
 * Input guards (docs/graph-format.md "Input guards"): the INPUT_GUARDS
 * section's checks at load, the written flag of each tensor, and the
 * refusal of a run that reads a host-writable tensor never written.
 * Kept apart from the loader and the interpreter: the rest of the engine
 * only calls the four functions below.
 */
#include "engine_internal.h"
#include "graph_container.h"

#include <stdlib.h>
#include <string.h>

/* (program, handle) of a before b: strictly ascending records */
static int guard_before(const struct ipu_graph_guard *a, const struct ipu_graph_guard *b)
{
	return a->program < b->program || (a->program == b->program && a->handle < b->handle);
}

static int guard_check(const struct ipue_graph *g, const struct ipu_graph_guard *r,
		       const struct ipu_graph_guard *prev, uint32_t i, struct ipue_load_error *err)
{
	const uint32_t sec = IPU_GRAPH_SEC_INPUT_GUARDS;

	if (r->program >= g->nentries)
		return ipue_load_errorf(err, sec, i, "program %u out of range (%u entry programs)",
					r->program, g->nentries);
	if (r->handle >= g->nhandles)
		return ipue_load_errorf(err, sec, i, "program %u: handle %u out of range (%u handles)",
					r->program, r->handle, g->nhandles);
	if (!(g->handles[r->handle].access & IPU_HANDLE_WRITE))
		return ipue_load_errorf(err, sec, i, "program %u: handle '%s' is not host-writable",
					r->program, g->handles[r->handle].name);
	if (!r->flags || (r->flags & ~(IPU_GRAPH_GUARD_READS | IPU_GRAPH_GUARD_WRITES)))
		return ipue_load_errorf(err, sec, i, "program %u, handle '%s': bad flags 0x%x",
					r->program, g->handles[r->handle].name, r->flags);
	if (prev && !guard_before(prev, r))
		return ipue_load_errorf(err, sec, i, "records not in ascending (program, handle) "
					"order: (%u, %u) after (%u, %u)", r->program, r->handle,
					prev->program, prev->handle);
	return 0;
}

/*
 * Read and check the INPUT_GUARDS records of container c into g (after the
 * programs and handles are loaded); allocate the written flags. 0,
 * IPUE_EFORMAT (err filled) or IPUE_ENOMEM.
 */
int ipue_guards_load(struct ipue_graph *g, const struct ipue_container *c,
		     struct ipue_load_error *err)
{
	const struct ipue_section *s = &c->s[IPU_GRAPH_SEC_INPUT_GUARDS];
	int rc;

	g->written = calloc(g->ntensors ? g->ntensors : 1, 1);
	g->guards = calloc(s->count ? s->count : 1, sizeof(*g->guards));
	g->guard_first = calloc((size_t)g->nentries + 1, sizeof(*g->guard_first));
	if (!g->written || !g->guards || !g->guard_first)
		return IPUE_ENOMEM;
	g->host_bytes += g->ntensors + (uint64_t)s->count * sizeof(*g->guards) +
			 ((uint64_t)g->nentries + 1) * sizeof(*g->guard_first);
	g->nguards = s->count;
	for (uint32_t i = 0; i < s->count; i++) {
		ipue_container_rec(c, IPU_GRAPH_SEC_INPUT_GUARDS, i, &g->guards[i]);
		rc = guard_check(g, &g->guards[i], i ? &g->guards[i - 1] : NULL, i, err);
		if (rc)
			return rc;
	}
	/* guard_first[k]: the first record of program k or later */
	for (uint32_t k = 0, i = 0; k <= g->nentries; k++) {
		while (i < g->nguards && g->guards[i].program < k)
			i++;
		g->guard_first[k] = i;
	}
	return 0;
}

/* tensor t was written (host write, stream copy, a program) */
/*
 * Host copies run on several threads at once (ipue_parallel()) and may mark
 * the same tensor: a relaxed atomic store, since readers see the flags only
 * after the threads have joined.
 */
void ipue_guards_mark(struct ipue_graph *g, uint32_t tensor)
{
	if (g->written)
		__atomic_store_n(&g->written[tensor], 1, __ATOMIC_RELAXED);
}

/*
 * Before running program k: IPUE_EUNWRITTEN (e->unwritten_handle set) when
 * it reads a guarded tensor never written, else 0.
 */
int ipue_guards_check(struct ipue_engine *e, uint32_t k)
{
	const struct ipue_graph *g = e->g;

	e->unwritten = 0;
	for (uint32_t i = g->guard_first[k]; i < g->guard_first[k + 1]; i++) {
		const struct ipu_graph_guard *r = &g->guards[i];

		if ((r->flags & IPU_GRAPH_GUARD_READS) && !g->written[g->handles[r->handle].tensor]) {
			e->unwritten = 1;
			e->unwritten_handle = r->handle;
			return IPUE_EUNWRITTEN;
		}
	}
	return 0;
}

/* after program k ran to the end: what it writes whole counts as written */
void ipue_guards_ran(struct ipue_graph *g, uint32_t k)
{
	for (uint32_t i = g->guard_first[k]; i < g->guard_first[k + 1]; i++)
		if (g->guards[i].flags & IPU_GRAPH_GUARD_WRITES)
			g->written[g->handles[g->guards[i].handle].tensor] = 1;
}

int ipue_unwritten_status(const struct ipue_engine *e, uint32_t *handle)
{
	if (!e || !e->unwritten)
		return 0;
	if (handle)
		*handle = e->unwritten_handle;
	return 1;
}
