/* SPDX-License-Identifier: MIT */
/*
 * OpenBLAS baselines at their best (tests/bench/blas_baseline.c).
 *
 * The build machines set OPENBLAS_CORETYPE=Haswell and OPENBLAS_L2_SIZE
 * (older OpenBLAS builds misbehave on some processors). OpenBLAS reads them
 * once, when it is loaded, and on this CPU they cost it more than a third
 * of its speed. So a benchmark runs its OpenBLAS baseline in a child: the
 * same program again, with the two variables removed from the child's
 * environment only; the side under test keeps the environment as it is.
 *
 * Parent and child share one memory region (a memfd, inherited across
 * exec): the parent writes the job into it, the child its results, and the
 * helper the name of the core OpenBLAS ran in the child (what
 * OPENBLAS_VERBOSE=2 prints as "Core:").
 *
 *   main():   if ((job = bb_child(argc, argv))) return baseline(job);
 *   parent:   job = bb_alloc(len); ...fill...; bb_run(1); bb_core();
 */
#ifndef BLAS_BASELINE_H
#define BLAS_BASELINE_H

#include <stddef.h>

/* Parent: the job region, @len bytes, zeroed and 64-byte aligned; NULL on failure. */
void *bb_alloc(size_t len);

/*
 * Parent: run this program again as the baseline child on the region and
 * wait for it. @clean removes OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE from
 * its environment; 0 keeps them (to show what they cost). The child's
 * stdout goes to stderr, so nothing it prints mixes with the parent's JSON.
 * Returns 0 if the child exited 0.
 */
int bb_run(int clean);

/* Parent: the core the last child's OpenBLAS ran, e.g. "Cooperlake". */
const char *bb_core(void);

/* Whether OPENBLAS_CORETYPE or OPENBLAS_L2_SIZE is set here. */
int bb_env_pinned(void);

/* In main(): the job region if this process is the baseline child, else NULL. */
void *bb_child(int argc, char **argv);

#endif
