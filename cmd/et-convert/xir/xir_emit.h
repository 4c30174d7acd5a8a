/* xir_emit: one ET per rank from a compiler program (xir.h), by the
 * mapping of doc/compiler-ir.md:
 * - ranks = replicas x partitions (or --world where the program leaves it
 *   open); every rank runs the program, rank by rank in order;
 * - XIR_COMP -> COMP_NODE: num_ops (FLOPs), tensor_size (bytes), hlo_op,
 *   gemm_m/gemm_n/gemm_k/gemm_batch for matrix products, a duration only
 *   with a roofline (max(FLOPs / peak, bytes / memory bandwidth), to the
 *   nearest microsecond);
 * - XIR_COLL -> COMM_COLL_NODE: comm_type, comm_size (bytes), pg_name = the
 *   id of the rank's group (every distinct group an id from 1 in order of
 *   first use, all ranks "0"); a rank in none of the op's groups skips it
 *   (its consumers depend on what it depended on);
 * - XIR_PERMUTE / SEND / RECV -> a COMM_RECV_NODE from the rank's source and
 *   a COMM_SEND_NODE to its target, comm_tag the channel id (else 2^30 +
 *   the op's index), the op's consumers depending on both;
 * - every node is_cpu_op false; node ids from 0; data dependencies, and a
 *   control dependency of each collective on the rank's previous one
 *   (program order: every member issues a group's collectives in the same
 *   order, as the compiled program does).
 * Ranks that take part in the same ops share one serialized template and
 * differ only in pg_name and peers (et_tpl.h): a rank costs its bytes, not
 * a rebuild. Memory: the templates, plus a group and a peer per rank for
 * each group or pair set. */
#ifndef ET_CONVERT_XIR_XIR_EMIT_H
#define ET_CONVERT_XIR_XIR_EMIT_H

#include "et-convert/xir/xir.h"
#include "et_err.h"
#include "et_writer.h"

typedef struct xir_emit_opts {
	const char *input;  /* the input's name, for messages */
	uint32_t world;     /* --world: 0 = none given */
	double peak_tflops; /* roofline durations when both are > 0 */
	double mem_gbps;    /* GB/s (10^9 bytes per second) */
	/* --write-comm-groups FILE, or NULL; closed, put in place by the
	 * caller's et_output_commit_all() with the trace */
	const char *groups;
	int progress; /* et_progress mode */
} xir_emit_opts;

/* Writes every rank of x through w. 0, or -1 with e set: ET_EXIT_USAGE for
 * a --world the program contradicts, ET_EXIT_DATA for a program that names
 * a device beyond its ranks or a rank twice in a set, ET_EXIT_IO for the
 * comm-group file, the writer's codes. */
int xir_emit(const xir *x, const xir_emit_opts *o, et_writer *w, et_error *e);

#endif
