/* Clusters: one per rank when more than one rank is drawn, and inside it
 * one per thread or device stream when the rank's vertices run on more than
 * one (--cluster auto). A single box around everything says nothing, so
 * auto leaves it out; --cluster thread|rank|none force the choice. */
#include "et-viz/draw/draw.h"
#include "et_buf.h"

#include <stdio.h>
#include <stdlib.h>

struct clusters {
	Agraph_t *root;
	bool by_rank;
	uint8_t *by_thread; /* per model rank */
};

/* Whether the vertices of each rank fall into more than one thread group,
 * and how many ranks have vertices at all. */
static uint32_t survey(const model *m, uint8_t *multi_group)
{
	int64_t *key = et_xcalloc(m->n_ranks + 1, sizeof *key);
	uint8_t *seen = et_xcalloc(m->n_ranks + 1, 1);
	uint32_t ranks = 0;
	for (uint32_t k = 0; k < m->nv; k++) {
		const vvert *v = &m->v[k];
		int64_t g;
		bool s;
		viz_group_key(&m->ranks[v->r], v->first, &g, &s);
		g = s ? -g - 1 : g; /* streams and threads never share a key */
		if (!seen[v->r]) {
			seen[v->r] = 1, key[v->r] = g, ranks++;
		} else if (key[v->r] != g) {
			multi_group[v->r] = 1;
		}
	}
	free(key);
	free(seen);
	return ranks;
}

clusters *viz_clusters_new(const conf *c, const model *m, Agraph_t *root)
{
	clusters *cl = et_xcalloc(1, sizeof *cl);
	cl->root = root;
	cl->by_thread = et_xcalloc(m->n_ranks + 1, 1);
	uint32_t ranks = survey(m, cl->by_thread);
	cl->by_rank = c->cluster == CL_RANK ||
	              ((c->cluster == CL_AUTO || c->cluster == CL_THREAD) && ranks > 1);
	for (uint32_t r = 0; r < m->n_ranks; r++)
		cl->by_thread[r] =
		    c->cluster == CL_THREAD || (c->cluster == CL_AUTO && cl->by_thread[r]);
	return cl;
}

static Agraph_t *sub(Agraph_t *parent, const char *name, const char *label, bool inner)
{
	Agraph_t *s = agsubg(parent, (char *)name, 0);
	if (s)
		return s;
	s = agsubg(parent, (char *)name, 1);
	agsafeset(s, "label", (char *)label, "");
	agsafeset(s, "style", inner ? "rounded,filled" : "rounded", "");
	agsafeset(s, "color", inner ? "#cccccc" : "#777777", "");
	agsafeset(s, "fillcolor", "#f7f7f7", "");
	agsafeset(s, "labeljust", "l", "");
	return s;
}

Agraph_t *viz_cluster_of(clusters *cl, const model *m, const vvert *v)
{
	const vrank *vr = &m->ranks[v->r];
	Agraph_t *g = cl->root;
	char name[96], label[96];
	if (cl->by_rank) {
		snprintf(name, sizeof name, "cluster_r%u", vr->rank);
		snprintf(label, sizeof label, "rank %u", vr->rank);
		g = sub(g, name, label, false);
	}
	if (cl->by_thread[v->r]) {
		int64_t key;
		bool is_stream;
		bool has = viz_group_key(vr, v->first, &key, &is_stream);
		snprintf(name, sizeof name, "cluster_r%u_%c%lld", vr->rank,
		         !has        ? 'n'
		         : is_stream ? 's'
		                     : 't',
		         (long long)key);
		if (!has)
			snprintf(label, sizeof label, "no thread");
		else
			snprintf(label, sizeof label, "%s %lld", is_stream ? "stream" : "thread",
			         (long long)key);
		g = sub(g, name, label, true);
	}
	return g;
}

void viz_clusters_free(clusters *cl)
{
	free(cl->by_thread);
	free(cl);
}
