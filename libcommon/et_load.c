/* et_load (see et_load.h): takes et_reader's batches in order and turns
 * them into the tool's callbacks and graphs. */
#include "et_load.h"
#include "et_hmap.h"
#include "et_mem.h"
#include "et_progress.h"

#include <stdlib.h>
#include <string.h>

typedef struct loader {
	const et_load_hooks *h;
	const et_input *in;
	et_progress pr;
	et_graph *g; /* the rank being read: the tool's */
	et_load_rank rank;
	char *input; /* rank.ri.input: the batch that named it is gone by rank_end */
	size_t input_cap;
	uint8_t *groups; /* rank.ri.groups, kept for the same reason */
	size_t groups_cap;
	uint8_t *rule; /* rank.ri.rule and crule, kept for the same reason */
	size_t rule_cap;
	et_crule_class crule;
	et_load_stats st;
	/* progress counts the nodes a rank stands for: a rank that comes as
	 * its rule adds its class's (by class id and generation) */
	et_hmap class_nodes;
	uint64_t shown;
} loader;

static void keep_input(loader *l, const char *name)
{
	size_t n = strlen(name) + 1;
	ET_GROW(l->input, l->input_cap, n);
	l->rank.ri.input = memcpy(l->input, name, n);
}

static int begin_rank(loader *l, const et_reader_batch *b, et_error *e)
{
	memset(&l->rank, 0, sizeof l->rank);
	l->rank.ri = b->ri;
	keep_input(l, b->ri.input);
	if (b->ri.groups_len) {
		ET_GROW(l->groups, l->groups_cap, b->ri.groups_len);
		l->rank.ri.groups = memcpy(l->groups, b->ri.groups, b->ri.groups_len);
	}
	if (b->ri.rule_len) {
		ET_GROW(l->rule, l->rule_cap, b->ri.rule_len);
		l->rank.ri.rule = memcpy(l->rule, b->ri.rule, b->ri.rule_len);
	}
	if (b->ri.crule) {
		et_crule_class_copy(&l->crule, b->ri.crule);
		l->rank.ri.crule = &l->crule;
		*et_hmap_put(&l->class_nodes, b->ri.class_id, b->ri.class_gen, 0) =
		    b->ri.crule->n_nodes;
	}
	l->g = NULL;
	l->st.ranks++;
	et_progress_rank(&l->pr, b->ri.rank, et_input_ranks_expected(l->in, &b->ri));
	if (l->h->rank_begin(l->h->ctx, &l->rank.ri, &l->g, e) < 0)
		return -1;
	et_graph_reset(l->g);
	return 0;
}

/* The batch's messages that were read in full, for the msg callback. */
static int pass_msgs(loader *l, const et_reader_batch *b, et_error *e)
{
	if (!l->h->msg)
		return 0;
	for (int k = 0; k < b->n_whole; k++) {
		const et_reader_msg *m = &b->msg[k];
		/* An empty message may sit in a batch with no bytes (NULL). */
		et_msg msg = {m->len ? b->bytes + m->off : (const uint8_t *)"", m->len, m->offset,
		              m->index};
		if (l->h->msg(l->h->ctx, &msg, e) < 0)
			return -1;
	}
	return 0;
}

/* Progress counts nodes over all ranks, so a run of small ranks shows. */
static int add_nodes(loader *l, const et_reader_batch *b, et_error *e)
{
	l->rank.meta_is_node |= b->meta_is_node;
	for (int k = 0; k < b->len; k++) {
		uint32_t i = et_graph_add_indexed(l->g, b->n[k], b->index[k]);
		if (l->h->node && l->h->node(l->h->ctx, l->g, i, b->n[k], e) < 0)
			return -1;
		l->st.nodes++;
		et_progress_update(&l->pr, ++l->shown);
	}
	return 0;
}

static int end_rank(loader *l, const et_reader_batch *b, et_error *e)
{
	l->rank.n_msgs = b->n_msgs;
	const uint64_t *n = l->rank.ri.rule_only ? et_hmap_get(&l->class_nodes, l->rank.ri.class_id,
	                                                       l->rank.ri.class_gen)
	                                         : NULL;
	if (n) {
		l->shown += *n;
		et_progress_update(&l->pr, l->shown);
	}
	et_graph_finish(l->g);
	return l->h->rank_end(l->h->ctx, l->g, &l->rank, e);
}

static int take(loader *l, const et_reader_batch *b, et_error *e)
{
	switch (b->kind) {
	case ET_READER_RANK:
		return begin_rank(l, b, e);
	case ET_READER_NODES:
		if (pass_msgs(l, b, e) < 0)
			return -1;
		return add_nodes(l, b, e);
	case ET_READER_END_RANK:
		return end_rank(l, b, e);
	case ET_READER_ERROR:
		if (pass_msgs(l, b, e) < 0)
			return -1;
		*e = b->err;
		return -1;
	case ET_READER_EOF:
		return 0;
	}
	return 0;
}

int et_load(et_input *in, const et_load_opts *o, const et_load_hooks *h, et_load_stats *st,
            et_error *e)
{
	loader l = {.h = h, .in = in};
	et_progress_init(&l.pr, o->progress, "nodes");
	et_reader *r = et_reader_start(in, o->threaded);
	int rc = 0;
	for (et_reader_kind k = ET_READER_RANK; rc == 0 && k != ET_READER_EOF;) {
		et_reader_batch *b = et_reader_next(r);
		k = b->kind;
		rc = take(&l, b, e);
		et_reader_release(r, b);
	}
	l.st.threaded = et_reader_threaded(r);
	l.st.times = et_reader_stop(r);
	et_progress_done(&l.pr);
	free(l.input);
	free(l.groups);
	free(l.rule);
	et_crule_class_free(&l.crule);
	et_hmap_free(&l.class_nodes);
	if (st)
		*st = l.st;
	return rc;
}

int et_load_args(int argc, char *const argv[], const et_input_opts *io, const et_load_opts *o,
                 const et_load_hooks *h, et_load_stats *st, et_error *e)
{
	et_input *in;
	if (st)
		memset(st, 0, sizeof *st); /* what a failed open read: nothing */
	if (et_input_open(&in, argc, argv, io, e) < 0)
		return -1;
	et_load_stats s;
	int rc = et_load(in, o, h, &s, e);
	et_input_close(in);
	if (st)
		*st = s;
	return rc;
}
