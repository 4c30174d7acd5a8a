#!/usr/bin/env bats
# Interrupted jobs (libcommon/et_output): SIGINT, SIGTERM, SIGHUP and
# SIGPIPE while a tool writes -o FILE or --split leave no temporary file and
# no partial output, and the tool dies of the signal; full disks are exit 4
# with the file's name, also when stdout is the full device.
load common
bats_require_minimum_version 1.5.0

setup_file() {
	# big enough that every tool below is still writing after a moment
	et-synth dag --nodes 1500000 --width 64 --world 2 -q -o "$BATS_FILE_TMPDIR/big.etz"
}

# interrupt SIG CMD...: run CMD in the background with SIG at its default
# disposition (a script's background jobs ignore SIGINT otherwise), send SIG
# once a temporary file of the output exists, and check what is left.
interrupt() {
	local sig=$1
	shift
	env --default-signal="$sig" "$@" >/dev/null 2>err &
	local pid=$! k
	for k in $(seq 600); do # up to 30 s: a sanitized generator builds its first rank first
		compgen -G '*.tmp*' >/dev/null || compgen -G 'sp/*.tmp*' >/dev/null && break
		sleep 0.05
	done
	compgen -G '*.tmp*' >/dev/null || compgen -G 'sp/*.tmp*' >/dev/null ||
		fail "$*: no temporary file appeared"
	kill -s "$sig" "$pid"
	local status=0
	wait "$pid" || status=$?
	[ "$status" -gt 128 ] || fail "$*: exit $status after SIG$sig, expected death by the signal"
	local left
	left=$(find . -name '*.tmp*' -o -name 'out*' -o -name 'x.*.et')
	[ -z "$left" ] || fail "$* left after SIG$sig: $left"
}

@test "no temporary file survives SIGINT, SIGTERM, SIGHUP or SIGPIPE, in any tool" {
	[ -z "${ETKIT_VALGRIND:-}" ] || skip "under valgrind the signal reaches valgrind first"
	B=$BATS_FILE_TMPDIR/big.etz
	mkdir sp
	for sig in INT TERM HUP PIPE; do
		interrupt $sig et-convert "$B" --to jsonl -o out.jsonl
		interrupt $sig et-convert "$B" --to et --split sp/x
		interrupt $sig et-validate --tee-always "$B" -o out.txt
		interrupt $sig et-synth transform --scale-compute 2 "$B" -o out.etz
		interrupt $sig et-synth dag --nodes 3000000 --world 4 -o out.etz
		interrupt $sig et-synth dag --nodes 3000000 --world 4 --split sp/x
		interrupt $sig et-viz "$B" --ranks 0 --ids 0-1999 --max-nodes 2000 -F svg -o out.svg
	done
}

@test "an ignored signal stays ignored (nohup): the job finishes and commits" {
	et-synth coll --type all_reduce --size 1M --world 4 -o ar.etz
	run bash -c 'trap "" HUP; kill -HUP $$; exec et-convert ar.etz --to jsonl -o out.jsonl'
	assert_success
	[ -s out.jsonl ]
}

@test "write errors name the file or device, also when it is stdout; exit 4" {
	[ -w /dev/full ] || skip "no /dev/full"
	et-synth coll --type all_reduce --size 1M --world 2 -o ar.etz
	for cmd in "et-convert ar.etz --to jsonl" "et-validate ar.etz" "et-sim ar.etz" \
		"et-viz ar.etz -F dot" "et-viz ar.etz -F svg" \
		"et-synth coll --type all_reduce --size 1M --world 2"; do
		run --separate-stderr $cmd -o /dev/full
		assert_failure 4
		[[ ${stderr_lines[0]} == *"/dev/full: write error: No space left on device" ]] ||
			fail "$cmd -o: $stderr"
		run --separate-stderr bash -c "$cmd > /dev/full"
		assert_failure 4
		[[ ${stderr_lines[0]} == *"/dev/full: write error: No space left on device" ]] ||
			fail "$cmd >: $stderr"
	done
}

@test "et-synth chakra-generator --out-dir is all or nothing under SIGINT, SIGTERM, SIGHUP and SIGPIPE" {
	[ -z "${ETKIT_VALGRIND:-}" ] || skip "under valgrind the signal reaches valgrind first"
	mkdir sp
	for sig in INT TERM HUP PIPE; do
		# 1,024 ranks: 14,336 files, a few seconds of writing
		interrupt $sig et-synth chakra-generator --world 1024 --out-dir sp
		[ -z "$(ls -A sp)" ] || fail "SIG$sig left $(ls sp | wc -l) files in the folder"
	done
}

# et-stage's output set (issue 27, item 11): the ranks and the comm-group file
# (--write-comm-groups, or NAME.json of --output_dir) appear together or not at all.
@test "et-stage: a failing run leaves neither the comm groups nor the ranks; exit 4" {
	p=(--model_type gpt --layers 2 --d-model 64 --d-ff 128 --heads 4 --vocab 100 --seq 16 --dp 2)
	run -4 et-stage "${p[@]}" --write-comm-groups g.json -o missing/x.etz
	assert_output --partial "the folder missing does not exist"
	[ -z "$(ls -A)" ] || fail "left: $(ls -A)"
	if [ -w /dev/full ]; then
		run -4 et-stage "${p[@]}" --write-comm-groups g.json -o /dev/full
		[ -z "$(ls -A)" ] || fail "-o /dev/full left: $(ls -A)"
		run -4 bash -c "et-stage ${p[*]} --write-comm-groups g.json > /dev/full"
		[ -z "$(ls -A)" ] || fail "> /dev/full left: $(ls -A)"
	fi
	# --output_dir: the first rank cannot be put in place (a folder has its name)
	mkdir -p D/workload.0.et
	run -4 et-stage "${p[@]}" --output_dir D
	assert_output --partial "D/workload.0.et"
	[ "$(ls -A D)" = workload.0.et ] || fail "D holds: $(ls -A D)"
	rm -r D
	# the comm groups cannot be written: the folder this run made goes too
	run -4 et-stage "${p[@]}" --output_dir E --write-comm-groups missing/g.json
	[ -z "$(ls -A)" ] || fail "left: $(ls -A)"
	# and when all goes well, all of it is there
	et-stage "${p[@]}" --output_dir E
	[ "$(ls E | tr '\n' ' ')" = "workload.0.et workload.1.et workload.json " ]
	et-stage "${p[@]}" --write-comm-groups g.json -o x.etz
	[ -s g.json ] && [ -s x.etz ]
}

@test "et-stage: a run killed by SIGINT, SIGTERM, SIGHUP or SIGPIPE leaves neither the comm groups nor the ranks" {
	[ -z "${ETKIT_VALGRIND:-}" ] || skip "under valgrind the signal reaches valgrind first"
	# 1,024 ranks: a few seconds of writing
	p=(--model llama3-8b --dp 32 --tp 8 --pp 4)
	mkdir sp
	for sig in INT TERM HUP PIPE; do
		interrupt $sig et-stage "${p[@]}" --write-comm-groups out.json -o out.etz
		interrupt $sig et-stage "${p[@]}" --write-comm-groups out.json --split sp/x
		interrupt $sig et-stage "${p[@]}" --output_dir sp --output_name out
		[ -z "$(ls -A sp)" ] || fail "SIG$sig left $(ls sp | wc -l) files in the folder"
	done
}
