// SPDX-License-Identifier: MIT
/*
 * libipudev, card backend: runs. A run goes to the context's user queue
 * (uAPI 1.2, card_uqueue.c) when the driver has one, else through SUBMIT;
 * ipu__card_wait() collects it and keeps its outcome, whose stats come
 * from the completion and the card's run record (struct ipu_run_counters
 * of SUBMIT and WAIT, the user queue's record ring).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/ipu.h>

#include "card.h"
#include "ipu/ipu_hw.h"

/*
 * The user queue and the kernel queue (SUBMIT) are ordered only within
 * themselves, so the library keeps the order of a single queue:
 *  - a run sees every write started before it: synchronous transfers are
 *    complete when they return; while asynchronous kernel-queue requests
 *    are in flight, the run goes through SUBMIT (uq_usable());
 *  - a kernel-queue command issued while a user-queue run is in flight
 *    runs after it: ipu__card_submit() first consumes the run's completion
 *    (ipu__card_uq_settle()) and keeps the outcome for ipu_wait().
 */

/* "program 0 ('empty') on ipu0", for messages about the run */
static void run_what(struct ipu_device *dev, const struct ipu__cmd_ctx *x,
		     char *w, size_t size)
{
	snprintf(w, size, "program %u ('%s') on %s", x->handle,
		 x->program ? x->program : "", dev->name);
}

/* the card's run record as the uAPI's counters */
static void counters_of_record(struct ipu_run_counters *o,
			       const struct ipu_run_record *r)
{
	o->cycles_compute = r->cycles_compute;
	o->cycles_sync = r->cycles_sync;
	o->cycles_exchange = r->cycles_exchange;
	o->cycles_stream = r->cycles_stream;
	o->steps = r->steps;
	o->compute_sets = r->compute_sets;
	o->exchanges = r->exchanges;
	o->syncs = r->syncs;
	o->exchange_bytes = r->exchange_bytes;
	o->stream_bytes_h2d = r->stream_bytes_h2d;
	o->stream_bytes_d2h = r->stream_bytes_d2h;
}

/*
 * Consume the next completion of the user queue: the run's (its outcome
 * and run record go to run_result, run_done set) or one of a run the
 * library forgot
 * (a load meanwhile). A queue that is gone (POLLERR: a card reset, or a
 * detach) completes the run with IPU_STATUS_RESET, as the kernel queue does
 * for a command a reset dropped, and is created again at the next run.
 * Returns 0, or -ETIMEDOUT / -EINTR (nothing consumed; only with
 * @timeout_ms, 0 = no limit).
 */
static int uq_collect(struct ipu_device *dev, unsigned timeout_ms)
{
	struct ipu__card *c = ipu__card_of(dev);
	int mine = c->run_started && c->run_uq && !c->run_done;
	struct ipu_run_record rec;
	struct ipu_cqe e;
	int r = -ENODEV;

	if (c->uq.pending)
		r = ipu__uq_wait(&c->uq, c->fd, IPU__UQ_SPIN_US, timeout_ms, &e,
				 &rec);
	if (r == -ETIMEDOUT || r == -EINTR)
		return r;
	if (r) {
		ipu__uq_lost(&c->uq);
		memset(&e, 0, sizeof(e));
		memset(&rec, 0, sizeof(rec));
		e.cid = c->run_cid;
		e.status = (uint16_t)(IPU_STATUS_RESET << 1);
	}
	if (!mine)
		return 0;
	c->run_done = 1;
	if (e.cid != c->run_cid) {
		/* a completion that is not the run's: the queue cannot be
		 * trusted any more; SUBMIT from now on */
		c->run_result.status = IPU__STATUS_UQ_CID;
		c->run_result.detail = e.cid;
		c->run_result.detail2 = c->run_cid;
		c->run_result.host_ns = c->run_result.cycles = 0;
		memset(&c->run_result.run, 0, sizeof(c->run_result.run));
		ipu__uq_close(&c->uq, "a completion with an unexpected command id");
		return 0;
	}
	c->run_result.status = IPU_CQE_CODE(e.status);
	c->run_result.detail = e.detail;
	c->run_result.detail2 = e.detail2;
	c->run_result.host_ns = e.host_ns;
	c->run_result.cycles = e.cycles;
	counters_of_record(&c->run_result.run, &rec);
	return 0;
}

void ipu__card_uq_settle(struct ipu_device *dev)
{
	struct ipu__card *c = ipu__card_of(dev);

	while (c->uq.pending)
		uq_collect(dev, 0);
}

/*
 * Whether this run goes to the user queue; creates the queue at the first
 * run after attach, and again at the first after a reset. When it cannot
 * be created, every run goes through SUBMIT from then on (the reason stays
 * in c->uq.why), except after errors that pass: this run only. Those are
 * -EIO (the card is not ready yet), -EEXIST (a reset this process started
 * has not stopped the old queue yet), -EINTR, -EAGAIN.
 */
static int uq_usable(struct ipu__card *c)
{
	int r;

	if (c->runq_mode == IPU__RUNQ_KERNEL || c->uq.state == IPU__UQ_OFF)
		return 0;
	/*
	 * Asynchronous kernel-queue requests in flight (tensor_*_async not yet
	 * collected by ipu_request_wait): the run goes through SUBMIT, behind
	 * them on the kernel queue, exactly as before user queues. Waiting for
	 * them here instead would collect their completions (WAIT collects a
	 * completion once), which the library would then have to keep for
	 * ipu_request_wait(), and would turn ipu_run_start() into a call that
	 * blocks on transfers the caller chose not to wait for.
	 */
	if (c->async_inflight)
		return 0;
	if (c->uq.state == IPU__UQ_READY)
		return 1;
	r = ipu__uq_open(&c->uq, c->fd);
	if (!r)
		return 1;
	if (r != -EIO && r != -EEXIST && r != -EINTR && r != -EAGAIN)
		ipu__uq_close(&c->uq, NULL);
	return 0;
}

/* Start the run on the user queue; with @finish complete it too. Returns 0,
 * or -EAGAIN when the ring has no room (the caller uses SUBMIT). */
static int uq_run(struct ipu_device *dev, uint32_t program, uint32_t count,
		  int finish)
{
	struct ipu__card *c = ipu__card_of(dev);
	struct ipu_sqe e;
	int cid;

	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.handle = program;
	e.count = count;
	cid = ipu__uq_post(&c->uq, &e);
	if (cid < 0)
		return cid;
	c->run_started = 1;
	c->run_uq = 1;
	c->run_cid = (uint16_t)cid;
	c->run_program = program;
	c->have_result = 0;
	if (finish)
		uq_collect(dev, 0);	/* no limit: always completes */
	return 0;
}

/*
 * Whether @program may start on @dev now (a graph loaded, no run waiting
 * to be collected, the program exists); 0 with the run state cleared and
 * the user queue settled, or -errno in @err.
 */
static int run_begin(struct ipu_device *dev, uint32_t program,
		     struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);
	int r = ipu__card_need_loaded(dev, "run", err);

	if (r)
		return r;
	if (c->run_started)
		return ipu__err(err, -EBUSY,
				"run on %s: a run was started and not waited for",
				dev->name);
	if (program >= c->g.nprograms)
		return ipu__err(err, -ERANGE,
				"run on %s: program %u does not exist (the graph has %u programs)",
				dev->name, program, c->g.nprograms);
	c->run_done = 0;
	c->run_uq = 0;
	ipu__card_uq_settle(dev);		/* nothing is left in flight there, normally */
	return 0;
}

/*
 * A group RUN (uAPI 1.7, IPU_CMD_FLAG_GROUP) of @program on @dev, the
 * group leader (the file that did GROUP_ATTACH): the driver runs it on
 * every member and posts one completion on @dev, which ipu__card_wait()
 * collects (the cause's status; the member it came from in the result's
 * `member`). Always through SUBMIT (ASYNC): user queues are per card.
 * 0 or -errno in @err.
 */
int ipu__card_run_group(struct ipu_device *dev, uint32_t program,
			uint32_t count, struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);
	struct ipu_cmd cmd;
	int r = run_begin(dev, program, err);

	if (r)
		return r;
	ipu__card_cmd_init(&cmd, IPU_CMD_RUN);
	cmd.flags = IPU_CMD_FLAG_ASYNC | IPU_CMD_FLAG_GROUP;
	cmd.handle = program;
	cmd.count = count;
	if (ioctl(c->fd, IPU_IOCTL_SUBMIT, &cmd))
		return ipu__card_ioctl_err(dev, "SUBMIT", "group run", errno, err);
	c->run_started = 1;
	c->run_seq = cmd.seq;
	c->run_program = program;
	c->have_result = 0;
	return 0;
}

/*
 * Start @program; with @finish complete it too when that is cheaper (the
 * caller waits next anyway): on the user queue the wait for its completion,
 * on the kernel queue a synchronous SUBMIT, which completes it here unless
 * a signal interrupts the wait: the command then stays in flight and
 * ipu__card_wait() collects it by seq.
 */
int ipu__card_run(struct ipu_device *dev, uint32_t program, uint32_t count,
		  int finish, struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);
	struct ipu_cmd cmd;
	int r = run_begin(dev, program, err);

	if (r)
		return r;
	if (uq_usable(c) && !uq_run(dev, program, count, finish))
		return 0;
	ipu__card_cmd_init(&cmd, IPU_CMD_RUN);
	cmd.flags = finish ? 0 : IPU_CMD_FLAG_ASYNC;
	cmd.handle = program;
	cmd.count = count;
	if (ioctl(c->fd, IPU_IOCTL_SUBMIT, &cmd) == 0) {
		c->run_done = finish;
	} else if (!(finish && errno == EINTR && cmd.seq)) {
		return ipu__card_ioctl_err(dev, "SUBMIT", "run", errno, err);
	}
	if (c->run_done) {
		c->run_result.status = cmd.status;
		c->run_result.detail = cmd.detail;
		c->run_result.detail2 = cmd.detail2;
		c->run_result.host_ns = cmd.host_ns;
		c->run_result.cycles = cmd.cycles;
		c->run_result.run = cmd.run;
	}
	c->run_started = 1;
	c->run_seq = cmd.seq;
	c->run_program = program;
	c->have_result = 0;
	return 0;
}

/*
 * The stats of a collected run: host time and cycles from the completion,
 * the rest from the card's run record (wt->run: zeros on a driver or card
 * before run records, where steps come from the completion's detail as
 * before and the per-phase counters stay 0).
 */
static void run_stats_fill(struct ipu_run_stats *s, const struct ipu_wait *wt,
			   uint32_t clock_khz)
{
	const struct ipu_run_counters *k = &wt->run;

	memset(s, 0, sizeof(*s));
	s->host_ns = wt->host_ns;
	s->cycles = wt->cycles;
	s->cycles_compute = k->cycles_compute;
	s->cycles_sync = k->cycles_sync;
	s->cycles_exchange = k->cycles_exchange;
	s->cycles_stream = k->cycles_stream;
	s->steps = k->steps ? k->steps
		 : wt->status == IPU_STATUS_OK ? wt->detail : 0;
	s->compute_sets = k->compute_sets;
	s->exchanges = k->exchanges;
	s->syncs = k->syncs;
	s->exchange_bytes = k->exchange_bytes;
	s->stream_bytes_h2d = k->stream_bytes_h2d;
	s->stream_bytes_d2h = k->stream_bytes_d2h;
	s->clock_khz = clock_khz;
}

/* The run's description for messages (only built when one is needed). */
static void run_ctx(struct ipu_device *dev, const struct ipu__card *c,
		    struct ipu__cmd_ctx *x)
{
	memset(x, 0, sizeof(*x));
	x->dev = dev->name;
	x->opcode = IPU_CMD_RUN;
	x->handle = c->run_program;
	x->program = c->loaded && c->run_program < c->g.nprograms
		     ? c->g.programs[c->run_program] : NULL;
}

int ipu__card_wait(struct ipu_device *dev, unsigned timeout_ms,
		   struct ipu_error *err)
{
	struct ipu__card *c = ipu__card_of(dev);
	const struct ipu_wait *res;
	struct ipu__cmd_ctx x;
	char w[160];
	int r = 0;

	if (!c)
		return ipu__card_not_open(dev, "wait", err);
	res = &c->run_result;	/* not before the check: &NULL->m is undefined */
	if (!c->run_started)
		return ipu__err(err, -EINVAL, "wait on %s: no run was started",
				dev->name);
	if (c->run_uq && !c->run_done) {
		r = uq_collect(dev, timeout_ms);
		if (r) {	/* the run goes on */
			run_ctx(dev, c, &x);
			run_what(dev, &x, w, sizeof(w));
			if (r == -ETIMEDOUT)
				return ipu__err(err, r, "%s: still running after %u ms",
						w, timeout_ms);
			return ipu__err(err, -EINTR,
					"%s: interrupted while waiting (the command goes on)",
					w);
		}
	}
	if (!c->run_done) {
		run_ctx(dev, c, &x);
		run_what(dev, &x, w, sizeof(w));
		r = ipu__card_wait_seq(dev, c->run_seq, timeout_ms, &c->run_result, w,
			     err);
		if (r == -ETIMEDOUT)
			return ipu__err(err, r, "%s: still running after %u ms",
					w, timeout_ms);
	}
	c->run_started = 0;
	c->run_done = 0;
	c->run_uq = 0;
	if (r)
		return r;
	c->have_result = 1;
	if (res->status == IPU_STATUS_OK)
		return 0;
	run_ctx(dev, c, &x);
	if (res->status == IPU__STATUS_UQ_CID) {
		c->have_result = 0;
		run_what(dev, &x, w, sizeof(w));
		return ipu__err(err, -EPROTO,
				"%s: the user queue completed command id %u, not the run's %u (runs go through SUBMIT from now on)",
				w, res->detail, res->detail2);
	}
	if (res->status == IPU_STATUS_UNWRITTEN_INPUT && res->detail < c->g.nhandles)
		x.tensor = c->g.handles[res->detail].name;
	return ipu__card_status_err(err, &x, res->status, res->detail,
				    res->detail2);
}

/* The stats of the last run waited for (zeros before any). */
void ipu__card_run_stats(struct ipu_device *dev, struct ipu_run_stats *out)
{
	struct ipu__card *c = ipu__card_of(dev);

	if (!c || !c->have_result) {
		memset(out, 0, sizeof(*out));
		return;
	}
	run_stats_fill(out, &c->run_result, c->clock_khz);
}

uint32_t ipu__card_run_member(struct ipu_device *dev)
{
	return ipu__card_of(dev)->run_result.member;
}
