/* eval's report, as text or JSON (metrics.h). */
#include "layerdag-sample/metrics.h"

#include "et_mem.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

void ld_eval_print(const ld_eval *r, FILE *f)
{
	fprintf(f, "graphs: %zu real, %zu synthetic\n", r->n_real, r->n_synth);
	fprintf(f, "validity %.4f (acyclic, no self or duplicate edge)\n", r->validity);
	fprintf(f,
	        "role validity %.4f (no successor on attributes that never have one in the real "
	        "graphs:",
	        r->role_validity);
	for (size_t i = 0; i < r->n_sink_roles; i++)
		fprintf(f, " %u", r->sink_roles[i]);
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
	cJSON *roles = cJSON_AddArrayToObject(o, "sink_roles");
	for (size_t i = 0; i < r->n_sink_roles; i++)
		cJSON_AddItemToArray(roles, cJSON_CreateNumber(r->sink_roles[i]));
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
