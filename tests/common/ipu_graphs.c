// SPDX-License-Identifier: GPL-2.0
/* See ipu_graphs.h. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ipu/ipu_models.h"
#include "ipudev.h"
#include "ipu_graphs.h"

/*
 * The stream graph; with @record the record graph (ipu_graphs.h): x also
 * exposed, and z on the last tile that y goes to (an exchange, then a sync)
 * and the "out" stream takes.
 */
static int stream_graph(bool record, void **buf, size_t *len)
{
	uint32_t shape[1] = { S_ELEMS };
	struct ipu_error err;
	struct ipu_graph *g;
	int x, y, z = -1, body, loop, sin, sout, n;

	memset(&err, 0, sizeof(err));
	if (ipu_graph_create(IPU_MODEL_TEST, &g, &err))
		return -1;
	x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, &err);
	if (x < 0 || ipu_graph_map_linear(g, x, 8, &err) < 0)
		goto fail;
	if (record) {
		if (ipu_graph_expose(g, x, NULL, IPU_HANDLE_WRITE, &err) != 0)
			goto fail;
		z = ipu_graph_add_tensor(g, "z", IPU_DTYPE_F32, 1, shape, &err);
		if (z < 0 ||
		    ipu_graph_map_tile(g, z, ipu_graph_tiles(g) - 1, &err) < 0 ||
		    ipu_graph_expose(g, z, NULL, IPU_HANDLE_READ, &err) != 1)
			goto fail;
	}
	sin = ipu_graph_add_stream(g, "in", IPU_STREAM_HOST_TO_DEVICE,
				   IPU_DTYPE_F32, S_ELEMS, 2, &err);
	sout = ipu_graph_add_stream(g, "out", IPU_STREAM_DEVICE_TO_HOST,
				    IPU_DTYPE_F32, S_ELEMS, 2, &err);
	body = ipu_prog_sequence(g, &err);
	if (sin != 0 || sout != 1 || body < 0)
		goto fail;
	n = ipu_prog_stream_copy(g, sin, x, &err);
	if (n < 0 || ipu_prog_append(g, body, n, &err) < 0)
		goto fail;
	y = ipu_binary(g, body, IPU_OP_ADD, x, x, "y", &err);
	if (y < 0)
		goto fail;
	if (record) {
		n = ipu_prog_copy(g, ipu_slice_all(g, y), ipu_slice_all(g, z),
				  &err);
		if (n < 0 || ipu_prog_append(g, body, n, &err) < 0)
			goto fail;
		n = ipu_prog_sync(g, &err);
		if (n < 0 || ipu_prog_append(g, body, n, &err) < 0)
			goto fail;
		y = z;
	}
	n = ipu_prog_stream_copy(g, sout, y, &err);
	if (n < 0 || ipu_prog_append(g, body, n, &err) < 0)
		goto fail;
	loop = ipu_prog_repeat(g, S_ROUNDS, body, &err);
	/* tests of transport, not of guards: unwritten inputs read zeros */
	if (loop < 0 || ipu_graph_add_program(g, "rounds", loop, &err) < 0 ||
	    ipu_graph_set_zero_init(g, 1, &err) ||
	    ipu_graph_write(g, buf, len, &err))
		goto fail;
	ipu_graph_free(g);
	return 0;
fail:
	fprintf(stderr, "# %s graph: %s\n", record ? "record" : "stream",
		err.msg);
	ipu_graph_free(g);
	return -1;
}

int ipu_test_stream_graph(void **buf, size_t *len)
{
	return stream_graph(false, buf, len);
}

int ipu_test_record_graph(void **buf, size_t *len)
{
	return stream_graph(true, buf, len);
}

/* The double graph; without @with_spin only its program 0, "double". */
static int double_graph(uint32_t model, uint64_t n, bool with_spin,
			uint64_t big, void **buf, size_t *len)
{
	uint32_t shape[1] = { (uint32_t)n };
	struct ipu_error err;
	struct ipu_graph *g;
	int x, y, seq, body, rep, spin, b;

	memset(&err, 0, sizeof(err));
	if (ipu_graph_create(model, &g, &err))
		return -1;
	x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, &err);
	if (x < 0 || ipu_graph_map_linear(g, x, 16, &err) ||
	    ipu_graph_expose(g, x, NULL, IPU_HANDLE_WRITE, &err) < 0)
		goto fail;
	seq = ipu_prog_sequence(g, &err);
	if (seq < 0)
		goto fail;
	y = ipu_binary(g, seq, IPU_OP_ADD, x, x, "y", &err);
	if (y < 0 || ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, &err) < 0 ||
	    ipu_graph_add_program(g, "double", seq, &err) < 0)
		goto fail;
	if (with_spin) {
		body = ipu_prog_sequence(g, &err);
		if (body < 0 ||
		    ipu_binary(g, body, IPU_OP_ADD, x, x, "y2", &err) < 0)
			goto fail;
		rep = ipu_prog_repeat(g, 1u << 30, body, &err);
		spin = rep < 0 ? -1 :
		       ipu_graph_add_program(g, "spin", rep, &err);
		if (spin < 0)
			goto fail;
	}
	if (big) {
		shape[0] = big / 4;
		b = ipu_graph_add_tensor(g, "big", IPU_DTYPE_F32, 1, shape, &err);
		if (b < 0 || ipu_graph_map_linear(g, b, 1024, &err) ||
		    ipu_graph_expose(g, b, NULL, IPU_HANDLE_RW, &err) < 0)
			goto fail;
	}
	/* the driver's and card's tests run it without writing x: zeros */
	if (ipu_graph_set_zero_init(g, 1, &err) ||
	    ipu_graph_write(g, buf, len, &err))
		goto fail;
	ipu_graph_free(g);
	return 0;
fail:
	fprintf(stderr, "# graph: %s\n", err.msg);
	ipu_graph_free(g);
	return -1;
}

int ipu_test_double_graph(uint32_t model, uint64_t n, uint64_t big,
			  void **buf, size_t *len)
{
	return double_graph(model, n, true, big, buf, len);
}

int ipu_test_double_only_graph(uint32_t model, uint64_t n, void **buf,
			       size_t *len)
{
	return double_graph(model, n, false, 0, buf, len);
}
