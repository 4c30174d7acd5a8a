/* et_sgroups: the comm groups a stream section carries (etkit-stream(5),
 * COMM GROUPS), so that a stream needs no comm-group side file.
 *
 * A section header may hold records after the workload name: a 4-byte tag,
 * a u32 LE payload length, the payload. The record tagged GRPS holds the
 * groups the rank is a member of, each a name (its pg_name) and its
 * members as arithmetic runs:
 *   varint G (1..ET_SGROUPS_MAX_GROUPS), then G times:
 *     varint name length (1..255), the name (no NUL byte),
 *     varint K (>= 1), then K runs: varint first, varint count (>= 1),
 *     and, when count >= 2, varint stride (>= 1).
 * The runs are canonical: the greedy split of the sorted members (a run
 * takes the next member and the one after it, and every further member at
 * the same stride), so that two records name the same members exactly when
 * their runs are the same bytes. A dp group of 1,024 ranks of stride 128
 * costs 5 bytes plus its name.
 *
 * Writers build a record with et_sgroups_w; readers check it as they read
 * the header (et_sgroups_check, with the limits below, so that a small
 * file cannot claim big memory); et_sgroups_acc assembles the world's
 * groups from the ranks read, checking that a name means the same members
 * in every rank that gives it. */
#ifndef ET_SGROUPS_H
#define ET_SGROUPS_H

#include "et_buf.h"
#include "et_err.h"
#include "et_input.h"
#include "et_pg.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ET_SGROUPS_TAG "GRPS"
/* The records after a header's name: at most this many bytes in all. */
#define ET_STREAM_EXT_MAX 65536u
/* Groups in one rank's record. */
#define ET_SGROUPS_MAX_GROUPS 1024u
/* Members of the assembled groups of a stream, all groups together (each
 * group counted once): 2^24, 64 MiB of ranks. */
#define ET_SGROUPS_MAX_MEMBERS (1u << 24)

/* ---- writing ---- */

typedef struct et_sgroups_w {
	et_buf body; /* the groups, after the count */
	uint32_t n;
} et_sgroups_w;

/* Empties w for the next rank (a zeroed et_sgroups_w is empty). */
void et_sgroups_w_reset(et_sgroups_w *w);
void et_sgroups_w_free(et_sgroups_w *w);
/* A group of count members first, first + stride, ... (count >= 1; stride
 * >= 1 when count >= 2). */
void et_sgroups_w_ap(et_sgroups_w *w, const char *name, uint32_t first, uint32_t count,
                     uint32_t stride);
/* A group of the members r[0..n), sorted and unique (n >= 1). */
void et_sgroups_w_ranks(et_sgroups_w *w, const char *name, const uint32_t *r, size_t n);
/* Appends the groups of o to w (a group encoded once, given to many
 * ranks). */
void et_sgroups_w_append(et_sgroups_w *w, const et_sgroups_w *o);
/* The GRPS payload of w's groups into out, replacing its contents (empty
 * when w holds no group): what et_rank_info.groups points to, for
 * et_writer to put in the rank's section header. */
void et_sgroups_w_payload(const et_sgroups_w *w, et_buf *out);
/* The GRPS record of a payload (tag, u32 LE length, payload) into out,
 * replacing its contents. */
void et_sgroups_record(const uint8_t *payload, size_t n, et_buf *out);

/* ---- reading ---- */

/* The records after a header's name, ext[0..n) (n <= ET_STREAM_EXT_MAX),
 * of a section of rank `rank` in a world of `world` (0 = unknown): each
 * record whole, the GRPS record at most once and valid (the format above;
 * members below the world, or below ET_MAX_WORLD when it is unknown; at
 * most `world` members in a group; names unique in the record). Other tags
 * are skipped. Returns 0 with *grp, *grp_len set to the GRPS payload (NULL,
 * 0 when there is none) and *grp_at to its offset in ext, or -1 with e set
 * (ET_EXIT_DATA): "WHERE: byte B: comm groups: WHAT", B = base + the
 * offset in ext of what is wrong. */
int et_sgroups_check(const uint8_t *ext, size_t n, uint32_t world, const char *where, uint64_t base,
                     const uint8_t **grp, size_t *grp_len, size_t *grp_at, et_error *e);

/* One group of a checked GRPS payload. */
typedef struct et_sgroup {
	const char *name; /* not NUL-terminated */
	size_t name_len;
	const uint8_t *runs; /* its canonical runs, runs_len bytes */
	size_t runs_len;
	uint32_t n_members;
	size_t at; /* offset of the group in the payload */
} et_sgroup;

/* Walks a GRPS payload that et_sgroups_check accepted: *pos starts at 0;
 * returns 1 with *g filled, 0 after the last group. */
int et_sgroups_next(const uint8_t *grp, size_t len, size_t *pos, et_sgroup *g);
/* The members of g, ascending, into out (room for g->n_members). */
void et_sgroups_members(const et_sgroup *g, uint32_t *out);

/* ---- the world's groups ---- */

typedef struct et_sgroups_acc et_sgroups_acc;

et_sgroups_acc *et_sgroups_acc_new(void);
void et_sgroups_acc_free(et_sgroups_acc *a);
/* Adds the groups rank ri carries (ri->groups; none is fine). A name given
 * before with other members is bad data (ET_EXIT_DATA): "INPUT: rank R:
 * byte B: comm group NAME: other members than rank R0 gives it (byte
 * B0)", B the group's byte in the input; so is passing
 * ET_SGROUPS_MAX_MEMBERS in all. Returns 1 when a group was new, 0 when
 * none was, -1 on error. */
int et_sgroups_acc_add(et_sgroups_acc *a, const et_rank_info *ri, et_error *e);
/* Groups added so far. */
size_t et_sgroups_acc_count(const et_sgroups_acc *a);
/* The groups as an ASTRA-sim comm-group file gives them (et_pg_file_parse):
 * id = the name's leading integer (et_pg_id), ranks sorted and unique, in
 * ascending id order. A name with no integer, and group 0, are left out
 * with out->warning saying so; two names of one id ("1", "01") are bad
 * data. Returns 0, or -1 with e set and *out zeroed. */
int et_sgroups_acc_list(const et_sgroups_acc *a, et_pg_list *out, et_error *e);

#endif
