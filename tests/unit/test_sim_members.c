/* The engine's own check of a fold's groups (system/coll.c sim_members):
 * a group of one class runs on its representative alone; a group of
 * several classes with a member that is not simulated cannot run, and the
 * folded run stops (SIM_UNFOLD) rather than price it from one member.
 * classes_find never hands the engine such a fold (test_sim_classes); the
 * classes here are made by hand to reach the check. */
#include "et-sim/workload/classes.h"
#include "et-sim/workload/load.h"
#include "et-sim/workload/workload.h"
#include "sim_fixture.h"
#include "tmpdir.h"

/* Ranks 0 and 2 all-reduce 1 MiB on group 1 = {0, 2}; rank 1 computes. */
static const char *write_trace(void)
{
	const char *path = tmpdir_path("t.jsonl");
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	for (uint32_t r = 0; f && r < 3; r++) {
		fprintf(f,
		        "{\"rank\":%u,\"world_size\":3,\"name\":\"t\",\"metadata\":{\"version\":"
		        "\"0.0.4\"}}\n",
		        r);
		if (r == 1)
			fprintf(f, "{\"id\":1,\"name\":\"w\",\"type\":\"COMP_NODE\","
			           "\"durationMicros\":5}\n");
		else
			fprintf(
			    f,
			    "{\"id\":1,\"name\":\"c\",\"type\":\"COMM_COLL_NODE\",\"attr\":["
			    "{\"name\":\"comm_type\",\"int64Val\":0},{\"name\":\"comm_size\","
			    "\"int64Val\":1048576},{\"name\":\"pg_name\",\"stringVal\":\"1\"}]}\n");
	}
	if (f)
		fclose(f);
	return path;
}

/* A folded run with classes of[] (representatives rep[]): its end and, when
 * it stopped, why. */
static sim_end run_folded(const uint32_t *of, const uint32_t *rep, uint32_t n, const char **why)
{
	const char *groups = tmpdir_path("g.json");
	FILE *g = fopen(groups, "w");
	CHECK(g != NULL);
	if (g) {
		fputs("{\"1\": [0, 2]}\n", g);
		fclose(g);
	}
	const char *const sets[] = {"topology=Switch", "npus-count=3", "bandwidth=50",
	                            "latency=500", NULL};
	cfg c;
	et_error e = {0};
	cfg_defaults(&c);
	for (int i = 0; sets[i]; i++)
		CHECK(cfg_set(&c, sets[i], &e) == 0);
	CHECK(cfg_load_groups(&c, groups, &e) == 0);
	CHECK(cfg_finish(&c, &e) == 0);
	char *argv[] = {(char *)write_trace()};
	et_input_opts io;
	et_input_opts_init(&io);
	workload w;
	CHECK(load_workload(&w, 1, argv, &io, -1, &e) == 0);
	for (uint32_t r = 0; r < 3; r++)
		workload_graph(&w, r);
	uint32_t of_[3], rep_[3];
	memcpy(of_, of, sizeof of_);
	memcpy(rep_, rep, n * sizeof *rep);
	rank_classes rc = {n, of_, rep_, NULL};
	sim_opts op = {.closed_form = true, .progress = -1};
	sim s;
	sim_init(&s, &c, &op, w.rank_graph, w.world, &rc);
	sim_end r = sim_run(&s, &e);
	*why = s.unfold_why;
	sim_free(&s);
	workload_free(&w);
	cfg_free(&c);
	return r;
}

int main(void)
{
	if (!tmpdir_open("test_sim_members"))
		return 1;
	const char *why = NULL;
	/* {0, 2} one class: rank 0 runs it alone, by its closed form */
	const uint32_t one[] = {0, 1, 0}, one_rep[] = {0, 1};
	CHECK(run_folded(one, one_rep, 2, &why) == SIM_DONE);
	/* {0, 2} two classes, and rank 2 stands for nobody simulated */
	const uint32_t two[] = {0, 1, 1}, two_rep[] = {0, 1};
	CHECK(run_folded(two, two_rep, 2, &why) == SIM_UNFOLD);
	CHECK(why && strstr(why, "members not simulated"));
	tmpdir_clear();
	tmpdir_close();
	return check_failures();
}
