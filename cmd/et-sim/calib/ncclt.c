/* nccl-tests output and etkit's hardware tables (see ncclt.h). */
#include "et-sim/calib/ncclt.h"
#include "et_mem.h"
#include "et_strmap.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOK 16

typedef struct parse {
	const char *name;
	size_t lineno;
	ncclt_log *l;
	size_t cap;
	bool tsv;        /* a "size_bytes" column line was seen */
	et_strmap hosts; /* distinct hosts of the "# Rank" lines */
	et_error *e;
} parse;

double ncclt_bus_factor(const char *c, uint32_t n)
{
	if (n == 0)
		return 0;
	double r = (double)(n - 1) / n;
	if (!strcmp(c, "all_reduce"))
		return 2 * r;
	if (!strcmp(c, "all_gather") || !strcmp(c, "reduce_scatter") || !strcmp(c, "alltoall"))
		return r;
	if (!strcmp(c, "broadcast") || !strcmp(c, "reduce") || !strcmp(c, "sendrecv"))
		return 1;
	return 0;
}

/* Splits line (NUL-ended, modified) at whitespace, or at tabs only. */
static int split(char *s, bool tabs, char **tok)
{
	int n = 0;
	const char *sep = tabs ? "\t" : " \t";
	for (char *save = NULL, *p = strtok_r(s, sep, &save); p; p = strtok_r(NULL, sep, &save))
		if (n < MAX_TOK)
			tok[n++] = p;
		else
			return MAX_TOK + 1;
	return n;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* A number field: finite and >= 0; "-" (not given) or "N/A" is -1. */
static int num(const char *s, double *v)
{
	if (!strcmp(s, "-") || !strcmp(s, "N/A")) {
		*v = -1;
		return 0;
	}
	char *end;
	*v = strtod(s, &end);
	return *end || end == s || !isfinite(*v) || *v < 0 ? -1 : 0;
}

static int bad(parse *p, const char *what)
{
	return et_fail(p->e, ET_EXIT_DATA, "%s: line %zu: %s", p->name, p->lineno, what);
}

static int add_row(parse *p, double size, double t, double algbw, double busbw)
{
	ncclt_log *l = p->l;
	if (l->n == NCCLT_MAX_ROWS)
		return bad(
		    p, "more than 256 rows (a sweep by factors of 2 from 8 B to 16 GiB has 32)");
	if (l->n && size <= l->row[l->n - 1].size)
		return bad(p, "sizes must ascend");
	ET_GROW(l->row, p->cap, l->n + 1);
	l->row[l->n++] = (ncclt_row){size, t, algbw, busbw};
	return 0;
}

/* size count type redop [root] time algbw busbw #wrong time algbw busbw #wrong */
static int stdout_row(parse *p, char **tok, int n)
{
	if (n != 12 && n != 13)
		return bad(p,
		           "a row needs 12 or 13 fields (size count type redop [root], then time "
		           "algbw busbw #wrong out of place and in place)");
	int c = n - 8; /* the out-of-place time */
	double size, v[8];
	if (num(tok[0], &size) < 0 || size > 1e15)
		return bad(p, "the size is not a byte count");
	for (int k = 0; k < 8; k++)
		if (num(tok[c + k], &v[k]) < 0)
			return bad(p, "a time, bandwidth or #wrong field is not a number >= 0");
	if (v[3] > 0 || v[7] > 0) {
		p->l->dropped++; /* the test found wrong results: not a timing */
		return 0;
	}
	bool oop = v[0] > 0, ip = v[4] > 0;
	if (!oop && !ip)
		return bad(p, "neither time is above 0");
	int w = oop && (!ip || v[0] <= v[4]) ? 0 : 4;
	if (!p->l->n)
		snprintf(p->l->redop, sizeof p->l->redop, "%s", tok[3]);
	return add_row(p, size, v[w], v[w + 1], v[w + 2]);
}

/* size_bytes count dtype op time_us_oop algbw_oop busbw_oop time_us_ip
 * algbw_ip busbw_ip */
static int tsv_row(parse *p, char **tok, int n)
{
	if (n != 10)
		return bad(p, "a table row needs 10 tab-separated fields");
	double size, v[6];
	if (num(tok[0], &size) < 0 || size <= 0 || size > 1e15)
		return bad(p, "size_bytes is not a byte count above 0");
	for (int k = 0; k < 6; k++)
		if (num(tok[4 + k], &v[k]) < 0)
			return bad(p, "a time or bandwidth is not a number >= 0 or \"-\"");
	double t = v[0] > 0 && (v[3] <= 0 || v[0] <= v[3]) ? v[0] : v[3];
	int w = t == v[0] ? 0 : 3;
	if (t <= 0) { /* busbw only: t = S * factor / busbw */
		double f = ncclt_bus_factor(p->l->collective, p->l->ranks);
		double bus = v[5] > 0 ? v[5] : v[2];
		if (f <= 0 || bus <= 0)
			return 0; /* nothing to time this size by (busbw 0.00) */
		return add_row(p, size, size * f / bus / 1e3, -1, bus);
	}
	return add_row(p, size, t, v[w + 1], v[w + 2]);
}

/* "#  Rank  3 Group  0 Pid 1006017 on HOST device  3 [0000:66:00] NAME" */
static void rank_line(parse *p, const char *s)
{
	const char *on = strstr(s, " on ");
	if (!on)
		return;
	p->l->ranks++;
	const char *h = on + 4;
	while (*h == ' ')
		h++;
	et_strmap_intern(&p->hosts, h, strcspn(h, " \t"));
	const char *br = strchr(on, ']');
	if (br && !p->l->device[0]) {
		while (*++br == ' ')
			;
		snprintf(p->l->device, sizeof p->l->device, "%.95s", br);
	}
}

/* "# key: value" of a table */
static int table_key(parse *p, const char *s)
{
	char key[32], val[128];
	if (sscanf(s, "# %31[a-z_]: %127[^\n]", key, val) != 2)
		return 0;
	if (!strcmp(key, "collective"))
		snprintf(p->l->collective, sizeof p->l->collective, "%.23s", val);
	else if (!strcmp(key, "gpu_model"))
		snprintf(p->l->device, sizeof p->l->device, "%.95s", val);
	else if (!strcmp(key, "gpus") || !strcmp(key, "nodes")) {
		char *end;
		unsigned long v = strtoul(val, &end, 10);
		if (*end || v == 0 || v > 1u << 24)
			return bad(p, "gpus and nodes must be counts");
		*(!strcmp(key, "gpus") ? &p->l->ranks : &p->l->nodes) = (uint32_t)v;
	}
	return 0;
}

static int one_line(parse *p, char *s)
{
	size_t len = strlen(s);
	while (len && (s[len - 1] == '\r' || s[len - 1] == ' '))
		s[--len] = 0;
	if (s[0] == '#') {
		if (!strncmp(s, "#  Rank", 7) || !strncmp(s, "# Rank", 6))
			rank_line(p, s);
		return table_key(p, s);
	}
	if (!strncmp(s, "size_bytes\t", 11)) {
		p->tsv = true;
		return 0;
	}
	char *tok[MAX_TOK];
	int n = split(s, p->tsv, tok);
	if (n < 2 || !all_digits(tok[0]) || (!p->tsv && !all_digits(tok[1])))
		return 0; /* not a row: a log line, a blank line */
	return p->tsv ? tsv_row(p, tok, n) : stdout_row(p, tok, n);
}

/* The collective whose busbw / algbw factor the rows show (all_gather and
 * reduce_scatter share one: a "none" redop is all_gather's; alltoall's
 * factor is theirs too, so it needs naming), "" when none fits. */
static void infer(ncclt_log *l)
{
	if (l->collective[0] || l->ranks == 0)
		return;
	static const char *const names[] = {"all_reduce", "all_gather", "broadcast"};
	for (size_t i = 0; i < l->n; i++) {
		if (l->row[i].algbw < 1)
			continue; /* two printed decimals: too coarse below 1 GB/s */
		double r = l->row[i].busbw / l->row[i].algbw;
		int hits = 0;
		const char *hit = "";
		for (int k = 0; k < 3; k++)
			if (fabs(r / ncclt_bus_factor(names[k], l->ranks) - 1) < 0.02)
				hits++, hit = names[k];
		if (hits == 1 && !strcmp(hit, "all_gather") && strcmp(l->redop, "none"))
			hit = "reduce_scatter";
		if (hits == 1)
			snprintf(l->collective, sizeof l->collective, "%s", hit);
		return;
	}
}

int ncclt_parse(const char *text, size_t len, const char *name, ncclt_log *out, et_error *e)
{
	memset(out, 0, sizeof *out);
	parse *p = et_xcalloc(1, sizeof *p);
	p->name = name;
	p->l = out;
	p->e = e;
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	for (size_t at = 0; at < len && rc == 0;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - text - at) : len - at;
		ET_GROW(line, cap, n + 1);
		memcpy(line, text + at, n);
		line[n] = 0;
		p->lineno++;
		if (memchr(line, 0, n))
			rc = bad(p, "a NUL byte: not text");
		else
			rc = one_line(p, line);
		at += n + 1;
	}
	if (rc == 0 && !out->nodes)
		out->nodes = et_strmap_count(&p->hosts) ? et_strmap_count(&p->hosts) : 1;
	if (rc == 0 && out->n == 0)
		rc = et_fail(e, ET_EXIT_DATA,
		             "%s: no timing rows (expected nccl-tests or rccl-tests output, or a "
		             "hardware table with a size_bytes line)",
		             name);
	if (rc == 0 && out->ranks < 2)
		rc = et_fail(e, ET_EXIT_DATA,
		             "%s: the rank count is unknown (no \"# Rank\" lines, no gpus key): a "
		             "collective needs two ranks or more",
		             name);
	if (rc == 0)
		infer(out);
	free(line);
	et_strmap_free(&p->hosts);
	free(p);
	if (rc < 0)
		ncclt_free(out);
	return rc;
}

void ncclt_free(ncclt_log *l)
{
	free(l->row);
	memset(l, 0, sizeof *l);
}
