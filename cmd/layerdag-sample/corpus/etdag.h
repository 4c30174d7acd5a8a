/* Chakra ETs as DAG corpora, and sampled DAGs back as ETs.
 *
 * Each rank of an input is one DAG: its nodes, an edge from each data or
 * control dependency to its dependant, and the label y = the rank's summed
 * duration_micros in seconds. A node's attribute is the class of
 *   (node type, collective type, op class from the name, log-bucket of
 *    its size, log-bucket of its duration)
 * where the op class is one of ld_op_class_name, found by substrings of the
 * lower-cased name; the size is tensor_size (comm_size for communication),
 * bucket 0 for 0 and 1 + floor(log2(size) / 2) otherwise (at most 31); the
 * duration bucket is 0 for 0 and 1 + floor(log2(us)) (at most 31). SEND
 * and RECV nodes become COMP nodes of class "p2p": a sampled DAG has no
 * peer to pair them with. Each class keeps up to LD_ET_KEEP of the
 * (num_ops, tensor_size, comm_size, duration) values it was seen with, and
 * a sampled node takes one of them. */
#ifndef LAYERDAG_SAMPLE_CORPUS_ETDAG_H
#define LAYERDAG_SAMPLE_CORPUS_ETDAG_H

#include "et_writer.h"
#include "layerdag-sample/ld.h"

#define LD_ET_KEEP 16

typedef struct ld_et_class {
	uint8_t type, ctype, op, sizeb, durb;
	uint32_t nval;
	struct {
		int64_t num_ops, comm_size;
		uint64_t tensor_size, dur;
	} val[LD_ET_KEEP];
} ld_et_class;

typedef struct ld_etmap {
	ld_et_class *c;
	size_t n, cap;
} ld_etmap;

extern const char *const ld_op_class_name[];

/* Appends each rank of the ET input at path ("-": stdin) to corpus c,
 * with attributes from (and added to) map. */
int ld_et_read(ld_corpus *c, ld_etmap *map, const char *path, et_error *e);
void ld_etmap_free(ld_etmap *m);

/* Writes g as one workload of world ranks (the same graph on each: an SPMD
 * program whose collectives agree) through w, node values drawn from map
 * with r. */
struct et_rng;
int ld_et_write(const ld_dag *g, const ld_etmap *map, uint32_t world, struct et_rng *r,
                et_writer *w, et_error *e);

#endif
