/* SPDX-License-Identifier: MIT */
/*
 * IPU chip models known to the stack: the identifiers the card reports in
 * its MODEL register (docs/hw-interface.md) and that a graph binary names as
 * its target (docs/graph-format.md), and the one table of the figures that
 * define them. The card, the cost model, the driver, the library and the
 * tools all read this table; no other code states these figures (the docs
 * quote them).
 *
 * Plain C, shared by the kernel module, QEMU, the engine and userspace: the
 * table lives inside a static inline function, so a file that includes this
 * header without using it gets neither a copy nor an unused-variable warning.
 */
#ifndef IPU_MODELS_H
#define IPU_MODELS_H

#ifdef __KERNEL__
#include <linux/stddef.h>
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

#define IPU_MODEL_GC2		1	/* Mk1 */
#define IPU_MODEL_GC200		2	/* Mk2 */
#define IPU_MODEL_TEST		0x10	/* small model for tests */

/* Worker contexts per tile, the same on every model (sizes arrays). */
#define IPU_WORKER_THREADS	6

struct ipu_model {
	uint32_t id;		/* IPU_MODEL_* */
	const char *name;	/* the card's model=, sysfs "model", libipudev */
	const char *arch;	/* IPU architecture, as gc-info prints it */
	const char *board;	/* board type, as ipu-info prints it */
	uint32_t tiles;
	uint32_t tile_mem;	/* bytes of SRAM per tile */
	uint32_t clock_khz;
	uint32_t threads;	/* worker contexts per tile */
	uint32_t link_ports;	/* IPU-Link ports */
	uint8_t pcie_gen;	/* host link generation: 3 = 8 GT/s, 4 = 16 GT/s */
	uint8_t pcie_width;	/* host link lanes */
	uint32_t link_mb_s;	/* IPU-Link bandwidth, MB/s per link and direction */
	/*
	 * Telemetry (docs/hw-interface.md "Health and telemetry"): power
	 * idle and at full utilisation; the die's steady temperature at
	 * those two powers (25 degC air), the rated maximum, the critical
	 * temperature (thermal shutdown), and the time constant of its
	 * approach to the steady temperature.
	 */
	uint32_t power_idle_mw;
	uint32_t power_max_mw;
	int32_t temp_idle_mc;	/* milli-degC */
	int32_t temp_load_mc;
	int32_t temp_max_mc;	/* hwmon temp1_max */
	int32_t temp_crit_mc;	/* hwmon temp1_crit */
	uint32_t thermal_tau_ms;
};

/*
 * ipu_model_at() - the @i-th model of the table, or NULL past its end.
 * Walk the table with i = 0, 1, ... until NULL. Static storage.
 */
static inline const struct ipu_model *ipu_model_at(size_t i)
{
	/*
	 * GC2 and GC200: the published figures; test: this project's own (4
	 * link ports: enough for the M2000 and POD16 ladders). Power: a C2
	 * board (two GC2) is rated 300 W, so 150 W a GC2; an IPU-M2000 (four
	 * GC200 with its gateway) draws about 1.1 kW typical, so 200 W a
	 * GC200 at full load. Idle power and temperatures are not published
	 * per chip: this model's figures, typical of a fan-cooled accelerator
	 * (test: small and fast, for the tests).
	 */
	static const struct ipu_model table[] = {
		{ IPU_MODEL_GC2, "gc2", "ipu1", "C2", 1216, 256 * 1024,
		  1300000, IPU_WORKER_THREADS, 10, 3, 8, 32000,
		  40000, 150000, 40000, 80000, 100000, 110000, 5000 },
		{ IPU_MODEL_GC200, "gc200", "ipu2", "GC200", 1472, 624 * 1024,
		  1330000, IPU_WORKER_THREADS, 10, 4, 16, 32000,
		  50000, 200000, 40000, 85000, 105000, 115000, 5000 },
		{ IPU_MODEL_TEST, "test", "test", "test", 32, 64 * 1024,
		  1330000, IPU_WORKER_THREADS, 4, 3, 8, 32000,
		  5000, 20000, 35000, 60000, 90000, 100000, 200 },
	};

	return i < sizeof(table) / sizeof(table[0]) ? &table[i] : NULL;
}

/* ipu_model_by_id() - the model with id @id, or NULL. Static storage. */
static inline const struct ipu_model *ipu_model_by_id(uint32_t id)
{
	const struct ipu_model *m;
	size_t i;

	for (i = 0; (m = ipu_model_at(i)); i++)
		if (m->id == id)
			return m;
	return NULL;
}

/*
 * ipu_model_by_name() - the model named @name (ASCII, case-insensitive:
 * "GC200" is gc200), or NULL, also for a NULL @name. Static storage.
 */
static inline const struct ipu_model *ipu_model_by_name(const char *name)
{
	const struct ipu_model *m;
	size_t i, k;
	char c;

	for (i = 0; name && (m = ipu_model_at(i)); i++) {
		for (k = 0; m->name[k]; k++) {
			c = name[k];
			if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != m->name[k])
				break;
		}
		if (!m->name[k] && !name[k])
			return m;
	}
	return NULL;
}

/*
 * ipu_model_names() - "gc2, gc200, test" into @buf (@size bytes, @size > 0),
 * for messages that list the choices; truncated to fit, always terminated.
 * Returns @buf.
 */
static inline char *ipu_model_names(char *buf, size_t size)
{
	const struct ipu_model *m;
	const char *s;
	size_t i, n = 0;

	for (i = 0; (m = ipu_model_at(i)); i++) {
		for (s = i ? ", " : ""; *s && n + 1 < size; s++)
			buf[n++] = *s;
		for (s = m->name; *s && n + 1 < size; s++)
			buf[n++] = *s;
	}
	buf[n] = '\0';
	return buf;
}

#endif /* IPU_MODELS_H */
