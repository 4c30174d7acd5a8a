/* et-sim's rank classes (workload/classes.c) on hand-made cases, each
 * worked out on paper: the coarsest equitable partition, and the cases
 * where a fold by classes would not be exact and classes_find refuses. */
#include "check.h"
#include "et-sim/workload/classes.h"
#include <string.h>

enum { MAXR = 16, MAXI = 8 };

typedef struct tcase {
	uint32_t world;
	uint32_t colour[MAXR];
	cls_item it[MAXR][MAXI];
	uint32_t nit[MAXR];
	comm_group groups[4];
	uint32_t mem[4][MAXR];
	int ngroups;
	uint32_t ring;       /* > 0: ranks sit on a ring of this size (hops = ring distance) */
	bool sw, sw_uniform; /* on a Switch; telling classes_find its groups are uniform */
} tcase;

static int uniform_calls;

static uint64_t ring_sig(const void *ctx, uint32_t a, uint32_t b)
{
	const tcase *t = ctx;
	uint32_t d = a > b ? a - b : b - a;
	if (t->ring - d < d)
		d = t->ring - d;
	return d;
}

static void add(tcase *t, uint32_t r, int kind, int32_t v)
{
	t->it[r][t->nit[r]++] = (cls_item){(uint8_t)kind, v};
}

static void group(tcase *t, const uint32_t *mem, uint32_t n)
{
	int g = t->ngroups++;
	memcpy(t->mem[g], mem, n * sizeof *mem);
	t->groups[g] = (comm_group){g + 1, n, t->mem[g]};
}

/* A Switch: every two ranks 2 hops apart, every group uniform. */
static uint64_t switch_sig(const void *ctx, uint32_t a, uint32_t b)
{
	(void)ctx;
	return a == b ? 0 : 2;
}

static bool all_uniform(const void *ctx, const uint32_t *mem, uint32_t n)
{
	(void)ctx;
	(void)mem;
	(void)n;
	uniform_calls++;
	return true;
}

static int run(tcase *t, rank_classes *rc)
{
	const cls_item *items[MAXR];
	for (uint32_t r = 0; r < t->world; r++)
		items[r] = t->it[r];
	cls_in in = {t->world,
	             t->colour,
	             items,
	             t->nit,
	             t->groups,
	             t->ngroups,
	             t->sw     ? switch_sig
	             : t->ring ? ring_sig
	                       : NULL,
	             t->sw_uniform ? all_uniform : NULL,
	             t};
	return classes_find(rc, &in);
}

static bool classes_are(const rank_classes *rc, const uint32_t *of, uint32_t n)
{
	for (uint32_t r = 0; r < n; r++)
		if (rc->of[r] != of[r])
			return false;
	return true;
}

/* Four identical ranks, one all-reduce over a group of all of them and one
 * over every rank: one class, rank 0 simulated. */
static void identical(void)
{
	tcase t = {.world = 4};
	uint32_t all[] = {0, 1, 2, 3};
	group(&t, all, 4);
	for (uint32_t r = 0; r < 4; r++) {
		add(&t, r, CLS_COLL, 0);
		add(&t, r, CLS_COLL, -1);
	}
	rank_classes rc;
	CHECK(run(&t, &rc) == 0);
	CHECK(rc.n == 1 && rc.rep[0] == 0);
	uint32_t of[] = {0, 0, 0, 0};
	CHECK(classes_are(&rc, of, 4));
	classes_free(&rc);
}

/* dp 2 x pp 2: stage 0 = ranks 0, 1 (colour 0), stage 1 = ranks 2, 3
 * (colour 1); each stage all-reduces over its dp group; 0 -> 2 and 1 -> 3
 * send activations, 2 -> 0 and 3 -> 1 gradients. Two classes, the
 * stages, simulated by ranks 0 and 2. */
static void pipeline(void)
{
	tcase t = {.world = 4, .colour = {0, 0, 1, 1}};
	uint32_t g0[] = {0, 1}, g1[] = {2, 3};
	group(&t, g0, 2);
	group(&t, g1, 2);
	for (uint32_t r = 0; r < 2; r++) {
		add(&t, r, CLS_SEND, (int32_t)r + 2);
		add(&t, r, CLS_RECV, (int32_t)r + 2);
		add(&t, r, CLS_COLL, 0);
		add(&t, r + 2, CLS_RECV, (int32_t)r);
		add(&t, r + 2, CLS_SEND, (int32_t)r);
		add(&t, r + 2, CLS_COLL, 1);
	}
	rank_classes rc;
	CHECK(run(&t, &rc) == 0);
	CHECK(rc.n == 2 && rc.rep[0] == 0 && rc.rep[1] == 2);
	uint32_t of[] = {0, 0, 1, 1};
	CHECK(classes_are(&rc, of, 4));
	classes_free(&rc);
}

/* Two rings of sends, 0 -> 1 -> 2 -> 0 and 3 -> 4 -> 5 -> 3, every rank
 * the same graph but rank 0 (the odd member). Ring {3, 4, 5} stays one
 * class; in ring {0, 1, 2} rank 1 (one step after the odd member) and 2
 * (two steps) part: classes {0}, {1}, {2}, {3, 4, 5}. */
static void odd_member(void)
{
	tcase t = {.world = 6, .colour = {1, 0, 0, 0, 0, 0}};
	for (uint32_t r = 0; r < 6; r++) {
		uint32_t base = r / 3 * 3;
		add(&t, r, CLS_SEND, (int32_t)(base + (r - base + 1) % 3));
		add(&t, r, CLS_RECV, (int32_t)(base + (r - base + 2) % 3));
	}
	rank_classes rc;
	CHECK(run(&t, &rc) == 0);
	CHECK(rc.n == 4);
	uint32_t of[] = {0, 1, 2, 3, 3, 3};
	CHECK(classes_are(&rc, of, 6));
	CHECK(rc.rep[3] == 3);
	classes_free(&rc);
}

/* Ranks 0 and 1 have one graph, but 0 sends to rank 2 and 1 to rank 3,
 * whose graphs differ: 0 and 1 part. */
static void peers_differ(void)
{
	tcase t = {.world = 4, .colour = {0, 0, 1, 2}};
	add(&t, 0, CLS_SEND, 2);
	add(&t, 1, CLS_SEND, 3);
	add(&t, 2, CLS_RECV, 0);
	add(&t, 3, CLS_RECV, 1);
	rank_classes rc;
	CHECK(run(&t, &rc) == 0);
	CHECK(rc.n == 4);
	classes_free(&rc);
	/* the same with 2 and 3 alike: two classes */
	t.colour[3] = 1;
	CHECK(run(&t, &rc) == 0);
	CHECK(rc.n == 2 && rc.rep[1] == 2);
	classes_free(&rc);
}

/* On a ring of 8, groups {0, 2, 4, 6} and {1, 3, 5, 7} see 2 hops between
 * neighbours from every member: one class. Groups {0, 1, 2, 3} and
 * {4, 5, 6, 7} do not (1, 1, 1 then 3 back to the start): a member's class
 * is its place in its group, 4 classes whose representatives 0-3 make up
 * the first group (which the engine steps member by member), while no
 * member of the second is simulated. */
static void ring_hops(void)
{
	tcase t = {.world = 8, .ring = 8};
	uint32_t ev[] = {0, 2, 4, 6}, od[] = {1, 3, 5, 7};
	group(&t, ev, 4);
	group(&t, od, 4);
	for (uint32_t r = 0; r < 8; r++)
		add(&t, r, CLS_COLL, (int32_t)(r & 1));
	rank_classes rc;
	CHECK(run(&t, &rc) == 0);
	CHECK(rc.n == 1);
	classes_free(&rc);
	tcase u = {.world = 8, .ring = 8};
	uint32_t lo[] = {0, 1, 2, 3}, hi[] = {4, 5, 6, 7};
	group(&u, lo, 4);
	group(&u, hi, 4);
	for (uint32_t r = 0; r < 8; r++)
		add(&u, r, CLS_COLL, (int32_t)(r / 4));
	CHECK(run(&u, &rc) == 0);
	uint32_t of[] = {0, 1, 2, 3, 0, 1, 2, 3};
	CHECK(rc.n == 4 && classes_are(&rc, of, 8));
	classes_free(&rc);
}

/* Groups of several colours on a Switch, where only the colours after a
 * member tell it apart. {0..5} coloured 0..5 and {6..11} coloured 2, 3,
 * 4, 5, 0, 1: rank 6 sees 3, 4, 5, 0, 1 after it, as rank 2 does, so the
 * second group's members are the first's shifted by 2 (which checks the
 * colour sequences of every place, not just the first). A group coloured
 * 0, 1, 0, 1 has two classes, of ranks 0 and 2 and of 1 and 3: the
 * representatives 0 and 1 would need their peers 2 and 3, which are not
 * simulated, and the fold is refused. */
static void mixed_groups(void)
{
	tcase t = {.world = 12, .sw = true, .colour = {0, 1, 2, 3, 4, 5, 2, 3, 4, 5, 0, 1}};
	uint32_t a[] = {0, 1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10, 11};
	group(&t, a, 6);
	group(&t, b, 6);
	for (uint32_t r = 0; r < 12; r++)
		add(&t, r, CLS_COLL, r < 6 ? 0 : 1);
	rank_classes rc;
	CHECK(run(&t, &rc) == 0);
	uint32_t of[] = {0, 1, 2, 3, 4, 5, 2, 3, 4, 5, 0, 1};
	CHECK(rc.n == 6 && classes_are(&rc, of, 12));
	classes_free(&rc);
	tcase u = {.world = 4, .sw = true, .colour = {0, 1, 0, 1}};
	uint32_t all[] = {0, 1, 2, 3};
	group(&u, all, 4);
	for (uint32_t r = 0; r < 4; r++)
		add(&u, r, CLS_COLL, 0);
	CHECK(run(&u, &rc) < 0);
	CHECK(rc.why && strstr(rc.why, "some of them simulated and some not"));
}

/* Refusals: a rank sending to two ranks of one class (their messages
 * would share a mailbox), a collective over every rank with two classes,
 * a collective on a group the rank is not in. */
static void refusals(void)
{
	tcase t = {.world = 3, .colour = {0, 1, 1}};
	add(&t, 0, CLS_SEND, 1);
	add(&t, 0, CLS_SEND, 2);
	add(&t, 1, CLS_RECV, 0);
	add(&t, 2, CLS_RECV, 0);
	rank_classes rc;
	CHECK(run(&t, &rc) < 0);
	CHECK(rc.why && strstr(rc.why, "two ranks of one class"));
	tcase u = {.world = 2, .colour = {0, 1}};
	add(&u, 0, CLS_COLL, -1);
	add(&u, 1, CLS_COLL, -1);
	CHECK(run(&u, &rc) < 0);
	CHECK(rc.why && strstr(rc.why, "every rank"));
	tcase v = {.world = 2};
	uint32_t one[] = {0};
	group(&v, one, 1);
	add(&v, 0, CLS_COLL, 0);
	add(&v, 1, CLS_COLL, 0);
	CHECK(run(&v, &rc) < 0);
	CHECK(rc.why && strstr(rc.why, "not in"));
}

/* Two groups of 4 on a Switch: one class, whether or not classes_find is
 * told the groups are uniform (then it asks once per group and takes
 * member 0's view for all). */
static void switch_groups(void)
{
	for (int u = 0; u < 2; u++) {
		tcase t = {.world = 8, .sw = true, .sw_uniform = u == 1};
		uint32_t g0[] = {0, 1, 2, 3}, g1[] = {4, 5, 6, 7};
		group(&t, g0, 4);
		group(&t, g1, 4);
		for (uint32_t r = 0; r < 8; r++)
			add(&t, r, CLS_COLL, r < 4 ? 0 : 1);
		uniform_calls = 0;
		rank_classes rc;
		CHECK(run(&t, &rc) == 0);
		CHECK(rc.n == 1 && rc.rep[0] == 0);
		CHECK(uniform_calls == (u == 1 ? 2 : 0));
		classes_free(&rc);
	}
}

int main(void)
{
	switch_groups();
	identical();
	pipeline();
	odd_member();
	peers_differ();
	ring_hops();
	mixed_groups();
	refusals();
	return check_failures();
}
