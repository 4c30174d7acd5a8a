#!/usr/bin/env bats
# et-stage's physical mode, checked by identities (exact integers, written
# from the issue's formulas, not from the code): summed over all ranks, the
# FLOPs of matrix products (op_type M) of a training step are
# 6·T·(N_mm + L·S·D) whatever the parallelism, micro-batching and schedule;
# decode and prefill have theirs. Every output validates and simulates.
load common
load ../stage/aware

# Σ num_ops of the M nodes of a trace, over all its ranks.
msum() {
	et-convert --to jsonl "$1" | jq -n '[inputs | select(.attr) | .attr as $a |
		select(($a | map(select(.name == "op_type"))[0].stringVal) == "M") |
		($a | map(select(.name == "num_ops"))[0].int64Val | tonumber)] | add'
}

# Matrix parameters: GPT 4D² + 2DF a layer, Llama D²(H+2KV)/H + D² + 3DF,
# MoE the Llama attention + a D·E router + k SwiGLU experts (what one token
# uses); plus the output embedding V·D.
n_mm() { # arch L D F H KV V [E k]
	local a=$1 L=$2 D=$3 F=$4 H=$5 KV=$6 V=$7 E=${8:-0} k=${9:-0} per
	case $a in
	gpt) per=$((4 * D * D + 2 * D * F)) ;;
	llama) per=$((D * D * (H + 2 * KV) / H + D * D + 3 * D * F)) ;;
	moe) per=$((D * D * (H + 2 * KV) / H + D * D + D * E + k * 3 * D * F)) ;;
	esac
	echo $((L * per + V * D))
}

# train ARCH L D F H KV V S B -- ARGS: builds the step, checks Σ M, validates
# and simulates it
train() {
	local a=$1 L=$2 D=$3 F=$4 H=$5 KV=$6 V=$7 S=$8 B=$9
	shift 9
	local model=(--model_type gpt)
	[ "$a" = llama ] && model=(--model llama2-7b)
	et-stage "${model[@]}" --layers "$L" --d-model "$D" --d-ff "$F" --heads "$H" \
		--kv-heads "$KV" --vocab "$V" --seq "$S" --global-batch "$B" --flash-recompute off \
		--write-comm-groups g.json -o x.etz "$@"
	local N T want got
	N=$(n_mm "$a" "$L" "$D" "$F" "$H" "$KV" "$V") T=$((B * S))
	want=$((6 * T * (N + L * S * D)))
	got=$(msum x.etz)
	[ "$got" = "$want" ] || fail "$a $* : Σ M = $got, expected $want"
	et-validate --comm-groups g.json x.etz >/dev/null || fail "$a $* : et-validate"
	et-sim --comm-groups g.json --compute-model roofline x.etz >/dev/null || fail "$a $* : et-sim"
}

@test "training: Σ FLOPs of matrix products = 6·T·(N_mm + L·S·D) for every parallelism, batching and schedule" {
	#     arch  L D   F    H KV V   S   B  parallelism ...
	train gpt   4 256 1024 8 8  500 128 8  --dp 2 --tp 2 --pp 2
	train gpt   6 256 1024 8 8  500 128 16 --dp 2 --tp 2 --pp 3 --cp 2 --micro-batch 2
	train gpt   4 256 1024 8 8  500 64  8  --dp 4 --fsdp --grad-buckets 3
	train gpt   4 256 1024 8 8  500 64  8  --tp 4 --sequence-parallel off --pp 2
	train gpt   8 256 1024 8 8  500 64  8  --pp 2 --schedule interleaved --virtual-stages 2
	train gpt   8 256 512  4 4  300 64  12 --dp 3 --pp 2 --schedule gpipe --attention causal
	train llama 4 256 768  8 2  500 128 8  --dp 2 --tp 2 --pp 2
	train llama 6 256 768  8 4  500 64  16 --dp 2 --tp 2 --cp 2 --pp 3 --fsdp
	train llama 9 128 384  4 1  64  32  9  --pp 3 --schedule interleaved --virtual-stages 3
}

@test "MoE training (dropless): N_mm counts the router and the top-k experts one token uses" {
	et-stage --model mixtral-8x7b --layers 4 --d-model 512 --d-ff 1024 --seq 128 --vocab 1000 \
		--dp 2 --tp 2 --ep 2 --pp 2 --flash-recompute off --write-comm-groups g.json -o x.etz
	# dp·ep = 4 data-parallel ranks for attention, one sequence each, 2·pp micro-batches
	N=$(n_mm moe 4 512 1024 32 8 1000 8 2) T=$((4 * 4 * 128))
	[ "$(msum x.etz)" = $((6 * T * (N + 4 * 128 * 512))) ]
	et-validate --comm-groups g.json x.etz >/dev/null
	et-sim --comm-groups g.json --compute-model roofline x.etz >/dev/null
	# experts hold E/ep = 4 each: 4 · (gate, up, down) forward products per layer and micro-batch
	run bash -c "et-convert --to jsonl x.etz | jq -r 'select(.rank == 0 and .name != null) | .name' | grep -c '^mb0\.layer0\.moe\.expert[0-9]*\.\(gate\|up\|down\)_COMP$'"
	assert_output 12
}

@test "recomputation adds exactly its forward work: flash (QKᵀ), selective (core attention), full (every layer)" {
	base=(--model_type gpt --layers 4 --d-model 256 --d-ff 1024 --heads 8 --vocab 500 --seq 128
		--global-batch 8 --dp 2 --tp 2 --pp 2)
	L=4 S=128 D=256 T=$((8 * 128))
	N=$(n_mm gpt 4 256 1024 8 8 500) NL=$((4 * (4 * 256 * 256 + 2 * 256 * 1024)))
	ref=$((6 * T * (N + L * S * D)))
	et-stage "${base[@]}" -o a.etz # flash on, the default
	[ "$(msum a.etz)" = $((ref + T * L * S * D)) ]
	et-stage "${base[@]}" --recompute selective -o b.etz
	[ "$(msum b.etz)" = $((ref + 2 * T * L * S * D)) ]
	et-stage "${base[@]}" --recompute full -o c.etz
	[ "$(msum c.etz)" = $((ref + 2 * T * (NL + L * S * D))) ]
	et-stage "${base[@]}" --attention full --flash-recompute off -o d.etz
	[ "$(msum d.etz)" = $((6 * T * (N + 2 * L * S * D))) ]
}

@test "decode: one step is 2·B·N_mm + 4·B·L·C·D; N steps attend over C, C+1, ...; prefill 2·B·S·(N_mm − V·D) + 2·B·V·D + 2·B·L·S²·D" {
	N=$(n_mm llama 4 4096 14336 32 8 1000)
	m=(--model llama3-8b --layers 4 --vocab 1000 --global-batch 4 --write-comm-groups g.json)
	et-stage "${m[@]}" --mode decode --context 300 --dp 2 --tp 2 --pp 2 -o d1.etz
	[ "$(msum d1.etz)" = $((2 * 4 * N + 4 * 4 * 4 * 300 * 4096)) ]
	et-validate --comm-groups g.json d1.etz >/dev/null
	et-stage "${m[@]}" --mode decode --context 300 --new-tokens 3 --tp 4 --pp 2 -o d3.etz
	[ "$(msum d3.etz)" = $((3 * 2 * 4 * N + 4 * 4 * 4 * (300 + 301 + 302) * 4096)) ]
	et-validate --comm-groups g.json d3.etz >/dev/null
	et-sim --comm-groups g.json --compute-model roofline d3.etz >/dev/null
	# the KV cache: each layer of each step stores B/dp positions and reads the cached ones
	run bash -c "et-convert --to jsonl d3.etz | jq -r 'select(.rank == 0 and .type == \"MEM_LOAD_NODE\") | .attr[] | select(.name == \"tensor_size\") | .uint64Val' | sort -n | uniq -c | awk '{print \$1, \$2}'"
	# 2 layers of stage 0 per step; 4 sequences, 1024/4·2 bytes of k and v per position on a tp rank
	kv=$((2 * 4096 * 8 / (32 * 4) * 2))
	assert_output "$(printf '2 %d\n2 %d\n2 %d' $((4 * 299 * kv)) $((4 * 300 * kv)) $((4 * 301 * kv)))"
	S=512
	et-stage "${m[@]}" --mode prefill --seq $S --dp 2 --tp 2 --cp 2 --pp 2 -o p.etz
	[ "$(msum p.etz)" = $((2 * 4 * S * (N - 1000 * 4096) + 2 * 4 * 1000 * 4096 + 2 * 4 * 4 * S * S * 4096)) ]
	et-validate --comm-groups g.json p.etz >/dev/null
}

@test "bytes, not elements: --dtype scales activations and weight traffic; gradients are reduced in fp32" {
	a=(--model_type gpt --layers 2 --d-model 256 --d-ff 1024 --heads 8 --vocab 500 --seq 64 --dp 2 --tp 2)
	size_of() { # FILE NAME-REGEX: comm_size of rank 0's first node whose name matches
		et-convert --to jsonl "$1" | jq -r --arg re "$2" 'select(.rank == 0 and (.name // "" | test($re))) |
			.attr[] | select(.name == "comm_size") | .int64Val' | head -1
	}
	et-stage "${a[@]}" -o bf.etz
	et-stage "${a[@]}" --dtype fp32 -o f32.etz
	et-stage "${a[@]}" --dtype fp8 -o f8.etz
	# the sequence-parallel gather of the first norm: Tsp·D elements (64/2·256)
	[ "$(size_of bf.etz 'layer0\.attn\.norm_X1COMM')" = $((32 * 256 * 2)) ]
	[ "$(size_of f32.etz 'layer0\.attn\.norm_X1COMM')" = $((32 * 256 * 4)) ]
	[ "$(size_of f8.etz 'layer0\.attn\.norm_X1COMM')" = $((32 * 256)) ]
	# one gradient bucket of everything: 2 layers + head + embedding, a tp shard, in fp32
	et-stage "${a[@]}" --grad-buckets 1 -o g1.etz
	P=$(((2 * (4 * 256 * 256 + 2 * 256 * 1024) + 2 * 500 * 256) / 2))
	[ "$(size_of g1.etz '^bucket0\.grad_X1COMM$')" = $((P * 4)) ]
	[ "$(size_of bf.etz '^bucket0\.grad_X1COMM$')" != "" ]
}

@test "gradient sync once per step, in --grad-buckets buckets, whatever the number of micro-batches" {
	for nmb in 1 4; do
		et-stage --model_type gpt --layers 6 --d-model 128 --d-ff 512 --heads 4 --vocab 100 \
			--seq 32 --dp 2 --global-batch $((2 * nmb)) --grad-buckets 3 -o x.etz
		run bash -c "et-convert --to jsonl x.etz | jq -r 'select(.rank == 0 and .type == \"COMM_COLL_NODE\") | .name' | grep -c 'grad'"
		assert_output 3
		run bash -c "et-convert --to jsonl x.etz | jq -r 'select(.rank == 0 and .type == \"COMP_NODE\") | .name' | grep -c 'adam'"
		assert_output 3
	done
}

# The forward (F) and backward (B) operations of stage P, in file order:
# each forward of mb i on a non-last stage ends with the send of its
# output, each backward on a non-first stage ends with the send of its dx.
ops_of() { # FILE RANK
	et-convert --ranks "$2" --to jsonl "$1" | jq -r 'select( .type == "COMM_SEND_NODE") | .name' |
		sed -n 's/^mb\([0-9]*\)\.chunk[0-9]*\.x_Y_SEND$/F\1/p; s/^mb\([0-9]*\)\.chunk[0-9]*\.dx_Y_SEND$/B\1/p' | tr '\n' ' '
}

@test "pipeline schedules: 1F1B and GPipe orders on every stage, interleaved runs, and control dependencies order them" {
	a=(--model_type gpt --layers 8 --d-model 128 --d-ff 512 --heads 4 --vocab 100 --seq 32 --pp 4
		--global-batch 8)
	et-stage "${a[@]}" --schedule 1f1b -o f.etz
	# Megatron's 1F1B: pp-p-1 warm-up forwards, then one forward one backward, then the rest
	for p in 1 2; do
		want=$(awk -v p=$p -v pp=4 -v n=8 'BEGIN { w = pp - p - 1; f = 0; b = 0
			for (; f < w; f++) printf "F%d ", f
			while (f < n) { printf "F%d B%d ", f, b; f++; b++ }
			for (; b < n; b++) printf "B%d ", b }')
		[ "$(ops_of f.etz $p)" = "$want" ] || fail "stage $p: $(ops_of f.etz $p), want $want"
	done
	et-stage "${a[@]}" --schedule gpipe -o g.etz
	[ "$(ops_of g.etz 1)" = "F0 F1 F2 F3 F4 F5 F6 F7 B0 B1 B2 B3 B4 B5 B6 B7 " ]
	# each operation after the first waits (control dependency) for the one before
	run bash -c "et-convert --to jsonl f.etz | jq -r 'select(.rank == 1 and .ctrlDeps) | .id' | wc -l"
	assert_output 15 # 16 operations (8 forwards, 8 backwards), each root waits for the one before
	et-stage "${a[@]}" --schedule interleaved --virtual-stages 2 -o i.etz
	et-validate i.etz >/dev/null
	et-sim --compute-model roofline i.etz >/dev/null
	run -2 et-stage "${a[@]}" --global-batch 6 --schedule interleaved
	assert_output --partial "pp 4 does not divide the 6 micro-batches"
}

@test "memory attributes: every node has inputs and outputs, keys a producer made (or a weight), sizes in bytes" {
	et-stage --model mixtral-8x7b --layers 2 --d-model 256 --d-ff 512 --seq 64 --vocab 100 \
		--tp 2 --ep 2 --pp 2 -o x.etz
	et-convert --to jsonl x.etz | jq -c 'select(.type)' >nodes
	# even lengths, decimal sizes
	run jq -r 'select([.attr[] | select(.name == "inputs" or .name == "outputs")] | length != 2 or
		any(.[]; (.stringList.values // []) | length % 2 != 0)) | .name' nodes
	assert_output ""
	run jq -r '.attr[] | select(.name == "inputs" or .name == "outputs") | (.stringList.values // [])
		| to_entries[] | select(.key % 2 == 1) | .value | select(test("^[0-9]+\\.0$") | not)' nodes
	assert_output ""
	# every input tensor is some node's output on the same rank, or a weight
	jq -r '.rank as $r | .attr[] | select(.name == "outputs") | .stringList.values // [] | .[0]? // empty | "\($r) \(.)"' nodes | sort -u >made
	jq -r '.rank as $r | .attr[] | select(.name == "inputs") | .stringList.values // [] | to_entries[] | select(.key % 2 == 0) | "\($r) \(.value)"' nodes |
		grep -v ' layer\.w_\| head\.w$\| embedding\.w$' | sort -u >used
	run comm -23 used made
	assert_output ""
}

@test "physical plans: bad combinations are usage errors; a fractional per-rank micro-batch is a warning" {
	run -2 et-stage --model llama2-7b --ep 2
	assert_output --partial "--ep 2: expert parallelism needs an MoE model"
	run -2 et-stage --model llama2-7b --mode decode --cp 2
	assert_output --partial "cannot be split over cp"
	run -2 et-stage --model llama2-7b --context 100
	assert_output --partial "--context and --new-tokens are for --mode decode"
	# a plan whose ranks the suite would refuse (--max-rank-nodes) is refused before it is
	# built: 100,000 micro-batches of Llama 3 405B once took all the memory
	run -2 et-stage --model llama3-405b --global-batch 100000
	assert_output --partial "about 630000000 nodes per rank (100000 micro-batches × 126 layers per stage): more than the 4194304 the suite reads by default (--max-rank-nodes); use fewer"
	run -2 et-stage --model llama3-8b --mode decode --new-tokens 100000
	assert_output --partial "(100000 steps × 32 layers per stage)"
	run -2 et-stage --model llama2-7b --pp 2 --schedule interleaved --virtual-stages 32
	assert_output --partial "fewer than pp·V = 64 chunks"
	run et-stage --model llama2-7b --layers 2 --dp 4 --micro_batch 6 --batch 12 -o x.etz
	assert_success
	assert_output --partial "warning: the global micro-batch 6 over 4 data-parallel ranks is 1.5 sequences per rank: counted as 6144 tokens"
}

@test "collectives of a group in one order on every member: every plan simulates with the congestion-aware backend" {
	# the issue's plan: rank 36 once issued an all-gather over tp where the other
	# members issued a reduce-scatter (two collectives with no order between them)
	aware 128 --model llama3-8b --layers 10 --dp 8 --tp 4 --pp 4
	aware 32 --model llama3-8b --layers 8 --dp 4 --tp 2 --pp 4
	g=(--model_type gpt --layers 8 --d-model 1024 --d-ff 4096 --heads 8 --vocab 32000 --seq 1024)
	aware 16 "${g[@]}" --dp 2 --tp 2 --cp 2 --pp 2
	aware 16 "${g[@]}" --dp 4 --fsdp --tp 2 --pp 2 --grad-buckets 3
	aware 16 "${g[@]}" --dp 2 --tp 2 --cp 2 --pp 2 --fsdp --recompute full
	aware 16 "${g[@]}" --dp 2 --tp 4 --sequence-parallel off --pp 2 --recompute selective
	aware 16 "${g[@]}" --dp 2 --tp 2 --pp 4 --schedule gpipe --dtype fp32
	aware 16 "${g[@]}" --dp 2 --tp 2 --pp 4 --schedule interleaved --virtual-stages 2 \
		--global-batch 8
	aware 32 --model llama3-8b --layers 8 --dp 2 --tp 2 --cp 2 --pp 4
	aware 16 --model mixtral-8x7b --layers 4 --dp 2 --tp 2 --ep 2 --pp 2
	aware 16 --model mixtral-8x7b --layers 4 --dp 2 --tp 2 --ep 4 --capacity-factor 1.25 --fsdp
	aware 16 --model llama3-8b --layers 8 --mode prefill --dp 2 --tp 2 --cp 2 --pp 2
	aware 16 --model llama3-8b --layers 8 --mode decode --context 512 --new-tokens 4 --dp 2 \
		--tp 4 --pp 2
	# --compat stage: STAGE's data dependencies and the same chain (et-stage(1), THE
	# TRACE); STAGE's own edges stopped the aware backend on this plan
	aware 32 --compat stage --model llama3-8b --layers 8 --dp 4 --tp 2 --pp 4 --micro_batch 16
}
