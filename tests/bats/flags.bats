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
	[ "$(cat "$tag.0.rc")" = 0 ] || {
		echo "$tag: the base run failed: $base: $(cat "$tag.0.err")"
		return 1
	}
	if [ "$(cat "$tag.1.rc")" != 0 ]; then
		names "$flag" "$tag.1.err" && return 0
		echo "$tag: $args: exit $(cat "$tag.1.rc") without naming $flag: $(cat "$tag.1.err")"
		return 1
	fi
	[ "$a" != "$b" ] && return 0
	names "$flag" "$tag.1.err" && grep -q warning "$tag.1.err" && return 0
	echo "$tag: $args: same output, no warning naming $flag"
	return 1
}

# STAGE's main.py flags (astra-sim/stage, main.py's argparse; see
# /work/shared/specs/stage.md), each with a value that is not STAGE's
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
