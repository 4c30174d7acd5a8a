/* et-synth chakra-generator: the reference chakra_generator's workloads. */
#ifndef ET_SYNTH_GEN_REFGEN_H
#define ET_SYNTH_GEN_REFGEN_H

#include "et-synth/synth.h"

et_node *refgen_metadata_node(et_arena *a, uint64_t id);

#endif
