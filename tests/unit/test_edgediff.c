/* The edge denoiser learns: its loss on corpus graphs falls below the
 * entropy of the edges' Bernoulli marginal. */
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
	sub.n = 80;
	et_rng r;
	et_rng_seed(&r, 4, 0);
	ld_diff_conf cf;
	ld_diff_conf_default(&cf);
	cf.D = 16, cf.K = 2, cf.H = 32, cf.Te = 16;
	ld_diffusion m;
	ld_diff_init(&m, &sub, &cf, &r);
	double loss[3];
	ld_diff_epoch(&m, &sub, &cf, 3e-3, &r, loss);
	double first = loss[2], last = first;
	for (int ep = 0; ep < 8; ep++) {
		ld_diff_epoch(&m, &sub, &cf, 3e-3, &r, loss);
		last = loss[2];
	}
	fprintf(stderr, "edgediff: mean in-degree %.3f, epoch 1 %.4f, epoch 9 %.4f\n", m.e.dbar,
	        first, last);
	CHECK(last < first && last < 0.8 * first);
	ld_diff_free(&m);
	ld_corpus_free(&c);
	return check_failures();
}
