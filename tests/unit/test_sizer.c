/* The layer-size classifier learns the corpus: its training loss falls well
 * below the loss of predicting the marginal of its classes (a layer's size
 * and whether it is the graph's last). */
#include "check.h"
#include "layerdag-sample/sizer.h"

#include <math.h>
#include <stdio.h>
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
	/* the loss of the marginal of the classes: the baseline to beat */
	double cnt[64] = {0}, tot = 0;
	for (size_t i = 0; i < sub.n; i++) {
		uint32_t layer[200], w[200] = {0};
		uint32_t L = ld_layers(&sub.g[i], layer);
		for (uint32_t v = 0; v < sub.g[i].n; v++)
			w[layer[v]]++;
		for (uint32_t l = 0; l < L; l++)
			cnt[(w[l] < 31 ? w[l] : 31) + 32 * (l + 1 == L)] += 1, tot += 1;
	}
	double base = 0;
	for (int s = 0; s < 64; s++)
		if (cnt[s] > 0)
			base -= cnt[s] / tot * log(cnt[s] / tot);
	et_rng r;
	et_rng_seed(&r, 1, 0);
	ld_sizer z;
	ld_sizer_init(&z, c.vocab, 32, 16, 2, 32, &r);
	double first = ld_sizer_epoch(&z, &sub, 3e-3), last = first;
	for (int ep = 0; ep < 12; ep++)
		last = ld_sizer_epoch(&z, &sub, 3e-3);
	fprintf(stderr, "sizer: marginal %.3f, epoch 1 %.3f, epoch 13 %.3f\n", base, first, last);
	CHECK(last < first && last < 0.8 * base);
	ld_sizer_free(&z);
	ld_corpus_free(&c);
	return check_failures();
}
