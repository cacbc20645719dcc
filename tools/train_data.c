// SPDX-License-Identifier: MIT
/*
 * ipu-train's data (train_data.h): split, random numbers, batches.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "train_data.h"

uint64_t train_rng_next(struct train_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

float train_rng_uniform(struct train_rng *r, float a)
{
	/* exact: 24 bits fit a float's significand */
	float u = (float)(train_rng_next(r) >> 40) / 16777216.0f;

	return (2.0f * u - 1.0f) * a;
}

void train_rng_shuffle(struct train_rng *r, uint32_t *idx, unsigned n)
{
	for (unsigned i = n; i > 1; i--) {
		unsigned j = (unsigned)(train_rng_next(r) % i);
		uint32_t t = idx[i - 1];

		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

static void copy_image(const struct digits *d, size_t from, float *x, int32_t *y)
{
	for (unsigned k = 0; k < DIGITS_PIXELS; k++)
		x[k] = d->pixels[from * DIGITS_PIXELS + k] / (float)DIGITS_MAX_VALUE;
	*y = d->labels[from];
}

int train_split(const struct digits *d, struct train_split *out,
		struct ipu_error *err)
{
	struct train_rng rng = { TRAIN_SPLIT_SEED };
	uint32_t *idx = malloc(d->n * sizeof(*idx));

	memset(out, 0, sizeof(*out));
	out->ntest = (unsigned)((d->n + 4) / 5);
	out->ntrain = (unsigned)d->n - out->ntest;
	out->x_train = malloc((out->ntrain + 1) * DIGITS_PIXELS * sizeof(float));
	out->x_test = malloc((out->ntest + 1) * DIGITS_PIXELS * sizeof(float));
	out->y_train = malloc((out->ntrain + 1) * sizeof(int32_t));
	out->y_test = malloc((out->ntest + 1) * sizeof(int32_t));
	if (!idx || !out->x_train || !out->x_test || !out->y_train || !out->y_test) {
		free(idx);
		train_split_free(out);
		return tool_error(err, -ENOMEM, "ipu-train: out of memory");
	}
	for (size_t i = 0; i < d->n; i++)
		idx[i] = (uint32_t)i;
	train_rng_shuffle(&rng, idx, (unsigned)d->n);
	for (unsigned i = 0; i < out->ntest; i++)
		copy_image(d, idx[i], &out->x_test[i * DIGITS_PIXELS], &out->y_test[i]);
	for (unsigned i = 0; i < out->ntrain; i++)
		copy_image(d, idx[out->ntest + i], &out->x_train[i * DIGITS_PIXELS],
			   &out->y_train[i]);
	free(idx);
	return 0;
}

void train_split_free(struct train_split *s)
{
	free(s->x_train);
	free(s->x_test);
	free(s->y_train);
	free(s->y_test);
	memset(s, 0, sizeof(*s));
}

void train_fill_batch(const struct train_split *s, const uint32_t *order,
		      unsigned count, float *x, float *t)
{
	memset(t, 0, (size_t)count * DIGITS_CLASSES * sizeof(float));
	for (unsigned i = 0; i < count; i++) {
		memcpy(&x[(size_t)i * DIGITS_PIXELS], &s->x_train[(size_t)order[i] * DIGITS_PIXELS],
		       DIGITS_PIXELS * sizeof(float));
		t[(size_t)i * DIGITS_CLASSES + (unsigned)s->y_train[order[i]]] = 1.0f;
	}
}

void train_fill_eval(const float *x_src, const int32_t *y_src, unsigned n,
		     unsigned batch, unsigned nbatches, float *x, int32_t *y)
{
	size_t rows = (size_t)batch * nbatches;

	memset(x, 0, rows * DIGITS_PIXELS * sizeof(float));
	memcpy(x, x_src, (size_t)n * DIGITS_PIXELS * sizeof(float));
	for (size_t i = 0; i < rows; i++)
		y[i] = i < n ? y_src[i] : -1;
}
