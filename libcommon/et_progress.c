#include "et_progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

uint64_t et_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t et_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void et_progress_init(et_progress *p, int mode)
{
	p->on = mode > 0 || (mode == 0 && isatty(2));
	p->start_ns = p->last_ns = et_now_ns();
}

void et_progress_update(et_progress *p, uint32_t rank, uint64_t items)
{
	/* Checking the clock every node would cost more than the work. */
	if (!p->on || (items & 4095))
		return;
	uint64_t now = et_now_ns();
	if (now - p->last_ns < 200000000u)
		return;
	p->last_ns = now;
	double s = (double)(now - p->start_ns) / 1e9;
	fprintf(stderr, "\rrank %u: %llu nodes, %.1f s", rank, (unsigned long long)items, s);
	fflush(stderr);
}

void et_progress_done(et_progress *p)
{
	if (p->on && p->last_ns != p->start_ns)
		fputs("\r\033[K", stderr);
}
