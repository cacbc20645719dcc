// SPDX-License-Identifier: GPL-2.0
/*
 * The cards' IPU-Links (docs/hw-interface.md "IPU-Links") in a VM of 4
 * cards wired as an M2000 (tools/ipu-vm --topology m2000), driven through
 * BAR0 with the driver unbound from all four, and from the host's QMP
 * (tests/card/links/run.sh serves it, tests/common/qmp-serve.py): every
 * port's peer as wired, training to UP, LINK_CHANGED and the LINK cause
 * on both ends of a reset, links held down, errors injected, FAILED links
 * brought back, the query, refused QMP requests and bad guest accesses.
 * Each test leaves every link UP and not held down.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipu_test.h"
#include "ipu_bar0.h"
#include "ipu_host_qmp.h"

/* The harness compares expected and actual values of mixed types by design. */
#pragma GCC diagnostic ignored "-Wsign-compare"

#define CARDS		4
#define FABRIC		"/machine/peripheral/f0"
#define WAIT_MS		5000	/* links UP: 2 ms after READY, emulated */
#define RSP_LEN		16384

FIXTURE(m2000) {
	struct ipu_bar0 bar[CARDS];
	uint32_t ports;		/* LINK_PORTS, alike on every card */
	char rsp[RSP_LEN];
};

static uint32_t rd(FIXTURE_DATA(m2000) *self, int card, uint32_t off)
{
	return ipu_bar0_rd(&self->bar[card], off);
}

static void wr(FIXTURE_DATA(m2000) *self, int card, uint32_t off, uint32_t v)
{
	ipu_bar0_wr(&self->bar[card], off, v);
}

static uint32_t link_rd(FIXTURE_DATA(m2000) *self, int card, uint32_t port,
			uint32_t reg)
{
	return rd(self, card, IPU_REG_LINK(port, reg));
}

static uint32_t link_state(FIXTURE_DATA(m2000) *self, int card, uint32_t port)
{
	return link_rd(self, card, port, IPU_LINK_STATE) & IPU_LINK_STATE_MASK;
}

/*
 * The M2000 wiring as the document gives it: rungs on ports 0 and 1 to the
 * pair partner, port 2 up the rail to card + 2 (its port 3), port 3 down.
 */
static bool m2000_peer(uint32_t card, uint32_t port, uint32_t *peer,
		       uint32_t *peer_port)
{
	switch (port) {
	case 0:
	case 1:
		*peer = card ^ 1;
		*peer_port = port;
		return true;
	case 2:
		*peer = card + 2;
		*peer_port = 3;
		return card + 2 < CARDS;
	case 3:
		*peer = card - 2;
		*peer_port = 2;
		return card >= 2;
	default:
		return false;
	}
}

/* Waits for port @port of @card to reach @state; its last state. */
static uint32_t wait_link(FIXTURE_DATA(m2000) *self, int card, uint32_t port,
			  uint32_t state)
{
	long long t0 = ipu_now_ms();
	uint32_t st;

	while ((st = link_state(self, card, port)) != state &&
	       ipu_now_ms() - t0 < WAIT_MS)
		usleep(500);
	return st;
}

/* Waits for every wired port of every card to be UP; false if one is not. */
static bool wait_all_up(FIXTURE_DATA(m2000) *self)
{
	uint32_t peer, pp;

	for (int c = 0; c < CARDS; c++)
		for (uint32_t p = 0; p < self->ports; p++)
			if (m2000_peer(c, p, &peer, &pp) &&
			    wait_link(self, c, p, IPU_LINK_STATE_UP) !=
			    IPU_LINK_STATE_UP)
				return false;
	return true;
}

/* Clears LINK_CHANGED and the LINK cause on every card. */
static void clear_changes(FIXTURE_DATA(m2000) *self)
{
	for (int c = 0; c < CARDS; c++) {
		wr(self, c, IPU_REG_LINK_CHANGED, (1u << self->ports) - 1);
		wr(self, c, IPU_REG_IRQ_STATUS, IPU_IRQ_LINK);
	}
}

/* The LINK_CHANGED bits a drop of every link of @card sets on @other. */
static uint32_t ports_towards(FIXTURE_DATA(m2000) *self, int other, int card)
{
	uint32_t peer, pp, bits = 0;

	for (uint32_t p = 0; p < self->ports; p++)
		if (m2000_peer(other, p, &peer, &pp) && peer == (uint32_t)card)
			bits |= 1u << p;
	return bits;
}

static int qom(FIXTURE_DATA(m2000) *self, const char *prop, const char *val)
{
	return ipu_host_qom_set(FABRIC, prop, val, self->rsp, sizeof(self->rsp));
}

static int count_of(const char *s, const char *needle)
{
	int n = 0;

	for (; (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

FIXTURE_SETUP(m2000)
{
	const char *topo = getenv("IPU_VM_TOPOLOGY");
	char msg[256];

	memset(self->bar, 0, sizeof(self->bar));
	if (!topo || strcmp(topo, "m2000"))
		SKIP(return, "the VM is not an M2000 (tools/ipu-vm --topology m2000)");
	for (int c = 0; c < CARDS; c++) {
		int ret = ipu_bar0_take(&self->bar[c], c, false, msg, sizeof(msg));

		if (ret == -ENODEV)
			SKIP(return, "card %d is not present", c);
		ASSERT_EQ(0, ret) TH_LOG("card %d: %s", c, msg);
		ASSERT_LE(0, ipu_bar0_wait_state(&self->bar[c],
						 IPU_CARD_STATE_READY,
						 IPU_READY_TIMEOUT_MS));
	}
	self->ports = rd(self, 0, IPU_REG_LINK_PORTS);
	ASSERT_LE(4, self->ports);
	ASSERT_GE(IPU_LINK_PORTS_MAX, self->ports);
	ASSERT_TRUE(wait_all_up(self)) TH_LOG("the links did not train");
	clear_changes(self);
}

FIXTURE_TEARDOWN(m2000)
{
	for (int c = 0; c < CARDS; c++)
		EXPECT_EQ(0, ipu_bar0_release(&self->bar[c]));
}

TEST_F(m2000, identity)
{
	IPU_RETURN_IF_SKIPPED();
	for (int c = 0; c < CARDS; c++) {
		EXPECT_EQ((uint32_t)IPU_HW_VERSION, rd(self, c, IPU_REG_VERSION));
		EXPECT_EQ(IPU_CAP_LINKS, rd(self, c, IPU_REG_CAPS) & IPU_CAP_LINKS);
		EXPECT_EQ((uint32_t)c, rd(self, c, IPU_REG_FABRIC_INDEX));
		EXPECT_EQ(4u, rd(self, c, IPU_REG_FABRIC_SIZE));
		EXPECT_EQ(self->ports, rd(self, c, IPU_REG_LINK_PORTS));
	}
}

/* Checks port @p of card @c against the M2000 wiring; 1 if it is wired. */
static int check_port(struct __test_metadata *_metadata,
		      FIXTURE_DATA(m2000) *self, int c, uint32_t p)
{
	uint32_t peer = 0, pp = 0, st = link_rd(self, c, p, IPU_LINK_STATE);
	bool w = m2000_peer(c, p, &peer, &pp);
	char serial[IPU_SERIAL_LEN + 1] = { 0 };
	const struct ipu_vm_card *vm = ipu_vm_card(peer);

	for (int i = 0; i < IPU_SERIAL_LEN; i += 4) {
		uint32_t v = link_rd(self, c, p, IPU_LINK_PEER_SERIAL + i);

		memcpy(serial + i, &v, 4);
	}
	if (!w) {
		EXPECT_EQ((uint32_t)IPU_LINK_STATE_DOWN, st)
			TH_LOG("card %d port %u", c, p);
		EXPECT_EQ(IPU_FABRIC_NONE, link_rd(self, c, p, IPU_LINK_PEER_INDEX));
		EXPECT_EQ(IPU_FABRIC_NONE, link_rd(self, c, p, IPU_LINK_PEER_PORT));
		EXPECT_STREQ("", serial);
		return 0;
	}
	EXPECT_EQ(IPU_LINK_WIRED | IPU_LINK_STATE_UP, st)
		TH_LOG("card %d port %u", c, p);
	EXPECT_EQ(peer, link_rd(self, c, p, IPU_LINK_PEER_INDEX))
		TH_LOG("card %d port %u", c, p);
	EXPECT_EQ(pp, link_rd(self, c, p, IPU_LINK_PEER_PORT))
		TH_LOG("card %d port %u", c, p);
	EXPECT_STREQ(vm ? vm->serial : "(not in IPU_VM_CARDS)", serial);
	EXPECT_EQ((uint32_t)IPU_LINK_UP_GEN, link_rd(self, c, p, IPU_LINK_GEN));
	EXPECT_EQ((uint32_t)IPU_LINK_UP_LANES,
		  link_rd(self, c, p, IPU_LINK_LANES));
	EXPECT_EQ((uint32_t)IPU_LINK_UP_FOM, link_rd(self, c, p, IPU_LINK_FOM));
	return 1;
}

/* Every port's peer, by index, port and serial, as the M2000 is wired. */
TEST_F(m2000, wiring)
{
	IPU_RETURN_IF_SKIPPED();
	int wired = 0;

	for (int c = 0; c < CARDS; c++)
		for (uint32_t p = 0; p < self->ports; p++)
			wired += check_port(_metadata, self, c, p);
	/* 2 rungs x 2 links + 2 rail links, each seen from both ends */
	EXPECT_EQ(12, wired);
}

/*
 * A soft reset of card 1 drops its links at both ends (LINK_CHANGED and
 * the LINK cause on cards 0, 1 and 3, not on card 2, which has no link to
 * it), and they train again; error counters survive it.
 */
TEST_F(m2000, reset_retrains_both_ends)
{
	IPU_RETURN_IF_SKIPPED();
	int before = ipu_guest_log_count("link 1.2-3.3: up -> down");
	int trained = ipu_guest_log_count("link 1.2-3.3: training -> up");

	ASSERT_EQ(0, qom(self, "inject-error",
			 "index=1,port=0,type=correctable,count=3")) TH_LOG("%s", self->rsp);
	ASSERT_EQ(0, ipu_bar0_reset(&self->bar[1]));
	ASSERT_TRUE(wait_all_up(self));
	for (int c = 0; c < CARDS; c++) {
		uint32_t want = c == 1 ? 0x7u : ports_towards(self, c, 1);

		EXPECT_EQ(want, rd(self, c, IPU_REG_LINK_CHANGED))
			TH_LOG("card %d", c);
		EXPECT_EQ(want ? IPU_IRQ_LINK : 0u,
			  rd(self, c, IPU_REG_IRQ_STATUS) & IPU_IRQ_LINK)
			TH_LOG("card %d", c);
	}
	EXPECT_EQ(3u, link_rd(self, 1, 0, IPU_LINK_ERR_CORR));
	EXPECT_EQ(0u, link_rd(self, 0, 0, IPU_LINK_ERR_CORR));
	/* LINK_CHANGED is write-1-to-clear, per bit */
	wr(self, 0, IPU_REG_LINK_CHANGED, 0x1);
	EXPECT_EQ(0x2u, rd(self, 0, IPU_REG_LINK_CHANGED));
	/* the trace shows the rail link going down and training again */
	if (before < 0)
		SKIP(return, "QEMU's log is not in the share");
	EXPECT_LT(before, ipu_guest_log_count("link 1.2-3.3: up -> down"));
	EXPECT_LT(trained, ipu_guest_log_count("link 1.2-3.3: training -> up"));
}

/*
 * A PCI function reset is a power-on: the card's ends lose their error
 * counters (its peers' ends keep theirs) and the links train again.
 */
TEST_F(m2000, power_on_clears_counters)
{
	IPU_RETURN_IF_SKIPPED();
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/reset", self->bar[2].pcidir);
	if (access(path, W_OK))
		SKIP(return, "card 2 has no PCI reset method");
	ASSERT_EQ(0, qom(self, "inject-error",
			 "index=2,port=0,type=correctable,count=5")) TH_LOG("%s", self->rsp);
	ASSERT_EQ(0, qom(self, "inject-error",
			 "index=3,port=0,type=correctable,count=2")) TH_LOG("%s", self->rsp);
	EXPECT_EQ(5u, link_rd(self, 2, 0, IPU_LINK_ERR_CORR));
	ASSERT_EQ(0, ipu_write_file(path, "1"));
	ASSERT_LE(0, ipu_bar0_wait_state(&self->bar[2], IPU_CARD_STATE_READY,
					 IPU_READY_TIMEOUT_MS));
	wr(self, 2, IPU_REG_IRQ_MASK, 0xffffffff);
	ASSERT_TRUE(wait_all_up(self));
	EXPECT_EQ(0u, rd(self, 2, IPU_REG_RESET_COUNT));
	EXPECT_EQ(0u, link_rd(self, 2, 0, IPU_LINK_ERR_CORR));
	EXPECT_EQ(2u, link_rd(self, 3, 0, IPU_LINK_ERR_CORR));
	EXPECT_EQ(ports_towards(self, 3, 2), rd(self, 3, IPU_REG_LINK_CHANGED));
}

/*
 * QMP takes a rail link down (both ends, at once, with their events) and
 * holds it down through a reset, then brings it up.
 */
TEST_F(m2000, qmp_down_up)
{
	IPU_RETURN_IF_SKIPPED();
	int traced = ipu_guest_log_count("QMP: member 0 port 2 state=down");

	ASSERT_EQ(0, qom(self, "link", "index=0,port=2,state=down"))
		TH_LOG("%s", self->rsp);
	EXPECT_EQ(IPU_LINK_WIRED | IPU_LINK_STATE_DOWN,
		  link_rd(self, 0, 2, IPU_LINK_STATE));
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_DOWN, link_state(self, 2, 3));
	EXPECT_EQ(0u, link_rd(self, 2, 3, IPU_LINK_GEN));
	EXPECT_EQ(0u, link_rd(self, 2, 3, IPU_LINK_LANES));
	EXPECT_EQ((uint32_t)IPU_LINK_UP_FOM, link_rd(self, 2, 3, IPU_LINK_FOM));
	EXPECT_EQ(1u << 2, rd(self, 0, IPU_REG_LINK_CHANGED));
	EXPECT_EQ(1u << 3, rd(self, 2, IPU_REG_LINK_CHANGED));
	EXPECT_EQ(0u, rd(self, 1, IPU_REG_LINK_CHANGED));
	EXPECT_EQ(IPU_IRQ_LINK, rd(self, 2, IPU_REG_IRQ_STATUS) & IPU_IRQ_LINK);
	EXPECT_EQ(0u, rd(self, 1, IPU_REG_IRQ_STATUS) & IPU_IRQ_LINK);
	/* the rest of the fabric is unaffected */
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_UP, link_state(self, 1, 2));

	/* held down through a reset, while card 2's rungs train again */
	ASSERT_EQ(0, ipu_bar0_reset(&self->bar[2]));
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_UP,
		  wait_link(self, 2, 0, IPU_LINK_STATE_UP));
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_UP,
		  wait_link(self, 3, 1, IPU_LINK_STATE_UP));
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_DOWN, link_state(self, 2, 3));

	/* brought up from the other end */
	ASSERT_EQ(0, qom(self, "link", "index=2,port=3,state=up"))
		TH_LOG("%s", self->rsp);
	EXPECT_TRUE(wait_all_up(self));
	EXPECT_EQ((uint32_t)IPU_LINK_UP_GEN, link_rd(self, 0, 2, IPU_LINK_GEN));
	/* "up" on a link that is up changes nothing */
	clear_changes(self);
	ASSERT_EQ(0, qom(self, "link", "index=0,port=2,state=up"));
	EXPECT_EQ(0u, rd(self, 0, IPU_REG_LINK_CHANGED));
	/* the QMP action is traced */
	if (traced < 0)
		SKIP(return, "QEMU's log is not in the share");
	EXPECT_EQ(traced + 1,
		  ipu_guest_log_count("QMP: member 0 port 2 state=down"));
}

/*
 * Correctable errors count at the named end only; an uncorrectable one
 * fails the link at both ends until it is brought up, or until a reset.
 */
TEST_F(m2000, qmp_errors)
{
	IPU_RETURN_IF_SKIPPED();
	uint32_t c0 = link_rd(self, 1, 1, IPU_LINK_ERR_CORR);
	uint32_t peer0 = link_rd(self, 0, 1, IPU_LINK_ERR_CORR);
	uint32_t u3 = link_rd(self, 3, 3, IPU_LINK_ERR_UNCORR);
	uint32_t u1 = link_rd(self, 1, 2, IPU_LINK_ERR_UNCORR);

	ASSERT_EQ(0, qom(self, "inject-error",
			 "index=1,port=1,type=correctable,count=7")) TH_LOG("%s", self->rsp);
	EXPECT_EQ(c0 + 7, link_rd(self, 1, 1, IPU_LINK_ERR_CORR));
	EXPECT_EQ(peer0, link_rd(self, 0, 1, IPU_LINK_ERR_CORR));
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_UP, link_state(self, 1, 1));
	EXPECT_EQ(0u, rd(self, 1, IPU_REG_LINK_CHANGED));

	/* uncorrectable: FAILED at both ends, brought up from QMP */
	ASSERT_EQ(0, qom(self, "inject-error",
			 "index=3,port=3,type=uncorrectable")) TH_LOG("%s", self->rsp);
	EXPECT_EQ(IPU_LINK_WIRED | IPU_LINK_STATE_FAILED,
		  link_rd(self, 3, 3, IPU_LINK_STATE));
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_FAILED, link_state(self, 1, 2));
	EXPECT_EQ(u3 + 1, link_rd(self, 3, 3, IPU_LINK_ERR_UNCORR));
	EXPECT_EQ(u1, link_rd(self, 1, 2, IPU_LINK_ERR_UNCORR));
	EXPECT_EQ(1u << 3, rd(self, 3, IPU_REG_LINK_CHANGED));
	EXPECT_EQ(1u << 2, rd(self, 1, IPU_REG_LINK_CHANGED));
	/* errors only on a link that is up */
	EXPECT_EQ(1, qom(self, "inject-error",
			 "index=1,port=2,type=correctable"));
	EXPECT_NE(NULL, strstr(self->rsp, "not up")) TH_LOG("%s", self->rsp);
	ASSERT_EQ(0, qom(self, "link", "index=1,port=2,state=up"));
	EXPECT_TRUE(wait_all_up(self));

	/* FAILED again, cleared by a reset of either end */
	ASSERT_EQ(0, qom(self, "inject-error",
			 "index=1,port=2,type=uncorrectable,count=2"));
	EXPECT_EQ(u1 + 2, link_rd(self, 1, 2, IPU_LINK_ERR_UNCORR));
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_FAILED, link_state(self, 3, 3));
	ASSERT_EQ(0, ipu_bar0_reset(&self->bar[3]));
	EXPECT_TRUE(wait_all_up(self));
	EXPECT_EQ(u1 + 2, link_rd(self, 1, 2, IPU_LINK_ERR_UNCORR));
}

/* Malformed or impossible requests are refused and change nothing. */
TEST_F(m2000, qmp_refused)
{
	IPU_RETURN_IF_SKIPPED();
	static const char *const bad_link[] = {
		"index=0,port=2",			/* no state */
		"index=0,port=2,state=sideways",
		"index=0,port=9,state=down",		/* not wired */
		"index=4,port=0,state=down",		/* no member 4 */
		"index=0,port=2,state=down,count=1",	/* no count here */
		"index=0,index=1,port=2,state=down",
		"index=x,port=2,state=down",
		"",
	};
	static const char *const bad_inject[] = {
		"index=0,port=0,type=fatal",
		"index=0,port=0,type=correctable,count=0",
		"index=0,port=0,type=correctable,count=1000001",
		"index=0,port=3,type=correctable",	/* not wired on card 0 */
	};

	uint32_t state[CARDS][IPU_LINK_PORTS_MAX], errs[CARDS][IPU_LINK_PORTS_MAX];

	for (int c = 0; c < CARDS; c++)
		for (uint32_t p = 0; p < self->ports; p++) {
			state[c][p] = link_rd(self, c, p, IPU_LINK_STATE);
			errs[c][p] = link_rd(self, c, p, IPU_LINK_ERR_CORR);
		}
	for (size_t i = 0; i < sizeof(bad_link) / sizeof(bad_link[0]); i++) {
		EXPECT_EQ(1, qom(self, "link", bad_link[i]))
			TH_LOG("link=%s: %s", bad_link[i], self->rsp);
	}
	for (size_t i = 0; i < sizeof(bad_inject) / sizeof(bad_inject[0]); i++) {
		EXPECT_EQ(1, qom(self, "inject-error", bad_inject[i]))
			TH_LOG("inject-error=%s: %s", bad_inject[i], self->rsp);
	}
	/* the configuration is fixed once created */
	EXPECT_EQ(1, qom(self, "topology", "ring"));
	for (int c = 0; c < CARDS; c++) {
		EXPECT_EQ(0u, rd(self, c, IPU_REG_LINK_CHANGED));
		for (uint32_t p = 0; p < self->ports; p++) {
			EXPECT_EQ(state[c][p], link_rd(self, c, p, IPU_LINK_STATE));
			EXPECT_EQ(errs[c][p], link_rd(self, c, p, IPU_LINK_ERR_CORR));
		}
	}
}

/* The fabric's query: one entry per wired port, matching the registers. */
TEST_F(m2000, qmp_query)
{
	IPU_RETURN_IF_SKIPPED();
	char want[128];

	ASSERT_EQ(0, qom(self, "link", "index=3,port=1,state=down"));
	ASSERT_EQ(0, ipu_host_qmp("{\"execute\": \"qom-get\", \"arguments\": "
				  "{\"path\": \"" FABRIC "\", \"property\": \"links\"}}",
				  self->rsp, sizeof(self->rsp)))
		TH_LOG("%s", self->rsp);
	EXPECT_EQ(12, count_of(self->rsp, "\"peer-index\""));
	EXPECT_EQ(10, count_of(self->rsp, "\"state\": \"up\""));
	EXPECT_EQ(2, count_of(self->rsp, "\"state\": \"down\""));
	EXPECT_EQ(2, count_of(self->rsp, "\"held-down\": true"));
	snprintf(want, sizeof(want), "\"lanes\": %d", IPU_LINK_UP_LANES);
	EXPECT_EQ(10, count_of(self->rsp, want));
	ASSERT_EQ(0, qom(self, "link", "index=3,port=1,state=up"));
	EXPECT_TRUE(wait_all_up(self));
}

/*
 * The guest cannot change a link through its registers: writes to them
 * are ignored and logged, ports past LINK_PORTS are undefined, narrow
 * accesses are refused; the VM and the links carry on.
 */
TEST_F(m2000, bad_accesses)
{
	IPU_RETURN_IF_SKIPPED();
	int before = ipu_guest_log_count("ipu: ");
	uint32_t past = IPU_REG_LINK(self->ports, IPU_LINK_STATE);

	for (uint32_t r = 0; r < IPU_LINK_STRIDE; r += 4)
		wr(self, 0, IPU_REG_LINK(0, r), 0);
	wr(self, 0, IPU_REG_FABRIC_INDEX, 3);
	wr(self, 0, IPU_REG_FABRIC_SIZE, 0);
	EXPECT_EQ(IPU_LINK_WIRED | IPU_LINK_STATE_UP,
		  link_rd(self, 0, 0, IPU_LINK_STATE));
	EXPECT_EQ(1u, link_rd(self, 0, 0, IPU_LINK_PEER_INDEX));
	EXPECT_EQ(0u, rd(self, 0, IPU_REG_FABRIC_INDEX));
	EXPECT_EQ(4u, rd(self, 0, IPU_REG_FABRIC_SIZE));
	/* LINK_CHANGED bits past the ports: ignored, logged */
	wr(self, 0, IPU_REG_LINK_CHANGED, 0x80000000u);
	EXPECT_EQ(0u, rd(self, 0, IPU_REG_LINK_CHANGED));
	/* past the last port: undefined, reads 0 */
	EXPECT_EQ(0u, rd(self, 0, past));
	wr(self, 0, past, 0xffffffff);
	EXPECT_EQ(0u, rd(self, 0, IPU_REG_LINK_BASE + 0x7fc));
	/* narrow reads are refused */
	EXPECT_EQ(0xffff, *(volatile uint16_t *)(self->bar[0].regs +
						 IPU_REG_LINK(0, IPU_LINK_STATE)));
	EXPECT_EQ(0xff, *(volatile uint8_t *)(self->bar[0].regs +
					       IPU_REG_LINK_CHANGED));
	EXPECT_EQ((uint32_t)IPU_MAGIC, rd(self, 0, IPU_REG_MAGIC));
	EXPECT_TRUE(wait_all_up(self));
	EXPECT_EQ(0u, rd(self, 1, IPU_REG_LINK_CHANGED));
	if (before < 0)
		SKIP(return, "QEMU's guest-error log is not in the share");
	/* 16 + 2 writes, LINK_CHANGED, past x2, 0x7fc, 2 narrow reads */
	EXPECT_LE(before + 24, ipu_guest_log_count("ipu: "));
}

/* Waits (20 s at most: a PCIe hot-plug takes seconds) for @card's @port. */
static uint32_t wait_hotplug(FIXTURE_DATA(m2000) *self, int card,
			     uint32_t port, uint32_t state)
{
	uint32_t st;
	int i = 0;

	/* At least one wait: @state may be DOWN, which is 0. */
	do
		st = wait_link(self, card, port, state);
	while (st != state && ++i < 4);
	return st;
}

/*
 * Waits (60 s at most) until QEMU no longer has device @id: a device_del
 * only asks the guest, whose ACPI eject ends the unplug later. QEMU takes
 * the device's links down when it leaves, in the same step that removes
 * it, so this is the moment the peers' ends must show it. True once gone.
 */
static bool wait_device_gone(FIXTURE_DATA(m2000) *self, const char *id)
{
	char name[64];

	snprintf(name, sizeof(name), "\"name\": \"%s\"", id);
	for (int i = 0; i < 300; i++) {
		if (ipu_host_qmp("{\"execute\": \"qom-list\", \"arguments\": "
				 "{\"path\": \"/machine/peripheral\"}}",
				 self->rsp, sizeof(self->rsp)))
			return false;
		/* ipu0 is there too: the answer is a complete list. */
		if (!strstr(self->rsp, name) &&
		    strstr(self->rsp, "\"name\": \"ipu0\""))
			return true;
		usleep(200 * 1000);
	}
	return false;
}

/*
 * A card that leaves (hot-unplug) takes its links down at its peers' ends,
 * which read no peer serial; its index can be taken by no other card; a
 * card plugged in as that member again trains with its peers. Last: it
 * unplugs card 3, which the driver gets back first.
 */
TEST_F(m2000, unplug_and_replug)
{
	IPU_RETURN_IF_SKIPPED();
	const char *add = "{\"execute\": \"device_add\", \"arguments\": "
		"{\"driver\": \"ipu\", \"id\": \"ipu3\", \"bus\": \"rp3\", "
		"\"model\": \"test\", \"card\": 3, \"serial\": \"IPU-SN-0003\", "
		"\"fabric\": \"f0\", \"fabric-index\": %d}}";
	char cmd[512];

	ASSERT_EQ(0, ipu_bar0_release(&self->bar[3]));
	ASSERT_EQ(0, ipu_host_qmp("{\"execute\": \"device_del\", \"arguments\": "
				  "{\"id\": \"ipu3\"}}", self->rsp, sizeof(self->rsp)))
		TH_LOG("%s", self->rsp);
	ASSERT_TRUE(wait_device_gone(self, "ipu3")) TH_LOG("%s", self->rsp);
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_DOWN, link_state(self, 2, 0));
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_DOWN, link_state(self, 2, 1));
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_DOWN, link_state(self, 1, 2));
	EXPECT_EQ(IPU_LINK_WIRED, link_rd(self, 1, 2, IPU_LINK_STATE));
	EXPECT_EQ(3u, link_rd(self, 1, 2, IPU_LINK_PEER_INDEX));
	EXPECT_EQ(0u, link_rd(self, 1, 2, IPU_LINK_PEER_SERIAL));
	EXPECT_EQ(1u << 2, rd(self, 1, IPU_REG_LINK_CHANGED));
	EXPECT_EQ(0x3u, rd(self, 2, IPU_REG_LINK_CHANGED));
	EXPECT_EQ(0u, rd(self, 0, IPU_REG_LINK_CHANGED));

	/* member 1 is taken: refused, nothing changes */
	snprintf(cmd, sizeof(cmd), add, 1);
	EXPECT_EQ(1, ipu_host_qmp(cmd, self->rsp, sizeof(self->rsp)));
	EXPECT_NE(NULL, strstr(self->rsp, "fabric-index 1 is taken"))
		TH_LOG("%s", self->rsp);
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_UP, link_state(self, 0, 0));

	/* member 3 again: its links train once it is READY */
	snprintf(cmd, sizeof(cmd), add, 3);
	ASSERT_EQ(0, ipu_host_qmp(cmd, self->rsp, sizeof(self->rsp)))
		TH_LOG("%s", self->rsp);
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_UP,
		  wait_hotplug(self, 1, 2, IPU_LINK_STATE_UP));
	EXPECT_EQ((uint32_t)IPU_LINK_STATE_UP,
		  wait_hotplug(self, 2, 1, IPU_LINK_STATE_UP));
	EXPECT_NE(0u, link_rd(self, 1, 2, IPU_LINK_PEER_SERIAL));
}

TEST_HARNESS_MAIN
