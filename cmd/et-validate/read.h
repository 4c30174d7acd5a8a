/* Reading and checking one rank (v->ri says which). */
#ifndef ET_VALIDATE_READ_H
#define ET_VALIDATE_READ_H

#include "et_arena.h"
#include "et_progress.h"
#include "tee.h"
#include "validate.h"

int read_rank(vctx *v, et_input *in, tee *t, et_arena *a, et_progress *pr, et_error *e);

#endif
