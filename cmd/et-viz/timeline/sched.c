/* Timeline events from an et-sim schedule: JSON Lines, one object per node,
 *   {"rank":R,"id":ID,"name":"...","type":"COMP_NODE","resource":"cpu|comp|comm|none",
 *    "start_ns":S,"end_ns":E[,"comm_type":"ALL_REDUCE","comm_size":N]}
 * read one line at a time with cJSON. One track per (rank, resource). */
#include "et-viz/timeline/timeline.h"
#include "et_attr.h"
#include "et_types.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct where {
	const char *file;
	unsigned long long line;
} where;

/* A non-negative integer field; required or not. 1 = set, 0 = absent, -1 = bad. */
static int get_uint(const cJSON *o, const char *key, double max, uint64_t *v, bool required,
                    const where *w, et_error *e)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!x && !required)
		return 0;
	if (!x)
		return et_fail(e, ET_EXIT_DATA, "%s: line %llu: missing \"%s\"", w->file, w->line,
		               key);
	double d = x->valuedouble;
	if (!cJSON_IsNumber(x) || d < 0 || d > max || d != floor(d))
		return et_fail(e, ET_EXIT_DATA,
		               "%s: line %llu: \"%s\" must be an integer from 0 to %.0f", w->file,
		               w->line, key, max);
	*v = (uint64_t)d;
	return 1;
}

static const char *get_str(const cJSON *o, const char *key, const char *dflt)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(x) ? x->valuestring : dflt;
}

static int resource_order(const char *res)
{
	static const char *const known[] = {"cpu", "comp", "comm", "none"};
	for (int k = 0; k < 4; k++)
		if (strcmp(res, known[k]) == 0)
			return k;
	return 4;
}

static void comm_fields(const cJSON *o, tl_event *ev)
{
	const cJSON *ct = cJSON_GetObjectItemCaseSensitive(o, "comm_type");
	if (cJSON_IsString(ct))
		ev->comm_type = et_coll_type_parse(ct->valuestring);
	else if (cJSON_IsNumber(ct) && ct->valuedouble >= 0 && ct->valuedouble < 1e9)
		ev->comm_type = (int32_t)ct->valuedouble;
	const cJSON *cs = cJSON_GetObjectItemCaseSensitive(o, "comm_size");
	if (cJSON_IsNumber(cs)) {
		ev->comm_size = (int64_t)cs->valuedouble;
		ev->has_size = true;
	}
}

static int one_event(const conf *c, timeline *t, const cJSON *o, const where *w, et_error *e)
{
	uint64_t rank, id, start, end;
	const double max_ns = 9007199254740992.0; /* 2^53: exact in a JSON number */
	if (get_uint(o, "rank", UINT32_MAX, &rank, true, w, e) < 0 ||
	    get_uint(o, "id", max_ns, &id, true, w, e) < 0 ||
	    get_uint(o, "start_ns", max_ns, &start, true, w, e) < 0 ||
	    get_uint(o, "end_ns", max_ns, &end, true, w, e) < 0)
		return -1;
	if (end < start)
		return et_fail(e, ET_EXIT_DATA, "%s: line %llu: end_ns is before start_ns", w->file,
		               w->line);
	const char *name = get_str(o, "name", "");
	if (!et_ranklist_has(&c->in.ranks, (uint32_t)rank) ||
	    (c->match && regexec(&c->match_re, name, 0, NULL, 0) != 0))
		return 0;
	int ty = et_node_type_parse(get_str(o, "type", ""));
	const char *res = get_str(o, "resource", "none");
	tl_event ev = {start,
	               end - start,
	               id,
	               0,
	               (uint32_t)rank,
	               tl_track_of(t, (uint32_t)rank, res, resource_order(res)),
	               0,
	               -1,
	               (uint8_t)(ty < 0 ? 255 : ty),
	               false};
	comm_fields(o, &ev);
	tl_add(t, &ev, name);
	return 0;
}

static bool blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
}

static int read_lines(const conf *c, timeline *t, FILE *f, where *w, et_error *e)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int r = 0;
	while (r == 0 && (n = getline(&line, &cap, f)) > 0) {
		w->line++;
		if (blank(line))
			continue;
		/* n + 1: cJSON wants the terminating NUL inside the length to reject
		 * trailing garbage */
		cJSON *o = cJSON_ParseWithLengthOpts(line, (size_t)n + 1, NULL, 1);
		if (!cJSON_IsObject(o))
			r = et_fail(e, ET_EXIT_DATA, "%s: line %llu: not a JSON object", w->file,
			            w->line);
		else
			r = one_event(c, t, o, w, e);
		cJSON_Delete(o);
	}
	free(line);
	if (r == 0 && ferror(f))
		r = et_fail(e, ET_EXIT_IO, "%s: read error: %s", w->file, strerror(errno));
	return r;
}

int tl_from_schedule(const conf *c, timeline *t, et_error *e)
{
	bool std = strcmp(c->schedule, "-") == 0;
	where w = {std ? "<stdin>" : c->schedule, 0};
	FILE *f = std ? stdin : fopen(c->schedule, "r");
	if (!f)
		return et_fail(e, ET_EXIT_IO, "%s: %s", c->schedule, strerror(errno));
	int r = read_lines(c, t, f, &w, e);
	if (!std)
		fclose(f);
	t->source = "schedule";
	return r;
}
