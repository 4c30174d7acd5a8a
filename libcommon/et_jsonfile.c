/* et_jsonfile: whole-file JSON documents (see et_jsonfile.h). */
#include "et_jsonfile.h"
#include "et_buf.h"
#include "et_jsonscan.h"

#include <string.h>

cJSON *et_jsonfile_parse(const char *text, size_t len, const char *name, et_error *e)
{
	const char *nul = memchr(text, 0, len);
	if (nul) {
		et_fail(e, ET_EXIT_DATA, "%s: byte %zu: a NUL byte: not JSON text", name,
		        (size_t)(nul - text));
		return NULL;
	}
	/* len + 1 takes the NUL in, so that cJSON checks nothing follows. */
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	if (!root) {
		size_t at = end && end >= text ? (size_t)(end - text) : len;
		unsigned long line, col;
		et_jsonscan_linecol(text, at < len ? at : len, &line, &col);
		et_fail(e, ET_EXIT_DATA, "%s: line %lu, column %lu: invalid JSON", name, line, col);
	}
	return root;
}

cJSON *et_jsonfile_read(const char *path, et_error *e)
{
	et_buf b = {0};
	cJSON *root = NULL;
	if (et_buf_read_file(&b, path, ET_JSONFILE_MAX, e) == 0)
		root = et_jsonfile_parse(b.data ? (const char *)b.data : "", b.len, path, e);
	et_buf_free(&b);
	return root;
}

unsigned long et_jsonfile_line_of(const char *text, size_t len, size_t member)
{
	size_t at = 0;
	size_t n = et_jsonscan_member_keys(text, len, member, &at, 1);
	unsigned long line = 0, col;
	if (n != (size_t)-1 && member < n)
		et_jsonscan_linecol(text, at, &line, &col);
	return line;
}

const char *et_jsonfile_kind(const cJSON *v)
{
	return cJSON_IsString(v)   ? "a string"
	       : cJSON_IsNumber(v) ? "a number"
	       : cJSON_IsBool(v)   ? "a boolean"
	       : cJSON_IsNull(v)   ? "null"
	       : cJSON_IsArray(v)  ? "an array"
	                           : "an object";
}
