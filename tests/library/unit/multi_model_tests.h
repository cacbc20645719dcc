/* SPDX-License-Identifier: MIT */
/*
 * The model device of several IPUs (ipu_model_open_multi()): multi-IPU
 * graph binaries written with the engine tests' graph writer (the builder's
 * N-IPU side is not this file's), run on 2 and 4 engines joined by the
 * in-process fabric. Tensors spread over IPUs are read and written whole
 * through their handle; cross-IPU copies give the bytes and the documented
 * link cycles; a link down fails a run with -ENOLINK naming it; a binary
 * for another IPU count is refused at load. Included by unit.c.
 */
#include "../../engine/gw.h"
#include "codelets.h"

#define MM_T 32u	/* tiles per IPU of the test chip */

/*
 * n IPUs: x (f32, 4 per IPU, IPU k's elements on its tile 0) is one tensor
 * spread over all IPUs; the program copies IPU k's part to y on IPU k + 1
 * (mod n), then z = x + y on every IPU. Handles "x" (write) and "z" (read).
 */
static uint8_t *mm_graph(uint32_t n, uint32_t binary_ipus, size_t *len)
{
	struct gw *w = gw_new(IPU_MODEL_TEST);
	uint32_t tiles[16], offs[16], counts[16], shape = 4 * n, v[16], k2[2];
	struct ipu_graph_copy c[16];
	struct ipu_graph_field f[3];
	uint8_t *bin;

	gw_ipus(w, binary_ipus);
	for (uint32_t k = 0; k < n; k++) {
		gw_plan(w, k * MM_T, 64);
		tiles[k] = k * MM_T;
		offs[k] = 0;
		counts[k] = 4;
		c[k] = (struct ipu_graph_copy){ .src_tile = k * MM_T, .dst_tile = (k + 1) % n * MM_T,
						.dst_offset = 16, .bytes = 16 };
		f[0] = (struct ipu_graph_field){ 0, 4, IPU_DTYPE_F32, { 0 } };
		f[1] = (struct ipu_graph_field){ 16, 4, IPU_DTYPE_F32, { 0 } };
		f[2] = (struct ipu_graph_field){ 32, 4, IPU_DTYPE_F32, { 0 } };
		v[k] = gw_vertex(w, IPUE_CODELET_BINARY(IPUE_BOP_ADD), k * MM_T, 3, f, 0, NULL);
	}
	gw_handle(w, "x", gw_tensor(w, "x", IPU_DTYPE_F32, 1, &shape, n, tiles, offs, counts),
		  IPU_HANDLE_WRITE);
	for (uint32_t k = 0; k < n; k++)
		offs[k] = 32;
	gw_handle(w, "z", gw_tensor(w, "z", IPU_DTYPE_F32, 1, &shape, n, tiles, offs, counts),
		  IPU_HANDLE_READ);
	k2[0] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "ring", n, c), 0, 0);
	k2[1] = gw_node(w, IPU_PROG_EXECUTE, gw_cs(w, "add", n, v), 0, 0);
	gw_entry(w, "main", gw_seq(w, 2, k2));
	bin = gw_finish(w, len);
	gw_free(w);
	return bin;
}

/* write x = 0, 1, ... through the device, run, read z: z_i = x_i + x_(i - 4 mod 4n) */
static int mm_run(struct ipu_device *dev, uint32_t n, struct ipu_run_stats *st,
		  struct ipu_error *e, char *why, size_t wn)
{
	float x[64], z[64];
	int r;

	for (uint32_t i = 0; i < 4 * n; i++)
		x[i] = (float)i;
	memset(z, 0, sizeof(z));
	r = ipu_tensor_write(dev, "x", x, 16 * n, e);
	if (!r)
		r = ipu_run(dev, 0, 1, st, e);
	if (!r)
		r = ipu_tensor_read(dev, "z", z, 16 * n, e);
	for (uint32_t i = 0; !r && i < 4 * n; i++) {
		float want = x[i] + x[(i + 4 * n - 4) % (4 * n)];

		if (z[i] != want) {
			snprintf(why, wn, "z[%u] = %g, want %g", i, z[i], want);
			return -1;
		}
	}
	return r;
}

TEST(model_multi_open)
{
	struct ipu_device *dev = NULL;
	struct ipu_device_info info;
	struct ipu_error e;

	ASSERT_EQ(0, ipu_model_open_multi("test", 4, NULL, 1, &dev, &e));
	ASSERT_EQ(0, ipu_device_info(dev, &info, &e));
	EXPECT_TRUE(info.ipus == 4 && info.tiles == MM_T && !strcmp(info.backend, "model"))
		TH_LOG("ipus %u tiles %u backend %s", info.ipus, info.tiles, info.backend);
	ipu_device_close(dev);
	ASSERT_EQ(0, ipu_model_open("test", 1, &dev, &e));
	ASSERT_EQ(0, ipu_device_info(dev, &info, &e));
	EXPECT_EQ(1u, info.ipus);
	ipu_device_close(dev);
	EXPECT_EQ(-EINVAL, ipu_model_open_multi("test", 3, NULL, 1, &dev, &e));
	EXPECT_TRUE(strstr(e.msg, "1, 2, 4, 8 or 16") != NULL) TH_LOG("%s", e.msg);
	EXPECT_EQ(-EINVAL, ipu_model_open_multi("test", 2, "m2000", 1, &dev, &e));
	EXPECT_TRUE(strstr(e.msg, "m2000") != NULL) TH_LOG("%s", e.msg);
	EXPECT_EQ(-EINVAL, ipu_model_open_multi("test", 4, "torus", 1, &dev, &e));
	EXPECT_EQ(-EINVAL, ipu_model_open_multi("nope", 2, NULL, 1, &dev, &e));
	EXPECT_EQ(-EINVAL, ipu_model_open_multi("test", 2, NULL, 1, NULL, &e));
}

/*
 * 2 IPUs (a ring: two links) and the M2000 (4): every byte of the spread
 * tensors through one handle, and the documented exchange cycles: 30 + 16
 * / 4 on chip, one hop (400) and 16 bytes over 2 links (1) for 2 IPUs; on
 * the M2000 two hops (800) and the busiest hop direction 1 cycle.
 */
TEST(model_multi_run)
{
	static const struct { uint32_t n; uint64_t exchange; } cases[] = {
		{ 2, 30 + 4 + 400 + 1 }, { 4, 30 + 4 + 800 + 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ipu_device *dev = NULL;
		struct ipu_run_stats st;
		struct ipu_error e;
		char why[128] = "";
		size_t len;
		uint8_t *bin = mm_graph(cases[i].n, cases[i].n, &len);

		ASSERT_EQ(0, ipu_model_open_multi("test", cases[i].n, NULL, 1, &dev, &e));
		ASSERT_TRUE(ipu_load(dev, bin, len, &e) == 0) TH_LOG("%u IPUs: load: %s", cases[i].n, e.msg);
		ASSERT_TRUE(mm_run(dev, cases[i].n, &st, &e, why, sizeof(why)) == 0)
			TH_LOG("%u IPUs: %s %s", cases[i].n, why, e.msg);
		EXPECT_TRUE(st.cycles_exchange == cases[i].exchange && st.exchange_bytes == 16 * cases[i].n &&
			    st.cycles_sync == 1300 + 500)
			TH_LOG("%u IPUs: exchange %llu sync %llu", cases[i].n,
			       (unsigned long long)st.cycles_exchange, (unsigned long long)st.cycles_sync);
		ipu_device_close(dev);
		free(bin);
	}
}

/* a link taken down fails the next run with -ENOLINK naming it; back up, it runs */
TEST(model_multi_link_down)
{
	struct ipu_device *dev = NULL;
	struct ipu_run_stats st;
	struct ipu_error e;
	char why[128] = "";
	size_t len;
	uint8_t *bin = mm_graph(4, 4, &len);

	ASSERT_EQ(0, ipu_model_open_multi("test", 4, "m2000", 1, &dev, &e));
	ASSERT_EQ(0, ipu_load(dev, bin, len, &e));
	ASSERT_EQ(0, ipu__model_set_link(dev, 1, 2, 0, &e));	/* the rail 1 - 3 */
	EXPECT_EQ(-ENOLINK, mm_run(dev, 4, &st, &e, why, sizeof(why)));
	EXPECT_TRUE(strstr(e.msg, "IPU-Link down: IPU 1 port 2") || strstr(e.msg, "IPU 3 port 3"))
		TH_LOG("%s", e.msg);
	EXPECT_EQ(-EINVAL, ipu__model_set_link(dev, 2, 2, 0, &e));	/* the ladder's end: not wired */
	ASSERT_EQ(0, ipu__model_set_link(dev, 3, 3, 1, &e));
	EXPECT_TRUE(mm_run(dev, 4, &st, &e, why, sizeof(why)) == 0) TH_LOG("%s %s", why, e.msg);
	ipu_device_close(dev);
	free(bin);
}

/* a binary for another IPU count is refused; a single-IPU one runs on IPU 0 */
TEST(model_multi_other_binaries)
{
	struct ipu_device *dev = NULL;
	struct ipu_run_stats st;
	struct ipu_error e;
	char why[128] = "";
	size_t len;
	uint8_t *bin = mm_graph(2, 2, &len);

	ASSERT_EQ(0, ipu_model_open_multi("test", 4, NULL, 1, &dev, &e));
	free(bin);
	bin = mm_graph(4, 4, &len);
	ASSERT_EQ(0, ipu_load(dev, bin, len, &e));
	free(bin);
	bin = mm_graph(2, 2, &len);
	EXPECT_EQ(-EINVAL, ipu_load(dev, bin, len, &e));
	EXPECT_TRUE(strstr(e.msg, "graph for 2 IPUs") != NULL) TH_LOG("%s", e.msg);
	/* the 4-IPU graph is gone from every IPU: nothing to write to */
	EXPECT_EQ(-ENOENT, ipu_tensor_write(dev, "x", why, 16, &e));
	free(bin);
	bin = mm_graph(1, 1, &len);
	ASSERT_TRUE(ipu_load(dev, bin, len, &e) == 0) TH_LOG("%s", e.msg);
	EXPECT_TRUE(mm_run(dev, 1, &st, &e, why, sizeof(why)) == 0) TH_LOG("%s %s", why, e.msg);
	ipu_device_close(dev);
	free(bin);
}
