/* SPDX-License-Identifier: MIT */
/*
 * The digits data set as Debian's python3-sklearn ships it
 * (sklearn/datasets/data/digits.csv.gz): one line per image, 64 pixel
 * values 0..16 of an 8x8 image in row-major order, then its class 0..9,
 * comma-separated. Read with zlib; no Python at run time.
 */
#ifndef IPU_TOOLS_DIGITS_H
#define IPU_TOOLS_DIGITS_H

#include <stddef.h>
#include <stdint.h>

#include "ipudev.h"

#define DIGITS_DEFAULT_PATH \
	"/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
#define DIGITS_PIXELS	64	/* 8 x 8 */
#define DIGITS_CLASSES	10
#define DIGITS_MAX_VALUE 16	/* pixels are 0..16 */
#define DIGITS_MAX_ROWS	100000	/* refuse absurd files rather than grow forever */

struct digits {
	size_t n;		/* images */
	uint8_t *pixels;	/* [n][DIGITS_PIXELS], 0..16; malloc'ed */
	uint8_t *labels;	/* [n], 0..9; malloc'ed */
};

/*
 * digits_load() - read the gzip'ed (or plain) CSV at @path into @out
 * (freed with digits_free(), also after a failure). Returns 0; -ENOENT
 * (or the open's errno) when the file cannot be opened, -EINVAL for a
 * corrupt file (message names the path, the line and what was wrong:
 * a bad number, a value out of range, a wrong field count, a broken gzip
 * stream, no rows), -ENOMEM. Messages go to @err.
 */
int digits_load(const char *path, struct digits *out, struct ipu_error *err);

/* Free what digits_load() allocated (NULL allowed); @d is left empty. */
void digits_free(struct digits *d);

#endif /* IPU_TOOLS_DIGITS_H */
