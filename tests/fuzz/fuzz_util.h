/* Shared by the fuzz targets (each target is one .c file, so this header
 * holds static functions). The reader opens paths, so fuzz bytes go into one
 * memfd reused for every input, opened again through /proc/self/fd/N.
 *
 * Invariants checked (a violation traps, so libFuzzer saves the input):
 * - a function that returns -1 has filled the et_error (code and message);
 * - every node or metadata message that decodes re-encodes to bytes that
 *   decode again to the same bytes (encoding is canonical and idempotent);
 * - with `canonical` set (readers that encode messages themselves, e.g.
 *   JSON), every message decodes and re-encodes to exactly its input bytes. */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include "et_types.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_err.h"
#include "et_input.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FUZZ_CHECK(c)                                                                              \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz: check failed at %s:%d: %s\n", __FILE__, __LINE__,   \
			        #c);                                                               \
			__builtin_trap();                                                          \
		}                                                                                  \
	} while (0)

/* The path of a file holding exactly data[0..size). */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("etkit-fuzz", 0);
		FUZZ_CHECK(fd >= 0);
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	FUZZ_CHECK(ftruncate(fd, 0) == 0);
	for (size_t off = 0; off < size;) {
		ssize_t w = pwrite(fd, data + off, size - off, (off_t)off);
		FUZZ_CHECK(w > 0);
		off += (size_t)w;
	}
	return path;
}

/* The error was filled in: a known exit code and a non-empty message. */
static inline void fuzz_check_error(const et_error *e)
{
	FUZZ_CHECK(e->code >= ET_EXIT_FOUND && e->code <= ET_EXIT_IO);
	FUZZ_CHECK(memchr(e->msg, 0, sizeof e->msg) != NULL);
	FUZZ_CHECK(e->msg[0] != 0);
}

/* Read the attribute getters over a decoded node: they must cope with any
 * oneof member and any enum value. */
static inline void fuzz_touch_node(const et_node *n)
{
	static const char *const names[] = {"comm_type", "comm_size", "is_cpu_op", "pg_name",
	                                    "tensor_size"};
	int64_t i;
	uint64_t u;
	bool b;
	for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
		(void)et_attr_int(n, names[k], &i);
		(void)et_attr_uint(n, names[k], &u);
		(void)et_attr_bool(n, names[k], &b);
		(void)et_attr_str(n, names[k]);
	}
	for (size_t k = 0; k < n->n_attr; k++) {
		FUZZ_CHECK(et_attr_case_name(n->attr[k]->value_case) != NULL);
		if (n->attr[k]->name)
			(void)et_attr_expected_case(n->attr[k]->name);
	}
	(void)et_node_type_name(n->type);
}

/* True if m or a message inside it carries unknown fields (which protobuf-c
 * keeps and re-encodes, and which the JSON form cannot carry). */
static inline bool fuzz_has_unknown(const ProtobufCMessage *m)
{
	if (m->n_unknown_fields)
		return true;
	const ProtobufCMessageDescriptor *d = m->descriptor;
	const char *base = (const char *)m;
	for (unsigned i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		if (f->type != PROTOBUF_C_TYPE_MESSAGE)
			continue;
		if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
		    *(const uint32_t *)(base + f->quantifier_offset) != f->id)
			continue;
		size_t n = 1;
		ProtobufCMessage *const *v = (ProtobufCMessage *const *)(base + f->offset);
		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			n = *(const size_t *)(base + f->quantifier_offset);
			v = *(ProtobufCMessage *const *const *)(base + f->offset);
		}
		for (size_t k = 0; k < n; k++)
			if (v[k] && fuzz_has_unknown(v[k]))
				return true;
	}
	return false;
}

/* The payload of a frame written by et_*_encode (skip the varint). */
static inline const uint8_t *fuzz_payload(const et_buf *b, size_t *len)
{
	uint64_t v;
	int k = et_varint_get(b->data, b->len, &v);
	FUZZ_CHECK(k > 0 && v == b->len - (size_t)k);
	*len = (size_t)v;
	return b->data + k;
}

static inline bool fuzz_same(const et_buf *b, const uint8_t *p, size_t n)
{
	size_t len;
	const uint8_t *q = fuzz_payload(b, &len);
	return len == n && memcmp(q, p, n) == 0;
}

/* Decode m, re-encode, decode and re-encode again; compare. */
static inline void fuzz_check_msg(const et_msg *m, bool canonical, et_arena *a, et_buf *b1,
                                  et_buf *b2)
{
	size_t len;
	const uint8_t *p;
	et_arena_reset(a);
	b1->len = b2->len = 0;
	if (m->index == 0) {
		et_meta *md = et_meta_decode(a, m->data, m->len);
		FUZZ_CHECK(md || !canonical);
		if (!md)
			return;
		et_meta_encode(md, b1);
		p = fuzz_payload(b1, &len);
		et_meta *md2 = et_meta_decode(a, p, len);
		FUZZ_CHECK(md2 != NULL);
		et_meta_encode(md2, b2);
	} else {
		et_node *n = et_node_decode(a, m->data, m->len);
		FUZZ_CHECK(n || !canonical);
		if (!n)
			return;
		fuzz_touch_node(n);
		et_node_encode(n, b1);
		p = fuzz_payload(b1, &len);
		et_node *n2 = et_node_decode(a, p, len);
		FUZZ_CHECK(n2 != NULL);
		et_node_encode(n2, b2);
	}
	FUZZ_CHECK(b1->len == b2->len && memcmp(b1->data, b2->data, b1->len) == 0);
	if (canonical)
		FUZZ_CHECK(fuzz_same(b1, m->data, m->len));
}

/* Read every rank and message of the file at path, checking each message. */
static inline void fuzz_read_all(const char *path, et_format fmt, bool canonical)
{
	et_input_opts o;
	et_input_opts_init(&o);
	o.format = fmt;
	char *argv[] = {(char *)path};
	et_input *in = NULL;
	et_error e = {0};
	et_arena *a = et_arena_new();
	et_buf b1 = {0}, b2 = {0};
	int r = et_input_open(&in, 1, argv, &o, &e);
	et_rank_info ri;
	while (r == 0 && (r = et_input_next_rank(in, &ri, &e)) == 1) {
		et_msg m;
		while ((r = et_input_next_msg(in, &m, &e)) == 1)
			fuzz_check_msg(&m, canonical, a, &b1, &b2);
	}
	if (r < 0)
		fuzz_check_error(&e);
	et_input_close(in);
	et_arena_free(a);
	et_buf_free(&b1);
	et_buf_free(&b2);
}

#endif
