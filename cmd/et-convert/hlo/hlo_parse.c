/* hlo_parse: the module, its computations and their instructions
 * (hlo_parse.h). The grammar follows XLA's own parser
 * (xla/hlo/parser/hlo_parser.cc):
 *
 *   module      ::= ['HloModule' name (',' attribute)*] stackframes? computation+
 *   computation ::= ['ENTRY'] name ['(' params ')' '->' shape] '{' instruction+ '}'
 *                   (',' attribute)*
 *   instruction ::= ['ROOT'] name '=' [shape] opcode '(' operands ')' (',' attribute)*
 *   operand     ::= [shape] name
 *
 * Names may carry a leading %. Operands must be defined earlier in their
 * computation (as XLA requires); computations may be referred to before
 * they are defined. Without ENTRY the last computation is the entry, without
 * ROOT the last instruction is the root. */
#include "et-convert/hlo/hlo_parse.h"
#include "et_mem.h"

#include <string.h>

int hlo_p_next(hlo_parser *p)
{
	p->t = hlo_lex_next(&p->lx);
	if (p->t.kind == HLO_T_BAD_STR)
		return hlo_fail(p->m, p->e, p->t.off, "a string without its closing quote");
	if (p->t.kind == HLO_T_BAD_COMMENT)
		return hlo_fail(p->m, p->e, p->t.off, "a comment without its closing */");
	return 0;
}

hlo_tok hlo_p_peek(const hlo_parser *p)
{
	hlo_lex copy = p->lx;
	return hlo_lex_next(&copy);
}

int hlo_p_expected(hlo_parser *p, const char *what)
{
	char buf[80];
	return hlo_fail(p->m, p->e, p->t.off, "expected %s, found %s", what,
	                hlo_tok_desc(&p->lx, &p->t, buf, sizeof buf));
}

int hlo_p_eat(hlo_parser *p, uint8_t k, const char *what)
{
	if (p->t.kind != k)
		return hlo_p_expected(p, what);
	return hlo_p_next(p);
}

int hlo_p_sep(hlo_parser *p, uint8_t close, const char *what)
{
	if (p->t.kind == HLO_T_COMMA)
		return hlo_p_next(p);
	return p->t.kind == close ? 0 : hlo_p_expected(p, what);
}

bool hlo_p_is(const hlo_parser *p, const char *w)
{
	return hlo_tok_is(&p->lx, &p->t, w);
}

int hlo_p_int(hlo_parser *p, int64_t *v, const char *what)
{
	if (!hlo_tok_int(&p->lx, &p->t, v))
		return hlo_p_expected(p, what);
	return hlo_p_next(p);
}

static bool closes(uint8_t open, uint8_t close)
{
	return (open == HLO_T_LBRACE && close == HLO_T_RBRACE) ||
	       (open == HLO_T_LBRACK && close == HLO_T_RBRACK) ||
	       (open == HLO_T_LPAREN && close == HLO_T_RPAREN);
}

int hlo_p_skip_group(hlo_parser *p)
{
	uint8_t stack[HLO_MAX_DEPTH];
	size_t pos[HLO_MAX_DEPTH];
	int depth = 0;
	do {
		if (hlo_tok_opens(&p->t)) {
			if (depth == HLO_MAX_DEPTH)
				return hlo_fail(p->m, p->e, p->t.off,
				                "brackets nested deeper than %d", HLO_MAX_DEPTH);
			pos[depth] = p->t.off;
			stack[depth++] = p->t.kind;
		} else if (hlo_tok_closes(&p->t)) {
			if (!closes(stack[depth - 1], p->t.kind))
				return hlo_p_expected(p, "a matching closing bracket");
			depth--;
		} else if (p->t.kind == HLO_T_EOF) {
			return hlo_fail(p->m, p->e, pos[depth - 1], "this bracket is never closed");
		}
		if (hlo_p_next(p) < 0)
			return -1;
	} while (depth > 0);
	return 0;
}

int hlo_p_skip_value(hlo_parser *p)
{
	for (bool first = true;; first = false) {
		if (p->t.kind == HLO_T_COMMA || hlo_tok_closes(&p->t) || p->t.kind == HLO_T_EOF ||
		    (p->t.nl && !first))
			return 0;
		int r = hlo_tok_opens(&p->t) ? hlo_p_skip_group(p) : hlo_p_next(p);
		if (r < 0)
			return -1;
	}
}

int hlo_p_name(hlo_parser *p, uint32_t *id, const char *what)
{
	const char *s = p->lx.s + p->t.off;
	size_t n = p->t.len;
	if (p->t.kind == HLO_T_WORD && n && *s == '%') {
		s++;
		n--;
	}
	if (p->t.kind != HLO_T_WORD || n == 0)
		return hlo_p_expected(p, what);
	*id = et_strmap_intern(&p->m->names, s, n);
	return 0;
}

/* operand ::= [shape] name, defined earlier in this computation. */
static int parse_operand(hlo_parser *p)
{
	hlo_module *m = p->m;
	uint32_t shape, id;
	if (hlo_p_at_shape(p) && hlo_p_shape(p, &shape) < 0)
		return -1;
	if (hlo_p_name(p, &id, "an operand name") < 0)
		return -1;
	hlo_tok after = hlo_p_peek(p);
	if (after.kind == HLO_T_LPAREN)
		return hlo_fail(m, p->e, p->t.off,
		                "an instruction as an operand (only names are supported)");
	uint64_t *inst = et_hmap_get(&m->scope, (uint64_t)p->comp + 1, id);
	if (!inst)
		return hlo_fail(
		    m, p->e, p->t.off,
		    "operand %s is not defined before this instruction in computation %s",
		    hlo_name(m, id), hlo_name(m, m->comp[p->comp].name));
	ET_GROW(m->opnd, m->capopnd, (size_t)m->nopnd + 1);
	m->opnd[m->nopnd++] = (uint32_t)*inst;
	m->inst[m->ninst - 1].nopnd++;
	return hlo_p_next(p);
}

/* The text between an opcode's parentheses: a parameter number, a constant's
 * literal (kept when it is one integer) or operands. */
static int parse_operands(hlo_parser *p, hlo_inst *in)
{
	if (p->t.kind != HLO_T_LPAREN)
		return hlo_p_expected(p, "'(' after the opcode");
	if (in->op == HLO_OP_CONSTANT) {
		hlo_tok lit = hlo_p_peek(p);
		hlo_lex after = p->lx;
		(void)hlo_lex_next(&after);
		if (hlo_tok_int(&p->lx, &lit, &in->ival) &&
		    hlo_lex_next(&after).kind == HLO_T_RPAREN)
			in->flags |= HLO_F_INT;
		return hlo_p_skip_group(p);
	}
	if (hlo_p_next(p) < 0)
		return -1;
	if (in->op == HLO_OP_PARAMETER) {
		if (hlo_p_int(p, &in->ival, "a parameter number") < 0)
			return -1;
		if (in->ival < 0)
			return hlo_p_expected(p, "a parameter number of at least 0");
		return hlo_p_eat(p, HLO_T_RPAREN, "')' after the parameter number");
	}
	in = NULL; /* parse_operand may move m->inst */
	while (p->t.kind != HLO_T_RPAREN) {
		if (parse_operand(p) < 0)
			return -1;
		if (hlo_p_sep(p, HLO_T_RPAREN, "',' or ')' after an operand") < 0)
			return -1;
	}
	return hlo_p_next(p);
}

/* The opcode word: its class and its text's id. */
static int parse_opcode(hlo_parser *p, hlo_inst *in)
{
	if (p->t.kind != HLO_T_WORD)
		return hlo_p_expected(p, "an opcode");
	const char *w = p->lx.s + p->t.off;
	bool start;
	in->op = hlo_opcode(w, p->t.len, &start);
	if (start)
		in->flags |= HLO_F_START;
	in->opname = et_strmap_intern(&p->m->names, w, p->t.len);
	return hlo_p_next(p);
}

static uint32_t new_inst(hlo_module *m)
{
	ET_GROW(m->inst, m->capinst, (size_t)m->ninst + 1);
	hlo_inst *in = &m->inst[m->ninst];
	memset(in, 0, sizeof *in);
	in->attr = HLO_NONE;
	in->opnd = (uint32_t)m->nopnd;
	return (uint32_t)m->ninst++;
}

/* instruction ::= ['ROOT'] name '=' [shape] opcode '(' ... ')' attributes */
static int parse_instruction(hlo_parser *p, uint32_t *root)
{
	hlo_module *m = p->m;
	if (m->ninst >= HLO_MAX_INST)
		return hlo_fail(m, p->e, p->t.off, "more than %u instructions", HLO_MAX_INST);
	bool is_root = hlo_p_is(p, "ROOT") && hlo_p_peek(p).kind != HLO_T_EQ;
	if (is_root && hlo_p_next(p) < 0)
		return -1;
	uint32_t i = new_inst(m), id;
	m->inst[i].pos = (uint32_t)p->t.off;
	if (hlo_p_name(p, &id, "an instruction name") < 0 || hlo_p_next(p) < 0 ||
	    hlo_p_eat(p, HLO_T_EQ, "'=' after the instruction name") < 0)
		return -1;
	m->inst[i].name = id;
	if (hlo_p_at_shape(p) && hlo_p_shape(p, &m->inst[i].shape) < 0)
		return -1;
	if (parse_opcode(p, &m->inst[i]) < 0 || parse_operands(p, &m->inst[i]) < 0 ||
	    hlo_p_attrs(p, i) < 0)
		return -1;
	uint64_t *slot = et_hmap_put(&m->scope, (uint64_t)p->comp + 1, id, HLO_NONE);
	if (*slot != HLO_NONE)
		return hlo_fail(m, p->e, m->inst[i].pos, "instruction %s is defined twice",
		                hlo_name(m, id));
	*slot = i;
	if (is_root) {
		if (*root != HLO_NONE)
			return hlo_fail(m, p->e, m->inst[i].pos, "a second ROOT in computation %s",
			                hlo_name(m, m->comp[p->comp].name));
		*root = i;
		m->inst[i].flags |= HLO_F_ROOT;
	}
	return 0;
}

/* ['(' params ')' '->' shape] before a computation's body: only checked. */
static int parse_signature(hlo_parser *p)
{
	uint32_t shape;
	if (p->t.kind != HLO_T_LPAREN)
		return 0;
	if (hlo_p_skip_group(p) < 0 || hlo_p_eat(p, HLO_T_ARROW, "'->' after the parameters") < 0)
		return -1;
	return hlo_p_shape(p, &shape);
}

static int parse_body(hlo_parser *p, hlo_comp *c)
{
	hlo_module *m = p->m;
	uint32_t root = HLO_NONE;
	size_t open = p->t.off;
	if (hlo_p_eat(p, HLO_T_LBRACE, "'{' before the instructions") < 0)
		return -1;
	c->first = (uint32_t)m->ninst;
	while (p->t.kind != HLO_T_RBRACE) {
		if (p->t.kind == HLO_T_EOF)
			return hlo_fail(m, p->e, open, "this computation is never closed");
		if (parse_instruction(p, &root) < 0)
			return -1;
		c = &m->comp[p->comp];
	}
	c->n = (uint32_t)m->ninst - c->first;
	if (c->n == 0)
		return hlo_fail(m, p->e, p->t.off, "computation %s has no instructions",
		                hlo_name(m, c->name));
	c->root = root != HLO_NONE ? root : (uint32_t)m->ninst - 1;
	return hlo_p_next(p);
}

/* computation ::= ['ENTRY'] name [signature] '{' instruction+ '}' attributes */
static int parse_computation(hlo_parser *p, bool *has_entry)
{
	hlo_module *m = p->m;
	bool entry = hlo_p_is(p, "ENTRY");
	size_t at = p->t.off;
	uint32_t id;
	if (entry && hlo_p_next(p) < 0)
		return -1;
	if (hlo_p_name(p, &id, "a computation name") < 0)
		return -1;
	uint64_t *slot = et_hmap_put(&m->scope, 0, id, HLO_NONE);
	if (*slot != HLO_NONE)
		return hlo_fail(m, p->e, p->t.off, "computation %s is defined twice",
		                hlo_name(m, id));
	*slot = m->ncomp;
	ET_GROW(m->comp, m->capcomp, (size_t)m->ncomp + 1);
	p->comp = (uint32_t)m->ncomp++;
	hlo_comp *c = &m->comp[p->comp];
	memset(c, 0, sizeof *c);
	c->name = id;
	c->pos = (uint32_t)p->t.off;
	if (hlo_p_next(p) < 0 || parse_signature(p) < 0 || parse_body(p, c) < 0 ||
	    hlo_p_skip_attrs(p, NULL, NULL) < 0)
		return -1;
	if (entry) {
		if (*has_entry)
			return hlo_fail(m, p->e, at, "a second ENTRY computation");
		*has_entry = true;
		m->entry = p->comp;
	}
	return 0;
}

/* The FileNames / FunctionNames / FileLocations / StackFrames tables newer
 * XLA prints before the computations: numbered strings and braces. */
static bool at_table(const hlo_parser *p)
{
	return hlo_p_is(p, "FileNames") || hlo_p_is(p, "FunctionNames") ||
	       hlo_p_is(p, "FileLocations") || hlo_p_is(p, "StackFrames");
}

static int skip_table(hlo_parser *p)
{
	int64_t v;
	if (hlo_p_next(p) < 0)
		return -1;
	for (;;) {
		int r;
		if (p->t.kind == HLO_T_LBRACE)
			r = hlo_p_skip_group(p);
		else if (p->t.kind == HLO_T_STR || hlo_tok_int(&p->lx, &p->t, &v))
			r = hlo_p_next(p);
		else
			return 0;
		if (r < 0)
			return -1;
	}
}

static int parse_header(hlo_parser *p)
{
	hlo_module *m = p->m;
	if (!hlo_p_is(p, "HloModule"))
		return 0;
	if (hlo_p_next(p) < 0)
		return -1;
	if (p->t.kind != HLO_T_WORD && p->t.kind != HLO_T_STR)
		return hlo_p_expected(p, "the module name");
	m->modname = (hlo_range){(uint32_t)p->t.off, (uint32_t)p->t.len};
	if (hlo_p_next(p) < 0)
		return -1;
	return hlo_p_skip_attrs(p, &m->replicas, &m->partitions);
}

/* Computation references (name ids) become computation indices. */
static int resolve(hlo_parser *p)
{
	hlo_module *m = p->m;
	for (size_t k = 0; k < m->nrefs; k++) {
		uint64_t *c = et_hmap_get(&m->scope, 0, m->refs[k].id);
		if (!c)
			return hlo_fail(m, p->e, m->refs[k].pos, "no computation named %s",
			                hlo_name(m, m->refs[k].id));
		m->refs[k].id = (uint32_t)*c;
	}
	return 0;
}

int hlo_parse(hlo_module *m, et_error *e)
{
	hlo_parser p = {.m = m, .e = e};
	bool has_entry = false;
	hlo_lex_init(&p.lx, m->text, m->len);
	/* shape 0: none (an instruction whose shape is not written) */
	ET_GROW(m->shape, m->capshape, 1);
	memset(m->shape, 0, sizeof *m->shape);
	m->shape[0].kind = HLO_SH_TUPLE;
	m->nshape = 1;
	if (hlo_p_next(&p) < 0 || parse_header(&p) < 0)
		return -1;
	while (p.t.kind != HLO_T_EOF) {
		int r = at_table(&p) ? skip_table(&p) : parse_computation(&p, &has_entry);
		if (r < 0)
			return -1;
	}
	if (m->ncomp == 0)
		return hlo_fail(m, e, m->len, "expected a computation, found end of input");
	if (!has_entry)
		m->entry = (uint32_t)m->ncomp - 1;
	return resolve(&p);
}
