/* astxt: ASTRA-sim 1.0 text workloads (layer tables) to Chakra ETs, node for
 * node as Chakra's reference text converter (`chakra_converter Text`,
 * mlcommons/chakra 1.0.0) writes them.
 *
 * The format: line 1 the parallelism (HYBRID_DLRM and HYBRID_DLRM_ENHANCED
 * add the index of the last bottom layer), line 2 the number of layers, then
 * one line of 12 columns per layer: name, reserved, then compute time, comm
 * type and comm size of the forward pass, the input gradient and the weight
 * gradient, then the update time. The conversion rules are those of
 * doc/compiler-ir.md, "ASTRA-sim 1.0 text workloads".
 *
 * What the caller may rely on:
 * - astxt_read accepts what real files hold: CRLF, LF or CR line ends, runs
 *   of spaces and tabs, trailing tabs, no final newline; also blank lines
 *   after the table (the reference fails on them). It refuses what the
 *   reference crashes on (a missing or negative number, a blank line inside
 *   the table, HYBRID_DLRM's last bottom layer 0 or an embedding without a
 *   forward ALLTOALL) and, stricter than the reference, what it would read
 *   into something else: a line 2 count other than the layer lines (the
 *   reference reads every line, ASTRA-sim 1.0 the count), a layer of other
 *   than 12 columns or a line 1 with more than the parallelism (and
 *   HYBRID_DLRM's index), a comm type not ALLREDUCE, ALLGATHER, ALLTOALL,
 *   REDUCESCATTER or NONE (the reference writes any other as an
 *   all-reduce), a negative comm size, a number that is not plain decimal,
 *   a last bottom layer beyond the table, invalid UTF-8, control characters,
 *   Unicode spaces, a byte-order mark; HYBRID_TRANSFORMER,
 *   HYBRID_TRANSFORMER_FWD_IN_BCKWD and HYBRID_CUSTOMIZED, as the reference
 *   does. It returns 0, or -1 with e set to ET_EXIT_DATA and one line
 *   "NAME: line L: what was expected" (NAME as given), and t then holds
 *   nothing; astxt_free is safe either way.
 * - astxt_write writes ranks 0 .. world-1, each a GlobalMetadata and the same
 *   graph. Default numbering: ids 0, 1, ... in every rank, so every rank has
 *   the same bytes, built once. compat_chakra: the reference's numbering,
 *   one counter across the ranks (rank r's ids start at r x nodes per rank),
 *   byte for byte the reference's files; nodes are then spliced from
 *   per-node templates, not re-encoded. Either way every message is the
 *   canonical encoding of the node the reference writes, ids aside. Sizes
 *   are checked before any rank is built or written: ET_EXIT_USAGE for
 *   world or passes 0, a rank of more nodes or bytes than the suite reads by
 *   default, or more than ASTXT_MAX_TOTAL nodes in all; otherwise the
 *   writer's errors. The caller closes the writer.
 * - Memory: everything belongs to t (its arena); allocation failure ends the
 *   process (the suite's policy, et_mem.h). */
#ifndef ET_CONVERT_ASTRA_TEXT_ASTXT_H
#define ET_CONVERT_ASTRA_TEXT_ASTXT_H

#include "et_arena.h"
#include "et_err.h"
#include "et_writer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Input bounds, checked while reading (real files are a few KiB). */
#define ASTXT_MAX_TEXT (16u << 20) /* bytes of input */
#define ASTXT_MAX_LINE 4096u       /* bytes of one line, its end excluded */
#define ASTXT_MAX_LAYERS 65536u
/* Nodes of all ranks together: beyond this a conversion is not a workload
 * anyone simulates (and the reference's ids stay below 2^32). */
#define ASTXT_MAX_TOTAL (1ull << 32)

/* The reference's GlobalMetadata "schema" attribute (chakra 1.0.0). */
#define ASTXT_SCHEMA "1.0.2-chakra.1.0.0"

enum astxt_par {
	ASTXT_MICRO,
	ASTXT_DATA,
	ASTXT_MODEL,
	ASTXT_HYBRID_DATA_MODEL,
	ASTXT_HYBRID_MODEL_DATA,
	ASTXT_HYBRID_DLRM,
	ASTXT_HYBRID_DLRM_ENHANCED,
};

/* The comm types a table may name; the reference writes the token itself
 * into node names and maps it to a CollectiveCommType (NONE: ALL_REDUCE). */
enum astxt_comm {
	ASTXT_ALLREDUCE,
	ASTXT_ALLGATHER,
	ASTXT_ALLTOALL,
	ASTXT_REDUCESCATTER,
	ASTXT_NONE,
};

/* The three phases of a layer, in column order. */
enum astxt_phase { ASTXT_FWD, ASTXT_IG, ASTXT_WG };

typedef struct astxt_layer {
	const char *name; /* t's arena */
	uint64_t time[3]; /* compute time per phase: duration_micros, unchanged */
	int64_t size[3];  /* comm size per phase, bytes (0 .. INT64_MAX) */
	uint8_t comm[3];  /* enum astxt_comm per phase */
	uint32_t line;    /* its line in the file */
} astxt_layer;

typedef struct astxt {
	int par;              /* enum astxt_par */
	uint32_t last_bottom; /* HYBRID_DLRM*: last bottom layer, 1 .. nlayers-1 */
	uint32_t nlayers;
	astxt_layer *layers; /* file order */
	/* The input as the reference reads it (every line end becomes "\n"):
	 * the GlobalMetadata's input_file attribute. */
	char *text;
	size_t text_len;
	const char *input;  /* NAME as given to astxt_read: rank headers */
	char workload[256]; /* NAME's base name without ".txt": rank headers */
	et_arena *arena;
} astxt;

/* The parallelism's name ("HYBRID_DLRM"). */
const char *astxt_par_name(int par);
/* The comm type's token ("ALLREDUCE") and its ET_COLL_* value. */
const char *astxt_comm_name(int comm);
int astxt_comm_coll(int comm);

/* Parses text[0..len) (NUL bytes are errors), NAME naming it in messages.
 * t is overwritten; free it with astxt_free whatever the result. */
int astxt_read(astxt *t, const char *name, const char *text, size_t len, et_error *e);
int astxt_write(const astxt *t, uint32_t world, uint32_t passes, bool compat_chakra, et_writer *w,
                et_error *e);
void astxt_free(astxt *t);

#endif
