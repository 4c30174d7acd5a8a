/* Text of one JSON object -> Node / GlobalMetadata: the number-quoting
 * pre-pass, cJSON, then the tree readers of et_json_from.c. */
#include "et_json_int.h"
#include "et_jsonscan.h"

#include <stdio.h>

cJSON *et_json_parse(const char *text, size_t len, et_buf *scratch, size_t *err_pos)
{
	scratch->len = 0;
	et_jsonscan_quote_numbers(text, len, scratch);
	const char *p = (const char *)scratch->data, *end = NULL;
	cJSON *j = cJSON_ParseWithLengthOpts(p, scratch->len, &end, 0);
	if (j && et_jsonscan_ws(p, scratch->len, (size_t)(end - p)) == scratch->len)
		return j;
	cJSON_Delete(j);
	/* Find the position in the text as given: the pre-pass only adds
	 * quotes around number tokens, so the original fails where it did. */
	size_t start = et_jsonscan_ws(text, len, 0);
	if (start == len || et_jsonscan_value_end(text, len, start) == 0) {
		*err_pos = len; /* cut short: say so rather than blame its last byte */
		return NULL;
	}
	end = NULL;
	j = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	size_t pos = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
	if (j) /* a whole value, then something that is not white space */
		pos = et_jsonscan_ws(text, len, pos);
	cJSON_Delete(j);
	*err_pos = pos;
	return NULL;
}

void et_json_syntax_what(const char *text, size_t len, size_t err_pos, char out[48])
{
	if (err_pos >= len) {
		snprintf(out, 48, "unexpected end of JSON");
		return;
	}
	char near[20];
	size_t n = 0;
	for (size_t i = err_pos; i < len && n < 16 && text[i] != '\n'; i++)
		near[n++] = text[i] >= 0x20 && text[i] < 0x7f ? text[i] : '?';
	near[n] = 0;
	snprintf(out, 48, "malformed JSON at '%s'", near);
}

int et_json_syntax_error(const char *text, size_t len, size_t err_pos, et_error *e)
{
	unsigned long line, col;
	et_jsonscan_linecol(text, err_pos, &line, &col);
	char what[48];
	et_json_syntax_what(text, len, err_pos, what);
	return et_fail(e, ET_EXIT_DATA, "line %lu, column %lu: %s", line, col, what);
}

static cJSON *parse_object(const char *text, size_t len, et_error *e)
{
	et_buf scratch = {0};
	size_t pos = 0;
	cJSON *j = et_json_parse(text, len, &scratch, &pos);
	et_buf_free(&scratch);
	if (!j)
		et_json_syntax_error(text, len, pos, e);
	return j;
}

int et_json_node_read(const char *text, size_t len, et_arena *a, et_node **out, et_error *e)
{
	cJSON *j = parse_object(text, len, e);
	if (!j)
		return -1;
	int r = et_json_node_from(j, a, out, e);
	cJSON_Delete(j);
	return r;
}

int et_json_meta_read(const char *text, size_t len, et_arena *a, et_meta **out, et_error *e)
{
	cJSON *j = parse_object(text, len, e);
	if (!j)
		return -1;
	int r = et_json_meta_from(j, a, out, e);
	cJSON_Delete(j);
	return r;
}
