/* Process-group definitions as the PyTorch converter writes them:
 * inputs.values = "['[{\"pg_name\": \"0\", \"ranks\": [0, 1], ...}]']",
 * the Python repr of a one-element list holding JSON. Read with et_pg (which
 * also takes the JSON-list and bare forms), and written back in the form
 * they were read in, the JSON laid out as Python's json.dumps wrote it
 * (", " and ": " separators). */
#include "et_buf.h"
#include "et_pg.h"
#include "xf.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool xf_is_pg_def(const et_node *n)
{
	if (n->type != CHAKRA_PROTO_MSG__NODE_TYPE__METADATA_NODE || !n->inputs)
		return false;
	cJSON *root = et_pg_values_parse(n->inputs->values, NULL);
	cJSON_Delete(root);
	return root != NULL;
}

/* Empty (= all ranks) or exactly the ranks 0..old_world-1. */
static bool whole_world(const cJSON *ranks, uint32_t old_world)
{
	int n = cJSON_GetArraySize(ranks);
	if (n == 0)
		return true;
	if ((uint32_t)n != old_world)
		return false;
	char *seen = calloc(old_world, 1);
	bool ok = seen != NULL;
	for (const cJSON *r = ranks->child; r && ok; r = r->next) {
		double d = cJSON_IsNumber(r) ? r->valuedouble : -1;
		ok = d >= 0 && d < old_world && d == floor(d) && !seen[(size_t)d];
		if (ok)
			seen[(size_t)d] = 1;
	}
	free(seen);
	return ok;
}

int xf_pg_scan(const char *values, uint32_t old_world, void (*fn)(void *, const pg_info *),
               void *ctx)
{
	cJSON *root = et_pg_values_parse(values, NULL);
	if (!root)
		return -1;
	int count = 0;
	for (const cJSON *o = root->child; o; o = o->next, count++) {
		char num[32];
		const char *name = et_pg_def_name(o, num, sizeof num);
		const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(o, "ranks");
		pg_info pi = {name, whole_world(ranks, old_world),
		              (uint32_t)cJSON_GetArraySize(ranks)};
		fn(ctx, &pi);
	}
	cJSON_Delete(root);
	return count;
}

/* json.dumps layout of a cJSON value. */
static void dump(const cJSON *v, et_buf *b)
{
	if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
		bool obj = cJSON_IsObject(v);
		et_buf_putc(b, obj ? '{' : '[');
		for (const cJSON *c = v->child; c; c = c->next) {
			if (c != v->child)
				et_buf_puts(b, ", ");
			if (obj) {
				cJSON key = {.type = cJSON_String, .valuestring = c->string};
				dump(&key, b);
				et_buf_puts(b, ": ");
			}
			dump(c, b);
		}
		et_buf_putc(b, obj ? '}' : ']');
	} else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
	           fabs(v->valuedouble) < 9e15) {
		et_buf_printf(b, "%.0f", v->valuedouble);
	} else {
		char *s = cJSON_PrintUnformatted(v);
		et_buf_puts(b, s ? s : "null");
		free(s);
	}
}

static void set_number(cJSON *o, const char *key, double v)
{
	cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
	if (cJSON_IsNumber(it))
		cJSON_SetNumberValue(it, v);
}

/* The definitions' text back in the form the values were written in. */
static char *rewrap(char *text, et_pg_form form)
{
	if (form == ET_PG_JSON)
		return text;
	et_buf b = {0};
	if (form == ET_PG_PYREPR) {
		et_buf_puts(&b, "['");
		et_buf_puts(&b, text);
		et_buf_puts(&b, "']");
	} else {
		cJSON *list = cJSON_CreateArray();
		cJSON_AddItemToArray(list, cJSON_CreateString(text));
		char *s = cJSON_PrintUnformatted(list);
		et_buf_puts(&b, s);
		free(s);
		cJSON_Delete(list);
	}
	et_buf_putc(&b, 0);
	free(text);
	return (char *)b.data;
}

char *xf_pg_rewrite(const char *values, uint32_t old_world, uint32_t new_world)
{
	et_pg_form form;
	cJSON *root = et_pg_values_parse(values, &form);
	if (!root)
		return NULL;
	for (cJSON *o = root->child; o; o = o->next) {
		cJSON *ranks = cJSON_GetObjectItemCaseSensitive(o, "ranks");
		if (!whole_world(ranks, old_world))
			continue;
		if (cJSON_GetArraySize(ranks)) {
			cJSON *nr = cJSON_CreateArray();
			for (uint32_t r = 0; r < new_world; r++)
				cJSON_AddItemToArray(nr, cJSON_CreateNumber(r));
			cJSON_ReplaceItemInObjectCaseSensitive(o, "ranks", nr);
		}
		set_number(o, "group_size", new_world);
		set_number(o, "pg_size", new_world);
	}
	et_buf b = {0};
	dump(root, &b);
	et_buf_putc(&b, 0);
	cJSON_Delete(root);
	return rewrap((char *)b.data, form);
}
