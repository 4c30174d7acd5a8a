/* et_mem's array-growth rule (ET_GROW): contents kept, capacity at least
 * doubles, and a byte count beyond size_t is out of memory (exit 4, one
 * line), never a wrapped allocation. */
#include "check.h"
#include "et_err.h"
#include "et_mem.h"

#include <stdint.h>
#include <stdlib.h>
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

static void overflow_is_oom(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		double *d = NULL;
		size_t cap = 0;
		ET_GROW(d, cap, SIZE_MAX / 4); /* SIZE_MAX/4 * 8 bytes wraps */
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == ET_EXIT_IO);
}

int main(void)
{
	et_err_set_prog("test_mem");
	grows_and_keeps();
	overflow_is_oom();
	return check_failures();
}
