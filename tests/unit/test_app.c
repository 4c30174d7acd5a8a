/* The program-support layer (app/et_app.h): the one exit-status mapping
 * (a failure's code, 3 when none was set), the one warning format ("PROG:
 * warning: MSG", one line, whoever warns: et_warn from the library or a tool,
 * et_warn_as under a subcommand's name), the error line, and et_die's exit
 * status and removal of temporary output files. Each runs in a child whose
 * stderr is a pipe. */
#include "app/et_app.h"
#include "check.h"
#include "et_err.h"
#include "et_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmp_out[] = "/tmp/test_app.XXXXXX";

/* Runs fn in a child with stderr on a pipe; returns its wait status and
 * what it wrote there. */
static int in_child(void (*fn)(void), char *err, size_t cap)
{
	int p[2];
	CHECK(pipe(p) == 0);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 2);
		close(p[0]);
		et_app_init("prog");
		fn();
		fflush(stderr);
		_exit(0);
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;
	while (n < cap - 1 && (r = read(p[0], err + n, cap - 1 - n)) > 0)
		n += (size_t)r;
	err[n] = 0;
	close(p[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	return st;
}

static void exit_codes(void)
{
	et_error e = {0};
	CHECK(et_app_exit_code(&e) == ET_EXIT_DATA); /* no code set: 3 */
	et_fail(&e, ET_EXIT_IO, "x");
	CHECK(et_app_exit_code(&e) == ET_EXIT_IO);
	et_fail(&e, ET_EXIT_FOUND, "x");
	CHECK(et_app_exit_code(&e) == ET_EXIT_FOUND);
}

static void warns(void)
{
	et_warn("a %s\nb", "tab\there");
	et_warn_as("prog sub", "-%c is old", 'x');
}

static void fails(void)
{
	et_error e = {0};
	et_fail(&e, ET_EXIT_USAGE, "in.et: rank %d: bad", 3);
	if (et_app_fail(&e) != ET_EXIT_USAGE)
		_exit(9);
	et_error none = {0};
	if (et_app_fail(&none) != ET_EXIT_DATA)
		_exit(9);
}

static void dies(void)
{
	et_output *o;
	et_error e;
	if (et_output_open(&o, tmp_out, false, &e) < 0)
		_exit(9);
	fputs("partial", et_output_file(o));
	et_die(ET_EXIT_IO, "gone %d", 4);
}

int main(void)
{
	char err[512];
	exit_codes();
	int st = in_child(warns, err, sizeof err);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(strcmp(err, "prog: warning: a tab?here?b\nprog sub: warning: -x is old\n") == 0);
	st = in_child(fails, err, sizeof err);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(strcmp(err, "prog: in.et: rank 3: bad\nprog: unknown error\n") == 0);
	int fd = mkstemp(tmp_out);
	CHECK(fd >= 0);
	close(fd);
	unlink(tmp_out); /* et_output writes a temp file beside it */
	st = in_child(dies, err, sizeof err);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == ET_EXIT_IO);
	CHECK(strcmp(err, "prog: gone 4\n") == 0);
	CHECK(access(tmp_out, F_OK) != 0); /* never committed */
	char cmd[128];                     /* nor its temp file left beside it */
	snprintf(cmd, sizeof cmd, "ls %s.tmp* >/dev/null 2>&1", tmp_out);
	CHECK(system(cmd) != 0);
	return check_failures();
}
