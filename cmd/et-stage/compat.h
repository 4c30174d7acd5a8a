/* --compat stage: STAGE's per-stage graphs (doc/stage.md). */
#ifndef ET_STAGE_COMPAT_H
#define ET_STAGE_COMPAT_H

#include "et-stage/sg.h"

/* Builds stage g->stage's graph into g (every rank of the stage runs it,
 * up to pg_name and peers). */
void compat_build(sg *g);

#endif
