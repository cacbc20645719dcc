/* SPDX-License-Identifier: MIT */
/*
 * Host streams: a FIFO of `depth` transfers per stream between the host
 * callbacks and StreamCopy nodes. Host->device: an empty FIFO is refilled
 * with up to depth fetches (prefetch). Device->host: transfers queue until
 * depth are waiting, then all are pushed; the runner flushes at run end.
 */
#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>

/* FIFO storage on first use: bounded by depth (<= 16) x a tensor's bytes */
static int fifo_ready(struct ipue_rt_stream *s)
{
	if (s->fifo)
		return 0;
	s->fifo = calloc(s->depth, s->bytes ? (size_t)s->bytes : 1);
	return s->fifo ? 0 : IPUE_ENOMEM;
}

static uint8_t *slot(struct ipue_rt_stream *s, uint32_t i)
{
	return s->fifo + (size_t)((s->head + i) % s->depth) * s->bytes;
}

/*
 * StreamCopy host->device into tensor t (same byte size, checked at load).
 * Returns 0, IPUE_ESTREAM (not connected, callback error, underrun) or
 * IPUE_ENOMEM.
 */
int ipue_stream_h2d(struct ipue_rt_stream *s, const struct ipue_rt_tensor *t)
{
	int rc;

	if (!s->connected || !s->cb.fetch)
		return IPUE_ESTREAM;
	rc = fifo_ready(s);
	if (rc)
		return rc;
	/* prefetch only into an empty FIFO, as a DMA ring refill would */
	if (s->count == 0) {
		while (s->count < s->depth) {
			rc = s->cb.fetch(s->cb.user, s->index, slot(s, s->count),
					 (size_t)s->bytes);
			if (rc == IPUE_STREAM_NO_DATA)
				break;
			if (rc != 0)
				return IPUE_ESTREAM;
			s->count++;
		}
	}
	if (!s->count)
		return IPUE_ESTREAM;	/* underrun */
	ipue_tensor_copy(t, 0, slot(s, 0), s->bytes, 1, 0);
	s->head = (s->head + 1) % s->depth;
	s->count--;
	return 0;
}

/*
 * StreamCopy device->host from tensor t: queue one transfer, push all once
 * depth are queued. Returns 0, IPUE_ESTREAM or IPUE_ENOMEM.
 */
int ipue_stream_d2h(struct ipue_rt_stream *s, const struct ipue_rt_tensor *t)
{
	int rc;

	if (!s->connected || !s->cb.push)
		return IPUE_ESTREAM;
	rc = fifo_ready(s);
	if (rc)
		return rc;
	ipue_tensor_copy(t, 0, slot(s, s->count), s->bytes, 0, 0);
	s->count++;
	if (s->count == s->depth)
		return ipue_stream_flush(s);
	return 0;
}

/*
 * Push every queued device->host transfer in order; the queue is empty
 * afterwards even if a push fails. Returns 0 or IPUE_ESTREAM.
 */
int ipue_stream_flush(struct ipue_rt_stream *s)
{
	int rc = 0;

	if (s->direction != IPU_STREAM_DEVICE_TO_HOST)
		return 0;
	while (s->count) {
		if (rc == 0 && (!s->cb.push ||
		    s->cb.push(s->cb.user, s->index, slot(s, 0), (size_t)s->bytes) != 0))
			rc = IPUE_ESTREAM;
		s->head = (s->head + 1) % s->depth;
		s->count--;
	}
	return rc;
}

/* Forget queued transfers (connect/disconnect, reset). */
void ipue_stream_drop(struct ipue_rt_stream *s)
{
	s->head = 0;
	s->count = 0;
}
