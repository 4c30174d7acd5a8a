/* The diffusion model as a whole: fitting it on a corpus, and its file.
 *
 * The file (binary, little-endian as this machine writes it): the magic
 * "LDDIFF\0\1" (version 1), then u32 vocab, sizes S, width D, layers K,
 * attribute steps T, edge steps Te, the deepest graph's layers; f64 d̄; f64 × vocab the attribute
 * marginal; u8 × vocab the sink roles; then every weight matrix and bias as
 * f64, in the order: the sizer's encoder (input W, b; per layer self, in,
 * out W, b) and head, the attribute denoiser's, the edge denoiser's. A
 * file of another size, magic or version is bad input (exit 3). */
#ifndef LD_DIFFMODEL_H
#define LD_DIFFMODEL_H

#include "layerdag-sample/diffsample.h"

#include <stdio.h>

typedef struct ld_diff_conf {
	size_t D;
	int K, T, Te, epochs;
	double lr;
	int progress; /* print "epoch k of N, losses" on stderr */
} ld_diff_conf;

void ld_diff_conf_default(ld_diff_conf *c);
/* Trains the three networks on c (seed r). */
void ld_diff_fit(ld_diffusion *m, const ld_corpus *c, const ld_diff_conf *cf, et_rng *r);
void ld_diff_free(ld_diffusion *m);
int ld_diff_write(const ld_diffusion *m, FILE *f);
/* 1: path holds a diffusion model (its magic); 0: not. */
int ld_diff_is(const char *path);
int ld_diff_read(ld_diffusion *m, const char *path, et_error *e);

#endif
