#!/usr/bin/env bash
# bench/compare.sh OLD_BIN NEW_BIN [EXTRA_DATA_DIR...]: run every tool, in
# many option variants, on tests/data, samples/ and each EXTRA_DATA_DIR (for
# instance the shared corpus), once with the binaries of OLD_BIN and once with
# those of NEW_BIN, and compare what each run leaves: stdout, stderr, exit
# status and every file it writes, byte for byte. For refactors and speed work:
# build the old commit into OLD_BIN, the working tree into NEW_BIN.
#
# Prints one line per case that differs ("DIFF name: stdout stderr files")
# and a summary; exit 0 when every case is identical, 1 otherwise.
# COMPARE_OUT (default bench/out/compare) keeps both sides' outputs;
# COMPARE_IGNORE_STDERR=1 compares stdout, status and files only (for
# changes that reword messages on purpose: then read the stderr diffs).
set -uo pipefail
[ $# -ge 2 ] || {
	echo "usage: bench/compare.sh OLD_BIN NEW_BIN [EXTRA_DATA_DIR...]" >&2
	exit 2
}
OLD=$(cd "$1" && pwd) NEW=$(cd "$2" && pwd)
shift 2
cd "$(dirname "$0")/.."
REPO=$PWD
OUT=${COMPARE_OUT:-bench/out/compare}
rm -rf "$OUT" && mkdir -p "$OUT/in" "$OUT/old" "$OUT/new"
OUT=$(cd "$OUT" && pwd)
IN=$OUT/in
DATA=$REPO/tests/data
MB=$DATA/astra-sim/workload/microbenchmarks
NET=$DATA/astra-sim/network
SYS=$DATA/astra-sim/system

cases=()
add() { cases+=("$1"$'\t'"$2"); }

# ---- inputs every case reads: made once, with the OLD tools -------------
mk() { PATH="$OLD:$PATH" bash -c "$1" >/dev/null 2>&1 || echo "compare: input '$1' failed" >&2; }
mk "et-synth coll --type all_reduce --size 1M --world 8 -o $IN/ar8.etz"
mk "et-synth coll --type all_to_all --size 64K --world 4 --count 3 -o $IN/a2a4.etz"
mk "et-synth p2p --pattern ring --size 4K --world 4 -o $IN/ring4.etz"
mk "et-synth chain --layers 6 --compute-us 100 --coll all_reduce --size 1M --world 4 --overlap -o $IN/chain4.etz"
mk "et-synth dag --nodes 3000 --width 32 --edge-prob 0.05 --comm-fraction 0.1 --world 4 -o $IN/dag4.etz"
mk "et-synth dag --nodes 500 --width 8 --comm-fraction 0.2 --world 2 --jitter 0.2 --seed 7 -o $IN/dagj2.etz"
mk "et-convert $DATA/pytorch/dlrm-8rank/host_et.*.json.gz -o $IN/dlrm.etz"
mk "et-convert $DATA/pytorch/resnet-1.1.0/host_et.json.gz -o $IN/resnet.etz"
mk "et-convert $DATA/pytorch/simple-add-a100/host_et.json.gz -k $DATA/pytorch/simple-add-a100/kineto.json.gz -o $IN/sa.etz"
mk "et-convert $DATA/pytorch/cpu-gloo-mlp-2rank/host_et.*.json.gz -o $IN/gloo.etz"
mk "et-convert --to jsonl $DATA/chakra-et/chakra.0.et.gz -o $IN/chakra.jsonl"
mk "et-convert --to json $MB/all_reduce/4npus_1MB/all_reduce -o $IN/ar4.json"

# ---- et-convert ------------------------------------------------------------
ets=("$DATA/chakra-et/chakra.0.et.gz" "$DATA"/reference/*.et.zst "$DATA/jsonizer/edge.et"
	"$IN/ar8.etz" "$IN/dag4.etz" "$IN/dlrm.etz" "$IN/sa.etz" "$IN/chakra.jsonl" "$IN/ar4.json"
	"$DATA"/sim/*.jsonl)
for w in "$MB"/*/*; do ets+=("$w/$(basename "$(dirname "$w")")"); done
for w in "$DATA"/chakra-generator/*.0.et; do ets+=("${w%.0.et}"); done
for f in "${ets[@]}"; do
	b=$(basename "$f")
	add "convert-stream-$b" "et-convert '$f' -o out.etz"
	add "convert-jsonl-$b" "et-convert --to jsonl '$f'"
	add "convert-json-$b" "et-convert --to json '$f'"
	add "convert-split-$b" "et-convert --to et --split r '$f'"
	add "convert-r0-$b" "et-convert --to et --ranks 0 '$f' -o r0.et"
	add "convert-name-$b" "et-convert --name w --world 9 -l 5 '$f'"
	add "convert-jsonizer-$b" "et-convert --to jsonizer --ranks 0 '$f'"
done
add convert-stdin "cat '$IN/ar8.etz' | et-convert --to jsonl -"
add convert-from-et "et-convert -f et --set-rank 3 '$DATA/jsonizer/edge.et' --to jsonl"
add convert-bad-from "et-convert -f kineto x"
add convert-bad-to "et-convert --to nope x"
add convert-missing "et-convert /nonexistent"
add convert-split-o "et-convert --to et --split a -o b x"
for p in "$DATA"/pytorch/*/; do
	b=$(basename "$p")
	hosts=$(ls "$p"host_et*.json.gz | tr '\n' ' ')
	add "pt-$b" "et-convert $hosts -o out.etz"
	add "pt-jsonl-$b" "et-convert --to jsonl $hosts"
	add "pt-astra-$b" "et-convert --for astra-sim --write-comm-groups cg.json $hosts -o out.etz"
	add "pt-compat-$b" "et-convert --compat chakra --to et --split c $hosts"
	add "pt-v-$b" "et-convert -v $hosts -o out.etz"
	k=$(ls "$p"kineto*.json.gz "$p"profiler*.json.gz 2>/dev/null | sed 's/^/-k /' | tr '\n' ' ')
	[ -n "$k" ] && add "pt-kineto-$b" "et-convert -v --allow-unlinked $hosts $k -o out.etz"
done

# ---- et-validate -----------------------------------------------------------
for f in "${ets[@]}" "$IN/a2a4.etz" "$IN/ring4.etz" "$IN/chain4.etz" "$IN/dagj2.etz" \
	"$IN/resnet.etz" "$IN/gloo.etz"; do
	b=$(basename "$f")
	add "validate-$b" "et-validate '$f'"
	add "validate-astra-$b" "et-validate --for astra-sim '$f'"
	add "validate-json-$b" "et-validate --format json --stats '$f' | grep -v graph_bytes"
	add "validate-strict-$b" "et-validate --strict --max-per-code 3 -T 0 '$f'"
	add "validate-tee-$b" "et-validate --tee '$f' >tee.etz 2>rep.txt"
	add "validate-teea-$b" "et-validate --tee-always -o rep.txt '$f' >tee.etz"
	add "validate-ranks-$b" "et-validate --ranks 1-2 --max-per-code 0 '$f'"
done
add validate-groups "et-validate --comm-groups '$DATA/sim/groups_even_odd.json' '$IN/ar8.etz'"
add validate-world "et-validate --world 4 '$MB/all_reduce/4npus_1MB/all_reduce'"
add validate-world-bad "et-validate --world 3 '$MB/all_reduce/4npus_1MB/all_reduce'"

# ---- et-sim ----------------------------------------------------------------
sims=("$IN/ar8.etz" "$IN/a2a4.etz" "$IN/ring4.etz" "$IN/chain4.etz" "$IN/dag4.etz"
	"$IN/dagj2.etz" "$IN/dlrm.etz" "$IN/gloo.etz" "$DATA"/sim/*.jsonl)
for w in "$MB"/*/*; do sims+=("$w/$(basename "$(dirname "$w")")"); done
for f in "${sims[@]}"; do
	b=$(basename "$f")
	add "sim-$b" "et-sim '$f'"
	add "sim-json-$b" "et-sim --format json --critical-path '$f'"
	add "sim-astra-$b" "et-sim --astra-sim-log --set scheduling-policy=FIFO '$f'"
	add "sim-sched-$b" "et-sim --schedule s.jsonl --trace t.json -q '$f'"
	add "sim-nofold-$b" "et-sim --no-fold --no-closed-form '$f'"
	add "sim-roof-$b" "et-sim --compute-model roofline --set peak-perf=100 '$f'"
done
for n in 4 8 16; do
	for c in all_reduce all_gather reduce_scatter all_to_all; do
		w=$MB/$c/${n}npus_1MB/$c
		add "sim-cfg-$c-$n" "et-sim --network '$NET/Ring_${n}npus.yml' --system '$SYS/Ring_4chunks.json' '$w'"
		add "sim-cfg-astra-$c-$n" "et-sim --astra-sim-log --network '$NET/Ring_${n}npus.yml' --system '$SYS/no_memory_expansion.json' '$w'"
	done
done
add sim-rt "et-sim --network '$DATA/astra-sim/tests/rt_template_net.yml' --system '$DATA/astra-sim/tests/rt_template_sys.json' '$MB/all_reduce/8npus_1MB/all_reduce'"
add sim-hgx "et-sim --network '$NET/HGX-H100-validated.yml' --system '$SYS/HGX-H100-validated.json' '$IN/ar8.etz'"
add sim-sweep "et-sim --network '$NET/Ring_8npus.yml' --system '$SYS/Ring_4chunks.json' --sweep bandwidth=25,50,100 --sweep latency=500,1000 '$IN/ar8.etz'"
add sim-sweep-bad "et-sim --sweep nope=1 '$IN/ar8.etz'"
add sim-groups "et-sim --comm-groups '$DATA/sim/groups_even_odd.json' '$DATA/sim/groups8.jsonl'"
add sim-groups-uneven "et-sim --comm-groups '$DATA/sim/groups_uneven.json' '$DATA/sim/groups8_uneven.jsonl'"
add sim-bad-yml "et-sim --network '$DATA/sim/bad.yml' '$IN/ar8.etz'"
add sim-bad-json "et-sim --system '$DATA/sim/bad.json' '$IN/ar8.etz'"
add sim-unknown-topo "et-sim --network '$DATA/sim/unknown_topology.yml' '$IN/ar8.etz'"
add sim-switch "et-sim --network '$DATA/sim/net_ring4_switch2.yml' '$IN/ar8.etz'"
add sim-zero-ep "et-sim --system '$DATA/sim/zero_endpoint.json' '$IN/ar8.etz'"
add sim-set "et-sim --set topology=Switch --set bandwidth=100 --set all-reduce-implementation=direct '$IN/ar8.etz'"
add sim-set-bad "et-sim --set bandwidth=x '$IN/ar8.etz'"
add sim-missing "et-sim /nonexistent"
add sim-two "et-sim a b"
add sim-systolic "et-sim --compute-model systolic --set peak-perf=10 '$DATA/sim/compute.jsonl'"

# ---- et-viz ----------------------------------------------------------------
add viz-ar "et-viz '$IN/ar8.etz' --ranks 0-3 --link-collectives"
add viz-ar-svg "et-viz '$IN/ar8.etz' --ranks 0-1 -o x.svg"
add viz-chakra "et-viz '$DATA/chakra-et/chakra.0.et.gz' --around 2536 --depth 2 --critical-path"
add viz-chakra-hub "et-viz '$DATA/chakra-et/chakra.0.et.gz' --around 3322 --depth 4 --hub 5 --rankdir LR"
add viz-resnet "et-viz '$IN/resnet.etz' --around 1491 --depth 10 --collapse 'aten::(empty|view|copy_)'"
add viz-resnet-all "et-viz '$IN/resnet.etz'"
add viz-match "et-viz '$IN/resnet.etz' --match 'conv' --max-nodes 5000"
add viz-ids "et-viz '$IN/resnet.etz' --ids 100-200 --cluster none --no-legend"
add viz-only-crit "et-viz '$DATA/chakra-et/chakra.0.et.gz' --only-critical-path"
add viz-pt "et-convert '$DATA/pytorch/chakra-test-1.0.2/host_et.json.gz' | et-viz -T dot"
add viz-dlrm "et-viz '$IN/dlrm.etz' -r 0 --match all_to_all --link-collectives --reduce"
add viz-dag "et-viz '$IN/dag4.etz' --ranks 0 --ids 0-300 --all-edges"
add viz-timeline "et-viz --timeline '$IN/sa.etz'"
add viz-timeline-dlrm "et-viz -t '$IN/dlrm.etz' -o tl.json"
add viz-gantt "et-viz --timeline --schedule '$DATA/viz/schedule.jsonl' -T svg"
add viz-gantt-json "et-viz --timeline -s '$DATA/viz/schedule.jsonl'"
add viz-sim-sched "et-sim --schedule - -q '$IN/chain4.etz' >/dev/null; et-sim -q --schedule s.jsonl '$IN/chain4.etz' && et-viz --timeline --schedule s.jsonl -o g.svg"
add viz-jsonl "et-viz '$IN/chakra.jsonl' --around 2536 -T dot"
add viz-bad-fmt "et-viz -T nope '$IN/ar8.etz'"
add viz-missing "et-viz /nonexistent"

# ---- et-synth --------------------------------------------------------------
for c in all_reduce all_gather reduce_scatter all_to_all broadcast barrier; do
	add "synth-coll-$c" "et-synth coll --type $c --size 1M --world 8 | et-convert --to jsonl"
	add "synth-coll-bin-$c" "et-synth coll --type $c --ids global --size 3000 --world 4 --count 2 --group-size 2 --compute-us 5 --write-comm-groups g.json -o x.etz"
done
add synth-coll-split "et-synth coll --type all_reduce --size 1048576 --world 8 | et-convert --to et --split ar"
for p in ring pairs all; do add "synth-p2p-$p" "et-synth p2p --pattern $p --size 1K --world 6 --count 2 --tag 5 -o x.etz"; done
add synth-chain "et-synth chain --layers 32 --compute-us 150 --coll all_reduce --size 16M --world 16 --overlap -o x.etz"
add synth-chain2 "et-synth chain --layers 3 --compute-us 10 --coll all_gather --size 1K --world 2 -T 0 -l 9 --name foo -o x.etz"
add synth-dag "et-synth dag --nodes 20000 --width 64 --edge-prob 0.05 --comm-fraction 0.1 --world 8 -o x.etz"
add synth-dag-j "et-synth dag --nodes 2000 --width 16 --cpu-fraction 0.3 --jitter 0.5 --world 3 --seed 42 -o x.etz"
add synth-dag-0 "et-synth dag --nodes 1000 --world 2 -T 0 -o x.etz"
add synth-refgen "et-synth chakra-generator --world 2 --out-dir d"
add synth-refgen-opts "et-synth chakra-generator --world 3 --out-dir d --runtime 7 --tensor-size 9 --comm-size 11"
for f in "$IN/dlrm.etz" "$IN/ar8.etz" "$IN/chain4.etz" "$DATA/chakra-et/chakra.0.et.gz"; do
	b=$(basename "$f")
	add "xf-scale-$b" "et-synth transform --scale-compute 2 --scale-comm 0.5 < '$f' > x.etz"
	add "xf-retype-$b" "et-synth transform --set-comm-type all_gather < '$f' > x.etz"
	add "xf-obf-$b" "et-synth transform --obfuscate --salt 3 < '$f' > x.etz"
	add "xf-world-$b" "et-synth transform --world 16 < '$f' > x.etz"
	add "xf-world-rep-$b" "et-synth transform --world 16 --rep-rank 1 < '$f' > x.etz"
	add "xf-strip-$b" "et-synth transform --strip-cpu < '$f' > x.etz"
done
add synth-bad "et-synth nope"
add synth-coll-bad "et-synth coll --type nope --world 2"
add synth-noworld "et-synth coll --type all_reduce"

# ---- help and version --------------------------------------------------------
for t in et-convert et-validate et-sim et-viz et-synth; do add "version-$t" "$t --version"; done

# ---- extra data dirs: every ET-like file, converted and validated ------------
for d in "$@"; do
	while IFS= read -r f; do
		b=x-$(echo "$f" | md5sum | cut -c1-8)-$(basename "$f")
		add "xconv-$b" "et-convert --to jsonl '$f'"
		add "xval-$b" "et-validate --format json --stats '$f' | grep -v graph_bytes"
		add "xsim-$b" "et-sim '$f'"
	done < <(find "$d" -type f \( -name '*.et' -o -name '*.et.gz' -o -name '*.et.zst' \
		-o -name '*.etz' \) | sort)
	while IFS= read -r f; do
		b=x-$(echo "$f" | md5sum | cut -c1-8)-$(basename "$f")
		add "xpt-$b" "et-convert '$f' -o out.etz"
		add "xpt-compat-$b" "et-convert --compat chakra --to et '$f' -o out.et"
	done < <(find "$d" -type f -name 'host_et*.json.gz' | sort)
done

# ---- run both sides ------------------------------------------------------------
run_side() {
	local side=$1 bin=$2 line name cmd dir
	for line in "${cases[@]}"; do
		name=${line%%$'\t'*} cmd=${line#*$'\t'}
		dir=$OUT/$side/$name
		mkdir -p "$dir/files"
		(cd "$dir/files" && PATH="$bin:$PATH" timeout 300 bash -c "$cmd" \
			>"$dir/stdout" 2>"$dir/stderr" </dev/null; echo $? >"$dir/rc")
		# the temporary names of atomic outputs differ from run to run
		sed -i -E 's/\.tmp[A-Za-z0-9]{6}/.tmpXXXXXX/g' "$dir/stderr"
	done
}
run_side old "$OLD" &
run_side new "$NEW"
wait

ndiff=0
for line in "${cases[@]}"; do
	name=${line%%$'\t'*}
	what=""
	cmp -s "$OUT/old/$name/stdout" "$OUT/new/$name/stdout" || what+=" stdout"
	cmp -s "$OUT/old/$name/rc" "$OUT/new/$name/rc" || what+=" status"
	[ "${COMPARE_IGNORE_STDERR:-0}" = 1 ] ||
		cmp -s "$OUT/old/$name/stderr" "$OUT/new/$name/stderr" || what+=" stderr"
	diff -rq "$OUT/old/$name/files" "$OUT/new/$name/files" >/dev/null || what+=" files"
	if [ -n "$what" ]; then
		echo "DIFF $name:$what"
		ndiff=$((ndiff + 1))
	fi
done
echo "compare: ${#cases[@]} cases, $ndiff differ (outputs in $OUT)"
[ "$ndiff" -eq 0 ]
