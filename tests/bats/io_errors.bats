#!/usr/bin/env bats
# Write errors, every output of every tool (issue 27): a full device
# (-o /dev/full, and stdout redirected to it), a folder that does not exist,
# a read-only folder, and a disk that fills while the tool writes (a file-size
# limit, so that writes fail with EFBIG). Each ends in exit 4 and one line
# "TOOL: OUTPUT...", and leaves no file (no output, no temporary file) behind.
#
# The tables have one row per tool, output and format:
#   KIND EXT COMMAND...   with @ where the output's name goes
# KIND: M the main output (-o @; also run with stdout, without -o @),
#       S a side file (--schedule @, --write-comm-groups @ ...),
#       D a per-rank prefix or a folder (--split @, --out-dir @): no /dev/full,
#       T stdout only (the command as it is, stdout on /dev/full).
load common

setup_file() {
	cd "$BATS_FILE_TMPDIR"
	et-synth coll --type all_reduce --size 1M --world 2 -o ar.etz
	# outputs bigger than stdio's buffer: their writes fail while writing, not
	# only at the final flush
	et-synth dag --nodes 20000 --world 2 -q -o big.etz
	layerdag-sample fit -q "$REPO/samples/layerdag/tpu_tile_val.txt.gz" -o m.txt
	layerdag-sample sample -q m.txt --count 3 --y 2.5 -o s.txt
	layerdag-sample fit -q ar.etz -o met.txt
	layerdag-sample fit -q --model diffusion --epochs 1 s.txt -o d.bin
	layerdag-sample fit -q --model diffusion --epochs 1 ar.etz -o det.bin
	head -c 500 big.etz >trunc.etz
}

setup() {
	T="$BATS_TEST_TMPDIR"
	cd "$T"
	ln -s "$BATS_FILE_TMPDIR"/* .
	mkdir o # every output goes here: it must be empty after a failure
}

# the lines of $output that are not warnings: the error, alone (under
# `make sanitize-test`, LeakSanitizer's table of the Graphviz suppressions
# it used follows it: not the tool's)
error_line() {
	local lines
	lines=$(grep -v ': warning: ' <<<"$output" |
		grep -Ev '^-+$|^Suppressions used:$|^ +count +bytes +template$|^ +[0-9]+ +[0-9]+ +lib[a-z_]+(\.so)?$')
	[ "$(grep -c '' <<<"$lines")" = 1 ] || fail "$CMD: not one error line: $output"
	printf '%s' "$lines"
}

# expect WANT...: exit 4, the error line is "TOOL: " followed by one of the
# patterns WANT (globs), and o/ holds no file
expect() {
	[ "$status" = 4 ] || fail "$CMD: exit $status, expected 4: $output"
	local line w
	line=$(error_line) || return 1
	for w in "$@"; do
		# shellcheck disable=SC2053
		[[ $line == "$TOOL: "$w ]] && break
		w=
	done
	[ -n "$w" ] || fail "$CMD: unexpected message: $line"
	local left
	left=$(find o -type f)
	[ -z "$left" ] || fail "$CMD: left behind: $left"
}

can_ro() {
	[ "$(id -u)" != 0 ] && return 0
	mkdir -p "$BATS_TEST_TMPDIR/rocheck"
	unshare -m sh -c "mount -t tmpfs -o ro,size=64k none '$BATS_TEST_TMPDIR/rocheck'" 2>/dev/null
}

# CMD with o/ro read-only: for root, whom file modes do not stop, a read-only
# tmpfs mounted in a mount namespace of the command's own
run_ro() {
	mkdir -p o/ro
	if [ "$(id -u)" != 0 ]; then
		chmod 555 o/ro
		run bash -c "$1 2>&1 >/dev/null"
		chmod 755 o/ro
	else
		run unshare -m bash -c "mount -t tmpfs -o ro,size=64k none o/ro && { $1; } 2>&1 >/dev/null"
	fi
}

# check_rows ROW...: every row against every target of its kind
check_rows() {
	local row kind ext cmd ro=1 full=1
	can_ro || ro=0
	# a file-size limit under valgrind stops valgrind's own files
	[ -z "${ETKIT_VALGRIND:-}" ] || full=0
	for row in "$@"; do
		read -r kind ext cmd <<<"$row"
		TOOL=${cmd%% *}
		local x=x.$ext
		[ "$kind" = D ] && x=x
		if [ "$kind" = T ]; then
			CMD="$cmd >/dev/full"
			run bash -c "$cmd 2>&1 >/dev/full"
			expect "/dev/full: write error: No space left on device"
			continue
		fi
		if [ "$kind" != D ]; then
			CMD=${cmd//@//dev/full}
			run bash -c "$CMD 2>&1 >/dev/null"
			expect "/dev/full: write error: No space left on device"
		fi
		if [ "$kind" = M ]; then
			CMD="${cmd/ -o @/} >/dev/full"
			run bash -c "${cmd/ -o @/} 2>&1 >/dev/full"
			expect "/dev/full: write error: No space left on device"
		fi
		CMD=${cmd//@/o/nodir/$x}
		run bash -c "$CMD 2>&1 >/dev/null"
		expect "o/nodir/x*: cannot create: the folder o/nodir does not exist (create it first)" \
			"o/nodir/x*: cannot create *: No such file or directory"
		if [ $ro = 1 ]; then
			CMD=${cmd//@/o/ro/$x}
			run_ro "$CMD"
			expect "o/ro/x*: cannot create*: Read-only file system" "o/ro/x*: cannot create*: Permission denied"
			rmdir o/ro
		fi
		if [ $full = 1 ]; then
			CMD="${cmd//@/o/$x} (file-size limit 0)"
			run bash -c "trap '' XFSZ; ulimit -f 0; ${cmd//@/o/$x} 2>&1 >/dev/null"
			expect "o/*: write error: File too large" "the temporary file holding the output: write error: File too large"
		fi
		rm -rf o/*
	done
}

@test "et-convert: every output format, --split, --write-comm-groups, on write errors: exit 4, the output named, no file" {
	local pt="$DATA/pytorch/cpu-gloo-mlp-2rank/host_et.0.json.gz"
	local hlo="$DATA/compiler/clarkechong_gspmd.after_spmd_partitioner.txt"
	check_rows \
		"M etz et-convert ar.etz -o @" \
		"M etz et-convert big.etz -o @" \
		"M et et-convert ar.etz --to et --ranks 0 -o @" \
		"M json et-convert ar.etz --to json -o @" \
		"M jsonl et-convert big.etz --to jsonl -o @" \
		"M json et-convert ar.etz --to jsonizer --ranks 0 -o @" \
		"M etz et-convert $pt -o @" \
		"M etz et-convert -q $hlo -o @" \
		"M etz et-convert --from astra-text $DATA/astra-text/microAllReduce.txt --world 4 -o @" \
		"D et et-convert big.etz --split @" \
		"S json et-convert --write-comm-groups @ $pt -o o/y.etz" \
		"S json et-convert -q $hlo --write-comm-groups @ -o o/y.etz"
}

@test "et-validate: the text and JSON reports, --tee and --tee-always, on write errors: exit 4, the output named, no file" {
	check_rows \
		"M txt et-validate ar.etz -o @" \
		"M json et-validate ar.etz --format json -o @" \
		"S txt et-validate --tee ar.etz -o @" \
		"S txt et-validate --tee-always big.etz -o @" \
		"T - et-validate --tee big.etz -o o/r.txt" \
		"T - et-validate --tee-always big.etz -o o/r.txt" \
		"T - et-validate --tee ar.etz -o o/r.txt"
}

@test "et-viz: dot, svg, png, pdf and the timelines, on write errors: exit 4, the output named, no file" {
	local sch="$DATA/viz/schedule.jsonl"
	check_rows \
		"M dot et-viz ar.etz -F dot -o @" \
		"M svg et-viz ar.etz -F svg -o @" \
		"M png et-viz ar.etz -F png -o @" \
		"M pdf et-viz ar.etz -F pdf -o @" \
		"M dot et-viz big.etz --ranks 0 --ids 0-299 -F dot -o @" \
		"M svg et-viz big.etz --ranks 0 --ids 0-299 -F svg -o @" \
		"M png et-viz big.etz --ranks 0 --ids 0-299 -F png -o @" \
		"M json et-viz --timeline --schedule $sch -F json -o @" \
		"M svg et-viz --timeline --schedule $sch -F svg -o @"
}

@test "et-sim: text, JSON, ASTRA-sim log and sweep reports, --schedule, --trace, --link-stats, on write errors: exit 4, the output named, no file" {
	local aware="--backend aware --set topology=Ring --set npus_count=2 --set bandwidth=50 --set latency=500"
	check_rows \
		"M txt et-sim ar.etz -o @" \
		"M json et-sim ar.etz --format json -o @" \
		"M txt et-sim ar.etz --critical-path -o @" \
		"M txt et-sim ar.etz --astra-sim-log -o @" \
		"M csv et-sim ar.etz --sweep bandwidth=25,50 -o @" \
		"M txt et-sim big.etz -o @" \
		"S jsonl et-sim ar.etz --schedule @ -o o/r.txt" \
		"S jsonl et-sim big.etz --schedule @ -o o/r.txt" \
		"S json et-sim ar.etz --trace @ -o o/r.txt" \
		"S csv et-sim $aware ar.etz --link-stats @ -o o/r.txt"
}

@test "et-synth: every subcommand, --split, --write-comm-groups, --out-dir, on write errors: exit 4, the output named, no file" {
	check_rows \
		"M etz et-synth coll --type all_reduce --size 1M --world 2 -o @" \
		"M etz et-synth p2p --pattern ring --size 1K --world 4 -o @" \
		"M etz et-synth chain --layers 3 --compute-us 10 --size 1M --world 2 -o @" \
		"M etz et-synth dag --nodes 20000 --world 2 -q -o @" \
		"M jsonl et-synth dag --nodes 2000 --world 2 --to jsonl -o @" \
		"M json et-synth dag --nodes 100 --world 2 --to json -o @" \
		"M etz et-synth transform --scale-compute 2 big.etz -o @" \
		"D et et-synth dag --nodes 2000 --world 2 --split @" \
		"S json et-synth coll --type all_reduce --size 1M --world 4 --group-size 2 --write-comm-groups @ -o o/y.etz" \
		"D - et-synth chakra-generator --world 2 --out-dir @"
}

@test "et-stage: the stream, --split, --write-comm-groups, --output_dir, on write errors: exit 4, the output named, no file" {
	local m="--model llama2-7b --layers 2 --seq 64 --dp 2"
	check_rows \
		"M etz et-stage $m -o @" \
		"M jsonl et-stage $m --to jsonl -o @" \
		"D et et-stage $m --split @" \
		"S json et-stage $m --write-comm-groups @ -o o/y.etz" \
		"D - et-stage --compat stage --model_type gpt --num_stacks 2 --dmodel 128 --dff 512 --head 4 --dp 2 --output_dir @"
}

@test "layerdag-sample: fit's models (counts, diffusion), sample (text and ET), eval (text and JSON), on write errors: exit 4, the output named, no file" {
	local c="$REPO/samples/layerdag/tpu_tile_val.txt.gz"
	check_rows \
		"M txt layerdag-sample fit -q $c -o @" \
		"M txt layerdag-sample fit -q ar.etz -o @" \
		"M txt layerdag-sample sample -q m.txt --count 3 --y 2.5 -o @" \
		"M etz layerdag-sample sample -q met.txt --format et --world 2 -o @" \
		"M bin layerdag-sample fit -q --model diffusion --epochs 1 s.txt -o @" \
		"M txt layerdag-sample sample -q d.bin --count 3 --y 2.5 -o @" \
		"M etz layerdag-sample sample -q det.bin --format et --y 1 -o @" \
		"M txt layerdag-sample eval -q $c s.txt -o @" \
		"M json layerdag-sample eval -q $c s.txt --format json -o @"
}

@test "side files appear with the main output or not at all: a failed -o leaves no --schedule, --trace or comm-group file" {
	local pt="$DATA/pytorch/cpu-gloo-mlp-2rank/host_et.0.json.gz"
	for cmd in "et-sim ar.etz --schedule o/s.jsonl --trace o/t.json -o /dev/full" \
		"et-convert --write-comm-groups o/g.json $pt -o /dev/full" \
		"et-convert -q $DATA/compiler/clarkechong_gspmd.after_spmd_partitioner.txt --write-comm-groups o/g.json -o /dev/full" \
		"et-synth coll --type all_reduce --size 1M --world 4 --group-size 2 --write-comm-groups o/g.json -o /dev/full"; do
		CMD=$cmd TOOL=${cmd%% *}
		run bash -c "$cmd 2>&1 >/dev/null"
		expect "/dev/full: write error: No space left on device"
		# and with a good -o, all of them are there
		run bash -c "${cmd//\/dev\/full/o/main} 2>&1"
		assert_success
		[ -s o/main ] && [ -n "$(find o -type f ! -name main)" ] || fail "$cmd: $(ls o)"
		rm -f o/*
	done
}

@test "bad input after the outputs were opened: exit 3 and no file, in every tool" {
	printf 'g 0 2 1 1\nx 18\n' >bad.txt # fewer attributes than nodes
	for cmd in "et-convert trunc.etz -o o/x.etz" "et-convert trunc.etz --to jsonl -o o/x.jsonl" \
		"et-convert trunc.etz --split o/x" \
		"et-validate --tee trunc.etz -o o/r.txt" "et-validate --tee-always trunc.etz -o o/r.txt" \
		"et-viz trunc.etz -F svg -o o/x.svg" \
		"et-sim trunc.etz --schedule o/s.jsonl -o o/r.txt" \
		"et-synth transform --scale-compute 2 trunc.etz -o o/x.etz" \
		"layerdag-sample fit bad.txt -o o/m.txt" \
		"layerdag-sample eval bad.txt s.txt -o o/r.txt"; do
		run bash -c "$cmd 2>&1 >/dev/null"
		[ "$status" = 3 ] || fail "$cmd: exit $status: $output"
		[ -z "$(find o -type f)" ] || fail "$cmd left $(find o -type f)"
	done
}

@test "--help, --version and --list-models on a full stdout: exit 4 and the message, in every tool and subcommand" {
	for t in et-convert et-validate et-viz et-sim et-stage et-synth "et-synth coll" "et-synth transform" \
		layerdag-sample "layerdag-sample fit" "layerdag-sample eval"; do
		for o in --help --version; do
			CMD="$t $o" TOOL=${t%% *}
			run bash -c "$t $o 2>&1 >/dev/full"
			expect "/dev/full: write error: No space left on device"
		done
	done
	CMD="et-stage --list-models" TOOL=et-stage
	run bash -c "et-stage --list-models 2>&1 >/dev/full"
	expect "/dev/full: write error: No space left on device"
}
