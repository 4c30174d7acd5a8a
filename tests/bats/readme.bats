#!/usr/bin/env bats
# README.md's commands run as written (issue 15, item 8): every line of its
# sh blocks but `make ...`, and the first cell of each et-viz gallery row,
# in order, in one scratch directory that sees the repository's samples/
# and tests/ (as the repository root would). A command exits 0, or the
# status its comment names: "(exit N)".
load common

# The commands, one per line, from README.md.
readme_commands() {
	awk '
		/^```sh$/ { inblock = 1; next }
		/^```$/ { inblock = 0; next }
		inblock && !/^[ \t]*(#|$)/ && !/^make / { print; next }
		/^\| command \|/ { gallery = 1; next }
		gallery && !/^\|/ { gallery = 0 }
		gallery && /^\| `et-/ {
			line = $0
			gsub(/\\\|/, "\001", line)        # escaped pipes inside the cell
			split(line, cell, "|")
			cmd = cell[2]
			gsub(/^ *`|` *$/, "", cmd)
			gsub(/\001/, "|", cmd)
			print cmd
		}
	' "$REPO/README.md"
}

@test "README: the command list is what we think it is" {
	run -0 readme_commands
	# 9 et-convert and 1 et-sim on its output, 3 et-validate, 10 et-sim, 4 et-synth, 7 et-stage,
	# 6 layerdag-sample (one of them et-convert), the gallery input, 6 gallery rows
	[ "${#lines[@]}" -eq 46 ] || fail "${#lines[@]} commands, not 46: $output"
	assert_line "et-convert samples/all_reduce_8/all_reduce -o ar.etz"
	assert_line "et-viz --timeline --schedule s.jsonl -o gantt.svg"
	assert_line "et-stage --list-models"
	refute_line --partial "..."
	refute_line --regexp "^make "
}

@test "README: every command runs as written, in order" {
	ln -s "$REPO/samples" samples
	ln -s "$REPO/tests" tests
	local n=0
	while IFS= read -r cmd; do
		n=$((n + 1))
		want=0
		[[ $cmd =~ \(exit\ ([0-9]+)\) ]] && want=${BASH_REMATCH[1]}
		run bash -o pipefail -c "$cmd" </dev/null
		[ "$status" -eq "$want" ] || fail "command $n exited $status, not $want: $cmd
$output"
	done < <(readme_commands)
	# what the commands say they make
	[ -s out/ar.7.et ] && [ -s conv.png ] && [ -s gantt.svg ] && [ -s shareable.etz ]
	[ "$(jq length stage/workload.json)" = 16 ] && [ -s stage/workload.7.et ]
	[ "$(jq length groups.json)" = 16 ]
	[ "$(et-validate -q decode.etz --format json | jq .ranks)" = 8 ]
	[ "$(et-validate -q shard.0.etz --format json | jq .ranks)" = 2048 ]
	et-sim --set topology=Switch --set npus_count=2048 scale.etz | head -1 |
		grep -q "(rank classes: 16 of 2048 ranks simulated)"
	[ "$(et-validate -q shareable.etz --format json | jq .ranks)" = 256 ]
	[ "$(grep -c "^g " samples.txt)" = 630 ] && [ -s diffusion.bin ] && [ -s ar.txt ]
	[ "$(wc -l <links.csv)" = $((2 * 288 + 1)) ]
	[ "$(jq length sm.json)" = 0 ] && [ "$(et-validate -q rn.etz --format json | jq .ranks)" = 4 ]
}
