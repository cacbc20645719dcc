// SPDX-License-Identifier: MIT
/*
 * Training: scaled add (popops::scaledAddTo) and the optimizers SGD with
 * momentum and Adam, updated on the device. Each optimizer creates its
 * state next to the weights (laid out like them, zero at load, exposed so
 * that the host can checkpoint it) and appends to @seq one exchange (the
 * gradient pieces that are not on their weights' tiles, the per-tile
 * copies of the learning rate or of Adam's step factors) and one compute
 * set of fused vertices (codelets_optim.c), one per tile-contiguous region
 * of the weights. See docs/builder.md, "Training: optimizers".
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"

#define NAME_MAX_LEN 160	/* room for "<name>/<suffix>" in the buffers below */

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static struct ipu__rawfield rawf(uint32_t off, uint64_t count, unsigned dtype, int tensor, uint64_t begin)
{
	struct ipu__rawfield f = { off, (uint32_t)count, (uint8_t)dtype, tensor, begin };

	return f;
}

static int append(struct ipu_graph *g, int seq, int node, struct ipu_error *err)
{
	return node < 0 ? node : ipu_prog_append(g, seq, node, err);
}

/* a hyper-parameter in [0, 1) (NaN fails) */
static int unit(float x)
{
	return x >= 0.0f && x < 1.0f;
}

/* a fully mapped tensor @t in role @what of @op; 0 or -EINVAL */
static int check_mapped(const struct ipu_graph *g, int t, const char *op, const char *what,
			struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, t);

	if (!x)
		return ipu__err(err, -EINVAL, "%s: no tensor %d (%s)", op, t, what);
	if (x->mapped != x->elements)
		return ipu__err(err, -EINVAL, "%s: tensor '%s' (%s) is not fully mapped to tiles", op, x->name,
				what);
	return 0;
}

/* @b has @a's shape; 0 or -EINVAL naming both */
static int check_same_shape(const struct ipu_graph *g, int a, int b, const char *op, struct ipu_error *err)
{
	const struct ipu__tensor *x = ipu__graph_tensor(g, a), *y = ipu__graph_tensor(g, b);
	char sa[96], sb[96];

	if (x->rank == y->rank && !memcmp(x->shape, y->shape, x->rank * sizeof(x->shape[0])))
		return 0;
	return ipu__err(err, -EINVAL, "%s: '%s' is %s but '%s' is %s", op, y->name,
			ipu__shape_str(sb, sizeof(sb), y->rank, y->shape), x->name,
			ipu__shape_str(sa, sizeof(sa), x->rank, x->shape));
}

/*
 * The operands of an optimizer @op named @name: f32 weights @w and a
 * gradient @grad of the same shape (any layout), both fully mapped, and
 * "@name/<suffix>" free for every suffix of @sfx (NULL-terminated).
 * Checked before anything is added to the graph; 0 or -EINVAL/-EEXIST.
 */
static int check_update(const struct ipu_graph *g, int w, int grad, const char *name,
			const char *const *sfx, const char *op, struct ipu_error *err)
{
	const struct ipu__tensor *tw, *tg;
	char buf[256];
	int r;

	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", op);
	if (!name || !*name)
		return ipu__err(err, -EINVAL, "%s: the optimizer needs a name (it prefixes its state "
				"tensors)", op);
	if (strlen(name) > NAME_MAX_LEN)
		return ipu__err(err, -EINVAL, "%s: name '%.40s...' is longer than %d characters", op, name,
				NAME_MAX_LEN);
	if ((r = check_mapped(g, w, op, "weights", err)) || (r = check_mapped(g, grad, op, "gradient", err)))
		return r;
	tw = ipu__graph_tensor(g, w);
	tg = ipu__graph_tensor(g, grad);
	if (tw->dtype != IPU_DTYPE_F32)
		return ipu__err(err, -EINVAL, "%s '%s': weights '%s' are %s; only f32 weights are updated "
				"(keep an f32 master copy)", op, name, tw->name, ipu_dtype_name(tw->dtype));
	if (tg->dtype != IPU_DTYPE_F32)
		return ipu__err(err, -EINVAL, "%s '%s': gradient '%s' is %s, must be f32 like the weights",
				op, name, tg->name, ipu_dtype_name(tg->dtype));
	if (w == grad)
		return ipu__err(err, -EINVAL, "%s '%s': tensor '%s' is both the weights and the gradient",
				op, name, tw->name);
	if ((r = check_same_shape(g, w, grad, op, err)))
		return r;
	for (; *sfx; sfx++) {
		snprintf(buf, sizeof(buf), "%s/%s", name, *sfx);
		if (ipu_graph_find_tensor(g, buf) >= 0)
			return ipu__err(err, -EEXIST, "%s: a tensor '%s' already exists", op, buf);
	}
	return 0;
}

/* rank-0 "@name/@suffix" of @dtype on @tile, initial value *@value, exposed RW; id */
static int host_scalar(struct ipu_graph *g, const char *name, const char *suffix, unsigned dtype,
		       const void *value, unsigned tile, struct ipu_error *err)
{
	char buf[256];
	int t, r;

	snprintf(buf, sizeof(buf), "%s/%s", name, suffix);
	if ((t = ipu_graph_add_tensor(g, buf, dtype, 0, NULL, err)) < 0)
		return t;
	if ((r = ipu_graph_map_tile(g, t, tile, err)) < 0 ||
	    (r = ipu_graph_set_initial(g, t, value, 4, err)) < 0 ||
	    (r = ipu_graph_expose(g, t, NULL, IPU_HANDLE_RW, err)) < 0)
		return r;
	return t;
}

/* "@name/@suffix" laid out like @w, zero at load, exposed RW; id */
static int zero_state(struct ipu_graph *g, const char *name, const char *suffix, int w,
		      struct ipu_error *err)
{
	uint64_t bytes = ipu__graph_tensor(g, w)->elements * 4;
	char buf[256];
	void *z;
	int t, r;

	snprintf(buf, sizeof(buf), "%s/%s", name, suffix);
	if ((t = ipu__output_like(g, buf, w, 0, err)) < 0)
		return t;
	if (!(z = calloc(1, bytes)))
		return ipu__err(err, -ENOMEM, "%s: out of memory", buf);
	r = ipu_graph_set_initial(g, t, z, bytes, err);
	free(z);
	if (r < 0 || (r = ipu_graph_expose(g, t, NULL, IPU_HANDLE_RW, err)) < 0)
		return r;
	return t;
}

/*
 * An update being built: the fields of each vertex over one region of the
 * weights, the operand exchange (created on first copy) and the per-tile
 * offsets of the broadcast parameter tensor.
 */
struct update {
	const char *op;
	int w, grad, param;	/* param: lr (SGD) or k (Adam), copied to every tile */
	uint32_t param_n;
	int state[2];		/* velocity (SGD); m, v (Adam); -1 unused */
	unsigned codelet;
	uint32_t params[3];
	unsigned nparams;
	int ex;
	char exname[256];
	long *poff;		/* per tile: the param's offset there, -1 not yet */
};

/* the vertex over w's region @v in compute set @cs; 0 or negative errno */
static int region_vertex(struct ipu_graph *g, struct update *u, int cs, struct ipu__iv v,
			 struct ipu_error *err)
{
	struct ipu__rawfield f[5];
	unsigned nf = 0;
	long off;

	f[nf++] = rawf(v.off, v.count, IPU_DTYPE_F32, u->w, v.begin);
	off = ipu__local_copy(g, &u->ex, u->exname, u->grad, v.begin, v.count, v.tile, err);
	if (off < 0)
		return (int)off;
	f[nf++] = rawf((uint32_t)off, v.count, IPU_DTYPE_F32, u->grad, v.begin);
	for (unsigned s = 0; s < 2 && u->state[s] >= 0; s++) {
		if ((off = ipu__piece_off(g, u->state[s], v.begin, v.count, u->op, err)) < 0)
			return (int)off;
		f[nf++] = rawf((uint32_t)off, v.count, IPU_DTYPE_F32, u->state[s], v.begin);
	}
	if (u->poff[v.tile] < 0 &&
	    (u->poff[v.tile] = ipu__local_copy(g, &u->ex, u->exname, u->param, 0, u->param_n, v.tile,
					       err)) < 0)
		return (int)u->poff[v.tile];
	f[nf++] = rawf((uint32_t)u->poff[v.tile], u->param_n, IPU_DTYPE_F32, u->param, 0);
	return ipu__add_vertex_raw(g, cs, u->codelet, v.tile, f, nf, u->params, u->nparams, err);
}

/*
 * Appended to @seq: the operand exchange (if any copy is needed), then
 * compute set "@name/update" with one vertex per region of the weights.
 * 0 or negative errno.
 */
static int update_program(struct ipu_graph *g, int seq, struct update *u, const char *name,
			  struct ipu_error *err)
{
	const struct ipu__tensor *tw = ipu__graph_tensor(g, u->w);
	size_t niv = tw->niv;
	struct ipu__iv *iv = malloc(niv * sizeof(*iv));
	unsigned tiles = ipu_graph_tiles(g);
	char buf[256];
	int cs, r = 0;

	u->ex = -1;
	snprintf(u->exname, sizeof(u->exname), "%s/operands", name);
	u->poff = malloc(tiles * sizeof(*u->poff));
	if (!iv || !u->poff) {
		free(iv);
		free(u->poff);
		return ipu__err(err, -ENOMEM, "%s '%s': out of memory", u->op, name);
	}
	memcpy(iv, tw->iv, niv * sizeof(*iv));	/* adding vertices may move the tensor array */
	for (unsigned t = 0; t < tiles; t++)
		u->poff[t] = -1;
	snprintf(buf, sizeof(buf), "%s/update", name);
	cs = ipu_graph_add_compute_set(g, buf, err);
	if (cs < 0)
		r = cs;
	for (size_t i = 0; i < niv && !r; i++)
		if ((r = region_vertex(g, u, cs, iv[i], err)) > 0)
			r = 0;	/* a vertex id */
	if (!r && u->ex >= 0)
		r = append(g, seq, ipu_prog_exchange(g, u->ex, err), err);
	if (!r)
		r = append(g, seq, ipu_prog_execute(g, cs, err), err);
	free(iv);
	free(u->poff);
	return r < 0 ? r : 0;
}

/* the tile of w's first element: home of the optimizer's scalars */
static unsigned home_tile(const struct ipu_graph *g, int w)
{
	const struct ipu__tensor *t = ipu__graph_tensor(g, w);

	return t->niv ? t->iv[0].tile : 0;	/* empty weights: their scalars go to tile 0 */
}

IPU_API int ipu_scaled_add(struct ipu_graph *g, int seq, int x, int y, float scale,
			   struct ipu_error *err)
{
	static const char op[] = "ipu_scaled_add";
	const struct ipu__tensor *tx, *ty;
	struct ipu__iv *iv;
	size_t niv;
	char buf[256];
	uint32_t s = f2u(scale);
	int cs, ex = -1, r = 0;

	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", op);
	if ((r = check_mapped(g, x, op, "x", err)) || (r = check_mapped(g, y, op, "y", err)))
		return r;
	tx = ipu__graph_tensor(g, x);
	ty = ipu__graph_tensor(g, y);
	if (tx->dtype == IPU_DTYPE_I32 || tx->dtype != ty->dtype)
		return ipu__err(err, -EINVAL, "%s: '%s' (%s) and '%s' (%s) must both be f32 or both f16", op,
				tx->name, ipu_dtype_name(tx->dtype), ty->name, ipu_dtype_name(ty->dtype));
	if ((r = check_same_shape(g, x, y, op, err)))
		return r;
	if (!(scale >= -FLT_MAX && scale <= FLT_MAX))
		return ipu__err(err, -EINVAL, "%s: scale %g for '%s' is not finite", op, scale, tx->name);
	niv = tx->niv;
	if (!(iv = malloc(niv * sizeof(*iv))))
		return ipu__err(err, -ENOMEM, "%s '%s': out of memory", op, tx->name);
	memcpy(iv, tx->iv, niv * sizeof(*iv));
	snprintf(buf, sizeof(buf), "%s/scaled_add", tx->name);
	if ((cs = ipu_graph_add_compute_set(g, buf, err)) < 0)
		r = cs;
	snprintf(buf, sizeof(buf), "%s/scaled_add_operand", ipu__graph_tensor(g, x)->name);
	for (size_t i = 0; i < niv && !r; i++) {
		long off = ipu__local_copy(g, &ex, buf, y, iv[i].begin, iv[i].count, iv[i].tile, err);
		struct ipu__rawfield f[2];

		if (off < 0) {
			r = (int)off;
			break;
		}
		f[0] = rawf(iv[i].off, iv[i].count, ipu__graph_tensor(g, x)->dtype, x, iv[i].begin);
		f[1] = rawf((uint32_t)off, iv[i].count, f[0].dtype, y, iv[i].begin);
		r = ipu__add_vertex_raw(g, cs, IPUE_CODELET_SCALED_ADD, iv[i].tile, f, 2, &s, 1, err);
		r = r < 0 ? r : 0;
	}
	free(iv);
	if (!r && ex >= 0)
		r = append(g, seq, ipu_prog_exchange(g, ex, err), err);
	if (!r)
		r = append(g, seq, ipu_prog_execute(g, cs, err), err);
	return r < 0 ? r : x;
}

IPU_API int ipu_sgd_momentum(struct ipu_graph *g, int seq, int w, int grad, float lr, float momentum,
			     const char *name, struct ipu_error *err)
{
	static const char op[] = "ipu_sgd_momentum";
	static const char *const sfx[] = { "lr", "velocity", NULL };
	struct update u = { .op = op, .w = w, .grad = grad, .param_n = 1, .state = { -1, -1 },
			    .codelet = IPUE_CODELET_SGD_MOMENTUM, .params = { f2u(momentum) }, .nparams = 1 };
	int r;

	if ((r = check_update(g, w, grad, name, sfx, op, err)))
		return r;
	if (!(lr >= 0.0f && lr <= FLT_MAX))
		return ipu__err(err, -EINVAL, "%s '%s': learning rate %g is not finite and >= 0", op, name, lr);
	if (!unit(momentum))
		return ipu__err(err, -EINVAL, "%s '%s': momentum %g is not in [0, 1)", op, name, momentum);
	if ((u.param = host_scalar(g, name, "lr", IPU_DTYPE_F32, &lr, home_tile(g, w), err)) < 0)
		return u.param;
	if ((u.state[0] = zero_state(g, name, "velocity", w, err)) < 0)
		return u.state[0];
	if ((r = update_program(g, seq, &u, name, err)))
		return r;
	return u.param;
}

IPU_API int ipu_adam(struct ipu_graph *g, int seq, int w, int grad, const struct ipu_adam_params *p,
		     const char *name, struct ipu_error *err)
{
	static const char op[] = "ipu_adam";
	static const char *const sfx[] = { "lr", "m", "v", "step", "k", NULL };
	static const struct ipu_adam_params defaults = IPU_ADAM_DEFAULTS;
	struct update u = { .op = op, .w = w, .grad = grad, .param_n = 2, .state = { -1, -1 },
			    .codelet = IPUE_CODELET_ADAM, .nparams = 3 };
	struct ipu__rawfield f[3];
	int32_t zero = 0;
	int lr, step, cs, r;
	unsigned home;
	char buf[256];

	if ((r = check_update(g, w, grad, name, sfx, op, err)))
		return r;
	if (!p)
		p = &defaults;
	if (!(p->lr >= 0.0f && p->lr <= FLT_MAX))
		return ipu__err(err, -EINVAL, "%s '%s': learning rate %g is not finite and >= 0", op, name,
				p->lr);
	if (!unit(p->beta1) || !unit(p->beta2))
		return ipu__err(err, -EINVAL, "%s '%s': beta1 %g and beta2 %g must be in [0, 1)", op, name,
				p->beta1, p->beta2);
	if (!(p->eps > 0.0f && p->eps <= FLT_MAX))
		return ipu__err(err, -EINVAL, "%s '%s': eps %g is not positive and finite", op, name, p->eps);
	u.params[0] = f2u(p->beta1);
	u.params[1] = f2u(p->beta2);
	u.params[2] = f2u(p->eps);
	home = home_tile(g, w);
	if ((lr = host_scalar(g, name, "lr", IPU_DTYPE_F32, &p->lr, home, err)) < 0)
		return lr;
	if ((step = host_scalar(g, name, "step", IPU_DTYPE_I32, &zero, home, err)) < 0)
		return step;
	/* k = { lr / (1 - beta1^t), 1 / sqrt(1 - beta2^t) }: written by AdamStep each run */
	snprintf(buf, sizeof(buf), "%s/k", name);
	if ((u.param = ipu_graph_add_tensor(g, buf, IPU_DTYPE_F32, 1, &u.param_n, err)) < 0)
		return u.param;
	if ((r = ipu_graph_map_tile(g, u.param, home, err)) < 0)
		return r;
	if ((u.state[0] = zero_state(g, name, "m", w, err)) < 0)
		return u.state[0];
	if ((u.state[1] = zero_state(g, name, "v", w, err)) < 0)
		return u.state[1];
	snprintf(buf, sizeof(buf), "%s/step", name);
	if ((cs = ipu_graph_add_compute_set(g, buf, err)) < 0)
		return cs;
	{
		const int t[3] = { step, lr, u.param };

		for (unsigned i = 0; i < 3; i++) {
			long off = ipu__piece_off(g, t[i], 0, i == 2 ? 2 : 1, op, err);

			if (off < 0)
				return (int)off;
			f[i] = rawf((uint32_t)off, i == 2 ? 2 : 1, i ? IPU_DTYPE_F32 : IPU_DTYPE_I32, t[i], 0);
		}
	}
	if ((r = ipu__add_vertex_raw(g, cs, IPUE_CODELET_ADAM_STEP, home, f, 3, u.params, 2, err)) < 0 ||
	    (r = append(g, seq, ipu_prog_execute(g, cs, err), err)) < 0)
		return r;
	if ((r = update_program(g, seq, &u, name, err)))
		return r;
	return lr;
}
