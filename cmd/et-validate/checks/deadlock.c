/* The deadlock check: every rank advances through its comm skeleton at
 * once. A node becomes ready when its skeleton parents are done; a join or
 * SEND then completes at once (sends are buffered, as in ASTRA-sim); a RECV
 * completes when its matching SEND has been reached; a collective completes
 * when every present member of its group has reached that position of the
 * group's sequence. Event driven: a work stack of ready nodes, one arrival
 * counter per (group, position), no rescans -- O(skeleton nodes + edges +
 * group members per completed collective). When the stack empties with
 * nodes still waiting for peers, the waits form a wait-for graph between
 * ranks, in which one cycle (or the chain to a rank that can never arrive)
 * is reported. */
#include "et-validate/checks/pgroups.h"
#include "et-validate/checks/quotient.h"
#include "et-validate/report/summary.h"
#include "et_buf.h"
#include "et_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { S_WAIT = 0, S_READY = 1, S_DONE = 2 };

typedef struct sim {
	vctx *v;
	xsum *xs;
	uint8_t **st;    /* per slot, per skeleton node */
	uint32_t **npar; /* per slot, per skeleton node: parents not done */
	uint32_t **arr;  /* per group, per position: arrivals */
	uint64_t *stack; /* (slot << 32) | skeleton node */
	size_t sp, scap;
} sim;

static void push(sim *m, uint32_t slot, uint32_t s)
{
	ET_GROW(m->stack, m->scap, (size_t)m->sp + 1);
	m->stack[m->sp++] = (uint64_t)slot << 32 | s;
}

static void complete(sim *m, uint32_t slot, uint32_t s)
{
	const sum_tpl *t = m->xs->r[slot].t;
	uint32_t *npar = m->npar[slot];
	m->st[slot][s] = S_DONE;
	for (uint32_t e = t->sk_child_off[s]; e < t->sk_child_off[s + 1]; e++)
		if (--npar[t->sk_child[e]] == 0)
			push(m, slot, t->sk_child[e]);
}

static const coll_ent *member_at(const xsum *xs, const xgroup *xg, uint32_t mi, uint32_t p)
{
	if (p >= xg->len[mi])
		return NULL;
	return &xs->r[xg->slots[mi]].t->coll[xg->seq[mi][p]];
}

static void arrive(sim *m, uint32_t slot, uint32_t s, const coll_ent *c)
{
	uint32_t gid = rs_gid(&m->xs->r[slot], c);
	if (gid == GID_NONE) { /* not a member: nobody waits for it */
		complete(m, slot, s);
		return;
	}
	const xgroup *xg = &m->xs->xg[gid];
	m->st[slot][s] = S_READY;
	if (++m->arr[gid][c->pos] < xg->n_members)
		return;
	for (uint32_t mi = 0; mi < xg->n_members; mi++)
		complete(m, xg->slots[mi], member_at(m->xs, xg, mi, c->pos)->sk);
}

static void ready(sim *m, uint32_t slot, uint32_t s)
{
	const rank_sum *r = &m->xs->r[slot];
	const sum_tpl *t = r->t;
	uint8_t kind = t->sk_kind[s] & SK_KIND;
	if (kind == SK_JOIN) {
		complete(m, slot, s);
	} else if (kind == SK_COLL) {
		arrive(m, slot, s, &t->coll[t->sk_ref[s]]);
	} else {
		uint32_t k = t->sk_ref[s];
		uint32_t ms = r->match[2 * k];
		uint32_t peer = ms == ET_GRAPH_NONE ? ET_GRAPH_NONE
		                                    : m->xs->r[ms].t->p2p[r->match[2 * k + 1]].sk;
		if (kind == SK_SEND) {
			complete(m, slot, s);
			if (peer != ET_GRAPH_NONE && m->st[ms][peer] == S_READY)
				complete(m, ms, peer);
		} else if ((peer != ET_GRAPH_NONE && m->st[ms][peer] == S_DONE) ||
		           (ms == ET_GRAPH_NONE && r->match[2 * k + 1] == P2P_ABSENT)) {
			/* its SEND was reached, or its sender is not in the input
			 * (nothing to wait for that can be judged) */
			complete(m, slot, s);
		} else {
			m->st[slot][s] = S_READY;
		}
	}
}

static void run(sim *m)
{
	xsum *xs = m->xs;
	for (uint32_t slot = 0; slot < xs->n; slot++) {
		const sum_tpl *t = xs->r[slot].t;
		for (uint32_t s = 0; s < t->sk_n; s++)
			if (t->sk_npar[s] == 0 && !(t->sk_kind[s] & SK_STUCK))
				push(m, slot, s);
	}
	while (m->sp) {
		uint64_t x = m->stack[--m->sp];
		ready(m, (uint32_t)(x >> 32), (uint32_t)x);
	}
}

/* A wait of a blocked node on another rank, and why that rank has not
 * released it. */
enum { W_NOT_ARRIVED, W_NO_POSITION, W_SEND_NOT_REACHED };

typedef struct wedge {
	uint32_t from, to; /* slots */
	uint32_t sk;       /* the blocked node on `from` */
	uint8_t why;
} wedge;

typedef struct waits {
	wedge *e;
	size_t n, cap;
	uint32_t *first; /* per slot: first edge index, edges grouped by from */
	uint64_t blocked, blocked_ranks, left;
} waits;

static void add_edge(waits *w, uint32_t from, uint32_t to, uint32_t sk, uint8_t why)
{
	ET_GROW(w->e, w->cap, (size_t)w->n + 1);
	w->e[w->n++] = (wedge){from, to, sk, why};
}

/* The ranks blocked node s of a slot waits for (members of a collective are
 * distinct ranks, so there are no repeats to drop). */
static void node_waits(sim *m, waits *w, uint32_t slot, uint32_t s)
{
	const rank_sum *r = &m->xs->r[slot];
	const sum_tpl *t = r->t;
	if ((t->sk_kind[s] & SK_KIND) == SK_RECV) {
		uint32_t ms = r->match[2 * t->sk_ref[s]];
		if (ms != ET_GRAPH_NONE)
			add_edge(w, slot, ms, s, W_SEND_NOT_REACHED);
		return;
	}
	const coll_ent *c = &t->coll[t->sk_ref[s]];
	const xgroup *xg = &m->xs->xg[rs_gid(r, c)];
	for (uint32_t mi = 0; mi < xg->n_members; mi++) {
		uint32_t to = xg->slots[mi];
		const coll_ent *o = member_at(m->xs, xg, mi, c->pos);
		if (!o || m->st[to][o->sk] != S_READY)
			add_edge(w, slot, to, s, o ? W_NOT_ARRIVED : W_NO_POSITION);
	}
}

static void collect_waits(sim *m, waits *w)
{
	xsum *xs = m->xs;
	w->first = et_xmalloc((xs->n + 1) * sizeof *w->first);
	for (uint32_t slot = 0; slot < xs->n; slot++) {
		const sum_tpl *t = xs->r[slot].t;
		w->first[slot] = (uint32_t)w->n;
		bool any = false;
		for (uint32_t s = 0; s < t->sk_n; s++) {
			w->left += m->st[slot][s] != S_DONE && (t->sk_kind[s] & SK_KIND) != SK_JOIN;
			if (m->st[slot][s] != S_READY)
				continue;
			w->blocked++;
			any = true;
			node_waits(m, w, slot, s);
		}
		w->blocked_ranks += any;
	}
	w->first[xs->n] = (uint32_t)w->n;
}

/* One cycle in the wait-for graph: iterative DFS with colours; returns the
 * edges of the cycle in order (malloc'ed), or NULL. */
static uint32_t *find_wait_cycle(const sim *m, const waits *w, uint32_t *len)
{
	uint32_t n = (uint32_t)m->xs->n;
	uint8_t *col = et_xcalloc(n + 1, 1);
	uint32_t *via = et_xmalloc((n + 1) * sizeof *via);   /* edge into slot on the path */
	uint32_t *next = et_xmalloc((n + 1) * sizeof *next); /* next edge to try */
	uint32_t *stk = et_xmalloc((n + 1) * sizeof *stk);
	uint32_t *cyc = NULL;
	*len = 0;
	for (uint32_t root = 0; root < n && !cyc; root++) {
		if (col[root] || w->first[root] == w->first[root + 1])
			continue;
		uint32_t sp = 0;
		stk[sp++] = root;
		col[root] = 1;
		next[root] = w->first[root];
		while (sp && !cyc) {
			uint32_t u = stk[sp - 1];
			if (next[u] == w->first[u + 1]) {
				col[u] = 2;
				sp--;
				continue;
			}
			uint32_t ei = next[u]++, t = w->e[ei].to;
			if (col[t] == 1) { /* back edge: the cycle is t .. u, then ei */
				uint32_t k = sp;
				while (stk[k - 1] != t)
					k--;
				*len = sp - k + 1;
				cyc = et_xmalloc(*len * sizeof *cyc);
				for (uint32_t q = k; q < sp; q++)
					cyc[q - k] = via[stk[q]];
				cyc[*len - 1] = ei;
			} else if (col[t] == 0) {
				col[t] = 1;
				via[t] = ei;
				next[t] = w->first[t];
				stk[sp++] = t;
			}
		}
	}
	free(col);
	free(via);
	free(next);
	free(stk);
	return cyc;
}

/* "RECV node 5 "name" from rank 1 tag 7"; without the node when `brief`. */
static void describe_node(et_buf *b, const sim *m, uint32_t slot, uint32_t s, bool brief)
{
	const rank_sum *r = &m->xs->r[slot];
	const sum_tpl *t = r->t;
	bool recv = (t->sk_kind[s] & SK_KIND) == SK_RECV;
	const p2p_ent *p = recv ? &t->p2p[t->sk_ref[s]] : NULL;
	const coll_ent *c = recv ? NULL : &t->coll[t->sk_ref[s]];
	et_buf_puts(b, recv ? "RECV" : coll_name(c->type));
	if (!brief)
		et_buf_printf(b, " node %llu \"%.50s\"",
		              (unsigned long long)(recv ? p->node_id : c->node_id),
		              xsum_name(m->xs, recv ? p->name : c->name));
	if (recv)
		et_buf_printf(b, " from rank %u tag %d", rs_peer(r, p), p->tag);
	else
		et_buf_printf(b, " (group \"%.40s\" collective #%u)",
		              rs_gid(r, c) ? groups_name(m->v->grp, rs_gid(r, c)) : "0", c->pos);
}

static const char *why_text(uint8_t why)
{
	switch (why) {
	case W_NO_POSITION:
		return "never issues it";
	case W_SEND_NOT_REACHED:
		return "has not reached the SEND";
	default:
		return "has not reached it";
	}
}

/* Why a rank that waits for no one never releases the wait. */
static void terminal(et_buf *b, const sim *m, const wedge *e)
{
	const rank_sum *t = &m->xs->r[e->to];
	et_buf_printf(b, " -> rank %u, which %s", t->rank, why_text(e->why));
	bool waits_unmatched = false;
	for (uint32_t s = 0; s < t->t->sk_n && !waits_unmatched; s++)
		waits_unmatched = m->st[e->to][s] == S_READY;
	if (waits_unmatched)
		et_buf_puts(b,
		            " (it waits on a RECV that has no matching SEND: see P2P_UNMATCHED)");
	else if (t->t->n_stuck)
		et_buf_printf(b, " (%u of its comm nodes are in or behind a dependency cycle)",
		              t->t->n_stuck);
	else if (e->why == W_NO_POSITION)
		et_buf_puts(b, " (see COLL_MISMATCH)");
}

/* The node id and interned name of skeleton node s of a slot. */
static void node_of(const sim *m, uint32_t slot, uint32_t s, uint64_t *id, uint32_t *name)
{
	const sum_tpl *t = m->xs->r[slot].t;
	if ((t->sk_kind[s] & SK_KIND) == SK_COLL) {
		*id = t->coll[t->sk_ref[s]].node_id;
		*name = t->coll[t->sk_ref[s]].name;
	} else {
		*id = t->p2p[t->sk_ref[s]].node_id;
		*name = t->p2p[t->sk_ref[s]].name;
	}
}

/* "rank 0 [RECV ...] -> rank 1 [RECV ...] -> rank 0", and the ranks as
 * elements of the open JSON list j. */
static void describe_cycle(et_buf *b, et_jsonw *j, const sim *m, const waits *w,
                           const uint32_t *cyc, uint32_t len)
{
	et_buf_puts(b, "wait-for cycle: ");
	for (uint32_t k = 0; k < len; k++) {
		const wedge *e = &w->e[cyc[k]];
		et_buf_printf(b, "rank %u [", m->xs->r[e->from].rank);
		describe_node(b, m, e->from, e->sk, false);
		et_buf_puts(b, "] -> ");
		et_jsonw_uint(j, m->xs->r[e->from].rank);
	}
	et_buf_printf(b, "rank %u", m->xs->r[w->e[cyc[0]].from].rank);
}

/* No cycle: follow first waits from the first blocked rank to a rank
 * that waits for nobody, and say why that one never arrives. */
static void describe_chain(et_buf *b, const sim *m, const waits *w)
{
	const wedge *e = &w->e[0];
	et_buf_puts(b, "wait-for chain: ");
	for (uint32_t hops = 0;; hops++) {
		et_buf_printf(b, "%srank %u [", hops ? " -> " : "", m->xs->r[e->from].rank);
		describe_node(b, m, e->from, e->sk, false);
		et_buf_puts(b, "]");
		if (w->first[e->to] == w->first[e->to + 1] || hops > m->xs->n)
			break;
		e = &w->e[w->first[e->to]];
	}
	terminal(b, m, e);
}

static void report_deadlock(sim *m, const waits *w)
{
	uint32_t len;
	uint32_t *cyc = find_wait_cycle(m, w, &len);
	et_buf b = {0};
	find_x x;
	et_jsonw *j = find_x_open(&x);
	et_buf_printf(&b,
	              "the ranks stop with %llu node%s blocked on %llu rank%s (%llu comm nodes "
	              "never complete); ",
	              (unsigned long long)w->blocked, w->blocked == 1 ? "" : "s",
	              (unsigned long long)w->blocked_ranks, w->blocked_ranks == 1 ? "" : "s",
	              (unsigned long long)w->left);
	et_jsonw_karr(j, "wait_cycle");
	if (cyc)
		describe_cycle(&b, j, m, w, cyc, len);
	else
		describe_chain(&b, m, w);
	et_jsonw_end(j);
	et_buf_putc(&b, '\0');
	const wedge *first = &w->e[cyc ? cyc[0] : 0];
	uint64_t id;
	uint32_t nm;
	node_of(m, first->from, first->sk, &id, &nm);
	finding *f = find_add(&m->v->fs, C_DEADLOCK, m->xs->r[first->from].rank, ET_GRAPH_NONE);
	if (f)
		find_set(f, true, id, xsum_name(m->xs, nm), "%s", (char *)b.data);
	find_x_close(&x, f);
	free(b.data);
	free(cyc);
}

static void report_blocked(sim *m, const waits *w)
{
	for (size_t k = 0; k < w->n;) {
		const wedge *e = &w->e[k];
		et_buf b = {0};
		find_x x;
		et_jsonw *x_w = find_x_open(&x);
		describe_node(&b, m, e->from, e->sk, true);
		et_buf_puts(&b, " waits for rank");
		et_jsonw_karr(x_w, "waits_for");
		size_t j = k;
		for (; j < w->n && w->e[j].from == e->from && w->e[j].sk == e->sk; j++) {
			et_buf_printf(&b, "%s %u", j > k ? "," : "", m->xs->r[w->e[j].to].rank);
			et_jsonw_uint(x_w, m->xs->r[w->e[j].to].rank);
		}
		et_buf_printf(&b, " (%s)", why_text(e->why));
		et_buf_putc(&b, '\0');
		et_jsonw_end(x_w);
		uint64_t id;
		uint32_t nm;
		node_of(m, e->from, e->sk, &id, &nm);
		finding *f = find_add(&m->v->fs, C_BLOCKED_NODE, m->xs->r[e->from].rank, e->sk);
		if (f)
			find_set(f, true, id, xsum_name(m->xs, nm), "%s", (char *)b.data);
		find_x_close(&x, f);
		free(b.data);
		k = j;
	}
}

static void sim_init(sim *m, vctx *v, xsum *xs)
{
	memset(m, 0, sizeof *m);
	m->v = v;
	m->xs = xs;
	m->st = et_xcalloc(xs->n + 1, sizeof *m->st);
	m->npar = et_xcalloc(xs->n + 1, sizeof *m->npar);
	for (uint32_t slot = 0; slot < xs->n; slot++) {
		const sum_tpl *t = xs->r[slot].t;
		m->st[slot] = et_xcalloc((size_t)t->sk_n + 1, 1);
		m->npar[slot] = et_xmalloc(((size_t)t->sk_n + 1) * sizeof **m->npar);
		if (t->sk_n)
			memcpy(m->npar[slot], t->sk_npar, t->sk_n * sizeof **m->npar);
	}
	m->arr = et_xcalloc(xs->n_xg + 1, sizeof *m->arr);
	for (size_t g = 0; g < xs->n_xg; g++)
		m->arr[g] = et_xcalloc((size_t)xs->xg[g].max_len + 1, sizeof **m->arr);
}

static void sim_free(sim *m)
{
	for (uint32_t slot = 0; slot < m->xs->n; slot++) {
		free(m->st[slot]);
		free(m->npar[slot]);
	}
	for (size_t g = 0; g < m->xs->n_xg; g++)
		free(m->arr[g]);
	free(m->st);
	free(m->npar);
	free(m->arr);
	free(m->stack);
}

/* Whether some node waits on a peer (S_READY) after the run. */
static bool any_waiting(const sim *m)
{
	for (uint32_t slot = 0; slot < m->xs->n; slot++)
		for (uint32_t s = 0; s < m->xs->r[slot].t->sk_n; s++)
			if (m->st[slot][s] == S_READY)
				return true;
	return false;
}

/* The run over rank classes (quotient.h): when no representative is left
 * waiting on a peer, no rank is, and there is nothing to report. */
static bool clean_by_classes(vctx *v)
{
	xsum q;
	if (xsum_quotient(v->xs, &q) < 0)
		return false;
	sim m;
	sim_init(&m, v, &q);
	run(&m);
	bool clean = !any_waiting(&m);
	if (clean)
		v->dl_classes = (uint32_t)q.n;
	sim_free(&m);
	xsum_quotient_free(&q);
	return clean;
}

void check_deadlock(vctx *v)
{
	if (clean_by_classes(v))
		return;
	sim m;
	sim_init(&m, v, v->xs);
	run(&m);
	waits w = {0};
	collect_waits(&m, &w);
	if (w.n) {
		report_deadlock(&m, &w);
		report_blocked(&m, &w);
	}
	sim_free(&m);
	free(w.e);
	free(w.first);
}
