/* Output: DOT straight from cgraph's writer (no layout: the reader may
 * want to lay it out differently, and writing is instant), or a layout by
 * gvc's dot engine rendered to svg/png/pdf. Graphviz's messages are caught
 * and reported as one-line et-viz errors. */
#include "et-viz/draw/draw.h"
#include "et_output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static char gv_msg[512];

/* Graphviz reports through this; keep the first error, pass warnings on. */
static int gv_err(char *msg)
{
	size_t n = strcspn(msg, "\n");
	if (strncmp(msg, "Warning: ", 9) == 0) {
		et_warn("graphviz: %.*s", (int)(n - 9), msg + 9);
	} else if (!gv_msg[0]) {
		if (strncmp(msg, "Error: ", 7) == 0)
			msg += 7, n -= 7;
		snprintf(gv_msg, sizeof gv_msg, "%.*s", (int)n, msg);
	}
	return 0;
}

static const char *fmt_name(viz_fmt f)
{
	return f == FMT_SVG ? "svg" : f == FMT_PNG ? "png" : f == FMT_PDF ? "pdf" : "dot";
}

/* Rendered to memory, then written by us: gvRender's own writes to a FILE
 * end the process with exit(1) and no message when the disk is full (its
 * device layer exits on a short fwrite), leaving the temporary file behind. */
static int layout_render(const conf *c, Agraph_t *g, et_output *o, et_error *e)
{
	GVC_t *gvc = gvContext();
	int r = 0;
	if (gvLayout(gvc, g, "dot") != 0) {
		r = et_fail(e, ET_EXIT_IO, "graphviz cannot lay the graph out: %s",
		            gv_msg[0] ? gv_msg : "unknown error");
	} else {
		char *data = NULL;
		unsigned int len = 0;
		if (gvRenderData(gvc, g, fmt_name(c->fmt), &data, &len) != 0)
			r = et_fail(e, ET_EXIT_IO,
			            "graphviz cannot render %s here (%s); the renderers come "
			            "with Debian's libgvc6 (cairo for png and pdf)",
			            fmt_name(c->fmt), gv_msg[0] ? gv_msg : "no plugin");
		else if (len && fwrite(data, 1, len, et_output_file(o)) != len)
			r = et_write_failed(et_output_name(o), e);
		gvFreeRenderData(data);
		gvFreeLayout(gvc, g);
	}
	gvFreeContext(gvc);
	return r;
}

int viz_render(const conf *c, Agraph_t *g, et_error *e)
{
	agseterrf(gv_err);
	et_output *o;
	bool binary = c->fmt == FMT_PNG || c->fmt == FMT_PDF;
	if (et_output_open(&o, c->cli.output, binary, e) < 0)
		return -1;
	int r = 0;
	if (c->fmt == FMT_DOT) {
		if (agwrite(g, et_output_file(o)) != 0)
			r = et_write_failed(et_output_name(o), e);
	} else {
		r = layout_render(c, g, o, e);
	}
	if (r < 0) {
		et_output_abort(o);
		return -1;
	}
	return et_output_commit(o, e);
}

/* Graphviz 2.42 leaks in its layout and text sizing (HTML labels, pango,
 * fontconfig) however it is freed; tell LeakSanitizer (make sanitize-test)
 * so that our own leaks stay visible. Unused without -fsanitize. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libgvc.so\nleak:libgvplugin_\nleak:libpango\nleak:libfontconfig\n"
	       "leak:libcairo\nleak:libglib\nleak:libcgraph.so\n";
}
