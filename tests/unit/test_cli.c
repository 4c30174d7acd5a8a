/* Unit test of libcommon/et_cli: a table parses into its targets, operands
 * mix with options, a deprecated alias shadows a group's letter, --help is
 * laid out and wrapped from the table, and usage errors exit 2 with one
 * scrubbed line (checked in a child process). Rank lists: test_core.c. */
#include "app/et_cli.h"
#include "check.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct vals {
	bool flag;
	int set, num, choice;
	uint32_t u;
	int64_t big;
	uint64_t u64, size;
	double d;
	const char *str;
	int fn_calls;
} vals;

static int count_fn(et_cli *c, const et_opt *o, const char *arg)
{
	(void)c;
	vals *v = o->target;
	v->fn_calls += arg && strcmp(arg, "x") == 0 ? 1 : 100;
	return 0;
}

static const char *const colours[] = {"red", "green", "blue", NULL};

/* Builds the test table over v and parses argv. */
static void parse(et_cli *c, vals *v, int argc, char **argv)
{
	static et_opt opts[16];
	et_opt t[] = {
	    ET_OPT_FLAG('t', NULL, NULL, &v->flag, .flags = ET_OPT_DEPRECATED, .alias_of = "flag"),
	    ET_OPT_FLAG(0, "flag", "a flag", &v->flag),
	    ET_OPT_SET(0, "set", "sets 7", &v->set, .value = 7),
	    ET_OPT_INT('n', "nodes", "N", "a bounded int", &v->num, .min = -5, .max = 5),
	    ET_OPT_U32(0, "u", "N", "an unsigned", &v->u),
	    ET_OPT_I64(0, "big", "N", "a 64-bit int", &v->big),
	    ET_OPT_U64(0, "u64", "N", "an unsigned 64-bit int", &v->u64, .max = INT64_MAX),
	    ET_OPT_SIZE('s', "size", "SIZE", "a size", &v->size),
	    ET_OPT_DBL(0, "d", "X", "a number", &v->d),
	    ET_OPT_CHOICE(0, "colour", "C", "red, green or blue", &v->choice, .choices = colours),
	    ET_OPT_FN(0, "fn", "A", "a callback", v, .fn = count_fn),
	    ET_OPT_STR('t', "to", "FORMAT", "shadowed letter", &v->str),
	    ET_OPTS_COMMON(c),
	    ET_OPT_END,
	};
	memcpy(opts, t, sizeof t);
	*c = (et_cli){
	    .prog = "test-cli", .usage = "Usage: test-cli\n\n", .footer = "End.\n", .opts = opts};
	et_cli_parse(c, argc, argv);
}

static void test_values(void)
{
	char *argv[] = {"p",     "in1",         "--flag", "--set", "-n",  "-5",  "--u=42",   "in2",
	                "--big", "-9000000000", "-s",     "64K",   "--d", "2.5", "--colour", "blue",
	                "--fn",  "x",           "--to",   "json",  "-q",  "--",  "-o",       NULL};
	et_cli c;
	vals v = {0};
	parse(&c, &v, (int)(sizeof argv / sizeof *argv) - 1, argv);
	CHECK(v.flag && v.set == 7 && v.num == -5 && v.u == 42);
	CHECK(v.big == -9000000000LL && v.size == 65536 && v.d == 2.5);
	CHECK(v.choice == 2 && v.fn_calls == 1 && strcmp(v.str, "json") == 0);
	CHECK(c.progress == -1 && c.output == NULL);
	CHECK(c.nargs == 3);
	CHECK(c.nargs == 3 && strcmp(c.args[0], "in1") == 0 && strcmp(c.args[1], "in2") == 0 &&
	      strcmp(c.args[2], "-o") == 0);
	char *a2[] = {"p", "--u64", "9000000000", NULL};
	parse(&c, &v, 3, a2);
	CHECK(v.u64 == 9000000000ULL);
	CHECK(c.nargs == 0);
}

/* Runs parse in a child; returns its exit status, its stderr in err. */
static int child(char **argv, char *err, size_t cap)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 2);
		if (!freopen("/dev/null", "w", stdout))
			_exit(99);
		close(p[0]);
		et_cli c;
		vals v = {0};
		int argc = 0;
		while (argv[argc])
			argc++;
		parse(&c, &v, argc, argv);
		_exit(v.flag ? 10 : 0); /* 10: -t set the deprecated alias's flag */
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;
	while (n + 1 < cap && (r = read(p[0], err + n, cap - 1 - n)) > 0)
		n += (size_t)r;
	err[n] = 0;
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_errors(void)
{
	char err[1024];
	char *a1[] = {"p", "-n", "6", NULL};
	CHECK(child(a1, err, sizeof err) == 2);
	CHECK(strcmp(err, "test-cli: --nodes: expected an integer from -5 to 5, got '6'\n"
	                  "Try 'test-cli --help' for more information.\n") == 0);
	char *a2[] = {"p", "--colour", "re\001d", NULL};
	CHECK(child(a2, err, sizeof err) == 2);
	CHECK(strncmp(err, "test-cli: --colour: expected red, green or blue, got 're?d'\n", 60) ==
	      0);
	char *a3[] = {"p", "--nope", NULL};
	CHECK(child(a3, err, sizeof err) == 2);
	CHECK(strncmp(err, "test-cli: unknown option '--nope'\n", 34) == 0);
	char *a4[] = {"p", "-s", NULL};
	CHECK(child(a4, err, sizeof err) == 2);
	CHECK(strncmp(err, "test-cli: option '-s' needs an argument\n", 40) == 0);
	char *a5[] = {"p", "-s", "1Q", NULL};
	CHECK(child(a5, err, sizeof err) == 2);
	CHECK(strstr(err, "--size: expected a size such as 4096, 64K, 1M or 2G, got '1Q'"));
	/* the deprecated alias owns -t here: it warns and sets --flag */
	char *a6[] = {"p", "-t", NULL};
	CHECK(child(a6, err, sizeof err) == 10);
	CHECK(strcmp(err, "test-cli: warning: -t is deprecated, use --flag; -t is --to\n") == 0);
	char *a8[] = {"p", "--u64", "-1", NULL}; /* a uint64_t target takes no sign */
	CHECK(child(a8, err, sizeof err) == 2);
	CHECK(strstr(err, "--u64: expected an integer from 0 to 9223372036854775807, got '-1'"));
	char *a7[] = {"p", "--version", NULL};
	CHECK(child(a7, err, sizeof err) == 0);
}

static void test_help(void)
{
	char *argv[] = {"p", NULL};
	et_cli c;
	vals v = {0};
	parse(&c, &v, 1, argv);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	et_cli_print_help(&c, f);
	fclose(f);
	/* the alias is hidden; -t is not shown for --to (the alias has it) */
	CHECK(strstr(buf, "Usage: test-cli\n\n      --flag            a flag\n") == buf);
	CHECK(strstr(buf, "\n  -n, --nodes N         a bounded int\n"));
	CHECK(strstr(buf, "\n      --to FORMAT       shadowed letter\n"));
	CHECK(strstr(buf, "\n      --progress        progress on stderr even when it is not a "
	                  "terminal\n"));
	CHECK(!strstr(buf, "help-table"));
	CHECK(strstr(buf, "      --version         version\n\nEnd.\n"));
	free(buf);
}

static void test_letters(void)
{
	CHECK(strcmp(et_cli_letter_owner('T'), "threads") == 0);
	CHECK(strcmp(et_cli_letter_owner('F'), "format") == 0);
	CHECK(et_cli_letter_owner('Z') == NULL);
}

int main(void)
{
	test_values();
	test_errors();
	test_help();
	test_letters();
	return check_failures();
}
