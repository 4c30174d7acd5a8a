/* hlo_parse: the parser's state and the helpers its parts share
 * (hlo_parse.c: module, computations, instructions; hlo_pshape.c: shapes;
 * hlo_pattr.c: attributes; hlo_pgroups.c: replica groups and pairs).
 *
 * The parser reads one token ahead (p->t); functions return 0, or -1 with
 * p->e filled in ("NAME: line L, column C: expected ..."). Nothing recurses
 * more than HLO_MAX_DEPTH deep: nested shapes, braces and lists are
 * refused beyond it, skipped values use an explicit counter. */
#ifndef ET_CONVERT_HLO_HLO_PARSE_H
#define ET_CONVERT_HLO_HLO_PARSE_H

#include "et-convert/hlo/hlo_lex.h"
#include "et-convert/hlo/hlo_mod.h"

typedef struct hlo_parser {
	hlo_module *m;
	et_error *e;
	hlo_lex lx;
	hlo_tok t;     /* the current token */
	uint32_t comp; /* the computation being parsed */
} hlo_parser;

/* Moves to the next token; fails on a lexing error. */
int hlo_p_next(hlo_parser *p);
/* The token after the current one, without moving. */
hlo_tok hlo_p_peek(const hlo_parser *p);
/* Fails with "expected WHAT, found TOKEN" at the current token. */
int hlo_p_expected(hlo_parser *p, const char *what);
/* The name at the current token (a word, its % dropped) interned as *id;
 * hlo_p_expected(what) when the token is not one. */
int hlo_p_name(hlo_parser *p, uint32_t *id, const char *what);
/* Consumes a token of kind k or fails saying what was expected. */
int hlo_p_eat(hlo_parser *p, uint8_t k, const char *what);
/* Between list elements: a ',' (consumed) or `close` (left at cur), else
 * an error saying `what` was expected. */
int hlo_p_sep(hlo_parser *p, uint8_t close, const char *what);
/* Whether the current token is the word w. */
bool hlo_p_is(const hlo_parser *p, const char *w);
/* Consumes an integer word into *v, or fails. */
int hlo_p_int(hlo_parser *p, int64_t *v, const char *what);
/* Skips one bracketed group (the current token opens it), strings and all,
 * checking that brackets match. */
int hlo_p_skip_group(hlo_parser *p);
/* Skips an attribute value: tokens up to a comma or an unmatched closing
 * bracket at depth 0, or a token starting a new line at depth 0. */
int hlo_p_skip_value(hlo_parser *p);

/* hlo_pshape.c: parses a shape (array, tuple, token) into m->shape and
 * returns its index in *id. */
int hlo_p_shape(hlo_parser *p, uint32_t *id);
/* Whether the current token starts a shape: "(" or an element type followed
 * by "[". */
bool hlo_p_at_shape(const hlo_parser *p);

/* hlo_pattr.c: parses the attribute list after an instruction's operands
 * (", key=value" ...) into instruction i. */
int hlo_p_attrs(hlo_parser *p, uint32_t i);
/* Skips ", key=value" attributes (module header, computations). */
int hlo_p_skip_attrs(hlo_parser *p, int64_t *replicas, int64_t *partitions);

/* hlo_pgroups.c: replica_groups=VALUE into *g; source_target_pairs (and a
 * frontend attribute's text) into a list of 2n ids. */
int hlo_p_groups(hlo_parser *p, hlo_groups *g);
int hlo_p_pairs(hlo_parser *p, hlo_list *pairs);
/* A braced list of integers ({1,2} or {}) into m->ints. */
int hlo_p_int_list(hlo_parser *p, hlo_list *l);
/* '[' lead ']' '<=' '[' dims ']' ['T' '(' perm ')'] into g->dims and g->perm
 * (the identity without T) and *lead. */
int hlo_p_iota_tail(hlo_parser *p, hlo_groups *g, hlo_list *lead);
/* Checks g's iota form (dims from 1, perm a permutation of as many, their
 * product ngroups * size, at most HLO_MAX_IDS); fails at text offset at. */
int hlo_p_check_iota(hlo_parser *p, const hlo_groups *g, size_t at);
/* hlo_pmesh.c: mesh[...] {...} into the iota form of g. */
int hlo_p_mesh(hlo_parser *p, hlo_groups *g);

#endif
