#!/usr/bin/env bats
# et-sim --backend aware: ASTRA-sim's congestion-aware network. Expected
# numbers are ASTRA-sim's own (doc/astra-sim-aware.md: the published
# HGX-H100 example and the Switch-8 case), the unaware numbers of
# doc/astra-sim.md section E (the ring microbenchmarks are the same in both
# backends), and cases computed by hand below from the link model: a chunk
# of S bytes on a link takes floor(lat + S/B) to arrive and holds the link
# floor(S/B); it waits in the link's FIFO queue while the link is busy.
load common

NET="$DATA/astra-sim/network"
SYS="$DATA/astra-sim/system"
AR8="$MB/all_reduce/8npus_1MB/all_reduce"

# finish times of all ranks, "rank finish" per line, from --astra-sim-log
finishes() {
	et-sim --astra-sim-log "$@" | awk '{ sub(/^sys\[/, "", $1); sub(/\]$/, "", $1); print $1, $3 }'
}

maxfin() { finishes "$@" | awk '$2 > m { m = $2 } END { print m }'; }

# p2p_trace WORLD "SRC DST BYTES TAG"...: each rank sends its messages
# (independent SEND nodes) and posts a RECV for each message it gets; a rank
# with nothing to do runs a 1 ns COMP (ASTRA-sim's 0-duration rule).
p2p_trace() {
	local n=$1 r id m
	shift
	local msgs=("$@")
	for ((r = 0; r < n; r++)); do
		echo "{\"rank\":$r,\"world_size\":$n,\"name\":\"p2p\",\"metadata\":{\"version\":\"0.0.4\"}}"
		id=1
		for m in "${msgs[@]}"; do
			set -- $m
			if [ "$1" = "$r" ]; then
				echo "{\"rank\":$r,\"id\":$id,\"name\":\"send$4\",\"type\":\"COMM_SEND_NODE\",\"attr\":[{\"name\":\"is_cpu_op\",\"boolVal\":false},{\"name\":\"comm_dst\",\"int32Val\":$2},{\"name\":\"comm_tag\",\"int32Val\":$4},{\"name\":\"comm_size\",\"int64Val\":$3}]}"
				id=$((id + 1))
			fi
			if [ "$2" = "$r" ]; then
				echo "{\"rank\":$r,\"id\":$id,\"name\":\"recv$4\",\"type\":\"COMM_RECV_NODE\",\"attr\":[{\"name\":\"is_cpu_op\",\"boolVal\":false},{\"name\":\"comm_src\",\"int32Val\":$1},{\"name\":\"comm_tag\",\"int32Val\":$4},{\"name\":\"comm_size\",\"int64Val\":$3}]}"
				id=$((id + 1))
			fi
		done
		[ "$id" -gt 1 ] ||
			echo "{\"rank\":$r,\"id\":1,\"name\":\"idle\",\"type\":\"COMP_NODE\",\"attr\":[{\"name\":\"is_cpu_op\",\"boolVal\":false}]}"
	done
}

# floor(lat + S/B) and floor(S/B) at GB/s bw (B = bw * 2^30 / 1e9 bytes/ns)
hop() { awk -v l="$1" -v s="$2" -v g="$3" 'BEGIN { printf "%d\n", int(l + s / (g * 1073741824 / 1e9)) }'; }
ser() { hop 0 "$1" "$2"; }

@test "ASTRA-sim's published HGX-H100 example: aware 57,426 ns where unaware gives 55,222" {
	run -0 maxfin --backend aware --network "$NET/HGX-H100-validated.yml" \
		--system "$SYS/HGX-H100-validated.json" "$AR8"
	[ "$output" = 57426 ]
	run -0 maxfin --network "$NET/HGX-H100-validated.yml" --system "$SYS/HGX-H100-validated.json" "$AR8"
	[ "$output" = 55222 ]
	# one finish line per rank
	[ "$(finishes --backend aware --network "$NET/HGX-H100-validated.yml" \
		--system "$SYS/HGX-H100-validated.json" "$AR8" | wc -l)" = 8 ]
}

@test "Switch 8 (50 GB/s, 500 ns) with Ring_4chunks' system: aware 126,600 ns, unaware 92,440" {
	sw=(--set topology=Switch --set npus_count=8 --set bandwidth=50 --set latency=500 --system "$SYS/Ring_4chunks.json")
	run -0 maxfin --backend aware "${sw[@]}" "$AR8"
	[ "$output" = 126600 ]
	run -0 maxfin "${sw[@]}" "$AR8"
	[ "$output" = 92440 ]
}

@test "the 12 ring microbenchmarks: every rank's finish identical in both backends (and doc/astra-sim.md E)" {
	want="all_reduce 4 43000 8 64440 16 99640 all_gather 4 64744 8 151016 16 323560 reduce_scatter 4 22240 8 33080 16 50740 all_to_all 4 41560 8 125480 16 391240"
	set -- $want
	while [ $# -gt 0 ]; do
		c=$1
		shift
		for k in 1 2 3; do
			n=$1 w=$2
			shift 2
			args=(--network "$NET/Ring_${n}npus.yml" --system "$SYS/Ring_4chunks.json" "$MB/$c/${n}npus_1MB/$c")
			a=$(finishes --backend aware "${args[@]}")
			u=$(finishes --backend unaware "${args[@]}")
			[ "$a" = "$u" ] || fail "$c $n: aware and unaware differ"
			[ "$(maxfin --backend aware "${args[@]}")" = "$w" ] || fail "$c $n: not $w"
		done
	done
}

@test "hand-computed: a message waits behind another on a shared ring link" {
	# Ring 4 (50 GB/s, 500 ns): rank 1 sends 4 MiB to 2 (link 1->2); rank 0
	# sends 1 MiB to 2 over 0->1->2 (two hops, a tie would go clockwise). Rank
	# 0's chunk reaches 1 at a = floor(500 + S/B) but 1->2 is busy until
	# floor(4S/B); it then takes another a.
	S=1048576
	p2p_trace 4 "0 2 $S 1" "1 2 $((4 * S)) 2" >t.jsonl
	net=(--set topology=Ring --set npus_count=4 --set bandwidth=50 --set latency=500)
	a=$(hop 500 $S 50) big=$(ser $((4 * S)) 50)
	run -0 finishes --backend aware "${net[@]}" t.jsonl
	assert_line "0 $((big + a))"
	assert_line "1 $(hop 500 $((4 * S)) 50)"
	assert_line "2 $((big + a))"
	# the unaware model charges floor(2·lat + S/B), no queue
	run -0 finishes "${net[@]}" t.jsonl
	assert_line "0 $(hop 1000 $S 50)"
	# the queue and the busy times, link by link
	et-sim --backend aware "${net[@]}" --link-stats links.csv t.jsonl >report.txt
	run cat links.csv
	assert_line --index 0 "from,to,bytes,busy_ns,utilization,max_queue,chunks"
	assert_line --partial "0,1,$S,$(ser $S 50),"
	assert_line --regexp "^1,2,$((5 * S)),$((big + $(ser $S 50))),[0-9.]+,1,2$"
	[ "${#lines[@]}" = 3 ]
	grep -q "busiest links (of 2" report.txt
	grep -q "1 -> 2: busy" report.txt
}

@test "hand-computed: three hops of a ring cost three links (store-and-forward), a tie goes clockwise" {
	S=1048576
	p2p_trace 8 "0 3 $S 1" >t.jsonl
	net=(--set topology=Ring --set npus_count=8 --set bandwidth=50 --set latency=500)
	run -0 maxfin --backend aware "${net[@]}" t.jsonl
	[ "$output" = $((3 * $(hop 500 $S 50))) ]
	run -0 maxfin "${net[@]}" t.jsonl
	[ "$output" = "$(hop 1500 $S 50)" ]
	# 0 -> 4 is 4 hops either way: clockwise, 0->1->2->3->4
	p2p_trace 8 "0 4 $S 1" >t4.jsonl
	et-sim -q --backend aware "${net[@]}" --link-stats l4.csv t4.jsonl >/dev/null
	[ "$(cut -d, -f1,2 l4.csv | tail -n +2 | tr '\n' ' ')" = "0,1 1,2 2,3 3,4 " ]
}

@test "hand-computed: two senders contend for the switch's link to one receiver" {
	# Switch 4: 0 -> 2 and 1 -> 2 both reach the switch at a = floor(500 + S/B);
	# the first takes sw->2 (arrives at 2a), the second waits until the link
	# frees at a + floor(S/B) and arrives a later.
	S=1048576
	p2p_trace 4 "0 2 $S 1" "1 2 $S 2" >t.jsonl
	net=(--set topology=Switch --set npus_count=4 --set bandwidth=50 --set latency=500)
	a=$(hop 500 $S 50) b=$(ser $S 50)
	run -0 finishes --backend aware "${net[@]}" t.jsonl
	assert_line "0 $((2 * a))"
	assert_line "1 $((a + b + a))"
	assert_line "2 $((a + b + a))"
	run -0 finishes "${net[@]}" t.jsonl
	assert_line "1 $(hop 1000 $S 50)"
	et-sim -q --backend aware "${net[@]}" --link-stats l.csv t.jsonl >/dev/null
	assert_equal "$(grep '^switch0.0,2,' l.csv | cut -d, -f3,4,6,7)" "$((2 * S)),$((2 * b)),1,2"
}

@test "multi-dimensional: dimension-ordered routes pay every dimension's hops" {
	# Ring 2 (100 GB/s, 200 ns) x Switch 2 (25 GB/s, 700 ns): 0 -> 3 goes
	# 0 -> 1 in dimension 0, then 1 -> switch -> 3 in dimension 1.
	S=65536
	p2p_trace 4 "0 3 $S 1" >t.jsonl
	net=(--set topology=Ring,Switch --set npus_count=2,2 --set bandwidth=100,25 --set latency=200,700)
	run -0 maxfin --backend aware "${net[@]}" t.jsonl
	[ "$output" = $(($(hop 200 $S 100) + 2 * $(hop 700 $S 25))) ]
	# unaware: the first differing dimension only
	run -0 maxfin "${net[@]}" t.jsonl
	[ "$output" = "$(hop 200 $S 100)" ]
	et-sim -q -v --backend aware "${net[@]}" t.jsonl 2>err >/dev/null
	grep -q "4 NPUs (ranks) and 2 switches" err
}

@test "multi-dimensional: aware >= unaware for every rank, collective and system tried" {
	et-synth coll --type all_reduce --size 1M --world 16 -o ar.etz
	et-synth coll --type all_gather --size 256K --world 16 -o ag.etz
	et-synth coll --type all_to_all --size 256K --world 16 -o aa.etz
	et-synth coll --type reduce_scatter --size 1M --world 16 -o rs.etz
	nets=("Ring,Switch 4,4 100,25 200,700" "Switch,Switch 8,2 400,50 936,2000"
		"FullyConnected,Ring 4,4 200,50 100,500" "Ring,Ring,Ring 2,4,2 100,50,25 100,300,900")
	syss=("" "--set active-chunks-per-dimension=4 --set collective-optimization=baseline"
		"--set scheduling-policy=FIFO --set preferred-dataset-splits=8")
	n=0
	for spec in "${nets[@]}"; do
		set -- $spec
		nd=$(echo "$1" | tr ',' '\n' | wc -l)
		impl=$(printf 'ring%.0s,' $(seq "$nd") | sed 's/,$//')
		net=(--set topology=$1 --set npus_count=$2 --set bandwidth=$3 --set latency=$4
			--set all-reduce-implementation=$impl --set all-gather-implementation=$impl
			--set reduce-scatter-implementation=$impl --set all-to-all-implementation=$impl)
		for sys in "${syss[@]}"; do
			for w in ar ag aa rs; do
				paste <(finishes "${net[@]}" $sys $w.etz) <(finishes --backend aware "${net[@]}" $sys $w.etz) |
					awk -v c="$spec $sys $w" '$4 < $2 { print c ": rank " $1 " aware " $4 " < unaware " $2; bad = 1 } END { exit bad }' ||
					fail "aware below unaware"
				n=$((n + 1))
			done
		done
	done
	[ "$n" = 48 ]
}

@test "--sweep backend=unaware,aware compares both in one table; sweeps of bandwidth run on the aware backend" {
	run -0 et-sim --network "$NET/HGX-H100-validated.yml" --system "$SYS/HGX-H100-validated.json" \
		--sweep backend=unaware,aware "$AR8"
	assert_line --index 0 "backend,iteration_ns,finish_min_ns,finish_median_ns,exposed_comm_max_ns,status"
	assert_line --index 1 --regexp '^unaware,55222,'
	assert_line --index 2 --regexp '^aware,57426,'
	run -0 et-sim --backend aware --set topology=Switch --set npus_count=8 --set latency=500 \
		--system "$SYS/Ring_4chunks.json" --sweep bandwidth=50,100 "$AR8"
	assert_line --index 1 --regexp '^50,126600,'
	[ "${#lines[@]}" = 3 ]
}

@test "the aware backend keeps --schedule, --critical-path and the JSON report working" {
	et-sim --backend aware --network "$NET/HGX-H100-validated.yml" --system "$SYS/HGX-H100-validated.json" \
		--schedule s.jsonl --format json --critical-path "$AR8" >r.json
	jq -e '.iteration_ns == 57426 and .backend == "aware" and .folded == false' r.json >/dev/null
	[ "$(jq -s 'map(.end_ns) | max' s.jsonl)" = 57426 ]
	et-viz --timeline --schedule s.jsonl -o g.json
	jq -e '.traceEvents | length > 0' g.json >/dev/null
}

@test "usage: --link-stats needs the aware backend and one run; a bad --backend is exit 2" {
	run -2 et-sim --link-stats l.csv "$AR8"
	assert_output --partial "--link-stats: the unaware backend has no links (use --backend aware)"
	[ ! -e l.csv ]
	run -2 et-sim --backend aware --link-stats l.csv --sweep bandwidth=1,2 "$AR8"
	assert_output --partial "not with --sweep"
	run -2 et-sim --backend fast "$AR8"
	run -2 et-sim --sweep backend=unaware,fast "$AR8"
	assert_output --partial "backend: expected unaware or aware, got 'fast'"
	run -2 et-sim --logical-dims 4,2 "$AR8"
	assert_output --partial "logical-dims is for InfraGraph networks"
}

# InfraGraph networks (doc/astra-sim-aware.md "InfraGraph topologies")
IG="$DATA/infragraph"

@test "InfraGraph: a star of 8 xpus around one switch is ASTRA-sim's Switch 8, rank for rank" {
	sw=(--set topology=Switch --set npus_count=8 --set bandwidth=50 --set latency=500)
	for sys in "$SYS/Ring_4chunks.json" "$SYS/HGX-H100-validated.json"; do
		for w in "$AR8" "$MB/all_to_all/8npus_1MB/all_to_all" "$MB/all_gather/8npus_1MB/all_gather"; do
			a=$(finishes --backend aware "${sw[@]}" --system "$sys" "$w")
			b=$(finishes --backend aware --network "$IG/star8.yaml" --system "$sys" "$w")
			[ -n "$a" ] && [ "$a" = "$b" ] || fail "$sys $w: Switch and star differ"
		done
	done
	run -0 maxfin --backend aware --network "$IG/star8.yaml" --system "$SYS/Ring_4chunks.json" "$AR8"
	[ "$output" = 126600 ]
	# HGX-H100: 400 GB/s is 429.4967296 SI GB/s; 936.25 ns
	sed 's/53.6870912/429.4967296/; s/ns: 500/ns: 936.25/' "$IG/star8.yaml" >hgx.yaml
	run -0 maxfin --backend aware --network hgx.yaml --system "$SYS/HGX-H100-validated.json" "$AR8"
	[ "$output" = 57426 ]
	# -v names each rank's device
	et-sim -q -v --backend aware --network "$IG/star8.yaml" "$AR8" 2>err >/dev/null
	grep -qx "et-sim: rank 7 = host.7.xpu.0" err
	grep -qx "et-sim: device 8 = sw.0.asic.0 (forwarding)" err
}

@test "InfraGraph: the 2.x corpus file (a two-tier Clos of 16 servers) loads, numbers its 32 xpus and simulates" {
	et-synth coll --type all_reduce --size 1M --world 32 -o ar32.etz
	et-sim -v --backend aware --network "$IG/clos-fat-tree-2tier.yaml" --link-stats l.csv ar32.etz \
		>r.txt 2>err
	grep -qx "et-sim: rank 0 = server.0.xpu.0" err
	grep -qx "et-sim: rank 31 = server.15.xpu.1" err
	[ "$(grep -c '^et-sim: device .* (forwarding)$' err)" = $((236 - 32)) ]
	# every edge is a link each way
	[ "$(tail -n +2 l.csv | wc -l)" = $((2 * 288)) ]
	grep -q '^simulated iteration time: ' r.txt
	# links without a bandwidth carry data without serialisation: busy 0
	[ "$(grep '^server.0.xpu.0,server.0.nvlsw.0,' l.csv | cut -d, -f4)" = 0 ]
	# 100 Gb/s = 12.5 B/ns: a NIC link's busy time is its bytes / 12.5, chunk by chunk
	awk -F, '$1 == "server.0.nic.1" && $2 == "tier_0.0.port.1" { exit !($3 > 0 && $4 >= int($3 / 12.5) - $7 && $4 <= $3 / 12.5) }' l.csv
	# two logical dimensions of 8 and 4
	run -0 et-sim --backend aware --network "$IG/clos-fat-tree-2tier.yaml" --logical-dims 8,4 \
		--set all-reduce-implementation=ring,ring ar32.etz
	run -2 et-sim --backend aware --network "$IG/clos-fat-tree-2tier.yaml" --logical-dims 8,8 ar32.etz
	assert_output --partial "logical-dims multiply to 64 ranks, the graph has 32 NPUs"
}

@test "InfraGraph: refusals are one line (unaware backend, network lists, pre-2.0 form, NPUs not connected)" {
	run -2 et-sim --network "$IG/star8.yaml" "$AR8"
	assert_output --partial "an InfraGraph network needs the congestion-aware backend (--backend aware)"
	run -2 et-sim --backend aware --network "$IG/star8.yaml" --set bandwidth=10 "$AR8"
	assert_output --partial "the network is an InfraGraph graph"
	run -3 et-sim --backend aware --network "$IG/dgxa100.legacy.yaml" "$AR8"
	assert_output --partial "pre-2.0"
	[ "${#lines[@]}" = 1 ]
	# host 7 cut off: its xpu is connected to nothing
	sed 's/host\[0:8\]/host[0:7]/' "$IG/star8.yaml" >cut.yaml
	run -3 et-sim --backend aware --network cut.yaml "$AR8"
	assert_output "et-sim: cut.yaml: NPUs host.0.xpu.0 (rank 0) and host.7.xpu.0 (rank 7) are not connected"
}
