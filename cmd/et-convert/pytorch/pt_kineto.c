/* et-convert --kineto: link a Kineto trace into a host trace (what
 * chakra_trace_link does, without its crashes): host ops get ts, inclusive
 * and exclusive durations and inter-thread dependencies; GPU ops become new
 * nodes under the host op that launched them. A pair of traces that do not
 * come from the same run is refused rather than half-linked silently. */
#include "et-convert/pytorch/pt_kineto.h"

#include <stdio.h>
#include <string.h>

/* Below these shares of linked Kineto CPU ops: a warning, then a refusal. */
#define KT_WARN_PCT 90.0
#define KT_FAIL_PCT 10.0

typedef struct kt_stats {
	uint32_t kin, kin_linked, host, host_linked, gpu;
	int64_t gpu_attached;
} kt_stats;

static double pct(uint32_t part, uint32_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/* The host ops a Kineto trace can have: not the profiler's own thread and
 * process nodes ("[pytorch|profiler|execution_trace|thread]"), which no
 * Kineto event stands for, so that full linking reads 100 %. */
static uint32_t host_ops(const pt_trace *t)
{
	static const char own[] = "[pytorch|profiler|";
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->n; i++) {
		const char *name = pt_str(t, t->nodes[i].name);
		n += t->nodes[i].cat == PT_NONE &&
		     !(name && strncmp(name, own, sizeof own - 1) == 0);
	}
	return n;
}

static void report(const pt_trace *t, const char *path, const pt_opts *o, const kt_stats *s)
{
	double p = pct(s->kin_linked, s->kin);
	if (o->verbose)
		fprintf(
		    stderr,
		    "%s: %s + %s: linked %u/%u Kineto CPU ops (%.1f %%), %u/%u host ops (%.1f %%), "
		    "%lld/%u GPU ops attached\n",
		    et_err_prog(), t->input, path, s->kin_linked, s->kin, p, s->host_linked,
		    s->host, pct(s->host_linked, s->host), (long long)s->gpu_attached, s->gpu);
	if (p < KT_WARN_PCT)
		et_warn("%s + %s: only %u of %u Kineto CPU ops (%.1f %%) match host ops: "
		        "durations and GPU ops are missing for the rest",
		        t->input, path, s->kin_linked, s->kin, p);
}

/* Too few ops match: refuse, or (--allow-unlinked) leave t host-only. */
static int unlinked(const pt_trace *t, const char *path, const pt_opts *o, const kt_stats *s,
                    et_error *e)
{
	if (!o->allow_unlinked && s->kin == 0)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: no Kineto CPU ops (cpu_op or user_annotation events) to link "
		               "(use --allow-unlinked to convert host-only)",
		               path);
	if (!o->allow_unlinked)
		return et_fail(e, ET_EXIT_DATA,
		               "%s + %s: host and Kineto traces are not from the same run: only %u "
		               "of %u Kineto CPU ops match (use --allow-unlinked to convert "
		               "host-only)",
		               t->input, path, s->kin_linked, s->kin);
	et_warn("%s + %s: only %u of %u Kineto CPU ops match: not from the same run, "
	        "converting host-only",
	        t->input, path, s->kin_linked, s->kin);
	return 0;
}

int pt_link_kineto_data(pt_trace *t, kt_data *d, const char *path, const pt_opts *o, et_error *e)
{
	kt_stats s = {d->ncpu, 0, host_ops(t), 0, d->ngpu, 0};
	s.kin_linked = s.host_linked = kt_match(d, t);
	if (pct(s.kin_linked, s.kin) < KT_FAIL_PCT)
		return unlinked(t, path, o, &s, e);
	kt_nest(d);
	kt_apply_times(d, t);
	kt_thread_deps(d, t);
	s.gpu_attached = kt_attach_gpu(d, t, e);
	if (s.gpu_attached < 0)
		return -1;
	pt_index(t);
	report(t, path, o, &s);
	return 0;
}

int pt_link_kineto(pt_trace *t, const char *path, const pt_opts *o, et_error *e)
{
	kt_data d = {0};
	int r = kt_read(&d, path, e);
	if (r == 0)
		r = pt_link_kineto_data(t, &d, path, o, e);
	kt_free(&d);
	return r;
}
