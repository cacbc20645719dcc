// SPDX-License-Identifier: MIT
/*
 * libipudev: PCIe link and NUMA node of a card, read with libpci.
 *
 * libpci reports fatal problems through pci_access.error, whose default
 * prints and exit()s the process. A library must not do that, so the
 * handler longjmp()s back to the libpci call in progress: each call into
 * libpci is bracketed by a jmp_buf whose address lives in a thread-local
 * pointer (per call, per thread; no shared state).
 */
#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pci/pci.h>

#include "internal.h"

struct ipu__pci {
	struct pci_access *acc;
};

static _Thread_local jmp_buf *pci_jmp;

static _Noreturn void pci_fatal(char *msg, ...)
{
	(void)msg;
	if (pci_jmp)
		longjmp(*pci_jmp, 1);
	abort();	/* libpci called outside a bracket: a bug here */
}

static void pci_quiet(char *msg, ...)
{
	(void)msg;
}

struct ipu__pci *ipu__pci_open(void)
{
	struct ipu__pci *volatile p;
	jmp_buf jb, *prev = pci_jmp;

	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	if (setjmp(jb)) {
		pci_jmp = prev;
		free(p);	/* the half-initialised access is leaked */
		return NULL;
	}
	pci_jmp = &jb;
	p->acc = pci_alloc();
	if (p->acc) {
		p->acc->error = pci_fatal;
		p->acc->warning = pci_quiet;
		p->acc->debug = pci_quiet;
		p->acc->method = PCI_ACCESS_SYS_BUS_PCI;
		pci_init(p->acc);
	}
	pci_jmp = prev;
	if (!p->acc) {
		free(p);
		return NULL;
	}
	return p;
}

void ipu__pci_close(struct ipu__pci *pci)
{
	jmp_buf jb, *prev = pci_jmp;

	if (!pci)
		return;
	if (!setjmp(jb)) {
		pci_jmp = &jb;
		pci_cleanup(pci->acc);
	}
	pci_jmp = prev;
	free(pci);
}

static const char *const speeds[] = {
	NULL, "2.5 GT/s", "5.0 GT/s", "8.0 GT/s", "16.0 GT/s", "32.0 GT/s",
	"64.0 GT/s",
};

const char *ipu__pcie_speed_name(unsigned code)
{
	return code < IPU__ARRAY_SIZE(speeds) ? speeds[code] : NULL;
}

static bool valid_width(unsigned w)
{
	return w >= 1 && w <= 32;
}

/* Read a small sysfs file of the PCI device into buf (trailing \n cut). */
static bool read_sysfs(const char *dir, const char *name, char *buf,
		       size_t size)
{
	char path[512];
	FILE *f;
	size_t n;

	if (!dir)
		return false;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n > 0;
}

/* "16.0 GT/s PCIe" (or "16 GT/s") from sysfs -> "16.0 GT/s". */
static void sysfs_speed(const char *dir, const char *name, char *out,
			size_t size)
{
	char buf[64];
	double gts;

	if (!read_sysfs(dir, name, buf, sizeof(buf)))
		return;
	if (sscanf(buf, "%lf GT/s", &gts) == 1 && gts > 0)
		snprintf(out, size, "%.1f GT/s", gts);
}

static unsigned sysfs_width(const char *dir, const char *name)
{
	char buf[32];
	unsigned w;

	if (read_sysfs(dir, name, buf, sizeof(buf)) &&
	    sscanf(buf, "%u", &w) == 1 && valid_width(w))
		return w;
	return 0;
}

/* Hex digits of s, at least min and at most max; advances *s. */
static int hex_field(const char **s, unsigned min, unsigned max, unsigned *v)
{
	unsigned n = 0;

	*v = 0;
	while (isxdigit((unsigned char)**s) && n < max) {
		unsigned c = (unsigned char)**s;

		*v = *v * 16 + (unsigned)(isdigit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
		(*s)++;
		n++;
	}
	return n >= min ? 0 : -EINVAL;
}

/* "DDDD:BB:DD.F" (the domain may have up to 8 digits), strictly. */
static int parse_address(const char *s, unsigned *dom, unsigned *bus,
			 unsigned *dev, unsigned *fn)
{
	if (!s || hex_field(&s, 4, 8, dom) || *s++ != ':' ||
	    hex_field(&s, 2, 2, bus) || *s++ != ':' ||
	    hex_field(&s, 2, 2, dev) || *s++ != '.' ||
	    hex_field(&s, 1, 1, fn) || *s || *dev > 0x1f || *fn > 7)
		return -EINVAL;
	return 0;
}

struct pci_raw {
	unsigned dom, bus, dev, fn;	/* in */
	unsigned lnkcap, lnksta;	/* out: all ones when unreadable */
	int numa;			/* out: -1 unknown */
};

/* The libpci part, bracketed against its error handler. */
static void pci_read_raw(struct ipu__pci *pci, struct pci_raw *r)
{
	jmp_buf jb, *prev = pci_jmp;
	struct pci_dev *d;
	struct pci_cap *cap;

	r->lnkcap = 0xffffffffu;
	r->lnksta = 0xffff;
	r->numa = -1;
	if (!pci)
		return;
	if (setjmp(jb)) {
		pci_jmp = prev;	/* the device struct, if any, is leaked */
		return;
	}
	pci_jmp = &jb;
	d = pci_get_dev(pci->acc, (int)r->dom, (int)r->bus, (int)r->dev,
			(int)r->fn);
	if (d) {
		pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_NUMA_NODE |
				 PCI_FILL_CAPS);
		r->numa = d->numa_node;
		cap = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
		if (cap) {
			r->lnkcap = pci_read_long(d, cap->addr + PCI_EXP_LNKCAP);
			r->lnksta = pci_read_word(d, cap->addr + PCI_EXP_LNKSTA);
		}
		pci_free_dev(d);
	}
	pci_jmp = prev;
}

int ipu__pci_query(struct ipu__pci *pci, const char *address,
		   const char *sysfs_dir, struct ipu__pci_link *out)
{
	struct pci_raw r;
	unsigned lnkcap, lnksta;
	const char *s;

	memset(out, 0, sizeof(*out));
	out->numa_node = -1;
	if (parse_address(address, &r.dom, &r.bus, &r.dev, &r.fn))
		return -EINVAL;
	pci_read_raw(pci, &r);
	lnkcap = r.lnkcap;
	lnksta = r.lnksta;
	out->numa_node = r.numa >= 0 ? r.numa : -1;

	/* A failed config read gives all ones; field checks reject it. */
	s = ipu__pcie_speed_name(lnksta & PCI_EXP_LNKSTA_SPEED);
	if (s && lnksta != 0xffff)
		ipu__strlcpy(out->speed, s, sizeof(out->speed));
	if (lnksta != 0xffff && valid_width((lnksta & PCI_EXP_LNKSTA_WIDTH) >> 4))
		out->width = (lnksta & PCI_EXP_LNKSTA_WIDTH) >> 4;
	s = ipu__pcie_speed_name(lnkcap & PCI_EXP_LNKCAP_SPEED);
	if (s && lnkcap != 0xffffffffu)
		ipu__strlcpy(out->speed_max, s, sizeof(out->speed_max));
	if (lnkcap != 0xffffffffu &&
	    valid_width((lnkcap & PCI_EXP_LNKCAP_WIDTH) >> 4))
		out->width_max = (lnkcap & PCI_EXP_LNKCAP_WIDTH) >> 4;

	/* Fallback: the kernel's view in sysfs (readable by anybody). */
	if (!out->speed[0])
		sysfs_speed(sysfs_dir, "current_link_speed", out->speed,
			    sizeof(out->speed));
	if (!out->width)
		out->width = sysfs_width(sysfs_dir, "current_link_width");
	if (!out->speed_max[0])
		sysfs_speed(sysfs_dir, "max_link_speed", out->speed_max,
			    sizeof(out->speed_max));
	if (!out->width_max)
		out->width_max = sysfs_width(sysfs_dir, "max_link_width");
	if (out->numa_node < 0) {
		char buf[16];
		int n;

		if (read_sysfs(sysfs_dir, "numa_node", buf, sizeof(buf)) &&
		    sscanf(buf, "%d", &n) == 1 && n >= 0)
			out->numa_node = n;
	}
	return 0;
}
