/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the graph loader: load the input into a test-model
 * engine; if it loads, read every host tensor, connect every stream and run
 * each entry program (at most 4) with a step limit, so a hostile graph can
 * neither crash, hang nor allocate without bound. Codelets: the test set
 * (ids 0x7000+, what the seeds use) and the real library for every other id.
 *
 * The loader starts with the container reader (graph_container.c), which
 * libipudev also runs before a card LOAD; the target also runs the reader
 * alone and checks its contract: every section it hands out lies inside the
 * input with size == entsize x count >= the record size, and when it
 * refuses, the loader refuses with the same words. Packed tables (the
 * compact form, packed_*.bin seeds) are checked by that reader too: a
 * table it hands out lies inside the PACKED section, within the expansion
 * limit, and the loader rebuilds and checks its records.
 *
 * A multi-IPU binary (an ipus section, format 1.2) also loads on a group of
 * that many engines joined by the in-process fabric (m2000 for 4, pod16
 * for 16, a ring otherwise): every member must refuse it alike, or load it
 * and run each program together, one thread each, the first member with a
 * step limit, which ends every member's run (no member may hang).
 *
 * The input's header checksum and total_size are fixed up before loading:
 * otherwise nearly every mutation dies at the checksum and the fuzzer never
 * reaches the sections (checksum rejection has its own unit test).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include "fabric_local.h"
#include "graph_container.h"
#include "ipu_engine.h"
#include "ipu/ipu_models.h"
#include "tcodelets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct ipue_codelet *lookup(uint16_t id)
{
	const struct ipue_codelet *c = tc_lookup(id);

	return c ? c : ipue_codelet_find(id);
}

struct feed {
	unsigned fetched;
};

static int fetch(void *user, unsigned s, void *dst, size_t len)
{
	struct feed *f = user;

	(void)s;
	if (f->fetched++ > 64)
		return IPUE_STREAM_NO_DATA;
	memset(dst, (int)(f->fetched & 0xff), len);
	return 0;
}

static int push(void *user, unsigned s, const void *src, size_t len)
{
	(void)user; (void)s; (void)src; (void)len;
	return 0;
}

/* a packed table's groups lie inside the PACKED section, its records in the limit */
static void check_packed(const struct ipue_container *c, unsigned t, size_t size)
{
	const struct ipue_section *ps = &c->s[IPU_GRAPH_SEC_PACKED];
	const struct ipue_packed_ref *pk = &c->pk[t];

	if (!ipu_graph_packable(t) || !ps->p || pk->p < ps->p || pk->bytes > ps->size ||
	    (size_t)(pk->p - ps->p) > ps->size - pk->bytes ||
	    c->s[t].size != (uint64_t)c->s[t].entsize * c->s[t].count ||
	    c->s[t].entsize < ipu_graph_record_size(t) || c->s[t].entsize % 4 ||
	    c->s[t].size > (uint64_t)IPU_GRAPH_PACKED_MAX_EXPANSION * size + IPU_GRAPH_PACKED_SLACK)
		abort();
}

/* the reader's output: sections inside the input, sizes as the doc says */
static void check_container(const uint8_t *bin, size_t size, const struct ipue_container *c)
{
	for (unsigned t = 1; t < IPU_GRAPH_SEC_COUNT_; t++) {
		const struct ipue_section *s = &c->s[t];

		if (c->pk[t].p) {
			check_packed(c, t, size);
			continue;
		}
		if (!s->p) {
			if (s->size || s->count)
				abort();
			continue;
		}
		if (s->p < bin || s->size > size || (size_t)(s->p - bin) > size - s->size ||
		    (size_t)(s->p - bin) % IPU_GRAPH_ALIGN ||
		    s->size != (uint64_t)s->entsize * s->count ||
		    s->entsize < ipu_graph_record_size(t))
			abort();
	}
}

struct member {
	struct ipue_engine *e;
	uint32_t program;
	uint64_t step_limit;
};

static void *member_run(void *arg)
{
	struct member *m = arg;
	struct ipue_run_opts o = { .program = m->program, .step_limit = m->step_limit };

	ipue_run(m->e, &o, NULL);
	return NULL;
}

/* the binary's IPU count from its ipus section, 1 without one */
static uint32_t binary_ipus(const struct ipue_container *c)
{
	struct ipu_graph_ipus r;

	if (c->s[IPU_GRAPH_SEC_IPUS].count != 1)
		return 1;
	ipue_container_rec(c, IPU_GRAPH_SEC_IPUS, 0, &r);
	return ipu_graph_ipus_ok(r.ipus) ? r.ipus : 1;
}

/* load and run a multi-IPU binary on a group of n engines */
static void fuzz_group(const uint8_t *bin, size_t size, uint32_t n,
		       const struct ipue_config *cfg, const struct ipue_stream_callbacks *cb)
{
	const char *topo = n == 4 ? "m2000" : n == 16 ? "pod16" : "ring";
	struct ipue_fabric_local *f;
	struct member m[IPU_GRAPH_MAX_IPUS];
	pthread_t th[IPU_GRAPH_MAX_IPUS];
	struct ipue_load_error err0, err;
	int rc0 = 0, programs;

	if (ipue_fabric_local_create(topo, n, 4, &f))
		abort();
	for (uint32_t k = 0; k < n; k++) {
		int rc;

		if (ipue_engine_create(cfg, &m[k].e) || ipue_fabric_local_join(f, (1ull << n) - 1, k, m[k].e))
			abort();
		ipue_set_codelet_lookup(m[k].e, lookup);
		rc = ipue_load(m[k].e, bin, size, k ? &err : &err0);
		if (!k)
			rc0 = rc;
		else if (rc != rc0 || (rc && (err.section != err0.section || err.record != err0.record))) {
			fprintf(stderr, "member %u: %d %s; member 0: %d %s\n", k, rc,
				rc ? err.message : "", rc0, rc0 ? err0.message : "");
			abort();	/* every member refuses alike */
		}
	}
	programs = rc0 ? 0 : ipue_program_count(m[0].e);
	for (uint32_t k = 0; k < n && !rc0; k++)
		for (int s = 0; s < ipue_stream_count(m[k].e); s++)
			ipue_stream_connect(m[k].e, (unsigned)s, cb);
	for (int p = 0; p < programs && p < 4; p++) {
		for (uint32_t k = 0; k < n; k++) {
			m[k].program = (uint32_t)p;
			m[k].step_limit = k ? 0 : 2000;	/* member 0 ends everyone's run */
			if (pthread_create(&th[k], NULL, member_run, &m[k]))
				abort();
		}
		for (uint32_t k = 0; k < n; k++)
			pthread_join(th[k], NULL);
	}
	for (uint32_t k = 0; k < n; k++) {
		ipue_fabric_local_leave(f, k);
		ipue_engine_destroy(m[k].e);
	}
	ipue_fabric_local_destroy(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipue_container c;
	struct ipue_load_error cerr;
	int cont_rc;
	/* the memory checker on: its load and run paths see every input (a
	 * binary without memory_regions loads and runs as without it) */
	struct ipue_config cfg = { .model = IPU_MODEL_TEST, .host_threads = 1,
				   .flags = IPUE_CONFIG_MEMCHECK };
	struct ipue_engine *e;
	struct ipue_load_error err;
	struct feed feed = { 0 };
	struct ipue_stream_callbacks cb = { fetch, push, &feed };
	uint8_t buf[256], *bin = malloc(size ? size : 1);

	if (!bin || ipue_engine_create(&cfg, &e))
		abort();
	memcpy(bin, data, size);
	if (size >= sizeof(struct ipu_graph_header)) {
		uint64_t total = size;
		uint32_t crc;

		memcpy(bin + offsetof(struct ipu_graph_header, total_size), &total, 8);
		crc = ipu_graph_checksum(bin, size);
		memcpy(bin + offsetof(struct ipu_graph_header, checksum), &crc, 4);
	}
	ipue_set_codelet_lookup(e, lookup);
	cont_rc = ipue_container_read(bin, size, &c, &cerr);
	if (!cont_rc)
		check_container(bin, size, &c);
	else if (cont_rc != IPUE_EFORMAT || !cerr.message[0])
		abort();
	if (ipue_load(e, bin, size, &err) == 0) {
		if (cont_rc)
			abort();	/* the loader took what its reader refused */
		for (int h = 0; h < ipue_handle_count(e); h++) {
			struct ipue_tensor_info ti;

			if (ipue_handle_info(e, (unsigned)h, &ti))
				abort();
			if (ipue_tensor_read(e, (unsigned)h, 0, buf,
					     ti.bytes < sizeof(buf) ? ti.bytes : sizeof(buf)) ==
			    IPUE_EACCES && (ti.access & IPU_HANDLE_READ))
				abort();
		}
		for (int s = 0; s < ipue_stream_count(e); s++)
			ipue_stream_connect(e, (unsigned)s, &cb);
		for (int p = 0; p < ipue_program_count(e) && p < 4; p++) {
			struct ipue_run_opts o = { .program = (uint32_t)p, .step_limit = 2000 };

			ipue_run(e, &o, NULL);
		}
	} else if (err.message[0] == 0) {
		abort();	/* every rejection names its fault */
	} else if (cont_rc && (strcmp(err.message, cerr.message) || err.section != cerr.section ||
			      err.record != cerr.record)) {
		abort();	/* a container refusal reads the same on both paths */
	}
	if (!cont_rc && binary_ipus(&c) > 1)
		fuzz_group(bin, size, binary_ipus(&c), &cfg, &cb);
	ipue_engine_destroy(e);
	free(bin);
	return 0;
}
