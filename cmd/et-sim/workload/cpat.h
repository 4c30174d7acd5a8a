/* cpat: which of a rank's communicating nodes share a value. A rank names a
 * few groups and peers, each on many nodes (a Llama stage: about 6 values
 * on 4,700 nodes), and the ranks of one stage use them in the same places.
 * A pattern maps each communicating node (sgraph's cslot numbering) to the
 * index of its value among the rank's distinct values, numbered in order of
 * first use; a rank then keeps its few values and a pointer to a pattern
 * that all the ranks of its stage share.
 *
 * Values are compared by kind (the node type: SEND, RECV, COLL) and a
 * 64-bit key (a peer, or a pg name's hash: the caller checks the names
 * for equality). Patterns are interned in a set: equal patterns are one
 * pointer and one id. Out of memory ends the process (et_mem.h). */
#ifndef ET_SIM_WORKLOAD_CPAT_H
#define ET_SIM_WORKLOAD_CPAT_H
#include "et_hmap.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { CPAT_MAX_VALS = 65536 }; /* distinct values a pattern can index */

typedef struct cpat {
	uint32_t id;   /* 0, 1, ... in order of interning */
	uint32_t n;    /* communicating nodes */
	uint32_t nval; /* distinct values */
	uint16_t *idx; /* [n]: each node's value */
	uint8_t *kind; /* [nval]: each value's node type */
} cpat;

typedef struct cpat_set {
	et_hmap m; /* (content hash, k) -> index in p */
	cpat **p;
	uint32_t n;
	size_t cap;
} cpat_set;

/* The interned pattern equal to idx[0..n) with kinds kind[0..nval): the
 * set's copy (made when new), valid until cpat_set_free. */
const cpat *cpat_intern(cpat_set *s, const uint16_t *idx, uint32_t n, const uint8_t *kind,
                        uint32_t nval);
void cpat_set_free(cpat_set *s);

/* A pattern being built node by node. A zeroed cpat_build is empty. */
typedef struct cpat_build {
	et_hmap keys; /* (kind, key) -> value index */
	uint16_t *idx;
	uint8_t *kind;
	size_t cap_idx, cap_kind;
	uint32_t n, nval;
	bool over; /* more than CPAT_MAX_VALS values: no pattern */
} cpat_build;

/* Node n's value (kind, key): its index, *fresh set when it is new (the
 * caller stores the value at that index). After over, returns 0. */
uint32_t cpat_build_add(cpat_build *b, uint8_t kind, uint64_t key, bool *fresh);
/* Empties b for another pattern, keeping its memory. */
void cpat_build_reset(cpat_build *b);
void cpat_build_free(cpat_build *b);

/* A pg name's key (FNV-1a); equal names, equal keys. */
uint64_t cpat_str_key(const char *s);

#endif
