/* SPDX-License-Identifier: MIT */
/*
 * ipu-train's data: the fixed train/test split of the digits, the seeded
 * random numbers (initial weights, batch order) and the host side of the
 * batches the streams carry.
 *
 * Split: the images' indices are shuffled (Fisher-Yates driven by
 * splitmix64 seeded with TRAIN_SPLIT_SEED, whatever --seed says); the
 * first ceil(n / 5) are the test set, the rest, in that order, the
 * training set: 360 and 1437 of the 1797 digits. Pixels are scaled to
 * [0, 1] (value / 16).
 */
#ifndef IPU_TOOLS_TRAIN_DATA_H
#define IPU_TOOLS_TRAIN_DATA_H

#include <stdint.h>

#include "digits.h"

#define TRAIN_SPLIT_SEED	20261202u

struct train_split {
	unsigned ntrain, ntest;
	float *x_train, *x_test;	/* [n][64], malloc'ed */
	int32_t *y_train, *y_test;	/* [n] */
};

/* Split @d as above into @out (train_split_free() it). 0 or -ENOMEM. */
int train_split(const struct digits *d, struct train_split *out,
		struct ipu_error *err);
void train_split_free(struct train_split *s);

/* splitmix64: every random number of a run comes from one of these. */
struct train_rng {
	uint64_t state;
};
uint64_t train_rng_next(struct train_rng *r);
/* Uniform in [-@a, @a), from the top 24 bits of the next number. */
float train_rng_uniform(struct train_rng *r, float a);
/* Fisher-Yates shuffle of @idx[0..@n) with @r. */
void train_rng_shuffle(struct train_rng *r, uint32_t *idx, unsigned n);

/*
 * Fill @x [count][64] and one-hot @t [count][10] with the training
 * images @order[0..count).
 */
void train_fill_batch(const struct train_split *s, const uint32_t *order,
		      unsigned count, float *x, float *t);
/*
 * Fill @nbatches evaluation batches of @batch rows (@x [..][64], @y
 * [..]) with images @x_src / @y_src [0..@n); rows past @n are zero with
 * label -1, which no prediction matches.
 */
void train_fill_eval(const float *x_src, const int32_t *y_src, unsigned n,
		     unsigned batch, unsigned nbatches, float *x, int32_t *y);

#endif /* IPU_TOOLS_TRAIN_DATA_H */
