/* Per-node edits of et-synth transform: scaling, collective retyping and
 * obfuscation. Attributes keep the oneof member they came in. */
#include "et-synth/xf/xf.h"
#include "et_attr.h"
#include "et_err.h"
#include "et_sat.h"
#include "et_types.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define C(x) CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_##x

bool xf_node_active(const xf_opts *x)
{
	return x->scale_compute != 1 || x->scale_comm != 1 || x->retype || x->obfuscate;
}

/* v * f rounded to nearest, at most max; a positive value never scales to
 * 0. *sat is set when the product was above max (kept at max). */
static uint64_t scale_u(uint64_t v, double f, uint64_t max, bool *sat)
{
	if (!v)
		return 0;
	double s = round((double)v * f);
	if (s < 1)
		return 1;
	uint64_t r = et_sat_from_double(s); /* UINT64_MAX: 2^64 or more */
	if (et_sat_is(r) || r > max) {
		*sat = true;
		return max;
	}
	return r;
}

/* Negative values (no size) stay as they are. */
static int64_t scale_i(int64_t v, double f, int64_t max, bool *sat)
{
	if (v <= 0)
		return v;
	return (int64_t)scale_u((uint64_t)v, f, (uint64_t)max, sat);
}

/* Scale an integer attribute in whatever integer member it uses; true if
 * it saturated at that member's largest value. */
static bool scale_attr(et_node *n, const char *name, double f)
{
	et_attr *a = (et_attr *)et_attr_find(n, name);
	bool sat = false;
	if (!a)
		return false;
	switch (a->value_case) {
	case C(INT32_VAL):
	case C(SINT32_VAL):
	case C(SFIXED32_VAL):
		a->int32_val = (int32_t)scale_i(a->int32_val, f, INT32_MAX, &sat);
		break;
	case C(UINT32_VAL):
	case C(FIXED32_VAL):
		a->uint32_val = (uint32_t)scale_u(a->uint32_val, f, UINT32_MAX, &sat);
		break;
	case C(INT64_VAL):
	case C(SINT64_VAL):
	case C(SFIXED64_VAL):
		a->int64_val = scale_i(a->int64_val, f, INT64_MAX, &sat);
		break;
	case C(UINT64_VAL):
	case C(FIXED64_VAL):
		a->uint64_val = scale_u(a->uint64_val, f, UINT64_MAX, &sat);
		break;
	default:
		break;
	}
	return sat;
}

static void count(xf_sat *sat, int field, bool saturated)
{
	if (!saturated)
		return;
	if (!sat->nodes[field]++)
		snprintf(sat->input[field], sizeof sat->input[field], "%s",
		         sat->cur ? sat->cur : "<stdin>");
}

void xf_sat_warn(const xf_opts *x, const xf_sat *sat)
{
	static const char *const field[XS_N] = {"duration_micros", "num_ops", "tensor_size",
	                                        "comm_size", "duration_micros"};
	for (int k = 0; k < XS_N; k++) {
		if (!sat->nodes[k])
			continue;
		bool comp = k < XS_COMM_SIZE;
		et_warn("%s: --scale-%s %g: %s saturates on %llu %s node%s (kept at the largest "
		        "value of its integer type)",
		        sat->input[k], comp ? "compute" : "comm",
		        comp ? x->scale_compute : x->scale_comm, field[k],
		        (unsigned long long)sat->nodes[k], comp ? "COMP" : "COMM",
		        sat->nodes[k] == 1 ? "" : "s");
	}
}

static bool is_comm(const et_node *n)
{
	return et_node_is_comm(n->type);
}

static void retype(const xf_opts *x, et_node *n)
{
	et_attr *a = (et_attr *)et_attr_find(n, "comm_type");
	if (!a || !et_attr_is_int(a))
		return;
	int64_t t = et_attr_as_i64(a);
	if (t < 0 || t >= 10 || x->ctype_map[t] == t)
		return;
	/* keep the member: write the new value where the old one was */
	switch (a->value_case) {
	case C(INT32_VAL):
	case C(SINT32_VAL):
	case C(SFIXED32_VAL):
		a->int32_val = x->ctype_map[t];
		break;
	case C(UINT32_VAL):
	case C(FIXED32_VAL):
		a->uint32_val = (uint32_t)x->ctype_map[t];
		break;
	default:
		a->int64_val = x->ctype_map[t];
	}
}

void xf_node(const xf_opts *x, xf_sat *sat, et_arena *a, et_node *n)
{
	bool s = false;
	if (n->type == ET_NODE_COMP && x->scale_compute != 1) {
		/* num_ops and tensor_size together keep the arithmetic intensity, so
		 * a roofline prices the node F times as long too */
		n->duration_micros = scale_u(n->duration_micros, x->scale_compute, UINT64_MAX, &s);
		count(sat, XS_COMP_DUR, s);
		count(sat, XS_NUM_OPS, scale_attr(n, "num_ops", x->scale_compute));
		count(sat, XS_TENSOR_SIZE, scale_attr(n, "tensor_size", x->scale_compute));
	}
	if (is_comm(n) && x->scale_comm != 1) {
		count(sat, XS_COMM_SIZE, scale_attr(n, "comm_size", x->scale_comm));
		s = false;
		n->duration_micros = scale_u(n->duration_micros, x->scale_comm, UINT64_MAX, &s);
		count(sat, XS_COMM_DUR, s);
	}
	if (x->retype && n->type == ET_NODE_COLL)
		retype(x, n);
	if (x->obfuscate)
		xf_obfuscate(x, a, n);
}
