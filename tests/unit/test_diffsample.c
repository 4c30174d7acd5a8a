/* The diffusion model's sampler, after a short training: every sample is a
 * valid DAG whose Kahn layers are the ones it was generated in, and the
 * same seed gives the same graphs. */
#include "check.h"
#include "layerdag-sample/diffsample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void train(ld_diffusion *m, const ld_corpus *c, et_rng *r)
{
	uint32_t V = c->vocab;
	ld_sizer_init(&m->z, V, 24, 16, 2, 32, r);
	ld_cond_fit(&m->z.cond, c);
	ld_attrdiff_init(&m->a, c, 16, 16, 2, 32, r);
	ld_edgediff_init(&m->e, c, 8, 16, 2, 32, r);
	m->sink = calloc(V, 1);
	memset(m->sink, 1, V);
	for (size_t i = 0; i < c->n; i++)
		for (uint32_t k = 0; k < c->g[i].ne; k++)
			m->sink[c->g[i].attr[c->g[i].edge[k][0]]] = 0;
	for (int ep = 0; ep < 4; ep++) {
		ld_sizer_epoch(&m->z, c, 3e-3);
		ld_attrdiff_epoch(&m->a, c, 3e-3, r);
		ld_edgediff_epoch(&m->e, c, 3e-3, r);
	}
}

static void sample_all(ld_diffusion *m, uint64_t seed, ld_dag *out, int n)
{
	et_rng r;
	et_rng_seed(&r, seed, 1);
	for (int i = 0; i < n; i++)
		ld_diff_sample(m, 1.0 + i, &r, 40, &out[i]);
}

int main(int argc, char **argv)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/../../samples/layerdag/tpu_tile_val.txt.gz",
	         argc > 1 ? argv[1] : "tests/data");
	ld_corpus c = {0};
	et_error e = {0};
	CHECK(ld_text_read(&c, path, &e) == 0);
	ld_corpus sub = c;
	sub.n = 60;
	et_rng r;
	et_rng_seed(&r, 9, 0);
	ld_diffusion m;
	train(&m, &sub, &r);
	enum { NS = 12 };
	ld_dag a[NS], b[NS];
	sample_all(&m, 5, a, NS);
	sample_all(&m, 5, b, NS);
	for (int i = 0; i < NS; i++) {
		CHECK(a[i].n >= 1 && ld_valid(&a[i]));
		uint32_t *layer = calloc(a[i].n, sizeof *layer);
		uint32_t L = ld_layers(&a[i], layer);
		CHECK(L >= 1);
		/* generated in layer order: node ids never go down a layer */
		for (uint32_t v = 1; v < a[i].n; v++)
			CHECK(layer[v] >= layer[v - 1]);
		/* no successor on a sink role */
		for (uint32_t k = 0; k < a[i].ne; k++)
			CHECK(!m.sink[a[i].attr[a[i].edge[k][0]]]);
		free(layer);
		CHECK(a[i].n == b[i].n && a[i].ne == b[i].ne &&
		      memcmp(a[i].attr, b[i].attr, a[i].n * sizeof *a[i].attr) == 0);
		ld_dag_free(&a[i]);
		ld_dag_free(&b[i]);
	}
	ld_sizer_free(&m.z);
	ld_attrdiff_free(&m.a);
	ld_edgediff_free(&m.e);
	free(m.sink);
	ld_corpus_free(&c);
	return check_failures();
}
