/* SPDX-License-Identifier: MIT */
/*
 * ipu-info's health and telemetry of a card (docs/uapi.md "Health and
 * telemetry (API 1.8)"): read from the card's sysfs attributes and its
 * hwmon sensors, shown as gc-info's detail lines and gc-monitor's table.
 */
#ifndef IPU_TOOLS_CARD_HEALTH_H
#define IPU_TOOLS_CARD_HEALTH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common.h"

/* One card's figures; a have_* false means the card or driver has none. */
struct card_health {
	bool have_temp, have_temp_max, have_temp_crit, have_power;
	int64_t temp_mc, temp_max_mc, temp_crit_mc;	/* milli-degC */
	uint64_t power_uw;
	bool have_util;
	unsigned util;			/* percent */
	char health[16];		/* "ok", ...; "" unknown */
	bool have_errors;
	uint64_t err_dma, err_ring, err_fatal;
	bool have_recoveries;
	uint64_t recoveries;
	bool held;			/* a context is attached */
	pid_t pid;
	unsigned uid;
	char user[64];			/* the uid's name, or its number */
	char comm[32];
};

/*
 * card_health_read() - @c's figures into @h, from its syspath. Never fails:
 * what cannot be read is left unknown (have_* false, health "").
 */
void card_health_read(const struct ipu_card *c, struct card_health *h);

/*
 * print_card_health() - `key: value` lines ("average die temp", "ipu
 * power", ..., "user name"), or JSON members when @w is non-NULL.
 */
void print_card_health(FILE *f, struct jw *w, const struct card_health *h);

/*
 * print_health_table() - gc-monitor's view of @n cards (@cards, their
 * figures @hs): one row a card, its holder's PID, USER and COMMAND last.
 */
void print_health_table(FILE *f, const struct ipu_card *cards,
			const struct card_health *hs, size_t n);

#endif /* IPU_TOOLS_CARD_HEALTH_H */
