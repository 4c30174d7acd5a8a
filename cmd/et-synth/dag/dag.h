/* et-synth dag: one rank's graph generated once as encoded bytes (the
 * template), with the places where ranks differ recorded for patching. */
#ifndef ET_SYNTH_DAG_DAG_H
#define ET_SYNTH_DAG_DAG_H

#include "et-synth/synth.h"

typedef struct dag_conf {
	synth_opts so;
	uint64_t nodes;
	uint32_t width;
	double edge_prob, comm_frac, cpu_frac, jitter;
} dag_conf;

/* A COMP node's duration field inside the template. */
typedef struct dag_patch {
	uint64_t node_off; /* offset of the node's length prefix */
	uint32_t msg_len;  /* message bytes without the prefix */
	uint16_t pre_len;  /* bytes of the length prefix */
	uint16_t dur_len;  /* bytes of the duration varint */
	uint32_t dur_off;  /* offset of the duration varint in the message */
	uint32_t dur;      /* the template's duration (us) */
} dag_patch;

typedef struct dag_tpl {
	et_buf bytes;     /* framed nodes of one rank */
	dag_patch *patch; /* COMP nodes, in file order (only with jitter) */
	size_t n_patch, cap_patch;
} dag_tpl;

/* Generate the rank-independent graph into t (patch points when
 * want_patch). Depends only on c (and its seed), never on the rank. */
void dag_generate(const dag_conf *c, dag_tpl *t, bool want_patch);
void dag_tpl_free(dag_tpl *t);
/* Rank r's bytes: the template with every COMP duration jittered. */
void dag_patch_rank(const dag_conf *c, const dag_tpl *t, uint32_t rank, et_buf *out);

#endif
