/* SPDX-License-Identifier: MIT */
/* Test codelets, see tcodelets.h. */
#include "tcodelets.h"

#include <stdio.h>
#include <string.h>

#define I32 IPUE_DTMASK(IPU_DTYPE_I32)

static void add_run(const struct ipue_field *f, const uint32_t *p)
{
	int32_t *x = f[0].data;

	for (uint32_t i = 0; i < f[0].count; i++)
		x[i] = (int32_t)((uint32_t)x[i] + p[0]);
}

static void copy_run(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;
	memmove(f[1].data, f[0].data, (size_t)f[0].count * 4);
}

static void set_run(const struct ipue_field *f, const uint32_t *p)
{
	int32_t *x = f[0].data;

	for (uint32_t i = 0; i < f[0].count; i++)
		x[i] = (int32_t)p[0];
}

static void adds_run(const struct ipue_field *f, const uint32_t *p)
{
	int32_t *x = f[0].data;
	int32_t s = *(const int32_t *)f[1].data;

	(void)p;
	for (uint32_t i = 0; i < f[0].count; i++)
		x[i] = (int32_t)((uint32_t)x[i] + (uint32_t)s);
}

static void nop_run(const struct ipue_field *f, const uint32_t *p)
{
	(void)f;
	(void)p;
}

static uint64_t count_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)p;
	return 10 + f[0].count;
}

static uint64_t one_cycle(const struct ipue_field *f, const uint32_t *p)
{
	(void)f;
	(void)p;
	return 1;
}

static uint64_t param_cycles(const struct ipue_field *f, const uint32_t *p)
{
	(void)f;
	return p[0];
}

static int copy_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t n)
{
	(void)p;
	if (f[0].count != f[1].count) {
		snprintf(msg, n, "in has %u elements, out %u", f[0].count, f[1].count);
		return -22;
	}
	return 0;
}

static int even_check(const struct ipue_field *f, const uint32_t *p, char *msg, size_t n)
{
	(void)p;
	if (f[0].count % 2) {
		snprintf(msg, n, "odd count %u", f[0].count);
		return -22;
	}
	return 0;
}

static const struct ipue_codelet tcs[] = {
	{ .id = TC_ADD, .name = "t_add", .nfields = 1, .nparams = 1,
	  .field = { { "x", IPUE_FIELD_INOUT, 0, I32 } },
	  .run = add_run, .cycles = count_cycles },
	{ .id = TC_COPY, .name = "t_copy", .nfields = 2, .nparams = 0,
	  .field = { { "in", IPUE_FIELD_IN, 0, I32 }, { "out", IPUE_FIELD_OUT, 0, I32 } },
	  .check = copy_check, .run = copy_run, .cycles = count_cycles },
	{ .id = TC_SET, .name = "t_set", .nfields = 1, .nparams = 1,
	  .field = { { "out", IPUE_FIELD_OUT, 0, I32 } },
	  .run = set_run, .cycles = count_cycles },
	{ .id = TC_ADD_S, .name = "t_add_s", .nfields = 2, .nparams = 0,
	  .field = { { "x", IPUE_FIELD_INOUT, 0, I32 }, { "s", IPUE_FIELD_IN, 1, I32 } },
	  .run = adds_run, .cycles = count_cycles },
	{ .id = TC_NOP, .name = "t_nop", .run = nop_run, .cycles = one_cycle },
	{ .id = TC_EVEN, .name = "t_even", .nfields = 1,
	  .field = { { "x", IPUE_FIELD_INOUT, 0, I32 } },
	  .check = even_check, .run = nop_run, .cycles = count_cycles },
	{ .id = TC_CYC, .name = "t_cyc", .nparams = 1, .run = nop_run, .cycles = param_cycles },
};

const struct ipue_codelet *tc_lookup(uint16_t id)
{
	for (size_t i = 0; i < sizeof(tcs) / sizeof(tcs[0]); i++)
		if (tcs[i].id == id)
			return &tcs[i];
	return NULL;
}
