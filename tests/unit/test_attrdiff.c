/* The attribute denoiser learns: after training on corpus graphs its loss
 * (the clean attributes' cross-entropy, at random steps) is well below the
 * entropy of the attribute marginal, which is what a model that ignored
 * both the noisy input and the prefix would reach. */
#include "check.h"
#include "layerdag-sample/attrdiff.h"

#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/../../samples/layerdag/tpu_tile_val.txt.gz",
	         argc > 1 ? argv[1] : "tests/data");
	ld_corpus c = {0};
	et_error e = {0};
	CHECK(ld_text_read(&c, path, &e) == 0 && c.n == 630);
	ld_corpus sub = c;
	sub.n = 100;
	et_rng r;
	et_rng_seed(&r, 2, 0);
	ld_attrdiff a;
	ld_attrdiff_init(&a, &c, 64, 16, 2, 32, &r);
	double H = 0;
	for (uint32_t k = 0; k < a.vocab; k++)
		if (a.marginal[k] > 0)
			H -= a.marginal[k] * log(a.marginal[k]);
	double first = ld_attrdiff_epoch(&a, &sub, 3e-3, &r), last = first;
	for (int ep = 0; ep < 10; ep++)
		last = ld_attrdiff_epoch(&a, &sub, 3e-3, &r);
	fprintf(stderr, "attrdiff: marginal entropy %.3f, epoch 1 %.3f, epoch 11 %.3f\n", H, first,
	        last);
	CHECK(last < first && last < 0.7 * H);
	ld_attrdiff_free(&a);
	ld_corpus_free(&c);
	return check_failures();
}
