/* SPDX-License-Identifier: MIT */
/*
 * Tile memory arena: one anonymous mapping holding every planned tile at a
 * 64-byte aligned base. The kernel commits pages on first touch, so an
 * engine costs nothing before a load and a graph commits only what it uses.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/mman.h>
#define IPUE_HAVE_MMAP 1
#else
#define IPUE_HAVE_MMAP 0
#endif

static uint64_t page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (uint64_t)ps : 4096;
}

/*
 * Reserve bytes of zeroed memory (rounded up to pages). 0 bytes gives an
 * empty arena. Returns 0 or IPUE_ENOMEM; free with ipue_arena_free().
 */
int ipue_arena_alloc(struct ipue_arena *a, uint64_t bytes)
{
	uint64_t ps = page_size();

	memset(a, 0, sizeof(*a));
	if (!bytes)
		return 0;
	bytes = (bytes + ps - 1) / ps * ps;
	if (bytes > SIZE_MAX)
		return IPUE_ENOMEM;
#if IPUE_HAVE_MMAP
	void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return IPUE_ENOMEM;
	a->base = p;
	a->mmapped = 1;
#else
	a->base = calloc(1, (size_t)bytes);
	if (!a->base)
		return IPUE_ENOMEM;
#endif
	a->size = bytes;
	return 0;
}

void ipue_arena_free(struct ipue_arena *a)
{
	if (!a->base)
		return;
#if IPUE_HAVE_MMAP
	if (a->mmapped)
		munmap(a->base, (size_t)a->size);
	else
#endif
		free(a->base);
	memset(a, 0, sizeof(*a));
}

/* Bytes of the arena in RAM (mincore on Linux; else the reserved size). */
uint64_t ipue_arena_resident(const struct ipue_arena *a)
{
#if IPUE_HAVE_MMAP
	uint64_t ps = page_size(), pages, res = 0;
	unsigned char vec[4096];

	if (!a->base)
		return 0;
	pages = a->size / ps;
	/* walk in chunks so the vector stays on the stack */
	for (uint64_t p = 0; p < pages; p += sizeof(vec)) {
		uint64_t n = pages - p < sizeof(vec) ? pages - p : sizeof(vec);

		if (mincore(a->base + p * ps, (size_t)(n * ps), vec) != 0)
			return a->size;
		for (uint64_t i = 0; i < n; i++)
			res += vec[i] & 1;
	}
	return res * ps;
#else
	return a->size;
#endif
}

/*
 * Commit every page of the arena (the planned tiles, packed) now: Linux
 * 5.14+ in one call (MADV_POPULATE_WRITE); else, or when the kernel refuses
 * the advice, one write per page of the byte already there (INIT data stays).
 */
void ipue_arena_commit(const struct ipue_arena *a)
{
	uint64_t ps = page_size();
	volatile uint8_t *p = a->base;

	if (!a->base)
		return;
#if IPUE_HAVE_MMAP && defined(MADV_POPULATE_WRITE)
	if (madvise(a->base, (size_t)a->size, MADV_POPULATE_WRITE) == 0)
		return;
#endif
	for (uint64_t o = 0; o < a->size; o += ps)
		p[o] = p[o];
}
