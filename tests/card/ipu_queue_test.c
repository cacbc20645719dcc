// SPDX-License-Identifier: GPL-2.0
/*
 * The card's command queues (docs/hw-interface.md, "Command queues") driven
 * from user space with the driver unbound: rings and data live in locked
 * anonymous memory whose physical addresses come from /proc/self/pagemap
 * (behind an IOMMU, the card's group gets an identity domain for the test),
 * commands go through the doorbells and completions
 * are polled by their phase bit. Covers a graph's load/write/run/read with
 * exact results and every kind of bad command, bad address (the card's own
 * BAR, memory that does not exist), bad SG list, bad doorbell and bad ring
 * the specification names: each must complete with its error status (or
 * stop the queue) and leave the card working. Also the doorbell pages
 * (BAR4) and user queues (CTRL.USER: RUN, FENCE and ABORT only, no DMA for
 * anything else) of hardware interface 1.2, and its UNLOAD: the graph, its
 * data (a later graph's tensors read zeros) and its stream bindings go; and
 * its run records (REC_BASE): one per RUN at the CQ index of its completion,
 * with the engine's counters of the run, none for other commands, and a
 * record the card cannot write stopping the queue.
 *
 * The "dma" tests drive a gc200 card from hugepages, also behind an IOMMU
 * (its group switched between its DMA domain, where every address faults,
 * and an identity one): a storm of DMA faults on every ring and buffer kind
 * and every queue, interleaved with resets, each reported as the
 * specification says, QEMU staying up and the card working afterwards; and
 * disable and reset under 128 MiB READs and WRITEs, after which the card
 * touches none of the memory again (its confirmation time is printed).
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

/* A queue the test drives: its rings in the pool and its place in them. */
struct tq {
	unsigned qi;
	unsigned size;		/* entries per ring */
	struct ipu_sqe *sq;
	struct ipu_cqe *cq;
	unsigned sq_tail, cq_head;
	int phase;
	bool bar4;		/* doorbells through its BAR4 page, not BAR0 */
};

FIXTURE(queue) {
	struct ipu_bar0 bar;
	uint8_t *pool;		/* POOL_PAGES locked pages */
	uint64_t phys[POOL_PAGES];
	unsigned next_page;	/* pool allocation cursor */
	struct tq qs[IPU_NUM_QUEUES];
	struct tq *q;		/* the queue submit() uses: queue 0 at first */
	uint16_t cid;
	void *graph;
	size_t graph_len;
	char type_path[PATH_MAX];	/* the IOMMU group's type, "" without */
	char type0[32];			/* its type before the test */
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

/*
 * The "type" file of the IOMMU group of the PCI function at @pcidir into
 * @path, or "" when it has none.
 */
static void iommu_type_path(const char *pcidir, char *path, size_t len)
{
	char p[PATH_MAX + 32], link[PATH_MAX];
	ssize_t n;

	path[0] = 0;
	snprintf(p, sizeof(p), "%s/iommu_group", pcidir);
	n = readlink(p, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = 0;
	snprintf(path, len, "/sys/kernel/iommu_groups/%s/type",
		 strrchr(link, '/') + 1);
}

/*
 * Gives the IOMMU group whose "type" file is @path a new default domain:
 * "DMA" (translated: with the driver unbound nothing is mapped, every
 * address faults) or "identity" (bus addresses are physical addresses).
 * The kernel allows it only with no driver bound. 0 or -errno.
 */
static int iommu_set_type(const char *path, const char *type)
{
	char cur[32];
	int ret = ipu_write_file(path, type);

	if (!ret)
		ret = ipu_read_file(path, cur, sizeof(cur));
	return ret ? ret : strcmp(cur, type) ? -EIO : 0;
}

/*
 * For a FIXTURE_SETUP(), behind an IOMMU: the "type" file of the IOMMU
 * group of the PCI function at @pcidir into @path, its type into @type0,
 * then an identity domain for the group; the test skipped (@path "") when
 * the kernel refuses it. Nothing without an IOMMU (@path stays "").
 */
static void iommu_identity(struct __test_metadata *_metadata,
			   const char *pcidir, char *path, size_t path_len,
			   char *type0, size_t type0_len)
{
	int ret;

	if (!iommu_present())
		return;
	iommu_type_path(pcidir, path, path_len);
	ASSERT_NE(0, path[0]);
	ASSERT_EQ(0, ipu_read_file(path, type0, type0_len));
	ret = iommu_set_type(path, "identity");
	if (ret) {
		path[0] = 0;
		SKIP(return, "cannot give the card's IOMMU group an identity domain: %s",
		     strerror(-ret));
	}
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

/* Rings @q's SQ_TAIL (@cq false) or CQ_HEAD doorbell in BAR0 or BAR4. */
static void doorbell(FIXTURE_DATA(queue) *self, struct tq *q, bool cq,
		     uint32_t v)
{
	if (q->bar4)
		ipu_db_wr(&self->bar, q->qi, cq ? IPU_DB_CQ_HEAD : IPU_DB_SQ_TAIL,
			  v);
	else
		wr32(self, cq ? IPU_REG_CQ_HEAD(q->qi) : IPU_REG_SQ_TAIL(q->qi),
		     v);
}

/* Puts @e (with a new cid) into @q's SQ, without the doorbell. */
static void post(FIXTURE_DATA(queue) *self, struct tq *q, struct ipu_sqe *e)
{
	e->cid = ++self->cid;
	q->sq[q->sq_tail] = *e;
	__sync_synchronize();
	q->sq_tail = (q->sq_tail + 1) % q->size;
}

/*
 * Waits (@ms at most) for @q's next completion and takes it, without the
 * CQ_HEAD doorbell. 0 or -ETIMEDOUT.
 */
static int reap(struct tq *q, struct ipu_cqe *out, long ms)
{
	volatile struct ipu_cqe *c = &q->cq[q->cq_head];
	long long t0 = ipu_now_ms();

	while ((c->status & IPU_CQE_PHASE) != q->phase) {
		if (ipu_now_ms() - t0 > ms)
			return -ETIMEDOUT;
		usleep(100);
	}
	__sync_synchronize();
	*out = *(struct ipu_cqe *)c;
	q->cq_head = (q->cq_head + 1) % q->size;
	if (!q->cq_head)
		q->phase ^= 1;
	return 0;
}

/* Submits @e on self->q and waits for its completion (10 s at most). */
static int submit(FIXTURE_DATA(queue) *self, struct ipu_sqe *e,
		  struct ipu_cqe *out)
{
	struct tq *q = self->q;
	int ret;

	post(self, q, e);
	doorbell(self, q, false, q->sq_tail);
	ret = reap(q, out, 10000);
	if (ret)
		return ret;
	doorbell(self, q, true, q->cq_head);
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

/* A command with no fields but its opcode: its status code. */
static int cmd0(FIXTURE_DATA(queue) *self, uint8_t op, struct ipu_cqe *c)
{
	struct ipu_sqe e = { .opcode = op };

	return run_cmd(self, &e, c);
}

/*
 * Configures queue @q (@size entries, run records at @rec_phys or none) and
 * writes CTRL @ctrl; returns its STATUS.
 */
static int setup_queue_full(FIXTURE_DATA(queue) *self, unsigned q,
			    uint64_t sq_phys, uint64_t cq_phys, unsigned size,
			    uint64_t rec_phys, uint32_t ctrl)
{
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), 0);
	wr32(self, IPU_REG_Q(q, IPU_Q_SQ_BASE_LO), (uint32_t)sq_phys);
	wr32(self, IPU_REG_Q(q, IPU_Q_SQ_BASE_HI), sq_phys >> 32);
	wr32(self, IPU_REG_Q(q, IPU_Q_CQ_BASE_LO), (uint32_t)cq_phys);
	wr32(self, IPU_REG_Q(q, IPU_Q_CQ_BASE_HI), cq_phys >> 32);
	wr32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_LO), (uint32_t)rec_phys);
	wr32(self, IPU_REG_Q(q, IPU_Q_REC_BASE_HI), rec_phys >> 32);
	wr32(self, IPU_REG_Q(q, IPU_Q_SIZE), size);
	wr32(self, IPU_REG_Q(q, IPU_Q_VECTOR), 1);
	wr32(self, IPU_REG_Q(q, IPU_Q_COALESCE), 0);
	wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), ctrl);
	return rd32(self, IPU_REG_Q(q, IPU_Q_STATUS));
}

static int setup_queue_ctrl(FIXTURE_DATA(queue) *self, unsigned q,
			    uint64_t sq_phys, uint64_t cq_phys, uint32_t ctrl)
{
	return setup_queue_full(self, q, sq_phys, cq_phys, QSIZE, 0, ctrl);
}

static int setup_queue(FIXTURE_DATA(queue) *self, unsigned q,
		       uint64_t sq_phys, uint64_t cq_phys)
{
	return setup_queue_ctrl(self, q, sq_phys, cq_phys, IPU_Q_CTRL_ENABLE);
}

/*
 * Enables queue @qi with CTRL @ctrl on rings in two fresh (zeroed) pool
 * pages, as self->qs[qi] (doorbells through BAR0). Returns its STATUS.
 * open_queue_rec(): with @size entries and run records at @rec_phys (0:
 * none); open_queue(): QSIZE entries, no records.
 */
static int open_queue_rec(FIXTURE_DATA(queue) *self, unsigned qi,
			  uint32_t ctrl, unsigned size, uint64_t rec_phys)
{
	unsigned sq = pool_pages(self, 1), cq = pool_pages(self, 1);

	self->qs[qi] = (struct tq){
		.qi = qi,
		.size = size,
		.sq = page_ptr(self, sq),
		.cq = page_ptr(self, cq),
		.phase = 1,
	};
	return setup_queue_full(self, qi, self->phys[sq], self->phys[cq], size,
				rec_phys, ctrl);
}

static int open_queue(FIXTURE_DATA(queue) *self, unsigned qi, uint32_t ctrl)
{
	return open_queue_rec(self, qi, ctrl, QSIZE, 0);
}

FIXTURE_SETUP(queue)
{
	char msg[256];
	int fd, ret;

	self->pool = MAP_FAILED;
	/* y = x + x over the test model's tiles; x write-only, y read-only. */
	ASSERT_EQ(0, ipu_test_double_only_graph(IPU_MODEL_TEST, N_ELEMS,
						&self->graph,
						&self->graph_len));
	ret = ipu_bar0_take(&self->bar, DEV_CARD, true, msg, sizeof(msg));
	if (ret == -ENODEV)
		SKIP(return, "card %d is not present", DEV_CARD);
	ASSERT_EQ(0, ret) TH_LOG("%s", msg);
	/*
	 * Behind an IOMMU, physical addresses are the card's bus addresses
	 * only in an identity domain (every DMA still goes through the
	 * vIOMMU's address space: the card takes the BQL for it).
	 */
	iommu_identity(_metadata, self->bar.pcidir, self->type_path,
		       sizeof(self->type_path), self->type0, sizeof(self->type0));
	IPU_RETURN_IF_SKIPPED();
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

	ASSERT_EQ(IPU_Q_STATUS_ENABLED, open_queue(self, 0, IPU_Q_CTRL_ENABLE));
	self->q = &self->qs[0];
}

FIXTURE_TEARDOWN(queue)
{
	/* Queues off first: the card lets go of the rings before they go. */
	if (self->bar.regs)
		for (unsigned q = 0; q < IPU_NUM_QUEUES; q++)
			wr32(self, IPU_REG_Q(q, IPU_Q_CTRL), 0);
	usleep(20000);
	/* READY: the card has let go of everything; then the old domain. */
	if (self->type_path[0]) {
		EXPECT_EQ(0, ipu_bar0_reset(&self->bar));
		EXPECT_EQ(0, iommu_set_type(self->type_path, self->type0));
	}
	EXPECT_EQ(0, ipu_bar0_release(&self->bar));
	if (self->pool != MAP_FAILED)
		munmap(self->pool, (size_t)POOL_PAGES * PAGE);
	free(self->graph);
}

/*
 * @e: a LOAD of graph binary @graph (@len bytes, copied into fresh pool
 * pages) through an SG list; it may be submitted any number of times.
 */
static void load_sqe(FIXTURE_DATA(queue) *self, const void *graph, size_t len,
		     struct ipu_sqe *e)
{
	unsigned pages = (len + PAGE - 1) / PAGE;
	unsigned data = pool_pages(self, pages), sgl = pool_pages(self, 1);

	memcpy(page_ptr(self, data), graph, len);
	memset(e, 0, sizeof(*e));
	e->opcode = IPU_SQE_LOAD;
	e->length = len;
	e->data = make_sgl(self, sgl, data, len, &e->sgl_count);
}

/* LOAD the test graph through an SG list. */
static int load_graph(FIXTURE_DATA(queue) *self)
{
	struct ipu_sqe e;

	load_sqe(self, self->graph, self->graph_len, &e);
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
	EXPECT_EQ(IPU_CS_NO_GRAPH, cmd0(self, IPU_SQE_RUN, NULL));
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
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_FENCE, NULL));
}

/*
 * LOAD flags (1.3): IPU_SQE_LOAD_COMMIT commits the graph's tile memory
 * (SUCCESS's detail/detail2: committed bytes, more than a lazy LOAD's);
 * unknown bits are INVALID_FIELD at byte 1, and the graph is kept.
 */
TEST_F(queue, load_commit_flag)
{
	IPU_RETURN_IF_SKIPPED();
	struct ipu_sqe e;
	struct ipu_cqe c;
	uint64_t lazy, eager;

	load_sqe(self, self->graph, self->graph_len, &e);
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	lazy = c.detail | (uint64_t)c.detail2 << 32;
	e.flags = IPU_SQE_LOAD_COMMIT;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	eager = c.detail | (uint64_t)c.detail2 << 32;
	EXPECT_LT(lazy, eager);
	EXPECT_LE((uint64_t)N_ELEMS * 4, eager);
	e.flags = 0x80;
	EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, &c));
	EXPECT_EQ(1, c.detail);
	e.flags = IPU_SQE_LOAD_COMMIT | 2;
	EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, &c));
	/* the committed graph is still loaded and runs */
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
}

/*
 * LOAD's member mask (1.5, docs/hw-interface.md "Multi-IPU groups"): a bad
 * mask is INVALID_FIELD at byte 8 and leaves no graph; a good one loads (a
 * single-IPU graph runs alone whatever the group). On a card on no fabric
 * every non-zero mask is bad.
 */
TEST_F(queue, load_member_mask)
{
	IPU_RETURN_IF_SKIPPED();
	uint32_t idx = rd32(self, IPU_REG_FABRIC_INDEX);
	uint32_t size = rd32(self, IPU_REG_FABRIC_SIZE);
	uint64_t own = idx < 64 ? 1ull << idx : 1;
	uint64_t bad[4];
	unsigned nbad = 0;
	struct ipu_sqe e;
	struct ipu_cqe c;

	load_sqe(self, self->graph, self->graph_len, &e);
	if (idx == IPU_FABRIC_NONE) {
		bad[nbad++] = 1;
		bad[nbad++] = ~0ull;
	} else {
		if (size > 1)
			bad[nbad++] = 1ull << ((idx + 1) % size);	/* own bit clear */
		if (size < 64)
			bad[nbad++] = own | 1ull << size;		/* beyond the fabric */
		if (size >= 3)						/* 3 members */
			bad[nbad++] = own | 1ull << ((idx + 1) % size) |
				      1ull << ((idx + 2) % size);
	}
	for (unsigned i = 0; i < nbad; i++) {
		ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
		e.offset = bad[i];
		EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, &c));
		EXPECT_EQ(8, c.detail);
		EXPECT_EQ(IPU_CS_NO_GRAPH, cmd0(self, IPU_SQE_RUN, NULL));
	}
	if (idx == IPU_FABRIC_NONE)
		return;
	/* a group of one, then of all four (an M2000): the graph runs alone */
	e.offset = own;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	if (size == 4) {
		e.offset = 0xf;
		ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
		EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	}
	/* mask 0: alone again */
	e.offset = 0;
	EXPECT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
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
	EXPECT_EQ(IPU_CS_NO_GRAPH, cmd0(self, IPU_SQE_RUN, NULL));
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
	EXPECT_EQ(IPU_CS_RUN_FAILED, cmd0(self, IPU_SQE_RUN, NULL));
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
 * A random command: every opcode (and unknown ones; LOAD only if @load;
 * UNLOAD mostly with its fields 0),
 * random fields, and addresses drawn from the 8 pool pages at @data, the SG
 * list page @sgl (whose entries it rewrites), the card's BAR, memory that
 * does not exist and unaligned places. Addresses stay inside the pool or
 * outside RAM, so the card cannot scribble over the guest.
 */
static void random_sqe(FIXTURE_DATA(queue) *self, uint64_t *seed,
		       unsigned data, unsigned sgl, bool load,
		       struct ipu_sqe *e)
{
	struct ipu_sge *sge = page_ptr(self, sgl);
	uint64_t r[8];

	for (int k = 0; k < 8; k++) {
		*seed ^= *seed << 13;
		*seed ^= *seed >> 7;
		*seed ^= *seed << 17;
		r[k] = *seed;
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
	memset(e, 0, sizeof(*e));
	e->opcode = r[5] % 10;		/* 0 and 9: unknown */
	if (!(r[5] & 0xf00))
		e->opcode = (uint8_t)(r[5] >> 16);
	e->handle = (r[5] >> 24) % 4;
	e->offset = (r[6] >> 8) & 0x7fff;
	e->length = (r[7] & 1) ? (r[7] >> 8) & 0x7fff : (r[7] >> 8) & 0xff;
	e->count = e->opcode == IPU_SQE_RUN ? (r[7] >> 32) % 3 : 0;
	e->sgl_count = (r[4] >> 8) % 6;
	e->data = e->sgl_count && (r[4] & 0x100000) ? self->phys[sgl] :
		  addrs[(r[4] >> 24) % 5];
	if (e->opcode == IPU_SQE_LOAD && !load)	/* keep the graph loaded */
		e->opcode = IPU_SQE_READ;
	/* LOAD's message buffer: in the pool, or the BAR. */
	if (e->opcode == IPU_SQE_LOAD && (r[7] & 2))
		e->arg = addrs[(r[7] >> 2) % 2] & ~(uint64_t)255;
	/* Mostly leave the fields an opcode does not use at 0. */
	if (e->opcode != IPU_SQE_READ && e->opcode != IPU_SQE_WRITE &&
	    (r[6] & 3)) {
		e->offset = 0;
		if (e->opcode != IPU_SQE_STREAM_BIND &&
		    e->opcode != IPU_SQE_LOAD)
			e->length = e->data = e->sgl_count = 0;
	}
	if (!(r[6] & 0xff0000))
		e->flags = 1;
	/* The card may write what it reads: never past a pool page. */
	if (!e->sgl_count)
		e->length = in_page_len(self, e->data, e->length);
}

/*
 * Random commands (random_sqe()): each must complete with some status, in
 * order, and the card must work afterwards. An UNLOAD succeeds exactly when
 * its fields are 0; the graph is loaded again after it.
 */
TEST_F(queue, random_commands)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned data = pool_pages(self, 8), sgl = pool_pages(self, 1);
	uint64_t seed = 0x2545f4914f6cdd1dull ^ (uint64_t)getpid();
	unsigned counts[16] = { 0 }, unloads = 0;
	struct ipu_sqe e, ld, tmp;
	struct ipu_cqe c;

	load_sqe(self, self->graph, self->graph_len, &ld);
	tmp = ld;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &tmp, NULL));
	for (int i = 0; i < 3000; i++) {
		random_sqe(self, &seed, data, sgl, false, &e);
		ASSERT_EQ(0, submit(self, &e, &c)) TH_LOG("command %d hung", i);
		counts[IPU_CQE_CODE(c.status) & 15]++;
		if (e.opcode != IPU_SQE_UNLOAD)
			continue;
		if (e.flags || e.handle || e.offset || e.length || e.data ||
		    e.sgl_count || e.count || e.arg) {
			ASSERT_EQ(IPU_CS_INVALID_FIELD, IPU_CQE_CODE(c.status))
				TH_LOG("command %d", i);
			continue;
		}
		ASSERT_EQ(IPU_CS_SUCCESS, IPU_CQE_CODE(c.status))
			TH_LOG("command %d", i);
		unloads++;
		tmp = ld;
		ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &tmp, NULL));
	}
	for (int k = 0; k < 16; k++)
		if (counts[k])
			TH_LOG("status %d: %u", k, counts[k]);
	TH_LOG("%u UNLOADs", unloads);
	EXPECT_LT(0, unloads);
	/* Still working: the exact round trip of the first test. */
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	EXPECT_EQ(IPU_MAGIC, rd32(self, IPU_REG_MAGIC));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(0, IPU_Q_STATUS)));
}

/* Disabling a queue under a long RUN cancels it; ENABLED drops when done. */
TEST_F(queue, disable_during_run)
{
	IPU_RETURN_IF_SKIPPED();
	struct ipu_sqe e = { .opcode = IPU_SQE_RUN, .count = 1000000 };
	struct tq *q = self->q;
	long long t0;
	uint32_t st;

	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	post(self, q, &e);
	doorbell(self, q, false, q->sq_tail);
	/* Wait for the card to fetch it, then pull the queue from under it. */
	t0 = ipu_now_ms();
	while (rd32(self, IPU_REG_Q(0, IPU_Q_SQ_HEAD)) != q->sq_tail &&
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
	EXPECT_EQ(0, q->cq[q->cq_head].status & IPU_CQE_PHASE);
	EXPECT_EQ(q->cq_head, rd32(self, IPU_REG_Q(0, IPU_Q_CQ_TAIL)));
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

/* Waits (5 s at most) until the card has fetched every entry of @q. */
static int wait_fetched(FIXTURE_DATA(queue) *self, struct tq *q)
{
	long long t0 = ipu_now_ms();

	while (rd32(self, IPU_REG_Q(q->qi, IPU_Q_SQ_HEAD)) != q->sq_tail) {
		if (ipu_now_ms() - t0 > 5000)
			return -ETIMEDOUT;
		usleep(100);
	}
	return 0;
}

/*
 * Rings ABORTs on @q, each given 200 ms to bring a completion (50 at
 * most): 0 with that completion in *@c, or -ETIMEDOUT. *@n is one more
 * than the ABORTs rung; theirs complete after it.
 */
static int abort_until_completion(FIXTURE_DATA(queue) *self, struct tq *q,
				  struct ipu_cqe *c, int *n)
{
	int ret = -ETIMEDOUT;
	struct ipu_sqe e;

	for (*n = 1; *n <= 50 && ret == -ETIMEDOUT; (*n)++) {
		memset(&e, 0, sizeof(e));
		e.opcode = IPU_SQE_ABORT;
		post(self, q, &e);
		doorbell(self, q, false, q->sq_tail);
		ret = reap(q, c, 200);
	}
	return ret;
}

/* True when every byte of @p's @len bytes is @v. */
static bool all_bytes(const void *p, size_t len, uint8_t v)
{
	for (size_t i = 0; i < len; i++)
		if (((const uint8_t *)p)[i] != v)
			return false;
	return true;
}

/*
 * The doorbell pages (BAR4): page n rings queue n exactly as BAR0 does; the
 * CQ_HEAD register reads the last CQ_HEAD doorbell of either; a full CQ
 * stops fetching until a CQ_HEAD doorbell on the page frees space.
 */
TEST_F(queue, doorbell_page_submit)
{
	IPU_RETURN_IF_SKIPPED();
	struct tq *k = self->q, *q;
	struct ipu_sqe e;
	struct ipu_cqe c;

	ASSERT_NE(NULL, self->bar.db) TH_LOG("BAR4: %s", self->bar.db_err);
	/* Queue 0 through BAR0, then through its page. */
	ASSERT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_FENCE, NULL));
	EXPECT_EQ(k->cq_head, rd32(self, IPU_REG_Q(0, IPU_Q_CQ_HEAD)));
	k->bar4 = true;
	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	EXPECT_EQ(k->cq_head, rd32(self, IPU_REG_Q(0, IPU_Q_CQ_HEAD)));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	EXPECT_EQ(0, c.sq_id);
	EXPECT_LT(0, c.cycles);
	EXPECT_EQ(3, k->cq_head);
	EXPECT_EQ(3, rd32(self, IPU_REG_Q(0, IPU_Q_CQ_HEAD)));
	EXPECT_EQ(3, rd32(self, IPU_REG_Q(0, IPU_Q_CQ_TAIL)));

	/* Queue 5 through its page only: its own rings and registers. */
	ASSERT_EQ(IPU_Q_STATUS_ENABLED, open_queue(self, 5, IPU_Q_CTRL_ENABLE));
	q = self->q = &self->qs[5];
	q->bar4 = true;
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	EXPECT_EQ(5, c.sq_id);
	EXPECT_EQ(1, rd32(self, IPU_REG_Q(5, IPU_Q_CQ_TAIL)));
	EXPECT_EQ(1, rd32(self, IPU_REG_Q(5, IPU_Q_CQ_HEAD)));
	EXPECT_EQ(3, rd32(self, IPU_REG_Q(0, IPU_Q_CQ_TAIL)));
	EXPECT_EQ(3, rd32(self, IPU_REG_Q(0, IPU_Q_CQ_HEAD)));

	/* Fill the CQ: QSIZE - 1 completions fit, the card posts them all. */
	for (int i = 0; i < QSIZE - 1; i++) {
		memset(&e, 0, sizeof(e));
		e.opcode = IPU_SQE_FENCE;
		post(self, q, &e);
	}
	doorbell(self, q, false, q->sq_tail);
	for (int i = 0; i < QSIZE - 1; i++) {
		ASSERT_EQ(0, reap(q, &c, 10000)) TH_LOG("completion %d", i);
		/* in order: the last one posted has self->cid */
		ASSERT_EQ((uint16_t)(self->cid - (QSIZE - 2) + i), c.cid);
		ASSERT_EQ(IPU_CS_SUCCESS, IPU_CQE_CODE(c.status));
	}
	/* One more, with the CQ full: the card must not fetch it. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_FENCE;
	post(self, q, &e);
	doorbell(self, q, false, q->sq_tail);
	usleep(50000);
	EXPECT_EQ((q->sq_tail + QSIZE - 1) % QSIZE,
		  rd32(self, IPU_REG_Q(5, IPU_Q_SQ_HEAD)));
	EXPECT_EQ(q->cq_head, rd32(self, IPU_REG_Q(5, IPU_Q_CQ_TAIL)));
	EXPECT_EQ(1, rd32(self, IPU_REG_Q(5, IPU_Q_CQ_HEAD)));
	/* The unconsumed slot still holds the old phase. */
	EXPECT_NE(q->phase, q->cq[q->cq_head].status & IPU_CQE_PHASE);
	/* CQ_HEAD through the page frees the space: it completes. */
	doorbell(self, q, true, q->cq_head);
	EXPECT_EQ(q->cq_head, rd32(self, IPU_REG_Q(5, IPU_Q_CQ_HEAD)));
	ASSERT_EQ(0, reap(q, &c, 10000));
	EXPECT_EQ(e.cid, c.cid);
	EXPECT_EQ(IPU_CS_SUCCESS, IPU_CQE_CODE(c.status));
	doorbell(self, q, true, q->cq_head);
	EXPECT_EQ(q->cq_head, rd32(self, IPU_REG_Q(5, IPU_Q_CQ_HEAD)));
	EXPECT_EQ(q->cq_head, rd32(self, IPU_REG_Q(5, IPU_Q_CQ_TAIL)));
	/* The register is read-only. */
	wr32(self, IPU_REG_Q(5, IPU_Q_CQ_HEAD), (q->cq_head + 7) % QSIZE);
	EXPECT_EQ(q->cq_head, rd32(self, IPU_REG_Q(5, IPU_Q_CQ_HEAD)));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(5, IPU_Q_STATUS)));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(0, IPU_Q_STATUS)));
}

/* Submits @e on self->q and expects INVALID_OPCODE naming its opcode. */
static int refused(FIXTURE_DATA(queue) *self, struct ipu_sqe *e)
{
	struct ipu_cqe c;
	int cs = run_cmd(self, e, &c);

	if (cs != IPU_CS_INVALID_OPCODE)
		return cs < 0 ? cs : 1000 + cs;
	return c.detail == e->opcode ? 0 : -EPROTO;
}

/* On user queue @self->q: FENCE, RUN and ABORT, validated as on any queue. */
static void user_queue_runs(struct __test_metadata *_metadata, FIXTURE_DATA(queue) *self,
			    unsigned buf)
{
	struct ipu_sqe e;
	struct ipu_cqe c;

	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_FENCE;
	EXPECT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	EXPECT_EQ(3, c.sq_id);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.count = 2;
	EXPECT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	EXPECT_LT(0, c.cycles);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_ABORT;	/* nothing running: nothing to stop */
	EXPECT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.handle = 5;
	EXPECT_EQ(IPU_CS_BAD_HANDLE, run_cmd(self, &e, &c));
	EXPECT_EQ(5, c.detail);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_FENCE;
	e.flags = 1;
	EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, &c));
	EXPECT_EQ(1, c.detail);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.data = self->phys[buf];
	EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, NULL));
}

/*
 * On user queue @self->q: READ and WRITE are refused without touching host
 * memory (page @buf, @y and the SGL @out_sgl of @out_cnt entries).
 */
static void user_queue_refuses_read_write(struct __test_metadata *_metadata,
					  FIXTURE_DATA(queue) *self, unsigned buf, float *y,
					  uint64_t out_sgl, uint32_t out_cnt)
{
	struct ipu_sqe e;

	/* READ: the target buffers keep their pattern. */
	memset(page_ptr(self, buf), 0xa5, PAGE);
	memset(y, 0xa5, N_ELEMS * 4);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_READ;
	e.handle = 1;
	e.length = 64;
	e.data = self->phys[buf];
	EXPECT_EQ(0, refused(self, &e));
	e.length = N_ELEMS * 4;
	e.data = out_sgl;
	e.sgl_count = out_cnt;
	EXPECT_EQ(0, refused(self, &e));
	/* ... and addresses the card would refuse are not even looked at. */
	e.length = 64;
	e.sgl_count = 0;
	e.data = 1ull << 40;
	EXPECT_EQ(0, refused(self, &e));
	e.data = self->bar.phys;
	EXPECT_EQ(0, refused(self, &e));
	EXPECT_TRUE(all_bytes(page_ptr(self, buf), PAGE, 0xa5));
	EXPECT_TRUE(all_bytes(y, N_ELEMS * 4, 0xa5));

	/* WRITE of other values into x: checked through queue 0 below. */
	for (int i = 0; i < PAGE / 4; i++)
		((float *)page_ptr(self, buf))[i] = 12345.0f;
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_WRITE;
	e.handle = 0;
	e.length = PAGE;
	e.data = self->phys[buf];
	EXPECT_EQ(0, refused(self, &e));
	e.data = self->bar.phys;
	e.length = 64;
	EXPECT_EQ(0, refused(self, &e));
}

/*
 * On user queue @self->q: LOAD (corrupt binary in @gdata, SGL page @gsgl,
 * message page @msg), STREAM_BIND and an unknown opcode are refused.
 */
static void user_queue_refuses_load_bind(struct __test_metadata *_metadata,
					 FIXTURE_DATA(queue) *self, unsigned buf, unsigned msg,
					 unsigned gdata, unsigned gsgl)
{
	struct ipu_sqe e;

	/*
	 * LOAD of a corrupt binary with a message buffer: refused before it
	 * is read (no LOAD_FAILED, no message), and the graph stays loaded.
	 */
	memcpy(page_ptr(self, gdata), self->graph, self->graph_len);
	((uint8_t *)page_ptr(self, gdata))[self->graph_len / 2] ^= 0x5a;
	memset(page_ptr(self, msg), 0xa5, PAGE);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_LOAD;
	e.length = self->graph_len;
	e.data = make_sgl(self, gsgl, gdata, self->graph_len, &e.sgl_count);
	e.arg = self->phys[msg];
	EXPECT_EQ(0, refused(self, &e));
	EXPECT_TRUE(all_bytes(page_ptr(self, msg), PAGE, 0xa5));
	e.length = IPU_MAX_GRAPH_BYTES + 1ull;	/* not TOO_LARGE either */
	EXPECT_EQ(0, refused(self, &e));

	/* STREAM_BIND (bind and unbind forms) and an unknown opcode. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_STREAM_BIND;
	e.length = PAGE;
	e.data = self->phys[buf];
	EXPECT_EQ(0, refused(self, &e));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_STREAM_BIND;
	EXPECT_EQ(0, refused(self, &e));
	memset(&e, 0, sizeof(e));
	e.opcode = 0x7f;
	EXPECT_EQ(0, refused(self, &e));
}

/*
 * A user queue (CTRL.USER) runs RUN, FENCE and ABORT like any queue, and
 * completes every command that carries a host address with INVALID_OPCODE
 * without touching host memory.
 */
TEST_F(queue, user_queue)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned in = pool_pages(self, N_ELEMS * 4 / PAGE);
	unsigned out = pool_pages(self, N_ELEMS * 4 / PAGE);
	unsigned sgl_in = pool_pages(self, 1), sgl_out = pool_pages(self, 1);
	unsigned buf = pool_pages(self, 1), msg = pool_pages(self, 1);
	unsigned gpages = (self->graph_len + PAGE - 1) / PAGE;
	unsigned gdata = pool_pages(self, gpages), gsgl = pool_pages(self, 1);
	float *x = page_ptr(self, in), *y = page_ptr(self, out);
	uint64_t in_sgl, out_sgl;
	uint32_t in_cnt, out_cnt;
	struct tq *k = self->q, *u;
	struct ipu_sqe e;
	struct ipu_cqe c;

	ASSERT_NE(NULL, self->bar.db) TH_LOG("BAR4: %s", self->bar.db_err);
	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	for (int i = 0; i < N_ELEMS; i++)
		x[i] = (float)i * 0.25f + 1.0f;
	in_sgl = make_sgl(self, sgl_in, in, N_ELEMS * 4, &in_cnt);
	out_sgl = make_sgl(self, sgl_out, out, N_ELEMS * 4, &out_cnt);
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_WRITE;
	e.handle = 0;
	e.length = N_ELEMS * 4;
	e.data = in_sgl;
	e.sgl_count = in_cnt;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));

	/* Queue 3 as a user queue, rung through its doorbell page. */
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  open_queue(self, 3, IPU_Q_CTRL_ENABLE | IPU_Q_CTRL_USER));
	EXPECT_EQ(IPU_Q_CTRL_ENABLE | IPU_Q_CTRL_USER,
		  rd32(self, IPU_REG_Q(3, IPU_Q_CTRL)));
	EXPECT_EQ(IPU_Q_CTRL_ENABLE, rd32(self, IPU_REG_Q(0, IPU_Q_CTRL)));
	u = self->q = &self->qs[3];
	u->bar4 = true;

	/* FENCE, RUN and ABORT, validated as on any queue. */
	user_queue_runs(_metadata, self, buf);

	/* READ and WRITE, LOAD, STREAM_BIND: refused. */
	user_queue_refuses_read_write(_metadata, self, buf, y, out_sgl, out_cnt);
	user_queue_refuses_load_bind(_metadata, self, buf, msg, gdata, gsgl);

	/* The user queue is fine and still runs the loaded graph. */
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(3, IPU_Q_STATUS)));
	EXPECT_EQ(u->cq_head, rd32(self, IPU_REG_Q(3, IPU_Q_CQ_HEAD)));
	EXPECT_EQ(u->cq_head, rd32(self, IPU_REG_Q(3, IPU_Q_CQ_TAIL)));

	/* Through queue 0: y = x + x of the x written there, nothing else. */
	self->q = k;
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_READ;
	e.handle = 1;
	e.length = N_ELEMS * 4;
	e.data = out_sgl;
	e.sgl_count = out_cnt;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	for (int i = 0; i < N_ELEMS; i++)
		ASSERT_EQ(x[i] + x[i], y[i]);

	/* Enabled again without USER, queue 3 moves data. */
	ASSERT_EQ(IPU_Q_STATUS_ENABLED, open_queue(self, 3, IPU_Q_CTRL_ENABLE));
	EXPECT_EQ(IPU_Q_CTRL_ENABLE, rd32(self, IPU_REG_Q(3, IPU_Q_CTRL)));
	self->q = &self->qs[3];
	self->q->bar4 = true;
	memset(y, 0, N_ELEMS * 4);
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, &c));
	EXPECT_EQ(3, c.sq_id);
	for (int i = 0; i < N_ELEMS; i++)
		ASSERT_EQ(x[i] + x[i], y[i]);
}

/* ABORT from a user queue stops the RUN in progress on it. */
TEST_F(queue, user_queue_abort)
{
	IPU_RETURN_IF_SKIPPED();
	struct ipu_sqe e;
	struct ipu_cqe c;
	uint16_t run_cid;
	struct tq *u;
	int n;

	ASSERT_NE(NULL, self->bar.db) TH_LOG("BAR4: %s", self->bar.db_err);
	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  open_queue(self, 6, IPU_Q_CTRL_ENABLE | IPU_Q_CTRL_USER));
	u = self->q = &self->qs[6];
	u->bar4 = true;

	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.count = UINT32_MAX;		/* would run for days */
	post(self, u, &e);
	run_cid = e.cid;
	doorbell(self, u, false, u->sq_tail);
	ASSERT_EQ(0, wait_fetched(self, u));
	/*
	 * The card acts on an ABORT at its doorbell, and only on a run that
	 * has started: ring ABORTs until the RUN completes.
	 */
	ASSERT_EQ(0, abort_until_completion(self, u, &c, &n));
	TH_LOG("the RUN stopped after %d ABORT(s)", n - 1);
	EXPECT_EQ(run_cid, c.cid);
	EXPECT_EQ(IPU_CS_ABORTED, IPU_CQE_CODE(c.status));
	/* Each ABORT completes normally after it. */
	for (int i = 1; i < n; i++) {
		ASSERT_EQ(0, reap(u, &c, 10000));
		EXPECT_EQ(IPU_CS_SUCCESS, IPU_CQE_CODE(c.status));
	}
	doorbell(self, u, true, u->cq_head);
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
}

/*
 * Random commands (random_sqe(), LOAD included) on a user queue: only RUN,
 * FENCE and ABORT may execute, everything else completes with
 * INVALID_OPCODE, and no pool page the commands point at changes.
 */
TEST_F(queue, user_queue_random_commands)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned data = pool_pages(self, 8), sgl = pool_pages(self, 1);
	uint64_t seed = 0x9b05688c2b3e6c1full ^ (uint64_t)getpid();
	unsigned counts[16] = { 0 }, ran = 0;
	struct ipu_sqe e;
	struct ipu_cqe c;

	ASSERT_NE(NULL, self->bar.db) TH_LOG("BAR4: %s", self->bar.db_err);
	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  open_queue(self, 7, IPU_Q_CTRL_ENABLE | IPU_Q_CTRL_USER));
	self->q = &self->qs[7];
	self->q->bar4 = true;
	memset(page_ptr(self, data), 0x5a, 8 * PAGE);
	for (int i = 0; i < 2000; i++) {
		bool allowed;

		random_sqe(self, &seed, data, sgl, true, &e);
		allowed = e.opcode == IPU_SQE_RUN || e.opcode == IPU_SQE_FENCE ||
			  e.opcode == IPU_SQE_ABORT;
		ASSERT_EQ(0, submit(self, &e, &c)) TH_LOG("command %d hung", i);
		counts[IPU_CQE_CODE(c.status) & 15]++;
		ran += allowed;
		if (!allowed) {
			ASSERT_EQ(IPU_CS_INVALID_OPCODE, IPU_CQE_CODE(c.status))
				TH_LOG("command %d, opcode 0x%x", i, e.opcode);
			ASSERT_EQ(e.opcode, c.detail);
		}
	}
	for (int k = 0; k < 16; k++)
		if (counts[k])
			TH_LOG("status %d: %u", k, counts[k]);
	EXPECT_LT(0, ran);
	EXPECT_LT(ran, 2000);
	EXPECT_TRUE(all_bytes(page_ptr(self, data), 8 * PAGE, 0x5a));
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(7, IPU_Q_STATUS)));
}

/* ---- UNLOAD (hardware interface 1.2) ---- */

#define U_BIG	(64u * 1024)	/* bytes of the double graph's "big" */

/*
 * READ or WRITE (@op) of the first @len bytes of handle @h from/to the pool
 * pages from @first, through an SG list in page @sgl: its status code.
 */
static int xfer(FIXTURE_DATA(queue) *self, uint8_t op, uint32_t h,
		unsigned first, unsigned sgl, uint64_t len)
{
	struct ipu_sqe e = { .opcode = op, .handle = h, .length = len };

	e.data = make_sgl(self, sgl, first, len, &e.sgl_count);
	return run_cmd(self, &e, NULL);
}

/*
 * @bind_in, @bind_out: STREAM_BINDs of streams 0 ("in") and 1 ("out") to
 * rings of @ring bytes at pool pages @in and @out (no SG list).
 */
static void bind_sqes(FIXTURE_DATA(queue) *self, unsigned in, unsigned out,
		      uint64_t ring, struct ipu_sqe *bind_in,
		      struct ipu_sqe *bind_out)
{
	memset(bind_in, 0, sizeof(*bind_in));
	bind_in->opcode = IPU_SQE_STREAM_BIND;
	bind_in->handle = 0;
	bind_in->length = ring;
	bind_in->data = self->phys[in];
	*bind_out = *bind_in;
	bind_out->handle = 1;
	bind_out->data = self->phys[out];
}

/* Without a graph UNLOAD completes OK (again and again); RUN has no graph. */
TEST_F(queue, unload_without_graph)
{
	IPU_RETURN_IF_SKIPPED();
	struct ipu_cqe c;

	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_UNLOAD, &c));
	EXPECT_EQ(0, c.sq_id);
	EXPECT_EQ(0, c.detail);
	EXPECT_EQ(0, c.detail2);
	EXPECT_EQ(0, c.cycles);
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_UNLOAD, NULL));
	EXPECT_EQ(IPU_CS_NO_GRAPH, cmd0(self, IPU_SQE_RUN, NULL));
	/* The card loads and runs after it. */
	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
}

/*
 * UNLOAD drops the graph and its data: every command that needs a graph
 * then completes with NO_GRAPH without touching host memory, and the same
 * graph loaded again, or another one, reads zeros where the old data was.
 */
TEST_F(queue, unload_drops_graph_and_data)
{
	IPU_RETURN_IF_SKIPPED();
	const unsigned xbytes = N_ELEMS * 4;
	unsigned big = pool_pages(self, U_BIG / PAGE);
	unsigned xin = pool_pages(self, xbytes / PAGE);
	unsigned out = pool_pages(self, U_BIG / PAGE);
	unsigned sgl = pool_pages(self, 1), buf = pool_pages(self, 1);
	float *x = page_ptr(self, xin), *y = page_ptr(self, out);
	struct ipu_sqe ld, e;
	void *graph;
	size_t glen;

	/* The "double" graph with a read-write "big" (handle 2). */
	ASSERT_EQ(0, ipu_test_double_graph(IPU_MODEL_TEST, N_ELEMS, U_BIG,
					   &graph, &glen));
	load_sqe(self, graph, glen, &ld);
	free(graph);
	e = ld;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));

	/* Data in every tensor: big by WRITE, x by WRITE, y by RUN. */
	memset(page_ptr(self, big), 0x5a, U_BIG);
	for (int i = 0; i < N_ELEMS; i++)
		x[i] = (float)i + 1.0f;
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_WRITE, H_BIG, big, sgl, U_BIG));
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_WRITE, H_X, xin, sgl, xbytes));
	ASSERT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_READ, H_BIG, out, sgl, U_BIG));
	ASSERT_TRUE(all_bytes(y, U_BIG, 0x5a));
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_READ, H_Y, out, sgl, xbytes));
	for (int i = 0; i < N_ELEMS; i++)
		ASSERT_EQ(x[i] * 2, y[i]);

	ASSERT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_UNLOAD, NULL));

	/* No graph: no handle, program or stream; no DMA either. */
	memset(y, 0xee, U_BIG);
	EXPECT_EQ(IPU_CS_NO_GRAPH, xfer(self, IPU_SQE_READ, H_BIG, out, sgl, U_BIG));
	EXPECT_EQ(IPU_CS_NO_GRAPH, xfer(self, IPU_SQE_READ, H_Y, out, sgl, 64));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_READ;
	e.handle = H_Y;
	e.length = 64;
	e.data = self->phys[out];
	EXPECT_EQ(IPU_CS_NO_GRAPH, run_cmd(self, &e, NULL));
	EXPECT_TRUE(all_bytes(y, U_BIG, 0xee));
	EXPECT_EQ(IPU_CS_NO_GRAPH, xfer(self, IPU_SQE_WRITE, H_X, xin, sgl, xbytes));
	EXPECT_EQ(IPU_CS_NO_GRAPH, cmd0(self, IPU_SQE_RUN, NULL));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.handle = P_SPIN;
	e.count = 2;
	EXPECT_EQ(IPU_CS_NO_GRAPH, run_cmd(self, &e, NULL));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_STREAM_BIND;
	e.length = PAGE;
	e.data = self->phys[buf];
	EXPECT_EQ(IPU_CS_NO_GRAPH, run_cmd(self, &e, NULL));
	EXPECT_EQ(IPU_CS_NO_GRAPH, cmd0(self, IPU_SQE_STREAM_BIND, NULL));
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_FENCE, NULL));
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_UNLOAD, NULL));

	/* The same graph again: its tensors hold zeros, not the old data. */
	e = ld;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	memset(y, 0xee, U_BIG);
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_READ, H_BIG, out, sgl, U_BIG));
	EXPECT_TRUE(all_bytes(y, U_BIG, 0));
	memset(y, 0xee, U_BIG);
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_READ, H_Y, out, sgl, xbytes));
	EXPECT_TRUE(all_bytes(y, xbytes, 0));
	/* ... and works as before. */
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_WRITE, H_X, xin, sgl, xbytes));
	ASSERT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_READ, H_Y, out, sgl, xbytes));
	for (int i = 0; i < N_ELEMS; i++)
		ASSERT_EQ(x[i] * 2, y[i]);

	/* Another graph over the same tiles after UNLOAD: zeros too. */
	ASSERT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_UNLOAD, NULL));
	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	memset(y, 0xee, U_BIG);
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_READ, 1, out, sgl, xbytes));
	EXPECT_TRUE(all_bytes(y, xbytes, 0));
	/* Its handles are its own: the old graph's "big" is gone. */
	EXPECT_EQ(IPU_CS_BAD_HANDLE, xfer(self, IPU_SQE_READ, H_BIG, out, sgl, 64));
}

/*
 * UNLOAD takes no fields but opcode and cid: any other non-zero field
 * completes with INVALID_FIELD naming it, and the graph stays. It acts on
 * the card's one graph from any queue.
 */
TEST_F(queue, unload_bad_fields)
{
	IPU_RETURN_IF_SKIPPED();
	static const struct { unsigned at, detail; } fields[] = {
		{ 1, 1 },		/* flags */
		{ 4, 4 },		/* handle */
		{ 8, 8 },		/* offset */
		{ 16, 16 },		/* length */
		{ 24, 24 },		/* data */
		{ 32, 32 },		/* sgl_count */
		{ 36, 36 },		/* count */
		{ 40, 40 },		/* arg */
		{ 48, 48 },		/* reserved */
		{ 63, 48 },
	};
	struct ipu_sqe e;
	struct ipu_cqe c;

	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	for (unsigned k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
		memset(&e, 0, sizeof(e));
		e.opcode = IPU_SQE_UNLOAD;
		((uint8_t *)&e)[fields[k].at] = 1;
		EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, &c))
			TH_LOG("byte %u", fields[k].at);
		EXPECT_EQ(fields[k].detail, c.detail)
			TH_LOG("byte %u", fields[k].at);
	}
	/* A data address the card would refuse is not looked at either. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_UNLOAD;
	e.data = self->bar.phys;
	EXPECT_EQ(IPU_CS_INVALID_FIELD, run_cmd(self, &e, &c));
	EXPECT_EQ(24, c.detail);
	/* The graph is still there. */
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));

	/* UNLOAD on queue 2 drops the graph queue 0 loaded. */
	ASSERT_EQ(IPU_Q_STATUS_ENABLED, open_queue(self, 2, IPU_Q_CTRL_ENABLE));
	self->q = &self->qs[2];
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_UNLOAD, &c));
	EXPECT_EQ(2, c.sq_id);
	self->q = &self->qs[0];
	EXPECT_EQ(IPU_CS_NO_GRAPH, cmd0(self, IPU_SQE_RUN, NULL));
}

/*
 * UNLOAD unbinds every stream: the graph loaded again runs only once its
 * streams are bound again, as after any LOAD.
 */
TEST_F(queue, unload_unbinds_streams)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned in = pool_pages(self, 1), out = pool_pages(self, 1);
	float *x = page_ptr(self, in), *y = page_ptr(self, out);
	struct ipu_sqe ld, e, bind_in, bind_out;
	struct ipu_cqe c;
	void *graph;
	size_t glen;

	ASSERT_EQ(0, ipu_test_stream_graph(&graph, &glen));
	load_sqe(self, graph, glen, &ld);
	free(graph);
	e = ld;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	for (unsigned i = 0; i < S_ROUNDS * S_ELEMS; i++)
		x[i] = (float)i * 0.75f;
	bind_sqes(self, in, out, S_RING, &bind_in, &bind_out);
	e = bind_in;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	e = bind_out;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	ASSERT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	for (unsigned i = 0; i < S_ROUNDS * S_ELEMS; i++)
		ASSERT_EQ(x[i] * 2, y[i]);

	ASSERT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_UNLOAD, NULL));
	/* No graph, no streams to bind. */
	e = bind_in;
	EXPECT_EQ(IPU_CS_NO_GRAPH, run_cmd(self, &e, NULL));
	EXPECT_EQ(IPU_CS_NO_GRAPH, cmd0(self, IPU_SQE_RUN, NULL));

	/* Loaded again: both streams unbound, the run fails on them. */
	e = ld;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	memset(y, 0xee, S_RING);
	EXPECT_EQ(IPU_CS_RUN_FAILED, cmd0(self, IPU_SQE_RUN, &c));
	EXPECT_EQ(7, c.detail);
	/* "out" still unbound after "in" is bound again. */
	e = bind_in;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	EXPECT_EQ(IPU_CS_RUN_FAILED, cmd0(self, IPU_SQE_RUN, &c));
	EXPECT_EQ(7, c.detail);
	EXPECT_TRUE(all_bytes(y, S_RING, 0xee));
	/* Both bound (from slot 0): it runs as before. */
	e = bind_in;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	e = bind_out;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	ASSERT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	for (unsigned i = 0; i < S_ROUNDS * S_ELEMS; i++)
		ASSERT_EQ(x[i] * 2, y[i]);
}

/*
 * A user queue cannot UNLOAD (INVALID_OPCODE, whatever its fields): the
 * graph and its data stay.
 */
TEST_F(queue, user_queue_unload)
{
	IPU_RETURN_IF_SKIPPED();
	const unsigned xbytes = N_ELEMS * 4;
	unsigned xin = pool_pages(self, xbytes / PAGE);
	unsigned out = pool_pages(self, xbytes / PAGE), sgl = pool_pages(self, 1);
	float *x = page_ptr(self, xin), *y = page_ptr(self, out);
	struct tq *k = self->q;
	struct ipu_sqe e;

	ASSERT_NE(NULL, self->bar.db) TH_LOG("BAR4: %s", self->bar.db_err);
	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	for (int i = 0; i < N_ELEMS; i++)
		x[i] = (float)i - 7.0f;
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_WRITE, 0, xin, sgl, xbytes));

	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  open_queue(self, 4, IPU_Q_CTRL_ENABLE | IPU_Q_CTRL_USER));
	self->q = &self->qs[4];
	self->q->bar4 = true;
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_UNLOAD;
	EXPECT_EQ(0, refused(self, &e));
	e.flags = 1;			/* the opcode is checked first */
	e.data = self->bar.phys;
	EXPECT_EQ(0, refused(self, &e));
	/* The graph is still loaded: the user queue runs it ... */
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(4, IPU_Q_STATUS)));
	/* ... and queue 0 reads y = x + x of the x written before. */
	self->q = k;
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_READ, 1, out, sgl, xbytes));
	for (int i = 0; i < N_ELEMS; i++)
		ASSERT_EQ(x[i] + x[i], y[i]);
}

/* ---- run records (hardware interface 1.2) ---- */

#define REC_QSIZE	32	/* a record test queue's entries: one page of records */
#define REC_PAT		0xa5	/* a record slot before the card writes it */
#define REC_WORDS	11	/* the counters of a record (then reserved) */
/* The record graph (ipu_test_record_graph()) is a stream graph. */
#define R_ELEMS		S_ELEMS	/* f32 per transfer of its streams */
#define R_ROUNDS	S_ROUNDS
#define R_RING		S_RING	/* one run's transfers */

_Static_assert(REC_QSIZE * IPU_RUN_RECORD_SIZE == PAGE, "a page of records");
_Static_assert(sizeof(struct ipu_run_record) == IPU_RUN_RECORD_SIZE,
	       "ipu_hw.h's record");

/* Record slot @i of the record ring in pool page @page. */
static const struct ipu_run_record *rec_at(FIXTURE_DATA(queue) *self,
					   unsigned page, unsigned i)
{
	return (const struct ipu_run_record *)page_ptr(self, page) + i;
}

/* True when slot @i still holds the pattern: nothing was written there. */
static bool rec_untouched(FIXTURE_DATA(queue) *self, unsigned page, unsigned i)
{
	return all_bytes(rec_at(self, page, i), IPU_RUN_RECORD_SIZE, REC_PAT);
}

/* A record's counters as an array (the layout of struct ipu_run_record). */
static const uint64_t *rec_words(const struct ipu_run_record *r)
{
	return (const uint64_t *)r;
}

/*
 * Submits @e on self->q: its status code (or -errno); *@slot is the CQ
 * index of its completion, where its record goes.
 */
static int run_at(FIXTURE_DATA(queue) *self, struct ipu_sqe *e,
		  struct ipu_cqe *c, unsigned *slot)
{
	*slot = self->q->cq_head;
	return run_cmd(self, e, c);
}

/*
 * Checks record @r of a RUN that started (completion @c): its four cycle
 * counts add up to the completion's cycles, it took steps (their low 32
 * bits are the completion's detail on SUCCESS), reserved is 0.
 */
static void check_ran(struct __test_metadata *_metadata,
		      const struct ipu_run_record *r, const struct ipu_cqe *c)
{
	EXPECT_EQ(c->cycles, r->cycles_compute + r->cycles_sync +
			     r->cycles_exchange + r->cycles_stream);
	EXPECT_LT(0, r->steps);
	if (IPU_CQE_CODE(c->status) == IPU_CS_SUCCESS)
		EXPECT_EQ(c->detail, (uint32_t)r->steps);
	for (unsigned k = 0; k < sizeof(r->reserved) / 8; k++)
		EXPECT_EQ(0, r->reserved[k]);
}

static void log_record(struct __test_metadata *_metadata, const char *what,
		       const struct ipu_run_record *r)
{
	TH_LOG("%s: cycles %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
	       " (compute/sync/exchange/stream), %" PRIu64 " steps, %" PRIu64
	       " compute sets, %" PRIu64 " exchanges (%" PRIu64 " B), %" PRIu64
	       " syncs, streams %" PRIu64 "/%" PRIu64 " B", what,
	       r->cycles_compute, r->cycles_sync, r->cycles_exchange,
	       r->cycles_stream, r->steps, r->compute_sets, r->exchanges,
	       r->exchange_bytes, r->syncs, r->stream_bytes_h2d,
	       r->stream_bytes_d2h);
}

/* Slot 1's record: a RUN that failed at its first copy (completion @c). */
static void check_failed_run(struct __test_metadata *_metadata, FIXTURE_DATA(queue) *self,
			     unsigned rec, bool *ran, const struct ipu_cqe *c)
{
	const struct ipu_run_record *r = rec_at(self, rec, 1);

	ran[1] = true;
	log_record(_metadata, "failed RUN", r);
	check_ran(_metadata, r, c);
	EXPECT_LT(0, r->cycles_stream);		/* the copy it tried */
	EXPECT_EQ(0, r->stream_bytes_h2d);
	EXPECT_EQ(0, r->stream_bytes_d2h);
	EXPECT_EQ(0, r->compute_sets);
	EXPECT_TRUE(rec_untouched(self, rec, 0));
}

/* The counters of one run of the record graph: every kind, and enough of each. */
static void check_graph_record(struct __test_metadata *_metadata,
			       const struct ipu_run_record *one)
{
	EXPECT_LT(0, one->cycles_compute);
	EXPECT_LT(0, one->cycles_sync);
	EXPECT_LT(0, one->cycles_exchange);
	EXPECT_LT(0, one->cycles_stream);
	EXPECT_LE(R_ROUNDS, one->compute_sets);
	EXPECT_LE(R_ROUNDS, one->exchanges);
	/* a sync ends every compute set, and one more per round */
	EXPECT_LE(one->compute_sets + R_ROUNDS, one->syncs);
	EXPECT_LE(R_ROUNDS * R_ELEMS * 4, one->exchange_bytes);
	EXPECT_EQ(R_RING, one->stream_bytes_h2d);
	EXPECT_EQ(R_RING, one->stream_bytes_d2h);
}

/* Slots 9 to 12: RUNs that do not start get zeroed records; UNLOAD between. */
static void runs_not_started(struct __test_metadata *_metadata, FIXTURE_DATA(queue) *self,
			     unsigned rec, bool *ran)
{
	struct ipu_sqe e;
	struct ipu_cqe c;
	unsigned slot;

	/* 9, 10: RUNs that do not start (no program 5, a bad field). */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.handle = 5;
	EXPECT_EQ(IPU_CS_BAD_HANDLE, run_at(self, &e, &c, &slot));
	ran[slot] = true;
	EXPECT_TRUE(all_bytes(rec_at(self, rec, slot), IPU_RUN_RECORD_SIZE, 0));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.flags = 1;
	EXPECT_EQ(IPU_CS_INVALID_FIELD, run_at(self, &e, &c, &slot));
	ran[slot] = true;
	EXPECT_TRUE(all_bytes(rec_at(self, rec, slot), IPU_RUN_RECORD_SIZE, 0));
	/* 11: UNLOAD. 12: RUN without a graph. */
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_UNLOAD, NULL));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	EXPECT_EQ(IPU_CS_NO_GRAPH, run_at(self, &e, &c, &slot));
	EXPECT_EQ(12, slot);
	ran[slot] = true;
	EXPECT_TRUE(all_bytes(rec_at(self, rec, slot), IPU_RUN_RECORD_SIZE, 0));
}

/* Every slot: the records where they were, nothing anywhere else. */
static void check_slots(struct __test_metadata *_metadata, FIXTURE_DATA(queue) *self,
			unsigned rec, const bool *ran, const struct ipu_run_record *one, unsigned one_slot,
			const struct ipu_run_record *two, unsigned two_slot)
{
	for (unsigned i = 0; i < REC_QSIZE; i++) {
		if (!ran[i])
			EXPECT_TRUE(rec_untouched(self, rec, i)) TH_LOG("slot %u", i);
	}
	EXPECT_EQ(0, memcmp(one, rec_at(self, rec, one_slot), sizeof(*one)));
	EXPECT_EQ(0, memcmp(two, rec_at(self, rec, two_slot), sizeof(*two)));
}

/*
 * Records on a kernel queue: a record for every RUN at the CQ index of its
 * completion with the run's counters (twice the run, twice the counters),
 * a RUN that did not start gets a zeroed record, one that failed part-way
 * what it did; no other command writes its slot; the ring wraps with the
 * CQ.
 */
TEST_F(queue, run_records)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned rec = pool_pages(self, 1), in = pool_pages(self, 1);
	unsigned out = pool_pages(self, 1), xin = pool_pages(self, 1);
	unsigned zout = pool_pages(self, 1);
	struct ipu_run_record one, two;
	struct ipu_sqe ld, bind_in, bind_out, e;
	bool ran[REC_QSIZE] = { false };
	float *x = page_ptr(self, in), *y = page_ptr(self, out);
	unsigned slot, one_slot, two_slot;
	struct ipu_cqe c;
	void *graph;
	size_t glen;

	ASSERT_EQ(0, ipu_test_record_graph(&graph, &glen));
	load_sqe(self, graph, glen, &ld);
	free(graph);
	for (unsigned i = 0; i < R_ROUNDS * R_ELEMS; i++)
		x[i] = (float)i * 0.5f - 3.0f;
	memset(page_ptr(self, rec), REC_PAT, PAGE);
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  open_queue_rec(self, 1, IPU_Q_CTRL_ENABLE, REC_QSIZE,
				 self->phys[rec]));
	EXPECT_EQ((uint32_t)self->phys[rec],
		  rd32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_LO)));
	EXPECT_EQ(self->phys[rec] >> 32,
		  rd32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_HI)));
	self->q = &self->qs[1];
	bind_sqes(self, in, out, R_RING, &bind_in, &bind_out);

	/* 0: LOAD. 1: RUN with the streams unbound fails at its first copy. */
	e = ld;
	ASSERT_EQ(IPU_CS_SUCCESS, run_at(self, &e, NULL, &slot));
	ASSERT_EQ(0, slot);
	ASSERT_EQ(IPU_CS_RUN_FAILED, cmd0(self, IPU_SQE_RUN, &c));
	check_failed_run(_metadata, self, rec, ran, &c);

	/* 2, 3: STREAM_BIND. 4: the graph, once. */
	e = bind_in;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	e = bind_out;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	ASSERT_EQ(IPU_CS_SUCCESS, run_at(self, &e, &c, &one_slot));
	EXPECT_EQ(4, one_slot);
	ran[one_slot] = true;
	one = *rec_at(self, rec, one_slot);
	log_record(_metadata, "RUN", &one);
	check_ran(_metadata, &one, &c);
	check_graph_record(_metadata, &one);
	for (unsigned i = 0; i < R_ROUNDS * R_ELEMS; i++)
		ASSERT_EQ(x[i] * 2, y[i]);

	/* 5: FENCE, 6: WRITE, 7: the graph twice, 8: READ. */
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_FENCE, NULL));
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_WRITE, 0, xin,
				       pool_pages(self, 1), R_ELEMS * 4));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.count = 2;
	ASSERT_EQ(IPU_CS_SUCCESS, run_at(self, &e, &c, &two_slot));
	EXPECT_EQ(7, two_slot);
	ran[two_slot] = true;
	two = *rec_at(self, rec, two_slot);
	check_ran(_metadata, &two, &c);
	for (unsigned k = 0; k < REC_WORDS; k++) {
		EXPECT_EQ(2 * rec_words(&one)[k], rec_words(&two)[k])
			TH_LOG("word %u", k);
	}
	ASSERT_EQ(IPU_CS_SUCCESS, xfer(self, IPU_SQE_READ, 1, zout,
				       pool_pages(self, 1), R_ELEMS * 4));

	runs_not_started(_metadata, self, rec, ran);

	/* Every slot: the records where they were, nothing anywhere else. */
	check_slots(_metadata, self, rec, ran, &one, one_slot, &two, two_slot);

	/* Around the ring: the last slot, then slot 0 again. */
	e = ld;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	e = bind_in;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	e = bind_out;
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));
	while (self->q->cq_head != REC_QSIZE - 1)
		ASSERT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_FENCE, NULL));
	for (unsigned i = 0; i < REC_QSIZE - 1; i++) {
		if (!ran[i])
			EXPECT_TRUE(rec_untouched(self, rec, i)) TH_LOG("slot %u", i);
	}
	/* The streams bound again: the same run, the same counters. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	ASSERT_EQ(IPU_CS_SUCCESS, run_at(self, &e, &c, &slot));
	EXPECT_EQ(REC_QSIZE - 1, slot);
	EXPECT_EQ(0, memcmp(&one, rec_at(self, rec, slot), sizeof(one)));
	EXPECT_EQ(0, self->q->cq_head);
	EXPECT_TRUE(rec_untouched(self, rec, 0));	/* the LOAD's */
	ASSERT_EQ(IPU_CS_SUCCESS, run_at(self, &e, &c, &slot));
	EXPECT_EQ(0, slot);
	EXPECT_EQ(0, memcmp(&one, rec_at(self, rec, 0), sizeof(one)));
	check_ran(_metadata, rec_at(self, rec, 0), &c);
	/* The failed RUN's record in slot 1 is still there. */
	EXPECT_EQ(0, rec_at(self, rec, 1)->stream_bytes_h2d);
	EXPECT_LT(0, rec_at(self, rec, 1)->steps);
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(1, IPU_Q_STATUS)));
}

/*
 * A RUN stopped by ABORT records what it did before it stopped; the ABORTs
 * write no record. A RUN dropped by disabling its queue writes none.
 */
TEST_F(queue, run_record_aborted)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned rec = pool_pages(self, 1);
	const struct ipu_run_record *r;
	unsigned run_slot, slot;
	struct ipu_sqe e;
	struct ipu_cqe c;
	uint16_t run_cid;
	struct tq *q;
	void *graph;
	size_t glen;
	int n;

	ASSERT_EQ(0, ipu_test_double_graph(IPU_MODEL_TEST, N_ELEMS, 0, &graph,
					   &glen));
	load_sqe(self, graph, glen, &e);
	free(graph);
	memset(page_ptr(self, rec), REC_PAT, PAGE);
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  open_queue_rec(self, 2, IPU_Q_CTRL_ENABLE, REC_QSIZE,
				 self->phys[rec]));
	q = self->q = &self->qs[2];
	ASSERT_EQ(IPU_CS_SUCCESS, run_cmd(self, &e, NULL));

	/* "spin" would run for hours: ABORT it once it has started. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.handle = P_SPIN;
	post(self, q, &e);
	run_cid = e.cid;
	run_slot = q->cq_head;
	doorbell(self, q, false, q->sq_tail);
	ASSERT_EQ(0, wait_fetched(self, q));
	usleep(20000);
	ASSERT_EQ(0, abort_until_completion(self, q, &c, &n));
	ASSERT_EQ(run_cid, c.cid);
	ASSERT_EQ(IPU_CS_ABORTED, IPU_CQE_CODE(c.status));
	r = rec_at(self, rec, run_slot);
	log_record(_metadata, "aborted RUN", r);
	check_ran(_metadata, r, &c);
	EXPECT_LT(0, c.cycles);
	EXPECT_LT(1, r->steps);
	EXPECT_LT(0, r->compute_sets);
	EXPECT_LE(r->compute_sets, r->syncs);
	EXPECT_LT(0, r->cycles_compute);
	EXPECT_EQ(0, r->stream_bytes_h2d);
	EXPECT_EQ(0, r->stream_bytes_d2h);
	/* The ABORTs complete after it, without records. */
	for (int i = 1; i < n; i++) {
		slot = q->cq_head;
		ASSERT_EQ(0, reap(q, &c, 10000));
		EXPECT_EQ(IPU_CS_SUCCESS, IPU_CQE_CODE(c.status));
		EXPECT_TRUE(rec_untouched(self, rec, slot)) TH_LOG("slot %u", slot);
	}
	doorbell(self, q, true, q->cq_head);
	EXPECT_TRUE(rec_untouched(self, rec, 0));	/* the LOAD's */
	TH_LOG("the RUN stopped after %d ABORT(s)", n - 1);

	/* Pulled from under a RUN, the queue posts neither record nor CQE. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.handle = P_SPIN;
	post(self, q, &e);
	slot = q->cq_head;
	doorbell(self, q, false, q->sq_tail);
	ASSERT_EQ(0, wait_fetched(self, q));
	usleep(20000);
	wr32(self, IPU_REG_Q(2, IPU_Q_CTRL), 0);
	EXPECT_EQ(0, ipu_bar0_wait_q_stopped(&self->bar, 2));
	EXPECT_TRUE(rec_untouched(self, rec, slot));
	EXPECT_NE(q->phase, q->cq[slot].status & IPU_CQE_PHASE);
}

/*
 * Records the card cannot write (REC_BASE in its own BAR, beyond RAM, or
 * running off the end of the address space) stop the queue with ERROR
 * code 4 at the first RUN, without its completion; other commands complete
 * (they write no record). QEMU and the other queues are fine, and the queue
 * works when enabled again.
 */
TEST_F(queue, run_record_not_ram)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned rec = pool_pages(self, 1);
	const uint64_t bad[] = {
		self->bar.phys,		/* BAR0, 16 KiB aligned */
		1ull << 40,		/* no memory */
	};
	struct ipu_sqe e;
	struct ipu_cqe c;
	unsigned slot;
	struct tq *q;

	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	memset(page_ptr(self, rec), REC_PAT, PAGE);
	for (unsigned k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		ASSERT_EQ(IPU_Q_STATUS_ENABLED,
			  open_queue_rec(self, 1, IPU_Q_CTRL_ENABLE, QSIZE,
					 bad[k]));
		q = self->q = &self->qs[1];
		EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_FENCE, NULL));
		memset(&e, 0, sizeof(e));
		e.opcode = IPU_SQE_RUN;
		post(self, q, &e);
		doorbell(self, q, false, q->sq_tail);
		EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_RING_DMA << 8),
			  ipu_bar0_wait_q_stopped(&self->bar, 1))
			TH_LOG("REC_BASE 0x%" PRIx64, bad[k]);
		EXPECT_EQ(1, rd32(self, IPU_REG_Q(1, IPU_Q_CQ_TAIL)));
		EXPECT_EQ(0, q->cq[1].status & IPU_CQE_PHASE);
		EXPECT_EQ(IPU_MAGIC, rd32(self, IPU_REG_MAGIC));
	}

	/*
	 * 4 KiB aligned just below 2^64: slot 40 of the ring would wrap to
	 * address 0x400, which is RAM: ENABLE refuses such a ring (code 4),
	 * and so for the SQ and the CQ.
	 */
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_RING_DMA << 8),
		  open_queue_rec(self, 1, IPU_Q_CTRL_ENABLE, QSIZE,
				 UINT64_MAX & ~(uint64_t)(PAGE - 1)));
	wr32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_LO), 0);
	wr32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_HI), 0);
	wr32(self, IPU_REG_Q(1, IPU_Q_SQ_BASE_LO), (uint32_t)-PAGE);
	wr32(self, IPU_REG_Q(1, IPU_Q_SQ_BASE_HI), UINT32_MAX);
	wr32(self, IPU_REG_Q(1, IPU_Q_SIZE), 256);	/* 16 KiB: past 2^64 */
	wr32(self, IPU_REG_Q(1, IPU_Q_CTRL), IPU_Q_CTRL_ENABLE);
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_RING_DMA << 8),
		  rd32(self, IPU_REG_Q(1, IPU_Q_STATUS)));
	wr32(self, IPU_REG_Q(1, IPU_Q_CTRL), 0);

	/* Queue 0 never noticed; queue 1 works again with a ring in RAM. */
	self->q = &self->qs[0];
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(0, IPU_Q_STATUS)));
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  open_queue_rec(self, 1, IPU_Q_CTRL_ENABLE, REC_QSIZE,
				 self->phys[rec]));
	self->q = &self->qs[1];
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	ASSERT_EQ(IPU_CS_SUCCESS, run_at(self, &e, &c, &slot));
	check_ran(_metadata, rec_at(self, rec, slot), &c);
	EXPECT_TRUE(rec_untouched(self, rec, slot + 1));
	/* REC_BASE 0: no records (and nothing written at address 0). */
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  open_queue_rec(self, 1, IPU_Q_CTRL_ENABLE, QSIZE, 0));
	self->q = &self->qs[1];
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_FENCE, NULL));
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_RUN, NULL));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(1, IPU_Q_STATUS)));
	EXPECT_TRUE(rec_untouched(self, rec, 1));
}

/* REC_BASE's checks at ENABLE and its lock (the rest: ipu_device_test). */
TEST_F(queue, rec_base_setup)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned rec = pool_pages(self, 1);

	/* Not 4 KiB aligned (low or high half): ERROR code 2, disabled. */
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_ALIGN << 8),
		  open_queue_rec(self, 1, IPU_Q_CTRL_ENABLE, QSIZE,
				 self->phys[rec] + IPU_RUN_RECORD_SIZE));
	EXPECT_EQ(0, rd32(self, IPU_REG_Q(1, IPU_Q_CTRL)));
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_ALIGN << 8),
		  open_queue_rec(self, 1, IPU_Q_CTRL_ENABLE, QSIZE,
				 self->phys[rec] | 8));
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_ALIGN << 8),
		  open_queue_rec(self, 1, IPU_Q_CTRL_ENABLE | IPU_Q_CTRL_USER,
				 QSIZE, (1ull << 40) + 0x800));
	/* Aligned, it enables; while enabled the register keeps its value. */
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  open_queue_rec(self, 1, IPU_Q_CTRL_ENABLE, QSIZE,
				 self->phys[rec]));
	wr32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_LO), 0x1000);
	wr32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_HI), 0x12);
	EXPECT_EQ((uint32_t)self->phys[rec],
		  rd32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_LO)));
	EXPECT_EQ(self->phys[rec] >> 32,
		  rd32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_HI)));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(1, IPU_Q_STATUS)));
	/* Disabled, it takes writes again (checked at the next ENABLE). */
	wr32(self, IPU_REG_Q(1, IPU_Q_CTRL), 0);
	wr32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_LO), 0x1040);
	EXPECT_EQ(0x1040, rd32(self, IPU_REG_Q(1, IPU_Q_REC_BASE_LO)));
	wr32(self, IPU_REG_Q(1, IPU_Q_CTRL), IPU_Q_CTRL_ENABLE);
	EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_ALIGN << 8),
		  rd32(self, IPU_REG_Q(1, IPU_Q_STATUS)));
	/* Reset clears it. */
	EXPECT_EQ(0, ipu_bar0_reset(&self->bar));
	for (unsigned i = 0; i < IPU_NUM_QUEUES; i++) {
		EXPECT_EQ(0, rd32(self, IPU_REG_Q(i, IPU_Q_REC_BASE_LO)));
		EXPECT_EQ(0, rd32(self, IPU_REG_Q(i, IPU_Q_REC_BASE_HI)));
	}
}

/*
 * A user queue's RUNs get records too (its own REC_BASE); the commands it
 * refuses and its FENCE and ABORT write none.
 */
TEST_F(queue, run_records_user_queue)
{
	IPU_RETURN_IF_SKIPPED();
	unsigned rec = pool_pages(self, 1), buf = pool_pages(self, 1);
	struct ipu_run_record once;
	unsigned slot, once_slot;
	struct ipu_sqe e;
	struct ipu_cqe c;
	struct tq *u;

	ASSERT_NE(NULL, self->bar.db) TH_LOG("BAR4: %s", self->bar.db_err);
	ASSERT_EQ(IPU_CS_SUCCESS, load_graph(self));
	memset(page_ptr(self, rec), REC_PAT, PAGE);
	ASSERT_EQ(IPU_Q_STATUS_ENABLED,
		  open_queue_rec(self, 3, IPU_Q_CTRL_ENABLE | IPU_Q_CTRL_USER,
				 REC_QSIZE, self->phys[rec]));
	u = self->q = &self->qs[3];
	u->bar4 = true;

	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_FENCE, NULL));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	ASSERT_EQ(IPU_CS_SUCCESS, run_at(self, &e, &c, &once_slot));
	EXPECT_EQ(1, once_slot);
	EXPECT_EQ(3, c.sq_id);
	once = *rec_at(self, rec, once_slot);
	log_record(_metadata, "user queue RUN", &once);
	check_ran(_metadata, &once, &c);
	EXPECT_LT(0, once.compute_sets);
	EXPECT_LT(0, once.cycles_compute);
	/* 2: a READ, refused. 3: the program three times. */
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_READ;
	e.handle = 1;
	e.length = 64;
	e.data = self->phys[buf];
	EXPECT_EQ(0, refused(self, &e));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.count = 3;
	ASSERT_EQ(IPU_CS_SUCCESS, run_at(self, &e, &c, &slot));
	EXPECT_EQ(3, slot);
	check_ran(_metadata, rec_at(self, rec, slot), &c);
	for (unsigned k = 0; k < REC_WORDS; k++) {
		EXPECT_EQ(3 * rec_words(&once)[k],
			  rec_words(rec_at(self, rec, slot))[k])
			TH_LOG("word %u", k);
	}
	/* 4: ABORT with nothing running. 5: no program 5. 6: UNLOAD, refused. */
	EXPECT_EQ(IPU_CS_SUCCESS, cmd0(self, IPU_SQE_ABORT, NULL));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_RUN;
	e.handle = 5;
	EXPECT_EQ(IPU_CS_BAD_HANDLE, run_at(self, &e, &c, &slot));
	EXPECT_EQ(5, slot);
	EXPECT_TRUE(all_bytes(rec_at(self, rec, slot), IPU_RUN_RECORD_SIZE, 0));
	memset(&e, 0, sizeof(e));
	e.opcode = IPU_SQE_UNLOAD;
	EXPECT_EQ(0, refused(self, &e));

	EXPECT_EQ(7, u->cq_head);
	for (unsigned i = 0; i < REC_QSIZE; i++) {
		if (i != 1 && i != 3 && i != 5)
			EXPECT_TRUE(rec_untouched(self, rec, i)) TH_LOG("slot %u", i);
	}
	EXPECT_EQ(0, memcmp(&once, rec_at(self, rec, 1), sizeof(once)));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, rd32(self, IPU_REG_Q(3, IPU_Q_STATUS)));
}

/* ---- DMA faults, and the card letting go of memory (a gc200 card) ---- */

/*
 * These drive card 0, a gc200 (its tiles hold a 128 MiB tensor), with rings,
 * SG lists and buffers in hugepages (a 2 MiB page is contiguous on the bus).
 * Behind an IOMMU the card's bus addresses are IOVAs: with the driver
 * unbound the card's group keeps its DMA domain with nothing mapped, so every
 * address faults in the IOMMU; in an identity domain they are physical
 * addresses again. The tests switch between the two through the group's
 * "type" in sysfs, which the kernel allows only with no driver bound.
 */
#define BIG_CARD	0
#define HPAGE		(2u << 20)
#define BIG_MAX		(128u << 20)	/* the big transfers, if memory allows */
#define BIG_MIN		(16u << 20)
#define SMALL_RING	4096		/* bytes of each SQ, CQ and record ring */

FIXTURE(dma) {
	struct ipu_bar0 bar;
	char type_path[PATH_MAX];	/* the IOMMU group's type, "" without */
	char type0[32];			/* its type before the test */
	long huge0;			/* nr_hugepages before the test, or -1 */
	uint8_t *mem;			/* hugepages: small things, bounce, data */
	size_t mem_len;
	uint64_t phys[BIG_MAX / HPAGE + 2];
	size_t next;			/* allocation cursor in hugepage 0 */
	uint8_t *bounce;		/* hugepage 1 */
	uint8_t *data;			/* hugepages 2..: big bytes */
	uint64_t big;
	uint64_t data_sgl;		/* an SG list of data, one entry a page */
	uint32_t data_sgl_count;
	uint8_t *rec[IPU_NUM_QUEUES];	/* each queue's record ring */
	struct tq qs[IPU_NUM_QUEUES];
	uint16_t cid;
	uint8_t *graph;			/* the double graph, in hugepage 0 */
	size_t graph_len;
	uint64_t bad[5];		/* bus addresses that are not RAM */
	unsigned nbad;
};

static uint32_t drd(FIXTURE_DATA(dma) *self, uint32_t off)
{
	return ipu_bar0_rd(&self->bar, off);
}

static void dwr(FIXTURE_DATA(dma) *self, uint32_t off, uint32_t v)
{
	ipu_bar0_wr(&self->bar, off, v);
}

/* The bus address of @p, inside the hugepages. */
static uint64_t dbus(FIXTURE_DATA(dma) *self, const void *p)
{
	size_t off = (const uint8_t *)p - self->mem;

	return self->phys[off / HPAGE] + off % HPAGE;
}

/* @len zeroed bytes of hugepage 0, 4 KiB aligned. */
static void *dalloc(FIXTURE_DATA(dma) *self, size_t len)
{
	void *p = self->mem + self->next;

	len = (len + PAGE - 1) & ~(size_t)(PAGE - 1);
	if (self->next + len > HPAGE)
		abort();
	self->next += len;
	memset(p, 0, len);
	return p;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/*
 * Puts the card's IOMMU group into its DMA domain ("DMA": every address
 * faults) or an identity one ("identity"); 0 or -errno. Nothing to do
 * without an IOMMU.
 */
static int set_domain(FIXTURE_DATA(dma) *self, const char *type)
{
	return self->type_path[0] ? iommu_set_type(self->type_path, type) : 0;
}

/*
 * Configures queue @qi on its rings in hugepage 0 (fresh: zeroed CQ, phase
 * 1), with SQ and CQ at @sq / @cq instead when non-zero and run records at
 * @rec (0: none), and enables it; returns its STATUS.
 */
static uint32_t dopen(FIXTURE_DATA(dma) *self, unsigned qi, uint64_t sq,
		      uint64_t cq, uint64_t rec)
{
	struct tq *q = &self->qs[qi];

	dwr(self, IPU_REG_Q(qi, IPU_Q_CTRL), 0);
	memset(q->cq, 0, SMALL_RING);
	q->sq_tail = q->cq_head = 0;
	q->phase = 1;
	sq = sq ? sq : dbus(self, q->sq);
	cq = cq ? cq : dbus(self, q->cq);
	dwr(self, IPU_REG_Q(qi, IPU_Q_SQ_BASE_LO), (uint32_t)sq);
	dwr(self, IPU_REG_Q(qi, IPU_Q_SQ_BASE_HI), sq >> 32);
	dwr(self, IPU_REG_Q(qi, IPU_Q_CQ_BASE_LO), (uint32_t)cq);
	dwr(self, IPU_REG_Q(qi, IPU_Q_CQ_BASE_HI), cq >> 32);
	dwr(self, IPU_REG_Q(qi, IPU_Q_REC_BASE_LO), (uint32_t)rec);
	dwr(self, IPU_REG_Q(qi, IPU_Q_REC_BASE_HI), rec >> 32);
	dwr(self, IPU_REG_Q(qi, IPU_Q_SIZE), q->size);
	dwr(self, IPU_REG_Q(qi, IPU_Q_VECTOR), 1);
	dwr(self, IPU_REG_Q(qi, IPU_Q_COALESCE), 0);
	dwr(self, IPU_REG_Q(qi, IPU_Q_CTRL), IPU_Q_CTRL_ENABLE);
	return drd(self, IPU_REG_Q(qi, IPU_Q_STATUS));
}

/* Puts @e (with a new cid) into queue @qi's SQ and rings its doorbell. */
static void dpost(FIXTURE_DATA(dma) *self, unsigned qi, struct ipu_sqe *e)
{
	struct tq *q = &self->qs[qi];

	e->cid = ++self->cid;
	q->sq[q->sq_tail] = *e;
	__sync_synchronize();
	q->sq_tail = (q->sq_tail + 1) % q->size;
	dwr(self, IPU_REG_SQ_TAIL(qi), q->sq_tail);
}

/*
 * Waits (@ms at most) for queue @qi's next completion and consumes it: its
 * status code, -ETIMEDOUT, or -EPROTO when its cid is not @cid.
 */
static int dreap(FIXTURE_DATA(dma) *self, unsigned qi, uint16_t cid,
		 struct ipu_cqe *out, long ms)
{
	struct tq *q = &self->qs[qi];
	struct ipu_cqe tmp, *c = out ? out : &tmp;
	int ret = reap(q, c, ms);

	if (ret)
		return ret;
	dwr(self, IPU_REG_CQ_HEAD(qi), q->cq_head);
	return c->cid == cid ? IPU_CQE_CODE(c->status) : -EPROTO;
}

/* Submits @e on queue @qi, waits (30 s) for it: its status code or -errno. */
static int dcmd(FIXTURE_DATA(dma) *self, unsigned qi, struct ipu_sqe *e,
		struct ipu_cqe *out)
{
	dpost(self, qi, e);
	return dreap(self, qi, e->cid, out, 30000);
}

/* LOADs the double graph from hugepage 0: its status code. */
static int dload(FIXTURE_DATA(dma) *self, unsigned qi)
{
	struct ipu_sqe e = {
		.opcode = IPU_SQE_LOAD,
		.length = self->graph_len,
		.data = dbus(self, self->graph),
	};

	return dcmd(self, qi, &e, NULL);
}

/*
 * READ or WRITE (@op) of @len bytes at @off of the big tensor, from/to the
 * bounce page (@len at most 2 MiB) or, with @len = big, the data pages.
 */
static int dxfer(FIXTURE_DATA(dma) *self, unsigned qi, uint8_t op,
		 uint64_t off, uint64_t len)
{
	struct ipu_sqe e = {
		.opcode = op, .handle = H_BIG, .offset = off, .length = len,
	};

	if (len == self->big) {
		e.data = self->data_sgl;
		e.sgl_count = self->data_sgl_count;
	} else {
		e.data = dbus(self, self->bounce);
	}
	return dcmd(self, qi, &e, NULL);
}

/* Reads /proc/iomem: the first byte above the highest System RAM. */
static uint64_t ram_top(void)
{
	unsigned long long lo, hi, top = 0;
	char line[256];
	FILE *f = fopen("/proc/iomem", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (line[0] != ' ' && strstr(line, "System RAM") &&
		    sscanf(line, "%llx-%llx", &lo, &hi) == 2 && hi + 1 > top)
			top = hi + 1;
	fclose(f);
	return top;
}

/*
 * Maps 2 + big / 2 MiB hugepages (fewer big ones when the VM cannot give
 * them, BIG_MIN at least), with their bus addresses; 0 or -errno.
 */
static int map_hugepages(FIXTURE_DATA(dma) *self)
{
	const char *nr = "/proc/sys/vm/nr_hugepages";
	unsigned want = 2 + BIG_MAX / HPAGE, n;
	char buf[32];
	int fd, ret;

	if (ipu_read_file(nr, buf, sizeof(buf)))
		return -ENOENT;
	self->huge0 = atol(buf);
	snprintf(buf, sizeof(buf), "%ld", self->huge0 + want);
	ret = ipu_write_file(nr, buf);
	if (ret)
		return ret;
	for (n = want; n >= 2 + BIG_MIN / HPAGE; n--) {
		self->mem = mmap(NULL, (size_t)n * HPAGE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
				 MAP_POPULATE, -1, 0);
		if (self->mem != MAP_FAILED)
			break;
	}
	if (self->mem == MAP_FAILED)
		return -ENOMEM;
	self->mem_len = (size_t)n * HPAGE;
	self->big = (uint64_t)(n - 2) * HPAGE;
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		return -errno;
	for (unsigned i = 0; i < n; i++) {
		uint64_t ent, va = (uint64_t)(uintptr_t)(self->mem +
							 (size_t)i * HPAGE);

		self->mem[(size_t)i * HPAGE] = 0;
		if (pread(fd, &ent, 8, va / PAGE * 8) != 8 || !(ent >> 63)) {
			close(fd);
			return -EIO;
		}
		self->phys[i] = (ent & ((1ull << 55) - 1)) * PAGE;
		if (!self->phys[i] || self->phys[i] % HPAGE) {
			close(fd);
			return -EIO;
		}
	}
	close(fd);
	return 0;
}

FIXTURE_SETUP(dma)
{
	struct ipu_sge *sgl;
	uint64_t top;
	char msg[256];
	int ret;

	self->huge0 = -1;
	self->mem = MAP_FAILED;
	ret = ipu_bar0_take(&self->bar, BIG_CARD, true, msg, sizeof(msg));
	if (ret == -ENODEV)
		SKIP(return, "card %d is not present", BIG_CARD);
	ASSERT_EQ(0, ret) TH_LOG("%s", msg);
	if (ipu_bar0_rd(&self->bar, IPU_REG_MODEL) != IPU_MODEL_GC200)
		SKIP(return, "card %d is not a gc200", BIG_CARD);
	/* The card's rings must be reachable to start with. */
	iommu_identity(_metadata, self->bar.pcidir, self->type_path,
		       sizeof(self->type_path), self->type0, sizeof(self->type0));
	IPU_RETURN_IF_SKIPPED();
	ret = map_hugepages(self);
	if (ret == -ENOMEM)
		SKIP(return, "the VM has too few free hugepages");
	ASSERT_EQ(0, ret);
	self->bounce = self->mem + HPAGE;
	self->data = self->mem + 2 * (size_t)HPAGE;
	ASSERT_EQ(0, ipu_test_double_graph(IPU_MODEL_GC200, N_ELEMS, self->big,
					   (void **)&self->graph,
					   &self->graph_len));
	/* The binary moves into hugepage 0: the graph is small, the tensor lazy. */
	{
		uint8_t *g = self->graph;

		self->graph = dalloc(self, self->graph_len);
		memcpy(self->graph, g, self->graph_len);
		free(g);
	}
	for (unsigned qi = 0; qi < IPU_NUM_QUEUES; qi++) {
		self->qs[qi] = (struct tq){
			.qi = qi,
			.size = SMALL_RING / sizeof(struct ipu_sqe),
			.sq = dalloc(self, SMALL_RING),
			.cq = dalloc(self, SMALL_RING),
			.phase = 1,
		};
		self->rec[qi] = dalloc(self, SMALL_RING * 2);
	}
	sgl = dalloc(self, (self->big / HPAGE) * sizeof(*sgl));
	for (uint64_t i = 0; i < self->big / HPAGE; i++)
		sgl[i] = (struct ipu_sge){
			.addr = dbus(self, self->data + i * HPAGE), .len = HPAGE,
		};
	self->data_sgl = dbus(self, sgl);
	self->data_sgl_count = self->big / HPAGE;

	/* Not RAM: a gigabyte past the top of RAM, no memory at all, the
	 * card's own registers, the top of the bus. */
	top = ram_top();
	ASSERT_NE(0, top);
	self->bad[self->nbad++] = ((top >> 30) + 2) << 30;
	self->bad[self->nbad++] = 1ull << 40;
	self->bad[self->nbad++] = self->bar.phys;
	self->bad[self->nbad++] = 0xfffffffffff00000ull;
	ASSERT_EQ(0, ipu_bar0_reset(&self->bar));
}

FIXTURE_TEARDOWN(dma)
{
	char buf[32];

	/* The card lets go of everything before it is READY again. */
	if (self->bar.regs)
		EXPECT_EQ(0, ipu_bar0_reset(&self->bar));
	if (self->type_path[0])
		EXPECT_EQ(0, set_domain(self, self->type0));
	EXPECT_EQ(0, ipu_bar0_release(&self->bar));
	if (self->mem != MAP_FAILED)
		munmap(self->mem, self->mem_len);
	if (self->huge0 >= 0) {
		snprintf(buf, sizeof(buf), "%ld", self->huge0);
		ipu_write_file("/proc/sys/vm/nr_hugepages", buf);
	}
}

/* Resets the card, waits for READY; with @load, queue 0 and the graph. */
static int dreset(FIXTURE_DATA(dma) *self, bool load)
{
	if (ipu_bar0_reset(&self->bar))
		return -ETIMEDOUT;
	if (!load)
		return 0;
	if (dopen(self, 0, 0, 0, 0) != IPU_Q_STATUS_ENABLED)
		return -EIO;
	return dload(self, 0) == IPU_CS_SUCCESS ? 0 : -EIO;
}

/*
 * After a storm of faults: the card still loads, writes, runs and reads
 * exactly (x, then y = x + x), and FENCE completes.
 */
static void round_trip(struct __test_metadata *_metadata,
		       FIXTURE_DATA(dma) *self)
{
	float *x = (float *)self->bounce, *y = x + N_ELEMS;
	struct ipu_sqe e;
	int bad = 0;

	ASSERT_EQ(0, dreset(self, true));
	for (int i = 0; i < N_ELEMS; i++)
		x[i] = (float)i - 1000.0f;
	memset(y, 0xff, N_ELEMS * 4);
	e = (struct ipu_sqe){ .opcode = IPU_SQE_WRITE, .handle = H_X,
			      .length = N_ELEMS * 4, .data = dbus(self, x) };
	ASSERT_EQ(IPU_CS_SUCCESS, dcmd(self, 0, &e, NULL));
	e = (struct ipu_sqe){ .opcode = IPU_SQE_RUN, .handle = P_DOUBLE };
	ASSERT_EQ(IPU_CS_SUCCESS, dcmd(self, 0, &e, NULL));
	e = (struct ipu_sqe){ .opcode = IPU_SQE_READ, .handle = H_Y,
			      .length = N_ELEMS * 4, .data = dbus(self, y) };
	ASSERT_EQ(IPU_CS_SUCCESS, dcmd(self, 0, &e, NULL));
	for (int i = 0; i < N_ELEMS; i++)
		bad += y[i] != 2 * x[i];
	EXPECT_EQ(0, bad);
	e = (struct ipu_sqe){ .opcode = IPU_SQE_FENCE };
	EXPECT_EQ(IPU_CS_SUCCESS, dcmd(self, 0, &e, NULL));
	EXPECT_EQ(IPU_MAGIC, drd(self, IPU_REG_MAGIC));
}

/* A fault the card must turn into a status: which ring or buffer. */
enum fault_kind { F_CQ, F_REC, F_DATA, F_SGE, F_SGL, F_KINDS };

/*
 * Starts a fault of kind @k at @addr on queue @qi (its rings in RAM): the
 * CQ or the record ring there (a FENCE, a RUN), or a WRITE whose buffer,
 * SG entry or SG list is there. Returns the cid to wait for (data faults).
 */
static uint16_t start_fault(FIXTURE_DATA(dma) *self, unsigned qi,
			    enum fault_kind k, uint64_t addr)
{
	struct ipu_sge *sge = (struct ipu_sge *)(self->rec[qi] + SMALL_RING);
	struct ipu_sqe e = { .opcode = IPU_SQE_WRITE, .handle = H_X,
			     .length = 64 };

	switch (k) {
	case F_CQ:
		dopen(self, qi, 0, addr, 0);
		e = (struct ipu_sqe){ .opcode = IPU_SQE_FENCE };
		break;
	case F_REC:
		dopen(self, qi, 0, 0, addr);
		e = (struct ipu_sqe){ .opcode = IPU_SQE_RUN, .handle = P_DOUBLE };
		break;
	case F_DATA:
		dopen(self, qi, 0, 0, 0);
		e.data = addr;
		break;
	case F_SGE:
		dopen(self, qi, 0, 0, 0);
		sge[0] = (struct ipu_sge){ .addr = dbus(self, self->bounce),
					   .len = 32 };
		sge[1] = (struct ipu_sge){ .addr = addr, .len = 32 };
		e.data = dbus(self, sge);
		e.sgl_count = 2;
		e.opcode = IPU_SQE_READ;
		e.handle = H_Y;
		break;
	default:
		dopen(self, qi, 0, 0, 0);
		e.data = addr;
		e.sgl_count = 1;
		break;
	}
	dpost(self, qi, &e);
	return e.cid;
}

/* The outcome of start_fault(): true when the card reported it as it must. */
static bool fault_reported(struct __test_metadata *_metadata,
			   FIXTURE_DATA(dma) *self, unsigned qi,
			   enum fault_kind k, uint64_t addr, uint16_t cid)
{
	struct ipu_cqe c;
	uint32_t st;
	int cs;

	if (k == F_CQ || k == F_REC) {
		st = ipu_bar0_wait_q_stopped(&self->bar, qi);
		EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_RING_DMA << 8), st)
			TH_LOG("queue %u, %s at 0x%" PRIx64, qi,
			       k == F_CQ ? "CQ" : "records", addr);
		/* No completion: the CQ entry comes after the record. */
		EXPECT_EQ(0, drd(self, IPU_REG_Q(qi, IPU_Q_CQ_TAIL)));
		return st == (IPU_Q_STATUS_ERROR | (IPU_QERR_RING_DMA << 8));
	}
	cs = dreap(self, qi, cid, &c, 10000);
	EXPECT_EQ(IPU_CS_DMA_ERROR, cs) TH_LOG("queue %u, kind %d at 0x%"
					       PRIx64, qi, k, addr);
	if (cs != IPU_CS_DMA_ERROR)
		return false;
	/* The failing address, also when it is an SG entry's. */
	EXPECT_EQ(addr, c.detail | (uint64_t)c.detail2 << 32);
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, drd(self, IPU_REG_Q(qi, IPU_Q_STATUS)));
	return true;
}

/*
 * Behind the IOMMU, with the card's group in an identity domain: starts
 * @e on queue 0 (records at @rec if non-zero), waits for the card to fetch
 * it and puts the group in its DMA domain while it runs, so that what the
 * command still has to do (its data, record, completion) faults in the
 * IOMMU. True when it did: the queue stopped with ERROR code 4 (the CQ
 * entry faulted, after a data fault or not); false when the command had
 * completed before the switch.
 */
static bool fault_midway(struct __test_metadata *_metadata,
			 FIXTURE_DATA(dma) *self, struct ipu_sqe *e,
			 uint64_t rec)
{
	long long t0;
	uint32_t st;

	EXPECT_EQ(0, set_domain(self, "identity"));
	EXPECT_EQ(IPU_Q_STATUS_ENABLED, dopen(self, 0, 0, 0, rec));
	dpost(self, 0, e);
	t0 = ipu_now_ms();
	while (drd(self, IPU_REG_Q(0, IPU_Q_SQ_HEAD)) != 1 &&
	       ipu_now_ms() - t0 < 5000)
		;
	EXPECT_EQ(0, set_domain(self, "DMA"));
	t0 = ipu_now_ms();
	while (!((st = drd(self, IPU_REG_Q(0, IPU_Q_STATUS))) &
		 IPU_Q_STATUS_ERROR) && !drd(self, IPU_REG_Q(0, IPU_Q_CQ_TAIL)) &&
	       ipu_now_ms() - t0 < 30000)
		usleep(1000);
	EXPECT_EQ(0, set_domain(self, "identity"));
	if (st & IPU_Q_STATUS_ERROR) {
		EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_RING_DMA << 8), st);
		return true;
	}
	/* Completed before the switch: too short. */
	dwr(self, IPU_REG_Q(0, IPU_Q_CTRL), 0);
	return false;
}

/*
 * A storm of DMA faults on every queue, interleaved with soft resets: SQ
 * rings, CQ rings, record rings, data buffers, SG entries and SG lists at
 * addresses that are not RAM or, behind an IOMMU, not mapped (there the
 * faults are the IOMMU's: a vIOMMU reports a fault with an interrupt, which
 * the card's threads must raise under the BQL or QEMU aborts). Each must
 * stop its queue with ERROR code 4 (rings) or complete its command with
 * DMA_ERROR (data), QEMU must stay up, and the card must work afterwards.
 */
TEST_F_TIMEOUT(dma, fault_storm, 900)
{
	IPU_RETURN_IF_SKIPPED();
	const bool iommu = self->type_path[0];
	unsigned faults = 0, iommu_faults = 0, resets = 0;
	uint16_t cids[IPU_NUM_QUEUES];
	enum fault_kind kinds[IPU_NUM_QUEUES];
	uint64_t addrs[IPU_NUM_QUEUES];
	struct ipu_sqe e;
	uint64_t count;
	bool caught;

	/*
	 * SQ rings: all queues at once. Behind the IOMMU, in the DMA domain,
	 * their own rings (RAM, but not mapped) fault as well as the rest.
	 */
	if (iommu)
		ASSERT_EQ(0, set_domain(self, "DMA"));
	for (unsigned round = 0; round < 16; round++) {
		for (unsigned qi = 0; qi < IPU_NUM_QUEUES; qi++) {
			unsigned k = (round + qi) % (self->nbad + 1);

			addrs[qi] = k < self->nbad ? self->bad[k] :
				    iommu ? dbus(self, self->qs[qi].sq) :
					    self->bad[0] + PAGE * qi;
			ASSERT_EQ(IPU_Q_STATUS_ENABLED,
				  dopen(self, qi, addrs[qi], 0, 0));
		}
		for (unsigned qi = 0; qi < IPU_NUM_QUEUES; qi++)
			dwr(self, IPU_REG_SQ_TAIL(qi), 1 + qi % 7);
		/* Every fourth round, a reset among the faults. */
		if (round % 4 == 3) {
			ASSERT_EQ(0, dreset(self, false));
			resets++;
			continue;
		}
		for (unsigned qi = 0; qi < IPU_NUM_QUEUES; qi++) {
			EXPECT_EQ(IPU_Q_STATUS_ERROR | (IPU_QERR_RING_DMA << 8),
				  ipu_bar0_wait_q_stopped(&self->bar, qi))
				TH_LOG("queue %u, SQ at 0x%" PRIx64, qi,
				       addrs[qi]);
			faults++;
			iommu_faults += iommu;
		}
		EXPECT_EQ(IPU_MAGIC, drd(self, IPU_REG_MAGIC));
	}

	/* The other rings and the data: the SQ must be readable for them. */
	if (iommu)
		ASSERT_EQ(0, set_domain(self, "identity"));
	ASSERT_EQ(0, dreset(self, true));
	for (unsigned round = 0; round < 24; round++) {
		for (unsigned qi = 0; qi < IPU_NUM_QUEUES; qi++) {
			kinds[qi] = (round + qi) % F_KINDS;
			addrs[qi] = self->bad[(round / F_KINDS + qi) %
					      self->nbad];
			cids[qi] = start_fault(self, qi, kinds[qi], addrs[qi]);
		}
		if (round % 6 == 5) {
			ASSERT_EQ(0, dreset(self, true));
			resets++;
			continue;
		}
		for (unsigned qi = 0; qi < IPU_NUM_QUEUES; qi++)
			faults += fault_reported(_metadata, self, qi, kinds[qi],
						 addrs[qi], cids[qi]);
	}

	/*
	 * Behind the IOMMU: the CQ, the record ring and the data of a command
	 * fault in the IOMMU while it runs (the data of a big transfer in the
	 * engine's host threads). A command that completes before the domain
	 * changes is made longer and tried again.
	 */
	if (iommu) {
		ASSERT_EQ(0, dreset(self, true));
		/* A RUN of ~100 ms: how long do 100 take? */
		e = (struct ipu_sqe){ .opcode = IPU_SQE_RUN,
				      .handle = P_DOUBLE, .count = 100 };
		count = ipu_now_ms();
		ASSERT_EQ(IPU_CS_SUCCESS, dcmd(self, 0, &e, NULL));
		count = 100 * 100 / (ipu_now_ms() - count + 1) + 100;
		for (int k = 0; k < 4; k++) {
			caught = false;
			for (int t = 0; t < 6 && !caught; t++, count *= 2) {
				if (k < 2)
					e = (struct ipu_sqe){
						.opcode = IPU_SQE_RUN,
						.handle = P_DOUBLE,
						.count = count > UINT32_MAX ?
							 UINT32_MAX : count,
					};
				else
					e = (struct ipu_sqe){
						.opcode = k == 2 ? IPU_SQE_WRITE :
								   IPU_SQE_READ,
						.handle = H_BIG,
						.length = self->big,
						.data = self->data_sgl,
						.sgl_count = self->data_sgl_count,
					};
				caught = fault_midway(_metadata, self, &e,
						      k == 1 ? dbus(self, self->rec[0]) : 0);
				if (k >= 2 && !caught)
					break;	/* as long as transfers get */
			}
			if (k < 2) {
				EXPECT_TRUE(caught) TH_LOG("%s: every RUN completed before the IOMMU domain changed",
							   k ? "records" : "CQ");
			} else if (!caught) {
				TH_LOG("a %" PRIu64 " MiB %s completed before the IOMMU domain changed",
				       self->big >> 20, k == 2 ? "WRITE" : "READ");
			}
			faults += caught;
			iommu_faults += caught;
		}
	}

	round_trip(_metadata, self);
	TH_LOG("%u faults (%u in the IOMMU), %u resets among them", faults,
	       iommu_faults, resets);
}

/*
 * Starts a READ or WRITE (@op) of the whole big tensor from/to the data
 * pages on queue 0, waits until the card has fetched it and stops it: a
 * disable (@reset false), then waits for ENABLED to read 0, or a soft
 * reset, then waits for READY. Returns the microseconds the card took to
 * confirm, or -1.
 */
static long long stop_big(FIXTURE_DATA(dma) *self, uint8_t op, bool reset)
{
	struct ipu_sqe e = {
		.opcode = op, .handle = H_BIG, .length = self->big,
		.data = self->data_sgl, .sgl_count = self->data_sgl_count,
	};
	long long t0 = ipu_now_ms(), us;

	if (dopen(self, 0, 0, 0, 0) != IPU_Q_STATUS_ENABLED)
		return -1;
	dpost(self, 0, &e);
	while (drd(self, IPU_REG_Q(0, IPU_Q_SQ_HEAD)) != 1)
		if (ipu_now_ms() - t0 > 5000)
			return -1;
	us = now_us();
	if (reset) {
		dwr(self, IPU_REG_CONTROL, IPU_CONTROL_RESET);
		while (!(drd(self, IPU_REG_STATUS) & IPU_CARD_READY))
			if (now_us() - us > 10000000)
				return -1;
	} else {
		dwr(self, IPU_REG_Q(0, IPU_Q_CTRL), 0);
		while (drd(self, IPU_REG_Q(0, IPU_Q_STATUS)) &
		       IPU_Q_STATUS_ENABLED)
			if (now_us() - us > 10000000)
				return -1;
	}
	return now_us() - us;
}

#define PAT_TENSOR	0x5a	/* the tensor's bytes for the READs */
#define PAT_DEST	0xa5	/* a READ's destination before it */
#define PAT_SRC		0x11	/* a WRITE's source */
#define PAT_LATE	0x22	/* the source once the card let go */
#define WATCH_US	300000	/* how long the memory is watched afterwards */
#define STOP_ATTEMPTS	5	/* to catch a transfer mid-way */

/* Bytes of @p's @len that are @v. */
static uint64_t count_bytes(const uint8_t *p, uint64_t len, uint8_t v)
{
	uint64_t n = 0;

	for (uint64_t i = 0; i < len; i++)
		n += p[i] == v;
	return n;
}

/*
 * Reads the big tensor back through the bounce page and counts its bytes
 * that are 0, PAT_SRC and PAT_LATE: 0, or -1 on a failed READ.
 */
static int read_back(FIXTURE_DATA(dma) *self, uint64_t n[3])
{
	n[0] = n[1] = n[2] = 0;
	if (dopen(self, 0, 0, 0, 0) != IPU_Q_STATUS_ENABLED)
		return -1;
	for (uint64_t off = 0; off < self->big; off += HPAGE) {
		if (dxfer(self, 0, IPU_SQE_READ, off, HPAGE) != IPU_CS_SUCCESS)
			return -1;
		n[0] += count_bytes(self->bounce, HPAGE, 0);
		n[1] += count_bytes(self->bounce, HPAGE, PAT_SRC);
		n[2] += count_bytes(self->bounce, HPAGE, PAT_LATE);
	}
	return 0;
}

/*
 * Disable and reset under a big READ and WRITE: once ENABLED reads 0 (after
 * the disable) or the card is READY (after the reset), not one byte the
 * command referenced changes or is read any more. A READ's destination is
 * watched; a WRITE's source is overwritten, and the tensor read back must
 * hold none of the new bytes (after the reset: nothing at all of the old
 * graph). The time the card took to confirm is printed; it must not wait
 * for the transfer to finish.
 */
TEST_F_TIMEOUT(dma, stop_under_big_transfer, 900)
{
	IPU_RETURN_IF_SKIPPED();
	const uint64_t big = self->big;
	uint64_t left, n[3];
	uint16_t phase;
	uint8_t *snap;
	long long us;

	snap = malloc(big);
	ASSERT_NE(NULL, snap);
	ASSERT_EQ(0, dreset(self, true));
	memset(self->data, PAT_TENSOR, big);
	ASSERT_EQ(IPU_CS_SUCCESS, dxfer(self, 0, IPU_SQE_WRITE, 0, big));

	for (int reset = 0; reset < 2; reset++) {
		/* A READ: its destination must not change any more. */
		for (int attempt = 1;; attempt++) {
			memset(self->data, PAT_DEST, big);
			us = stop_big(self, IPU_SQE_READ, reset);
			ASSERT_LE(0, us);
			memcpy(snap, self->data, big);
			left = count_bytes(snap, big, PAT_DEST);
			usleep(WATCH_US);
			EXPECT_EQ(0, memcmp(snap, self->data, big))
				TH_LOG("the READ went on after the %s",
				       reset ? "reset" : "disable");
			/* stopped part-way: no completion (one that ran whole may have posted it) */
			if (left)
				EXPECT_EQ(0, self->qs[0].cq[0].status & IPU_CQE_PHASE);
			TH_LOG("%s %.1f ms after the %s under a %" PRIu64
			       " MiB READ (%.1f MiB copied by then)",
			       reset ? "READY" : "ENABLED 0", us / 1000.0,
			       reset ? "reset" : "disable", big >> 20,
			       (big - left) / 1048576.0);
			/* The graph went with the reset: load it again. */
			if (reset)
				ASSERT_EQ(0, dreset(self, true));
			if (left || attempt == STOP_ATTEMPTS)
				break;
		}
		/*
		 * The card stopped the copy, it did not wait for its end (a
		 * host that ran the whole copy before the stop arrived tries
		 * again).
		 */
		EXPECT_LT(0, left) TH_LOG("the whole READ was copied first, %d times",
					  STOP_ATTEMPTS);
	}

	for (int reset = 0; reset < 2; reset++) {
		/* A WRITE: its source must not be read any more. */
		for (int attempt = 1;; attempt++) {
			memset(self->data, PAT_SRC, big);
			us = stop_big(self, IPU_SQE_WRITE, reset);
			ASSERT_LE(0, us);
			memset(self->data, PAT_LATE, big);
			usleep(WATCH_US);
			phase = self->qs[0].cq[0].status & IPU_CQE_PHASE;
			/* After the reset, a new graph: nothing of the old one. */
			if (reset)
				ASSERT_EQ(0, dreset(self, true));
			ASSERT_EQ(0, read_back(self, n));
			/* stopped part-way: no completion (one that ran whole may have posted it) */
			if (reset || n[1] < big)
				EXPECT_EQ(0, phase);
			EXPECT_EQ(0, n[2])
				TH_LOG("the WRITE read its source after the %s",
				       reset ? "reset" : "disable");
			/* The tensor was zero (a fresh graph) before the WRITE. */
			EXPECT_EQ(big, n[0] + n[1]);
			if (reset)
				EXPECT_EQ(big, n[0]);
			if (reset)
				TH_LOG("READY %.1f ms after the reset under a %"
				       PRIu64 " MiB WRITE", us / 1000.0,
				       big >> 20);
			else
				TH_LOG("ENABLED 0 %.1f ms after the disable under a %"
				       PRIu64 " MiB WRITE (%.1f MiB written by then)",
				       us / 1000.0, big >> 20,
				       n[1] / 1048576.0);
			/* For the next WRITE: a fresh graph again. */
			if (!reset)
				ASSERT_EQ(0, dreset(self, true));
			if (reset || n[1] < big || attempt == STOP_ATTEMPTS)
				break;
		}
		if (!reset)
			EXPECT_GT(big, n[1]) TH_LOG("the whole WRITE was done first, %d times",
						    STOP_ATTEMPTS);
	}
	free(snap);
}

TEST_HARNESS_MAIN
