#!/usr/bin/env bash
# bench/scale_bench.sh: et-sim folded by rank classes against --no-fold
# (issue 29), medians of BENCH_RUNS runs under /usr/bin/time -v: wall time
# user+sys CPU time and peak RSS (the machine is shared: CPU time is the
# steadier figure). The plans are et-stage's llama3-8b at tp 4, pp 2 and dp 32,
# 128 and 512 (256, 1,024 and 4,096 ranks), written once with
# --write-comm-groups to bench/out/.
#
# Two networks:
#   switch  one Switch of every rank: every comm group looks alike from
#           each of its members, so the plan folds to its 2 pipeline stages;
#   ring    et-sim's default, one Ring of every rank: a dp group of dp
#           ranks in a row sees different hop counts from each member (1,
#           1, ..., then dp - 1 back to its start), so every member is a
#           class of its own and et-sim simulates every rank: the issue's
#           own command, shown for its figures, folded = unfolded.
#
# Then two groups of 65,536 ranks each evenly around a Ring dimension (a
# Ring of 65,536 by 2, et-synth coll): every member sees the same view,
# found in O(n) (net_ring_even), where comparing views member by member
# took over 100 s; and 16,384 ranks in 8,192 pairs, every rank simulated,
# whose memory grows with the groups each rank uses (46 MB), not with
# ranks x groups (508 MB before).
#
# The streams are class streams (et-stage's default): et-sim decodes one
# rank per stage and builds the others from their rules (et_crule), folded
# or not, so --no-fold here measures simulating every rank, not decoding.
#
# BENCH_BIG=1 adds the issue's plans, each on one Switch of every rank (the
# default Ring does not fold: see above): et-stage's time, stream size and
# peak RSS, then et-sim's (text report: the JSON one lists every rank's
# every collective, gigabytes at this scale), for llama3-405b tp 8 pp 16
# at dp 64, 128, 1024 and 8192 (8,192, 16,384, 131,072 and 1,048,576
# ranks, the most a stream holds). Peak RSS at dp 1024 against dp 64 is
# what grows with the ranks: each rank's packed values and the comm groups. (--slow on one rank of a group makes et-sim
# simulate every rank: at 131,072 ranks of 405B that needs tens of GB.)
# Each plan but dp 8192 then goes through et-validate (text report): the
# ranks of a stage share one comm summary and its deadlock check runs over
# the 16 stages.
#
# Environment: BENCH_RUNS (3), BENCH_DPS ("32 128 512"), BENCH_NETS
# ("switch ring"), BENCH_BIG (0). Run after `make`.
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH_NAME=scale_bench
. bench/lib.sh
[ -x "$BIN/et-sim" ] && [ -x "$BIN/et-stage" ] || die "$BIN/et-sim or et-stage missing: run 'make' first"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
mkdir -p "$OUT"
TF=$OUT/scale-time.txt

# row LABEL ARGS...: BENCH_RUNS runs of et-sim ARGS with the text report
# (its first line says how many ranks were simulated; the JSON report lists
# every rank's every collective, and writing it would be most of the time)
row() {
	local label=$1 walls=() cpus=() rsss=() i
	shift
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v "$BIN/et-sim" "$@" -o "$OUT/scale.txt" 2>"$TF" >/dev/null ||
			die "$label: et-sim failed: $(grep -v '^\s' "$TF" | head -1)"
		walls+=("$(tv_wall "$TF")")
		cpus+=("$(tv_cpu "$TF")")
		rsss+=("$(tv_rss "$TF")")
	done
	printf '%-44s %8.2f s %8.2f s %9.1f MB  %s\n' "$label" "$(median "${walls[@]}")" \
		"$(median "${cpus[@]}")" \
		"$(median "${rsss[@]}" | awk '{print $1 / 1024}')" \
		"$(simulated "$OUT/scale.txt")"
}
# simulated REPORT: the ranks the text report's first line says it simulated
simulated() {
	local k
	k=$(head -1 "$1" | sed -n 's/.*(rank classes: \([0-9]*\) of.*/\1/p; s/.*(identical ranks: one.*/1/p')
	echo "${k:-every rank}"
}
printf '%-44s %10s %10s %12s  %s\n' "et-sim (median of $RUNS)" wall "cpu" "max RSS" "simulated"
for dp in ${BENCH_DPS:-32 128 512}; do
	n=$((dp * 8))
	s=$OUT/scale_dp$dp.etz g=$OUT/scale_dp$dp.json
	[ -s "$s" ] && [ -s "$g" ] ||
		"$BIN/et-stage" -q --model llama3-8b --dp "$dp" --tp 4 --pp 2 --write-comm-groups "$g" -o "$s"
	for net in ${BENCH_NETS:-switch ring}; do
		case $net in
		switch) set -- --set topology=Switch --set npus_count=$n --set bandwidth=50 --set latency=500 ;;
		ring) set -- ;;
		esac
		row "dp $dp ($n ranks), $net, folded" "$@" --comm-groups "$g" "$s"
		row "dp $dp ($n ranks), $net, --no-fold" --no-fold "$@" --comm-groups "$g" "$s"
		# the fold's promise, checked on the benchmark's plans
		"$BIN/et-sim" "$@" --comm-groups "$g" -F json -o "$OUT/scale_f.json" "$s"
		"$BIN/et-sim" --no-fold "$@" --comm-groups "$g" -F json -o "$OUT/scale.json" "$s"
		cmp -s <(jq -S 'del(.folded, .simulated_ranks, .stats)' "$OUT/scale_f.json") \
			<(jq -S 'del(.folded, .simulated_ranks, .stats)' "$OUT/scale.json") ||
			die "dp $dp, $net: folded and --no-fold reports differ"
	done
done

# groups evenly around a Ring: one simulated rank
s=$OUT/scale_even.etz g=$OUT/scale_even.json
[ -s "$s" ] && [ -s "$g" ] ||
	"$BIN/et-synth" coll -q --type all_reduce --size 1M --world 131072 --group-size 65536 \
		--ids local --write-comm-groups "$g" -o "$s"
row "2 groups of 65,536 around a Ring, folded" --set topology=Ring,Ring --set npus_count=65536,2 \
	--set bandwidth=50,50 --set latency=500,500 --comm-groups "$g" "$s"

# many groups, every rank simulated: 16,384 ranks in 8,192 pairs, where a
# counter per group for every simulated rank took 508 MB
s=$OUT/scale_pairs.etz g=$OUT/scale_pairs.json
[ -s "$s" ] && [ -s "$g" ] ||
	"$BIN/et-synth" coll -q --type all_reduce --size 1M --world 16384 --group-size 2 \
		--ids local --write-comm-groups "$g" -o "$s"
row "8,192 groups of 2 (16,384 ranks), --no-fold" --no-fold --comm-groups "$g" "$s"

# the large plans (BENCH_BIG=1): et-stage, then et-sim on one Switch
stage_row() { # LABEL STREAM ARGS...: BENCH_RUNS runs of et-stage ARGS -o STREAM
	local label=$1 st=$2 walls=() rsss=() i
	shift 2
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v "$BIN/et-stage" -q "$@" -o "$st" 2>"$TF" ||
			die "$label: et-stage failed: $(grep -v '^\s' "$TF" | head -1)"
		walls+=("$(tv_wall "$TF")")
		rsss+=("$(tv_rss "$TF")")
	done
	printf '%-44s %8.2f s %8s   %9.1f MB  stream %s MB\n' "$label" "$(median "${walls[@]}")" "" \
		"$(median "${rsss[@]}" | awk '{print $1 / 1024}')" \
		"$(stat -c %s "$st" | awk '{printf "%.1f", $1 / 1048576}')"
}
# validate_row LABEL STREAM: BENCH_RUNS runs of et-validate STREAM, and
# how many rank classes its deadlock check ran over (--timing)
validate_row() {
	local label=$1 st=$2 walls=() cpus=() rsss=() i k
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v "$BIN/et-validate" --timing "$st" 2>"$TF" >/dev/null ||
			die "$label: et-validate failed: $(grep -v '^\s' "$TF" | head -1)"
		walls+=("$(tv_wall "$TF")")
		cpus+=("$(tv_cpu "$TF")")
		rsss+=("$(tv_rss "$TF")")
	done
	k=$(sed -n 's/^timing: deadlock check over \([0-9]*\) rank classes.*/\1/p' "$TF")
	printf '%-44s %8.2f s %8.2f s %9.1f MB  deadlock check over %s\n' "$label" \
		"$(median "${walls[@]}")" "$(median "${cpus[@]}")" \
		"$(median "${rsss[@]}" | awk '{print $1 / 1024}')" "${k:-every rank} classes"
}
if [ "${BENCH_BIG:-0}" = 1 ]; then
	for dp in 64 128 1024 8192; do
		n=$((dp * 128))
		s=$OUT/scale_405b_dp$dp.etz
		stage_row "et-stage llama3-405b dp $dp tp 8 pp 16 ($n)" "$s" --model llama3-405b \
			--dp "$dp" --tp 8 --pp 16
		set -- --set topology=Switch --set npus_count=$n --set bandwidth=50 --set latency=500
		row "dp $dp ($n ranks), switch, folded" "$@" "$s"
		# et-validate of the same stream (not at dp 8192: about 3 minutes)
		[ "$dp" = 8192 ] || validate_row "et-validate dp $dp ($n ranks)" "$s"
	done
fi
