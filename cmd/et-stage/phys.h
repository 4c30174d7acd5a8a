/* Physical mode: training graphs counted as a performance engineer counts
 * them — num_ops in FLOPs (2 per multiply-accumulate), sizes in bytes of
 * --dtype, attention's S² products, one gradient sync per step in buckets,
 * the embedding as a gather, vocabulary-parallel output embedding, routed
 * MoE tokens, pipeline schedules as control dependencies, recomputation
 * (et-stage(1), "PHYSICAL MODE", lists every difference from STAGE). */
#ifndef ET_STAGE_PHYS_H
#define ET_STAGE_PHYS_H

#include "et-stage/sg.h"

/* Builds stage g->stage's graph (training, prefill or decode). */
void phys_build(sg *g);

/* The layers of chunk j of n (contiguous, the first L mod n one more). */
int phys_chunk_layers(uint64_t L, int n, int j, int *first);

#endif
