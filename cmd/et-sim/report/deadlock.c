/* deadlock: when the event queue runs dry with ranks unfinished, name the
 * blocked ranks and what each waits for (beyond ASTRA-sim, which hangs or
 * ends silently). */
#include "et-sim/report/report.h"
#include "et_types.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static size_t add(char *msg, size_t n, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t add(char *msg, size_t n, size_t len, const char *fmt, ...)
{
	if (len >= n)
		return len;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(msg + len, n - len, fmt, ap);
	va_end(ap);
	return k > 0 ? len + (size_t)k : len;
}

/* Members of c that never issued it (up to a few). */
static size_t missing_members(const sim *s, const coll *c, char *msg, size_t n, size_t len)
{
	int shown = 0;
	for (uint32_t m = 0; m < c->nmem && shown < 6; m++) {
		uint32_t rank = c->mem ? c->mem[m] : m;
		const rank_st *r = report_rank(s, rank);
		if (r->active && r->active->c == c)
			continue;
		len = add(msg, n, len, "%s%u", shown ? "," : "", rank);
		shown++;
	}
	return len;
}

static size_t describe(const sim *s, const rank_st *r, char *msg, size_t n, size_t len)
{
	const sgraph *g = r->g;
	len = add(msg, n, len, "rank %u", r->rank);
	int shown = 0;
	for (uint32_t i = 0; i < g->n && shown < 3; i++) {
		if (r->start[i] == UINT64_MAX || r->end[i] != UINT64_MAX)
			continue;
		len = add(msg, n, len, " at node %llu (%s)", (unsigned long long)g->id[i],
		          sg_name(g, i));
		if (g->type[i] == ET_NODE_COLL && r->active && r->active->node == i) {
			len = add(msg, n, len, " waiting for rank(s) ");
			len = missing_members(s, r->active->c, msg, n, len);
			len = add(msg, n, len, " to join");
		} else if (g->type[i] == ET_NODE_RECV) {
			len = add(msg, n, len, " waiting for a send from rank %d", sg_src(g, i));
		}
		shown++;
	}
	if (!shown) {
		uint32_t left = g->n - r->done;
		len = add(msg, n, len,
		          ": %u node(s) never ready (dependency cycle or on a blocked node)", left);
	}
	return len;
}

int report_deadlock(const sim *s, et_error *e)
{
	uint32_t blocked = 0;
	for (uint32_t k = 0; k < s->nranks; k++)
		blocked += !s->r[k].finished;
	if (!blocked)
		return 0;
	char msg[sizeof e->msg];
	size_t n = sizeof msg;
	size_t len = add(msg, n, 0, "deadlock: %u rank(s) blocked: ", blocked);
	int shown = 0;
	for (uint32_t k = 0; k < s->nranks && shown < 8; k++) {
		if (s->r[k].finished)
			continue;
		if (shown++)
			len = add(msg, n, len, "; ");
		len = describe(s, &s->r[k], msg, n, len);
	}
	if (blocked > 8)
		add(msg, n, len, "; ...");
	return et_fail(e, ET_EXIT_FOUND, "%s", msg);
}
