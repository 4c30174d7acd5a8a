/* layerdag-sample eval: how close generated DAGs are to real ones, by the
 * measures of doc/layerdag.md. */
#ifndef LAYERDAG_SAMPLE_EVAL_METRICS_H
#define LAYERDAG_SAMPLE_EVAL_METRICS_H

#include "layerdag-sample/ld.h"

enum { ST_INDEG, ST_OUTDEG, ST_WIDTH, ST_LAYERS, ST_ATTR, ST_SPAN, NSTATS };
extern const char *const ld_stat_name[NSTATS];

typedef struct ld_surrogate {
	double pearson, spearman, mae;
} ld_surrogate;

typedef struct ld_eval {
	size_t n_real, n_synth;
	double validity;
	double role_validity;          /* the share of SYNTH breaking none of the three rules */
	double role_broken[LD_NRULES]; /* the share breaking (a), (b), (c) (ld.h) */
	uint8_t *role;                 /* [vocab]: the roles learnt from REAL (ld.h) */
	uint32_t vocab;
	double mmd[NSTATS], floor[NSTATS]; /* synthetic vs real; real halves */
	double novelty, uniqueness;
	ld_surrogate synth_on_real; /* ridge trained on SYNTH, tested on REAL */
	ld_surrogate real_cv;       /* ridge on REAL, 5-fold cross-validated */
} ld_eval;

/* Gaussian-TV kernel width and histogram caps */
#define LD_SIGMA 0.1

/* MMD² between two sets of normalized histograms (rows of dim values), the
 * unbiased estimate: mean k(a_i,a_j) + mean k(b_i,b_j) over i != j, minus 2
 * mean k(a_i,b_j) over all pairs; k(p,q) = exp(−TV(p,q)² / (2σ²)),
 * TV = Σ|p−q| / 2. Unbiased, so that two samples of one distribution score
 * about 0 whatever their sizes (the biased estimate adds about 1/n: 0.006
 * between two halves of the corpus on the layer count). */
double ld_mmd2(const double *a, size_t na, const double *b, size_t nb, size_t dim, double sigma);

/* The histogram of statistic st of g (dim values, normalized to sum 1, or
 * all zero when g has none), vocab for ST_ATTR. Returns dim. */
size_t ld_stat_dim(int st, uint32_t vocab);
void ld_stat_hist(const ld_dag *g, int st, uint32_t vocab, double *h);

/* A hash of g up to node renumbering (Weisfeiler-Lehman, 4 rounds, over
 * attributes and both edge directions): equal graphs hash equal;
 * different graphs almost always differ. */
uint64_t ld_graph_hash(const ld_dag *g);

/* Ridge regression of y on structural features: trained on tr, scored on
 * te. */
ld_surrogate ld_surrogate_score(const ld_dag *const *tr, size_t ntr, const ld_dag *const *te,
                                size_t nte, uint32_t vocab);

void ld_eval_run(const ld_corpus *real, const ld_corpus *synth, ld_eval *r);
void ld_eval_free(ld_eval *r);
void ld_eval_print(const ld_eval *r, FILE *f);
void ld_eval_print_json(const ld_eval *r, FILE *f);

#endif
