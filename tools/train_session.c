// SPDX-License-Identifier: MIT
/*
 * ipu-train's session (train_session.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"
#include "train_graph.h"
#include "train_session.h"

/*
 * Bind stream @name to a new buffer of @n transfers of @bytes each; a
 * replicated graph has no streams: the buffer alone, written to or read
 * from the handle of the same name around each run.
 */
static int bind_ring(struct train_session *s, const char *name, size_t n,
		     size_t bytes, struct ipu_buffer **buf, struct ipu_error *err)
{
	int ret = ipu_buffer_alloc(s->dev, n * bytes, buf, err);

	if (!ret && s->replicas == 1)
		ret = ipu_stream_bind(s->dev, name, *buf, 0, n * bytes, err);
	return ret;
}

static int bind_streams(struct train_session *s, struct ipu_error *err)
{
	size_t b = s->batch, ne = (size_t)s->eval_runs * s->replicas;
	unsigned nfill = s->eval_train + s->eval_test;
	int ret;

	ret = bind_ring(s, TRAIN_STREAM_X, s->steps, b * DIGITS_PIXELS * 4, &s->x, err);
	if (!ret)
		ret = bind_ring(s, TRAIN_STREAM_T, s->steps, b * DIGITS_CLASSES * 4, &s->t, err);
	if (!ret)
		ret = bind_ring(s, TRAIN_STREAM_LOSS, s->steps, 4, &s->loss, err);
	if (!ret)
		ret = bind_ring(s, TRAIN_STREAM_EVAL_X, ne,
				TRAIN_EVAL_BATCH * DIGITS_PIXELS * 4, &s->ex, err);
	if (!ret)
		ret = bind_ring(s, TRAIN_STREAM_EVAL_Y, ne, TRAIN_EVAL_BATCH * 4, &s->ey, err);
	if (!ret)
		ret = bind_ring(s, TRAIN_STREAM_EVAL_CORRECT, ne, 4, &s->correct, err);
	if (ret)
		return ret;
	/* the evaluation batches never change: the training set, then the test set */
	train_fill_eval(s->data->x_train, s->data->y_train, s->data->ntrain,
			TRAIN_EVAL_BATCH, s->eval_train, ipu_buffer_ptr(s->ex),
			ipu_buffer_ptr(s->ey));
	train_fill_eval(s->data->x_test, s->data->y_test, s->data->ntest, TRAIN_EVAL_BATCH,
			s->eval_test,
			(float *)ipu_buffer_ptr(s->ex) +
				(size_t)s->eval_train * TRAIN_EVAL_BATCH * DIGITS_PIXELS,
			(int32_t *)ipu_buffer_ptr(s->ey) + (size_t)s->eval_train * TRAIN_EVAL_BATCH);
	/* the replicas' last run: batches of nothing (labels -1) after them */
	train_fill_eval(s->data->x_test, s->data->y_test, 0, TRAIN_EVAL_BATCH, (unsigned)ne - nfill,
			(float *)ipu_buffer_ptr(s->ex) + (size_t)nfill * TRAIN_EVAL_BATCH * DIGITS_PIXELS,
			(int32_t *)ipu_buffer_ptr(s->ey) + (size_t)nfill * TRAIN_EVAL_BATCH);
	return 0;
}

/*
 * Write every weight: uniform(-1/sqrt(fan_in), +) in the params' order, or
 * 0; the same to every replica (row r of the handle is replica r's).
 */
static int init_weights(struct train_session *s, struct ipu_error *err)
{
	for (unsigned i = 0; i < s->net.nparams; i++) {
		const struct train_param *p = &s->net.params[i];
		float a = p->fan_in ? 1.0f / sqrtf((float)p->fan_in) : 0.0f;
		float *w = calloc(p->elements, sizeof(float));
		int ret;

		if (!w)
			return tool_error(err, -ENOMEM, "ipu-train: out of memory");
		for (uint64_t k = 0; p->fan_in && k < p->elements; k++)
			w[k] = train_rng_uniform(&s->rng, a);
		ret = 0;
		for (unsigned r = 0; r < s->replicas && !ret; r++)
			ret = ipu_tensor_write_at(s->dev, p->name, r * p->elements * sizeof(float),
						  w, p->elements * sizeof(float), err);
		free(w);
		if (ret)
			return ret;
	}
	return 0;
}

int train_session_open(struct train_session *s, struct ipu_device *dev,
		       const struct train_split *data, const struct train_model *m,
		       uint32_t chip, unsigned batch, unsigned replicas, float lr, uint64_t seed,
		       struct ipu_error *err)
{
	void *bin = NULL;
	size_t len = 0;
	int ret;

	memset(s, 0, sizeof(*s));
	s->dev = dev;
	s->data = data;
	s->rng.state = seed;
	s->batch = batch;
	s->replicas = replicas;
	s->steps = data->ntrain / batch;
	s->eval_train = (data->ntrain + TRAIN_EVAL_BATCH - 1) / TRAIN_EVAL_BATCH;
	s->eval_test = (data->ntest + TRAIN_EVAL_BATCH - 1) / TRAIN_EVAL_BATCH;
	s->eval_runs = (s->eval_train + s->eval_test + replicas - 1) / replicas;
	if (batch % replicas)
		return tool_error(err, -EINVAL, "ipu-train: the batch of %u does not split into "
				  "%u replicas (make it a multiple of %u)", batch, replicas, replicas);
	s->order = malloc(data->ntrain * sizeof(*s->order));
	if (!s->order)
		return tool_error(err, -ENOMEM, "ipu-train: out of memory");
	for (unsigned i = 0; i < data->ntrain; i++)
		s->order[i] = i;
	s->net.in_features = DIGITS_PIXELS;
	s->net.classes = DIGITS_CLASSES;
	ret = train_graph_build(&s->net, m, chip, batch / replicas, replicas, lr, err);
	if (!ret)
		ret = ipu_graph_write(s->net.g, &bin, &len, err);
	if (!ret)
		ret = ipu_load(dev, bin, len, err);
	free(bin);
	if (!ret)
		ret = init_weights(s, err);
	if (!ret)
		ret = bind_streams(s, err);
	return ret;
}

/* Mean loss of the epoch's steps and the evaluation run's two accuracies. */
static void collect(struct train_session *s, struct train_epoch *out)
{
	const float *loss = ipu_buffer_ptr(s->loss), *correct = ipu_buffer_ptr(s->correct);
	double sum = 0, right_train = 0, right_test = 0;

	for (unsigned i = 0; i < s->steps; i++)
		sum += loss[i];
	for (unsigned i = 0; i < s->eval_train; i++)
		right_train += correct[i];
	for (unsigned i = 0; i < s->eval_test; i++)
		right_test += correct[s->eval_train + i];
	out->loss = sum / s->steps;
	out->train_acc = right_train / s->data->ntrain;
	out->test_acc = right_test / s->data->ntest;
	out->step_loss = loss;
}

/*
 * Run @prog once per transfer of the replicated inputs: write transfer i
 * of input handles @in[0..1] (rows of @in_bytes[k] each, from buffers
 * @inb), run, read the replicas' scalars of handle @out into
 * @outb[i * replicas...]. Data-parallel: the replicas take the transfer's
 * consecutive slices. The runs' host time is added to *@ns.
 */
static int run_replicated(struct train_session *s, uint32_t prog, unsigned n,
			  const char *const in[2], struct ipu_buffer *const inb[2],
			  const size_t in_bytes[2], const char *out, float *outb,
			  uint64_t *ns, struct ipu_error *err)
{
	struct ipu_run_stats st;
	int ret = 0;

	for (unsigned i = 0; i < n && !ret; i++) {
		for (unsigned k = 0; k < 2 && !ret; k++)
			ret = ipu_tensor_write(s->dev, in[k],
					       (char *)ipu_buffer_ptr(inb[k]) + i * in_bytes[k],
					       in_bytes[k], err);
		if (!ret)
			ret = ipu_run(s->dev, prog, 1, &st, err);
		if (!ret)
			ret = ipu_tensor_read(s->dev, out, &outb[(size_t)i * s->replicas],
					      s->replicas * sizeof(float), err);
		if (!ret && ns)
			*ns += st.host_ns;
	}
	return ret;
}

/* The training and the evaluation runs of a data-parallel epoch. */
static int epoch_replicated(struct train_session *s, uint64_t *ns, struct ipu_error *err)
{
	static const char *const train_in[2] = { TRAIN_STREAM_X, TRAIN_STREAM_T };
	static const char *const eval_in[2] = { TRAIN_STREAM_EVAL_X, TRAIN_STREAM_EVAL_Y };
	const size_t train_bytes[2] = { (size_t)s->batch * DIGITS_PIXELS * 4,
					(size_t)s->batch * DIGITS_CLASSES * 4 };
	const size_t eval_bytes[2] = { (size_t)s->replicas * TRAIN_EVAL_BATCH * DIGITS_PIXELS * 4,
				       (size_t)s->replicas * TRAIN_EVAL_BATCH * 4 };
	float *loss = ipu_buffer_ptr(s->loss), *rep = malloc((size_t)s->steps * s->replicas * 4);
	int ret;

	if (!rep)
		return tool_error(err, -ENOMEM, "ipu-train: out of memory");
	ret = run_replicated(s, TRAIN_PROG_STEP, s->steps, train_in,
			     (struct ipu_buffer *const[2]){ s->x, s->t }, train_bytes,
			     TRAIN_STREAM_LOSS, rep, ns, err);
	/* a step's loss: the mean of its replicas' (each the mean of its slice) */
	for (unsigned i = 0; !ret && i < s->steps; i++) {
		double sum = 0;

		for (unsigned r = 0; r < s->replicas; r++)
			sum += rep[(size_t)i * s->replicas + r];
		loss[i] = (float)(sum / s->replicas);
	}
	free(rep);
	if (!ret)
		ret = run_replicated(s, TRAIN_PROG_EVAL, s->eval_runs, eval_in,
				     (struct ipu_buffer *const[2]){ s->ex, s->ey }, eval_bytes,
				     TRAIN_STREAM_EVAL_CORRECT, ipu_buffer_ptr(s->correct), NULL, err);
	return ret;
}

int train_session_epoch(struct train_session *s, struct train_epoch *out,
			struct ipu_error *err)
{
	size_t b = s->batch;
	struct ipu_run_stats st;
	uint64_t ns = 0;
	int ret;

	train_rng_shuffle(&s->rng, s->order, s->data->ntrain);
	for (unsigned i = 0; i < s->steps; i++)
		train_fill_batch(s->data, &s->order[i * b], (unsigned)b,
				 (float *)ipu_buffer_ptr(s->x) + i * b * DIGITS_PIXELS,
				 (float *)ipu_buffer_ptr(s->t) + i * b * DIGITS_CLASSES);
	if (s->replicas > 1) {
		ret = epoch_replicated(s, &ns, err);
	} else {
		ret = ipu_run(s->dev, TRAIN_PROG_STEP, s->steps, &st, err);
		ns = st.host_ns;
		if (!ret)
			ret = ipu_run(s->dev, TRAIN_PROG_EVAL,
				      (uint64_t)s->eval_train + s->eval_test, NULL, err);
	}
	if (ret)
		return ret;
	out->seconds = ns * 1e-9;
	out->samples_per_s = out->seconds > 0 ? s->steps * b / out->seconds : 0;
	collect(s, out);
	return 0;
}

int train_session_save(struct train_session *s, const char *dir,
		       const char *prefix, struct ipu_error *err)
{
	char path[4096], *c;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return tool_error(err, -errno, "ipu-train: cannot create directory '%s': %s",
				  dir, strerror(errno));
	for (unsigned i = 0; i < s->net.nparams; i++) {
		const struct train_param *p = &s->net.params[i];
		struct ipu_tensor_desc td;
		uint64_t shape[IPU_MAX_RANK];
		size_t bytes = p->elements * sizeof(float);
		float *w = malloc(bytes * s->replicas);
		int ret;

		if (!w)
			return tool_error(err, -ENOMEM, "ipu-train: out of memory");
		ret = ipu_graph_tensor_desc(s->net.g, p->tensor, &td, err);
		for (unsigned k = 0; !ret && k < td.rank; k++)
			shape[k] = td.shape[k];
		snprintf(path, sizeof(path), "%s/%s%s.npy", dir, prefix, p->name);
		for (c = path + strlen(dir) + 1; *c; c++)
			if (*c == '/')
				*c = '_';
		if (!ret)
			ret = ipu_tensor_read(s->dev, p->name, w, bytes * s->replicas, err);
		/* data-parallel: every replica holds the same weights, bit for bit */
		for (unsigned r = 1; !ret && r < s->replicas; r++)
			if (memcmp(w, (char *)w + r * bytes, bytes))
				ret = tool_error(err, -EIO, "ipu-train: weight '%s' of replica %u "
						 "differs from replica 0's", p->name, r);
		if (!ret)
			ret = ipu_npy_write(path, IPU_DTYPE_F32, td.rank, shape, w, err);
		free(w);
		if (ret)
			return ret;
	}
	return 0;
}

void train_session_close(struct train_session *s)
{
	ipu_buffer_free(s->x);
	ipu_buffer_free(s->t);
	ipu_buffer_free(s->loss);
	ipu_buffer_free(s->ex);
	ipu_buffer_free(s->ey);
	ipu_buffer_free(s->correct);
	ipu_graph_free(s->net.g);
	free(s->order);
	memset(s, 0, sizeof(*s));
}
