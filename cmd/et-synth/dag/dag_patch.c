/* Per-rank variation without re-encoding: copy the template and rewrite
 * only each COMP node's duration varint (and the node's length prefix when
 * the varint changes size). A memcpy-speed pass instead of protobuf-c's
 * encoder, which would cap the generator at ~1.4 M nodes/s. */
#include "et-synth/dag/dag.h"
#include "et_rng.h"

#include <math.h>
#include <string.h>

static void put_varint(et_buf *b, uint64_t v)
{
	uint8_t tmp[10];
	et_buf_append(b, tmp, (size_t)et_varint_put(tmp, v));
}

static int varint_len(uint64_t v)
{
	int n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void dag_patch_rank(const dag_conf *c, const dag_tpl *t, uint32_t rank, et_buf *out)
{
	et_rng r;
	et_rng_seed(&r, c->so.seed, 1 + (uint64_t)rank);
	const uint8_t *src = t->bytes.data;
	size_t cur = 0;
	out->len = 0;
	et_buf_reserve(out, t->bytes.len + t->bytes.len / 8);
	for (size_t i = 0; i < t->n_patch; i++) {
		const dag_patch *p = &t->patch[i];
		double f = 1 + c->jitter * (2 * et_rng_unit(&r) - 1);
		uint64_t dur = (uint64_t)llround(p->dur * f);
		if (!dur)
			dur = 1;
		et_buf_append(out, src + cur, p->node_off - cur);
		const uint8_t *msg = src + p->node_off + p->pre_len;
		put_varint(out, p->msg_len - p->dur_len + (uint64_t)varint_len(dur));
		et_buf_append(out, msg, p->dur_off);
		put_varint(out, dur);
		size_t after = p->dur_off + p->dur_len;
		et_buf_append(out, msg + after, p->msg_len - after);
		cur = p->node_off + p->pre_len + p->msg_len;
	}
	et_buf_append(out, src + cur, t->bytes.len - cur);
}
