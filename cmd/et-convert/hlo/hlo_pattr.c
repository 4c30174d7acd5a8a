/* hlo_pattr: instruction attributes (hlo_parse.h).
 *
 *   attributes ::= (',' [key '=' value])*     (an empty one, ", ,", occurs in
 *                                              real dumps and is skipped)
 *
 * The keys the mapping reads are parsed into an hlo_attr; every other value
 * is skipped with its brackets and strings balanced (hlo_p_skip_value). */
#include "et-convert/hlo/hlo_parse.h"
#include "et_mem.h"

#include <string.h>

static hlo_attr *attr_of(hlo_parser *p, uint32_t i)
{
	hlo_module *m = p->m;
	hlo_inst *in = &m->inst[i];
	if (in->attr == HLO_NONE) {
		ET_GROW(m->attr, m->capattr, (size_t)m->nattr + 1);
		hlo_attr *a = &m->attr[m->nattr];
		memset(a, 0, sizeof *a);
		a->channel = -1;
		a->body = a->cond = a->tcomp = a->fcomp = HLO_NONE;
		in->attr = (uint32_t)m->nattr++;
	}
	return &m->attr[in->attr];
}

static int parse_bool(hlo_parser *p, bool *v)
{
	if (hlo_p_is(p, "true"))
		*v = true;
	else if (hlo_p_is(p, "false"))
		*v = false;
	else
		return hlo_p_expected(p, "true or false");
	return hlo_p_next(p);
}

/* One computation name into m->refs. */
static int parse_ref(hlo_parser *p)
{
	hlo_module *m = p->m;
	uint32_t id;
	if (hlo_p_name(p, &id, "a computation name") < 0)
		return -1;
	ET_GROW(m->refs, m->caprefs, (size_t)m->nrefs + 1);
	m->refs[m->nrefs++] = (hlo_ref){id, (uint32_t)p->t.off};
	return hlo_p_next(p);
}

/* name | '{' [name (',' name)*] '}' */
static int parse_refs(hlo_parser *p, hlo_list *l)
{
	l->off = (uint32_t)p->m->nrefs;
	if (p->t.kind != HLO_T_LBRACE) {
		l->n = 1;
		return parse_ref(p);
	}
	if (hlo_p_next(p) < 0)
		return -1;
	while (p->t.kind != HLO_T_RBRACE) {
		if (parse_ref(p) < 0)
			return -1;
		if (hlo_p_sep(p, HLO_T_RBRACE, "',' or '}' in a list of computations") < 0)
			return -1;
	}
	l->n = (uint32_t)p->m->nrefs - l->off;
	return hlo_p_next(p);
}

static int parse_one_ref(hlo_parser *p, uint32_t *ref)
{
	*ref = (uint32_t)p->m->nrefs;
	return parse_ref(p);
}

/* dim_labels=b01f_01io->b01f: the kernel's labels are after the '_'. */
static int parse_labels(hlo_parser *p, hlo_range *r)
{
	const char *w = p->lx.s + p->t.off;
	const char *us = p->t.kind == HLO_T_WORD ? memchr(w, '_', p->t.len) : NULL;
	if (!us)
		return hlo_p_expected(p, "dimension labels like b01f_01io->b01f");
	r->off = (uint32_t)(us + 1 - p->lx.s);
	r->len = (uint32_t)(w + p->t.len - (us + 1));
	return hlo_p_skip_value(p);
}

/* "3x3" -> 9 (saturating at UINT64_MAX); false when it is not that form. */
static bool dims_product(const char *s, size_t n, uint64_t *v)
{
	uint64_t prod = 1, d = 0;
	bool digit = false;
	for (size_t k = 0; k <= n; k++) {
		if (k == n || s[k] == 'x') {
			if (!digit)
				return false;
			prod = d && prod > UINT64_MAX / d ? UINT64_MAX : prod * d;
			d = 0;
			digit = false;
		} else if (s[k] >= '0' && s[k] <= '9') {
			d = d > (UINT64_MAX - 9) / 10 ? UINT64_MAX / 10
			                              : d * 10 + (uint64_t)(s[k] - '0');
			digit = true;
		} else {
			return false;
		}
	}
	*v = prod;
	return true;
}

/* window={size=3x3 stride=...}: the product of the sizes. */
static int parse_window(hlo_parser *p, uint64_t *size)
{
	size_t open = p->t.off;
	if (hlo_p_eat(p, HLO_T_LBRACE, "'{' before the window") < 0)
		return -1;
	while (p->t.kind != HLO_T_RBRACE) {
		int r;
		if (p->t.kind == HLO_T_EOF)
			return hlo_fail(p->m, p->e, open, "this bracket is never closed");
		if (hlo_p_is(p, "size") && hlo_p_peek(p).kind == HLO_T_EQ) {
			if (hlo_p_next(p) < 0 || hlo_p_next(p) < 0)
				return -1;
			if (p->t.kind != HLO_T_WORD ||
			    !dims_product(p->lx.s + p->t.off, p->t.len, size))
				return hlo_p_expected(p, "window sizes like 3x3");
			r = hlo_p_next(p);
		} else if (hlo_tok_closes(&p->t)) {
			return hlo_p_expected(p, "'}' after the window");
		} else {
			r = hlo_tok_opens(&p->t) ? hlo_p_skip_group(p) : hlo_p_next(p);
		}
		if (r < 0)
			return -1;
	}
	return hlo_p_next(p);
}

/* The byte range of a value, skipped. */
static int parse_range(hlo_parser *p, hlo_range *r)
{
	size_t start = p->t.off;
	if (hlo_p_skip_value(p) < 0)
		return -1;
	r->off = (uint32_t)start;
	r->len = (uint32_t)(p->t.off - start);
	return 0;
}

/* frontend_attributes={..., _xla_send_recv_source_target_pairs="{{0,1},...}"}:
 * the pairs of a send or recv, parsed from inside the string (positions in
 * messages stay those of the text). */
static int parse_frontend(hlo_parser *p, hlo_attr *a)
{
	static const char key[] = "_xla_send_recv_source_target_pairs";
	if (parse_range(p, &a->frontend) < 0)
		return -1;
	hlo_parser sub = {.m = p->m, .e = p->e};
	hlo_lex_init(&sub.lx, p->lx.s, (size_t)a->frontend.off + a->frontend.len);
	for (sub.lx.pos = a->frontend.off;;) {
		if (hlo_p_next(&sub) < 0)
			return -1;
		if (sub.t.kind == HLO_T_EOF)
			return 0;
		if (hlo_tok_is(&sub.lx, &sub.t, key))
			break;
	}
	if (hlo_p_next(&sub) < 0 || hlo_p_eat(&sub, HLO_T_EQ, "'=' after the attribute name") < 0)
		return -1;
	if (sub.t.kind != HLO_T_STR || sub.t.len < 2)
		return hlo_p_expected(&sub, "a quoted list of pairs");
	size_t start = sub.t.off + 1, end = sub.t.off + sub.t.len - 1;
	hlo_lex_init(&sub.lx, p->lx.s, end);
	sub.lx.pos = start;
	a->pairs_pos = (uint32_t)start;
	if (hlo_p_next(&sub) < 0 || hlo_p_pairs(&sub, &a->pairs) < 0)
		return -1;
	return sub.t.kind == HLO_T_EOF ? 0 : hlo_p_expected(&sub, "the end of the pairs");
}

static int parse_direction(hlo_parser *p, uint8_t *dir)
{
	static const char *const names[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
	for (int k = 0; k < 6; k++)
		if (hlo_p_is(p, names[k])) {
			*dir = (uint8_t)(HLO_DIR_EQ + k);
			return hlo_p_next(p);
		}
	return hlo_p_expected(p, "a comparison direction (EQ, NE, LT, LE, GT, GE)");
}

/* One key=value of instruction i, the current token being the value. */
static int parse_known(hlo_parser *p, uint32_t i, const char *key)
{
	hlo_module *m = p->m;
	hlo_attr *a = attr_of(p, i);
	bool b = false;
	if (!strcmp(key, "channel_id")) {
		m->inst[i].flags |= HLO_F_CHANNEL;
		return hlo_p_int(p, &a->channel, "a channel id");
	}
	if (!strcmp(key, "replica_groups"))
		return hlo_p_groups(p, &a->groups);
	if (!strcmp(key, "source_target_pairs")) {
		a->pairs_pos = (uint32_t)p->t.off;
		return hlo_p_pairs(p, &a->pairs);
	}
	if (!strcmp(key, "use_global_device_ids") || !strcmp(key, "is_host_transfer")) {
		if (parse_bool(p, &b) < 0)
			return -1;
		if (b)
			m->inst[i].flags |= key[0] == 'u' ? HLO_F_GLOBAL : HLO_F_HOST;
		return 0;
	}
	if (!strcmp(key, "to_apply") || !strcmp(key, "calls") ||
	    !strcmp(key, "called_computations") || !strcmp(key, "branch_computations"))
		return parse_refs(p, &a->comps);
	if (!strcmp(key, "body"))
		return parse_one_ref(p, &a->body);
	if (!strcmp(key, "condition"))
		return parse_one_ref(p, &a->cond);
	if (!strcmp(key, "true_computation"))
		return parse_one_ref(p, &a->tcomp);
	if (!strcmp(key, "false_computation"))
		return parse_one_ref(p, &a->fcomp);
	if (!strcmp(key, "lhs_contracting_dims"))
		return hlo_p_int_list(p, &a->lc);
	if (!strcmp(key, "rhs_contracting_dims"))
		return hlo_p_int_list(p, &a->rc);
	if (!strcmp(key, "lhs_batch_dims"))
		return hlo_p_int_list(p, &a->lb);
	if (!strcmp(key, "rhs_batch_dims"))
		return hlo_p_int_list(p, &a->rb);
	if (!strcmp(key, "dim_labels"))
		return parse_labels(p, &a->labels);
	if (!strcmp(key, "window"))
		return parse_window(p, &a->window);
	if (!strcmp(key, "backend_config"))
		return parse_range(p, &a->backend);
	if (!strcmp(key, "frontend_attributes"))
		return parse_frontend(p, a);
	if (!strcmp(key, "custom_call_target")) {
		if (p->t.kind != HLO_T_STR)
			return hlo_p_expected(p, "a quoted custom-call target");
		return parse_range(p, &a->target);
	}
	return parse_direction(p, &a->dir); /* "direction" */
}

static const char *const known_keys[] = {"channel_id",
                                         "replica_groups",
                                         "source_target_pairs",
                                         "use_global_device_ids",
                                         "is_host_transfer",
                                         "to_apply",
                                         "calls",
                                         "called_computations",
                                         "branch_computations",
                                         "body",
                                         "condition",
                                         "true_computation",
                                         "false_computation",
                                         "lhs_contracting_dims",
                                         "rhs_contracting_dims",
                                         "lhs_batch_dims",
                                         "rhs_batch_dims",
                                         "dim_labels",
                                         "window",
                                         "backend_config",
                                         "frontend_attributes",
                                         "custom_call_target",
                                         "direction"};

static int parse_attr(hlo_parser *p, uint32_t i)
{
	char key[32] = "";
	if (p->t.kind != HLO_T_WORD || p->lx.s[p->t.off] == '%')
		return hlo_p_expected(p, "an attribute name");
	if (p->t.len < sizeof key)
		memcpy(key, p->lx.s + p->t.off, p->t.len);
	if (hlo_p_next(p) < 0 || hlo_p_eat(p, HLO_T_EQ, "'=' after the attribute name") < 0)
		return -1;
	if (!strcmp(key, "index"))
		return hlo_p_int(p, &p->m->inst[i].ival, "a tuple index");
	if (!strcmp(key, "slice_sizes"))
		p->m->inst[i].flags |= HLO_F_SLICES;
	for (size_t k = 0; k < sizeof known_keys / sizeof *known_keys; k++)
		if (!strcmp(key, known_keys[k]))
			return parse_known(p, i, key);
	return hlo_p_skip_value(p);
}

/* true_computation and false_computation are branches 0 and 1. */
static void finish(hlo_module *m, uint32_t i)
{
	if (m->inst[i].attr == HLO_NONE)
		return;
	hlo_attr *a = &m->attr[m->inst[i].attr];
	if (a->tcomp == HLO_NONE || a->fcomp == HLO_NONE || a->comps.n)
		return;
	ET_GROW(m->refs, m->caprefs, (size_t)m->nrefs + 2);
	a->comps = (hlo_list){(uint32_t)m->nrefs, 2};
	m->refs[m->nrefs] = m->refs[a->tcomp];
	m->refs[m->nrefs + 1] = m->refs[a->fcomp];
	m->nrefs += 2;
}

int hlo_p_attrs(hlo_parser *p, uint32_t i)
{
	while (p->t.kind == HLO_T_COMMA) {
		if (hlo_p_next(p) < 0)
			return -1;
		if (p->t.kind != HLO_T_COMMA && parse_attr(p, i) < 0)
			return -1;
	}
	finish(p->m, i);
	return 0;
}

int hlo_p_skip_attrs(hlo_parser *p, int64_t *replicas, int64_t *partitions)
{
	while (p->t.kind == HLO_T_COMMA) {
		if (hlo_p_next(p) < 0)
			return -1;
		if (p->t.kind == HLO_T_COMMA)
			continue;
		bool rep = replicas && hlo_p_is(p, "replica_count");
		bool part = partitions && hlo_p_is(p, "num_partitions");
		if (p->t.kind != HLO_T_WORD)
			return hlo_p_expected(p, "an attribute name");
		if (hlo_p_next(p) < 0 || hlo_p_eat(p, HLO_T_EQ, "'=' after the attribute name") < 0)
			return -1;
		int64_t *v = rep ? replicas : part ? partitions : NULL;
		if (!v) {
			if (hlo_p_skip_value(p) < 0)
				return -1;
			continue;
		}
		if (!hlo_tok_int(&p->lx, &p->t, v) || *v < 1 || *v > (int64_t)HLO_MAX_IDS)
			return hlo_p_expected(p, rep ? "a replica count from 1 to 16777216"
			                             : "a partition count from 1 to 16777216");
		if (hlo_p_next(p) < 0)
			return -1;
	}
	return 0;
}
