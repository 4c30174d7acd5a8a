#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# No flag is accepted and silently dropped: each either changes what a run
# writes (standard output and every file it makes) or says on standard
# error that it is ignored, naming itself. The flags come from the tools
# (--help-table-all lists every accepted option, hidden ones too) and, for
# et-stage, from STAGE's main.py, so a new flag that is neither walked here
# nor in an allow-list with its reason fails the walk.
load common

# probe DIR CMD...: runs CMD in a fresh folder DIR (stderr in DIR.err, exit
# status in DIR.rc) and prints one digest of its stdout and every file it
# made, names included.
probe() {
	local d=$1
	shift
	mkdir "$d"
	(cd "$d" && "$@" >.stdout 2>"../$d.err")
	echo $? >"$d.rc"
	(cd "$d" && find . -type f | LC_ALL=C sort | xargs sha256sum) | sha256sum | cut -c1-16
}

# names FLAG FILE: FILE mentions --flag as a word of its own
names() {
	grep -qE -- "$1([^a-z0-9_-]|\$)" "$2"
}

# effect TAG "BASE ..." "ARGS ...": the run with ARGS appended either writes
# other bytes than the run without, or names ARGS' first word on stderr (a
# warning, or the usage error that refuses it). A refusal must name it.
# Prints the verdict; returns 1 when the flag was silently dropped.
effect() {
	local tag=$1 base=$2 args=$3 flag
	flag=${args%% *}
	local a b
	# shellcheck disable=SC2086 # the words of base and args are the command
	a=$(probe "$tag.0" $base)
	# shellcheck disable=SC2086
	b=$(probe "$tag.1" $base $args)
	local rc0 rc1
	rc0=$(cat "$tag.0.rc") rc1=$(cat "$tag.1.rc")
	# a crash is no effect (the suite's exit codes are 0 to 4)
	if [ "$rc1" -gt 4 ] || grep -qE 'Sanitizer|runtime error:' "$tag.1.err"; then
		echo "$tag: $base $args: crashed (exit $rc1): $(cat "$tag.1.err")"
		return 1
	fi
	# a usage error must say which option it refuses; another exit status
	# (a check failed, a limit was hit, or what failed without the option
	# works with it: --comm-groups, --force-schema) is the option at work
	if [ "$rc1" = 2 ] && [ "$rc0" != 2 ]; then
		names "$flag" "$tag.1.err" && return 0
		echo "$tag: $base $args: exit 2 without naming $flag: $(cat "$tag.1.err")"
		return 1
	fi
	[ "$rc0" = "$rc1" ] || return 0
	[ "$rc0" = 0 ] || {
		echo "$tag: both runs failed: $base: $(cat "$tag.0.err")"
		return 1
	}
	[ "$a" != "$b" ] && return 0
	names "$flag" "$tag.1.err" && grep -q warning "$tag.1.err" && return 0
	echo "$tag: $base $args: same output, no warning naming $flag"
	return 1
}

# STAGE's main.py flags (astra-sim/stage, main.py's argparse; see
# doc/stage.md), each with a value that is not STAGE's
# default nor the base run's.
STAGE_FLAGS=(
	"--output_dir out"
	"--output_name foo"
	"--dp 4"
	"--tp 4"
	"--sp 2"
	"--ep 2"
	"--pp 4"
	"--weight_sharded true"
	"--activation_recompute true"
	"--tpsp false"
	"--dvocal 500"
	"--dmodel 256"
	"--dff 512"
	"--batch 16"
	"--micro_batch 4"
	"--seq 32"
	"--head 16"
	"--kvhead 2"
	"--num_stacks 6"
	"--experts 4"
	"--kexperts 1"
	"--chakra_schema_version v0.0.5"
	"--model_type llama"
	"--mixed_precision true"
	"--print_gpu_vram true"
)

# The base plan: GPT (STAGE's default dense without mixed precision), every
# dimension that a flag can change above 1, small enough to be quick.
STAGE_BASE="--dp 2 --tp 2 --pp 2 --num_stacks 4 --dmodel 128 --dff 256 --head 8 --kvhead 8
	--dvocal 100 --seq 16 --batch 8 --micro_batch 2"

stage_walk() { # MODE-ARGS...
	local bad=0 i=0 f base
	for f in "${STAGE_FLAGS[@]}"; do
		i=$((i + 1))
		base="et-stage $* $STAGE_BASE"
		# --output_name needs --output_dir: compare both with it
		[ "${f%% *}" = --output_name ] && base="$base --output_dir out"
		# STAGE's GPT graph has no per-head figure (its attention is one
		# fused kernel of 3·T·D/tp): the head count is only checked there
		# (tp divides it, it divides d_model), so it is walked on the Llama
		# graph, where the kv share D·KV/H depends on it
		[ "${f%% *}" = --head ] && [ "$1" = --compat ] &&
			base="$base --model_type llama --mixed_precision true"
		effect "s$i" "$base" "$f" || bad=1
	done
	return $bad
}

@test "STAGE's flag list is the one et-stage accepts under STAGE's names" {
	et-stage --help-table-all | cut -f3 >accepted
	for f in "${STAGE_FLAGS[@]}"; do
		grep -qx -- "${f%% *}" accepted || fail "et-stage does not accept STAGE's ${f%% *}"
	done
	[ "${#STAGE_FLAGS[@]}" = 25 ]
}

@test "every STAGE flag changes the output or warns, with --compat stage" {
	stage_walk --compat stage
}

@test "every STAGE flag changes the output or warns, in the physical mode" {
	stage_walk
}

# Σ num_ops of the matrix products (op_type M) over all ranks
msum() {
	et-convert --to jsonl "$1" | jq -n '[inputs | select(.attr) | .attr as $a |
		select(($a | map(select(.name == "op_type"))[0].stringVal) == "M") |
		($a | map(select(.name == "num_ops"))[0].int64Val | tonumber)] | add'
}

@test "physical mode: --arch and STAGE's --model_type build a Llama or MoE of any dimensions from flags alone" {
	local dims=(--layers 4 --d-model 256 --d-ff 768 --heads 8 --kv-heads 2 --vocab 500
		--seq 64 --global-batch 4 --tp 2 --flash-recompute off --name x)
	# Llama: GQA (Q and O D², K and V D·KV/H·D each), SwiGLU (3·D·F):
	# training FLOPs 6·T·(N_mm + L·S·D) (stage_phys.bats derives the formula)
	local L=4 D=256 F=768 H=8 KV=2 V=500 S=64 T=$((4 * 64)) N
	N=$((L * (D * D * (H + 2 * KV) / H + D * D + 3 * D * F) + V * D))
	for a in "--arch llama" "--model_type llama"; do
		# shellcheck disable=SC2086
		et-stage $a "${dims[@]}" -o l.etz
		[ "$(msum l.etz)" = $((6 * T * (N + L * S * D))) ] || fail "$a: Σ M $(msum l.etz)"
	done
	# the same bytes as the Llama presets give with these dimensions
	et-stage --model llama3-8b "${dims[@]}" -o p.etz
	cmp l.etz p.etz
	# MoE: the Llama attention, a D·E router, top-k SwiGLU experts per token
	local E=4 K=2
	N=$((L * (D * D * (H + 2 * KV) / H + D * D + D * E + K * 3 * D * F) + V * D))
	for a in "--arch moe" "--model_type moe"; do
		# shellcheck disable=SC2086
		et-stage $a --experts $E --top-k $K "${dims[@]}" -o m.etz
		[ "$(msum m.etz)" = $((6 * T * (N + L * S * D))) ] || fail "$a: Σ M $(msum m.etz)"
	done
	et-stage --model mixtral-8x7b --experts $E --top-k $K "${dims[@]}" -o p.etz
	cmp m.etz p.etz
	# GPT stays multi-head: other kv heads are a warning, not another graph
	run --separate-stderr et-stage --arch gpt "${dims[@]}" -o g.etz
	assert_success
	[[ $stderr == *"warning: --kv-heads (--kvhead) 2"* ]] || fail "no kv-heads warning: $stderr"
	run -2 et-stage --arch llama --model_type moe "${dims[@]}"
	assert_output --partial "--arch and --model_type: give one"
}

# --- (b) every tool's option table ----------------------------------------

# The inputs of the walk, in $W: a 4-rank all-reduce stream and its rank 0
# as a raw ET and as JSON, an et-stage plan with its comm groups, a small
# LayerDAG corpus (the first 24 graphs of the shipped one) and models.
make_inputs() {
	W=$PWD/in
	mkdir -p "$W"
	(
		cd "$W" || exit 1
		et-synth coll --type all_reduce --size 1M --world 4 --compute-us 5 -o ar.etz
		et-convert ar.etz --ranks 0 --to et -o r0.et
		et-convert ar.etz --to json -o ar.json
		et-stage --dp 2 --pp 2 --layers 2 --d-model 64 --d-ff 128 --heads 4 --vocab 100 \
			--seq 16 --write-comm-groups g.json -o st.etz
		# the same ranks without the comm groups the stream carries (raw
		# ETs have no place for them): for the options that supply them
		et-convert st.etz --split stp && et-convert stp -o st0.etz
		et-synth dag --nodes 40 --world 2 --cpu-fraction 0.3 -o dag.etz
		et-synth coll --type all_reduce --size 1M --world 8 -o ar8.etz
		sed 's/50.0/10.0/' "$DATA/astra-sim/network/Ring_4npus.yml" >ring4.yml
		et-synth coll --type broadcast --size 1M --world 4 -o bc.etz
		et-convert "$DATA/pytorch/simple-add-a100/host_et.json.gz" \
			--kineto "$DATA/pytorch/simple-add-a100/kineto.json.gz" -q -o pt.etz 2>/dev/null
		et-sim ar.etz --schedule ar.jsonl >/dev/null
		et-sim ar.etz --set bandwidth=10 --schedule ar2.jsonl >/dev/null
		zcat "$DATA/pytorch/pt2-1.1.1/host_et.json.gz" | sed 's/"1.1.1-chakra.0.0.4"/"9.9.9"/' >odd.json
		layerdag-sample fit dag.etz -q -o etm.txt
		zcat "$REPO/samples/layerdag/tpu_tile_val.txt.gz" | awk '/^g /{n++} n<=24' >corpus.txt
		layerdag-sample fit corpus.txt -q -o counts.txt
		layerdag-sample fit corpus.txt --model diffusion --epochs 1 -q -o diff.bin
		layerdag-sample sample counts.txt --y-from corpus.txt -o samples.txt
	)
}

# COMMAND|OPTION|CONTEXT|ARGS: the run "COMMAND CONTEXT ARGS" against the run
# "COMMAND CONTEXT" (see effect). OPTION is the long name, or -x for a
# letter alone. Each option is walked where it applies.
walk_table() {
	local S=$REPO/samples PT=$DATA/pytorch/simple-add-a100 HLO=$DATA/compiler
	local SB="--dp 2 --tp 2 --pp 2 --layers 4 --d-model 64 --d-ff 128 --heads 4 --kv-heads 4 --vocab 100 --seq 16"
	cat <<TABLE
et-stage|--compat|$SB|--compat stage
et-stage|--mode|$SB|--mode prefill
et-stage|--dtype|$SB|--dtype fp32
et-stage|--attention|$SB|--attention full
et-stage|--flash-recompute|$SB|--flash-recompute off
et-stage|--recompute|$SB|--recompute full
et-stage|--schedule|$SB|--schedule gpipe
et-stage|--virtual-stages|$SB --layers 8 --schedule interleaved|--virtual-stages 4
et-stage|--grad-buckets|$SB|--grad-buckets 1
et-stage|--capacity-factor|$SB --arch moe|--capacity-factor 1.5
et-stage|--context|$SB --mode decode|--context 8
et-stage|--new-tokens|$SB --mode decode|--new-tokens 2
et-stage|--model|$SB|--model llama3-8b
et-stage|--arch|$SB|--arch llama
et-stage|--list-models|$SB|--list-models
et-stage|--layers|$SB|--layers 6
et-stage|--d-model|$SB|--d-model 128
et-stage|--d-ff|$SB|--d-ff 256
et-stage|--heads|$SB|--heads 8
et-stage|--kv-heads|$SB --arch llama|--kv-heads 1
et-stage|--vocab|$SB|--vocab 200
et-stage|--seq|$SB|--seq 32
et-stage|--global-batch|$SB|--global-batch 16
et-stage|--micro-batch|$SB|--micro-batch 2
et-stage|--experts|$SB --arch moe|--experts 4
et-stage|--top-k|$SB --arch moe|--top-k 1
et-stage|--dp|$SB|--dp 4
et-stage|--tp|$SB|--tp 4
et-stage|--pp|$SB|--pp 4
et-stage|--cp|$SB|--cp 2
et-stage|--ep|$SB --arch moe|--ep 2
et-stage|--fsdp|$SB|--fsdp
et-stage|--sequence-parallel|$SB|--sequence-parallel off
et-stage|--world|$SB|--world 16
et-stage|--ranks|$SB|--ranks 0
et-stage|--write-comm-groups|$SB|--write-comm-groups cg.json
et-stage|--seed|$SB|--seed 2
et-stage|--no-classes|$SB|--no-classes
et-stage|--class-block|$SB|--class-block 4
et-convert|--to|$W/ar.etz|--to jsonl
et-convert|--split|$W/ar.etz|--split sp
et-convert|--name|$W/ar.etz|--name other
et-convert|--level|$W/st.etz|--level 19
et-convert|--all-fields|$W/ar.etz --to json|--all-fields
et-convert|--ranks|$W/ar.etz|--ranks 1
et-convert|--set-rank|$W/r0.et|--set-rank 3
et-convert|--world|$W/r0.et|--world 8
et-convert|--max-msg|$W/st.etz|--max-msg 10
et-convert|--max-rank-nodes|$W/st.etz|--max-rank-nodes 2
et-convert|--max-rank-bytes|$W/st.etz|--max-rank-bytes 100
et-convert|--kineto|$PT/host_et.json.gz|--kineto $PT/kineto.json.gz
et-convert|--compat|$PT/host_et.json.gz|--compat chakra
et-convert|--for|$DATA/pytorch/resnet-1.1.0/host_et.json.gz|--for astra-sim
et-convert|--write-comm-groups|$DATA/pytorch/cpu-gloo-mlp-2rank/host_et.0.json.gz|--write-comm-groups cg.json
et-convert|--allow-unlinked|$DATA/pytorch/dlrm-8rank/host_et.0.json.gz --kineto $DATA/pytorch/dlrm-8rank/kineto.1.json.gz|--allow-unlinked
et-convert|--force-schema|$W/odd.json|--force-schema
et-convert|--verbose|$PT/host_et.json.gz --kineto $PT/kineto.json.gz|--verbose
et-convert|--max-unroll|--from hlo $HLO/xla_llama3_8b_cp_bf16_1x4.hlo|--max-unroll 1
et-convert|--peak-tflops|--from hlo $HLO/xla_llama3_8b_cp_bf16_1x4.hlo --mem-gbps 100 --peak-tflops 5|--peak-tflops 10
et-convert|--mem-gbps|--from hlo $HLO/xla_llama3_8b_cp_bf16_1x4.hlo --peak-tflops 10 --mem-gbps 100|--mem-gbps 10
et-convert|--passes|--from astra-text $DATA/astra-text/microAllReduce.txt --world 4|--passes 2
et-validate|--for|$W/ar.etz|--for astra-sim
et-validate|--comm-groups|$W/st0.etz|--comm-groups $W/g.json
et-validate|--npus-count|$W/ar.etz|--npus-count 3
et-validate|--network|$W/ar.etz|--network $DATA/astra-sim/network/Ring_16npus.yml
et-validate|--format|$W/ar.etz|--format json
et-validate|--stats|$W/ar.etz|--stats
et-validate|--max-per-code|$W/st0.etz|--max-per-code 1
et-validate|--strict|$W/st0.etz|--strict
et-validate|--tee|$W/ar.etz|--tee
et-validate|--tee-always|$W/ar.etz|--tee-always
et-validate|--timing|$W/ar.etz|--timing
et-validate|--ranks|$W/ar.etz --stats|--ranks 1
et-validate|--set-rank|$W/r0.et --stats|--set-rank 3
et-validate|--world|$S/all_reduce_8/all_reduce|--world 4
et-validate|--max-msg|$W/st.etz|--max-msg 10
et-validate|--max-rank-nodes|$W/st.etz|--max-rank-nodes 2
et-validate|--max-rank-bytes|$W/st.etz|--max-rank-bytes 100
et-sim|--network|$W/ar.etz|--network $W/ring4.yml
et-sim|--system|$W/ar.etz|--system $DATA/astra-sim/system/HGX-H100-validated.json
et-sim|--comm-groups|$W/st0.etz|--comm-groups $W/g.json
et-sim|--backend|$W/ar.etz|--backend aware
et-sim|--logical-dims|$W/ar8.etz --backend aware --network $DATA/infragraph/star8.yaml|--logical-dims 2,4
et-sim|--set|$W/ar.etz|--set bandwidth=10
et-sim|--compute-model|$W/st.etz --comm-groups $W/g.json|--compute-model roofline
et-sim|--compute|$W/st.etz --comm-groups $W/g.json|--compute tpu-v4
et-sim|--simulate-collectives|$W/bc.etz|--simulate-collectives
et-sim|--no-closed-form|$W/ar.etz|--no-closed-form
et-sim|--slow|$W/st.etz --comm-groups $W/g.json|--slow 0=2
et-sim|--no-fold|$W/ar.etz|--no-fold
et-sim|--format|$W/ar.etz|--format json
et-sim|--json-collectives|$W/ar.etz --format json|--json-collectives none
et-sim|--calibrate|$DATA/hw/h100x8_dgxc_all_reduce.log|--calibrate
et-sim|--collective|--calibrate $DATA/hw/h100x8_dgxc_all_reduce.log|--collective all_gather
et-sim|--calib|--calibrate $DATA/hw/h100x8_dgxc_all_reduce.log|--calib $DATA/hw/h100x8_dgxc_all_reduce.log
et-sim|--astra-sim-log|$W/ar.etz|--astra-sim-log
et-sim|--schedule|$W/ar.etz|--schedule s.jsonl
et-sim|--link-stats|$W/ar.etz --backend aware|--link-stats l.csv
et-sim|--verbose|$W/ar.etz|--verbose
et-sim|--trace|$W/ar.etz|--trace t.json
et-sim|--critical-path|$W/ar.etz|--critical-path
et-sim|--sweep|$W/ar.etz|--sweep bandwidth=10,20
et-sim|--ranks|$W/ar.etz|--ranks 0-1
et-sim|--set-rank|$W/r0.et|--set-rank 3
et-sim|--world|$S/all_reduce_8/all_reduce|--world 4
et-sim|--max-msg|$W/ar.etz|--max-msg 10
et-sim|--max-rank-nodes|$W/ar.etz|--max-rank-nodes 1
et-sim|--max-rank-bytes|$W/ar.etz|--max-rank-bytes 100
et-viz|--format|$W/ar.etz|--format svg
et-viz|-T|$W/ar.etz|-T svg
et-viz|-t|$W/pt.etz|-t
et-viz|-c|$W/st.etz|-c .
et-viz|-s|--timeline --schedule $W/ar.jsonl|-s $W/ar2.jsonl
et-viz|--rank|$W/ar.etz|--rank 1
et-viz|--around|$W/st.etz --ranks 0|--around 5
et-viz|--depth|$W/st.etz --ranks 0 --around 5|--depth 1
et-viz|--hub|$W/st.etz --ranks 0 --around 5|--hub 1
et-viz|--ids|$W/st.etz --ranks 0|--ids 0-3
et-viz|--match|$W/st.etz --ranks 0|--match layer0
et-viz|--collapse|$W/st.etz --ranks 0|--collapse layer
et-viz|--critical-path|$W/st.etz --ranks 0|--critical-path
et-viz|--only-critical-path|$W/st.etz --ranks 0|--only-critical-path
et-viz|--max-nodes|$W/st.etz|--max-nodes 3
et-viz|--reduce|$W/dag.etz --ranks 0|--reduce
et-viz|--all-edges|$W/dag.etz --ranks 0 --reduce|--all-edges
et-viz|--link-collectives|$W/ar.etz|--link-collectives
et-viz|--cluster|$W/st.etz|--cluster none
et-viz|--rankdir|$W/ar.etz|--rankdir LR
et-viz|--no-legend|$W/ar.etz|--no-legend
et-viz|--timeline|$W/pt.etz|--timeline
et-viz|--schedule|--timeline --schedule $W/ar.jsonl|--schedule $W/ar2.jsonl
et-viz|--ranks|$W/ar.etz|--ranks 1
et-viz|--set-rank|$W/r0.et|--set-rank 3
et-viz|--world|$S/all_reduce_8/all_reduce|--world 4
et-viz|--max-msg|$W/st.etz|--max-msg 10
et-viz|--max-rank-nodes|$W/st.etz|--max-rank-nodes 2
et-viz|--max-rank-bytes|$W/st.etz|--max-rank-bytes 100
layerdag-sample fit|--model|$W/corpus.txt|--model diffusion --epochs 1
layerdag-sample fit|--buckets|$W/corpus.txt|--buckets 4
layerdag-sample fit|--seed|$W/corpus.txt --model diffusion --epochs 1|--seed 2
layerdag-sample fit|--epochs|$W/corpus.txt --model diffusion --epochs 1|--epochs 2
layerdag-sample fit|--window|$W/corpus.txt --model diffusion --epochs 1|--window 2
layerdag-sample sample|--count|$W/counts.txt --y 2.0|--count 3
layerdag-sample sample|-n|$W/counts.txt --y 2.0|-n 3
layerdag-sample sample|--y|$W/counts.txt|--y 5.0
layerdag-sample sample|--y-from|$W/counts.txt|--y-from $W/corpus.txt
layerdag-sample sample|--seed|$W/counts.txt --y 2.0|--seed 2
layerdag-sample sample|--format|$W/etm.txt --y 2.0|--format et
layerdag-sample sample|--world|$W/etm.txt --y 2.0 --format et|--world 2
layerdag-sample sample|--max-layers|$W/diff.bin --y 2.0|--max-layers 2
layerdag-sample eval|--format|$W/corpus.txt $W/samples.txt|--format json
et-synth coll|--type|--type all_reduce --size 1M --world 4|--type all_gather
et-synth coll|-t|--type all_reduce --size 1M --world 4|-t all_gather
et-synth coll|--size|--type all_reduce --size 1M --world 4|--size 2M
et-synth coll|--world|--type all_reduce --size 1M --world 4|--world 8
et-synth coll|--count|--type all_reduce --size 1M --world 4|--count 2
et-synth coll|--group-size|--type all_reduce --size 1M --world 4|--group-size 2
et-synth coll|--compute-us|--type all_reduce --size 1M --world 4|--compute-us 3
et-synth coll|--write-comm-groups|--type all_reduce --size 1M --world 4 --group-size 2|--write-comm-groups cg.json
et-synth coll|--ids|--type all_reduce --size 1M --world 4|--ids local
et-synth coll|--seed|--type all_reduce --size 1M --world 4|--seed 2
et-synth p2p|--pattern|--pattern ring --size 1M --world 4|--pattern pairs
et-synth p2p|--size|--pattern ring --size 1M --world 4|--size 2M
et-synth p2p|--world|--pattern ring --size 1M --world 4|--world 6
et-synth p2p|--count|--pattern ring --size 1M --world 4|--count 2
et-synth p2p|--tag|--pattern ring --size 1M --world 4|--tag 7
et-synth p2p|--ids|--pattern ring --size 1M --world 4|--ids global
et-synth p2p|--seed|--pattern ring --size 1M --world 4|--seed 2
et-synth chain|--layers|--layers 2 --compute-us 5 --size 1M --world 4|--layers 3
et-synth chain|--compute-us|--layers 2 --compute-us 5 --size 1M --world 4|--compute-us 7
et-synth chain|--coll|--layers 2 --compute-us 5 --size 1M --world 4|--coll all_gather
et-synth chain|--size|--layers 2 --compute-us 5 --size 1M --world 4|--size 2M
et-synth chain|--world|--layers 2 --compute-us 5 --size 1M --world 4|--world 8
et-synth chain|--overlap|--layers 2 --compute-us 5 --size 1M --world 4|--overlap
et-synth chain|--ids|--layers 2 --compute-us 5 --size 1M --world 4|--ids global
et-synth chain|--seed|--layers 2 --compute-us 5 --size 1M --world 4|--seed 2
et-synth dag|--nodes|--nodes 40 --world 2|--nodes 50
et-synth dag|--world|--nodes 40 --world 2|--world 3
et-synth dag|--width|--nodes 40 --world 2|--width 4
et-synth dag|--edge-prob|--nodes 40 --world 2|--edge-prob 0.9
et-synth dag|--comm-fraction|--nodes 40 --world 2|--comm-fraction 0.5
et-synth dag|--cpu-fraction|--nodes 40 --world 2|--cpu-fraction 0.6
et-synth dag|--jitter|--nodes 40 --world 2|--jitter 0.5
et-synth dag|--seed|--nodes 40 --world 2|--seed 2
et-synth chakra-generator|--world|--world 2 --out-dir o|--world 3
et-synth chakra-generator|--out-dir|--world 2 --out-dir o|--out-dir o2
et-synth chakra-generator|-d|--world 2 --out-dir o|-d o2
et-synth chakra-generator|--runtime|--world 2 --out-dir o|--runtime 7
et-synth chakra-generator|--tensor-size|--world 2 --out-dir o|--tensor-size 2048
et-synth chakra-generator|--comm-size|--world 2 --out-dir o|--comm-size 1024
et-synth chakra-generator|--ids|--world 2 --out-dir o|--ids local
et-synth transform|--scale-compute|$W/ar.etz|--scale-compute 2
et-synth transform|--scale-comm|$W/ar.etz|--scale-comm 2
et-synth transform|--set-comm-type|$W/ar.etz|--set-comm-type all_reduce=all_gather
et-synth transform|--world|$W/ar.etz|--world 8
et-synth transform|--rep-rank|$W/ar.etz --world 8|--rep-rank 1
et-synth transform|--obfuscate|$W/ar.etz|--obfuscate
et-synth transform|--salt|$W/ar.etz --obfuscate|--salt pepper
et-synth transform|--strip-cpu|$W/dag.etz|--strip-cpu
et-synth transform|--ranks|$W/ar.etz|--ranks 1
et-synth transform|--set-rank|$W/r0.et|--set-rank 3
et-synth transform|--max-msg|$W/st.etz|--max-msg 10
et-synth transform|--max-rank-nodes|$W/st.etz|--max-rank-nodes 2
et-synth transform|--max-rank-bytes|$W/st.etz|--max-rank-bytes 100
TABLE
}

# Options whose effect is not in the bytes a run writes, each with why.
ALLOWED=(
	"--output: the same bytes, in FILE instead of stdout (written atomically)"
	"--quiet: the progress line on stderr only"
	"--progress: the progress line on stderr only"
	"--threads: zstd worker threads, or et-validate's reading thread: the same bytes by design"
	"--from: names the format sniffing finds; every input of the walk sniffs right"
	"--verbose: details on stderr (et-sim: the network's devices; et-convert is walked)"
	"--timing: phase times on stderr"
	"--astra-sim-log: ASTRA-sim's finish lines, whose clock the report already prints"
	"--no-closed-form: the same times by design (sim.bats: closed forms = message path)"
	"--no-fold: the same times by design (sim_fold.bats: folded = every rank simulated)"
)

# The run of every option a command has that walk_table does not list
# itself: the options the suite shares, alike in every command.
shared_entry() { # COMMAND OPTION -> CONTEXT|ARGS, or nothing
	case $2 in
	--help | --version | --help-table | --help-table-all) echo "|$2" ;;
	--to) echo "|--to jsonl" ;;
	--split) echo "|--split sp" ;;
	--name) echo "|--name other" ;;
	--level) echo "|--level 19" ;;
	--all-fields) echo "--to json|--all-fields" ;;
	esac
}

# The context of a shared option: a command's ordinary run.
base_of() {
	case $1 in
	et-convert | et-validate | et-sim | et-viz | "et-synth transform") echo "$W/ar.etz" ;;
	et-stage) echo "--dp 2 --tp 2 --pp 2 --layers 4 --d-model 64 --d-ff 128 --heads 4 --kv-heads 4 --vocab 100 --seq 16" ;;
	"et-synth coll") echo "--type all_reduce --size 1M --world 4" ;;
	"et-synth p2p") echo "--pattern ring --size 1M --world 4" ;;
	"et-synth chain") echo "--layers 2 --compute-us 5 --size 1M --world 4" ;;
	"et-synth dag") echo "--nodes 40 --world 2" ;;
	"et-synth chakra-generator") echo "--world 2 --out-dir o" ;;
	"layerdag-sample fit") echo "$W/corpus.txt" ;;
	"layerdag-sample sample") echo "$W/counts.txt --y 2.0" ;;
	"layerdag-sample eval") echo "$W/corpus.txt $W/samples.txt" ;;
	esac
}

COMMANDS=(et-convert et-validate et-sim et-viz et-stage "layerdag-sample fit" "layerdag-sample sample"
	"layerdag-sample eval" "et-synth coll" "et-synth p2p" "et-synth chain" "et-synth dag"
	"et-synth chakra-generator" "et-synth transform")

# walk COMMAND: every option of COMMAND's table walked, or allowed
walk() {
	local cmd=$1 bad=0 key line ctx args
	walk_table >table
	$cmd --help-table-all | awk -F'\t' '{ print $3 != "." ? $3 : $2 }' | sort -u >opts
	[ -s opts ] || fail "$cmd: no --help-table-all"
	while IFS= read -r key; do
		N=$((N + 1))
		grep -q -- "^\"$key:" <(printf '"%s\n' "${ALLOWED[@]}") && continue
		# et-stage's hidden STAGE flags are walked by the tests above
		if [ "$cmd" = et-stage ] && printf '%s\n' "${STAGE_FLAGS[@]}" | grep -q -- "^$key "; then
			grep -q -- "^et-stage|$key|" table || continue
		fi
		line=$(grep -- "^$cmd|$key|" table | head -1 | cut -d'|' -f3-)
		[ -n "$line" ] || line=$(shared_entry "$cmd" "$key")
		if [ -z "$line" ]; then
			echo "$cmd $key: not walked (add it to walk_table, or to ALLOWED with the reason)"
			bad=1
			continue
		fi
		ctx=${line%%|*} args=${line#*|}
		grep -q -- "^$cmd|$key|" table || ctx="$(base_of "$cmd") $ctx"
		effect "w$N" "$cmd $ctx" "$args" || bad=1
	done <opts
	return $bad
}

@test "every option of every tool changes the output, warns, or is allowed with its reason" {
	make_inputs
	local bad=0 N=0
	for c in "${COMMANDS[@]}"; do
		walk "$c" || bad=1
	done
	[ $bad = 0 ]
	# the tables were read: some 300 options of 14 commands (shared ones
	# counted per command)
	[ "$N" -gt 250 ] || fail "only $N options walked"
}

@test "et-convert: the PyTorch reader's options with an ET or a compiled program are refused, naming themselves" {
	# (--write-comm-groups is not among them: with a stream it writes the
	# groups the stream carries, stream_groups.bats)
	et-synth coll --type all_reduce --size 1M --world 4 -o ar.etz
	local hlo="--from hlo $DATA/compiler/xla_llama3_8b_cp_bf16_1x4.hlo" i=0 bad=0
	for o in "--kineto $DATA/pytorch/simple-add-a100/kineto.json.gz" "--for astra-sim" \
		--allow-unlinked --force-schema --verbose "--compat chakra"; do
		i=$((i + 1))
		# with an ET, --kineto makes it read as a host trace: exit 3, no ET
		if [ "${o%% *}" = --kineto ]; then
			run -3 et-convert ar.etz $o
		else
			run -2 et-convert ar.etz $o
			[[ $output == *"${o%% *}"*"applies to PyTorch host traces"* ]] ||
				{ echo "ET $o: $output"; bad=1; }
		fi
		# the compilers take --compat chakra (astra-text)
		case $o in --compat*) continue ;; esac
		# shellcheck disable=SC2086
		effect "h$i" "et-convert $hlo" "$o" || bad=1
	done
	[ $bad = 0 ]
}

@test "et-viz: --depth and --hub without --around, and a graph's look with --timeline, warn" {
	et-synth coll --type all_reduce --size 1M --world 2 --compute-us 5 -o ar.etz
	et-sim ar.etz --schedule s.jsonl >/dev/null
	local i=0 bad=0
	for o in "--depth 1" "--hub 1"; do
		i=$((i + 1))
		effect "d$i" "et-viz $PWD/ar.etz" "$o" || bad=1
	done
	for o in --reduce --all-edges --no-legend "--cluster none" "--rankdir LR" "--max-nodes 3"; do
		i=$((i + 1))
		effect "t$i" "et-viz --timeline --schedule $PWD/s.jsonl" "$o" || bad=1
	done
	[ $bad = 0 ]
}

@test "et-sim's one-run reports with --sweep, layerdag-sample fit's other model's options, transform's --salt alone: not dropped" {
	et-synth coll --type all_reduce --size 1M --world 4 -o ar.etz
	local i=0 bad=0
	for o in "--schedule s.jsonl" "--trace t.json" --critical-path "--format json" --astra-sim-log "--link-stats l.csv"; do
		i=$((i + 1))
		effect "s$i" "et-sim $PWD/ar.etz --sweep bandwidth=10,20" "$o" || bad=1
	done
	zcat "$REPO/samples/layerdag/tpu_tile_val.txt.gz" | awk '/^g /{n++} n<=24' >corpus.txt
	for o in "--seed 2" "--epochs 2" "--window 2"; do
		i=$((i + 1))
		effect "l$i" "layerdag-sample fit $PWD/corpus.txt" "$o" || bad=1
	done
	effect l9 "layerdag-sample fit $PWD/corpus.txt --model diffusion --epochs 1 -q" "--buckets 4" || bad=1
	# et-synth transform: a salt without --obfuscate would salt nothing
	effect x1 "et-synth transform $PWD/ar.etz" "--salt pepper" || bad=1
	[ $bad = 0 ]
}

@test "et-stage: --fsdp with dp 1 and --sequence-parallel with tp 1 change nothing, and say so" {
	local a=(--model llama3-8b --layers 2 --seq 256 --vocab 1000)
	et-stage "${a[@]}" -q -o plain.etz
	run -0 --separate-stderr et-stage "${a[@]}" --fsdp -o f.etz
	cmp plain.etz f.etz
	assert_equal "$stderr" "et-stage: warning: --fsdp (--weight_sharded) with dp 1 shards the weights over one rank; no effect"
	run -0 --separate-stderr et-stage "${a[@]}" --sequence-parallel off -o s.etz
	cmp plain.etz s.etz
	assert_equal "$stderr" "et-stage: warning: --sequence-parallel (--tpsp) with tp 1 splits nothing; no effect"
	# where the dimension is wider, they act and say nothing
	run -0 --separate-stderr et-stage "${a[@]}" --dp 2 --tp 2 --fsdp --sequence-parallel off -o w.etz
	assert_equal "$stderr" ""
}
