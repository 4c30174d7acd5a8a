/* The state of one run: made and freed in one place, for main and for the
 * fuzz target that runs the checks. */
#include "et-validate/checks/pgroups.h"
#include "et-validate/classes.h"
#include "et-validate/report/stats.h"
#include "et-validate/report/summary.h"
#include "et-validate/validate.h"
#include "et_sgroups.h"

#include <stdlib.h>
#include <string.h>

void vctx_init(vctx *v, const vopts *o)
{
	memset(v, 0, sizeof *v);
	v->o = *o;
	find_init(&v->fs, v->o.max_per_code, v->o.astra);
	v->grp = groups_new();
	v->xs = xsum_new();
	v->st = stats_new();
	v->g = et_graph_new();
	v->sgroups = et_sgroups_acc_new();
}

void vctx_free(vctx *v)
{
	find_free(&v->fs);
	groups_free(v->grp);
	xsum_free(v->xs);
	stats_free(v->st);
	et_graph_free(v->g);
	vclasses_free(v->cls);
	et_sgroups_acc_free(v->sgroups);
	free(v->rank_groups);
	free(v->ord_max);
	free(v->ord_colls);
}

int vctx_load_groups(vctx *v, et_error *e)
{
	if (v->groups_loaded || !v->o.comm_groups)
		return 0;
	v->groups_loaded = true;
	return groups_load_file(v->grp, v->o.comm_groups, e);
}
