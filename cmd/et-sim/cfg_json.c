/* cfg_json: ASTRA-sim's system JSON (through et_jsonfile) and comm-group JSON (through et_pg).
 * Keys et-sim does not model (L, o, g, G, model-shared-bus, ...) are ignored,
 * as ASTRA-sim ignores keys it does not know. */
#include "cfg.h"
#include "et_jsonfile.h"
#include "et_mem.h"
#include "et_pg.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A failure of a libcommon reader, as the configuration error it is to
 * et-sim (cfg.h: exit 2, whatever code the reader chose). */
/* A file that cannot be read stays an I/O error (exit 4). */
static int config_error(et_error *e, const et_error *in)
{
	return et_fail(e, in->code == ET_EXIT_IO ? ET_EXIT_IO : ET_EXIT_USAGE, "%s", in->msg);
}

/* A JSON value as the KEY=VALUE text cfg_set_kv takes. */
static int value_text(const cJSON *v, char *buf, size_t n)
{
	if (cJSON_IsString(v)) {
		snprintf(buf, n, "%s", v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		snprintf(buf, n, "%.17g", v->valuedouble);
	} else if (cJSON_IsBool(v)) {
		snprintf(buf, n, "%d", cJSON_IsTrue(v) ? 1 : 0);
	} else if (cJSON_IsArray(v)) {
		buf[0] = 0;
		const cJSON *e;
		cJSON_ArrayForEach(e, v)
		{
			if (!cJSON_IsString(e))
				return -1;
			size_t l = strlen(buf);
			snprintf(buf + l, n - l, "%s%s", l ? "," : "", e->valuestring);
		}
	} else {
		return -1;
	}
	return 0;
}

/* Each member as cfg_set_known_kv takes it; keys et-sim does not know are
 * skipped. */
static int set_members(cfg *c, const char *path, const cJSON *j, et_error *e)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, j)
	{
		char val[1024], q[96];
		et_error in;
		if (value_text(it, val, sizeof val) < 0)
			return et_fail(e, ET_EXIT_USAGE, "%s: %s: unexpected value type", path,
			               et_quote(it->string, q, sizeof q));
		if (cfg_set_known_kv(c, it->string, val, &in) < 0)
			return et_fail(e, ET_EXIT_USAGE, "%s: %s", path, in.msg);
	}
	return 0;
}

int cfg_load_system(cfg *c, const char *path, et_error *e)
{
	et_error in;
	cJSON *j = et_jsonfile_read(path, &in);
	if (!j)
		return config_error(e, &in);
	int rc = cJSON_IsObject(j) ? set_members(c, path, j, e)
	                           : et_fail(e, ET_EXIT_USAGE, "%s: expected a JSON object", path);
	cJSON_Delete(j);
	if (rc == 0)
		snprintf(c->sys_file, sizeof c->sys_file, "%s", path);
	return rc;
}

/* ASTRA-sim's group ids are numbers, read as std::stoi reads them:
 * pg_name "3" (or "3.0") uses group 3. Group 0 is all ranks: ASTRA-sim
 * ignores a definition of it, and says nothing. */
static int add_group(cfg *c, const et_pg_group *pg, et_error *e)
{
	int32_t id;
	if (!et_pg_id(pg->name, &id) || id < 0) {
		char q[96];
		return et_fail(e, ET_EXIT_DATA, "%s: group id %s is not a number", c->grp_file,
		               et_quote(pg->name, q, sizeof q));
	}
	if (id == 0) {
		et_warn("%s: group 0 is ignored, as ASTRA-sim ignores it: pg_name \"0\" (and none) "
		        "always means all ranks",
		        c->grp_file);
		return 0;
	}
	for (int i = 0; i < c->ngroups; i++)
		if (c->groups[i].id == id)
			return et_fail(e, ET_EXIT_DATA, "%s: group %d is given twice", c->grp_file,
			               (int)id);
	comm_group g = {.id = (int)id, .n = (uint32_t)pg->n_ranks};
	g.mem = et_xmalloc(pg->n_ranks * sizeof *g.mem);
	memcpy(g.mem, pg->ranks, pg->n_ranks * sizeof *g.mem);
	c->groups = et_xrealloc(c->groups, (size_t)(c->ngroups + 1) * sizeof *c->groups);
	c->groups[c->ngroups++] = g;
	return 0;
}

int cfg_load_groups(cfg *c, const char *path, et_error *e)
{
	et_error in;
	et_pg_list l;
	snprintf(c->grp_file, sizeof c->grp_file, "%s", path);
	int rc = et_pg_file_read(path, &l, &in);
	for (size_t i = 0; i < l.n && rc == 0; i++)
		rc = add_group(c, &l.g[i], &in);
	et_pg_list_free(&l);
	if (rc < 0) {
		c->grp_file[0] = '\0';
		return config_error(e, &in);
	}
	return 0;
}
