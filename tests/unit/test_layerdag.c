/* layerdag-sample's pieces: Kahn layers, validity, MMD², the graph hash
 * and the ridge surrogate, on graphs whose answers are known by hand. */
#include "check.h"
#include "layerdag-sample/ld.h"
#include "layerdag-sample/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static ld_dag make(uint32_t n, const uint32_t *attr, uint32_t ne, const uint32_t (*edge)[2],
                   double y)
{
	ld_dag g = {.n = n, .ne = ne, .y = y};
	g.attr = malloc(n * sizeof *g.attr);
	memcpy(g.attr, attr, n * sizeof *attr);
	g.edge = malloc((ne ? ne : 1) * sizeof *g.edge);
	memcpy(g.edge, edge, ne * sizeof *edge);
	return g;
}

static void test_layers(void)
{
	/* 0 -> 1 -> 3, 0 -> 2, 2 -> 3: layers 0, 1, 1, 2 */
	const uint32_t a[] = {1, 2, 3, 4}, e[][2] = {{0, 1}, {1, 3}, {0, 2}, {2, 3}};
	ld_dag g = make(4, a, 4, e, 0);
	uint32_t l[4];
	CHECK(ld_layers(&g, l) == 3 && l[0] == 0 && l[1] == 1 && l[2] == 1 && l[3] == 2);
	CHECK(ld_valid(&g));
	g.edge[3][0] = 3, g.edge[3][1] = 0; /* 3 -> 0 closes a cycle */
	CHECK(ld_layers(&g, l) == 0 && !ld_valid(&g));
	ld_dag_free(&g);
	const uint32_t e2[][2] = {{0, 1}, {0, 1}};
	ld_dag d = make(2, a, 2, e2, 0);
	CHECK(!ld_valid(&d)); /* a duplicate edge */
	ld_dag_free(&d);
}

/* The unbiased MMD²: within a set over pairs i != j, across over all. */
static void test_mmd(void)
{
	double pp[] = {1, 0, 1, 0}, qq[] = {0, 1, 0, 1}, pq[] = {1, 0, 0, 1};
	CHECK(fabs(ld_mmd2(pp, 2, pp, 2, 2, 0.1)) < 1e-15);
	/* TV(p, q) = 1: k = e^-50 */
	CHECK(fabs(ld_mmd2(pp, 2, qq, 2, 2, 0.1) - (2 - 2 * exp(-50.0))) < 1e-12);
	/* {p, q} against {p, p}: e^-50 + 1 - 2 (2 + 2e^-50) / 4 = 0 */
	CHECK(fabs(ld_mmd2(pq, 2, pp, 2, 2, 0.1)) < 1e-12);
	/* a set of one has no pair within: only the cross term */
	CHECK(fabs(ld_mmd2(pp, 1, pp, 1, 2, 0.1) + 2) < 1e-15);
}

static void test_hash(void)
{
	const uint32_t a[] = {5, 6, 7}, e[][2] = {{0, 1}, {0, 2}};
	/* the same graph with its nodes renumbered: 0 -> 2, 1 -> 0, 2 -> 1 */
	const uint32_t b[] = {6, 7, 5}, f[][2] = {{2, 0}, {2, 1}};
	const uint32_t c[] = {5, 6, 7}, h[][2] = {{0, 1}, {1, 2}};
	ld_dag g = make(3, a, 2, e, 0), g2 = make(3, b, 2, f, 0), g3 = make(3, c, 2, h, 0);
	CHECK(ld_graph_hash(&g) == ld_graph_hash(&g2));
	CHECK(ld_graph_hash(&g) != ld_graph_hash(&g3));
	g2.edge[0][0] = 0, g2.edge[0][1] = 2; /* reversed edge: another graph */
	CHECK(ld_graph_hash(&g) != ld_graph_hash(&g2));
	ld_dag_free(&g);
	ld_dag_free(&g2);
	ld_dag_free(&g3);
}

/* y = the node count of a chain: the surrogate learns it. */
static void test_surrogate(void)
{
	ld_dag gs[12];
	const ld_dag *tr[8], *te[4];
	uint32_t attr[16] = {0};
	uint32_t edge[16][2];
	for (int i = 0; i < 12; i++) {
		uint32_t n = (uint32_t)(2 + i);
		for (uint32_t k = 0; k + 1 < n; k++)
			edge[k][0] = k, edge[k][1] = k + 1;
		gs[i] = make(n, attr, n - 1, (const uint32_t(*)[2])edge, (double)n);
	}
	/* trained on 8 sizes, tested on 4 sizes between them */
	for (int i = 0, a = 0, b = 0; i < 12; i++) {
		if (i % 3 == 1)
			te[b++] = &gs[i];
		else
			tr[a++] = &gs[i];
	}
	ld_surrogate s = ld_surrogate_score(tr, 8, te, 4, 1);
	CHECK(s.pearson > 0.999 && s.spearman > 0.999 && s.mae < 0.5);
	for (int i = 0; i < 12; i++)
		ld_dag_free(&gs[i]);
}

int main(void)
{
	test_layers();
	test_mmd();
	test_hash();
	test_surrogate();
	return check_failures();
}
