/* SPDX-License-Identifier: MIT */
/*
 * IPU chip models known to the stack: the identifiers the card reports in
 * its MODEL register (docs/hw-interface.md) and that a graph binary names as
 * its target (docs/graph-format.md), with the figures that define them.
 * Plain C, shared by the card, the engine, the driver and the library.
 */
#ifndef IPU_MODELS_H
#define IPU_MODELS_H

#define IPU_MODEL_GC2		1	/* Mk1: 1216 tiles x 256 KiB */
#define IPU_MODEL_GC200		2	/* Mk2: 1472 tiles x 624 KiB */
#define IPU_MODEL_TEST		0x10	/* small model for tests: 32 x 64 KiB */

#define IPU_GC2_TILES		1216
#define IPU_GC2_TILE_MEM	(256 * 1024)
#define IPU_GC2_CLOCK_KHZ	1300000

#define IPU_GC200_TILES		1472
#define IPU_GC200_TILE_MEM	(624 * 1024)
#define IPU_GC200_CLOCK_KHZ	1330000

#define IPU_TEST_TILES		32
#define IPU_TEST_TILE_MEM	(64 * 1024)
#define IPU_TEST_CLOCK_KHZ	1330000

#define IPU_WORKER_THREADS	6	/* worker contexts per tile, all models */

#endif /* IPU_MODELS_H */
