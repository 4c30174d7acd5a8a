/* double_binary_tree: ASTRA-sim's DoubleBinaryTreeAllReduce (doc/astra-sim.md
 * D.19-D.25). The n = 2^L ranks of the phase sit in a binary tree: a top
 * rank with one child, under it a complete tree of the other n - 1
 * positions numbered in order. The whole phase input S goes up the tree,
 * reduced at every inner node and at the top, then comes back down. Two
 * trees take turns, phase after phase: MAX (top n - 1) and MIN (top 0). */
#include "et-sim/system/algo/algo.h"

/* The rank's role, from its position. */
enum { ROLE_LEAF, ROLE_INNER, ROLE_TOP };

/* Where a rank is in its phase (algo.tree_state). */
enum {
	ST_LEAF_UP,   /* leaf: the bundle to memory, then send up */
	ST_UP_WAIT,   /* inner: waiting for the children's data */
	ST_DOWN_WAIT, /* waiting for the parent's data (leaf, inner) */
	ST_LEAF_DONE, /* leaf: the bundle back, then the phase ends */
	ST_TOP_WAIT,  /* top: waiting for its child's data */
	ST_DOWN_SEND, /* inner, top: the reduction, then send down and end */
};

/* The position first of the complete tree, and its top. */
static uint32_t first_pos(const algo *a)
{
	return a->tree_min ? 1 : 0;
}

static uint32_t top_pos(const algo *a)
{
	return a->tree_min ? 0 : a->n - 1;
}

/* The complete tree's root, the top's only child. */
static uint32_t root_pos(const algo *a)
{
	return a->n / 2 - 1 + first_pos(a);
}

/* In-order index (1-based) in the complete tree of position q. */
static uint32_t order(const algo *a, uint32_t q)
{
	return q - first_pos(a) + 1;
}

static uint32_t position(const algo *a, uint32_t i)
{
	return i - 1 + first_pos(a);
}

static int role(const algo *a)
{
	if (a->idx == top_pos(a))
		return ROLE_TOP;
	return order(a, a->idx) % 2 ? ROLE_LEAF : ROLE_INNER;
}

/* Index i's height z = its trailing zeros: children i -/+ 2^(z-1); it is
 * a left child when bit z+1 is clear, and its parent is then i + 2^z. */
static uint32_t parent_pos(const algo *a)
{
	uint32_t i = order(a, a->idx);
	if (i == a->n / 2)
		return top_pos(a);
	uint32_t z = (uint32_t)__builtin_ctz(i);
	return position(a, (i >> (z + 1)) & 1 ? i - (1u << z) : i + (1u << z));
}

static uint32_t child_pos(const algo *a, bool right)
{
	uint32_t i = order(a, a->idx);
	uint32_t h = 1u << (__builtin_ctz(i) - 1);
	return position(a, right ? i + h : i - h);
}

/* ASTRA-sim's PacketBundle: the endpoint delay, then the reduction of the
 * data when it is to be reduced; then a General event. */
static void bundle(sim *s, stream *st, bool reduce)
{
	algo_after(s, st, st->a.d, AK_BUNDLE, reduce ? st->a.msg_size + 1 : 0);
}

static void send_to(sim *s, stream *st, uint32_t pos)
{
	algo_send(s, st, st->a.rg->rank[pos], st->a.msg_size);
}

static void post_from(sim *s, stream *st, uint32_t pos)
{
	algo_expect(s, st, st->a.rg->rank[pos]);
}

/* Which tree a phase runs on (D.21): ASTRA-sim counts the phases it makes
 * on a dimension and takes MAX, MIN, MAX, ... in that order: a chunk's
 * phases in plan order, chunk after chunk, from the parity p->seq the
 * collective starts at. */
static bool min_tree(const stream *st)
{
	const coll *c = st->rc->c;
	const phase_plan *p = &c->ph[st->phase];
	uint64_t per_chunk = 0, before = 0;
	for (uint32_t k = 0; k < c->nphase; k++)
		if (c->ph[k].dim == p->dim) {
			per_chunk++;
			before += k < st->phase;
		}
	return (p->seq + st->chunk * per_chunk + before) & 1;
}

static void dbt_start(sim *s, stream *st)
{
	algo *a = &st->a;
	a->msg_size = st->rc->c->ph[st->phase].size;
	a->d = (uint64_t)s->cf->endpoint; /* never the fast path, even on a group */
	a->tree_min = min_tree(st);
	a->tree_reduced = 0;
	switch (role(a)) {
	case ROLE_LEAF:
		a->tree_state = ST_LEAF_UP;
		bundle(s, st, false);
		break;
	case ROLE_INNER:
		a->tree_state = ST_UP_WAIT;
		post_from(s, st, child_pos(a, false));
		post_from(s, st, child_pos(a, true));
		break;
	default:
		a->tree_state = ST_TOP_WAIT;
		post_from(s, st, root_pos(a));
	}
}

static void dbt_receive(sim *s, stream *st)
{
	algo *a = &st->a;
	switch (a->tree_state) {
	case ST_UP_WAIT: /* each child's data is reduced as it comes */
		bundle(s, st, true);
		break;
	case ST_DOWN_WAIT:
		if (role(a) == ROLE_LEAF) {
			a->tree_state = ST_LEAF_DONE;
			bundle(s, st, false);
		} else {
			a->tree_state = ST_DOWN_SEND;
			bundle(s, st, true);
		}
		break;
	case ST_TOP_WAIT:
		a->tree_state = ST_DOWN_SEND;
		bundle(s, st, true);
		break;
	default:
		sim_fail(s, ET_EXIT_FOUND, "internal: doubleBinaryTree message out of turn");
	}
}

/* A bundle is back. */
static void general(sim *s, stream *st)
{
	algo *a = &st->a;
	switch (a->tree_state) {
	case ST_LEAF_UP:
		a->tree_state = ST_DOWN_WAIT;
		send_to(s, st, parent_pos(a));
		post_from(s, st, parent_pos(a));
		break;
	case ST_UP_WAIT:
		if (++a->tree_reduced < 2)
			break;
		a->tree_state = ST_DOWN_WAIT;
		send_to(s, st, parent_pos(a));
		post_from(s, st, parent_pos(a));
		break;
	case ST_LEAF_DONE:
		algo_finish(s, st);
		break;
	case ST_DOWN_SEND:
		if (role(a) == ROLE_TOP) {
			send_to(s, st, root_pos(a));
		} else {
			send_to(s, st, child_pos(a, false));
			send_to(s, st, child_pos(a, true));
		}
		algo_finish(s, st);
		break;
	default:
		sim_fail(s, ET_EXIT_FOUND, "internal: doubleBinaryTree step out of turn");
	}
}

static void dbt_event(sim *s, stream *st, int kind, uint64_t extra)
{
	if (kind == AK_RECV_NOW)
		dbt_receive(s, st);
	else if (kind == AK_BUNDLE && extra)
		algo_after(s, st, algo_reduce(s, extra - 1), AK_PROCESSED, 0);
	else
		general(s, st);
}

/* A reduce-scatter or all-gather phase runs as the same all-reduce of its
 * whole input (D.22); an all-to-all is refused. No closed form: the ranks
 * of a tree are not alike, so every phase is simulated. */
const algo_row algo_double_binary_tree = {
    .name = "doubleBinaryTree",
    .caps = ALGO_CAP_POW2 | ALGO_CAP_TREE,
    .types = ALGO_TYPES_ALL & ~ALGO_TYPE(CT_A2A),
    .start = dbt_start,
    .receive = dbt_receive,
    .event = dbt_event,
};
