// SPDX-License-Identifier: MIT
/*
 * libipudev: whole files in and out of memory, for the calls that take a
 * path (ipu_load_file, ipu_graph_write_file, ipu_npy_read, ipu_npy_write).
 * They report nothing themselves: each caller words its own messages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

int ipu__file_read(const char *path, void **buf, size_t *len, int *step)
{
	unsigned char *b = NULL;
	size_t n = 0, cap = 0;
	FILE *f;
	int r;

	*buf = NULL;
	*len = 0;
	*step = IPU__FILE_OPEN;
	f = fopen(path, "rb");
	if (!f)
		return -errno;
	for (;;) {
		size_t got;

		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			unsigned char *nb = realloc(b, ncap);

			if (!nb) {
				free(b);
				fclose(f);
				*step = IPU__FILE_MEMORY;
				return -ENOMEM;
			}
			b = nb;
			cap = ncap;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
		if (!got)
			break;
	}
	r = ferror(f) ? -EIO : 0;
	fclose(f);
	if (r) {
		free(b);
		*step = IPU__FILE_IO;
		return r;
	}
	*buf = b;
	*len = n;
	return 0;
}

int ipu__file_write(const char *path, const void *buf, size_t len, int *step)
{
	FILE *f;

	*step = IPU__FILE_OPEN;
	f = fopen(path, "wb");
	if (!f)
		return -errno;
	if (fwrite(buf, 1, len, f) != len) {
		fclose(f);
		*step = IPU__FILE_IO;
		return -EIO;
	}
	if (fclose(f)) {
		*step = IPU__FILE_CLOSE;
		return -errno;
	}
	return 0;
}
