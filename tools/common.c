// SPDX-License-Identifier: MIT
/*
 * Helpers shared by the ipu-* tools.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ipu/ipu_models.h"

int tool_parse_uint(const char *s, unsigned max, unsigned *out)
{
	unsigned long long v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = v * 10 + (unsigned)(*p - '0');
		if (v > max)
			return -ERANGE;
	}
	*out = (unsigned)v;
	return 0;
}

const char *tool_model_names(void)
{
	static char names[128];

	return ipu_model_names(names, sizeof(names));
}

int tool_no_cards(const char *prog, const struct ipu_error *e)
{
	fprintf(stderr, "%s: %s\n", prog, e->msg);
	if (e->code != -ENODEV)
		return EXIT_RUNTIME;
	if (strstr(e->msg, "not loaded"))
		fprintf(stderr, "%s: " TOOL_HINT_NO_DRIVER "\n", prog);
	else
		fprintf(stderr,
			"%s: no IPU found: is a card present? (lspci -d 1ee7:)\n",
			prog);
	return EXIT_NODEV;
}

int tool_error(struct ipu_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

void tool_format_bytes(uint64_t bytes, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	unsigned u = 0;

	while (v >= 1024.0 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%" PRIu64 " B", bytes);
	else if (v == (double)(uint64_t)v || v >= 100.0)
		snprintf(buf, size, "%.0f %s", v, units[u]);
	else
		snprintf(buf, size, "%.1f %s", v, units[u]);
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                     */

/* Length of the valid UTF-8 sequence at s, 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		unsigned c = *s;
		size_t n;

		switch (c) {
		case '"': fputs("\\\"", f); s++; continue;
		case '\\': fputs("\\\\", f); s++; continue;
		case '\b': fputs("\\b", f); s++; continue;
		case '\f': fputs("\\f", f); s++; continue;
		case '\n': fputs("\\n", f); s++; continue;
		case '\r': fputs("\\r", f); s++; continue;
		case '\t': fputs("\\t", f); s++; continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			s++;
			continue;
		}
		n = utf8_len(s);
		if (!n) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

void jw_init(struct jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->first[0] = true;
}

static void jw_indent(struct jw *w)
{
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Comma, newline, indentation and "key": before a value. */
static void jw_pre(struct jw *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->f);
		fputc('\n', w->f);
		jw_indent(w);
	}
	w->first[w->depth] = false;
	if (key) {
		json_write_string(w->f, key);
		fputs(": ", w->f);
	}
}

static void jw_open(struct jw *w, const char *key, char c)
{
	jw_pre(w, key);
	fputc(c, w->f);
	if (w->depth + 1 < JW_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

static void jw_close(struct jw *w, char c)
{
	bool empty = w->first[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (!empty) {
		fputc('\n', w->f);
		jw_indent(w);
	}
	fputc(c, w->f);
}

void jw_obj_begin(struct jw *w, const char *key) { jw_open(w, key, '{'); }
void jw_obj_end(struct jw *w) { jw_close(w, '}'); }
void jw_arr_begin(struct jw *w, const char *key) { jw_open(w, key, '['); }
void jw_arr_end(struct jw *w) { jw_close(w, ']'); }

void jw_str(struct jw *w, const char *key, const char *v)
{
	jw_pre(w, key);
	if (v)
		json_write_string(w->f, v);
	else
		fputs("null", w->f);
}

void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_pre(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void jw_i64(struct jw *w, const char *key, int64_t v)
{
	jw_pre(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void jw_double(struct jw *w, const char *key, double v)
{
	jw_pre(w, key);
	if (v != v || v > 1e300 || v < -1e300)
		fputs("null", w->f);	/* JSON has no NaN/inf */
	else
		fprintf(w->f, "%.3f", v);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_pre(w, key);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w, const char *key)
{
	jw_pre(w, key);
	fputs("null", w->f);
}

void jw_end(struct jw *w)
{
	fputc('\n', w->f);
	fflush(w->f);
}

/* ------------------------------------------------------------------------ */
/* Card printers                                                            */

static const char *or_na(const char *s)
{
	return s && *s ? s : "n/a";
}

/* Text output: control and non-ASCII bytes (from sysfs or the card)
 * become '?'. */
static void clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

static const char *card_model(const struct ipu_card *c)
{
	return c->model ? ipu_model_name(c->model) : or_na(c->model_name);
}

static const char *card_state(const struct ipu_card *c)
{
	return c->state != IPU_STATE_UNKNOWN ? ipu_state_name(c->state)
					     : or_na(c->state_name);
}

static void link_string(const char *speed, unsigned width, char *buf,
			size_t size)
{
	if (*speed && width)
		snprintf(buf, size, "%s x%u", speed, width);
	else if (*speed)
		snprintf(buf, size, "%s", speed);
	else if (width)
		snprintf(buf, size, "x%u", width);
	else
		snprintf(buf, size, "n/a");
}

enum { COL_ID, COL_PCI, COL_MODEL, COL_SERIAL, COL_TILES, COL_MEM, COL_FW,
       COL_DRV, COL_STATE, COL_LINK, COL_NUMA, NCOLS };

static const char *const col_names[NCOLS] = {
	"ID", "PCI", "MODEL", "SERIAL", "TILES", "MEMORY", "FIRMWARE",
	"DRIVER", "STATE", "PCIE LINK", "NUMA",
};

static void card_row(const struct ipu_card *c, char cells[NCOLS][80])
{
	snprintf(cells[COL_ID], 80, "%u", c->id);
	snprintf(cells[COL_PCI], 80, "%s", or_na(c->pci_address));
	snprintf(cells[COL_MODEL], 80, "%s", card_model(c));
	snprintf(cells[COL_SERIAL], 80, "%s", or_na(c->serial));
	snprintf(cells[COL_TILES], 80, "%u", c->tiles);
	tool_format_bytes(c->total_memory, cells[COL_MEM], 80);
	snprintf(cells[COL_FW], 80, "%s", or_na(c->firmware_version));
	snprintf(cells[COL_DRV], 80, "%s", or_na(c->driver_version));
	snprintf(cells[COL_STATE], 80, "%s", card_state(c));
	link_string(c->link_speed, c->link_width, cells[COL_LINK], 80);
	if (c->numa_node >= 0)
		snprintf(cells[COL_NUMA], 80, "%d", c->numa_node);
	else
		snprintf(cells[COL_NUMA], 80, "-");
	for (int i = 0; i < NCOLS; i++)
		clean(cells[i]);
}

static void table_cell(FILE *f, const char *s, size_t width, bool last)
{
	if (last)
		fprintf(f, "%s\n", s);
	else
		fprintf(f, "%-*s  ", (int)width, s);
}

void print_cards_table(FILE *f, const struct ipu_card *cards, size_t n)
{
	size_t width[NCOLS];
	char cells[NCOLS][80];

	for (int i = 0; i < NCOLS; i++)
		width[i] = strlen(col_names[i]);
	for (size_t k = 0; k < n; k++) {
		card_row(&cards[k], cells);
		for (int i = 0; i < NCOLS; i++)
			if (strlen(cells[i]) > width[i])
				width[i] = strlen(cells[i]);
	}
	for (int i = 0; i < NCOLS; i++)
		table_cell(f, col_names[i], width[i], i + 1 == NCOLS);
	for (size_t k = 0; k < n; k++) {
		card_row(&cards[k], cells);
		for (int i = 0; i < NCOLS; i++)
			table_cell(f, cells[i], width[i], i + 1 == NCOLS);
	}
}

static void jw_hex16(struct jw *w, const char *key, uint16_t v)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "0x%04x", v);
	jw_str(w, key, buf);
}

void print_card_json_members(struct jw *w, const struct ipu_card *c)
{
	jw_u64(w, "id", c->id);
	jw_str(w, "name", c->name);
	jw_str(w, "device_node", or_null(c->devnode));
	jw_str(w, "pci_address", or_null(c->pci_address));
	jw_hex16(w, "pci_vendor", c->vendor_id);
	jw_hex16(w, "pci_device", c->device_id);
	jw_str(w, "model", or_null(card_model(c)));
	jw_str(w, "architecture", ipu_model_arch(c->model));
	jw_str(w, "serial", or_null(c->serial));
	jw_u64(w, "tiles", c->tiles);
	jw_u64(w, "tile_memory", c->tile_memory);
	jw_u64(w, "total_memory", c->total_memory);
	jw_str(w, "firmware_version", or_null(c->firmware_version));
	jw_str(w, "driver_version", or_null(c->driver_version));
	jw_str(w, "state", card_state(c));
	jw_u64(w, "card_index", c->card_index);
	jw_u64(w, "reset_count", c->reset_count);
	jw_str(w, "link_speed", or_null(c->link_speed));
	if (c->link_width)
		jw_u64(w, "link_width", c->link_width);
	else
		jw_null(w, "link_width");
	if (c->numa_node >= 0)
		jw_i64(w, "numa_node", c->numa_node);
	else
		jw_null(w, "numa_node");
}

/* One line "key: value", or a JSON member. */
struct out {
	FILE *f;
	struct jw *w;
};

static void kv_str(struct out *o, const char *label, const char *key,
		   const char *v)
{
	char buf[IPU_CARD_STR_MAX * 2];

	if (o->w) {
		jw_str(o->w, key, or_null(v));
	} else {
		snprintf(buf, sizeof(buf), "%s", or_na(v));
		clean(buf);
		fprintf(o->f, "%s: %s\n", label, buf);
	}
}

static void kv_u64(struct out *o, const char *label, const char *key,
		   uint64_t v, bool known, const char *suffix)
{
	if (o->w) {
		if (known)
			jw_u64(o->w, key, v);
		else
			jw_null(o->w, key);
	} else if (known) {
		fprintf(o->f, "%s: %" PRIu64 "%s\n", label, v,
			suffix ? suffix : "");
	} else {
		fprintf(o->f, "%s: n/a\n", label);
	}
}

/* "MAJOR.MINOR" of a version that is major << 16 | minor; "" for 0 (none). */
static void format_version(char *buf, size_t size, uint32_t v)
{
	if (v)
		snprintf(buf, size, "%u.%u", v >> 16, v & 0xffff);
	else
		buf[0] = '\0';
}

void print_card_detail(FILE *f, struct jw *w, const struct ipu_card *c,
		       const struct ipu_device_info *info)
{
	struct out o = { f, w };
	char buf[96], sz[32];
	uint32_t model = info ? info->model : c->model;
	const struct ipu_model *m = ipu_model_by_id(model);
	int state = info ? info->state : c->state;

	kv_u64(&o, "id", "id", c->id, true, NULL);
	kv_str(&o, "device node", "device_node", c->devnode);
	kv_str(&o, "board serial number", "board_serial_number",
	       info && info->serial[0] ? info->serial : c->serial);
	snprintf(buf, sizeof(buf), "%s PCIe card (emulated)",
		 m ? m->board : "unknown");
	kv_str(&o, "board type", "board_type", buf);
	kv_str(&o, "model", "model",
	       model ? ipu_model_name(model) : c->model_name);
	kv_str(&o, "ipu architecture", "ipu_architecture", ipu_model_arch(model));
	kv_str(&o, "firmware version", "firmware_version",
	       info ? info->firmware_version : c->firmware_version);
	kv_str(&o, "driver version", "driver_version",
	       info && info->driver_version[0] ? info->driver_version
					       : c->driver_version);
	format_version(buf, sizeof(buf), info ? info->api_version : 0);
	kv_str(&o, "driver api version", "driver_api_version", buf);
	format_version(buf, sizeof(buf), info ? info->hw_version : 0);
	kv_str(&o, "card interface version", "card_interface_version", buf);
	if (w) {
		kv_u64(&o, "", "clock_khz", info ? info->clock_khz : 0,
		       info && info->clock_khz, NULL);
	} else {
		if (info && info->clock_khz)
			snprintf(buf, sizeof(buf), "%uMHz",
				 info->clock_khz / 1000);
		else
			buf[0] = '\0';
		kv_str(&o, "clock", "clock", buf);
	}
	kv_str(&o, "link speed", "link_speed", c->link_speed);
	kv_u64(&o, "link width", "link_width", c->link_width,
	       c->link_width != 0, NULL);
	kv_str(&o, "link speed max", "link_speed_max", c->link_speed_max);
	kv_u64(&o, "link width max", "link_width_max", c->link_width_max,
	       c->link_width_max != 0, NULL);
	if (w) {
		if (c->numa_node >= 0)
			jw_i64(w, "numa_node", c->numa_node);
		else
			jw_null(w, "numa_node");
	} else if (c->numa_node >= 0) {
		fprintf(f, "numa node: %d\n", c->numa_node);
	} else {
		fprintf(f, "numa node: n/a\n");
	}
	kv_str(&o, "pci id", "pci_id", c->pci_address);
	snprintf(buf, sizeof(buf), "%04x:%04x", c->vendor_id, c->device_id);
	kv_str(&o, "pci vendor:device", "pci_vendor_device", buf);
	kv_u64(&o, "card index", "card_index",
	       info ? info->card_index : c->card_index, true, NULL);
	kv_u64(&o, "tiles", "tiles", info ? info->tiles : c->tiles, true, NULL);
	{
		uint64_t tm = info ? info->tile_memory : c->tile_memory;
		uint64_t tot = info ? info->total_memory : c->total_memory;

		tool_format_bytes(tm, sz, sizeof(sz));
		snprintf(buf, sizeof(buf), " bytes (%s)", sz);
		kv_u64(&o, "tile memory", "tile_memory", tm, true, buf);
		tool_format_bytes(tot, sz, sizeof(sz));
		snprintf(buf, sizeof(buf), " bytes (%s)", sz);
		kv_u64(&o, "total memory", "total_memory", tot, true, buf);
	}
	kv_u64(&o, "threads per tile", "threads_per_tile",
	       info ? info->threads_per_tile : 0,
	       info && info->threads_per_tile, NULL);
	kv_u64(&o, "threads", "threads",
	       info ? (uint64_t)info->threads_per_tile * info->tiles : 0,
	       info && info->threads_per_tile, NULL);
	kv_u64(&o, "ipu-link ports", "ipu_link_ports",
	       info ? info->link_ports : 0, info != NULL, NULL);
	kv_str(&o, "state", "state",
	       state != IPU_STATE_UNKNOWN ? ipu_state_name(state)
					  : c->state_name);
	kv_u64(&o, "reset count", "reset_count",
	       info ? info->reset_count : c->reset_count, true, NULL);
	if (info)
		snprintf(buf, sizeof(buf), "0x%" PRIx64, info->capabilities);
	else
		buf[0] = '\0';
	kv_str(&o, "capabilities", "capabilities", buf);
}

int tool_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
	return EXIT_USAGE;
}

int tool_bad_option(const char *prog, int c, char **argv)
{
	if (c == ':')
		return tool_usage_error(prog, "option '%s' needs an argument",
					argv[optind - 1]);
	if (optopt)
		return tool_usage_error(prog, "unknown option '-%c'", optopt);
	return tool_usage_error(prog, "unknown option '%s'", argv[optind - 1]);
}

int tool_parse_card_id(const char *prog, const char *arg, unsigned *id)
{
	if (tool_parse_uint(arg, 0xffffffu, id)) {
		fprintf(stderr, "%s: invalid card id '%s'\n", prog, arg);
		return EXIT_USAGE;
	}
	return TOOL_CONTINUE;
}

int tool_open_device_id(unsigned id, unsigned flags, struct ipu_device **d,
			unsigned *ipus, struct ipu_error *err)
{
	const struct ipu_group_info *gi;
	struct ipu_topology *topo;
	struct ipu_error gerr = { 0, "" };
	int r = ipu_device_open(id, flags, d, err);

	*ipus = 1;
	if (r != -ENODEV || ipu_topology_read(0, &topo, &gerr))
		return r;
	/* a single IPU of another number is not "card @id": keep its error */
	gi = ipu_topology_find_group(topo, id);
	if (!gi && id >= ipu_topology_num_cards(topo))
		r = ipu_topology_check_group(topo, id, err);
	if (gi && ipu_group_info_size(gi) > 1) {
		*ipus = ipu_group_info_size(gi);
		r = ipu_group_device_open(id, flags | IPU_OPEN_ATTACH, d, err);
	}
	ipu_topology_free(topo);
	return r;
}

void tool_print_version(const char *prog)
{
	printf("%s (libipudev) %s\n", prog, ipu_version());
}

int tool_other_option(const char *prog, int opt, char **argv,
		      void (*usage)(FILE *f))
{
	switch (opt) {
	case 'h':
		usage(stdout);
		return EXIT_OK;
	case 'V':
		tool_print_version(prog);
		return EXIT_OK;
	default:
		return tool_bad_option(prog, opt, argv);
	}
}

int tool_no_operands(const char *prog, int argc, char **argv)
{
	if (optind < argc)
		return tool_usage_error(prog, "unexpected argument '%s'",
					argv[optind]);
	return TOOL_CONTINUE;
}

const struct ipu_card *tool_find_card(const struct ipu_card *cards, size_t n,
				      unsigned id)
{
	for (size_t i = 0; i < n; i++)
		if (cards[i].id == id)
			return &cards[i];
	return NULL;
}

int tool_no_such_card(const char *prog, unsigned id,
		      const struct ipu_card *cards, size_t n)
{
	fprintf(stderr, "%s: no IPU with id %u (found:", prog, id);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %u", cards[i].id);
	fprintf(stderr, ")\n");
	return EXIT_NODEV;
}

int tool_finish_stdout(const char *prog, int ret)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		return EXIT_RUNTIME;
	}
	return ret;
}
