/* SPDX-License-Identifier: MIT */
/*
 * ipu-train's session: a device with the training graph loaded, its
 * weights initialised, and the host buffers its streams are bound to; one
 * call per epoch. The same calls drive the model device and a card.
 */
#ifndef IPU_TOOLS_TRAIN_SESSION_H
#define IPU_TOOLS_TRAIN_SESSION_H

#include <stdint.h>

#include "train_data.h"
#include "train_net.h"

struct train_session {
	struct ipu_device *dev;		/* not owned */
	struct train_net net;		/* net.g owned */
	const struct train_split *data;	/* not owned */
	struct train_rng rng;		/* initial weights, then batch orders */
	unsigned batch;			/* the global batch: net.batch x replicas */
	unsigned replicas;		/* 1, or data-parallel replicas */
	unsigned steps;			/* per epoch: ntrain / batch (rest dropped) */
	unsigned eval_train, eval_test;	/* evaluation batches of each set */
	unsigned eval_runs;		/* eval runs: a batch per replica each */
	uint32_t *order;		/* the current epoch's order [steps * batch] */
	struct ipu_buffer *x, *t, *loss, *ex, *ey, *correct;
};

/* What one epoch gave. */
struct train_epoch {
	double loss;		/* mean of the steps' losses */
	double train_acc;	/* after the epoch, on the whole training set */
	double test_acc;
	double seconds;		/* host time of the training run */
	double samples_per_s;	/* steps * batch / seconds */
	const float *step_loss;	/* [steps], valid until the next epoch */
};

/*
 * train_session_open() - build the graph of @m (global batch @batch, lr)
 * for @chip, load it on @dev, write the initial weights (seed @seed) and
 * bind the streams. @replicas > 1: data-parallel over that many IPUs of
 * @dev (@batch a multiple of it, each replica a slice of @batch rows; the
 * batches are written and the losses read around a run per step).
 * On failure @s is to be closed all the same. 0 or -errno with @err set.
 */
int train_session_open(struct train_session *s, struct ipu_device *dev,
		       const struct train_split *data, const struct train_model *m,
		       uint32_t chip, unsigned batch, unsigned replicas, float lr, uint64_t seed,
		       struct ipu_error *err);
/* One epoch: shuffle, train over every batch, evaluate both sets. */
int train_session_epoch(struct train_session *s, struct train_epoch *out,
			struct ipu_error *err);
/*
 * train_session_save() - each weight tensor as DIR/@prefix NAME.npy (NAME
 * with '/' as '_': fc1_w.npy), DIR created if missing.
 */
int train_session_save(struct train_session *s, const char *dir,
		       const char *prefix, struct ipu_error *err);
/* Free the buffers and the graph (not the device). */
void train_session_close(struct train_session *s);

#endif /* IPU_TOOLS_TRAIN_SESSION_H */
