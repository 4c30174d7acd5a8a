/* et_cli: parsing an option table. getopt_long does the scanning; the table
 * gives it its option list and short string, and stores what it returns. */
#include "app/et_cli.h"
#include "app/et_cli_int.h"
#include "et_err.h"
#include "et_mem.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each letter's one long name in the suite. A new tool takes a free letter
 * or none; reusing one for another meaning is what this list prevents. */
static const struct {
	char ch;
	const char *lng;
} letters[] = {
    {'h', "help"},     {'o', "output"}, {'q', "quiet"},   {'v', "verbose"},  {'f', "from"},
    {'t', "to"},       {'l', "level"},  {'T', "threads"}, {'k', "kineto"},   {'r', "rank"},
    {'a', "around"},   {'d', "depth"},  {'m', "match"},   {'C', "collapse"}, {'F', "format"},
    {'S', "schedule"}, {'s', "size"},   {'c', "count"},   {'p', "pattern"},  {'L', "layers"},
    {'n', "nodes"},    {'w', "width"},
};

const char *et_cli_letter_owner(char ch)
{
	for (size_t i = 0; i < sizeof letters / sizeof *letters; i++)
		if (letters[i].ch == ch)
			return letters[i].lng;
	return NULL;
}

static _Noreturn void usage_line(const et_cli *c, const char *msg)
{
	char line[sizeof((et_error *)0)->msg];
	snprintf(line, sizeof line, "%s", msg);
	et_msg_one_line(line);
	fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", c->prog, line, c->prog);
	exit(ET_EXIT_USAGE);
}

void et_cli_usage_error(const et_cli *c, const char *fmt, ...)
{
	char line[sizeof((et_error *)0)->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	usage_line(c, line);
}

int64_t et_cli_int(const et_cli *c, const char *opt, const char *arg, int64_t min, int64_t max)
{
	char *end;
	errno = 0;
	long long v = strtoll(arg, &end, 0);
	if (errno || end == arg || *end || v < min || v > max)
		et_cli_usage_error(c, "%s: expected an integer from %lld to %lld, got '%s'", opt,
		                   (long long)min, (long long)max, arg);
	return v;
}

static int size_shift(char **end)
{
	int shift = 0;
	switch (**end) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	default:
		return 0;
	}
	(*end)++;
	return shift;
}

uint64_t et_cli_size(const et_cli *c, const char *opt, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	int shift = size_shift(&end);
	if (*end == 'i' || *end == 'B')
		end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
	if (errno || end == arg || *end || arg[0] == '-' || (shift && v > (~0ull >> shift)))
		et_cli_usage_error(c, "%s: expected a size such as 4096, 64K, 1M or 2G, got '%s'",
		                   opt, arg);
	return (uint64_t)v << shift;
}

double et_cli_double(const et_cli *c, const char *opt, const char *arg)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v))
		et_cli_usage_error(c, "%s: expected a number, got '%s'", opt, arg);
	return v;
}

/* --- the flattened table ------------------------------------------------- */

/* Entries in listing order, groups expanded; letter = the short letter the
 * entry really gets (0 when an earlier entry of the table claimed it). */
typedef struct flat {
	const et_opt **o;
	char *letter;
	size_t n, cap, cap_letter;
} flat;

static void flat_add(flat *f, const et_opt *o)
{
	ET_GROW(f->o, f->cap, f->n + 1);
	ET_GROW(f->letter, f->cap_letter, f->n + 1);
	char ch = o->shrt;
	for (size_t i = 0; ch && i < f->n; i++)
		if (f->letter[i] == ch)
			ch = 0; /* an alias kept for a release shadows the group's letter */
	f->o[f->n] = o;
	f->letter[f->n++] = ch;
}

static void flat_walk(flat *f, const et_opt *t)
{
	for (; t->kind != ET_ARG_END || t->group; t++) {
		if (t->group)
			flat_walk(f, t->group);
		else
			flat_add(f, t);
	}
}

static _Noreturn void bad_table(const et_cli *c, const et_opt *o, const char *why)
{
	fprintf(stderr, "%s: internal error: option table: -%c/--%s %s\n", c->prog,
	        o->shrt ? o->shrt : '?', o->lng ? o->lng : "", why);
	exit(ET_EXIT_USAGE);
}

/* The suite's letter rule, checked every run: it costs microseconds and a
 * table that breaks it fails every test of its command. */
static void check_letters(const et_cli *c, const flat *f)
{
	for (size_t i = 0; i < f->n; i++) {
		const et_opt *o = f->o[i];
		if (!o->shrt || (o->flags & ET_OPT_DEPRECATED) == ET_OPT_DEPRECATED)
			continue;
		const char *own = et_cli_letter_owner(o->shrt);
		if (!own || !o->lng || strcmp(own, o->lng) != 0)
			bad_table(c, o, "uses a letter the suite gives to another option");
	}
}

static void flat_build(const et_cli *c, flat *f)
{
	memset(f, 0, sizeof *f);
	flat_walk(f, c->opts);
	check_letters(c, f);
}

static void flat_free(flat *f)
{
	free(f->o);
	free(f->letter);
}

/* --- storing values ------------------------------------------------------ */

static const char *opt_name(const et_opt *o, char *buf, size_t cap)
{
	if (o->alias_of)
		snprintf(buf, cap, "--%s", o->alias_of);
	else if (o->lng)
		snprintf(buf, cap, "--%s", o->lng);
	else
		snprintf(buf, cap, "-%c", o->shrt);
	return buf;
}

static void bounds(const et_opt *o, int64_t tmin, int64_t tmax, int64_t *lo, int64_t *hi)
{
	*lo = o->min || o->max ? o->min : tmin;
	*hi = o->min || o->max ? o->max : tmax;
}

static void store_choice(et_cli *c, const et_opt *o, const char *name, const char *arg)
{
	for (int k = 0; o->choices[k]; k++)
		if (strcmp(arg, o->choices[k]) == 0) {
			*(int *)o->target = k;
			return;
		}
	char list[256] = "";
	size_t len = 0;
	for (int k = 0; o->choices[k]; k++) {
		const char *sep = !k ? "" : o->choices[k + 1] ? ", " : " or ";
		len += (size_t)snprintf(list + len, len < sizeof list ? sizeof list - len : 0,
		                        "%s%s", sep, o->choices[k]);
		if (len >= sizeof list)
			len = sizeof list - 1;
	}
	et_cli_usage_error(c, "%s: expected %s, got '%s'", name, list, arg);
}

static void store(et_cli *c, const et_opt *o, const char *arg)
{
	char name[64];
	int64_t lo, hi;
	opt_name(o, name, sizeof name);
	switch (o->kind) {
	case ET_ARG_FLAG:
		*(bool *)o->target = true;
		break;
	case ET_ARG_SET:
		*(int *)o->target = o->value;
		break;
	case ET_ARG_STR:
		*(const char **)o->target = arg;
		break;
	case ET_ARG_INT:
		bounds(o, INT32_MIN, INT32_MAX, &lo, &hi);
		*(int *)o->target = (int)et_cli_int(c, name, arg, lo, hi);
		break;
	case ET_ARG_U32:
		bounds(o, 0, UINT32_MAX, &lo, &hi);
		*(uint32_t *)o->target = (uint32_t)et_cli_int(c, name, arg, lo, hi);
		break;
	case ET_ARG_I64:
		bounds(o, INT64_MIN, INT64_MAX, &lo, &hi);
		*(int64_t *)o->target = et_cli_int(c, name, arg, lo, hi);
		break;
	case ET_ARG_U64:
		bounds(o, 0, INT64_MAX, &lo, &hi);
		*(uint64_t *)o->target = (uint64_t)et_cli_int(c, name, arg, lo < 0 ? 0 : lo, hi);
		break;
	case ET_ARG_SIZE:
		*(uint64_t *)o->target = et_cli_size(c, name, arg);
		break;
	case ET_ARG_DOUBLE:
		*(double *)o->target = et_cli_double(c, name, arg);
		break;
	case ET_ARG_CHOICE:
		store_choice(c, o, name, arg);
		break;
	case ET_ARG_FN:
		if (o->fn(c, o, arg) < 0)
			et_cli_usage_error(c, "%s: bad value '%s'", name, arg ? arg : "");
		break;
	default:
		break;
	}
}

static void warn_deprecated(const et_cli *c, const et_opt *o)
{
	char newer[64] = "";
	const char *own = et_cli_letter_owner(o->shrt);
	if (own)
		snprintf(newer, sizeof newer, "; -%c is --%s", o->shrt, own);
	et_warn_as(c->prog, "-%c is deprecated, use --%s%s", o->shrt,
	           o->alias_of ? o->alias_of : o->lng, own ? newer : "");
}

/* --- the getopt_long view of the table ------------------------------------ */

enum { LONG_BASE = 0x10000 };

typedef struct gview {
	struct option *lo;
	char *shorts;
} gview;

static void gview_build(const flat *f, gview *g)
{
	g->lo = et_xcalloc(f->n + 1, sizeof *g->lo);
	g->shorts = et_xmalloc(2 * f->n + 2);
	size_t nl = 0, ns = 0;
	g->shorts[ns++] = ':'; /* report a missing argument as ':' */
	for (size_t i = 0; i < f->n; i++) {
		const et_opt *o = f->o[i];
		if (o->kind == ET_ARG_HEADING)
			continue;
		int has = o->argname ? required_argument : no_argument;
		if (o->lng)
			g->lo[nl++] = (struct option){o->lng, has, 0, LONG_BASE + (int)i};
		if (f->letter[i]) {
			g->shorts[ns++] = f->letter[i];
			if (has)
				g->shorts[ns++] = ':';
		}
	}
	g->shorts[ns] = 0;
}

static void gview_free(gview *g)
{
	free(g->lo);
	free(g->shorts);
}

static const et_opt *by_letter(const flat *f, int ch)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->letter[i] == ch)
			return f->o[i];
	return NULL;
}

static _Noreturn void getopt_error(et_cli *c, const flat *f, int ch, const char *arg)
{
	char name[64];
	if (ch == ':' && optopt >= LONG_BASE)
		et_cli_usage_error(c, "option '%s' needs an argument",
		                   opt_name(f->o[optopt - LONG_BASE], name, sizeof name));
	if (ch == ':')
		et_cli_usage_error(c, "option '-%c' needs an argument", optopt);
	if (optopt >= LONG_BASE)
		et_cli_usage_error(c, "option '%s' takes no argument",
		                   opt_name(f->o[optopt - LONG_BASE], name, sizeof name));
	if (optopt)
		et_cli_usage_error(c, "unknown option '-%c'", optopt);
	et_cli_usage_error(c, "unknown option '%s'", arg);
}

static void handle(et_cli *c, const et_opt *o)
{
	if ((o->flags & ET_OPT_DEPRECATED) == ET_OPT_DEPRECATED)
		warn_deprecated(c, o);
	store(c, o, o->argname ? optarg : NULL);
}

/* Options and operands may mix, as in GNU tools: getopt_long moves the
 * operands behind the options ("--" ends the options). */
void et_cli_parse(et_cli *c, int argc, char **argv)
{
	/* static: a usage error exits from inside the loop, and memory that a
	 * global still points at is not a leak to valgrind */
	static flat f;
	static gview g;
	if (!strchr(c->prog, ' ')) /* "et-synth coll" keeps "et-synth" for the rest */
		et_app_init(c->prog);
	else
		et_app_install();
	flat_build(c, &f);
	gview_build(&f, &g);
	optind = 1;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, g.shorts, g.lo, NULL)) != -1) {
		if (ch == '?' || ch == ':')
			getopt_error(c, &f, ch, argv[optind - 1]);
		handle(c, ch >= LONG_BASE ? f.o[ch - LONG_BASE] : by_letter(&f, ch));
	}
	c->args = argv + optind;
	c->nargs = argc - optind;
	gview_free(&g);
	flat_free(&f);
	memset(&f, 0, sizeof f);
	memset(&g, 0, sizeof g);
}

/* --- shared pieces used by et_cli_help.c --------------------------------- */

void et_cli_flatten(const et_cli *c, const et_opt ***opts, char **letters_out, size_t *n)
{
	flat f;
	flat_build(c, &f);
	*opts = f.o;
	*letters_out = f.letter;
	*n = f.n;
}
