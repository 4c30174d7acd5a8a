/* layerdag-sample sample MODEL: graphs from a fitted model (counts.h,
 * diffmodel.h), as text or as one ET workload (etdag.h). */
#include "app/et_cli.h"
#include "et_mem.h"
#include "et_output.h"
#include "et_writer.h"
#include "layerdag-sample/cmds.h"
#include "layerdag-sample/corpus/etdag.h"
#include "layerdag-sample/counts/counts.h"
#include "layerdag-sample/diffusion/diffmodel.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char usage[] =
    "Usage: layerdag-sample sample [OPTIONS] MODEL\n"
    "Sample DAGs from a model that 'layerdag-sample fit' wrote, in the corpus text\n"
    "format, or one as an ET workload (--format et; a model fitted on Chakra ETs).\n"
    "\n";

static const char *const formats[] = {"text", "et", NULL};

/* The labels to sample for: --y-from's graphs, --y, or the model's plans. */
static double *labels(const cm_model *m, const ld_corpus *from, double y, bool have_y, size_t n,
                      et_rng *r)
{
	double *ys = et_xcalloc(n ? n : 1, sizeof *ys);
	for (size_t i = 0; i < n; i++)
		ys[i] = from->n  ? from->g[i % from->n].y
		        : have_y ? y
		                 : m->plan_y[et_rng_below(r, m->nplan)];
	return ys;
}

/* One sampled graph as an ET stream of world ranks, atomically. */
static int write_et(const ld_dag *g, const ld_etmap *map, uint32_t world, et_rng *r,
                    const char *path, et_error *e)
{
	et_writer_cfg wc;
	et_writer_cfg_init(&wc);
	wc.path = path;
	wc.world = world;
	et_writer *w;
	if (et_writer_open(&w, &wc, e) < 0)
		return -1;
	return et_writer_finish(w, ld_et_write(g, map, world, r, w, e), e);
}

/* What sample was asked for. */
typedef struct request {
	const char *yfrom;
	double y;
	size_t n;
	uint64_t seed;
	int format; /* 0 text, 1 et */
	uint32_t world, max_layers;
} request;

/* A diffusion model's samples: text, or one ET workload (a model fitted on
 * Chakra ETs). */
static int diffusion_draw(ld_diffusion *m, et_cli *cli, const request *q, const ld_corpus *from,
                          et_error *e)
{
	uint32_t L = q->max_layers && q->max_layers < m->max_layers ? q->max_layers : m->max_layers;
	size_t k = q->n ? q->n : from->n ? from->n : 1;
	et_rng r;
	et_rng_seed(&r, q->seed, 0);
	if (q->format == 1) {
		ld_dag g;
		ld_diff_sample(m, from->n ? from->g[0].y : q->y, &r, L, &g);
		int rc = write_et(&g, &m->et, q->world, &r, cli->output, e);
		ld_dag_free(&g);
		return rc;
	}
	et_output *o = NULL;
	if (et_output_open(&o, cli->output, false, e) < 0)
		return -1;
	for (size_t i = 0; i < k; i++) {
		ld_dag g;
		ld_diff_sample(m, from->n ? from->g[i % from->n].y : q->y, &r, L, &g);
		ld_text_write(&g, i, et_output_file(o));
		ld_dag_free(&g);
	}
	return et_output_commit(o, e);
}

static int sample_diffusion(et_cli *cli, const char *path, const request *q)
{
	if (!q->yfrom && isnan(q->y))
		et_cli_usage_error(cli, "a diffusion model samples for labels: --y or --y-from");
	et_error e = {0};
	ld_diffusion m;
	ld_corpus from = {0};
	openblas_set_num_threads(1); /* the same sums in the same order: the same graphs */
	int rc = ld_diff_read(&m, path, &e);
	if (rc == 0 && q->format == 1 && m.et.n == 0) {
		ld_diff_free(&m);
		et_cli_usage_error(cli, "--format et: a diffusion model is fitted on text corpora");
	}
	if (rc == 0 && q->yfrom && (rc = ld_text_read(&from, q->yfrom, &e)) == 0 && from.n == 0)
		rc = et_fail(&e, ET_EXIT_DATA, "%s: no graph", q->yfrom);
	if (rc == 0)
		rc = diffusion_draw(&m, cli, q, &from, &e);
	ld_diff_free(&m);
	ld_corpus_free(&from);
	return ld_exit(rc, &e);
}

int cmd_sample(int argc, char **argv)
{
	et_cli cli;
	int64_t n = 0, seed = 1;
	double y = NAN;
	const char *yfrom = NULL;
	int format = 0;
	uint32_t world = 1, max_layers = 0;
	et_opt opts[] = {
	    ET_OPT_I64('c', "count", "K",
	               "graphs to sample (default: one per --y-from label, else 1)", &n, .min = 1,
	               .max = 1 << 24),
	    /* LayerDAG's own -n; the suite gives the letter to --nodes */
	    ET_OPT_I64('n', NULL, "K", NULL, &n, .min = 1, .max = 1 << 24,
	               .flags = ET_OPT_DEPRECATED, .alias_of = "count"),
	    ET_OPT_DBL(0, "y", "V", "the label every graph is conditioned on", &y),
	    ET_OPT_STR(0, "y-from", "FILE",
	               "condition graph i on graph i's label in FILE (a corpus)", &yfrom),
	    ET_OPT_I64(0, "seed", "N", "random seed (default 1); same seed, same graphs", &seed,
	               .min = 0, .max = INT64_MAX),
	    ET_OPT_CHOICE(
	        0, "format", "F",
	        "text (default) or et: one workload as an ET stream (a model fitted on Chakra ETs)",
	        &format, .choices = formats),
	    ET_OPT_U32(0, "world", "N",
	               "--format et: the workload on N ranks, the same graph on each (default 1)",
	               &world, .min = 1, .max = 1 << 20),
	    ET_OPT_U32(0, "max-layers", "L",
	               "diffusion: stop a graph at L layers (default: the corpus's deepest graph)",
	               &max_layers, .min = 1, .max = 1 << 20),
	    ET_OPTS_COMMON(&cli),
	    ET_OPT_END,
	};
	cli = (et_cli){
	    .prog = "layerdag-sample sample", .usage = usage, .footer = ld_footer, .opts = opts};
	et_cli_parse(&cli, argc, argv);
	if (cli.nargs != 1)
		et_cli_usage_error(&cli, "expected one MODEL");
	if (format == 1 && n > 1)
		et_cli_usage_error(&cli, "--format et writes one workload: --count 1");
	if (yfrom && !isnan(y))
		et_cli_usage_error(&cli, "--y and --y-from: give one");
	if (ld_diff_is(cli.args[0])) {
		request q = {yfrom, y, (size_t)n, (uint64_t)seed, format, world, max_layers};
		return sample_diffusion(&cli, cli.args[0], &q);
	}
	if (max_layers)
		et_cli_usage_error(&cli,
		                   "--max-layers: a counts model takes its depths from its plans");
	et_error e = {0};
	cm_model m;
	ld_corpus from = {0};
	int rc = cm_read(&m, cli.args[0], &e);
	bool have_model = rc == 0; /* freed below also when the output fails */
	if (rc == 0 && yfrom && (rc = ld_text_read(&from, yfrom, &e)) == 0 && from.n == 0)
		rc = et_fail(&e, ET_EXIT_DATA, "%s: no graph", yfrom);
	et_output *o = NULL;
	if (rc == 0 && format == 0)
		rc = et_output_open(&o, cli.output, false, &e);
	if (rc == 0) {
		size_t k = n ? (size_t)n : from.n ? from.n : 1;
		et_rng r;
		et_rng_seed(&r, (uint64_t)seed, 0);
		double *ys = labels(&m, &from, y, !isnan(y), k, &r);
		uint32_t *used = et_xcalloc(m.nplan ? m.nplan : 1, sizeof *used);
		if (format == 1) {
			ld_dag g;
			cm_sample(&m, ys[0], used, &r, &g);
			rc = write_et(&g, &m.et, world, &r, cli.output, &e);
			ld_dag_free(&g);
		} else {
			FILE *f = et_output_file(o);
			for (size_t i = 0; i < k; i++) {
				ld_dag g;
				cm_sample(&m, ys[i], used, &r, &g);
				ld_text_write(&g, i, f);
				ld_dag_free(&g);
			}
			rc = et_output_commit(o, &e);
		}
		free(ys);
		free(used);
	}
	if (have_model)
		cm_free(&m);
	ld_corpus_free(&from);
	return ld_exit(rc, &e);
}
