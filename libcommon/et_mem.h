/* et_mem: the suite's one allocation policy. Every allocation goes through
 * these; none returns NULL. When memory runs out the process prints one line,
 * "PROG: out of memory (asked for N bytes)", removes the temporary files of
 * outputs not yet committed (et_output) and exits with ET_EXIT_IO: out of
 * memory is never an abort and never a crash. Sizes that come from input
 * data must be bounded by the caller before they get here. */
#ifndef ET_MEM_H
#define ET_MEM_H

#include <stddef.h>

void *et_xmalloc(size_t n);
void *et_xcalloc(size_t n, size_t size); /* n * size checked for overflow */
void *et_xrealloc(void *p, size_t n);
char *et_xstrdup(const char *s);
/* The policy itself, for callers whose own limits say "no more memory". */
_Noreturn void et_oom(size_t asked);

#endif
