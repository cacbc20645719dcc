/* SPDX-License-Identifier: MIT */
/*
 * The pipelined (model-parallel) MLP of the tests (docs/builder.md
 * "Multi-IPU graphs"): four dense layers with ReLU, the mean cross-entropy
 * and SGD, layer l on IPU l * stages / 4 of a graph of 1, 2 or 4 IPUs
 * (ipu_graph_map_ipu()), the activations and their gradients copied
 * across the links between stages. Shared by the builder's host test
 * (tests/library/builder/pipeline_tests.h, the model device) and the
 * cards' (tests/library/group/ipu_group_pipeline.c, devices 4 and 6).
 * Header-only: static functions; the includer provides ipudev.h, stdio.h,
 * string.h and stdbool.h.
 */
#ifndef IPU_PIPELINE_GRAPH_H
#define IPU_PIPELINE_GRAPH_H

enum { PL_B = 16, PL_L = 4, PL_STEPS = 3 };
static const uint32_t pl_width[PL_L + 1] = { 16, 32, 32, 24, 8 };
#define PL_LR 0.25f

/* a [r][c] f32 tensor on IPU @ipu, exposed read-write when @rw; -1 on error */
static int pl_tensor(struct ipu_graph *g, const char *name, uint32_t r, uint32_t c,
		     unsigned ipu, bool rw, struct ipu_error *e)
{
	int t = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, 2, (uint32_t[]){ r, c }, e);

	if (t < 0 || ipu_graph_map_ipu(g, t, ipu, 0, e) < 0 ||
	    (rw && ipu_graph_expose(g, t, NULL, IPU_HANDLE_RW, e) < 0))
		return -1;
	return t;
}

/* @src copied into a new tensor @name on IPU @ipu (across the links when it is elsewhere) */
static int pl_to_ipu(struct ipu_graph *g, int seq, int src, const char *name, unsigned ipu,
		     struct ipu_error *e)
{
	struct ipu_tensor_desc d;
	int t, c;

	if (ipu_graph_tensor_desc(g, src, &d, e) < 0)
		return -1;
	t = pl_tensor(g, name, d.shape[0], d.shape[1], ipu, false, e);
	if (t < 0 || (c = ipu_prog_copy(g, ipu_slice_all(g, src), ipu_slice_all(g, t), e)) < 0 ||
	    ipu_prog_append(g, seq, c, e) < 0)
		return -1;
	return t;
}

/*
 * The training step of the MLP with layer l on IPU l * @stages / PL_L
 * (@stages 1: a single-IPU graph). Handles x, t, w0..w3 (RW), loss (a
 * scalar, read). Program "step". 0 or -1.
 */
static int pl_graph(struct ipu_graph *g, unsigned stages, int w[PL_L], struct ipu_error *e)
{
	int seq = ipu_prog_sequence(g, e), x, t, a[PL_L], h[PL_L], dz, dl, da, loss;
	int dw[PL_L];
	char n[32];

	x = pl_tensor(g, "x", PL_B, pl_width[0], 0, true, e);
	t = pl_tensor(g, "t", PL_B, pl_width[PL_L], stages - 1, true, e);
	if (seq < 0 || x < 0 || t < 0)
		return -1;
	for (int l = 0; l < PL_L; l++) {
		unsigned s = l * stages / PL_L;

		snprintf(n, sizeof(n), "w%d", l);
		w[l] = pl_tensor(g, n, pl_width[l], pl_width[l + 1], s, true, e);
		snprintf(n, sizeof(n), "a%d", l);	/* the stage's input, on its IPU */
		a[l] = pl_to_ipu(g, seq, l ? h[l - 1] : x, n, s, e);
		snprintf(n, sizeof(n), "z%d", l);
		if (w[l] < 0 || a[l] < 0 || (h[l] = ipu_matmul(g, seq, a[l], w[l], n, NULL, e)) < 0)
			return -1;
		snprintf(n, sizeof(n), "h%d", l);
		if (l < PL_L - 1 &&
		    (h[l] = ipu_nonlinearity(g, seq, IPU_NL_RELU, h[l], n, e)) < 0)
			return -1;
	}
	loss = ipu_cross_entropy(g, seq, h[PL_L - 1], t, "loss", "dlogits", &dl, e);
	if (loss < 0 || ipu_graph_expose(g, loss, NULL, IPU_HANDLE_READ, e) < 0)
		return -1;
	dz = dl;
	for (int l = PL_L - 1; l >= 0; l--) {
		unsigned prev = (l ? l - 1 : 0) * stages / PL_L;

		snprintf(n, sizeof(n), "dw%d", l);
		dw[l] = ipu_matmul_ex(g, seq, a[l], dz, IPU_MATMUL_TRANSPOSE_A, n, NULL, e);
		if (dw[l] < 0)
			return -1;
		if (!l)
			break;
		snprintf(n, sizeof(n), "da%d", l);
		da = ipu_matmul_ex(g, seq, dz, w[l], IPU_MATMUL_TRANSPOSE_B, n, NULL, e);
		snprintf(n, sizeof(n), "dh%d", l - 1);	/* back to the previous stage */
		if (da < 0 || (da = pl_to_ipu(g, seq, da, n, prev, e)) < 0)
			return -1;
		snprintf(n, sizeof(n), "dz%d", l - 1);
		dz = ipu_nonlinearity_grad(g, seq, IPU_NL_RELU, h[l - 1], da, n, e);
		if (dz < 0)
			return -1;
	}
	for (int l = 0; l < PL_L; l++)
		if (ipu_scaled_add(g, seq, w[l], dw[l], -PL_LR, e) < 0)
			return -1;
	return ipu_graph_add_program(g, "step", seq, e) < 0 ? -1 : 0;
}

struct pl_result {
	float w[PL_L][32 * 32];
	float loss[PL_STEPS];
};

/*
 * Train PL_STEPS steps on @d, loaded with pl_graph()'s binary, from batch
 * @x, targets @t and weights @w0: the losses and the weights into @out.
 * 0 or a negative errno with @e set.
 */
static int pl_run(struct ipu_device *d, const float *x, const float *t,
		  float w0[PL_L][32 * 32], struct pl_result *out, struct ipu_error *e)
{
	char n[8];
	int r = ipu_tensor_write(d, "x", x, sizeof(float) * PL_B * pl_width[0], e);

	if (!r)
		r = ipu_tensor_write(d, "t", t, sizeof(float) * PL_B * pl_width[PL_L], e);
	for (int l = 0; l < PL_L && !r; l++) {
		snprintf(n, sizeof(n), "w%d", l);
		r = ipu_tensor_write(d, n, w0[l], sizeof(float) * pl_width[l] * pl_width[l + 1], e);
	}
	for (int s = 0; s < PL_STEPS && !r; s++) {
		r = ipu_run(d, 0, 1, NULL, e);
		if (!r)
			r = ipu_tensor_read(d, "loss", &out->loss[s], sizeof(float), e);
	}
	for (int l = 0; l < PL_L && !r; l++) {
		snprintf(n, sizeof(n), "w%d", l);
		r = ipu_tensor_read(d, n, out->w[l], sizeof(float) * pl_width[l] * pl_width[l + 1], e);
	}
	return r;
}

/* the same batch, targets and initial weights for every run (xorshift from a fixed seed) */
static void pl_inputs(float *x, float *t, float w0[PL_L][32 * 32])
{
	uint64_t s = 777;
	float *all[PL_L + 1] = { x, w0[0], w0[1], w0[2], w0[3] };
	size_t n[PL_L + 1] = { PL_B * 16 };

	for (int l = 0; l < PL_L; l++)
		n[l + 1] = (size_t)pl_width[l] * pl_width[l + 1];
	for (int k = 0; k <= PL_L; k++)
		for (size_t i = 0; i < n[k]; i++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			all[k][i] = (float)(s >> 40) / 16777216.0f - 0.5f;	/* exact */
		}
	memset(t, 0, sizeof(float) * PL_B * pl_width[PL_L]);
	for (int i = 0; i < PL_B; i++)
		t[i * pl_width[PL_L] + (i * 5) % pl_width[PL_L]] = 1;
}

#endif /* IPU_PIPELINE_GRAPH_H */
