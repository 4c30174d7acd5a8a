#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# The option layer (libcommon/et_cli): every command's --help lists exactly
# the options of its table (--help-table), the options the suite shares read
# the same everywhere, and each short letter means one thing across the suite.
load common

COMMANDS=(et-convert et-validate et-sim et-viz et-stage "layerdag-sample fit" "layerdag-sample sample" "layerdag-sample eval" "et-synth coll" "et-synth p2p"
	"et-synth chain" "et-synth dag" "et-synth chakra-generator" "et-synth transform")

# "-x --long" or ". --long" per option line of --help (the option column)
help_options() {
	$1 --help | awk '
		/^  -[^-], --[a-z]/ { split($0, a, /[ ,]+/); print a[2], a[3]; next }
		/^      --[a-z]/    { split($0, a, /[ ]+/); print ".", a[2]; next }
		/^  -[^-] /         { split($0, a, /[ ]+/); print a[2], "." }'
}

table_options() {
	$1 --help-table | awk -F'\t' '{ s = $2 == ".." ? "." : $2; print s, $3 }'
}

@test "every command has a table, and --help lists exactly its options" {
	for cmd in "${COMMANDS[@]}"; do
		run $cmd --help-table
		assert_success
		[ -n "$output" ] || fail "$cmd: empty --help-table"
		diff <(help_options "$cmd" | sort) <(table_options "$cmd" | sort) ||
			fail "$cmd: --help and its table differ (< help, > table)"
	done
}

@test "--help wraps each option's help text without losing or joining words" {
	for cmd in "${COMMANDS[@]}"; do
		# the whole --help as one line of single spaces, and each help text so
		$cmd --help | tr -s ' \n' '  ' >flat
		$cmd --help-table | cut -f5 | tr -s ' ' >texts
		[ -s texts ] || fail "$cmd: no help texts"
		while IFS= read -r text; do
			[ -z "$text" ] || grep -qF -- "$text" flat || fail "$cmd: --help does not read '$text'"
		done <texts
	done
}

@test "the shared options have one letter and one help text across the suite" {
	for cmd in "${COMMANDS[@]}"; do
		$cmd --help-table | awk -F'\t' '$1 == "shared" { print $3 "\t" $2 "\t" $4 "\t" $5 }'
	done | sort -u >shared
	[ -s shared ]
	# one wording per long name
	dup=$(cut -f1,3,4 shared | sort -u | cut -f1 | uniq -d)
	[ -z "$dup" ] || fail "worded differently across commands: $dup"
	# one letter per long name; none only where a command's deprecated alias
	# still holds the letter for a release (et-synth coll's -t for --type)
	dup=$(awk -F'\t' '$2 != ".." { print $1 "\t" $2 }' shared | sort -u | cut -f1 | uniq -d)
	[ -z "$dup" ] || fail "lettered differently across commands: $dup"
	run et-synth coll --help-table
	assert_line --partial "shared	..	--to	"
	# the groups every command takes
	for o in --output --quiet --progress --help --version; do
		grep -q "^$o	" shared || fail "$o is not shared"
	done
}

@test "each short letter belongs to one long option across the suite" {
	for cmd in "${COMMANDS[@]}"; do
		$cmd --help-table | awk -F'\t' '$2 != ".." { print $2, $3 }'
	done | sort -u >letters
	[ -s letters ]
	dup=$(cut -d' ' -f1 letters | uniq -d)
	[ -z "$dup" ] || fail "letters with two meanings: $dup ($(grep -- "^$dup " letters | tr '\n' ' '))"
	grep -qx -- '-T --threads' letters
	! grep -q -- '^-T --format' letters
}

@test "et-viz's old letters still work, hidden and warned" {
	et-synth coll --type all_reduce --size 1M --world 2 -o ar.etz
	run --separate-stderr et-viz -F dot ar.etz
	assert_success
	expected=$output
	run --separate-stderr et-viz -T dot ar.etz
	assert_success
	assert_output "$expected"
	# (the first line: sanitizer builds may add their own report)
	[ "${stderr_lines[0]}" = "et-viz: warning: -T is deprecated, use --format; -T is --threads" ]
	run et-viz --help
	refute_output --partial "-T,"
	refute_output --partial "-t,"
	run --separate-stderr et-viz -C 'x' -F dot ar.etz
	assert_success
	[[ $stderr != *deprecated* ]]
}

@test "--from: one list of formats and one answer for what a command cannot read" {
	for cmd in et-validate et-sim et-viz; do
		run --separate-stderr $cmd --from nope x
		assert_failure 2
		[[ $stderr == "$cmd: --from: expected stream, et, json, pytorch, hlo, stablehlo or astra-text, got 'nope'"* ]]
		run --separate-stderr $cmd --from pytorch x
		assert_failure 2
		[[ $stderr == "$cmd: --from pytorch: PyTorch host traces are read by et-convert; convert first: et-convert --from pytorch FILE | $cmd"* ]]
		for f in hlo stablehlo astra-text; do
			run --separate-stderr $cmd --from $f x
			assert_failure 2
			[[ $stderr == "$cmd: --from $f: compiler programs are read by et-convert; convert first: et-convert --from $f FILE | $cmd"* ]]
		done
	done
	for cmd in et-convert et-validate et-sim et-viz; do
		run --separate-stderr $cmd --from kineto x
		assert_failure 2
		[[ $stderr == "$cmd: --from kineto: a Kineto trace is read with its host trace: et-convert --from pytorch HOST.json --kineto KINETO.json"* ]]
	done
}

@test "usage errors: one line naming the command and the option, control characters scrubbed, exit 2" {
	run --separate-stderr et-viz --rankdir $'a\x1b[31mb'
	assert_failure 2
	[ "$stderr" = "et-viz: --rankdir: expected TB or LR, got 'a?[31mb'
Try 'et-viz --help' for more information." ]
	run --separate-stderr et-sim --bogus
	assert_failure 2
	[ "${stderr%%$'\n'*}" = "et-sim: unknown option '--bogus'" ]
	run --separate-stderr et-validate --strict=1
	assert_failure 2
	[ "${stderr%%$'\n'*}" = "et-validate: option '--strict' takes no argument" ]
	run --separate-stderr et-validate --max-per-code
	assert_failure 2
	[ "${stderr%%$'\n'*}" = "et-validate: option '--max-per-code' needs an argument" ]
	run --separate-stderr et-viz -d x
	assert_failure 2
	[ "${stderr%%$'\n'*}" = "et-viz: --depth: expected an integer from 0 to 1000000, got 'x'" ]
	run --separate-stderr et-sim --format yaml
	assert_failure 2
	[ "${stderr%%$'\n'*}" = "et-sim: --format: expected text or json, got 'yaml'" ]
}

@test "options and operands mix; -- ends the options" {
	et-synth coll --type all_reduce --size 1M --world 2 -o ar.etz
	run et-validate ar.etz --strict
	assert_success
	cp ar.etz ./-x.etz
	run et-validate --strict -- -x.etz
	assert_success
}

@test "--version: the program's name and the suite's version" {
	for cmd in "${COMMANDS[@]}"; do
		run $cmd --version
		assert_success
		[[ $output =~ ^(et-[a-z]+|layerdag-sample)\ \(etkit\)\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "$cmd: $output"
	done
}

@test "et-synth's old letters: coll -t is --type, chakra-generator -d is --out-dir, warned" {
	et-synth coll --type all_gather --size 64K --world 2 -o new.etz
	run --separate-stderr et-synth coll -t all_gather --size 64K --world 2 -o old.etz
	assert_success
	[ "$stderr" = "et-synth coll: warning: -t is deprecated, use --type; -t is --to" ]
	cmp new.etz old.etz
	run --separate-stderr et-synth chakra-generator --world 2 -d gen
	assert_success
	[ "$stderr" = "et-synth chakra-generator: warning: -d is deprecated, use --out-dir; -d is --depth" ]
	[ -f gen/one_comp_node.0.et ]
}

@test "commands made of subcommands: one dispatcher, the same answers (et-synth, layerdag-sample)" {
	for cmd in et-synth layerdag-sample; do
		run -2 $cmd bogus
		assert_line --index 1 "Try '$cmd --help' for more information."
		run -2 $cmd
		assert_output --partial "Usage: $cmd SUBCOMMAND"
		run -0 $cmd --help
		assert_output --partial "Usage: $cmd SUBCOMMAND"
	done
	run -2 et-synth bogus
	assert_line --index 0 "et-synth: unknown subcommand 'bogus' (coll, p2p, chain, dag, chakra-generator, transform)"
	run -2 layerdag-sample bogus
	assert_line --index 0 "layerdag-sample: unknown subcommand 'bogus' (fit, sample, eval)"
}
