/* coll: collectives on a rank -- ASTRA-sim's system layer. A collective is
 * split into chunks ("streams"); each stream walks its phases through one
 * queue per dimension, where at most active-chunks-per-dimension streams run
 * at once and waiting ones are ordered by priority (LIFO/FIFO), then
 * arrival (doc/astra-sim.md C.13). */
#include "et-sim/system/system.h"
#include "et-sim/workload/workload.h" /* the issuing rank's graph and queues */
#include "et_mem.h"
#include "et_pg.h"
#include "et_types.h"
#include <stdlib.h>
#include <string.h>

/* Chakra type -> the phase type it runs as; extras (REDUCE, GATHER, SCATTER,
 * BROADCAST, BARRIER) are mapped onto the four ASTRA-sim collectives. */
static int map_type(int t, uint64_t *size, uint32_t nmem)
{
	switch (t) {
	case ET_COLL_ALL_REDUCE:
	case ET_COLL_REDUCE:
		return CT_AR;
	case ET_COLL_ALL_GATHER:
	case ET_COLL_GATHER:
		return CT_AG;
	case ET_COLL_REDUCE_SCATTER:
	case ET_COLL_REDUCE_SCATTER_BLOCK:
	case ET_COLL_SCATTER:
		return CT_RS;
	case ET_COLL_ALL_TO_ALL:
		return CT_A2A;
	case ET_COLL_BROADCAST:
		*size = *size / nmem ? *size / nmem : 1;
		return CT_AG;
	case ET_COLL_BARRIER:
		*size = 1;
		return CT_AR;
	default:
		return -1;
	}
}

/* Which ranks run a collective together (et_dims.h): a comm group's
 * members (involved_dim is not read, as ASTRA-sim runs a group's
 * collective on the group), every rank for the one* implementations (one
 * ring over all ranks), else the ranks that share the issuing rank's
 * coordinates outside the collective's active dimensions. */
typedef struct scope {
	uint8_t active; /* 0xff: the group, or every rank */
	uint32_t base, n;
} scope;

static void scope_of(const sim *s, const rank_st *r, uint32_t node, int gi, int ct, scope *sc)
{
	sc->active = 0xff;
	sc->base = 0;
	sc->n = gi >= 0 ? s->cf->groups[gi].n : s->world;
	const impl_list *l = &s->cf->impl[coll_impl_list(ct)];
	if (gi >= 0 || l->one)
		return;
	/* the dimensions run are those the implementation list names */
	uint8_t listed = (uint8_t)((1u << l->n) - 1);
	uint8_t a = et_dims_active(&s->dims, r->g->involved[node] & listed);
	if (a == et_dims_active(&s->dims, listed))
		return;
	sc->active = a;
	sc->base = et_dims_base(&s->dims, a, r->rank);
	sc->n = et_dims_scope_size(&s->dims, a);
}

/* The members a run simulates of collective c: every one unfolded; folded,
 * one for a group of one class (closed forms for it all) and every one for
 * a group of several, whose members are then all representatives
 * (classes.h), so that it runs as unfolded. */
static uint32_t sim_members(sim *s, const coll *c)
{
	if (!s->folded || c->group < 0)
		return s->folded ? 1 : c->nmem;
	const uint32_t *m = c->mem;
	bool one = true, reps = true;
	for (uint32_t k = 0; k < c->nmem; k++) {
		one = one && s->sim_of[m[k]] == s->sim_of[m[0]];
		reps = reps && s->r[s->sim_of[m[k]]].rank == m[k];
	}
	if (one)
		return 1;
	if (!reps)
		sim_unfold(s, "a comm group of several classes with members not simulated");
	return c->nmem;
}

static coll *coll_new(sim *s, rank_st *r, uint32_t node, int gi, int ct, uint64_t size,
                      const scope *sc)
{
	coll *c = et_xcalloc(1, sizeof *c);
	c->id = s->ncolls;
	c->group = gi;
	c->nmem = sc->n;
	c->mem = gi >= 0 ? s->cf->groups[gi].mem : NULL;
	if (gi < 0 && sc->active != 0xff) { /* a scope: its ranks, for messages */
		c->scope_active = sc->active;
		c->scope_mem = et_xmalloc((size_t)sc->n * sizeof *c->scope_mem);
		for (uint32_t k = 0; k < sc->n; k++)
			c->scope_mem[k] = et_dims_scope_rank(&s->dims, sc->active, sc->base, k);
		c->mem = c->scope_mem;
	}
	c->comm_type = r->g->comm_type[node];
	c->ctype = ct;
	c->size = size;
	c->nsim = sim_members(s, c);
	ET_GROW(s->colls, s->capcolls, (size_t)s->ncolls + 1);
	s->colls[s->ncolls++] = c;
	if (coll_plan(s, c, r, node, ct) < 0)
		return NULL;
	c->cf = et_xcalloc(c->nchunks * c->nphase + 1, sizeof *c->cf);
	return c;
}

static int group_of(sim *s, rank_st *r, uint32_t node, int *gi)
{
	const char *pg = sg_pg(r->g, node);
	const comm_group *grp = cfg_group(s->cf, pg, gi);
	int32_t id;
	if (!et_pg_is_all(pg) && !et_pg_id(pg, &id)) {
		sim_fail(s, ET_EXIT_DATA,
		         "rank %u: node %llu: pg_name '%s' does not start with an integer within "
		         "the int range (ASTRA-sim's std::stoi aborts on it)",
		         r->rank, (unsigned long long)r->g->id[node], pg);
		return -1;
	}
	if (!et_pg_is_all(pg) && !grp) {
		sim_fail(s, ET_EXIT_USAGE,
		         "rank %u: node %llu: communicator group '%s' is not defined%s", r->rank,
		         (unsigned long long)r->g->id[node], pg,
		         s->cf->grp_file[0] ? " in the comm-group file" : " (give --comm-groups)");
		return -1;
	}
	if (grp) {
		uint32_t lo = 0, hi = grp->n;
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (grp->mem[mid] < r->rank)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == grp->n || grp->mem[lo] != r->rank) {
			sim_fail(s, ET_EXIT_DATA,
			         "rank %u: node %llu: rank is not a member of group %s", r->rank,
			         (unsigned long long)r->g->id[node], pg);
			return -1;
		}
		for (uint32_t i = 0; i < grp->n; i++)
			if (grp->mem[i] >= s->world) {
				sim_fail(s, ET_EXIT_USAGE,
				         "group %s names rank %u, the trace has %u ranks", pg,
				         grp->mem[i], s->world);
				return -1;
			}
	}
	return 0;
}

/* The rank's next position in the collective's sequence: per group, and
 * per set of active dimensions for a scope (the ranks of a scope count
 * their own collectives). */
static uint32_t next_seq(sim *s, rank_st *r, int gi, const scope *sc)
{
	if (gi >= 0 || sc->active == 0xff)
		return (uint32_t)(*et_hmap_put(&s->group_seq, r->rank, (uint64_t)(gi + 1), 0))++;
	return (uint32_t)(*et_hmap_put(&s->scope_seq, r->rank, sc->active, 0))++;
}

static coll *find_coll(sim *s, rank_st *r, uint32_t node, int gi)
{
	const sgraph *g = r->g;
	uint64_t size = (uint64_t)(g->comm_size[node] > 0 ? g->comm_size[node] : 0), one = 1;
	int ct = map_type(g->comm_type[node], &one, 1);
	if (ct < 0) {
		sim_fail(s, ET_EXIT_DATA, "rank %u: node %llu: unknown collective type %d", r->rank,
		         (unsigned long long)g->id[node], g->comm_type[node]);
		return NULL;
	}
	scope sc;
	scope_of(s, r, node, gi, ct, &sc);
	map_type(g->comm_type[node], &size, sc.n);
	uint32_t seq = next_seq(s, r, gi, &sc);
	uint64_t *slot = et_hmap_put(&s->coll_map, (uint64_t)sc.base << 32 | (uint32_t)(gi + 1),
	                             (uint64_t)sc.active << 32 | seq, UINT64_MAX);
	if (*slot == UINT64_MAX) {
		coll *c = coll_new(s, r, node, gi, ct, size, &sc);
		*slot = s->ncolls - 1;
		return c;
	}
	coll *c = s->colls[*slot];
	if (c->comm_type != g->comm_type[node] || c->size != size) {
		sim_fail(s, ET_EXIT_DATA,
		         "rank %u: node %llu: collective #%u of its group is type %d of %llu "
		         "bytes, another member issued type %d of %llu bytes",
		         r->rank, (unsigned long long)g->id[node], seq, g->comm_type[node],
		         (unsigned long long)size, c->comm_type, (unsigned long long)c->size);
		return NULL;
	}
	return c;
}

/* ASTRA-sim's insert_stream: after the running streams, before the first
 * waiting one of lower priority. */
static void queue_insert(squeue *q, stream *st)
{
	stream **pp = &q->head;
	while (*pp && ((*pp)->initialized || (*pp)->priority >= st->priority))
		pp = &(*pp)->next;
	st->next = *pp;
	*pp = st;
}

static void queue_remove(squeue *q, stream *st)
{
	for (stream **pp = &q->head; *pp; pp = &(*pp)->next)
		if (*pp == st) {
			*pp = st->next;
			st->next = NULL;
			return;
		}
}

/* Start waiting streams while the queue has room. */
static void queue_kick(sim *s, squeue *q)
{
	for (stream *st = q->head; st && q->running < (uint32_t)s->cf->active_chunks;
	     st = st->next) {
		if (st->initialized)
			continue;
		st->initialized = true;
		q->running++;
		st->phase_start = s->now;
		algo_init(s, st);
		if (sim_stopped(s))
			return;
	}
}

static squeue *queue_of(rank_st *r, const stream *st)
{
	return &r->q[st->rc->c->ph[st->phase].dim];
}

static void stream_enter(sim *s, rank_st *r, stream *st)
{
	squeue *q = queue_of(r, st);
	queue_insert(q, st);
	queue_kick(s, q);
}

int coll_issue(sim *s, rank_st *r, uint32_t node)
{
	int gi;
	if (group_of(s, r, node, &gi) < 0)
		return -1;
	coll *c = find_coll(s, r, node, gi);
	if (!c)
		return -1;
	c->issued++;
	c->last_rank = r->rank;
	c->last_node = node;
	c->last_issue = s->now;
	rcoll *rc = et_xcalloc(1, sizeof *rc);
	rc->c = c;
	rc->rank = r->rank;
	rc->node = node;
	rc->mpos = c->group >= 0  ? ring_index(ring_group(s, c->group), r->rank)
	           : c->scope_mem ? et_dims_scope_index(&s->dims, c->scope_active, r->rank)
	                          : r->rank;
	r->active = rc;
	if (c->nchunks == 0) { /* nothing to send: done at once */
		rc->complete = true;
		r->active = NULL;
		c->members_done++;
		free(rc);
		evq_push(&s->q, s->now, EV_NODE_DONE, r->rank, node, UINT64_MAX);
		return 0;
	}
	rc->st = et_xcalloc(c->nchunks, sizeof *rc->st);
	int pri = s->cf->lifo ? (int)r->prio_counter++ : r->fifo_counter--;
	for (uint32_t k = 0; k < c->nchunks && !sim_stopped(s); k++) {
		stream *st = &rc->st[k];
		st->rc = rc;
		st->chunk = k;
		st->priority = pri;
		stream_enter(s, r, st);
	}
	return 0;
}

static void rcoll_free(rcoll *rc)
{
	for (uint64_t k = 0; k < rc->c->nchunks; k++)
		algo_free(&rc->st[k].a);
	free(rc->st);
	free(rc);
}

static void coll_member_done(coll *c)
{
	if (++c->members_done < c->nsim)
		return;
	for (uint64_t k = 0; k < c->nchunks * c->nphase; k++)
		free(c->cf[k].st);
	free(c->cf);
	c->cf = NULL;
}

static void collective_done(sim *s, rank_st *r, rcoll *rc)
{
	rc->complete = true;
	r->active = NULL;
	coll_member_done(rc->c);
	sim_total_add(s, r->rank, rc->node, &r->comm_ns, s->now - r->start[rc->node],
	              "communication time total");
	wl_node_done(s, r, rc->node, (uint64_t)rc->c->last_rank << 32 | rc->c->last_node);
}

/* ASTRA-sim's proceed_to_next_vnet_baseline. */
void coll_phase_end(sim *s, stream *st)
{
	rcoll *rc = st->rc;
	coll *c = rc->c;
	rank_st *r = &s->r[sim_index(s, rc->rank)];
	squeue *old = queue_of(r, st);
	st->a.done = true;
	if (st->phase + 1 == c->nphase) {
		st->finished = true;
		if (++rc->chunks_done == c->nchunks)
			collective_done(s, r, rc);
		queue_remove(old, st);
		old->running--;
		queue_kick(s, old);
		return;
	}
	queue_remove(old, st);
	st->phase++;
	st->initialized = false;
	algo_free(&st->a);
	squeue *nq = queue_of(r, st);
	queue_insert(nq, st);
	old->running--;
	queue_kick(s, old);
	queue_kick(s, nq);
}

/* After an event of st's collective was handled (its pend already taken
 * off): a complete collective with no event in flight can go. */
void coll_event_done(sim *s, stream *st)
{
	rcoll *rc = st->rc;
	if (rc->pend == 0 && rc->complete && !rc->reaped) {
		rc->reaped = true;
		rc->next_free = s->graveyard;
		s->graveyard = rc;
	}
}

void coll_reap(sim *s)
{
	while (s->graveyard) {
		rcoll *rc = s->graveyard;
		s->graveyard = rc->next_free;
		rcoll_free(rc);
	}
}

void coll_free_all(sim *s)
{
	coll_reap(s);
	for (uint32_t i = 0; i < s->ncolls; i++) {
		coll *c = s->colls[i];
		if (c->cf)
			for (uint64_t k = 0; k < c->nchunks * c->nphase; k++)
				free(c->cf[k].st);
		free(c->cf);
		free(c->ph);
		free(c->scope_mem);
		free(c);
	}
	free(s->colls);
	s->colls = NULL;
	s->ncolls = 0;
}
