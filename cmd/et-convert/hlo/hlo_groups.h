/* hlo_groups: replica groups and pairs as flattened device ids (replica *
 * partitions + partition), the ids xir sets hold.
 *
 * XLA's collective group modes (CollectiveOpGroupMode, from channel_id and
 * use_global_device_ids):
 * - cross-replica (no channel_id): the groups list replica ids; each group
 *   becomes one group per partition;
 * - cross-partition (channel_id, and an opcode without
 *   use_global_device_ids: all-to-all, collective-broadcast,
 *   collective-permute, send/recv): partition ids, one group per replica;
 * - cross-replica-and-partition (channel_id, use_global_device_ids false
 *   or absent): replica ids, each group spanning every partition;
 * - flattened ids (channel_id and use_global_device_ids=true): the ids are
 *   flattened ids already.
 * "{}" means every replica (or partition) of the mode.
 *
 * Functions return 0 or -1 with e filled in at the attribute's position. */
#ifndef ET_CONVERT_HLO_HLO_GROUPS_H
#define ET_CONVERT_HLO_HLO_GROUPS_H

#include "et-convert/hlo/hlo_mod.h"
#include "et-convert/xir/xir.h"

/* The n = prod(dims) values of iota(n) reshaped to dims and transposed by
 * perm, in row-major order of the result, into out[0..n). */
void hlo_iota_expand(const int64_t *dims, const int64_t *perm, uint32_t rank, uint32_t *out);

/* The group mode of collective instruction i; fails on use_global_device_ids
 * without channel_id, as XLA does. */
int hlo_group_mode(const hlo_module *m, uint32_t i, enum xir_gmode *mode, et_error *e);

/* The group set of collective instruction i in x (replicas R, partitions P). */
int hlo_group_set(const hlo_module *m, uint32_t i, xir *x, uint32_t *set, et_error *e);

/* The pair set of collective-permute or send/recv instruction i in x. */
int hlo_pair_set(const hlo_module *m, uint32_t i, xir *x, uint32_t *set, et_error *e);

#endif
