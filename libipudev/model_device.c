// SPDX-License-Identifier: MIT
/*
 * The model device: a backend that runs graph binaries in-process on the
 * tile engine (qemu-device/engine), behind the same calls a card answers:
 * its constructors ipu_model_open() and ipu_model_open_multi() and its
 * ops. The public calls that dispatch to them are in the front end
 * (device.c).
 *
 * A model of N IPUs is N engines, one per IPU, joined by the engine's
 * in-process fabric (fabric_local.h), like Poplar's IPUModel with several
 * IPUs: a multi-IPU binary loads on every engine (each runs its own IPU's
 * part, one thread each during a run); a single-IPU binary on the first.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric_local.h"
#include "internal.h"
#include "ipu_engine.h"
#include "ipu/ipu_models.h"

struct model_stream {
	struct ipu_stream_callbacks cb;
	struct model_dev *md;
	unsigned index;
	/* ipu_stream_bind(): a ring of whole transfers, slot i mod N */
	uint8_t *ring;
	size_t ring_bytes, transfer;
	uint64_t pos;
};

struct model_dev {
	struct ipue_engine *e;		/* IPU 0's: the graph's tables, single-IPU runs */
	struct ipue_engine *m[IPU_GRAPH_MAX_IPUS]; /* one engine per IPU, m[0] == e */
	unsigned nipus;
	unsigned active;		/* engines holding the loaded graph (1 or nipus) */
	struct ipue_fabric_local *fab;	/* NULL for one IPU */
	struct ipue_model_info mi;
	int started;			/* a run was started and not yet waited for */
	int status;			/* its result (negative errno) */
	char msg[IPU_ERROR_MSG_MAX];
	struct ipu_run_stats stats;
	struct model_stream *st;	/* [ipue_stream_count()] after load */
	unsigned nst;
};

static struct model_dev *md_of(struct ipu_device *dev)
{
	return dev->priv;
}

/* free md and everything it holds; NULL and half-built ones too */
static void model_close_md(struct model_dev *md)
{
	if (!md)
		return;
	for (unsigned k = 0; k < md->nipus; k++) {
		if (md->fab)
			ipue_fabric_local_leave(md->fab, k);
		ipue_engine_destroy(md->m[k]);
	}
	ipue_fabric_local_destroy(md->fab);
	free(md->st);
	free(md);
}

static void model_close(struct ipu_device *dev)
{
	model_close_md(md_of(dev));
}

static int model_info(struct ipu_device *dev, struct ipu_device_info *out, struct ipu_error *err)
{
	struct model_dev *md = md_of(dev);

	(void)err;
	out->model = md->mi.model;
	out->tiles = md->mi.tiles;
	out->tile_memory = md->mi.tile_mem;
	out->total_memory = (uint64_t)md->mi.tiles * md->mi.tile_mem;
	out->threads_per_tile = md->mi.workers;
	out->clock_khz = md->mi.clock_khz;
	out->link_ports = ipu_model_by_id(md->mi.model)->link_ports;
	out->ipus = md->nipus;
	out->state = IPU_STATE_READY;
	snprintf(out->serial, sizeof(out->serial), "MODEL-%s", ipu_model_name(md->mi.model));
	snprintf(out->firmware_version, sizeof(out->firmware_version), "model");
	snprintf(out->driver_version, sizeof(out->driver_version), "libipudev %s", ipu_version());
	return 0;
}

static int model_reset(struct ipu_device *dev, unsigned timeout_ms, unsigned flags,
		       struct ipu_reset_result *out, struct ipu_error *err)
{
	struct model_dev *md = md_of(dev);

	(void)timeout_ms;
	(void)flags;
	(void)err;
	for (unsigned k = 0; k < md->nipus; k++)
		ipue_engine_reset(md->m[k]);
	md->active = 1;
	free(md->st);
	md->st = NULL;
	md->nst = 0;
	md->started = 0;
	out->state = IPU_STATE_READY;
	return 0;
}

/* tile memory in RAM now (every IPU's), as the card reports it after a LOAD */
static uint64_t committed_bytes(struct model_dev *md)
{
	struct ipue_mem_stats ms;
	uint64_t sum = 0;

	for (unsigned k = 0; k < md->active; k++) {
		ipue_mem_stats(md->m[k], &ms);
		sum += ms.tile_bytes_resident;
	}
	return sum;
}

/*
 * A multi-IPU binary: the other IPUs' engines load it too (IPU 0's checked
 * it, so they refuse only for host memory); a single-IPU one leaves them
 * empty. Returns an engine status.
 */
static int load_members(struct model_dev *md, const void *image, size_t size, unsigned eflags)
{
	int s = 0, ipus = ipue_graph_ipus(md->e, NULL);

	md->active = ipus > 1 ? (unsigned)ipus : 1;
	for (unsigned k = 1; k < md->active && !s; k++)
		s = ipue_load_ex(md->m[k], image, size, eflags, NULL);
	if (s) {
		for (unsigned k = 0; k < md->nipus; k++)
			ipue_engine_reset(md->m[k]);
		md->active = 1;
	}
	return s;
}

static int model_load(struct ipu_device *dev, const void *image, size_t size, unsigned flags,
		      struct ipu_load_info *info, struct ipu_error *err)
{
	struct model_dev *md = md_of(dev);
	struct ipue_load_error le;
	int s, n;

	memset(&le, 0, sizeof(le));
	free(md->st);
	md->st = NULL;
	md->nst = 0;
	md->started = 0;
	for (unsigned k = 1; k < md->nipus; k++)	/* the old graph goes, even if the new fails */
		ipue_engine_reset(md->m[k]);
	md->active = 1;
	s = ipue_load_ex(md->e, image, size,
			 (flags & IPU_LOAD_COMMIT_MEMORY) ? IPUE_LOAD_COMMIT : 0, &le);
	if (!s)
		s = load_members(md, image, size, (flags & IPU_LOAD_COMMIT_MEMORY) ? IPUE_LOAD_COMMIT : 0);
	if (s == IPUE_EFORMAT || s == IPUE_EMEMPLAN) {
		if (le.record != IPU_GRAPH_NONE)
			return ipu__err(err, ipu__engine_errno(s),
					"load on %s: graph rejected: %s record %u: %s", dev->name,
					le.section_name, le.record, le.message);
		return ipu__err(err, ipu__engine_errno(s), "load on %s: graph rejected: %s: %s",
				dev->name, le.section_name, le.message);
	}
	if (s == IPUE_EMODEL) {
		const struct ipu_graph_header *h = image;
		uint32_t gm = size >= sizeof(*h) ? h->model : 0;

		return ipu__err(err, ipu__engine_errno(s), "load on %s: the graph is built for model %s, "
				"the device is %s", dev->name, ipu_model_name(gm),
				ipu_model_name(md->mi.model));
	}
	if (s)
		return ipu__err(err, ipu__engine_errno(s), "load on %s: %s", dev->name, ipue_strerror(s));
	n = ipue_stream_count(md->e);
	if (n > 0) {
		md->st = calloc((size_t)n, sizeof(*md->st));
		if (!md->st) {
			for (unsigned k = 0; k < md->active; k++)
				ipue_engine_reset(md->m[k]);
			md->active = 1;
			return ipu__err(err, -ENOMEM, "load on %s: out of memory", dev->name);
		}
		md->nst = (unsigned)n;
		for (unsigned i = 0; i < md->nst; i++) {
			md->st[i].md = md;
			md->st[i].index = i;
		}
	}
	info->committed_bytes = committed_bytes(md);
	return 0;
}

static int need_graph(struct ipu_device *dev, const char *what, struct ipu_error *err)
{
	if (!ipue_loaded(md_of(dev)->e))
		return ipu__err(err, -ENOENT, "%s on %s: no graph loaded (ipu_load)", what, dev->name);
	return 0;
}

static int model_tensor_count(struct ipu_device *dev, struct ipu_error *err)
{
	int r = need_graph(dev, "tensors", err);

	return r ? r : ipue_handle_count(md_of(dev)->e);
}

static int model_tensor_info(struct ipu_device *dev, unsigned index, struct ipu_tensor_info *out,
			     struct ipu_error *err)
{
	struct ipue_tensor_info ti;
	int r = need_graph(dev, "tensor info", err);

	if (r)
		return r;
	if (ipue_handle_info(md_of(dev)->e, index, &ti))
		return ipu__err_index(err, dev, "tensor", index,
				      (unsigned)ipue_handle_count(md_of(dev)->e), "host-visible tensors");
	memset(out, 0, sizeof(*out));
	ipu__strlcpy(out->name, ti.name, sizeof(out->name));
	out->index = index;
	out->dtype = ti.dtype;
	out->rank = ti.rank;
	for (unsigned i = 0; i < ti.rank && i < 6; i++)
		out->shape[i] = ti.shape[i];
	out->elements = ti.elements;
	out->bytes = ti.bytes;
	out->access = ti.access;
	return 0;
}

/* every IPU holding the graph moves the bytes on its own tiles (multi-IPU: its part) */
static int model_tensor_write(struct ipu_device *dev, uint32_t tensor, uint64_t offset,
			      const void *src, size_t len, struct ipu_error *err)
{
	struct model_dev *md = md_of(dev);
	int s = 0;

	for (unsigned k = 0; k < md->active && !s; k++)
		s = ipue_tensor_write(md->m[k], tensor, offset, src, len);

	if (s)
		return ipu__err(err, ipu__engine_errno(s), "write of tensor %u on %s: %s", tensor,
				dev->name, ipue_strerror(s));
	return 0;
}

static int model_tensor_read(struct ipu_device *dev, uint32_t tensor, uint64_t offset, void *dst,
			     size_t len, struct ipu_error *err)
{
	struct model_dev *md = md_of(dev);
	int s = 0;

	for (unsigned k = 0; k < md->active && !s; k++)
		s = ipue_tensor_read(md->m[k], tensor, offset, dst, len);

	if (s)
		return ipu__err(err, ipu__engine_errno(s), "read of tensor %u on %s: %s", tensor,
				dev->name, ipue_strerror(s));
	return 0;
}

static int model_program_count(struct ipu_device *dev, struct ipu_error *err)
{
	int r = need_graph(dev, "programs", err);

	return r ? r : ipue_program_count(md_of(dev)->e);
}

static int model_program_name(struct ipu_device *dev, unsigned k, char *buf, size_t size,
			      struct ipu_error *err)
{
	const char *n;
	int r = need_graph(dev, "program name", err);

	if (r)
		return r;
	n = ipue_program_name(md_of(dev)->e, k);
	if (!n)
		return ipu__err_index(err, dev, "program", k,
				      (unsigned)ipue_program_count(md_of(dev)->e), "programs");
	ipu__strlcpy(buf, n, size);
	return 0;
}

static int tramp_fetch(void *user, unsigned stream, void *dst, size_t len)
{
	struct model_dev *md = user;

	if (stream >= md->nst || !md->st[stream].cb.fetch)
		return -1;
	return md->st[stream].cb.fetch(md->st[stream].cb.user, dst, len);
}

static int tramp_push(void *user, unsigned stream, const void *src, size_t len)
{
	struct model_dev *md = user;

	if (stream >= md->nst || !md->st[stream].cb.push)
		return -1;
	return md->st[stream].cb.push(md->st[stream].cb.user, src, len);
}

/* Stream @name of the loaded graph for @what: its index (*si filled), or an error. */
static int find_stream(struct ipu_device *dev, const char *name, const char *what,
		       struct ipue_stream_info *si, struct ipu_error *err)
{
	struct model_dev *md = md_of(dev);
	int s, r = need_graph(dev, what, err);

	if (r)
		return r;
	s = ipue_stream_find(md->e, name);
	if (s < 0 || (unsigned)s >= md->nst)
		return ipu__err(err, -ENOENT, "stream '%s' on %s: no such stream in the loaded graph",
				name, dev->name);
	ipue_stream_info(md->e, (unsigned)s, si);
	return s;
}

static int model_stream_connect(struct ipu_device *dev, const char *name,
				const struct ipu_stream_callbacks *cb, struct ipu_error *err)
{
	struct model_dev *md = md_of(dev);
	struct ipue_stream_info si;
	struct ipue_stream_callbacks ecb = { tramp_fetch, tramp_push, md };
	int r, s = find_stream(dev, name, "stream connect", &si, err);

	if (s < 0)
		return s;
	if (cb && si.direction == IPU_STREAM_HOST_TO_DEVICE && !cb->fetch)
		return ipu__err(err, -EINVAL, "stream '%s': host-to-device stream needs a fetch callback", name);
	if (cb && si.direction == IPU_STREAM_DEVICE_TO_HOST && !cb->push)
		return ipu__err(err, -EINVAL, "stream '%s': device-to-host stream needs a push callback", name);
	if (cb)
		md->st[s].cb = *cb;
	else
		memset(&md->st[s].cb, 0, sizeof(md->st[s].cb));
	/* on every IPU: the one holding a StreamCopy's tensor calls the callbacks */
	r = 0;
	for (unsigned k = 0; k < md->active && !r; k++)
		r = ipue_stream_connect(md->m[k], (unsigned)s, cb ? &ecb : NULL);
	if (r)
		return ipu__err(err, ipu__engine_errno(r), "stream '%s' on %s: %s", name, dev->name,
				ipue_strerror(r));
	return 0;
}

/* Ring callbacks: transfer i of the runs since the bind is slot i mod N. */
static uint8_t *ring_slot(struct model_stream *ms, size_t len)
{
	uint8_t *p;

	if (!ms->ring || len != ms->transfer)
		return NULL;
	p = ms->ring + (ms->pos % (ms->ring_bytes / ms->transfer)) * ms->transfer;
	ms->pos++;
	return p;
}

static int ring_fetch(void *user, void *dst, size_t len)
{
	uint8_t *p = ring_slot(user, len);

	if (!p)
		return -EIO;
	memcpy(dst, p, len);
	return 0;
}

static int ring_push(void *user, const void *src, size_t len)
{
	uint8_t *p = ring_slot(user, len);

	if (!p)
		return -EIO;
	memcpy(p, src, len);
	return 0;
}

static int model_stream_bind(struct ipu_device *dev, const char *name, struct ipu_buffer *buf,
			     size_t offset, size_t bytes, struct ipu_error *err)
{
	struct model_dev *md = md_of(dev);
	struct ipu_stream_callbacks cb = { ring_fetch, ring_push, NULL };
	struct ipue_stream_info si;
	struct model_stream *ms;
	int r, s = find_stream(dev, name, "stream bind", &si, err);

	if (s < 0)
		return s;
	ms = &md->st[s];
	if (buf) {
		if (!bytes || !si.bytes || bytes % si.bytes)
			return ipu__err(err, -EINVAL,
					"stream '%s' on %s: a ring of %zu bytes is not a whole number of %llu-byte transfers",
					name, dev->name, bytes, (unsigned long long)si.bytes);
		if (offset > ipu_buffer_size(buf) || bytes > ipu_buffer_size(buf) - offset)
			return ipu__err(err, -ERANGE,
					"stream '%s' on %s: offset %zu + %zu bytes is beyond the buffer's %zu bytes",
					name, dev->name, offset, bytes, ipu_buffer_size(buf));
	}
	r = model_stream_connect(dev, name, buf ? &cb : NULL, err);
	if (r)
		return r;
	ms->ring = buf ? (uint8_t *)ipu_buffer_ptr(buf) + offset : NULL;
	ms->ring_bytes = buf ? bytes : 0;
	ms->transfer = si.bytes;
	ms->pos = 0;
	ms->cb.user = ms;
	return 0;
}

/* one IPU's run of a multi-IPU graph, on its own thread, once every thread exists */
struct member_gate {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	int go;				/* 0 wait, 1 run, -1 do not */
};

struct member_run {
	struct member_gate *gate;
	struct ipue_engine *e;
	const struct ipue_run_opts *o;
	struct ipue_run_stats st;
	int status;
};

static void *member_main(void *arg)
{
	struct member_run *m = arg;
	int go;

	pthread_mutex_lock(&m->gate->lock);
	while (!m->gate->go)
		pthread_cond_wait(&m->gate->cv, &m->gate->lock);
	go = m->gate->go;
	pthread_mutex_unlock(&m->gate->lock);
	if (go > 0)
		m->status = ipue_run(m->e, m->o, &m->st);
	return NULL;
}

static void gate_open(struct member_gate *g, int go)
{
	pthread_mutex_lock(&g->lock);
	g->go = go;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->lock);
}

/*
 * Run on every engine holding the graph: IPU 0 here, the others on threads
 * of their own, started together once all threads exist (a member that
 * never runs would hold the others at their first barrier); done when all
 * are (a failing IPU ends the others' runs). IPU 0's status and stats stand
 * for the run: every IPU reports the same cycles. Returns an engine status.
 */
static int run_members(struct model_dev *md, const struct ipue_run_opts *o,
		       struct ipue_run_stats *es)
{
	struct member_gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	struct member_run m[IPU_GRAPH_MAX_IPUS];
	pthread_t th[IPU_GRAPH_MAX_IPUS];
	unsigned started = 1;
	int s = IPUE_ENOMEM;

	for (; started < md->active; started++) {
		m[started] = (struct member_run){ .gate = &gate, .e = md->m[started], .o = o };
		if (pthread_create(&th[started], NULL, member_main, &m[started]))
			break;
	}
	gate_open(&gate, started == md->active ? 1 : -1);
	memset(es, 0, sizeof(*es));
	if (started == md->active)
		s = ipue_run(md->e, o, es);
	for (unsigned k = 1; k < started; k++)
		pthread_join(th[k], NULL);
	pthread_cond_destroy(&gate.cv);
	pthread_mutex_destroy(&gate.lock);
	return s;
}

static void copy_stats(struct model_dev *md, const struct ipue_run_stats *es)
{
	memset(&md->stats, 0, sizeof(md->stats));
	md->stats.host_ns = es->host_ns;
	md->stats.cycles = es->cycles;
	md->stats.cycles_compute = es->cycles_compute;
	md->stats.cycles_sync = es->cycles_sync;
	md->stats.cycles_exchange = es->cycles_exchange;
	md->stats.cycles_stream = es->cycles_stream;
	md->stats.steps = es->steps;
	md->stats.compute_sets = es->compute_sets;
	md->stats.exchanges = es->exchanges;
	md->stats.syncs = es->syncs;
	md->stats.exchange_bytes = es->exchange_bytes;
	md->stats.stream_bytes_h2d = es->stream_bytes_h2d;
	md->stats.stream_bytes_d2h = es->stream_bytes_d2h;
	md->stats.clock_khz = md->mi.clock_khz;
}

/* the memory checker's message: the IPU that failed has it */
static const char *memcheck_message(struct model_dev *md)
{
	for (unsigned k = 0; k < md->active; k++)
		if (ipue_memcheck_message(md->m[k]))
			return ipue_memcheck_message(md->m[k]);
	return "";
}

/* md->msg for a failed run with engine status @s of program @program (@what names it) */
static void run_message(struct model_dev *md, int s, const char *what)
{
	if (s == IPUE_EABORT) {
		uint32_t code = 0, node = 0;

		ipue_abort_status(md->e, &code, &node);
		snprintf(md->msg, sizeof(md->msg),
			 "%s: aborted by AbortOnCondition with code %u (program node %u)", what, code, node);
	} else if (s == IPUE_EUNWRITTEN) {
		uint32_t h = 0;
		struct ipue_tensor_info ti;
		struct ipu_error ue;

		ipue_unwritten_status(md->e, &h);
		ti.name = "";
		ipue_handle_info(md->e, h, &ti);
		ipu__unwritten_err(&ue, what, ti.name);
		snprintf(md->msg, sizeof(md->msg), "%s", ue.msg);
	} else if (s == IPUE_EMEMACCESS) {
		snprintf(md->msg, sizeof(md->msg), "%s: memory check: %s", what, memcheck_message(md));
	} else if (s == IPUE_ELINK) {
		uint32_t link = IPUE_LINK_NONE;

		ipue_link_status(md->e, &link);
		snprintf(md->msg, sizeof(md->msg), "%s: run failed: %s: IPU %u port %u", what,
			 ipue_strerror(s), IPUE_LINK_IPU(link), IPUE_LINK_PORT(link));
	} else if (s) {
		/* as the card backend words RUN_FAILED */
		snprintf(md->msg, sizeof(md->msg), "%s: run failed: %s", what, ipue_strerror(s));
	}
}

/* Runs to completion here whether or not @finish asks for it. */
static int model_run(struct ipu_device *dev, uint32_t program, uint32_t count, int finish,
		     struct ipu_error *err)
{
	struct model_dev *md = md_of(dev);
	struct ipue_run_opts o = { program, 0, count, 0 };
	struct ipue_run_stats es;
	const char *pname;
	char what[160];
	int s, r = need_graph(dev, "run", err);

	(void)finish;

	if (r)
		return r;
	if (md->started)
		return ipu__err(err, -EBUSY, "run on %s: a run was started and not waited for", dev->name);
	if ((int)program >= ipue_program_count(md->e))
		return ipu__err(err, -ERANGE, "run on %s: program %u does not exist (the graph has %d programs)",
				dev->name, program, ipue_program_count(md->e));
	pname = ipue_program_name(md->e, program);
	memset(&es, 0, sizeof(es));
	s = md->active > 1 ? run_members(md, &o, &es) : ipue_run(md->e, &o, &es);
	copy_stats(md, &es);
	md->started = 1;
	md->status = ipu__engine_errno(s);
	md->msg[0] = 0;
	snprintf(what, sizeof(what), "program %u ('%s') on %s", program, pname ? pname : "",
		 dev->name);
	run_message(md, s, what);
	return 0;
}

static int model_wait(struct ipu_device *dev, unsigned timeout_ms, struct ipu_error *err)
{
	struct model_dev *md = md_of(dev);

	(void)timeout_ms;
	if (!md->started)
		return ipu__err(err, -EINVAL, "wait on %s: no run was started", dev->name);
	md->started = 0;
	if (md->status)
		return ipu__err(err, md->status, "%s", md->msg);
	return 0;
}

static void model_run_stats(struct ipu_device *dev, struct ipu_run_stats *out)
{
	*out = md_of(dev)->stats;
}

static const struct ipu_backend_ops model_ops = {
	.name = "model",
	.close = model_close,
	.info = model_info,
	.reset = model_reset,
	.load = model_load,
	.tensor_write = model_tensor_write,
	.tensor_read = model_tensor_read,
	.run = model_run,
	.wait = model_wait,
	.tensor_count = model_tensor_count,
	.tensor_info = model_tensor_info,
	.program_count = model_program_count,
	.program_name = model_program_name,
	.stream_connect = model_stream_connect,
	.stream_bind = model_stream_bind,
	.run_stats = model_run_stats,
};

/* md's engines (and fabric, for several IPUs); an engine status */
static int make_engines(struct model_dev *md, const struct ipue_config *cfg, const char *topology)
{
	int s = 0;

	if (md->nipus > 1)
		s = ipue_fabric_local_create(topology, md->nipus, ipu_model_by_id(cfg->model)->link_ports,
					     &md->fab);
	for (unsigned k = 0; k < md->nipus && !s; k++) {
		s = ipue_engine_create(cfg, &md->m[k]);
		if (!s && md->fab)
			s = ipue_fabric_local_join(md->fab, (1ull << md->nipus) - 1, k, md->m[k]);
	}
	md->e = md->m[0];
	md->active = 1;
	return s;
}

/* the online cores shared by @ipus IPUs' engines, at least 1 each */
static unsigned cores_per(unsigned ipus)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);

	return c > (long)ipus ? (unsigned)(c / (long)ipus) : 1;
}

/* the default topology of @ipus IPUs: an M2000, a POD16, else a ring */
static const char *default_topology(unsigned ipus)
{
	return ipus == 4 ? "m2000" : ipus == 16 ? "pod16" : "ring";
}

int ipu__model_open_multi(const char *model, unsigned ipus, const char *topology,
			  unsigned host_threads, unsigned flags, struct ipu_device **out,
			  struct ipu_error *err)
{
	struct ipue_config cfg;
	struct model_dev *md;
	uint32_t id;
	char name[48], names[64];
	int s, r;

	if (!out)
		return ipu__err(err, -EINVAL, "ipu_model_open: out is NULL");
	*out = NULL;
	if (ipu_model_from_name(model, &id))
		return ipu__err(err, -EINVAL, "ipu_model_open: unknown model '%s' (%s)",
				model ? model : "(null)", ipu_model_names(names, sizeof(names)));
	if (flags & ~IPU__MODEL_MEMCHECK)
		return ipu__err(err, -EINVAL, "ipu_model_open: unknown flags 0x%x", flags);
	if (host_threads > IPUE_MAX_HOST_THREADS)
		return ipu__err(err, -EINVAL, "ipu_model_open: %u host threads, at most %d", host_threads,
				IPUE_MAX_HOST_THREADS);
	if (!ipu_graph_ipus_ok(ipus))
		return ipu__err(err, -EINVAL, "ipu_model_open_multi: %u IPUs, a model has 1, 2, 4, 8 or 16",
				ipus);
	if (!topology)
		topology = default_topology(ipus);
	md = calloc(1, sizeof(*md));
	if (!md)
		return ipu__err(err, -ENOMEM, "ipu_model_open: out of memory");
	memset(&cfg, 0, sizeof(cfg));
	cfg.model = id;
	/* 0: the online cores shared by the IPUs (the engine's default for one) */
	cfg.host_threads = host_threads || ipus == 1 ? host_threads : cores_per(ipus);
	cfg.flags = (flags & IPU__MODEL_MEMCHECK) ? IPUE_CONFIG_MEMCHECK : 0;
	md->nipus = ipus;
	s = make_engines(md, &cfg, topology);
	if (s) {
		model_close_md(md);
		if (s == IPUE_EINVAL)
			return ipu__err(err, -EINVAL, "ipu_model_open_multi: topology '%s' does not take %u IPUs "
					"of model %s (m2000: 4, pod16: 16, ring: 2 or more)",
					topology, ipus, model);
		return ipu__err(err, ipu__engine_errno(s), "ipu_model_open %s: %s", model, ipue_strerror(s));
	}
	ipue_model_info(md->e, &md->mi);
	if (ipus > 1)
		snprintf(name, sizeof(name), "model-%s-x%u", ipu_model_name(id), ipus);
	else
		snprintf(name, sizeof(name), "model-%s", ipu_model_name(id));
	r = ipu__device_new(&model_ops, md, 0, 0, name, out, err);
	if (r)
		model_close_md(md);
	return r;
}

int ipu__model_open(const char *model, unsigned host_threads, unsigned flags,
		    struct ipu_device **out, struct ipu_error *err)
{
	return ipu__model_open_multi(model, 1, NULL, host_threads, flags, out, err);
}

IPU_API int ipu_model_open(const char *model, unsigned host_threads, struct ipu_device **out,
			   struct ipu_error *err)
{
	return ipu__model_open(model, host_threads, 0, out, err);
}

IPU_API int ipu_model_open_multi(const char *model, unsigned ipus, const char *topology,
				 unsigned host_threads, struct ipu_device **out,
				 struct ipu_error *err)
{
	return ipu__model_open_multi(model, ipus, topology, host_threads, 0, out, err);
}

int ipu__model_set_link(struct ipu_device *dev, unsigned ipu, unsigned port, int up,
			struct ipu_error *err)
{
	struct model_dev *md = dev && dev->ops == &model_ops ? md_of(dev) : NULL;
	int s;

	if (!md || !md->fab)
		return ipu__err(err, -EINVAL, "set link: not a model device of several IPUs");
	s = ipue_fabric_local_set_link(md->fab, ipu, port, up);
	if (s)
		return ipu__err(err, ipu__engine_errno(s), "set link IPU %u port %u on %s: %s", ipu, port,
				dev->name, s == IPUE_ERANGE ? "no such IPU or port" : "not wired");
	return 0;
}

int ipu__model_fabric(struct ipu_device *dev, const struct ipue_fabric_local **fab,
		      unsigned *ipus, unsigned *ports, struct ipu_error *err)
{
	struct model_dev *md = dev && dev->ops == &model_ops ? md_of(dev) : NULL;

	if (!md)
		return ipu__err(err, -EINVAL, "%s: not a model device", dev ? dev->name : "(null)");
	*fab = md->fab;
	*ipus = md->nipus;
	*ports = ipu_model_by_id(md->mi.model)->link_ports;
	return 0;
}
