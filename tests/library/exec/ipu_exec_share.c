// SPDX-License-Identifier: MIT
/*
 * In-VM test: 8 processes share the cards (2 per card with 4 cards) for a
 * bounded time (IPU_SHARE_SECONDS, default 20 s). Each process, in a loop:
 * open and attach (waiting while the other holds the card), load a matmul
 * graph for the card's chip, write random inputs, run, read, compare with
 * the product computed on the host CPU, close (detach). Every result is
 * checked; each process must complete at least one round. KTAP on stdout.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec_common.h"

#define NPROC	8

struct report {
	unsigned rounds, bad;
	double waited;
	char msg[300];
};

static int child(unsigned id, uint32_t model, double seconds, unsigned idx, int fd)
{
	enum { M = 48, K = 64, N = 40 };
	struct report rep;
	struct ipu_error e;
	float a[M * K], b[K * N], c[M * N];
	double ref[M * N];
	uint64_t seed = 0x9e3779b97f4a7c15ull * (idx + 1);
	void *bin = NULL;
	size_t len;
	double end = kt_now() + seconds;

	memset(&rep, 0, sizeof(rep));
	if (graph_matmul(model, M, K, N, &bin, &len, &e)) {
		snprintf(rep.msg, sizeof(rep.msg), "build: %s", e.msg);
		rep.bad++;
	}
	while (!rep.bad && kt_now() < end) {
		struct ipu_device *d = NULL;
		double t0 = kt_now(), err;

		if (ipu_device_open(id, IPU_OPEN_ATTACH, &d, &e)) {
			snprintf(rep.msg, sizeof(rep.msg), "open: %s", e.msg);
			rep.bad++;
			break;
		}
		rep.waited += kt_now() - t0;
		fill_floats(a, M * K, &seed);
		fill_floats(b, K * N, &seed);
		if (ipu_load(d, bin, len, &e) || ipu_tensor_write(d, "a", a, sizeof(a), &e) ||
		    ipu_tensor_write(d, "b", b, sizeof(b), &e) || ipu_run(d, 0, 1, NULL, &e) ||
		    ipu_tensor_read(d, "c", c, sizeof(c), &e)) {
			snprintf(rep.msg, sizeof(rep.msg), "round %u: %s", rep.rounds, e.msg);
			rep.bad++;
			ipu_device_close(d);
			break;
		}
		ipu_device_close(d);
		ref_matmul(a, b, ref, M, N, K);
		err = max_rel_err(c, ref, (size_t)M * N, sqrt((double)K));
		if (!(err < 1e-5)) {
			snprintf(rep.msg, sizeof(rep.msg), "round %u: wrong product (max rel. error %g)",
				 rep.rounds, err);
			rep.bad++;
			break;
		}
		rep.rounds++;
	}
	free(bin);
	if (write(fd, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		return 2;
	return rep.bad ? 1 : 0;
}

int main(void)
{
	struct ipu_card *cards;
	struct ipu_error e;
	size_t n;
	pid_t pid[NPROC];
	int fds[NPROC];
	double seconds = 20;
	const char *env = getenv("IPU_SHARE_SECONDS");
	unsigned total = 0;

	printf("TAP version 13\n");
	if (env && atof(env) > 0)
		seconds = atof(env);
	if (ipu_enumerate(&cards, &n, &e)) {
		printf("1..1\nnot ok 1 enumerate # %s\n", e.msg);
		return 1;
	}
	if (n > 4)
		n = 4;
	printf("1..%d\n", NPROC + 1);
	fflush(stdout);
	for (unsigned i = 0; i < NPROC; i++) {
		int p[2];

		if (pipe(p)) {
			perror("pipe");
			return 1;
		}
		pid[i] = fork();
		if (pid[i] == 0) {
			close(p[0]);
			_exit(child(cards[i % n].id, cards[i % n].model, seconds, i, p[1]));
		}
		close(p[1]);
		fds[i] = p[0];
	}
	for (unsigned i = 0; i < NPROC; i++) {
		struct report rep;
		int st = 0;
		ssize_t got = read(fds[i], &rep, sizeof(rep));

		waitpid(pid[i], &st, 0);
		close(fds[i]);
		if (got != (ssize_t)sizeof(rep)) {
			kt_result(0, "process %u on ipu%u # died (status 0x%x)", i, cards[i % n].id, st);
			continue;
		}
		total += rep.rounds;
		kt_result(!rep.bad && rep.rounds > 0 && WIFEXITED(st) && !WEXITSTATUS(st),
			  "process %u on ipu%u (%s): %u rounds checked, %.1f s waiting to attach%s%s", i,
			  cards[i % n].id, ipu_model_name(cards[i % n].model), rep.rounds, rep.waited,
			  rep.bad || !rep.rounds ? " # " : "",
			  rep.bad ? rep.msg : !rep.rounds ? "no round completed" : "");
	}
	kt_result(total > 0, "%u rounds in %.0f s over %zu cards", total, seconds, n);
	ipu_cards_free(cards);
	return kt_fail ? 1 : 0;
}
