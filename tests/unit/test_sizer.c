/* The layer-size classifier learns the corpus: its training loss falls well
 * below the loss of predicting the marginal of its classes (a layer's size
 * and whether it is the graph's last). */
#include "check.h"
#include "layerdag-sample/diffusion/diffmodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/../../samples/layerdag/tpu_tile_val.txt.gz",
	         argc > 1 ? argv[1] : "tests/data");
	ld_corpus c = {0};
	et_error e = {0};
	CHECK(ld_text_read(&c, path, &e) == 0 && c.n == 630);
	/* the first 120 graphs, for a quick test */
	ld_corpus sub = c;
	sub.n = 120;
	et_rng r;
	et_rng_seed(&r, 1, 0);
	ld_diff_conf cf;
	ld_diff_conf_default(&cf);
	cf.D = 16, cf.K = 2, cf.H = 32;
	ld_diffusion m;
	ld_diff_init(&m, &sub, &cf, &r);
	/* the loss of the marginal of the classes: the baseline to beat. A
	 * class is a layer's size (the widest is the corpus's) and whether the
	 * layer is the last. */
	uint32_t S = m.z.S;
	CHECK(S >= 2);
	double *cnt = calloc(2 * (size_t)S, sizeof *cnt), tot = 0;
	for (size_t i = 0; i < sub.n; i++) {
		uint32_t layer[200], w[200] = {0};
		uint32_t L = ld_layers(&sub.g[i], layer);
		for (uint32_t v = 0; v < sub.g[i].n; v++)
			w[layer[v]]++;
		for (uint32_t l = 0; l < L; l++)
			cnt[(w[l] < S ? w[l] : S - 1) + S * (l + 1 == L)] += 1, tot += 1;
	}
	double base = 0;
	for (uint32_t s = 0; s < 2 * S; s++)
		if (cnt[s] > 0)
			base -= cnt[s] / tot * log(cnt[s] / tot);
	free(cnt);
	double loss[3];
	ld_diff_epoch(&m, &sub, &cf, 3e-3, &r, loss);
	double first = loss[0], last = first;
	for (int ep = 0; ep < 12; ep++) {
		ld_diff_epoch(&m, &sub, &cf, 3e-3, &r, loss);
		last = loss[0];
	}
	fprintf(stderr, "sizer: %u sizes, marginal %.3f, epoch 1 %.3f, epoch 13 %.3f\n", S, base,
	        first, last);
	CHECK(last < first && last < 0.8 * base);
	ld_diff_free(&m);
	ld_corpus_free(&c);
	return check_failures();
}
