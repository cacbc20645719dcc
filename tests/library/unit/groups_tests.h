// SPDX-License-Identifier: MIT
/*
 * Host tests of the IPU-Link objects (libipudev/links.c, grouping.c,
 * topology.c, group.c): the multi-IPU device ids of topologies given as
 * data (topo_data.h), links going down, and the sysfs reader on trees
 * written by the test. Included by unit.c (one harness test list).
 */
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topo_data.h"

/* "id={m,m} ..." of every device id of @topo, into @buf. */
static const char *groups_str(const struct ipu_topology *topo, char *buf,
			      size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < ipu_topology_num_groups(topo); i++) {
		const struct ipu_group_info *gi = ipu_topology_group(topo, i);

		len += (size_t)snprintf(buf + len, size - len, "%s%u={", i ? " " : "",
					ipu_group_info_id(gi));
		for (unsigned k = 0; k < ipu_group_info_size(gi) && len < size; k++)
			len += (size_t)snprintf(buf + len, size - len, "%s%d",
						k ? "," : "",
						ipu_group_info_member(gi, k));
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "}");
		if (len >= size)
			break;
	}
	return buf;
}

/* Whether @topo has device @id made of device indices first..first+size-1. */
static bool has_group(const struct ipu_topology *topo, unsigned id,
		      unsigned first, unsigned size)
{
	const struct ipu_group_info *gi = ipu_topology_find_group(topo, id);

	if (!gi || ipu_group_info_size(gi) != size)
		return false;
	for (unsigned k = 0; k < size; k++)
		if (ipu_group_info_member(gi, k) != (int)(first + k) ||
		    ipu_group_info_card(gi, k) != (int)(first + k))
			return false;
	return true;
}

/* The 31 ids of 16 linked cards, all present: 16-23, 24-27, 28-29, 30. */
static bool pod16_complete_but(const struct ipu_topology *topo,
			       unsigned missing)
{
	unsigned id = 16;

	for (unsigned i = 0; i < 16; i++)
		if (!has_group(topo, i, i, 1))
			return false;
	for (unsigned s = 2; s <= 16; s *= 2)
		for (unsigned first = 0; first < 16; first += s, id++)
			if (id != missing && !has_group(topo, id, first, s))
				return false;
	return id == 31;
}

TEST(groups_m2000)
{
	struct td t;
	struct ipu_topology *topo;
	char s[512];

	td_init(&t, 4);
	td_ladder(&t, false);
	topo = td_topology(&t);
	groups_str(topo, s, sizeof(s));
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={3} 4={0,1} 5={2,3} 6={0,1,2,3}", s);
	EXPECT_EQ(4u, ipu_topology_num_cards(topo));
	EXPECT_EQ(7u, ipu_topology_num_ids(topo));
	EXPECT_EQ(0, ipu_topology_check_group(topo, 6, NULL));
	EXPECT_EQ(-ENODEV, ipu_topology_check_group(topo, 7, NULL));
	EXPECT_TRUE(ipu_topology_find_group(topo, 7) == NULL);
	ipu_topology_free(topo);
	td_free(&t);
}

TEST(groups_pod16)
{
	struct td t;
	struct ipu_topology *topo;

	td_init(&t, 16);
	td_ladder(&t, true);
	topo = td_topology(&t);
	EXPECT_EQ(31u, ipu_topology_num_groups(topo));
	EXPECT_EQ(31u, ipu_topology_num_ids(topo));
	EXPECT_TRUE(pod16_complete_but(topo, ~0u));
	EXPECT_TRUE(has_group(topo, 16, 0, 2) && has_group(topo, 23, 14, 2) &&
		    has_group(topo, 24, 0, 4) && has_group(topo, 27, 12, 4) &&
		    has_group(topo, 28, 0, 8) && has_group(topo, 29, 8, 8) &&
		    has_group(topo, 30, 0, 16));
	ipu_topology_free(topo);
	td_free(&t);
}

TEST(groups_unlinked_cards)
{
	struct td t;
	struct ipu_topology *topo;
	char s[256];

	td_init(&t, 4);		/* ports, but nothing wired */
	topo = td_topology(&t);
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={3}", groups_str(topo, s, sizeof(s)));
	ipu_topology_free(topo);
	td_free(&t);

	/* cards with no link information at all (a driver without links) */
	memset(&t, 0, sizeof(t));
	t.n = 2;
	t.c[0] = ipu__links_new(0, "A", 0);
	t.c[1] = ipu__links_new(1, "B", 0);
	topo = td_topology(&t);
	EXPECT_STREQ("0={0} 1={1}", groups_str(topo, s, sizeof(s)));
	ipu_topology_free(topo);
	td_free(&t);
}

/* A rung (both its links) down removes the pair; the rails keep the four. */
TEST(groups_m2000_rung_down)
{
	struct td t;
	struct ipu_topology *topo;
	char s[256];

	td_init(&t, 4);
	td_ladder(&t, false);
	td_set(&t, 0, 0, IPU_LINK_DOWN);
	topo = td_topology(&t);		/* one of the rung's two links: still linked */
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={3} 4={0,1} 5={2,3} 6={0,1,2,3}",
		     groups_str(topo, s, sizeof(s)));
	ipu_topology_free(topo);

	td_set(&t, 1, 1, IPU_LINK_FAILED);
	topo = td_topology(&t);
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={3} 5={2,3} 6={0,1,2,3}",
		     groups_str(topo, s, sizeof(s)));
	ipu_topology_free(topo);

	td_set(&t, 0, 0, IPU_LINK_UP);	/* trained again */
	topo = td_topology(&t);
	EXPECT_TRUE(has_group(topo, 4, 0, 2));
	ipu_topology_free(topo);
	td_free(&t);
}

/* The rails down remove the four but not the pairs. */
TEST(groups_m2000_rails_down)
{
	struct td t;
	struct ipu_topology *topo;
	char s[256];

	td_init(&t, 4);
	td_ladder(&t, false);
	td_set(&t, 0, 2, IPU_LINK_DOWN);
	topo = td_topology(&t);		/* 0-1-3-2 still connected */
	EXPECT_TRUE(has_group(topo, 6, 0, 4));
	ipu_topology_free(topo);
	td_set(&t, 1, 2, IPU_LINK_TRAINING);
	topo = td_topology(&t);
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={3} 4={0,1} 5={2,3}",
		     groups_str(topo, s, sizeof(s)));
	ipu_topology_free(topo);
	td_free(&t);
}

TEST(groups_pod16_rung_down)
{
	struct td t;
	struct ipu_topology *topo;

	td_init(&t, 16);
	td_ladder(&t, true);
	td_set(&t, 4, 0, IPU_LINK_DOWN);
	td_set(&t, 4, 1, IPU_LINK_DOWN);
	topo = td_topology(&t);
	/* pair {4,5} is id 18; the four {4..7} stays (rails 4-6, 5-7, rung 6-7) */
	EXPECT_EQ(30u, ipu_topology_num_groups(topo));
	EXPECT_TRUE(ipu_topology_find_group(topo, 18) == NULL);
	EXPECT_TRUE(pod16_complete_but(topo, 18));
	EXPECT_EQ(31u, ipu_topology_num_ids(topo));	/* ids keep their place */
	ipu_topology_free(topo);
	td_free(&t);
}

/* IPU 1 cut off inside its blocks: rung 0-1 and rail 1-3 down. It keeps
 * only the closing link 1-15, so every block of it but the 16 goes. */
TEST(groups_pod16_card_cut_off)
{
	struct td t;
	struct ipu_topology *topo;

	td_init(&t, 16);
	td_ladder(&t, true);
	td_set(&t, 0, 0, IPU_LINK_DOWN);
	td_set(&t, 0, 1, IPU_LINK_DOWN);
	td_set(&t, 1, 2, IPU_LINK_DOWN);
	topo = td_topology(&t);
	EXPECT_TRUE(ipu_topology_find_group(topo, 16) == NULL);	/* {0,1} */
	EXPECT_TRUE(ipu_topology_find_group(topo, 24) == NULL);	/* {0..3} */
	EXPECT_TRUE(ipu_topology_find_group(topo, 28) == NULL);	/* {0..7} */
	EXPECT_TRUE(has_group(topo, 30, 0, 16));
	EXPECT_TRUE(has_group(topo, 17, 2, 2) && has_group(topo, 25, 4, 4) &&
		    has_group(topo, 29, 8, 8));
	EXPECT_EQ(28u, ipu_topology_num_groups(topo));
	ipu_topology_free(topo);

	/* without the closing link the 16 goes too */
	td_set(&t, 1, 3, IPU_LINK_DOWN);
	topo = td_topology(&t);
	EXPECT_TRUE(ipu_topology_find_group(topo, 30) == NULL);
	EXPECT_EQ(27u, ipu_topology_num_groups(topo));
	ipu_topology_free(topo);
	td_free(&t);
}

TEST(groups_ring_of_3)
{
	struct td t;
	struct ipu_topology *topo;
	char s[256];

	td_init(&t, 3);
	td_ring(&t);
	topo = td_topology(&t);
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={0,1}", groups_str(topo, s, sizeof(s)));
	ipu_topology_free(topo);
	/* 0-1 down: 0 and 1 are still joined through 2, but not inside {0,1} */
	td_set(&t, 0, 0, IPU_LINK_DOWN);
	topo = td_topology(&t);
	EXPECT_STREQ("0={0} 1={1} 2={2}", groups_str(topo, s, sizeof(s)));
	ipu_topology_free(topo);
	td_free(&t);
}

/* A link counts only when both ends are up and name each other. */
TEST(groups_link_ends_must_agree)
{
	struct td t;
	struct ipu_topology *topo;

	td_init(&t, 2);
	td_wire(&t, 0, 0, 1, 0, IPU_LINK_UP);
	t.c[1]->ports[0].state = IPU_LINK_TRAINING;	/* only one end up */
	topo = td_topology(&t);
	EXPECT_TRUE(ipu_topology_find_group(topo, 2) == NULL);
	ipu_topology_free(topo);

	td_wire(&t, 0, 0, 1, 0, IPU_LINK_UP);
	t.c[1]->ports[0].peer_port = 5;			/* names another port */
	topo = td_topology(&t);
	EXPECT_TRUE(ipu_topology_find_group(topo, 2) == NULL);
	ipu_topology_free(topo);

	td_wire(&t, 0, 0, 1, 0, IPU_LINK_UP);
	strcpy(t.c[1]->ports[0].peer_serial, "IPU-SN-0009");	/* another card */
	topo = td_topology(&t);
	EXPECT_TRUE(ipu_topology_find_group(topo, 2) == NULL);
	ipu_topology_free(topo);

	td_wire(&t, 0, 0, 1, 0, IPU_LINK_UP);
	t.c[0]->ports[0].peer_port = 99;		/* beyond the peer's ports */
	topo = td_topology(&t);
	EXPECT_TRUE(ipu_topology_find_group(topo, 2) == NULL);
	ipu_topology_free(topo);

	td_wire(&t, 0, 0, 1, 0, IPU_LINK_UP);
	topo = td_topology(&t);
	EXPECT_TRUE(has_group(topo, 2, 0, 2));
	EXPECT_EQ(1, ipu_topology_card_by_serial(topo, "IPU-SN-0001"));
	EXPECT_EQ(-ENOENT, ipu_topology_card_by_serial(topo, "IPU-SN-0009"));
	EXPECT_EQ(-ENOENT, ipu_topology_card_by_serial(topo, ""));
	EXPECT_EQ(-EINVAL, ipu_topology_card_by_serial(topo, NULL));
	ipu_topology_free(topo);
	td_free(&t);
}

/* Ids of 5, 6 and 3 cards; the block an id names. */
TEST(groups_numbering_odd_counts)
{
	unsigned first = 99, size = 99;
	struct td t;
	struct ipu_topology *topo;
	char s[256];

	td_init(&t, 6);
	td_ladder(&t, false);
	topo = td_topology(&t);	/* pairs 6, 7, 8; the four {0..3} is 9 */
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={3} 4={4} 5={5} 6={0,1} 7={2,3} 8={4,5} 9={0,1,2,3}",
		     groups_str(topo, s, sizeof(s)));
	ipu_topology_free(topo);
	td_free(&t);

	EXPECT_TRUE(ipu__block_of(4, 6, &first, &size) && first == 0 && size == 4);
	EXPECT_TRUE(ipu__block_of(16, 27, &first, &size) && first == 12 && size == 4);
	EXPECT_TRUE(ipu__block_of(16, 29, &first, &size) && first == 8 && size == 8);
	EXPECT_TRUE(ipu__block_of(5, 7, &first, &size) && first == 0 && size == 4);
	EXPECT_FALSE(ipu__block_of(4, 3, &first, &size));
	EXPECT_FALSE(ipu__block_of(4, 7, &first, &size));
	EXPECT_FALSE(ipu__block_of(1, 1, &first, &size));
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

FIXTURE(sysfs) {
	char root[64];
	struct td t;
};

FIXTURE_SETUP(sysfs)
{
	strcpy(self->root, "/tmp/ipudev-links-XXXXXX");
	ASSERT_TRUE(mkdtemp(self->root) != NULL);
	td_init(&self->t, 4);
	td_ladder(&self->t, false);
}

FIXTURE_TEARDOWN(sysfs)
{
	td_free(&self->t);
	nftw(self->root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Write @t, read it back: the same ports and the same ids. */
TEST_F(sysfs, round_trip)
{
	struct ipu_topology *topo;
	const struct ipu_link_info *li;
	struct ipu_error e;
	char s[256];

	self->t.c[2]->ports[3].errors_uncorr = 7;
	td_set(&self->t, 0, 1, IPU_LINK_FAILED);
	self->t.c[3]->fabric_index = -1;
	ASSERT_EQ(0, td_write_tree(&self->t, self->root, true));
	ASSERT_EQ(0, ipu__topology_read_dir(self->root, 0, &topo, &e)) TH_LOG("%s", e.msg);
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={3} 4={0,1} 5={2,3} 6={0,1,2,3}",
		     groups_str(topo, s, sizeof(s)));
	EXPECT_EQ(TD_PORTS, ipu_links_num_ports(ipu_topology_card_links(topo, 0)));
	for (unsigned i = 0; i < 4; i++) {
		const struct ipu_links *l = ipu_topology_card_links(topo, i);

		EXPECT_STREQ(self->t.c[i]->serial, ipu_links_serial(l));
		EXPECT_EQ(self->t.c[i]->fabric_index, ipu_links_fabric_index(l));
		EXPECT_EQ(i, ipu_links_card(l));
		for (unsigned p = 0; p < TD_PORTS; p++) {
			EXPECT_EQ(0, memcmp(&self->t.c[i]->ports[p],
					    ipu_links_port(l, p), sizeof(*li))) {
				TH_LOG("ipu%u port %u differs", i, p);
			}
		}
	}
	li = ipu_links_port(ipu_topology_card_links(topo, 2), 3);
	EXPECT_EQ(IPU_LINK_UP, ipu_link_info_state(li));
	EXPECT_STREQ("IPU-SN-0000", ipu_link_info_peer_serial(li));
	EXPECT_EQ(2, ipu_link_info_peer_port(li));
	EXPECT_EQ(3u, ipu_link_info_port(li));
	EXPECT_EQ(4u, ipu_link_info_generation(li));
	EXPECT_EQ(8u, ipu_link_info_lanes(li));
	EXPECT_EQ(202u, ipu_link_info_fom(li));
	EXPECT_EQ(203u, ipu_link_info_errors_corr(li));
	EXPECT_EQ(7u, ipu_link_info_errors_uncorr(li));
	li = ipu_links_port(ipu_topology_card_links(topo, 1), 1);
	EXPECT_EQ(IPU_LINK_FAILED, ipu_link_info_state(li));
	EXPECT_EQ(0u, ipu_link_info_lanes(li));
	li = ipu_links_port(ipu_topology_card_links(topo, 0), 9);
	EXPECT_STREQ("", ipu_link_info_peer_serial(li));
	EXPECT_EQ(-1, ipu_link_info_peer_port(li));
	EXPECT_TRUE(ipu_links_port(ipu_topology_card_links(topo, 0), TD_PORTS) == NULL);
	ipu_topology_free(topo);
}

/* A driver without IPU-Links: singles only, and the reader says so. */
TEST_F(sysfs, no_link_information)
{
	struct ipu_topology *topo;
	struct ipu_links *l = (void *)1;
	struct ipu_error e;
	char s[256];

	ASSERT_EQ(0, td_write_tree(&self->t, self->root, false));
	ASSERT_EQ(0, ipu__topology_read_dir(self->root, 0, &topo, &e)) TH_LOG("%s", e.msg);
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={3}", groups_str(topo, s, sizeof(s)));
	EXPECT_EQ(0u, ipu_links_num_ports(ipu_topology_card_links(topo, 3)));
	ipu_topology_free(topo);
	EXPECT_EQ(-EOPNOTSUPP, ipu__links_read_dir(self->root, 1, false, &l, &e));
	EXPECT_TRUE(l == NULL);
	EXPECT_TRUE(strstr(e.msg, "ipu1: no IPU-Link information") != NULL) TH_LOG("%s", e.msg);
	EXPECT_EQ(-ENODEV, ipu__links_read_dir(self->root, 7, false, &l, &e));
	EXPECT_TRUE(strstr(e.msg, "ipu7: no such IPU") != NULL) TH_LOG("%s", e.msg);
}

/* Card ids with a gap (ipu0, ipu2, ipu5): device order is their order. */
TEST_F(sysfs, device_order)
{
	struct ipu_topology *topo;
	struct ipu_error e;

	self->t.c[1]->card = 2;
	self->t.c[2]->card = 5;
	self->t.c[3]->card = 11;
	ASSERT_EQ(0, td_write_tree(&self->t, self->root, true));
	ASSERT_EQ(0, mkdir(strcat(strcpy((char[128]){0}, self->root), "/ipux"), 0755));
	ASSERT_EQ(0, ipu__topology_read_dir(self->root, 0, &topo, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(4u, ipu_topology_num_cards(topo));
	EXPECT_EQ(11u, ipu_links_card(ipu_topology_card_links(topo, 3)));
	EXPECT_EQ(5, ipu_group_info_card(ipu_topology_find_group(topo, 5), 0));
	EXPECT_EQ(2, ipu_group_info_member(ipu_topology_find_group(topo, 5), 0));
	EXPECT_EQ(2, ipu_group_info_card(ipu_topology_find_group(topo, 4), 1));
	EXPECT_EQ(0, ipu_group_info_member(ipu_topology_find_group(topo, 6), 0));
	EXPECT_EQ(11, ipu_group_info_card(ipu_topology_find_group(topo, 6), 3));
	EXPECT_EQ(-EINVAL, ipu_group_info_card(ipu_topology_find_group(topo, 6), 4));
	ipu_topology_free(topo);
}

/* A malformed file is -EPROTO naming it; nothing is handed out. */
static void expect_bad(struct __test_metadata *_metadata, const char *root,
		       const char *file, const char *value, const char *what)
{
	char dir[256], name[64];
	struct ipu_topology *topo = (void *)1;
	struct ipu_error e;
	const char *slash = strrchr(file, '/');

	snprintf(dir, sizeof(dir), "%s/%.*s", root, (int)(slash - file), file);
	snprintf(name, sizeof(name), "%s", slash + 1);
	if (value) {
		ASSERT_EQ(0, td_put(dir, name, value));
	} else {
		ASSERT_EQ(0, unlink(strcat(strcat(strcpy((char[320]){0}, dir), "/"), name)));
	}
	EXPECT_EQ(-EPROTO, ipu__topology_read_dir(root, 0, &topo, &e)) TH_LOG("%s", what);
	EXPECT_TRUE(topo == NULL);
	EXPECT_TRUE(strstr(e.msg, file) != NULL) TH_LOG("%s: %s", what, e.msg);
}

TEST_F(sysfs, malformed_files)
{
	static const struct { const char *file, *value, *good; } bad[] = {
		{ "ipu1/links/port0/state", "upp", "up" },
		{ "ipu1/links/port0/state", "", "up" },
		{ "ipu1/links/port0/peer", "IPU-SN-0000", "IPU-SN-0000:0" },
		{ "ipu1/links/port0/peer", ":3", "IPU-SN-0000:0" },
		{ "ipu1/links/port0/peer", "IPU-SN-0000:-1", "IPU-SN-0000:0" },
		{ "ipu1/links/port0/peer", "IPU-SN-0000:x", "IPU-SN-0000:0" },
		{ "ipu1/links/port0/generation", "-4", "4" },
		{ "ipu1/links/port0/lanes", "8x", "8" },
		{ "ipu1/links/port0/fom", "256", "200" },
		{ "ipu1/links/port0/errors", "3", "0 0" },
		{ "ipu1/links/port0/errors", "3 -1", "0 0" },
		{ "ipu1/links/port0/errors", "3 4 5", "0 0" },
		{ "ipu2/fabric_index", "-2", "2" },
		{ "ipu2/fabric_index", "two", "2" },
		{ "ipu1/links/port4/lanes", NULL, "0" },
		{ "ipu3/serial", NULL, "IPU-SN-0003" },
	};
	char what[128];

	ASSERT_EQ(0, td_write_tree(&self->t, self->root, true));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char dir[256];
		const char *slash = strrchr(bad[i].file, '/');

		snprintf(what, sizeof(what), "%s = '%s'", bad[i].file,
			 bad[i].value ? bad[i].value : "(missing)");
		expect_bad(_metadata, self->root, bad[i].file, bad[i].value, what);
		snprintf(dir, sizeof(dir), "%s/%.*s", self->root,
			 (int)(slash - bad[i].file), bad[i].file);
		ASSERT_EQ(0, td_put(dir, slash + 1, bad[i].good));
	}
}

TEST_F(sysfs, no_cards)
{
	struct ipu_topology *topo = (void *)1;
	struct ipu_error e;
	char missing[96];

	EXPECT_EQ(-ENODEV, ipu__topology_read_dir(self->root, 0, &topo, &e));
	EXPECT_TRUE(topo == NULL);
	EXPECT_TRUE(strstr(e.msg, "no card is bound") != NULL) TH_LOG("%s", e.msg);
	snprintf(missing, sizeof(missing), "%s/none", self->root);
	EXPECT_EQ(-ENODEV, ipu__topology_read_dir(missing, 0, &topo, &e));
	EXPECT_TRUE(strstr(e.msg, "not loaded") != NULL) TH_LOG("%s", e.msg);
	EXPECT_EQ(-EINVAL, ipu__topology_read_dir(self->root, 1, &topo, &e));
	EXPECT_TRUE(strstr(e.msg, "unknown flags 0x1") != NULL) TH_LOG("%s", e.msg);
	EXPECT_EQ(-EINVAL, ipu_topology_read(0, NULL, &e));
}

/* Opening an id that is no device says why; a linked one opens its members
 * (here they are absent: no driver on the host), all or none. */
TEST(groups_open_refusals)
{
	struct td t;
	struct ipu_topology *topo;
	struct ipu_group *g = (void *)1;
	struct ipu_error e;
	int r;

	td_init(&t, 4);
	td_ladder(&t, false);
	td_set(&t, 2, 0, IPU_LINK_DOWN);
	td_set(&t, 2, 1, IPU_LINK_DOWN);
	topo = td_topology(&t);
	EXPECT_EQ(-ENODEV, ipu__group_open_in(topo, 5, 0, &g, &e));
	EXPECT_TRUE(g == NULL);
	EXPECT_TRUE(strstr(e.msg, "device 5 (ipu2, ipu3) is not linked") != NULL) TH_LOG("%s", e.msg);
	EXPECT_EQ(-ENODEV, ipu__group_open_in(topo, 7, 0, &g, &e));
	EXPECT_TRUE(strstr(e.msg, "no device 7 (this machine numbers 0-6)") != NULL) TH_LOG("%s", e.msg);
	if (!driver_present()) {
		r = ipu__group_open_in(topo, 6, IPU_OPEN_READONLY, &g, &e);
		EXPECT_EQ(-ENODEV, r);
		EXPECT_TRUE(g == NULL);
		EXPECT_TRUE(strstr(e.msg, "open ipu0") != NULL) TH_LOG("%s", e.msg);
	}
	ipu_topology_free(topo);
	td_free(&t);

	EXPECT_EQ(-EINVAL, ipu_group_open(4, 0x80, &g, &e));
	EXPECT_TRUE(strstr(e.msg, "unknown flags 0x80") != NULL) TH_LOG("%s", e.msg);
	EXPECT_EQ(-EINVAL, ipu_group_open(4, 0, NULL, &e));
	ipu_group_close(NULL);
	EXPECT_EQ(0u, ipu_group_size(NULL));
	EXPECT_TRUE(ipu_group_member(NULL, 0) == NULL);
}

TEST(links_names_and_null_getters)
{
	EXPECT_STREQ("down", ipu_link_state_name(IPU_LINK_DOWN));
	EXPECT_STREQ("training", ipu_link_state_name(IPU_LINK_TRAINING));
	EXPECT_STREQ("up", ipu_link_state_name(IPU_LINK_UP));
	EXPECT_STREQ("failed", ipu_link_state_name(IPU_LINK_FAILED));
	EXPECT_STREQ("unknown", ipu_link_state_name(7));
	EXPECT_STREQ("unknown", ipu_link_state_name(IPU_LINK_UNKNOWN));
	EXPECT_EQ(IPU_LINK_UP, ipu_link_state_from_name("up\n"));
	EXPECT_EQ(IPU_LINK_TRAINING, ipu_link_state_from_name("training"));
	EXPECT_EQ(IPU_LINK_UNKNOWN, ipu_link_state_from_name("u"));
	EXPECT_EQ(IPU_LINK_UNKNOWN, ipu_link_state_from_name(NULL));
	EXPECT_EQ(-1, ipu_links_fabric_index(NULL));
	EXPECT_EQ(0u, ipu_links_num_ports(NULL));
	EXPECT_TRUE(ipu_links_port(NULL, 0) == NULL);
	EXPECT_EQ(IPU_LINK_UNKNOWN, ipu_link_info_state(NULL));
	EXPECT_EQ(0u, ipu_topology_num_groups(NULL));
	EXPECT_EQ(0u, ipu_topology_num_ids(NULL));
	EXPECT_EQ(-EINVAL, ipu_topology_check_group(NULL, 0, NULL));
	EXPECT_TRUE(ipu_topology_group(NULL, 0) == NULL);
	EXPECT_TRUE(ipu_topology_find_group(NULL, 0) == NULL);
	EXPECT_EQ(-EINVAL, ipu_group_info_member(NULL, 0));
	ipu_links_free(NULL);
	ipu_topology_free(NULL);
	EXPECT_EQ(-EINVAL, ipu_links_read(0, NULL, NULL));
	if (!driver_present()) {
		struct ipu_links *l = (void *)1;
		struct ipu_error e;

		EXPECT_EQ(-ENODEV, ipu_links_read(0, &l, &e));
		EXPECT_TRUE(l == NULL);
		EXPECT_TRUE(strstr(e.msg, "not loaded") != NULL) TH_LOG("%s", e.msg);
	}
}

/*
 * ipu_model_topology(): the model device of 4 IPUs on m2000 numbers its
 * IPUs as 4 linked cards (pairs 4, 5, all four 6), its ports name their
 * peers as the fabric wires them, and a rung taken down removes that pair
 * only; a model of one IPU is one single; NULL arguments are refused.
 */
TEST(model_topology)
{
	struct ipu_topology *t = NULL;
	struct ipu_device *dev = NULL;
	const struct ipu_links *l;
	const struct ipu_link_info *li;
	struct ipu_error e;
	char buf[256];

	ASSERT_EQ(0, ipu_model_open_multi("test", 4, "m2000", 1, &dev, &e));
	ASSERT_EQ(0, ipu_model_topology(dev, &t, &e));
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={3} 4={0,1} 5={2,3} 6={0,1,2,3}",
		     groups_str(t, buf, sizeof(buf)));
	l = ipu_topology_card_links(t, 2);
	ASSERT_NE(NULL, l);
	EXPECT_STREQ("model-test-x4.2", ipu_links_serial(l));
	EXPECT_EQ(2, ipu_links_fabric_index(l));
	li = ipu_links_port(l, 3);	/* rail up: member 0, its port 2 */
	ASSERT_NE(NULL, li);
	EXPECT_STREQ("model-test-x4.0", ipu_link_info_peer_serial(li));
	EXPECT_EQ(2, ipu_link_info_peer_port(li));
	EXPECT_EQ(IPU_LINK_UP, ipu_link_info_state(li));
	li = ipu_links_port(l, 2);	/* rail down: the ladder's end, not wired */
	ASSERT_NE(NULL, li);
	EXPECT_EQ(-1, ipu_link_info_peer_port(li));
	EXPECT_EQ(IPU_LINK_DOWN, ipu_link_info_state(li));
	ipu_topology_free(t);
	t = NULL;

	ASSERT_EQ(0, ipu__model_set_link(dev, 0, 0, 0, &e));
	ASSERT_EQ(0, ipu__model_set_link(dev, 0, 1, 0, &e));
	ASSERT_EQ(0, ipu_model_topology(dev, &t, &e));
	EXPECT_STREQ("0={0} 1={1} 2={2} 3={3} 5={2,3} 6={0,1,2,3}",
		     groups_str(t, buf, sizeof(buf)));
	ipu_topology_free(t);
	t = NULL;
	ipu_device_close(dev);

	ASSERT_EQ(0, ipu_model_open("test", 1, &dev, &e));
	ASSERT_EQ(0, ipu_model_topology(dev, &t, &e));
	EXPECT_EQ(1u, ipu_topology_num_cards(t));
	EXPECT_EQ(0u, ipu_links_num_ports(ipu_topology_card_links(t, 0)));
	EXPECT_STREQ("0={0}", groups_str(t, buf, sizeof(buf)));
	ipu_topology_free(t);
	EXPECT_EQ(-EINVAL, ipu_model_topology(dev, NULL, &e));
	ipu_device_close(dev);
	EXPECT_EQ(-EINVAL, ipu_model_topology(NULL, &t, &e));
	EXPECT_EQ(NULL, t);
	EXPECT_TRUE(strstr(e.msg, "not a model device") != NULL) TH_LOG("%s", e.msg);
}
