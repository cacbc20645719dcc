/* SPDX-License-Identifier: MIT */
/*
 * KTAP result lines for the VM test programs that are not on the kselftest
 * harness (the group tests in tests/library/group): kt() prints one result, numbered in
 * order, with the reason on a failure; kt_n counts the results and kt_fail
 * the failures (one program each: the counters are per program).
 */
#ifndef IPU_KTAP_H
#define IPU_KTAP_H

#include <stdio.h>

static int kt_n, kt_fail;

static inline void kt(int ok, const char *name, const char *why)
{
	kt_n++;
	kt_fail += !ok;
	printf("%sok %d %s%s%s\n", ok ? "" : "not ", kt_n, name,
	       ok || !why ? "" : " # ", ok || !why ? "" : why);
	fflush(stdout);
}

#endif
