/* The LayerDAG corpus text format (ld.h): a small strict line parser. */
#include "et_buf.h"
#include "et_mem.h"
#include "layerdag-sample/ld.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* The file ("-": standard input), decompressed when it is gzip (zlib reads
 * plain files as they are), at most 256 MiB. */
static int slurp(const char *path, et_buf *b, et_error *e)
{
	bool in = strcmp(path, "-") == 0; /* standard input */
	gzFile f = in ? gzdopen(dup(0), "rb") : gzopen(path, "rb");
	if (!f)
		return et_fail(e, ET_EXIT_IO, "%s: cannot open: %s", path, strerror(errno));
	const size_t max = (size_t)256 << 20;
	int rc = 0;
	for (;;) {
		et_buf_reserve(b, 65536);
		int got = gzread(f, b->data + b->len, 65536);
		if (got < 0) {
			int zerr;
			const char *m = gzerror(f, &zerr);
			rc = et_fail(e, zerr == Z_ERRNO ? ET_EXIT_IO : ET_EXIT_DATA, "%s: %s", path,
			             zerr == Z_ERRNO ? strerror(errno) : m);
			break;
		}
		if (got == 0)
			break;
		b->len += (size_t)got;
		if (b->len > max) {
			rc = et_fail(e, ET_EXIT_DATA, "%s: more than 256 MiB of text", path);
			break;
		}
	}
	gzclose(f);
	return rc;
}

typedef struct lexer {
	const char *p, *end, *name;
	unsigned long line;
	et_error *e;
} lexer;

/* The next line that is not blank nor a comment: [*s, *t); false at the end. */
static bool next_line(lexer *x, const char **s, const char **t)
{
	while (x->p < x->end) {
		const char *a = x->p, *nl = memchr(a, '\n', (size_t)(x->end - a));
		const char *b = nl ? nl : x->end;
		x->p = nl ? nl + 1 : x->end;
		x->line++;
		while (a < b && (*a == ' ' || *a == '\t' || *a == '\r'))
			a++;
		if (a == b || *a == '#')
			continue;
		*s = a, *t = b;
		return true;
	}
	return false;
}

static int bad(lexer *x, const char *what)
{
	return et_fail(x->e, ET_EXIT_DATA, "%s: line %lu: %s", x->name, x->line, what);
}

/* An unsigned decimal token at *s (blanks skipped), below lim. */
static int num(lexer *x, const char **s, const char *t, uint64_t lim, uint64_t *v, const char *what)
{
	while (*s < t && (**s == ' ' || **s == '\t' || **s == '\r'))
		++*s;
	if (*s == t || **s < '0' || **s > '9')
		return bad(x, what);
	uint64_t r = 0;
	while (*s < t && **s >= '0' && **s <= '9') {
		r = r * 10 + (uint64_t)(**s - '0');
		if (r >= lim) {
			char m[160];
			snprintf(m, sizeof m, "%s: at most %llu", what,
			         (unsigned long long)lim - 1);
			return bad(x, m);
		}
		++*s;
	}
	if (*s < t && **s != ' ' && **s != '\t' && **s != '\r')
		return bad(x, what);
	*v = r;
	return 0;
}

static bool at_end(const char *s, const char *t)
{
	while (s < t && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	return s == t;
}

/* "g <idx> <n> <ne> <y>" */
static int header(lexer *x, const char *s, const char *t, ld_dag *g)
{
	uint64_t idx, n, ne;
	if (*s != 'g' || s + 1 >= t || (s[1] != ' ' && s[1] != '\t'))
		return bad(x, "expected a graph line \"g <idx> <nodes> <edges> <y>\"");
	s++;
	if (num(x, &s, t, UINT32_MAX, &idx, "expected the graph's index") < 0 ||
	    num(x, &s, t, (uint64_t)LD_MAX_NODES + 1, &n, "expected the node count") < 0 ||
	    num(x, &s, t, (uint64_t)LD_MAX_EDGES + 1, &ne, "expected the edge count") < 0)
		return -1;
	if (n == 0)
		return bad(x, "a graph of 0 nodes");
	char buf[64];
	while (s < t && (*s == ' ' || *s == '\t'))
		s++;
	size_t k = (size_t)(t - s) < sizeof buf - 1 ? (size_t)(t - s) : sizeof buf - 1;
	memcpy(buf, s, k);
	buf[k] = '\0';
	char *endp;
	errno = 0;
	double y = strtod(buf, &endp);
	if (endp == buf || errno || !isfinite(y) || !at_end(endp, buf + k) || k == sizeof buf - 1)
		return bad(x, "expected the label y, a finite number");
	g->n = (uint32_t)n;
	g->ne = (uint32_t)ne;
	g->y = y;
	return 0;
}

static int attrs(lexer *x, ld_dag *g)
{
	const char *s, *t;
	if (!next_line(x, &s, &t) || *s != 'x')
		return bad(x, "expected the attribute line \"x <attr> ...\"");
	s++;
	g->attr = et_xcalloc(g->n, sizeof *g->attr);
	for (uint32_t i = 0; i < g->n; i++) {
		uint64_t v;
		if (num(x, &s, t, LD_MAX_ATTR, &v, "expected one attribute per node") < 0)
			return -1;
		g->attr[i] = (uint32_t)v;
	}
	return at_end(s, t) ? 0 : bad(x, "more attributes than nodes");
}

static int edges(lexer *x, ld_dag *g)
{
	size_t cap = 0;
	for (uint32_t k = 0; k < g->ne; k++) {
		const char *s, *t;
		if (!next_line(x, &s, &t) || *s != 'e')
			return bad(x, "expected an edge line \"e <src> <dst>\"");
		s++;
		uint64_t a, b;
		if (num(x, &s, t, g->n, &a, "expected the edge's source, a node") < 0 ||
		    num(x, &s, t, g->n, &b, "expected the edge's target, a node") < 0)
			return -1;
		if (!at_end(s, t))
			return bad(x, "expected \"e <src> <dst>\"");
		/* grown as lines come: the count is not trusted */
		ET_GROW(g->edge, cap, (size_t)k + 1);
		g->edge[k][0] = (uint32_t)a;
		g->edge[k][1] = (uint32_t)b;
	}
	return 0;
}

int ld_text_parse(ld_corpus *c, const char *text, size_t len, const char *name, et_error *e)
{
	lexer x = {.p = text, .end = text + len, .name = name, .e = e};
	const char *s, *t;
	while (next_line(&x, &s, &t)) {
		ld_dag g = {0};
		if (header(&x, s, t, &g) < 0 || attrs(&x, &g) < 0 || edges(&x, &g) < 0) {
			ld_dag_free(&g);
			return -1;
		}
		ET_GROW(c->g, c->cap, (size_t)c->n + 1);
		for (uint32_t i = 0; i < g.n; i++)
			if (g.attr[i] + 1 > c->vocab)
				c->vocab = g.attr[i] + 1;
		c->g[c->n++] = g;
	}
	return 0;
}

int ld_text_read(ld_corpus *c, const char *path, et_error *e)
{
	et_buf b = {0};
	int rc = slurp(path, &b, e);
	if (rc == 0)
		rc = ld_text_parse(c, b.data ? (const char *)b.data : "", b.len, path, e);
	et_buf_free(&b);
	return rc;
}

void ld_text_write(const ld_dag *g, size_t idx, FILE *f)
{
	fprintf(f, "g %zu %u %u %.17g\nx", idx, g->n, g->ne, g->y);
	for (uint32_t i = 0; i < g->n; i++)
		fprintf(f, " %u", g->attr[i]);
	fputc('\n', f);
	for (uint32_t k = 0; k < g->ne; k++)
		fprintf(f, "e %u %u\n", g->edge[k][0], g->edge[k][1]);
}

void ld_dag_free(ld_dag *g)
{
	free(g->attr);
	free(g->edge);
	memset(g, 0, sizeof *g);
}

void ld_corpus_free(ld_corpus *c)
{
	for (size_t i = 0; i < c->n; i++)
		ld_dag_free(&c->g[i]);
	free(c->g);
	memset(c, 0, sizeof *c);
}

bool ld_is_text(const char *path)
{
	if (strcmp(path, "-") == 0)
		return false;
	gzFile f = gzopen(path, "rb");
	if (!f) /* a per-rank set PREFIX, or missing: the ET reader says which */
		return false;
	char b[64];
	int n = gzread(f, b, sizeof b);
	gzclose(f);
	int i = 0;
	while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
		i++;
	return i == n || b[i] == '#' ||
	       (b[i] == 'g' && i + 1 < n && (b[i + 1] == ' ' || b[i + 1] == '\t'));
}
