// SPDX-License-Identifier: MIT
/* OpenBLAS baselines in a child with a clean environment: see blas_baseline.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memfd_create, environ */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blas_baseline.h"

#define BB_ARG "--openblas-baseline"
#define BB_HDR 64	/* the core name, before the job (keeps it 64-byte aligned) */

char *openblas_get_corename(void);

static const char *const pinned[] = { "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE" };
static int bb_fd = -1;
static char *bb_map;

void *bb_alloc(size_t len)
{
	bb_fd = memfd_create("openblas-baseline", 0);	/* no CLOEXEC: the child maps it */
	if (bb_fd < 0 || ftruncate(bb_fd, (off_t)(BB_HDR + len)))
		return NULL;
	bb_map = mmap(NULL, BB_HDR + len, PROT_READ | PROT_WRITE, MAP_SHARED, bb_fd, 0);
	return bb_map == MAP_FAILED ? (bb_map = NULL) : bb_map + BB_HDR;
}

static int is_pinned(const char *entry)
{
	for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++) {
		size_t l = strlen(pinned[i]);

		if (!strncmp(entry, pinned[i], l) && entry[l] == '=')
			return 1;
	}
	return 0;
}

int bb_env_pinned(void)
{
	for (char **e = environ; *e; e++)
		if (is_pinned(*e))
			return 1;
	return 0;
}

int bb_run(int clean)
{
	static char self[] = "/proc/self/exe", arg[] = BB_ARG;
	char fd[16], *argv[] = { self, arg, fd, NULL };
	size_t n = 0, k = 0;
	char **env;
	int st;
	pid_t pid;

	if (!bb_map)
		return -1;
	while (environ[n])
		n++;
	env = calloc(n + 1, sizeof(*env));
	if (!env)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!clean || !is_pinned(environ[i]))
			env[k++] = environ[i];
	snprintf(fd, sizeof(fd), "%d", bb_fd);
	memset(bb_map, 0, BB_HDR);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execve(argv[0], argv, env);
		perror("openblas baseline: exec");
		_exit(127);
	}
	free(env);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

const char *bb_core(void)
{
	return bb_map && bb_map[0] ? bb_map : "unknown";
}

void *bb_child(int argc, char **argv)
{
	struct stat s;
	char *map;
	int fd;

	if (argc < 3 || strcmp(argv[1], BB_ARG))
		return NULL;
	fd = atoi(argv[2]);
	if (fstat(fd, &s) || s.st_size <= BB_HDR)
		exit(1);
	map = mmap(NULL, (size_t)s.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		exit(1);
	snprintf(map, BB_HDR, "%s", openblas_get_corename());
	return map + BB_HDR;
}
