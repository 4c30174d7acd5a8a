/* --obfuscate: what could reveal the model goes, what the simulators read
 * stays. Names and free-text strings become salted hashes (stable: one
 * name, one hash, in every rank and run), inputs/outputs, op_schema, doc
 * strings and bytes attributes are dropped. Types, ids, dependencies,
 * durations, sizes, comm attributes and pg_name are untouched, and
 * process-group definitions are kept whole (groups decide who meets whom). */
#include "et-synth/xf/xf.h"
#include "et_attr.h"

#include <stdio.h>
#include <string.h>

#define C(x) CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_##x

void xf_hash_name(const char *salt, const char *s, char out[18])
{
	uint64_t h = 1469598103934665603ull;
	for (const char *p = salt ? salt : ""; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	h = (h ^ 0xff) * 1099511628211ull; /* separator: salt "a"+"bc" != "ab"+"c" */
	for (const char *p = s; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	/* splitmix finaliser: FNV alone leaves similar names with similar hashes */
	h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
	h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
	h ^= h >> 31;
	snprintf(out, 18, "h%016llx", (unsigned long long)h);
}

static char *hashed(const xf_opts *x, et_arena *a, const char *s)
{
	if (!s || !*s)
		return (char *)s;
	char h[18];
	xf_hash_name(x->salt, s, h);
	return et_arena_strdup(a, h);
}

/* Keep the attribute? Strings are hashed in place. */
static bool keep_attr(const xf_opts *x, et_arena *a, et_attr *at)
{
	if (strcmp(at->name, "op_schema") == 0)
		return false;
	at->doc_string = "";
	switch (at->value_case) {
	case C(BYTES_VAL):
	case C(BYTES_LIST):
		return false;
	case C(STRING_VAL):
		if (strcmp(at->name, "pg_name") != 0)
			at->string_val = hashed(x, a, at->string_val);
		return true;
	case C(STRING_LIST): {
		ChakraProtoMsg__StringList *l = et_arena_alloc(a, sizeof *l);
		*l = *at->string_list;
		l->values = et_arena_alloc(a, (l->n_values + 1) * sizeof *l->values);
		for (size_t i = 0; i < l->n_values; i++)
			l->values[i] = hashed(x, a, at->string_list->values[i]);
		at->string_list = l;
		return true;
	}
	default:
		return true;
	}
}

void xf_obfuscate(const xf_opts *x, et_arena *a, et_node *n)
{
	bool pg = xf_is_pg_def(n);
	if (!pg)
		n->name = hashed(x, a, n->name);
	if (!pg)
		n->inputs = NULL;
	n->outputs = NULL;
	size_t k = 0;
	for (size_t i = 0; i < n->n_attr; i++)
		if (keep_attr(x, a, n->attr[i]))
			n->attr[k++] = n->attr[i];
	n->n_attr = k;
}
