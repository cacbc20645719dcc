// SPDX-License-Identifier: GPL-2.0
/*
 * One random job of the soak, through the public libipudev API only: a
 * graph of a random kind and size (vector add, scaled add, matmul) built
 * with the builder, random data, load, write, run, read back, and every
 * element compared with the host's result. The data are small integers
 * (and the scale a power of two or a small integer), so every result is
 * exact in f32 whatever the card's order of summation: a verified result
 * is bit for bit the host's.
 *
 * The host memory the card reads and writes is chosen at random among
 * plain memory (bounced or pinned per command by the library), a buffer of
 * ipu_buffer_alloc() (mmap of driver memory) and a buffer of
 * ipu_buffer_pin(). After a reset such a mapping may fault with SIGBUS
 * (docs/uapi.md "Recovery"): a guard turns that into -EIO for the job.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipudev.h"
#include "soak.h"

enum soak_kind { K_ADD, K_SCALE, K_MATMUL, K_COUNT };
static const char *const kind_names[K_COUNT] = { "add", "scale", "matmul" };

/* The operands and results of one job, host side. */
struct job {
	enum soak_kind kind;
	uint32_t m, k, n;	/* matmul [m][k] x [k][n]; vectors: n */
	float scale;
	size_t na, nb, nc;	/* elements of a, b and the result */
	float *a, *b, *c;	/* where the card reads / writes */
	float *want;		/* the host's result */
	float *mem;		/* malloc'ed backing of a, b, c (not a buffer) */
	struct ipu_buffer *buf;	/* or the buffer they live in */
};

/*
 * SIGBUS on a buffer's mapping: only while a job touches one (guard set);
 * per process, as signal handlers are.
 */
static sigjmp_buf *bus_guard;

static void on_sigbus(int sig)
{
	if (bus_guard)
		siglongjmp(*bus_guard, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void plan(struct job *j, struct soak_rng *rng)
{
	static const float scales[] = { -2.0f, -1.0f, 0.5f, 2.0f, 3.0f };

	memset(j, 0, sizeof(*j));
	j->kind = (enum soak_kind)soak_rng_range(rng, 0, K_COUNT - 1);
	if (j->kind == K_MATMUL) {
		j->m = soak_rng_range(rng, 1, 24);
		j->k = soak_rng_range(rng, 1, 24);
		j->n = soak_rng_range(rng, 1, 24);
		j->na = (size_t)j->m * j->k;
		j->nb = (size_t)j->k * j->n;
		j->nc = (size_t)j->m * j->n;
	} else {
		j->n = soak_rng_range(rng, 1, 3000);
		j->na = j->nb = j->nc = j->n;
		j->scale = scales[soak_rng_range(rng, 0, 4)];
	}
}

/* Host memory for a, b, c: plain, ipu_buffer_alloc() or ipu_buffer_pin(). */
static int place(struct job *j, struct ipu_device *dev, struct soak_rng *rng,
		 struct soak_worker_slot *slot, struct ipu_error *err)
{
	size_t bytes = (j->na + j->nb + j->nc) * sizeof(float);
	unsigned how = soak_rng_range(rng, 0, 2);
	float *p;
	int ret;

	j->want = malloc(j->nc * sizeof(float));
	if (!j->want)
		return -ENOMEM;
	if (how == 1) {
		ret = ipu_buffer_alloc(dev, bytes, &j->buf, err);
		if (ret)
			return ret;
		p = ipu_buffer_ptr(j->buf);
		slot->bufs++;
	} else {
		/* pinned memory is page-granular: an unaligned start on purpose */
		j->mem = malloc(bytes + 64);
		if (!j->mem)
			return -ENOMEM;
		p = j->mem + soak_rng_range(rng, 0, 15);
		if (how == 2) {
			ret = ipu_buffer_pin(dev, p, bytes, &j->buf, err);
			if (ret)
				return ret;
			slot->pins++;
		}
	}
	j->a = p;
	j->b = p + j->na;
	j->c = p + j->na + j->nb;
	return 0;
}

/* Random operands (in buffer memory: under the SIGBUS guard) and the result. */
static void fill(struct job *j, struct soak_rng *rng)
{
	for (size_t i = 0; i < j->na; i++)
		j->a[i] = (float)((int)soak_rng_range(rng, 0, 32) - 16);
	for (size_t i = 0; i < j->nb; i++)
		j->b[i] = (float)((int)soak_rng_range(rng, 0, 32) - 16);
	memset(j->c, 0xa5, j->nc * sizeof(float));	/* never a result */
	for (size_t i = 0; i < j->nc && j->kind != K_MATMUL; i++)
		j->want[i] = j->kind == K_ADD ? j->a[i] + j->b[i] :
			     j->a[i] + j->scale * j->b[i];
	for (uint32_t r = 0; r < j->m && j->kind == K_MATMUL; r++)
		for (uint32_t c = 0; c < j->n; c++) {
			float s = 0;

			for (uint32_t x = 0; x < j->k; x++)
				s += j->a[r * j->k + x] * j->b[x * j->n + c];
			j->want[r * j->n + c] = s;
		}
}

static int add_input(struct ipu_graph *g, const char *name, unsigned rank,
		     const uint32_t *shape, uint64_t grain, unsigned access,
		     struct ipu_error *err)
{
	int t = ipu_graph_add_tensor(g, name, IPU_DTYPE_F32, rank, shape, err);

	if (t < 0)
		return t;
	if (ipu_graph_map_linear(g, t, grain, err) ||
	    ipu_graph_expose(g, t, NULL, access, err) < 0)
		return err->code;
	return t;
}

/* The job's graph: program 0 computes the result "c" (or "a" in place). */
static int build(const struct job *j, uint32_t model, struct soak_rng *rng,
		 void **bin, size_t *len, struct ipu_error *err)
{
	uint32_t sa[2] = { j->m, j->k }, sb[2] = { j->k, j->n };
	uint64_t grain = 1u << soak_rng_range(rng, 0, 4);
	unsigned rank = j->kind == K_MATMUL ? 2 : 1;
	struct ipu_graph *g;
	int a, b, c, seq, ret;

	if (rank == 1)
		sa[0] = sb[0] = j->n;
	ret = ipu_graph_create(model, &g, err);
	if (ret)
		return ret;
	a = add_input(g, "a", rank, sa, grain, j->kind == K_SCALE ?
		      IPU_HANDLE_RW : IPU_HANDLE_WRITE, err);
	b = a < 0 ? a : add_input(g, "b", rank, sb, grain, IPU_HANDLE_WRITE, err);
	seq = b < 0 ? b : ipu_prog_sequence(g, err);
	if (seq < 0) {
		c = seq;
	} else if (j->kind == K_ADD) {
		c = ipu_binary(g, seq, IPU_OP_ADD, a, b, "c", err);
	} else if (j->kind == K_SCALE) {
		c = ipu_scaled_add(g, seq, a, b, j->scale, err);
	} else {
		c = ipu_matmul(g, seq, a, b, "c", NULL, err);
	}
	if (c >= 0 && j->kind != K_SCALE)
		c = ipu_graph_expose(g, c, NULL, IPU_HANDLE_READ, err);
	if (c >= 0)
		c = ipu_graph_add_program(g, kind_names[j->kind], seq, err);
	ret = c < 0 ? c : ipu_graph_write(g, bin, len, err);
	ipu_graph_free(g);
	return ret;
}

static int verify(const struct job *j, struct ipu_error *err)
{
	for (size_t i = 0; i < j->nc; i++)
		if (memcmp(&j->c[i], &j->want[i], sizeof(float))) {
			snprintf(err->msg, sizeof(err->msg),
				 "%s m=%u k=%u n=%u scale=%g: element %zu is %g, the host's %g",
				 kind_names[j->kind], j->m, j->k, j->n,
				 (double)j->scale, i, (double)j->c[i],
				 (double)j->want[i]);
			return 1;
		}
	return 0;
}

/* Load, write, run, read back: 0 or the first failing call's -errno. */
static int execute(const struct job *j, struct ipu_device *dev,
		   const void *bin, size_t len, struct soak_worker_slot *slot,
		   struct ipu_error *err)
{
	const char *out = j->kind == K_SCALE ? "a" : "c";
	int ret;

	slot->phase = SOAK_P_LOAD;
	ret = ipu_load(dev, bin, len, err);
	slot->phase = SOAK_P_WRITE;
	if (!ret)
		ret = ipu_tensor_write(dev, "a", j->a, j->na * sizeof(float), err);
	if (!ret)
		ret = ipu_tensor_write(dev, "b", j->b, j->nb * sizeof(float), err);
	slot->phase = SOAK_P_RUN;
	if (!ret)
		ret = ipu_run(dev, 0, 1, NULL, err);
	slot->phase = SOAK_P_READ;
	if (!ret)
		ret = ipu_tensor_read(dev, out, j->c, j->nc * sizeof(float), err);
	return ret;
}

static int job_body(struct job *j, struct ipu_device *dev, uint32_t model,
		    struct soak_rng *rng, struct soak_worker_slot *slot,
		    struct ipu_error *err)
{
	void *bin = NULL;
	size_t len = 0;
	int ret;

	slot->phase = SOAK_P_BUILD;
	ret = place(j, dev, rng, slot, err);
	if (ret)
		return ret;
	fill(j, rng);
	ret = build(j, model, rng, &bin, &len, err);
	if (ret) {
		/* the builder's message: the soak's own bug */
		return 2;
	}
	ret = execute(j, dev, bin, len, slot, err);
	free(bin);
	slot->phase = SOAK_P_VERIFY;
	return ret ? ret : verify(j, err);
}

int soak_job(struct ipu_device *dev, uint32_t model, struct soak_rng *rng,
	     struct soak_worker_slot *slot, struct ipu_error *err)
{
	struct sigaction sa = { .sa_handler = on_sigbus };
	sigjmp_buf guard;
	struct job j;
	int ret;

	ipu_error_clear(err);
	plan(&j, rng);
	sigaction(SIGBUS, &sa, NULL);
	if (sigsetjmp(guard, 1)) {
		bus_guard = NULL;
		snprintf(err->msg, sizeof(err->msg),
			 "SIGBUS on a buffer mapped before a reset");
		err->code = ret = -EIO;
	} else {
		bus_guard = &guard;
		ret = job_body(&j, dev, model, rng, slot, err);
		bus_guard = NULL;
	}
	ipu_buffer_free(j.buf);
	free(j.mem);
	free(j.want);
	slot->phase = SOAK_P_IDLE;
	return ret;
}
