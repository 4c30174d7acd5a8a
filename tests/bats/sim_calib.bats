#!/usr/bin/env bats
# et-sim --calibrate: nccl-tests output and hardware tables fitted by size
# bands of t = alpha + S / beta (doc/hardware.md). The expectations are the
# published measurements themselves, read from the rows of tests/data/hw
# (8 x H100 all-reduce in place: 8 B in 13.03 us, 1 GiB in 4,016.4 us,
# 16 GiB in 62,636 us at 479.99 GB/s busbw), not the fit's own output.
load common

HW="$DATA/hw"
LOG="$HW/h100x8_dgxc_all_reduce.log"

# pred FILE FIT SIZE: the calibrated time (us) of SIZE bytes, from the band
# whose rows hold it
pred() {
	jq --argjson i "$2" --argjson s "$3" \
		'[.fits[$i].bands[] | select(.min_bytes <= $s and $s <= .max_bytes)][0] |
		 .alpha_us + $s / (.beta_gbps * 1e3)' "$1"
}
# within A B TOL: |A - B| <= TOL * B
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t * b) }'; }

@test "--calibrate: the 8 x H100 nccl-tests log in three bands, within the published times" {
	run -0 --separate-stderr et-sim --calibrate -o cal.json "$LOG"
	[[ "$stderr" == *"all_reduce, 8 ranks on 1 node, 32 rows"* ]]
	[[ "$stderr" == *"error mean"*"geomean"*"max"* ]]
	jq -e '.format == "etkit-calib" and .version == 1' cal.json
	jq -e '.fits[0] | .collective == "all_reduce" and .ranks == 8 and .nodes == 1 and
		.device == "NVIDIA H100 80GB HBM3" and .source.rows == 32 and (.bands | length) == 3' cal.json
	# the research fit of the spec: three bands, 3.3 % geometric-mean error
	jq -e '.fits[0].error.geomean <= 0.035' cal.json
	# the published rows, in place (the smaller time): 8 B 13.03 us, 1 GiB 4,016.4 us, 16 GiB 62,636 us
	within "$(pred cal.json 0 8)" 13.03 0.05
	within "$(pred cal.json 0 1073741824)" 4016.4 0.05
	within "$(pred cal.json 0 17179869184)" 62636 0.05
	# the large band's bus bandwidth is NVLS's, near 480 GB/s (all-reduce busbw = 1.75 algbw)
	jq -e '.fits[0].bands[2].beta_gbps * 1.75 | . > 440 and . < 490' cal.json
}

@test "--calibrate: the log and the table of one run give the same fit; NCCL INFO lines and a failed row are left out" {
	et-sim -q --calibrate -o a.json "$LOG"
	et-sim -q --calibrate -o b.json "$HW/h100x8_dgxc_all_reduce.tsv"
	diff <(jq -c '.fits[0].bands' a.json) <(jq -c '.fits[0].bands' b.json)
	# NCCL's log lines interleave with the rows in a real run's stdout
	awk 'NR % 5 == 0 { print "pool0-01806:1006102:1006102 [0] NCCL INFO Channel 00/32 : 0 1 2 3 4 5 6 7" } 1' \
		"$LOG" >info.log
	et-sim -q --calibrate -o c.json info.log
	diff <(jq -c '.fits[0].bands' a.json) <(jq -c '.fits[0].bands' c.json)
	# a row whose results were wrong (#wrong above 0) is not a timing
	sed -E 's/^( +1024 +256 +float +sum +-1 +[0-9.]+ +[0-9.]+ +[0-9.]+ +)0/\13/' "$LOG" >wrong.log
	et-sim -q --calibrate -o d.json wrong.log
	jq -e '.fits[0].source | .rows == 31 and .rows_dropped == 1' d.json
	# the same input gives the same bytes
	et-sim -q --calibrate -o e.json "$LOG"
	cmp a.json e.json
}

@test "--calibrate: every shipped table fits in three bands or fewer, within 3.5 % geometric mean" {
	run -0 --separate-stderr et-sim --calibrate -o all.json "$HW"/*_all_reduce.tsv "$LOG"
	assert_equal "$(jq '.fits | length' all.json)" 5
	jq -e '[.fits[] | .error.geomean <= 0.035 and (.bands | length) <= 3] | all' all.json
	# MI300X: rccl-tests on one node of 8
	jq -e '[.fits[] | select(.device | startswith("AMD Instinct MI300X"))] | length == 1' all.json
	# a table with busbw only: t = S * 1.75 / busbw (Azure ND H100 v5, 8 GiB at 478.87 GB/s busbw)
	within "$(pred all.json 1 8589934592)" "$(awk 'BEGIN { print 8589934592 * 1.75 / 478.87 / 1e3 }')" 0.05
}

# a log of N ranks and rows "size algbw busbw redop" (time from algbw)
mklog() {
	local n=$1
	shift
	echo "# nThread 1 nGpus $n minBytes 8 maxBytes 8388608 step: 2(factor) warmup iters: 5 iters: 20"
	for ((r = 0; r < n; r++)); do
		echo "#  Rank  $r Group  0 Pid 100$r on host$((r / 4)) device  $((r % 4)) [0000:19:00] NVIDIA H100 80GB HBM3"
	done
	while [ $# -gt 0 ]; do
		awk -v s="$1" -v a="$2" -v b="$3" -v op="$4" 'BEGIN {
			t = s / a / 1e3; printf "%12d %12d %8s %6s %6d %8.2f %7.2f %7.2f %6d %8.2f %7.2f %7.2f %6d\n",
			s, s / 4, "float", op, -1, t, a, b, 0, t, a, b, 0 }'
		shift 4
	done
}

@test "--calibrate: the collective is told by busbw / algbw and the redop, or named" {
	rows() { echo 1048576 10 "$1" "$2" 4194304 20 "$3" "$2" 16777216 40 "$4" "$2"; }
	# shellcheck disable=SC2046
	mklog 8 $(rows 8.75 none 17.50 35.00) >ag.log
	run -0 --separate-stderr et-sim --calibrate -o ag.json ag.log
	jq -e '.fits[0] | .collective == "all_gather" and .ranks == 8 and .nodes == 2' ag.json
	# shellcheck disable=SC2046
	mklog 8 $(rows 8.75 sum 17.50 35.00) >rs.log
	et-sim -q --calibrate -o rs.json rs.log
	jq -e '.fits[0].collective == "reduce_scatter"' rs.json
	# shellcheck disable=SC2046
	mklog 8 $(rows 10.00 none 20.00 40.00) >bc.log
	et-sim -q --calibrate -o bc.json bc.log
	jq -e '.fits[0].collective == "broadcast"' bc.json
	# a factor no collective has: it must be named
	# shellcheck disable=SC2046
	mklog 8 $(rows 13.00 none 26.00 52.00) >odd.log
	run -3 --separate-stderr et-sim --calibrate -o odd.json odd.log
	assert_equal "$stderr" "et-sim: odd.log: which collective these rows time cannot be told from them (alltoall reads as all_gather): give --collective NAME"
	[ ! -e odd.json ]
	et-sim -q --calibrate --collective alltoall -o odd.json odd.log
	jq -e '.fits[0].collective == "alltoall"' odd.json
}

@test "--calibrate: bad logs and bad usage are one-line errors, and no file is left" {
	: >empty.log
	run -3 --separate-stderr et-sim -q --calibrate -o out.json "$LOG" empty.log
	assert_equal "$stderr" "et-sim: empty.log: no timing rows (expected nccl-tests or rccl-tests output, or a hardware table with a size_bytes line)"
	[ ! -e out.json ]
	sed '16s/13.67/x13/' "$LOG" >bad.log
	run -3 --separate-stderr et-sim --calibrate bad.log
	assert_equal "$stderr" "et-sim: bad.log: line 16: a time, bandwidth or #wrong field is not a number >= 0"
	sed '17s/ 4 *float/ 4 float extra/' "$LOG" >bad2.log
	run -3 --separate-stderr et-sim --calibrate bad2.log
	[[ "$stderr" == "et-sim: bad2.log: line 17: a row needs 12 or 13 fields"* ]]
	grep -v '^#  Rank' "$LOG" >norank.log
	run -3 --separate-stderr et-sim --calibrate norank.log
	[[ "$stderr" == "et-sim: norank.log: the rank count is unknown"* ]]
	awk '/^ +8 +2 /{ $0 = "     999999999999999999 2 float sum -1 1 0 0 0 1 0 0 0" } 1' "$LOG" >big.log
	run -3 --separate-stderr et-sim --calibrate big.log
	[[ "$stderr" == "et-sim: big.log: line 16: the size is not a byte count" ]]
	run -2 --separate-stderr et-sim --calibrate --collective allreduce "$LOG"
	[[ "$stderr" == "et-sim: --collective: allreduce is none of all_reduce"* ]]
	run -2 --separate-stderr et-sim --collective all_reduce "$LOG"
	[[ "$stderr" == *"--collective goes with --calibrate"* ]]
	run -2 --separate-stderr et-sim --calibrate --network "$REPO/samples/Ring_8npus.yml" "$LOG"
	[[ "$stderr" == *"--calibrate fits collective timings"* ]]
	run -2 --separate-stderr et-sim --calibrate
	[[ "$stderr" == *"--calibrate needs one or more LOG files"* ]]
	run -4 --separate-stderr et-sim --calibrate nosuch.log
	[[ "$stderr" == "et-sim: nosuch.log"* ]]
}

@test "--calib: a calibration file predicts other measurements: the DGX H100 fit on Azure's H100 sweep" {
	et-sim -q --calibrate -o h100.json "$LOG"
	run -0 --separate-stderr et-sim --calibrate --calib h100.json -o pred.tsv "$HW/h100x8_azure_ndv5_all_reduce.tsv" "$LOG"
	[[ "${stderr_lines[0]}" == *"h100x8_azure_ndv5_all_reduce.tsv: all_reduce, 8 ranks on 1 node, 24 rows predicted by the fit of $LOG: error mean"* ]]
	assert_equal "$(head -1 pred.tsv)" "$(printf 'input\tsize_bytes\tmeasured_us\tpredicted_us\terror')"
	assert_equal "$(grep -c azure pred.tsv)" 24
	# the measured column is the published one: 8 GiB at 478.87 GB/s busbw is 31,391 us
	row=$(awk -F'\t' '$2 == 8589934592 && /azure/' pred.tsv)
	within "$(cut -f3 <<<"$row")" 31391.4 0.001
	# from 64 MiB, where both runs use NVLS, within 5 % of the measurement
	awk -F'\t' '/azure/ && $2 >= 67108864 && $5 > 0.05 { bad = 1 } END { exit bad }' pred.tsv
	# the fit's own rows give back the errors the file states
	g=$(jq .fits[0].error.geomean h100.json)
	awk -F'\t' -v g="$g" '/dgxc/ { e = $5 < 1e-6 ? 1e-6 : $5; s += log(e); n++ }
		END { d = exp(s / n) - g; if (d < 0) d = -d; exit !(d < 1e-4) }' pred.tsv
}

@test "--calib: a file that is not a calibration of this version, or that has no fit for the input, is refused" {
	et-sim -q --calibrate -o h100.json "$LOG"
	jq '.version = 2' h100.json >v2.json
	run -3 --separate-stderr et-sim --calibrate --calib v2.json "$LOG"
	assert_equal "$stderr" "et-sim: v2.json: version 2: this et-sim reads etkit-calib version 1"
	jq '.format = "x"' h100.json >fmt.json
	run -3 --separate-stderr et-sim --calibrate --calib fmt.json "$LOG"
	assert_equal "$stderr" 'et-sim: fmt.json: format "x": not an etkit-calib file'
	jq '.fits[0].bands[1].alpha_us = "12"' h100.json >a.json
	run -3 --separate-stderr et-sim --calibrate --calib a.json "$LOG"
	assert_equal "$stderr" "et-sim: a.json: fits[0].bands[1].alpha_us: expected a number >= 0, got a string"
	jq '.fits[0].bands[1].min_bytes = 64' h100.json >o.json
	run -3 --separate-stderr et-sim --calibrate --calib o.json "$LOG"
	assert_equal "$stderr" "et-sim: o.json: fits[0].bands[1].min_bytes: bands must ascend and not overlap"
	run -3 --separate-stderr et-sim --calibrate --calib h100.json --collective all_gather -o p.tsv "$LOG"
	assert_equal "$stderr" "et-sim: $LOG: h100.json holds no all_gather fit for 8 ranks"
	[ ! -e p.tsv ]
	run -2 --separate-stderr et-sim --calib h100.json "$LOG"
	[[ "$stderr" == *"--calib goes with --calibrate"* ]]
}

@test "--calibrate: each of the reader's limits and refusals names its line" {
	hdr() { sed -n '1,14p' "$LOG"; } # the header: 8 "# Rank" lines on one host
	{ hdr; sed -n '17p' "$LOG"; sed -n '16p' "$LOG"; } >desc.log
	run -3 --separate-stderr et-sim --calibrate desc.log
	assert_equal "$stderr" "et-sim: desc.log: line 16: sizes must ascend"
	{ hdr; sed -n '16p' "$LOG"; printf '%s\0\n' "junk"; } >nul.log
	run -3 --separate-stderr et-sim --calibrate nul.log
	assert_equal "$stderr" "et-sim: nul.log: line 16: a NUL byte: not text"
	{ hdr; echo "  8 2 float sum -1 0 0 0 0 0 0 0 0"; } >zero.log
	run -3 --separate-stderr et-sim --calibrate zero.log
	assert_equal "$stderr" "et-sim: zero.log: line 15: neither time is above 0"
	# at most 256 rows (the fit tries every split): the 257th is refused
	{ hdr; awk 'BEGIN { for (i = 1; i <= 257; i++) printf "%d %d float sum -1 10 0 0 0 10 0 0 0\n", i * 8, i * 2 }'; } >many.log
	run -3 --separate-stderr et-sim --calibrate many.log
	assert_equal "$stderr" "et-sim: many.log: line 271: more than 256 rows (a sweep by factors of 2 from 8 B to 16 GiB has 32)"
	{ hdr; awk 'BEGIN { for (i = 1; i <= 256; i++) printf "%d %d float sum -1 %d 0 0 0 %d 0 0 0\n", i * 8, i * 2, 10 + i, 10 + i }'; } >max.log
	run -0 --separate-stderr et-sim --calibrate --collective all_reduce -o max.json max.log
	jq -e '.fits[0].source.rows == 256' max.json
	sed 's/^# gpus: 8$/# gpus: eight/' "$HW/mi300x_1x8_all_reduce.tsv" >gpus.tsv
	run -3 --separate-stderr et-sim --calibrate gpus.tsv
	[[ "$stderr" == "et-sim: gpus.tsv: line "*": gpus and nodes must be counts" ]]
	# ranks on many hosts: every distinct host is a node (4,096 ranks, 2 a
	# host: 2,048 hosts, beyond the 1,024 an earlier build counted at most)
	{
		for ((r = 0; r < 4096; r++)); do
			echo "#  Rank $r Group  0 Pid 1 on node$((r / 2)) device  $((r % 2)) [0000:19:00] NVIDIA H100 80GB HBM3"
		done
		sed -n '16,47p' "$LOG"
	} >wide.log
	et-sim -q --calibrate --collective all_reduce -o wide.json wide.log
	jq -e '.fits[0] | .ranks == 4096 and .nodes == 2048' wide.json
}

@test "--calib: a fit without bands or with more than three is refused" {
	et-sim -q --calibrate -o h100.json "$LOG"
	jq '.fits[0].bands = []' h100.json >b0.json
	run -3 --separate-stderr et-sim --calibrate --calib b0.json "$LOG"
	assert_equal "$stderr" "et-sim: b0.json: fits[0].bands: expected an array of 1 to 3 bands, got an array"
	jq '.fits[0].bands += [.fits[0].bands[2] | .min_bytes = 1e11 | .max_bytes = 1e12]' h100.json >b4.json
	run -3 --separate-stderr et-sim --calibrate --calib b4.json "$LOG"
	assert_equal "$stderr" "et-sim: b4.json: fits[0].bands: expected an array of 1 to 3 bands, got an array"
	jq '.fits[0].ranks = 2.5' h100.json >r.json
	run -3 --separate-stderr et-sim --calibrate --calib r.json "$LOG"
	assert_equal "$stderr" "et-sim: r.json: fits[0].ranks: expected a whole count, got a number"
}
