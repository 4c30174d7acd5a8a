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
/* The suite's one array-growth rule: makes room for at least `need`
 * elements of `elem` bytes in p, whose capacity is *cap (updated). The
 * capacity at least doubles (8 at first) so n appends cost O(n); a byte
 * count that overflows size_t is out of memory (et_oom), never a wrap.
 * Returns the (possibly moved) array; on return *cap >= need. */
void *et_grow(void *p, size_t *cap, size_t need, size_t elem);
/* ET_GROW(arr, cap, need): et_grow for an array variable and its size_t
 * capacity; a capacity of another type is a compile error. */
#define ET_GROW(arr, cap, need)                                                                    \
	((need) > (cap) ? (void)((arr) = et_grow((arr), &(cap), (need), sizeof *(arr))) : (void)0)
/* The policy itself, for callers whose own limits say "no more memory". */
_Noreturn void et_oom(size_t asked);

#endif
