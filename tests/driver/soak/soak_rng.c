// SPDX-License-Identifier: GPL-2.0
/*
 * The soak's random numbers: splitmix64, one state per process derived
 * from the run's seed and the process's number, so that a seed replays
 * the same choices (the interleaving with the cards is not replayed).
 */
#include "soak.h"

void soak_rng_seed(struct soak_rng *r, uint64_t seed, uint64_t stream)
{
	r->s = seed ^ (stream * 0x9e3779b97f4a7c15ull);
	soak_rng_next(r);
}

uint64_t soak_rng_next(struct soak_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t soak_rng_range(struct soak_rng *r, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(soak_rng_next(r) % ((uint64_t)hi - lo + 1));
}
