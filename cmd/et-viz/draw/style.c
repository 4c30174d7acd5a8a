/* Shapes and colours by node type (the legend lists the same table), and
 * the label and tooltip text of a vertex. */
#include "et-viz/draw/style.h"
#include "et_attr.h"
#include "et_types.h"

#include <stdio.h>

/* Colour-blind-safe pastel fills with darker borders of the same hue. */
const node_style viz_styles[ST_COUNT] = {
    [ST_COMP_HOST] = {"box", "#dae8fc", "#6c8ebf", "compute (host)"},
    [ST_COMP_DEV] = {"box", "#9ec5f0", "#3b6ea8", "compute (device)"},
    [ST_COLL] = {"hexagon", "#ffe6cc", "#d79b00", "collective"},
    [ST_SEND] = {"house", "#d5e8d4", "#82b366", "send"},
    [ST_RECV] = {"invhouse", "#e1d5e7", "#9673a6", "recv"},
    [ST_MEM] = {"cylinder", "#fff2cc", "#d6b656", "memory load/store"},
    [ST_META] = {"note", "#f5f5f5", "#888888", "metadata"},
    [ST_OTHER] = {"box", "#ffffff", "#b85450", "invalid / unknown type"},
};

style_id viz_style_id(const et_graph *g, uint32_t i)
{
	switch (g->type[i]) {
	case ET_NODE_METADATA:
		return ST_META;
	case ET_NODE_MEM_LOAD:
	case ET_NODE_MEM_STORE:
		return ST_MEM;
	case ET_NODE_COMP:
		/* is_cpu_op false marks a device kernel; absent means host */
		return (g->flags[i] & ET_GF_CPU_SET) && !(g->flags[i] & ET_GF_CPU) ? ST_COMP_DEV
		                                                                   : ST_COMP_HOST;
	case ET_NODE_SEND:
		return ST_SEND;
	case ET_NODE_RECV:
		return ST_RECV;
	case ET_NODE_COLL:
		return ST_COLL;
	default:
		return ST_OTHER;
	}
}

static void comm_line(const et_graph *g, uint32_t i, et_buf *b)
{
	const et_graph_comm *c = et_graph_comm_at(g, i);
	char size[32] = "";
	if (g->flags[i] & ET_GF_COMM_SIZE)
		viz_fmt_bytes(c->size, size, sizeof size);
	uint8_t t = g->type[i];
	if (t == ET_NODE_COLL) {
		const char *ct =
		    g->flags[i] & ET_GF_COMM_TYPE ? et_coll_type_name(c->type) : "no comm_type";
		et_buf_printf(b, "\\n%s%s%s", ct ? ct : "bad comm_type", *size ? " · " : "", size);
	} else if (t == ET_NODE_SEND && (g->flags[i] & ET_GF_COMM_DST)) {
		et_buf_printf(b, "\\nto %d%s%s", c->dst, *size ? " · " : "", size);
	} else if (t == ET_NODE_RECV && (g->flags[i] & ET_GF_COMM_SRC)) {
		et_buf_printf(b, "\\nfrom %d%s%s", c->src, *size ? " · " : "", size);
	} else if (*size) {
		et_buf_printf(b, "\\n%s", size);
	} else if (et_node_is_mem(t) && (g->flags[i] & ET_GF_TENSOR_SIZE)) {
		viz_fmt_bytes((int64_t)g->tensor_size[i], size, sizeof size);
		et_buf_printf(b, "\\n%s", size);
	}
}

void viz_label(const model *m, const vvert *v, et_buf *b)
{
	const et_graph *g = m->ranks[v->r].g;
	char s[256];
	viz_shorten(et_graph_name(g, v->first), s, sizeof s);
	viz_put_text(b, s, ESC_GV);
	if (v->count > 1)
		et_buf_printf(b, " ×%u", v->count);
	et_buf_printf(b, "\\n#%llu", (unsigned long long)g->id[v->first]);
	if (v->count > 1)
		et_buf_printf(b, "–%llu", (unsigned long long)g->id[v->last]);
	if (v->dur) {
		viz_fmt_dur(v->dur, s, sizeof s);
		et_buf_printf(b, " · %s", s);
	}
	comm_line(g, v->first, b);
}

static void node_tip(const vrank *vr, uint32_t i, et_buf *b)
{
	const et_graph *g = vr->g;
	viz_put_text(b, et_graph_name(g, i), ESC_GV);
	const char *tn = et_node_type_name(g->type[i]);
	et_buf_printf(b, "\\nrank %u · id %llu · %s", vr->rank, (unsigned long long)g->id[i],
	              tn ? tn : "unknown type");
	if (vr->tid[i] != VIZ_NO_ATTR)
		et_buf_printf(b, " · tid %lld", (long long)vr->tid[i]);
	if (vr->stream[i] != VIZ_NO_ATTR)
		et_buf_printf(b, " · stream %lld", (long long)vr->stream[i]);
	if (g->start_time_micros[i])
		et_buf_printf(b, "\\nstart %llu µs", (unsigned long long)g->start_time_micros[i]);
	if (g->duration_micros[i])
		et_buf_printf(b, "%sduration %llu µs", g->start_time_micros[i] ? " · " : "\\n",
		              (unsigned long long)g->duration_micros[i]);
	if (vr->crit[i])
		et_buf_printf(b, "\\non the critical path (step %u)", vr->crit[i]);
}

void viz_tooltip(const model *m, const vvert *v, et_buf *b)
{
	const vrank *vr = &m->ranks[v->r];
	if (v->count > 1)
		et_buf_printf(b, "%u nodes folded by --collapse, ids %llu to %llu\\n\\nfirst: ",
		              v->count, (unsigned long long)vr->g->id[v->first],
		              (unsigned long long)vr->g->id[v->last]);
	node_tip(vr, v->first, b);
	if (v->count > 1) {
		et_buf_puts(b, "\\n\\nlast: ");
		node_tip(vr, v->last, b);
	}
}
