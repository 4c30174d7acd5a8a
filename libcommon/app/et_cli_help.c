/* et_cli: the --help text and the --help-table listing, made from the same
 * table the parser reads, so they cannot disagree with it. */
#include "app/et_cli.h"
#include "app/et_cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	HELP_COL = 24,   /* where the help text of every option starts */
	HELP_WIDTH = 79, /* lines are wrapped before this column */
};

static size_t left_part(const et_opt *o, char letter, char *buf, size_t cap)
{
	int n;
	if (letter && o->lng)
		n = snprintf(buf, cap, "  -%c, --%s", letter, o->lng);
	else if (o->lng)
		n = snprintf(buf, cap, "      --%s", o->lng);
	else
		n = snprintf(buf, cap, "  -%c", letter);
	if (o->argname && n >= 0 && (size_t)n < cap)
		n += snprintf(buf + n, cap - (size_t)n, " %s", o->argname);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

/* Words of text from column col, wrapped at HELP_WIDTH; continuation lines
 * start at HELP_COL (left of col when the option column is long). */
static void wrap(FILE *f, const char *text, size_t col)
{
	size_t at = col, start = col; /* start: where the current line's text began */
	const char *p = text;
	while (*p) {
		size_t w = strcspn(p, " ");
		if (at > start && at + 1 + w > HELP_WIDTH) {
			fprintf(f, "\n%*s", (int)HELP_COL, "");
			at = start = HELP_COL;
		} else if (at > start) {
			fputc(' ', f);
			at++;
		}
		fwrite(p, 1, w, f);
		at += w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static void print_opt(FILE *f, const et_opt *o, char letter)
{
	char left[128];
	size_t n = left_part(o, letter, left, sizeof left);
	fputs(left, f);
	if (n + 2 <= HELP_COL) {
		fprintf(f, "%*s", (int)(HELP_COL - n), "");
		n = HELP_COL;
	} else {
		fputs("  ", f);
		n += 2;
	}
	wrap(f, o->help ? o->help : "", n);
}

void et_cli_print_help(const et_cli *c, FILE *f)
{
	const et_opt **opts;
	char *letters;
	size_t n;
	et_cli_flatten(c, &opts, &letters, &n);
	fputs(c->usage, f);
	for (size_t i = 0; i < n; i++) {
		if (opts[i]->flags & ET_OPT_HIDDEN)
			continue;
		if (opts[i]->kind == ET_ARG_HEADING)
			fprintf(f, "%s\n", opts[i]->help);
		else
			print_opt(f, opts[i], letters[i]);
	}
	if (c->footer)
		fprintf(f, "\n%s", c->footer);
	free(opts);
	free(letters);
}

/* One visible option per line, for tests/bats/cli.bats; all: hidden ones
 * too, grouped "hidden" (tests/bats/flags.bats walks every option). */
void et_cli_print_table(const et_cli *c, FILE *f, bool all)
{
	const et_opt **opts;
	char *letters;
	size_t n;
	et_cli_flatten(c, &opts, &letters, &n);
	for (size_t i = 0; i < n; i++) {
		const et_opt *o = opts[i];
		bool hidden = (o->flags & ET_OPT_HIDDEN) == ET_OPT_HIDDEN;
		if ((hidden && !all) || o->kind == ET_ARG_HEADING)
			continue;
		fprintf(f, "%s\t%c%c\t%s%s\t%s\t%s\n",
		        hidden                     ? "hidden"
		        : o->flags & ET_OPT_SHARED ? "shared"
		                                   : "tool",
		        letters[i] ? '-' : '.', letters[i] ? letters[i] : '.', o->lng ? "--" : "",
		        o->lng ? o->lng : ".", o->argname ? o->argname : ".",
		        o->help ? o->help : "");
	}
	free(opts);
	free(letters);
}
