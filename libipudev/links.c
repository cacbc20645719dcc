// SPDX-License-Identifier: MIT
/*
 * libipudev: one card's IPU-Links, read from the driver's sysfs
 * (/sys/class/ipu/ipuN/{serial,fabric_index,links/portP/...}, docs/uapi.md),
 * and the getters of struct ipu_links and struct ipu_link_info.
 *
 * The class directory is a parameter inside the library so that host tests
 * read trees of the same shape that they write themselves.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "topology.h"

/* A sysfs value is short; anything longer breaks the format. */
#define VALUE_MAX	128

static const char *const link_state_names[] = {
	[IPU_LINK_DOWN] = "down",
	[IPU_LINK_TRAINING] = "training",
	[IPU_LINK_UP] = "up",
	[IPU_LINK_FAILED] = "failed",
};

IPU_API const char *ipu_link_state_name(int state)
{
	if (state >= 0 && (size_t)state < IPU__ARRAY_SIZE(link_state_names))
		return link_state_names[state];
	return "unknown";
}

IPU_API int ipu_link_state_from_name(const char *name)
{
	int i = ipu__word_index(link_state_names,
				IPU__ARRAY_SIZE(link_state_names), name);

	return i < 0 ? IPU_LINK_UNKNOWN : i;
}

struct ipu_links *ipu__links_new(unsigned card, const char *serial,
				 unsigned nports)
{
	struct ipu_links *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	if (nports) {
		l->ports = calloc(nports, sizeof(*l->ports));
		if (!l->ports) {
			free(l);
			return NULL;
		}
	}
	l->card = card;
	l->fabric_index = -1;
	l->nports = nports;
	ipu__strlcpy(l->serial, serial ? serial : "", sizeof(l->serial));
	for (unsigned p = 0; p < nports; p++) {
		l->ports[p].port = p;
		l->ports[p].state = IPU_LINK_DOWN;
		l->ports[p].peer_port = -1;
	}
	return l;
}

IPU_API void ipu_links_free(struct ipu_links *links)
{
	if (!links)
		return;
	free(links->ports);
	free(links);
}

/*
 * Read @dir/@name into @buf without its trailing newline. Returns 0,
 * -ENOENT when the file does not exist, -EPROTO when it is too long, or the
 * errno of the read (all reported but -ENOENT, which callers decide on).
 */
static int read_value(const char *dir, const char *name, char *buf,
		      size_t size, struct ipu_error *err)
{
	char path[512];
	FILE *f;
	size_t n;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ENOENT :
			ipu__err_sys(err, -errno, "read %s", path);
	n = fread(buf, 1, size, f);
	if (ferror(f))
		ret = ipu__err_sys(err, -EIO, "read %s", path);
	else if (n == size)
		ret = ipu__err(err, -EPROTO, "read %s: value longer than %zu bytes",
			       path, size - 1);
	fclose(f);
	if (ret)
		return ret;
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* A malformed value of @dir/@name: -EPROTO naming the file and the value. */
static int bad_value(struct ipu_error *err, const char *dir, const char *name,
		     const char *value, const char *want)
{
	return ipu__err(err, -EPROTO, "%s/%s: '%s' is not %s", dir, name,
			value, want);
}

/* A decimal number not above @max, nothing else. */
static bool parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > max)
		return false;
	*v = x;
	return true;
}

/* Read @dir/@name as a decimal number not above @max. */
static int read_number(const char *dir, const char *name, uint64_t max,
		       uint64_t *v, struct ipu_error *err)
{
	char buf[VALUE_MAX];
	int ret = read_value(dir, name, buf, sizeof(buf), err);

	if (ret == -ENOENT)
		return ipu__err(err, -EPROTO, "%s/%s is missing", dir, name);
	if (ret)
		return ret;
	if (!parse_u64(buf, max, v))
		return bad_value(err, dir, name, buf, "a decimal number");
	return 0;
}

/* "SERIAL:PORT" (the serial is all before the last ':') or "none". */
static int parse_peer(const char *dir, const char *buf,
		      struct ipu_link_info *li, struct ipu_error *err)
{
	const char *colon = strrchr(buf, ':');
	uint64_t port;

	if (!strcmp(buf, "none"))
		return 0;
	if (!colon || colon == buf ||
	    (size_t)(colon - buf) >= sizeof(li->peer_serial) ||
	    !parse_u64(colon + 1, INT32_MAX, &port))
		return bad_value(err, dir, "peer", buf, "SERIAL:PORT or none");
	memcpy(li->peer_serial, buf, (size_t)(colon - buf));
	li->peer_serial[colon - buf] = '\0';
	li->peer_port = (int)port;
	return 0;
}

/* The six files of one port directory. */
static int read_port(const char *dir, struct ipu_link_info *li,
		     struct ipu_error *err)
{
	char buf[VALUE_MAX];
	uint64_t v[3];
	char *sp;
	int ret;

	ret = read_value(dir, "state", buf, sizeof(buf), err);
	if (ret == -ENOENT)
		return ipu__err(err, -EPROTO, "%s/state is missing", dir);
	if (ret)
		return ret;
	li->state = ipu_link_state_from_name(buf);
	if (li->state == IPU_LINK_UNKNOWN)
		return bad_value(err, dir, "state", buf,
				 "down, training, up or failed");

	ret = read_value(dir, "peer", buf, sizeof(buf), err);
	if (ret == -ENOENT)
		return ipu__err(err, -EPROTO, "%s/peer is missing", dir);
	if (ret || (ret = parse_peer(dir, buf, li, err)))
		return ret;

	if ((ret = read_number(dir, "generation", UINT32_MAX, &v[0], err)) ||
	    (ret = read_number(dir, "lanes", UINT32_MAX, &v[1], err)) ||
	    (ret = read_number(dir, "fom", 255, &v[2], err)))
		return ret;
	li->generation = (unsigned)v[0];
	li->lanes = (unsigned)v[1];
	li->fom = (unsigned)v[2];

	ret = read_value(dir, "errors", buf, sizeof(buf), err);
	if (ret == -ENOENT)
		return ipu__err(err, -EPROTO, "%s/errors is missing", dir);
	if (ret)
		return ret;
	sp = strchr(buf, ' ');
	if (sp)
		*sp = '\0';
	if (!sp || !parse_u64(buf, UINT64_MAX, &li->errors_corr) ||
	    !parse_u64(sp + 1, UINT64_MAX, &li->errors_uncorr)) {
		if (sp)
			*sp = ' ';
		return bad_value(err, dir, "errors", buf, "'CORR UNCORR'");
	}
	return 0;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Count portP directories of @links_dir, P = 0, 1, ... up to a gap. */
static unsigned count_ports(const char *links_dir)
{
	char path[512];
	unsigned p = 0;

	for (;; p++) {
		snprintf(path, sizeof(path), "%s/port%u", links_dir, p);
		if (!is_dir(path))
			return p;
	}
}

/* "-1" or a non-negative number; a missing file is -1 (no fabric). */
static int read_fabric_index(const char *card_dir, int *index,
			     struct ipu_error *err)
{
	char buf[VALUE_MAX];
	uint64_t v;
	int ret = read_value(card_dir, "fabric_index", buf, sizeof(buf), err);

	*index = -1;
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	if (!strcmp(buf, "-1"))
		return 0;
	if (!parse_u64(buf, INT32_MAX, &v))
		return bad_value(err, card_dir, "fabric_index", buf,
				 "-1 or a fabric index");
	*index = (int)v;
	return 0;
}

/* The card's identity part: ipuN exists, its serial and fabric index. */
static int read_card(const char *card_dir, unsigned card, char *serial,
		     size_t size, int *fabric_index, struct ipu_error *err)
{
	int ret;

	if (!is_dir(card_dir))
		return ipu__err(err, -ENODEV, "ipu%u: no such IPU (%s missing)",
				card, card_dir);
	ret = read_value(card_dir, "serial", serial, size, err);
	if (ret == -ENOENT)
		ret = ipu__err(err, -EPROTO, "%s/serial is missing", card_dir);
	return ret ? ret : read_fabric_index(card_dir, fabric_index, err);
}

int ipu__links_read_dir(const char *class_dir, unsigned card, bool allow_none,
			struct ipu_links **out, struct ipu_error *err)
{
	char card_dir[300], links_dir[320], port_dir[340];
	char serial[IPU__SERIAL_MAX];
	struct ipu_links *l;
	int fabric_index, ret;
	unsigned n = 0;

	*out = NULL;
	snprintf(card_dir, sizeof(card_dir), "%s/ipu%u", class_dir, card);
	ret = read_card(card_dir, card, serial, sizeof(serial), &fabric_index,
			err);
	if (ret)
		return ret;
	snprintf(links_dir, sizeof(links_dir), "%s/links", card_dir);
	if (is_dir(links_dir))
		n = count_ports(links_dir);
	else if (!allow_none)
		return ipu__err(err, -EOPNOTSUPP,
				"ipu%u: no IPU-Link information (the driver has no %s)",
				card, links_dir);
	l = ipu__links_new(card, serial, n);
	if (!l)
		return ipu__err(err, -ENOMEM, "ipu%u: links: out of memory", card);
	l->fabric_index = fabric_index;
	for (unsigned p = 0; p < n; p++) {
		snprintf(port_dir, sizeof(port_dir), "%s/port%u", links_dir, p);
		ret = read_port(port_dir, &l->ports[p], err);
		if (ret) {
			ipu_links_free(l);
			return ret;
		}
	}
	*out = l;
	return 0;
}

IPU_API int ipu_links_read(unsigned card, struct ipu_links **out,
			   struct ipu_error *err)
{
	if (!out)
		return ipu__err(err, -EINVAL, "ipu_links_read: out must not be NULL");
	if (!ipu__driver_present()) {
		*out = NULL;
		return ipu__err(err, -ENODEV,
				"ipu%u: driver ipu.ko not loaded (%s missing)",
				card, IPU__CLASS_DIR);
	}
	return ipu__links_read_dir(IPU__CLASS_DIR, card, false, out, err);
}

int ipu__links_index_of(struct ipu_links *const *cards, unsigned n,
			const char *serial)
{
	if (!serial || !*serial)
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(cards[i]->serial, serial))
			return (int)i;
	return -1;
}

bool ipu__link_joins(struct ipu_links *const *cards, unsigned n, unsigned a,
		     unsigned p, unsigned b)
{
	const struct ipu_link_info *mine, *theirs;

	if (a >= n || b >= n || p >= cards[a]->nports)
		return false;
	mine = &cards[a]->ports[p];
	if (mine->state != IPU_LINK_UP || mine->peer_port < 0 ||
	    ipu__links_index_of(cards, n, mine->peer_serial) != (int)b ||
	    (unsigned)mine->peer_port >= cards[b]->nports)
		return false;
	theirs = &cards[b]->ports[mine->peer_port];
	return theirs->state == IPU_LINK_UP &&
	       theirs->peer_port == (int)p &&
	       !strcmp(theirs->peer_serial, cards[a]->serial);
}

IPU_API unsigned ipu_links_card(const struct ipu_links *links)
{
	return links ? links->card : 0;
}

IPU_API const char *ipu_links_serial(const struct ipu_links *links)
{
	return links ? links->serial : "";
}

IPU_API int ipu_links_fabric_index(const struct ipu_links *links)
{
	return links ? links->fabric_index : -1;
}

IPU_API unsigned ipu_links_num_ports(const struct ipu_links *links)
{
	return links ? links->nports : 0;
}

IPU_API const struct ipu_link_info *
ipu_links_port(const struct ipu_links *links, unsigned port)
{
	return links && port < links->nports ? &links->ports[port] : NULL;
}

IPU_API unsigned ipu_link_info_port(const struct ipu_link_info *li)
{
	return li ? li->port : 0;
}

IPU_API int ipu_link_info_state(const struct ipu_link_info *li)
{
	return li ? li->state : IPU_LINK_UNKNOWN;
}

IPU_API const char *ipu_link_info_peer_serial(const struct ipu_link_info *li)
{
	return li ? li->peer_serial : "";
}

IPU_API int ipu_link_info_peer_port(const struct ipu_link_info *li)
{
	return li ? li->peer_port : -1;
}

IPU_API unsigned ipu_link_info_generation(const struct ipu_link_info *li)
{
	return li ? li->generation : 0;
}

IPU_API unsigned ipu_link_info_lanes(const struct ipu_link_info *li)
{
	return li ? li->lanes : 0;
}

IPU_API unsigned ipu_link_info_fom(const struct ipu_link_info *li)
{
	return li ? li->fom : 0;
}

IPU_API uint64_t ipu_link_info_errors_corr(const struct ipu_link_info *li)
{
	return li ? li->errors_corr : 0;
}

IPU_API uint64_t ipu_link_info_errors_uncorr(const struct ipu_link_info *li)
{
	return li ? li->errors_uncorr : 0;
}
