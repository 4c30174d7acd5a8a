#!/usr/bin/env bash
# bench/stage_bench.sh: et-stage's acceptance targets (issue 16), in the
# physical mode and with --compat stage, medians of
# BENCH_RUNS runs under /usr/bin/time -v: wall time, user+sys CPU time and
# peak RSS, each run writing a stream file (-o, bench/out/stage.etz).
#   a. GPT, dp 64 tp 8 pp 2 (1,024 ranks), 8 layers, 16 micro-batches     (<= 3 s)
#   b. a 1-layer toy, dp 1024 tp 8 (8,192 ranks)                            (<= 3 s)
#   c. the same toy at dp 16384 (131,072 ranks)                             (<= 60 s)
#   d. llama3-405b, dp 1024 tp 8 pp 16 (131,072 ranks), the shard 0-127     (<= 30 s, <= 1 GB)
# b and c, and the toy at dp 128 (1,024 ranks), have the same per-rank graph:
# their peak RSS is the memory bound (one stage's graph and one rank's bytes,
# whatever the rank count).
#
# Environment: BENCH_RUNS (3), BENCH_STRICT=1 (exit 1 when a target is
# missed), BENCH_KEEP=1 (keep the last stream of each case in bench/out/).
# Run after `make`.
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH_NAME=stage_bench
. bench/lib.sh
[ -x "$BIN/et-stage" ] || die "$BIN/et-stage missing: run 'make' first"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
mkdir -p "$OUT"
TF=$OUT/stage-time.txt
ES=$OUT/stage-cmd.stderr
MISSED=0

TOY=(--tp 8 --num_stacks 1 --dmodel 64 --dff 256 --head 8 --kvhead 8 --seq 64
	--batch 1024 --dvocal 128)

# bench_case LABEL RANKS MAX_S MAX_MB ARGS...: BENCH_RUNS runs of et-stage
# ARGS -q -o FILE; one table row. MAX_S 0: no target; MAX_MB 0: no memory
# target.
bench_case() {
	local label=$1 ranks=$2 max_s=$3 max_mb=$4 file=$OUT/stage.etz
	shift 4
	local walls=() cpus=() rsss=() i rc
	for ((i = 0; i < RUNS; i++)); do
		rc=0
		/usr/bin/time -v -o "$TF" "$BIN/et-stage" "$@" -q -o "$file" 2>"$ES" || rc=$?
		if ((rc != 0)); then
			sed 's/^/  /' "$ES" >&2
			die "FAILED (exit $rc): et-stage $*"
		fi
		walls+=("$(tv_wall "$TF")") cpus+=("$(tv_cpu "$TF")") rsss+=("$(tv_rss "$TF")")
	done
	local w c m size verdict=ok target="<= $max_s s"
	w=$(median "${walls[@]}") c=$(median "${cpus[@]}") m=$(median "${rsss[@]}")
	size=$(stat -c %s "$file")
	((max_mb == 0)) || target+=", <= $((max_mb / 1024)) GB"
	if ((max_s == 0)); then
		target="-" verdict=""
	elif ! awk -v w="$w" -v m="$m" -v s="$max_s" -v mb="$max_mb" \
		'BEGIN { exit !(w <= s && (mb == 0 || m / 1024 <= mb)) }'; then
		verdict=MISSED MISSED=1
	fi
	if [ "${BENCH_KEEP:-0}" = 1 ]; then mv "$file" "$OUT/stage-$ranks.etz"; else rm -f "$file"; fi
	printf '%-44s %8s %8.2f %8.2f %8.1f %9.1f  %-19s %s\n' "$label" "$ranks" "$w" "$c" \
		"$(awk -v m="$m" 'BEGIN { print m / 1024 }')" \
		"$(awk -v s="$size" 'BEGIN { print s / 1048576 }')" "$target" "$verdict"
}

# Both modes: the physical one (the default) and --compat stage.
for mode in physical compat; do
	M=()
	[ $mode = compat ] && M=(--compat stage)
	echo "et-stage ${M[*]:-(physical mode)}, median of $RUNS runs ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
	printf '%-44s %8s %8s %8s %8s %9s  %-19s %s\n' case ranks wall_s cpu_s RSS_MB stream_MB target ""
	bench_case "a. GPT dp64 tp8 pp2, 8 layers, 16 mb" 1024 3 0 \
		"${M[@]}" --model_type gpt --dp 64 --tp 8 --pp 2 --num_stacks 8 --dmodel 4096 \
		--dff 16384 --head 32 --kvhead 32 --seq 2048 --batch 256 --micro_batch 16
	bench_case "b. 1-layer toy, dp 1024 tp 8" 8192 3 0 "${M[@]}" "${TOY[@]}" --dp 1024
	bench_case "(the toy at dp 128 tp 8)" 1024 0 0 "${M[@]}" "${TOY[@]}" --dp 128
	bench_case "c. 1-layer toy, dp 16384 tp 8" 131072 60 0 "${M[@]}" "${TOY[@]}" --dp 16384
	bench_case "d. llama3-405b dp1024 tp8 pp16, ranks 0-127" 128 30 1024 \
		"${M[@]}" --model llama3-405b --dp 1024 --tp 8 --pp 16 --ranks 0-127
	echo
done
echo "(d writes 128 of its 131,072 ranks; the toy's RSS at 1,024, 8,192 and 131,072 ranks is the memory bound)"
if [ "${BENCH_STRICT:-0}" = 1 ] && ((MISSED)); then
	exit 1
fi
