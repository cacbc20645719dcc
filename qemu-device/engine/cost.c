/* SPDX-License-Identifier: MIT */
/*
 * Cost model of the real chip: model figures and the cycle formulas used by
 * the loader (precomputed per compute set / exchange) and by the runner.
 * Figures and their sources: docs/cost-model.md.
 */
#include "engine_internal.h"

#include "ipu/ipu_models.h"

/*
 * Host link bytes per 1000 tile cycles for a model's PCIe link: lanes x
 * 8 GT/s (Gen3, doubling per generation) x 128/130 encoding / 8 bits, over
 * the tile clock, to three significant figures as docs/cost-model.md gives
 * it (Gen4 x16 at 1.33 GHz: 23.7 B/cycle; Gen3 x8 at 1.3 GHz: 6.1).
 */
static uint32_t host_bytes_per_kcycle(const struct ipu_model *m)
{
	uint64_t gts = m->pcie_gen >= 3 ? 8ull << (m->pcie_gen - 3) : 0;
	uint64_t bpk = gts * 1000000000ull * 128 / 130 / 8 * m->pcie_width /
		       m->clock_khz;

	return (uint32_t)((bpk + 50) / 100 * 100);
}

/*
 * One IPU-Link's bytes per 1000 tile cycles, one direction, to three
 * significant figures as docs/cost-model.md gives it (32 GB/s at 1.33 GHz:
 * 24.1 B/cycle).
 */
static uint32_t link_bytes_per_kcycle(const struct ipu_model *m)
{
	uint64_t bpk = (uint64_t)m->link_mb_s * 1000000ull / m->clock_khz;

	return (uint32_t)((bpk + 50) / 100 * 100);
}

/* Fill *out for model; IPUE_EMODEL if unknown. */
int ipue_model_lookup(uint32_t model, struct ipue_model_figures *out)
{
	const struct ipu_model *m = ipu_model_by_id(model);

	if (!m)
		return IPUE_EMODEL;
	out->model = m->id;
	out->tiles = m->tiles;
	out->tile_mem = m->tile_mem;
	out->clock_khz = m->clock_khz;
	out->threads = m->threads;
	out->host_bytes_per_kcycle = host_bytes_per_kcycle(m);
	out->link_bytes_per_kcycle = link_bytes_per_kcycle(m);
	return 0;
}

/* Exchange phase: fixed latency plus the busiest tile at 4 bytes/cycle. */
uint64_t ipue_cost_exchange(uint64_t max_tile_bytes)
{
	if (!max_tile_bytes)
		return 0;
	return IPUE_COST_EXCHANGE_LATENCY +
	       (max_tile_bytes + IPUE_COST_EXCHANGE_BYTES_PER_CYCLE - 1) /
	       IPUE_COST_EXCHANGE_BYTES_PER_CYCLE;
}

/* One host stream transfer: a host sync plus the bytes over the link. */
uint64_t ipue_cost_stream(const struct ipue_model_figures *m, uint64_t bytes)
{
	uint64_t bpk = m->host_bytes_per_kcycle ? m->host_bytes_per_kcycle : 1;

	return IPUE_COST_HOST_SYNC_CYCLES + (bytes * 1000 + bpk - 1) / bpk;
}

/* @bytes over one hop of @links parallel links (one direction), spread evenly */
uint64_t ipue_cost_link(const struct ipue_model_figures *m, uint64_t bytes, uint32_t links)
{
	uint64_t bpk = (uint64_t)(m->link_bytes_per_kcycle ? m->link_bytes_per_kcycle : 1) *
		       (links ? links : 1);

	return (bytes * 1000 + bpk - 1) / bpk;
}

/*
 * A tile runs its vertices on IPU_WORKER_THREADS workers: each vertex goes
 * to the least-loaded worker in graph order (what the supervisor does when
 * it starts the next vertex on the first free worker); the phase ends when
 * the busiest worker is done.
 */
uint64_t ipue_cost_tile(const uint64_t *cycles, uint32_t n)
{
	uint64_t w[IPU_WORKER_THREADS] = { 0 };
	uint64_t max = 0;

	for (uint32_t i = 0; i < n; i++) {
		unsigned best = 0;

		for (unsigned k = 1; k < IPU_WORKER_THREADS; k++)
			if (w[k] < w[best])
				best = k;
		w[best] += cycles[i];
	}
	for (unsigned k = 0; k < IPU_WORKER_THREADS; k++)
		if (w[k] > max)
			max = w[k];
	return max;
}
