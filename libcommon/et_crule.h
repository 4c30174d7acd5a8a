/* et_crule: a class rank (etkit-stream(5), CLASS FRAMES) built from its
 * class and its rule without expanding it. A consumer that keeps one graph
 * per class (et-sim) decodes the first rank of a class in full and, for
 * the others, needs only what differs: the value of each slot, applied to
 * the nodes that use it. That is exact only for the rules et-stage and
 * et-convert write, where a slot adds a collective's pg_name, a receive's
 * comm_src or a send's comm_dst, which the node did not have; for
 * anything else (a slot on another node type, a value that is not exactly
 * one such attribute, a template node that already has it) the class or
 * the rank is not "simple" and the reader expands it as usual.
 *
 * The payloads read here have passed the stream reader's checks (their
 * framing within their frame); everything inside them is checked again
 * here, so hostile bytes make a class or a rule not simple, never a read
 * out of bounds. Out of memory ends the process (et_mem.h). */
#ifndef ET_CRULE_H
#define ET_CRULE_H

#include "et_arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum et_crule_kind {
	ET_CRULE_NONE, /* a slot no node uses */
	ET_CRULE_PG,   /* a collective's pg_name (a string) */
	ET_CRULE_SRC,  /* a receive's comm_src (an integer) */
	ET_CRULE_DST,  /* a send's comm_dst (an integer) */
} et_crule_kind;

typedef struct et_crule_node {
	uint32_t node; /* index among the rank's nodes (0: the first after the
	                * GlobalMetadata) */
	uint32_t slot;
} et_crule_node;

/* What a class's ranks share: its slot nodes in node order, each slot's
 * kind, and the node count. */
typedef struct et_crule_class {
	bool simple; /* its ranks can be built from their rules */
	uint64_t n_nodes;
	et_crule_node *nodes;
	size_t n, cap;
	uint8_t *kind; /* [n_slots]: et_crule_kind */
	size_t kind_cap;
	uint32_t n_slots; /* the highest slot used + 1 */
} et_crule_class;

/* One slot's value in a rule. */
typedef struct et_crule_val {
	int32_t peer;   /* ET_CRULE_SRC / _DST: clamped to int32, as et_graph keeps it */
	const char *pg; /* ET_CRULE_PG: in the arena given to et_crule_rule_vals */
	int member;     /* the attribute's oneof member (its value_case) */
} et_crule_val;

/* Reads class payload p[0..len) into c (reusing its memory; a zeroed c is
 * empty). Returns c->simple. */
bool et_crule_class_read(et_crule_class *c, const uint8_t *p, size_t len);
void et_crule_class_free(et_crule_class *c);
/* dst becomes a copy of src (reusing dst's memory). */
void et_crule_class_copy(et_crule_class *dst, const et_crule_class *src);

/* The values of rule r[0..len) for class c, into v[0..c->n_slots) (slots
 * the rule does not give are left as they were; strings in a, valid until
 * et_arena_reset). False when the rule is not simple for c: a value that
 * is not exactly one attribute of its slot's kind, or bytes that do not
 * parse. */
bool et_crule_rule_vals(const et_crule_class *c, const uint8_t *r, size_t len, et_arena *a,
                        et_crule_val *v);

#endif
