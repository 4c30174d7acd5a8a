/* The attribute denoiser learns: after training on corpus graphs its loss
 * (the clean attributes' cross-entropy, at random steps) is well below the
 * entropy of the attribute marginal, which is what a model that ignored
 * both the noisy input and the prefix would reach. */
#include "check.h"
#include "layerdag-sample/diffusion/diffmodel.h"

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
	ld_diff_conf cf;
	ld_diff_conf_default(&cf);
	cf.D = 16, cf.K = 2, cf.H = 32, cf.T = 64;
	ld_diffusion m;
	ld_diff_init(&m, &sub, &cf, &r);
	const ld_attrdiff *a = &m.a;
	double H = 0, loss[3];
	for (uint32_t k = 0; k < a->vocab; k++)
		if (a->marginal[k] > 0)
			H -= a->marginal[k] * log(a->marginal[k]);
	ld_diff_epoch(&m, &sub, &cf, 3e-3, &r, loss);
	double first = loss[1], last = first;
	for (int ep = 0; ep < 10; ep++) {
		ld_diff_epoch(&m, &sub, &cf, 3e-3, &r, loss);
		last = loss[1];
	}
	fprintf(stderr, "attrdiff: marginal entropy %.3f, epoch 1 %.3f, epoch 11 %.3f\n", H, first,
	        last);
	CHECK(last < first && last < 0.7 * H);
	ld_diff_free(&m);
	ld_corpus_free(&c);
	return check_failures();
}
