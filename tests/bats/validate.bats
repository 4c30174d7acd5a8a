#!/usr/bin/env bats
# et-validate: one crafted defective input per check (JSONL -> stream with
# et-convert), the exact findings each produces, the real corpus, output
# formats, --tee, exit codes and the man page's examples.
load common
bats_require_minimum_version 1.5.0

# --- crafting helpers: JSONL lines in the protobuf JSON mapping -------------
CPU0='{"name":"is_cpu_op","boolVal":false}'
hdr() { # RANK [WORLD]
	echo "{\"rank\":$1,\"world_size\":${2:-1},\"name\":\"t\",\"metadata\":{\"version\":\"0.0.4\"}}"
}
comp() { # RANK ID DUR [DATA_DEPS] [CTRL_DEPS]
	echo "{\"rank\":$1,\"id\":$2,\"name\":\"c$2\",\"type\":\"COMP_NODE\",\"durationMicros\":$3,\"dataDeps\":[${4:-}],\"ctrlDeps\":[${5:-}],\"attr\":[$CPU0]}"
}
coll() { # RANK ID COMM_TYPE SIZE [DATA_DEPS] [PG_NAME]
	local pg=""
	[ -n "${6:-}" ] && pg=",{\"name\":\"pg_name\",\"stringVal\":\"$6\"}"
	echo "{\"rank\":$1,\"id\":$2,\"name\":\"coll$2\",\"type\":\"COMM_COLL_NODE\",\"dataDeps\":[${5:-}],\"attr\":[$CPU0,{\"name\":\"comm_type\",\"int64Val\":$3},{\"name\":\"comm_size\",\"int64Val\":$4}$pg]}"
}
p2p() { # RANK ID SEND|RECV SRC DST TAG SIZE [DATA_DEPS]
	echo "{\"rank\":$1,\"id\":$2,\"name\":\"$3$2\",\"type\":\"COMM_$3_NODE\",\"dataDeps\":[${8:-}],\"attr\":[$CPU0,{\"name\":\"comm_src\",\"int32Val\":$4},{\"name\":\"comm_dst\",\"int32Val\":$5},{\"name\":\"comm_tag\",\"int32Val\":$6},{\"name\":\"comm_size\",\"int64Val\":$7}]}"
}
pgdef() { # RANK ID JSON-of-the-definition-list (as inputs.values holds it)
	local v
	v=$(printf '%s' "['$3']" | jq -Rs .)
	echo "{\"rank\":$1,\"id\":$2,\"name\":\"## process_group:init ##\",\"type\":\"METADATA_NODE\",\"inputs\":{\"values\":$v},\"attr\":[$CPU0]}"
}

# validate FILE.jsonl [OPTIONS]: convert to a stream, run et-validate --format
# json on it; $output is the JSON report, $status the exit status.
validate() {
	local f=$1
	shift
	et-convert --from json "$f" -o "${f%.jsonl}.etz"
	run --separate-stderr et-validate --format json "$@" "${f%.jsonl}.etz"
}
# [[code, severity, count], ...] of the report in $output
codes() { jq -c '[.codes[] | [.code, .severity, .count]]' <<<"$output"; }
# node ids of the listed findings of a code
ids() { jq -c --arg c "$1" '[.codes[] | select(.code == $c) | .findings[].node_id]' <<<"$output"; }
field() { jq -c --arg c "$1" "[.codes[] | select(.code == \$c) | .findings[] | $2]" <<<"$output"; }

# --- the real corpus ----------------------------------------------------------

@test "chakra.0.et.gz: exactly its known defects, with exact counts" {
	run --separate-stderr et-validate --format json --max-per-code 0 "$DATA/chakra-et/chakra.0.et.gz"
	assert_equal "$status" 1
	assert_equal "$(jq -c '[.ranks, .nodes]' <<<"$output")" '[1,3664]'
	# The known defects: 1,277 ctrl deps to missing ids (one on each of 1,277
	# nodes), 14 COMM_COLL nodes with is_cpu_op true, 157 COMP nodes with
	# neither duration nor num_ops, 53 data + 554 ctrl forward references
	# (information). And what the file also holds: 383 nodes whose ctrl dep is
	# their own id and, through the forward ctrl deps, 2-node cycles (the old
	# converter re-used the ids of the nodes it deleted; see et-validate(1)).
	assert_equal "$(codes)" '[["DANGLING_CTRL_DEP","error",1277],["SELF_DEP","error",383],["CYCLE","error",1],["COMM_CPU_OP","warning",14],["COMP_NO_WORK","warning",157],["COLL_UNORDERED","warning",2],["FORWARD_DATA_DEP","info",53],["FORWARD_CTRL_DEP","info",554]]'
	assert_equal "$(jq -c '[.codes[] | select(.code == "DANGLING_CTRL_DEP") | .nodes]' <<<"$output")" '[1277]'
	assert_equal "$(field DANGLING_CTRL_DEP '.missing_id' | jq -c '.[:3]')" '[3,3,429]'
	assert_equal "$(ids DANGLING_CTRL_DEP | jq -c '.[:3]')" '[216,217,430]'
	assert_equal "$(ids COMM_CPU_OP)" '[432,433,619,620,3254,3255,3511,3513,3688,3689,4488,4489,5702,5703]'
	assert_equal "$(ids SELF_DEP | jq -c '.[:3]')" '[3322,3369,3378]'
	assert_equal "$(field CYCLE '[.cycle[].id]')" '[[3318,3317]]'
	assert_equal "$(field CYCLE '.unordered')" '[2283]'
	assert_equal "$(ids FORWARD_DATA_DEP | jq -c '.[:2]')" '[1731,1735]'
	assert_equal "$(field FORWARD_DATA_DEP '.dep_id' | jq -c '.[:2]')" '[1733,1736]'
	assert_equal "$(jq '.errors, .warnings, .info' <<<"$output" | tr '\n' ' ')" '1661 173 607 '
}

@test "ASTRA-sim microbenchmarks validate clean with --for astra-sim --strict" {
	n=0
	for d in "$MB"/*/*/; do
		f=$(ls "$d"*.0.et)
		run --separate-stderr et-validate --for astra-sim --strict --format json "${f%.0.et}"
		assert_equal "$status" 0
		assert_equal "$(jq -c '[.errors, .warnings, .info, .codes]' <<<"$output")" '[0,0,0,[]]'
		n=$((n + 1))
	done
	assert_equal "$n" 12
}

@test "--stats on a microbenchmark: nodes, comm bytes, depth, width" {
	run --separate-stderr et-validate --stats --format json "$MB/all_reduce/8npus_1MB/all_reduce"
	assert_success
	assert_equal "$(jq -c '.stats.total | [.nodes, .nodes_by_type, .comm_bytes, .depth, .max_width]' <<<"$output")" \
		'[8,{"COMM_COLL_NODE":8},{"ALL_REDUCE":8388608},1,1]'
	assert_equal "$(jq -c '[.stats.ranks[] | .rank] | length' <<<"$output")" 8
}

@test "--stats text: a trace without durations says so, and a path of one node is 'over 1 node'" {
	# the microbenchmark's nodes carry no duration_micros
	run --separate-stderr et-validate --stats "$MB/all_reduce/8npus_1MB/all_reduce"
	assert_line "  duration: none (no node has duration_micros); depth 1, max width 1"
	refute_line --partial "over 1 nodes"
	et-synth chain --layers 1 --compute-us 7 --size 1M --world 1 -o c.etz
	run --separate-stderr et-validate --stats c.etz
	assert_line --regexp "^  duration: 7 us total, critical path 7 us over 1 node; depth [0-9]+, max width [0-9]+$"
}

@test "--stats on chakra.0.et: dependency counts and the critical path" {
	run --separate-stderr et-validate --stats --format json "$DATA/chakra-et/chakra.0.et.gz"
	assert_equal "$status" 1
	assert_equal "$(jq -c '.stats.ranks[0] | [.nodes_by_type, .data_deps, .ctrl_deps, .dangling_deps, .self_deps, .forward_deps, .unordered_nodes]' <<<"$output")" \
		'[{"COMP_NODE":3643,"COMM_COLL_NODE":21},181878,3664,1277,383,607,2283]'
	assert_equal "$(jq -c '.stats.ranks[0].comm_bytes' <<<"$output")" '{"ALL_REDUCE":102228128,"BROADCAST":212904}'
}

@test "every corpus PyTorch trace converted by et-convert validates without errors" {
	for f in "$DATA"/pytorch/*/host_et*.json.gz; do
		et-convert "$f" -o t.etz
		run --separate-stderr et-validate --format json t.etz
		assert_equal "$status" 0
		# (the DLRM ranks' all-reduces and all-to-alls hang off separate
		# branches: COLL_UNORDERED, a warning; see the DLRM tests)
		assert_equal "$(jq -c '[.errors, [.codes[].code | select(. != "COLL_UNORDERED")]]' <<<"$output")" '[0,["COMP_NO_WORK"]]'
	done
}

# The real 8-rank DLRM step as one stream (host traces converted per rank).
dlrm_stream() {
	for r in 0 1 2 3 4 5 6 7; do
		et-convert --set-rank $r --world 8 "$DATA/pytorch/dlrm-8rank/host_et.$r.json.gz" -o r$r.etz
		cat r$r.etz
	done >dlrm.etz
	et-convert --to jsonl dlrm.etz >dlrm.jsonl
}
# the id of the N-th collective of rank R in dlrm.jsonl
nth_coll() { jq -r "select(.rank == $1 and .type == \"COMM_COLL_NODE\") | .id" dlrm.jsonl | sed -n "$2p"; }

@test "real DLRM 8-rank stream: clean" {
	dlrm_stream
	run --separate-stderr et-validate --format json dlrm.etz
	assert_equal "$status" 0
	assert_equal "$(jq -c '[.ranks, .nodes, .errors]' <<<"$output")" '[8,13392,0]'
	# each rank's 2 all-reduces and 2 all-to-alls (one communicator) sit on
	# separate branches of the converted graph, with no path from one kind
	# to the other: 3 unordered neighbours a rank, a warning
	assert_equal "$(jq -c '[.codes[] | select(.code == "COLL_UNORDERED") | .severity, .count]' <<<"$output")" '["warning",24]'
	assert_equal "$(field COLL_UNORDERED '[.rank, .other_id, .node_id]' | jq -c '.[:3]')" '[[0,1665,726],[0,726,1840],[0,1840,1067]]'
}

@test "real DLRM 8-rank stream: one rank's collective resized" {
	dlrm_stream
	id=$(nth_coll 5 5)
	assert_equal "$id" 1246
	sed "/^{\"rank\":5,\"id\":$id,/s/\"int64Val\":1576964/\"int64Val\":1024/" dlrm.jsonl >bad.jsonl
	validate bad.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["COLL_MISMATCH","error",1],["COMP_NO_WORK","warning",13328],["COLL_UNORDERED","warning",24]]'
	assert_equal "$(field COLL_MISMATCH '[.rank, .node_id, .group, .position, .ranks, .agreeing_ranks, .expected]')" \
		'[[5,1246,"",4,[5],7,{"comm_type":"ALL_REDUCE","comm_size":1576964}]]'
}

@test "real DLRM 8-rank stream: one rank's collective removed" {
	dlrm_stream
	id=$(nth_coll 3 2)
	sed "/^{\"rank\":3,\"id\":$id,/s/\"type\":\"COMM_COLL_NODE\"/\"type\":\"COMP_NODE\"/" dlrm.jsonl >bad.jsonl
	validate bad.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["COLL_MISMATCH","error",1],["DEADLOCK","error",1],["BLOCKED_NODE","error",7],["COMP_NO_WORK","warning",13329],["COLL_UNORDERED","warning",24]]'
	assert_equal "$(field COLL_MISMATCH '[.rank, .group, .position, .ranks, .differing_positions]')" '[[3,"",1,[3],7]]'
	assert_equal "$(field BLOCKED_NODE '.waits_for' | jq -c 'unique')" '[[3]]'
	assert_equal "$(field BLOCKED_NODE '.message' | jq -r '.[0]')" \
		'ALL_REDUCE (group "0" collective #7) waits for rank 3 (never issues it)'
}

# --- per-rank checks: one crafted input each ----------------------------------

@test "META_MISSING: an ET whose first message is a node" {
	{ hdr 0; comp 0 1 5; comp 0 2 5 1; } >a.jsonl
	et-convert --to et a.jsonl -o a.et
	# the GlobalMetadata {version "0.0.4"} is 8 bytes: 07 0a 05 "0.0.4"
	assert_equal "$(hexbytes a.et 0 3)" "07 0a 05"
	tail -c +9 a.et >b.et
	run --separate-stderr et-validate --format json b.et
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["META_MISSING","error",1]]'
	assert_equal "$(jq '.nodes' <<<"$output")" 2
}

@test "META_MISSING: an empty rank of a stream (an empty file is bad input, exit 3)" {
	: >empty.et
	run -3 et-validate empty.et
	# the 31-byte section header of a one-rank stream named "x", then an
	# empty zstd frame
	et-synth coll --type all_reduce --size 1M --world 1 --name x -o one.etz
	{ head -c 31 one.etz; printf '' | zstd -q -c; } >empty.etz
	run --separate-stderr et-validate --format json empty.etz
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["META_MISSING","error",1]]'
	assert_equal "$(field META_MISSING .message)" '["empty ET: no GlobalMetadata and no nodes"]'
}

@test "DUP_ID: two nodes with one id" {
	{ hdr 0; comp 0 1 5; comp 0 2 5 1; comp 0 2 5 1; } >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["DUP_ID","error",1]]'
	assert_equal "$(field DUP_ID '[.node_id, .first_index, .index]')" '[[2,2,3]]'
}

@test "DANGLING_DATA_DEP / DANGLING_CTRL_DEP: deps on ids not in the rank, counted" {
	{ hdr 0; comp 0 1 5; comp 0 2 5 "1,40,41" 42; comp 0 3 5 2 43; } >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["DANGLING_DATA_DEP","error",2],["DANGLING_CTRL_DEP","error",2]]'
	assert_equal "$(jq -c '[.codes[] | .nodes]' <<<"$output")" '[1,2]'
	assert_equal "$(field DANGLING_DATA_DEP '[.node_id, .missing_id]')" '[[2,40],[2,41]]'
	assert_equal "$(field DANGLING_CTRL_DEP '[.node_id, .missing_id]')" '[[2,42],[3,43]]'
}

@test "SELF_DEP: a node that depends on itself" {
	{ hdr 0; comp 0 1 5; comp 0 2 5 "1,2"; } >a.jsonl
	validate a.jsonl
	assert_equal "$(codes)" '[["SELF_DEP","error",1]]'
	assert_equal "$(ids SELF_DEP)" '[2]'
}

@test "CYCLE: one cycle printed as a path of ids and names" {
	{ hdr 0; comp 0 1 5; comp 0 2 5 "1,4"; comp 0 3 5 2; comp 0 4 5 3; comp 0 5 5 4; } >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["CYCLE","error",1],["FORWARD_DATA_DEP","info",1]]'
	assert_equal "$(field CYCLE '[.cycle[] | [.id, .name]]')" '[[[3,"c3"],[4,"c4"],[2,"c2"]]]'
	assert_equal "$(field CYCLE .unordered)" '[4]'
	assert_equal "$(field CYCLE .message)" '["cycle of 3 nodes: 3 (c3) -> 4 (c4) -> 2 (c2) -> 3 (c3); 4 of 5 nodes are in or behind a cycle"]'
}

@test "NO_ROOT: every node has a dependency" {
	{ hdr 0; comp 0 1 5 2; comp 0 2 5 1; } >a.jsonl
	validate a.jsonl
	assert_equal "$(codes)" '[["CYCLE","error",1],["NO_ROOT","error",1],["FORWARD_DATA_DEP","info",1]]'
	assert_equal "$(field NO_ROOT .rank)" '[0]'
}

@test "FORWARD_DATA_DEP / FORWARD_CTRL_DEP: information, not defects" {
	{ hdr 0; comp 0 1 5 2 3; comp 0 2 5; comp 0 3 5; } >a.jsonl
	validate a.jsonl --strict
	assert_equal "$status" 0
	assert_equal "$(codes)" '[["FORWARD_DATA_DEP","info",1],["FORWARD_CTRL_DEP","info",1]]'
	assert_equal "$(field FORWARD_DATA_DEP '[.node_id, .dep_id]')" '[[1,2]]'
	assert_equal "$(field FORWARD_CTRL_DEP '[.node_id, .dep_id]')" '[[1,3]]'
}

# a node without a type: INVALID_NODE
invalid_node() { hdr 0; comp 0 1 5; echo "{\"rank\":0,\"id\":2,\"name\":\"x\",\"dataDeps\":[1],\"attr\":[$CPU0]}"; }

@test "INVALID_NODE: warning by default" {
	invalid_node >a.jsonl
	validate a.jsonl
	assert_equal "$status" 0
	assert_equal "$(codes)" '[["INVALID_NODE","warning",1]]'
	assert_equal "$(ids INVALID_NODE)" '[2]'
}

@test "INVALID_NODE: error for astra-sim" {
	invalid_node >a.jsonl
	validate a.jsonl --for astra-sim
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["INVALID_NODE","error",1]]'
}

# a process-group definition, a process-group node that is none, another
# METADATA node
metadata_nodes() {
	{
		hdr 0
		pgdef 0 1 '[{"pg_name": "0", "ranks": [], "group_size": 1}]'
		echo "{\"rank\":0,\"id\":2,\"name\":\"## process_group:init ##\",\"type\":\"METADATA_NODE\",\"inputs\":{\"values\":\"garbage\"},\"attr\":[$CPU0]}"
		echo "{\"rank\":0,\"id\":3,\"name\":\"note\",\"type\":\"METADATA_NODE\",\"attr\":[$CPU0]}"
		comp 0 4 5 "1,2,3"
	}
}

@test "METADATA_NODE: only process-group definitions are fine" {
	metadata_nodes >a.jsonl
	validate a.jsonl
	assert_equal "$status" 0
	assert_equal "$(codes)" '[["METADATA_NODE","warning",2]]'
	assert_equal "$(ids METADATA_NODE)" '[2,3]'
}

@test "METADATA_NODE: error for astra-sim" {
	metadata_nodes >a.jsonl
	validate a.jsonl --for astra-sim
	assert_equal "$(codes)" '[["METADATA_NODE","error",2]]'
}

# well-known attributes in other oneof members: readable and unreadable ones
wrong_members() {
	{
		hdr 0
		echo '{"rank":0,"id":1,"name":"a","type":"COMP_NODE","durationMicros":3,"attr":[{"name":"is_cpu_op","int64Val":0},{"name":"num_ops","doubleVal":2.5},{"name":"tensor_size","int64Val":8}]}'
		echo "{\"rank\":0,\"id\":2,\"name\":\"b\",\"type\":\"COMM_COLL_NODE\",\"dataDeps\":[1],\"attr\":[$CPU0,{\"name\":\"comm_type\",\"int32Val\":0},{\"name\":\"comm_size\",\"stringVal\":\"8\"},{\"name\":\"pg_name\",\"int64Val\":0}]}"
	}
}

@test "ATTR_MEMBER / ATTR_UNREADABLE: well-known attributes in the wrong oneof member" {
	wrong_members >a.jsonl
	validate a.jsonl
	assert_equal "$(codes)" '[["ATTR_MEMBER","warning",3],["ATTR_UNREADABLE","warning",3],["COLL_MISSING_ATTR","warning",1]]'
	assert_equal "$(field ATTR_MEMBER '[.node_id, .attr, .member, .expected]')" \
		'[[1,"is_cpu_op","int64_val","bool_val"],[1,"tensor_size","int64_val","uint64_val"],[2,"comm_type","int32_val","int64_val"]]'
	assert_equal "$(field ATTR_UNREADABLE '[.node_id, .attr, .member]')" \
		'[[1,"num_ops","double_val"],[2,"comm_size","string_val"],[2,"pg_name","int64_val"]]'
	# the unreadable comm_size counts as missing
	assert_equal "$(field COLL_MISSING_ATTR .message)" '["COMM_COLL_NODE without comm_size"]'
}

@test "ATTR_UNREADABLE: error for astra-sim; ATTR_MEMBER stays a warning" {
	wrong_members >a.jsonl
	validate a.jsonl --for astra-sim
	assert_equal "$(codes)" '[["ATTR_UNREADABLE","error",3],["COLL_MISSING_ATTR","error",1],["ATTR_MEMBER","warning",3]]'
}

# a collective without comm_type, one with comm_type 12, sizes 0 and -5, a
# BARRIER, a BROADCAST
coll_defects() {
	{
		hdr 0
		echo "{\"rank\":0,\"id\":1,\"name\":\"notype\",\"type\":\"COMM_COLL_NODE\",\"attr\":[$CPU0,{\"name\":\"comm_size\",\"int64Val\":8}]}"
		coll 0 2 12 8 1
		coll 0 3 0 0 2
		coll 0 4 0 -5 3
		coll 0 5 9 8 4
		coll 0 6 5 8 5
	}
}

@test "COLL_MISSING_ATTR, COLL_BAD_TYPE, COLL_BAD_SIZE, COLL_UNSUPPORTED" {
	coll_defects >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	# (a negative size is ATTR_NEGATIVE, an error in every profile)
	assert_equal "$(codes)" '[["ATTR_NEGATIVE","error",1],["COLL_BAD_TYPE","error",1],["COLL_MISSING_ATTR","warning",1],["COLL_BAD_SIZE","warning",1],["COLL_UNSUPPORTED","warning",1]]'
	assert_equal "$(ids COLL_MISSING_ATTR)" '[1]'
	assert_equal "$(field COLL_BAD_TYPE .message)" '["comm_type 12 is not a CollectiveCommType (0..9)"]'
	assert_equal "$(ids COLL_BAD_SIZE)" '[3]'
	assert_equal "$(ids ATTR_NEGATIVE)" '[4]'
	assert_equal "$(ids COLL_UNSUPPORTED)" '[5]'
}

@test "COLL_MISSING_ATTR, COLL_BAD_SIZE, COLL_UNSUPPORTED: errors for astra-sim" {
	coll_defects >a.jsonl
	validate a.jsonl --for astra-sim
	assert_equal "$(codes)" '[["ATTR_NEGATIVE","error",1],["COLL_MISSING_ATTR","error",1],["COLL_BAD_TYPE","error",1],["COLL_BAD_SIZE","error",1],["COLL_UNSUPPORTED","error",1]]'
}

# One collective of each CollectiveCommType, the five ASTRA-sim does not run
# first: its workload layer runs ALL_REDUCE, ALL_TO_ALL, ALL_GATHER,
# REDUCE_SCATTER and BROADCAST and throws "Unsupported collective comm type"
# on every other value, REDUCE_SCATTER_BLOCK included.
every_coll_type() {
	{
		hdr 0
		coll 0 1 1 8
		coll 0 2 3 8 1
		coll 0 3 4 8 2
		coll 0 4 8 8 3
		coll 0 5 9 8 4
		coll 0 6 0 8 5
		coll 0 7 6 8 6
		coll 0 8 2 8 7
		coll 0 9 7 8 8
		coll 0 10 5 8 9
	}
}

@test "COLL_UNSUPPORTED: REDUCE_SCATTER_BLOCK, as REDUCE, GATHER, SCATTER and BARRIER" {
	every_coll_type >a.jsonl
	validate a.jsonl --for astra-sim
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["COLL_UNSUPPORTED","error",5]]'
	assert_equal "$(ids COLL_UNSUPPORTED)" '[1,2,3,4,5]'
	assert_equal "$(field COLL_UNSUPPORTED .message | jq -r '.[3]')" \
		'REDUCE_SCATTER_BLOCK: ASTRA-sim simulates ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER and ALL_TO_ALL, replays BROADCAST, and aborts on the others'
}

@test "COLL_UNSUPPORTED: a warning by default, REDUCE_SCATTER_BLOCK too" {
	every_coll_type >a.jsonl
	validate a.jsonl
	assert_equal "$status" 0
	assert_equal "$(codes)" '[["COLL_UNSUPPORTED","warning",5]]'
	assert_equal "$(ids COLL_UNSUPPORTED)" '[1,2,3,4,5]'
}

@test "COLL_BAD_TYPE: a comm_type outside the schema is that alone, not also COLL_UNSUPPORTED" {
	{ hdr 0; coll 0 1 42 8; coll 0 2 -1 8 1; } >a.jsonl
	validate a.jsonl --for astra-sim
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["COLL_BAD_TYPE","error",2]]'
	assert_equal "$(field COLL_BAD_TYPE .message)" \
		'["comm_type 42 is not a CollectiveCommType (0..9)","comm_type -1 is not a CollectiveCommType (0..9)"]'
}

@test "P2P_MISSING_ATTR and P2P_NOT_SELF" {
	{
		hdr 1 2
		echo "{\"rank\":1,\"id\":1,\"name\":\"s\",\"type\":\"COMM_SEND_NODE\",\"attr\":[$CPU0,{\"name\":\"comm_dst\",\"int32Val\":0}]}"
		p2p 1 2 SEND 0 0 5 64
		p2p 1 3 RECV 0 0 6 64
	} >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["P2P_MISSING_ATTR","error",1],["P2P_NOT_SELF","error",2],["PARTIAL_INPUT","info",2]]'
	# rank 0 is not in the input: the SEND to it and the RECV from it are not judged
	assert_equal "$(field PARTIAL_INPUT .message | jq -r '.[1]')" \
		'3 SEND/RECV nodes name a peer rank that is not in the input: not checked, and such RECVs are taken to complete'
	assert_equal "$(field P2P_MISSING_ATTR .message)" '["COMM_SEND_NODE without comm_tag, comm_size"]'
	assert_equal "$(ids P2P_NOT_SELF)" '[2,3]'
	assert_equal "$(field P2P_NOT_SELF .rank)" '[1,1]'
}

# a host-side collective: is_cpu_op true, no comm attributes
host_coll() {
	hdr 0
	echo '{"rank":0,"id":1,"name":"c10d::allreduce_","type":"COMM_COLL_NODE","durationMicros":9,"attr":[{"name":"is_cpu_op","boolVal":true}]}'
}

@test "COMM_CPU_OP: a COMM node with is_cpu_op true (its comm attributes are moot)" {
	host_coll >a.jsonl
	validate a.jsonl
	assert_equal "$status" 0
	assert_equal "$(codes)" '[["COMM_CPU_OP","warning",1]]'
}

@test "COMM_CPU_OP: error for astra-sim" {
	host_coll >a.jsonl
	validate a.jsonl --for astra-sim
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["COMM_CPU_OP","error",1]]'
}

@test "CPU_OP_MISSING: information only" {
	{ hdr 0; echo '{"rank":0,"id":1,"name":"k","type":"COMP_NODE","durationMicros":4}'; } >a.jsonl
	validate a.jsonl --strict
	assert_equal "$status" 0
	assert_equal "$(codes)" '[["CPU_OP_MISSING","info",1]]'
}

# a COMP node with nothing to simulate, and one with num_ops and tensor_size
no_work() {
	hdr 0
	comp 0 1 0
	echo "{\"rank\":0,\"id\":2,\"name\":\"roofline\",\"type\":\"COMP_NODE\",\"dataDeps\":[1],\"attr\":[$CPU0,{\"name\":\"num_ops\",\"int64Val\":100},{\"name\":\"tensor_size\",\"uint64Val\":64}]}"
}

@test "COMP_NO_WORK: no duration and no num_ops/tensor_size" {
	no_work >a.jsonl
	validate a.jsonl
	assert_equal "$status" 0
	assert_equal "$(codes)" '[["COMP_NO_WORK","warning",1]]'
	assert_equal "$(ids COMP_NO_WORK)" '[1]'
}

@test "COMP_NO_WORK: a warning, so --strict fails" {
	no_work >a.jsonl
	validate a.jsonl --strict
	assert_equal "$status" 1
}

# pg_names "5" (defined by a node), "7" (by nothing), "0" and "" (all ranks)
pg_names() {
	{
		hdr 0
		pgdef 0 1 '[{"pg_name": "5", "ranks": [0]}]'
		coll 0 2 0 64 1 5
		coll 0 3 0 64 2 7
		coll 0 4 0 64 3 0
		coll 0 5 0 64 4 ""
	}
}

@test "PG_UNDEFINED: pg_name defined by no process-group node nor --comm-groups" {
	pg_names >a.jsonl
	validate a.jsonl
	assert_equal "$(codes)" '[["PG_UNDEFINED","warning",1]]'
	assert_equal "$(field PG_UNDEFINED '[.node_id, .group]')" '[[3,"7"]]'
}

@test "PG_UNDEFINED: --comm-groups defines the pg_name" {
	pg_names >a.jsonl
	echo '{"7": [0]}' >groups.json
	validate a.jsonl --comm-groups groups.json --for astra-sim --strict
	assert_equal "$status" 0
	assert_equal "$(codes)" '[]'
}

# --- cross-rank checks --------------------------------------------------------

# An 8-rank DLRM-like step: per rank, an embedding lookup, ALL_TO_ALL, an MLP,
# two ALL_REDUCEs. dlrm DROP_RANK DROP_ID RESIZE_RANK RESIZE_ID (0 = none);
# a dropped collective becomes a COMP node (the dependencies stay intact).
dlrm() {
	for r in 0 1 2 3 4 5 6 7; do
		hdr $r 8
		comp $r 1 120
		if [ "$1" = $r ] && [ "$2" = 2 ]; then comp $r 2 1 1; else coll $r 2 6 65536 1; fi
		comp $r 3 300 2
		if [ "$3" = $r ] && [ "$4" = 4 ]; then coll $r 4 0 2048 3; else coll $r 4 0 1048576 3; fi
		comp $r 5 80 4
		if [ "$1" = $r ] && [ "$2" = 6 ]; then comp $r 6 1 5; else coll $r 6 0 4096 5; fi
		comp $r 7 10 6
	done
}

@test "an 8-rank DLRM step validates clean" {
	dlrm 0 0 0 0 >a.jsonl
	validate a.jsonl --for astra-sim --strict
	assert_equal "$status" 0
	assert_equal "$(jq -c '[.ranks, .nodes, .codes]' <<<"$output")" '[8,56,[]]'
}

@test "COLL_MISMATCH: one rank's collective resized -> group, position, ranks" {
	dlrm 0 0 5 4 >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["COLL_MISMATCH","error",1]]'
	assert_equal "$(field COLL_MISMATCH '[.rank, .node_id, .group, .position, .ranks, .agreeing_ranks, .expected]')" \
		'[[5,4,"",1,[5],7,{"comm_type":"ALL_REDUCE","comm_size":1048576}]]'
	assert_equal "$(field COLL_MISMATCH .message)" \
		'["group \"0\" (8 ranks), collective #1: rank 5 issues ALL_REDUCE of 2048 B (node 4 \"coll4\") where ranks 0-4,6-7 issue ALL_REDUCE of 1048576 B (node 4 \"coll4\"); 1 of 3 positions differ, rank 5 issues 3 collectives in the group"]'
}

@test "COLL_MISMATCH + DEADLOCK: one rank's collective removed" {
	dlrm 3 2 0 0 >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["COLL_MISMATCH","error",1],["DEADLOCK","error",1],["BLOCKED_NODE","error",7]]'
	# rank 3 lacks the ALL_TO_ALL: its sequence shifts from position 0 on
	assert_equal "$(field COLL_MISMATCH '[.rank, .position, .ranks, .differing_positions, .expected.comm_type]')" \
		'[[3,0,[3],3,"ALL_TO_ALL"]]'
	# the others wait at collective #2, which rank 3 never issues
	assert_equal "$(field BLOCKED_NODE '[.rank, .node_id, .waits_for]' | jq -c 'map(.[0])')" '[0,1,2,4,5,6,7]'
	assert_equal "$(field BLOCKED_NODE '.waits_for' | jq -c 'unique')" '[[3]]'
	assert_output --partial 'wait-for chain: rank 0 [ALL_REDUCE node 6 \"coll6\" (group \"0\" collective #2)] -> rank 3, which never issues it'
}

@test "COLL_NOT_MEMBER and PG_CONFLICT" {
	{
		hdr 0 3
		pgdef 0 1 '[{"pg_name": "g", "ranks": [0, 1]}]'
		coll 0 2 0 64 1 g
		hdr 1 3
		pgdef 1 1 '[{"pg_name": "g", "ranks": [0, 1, 2]}]'
		coll 1 2 0 64 1 g
		hdr 2 3
		pgdef 2 1 '[{"pg_name": "g", "ranks": [0, 1]}]'
		coll 2 2 0 64 1 g
	} >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["PG_CONFLICT","error",1],["COLL_NOT_MEMBER","error",1]]'
	assert_equal "$(field PG_CONFLICT '[.rank, .node_id, .group]')" '[[1,1,"g"]]'
	assert_equal "$(field COLL_NOT_MEMBER '[.rank, .node_id, .group]')" '[[2,2,"g"]]'
}

@test "P2P_UNMATCHED: a SEND and a RECV that differ in size match nothing" {
	{
		hdr 0 2
		p2p 0 1 SEND 0 1 5 64
		p2p 0 2 SEND 0 1 6 64 1
		hdr 1 2
		p2p 1 1 RECV 0 1 5 64
		p2p 1 2 RECV 0 1 6 32 1
	} >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	# (the RECV then waits forever, but that is this finding, not a DEADLOCK)
	assert_equal "$(codes)" '[["P2P_UNMATCHED","error",2]]'
	assert_equal "$(field P2P_UNMATCHED '[.rank, .node_id, .src, .dst, .tag, .size]')" '[[1,2,0,1,6,32],[0,2,0,1,6,64]]'
}

@test "DEADLOCK: a two-rank send/recv wait cycle" {
	{
		hdr 0 2
		p2p 0 1 RECV 1 0 7 64
		p2p 0 2 SEND 0 1 8 64 1
		hdr 1 2
		p2p 1 1 RECV 0 1 8 64
		p2p 1 2 SEND 1 0 7 64 1
	} >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["DEADLOCK","error",1],["BLOCKED_NODE","error",2]]'
	assert_equal "$(field DEADLOCK '[.rank, .node_id, .wait_cycle]')" '[[0,1,[0,1]]]'
	assert_equal "$(field BLOCKED_NODE '[.rank, .node_id, .waits_for]')" '[[0,1,[1]],[1,1,[0]]]'
	assert_equal "$(field DEADLOCK .message)" \
		'["the ranks stop with 2 nodes blocked on 2 ranks (4 comm nodes never complete); wait-for cycle: rank 0 [RECV node 1 \"RECV1\" from rank 1 tag 7] -> rank 1 [RECV node 1 \"RECV1\" from rank 0 tag 8] -> rank 0"]'
}

@test "DEADLOCK: two blocked RECVs on one rank are two BLOCKED_NODEs" {
	{
		hdr 0 2
		p2p 0 1 RECV 1 0 2 64
		p2p 0 2 RECV 1 0 3 64
		p2p 0 3 SEND 0 1 1 64 1,2
		hdr 1 2
		p2p 1 1 RECV 0 1 1 64
		p2p 1 2 SEND 1 0 2 64 1
		p2p 1 3 SEND 1 0 3 64 1
	} >c.jsonl
	validate c.jsonl
	assert_equal "$(codes)" '[["DEADLOCK","error",1],["BLOCKED_NODE","error",3]]'
	assert_equal "$(field BLOCKED_NODE '[.rank, .node_id, .waits_for]')" '[[0,1,[1]],[0,2,[1]],[1,1,[0]]]'
}

@test "DEADLOCK: none when one rank sends first" {
	{
		hdr 0 2
		p2p 0 1 SEND 0 1 8 64
		p2p 0 2 RECV 1 0 7 64 1
		hdr 1 2
		p2p 1 1 RECV 0 1 8 64
		p2p 1 2 SEND 1 0 7 64 1
	} >b.jsonl
	validate b.jsonl --strict
	assert_equal "$status" 0
}

@test "DEADLOCK across collectives: two groups entered in opposite orders" {
	{
		hdr 0 2
		pgdef 0 1 '[{"pg_name": "a", "ranks": [0, 1]}, {"pg_name": "b", "ranks": [0, 1]}]'
		coll 0 2 0 64 1 a
		coll 0 3 0 64 2 b
		hdr 1 2
		pgdef 1 1 '[{"pg_name": "a", "ranks": [0, 1]}, {"pg_name": "b", "ranks": [0, 1]}]'
		coll 1 2 0 64 1 b
		coll 1 3 0 64 2 a
	} >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["DEADLOCK","error",1],["BLOCKED_NODE","error",2]]'
	assert_equal "$(field DEADLOCK .wait_cycle)" '[[0,1]]'
	assert_equal "$(field BLOCKED_NODE '[.rank, .node_id]')" '[[0,2],[1,2]]'
}

# The deadlock check runs over rank classes (ranks the check cannot tell
# apart) when that leaves no rank waiting, and rank by rank otherwise, so a
# deadlock every rank shares is reported as before.
@test "DEADLOCK over rank classes: a ring of four is one class; its deadlock is still found" {
	for r in 0 1 2 3; do
		hdr $r 4
		p2p $r 1 SEND $r $(((r + 1) % 4)) 5 64
		p2p $r 2 RECV $(((r + 3) % 4)) $r 5 64 1
	done >ok.jsonl
	validate ok.jsonl --strict
	assert_equal "$status" 0
	run --separate-stderr et-validate --timing ok.etz
	assert_success
	[[ "$stderr" == *"timing: deadlock check over 1 rank classes of 4 ranks"* ]]
	# every rank receives before it sends: one class, and a cycle of four
	for r in 0 1 2 3; do
		hdr $r 4
		p2p $r 1 RECV $(((r + 3) % 4)) $r 5 64
		p2p $r 2 SEND $r $(((r + 1) % 4)) 5 64 1
	done >dl.jsonl
	validate dl.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["DEADLOCK","error",1],["BLOCKED_NODE","error",4]]'
	assert_equal "$(field DEADLOCK .wait_cycle)" '[[0,3,2,1]]'
	run --separate-stderr et-validate --timing dl.etz
	[[ "$stderr" != *"deadlock check over"* ]]
}

# 8,192 ranks of llama3-405b (tp 8, pp 16): the ranks of a stage share one
# summary, and the deadlock check runs over the 16 stages, so the check fits
# in 600 MB of address space (the build before took more than 1.2 GB).
@test "class streams: 8,192 ranks of llama3-405b in 600 MB, the deadlock check over its 16 stages" {
	et-stage -q --model llama3-405b --dp 64 --tp 8 --pp 16 -o big.etz
	run --separate-stderr bash -c "$(ulimit_v 600000)et-validate --timing big.etz"
	assert_success
	[[ "$output" == *"8192 ranks, 96288768 nodes"* ]]
	[[ "$stderr" == *"timing: deadlock check over 16 rank classes of 8192 ranks"* ]]
	# the progress line counts the nodes of the ranks checked from their
	# rules too (a 405B rank has over 10,000): not only those decoded
	run -0 --separate-stderr et-validate --progress big.etz
	last=$(printf '%s' "$stderr" | tr '\r' '\n' | grep -E '^rank [0-9]+ of 8192 .*, [0-9]+ nodes' | tail -1)
	r=$(sed -E 's/^rank ([0-9]+) of.*/\1/' <<<"$last")
	n=$(sed -E 's/.*, ([0-9]+) nodes.*/\1/' <<<"$last")
	[ -n "$r" ] && [ "$r" -ge 1000 ]
	[ "$n" -ge $((r * 10000)) ]
}

@test "PARTIAL_INPUT: world size 4, two ranks present" {
	{ hdr 0 4; coll 0 1 0 64; hdr 1 4; coll 1 1 0 64; } >a.jsonl
	validate a.jsonl
	assert_equal "$status" 0
	assert_equal "$(codes)" '[["PARTIAL_INPUT","info",1]]'
	assert_equal "$(field PARTIAL_INPUT .rank)" '[null]'
}

# --- output, options, exit codes ---------------------------------------------

@test "text report: most severe first, counts, first N per code" {
	{ hdr 0; comp 0 1 0; comp 0 2 0 1; comp 0 3 0 "2,50,51,52"; } >a.jsonl
	et-convert a.jsonl -o a.etz
	run --separate-stderr et-validate --max-per-code 2 a.etz
	assert_equal "$status" 1
	assert_equal "$output" '1 rank, 3 nodes, profile default
error   DANGLING_DATA_DEP         3 on 1 node  data dep on an id not in the rank
  rank 0 node 3 "c3": data dep on id 50, which is not in rank 0
  rank 0 node 3 "c3": data dep on id 51, which is not in rank 0
  ... 1 more
warning COMP_NO_WORK              3  COMP node with neither a duration nor num_ops/tensor_size
  rank 0 node 1 "c1": COMP_NODE with duration_micros 0 and no num_ops/tensor_size: nothing to simulate
  rank 0 node 2 "c2": COMP_NODE with duration_micros 0 and no num_ops/tensor_size: nothing to simulate
  ... 1 more
3 errors, 3 warnings, 0 info: FAILED'
	assert_equal "$stderr" ""
}

@test "JSON report: the documented top-level keys; --max-per-code 0 lists all" {
	{ hdr 0; comp 0 1 5 "7,8,9"; } >a.jsonl
	validate a.jsonl --max-per-code 0
	assert_equal "$(jq -c 'keys' <<<"$output")" '["codes","errors","info","nodes","ok","profile","ranks","tool","version","warnings"]'
	assert_equal "$(jq -c '.codes[0] | keys' <<<"$output")" '["code","count","description","findings","nodes","omitted","severity"]'
	assert_equal "$(jq -c '.codes[0].findings[0] | keys' <<<"$output")" '["message","missing_id","node_id","node_name","rank"]'
	assert_equal "$(jq -c '[.ok, .codes[0].omitted, (.codes[0].findings | length)]' <<<"$output")" '[false,0,3]'
}

@test "JSON report: --max-per-code 1 lists one, the rest are omitted" {
	{ hdr 0; comp 0 1 5 "7,8,9"; } >a.jsonl
	validate a.jsonl --max-per-code 1
	assert_equal "$(jq -c '[.codes[0].omitted, (.codes[0].findings | length)]' <<<"$output")" '[2,1]'
}

@test "-o FILE writes the report atomically; the exit status is unchanged" {
	{ hdr 0; comp 0 1 5 9; } >a.jsonl
	et-convert a.jsonl -o a.etz
	run et-validate -o rep.txt a.etz
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$(tail -1 rep.txt)" "1 error, 0 warnings, 0 info: FAILED"
}

@test "--tee: the input stream on stdout when it validates, findings on stderr" {
	dlrm 0 0 0 0 >ok.jsonl
	et-convert ok.jsonl -o ok.etz
	et-validate --tee ok.etz >out.etz 2>rep.txt
	et-convert --to jsonl out.etz >back.jsonl
	et-convert --to jsonl ok.etz >orig.jsonl
	cmp back.jsonl orig.jsonl
	assert_equal "$(tail -1 rep.txt)" "0 errors, 0 warnings, 0 info: OK"
	# a pipeline: validate, then use the stream
	assert_equal "$(et-validate --tee -q ok.etz 2>/dev/null | et-convert --to jsonl | wc -l)" 64
}

@test "--tee: nothing on stdout when the input does not validate" {
	dlrm 0 0 5 4 >bad.jsonl
	et-convert bad.jsonl -o bad.etz
	run --separate-stderr et-validate --tee bad.etz
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "${stderr##*$'\n'}" "1 error, 0 warnings, 0 info: FAILED"
}

@test "--tee-always: the input stream on stdout whatever the findings" {
	dlrm 0 0 5 4 >bad.jsonl
	et-convert bad.jsonl -o bad.etz
	et-validate --tee-always bad.etz >all.etz 2>/dev/null || true
	et-convert --to jsonl all.etz | cmp - <(et-convert --to jsonl bad.etz)
}

@test "--tee re-frames non-stream inputs as a stream: a per-rank set" {
	et-validate --tee "$MB/all_gather/4npus_1MB/all_gather" >s.etz 2>/dev/null
	et-convert --to et --ranks 2 s.etz -o r2.et
	cmp r2.et "$MB/all_gather/4npus_1MB/all_gather.2.et"
}

@test "--tee re-frames non-stream inputs as a stream: a raw ET" {
	et-validate --tee "$MB/all_gather/4npus_1MB/all_gather.2.et" 2>/dev/null | et-convert --to et -o one.et
	cmp one.et "$MB/all_gather/4npus_1MB/all_gather.2.et"
}

@test "exit 3 on truncated input, with the byte offset, and no report" {
	et-convert --to et "$MB/all_reduce/4npus_1MB/all_reduce.0.et" -o a.et
	size=$(stat -c %s a.et)
	head -c $((size - 3)) a.et >t.et
	run --separate-stderr et-validate t.et
	assert_equal "$status" 3
	assert_equal "$output" ""
	assert_equal "$stderr" "et-validate: t.et: rank 0: byte 8: truncated message: length 72, 69 bytes left"
}

@test "exit 3 on a node message that is not a Node, with the byte offset" {
	# field 1 with wire type 7
	printf '\x07\x0a\x050.0.4\x02\x0f\x00' >c.et
	run --separate-stderr et-validate c.et
	assert_equal "$status" 3
	assert_equal "$stderr" "et-validate: c.et: rank 0: byte 8: message 1 is not a Node"
}

@test "usage error: --for an unknown profile exits 2" {
	run et-validate --for gem5
	assert_equal "$status" 2
	assert_output --partial "--for: expected default or astra-sim"
}

@test "usage error: --format an unknown format exits 2" {
	run et-validate --format yaml
	assert_equal "$status" 2
}

@test "usage error: --max-per-code -1 exits 2" {
	run et-validate --max-per-code -1
	assert_equal "$status" 2
}

@test "--comm-groups: a group that is not an array of ranks exits 3" {
	echo '{"1": "zero"}' >g.json
	run et-validate --comm-groups g.json "$MB/all_reduce/4npus_1MB/all_reduce"
	assert_equal "$status" 3
	assert_output "et-validate: g.json: line 1: group \"1\": expected an array of ranks, got a string"
}

@test "--comm-groups: a missing file exits 4" {
	run et-validate --comm-groups missing.json "$MB/all_reduce/4npus_1MB/all_reduce"
	assert_equal "$status" 4
}

@test "--comm-groups: invalid JSON exits 3 with its line and column" {
	printf '{"1": [0, 1],\n "2": [2 3]}' >g.json
	run et-validate --comm-groups g.json "$MB/all_reduce/4npus_1MB/all_reduce"
	assert_equal "$status" 3
	assert_output "et-validate: g.json: line 2, column 10: invalid JSON"
}

@test "--comm-groups: a group given twice exits 3" {
	printf '{"1": [0, 1], "1": [2, 3]}' >g.json
	run et-validate --comm-groups g.json "$MB/all_reduce/4npus_1MB/all_reduce"
	assert_equal "$status" 3
	assert_output "et-validate: g.json: line 1: group \"1\" is given twice (as \"1\" on line 1)"
}

@test "every check code is documented in et-validate(1) with an example" {
	codes=$(grep -o '{"[A-Z0-9_]*", [EWI], [EWI]' "$REPO/cmd/et-validate/report/findings.c" | cut -d'"' -f2)
	assert_equal "$(echo "$codes" | wc -l)" 34
	for c in $codes; do
		grep -q "^\.B $c\$" "$REPO/man/et-validate.1" || { echo "undocumented: $c"; false; }
	done
}

@test "et-validate(1) examples" {
	run "$REPO/tests/man-examples.sh" "$REPO/man/et-validate.1" "$REPO" "$T/ex"
	assert_success
}

# --- the reading thread (-T 1, the default) against none (-T 0) ----------------

# same_both ARGS...: et-validate ARGS with -T 0 and with -T 1 give the same
# stdout, stderr and exit status; $output and $status are -T 1's.
same_both() {
	run --separate-stderr et-validate -T 0 "$@"
	local out0=$output err0=$stderr st0=$status
	run --separate-stderr et-validate -T 1 "$@"
	assert_equal "$status" "$st0"
	assert_equal "$stderr" "$err0"
	assert_equal "$output" "$out0"
}

@test "-T 0 and -T 1: same report on the DLRM stream" {
	dlrm_stream
	same_both --format json --stats dlrm.etz
	assert_equal "$status" 0
	assert_equal "$(jq -c '[.ranks, .nodes, .errors]' <<<"$output")" '[8,13392,0]'
}

@test "-T 0 and -T 1: --tee-always copies the DLRM stream unchanged, same report" {
	dlrm_stream
	for t in 0 1; do
		et-validate -q -T $t --tee-always -o report.$t dlrm.etz >copy.$t.etz
		cmp copy.$t.etz dlrm.etz
	done
	cmp report.0 report.1
}

@test "-T 0 and -T 1: --tee-always on a cut stream, exit 3, the same prefix copied" {
	dlrm_stream
	# cut in the middle: exit 3, and the copy is the same prefix of the input
	# either way (the ranks read in full, up to where reading stopped)
	half=$(($(stat -c %s dlrm.etz) / 2))
	head -c $half dlrm.etz >cut.etz
	for t in 0 1; do
		status=0
		et-validate -q -T $t --tee-always -o report.$t cut.etz >cut.$t.etz 2>err.$t || status=$?
		assert_equal "$status" 3
	done
	cmp cut.0.etz cut.1.etz
	cmp err.0 err.1
	n=$(stat -c %s cut.0.etz)
	[ "$n" -gt $((half / 4)) ]
	cmp -n "$n" cut.0.etz dlrm.etz
}

@test "--timing: single-rank and cross-rank phases on stderr; the report is unchanged" {
	dlrm_stream
	et-validate --format json dlrm.etz >plain.json
	run --separate-stderr et-validate --timing --format json dlrm.etz
	assert_equal "$status" 0
	assert_equal "$output" "$(cat plain.json)"
	# one line; the rate is the nodes over the two single-rank phases
	assert_equal "$(wc -l <<<"$stderr")" 1
	re='^timing: reading \+ decoding ([0-9.]+) s \(both threads\); single-rank checks: adding \+ node checks ([0-9.]+) s, rank checks ([0-9.]+) s, ([0-9.]+) M nodes/s after decoding; cross-rank checks: summaries ([0-9.]+) s \(([0-9]+) bytes\), checks ([0-9.]+) s \(CPU\)$'
	[[ "$stderr" =~ $re ]]
	add=${BASH_REMATCH[2]} chk=${BASH_REMATCH[3]} rate=${BASH_REMATCH[4]} bytes=${BASH_REMATCH[6]}
	[ "$bytes" -gt 0 ]
	# (the times are printed to the millisecond, the rate to 0.01)
	awk -v a="$add" -v c="$chk" -v r="$rate" 'BEGIN {
		t = a + c; lo = 13392 / (t + 0.001) / 1e6 - 0.01
		if (t <= 0.001) exit !(r >= lo)
		exit !(r >= lo && r <= 13392 / (t - 0.001) / 1e6 + 0.01) }'
}

@test "--timing with -T 0: reading and decoding on one thread" {
	dlrm_stream
	run --separate-stderr et-validate -T 0 --timing -q dlrm.etz
	[[ "$stderr" == *"(one thread); single-rank checks: "* ]]
}

@test "-T 0 and -T 1: same report with a 5 MB node among thousands of small ones" {
	{
		hdr 0
		for i in $(seq 1 3000); do comp 0 "$i" 5 $((i > 1 ? i - 1 : 0)); done
		big=$(head -c 5000000 /dev/zero | tr '\0' x)
		echo "{\"rank\":0,\"id\":3001,\"name\":\"$big\",\"type\":\"COMP_NODE\",\"durationMicros\":1,\"dataDeps\":[3000],\"attr\":[$CPU0]}"
		for i in $(seq 3002 5000); do comp 0 "$i" 5 $((i - 1)) 1; done
	} >big.jsonl
	et-convert --from json big.jsonl -o big.etz
	same_both --format json --stats big.etz
	assert_equal "$(jq -c '[.nodes, [.codes[] | [.code, .count]]]' <<<"$output")" \
		'[5000,[["DANGLING_DATA_DEP",1]]]'
}

@test "-T 0 and -T 1: a message that is not a Node mid-rank is exit 3 at its byte offset" {
	{
		hdr 0
		for i in $(seq 1 2000); do comp 0 "$i" 5; done
	} >a.jsonl
	{
		hdr 0
		for i in $(seq 2001 2500); do comp 0 "$i" 5; done
	} >b.jsonl
	et-convert --from json --to et a.jsonl -o a.et
	et-convert --from json --to et b.jsonl -o b.et
	meta=$(od -An -tu1 -N1 b.et | tr -d ' ')
	{
		cat a.et
		printf '\002\012\005' # a 2-byte message: field 1, length 5, no bytes
		tail -c +$((meta + 2)) b.et
	} >bad.et
	same_both bad.et
	assert_equal "$status" 3
	assert_equal "$stderr" "et-validate: bad.et: rank 0: byte $(stat -c %s a.et): message 2001 is not a Node"
	assert_equal "$output" ""
}

# bad.etz: the DLRM stream with rank 5's fifth collective resized
dlrm_resized() {
	dlrm_stream
	id=$(nth_coll 5 5)
	sed "/^{\"rank\":5,\"id\":$id,/s/\"int64Val\":1576964/\"int64Val\":1024/" dlrm.jsonl >bad.jsonl
	et-convert --from json bad.jsonl -o bad.etz
}

@test "--ranks checks only the selected ranks: the defective one left out" {
	dlrm_resized
	# rank 5 left out: its resized collective is not seen
	run --separate-stderr et-validate --format json --ranks 0-4,6-7 bad.etz
	assert_equal "$status" 0
	assert_equal "$(jq -c '[.ranks, .errors, [.codes[].code]]' <<<"$output")" '[7,0,["COMP_NO_WORK","COLL_UNORDERED","PARTIAL_INPUT"]]'
}

@test "--ranks checks only the selected ranks: the defective one and one other" {
	dlrm_resized
	# rank 5 with one other: the mismatch is found between the two (one
	# against one: the report names rank 4, with rank 5 as the other side)
	run --separate-stderr et-validate --format json --ranks 4-5 bad.etz
	assert_equal "$status" 1
	assert_equal "$(field COLL_MISMATCH '[.position, .ranks, .agreeing_ranks]')" '[[4,[4],1]]'
}

@test "--ranks: a list that matches none of the ranks is exit 3; a bad list exit 2" {
	dlrm_resized
	run --separate-stderr et-validate --ranks 9 bad.etz
	assert_equal "$status" 3
	assert_equal "$stderr" "et-validate: --ranks matches none of the input's ranks"
	run --separate-stderr et-validate --ranks x bad.etz
	assert_equal "$status" 2
}

@test "counts of one are singular: '1 rank', '1 node'" {
	run -0 et-validate --stats --ranks 0 "$REPO/samples/all_reduce_8/all_reduce"
	assert_line --index 0 "1 rank, 1 node, profile default"
	assert_line "rank 0: 1 node (COMM_COLL_NODE 1)"
}

# SEND RANK ID DST TAG SIZE / RECV RANK ID SRC TAG SIZE, without their own end
send_own() {
	echo "{\"rank\":$1,\"id\":$2,\"name\":\"s$2\",\"type\":\"COMM_SEND_NODE\",\"attr\":[$CPU0,{\"name\":\"comm_dst\",\"int32Val\":$3},{\"name\":\"comm_tag\",\"int32Val\":$4},{\"name\":\"comm_size\",\"int64Val\":$5}]}"
}
recv_own() {
	echo "{\"rank\":$1,\"id\":$2,\"name\":\"r$2\",\"type\":\"COMM_RECV_NODE\",\"attr\":[$CPU0,{\"name\":\"comm_src\",\"int32Val\":$3},{\"name\":\"comm_tag\",\"int32Val\":$4},{\"name\":\"comm_size\",\"int64Val\":$5}]}"
}

@test "a SEND without comm_src and a RECV without comm_dst are the node's own rank, as ASTRA-sim reads them" {
	# a 2-rank exchange written as ASTRA-sim's MSCCL-derived examples are
	{
		hdr 0 2; send_own 0 1 1 7 1024; recv_own 0 2 1 8 1024
		hdr 1 2; recv_own 1 1 0 7 1024; send_own 1 2 0 8 1024
	} >own.jsonl
	run -0 --separate-stderr et-validate --for astra-sim own.jsonl
	assert_output --partial "0 errors, 0 warnings"
	run -0 et-validate --tee own.jsonl -o /dev/null
	run -0 et-sim own.jsonl
	# a SEND still needs its peer
	{ hdr 0 1; echo "{\"rank\":0,\"id\":1,\"name\":\"s\",\"type\":\"COMM_SEND_NODE\",\"attr\":[$CPU0,{\"name\":\"comm_tag\",\"int32Val\":1},{\"name\":\"comm_size\",\"int64Val\":8}]}"; } >nopeer.jsonl
	run -1 et-validate --format json nopeer.jsonl
	[ "$(jq -c '[.codes[] | select(.code == "P2P_MISSING_ATTR") | .findings[0].message]' <<<"$output")" = '["COMM_SEND_NODE without comm_dst"]' ] ||
		fail "$output"
}

# --- issue 27: negative counts, unordered collectives, involved_dim ---------

@test "ATTR_NEGATIVE: a negative num_ops, tensor_size or comm_size is an error in every profile" {
	{
		hdr 0 1
		echo "{\"rank\":0,\"id\":1,\"name\":\"ops\",\"type\":\"COMP_NODE\",\"durationMicros\":3,\"attr\":[$CPU0,{\"name\":\"num_ops\",\"int64Val\":-5}]}"
		echo "{\"rank\":0,\"id\":2,\"name\":\"bytes\",\"type\":\"COMP_NODE\",\"durationMicros\":3,\"dataDeps\":[1],\"attr\":[$CPU0,{\"name\":\"tensor_size\",\"int64Val\":-1}]}"
		coll 0 3 0 -5 2
		echo "{\"rank\":0,\"id\":4,\"name\":\"fine\",\"type\":\"COMP_NODE\",\"durationMicros\":3,\"dataDeps\":[3],\"attr\":[$CPU0,{\"name\":\"num_ops\",\"int64Val\":0},{\"name\":\"tensor_size\",\"uint64Val\":\"8\"}]}"
	} >a.jsonl
	validate a.jsonl
	assert_equal "$status" 1
	# (tensor_size in int64Val is also ATTR_MEMBER: the schema's is uint64)
	assert_equal "$(codes)" '[["ATTR_NEGATIVE","error",3],["ATTR_MEMBER","warning",1]]'
	assert_equal "$(field ATTR_NEGATIVE '[.node_id, .message]')" \
		'[[1,"num_ops -5 is negative"],[2,"tensor_size -1 is negative (or 2^63 or more)"],[3,"comm_size -5 is negative"]]'
	validate a.jsonl --for astra-sim
	assert_equal "$(codes)" '[["ATTR_NEGATIVE","error",3],["ATTR_MEMBER","warning",1]]'
	# a SEND's and a RECV's too
	{
		hdr 0 2
		p2p 0 1 SEND 0 1 5 -64
		hdr 1 2
		p2p 1 1 RECV 0 1 5 -64
	} >p.jsonl
	validate p.jsonl
	assert_equal "$(codes)" '[["ATTR_NEGATIVE","error",2]]'
}

# coll_in RANK ID COMM_TYPE SIZE PG_NAME DATA_DEPS CTRL_DEPS
coll_in() {
	local pg=""
	[ -n "$5" ] && pg=",{\"name\":\"pg_name\",\"stringVal\":\"$5\"}"
	echo "{\"rank\":$1,\"id\":$2,\"name\":\"coll$2\",\"type\":\"COMM_COLL_NODE\",\"dataDeps\":[$6],\"ctrlDeps\":[${7:-}],\"attr\":[$CPU0,{\"name\":\"comm_type\",\"int64Val\":$3},{\"name\":\"comm_size\",\"int64Val\":$4}$pg]}"
}

@test "COLL_UNORDERED: two collectives of one communicator with no path between them, on each rank" {
	# Both ranks: after c1, an all-reduce and an all-gather of the default
	# group hang off c1 side by side (nothing orders them: NCCL may run
	# either first); group "5"'s two all-reduces are chained through a
	# ctrl dep and a COMP; collectives of different groups need no order.
	for r in 0 1; do
		hdr $r 2
		pgdef $r 10 '[{"pg_name": "5", "ranks": [0, 1]}]'
		comp $r 1 5
		coll_in $r 2 0 64 "" 1
		coll_in $r 3 2 64 "" 1
		coll_in $r 4 0 32 5 1
		comp $r 5 5 "" 4
		coll_in $r 6 0 32 5 5
	done >a.jsonl
	validate a.jsonl
	assert_equal "$status" 0
	assert_equal "$(codes)" '[["COLL_UNORDERED","warning",2]]'
	validate a.jsonl --strict --for astra-sim
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["COLL_UNORDERED","warning",2]]'
	assert_equal "$(field COLL_UNORDERED '[.rank, .node_id, .other_id, .group]')" '[[0,3,2,""],[1,3,2,""]]'
	assert_equal "$(field COLL_UNORDERED .message | jq -r '.[0]')" \
		'collectives 2 "coll2" and 3 "coll3" of the default communicator (all ranks) have no dependency path between them: rank 0 may issue them in either order (a hang when ranks differ)'
	# ordered by a ctrl dep on one rank only: the other is still reported
	sed 's/"rank":1,"id":3,\(.*\)"ctrlDeps":\[\]/"rank":1,"id":3,\1"ctrlDeps":[2]/' a.jsonl >b.jsonl
	validate b.jsonl
	assert_equal "$(field COLL_UNORDERED '[.rank, .node_id]')" '[[0,3]]'
	# ordered on both (through a data dep on rank 0): clean
	sed 's/"rank":0,"id":3,\(.*\)"dataDeps":\[1\]/"rank":0,"id":3,\1"dataDeps":[1,2]/' b.jsonl >c.jsonl
	validate c.jsonl --strict
	assert_equal "$status" 0
	assert_equal "$(codes)" '[]'
	# group "5"'s pair unordered too: named by its pg_name
	sed 's/"rank":0,"id":5,\(.*\)"ctrlDeps":\[4\]/"rank":0,"id":5,\1"ctrlDeps":[]/' c.jsonl >d.jsonl
	validate d.jsonl
	assert_equal "$(field COLL_UNORDERED '[.rank, .node_id, .other_id, .group]')" '[[0,6,4,"5"]]'
	assert_equal "$(field COLL_UNORDERED .message | jq -r '.[0]')" \
		'collectives 4 "coll4" and 6 "coll6" of communicator "5" have no dependency path between them: rank 0 may issue them in either order (a hang when ranks differ)'
}

@test "COLL_UNORDERED: a chain of collectives is checked pair by pair in a topological order, not by file order" {
	# written backwards (forward deps), one long chain through COMP nodes
	# with a side branch: every collective is ordered
	{
		hdr 0 1
		coll_in 0 1 0 8 "" 2
		comp 0 2 1 3
		coll_in 0 3 0 8 "" 4
		comp 0 4 1 5
		coll_in 0 5 0 8 ""
		comp 0 6 1 5
		comp 0 7 1 6 "" 
	} >a.jsonl
	validate a.jsonl --strict
	assert_equal "$(jq -c '.warnings' <<<"$output")" 0
	# a collective that only the side branch reaches is unordered with the
	# chain's middle one
	echo "$(coll_in 0 8 0 8 "" 7)" >>a.jsonl
	validate a.jsonl
	# (Kahn's order puts the collectives as 5, 3, 8, 1: 8 is unordered with
	# both its neighbours there)
	assert_equal "$(field COLL_UNORDERED '[.node_id, .other_id]')" '[[8,3],[1,8]]'
}

# A 2x2 network: ranks 0-1 and 2-3 share dimension 1's coordinate.
net22_yml() {
	printf 'topology: [ Ring, Ring ]\nnpus_count: [ 2, 2 ]\nbandwidth: [ 50, 50 ]\nlatency: [ 500, 500 ]\n' >net22.yml
}
# coll with an involved_dim: RANK ID COMM_TYPE SIZE INVOLVED [DATA_DEPS]
coll_dim() {
	echo "{\"rank\":$1,\"id\":$2,\"name\":\"coll$2\",\"type\":\"COMM_COLL_NODE\",\"dataDeps\":[${6:-}],\"attr\":[$CPU0,{\"name\":\"comm_type\",\"int64Val\":$3},{\"name\":\"comm_size\",\"int64Val\":$4},{\"name\":\"involved_dim\",\"boolList\":{\"values\":[$5]}}]}"
}

@test "DIMS_MISSING: involved_dim without the network's dimensions is one finding, not a deadlock; --network gives them" {
	net22_yml
	# each rank: an all-reduce on dimension 0 (ranks 0-1, 2-3), then one on
	# dimension 1 (ranks 0,2 and 1,3); ranks 2-3 all-gather on dimension 0
	for r in 0 1 2 3; do
		hdr $r 4
		if [ $r -lt 2 ]; then coll_dim $r 1 0 4096 true,false; else coll_dim $r 1 2 4096 true,false; fi
		coll_dim $r 2 0 8192 false,true 1
	done >d.jsonl
	validate d.jsonl
	assert_equal "$status" 1
	assert_equal "$(codes)" '[["DIMS_MISSING","error",1]]'
	assert_equal "$(field DIMS_MISSING '.message' | jq -r '.[0]')" \
		'collectives use involved_dim but no network dimensions were given: pass --network FILE or --npus-count N,... (collectives over all ranks with an involved_dim entry false are not matched across ranks)'
	validate d.jsonl --network net22.yml --for astra-sim --strict
	assert_equal "$status" 0
	assert_equal "$(codes)" '[]'
	# as --npus-count does
	validate d.jsonl --npus-count 2,2 --strict
	assert_equal "$status" 0
	# ASTRA-sim's one-dimensional 4-NPU ring: dimension 0 is every rank,
	# so ranks 0-1 all-reduce where ranks 2-3 all-gather
	validate d.jsonl --network "$DATA/astra-sim/network/Ring_4npus.yml"
	assert_equal "$(jq -c '[.codes[] | .code]' <<<"$output")" '["COLL_MISMATCH"]'
	# an InfraGraph network: et-sim's dimensions for it, one of every rank
	# (its graph is et-sim's to read), or --npus-count's (et-sim's
	# --logical-dims)
	validate d.jsonl --network "$DATA/infragraph/star8.yaml"
	assert_equal "$(jq -c '[.codes[] | .code]' <<<"$output")" '["COLL_MISMATCH"]'
	validate d.jsonl --network "$DATA/infragraph/star8.yaml" --npus-count 2,2 --strict
	assert_equal "$status" 0
	# a network of another size, a file that is no network, one that is not there
	run -2 --separate-stderr et-validate --network "$DATA/astra-sim/network/Ring_8npus.yml" d.jsonl
	assert_equal "$stderr" "et-validate: --network $DATA/astra-sim/network/Ring_8npus.yml: the network has 8 ranks, the input 4"
	printf 'topology: [ Ring ]\nnpus_count: [ two ]\n' >bad.yml
	run -3 --separate-stderr et-validate --network bad.yml d.jsonl
	assert_equal "$stderr" "et-validate: bad.yml: line 2, column 13: npus_count: 'two' is not a rank count"
	printf 'topology: [ Ring ]\nnpu_count: [ 4 ]\n' >typo.yml
	run -3 --separate-stderr et-validate --network typo.yml d.jsonl
	assert_equal "$stderr" "et-validate: typo.yml: line 2, column 1: \"npu_count\": unknown key"
	run -4 --separate-stderr et-validate --network nosuch.yml d.jsonl
	assert_output ""
	# an involved_dim that leaves nothing out needs no network
	for r in 0 1 2 3; do hdr $r 4; coll_dim $r 1 0 4096 true,true; done >all.jsonl
	validate all.jsonl
	assert_equal "$(codes)" '[]'
}

# The ranks of one pipeline stage (or of one compiled program) build one
# comm skeleton: the first rank's is kept once and the others point to it,
# each with only its own parent counts (which the deadlock check counts
# down). 16 data-parallel ranks then hold less than 16 times one rank's
# summary; the checks' results are the same.
@test "--timing: ranks with equal comm skeletons share one (summaries below ranks x one rank's)" {
	et-stage -q --model llama3-8b --layers 2 --dp 16 -o d16.etz
	one=$(et-validate --timing --ranks 0 d16.etz 2>&1 | sed -n 's/.*summaries [0-9.]* s (\([0-9]*\) bytes).*/\1/p')
	all=$(et-validate --timing d16.etz 2>&1 | sed -n 's/.*summaries [0-9.]* s (\([0-9]*\) bytes).*/\1/p')
	[ -n "$one" ] && [ -n "$all" ]
	[ "$all" -lt $((16 * one)) ]
	run et-validate d16.etz
	assert_success
	assert_line --partial "16 ranks"
}

# A class stream's later ranks are checked from their rules (their class's
# graph with their values set), not decoded: the report is byte for byte
# the one of the same plan written rank by rank (--no-classes), findings
# included, and --timing says how many ranks were so checked.
@test "class streams: ranks checked from their rules report what decoding them reports" {
	M=(--model llama3-8b --layers 2)
	for p in "--dp 4 --tp 2 --pp 2" "--dp 2 --tp 2 --pp 4 --schedule interleaved --layers 8" \
		"--dp 2 --pp 2 --cp 2" "--dp 4 --pp 2 --fsdp"; do
		# shellcheck disable=SC2086
		et-stage -q "${M[@]}" $p --write-comm-groups g.json -o c.etz
		# shellcheck disable=SC2086
		et-stage -q "${M[@]}" $p --no-classes -o n.etz
		for f in "" "--format json"; do
			# shellcheck disable=SC2086
			diff <(et-validate $f c.etz) <(et-validate $f n.etz)
		done
		run --separate-stderr et-validate --timing c.etz
		assert_success
		k=$(printf '%s\n' "$stderr" | sed -n 's/^timing: \([0-9]*\) of \([0-9]*\) ranks checked from their class rules, not decoded$/\1/p')
		[ -n "$k" ] && [ "$k" -gt 0 ]
	done
	# a group the comm-group file leaves out: rank 12 is the first of its
	# class to use it, after the class's first rank (8) checked clean
	et-stage -q "${M[@]}" --dp 4 --tp 2 --pp 2 --write-comm-groups g.json -o c.etz
	et-stage -q "${M[@]}" --dp 4 --tp 2 --pp 2 --no-classes -o n.etz
	jq 'del(."4")' g.json >g4.json
	run et-validate --comm-groups g4.json c.etz
	assert_output --partial 'rank 12 node 456 "bucket0.grad_X1COMM": pg_name "4" is defined by no process-group node'
	diff <(et-validate --comm-groups g4.json --format json c.etz) \
		<(et-validate --comm-groups g4.json --format json n.etz)
	run --separate-stderr et-validate --timing --comm-groups g4.json c.etz
	[[ "$stderr" == *"ranks checked from their class rules"* ]]
	# --stats and --tee decode every rank
	run --separate-stderr et-validate --timing --stats c.etz
	[[ "$stderr" != *"class rules"* ]]
	diff <(et-validate --stats c.etz) <(et-validate --stats n.etz)
}

# Two inputs whose class 0 are different bytes (llama3-8b with 2 and with 4
# layers, ranks 0-3 and 4-7 of stage 0): class generations name one class
# across the inputs, so the second input's ranks are never checked on the
# first input's class graph.
@test "class streams: a class id of two inputs is two classes" {
	P=(--model llama3-8b --dp 4 --tp 2 --pp 2)
	et-stage -q "${P[@]}" --layers 2 --ranks 0-3 -o a.etz
	et-stage -q "${P[@]}" --layers 4 --ranks 4-7 -o b.etz
	et-stage -q "${P[@]}" --layers 2 --ranks 0-3 --no-classes -o na.etz
	et-stage -q "${P[@]}" --layers 4 --ranks 4-7 --no-classes -o nb.etz
	run et-validate --format json a.etz b.etz
	echo "$output" >c.json
	run et-validate --format json na.etz nb.etz
	echo "$output" >n.json
	[ "$(jq .errors n.json)" -gt 0 ] # the two plans' collectives disagree
	diff c.json n.json
	run --separate-stderr et-validate --timing a.etz b.etz
	[[ "$stderr" == *"ranks checked from their class rules"* ]]
}
