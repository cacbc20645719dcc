// SPDX-License-Identifier: MIT
/*
 * The digits data set reader (digits.h): the whole file is inflated into
 * memory (about 300 KB) and parsed line by line, so that a message can
 * name the line and field that is wrong.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "common.h"
#include "digits.h"

#define DIGITS_MAX_BYTES (64u << 20)	/* inflated; the real file is 0.3 MB */

/* Inflate @path (gzip or plain: zlib passes plain files through) into *@buf. */
static int read_all(const char *path, char **buf, size_t *len,
		    struct ipu_error *err)
{
	size_t cap = 1u << 20, n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), got;
	gzFile z;
	char *b;

	if (fd < 0)
		return tool_error(err, -errno, "%s: cannot open the digits data: %s%s", path,
			    strerror(errno), errno == ENOENT ?
			    " (install python3-sklearn, or give --data FILE)" : "");
	z = gzdopen(fd, "rb");
	if (!z) {
		close(fd);
		return tool_error(err, -ENOMEM, "%s: out of memory", path);
	}
	b = malloc(cap + 1);
	while (b) {
		got = gzread(z, b + n, (unsigned)(cap - n));
		if (got <= 0)
			break;
		n += (size_t)got;
		if (n == cap) {
			char *nb = cap >= DIGITS_MAX_BYTES ? NULL : realloc(b, 2 * cap + 1);

			if (!nb) {
				free(b);
				gzclose(z);
				return tool_error(err, cap >= DIGITS_MAX_BYTES ? -EINVAL : -ENOMEM,
					    "%s: %s", path, cap >= DIGITS_MAX_BYTES ?
					    "corrupt digits file: larger than 64 MiB inflated" :
					    "out of memory");
			}
			b = nb;
			cap *= 2;
		}
	}
	if (!b) {
		gzclose(z);
		return tool_error(err, -ENOMEM, "%s: out of memory", path);
	}
	if (got < 0) {
		int zerr;
		const char *m = gzerror(z, &zerr);

		free(b);
		gzclose(z);
		return tool_error(err, -EINVAL, "%s: corrupt digits file: %s", path,
			    zerr == Z_ERRNO ? strerror(errno) : m);
	}
	gzclose(z);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* One field: an integer 0..@max, optionally written as "N.0" (numpy's savetxt). */
static int parse_field(const char **p, unsigned max, unsigned *out)
{
	const char *s = *p;
	unsigned v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned)(*s++ - '0');
		if (v > max)
			return -1;
	}
	if (*s == '.')
		for (s++; *s == '0'; s++)
			;
	*out = v;
	*p = s;
	return 0;
}

/* Parse line @lineno (NUL-terminated at @s) into image @i of @d. */
static int parse_line(const char *path, unsigned lineno, const char *s,
		      struct digits *d, size_t i, struct ipu_error *err)
{
	for (unsigned f = 0; f <= DIGITS_PIXELS; f++) {
		unsigned max = f < DIGITS_PIXELS ? DIGITS_MAX_VALUE : DIGITS_CLASSES - 1;
		const char *start = s;
		unsigned v;

		if (parse_field(&s, max, &v))
			return tool_error(err, -EINVAL,
				    "%s:%u: corrupt digits file: field %u '%.12s' is not %s 0..%u",
				    path, lineno, f + 1, start,
				    f < DIGITS_PIXELS ? "a pixel value" : "a class", max);
		if (f < DIGITS_PIXELS)
			d->pixels[i * DIGITS_PIXELS + f] = (uint8_t)v;
		else
			d->labels[i] = (uint8_t)v;
		if (f < DIGITS_PIXELS && *s++ != ',')
			return tool_error(err, -EINVAL,
				    "%s:%u: corrupt digits file: %u fields, want %u (64 pixels and the class)",
				    path, lineno, f + 1, DIGITS_PIXELS + 1);
	}
	if (*s == '\r')
		s++;
	if (*s)
		return tool_error(err, -EINVAL,
			    "%s:%u: corrupt digits file: more than %u fields (64 pixels and the class)",
			    path, lineno, DIGITS_PIXELS + 1);
	return 0;
}

int digits_load(const char *path, struct digits *out, struct ipu_error *err)
{
	char *buf = NULL, *line, *next;
	size_t len = 0, lines = 0;
	unsigned lineno = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_all(path, &buf, &len, err);
	if (ret)
		return ret;
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	lines++;
	if (lines > DIGITS_MAX_ROWS + 1) {
		free(buf);
		return tool_error(err, -EINVAL, "%s: corrupt digits file: %zu lines, at most %u expected",
			    path, lines, DIGITS_MAX_ROWS);
	}
	out->pixels = malloc(lines * DIGITS_PIXELS);
	out->labels = malloc(lines);
	if (!out->pixels || !out->labels) {
		free(buf);
		digits_free(out);
		return tool_error(err, -ENOMEM, "%s: out of memory", path);
	}
	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!*line || (line[0] == '\r' && !line[1]))
			continue;	/* blank lines, e.g. at the end */
		ret = parse_line(path, lineno, line, out, out->n, err);
		if (ret)
			break;
		out->n++;
	}
	free(buf);
	if (!ret && !out->n)
		ret = tool_error(err, -EINVAL, "%s: corrupt digits file: no images in it", path);
	if (ret)
		digits_free(out);
	return ret;
}

void digits_free(struct digits *d)
{
	if (!d)
		return;
	free(d->pixels);
	free(d->labels);
	memset(d, 0, sizeof(*d));
}
