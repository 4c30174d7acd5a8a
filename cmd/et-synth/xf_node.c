/* Per-node edits of et-synth transform: scaling, collective retyping and
 * obfuscation. Attributes keep the oneof member they came in. */
#include "et_attr.h"
#include "et_types.h"
#include "xf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define C(x) CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_##x

bool xf_node_active(const xf_opts *x)
{
	return x->scale_compute != 1 || x->scale_comm != 1 || x->retype || x->obfuscate;
}

/* v * f rounded to nearest; a positive value never scales to 0. */
static uint64_t scale_u(uint64_t v, double f)
{
	if (!v)
		return 0;
	double s = round((double)v * f);
	if (s < 1)
		return 1;
	return s >= 1.8e19 ? UINT64_MAX : (uint64_t)s;
}

static int64_t scale_i(int64_t v, double f)
{
	if (v <= 0)
		return v;
	uint64_t s = scale_u((uint64_t)v, f);
	return s > INT64_MAX ? INT64_MAX : (int64_t)s;
}

/* Scale an integer attribute in whatever integer member it uses. */
static void scale_attr(et_node *n, const char *name, double f)
{
	et_attr *a = (et_attr *)et_attr_find(n, name);
	if (!a)
		return;
	switch (a->value_case) {
	case C(INT32_VAL):
	case C(SINT32_VAL):
	case C(SFIXED32_VAL): {
		int64_t s = scale_i(a->int32_val, f);
		a->int32_val = s > INT32_MAX ? INT32_MAX : (int32_t)s;
		break;
	}
	case C(UINT32_VAL):
	case C(FIXED32_VAL): {
		uint64_t s = scale_u(a->uint32_val, f);
		a->uint32_val = s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
		break;
	}
	case C(INT64_VAL):
	case C(SINT64_VAL):
	case C(SFIXED64_VAL):
		a->int64_val = scale_i(a->int64_val, f);
		break;
	case C(UINT64_VAL):
	case C(FIXED64_VAL):
		a->uint64_val = scale_u(a->uint64_val, f);
		break;
	default:
		break;
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

void xf_node(const xf_opts *x, et_arena *a, et_node *n)
{
	if (n->type == ET_NODE_COMP && x->scale_compute != 1) {
		/* num_ops and tensor_size together keep the arithmetic intensity, so
		 * a roofline prices the node F times as long too */
		n->duration_micros = scale_u(n->duration_micros, x->scale_compute);
		scale_attr(n, "num_ops", x->scale_compute);
		scale_attr(n, "tensor_size", x->scale_compute);
	}
	if (is_comm(n) && x->scale_comm != 1) {
		scale_attr(n, "comm_size", x->scale_comm);
		n->duration_micros = scale_u(n->duration_micros, x->scale_comm);
	}
	if (x->retype && n->type == ET_NODE_COLL)
		retype(x, n);
	if (x->obfuscate)
		xf_obfuscate(x, a, n);
}
