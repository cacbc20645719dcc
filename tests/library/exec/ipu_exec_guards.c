// SPDX-License-Identifier: MIT
/*
 * In-VM test of the guards (docs/builder.md "Guards") on a card: a run
 * that reads a host-writable tensor nothing wrote fails with -ENODATA and
 * the tensor's name, as on the model device; writing it makes the run
 * work; a LOAD with IPU_LOAD_COMMIT_MEMORY commits the graph's tile memory
 * (compared by the committed bytes the card reports, not by time) and
 * computes the same; unknown load flags are -EINVAL. KTAP.
 */
#include "exec_common.h"

#define MM 128u

static struct ipu_error e;

/* a and b written, the matmul run, c read back: max relative error */
static int matmul_run(struct ipu_device *d, const float *a, const float *b, float *c,
		      struct ipu_run_stats *st)
{
	if (ipu_tensor_write(d, "a", a, MM * MM * 4, &e) ||
	    ipu_tensor_write(d, "b", b, MM * MM * 4, &e) ||
	    ipu_run(d, 0, 1, st, &e))
		return -1;
	return ipu_tensor_read(d, "c", c, MM * MM * 4, &e);
}

static void unwritten_tests(struct ipu_device *d, uint32_t model, const void *bin, size_t len,
			    const float *a, const float *b, float *c)
{
	struct ipu_device *m = NULL;
	struct ipu_error me;
	int r;

	kt_result(!ipu_load(d, bin, len, &e), "load the matmul graph%s%s", e.msg[0] ? " # " : "", e.msg);
	r = ipu_run(d, 0, 1, NULL, &e);
	kt_result(r == -ENODATA && strstr(e.msg, "reads tensor 'a', which was never written"),
		  "run before writing its inputs: -ENODATA naming the tensor # %d %s", r, e.msg);
	if (!ipu_model_open(ipu_model_name(model), 1, &m, &me) &&
	    !ipu_load(m, bin, len, &me)) {
		const char *cw = strstr(e.msg, ": reads"), *mw;

		ipu_run(m, 0, 1, NULL, &me);
		mw = strstr(me.msg, ": reads");
		/* the same words, but for the device's name */
		kt_result(cw && mw && !strcmp(cw, mw), "card and model device word it alike # %s", me.msg);
	} else {
		kt_result(0, "model device # %s", me.msg);
	}
	ipu_device_close(m);
	r = ipu_tensor_write(d, "a", a, MM * MM * 4, &e);
	r = r ? r : ipu_run(d, 0, 1, NULL, &e);
	kt_result(r == -ENODATA && strstr(e.msg, "'b'"), "with a written, b is named # %s", e.msg);
	kt_result(!matmul_run(d, a, b, c, NULL), "written, the run works%s%s", e.msg[0] ? " # " : "",
		  e.msg);
}

static void commit_tests(struct ipu_device *d, const void *bin, size_t len,
			 const float *a, const float *b, float *c)
{
	struct ipu_load_info lazy, eager;
	struct ipu_run_stats s1, s2;
	float *c2 = malloc(MM * MM * 4);
	int ok;

	ipu_error_clear(&e);
	ok = !ipu_load_ex(d, bin, len, 0, &lazy, &e) && !matmul_run(d, a, b, c, NULL);
	kt_result(ok, "lazy load and run%s%s", e.msg[0] ? " # " : "", e.msg);
	ok = !ipu_load_ex(d, bin, len, IPU_LOAD_COMMIT_MEMORY, &eager, &e);
	kt_result(ok, "load with IPU_LOAD_COMMIT_MEMORY%s%s", e.msg[0] ? " # " : "", e.msg);
	kt_result(eager.committed_bytes >= lazy.committed_bytes && eager.committed_bytes >= 3ull * MM * MM * 4,
		  "the card committed the tile memory at load # %llu bytes, lazily %llu",
		  (unsigned long long)eager.committed_bytes, (unsigned long long)lazy.committed_bytes);
	ok = !matmul_run(d, a, b, c2, &s1) && !ipu_run(d, 0, 1, &s2, &e);
	kt_result(ok && !memcmp(c, c2, MM * MM * 4), "committed: the same result, bit for bit");
	/* informational: first vs second run after a committed load */
	printf("# committed load: first run %.3f ms, second %.3f ms\n", s1.host_ns / 1e6, s2.host_ns / 1e6);
	kt_result(ipu_load_ex(d, bin, len, 0x80, NULL, &e) == -EINVAL && strstr(e.msg, "unknown flags"),
		  "an unknown load flag: -EINVAL # %s", e.msg);
	free(c2);
}

int main(void)
{
	struct ipu_device *d = NULL;
	uint32_t model = 0;
	void *bin = NULL;
	size_t len;
	uint64_t seed = 42;
	float *a = malloc(MM * MM * 4), *b = malloc(MM * MM * 4), *c = malloc(MM * MM * 4);

	printf("KTAP version 1\n1..10\n");
	if (ipu_device_open(0, 0, &d, &e) || card_model(d, &model, &e) ||
	    graph_matmul(model, MM, MM, MM, &bin, &len, &e)) {
		printf("# %s\n", e.msg);
		for (int i = 0; i < 10; i++)
			kt_result(0, "setup");
		return 1;
	}
	for (unsigned i = 0; i < MM * MM; i++) {
		a[i] = (float)(rnd64(&seed) % 1000) / 500.0f - 1.0f;
		b[i] = (float)(rnd64(&seed) % 1000) / 500.0f - 1.0f;
	}
	unwritten_tests(d, model, bin, len, a, b, c);
	commit_tests(d, bin, len, a, b, c);
	ipu_device_close(d);
	free(bin);
	free(a);
	free(b);
	free(c);
	return kt_fail ? 1 : 0;
}
