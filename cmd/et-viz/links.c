/* --link-collectives: the cross-rank view. The k-th collective of a
 * process group on one rank is the same operation as the k-th collective of
 * that group on every other rank (the order every rank must issue them in),
 * so those are chained rank after rank (N-1 links for N ranks, not N^2). A
 * send and a receive pair up on (src, dst, tag, size, occurrence), as
 * ASTRA-sim matches them. Occurrences count every node, drawn or not, so
 * a selection does not shift the pairing; links join drawn vertices only. */
#include "strmap.h"
#include "viz.h"

#include <stdio.h>
#include <string.h>

enum { T_SEND = 5, T_RECV = 6, T_COLL = 7 };

static void coll(model *m, strmap *seen, const vrank *vr, uint32_t i)
{
	char key[320];
	snprintf(key, sizeof key, "n:%u:%s", vr->rank, et_graph_pg_name(vr->g, i)); /* per rank */
	uint32_t occ = strmap_get(seen, key, 0)->a++;
	snprintf(key, sizeof key, "c:%u:%s", occ, et_graph_pg_name(vr->g, i));
	strmap_ent *last = strmap_get(seen, key, VIZ_NONE);
	if (vr->vert[i] == VIZ_NONE)
		return;
	if (last->a != VIZ_NONE)
		viz_edge_add(m, last->a, vr->vert[i], EK_COLL);
	last->a = vr->vert[i];
}

static void p2p(strmap *pairs, const vrank *vr, uint32_t i, bool send)
{
	const et_graph *g = vr->g;
	const et_graph_comm *c = et_graph_comm_at(g, i);
	uint16_t f = g->flags[i];
	long long src = f & ET_GF_COMM_SRC ? c->src : send ? (long long)vr->rank : -1;
	long long dst = f & ET_GF_COMM_DST ? c->dst : send ? -1 : (long long)vr->rank;
	char key[160];
	int n =
	    snprintf(key, sizeof key, "%lld:%lld:%d:%lld", src, dst, c->tag, (long long)c->size);
	strmap_ent *cnt = strmap_get(pairs, key, 0);
	uint32_t occ = send ? cnt->a++ : cnt->b++;
	snprintf(key + n, sizeof key - (size_t)n, "#%u", occ);
	strmap_ent *p = strmap_get(pairs, key, VIZ_NONE);
	if (send)
		p->a = vr->vert[i];
	else
		p->b = vr->vert[i];
}

void viz_links(model *m)
{
	strmap seen = {0}, pairs = {0};
	for (uint32_t r = 0; r < m->n_ranks; r++) {
		const vrank *vr = &m->ranks[r];
		for (uint32_t i = 0; i < vr->g->n; i++) {
			uint8_t t = vr->g->type[i];
			if (t == T_COLL)
				coll(m, &seen, vr, i);
			else if (t == T_SEND || t == T_RECV)
				p2p(&pairs, vr, i, t == T_SEND);
		}
	}
	for (uint32_t k = 0; pairs.t && k <= pairs.mask; k++) {
		strmap_ent *p = &pairs.t[k];
		if (p->key && strchr(p->key, '#') && p->a != VIZ_NONE && p->b != VIZ_NONE)
			viz_edge_add(m, p->a, p->b, EK_P2P);
	}
	strmap_free(&seen);
	strmap_free(&pairs);
}
