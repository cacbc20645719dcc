/* SPDX-License-Identifier: MIT */
/*
 * Tiny codelets for engine tests, the fuzzer and benchmarks, installed with
 * ipue_set_codelet_lookup(). Independent of the real vertex library so
 * engine tests check the engine, not the codelets. Ids 0x7000+.
 */
#ifndef IPUE_TCODELETS_H
#define IPUE_TCODELETS_H

#include "codelets.h"

enum {
	TC_ADD = 0x7001,	/* x (InOut i32): x[i] += (int32)p[0] */
	TC_COPY = 0x7002,	/* in (i32), out (i32, same count): out = in */
	TC_SET = 0x7003,	/* out (i32): out[i] = p[0] */
	TC_ADD_S = 0x7004,	/* x (InOut i32), s (In scalar i32): x[i] += s */
	TC_NOP = 0x7005,	/* no fields, no params, 1 cycle */
	TC_EVEN = 0x7006,	/* x (InOut i32); check() rejects an odd count */
	TC_CYC = 0x7007,	/* no fields; cycles = p[0] */
};

const struct ipue_codelet *tc_lookup(uint16_t id);

#endif
