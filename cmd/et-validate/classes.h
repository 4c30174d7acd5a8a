/* et-validate on class streams (etkit-stream(5), CLASS FRAMES): the ranks
 * of a class after the one read in full are checked from their rules,
 * without decoding them, whenever that gives exactly what decoding them
 * would. A rank of a class differs from the class's first only in the
 * values its rule gives (a collective's pg_name, a send's comm_dst, a
 * receive's comm_src), so the checks that see only the class's bytes find
 * for it what they found for the first rank: nothing, as a class qualifies
 * only when its first rank added no finding at all, defined no process
 * group (METADATA nodes) and held only nodes after its GlobalMetadata.
 * Every check that reads a rank's values runs again on the kept graph of
 * the first rank with the rank's values set in it (et_graph_set_comm), and
 * a rule whose values are not in their canonical oneof members, which
 * decoding would report, makes the reader expand the rank in full
 * (et_input_opts.want_rule).
 *
 * Memory: the kept graphs of the qualifying classes, at most 256 MiB in all
 * (a class beyond that has its ranks decoded as before). */
#ifndef ET_VALIDATE_CLASSES_H
#define ET_VALIDATE_CLASSES_H

#include "et_crule.h"
#include "et_err.h"
#include "et_graph.h"
#include "et_input.h"
#include "et_load.h"
#include <stdbool.h>

typedef struct vclasses vclasses;

vclasses *vclasses_new(void);
void vclasses_free(vclasses *c);
/* et_input_opts.want_rule, ctx a vclasses: whether the rank may come as its
 * rule (its class qualifies and its values are canonical). Runs on the
 * reading thread: it reads only the generation a class qualified at,
 * published atomically. */
bool vclasses_want_rule(void *ctx, const et_rank_info *ri, const et_crule_class *cls,
                        const et_crule_val *vals);
/* After every check of a rank read in full whose class could be built
 * from rules (r->ri.crule): when clean and the class qualifies, its graph
 * *g is kept for the class, *g becomes a new empty graph, and the class's
 * later ranks may come as rules. */
void vclasses_keep(vclasses *c, const et_load_rank *r, et_graph **g, bool clean);
/* The graph of a rank that came as its rule: its class's kept graph with
 * the rank's values set, valid until the next call; NULL with e set
 * (ET_EXIT_DATA) when its rule does not read. */
et_graph *vclasses_rank_graph(vclasses *c, const et_rank_info *ri, et_error *e);

#endif
