/* The getopt-loop helpers of commands not yet on option tables. */
#include "et_cli.h"
#include "et_err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void et_cli_init(et_cli *c, const char *prog, const char *usage)
{
	memset(c, 0, sizeof *c);
	c->prog = prog;
	c->usage = usage;
	et_err_set_prog(prog);
}

bool et_cli_common(et_cli *c, int opt, const char *arg)
{
	switch (opt) {
	case 'h':
		fputs(c->usage, stdout);
		exit(0);
	case ET_OPT_VERSION:
		printf("%s (etkit) %s\n", c->prog, ETKIT_VERSION);
		exit(0);
	case 'o':
		c->output = arg;
		return true;
	case 'q':
		c->progress = -1;
		return true;
	case ET_OPT_PROGRESS:
		c->progress = 1;
		return true;
	case '?':
		fprintf(stderr, "Try '%s --help' for more information.\n", c->prog);
		exit(ET_EXIT_USAGE);
	default:
		return false;
	}
}
