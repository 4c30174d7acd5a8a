#!/usr/bin/env bats
# et-sim: ASTRA-sim's analytical numbers. Every expected number comes from
# doc/astra-sim.md: the worked table (section E) verbatim, and the
# closed forms of section D computed here with awk, independently of et-sim.
load common

SIMD="$DATA/sim"
NET="$DATA/astra-sim/network"
SYS="$DATA/astra-sim/system"

# finish times of all ranks, one per line, from --astra-sim-log
finishes() {
	local out
	out=$(et-sim --astra-sim-log "$@") || return 1
	printf '%s\n' "$out" | awk '{print $3}'
}

# the single value every rank finished at (fails if ranks differ)
uniform() {
	local v
	v=$(finishes "$@") || return 1
	v=$(printf '%s\n' "$v" | sort -u)
	[ "$(printf '%s\n' "$v" | wc -l)" -eq 1 ] || { echo "ranks differ: $v" >&2; return 1; }
	echo "$v"
}

# N ranks, one collective of TYPE (Chakra enum) and SIZE bytes each
gen_coll() {
	local n=$1 ct=$2 sz=$3 r
	for ((r = 0; r < n; r++)); do
		echo "{\"rank\":$r,\"world_size\":$n,\"name\":\"t\",\"metadata\":{\"version\":\"0.0.4\"}}"
		echo "{\"rank\":$r,\"id\":1,\"name\":\"c\",\"type\":\"COMM_COLL_NODE\",\"attr\":[{\"name\":\"is_cpu_op\",\"boolVal\":false},{\"name\":\"comm_type\",\"int64Val\":$ct},{\"name\":\"comm_size\",\"int64Val\":$sz}]}"
	done
}

microbench() { # collective ranks expected
	local c=$1 n=$2 want=$3 got
	for path in "" --no-closed-form; do
		got=$(uniform $path --network "$NET/Ring_${n}npus.yml" --system "$SYS/Ring_4chunks.json" \
			"$MB/$c/${n}npus_1MB/$c")
		[ "$got" = "$want" ] || { echo "$c $n $path: got $got, want $want"; return 1; }
	done
}

@test "spec E: all-reduce, 4 ranks = 43,000 ns" {
	microbench all_reduce 4 43000
}

@test "spec E: all-reduce, 8 ranks = 64,440 ns" {
	microbench all_reduce 8 64440
}

@test "spec E: all-reduce, 16 ranks = 99,640 ns" {
	microbench all_reduce 16 99640
}

@test "spec E: all-gather, 4 ranks = 64,744 ns" {
	microbench all_gather 4 64744
}

@test "spec E: all-gather, 8 ranks = 151,016 ns" {
	microbench all_gather 8 151016
}

@test "spec E: all-gather, 16 ranks = 323,560 ns" {
	microbench all_gather 16 323560
}

@test "spec E: reduce-scatter, 4 ranks = 22,240 ns" {
	microbench reduce_scatter 4 22240
}

@test "spec E: reduce-scatter, 8 ranks = 33,080 ns" {
	microbench reduce_scatter 8 33080
}

@test "spec E: reduce-scatter, 16 ranks = 50,740 ns" {
	microbench reduce_scatter 16 50740
}

@test "spec E: all-to-all, 4 ranks = 41,560 ns" {
	microbench all_to_all 4 41560
}

@test "spec E: all-to-all, 8 ranks = 125,480 ns" {
	microbench all_to_all 8 125480
}

@test "spec E: all-to-all, 16 ranks = 391,240 ns" {
	microbench all_to_all 16 391240
}

@test "ASTRA-sim regression template: 117,780 ns, exposed communication the same" {
	run et-sim --astra-sim-log --network "$DATA/astra-sim/tests/rt_template_net.yml" \
		--system "$DATA/astra-sim/tests/rt_template_sys.json" "$MB/all_reduce/8npus_1MB/all_reduce"
	assert_success
	assert_line --index 0 "sys[0] finished, 117780 cycles, exposed communication 117780 cycles."
	[ "$(printf '%s\n' "$output" | grep -c ', 117780 cycles, exposed communication 117780 cycles.$')" -eq 8 ]
}

@test "HGX-H100-validated config: two active chunks per dimension, Switch of 8 (doc/astra-sim.md D.14 per chunk)" {
	want=$(awk 'function T(m, h) { return int(h * 936.25 + m / (400 * 1073741824 / 1e9)) }
		function P(m) { return 3 * int(m / 3350e9 * 1e9) }
		BEGIN { c = 262144; n = 8; m = c / n
		# 4 chunks, 2 at a time in the one queue: two rounds
		print 2 * ((2*n-1)*10 + (2*n-2)*T(m, 2) + (n-1)*P(m)), 2 * (n*10 + (n-1)*T(c, 2)),
			2 * (n*10 + (n-1)*(T(m, 2) + P(m))), 2 * (10 + n*(n-1)/2*(T(m, 2) + 10)) }')
	got=""
	for c in all_reduce all_gather reduce_scatter all_to_all; do
		got+="$(uniform --network "$NET/HGX-H100-validated.yml" --system "$SYS/HGX-H100-validated.json" \
			"$MB/$c/8npus_1MB/$c") "
	done
	[ "$got" = "$want " ]
}

# Section D for one phase: splits = 1 (one chunk = the whole size), one
# dimension, event path only (--no-closed-form), against awk's formula.
AWK_D='
function T(m, h) { return int(h * lat + m / (bw * 1073741824 / 1e9)) }
function P(m) { return 3 * int(m / (lmb * 1e9) * 1e9) }
function hops(o) { if (topo == "Switch") return 2; if (topo == "FullyConnected") return 1;
	return (o < n - o) ? o : n - o }
function ring(  m) {
	m = int(S / n)
	if (ct == 0) return (2*n-1)*d + (2*n-2)*T(m, hops(1)) + (n-1)*P(m)
	if (ct == 7) return n*d + (n-1)*(T(m, hops(1)) + P(m))
	if (ct == 2) return n*d + (n-1)*T(S, hops(1))
	return d + n*(n-1)/2*(T(m, hops(1)) + d)
}
function direct(  m, tm) {
	m = int(S / n); tm = (ct == 2) ? T(S, hops(int(n/2))) : T(m, hops(int(n/2)))
	if (ct == 0) return 3*d + 2*tm + P(m)
	if (ct == 7) return 2*d + tm + P(m)
	return 2*d + tm
}
function hd(  L, k, t, s) {
	L = int(log(n) / log(2) + 0.5); t = d
	if (ct == 2) { s = S; for (k = 1; k <= L; k++) { t += d + T(s, hops(n / 2^k)); s *= 2 }; return t }
	s = S
	for (k = 1; k <= L; k++) { s = int(s / 2); t += d + T(s, hops(2^(k-1))); if (k >= 2) t += P(s) }
	if (ct == 0) for (k = 1; k <= L; k++) { t += d + T(int(S / 2^(L-k+1)), hops(n / 2^k)) }
	return t
}
BEGIN { if (impl == "ring") print ring(); else if (impl == "direct") print direct(); else print hd() }'

check_d() { # impl topo n ct S
	local impl=$1 topo=$2 n=$3 ct=$4 S=$5 want got
	want=$(awk -v impl="$impl" -v topo="$topo" -v n="$n" -v ct="$ct" -v S="$S" \
		-v lat=500 -v bw=50 -v lmb=1600 -v d=10 "$AWK_D")
	gen_coll "$n" "$ct" "$S" >"$T/d.jsonl"
	got=$(uniform --no-closed-form --set topology="$topo" --set preferred-dataset-splits=1 \
		--set all-reduce-implementation="$impl" --set all-gather-implementation="$impl" \
		--set reduce-scatter-implementation="$impl" --set all-to-all-implementation="$impl" \
		"$T/d.jsonl")
	[ "$got" = "$want" ] || { echo "$impl $topo n=$n type=$ct S=$S: got $got, want $want"; return 1; }
}

# doc/astra-sim.md D.14 for n ranks: every type at three sizes on a Ring, and a Switch and
# a FullyConnected case.
d14() {
	local n=$1 S ct
	for S in 1048576 4000000 123457; do
		for ct in 0 7 2 6; do check_d ring Ring "$n" "$ct" "$S"; done
	done
	check_d ring Switch "$n" 0 1048576
	check_d ring FullyConnected "$n" 6 4000000
}

@test "doc/astra-sim.md D.14: ring phases (AR, RS, AG, A2A) at several sizes, 2 ranks" {
	d14 2
}

@test "doc/astra-sim.md D.14: ring phases (AR, RS, AG, A2A) at several sizes, 4 ranks" {
	d14 4
}

@test "doc/astra-sim.md D.14: ring phases (AR, RS, AG, A2A) at several sizes, 6 ranks" {
	d14 6
}

@test "doc/astra-sim.md D.14: ring phases (AR, RS, AG, A2A) at several sizes, 8 ranks" {
	d14 8
}

@test "doc/astra-sim.md D.14: ring phases (AR, RS, AG, A2A) at several sizes, 16 ranks" {
	d14 16
}

# doc/astra-sim.md D.15 for n ranks: two sizes on a Ring, a Switch and a FullyConnected network.
d15() {
	local n=$1 S ct
	for S in 1048576 3000000; do
		for ct in 7 2 6; do check_d direct Ring "$n" "$ct" "$S"; done
		for ct in 0 7 2 6; do check_d direct Switch "$n" "$ct" "$S"; done
		check_d direct FullyConnected "$n" 0 "$S"
	done
}

@test "doc/astra-sim.md D.15: direct phases (slowest peer) at several sizes, 4 ranks" {
	d15 4
}

@test "doc/astra-sim.md D.15: direct phases (slowest peer) at several sizes, 8 ranks" {
	d15 8
}

@test "doc/astra-sim.md D.15: direct phases (slowest peer) at several sizes, 16 ranks" {
	d15 16
}

# doc/astra-sim.md D.16 for n ranks: two sizes on a Ring and on a Switch.
d16() {
	local n=$1 S ct
	for S in 1048576 5000000; do
		for ct in 0 7 2; do check_d halvingDoubling Ring "$n" "$ct" "$S"; done
		check_d halvingDoubling Switch "$n" 0 "$S"
	done
}

@test "doc/astra-sim.md D.16: halving-doubling phases at several sizes, 2 ranks" {
	d16 2
}

@test "doc/astra-sim.md D.16: halving-doubling phases at several sizes, 4 ranks" {
	d16 4
}

@test "doc/astra-sim.md D.16: halving-doubling phases at several sizes, 8 ranks" {
	d16 8
}

@test "doc/astra-sim.md D.16: halving-doubling phases at several sizes, 16 ranks" {
	d16 16
}

@test "doc/astra-sim.md D.16: halving-doubling phases at several sizes, 32 ranks" {
	d16 32
}

# The closed forms, the message path (--no-closed-form) and the unfolded run
# (--no-fold) give the same finish times: 16 ranks on a 3-D network, the
# collective-optimization OPT and the implementation list IMPL, for an
# all-reduce, an all-gather and a reduce-scatter.
paths_agree() { # opt impl
	local opt=$1 impl=$2 ct a b c
	local s="--set topology=Ring,Switch,FullyConnected --set npus_count=4,2,2 --set bandwidth=200,100,50 --set latency=100,500,1000"
	local common="$s --set collective-optimization=$opt --set all-reduce-implementation=$impl --set all-gather-implementation=$impl --set reduce-scatter-implementation=$impl"
	for ct in 0 2 7; do
		gen_coll 16 "$ct" 4000000 >"$T/m.jsonl"
		a=$(finishes $common "$T/m.jsonl" | tr '\n' ' ')
		b=$(finishes --no-closed-form $common "$T/m.jsonl" | tr '\n' ' ')
		c=$(finishes --no-fold $common "$T/m.jsonl" | tr '\n' ' ')
		[ "$a" = "$b" ] && [ "$a" = "$c" ] || { echo "$opt $impl $ct: $a / $b / $c"; false; }
	done
}

@test "closed forms and the message-by-message path agree: localBWAware, ring,ring,ring" {
	paths_agree localBWAware ring,ring,ring
}

@test "closed forms and the message-by-message path agree: localBWAware, direct,halvingDoubling,ring" {
	paths_agree localBWAware direct,halvingDoubling,ring
}

@test "closed forms and the message-by-message path agree: localBWAware, ring,ring" {
	paths_agree localBWAware ring,ring
}

@test "closed forms and the message-by-message path agree: localBWAware, halvingDoubling,direct,direct" {
	paths_agree localBWAware halvingDoubling,direct,direct
}

@test "closed forms and the message-by-message path agree: baseline, ring,ring,ring" {
	paths_agree baseline ring,ring,ring
}

@test "closed forms and the message-by-message path agree: baseline, direct,halvingDoubling,ring" {
	paths_agree baseline direct,halvingDoubling,ring
}

@test "closed forms and the message-by-message path agree: baseline, ring,ring" {
	paths_agree baseline ring,ring
}

@test "closed forms and the message-by-message path agree: baseline, halvingDoubling,direct,direct" {
	paths_agree baseline halvingDoubling,direct,direct
}

# The 8-rank baseline all-reduce on net_ring4_switch2.yml, by hand.
multidim_want() {
	# dim 0: Ring of 4 (100 GB/s, 200 ns); dim 1: Switch of 2 (25 GB/s, 700 ns, 2 hops)
	awk 'function T(m, h, lat, bw) { return int(h * lat + m / (bw * 1073741824 / 1e9)) }
		function P(m) { return 3 * int(m / 1600e9 * 1e9) }
		BEGIN { c = 262144; d = 10
		a = 7*d + 6*T(c/4, 1, 200, 100) + 3*P(c/4)     # AR on 4 ranks
		b = 3*d + 2*T(c/2, 2, 700, 25) + 1*P(c/2)      # AR on 2 ranks
		e0 = 0; e1 = 0
		for (k = 0; k < 4; k++) { e0 += a; s1 = (e0 > e1) ? e0 : e1; e1 = s1 + b }
		print e1 }'
}

@test "multi-dim baseline all-reduce: chunks pipeline through one queue per dimension (closed forms)" {
	gen_coll 8 0 1048576 >"$T/ar.jsonl"
	want=$(multidim_want)
	got=$(uniform --network "$SIMD/net_ring4_switch2.yml" --set collective-optimization=baseline \
		--set all-reduce-implementation=ring,ring "$T/ar.jsonl")
	[ "$got" = "$want" ]
}

@test "multi-dim baseline all-reduce: chunks pipeline through one queue per dimension (message path)" {
	gen_coll 8 0 1048576 >"$T/ar.jsonl"
	want=$(multidim_want)
	got=$(uniform --no-closed-form --network "$SIMD/net_ring4_switch2.yml" \
		--set collective-optimization=baseline --set all-reduce-implementation=ring,ring "$T/ar.jsonl")
	[ "$got" = "$want" ]
}

@test "a one-entry implementation list on a 2-D network runs on dimension 0 only" {
	gen_coll 8 0 1048576 >"$T/ar.jsonl"
	want=$(awk 'function T(m, h) { return int(h * 200 + m / (100 * 1073741824 / 1e9)) }
		BEGIN { c = 262144; print 4 * (70 + 6*T(c/4, 1) + 3*3*int(c/4/1600e9*1e9)) }')
	got=$(uniform --network "$SIMD/net_ring4_switch2.yml" "$T/ar.jsonl")
	[ "$got" = "$want" ]
}

# Even/odd groups of 4 on a ring of 8: two hops between members.
subgroup_want() {
	awk 'function T(m, h) { return int(h * 500 + m / (50 * 1073741824 / 1e9)) }
		BEGIN { c = 262144; n = 4; m = c / n
		print 4 * ((2*n-1)*10 + (2*n-2)*T(m, 2) + (n-1)*3*int(m/1600e9*1e9)) }'
}

@test "sub-groups: one ring over the members, physical hops, 10 ns endpoint delay (closed forms)" {
	want=$(subgroup_want)
	got=$(uniform --network "$NET/Ring_8npus.yml" --system "$SYS/Ring_4chunks.json" \
		--comm-groups "$SIMD/groups_even_odd.json" "$SIMD/groups8.jsonl")
	[ "$got" = "$want" ]
}

@test "sub-groups: one ring over the members, physical hops, 10 ns endpoint delay (message path)" {
	want=$(subgroup_want)
	got=$(uniform --no-closed-form --network "$NET/Ring_8npus.yml" --system "$SYS/Ring_4chunks.json" \
		--comm-groups "$SIMD/groups_even_odd.json" "$SIMD/groups8.jsonl")
	[ "$got" = "$want" ]
}

@test "sub-groups with uneven hop counts: the closed-form and message paths agree" {
	# uneven hop counts: the message path only; both paths must still agree
	a=$(finishes --comm-groups "$SIMD/groups_uneven.json" "$SIMD/groups8_uneven.jsonl")
	b=$(finishes --no-closed-form --comm-groups "$SIMD/groups_uneven.json" "$SIMD/groups8_uneven.jsonl")
	[ "$a" = "$b" ]
}

@test "compute/collective overlap: a COMP runs beside a collective, two collectives serialise" {
	ar=64440 # spec E, 8 ranks
	run et-sim --astra-sim-log --network "$NET/Ring_8npus.yml" --system "$SYS/Ring_4chunks.json" "$SIMD/overlap.jsonl"
	assert_success
	# fwd (30 us) beside ar_a; ar_b waits for the comm resource; bwd (5 us) after ar_a
	t=$((2 * ar)) e=$((2 * ar - 35000))
	assert_line --index 0 "sys[0] finished, $t cycles, exposed communication $e cycles."
}

@test "compute/collective overlap: the schedule shows the COMP beside the collective, the second collective after the first" {
	ar=64440 # spec E, 8 ranks
	run et-sim --schedule "$T/s.jsonl" --network "$NET/Ring_8npus.yml" --system "$SYS/Ring_4chunks.json" "$SIMD/overlap.jsonl"
	assert_success
	run jq -r 'select(.rank == 3) | "\(.name) \(.resource) \(.start_ns) \(.end_ns)"' "$T/s.jsonl"
	assert_output "fwd comp 0 30000
ar_a comm 0 $ar
bwd comp $ar $((ar + 5000))
ar_b comm $ar $((2 * ar))"
}

@test "send/recv: both complete at t_send + T; the receiver's successor after it" {
	tt=$(awk 'BEGIN { print int(500 + 1048576 / (50 * 1073741824 / 1e9)) }')
	run et-sim --astra-sim-log "$SIMD/p2p.jsonl"
	assert_success
	assert_line --index 0 "sys[0] finished, $((5000 + tt)) cycles, exposed communication $tt cycles."
	assert_line --index 1 "sys[1] finished, $((5000 + tt + 2000)) cycles, exposed communication $((5000 + tt)) cycles."
}

# The roofline time of compute.jsonl's roofline nodes (awk), as awk functions.
AWK_RF='function rf(ops, ts,  p) { p = 1600e9 * ops / ts; if (p > 900e12) p = 900e12; return int(ops / p * 1e9) }'

@test "roofline compute model: --set roofline-enabled=1" {
	rf=$(awk "$AWK_RF"' BEGIN { print rf(1e9, 1e6) + 3 * rf(1e6, 1e6) + 3000 }')
	run et-sim --astra-sim-log --set roofline-enabled=1 "$SIMD/compute.jsonl"
	assert_success
	assert_output "sys[0] finished, $rf cycles, exposed communication 3000 cycles."
}

@test "roofline compute model: --compute-model roofline" {
	rf=$(awk "$AWK_RF"' BEGIN { print rf(1e9, 1e6) + 3 * rf(1e6, 1e6) + 3000 }')
	run et-sim --astra-sim-log --compute-model roofline "$SIMD/compute.jsonl"
	assert_output "sys[0] finished, $rf cycles, exposed communication 3000 cycles."
}

@test "systolic compute model: ws dataflow, one 128 x 128 array at 1 GHz" {
	# ws dataflow: (S_R, S_C, T) = (K, N, M); 128 x 128 array at 1 GHz
	sy=$(awk 'function cyc(m, n, k) { return int((k + 127) / 128) * int((n + 127) / 128) * (2*128 + 128 + m - 2) }
		'"$AWK_RF"'
		BEGIN { print rf(1e9, 1e6) + rf(1e6, 1e6) + cyc(1024, 512, 256) + cyc(64, 16, 32) + 3000 }')
	run et-sim --astra-sim-log --compute-model systolic "$SIMD/compute.jsonl"
	assert_output "sys[0] finished, $sy cycles, exposed communication 3000 cycles."
}

@test "systolic compute model: os dataflow, two arrays" {
	# os dataflow, 2 arrays: (M, N, K)
	os=$(awk 'function cyc(m, n, k) { return int((int((m + 127) / 128) * int((n + 127) / 128) + 1) / 2) * (2*128 + 128 + k - 2) }
		'"$AWK_RF"'
		BEGIN { print rf(1e9, 1e6) + rf(1e6, 1e6) + cyc(1024, 512, 256) + cyc(64, 16, 32) + 3000 }')
	run et-sim --astra-sim-log --compute-model systolic --set systolic-dataflow=os --set systolic-arrays=2 "$SIMD/compute.jsonl"
	assert_output "sys[0] finished, $os cycles, exposed communication 3000 cycles."
}

@test "replay compute model (the default): durations as recorded" {
	# replay: 4 x 7 us on the GPU + 3 us on the CPU
	run et-sim --astra-sim-log "$SIMD/compute.jsonl"
	assert_output "sys[0] finished, 31000 cycles, exposed communication 3000 cycles."
}

@test "METADATA and INVALID nodes are skipped; MEM nodes take no time unless configured, with a warning" {
	run et-sim --astra-sim-log "$SIMD/skip.jsonl"
	assert_success
	assert_line "sys[0] finished, 4000 cycles, exposed communication 0 cycles."
	assert_line --partial "MEM_LOAD/MEM_STORE nodes take no time"
}

@test "MEM nodes cost latency + size / bandwidth" {
	run et-sim -q --astra-sim-log --set mem-latency=100 --set mem-bandwidth=2 "$SIMD/skip.jsonl"
	want=$(awk 'BEGIN { print int(100 + 1073741824 / (2 * 1073741824 / 1e9)) + 4000 }')
	assert_output "sys[0] finished, $want cycles, exposed communication $((want - 4000)) cycles."
}

@test "BARRIER, REDUCE, GATHER, SCATTER are simulated; BROADCAST replayed unless asked" {
	run et-sim --astra-sim-log "$SIMD/extra.jsonl"
	assert_success
	a=$(echo "$output" | head -1 | awk '{print $3}')
	run et-sim --astra-sim-log --simulate-collectives "$SIMD/extra.jsonl"
	assert_success
	b=$(echo "$output" | head -1 | awk '{print $3}')
	[ "$a" -gt 6000 ] && [ "$a" != "$b" ]
}

@test "a deadlock on a receive ends the run with exit 1 naming the rank, the node and the sender" {
	run et-sim "$SIMD/p2p_unmatched.jsonl"
	assert_failure 1
	assert_output --partial "deadlock: 1 rank(s) blocked: rank 1 at node 1 (recv) waiting for a send from rank 0"
}

@test "a deadlock on a collective ends the run with exit 1 naming the ranks that never joined" {
	run et-sim "$SIMD/coll_missing.jsonl"
	assert_failure 1
	assert_output --partial "rank 0 at node 1 (ar) waiting for rank(s) 1 to join"
}

# fails2 MESSAGE ARGS...: et-sim ARGS exits 2 with exactly MESSAGE
# ("et-sim: " added).
fails2() {
	local want=$1
	shift
	run et-sim "$@"
	assert_failure 2
	assert_output "et-sim: $want"
}

# fails3 MESSAGE ARGS...: the same with exit 3, what a configuration file
# that is not one et-sim can read gets (tests/bats/configs.bats).
fails3() {
	local want=$1
	shift
	run et-sim "$@"
	assert_failure 3
	assert_output "et-sim: $want"
}

@test "configuration errors: a YAML syntax error names the file, line and column, exit 3" {
	fails3 "$SIMD/bad.yml: line 5, column 1: did not find expected ',' or ']'" \
		--network "$SIMD/bad.yml" "$SIMD/p2p.jsonl"
}

@test "configuration errors: an unknown topology in the network file, exit 3" {
	fails3 "$SIMD/unknown_topology.yml: line 1, column 11: unknown topology 'Torus' (Ring, FullyConnected or Switch)" \
		--network "$SIMD/unknown_topology.yml" "$SIMD/p2p.jsonl"
}

@test "configuration errors: invalid JSON in the system file names the line and column, exit 3" {
	fails3 "$SIMD/bad.json: line 5, column 3: invalid JSON" --system "$SIMD/bad.json" "$SIMD/p2p.jsonl"
}

@test "configuration errors: endpoint-delay 0 is blamed on the system file, exit 2" {
	fails2 "$SIMD/zero_endpoint.json: endpoint-delay must be > 0 (ASTRA-sim crashes on 0)" \
		--system "$SIMD/zero_endpoint.json" "$SIMD/p2p.jsonl"
}

@test "configuration errors: a network of another rank count than the trace's, exit 2" {
	fails2 "$NET/Ring_8npus.yml: the network has 8 ranks, the trace has 2" \
		--network "$NET/Ring_8npus.yml" "$SIMD/p2p.jsonl"
}

@test "configuration errors: a pg_name without a comm-group file, exit 2" {
	fails2 "rank 0: node 1: communicator group '1' is not defined (give --comm-groups)" \
		"$SIMD/groups8.jsonl"
}

@test "configuration errors: an unknown --set key, exit 2" {
	fails2 "--set no-such-key=1: unknown key 'no-such-key'" --set no-such-key=1 "$SIMD/p2p.jsonl"
}

@test "configuration errors: a list value longer than 63 characters, exit 2" {
	long=$(printf '1%.0s' {1..64})
	fails2 "--set bandwidth=1,$long: bandwidth: a value is longer than 63 characters" \
		--set "bandwidth=1,$long" "$SIMD/p2p.jsonl"
}

@test "configuration errors: an implementation longer than 63 characters, exit 2" {
	long=$(printf '1%.0s' {1..64})
	fails2 "--set all-reduce-implementation=ring,$long: all-reduce-implementation: an entry is longer than 63 characters" \
		--set "all-reduce-implementation=ring,$long" "$SIMD/p2p.jsonl"
}

@test "configuration errors: more than 8 implementations, exit 2" {
	nine=ring,ring,ring,ring,ring,ring,ring,ring,ring
	fails2 "--set all-reduce-implementation=$nine: all-reduce-implementation: more than 8 entries" \
		--set "all-reduce-implementation=$nine" "$SIMD/p2p.jsonl"
}

@test "configuration errors: more than 8 network values, exit 2" {
	fails2 "--set latency=1,2,3,4,5,6,7,8,9: latency: expected 1 to 8 values" \
		--set "latency=1,2,3,4,5,6,7,8,9" "$SIMD/p2p.jsonl"
}

@test "configuration errors: halvingDoubling on a ring that is not a power of two, exit 2" {
	fails2 "halvingDoubling needs a power-of-two ring, not 6 ranks" \
		--set topology=Ring --set npus_count=6 --set all-reduce-implementation=halvingDoubling \
		<(gen_coll 6 0 1048576)
}

@test "usage errors: an unknown --format, exit 2" {
	run et-sim --format yaml "$SIMD/p2p.jsonl"
	assert_failure 2
}

@test "comm-group file errors: a comm group given twice, exit 3" {
	printf '{"1": [0, 2, 4, 6], "01": [1, 3, 5, 7]}' >"$T/twice.json"
	run -3 et-sim --comm-groups "$T/twice.json" "$SIMD/groups8.jsonl"
	assert_output "et-sim: $T/twice.json: line 1: group \"01\" is given twice (as \"1\" on line 1)"
}

@test "comm-group file errors: a comm group with a rank that is not an integer, exit 3" {
	printf '{"1": [0, 2, 4, 6],\n "2": [1, 3.5]}' >"$T/frac.json"
	run -3 et-sim --comm-groups "$T/frac.json" "$SIMD/groups8.jsonl"
	assert_output "et-sim: $T/frac.json: line 2: group \"2\": expected an array of ranks (integers 0..2^32-1)"
}

@test "a comm-group file's repeated ranks count once" {
	sed 's/\[0, 2, 4, 6\]/[6, 0, 2, 4, 6, 0]/' "$SIMD/groups_even_odd.json" >"$T/rep.json"
	a=$(uniform --network "$NET/Ring_8npus.yml" --system "$SYS/Ring_4chunks.json" \
		--comm-groups "$SIMD/groups_even_odd.json" "$SIMD/groups8.jsonl")
	b=$(uniform --network "$NET/Ring_8npus.yml" --system "$SYS/Ring_4chunks.json" \
		--comm-groups "$T/rep.json" "$SIMD/groups8.jsonl")
	[ -n "$a" ]
	assert_equal "$b" "$a"
}

@test "bad trace data: exit 3" {
	printf 'not a trace' >"$T/x.et"
	run et-sim "$T/x.et"
	assert_failure 3
}

@test "a network file's value with a newline stays on one line in the message" {
	printf 'topology: [ "Ri\\nng" ]\nnpus_count: [ 2 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n' >"$T/nl.yml"
	run et-sim --network "$T/nl.yml" "$SIMD/p2p.jsonl"
	assert_failure 3
	assert_output "et-sim: $T/nl.yml: line 1, column 11: unknown topology 'Ri?ng' (Ring, FullyConnected or Switch)"
}

@test "a system file's key with a newline stays on one line in the message" {
	printf '{"a\\nb": null}' >"$T/nl.json"
	run et-sim --system "$T/nl.json" "$SIMD/p2p.jsonl"
	assert_failure 3
	assert_output "et-sim: $T/nl.json: line 1: \"a\\nb\": unknown key"
}

@test "a --set value with a newline stays on one line in the message" {
	run et-sim --set $'topology=Ri\nng' "$SIMD/p2p.jsonl"
	assert_failure 2
	assert_output "et-sim: --set topology=Ri?ng: unknown topology 'Ri?ng' (Ring, FullyConnected or Switch)"
}

@test "a direct window beyond 32 bits is \"all peers\", not its low bits" {
	a=$(uniform --set topology=Ring --set npus_count=8 --set all-reduce-implementation=direct \
		"$MB/all_reduce/8npus_1MB/all_reduce")
	b=$(uniform --set topology=Ring --set npus_count=8 \
		--set all-reduce-implementation=direct4294967297 "$MB/all_reduce/8npus_1MB/all_reduce")
	assert_equal "$b" "$a"
}

@test "systolic-clock 0 fails (it would divide by 0), exit 2" {
	run et-sim --compute-model systolic --set systolic-clock=0 "$SIMD/compute.jsonl"
	assert_failure 2
	assert_output "et-sim: --set systolic-clock=0: systolic-clock: '0' is not a valid value"
}

@test "an absurd bandwidth (1e-300) fails with exit 3, never wraps" {
	run et-sim --set bandwidth=1e-300 "$MB/all_reduce/8npus_1MB/all_reduce"
	assert_failure 3
	assert_output "et-sim: $MB/all_reduce/8npus_1MB/all_reduce: rank 0: node 0: communication time exceeds 2^64-2 ns"
}

@test "an absurd latency (1e300) fails with exit 3, never wraps" {
	run et-sim --set latency=1e300 "$MB/all_reduce/8npus_1MB/all_reduce"
	assert_failure 3
	assert_output "et-sim: $MB/all_reduce/8npus_1MB/all_reduce: rank 0: node 0: communication time exceeds 2^64-2 ns"
}

@test "a slow but in-range bandwidth (1e-9) gives the ring's serialisation time" {
	# slow but in range: the ring's serialisation, 2(n-1)/n of 1 MiB at 1e-9 GiB/s,
	# plus latencies well under a millisecond
	got=$(uniform --set bandwidth=1e-9 "$MB/all_reduce/8npus_1MB/all_reduce")
	ser=$(awk 'BEGIN { printf "%.0f", 2 * 7 / 8 * 1048576 / (1e-9 * 1073741824 / 1e9) }')
	awk -v g="$got" -v s="$ser" 'BEGIN { exit !(g >= s && g - s < 1e6) }'
}

@test "identical ranks fold into one simulated rank with the same results" {
	gen_coll 16 0 1048576 >"$T/f.jsonl"
	run et-sim --format json "$T/f.jsonl"
	assert_success
	[ "$(echo "$output" | jq .folded)" = true ]
	a=$(echo "$output" | jq -c '[.per_rank[].finish_ns]')
	b=$(et-sim --no-fold --format json "$T/f.jsonl" | jq -c '[.per_rank[].finish_ns]')
	[ "$a" = "$b" ]
}

@test "JSON report, Chrome trace and schedule are well-formed and agree" {
	run et-sim --format json --trace "$T/t.json" --schedule "$T/s.jsonl" "$SIMD/p2p.jsonl"
	assert_success
	[ "$(echo "$output" | jq .iteration_ns)" = "$(jq -s 'map(.end_ns) | max' "$T/s.jsonl")" ]
	[ "$(jq '.traceEvents | length' "$T/t.json")" = "$(wc -l <"$T/s.jsonl")" ]
	run jq -c 'select(.type == "COMM_SEND_NODE") | [.rank, .resource, .start_ns]' "$T/s.jsonl"
	assert_output '[0,"comm",5000]'
}

@test "critical path crosses ranks at the receive" {
	run et-sim --critical-path "$SIMD/p2p.jsonl"
	assert_success
	assert_output --partial "critical path (4 nodes, first to last):
  rank 0 node 1 COMP_NODE comp [0, 5000] ns
  rank 0 node 2 COMM_SEND_NODE send"
	assert_output --partial "rank 1 node 2 COMP_NODE after"
}

@test "--sweep: the cartesian product in one process, each row equal to a single run" {
	run et-sim --network "$NET/Ring_8npus.yml" --system "$SYS/Ring_4chunks.json" \
		--sweep bandwidth=25,50 --sweep latency=500,1000 "$MB/all_reduce/8npus_1MB/all_reduce"
	assert_success
	assert_line --index 0 "bandwidth,latency,iteration_ns,finish_min_ns,finish_median_ns,exposed_comm_max_ns,status"
	[ "${#lines[@]}" -eq 5 ]
	assert_line --index 3 "50,500,64440,64440,64440,64440,ok"
	one=$(uniform --network "$NET/Ring_8npus.yml" --system "$SYS/Ring_4chunks.json" --set bandwidth=25 --set latency=1000 "$MB/all_reduce/8npus_1MB/all_reduce")
	assert_line --index 2 "25,1000,$one,$one,$one,$one,ok"
}

@test "--sweep: a point whose times overflow is a row with the message; the next point is not affected" {
	run et-sim --sweep bandwidth=1e-300,50 --sweep latency=500 "$MB/all_reduce/8npus_1MB/all_reduce"
	assert_success
	[ "${#lines[@]}" -eq 3 ]
	assert_line --index 1 '1e-300,500,,,,,rank 0: node 0: communication time exceeds 2^64-2 ns'
	assert_line --index 2 "50,500,64440,64440,64440,64440,ok"
}

@test "a stream input gives the per-rank set's numbers" {
	et-convert "$MB/all_gather/8npus_1MB/all_gather" -o "$T/ag.etz"
	got=$(uniform --network "$NET/Ring_8npus.yml" --system "$SYS/Ring_4chunks.json" "$T/ag.etz")
	[ "$got" = 151016 ]
}

@test "a stream on stdin gives the per-rank set's numbers" {
	et-convert "$MB/all_gather/8npus_1MB/all_gather" -o "$T/ag.etz"
	got=$(cat "$T/ag.etz" | et-sim --astra-sim-log --network "$NET/Ring_8npus.yml" --system "$SYS/Ring_4chunks.json" | awk '{print $3}' | sort -u)
	[ "$got" = 151016 ]
}

@test "et-sim(1) examples" {
	run "$REPO/tests/man-examples.sh" "$REPO/man/et-sim.1" "$REPO" "$T/ex"
	assert_success
}

@test "the text summary: '1 rank', and what 'exposed' means where it is printed" {
	et-synth chain --layers 1 --compute-us 5 --size 1M --world 1 -o one.etz
	run -0 et-sim one.etz
	[[ ${lines[0]} == *": 1 rank, "*" nodes" ]] || fail "${lines[0]}"
	assert_line "  (exposed communication: finish time minus GPU compute time, as ASTRA-sim counts it; idle: no resource of the rank busy)"
	run -0 et-sim --network "$REPO/samples/Ring_8npus.yml" "$REPO/samples/all_reduce_8/all_reduce"
	assert_line --index 0 "workload: 8 ranks, 8 nodes"
	assert_line "top communication by exposed time (not overlapped by compute; rank 0):"
}

@test "configs: a missing file or a directory is an I/O error (exit 4) that says which; InfraGraph needs the aware backend" {
	ar="$REPO/samples/all_reduce_8/all_reduce"
	mkdir adir
	for opt in --network --system --comm-groups; do
		run -4 --separate-stderr et-sim $opt nosuch.cfg "$ar"
		[ "$stderr" = "et-sim: nosuch.cfg: cannot open: No such file or directory" ] || fail "$opt: $stderr"
		run -4 --separate-stderr et-sim $opt adir "$ar"
		[ "$stderr" = "et-sim: adir: is a directory" ] || fail "$opt: $stderr"
	done
	run -2 --separate-stderr et-sim --network "$DATA/infragraph/clos-fat-tree-2tier.yaml" "$ar"
	[[ $stderr == *"needs the congestion-aware backend"* ]] || fail "$stderr"
	run -3 --separate-stderr et-sim --backend aware --network "$DATA/infragraph/dgxa100.legacy.yaml" "$ar"
	[[ $stderr == *"the pre-2.0 InfraGraph form"* ]] || fail "$stderr"
}

@test "roofline: COMP nodes it prices at 0 ns despite a recorded duration are counted in one warning" {
	# 3 COMP nodes of 10 us per rank, no num_ops / tensor_size, 4 ranks
	et-synth chain --layers 3 --compute-us 10 --size 1M --world 4 -o ch.etz
	run -0 --separate-stderr et-sim --set roofline-enabled=1 --set peak-perf=100 ch.etz
	[ "$stderr" = "et-sim: warning: roofline: 12 COMP nodes with a recorded duration but no num_ops or tensor_size take 0 ns (their durations are not used; ASTRA-sim does the same)" ] ||
		fail "$stderr"
	run -0 --separate-stderr et-sim --compute-model roofline --set peak-perf=100 ch.etz
	[[ $stderr == *"roofline: 12 COMP nodes"* ]]
	# replay uses the durations: no warning; -q: none either
	run -0 --separate-stderr et-sim ch.etz
	[ -z "$stderr" ]
	run -0 --separate-stderr et-sim -q --set roofline-enabled=1 --set peak-perf=100 ch.etz
	[ -z "$stderr" ]
}

# 8 ranks, one 1 MiB all-reduce each in group 1 (ranks 0-3) or 2 (4-7),
# pg_name written "1.0" / "2.0" except rank 1's plain "1"
pg_dotted() {
	local r g pn
	for r in 0 1 2 3 4 5 6 7; do
		g=$((r / 4 + 1)) pn="$((r / 4 + 1)).0"
		[ $r -eq 1 ] && pn=$g
		echo "{\"rank\":$r,\"world_size\":8,\"name\":\"pg\",\"metadata\":{\"version\":\"0.0.4\"}}"
		echo "{\"rank\":$r,\"id\":1,\"name\":\"ar\",\"type\":\"COMM_COLL_NODE\",\"attr\":[{\"name\":\"is_cpu_op\",\"boolVal\":false},{\"name\":\"comm_type\",\"int64Val\":0},{\"name\":\"comm_size\",\"int64Val\":1048576},{\"name\":\"pg_name\",\"stringVal\":\"$pn\"}]}"
	done
}

@test "pg_name and comm-group ids are read with ASTRA-sim's leading-integer rule; a group 0 is ignored with a warning" {
	pg_dotted >pg.jsonl
	echo '{"1": [0, 1, 2, 3], "2": [4, 5, 6, 7]}' >cg.json
	# the same numbers as with the names written "1" and "2"
	sed 's/"stringVal":"\([12]\)\.0"/"stringVal":"\1"/' pg.jsonl >plain.jsonl
	[ "$(grep -c '\.0"' plain.jsonl)" -eq 0 ]
	run -0 --separate-stderr et-sim --network "$REPO/samples/Ring_8npus.yml" --comm-groups cg.json --format json plain.jsonl
	plain=$output
	run -0 --separate-stderr et-sim --network "$REPO/samples/Ring_8npus.yml" --comm-groups cg.json --format json pg.jsonl
	[ "$output" = "$plain" ] && [ "$(jq .iteration_ns <<<"$output")" -gt 0 ]
	run -0 et-validate --comm-groups cg.json pg.jsonl
	assert_line "0 errors, 0 warnings, 0 info: OK"
	# "1.0" as a key is group 1 too, so with "1" it is given twice
	echo '{"1": [0, 1, 2, 3], "1.0": [4, 5, 6, 7]}' >twice.json
	run -3 --separate-stderr et-sim --network "$REPO/samples/Ring_8npus.yml" --comm-groups twice.json pg.jsonl
	[ "$stderr" = 'et-sim: twice.json: line 1: group "1.0" is given twice (as "1" on line 1)' ] || fail "$stderr"
	# group 0 is all ranks: ASTRA-sim ignores its definition, et-sim says so
	echo '{"0": [0, 1], "1": [0, 1, 2, 3], "2": [4, 5, 6, 7]}' >cg0.json
	run -0 --separate-stderr et-sim --network "$REPO/samples/Ring_8npus.yml" --comm-groups cg0.json pg.jsonl
	[ "$stderr" = 'et-sim: warning: cg0.json: line 1: group 0 is ignored: pg_name "0" (and "") means all ranks, as in ASTRA-sim, which never uses a group 0' ] ||
		fail "$stderr"
}

@test "custom collective implementations (ASTRA-sim's collective API) are refused, never silently ignored" {
	printf '{\n  "active-chunks-per-dimension": 1,\n  "all-reduce-implementation-custom": ["examples/custom_collective/allreduce_ring"]\n}\n' >custom.json
	# in a file: bad content, exit 3, with its line
	run -3 --separate-stderr et-sim --system custom.json "$REPO/samples/all_reduce_8/all_reduce"
	[ "$stderr" = 'et-sim: custom.json: line 3: "all-reduce-implementation-custom": custom collective implementations are not supported yet' ] ||
		fail "$stderr"
	[ -z "$output" ]
	for c in all-gather reduce-scatter all-to-all; do
		# in --set: a usage error, exit 2
		run -2 --separate-stderr et-sim --set $c-implementation-custom=x "$REPO/samples/all_reduce_8/all_reduce"
		[ "$stderr" = "et-sim: --set $c-implementation-custom=x: $c-implementation-custom: custom collective implementations (ASTRA-sim's collective API) are not supported yet: use $c-implementation with a built-in algorithm" ] ||
			fail "$stderr"
	done
}

@test "--compute systolic:...: doc/compiler-ir.md's worked cycles and utilization, per node in the schedule" {
	# R = C = 128: 4096^3 takes 4,585,472 cycles at 0.915 utilization in every
	# dataflow; M = 8, K = N = 4096 takes 143,296 (os, is) or 399,360 (ws);
	# a node that is no GEMM and has no op counts keeps its duration (3 us)
	for df in os ws is; do
		et-sim -q --compute "systolic:rows=128,cols=128,dataflow=$df,arrays=1,ghz=1" \
			--schedule s.jsonl "$SIMD/gemm_shapes.jsonl" >/dev/null
		run jq -r '[.name, .end_ns - .start_ns, .cycles, .utilization] | @tsv' s.jsonl
		skinny=143296
		[ "$df" = ws ] && skinny=399360
		assert_line "$(printf 'big\t4585472\t4585472\t0.914694')"
		assert_line --regexp "^skinny	$skinny	$skinny	0\.0"
		assert_line "$(printf 'add\t3000\t\t')"
	done
}

@test "--compute tpu-v4: four 128 x 128 arrays at 1.05 GHz, weight stationary; a fitted line a*cycles+b" {
	et-sim -q --compute tpu-v4 --schedule s.jsonl "$SIMD/gemm_shapes.jsonl" >/dev/null
	# 1024 folds over 4 arrays, 256 x (2*128 + 128 + 4096 - 2) = 1,146,368 cycles; /1.05 GHz up
	want=$(awk 'BEGIN { c = 256 * (2*128 + 128 + 4096 - 2); t = c / 1.05; print c, (t == int(t) ? t : int(t) + 1) }')
	[ "$(jq -r 'select(.name == "big") | "\(.cycles) \(.end_ns - .start_ns)"' s.jsonl)" = "$want" ]
	et-sim -q --compute tpu-v4:a=0.5,b=100 --schedule s.jsonl "$SIMD/gemm_shapes.jsonl" >/dev/null
	[ "$(jq -r 'select(.name == "big") | .end_ns - .start_ns' s.jsonl)" = $((1146368 / 2 + 100)) ]
	run -2 et-sim --compute systolic:rows=0 "$SIMD/gemm_shapes.jsonl"
	assert_output --partial "systolic-rows: '0' is not a valid value"
	run -2 et-sim --compute tpu-v5 "$SIMD/gemm_shapes.jsonl"
	assert_output --partial "--compute: expected replay, roofline, systolic[:...] or tpu-v4, got 'tpu-v5'"
	run -2 et-sim --compute systolic:depth=3 "$SIMD/gemm_shapes.jsonl"
	assert_output --partial "'depth=3': expected rows="
}

@test "a part of a world (et-convert --ranks, a lone rank with --world) is simulated as a world of its own, with a warning" {
	et-synth coll --type all_reduce --size 1M --world 8 -o ar.etz
	et-convert --ranks 0-3 ar.etz -o part.etz
	run -0 --separate-stderr et-sim part.etz
	assert_equal "$stderr" "et-sim: warning: part.etz: the input holds the first 4 of the 8 ranks of its world: simulated as a world of 4"
	et-convert --ranks 0 --to et ar.etz -o r0.et
	run -0 --separate-stderr et-sim --world 4 r0.et
	assert_equal "$stderr" "et-sim: warning: r0.et: the input holds the first 1 of the 4 ranks of its world: simulated as a world of 1"
	# the whole world: no warning
	run -0 --separate-stderr et-sim ar.etz
	assert_equal "$stderr" ""
}
