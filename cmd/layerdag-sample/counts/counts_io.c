/* The counts model file (counts.h): text, one table per line.
 *
 *   layerdag-sample counts 2
 *   vocab V buckets B
 *   ybound b_1 ... b_{B-1}
 *   plans N            then N lines "y L w_0 ... w_{L-1} a_0 ... a_{n-1}
 *                      o_0 ... o_{n-1} i_0 ... i_{n-1}" (the widths, then the
 *                      n = Σw attributes layer by layer, then their out-degrees
 *                      and in-degrees), labels ascending
 *   attr_py ...        CM_NPOS·B·V counts
 *   attr_p ...         CM_NPOS·V
 *   attr_all ...       V
 *   indeg ...          V·CM_DEG
 *   outdeg ...         V·CM_DEG
 *   pred ...           V·V (child-major)
 *   span ...           CM_SPAN
 *   sink ...           V zeros and ones
 *   et N               (fitted on Chakra ETs) N lines, one per attribute:
 *                      "type ctype op sizeb durb k" and k tuples "num_ops
 *                      tensor_size comm_size duration" (etdag.h)
 *
 * Numbers are written exactly (%.17g) so that a model read back samples
 * the same graphs. */
#include "et_buf.h"
#include "et_mem.h"
#include "layerdag-sample/counts/counts.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* The plans' layers and nodes in all (offsets are 32-bit). */
#define CM_MAX_TOTAL ((uint64_t)1 << 28)

static void row(FILE *f, const char *name, const double *v, size_t n)
{
	fputs(name, f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %.17g", v[i]);
	fputc('\n', f);
}

int cm_write(const cm_model *m, FILE *f)
{
	uint32_t V = m->vocab;
	fprintf(f, "layerdag-sample counts 2\nvocab %u buckets %u\n", V, m->nyb);
	row(f, "ybound", m->ybound, m->nyb - 1);
	fprintf(f, "plans %zu\n", m->nplan);
	for (size_t p = 0; p < m->nplan; p++) {
		uint32_t L = m->plan_off[p + 1] - m->plan_off[p];
		fprintf(f, "%.17g %u", m->plan_y[p], L);
		for (uint32_t l = 0; l < L; l++)
			fprintf(f, " %u", m->plan_w[m->plan_off[p] + l]);
		for (uint32_t k = m->plan_aoff[p]; k < m->plan_aoff[p + 1]; k++)
			fprintf(f, " %u", m->plan_a[k]);
		for (uint32_t k = m->plan_aoff[p]; k < m->plan_aoff[p + 1]; k++)
			fprintf(f, " %u", m->plan_od[k]);
		for (uint32_t k = m->plan_aoff[p]; k < m->plan_aoff[p + 1]; k++)
			fprintf(f, " %u", m->plan_id[k]);
		fputc('\n', f);
	}
	row(f, "attr_py", m->attr_py, (size_t)CM_NPOS * m->nyb * V);
	row(f, "attr_p", m->attr_p, (size_t)CM_NPOS * V);
	row(f, "attr_all", m->attr_all, V);
	row(f, "indeg", m->indeg, (size_t)V * CM_DEG);
	row(f, "outdeg", m->outdeg, (size_t)V * CM_DEG);
	row(f, "pred", m->pred, (size_t)V * V);
	row(f, "span", m->span, CM_SPAN);
	fputs("sink", f);
	for (uint32_t a = 0; a < V; a++)
		fprintf(f, " %d", m->sink[a]);
	fputc('\n', f);
	if (m->et.n) {
		fprintf(f, "et %zu\n", m->et.n);
		for (size_t i = 0; i < m->et.n; i++) {
			const ld_et_class *c = &m->et.c[i];
			fprintf(f, "%u %u %u %u %u %u", c->type, c->ctype, c->op, c->sizeb, c->durb,
			        c->nval);
			for (uint32_t k = 0; k < c->nval; k++)
				fprintf(f, " %lld %llu %lld %llu", (long long)c->val[k].num_ops,
				        (unsigned long long)c->val[k].tensor_size,
				        (long long)c->val[k].comm_size,
				        (unsigned long long)c->val[k].dur);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -1 : 0;
}

/* A reader of whitespace-separated tokens that knows its line. */
typedef struct rd {
	char *p, *end;
	const char *path;
	unsigned long line; /* of the last token read */
	bool nl;            /* that token ended a line */
	et_error *e;
} rd;

static int bad(rd *r, const char *what)
{
	return et_fail(r->e, ET_EXIT_DATA, "%s: line %lu: %s", r->path, r->line, what);
}

static char *token(rd *r)
{
	if (r->nl)
		r->line++, r->nl = false;
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r')) {
		if (*r->p == '\n')
			r->line++;
		r->p++;
	}
	if (r->p >= r->end)
		return NULL;
	char *s = r->p;
	while (r->p < r->end && *r->p != ' ' && *r->p != '\n' && *r->p != '\t' && *r->p != '\r')
		r->p++;
	if (r->p < r->end) {
		r->nl = *r->p == '\n';
		*r->p++ = '\0';
	}
	return s;
}

static int word(rd *r, const char *want)
{
	char *t = token(r);
	if (!t || strcmp(t, want) != 0) {
		char m[96];
		snprintf(m, sizeof m, "expected \"%s\"", want);
		return bad(r, m);
	}
	return 0;
}

static int number(rd *r, double lo, double hi, double *v)
{
	char *t = token(r), *end;
	if (!t)
		return bad(r, "expected a number, got the end of the file");
	errno = 0;
	double x = strtod(t, &end);
	if (*end || errno || !isfinite(x) || x < lo || x > hi)
		return bad(r, "expected a number in range");
	*v = x;
	return 0;
}

static int integer(rd *r, uint32_t hi, uint32_t *v)
{
	double x;
	if (number(r, 0, hi, &x) < 0)
		return -1;
	if (x != floor(x))
		return bad(r, "expected an integer");
	*v = (uint32_t)x;
	return 0;
}

/* A table of n numbers, allocated as they are read: the sizes come from the
 * file, and a short file must not cost n doubles. */
static int table(rd *r, const char *name, double **v, size_t n)
{
	if (word(r, name) < 0)
		return -1;
	size_t cap = 0;
	for (size_t i = 0; i < n; i++) {
		ET_GROW(*v, cap, i + 1);
		if (number(r, 0, 1e300, &(*v)[i]) < 0)
			return -1;
	}
	return 0;
}

/* A 64-bit integer token, exactly (signed: an int64 stored in *v's bits). */
static int exact(rd *r, bool is_signed, uint64_t *v)
{
	char *t = token(r), *end;
	if (!t)
		return bad(r, "expected an integer, got the end of the file");
	errno = 0;
	if (is_signed) {
		long long x = strtoll(t, &end, 10);
		memcpy(v, &(int64_t){x}, sizeof *v);
	} else {
		*v = t[0] == '-' ? 0 : strtoull(t, &end, 10);
		if (t[0] == '-')
			end = t;
	}
	if (end == t || *end || errno)
		return bad(r, "expected a 64-bit integer");
	return 0;
}

/* The ET attribute section: exactly vocab classes. */
static int parse_et(rd *r, cm_model *m)
{
	uint32_t n;
	if (integer(r, m->vocab, &n) < 0 || n != m->vocab)
		return bad(r, "expected \"et V\", one class per attribute");
	m->et.c = et_xcalloc(n, sizeof *m->et.c);
	m->et.n = m->et.cap = n;
	for (uint32_t i = 0; i < n; i++) {
		ld_et_class *c = &m->et.c[i];
		uint32_t f[6];
		static const uint32_t hi[6] = {255, 255, 255, 31, 31, LD_ET_KEEP};
		for (int k = 0; k < 6; k++)
			if (integer(r, hi[k], &f[k]) < 0)
				return -1;
		c->type = (uint8_t)f[0], c->ctype = (uint8_t)f[1], c->op = (uint8_t)f[2];
		c->sizeb = (uint8_t)f[3], c->durb = (uint8_t)f[4], c->nval = f[5];
		for (uint32_t k = 0; k < c->nval; k++)
			if (exact(r, true, (uint64_t *)&c->val[k].num_ops) < 0 ||
			    exact(r, false, &c->val[k].tensor_size) < 0 ||
			    exact(r, true, (uint64_t *)&c->val[k].comm_size) < 0 ||
			    exact(r, false, &c->val[k].dur) < 0)
				return -1;
	}
	return token(r) ? bad(r, "more after the model") : 0;
}

static int parse(rd *r, cm_model *m)
{
	uint32_t V, B, np;
	if (word(r, "layerdag-sample") < 0 || word(r, "counts") < 0 || word(r, "2") < 0)
		return bad(r, "not a layerdag-sample counts model (version 2)");
	if (word(r, "vocab") < 0 || integer(r, LD_MAX_ATTR, &V) < 0 || V == 0 ||
	    word(r, "buckets") < 0 || integer(r, 1024, &B) < 0 || B == 0)
		return bad(r, "expected \"vocab V buckets B\" (1 <= V <= 65536, 1 <= B <= 1024)");
	m->vocab = V, m->nyb = B;
	m->ybound = et_xcalloc(B, sizeof *m->ybound); /* B <= 1024 */
	if (word(r, "ybound") < 0)
		return -1;
	for (uint32_t b = 0; b + 1 < B; b++)
		if (number(r, -1e300, 1e300, &m->ybound[b]) < 0)
			return -1;
	if (word(r, "plans") < 0 || integer(r, 1u << 24, &np) < 0 || np == 0)
		return bad(r, "expected \"plans N\" (1 <= N <= 16777216)");
	m->nplan = np;
	size_t pcap = 0, acap = 0, ocap = 1, aocap = 1;
	size_t cap = 0;
	m->plan_off = et_xcalloc(1, sizeof *m->plan_off);
	m->plan_aoff = et_xcalloc(1, sizeof *m->plan_aoff);
	for (uint32_t p = 0; p < np; p++) {
		uint32_t L;
		/* grown as plans come, like the tables */
		ET_GROW(m->plan_y, pcap, (size_t)p + 1);
		ET_GROW(m->plan_off, ocap, (size_t)p + 2);
		ET_GROW(m->plan_aoff, aocap, (size_t)p + 2);
		if (number(r, -1e300, 1e300, &m->plan_y[p]) < 0 || integer(r, 1u << 20, &L) < 0)
			return -1;
		if (L == 0)
			return bad(r, "a plan of 0 layers");
		if ((uint64_t)m->plan_off[p] + L > CM_MAX_TOTAL ||
		    (uint64_t)m->plan_aoff[p] + LD_MAX_NODES > CM_MAX_TOTAL)
			return bad(r, "plans of more than 2^28 layers or nodes in all");
		if (p && m->plan_y[p] < m->plan_y[p - 1])
			return bad(r, "plans out of label order");
		m->plan_off[p + 1] = m->plan_off[p] + L;
		ET_GROW(m->plan_w, cap, (size_t)m->plan_off[p + 1]); /* grown as widths come */
		uint64_t nodes = 0;
		for (uint32_t l = 0; l < L; l++) {
			if (integer(r, LD_MAX_NODES, &m->plan_w[m->plan_off[p] + l]) < 0 ||
			    m->plan_w[m->plan_off[p] + l] == 0)
				return bad(r, "expected a layer width of 1 or more");
			nodes += m->plan_w[m->plan_off[p] + l];
		}
		if (nodes > LD_MAX_NODES)
			return bad(r, "a plan of more than 1048576 nodes");
		m->plan_aoff[p + 1] = m->plan_aoff[p] + (uint32_t)nodes;
		size_t c = acap, c2 = acap; /* parallel arrays: the same growth */
		ET_GROW(m->plan_a, acap, (size_t)m->plan_aoff[p + 1]);
		ET_GROW(m->plan_od, c, (size_t)m->plan_aoff[p + 1]);
		ET_GROW(m->plan_id, c2, (size_t)m->plan_aoff[p + 1]);
		for (uint32_t k = m->plan_aoff[p]; k < m->plan_aoff[p + 1]; k++)
			if (integer(r, V - 1, &m->plan_a[k]) < 0)
				return -1;
		for (uint32_t k = m->plan_aoff[p]; k < m->plan_aoff[p + 1]; k++)
			if (integer(r, CM_DEG - 1, &m->plan_od[k]) < 0)
				return -1;
		for (uint32_t k = m->plan_aoff[p]; k < m->plan_aoff[p + 1]; k++)
			if (integer(r, CM_DEG - 1, &m->plan_id[k]) < 0)
				return -1;
	}
	double *span = NULL;
	if (table(r, "attr_py", &m->attr_py, (size_t)CM_NPOS * B * V) < 0 ||
	    table(r, "attr_p", &m->attr_p, (size_t)CM_NPOS * V) < 0 ||
	    table(r, "attr_all", &m->attr_all, V) < 0 ||
	    table(r, "indeg", &m->indeg, (size_t)V * CM_DEG) < 0 ||
	    table(r, "outdeg", &m->outdeg, (size_t)V * CM_DEG) < 0 ||
	    table(r, "pred", &m->pred, (size_t)V * V) < 0 || table(r, "span", &span, CM_SPAN) < 0 ||
	    word(r, "sink") < 0) {
		free(span);
		return -1;
	}
	memcpy(m->span, span, sizeof m->span);
	free(span);
	m->sink = et_xcalloc(V, 1);
	for (uint32_t a = 0; a < V; a++) {
		uint32_t s;
		if (integer(r, 1, &s) < 0)
			return -1;
		m->sink[a] = (uint8_t)s;
	}
	char *t = token(r);
	if (!t)
		return 0;
	if (strcmp(t, "et") != 0)
		return bad(r, "more after the model");
	return parse_et(r, m);
}

int cm_read(cm_model *m, const char *path, et_error *e)
{
	memset(m, 0, sizeof *m);
	et_buf b = {0};
	gzFile f = gzopen(path, "rb");
	if (!f)
		return et_fail(e, ET_EXIT_IO, "%s: cannot open: %s", path, strerror(errno));
	int got;
	do {
		et_buf_reserve(&b, 65536);
		got = gzread(f, b.data + b.len, 65536);
		if (got > 0)
			b.len += (size_t)got;
	} while (got > 0 && b.len < ((size_t)1 << 30));
	gzclose(f);
	if (got < 0) {
		et_buf_free(&b);
		return et_fail(e, ET_EXIT_IO, "%s: read error", path);
	}
	et_buf_reserve(&b, 1);
	rd r = {
	    .p = (char *)b.data, .end = (char *)b.data + b.len, .path = path, .line = 1, .e = e};
	int rc = parse(&r, m);
	et_buf_free(&b);
	if (rc == 0)
		cm_roles(m);
	if (rc < 0)
		cm_free(m);
	return rc;
}
