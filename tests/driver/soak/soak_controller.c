// SPDX-License-Identifier: GPL-2.0
/*
 * The soak's controller: at random intervals it resets a random card (the
 * RESET ioctl with FORCE, through ipu_device_reset(), as ipu-reset does)
 * or injects a random fault into it through the host's QMP
 * (docs/hw-interface.md "Fault injection (1.6)"), and lets the driver
 * recover. At the end it disarms what is still armed, so that the checks
 * after the soak see working cards.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipudev.h"
#include "ipu_host_qmp.h"
#include "soak.h"

const char *const soak_fault_names[SOAK_F_COUNT] = {
	[SOAK_F_HANG_JOB] = "hang-job",
	[SOAK_F_DMA_ERROR] = "dma-error",
	[SOAK_F_FATAL] = "fatal",
	[SOAK_F_DROP_IRQ] = "drop-irq",
	[SOAK_F_CORRUPT_CQE] = "corrupt-cqe",
	[SOAK_F_HEARTBEAT_STOP] = "heartbeat-stop",
	[SOAK_F_READY_DELAY] = "ready-delay",
};

/* Between actions; each card gets one every few seconds. */
#define GAP_MIN_MS	200
#define GAP_MAX_MS	1200
/* A short delay: READY well within the driver's ready timeout (2000 ms). */
#define READY_DELAY_MIN_MS	100
#define READY_DELAY_MAX_MS	800
/* Our RESET waits this long for READY (a recovery may be under way). */
#define RESET_TIMEOUT_MS	20000

static int qom_inject(unsigned index, const char *value, char *rsp, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/machine/peripheral/ipu%u", index);
	return ipu_host_qom_set(path, "inject-fault", value, rsp, len);
}

static void reset_card(unsigned id, struct soak_controller_slot *slot)
{
	struct ipu_reset_result res;
	struct ipu_device *dev;
	struct ipu_error err;
	int ret;

	ret = ipu_device_open(id, 0, &dev, &err);
	if (!ret) {
		ret = ipu_device_reset(dev, RESET_TIMEOUT_MS, IPU_RESET_FORCE,
				       &res, &err);
		ipu_device_close(dev);
	}
	if (!ret) {
		slot->resets++;
		return;
	}
	slot->resets_failed++;
	if (-ret < SOAK_ERRNO_MAX)
		slot->reset_errno[-ret]++;
	if (!slot->note[0])
		snprintf(slot->note, sizeof(slot->note), "RESET ipu%u: %d \"%.200s\"",
			 id, ret, err.msg);
}

static void inject(unsigned index, enum soak_fault f, struct soak_rng *rng,
		   struct soak_controller_slot *slot)
{
	char value[64], rsp[512];
	int ret;

	if (f == SOAK_F_READY_DELAY)
		snprintf(value, sizeof(value), "type=ready-delay,ms=%u",
			 soak_rng_range(rng, READY_DELAY_MIN_MS, READY_DELAY_MAX_MS));
	else
		snprintf(value, sizeof(value), "type=%s", soak_fault_names[f]);
	ret = qom_inject(index, value, rsp, sizeof(rsp));
	if (!ret) {
		slot->armed[f]++;
	} else if (ret == 1) {
		/* already armed, fatal while not READY, ... */
		slot->refused[f]++;
		if (!slot->refusal[0])
			snprintf(slot->refusal, sizeof(slot->refusal),
				 "%s on ipu%u: %.200s", value, index, rsp);
	} else {
		slot->qmp_errors++;
	}
}

void soak_controller(const struct soak_config *cfg,
		     struct soak_controller_slot *slot)
{
	struct soak_rng rng;
	char rsp[512];

	soak_rng_seed(&rng, cfg->seed, 0);
	for (;;) {
		unsigned gap = soak_rng_range(&rng, GAP_MIN_MS, GAP_MAX_MS);
		const struct soak_card *c;
		unsigned what;

		if (soak_now_ms() + gap >= cfg->end_ms)
			break;
		soak_sleep_ms(gap);
		c = &cfg->cards[soak_rng_range(&rng, 0, cfg->ncards - 1)];
		/* one in four a RESET, else one of the faults */
		what = soak_rng_range(&rng, 0, 4 * SOAK_F_COUNT / 3);
		if (what >= SOAK_F_COUNT)
			reset_card(c->id, slot);
		else
			inject(c->index, (enum soak_fault)what, &rng, slot);
	}
	for (unsigned i = 0; i < cfg->ncards; i++)
		if (qom_inject(cfg->cards[i].index, "type=clear", rsp, sizeof(rsp)))
			slot->qmp_errors++;
}

long soak_faults_injected(unsigned index, const char *type)
{
	char json[256], rsp[2048], key[64];
	const char *p;

	snprintf(json, sizeof(json),
		 "{\"execute\": \"qom-get\", \"arguments\": {\"path\": "
		 "\"/machine/peripheral/ipu%u\", \"property\": \"faults\"}}", index);
	if (ipu_host_qmp(json, rsp, sizeof(rsp)))
		return -1;
	p = strstr(rsp, "\"injected\"");
	if (!p)
		return -1;
	snprintf(key, sizeof(key), "\"%s\":", type);
	p = strstr(p, key);
	/* a type that never took effect may be left out */
	return p ? strtol(p + strlen(key), NULL, 10) : 0;
}
