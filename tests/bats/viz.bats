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
	[ "$(gv_counts ids.dot)" = "$(jq_counts sel.jsonl)" ]
	jq -c 'select(has("metadata") or (.name | test("^c10d::")))' r.jsonl >m.jsonl
	et-viz r.etz --match '^c10d::' -o m.dot
	[ "$(gv_counts m.dot)" = "$(jq_counts m.jsonl)" ]
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
