/* hlo_val: what an instruction's value depends on while the builder runs
 * a computation: a leaf (the xir ops the value comes from: one op for an
 * instruction that became an op, several or none for elided ones) or a
 * tuple of values, so that get-tuple-element of a loop state or of a
 * tuple() depends only on the element it takes.
 *
 * Values live in a stack-like pool: the builder marks it when a
 * computation starts and, when it ends, keeps only the root's value
 * (hlo_val_keep copies it down to the mark). Two bounds keep hostile input
 * from growing them without end: a leaf holds at most HLO_VAL_DEPS ops (the
 * latest, by index: a merge of more keeps the highest) and tuples nest at
 * most HLO_VAL_DEPTH deep (a deeper element is flattened into a leaf).
 * Handle 0 is the empty leaf. Allocation failure ends the process. */
#ifndef ET_CONVERT_HLO_HLO_VAL_H
#define ET_CONVERT_HLO_HLO_VAL_H

#include <stddef.h>
#include <stdint.h>

#define HLO_VAL_DEPS 64
#define HLO_VAL_DEPTH 32

typedef struct hlo_val {
	uint32_t off, n;    /* leaf: ops at items[off]; tuple: element handles */
	uint32_t seen, fwd; /* a walk's visit mark and result (values share elements) */
	uint8_t tuple, depth;
} hlo_val;

typedef struct hlo_vals {
	hlo_val *v;
	size_t n, cap;
	uint32_t *items;
	size_t nitems, capitems;
	uint32_t *tmp; /* hlo_val_keep's copy */
	size_t ntmp, captmp;
	uint32_t gen;  /* the current walk */
	uint64_t work; /* values made and visited: the builder bounds it */
} hlo_vals;

/* A set of at most HLO_VAL_DEPS op indices, sorted, the highest kept. */
typedef struct hlo_dset {
	uint32_t v[HLO_VAL_DEPS];
	uint32_t n;
} hlo_dset;

typedef struct hlo_vmark {
	size_t n, nitems;
} hlo_vmark;

void hlo_vals_init(hlo_vals *vs);
void hlo_vals_free(hlo_vals *vs);
static inline hlo_vmark hlo_vals_mark(const hlo_vals *vs)
{
	return (hlo_vmark){vs->n, vs->nitems};
}

void hlo_dset_add(hlo_dset *d, uint32_t op);
/* Adds every op value h depends on. */
void hlo_val_deps(hlo_vals *vs, uint32_t h, hlo_dset *d);

uint32_t hlo_val_leaf(hlo_vals *vs, const hlo_dset *d);
/* A tuple of handles kids[0..n). */
uint32_t hlo_val_tuple(hlo_vals *vs, const uint32_t *kids, uint32_t n);
/* Element k of tuple h; h itself when it is a leaf (a tuple that became one
 * op: all its elements come from that op) or k is out of range. */
uint32_t hlo_val_elem(const hlo_vals *vs, uint32_t h, int64_t k);
/* h with the ops of d added to every leaf. */
uint32_t hlo_val_with(hlo_vals *vs, uint32_t h, const hlo_dset *d);
/* Drops every value made after mark except h, which it copies down;
 * returns h's new handle. Handles made before mark stay valid. */
uint32_t hlo_val_keep(hlo_vals *vs, uint32_t h, hlo_vmark mark);

#endif
