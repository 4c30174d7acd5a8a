#!/bin/sh
# make demo: a real pipeline over the samples, showing each tool that exists.
set -e
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PATH"
out=build/demo
rm -rf "$out" && mkdir -p "$out"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step "et-convert samples/all_reduce_8/all_reduce -o $out/ar.etz   # 8 per-rank ASTRA-sim files -> one stream"
et-convert samples/all_reduce_8/all_reduce -o "$out/ar.etz"
ls -l "$out/ar.etz" | awk '{print $5 " bytes"}'

step "zstd -l $out/ar.etz   # a stream is plain zstd frames"
zstd -l "$out/ar.etz" | tail -n 2

step "et-convert --to jsonl $out/ar.etz | head -n 2   # look inside"
et-convert --to jsonl "$out/ar.etz" | head -n 2

step "et-convert --to et --split $out/ar $out/ar.etz && cmp   # and back, byte for byte"
et-convert --to et --split "$out/ar" "$out/ar.etz"
for r in 0 1 2 3 4 5 6 7; do cmp "$out/ar.$r.et" "samples/all_reduce_8/all_reduce.$r.et"; done
echo "8 ranks identical to the originals"

step "et-convert samples/chakra.0.et.gz --to jsonl | jq -r '.type // empty' | sort | uniq -c"
et-convert --to jsonl samples/chakra.0.et.gz | jq -r '.type // empty' | sort | uniq -c

if [ -x bin/et-validate ]; then
	step "et-convert samples/chakra.0.et.gz | et-validate   # a real trace with known defects"
	et-convert samples/chakra.0.et.gz | et-validate --max-per-code 2 || true

	step "et-convert samples/all_reduce_8/all_reduce | et-validate --for astra-sim --tee | et-convert --to jsonl | wc -l"
	et-convert samples/all_reduce_8/all_reduce | et-validate --for astra-sim --tee | et-convert --to jsonl | wc -l
fi
step "et-sim --network samples/Ring_8npus.yml --system samples/Ring_4chunks.json samples/all_reduce_8/all_reduce"
et-sim --network samples/Ring_8npus.yml --system samples/Ring_4chunks.json samples/all_reduce_8/all_reduce

step "et-synth coll --type all_reduce --size 1048576 --world 8 | et-sim ... --sweep bandwidth=25,50,100,200   # what if"
et-synth coll --type all_reduce --size 1048576 --world 8 |
	et-sim --network samples/Ring_8npus.yml --system samples/Ring_4chunks.json --sweep bandwidth=25,50,100,200

if [ -x bin/et-stage ]; then
	# the comm groups first: et-validate and et-sim open theirs when they start
	plan="--model llama3-8b --layers 4 --seq 1024 --vocab 32000 --dp 2 --tp 2 --pp 2"
	step "et-stage --model llama3-8b --layers 4 --dp 2 --tp 2 --pp 2 --write-comm-groups g.json -o gpt.etz && et-validate --tee --comm-groups g.json gpt.etz | et-sim --comm-groups g.json ...   # a cut-down Llama 3 on 8 ranks, 1F1B"
	# shellcheck disable=SC2086
	et-stage $plan --write-comm-groups "$out/gpt.json" -o "$out/gpt.etz"
	et-validate -q --tee --comm-groups "$out/gpt.json" "$out/gpt.etz" 2>"$out/gpt.validate" |
		et-sim --compute-model roofline --comm-groups "$out/gpt.json" --network samples/Ring_8npus.yml \
			--system samples/Ring_4chunks.json | sed -n 1,3p
	tail -n 1 "$out/gpt.validate"
fi

step "et-sim --calibrate -o h100.json samples/hw/h100x8_dgxc_all_reduce.log   # NVIDIA's 8 x H100 nccl-tests sweep, fitted"
et-sim -q --calibrate -o "$out/h100.json" samples/hw/h100x8_dgxc_all_reduce.log
et-sim --calibrate --calib "$out/h100.json" -o "$out/h100.tsv" samples/hw/h100x8_dgxc_all_reduce.log 2>&1 |
	sed 's/^et-sim: calibrate: //'
awk -F'\t' 'NR > 1 && ($2 == 1048576 || $2 == 1073741824) {
	printf "%10.0f B: measured %8.1f us, calibrated %8.1f us\n", $2, $3, $4 }' "$out/h100.tsv"

step "et-viz samples/all_reduce_8/all_reduce --ranks 0-3 --link-collectives -o $out/ar.svg"
et-viz samples/all_reduce_8/all_reduce --ranks 0-3 --link-collectives -o "$out/ar.svg"
ls -l "$out/ar.svg" | awk '{print $5 " bytes of SVG"}'
printf '\ndemo finished\n'
