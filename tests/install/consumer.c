/*
 * A program as a user of the installed libipudev writes it: built with
 * `pkg-config --cflags --libs libipudev` (shared) or with --static, it
 * builds c = a + b on the small test chip, runs it on the model device and
 * checks every element. Exit 0 and "consumer: ok N" when all match, 1
 * otherwise (the library's message on stderr).
 */
#include <ipudev.h>
#include <stdio.h>
#include <stdlib.h>

#define N 96

static int fail(const char *what, const struct ipu_error *e)
{
	fprintf(stderr, "consumer: %s: %s\n", what, e->msg);
	return 1;
}

/* The graph c = a + b over all tiles; *@bin (free() it) its binary. */
static int build(void **bin, size_t *len, struct ipu_error *e)
{
	const uint32_t shape[1] = { N };
	struct ipu_graph *g;
	int a, b, c, seq, r;

	if (ipu_graph_create(IPU_MODEL_TEST, &g, e) < 0)
		return -1;
	r = a = ipu_graph_add_tensor(g, "a", IPU_DTYPE_F32, 1, shape, e);
	if (r >= 0)
		r = b = ipu_graph_add_tensor(g, "b", IPU_DTYPE_F32, 1, shape, e);
	if (r >= 0)
		r = ipu_graph_map_linear(g, a, 1, e);
	if (r >= 0)
		r = ipu_graph_map_like(g, b, a, e);
	if (r >= 0)
		r = ipu_graph_expose(g, a, NULL, IPU_HANDLE_WRITE, e);
	if (r >= 0)
		r = ipu_graph_expose(g, b, NULL, IPU_HANDLE_WRITE, e);
	if (r >= 0)
		r = seq = ipu_prog_sequence(g, e);
	if (r >= 0)
		r = c = ipu_binary(g, seq, IPU_OP_ADD, a, b, "c", e);
	if (r >= 0)
		r = ipu_graph_expose(g, c, NULL, IPU_HANDLE_READ, e);
	if (r >= 0)
		r = ipu_graph_add_program(g, "main", seq, e);
	if (r >= 0)
		r = ipu_graph_write(g, bin, len, e);
	ipu_graph_free(g);
	return r < 0 ? -1 : 0;
}

int main(void)
{
	struct ipu_error e = { 0 };
	struct ipu_device *dev;
	float a[N], b[N], c[N];
	void *bin;
	size_t len;
	int i, bad = 0;

	for (i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 0.5f * (float)i + 1.0f;
	}
	if (build(&bin, &len, &e) < 0)
		return fail("build", &e);
	if (ipu_model_open("test", 1, &dev, &e) < 0) {
		free(bin);
		return fail("ipu_model_open", &e);
	}
	if (ipu_load(dev, bin, len, &e) < 0 ||
	    ipu_tensor_write(dev, "a", a, sizeof(a), &e) < 0 ||
	    ipu_tensor_write(dev, "b", b, sizeof(b), &e) < 0 ||
	    ipu_run(dev, 0, 1, NULL, &e) < 0 ||
	    ipu_tensor_read(dev, "c", c, sizeof(c), &e) < 0) {
		free(bin);
		ipu_device_close(dev);
		return fail("run", &e);
	}
	free(bin);
	ipu_device_close(dev);
	for (i = 0; i < N; i++)
		bad += c[i] != a[i] + b[i];
	if (bad) {
		fprintf(stderr, "consumer: %d of %d elements wrong (c[1] = %g)\n", bad, N, c[1]);
		return 1;
	}
	printf("consumer: ok %d (libipudev %s)\n", N, ipu_version());
	return 0;
}
