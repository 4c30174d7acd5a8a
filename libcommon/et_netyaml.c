/* et_netyaml: ASTRA-sim's network YAML, read with libyaml (see et_netyaml.h;
 * moved here from et-sim's cfg_yaml.c when et-validate took --network). */
#include "et_netyaml.h"
#include "et_buf.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

/* Network files are a few lines; InfraGraph ones some kilobytes. */
#define NET_FILE_MAX ((size_t)16 << 20)

static const char *const net_keys[] = {"topology", "npus_count", "bandwidth", "latency"};

/* InfraGraph's top-level keys (schema 2.x, and the pre-2.0 examples'
 * "infrastructure", "device" and "connections"). */
static const char *const infragraph_keys[] = {
    "infrastructure", "devices", "device", "instances", "edges", "links", "connections"};

typedef struct ystate {
	yaml_parser_t p;
	const char *path;
	et_error *e;
	et_netyaml_fn fn;
	void *ctx;
} ystate;

static int yfail(ystate *y, const yaml_mark_t *m, const char *what)
{
	return et_fail(y->e, ET_EXIT_DATA, "%s: line %zu, column %zu: %s", y->path, m->line + 1,
	               m->column + 1, what);
}

static int next(ystate *y, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&y->p, ev))
		return yfail(y, &y->p.problem_mark,
		             y->p.problem ? y->p.problem : "YAML syntax error");
	return 0;
}

static int key_index(const char *s, const char *const *keys, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, keys[i]) == 0)
			return i;
	return -1;
}

/* Pass 1: 1 when the top-level mapping has an InfraGraph key and no
 * network key, 0 when not, -1 on a syntax error. Nested values are
 * skipped by their depth. */
static int is_infragraph(ystate *y)
{
	int depth = 0, ig = 0, net = 0;
	bool root_map = false, want_key = true;
	for (;;) {
		yaml_event_t ev;
		if (next(y, &ev) < 0)
			return -1;
		yaml_event_type_t t = ev.type;
		yaml_mark_t at = ev.start_mark;
		if (t == YAML_SCALAR_EVENT && depth == 1 && root_map && want_key) {
			const char *k = (const char *)ev.data.scalar.value;
			ig += key_index(k, infragraph_keys, 7) >= 0;
			net += key_index(k, net_keys, 4) >= 0;
		}
		yaml_event_delete(&ev);
		if (t == YAML_MAPPING_START_EVENT || t == YAML_SEQUENCE_START_EVENT) {
			root_map |= depth == 0 && t == YAML_MAPPING_START_EVENT;
			/* refused here, where the file is read first: libyaml's
			 * time grows with the square of the nesting */
			if (++depth > ET_NETYAML_MAX_DEPTH) {
				char msg[64];
				snprintf(msg, sizeof msg, "nested deeper than %d levels",
				         ET_NETYAML_MAX_DEPTH);
				return yfail(y, &at, msg);
			}
		} else if (t == YAML_MAPPING_END_EVENT || t == YAML_SEQUENCE_END_EVENT) {
			depth--;
		}
		/* a node at depth 1 is complete: a key, then a value, alternate */
		if (depth == 1 && (t == YAML_SCALAR_EVENT || t == YAML_ALIAS_EVENT ||
		                   t == YAML_MAPPING_END_EVENT || t == YAML_SEQUENCE_END_EVENT))
			want_key = !want_key;
		if (t == YAML_DOCUMENT_END_EVENT || t == YAML_STREAM_END_EVENT)
			return ig && !net;
	}
}

static const char *event_kind(yaml_event_type_t t)
{
	return t == YAML_MAPPING_START_EVENT    ? "a mapping"
	       : t == YAML_ALIAS_EVENT          ? "an alias"
	       : t == YAML_SEQUENCE_START_EVENT ? "a nested list"
	                                        : "something else";
}

/* The value of key k, as "a,b,c". */
static int read_value(ystate *y, const char *k, char *buf, size_t n, yaml_mark_t *at)
{
	yaml_event_t ev;
	char msg[128];
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
		snprintf(msg, sizeof msg, "\"%s\": expected a list of values, got %s", k,
		         event_kind(ev.type));
		yaml_event_delete(&ev);
		return yfail(y, at, msg);
	}
	yaml_event_delete(&ev);
	for (bool first = true;; first = false) {
		if (next(y, &ev) < 0)
			return -1;
		if (ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		if (ev.type != YAML_SCALAR_EVENT) {
			yaml_mark_t m = ev.start_mark;
			snprintf(msg, sizeof msg, "\"%s\": expected a value in the list, got %s", k,
			         event_kind(ev.type));
			yaml_event_delete(&ev);
			return yfail(y, &m, msg);
		}
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, "%s%s", first ? "" : ",",
		         (const char *)ev.data.scalar.value);
		yaml_event_delete(&ev);
	}
	yaml_event_delete(&ev);
	return 0;
}

/* A key of the top-level mapping: its index in net_keys, or -1 with the
 * error set (not a network key, or given twice). */
static int read_key(ystate *y, const yaml_event_t *ev, yaml_mark_t *seen)
{
	char q[96], msg[192];
	const char *k = (const char *)ev->data.scalar.value;
	int i = key_index(k, net_keys, 4);
	et_quote(k, q, sizeof q);
	if (i < 0) {
		char alt[64];
		snprintf(alt, sizeof alt, "%s", k);
		for (char *p = alt; *p; p++)
			*p = *p == '-' ? '_' : *p;
		int j = key_index(alt, net_keys, 4);
		if (j >= 0)
			snprintf(msg, sizeof msg, "%s: unknown key (ASTRA-sim's is \"%s\")", q,
			         net_keys[j]);
		else
			snprintf(msg, sizeof msg, "%s: unknown key", q);
		return yfail(y, &ev->start_mark, msg);
	}
	if (seen[i].line != (size_t)-1) {
		snprintf(msg, sizeof msg, "%s: given twice (first on line %zu)", q,
		         seen[i].line + 1);
		return yfail(y, &ev->start_mark, msg);
	}
	seen[i] = ev->start_mark;
	return i;
}

/* Pass 2: every key of the top-level mapping, strictly. */
static int read_mapping(ystate *y)
{
	yaml_mark_t seen[4];
	for (int i = 0; i < 4; i++)
		seen[i].line = (size_t)-1;
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
		int k = read_key(y, &ev, seen);
		yaml_event_delete(&ev);
		char val[1024];
		yaml_mark_t at;
		et_error in;
		if (k < 0 || read_value(y, net_keys[k], val, sizeof val, &at) < 0)
			return -1;
		if (y->fn(y->ctx, net_keys[k], val, &in) < 0)
			return yfail(y, &at, in.msg);
	}
}

static int read_doc(ystate *y)
{
	yaml_event_t ev;
	for (;;) {
		if (next(y, &ev) < 0)
			return -1;
		yaml_event_type_t t = ev.type;
		yaml_mark_t m = ev.start_mark;
		yaml_event_delete(&ev);
		if (t == YAML_MAPPING_START_EVENT)
			return read_mapping(y);
		if (t == YAML_STREAM_END_EVENT)
			return yfail(y, &m, "empty network file");
		if (t != YAML_STREAM_START_EVENT && t != YAML_DOCUMENT_START_EVENT)
			return yfail(y, &m, "expected a mapping of network keys");
	}
}

/* One pass over the text: is_infragraph's answer or read_doc's. */
static int pass(ystate *y, const et_buf *b, bool values)
{
	yaml_parser_initialize(&y->p);
	yaml_parser_set_input_string(&y->p, b->data ? b->data : (const unsigned char *)"", b->len);
	int r = values ? read_doc(y) : is_infragraph(y);
	yaml_parser_delete(&y->p);
	return r;
}

int et_netyaml_read(const char *path, et_netyaml_fn fn, void *ctx, et_error *e)
{
	et_buf b = {0};
	if (et_buf_read_file(&b, path, NET_FILE_MAX, e) < 0) {
		et_buf_free(&b);
		return -1;
	}
	ystate y = {.path = path, .e = e, .fn = fn, .ctx = ctx};
	int r = pass(&y, &b, false);
	if (r == 0)
		r = pass(&y, &b, true);
	et_buf_free(&b);
	return r;
}
