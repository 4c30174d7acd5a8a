/* Commands made of subcommands (et_cli.h: et_cli_subcommands). */
#include "app/et_cli.h"
#include "et_err.h"

#include <stdio.h>
#include <string.h>

int et_cli_subcommands(const char *prog, const char *usage, const et_subcmd *cmds, size_t n,
                       int argc, char **argv)
{
	et_app_init(prog);
	if (argc < 2) {
		fputs(usage, stderr);
		return ET_EXIT_USAGE;
	}
	const char *sub = argv[1];
	if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0) {
		fputs(usage, stdout);
		et_cli_exit_printed();
	}
	if (strcmp(sub, "--version") == 0) {
		printf("%s (etkit) %s\n", prog, ETKIT_VERSION);
		et_cli_exit_printed();
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(sub, cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown subcommand '%s' (", prog, sub);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", cmds[i].name);
	fprintf(stderr, ")\nTry '%s --help' for more information.\n", prog);
	return ET_EXIT_USAGE;
}
