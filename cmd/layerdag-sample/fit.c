/* layerdag-sample fit CORPUS... : learn the counts model (counts.h) or the
 * diffusion model (diffmodel.h), of the text format or of Chakra ETs. */
#include "app/et_cli.h"
#include "et_err.h"
#include "et_output.h"
#include "layerdag-sample/cmds.h"
#include "layerdag-sample/corpus/etdag.h"
#include "layerdag-sample/counts/counts.h"
#include "layerdag-sample/diffusion/diffmodel.h"

#include <stdio.h>

static const char usage[] =
    "Usage: layerdag-sample fit [OPTIONS] CORPUS...\n"
    "Learn a model of the DAGs in CORPUS: the corpus text format (plain or gzip), or\n"
    "Chakra ETs (streams, raw ETs, per-rank sets, JSON; - for stdin), each rank a DAG.\n"
    "\n";

static const char *const models[] = {"counts", "diffusion", NULL};

/* A Chakra ET rank is thousands of Kahn layers deep: the diffusion model's
 * networks see the last ET_WINDOW layers before the new one (context.h),
 * and Adam steps every CHUNK layers rather than once a rank (9 steps an
 * epoch on the DLRM and ResNet traces otherwise). */
enum { ET_WINDOW = 16, CHUNK = 64 };
#define WINDOW_AUTO UINT32_MAX

/* The corpus of the files: the text format or Chakra ETs (each rank a DAG,
 * its attribute classes into map), not both. */
static int read_corpus(et_cli *cli, ld_corpus *c, ld_etmap *map, et_error *e)
{
	int rc = 0;
	size_t n_text = 0, n_et = 0;
	for (int i = 0; i < cli->nargs && rc == 0; i++) {
		if (ld_is_text(cli->args[i])) {
			rc = ld_text_read(c, cli->args[i], e);
			n_text++;
		} else {
			rc = ld_et_read(c, map, cli->args[i], e);
			n_et++;
		}
	}
	if (rc == 0 && n_text && n_et)
		rc = et_fail(e, ET_EXIT_USAGE,
		             "a corpus is either the text format or Chakra ETs, not both");
	if (rc == 0 && c->n == 0)
		rc = et_fail(e, ET_EXIT_DATA, "%s: no graph", cli->args[0]);
	return rc;
}

/* The diffusion model of c into o; it takes map's classes. */
static int fit_diffusion(ld_corpus *c, ld_etmap *map, const ld_diff_conf *cf, int64_t seed,
                         et_output *o, et_error *e)
{
	et_rng r;
	et_rng_seed(&r, (uint64_t)seed, 0);
	ld_diffusion dm;
	ld_diff_fit(&dm, c, cf, &r);
	dm.et = *map; /* the model owns the attribute classes now */
	*map = (ld_etmap){0};
	ld_diff_write(&dm, et_output_file(o));
	ld_diff_free(&dm);
	return et_output_commit(o, e);
}

/* The counts model of c into o; it takes map's classes. */
static int fit_counts(const ld_corpus *c, ld_etmap *map, uint32_t buckets, et_output *o,
                      et_error *e)
{
	cm_model m;
	cm_fit(c, buckets, &m);
	m.et = *map; /* the model owns the attribute classes now */
	*map = (ld_etmap){0};
	cm_write(&m, et_output_file(o));
	cm_free(&m);
	return et_output_commit(o, e);
}

int cmd_fit(int argc, char **argv)
{
	et_cli cli;
	int model = 0;
	uint32_t buckets = 0, window = WINDOW_AUTO; /* 0, -1, 0: not given */
	int64_t seed = -1;
	int epochs = 0;
	et_opt opts[] = {
	    ET_OPT_CHOICE(
	        0, "model", "M",
	        "counts (default: back-off count tables) or diffusion (LayerDAG's networks)",
	        &model, .choices = models),
	    ET_OPT_U32(0, "buckets", "B", "label buckets, quantiles of y (default 16)", &buckets,
	               .min = 1, .max = 1024),
	    ET_OPT_I64(
	        0, "seed", "N",
	        "random seed (default 1; the counts model draws nothing); same seed, same model",
	        &seed, .min = 0, .max = INT64_MAX),
	    ET_OPT_INT(0, "epochs", "N", "diffusion: passes over the corpus (default 100)", &epochs,
	               .min = 1, .max = 100000),
	    ET_OPT_U32(
	        0, "window", "L",
	        "diffusion: the networks see the last L layers of the prefix (0: all; default 0 on "
	        "the text format, 16 on Chakra ETs)",
	        &window, .min = 0, .max = 1 << 20),
	    ET_OPTS_COMMON(&cli),
	    ET_OPT_END,
	};
	cli = (et_cli){
	    .prog = "layerdag-sample fit", .usage = usage, .footer = ld_footer, .opts = opts};
	et_cli_parse(&cli, argc, argv);
	if (cli.nargs < 1)
		et_cli_usage_error(&cli, "expected one CORPUS file or more");
	/* each model's options: the other model's would be dropped, so say so */
	if (model == 0 && (seed >= 0 || epochs || window != WINDOW_AUTO))
		et_warn("--seed, --epochs and --window are for --model diffusion; ignored");
	if (model == 1 && buckets)
		et_warn("--buckets is for --model counts; ignored");
	seed = seed < 0 ? 1 : seed;
	epochs = epochs ? epochs : 100;
	buckets = buckets ? buckets : 16;

	et_error e = {0};
	ld_corpus c = {0};
	ld_etmap map = {0};
	int rc = read_corpus(&cli, &c, &map, &e);
	if (window == WINDOW_AUTO)
		window = map.n ? ET_WINDOW : 0;
	if (rc == 0 && model == 1)
		rc = ld_diff_check(&c, window, cli.args[0], &e);
	et_output *o = NULL;
	if (rc == 0)
		rc = et_output_open(&o, cli.output, model == 1, &e);
	if (rc == 0 && model == 1) {
		ld_diff_conf cf;
		ld_diff_conf_default(&cf);
		cf.epochs = epochs;
		cf.progress = cli.progress >= 0;
		cf.window = window;
		cf.chunk = cf.window ? CHUNK : 0;
		rc = fit_diffusion(&c, &map, &cf, seed, o, &e);
	} else if (rc == 0) {
		rc = fit_counts(&c, &map, buckets, o, &e);
	}
	ld_corpus_free(&c);
	ld_etmap_free(&map);
	return ld_exit(rc, &e);
}
