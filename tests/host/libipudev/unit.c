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
#include "unit.h"

static int failures;

/* uqueue.c: the user queue's mechanics and the run path on a fake card */

void unit_result(bool ok, const char *name, const char *fmt, ...)
{
	char why[512] = "";

	if (fmt) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
	}
	if (ok)
		printf("ok %s\n", name);
	else
		printf("not ok %s # %s\n", name, why);
	failures += !ok;
}

static void skip(const char *name, const char *why)
{
	printf("ok %s # SKIP %s\n", name, why);
}

#define CHECK(name, cond, ...) \
	unit_result((cond), (name), __VA_ARGS__)

/* ---------------------------------------------------------------------- */

static void test_strerror(void)
{
	CHECK("strerror: negative errno",
	      !strcmp(ipu_strerror(-ENOENT), "No such file or directory"),
	      "got '%s'", ipu_strerror(-ENOENT));
	CHECK("strerror: positive errno",
	      !strcmp(ipu_strerror(EACCES), "Permission denied"),
	      "got '%s'", ipu_strerror(EACCES));
	CHECK("strerror: zero", !strcmp(ipu_strerror(0), "Success"),
	      "got '%s'", ipu_strerror(0));
	CHECK("strerror: unknown", !strcmp(ipu_strerror(-99999), "Unknown error"),
	      "got '%s'", ipu_strerror(-99999));
}

static void test_error_format(void)
{
	struct ipu_error e;
	char longname[600];
	int r;

	ipu_error_clear(NULL);
	memset(&e, 0x55, sizeof(e));
	ipu_error_clear(&e);
	CHECK("error: clear", e.code == 0 && e.msg[0] == '\0', "not cleared");

	r = ipu__err_sys(&e, -EACCES, "open %s", "/dev/ipu2");
	CHECK("error: err_sys format",
	      r == -EACCES && e.code == -EACCES &&
	      !strcmp(e.msg, "open /dev/ipu2: Permission denied"),
	      "r=%d code=%d msg='%s'", r, e.code, e.msg);

	r = ipu__err(NULL, -EIO, "x %d", 1);
	CHECK("error: NULL err allowed", r == -EIO, "r=%d", r);

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	memset(&e, 0x55, sizeof(e));
	r = ipu__err_sys(&e, -ENOENT, "open %s", longname);
	CHECK("error: long message truncated and terminated",
	      r == -ENOENT && strlen(e.msg) == sizeof(e.msg) - 1,
	      "len=%zu", strnlen(e.msg, sizeof(e.msg)));
}

static void test_names(void)
{
	uint32_t m = 0;

	CHECK("names: models",
	      !strcmp(ipu_model_name(IPU_MODEL_GC2), "gc2") &&
	      !strcmp(ipu_model_name(IPU_MODEL_GC200), "gc200") &&
	      !strcmp(ipu_model_name(IPU_MODEL_TEST), "test") &&
	      !strcmp(ipu_model_name(77), "unknown"), "wrong model name");
	CHECK("names: architectures",
	      !strcmp(ipu_model_arch(IPU_MODEL_GC2), "ipu1") &&
	      !strcmp(ipu_model_arch(IPU_MODEL_GC200), "ipu2") &&
	      !strcmp(ipu_model_arch(0), "unknown"), "wrong arch");
	CHECK("names: model from name",
	      ipu_model_from_name("GC200", &m) == 0 && m == IPU_MODEL_GC200 &&
	      ipu_model_from_name("gc9", &m) == -EINVAL &&
	      ipu_model_from_name(NULL, &m) == -EINVAL, "m=%u", m);
	CHECK("names: states",
	      !strcmp(ipu_state_name(IPU_STATE_READY), "ready") &&
	      !strcmp(ipu_state_name(IPU_STATE_FAILED), "failed") &&
	      !strcmp(ipu_state_name(IPU_STATE_UNKNOWN), "unknown") &&
	      !strcmp(ipu_state_name(42), "unknown"), "wrong state name");
	CHECK("names: state from name",
	      ipu_state_from_name("ready\n") == IPU_STATE_READY &&
	      ipu_state_from_name("initializing") == IPU_STATE_INITIALIZING &&
	      ipu_state_from_name("readyx") == IPU_STATE_UNKNOWN &&
	      ipu_state_from_name("") == IPU_STATE_UNKNOWN &&
	      ipu_state_from_name(NULL) == IPU_STATE_UNKNOWN, "mismatch");
	CHECK("names: version", !strcmp(ipu_version(), IPUDEV_VERSION_STRING),
	      "got %s", ipu_version());
}

static bool driver_present(void)
{
	struct stat st;

	return stat("/sys/class/ipu", &st) == 0;
}

static void test_args(void)
{
	struct ipu_error e;
	struct ipu_device *dev = (void *)1;
	struct ipu_device_info info;
	struct ipu_card *cards = (void *)1;
	size_t n = 7;
	int r;

	r = ipu_enumerate(NULL, &n, &e);
	CHECK("args: enumerate NULL cards", r == -EINVAL && e.code == -EINVAL &&
	      strstr(e.msg, "must not be NULL"), "r=%d msg='%s'", r, e.msg);
	r = ipu_enumerate(&cards, NULL, NULL);
	CHECK("args: enumerate NULL count, NULL err", r == -EINVAL, "r=%d", r);

	r = ipu_device_open(0, 0x80, &dev, &e);
	CHECK("args: open unknown flags",
	      r == -EINVAL && dev == NULL && strstr(e.msg, "unknown flags 0x80"),
	      "r=%d msg='%s'", r, e.msg);
	r = ipu_device_open(0, 0, NULL, &e);
	CHECK("args: open NULL out", r == -EINVAL, "r=%d", r);

	r = ipu_device_info(NULL, &info, &e);
	CHECK("args: info NULL dev", r == -EINVAL, "r=%d", r);
	r = ipu_device_reset(NULL, 0, 0, NULL, &e);
	CHECK("args: reset NULL dev", r == -EINVAL, "r=%d", r);
	ipu_device_close(NULL);
	ipu_cards_free(NULL);
	CHECK("args: close/free NULL", true, NULL);
	CHECK("args: id/name of NULL",
	      ipu_device_id(NULL) == 0 && !strcmp(ipu_device_name(NULL), ""),
	      "wrong");
}

static void test_no_driver(void)
{
	struct ipu_error e;
	struct ipu_card *cards = (void *)1;
	struct ipu_device *dev = (void *)1;
	size_t n = 7;
	int r;

	if (driver_present()) {
		skip("no driver: enumerate", "the ipu driver is loaded here");
		skip("no driver: open", "the ipu driver is loaded here");
		return;
	}
	r = ipu_enumerate(&cards, &n, &e);
	CHECK("no driver: enumerate",
	      r == -ENODEV && e.code == -ENODEV && cards == NULL && n == 0 &&
	      !strcmp(e.msg, "no IPU cards found: driver ipu.ko not loaded (/sys/class/ipu missing)"),
	      "r=%d msg='%s'", r, e.msg);
	r = ipu_device_open(2, IPU_OPEN_READONLY, &dev, &e);
	CHECK("no driver: open",
	      r == -ENODEV && dev == NULL &&
	      !strcmp(e.msg, "open ipu2: driver ipu.ko not loaded (/sys/class/ipu missing)"),
	      "r=%d msg='%s'", r, e.msg);
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

static void test_dispatch(void)
{
	struct fake f = { 0 };
	struct ipu_device *dev = NULL;
	struct ipu_device_info info;
	struct ipu_reset_result rr;
	struct ipu_error e;
	int r;

	r = ipu__device_new(&fake_ops, &f, 9, 0, "fake9", &dev, &e);
	if (r) {
		CHECK("dispatch: device_new", false, "r=%d", r);
		return;
	}
	CHECK("dispatch: id and name",
	      ipu_device_id(dev) == 9 && !strcmp(ipu_device_name(dev), "fake9"),
	      "id=%u", ipu_device_id(dev));

	memset(&info, 0x55, sizeof(info));
	r = ipu_device_info(dev, &info, &e);
	CHECK("dispatch: info", r == 0 && f.info_calls == 1 && info.tiles == 32 &&
	      info.id == 9 && !strcmp(info.backend, "fake") &&
	      info.reserved[0] == 0, "r=%d", r);

	r = ipu_device_reset(dev, IPU_RESET_TIMEOUT_MAX + 1, 0, &rr, &e);
	CHECK("dispatch: reset timeout above max",
	      r == -EINVAL && f.reset_calls == 0 && strstr(e.msg, "timeout 60001 ms"),
	      "r=%d msg='%s'", r, e.msg);
	r = ipu_device_reset(dev, 0, 0x10, &rr, &e);
	CHECK("dispatch: reset unknown flags",
	      r == -EINVAL && f.reset_calls == 0, "r=%d", r);
	r = ipu_device_reset(dev, 100, IPU_RESET_NOWAIT, &rr, &e);
	CHECK("dispatch: reset ok",
	      r == 0 && f.reset_calls == 1 && f.timeout == 100 &&
	      f.flags == IPU_RESET_NOWAIT && rr.state == IPU_STATE_READY &&
	      rr.reset_count == 5, "r=%d", r);
	r = ipu_device_reset(dev, 0, 0, NULL, &e);
	CHECK("dispatch: reset NULL result", r == 0, "r=%d", r);
	r = ipu_device_reset(dev, 1, 0, &rr, &e);
	CHECK("dispatch: reset error passes through",
	      r == -ETIMEDOUT && e.code == -ETIMEDOUT &&
	      !strcmp(e.msg, "reset fake9: too slow"), "r=%d msg='%s'", r, e.msg);
	dev->flags = IPU_OPEN_READONLY;
	r = ipu_device_reset(dev, 0, 0, &rr, &e);
	CHECK("dispatch: reset read-only is EPERM",
	      r == -EPERM && strstr(e.msg, "read-only"), "r=%d msg='%s'", r,
	      e.msg);
	r = ipu__no_slot(dev, "run", &e);
	CHECK("dispatch: missing slot",
	      r == -EOPNOTSUPP &&
	      !strcmp(e.msg, "run on fake9: not supported by the fake backend"),
	      "msg='%s'", e.msg);
	fake_closed = 0;
	ipu_device_close(dev);
	CHECK("dispatch: close calls ops->close", fake_closed == 1 + 3 + 100,
	      "closed=%d", fake_closed);
}

static void test_card_stubs(void)
{
	struct ipu_device *dev = NULL;
	struct ipu_error e;
	char buf[4];
	bool ok = true;
	int r;

	/* a card handle without an open file: every execution op says so */
	if (ipu__device_new(&ipu__card_ops, NULL, 3, 0, "ipu3", &dev, &e)) {
		CHECK("card: execution ops without a device", false, "device_new failed");
		return;
	}
	r = ipu__card_ops.load(dev, buf, sizeof(buf), &e);
	ok &= r == -ENODEV && !strcmp(e.msg, "load on ipu3: the device is not open");
	r = ipu__card_ops.tensor_write(dev, 0, 0, buf, 4, &e);
	ok &= r == -ENODEV && strstr(e.msg, "not open");
	r = ipu__card_ops.tensor_read(dev, 0, 0, buf, 4, &e);
	ok &= r == -ENODEV && strstr(e.msg, "not open");
	r = ipu__card_ops.run(dev, 0, 1, 1, &e);
	ok &= r == -ENODEV && strstr(e.msg, "not open");
	r = ipu__card_ops.wait(dev, 0, &e);
	ok &= r == -ENODEV && strstr(e.msg, "not open");
	CHECK("card: execution ops without a device say why", ok, "last msg='%s'", e.msg);
	ipu_device_close(dev);	/* priv NULL: must not crash */
}

static void test_pci(void)
{
	struct ipu__pci *pci = ipu__pci_open();
	struct ipu__pci_link l;
	int r;

	CHECK("pci: libpci opens", pci != NULL, "ipu__pci_open failed");
	r = ipu__pci_query(pci, "nonsense", NULL, &l);
	CHECK("pci: malformed address", r == -EINVAL, "r=%d", r);
	r = ipu__pci_query(pci, "0000:00:00.0x", NULL, &l);
	CHECK("pci: trailing garbage", r == -EINVAL, "r=%d", r);
	r = ipu__pci_query(pci, "ffff:ff:1f.7", "/nonexistent", &l);
	CHECK("pci: absent device is unknown, not fatal",
	      r == 0 && l.speed[0] == 0 && l.width == 0 && l.numa_node == -1,
	      "r=%d speed='%s' width=%u numa=%d", r, l.speed, l.width,
	      l.numa_node);
	r = ipu__pci_query(NULL, "0000:00:00.0", "/nonexistent", &l);
	CHECK("pci: no libpci context", r == 0 && l.numa_node == -1, "r=%d", r);
	CHECK("pci: speed names",
	      !strcmp(ipu__pcie_speed_name(4), "16.0 GT/s") &&
	      !strcmp(ipu__pcie_speed_name(3), "8.0 GT/s") &&
	      ipu__pcie_speed_name(0) == NULL && ipu__pcie_speed_name(15) == NULL,
	      "wrong");
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

static void test_json(void)
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
	bool ok = true;
	char *s;

	for (size_t i = 0; i < IPU__ARRAY_SIZE(cases); i++) {
		s = capture(write_str, cases[i].in);
		if (!s || strcmp(s, cases[i].out)) {
			CHECK("json: string escaping", false, "case %zu: got %s",
			      i, s ? s : "(null)");
			ok = false;
		}
		free(s);
	}
	if (ok)
		CHECK("json: string escaping", true, NULL);

	s = capture(write_doc, NULL);
	CHECK("json: writer layout",
	      s && !strcmp(s,
		"{\n"
		"  \"a\": \"x\",\n"
		"  \"empty\": [],\n"
		"  \"list\": [\n"
		"    1,\n"
		"    -2,\n"
		"    {\n"
		"      \"t\": true,\n"
		"      \"n\": null\n"
		"    }\n"
		"  ],\n"
		"  \"d\": 1.500,\n"
		"  \"nul\": null\n"
		"}\n"), "got:\n%s", s ? s : "(null)");
	free(s);
}

static void test_parse_format(void)
{
	unsigned v = 0;
	char buf[32];

	CHECK("tools: parse_uint",
	      tool_parse_uint("12", 100, &v) == 0 && v == 12 &&
	      tool_parse_uint("0", 0, &v) == 0 && v == 0 &&
	      tool_parse_uint("", 100, &v) == -EINVAL &&
	      tool_parse_uint(NULL, 100, &v) == -EINVAL &&
	      tool_parse_uint("-1", 100, &v) == -EINVAL &&
	      tool_parse_uint(" 1", 100, &v) == -EINVAL &&
	      tool_parse_uint("1x", 100, &v) == -EINVAL &&
	      tool_parse_uint("101", 100, &v) == -ERANGE &&
	      tool_parse_uint("99999999999999999999999", 100, &v) == -ERANGE,
	      "v=%u", v);
	tool_format_bytes(940572672, buf, sizeof(buf));
	CHECK("tools: bytes gc200", !strcmp(buf, "897 MiB"), "got %s", buf);
	tool_format_bytes(638976, buf, sizeof(buf));
	CHECK("tools: bytes tile", !strcmp(buf, "624 KiB"), "got %s", buf);
	tool_format_bytes(32 * 65536, buf, sizeof(buf));
	CHECK("tools: bytes test model", !strcmp(buf, "2 MiB"), "got %s", buf);
	tool_format_bytes(1536, buf, sizeof(buf));
	CHECK("tools: bytes fraction", !strcmp(buf, "1.5 KiB"), "got %s", buf);
	tool_format_bytes(100, buf, sizeof(buf));
	CHECK("tools: bytes small", !strcmp(buf, "100 B"), "got %s", buf);
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

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "--pci"))
		return pci_probe(argv[2], argc > 3 ? argv[3] : NULL);
	if (argc > 1)
		return dump(argv[1]);
	test_strerror();
	test_error_format();
	test_names();
	models_tests();
	test_args();
	test_no_driver();
	test_dispatch();
	test_card_stubs();
	test_pci();
	test_json();
	test_parse_format();
	uqueue_tests();
	return failures ? 1 : 0;
}
