/* report: what a run produced, and how it is printed. */
#ifndef ET_SIM_REPORT_REPORT_H
#define ET_SIM_REPORT_REPORT_H
#include "et-sim/workload/load.h"
#include "et-sim/workload/workload.h"
#include "et_jsonw.h"
#include "et_ranklist.h"
#include <stdio.h>

typedef struct rank_res {
	uint64_t finish, gpu_comp, cpu, comm, exposed, idle;
	uint64_t busy[RES_N];
} rank_res;

typedef struct run_res {
	uint32_t world;
	rank_res *r;
	uint64_t iter, fmin, fmed, fmax;
} run_res;

/* Per-rank results of a finished run (folded: each rank its class's
 * representative's, which are the same). */
void report_collect(const sim *s, run_res *out);
void report_free(run_res *r);
void report_text(FILE *f, const sim *s, const run_res *rr, const workload *w);
/* The JSON report's object, left open for more members (crit_json). Its
 * collectives list holds the ranks of colls (NULL: every rank; a list
 * with no range: none), since every rank's would grow with ranks x
 * collectives. */
void report_json(et_jsonw *j, const sim *s, const run_res *rr, const workload *w,
                 const et_ranklist *colls);
void report_astra(FILE *f, const run_res *rr);
/* 0 if every rank finished; else -1 with e set (ET_EXIT_FOUND, "deadlock:
 * N rank(s) blocked: ..." naming the first blocked ranks and their nodes). */
int report_deadlock(const sim *s, et_error *e);
/* v with thousands separators ("1,048,576") in buf (32 bytes). */
const char *report_grp(uint64_t v, char *buf);
/* The rank state to print for trace rank `rank` (folded: its class's
 * representative's). */
const rank_st *report_rank(const sim *s, uint32_t rank);

/* One CSV cell (RFC 4180): as it is, or quoted with its quotes doubled when
 * it holds a comma, a quote or a newline (InfraGraph's names and error
 * messages are free text). */
void report_csv_cell(FILE *f, const char *s);

#endif
