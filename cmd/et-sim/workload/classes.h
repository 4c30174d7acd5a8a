/* classes: the ranks that behave alike, so that one representative can be
 * simulated for each class (doc/astra-sim.md does not have this: it is
 * etkit's fold, et-sim(1) THE MODEL, "rank classes"). Under the congestion-unaware
 * model a rank's timeline is a function of its own graph and of when its
 * peers' messages reach it, so ranks whose graphs are the same up to the
 * names of their groups and peers, whose groups look the same from where
 * they stand, and whose peers are alike in turn, have the same timeline.
 * That is the coarsest equitable partition of the ranks, found by colour
 * refinement (1-dimensional Weisfeiler-Leman) from a first colouring by
 * graph shape.
 *
 * What this partition promises is only what the simulator folds exactly
 * (engine/sim.h): a collective whose members are all of one class (run by
 * the representative alone), or whose members are all representatives of
 * different classes (run member by member, as unfolded; a group none of
 * whose members is a representative then has the same classes in the same
 * ring order as such a group, as a collective's signature holds the
 * colours after the rank in its group). A group with some representatives
 * and some other ranks, or a collective over every rank when there is more
 * than one class, or a rank talking to two different ranks of one class in
 * the same direction (their messages would share one mailbox), makes
 * classes_find refuse, and the run simulates every rank. */
#ifndef ET_SIM_WORKLOAD_CLASSES_H
#define ET_SIM_WORKLOAD_CLASSES_H
#include "et-sim/config/cfg.h"
#include <stdbool.h>
#include <stdint.h>

/* A communicating node of a rank, in node order. */
enum { CLS_COLL, CLS_SEND, CLS_RECV };
typedef struct cls_item {
	uint8_t kind;
	int32_t v; /* CLS_COLL: comm-group index, -1 for every rank (or a scope of
	            * the network's dimensions); CLS_SEND / CLS_RECV: the peer */
} cls_item;

typedef struct cls_in {
	uint32_t world;
	/* per rank, its first colour: equal only when the graphs are equal up
	 * to group names and peers (and the rank's speed, --slow) */
	const uint32_t *colour;
	const cls_item *const *items; /* per rank: its communicating nodes ... */
	const uint32_t *nitems;       /* ... and how many */
	const comm_group *groups;
	int ngroups;
	/* What a message's delay between two ranks depends on (unaware: the
	 * first dimension where they differ and the hops there). */
	uint64_t (*sig)(const void *ctx, uint32_t a, uint32_t b);
	/* Optional: true when every member of mem[0..n) sees the same view
	 * (a group across one Switch or FullyConnected dimension, or evenly
	 * around a Ring), so that member 0's is everyone's: O(n) instead of
	 * O(n^2). */
	bool (*uniform)(const void *ctx, const uint32_t *mem, uint32_t n);
	const void *ctx;
} cls_in;

typedef struct rank_classes {
	uint32_t n;      /* classes */
	uint32_t *of;    /* rank -> class; classes are numbered by their lowest rank */
	uint32_t *rep;   /* class -> its lowest rank, the one simulated */
	const char *why; /* classes_find refused: why (a static string) */
} rank_classes;

/* 0 with rc filled; -1 when folding by classes would not be exact (rc->why
 * says which rule, nothing else is set). Deterministic; the cost is
 * O(items x rounds) plus O(size^2) per comm group used (O(size) for a
 * uniform one), never a loop over all pairs of ranks. */
int classes_find(rank_classes *rc, const cls_in *in);
void classes_free(rank_classes *rc);

#endif
