/* The look of a node: shape and colours by node type, and the text of its
 * label and tooltip (cgraph escString syntax: "\n" breaks lines). */
#ifndef ET_VIZ_DRAW_STYLE_H
#define ET_VIZ_DRAW_STYLE_H

#include "et-viz/viz.h"
#include "et_buf.h"

#include <stddef.h>

typedef enum style_id {
	ST_COMP_HOST,
	ST_COMP_DEV,
	ST_COLL,
	ST_SEND,
	ST_RECV,
	ST_MEM,
	ST_META,
	ST_OTHER,
	ST_COUNT
} style_id;

typedef struct node_style {
	const char *shape, *fill, *border, *what;
} node_style;

extern const node_style viz_styles[ST_COUNT];
#define VIZ_CRIT_COLOR "#d62728"
#define VIZ_INDIRECT_COLOR "#1f78b4" /* edges through hidden nodes */

style_id viz_style_id(const et_graph *g, uint32_t i);

/* Label and tooltip of a vertex, appended (escaped for cgraph). */
void viz_label(const model *m, const vvert *v, et_buf *label);
void viz_tooltip(const model *m, const vvert *v, et_buf *tip);

/* Text helpers (text.c). */
void viz_shorten(const char *name, char *out, size_t cap); /* cap >= 64 */
/* The first max_chars characters of s, "…" marking a cut. */
void viz_trunc(const char *s, size_t max_chars, char *out, size_t cap);
void viz_fmt_dur(uint64_t us, char *out, size_t cap);
void viz_fmt_bytes(int64_t b, char *out, size_t cap);
/* Append s as valid UTF-8 without control characters, escaping what the
 * target syntax needs: esc_gv for cgraph escStrings (backslash), esc_xml
 * for HTML-like labels and SVG text (JSON: et_trace_event escapes). */
enum { ESC_GV = 1, ESC_XML = 2 };
void viz_put_text(et_buf *b, const char *s, int esc);

#endif
