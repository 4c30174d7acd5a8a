/* The PyTorch front of et-convert: which inputs are host and Kineto traces,
 * how they pair, and each rank's conversion into the writer. */
#ifndef ET_CONVERT_PYTORCH_PT_RUN_H
#define ET_CONVERT_PYTORCH_PT_RUN_H

#include "et-convert/pytorch/pt.h"

enum pt_kind { PT_KIND_OTHER, PT_KIND_HOST, PT_KIND_KINETO };

/* What a file holds, from its first bytes (after decompression). */
int pt_sniff(const char *path, et_error *e);

/* Convert host traces (with Kineto traces paired by the number in their
 * names, else by order) into the writer. Directories are searched for both. */
int pt_run(int argc, char *const argv[], const char *const *kineto, int nkineto, int64_t set_rank,
           const pt_opts *o, et_writer *out, et_error *e);

#endif
