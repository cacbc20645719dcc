// SPDX-License-Identifier: MIT
/*
 * In-VM test: the card's negative paths give the right errno and a message
 * that names the object and the reason: unknown tensor, out-of-range
 * offset, wrong access, wrong program index, no graph, a corrupt graph
 * binary (bad checksum, truncated, a bad record with a valid checksum, the
 * wrong chip), a busy card; and the card still works afterwards. KTAP.
 */
#include "exec_common.h"
#include "ipu/graph_format.h"

static struct ipu_error e;

#define EXPECT(call, code, needle, name)					\
	do {									\
		int r_ = (call);						\
		int ok_ = r_ == (code) && strstr(e.msg, needle) != NULL;	\
		kt_result(ok_, "%s%s", name, ok_ ? "" : " # unexpected result");	\
		if (!ok_)							\
			printf("# got %d (%s), want %d with '%s'\n", r_, e.msg,	\
			       (code), needle);					\
		else								\
			printf("# %s\n", e.msg);				\
	} while (0)

/* offset of section @type's records, or 0 */
static uint64_t sec_off(const uint8_t *bin, uint32_t type, uint32_t *entsize)
{
	struct ipu_graph_header h;

	memcpy(&h, bin, sizeof(h));
	for (uint32_t i = 0; i < h.section_count; i++) {
		struct ipu_graph_section s;

		memcpy(&s, bin + h.section_table + (uint64_t)i * h.section_entsize, sizeof(s));
		if (s.type == type && s.count) {
			*entsize = s.entsize;
			return s.offset;
		}
	}
	return 0;
}

static void fix_crc(uint8_t *bin, size_t len)
{
	uint32_t c = ipu_graph_checksum(bin, len);

	memcpy(bin + offsetof(struct ipu_graph_header, checksum), &c, 4);
}

/* Corrupt binaries, and a graph for another chip (model @other, 0: none). */
static void corrupt_binary_tests(struct ipu_device *d, const void *bin, size_t len,
				 uint32_t other, float *buf)
{
	void *bin2 = NULL;
	size_t len2;
	uint8_t *bad;

	bad = malloc(len);
	memcpy(bad, bin, len);
	bad[len / 2] ^= 0x40;
	EXPECT(ipu_load(d, bad, len, &e), -EINVAL, "graph refused: section header",
	       "flipped bit (bad checksum): refused with the card's message");
	EXPECT(ipu_load(d, bin, len - 8, &e), -EINVAL, "graph refused",
	       "truncated binary: refused");
	memcpy(bad, bin, len);
	{
		/* a plain section: the builder packs the vertex records (graph-format.md) */
		uint32_t es = 0;
		uint64_t to = sec_off(bad, IPU_GRAPH_SEC_TENSORS, &es);
		uint8_t dtype = 9;

		if (to) {
			memcpy(bad + to + offsetof(struct ipu_graph_tensor, dtype), &dtype, 1);
			fix_crc(bad, len);
		}
		EXPECT(ipu_load(d, bad, len, &e), -EINVAL, "graph refused: section tensors record 0",
		       "bad tensor record with a valid checksum: section and record named");
	}
	free(bad);
	EXPECT(ipu_tensor_write(d, "a", buf, 8192, &e), -ENOENT, "no graph loaded",
	       "a refused load leaves no graph");
	if (other) {
		if (graph_matmul(other, 16, 16, 16, &bin2, &len2, &e))
			kt_result(0, "graph for another chip # %s", e.msg);
		else
			EXPECT(ipu_load(d, bin2, len2, &e), -EINVAL, "the graph is built for model",
			       "graph for another chip: refused naming both");
		free(bin2);
	} else {
		kt_skip("graph for another chip", "all cards are one model");
	}
}

/* A busy card: attach, read-only load, and the card still computes. */
static void busy_card_tests(unsigned id, struct ipu_device *d, const void *bin, size_t len)
{
	struct ipu_device *d2 = NULL;

	ipu_error_clear(&e);
	kt_result(!ipu_load(d, bin, len, &e), "the card loads a good graph after the failures%s%s",
		  e.code ? " # " : "", e.code ? e.msg : "");
	EXPECT(ipu_device_open(id, IPU_OPEN_ATTACH | IPU_OPEN_NONBLOCK, &d2, &e), -EBUSY,
	       "in use by another process", "second attach with IPU_OPEN_NONBLOCK: -EBUSY");
	ipu_device_close(d2);
	{
		struct ipu_device *ro = NULL;
		int r = ipu_device_open(id, IPU_OPEN_READONLY, &ro, &e);

		if (!r)
			r = ipu_load(ro, bin, len, &e);
		kt_result(r == -EPERM, "load on a read-only open: -EPERM%s%s", r == -EPERM ? "" : " # ",
			  r == -EPERM ? "" : e.msg);
		ipu_device_close(ro);
	}
	{	/* and it computes */
		static float a[64 * 32], b[32 * 48], c[64 * 48];
		static double ref[64 * 48];
		uint64_t seed = 7;
		double err = 1;

		fill_floats(a, 64 * 32, &seed);
		fill_floats(b, 32 * 48, &seed);
		if (!ipu_tensor_write(d, "a", a, sizeof(a), &e) &&
		    !ipu_tensor_write(d, "b", b, sizeof(b), &e) && !ipu_run(d, 0, 1, NULL, &e) &&
		    !ipu_tensor_read(d, "c", c, sizeof(c), &e)) {
			ref_matmul(a, b, ref, 64, 48, 32);
			err = max_rel_err(c, ref, 64 * 48, sqrt(32.0));
		}
		kt_result(err < 1e-5, "the card still computes a correct product (%g)", err);
	}
}

int main(void)
{
	struct ipu_card *cards;
	size_t n;
	unsigned id;
	uint32_t model = 0, other = 0;
	struct ipu_device *d = NULL;
	void *bin = NULL;
	size_t len;
	float buf[64 * 64];
	char small[8];

	printf("TAP version 13\n");
	if (ipu_enumerate(&cards, &n, &e)) {
		printf("1..1\nnot ok 1 enumerate # %s\n", e.msg);
		return 1;
	}
	id = cards[0].id;
	for (size_t i = 0; i < n; i++)
		if (cards[i].model != cards[0].model)
			other = cards[i].model;
	ipu_cards_free(cards);
	printf("1..18\n");

	if (ipu_device_open(id, 0, &d, &e) || card_model(d, &model, &e) ||
	    graph_matmul(model, 64, 32, 48, &bin, &len, &e)) {
		printf("not ok 1 setup # %s\n", e.msg);
		return 1;
	}
	EXPECT(ipu_run(d, 0, 1, NULL, &e), -ENOENT, "no graph loaded", "run without a graph: -ENOENT");
	EXPECT(ipu_tensor_write(d, "a", buf, 4, &e), -ENOENT, "no graph loaded",
	       "write without a graph: -ENOENT");
	ipu_error_clear(&e);
	kt_result(!ipu_load(d, bin, len, &e), "load a matmul graph%s%s", e.code ? " # " : "",
		  e.code ? e.msg : "");
	EXPECT(ipu_tensor_write(d, "weights", buf, 16, &e), -ENOENT, "no tensor 'weights'",
	       "unknown tensor name: -ENOENT naming it");
	EXPECT(ipu_tensor_write_at(d, "a", 4096, buf, 8192, &e), -ERANGE,
	       "tensor 'a': offset 4096 + 8192 bytes is beyond its 8192 bytes",
	       "out-of-range offset: -ERANGE with the range");
	EXPECT(ipu_tensor_read_at(d, "c", (uint64_t)1 << 40, buf, 4, &e), -ERANGE,
	       "is beyond its", "offset far beyond the tensor: -ERANGE");
	EXPECT(ipu_tensor_read(d, "a", buf, 8192, &e), -EACCES, "may not read",
	       "read of a write-only tensor: -EACCES");
	EXPECT(ipu_tensor_write(d, "a", buf, 100, &e), -EINVAL, "100 bytes given",
	       "whole-tensor write of the wrong size: -EINVAL");
	EXPECT(ipu_run(d, 3, 1, NULL, &e), -ERANGE, "program 3 does not exist",
	       "wrong program index: -ERANGE");

	/* corrupt binaries */
	corrupt_binary_tests(d, bin, len, other, buf);

	/* a busy card */
	busy_card_tests(id, d, bin, len);
	(void)small;
	ipu_device_close(d);
	free(bin);
	return kt_fail ? 1 : 0;
}
