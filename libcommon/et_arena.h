/* et_arena: a bump allocator, reset in O(1) between messages, so that
 * decoding a node costs no malloc once the arena has warmed up. Blocks are
 * kept across resets; memory held = the largest single message's needs. */
#ifndef ET_ARENA_H
#define ET_ARENA_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>

typedef struct et_arena et_arena;

et_arena *et_arena_new(void);
void et_arena_free(et_arena *a);
void *et_arena_alloc(et_arena *a, size_t n); /* 16-byte aligned, never NULL */
char *et_arena_strdup(et_arena *a, const char *s);
char *et_arena_strndup(et_arena *a, const char *s, size_t n);
void et_arena_reset(et_arena *a);
/* A protobuf-c allocator drawing from a; its free() does nothing. */
ProtobufCAllocator *et_arena_pb(et_arena *a);

#endif
