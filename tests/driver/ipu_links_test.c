// SPDX-License-Identifier: GPL-2.0
/*
 * ipu_links_test: IPU-Links through the driver (docs/uapi.md "Links", API
 * 1.5): links/portP in sysfs, fabric_index, IPU_IOCTL_LINKS and the link
 * uevents, against the wiring of docs/hw-interface.md "Topologies and
 * ports".
 *
 * Where it runs: in every VM (cards on no fabric: every port down and not
 * wired, fabric_index -1, the ioctl's argument checks), and in the VMs of
 * tests/driver/links/run.sh, whose cards form an M2000, and of
 * tests/common/fabric-vm.sh, a POD16 (IPU_VM_TOPOLOGY, tools/ipu-vm
 * --topology; the size is the number of cards): peers as wired, links
 * trained, retrained after a RESET. With the host serving QMP (IPU_QMP_DIR,
 * tests/common/qmp-serve.py) the fabric's own list of its links is compared
 * with sysfs and the ioctl, and the links are taken down, brought up and
 * given errors from QMP, and the uevents, sysfs and the ioctl must follow.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "kselftest_harness.h"
#include "ipu_host_qmp.h"
#include "ipu_test.h"

#define PAGE 4096
#define LINK_SIZE_V1 88		/* struct ipu_link of API 1.5 */
#define LINKS_SIZE_V1 48	/* struct ipu_link_list of API 1.5 */
#define SETTLE_MS 20000		/* bound of a wait for links to settle */

static const char *const state_names[] = { "down", "training", "up", "failed" };

/* One card as the tests see it. */
struct card {
	char name[IPU_TEST_NAME_MAX];	/* ipuN */
	char serial[IPU_SERIAL_MAX];
	int fidx;			/* fabric_index, -1: none */
	uint32_t ports;			/* GET_INFO link_ports */
	bool links;			/* CAPS.LINKS */
	int fd;
};

/* LINKS into @a (argsz and record_size set here); 0 or errno. */
static int links_call(int fd, struct ipu_link_list *a, uint32_t count,
		      void *recs, uint32_t record_size)
{
	a->argsz = sizeof(*a);
	a->count = count;
	a->record_size = record_size;
	a->links_ptr = (uintptr_t)recs;
	return ioctl(fd, IPU_IOCTL_LINKS, a) ? errno : 0;
}

/* links/portP/ATTR of card NAME without its newline; 0 or -errno. */
static int port_attr(const char *name, uint32_t port, const char *attr,
		     char *buf, size_t len)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "links/port%u/%s", port, attr);
	return ipu_sysfs_read(name, rel, buf, len);
}

static int state_code(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, state_names[i]))
			return i;
	return -1;
}

/*
 * The peer of member @i's port @p in topology @topo of @n members
 * (docs/hw-interface.md "Topologies and ports"): its index, and its port
 * in *@pport; -1 when the port is not wired.
 */
static int wired_peer(const char *topo, int n, int i, int p, int *pport)
{
	bool ladder = !strcmp(topo, "m2000") || !strcmp(topo, "pod16");
	bool closed = !strcmp(topo, "pod16");

	if (ladder && (p == IPU_PORT_RUNG0 || p == IPU_PORT_RUNG1)) {
		*pport = p;
		return i ^ 1;
	}
	if (ladder && p == IPU_PORT_RAIL_UP && (closed || i + 2 < n)) {
		*pport = IPU_PORT_RAIL_DOWN;
		return (i + 2) % n;
	}
	if (ladder && p == IPU_PORT_RAIL_DOWN && (closed || i - 2 >= 0)) {
		*pport = IPU_PORT_RAIL_UP;
		return (i - 2 + n) % n;
	}
	if (!strcmp(topo, "ring") && p == IPU_PORT_RING_NEXT) {
		*pport = IPU_PORT_RING_PREV;
		return (i + 1) % n;
	}
	if (!strcmp(topo, "ring") && p == IPU_PORT_RING_PREV) {
		*pport = IPU_PORT_RING_NEXT;
		return (i - 1 + n) % n;
	}
	return -1;
}

FIXTURE(links) {
	struct card cards[IPU_TEST_MAX_CARDS];
	int n;
	const char *topo;		/* IPU_VM_TOPOLOGY, NULL: no fabric */
	struct card *by_fidx[IPU_TEST_MAX_CARDS];
	unsigned char *map;		/* 3 pages: 2 read-write, then PROT_NONE */
};

FIXTURE_SETUP(links)
{
	char names[IPU_TEST_MAX_CARDS][IPU_TEST_NAME_MAX];
	const char *t = getenv("IPU_VM_TOPOLOGY");

	self->map = MAP_FAILED;
	self->topo = t && *t ? t : NULL;
	self->n = ipu_list_cards(names, IPU_TEST_MAX_CARDS);
	ASSERT_LT(0, self->n) TH_LOG("no IPU card");
	for (int i = 0; i < self->n; i++) {
		struct card *c = &self->cards[i];
		struct ipu_info info;
		char buf[32];

		memcpy(c->name, names[i], sizeof(c->name));
		c->fd = ipu_open_name(c->name, O_RDWR);
		ASSERT_LE(0, c->fd);
		ASSERT_EQ(0, ipu_get_info(c->fd, &info));
		c->ports = info.link_ports;
		c->links = info.capabilities & IPU_CAP_LINKS;
		snprintf(c->serial, sizeof(c->serial), "%s", info.serial);
		ASSERT_EQ(0, ipu_sysfs_read(c->name, "fabric_index", buf, sizeof(buf)));
		c->fidx = atoi(buf);
		ASSERT_TRUE(c->fidx >= -1 && c->fidx < IPU_TEST_MAX_CARDS);
		if (c->fidx >= 0) {
			ASSERT_EQ(NULL, self->by_fidx[c->fidx])
				TH_LOG("fabric index %d twice", c->fidx);
			self->by_fidx[c->fidx] = c;
		}
	}
	self->map = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->map);
	ASSERT_EQ(0, mprotect(self->map + 2 * PAGE, PAGE, PROT_NONE));
}

FIXTURE_TEARDOWN(links)
{
	for (int i = 0; i < self->n; i++)
		if (self->cards[i].fd >= 0)
			close(self->cards[i].fd);
	if (self->map != MAP_FAILED)
		munmap(self->map, 3 * PAGE);
}

/* The fabric's members must all be present: the VM has the whole system. */
#define NEED_FABRIC() do { \
	if (!self->topo) \
		SKIP(return, "no fabric (IPU_VM_TOPOLOGY unset)"); \
} while (0)

/* Card @c's port @p should be UP: wired to a card that is present. */
static bool should_be_up(FIXTURE_DATA(links) *self, struct card *c, int p)
{
	int pport, peer;

	if (!self->topo || c->fidx < 0)
		return false;
	peer = wired_peer(self->topo, self->n, c->fidx, p, &pport);
	return peer >= 0 && self->by_fidx[peer];
}

/* Waits until every port that should be up is; 0 or -1 (on timeout). */
static int wait_links_up(FIXTURE_DATA(links) *self)
{
	long long end = ipu_now_ms() + SETTLE_MS;

	for (;;) {
		bool all = true;

		for (int i = 0; i < self->n; i++) {
			struct card *c = &self->cards[i];

			for (uint32_t p = 0; c->links && p < c->ports; p++) {
				char st[32];

				if (!should_be_up(self, c, p))
					continue;
				if (port_attr(c->name, p, "state", st, sizeof(st)) ||
				    strcmp(st, "up"))
					all = false;
			}
		}
		if (all)
			return 0;
		if (ipu_now_ms() > end)
			return -1;
		usleep(20000);
	}
}

/* Every card shows links/port0..ports-1 (files 0444 that parse), no more. */
TEST_F(links, sysfs_layout)
{
	for (int i = 0; i < self->n; i++) {
		struct card *c = &self->cards[i];
		char path[128], buf[64];
		unsigned int a, b;
		struct stat st;
		DIR *d;

		snprintf(path, sizeof(path), "/sys/class/ipu/%s/links", c->name);
		if (!c->links) {
			EXPECT_NE(0, stat(path, &st)) TH_LOG("%s: links/ without CAPS.LINKS", c->name);
			EXPECT_EQ(-1, c->fidx);
			continue;
		}
		d = opendir(path);
		ASSERT_NE(NULL, d) TH_LOG("%s: no links/", c->name);
		{
			struct dirent *de;
			uint32_t n = 0;

			while ((de = readdir(d))) {
				if (de->d_name[0] == '.')
					continue;
				n++;
				ASSERT_EQ(1, sscanf(de->d_name, "port%u", &a)) TH_LOG("%s", de->d_name);
				EXPECT_LT(a, c->ports);
			}
			closedir(d);
			EXPECT_EQ(c->ports, n);
		}
		for (uint32_t p = 0; p < c->ports; p++) {
			static const char *const files[] = { "state", "peer", "generation",
							     "lanes", "fom", "errors" };

			for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
				snprintf(path, sizeof(path), "/sys/class/ipu/%s/links/port%u/%s",
					 c->name, p, files[f]);
				ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
				EXPECT_EQ(0444u, st.st_mode & 07777) TH_LOG("%s", path);
			}
			ASSERT_EQ(0, port_attr(c->name, p, "state", buf, sizeof(buf)));
			EXPECT_LE(0, state_code(buf)) TH_LOG("state '%s'", buf);
			ASSERT_EQ(0, port_attr(c->name, p, "peer", buf, sizeof(buf)));
			EXPECT_TRUE(!strcmp(buf, "none") || strchr(buf, ':')) TH_LOG("peer '%s'", buf);
			ASSERT_EQ(0, port_attr(c->name, p, "errors", buf, sizeof(buf)));
			EXPECT_EQ(2, sscanf(buf, "%u %u", &a, &b)) TH_LOG("errors '%s'", buf);
			ASSERT_EQ(0, port_attr(c->name, p, "fom", buf, sizeof(buf)));
			EXPECT_LE(strtoul(buf, NULL, 10), 255ul);
		}
		snprintf(path, sizeof(path), "/sys/class/ipu/%s/links/port%u", c->name, c->ports);
		EXPECT_NE(0, stat(path, &st));
	}
}

/* On a fabric: each port's peer as docs/hw-interface.md wires it, trained. */
TEST_F(links, peers_as_wired)
{
	NEED_FABRIC();
	ASSERT_EQ(0, wait_links_up(self)) TH_LOG("links did not come up");
	for (int f = 0; f < self->n; f++) {
		ASSERT_NE(NULL, self->by_fidx[f]) TH_LOG("no card has fabric index %d", f);
	}

	for (int i = 0; i < self->n; i++) {
		struct card *c = &self->cards[i];

		ASSERT_TRUE(c->links);
		for (uint32_t p = 0; p < c->ports; p++) {
			char want[64], buf[64];
			int pport, peer = wired_peer(self->topo, self->n, c->fidx, p, &pport);

			if (peer < 0)
				snprintf(want, sizeof(want), "none");
			else
				snprintf(want, sizeof(want), "%s:%d",
					 self->by_fidx[peer]->serial, pport);
			ASSERT_EQ(0, port_attr(c->name, p, "peer", buf, sizeof(buf)));
			EXPECT_STREQ(want, buf) TH_LOG("%s port %u", c->name, p);
			ASSERT_EQ(0, port_attr(c->name, p, "state", buf, sizeof(buf)));
			EXPECT_STREQ(peer < 0 ? "down" : "up", buf) TH_LOG("%s port %u", c->name, p);
			ASSERT_EQ(0, port_attr(c->name, p, "generation", buf, sizeof(buf)));
			EXPECT_EQ(peer < 0 ? 0 : IPU_LINK_UP_GEN, atoi(buf));
			ASSERT_EQ(0, port_attr(c->name, p, "lanes", buf, sizeof(buf)));
			EXPECT_EQ(peer < 0 ? 0 : IPU_LINK_UP_LANES, atoi(buf));
			ASSERT_EQ(0, port_attr(c->name, p, "fom", buf, sizeof(buf)));
			EXPECT_EQ(peer < 0 ? 0 : IPU_LINK_UP_FOM, atoi(buf));
		}
	}
}

/* Without a fabric every port is down and not wired. */
TEST_F(links, no_fabric_all_down)
{
	if (self->topo)
		SKIP(return, "the cards are on a fabric");
	for (int i = 0; i < self->n; i++) {
		struct card *c = &self->cards[i];
		char buf[64];

		EXPECT_EQ(-1, c->fidx);
		for (uint32_t p = 0; c->links && p < c->ports; p++) {
			ASSERT_EQ(0, port_attr(c->name, p, "state", buf, sizeof(buf)));
			EXPECT_STREQ("down", buf);
			ASSERT_EQ(0, port_attr(c->name, p, "peer", buf, sizeof(buf)));
			EXPECT_STREQ("none", buf);
		}
	}
}

/* Compares a LINKS record with the port's sysfs files (settled links). */
static void check_record(struct __test_metadata *_metadata, struct card *c,
			 const struct ipu_link *l, uint32_t p)
{
	char buf[64], want[64];
	unsigned int corr, uncorr;

	EXPECT_EQ(p, l->port);
	ASSERT_EQ(0, port_attr(c->name, p, "state", buf, sizeof(buf)));
	EXPECT_EQ(state_code(buf), (int)l->state) TH_LOG("%s port %u", c->name, p);
	ASSERT_EQ(0, port_attr(c->name, p, "peer", buf, sizeof(buf)));
	if (l->flags & IPU_LINK_FLAG_WIRED) {
		snprintf(want, sizeof(want), "%s:%d", l->peer_serial, l->peer_port);
		EXPECT_STREQ(want, buf);
		EXPECT_LE(0, l->peer_index);
	} else {
		EXPECT_STREQ("none", buf);
		EXPECT_EQ(-1, l->peer_index);
		EXPECT_EQ(-1, l->peer_port);
		EXPECT_STREQ("", l->peer_serial);
	}
	EXPECT_EQ(0u, l->flags & ~IPU_LINK_FLAG_WIRED);
	ASSERT_EQ(0, port_attr(c->name, p, "generation", buf, sizeof(buf)));
	EXPECT_EQ(strtoul(buf, NULL, 10), l->generation);
	ASSERT_EQ(0, port_attr(c->name, p, "lanes", buf, sizeof(buf)));
	EXPECT_EQ(strtoul(buf, NULL, 10), l->lanes);
	ASSERT_EQ(0, port_attr(c->name, p, "fom", buf, sizeof(buf)));
	EXPECT_EQ(strtoul(buf, NULL, 10), l->fom);
	ASSERT_EQ(0, port_attr(c->name, p, "errors", buf, sizeof(buf)));
	ASSERT_EQ(2, sscanf(buf, "%u %u", &corr, &uncorr));
	EXPECT_EQ(corr, l->errors_corr);
	EXPECT_EQ(uncorr, l->errors_uncorr);
	EXPECT_EQ(0ull, l->reserved[0]);
	EXPECT_EQ(0ull, l->reserved[1]);
}

/* LINKS agrees with sysfs on every card, and names the wired peers. */
TEST_F(links, ioctl_matches_sysfs)
{
	if (self->topo)
		ASSERT_EQ(0, wait_links_up(self));
	for (int i = 0; i < self->n; i++) {
		struct card *c = &self->cards[i];
		struct ipu_link recs[IPU_LINK_PORTS_MAX];
		struct ipu_link_list a = { 0 };

		ASSERT_EQ(0, links_call(c->fd, &a, IPU_LINK_PORTS_MAX, recs, sizeof(recs[0])));
		EXPECT_EQ(sizeof(a), a.argsz);
		EXPECT_EQ((uint32_t)LINK_SIZE_V1, a.record_size);
		EXPECT_EQ(c->links ? c->ports : 0, a.count);
		EXPECT_EQ(c->fidx, a.fabric_index);
		EXPECT_EQ(c->fidx < 0 ? 0 : (uint32_t)self->n, a.fabric_size);
		for (uint32_t p = 0; p < a.count; p++) {
			int pport, peer;

			check_record(_metadata, c, &recs[p], p);
			if (!self->topo)
				continue;
			peer = wired_peer(self->topo, self->n, c->fidx, p, &pport);
			EXPECT_EQ(peer, recs[p].peer_index) TH_LOG("%s port %u", c->name, p);
			if (peer >= 0)
				EXPECT_EQ(pport, recs[p].peer_port);
		}
	}
}

/* count 0 asks for the number; a short array gets that many records. */
TEST_F(links, ioctl_count)
{
	struct card *c = &self->cards[0];
	struct ipu_link *recs = (struct ipu_link *)self->map;
	struct ipu_link_list a = { 0 };

	ASSERT_EQ(0, links_call(c->fd, &a, 0, NULL, sizeof(*recs)));
	EXPECT_EQ(c->links ? c->ports : 0, a.count);
	if (a.count < 2)
		SKIP(return, "%s has %u ports", c->name, a.count);

	memset(self->map, 0xa5, 2 * PAGE);
	ASSERT_EQ(0, links_call(c->fd, &a, 1, recs, sizeof(*recs)));
	EXPECT_EQ(c->ports, a.count);
	EXPECT_EQ(0u, recs[0].port);
	EXPECT_EQ(0ull, recs[0].reserved[0]);
	for (size_t b = sizeof(*recs); b < 2 * sizeof(*recs); b++) {
		ASSERT_EQ(0xa5, self->map[b]) TH_LOG("byte %zu of record 1 written", b);
	}

	/* Room for more than the card has: only its ports are written. */
	memset(self->map, 0xa5, 2 * PAGE);
	ASSERT_EQ(0, links_call(c->fd, &a, c->ports + 3, recs, sizeof(*recs)));
	EXPECT_EQ(c->ports, a.count);
	EXPECT_EQ(c->ports - 1, recs[c->ports - 1].port);
	EXPECT_EQ(0xa5, self->map[c->ports * sizeof(*recs)]);
}

/* A larger stride: records at the stride, the bytes past 88 zeroed. */
TEST_F(links, ioctl_stride)
{
	struct card *c = &self->cards[0];
	const uint32_t stride = 136;
	struct ipu_link_list a = { 0 };
	uint32_t n;

	if (!c->links)
		SKIP(return, "%s has no links", c->name);
	n = c->ports < 8 ? c->ports : 8;
	memset(self->map, 0xa5, 2 * PAGE);
	ASSERT_EQ(0, links_call(c->fd, &a, n, self->map, stride));
	EXPECT_EQ((uint32_t)LINK_SIZE_V1, a.record_size);
	for (uint32_t i = 0; i < n; i++) {
		struct ipu_link l;

		memcpy(&l, self->map + i * stride, sizeof(l));
		EXPECT_EQ(i, l.port);
		EXPECT_GE((uint32_t)IPU_LINKSTATE_FAILED, l.state);
		for (uint32_t b = LINK_SIZE_V1; b < stride; b++) {
			ASSERT_EQ(0, self->map[i * stride + b]) TH_LOG("record %u byte %u", i, b);
		}
	}
	EXPECT_EQ(0xa5, self->map[n * stride]);
}

/* Argument checks (docs/uapi.md "Ioctl conventions" and "LINKS"). */
TEST_F(links, ioctl_bad_args)
{
	struct card *c = &self->cards[0];
	struct ipu_link recs[IPU_LINK_PORTS_MAX];
	struct ipu_link_list a = { 0 };
	unsigned char *raw = (unsigned char *)&a;

	EXPECT_EQ((size_t)LINKS_SIZE_V1, sizeof(struct ipu_link_list));
	EXPECT_EQ((size_t)LINK_SIZE_V1, sizeof(struct ipu_link));
	for (uint32_t bit = 0; bit < 32; bit++) {
		memset(&a, 0, sizeof(a));
		a.flags = 1u << bit;
		a.argsz = sizeof(a);
		a.record_size = sizeof(recs[0]);
		EXPECT_EQ(-1, ioctl(c->fd, IPU_IOCTL_LINKS, &a)) TH_LOG("flag bit %u", bit);
		EXPECT_EQ(EINVAL, errno);
	}
	for (size_t b = offsetof(struct ipu_link_list, reserved); b < sizeof(a); b++) {
		memset(&a, 0, sizeof(a));
		raw[b] = 1;
		EXPECT_EQ(EINVAL, links_call(c->fd, &a, 1, recs, sizeof(recs[0])))
			TH_LOG("reserved byte %zu", b);
	}
	{
		static const uint32_t bad_sizes[] = { 0, 8, LINK_SIZE_V1 - 8,
			LINK_SIZE_V1 + 4, LINK_SIZE_V1 + 1, PAGE + 8, UINT32_MAX };

		for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
			memset(&a, 0, sizeof(a));
			EXPECT_EQ(EINVAL, links_call(c->fd, &a, 1, recs, bad_sizes[i]))
				TH_LOG("record_size %u", bad_sizes[i]);
		}
	}
	/* argsz: too small, too large, a non-zero tail past the struct. */
	for (uint32_t sz = 0; sz < LINKS_SIZE_V1; sz += 8) {
		memset(self->map, 0, PAGE);
		memcpy(self->map, &sz, sizeof(sz));
		EXPECT_EQ(-1, ioctl(c->fd, IPU_IOCTL_LINKS, self->map)) TH_LOG("argsz %u", sz);
		EXPECT_EQ(EINVAL, errno);
	}
	{
		uint32_t sz = IPU_ARGSZ_MAX + 1;
		struct ipu_link_list *m = (struct ipu_link_list *)self->map;

		memset(self->map, 0, 2 * PAGE);
		memcpy(self->map, &sz, sizeof(sz));
		EXPECT_EQ(-1, ioctl(c->fd, IPU_IOCTL_LINKS, self->map));
		EXPECT_EQ(E2BIG, errno);
		memset(self->map, 0, 2 * PAGE);
		m->argsz = sizeof(*m) + 8;
		m->record_size = LINK_SIZE_V1;
		self->map[sizeof(*m) + 3] = 1;
		EXPECT_EQ(-1, ioctl(c->fd, IPU_IOCTL_LINKS, self->map));
		EXPECT_EQ(E2BIG, errno);
		self->map[sizeof(*m) + 3] = 0;
		EXPECT_EQ(0, ioctl(c->fd, IPU_IOCTL_LINKS, self->map));
		EXPECT_EQ(sizeof(*m), m->argsz);
	}
	/* The argument itself unreadable. */
	EXPECT_EQ(-1, ioctl(c->fd, IPU_IOCTL_LINKS, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(c->fd, IPU_IOCTL_LINKS, self->map + 2 * PAGE));
	EXPECT_EQ(EFAULT, errno);
}

/* Records that cannot be written: EFAULT; count 0 never touches the pointer. */
TEST_F(links, ioctl_bad_pointer)
{
	struct card *c = &self->cards[0];
	unsigned char *guard = self->map + 2 * PAGE;
	struct ipu_link_list a = { 0 };
	void *ro;

	EXPECT_EQ(0, links_call(c->fd, &a, 0, (void *)16, LINK_SIZE_V1));
	if (!c->links || c->ports < 2)
		SKIP(return, "%s has %u ports", c->name, c->ports);
	EXPECT_EQ(EFAULT, links_call(c->fd, &a, 1, NULL, LINK_SIZE_V1));
	EXPECT_EQ(EFAULT, links_call(c->fd, &a, 1, guard, LINK_SIZE_V1));
	EXPECT_EQ(EFAULT, links_call(c->fd, &a, 1, (void *)-4096L, LINK_SIZE_V1));
	/* The second record crosses into the PROT_NONE page. */
	EXPECT_EQ(EFAULT, links_call(c->fd, &a, 2, guard - LINK_SIZE_V1 - 8, LINK_SIZE_V1));
	/* Exactly up to the page: fine. */
	EXPECT_EQ(0, links_call(c->fd, &a, 2, guard - 2 * LINK_SIZE_V1, LINK_SIZE_V1));
	/* The zeroed tail of a larger stride crosses it. */
	EXPECT_EQ(EFAULT, links_call(c->fd, &a, 1, guard - LINK_SIZE_V1 - 8, LINK_SIZE_V1 + 16));
	ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(EFAULT, links_call(c->fd, &a, 1, ro, LINK_SIZE_V1));
	munmap(ro, PAGE);
}

/* Any open file may ask, read-only too. */
TEST_F(links, ioctl_read_only_file)
{
	struct ipu_link recs[IPU_LINK_PORTS_MAX];
	struct ipu_link_list a = { 0 };
	int fd = ipu_open_name(self->cards[0].name, O_RDONLY);

	ASSERT_LE(0, fd);
	EXPECT_EQ(0, links_call(fd, &a, IPU_LINK_PORTS_MAX, recs, sizeof(recs[0])));
	EXPECT_EQ(self->cards[0].fidx, a.fabric_index);
	close(fd);
}

/* --- uevents -------------------------------------------------------------- */

/* A link uevent: the card (ipuN), port and state; */
struct link_event {
	char card[IPU_TEST_NAME_MAX];
	int port;
	int state;
};

/*
 * The next link uevent within @ms: 1, 0 on timeout. Other uevents are
 * skipped; a link uevent must carry every key (else the test fails).
 */
static int uevent_next(struct __test_metadata *_metadata, int fd, int ms,
		       struct link_event *ev)
{
	long long end = ipu_now_ms() + ms;
	char buf[4096];

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long left = end - ipu_now_ms();
		bool link = false, ipu = false;
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return 0;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		ev->port = -1;
		ev->state = -1;
		ev->card[0] = '\0';
		for (char *s = buf; s < buf + n; s += strlen(s) + 1) {
			if (!strcmp(s, "IPU_EVENT=link"))
				link = true;
			else if (!strcmp(s, "SUBSYSTEM=ipu"))
				ipu = true;
			else if (!strncmp(s, "IPU_PORT=", 9))
				ev->port = atoi(s + 9);
			else if (!strncmp(s, "IPU_LINK_STATE=", 15))
				ev->state = state_code(s + 15);
			else if (!strncmp(s, "DEVPATH=", 8) && strrchr(s, '/'))
				snprintf(ev->card, sizeof(ev->card), "%s", strrchr(s, '/') + 1);
		}
		if (!link)
			continue;
		EXPECT_TRUE(ipu);
		EXPECT_TRUE(!strncmp(buf, "change@", 7)) TH_LOG("%s", buf);
		EXPECT_LE(0, ev->port);
		EXPECT_LE(0, ev->state);
		EXPECT_NE(0, ev->card[0]);
		return 1;
	}
}

/* An end of a link: a card and port, and what its uevents said. */
struct link_end {
	struct card *c;
	int port;
	int events;
	int last;		/* state of the last uevent */
	bool saw[4];		/* states seen */
};

/*
 * Collects link uevents into @ends until each end's last one is @state
 * (and it had at least one), or SETTLE_MS pass; 0 or -1.
 */
static int collect_until(struct __test_metadata *_metadata, int fd,
			 struct link_end *ends, int nends, int state)
{
	long long end = ipu_now_ms() + SETTLE_MS;
	struct link_event ev;

	for (;;) {
		bool done = true;

		for (int i = 0; i < nends; i++)
			if (!ends[i].events || ends[i].last != state)
				done = false;
		if (done)
			return 0;
		if (!uevent_next(_metadata, fd, (int)(end - ipu_now_ms()), &ev))
			return -1;
		for (int i = 0; i < nends; i++) {
			if (strcmp(ev.card, ends[i].c->name) || ev.port != ends[i].port)
				continue;
			ends[i].events++;
			ends[i].last = ev.state;
			if (ev.state >= 0)
				ends[i].saw[ev.state] = true;
		}
	}
}

/* The wired ends of card @c and their peers' ends, into @ends; how many. */
static int ends_of(FIXTURE_DATA(links) *self, struct card *c,
		   struct link_end *ends, int max)
{
	int n = 0;

	for (uint32_t p = 0; p < c->ports && n + 2 <= max; p++) {
		int pport, peer = wired_peer(self->topo, self->n, c->fidx, p, &pport);

		if (peer < 0)
			continue;
		ends[n++] = (struct link_end){ .c = c, .port = p, .last = -1 };
		ends[n++] = (struct link_end){ .c = self->by_fidx[peer], .port = pport,
					       .last = -1 };
	}
	return n;
}

/*
 * A RESET takes the card's links down: every end (its own and its peers')
 * sends uevents whose last one is "up" (the links trained again), and
 * sysfs shows them up with the same peers.
 */
TEST_F(links, retrain_after_reset)
{
	struct link_end ends[4 * IPU_LINK_PORTS_MAX];
	struct ipu_reset r;
	struct card *c;
	int fd, n;

	NEED_FABRIC();
	ASSERT_EQ(0, wait_links_up(self));
	c = self->by_fidx[0];
	ASSERT_NE(NULL, c);
	n = ends_of(self, c, ends, sizeof(ends) / sizeof(ends[0]));
	ASSERT_LT(0, n);
	fd = ipu_test_uevent_open();
	ASSERT_LE(0, fd);

	ASSERT_EQ(0, ipu_reset(c->fd, 0, 0, &r));
	EXPECT_EQ(0, collect_until(_metadata, fd, ends, n, IPU_LINKSTATE_UP));
	for (int i = 0; i < n; i++) {
		EXPECT_LT(0, ends[i].events) TH_LOG("no uevent from %s port %d",
						    ends[i].c->name, ends[i].port);
	}
	close(fd);
	ASSERT_EQ(0, wait_links_up(self));
	for (int i = 0; i < n; i += 2) {
		char buf[64], want[64];

		snprintf(want, sizeof(want), "%s:%d", ends[i + 1].c->serial, ends[i + 1].port);
		ASSERT_EQ(0, port_attr(c->name, ends[i].port, "peer", buf, sizeof(buf)));
		EXPECT_STREQ(want, buf);
	}
}

/* --- QMP (the host's qmp-serve.py, tests/common/ipu_host_qmp.h) ----------- */

#define FABRIC_PATH "/machine/peripheral/f0"	/* tools/ipu-vm --topology */

/* qom-set of the fabric's @prop to @value: 0, or -1 with QEMU's answer logged. */
static int qmp_set(struct __test_metadata *_metadata, const char *prop,
		   const char *value)
{
	char rsp[512];
	int ret = ipu_host_qom_set(FABRIC_PATH, prop, value, rsp, sizeof(rsp));

	if (ret)
		TH_LOG("qom-set %s %s: %d %s", prop, value, ret, rsp);
	return ret ? -1 : 0;
}

#define NEED_QMP() do { \
	NEED_FABRIC(); \
	if (!ipu_host_qmp_dir()) \
		SKIP(return, "no QMP from the host (IPU_QMP_DIR)"); \
} while (0)

/* The integer after @key (with its quotes) in the JSON object @o; -1000 if none. */
static long json_int(const char *o, const char *key)
{
	const char *k = strstr(o, key);

	return k ? strtol(k + strlen(key) + 1, NULL, 10) : -1000;
}

/* The string after @key in the JSON object @o into @buf ("" if none). */
static void json_str(const char *o, const char *key, char *buf, size_t len)
{
	const char *k = strstr(o, key);
	const char *v = k ? strchr(k + strlen(key) + 1, '"') : NULL;
	size_t n = v ? strcspn(v + 1, "\"") : 0;

	snprintf(buf, len, "%.*s", (int)n, v ? v + 1 : "");
}

#define QMP_RSP_MAX (1 << 16)	/* a POD16's links: 64 entries */

/*
 * The fabric's own account of its links (qom-get links, docs/hw-interface.md
 * "QMP and HMP control") is the truth: each entry's port has that peer,
 * state and error counts in sysfs and in LINKS, and no port it leaves out
 * is wired.
 */
TEST_F(links, qmp_links_are_the_truth)
{
	static bool seen[IPU_TEST_MAX_CARDS][IPU_LINK_PORTS_MAX];
	char *rsp, *o, *end;
	int ends = 0;

	NEED_QMP();
	ASSERT_EQ(0, wait_links_up(self));
	rsp = malloc(QMP_RSP_MAX);
	ASSERT_NE(NULL, rsp);
	ASSERT_EQ(0, ipu_host_qom_get(FABRIC_PATH, "links", rsp, QMP_RSP_MAX)) TH_LOG("%.200s", rsp);
	for (o = strchr(rsp, '['); o && (o = strchr(o, '{')); o = end) {
		long idx = json_int(o, "\"index\""), port = json_int(o, "\"port\"");
		long pidx = json_int(o, "\"peer-index\""), pport = json_int(o, "\"peer-port\"");
		struct ipu_link recs[IPU_LINK_PORTS_MAX];
		struct ipu_link_list l = { 0 };
		char st[16], want[64], buf[64];
		struct card *c, *peer;

		end = strchr(o, '}');
		ASSERT_NE(NULL, end);
		*end++ = '\0';
		json_str(o, "\"state\"", st, sizeof(st));
		ASSERT_TRUE(idx >= 0 && idx < self->n && pidx >= 0 && pidx < self->n) TH_LOG("%s", o);
		c = self->by_fidx[idx];
		peer = self->by_fidx[pidx];
		ASSERT_TRUE(c && peer && port >= 0 && (uint32_t)port < c->ports) TH_LOG("%s", o);
		seen[idx][port] = true;
		ends++;
		snprintf(want, sizeof(want), "%s:%ld", peer->serial, pport);
		ASSERT_EQ(0, port_attr(c->name, port, "peer", buf, sizeof(buf)));
		EXPECT_STREQ(want, buf) TH_LOG("%s port %ld", c->name, port);
		ASSERT_EQ(0, port_attr(c->name, port, "state", buf, sizeof(buf)));
		EXPECT_STREQ(st, buf) TH_LOG("%s port %ld", c->name, port);
		snprintf(want, sizeof(want), "%ld %ld", json_int(o, "\"err-corr\""),
			 json_int(o, "\"err-uncorr\""));
		ASSERT_EQ(0, port_attr(c->name, port, "errors", buf, sizeof(buf)));
		EXPECT_STREQ(want, buf) TH_LOG("%s port %ld", c->name, port);
		ASSERT_EQ(0, links_call(c->fd, &l, IPU_LINK_PORTS_MAX, recs, sizeof(recs[0])));
		EXPECT_EQ(pidx, recs[port].peer_index);
		EXPECT_EQ(pport, recs[port].peer_port);
		EXPECT_EQ(state_code(st), (int)recs[port].state);
	}
	free(rsp);
	EXPECT_LT(0, ends);
	for (int i = 0; i < self->n; i++) {
		struct card *c = self->by_fidx[i];
		char buf[64];

		for (uint32_t p = 0; c && p < c->ports; p++) {
			if (seen[i][p])
				continue;
			ASSERT_EQ(0, port_attr(c->name, p, "peer", buf, sizeof(buf)));
			EXPECT_STREQ("none", buf) TH_LOG("%s port %u: not in the fabric's links", c->name, p);
		}
	}
}

/* A rail link (member 1 port 2 to member 3 port 3) down, then up. */
TEST_F(links, qmp_down_up_uevents)
{
	struct link_end ends[2];
	struct card *a, *b;
	char buf[64], val[64];
	int fd;

	NEED_QMP();
	ASSERT_EQ(0, wait_links_up(self));
	a = self->by_fidx[1];
	b = self->by_fidx[3];
	ASSERT_TRUE(a && b);
	ends[0] = (struct link_end){ .c = a, .port = IPU_PORT_RAIL_UP, .last = -1 };
	ends[1] = (struct link_end){ .c = b, .port = IPU_PORT_RAIL_DOWN, .last = -1 };
	fd = ipu_test_uevent_open();
	ASSERT_LE(0, fd);

	snprintf(val, sizeof(val), "index=1,port=%d,state=down", IPU_PORT_RAIL_UP);
	ASSERT_EQ(0, qmp_set(_metadata, "link", val));
	ASSERT_EQ(0, collect_until(_metadata, fd, ends, 2, IPU_LINKSTATE_DOWN));
	/* Held down: it stays so, on both ends, in sysfs and the ioctl. */
	for (int i = 0; i < 2; i++) {
		struct ipu_link recs[IPU_LINK_PORTS_MAX];
		struct ipu_link_list l = { 0 };

		ASSERT_EQ(0, port_attr(ends[i].c->name, ends[i].port, "state", buf, sizeof(buf)));
		EXPECT_STREQ("down", buf);
		ASSERT_EQ(0, port_attr(ends[i].c->name, ends[i].port, "lanes", buf, sizeof(buf)));
		EXPECT_STREQ("0", buf);
		ASSERT_EQ(0, links_call(ends[i].c->fd, &l, IPU_LINK_PORTS_MAX, recs,
					sizeof(recs[0])));
		EXPECT_EQ((uint32_t)IPU_LINKSTATE_DOWN, recs[ends[i].port].state);
		EXPECT_NE(0u, recs[ends[i].port].flags & IPU_LINK_FLAG_WIRED);
	}
	/* The rung links of the same cards were not touched. */
	ASSERT_EQ(0, port_attr(a->name, IPU_PORT_RUNG0, "state", buf, sizeof(buf)));
	EXPECT_STREQ("up", buf);

	for (int i = 0; i < 2; i++)
		ends[i].events = 0;
	snprintf(val, sizeof(val), "index=1,port=%d,state=up", IPU_PORT_RAIL_UP);
	ASSERT_EQ(0, qmp_set(_metadata, "link", val));
	ASSERT_EQ(0, collect_until(_metadata, fd, ends, 2, IPU_LINKSTATE_UP));
	close(fd);
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(0, port_attr(ends[i].c->name, ends[i].port, "state", buf, sizeof(buf)));
		EXPECT_STREQ("up", buf);
	}
	EXPECT_EQ(0, wait_links_up(self));
}

/*
 * Errors from QMP: correctable ones count at the named end only and change
 * no state; an uncorrectable one fails the link (uevents "failed" on both
 * ends), until it is brought up again.
 */
TEST_F(links, qmp_errors)
{
	struct link_end ends[2];
	unsigned int c0, u0, c1, u1;
	struct card *a, *b;
	char buf[64], val[96];
	int fd;

	NEED_QMP();
	ASSERT_EQ(0, wait_links_up(self));
	a = self->by_fidx[0];
	b = self->by_fidx[1];
	ASSERT_TRUE(a && b);
	ASSERT_EQ(0, port_attr(a->name, IPU_PORT_RUNG1, "errors", buf, sizeof(buf)));
	ASSERT_EQ(2, sscanf(buf, "%u %u", &c0, &u0));
	ASSERT_EQ(0, port_attr(b->name, IPU_PORT_RUNG1, "errors", buf, sizeof(buf)));
	ASSERT_EQ(2, sscanf(buf, "%u %u", &c1, &u1));

	snprintf(val, sizeof(val), "index=0,port=%d,type=correctable,count=5", IPU_PORT_RUNG1);
	ASSERT_EQ(0, qmp_set(_metadata, "inject-error", val));
	ASSERT_EQ(0, port_attr(a->name, IPU_PORT_RUNG1, "errors", buf, sizeof(buf)));
	snprintf(val, sizeof(val), "%u %u", c0 + 5, u0);
	EXPECT_STREQ(val, buf);
	ASSERT_EQ(0, port_attr(b->name, IPU_PORT_RUNG1, "errors", buf, sizeof(buf)));
	snprintf(val, sizeof(val), "%u %u", c1, u1);
	EXPECT_STREQ(val, buf);
	ASSERT_EQ(0, port_attr(a->name, IPU_PORT_RUNG1, "state", buf, sizeof(buf)));
	EXPECT_STREQ("up", buf);

	ends[0] = (struct link_end){ .c = a, .port = IPU_PORT_RUNG1, .last = -1 };
	ends[1] = (struct link_end){ .c = b, .port = IPU_PORT_RUNG1, .last = -1 };
	fd = ipu_test_uevent_open();
	ASSERT_LE(0, fd);
	snprintf(val, sizeof(val), "index=0,port=%d,type=uncorrectable", IPU_PORT_RUNG1);
	ASSERT_EQ(0, qmp_set(_metadata, "inject-error", val));
	ASSERT_EQ(0, collect_until(_metadata, fd, ends, 2, IPU_LINKSTATE_FAILED));
	ASSERT_EQ(0, port_attr(b->name, IPU_PORT_RUNG1, "state", buf, sizeof(buf)));
	EXPECT_STREQ("failed", buf);
	ASSERT_EQ(0, port_attr(a->name, IPU_PORT_RUNG1, "errors", buf, sizeof(buf)));
	snprintf(val, sizeof(val), "%u %u", c0 + 5, u0 + 1);
	EXPECT_STREQ(val, buf);

	for (int i = 0; i < 2; i++)
		ends[i].events = 0;
	snprintf(val, sizeof(val), "index=0,port=%d,state=up", IPU_PORT_RUNG1);
	ASSERT_EQ(0, qmp_set(_metadata, "link", val));
	EXPECT_EQ(0, collect_until(_metadata, fd, ends, 2, IPU_LINKSTATE_UP));
	close(fd);
	EXPECT_EQ(0, wait_links_up(self));
}

TEST_HARNESS_MAIN
