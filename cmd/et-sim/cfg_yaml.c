/* cfg_yaml: ASTRA-sim's analytical network YAML, read with libyaml:
 * a mapping whose values are flow or block sequences (or single scalars). */
#include "cfg.h"
#include "et_path.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

typedef struct ystate {
	yaml_parser_t p;
	const char *path;
	et_error *e;
} ystate;

static int yfail(ystate *y, const yaml_mark_t *m, const char *what)
{
	return et_fail(y->e, ET_EXIT_USAGE, "%s: line %zu, column %zu: %s", y->path, m->line + 1,
	               m->column + 1, what);
}

static int next(ystate *y, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&y->p, ev))
		return yfail(y, &y->p.problem_mark,
		             y->p.problem ? y->p.problem : "YAML syntax error");
	return 0;
}

/* The value of one key, as "a,b,c". */
static int read_value(ystate *y, char *buf, size_t n, yaml_mark_t *at)
{
	yaml_event_t ev;
	if (next(y, &ev) < 0)
		return -1;
	*at = ev.start_mark;
	buf[0] = 0;
	if (ev.type == YAML_SCALAR_EVENT) {
		snprintf(buf, n, "%s", (const char *)ev.data.scalar.value);
		yaml_event_delete(&ev);
		return 0;
	}
	if (ev.type != YAML_SEQUENCE_START_EVENT) {
		yaml_event_delete(&ev);
		return yfail(y, at, "expected a list of values");
	}
	yaml_event_delete(&ev);
	for (;;) {
		if (next(y, &ev) < 0)
			return -1;
		if (ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		if (ev.type != YAML_SCALAR_EVENT) {
			yaml_mark_t m = ev.start_mark;
			yaml_event_delete(&ev);
			return yfail(y, &m, "expected a scalar in the list");
		}
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, "%s%s", l ? "," : "", (const char *)ev.data.scalar.value);
		yaml_event_delete(&ev);
	}
	yaml_event_delete(&ev);
	return 0;
}

/* The top-level keys of InfraGraph instances (the 2.x schema and the
 * pre-2.0 documentation examples), none of which ASTRA-sim's analytical
 * network files have. */
static bool infragraph_key(const char *k)
{
	static const char *const keys[] = {"devices", "instances",   "edges",         "links",
	                                   "device",  "connections", "infrastructure"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (strcmp(k, keys[i]) == 0)
			return true;
	return false;
}

static int read_mapping(ystate *y, cfg *c)
{
	for (;;) {
		yaml_event_t ev;
		if (next(y, &ev) < 0)
			return -1;
		if (ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		if (ev.type != YAML_SCALAR_EVENT) {
			yaml_mark_t m = ev.start_mark;
			yaml_event_delete(&ev);
			return yfail(y, &m, "expected a key");
		}
		char key[64], val[1024];
		et_error in;
		snprintf(key, sizeof key, "%s", (const char *)ev.data.scalar.value);
		yaml_event_delete(&ev);
		if (infragraph_key(key)) /* until the congestion-aware network reads them */
			return et_fail(y->e, ET_EXIT_DATA,
			               "%s: InfraGraph topology: not supported yet", y->path);
		yaml_mark_t at;
		if (read_value(y, val, sizeof val, &at) < 0)
			return -1;
		if (strcmp(key, "topology") && strcmp(key, "npus_count") &&
		    strcmp(key, "bandwidth") && strcmp(key, "latency"))
			continue; /* other keys (e.g. congestion-aware ones) do not apply */
		if (cfg_set_kv(c, key, val, &in) < 0)
			return yfail(y, &at, in.msg);
	}
}

static int read_doc(ystate *y, cfg *c)
{
	yaml_event_t ev;
	for (;;) {
		if (next(y, &ev) < 0)
			return -1;
		yaml_event_type_t t = ev.type;
		yaml_mark_t m = ev.start_mark;
		yaml_event_delete(&ev);
		if (t == YAML_MAPPING_START_EVENT)
			return read_mapping(y, c);
		if (t == YAML_STREAM_END_EVENT)
			return yfail(y, &m, "empty network file");
		if (t != YAML_STREAM_START_EVENT && t != YAML_DOCUMENT_START_EVENT)
			return yfail(y, &m, "expected a mapping of network keys");
	}
}

int cfg_load_network(cfg *c, const char *path, et_error *e)
{
	FILE *f = et_path_open_read(path, e);
	if (!f)
		return -1; /* I/O: exit 4, not a configuration error */
	ystate y = {.path = path, .e = e};
	yaml_parser_initialize(&y.p);
	yaml_parser_set_input_file(&y.p, f);
	c->ndims = 0;
	memset(c->netlen, 0, sizeof c->netlen);
	int r = read_doc(&y, c);
	yaml_parser_delete(&y.p);
	fclose(f);
	if (r == 0 && c->ndims == 0)
		r = et_fail(e, ET_EXIT_USAGE, "%s: no topology/npus_count given", path);
	if (r == 0)
		snprintf(c->net_file, sizeof c->net_file, "%s", path);
	return r;
}
