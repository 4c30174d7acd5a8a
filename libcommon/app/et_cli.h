/* app/et_cli: one option table per command, from which both the parsing and
 * the --help text come (the way git's parse-options serves its builtins).
 * Part of the program-support layer (app/et_app.h): it prints usage errors
 * and exits, so library code never includes it.
 *
 * A command lists its options as an array of et_opt ending in ET_OPT_END;
 * entries may be headings (ET_OPT_HEADING) and groups shared by the suite
 * (ET_OPTS_COMMON, ET_OPTS_INPUT, ET_OPTS_WRITE below), so an option the
 * suite shares is declared, worded and checked in one place. et_cli_parse()
 * handles every entry, including -h/--help and --version, and leaves the
 * operands in c->args.
 *
 * Short options mean one thing across the suite: each letter belongs to one
 * long name (et_cli_letter_owner); a table that binds a letter to another
 * name is a programming error, reported when the table is parsed. A
 * deprecated alias (ET_OPT_DEPRECATED) is hidden from --help and warns when
 * used.
 *
 * Usage errors print "prog: message" (control characters scrubbed, as
 * et_fail does) and "Try 'prog --help' for more information.", and exit 2.
 * The hidden option --help-table prints the table, one visible option per
 * line ("group<TAB>-x<TAB>--long<TAB>ARG<TAB>help"), for the test that checks
 * --help against the tables; --help-table-all lists the hidden ones too
 * (group "hidden"), for the test that every accepted option does something. */
#ifndef APP_ET_CLI_H
#define APP_ET_CLI_H

#include "app/et_app.h"
#include "et_input.h"
#include "et_ranklist.h"
#include "et_writer.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifndef ETKIT_VERSION
#define ETKIT_VERSION "0.1.0"
#endif

typedef struct et_cli et_cli;
typedef struct et_opt et_opt;

/* What an entry's argument is and how it is stored at its target. */
typedef enum et_arg {
	ET_ARG_END = 0,
	ET_ARG_HEADING, /* not an option: a line of --help (help = the line) */
	ET_ARG_FLAG,    /* no argument; *(bool *)target = true */
	ET_ARG_SET,     /* no argument; *(int *)target = value */
	ET_ARG_STR,     /* *(const char **)target = the argument (argv memory) */
	ET_ARG_INT,     /* *(int *)target, within [min, max] */
	ET_ARG_U32,     /* *(uint32_t *)target, within [min, max] */
	ET_ARG_I64,     /* *(int64_t *)target, within [min, max] */
	ET_ARG_U64,     /* *(uint64_t *)target, within [min, max] (0..INT64_MAX at most) */
	ET_ARG_SIZE,    /* *(uint64_t *)target: 4096, 64K, 1M, 2G */
	ET_ARG_DOUBLE,  /* *(double *)target, finite */
	ET_ARG_CHOICE,  /* *(int *)target = index of the argument in choices */
	ET_ARG_FN,      /* fn(c, opt, arg) does the work (arg NULL if no argname) */
} et_arg;

enum {
	ET_OPT_HIDDEN = 1,     /* parsed, not listed by --help */
	ET_OPT_DEPRECATED = 3, /* hidden, and warns: alias kept for a release */
	ET_OPT_SHARED = 4,     /* declared by a suite group: same text everywhere */
};

struct et_opt {
	char shrt;                  /* short letter, 0 = none */
	const char *lng;            /* long name without "--", NULL = short only */
	et_arg kind;                /* ET_ARG_* */
	const char *argname;        /* "N", "FILE"; NULL = no argument (FLAG, SET, FN) */
	const char *help;           /* --help text, one paragraph (wrapped for you) */
	void *target;               /* where the value goes (see et_arg) */
	int64_t min, max;           /* INT, U32, I64 bounds (both 0: the type's range) */
	int value;                  /* SET: the value stored */
	const char *const *choices; /* CHOICE: NULL-terminated names */
	int (*fn)(et_cli *c, const et_opt *o, const char *arg); /* FN; usage error on < 0 */
	unsigned flags;                                         /* ET_OPT_* */
	const char *alias_of; /* DEPRECATED short alias: the long name it stands for */
	const et_opt *group;  /* a nested table, listed in place (kind END) */
};

#define ET_OPT_END                                                                                 \
	{                                                                                          \
		0                                                                                  \
	}
#define ET_OPT_HEADING(text)                                                                       \
	{                                                                                          \
		.kind = ET_ARG_HEADING, .help = (text)                                             \
	}
#define ET_OPT_GROUP(table)                                                                        \
	{                                                                                          \
		.group = (table)                                                                   \
	}

/* Typed entries: every option of a table is written with one of these, so
 * the target's type is the one its kind stores (see et_arg) and a wrong
 * one is a compile error (_Generic has no association for it) rather than
 * a write of the wrong width through void *. The trailing arguments are
 * more designated fields (.min = 1, .max = 64, .flags = ET_OPT_HIDDEN,
 * .choices = names, .fn = f, .value = 2). */
#define ET_OPT_TARGET_(type, p) _Generic((p), type * : (p))
#define ET_OPT_ENTRY_(s, l, k, a, h, t, ...)                                                       \
	{                                                                                          \
		.shrt = (s), .lng = (l), .kind = (k), .argname = (a), .help = (h), .target = (t),  \
		__VA_ARGS__                                                                        \
	}
/* no argument: *(bool *)p = true */
#define ET_OPT_FLAG(s, l, help, p, ...)                                                            \
	ET_OPT_ENTRY_(s, l, ET_ARG_FLAG, NULL, help, ET_OPT_TARGET_(bool, p), __VA_ARGS__)
/* no argument: *(int *)p = .value (give .value = V) */
#define ET_OPT_SET(s, l, help, p, ...)                                                             \
	ET_OPT_ENTRY_(s, l, ET_ARG_SET, NULL, help, ET_OPT_TARGET_(int, p), __VA_ARGS__)
#define ET_OPT_STR(s, l, arg, help, p, ...)                                                        \
	ET_OPT_ENTRY_(s, l, ET_ARG_STR, arg, help, ET_OPT_TARGET_(const char *, p), __VA_ARGS__)
#define ET_OPT_INT(s, l, arg, help, p, ...)                                                        \
	ET_OPT_ENTRY_(s, l, ET_ARG_INT, arg, help, ET_OPT_TARGET_(int, p), __VA_ARGS__)
#define ET_OPT_U32(s, l, arg, help, p, ...)                                                        \
	ET_OPT_ENTRY_(s, l, ET_ARG_U32, arg, help, ET_OPT_TARGET_(uint32_t, p), __VA_ARGS__)
#define ET_OPT_I64(s, l, arg, help, p, ...)                                                        \
	ET_OPT_ENTRY_(s, l, ET_ARG_I64, arg, help, ET_OPT_TARGET_(int64_t, p), __VA_ARGS__)
#define ET_OPT_U64(s, l, arg, help, p, ...)                                                        \
	ET_OPT_ENTRY_(s, l, ET_ARG_U64, arg, help, ET_OPT_TARGET_(uint64_t, p), __VA_ARGS__)
#define ET_OPT_SIZE(s, l, arg, help, p, ...)                                                       \
	ET_OPT_ENTRY_(s, l, ET_ARG_SIZE, arg, help, ET_OPT_TARGET_(uint64_t, p), __VA_ARGS__)
#define ET_OPT_DBL(s, l, arg, help, p, ...)                                                        \
	ET_OPT_ENTRY_(s, l, ET_ARG_DOUBLE, arg, help, ET_OPT_TARGET_(double, p), __VA_ARGS__)
/* *(int *)p = the index of the argument in .choices (give .choices = names) */
#define ET_OPT_CHOICE(s, l, arg, help, p, ...)                                                     \
	ET_OPT_ENTRY_(s, l, ET_ARG_CHOICE, arg, help, ET_OPT_TARGET_(int, p), __VA_ARGS__)
/* .fn = f does the work; p is f's own (o->target), of the type f casts to */
#define ET_OPT_FN(s, l, arg, help, p, ...)                                                         \
	ET_OPT_ENTRY_(s, l, ET_ARG_FN, arg, help, (p), __VA_ARGS__)

struct et_cli {
	const char *prog;   /* "et-convert", "et-synth coll" */
	const char *usage;  /* the lines before the options ("Usage: ...\n...\n") */
	const char *footer; /* the lines after them ("Exit status: ...\n") */
	const et_opt *opts;
	/* filled by the shared groups */
	const char *output; /* -o: NULL = stdout */
	int progress;       /* -q: -1, --progress: 1, else 0 (auto: stderr is a tty) */
	/* operands, after parsing (argv order, options removed) */
	int nargs;
	char **args;
};

/* Parse argv[1..] against c->opts (set prog, usage, footer and opts first).
 * Exits 0 for --help/--version (4 when stdout cannot take them), 2 on a
 * usage error; returns otherwise. */
void et_cli_parse(et_cli *c, int argc, char **argv);

/* Exit after a listing on stdout (--help, --version, --list-models): 0,
 * or 4 with the write error when stdout did not take it (> /dev/full), as
 * for any other output. */
_Noreturn void et_cli_exit_printed(void);

/* Usage error naming the program; exits 2. */
_Noreturn void et_cli_usage_error(const et_cli *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Strict number parsing for option values; usage error naming opt. */
int64_t et_cli_int(const et_cli *c, const char *opt, const char *arg, int64_t min, int64_t max);
uint64_t et_cli_size(const et_cli *c, const char *opt, const char *arg); /* 4096, 64K, 1M, 2G */
double et_cli_double(const et_cli *c, const char *opt, const char *arg);

/* A command made of subcommands ("et-synth coll ..."): each subcommand's
 * function takes argv from its own name on and returns the exit status. */
typedef struct et_subcmd {
	const char *name;
	int (*fn)(int argc, char **argv);
} et_subcmd;
/* Sets the program name for messages, then: no argument prints usage on
 * stderr (exit 2); -h/--help prints it on stdout (0); --version prints
 * "PROG (etkit) VERSION" (0); a known name runs its function; anything else
 * is "PROG: unknown subcommand 'X' (a, b, ...)" and the --help hint (2). */
int et_cli_subcommands(const char *prog, const char *usage, const et_subcmd *cmds, size_t n,
                       int argc, char **argv);

/* Print the --help text of c (what --help prints). */
void et_cli_print_help(const et_cli *c, FILE *f);

/* The long name that owns letter ch in the suite, NULL if none. */
const char *et_cli_letter_owner(char ch);

/* --- shared groups -------------------------------------------------------
 * -h/--help, --version, -o/--output, -q/--quiet, --progress; targets c. */
#define ET_OPTS_COMMON(c) ET_OPT_GROUP(et_cli_common_opts(c, true))
/* The same without -o, for a command whose output is not one file. */
#define ET_OPTS_COMMON_NO_OUTPUT(c) ET_OPT_GROUP(et_cli_common_opts(c, false))
const et_opt *et_cli_common_opts(et_cli *c, bool output);

/* The input options of a command that reads traces through et_input:
 * -f/--from, --ranks, --set-rank, --world, --max-msg, --max-rank-nodes,
 * --max-rank-bytes. The ranks list lives
 * here; in->o.ranks points at it. reads_foreign: the command reads PyTorch
 * host traces and compiler programs itself (et-convert); others answer
 * --from pytorch, hlo, stablehlo or astra-text with the command that does. */
typedef struct et_cli_in {
	et_input_opts o;
	et_ranklist ranks;
	bool reads_foreign;
	unsigned omit; /* ET_IN_*: options this command does not offer */
} et_cli_in;
enum {
	ET_IN_RANKS = 1,
	ET_IN_SET_RANK = 2,
	ET_IN_WORLD = 4,
	ET_IN_LIMITS = 8
}; /* LIMITS: --max-msg, --max-rank-* */
void et_cli_in_init(et_cli_in *in, bool reads_foreign, unsigned omit);
void et_cli_in_free(et_cli_in *in);
#define ET_OPTS_INPUT(in) ET_OPT_GROUP(et_cli_input_opts(in))
const et_opt *et_cli_input_opts(et_cli_in *in);

/* The options of a command that writes traces through et_writer:
 * -t/--to, --split, --name, -l/--level, -T/--threads. They fill w; a
 * command with a layout of its own (et-convert's jsonizer) names it in
 * custom, and --to then takes its name too. */
typedef struct et_cli_out {
	et_writer_cfg w;
	bool to_given;   /* --to was given */
	bool zstd_given; /* --level or --threads was given */
	const et_writer_layout *custom;
} et_cli_out;
void et_cli_out_init(et_cli_out *o, const et_writer_layout *custom);
#define ET_OPTS_WRITE(o) ET_OPT_GROUP(et_cli_write_opts(o))
const et_opt *et_cli_write_opts(et_cli_out *o);
/* After parsing: -o and the progress setting go into w; --split means raw
 * ET per rank (implied when --to is not given); usage error when --split
 * meets another --to or -o. */
void et_cli_out_finish(const et_cli *c, et_cli_out *o);

#endif
