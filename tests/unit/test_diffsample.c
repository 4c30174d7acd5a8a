/* The diffusion model's sampler, after a short training: every sample is a
 * valid DAG whose Kahn layers are the ones it was generated in, and the
 * same seed gives the same graphs. */
#include "check.h"
#include "layerdag-sample/diffusion/diffmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A short training: small networks, 4 epochs. */
static void train(ld_diffusion *m, ld_corpus *c, et_rng *r)
{
	ld_diff_conf cf;
	ld_diff_conf_default(&cf);
	cf.D = 16, cf.K = 2, cf.H = 32, cf.T = 16, cf.Te = 8, cf.epochs = 4;
	ld_diff_fit(m, c, &cf, r);
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
			CHECK(!(m.role[a[i].attr[a[i].edge[k][0]]] & LD_ROLE_SINK));
		free(layer);
		CHECK(a[i].n == b[i].n && a[i].ne == b[i].ne &&
		      memcmp(a[i].attr, b[i].attr, a[i].n * sizeof *a[i].attr) == 0);
		ld_dag_free(&a[i]);
		ld_dag_free(&b[i]);
	}
	ld_diff_free(&m);
	ld_corpus_free(&c);
	return check_failures();
}
