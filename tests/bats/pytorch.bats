#!/usr/bin/env bats
# et-convert --from pytorch: Chakra-exact (--compat chakra) and corrected
# (default) conversion of every corpus host trace, and the error paths.
load common
bats_require_minimum_version 1.5.0

PT="$DATA/pytorch"

@test "--compat chakra is byte-identical to chakra_converter 1.0.0 on the four reference traces" {
	for pair in "chakra-test-1.0.2 chakra_test_1.0.2" "resnet-1.0.3 resnet_1gpu_1.0.3" \
		"resnet-1.1.0 resnet_et_1.1.0" "pt2-1.1.1 pt2_1.1.1"; do
		set -- $pair
		et-convert --compat chakra --to et "$PT/$1/host_et.json.gz" -o out.et
		zstd -dcq "$DATA/reference/$2.et.zst" >ref.et
		cmp out.et ref.et
	done
}

@test "--compat chakra: the reference's counts on the Chakra test trace (262 nodes, 261 data deps, 91 ctrl deps)" {
	et-convert --compat chakra --to jsonl "$PT/chakra-test-1.0.2/host_et.json.gz" >t.jsonl
	assert_equal "$(jq -s '[.[] | select(.id)] | length' t.jsonl)" 262
	assert_equal "$(jq -s '[.[] | .dataDeps // [] | length] | add' t.jsonl)" 261
	assert_equal "$(jq -s '[.[] | .ctrlDeps // [] | length] | add' t.jsonl)" 91
	assert_equal "$(jq -s '[.[] | select(.type == "METADATA_NODE")] | length' t.jsonl)" 1
	et-convert --compat chakra --to et "$PT/chakra-test-1.0.2/host_et.json.gz" -o t.et
	assert_equal "$(stat -c %s t.et)" 115541
}

@test "--compat chakra refuses schema 1.0.1 as the reference does (exit 3)" {
	run et-convert --compat chakra "$PT/simple-add-a100/host_et.json.gz" -o x.etz
	assert_failure 3
	assert_output --partial "chakra_converter rejects schema 1.0.1"
	[ ! -e x.etz ]
}

@test "an unknown schema lists the supported ones; --force-schema tries anyway" {
	zcat "$PT/pt2-1.1.1/host_et.json.gz" | sed 's/"1.1.1-chakra.0.0.4"/"9.9.9"/' >odd.json
	run et-convert odd.json -o x.etz
	assert_failure 3
	assert_output --partial 'unknown schema "9.9.9" (supported: 1.0.1, 1.0.2-chakra.0.0.4'
	et-convert --force-schema odd.json -o x.etz
	[ -s x.etz ]
}

@test "every corpus trace converts (default mode) and validates without errors" {
	for d in chakra-test-1.0.2 resnet-1.0.3 resnet-1.1.0 pt2-1.1.1 simple-add-a100; do
		et-convert "$PT/$d/host_et.json.gz" -o "$d.etz"
		et-validate "$d.etz" 2>/dev/null
	done
	et-convert "$PT"/cpu-gloo-mlp-2rank/host_et.*.json.gz -o gloo.etz
	et-validate gloo.etz 2>/dev/null
	et-convert "$PT"/dlrm-8rank/host_et.*.json.gz -o dlrm.etz
	et-validate dlrm.etz 2>/dev/null
}

# Collective calls in a host trace: c10d:: ops not nested in another c10d op.
c10d_calls() {
	zcat "$1" | jq '[.nodes as $n | ($n | map({key: (.id|tostring), value: .}) | from_entries) as $by
		| $n[] | select(.name | startswith("c10d::"))
		| select(($by[((.ctrl_deps // .parent)|tostring)].name // "") | startswith("c10d::") | not)] | length'
}

@test "collectives become COMM_COLL nodes in host-only traces (NCCL, gloo)" {
	for d in chakra-test-1.0.2 resnet-1.1.0; do
		want=$(c10d_calls "$PT/$d/host_et.json.gz")
		got=$(et-convert --to jsonl "$PT/$d/host_et.json.gz" | jq -s '[.[] | select(.type == "COMM_COLL_NODE")] | length')
		[ "$want" -gt 0 ]
		assert_equal "$got" "$want"
	done
	# gloo: four all_reduce per rank; sizes are the tensors' bytes (8192 floats = 32768)
	et-convert --to jsonl "$PT"/cpu-gloo-mlp-2rank/host_et.*.json.gz >g.jsonl
	assert_equal "$(jq -c 'select(.type == "COMM_COLL_NODE") | [.rank, (.attr[] | select(.name == "comm_size") | .int64Val)]' g.jsonl | tr -d '\n')" \
		"[0,32768][0,512][0,5120][0,40][1,32768][1,512][1,5120][1,40]"
	# and they are device-side communication, never CPU ops
	assert_equal "$(jq -c 'select(.type == "COMM_COLL_NODE") | .attr[] | select(.name == "is_cpu_op") | .boolVal' g.jsonl | sort -u)" "false"
}

@test "DLRM 8 ranks: one stream, world size 8, collectives line up across ranks" {
	et-convert "$PT"/dlrm-8rank/host_et.*.json.gz -o dlrm.etz
	et-convert --to jsonl dlrm.etz >d.jsonl
	assert_equal "$(jq -c 'select(.world_size) | [.rank, .world_size]' d.jsonl | tr -d '\n')" \
		"[0,8][1,8][2,8][3,8][4,8][5,8][6,8][7,8]"
	for r in 0 1 2 3 4 5 6 7; do
		jq -c "select(.rank == $r and .type == \"COMM_COLL_NODE\") | [.attr[] | select(.name == \"comm_type\") | .int64Val]" d.jsonl | tr -d '\n' >"seq.$r"
	done
	for r in 1 2 3 4 5 6 7; do cmp seq.0 "seq.$r"; done
	assert_equal "$(cat seq.0)" "[6][6][6][6][0][6][0][0]"
}

@test "--for astra-sim: no METADATA node, and the output passes et-validate --for astra-sim" {
	et-convert --for astra-sim "$PT/resnet-1.1.0/host_et.json.gz" -o r.etz
	assert_equal "$(et-convert --to jsonl r.etz | jq -s '[.[] | select(.type == "METADATA_NODE")] | length')" 0
	et-validate --for astra-sim r.etz 2>/dev/null
}

@test "ctrl_deps never dangle in the default mode" {
	et-convert --to jsonl "$PT/resnet-1.0.3/host_et.json.gz" >r.jsonl
	jq -r 'select(.id) | .id' r.jsonl | sort >ids
	jq -r 'select(.id) | .ctrlDeps // [] | .[]' r.jsonl | sort -u >ctrl
	[ -s ctrl ]
	[ -z "$(comm -13 ids ctrl)" ]
}

@test "--write-comm-groups writes the ASTRA-sim comm-group JSON" {
	cat >pg.json <<'JSON'
{"schema": "1.0.2-chakra.0.0.4", "pid": 1, "time": "t", "start_ts": 1, "nodes": [
{"id": 1, "name": "[pytorch|profiler|execution_trace|process]", "ctrl_deps": 1, "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": []},
{"id": 2, "name": "[pytorch|profiler|execution_trace|thread]", "ctrl_deps": 1, "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": []},
{"id": 3, "name": "## process_group:init ##", "ctrl_deps": 2, "inputs": {"values": ["[{\"pg_name\": \"0\", \"ranks\": []}, {\"pg_name\": \"1\", \"ranks\": [0, 2]}, {\"pg_name\": \"2\", \"ranks\": [1, 3]}]"], "shapes": [[]], "types": ["String"]}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": []},
{"id": 4, "name": "aten::mul", "ctrl_deps": 2, "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": []}
], "finish_ts": 2}
JSON
	et-convert --write-comm-groups groups.json pg.json -o pg.etz
	assert_equal "$(jq -c . groups.json)" '{"1":[0,2],"2":[1,3]}'
	# byte for byte, in the layout it has always had (cJSON_Print's: a tab a
	# level, a tab after the colon, lists on one line)
	printf '{\n\t"1":\t[0, 2],\n\t"2":\t[1, 3]\n}\n' >want.json
	cmp groups.json want.json
}

@test "malformed JSON: exit 3 with line and column, no output file" {
	printf '{"schema": "1.0.2-chakra.0.0.4", "nodes": [\n{"id": 2, "name": "x" "oops"}\n]}\n' >bad.json
	run et-convert --from pytorch bad.json -o x.etz
	assert_failure 3
	assert_output --regexp "^et-convert: bad.json: line 2, column [0-9]+: malformed"
	[ ! -e x.etz ]
}

@test "malformed node objects are reported at the byte where they break, after earlier members" {
	h='{"schema": "1.1.0-chakra.0.0.4", "pid": 1, "nodes": ['
	printf '%s{"id": 1, "name": "a"}, {"id" 5, "name": "b"}]}' "$h" >colon.json
	run et-convert --from pytorch colon.json
	assert_failure 3
	assert_output "et-convert: colon.json: line 1, column 84: malformed node object"
	# a member before the break is read (and found wrong) first
	printf '%s{"id": "x", "name" 5}]}' "$h" >first.json
	run et-convert --from pytorch first.json
	assert_failure 3
	assert_output 'et-convert: first.json: line 1, column 61: node key "id": a value of the wrong type'
	# a raw control character is malformed JSON, wherever the object breaks
	printf '%s{"id": 1 "name": "a\001"}]}' "$h" >ctl.json
	run et-convert --from pytorch ctl.json
	assert_failure 3
	assert_output "et-convert: ctl.json: line 1, column 73: malformed JSON"
	printf '%s{"id": 1, "name": "a", "attrs": [{"name": "rf_id" "value": 3}]}]}' "$h" >attr.json
	run et-convert --from pytorch attr.json
	assert_failure 3
	assert_output 'et-convert: attr.json: line 1, column 86: node key "attrs": an attrs list that does not parse'
}

@test "a node larger than the 64 KiB read window: every IOInfo value kept" {
	{
		printf '{"schema": "1.1.0-chakra.0.0.4", "pid": 1, "nodes": [\n'
		printf '{"id": 1, "name": "[pytorch|profiler|execution_trace|thread]", "ctrl_deps": 1},\n'
		printf '{"id": 2, "name": "big", "ctrl_deps": 1, "inputs": {"values": ['
		seq -s, 0 29999
		printf '], "shapes": [], "types": []}, "attrs": [{"name": "rf_id", "type": "uint64", "value": 7}]}]}'
	} >big.json
	[ "$(stat -c %s big.json)" -gt 131072 ]
	et-convert --from pytorch --to jsonl big.json >big.jsonl
	v=$(jq -r 'select(.id == 2) | .inputs.values' big.jsonl)
	assert_equal "${v:0:10}" "[0, 1, 2, "
	assert_equal "$(tr -cd , <<<"$v" | wc -c)" 29999
	assert_equal "${v: -7}" " 29999]"
	assert_equal "$(jq -c 'select(.id == 2) | .attr[] | select(.name == "rf_id") | .int64Val' big.jsonl)" 7
}

@test "a node without id, a negative duration, a string id: exit 3 naming the problem" {
	printf '{"schema": "1.0.2-chakra.0.0.4", "nodes": [{"name": "x"}]}' >noid.json
	run et-convert --from pytorch noid.json -o x.etz
	assert_failure 3
	assert_output --partial 'node without "id"'
	printf '{"schema": "1.0.2-chakra.0.0.4", "nodes": [{"id": 5, "name": "x", "exclusive_dur": -3}]}' >neg.json
	run et-convert --from pytorch neg.json -o x.etz
	assert_failure 3
	assert_output --partial "negative exclusive_dur"
	printf '{"schema": "1.0.2-chakra.0.0.4", "nodes": [{"id": "five", "name": "x"}]}' >sid.json
	run et-convert --from pytorch sid.json -o x.etz
	assert_failure 3
	assert_output --partial 'node key "id": a value of the wrong type'
}

@test "a data dependency on a missing node and a cycle are errors (cycle printed as a path)" {
	mk() { # id parent inter_thread_dep
		printf '{"id": %s, "name": "op%s", "ctrl_deps": %s, "inter_thread_dep": %s, "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": []}' "$1" "$1" "$2" "$3"
	}
	root='{"id": 2, "name": "[pytorch|profiler|execution_trace|thread]", "ctrl_deps": 1, "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": []}'
	printf '{"schema": "1.0.2-chakra.0.0.4", "nodes": [%s, %s]}' "$root" "$(mk 3 2 99)" >miss.json
	run et-convert --compat chakra miss.json -o x.etz
	assert_failure 3
	assert_output --partial "node 3 (op3): data dep on missing node 99"
	printf '{"schema": "1.0.2-chakra.0.0.4", "nodes": [%s, %s, %s]}' "$root" "$(mk 3 2 4)" "$(mk 4 2 0)" >cyc.json
	run et-convert --compat chakra cyc.json -o x.etz
	assert_failure 3
	assert_output --regexp "data-dependency cycle: (3 op3 -> 4 op4 -> 3|4 op4 -> 3 op3 -> 4)"
}

@test "a directory of host traces converts to one multi-rank stream" {
	mkdir traces
	cp "$PT"/cpu-gloo-mlp-2rank/host_et.*.json.gz traces/
	et-convert traces -o dir.etz
	assert_equal "$(et-convert --to jsonl dir.etz | jq -c 'select(.world_size) | [.rank, .world_size]' | tr -d '\n')" "[0,2][1,2]"
}

@test "a host trace without Kineto says once that it has no durations; with Kineto, or -q, it does not" {
	sa="$PT/simple-add-a100"
	run -0 --separate-stderr et-convert "$sa/host_et.json.gz" -o sa.etz
	[ "$stderr" = "et-convert: warning: host trace only: no durations; pass --kineto FILE for GPU times" ]
	# eight ranks: still one line
	run -0 --separate-stderr et-convert "$PT"/dlrm-8rank/host_et.*.json.gz -o d.etz
	[ "$stderr" = "et-convert: warning: host trace only: no durations; pass --kineto FILE for GPU times" ]
	run -0 --separate-stderr et-convert -q "$sa/host_et.json.gz" -o sa.etz
	[ -z "$stderr" ]
	run -0 --separate-stderr et-convert "$sa/host_et.json.gz" --kineto "$sa/kineto.json.gz" -o sa.etz
	[ -z "$stderr" ]
	et-convert --to jsonl sa.etz | grep -q durationMicros
}

@test "a directory given with a trailing slash names its files with one slash" {
	cp -r "$PT/simple-add-a100" sa
	run -0 --separate-stderr et-convert -v sa/ -o sa.etz
	[[ ${stderr_lines[0]} == "et-convert: sa/host_et.json.gz + sa/kineto.json.gz: linked 36/36 Kineto CPU ops"* ]] ||
		fail "$stderr"
}
