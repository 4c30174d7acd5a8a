/* et_mem: the suite's one allocation policy. Every allocation goes through
 * these; none returns NULL. When memory runs out they call the out-of-memory
 * handler, which does not return. The library never prints or exits on its
 * own: the tools' handler (installed by et_app_init, app/et_app.h) prints one
 * line, "PROG: out of memory (asked for N bytes)", removes the temporary
 * files of outputs not yet committed (et_output) and exits with ET_EXIT_IO,
 * so for a tool out of memory is never an abort and never a crash. With no
 * handler installed (a program that links only the library) the process
 * stops at a trap instruction (__builtin_trap: SIGILL, no message), the one
 * way to stop that is neither a print, an exit nor an abort; such a program
 * installs its own handler with et_set_oom_handler. Sizes that come from
 * input data must be bounded by the caller before they get here. */
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
/* Hands the memory freed so far back to the system where the C library
 * can (glibc's malloc_trim; elsewhere nothing): a tool calls it between
 * phases, so that what one phase freed does not count towards the next
 * phase's peak. Never fails, frees nothing the caller holds. */
void et_mem_trim(void);
/* The policy itself, for callers whose own limits say "no more memory". */
_Noreturn void et_oom(size_t asked);
/* Install the out-of-memory handler (NULL: back to the trap); it is given
 * the byte count asked for and must not return. */
typedef void (*et_oom_fn)(size_t asked);
void et_set_oom_handler(et_oom_fn fn);

#endif
