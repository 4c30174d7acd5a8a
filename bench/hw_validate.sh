#!/usr/bin/env bash
# bench/hw_validate.sh: et-sim's collective timings against published
# measurements (tests/data/hw: nccl-tests / rccl-tests sweeps with their
# provenance). For every table: the fit of its own rows (et-sim --calibrate:
# bands, mean / geometric-mean / max relative error); then the calibration
# fitted on NVIDIA's DGX H100 log (CAL_FROM) predicting every other table of
# the same GPU, size by size (et-sim --calibrate --calib): measured,
# predicted, error, and the geometric mean.
#
# Not here yet (issue 30): tables of other GPUs predicted through hardware
# presets and NCCL's collective model, and whole training steps (steps.tsv)
# through et-stage | et-sim --hw; both need those presets.
#
# Environment: CAL_FROM (tests/data/hw/h100x8_dgxc_all_reduce.log),
# HW_DIR (tests/data/hw). Run after `make`.
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH_NAME=hw_validate
. bench/lib.sh
[ -x "$BIN/et-sim" ] || die "$BIN/et-sim missing: run 'make' first"
HW=${HW_DIR:-tests/data/hw}
FROM=${CAL_FROM:-$HW/h100x8_dgxc_all_reduce.log}
mkdir -p "$OUT"

echo "== each table fitted on its own rows (et-sim --calibrate)"
"$BIN/et-sim" --calibrate -o "$OUT/hw_all.json" "$HW"/*_all_reduce.tsv "$FROM" 2>&1 |
	sed 's/^et-sim: calibrate: //'

echo
echo "== the fit of $FROM predicting the other tables of its GPU"
"$BIN/et-sim" -q --calibrate -o "$OUT/hw_cal.json" "$FROM"
gpu=$(jq -r '.fits[0].device' "$OUT/hw_cal.json")
for t in "$HW"/*_all_reduce.tsv; do
	model=$(sed -n 's/^# gpu_model: //p' "$t")
	# the same GPU: the table's model names the log's device's product (H100)
	prod=$(grep -oE 'H100|H200|B200|A100|MI300X|MI325X|MI355X' <<<"$gpu" | head -1)
	[[ "$model" == *"$prod"* ]] || continue
	[ "$(basename "$t" .tsv)" = "$(basename "$FROM" .log)" ] && continue
	echo "-- $t ($model)"
	"$BIN/et-sim" --calibrate --calib "$OUT/hw_cal.json" -o "$OUT/hw_pred.tsv" "$t" 2>&1 |
		sed 's/^et-sim: calibrate: //'
	awk -F'\t' 'NR > 1 { printf "%14.0f B  measured %11.1f us  predicted %11.1f us  error %5.1f %%\n", $2, $3, $4, 100 * $5 }' \
		"$OUT/hw_pred.tsv"
done
