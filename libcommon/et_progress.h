/* et_progress: a one-line progress report, redrawn at most every 200 ms,
 * shown when the sink says so for the mode (the tools' sink, from
 * et_app_init: when stderr is a terminal with mode 0, forced with mode 1,
 * never with mode -1). The library only counts and times; the sink draws
 * (the tools': on stderr). With no sink nothing is shown. The line is
 *   "rank k of N (P%), M nodes, T s, about L s left"  when N is known,
 *   "rank R: M nodes, T s"                            when it is not,
 *   "M events, T s"                                   with no rank at all,
 * where the percent and time left count whole ranks done (the time left
 * appears once one rank is). */
#ifndef ET_PROGRESS_H
#define ET_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct et_progress {
	int on;
	const char *unit;  /* "nodes", "events" */
	uint64_t last_ns;  /* last redraw */
	uint64_t every_ns; /* between redraws: 200 ms (tests set 0) */
	uint64_t start_ns; /* et_progress_init */
	uint64_t check_at; /* items count at which to look at the clock again */
	uint64_t k, total; /* ranks begun; how many there are (0 = unknown) */
	uint32_t rank;     /* of the rank being worked on */
	bool drawn;        /* a line is on the terminal */
} et_progress;

/* Where a progress line goes: shown(mode) says whether to show one;
 * draw(p, items, seconds) redraws it; erase() removes a line drawn. */
typedef struct et_progress_sink {
	bool (*shown)(int mode);
	void (*draw)(const et_progress *p, uint64_t items, double seconds);
	void (*erase)(void);
} et_progress_sink;
void et_progress_set_sink(const et_progress_sink *sink);

void et_progress_init(et_progress *p, int mode, const char *unit);
/* A new rank begins: its number, and how many ranks the job has (0 =
 * unknown, e.g. when a selection or a stream of unknown length hides it). */
void et_progress_rank(et_progress *p, uint32_t rank, uint64_t total);
/* items so far (all ranks): cheap when called per node, and right when
 * the count jumps by millions at once (a generator's copied rank). */
void et_progress_update(et_progress *p, uint64_t items);
/* Erases the line. */
void et_progress_done(et_progress *p);
/* Monotonic wall time in ns. */
uint64_t et_now_ns(void);
/* The calling thread's CPU time in ns: timings that should not depend on
 * what else the machine runs (et-validate --timing). */
uint64_t et_cpu_ns(void);

#endif
