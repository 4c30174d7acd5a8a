/* Reading and checking every rank of the input, rank by rank. */
#ifndef ET_VALIDATE_READ_H
#define ET_VALIDATE_READ_H

#include "et-validate/validate.h"
#include "et_writer.h"

/* Opens the inputs (argv, with io) and adds each rank's findings, comm
 * summary and statistics to v, copying the input to t when not NULL.
 * Returns -1 with e set when the input cannot be read in full, or when
 * io->ranks selects none of its ranks. */
int read_all(vctx *v, int argc, char *const argv[], const et_input_opts *io, et_writer *t,
             et_error *e);

#endif
