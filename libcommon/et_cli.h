/* et_cli: the conventions every tool shares.
 *
 * Each tool lists its own getopt_long options and appends ET_CLI_COMMON_OPTS;
 * et_cli_common() handles -h/--help, --version, -o/--output, -q/--quiet and
 * --progress, returning true when it consumed the option. Usage errors exit 2
 * with "prog: message" and a hint to run --help. */
#ifndef ET_CLI_H
#define ET_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#ifndef ETKIT_VERSION
#define ETKIT_VERSION "0.1.0"
#endif

enum { ET_OPT_VERSION = 0x1000, ET_OPT_PROGRESS, ET_OPT_FIRST_TOOL = 0x1100 };

#define ET_CLI_COMMON_SHORT "ho:q"
#define ET_CLI_COMMON_OPTS                                                                         \
	{"help", no_argument, 0, 'h'}, {"version", no_argument, 0, ET_OPT_VERSION},                \
	    {"output", required_argument, 0, 'o'}, {"quiet", no_argument, 0, 'q'},                 \
	    {"progress", no_argument, 0, ET_OPT_PROGRESS},                                         \
	{                                                                                          \
		0, 0, 0, 0                                                                         \
	}

typedef struct et_cli {
	const char *prog;
	const char *usage;  /* full --help text */
	const char *output; /* -o, NULL = stdout */
	int progress;       /* -1 = quiet, 0 = auto (stderr is a tty), 1 = forced */
} et_cli;

void et_cli_init(et_cli *c, const char *prog, const char *usage);
bool et_cli_common(et_cli *c, int opt, const char *arg);
_Noreturn void et_cli_usage_error(const et_cli *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Strict number parsing for option values; exit 2 naming the option. */
int64_t et_cli_int(const et_cli *c, const char *opt, const char *arg, int64_t min, int64_t max);
uint64_t et_cli_size(const et_cli *c, const char *opt, const char *arg); /* 4096, 64K, 1M, 2G */
double et_cli_double(const et_cli *c, const char *opt, const char *arg);

/* A rank list "0-3,7,9-10" as a predicate over ranks. */
typedef struct et_ranklist {
	uint32_t (*ranges)[2];
	int n;
} et_ranklist;
int et_ranklist_parse(et_ranklist *rl, const char *s);   /* 0 ok, -1 bad */
bool et_ranklist_has(const et_ranklist *rl, uint32_t r); /* empty list = all */
void et_ranklist_free(et_ranklist *rl);

#endif
