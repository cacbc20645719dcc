// SPDX-License-Identifier: MIT
/*
 * Host unit tests of libipudev and the tools' helpers: everything that
 * needs no card. Linked with libipudev.a (so the internals are reachable)
 * and tools/common.o.
 *
 *   unit                 run the tests; prints one line per test,
 *                        "ok NAME", "not ok NAME # why" or "ok NAME # SKIP
 *                        why" (run.sh numbers them into KTAP)
 *   unit --dump-list     JSON of ipu-info's list for synthetic cards
 *   unit --dump-detail   JSON of ipu-info -d for a synthetic card
 *   unit --dump-table    ipu-info's table for synthetic cards
 *   unit --dump-text     ipu-info -d text for a synthetic card
 *   unit --topo NAME VIEW the tools' views of a topology given as data
 *   unit --pci ADDR [DIR] link and NUMA of a PCI device (libpci; with DIR
 *                        the sysfs fallback too)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "common.h"
#include "topo_view.h"
#include "kselftest_harness.h"

/* ---------------------------------------------------------------------- */

TEST(strerror_text)
{
	EXPECT_TRUE(!strcmp(ipu_strerror(-ENOENT), "No such file or directory")) TH_LOG("%s: " "got '%s'", "strerror: negative errno", ipu_strerror(-ENOENT));
	EXPECT_TRUE(!strcmp(ipu_strerror(EACCES), "Permission denied")) TH_LOG("%s: " "got '%s'", "strerror: positive errno", ipu_strerror(EACCES));
	EXPECT_TRUE(!strcmp(ipu_strerror(0), "Success")) TH_LOG("%s: " "got '%s'", "strerror: zero", ipu_strerror(0));
	EXPECT_TRUE(!strcmp(ipu_strerror(-99999), "Unknown error")) TH_LOG("%s: " "got '%s'", "strerror: unknown", ipu_strerror(-99999));
}

TEST(error_format)
{
	struct ipu_error e;
	char longname[600];
	int r;

	ipu_error_clear(NULL);
	memset(&e, 0x55, sizeof(e));
	ipu_error_clear(&e);
	EXPECT_TRUE(e.code == 0 && e.msg[0] == '\0') TH_LOG("%s: " "not cleared", "error: clear");

	r = ipu__err_sys(&e, -EACCES, "open %s", "/dev/ipu2");
	EXPECT_TRUE(r == -EACCES && e.code == -EACCES && !strcmp(e.msg, "open /dev/ipu2: Permission denied")) TH_LOG("%s: " "r=%d code=%d msg='%s'", "error: err_sys format", r, e.code, e.msg);

	r = ipu__err(NULL, -EIO, "x %d", 1);
	EXPECT_TRUE(r == -EIO) TH_LOG("%s: " "r=%d", "error: NULL err allowed", r);

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	memset(&e, 0x55, sizeof(e));
	r = ipu__err_sys(&e, -ENOENT, "open %s", longname);
	EXPECT_TRUE(r == -ENOENT && strlen(e.msg) == sizeof(e.msg) - 1) TH_LOG("%s: " "len=%zu", "error: long message truncated and terminated", strnlen(e.msg, sizeof(e.msg)));
}

TEST(names)
{
	uint32_t m = 0;

	EXPECT_TRUE(!strcmp(ipu_model_name(IPU_MODEL_GC2), "gc2") && !strcmp(ipu_model_name(IPU_MODEL_GC200), "gc200") && !strcmp(ipu_model_name(IPU_MODEL_TEST), "test") && !strcmp(ipu_model_name(77), "unknown")) TH_LOG("%s: " "wrong model name", "names: models");
	EXPECT_TRUE(!strcmp(ipu_model_arch(IPU_MODEL_GC2), "ipu1") && !strcmp(ipu_model_arch(IPU_MODEL_GC200), "ipu2") && !strcmp(ipu_model_arch(0), "unknown")) TH_LOG("%s: " "wrong arch", "names: architectures");
	EXPECT_TRUE(ipu_model_from_name("GC200", &m) == 0 && m == IPU_MODEL_GC200 && ipu_model_from_name("gc9", &m) == -EINVAL && ipu_model_from_name(NULL, &m) == -EINVAL) TH_LOG("%s: " "m=%u", "names: model from name", m);
	EXPECT_TRUE(!strcmp(ipu_state_name(IPU_STATE_READY), "ready") && !strcmp(ipu_state_name(IPU_STATE_FAILED), "failed") && !strcmp(ipu_state_name(IPU_STATE_UNKNOWN), "unknown") && !strcmp(ipu_state_name(42), "unknown")) TH_LOG("%s: " "wrong state name", "names: states");
	EXPECT_TRUE(ipu_state_from_name("ready\n") == IPU_STATE_READY && ipu_state_from_name("initializing") == IPU_STATE_INITIALIZING && ipu_state_from_name("readyx") == IPU_STATE_UNKNOWN && ipu_state_from_name("") == IPU_STATE_UNKNOWN && ipu_state_from_name(NULL) == IPU_STATE_UNKNOWN) TH_LOG("%s: " "mismatch", "names: state from name");
	EXPECT_TRUE(!strcmp(ipu_version(), IPUDEV_VERSION_STRING)) TH_LOG("%s: " "got %s", "names: version", ipu_version());
}

static bool driver_present(void)
{
	struct stat st;

	return stat("/sys/class/ipu", &st) == 0;
}

TEST(args)
{
	struct ipu_error e;
	struct ipu_device *dev = (void *)1;
	struct ipu_device_info info;
	struct ipu_card *cards = (void *)1;
	size_t n = 7;
	int r;

	r = ipu_enumerate(NULL, &n, &e);
	EXPECT_TRUE(r == -EINVAL && e.code == -EINVAL && strstr(e.msg, "must not be NULL")) TH_LOG("%s: " "r=%d msg='%s'", "args: enumerate NULL cards", r, e.msg);
	r = ipu_enumerate(&cards, NULL, NULL);
	EXPECT_TRUE(r == -EINVAL) TH_LOG("%s: " "r=%d", "args: enumerate NULL count, NULL err", r);

	r = ipu_device_open(0, 0x80, &dev, &e);
	EXPECT_TRUE(r == -EINVAL && dev == NULL && strstr(e.msg, "unknown flags 0x80")) TH_LOG("%s: " "r=%d msg='%s'", "args: open unknown flags", r, e.msg);
	r = ipu_device_open(0, 0, NULL, &e);
	EXPECT_TRUE(r == -EINVAL) TH_LOG("%s: " "r=%d", "args: open NULL out", r);

	r = ipu_device_info(NULL, &info, &e);
	EXPECT_TRUE(r == -EINVAL) TH_LOG("%s: " "r=%d", "args: info NULL dev", r);
	r = ipu_device_reset(NULL, 0, 0, NULL, &e);
	EXPECT_TRUE(r == -EINVAL) TH_LOG("%s: " "r=%d", "args: reset NULL dev", r);
	ipu_device_close(NULL);
	ipu_cards_free(NULL);
	EXPECT_TRUE(ipu_device_id(NULL) == 0 && !strcmp(ipu_device_name(NULL), "")) TH_LOG("%s: " "wrong", "args: id/name of NULL");
}

TEST(no_driver)
{
	struct ipu_error e;
	struct ipu_card *cards = (void *)1;
	struct ipu_device *dev = (void *)1;
	size_t n = 7;
	int r;

	if (driver_present())
		SKIP(return, "no driver: the ipu driver is loaded here");
	r = ipu_enumerate(&cards, &n, &e);
	EXPECT_TRUE(r == -ENODEV && e.code == -ENODEV && cards == NULL && n == 0 && !strcmp(e.msg, "no IPU cards found: driver ipu.ko not loaded (/sys/class/ipu missing)")) TH_LOG("%s: " "r=%d msg='%s'", "no driver: enumerate", r, e.msg);
	r = ipu_device_open(2, IPU_OPEN_READONLY, &dev, &e);
	EXPECT_TRUE(r == -ENODEV && dev == NULL && !strcmp(e.msg, "open ipu2: driver ipu.ko not loaded (/sys/class/ipu missing)")) TH_LOG("%s: " "r=%d msg='%s'", "no driver: open", r, e.msg);
}

/* A fake backend to check the generic dispatch. */
struct fake {
	int info_calls, reset_calls, closed;
	unsigned timeout, flags;
};

static int fake_closed;

static void fake_close(struct ipu_device *dev)
{
	struct fake *f = dev->priv;

	fake_closed = f->reset_calls + 100 * f->info_calls + 1;
}

static int fake_info(struct ipu_device *dev, struct ipu_device_info *out,
		     struct ipu_error *err)
{
	struct fake *f = dev->priv;

	(void)err;
	f->info_calls++;
	out->tiles = 32;
	out->state = IPU_STATE_READY;
	return 0;
}

static int fake_reset(struct ipu_device *dev, unsigned timeout_ms,
		      unsigned flags, struct ipu_reset_result *out,
		      struct ipu_error *err)
{
	struct fake *f = dev->priv;

	f->reset_calls++;
	f->timeout = timeout_ms;
	f->flags = flags;
	if (timeout_ms == 1)
		return ipu__err(err, -ETIMEDOUT, "reset %s: too slow",
				dev->name);
	out->state = IPU_STATE_READY;
	out->reset_count = 5;
	return 0;
}

static const struct ipu_backend_ops fake_ops = {
	.name = "fake",
	.close = fake_close,
	.info = fake_info,
	.reset = fake_reset,
};

TEST(dispatch)
{
	struct fake f = { 0 };
	struct ipu_device *dev = NULL;
	struct ipu_device_info info;
	struct ipu_reset_result rr;
	struct ipu_error e;
	int r;

	r = ipu__device_new(&fake_ops, &f, 9, 0, "fake9", &dev, &e);
	if (r) {
		EXPECT_TRUE(false) TH_LOG("%s: " "r=%d", "dispatch: device_new", r);
		return;
	}
	EXPECT_TRUE(ipu_device_id(dev) == 9 && !strcmp(ipu_device_name(dev), "fake9")) TH_LOG("%s: " "id=%u", "dispatch: id and name", ipu_device_id(dev));

	memset(&info, 0x55, sizeof(info));
	r = ipu_device_info(dev, &info, &e);
	EXPECT_TRUE(r == 0 && f.info_calls == 1 && info.tiles == 32 && info.id == 9 && !strcmp(info.backend, "fake") && info.reserved[0] == 0) TH_LOG("%s: " "r=%d", "dispatch: info", r);

	r = ipu_device_reset(dev, IPU_RESET_TIMEOUT_MAX + 1, 0, &rr, &e);
	EXPECT_TRUE(r == -EINVAL && f.reset_calls == 0 && strstr(e.msg, "timeout 60001 ms")) TH_LOG("%s: " "r=%d msg='%s'", "dispatch: reset timeout above max", r, e.msg);
	r = ipu_device_reset(dev, 0, 0x10, &rr, &e);
	EXPECT_TRUE(r == -EINVAL && f.reset_calls == 0) TH_LOG("%s: " "r=%d", "dispatch: reset unknown flags", r);
	r = ipu_device_reset(dev, 100, IPU_RESET_NOWAIT, &rr, &e);
	EXPECT_TRUE(r == 0 && f.reset_calls == 1 && f.timeout == 100 && f.flags == IPU_RESET_NOWAIT && rr.state == IPU_STATE_READY && rr.reset_count == 5) TH_LOG("%s: " "r=%d", "dispatch: reset ok", r);
	r = ipu_device_reset(dev, 0, 0, NULL, &e);
	EXPECT_TRUE(r == 0) TH_LOG("%s: " "r=%d", "dispatch: reset NULL result", r);
	r = ipu_device_reset(dev, 1, 0, &rr, &e);
	EXPECT_TRUE(r == -ETIMEDOUT && e.code == -ETIMEDOUT && !strcmp(e.msg, "reset fake9: too slow")) TH_LOG("%s: " "r=%d msg='%s'", "dispatch: reset error passes through", r, e.msg);
	dev->flags = IPU_OPEN_READONLY;
	r = ipu_device_reset(dev, 0, 0, &rr, &e);
	EXPECT_TRUE(r == -EPERM && strstr(e.msg, "read-only")) TH_LOG("%s: " "r=%d msg='%s'", "dispatch: reset read-only is EPERM", r, e.msg);
	r = ipu__no_slot(dev, "run", &e);
	EXPECT_TRUE(r == -EOPNOTSUPP && !strcmp(e.msg, "run on fake9: not supported by the fake backend")) TH_LOG("%s: " "msg='%s'", "dispatch: missing slot", e.msg);
	fake_closed = 0;
	ipu_device_close(dev);
	EXPECT_TRUE(fake_closed == 1 + 3 + 100) TH_LOG("%s: " "closed=%d", "dispatch: close calls ops->close", fake_closed);
}

TEST(card_stubs)
{
	struct ipu_device *dev = NULL;
	struct ipu_error e;
	char buf[4];
	bool ok = true;
	struct ipu_load_info li;
	int r;

	/* a card handle without an open file: every execution op says so */
	if (ipu__device_new(&ipu__card_ops, NULL, 3, 0, "ipu3", &dev, &e)) {
		EXPECT_TRUE(false) TH_LOG("%s: " "device_new failed", "card: execution ops without a device");
		return;
	}
	r = ipu__card_ops.load(dev, buf, sizeof(buf), 0, &li, &e);
	ok &= r == -ENODEV && !strcmp(e.msg, "load on ipu3: the device is not open");
	r = ipu__card_ops.tensor_write(dev, 0, 0, buf, 4, &e);
	ok &= r == -ENODEV && strstr(e.msg, "not open");
	r = ipu__card_ops.tensor_read(dev, 0, 0, buf, 4, &e);
	ok &= r == -ENODEV && strstr(e.msg, "not open");
	r = ipu__card_ops.run(dev, 0, 1, 1, &e);
	ok &= r == -ENODEV && strstr(e.msg, "not open");
	r = ipu__card_ops.wait(dev, 0, &e);
	ok &= r == -ENODEV && strstr(e.msg, "not open");
	EXPECT_TRUE(ok) TH_LOG("%s: " "last msg='%s'", "card: execution ops without a device say why", e.msg);
	ipu_device_close(dev);	/* priv NULL: must not crash */
}

TEST(pci)
{
	struct ipu__pci *pci = ipu__pci_open();
	struct ipu__pci_link l;
	int r;

	EXPECT_TRUE(pci != NULL) TH_LOG("%s: " "ipu__pci_open failed", "pci: libpci opens");
	r = ipu__pci_query(pci, "nonsense", NULL, &l);
	EXPECT_TRUE(r == -EINVAL) TH_LOG("%s: " "r=%d", "pci: malformed address", r);
	r = ipu__pci_query(pci, "0000:00:00.0x", NULL, &l);
	EXPECT_TRUE(r == -EINVAL) TH_LOG("%s: " "r=%d", "pci: trailing garbage", r);
	r = ipu__pci_query(pci, "ffff:ff:1f.7", "/nonexistent", &l);
	EXPECT_TRUE(r == 0 && l.speed[0] == 0 && l.width == 0 && l.numa_node == -1) TH_LOG("%s: " "r=%d speed='%s' width=%u numa=%d", "pci: absent device is unknown, not fatal", r, l.speed, l.width, l.numa_node);
	r = ipu__pci_query(NULL, "0000:00:00.0", "/nonexistent", &l);
	EXPECT_TRUE(r == 0 && l.numa_node == -1) TH_LOG("%s: " "r=%d", "pci: no libpci context", r);
	EXPECT_TRUE(!strcmp(ipu__pcie_speed_name(4), "16.0 GT/s") && !strcmp(ipu__pcie_speed_name(3), "8.0 GT/s") && ipu__pcie_speed_name(0) == NULL && ipu__pcie_speed_name(15) == NULL) TH_LOG("%s: " "wrong", "pci: speed names");
	ipu__pci_close(pci);
}

/* ---------------------------------------------------------------------- */
/* tools/common.c                                                         */

static char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fn(f, arg);
	fclose(f);
	return buf;
}

static void write_str(FILE *f, const void *s)
{
	json_write_string(f, s);
}

static void write_doc(FILE *f, const void *unused)
{
	struct jw w;

	(void)unused;
	jw_init(&w, f);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "a", "x");
	jw_arr_begin(&w, "empty");
	jw_arr_end(&w);
	jw_arr_begin(&w, "list");
	jw_u64(&w, NULL, 1);
	jw_i64(&w, NULL, -2);
	jw_obj_begin(&w, NULL);
	jw_bool(&w, "t", true);
	jw_null(&w, "n");
	jw_obj_end(&w);
	jw_arr_end(&w);
	jw_double(&w, "d", 1.5);
	jw_str(&w, "nul", NULL);
	jw_obj_end(&w);
	jw_end(&w);
}

TEST(json)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "\"plain\"" },
		{ "q\"b\\s/", "\"q\\\"b\\\\s/\"" },
		{ "\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\"" },
		{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac", "\"caf\xc3\xa9 \xe2\x82\xac\"" },
		{ "bad\xff\xc3", "\"bad\\ufffd\\ufffd\"" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },	/* surrogate */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },		/* overlong */
		{ "", "\"\"" },
	};
	char *s;

	for (size_t i = 0; i < IPU__ARRAY_SIZE(cases); i++) {
		s = capture(write_str, cases[i].in);
		if (!s || strcmp(s, cases[i].out)) {
			EXPECT_TRUE(false) TH_LOG("%s: " "case %zu: got %s", "json: string escaping", i, s ? s : "(null)");
		}
		free(s);
	}

	s = capture(write_doc, NULL);
	EXPECT_TRUE(s && !strcmp(s, "{\n" "  \"a\": \"x\",\n" "  \"empty\": [],\n" "  \"list\": [\n" "    1,\n" "    -2,\n" "    {\n" "      \"t\": true,\n" "      \"n\": null\n" "    }\n" "  ],\n" "  \"d\": 1.500,\n" "  \"nul\": null\n" "}\n")) TH_LOG("%s: " "got:\n%s", "json: writer layout", s ? s : "(null)");
	free(s);
}

TEST(parse_format)
{
	unsigned v = 0;
	char buf[32];

	EXPECT_TRUE(tool_parse_uint("12", 100, &v) == 0 && v == 12 && tool_parse_uint("0", 0, &v) == 0 && v == 0 && tool_parse_uint("", 100, &v) == -EINVAL && tool_parse_uint(NULL, 100, &v) == -EINVAL && tool_parse_uint("-1", 100, &v) == -EINVAL && tool_parse_uint(" 1", 100, &v) == -EINVAL && tool_parse_uint("1x", 100, &v) == -EINVAL && tool_parse_uint("101", 100, &v) == -ERANGE && tool_parse_uint("99999999999999999999999", 100, &v) == -ERANGE) TH_LOG("%s: " "v=%u", "tools: parse_uint", v);
	tool_format_bytes(940572672, buf, sizeof(buf));
	EXPECT_TRUE(!strcmp(buf, "897 MiB")) TH_LOG("%s: " "got %s", "tools: bytes gc200", buf);
	tool_format_bytes(638976, buf, sizeof(buf));
	EXPECT_TRUE(!strcmp(buf, "624 KiB")) TH_LOG("%s: " "got %s", "tools: bytes tile", buf);
	tool_format_bytes(32 * 65536, buf, sizeof(buf));
	EXPECT_TRUE(!strcmp(buf, "2 MiB")) TH_LOG("%s: " "got %s", "tools: bytes test model", buf);
	tool_format_bytes(1536, buf, sizeof(buf));
	EXPECT_TRUE(!strcmp(buf, "1.5 KiB")) TH_LOG("%s: " "got %s", "tools: bytes fraction", buf);
	tool_format_bytes(100, buf, sizeof(buf));
	EXPECT_TRUE(!strcmp(buf, "100 B")) TH_LOG("%s: " "got %s", "tools: bytes small", buf);
}

/* ---------------------------------------------------------------------- */
/* Synthetic cards for the dumps                                          */

static void fake_cards(struct ipu_card *c, size_t n)
{
	memset(c, 0, n * sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		c[i].id = (unsigned)i;
		snprintf(c[i].name, sizeof(c[i].name), "ipu%zu", i);
		snprintf(c[i].devnode, sizeof(c[i].devnode), "/dev/ipu%zu", i);
		snprintf(c[i].pci_address, sizeof(c[i].pci_address),
			 "0000:00:%02zx.0", i + 4);
		c[i].vendor_id = 0x1ee7;
		c[i].device_id = 1;
		c[i].model = i == 2 ? IPU_MODEL_TEST : IPU_MODEL_GC200;
		ipu__strlcpy(c[i].model_name, ipu_model_name(c[i].model),
			     sizeof(c[i].model_name));
		snprintf(c[i].serial, sizeof(c[i].serial), "IPU-%zu-%s", i,
			 c[i].model_name);
		c[i].tiles = i == 2 ? 32 : 1472;
		c[i].tile_memory = i == 2 ? 65536 : 638976;
		c[i].total_memory = (uint64_t)c[i].tiles * c[i].tile_memory;
		ipu__strlcpy(c[i].firmware_version, "1.4.0",
			     sizeof(c[i].firmware_version));
		c[i].state = IPU_STATE_READY;
		ipu__strlcpy(c[i].state_name, "ready", sizeof(c[i].state_name));
		c[i].card_index = (uint32_t)i;
		ipu__strlcpy(c[i].driver_version, "1.0.0",
			     sizeof(c[i].driver_version));
		ipu__strlcpy(c[i].link_speed, "16.0 GT/s",
			     sizeof(c[i].link_speed));
		c[i].link_width = 16;
		c[i].numa_node = i == 1 ? 0 : -1;
	}
	/* Hostile strings must still give valid JSON. */
	if (n > 1) {
		ipu__strlcpy(c[1].serial, "we\"ird\\ser\n\x01\xff",
			     sizeof(c[1].serial));
		c[1].state = IPU_STATE_UNKNOWN;
		ipu__strlcpy(c[1].state_name, "bo\tgus", sizeof(c[1].state_name));
		c[1].link_speed[0] = '\0';
		c[1].link_width = 0;
		c[1].driver_version[0] = '\0';
	}
}

static void fake_info_of(const struct ipu_card *c, struct ipu_device_info *i)
{
	memset(i, 0, sizeof(*i));
	i->id = c->id;
	ipu__strlcpy(i->backend, "card", sizeof(i->backend));
	i->api_version = 1 << 16;
	i->hw_version = 1 << 16;
	i->model = c->model;
	i->card_index = c->card_index;
	i->tiles = c->tiles;
	i->tile_memory = c->tile_memory;
	i->total_memory = c->total_memory;
	i->threads_per_tile = 6;
	i->link_ports = 10;
	i->fw_version = 0x010400;
	ipu__strlcpy(i->firmware_version, "1.4.0", sizeof(i->firmware_version));
	i->clock_khz = 1330000;
	i->state = IPU_STATE_READY;
	i->reset_count = 3;
	i->capabilities = 3;
	ipu__strlcpy(i->serial, c->serial, sizeof(i->serial));
	ipu__strlcpy(i->driver_version, "1.0.0", sizeof(i->driver_version));
}

static int dump(const char *what)
{
	struct ipu_card cards[3];
	struct ipu_device_info info;
	struct jw w;

	fake_cards(cards, 3);
	if (!strcmp(what, "--dump-list")) {
		jw_init(&w, stdout);
		jw_obj_begin(&w, NULL);
		jw_arr_begin(&w, "ipus");
		for (size_t i = 0; i < 3; i++) {
			jw_obj_begin(&w, NULL);
			print_card_json_members(&w, &cards[i]);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_obj_end(&w);
		jw_end(&w);
	} else if (!strcmp(what, "--dump-detail") ||
		   !strcmp(what, "--dump-detail-noinfo")) {
		bool noinfo = !strcmp(what, "--dump-detail-noinfo");

		fake_info_of(&cards[1], &info);
		jw_init(&w, stdout);
		jw_obj_begin(&w, NULL);
		print_card_detail(stdout, &w, &cards[1], noinfo ? NULL : &info);
		jw_obj_end(&w);
		jw_end(&w);
	} else if (!strcmp(what, "--dump-table")) {
		print_cards_table(stdout, cards, 3);
	} else if (!strcmp(what, "--dump-text")) {
		fake_info_of(&cards[0], &info);
		print_card_detail(stdout, NULL, &cards[0], &info);
	} else {
		fprintf(stderr, "unit: unknown option %s\n", what);
		return 2;
	}
	return 0;
}

/* unit --pci ADDR [SYSFS_DIR]: what ipu__pci_query finds (libpci only when
 * SYSFS_DIR is left out). For checking on a machine with the card. */
static int pci_probe(const char *addr, const char *dir)
{
	struct ipu__pci *pci = ipu__pci_open();
	struct ipu__pci_link l;
	int r = ipu__pci_query(pci, addr, dir, &l);

	printf("r=%d speed='%s' width=%u speed_max='%s' width_max=%u numa=%d\n",
	       r, l.speed, l.width, l.speed_max, l.width_max, l.numa_node);
	ipu__pci_close(pci);
	return r ? 1 : 0;
}

/* The tests of the model table and of the user queue, in this file's
 * translation unit: the harness keeps its test list per unit. */
#include "models_tests.h"
#include "uqueue_tests.h"
#include "multi_model_tests.h"
#include "groups_tests.h"
#include "health_tools_tests.h"

/* The topologies unit --topo NAME VIEW shows (topo_data.h). */
static bool make_topo(const char *name, struct td *t)
{
	if (!strcmp(name, "m2000") || !strcmp(name, "m2000-rung-down")) {
		td_init(t, 4);
		td_ladder(t, false);
		if (!strcmp(name, "m2000-rung-down")) {
			td_set(t, 2, 0, IPU_LINK_DOWN);
			td_set(t, 2, 1, IPU_LINK_FAILED);
		}
	} else if (!strcmp(name, "pod16")) {
		td_init(t, 16);
		td_ladder(t, true);
		td_set(t, 5, 2, IPU_LINK_DOWN);
	} else if (!strcmp(name, "ring3")) {
		td_init(t, 3);
		td_ring(t);
		t->c[2]->ports[5].peer_port = 4;	/* to a card elsewhere */
		strcpy(t->c[2]->ports[5].peer_serial, "FAR-AWAY");
	} else if (!strcmp(name, "unwired")) {
		td_init(t, 4);		/* ports, no fabric */
	} else if (!strcmp(name, "nolinks")) {
		memset(t, 0, sizeof(*t));
		t->n = 2;
		t->c[0] = ipu__links_new(0, "IPU-SN-0000", 0);
		t->c[1] = ipu__links_new(1, "IPU-SN-0001", 0);
	} else {
		return false;
	}
	return true;
}

/*
 * unit --topo NAME VIEW: the tools' views (tools/topo_view.c) of topology
 * NAME (m2000, m2000-rung-down, pod16 with rail 5-7 down, ring3, unwired,
 * nolinks):
 * VIEW is devices, devices-json, detail (device 6), links, links-all,
 * links-json or ladder; "tree DIR" writes it as the driver's sysfs under
 * DIR (to try the tools and the VM test on a host, in a mount namespace).
 */
static int dump_topo(const char *name, const char *view, const char *dir)
{
	struct td t;
	struct ipu_topology *topo;
	struct channel ch[256];
	bool all = !strcmp(view, "links-all");
	size_t n;
	struct jw w;

	if (!make_topo(name, &t))
		return 2;
	topo = td_topology(&t);
	n = topo_channels(topo, -1, all, ch, 256);
	jw_init(&w, stdout);
	if (!strcmp(view, "devices")) {
		print_devices_list(stdout, topo, NULL, 0);
	} else if (!strcmp(view, "devices-json")) {
		jw_obj_begin(&w, NULL);
		print_devices_json(&w, topo);
		jw_obj_end(&w);
		jw_end(&w);
	} else if (!strcmp(view, "detail")) {
		print_group_detail(stdout, NULL, topo, ipu_topology_find_group(topo, 6));
		print_card_links_summary(stdout, NULL, ipu_topology_card_links(topo, 1));
	} else if (!strcmp(view, "links") || all) {
		print_links_table(stdout, topo, ch, n);
	} else if (!strcmp(view, "links-json")) {
		print_links_json(&w, topo, ch, n);
		jw_end(&w);
	} else if (!strcmp(view, "ladder")) {
		print_ladder(stdout, topo);
	} else if (!strcmp(view, "tree") && dir) {
		if (td_write_tree(&t, dir, true))
			fprintf(stderr, "unit: cannot write the tree under %s\n", dir);
	}
	ipu_topology_free(topo);
	td_free(&t);
	return 0;
}

/* No options run the tests; the others serve run.sh and a card's host. */
int main(int argc, char **argv)
{
	if (argc > 3 && !strcmp(argv[1], "--topo"))
		return dump_topo(argv[2], argv[3], argc > 4 ? argv[4] : NULL);
	if (argc > 2 && !strcmp(argv[1], "--pci"))
		return pci_probe(argv[2], argc > 3 ? argv[3] : NULL);
	if (argc > 1)
		return dump(argv[1]);
	return test_harness_run(argc, argv);
}
