/* et-sim's packed values (workload/cpat.c, sgraph_pack.c): patterns are
 * interned; a graph's values pack to the pattern worked out by hand; a
 * view built from a class rule through the template gives the values and
 * the pattern that the node-by-node view packs to, both when its entries
 * are distinct (the class's plain pattern) and when two of them are one
 * value (its own pattern). */
#include "check.h"
#include "et-sim/workload/sgraph.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_build.h"
#include "et_graph.h"
#include "et_types.h"
#include <stdlib.h>
#include <string.h>

enum { COLL = ET_NODE_COLL, SEND = ET_NODE_SEND, RECV = ET_NODE_RECV };

static void test_intern(void)
{
	cpat_set s = {0};
	uint16_t a[] = {0, 1, 0}, b[] = {0, 1, 1};
	uint8_t k[] = {COLL, SEND};
	const cpat *p = cpat_intern(&s, a, 3, k, 2), *q = cpat_intern(&s, b, 3, k, 2);
	CHECK(p != q && p->id == 0 && q->id == 1);
	CHECK(cpat_intern(&s, a, 3, k, 2) == p && s.n == 2);
	CHECK(cpat_intern(&s, NULL, 0, NULL, 0)->id == 2); /* a graph without messages */
	cpat_set_free(&s);
	cpat_build b2 = {0};
	bool fresh;
	CHECK(cpat_build_add(&b2, COLL, 7, &fresh) == 0 && fresh);
	CHECK(cpat_build_add(&b2, SEND, 7, &fresh) == 1 && fresh); /* kinds apart */
	CHECK(cpat_build_add(&b2, COLL, 7, &fresh) == 0 && !fresh);
	CHECK(b2.n == 3 && b2.nval == 2 && b2.idx[2] == 0);
	cpat_build_free(&b2);
	/* the limit: CPAT_MAX_VALS values index in 16 bits; one more is over,
	 * never an index that wraps */
	cpat_build b3 = {0};
	for (uint32_t v = 0; v < CPAT_MAX_VALS; v++)
		CHECK(cpat_build_add(&b3, SEND, v, &fresh) == v && fresh);
	CHECK(!b3.over && b3.nval == CPAT_MAX_VALS && b3.idx[CPAT_MAX_VALS - 1] == 65535);
	CHECK(cpat_build_add(&b3, SEND, 7, &fresh) == 7 && !fresh); /* known: fine */
	cpat_build_add(&b3, SEND, CPAT_MAX_VALS, &fresh);
	CHECK(b3.over && !fresh);
	cpat_build_reset(&b3);
	CHECK(!b3.over && b3.nval == 0 && cpat_build_add(&b3, RECV, 1, &fresh) == 0 && fresh);
	cpat_build_free(&b3);
}

/* Rank 0: comp, coll tp0, send 1, coll dp0, recv 1, coll tp0, send 2. */
static sgraph *body_graph(void)
{
	et_arena *a = et_arena_new();
	et_graph *g = et_graph_new();
	et_graph_add(g, et_build_comp(a, 1, "c", 5, false));
	const char *pg[] = {"tp0", NULL, "dp0", NULL, "tp0", NULL};
	for (int k = 0; k < 6; k++) {
		et_node *n;
		if (k == 1 || k == 5)
			n = et_build_p2p(a, 2 + k, "s", true, 0, k == 1 ? 1 : 2, 1, 64);
		else if (k == 3)
			n = et_build_p2p(a, 2 + k, "r", false, 1, 0, 1, 64);
		else
			n = et_build_coll(a, 2 + k, "ar", ET_COLL_ALL_REDUCE, 64);
		if (pg[k])
			et_attr_set_str(a, n, "pg_name", pg[k]);
		et_graph_add(g, n);
	}
	et_graph_finish(g);
	uint64_t *gemm = calloc(3 * 8, sizeof *gemm);
	sgraph *s = sgraph_from(g, gemm);
	free(gemm);
	et_graph_free(g);
	et_arena_free(a);
	return s;
}

static void test_pack_body(sgraph *s, cpat_set *set)
{
	sgraph_pack(s, set);
	CHECK(s->cp && s->cp->n == 6 && s->cp->nval == 5);
	uint16_t want[] = {0, 1, 2, 3, 0, 4};
	uint8_t kinds[] = {COLL, SEND, COLL, RECV, SEND};
	CHECK(memcmp(s->cp->idx, want, sizeof want) == 0);
	CHECK(memcmp(s->cp->kind, kinds, sizeof kinds) == 0);
	CHECK(strcmp(s->pgnames + s->cv[0], "tp0") == 0 && s->cv[1] == 1 && s->cv[3] == 1 &&
	      s->cv[4] == 2);
}

/* Class: nodes 1 and 5 take slot 0 (a pg name), node 2 slot 1 and node 6
 * slot 2 (peers); nodes 3 and 4 keep rank 0's dp0 and 1. */
static void make_class(et_crule_class *c)
{
	memset(c, 0, sizeof *c);
	static et_crule_node nodes[] = {{1, 0}, {2, 1}, {5, 0}, {6, 2}};
	static uint8_t kind[] = {ET_CRULE_PG, ET_CRULE_DST, ET_CRULE_DST};
	c->simple = true;
	c->n_nodes = 7;
	c->nodes = nodes;
	c->n = 4;
	c->kind = kind;
	c->n_slots = 3;
}

/* Both ways of building the view agree, node by node and in pattern. */
static const cpat *check_rule_view(const sgraph *body, sgraph_rtpl *t, const et_crule_class *c,
                                   const et_crule_val *vals, cpat_set *set)
{
	sgraph *v = sgraph_view_rule(body, t, vals, set);
	sgraph *w = sgraph_view_vals(body, body, c, vals);
	sgraph_pack(w, set);
	CHECK(v && w->cp && v->cp == w->cp && !v->cval && !w->cval);
	for (uint32_t i = 0; v && i < body->n; i++) {
		CHECK(sg_src(v, i) == sg_src(w, i) && sg_dst(v, i) == sg_dst(w, i));
		const char *x = sg_pg(v, i), *y = sg_pg(w, i);
		CHECK((!x && !y) || (x && y && strcmp(x, y) == 0));
	}
	const cpat *p = v ? v->cp : NULL;
	sgraph_free(v);
	sgraph_free(w);
	return p;
}

static void test_rule_views(const sgraph *body, cpat_set *set)
{
	et_crule_class c;
	make_class(&c);
	CHECK(sgraph_fits_rule(body, &c));
	sgraph_rtpl t;
	CHECK(sgraph_rtpl_make(&t, body, body, &c, set));
	CHECK(t.n == 5 && t.nused == 5); /* 3 slots, dp0 and recv 1 */
	/* distinct: the body's own pattern, which is the plain one */
	et_crule_val d[] = {{0, "tp1", 0}, {5, NULL, 0}, {6, NULL, 0}};
	CHECK(check_rule_view(body, &t, &c, d, set) == t.plain && t.plain == body->cp);
	/* slot 0 is dp0 as node 3, slots 1 and 2 both 6: three values, used
	 * by the communicating nodes as 0 1 0 2 0 1 */
	et_crule_val m[] = {{0, "dp0", 0}, {6, NULL, 0}, {6, NULL, 0}};
	const cpat *p = check_rule_view(body, &t, &c, m, set);
	uint16_t want[] = {0, 1, 0, 2, 0, 1};
	CHECK(p && p != t.plain && p->nval == 3 && memcmp(p->idx, want, sizeof want) == 0);
	sgraph_rtpl_free(&t);
}

int main(void)
{
	test_intern();
	cpat_set set = {0};
	sgraph *body = body_graph();
	test_pack_body(body, &set);
	test_rule_views(body, &set);
	sgraph_free(body);
	cpat_set_free(&set);
	return check_failures();
}
