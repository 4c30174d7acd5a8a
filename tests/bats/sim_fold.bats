#!/usr/bin/env bats
# et-sim folded by rank classes against --no-fold: every output equal (the
# JSON report's per-rank numbers and collectives, the text report, the
# schedule, the Chrome trace, ASTRA-sim's log lines), on et-stage plans,
# compiled programs and ASTRA-sim's sub-group cases; and the fold must
# happen where it can (simulated ranks below the world), so that a fold
# that silently stops working fails here.

load common

ASTRA="$DATA/astra-sim"
NET="$ASTRA/network"
SIMD="$DATA/sim"
M=(--model llama3-8b --layers 4)

# A Switch of N ranks (every pair 2 hops): groups look alike from every member.
sw() {
	echo --set topology=Switch --set npus_count="$1" --set bandwidth=50 --set latency=500
}

# The JSON report without what a fold changes by design: whether it
# folded, how many ranks it simulated, and the event counts.
norm() {
	jq -S 'del(.folded, .simulated_ranks, .stats)' "$1"
}

# same_as_unfolded ARGS...: et-sim ARGS folded and with --no-fold give the
# same outputs; SIMULATED is the folded run's simulated ranks, WORLD its ranks.
same_as_unfolded() {
	run et-sim "$@" -F json -S f.sched --trace f.trace -o f.json
	assert_success
	run et-sim --no-fold "$@" -F json -S u.sched --trace u.trace -o u.json
	assert_success
	[ "$(jq .simulated_ranks u.json)" = "$(jq .ranks u.json)" ]
	[ "$(jq .folded u.json)" = false ]
	diff <(norm f.json) <(norm u.json)
	cmp f.sched u.sched
	cmp f.trace u.trace
	# the text report but its first line (which says how it was simulated)
	et-sim "$@" -o f.txt
	et-sim --no-fold "$@" -o u.txt
	diff <(sed 1d f.txt) <(sed 1d u.txt)
	diff <(et-sim "$@" --astra-sim-log) <(et-sim --no-fold "$@" --astra-sim-log)
	SIMULATED=$(jq .simulated_ranks f.json)
	WORLD=$(jq .ranks f.json)
}

# plan NET_ARGS... -- STAGE_ARGS... [-- SIM_ARGS...]: an et-stage plan
# through same_as_unfolded.
plan() {
	local net=() stage=()
	while [ "$1" != -- ]; do
		net+=("$1")
		shift
	done
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		stage+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	et-stage -q "${stage[@]}" --write-comm-groups g.json -o s.etz
	same_as_unfolded "${net[@]}" --comm-groups g.json "$@" s.etz
}

@test "fold: dp x tp x pp (1f1b) folds to one rank per pipeline stage, equal to --no-fold" {
	plan $(sw 8) -- "${M[@]}" --dp 2 --tp 2 --pp 2
	[ "$SIMULATED" = 2 ] && [ "$WORLD" = 8 ]
	plan $(sw 16) -- "${M[@]}" --dp 2 --tp 2 --pp 4
	[ "$SIMULATED" = 4 ] && [ "$WORLD" = 16 ]
}

# et-stage writes rank classes; et-sim reads a class's first rank in full
# and builds the others from their rules (et_crule), without decoding them:
# the same outputs as from the same plan written rank by rank
# (--no-classes), folded or not, and -v says how many ranks were built so.
@test "class streams: ranks built from their class rules simulate as the same plan in full ranks" {
	for p in "--dp 2 --tp 2 --pp 2" "--dp 2 --tp 2 --pp 4 --schedule interleaved --layers 8" \
		"--dp 2 --pp 2 --cp 2" "--dp 4 --pp 2 --fsdp"; do
		# shellcheck disable=SC2086
		et-stage -q --model llama3-8b --layers 4 $p -o c.etz
		# shellcheck disable=SC2086
		et-stage -q --model llama3-8b --layers 4 $p --no-classes -o n.etz
		w=$(et-sim -F json n.etz | jq .ranks)
		for f in "" --no-fold; do
			et-sim $f $(sw "$w") -F json -S c.sched -o c.json c.etz
			et-sim $f $(sw "$w") -F json -S n.sched -o n.json n.etz
			cmp c.json n.json || fail "$p $f: reports differ"
			cmp c.sched n.sched || fail "$p $f: schedules differ"
		done
		run et-sim -v $(sw "$w") -o /dev/null c.etz
		assert_output --regexp "et-sim: [0-9]+ of $w ranks built from their class rules"
		run et-sim -v $(sw "$w") -o /dev/null n.etz
		refute_output --partial "built from their class rules"
	done
	et-stage -q --model mixtral-8x7b --layers 2 --dp 2 --ep 2 --pp 2 --tp 2 -o c.etz
	et-stage -q --model mixtral-8x7b --layers 2 --dp 2 --ep 2 --pp 2 --tp 2 --no-classes -o n.etz
	cmp <(et-sim $(sw 16) -F json c.etz) <(et-sim $(sw 16) -F json n.etz)
	# 2 stages of 8 ranks: each stage's first rank in full, 14 from rules
	run et-sim -v $(sw 16) -o /dev/null c.etz
	assert_output --partial "et-sim: 14 of 16 ranks built from their class rules"
}

@test "fold: the text and JSON reports say how many ranks were simulated" {
	et-stage -q "${M[@]}" --dp 2 --tp 2 --pp 2 --write-comm-groups g.json -o s.etz
	run --separate-stderr et-sim $(sw 8) --comm-groups g.json s.etz
	assert_success
	assert_line --index 0 --partial "(rank classes: 2 of 8 ranks simulated)"
	# an et-stage plan has no timings: replayed, its compute is 0 ns, and et-sim says
	# so, counting what the trace itself holds (every rank's GPU COMP nodes with
	# num_ops and no duration, read from et-convert's JSONL)
	n=$(et-convert -t jsonl s.etz | jq -s '[.[] | select(.type == "COMP_NODE" and
		(.durationMicros // 0) == 0 and
		([.attr[]? | select(.name == "num_ops") | .int64Val][0] // 0) > 0 and
		([.attr[]? | select(.name == "is_cpu_op") | .boolVal][0] // false | not))] | length')
	[ "$n" -gt 0 ]
	[[ "$stderr" == "et-sim: warning: $n GPU COMP nodes with num_ops but no duration take 0 ns"* ]]
	run -0 --separate-stderr et-sim $(sw 8) --comm-groups g.json --compute-model roofline s.etz
	[ -z "$stderr" ]
	run et-sim $(sw 8) --comm-groups g.json -F json s.etz
	assert_output --partial '"folded":true,"simulated_ranks":2,'
	run et-sim --no-fold $(sw 8) --comm-groups g.json -F json s.etz
	assert_output --partial '"folded":false,"simulated_ranks":8,'
}

@test "fold: gpipe and interleaved schedules" {
	plan $(sw 16) -- "${M[@]}" --dp 2 --tp 2 --pp 4 --schedule gpipe
	[ "$SIMULATED" = 4 ]
	# interleaved: a stage's own send ends at the tick a message from the
	# stage before arrives, both scheduled at one tick by two ranks; their
	# ancestries differ in an earlier tick, which decides the order in the
	# folded run as in the full one, so the fold holds
	plan $(sw 16) -- --model llama3-8b --layers 8 --dp 2 --tp 2 --pp 4 --schedule interleaved
	[ "$SIMULATED" = 4 ]
}

# Ranks 0 and 3 send to 1 and 2 (two classes). In each receiver the message
# arrives at 7,000 ns, the tick its own c3 ends; c4 waits for the message,
# c5 for c3, and whichever is ready first runs first.
@test "fold: two events at one tick whose ancestries differ only in which rank started first unfold; differing in a tick, the fold holds" {
	# tie_root: both events descend from 5,000 ns events that descend from
	# the start, so ASTRA-sim's push order decides: rank 0 starts before
	# rank 1 (message first, c4 first), rank 2 before rank 3 (c3 first, c5
	# first). One rank per class cannot give both.
	same_as_unfolded $(sw 4) --set bandwidth=1 "$SIMD/tie_root.jsonl"
	[ "$SIMULATED" = 4 ]
	run et-sim -v $(sw 4) --set bandwidth=1 -o /dev/null "$SIMD/tie_root.jsonl"
	assert_output --partial "every rank simulated: the folded run met two events of one class at one tick"
	assert_output --partial "at 7000 ns"
	run grep -E '"rank":(1|2),"id":4,' f.sched
	assert_line --index 0 --partial '"start_ns":7000,'
	assert_line --index 1 --partial '"start_ns":8000,'
	# tie_ticks: c3 now follows c6 (4,000 to 5,000 ns), so the events at 5,000
	# that schedule the two differ in their parents' ticks (the start against
	# 4,000 ns): the sender's comes first in every pair, c4 runs first in
	# both receivers, and one rank per class is exact
	same_as_unfolded $(sw 4) --set bandwidth=1 "$SIMD/tie_ticks.jsonl"
	[ "$SIMULATED" = 2 ]
	run grep -E '"rank":(1|2),"id":4,' f.sched
	assert_line --index 0 --partial '"start_ns":7000,'
	assert_line --index 1 --partial '"start_ns":7000,'
}

@test "fold: cp, fsdp, an uneven pipeline (5 layers on 3 stages)" {
	plan $(sw 16) -- "${M[@]}" --dp 2 --tp 2 --pp 2 --cp 2
	[ "$SIMULATED" = 2 ]
	plan $(sw 8) -- "${M[@]}" --dp 4 --pp 2 --fsdp
	[ "$SIMULATED" = 2 ]
	plan $(sw 6) -- --model llama3-8b --layers 5 --dp 2 --pp 3
	[ "$SIMULATED" = 3 ]
	# 7 layers on 4 stages, as llama3-405b's 126 on 16: two events of a
	# stage meet on one tick, scheduled at one tick by two ranks; their
	# ancestries' ticks decide the order, and the fold holds
	plan $(sw 16) -- --model llama3-405b --layers 7 --dp 2 --tp 2 --pp 4
	[ "$SIMULATED" = 4 ]
}

@test "fold: MoE with expert parallelism" {
	plan $(sw 16) -- --model mixtral-8x7b --layers 2 --dp 2 --ep 2 --pp 2 --tp 2
	[ "$SIMULATED" = 2 ]
}

@test "fold: inference, prefill and decode" {
	plan $(sw 8) -- "${M[@]}" --dp 2 --tp 2 --pp 2 --mode prefill
	[ "$SIMULATED" = 2 ]
	plan $(sw 8) -- "${M[@]}" --dp 2 --tp 2 --pp 2 --mode decode --new-tokens 2 --context 64
	[ "$SIMULATED" = 2 ]
}

@test "fold: Ring dimensions (dp, tp, pp rings): groups are dimension rings" {
	R=(--set topology=Ring,Ring,Ring --set npus_count=2,2,4 --set bandwidth=50,25,12.5
		--set latency=500,700,900)
	plan "${R[@]}" -- "${M[@]}" --dp 2 --tp 2 --pp 4
	[ "$SIMULATED" = 4 ]
	# one Ring of 16: the dp pairs are neighbours, the tp pairs 2 hops apart
	plan --set topology=Ring --set npus_count=16 --set bandwidth=50 --set latency=500 \
		-- "${M[@]}" --dp 2 --tp 2 --pp 4
	[ "$SIMULATED" = 4 ]
}

@test "fold: a Ring where a group's members see different hop counts: one class per place, the group stepped member by member, equal" {
	# tp groups {0, 2, 4, 6} on a Ring of 16: 2, 2, 2 then 10 hops back, so
	# a member's class is its place in its tp group and its stage: 8
	# classes, whose representatives make up stage 0's and stage 1's first
	# tp groups, simulated member by member as unfolded
	plan --set topology=Ring --set npus_count=16 --set bandwidth=50 --set latency=500 \
		-- "${M[@]}" --dp 2 --tp 4 --pp 2
	[ "$SIMULATED" = 8 ]
	[ "$(jq .finish_ns.min f.json)" != "$(jq .finish_ns.max f.json)" ]
	# dp groups of 128 in a row on one Ring of 1,024: every member sees
	# another hop count back to the start, so every rank is a class
	et-stage -q --model llama3-8b --layers 2 --dp 128 --tp 4 --pp 2 -o r.etz
	run et-sim -v -o /dev/null r.etz
	assert_success
	assert_output --partial "every rank simulated: every rank is a class of its own"
}

@test "fold: --slow on a whole stage keeps its class; on one rank of a group, every rank is simulated" {
	R=(--set topology=Ring,Ring,Ring --set npus_count=2,2,4 --set bandwidth=50,25,12.5
		--set latency=500,700,900)
	plan "${R[@]}" -- "${M[@]}" --dp 2 --tp 2 --pp 4 -- --slow 4-7=1.5
	[ "$SIMULATED" = 4 ]
	plan "${R[@]}" -- "${M[@]}" --dp 2 --tp 2 --pp 4 -- --slow 5=1.1 --slow 12=0.75
	[ "$SIMULATED" = 16 ]
	# a pipeline without groups: the slow stage is its own class anyway
	plan $(sw 8) -- --model llama3-8b --layers 8 --pp 8 -- --slow 3=1.1
	[ "$SIMULATED" = 8 ]
}

@test "--slow: compute times x FACTOR, rounded to the nanosecond" {
	# one rank, two COMP nodes of 3 us and 5 us: 8 us, x 1.5 = 12 us
	cat >one.jsonl <<-'EOF'
		{"rank":0,"world_size":1,"name":"t","metadata":{"version":"0.0.4"}}
		{"rank":0,"id":1,"name":"a","type":"COMP_NODE","durationMicros":3,"attr":[{"name":"is_cpu_op","boolVal":false}]}
		{"rank":0,"id":2,"name":"b","type":"COMP_NODE","durationMicros":5,"dataDeps":[1],"attr":[{"name":"is_cpu_op","boolVal":false}]}
	EOF
	run et-sim -F json one.jsonl
	assert_output --partial '"iteration_ns":8000,'
	run et-sim -F json --slow 0=1.5 one.jsonl
	assert_output --partial '"iteration_ns":12000,'
	# 3000 x 1.0001 = 3000.3 -> 3000, 5000 x 1.0001 = 5000.5 -> 5001
	run et-sim -F json --slow 0=1.0001 one.jsonl
	assert_output --partial '"iteration_ns":8001,'
	run -2 et-sim --slow 0=0 one.jsonl
	assert_output --partial "--slow 0=0: the factor must be a number > 0"
	run -2 et-sim --slow 3=2 one.jsonl
	assert_output --partial "--slow 3=2: the trace has 1 ranks"
	run -2 et-sim --slow x=2 one.jsonl
	assert_output --partial "is not a rank list"
}

@test "fold: compiled programs (et-convert --from hlo)" {
	et-convert --from hlo "$DATA/compiler/clarkechong_gspmd.after_optimizations.txt" \
		--write-comm-groups h.json -o h.etz
	same_as_unfolded $(sw 8) --comm-groups h.json h.etz
	[ "$SIMULATED" = 1 ] && [ "$WORLD" = 8 ]
	# a ring of collective-permutes whose arrivals tie with the ranks' own
	# events at one tick: the tie breaks differently on each rank, so the
	# run unfolds (the ranks' finishes differ) and stays equal
	et-convert --from hlo "$DATA/compiler/xla_llama3_8b_cp_bf16_1x4.hlo" -o c.etz
	same_as_unfolded $(sw 4) c.etz
	[ "$SIMULATED" = 4 ]
	[ "$(jq .finish_ns.min f.json)" != "$(jq .finish_ns.max f.json)" ]
}

@test "fold: ASTRA-sim sub-groups on a Ring of 8, even/odd (2 hops every step) and uneven hop counts" {
	same_as_unfolded --network "$NET/Ring_8npus.yml" --comm-groups "$SIMD/groups_even_odd.json" \
		"$SIMD/groups8.jsonl"
	[ "$SIMULATED" = 1 ]
	same_as_unfolded --network "$NET/Ring_8npus.yml" --comm-groups "$SIMD/groups_uneven.json" \
		"$SIMD/groups8_uneven.jsonl"
	[ "$SIMULATED" = 8 ]
}

@test "fold: Switch dimensions: groups within one dimension (every member sees the same view) and across two" {
	# dp groups are dimension 0's switches, tp groups dimension 1's
	plan --set topology=Switch,Switch --set npus_count=4,4 --set bandwidth=50,50 \
		--set latency=500,500 -- "${M[@]}" --dp 4 --tp 2 --pp 2
	[ "$SIMULATED" = 2 ]
	# dp groups of 8 span both dimensions: their views are compared pair by pair
	plan --set topology=Switch,Switch --set npus_count=4,4 --set bandwidth=50,50 \
		--set latency=500,500 -- "${M[@]}" --dp 8 --pp 2
	[ "$SIMULATED" = 2 ]
}

@test "fold: point to point between identical ranks (p2p.jsonl) equal to --no-fold" {
	same_as_unfolded "$SIMD/p2p.jsonl"
}

@test "fold: --critical-path folds identical ranks only, and names the same path as --no-fold" {
	et-stage -q "${M[@]}" --dp 2 --tp 2 --pp 2 --write-comm-groups g.json -o s.etz
	run et-sim $(sw 8) --comm-groups g.json --critical-path -F json -o f.json s.etz
	assert_success
	[ "$(jq .simulated_ranks f.json)" = 8 ]
	et-sim --no-fold $(sw 8) --comm-groups g.json --critical-path -F json -o u.json s.etz
	diff <(norm f.json) <(norm u.json)
}

@test "--json-collectives: a folded run's list for some ranks is the unfolded run's full list for them" {
	et-stage -q "${M[@]}" --dp 2 --tp 2 --pp 2 --write-comm-groups g.json -o s.etz
	run et-sim $(sw 8) --comm-groups g.json -F json --json-collectives 3,5-6 -o f.json s.etz
	assert_success
	[ "$(jq .simulated_ranks f.json)" = 2 ]
	et-sim --no-fold $(sw 8) --comm-groups g.json -F json -o u.json s.etz
	sel='[.collectives[] | select(.rank == 3 or .rank == 5 or .rank == 6)]'
	[ "$(jq "$sel" u.json | jq length)" -gt 0 ]
	diff <(jq -c .collectives f.json) <(jq -c "$sel" u.json)
	diff <(jq -c .per_rank f.json) <(jq -c .per_rank u.json)
	run -0 et-sim -q $(sw 8) --comm-groups g.json -F json --json-collectives none s.etz
	[ "$(echo "$output" | jq -c .collectives)" = "[]" ]
	run et-sim $(sw 8) --comm-groups g.json --json-collectives 3 s.etz
	assert_failure 2
	assert_output --partial "et-sim: --json-collectives needs --format json"
	run et-sim $(sw 8) --comm-groups g.json -F json --json-collectives 3-x s.etz
	assert_failure 2
	assert_output --partial "--json-collectives 3-x: expected a rank list (0-3,7) or 'none'"
}

# many N: two identical ranks of N all-reduces, each on a group of its
# own (pg names 1..N), and the groups' file
many() {
	awk -v n="$1" 'BEGIN {
		for (r = 0; r < 2; r++) {
			printf "{\"rank\":%d,\"world_size\":2,\"name\":\"many\",\"metadata\":{\"version\":\"0.0.4\"}}\n", r
			for (i = 0; i < n; i++) {
				printf "{\"id\":%d,\"name\":\"c%d\",\"type\":\"COMM_COLL_NODE\"", i, i
				if (i) printf ",\"ctrlDeps\":[%d]", i - 1
				printf ",\"attr\":[{\"name\":\"comm_type\",\"int64Val\":1},{\"name\":\"comm_size\",\"int64Val\":1024},{\"name\":\"pg_name\",\"stringVal\":\"%d\"}]}\n", i + 1
			}
		}
	}' >many.jsonl
	awk -v n="$1" 'BEGIN { printf "{"; for (i = 1; i <= n; i++) printf "%s\"%d\":[0,1]", (i > 1 ? "," : ""), i; print "}" }' >many_g.json
}

@test "fold: a rank with 65,536 distinct pg names folds; with one more, -v says why every rank is simulated" {
	many 65536
	run et-sim -v --comm-groups many_g.json -F json -o f.json many.jsonl
	assert_success
	[ "$(jq .simulated_ranks f.json)" = 1 ]
	many 65537
	run et-sim -v --comm-groups many_g.json -F json -o f.json many.jsonl
	assert_success
	[ "$(jq .simulated_ranks f.json)" = 2 ]
	assert_output --partial "every rank simulated: rank 0 has more than 65536 distinct pg names and peers"
}

@test "fold: -v names the rank whose comm group is not defined" {
	many 2
	echo '{"1": [0, 1]}' >one_g.json
	run et-sim -v --comm-groups one_g.json many.jsonl
	assert_failure 2
	assert_output --partial "et-sim: every rank simulated: rank 0 uses a comm group that is not defined"
	assert_output --partial "communicator group '2' is not defined in the comm-group file"
}

@test "fold: 4,096 ranks that do not fold get a warning (with --no-fold, or fewer ranks, none)" {
	# distinct N: N ranks, rank r one COMP node of r + 1 us: every rank a class
	distinct() {
		awk -v n="$1" 'BEGIN { for (r = 0; r < n; r++) {
			printf "{\"rank\":%d,\"world_size\":%d,\"name\":\"w\",\"metadata\":{\"version\":\"0.0.4\"}}\n", r, n
			printf "{\"id\":0,\"name\":\"c\",\"type\":\"COMP_NODE\",\"durationMicros\":%d}\n", r + 1 } }' >d.jsonl
	}
	distinct 4096
	run et-sim -o r.txt d.jsonl
	assert_success
	assert_output "et-sim: warning: simulating every one of the 4096 ranks: they do not fold into fewer classes on this network (-v says why; a network whose groups look alike from every member, such as Switch dimensions, folds an et-stage plan to its stages)"
	run et-sim -v -o r.txt d.jsonl
	assert_output --partial "every rank simulated: every rank is a class of its own"
	run et-sim --no-fold -o r.txt d.jsonl
	assert_success
	assert_output ""
	distinct 4095
	run et-sim -o r.txt d.jsonl
	assert_success
	assert_output ""
}

@test "fold: the aware backend simulates every rank" {
	et-stage -q "${M[@]}" --dp 2 --tp 2 --pp 2 --write-comm-groups g.json -o s.etz
	run et-sim --backend aware $(sw 8) --comm-groups g.json -F json s.etz
	assert_success
	assert_output --partial '"folded":false,"simulated_ranks":8,'
}

# An unfolded run held a collective counter per comm group for every
# simulated rank: 16,384 ranks x 8,193 groups x 4 bytes, 537 MB, where each
# rank uses one group. Now the counters are per (rank, group used), and the
# run fits in 250 MB of address space (the limit is off under sanitizers).
@test "--no-fold: 16,384 ranks in 8,192 comm groups need no counter per rank and group" {
	et-synth coll --type all_reduce --size 1M --world 16384 --group-size 2 --ids local \
		--write-comm-groups q.json -o q.etz
	run --separate-stderr bash -c "$(ulimit_v 250000)exec et-sim --no-fold -F json --comm-groups q.json q.etz"
	assert_success
	echo "$output" >u.json
	[ "$(jq .simulated_ranks u.json)" = 16384 ]
	# every pair finishes as the same all-reduce in a world of two ranks
	et-synth coll --type all_reduce --size 1M --world 2 --ids local -o q2.etz
	want=$(et-sim -F json q2.etz | jq -c '[.per_rank[].finish_ns] | unique')
	[ "$want" = "$(jq -c '[.per_rank[].finish_ns] | unique' u.json)" ]
	[ "$(jq '.per_rank | length' u.json)" = 16384 ]
}
