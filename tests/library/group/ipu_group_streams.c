// SPDX-License-Identifier: MIT
/*
 * Streams on a group of cards (VM, an M2000; run by
 * tests/library/group/run.sh after ipu_exec_group): a 4-IPU graph built
 * with the builder streams a batch into a tensor on IPU 2 and another into
 * IPU 0, copies them across the links to IPUs 3 and 1, scales them there
 * and streams both results out, over rings of 3 transfers. Device 6 (the
 * four cards, the group backend: STREAM_BIND on every member, the member
 * holding the tensor moves it) must give the model device's 4 IPUs'
 * output rings byte for byte, and the expected values; a ring that is not
 * a whole number of transfers and a buffer of another device are refused
 * on both. KTAP on stdout; without an M2000 the card tests skip.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipudev.h"
#include "ipu/ipu_models.h"

#define IPUS		4
#define N		96		/* f32 per transfer */
#define DEPTH		3		/* transfers in each ring (and runs of the body) */
#define GROUP_ID	6		/* all four cards of an M2000 */
#define NTESTS		7

#include "ipu_ktap.h"

/* stream @name in (dir h2d) to or out of tensor @t, appended to @seq */
static int stream(struct ipu_graph *g, int seq, const char *name, unsigned dir, int t,
		  struct ipu_error *e)
{
	int s = ipu_graph_add_stream(g, name, dir, IPU_DTYPE_F32, N, 2, e), c;

	if (s < 0)
		return s;
	c = ipu_prog_stream_copy(g, s, t, e);
	return c < 0 ? c : ipu_prog_append(g, seq, c, e);
}

/* one path: stream @in into IPU @from, copy to IPU @to, y *= @k... , stream @out out */
static int path(struct ipu_graph *g, int seq, const char *in, const char *out,
		unsigned from, unsigned to, float k, struct ipu_error *e)
{
	char na[32], nb[32];
	int a, b, r;

	snprintf(na, sizeof(na), "%s_ipu%u", in, from);
	snprintf(nb, sizeof(nb), "%s_ipu%u", out, to);
	a = ipu_graph_add_tensor(g, na, IPU_DTYPE_F32, 1, (uint32_t[]){ N }, e);
	b = ipu_graph_add_tensor(g, nb, IPU_DTYPE_F32, 1, (uint32_t[]){ N }, e);
	if (a < 0 || b < 0)
		return -1;
	if (ipu_graph_map_ipu(g, a, from, 8, e) < 0 || ipu_graph_map_ipu(g, b, to, 8, e) < 0 ||
	    stream(g, seq, in, IPU_STREAM_HOST_TO_DEVICE, a, e) < 0)
		return -1;
	r = ipu_prog_copy(g, ipu_slice_all(g, a), ipu_slice_all(g, b), e);
	if (r < 0 || ipu_prog_append(g, seq, r, e) < 0 ||
	    ipu_scaled_add(g, seq, b, b, k - 1.0f, e) < 0)	/* b += (k - 1) b */
		return -1;
	return stream(g, seq, out, IPU_STREAM_DEVICE_TO_HOST, b, e);
}

static void *graph(size_t *len, struct ipu_error *e)
{
	struct ipu_graph *g;
	void *bin = NULL;
	int seq;

	if (ipu_graph_create_multi(IPU_MODEL_TEST, IPUS, &g, e))
		return NULL;
	seq = ipu_prog_sequence(g, e);
	if (seq < 0 || path(g, seq, "in2", "out3", 2, 3, 2.0f, e) ||
	    path(g, seq, "in0", "out1", 0, 1, 4.0f, e) ||
	    ipu_graph_add_program(g, "main", seq, e) < 0 || ipu_graph_write(g, &bin, len, e))
		bin = NULL;
	ipu_graph_free(g);
	return bin;
}

struct rings {
	struct ipu_buffer *in, *out;	/* [in2, in0] and [out3, out1], DEPTH transfers each */
};

/*
 * Load @bin on @dev, bind the four streams to two buffers, run "main"
 * DEPTH times, copy the output rings to @out [2][DEPTH][N].
 */
static int run(struct ipu_device *dev, const void *bin, size_t len, const float *in,
	       float *out, struct ipu_error *e)
{
	const size_t ring = DEPTH * N * sizeof(float);
	struct rings b = { NULL, NULL };
	int r = ipu_load(dev, bin, len, e);

	if (!r)
		r = ipu_buffer_alloc(dev, 2 * ring, &b.in, e);
	if (!r)
		r = ipu_buffer_alloc(dev, 2 * ring, &b.out, e);
	if (!r) {
		memcpy(ipu_buffer_ptr(b.in), in, 2 * ring);
		memset(ipu_buffer_ptr(b.out), 0xff, 2 * ring);
		r = ipu_stream_bind(dev, "in2", b.in, 0, ring, e);
	}
	if (!r)
		r = ipu_stream_bind(dev, "in0", b.in, ring, ring, e);
	if (!r)
		r = ipu_stream_bind(dev, "out3", b.out, 0, ring, e);
	if (!r)
		r = ipu_stream_bind(dev, "out1", b.out, ring, ring, e);
	if (!r)
		r = ipu_run(dev, 0, DEPTH, NULL, e);
	if (!r)
		memcpy(out, ipu_buffer_ptr(b.out), 2 * ring);
	/* unbind before the buffers go */
	ipu_stream_bind(dev, "in2", NULL, 0, 0, NULL);
	ipu_stream_bind(dev, "in0", NULL, 0, 0, NULL);
	ipu_stream_bind(dev, "out3", NULL, 0, 0, NULL);
	ipu_stream_bind(dev, "out1", NULL, 0, 0, NULL);
	ipu_buffer_free(b.in);
	ipu_buffer_free(b.out);
	return r;
}

/* a ring of 1.5 transfers, and a buffer of device @other: both -EINVAL */
static int refusals(struct ipu_device *dev, struct ipu_device *other, const void *bin,
		    size_t len, struct ipu_error *e)
{
	struct ipu_buffer *mine = NULL, *theirs = NULL;
	int r = ipu_load(dev, bin, len, e), ok = 0;

	if (!r)
		r = ipu_buffer_alloc(dev, DEPTH * N * sizeof(float), &mine, e);
	if (!r)
		r = ipu_buffer_alloc(other, DEPTH * N * sizeof(float), &theirs, e);
	if (!r) {
		ok = ipu_stream_bind(dev, "in2", mine, 0, N * sizeof(float) * 3 / 2, e) == -EINVAL &&
		     strstr(e->msg, "whole number") &&
		     ipu_stream_bind(dev, "in2", theirs, 0, N * sizeof(float), e) == -EINVAL;
	}
	ipu_buffer_free(mine);
	ipu_buffer_free(theirs);
	return ok;
}

int main(void)
{
	static float in[2 * DEPTH * N], want[2 * DEPTH * N], mo[2 * DEPTH * N], co[2 * DEPTH * N];
	struct ipu_error e = { 0 };
	struct ipu_device *model = NULL, *dev = NULL, *one = NULL;
	size_t len = 0;
	void *bin;
	int r;

	printf("KTAP version 1\n1..%d\n", NTESTS);
	for (int i = 0; i < 2 * DEPTH * N; i++) {
		in[i] = (float)((i * 37) % 101) / 8.0f - 6.0f;	/* exact in f32, as are x2 and x4 */
		want[i] = in[i] * (i < DEPTH * N ? 2.0f : 4.0f);
	}
	bin = graph(&len, &e);
	kt(bin != NULL, "group_streams.graph_built", e.msg);
	r = bin ? ipu_model_open_multi("test", IPUS, "m2000", 1, &model, &e) : -EINVAL;
	if (!r)
		r = run(model, bin, len, in, mo, &e);
	kt(!r && !memcmp(mo, want, sizeof(want)), "group_streams.model_reference",
	   r ? e.msg : "the model's output rings are not the inputs scaled");
	r = model && !ipu_model_open("test", 1, &one, &e) ? refusals(model, one, bin, len, &e) : 0;
	ipu_device_close(one);
	kt(r, "group_streams.model_refuses_bad_rings", e.msg);
	r = bin ? ipu_group_device_open(GROUP_ID, IPU_OPEN_ATTACH, &dev, &e) : -EINVAL;
	if (r) {
		for (int i = kt_n; i < NTESTS; i++)
			printf("ok %d group_streams # SKIP no M2000 (device %d: %s)\n", i + 1,
			       GROUP_ID, e.msg);
		ipu_device_close(model);
		free(bin);
		return 0;
	}
	r = run(dev, bin, len, in, co, &e);
	kt(!r, "group_streams.cards_run", e.msg);
	kt(!r && !memcmp(co, mo, sizeof(co)), "group_streams.cards_equal_model_bit_for_bit",
	   "the output rings differ from the model device's");
	kt(refusals(dev, model, bin, len, &e), "group_streams.cards_refuse_bad_rings", e.msg);
	/* again on the same open device: rings rebound, nothing left over */
	r = run(dev, bin, len, in, co, &e);
	kt(!r && !memcmp(co, mo, sizeof(co)), "group_streams.cards_run_again", e.msg);
	ipu_device_close(dev);
	ipu_device_close(model);
	free(bin);
	printf("# %d failed\n", kt_fail);
	return kt_fail ? 1 : 0;
}
