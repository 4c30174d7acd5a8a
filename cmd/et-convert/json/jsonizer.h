/* The reference chakra_jsonizer's layout: each message as Python's
 * google.protobuf.json_format.MessageToJson prints it (indent 2, ensure_ascii,
 * 64-bit integers as strings, floats by repr), messages concatenated with no
 * separator and no final newline. */
#ifndef ET_CONVERT_JSON_JSONIZER_H
#define ET_CONVERT_JSON_JSONIZER_H

#include "et_buf.h"
#include "et_codec.h"
#include "et_writer.h"

void jsonizer_meta(const et_meta *m, et_buf *out);
void jsonizer_node(const et_node *n, et_buf *out);
/* The layout as an et_writer output (--to jsonizer): one rank. */
extern const et_writer_layout jsonizer_layout;

#endif
