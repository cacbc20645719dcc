/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test graphs shared by the kselftests that run graphs on a card (through
 * the driver: ipu_cmd_test; or the queues directly: ipu_queue_test). Built
 * with libipudev's graph builder for the small "test" model.
 */
#ifndef IPU_GRAPHS_H
#define IPU_GRAPHS_H

#include <stddef.h>
#include <stdint.h>

/* The stream graph: S_ROUNDS transfers of S_ELEMS f32 each way. */
#define S_ELEMS		256
#define S_ROUNDS	3
#define S_RING		(S_ROUNDS * S_ELEMS * 4)

/*
 * S_ROUNDS rounds of: a transfer of stream 0 ("in") into x, y = x + x, y out
 * to stream 1 ("out"); x and y are not host-visible, only the streams move
 * data. Entry program 0. *buf is malloc'ed (free() it). 0, or -1 with the
 * builder's message on stderr.
 */
int ipu_test_stream_graph(void **buf, size_t *len);
/*
 * The record graph, with something in every counter of a run record: the
 * stream graph with x exposed (handle 0, write-only) and y = x + x going to
 * z on the last tile (an exchange; handle 1, read-only), then a sync, and z
 * out to stream 1. 0, or -1 as above.
 */
int ipu_test_record_graph(void **buf, size_t *len);

/*
 * The "double" graph for @model: "x" (handle 0, write-only) and y = x + x
 * (handle 1, read-only) of @n f32, program 0 "double"; program 1 "spin":
 * y = x + x repeated 2^30 times (ABORT ends it); with @big also "big"
 * (handle 2, read-write, @big bytes of f32). *buf is malloc'ed. 0, or -1
 * with the builder's message on stderr.
 */
int ipu_test_double_graph(uint32_t model, uint64_t n, uint64_t big,
			  void **buf, size_t *len);
/* Only the double graph's program 0 (no "spin": nothing runs for long). */
int ipu_test_double_only_graph(uint32_t model, uint64_t n, void **buf,
			       size_t *len);
#define H_X		0
#define H_Y		1
#define H_BIG		2
#define P_DOUBLE	0
#define P_SPIN		1

#endif /* IPU_GRAPHS_H */
