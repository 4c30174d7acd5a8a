/* Kahn layers and validity (ld.h). */
#include "et_mem.h"
#include "layerdag-sample/ld.h"

#include <stdlib.h>
#include <string.h>

/* Successor lists in CSR form: off[n+1], to[ne]. */
static void csr(const ld_dag *g, uint32_t **off, uint32_t **to)
{
	*off = et_xcalloc((size_t)g->n + 1, sizeof **off);
	*to = et_xcalloc(g->ne ? g->ne : 1, sizeof **to);
	for (uint32_t k = 0; k < g->ne; k++)
		(*off)[g->edge[k][0] + 1]++;
	for (uint32_t i = 0; i < g->n; i++)
		(*off)[i + 1] += (*off)[i];
	uint32_t *fill = et_xcalloc((size_t)g->n + 1, sizeof *fill);
	for (uint32_t k = 0; k < g->ne; k++) {
		uint32_t s = g->edge[k][0];
		(*to)[(*off)[s] + fill[s]++] = g->edge[k][1];
	}
	free(fill);
}

uint32_t ld_layers(const ld_dag *g, uint32_t *layer)
{
	uint32_t *off, *to;
	csr(g, &off, &to);
	uint32_t *indeg = et_xcalloc(g->n, sizeof *indeg), *queue = et_xcalloc(g->n, sizeof *queue);
	for (uint32_t k = 0; k < g->ne; k++)
		indeg[g->edge[k][1]]++;
	uint32_t head = 0, tail = 0, layers = 0;
	for (uint32_t i = 0; i < g->n; i++) {
		layer[i] = 0;
		if (!indeg[i])
			queue[tail++] = i;
	}
	while (head < tail) {
		uint32_t u = queue[head++];
		if (layer[u] + 1 > layers)
			layers = layer[u] + 1;
		for (uint32_t k = off[u]; k < off[u + 1]; k++) {
			uint32_t v = to[k];
			if (layer[u] + 1 > layer[v])
				layer[v] = layer[u] + 1;
			if (--indeg[v] == 0)
				queue[tail++] = v;
		}
	}
	free(off);
	free(to);
	free(indeg);
	free(queue);
	return tail == g->n ? layers : 0;
}

static int edge_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;
	return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : x[1] != y[1] ? (x[1] < y[1] ? -1 : 1) : 0;
}

static int edge_dst_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;
	uint32_t kx[2] = {x[1], x[0]}, ky[2] = {y[1], y[0]};
	return edge_cmp(kx, ky);
}

void ld_dag_layer_sort(ld_dag *g)
{
	uint32_t *layer = et_xcalloc((size_t)g->n + 1, sizeof *layer);
	uint32_t L = ld_layers(g, layer);
	if (L == 0 && g->n) {
		free(layer);
		return;
	}
	/* a counting sort by layer keeps ids in order within a layer */
	uint32_t *start = et_xcalloc((size_t)L + 1, sizeof *start);
	uint32_t *to = et_xcalloc((size_t)g->n + 1, sizeof *to);
	uint32_t *attr = et_xcalloc((size_t)g->n + 1, sizeof *attr);
	for (uint32_t v = 0; v < g->n; v++)
		start[layer[v] + 1]++;
	for (uint32_t l = 1; l <= L; l++)
		start[l] += start[l - 1];
	for (uint32_t v = 0; v < g->n; v++) {
		to[v] = start[layer[v]]++;
		attr[to[v]] = g->attr[v];
	}
	for (uint32_t k = 0; k < g->ne; k++)
		g->edge[k][0] = to[g->edge[k][0]], g->edge[k][1] = to[g->edge[k][1]];
	if (g->ne)
		qsort(g->edge, g->ne, sizeof *g->edge, edge_dst_cmp);
	if (g->n)
		memcpy(g->attr, attr, (size_t)g->n * sizeof *attr);
	free(layer), free(start), free(to), free(attr);
}

bool ld_valid(const ld_dag *g)
{
	for (uint32_t k = 0; k < g->ne; k++)
		if (g->edge[k][0] >= g->n || g->edge[k][1] >= g->n ||
		    g->edge[k][0] == g->edge[k][1])
			return false;
	uint32_t(*e)[2] = et_xcalloc(g->ne ? g->ne : 1, sizeof *e);
	if (g->ne) /* an edgeless graph may have no edge array */
		memcpy(e, g->edge, (size_t)g->ne * sizeof *e);
	qsort(e, g->ne, sizeof *e, edge_cmp);
	bool dup = false;
	for (uint32_t k = 1; k < g->ne && !dup; k++)
		dup = e[k][0] == e[k - 1][0] && e[k][1] == e[k - 1][1];
	free(e);
	if (dup)
		return false;
	uint32_t *layer = et_xcalloc(g->n, sizeof *layer);
	bool ok = ld_layers(g, layer) > 0;
	free(layer);
	return ok;
}
