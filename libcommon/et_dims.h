/* et_dims: the network dimensions of ASTRA-sim's multi-dimensional
 * topologies (a network YAML's npus_count), and which ranks run a collective
 * together. One place for the rule, so that et-sim (which simulates it) and
 * et-validate (which checks a trace against it) agree.
 *
 * Rank r has coordinate (r / stride[d]) % size[d] in dimension d (stride[0]
 * is 1, stride[d + 1] = stride[d] x size[d]). A collective over all ranks
 * runs on its "active" dimensions: those its involved_dim marks true (a
 * missing involved_dim, or a missing entry, is true) that have more than one
 * rank. The ranks that run one instance together, its scope, are those that
 * share the issuing rank's coordinates in every other dimension. */
#ifndef ET_DIMS_H
#define ET_DIMS_H

#include "et_err.h"
#include <stdbool.h>
#include <stdint.h>

#define ET_DIMS_MAX 8

typedef struct et_dims {
	int n;
	uint32_t size[ET_DIMS_MAX], stride[ET_DIMS_MAX];
	uint32_t total;
	uint8_t multi; /* the dimensions with more than one rank */
} et_dims;

/* n dimensions (1..ET_DIMS_MAX) of size[d] >= 1 ranks. Returns 0, or -1
 * with e set (exit 2) when n or a size is out of range or the ranks do not
 * fit in 32 bits. */
int et_dims_init(et_dims *d, const uint32_t *size, int n, et_error *e);

/* The active dimensions of a collective whose involved_dim bit d is bit d
 * of `involved` (0xff: all). */
static inline uint8_t et_dims_active(const et_dims *d, uint8_t involved)
{
	return d->multi & involved;
}
/* Whether the collective spans every rank. */
static inline bool et_dims_whole(const et_dims *d, uint8_t active)
{
	return active == d->multi;
}
/* The lowest rank of rank's scope (its coordinates in the active dimensions
 * set to 0): ranks with the same base run a collective together. */
uint32_t et_dims_base(const et_dims *d, uint8_t active, uint32_t rank);
/* The number of ranks in a scope (1 when no dimension is active). */
uint32_t et_dims_scope_size(const et_dims *d, uint8_t active);
/* The k-th rank (k < et_dims_scope_size) of the scope of base, ascending. */
uint32_t et_dims_scope_rank(const et_dims *d, uint8_t active, uint32_t base, uint32_t k);
/* The position of rank in its scope (the k of et_dims_scope_rank). */
uint32_t et_dims_scope_index(const et_dims *d, uint8_t active, uint32_t rank);

#endif
