/* Process-group definitions as the PyTorch converter writes them:
 * inputs.values = "['[{\"pg_name\": \"0\", \"ranks\": [0, 1], ...}]']",
 * the Python repr of a one-element list holding JSON. Read and rewritten by
 * et_pg (which also takes the JSON-list and bare forms and writes them back
 * in the form they were read in, laid out as Python's json.dumps). */
#include "et-synth/xf/xf.h"
#include "et_pg.h"
#include "et_types.h"

bool xf_is_pg_def(const et_node *n)
{
	if (n->type != ET_NODE_METADATA || !n->inputs)
		return false;
	et_pg_list l;
	if (et_pg_values_parse(n->inputs->values, &l) < 0)
		return false;
	et_pg_list_free(&l);
	return true;
}

int xf_pg_scan(const char *values, uint32_t old_world, void (*fn)(void *, const pg_info *),
               void *ctx)
{
	et_pg_list l;
	if (et_pg_values_parse(values, &l) < 0)
		return -1;
	int count = (int)l.n;
	for (size_t i = 0; i < l.n; i++) {
		const et_pg_group *g = &l.g[i];
		pg_info pi = {g->name, et_pg_whole_world(g->ranks, g->n_ranks, old_world),
		              (uint32_t)g->n_ranks};
		fn(ctx, &pi);
	}
	et_pg_list_free(&l);
	return count;
}
