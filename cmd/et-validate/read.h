/* Reading and checking every rank of the input, rank by rank. */
#ifndef ET_VALIDATE_READ_H
#define ET_VALIDATE_READ_H

#include "et_writer.h"
#include "validate.h"

/* Adds each rank's findings, comm summary and statistics to v. Returns
 * -1 with e set when the input cannot be read in full. */
int read_all(vctx *v, et_input *in, et_writer *t, et_error *e);

#endif
