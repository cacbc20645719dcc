/* SPDX-License-Identifier: MIT */
/*
 * Persistent pool of host threads for the compute and exchange phases.
 *
 * One sense-reversing barrier (generation counter) is crossed twice per job:
 * once to release the job, once to join it. Waiters spin briefly (a
 * superstep is often a few microseconds) and then sleep on a futex, so an
 * idle engine costs no CPU. Cost per crossing grows with threads, not tiles.
 * Between a run's jobs the threads spin for the next one; once the owner
 * says no job is coming soon (ipue_pool_idle(): the run or the transfer is
 * over) they sleep at once: a thread spinning for nothing on a busy host
 * keeps a core from the threads that have work, up to a scheduler tick.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "engine_internal.h"

#include <limits.h>
#include <sched.h>
#include <stdlib.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#define IPUE_HAVE_FUTEX 1
#else
#define IPUE_HAVE_FUTEX 0
#endif

#define SPIN_ITERS 4000

struct barrier {
	atomic_uint count;
	atomic_uint gen;
	atomic_uint sleepers;
	atomic_uint n;		/* lowered only when thread creation fails */
};

struct ipue_pool {
	struct barrier bar;
	atomic_int idle;		/* no job soon: waiters sleep at once */
	unsigned n;
	ipue_job_fn fn;			/* published before the release crossing */
	void *arg;
	int stop;
	void (*thread_init)(void);	/* the engine's ipue_config hooks */
	void (*thread_exit)(void);
	pthread_t *th;
	unsigned started;
	struct worker { struct ipue_pool *p; unsigned idx; } *w;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static void futex_wait(atomic_uint *addr, unsigned val)
{
#if IPUE_HAVE_FUTEX
	syscall(SYS_futex, (unsigned *)addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
#else
	(void)addr; (void)val;
	sched_yield();
#endif
}

static void futex_wake_all(atomic_uint *addr)
{
#if IPUE_HAVE_FUTEX
	syscall(SYS_futex, (unsigned *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
	(void)addr;
#endif
}

/*
 * seq_cst throughout: the sleeper count handshake relies on a total order.
 * @idle (or NULL): while it is set, do not spin, sleep.
 */
static void barrier_wait(struct barrier *b, const atomic_int *idle)
{
	unsigned g = atomic_load(&b->gen);

	if (atomic_fetch_add(&b->count, 1) == atomic_load(&b->n) - 1) {
		atomic_store(&b->count, 0);
		atomic_fetch_add(&b->gen, 1);
		if (atomic_load(&b->sleepers))
			futex_wake_all(&b->gen);
		return;
	}
	for (int i = 0; i < SPIN_ITERS; i++) {
		if (atomic_load_explicit(&b->gen, memory_order_acquire) != g)
			return;
		if (idle && atomic_load_explicit(idle, memory_order_relaxed))
			break;
		cpu_relax();
	}
	atomic_fetch_add(&b->sleepers, 1);
	while (atomic_load(&b->gen) == g)
		futex_wait(&b->gen, g);
	atomic_fetch_sub(&b->sleepers, 1);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct ipue_pool *p = w->p;

	if (p->thread_init)
		p->thread_init();
	for (;;) {
		barrier_wait(&p->bar, &p->idle);	/* release */
		if (p->stop)
			break;
		p->fn(p->arg, w->idx, p->n);
		barrier_wait(&p->bar, NULL);		/* join */
	}
	if (p->thread_exit)
		p->thread_exit();
	return NULL;
}

/*
 * Create a pool of n participants (n-1 threads plus the caller of
 * ipue_pool_run). Returns 0 or IPUE_ENOMEM / IPUE_EINVAL; *out is owned by
 * the caller until ipue_pool_destroy().
 */
int ipue_pool_create(struct ipue_pool **out, unsigned n,
		     void (*thread_init)(void), void (*thread_exit)(void))
{
	struct ipue_pool *p;

	*out = NULL;
	if (n < 1 || n > IPUE_MAX_HOST_THREADS)
		return IPUE_EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return IPUE_ENOMEM;
	p->n = n;
	p->thread_init = thread_init;
	p->thread_exit = thread_exit;
	atomic_init(&p->bar.n, n);
	p->th = calloc(n, sizeof(*p->th));
	p->w = calloc(n, sizeof(*p->w));
	if (!p->th || !p->w) {
		ipue_pool_destroy(p);
		return IPUE_ENOMEM;
	}
	for (unsigned i = 1; i < n; i++) {
		p->w[i].p = p;
		p->w[i].idx = i;
		if (pthread_create(&p->th[i], NULL, worker_main, &p->w[i]) != 0) {
			/* run with fewer threads would change splits: fail */
			atomic_store(&p->bar.n, p->started + 1);
			ipue_pool_destroy(p);
			return IPUE_ENOMEM;
		}
		p->started++;
	}
	*out = p;
	return 0;
}

void ipue_pool_destroy(struct ipue_pool *p)
{
	if (!p)
		return;
	if (p->started) {
		p->stop = 1;
		barrier_wait(&p->bar, NULL);
		for (unsigned i = 1; i <= p->started; i++)
			pthread_join(p->th[i], NULL);
	}
	free(p->th);
	free(p->w);
	free(p);
}

void ipue_pool_run(struct ipue_pool *p, ipue_job_fn fn, void *arg)
{
	p->fn = fn;
	p->arg = arg;
	atomic_store(&p->idle, 0);
	barrier_wait(&p->bar, NULL);
	fn(arg, 0, p->n);
	barrier_wait(&p->bar, NULL);
}

void ipue_pool_idle(struct ipue_pool *p)
{
	if (p)
		atomic_store(&p->idle, 1);
}

unsigned ipue_pool_size(const struct ipue_pool *p)
{
	return p ? p->n : 1;
}
