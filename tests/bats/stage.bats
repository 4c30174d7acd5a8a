#!/usr/bin/env bats
# et-stage --compat stage: STAGE's figures, rank by rank. The expected numbers
# are the worked examples of doc/stage.md (STAGE's own output) and the
# formulas of the spec written independently in tests/stage/oracle.awk; the
# figures of a trace come from et-convert --to jsonl through
# tests/stage/figures.jq.
load common
load ../stage/aware

ORACLE="$REPO/tests/stage/oracle.awk"
FIGS="$REPO/tests/stage/figures.jq"
STRICT="$REPO/tests/stage/strict.jq"

figures() { et-convert --to jsonl "$@" | jq -rn -f "$FIGS"; }
# rank R deps N ctrl N ts N: data dependencies, control dependencies other than
# the chain of each group's collectives, COMP tensor_size sum
strict() { et-convert --to jsonl "$@" | jq -rn -f "$STRICT"; }

# The spec's GPT example (dp 2, tp 2, pp 2, 4 layers) with extra flags.
gpt_example() {
	et-stage --compat stage --model_type gpt --dp 2 --tp 2 --pp 2 --sp 1 --weight_sharded 0 \
		--num_stacks 4 --dmodel 512 --dff 2048 --head 8 --kvhead 8 --seq 128 --batch 8 \
		--micro_batch 2 --dvocal 32000 "$@"
}

# check ARCH L D F H KV V S B MB dp tp cp pp fsdp tpsp [ep E K [mixed]]: every
# rank's figures are the oracle's for its stage, and the set validates and
# simulates. mixed (--mixed_precision) defaults to 1 for llama, 0 otherwise.
check() {
	local arch=$1 L=$2 D=$3 F=$4 H=$5 KV=$6 V=$7 S=$8 B=$9 MB=${10} dp=${11} tp=${12} \
		cp=${13} pp=${14} fsdp=${15} tpsp=${16} ep=${17:-1} E=${18:-8} K=${19:-2} mixed=${20:-0}
	local mix=false tpf=true
	[ "$arch" = llama ] && mixed=1
	[ "$mixed" = 1 ] && mix=true
	[ "$tpsp" = 0 ] && tpf=false
	et-stage --compat stage --model_type "$arch" --mixed_precision $mix --num_stacks "$L" \
		--dmodel "$D" --dff "$F" --head "$H" --kvhead "$KV" --dvocal "$V" --seq "$S" \
		--batch "$B" --micro_batch "$MB" --dp "$dp" --tp "$tp" --sp "$cp" --pp "$pp" \
		--ep "$ep" --experts "$E" --kexperts "$K" \
		--weight_sharded "$fsdp" --tpsp $tpf --write-comm-groups g.json -o x.etz
	figures x.etz >got
	awk -v arch="$arch" -v L="$L" -v D="$D" -v F="$F" -v H="$H" -v KV="$KV" -v V="$V" \
		-v S="$S" -v B="$B" -v MB="$MB" -v dp="$dp" -v tp="$tp" -v cp="$cp" -v pp="$pp" \
		-v fsdp="$fsdp" -v tpsp="$tpsp" -v ep="$ep" -v E="$E" -v K="$K" -v mixed="$mixed" \
		-f "$ORACLE" >want
	local per=$((dp * tp * cp)) n=0
	# dense models fold ep into tp (STAGE's tp·ep); MoE has its own dimension
	per=$((per * ep))
	[ "$(wc -l <got)" -eq $((per * pp)) ] || fail "$* : $(wc -l <got) ranks"
	while read -r _ r rest; do
		w=$(sed -n "$((r / per + 1))p" want | cut -d' ' -f3-)
		[ "$rest" = "$w" ] || fail "$* : rank $r: got  $rest
want $w"
		n=$((n + 1))
	done <got
	# the strict figures: data and control dependencies, COMP tensor sizes
	strict x.etz >got
	awk -v strict=1 -v arch="$arch" -v L="$L" -v D="$D" -v F="$F" -v H="$H" -v KV="$KV" \
		-v V="$V" -v S="$S" -v B="$B" -v MB="$MB" -v dp="$dp" -v tp="$tp" -v cp="$cp" \
		-v pp="$pp" -v fsdp="$fsdp" -v tpsp="$tpsp" -v ep="$ep" -v E="$E" -v K="$K" \
		-v mixed="$mixed" -f "$ORACLE" >want
	while read -r _ r rest; do
		w=$(sed -n "$((r / per + 1))p" want | cut -d' ' -f3-)
		[ "$rest" = "$w" ] || fail "$* : rank $r strict: got  $rest
want $w"
	done <got
	et-validate --comm-groups g.json x.etz >/dev/null || fail "$* : et-validate"
	et-sim --comm-groups g.json x.etz >/dev/null || fail "$* : et-sim"
	# each group's collectives in one chain; both backends simulate it
	aware_checks $((per * pp)) "$*"
}

@test "the spec's GPT example (TP+SP): STAGE's figures on every rank of both stages" {
	gpt_example -o x.etz
	run figures x.etz
	assert_success
	s0="COMP 250 COLL 90 SEND 4 RECV 4 | op A 20578304 CUSTOM 25034752 E 5242880 M 17414750208 SLICE 2097152 | coll ALL_GATHER 48 1572864 ALL_REDUCE 10 45350912 REDUCE_SCATTER 32 2097152 | send 4 131072 recv 4 131072"
	s1="COMP 258 COLL 90 SEND 4 RECV 4 | op A 20578304 CUSTOM 25034752 E 6553600 M 17414750208 SLICE 2097152 | coll ALL_GATHER 48 1572864 ALL_REDUCE 10 45350912 REDUCE_SCATTER 32 2097152 | send 4 131072 recv 4 131072"
	for r in 0 1 2 3; do assert_line "rank $r $s0"; done
	for r in 4 5 6 7; do assert_line "rank $r $s1"; done
	[ "${#lines[@]}" -eq 8 ]
}

@test "the spec's GPT example with --tpsp false (TP-only templates)" {
	gpt_example --tpsp false -o x.etz
	run figures x.etz
	assert_line "rank 0 COMP 250 COLL 45 SEND 4 RECV 4 | op A 13434880 CUSTOM 16842752 E 10485760 M 17414750208 SLICE 2097152 | coll ALL_REDUCE 45 23134208 | send 4 262144 recv 4 262144"
	assert_line "rank 7 COMP 258 COLL 49 SEND 4 RECV 4 | op A 13434880 CUSTOM 16842752 E 13107200 M 17414750208 SLICE 2097152 | coll ALL_GATHER 4 131072 ALL_REDUCE 45 39256064 | send 4 262144 recv 4 262144"
}

@test "the spec's MoE example: every rank's figures and the 12 comm groups" {
	et-stage --compat stage --model_type moe --dp 2 --tp 1 --pp 1 --sp 1 --ep 2 --experts 4 \
		--kexperts 2 --weight_sharded 0 --num_stacks 2 --dmodel 512 --dff 1024 --head 8 \
		--kvhead 8 --seq 128 --batch 4 --micro_batch 2 --dvocal 32000 --output_dir out
	run figures out/workload
	for r in 0 1 2 3; do
		assert_line "rank $r COMP 272 COLL 34 SEND 0 RECV 0 | op A 40240128 B 786432 CUSTOM 44565504 E 6553600 E2 1310720 M 27582791680 R 2048 SLICE 4195328 | coll ALL_GATHER 12 264192 ALL_REDUCE 6 45352960 ALL_TO_ALL 16 1048576 | send 0 0 recv 0 0"
	done
	run jq -r '[.[] | length] | group_by(.) | map("\(.[0]):\(length)") | join(" ")' out/workload.json
	assert_output "1:8 2:4"
	et-validate --comm-groups out/workload.json out/workload >/dev/null
	et-sim --comm-groups out/workload.json out/workload >/dev/null
}

# The figures below are STAGE's own output (astra-sim/stage at 9ec6c02, main.py run with
# these flags), counted with tests/stage/figures.jq and strict.jq: independent of et-stage.
@test "STAGE's edges and tensor sizes on the spec's GPT example: 469/485 data deps, no control deps but the collectives' chain" {
	gpt_example -o x.etz
	run strict x.etz
	assert_success
	for r in 0 1 2 3; do assert_line "rank $r deps 469 ctrl 0 ts 135987200"; done
	for r in 4 5 6 7; do assert_line "rank $r deps 485 ctrl 0 ts 136249344"; done
	gpt_example --tpsp false -o y.etz
	run strict y.etz
	for r in 0 1 2 3; do assert_line "rank $r deps 424 ctrl 0 ts 89063424"; done
	for r in 4 5 6 7; do assert_line "rank $r deps 444 ctrl 0 ts 97648640"; done
}

# STAGE's Llama (--mixed_precision true) with context parallelism (--sp 2): the
# kernel makes dk and dv for all H heads on the whole sequence, so each cp
# reduce-scatter moves cp.Tq.D/tp elements, not the KV heads' share.
llama_cp() {
	et-stage --compat stage --model_type llama --mixed_precision true --dp 2 --tp 2 --sp 2 \
		--num_stacks 2 --dmodel 512 --dff 1536 --head 8 --kvhead 2 --seq 128 --batch 4 \
		--micro_batch 2 --dvocal 32000 "$@"
}

@test "STAGE's Llama with cp 2: every rank's REDUCE_SCATTER sum, edges and tensor sizes" {
	llama_cp --pp 1 -o x.etz
	run figures x.etz
	assert_success
	for r in 0 1 2 3 4 5 6 7; do
		assert_line "rank $r COMP 176 COLL 70 SEND 0 RECV 0 | op A 36175872 CUSTOM 37158912 E 1638400 M 7449673728 SLICE 262144 | coll ALL_GATHER 32 425984 ALL_REDUCE 14 110362624 REDUCE_SCATTER 24 786432 | send 0 0 recv 0 0"
	done
	run strict x.etz
	for r in 0 1 2 3 4 5 6 7; do assert_line "rank $r deps 334 ctrl 0 ts 150667264"; done
	llama_cp --pp 2 --weight_sharded 1 -o y.etz
	run figures y.etz
	[ "$(grep -c 'REDUCE_SCATTER 14 3407872 ' <<<"$output")" -eq 16 ]
	run strict y.etz
	for r in 0 1 2 3 4 5 6 7; do assert_line "rank $r deps 185 ctrl 0 ts 73793536"; done
	for r in 8 9 10 11 12 13 14 15; do assert_line "rank $r deps 193 ctrl 0 ts 73859072"; done
}

@test "STAGE's edges with everything at once: GPT dp 2, tp 2, cp 2, FSDP, out_emb on stage 0 of 2" {
	et-stage --compat stage --model_type gpt --dp 2 --tp 2 --pp 2 --sp 2 --weight_sharded 1 \
		--num_stacks 3 --dmodel 128 --dff 256 --head 4 --kvhead 4 --seq 32 --batch 4 \
		--micro_batch 2 --dvocal 100 -o x.etz
	run strict x.etz
	for r in 0 1 2 3 4 5 6 7; do assert_line "rank $r deps 310 ctrl 0 ts 662656"; done
	for r in 8 9 10 11 12 13 14 15; do assert_line "rank $r deps 143 ctrl 0 ts 274432"; done
	run figures x.etz
	assert_line "rank 0 COMP 140 COLL 78 SEND 4 RECV 4 | op A 107520 CUSTOM 177152 E 102400 M 13811712 SLICE 32768 | coll ALL_GATHER 40 294912 ALL_REDUCE 10 338944 REDUCE_SCATTER 28 311296 | send 4 4096 recv 4 4096"
	assert_line "rank 8 COMP 60 COLL 36 SEND 4 RECV 4 | op A 40960 CUSTOM 75776 E 40960 M 6291456 SLICE 16384 | coll ALL_GATHER 20 147456 ALL_REDUCE 2 131072 REDUCE_SCATTER 14 155648 | send 4 4096 recv 4 4096"
}

@test "STAGE's MoE edges and tensor sizes: the spec's example and tp 2, pp 2 with mixed precision" {
	et-stage --compat stage --model_type moe --dp 2 --tp 1 --pp 1 --sp 1 --ep 2 --experts 4 \
		--kexperts 2 --weight_sharded 0 --num_stacks 2 --dmodel 512 --dff 1024 --head 8 \
		--kvhead 8 --seq 128 --batch 4 --micro_batch 2 --dvocal 32000 -o x.etz
	run strict x.etz
	for r in 0 1 2 3; do assert_line "rank $r deps 418 ctrl 0 ts 185212928"; done
	et-stage --compat stage --model_type moe --dp 1 --tp 2 --pp 2 --sp 1 --ep 2 --experts 4 \
		--kexperts 2 --num_stacks 2 --dmodel 256 --dff 512 --head 4 --kvhead 2 --seq 64 \
		--batch 4 --micro_batch 2 --dvocal 1000 --mixed_precision true -o y.etz
	run strict y.etz
	for r in 0 1 2 3; do assert_line "rank $r deps 235 ctrl 0 ts 4070400"; done
	for r in 4 5 6 7; do assert_line "rank $r deps 243 ctrl 0 ts 4135936"; done
	# cp 2 and FSDP with ep 2
	et-stage --compat stage --model_type moe --dp 2 --tp 1 --pp 1 --sp 2 --ep 2 --experts 4 \
		--kexperts 2 --weight_sharded 1 --num_stacks 2 --dmodel 64 --dff 128 --head 4 \
		--kvhead 2 --seq 32 --batch 8 --micro_batch 4 --dvocal 100 -o z.etz
	run strict z.etz
	for r in 0 1 2 3 4 5 6 7; do assert_line "rank $r deps 496 ctrl 0 ts 704384"; done
}

@test "STAGE's flags: --output_dir D writes D/workload.<rank>.et and D/workload.json as STAGE does" {
	gpt_example --output_dir out
	run ls out
	assert_output "$(printf 'workload.%d.et\n' 0 1 2 3 4 5 6 7 | sort; echo workload.json)"
	# the spec's example, size-1 groups included
	run cat out/workload.json
	assert_output '{"1": [0, 1], "2": [2, 3], "3": [4, 5], "4": [6, 7], "5": [0, 2], "6": [1, 3], "7": [4, 6], "8": [5, 7], "9": [0], "10": [2], "11": [1], "12": [3], "13": [4], "14": [6], "15": [5], "16": [7]}'
	# a raw ET per rank, the same as the stream's ranks
	gpt_example -o x.etz
	et-convert --to et --split y x.etz
	for r in 0 1 2 3 4 5 6 7; do cmp out/workload.$r.et y.$r.et; done
	gpt_example --output_dir o2 --output_name 'trace.%d.et'
	[ -f o2/trace.7.et ] && [ -f o2/trace.json ]
	gpt_example --output_dir o3 --output_name trace
	[ -f o3/trace.0.et ] && [ -f o3/trace.json ]
	run -2 gpt_example --output_dir o4 --output_name 'trace_%d.et'
	assert_output --partial "--output_name: et-stage writes NAME.%d.et"
	run gpt_example --output_dir o5 --activation_recompute true
	assert_success
	assert_output --partial "warning: --activation_recompute is accepted and ignored"
}

@test "STAGE's formulas hold rank by rank: GPT, TP-only, Llama, FSDP, cp, uneven and misplaced pipelines" {
	#     arch  L  D    F    H  KV V     S   B  MB dp tp cp pp fsdp tpsp
	check gpt   4  512  2048 8  8  32000 128 8  2  2  2  1  2  0    1
	check gpt   5  256  1024 8  8  1000  64  8  2  2  2  2  2  1    1 # out_emb on stage 0
	check gpt   6  256  1024 4  4  1000  64  8  8  2  4  2  4  1    0 # out_emb on stage 1
	check gpt   3  128  512  4  4  300   32  4  4  1  4  1  1  0    1 # TP only
	check gpt   7  128  512  8  8  300   64  12 6  3  1  1  3  0    1 # dp only, 3 stages
	check gpt   2  128  256  4  4  500   64  4  2  2  1  4  1  1    1 # cp 4, FSDP
	check llama 6  512  1536 8  2  1000  128 8  4  2  2  2  4  0    1
	check llama 3  256  768  8  4  500   64  4  4  1  4  1  3  1    1
	check llama 4  256  512  8  8  128   32  16 8  4  2  1  2  1    1
	check llama 9  128  384  4  1  64    32  6  3  1  1  2  4  0    1
}

@test "STAGE's MoE spreadsheets hold rank by rank: K, E/ep, tp, cp, ep, FSDP, pipelines, precision" {
	#     arch L D   F   H KV V   S  B  MB dp tp cp pp fsdp tpsp ep E  K mixed
	check moe  2 512 1024 8 8 32000 128 4 2 2 1 1 1 0 1 2 4 2 # the spec's example
	check moe  2 128 256 4 2 100 32 4 2 1 2 1 1 0 1 2 8 1       # top-1, tp 2, 4 local experts
	check moe  3 64  128 4 4 100 32 8 4 2 2 2 1 0 1 2 4 4       # top-4, cp 2
	check moe  2 64  192 4 2 100 16 4 2 1 1 1 1 1 1 4 4 2       # one local expert, FSDP over dp 1
	check moe  3 64  128 4 4 100 32 8 4 2 1 1 2 1 1 2 4 2       # FSDP, pp 2: out_emb on stage 0
	check moe  3 64  128 4 4 100 32 8 4 2 1 1 2 0 1 2 4 2 1     # mixed precision: the last stage
	check moe  4 64  128 8 2 100 32 8 4 1 2 1 2 0 1 1 2 2       # ep 1, tp 2, GQA
	check gpt  5 128 512 4 4 300 32 4 2 1 2 1 2 0 1 1 8 2 1     # GPT with mixed precision: last stage
}

@test "summed over ranks, matrix num_ops are 3·N·T (Llama: plus the SwiGLU products 3·T·L·F)" {
	# GPT: N = L(4D² + 2DF) + 2VD
	et-stage --compat stage --model_type gpt --num_stacks 6 --dmodel 256 --dff 1024 --head 8 \
		--kvhead 8 --dvocal 1000 --seq 64 --batch 16 --micro_batch 8 --dp 2 --tp 2 --sp 2 \
		--pp 3 --weight_sharded 1 -o x.etz
	got=$(et-convert --to jsonl x.etz | jq -n '[inputs | select(.attr) | .attr as $a |
		select(($a | map(select(.name == "op_type"))[0].stringVal) == "M") |
		($a | map(select(.name == "num_ops"))[0].int64Val | tonumber)] | add')
	N=$((6 * (4 * 256 * 256 + 2 * 256 * 1024) + 2 * 1000 * 256)) T=$((16 * 64))
	[ "$got" -eq $((3 * N * T)) ] || fail "GPT: $got, expected $((3 * N * T))"
	# Llama (GQA 8/2): N = L(D²(H+2KV)/H + D² + 3DF) + 2VD
	et-stage --compat stage --model_type llama --mixed_precision true --num_stacks 4 \
		--dmodel 256 --dff 768 --head 8 --kvhead 2 --dvocal 500 --seq 64 --batch 8 \
		--micro_batch 4 --dp 2 --tp 2 --pp 2 -o y.etz
	got=$(et-convert --to jsonl y.etz | jq -n '[inputs | select(.attr) | .attr as $a |
		select(($a | map(select(.name == "op_type"))[0].stringVal) == "M") |
		($a | map(select(.name == "num_ops"))[0].int64Val | tonumber)] | add')
	N=$((4 * (256 * 256 * 12 / 8 + 256 * 256 + 3 * 256 * 768) + 2 * 500 * 256)) T=$((8 * 64))
	want=$((3 * N * T + 3 * T * 4 * 768))
	[ "$got" -eq "$want" ] || fail "Llama: $got, expected $want"
}

@test "comm groups: each rank in exactly one group per dimension, ranks/|X| groups per dimension" {
	et-stage --compat stage --model_type moe --num_stacks 2 --dmodel 64 --dff 128 --head 4 \
		--kvhead 4 --experts 4 --dvocal 100 --seq 16 --batch 12 --dp 3 --tp 2 --sp 2 --ep 2 \
		--pp 2 --write-comm-groups g.json -o x.etz
	# 48 ranks: 16 dp groups of 3, 24 tp of 2, 24 cp of 2, 24 ep of 2, ids 1..88
	run jq -r 'keys | map(tonumber) | sort | "\(length) \(.[0]) \(.[-1])"' g.json
	assert_output "88 1 88"
	run jq -r '[to_entries[] | .value | length] | "\(.[0:16] | unique) \(.[16:] | unique)"' g.json
	assert_output "[3] [2]"
	# every rank once in the dp groups, and once in each other dimension's
	for range in '0:16' '16:40' '40:64' '64:88'; do
		run jq -r "[to_entries | sort_by(.key | tonumber) | .[$range][] | .value[]] | sort | . == [range(48)]" g.json
		assert_output true
	done
	et-validate --comm-groups g.json x.etz >/dev/null
}

@test "--ranks: disjoint shards, and cat of the shards is the whole stream byte for byte" {
	args=(--compat stage --model_type gpt --num_stacks 6 --dmodel 256 --dff 1024 --head 4
		--kvhead 4 --dvocal 1000 --seq 64 --batch 8 --micro_batch 4 --dp 2 --tp 2 --sp 2 --pp 4)
	et-stage "${args[@]}" -o all.etz
	et-stage "${args[@]}" --ranks 0-6 -o a.etz
	et-stage "${args[@]}" --ranks 7-20 -o b.etz
	et-stage "${args[@]}" --ranks 21-31 -o c.etz
	cat a.etz b.etz c.etz | cmp - all.etz
	run et-convert --to jsonl b.etz
	[ "$(echo "$output" | jq -r 'select(.world_size) | .rank' | tr '\n' ' ')" = \
		"7 8 9 10 11 12 13 14 15 16 17 18 19 20 " ]
	run -2 et-stage "${args[@]}" --ranks 40-50 -o d.etz
	assert_output --partial "no rank of the 32 matches"
	[ ! -e d.etz ]
}

@test "same seed, same bytes; another seed changes only comm_tag" {
	gpt_example -o a.etz
	gpt_example -o b.etz
	cmp a.etz b.etz
	gpt_example --seed 7 -o c.etz
	! cmp -s a.etz c.etz
	diff <(et-convert --to jsonl a.etz | jq -c 'del(.attr[]? | select(.name == "comm_tag"))') \
		<(et-convert --to jsonl c.etz | jq -c 'del(.attr[]? | select(.name == "comm_tag"))')
}

@test "a fractional per-rank micro-batch (STAGE accepts it) still validates and simulates" {
	et-stage --compat stage --model_type gpt --num_stacks 2 --dmodel 128 --dff 512 --head 4 \
		--kvhead 4 --dvocal 100 --seq 32 --batch 4 --micro_batch 2 --dp 4 --tp 2 \
		--write-comm-groups g.json -o x.etz
	et-validate --comm-groups g.json x.etz >/dev/null
	et-sim --comm-groups g.json x.etz >/dev/null
}

@test "bad plans are usage errors that say what divides what" {
	run -2 et-stage --compat stage --num_stacks 2 --head 8 --tp 3
	assert_output --partial "tp 3 does not divide the 8 heads"
	run -2 et-stage --compat stage --num_stacks 2 --batch 10 --micro_batch 4
	assert_output --partial "the global batch 10 is not a multiple of the global micro-batch 4"
	run -2 et-stage --compat stage --num_stacks 2 --dp 2 --tp 2 --world 8
	assert_output --partial "--world 8: the plan has 4 ranks"
	run -2 et-stage --compat stage --num_stacks 2 --pp 4
	assert_output --partial "pp 4 is more than the 2 layers"
	run -2 et-stage --compat stage --model_type moe --experts 6 --ep 4 --num_stacks 1
	assert_output --partial "ep 4 does not divide the 6 experts"
	run -2 et-stage --compat stage --num_stacks 2 --schedule 1f1b
	assert_output --partial "--schedule is a physical-mode option: not with --compat stage"
	run -2 et-stage --compat stage --model gpt5
	assert_output --partial "unknown model 'gpt5'"
	run -2 et-stage --compat stage --weight_sharded maybe
	assert_output --partial "expected true or false"
}

@test "--list-models prints the presets with their dimensions; a preset's dimensions can be overridden" {
	run et-stage --list-models
	assert_success
	for m in gpt3-175b llama2-7b llama2-70b llama3-8b llama3-70b llama3-405b mixtral-8x7b; do
		assert_line --regexp "^$m "
	done
	assert_line --regexp '^llama3-405b +llama +126 +16384 +53248 +128 +8 +128256 '
	et-stage --compat stage --model llama3-8b --layers 2 --seq 64 --global-batch 2 --vocab 64 \
		--tp 2 --pp 2 -o x.etz
	run et-convert --to jsonl x.etz
	assert_line --partial '"name":"mb0.transformer.1.mha.qkv@0_COMP"'
	refute_line --partial 'transformer.2.'
	[ "$(echo "$output" | jq -r 'select(.world_size) | .name' | sort -u)" = llama3-8b ]
}

@test "one pipeline writes the comm groups and checks with them: et-validate reads the file when the first rank arrives" {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rm -f p.json
		et-stage --model llama2-7b --layers 2 --seq 64 --dp 2 --tp 2 --write-comm-groups p.json |
			et-validate --comm-groups p.json >out || fail "run $i: $(cat out)"
	done
	assert_equal "$(tail -1 out)" "0 errors, 0 warnings, 0 info: OK"
	# a missing file is still an error that names it
	et-stage --model llama2-7b --layers 2 --seq 64 --dp 2 -o x.etz
	run -4 et-validate --comm-groups nowhere.json x.etz
	assert_output --partial "nowhere.json"
}
