/* et_mem's array-growth rule (ET_GROW): contents kept, capacity at least
 * doubles, and a byte count beyond size_t is out of memory (exit 4, one
 * line, with the tools' handler), never a wrapped allocation. With no
 * handler (a library user's default) out of memory prints nothing and does
 * not exit: the process stops at a trap. */
#include "app/et_app.h"
#include "check.h"
#include "et_err.h"
#include "et_mem.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void grows_and_keeps(void)
{
	int *a = NULL;
	size_t cap = 0, reallocs = 0, last = 0;
	for (size_t i = 0; i < 100000; i++) {
		ET_GROW(a, cap, i + 1);
		a[i] = (int)i;
		if (cap != last)
			reallocs++, last = cap;
	}
	CHECK(cap >= 100000);
	CHECK(cap == 131072); /* 8 doubled 14 times */
	CHECK(reallocs == 15);
	int ok = 1;
	for (size_t i = 0; i < 100000; i++)
		ok &= a[i] == (int)i;
	CHECK(ok);
	ET_GROW(a, cap, 10); /* no shrink, no move needed */
	CHECK(cap == 131072);
	ET_GROW(a, cap, 1000000); /* a jump past double */
	CHECK(cap >= 1000000);
	free(a);
}

/* Grows past size_t in a child whose stderr is a pipe; returns its wait
 * status and what it wrote on stderr. */
static int overflow_child(bool handler, char *err, size_t cap_err)
{
	int p[2];
	CHECK(pipe(p) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 2);
		close(p[0]);
		if (handler)
			et_app_init("test_mem");
		else
			et_set_oom_handler(NULL);
		double *d = NULL;
		size_t cap = 0;
		ET_GROW(d, cap, SIZE_MAX / 4); /* SIZE_MAX/4 * 8 bytes wraps */
		_exit(0);
	}
	close(p[1]);
	ssize_t n = read(p[0], err, cap_err - 1);
	err[n > 0 ? n : 0] = 0;
	close(p[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	return st;
}

static void overflow_is_oom(void)
{
	char err[256];
	int st = overflow_child(true, err, sizeof err);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == ET_EXIT_IO);
	char want[128];
	snprintf(want, sizeof want, "test_mem: out of memory (asked for %zu bytes)\n", SIZE_MAX);
	CHECK(strcmp(err, want) == 0);
	/* the library alone: no message, no exit, no abort (SIGABRT) */
	st = overflow_child(false, err, sizeof err);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) != SIGABRT && err[0] == 0);
}

int main(void)
{
	grows_and_keeps();
	overflow_is_oom();
	return check_failures();
}
