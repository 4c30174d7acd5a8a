/* --link-collectives: the cross-rank view. The k-th collective of a
 * process group on one rank is the same operation as the k-th collective of
 * that group on every other rank (the order every rank must issue them in),
 * so those are chained rank after rank (N-1 links for N ranks, not N^2). A
 * send and a receive pair up on (src, dst, tag, size, occurrence), as
 * ASTRA-sim matches them. Occurrences count every node, drawn or not, so
 * a selection does not shift the pairing; links join drawn vertices only. */
#include "et-viz/viz.h"
#include "et_mem.h"
#include "et_strmap.h"
#include "et_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* String keys, each with two numbers kept in an array by the key's id. */
typedef struct keyed {
	et_strmap keys;
	uint32_t (*v)[2];
	size_t cap;
} keyed;

/* The two numbers of key, both init when the key is new; valid until the
 * next call. */
static uint32_t *keyed_get(keyed *k, const char *key, uint32_t init)
{
	uint32_t n = et_strmap_count(&k->keys), id = et_strmap_intern_str(&k->keys, key);
	if (id < n)
		return k->v[id];
	ET_GROW(k->v, k->cap, (size_t)id + 1);
	k->v[id][0] = k->v[id][1] = init;
	return k->v[id];
}

static void keyed_free(keyed *k)
{
	et_strmap_free(&k->keys);
	free(k->v);
}

/* seen: per (rank, group) the collectives so far; per (occurrence, group)
 * the vertex of the rank that last had it. */
static void coll(model *m, keyed *seen, const vrank *vr, uint32_t i)
{
	char key[320];
	snprintf(key, sizeof key, "n:%u:%s", vr->rank, et_graph_pg_name(vr->g, i)); /* per rank */
	uint32_t occ = keyed_get(seen, key, 0)[0]++;
	snprintf(key, sizeof key, "c:%u:%s", occ, et_graph_pg_name(vr->g, i));
	uint32_t *last = keyed_get(seen, key, VIZ_NONE);
	if (vr->vert[i] == VIZ_NONE)
		return;
	if (last[0] != VIZ_NONE)
		viz_edge_add(m, last[0], vr->vert[i], EK_COLL);
	last[0] = vr->vert[i];
}

/* counts: per (src, dst, tag, size) the sends and receives so far; pairs:
 * per such key and occurrence the send's and the receive's vertex. */
static void p2p(keyed *counts, keyed *pairs, const vrank *vr, uint32_t i, bool send)
{
	const et_graph *g = vr->g;
	const et_graph_comm *c = et_graph_comm_at(g, i);
	uint16_t f = g->flags[i];
	long long src = f & ET_GF_COMM_SRC ? c->src : send ? (long long)vr->rank : -1;
	long long dst = f & ET_GF_COMM_DST ? c->dst : send ? -1 : (long long)vr->rank;
	char key[160];
	int n =
	    snprintf(key, sizeof key, "%lld:%lld:%d:%lld", src, dst, c->tag, (long long)c->size);
	uint32_t occ = keyed_get(counts, key, 0)[send ? 0 : 1]++;
	snprintf(key + n, sizeof key - (size_t)n, "#%u", occ);
	keyed_get(pairs, key, VIZ_NONE)[send ? 0 : 1] = vr->vert[i];
}

void viz_links(model *m)
{
	keyed seen = {0}, counts = {0}, pairs = {0};
	for (uint32_t r = 0; r < m->n_ranks; r++) {
		const vrank *vr = &m->ranks[r];
		for (uint32_t i = 0; i < vr->g->n; i++) {
			uint8_t t = vr->g->type[i];
			if (t == ET_NODE_COLL)
				coll(m, &seen, vr, i);
			else if (t == ET_NODE_SEND || t == ET_NODE_RECV)
				p2p(&counts, &pairs, vr, i, t == ET_NODE_SEND);
		}
	}
	/* in the order the pairs first appeared */
	for (uint32_t k = 0; k < et_strmap_count(&pairs.keys); k++)
		if (pairs.v[k][0] != VIZ_NONE && pairs.v[k][1] != VIZ_NONE)
			viz_edge_add(m, pairs.v[k][0], pairs.v[k][1], EK_P2P);
	keyed_free(&seen);
	keyed_free(&counts);
	keyed_free(&pairs);
}
