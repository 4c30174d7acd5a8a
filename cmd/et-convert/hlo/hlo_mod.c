/* hlo_mod: the module's containers and messages (hlo_mod.h). */
#include "et-convert/hlo/hlo_mod.h"
#include "et_mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hlo_mod_init(hlo_module *m, const char *name, const char *text, size_t len, const hlo_opts *o)
{
	memset(m, 0, sizeof *m);
	m->text = text;
	m->len = len;
	m->name = name;
	m->entry = HLO_NONE;
	if (o)
		m->opts = *o;
	else
		hlo_opts_init(&m->opts);
	if (!m->opts.max_unroll)
		m->opts.max_unroll = HLO_MAX_UNROLL;
	if (!m->opts.max_ops)
		m->opts.max_ops = HLO_MAX_OPS;
}

void hlo_mod_free(hlo_module *m)
{
	free(m->comp);
	free(m->inst);
	free(m->opnd);
	free(m->shape);
	free(m->dims);
	free(m->kids);
	free(m->attr);
	free(m->ints);
	free(m->refs);
	et_strmap_free(&m->names);
	et_hmap_free(&m->scope);
	memset(m, 0, sizeof *m);
}

hlo_list hlo_ints(hlo_module *m, const int64_t *v, uint32_t n)
{
	ET_GROW(m->ints, m->capints, (size_t)m->nints + n);
	hlo_list l = {(uint32_t)m->nints, n};
	if (n)
		memcpy(m->ints + m->nints, v, n * sizeof *v);
	m->nints += n;
	return l;
}

void hlo_line_col(const hlo_module *m, size_t off, size_t *line, size_t *col)
{
	*line = *col = 1;
	if (off > m->len)
		off = m->len;
	for (size_t k = 0; k < off; k++) {
		if (m->text[k] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

int hlo_fail(const hlo_module *m, et_error *e, size_t off, const char *fmt, ...)
{
	size_t line, col;
	hlo_line_col(m, off, &line, &col);
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return et_fail(e, ET_EXIT_DATA, "%s: line %zu, column %zu: %s", m->name, line, col, what);
}

const char *hlo_name(const hlo_module *m, uint32_t id)
{
	return et_strmap_key(&m->names, id);
}

void hlo_opts_init(hlo_opts *o)
{
	memset(o, 0, sizeof *o);
	o->max_unroll = HLO_MAX_UNROLL;
	o->max_ops = HLO_MAX_OPS;
}
