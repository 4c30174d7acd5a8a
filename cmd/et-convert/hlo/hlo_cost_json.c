/* hlo_cost_json: the few numbers read out of backend_config (hlo_cost.h).
 * backend_config is JSON, JSON inside a quoted string (quotes escaped) or
 * an MLIR dictionary; rather than parse all three, this looks for a key and
 * reads the digits after it, stepping over quotes and backslashes. */
#include "et-convert/hlo/hlo_cost.h"

#include <string.h>

/* The offset just past the first occurrence of key in [from, end), or 0. */
static size_t find(const hlo_module *m, size_t from, size_t end, const char *key)
{
	size_t n = strlen(key);
	for (size_t k = from; k + n <= end; k++)
		if (m->text[k] == key[0] && memcmp(m->text + k, key, n) == 0)
			return k + n;
	return 0;
}

/* A number at *k (after quotes/backslashes/blanks); advances past it. */
static bool number_at(const hlo_module *m, size_t *k, size_t end, int64_t *v)
{
	const char *t = m->text;
	while (*k < end && (t[*k] == '"' || t[*k] == '\\' || t[*k] == ' '))
		++*k;
	bool neg = *k < end && t[*k] == '-';
	if (neg)
		++*k;
	if (*k >= end || t[*k] < '0' || t[*k] > '9')
		return false;
	int64_t x = 0;
	for (; *k < end && t[*k] >= '0' && t[*k] <= '9'; ++*k)
		x = x > (INT64_MAX - 9) / 10 ? INT64_MAX : x * 10 + (t[*k] - '0');
	*v = neg ? -x : x;
	return true;
}

bool hlo_json_ints(const hlo_module *m, hlo_range r, const char *key, int64_t *v, uint32_t max,
                   uint32_t *n)
{
	size_t end = (size_t)r.off + r.len, k = find(m, r.off, end, key);
	*n = 0;
	if (!k)
		return false;
	while (k < end && m->text[k] != '[' && m->text[k] != ',' && m->text[k] != '}')
		k++;
	if (k >= end || m->text[k] != '[')
		return false;
	for (k++; k < end && m->text[k] != ']';) {
		int64_t x;
		if (m->text[k] == ',' || m->text[k] == ' ') {
			k++;
			continue;
		}
		if (!number_at(m, &k, end, &x) || *n == max)
			return false;
		v[(*n)++] = x;
		while (k < end && (m->text[k] == '"' || m->text[k] == '\\'))
			k++;
	}
	return k < end;
}

bool hlo_json_int_after(const hlo_module *m, hlo_range r, const char *key, const char *then,
                        int64_t *v)
{
	size_t end = (size_t)r.off + r.len, k = find(m, r.off, end, key);
	if (!k || !(k = find(m, k, end, then)))
		return false;
	while (k < end && (m->text[k] == ':' || m->text[k] == ' ' || m->text[k] == '=' ||
	                   m->text[k] == '{' || m->text[k] == '"' || m->text[k] == '\\'))
		k++;
	return number_at(m, &k, end, v);
}
