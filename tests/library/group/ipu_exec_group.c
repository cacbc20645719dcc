// SPDX-License-Identifier: MIT
/*
 * Multi-IPU graphs on a group of cards (VM, an M2000 or a POD16:
 * tools/ipu-vm --topology m2000|pod16, IPU_VM_TOPOLOGY; run by
 * tests/common/fabric-vm.sh for vm-group-check and vm-pod16-check, which
 * serves the test's QMP requests): the device of all the cards (6 of an
 * M2000, 30 of a POD16) opened as one ipu_device runs a 4- or 16-IPU
 * binary with cross-IPU copies and external syncs and gives the model's
 * results byte for byte (the model: as many engines joined by the engine's in-process
 * fabric, one thread each); a link taken down from QMP before a run
 * refuses the run naming the link, one taken down mid-run ends it
 * (-ENOLINK, no hang); after a reset the cards work again. KTAP on stdout.
 * Without a known fabric (an ordinary VM) it skips.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uapi/linux/ipu.h"

#include "ipudev.h"
#include "fabric_local.h"
#include "ipu_engine.h"
#include "gw.h"
#include "ipu_host_qmp.h"

#define MAX_IPUS	16
#define N		256		/* i32 per IPU */
#define FABRIC		"/machine/peripheral/f0"

/*
 * The topology under test (IPU_VM_TOPOLOGY) and the device id of all its
 * cards (docs/libipudev.md "Multi-IPU device ids"); an M2000 unless pod16.
 */
static const char *topo = "m2000";
static uint32_t ipus;
static unsigned int group_id;

static void topology_from_env(void)
{
	const char *t = getenv("IPU_VM_TOPOLOGY");

	if (t && !strcmp(t, "pod16")) {
		topo = "pod16";
		ipus = 16;
		group_id = 30;
	} else {
		ipus = 4;		/* m2000, or the skip's wording */
		group_id = 6;
	}
}

#include "ipu_ktap.h"

/*
 * The test graph: x (handle 0, RW) and y (handle 1, RO), N i32 per IPU on
 * tiles 0 and 1 of each. Body: x of IPU k -> y of IPU k+1 (cross-IPU, 1 or
 * 2 hops), an external sync, y -> x (local). Program 0 "main" runs the body
 * 3 times (x rotates by 3 IPUs), program 1 "spin" 2^30 times.
 */
static uint8_t *group_graph(size_t *len)
{
	const uint32_t T = 32;		/* tiles of the test model */
	struct gw *w = gw_new(IPU_MODEL_TEST);
	struct ipu_graph_ipus rec = { .ipus = ipus, .tiles_per_ipu = T };
	struct ipu_graph_copy rot[MAX_IPUS], back[MAX_IPUS];
	uint32_t tx[MAX_IPUS], ty[MAX_IPUS], offs[MAX_IPUS] = { 0 }, cnt[MAX_IPUS];
	uint32_t shape = ipus * N;
	uint32_t kids[3], body, x, y;
	uint8_t *bin;

	gw_raw_section(w, IPU_GRAPH_SEC_IPUS, IPU_GRAPH_SECF_REQUIRED,
		       sizeof(rec), &rec, sizeof(rec));
	for (uint32_t k = 0; k < ipus; k++) {
		tx[k] = k * T;
		ty[k] = k * T + 1;
		cnt[k] = N;
		gw_plan(w, tx[k], N * 4);
		gw_plan(w, ty[k], N * 4);
	}
	x = gw_tensor(w, "x", IPU_DTYPE_I32, 1, &shape, ipus, tx, offs, cnt);
	y = gw_tensor(w, "y", IPU_DTYPE_I32, 1, &shape, ipus, ty, offs, cnt);
	gw_handle(w, "x", x, IPU_HANDLE_READ | IPU_HANDLE_WRITE);
	gw_handle(w, "y", y, IPU_HANDLE_READ);
	for (uint32_t k = 0; k < ipus; k++) {
		rot[k] = (struct ipu_graph_copy){ tx[k], 0, ty[(k + 1) % ipus], 0, N * 4, 0 };
		back[k] = (struct ipu_graph_copy){ ty[k], 0, tx[k], 0, N * 4, 0 };
	}
	kids[0] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "rotate", ipus, rot), 0, 0);
	kids[1] = gw_node(w, IPU_PROG_SYNC, IPU_SYNC_EXTERNAL, 0, 0);
	kids[2] = gw_node(w, IPU_PROG_COPY, gw_exchange(w, "back", ipus, back), 0, 0);
	body = gw_seq(w, 3, kids);
	gw_entry(w, "main", gw_node(w, IPU_PROG_REPEAT, 3, body, 0));
	gw_entry(w, "spin", gw_node(w, IPU_PROG_REPEAT, 1u << 30, body, 0));
	bin = gw_finish(w, len);
	gw_free(w);
	return bin;
}

/* ---- the model: 4 engines on the in-process fabric, one thread each ---- */

struct member_run {
	struct ipue_engine *e;
	int rc;
	uint64_t cycles;
};

static void *member_thread(void *arg)
{
	struct member_run *m = arg;
	struct ipue_run_opts o = { .program = 0, .repeat = 1 };
	struct ipue_run_stats st;

	m->rc = ipue_run(m->e, &o, &st);
	m->cycles = st.cycles;
	return NULL;
}

/*
 * The model's IPUS engines joined as one group on an in-process fabric of
 * the topology under test
 * (sync timeout @tmo_ms, 0: none), the binary loaded and x written.
 * 0, or -1 with what was made in *f and m[] (model_free() frees it).
 */
static int model_new(const uint8_t *bin, size_t len, const int32_t *in, uint32_t tmo_ms,
		     struct ipue_fabric_local **f, struct member_run *m)
{
	struct ipue_config cfg = { .model = IPU_MODEL_TEST, .host_threads = 1 };

	if (ipue_fabric_local_create(topo, ipus, 4, f))
		return -1;
	ipue_fabric_local_set_sync_timeout(*f, tmo_ms);
	for (uint32_t k = 0; k < ipus; k++)
		if (ipue_engine_create(&cfg, &m[k].e) ||
		    ipue_fabric_local_join(*f, (1u << ipus) - 1, k, m[k].e) ||
		    ipue_load(m[k].e, bin, len, NULL) ||
		    ipue_tensor_write(m[k].e, 0, 0, in, ipus * N * 4))
			return -1;
	return 0;
}

static void model_free(struct ipue_fabric_local *f, struct member_run *m)
{
	for (uint32_t k = 0; k < ipus; k++) {
		ipue_fabric_local_leave(f, k);
		ipue_engine_destroy(m[k].e);
	}
	ipue_fabric_local_destroy(f);
}

/* Members 0 .. @n - 1 run "main", one thread each. */
static void model_run_members(struct member_run *m, int n)
{
	pthread_t th[MAX_IPUS];

	for (int k = 0; k < n; k++)
		pthread_create(&th[k], NULL, member_thread, &m[k]);
	for (int k = 0; k < n; k++)
		pthread_join(th[k], NULL);
}

/* x, y and the cycles after "main" on the model; 0 or -1 */
static int model_run(const uint8_t *bin, size_t len, const int32_t *in,
		     int32_t *x, int32_t *y, uint64_t *cycles)
{
	struct ipue_fabric_local *f = NULL;
	struct member_run m[MAX_IPUS] = { 0 };
	int rc = model_new(bin, len, in, 0, &f, m);

	if (!rc) {
		model_run_members(m, ipus);
		for (uint32_t k = 0; k < ipus && !rc; k++)
			rc = m[k].rc || ipue_tensor_read(m[k].e, 0, 0, x, ipus * N * 4) ||
			     ipue_tensor_read(m[k].e, 1, 0, y, ipus * N * 4) ? -1 : 0;
		*cycles = m[0].cycles;
	}
	if (f)
		model_free(f, m);
	return rc;
}

/*
 * A member that never runs: with a sync timeout the others' runs end with
 * IPUE_ESYNC at their first external sync instead of waiting for ever.
 */
static int model_missing_member(const uint8_t *bin, size_t len, const int32_t *in)
{
	struct ipue_fabric_local *f = NULL;
	struct member_run m[MAX_IPUS] = { 0 };
	int ok = !model_new(bin, len, in, 200, &f, m);

	if (ok) {
		model_run_members(m, ipus - 1);	/* the last member never runs */
		for (uint32_t k = 0; k < ipus - 1; k++)
			ok &= m[k].rc == IPUE_ESYNC;
	}
	if (f)
		model_free(f, m);
	return ok;
}

/* ---- on the cards ---- */

static int qmp_link(int index, int port, const char *state)
{
	char v[64], rsp[256];

	snprintf(v, sizeof(v), "index=%d,port=%d,state=%s", index, port, state);
	return ipu_host_qom_set(FABRIC, "link", v, rsp, sizeof(rsp));
}

/* run "main" on @dev with input @in; x, y out; the run's return value */
static int card_main(struct ipu_device *dev, const int32_t *in, int32_t *x,
		     int32_t *y, uint64_t *cycles, struct ipu_error *e)
{
	struct ipu_run_stats st;
	int r = ipu_tensor_write(dev, "x", in, ipus * N * 4, e);

	if (!r)
		r = ipu_run(dev, 0, 1, &st, e);
	if (!r)
		r = ipu_tensor_read(dev, "x", x, ipus * N * 4, e);
	if (!r)
		r = ipu_tensor_read(dev, "y", y, ipus * N * 4, e);
	*cycles = st.cycles;
	return r;
}

/* a run refused or ended by a link reads -ENOLINK and names the link */
static int names_link(int r, const struct ipu_error *e, const char *a, const char *b)
{
	return r == -ENOLINK && (strstr(e->msg, a) || strstr(e->msg, b));
}

/* links retrain in 2 ms of emulated time: retry "main" a bounded number of times */
static int main_after_up(struct ipu_device *dev, const int32_t *in, int32_t *x,
			 int32_t *y, uint64_t *cy, struct ipu_error *e)
{
	int r = -ENOLINK;

	for (int i = 0; i < 50 && r == -ENOLINK; i++) {
		usleep(20000);
		r = card_main(dev, in, x, y, cy, e);
	}
	return r;
}

int main(void)
{
	static int32_t in[MAX_IPUS * N], mx[MAX_IPUS * N], my[MAX_IPUS * N];
	static int32_t cx[MAX_IPUS * N], cy[MAX_IPUS * N];
	size_t bytes;
	char want[32];
	struct ipu_error e = { 0 };
	struct ipu_device *dev;
	uint64_t mcyc = 0, ccyc = 0;
	size_t len;
	uint8_t *bin;
	int r, ok;

	topology_from_env();
	bin = group_graph(&len);

	printf("KTAP version 1\n1..10\n");
	bytes = (size_t)ipus * N * 4;
	for (uint32_t i = 0; i < ipus * N; i++)
		in[i] = (int32_t)(i * 2654435761u);
	r = model_run(bin, len, in, mx, my, &mcyc);
	/* the model itself: x rotated by 3 IPUs, y the last rotation's copy */
	ok = !r && !memcmp(my, mx, bytes);
	for (uint32_t k = 0; k < ipus; k++)
		ok = ok && !memcmp(mx + k * N, in + (k + ipus - 3) % ipus * N, N * 4);
	kt(ok, "group.model_reference", r ? "the model's run failed" : "x is not rotated");
	kt(model_missing_member(bin, len, in), "group.model_missing_member_sync_timeout",
	   "the members' runs did not end with IPUE_ESYNC");
	r = ipu_group_device_open(group_id, IPU_OPEN_ATTACH, &dev, &e);
	if (r) {
		for (int i = kt_n; i < 10; i++)
			printf("ok %d group # SKIP no %s (device %u: %s)\n", i + 1, topo,
			       group_id, e.msg);
		free(bin);
		return 0;
	}
	r = ipu_load(dev, bin, len, &e);
	if (!r)
		r = card_main(dev, in, cx, cy, &ccyc, &e);
	kt(!r && !memcmp(cx, mx, bytes) && !memcmp(cy, my, bytes) && ccyc == mcyc,
	   "group.cards_equal_model", r ? e.msg : "results or cycles differ from the model's");

	/* a rung link down before the run: refused, naming it (0.0 or 1.0) */
	r = qmp_link(0, 0, "down");
	if (!r)
		r = card_main(dev, in, cx, cy, &ccyc, &e);
	kt(names_link(r, &e, "IPU-Link 0.0", "IPU-Link 1.0"), "group.link_down_refused", e.msg);
	r = qmp_link(0, 0, "up");
	if (!r)
		r = main_after_up(dev, in, cx, cy, &ccyc, &e);
	kt(!r && !memcmp(cx, mx, bytes), "group.link_up_runs_again", e.msg);

	/* a rail link down mid-run: every member ends, -ENOLINK, no hang */
	r = ipu_run_start(dev, 1, 1, &e);
	if (!r) {
		usleep(300000);
		r = qmp_link(0, 2, "down");
	}
	if (!r)
		r = ipu_wait(dev, 60000, NULL, &e);
	kt(names_link(r, &e, "IPU-Link 0.", "IPU-Link 2."), "group.link_down_mid_run", e.msg);
	qmp_link(0, 2, "up");

	/* one member reset mid-run (another process's RESET): every member ends */
	r = ipu_run_start(dev, 1, 1, &e);
	if (!r) {
		struct ipu_device *one;

		usleep(300000);
		r = ipu_device_open(1, 0, &one, &e);
		if (!r) {
			r = ipu_device_reset(one, 0, IPU_RESET_FORCE, NULL, &e);
			ipu_device_close(one);
		}
		if (!r)
			r = ipu_wait(dev, 60000, NULL, &e);
	}
	kt(r == -ENOLINK || r == -EIO, "group.member_reset_mid_run_ends_all", e.msg);
	/* uAPI 1.7: the driver ran the group RUN and named the cause's member */
	{
		struct ipu_device_info info;
		int kgroup = !ipu_device_info(dev, &info, NULL) &&
			     (info.api_version & 0xffff) >= IPU_API_MINOR_GROUP_CMDS;

		kt(!kgroup || strstr(e.msg, "(member 1, "),
		   "group.driver_group_run_names_member", e.msg);
	}

	/* a reset of the group: every card loads and runs again */
	r = ipu_device_reset(dev, 0, 0, NULL, &e);
	if (!r)
		r = ipu_load(dev, bin, len, &e);
	if (!r)
		r = main_after_up(dev, in, cx, cy, &ccyc, &e);
	kt(!r && !memcmp(cx, mx, bytes) && !memcmp(cy, my, bytes),
	   "group.works_after_reset", e.msg);

	/* a group binary on one card of it: refused with the loader's words */
	ipu_device_close(dev);
	r = ipu_device_open(0, IPU_OPEN_ATTACH, &dev, &e);
	if (!r) {
		r = ipu_load(dev, bin, len, &e);
		ipu_device_close(dev);
	}
	snprintf(want, sizeof(want), "%u IPUs", ipus);
	kt(r == -EINVAL && strstr(e.msg, want), "group.binary_on_one_card_refused", e.msg);
	free(bin);
	printf("# %d failed\n", kt_fail);
	return kt_fail ? 1 : 0;
}
