/* SPDX-License-Identifier: MIT */
/*
 * The host reference of the library tests' matmuls (builder/test_builder.c
 * on the model device, exec/ on the cards).
 */
#ifndef IPU_REF_MATMUL_H
#define IPU_REF_MATMUL_H

#include <stddef.h>

/* C[m][n] = A[m][k] B[k][n] in double */
static inline void ref_matmul(const float *a, const float *b, double *c,
			      unsigned m, unsigned n, unsigned k)
{
	for (unsigned i = 0; i < m; i++)
		for (unsigned j = 0; j < n; j++) {
			double s = 0;

			for (unsigned l = 0; l < k; l++)
				s += (double)a[(size_t)i * k + l] * b[(size_t)l * n + j];
			c[(size_t)i * n + j] = s;
		}
}

#endif /* IPU_REF_MATMUL_H */
