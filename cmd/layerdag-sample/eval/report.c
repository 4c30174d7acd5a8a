/* eval's report, as text or JSON (metrics.h). */
#include "layerdag-sample/eval/metrics.h"

#include "et_jsonw.h"

/* Whether attribute a was seen in the real graphs and its role bits
 * masked by mask are want. */
static bool role_is(const ld_eval *r, uint32_t a, uint8_t mask, uint8_t want)
{
	return (r->role[a] & LD_ROLE_SEEN) && (r->role[a] & mask) == want;
}

static void print_roles(const ld_eval *r, uint8_t mask, uint8_t want, FILE *f)
{
	for (uint32_t a = 0; a < r->vocab; a++)
		if (role_is(r, a, mask, want))
			fprintf(f, " %u", a);
}

static void json_roles(et_jsonw *j, const char *key, const ld_eval *r, uint8_t mask, uint8_t want)
{
	et_jsonw_karr(j, key);
	for (uint32_t a = 0; a < r->vocab; a++)
		if (role_is(r, a, mask, want))
			et_jsonw_cjnum(j, a);
	et_jsonw_end(j);
}

void ld_eval_print(const ld_eval *r, FILE *f)
{
	fprintf(f, "graphs: %zu real, %zu synthetic\n", r->n_real, r->n_synth);
	fprintf(f, "validity %.4f (acyclic, no self or duplicate edge)\n", r->validity);
	fprintf(f,
	        "role validity %.4f (none of the three rules broken, roles of the real graphs)\n",
	        r->role_validity);
	fprintf(f, "  (a) a sink whose attribute never is one     %.4f (attributes ever a sink:",
	        r->role_broken[0]);
	print_roles(r, LD_ROLE_NOSINK, 0, f);
	fprintf(f,
	        ")\n  (b) a source whose attribute never is one   %.4f (attributes ever a source:",
	        r->role_broken[1]);
	print_roles(r, LD_ROLE_NOSOURCE, 0, f);
	fprintf(f, ")\n  (c) a successor on a sink role             %.4f (sink roles:",
	        r->role_broken[2]);
	print_roles(r, LD_ROLE_SINK, LD_ROLE_SINK, f);
	fprintf(f, ")\n");
	fprintf(f,
	        "MMD² (Gaussian kernel on total variation, sigma %.1f)   synthetic   real-vs-real "
	        "floor\n",
	        LD_SIGMA);
	for (int st = 0; st < NSTATS; st++)
		fprintf(f, "  %-16s %36.6f %20.6f\n", ld_stat_name[st], r->mmd[st], r->floor[st]);
	fprintf(f, "novelty %.4f, uniqueness %.4f (Weisfeiler-Lehman hash)\n", r->novelty,
	        r->uniqueness);
	fprintf(f,
	        "surrogate (ridge on structure) trained on synthetic, tested on real: Pearson "
	        "%.4f, Spearman %.4f, MAE %.4f\n",
	        r->synth_on_real.pearson, r->synth_on_real.spearman, r->synth_on_real.mae);
	fprintf(f,
	        "  the same trained on real (5-fold cross-validation): Pearson %.4f, Spearman "
	        "%.4f, MAE %.4f\n",
	        r->real_cv.pearson, r->real_cv.spearman, r->real_cv.mae);
}

/* A member number as cJSON printed it before the report moved to et_jsonw. */
static void num(et_jsonw *j, const char *key, double v)
{
	et_jsonw_key(j, key);
	et_jsonw_cjnum(j, v);
}

static void surrogate(et_jsonw *j, const char *key, const ld_surrogate *s)
{
	et_jsonw_kobj(j, key);
	num(j, "pearson", s->pearson);
	num(j, "spearman", s->spearman);
	num(j, "mae", s->mae);
	et_jsonw_end(j);
}

static void stats(et_jsonw *j, const char *key, const double *v)
{
	et_jsonw_kobj(j, key);
	for (int st = 0; st < NSTATS; st++)
		num(j, ld_stat_name[st], v[st]);
	et_jsonw_end(j);
}

void ld_eval_print_json(const ld_eval *r, FILE *f)
{
	et_jsonw j;
	et_jsonw_init(&j, f, NULL, ET_JSONW_COMPACT, 0);
	et_jsonw_set_lines(&j, true);
	et_jsonw_obj(&j);
	num(&j, "real", (double)r->n_real);
	num(&j, "synthetic", (double)r->n_synth);
	num(&j, "validity", r->validity);
	num(&j, "role_validity", r->role_validity);
	et_jsonw_kobj(&j, "role_broken");
	num(&j, "sink", r->role_broken[0]);
	num(&j, "source", r->role_broken[1]);
	num(&j, "successor", r->role_broken[2]);
	et_jsonw_end(&j);
	json_roles(&j, "sink_roles", r, LD_ROLE_SINK, LD_ROLE_SINK);
	json_roles(&j, "ever_sink", r, LD_ROLE_NOSINK, 0);
	json_roles(&j, "ever_source", r, LD_ROLE_NOSOURCE, 0);
	stats(&j, "mmd2", r->mmd);
	stats(&j, "mmd2_floor", r->floor);
	num(&j, "sigma", LD_SIGMA);
	num(&j, "novelty", r->novelty);
	num(&j, "uniqueness", r->uniqueness);
	surrogate(&j, "surrogate", &r->synth_on_real);
	surrogate(&j, "surrogate_real_cv", &r->real_cv);
	et_jsonw_end(&j);
	et_jsonw_done(&j); /* f's errors: the caller's et_output commit */
}
