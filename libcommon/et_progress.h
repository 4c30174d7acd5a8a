/* et_progress: a one-line progress report on stderr, redrawn at most every
 * 200 ms, shown when stderr is a terminal (mode 0) or forced (mode 1), never
 * with mode -1. */
#ifndef ET_PROGRESS_H
#define ET_PROGRESS_H

#include <stdint.h>

typedef struct et_progress {
	int on;
	uint64_t last_ns;
	uint64_t start_ns;
} et_progress;

void et_progress_init(et_progress *p, int mode);
/* Report rank and count of items so far; cheap when called per node. */
void et_progress_update(et_progress *p, uint32_t rank, uint64_t items);
void et_progress_done(et_progress *p);
/* Monotonic wall time in ns. */
uint64_t et_now_ns(void);
/* The calling thread's CPU time in ns: timings that should not depend on
 * what else the machine runs (et-validate --timing). */
uint64_t et_cpu_ns(void);

#endif
