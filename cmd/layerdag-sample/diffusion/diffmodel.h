/* The diffusion model as a whole: fitting it on a corpus, and its file.
 *
 * The file (binary, little-endian as this machine writes it): the magic
 * "LDDIFF\0\4" (version 4), then u32 vocab, sizes S, width D, layers K,
 * attribute steps T, edge steps Te, the deepest graph's layers, the heads'
 * hidden width H, the window (the prefix layers the networks see, 0: all;
 * context.h), the ET classes N (0, or vocab for a model fitted on Chakra
 * ETs), their values M in all; f64 the label's mean and deviation (of
 * asinh y), f64 d̄; f64 × vocab the attribute marginal; f64 × vocab the
 * arities (each attribute's mean out-degree, context.h); u8 × vocab the
 * roles (LD_ROLE_* bits, ld.h); then every weight matrix and bias as f64, in the order: the
 * sizer's encoder (input W, b; per layer self, in, out W, b) and head (its
 * two layers' W, b), the attribute denoiser's, the edge denoiser's; then
 * the ET section, one record per attribute: u8 node type, collective type,
 * op class, size bucket (<= 31), duration bucket (<= 31), value count k
 * (<= LD_ET_KEEP), then k × (i64 num_ops, u64 tensor_size, i64 comm_size,
 * u64 duration_micros) (etdag.h). The header gives the file's size, N and M
 * included: a file of another size, magic or version is bad input (exit 3),
 * refused before anything is allocated; so are tables that are not finite,
 * a deviation not > 0, a negative d̄, marginal or arity, and ET classes out
 * of bounds, and roles past LD_ROLE_ALL. Version 3 (a u8 sink role, no
 * other roles), version 2 (no window, no ET
 * section) and version 1 (heads of one layer) are no longer read: the
 * message names the version found and the one expected. */
#ifndef LAYERDAG_SAMPLE_DIFFUSION_DIFFMODEL_H
#define LAYERDAG_SAMPLE_DIFFUSION_DIFFMODEL_H

#include "layerdag-sample/diffusion/diffsample.h"

#include <stdio.h>

typedef struct ld_diff_conf {
	size_t D, H; /* encoder width, heads' hidden width */
	int K, T, Te, epochs;
	uint32_t window; /* prefix layers the networks see (context.h); 0: all */
	uint32_t chunk;  /* an Adam step every chunk layers of a graph; 0: per graph */
	double lr;       /* the first epoch's; a cosine decay to lr/20 over the epochs */
	int batch;       /* graphs per Adam step */
	int progress;    /* print "epoch k of N, losses" on stderr */
} ld_diff_conf;

void ld_diff_conf_default(ld_diff_conf *c);
/* Without a window, every layer re-encodes the whole prefix: fitting is
 * quadratic in the depth (55 s an epoch for one chain of 4,000 nodes).
 * The corpus has at most 72 layers; deeper graphs need a window. */
#define LD_DIFF_DEEP 256
/* 0 when c can be fitted with window (0: none) in reasonable time (no
 * graph deeper than LD_DIFF_DEEP layers without a window) and its model
 * can be read back (layers under 4096 wide, samples of at most
 * LD_MAX_NODES), else the error naming name (exit 3), before any
 * training: a model the reader would refuse is not worth its training. */
int ld_diff_check(const ld_corpus *c, uint32_t window, const char *name, et_error *e);
/* The three networks of cf's sizes, untrained, with c's marginals, arities
 * and sink roles (seed r); with a window, c's graphs are first put in layer
 * order (ld_dag_layer_sort). m->et is left empty; ld_diff_free frees. */
void ld_diff_init(ld_diffusion *m, ld_corpus *c, const ld_diff_conf *cf, et_rng *r);
/* One pass over c in a random order: every layer of every graph at a
 * random step, an Adam step every cf->batch graphs (and every cf->chunk
 * layers); the sizer's, attribute and edge denoisers' mean losses into
 * loss[0..2]. */
void ld_diff_epoch(ld_diffusion *m, const ld_corpus *c, const ld_diff_conf *cf, double lr,
                   et_rng *r, double *loss);
/* ld_diff_init, then cf->epochs epochs with a cosine decay of cf->lr. */
void ld_diff_fit(ld_diffusion *m, ld_corpus *c, const ld_diff_conf *cf, et_rng *r);
void ld_diff_free(ld_diffusion *m);
int ld_diff_write(const ld_diffusion *m, FILE *f);
/* 1: path holds a diffusion model (its magic); 0: not. */
int ld_diff_is(const char *path);
int ld_diff_read(ld_diffusion *m, const char *path, et_error *e);

#endif
