// SPDX-License-Identifier: MIT
/*
 * In-VM test: host -> card -> host round trips are bit-exact, for sizes from
 * 1 byte to 256 MiB at random offsets of the tensor, from unaligned user
 * memory, through every buffer kind (plain memory, pinned memory, driver
 * mmap buffers), each transfer strategy of the library (auto, bounce,
 * direct) and asynchronous requests. Needs a gc200 card (two for the
 * strategy cases). KTAP on stdout.
 */
#include <unistd.h>

#include "exec_common.h"

#define MAXSZ	(256ull << 20)
#define PAD	64

static struct ipu_error e;
static uint64_t seed = 0x1234567887654321ull;
static uint8_t *src, *dst;

static int find_gc200(unsigned *ids, int max)
{
	struct ipu_card *cards;
	size_t n;
	int k = 0;

	if (ipu_enumerate(&cards, &n, &e))
		return 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (cards[i].model == IPU_MODEL_GC200)
			ids[k++] = cards[i].id;
	ipu_cards_free(cards);
	return k;
}

static int open_loaded(unsigned id, const char *mode, uint64_t bytes, struct ipu_device **d)
{
	void *bin = NULL;
	size_t len;
	int r;

	if (mode)
		setenv("IPUDEV_XFER", mode, 1);
	else
		unsetenv("IPUDEV_XFER");
	r = ipu_device_open(id, IPU_OPEN_ATTACH, d, &e);
	unsetenv("IPUDEV_XFER");
	if (r)
		return r;
	r = graph_data(IPU_MODEL_GC200, bytes, &bin, &len, &e);
	if (!r)
		r = ipu_load(*d, bin, len, &e);
	free(bin);
	if (r) {
		ipu_device_close(*d);
		*d = NULL;
	}
	return r;
}

/* write @n bytes from @s, read them back into @t, compare; 0 or a message */
static const char *trip(struct ipu_device *d, uint64_t off, const uint8_t *s, uint8_t *t,
			size_t n)
{
	static char why[400];

	memset(t, 0xa5, n);
	if (ipu_tensor_write_at(d, "data", off, s, n, &e) ||
	    ipu_tensor_read_at(d, "data", off, t, n, &e)) {
		snprintf(why, sizeof(why), "%s", e.msg);
		return why;
	}
	if (memcmp(s, t, n)) {
		size_t i = 0;

		while (s[i] == t[i])
			i++;
		snprintf(why, sizeof(why), "mismatch at byte %zu of %zu: wrote 0x%02x read 0x%02x", i,
			 n, s[i], t[i]);
		return why;
	}
	return NULL;
}

static void sizes_on(struct ipu_device *d, const char *label, const size_t *sizes, int nsizes,
		     int kinds)
{
	struct ipu_buffer *mb = NULL;
	uint8_t *mapped = NULL;

	if (kinds & 4) {
		if (ipu_buffer_alloc(d, MAXSZ + PAD, &mb, &e)) {
			kt_result(0, "%s: ipu_buffer_alloc of 256 MiB # %s", label, e.msg);
			kinds &= ~4;
		} else {
			mapped = ipu_buffer_ptr(mb);
		}
	}
	for (int i = 0; i < nsizes; i++) {
		size_t n = sizes[i];
		uint64_t off = n < MAXSZ ? rnd64(&seed) % (MAXSZ - n + 1) : 0;
		size_t sa = rnd64(&seed) % PAD, ta = rnd64(&seed) % PAD;
		const char *why = NULL, *kind = "";
		uint8_t *s = src + sa, *t = dst + ta;

		if (kinds & 1) {	/* plain user memory, unaligned */
			kind = "user";
			why = trip(d, off, s, t, n);
		}
		if (!why && (kinds & 2)) {	/* pinned, unaligned */
			struct ipu_buffer *ps = NULL, *pt = NULL;

			kind = "pinned";
			if (ipu_buffer_pin(d, s, n, &ps, &e) || ipu_buffer_pin(d, t, n, &pt, &e))
				why = e.msg;
			else
				why = trip(d, off, s, t, n);
			ipu_buffer_free(ps);
			ipu_buffer_free(pt);
		}
		if (!why && (kinds & 4)) {	/* driver buffer out, user memory back */
			uint8_t *m = mapped + ta;

			kind = "mapped";
			memcpy(m, s, n);
			why = trip(d, off, m, t, n);
			if (!why) {	/* and back into the mapped buffer */
				kind = "mapped-read";
				memset(m, 0, n);
				if (ipu_tensor_read_at(d, "data", off, m, n, &e))
					why = e.msg;
				else if (memcmp(m, s, n))
					why = "mapped read mismatch";
			}
		}
		kt_result(!why, "%s: %zu bytes at tensor offset %llu, user +%zu/+%zu%s%s", label, n,
			  (unsigned long long)off, sa, ta, why ? " # " : "",
			  why ? kind : "");
		if (why)
			printf("# %s: %s\n", kind, why);
	}
	ipu_buffer_free(mb);
}

static void async_on(struct ipu_device *d)
{
	enum { N = 16, CH = (1 << 20) + 3 };
	uint64_t req[N];
	const char *why = NULL;
	int i;

	memset(dst, 0, (size_t)N * CH);
	for (i = 0; i < N && !why; i++)
		if (ipu_tensor_write_async(d, "data", (uint64_t)i * CH + 5, src + i * CH, CH, &req[i], &e))
			why = e.msg;
	for (int j = 0; j < i; j++)
		if (ipu_request_wait(d, req[j], 0, &e) && !why)
			why = e.msg;
	for (i = 0; i < N && !why; i++)
		if (ipu_tensor_read_async(d, "data", (uint64_t)i * CH + 5, dst + i * CH, CH, &req[i], &e))
			why = e.msg;
	for (int j = 0; j < N && !why; j++)
		if (ipu_request_wait(d, req[j], 0, &e))
			why = e.msg;
	if (!why && memcmp(src, dst, (size_t)N * CH))
		why = "data mismatch";
	kt_result(!why, "async: 16 writes then 16 reads of 1 MiB + 3 bytes in flight%s%s",
		  why ? " # " : "", why ? why : "");
	why = NULL;
	if (ipu_request_wait(d, req[0], 10, &e) != -ENOENT)
		why = "a collected request was found again";
	kt_result(!why, "async: a request is collected once%s%s", why ? " # " : "", why ? why : "");
}

int main(void)
{
	static const size_t fixed[] = { 1, 3, 4095, 4096, 4097, 65537, 262143, 262144, 262145,
					(1 << 20) + 13, (8 << 20) - 1, (8 << 20) + 5 };
	size_t sizes[40];
	unsigned ids[2];
	int nids, ns = 0;
	struct ipu_device *d = NULL;
	double t0 = kt_now();

	printf("TAP version 13\n");
	nids = find_gc200(ids, 2);
	if (!nids) {
		printf("1..1\n");
		kt_skip("roundtrip", "no gc200 card");
		return 0;
	}
	src = malloc(MAXSZ + PAD);
	dst = malloc(MAXSZ + PAD);
	if (!src || !dst) {
		printf("1..1\nnot ok 1 roundtrip: out of memory\n");
		return 1;
	}
	fill_bytes(src, MAXSZ + PAD, &seed);

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		sizes[ns++] = fixed[i];
	for (int i = 0; i < 10; i++)	/* log-uniform in [1, 256 MiB) */
		sizes[ns++] = (size_t)exp2((double)(rnd64(&seed) % 28000) / 1000.0);
	sizes[ns++] = (64u << 20) + 1;
	sizes[ns++] = MAXSZ;
	printf("1..%d\n", 1 + ns + 3 + (nids > 1 ? 1 + 5 + 1 + 2 : 0) + 1);

	if (open_loaded(ids[0], NULL, MAXSZ, &d)) {
		kt_result(0, "ipu%u: open and load a 256 MiB tensor # %s", ids[0], e.msg);
		return 1;
	}
	kt_result(1, "ipu%u: open and load a 256 MiB tensor", ids[0]);
	sizes_on(d, "auto", sizes, ns, 7);
	async_on(d);
	{
		const char *why = NULL;

		if (ipu_tensor_write_at(d, "data", 100, src, 0, &e) ||
		    ipu_tensor_read_at(d, "data", MAXSZ, dst, 0, &e))
			why = e.msg;
		kt_result(!why, "zero-length transfers succeed%s%s", why ? " # " : "", why ? why : "");
	}
	ipu_device_close(d);

	if (nids > 1) {
		static const size_t bsz[] = { 1, (4 << 20) + 1, (9 << 20) + 3, 12345678, 64 << 20 };

		if (open_loaded(ids[1], "bounce", MAXSZ, &d)) {
			kt_result(0, "ipu%u: open with IPUDEV_XFER=bounce # %s", ids[1], e.msg);
		} else {
			kt_result(1, "ipu%u: open with IPUDEV_XFER=bounce", ids[1]);
			sizes_on(d, "bounce", bsz, 5, 1);
			ipu_device_close(d);
		}
		if (open_loaded(ids[1], "direct", MAXSZ, &d)) {
			kt_result(0, "ipu%u: open with IPUDEV_XFER=direct # %s", ids[1], e.msg);
		} else {
			kt_result(1, "ipu%u: open with IPUDEV_XFER=direct", ids[1]);
			sizes_on(d, "direct", bsz, 2, 1);
			ipu_device_close(d);
		}
	}
	printf("# %.1f s\n", kt_now() - t0);
	kt_result(1, "done");
	free(src);
	free(dst);
	return kt_fail ? 1 : 0;
}
