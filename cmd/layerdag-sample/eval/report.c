/* eval's report, as text or JSON (metrics.h). */
#include "layerdag-sample/eval/metrics.h"

#include "et_mem.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

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

static cJSON *json_roles(const ld_eval *r, uint8_t mask, uint8_t want)
{
	cJSON *l = cJSON_CreateArray();
	for (uint32_t a = 0; a < r->vocab; a++)
		if (role_is(r, a, mask, want))
			cJSON_AddItemToArray(l, cJSON_CreateNumber(a));
	return l;
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

static cJSON *surrogate(const ld_surrogate *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "pearson", s->pearson);
	cJSON_AddNumberToObject(o, "spearman", s->spearman);
	cJSON_AddNumberToObject(o, "mae", s->mae);
	return o;
}

void ld_eval_print_json(const ld_eval *r, FILE *f)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "real", (double)r->n_real);
	cJSON_AddNumberToObject(o, "synthetic", (double)r->n_synth);
	cJSON_AddNumberToObject(o, "validity", r->validity);
	cJSON_AddNumberToObject(o, "role_validity", r->role_validity);
	cJSON *br = cJSON_AddObjectToObject(o, "role_broken");
	cJSON_AddNumberToObject(br, "sink", r->role_broken[0]);
	cJSON_AddNumberToObject(br, "source", r->role_broken[1]);
	cJSON_AddNumberToObject(br, "successor", r->role_broken[2]);
	cJSON_AddItemToObject(o, "sink_roles", json_roles(r, LD_ROLE_SINK, LD_ROLE_SINK));
	cJSON_AddItemToObject(o, "ever_sink", json_roles(r, LD_ROLE_NOSINK, 0));
	cJSON_AddItemToObject(o, "ever_source", json_roles(r, LD_ROLE_NOSOURCE, 0));
	cJSON *m = cJSON_AddObjectToObject(o, "mmd2"),
	      *fl = cJSON_AddObjectToObject(o, "mmd2_floor");
	for (int st = 0; st < NSTATS; st++) {
		cJSON_AddNumberToObject(m, ld_stat_name[st], r->mmd[st]);
		cJSON_AddNumberToObject(fl, ld_stat_name[st], r->floor[st]);
	}
	cJSON_AddNumberToObject(o, "sigma", LD_SIGMA);
	cJSON_AddNumberToObject(o, "novelty", r->novelty);
	cJSON_AddNumberToObject(o, "uniqueness", r->uniqueness);
	cJSON_AddItemToObject(o, "surrogate", surrogate(&r->synth_on_real));
	cJSON_AddItemToObject(o, "surrogate_real_cv", surrogate(&r->real_cv));
	char *s = cJSON_PrintUnformatted(o);
	if (!s)
		et_oom(0);
	fprintf(f, "%s\n", s);
	free(s);
	cJSON_Delete(o);
}
