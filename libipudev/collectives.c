// SPDX-License-Identifier: MIT
/*
 * Collectives in the manner of GCL: all-reduce, reduce-scatter and
 * all-gather of a tensor replicated per IPU, on a ring through the IPUs in
 * the ladder's order, by the methods clockwise, anticlockwise,
 * bidirectional pair and meet-in-the-middle (docs/builder.md
 * "Collectives": the steps, the sum order, the modelled cost and the
 * automatic choice).
 *
 * Every rank keeps a work buffer of N chunk slots in the clockwise ring's
 * frame: slot j of the rank at ring position p holds the chunk of the rank
 * at position p - j. A method is one or two lanes (element ranges of the
 * chunk), each with the steps its partials travel clockwise (cw) and
 * anticlockwise (acw), cw + acw = N - 1:
 *   reduce-scatter step k: cw (k < cw): slot (N - cw + k) to the next
 *   rank's cw receive buffer, then slot (N - cw + k + 1) += it; acw
 *   (k < acw): slot (acw - k) to the previous rank's acw buffer, then slot
 *   (acw - k - 1) += it. After max(cw, acw) steps slot 0 holds the rank's
 *   own chunk, reduced.
 *   all-gather step k: cw: slot k to the next rank's slot k + 1; acw: slot
 *   (N - k) mod N to the previous rank's slot N - k - 1.
 * The slots a step touches are the same on every rank, so the vertices are
 * the same on every rank (in a replicated graph they are built once); only
 * the copies into and out of the buffer depend on the rank.
 *
 * In place (an all-reduce in a graph of N IPUs whose operand has the
 * collectives' layout, ipu_collective_map()): slot j of the rank at
 * position p is that rank's own chunk ring[p - j], where the tensor holds
 * it, on the tile the buffer's slot would be on. The steps are the same,
 * on the same tiles, with the same bytes; only the copies into and out of
 * the buffer go (they were 2 x the slice in host memory traffic).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_internal.h"
#include "codelets.h"
#include "ipu/ipu_models.h"
#include "ipudev.h"

#define COLL_PIECE_BYTES	64u	/* the least bytes of a chunk a tile holds */
#define COST_EXT_SYNC		1300u	/* docs/cost-model.md: external sync */
#define COST_SYNC		500u	/* internal sync after a compute set */
#define COST_EX_LATENCY		30u	/* exchange latency */
#define COST_HOP		400u	/* one link hop */
#define COST_TILE_BPC		4u	/* on-chip exchange bytes per cycle per tile */

struct lane {
	unsigned cw, acw;		/* steps each way round */
	uint64_t e0, n;			/* its elements of a chunk */
};

struct piece {
	unsigned tile;			/* tile of one IPU (0..tiles_per_ipu) */
	unsigned lane;
	uint64_t e0, n;			/* elements [e0, e0 + n) of a chunk */
};

struct coll {
	struct ipu_graph *g;
	const char *fn;			/* the public call, for messages */
	char base[96];			/* prefix of generated names */
	unsigned N, rep, nb;		/* ranks, replicated?, buffer sets (rep ? 1 : N) */
	unsigned ring[16], pos[16];
	unsigned dtype, es;
	int in;
	uint64_t n, c;			/* slice and chunk elements */
	struct lane lane[2];
	unsigned nlanes;
	struct piece *pc;
	unsigned np;
	uint32_t *w, *rcw, *racw;	/* [nb * np]: offsets of piece i of buffer set b */
	uint32_t *home;			/* in place: [N * N * np] offset of piece i of chunk q of
					 * rank r's slice at [(r * N + q) * np + i]; else NULL */
};

IPU_API const char *ipu_collective_method_name(unsigned method)
{
	static const char *const names[] = { "auto", "clockwise", "anticlockwise",
					     "bidirectional", "meet-in-middle" };

	return method < IPU_COLL_METHOD_COUNT_ ? names[method] : "unknown";
}

/* ranks of the collectives: a graph of N IPUs, or N replicas; 0 if neither */
static unsigned ranks(const struct ipu_graph *g)
{
	return g->ipus > 1 ? g->ipus : 0;
}

/* evens up, odds down: the ladder's ring */
static void ladder(unsigned n, unsigned *order)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i += 2)
		order[k++] = i;
	for (unsigned i = n - 1; i < n; i -= 2)
		order[k++] = i;
}

IPU_API int ipu_collective_ring(const struct ipu_graph *g, unsigned *order, struct ipu_error *err)
{
	if (!g || !order)
		return ipu__err(err, -EINVAL, "ipu_collective_ring: NULL argument");
	if (!ranks(g))
		return ipu__err(err, -EINVAL, "ipu_collective_ring: the graph has one IPU");
	ladder(ranks(g), order);
	return (int)ranks(g);
}

/* the lanes of @method over a chunk of c elements among N ranks */
static unsigned method_lanes(unsigned method, unsigned N, uint64_t c, struct lane *l)
{
	switch (method) {
	case IPU_COLL_CLOCKWISE:
		l[0] = (struct lane){ N - 1, 0, 0, c };
		return 1;
	case IPU_COLL_ANTICLOCKWISE:
		l[0] = (struct lane){ 0, N - 1, 0, c };
		return 1;
	case IPU_COLL_BIDIRECTIONAL:
		l[0] = (struct lane){ N - 1, 0, 0, c / 2 };
		l[1] = (struct lane){ 0, N - 1, c / 2, c - c / 2 };
		return l[0].n ? 2 : (l[0] = l[1], 1);
	default:	/* meet in the middle */
		l[0] = (struct lane){ N / 2, (N - 1) / 2, 0, c };
		return 1;
	}
}

/* tiles a chunk of @bytes is spread over */
static uint64_t chunk_tiles(const struct ipu_graph *g, uint64_t bytes)
{
	uint64_t p = bytes / COLL_PIECE_BYTES;

	return p < 1 ? 1 : p > g->tiles_per_ipu ? g->tiles_per_ipu : p;
}

static uint64_t cdiv(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

IPU_API uint64_t ipu_collective_cycles(const struct ipu_graph *g, unsigned kind, unsigned method,
				       uint64_t bytes)
{
	const struct ipu_model *m;
	unsigned N, steps;
	uint64_t chunk, P, link, tile, ex, add, copies, total;

	if (!g || !(N = ranks(g)) || !method || method >= IPU_COLL_METHOD_COUNT_ ||
	    kind < IPU_COLL_ALL_REDUCE || kind > IPU_COLL_ALL_GATHER ||
	    !(m = ipu_model_by_id(g->model)))
		return 0;
	chunk = kind == IPU_COLL_ALL_GATHER ? bytes : bytes / N;
	P = chunk_tiles(g, chunk);
	steps = method == IPU_COLL_MEET_IN_MIDDLE ? N / 2 : N - 1;
	/* both ways round at once halve a link direction's bytes, except on a ring of 2 */
	link = method == IPU_COLL_BIDIRECTIONAL && N > 2 ? cdiv(chunk, 2) : chunk;
	/* meet in the middle: a tile sends and receives both ways at once */
	tile = cdiv(chunk, P) * (method == IPU_COLL_MEET_IN_MIDDLE && N > 2 ? 2 : 1);
	/* link bytes per cycle: MB/s per link over the clock in kHz, x 1000 */
	ex = COST_EXT_SYNC + COST_EX_LATENCY + COST_HOP + cdiv(link * m->clock_khz, m->link_mb_s * 1000ull) +
	     cdiv(tile, COST_TILE_BPC);
	add = COST_SYNC + cdiv(tile, COST_TILE_BPC);
	copies = 2 * (COST_EX_LATENCY + cdiv(bytes, P * COST_TILE_BPC));
	total = copies;
	if (kind != IPU_COLL_ALL_GATHER)
		total += steps * (ex + add);
	if (kind != IPU_COLL_REDUCE_SCATTER)
		total += steps * ex;
	return total;
}

IPU_API unsigned ipu_collective_method(const struct ipu_graph *g, unsigned kind, uint64_t bytes)
{
	unsigned best = 0;
	uint64_t bc = 0;

	for (unsigned mth = IPU_COLL_CLOCKWISE; mth < IPU_COLL_METHOD_COUNT_; mth++) {
		uint64_t c = ipu_collective_cycles(g, kind, mth, bytes);

		if (c && (!best || c < bc)) {
			best = mth;
			bc = c;
		}
	}
	return best;
}

/* the graph tile of piece tile @tile of rank @r's buffer */
static unsigned btile(const struct coll *cl, unsigned r, unsigned tile)
{
	return cl->rep ? tile : r * cl->g->tiles_per_ipu + tile;
}

/* buffer set of rank r */
static unsigned bset(const struct coll *cl, unsigned r)
{
	return cl->rep ? 0 : r;
}

/* bytes from graph tile @st of rank @sr to @dt of rank @dr (ranks matter when replicated) */
static int ccopy(struct coll *cl, int ex, unsigned sr, unsigned st, uint32_t so, unsigned dr,
		 unsigned dt, uint32_t dof, uint64_t bytes, struct ipu_error *err)
{
	if (cl->rep)
		return ipu__exchange_replica(cl->g, ex, sr, st, so, dr, dt, dof, (uint32_t)bytes, err);
	return ipu__exchange_raw(cl->g, ex, st, so, dt, dof, (uint32_t)bytes, -1, -1, err);
}

/* offset of slot @j of piece @i in rank @r's work buffer */
static uint32_t slot_off(const struct coll *cl, unsigned r, unsigned i, unsigned j)
{
	if (cl->home) {
		unsigned q = cl->ring[(cl->pos[r] + cl->N - j) % cl->N];

		return cl->home[((size_t)r * cl->N + q) * cl->np + i];
	}
	return cl->w[bset(cl, r) * cl->np + i] + (uint32_t)(j * cl->pc[i].n * cl->es);
}

/* the pieces: each lane's elements over P / lanes tiles of one IPU, apart */
static int make_pieces(struct coll *cl, struct ipu_error *err)
{
	uint64_t P = chunk_tiles(cl->g, cl->c * cl->es);
	unsigned per = (unsigned)(P / cl->nlanes ? P / cl->nlanes : 1);

	cl->pc = calloc((size_t)per * cl->nlanes, sizeof(*cl->pc));
	if (!cl->pc)
		return ipu__err(err, -ENOMEM, "%s: out of memory", cl->fn);
	for (unsigned l = 0; l < cl->nlanes; l++) {
		uint64_t each = cdiv(cl->lane[l].n, per);

		for (uint64_t e = 0; e < cl->lane[l].n; e += each) {
			struct piece *p = &cl->pc[cl->np];

			p->tile = (unsigned)((uint64_t)cl->np * cl->g->tiles_per_ipu / (per * cl->nlanes));
			p->lane = l;
			p->e0 = cl->lane[l].e0 + e;
			p->n = each < cl->lane[l].n - e ? each : cl->lane[l].n - e;
			cl->np++;
		}
	}
	return 0;
}

/* the work and receive buffers of every buffer set. 0 or negative errno (reported). */
static int alloc_buffers(struct coll *cl, struct ipu_error *err)
{
	size_t n = (size_t)cl->nb * cl->np;
	char what[128];

	cl->w = calloc(n, sizeof(*cl->w));
	cl->rcw = calloc(n, sizeof(*cl->rcw));
	cl->racw = calloc(n, sizeof(*cl->racw));
	if (!cl->w || !cl->rcw || !cl->racw)
		return ipu__err(err, -ENOMEM, "%s: out of memory", cl->fn);
	snprintf(what, sizeof(what), "%s: the buffers of '%s'", cl->fn, cl->base);
	for (unsigned b = 0; b < cl->nb; b++)
		for (unsigned i = 0; i < cl->np; i++) {
			const struct piece *p = &cl->pc[i];
			const struct lane *l = &cl->lane[p->lane];
			unsigned t = btile(cl, b, p->tile);
			long o = cl->home ? 0 : ipu__tile_alloc(cl->g, t, cl->N * p->n * cl->es, 8, what, err);
			long rc = o < 0 || !l->cw ? 0 : ipu__tile_alloc(cl->g, t, p->n * cl->es, 8, what, err);
			long ra = o < 0 || rc < 0 || !l->acw ? 0 :
				  ipu__tile_alloc(cl->g, t, p->n * cl->es, 8, what, err);

			if (o < 0 || rc < 0 || ra < 0)
				return (int)(o < 0 ? o : rc < 0 ? rc : ra);
			cl->w[b * cl->np + i] = (uint32_t)o;
			cl->rcw[b * cl->np + i] = (uint32_t)rc;
			cl->racw[b * cl->np + i] = (uint32_t)ra;
		}
	return 0;
}

/* a new compute set or exchange "<base>/<what><k>" appended to @seq, or negative errno */
static int new_phase(struct coll *cl, int seq, int exchange, const char *what, unsigned k,
		     struct ipu_error *err)
{
	char name[160];
	int id, node, r;

	snprintf(name, sizeof(name), "%s/%s%u", cl->base, what, k);
	id = exchange ? ipu_graph_add_exchange(cl->g, name, err) :
	     ipu_graph_add_compute_set(cl->g, name, err);
	if (id < 0)
		return id;
	node = exchange ? ipu_prog_exchange(cl->g, id, err) : ipu_prog_execute(cl->g, id, err);
	if (node < 0)
		return node;
	r = ipu_prog_append(cl->g, seq, node, err);
	return r < 0 ? r : id;
}

/*
 * Copy elements [e, e + n) of rank r's slice of tensor t (from element
 * @tbase of t) to (@in) or from graph tile @tile at offset @off. 0 or
 * negative errno.
 */
static int tensor_copy(struct coll *cl, int ex, int in, int t, unsigned r, uint64_t tbase,
		       uint64_t e, uint64_t n, unsigned tile, uint32_t off, struct ipu_error *err)
{
	struct ipu__piece *pc = NULL;
	uint64_t unmapped;
	long np = ipu__slice_pieces(cl->g, t, tbase + e, n, &pc, &unmapped);
	int rc = 0;

	if (np < 0) {
		free(pc);
		return ipu__err(err, -EINVAL, "%s: element %llu is not mapped", cl->fn,
				(unsigned long long)unmapped);
	}
	for (long i = 0; i < np && !rc; i++) {
		uint32_t o = off + (uint32_t)((pc[i].begin - tbase - e) * cl->es);
		uint64_t bytes = pc[i].count * cl->es;

		rc = in ? ccopy(cl, ex, r, pc[i].tile, pc[i].off, r, tile, o, bytes, err) :
		     ccopy(cl, ex, r, tile, o, r, pc[i].tile, pc[i].off, bytes, err);
	}
	free(pc);
	return rc;
}

/* first element of rank r's slice in tensor t of slices of n elements */
static uint64_t slice_base(const struct coll *cl, unsigned r, uint64_t n)
{
	return cl->rep ? 0 : r * n;
}

/*
 * Fill (@in) slots [j0, j1) of every rank's buffer from tensor t, or copy
 * them out to it: slot j of the rank at position p is the chunk of rank
 * q = ring[p - j], at element q * c of the rank's slice of n elements (at
 * element 0 when the slice is one chunk, n == c). One exchange. 0 or
 * negative errno.
 */
static int slots_copy(struct coll *cl, int seq, int in, int t, uint64_t n, unsigned j0, unsigned j1,
		      struct ipu_error *err)
{
	int ex = new_phase(cl, seq, 1, in ? "in" : "out", 0, err);

	if (ex < 0)
		return ex;
	for (unsigned p = 0; p < cl->N; p++) {
		unsigned r = cl->ring[p];

		for (unsigned j = j0; j < j1; j++) {
			unsigned q = cl->ring[(p + cl->N - j) % cl->N];

			for (unsigned i = 0; i < cl->np; i++) {
				const struct piece *pc = &cl->pc[i];
				uint64_t e = (n == cl->c ? 0 : q * cl->c) + pc->e0;
				int rc = tensor_copy(cl, ex, in, t, r, slice_base(cl, r, n), e, pc->n,
						     btile(cl, r, pc->tile), slot_off(cl, r, i, j), err);

				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

/*
 * vertex: slot @j of piece @i of buffer set of rank @r op= the @bn elements
 * (the piece's, or 1: broadcast) at @roff; 0 or negative errno
 */
static int add_vertex(struct coll *cl, int cs, unsigned codelet, unsigned r, unsigned i, unsigned j,
		      uint32_t roff, uint64_t bn, struct ipu_error *err)
{
	const struct piece *p = &cl->pc[i];
	struct ipu__rawfield f[2] = {
		{ slot_off(cl, r, i, j), (uint32_t)p->n, (uint8_t)cl->dtype, -1, 0 },
		{ roff, (uint32_t)bn, (uint8_t)cl->dtype, -1, 0 },
	};

	int v = ipu__add_vertex_raw(cl->g, cs, codelet, btile(cl, r, p->tile), f, 2, NULL, 0, err);

	return v < 0 ? v : 0;
}

/* one reduce-scatter step's copies (@k) into exchange @ex */
static int rs_copies(struct coll *cl, int ex, unsigned k, struct ipu_error *err)
{
	unsigned N = cl->N;

	for (unsigned i = 0; i < cl->np; i++) {
		const struct piece *pc = &cl->pc[i];
		const struct lane *l = &cl->lane[pc->lane];

		for (unsigned p = 0; p < N; p++) {
			unsigned r = cl->ring[p], nx = cl->ring[(p + 1) % N], pv = cl->ring[(p + N - 1) % N];
			int rc = 0;

			if (k < l->cw)
				rc = ccopy(cl, ex, r, btile(cl, r, pc->tile),
					   slot_off(cl, r, i, (N - l->cw + k) % N), nx,
					   btile(cl, nx, pc->tile), cl->rcw[bset(cl, nx) * cl->np + i],
					   pc->n * cl->es, err);
			if (!rc && k < l->acw)
				rc = ccopy(cl, ex, r, btile(cl, r, pc->tile),
					   slot_off(cl, r, i, l->acw - k), pv, btile(cl, pv, pc->tile),
					   cl->racw[bset(cl, pv) * cl->np + i], pc->n * cl->es, err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* the reduce-scatter steps with @codelet (in place: a op= b) */
static int rs_steps(struct coll *cl, int seq, unsigned codelet, struct ipu_error *err)
{
	unsigned steps = 0, N = cl->N;

	for (unsigned l = 0; l < cl->nlanes; l++) {
		if (cl->lane[l].cw > steps)
			steps = cl->lane[l].cw;
		if (cl->lane[l].acw > steps)
			steps = cl->lane[l].acw;
	}
	for (unsigned k = 0; k < steps; k++) {
		int ex = new_phase(cl, seq, 1, "rs_ex", k, err), cs, rc;

		if (ex < 0)
			return ex;
		if ((rc = rs_copies(cl, ex, k, err)))
			return rc;
		if ((cs = new_phase(cl, seq, 0, "rs_add", k, err)) < 0)
			return cs;
		for (unsigned b = 0; b < cl->nb; b++)
			for (unsigned i = 0; i < cl->np; i++) {
				const struct lane *l = &cl->lane[cl->pc[i].lane];

				if (k < l->cw && (rc = add_vertex(cl, cs, codelet, b, i, (N - l->cw + k + 1) % N,
								  cl->rcw[b * cl->np + i], cl->pc[i].n, err)))
					return rc;
				if (k < l->acw && (rc = add_vertex(cl, cs, codelet, b, i, l->acw - k - 1,
								   cl->racw[b * cl->np + i], cl->pc[i].n, err)))
					return rc;
			}
	}
	return 0;
}

/* the all-gather steps: slot 0 of every rank to every other rank's slots */
static int ag_steps(struct coll *cl, int seq, struct ipu_error *err)
{
	unsigned N = cl->N;

	for (unsigned k = 0; k + 1 < N; k++) {
		int ex = -1;

		for (unsigned i = 0; i < cl->np; i++) {
			const struct piece *pc = &cl->pc[i];
			const struct lane *l = &cl->lane[pc->lane];

			if (k >= l->cw && k >= l->acw)
				continue;
			if (ex < 0 && (ex = new_phase(cl, seq, 1, "ag_ex", k, err)) < 0)
				return ex;
			for (unsigned p = 0; p < N; p++) {
				unsigned r = cl->ring[p], nx = cl->ring[(p + 1) % N];
				unsigned pv = cl->ring[(p + N - 1) % N];
				unsigned t = pc->tile;
				int rc = 0;

				if (k < l->cw)
					rc = ccopy(cl, ex, r, btile(cl, r, t), slot_off(cl, r, i, k), nx,
						   btile(cl, nx, t), slot_off(cl, nx, i, k + 1),
						   pc->n * cl->es, err);
				if (!rc && k < l->acw)
					rc = ccopy(cl, ex, r, btile(cl, r, t), slot_off(cl, r, i, (N - k) % N),
						   pv, btile(cl, pv, t), slot_off(cl, pv, i, N - k - 1),
						   pc->n * cl->es, err);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

/*
 * The ring, the lanes of @method (AUTO: the automatic choice) and the
 * pieces of collective @kind over slices of cl->n elements (cl->N, es set).
 * 0 or -ENOMEM (reported).
 */
static int coll_plan(struct coll *cl, unsigned kind, unsigned method, struct ipu_error *err)
{
	cl->c = kind == IPU_COLL_ALL_GATHER ? cl->n : cl->n / cl->N;
	if (!method)
		method = ipu_collective_method(cl->g, kind, cl->n * cl->es);
	ladder(cl->N, cl->ring);
	for (unsigned p = 0; p < cl->N; p++)
		cl->pos[cl->ring[p]] = p;
	cl->nlanes = method_lanes(method, cl->N, cl->c, cl->lane);
	return make_pieces(cl, err);
}

/*
 * In place when tensor @t (a graph of N IPUs, not replicated) has the
 * collectives' layout: every piece of every chunk of every rank's slice
 * one run on the tile of the buffer's piece (ipu_collective_map()). Then
 * cl->home holds their offsets; else it stays NULL (work buffers). 0 or
 * -ENOMEM (reported).
 */
static int find_home(struct coll *cl, int t, struct ipu_error *err)
{
	size_t n = (size_t)cl->N * cl->N * cl->np;
	uint32_t *home;

	if (cl->rep)
		return 0;
	home = calloc(n + 1, sizeof(*home));
	if (!home)
		return ipu__err(err, -ENOMEM, "%s: out of memory", cl->fn);
	for (size_t k = 0; k < n; k++) {
		unsigned r = (unsigned)(k / ((size_t)cl->N * cl->np)), q = (unsigned)(k / cl->np % cl->N);
		const struct piece *p = &cl->pc[k % cl->np];
		struct ipu__piece *pp = NULL;
		uint64_t unmapped;
		long np = ipu__slice_pieces(cl->g, t, slice_base(cl, r, cl->n) + q * cl->c + p->e0, p->n,
					    &pp, &unmapped);
		int ok = np == 1 && pp[0].tile == btile(cl, r, p->tile);

		home[k] = ok ? pp[0].off : 0;
		free(pp);
		if (!ok) {
			free(home);
			return 0;
		}
	}
	cl->home = home;
	return 0;
}

IPU_API int ipu_collective_map(struct ipu_graph *g, int tensor, unsigned method, struct ipu_error *err)
{
	const struct ipu__tensor *t;
	struct coll cl;
	int rc = 0;

	memset(&cl, 0, sizeof(cl));
	cl.g = g;
	cl.fn = "ipu_collective_map";
	if (!g || g->replicas > 1 || !(cl.N = ranks(g)))
		return ipu__err(err, -EINVAL, "ipu_collective_map: %s", !g ? "graph is NULL" :
				"needs a graph of 2, 4, 8 or 16 IPUs (not replicated)");
	if (!(t = ipu__graph_tensor(g, tensor)))
		return ipu__err(err, -EINVAL, "ipu_collective_map: no tensor %d", tensor);
	if (method >= IPU_COLL_METHOD_COUNT_)
		return ipu__err(err, -EINVAL, "ipu_collective_map: tensor '%s': unknown method %u", t->name,
				method);
	if (t->rank < 1 || t->shape[0] != cl.N || t->mapped ||
	    (t->elements / cl.N) % cl.N)
		return ipu__err(err, -EINVAL, "ipu_collective_map: tensor '%s' needs shape [%u, ...] with a "
				"multiple of %u elements per row, not yet mapped", t->name, cl.N, cl.N);
	cl.es = ipu_dtype_size(t->dtype);
	cl.n = t->elements / cl.N;
	if (coll_plan(&cl, IPU_COLL_ALL_REDUCE, method, err))
		rc = -ENOMEM;
	for (unsigned r = 0; !rc && r < cl.N; r++)
		for (unsigned q = 0; !rc && q < cl.N; q++)
			for (unsigned i = 0; !rc && i < cl.np; i++)
				rc = ipu__map_aligned(g, tensor, slice_base(&cl, r, cl.n) + q * cl.c +
						      cl.pc[i].e0, cl.pc[i].n, btile(&cl, r, cl.pc[i].tile),
						      8, err);
	free(cl.pc);
	return rc;
}

/* the checks and the plan every collective shares; 0 or negative errno (reported) */
static int coll_setup(struct coll *cl, struct ipu_graph *g, const char *fn, unsigned kind, int in,
		      unsigned op, unsigned method, const char *name, struct ipu_error *err)
{
	const struct ipu__tensor *t;

	memset(cl, 0, sizeof(*cl));
	cl->g = g;
	cl->fn = fn;
	if (!g)
		return ipu__err(err, -EINVAL, "%s: graph is NULL", fn);
	if (!(cl->N = ranks(g)))
		return ipu__err(err, -EINVAL, "%s: the graph has one IPU: collectives need a graph of "
				"2, 4, 8 or 16 IPUs or replicas", fn);
	if (!(t = ipu__graph_tensor(g, in)))
		return ipu__err(err, -EINVAL, "%s: no tensor %d", fn, in);
	if (kind != IPU_COLL_ALL_GATHER && (!op || op >= IPU_COLL_OP_COUNT_))
		return ipu__err(err, -EINVAL, "%s: tensor '%s': unknown op %u", fn, t->name, op);
	if (method >= IPU_COLL_METHOD_COUNT_)
		return ipu__err(err, -EINVAL, "%s: tensor '%s': unknown method %u", fn, t->name, method);
	if (t->dtype != IPU_DTYPE_F32 && t->dtype != IPU_DTYPE_F16 && t->dtype != IPU_DTYPE_I32)
		return ipu__err(err, -EINVAL, "%s: tensor '%s': dtype %s", fn, t->name,
				ipu_dtype_name(t->dtype));
	if (op == IPU_COLL_MEAN && t->dtype == IPU_DTYPE_I32)
		return ipu__err(err, -EINVAL, "%s: tensor '%s': the mean of i32 is not exact", fn, t->name);
	if (t->mapped != t->elements)
		return ipu__err(err, -EINVAL, "%s: tensor '%s' is not fully mapped", fn, t->name);
	if (name && ipu_graph_find_tensor(g, name) >= 0)
		return ipu__err(err, -EEXIST, "%s: a tensor '%s' already exists", fn, name);
	if (!name && kind != IPU_COLL_ALL_REDUCE)
		return ipu__err(err, -EINVAL, "%s: tensor '%s': the output needs a name", fn, t->name);
	cl->rep = g->replicas > 1;
	cl->nb = cl->rep ? 1 : cl->N;
	cl->in = in;
	cl->dtype = t->dtype;
	cl->es = ipu_dtype_size(t->dtype);
	if (!cl->rep) {
		if (t->rank < 1 || t->shape[0] != cl->N)
			return ipu__err(err, -EINVAL, "%s: tensor '%s' needs shape [%u, ...] (one row per "
					"IPU), has %u rows", fn, t->name, cl->N, t->rank ? t->shape[0] : 0);
		cl->n = t->elements / cl->N;
		for (size_t k = 0; k < t->niv; k++)
			if (t->iv[k].tile / g->tiles_per_ipu != t->iv[k].begin / cl->n)
				return ipu__err(err, -EINVAL, "%s: tensor '%s': row %llu has elements on "
						"IPU %u (row i must lie on IPU i)", fn, t->name,
						(unsigned long long)(t->iv[k].begin / cl->n),
						t->iv[k].tile / g->tiles_per_ipu);
	} else {
		cl->n = t->elements;
	}
	if (kind != IPU_COLL_ALL_GATHER && cl->n % cl->N)
		return ipu__err(err, -EINVAL, "%s: tensor '%s': %llu elements per IPU is not a multiple "
				"of the %u IPUs (pad it)", fn, t->name, (unsigned long long)cl->n, cl->N);
	snprintf(cl->base, sizeof(cl->base), "%s", name ? name : ipu__graph_uname(g, t->name, "/all_reduce"));
	if (coll_plan(cl, kind, method, err))
		return -ENOMEM;
	if (kind == IPU_COLL_ALL_REDUCE && !name && find_home(cl, in, err))
		return -ENOMEM;
	return alloc_buffers(cl, err);
}

static void coll_free(struct coll *cl)
{
	free(cl->pc);
	free(cl->w);
	free(cl->rcw);
	free(cl->racw);
	free(cl->home);
}

/* slot 0 of every buffer divided by N (the mean): a constant N on each piece's tile */
static int scale_mean(struct coll *cl, int seq, struct ipu_error *err)
{
	uint32_t shape = cl->nb * cl->np;
	int t = ipu_graph_add_tensor(cl->g, ipu__graph_uname(cl->g, cl->base, "/ranks"), cl->dtype, 1,
				     &shape, err);
	unsigned char *init = malloc((size_t)shape * cl->es);
	int cs, rc = 0;

	if (t < 0 || !init)
		return t < 0 ? t : ipu__err(err, -ENOMEM, "%s: out of memory", cl->fn);
	for (uint32_t k = 0; k < shape; k++) {
		float f = (float)cl->N;
		uint16_t h = (uint16_t)((15u + (unsigned)__builtin_ctz(cl->N)) << 10);

		memcpy(init + k * cl->es, cl->es == 4 ? (void *)&f : (void *)&h, cl->es);
		if (!rc)
			rc = ipu_graph_map(cl->g, t, k, 1, btile(cl, k / cl->np, cl->pc[k % cl->np].tile), err);
	}
	if (!rc)
		rc = ipu_graph_set_initial(cl->g, t, init, shape * cl->es, err);
	free(init);
	if (rc || (cs = new_phase(cl, seq, 0, "mean", 0, err)) < 0)
		return rc ? rc : cs;
	for (unsigned b = 0; b < cl->nb && !rc; b++)
		for (unsigned i = 0; i < cl->np && !rc; i++) {
			long off = ipu__piece_off(cl->g, t, b * cl->np + i, 1, cl->fn, err);

			rc = off < 0 ? (int)off : add_vertex(cl, cs, IPUE_CODELET_BINARY_INPLACE(IPUE_BOP_DIV),
							     b, i, 0, (uint32_t)off, 1, err);
		}
	return rc;
}

/* the in-place codelet of op */
static unsigned op_codelet(unsigned op)
{
	return IPUE_CODELET_BINARY_INPLACE(op == IPU_COLL_MAX ? IPUE_BOP_MAX :
					   op == IPU_COLL_MIN ? IPUE_BOP_MIN : IPUE_BOP_ADD);
}

/* the reduction of every rank's slice into slot 0 of its buffer (and the mean) */
static int reduce_phase(struct coll *cl, int seq, unsigned op, struct ipu_error *err)
{
	int rc = cl->home ? 0 : slots_copy(cl, seq, 1, cl->in, cl->n, 0, cl->N, err);

	if (!rc)
		rc = rs_steps(cl, seq, op_codelet(op), err);
	if (!rc && op == IPU_COLL_MEAN)
		rc = scale_mean(cl, seq, err);
	return rc;
}

/*
 * A new tensor @name of @rank dims @shape laid out over the pieces' tiles:
 * rank r's slice (of @chunks chunks) from element slice_base(), chunk q's
 * piece i on piece i's tile of IPU r. Id or negative errno.
 */
static int piece_output(struct coll *cl, const char *name, unsigned rank, const uint32_t *shape,
			unsigned chunks, struct ipu_error *err)
{
	int t = ipu_graph_add_tensor(cl->g, name, cl->dtype, rank, shape, err);

	for (unsigned r = 0; t >= 0 && r < cl->nb; r++)
		for (unsigned q = 0; q < chunks; q++)
			for (unsigned i = 0; i < cl->np; i++) {
				uint64_t e = slice_base(cl, r, chunks * cl->c) + q * cl->c + cl->pc[i].e0;
				int rc = ipu_graph_map(cl->g, t, e, cl->pc[i].n, btile(cl, r, cl->pc[i].tile), err);

				if (rc)
					return rc;
			}
	return t;
}

IPU_API int ipu_all_reduce(struct ipu_graph *g, int seq, int in, unsigned op, unsigned method,
			   const char *name, struct ipu_error *err)
{
	struct coll cl;
	int out, rc = coll_setup(&cl, g, "ipu_all_reduce", IPU_COLL_ALL_REDUCE, in, op, method, name,
				 err);

	if (!rc)
		rc = reduce_phase(&cl, seq, op, err);
	if (!rc)
		rc = ag_steps(&cl, seq, err);
	out = rc ? rc : ipu__output_like(g, name, in, 0, err);
	if (out >= 0 && !cl.home && (rc = slots_copy(&cl, seq, 0, out, cl.n, 0, cl.N, err)))
		out = rc;
	coll_free(&cl);
	return out;
}

IPU_API int ipu_reduce_scatter(struct ipu_graph *g, int seq, int in, unsigned op, unsigned method,
			       const char *name, struct ipu_error *err)
{
	struct coll cl;
	uint32_t shape[2];
	int out, rc = coll_setup(&cl, g, "ipu_reduce_scatter", IPU_COLL_REDUCE_SCATTER, in, op, method,
				 name, err);

	if (!rc)
		rc = reduce_phase(&cl, seq, op, err);
	shape[0] = cl.N;
	shape[1] = (uint32_t)cl.c;
	out = rc ? rc : piece_output(&cl, name, cl.rep ? 1 : 2, cl.rep ? shape + 1 : shape, 1, err);
	if (out >= 0 && (rc = slots_copy(&cl, seq, 0, out, cl.c, 0, 1, err)))
		out = rc;
	coll_free(&cl);
	return out;
}

IPU_API int ipu_all_gather(struct ipu_graph *g, int seq, int in, unsigned method, const char *name,
			   struct ipu_error *err)
{
	struct coll cl;
	uint32_t shape[IPU_GRAPH_MAX_RANK];
	unsigned rank = 2;
	int out, rc = coll_setup(&cl, g, "ipu_all_gather", IPU_COLL_ALL_GATHER, in, 0, method, name, err);

	if (!rc && cl.rep) {
		const struct ipu__tensor *t = ipu__graph_tensor(g, in);

		if (t->rank + 1 > IPU_GRAPH_MAX_RANK)
			rc = ipu__err(err, -EINVAL, "ipu_all_gather: tensor '%s' has rank %u: the output "
				      "would have %u (at most %d)", t->name, t->rank, t->rank + 1,
				      IPU_GRAPH_MAX_RANK);
		rank = t->rank + 1u;
		for (unsigned d = 0; d < t->rank; d++)
			shape[d + 1] = t->shape[d];
		shape[0] = cl.N;
	} else {
		shape[0] = cl.N;
		shape[1] = (uint32_t)(cl.N * cl.c);
	}
	if (!rc)
		rc = slots_copy(&cl, seq, 1, in, cl.c, 0, 1, err);
	if (!rc)
		rc = ag_steps(&cl, seq, err);
	out = rc ? rc : piece_output(&cl, name, rank, shape, cl.N, err);
	if (out >= 0 && (rc = slots_copy(&cl, seq, 0, out, cl.N * cl.c, 0, cl.N, err)))
		out = rc;
	coll_free(&cl);
	return out;
}
