#include "et_arena.h"
#include "et_buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Blocks form a list; reset rewinds to the first block and keeps them all,
 * so a steady state of similar messages allocates nothing. */
typedef struct block {
	struct block *next;
	size_t size;
	size_t used;
	_Alignas(16) unsigned char data[];
} block;

struct et_arena {
	block *head; /* first block */
	block *cur;  /* block being filled */
	ProtobufCAllocator pb;
};

enum { BLOCK_MIN = 64 * 1024 };

static block *block_new(size_t size)
{
	block *b = et_xmalloc(sizeof *b + size);
	b->next = NULL;
	b->size = size;
	b->used = 0;
	return b;
}

/* protobuf-c allocates a dozen times per node: the common case (room in
 * the current block) is kept free of the call. */
static void *pb_alloc(void *data, size_t n)
{
	et_arena *a = data;
	block *b = a->cur;
	size_t r = (n + 15) & ~(size_t)15;
	if (r >= n && b->size - b->used >= r) {
		void *p = b->data + b->used;
		b->used += r;
		return p;
	}
	return et_arena_alloc(a, n);
}

static void pb_free(void *data, void *p)
{
	(void)data;
	(void)p;
}

et_arena *et_arena_new(void)
{
	et_arena *a = et_xcalloc(1, sizeof *a);
	a->head = a->cur = block_new(BLOCK_MIN);
	a->pb.alloc = pb_alloc;
	a->pb.free = pb_free;
	a->pb.allocator_data = a;
	return a;
}

void et_arena_free(et_arena *a)
{
	if (!a)
		return;
	for (block *b = a->head, *n; b; b = n) {
		n = b->next;
		free(b);
	}
	free(a);
}

void *et_arena_alloc(et_arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	for (;;) {
		block *b = a->cur;
		if (b->size - b->used >= n) {
			void *p = b->data + b->used;
			b->used += n;
			return p;
		}
		if (!b->next || b->next->size < n) {
			/* Insert a block big enough right after cur; later blocks are
			 * kept for the next round. */
			size_t sz = n > BLOCK_MIN ? n : BLOCK_MIN;
			if (b->size * 2 > sz && b->size < (64u << 20))
				sz = b->size * 2 > n ? b->size * 2 : n;
			block *nb = block_new(sz);
			nb->next = b->next;
			b->next = nb;
		}
		a->cur = b->next;
		a->cur->used = 0;
	}
}

char *et_arena_strndup(et_arena *a, const char *s, size_t n)
{
	char *p = et_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *et_arena_strdup(et_arena *a, const char *s)
{
	return et_arena_strndup(a, s, strlen(s));
}

void et_arena_reset(et_arena *a)
{
	a->cur = a->head;
	a->cur->used = 0;
}

ProtobufCAllocator *et_arena_pb(et_arena *a)
{
	return &a->pb;
}
