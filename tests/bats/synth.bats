#!/usr/bin/env bats
# et-synth: equivalence with ASTRA-sim's microbenchmarks and the reference
# chakra_generator (node by node and byte by byte), every subcommand and
# transform, validation of everything generated, errors, and the man page.
load common
bats_require_minimum_version 1.5.0

NET="$REPO/samples/Ring_8npus.yml"
SYS="$REPO/samples/Ring_4chunks.json"

# node lines of a decoded input (JSONL), without the per-rank header lines
nodes() { et-convert --to jsonl "$@" | jq -c 'select(.type)'; }
# et-validate's verdict as [ranks, nodes, errors]
verdict() { et-validate --format json "$@" | jq -c '[.ranks, .nodes, .errors]'; }
errors() { et-validate --format json "$@" | jq -c '.errors'; }

# --- equivalence with the reference data ------------------------------------

@test "coll equals all 12 ASTRA-sim microbenchmarks node by node and byte by byte" {
	for t in all_reduce all_gather reduce_scatter all_to_all; do
		for n in 4 8 16; do
			et-synth coll --type $t --size 1048576 --world $n -o s.etz
			ref="$MB/$t/${n}npus_1MB/$t"
			# node by node: every field, rank by rank, as JSON
			nodes s.etz >ours.jsonl
			for r in $(seq 0 $((n - 1))); do nodes "$ref.$r.et"; done >ref.jsonl
			diff ref.jsonl ours.jsonl
			assert_equal "$(wc -l <ours.jsonl)" "$n"
			# and the metadata
			et-convert --to jsonl s.etz | jq -c 'select(.metadata) | .metadata' | sort -u >m1
			et-convert --to jsonl "$ref.0.et" | jq -c 'select(.metadata) | .metadata' >m2
			diff m1 m2
			# byte by byte once split into per-rank files
			et-convert --to et --split x s.etz
			for r in $(seq 0 $((n - 1))); do cmp "$ref.$r.et" "x.$r.et"; done
		done
	done
}

@test "coll --ids local differs from the microbenchmarks in node ids only" {
	et-synth coll --type all_to_all --size 1048576 --world 8 --ids local -o s.etz
	nodes s.etz | jq -c 'del(.id)' >ours
	for r in $(seq 0 7); do nodes "$MB/all_to_all/8npus_1MB/all_to_all.$r.et"; done | jq -c 'del(.id)' >ref
	diff ref ours
	assert_equal "$(nodes s.etz | jq -c '.id // 0' | sort -u)" "0"
}

@test "chakra-generator equals the reference generator's 28 files byte by byte and node by node" {
	et-synth chakra-generator --world 2 --out-dir gen
	assert_equal "$(ls gen | wc -l)" 28
	for f in "$DATA"/chakra-generator/*.et; do
		b=$(basename "$f")
		diff <(et-convert --to jsonl "$f") <(et-convert --to jsonl "gen/$b")
		cmp "$f" "gen/$b"
	done
}

@test "chakra-generator --ids local: every file numbers from 0, nothing else differs" {
	et-synth chakra-generator --world 2 --out-dir gen --ids local
	for f in "$DATA"/chakra-generator/*.et; do
		b=$(basename "$f")
		# the dependent pair: the child depends on the first node of its file
		diff <(nodes "$f" | jq -c 'del(.id, .dataDeps)') <(nodes "gen/$b" | jq -c 'del(.id, .dataDeps)')
		assert_equal "$(nodes "gen/$b" | jq -c '.id // 0' | head -1)" 0
	done
	assert_equal "$(nodes gen/two_comp_nodes_dependent.1.et | jq -c '[.id, .dataDeps]' | tr -d '\n')" '[null,null][1,[0]]'
}

@test "chakra-generator: other sizes and worlds, and the reference's own defects" {
	et-synth chakra-generator --world 4 --out-dir g4 --comm-size 1M --runtime 7
	assert_equal "$(ls g4 | wc -l)" 56
	assert_equal "$(nodes g4/ALL_REDUCE.3.et | jq -c '[.id, .attr[2].int64Val]')" '[35,1048576]'
	assert_equal "$(nodes g4/one_comp_node.0.et | jq -c '.durationMicros')" 7
	# the collectives validate; the reference's send/recv lack their peers
	assert_equal "$(errors g4/ALL_REDUCE)" 0
	run --separate-stderr et-validate --format json g4/one_comm_send_node
	assert_equal "$(jq -r '.codes[0].code' <<<"$output")" P2P_MISSING_ATTR
}

# --- coll ----------------------------------------------------------------------

@test "coll: count, compute interleaving, sub-groups and the comm-group file" {
	et-synth coll --type reduce_scatter --size 64K --world 8 --count 3 --compute-us 25 \
		--group-size 4 --write-comm-groups g.json --ids local -o s.etz
	assert_equal "$(cat g.json)" '{"1": [0, 1, 2, 3], "2": [4, 5, 6, 7]}'
	run -0 et-convert --to jsonl --ranks 5 s.etz
	assert_equal "$(jq -c 'select(.type) | [.id // 0, .type, .dataDeps, .durationMicros, (.attr[] | select(.name == "pg_name") | .stringVal)]' <<<"$output" | tr -d '\n')" \
		'[0,"COMP_NODE",null,25][1,"COMM_COLL_NODE",[0],null,"2"][2,"COMP_NODE",[1],25][3,"COMM_COLL_NODE",[2],null,"2"][4,"COMP_NODE",[3],25][5,"COMM_COLL_NODE",[4],null,"2"]'
	assert_equal "$(verdict --comm-groups g.json s.etz)" '[8,48,0]'
	assert_equal "$(jq -r '.name' <<<"$(et-convert --to jsonl s.etz | head -1)")" reduce_scatter_8npus_64KB
}

@test "coll: every collective type; back-to-back collectives are chained" {
	for t in all_reduce all_gather reduce_scatter all_to_all broadcast reduce gather scatter barrier; do
		et-synth coll --type $t --size 4096 --world 4 --count 2 -o s.etz
		assert_equal "$(errors s.etz)" 0
	done
	et-synth coll --type barrier --world 2 -o b.etz
	assert_equal "$(nodes b.etz | jq -c '[.attr[] | .int64Val // empty]' | sort -u)" '[9,0]'
	et-synth coll --type all_reduce --size 1K --world 2 --count 3 -o c.etz
	assert_equal "$(nodes c.etz | jq -c '[.id, .dataDeps]' | head -3 | tr -d '\n')" '[null,null][1,[0]][2,[1]]'
	assert_equal "$(nodes c.etz | jq -c '.id' | tail -3 | tr -d '\n')" '345'
}

@test "coll: usage errors exit 2 with one line" {
	run --separate-stderr et-synth coll --type all_foo --size 1M --world 4
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "et-synth coll: --type: unknown collective 'all_foo'"
	assert_equal "${stderr_lines[1]}" "Try 'et-synth coll --help' for more information."
	run -2 et-synth coll --type all_reduce --size 1M
	run -2 et-synth coll --type all_reduce --world 4
	run -2 et-synth coll --type all_reduce --size 1M --world 6 --group-size 4
	run -2 et-synth coll --type all_reduce --size 1M --world 4 --ids nope
	run -2 et-synth coll --type all_reduce --size 1Q --world 4
	run -2 et-synth nosuch
	run -2 et-synth
	run -0 et-synth coll --help
	assert_output --partial "Usage: et-synth coll"
}

# --- p2p ------------------------------------------------------------------------

@test "p2p: ring, pairs and all match every send with one receive" {
	for p in ring pairs all; do
		et-synth p2p --pattern $p --size 32K --world 6 --count 3 -o p.etz
		assert_equal "$(errors p.etz)" 0
	done
	et-synth p2p --pattern ring --size 1K --world 4 --tag 10 -o r.etz
	run -0 et-convert --to jsonl --ranks 0 r.etz
	assert_equal "$(jq -c 'select(.type) | [.type, (.attr[1:][] | .int32Val // .int64Val)]' <<<"$output" | tr -d '\n')" \
		'["COMM_SEND_NODE",0,1,10,1024]["COMM_RECV_NODE",3,0,10,1024]'
	et-synth p2p --pattern all --size 1K --world 5 -o a.etz
	assert_equal "$(nodes a.etz | jq -c 'select(.rank == 2) | .name' | tr -d '\n')" \
		'"send_to_3""send_to_4""send_to_0""send_to_1""recv_from_1""recv_from_0""recv_from_4""recv_from_3"'
	et-synth p2p --pattern pairs --size 1K --world 4 -o q.etz
	assert_equal "$(nodes q.etz | jq -c 'select(.rank == 3) | .name' | tr -d '\n')" '"send_to_2""recv_from_2"'
	run -2 et-synth p2p --pattern pairs --size 1K --world 5
	run -2 et-synth p2p --pattern star --size 1K --world 4
	run -2 et-synth p2p --pattern ring --size 1K --world 1
}

# --- chain ----------------------------------------------------------------------

@test "chain: serial and overlapped layer dependencies" {
	et-synth chain --layers 3 --compute-us 50 --coll all_gather --size 2M --world 4 -o c.etz
	assert_equal "$(nodes c.etz | jq -c 'select(.rank == 1) | [.id // 0, .name, .dataDeps, .ctrlDeps]' | tr -d '\n')" \
		'[0,"layer0_compute",null,null][1,"layer0_grad_all_gather",[0],null][2,"layer1_compute",[1],null][3,"layer1_grad_all_gather",[2],null][4,"layer2_compute",[3],null][5,"layer2_grad_all_gather",[4],null]'
	et-synth chain --layers 3 --compute-us 50 --size 2M --world 4 --overlap -o o.etz
	assert_equal "$(nodes o.etz | jq -c 'select(.rank == 0) | [.id // 0, .dataDeps, .ctrlDeps]' | tr -d '\n')" \
		'[0,null,null][1,[0],null][2,[0],null][3,[2],[1]][4,[2],null][5,[4],[3]]'
	assert_equal "$(verdict c.etz)" '[4,24,0]'
	assert_equal "$(verdict o.etz)" '[4,24,0]'
	run -2 et-synth chain --layers 3 --size 2M --world 4
}

# --- dag ------------------------------------------------------------------------

@test "dag: validates across ranks, is deterministic per seed, has the attribute mix" {
	et-synth dag --nodes 3000 --world 8 --seed 42 -o a.etz
	et-synth dag --nodes 3000 --world 8 --seed 42 -o b.etz
	et-synth dag --nodes 3000 --world 8 --seed 43 -o c.etz
	cmp a.etz b.etz
	! cmp -s a.etz c.etz
	assert_equal "$(verdict a.etz)" '[8,24000,0]'
	zstd -tq a.etz
	# every rank is the same program
	for r in 1 7; do
		diff <(et-convert --to jsonl --ranks 0 a.etz | jq -c 'select(.type) | del(.rank)') \
			<(et-convert --to jsonl --ranks $r a.etz | jq -c 'select(.type) | del(.rank)')
	done
	et-convert --to jsonl --ranks 0 a.etz | jq -c 'select(.type)' >n.jsonl
	# about 10% collectives, 20% of the rest host ops, GPU kernels with roofline inputs
	colls=$(jq -c 'select(.type == "COMM_COLL_NODE")' n.jsonl | wc -l)
	cpu=$(jq -c 'select(.attr[0].boolVal == true)' n.jsonl | wc -l)
	[ "$colls" -gt 220 ] && [ "$colls" -lt 380 ]
	[ "$cpu" -gt 430 ] && [ "$cpu" -lt 650 ]
	assert_equal "$(jq -c 'select(.type == "COMP_NODE" and .attr[0].boolVal == false) | [.attr[1:][] | .name]' n.jsonl | sort -u)" '["num_ops","tensor_size"]'
	assert_equal "$(jq -c 'select(.type == "COMM_COLL_NODE") | .attr[1].int64Val' n.jsonl | sort -u | tr -d '\n')" '0267'
	# layered: every dependency points into the previous layer (or the last collective)
	assert_equal "$(jq -c 'select(.id >= 16) | select(([.dataDeps[] | select(. < (.id // 0) - 32)] | length) > 0)' n.jsonl | wc -l)" 0
}

@test "dag --jitter: ranks differ only in COMP durations, within the bound" {
	et-synth dag --nodes 2000 --world 4 --jitter 0.25 --seed 5 -o j.etz
	et-synth dag --nodes 2000 --world 4 --seed 5 -o p.etz
	assert_equal "$(verdict j.etz)" '[4,8000,0]'
	diff <(nodes j.etz | jq -c 'del(.durationMicros)') <(nodes p.etz | jq -c 'del(.durationMicros)')
	paste -d' ' <(nodes p.etz | jq '.durationMicros // 0') <(nodes j.etz | jq '.durationMicros // 0') >d
	! diff <(nodes p.etz) <(nodes j.etz) >/dev/null
	awk '{ if ($1 > 0 && ($2 < $1 * 0.75 - 0.5 || $2 > $1 * 1.25 + 0.5)) bad++ } END { exit bad > 0 }' d
	run -2 et-synth dag --nodes 10 --world 2 --jitter 1.5
	run -2 et-synth dag --nodes 10 --world 2 --ids global
	run -2 et-synth dag --world 2
}

# --- transforms ---------------------------------------------------------------------

@test "transform --scale-compute / --scale-comm / --set-comm-type" {
	et-synth dag --nodes 400 --world 2 --seed 9 -o d.etz
	et-synth transform --scale-compute 3 --scale-comm 0.5 --set-comm-type all_reduce=all_to_all \
		--set-comm-type all_to_all=all_reduce d.etz -o t.etz
	nodes d.etz >a.jsonl
	nodes t.etz >b.jsonl
	assert_equal "$(wc -l <b.jsonl)" 800
	# every COMP number times 3, every comm_size halved, ALL_REDUCE <-> ALL_TO_ALL
	proj='if .type == "COMP_NODE" then [.durationMicros, ([.attr[] | select(.name == "num_ops" or .name == "tensor_size") | (.int64Val // .uint64Val)])] else [.attr[1].int64Val, .attr[2].int64Val] end'
	paste -d' ' <(jq -c "$proj" a.jsonl) <(jq -c "$proj" b.jsonl) | head -400 >pairs
	run -0 awk '{ gsub(/[\[\],]/, " "); n = NF / 2
		if ($0 ~ /^ *$/) next
		for (i = 1; i <= n; i++) { a = $i; b = $(i + n)
			if (NF == 4 && i == 1) { want = (a == 0 ? 6 : a == 6 ? 0 : a) }
			else if (NF == 4) { want = int(a / 2 + 0.5) }
			else { want = a * 3 }
			if (b != want) { print "bad: " $0; bad = 1 } } }
		END { exit bad }' pairs
	# everything else is untouched
	diff <(jq -c 'del(.durationMicros, .attr)' a.jsonl) <(jq -c 'del(.durationMicros, .attr)' b.jsonl)
	assert_equal "$(errors t.etz)" 0
	run -2 et-synth transform --scale-compute 0 d.etz
	run -2 et-synth transform --set-comm-type all_reduce d.etz
	run -2 et-synth transform --set-comm-type foo=all_reduce d.etz
}

@test "transform --obfuscate: names hashed stably, free text dropped, structure kept" {
	et-convert --from pytorch "$DATA"/pytorch/dlrm-8rank/host_et.*.json.gz -o p.etz 2>/dev/null
	et-synth transform --obfuscate p.etz -o o.etz
	nodes p.etz >a.jsonl
	nodes o.etz >b.jsonl
	# what simulators read is identical
	keep='[.rank, .id, .type, .dataDeps, .ctrlDeps, .durationMicros, [.attr[] | select(.name != "op_schema") | select(.stringVal == null or .name == "pg_name")]]'
	diff <(jq -c "$keep" a.jsonl) <(jq -c "$keep" b.jsonl)
	# no original name, no inputs/outputs, no op_schema
	assert_equal "$(jq -c 'select(.name | test("^h[0-9a-f]{16}$") | not) | .name' b.jsonl | wc -l)" 0
	assert_equal "$(jq -c 'select(.type != "METADATA_NODE") | select(.inputs or .outputs)' b.jsonl | wc -l)" 0
	assert_equal "$(jq -c '.attr[] | select(.name == "op_schema")' b.jsonl | wc -l)" 0
	! grep -q 'aten::\|c10d::\|nccl' b.jsonl
	# one name, one hash, in every rank
	assert_equal "$(paste <(jq -r .name a.jsonl) <(jq -r .name b.jsonl) | sort -u | cut -f1 | uniq -d | wc -l)" 0
	assert_equal "$(jq -r .name a.jsonl | sort -u | wc -l)" "$(jq -r .name b.jsonl | sort -u | wc -l)"
	# the salt changes every hash; the same salt gives the same bytes
	et-synth transform --obfuscate --salt k p.etz -o s1.etz
	et-synth transform --obfuscate --salt k p.etz -o s2.etz
	cmp s1.etz s2.etz
	assert_equal "$(comm -12 <(jq -r .name b.jsonl | sort -u) <(nodes s1.etz | jq -r .name | sort -u) | grep -c '^h')" 0
	# same findings as the original
	diff <(et-validate --format json p.etz | jq -c '[.errors, [.codes[] | [.code, .count]]]') \
		<(et-validate --format json o.etz | jq -c '[.errors, [.codes[] | [.code, .count]]]')
}

@test "obfuscated and original traces give identical et-sim results" {
	et-synth dag --nodes 2000 --world 8 --seed 11 --jitter 0.2 -o d.etz
	et-synth transform --obfuscate --salt x d.etz -o o.etz
	et-synth chain --layers 6 --compute-us 80 --size 4M --world 8 --overlap | et-synth transform --obfuscate -o c.etz
	et-synth chain --layers 6 --compute-us 80 --size 4M --world 8 --overlap -o c0.etz
	for pair in "d.etz o.etz" "c0.etz c.etz"; do
		set -- $pair
		run -0 et-sim --network "$NET" --system "$SYS" --astra-sim-log "$1"
		a=$output
		[ -n "$a" ]
		run -0 et-sim --network "$NET" --system "$SYS" --astra-sim-log "$2"
		assert_equal "$output" "$a"
		run -0 et-sim --network "$NET" --system "$SYS" --compute-model roofline --astra-sim-log "$1"
		a=$output
		run -0 et-sim --network "$NET" --system "$SYS" --compute-model roofline --astra-sim-log "$2"
		assert_equal "$output" "$a"
	done
}

strip_case() { # A(gpu) <- B(cpu) <- C(cpu) <- D(gpu, data) ; E(gpu) ctrl on C, data on A; F(cpu) alone <- G(gpu)
	local c='{"name":"is_cpu_op","boolVal":true}' g='{"name":"is_cpu_op","boolVal":false}'
	echo '{"rank":0,"world_size":1,"name":"s","metadata":{"version":"0.0.4"}}'
	echo "{\"rank\":0,\"id\":1,\"name\":\"A\",\"type\":\"COMP_NODE\",\"durationMicros\":5,\"attr\":[$g]}"
	echo "{\"rank\":0,\"id\":2,\"name\":\"B\",\"type\":\"COMP_NODE\",\"dataDeps\":[1],\"durationMicros\":1,\"attr\":[$c]}"
	echo "{\"rank\":0,\"id\":3,\"name\":\"C\",\"type\":\"COMP_NODE\",\"dataDeps\":[2],\"ctrlDeps\":[99],\"durationMicros\":1,\"attr\":[$c]}"
	echo "{\"rank\":0,\"id\":4,\"name\":\"D\",\"type\":\"COMP_NODE\",\"dataDeps\":[3],\"durationMicros\":5,\"attr\":[$g]}"
	echo "{\"rank\":0,\"id\":5,\"name\":\"E\",\"type\":\"COMP_NODE\",\"dataDeps\":[1],\"ctrlDeps\":[3],\"durationMicros\":5,\"attr\":[$g]}"
	echo "{\"rank\":0,\"id\":6,\"name\":\"F\",\"type\":\"COMP_NODE\",\"durationMicros\":1,\"attr\":[$c]}"
	echo "{\"rank\":0,\"id\":7,\"name\":\"G\",\"type\":\"COMP_NODE\",\"dataDeps\":[6],\"durationMicros\":5,\"attr\":[$g]}"
}

@test "transform --strip-cpu folds host nodes into dependencies, keeping reachability" {
	strip_case >s.jsonl
	et-convert --from json s.jsonl -o s.etz
	et-synth transform --strip-cpu s.etz -o t.etz
	# D reaches A through B, C; C's dangling ctrl dep 99 travels with it;
	# E's ctrl dep on C becomes A (already a data dep) and 99; G loses F
	assert_equal "$(nodes t.etz | jq -c '[.name, .dataDeps, .ctrlDeps]' | tr -d '\n')" \
		'["A",null,null]["D",[1,99],null]["E",[1],[99]]["G",null,null]'
	# on a random DAG with many host ops: GPU nodes only, still valid
	et-synth dag --nodes 3000 --world 2 --cpu-fraction 0.6 --seed 4 -o d.etz
	et-synth transform --strip-cpu d.etz -o ds.etz
	assert_equal "$(nodes ds.etz | jq -c 'select(.attr[0].boolVal == true)' | wc -l)" 0
	assert_equal "$(nodes ds.etz | wc -l)" "$(nodes d.etz | jq -c 'select(.attr[0].boolVal == false)' | wc -l)"
	assert_equal "$(errors ds.etz)" 0
}

@test "transform --strip-cpu keeps process-group definitions and long host chains" {
	# a 20,000-node host chain between two kernels: no recursion limit
	{
		echo '{"rank":0,"world_size":1,"name":"s","metadata":{"version":"0.0.4"}}'
		echo '{"rank":0,"id":0,"name":"k0","type":"COMP_NODE","durationMicros":1,"attr":[{"name":"is_cpu_op","boolVal":false}]}'
		for i in $(seq 1 20000); do
			echo "{\"rank\":0,\"id\":$i,\"name\":\"h\",\"type\":\"COMP_NODE\",\"dataDeps\":[$((i - 1))],\"attr\":[{\"name\":\"is_cpu_op\",\"boolVal\":true}]}"
		done
		echo '{"rank":0,"id":20001,"name":"k1","type":"COMP_NODE","dataDeps":[20000],"durationMicros":1,"attr":[{"name":"is_cpu_op","boolVal":false}]}'
	} >l.jsonl
	et-convert --from json l.jsonl -o l.etz
	run -0 et-synth transform --strip-cpu l.etz
	et-synth transform --strip-cpu l.etz -o t.etz
	assert_equal "$(nodes t.etz | jq -c '[.name, .dataDeps]' | tr -d '\n')" '["k0",null]["k1",[0]]'
	et-convert --from pytorch "$DATA"/pytorch/dlrm-8rank/host_et.*.json.gz -o p.etz 2>/dev/null
	et-synth transform --strip-cpu p.etz -o ps.etz
	assert_equal "$(errors ps.etz)" 0
}

pg_rank() { # RANK: a process-group node defining "5" = [0, 1] and "0" = all, an
	# all-reduce on "5", and a send/recv with the other rank
	local r=$1 p=$(($1 ^ 1)) v c='{"name":"is_cpu_op","boolVal":false}'
	v=$(printf '%s' "['[{\"pg_name\": \"5\", \"ranks\": [0, 1], \"group_size\": 2}, {\"pg_name\": \"0\", \"ranks\": [], \"group_size\": 2}]']" | jq -Rs .)
	echo "{\"rank\":$r,\"world_size\":2,\"name\":\"pg\",\"metadata\":{\"version\":\"0.0.4\"}}"
	echo "{\"rank\":$r,\"id\":1,\"name\":\"## process_group:init ##\",\"type\":\"METADATA_NODE\",\"inputs\":{\"values\":$v},\"attr\":[$c]}"
	echo "{\"rank\":$r,\"id\":2,\"name\":\"ar\",\"type\":\"COMM_COLL_NODE\",\"dataDeps\":[1],\"attr\":[$c,{\"name\":\"comm_type\",\"int64Val\":0},{\"name\":\"comm_size\",\"int64Val\":4096},{\"name\":\"pg_name\",\"stringVal\":\"5\"}]}"
	echo "{\"rank\":$r,\"id\":3,\"name\":\"s\",\"type\":\"COMM_SEND_NODE\",\"dataDeps\":[2],\"attr\":[$c,{\"name\":\"comm_src\",\"int32Val\":$r},{\"name\":\"comm_dst\",\"int32Val\":$p},{\"name\":\"comm_tag\",\"int32Val\":3},{\"name\":\"comm_size\",\"int64Val\":64}]}"
	echo "{\"rank\":$r,\"id\":4,\"name\":\"r\",\"type\":\"COMM_RECV_NODE\",\"dataDeps\":[2],\"attr\":[$c,{\"name\":\"comm_src\",\"int32Val\":$p},{\"name\":\"comm_dst\",\"int32Val\":$r},{\"name\":\"comm_tag\",\"int32Val\":3},{\"name\":\"comm_size\",\"int64Val\":64}]}"
}

@test "transform --world: groups, group sizes and peers rewritten; validates across ranks" {
	{ pg_rank 0; pg_rank 1; } >pg.jsonl
	et-convert --from json pg.jsonl -o pg.etz
	assert_equal "$(verdict pg.etz)" '[2,8,0]'
	et-synth transform --world 5 pg.etz -o w.etz
	assert_equal "$(verdict w.etz)" '[5,20,0]'
	run -0 et-convert --to jsonl --ranks 3 w.etz
	assert_equal "$(jq -c 'select(.world_size) | [.rank, .world_size, .name]' <<<"$output")" '[3,5,"pg"]'
	assert_equal "$(jq -r 'select(.id == 1) | .inputs.values' <<<"$output")" \
		"['[{\"pg_name\": \"5\", \"ranks\": [0, 1, 2, 3, 4], \"group_size\": 5}, {\"pg_name\": \"0\", \"ranks\": [], \"group_size\": 5}]']"
	assert_equal "$(jq -c 'select(.id >= 3) | [.attr[1].int32Val, .attr[2].int32Val]' <<<"$output" | tr -d '\n')" '[3,4][2,3]'
	# shrinking works too, and so do the generated patterns
	et-synth chain --layers 4 --compute-us 10 --size 1M --world 8 | et-synth transform --world 3 -o c3.etz
	assert_equal "$(verdict c3.etz)" '[3,24,0]'
	et-synth p2p --pattern all --size 1K --world 4 | et-synth transform --world 9 -o a9.etz
	assert_equal "$(verdict a9.etz)" '[9,54,0]'
	et-synth p2p --pattern ring --size 1K --world 4 --count 2 | et-synth transform --world 2 -o r2.etz
	assert_equal "$(verdict r2.etz)" '[2,8,0]'
	# the representative rank
	et-synth dag --nodes 200 --world 4 --jitter 0.5 -o d.etz
	et-synth transform --world 2 --rep-rank 3 d.etz -o d2.etz
	diff <(et-convert --to jsonl --ranks 3 d.etz | jq -c 'select(.type) | del(.rank)') \
		<(et-convert --to jsonl --ranks 1 d2.etz | jq -c 'select(.type) | del(.rank)')
	# --obfuscate keeps process-group definitions whole
	et-synth transform --obfuscate pg.etz -o po.etz
	diff <(nodes pg.etz | jq -c 'select(.id == 1)') <(nodes po.etz | jq -c 'select(.id == 1)')
	assert_equal "$(nodes po.etz | jq -c 'select(.id == 2) | .name' | sort -u | wc -l)" 1
	assert_equal "$(verdict po.etz)" '[2,8,0]'
	run -3 et-synth transform --world 2 --rep-rank 7 d.etz
	run -2 et-synth transform --rep-rank 1 d.etz
}

@test "transform --world keeps the form process-group values were written in" {
	# the same definitions as a JSON list holding one string, not a Python repr
	{ pg_rank 0; pg_rank 1; } |
		jq -c 'if .id == 1 then .inputs.values |= (.[2:-2] | [.] | tojson) else . end' >pgl.jsonl
	et-convert --from json pgl.jsonl -o pgl.etz
	assert_equal "$(verdict pgl.etz)" '[2,8,0]'
	et-synth transform --world 3 pgl.etz -o w.etz
	assert_equal "$(verdict w.etz)" '[3,12,0]'
	v=$(nodes --ranks 2 w.etz | jq -r 'select(.id == 1) | .inputs.values')
	assert_equal "$(jq -r '.[0]' <<<"$v" | jq -c '[.[] | [.pg_name, .ranks, .group_size]]')" \
		'[["5",[0,1,2],3],["0",[],3]]'
}

@test "transform --world refuses sub-groups (not data-parallel), exit 3" {
	et-synth coll --type all_reduce --size 1M --world 8 --group-size 4 -o g.etz
	run --separate-stderr et-synth transform --world 16 g.etz -o out.etz
	assert_equal "$status" 3
	assert_equal "$stderr" 'et-synth: --world: rank 0 node 0 "all_reduce_8npus_1MB": process group "1" is not defined in the trace; cannot tell whether it spans the world'
	[ ! -e out.etz ]
	sed 's/\[0, 1\], \\"group_size\\": 2}/[0], \\"group_size\\": 1}/' <(pg_rank 0) >sub.jsonl
	et-convert --from json sub.jsonl -o sub.etz
	run --separate-stderr et-synth transform --world 4 sub.etz
	assert_equal "$status" 3
	[[ "$stderr" == *'uses process group "5", which is not the whole world of 2 ranks'* ]]
}

@test "transform: bad input exits 3 and leaves no output file" {
	printf 'garbage\x01\x02' >bad.bin
	run --separate-stderr et-synth transform --scale-comm 2 bad.bin -o out.etz
	assert_equal "$status" 3
	[[ "$stderr" == et-synth:* ]]
	[ ! -e out.etz ]
	et-synth coll --type all_reduce --size 1M --world 2 -o ok.etz
	head -c 60 ok.etz >trunc.etz
	run -3 et-synth transform --obfuscate trunc.etz -o out.etz
	[ ! -e out.etz ]
	run -4 et-synth transform nosuchfile
}

@test "transform with no edit copies every rank's ET bytes" {
	et-convert --from pytorch "$DATA"/pytorch/dlrm-8rank/host_et.*.json.gz -o p.etz 2>/dev/null
	et-synth transform p.etz -o t.etz
	et-convert --to et --split a p.etz
	et-convert --to et --split b t.etz
	for r in 0 3 7; do cmp a.$r.et b.$r.et; done
}

# --- output formats (--to, --split) ----------------------------------------------

@test "--to jsonl and --to json: what et-convert writes of the stream, for every generator" {
	for g in "coll --type all_reduce --size 1M --world 4 --count 2 --compute-us 5" \
		"p2p --pattern ring --size 1K --world 3" \
		"chain --layers 3 --compute-us 10 --size 1K --world 2" \
		"dag --nodes 300 --world 3" "dag --nodes 300 --world 3 --jitter 0.2"; do
		et-synth $g -o s.etz
		et-synth $g --to jsonl -o s.jsonl
		et-convert --to jsonl s.etz | cmp - s.jsonl
		et-synth $g --to json | cmp - <(et-convert --to json s.etz)
	done
	et-synth coll --type all_reduce --size 1M --world 4 --to jsonl -o c.jsonl
	assert_equal "$(jq -c 'select(.metadata) | .rank' c.jsonl | tr -d '\n')" "0123"
	assert_equal "$(et-validate c.jsonl | tail -1)" "0 errors, 0 warnings, 0 info: OK"
	et-synth transform --to jsonl s.etz | cmp - <(et-convert --to jsonl s.etz)
}

@test "--split PREFIX: one raw ET per rank, equal to et-convert --to et --split of the stream" {
	for g in "coll --type all_to_all --size 64K --world 4" "dag --nodes 500 --world 3" \
		"dag --nodes 500 --world 3 --jitter 0.3" "p2p --pattern pairs --size 1K --world 4"; do
		rm -f s.* c.*
		et-synth $g -o s.etz
		et-synth $g --split s
		et-convert --to et --split c s.etz
		n=$(ls c.*.et | wc -l)
		assert_equal "$(ls s.*.et | wc -l)" "$n"
		for r in $(seq 0 $((n - 1))); do
			cmp "c.$r.et" "s.$r.et"
			et-convert --to jsonl "s.$r.et" >/dev/null
		done
	done
	# --to et --split is the same; the set reads back as the stream's ranks
	et-synth coll --type all_reduce --size 1M --world 3 --to et --split t
	assert_equal "$(et-convert --to jsonl t | jq -c 'select(.metadata) | .rank' | tr -d '\n')" "012"
	# transform splits its input's ranks
	et-synth transform --split x s.etz
	for r in 0 1 2 3; do cmp "c.$r.et" "x.$r.et"; done
}

@test "--to et: one rank; several ranks without --split are a usage error, no output" {
	et-synth coll --type all_reduce --size 1M --world 1 --to et -o one.et
	assert_equal "$(et-convert --to jsonl one.et | wc -l)" 2
	run --separate-stderr et-synth coll --type all_reduce --size 1M --world 4 --to et -o x.et
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "et-synth coll: --to et writes one rank, and --world is 4 (use --split PREFIX)"
	[ ! -e x.et ]
	et-synth coll --type all_reduce --size 1M --world 4 -o s.etz
	run --separate-stderr et-synth transform --to et s.etz -o x.et
	assert_equal "$status" 2
	assert_equal "$stderr" "et-synth: --to et writes one rank, and this output has several (use --split PREFIX)"
	[ ! -e x.et ]
	run -2 et-synth coll --type all_reduce --size 1M --world 4 --split a --to jsonl
	run -2 et-synth coll --type all_reduce --size 1M --world 4 --split a -o b
	run -2 et-synth coll --type all_reduce --size 1M --world 4 --to xml
	run -2 et-synth chakra-generator --world 2 --out-dir d --split a
	[ ! -e a.0.et ] && [ ! -e b ] && [ ! -e d ] && [ ! -e x.et ]
}

# --- everything generated validates clean ---------------------------------------

@test "every generated stream validates with no error (cross-rank checks included)" {
	gen() { "$@" -o s.etz && assert_equal "$(errors s.etz)" 0; }
	gen et-synth coll --type all_to_all --size 3M --world 16 --count 5 --compute-us 3
	gen et-synth coll --type broadcast --size 100 --world 3
	gen et-synth p2p --pattern all --size 1 --world 7 --count 2
	gen et-synth chain --layers 20 --compute-us 1 --coll reduce_scatter --size 8K --world 32 --overlap
	gen et-synth dag --nodes 5000 --world 16 --width 64 --edge-prob 0.05 --comm-fraction 0.3
	gen et-synth dag --nodes 100 --world 3 --width 1 --edge-prob 1 --comm-fraction 1
	gen et-synth dag --nodes 100 --world 3 --comm-fraction 0
	et-synth coll --type all_gather --size 1M --world 12 --group-size 3 --write-comm-groups g.json -o s.etz
	assert_equal "$(errors --comm-groups g.json s.etz)" 0
}

# --- the man page -------------------------------------------------------------------

@test "et-synth(1) examples" {
	run "$REPO/tests/man-examples.sh" "$REPO/man/et-synth.1" "$REPO" "$T/ex"
	assert_success
}

@test "et-synth --progress says rank k of N, percent and time left while it writes" {
	[ -z "${ETKIT_VALGRIND:-}" ] || skip "too slow under valgrind"
	# JSON Lines take about a second to write (a stream copies ranks too fast to see)
	run -0 --separate-stderr et-synth dag --nodes 300000 --world 8 --to jsonl --progress -o /dev/null
	[[ $stderr =~ rank\ [2-8]\ of\ 8\ \([1-9][0-9]%\),\ [0-9]+00000\ nodes,\ [0-9]+\.[0-9]\ s,\ about\ [0-9]+\ s\ left ]] ||
		fail "$(printf '%s' "$stderr" | tr '\r\033' '|~')"
	# -q: nothing
	run -0 --separate-stderr et-synth dag --nodes 300000 --world 8 --to jsonl -q -o /dev/null
	[ -z "$stderr" ]
}

@test "chakra-generator --out-dir D/: messages name D/FILE with one slash, and nothing is written on failure" {
	mkdir -p gen/ALL_REDUCE.0.et
	run -4 --separate-stderr et-synth chakra-generator --world 2 --out-dir gen/
	[ "$stderr" = "et-synth: gen/ALL_REDUCE.0.et: cannot open: Is a directory" ] || fail "$stderr"
	[ "$(ls gen)" = "ALL_REDUCE.0.et" ]
}
