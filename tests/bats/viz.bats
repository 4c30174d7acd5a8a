#!/usr/bin/env bats
# et-viz: every corpus ET renders (with a selection where it is big), the
# output is well-formed (SVG parses as XML, PNG/PDF signatures, DOT re-reads
# through cgraph), and the output's node/edge counts equal the selection's,
# counted independently from et-convert's JSONL with jq and from the DOT
# with gvpr. Timelines are checked against the trace-event format.
load common

PT="$DATA/pytorch"

# "nodes edges" of the selection in a JSONL file (node lines only), as
# et-viz draws it: one edge per ordered pair of drawn nodes, data or ctrl.
jq_counts() {
	jq -rs '[.[] | select(has("metadata") | not)] as $n
		| ($n | map({key: "\(.rank)/\(.id // 0)", value: true}) | from_entries) as $in
		| [$n[] | (.id // 0) as $i | .rank as $r
		   | ((.dataDeps // []) + (.ctrlDeps // []))[]
		   | select(. != $i and $in["\($r)/\(.)"]) | [$r, ., $i]] | unique | length
		| "\($n | length) \(.)"' "$1"
}

# "nodes edges" of a DOT file, read by cgraph (gvpr), not by et-viz
gv_counts() {
	gvpr 'BEG_G { printf("%d %d\n", nNodes($G), nEdges($G)); }' "$1"
}

# the same, counting only the edges that are dependencies of the trace (not
# those through hidden nodes, which a selection adds)
gv_direct_counts() {
	gvpr 'BEG_G { int n = 0; } E [tooltip != "indirect*"] { n++; }
		END_G { printf("%d %d\n", nNodes($G), n); }' "$1"
}

# the number of edges through hidden nodes in a DOT file
gv_indirect() {
	gvpr 'BEG_G { int n = 0; } E [tooltip == "indirect*"] { n++; }
		END_G { printf("%d\n", n); }' "$1"
}

svg_counts() {
	echo "$(grep -c '<g id="node' "$1") $(grep -c '<g id="edge' "$1")"
}

is_png() { [ "$(hexbytes "$1" 0 8)" = "89 50 4e 47 0d 0a 1a 0a" ]; }

@test "1.0.2 test trace piped from et-convert: SVG parses, counts match the trace" {
	et-convert "$PT/chakra-test-1.0.2/host_et.json.gz" -o t.etz
	et-convert t.etz --to jsonl >t.jsonl
	want=$(jq_counts t.jsonl)
	et-convert t.etz | et-viz --all-edges -o g.svg
	xmllint --noout g.svg
	[ "$(svg_counts g.svg)" = "$want" ]
	et-viz t.etz -o g.dot
	dot -Tcanon g.dot >/dev/null
	[ "$(gv_counts g.dot)" = "$want" ]
	grep -q 'shape=hexagon' g.dot # the collectives
	grep -q 'style=dashed' g.dot  # ctrl deps
}

@test "ResNet: the whole trace is refused with a hint, --around + --collapse render" {
	et-convert "$PT/resnet-1.1.0/host_et.json.gz" -o r.etz
	run et-viz r.etz -o r.svg
	assert_failure 2
	assert_output --partial "et-viz: at least 2001 nodes to draw, more than --max-nodes 2000"
	assert_output --partial "--around ID --depth K"
	[ ! -e r.svg ]
	et-viz r.etz --around 1491 --depth 10 --collapse 'aten::(empty|view|copy_)' -o r.png
	is_png r.png
	et-viz r.etz --around 1491 --depth 10 --collapse 'aten::(empty|view|copy_)' -o r.dot
	dot -Tcanon r.dot >/dev/null
	grep -q '×7' r.dot
	# without folding, the neighbourhood is bigger than with it
	et-viz r.etz --around 1491 --depth 10 -o all.dot
	[ "$(gv_counts r.dot | cut -d' ' -f1)" -lt "$(gv_counts all.dot | cut -d' ' -f1)" ]
}

@test "ResNet --ids and --match: counts equal the selection" {
	et-convert "$PT/resnet-1.1.0/host_et.json.gz" -o r.etz
	et-convert r.etz --to jsonl >r.jsonl
	jq -c 'select(has("metadata") or (.id >= 1400 and .id <= 1700))' r.jsonl >sel.jsonl
	et-viz r.etz --ids 1400-1700 -o ids.dot
	[ "$(gv_direct_counts ids.dot)" = "$(jq_counts sel.jsonl)" ]
	jq -c 'select(has("metadata") or (.name | test("^c10d::")))' r.jsonl >m.jsonl
	et-viz r.etz --match '^c10d::' -o m.dot
	[ "$(gv_direct_counts m.dot)" = "$(jq_counts m.jsonl)" ]
	et-viz r.etz --match '^c10d::' -o m.pdf
	[ "$(head -c 5 m.pdf)" = "%PDF-" ]
}

@test "chakra.0.et.gz: --ids renders, --only-critical-path draws the path in red" {
	et-convert "$DATA/chakra-et/chakra.0.et.gz" --to jsonl >c.jsonl
	jq -c 'select(has("metadata") or (.id >= 2532 and .id <= 2700))' c.jsonl >sel.jsonl
	et-viz "$DATA/chakra-et/chakra.0.et.gz" --ids 2532-2700 -o c.dot
	[ "$(gv_counts c.dot)" = "$(jq_counts sel.jsonl)" ]
	et-viz "$DATA/chakra-et/chakra.0.et.gz" --ids 2532-2700 -o c.svg
	xmllint --noout c.svg
	et-viz "$DATA/chakra-et/chakra.0.et.gz" --only-critical-path -o cp.svg
	xmllint --noout cp.svg
	grep -q '#d62728' cp.svg
}

@test "microbenchmarks: one cluster per rank, collectives linked across ranks" {
	for coll in all_reduce all_gather all_to_all reduce_scatter; do
		for n in 4 8 16; do
			et-viz "$MB/$coll/${n}npus_1MB/$coll" --link-collectives -o mb.dot
			[ "$(gv_counts mb.dot)" = "$n $((n - 1))" ]
			[ "$(grep -c 'subgraph cluster_r' mb.dot)" = "$n" ]
		done
	done
	et-viz "$MB/all_gather/4npus_1MB/all_gather" --ranks 0-3 --link-collectives -o mb.png
	is_png mb.png
}

# "tail -> head" of the send -> recv links (green) of a DOT file, one a line
p2p_links() {
	gvpr 'E [color == "#4d9a3a"] { printf("%s -> %s\n", tail.name, head.name); }' "$1"
}

@test "send/recv pairs linked across ranks, by occurrence even in a selection" {
	et-synth p2p --pattern ring --size 4K --world 4 --count 2 -o ring.etz
	et-viz ring.etz --link-collectives -o ring.dot
	[ "$(p2p_links ring.dot | wc -l)" = 8 ]
	p2p_links ring.dot | grep -qx 'r3_0 -> r0_1'
	# only the second round drawn: its sends still pair with its receives
	et-viz ring.etz --link-collectives --ids 2-3 -o sel.dot
	run p2p_links sel.dot
	assert_output "$(printf 'r%d_2 -> r%d_3\n' 0 1 1 2 2 3 3 0)"
	et-synth p2p --pattern all --size 1K --world 4 --count 2 --tag 5 -o all.etz
	et-viz all.etz --link-collectives -o all.dot
	[ "$(p2p_links all.dot | wc -l)" = 24 ]
}

@test "per-rank set: --ranks selects ranks" {
	et-viz "$REPO/samples/all_reduce_8/all_reduce" --ranks 0-2,5 -o s.dot
	[ "$(gv_counts s.dot)" = "4 0" ]
	et-viz "$REPO/samples/all_reduce_8/all_reduce" --rank 3 --link-collectives -o one.dot
	[ "$(gv_counts one.dot)" = "1 0" ]
}

@test "timeline of simple-add-a100 linked with Kineto: trace-event JSON" {
	et-convert "$PT/simple-add-a100/host_et.json.gz" --kineto "$PT/simple-add-a100/kineto.json.gz" -o sa.etz
	et-viz --timeline sa.etz -o sa.json
	jq -e '(.traceEvents | type == "array" and length > 0)
		and all(.traceEvents[]; (.ph | type == "string") and (.pid | type == "number")
			and (.tid | type == "number") and (.ts | type == "number"))
		and all(.traceEvents[] | select(.ph == "X"); (.dur | type == "number")
			and .dur >= 0 and .ts >= 0 and (.name | type == "string"))' sa.json
	timed=$(et-convert sa.etz --to jsonl | jq -s '[.[] | select(.startTimeMicros != null)] | length')
	[ "$(jq '[.traceEvents[] | select(.ph == "X")] | length' sa.json)" = "$timed" ]
	# the device stream is its own track
	jq -e '[.traceEvents[] | select(.name == "thread_name") | .args.name] | index("stream 7")' sa.json
	et-viz --timeline sa.etz -o sa.svg
	xmllint --noout sa.svg
}

@test "timeline from an et-sim schedule (hand-made file)" {
	et-viz --timeline --schedule "$DATA/viz/schedule.jsonl" -o s.json
	jq -e 'all(.traceEvents[]; has("ph") and has("pid") and has("tid") and has("ts"))' s.json
	[ "$(jq '[.traceEvents[] | select(.ph == "X")] | length' s.json)" = 9 ]
	[ "$(jq -c '[.traceEvents[] | select(.ph == "X") | .pid] | unique' s.json)" = "[0,1]" ]
	jq -e '.traceEvents[] | select(.ph == "X" and .name == "send_act") | .dur == 20.5' s.json
	jq -e '.traceEvents[] | select(.args.comm_type == "ALL_REDUCE") | .args.comm_size == 1048576' s.json
	# the quote, < and & in a name survive both formats
	jq -e '[.traceEvents[] | .name] | index("launch \"mlp\" <fwd> & co")' s.json
	et-viz --timeline --format svg --schedule - --ranks 1 <"$DATA/viz/schedule.jsonl" >s.svg
	xmllint --noout s.svg
	grep -q 'send_act' s.svg
	! grep -q 'launch' s.svg
}

@test "timeline piped from et-sim --schedule, if et-sim is built" {
	[ -x "${ETKIT_BIN:-$REPO/bin}/et-sim" ] || skip "et-sim is not built"
	et-sim --help | grep -q -- --schedule || skip "this et-sim has no --schedule"
	et-sim "$REPO/samples/all_reduce_8/all_reduce" --schedule sched.jsonl >/dev/null
	et-viz --timeline --schedule sched.jsonl -o t.json
	[ "$(jq '[.traceEvents[] | select(.ph == "X")] | length' t.json)" = "$(grep -c . sched.jsonl)" ]
}

@test "bad input and usage: one-line errors, exit codes, no partial output" {
	run et-viz --match '(' "$REPO/samples/chakra.0.et.gz"
	assert_failure 2
	assert_output --partial "et-viz: --match: bad regular expression"
	run et-viz --around 999999999 "$REPO/samples/chakra.0.et.gz" -o x.svg
	assert_failure 3
	assert_output "et-viz: --around 999999999: no node has this id"
	[ ! -e x.svg ]
	run et-viz --timeline "$REPO/samples/chakra.0.et.gz"
	assert_failure 3
	assert_output --partial "et-sim --schedule"
	printf '{"rank":0,"id":1,"start_ns":5,"end_ns":2}\n' >bad.jsonl
	run et-viz --timeline --schedule bad.jsonl
	assert_failure 3
	assert_output --partial "bad.jsonl: line 1: end_ns is before start_ns"
	printf '{"rank":0,"id":1,"start_ns":1,"end_ns":2}\n{oops\n' >bad2.jsonl
	run et-viz --timeline --schedule bad2.jsonl -o t.json
	assert_failure 3
	assert_output --partial "line 2: not a JSON object"
	[ ! -e t.json ]
	run et-viz --timeline --schedule missing.jsonl
	assert_failure 4
	run et-viz --timeline -o t.png --schedule bad.jsonl
	assert_failure 2
	head -c 100 "$REPO/samples/chakra.0.et.gz" >trunc.et.gz
	run et-viz trunc.et.gz -o t.svg
	assert_failure 3
	[ "${#lines[@]}" -eq 1 ]
	[ ! -e t.svg ]
}

@test "et-viz(1) examples" {
	run "$REPO/tests/man-examples.sh" "$REPO/man/et-viz.1" "$REPO" "$T/ex"
	assert_success
}

@test "the DOT bytes do not depend on where malloc puts things (clusters in creation order)" {
	et-viz "$DATA/chakra-et/chakra.0.et.gz" --around 2536 -F dot -o a.dot
	GLIBC_TUNABLES=glibc.malloc.mmap_threshold=0 \
		et-viz "$DATA/chakra-et/chakra.0.et.gz" --around 2536 -F dot -o b.dot
	cmp a.dot b.dot
	# the thread clusters in the order their first nodes are drawn
	assert_equal "$(grep -o 'subgraph cluster_r0_t[0-9]*' a.dot | tr '\n' ' ')" \
		"subgraph cluster_r0_t1 subgraph cluster_r0_t7 subgraph cluster_r0_t2 "
}

# jsonl_graph ID:NAME:DATA:CTRL...: a one-rank JSONL trace of compute nodes
# (DATA, CTRL: dependency ids joined by commas, empty for none)
jsonl_graph() {
	echo '{"rank":0,"world_size":1,"name":"","metadata":{}}'
	local spec id name data ctrl
	for spec in "$@"; do
		IFS=: read -r id name data ctrl <<<"$spec"
		printf '{"rank":0,"id":%s,"name":"%s","type":"COMP_NODE","dataDeps":[%s],"ctrlDeps":[%s]}\n' \
			"$id" "$name" "$data" "$ctrl"
	done
}

# the edges of a DOT file, one a line: "tail -> head style color tooltip"
dot_edges() {
	gvpr 'BEG_G { if (!isAttr($G, "E", "style")) setDflt($G, "E", "style", ""); }
		E { printf("%s -> %s %s %s %s\n", tail.name, head.name, style, color, tooltip); }' "$1"
}

@test "a selection keeps the dependencies through hidden nodes: a chain a-b-c-d, --match a|d" {
	jsonl_graph 1:a:: 2:b:1: 3:c::2 4:d:3: >chain.jsonl
	et-viz chain.jsonl --match '^(a|d)$' -o x.dot
	run dot_edges x.dot
	assert_output 'r0_1 -> r0_4 dashed #1f78b4 indirect dependency, through 2 hidden nodes'
	[ "$(gv_counts x.dot)" = "2 1" ]
	# the title counts it, the legend shows it
	grep -qF '2 nodes drawn · 1 edge (1 through hidden nodes)' x.dot
	grep -qF '<FONT COLOR="#1f78b4">- - -▷ through hidden nodes</FONT>' x.dot
	et-viz chain.jsonl --match '^(a|d)$' --no-legend -o nl.dot
	run grep -c 'through hidden nodes' nl.dot
	assert_output 0
	# --ids selects the same way
	et-viz chain.jsonl --ids 1,4 -o ids.dot
	run dot_edges ids.dot
	assert_output 'r0_1 -> r0_4 dashed #1f78b4 indirect dependency, through 2 hidden nodes'
	# a direct dependency stays what it was, and no legend entry for edges not drawn
	et-viz chain.jsonl --match '^(a|b)$' -o ab.dot
	run dot_edges ab.dot
	assert_output 'r0_1 -> r0_2  #555555 data dependency'
	! grep -q 'through hidden nodes' ab.dot
}

@test "through hidden nodes: a diamond is one edge, counted on its shortest path" {
	# a -> b -> d, a -> c -> d, a -> x -> y -> d
	jsonl_graph 1:a:: 2:b:1: 3:c::1 4:x:1: 5:y:4: 6:d:2,5:3 >diamond.jsonl
	et-viz diamond.jsonl --match '^(a|d)$' -o x.dot
	run dot_edges x.dot
	assert_output 'r0_1 -> r0_6 dashed #1f78b4 indirect dependency, through 1 hidden node'
	# b drawn: a -> b direct, b -> d direct, and a -> d still through c or x-y
	et-viz diamond.jsonl --match '^(a|b|d)$' -o b.dot
	run dot_edges b.dot
	assert_output 'r0_1 -> r0_2  #555555 data dependency
r0_2 -> r0_6  #555555 data dependency'
	et-viz diamond.jsonl --match '^(a|b|d)$' --all-edges -o ball.dot
	run dot_edges ball.dot
	assert_output 'r0_1 -> r0_2  #555555 data dependency
r0_1 -> r0_6 dashed #1f78b4 indirect dependency, through 1 hidden node
r0_2 -> r0_6  #555555 data dependency'
}

@test "through hidden nodes: only the nearest drawn ancestors, and nothing a drawn path implies" {
	# a chain a-b-c-d-e with a, c, e drawn: a -> c and c -> e, not a -> e
	jsonl_graph 1:a:: 2:b:1: 3:c:2: 4:d::3 5:e:4: >chain.jsonl
	et-viz chain.jsonl --match '^(a|c|e)$' -o x.dot
	run dot_edges x.dot
	assert_output 'r0_1 -> r0_3 dashed #1f78b4 indirect dependency, through 1 hidden node
r0_3 -> r0_5 dashed #1f78b4 indirect dependency, through 1 hidden node'
	# a -> c direct and through x: the direct edge only
	jsonl_graph 1:a:: 2:x:1: 3:c:1,2: >both.jsonl
	et-viz both.jsonl --match '^(a|c)$' -o both.dot
	run dot_edges both.dot
	assert_output 'r0_1 -> r0_3  #555555 data dependency'
	# b drawn between a and c, the other path a -> x -> c hidden: a -> b -> c says it
	jsonl_graph 1:a:: 2:b:1: 3:x:1: 4:c:2,3: >par.jsonl
	et-viz par.jsonl --match '^(a|b|c)$' -o par.svg
	[ "$(svg_counts par.svg)" = "3 2" ]
	et-viz par.jsonl --match '^(a|b|c)$' --all-edges -o parall.dot
	[ "$(gv_indirect parall.dot)" = 1 ]
}

@test "through hidden nodes: a hidden node keeps its 32 nearest drawn ancestors, and says so" {
	specs=()
	for i in $(seq 1 40); do specs+=("$i:a::"); done
	jsonl_graph "${specs[@]}" "41:h:$(seq -s, 1 40):" 42:b:41: >wide.jsonl
	run --separate-stderr et-viz wide.jsonl --match '^(a|b)$' -o x.dot
	assert_success
	assert_equal "${stderr_lines[0]}" "et-viz: warning: 1 hidden node lies below more than 32 drawn nodes: only the 32 nearest are kept, so some dashed edges through hidden nodes may be missing"
	run dot_edges x.dot
	assert_output "$(for i in $(seq 1 32); do echo "r0_$i -> r0_42 dashed #1f78b4 indirect dependency, through 1 hidden node"; done)"
}

# nearest_pairs: from lines "ID SELECTED DEP,DEP|-" in file order, the number
# of (a, b), both drawn, b depending on a through hidden nodes only and not
# directly: what --all-edges draws dashed (sets uncapped)
nearest_pairs() {
	awk '{
		id = $1; n = split($3 == "-" ? "" : $3, d, ",")
		delete u; delete direct
		for (k = 1; k <= n; k++) {
			if (d[k] == id) continue
			if (sel[d[k]]) { direct[d[k]] = 1; if (!$2) u[d[k]] = 1; continue }
			m = split(set[d[k]], s, " ")
			for (j = 1; j <= m; j++) u[s[j]] = 1
		}
		sel[id] = $2
		if ($2) { for (a in u) if (!(a in direct)) edges++ }
		else { t = ""; for (a in u) t = t " " a; set[id] = t }
	} END { print edges + 0 }'
}

@test "ResNet --match conv2d|relu_: one chain of dashed edges, fast; --all-edges: every nearest pair" {
	et-convert "$PT/resnet-1.1.0/host_et.json.gz" -o r.etz
	et-convert r.etz --to jsonl >r.jsonl
	re='aten::conv2d|aten::relu_'
	run --separate-stderr et-viz r.etz --match "$re" -o m.dot
	assert_success
	[[ $stderr != *et-viz:* ]] # no warning: no set was capped
	# 306 nodes that ran one after the other: 305 edges, each to the next
	[ "$(gv_counts m.dot)" = "306 305" ]
	[ "$(gv_indirect m.dot)" = 305 ]
	gvpr 'E { printf("%s -> %s\n", tail.name, head.name); }' m.dot | sort >got
	jq -r --arg re "$re" 'select(.name // "" | test($re)) | .id' r.jsonl |
		awk 'NR > 1 { print "r0_" p " -> r0_" $1 } { p = $1 }' | sort >want
	diff got want
	# without leaving out what drawn paths imply: the pairs counted by awk
	for re in 'aten::conv2d|aten::relu_' '^aten::(add|conv2d)' '^c10d::'; do
		jq -r --arg re "$re" 'select(has("metadata") | not)
			| "\(.id // 0) \(if .name // "" | test($re) then 1 else 0 end) \((.dataDeps // []) + (.ctrlDeps // []) | if length > 0 then join(",") else "-" end)"' \
			r.jsonl | nearest_pairs >want
		et-viz r.etz --match "$re" --all-edges -o all.dot
		[ "$(gv_indirect all.dot)" = "$(cat want)" ] || fail "$re: $(gv_indirect all.dot), want $(cat want)"
	done
	# --around: the neighbourhood's nodes joined by a path that leaves it
	et-viz r.etz --around 1491 --depth 10 -o a.dot
	run gvpr 'E [tooltip == "indirect*"] { printf("%s -> %s %s\n", tail.name, head.name, tooltip); }' a.dot
	assert_output 'r0_7 -> r0_1462 indirect dependency, through 3 hidden nodes'
}

@test "--only-critical-path: the path needs no edge through hidden nodes, a --match on it does" {
	et-viz "$DATA/chakra-et/chakra.0.et.gz" --only-critical-path -o cp.dot
	[ "$(gv_indirect cp.dot)" = 0 ]
	et-viz "$DATA/chakra-et/chakra.0.et.gz" --only-critical-path --match conv -o cpm.dot
	[ "$(gv_counts cpm.dot)" = "158 157" ]
	[ "$(gv_indirect cpm.dot)" = 47 ]
}
