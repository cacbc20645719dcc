/* SPDX-License-Identifier: MIT */
/*
 * libipudev, graph builder: finding a graph's input guards (guards.c,
 * docs/graph-format.md "Input guards") from the records the writer made.
 */
#ifndef IPUDEV_GUARDS_H
#define IPUDEV_GUARDS_H

#include <stddef.h>
#include <stdint.h>

#include "ipu/graph_format.h"

/* deepest program nesting the walk follows (the engine's limit) */
#define IPU__GUARD_MAX_DEPTH 64

/* a graph's records as the writer laid them out (Sequence a: into children) */
struct ipu__guard_graph {
	const struct ipu_graph_tensor *t;
	const struct ipu_graph_interval *iv;
	const struct ipu_graph_vertex *v;
	const struct ipu_graph_field *f;
	const struct ipu_graph_compute_set *cs;
	const uint32_t *csv;
	const struct ipu_graph_exchange *ex;
	const struct ipu_graph_copy *cp;
	const struct ipu_graph_prog_node *nodes;
	const uint32_t *children;
	const struct ipu_graph_entry *ent;
	uint32_t nent;
	const struct ipu_graph_host_handle *h;
	uint32_t nh;
	const struct ipu_graph_init *init;
	uint32_t ninit;
};

/*
 * ipu__guards_find() - the INPUT_GUARDS records of @gr, in the format's
 * order, into *@out (@n of them; the caller frees *@out; NULL when none).
 * 0, -ENOMEM, or -ELOOP for programs nested deeper than the limit.
 */
int ipu__guards_find(const struct ipu__guard_graph *gr, struct ipu_graph_guard **out, size_t *n);

#endif /* IPUDEV_GUARDS_H */
