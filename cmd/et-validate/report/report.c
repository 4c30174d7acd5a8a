/* The report: human text (grouped by code, most severe first, with counts
 * and the first N instances) or one JSON document (schema in
 * et-validate(1)). */
#include "et-validate/report/report.h"
#include "app/et_cli.h"
#include "et-validate/report/stats.h"
#include "et_buf.h"
#include "et_json_str.h"
#include "et_jsonw.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const sev_name[] = {"info", "warning", "error"};

static void text_finding(FILE *f, const finding *x)
{
	fputs("  ", f);
	if (x->rank >= 0)
		fprintf(f, "rank %lld%s", (long long)x->rank, x->has_node ? " " : "");
	if (x->has_node)
		fprintf(f, "node %llu \"%.80s\"", (unsigned long long)x->node_id,
		        x->name ? x->name : "");
	fprintf(f, "%s%s\n", (x->rank >= 0 || x->has_node) ? ": " : "", x->msg ? x->msg : "");
}

static void text_code(FILE *f, const findings *fs, code c)
{
	const code_info *ci = &code_table[c];
	fprintf(f, "%-7s %-18s %8llu", sev_name[find_sev(fs, c)], ci->name,
	        (unsigned long long)fs->count[c]);
	if (fs->nodes[c] != fs->count[c])
		fprintf(f, " on %llu node%s", (unsigned long long)fs->nodes[c],
		        fs->nodes[c] == 1 ? "" : "s");
	fprintf(f, "  %s\n", ci->what);
	for (size_t k = 0; k < fs->n[c]; k++)
		text_finding(f, &fs->list[c][k]);
	if (fs->count[c] > fs->n[c])
		fprintf(f, "  ... %llu more\n", (unsigned long long)(fs->count[c] - fs->n[c]));
}

static void text_report(FILE *f, const vctx *v, int status)
{
	const findings *fs = &v->fs;
	fprintf(f, "%llu rank%s, %llu node%s, profile %s\n", (unsigned long long)v->n_ranks,
	        v->n_ranks == 1 ? "" : "s", (unsigned long long)v->n_nodes,
	        v->n_nodes == 1 ? "" : "s", v->o.astra ? "astra-sim" : "default");
	for (int s = SEV_ERROR; s >= SEV_INFO; s--)
		for (int c = 0; c < C_COUNT; c++)
			if (fs->count[c] && (int)find_sev(fs, (code)c) == s)
				text_code(f, fs, (code)c);
	if (v->o.want_stats)
		stats_text(f, v->st);
	fprintf(f, "%llu error%s, %llu warning%s, %llu info: %s\n",
	        (unsigned long long)find_total(fs, SEV_ERROR),
	        find_total(fs, SEV_ERROR) == 1 ? "" : "s",
	        (unsigned long long)find_total(fs, SEV_WARNING),
	        find_total(fs, SEV_WARNING) == 1 ? "" : "s",
	        (unsigned long long)find_total(fs, SEV_INFO), status ? "FAILED" : "OK");
}

static void json_finding(et_jsonw *j, const finding *x)
{
	et_jsonw_obj(j);
	et_jsonw_key(j, "rank");
	if (x->rank >= 0)
		et_jsonw_int(j, x->rank);
	else
		et_jsonw_null(j);
	if (x->has_node) {
		et_jsonw_kuint(j, "node_id", x->node_id);
		et_jsonw_kstr(j, "node_name", x->name);
	}
	et_jsonw_kstr(j, "message", x->msg);
	if (x->extra)
		et_jsonw_members(j, x->extra);
	et_jsonw_end(j);
}

static void json_code(et_jsonw *j, const findings *fs, code c)
{
	const code_info *ci = &code_table[c];
	et_jsonw_obj(j);
	et_jsonw_kstr(j, "code", ci->name);
	et_jsonw_kstr(j, "severity", sev_name[find_sev(fs, c)]);
	et_jsonw_kuint(j, "count", fs->count[c]);
	et_jsonw_kuint(j, "nodes", fs->nodes[c]);
	et_jsonw_kstr(j, "description", ci->what);
	et_jsonw_karr(j, "findings");
	for (size_t k = 0; k < fs->n[c]; k++)
		json_finding(j, &fs->list[c][k]);
	et_jsonw_end(j);
	et_jsonw_kuint(j, "omitted", fs->count[c] - fs->n[c]);
	et_jsonw_end(j);
}

static void json_report(FILE *f, const vctx *v, int status)
{
	const findings *fs = &v->fs;
	et_buf b = {0};
	/* json.dumps layout; names from the trace with every control as \u00XX */
	et_jsonw j;
	et_jsonw_init(&j, NULL, &b, ET_JSONW_SPACED, ET_JSTR_CTRL_HEX);
	et_jsonw_set_lines(&j, true);
	et_jsonw_obj(&j);
	et_jsonw_kstr(&j, "tool", "et-validate");
	et_jsonw_kstr(&j, "version", ETKIT_VERSION);
	et_jsonw_kstr(&j, "profile", v->o.astra ? "astra-sim" : "default");
	et_jsonw_kuint(&j, "ranks", v->n_ranks);
	et_jsonw_kuint(&j, "nodes", v->n_nodes);
	et_jsonw_kuint(&j, "errors", find_total(fs, SEV_ERROR));
	et_jsonw_kuint(&j, "warnings", find_total(fs, SEV_WARNING));
	et_jsonw_kuint(&j, "info", find_total(fs, SEV_INFO));
	et_jsonw_kbool(&j, "ok", !status);
	et_jsonw_karr(&j, "codes");
	for (int s = SEV_ERROR; s >= SEV_INFO; s--)
		for (int c = 0; c < C_COUNT; c++)
			if (fs->count[c] && (int)find_sev(fs, (code)c) == s)
				json_code(&j, fs, (code)c);
	et_jsonw_end(&j);
	if (v->o.want_stats) {
		et_jsonw_key(&j, "stats");
		stats_json(&j, v->st);
	}
	et_jsonw_end(&j);
	et_jsonw_done(&j);
	fwrite(b.data, 1, b.len, f);
	et_buf_free(&b);
}

int report_status(const vctx *v)
{
	if (find_total(&v->fs, SEV_ERROR))
		return ET_EXIT_FOUND;
	if (v->o.strict && find_total(&v->fs, SEV_WARNING))
		return ET_EXIT_FOUND;
	return ET_EXIT_OK;
}

void report_write(FILE *f, const vctx *v)
{
	int status = report_status(v);
	if (v->o.json)
		json_report(f, v, status);
	else
		text_report(f, v, status);
	if (v->o.want_stats)
		stats_warn_saturated(v->st);
}
