#!/usr/bin/env bats
# et-convert: formats, round trips on every corpus ET, and every error path.
load common
bats_require_minimum_version 1.5.0

corpus_ets() {
	ls "$MB"/*/*/*.et "$DATA"/chakra-generator/*.et
}

@test "ET -> stream -> ET is byte-identical for every corpus ET" {
	for f in $(corpus_ets); do
		et-convert "$f" -o a.etz
		et-convert --to et a.etz -o b.et
		cmp "$f" b.et
	done
}

@test "zstd -dc of a one-rank stream is the raw ET; zstd -t accepts it" {
	f="$MB/all_reduce/8npus_1MB/all_reduce.3.et"
	et-convert "$f" -o a.etz
	zstd -dcq a.etz | cmp - "$f"
	zstd -tq a.etz
}

@test "chakra.0.et.gz (gzip input) survives stream and ET round trips" {
	zcat "$DATA/chakra-et/chakra.0.et.gz" >c.et
	et-convert "$DATA/chakra-et/chakra.0.et.gz" -o c.etz
	et-convert --to et c.etz -o c2.et
	cmp c.et c2.et
	zstd -q c.et -o c.et.zst
	et-convert --to et c.et.zst -o c3.et
	cmp c.et c3.et
}

@test "reference converter outputs survive the stream round trip" {
	for f in "$DATA"/reference/*.et.zst; do
		zstd -dcq "$f" >ref.et
		et-convert ref.et | et-convert --to et -o back.et
		cmp ref.et back.et
	done
}

@test "stream header carries rank, world size and name (bytes checked)" {
	et-convert --set-rank 5 --world 9 --name resnet "$MB/all_reduce/4npus_1MB/all_reduce.0.et" -o a.etz
	# skippable magic 5e 2a 4d 18, payload length 28, ETSTREAM, v1, flags 0
	assert_equal "$(hexbytes a.etz 0 8)" "5e 2a 4d 18 1c 00 00 00"
	assert_equal "$(head -c 16 a.etz | tail -c 8)" "ETSTREAM"
	assert_equal "$(hexbytes a.etz 16 14)" "01 00 00 00 05 00 00 00 09 00 00 00 06 00"
	assert_equal "$(head -c 36 a.etz | tail -c 6)" "resnet"
	# then an ordinary zstd frame
	assert_equal "$(hexbytes a.etz 36 4)" "28 b5 2f fd"
}

@test "a PREFIX set is read rank by rank; --split writes it back identically" {
	et-convert "$MB/all_reduce/8npus_1MB/all_reduce" -o set.etz
	run et-convert --to jsonl set.etz
	assert_success
	for r in 0 1 2 3 4 5 6 7; do
		assert_line --regexp "^\{\"rank\":$r,\"world_size\":8,"
	done
	mkdir out
	et-convert --to et --split out/ar set.etz
	for r in 0 1 2 3 4 5 6 7; do cmp "$MB/all_reduce/8npus_1MB/all_reduce.$r.et" "out/ar.$r.et"; done
	[ ! -e out/ar.8.et ]
}

@test "the rank of a header-less file comes from PREFIX.N.et, else --set-rank, else 0" {
	et-convert "$MB/all_gather/4npus_1MB/all_gather.2.et" | et-convert --to jsonl | head -1 >h1
	grep -q '^{"rank":2,' h1
	cp "$MB/all_gather/4npus_1MB/all_gather.2.et" plain
	et-convert plain | et-convert --to jsonl | head -1 | grep -q '^{"rank":0,'
	et-convert --set-rank 7 plain | et-convert --to jsonl | head -1 | grep -q '^{"rank":7,'
}

@test "cat of two streams is read as their union" {
	et-convert "$MB/all_to_all/4npus_1MB/all_to_all.0.et" -o a.etz
	et-convert "$MB/all_to_all/4npus_1MB/all_to_all.1.et" -o b.etz
	cat a.etz b.etz >ab.etz
	mkdir s
	et-convert --to et --split s/x ab.etz
	cmp s/x.0.et "$MB/all_to_all/4npus_1MB/all_to_all.0.et"
	cmp s/x.1.et "$MB/all_to_all/4npus_1MB/all_to_all.1.et"
}

@test "--ranks selects ranks; --to et of one selected rank" {
	et-convert "$MB/reduce_scatter/16npus_1MB/reduce_scatter" -o rs.etz
	et-convert --ranks 11 --to et rs.etz -o r11.et
	cmp r11.et "$MB/reduce_scatter/16npus_1MB/reduce_scatter.11.et"
	run et-convert --ranks 2-3,9 --to jsonl rs.etz
	assert_success
	assert_equal "$(grep -c '"world_size"' <<<"$output")" 3
}

@test "several inputs on the command line and from stdin" {
	et-convert "$MB/all_reduce/4npus_1MB/all_reduce.0.et" "$MB/all_reduce/4npus_1MB/all_reduce.1.et" -o two.etz
	et-convert - <two.etz >same.etz
	cmp two.etz same.etz
}

@test "duplicate rank is an error (exit 3), never merged" {
	et-convert "$MB/all_reduce/4npus_1MB/all_reduce.0.et" -o a.etz
	cat a.etz a.etz >aa.etz
	run et-convert aa.etz -o out.etz
	assert_failure 3
	assert_output "et-convert: aa.etz: rank 0 appears twice in the input"
	[ ! -e out.etz ]
}

@test "--world N requires every per-rank file (exit 4, names the missing one)" {
	mkdir p
	cp "$MB/all_reduce/4npus_1MB/all_reduce.0.et" p/ar.0.et
	cp "$MB/all_reduce/4npus_1MB/all_reduce.1.et" p/ar.1.et
	run et-convert --world 3 p/ar -o out.etz
	assert_failure 4
	assert_output --partial "p/ar.2.et: missing per-rank file of a 3-rank set"
	# without --world the set is the files that exist
	et-convert p/ar -o two.etz
	assert_equal "$(et-convert --to jsonl two.etz | grep -c world_size)" 2
}

@test "truncated message: exit 3 with rank and byte offset, no output file" {
	f="$MB/all_reduce/4npus_1MB/all_reduce.0.et"
	size=$(stat -c %s "$f")
	head -c $((size - 3)) "$f" >trunc.0.et
	run et-convert trunc.0.et -o out.etz
	assert_failure 3
	assert_output --regexp "^et-convert: trunc.0.et: rank 0: byte [0-9]+: truncated message: length [0-9]+, [0-9]+ bytes left$"
	[ ! -e out.etz ]
	[ -z "$(ls -A | grep -v '^trunc')" ]
}

@test "bad varint length prefix: exit 3 at byte 0" {
	printf '\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01' >bad.et
	run et-convert bad.et -o out.etz
	assert_failure 3
	assert_output "et-convert: bad.et: rank 0: byte 0: bad varint length prefix"
}

@test "oversize length is refused before any allocation (--max-msg)" {
	# length prefix 2^42 (six continuation bytes, then 0x01) with 3 bytes of data
	printf '\x80\x80\x80\x80\x80\x80\x01abc' >huge.et
	run et-convert huge.et -o out.etz
	assert_failure 3
	assert_output --partial "byte 0: message length 4398046511104 exceeds the limit of 268435456 bytes"
	f="$MB/all_reduce/4npus_1MB/all_reduce.0.et"
	run et-convert --max-msg 16 "$f" -o out.etz
	assert_failure 3
	assert_output --partial "exceeds the limit of 16 bytes"
}

@test "a length prefix larger than the data: truncated, not allocated" {
	printf '\xff\xff\xff\x7fxyz' >big.et
	run et-convert big.et -o out.etz
	assert_failure 3
	assert_output --partial "byte 0: truncated message: length 268435455, 3 bytes left"
}

@test "corrupt zstd data in a stream: exit 3 naming the byte" {
	et-convert "$MB/all_reduce/4npus_1MB/all_reduce.0.et" -o a.etz
	size=$(stat -c %s a.etz)
	# flip bytes in the middle of the compressed block
	cp a.etz bad.etz
	printf '\x00\x00\x00\x00\x00\x00' | dd of=bad.etz bs=1 seek=$((size - 20)) conv=notrunc 2>/dev/null
	run et-convert --to et bad.etz -o out.et
	assert_failure 3
	assert_output --regexp "^et-convert: bad.etz: rank 0: byte [0-9]+: (corrupt zstd data|truncated)"
	[ ! -e out.et ]
}

@test "truncated zstd frame: exit 3" {
	et-convert "$MB/all_reduce/4npus_1MB/all_reduce.0.et" -o a.etz
	head -c $(($(stat -c %s a.etz) - 5)) a.etz >t.etz
	run et-convert --to et t.etz -o out.et
	assert_failure 3
	assert_output --regexp "byte [0-9]+: truncated zstd frame"
}

@test "wrong stream header version: exit 3" {
	et-convert "$MB/all_reduce/4npus_1MB/all_reduce.0.et" -o a.etz
	cp a.etz v4.etz
	printf '\x04' | dd of=v4.etz bs=1 seek=16 conv=notrunc 2>/dev/null
	run et-convert --to et v4.etz
	assert_failure 3
	assert_output "et-convert: v4.etz: byte 0: stream header version 4, expected 1 to 3"
	# version 2 (a section that may hold delta frames) reads as the same rank
	cp a.etz v2.etz
	printf '\x02' | dd of=v2.etz bs=1 seek=16 conv=notrunc 2>/dev/null
	et-convert --to et a.etz -o a.et
	run et-convert --to et v2.etz -o v2.et
	assert_success
	cmp a.et v2.et
	# version 3 (a class rank, etkit-stream(5) CLASS FRAMES) without a rule
	# frame: its frames are the rank's bytes, as in version 1
	cp a.etz v3.etz
	printf '\x03' | dd of=v3.etz bs=1 seek=16 conv=notrunc 2>/dev/null
	run et-convert --to et v3.etz -o v3.et
	assert_success
	cmp a.et v3.et
}

@test "--from stream on a non-stream is an error; foreign skippable frames are skipped" {
	f="$MB/all_reduce/4npus_1MB/all_reduce.0.et"
	run et-convert --from stream "$f"
	assert_failure 3
	assert_output --partial "not an ET stream"
	et-convert "$f" -o a.etz
	# a foreign skippable frame (magic 0x184D2A50, 4 payload bytes) in front
	{ printf '\x50\x2a\x4d\x18\x04\x00\x00\x00abcd'; cat a.etz; } >skip.etz
	et-convert --to et skip.etz -o back.et
	cmp back.et "$f"
	# between sections and at the end too: two ranks read back whole
	et-convert "$MB/all_reduce/4npus_1MB/all_reduce.1.et" -o b.etz
	fr() { printf '\x5f\x2a\x4d\x18\x02\x00\x00\x00xy'; }
	{ cat a.etz; fr; cat b.etz; fr; } >skip2.etz
	et-convert --to et --split two skip2.etz
	cmp two.0.et "$f" && cmp two.1.et "$MB/all_reduce/4npus_1MB/all_reduce.1.et"
}

@test "a GlobalMetadata that does not parse is an error; an empty ET too" {
	printf '\x02\x08\x01' >nometa.et
	run et-convert nometa.et -o o.etz
	assert_failure 3
	assert_output "et-convert: nometa.et: rank 0: byte 0: GlobalMetadata does not parse"
	: >empty.et
	run et-convert empty.et -o o.etz
	assert_failure 3
	assert_output "et-convert: empty.et: byte 0: empty input: expected a stream, an ET or JSON"
}

@test "binary output to a terminal is refused (exit 2)" {
	command -v script >/dev/null || skip "script(1) not installed"
	f="$MB/all_reduce/4npus_1MB/all_reduce.0.et"
	run script -qec "$(command -v et-convert) $f" /dev/null
	assert_failure 2
	assert_output --partial "refusing to write binary output to a terminal"
}

@test "usage errors exit 2; --help and --version exit 0" {
	run et-convert --to xml
	assert_failure 2
	assert_output --partial "et-convert: --to: expected stream, et, json, jsonl or jsonizer, got 'xml'"
	run et-convert --bogus
	assert_failure 2
	run et-convert --split p --to json
	assert_failure 2
	run et-convert --level 99
	assert_failure 2
	run et-convert --help
	assert_success
	assert_output --partial "Usage: et-convert"
	run et-convert --version
	assert_success
	assert_output --regexp "^et-convert \(etkit\) [0-9]+\.[0-9]+\.[0-9]+$"
}

@test "missing input file: exit 4" {
	run et-convert nonexistent.et
	assert_failure 4
	assert_output "et-convert: nonexistent.et: no such file (nor a per-rank set nonexistent.et.N.et)"
}

@test "--to et of a multi-rank input without --split is a usage error, no output" {
	et-convert "$MB/all_reduce/4npus_1MB/all_reduce" -o set.etz
	run et-convert --to et set.etz -o one.et
	assert_failure 2
	[ ! -e one.et ]
}

@test "stream level and threads options give streams that read back the same" {
	f="$MB/all_to_all/16npus_1MB/all_to_all"
	et-convert -l 19 "$f" -o a.etz
	et-convert -T 2 "$f" -o b.etz
	et-convert --to jsonl a.etz >a.jsonl
	et-convert --to jsonl b.etz >b.jsonl
	cmp a.jsonl b.jsonl
}

@test "-o on a device or pipe writes in place (never renames over /dev/null)" {
	et-convert "$MB/all_reduce/4npus_1MB/all_reduce" -o /dev/null
	[ -c /dev/null ]
	mkfifo p
	cat p >fromfifo &
	et-convert "$MB/all_reduce/4npus_1MB/all_reduce" -o p
	wait
	et-convert "$MB/all_reduce/4npus_1MB/all_reduce" -o direct.etz
	cmp fromfifo direct.etz
}

@test "field number 0 (a padded tag protobuf-c lets through) is refused, not re-encoded wrongly" {
	# empty GlobalMetadata, then a node: id 5 and an unknown field 0 tagged "82 00"
	printf '\x00\x05\x08\x05\x82\x00\x00' >tag0.et
	run et-convert --to jsonl tag0.et
	assert_failure 3
	assert_output "et-convert: tag0.et: rank 0: byte 1: node message 1 does not parse"
	# padded to three bytes ("82 80 00"), and unpadded ("02", refused by protobuf-c)
	printf '\x00\x06\x08\x05\x82\x80\x00\x00' >tag0b.et
	run et-convert --to jsonl tag0b.et
	assert_failure 3
	assert_output "et-convert: tag0b.et: rank 0: byte 1: node message 1 does not parse"
	printf '\x00\x04\x08\x05\x02\x00' >tag0c.et
	run et-convert --to jsonl tag0c.et
	assert_failure 3
}

@test "fields the schema does not know: kept by the ET output, left out of JSON with a warning" {
	# GlobalMetadata "0.0.4", then node id 1 "a" COMP_NODE with field 99 = 5 (varint)
	printf '\x07\x0a\x05\x30\x2e\x30\x2e\x34\x0a\x08\x01\x12\x01\x61\x18\x04\x98\x06\x05' >new.et
	et-convert --to et new.et -o copy.et
	cmp new.et copy.et
	et-convert new.et | et-convert --to et -o copy2.et
	cmp new.et copy2.et
	for to in jsonl json jsonizer; do
		run --separate-stderr et-convert --to $to new.et
		assert_success
		assert_equal "$stderr" "et-convert: warning: new.et: rank 0: 1 message holds fields this schema does not know (first: node 1, field 99); JSON has no place for them, so they are left out (the ET and stream outputs keep them)"
	done
	run --separate-stderr et-convert --to jsonl new.et
	assert_equal "$(sed -n 2p <<<"$output")" '{"rank":0,"id":1,"name":"a","type":"COMP_NODE"}'
	# inside an attribute's list: node 2, attr "a" int64_list {values [1], field 7 = 1}
	printf '\x07\x0a\x05\x30\x2e\x30\x2e\x34\x0e\x08\x02\x52\x0a\x0a\x01\x61\x52\x05\x0a\x01\x01\x38\x01' >deep.et
	run --separate-stderr et-convert --to jsonl deep.et
	assert_success
	assert_equal "$stderr" "et-convert: warning: deep.et: rank 0: 1 message holds fields this schema does not know (first: node 2, field 7); JSON has no place for them, so they are left out (the ET and stream outputs keep them)"
	assert_equal "$(sed -n 2p <<<"$output")" '{"rank":0,"id":2,"attr":[{"name":"a","int64List":{"values":[1]}}]}'
	# known fields only: no warning
	printf '\x07\x0a\x05\x30\x2e\x30\x2e\x34\x07\x08\x01\x12\x01\x61\x18\x04' >old.et
	run --separate-stderr et-convert --to jsonl old.et
	assert_success
	assert_equal "$stderr" ""
}

@test "--all-fields: JSONL and JSON write node 0's id and every default, and read back byte for byte" {
	ar="$REPO/samples/all_reduce_8/all_reduce"
	run -0 et-convert --to jsonl --all-fields --ranks 0 "$ar"
	[ "${lines[1]}" = '{"rank":0,"id":0,"name":"all_reduce_8npus_1MB","type":"COMM_COLL_NODE","ctrlDeps":[],"dataDeps":[],"startTimeMicros":0,"durationMicros":0,"attr":[{"name":"is_cpu_op","boolVal":false},{"name":"comm_type","int64Val":0},{"name":"comm_size","int64Val":1048576}]}' ]
	# without it, the mapping leaves the id out, and jq's .id misses node 0
	run -0 et-convert --to jsonl --ranks 0 "$ar"
	[[ ${lines[1]} != *'"id"'* ]]
	for to in json jsonl; do
		et-convert --to $to --all-fields "$REPO/samples/chakra.0.et.gz" -o all.$to
		et-convert --to et all.$to -o back.et
		zcat "$REPO/samples/chakra.0.et.gz" | cmp - back.et
	done
	# a node of all defaults (id 0, no name, type 0) survives too
	printf '{"rank":0,"world_size":1,"name":"","metadata":{}}\n{"rank":0}\n' | et-convert -o d.etz
	run -0 et-convert --to jsonl --all-fields d.etz
	[ "${lines[1]}" = '{"rank":0,"id":0,"name":"","type":"INVALID_NODE","ctrlDeps":[],"dataDeps":[],"startTimeMicros":0,"durationMicros":0}' ]
	printf '%s\n' "${lines[@]}" | et-convert -o d2.etz
	cmp d.etz d2.etz
	run -2 --separate-stderr et-convert --all-fields "$ar" -o x.etz
	[ "${stderr_lines[0]}" = "et-convert: --all-fields goes with --to json or --to jsonl" ]
}

@test "-o and --split into a folder that does not exist: the message names the folder (tools never create it)" {
	ar="$REPO/samples/all_reduce_8/all_reduce"
	run -4 --separate-stderr et-convert --to et --split out/ar "$ar"
	[ "$stderr" = "et-convert: out/ar.0.et: cannot create: the folder out does not exist (create it first)" ]
	run -4 --separate-stderr et-synth coll --type all_reduce --size 1M --world 2 -o no/such/x.etz
	[ "$stderr" = "et-synth: no/such/x.etz: cannot create: the folder no/such does not exist (create it first)" ]
	[ ! -e out ] && [ ! -e no ]
	mkdir out && et-convert --to et --split out/ar "$ar" && [ -s out/ar.7.et ]
}
