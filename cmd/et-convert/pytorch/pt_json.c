#include "et-convert/pytorch/pt_json.h"
#include "et_buf.h"
#include "et_jsonscan.h"
#include "et_mem.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int pj_next_member(const char *t, size_t len, size_t *pos, pj_span *key, pj_span *val, size_t *bad)
{
	size_t i = *pos;
	if (i == 0) {
		i = et_jsonscan_ws(t, len, 0);
		if (i >= len || t[i] != '{')
			goto fail;
		i = et_jsonscan_ws(t, len, i + 1);
		if (i < len && t[i] == '}')
			return *pos = len, 0;
	} else {
		i = et_jsonscan_ws(t, len, i);
		if (i >= len)
			goto fail;
		if (t[i] == '}')
			return *pos = len, 0;
		if (t[i] != ',')
			goto fail;
		i = et_jsonscan_ws(t, len, i + 1);
	}
	if (i >= len || t[i] != '"')
		goto fail;
	size_t kend = et_jsonscan_value_end(t, len, i);
	if (kend == 0 || kend == (size_t)-1)
		goto fail;
	*key = (pj_span){t + i + 1, kend - i - 2};
	i = et_jsonscan_ws(t, len, kend);
	if (i >= len || t[i] != ':')
		goto fail;
	i = et_jsonscan_ws(t, len, i + 1);
	size_t vend = et_jsonscan_value_end(t, len, i);
	if (vend == 0 && i < len) /* a scalar that ends the text cannot: '}' follows */
		goto fail;
	if (vend == (size_t)-1 || i >= len)
		goto fail;
	*val = (pj_span){t + i, vend - i};
	*pos = vend;
	return 1;
fail:
	*bad = i;
	return -1;
}

int pj_next_elem(const char *t, size_t len, size_t *pos, pj_span *val, size_t *bad, pj_members *obj)
{
	size_t i = et_jsonscan_ws(t, len, *pos);
	if (i >= len)
		goto fail;
	if (*pos == 0) {
		if (t[i] != '[')
			goto fail;
		i = et_jsonscan_ws(t, len, i + 1);
		if (i < len && t[i] == ']')
			return *pos = len, 0;
	} else {
		if (t[i] == ']')
			return *pos = len, 0;
		if (t[i] != ',')
			goto fail;
		i = et_jsonscan_ws(t, len, i + 1);
	}
	size_t end = (size_t)-1;
	if (i >= len)
		goto fail;
	if (obj && t[i] == '{') {
		if (pj_scan_object(t + i, len - i, obj, &end, bad) != 1)
			goto fail;
		end += i;
	} else {
		end = et_jsonscan_value_end(t, len, i);
		if (end == 0 || end == (size_t)-1) /* a scalar cannot end the text: ']' follows */
			goto fail;
	}
	*val = (pj_span){t + i, end - i};
	*pos = end;
	return 1;
fail:
	*bad = i;
	return -1;
}

static void members_push(pj_members *m, pj_span k, pj_span v)
{
	ET_GROW(m->v, m->cap, (size_t)m->n + 1);
	m->v[m->n++] = (pj_member){k, v};
}

void pj_members_free(pj_members *m)
{
	free(m->v);
	memset(m, 0, sizeof *m);
}

/* The grammar is pj_next_member's, so a broken object is reported at the
 * same byte; here running out of text means "read more". */
int pj_scan_object(const char *t, size_t len, pj_members *m, size_t *end, size_t *bad)
{
	m->n = 0;
	size_t i = et_jsonscan_ws(t, len, 0);
	if (i >= len)
		return 0;
	if (t[i] != '{')
		goto broken;
	i = et_jsonscan_ws(t, len, i + 1);
	if (i < len && t[i] == '}')
		return *end = i + 1, 1;
	for (;;) {
		if (i >= len)
			return 0;
		if (t[i] != '"')
			goto broken;
		size_t kend = et_jsonscan_value_end_ex(t, len, i, bad);
		if (kend == 0 || kend == (size_t)-1)
			return kend ? (int)(m->bad = i, -1) : 0;
		pj_span key = {t + i + 1, kend - i - 2};
		i = et_jsonscan_ws(t, len, kend);
		if (i >= len)
			return 0;
		if (t[i] != ':')
			goto broken;
		i = et_jsonscan_ws(t, len, i + 1);
		if (i >= len)
			return 0;
		size_t vend = et_jsonscan_value_end_ex(t, len, i, bad);
		if (vend == 0 || vend == (size_t)-1)
			return vend ? (int)(m->bad = i, -1) : 0;
		members_push(m, key, (pj_span){t + i, vend - i});
		i = et_jsonscan_ws(t, len, vend);
		if (i >= len)
			return 0;
		if (t[i] == '}')
			return *end = i + 1, 1;
		if (t[i] != ',')
			goto broken;
		i = et_jsonscan_ws(t, len, i + 1);
	}
broken:
	m->bad = i;
	return -2;
}

bool pj_int(pj_span v, int64_t *out)
{
	char tmp[32];
	if (v.n >= 2 && v.p[0] == '"') {
		v.p++;
		v.n -= 2;
	}
	/* Most are short plain integers: at most 18 digits cannot overflow. */
	size_t neg = v.n && v.p[0] == '-', i = neg;
	int64_t acc = 0;
	while (i < v.n && i - neg < 18 && v.p[i] >= '0' && v.p[i] <= '9')
		acc = acc * 10 + (v.p[i++] - '0');
	if (i == v.n && i > neg) {
		*out = neg ? -acc : acc;
		return true;
	}
	if (v.n == 0 || v.n >= sizeof tmp)
		return false;
	memcpy(tmp, v.p, v.n);
	tmp[v.n] = 0;
	char *end;
	errno = 0;
	long long x = strtoll(tmp, &end, 10);
	if (errno == ERANGE && tmp[0] != '-') {
		/* uint64 beyond int64: keep the bits, as protobuf's int64 would */
		errno = 0;
		x = (long long)strtoull(tmp, &end, 10);
	}
	if (errno || *end) {
		/* 3.0 is an integer too (Kineto writes some ids as floats) */
		double d = strtod(tmp, &end);
		/* in range before the cast: out-of-range conversion is undefined */
		if (*end || !(d >= -9.2e18 && d <= 9.2e18) || d != (double)(long long)d)
			return false;
		x = (long long)d;
	}
	*out = x;
	return true;
}

bool pj_double(pj_span v, double *out)
{
	char tmp[64];
	if (v.n == 0 || v.n >= sizeof tmp || v.p[0] == '"')
		return false;
	memcpy(tmp, v.p, v.n);
	tmp[v.n] = 0;
	char *end;
	*out = strtod(tmp, &end);
	return *end == 0;
}

/* cJSON's parser writes a global error position, and a Kineto trace is
 * read on a thread of its own while the host trace is parsed: parses take
 * turns (they are rare: strings with escapes, communication inputs). */
static pthread_mutex_t cjson_lock = PTHREAD_MUTEX_INITIALIZER;

static cJSON *parse_locked(const char *p, size_t n)
{
	pthread_mutex_lock(&cjson_lock);
	cJSON *j = cJSON_ParseWithLength(p, n);
	pthread_mutex_unlock(&cjson_lock);
	return j;
}

bool pj_string(pj_span v, et_buf *out)
{
	out->len = 0;
	if (v.n < 2 || v.p[0] != '"')
		return false;
	if (!memchr(v.p, '\\', v.n)) {
		et_buf_append(out, v.p + 1, v.n - 2);
		et_buf_putc(out, 0);
		return true;
	}
	cJSON *s = parse_locked(v.p, v.n);
	bool ok = s && cJSON_IsString(s);
	if (ok)
		et_buf_append(out, s->valuestring, strlen(s->valuestring) + 1);
	cJSON_Delete(s);
	return ok;
}

cJSON *pj_tree(pj_span v, et_buf *scratch)
{
	scratch->len = 0;
	et_jsonscan_quote_numbers(v.p, v.n, scratch);
	return parse_locked((const char *)scratch->data, scratch->len);
}

bool pj_cjson_int(const cJSON *v, int64_t *out)
{
	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (!(d >= -9.2e18 && d <= 9.2e18))
			return false;
		*out = (int64_t)d;
		return d == (double)*out;
	}
	if (cJSON_IsString(v))
		return pj_int((pj_span){v->valuestring, strlen(v->valuestring)}, out);
	return false;
}
