/* SPDX-License-Identifier: MIT */
/*
 * The host unit tests of libipudev (tests/host/libipudev/): one reporter
 * for every file's results, and the suites unit.c runs.
 */
#ifndef IPUDEV_UNIT_H
#define IPUDEV_UNIT_H

#include <stdbool.h>

/* Prints "ok NAME" or "not ok NAME # WHY" (WHY from @fmt, may be NULL). */
void unit_result(bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The table of chip models and every library view of it (models.c). */
void models_tests(void);

/* The user-queue mechanics (uqueue.c). */
void uqueue_tests(void);

#endif /* IPUDEV_UNIT_H */
