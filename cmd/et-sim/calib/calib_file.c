/* The calibration file (see calib_file.h). */
#include "et-sim/calib/calib_file.h"
#include "et_buf.h"
#include "et_jsonfile.h"
#include "et_mem.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rd {
	const char *name;
	et_error *e;
	char path[64];
} rd;

static int bad(rd *r, const char *what, const cJSON *v)
{
	return et_fail(r->e, ET_EXIT_DATA, "%s: %s: expected %s, got %s", r->name, r->path, what,
	               v ? et_jsonfile_kind(v) : "nothing");
}

static const cJSON *member(rd *r, const cJSON *o, const char *prefix, const char *k)
{
	snprintf(r->path, sizeof r->path, "%.40s%.20s", prefix, k);
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

static int num(rd *r, const cJSON *o, const char *prefix, const char *k, double lo, double *v)
{
	const cJSON *x = member(r, o, prefix, k);
	if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || x->valuedouble < lo) {
		char what[48];
		snprintf(what, sizeof what, "a number >= %g", lo);
		return bad(r, what, x);
	}
	*v = x->valuedouble;
	return 0;
}

static int str(rd *r, const cJSON *o, const char *prefix, const char *k, char *buf, size_t cap)
{
	const cJSON *x = member(r, o, prefix, k);
	if (!cJSON_IsString(x))
		return bad(r, "a string", x);
	snprintf(buf, cap, "%.*s", (int)(cap - 1), x->valuestring);
	return 0;
}

static int count(rd *r, const cJSON *o, const char *prefix, const char *k, uint32_t lo, uint32_t *v)
{
	double d;
	if (num(r, o, prefix, k, lo, &d) < 0)
		return -1;
	if (d != floor(d) || d > 1 << 24)
		return bad(r, "a whole count", member(r, o, prefix, k));
	*v = (uint32_t)d;
	return 0;
}

static int band(rd *r, const cJSON *b, const char *prefix, cal_band *out, const cal_band *prev)
{
	double beta;
	if (!cJSON_IsObject(b)) {
		snprintf(r->path, sizeof r->path, "%.60s", prefix);
		return bad(r, "an object", b);
	}
	if (num(r, b, prefix, "min_bytes", 0, &out->lo) < 0 ||
	    num(r, b, prefix, "max_bytes", out->lo, &out->hi) < 0 ||
	    num(r, b, prefix, "alpha_us", 0, &out->alpha_us) < 0 ||
	    num(r, b, prefix, "beta_gbps", 0, &beta) < 0)
		return -1;
	if (prev && out->lo <= prev->hi) {
		snprintf(r->path, sizeof r->path, "%.50smin_bytes", prefix);
		return et_fail(r->e, ET_EXIT_DATA, "%s: %s: bands must ascend and not overlap",
		               r->name, r->path);
	}
	out->x_us_b = beta > 0 ? 1e-3 / beta : 0;
	return 0;
}

static int entry(rd *r, const cJSON *f, size_t i, calib_entry *out)
{
	char p[48];
	snprintf(p, sizeof p, "fits[%zu].", i);
	if (!cJSON_IsObject(f)) {
		snprintf(r->path, sizeof r->path, "fits[%zu]", i);
		return bad(r, "an object", f);
	}
	if (str(r, f, p, "collective", out->collective, sizeof out->collective) < 0 ||
	    count(r, f, p, "ranks", 2, &out->ranks) < 0 ||
	    count(r, f, p, "nodes", 1, &out->nodes) < 0 ||
	    str(r, f, p, "device", out->device, sizeof out->device) < 0)
		return -1;
	const cJSON *src = member(r, f, p, "source"),
	            *file = cJSON_GetObjectItemCaseSensitive(src, "file");
	snprintf(out->source, sizeof out->source, "%.255s",
	         cJSON_IsString(file) ? file->valuestring : "?");
	const cJSON *bands = member(r, f, p, "bands");
	int nb = cJSON_IsArray(bands) ? cJSON_GetArraySize(bands) : 0;
	if (nb < 1 || nb > CAL_BANDS)
		return bad(r, "an array of 1 to 3 bands", bands);
	for (int k = 0; k < nb; k++) {
		char bp[96];
		snprintf(bp, sizeof bp, "%sbands[%d].", p, k);
		if (band(r, cJSON_GetArrayItem(bands, k), bp, &out->fit.band[k],
		         k ? &out->fit.band[k - 1] : NULL) < 0)
			return -1;
	}
	out->fit.nb = nb;
	return 0;
}

int calib_parse(const char *text, size_t len, const char *name, calib_set *s, et_error *e)
{
	memset(s, 0, sizeof *s);
	cJSON *doc = et_jsonfile_parse(text, len, name, e);
	if (!doc)
		return -1;
	rd r = {name, e, ""};
	int rc = 0;
	char fmt[32] = "";
	double ver = 0;
	const cJSON *fits = NULL;
	if (!cJSON_IsObject(doc)) {
		snprintf(r.path, sizeof r.path, "the document");
		rc = bad(&r, "an object", doc);
	} else if (str(&r, doc, "", "format", fmt, sizeof fmt) < 0) {
		rc = -1;
	} else if (strcmp(fmt, "etkit-calib")) {
		rc = et_fail(e, ET_EXIT_DATA, "%s: format \"%s\": not an etkit-calib file", name,
		             fmt);
	} else if (num(&r, doc, "", "version", 0, &ver) < 0) {
		rc = -1;
	} else if (ver != 1) {
		rc = et_fail(e, ET_EXIT_DATA,
		             "%s: version %g: this et-sim reads etkit-calib version 1", name, ver);
	} else if (!cJSON_IsArray(fits = member(&r, doc, "", "fits"))) {
		rc = bad(&r, "an array", fits);
	}
	int n = rc == 0 ? cJSON_GetArraySize(fits) : 0;
	s->e = et_xcalloc((size_t)n + 1, sizeof *s->e);
	for (int i = 0; i < n && rc == 0; i++)
		if ((rc = entry(&r, cJSON_GetArrayItem(fits, i), (size_t)i, &s->e[i])) == 0)
			s->n++;
	cJSON_Delete(doc);
	if (rc < 0)
		calib_set_free(s);
	return rc;
}

int calib_read(const char *path, calib_set *s, et_error *e)
{
	memset(s, 0, sizeof *s);
	et_buf b = {0};
	if (et_buf_read_file(&b, path, ET_JSONFILE_MAX, e) < 0)
		return -1;
	int rc = calib_parse((const char *)b.data, b.len, path, s, e);
	free(b.data);
	return rc;
}

void calib_set_free(calib_set *s)
{
	free(s->e);
	memset(s, 0, sizeof *s);
}

const calib_entry *calib_find(const calib_set *s, const char *collective, uint32_t ranks,
                              uint32_t nodes)
{
	const calib_entry *near = NULL;
	for (size_t k = 0; k < s->n; k++) {
		const calib_entry *c = &s->e[k];
		if (strcmp(c->collective, collective) || c->ranks != ranks)
			continue;
		if (c->nodes == nodes)
			return c;
		if (!near)
			near = c;
	}
	return near;
}
