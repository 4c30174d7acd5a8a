/* mbox: matching of collective messages. A message is keyed by (collective,
 * chunk, phase, src, dst); within a key messages are interchangeable, so a
 * mailbox holds two counts: arrived but not yet received (A) and receives
 * posted but not yet arrived (P). A receive posted after its message arrived
 * completes at once, as in the analytical backend. The receiving stream is
 * the destination rank's active collective (a rank runs one at a time). */
#include "et-sim/system/system.h"
#include "et-sim/workload/workload.h" /* the receiving rank's active collective */

#define A_OF(v) ((v)&0xffffffffu)
#define P_OF(v) ((v) >> 32)

static stream *receiver(sim *s, uint64_t k1, uint32_t dst)
{
	rank_st *r = &s->r[sim_index(s, dst)];
	if (!r->active || r->active->c->id != msg_key_coll(k1))
		return NULL;
	return &r->active->st[msg_key_chunk(k1)];
}

void mbox_arrive(sim *s, uint64_t k1, uint64_t k2)
{
	uint64_t *v = et_hmap_put(&s->mb, k1, k2, 0);
	if (P_OF(*v) == 0) {
		*v += 1;
		return;
	}
	*v -= 1ull << 32;
	if (*v == 0)
		et_hmap_del(&s->mb, k1, k2);
	stream *st = receiver(s, k1, (uint32_t)k2);
	if (!st) {
		/* exit 1, as a run that cannot go on */
		sim_fail(s, ET_EXIT_FOUND,
		         "internal: message for a collective that is not running");
		return;
	}
	algo_receive(s, st);
}

void mbox_post(sim *s, stream *st, uint32_t src)
{
	uint64_t k1 = msg_key(st);
	uint64_t k2 = msg_ends(src, st->rc->rank);
	uint64_t *v = et_hmap_put(&s->mb, k1, k2, 0);
	if (A_OF(*v) == 0) {
		*v += 1ull << 32;
		return;
	}
	*v -= 1;
	if (*v == 0)
		et_hmap_del(&s->mb, k1, k2);
	st->rc->pend++;
	evq_push(&s->q, s->now, EV_ALGO, st->rc->rank, (uint64_t)(uintptr_t)st, AK_RECV_NOW);
}
