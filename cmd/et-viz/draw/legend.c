/* The title and legend: an HTML-like table as the root graph's label,
 * listing only what the picture contains (node types, edge kinds, the
 * critical path, folded runs), so it stays small. */
#include "et-viz/draw/draw.h"
#include "et-viz/draw/style.h"

#include <string.h>

static void title(const conf *c, const model *m, et_buf *b)
{
	et_buf_puts(b, "<TR><TD ALIGN=\"LEFT\" COLSPAN=\"4\"><B>");
	/* a per-rank set has a file per rank: name the first two */
	for (uint32_t k = 0; k < m->n_inputs && k < 2; k++) {
		const char *s = strrchr(m->inputs[k], '/');
		viz_put_text(b, s ? s + 1 : m->inputs[k], ESC_XML);
		et_buf_puts(b, k + 1 < m->n_inputs ? ", " : "");
	}
	if (m->n_inputs > 2)
		et_buf_printf(b, "… (%u files)", m->n_inputs);
	et_buf_printf(b,
	              "</B></TD></TR><TR><TD ALIGN=\"LEFT\" COLSPAN=\"4\">"
	              "<FONT POINT-SIZE=\"9\">%u rank%s · %llu node%s drawn",
	              m->n_ranks, m->n_ranks == 1 ? "" : "s", (unsigned long long)m->n_selected,
	              m->n_selected == 1 ? "" : "s");
	if (m->nv != m->n_selected)
		et_buf_printf(b, " as %u", m->nv);
	et_buf_printf(b, " · %u edge%s", m->ne, m->ne == 1 ? "" : "s");
	uint32_t indirect = 0;
	for (uint32_t k = 0; k < m->ne; k++)
		indirect += m->e[k].kind == EK_INDIRECT;
	if (indirect)
		et_buf_printf(b, " (%u through hidden nodes)", indirect);
	if (m->implied)
		et_buf_printf(b, " (%u implied by longer paths left out)", m->implied);
	if (c->around_set)
		et_buf_printf(b, " · around #%llu, depth %u", (unsigned long long)c->around,
		              c->depth);
	if (c->match) {
		et_buf_puts(b, " · match ");
		viz_put_text(b, c->match, ESC_XML);
	}
	if (c->n_ids)
		et_buf_puts(b, " · --ids");
	et_buf_puts(b, "</FONT></TD></TR>");
}

static void cell(et_buf *b, const char *fill, const char *border, const char *text)
{
	et_buf_printf(b, "<TD BGCOLOR=\"%s\" COLOR=\"%s\" BORDER=\"1\">", fill, border);
	viz_put_text(b, text, ESC_XML);
	et_buf_puts(b, "</TD>");
}

/* Cells in rows of four. */
static void next_cell(et_buf *b, int *n)
{
	if (*n % 4 == 0)
		et_buf_puts(b, *n ? "</TR><TR>" : "<TR>");
	(*n)++;
}

static void node_cells(const model *m, et_buf *b, int *n)
{
	bool used[ST_COUNT] = {0}, folded = false, crit = false;
	for (uint32_t k = 0; k < m->nv; k++) {
		used[viz_style_id(m->ranks[m->v[k].r].g, m->v[k].first)] = true;
		folded |= m->v[k].count > 1;
		crit |= m->v[k].crit;
	}
	char text[96];
	for (int s = 0; s < ST_COUNT; s++) {
		if (!used[s])
			continue;
		next_cell(b, n);
		snprintf(text, sizeof text, "%s · %s", viz_styles[s].what, viz_styles[s].shape);
		cell(b, viz_styles[s].fill, viz_styles[s].border, text);
	}
	if (folded) {
		next_cell(b, n);
		cell(b, "#ffffff", "#555555", "double border: ×N folded run");
	}
	if (crit) {
		next_cell(b, n);
		cell(b, "#ffffff", VIZ_CRIT_COLOR, "red: critical path");
	}
}

static void edge_cells(const model *m, et_buf *b, int *n)
{
	static const char *const what[EK_KINDS] = {
	    "——— data dependency", "- - - ctrl dependency", "- - -▷ through hidden nodes",
	    "······ same collective", "······&gt; send to recv"};
	static const char *const color[EK_KINDS] = {"#555555", "#999999", VIZ_INDIRECT_COLOR,
	                                            "#d79b00", "#4d9a3a"};
	bool used[EK_KINDS] = {0};
	for (uint32_t k = 0; k < m->ne; k++)
		used[m->e[k].kind] = true;
	for (int k = 0; k < EK_KINDS; k++) {
		if (!used[k])
			continue;
		next_cell(b, n);
		et_buf_printf(b, "<TD><FONT COLOR=\"%s\">%s</FONT></TD>", color[k], what[k]);
	}
}

void viz_legend(const conf *c, const model *m, Agraph_t *g)
{
	et_buf b = {0};
	et_buf_puts(&b, "<TABLE BORDER=\"0\" CELLSPACING=\"3\" CELLPADDING=\"3\">");
	title(c, m, &b);
	int n = 0;
	node_cells(m, &b, &n);
	edge_cells(m, &b, &n);
	et_buf_puts(&b, n ? "</TR></TABLE>" : "</TABLE>");
	et_buf_putc(&b, '\0');
	char *html = agstrdup_html(g, (char *)b.data);
	agsafeset(g, "label", html, "");
	agstrfree(g, html);
	agsafeset(g, "labelloc", "t", "");
	agsafeset(g, "labeljust", "l", "");
	et_buf_free(&b);
}
