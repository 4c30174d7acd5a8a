/* --tee (mode 1: buffered in a temporary file, written only on success)
 * and --tee-always (mode 2: streamed as read). */
#ifndef ET_VALIDATE_TEE_H
#define ET_VALIDATE_TEE_H

#include "et_err.h"
#include "et_input.h"
#include <stdbool.h>

typedef struct tee tee;

int tee_open(tee **t, int mode, et_error *e);
int tee_begin_rank(tee *t, const et_rank_info *ri, et_error *e);
int tee_msg(tee *t, const et_msg *m, et_error *e);
int tee_end_rank(tee *t, et_error *e);
/* ok: the input validated (mode 1 copies the buffer to stdout). Frees t. */
int tee_close(tee *t, bool ok, et_error *e);
/* Frees t after a run that failed (what reached stdout stays there). */
void tee_free(tee *t);

#endif
