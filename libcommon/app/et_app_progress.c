/* et_progress lines on stderr: shown when stderr is a terminal (mode 0)
 * or forced (mode 1), never with mode -1 (et_progress.h has the line). */
#include "app/et_app_int.h"

#include <stdio.h>
#include <unistd.h>

static bool shown(int mode)
{
	return mode > 0 || (mode == 0 && isatty(2));
}

static void draw(const et_progress *p, uint64_t items, double s)
{
	unsigned long long m = (unsigned long long)items;
	if (!p->k) {
		fprintf(stderr, "\r%llu %s, %.1f s\033[K", m, p->unit, s);
	} else if (!p->total || p->k > p->total) {
		fprintf(stderr, "\rrank %u: %llu %s, %.1f s\033[K", p->rank, m, p->unit, s);
	} else {
		uint64_t done = p->k - 1;
		fprintf(stderr, "\rrank %llu of %llu (%.0f%%), %llu %s, %.1f s",
		        (unsigned long long)p->k, (unsigned long long)p->total,
		        100.0 * (double)done / (double)p->total, m, p->unit, s);
		if (done)
			fprintf(stderr, ", about %.0f s left",
			        s * (double)(p->total - done) / (double)done);
		fputs("\033[K", stderr);
	}
	fflush(stderr);
}

static void erase(void)
{
	fputs("\r\033[K", stderr);
}

const et_progress_sink et_app_progress_sink = {shown, draw, erase};
