/* One JSON value -> one protobuf scalar, with the protobuf JSON mapping's
 * leniency (integers as numbers or strings, reals as numbers or strings,
 * "NaN"/"Infinity") and full range checks. Numbers that a double may not
 * hold exactly arrive as strings (et_jsonscan_quote_numbers), so every
 * integer is exact. */
#include "et_json_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_MAX 9007199254740992.0 /* 2^53 */

static const char *const NOT_INT = "expected an integer";
static const char *const RANGE = "integer out of range";

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* A decimal real text (what strtod accepts, minus hex, inf, nan, spaces). */
static bool real_text(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("0123456789+-.eE", *s))
			return false;
	return true;
}

static const char *real_of_text(const char *s, double *d)
{
	if (!real_text(s))
		return "expected a number";
	char *end;
	errno = 0;
	*d = strtod(s, &end);
	if (*end)
		return "expected a number";
	if (errno == ERANGE && isinf(*d))
		return "number out of range";
	return NULL;
}

/* Significant digits of a real's mantissa (leading zeros are not). */
static int sig_digits(const char *s)
{
	int n = 0;
	bool lead = true;
	for (; *s && *s != 'e' && *s != 'E'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		lead = lead && *s == '0';
		n += !lead;
	}
	return n;
}

/* An integer written as a real ("1e3", 5.0): fine when the double holds
 * the decimal exactly. With at most 15 significant digits and a magnitude
 * up to 2^53 it does, and a fraction cannot round away to an integer. */
static const char *int_of_real(const char *text, double d, double *out)
{
	if (!isfinite(d) || d != floor(d))
		return NOT_INT;
	if (fabs(d) > EXACT_MAX || (text && sig_digits(text) > 15))
		return "integer not exact as a real (write its digits)";
	*out = d;
	return NULL;
}

/* Sign and magnitude of an integer value. */
static const char *int_parts(const cJSON *v, bool *neg, uint64_t *mag)
{
	double d;
	const char *why;
	if (cJSON_IsNumber(v)) {
		if ((why = int_of_real(NULL, v->valuedouble, &d)))
			return why;
	} else if (cJSON_IsString(v)) {
		const char *s = v->valuestring;
		*neg = s[0] == '-';
		if (all_digits(s + *neg)) {
			errno = 0;
			*mag = strtoull(s + *neg, NULL, 10);
			return errno == ERANGE ? RANGE : NULL;
		}
		if (real_of_text(s, &d))
			return NOT_INT;
		if ((why = int_of_real(s, d, &d)))
			return why;
	} else {
		return NOT_INT;
	}
	*neg = d < 0;
	*mag = (uint64_t)fabs(d);
	return NULL;
}

static const char *int_from(const cJSON *v, int64_t min, int64_t max, int64_t *out)
{
	bool neg = false;
	uint64_t mag = 0;
	const char *why = int_parts(v, &neg, &mag);
	if (why)
		return why;
	if (neg ? mag > (uint64_t)0 - (uint64_t)min : mag > (uint64_t)max)
		return RANGE;
	*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return NULL;
}

static const char *uint_from(const cJSON *v, uint64_t max, uint64_t *out)
{
	bool neg = false;
	uint64_t mag = 0;
	const char *why = int_parts(v, &neg, &mag);
	if (why)
		return why;
	if ((neg && mag) || mag > max)
		return RANGE;
	*out = mag;
	return NULL;
}

/* A real: a number, a decimal string, "NaN", "Infinity", "-Infinity", or
 * our "NaN:0x<bits>" (*bits set, *has_bits true). */
static const char *real_from(const cJSON *v, double *d, uint64_t *bits, bool *has_bits)
{
	*has_bits = false;
	if (cJSON_IsNumber(v)) {
		*d = v->valuedouble;
		return NULL;
	}
	if (!cJSON_IsString(v))
		return "expected a number";
	const char *s = v->valuestring;
	if (strcmp(s, "NaN") == 0)
		*d = NAN;
	else if (strcmp(s, "Infinity") == 0)
		*d = INFINITY;
	else if (strcmp(s, "-Infinity") == 0)
		*d = -INFINITY;
	else if (strncmp(s, "NaN:0x", 6) == 0) {
		size_t n = strspn(s + 6, "0123456789abcdefABCDEF");
		if (n == 0 || n > 16 || s[6 + n])
			return "bad NaN bits";
		*bits = strtoull(s + 6, NULL, 16);
		*has_bits = true;
	} else
		return real_of_text(s, d);
	return NULL;
}

static const char *double_from(const cJSON *v, double *out)
{
	double d;
	uint64_t bits;
	bool has_bits;
	const char *why = real_from(v, &d, &bits, &has_bits);
	if (why)
		return why;
	if (has_bits) {
		memcpy(&d, &bits, sizeof d);
		if (!isnan(d))
			return "bad NaN bits";
	} else if (isnan(d)) {
		bits = 0x7ff8000000000000ull; /* the one default NaN */
		memcpy(&d, &bits, sizeof d);
	}
	*out = d;
	return NULL;
}

/* Through double, as protobuf's json_format reads floats (and as the
 * writer's shortest digits are chosen). */
static const char *float_from(const cJSON *v, float *out)
{
	double d;
	uint64_t bits;
	bool has_bits;
	const char *why = real_from(v, &d, &bits, &has_bits);
	if (why)
		return why;
	float f = (float)d;
	if (has_bits || isnan(d)) {
		uint32_t b = has_bits ? (uint32_t)bits : 0x7fc00000u;
		if (has_bits && bits > UINT32_MAX)
			return "bad NaN bits";
		memcpy(&f, &b, sizeof f);
		if (!isnan(f))
			return "bad NaN bits";
	} else if (isinf(f) && !isinf(d)) {
		return "number out of float range";
	}
	*out = f;
	return NULL;
}

static const char *bytes_from(const cJSON *v, ProtobufCBinaryData *out, et_arena *a)
{
	if (!cJSON_IsString(v))
		return "expected a base64 string";
	size_t n = strlen(v->valuestring);
	uint8_t *p = et_arena_alloc(a, ET_BASE64_DECODED_MAX(n));
	long len = et_base64_decode(v->valuestring, n, p);
	if (len < 0)
		return "expected a base64 string";
	out->data = len ? p : NULL;
	out->len = (size_t)len;
	return NULL;
}

static const char *string_from(const cJSON *v, char **out, et_arena *a)
{
	if (!cJSON_IsString(v))
		return "expected a string";
	*out = et_arena_strdup(a, v->valuestring);
	return NULL;
}

static const char *bool_from(const cJSON *v, protobuf_c_boolean *out)
{
	if (!cJSON_IsBool(v))
		return "expected true or false";
	*out = cJSON_IsTrue(v) ? 1 : 0;
	return NULL;
}

static const char *i32_from(const cJSON *v, int32_t *out)
{
	int64_t x;
	const char *why = int_from(v, INT32_MIN, INT32_MAX, &x);
	if (!why)
		*out = (int32_t)x;
	return why;
}

static const char *u32_from(const cJSON *v, uint32_t *out)
{
	uint64_t x;
	const char *why = uint_from(v, UINT32_MAX, &x);
	if (!why)
		*out = (uint32_t)x;
	return why;
}

const char *et_json_scalar_from(const cJSON *v, ProtobufCType t, void *dst, et_arena *a)
{
	switch (t) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_ENUM:
		return i32_from(v, dst);
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
		return u32_from(v, dst);
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
		return int_from(v, INT64_MIN, INT64_MAX, dst);
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		return uint_from(v, UINT64_MAX, dst);
	case PROTOBUF_C_TYPE_FLOAT:
		return float_from(v, dst);
	case PROTOBUF_C_TYPE_DOUBLE:
		return double_from(v, dst);
	case PROTOBUF_C_TYPE_BOOL:
		return bool_from(v, dst);
	case PROTOBUF_C_TYPE_STRING:
		return string_from(v, dst, a);
	case PROTOBUF_C_TYPE_BYTES:
		return bytes_from(v, dst, a);
	case PROTOBUF_C_TYPE_MESSAGE:
		break;
	}
	return "unsupported field type";
}
