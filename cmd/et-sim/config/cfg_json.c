/* cfg_json: ASTRA-sim's system JSON (through et_jsonfile) and comm-group
 * JSON (through et_pg). The system file is read strictly: every key is one
 * of syskeys, once, with the type ASTRA-sim reads it as; cJSON keeps no
 * positions, so et_jsonscan finds the line of each member's key. */
#include "et-sim/config/cfg.h"
#include "et_buf.h"
#include "et_jsonfile.h"
#include "et_jsonscan.h"
#include "et_mem.h"
#include "et_pg.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a key of the system file may hold. */
enum jtype {
	J_STR,
	J_NUM,
	J_FLAG, /* 0/1 or false/true: ASTRA-sim tests "!= 0" */
	J_STRLIST,
	J_ANY,
};

/* What et-sim does with it. */
enum jrole {
	R_SET,         /* a setting: through cfg_set_kv */
	R_NO_EFFECT,   /* read by ASTRA-sim, no effect on analytical times: checked only */
	R_ZERO_ONLY,   /* a model et-sim does not simulate: only 0 / false */
	R_CUSTOM,      /* custom collective implementations (Chakra ETs) */
	R_ASTRA_SKIPS, /* not read by ASTRA-sim's system layer either: a warning */
	R_SKIPS_ON     /* the same, but 0 / false (off) asks for nothing: no warning */
};

typedef struct syskey {
	const char *name;
	enum jtype type;
	enum jrole role;
} syskey;

/* The keys of ASTRA-sim's system layer (Sys::initialize_sys and
 * CollectiveImplLookup), the ones its own example files carry although it
 * does not read them, and et-sim's own; anything else is an error, as a
 * misspelt key would otherwise be ignored in silence. */
static const syskey syskeys[] = {
    {"scheduling-policy", J_STR, R_SET},
    {"collective-optimization", J_STR, R_SET},
    {"active-chunks-per-dimension", J_NUM, R_SET},
    {"preferred-dataset-splits", J_NUM, R_SET},
    {"endpoint-delay", J_NUM, R_SET},
    {"local-mem-bw", J_NUM, R_SET},
    {"peak-perf", J_NUM, R_SET},
    {"roofline-enabled", J_FLAG, R_SET},
    {"all-reduce-implementation", J_STRLIST, R_SET},
    {"all-gather-implementation", J_STRLIST, R_SET},
    {"reduce-scatter-implementation", J_STRLIST, R_SET},
    {"all-to-all-implementation", J_STRLIST, R_SET},
    {"compute-model", J_STR, R_SET},
    {"compute-scale", J_NUM, R_SET},
    {"mem-latency", J_NUM, R_SET},
    {"mem-bandwidth", J_NUM, R_SET},
    {"simulate-collectives", J_FLAG, R_SET},
    {"systolic-rows", J_NUM, R_SET},
    {"systolic-cols", J_NUM, R_SET},
    {"systolic-arrays", J_NUM, R_SET},
    {"systolic-clock", J_NUM, R_SET},
    {"systolic-dataflow", J_STR, R_SET},
    {"systolic-a", J_NUM, R_SET},
    {"systolic-b", J_NUM, R_SET},
    {"L", J_NUM, R_NO_EFFECT},
    {"o", J_NUM, R_NO_EFFECT},
    {"g", J_NUM, R_NO_EFFECT},
    {"G", J_NUM, R_NO_EFFECT},
    {"local-reduction-delay", J_NUM, R_NO_EFFECT},
    {"trace-enabled", J_FLAG, R_NO_EFFECT},
    {"track-local-mem", J_FLAG, R_NO_EFFECT},
    {"local-mem-trace-filename", J_STR, R_NO_EFFECT},
    {"model-shared-bus", J_FLAG, R_ZERO_ONLY},
    {"replay-only", J_FLAG, R_ZERO_ONLY},
    {"all-reduce-implementation-custom", J_STRLIST, R_CUSTOM},
    {"all-gather-implementation-custom", J_STRLIST, R_CUSTOM},
    {"reduce-scatter-implementation-custom", J_STRLIST, R_CUSTOM},
    {"all-to-all-implementation-custom", J_STRLIST, R_CUSTOM},
    {"per-node-custom-implementation", J_STR, R_CUSTOM},
    {"boost-mode", J_ANY, R_SKIPS_ON},     /* 0 in nearly every ASTRA-sim example */
    {"memory-type", J_ANY, R_ASTRA_SKIPS}, /* the remote-memory file's key */
};

enum { NSYSKEYS = sizeof syskeys / sizeof *syskeys };

/* One system file being read: its text, where each member's key is, and
 * the member that first gave each key. */
typedef struct sysfile {
	cfg *c;
	const char *path, *text;
	/* Only the first NSYSKEYS + 1 members can be read without an error
	 * (each key once), so only their keys are located. */
	size_t off[NSYSKEYS + 1];
	int first[NSYSKEYS];
} sysfile;

static unsigned long line_of(const sysfile *f, int member)
{
	unsigned long line = 0, col;
	if (member <= NSYSKEYS)
		et_jsonscan_linecol(f->text, f->off[member], &line, &col);
	return line;
}

/* "FILE: line L: \"KEY\": what" for member i, exit 3. */
static int member_fail(const sysfile *f, int i, const cJSON *it, et_error *e, const char *what)
{
	char q[96];
	return et_fail(e, ET_EXIT_DATA, "%s: line %lu: %s: %s", f->path, line_of(f, i),
	               et_quote(it->string, q, sizeof q), what);
}

static bool strlist(const cJSON *v)
{
	const cJSON *x;
	if (!cJSON_IsArray(v))
		return false;
	cJSON_ArrayForEach(x, v) if (!cJSON_IsString(x)) return false;
	return true;
}

/* The type check: NULL, or what was expected. */
static const char *type_wrong(enum jtype t, const cJSON *v)
{
	switch (t) {
	case J_STR:
		return cJSON_IsString(v) ? NULL : "a string";
	case J_NUM:
		return cJSON_IsNumber(v) ? NULL : "a number";
	case J_FLAG:
		return cJSON_IsNumber(v) || cJSON_IsBool(v) ? NULL : "0, 1, true or false";
	case J_STRLIST:
		return strlist(v) ? NULL : "an array of strings";
	default:
		return NULL;
	}
}

/* A checked value as the text cfg_set_kv takes; -1 when it does not fit. */
static int value_text(const cJSON *v, char *buf, size_t n)
{
	if (cJSON_IsArray(v)) {
		const cJSON *x;
		size_t l = 0;
		bool first = true;
		buf[0] = 0;
		cJSON_ArrayForEach(x, v)
		{
			int w = snprintf(buf + l, n - l, "%s%s", first ? "" : ",", x->valuestring);
			first = false;
			if (w < 0 || (size_t)w >= n - l)
				return -1;
			l += (size_t)w;
		}
		return 0;
	}
	int w = cJSON_IsString(v)   ? snprintf(buf, n, "%s", v->valuestring)
	        : cJSON_IsNumber(v) ? snprintf(buf, n, "%.17g", v->valuedouble)
	                            : snprintf(buf, n, "%d", cJSON_IsTrue(v) ? 1 : 0);
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

static int find_key(const char *name)
{
	for (int k = 0; k < NSYSKEYS; k++)
		if (strcmp(name, syskeys[k].name) == 0)
			return k;
	return -1;
}

/* An unknown key, with ASTRA-sim's spelling when it only differs in '_'
 * for '-' (ASTRA-sim would ignore the misspelt key). */
static int unknown_key(const sysfile *f, int i, const cJSON *it, et_error *e)
{
	char alt[64], msg[128];
	snprintf(alt, sizeof alt, "%s", it->string);
	for (char *p = alt; *p; p++)
		*p = *p == '_' ? '-' : *p;
	int k = find_key(alt);
	if (k >= 0 && strcmp(alt, it->string))
		snprintf(msg, sizeof msg, "unknown key (ASTRA-sim's is \"%s\")", syskeys[k].name);
	else
		snprintf(msg, sizeof msg, "unknown key");
	return member_fail(f, i, it, e, msg);
}

static bool nonzero(const cJSON *v)
{
	return cJSON_IsTrue(v) || (cJSON_IsNumber(v) && v->valuedouble != 0);
}

/* What the role says to do with a member whose type is right. */
static int apply(sysfile *f, int i, const cJSON *it, const syskey *k, et_error *e)
{
	char val[1024];
	et_error in;
	switch (k->role) {
	case R_SET:
		if (value_text(it, val, sizeof val) < 0)
			return member_fail(f, i, it, e, "value longer than 1023 characters");
		if (cfg_set_kv(f->c, k->name, val, &in) == 0)
			return 0;
		/* cfg_set_kv's message may start with the key, which is quoted already */
		size_t l = strlen(k->name);
		bool named = strncmp(in.msg, k->name, l) == 0 && strncmp(in.msg + l, ": ", 2) == 0;
		return member_fail(f, i, it, e, named ? in.msg + l + 2 : in.msg);
	case R_ZERO_ONLY:
		return nonzero(it)
		           ? member_fail(f, i, it, e, "et-sim does not simulate it (only 0)")
		           : 0;
	case R_CUSTOM:
		return member_fail(f, i, it, e,
		                   "custom collective implementations are not supported yet");
	case R_SKIPS_ON:
		if ((cJSON_IsNumber(it) || cJSON_IsBool(it)) && !nonzero(it))
			return 0;
		/* fall through */
	case R_ASTRA_SKIPS: {
		char q[96];
		cfg_warn(f->c, "%s: line %lu: %s: ignored by ASTRA-sim too", f->path, line_of(f, i),
		         et_quote(it->string, q, sizeof q));
		return 0;
	}
	default:
		return 0;
	}
}

static int read_member(sysfile *f, int i, const cJSON *it, et_error *e)
{
	int k = find_key(it->string);
	if (k < 0)
		return unknown_key(f, i, it, e);
	if (f->first[k] >= 0) {
		char msg[64];
		snprintf(msg, sizeof msg, "given twice (first on line %lu)",
		         line_of(f, f->first[k]));
		return member_fail(f, i, it, e, msg);
	}
	f->first[k] = i;
	const char *want = type_wrong(syskeys[k].type, it);
	if (want) {
		char msg[128];
		bool list = cJSON_IsArray(it) && syskeys[k].type == J_STRLIST;
		const cJSON *x = it->child;
		while (list && x && cJSON_IsString(x))
			x = x->next;
		snprintf(msg, sizeof msg, "expected %s, got %s%s", want,
		         list ? "an array holding " : "", et_jsonfile_kind(list ? x : it));
		return member_fail(f, i, it, e, msg);
	}
	return apply(f, i, it, &syskeys[k], e);
}

/* Every member of the parsed object j, located in text by its key. */
static int read_members(cfg *c, const char *path, const char *text, size_t len, const cJSON *j,
                        et_error *e)
{
	sysfile f = {.c = c, .path = path, .text = text};
	size_t n = et_jsonscan_member_keys(text, len, 0, f.off, NSYSKEYS + 1);
	if (n != (size_t)cJSON_GetArraySize(j)) /* cJSON took the text: cannot be */
		return et_fail(e, ET_EXIT_DATA, "%s: expected a JSON object", path);
	for (int k = 0; k < NSYSKEYS; k++)
		f.first[k] = -1;
	int rc = 0, i = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, j)
	{
		if ((rc = read_member(&f, i++, it, e)) < 0)
			break;
	}
	return rc;
}

int cfg_load_system(cfg *c, const char *path, et_error *e)
{
	et_buf b = {0};
	int rc = et_buf_read_file(&b, path, ET_JSONFILE_MAX, e);
	const char *text = b.data ? (const char *)b.data : "";
	cJSON *j = rc == 0 ? et_jsonfile_parse(text, b.len, path, e) : NULL;
	if (j)
		rc = cJSON_IsObject(j)
		         ? read_members(c, path, text, b.len, j, e)
		         : et_fail(e, ET_EXIT_DATA, "%s: expected a JSON object", path);
	else
		rc = -1;
	cJSON_Delete(j);
	et_buf_free(&b);
	if (rc == 0)
		snprintf(c->sys_file, sizeof c->sys_file, "%s", path);
	return rc;
}

/* A group by its id, the leading integer of its key as std::stoi reads it
 * (et_pg_file_parse checked the ids, repeats included, and left group 0
 * out with a warning: ASTRA-sim never uses it). */
static void add_group(cfg *c, const et_pg_group *pg)
{
	comm_group g = {.id = (int)pg->id, .n = (uint32_t)pg->n_ranks};
	g.mem = et_xmalloc(pg->n_ranks * sizeof *g.mem);
	memcpy(g.mem, pg->ranks, pg->n_ranks * sizeof *g.mem);
	ET_GROW(c->groups, c->capgroups, (size_t)c->ngroups + 1);
	ET_GROW(c->group_ix, c->capgroup_ix, (size_t)c->ngroups + 1);
	c->group_ix[c->ngroups] = (uint64_t)(uint32_t)g.id << 32 | (uint32_t)c->ngroups;
	c->groups[c->ngroups++] = g;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* After the groups are added: ids in order, and among groups of one id
 * the first added first, which is the one cfg_group finds. */
static void index_groups(cfg *c)
{
	if (c->ngroups > 0) /* qsort wants an array, even of none */
		qsort(c->group_ix, (size_t)c->ngroups, sizeof *c->group_ix, cmp_u64);
}

void cfg_add_groups(cfg *c, const et_pg_list *l, const char *src)
{
	snprintf(c->grp_file, sizeof c->grp_file, "%s", src);
	for (size_t i = 0; i < l->n; i++)
		add_group(c, &l->g[i]);
	index_groups(c);
}

int cfg_load_groups(cfg *c, const char *path, et_error *e)
{
	et_error in;
	et_pg_list l;
	snprintf(c->grp_file, sizeof c->grp_file, "%s", path);
	if (et_pg_file_read(path, &l, &in) < 0) {
		/* the reader's code: a bad comm-group file is bad data (3) */
		c->grp_file[0] = '\0';
		*e = in;
		return -1;
	}
	for (size_t i = 0; i < l.n; i++)
		add_group(c, &l.g[i]);
	index_groups(c);
	if (l.warning)
		et_warn("%s", l.warning);
	et_pg_list_free(&l);
	return 0;
}
