// SPDX-License-Identifier: MIT
/*
 * Host tests of the table of chip models (include/ipu/ipu_models.h): its
 * lookups, and that the library's views of each model (names, the graph
 * builder, the model device) and the tools' board type are the table's.
 * The card's view is checked in the VM (tests/driver/ipu_info_test.c,
 * ipu_device_test.c). Included by unit.c (one harness test list).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ipu/ipu_models.h"

TEST(models_lookup)
{
	const struct ipu_model *m, *o;
	char up[16], names[64];
	size_t i, j, n = 0;
	int ok = 1;

	for (i = 0; (m = ipu_model_at(i)); i++, n++) {
		for (j = 0; j < i; j++) {
			o = ipu_model_at(j);
			ok &= o->id != m->id && strcmp(o->name, m->name);
		}
		for (j = 0; m->name[j] && j + 1 < sizeof(up); j++)
			up[j] = m->name[j] >= 'a' && m->name[j] <= 'z' ?
				m->name[j] - 'a' + 'A' : m->name[j];
		up[j] = '\0';
		ok &= ipu_model_by_id(m->id) == m && ipu_model_by_name(m->name) == m &&
		      ipu_model_by_name(up) == m && m->tiles && m->tile_mem &&
		      m->clock_khz && m->threads == IPU_WORKER_THREADS &&
		      m->pcie_gen >= 3 && m->pcie_width;
		if (!ok) {
			EXPECT_TRUE(0) TH_LOG("%s: " "row %zu (%s)", "models: ids and names unique, lookups find each row", i, m->name);
			return;
		}
	}
	EXPECT_TRUE(n == 3) TH_LOG("%s: " "%zu rows", "models: ids and names unique, lookups find each row", n);
	EXPECT_TRUE(!ipu_model_by_id(0) && !ipu_model_by_id(77) && !ipu_model_by_name(NULL) && !ipu_model_by_name("gc20") && !ipu_model_by_name("gc2000") && !ipu_model_by_name("")) TH_LOG("%s", "models: unknown ids and names are NULL");
	EXPECT_TRUE(!strcmp(ipu_model_names(names, sizeof(names)), "gc2, gc200, test") && !strcmp(ipu_model_names(names, 6), "gc2, ") && !strcmp(ipu_model_names(names, 1), "")) TH_LOG("%s: " "'%s'", "models: the list of names, truncated to fit", names);
	/* the published figures (docs/hw-interface.md) */
	m = ipu_model_by_id(IPU_MODEL_GC200);
	o = ipu_model_by_id(IPU_MODEL_GC2);
	EXPECT_TRUE(m && m->tiles == 1472 && m->tile_mem == 624 * 1024 && m->clock_khz == 1330000 && m->link_ports == 10 && m->pcie_gen == 4 && m->pcie_width == 16 && o && o->tiles == 1216 && o->tile_mem == 256 * 1024 && o->clock_khz == 1300000 && o->pcie_gen == 3 && o->pcie_width == 8) TH_LOG("%s", "models: GC200 and GC2 carry the published figures");
}

/* The library's names, a graph and a model device of each model. */
TEST(models_views)
{
	const struct ipu_model *m;
	struct ipu_device_info info;
	struct ipu_device *d = NULL;
	struct ipu_graph *g;
	struct ipu_error e;
	uint32_t id;
	size_t i;

	for (i = 0; (m = ipu_model_at(i)); i++) {
		char name[96];
		int ok;

		snprintf(name, sizeof(name), "models: the library's names of %s are the table's",
			 m->name);
		EXPECT_TRUE(!strcmp(ipu_model_name(m->id), m->name) && !strcmp(ipu_model_arch(m->id), m->arch) && !ipu_model_from_name(m->name, &id) && id == m->id) TH_LOG("%s", name);

		snprintf(name, sizeof(name), "models: a %s graph has the table's tiles and memory",
			 m->name);
		ok = !ipu_graph_create(m->id, &g, &e);
		EXPECT_TRUE(ok && ipu_graph_tiles(g) == m->tiles && ipu_graph_tile_memory(g) == m->tile_mem) TH_LOG("%s: " "%s", name, ok ? "figures differ" : e.msg);
		if (ok)
			ipu_graph_free(g);

		snprintf(name, sizeof(name), "models: the %s model device reports the table's figures",
			 m->name);
		ok = !ipu_model_open(m->name, 1, &d, &e);
		if (ok)
			ok = !ipu_device_info(d, &info, &e);
		EXPECT_TRUE(ok && info.model == m->id && info.tiles == m->tiles && info.tile_memory == m->tile_mem && info.total_memory == (uint64_t)m->tiles * m->tile_mem && info.threads_per_tile == m->threads && info.clock_khz == m->clock_khz && info.link_ports == m->link_ports) TH_LOG("%s: " "%s", name, ok ? "figures differ" : e.msg);
		if (d)
			ipu_device_close(d);
		d = NULL;
	}
}

/* ipu-info's board type is the table's */
TEST(models_tools)
{
	const struct ipu_model *m;
	struct ipu_card c;
	char *out = NULL;
	size_t len = 0, i;
	int ok = 1;

	for (i = 0; (m = ipu_model_at(i)); i++) {
		FILE *f = open_memstream(&out, &len);
		char want[64];

		if (!f) {
			ok = 0;
			break;
		}
		memset(&c, 0, sizeof(c));
		c.model = m->id;
		print_card_detail(f, NULL, &c, NULL);
		fclose(f);
		snprintf(want, sizeof(want), "board type: %s PCIe card (emulated)\n", m->board);
		ok &= strstr(out, want) != NULL;
		free(out);
		out = NULL;
	}
	EXPECT_TRUE(ok) TH_LOG("%s", "models: ipu-info's board type is the table's");
}
