/* SPDX-License-Identifier: MIT */
/*
 * Sliding-window geometry and work splitting shared by conv.c and pool.c
 * (window.c; never installed). An NCHW input is seen as planes of H x W;
 * a work item covers a block of output positions (oy * OW + ox) or of
 * input rows of some planes and runs on one tile, with the window rows it
 * needs copied there (docs/builder.md, "poplin: conv2d").
 */
#ifndef IPUDEV_WINDOW_H
#define IPUDEV_WINDOW_H

#include <stdint.h>

#include "builder_internal.h"

struct ipu__win {
	uint32_t H, W, KH, KW, SY, SX, DY, DX, PT, PB, PL, PR, OH, OW;
};

/* rows [*y0, *y0 + *rows) of the image that positions [p0, p1) read (clamped to it) */
void ipu__win_rows(const struct ipu__win *w, uint64_t p0, uint64_t p1, uint32_t *y0, uint32_t *rows);
/* positions [*p0, *p1) whose taps read some image row of [y0, y1) (whole output rows) */
void ipu__win_positions(const struct ipu__win *w, uint32_t y0, uint32_t y1, uint64_t *p0, uint64_t *p1);
/* the eight params of a sliding-window codelet (codelets_window.c) */
void ipu__win_vparams(const struct ipu__win *w, uint32_t p[8], uint32_t C, uint32_t goff, uint32_t wy0,
		      uint32_t wh, uint64_t p0);

/*
 * Geometry checks of @op '@name': stride and dilation >= 1, the dilated
 * kernel within the padded input, every extent below 65536 (the codelets'
 * 16-bit params); fills OH, OW. 0 or -EINVAL naming op, output and cause.
 */
int ipu__win_check(struct ipu__win *w, const char *op, const char *name, struct ipu_error *err);

/* the graph's tiles, emptiest first (stable): items go to order[i % T]; malloc'ed, NULL on ENOMEM */
unsigned *ipu__win_order(const struct ipu_graph *g);
/*
 * The block size b in [1, U] of U units per stream over S streams, one
 * item per (stream, block), item i on tile @order[i % T]: from @b0 on,
 * halved until ceil(S * ceil(U / b) / T) items of @bytes(ctx, b) fit in
 * half the memory free on every tile that gets one (what follows needs
 * some too), else in all of it. 0 if even b = 1 does not fit.
 */
uint64_t ipu__win_block(const struct ipu_graph *g, const unsigned *order, uint64_t S, uint64_t U, uint64_t b0,
			uint64_t (*bytes)(const void *ctx, uint64_t b), const void *ctx);
/* the most memory a tile has free (for messages) */
uint64_t ipu__win_avail(const struct ipu_graph *g);

/*
 * @nruns runs of @run elements of tensor @t, the first at element @e0, the
 * next @stride further each, one after another in a new buffer on @tile
 * (copies added to exchange *ex, created as @exname on first use); a
 * single run already contiguous on @tile stays where it is. Offset or
 * negative errno.
 */
long ipu__win_gather(struct ipu_graph *g, int *ex, const char *exname, int t, uint64_t e0, uint64_t stride,
		     uint64_t run, uint32_t nruns, unsigned tile, struct ipu_error *err);
/* the same copies into memory the caller allocated at @off on @tile (always copied) */
int ipu__win_gather_to(struct ipu_graph *g, int *ex, const char *exname, int t, uint64_t e0, uint64_t stride,
		       uint64_t run, uint32_t nruns, unsigned tile, uint32_t off, struct ipu_error *err);
/* map the same runs of @t one after another at @off on @tile (memory the caller allocated) */
int ipu__win_map(struct ipu_graph *g, int t, uint64_t e0, uint64_t stride, uint64_t run, uint32_t nruns,
		 unsigned tile, uint32_t off, struct ipu_error *err);
/* a rank-4 tensor's shape or an error naming op, output, role and the rank */
int ipu__win_rank4(const struct ipu_graph *g, int t, const char *op, const char *name, const char *role,
		   uint32_t s[4], struct ipu_error *err);

#endif /* IPUDEV_WINDOW_H */
