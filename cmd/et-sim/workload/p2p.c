/* p2p: COMM_SEND / COMM_RECV (doc/astra-sim.md B.7). Sends and receives are matched on
 * (tag, src, dst, size) and occurrence: the k-th send of a key meets the
 * k-th receive. Both complete when the message arrives (t_send + T); a
 * receive posted later completes at once. Folded, a message takes the
 * delay of its real ends and is delivered to the representative of the
 * destination's class. */
#include "et-sim/workload/workload.h"
#include "et_mem.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pentry {
	uint32_t src, dst;
	uint32_t send_node, recv_node; /* UINT32_MAX = not issued yet */
	bool arrived;
	uint64_t tag, size;
} pentry;

typedef struct p2p {
	et_hmap m1;    /* (tag << 32 | src, dst) -> id1 */
	et_hmap m2;    /* (id1, size) -> key id; value: sends | recvs << 32 in cnt */
	et_hmap entry; /* (key id, occurrence) -> entry index */
	uint64_t n1, nk, *cnt, capk;
	pentry *e;
	uint64_t n, cap;
} p2p;

static p2p *get(sim *s)
{
	if (!s->pp)
		s->pp = et_xcalloc(1, sizeof *s->pp);
	return s->pp;
}

/* Exact key (tag, src, dst, size) -> a dense key id. */
static uint64_t key_id(p2p *p, uint64_t tag, uint32_t src, uint32_t dst, uint64_t size)
{
	uint64_t *v1 = et_hmap_put(&p->m1, tag << 32 | src, dst, UINT64_MAX);
	if (*v1 == UINT64_MAX)
		*v1 = p->n1++;
	uint64_t *v2 = et_hmap_put(&p->m2, *v1, size, UINT64_MAX);
	if (*v2 == UINT64_MAX) {
		ET_GROW(p->cnt, p->capk, (size_t)p->nk + 1);
		p->cnt[p->nk] = 0;
		*v2 = p->nk++;
	}
	return *v2;
}

static pentry *entry(p2p *p, uint64_t tag, uint32_t src, uint32_t dst, uint64_t size, bool send,
                     uint64_t *idx)
{
	uint64_t kid = key_id(p, tag, src, dst, size);
	uint64_t occ = send ? (p->cnt[kid] & 0xffffffffu) : (p->cnt[kid] >> 32);
	p->cnt[kid] += send ? 1 : 1ull << 32;
	uint64_t *v = et_hmap_put(&p->entry, kid, occ, UINT64_MAX);
	if (*v == UINT64_MAX) {
		ET_GROW(p->e, p->cap, (size_t)p->n + 1);
		p->e[p->n] = (pentry){src, dst, UINT32_MAX, UINT32_MAX, false, tag, size};
		*v = p->n++;
	}
	*idx = *v;
	return &p->e[*v];
}

static int check_peer(sim *s, rank_st *r, uint32_t node, int32_t peer, const char *what)
{
	if (peer < 0) { /* et_graph_p2p_peer: none, or a negative one */
		sim_fail(s, ET_EXIT_DATA, "rank %u: node %llu: no %s (or a negative one)", r->rank,
		         (unsigned long long)r->g->id[node], what);
		return -1;
	}
	if ((uint32_t)peer >= s->world) {
		sim_fail(s, ET_EXIT_DATA, "rank %u: node %llu: %s %d is not a rank of the trace",
		         r->rank, (unsigned long long)r->g->id[node], what, peer);
		return -1;
	}
	return 0;
}

/* The table entry of node's message, the peer checked; NULL after a
 * failure. The sender's side names the destination, the receiver's the
 * source. */
static pentry *node_entry(sim *s, rank_st *r, uint32_t node, bool send, uint32_t *peer,
                          uint64_t *size, uint64_t *idx)
{
	const sgraph *g = r->g;
	int32_t pr = send ? sg_dst(g, node) : sg_src(g, node);
	if (check_peer(s, r, node, pr, send ? "comm_dst" : "comm_src") < 0)
		return NULL;
	*peer = (uint32_t)pr;
	*size = (uint64_t)(g->comm_size[node] > 0 ? g->comm_size[node] : 0);
	uint64_t tag = (uint32_t)g->tag[node];
	/* folded: the peer's class is simulated by its representative, and
	 * both ends name it so, so that their keys meet */
	uint32_t rp = s->r[sim_index(s, *peer)].rank;
	return entry(get(s), tag, send ? r->rank : rp, send ? rp : r->rank, *size, send, idx);
}

/* Posts node's send or receive: a send goes to the network, a receive
 * completes at once when its message has arrived. */
static void post(sim *s, rank_st *r, uint32_t node, bool send)
{
	uint32_t peer;
	uint64_t size, idx;
	pentry *e = node_entry(s, r, node, send, &peer, &size, &idx);
	if (!e)
		return;
	if (send) {
		e->send_node = node;
		net_done done = {EV_P2P_ARRIVE, r->rank, idx, 0};
		s->net->send(&s->nenv, r->rank, peer, size, &done, node, "transfer time");
		return;
	}
	e->recv_node = node;
	if (e->arrived)
		evq_push(&s->q, s->now, EV_NODE_DONE, r->rank, node,
		         (uint64_t)peer << 32 | e->send_node);
}

void p2p_send(sim *s, rank_st *r, uint32_t node)
{
	post(s, r, node, true);
}

void p2p_recv(sim *s, rank_st *r, uint32_t node)
{
	post(s, r, node, false);
}

void p2p_arrive(sim *s, const ev *ev)
{
	uint64_t idx = ev->a;
	pentry *e = &s->pp->e[idx];
	e->arrived = true;
	sim_tie(s, e->src, ev, false);
	sim_tie(s, e->dst, ev, true);
	rank_st *src = &s->r[sim_index(s, e->src)];
	sim_total_add(s, src->rank, e->send_node, &src->comm_ns, s->now - src->start[e->send_node],
	              "communication time total");
	wl_node_done(s, src, e->send_node, UINT64_MAX);
	e = &s->pp->e[idx]; /* the table may have grown */
	if (e->recv_node != UINT32_MAX)
		wl_node_done(s, &s->r[sim_index(s, e->dst)], e->recv_node,
		             (uint64_t)e->src << 32 | e->send_node);
}

void p2p_free(sim *s)
{
	if (!s->pp)
		return;
	et_hmap_free(&s->pp->m1);
	et_hmap_free(&s->pp->m2);
	et_hmap_free(&s->pp->entry);
	free(s->pp->cnt);
	free(s->pp->e);
	free(s->pp);
	s->pp = NULL;
}
