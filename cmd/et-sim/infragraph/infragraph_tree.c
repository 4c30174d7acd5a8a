/* infragraph_tree: a YAML or JSON text as one small tree (ig_val), so that
 * the schema is read once for both syntaxes. YAML comes from libyaml's
 * event stream (no libyaml document tree: its nodes keep no parent), JSON
 * from cJSON through et_jsonfile (which reports bad JSON by line and
 * column). YAML nodes keep their line; cJSON keeps none, so JSON messages
 * locate by key path alone. */
#include "et-sim/infragraph/infragraph.h"
#include "et_jsonfile.h"
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

/* ---- messages ---- */

/* "devices[0].edges[2].link": the keys and indices from the root to v. */
static void path_of(const ig_val *v, char *buf, size_t cap)
{
	const ig_val *chain[IG_MAX_TREE_DEPTH + 2];
	int n = 0;
	for (; v && v->up && n < IG_MAX_TREE_DEPTH + 2; v = v->up)
		chain[n++] = v;
	size_t l = 0;
	buf[0] = 0;
	for (int i = n - 1; i >= 0 && l < cap; i--) {
		const ig_val *x = chain[i];
		int w = x->up->kind == IG_SEQ
		            ? snprintf(buf + l, cap - l, "[%u]", x->idx)
		            : snprintf(buf + l, cap - l, "%s%s", l ? "." : "", x->key);
		l += w > 0 ? (size_t)w : 0;
	}
}

int ig_fail(const ig_ctx *c, const ig_val *at, const char *fmt, ...)
{
	char what[512], path[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (!at)
		return et_fail(c->e, ET_EXIT_DATA, "%s: %s", c->name, what);
	path_of(at, path, sizeof path);
	const char *sep = path[0] ? ": " : "";
	if (at->line)
		return et_fail(c->e, ET_EXIT_DATA, "%s: line %u: %s%s%s", c->name, at->line, path,
		               sep, what);
	return et_fail(c->e, ET_EXIT_DATA, "%s: %s%s%s", c->name, path, sep, what);
}

/* ---- building ---- */

static ig_val *val_new(const ig_ctx *c)
{
	ig_val *v = et_arena_alloc(c->a, sizeof *v);
	memset(v, 0, sizeof *v);
	return v;
}

/* A new last child of p (whose last child so far is *last). */
static ig_val *child(const ig_ctx *c, ig_val *p, ig_val **last, const char *key)
{
	ig_val *v = val_new(c);
	v->up = p;
	v->key = key;
	v->idx = p->n++;
	if (*last)
		(*last)->next = v;
	else
		p->first = v;
	*last = v;
	return v;
}

const ig_val *ig_get(const ig_val *m, const char *k)
{
	if (!m || m->kind != IG_MAP)
		return NULL;
	for (const ig_val *v = m->first; v; v = v->next)
		if (strcmp(v->key, k) == 0)
			return v;
	return NULL;
}

/* ---- YAML ---- */

typedef struct ybuild {
	const ig_ctx *c;
	const char *data;
	yaml_parser_t p;
} ybuild;

static unsigned long line_at(const char *s, size_t off)
{
	unsigned long line = 1;
	for (size_t i = 0; i < off; i++)
		line += s[i] == '\n';
	return line;
}

static int y_syntax(const ybuild *b)
{
	const yaml_parser_t *p = &b->p;
	/* a reader error (bad UTF-8, a control character) has an offset only */
	unsigned long line = p->error == YAML_READER_ERROR
	                         ? line_at(b->data, p->problem_offset)
	                         : (unsigned long)p->problem_mark.line + 1;
	return et_fail(b->c->e, ET_EXIT_DATA, "%s: line %lu: invalid YAML: %s%s%s", b->c->name,
	               line, p->problem ? p->problem : "syntax error", p->context ? ", " : "",
	               p->context ? p->context : "");
}

static int y_next(ybuild *b, yaml_event_t *ev)
{
	return yaml_parser_parse(&b->p, ev) ? 0 : y_syntax(b);
}

static bool plain_null(const yaml_event_t *ev)
{
	static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	for (size_t i = 0; i < sizeof nulls / sizeof *nulls; i++)
		if (strcmp((const char *)ev->data.scalar.value, nulls[i]) == 0)
			return true;
	return false;
}

static int y_node(ybuild *b, yaml_event_t *ev, ig_val *v, int depth);

static int y_scalar(ybuild *b, yaml_event_t *ev, ig_val *v)
{
	const char *s = (const char *)ev->data.scalar.value;
	size_t n = ev->data.scalar.length;
	int r = 0;
	if (memchr(s, 0, n))
		r = ig_fail(b->c, v, "a NUL character in a string");
	else if (plain_null(ev))
		v->kind = IG_NULL;
	else
		v->kind = IG_SCALAR, v->text = et_arena_strndup(b->c->a, s, n);
	yaml_event_delete(ev);
	return r;
}

/* A mapping key: the scalar event ev (which this deletes) as a string. */
static int y_key(ybuild *b, yaml_event_t *ev, const char **key)
{
	unsigned long line = (unsigned long)ev->start_mark.line + 1;
	bool ok = ev->type == YAML_SCALAR_EVENT &&
	          !memchr(ev->data.scalar.value, 0, ev->data.scalar.length);
	*key = ok ? et_arena_strdup(b->c->a, (const char *)ev->data.scalar.value) : NULL;
	yaml_event_delete(ev);
	if (!ok)
		return et_fail(b->c->e, ET_EXIT_DATA,
		               "%s: line %lu: a mapping key that is not a string", b->c->name,
		               line);
	return 0;
}

/* The items of a sequence or the members of a mapping (v->kind says which)
 * whose start event was read. */
static int y_items(ybuild *b, ig_val *v, int depth)
{
	bool map = v->kind == IG_MAP;
	yaml_event_type_t end = map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
	ig_val *last = NULL;
	for (;;) {
		yaml_event_t ev;
		if (y_next(b, &ev) < 0)
			return -1;
		if (ev.type == end) {
			yaml_event_delete(&ev);
			return 0;
		}
		const char *key = NULL;
		if (map && (y_key(b, &ev, &key) < 0 || y_next(b, &ev) < 0))
			return -1;
		if (y_node(b, &ev, child(b->c, v, &last, key), depth + 1) < 0)
			return -1;
	}
}

/* The node that starts with ev (which this deletes). */
static int y_node(ybuild *b, yaml_event_t *ev, ig_val *v, int depth)
{
	v->line = (uint32_t)ev->start_mark.line + 1;
	yaml_event_type_t t = ev->type;
	if (t == YAML_SCALAR_EVENT)
		return y_scalar(b, ev, v);
	yaml_event_delete(ev);
	if (t == YAML_ALIAS_EVENT)
		return ig_fail(b->c, v, "a YAML alias (*name): not supported, write the value out");
	if (depth >= IG_MAX_TREE_DEPTH)
		return ig_fail(b->c, v, "nested deeper than %d levels", IG_MAX_TREE_DEPTH);
	if (t == YAML_SEQUENCE_START_EVENT)
		return v->kind = IG_SEQ, y_items(b, v, depth);
	if (t == YAML_MAPPING_START_EVENT)
		return v->kind = IG_MAP, y_items(b, v, depth);
	return ig_fail(b->c, v, "unexpected YAML event %d", (int)t);
}

/* The stream: one document, whose root is a mapping. */
static int y_doc(ybuild *b, ig_val *root)
{
	yaml_event_t ev;
	do {
		if (y_next(b, &ev) < 0)
			return -1;
		yaml_event_type_t t = ev.type;
		yaml_event_delete(&ev);
		if (t == YAML_STREAM_END_EVENT)
			return ig_fail(b->c, NULL, "empty: no InfraGraph infrastructure in it");
		if (t != YAML_DOCUMENT_START_EVENT && t != YAML_STREAM_START_EVENT)
			return ig_fail(b->c, NULL, "unexpected YAML event %d", (int)t);
		if (t == YAML_DOCUMENT_START_EVENT)
			break;
	} while (1);
	if (y_next(b, &ev) < 0)
		return -1;
	bool map = ev.type == YAML_MAPPING_START_EVENT;
	if (y_node(b, &ev, root, 0) < 0)
		return -1;
	if (!map)
		return ig_fail(b->c, root, "expected a mapping (an InfraGraph infrastructure)");
	if (y_next(b, &ev) < 0) /* the document's end */
		return -1;
	yaml_event_delete(&ev);
	if (y_next(b, &ev) < 0)
		return -1;
	yaml_event_type_t t = ev.type;
	unsigned long line = (unsigned long)ev.start_mark.line + 1;
	yaml_event_delete(&ev);
	if (t != YAML_STREAM_END_EVENT)
		return et_fail(
		    b->c->e, ET_EXIT_DATA,
		    "%s: line %lu: a second YAML document: give one infrastructure per file",
		    b->c->name, line);
	return 0;
}

int ig_tree_yaml(const ig_ctx *c, const char *data, size_t len, const ig_val **root)
{
	ybuild b = {.c = c, .data = data};
	ig_val *v = val_new(c);
	yaml_parser_initialize(&b.p);
	yaml_parser_set_input_string(&b.p, (const unsigned char *)data, len);
	int r = y_doc(&b, v);
	yaml_parser_delete(&b.p);
	*root = v;
	return r;
}

/* ---- JSON ---- */

static int j_node(const ig_ctx *c, const cJSON *j, ig_val *v, int depth)
{
	char num[40];
	if (cJSON_IsObject(j) || cJSON_IsArray(j)) {
		if (depth >= IG_MAX_TREE_DEPTH)
			return ig_fail(c, v, "nested deeper than %d levels", IG_MAX_TREE_DEPTH);
		v->kind = cJSON_IsObject(j) ? IG_MAP : IG_SEQ;
		ig_val *last = NULL;
		for (const cJSON *x = j->child; x; x = x->next) {
			const char *key =
			    v->kind == IG_MAP ? et_arena_strdup(c->a, x->string) : NULL;
			if (j_node(c, x, child(c, v, &last, key), depth + 1) < 0)
				return -1;
		}
		return 0;
	}
	if (cJSON_IsNull(j))
		return v->kind = IG_NULL, 0;
	v->kind = IG_SCALAR;
	if (cJSON_IsString(j)) {
		v->text = et_arena_strdup(c->a, j->valuestring);
	} else if (cJSON_IsNumber(j)) {
		snprintf(num, sizeof num, "%.17g", j->valuedouble);
		v->text = et_arena_strdup(c->a, num);
	} else {
		v->text = cJSON_IsTrue(j) ? "true" : "false";
	}
	return 0;
}

int ig_tree_json(const ig_ctx *c, const char *data, size_t len, const ig_val **root)
{
	ig_val *v = val_new(c);
	*root = v;
	cJSON *j = et_jsonfile_parse(data, len, c->name, c->e);
	if (!j)
		return -1;
	int r = cJSON_IsObject(j)
	            ? j_node(c, j, v, 0)
	            : ig_fail(c, NULL, "expected an object (an InfraGraph infrastructure)");
	cJSON_Delete(j);
	return r;
}
