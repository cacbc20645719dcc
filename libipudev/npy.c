// SPDX-License-Identifier: MIT
/*
 * libipudev: .npy reader and writer (NumPy format versions 1.0 and 2.0),
 * the struct ipu_npy object (ipu_npy_*).
 *
 * Why here and not in tools/: the ipu_npy_* calls are public API
 * (ipudev.h, exported by libipudev.map: moving them would break the ABI of
 * libipudev.so.1), programs other than the tools use them (the builder's
 * tests write and check tensors with them), and they speak the library's
 * dtypes (IPU_DTYPE_*). They need nothing else of the library but its
 * error reporting (error.c) and whole-file I/O (file.c), so they are one
 * file of their own that touches no device.
 *
 * Only what the graph binaries use is accepted: little-endian float32
 * ('<f4'), float16 ('<f2') and int32 ('<i4'), C order. Everything else is
 * refused with a message that says what was found and what is accepted.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6

const char *ipu_npy_descr(int dtype)
{
	switch (dtype) {
	case IPU_DTYPE_F32: return "<f4";
	case IPU_DTYPE_F16: return "<f2";
	case IPU_DTYPE_I32: return "<i4";
	default: return NULL;
	}
}

static size_t npy_elem_size(int dtype)
{
	return dtype == IPU_DTYPE_F16 ? 2 : 4;
}

/* --- a tiny parser for the header's Python dict literal --- */

struct hp {
	const char *s, *end;
};

static void hp_ws(struct hp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static int hp_ch(struct hp *p, char c)
{
	hp_ws(p);
	if (p->s < p->end && *p->s == c) {
		p->s++;
		return 1;
	}
	return 0;
}

/* a quoted string ('...' or "..."), no escapes needed for our keys/values */
static int hp_str(struct hp *p, char *out, size_t outlen)
{
	char q;
	size_t n = 0;

	hp_ws(p);
	if (p->s >= p->end || (*p->s != '\'' && *p->s != '"'))
		return -1;
	q = *p->s++;
	while (p->s < p->end && *p->s != q) {
		if (*p->s == '\\' || n + 1 >= outlen)
			return -1;
		out[n++] = *p->s++;
	}
	if (p->s >= p->end)
		return -1;
	p->s++;
	out[n] = 0;
	return 0;
}

static int hp_word(struct hp *p, const char *w)
{
	size_t n = strlen(w);

	hp_ws(p);
	if ((size_t)(p->end - p->s) >= n && memcmp(p->s, w, n) == 0) {
		p->s += n;
		return 1;
	}
	return 0;
}

static int hp_uint(struct hp *p, uint64_t *v)
{
	uint64_t x = 0;
	int any = 0;

	hp_ws(p);
	while (p->s < p->end && *p->s >= '0' && *p->s <= '9') {
		unsigned d = (unsigned)(*p->s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
		p->s++;
		any = 1;
	}
	/* Python 2 era writers emit "3L" */
	if (any && p->s < p->end && *p->s == 'L')
		p->s++;
	if (!any)
		return -1;
	*v = x;
	return 0;
}

static int parse_header(const char *h, size_t hlen, struct ipu_npy *out,
			const char *what, struct ipu_error *err)
{
	struct hp p = { h, h + hlen };
	char key[32], descr[32];
	int have_descr = 0, have_fo = 0, have_shape = 0, fortran = 0;

	descr[0] = 0;
	if (!hp_ch(&p, '{'))
		return ipu__err(err, -EINVAL, "%s: malformed .npy header (no '{')", what);
	for (;;) {
		if (hp_ch(&p, '}'))
			break;
		if (hp_str(&p, key, sizeof(key)) || !hp_ch(&p, ':'))
			return ipu__err(err, -EINVAL, "%s: malformed .npy header (bad key)", what);
		if (!strcmp(key, "descr")) {
			if (hp_str(&p, descr, sizeof(descr)))
				return ipu__err(err, -EINVAL,
						"%s: unsupported .npy dtype (structured or malformed 'descr'); "
						"accepted: <f4, <f2, <i4", what);
			have_descr = 1;
		} else if (!strcmp(key, "fortran_order")) {
			if (hp_word(&p, "False"))
				fortran = 0;
			else if (hp_word(&p, "True"))
				fortran = 1;
			else
				return ipu__err(err, -EINVAL, "%s: malformed .npy header (fortran_order)", what);
			have_fo = 1;
		} else if (!strcmp(key, "shape")) {
			if (!hp_ch(&p, '('))
				return ipu__err(err, -EINVAL, "%s: malformed .npy header (shape)", what);
			out->ndim = 0;
			for (;;) {
				uint64_t v;

				if (hp_ch(&p, ')'))
					break;
				if (hp_uint(&p, &v))
					return ipu__err(err, -EINVAL, "%s: malformed .npy header (shape)", what);
				if (out->ndim >= IPU_NPY_MAX_DIMS)
					return ipu__err(err, -EINVAL, "%s: .npy has more than %d dimensions",
							what, IPU_NPY_MAX_DIMS);
				out->shape[out->ndim++] = v;
				if (!hp_ch(&p, ',')) {
					if (!hp_ch(&p, ')'))
						return ipu__err(err, -EINVAL,
								"%s: malformed .npy header (shape)", what);
					break;
				}
			}
			have_shape = 1;
		} else {
			return ipu__err(err, -EINVAL, "%s: unknown key '%s' in .npy header", what, key);
		}
		if (!hp_ch(&p, ',')) {
			if (!hp_ch(&p, '}'))
				return ipu__err(err, -EINVAL, "%s: malformed .npy header (expected ',' or '}')",
						what);
			break;
		}
	}
	hp_ws(&p);
	if (p.s != p.end)
		return ipu__err(err, -EINVAL, "%s: malformed .npy header (data after '}')", what);
	if (!have_descr || !have_fo || !have_shape)
		return ipu__err(err, -EINVAL, "%s: .npy header lacks '%s'", what,
				!have_descr ? "descr" : !have_fo ? "fortran_order" : "shape");
	if (!strcmp(descr, "<f4"))
		out->dtype = IPU_DTYPE_F32;
	else if (!strcmp(descr, "<f2"))
		out->dtype = IPU_DTYPE_F16;
	else if (!strcmp(descr, "<i4"))
		out->dtype = IPU_DTYPE_I32;
	else
		return ipu__err(err, -EINVAL,
				"%s: unsupported .npy dtype '%s'; accepted: <f4 (float32), <f2 (float16), "
				"<i4 (int32), little-endian", what, descr);
	if (fortran && out->ndim > 1) {
		uint64_t big = 0;

		for (unsigned i = 0; i < out->ndim; i++)
			big += out->shape[i] > 1;
		if (big > 1)
			return ipu__err(err, -EINVAL,
					"%s: Fortran-order .npy refused; save a C-order array "
					"(numpy.ascontiguousarray)", what);
	}
	return 0;
}

int ipu_npy_parse(const void *buf, size_t len, struct ipu_npy *out, const char *what,
		  struct ipu_error *err)
{
	const unsigned char *b = buf;
	size_t hlen, off, n = 1, bytes;
	int r;

	if (!what)
		what = "npy";
	if (!out || (!buf && len))
		return ipu__err(err, -EINVAL, "%s: invalid argument", what);
	memset(out, 0, sizeof(*out));
	if (len < 10 || memcmp(b, NPY_MAGIC, NPY_MAGIC_LEN))
		return ipu__err(err, -EINVAL, "%s: not a .npy file (bad magic)", what);
	if (b[6] == 1) {
		hlen = (size_t)b[8] | (size_t)b[9] << 8;
		off = 10;
	} else if (b[6] == 2) {
		if (len < 12)
			return ipu__err(err, -EINVAL, "%s: truncated .npy header", what);
		hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
		off = 12;
	} else {
		return ipu__err(err, -EINVAL, "%s: unsupported .npy format version %u.%u (accepted: 1.0, 2.0)",
				what, b[6], b[7]);
	}
	if (hlen > len - off)
		return ipu__err(err, -EINVAL, "%s: truncated .npy header (%zu bytes announced, %zu present)",
				what, hlen, len - off);
	r = parse_header((const char *)b + off, hlen, out, what, err);
	if (r)
		return r;
	off += hlen;
	for (unsigned i = 0; i < out->ndim; i++) {
		if (out->shape[i] && n > SIZE_MAX / 8 / out->shape[i])
			return ipu__err(err, -EINVAL, "%s: .npy shape too large", what);
		n *= out->shape[i];
	}
	bytes = n * npy_elem_size(out->dtype);
	if (len - off < bytes)
		return ipu__err(err, -EINVAL, "%s: truncated .npy data (%zu bytes expected, %zu present)",
				what, bytes, len - off);
	if (len - off > bytes)
		return ipu__err(err, -EINVAL, "%s: %zu unexpected bytes after the .npy data", what,
				len - off - bytes);
	out->count = n;
	out->bytes = bytes;
	out->data = malloc(bytes ? bytes : 1);
	if (!out->data)
		return ipu__err(err, -ENOMEM, "%s: out of memory (%zu bytes)", what, bytes);
	if (bytes)
		memcpy(out->data, b + off, bytes);
	return 0;
}

int ipu_npy_read(const char *path, struct ipu_npy *out, struct ipu_error *err)
{
	void *buf;
	size_t len;
	int r, step;

	if (!path || !out)
		return ipu__err(err, -EINVAL, "ipu_npy_read: invalid argument");
	memset(out, 0, sizeof(*out));
	r = ipu__file_read(path, &buf, &len, &step);
	if (r && step == IPU__FILE_OPEN)
		return ipu__err(err, r, "%s: %s", path, strerror(-r));
	if (r == -ENOMEM)
		return ipu__err(err, r, "%s: out of memory", path);
	if (r)
		return ipu__err(err, r, "%s: read error", path);
	r = ipu_npy_parse(buf, len, out, path, err);
	free(buf);
	return r;
}

void ipu_npy_free(struct ipu_npy *a)
{
	if (a) {
		free(a->data);
		a->data = NULL;
	}
}

int ipu_npy_encode(int dtype, unsigned ndim, const uint64_t *shape, const void *data,
		   void **out, size_t *outlen, struct ipu_error *err)
{
	char hdr[64 + 24 * IPU_NPY_MAX_DIMS];
	const char *descr = ipu_npy_descr(dtype);
	size_t n = 1, bytes, hl, pre, total, pad;
	int k;
	unsigned char *b;

	if (!descr)
		return ipu__err(err, -EINVAL, "npy: unsupported dtype %d", dtype);
	if (ndim > IPU_NPY_MAX_DIMS || (ndim && !shape) || !out || !outlen)
		return ipu__err(err, -EINVAL, "npy: invalid argument");
	k = snprintf(hdr, sizeof(hdr), "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
	for (unsigned i = 0; i < ndim; i++) {
		k += snprintf(hdr + k, sizeof(hdr) - (size_t)k, "%s%llu", i ? ", " : "",
			      (unsigned long long)shape[i]);
		if (shape[i] && n > SIZE_MAX / 8 / shape[i])
			return ipu__err(err, -EINVAL, "npy: shape too large");
		n *= shape[i];
	}
	if (ndim == 1)
		hdr[k++] = ',';
	k += snprintf(hdr + k, sizeof(hdr) - (size_t)k, "), }");
	hl = (size_t)k;
	bytes = n * npy_elem_size(dtype);
	if (bytes && !data)
		return ipu__err(err, -EINVAL, "npy: no data");
	/* version 1.0 when the header fits its 16-bit length, padded to 64 */
	pre = 10;
	pad = (64 - (pre + hl + 1) % 64) % 64;
	if (hl + pad + 1 > 65535) {
		pre = 12;
		pad = (64 - (pre + hl + 1) % 64) % 64;
	}
	total = pre + hl + pad + 1 + bytes;
	b = malloc(total);
	if (!b)
		return ipu__err(err, -ENOMEM, "npy: out of memory");
	memcpy(b, NPY_MAGIC, NPY_MAGIC_LEN);
	b[6] = pre == 10 ? 1 : 2;
	b[7] = 0;
	{
		size_t h = hl + pad + 1;

		b[8] = (unsigned char)h;
		b[9] = (unsigned char)(h >> 8);
		if (pre == 12) {
			b[10] = (unsigned char)(h >> 16);
			b[11] = (unsigned char)(h >> 24);
		}
	}
	memcpy(b + pre, hdr, hl);
	memset(b + pre + hl, ' ', pad);
	b[pre + hl + pad] = '\n';
	if (bytes)
		memcpy(b + pre + hl + pad + 1, data, bytes);
	*out = b;
	*outlen = total;
	return 0;
}

int ipu_npy_write(const char *path, int dtype, unsigned ndim, const uint64_t *shape,
		  const void *data, struct ipu_error *err)
{
	void *buf;
	size_t len;
	int r, step;

	if (!path)
		return ipu__err(err, -EINVAL, "ipu_npy_write: no path");
	r = ipu_npy_encode(dtype, ndim, shape, data, &buf, &len, err);
	if (r)
		return r;
	r = ipu__file_write(path, buf, len, &step);
	free(buf);
	if (r && step == IPU__FILE_OPEN)
		return ipu__err(err, r, "%s: %s", path, strerror(-r));
	if (r)	/* a write or close error */
		return ipu__err(err, -EIO, "%s: write error", path);
	return 0;
}
