/* et_jsonfile: whole-file JSON documents (see et_jsonfile.h). */
#include "et_jsonfile.h"
#include "et_buf.h"
#include "et_jsonscan.h"

#include <string.h>

/* Line and column of byte `at` of text, both from 1. */
static void line_col(const char *text, size_t at, size_t *line, size_t *col)
{
	*line = *col = 1;
	for (size_t k = 0; k < at && text[k]; k++) {
		if (text[k] == '\n')
			++*line, *col = 1;
		else
			++*col;
	}
}

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
		size_t at = end && end >= text ? (size_t)(end - text) : len, line, col;
		line_col(text, at < len ? at : len, &line, &col);
		et_fail(e, ET_EXIT_DATA, "%s: line %zu, column %zu: invalid JSON", name, line, col);
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

/* Past the value at pos (whitespace after it skipped), or len when it is
 * malformed or cut short. */
static size_t skip_value(const char *text, size_t len, size_t pos)
{
	size_t end = pos < len ? et_jsonscan_value_end(text, len, pos) : 0;
	if (end == 0 || end == (size_t)-1)
		return len;
	return et_jsonscan_ws(text, len, end);
}

unsigned long et_jsonfile_line_of(const char *text, size_t len, size_t member)
{
	size_t pos = et_jsonscan_ws(text, len, 0);
	if (pos >= len || text[pos] != '{')
		return 0;
	pos = et_jsonscan_ws(text, len, pos + 1);
	for (size_t k = 0; pos < len && text[pos] == '"'; k++) {
		if (k == member) {
			unsigned long line, col;
			et_jsonscan_linecol(text, pos, &line, &col);
			return line;
		}
		pos = skip_value(text, len, pos); /* the key */
		if (pos >= len || text[pos] != ':')
			return 0;
		pos = skip_value(text, len, et_jsonscan_ws(text, len, pos + 1));
		if (pos >= len || text[pos] != ',')
			return 0;
		pos = et_jsonscan_ws(text, len, pos + 1);
	}
	return 0;
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
