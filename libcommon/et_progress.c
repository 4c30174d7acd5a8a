#include "et_progress.h"

#include <time.h>

/* Looking at the clock every node would cost more than the work. */
#define CHECK_EVERY 4096

static const et_progress_sink *sink; /* NULL: nothing is shown */

void et_progress_set_sink(const et_progress_sink *s)
{
	sink = s;
}

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

void et_progress_init(et_progress *p, int mode, const char *unit)
{
	*p = (et_progress){.on = sink && sink->shown(mode), .unit = unit};
	p->every_ns = 200000000u;
	p->start_ns = p->last_ns = et_now_ns();
}

void et_progress_rank(et_progress *p, uint32_t rank, uint64_t total)
{
	p->k++;
	p->rank = rank;
	p->total = total;
	p->check_at = 0; /* a new rank is worth a look at the clock */
}

void et_progress_update(et_progress *p, uint64_t items)
{
	if (!p->on || items < p->check_at)
		return;
	p->check_at = items + CHECK_EVERY;
	uint64_t now = et_now_ns();
	if (now - p->last_ns < p->every_ns)
		return;
	p->last_ns = now;
	p->drawn = true;
	sink->draw(p, items, (double)(now - p->start_ns) / 1e9);
}

void et_progress_done(et_progress *p)
{
	if (p->on && p->drawn)
		sink->erase();
}
