/* layerdag-sample eval REAL SYNTH: the metrics of metrics.h. */
#include "app/et_cli.h"
#include "et_output.h"
#include "layerdag-sample/cmds.h"
#include "layerdag-sample/eval/metrics.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "Usage: layerdag-sample eval [OPTIONS] REAL SYNTH\n"
    "Judge generated DAGs (SYNTH) against real ones (REAL), both in the corpus text\n"
    "format (plain or gzip).\n"
    "\n";

static const char *const formats[] = {"text", "json", NULL};

int cmd_eval(int argc, char **argv)
{
	et_cli cli;
	int format = 0;
	et_opt opts[] = {
	    ET_OPT_CHOICE(0, "format", "F", "text (default) or json", &format, .choices = formats),
	    ET_OPTS_COMMON(&cli),
	    ET_OPT_END,
	};
	cli = (et_cli){
	    .prog = "layerdag-sample eval", .usage = usage, .footer = ld_footer, .opts = opts};
	et_cli_parse(&cli, argc, argv);
	if (cli.nargs != 2)
		et_cli_usage_error(&cli, "expected REAL and SYNTH, got %d file%s", cli.nargs,
		                   cli.nargs == 1 ? "" : "s");
	et_error e = {0};
	ld_corpus real = {0}, synth = {0};
	et_output *o = NULL;
	int rc = ld_text_read(&real, cli.args[0], &e);
	if (rc == 0)
		rc = ld_text_read(&synth, cli.args[1], &e);
	if (rc == 0 && real.n == 0)
		rc = et_fail(&e, ET_EXIT_DATA, "%s: no graph", cli.args[0]);
	if (rc == 0)
		rc = et_output_open(&o, cli.output, false, &e);
	if (rc == 0) {
		ld_eval r;
		ld_eval_run(&real, &synth, &r);
		if (format == 1)
			ld_eval_print_json(&r, et_output_file(o));
		else
			ld_eval_print(&r, et_output_file(o));
		ld_eval_free(&r);
		rc = et_output_commit(o, &e);
	}
	ld_corpus_free(&real);
	ld_corpus_free(&synth);
	return ld_exit(rc, &e);
}
