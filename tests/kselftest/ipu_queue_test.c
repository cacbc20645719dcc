// SPDX-License-Identifier: GPL-2.0
/*
 * The card's command queues (docs/hw-interface.md, "Command queues") driven
 * from user space with the driver unbound: rings and data live in locked
 * anonymous memory whose physical addresses come from /proc/self/pagemap
 * (no IOMMU in this VM), commands go through the doorbells and completions
 * are polled by their phase bit. Covers a graph's load/write/run/read with
 * exact results and every kind of bad command, bad address (the card's own
 * BAR, memory that does not exist), bad SG list, bad doorbell and bad ring
 * the specification names: each must complete with its error status (or
 * stop the queue) and leave the card working.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"
#include "ipu_bar0.h"
#include "ipudev.h"
#include "ipu_graphs.h"

/* The harness compares expected and actual values of mixed types by design. */
#pragma GCC diagnostic ignored "-Wsign-compare"

#define DEV_CARD	3	/* the VM's small "test" card */
#define QSIZE		64
#define POOL_PAGES	512	/* 2 MiB of DMA-able test memory */
#define PAGE		4096u
#define N_ELEMS		4096	/* f32 elements of the test tensors */

FIXTURE(queue) {
	struct ipu_bar0 bar;
	uint8_t *pool;		/* POOL_PAGES locked pages */
	uint64_t phys[POOL_PAGES];
	unsigned next_page;	/* pool allocation cursor */
	struct ipu_sqe *sq;
	struct ipu_cqe *cq;
	unsigned sq_tail, cq_head;
	int phase;
	uint16_t cid;
	void *graph;
	size_t graph_len;
};

static uint32_t rd32(FIXTURE_DATA(queue) *self, uint32_t off)
{
	return ipu_bar0_rd(&self->bar, off);
}

static void wr32(FIXTURE_DATA(queue) *self, uint32_t off, uint32_t v)
{
	ipu_bar0_wr(&self->bar, off, v);
}

static int iommu_present(void)
{
	DIR *d = opendir("/sys/class/iommu");
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n > 0;
}

/* Pages from the pool: returns the first page's index. */
static unsigned pool_pages(FIXTURE_DATA(queue) *self, unsigned n)
{
	unsigned p = self->next_page;

	if (p + n > POOL_PAGES)
		abort();
	self->next_page += n;
	return p;
}

static void *page_ptr(FIXTURE_DATA(queue) *self, unsigned p)
{
	return self->pool + (size_t)p * PAGE;
}

/*
 * An SG list in page @sgl_page describing @len bytes starting at page
 * @first (one entry per page). Returns the list's physical address.
 */
static uint64_t make_sgl(FIXTURE_DATA(queue) *self, unsigned sgl_page,
			 unsigned first, uint64_t len, uint32_t *count)
{
	struct ipu_sge *sge = page_ptr(self, sgl_page);
	unsigned n = 0;

	while (len) {
		uint32_t l = len < PAGE ? len : PAGE;

		sge[n].addr = self->phys[first + n];
		sge[n].len = l;
		sge[n].reserved = 0;
		len -= l;
		n++;
	}
	*count = n;
	return self->phys[sgl_page];
}

/* Submits @e on queue 0 and waits for its completion (10 s at most). */
static int submit(FIXTURE_DATA(queue) *self, struct ipu_sqe *e,
		  struct ipu_cqe *out)
{
	long long t0 = ipu_now_ms();
	volatile struct ipu_cqe *c;

	e->cid = ++self->cid;
	self->sq[self->sq_tail] = *e;
	__sync_synchronize();
	self->sq_tail = (self->sq_tail + 1) % QSIZE;
	wr32(self, IPU_REG_SQ_TAIL(0), self->sq_tail);

	c = &self->cq[self->cq_head];
	while ((c->status & IPU_CQE_PHASE) != self->phase) {
		if (ipu_now_ms() - t0 > 10000)
			return -ETIMEDOUT;
		usleep(100);
	}
	__sync_synchronize();
	*out = *(struct ipu_cqe *)c;
	self->cq_head = (self->cq_head + 1) % QSIZE;
	if (!self->cq_head)
		self->phase ^= 1;
	wr32(self, IPU_REG_CQ_HEAD(0), self->cq_head);
	return out->cid == e->cid ? 0 : -EPROTO;
}

/* Submits and returns the completion's status code (or -errno). */
static int run_cmd(FIXTURE_DATA(queue) *self, struct ipu_sqe *e,
		   struct ipu_cqe *cqe)
{
	struct ipu_cqe tmp;
	int ret = submit(self, e, cqe ? cqe : &tmp);

	return ret ? ret : IPU_CQE_CODE((cqe ? cqe : &tmp)->status);
}

static int setup_queue(FIXTURE_DATA(queue) *self, unsigned q,
		       uint64_t sq_phys, uint64_t cq_phys)
{
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), 0);
	wr32(self, IPU_REG_Q(q, IPU_Q_SQ_BASE_LO), (uint32_t)sq_phys);
	wr32(self, IPU_REG_Q(q, IPU_Q_SQ_BASE_HI), sq_phys >> 32);
	wr32(self, IPU_REG_Q(q, IPU_Q_CQ_BASE_LO), (uint32_t)cq_phys);
	wr32(self, IPU_REG_Q(q, IPU_Q_CQ_BASE_HI), cq_phys >> 32);
	wr32(self, IPU_REG_Q(q, IPU_Q_SIZE), QSIZE);
	wr32(self, IPU_REG_Q(q, IPU_Q_VECTOR), 1);
	wr32(self, IPU_REG_Q(q, IPU_Q_COALESCE), 0);
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), IPU_Q_CTRL_ENABLE);
	return rd32(self, IPU_REG_Q(q, IPU_Q_STATUS));
}

/* y = x + x over the test model's tiles; x write-only, y read-only. */
static int build_graph(void **buf, size_t *len)
{
	uint32_t shape[1] = { N_ELEMS };
	struct ipu_error err;
	struct ipu_graph *g;
	int x, y, seq, ret;

	ret = ipu_graph_create(IPU_MODEL_TEST, &g, &err);
	if (ret)
		return ret;
	x = ipu_graph_add_tensor(g, "x", IPU_DTYPE_F32, 1, shape, &err);
	if (x < 0 || ipu_graph_map_linear(g, x, 16, &err) < 0 ||
	    ipu_graph_expose(g, x, NULL, IPU_HANDLE_WRITE, &err) != 0)
		goto fail;
	seq = ipu_prog_sequence(g, &err);
	if (seq < 0)
		goto fail;
	y = ipu_binary(g, seq, IPU_OP_ADD, x, x, "y", &err);
	/* Handles are numbered in the order tensors are exposed. */
	if (y < 0 || ipu_graph_expose(g, y, NULL, IPU_HANDLE_READ, &err) != 1 ||
	    ipu_graph_add_program(g, "double", seq, &err) < 0 ||
	    ipu_graph_write(g, buf, len, &err))
		goto fail;
	ipu_graph_free(g);
	return 0;
fail:
	fprintf(stderr, "# graph: %s\n", err.msg);
	ipu_graph_free(g);
	return -EINVAL;
}

FIXTURE_SETUP(queue)
{
	char msg[256];
	int fd, ret;

	self->pool = MAP_FAILED;
	/* Physical addresses mean nothing to a card behind an IOMMU. */
	if (iommu_present())
		SKIP(return, "an IOMMU translates the card's DMA (the driver's tests cover it)");
	ASSERT_EQ(0, build_graph(&self->graph, &self->graph_len));
	ret = ipu_bar0_take(&self->bar, DEV_CARD, true, msg, sizeof(msg));
	if (ret == -ENODEV)
		SKIP(return, "card %d is not present", DEV_CARD);
	ASSERT_EQ(0, ret) TH_LOG("%s", msg);
	/* Start from a card without a graph: a soft reset drops it. */
	ASSERT_EQ(0, ipu_bar0_reset(&self->bar));

	/* Locked memory and its physical pages. */
	self->pool = mmap(NULL, (size_t)POOL_PAGES * PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED | MAP_POPULATE,
			  -1, 0);
	ASSERT_NE(MAP_FAILED, self->pool);
	memset(self->pool, 0, (size_t)POOL_PAGES * PAGE);
	fd = open("/proc/self/pagemap", O_RDONLY);
	ASSERT_GE(fd, 0);
	for (unsigned i = 0; i < POOL_PAGES; i++) {
		uint64_t ent, va = (uint64_t)(uintptr_t)page_ptr(self, i);

		ASSERT_EQ(8, pread(fd, &ent, 8, va / PAGE * 8));
		ASSERT_TRUE(ent >> 63);		/* present */
		self->phys[i] = (ent & ((1ull << 55) - 1)) * PAGE;
		ASSERT_NE(0, self->phys[i]);	/* needs root */
	}
	close(fd);

	self->sq = page_ptr(self, pool_pages(self, 1));
	self->cq = page_ptr(self, pool_pages(self, 1));
	self->phase = 1;
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  setup_queue(self, 0, self->phys[0], self->phys[1]));
}

FIXTURE_TEARDOWN(queue)
{
	/* Queues off first: the card lets go of the rings before they go. */
	if (self->bar.regs)
		for (unsigned q = 0; q < IPU_NUM_QUEUES; q++)
			wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), 0);
	usleep(20000);
	EXPECT_EQ(0, ipu_bar0_release(&self->bar));
	if (self->pool != MAP_FAILED)
		munmap(self->pool, (size_t)POOL_PAGES * PAGE);
	free(self->graph);
}

/* LOAD the test graph through an SG list. */
static int load_graph(FIXTURE_DATA(queue) *self)
{
	unsigned pages = (self->graph_len + PAGE - 1) / PAGE;
	unsigned data = pool_pages(self, pages), sgl = pool_pages(self, 1);
	struct ipu_sqe e = { .opcode = IPU_SQE_LOAD };

	memcpy(page_ptr(self, data), self->graph, self->graph_len);
	e.length = self->graph_len;
	e.data = make_sgl(self, sgl, data, self->graph_len, &e.sgl_count);
	return run_cmd(self, &e, NULL);
}

TEST_F(queue, load_write_run_read)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned in = pool_pages(self, N_ELEMS * 4 / PAGE);
	unsigned out = pool_pages(self, N_ELEMS * 4 / PAGE);
	unsigned sgl_in = pool_pages(self, 1), sgl_out = pool_pages(self, 1);
	float *x = page_ptr(self, in), *y = page_ptr(self, out);
	struct ipu_sqe e;
	struct ipu_cqe c;

	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	for (int i = 0; i < N_ELEMS; i++)
		x[i] = (float)i * 0.5f - 100.0f;

	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_WRITE;
	e.handle = 0;			/* "x": exposed first */
	e.length = N_ELEMS * 4;
	e.data = make_sgl(self, sgl_in, in, e.length, &e.sgl_count);
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));

	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.count = 3;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	EXPECT_LT(0, c.cycles);
	EXPECT_LT(0, c.host_ns);

	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_READ;
	e.handle = 1;			/* "y" */
	e.length = N_ELEMS * 4;
	e.data = make_sgl(self, sgl_out, out, e.length, &e.sgl_count);
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	EXPECT_EQ(0, c.sq_id);
	for (int i = 0; i < N_ELEMS; i++)
		ASSERT_EQ(x[i] + x[i], y[i]);

	/* A byte range of a tensor, from a contiguous buffer. */
	memset(&e, 0, sizeof(e));
	memset(y, 0, 64);
	e.opcode = IPU_SQE_READ;
	e.handle = 1;
	e.offset = 4 * 100;
	e.length = 40;
	e.data = self->phys[out] + 8;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	for (int i = 0; i < 10; i++)
		ASSERT_EQ(x[100 + i] * 2, ((float *)((uint8_t *)y + 8))[i]);
}

TEST_F(queue, bad_commands)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned buf = pool_pages(self, 1);
	struct ipu_sqe e;
	struct ipu_cqe c;

	/* Before a graph is loaded. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	EXPECT_EQ(IPU_CS_NO_GRAPH, run_cmd(self, &e, NULL));
	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));

	memset(&e, 0, sizeof(e));
	e.opcode = 0x7f;
	EXPECT_EQ(IPU_CS_INVALID_OPCODE, run_cmd(self, &e, &c));
	EXPECT_EQ(0x7f, c.detail);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_FENCE;
	e.flags = 1;
	EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, &c));
	EXPECT_EQ(1, c.detail);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_FENCE;
	e.reserved[1] = 1;
	EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, &c));
	EXPECT_EQ(48, c.detail);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.arg = 1;
	EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, &c));
	EXPECT_EQ(40, c.detail);

	/* Programs and handles that do not exist, ranges, access. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.handle = 5;
	EXPECT_EQ(IPU_CS_BAD_HANDLE, run_cmd(self, &e, NULL));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_READ;
	e.handle = 9;
	e.length = 4;
	e.data = self->phys[buf];
	EXPECT_EQ(IPU_CS_BAD_HANDLE, run_cmd(self, &e, NULL));
	e.handle = 1;
	e.offset = N_ELEMS * 4 - 2;
	EXPECT_EQ(IPU_CS_OUT_OF_RANGE, run_cmd(self, &e, NULL));
	e.offset = UINT64_MAX - 1;
	EXPECT_EQ(IPU_CS_OUT_OF_RANGE, run_cmd(self, &e, NULL));
	e.offset = 0;
	e.handle = 0;			/* "x" is write-only */
	EXPECT_EQ(IPU_CS_ACCESS, run_cmd(self, &e, NULL));

	/* A binary that is too large is refused before any DMA. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_LOAD;
	e.length = IPU_MAX_GRAPH_BYTES + 1ull;
	e.data = self->phys[buf];
	EXPECT_EQ(IPU_CS_TOO_LARGE, run_cmd(self, &e, NULL));

	/* The card still works. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_FENCE;
	EXPECT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
}

TEST_F(queue, corrupt_graph_message)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned pages = (self->graph_len + PAGE - 1) / PAGE;
	unsigned data = pool_pages(self, pages), msg = pool_pages(self, 1);
	unsigned sgl = pool_pages(self, 1);
	struct ipu_sqe e = { .opcode = IPU_SQE_LOAD };
	struct ipu_cqe c;
	char *m = page_ptr(self, msg);

	memcpy(page_ptr(self, data), self->graph, self->graph_len);
	/* Corrupt a byte in the middle: the checksum must catch it. */
	((uint8_t *)page_ptr(self, data))[self->graph_len / 2] ^= 0x5a;
	e.length = self->graph_len;
	e.data = make_sgl(self, sgl, data, e.length, &e.sgl_count);
	e.arg = self->phys[msg];
	EXPECT_EQ(IPU_CS_LOAD_FAILED, run_cmd(self, &e, &c));
	EXPECT_NE(0, m[0]);
	TH_LOG("card says: %.200s", m);

	/* A truncated binary fails too, and RUN then has no graph. */
	memcpy(page_ptr(self, data), self->graph, self->graph_len);
	memset(m, 0, 64);
	e.length = 16;
	e.data = self->phys[data];
	e.sgl_count = 0;
	EXPECT_EQ(IPU_CS_LOAD_FAILED, run_cmd(self, &e, &c));
	EXPECT_NE(0, m[0]);
	TH_LOG("card says: %.200s", m);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	EXPECT_EQ(IPU_CS_NO_GRAPH, run_cmd(self, &e, NULL));
}

TEST_F(queue, bad_addresses)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned buf = pool_pages(self, 1), sgl = pool_pages(self, 1);
	struct ipu_sge *sge = page_ptr(self, sgl);
	struct ipu_sqe e;
	struct ipu_cqe c;

	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_WRITE;
	e.length = 64;

	/* The card's own registers are not memory it may DMA to or from. */
	e.data = self->bar.phys + IPU_REG_SCRATCH;
	EXPECT_EQ(IPU_CS_DMA_ERROR, run_cmd(self, &e, &c));
	EXPECT_EQ((uint32_t)e.data, c.detail);
	e.opcode = IPU_SQE_READ;
	e.handle = 1;
	EXPECT_EQ(IPU_CS_DMA_ERROR, run_cmd(self, &e, NULL));
	EXPECT_EQ(IPU_MAGIC, rd32(self, IPU_REG_MAGIC));
	/* Memory that does not exist. */
	e.data = 1ull << 40;
	EXPECT_EQ(IPU_CS_DMA_ERROR, run_cmd(self, &e, &c));
	EXPECT_EQ(1u << 8, c.detail2);
	/* A RAM buffer that runs into the end of the address space. */
	e.data = UINT64_MAX - 16;
	EXPECT_EQ(IPU_CS_DMA_ERROR, run_cmd(self, &e, NULL));

	/* SG lists: misaligned, zero length, reserved, too short, too long. */
	e.opcode = IPU_SQE_WRITE;
	e.handle = 0;
	e.sgl_count = 1;
	e.data = self->phys[sgl] + 8;
	EXPECT_EQ(IPU_CS_INVALID_SGL, run_cmd(self, &e, NULL));
	e.data = self->phys[sgl];
	sge[0] = (struct ipu_sge){ .addr = self->phys[buf], .len = 0 };
	EXPECT_EQ(IPU_CS_INVALID_SGL, run_cmd(self, &e, &c));
	EXPECT_EQ(0, c.detail);
	sge[0] = (struct ipu_sge){ .addr = self->phys[buf], .len = 64, .reserved = 1 };
	EXPECT_EQ(IPU_CS_INVALID_SGL, run_cmd(self, &e, NULL));
	sge[0] = (struct ipu_sge){ .addr = self->phys[buf], .len = 32 };
	EXPECT_EQ(IPU_CS_INVALID_SGL, run_cmd(self, &e, NULL));
	sge[0] = (struct ipu_sge){ .addr = self->phys[buf], .len = 128 };
	EXPECT_EQ(IPU_CS_INVALID_SGL, run_cmd(self, &e, NULL));
	e.sgl_count = IPU_MAX_SGL_ENTRIES + 1;
	EXPECT_EQ(IPU_CS_INVALID_SGL, run_cmd(self, &e, NULL));
	/* An SG entry pointing at the BAR, and an SG list in the BAR. */
	e.sgl_count = 2;
	sge[0] = (struct ipu_sge){ .addr = self->phys[buf], .len = 32 };
	sge[1] = (struct ipu_sge){ .addr = self->bar.phys, .len = 32 };
	EXPECT_EQ(IPU_CS_DMA_ERROR, run_cmd(self, &e, NULL));
	e.data = self->bar.phys;
	EXPECT_EQ(IPU_CS_DMA_ERROR, run_cmd(self, &e, NULL));
	/* Valid again: the card is fine. */
	e.sgl_count = 1;
	e.data = self->phys[sgl];
	sge[0] = (struct ipu_sge){ .addr = self->phys[buf], .len = 64 };
	EXPECT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
}

TEST_F(queue, stream_rings)
{
	IPU_RETURN_IF_SKIPPED();
	const unsigned ring_bytes = S_ROUNDS * S_ELEMS * 4;
	unsigned gpages, gdata, gsgl, in, out, sgl_out;
	struct ipu_sqe e;
	struct ipu_cqe c;
	void *graph;
	size_t glen;
	float *x;

	ASSERT_EQ(0, ipu_test_stream_graph(&graph, &glen));
	gpages = (glen + PAGE - 1) / PAGE;
	gdata = pool_pages(self, gpages);
	gsgl = pool_pages(self, 1);
	memcpy(page_ptr(self, gdata), graph, glen);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_LOAD;
	e.length = glen;
	e.data = make_sgl(self, gsgl, gdata, glen, &e.sgl_count);
	free(graph);
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));

	/* Unbound streams fail the run with the engine's stream error. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	EXPECT_EQ(IPU_CS_RUN_FAILED, run_cmd(self, &e, &c));
	EXPECT_EQ(7, c.detail);

	/* "in": one page, contiguous; "out": three pages through an SG list. */
	in = pool_pages(self, 1);
	out = pool_pages(self, 1);
	(void)pool_pages(self, 2);
	sgl_out = pool_pages(self, 1);
	x = page_ptr(self, in);
	for (unsigned i = 0; i < S_ROUNDS * S_ELEMS; i++)
		x[i] = (float)i / 3.0f;
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_STREAM_BIND;
	e.handle = 0;
	e.length = ring_bytes;
	e.data = self->phys[in];
	EXPECT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	e.handle = 1;
	e.data = make_sgl(self, sgl_out, out, ring_bytes, &e.sgl_count);
	EXPECT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));

	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	/* The SG list spans three pages: y's slots are one page apart. */
	for (unsigned r = 0; r < S_ROUNDS; r++)
		for (unsigned i = 0; i < S_ELEMS; i++) {
			unsigned k = r * S_ELEMS + i;
			float *slot = (float *)page_ptr(self, out + k * 4 / PAGE);

			ASSERT_EQ(x[k] * 2, slot[k % (PAGE / 4)]);
		}

	/* Bad binds: a ring that is not whole transfers, a bad stream, the BAR. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_STREAM_BIND;
	e.handle = 0;
	e.length = S_ELEMS * 4 + 4;
	e.data = self->phys[in];
	EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, &c));
	EXPECT_EQ(16, c.detail);
	e.length = S_ELEMS * 4;
	e.handle = 2;
	EXPECT_EQ(IPU_CS_BAD_HANDLE, run_cmd(self, &e, NULL));
	e.handle = 0;
	e.data = self->bar.phys;
	EXPECT_EQ(IPU_CS_DMA_ERROR, run_cmd(self, &e, NULL));
	/* Unbinding "out" makes the run fail again. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_STREAM_BIND;
	e.handle = 1;
	EXPECT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	EXPECT_EQ(IPU_CS_RUN_FAILED, run_cmd(self, &e, NULL));
}

/*
 * @len clamped so that [@addr, @addr + @len) stays in one page when @addr
 * is a page of the pool (other memory belongs to someone else); addresses
 * outside RAM are left alone (the card refuses them).
 */
static uint32_t in_page_len(FIXTURE_DATA(queue) *self, uint64_t addr,
			    uint64_t len)
{
	for (unsigned p = 0; p < POOL_PAGES; p++)
		if (addr >= self->phys[p] && addr < self->phys[p] + PAGE)
			return len < PAGE - (addr & (PAGE - 1)) ?
			       len : PAGE - (addr & (PAGE - 1));
	return len;
}

/*
 * Random commands: every opcode (and unknown ones), random fields, and
 * addresses drawn from the pool, the card's BAR, memory that does not exist
 * and unaligned places. Each must complete with some status, in order, and
 * the card must work afterwards. Addresses stay inside the pool or outside
 * RAM, so the card cannot scribble over the guest.
 */
TEST_F(queue, random_commands)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned data = pool_pages(self, 8), sgl = pool_pages(self, 1);
	struct ipu_sge *sge = page_ptr(self, sgl);
	uint64_t seed = 0x2545f4914f6cdd1dull ^ (uint64_t)getpid();
	unsigned counts[16] = { 0 };
	struct ipu_sqe e;
	struct ipu_cqe c;

	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	for (int i = 0; i < 3000; i++) {
		uint64_t r[8];

		for (int k = 0; k < 8; k++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			r[k] = seed;
		}
		/* Addresses: pool pages (at any offset), the BAR, no memory. */
		uint64_t addrs[5] = {
			self->phys[data + r[0] % 8] + (r[1] & 4095),
			self->phys[data + r[0] % 8],
			self->bar.phys + (r[1] & (IPU_BAR_REGS_SIZE - 1)),
			(1ull << 40) + (r[1] & 0xffff),
			self->phys[sgl],
		};
		/* An SG list of up to 4 entries inside the pool (or not). */
		for (int k = 0; k < 4; k++) {
			sge[k].addr = addrs[(r[2] >> (k * 4)) % 5] & ~(uint64_t)(r[6] & 1);
			sge[k].len = in_page_len(self, sge[k].addr,
						 (r[3] >> (k * 8)) & 0xfff);
			sge[k].reserved = !((r[4] >> k) & 15);
		}
		memset(&e, 0, sizeof(e));
		e.opcode = r[5] % 9;		/* 0 and 8: unknown */
		if (!(r[5] & 0xf00))
			e.opcode = (uint8_t)(r[5] >> 16);
		e.handle = (r[5] >> 24) % 4;
		e.offset = (r[6] >> 8) & 0x7fff;
		e.length = (r[7] & 1) ? (r[7] >> 8) & 0x7fff : (r[7] >> 8) & 0xff;
		e.count = e.opcode == IPU_SQE_RUN ? (r[7] >> 32) % 3 : 0;
		e.sgl_count = (r[4] >> 8) % 6;
		e.data = e.sgl_count && (r[4] & 0x100000) ? self->phys[sgl] :
			 addrs[(r[4] >> 24) % 5];
		if (e.opcode == IPU_SQE_LOAD)	/* keep the graph loaded */
			e.opcode = IPU_SQE_READ;
		/* Mostly leave the fields an opcode does not use at 0. */
		if (e.opcode != IPU_SQE_READ && e.opcode != IPU_SQE_WRITE &&
		    (r[6] & 3)) {
			e.offset = 0;
			if (e.opcode != IPU_SQE_STREAM_BIND)
				e.length = e.data = e.sgl_count = 0;
		}
		if (!(r[6] & 0xff0000))
			e.flags = 1;
		/* The card may write what it reads: never past a pool page. */
		if (!e.sgl_count)
			e.length = in_page_len(self, e.data, e.length);
		ASSERT_EQ(0, submit(self, &e, &c)) TH_LOG("command %d hung", i);
		counts[IPU_CQE_CODE(c.status) & 15]++;
	}
	for (int k = 0; k < 16; k++)
		if (counts[k])
			TH_LOG("status %d: %u", k, counts[k]);
	/* Still working: the exact round trip of the first test. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	EXPECT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	EXPECT_EQ(IPU_MAGIC, rd32(self, IPU_REG_MAGIC));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(0, IPU_Q_STATUS)));
}

/* Disabling a queue under a long RUN cancels it; ENABLED drops when done. */
TEST_F(queue, disable_during_run)
{
	IPU_RETURN_IF_SKIPPED();
	struct ipu_sqe e = { .opcode = IPU_SQE_RUN, .count = 1000000 };
	long long t0;
	uint32_t st;

	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	e.cid = 77;
	self->sq[self->sq_tail] = e;
	__sync_synchronize();
	self->sq_tail = (self->sq_tail + 1) % QSIZE;
	wr32(self, IPU_REG_SQ_TAIL(0), self->sq_tail);
	/* Wait for the card to fetch it, then pull the queue from under it. */
	t0 = ipu_now_ms();
	while (rd32(self, IPU_REG_Q(0, IPU_Q_SQ_HEAD)) != self->sq_tail &&
	       ipu_now_ms() - t0 < 5000)
		usleep(100);
	usleep(20000);
	wr32(self, IPU_REG_Q(0, IPU_Q_CTRL), 0);
	st = rd32(self, IPU_REG_Q(0, IPU_Q_STATUS));
	t0 = ipu_now_ms();
	while ((rd32(self, IPU_REG_Q(0, IPU_Q_STATUS)) & IPU_Q_STATUS_ENABLED) &&
	       ipu_now_ms() - t0 < 5000)
		usleep(100);
	TH_LOG("ENABLED read %u right after the disable, 0 after %lld ms",
	       st & IPU_Q_STATUS_ENABLED, ipu_now_ms() - t0);
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, st);
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(0, IPU_Q_STATUS)));
	/* No completion was posted for the cancelled command. */
	EXPECT_EQ(0, self->cq[self->cq_head].status & IPU_CQE_PHASE);
	EXPECT_EQ(self->cq_head, rd32(self, IPU_REG_Q(0, IPU_Q_CQ_TAIL)));
}

TEST_F(queue, bad_queue_setup_and_doorbells)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned sq = pool_pages(self, 1), cq = pool_pages(self, 1);
	uint32_t st;

	/* Configuration errors leave the queue disabled with a code. */
	wr32(self, IPU_REG_Q(1, IPU_Q_SIZE), 3);
	wr32(self, IPU_REG_Q(1, IPU_Q_CTRL), IPU_Q_CTRL_ENABLE);
	st = rd32(self, IPU_REG_Q(1, IPU_Q_STATUS));
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_SIZE << 8), st);
	wr32(self, IPU_REG_Q(1, IPU_Q_SIZE), 8192);
	wr32(self, IPU_REG_Q(1, IPU_Q_CTRL), IPU_Q_CTRL_ENABLE);
	EXPECT_EQ(IPU_QERR_SIZE, IPU_Q_STATUS_CODE(rd32(self, IPU_REG_Q(1, IPU_Q_STATUS))));
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_ALIGN << 8),
		  setup_queue(self, 1, self->phys[sq] + 64, self->phys[cq]));

	/* A doorbell beyond the ring, or on a disabled queue, is ignored. */
	wr32(self, IPU_REG_SQ_TAIL(0), QSIZE + 5);
	wr32(self, IPU_REG_SQ_TAIL(2), 1);
	usleep(10000);
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(0, IPU_Q_SQ_HEAD)));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(2, IPU_Q_SQ_HEAD)));
	/* Registers are locked while the queue is enabled. */
	wr32(self, IPU_REG_Q(0, IPU_Q_SIZE), 8);
	EXPECT_EQ(QSIZE, rd32(self, IPU_REG_Q(0, IPU_Q_SIZE)));

	/* A ring in the card's own BAR stops that queue, and only that one. */
	EXPECT_EQ(IPU_Q_STATUS_ENABLED,
		  setup_queue(self, 1, self->bar.phys, self->phys[cq]));
	wr32(self, IPU_REG_SQ_TAIL(1), 1);
	for (int i = 0; i < 1000 && !(rd32(self, IPU_REG_Q(1, IPU_Q_STATUS)) &
				     IPU_Q_STATUS_ERROR); i++)
		usleep(1000);
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_RING_DMA << 8),
		  rd32(self, IPU_REG_Q(1, IPU_Q_STATUS)));
	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));

	/* Reset disables every queue and clears its registers. */
	EXPECT_EQ(0, ipu_bar0_reset(&self->bar));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(0, IPU_Q_STATUS)));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(0, IPU_Q_SIZE)));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(1, IPU_Q_STATUS)));
}

TEST_HARNESS_MAIN
