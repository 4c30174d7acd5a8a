/* Host op <-> Kineto CPU op by id: rf_id == "Record function id" (what
 * chakra_trace_link uses), else rf_id == "External id" (HTA-style, for
 * PyTorch versions that write no record function id). A pair counts only when
 * the names agree too: traces of two different runs have overlapping id
 * ranges, and without the name test they would seem to link. */
#include "et-convert/pytorch/pt_kineto.h"

#include <stddef.h>
#include <string.h>

static bool host_candidate(const pt_node *n)
{
	/* GPU nodes of an already linked input have no Kineto CPU op */
	return (n->attr_set & (1u << PT_RF_ID)) && n->cat == PT_NONE;
}

static bool try_link(kt_data *d, const pt_trace *t, const kt_idx *x, uint32_t host)
{
	const pt_node *h = &t->nodes[host];
	const char *name = pt_str(t, h->name);
	uint32_t j = kt_idx_first(x, h->attr[PT_RF_ID]);
	for (int s = 0; j != KT_NONE && s < KT_SAME_ID_SCAN; j = x->next[j], s++) {
		kt_cpu *c = &d->cpu[j];
		if (c->host == KT_NONE && strcmp(kt_name(d, c->name), name) == 0) {
			c->host = host;
			return true;
		}
	}
	return false;
}

static uint32_t match_ids(kt_data *d, const pt_trace *t, bool by_rf)
{
	kt_idx x;
	kt_idx_build(&x, d->cpu, sizeof *d->cpu,
	             by_rf ? offsetof(kt_cpu, rf) : offsetof(kt_cpu, ext), d->ncpu);
	uint32_t matched = 0;
	for (uint32_t i = 0; i < t->n; i++)
		if (host_candidate(&t->nodes[i]) && try_link(d, t, &x, i))
			matched++;
	kt_idx_free(&x);
	return matched;
}

/* HTA correlates by External id only when the two id ranges overlap. */
static bool ranges_overlap(const kt_data *d, const pt_trace *t)
{
	int64_t hlo = INT64_MAX, hhi = INT64_MIN, klo = INT64_MAX, khi = INT64_MIN;
	for (uint32_t i = 0; i < t->n; i++)
		if (host_candidate(&t->nodes[i])) {
			int64_t v = t->nodes[i].attr[PT_RF_ID];
			hlo = v < hlo ? v : hlo;
			hhi = v > hhi ? v : hhi;
		}
	for (uint32_t i = 0; i < d->ncpu; i++)
		if (d->cpu[i].ext != PT_NO_ID) {
			int64_t v = d->cpu[i].ext;
			klo = v < klo ? v : klo;
			khi = v > khi ? v : khi;
		}
	return hlo <= khi && klo <= hhi;
}

uint32_t kt_match(kt_data *d, const pt_trace *t)
{
	if (d->has_rf)
		return match_ids(d, t, true);
	if (d->has_ext)
		return ranges_overlap(d, t) ? match_ids(d, t, false) : 0;
	return kt_match_by_order(d, t);
}
