#!/usr/bin/env bats
# layerdag-sample: the corpus reader and eval's metrics, on the LayerDAG
# training corpus (tests/data/layerdag, 630 TpuGraphs tile kernels).
load common

C="$REPO/samples/layerdag/tpu_tile_val.txt.gz"

@test "eval of the corpus against itself: valid, role-valid, MMD² 0, not novel, the spec's sink roles" {
	run -0 layerdag-sample eval "$C" "$C" --format json
	j=$output
	[ "$(jq -r '.real, .synthetic, .validity, .role_validity, .novelty' <<<"$j" | tr '\n' ' ')" = "630 630 1 1 0 " ]
	# attributes 29 and 7 (parameters, constants) never have a successor; so does the rare 19
	[ "$(jq -c .sink_roles <<<"$j")" = "[7,19,29]" ]
	for s in in-degree out-degree "layer width" "layer count" attributes "edge layer span"; do
		jq -e --arg s "$s" '.mmd2[$s] | fabs < 1e-12' <<<"$j" >/dev/null || fail "$s: not 0"
		# the floor (even half against odd half) is small but not 0
		jq -e --arg s "$s" '.mmd2_floor[$s] > 0 and .mmd2_floor[$s] < 0.02' <<<"$j" >/dev/null ||
			fail "$s: floor $(jq --arg s "$s" '.mmd2_floor[$s]' <<<"$j")"
	done
	# many graphs share a structure (the spec: "many different-label graphs share the same structure")
	jq -e '.uniqueness > 0.4 and .uniqueness < 0.6' <<<"$j" >/dev/null
	# structure predicts the label only partly: the spec's ceiling is about 0.69
	jq -e '.surrogate_real_cv.pearson > 0.4 and .surrogate_real_cv.pearson < 0.69' <<<"$j" >/dev/null
}

@test "eval: a cyclic graph, a self edge and a successor on a sink role are counted" {
	printf 'g 0 3 3 1\nx 18 29 4\ne 0 1\ne 1 2\ne 2 0\n' >s.txt  # cycle, and 29 has a successor
	printf 'g 1 2 1 1\nx 18 4\ne 1 1\n' >>s.txt                  # self edge
	printf 'g 2 2 1 1\nx 18 7\ne 0 1\n' >>s.txt                  # fine
	printf 'g 3 2 2 1\nx 18 7\ne 0 1\ne 0 1\n' >>s.txt           # duplicate edge
	run -0 layerdag-sample eval "$C" s.txt --format json
	[ "$(jq -r '.validity, .role_validity' <<<"$output" | tr '\n' ' ')" = "0.25 0.75 " ]
	run -0 layerdag-sample eval "$C" s.txt
	assert_line "validity 0.2500 (acyclic, no self or duplicate edge)"
	assert_line --partial "role validity 0.7500"
}

@test "the corpus reader: bad input is one line naming the file and the line, exit 3" {
	printf 'g 0 2 1 1.5\nx 3\ne 0 1\n' >a.txt
	run -3 layerdag-sample eval a.txt a.txt
	assert_output "layerdag-sample: a.txt: line 2: expected one attribute per node"
	printf 'g 0 2 1 1.5\nx 3 4\ne 0 2\n' >b.txt
	run -3 layerdag-sample eval b.txt b.txt
	assert_output "layerdag-sample: b.txt: line 3: expected the edge's target, a node: at most 1"
	printf 'g 0 2000000 0 1\n' >c.txt
	run -3 layerdag-sample eval c.txt c.txt
	assert_output "layerdag-sample: c.txt: line 1: expected the node count: at most 1048576"
	# an edge count of 16 M in a 20-byte file: refused at the missing line, no allocation
	printf 'g 0 2 16777216 1\nx 1 2\n' >d.txt
	run -3 layerdag-sample eval d.txt d.txt
	assert_output "layerdag-sample: d.txt: line 2: expected an edge line \"e <src> <dst>\""
	printf 'g 0 2 0 inf\nx 1 2\n' >e.txt
	run -3 layerdag-sample eval e.txt e.txt
	assert_output --partial "expected the label y, a finite number"
	run -4 layerdag-sample eval nowhere.txt e.txt
	assert_output --partial "nowhere.txt: cannot open"
	: >empty.txt
	run -3 layerdag-sample eval empty.txt "$C"
	assert_output "layerdag-sample: empty.txt: no graph"
	run -2 layerdag-sample eval "$C"
	assert_output --partial "expected REAL and SYNTH, got 1 file"
}

@test "plain and gzip corpora read the same; -o writes the report atomically" {
	zcat "$C" >plain.txt
	layerdag-sample eval plain.txt "$C" -o r.txt
	grep -qx "novelty 0.0000, uniqueness 0.4794 (Weisfeiler-Lehman hash)" r.txt
	grep -q "^  in-degree  *0.000000 " r.txt
}
