/* infragraph: netgraph_load and its kin (netgraph.h). A load reads the
 * whole text (bounded), builds the tree, reads the document and expands it;
 * every step's scratch lives in one arena freed at the end, so a failure
 * anywhere leaks nothing and leaves g zeroed. */
#include "et-sim/infragraph/infragraph.h"
#include "et_buf.h"
#include "et_mem.h"
#include <stdlib.h>
#include <string.h>

/* JSON when the first non-blank byte opens an object (netgraph.h). */
static bool looks_json(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i < n && s[i] == '{';
}

/* text[len] is '\0' (cJSON needs it). */
static int load_text(netgraph *g, const char *name, const char *text, size_t len, et_error *e)
{
	ig_ctx c = {.name = name, .json = looks_json(text, len), .e = e, .a = et_arena_new()};
	ig_doc d;
	memset(&d, 0, sizeof d);
	const ig_val *root = NULL;
	int r = c.json ? ig_tree_json(&c, text, len, &root) : ig_tree_yaml(&c, text, len, &root);
	if (r == 0)
		r = ig_doc_read(&c, root, &d);
	if (r == 0)
		r = ig_expand(&c, &d, g);
	ig_doc_free(&d);
	et_arena_free(c.a);
	return r;
}

int netgraph_load(netgraph *g, const char *path, et_error *e)
{
	et_buf b = {0};
	memset(g, 0, sizeof *g);
	int r = et_buf_read_file(&b, path, NETGRAPH_MAX_FILE, e);
	if (r == 0)
		r = load_text(g, path, b.data ? (const char *)b.data : "", b.len, e);
	et_buf_free(&b);
	return r;
}

int netgraph_load_mem(netgraph *g, const char *name, const char *data, size_t len, et_error *e)
{
	memset(g, 0, sizeof *g);
	if (len > NETGRAPH_MAX_FILE)
		return et_fail(e, ET_EXIT_DATA, "%s: larger than %zu bytes", name,
		               NETGRAPH_MAX_FILE);
	char *text = et_xmalloc(len + 1);
	if (len)
		memcpy(text, data, len);
	text[len] = 0;
	int r = load_text(g, name, text, len, e);
	free(text);
	return r;
}

void netgraph_free(netgraph *g)
{
	for (uint32_t i = 0; g->dev && i < g->ndev; i++)
		free(g->dev[i]);
	for (uint32_t i = 0; g->link_name && i < g->nlink; i++)
		free(g->link_name[i]);
	free(g->dev);
	free(g->link_name);
	free(g->link_nobw);
	free(g->edge);
	free(g->name);
	memset(g, 0, sizeof *g);
}

void netgraph_dump(const netgraph *g, FILE *f)
{
	for (uint32_t i = 0; i < g->ndev; i++)
		fprintf(f, "%s %u %s\n", i < g->nnpu ? "npu" : "dev", i, g->dev[i]);
	for (uint32_t i = 0; i < g->nlink; i++)
		fprintf(f, "link %u %s%s\n", i, g->link_name[i], g->link_nobw[i] ? " -" : "");
	for (size_t i = 0; i < g->nedge; i++) {
		const ng_edge *x = &g->edge[i];
		fprintf(f, "edge %u %u %u %g %g\n", x->a, x->b, x->link, x->bpns, x->lat_ns);
	}
}
