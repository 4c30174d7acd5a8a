#!/usr/bin/env bats
# Every JSON a tool writes escapes strings with the one escaper,
# et_json_str, whose one policy for invalid UTF-8 is: the bytes as they are
# (a name read from a trace is written back byte for byte), except where the
# output must be ASCII (the jsonizer): there \ufffd a byte. doc/json.md.
load common

# One rank, two nodes named with invalid UTF-8 (a stray 0xff, an overlong
# 0xc0), a quote and, in the second, a tab; the second has id 1 again, so
# et-validate has findings that quote both names.
mk_trace() {
	printf '{"ranks": [\n{"rank":0,"world_size":1,"name":"x","metadata":{"version":"0.0.4"},"nodes":[\n' >u.json
	printf '{"id":1,"name":"a\xffb\\"q","type":"COMP_NODE","durationMicros":"3"},\n' >>u.json
	printf '{"id":1,"name":"c\xc0d\\t","type":"COMP_NODE","durationMicros":"2"}\n]}\n]}\n' >>u.json
	et-convert -f json u.json -o u.etz
}

@test "json strings: et-convert --to json keeps invalid UTF-8 bytes as they are" {
	mk_trace
	run et-convert u.etz --to json -o u2.json
	assert_success
	grep -qF "$(printf '"name":"a\xffb\\"q"')" u2.json
	grep -qF "$(printf '"name":"c\xc0d\\t"')" u2.json
}

@test "json strings: the jsonizer (ASCII only) writes \\ufffd for each invalid byte" {
	mk_trace
	run et-convert u.etz --to jsonizer -o j.json
	assert_success
	grep -qF '"name": "a\ufffdb\"q"' j.json
	grep -qF '"name": "c\ufffdd\t"' j.json
	! LC_ALL=C grep -q "$(printf '[\x80-\xff]')" j.json
}

@test "json strings: et-validate --format json keeps invalid UTF-8 bytes as they are" {
	mk_trace
	run et-validate --format json u.etz
	assert_failure 1
	# controls stay \u00XX in et-validate's reports
	assert_output --partial "$(printf '"node_name": "c\xc0d\\u0009"')"
	assert_output --partial "$(printf '"node_name": "a\xffb\\"q"')"
	assert_output --partial "$(printf '(\\"a\xffb\\"q\\")')"
	refute_output --partial 'ufffd'
}

@test "json strings: et-sim --trace and --schedule keep invalid UTF-8 bytes as they are" {
	printf '{"ranks": [\n{"rank":0,"world_size":1,"name":"x","metadata":{"version":"0.0.4"},"nodes":[\n' >s.json
	printf '{"id":1,"name":"a\xffb\\"q\\t","type":"COMP_NODE","durationMicros":"3"}\n]}\n]}\n' >>s.json
	et-convert -f json s.json -o s.etz
	run et-sim s.etz --trace t.json --schedule s.jsonl
	assert_success
	grep -qF "$(printf '"name":"a\xffb\\"q\\t"')" t.json
	grep -qF "$(printf '"name":"a\xffb\\"q\\t"')" s.jsonl
}

@test "json strings: et-viz --timeline shows invalid UTF-8 as '?' and controls as spaces" {
	printf '{"ranks": [\n{"rank":0,"world_size":1,"name":"x","metadata":{"version":"0.0.4"},"nodes":[\n' >s.json
	printf '{"id":1,"name":"a\xffb\\"q\\t","type":"COMP_NODE","durationMicros":"3"}\n]}\n]}\n' >>s.json
	et-convert -f json s.json -o s.etz
	et-sim s.etz --schedule s.jsonl
	run et-viz --timeline -S s.jsonl -o v.json
	assert_success
	grep -qF '"name":"a?b\"q ",' v.json
}
