/* The report: human text (grouped by code, most severe first, with counts
 * and the first N instances) or one JSON document (schema in
 * et-validate(1)). */
#include "et-validate/report/report.h"
#include "app/et_cli.h"
#include "et-validate/report/stats.h"
#include "et_buf.h"

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

static void json_finding(et_buf *b, const finding *x)
{
	if (x->rank >= 0)
		et_buf_printf(b, "{\"rank\": %lld", (long long)x->rank);
	else
		et_buf_puts(b, "{\"rank\": null");
	if (x->has_node) {
		char *q = json_quote(x->name);
		et_buf_printf(b, ", \"node_id\": %llu, \"node_name\": %s",
		              (unsigned long long)x->node_id, q);
		free(q);
	}
	char *m = json_quote(x->msg);
	et_buf_printf(b, ", \"message\": %s", m);
	free(m);
	if (x->extra)
		et_buf_printf(b, ", %s", x->extra);
	et_buf_putc(b, '}');
}

static void json_code(et_buf *b, const findings *fs, code c)
{
	const code_info *ci = &code_table[c];
	et_buf_printf(b,
	              "{\"code\": \"%s\", \"severity\": \"%s\", \"count\": %llu, \"nodes\": %llu, "
	              "\"description\": \"%s\", \"findings\": [",
	              ci->name, sev_name[find_sev(fs, c)], (unsigned long long)fs->count[c],
	              (unsigned long long)fs->nodes[c], ci->what);
	for (size_t k = 0; k < fs->n[c]; k++) {
		if (k)
			et_buf_puts(b, ", ");
		json_finding(b, &fs->list[c][k]);
	}
	et_buf_printf(b, "], \"omitted\": %llu}", (unsigned long long)(fs->count[c] - fs->n[c]));
}

static void json_report(FILE *f, const vctx *v, int status)
{
	const findings *fs = &v->fs;
	et_buf b = {0};
	et_buf_printf(&b,
	              "{\"tool\": \"et-validate\", \"version\": \"%s\", \"profile\": \"%s\", "
	              "\"ranks\": %llu, \"nodes\": %llu, \"errors\": %llu, \"warnings\": %llu, "
	              "\"info\": %llu, \"ok\": %s, \"codes\": [",
	              ETKIT_VERSION, v->o.astra ? "astra-sim" : "default",
	              (unsigned long long)v->n_ranks, (unsigned long long)v->n_nodes,
	              (unsigned long long)find_total(fs, SEV_ERROR),
	              (unsigned long long)find_total(fs, SEV_WARNING),
	              (unsigned long long)find_total(fs, SEV_INFO), status ? "false" : "true");
	int first = 1;
	for (int s = SEV_ERROR; s >= SEV_INFO; s--)
		for (int c = 0; c < C_COUNT; c++)
			if (fs->count[c] && (int)find_sev(fs, (code)c) == s) {
				if (!first)
					et_buf_puts(&b, ", ");
				json_code(&b, fs, (code)c);
				first = 0;
			}
	et_buf_putc(&b, ']');
	if (v->o.want_stats) {
		et_buf_puts(&b, ", \"stats\": ");
		stats_json(&b, v->st);
	}
	et_buf_puts(&b, "}\n");
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
