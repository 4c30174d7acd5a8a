/* Unit tests of class rules (et_crule, et_input_opts.class_rules): a class
 * written by et_tpl whose slots are a send's comm_dst, a receive's
 * comm_src and a collective's pg_name reads back, with class_rules, as
 * its first rank in full (with the class's slot nodes, by node index and
 * kind) and every later rank as its rule alone, no message read, whose
 * values are that rank's; a class whose slot sits on a compute node, or a
 * rank whose value is not its slot's attribute, comes in full; a class
 * redefined with the same bytes keeps its generation, with other bytes
 * gets a new one and its next rank comes in full again. */
#include "check.h"
#include "et_crule.h"
#include "et_input.h"
#include "et_tpl.h"
#include "et_types.h"
#include "et_writer.h"
#include "tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NODES = 6, RANKS = 4 };

/* Node 1: a SEND with slot 0; node 2: a COLL with slot 2; node 4: a RECV
 * with slot 1. comp_slot: node 3 (a COMP node) takes slot 3 too. */
static void build(et_tpl *t, bool comp_slot)
{
	et_tpl_init(t);
	for (int i = 0; i < NODES; i++) {
		et_arena *a = et_arena_new();
		et_node *n = et_node_new(a);
		n->id = (uint64_t)i;
		n->name = "op";
		n->type = i == 1   ? ET_NODE_SEND
		          : i == 2 ? ET_NODE_COLL
		          : i == 4 ? ET_NODE_RECV
		                   : ET_NODE_COMP;
		uint32_t slot = i == 1 ? 0 : i == 2 ? 2 : i == 4 ? 1 : ET_TPL_FIXED;
		if (comp_slot && i == 3)
			slot = 3;
		et_tpl_add(t, n, slot);
		et_arena_free(a);
	}
}

typedef struct vars {
	uint32_t rank;
	uint32_t odd; /* this rank gives slot 1 a pg_name instead of a comm_src */
	et_buf b;
} vars;

static const et_buf *var(void *ctx, uint32_t slot)
{
	vars *v = ctx;
	char pg[16];
	snprintf(pg, sizeof pg, "g%u", v->rank);
	if (slot == 2 || slot == 3 || (slot == 1 && v->rank == v->odd))
		et_tpl_attr_str(&v->b, "pg_name", pg);
	else
		et_tpl_attr_int32(&v->b, slot ? "comm_src" : "comm_dst",
		                  (int32_t)(v->rank * 10 + slot));
	return &v->b;
}

/* RANKS ranks of class 0 (class frame before rank 0; before rank 2 too
 * when redefine, from template t2 if given). */
static void write_cls(const char *path, bool comp_slot, uint32_t odd, bool redefine, bool other)
{
	et_tpl t, t2;
	build(&t, comp_slot);
	build(&t2, !comp_slot);
	et_buf meta = {0};
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	m.version = "0.0.4";
	et_meta_pack(&m, &meta);
	et_writer_cfg c;
	et_writer_cfg_init(&c);
	c.format = ET_WRITER_STREAM;
	c.path = path;
	et_writer *w;
	et_error e = {0};
	CHECK(et_writer_open(&w, &c, &e) == 0);
	vars v = {.odd = odd};
	for (uint32_t r = 0; r < RANKS; r++) {
		et_rank_info ri = {.rank = r, .world_size = RANKS, .input = "test"};
		v.rank = r;
		bool def = r == 0 || (redefine && r == 2);
		et_tpl *use = other && r >= 2 ? &t2 : &t;
		CHECK(et_tpl_write_class(use, w, &ri, 0, def, &meta, var, &v, &e) == 1);
	}
	CHECK(et_writer_close(w, true, &e) == 0);
	et_buf_free(&v.b);
	et_buf_free(&meta);
	et_tpl_free(&t);
	et_tpl_free(&t2);
}

typedef struct seen {
	bool rule_only[RANKS];
	uint64_t gen[RANKS];
	int msgs[RANKS];
} seen;

/* Reads path with class_rules; checks each rule against its rank. */
static void read_cls(const char *path, seen *s)
{
	et_input *in;
	et_input_opts o;
	et_input_opts_init(&o);
	o.class_rules = true;
	et_error e = {0};
	char *argv[] = {(char *)path};
	CHECK(et_input_open(&in, 1, argv, &o, &e) == 0);
	et_rank_info ri;
	et_crule_class c = {0};
	et_arena *a = et_arena_new();
	et_crule_val v[4];
	while (et_input_next_rank(in, &ri, &e) == 1 && ri.rank < RANKS) {
		CHECK(ri.in_class && ri.class_id == 0 && ri.class_gen != 0);
		s->rule_only[ri.rank] = ri.rule_only;
		s->gen[ri.rank] = ri.class_gen;
		if (ri.crule)
			et_crule_class_copy(&c, ri.crule);
		et_msg msg;
		while (et_input_next_msg(in, &msg, &e) == 1)
			s->msgs[ri.rank]++;
		if (!ri.rule_only)
			continue;
		CHECK(c.simple && ri.rule && ri.rule_len > 0);
		memset(v, 0, sizeof v);
		CHECK(et_crule_rule_vals(&c, ri.rule, ri.rule_len, a, v));
		char pg[16];
		snprintf(pg, sizeof pg, "g%u", ri.rank);
		CHECK(v[0].peer == (int32_t)ri.rank * 10 && v[1].peer == (int32_t)ri.rank * 10 + 1);
		CHECK(v[2].pg && strcmp(v[2].pg, pg) == 0);
	}
	CHECK(e.code == 0);
	et_arena_free(a);
	et_crule_class_free(&c);
	et_input_close(in);
}

static void test_simple(void)
{
	const char *p = tmpdir_path("s.etz");
	write_cls(p, false, RANKS, false, false);
	seen s = {0};
	read_cls(p, &s);
	CHECK(!s.rule_only[0] && s.msgs[0] == NODES + 1);
	for (int r = 1; r < RANKS; r++)
		CHECK(s.rule_only[r] && s.msgs[r] == 0 && s.gen[r] == s.gen[0]);
	/* the slot nodes and kinds, from the class itself */
	et_input *in;
	et_input_opts o;
	et_input_opts_init(&o);
	o.class_rules = true;
	et_error e = {0};
	char *argv[] = {(char *)p};
	CHECK(et_input_open(&in, 1, argv, &o, &e) == 0);
	et_rank_info ri;
	CHECK(et_input_next_rank(in, &ri, &e) == 1 && ri.crule);
	const et_crule_class *c = ri.crule;
	CHECK(c->simple && c->n_nodes == NODES && c->n == 3 && c->n_slots == 3);
	CHECK(c->nodes[0].node == 1 && c->nodes[0].slot == 0);
	CHECK(c->nodes[1].node == 2 && c->nodes[1].slot == 2);
	CHECK(c->nodes[2].node == 4 && c->nodes[2].slot == 1);
	CHECK(c->kind[0] == ET_CRULE_DST && c->kind[1] == ET_CRULE_SRC &&
	      c->kind[2] == ET_CRULE_PG);
	et_input_close(in);
	/* without class_rules every rank is read in full */
	et_input_opts_init(&o);
	CHECK(et_input_open(&in, 1, argv, &o, &e) == 0);
	while (et_input_next_rank(in, &ri, &e) == 1) {
		CHECK(!ri.rule_only && !ri.crule);
		et_msg m;
		int k = 0;
		while (et_input_next_msg(in, &m, &e) == 1)
			k++;
		CHECK(k == NODES + 1);
	}
	et_input_close(in);
}

static void test_not_simple(void)
{
	seen s = {0};
	/* a slot on a compute node: the class is not simple */
	write_cls(tmpdir_path("c.etz"), true, RANKS, false, false);
	read_cls(tmpdir_path("c.etz"), &s);
	for (int r = 0; r < RANKS; r++)
		CHECK(!s.rule_only[r] && s.msgs[r] == NODES + 1);
	/* rank 2 gives its receive a pg_name: it alone comes in full */
	memset(&s, 0, sizeof s);
	write_cls(tmpdir_path("o.etz"), false, 2, false, false);
	read_cls(tmpdir_path("o.etz"), &s);
	CHECK(!s.rule_only[0] && s.rule_only[1] && !s.rule_only[2] && s.rule_only[3]);
	CHECK(s.msgs[2] == NODES + 1);
}

static void test_redefined(void)
{
	seen s = {0};
	/* the same bytes again: the same generation, rules go on */
	write_cls(tmpdir_path("r.etz"), false, RANKS, true, false);
	read_cls(tmpdir_path("r.etz"), &s);
	CHECK(s.gen[2] == s.gen[0] && s.rule_only[2] && s.rule_only[3]);
	/* other bytes: a new generation, whose first rank comes in full */
	memset(&s, 0, sizeof s);
	write_cls(tmpdir_path("x.etz"), false, RANKS, true, true);
	read_cls(tmpdir_path("x.etz"), &s);
	CHECK(s.gen[2] != s.gen[0] && !s.rule_only[2] && s.msgs[2] == NODES + 1);
}

int main(void)
{
	if (!tmpdir_open("test_crule"))
		return 1;
	test_simple();
	test_not_simple();
	test_redefined();
	tmpdir_close();
	return check_failures();
}
