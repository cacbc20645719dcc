/* SPDX-License-Identifier: MIT */
/*
 * Expressions (expr.c) as map.c uses them: compiled into the Map codelet's
 * program (never installed). See docs/codelets.md, "Map".
 */
#ifndef IPUDEV_EXPR_INTERNAL_H
#define IPUDEV_EXPR_INTERNAL_H

#include <stdint.h>

#include "ipudev.h"

/*
 * @e over @nin inputs of dtypes @indt as the Map codelet's params @prm
 * (all IPUE_MAX_PARAMS words); *rdt the result's dtype, *used the inputs
 * it reads (bit k: input k). 0 or -EINVAL naming @op and @name: a
 * placeholder beyond the inputs, a dtype mismatch, a constant whose dtype
 * cannot be inferred, an i32 constant that is not an i32 value, a program
 * too long or too deep for the codelet.
 */
int ipu__expr_compile(const struct ipu_expr *e, unsigned nin, const uint8_t *indt, uint32_t *prm, uint8_t *rdt,
		      unsigned *used, const char *op, const char *name, struct ipu_error *err);

#endif /* IPUDEV_EXPR_INTERNAL_H */
