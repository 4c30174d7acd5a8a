/* Rank layout and comm groups, computed arithmetically: a rank's group over
 * a dimension is a mixed-radix number of its other coordinates, so nothing
 * here loops over pairs of ranks (STAGE's bookkeeping is quadratic).
 *
 * STAGE's layout: dp is fastest, pp slowest; dense models
 * rank = ((p·CP + c)·TP + t)·DP + d, MoE rank = (((p·EP + e)·CP + c)·TP +
 * t)·DP + d. Groups are numbered from 1: all groups over dp, then tp, cp
 * (then ep for MoE), size-1 dimensions included; within a dimension X the
 * groups follow the other coordinates, pp first (outermost), then the other
 * spatial dimensions in order. */
#include "et-stage/stage.h"
#include "et_jsonw.h"
#include "et_output.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Dimensions from slowest to fastest in the rank number. */
static const int order_dense[] = {DIM_PP, DIM_CP, DIM_TP, DIM_DP};
static const int order_moe[] = {DIM_PP, DIM_EP, DIM_CP, DIM_TP, DIM_DP};

static int n_spatial(const stage_layout *l)
{
	return l->moe ? 4 : 3;
}

int stage_layout_init(stage_layout *l, const stage_conf *c, char *msg, size_t cap)
{
	memset(l, 0, sizeof *l);
	l->moe = c->arch == ARCH_MOE;
	for (int d = 0; d < NDIMS; d++)
		l->size[d] = c->dim[d];
	if (!l->moe) { /* STAGE multiplies tp by ep for dense models */
		l->size[DIM_TP] = c->dim[DIM_TP] * c->dim[DIM_EP];
		l->size[DIM_EP] = 1;
	}
	const int *ord = l->moe ? order_moe : order_dense;
	int n = l->moe ? 5 : 4;
	uint64_t s = 1;
	for (int i = n - 1; i >= 0; i--) {
		l->stride[ord[i]] = s;
		s *= l->size[ord[i]];
		if (s > UINT32_MAX) {
			snprintf(msg, cap, "%" PRIu64 " ranks or more: at most %" PRIu32, s,
			         UINT32_MAX);
			return -1;
		}
	}
	if (!l->moe)
		l->stride[DIM_EP] = 0;
	l->world = (uint32_t)s;
	uint64_t base = 1;
	for (int d = 0; d < n_spatial(l); d++) {
		l->group_base[d] = base;
		base += l->world / l->size[d];
	}
	l->n_groups = base - 1;
	return 0;
}

uint32_t stage_coord(const stage_layout *l, uint32_t rank, int dim)
{
	if (!l->stride[dim])
		return 0;
	return (uint32_t)(rank / l->stride[dim] % l->size[dim]);
}

uint64_t stage_group_id(const stage_layout *l, uint32_t rank, int dim)
{
	uint64_t idx = stage_coord(l, rank, DIM_PP);
	for (int d = 0; d < n_spatial(l); d++)
		if (d != dim)
			idx = idx * l->size[d] + stage_coord(l, rank, d);
	return l->group_base[dim] + idx;
}

/* The first rank of group idx over dim (its member with coordinate 0). */
static uint64_t group_first(const stage_layout *l, int dim, uint64_t idx)
{
	uint64_t r = 0;
	for (int d = n_spatial(l) - 1; d >= 0; d--)
		if (d != dim) {
			r += idx % l->size[d] * l->stride[d];
			idx /= l->size[d];
		}
	return r + idx * l->stride[DIM_PP];
}

/* Python's json.dump layout, which STAGE writes: {"1": [0, 1], "2": [2]}. */
static void write_groups(const stage_layout *l, FILE *f)
{
	et_jsonw j; /* no newline at the end, as json.dump */
	et_jsonw_init(&j, f, NULL, ET_JSONW_SPACED, 0);
	et_jsonw_obj(&j);
	for (int d = 0; d < n_spatial(l); d++) {
		uint64_t n = l->world / l->size[d];
		for (uint64_t g = 0; g < n; g++) {
			uint64_t r = group_first(l, d, g);
			char key[24];
			snprintf(key, sizeof key, "%" PRIu64, l->group_base[d] + g);
			et_jsonw_karr(&j, key);
			for (uint32_t x = 0; x < l->size[d]; x++)
				et_jsonw_uint(&j, r + x * l->stride[d]);
			et_jsonw_end(&j);
		}
	}
	et_jsonw_end(&j);
	et_jsonw_done(&j); /* f's errors: the caller's et_output_close_deferred */
}

void stage_rank_groups(const stage_layout *l, uint32_t r, et_sgroups_w *w)
{
	et_sgroups_w_reset(w);
	for (int d = 0; d < n_spatial(l); d++) {
		char id[24];
		snprintf(id, sizeof id, "%" PRIu64, stage_group_id(l, r, d));
		uint64_t first = r - (uint64_t)stage_coord(l, r, d) * l->stride[d];
		et_sgroups_w_ap(w, id, (uint32_t)first, l->size[d], (uint32_t)l->stride[d]);
	}
}

int stage_write_groups(const stage_layout *l, const char *path, et_output **o, et_error *e)
{
	et_output *out;
	if (et_output_open(&out, path, false, e) < 0)
		return -1;
	write_groups(l, et_output_file(out));
	if (et_output_close_deferred(out, e) < 0) /* which removes it */
		return -1;
	*o = out;
	return 0;
}
