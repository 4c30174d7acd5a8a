/* Each attribute's roles in a corpus, and the rules a graph breaks
 * (ld.h). */
#include "layerdag-sample/ld.h"

#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

void ld_roles_init(uint8_t *role, uint32_t vocab)
{
	/* before any node, every "never" holds */
	memset(role, LD_ROLE_SINK | LD_ROLE_NOSINK | LD_ROLE_NOSOURCE, vocab);
}

void ld_roles_add(uint8_t *role, uint32_t a, uint32_t indeg, uint32_t outdeg)
{
	role[a] |= LD_ROLE_SEEN;
	role[a] &= (uint8_t) ~(outdeg ? LD_ROLE_SINK : LD_ROLE_NOSINK);
	if (indeg == 0)
		role[a] &= (uint8_t)~LD_ROLE_NOSOURCE;
}

void ld_roles_finish(uint8_t *role, uint32_t vocab)
{
	for (uint32_t a = 0; a < vocab; a++)
		if (!(role[a] & LD_ROLE_SEEN))
			role[a] = LD_ROLE_SINK;
}

/* The in- and out-degrees of g's nodes into in[n], out[n]. */
static void degrees(const ld_dag *g, uint32_t *in, uint32_t *out)
{
	memset(in, 0, g->n * sizeof *in);
	memset(out, 0, g->n * sizeof *out);
	for (uint32_t k = 0; k < g->ne; k++)
		out[g->edge[k][0]]++, in[g->edge[k][1]]++;
}

void ld_roles_fit(const ld_corpus *c, uint32_t vocab, uint8_t *role)
{
	ld_roles_init(role, vocab);
	for (size_t i = 0; i < c->n; i++) {
		const ld_dag *g = &c->g[i];
		uint32_t *in = et_xcalloc(g->n + 1, sizeof *in),
		         *out = et_xcalloc(g->n + 1, sizeof *out);
		degrees(g, in, out);
		for (uint32_t v = 0; v < g->n; v++)
			if (g->attr[v] < vocab)
				ld_roles_add(role, g->attr[v], in[v], out[v]);
		free(in);
		free(out);
	}
	ld_roles_finish(role, vocab);
}

unsigned ld_roles_broken(const ld_dag *g, const uint8_t *role, uint32_t vocab)
{
	unsigned broken = 0;
	uint32_t *in = et_xcalloc(g->n + 1, sizeof *in), *out = et_xcalloc(g->n + 1, sizeof *out);
	degrees(g, in, out);
	for (uint32_t v = 0; v < g->n; v++) {
		uint8_t r = g->attr[v] < vocab ? role[g->attr[v]] : 0;
		if (!(r & LD_ROLE_SEEN)) /* an attribute the corpus never had: no rule known */
			continue;
		if (out[v] == 0 && (r & LD_ROLE_NOSINK))
			broken |= LD_RULE_SINK;
		if (in[v] == 0 && (r & LD_ROLE_NOSOURCE))
			broken |= LD_RULE_SOURCE;
		if (out[v] && (r & LD_ROLE_SINK))
			broken |= LD_RULE_SUCCESSOR;
	}
	free(in);
	free(out);
	return broken;
}
