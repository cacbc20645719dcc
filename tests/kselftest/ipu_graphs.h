/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test graphs shared by the kselftests that run graphs on a card (through
 * the driver: ipu_cmd_test; or the queues directly: ipu_queue_test). Built
 * with libipudev's graph builder for the small "test" model.
 */
#ifndef IPU_GRAPHS_H
#define IPU_GRAPHS_H

#include <stddef.h>

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

#endif /* IPU_GRAPHS_H */
