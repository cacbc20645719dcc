// SPDX-License-Identifier: MIT
/*
 * In-VM test: runs through the user queue (uAPI 1.2) and through SUBMIT
 * (IPUDEV_RUNQ=kernel) on the first card, with every result checked on the
 * host (a Repeat loop acc += x over small integers, exact in f32):
 *   - which path the library takes (the doorbell page is mapped or not);
 *   - 2000 runs in a row, and 50 rounds of write, run, read;
 *   - ordering with the kernel queue: asynchronous writes before a run, a
 *     write and a read issued while a run is in flight (they execute after
 *     it), run_start + read before ipu_wait;
 *   - the run stats (the card's run records) equal the model device's, for
 *     ipu_run and for ipu_run_start + ipu_wait;
 *   - ipu_wait with a timeout on a long run;
 *   - resets: ipu_device_reset, and the RESET ioctl from another file
 *     during a run and while idle (in a child process): the run reports
 *     the reset, the next one works.
 * KTAP on stdout.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec_common.h"

#define CAP_USER_QUEUES	(1u << 3)	/* CAPS bit 3 (ipu/ipu_hw.h) */
#define API_1_2		0x00010002u
#define L		256		/* elements of acc and x */
#define ITERS		1000		/* Repeat count of the long graph */
#define TESTS_PER_MODE	13	/* mode_tests() and idle_reset_test() */
#define LONG_TESTS	6	/* mode_tests() on the long graph */

static struct ipu_error e;
static uint64_t seed = 0x5eed0fba11ull;

struct ctx {
	unsigned id;
	uint32_t model;
	int kernel;		/* IPUDEV_RUNQ=kernel */
	int has_uq;		/* driver and card offer user queues */
	const char *mode;	/* for the test names */
	void *bin1, *binl;	/* loop graphs: Repeat(1), Repeat(ITERS) */
	size_t len1, lenl;
	unsigned count;		/* runs of the long graph for ~300 ms */
};

static int open_card(const struct ctx *t, struct ipu_device **d)
{
	int r;

	if (t->kernel)
		setenv("IPUDEV_RUNQ", "kernel", 1);
	else
		unsetenv("IPUDEV_RUNQ");
	r = ipu_device_open(t->id, IPU_OPEN_ATTACH, d, &e);
	unsetenv("IPUDEV_RUNQ");
	return r;
}

/* Is a doorbell page of an ipu device mapped (write-only, shared)? */
static int doorbell_mapped(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " -w-s ") && strstr(line, "/dev/ipu"))
			found = 1;
	fclose(f);
	return found;
}

static void rand_ints(float *p, size_t n, int lo, int hi)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (float)(lo + (int)(rnd64(&seed) % (uint64_t)(hi - lo + 1)));
}

/* load @bin and write acc and x */
static int setup(struct ipu_device *d, const void *bin, size_t len, const float *acc,
		 const float *x)
{
	int r = ipu_load(d, bin, len, &e);

	if (!r)
		r = ipu_tensor_write(d, "acc", acc, sizeof(float) * L, &e);
	if (!r)
		r = ipu_tensor_write(d, "x", x, sizeof(float) * L, &e);
	return r;
}

/* acc on the card == @want? 0, or -1 with @why */
static int acc_is(struct ipu_device *d, const float *want, char *why, size_t n)
{
	float got[L];
	int r = ipu_tensor_read(d, "acc", got, sizeof(got), &e);

	if (r) {
		snprintf(why, n, "read: %s", e.msg);
		return -1;
	}
	for (unsigned i = 0; i < L; i++)
		if (got[i] != want[i]) {
			snprintf(why, n, "acc[%u] = %g, want %g", i, got[i], want[i]);
			return -1;
		}
	return 0;
}

static void add(float *acc, const float *x, uint64_t times)
{
	for (unsigned i = 0; i < L; i++)
		acc[i] += (float)((double)x[i] * (double)times);
}

/*
 * Load @bin on @d, write @acc and @x, run it @count times (with @async:
 * ipu_run_start + ipu_wait), its stats into @st. 0 or the error.
 */
static int stats_run(struct ipu_device *d, const void *bin, size_t len, const float *acc,
		     const float *x, unsigned count, int async, struct ipu_run_stats *st)
{
	int r = setup(d, bin, len, acc, x);

	memset(st, 0, sizeof(*st));
	if (!r && !async)
		r = ipu_run(d, 0, count, st, &e);
	if (!r && async) {
		r = ipu_run_start(d, 0, count, &e);
		if (!r)
			r = ipu_wait(d, 0, st, &e);
	}
	return r;
}

/*
 * The card's run stats equal the model device's for the same runs: the
 * Repeat(1) graph 5 times with ipu_run, the long graph twice with
 * ipu_run_start + ipu_wait. One result.
 */
static void stats_test(struct ctx *t, struct ipu_device *d)
{
	struct ipu_device *md = NULL;
	struct ipu_run_stats sc, sm;
	float acc[L], x[L];
	char why[sizeof(e.msg) + 64] = "";
	int ok = 1;

	rand_ints(acc, L, -100, 100);
	rand_ints(x, L, -3, 3);
	if (ipu_model_open(ipu_model_name(t->model), 1, &md, &e)) {
		kt_result(0, "%s: run stats equal the model's # model: %s", t->mode, e.msg);
		return;
	}
	for (int async = 0; async < 2 && ok; async++) {
		const void *bin = async ? t->binl : t->bin1;
		size_t len = async ? t->lenl : t->len1;
		unsigned count = async ? 2 : 5;
		const char *how = async ? "run_start + wait" : "ipu_run";

		if (stats_run(d, bin, len, acc, x, count, async, &sc)) {
			snprintf(why, sizeof(why), "%s on the card: %s", how, e.msg);
			ok = 0;
		} else if (stats_run(md, bin, len, acc, x, count, async, &sm)) {
			snprintf(why, sizeof(why), "%s on the model: %s", how, e.msg);
			ok = 0;
		} else {
			size_t k = (size_t)snprintf(why, sizeof(why), "%s: ", how);

			if (stats_differ(&sc, &sm, why + k, sizeof(why) - k))
				ok = 0;
		}
	}
	kt_result(ok, "%s: run stats equal the model device's (ipu_run, and ipu_run_start + ipu_wait)%s%s",
		  t->mode, ok ? "" : " # ", ok ? "" : why);
	ipu_device_close(md);
}

/* Tests 1 to 3, on the short graph: the path, 2000 runs, write-run-read. */
static void short_graph_runs(struct ctx *t, struct ipu_device *d, float *acc, float *x)
{
	struct ipu_run_stats st;
	char why[sizeof(e.msg) + 64] = "";
	int r, ok;

	/* 1: the path */
	rand_ints(acc, L, -100, 100);
	rand_ints(x, L, -3, 3);
	r = setup(d, t->bin1, t->len1, acc, x);
	if (!r)
		r = ipu_run(d, 0, 1, &st, &e);
	if (r) {
		snprintf(why, sizeof(why), "first run: %s", e.msg);
		kt_result(0, "%s: first run # %s", t->mode, e.msg);
	} else {
		int m = doorbell_mapped();

		add(acc, x, 1);
		if (t->kernel)
			kt_result(m == 0, "%s: runs go through SUBMIT (no doorbell page mapped)",
				  t->mode);
		else if (t->has_uq)
			kt_result(m == 1, "%s: runs go through the user queue (doorbell page mapped)",
				  t->mode);
		else
			kt_skip("runs go through the user queue",
				"the driver does not report uAPI 1.2 or the card has no user queues");
	}

	/* 2: 2000 runs, checked every 250 */
	ok = !r;
	for (unsigned i = 1; ok && i <= 2000; i++) {
		ok = !ipu_run(d, 0, 1, &st, &e) && st.steps > 0;
		if (!ok)
			snprintf(why, sizeof(why), "run %u: %s", i, e.msg);
		add(acc, x, 1);
		if (ok && i % 250 == 0 && acc_is(d, acc, why, sizeof(why)))
			ok = 0;
	}
	kt_result(ok, "%s: 2000 runs in a row, acc checked every 250%s%s", t->mode,
		  ok ? "" : " # ", ok ? "" : why);

	/* 3: write, run, read */
	ok = 1;
	for (unsigned i = 0; ok && i < 50; i++) {
		rand_ints(x, L, -3, 3);
		ok = !ipu_tensor_write(d, "x", x, L * sizeof(*x), &e) && !ipu_run(d, 0, 1, NULL, &e);
		if (!ok)
			snprintf(why, sizeof(why), "round %u: %s", i, e.msg);
		add(acc, x, 1);
		if (ok && acc_is(d, acc, why, sizeof(why)))
			ok = 0;
	}
	kt_result(ok, "%s: 50 rounds of write x, run, read acc: each run sees the write before it%s%s",
		  t->mode, ok ? "" : " # ", ok ? "" : why);
}

/* Test 4: a run follows asynchronous writes, collected or not. */
static void async_writes_test(struct ctx *t, struct ipu_device *d, float *acc, float *x)
{
	char why[sizeof(e.msg) + 64] = "";
	int ok;

	/* 4: asynchronous writes before a run, collected or not */
	{
		uint64_t rq1 = 0, rq2 = 0;

		rand_ints(x, L, -3, 3);
		ok = !ipu_tensor_write_async(d, "x", 0, x, L * sizeof(*x), &rq1, &e) &&
		     !ipu_request_wait(d, rq1, 0, &e) && !ipu_run(d, 0, 1, NULL, &e);
		add(acc, x, 1);
		if (!ok)
			snprintf(why, sizeof(why), "collected: %s", e.msg);
		else if (acc_is(d, acc, why, sizeof(why)))
			ok = 0;
		if (ok) {
			rand_ints(x, L, -3, 3);
			ok = !ipu_tensor_write_async(d, "x", 0, x, L * sizeof(*x), &rq2, &e) &&
			     !ipu_run(d, 0, 1, NULL, &e) && !ipu_request_wait(d, rq2, 0, &e);
			add(acc, x, 1);
			if (!ok)
				snprintf(why, sizeof(why), "in flight: %s", e.msg);
			else if (acc_is(d, acc, why, sizeof(why)))
				ok = 0;
		}
		kt_result(ok, "%s: a run follows asynchronous writes (collected, and still in flight)%s%s",
			  t->mode, ok ? "" : " # ", ok ? "" : why);
	}
}

/* Loads the long graph and, the first time, calibrates its run count. */
static int load_long_graph(struct ctx *t, struct ipu_device *d, float *acc, float *x)
{
	struct ipu_run_stats st;
	int r;

	rand_ints(acc, L, -100, 100);
	rand_ints(x, L, -1, 1);
	r = setup(d, t->binl, t->lenl, acc, x);
	if (!r && !t->count) {	/* calibrate once: a run of ~300 ms */
		r = ipu_run(d, 0, 1, &st, &e);
		add(acc, x, ITERS);
		t->count = st.host_ns ? (unsigned)(300e6 / (double)st.host_ns) : 100;
		if (t->count < 4)
			t->count = 4;
		if (t->count > 2000)
			t->count = 2000;
		if (!r)
			printf("# long run: %u x %u iterations (%.1f ms each)\n", t->count,
			       ITERS, st.host_ns / 1e6);
	}
	return r;
}

/* Tests 5 to 7, on the long graph: writes, reads and waits around a run. */
static void long_graph_runs(struct ctx *t, struct ipu_device *d, float *acc, float *x)
{
	float x2[L];
	struct ipu_run_stats st;
	char why[sizeof(e.msg) + 64] = "";
	int r, ok;

	/* 5: a write issued during a run executes after it */
	rand_ints(x2, L, -1, 1);
	ok = !ipu_run_start(d, 0, t->count, &e) &&
	     !ipu_tensor_write(d, "x", x2, sizeof(x2), &e) && !ipu_wait(d, 0, NULL, &e);
	add(acc, x, (uint64_t)ITERS * t->count);
	if (!ok)
		snprintf(why, sizeof(why), "%s", e.msg);
	else if (acc_is(d, acc, why, sizeof(why)))
		ok = 0;
	kt_result(ok, "%s: a write issued while a run is in flight executes after the run%s%s",
		  t->mode, ok ? "" : " # ", ok ? "" : why);
	memcpy(x, x2, L * sizeof(*x));

	/* 6: run_start, read, then wait: the read returns the data after the run */
	{
		float got[L];

		ok = !ipu_run_start(d, 0, t->count, &e) &&
		     !ipu_tensor_read(d, "acc", got, sizeof(got), &e);
		add(acc, x, (uint64_t)ITERS * t->count);
		if (!ok) {
			snprintf(why, sizeof(why), "%s", e.msg);
		} else {
			for (unsigned i = 0; i < L && ok; i++)
				if (got[i] != acc[i]) {
					snprintf(why, sizeof(why), "acc[%u] = %g, want %g", i,
						 got[i], acc[i]);
					ok = 0;
				}
		}
		r = ipu_wait(d, 0, &st, &e);
		kt_result(ok && !r && st.steps > 0,
			  "%s: run_start, then a read before ipu_wait gets the data after the run%s%s",
			  t->mode, ok && !r ? "" : " # ", ok ? (r ? e.msg : "") : why);
	}

	/* 7: ipu_wait with a timeout on a long run */
	r = ipu_run_start(d, 0, t->count, &e);
	if (r) {
		kt_result(0, "%s: ipu_wait times out on a long run # %s", t->mode, e.msg);
	} else {
		int r1 = ipu_wait(d, 5, &st, &e);
		char msg1[sizeof(e.msg)];

		snprintf(msg1, sizeof(msg1), "%s", e.msg);
		r = ipu_wait(d, 0, &st, &e);
		add(acc, x, (uint64_t)ITERS * t->count);
		ok = r1 == -ETIMEDOUT && strstr(msg1, "still running after 5 ms");
		if (!ok)
			snprintf(why, sizeof(why), "first wait: %d '%s'", r1, msg1);
		else if (r)
			snprintf(why, sizeof(why), "second wait: %s", e.msg);
		ok = ok && !r && !acc_is(d, acc, why, sizeof(why));
		kt_result(ok, "%s: ipu_wait(5 ms) times out on a long run, a second ipu_wait collects it%s%s",
			  t->mode, ok ? "" : " # ", ok ? "" : why);
	}
}

/* Test 8: a reset from another file during a run. */
static void reset_during_run_test(struct ctx *t, struct ipu_device *d, float *acc, float *x)
{
	char why[sizeof(e.msg) + 64] = "";
	int r, ok;

	{
		struct ipu_device *d2 = NULL;
		int rr;

		r = ipu_device_open(t->id, 0, &d2, &e);
		if (!r)
			r = ipu_run_start(d, 0, t->count, &e);
		if (r) {
			kt_result(0, "%s: a reset from another file is refused # %s", t->mode,
				  e.msg);
			kt_result(0, "%s: reset from another file during a run # %s", t->mode,
				  e.msg);
			kt_result(0, "%s: the run after that reset # not run", t->mode);
		} else {
			struct ipu_reset_result res;
			int busy;

			usleep(5000);	/* the run is under way */
			/* Held by us: refused and named, unless forced (uAPI 1.3). */
			busy = ipu_device_reset(d2, 0, 0, &res, &e);
			ok = busy == -EBUSY && res.holder_pid == getpid() &&
			     strstr(e.msg, "in use by process");
			kt_result(ok, "%s: a reset from another file is refused while the card is held, the holder named%s%d '%s'",
				  t->mode, ok ? ": " : " # ", busy, e.msg);
			rr = ipu_device_reset(d2, 0, IPU_RESET_FORCE, NULL, &e);
			r = ipu_wait(d, 0, NULL, &e);
			ok = !rr && r == -EIO && strstr(e.msg, "reset");
			kt_result(ok, "%s: a reset from another file during a run: ipu_wait reports it%s%d '%s'",
				  t->mode, ok ? ": " : " # ", r, e.msg);
			rand_ints(acc, L, -100, 100);
			ok = !setup(d, t->bin1, t->len1, acc, x) && !ipu_run(d, 0, 3, NULL, &e);
			add(acc, x, 3);
			if (!ok)
				snprintf(why, sizeof(why), "%s", e.msg);
			else if (acc_is(d, acc, why, sizeof(why)))
				ok = 0;
			kt_result(ok, "%s: after that reset, load and run work%s%s", t->mode,
				  ok ? "" : " # ", ok ? "" : why);
		}
		ipu_device_close(d2);
	}
}

/* Test 9: ipu_device_reset, then the next run works. */
static void reset_then_run_test(struct ctx *t, struct ipu_device *d, float *acc, float *x)
{
	char why[sizeof(e.msg) + 64] = "";
	int r, ok;

	r = ipu_device_reset(d, 0, 0, NULL, &e);
	rand_ints(acc, L, -100, 100);
	if (!r)
		r = setup(d, t->bin1, t->len1, acc, x);
	if (!r)
		r = ipu_run(d, 0, 2, NULL, &e);
	add(acc, x, 2);
	if (r)
		snprintf(why, sizeof(why), "%s", e.msg);
	ok = !r && !acc_is(d, acc, why, sizeof(why));
	/* (a driver that does not say 1.2 may still have the queue: not checked) */
	if (ok && (t->kernel || t->has_uq) && doorbell_mapped() != !t->kernel) {
		snprintf(why, sizeof(why), "doorbell page mapped: %d, expected %d",
			 doorbell_mapped(), !t->kernel && t->has_uq);
		ok = 0;
	}
	kt_result(ok, "%s: after ipu_device_reset, load and run work%s%s%s", t->mode,
		  t->kernel ? " (no user queue)" : t->has_uq ? " (user queue created again)" : "",
		  ok ? "" : " # ", ok ? "" : why);
}

/* The test of one mode on an open, attached device @d. */
static void mode_tests(struct ctx *t, struct ipu_device *d)
{
	float acc[L], x[L];
	int r;

	/* 1 to 3: the path, runs in a row, write-run-read */
	short_graph_runs(t, d, acc, x);

	/* 4: asynchronous writes before a run, collected or not */
	async_writes_test(t, d, acc, x);

	/* 4b: the run stats against the model device's */
	stats_test(t, d);

	/* the long graph from here on */
	r = load_long_graph(t, d, acc, x);
	if (r) {
		for (int i = 0; i < LONG_TESTS; i++)
			kt_result(0, "%s: load and run the long graph # %s", t->mode, e.msg);
		return;
	}

	/* 5 to 7: a write, a read and a wait around a long run */
	long_graph_runs(t, d, acc, x);

	/* 8: a reset from another file during a run: the run reports it, the
	 * next run works */
	reset_during_run_test(t, d, acc, x);

	/* 9: ipu_device_reset, then the next run works (the user queue is
	 * created again) */
	reset_then_run_test(t, d, acc, x);
}

/*
 * 10: the RESET ioctl from another file while the device is idle, then a
 * run: it must report the reset (or the lost graph) and not kill the
 * process; reload and run work. In a child with its own attach, so that a
 * signal there cannot take the other results with it. The child's exit
 * status: 10 setup failed, 11 the reset failed, 12 the run after the reset
 * succeeded, 13 reload or run failed, 14 wrong data.
 */
static void idle_reset_test(struct ctx *t)
{
	pid_t pid;
	int status = 0;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct ipu_device *d = NULL, *d2 = NULL;
		float acc[L], x[L];
		int r;

		alarm(120);
		rand_ints(acc, L, -100, 100);
		rand_ints(x, L, -3, 3);
		if (open_card(t, &d) || ipu_device_open(t->id, 0, &d2, &e) ||
		    setup(d, t->bin1, t->len1, acc, x) || ipu_run(d, 0, 1, NULL, &e))
			_exit(10);
		if (ipu_device_reset(d2, 0, IPU_RESET_FORCE, NULL, &e))
			_exit(11);
		r = ipu_run(d, 0, 1, NULL, &e);
		printf("# %s: run after an idle reset from another file: %d '%s'\n", t->mode, r,
		       e.msg);
		fflush(stdout);
		if (!r)
			_exit(12);
		if (setup(d, t->bin1, t->len1, acc, x) || ipu_run(d, 0, 1, NULL, &e))
			_exit(13);
		add(acc, x, 1);
		{
			char why[200];

			if (acc_is(d, acc, why, sizeof(why)))
				_exit(14);
		}
		ipu_device_close(d2);
		ipu_device_close(d);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		kt_result(0, "%s: idle reset from another file # fork/wait failed", t->mode);
	else if (WIFSIGNALED(status))
		kt_result(0, "%s: a run after a reset from another file while idle # killed by signal %d (%s)",
			  t->mode, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status))
		kt_result(0, "%s: a run after a reset from another file while idle # exit %d",
			  t->mode, WEXITSTATUS(status));
	else
		kt_result(1, "%s: a run after a reset from another file while idle reports it; reload and run work",
			  t->mode);
}

int main(void)
{
	struct ipu_card *cards;
	struct ipu_device_info info;
	struct ipu_device *d = NULL;
	struct ctx t;
	size_t n;

	printf("TAP version 13\n");
	if (ipu_enumerate(&cards, &n, &e) || !n) {
		printf("1..1\nnot ok 1 enumerate # %s\n", n ? e.msg : "no cards");
		return 1;
	}
	memset(&t, 0, sizeof(t));
	t.id = cards[0].id;
	t.model = cards[0].model;
	ipu_cards_free(cards);
	printf("1..%d\n", 2 * TESTS_PER_MODE);
	if (graph_loop(t.model, L, 1, &t.bin1, &t.len1, &e) ||
	    graph_loop(t.model, L, ITERS, &t.binl, &t.lenl, &e)) {
		for (int i = 0; i < 2 * TESTS_PER_MODE; i++)
			kt_result(0, "build the graphs # %s", e.msg);
		return 1;
	}
	for (int k = 0; k < 2; k++) {
		t.kernel = k;
		t.mode = k ? "SUBMIT (IPUDEV_RUNQ=kernel)" : "user queue";
		if (open_card(&t, &d) || ipu_device_info(d, &info, &e)) {
			for (int i = 0; i < TESTS_PER_MODE; i++)
				kt_result(0, "%s: open ipu%u # %s", t.mode, t.id, e.msg);
			ipu_device_close(d);
			d = NULL;
			continue;
		}
		t.has_uq = info.api_version >= API_1_2 && (info.capabilities & CAP_USER_QUEUES);
		printf("# ipu%u (%s), %s; driver uAPI %u.%u, card %s user queues\n", t.id,
		       ipu_model_name(t.model), t.mode, info.api_version >> 16,
		       info.api_version & 0xffff,
		       info.capabilities & CAP_USER_QUEUES ? "with" : "without");
		mode_tests(&t, d);
		ipu_device_close(d);
		d = NULL;
		idle_reset_test(&t);
	}
	free(t.bin1);
	free(t.binl);
	return kt_fail ? 1 : 0;
}
