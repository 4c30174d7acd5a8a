#!/usr/bin/env bash
# bench/layerdag_bench.sh: layerdag-sample's speed targets (issue 17): fitting
# the counts model on the 630-graph corpus and sampling one graph per corpus
# label, <= 1 s; eval of the samples; the diffusion model trained (<= 15 min) and
# sampled (630 graphs, <= 60 s). Medians of BENCH_RUNS runs under
# /usr/bin/time -v: wall time and peak RSS. Run after `make`.
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH_NAME=layerdag_bench
. bench/lib.sh
[ -x "$BIN/layerdag-sample" ] || die "$BIN/layerdag-sample missing: run 'make' first"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
mkdir -p "$OUT"
C=samples/layerdag/tpu_tile_val.txt.gz
TF=$OUT/layerdag-time.txt

# case LABEL TARGET_S COMMAND...: one table row
bench_case() {
	local label=$1 max=$2
	shift 2
	local walls=() rsss=() i
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v -o "$TF" bash -c "$*" >/dev/null || die "FAILED: $*"
		walls+=("$(tv_wall "$TF")") rsss+=("$(tv_rss "$TF")")
	done
	local w m
	w=$(median "${walls[@]}") m=$(median "${rsss[@]}")
	printf '%-44s %8.3f %8.1f  %s\n' "$label" "$w" "$(awk -v m="$m" 'BEGIN { print m / 1024 }')" \
		"$(awk -v w="$w" -v t="$max" 'BEGIN { if (t == 0) print "-"; else print (w <= t ? "ok" : "MISSED") " (<= " t " s)" }')"
}

L="$BIN/layerdag-sample"
echo "layerdag-sample, median of $RUNS runs ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-44s %8s %8s  %s\n' case wall_s RSS_MB target
bench_case "fit (counts) + 630 samples, one per label" 1 \
	"$L fit $C -o $OUT/ld.model && $L sample $OUT/ld.model --y-from $C -o $OUT/ld.samples"
bench_case "eval of the 630 samples against the corpus" 0 "$L eval $C $OUT/ld.samples"
# The diffusion model: one run each (minutes, not milliseconds); BENCH_DIFFUSION=0 skips them.
if [ "${BENCH_DIFFUSION:-1}" = 1 ]; then
	RUNS=1
	bench_case "fit (diffusion, 100 epochs, 1 run)" 900 \
		"$L fit $C --model diffusion -q -o $OUT/ld.diff"
	bench_case "diffusion: 630 samples, one per label (1 run)" 60 \
		"$L sample $OUT/ld.diff --y-from $C -o $OUT/ld.dsamples"
fi
