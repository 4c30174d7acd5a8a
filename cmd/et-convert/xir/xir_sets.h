/* xir_sets: what each rank is in each group and pair set of a program:
 * its group's id (every distinct group an id from 1 in order of first use
 * by a collective; a group of every rank is 0), its send target and its
 * receive source. The emitter's per-rank lookups; also the comm-group
 * file. */
#ifndef ET_CONVERT_XIR_XIR_SETS_H
#define ET_CONVERT_XIR_XIR_SETS_H

#include "et-convert/xir/xir.h"
#include "et_err.h"

#include <stdbool.h>

typedef struct xir_sets {
	uint32_t nranks;
	int32_t **gid;    /* [set][rank]: group id, -1 not in the set (NULL: not a group set) */
	bool *gid_varies; /* [set]: not every rank in the all-ranks group 0 */
	int32_t **dst;    /* [set][rank]: send target, -1 none (NULL: not a pair set) */
	int32_t **src;    /* [set][rank]: receive source, -1 none */
	uint32_t ngroups; /* ids 1..ngroups */
	uint32_t *goff, *gsize; /* group id g: members gmem[goff[g-1] ..] */
	uint32_t *gmem;
} xir_sets;

/* The tables of every set x's ops use, for nranks ranks. 0, or -1 with e
 * set (ET_EXIT_DATA, "INPUT: op NAME: ...") when a set names a device
 * beyond nranks or a rank twice. */
int xir_sets_build(xir_sets *t, const xir *x, uint32_t nranks, const char *input, et_error *e);
void xir_sets_free(xir_sets *t, uint32_t nset);
/* {"1": [ranks], ...} to path, atomically. */
int xir_sets_write_groups(const xir_sets *t, const char *path, et_error *e);

#endif
