/* layerdag-sample's pieces: Kahn layers, validity, MMD², the graph hash
 * and the ridge surrogate, on graphs whose answers are known by hand; the
 * layer order and the windowed views of the diffusion model (context.h). */
#include "check.h"
#include "et_rng.h"
#include "layerdag-sample/counts/counts.h"
#include "layerdag-sample/diffusion/context.h"
#include "layerdag-sample/eval/metrics.h"
#include "layerdag-sample/ld.h"

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

/* A random DAG of L Kahn layers (widths 1 .. 3, each node one predecessor
 * in the layer before and up to two from any earlier one), its node ids
 * shuffled; layer[] gets the layers by the new ids. */
static ld_dag random_layered(uint32_t L, et_rng *r, uint32_t *layer)
{
	uint32_t n = 0, ne = 0, first[64] = {0}, perm[256];
	ld_dag g = {.attr = calloc(256, sizeof *g.attr), .edge = calloc(1024, sizeof *g.edge)};
	for (uint32_t l = 0; l < L; l++) {
		first[l] = n;
		for (uint32_t k = 0, w = 1 + (uint32_t)et_rng_below(r, 3); k < w; k++, n++) {
			layer[n] = l, g.attr[n] = (uint32_t)et_rng_below(r, 5);
			if (l == 0)
				continue;
			uint32_t p =
			    first[l - 1] + (uint32_t)et_rng_below(r, first[l] - first[l - 1]);
			g.edge[ne][0] = p, g.edge[ne++][1] = n;
			for (uint32_t x = 0, more = (uint32_t)et_rng_below(r, 3); x < more; x++) {
				uint32_t q = (uint32_t)et_rng_below(r, first[l]);
				bool dup = false;
				for (uint32_t k2 = 0; k2 < ne; k2++)
					dup |= g.edge[k2][0] == q && g.edge[k2][1] == n;
				if (!dup)
					g.edge[ne][0] = q, g.edge[ne++][1] = n;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = (uint32_t)et_rng_below(r, i), t = perm[i - 1];
		perm[i - 1] = perm[j], perm[j] = t;
	}
	uint32_t attr[256], lay[256];
	for (uint32_t i = 0; i < n; i++)
		attr[perm[i]] = g.attr[i], lay[perm[i]] = layer[i];
	memcpy(g.attr, attr, n * sizeof *attr);
	memcpy(layer, lay, n * sizeof *lay);
	for (uint32_t k = 0; k < ne; k++)
		g.edge[k][0] = perm[g.edge[k][0]], g.edge[k][1] = perm[g.edge[k][1]];
	g.n = n, g.ne = ne;
	return g;
}

/* ld_dag_layer_sort keeps the graph (attributes, layer widths, edges by
 * layer) and puts it in the order a window bisects. */
static void test_layer_sort(const ld_dag *g, const uint32_t *before, uint32_t L)
{
	uint32_t *layer = calloc(g->n, sizeof *layer), hist[2][64][5] = {{{0}}};
	CHECK(ld_layers(g, layer) == L);
	for (uint32_t v = 0; v < g->n; v++) {
		CHECK(v == 0 || layer[v] >= layer[v - 1]);
		hist[1][layer[v]][g->attr[v]]++;
	}
	for (uint32_t k = 1; k < g->ne; k++)
		CHECK(g->edge[k][1] > g->edge[k - 1][1] ||
		      (g->edge[k][1] == g->edge[k - 1][1] && g->edge[k][0] > g->edge[k - 1][0]));
	for (uint32_t k = 0; k < g->ne; k++)
		CHECK(layer[g->edge[k][0]] < layer[g->edge[k][1]]);
	for (uint32_t l = 0; l < L; l++)
		for (int a = 0; a < 5; a++)
			hist[0][l][a] += before[l * 5 + (uint32_t)a];
	CHECK(memcmp(hist[0], hist[1], sizeof hist[0]) == 0);
	free(layer);
}

/* A windowed view holds the nodes of layers l − W .. l, the prefix edges
 * among them, and the whole prefix's count; a window at least as deep as
 * the graph is no window. */
static void test_window_views(const ld_dag *g, uint32_t L)
{
	uint32_t *layer = calloc(g->n, sizeof *layer);
	ld_layers(g, layer);
	double arity[5] = {1, 2, 0.5, 1, 3};
	for (uint32_t l = 0; l < L; l++) {
		for (uint32_t W = 0; W <= L; W++) {
			uint32_t lo = W && l > W ? l - W : 0, n = 0, B = 0, prefix = 0, ne = 0;
			for (uint32_t v = 0; v < g->n; v++) {
				n += layer[v] >= lo && layer[v] <= l;
				B += layer[v] >= lo && layer[v] < l;
				prefix += layer[v] < l;
			}
			for (uint32_t k = 0; k < g->ne; k++)
				ne += layer[g->edge[k][0]] >= lo && layer[g->edge[k][1]] < l;
			ld_cond c = {.ymu = 0, .ysd = 1, .arity = arity, .window = W};
			ld_view v, all;
			ld_view_build(&v, g, layer, l, true, 5, &c, true);
			CHECK(v.n == n && v.B == B && v.w == n - B && v.prefix == prefix &&
			      v.ne == ne);
			for (uint32_t i = 0; i < v.n; i++)
				CHECK(ld_view_ix(&v, v.node[i]) == i);
			CHECK(ld_window_lo(layer, g->n, l, W) == (v.n ? v.node[0] : v.lo));
			c.window = 0;
			ld_view_build(&all, g, layer, l, true, 5, &c, true);
			if (W >= l) /* the window holds the whole prefix */
				CHECK(v.n == all.n && v.ne == all.ne && v.demand == all.demand &&
				      memcmp(v.X, all.X, (size_t)v.n * v.F * sizeof *v.X) == 0 &&
				      memcmp(v.E, all.E, v.ne * sizeof *v.E) == 0);
			ld_view_free(&v);
			ld_view_free(&all);
		}
	}
	free(layer);
}

static void test_windows(void)
{
	et_rng r;
	et_rng_seed(&r, 3, 0);
	for (int rep = 0; rep < 20; rep++) {
		uint32_t L = 1 + (uint32_t)et_rng_below(&r, 12), layer[256], hist[64 * 5] = {0};
		ld_dag g = random_layered(L, &r, layer);
		for (uint32_t v = 0; v < g.n; v++)
			hist[layer[v] * 5 + g.attr[v]]++;
		ld_dag_layer_sort(&g);
		test_layer_sort(&g, hist, L);
		test_window_views(&g, L);
		ld_dag_free(&g);
	}
}

/* The roles of a hand-made corpus, the rules graphs break against them,
 * and counts-model samples that break none. */
static void test_roles(void)
{
	/* attribute 0: a source with successors; 1: never a sink nor a source; 2: once a
	 * sink, once a source with a successor; 3, 4: always sinks, never sources; 5: absent */
	const uint32_t a1[] = {0, 1, 2, 3}, e1[][2] = {{0, 1}, {0, 2}, {1, 3}};
	const uint32_t a2[] = {0, 1, 4}, e2[][2] = {{0, 1}, {1, 2}, {0, 2}};
	const uint32_t a3[] = {4, 2}, e3[][2] = {{1, 0}};
	ld_dag gs[3] = {make(4, a1, 3, e1, 1), make(3, a2, 3, e2, 2), make(2, a3, 1, e3, 3)};
	ld_corpus c = {.g = gs, .n = 3, .cap = 3, .vocab = 6};
	uint8_t role[6];
	ld_roles_fit(&c, 6, role);
	const uint8_t want[6] = {
	    LD_ROLE_SEEN | LD_ROLE_NOSINK,
	    LD_ROLE_SEEN | LD_ROLE_NOSINK | LD_ROLE_NOSOURCE,
	    LD_ROLE_SEEN,
	    LD_ROLE_SEEN | LD_ROLE_SINK | LD_ROLE_NOSOURCE,
	    LD_ROLE_SEEN | LD_ROLE_SINK | LD_ROLE_NOSOURCE,
	    LD_ROLE_SINK, /* absent: a generator gives it no successor, eval judges it not */
	};
	for (int a = 0; a < 6; a++)
		CHECK(role[a] == want[a]);

	const uint32_t h1[] = {1, 3}, h2[] = {0, 1}, h3[] = {0, 3, 1}, h4[] = {0, 5}, h5[] = {2};
	const uint32_t f1[][2] = {{0, 1}}, f3[][2] = {{0, 1}, {1, 2}};
	ld_dag t1 = make(2, h1, 1, f1, 0), t2 = make(2, h2, 1, f1, 0), t3 = make(3, h3, 2, f3, 0),
	       t4 = make(2, h4, 1, f1, 0), t5 = make(1, h5, 0, f1, 0);
	CHECK(ld_roles_broken(&t1, role, 6) == LD_RULE_SOURCE); /* 1 a source */
	CHECK(ld_roles_broken(&t2, role, 6) == LD_RULE_SINK);   /* 1 a sink */
	CHECK(ld_roles_broken(&t3, role, 6) == (LD_RULE_SINK | LD_RULE_SUCCESSOR));
	CHECK(ld_roles_broken(&t4, role, 6) == 0); /* 5: no rule known */
	CHECK(ld_roles_broken(&t5, role, 6) == 0); /* 2: a sink and a source both seen */
	ld_dag *ts[] = {&t1, &t2, &t3, &t4, &t5};
	for (int i = 0; i < 5; i++)
		ld_dag_free(ts[i]);

	/* the counts model learns the same roles from its plans, and its samples keep them */
	cm_model m;
	cm_fit(&c, 2, &m);
	CHECK(memcmp(m.role, want, 6) == 0);
	et_rng r;
	et_rng_seed(&r, 7, 0);
	uint32_t used[3] = {0};
	int broken = 0;
	for (int i = 0; i < 300; i++) {
		ld_dag g;
		cm_sample(&m, 1 + i % 3, used, &r, &g);
		broken += ld_roles_broken(&g, m.role, 6) != 0 || !ld_valid(&g);
		ld_dag_free(&g);
	}
	CHECK(broken == 0);
	cm_free(&m);
	for (int i = 0; i < 3; i++)
		ld_dag_free(&gs[i]);
}

/* The counts model's pairs of nodes by span and its attributes by role,
 * from its plans: a chain of 13 nodes (one per layer) and a graph of widths
 * 1, 2. */
static void test_counts_plans(void)
{
	uint32_t attr[13] = {0}, edge[12][2];
	for (uint32_t k = 0; k < 12; k++)
		edge[k][0] = k, edge[k][1] = k + 1, attr[k + 1] = k + 1 < 12 ? 1 : 2;
	const uint32_t a2[] = {0, 1, 2}, e2[][2] = {{0, 1}, {0, 2}};
	ld_dag gs[2] = {make(13, attr, 12, (const uint32_t(*)[2])edge, 1), make(3, a2, 2, e2, 2)};
	ld_corpus c = {.g = gs, .n = 2, .cap = 2, .vocab = 3};
	cm_model m;
	cm_fit(&c, 1, &m);
	/* the chain: 13 - s pairs at span s; the last bucket holds spans 10, 11 and 12
	 * (3 + 2 + 1); the other graph: 2 pairs at span 1 */
	for (uint32_t sp = 1; sp < CM_SPAN - 1; sp++)
		CHECK(m.span_pairs[sp] == 13 - sp + (sp == 1 ? 2 : 0));
	CHECK(m.span_pairs[CM_SPAN - 1] == 6 && m.span_pairs[0] == 0);
	/* attribute 0 (first layers, with successors), 1 (middle layers, with), 2 (last
	 * layers, without): position 0 = the first layer, 1 = the last */
	const double *first_with = m.attr_role + ((size_t)0 * 2 + 1) * 3,
	             *last_without = m.attr_role + ((size_t)1 * 2 + 0) * 3;
	CHECK(first_with[0] == 2 && first_with[1] == 0 && first_with[2] == 0);
	CHECK(last_without[0] == 0 && last_without[1] == 1 && last_without[2] == 2);
	double all = 0;
	for (size_t i = 0; i < (size_t)CM_NPOS * 2 * 3; i++)
		all += m.attr_role[i];
	CHECK(all == 16);
	cm_free(&m);
	ld_dag_free(&gs[0]);
	ld_dag_free(&gs[1]);
}

int main(void)
{
	test_layers();
	test_windows();
	test_mmd();
	test_hash();
	test_surrogate();
	test_roles();
	test_counts_plans();
	return check_failures();
}
