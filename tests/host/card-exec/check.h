/* SPDX-License-Identifier: MIT */
/* KTAP checks shared by the card-exec host test files (test_card_exec.c). */
#ifndef CARD_EXEC_CHECK_H
#define CARD_EXEC_CHECK_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

extern int ntest, nfail;	/* checks run and failed, for the KTAP plan */

#define CHECK(name, cond, ...)						\
	do {								\
		ntest++;						\
		if (cond) {						\
			printf("ok %d %s\n", ntest, name);		\
		} else {						\
			nfail++;					\
			printf("not ok %d %s # ", ntest, name);		\
			printf(__VA_ARGS__);				\
			printf("\n");					\
		}							\
	} while (0)

struct ipu_error;
/* test_card_exec.c: a builder-made graph for @model into *@bin (free()) */
int build(uint32_t model, void **bin, size_t *len, struct ipu_error *err);

/* container_verdicts.c: the engine's loader and the card path's pre-check */
void t_container_verdicts(void);

#endif
