// SPDX-License-Identifier: MIT
/*
 * ipu-info's health and telemetry of a card (card_health.h): sysfs of the
 * ipu class device and the hwmon device under its PCI device.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "card_health.h"

/* The first line of @dir/@name into @buf, newline dropped: 0 or -1. */
static int read_line(const char *dir, const char *name, char *buf,
		     size_t len)
{
	char path[768];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* A decimal number at @dir/@name: true when it read as one. */
static bool read_i64(const char *dir, const char *name, int64_t *v)
{
	char buf[64], *end;

	if (read_line(dir, name, buf, sizeof(buf)) || !buf[0])
		return false;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return !errno && !*end;
}

static bool read_u64(const char *dir, const char *name, uint64_t *v)
{
	int64_t s;

	if (!read_i64(dir, name, &s) || s < 0)
		return false;
	*v = (uint64_t)s;
	return true;
}

/* The hwmon directory of the card's PCI device into @dir: 0 or -1. */
static int find_hwmon(const char *syspath, char *dir, size_t len)
{
	char path[512];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/device/hwmon", syspath);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "hwmon", 5))
			break;
	if (e)
		snprintf(dir, len, "%s/%s", path, e->d_name);
	closedir(d);
	return e ? 0 : -1;
}

/* "PID UID COMM" (docs/uapi.md `holder`), or an empty line. */
static void read_holder(const char *syspath, struct card_health *h)
{
	char buf[128], *end;
	struct passwd *pw;
	long pid;
	unsigned long uid;

	if (read_line(syspath, "holder", buf, sizeof(buf)) || !buf[0])
		return;
	pid = strtol(buf, &end, 10);
	if (*end != ' ' || pid <= 0)
		return;
	uid = strtoul(end + 1, &end, 10);
	if (*end != ' ')
		return;
	h->held = true;
	h->pid = (pid_t)pid;
	h->uid = (unsigned)uid;
	snprintf(h->comm, sizeof(h->comm), "%s", end + 1);
	pw = getpwuid((uid_t)uid);
	if (pw)
		snprintf(h->user, sizeof(h->user), "%s", pw->pw_name);
	else
		snprintf(h->user, sizeof(h->user), "%lu", uid);
}

void card_health_read(const struct ipu_card *c, struct card_health *h)
{
	const char *sp = c->syspath;
	char hw[1024];
	int64_t v;

	memset(h, 0, sizeof(*h));
	if (!find_hwmon(sp, hw, sizeof(hw))) {
		h->have_temp = read_i64(hw, "temp1_input", &h->temp_mc);
		h->have_temp_max = read_i64(hw, "temp1_max", &h->temp_max_mc);
		h->have_temp_crit = read_i64(hw, "temp1_crit",
					     &h->temp_crit_mc);
		h->have_power = read_u64(hw, "power1_input", &h->power_uw);
	}
	if (read_i64(sp, "utilisation", &v) && v >= 0 && v <= 100) {
		h->have_util = true;
		h->util = (unsigned)v;
	}
	if (read_line(sp, "health", h->health, sizeof(h->health)))
		h->health[0] = '\0';
	h->have_errors = read_u64(sp, "errors_dma", &h->err_dma) &&
			 read_u64(sp, "errors_ring", &h->err_ring) &&
			 read_u64(sp, "errors_fatal", &h->err_fatal);
	h->have_recoveries = read_u64(sp, "recoveries", &h->recoveries);
	read_holder(sp, h);
}

/* A milli-unit as "41.3" into @buf. */
static void milli(int64_t v, const char *unit, char *buf, size_t len)
{
	snprintf(buf, len, "%s%" PRId64 ".%" PRId64 "%s", v < 0 ? "-" : "",
		 (v < 0 ? -v : v) / 1000, ((v < 0 ? -v : v) % 1000) / 100,
		 unit);
}

static void kv_text(FILE *f, const char *label, bool known, const char *v)
{
	fprintf(f, "%s: %s\n", label, known && *v ? v : "n/a");
}

static void kv_num(FILE *f, struct jw *w, const char *label, const char *key,
		   bool known, int64_t v)
{
	char buf[32];

	if (w) {
		if (known)
			jw_i64(w, key, v);
		else
			jw_null(w, key);
		return;
	}
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	kv_text(f, label, known, buf);
}

void print_card_health(FILE *f, struct jw *w, const struct card_health *h)
{
	char buf[48];

	if (w) {
		kv_num(f, w, NULL, "die_temp_mc", h->have_temp, h->temp_mc);
		kv_num(f, w, NULL, "die_temp_max_mc", h->have_temp_max,
		       h->temp_max_mc);
		kv_num(f, w, NULL, "die_temp_crit_mc", h->have_temp_crit,
		       h->temp_crit_mc);
		kv_num(f, w, NULL, "ipu_power_uw", h->have_power,
		       (int64_t)h->power_uw);
		kv_num(f, w, NULL, "ipu_utilisation", h->have_util, h->util);
		jw_str(w, "ipu_health", h->health[0] ? h->health : NULL);
	} else {
		milli(h->temp_mc, "C", buf, sizeof(buf));
		kv_text(f, "average die temp", h->have_temp, buf);
		milli(h->temp_max_mc, "C", buf, sizeof(buf));
		kv_text(f, "die temp max", h->have_temp_max, buf);
		milli(h->temp_crit_mc, "C", buf, sizeof(buf));
		kv_text(f, "die temp critical", h->have_temp_crit, buf);
		milli((int64_t)(h->power_uw / 1000), "W", buf, sizeof(buf));
		kv_text(f, "ipu power", h->have_power, buf);
		snprintf(buf, sizeof(buf), "%u%%", h->util);
		kv_text(f, "ipu utilisation", h->have_util, buf);
		kv_text(f, "ipu health", true, h->health);
	}
	kv_num(f, w, "dma errors", "errors_dma", h->have_errors,
	       (int64_t)h->err_dma);
	kv_num(f, w, "ring errors", "errors_ring", h->have_errors,
	       (int64_t)h->err_ring);
	kv_num(f, w, "fatal errors", "errors_fatal", h->have_errors,
	       (int64_t)h->err_fatal);
	kv_num(f, w, "recoveries", "recoveries", h->have_recoveries,
	       (int64_t)h->recoveries);
	kv_num(f, w, "user process id", "user_process_id", h->held, h->pid);
	kv_num(f, w, "user id", "user_id", h->held, h->uid);
	if (w) {
		jw_str(w, "user_name", h->held ? h->user : NULL);
		jw_str(w, "user_command", h->held ? h->comm : NULL);
	} else {
		kv_text(f, "user name", h->held, h->user);
		kv_text(f, "user command", h->held, h->comm);
	}
}

enum { H_ID, H_MODEL, H_TEMP, H_POWER, H_UTIL, H_HEALTH, H_ERRORS, H_REC,
       H_PID, H_USER, H_COMM, H_NCOLS };

static const char *const h_names[H_NCOLS] = {
	"ID", "MODEL", "TEMP", "POWER", "UTIL", "HEALTH", "ERRORS(D/R/F)",
	"RECOVERIES", "PID", "USER", "COMMAND",
};

static void health_row(const struct ipu_card *c, const struct card_health *h,
		       char cells[H_NCOLS][64])
{
	const char *na = "-";

	snprintf(cells[H_ID], 64, "%u", c->id);
	snprintf(cells[H_MODEL], 64, "%s", c->model_name[0] ? c->model_name
							      : na);
	if (h->have_temp)
		milli(h->temp_mc, "C", cells[H_TEMP], 64);
	else
		snprintf(cells[H_TEMP], 64, "%s", na);
	if (h->have_power)
		milli((int64_t)(h->power_uw / 1000), "W", cells[H_POWER], 64);
	else
		snprintf(cells[H_POWER], 64, "%s", na);
	if (h->have_util)
		snprintf(cells[H_UTIL], 64, "%u%%", h->util);
	else
		snprintf(cells[H_UTIL], 64, "%s", na);
	snprintf(cells[H_HEALTH], 64, "%s", h->health[0] ? h->health : na);
	if (h->have_errors)
		snprintf(cells[H_ERRORS], 64, "%" PRIu64 "/%" PRIu64 "/%" PRIu64,
			 h->err_dma, h->err_ring, h->err_fatal);
	else
		snprintf(cells[H_ERRORS], 64, "%s", na);
	if (h->have_recoveries)
		snprintf(cells[H_REC], 64, "%" PRIu64, h->recoveries);
	else
		snprintf(cells[H_REC], 64, "%s", na);
	snprintf(cells[H_PID], 64, "%s", na);
	snprintf(cells[H_USER], 64, "%s", na);
	snprintf(cells[H_COMM], 64, "%s", na);
	if (h->held) {
		snprintf(cells[H_PID], 64, "%d", (int)h->pid);
		snprintf(cells[H_USER], 64, "%s", h->user);
		snprintf(cells[H_COMM], 64, "%s", h->comm);
	}
}

void print_health_table(FILE *f, const struct ipu_card *cards,
			const struct card_health *hs, size_t n)
{
	size_t width[H_NCOLS];
	char cells[H_NCOLS][64];

	for (int i = 0; i < H_NCOLS; i++)
		width[i] = strlen(h_names[i]);
	for (size_t k = 0; k < n; k++) {
		health_row(&cards[k], &hs[k], cells);
		for (int i = 0; i < H_NCOLS; i++)
			if (strlen(cells[i]) > width[i])
				width[i] = strlen(cells[i]);
	}
	for (size_t k = 0; k <= n; k++) {
		if (k)
			health_row(&cards[k - 1], &hs[k - 1], cells);
		for (int i = 0; i < H_NCOLS; i++) {
			const char *s = k ? cells[i] : h_names[i];

			if (i + 1 == H_NCOLS)
				fprintf(f, "%s\n", s);
			else
				fprintf(f, "%-*s  ", (int)width[i], s);
		}
	}
}
