#!/usr/bin/env bats
# ASTRA-sim's conventions, read as ASTRA-sim reads them (issue 15, item 6,
# and the comm-group JSON of item 7): a SEND/RECV's own end, pg_name and
# comm-group ids read with std::stoi, collectives on some dimensions only
# (involved_dim). Each on an input crafted here. (The custom-collective
# keys and roofline without op counts are in configs.bats and sim.bats.)
load common
bats_require_minimum_version 1.5.0

CPU0='{"name":"is_cpu_op","boolVal":false}'
hdr() { # RANK WORLD
	echo "{\"rank\":$1,\"world_size\":$2,\"name\":\"t\",\"metadata\":{\"version\":\"0.0.4\"}}"
}
# coll RANK ID COMM_TYPE SIZE [INVOLVED_DIM] [PG_NAME] [DATA_DEPS]
coll() {
	local inv="" pg=""
	[ -n "${5:-}" ] && inv=",{\"name\":\"involved_dim\",\"boolList\":{\"values\":[$5]}}"
	[ -n "${6:-}" ] && pg=",{\"name\":\"pg_name\",\"stringVal\":\"$6\"}"
	echo "{\"rank\":$1,\"id\":$2,\"name\":\"coll$2\",\"type\":\"COMM_COLL_NODE\",\"dataDeps\":[${7:-}],\"attr\":[$CPU0,{\"name\":\"comm_type\",\"int64Val\":$3},{\"name\":\"comm_size\",\"int64Val\":$4}$inv$pg]}"
}
comp() { # RANK ID DUR [MORE_ATTRS]
	echo "{\"rank\":$1,\"id\":$2,\"name\":\"c$2\",\"type\":\"COMP_NODE\",\"durationMicros\":$3,\"attr\":[$CPU0${4:-}]}"
}

# A ring all-reduce over W ranks as ASTRA-sim's MSCCL-derived
# custom-collective examples write it: a SEND names only its comm_dst, a
# RECV only its comm_src; step k's nodes wait for step k-1's RECV.
msccl_ring() {
	local w=$1 steps=$((2 * ($1 - 1)))
	for r in $(seq 0 $((w - 1))); do
		hdr "$r" "$w"
		local nx=$(((r + 1) % w)) pv=$(((r + w - 1) % w))
		for k in $(seq 0 $((steps - 1))); do
			local dep=""
			[ "$k" -gt 0 ] && dep=$((2 * k))
			echo "{\"rank\":$r,\"id\":$((2 * k + 1)),\"name\":\"send$k\",\"type\":\"COMM_SEND_NODE\",\"dataDeps\":[$dep],\"attr\":[$CPU0,{\"name\":\"comm_dst\",\"int32Val\":$nx},{\"name\":\"comm_tag\",\"int32Val\":$k},{\"name\":\"comm_size\",\"int64Val\":1024}]}"
			echo "{\"rank\":$r,\"id\":$((2 * k + 2)),\"name\":\"recv$k\",\"type\":\"COMM_RECV_NODE\",\"dataDeps\":[$dep],\"attr\":[$CPU0,{\"name\":\"comm_src\",\"int32Val\":$pv},{\"name\":\"comm_tag\",\"int32Val\":$k},{\"name\":\"comm_size\",\"int64Val\":1024}]}"
		done
	done
}

@test "own end: an MSCCL-style ring (SEND without comm_src, RECV without comm_dst) validates, tees and simulates" {
	msccl_ring 4 >ring.jsonl
	et-convert --from json ring.jsonl -o ring.etz
	run -0 --separate-stderr et-validate --for astra-sim --strict ring.etz
	assert_output "4 ranks, 48 nodes, profile astra-sim
0 errors, 0 warnings, 0 info: OK"
	# --tee lets it through, byte for byte
	et-validate --tee ring.etz >copy.etz 2>/dev/null
	cmp ring.etz copy.etz
	run -0 et-sim ring.etz
	assert_line --index 1 "simulated iteration time: 3,114 ns"
	# the peer is still needed, and et-sim says it is missing, not "-1"
	sed '0,/,{"name":"comm_dst","int32Val":1}/s///' ring.jsonl >nodst.jsonl
	run -3 --separate-stderr et-sim nodst.jsonl
	assert_equal "$stderr" "et-sim: nodst.jsonl: rank 0: node 1: no comm_dst (or a negative one)"
	run -1 et-validate nodst.jsonl
	assert_line --index 2 '  rank 0 node 1 "send0": COMM_SEND_NODE without comm_dst'
}

# Ranks 0-1 use pg_name "1.0" and "1", ranks 2-3 "2abc" and "2"; the file
# also defines group 0.
pg_trace() {
	for r in 0 1 2 3; do
		hdr $r 4
		if [ $r -lt 2 ]; then
			coll $r 1 0 1024 "" 1.0
			coll $r 2 0 2048 "" 1 1
		else
			coll $r 1 0 1024 "" 2abc
			coll $r 2 0 2048 "" 2 1
		fi
	done
}

@test "pg_name and comm-group ids are read with std::stoi: \"1.0\" is group 1, \"12abc\" is 12; a group 0 is ignored with a warning" {
	pg_trace >pg.jsonl
	printf '{\n  "0": [0, 1, 2, 3],\n  "1": [0, 1],\n  "2.0": [2, 3]\n}\n' >g.json
	warn='g.json: line 2: group 0 is ignored: pg_name "0" (and "") means all ranks, as in ASTRA-sim, which never uses a group 0'
	run -0 --separate-stderr et-sim --comm-groups g.json pg.jsonl
	assert_equal "$stderr" "et-sim: warning: $warn"
	assert_line --index 1 "simulated iteration time: 8,288 ns"
	run -0 --separate-stderr et-validate --for astra-sim --strict --comm-groups g.json pg.jsonl
	assert_equal "$stderr" "et-validate: warning: $warn"
	assert_output "4 ranks, 8 nodes, profile astra-sim
0 errors, 0 warnings, 0 info: OK"
	# the same groups from process-group nodes: "1.0" defines group 1
	run -0 et-validate --format json --strict pg.jsonl --comm-groups <(printf '{"1": [0, 1], "2": [2, 3]}')
	# a pg_name with no leading integer: ASTRA-sim's std::stoi aborts on it
	sed 's/"2abc"/"abc"/' pg.jsonl >abc.jsonl
	run -3 --separate-stderr et-sim --comm-groups g.json abc.jsonl
	assert_equal "${stderr_lines[1]}" "et-sim: abc.jsonl: rank 2: node 1: pg_name 'abc' does not start with an integer within the int range (ASTRA-sim's std::stoi aborts on it)"
	run -1 --separate-stderr et-validate --for astra-sim --format json --comm-groups g.json abc.jsonl
	assert_equal "$(jq -c '[.codes[] | select(.code == "PG_NOT_INTEGER") | .severity, (.findings[] | [.rank, .node_id, .group])]' <<<"$output")" \
		'["error",[2,1,"abc"],[3,1,"abc"]]'
	# legal Chakra for every other consumer
	run -0 et-validate --format json abc.jsonl --comm-groups <(printf '{"1": [0, 1]}')
}

@test "comm-group JSON is strict: bad ids, repeated ids, wrong types are exit 3 naming file, group and line" {
	pg_trace >pg.jsonl
	check() { # FILE-TEXT MESSAGE (after "TOOL: g.json: ")
		printf "$1" >g.json
		for tool in et-sim et-validate; do
			run -3 --separate-stderr $tool --comm-groups g.json pg.jsonl
			[ "$stderr" = "$tool: g.json: $2" ] || fail "$tool: $stderr"
			[ -z "$output" ] || fail "$tool printed: $output"
		done
	}
	check '{"1": [0, 1],\n "x": [2, 3]}' \
		"line 2: group \"x\": an id must start with an integer within the int range (ASTRA-sim's std::stoi aborts otherwise)"
	check '{"1": [0, 1],\n "99999999999": [2, 3]}' \
		"line 2: group \"99999999999\": an id must start with an integer within the int range (ASTRA-sim's std::stoi aborts otherwise)"
	check '{"1": [0, 1],\n "2": [2, 3],\n "1": [0, 1]}' \
		'line 3: group "1" is given twice (as "1" on line 1)'
	check '{"1": [0, 1],\n\n "1.0": [2, 3]}' \
		'line 3: group "1.0" is given twice (as "1" on line 1)'
	check '{"1": [0, 1],\n "2": "2,3"}' \
		'line 2: group "2": expected an array of ranks, got a string'
	check '{"1": [0, 1],\n "2": [2, "3"]}' \
		'line 2: group "2": expected an array of ranks (integers 0..2^32-1)'
	check '{"1": [0, 1],\n "2": []}' 'line 2: group "2" has no ranks'
	check '[[0, 1], [2, 3]]' 'expected a comm-group JSON object {"<id>": [rank, ...]}, got an array'
}

# A 2x2 network (ranks 0-1 and 2-3 share dimension 1's coordinate), and
# ASTRA-sim system settings that run every collective on both dimensions.
net22() {
	printf 'topology: [ Ring, Ring ]\nnpus_count: [ 2, 2 ]\nbandwidth: [ 50, 50 ]\nlatency: [ 500, 500 ]\n' >net22.yml
	printf '{"scheduling-policy": "LIFO", "collective-optimization": "localBWAware", "endpoint-delay": 10, "active-chunks-per-dimension": 1, "preferred-dataset-splits": 4, "all-reduce-implementation": ["ring", "ring"], "all-gather-implementation": ["ring", "ring"], "reduce-scatter-implementation": ["ring", "ring"], "all-to-all-implementation": ["ring", "ring"]}\n' >sys22.json
}

@test "involved_dim: an all-reduce on dimension 0 only is ranks 0-1's; et-sim simulates it and et-validate --npus-count passes it" {
	net22
	# ranks 0-1 all-reduce along dimension 0; ranks 2-3 only compute
	for r in 0 1 2 3; do
		hdr $r 4
		if [ $r -lt 2 ]; then coll $r 1 0 1048576 true,false; else comp $r 1 3; fi
	done >d.jsonl
	run -0 et-sim --network net22.yml --system sys22.json d.jsonl
	assert_line --index 1 "simulated iteration time: 24,620 ns"
	run -0 et-validate --npus-count 2,2 --for astra-sim --strict d.jsonl
	assert_output "4 ranks, 4 nodes, profile astra-sim
0 errors, 0 warnings, 0 info: OK"
	# and --network, as et-sim takes it
	run -0 et-validate --network net22.yml --for astra-sim --strict d.jsonl
	# without the network's dimensions et-validate says so (issue 27);
	# et-sim reads it on its default one ring of 4, where it needs ranks
	# 2-3 too
	run -1 --separate-stderr et-validate --format json d.jsonl
	assert_equal "$(jq -c '[.codes[] | .code]' <<<"$output")" '["DIMS_MISSING"]'
	run -1 --separate-stderr et-sim d.jsonl
	assert_equal "$stderr" "et-sim: deadlock: 2 rank(s) blocked: rank 0 at node 1 (coll1) waiting for rank(s) 2,3 to join; rank 1 at node 1 (coll1) waiting for rank(s) 2,3 to join"
	run -2 --separate-stderr et-validate --npus-count 2,4 d.jsonl
	assert_equal "$stderr" "et-validate: --npus-count: the network has 8 ranks, the input 4"
}

@test "involved_dim: each dimension's ranks run their own collectives, in their own order, then all ranks one" {
	net22
	# ranks 0-1: ALL_REDUCE 1 MiB on dimension 0; ranks 2-3: ALL_GATHER
	# 64 KiB on dimension 0; then everyone an ALL_REDUCE on both, and one on
	# dimension 1 (ranks 0,2 and 1,3)
	for r in 0 1 2 3; do
		hdr $r 4
		if [ $r -lt 2 ]; then coll $r 1 0 1048576 true,false; else coll $r 1 2 65536 true,false; fi
		coll $r 2 0 4096 "" "" 1
		coll $r 3 0 8192 false,true "" 2
	done >d.jsonl
	run -0 et-sim --network net22.yml --system sys22.json --schedule s.jsonl d.jsonl
	assert_line --index 1 "simulated iteration time: 34,102 ns"
	# ranks 2-3 start the all-ranks ALL_REDUCE early and wait for 0-1 in it
	assert_equal "$(jq -c 'select(.id == 2) | [.rank, .start_ns, .end_ns]' s.jsonl | tr -d '\n')" \
		'[0,24620,29830][1,24620,29830][2,3300,29326][3,3300,29326]'
	run -0 et-validate --npus-count 2,2 --for astra-sim --strict d.jsonl
	assert_output "4 ranks, 12 nodes, profile astra-sim
0 errors, 0 warnings, 0 info: OK"
	# a dimension's ranks must still agree with each other
	sed 's/"rank":3,"id":1,\(.*\)"int64Val":65536/"rank":3,"id":1,\1"int64Val":32768/' d.jsonl >bad.jsonl
	run -1 et-validate --npus-count 2,2 --format json bad.jsonl
	assert_equal "$(jq -c '[.codes[] | .code]' <<<"$output")" '["COLL_MISMATCH"]'
	assert_equal "$(jq -r '.codes[0].findings[0].message' <<<"$output")" \
		'group "0[dims 0 from rank 2]" (2 ranks), collective #0: rank 2 issues ALL_GATHER of 65536 B (node 1 "coll1") where rank 3 issues ALL_GATHER of 32768 B (node 1 "coll1"); 1 of 1 positions differ, rank 2 issues 1 collective in the group'
	run -3 --separate-stderr et-sim --network net22.yml --system sys22.json bad.jsonl
	assert_equal "$stderr" "et-sim: bad.jsonl: rank 3: node 1: collective #0 of its group is type 2 of 32768 bytes, another member issued type 2 of 65536 bytes"
}
