/* The edge denoiser learns: its loss on corpus graphs falls below the
 * entropy of the edges' Bernoulli marginal. */
#include "check.h"
#include "layerdag-sample/edgediff.h"

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
	ld_edgediff d;
	ld_edgediff_init(&d, &c, 16, 16, 2, 32, &r);
	double first = ld_edgediff_epoch(&d, &sub, 3e-3, &r), last = first;
	for (int ep = 0; ep < 8; ep++)
		last = ld_edgediff_epoch(&d, &sub, 3e-3, &r);
	fprintf(stderr, "edgediff: mean in-degree %.3f, epoch 1 %.4f, epoch 9 %.4f\n", d.dbar,
	        first, last);
	CHECK(last < first && last < 0.8 * first);
	ld_edgediff_free(&d);
	ld_corpus_free(&c);
	return check_failures();
}
