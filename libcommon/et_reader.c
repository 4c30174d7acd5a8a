/* The reader (see et_reader.h): a ring of ET_READER_SLOTS batches. The
 * framing side fills free slots in input order; either thread decodes framed
 * slots; the consumer takes slots in order and frees them. All slot states change under
 * one mutex, once per batch, never per node. */
#include "et_reader.h"
#include "et_mem.h"
#include "et_progress.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Slot states. READY batches are complete; FRAMED ones still need
 * decoding, which BUSY marks as under way. */
enum { SL_FREE, SL_FRAMED, SL_BUSY, SL_READY };

/* Framing states. */
enum { S_RANK, S_NODES, S_END_RANK, S_DONE };

/* A graph holds fewer than 2^32 - 4 nodes (et_graph.h); the reader stops a
 * rank with more messages than that, so adding a node cannot fail. */
#define MAX_RANK_MSGS ((uint64_t)UINT32_MAX - 4)

struct et_reader {
	et_input *in;
	et_reader_batch slot[ET_READER_SLOTS];
	/* framing, on the reading side only */
	unsigned tail; /* the next slot to frame */
	int state;
	et_rank_info ri;
	uint64_t n_msgs; /* of the current rank */
	uint64_t thread_cpu, inline_ns;
	/* shared, under mu */
	unsigned head; /* the next slot for the consumer */
	bool threaded, stop, cons_waiting, prod_waiting;
	unsigned filled; /* slots from head on that are not free */
	size_t ahead;    /* message bytes framed and not released */
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cons_cv, prod_cv;
};

/* ---- framing ---- */

static void close_error(et_reader *r, et_reader_batch *b)
{
	b->kind = ET_READER_ERROR;
	b->n_whole = b->n_framed;
	r->state = S_DONE;
}

static void copy_msg(et_reader_batch *b, const et_msg *m)
{
	ET_GROW(b->bytes, b->bytes_cap, b->bytes_len + m->len);
	if (m->len) /* an empty message may come with no buffer yet */
		memcpy(b->bytes + b->bytes_len, m->data, m->len);
	b->msg[b->n_framed++] = (et_reader_msg){b->bytes_len, m->len, m->offset, m->index};
	b->bytes_len += m->len;
}

/* Up to ET_READER_BATCH messages (or ET_READER_BATCH_BYTES) of the current rank; at its
 * end, the rank's closing batch follows (this one, when it holds none). */
static void frame_nodes(et_reader *r, et_reader_batch *b)
{
	b->kind = ET_READER_NODES;
	snprintf(b->where, sizeof b->where, "%s: rank %u", r->ri.input, r->ri.rank);
	et_msg m;
	while (b->n_framed < ET_READER_BATCH && b->bytes_len < ET_READER_BATCH_BYTES) {
		int k = et_input_next_msg(r->in, &m, &b->err);
		if (k < 0)
			return close_error(r, b);
		if (k == 0)
			break;
		if (++r->n_msgs > MAX_RANK_MSGS) {
			et_fail(&b->err, ET_EXIT_DATA, "%s: byte %llu: too many nodes in one rank",
			        b->where, (unsigned long long)m.offset);
			return close_error(r, b);
		}
		copy_msg(b, &m);
	}
	if (b->n_framed == ET_READER_BATCH || b->bytes_len >= ET_READER_BATCH_BYTES)
		return;
	r->state = S_END_RANK;
	if (b->n_framed == 0) {
		b->kind = ET_READER_END_RANK;
		b->n_msgs = r->n_msgs;
		r->state = S_RANK;
	}
}

/* The input's name, copied into b: the framing side may close its file
 * before the consumer looks. */
static const char *keep_input(et_reader_batch *b, const char *name)
{
	size_t n = strlen(name) + 1;
	ET_GROW(b->input, b->input_cap, n);
	return memcpy(b->input, name, n);
}

/* A class rank's rule and slot nodes, copied into b as the groups are. */
static void keep_class(et_reader_batch *b, const et_rank_info *ri)
{
	if (ri->rule_len) {
		ET_GROW(b->rule, b->rule_cap, ri->rule_len);
		b->ri.rule = memcpy(b->rule, ri->rule, ri->rule_len);
	}
	if (ri->crule) {
		et_crule_class_copy(&b->crule, ri->crule);
		b->ri.crule = &b->crule;
	}
}

/* Fills b with the next batch of the input, leaving nodes undecoded.
 * Returns the slot state it is in: FRAMED or READY (nothing to decode). */
static int frame(et_reader *r, et_reader_batch *b)
{
	b->n_framed = b->n_whole = 0;
	b->bytes_len = 0;
	switch (r->state) {
	case S_RANK: {
		int k = et_input_next_rank(r->in, &r->ri, &b->err);
		if (k < 0) {
			close_error(r, b);
		} else if (k == 0) {
			b->kind = ET_READER_EOF;
			r->state = S_DONE;
		} else {
			b->kind = ET_READER_RANK;
			b->ri = r->ri;
			b->ri.input = keep_input(b, r->ri.input);
			if (r->ri.groups_len) {
				ET_GROW(b->groups, b->groups_cap, r->ri.groups_len);
				memcpy(b->groups, r->ri.groups, r->ri.groups_len);
				b->ri.groups = b->groups;
			}
			keep_class(b, &r->ri);
			r->n_msgs = 0;
			r->state = S_NODES;
		}
		break;
	}
	case S_NODES:
		frame_nodes(r, b);
		break;
	case S_END_RANK:
		b->kind = ET_READER_END_RANK;
		b->n_msgs = r->n_msgs;
		r->state = S_RANK;
		break;
	default: /* not reached: nothing is framed after ET_READER_EOF / ET_READER_ERROR */
		b->kind = ET_READER_EOF;
		break;
	}
	return b->kind == ET_READER_NODES ? SL_FRAMED : SL_READY;
}

/* ---- decoding, on either thread ---- */

/* Message 0 should be the GlobalMetadata. A Node's first field (id, a
 * varint) cannot parse as GlobalMetadata.version (a string), so most
 * nodes fail that parse; a node without an id may parse, but then its
 * other fields are unknown to GlobalMetadata, which is how it is told
 * apart. Returns 1 = metadata, 0 = a node (*n set), -1 = neither. */
static int first_message(et_arena *a, const uint8_t *p, size_t len, et_node **n)
{
	et_meta *md = et_meta_decode(a, p, len);
	if (md && md->base.n_unknown_fields == 0)
		return 1;
	*n = et_node_decode(a, p, len);
	if (*n && (*n)->base.n_unknown_fields == 0 &&
	    ((*n)->type || (*n)->n_data_deps || (*n)->n_ctrl_deps || (*n)->id || !md))
		return 0;
	return md ? 1 : -1;
}

static int decode_msg(et_reader_batch *b, const et_reader_msg *m)
{
	/* An empty message may sit in a batch with no bytes (b->bytes NULL). */
	const uint8_t *p = m->len ? b->bytes + m->off : (const uint8_t *)"";
	et_node *n = NULL;
	if (m->index == 0) {
		int k = first_message(b->arena, p, m->len, &n);
		if (k < 0)
			return et_fail(&b->err, ET_EXIT_DATA,
			               "%s: byte %llu: message 0 parses as neither GlobalMetadata "
			               "nor Node",
			               b->where, (unsigned long long)m->offset);
		if (k == 1)
			return 0;
		b->meta_is_node = true;
	} else if (!(n = et_node_decode(b->arena, p, m->len))) {
		return et_fail(&b->err, ET_EXIT_DATA, "%s: byte %llu: message %llu is not a Node",
		               b->where, (unsigned long long)m->offset,
		               (unsigned long long)m->index);
	}
	b->n[b->len] = n;
	b->index[b->len++] = (uint32_t)m->index;
	return 0;
}

/* A message that does not decode makes the batch an error: the input
 * cannot be read in full, and nothing after it counts. */
static void decode(et_reader_batch *b)
{
	et_arena_reset(b->arena);
	b->len = 0;
	b->meta_is_node = false;
	for (int k = 0; k < b->n_framed; k++)
		if (decode_msg(b, &b->msg[k]) < 0) {
			b->kind = ET_READER_ERROR;
			b->n_whole = k + 1; /* the bad message was read in full too */
			return;
		}
	b->n_whole = b->n_framed;
}

/* ---- the reading thread ---- */

static void wake_consumer(et_reader *r)
{
	if (r->cons_waiting)
		pthread_cond_signal(&r->cons_cv);
}

/* A framed slot nobody decodes yet, or NULL (under mu): the oldest for
 * the consumer, the newest for the reading thread, so that the two decode
 * from opposite ends and the consumer seldom finds the reading thread busy
 * with the very batch they need next. */
static et_reader_batch *framed_slot(et_reader *r, bool oldest)
{
	for (unsigned k = 0; k < r->filled; k++) {
		unsigned at = oldest ? k : r->filled - 1 - k;
		et_reader_batch *b = &r->slot[(r->head + at) % ET_READER_SLOTS];
		if (b->state == SL_FRAMED)
			return b;
	}
	return NULL;
}

/* Decodes b, which the caller marked BUSY (mu held on entry and exit). */
static void decode_unlocked(et_reader *r, et_reader_batch *b)
{
	pthread_mutex_unlock(&r->mu);
	decode(b);
	pthread_mutex_lock(&r->mu);
	b->state = SL_READY;
}

/* Framing comes first, as it is cheap and gives both threads batches to
 * decode; then the newest framed batch. */
static void *run(void *arg)
{
	et_reader *r = arg;
	pthread_mutex_lock(&r->mu);
	while (!r->stop) {
		et_reader_batch *b = &r->slot[r->tail];
		if (r->state != S_DONE && b->state == SL_FREE && r->ahead < ET_READER_AHEAD_BYTES) {
			pthread_mutex_unlock(&r->mu);
			int st = frame(r, b);
			pthread_mutex_lock(&r->mu);
			b->state = st;
			r->filled++;
			r->ahead += b->bytes_len;
			r->tail = (r->tail + 1) % ET_READER_SLOTS;
			wake_consumer(r);
		} else if ((b = framed_slot(r, false))) {
			b->state = SL_BUSY;
			decode_unlocked(r, b);
			wake_consumer(r);
		} else if (r->state == S_DONE) {
			break;
		} else {
			r->prod_waiting = true;
			pthread_cond_wait(&r->prod_cv, &r->mu);
			r->prod_waiting = false;
		}
	}
	pthread_mutex_unlock(&r->mu);
	r->thread_cpu = et_cpu_ns();
	return NULL;
}

et_reader *et_reader_start(et_input *in, bool threaded)
{
	et_reader *r = et_xcalloc(1, sizeof *r);
	r->in = in;
	r->state = S_RANK;
	for (int k = 0; k < ET_READER_SLOTS; k++)
		r->slot[k].arena = et_arena_new();
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cons_cv, NULL);
	pthread_cond_init(&r->prod_cv, NULL);
	r->threaded = threaded && pthread_create(&r->th, NULL, run, r) == 0;
	return r;
}

/* ---- the consumer's side ---- */

static et_reader_batch *next_inline(et_reader *r)
{
	et_reader_batch *b = &r->slot[r->head];
	uint64_t t0 = et_now_ns();
	if (frame(r, b) == SL_FRAMED)
		decode(b);
	r->inline_ns += et_now_ns() - t0;
	return b;
}

/* The consumer needs the head batch. While the reading thread decodes it,
 * they decode a later one rather than sleep: a sleep and a wake-up cost
 * more here than decoding a batch. */
et_reader_batch *et_reader_next(et_reader *r)
{
	if (!r->threaded)
		return next_inline(r);
	et_reader_batch *head = &r->slot[r->head];
	pthread_mutex_lock(&r->mu);
	while (head->state != SL_READY) {
		et_reader_batch *b = head->state == SL_FRAMED ? head : framed_slot(r, true);
		if (b) {
			b->state = SL_BUSY;
			uint64_t t0 = et_now_ns();
			decode_unlocked(r, b);
			r->inline_ns += et_now_ns() - t0;
			continue;
		}
		r->cons_waiting = true;
		pthread_cond_wait(&r->cons_cv, &r->mu);
		r->cons_waiting = false;
	}
	pthread_mutex_unlock(&r->mu);
	return head;
}

/* A batch that held a huge message gives its buffer back. */
static void trim(et_reader_batch *b)
{
	if (b->bytes_cap > 4 * ET_READER_BATCH_BYTES) {
		free(b->bytes);
		b->bytes = NULL;
		b->bytes_cap = 0;
	}
}

void et_reader_release(et_reader *r, et_reader_batch *b)
{
	if (!r->threaded) {
		r->head = (r->head + 1) % ET_READER_SLOTS;
		trim(b);
		return;
	}
	pthread_mutex_lock(&r->mu);
	r->head = (r->head + 1) % ET_READER_SLOTS;
	r->filled--;
	r->ahead -= b->bytes_len;
	b->state = SL_FREE;
	trim(b);
	if (r->prod_waiting)
		pthread_cond_signal(&r->prod_cv);
	pthread_mutex_unlock(&r->mu);
}

bool et_reader_threaded(const et_reader *r)
{
	return r->threaded;
}

et_reader_times et_reader_stop(et_reader *r)
{
	if (r->threaded) {
		pthread_mutex_lock(&r->mu);
		r->stop = true;
		pthread_cond_signal(&r->prod_cv);
		pthread_mutex_unlock(&r->mu);
		pthread_join(r->th, NULL);
	}
	et_reader_times t = {r->thread_cpu, r->inline_ns};
	for (int k = 0; k < ET_READER_SLOTS; k++) {
		et_arena_free(r->slot[k].arena);
		free(r->slot[k].bytes);
		free(r->slot[k].input);
		free(r->slot[k].groups);
		free(r->slot[k].rule);
		et_crule_class_free(&r->slot[k].crule);
	}
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cons_cv);
	pthread_cond_destroy(&r->prod_cv);
	free(r);
	return t;
}
