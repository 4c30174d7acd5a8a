# The collective-order checks of et-stage plans, for stage.bats and
# stage_phys.bats (issue 27, item 7).

# chained FILE RANK: "ok" when, on that rank, the collectives of each group
# (pg_name) form one chain: each depends directly (data or control) on the
# one before it, so the longest path through the group's own collectives and
# the dependencies between them visits them all. Otherwise one line per group
# that does not.
chained() {
	et-convert --ranks "$2" --to jsonl "$1" | jq -r 'select(.type == "COMM_COLL_NODE") |
		[(.id // 0), (.attr[] | select(.name == "pg_name") | .stringVal),
			((.dataDeps // []) + (.ctrlDeps // []) | map(tostring) | join(","))] | @tsv' |
		awk -F'\t' '
		function chain(x,   a, c, k, v, best) {
			if (x in memo) return memo[x]
			best = 0
			c = split(deps[x], a, ",")
			for (k = 1; k <= c; k++)
				if ((a[k] in grp) && grp[a[k]] == grp[x] && (v = chain(a[k])) > best)
					best = v
			return memo[x] = best + 1
		}
		{ grp[$1] = $2; deps[$1] = $3; n[$2]++; ids[++m] = $1 }
		END {
			for (i = 1; i <= m; i++)
				if ((v = chain(ids[i])) > len[grp[ids[i]]])
					len[grp[ids[i]]] = v
			for (g in n)
				if (len[g] != n[g]) {
					print "group " g ": " n[g] " collectives, the longest chain " len[g]
					bad = 1
				}
			if (!bad)
				print "ok"
		}'
}

# aware W ARGS: builds the plan (W ranks), checks that every rank's collectives
# of each group are in one chain, and simulates it with the congestion-aware
# backend on Switch 4 x Ring W/4 at two speeds, and with the unaware one.
aware() {
	local w=$1
	shift
	et-stage "$@" --write-comm-groups g.json -o x.etz 2>/dev/null || fail "$*: et-stage"
	aware_checks "$w" "$*"
}

# aware_checks W WHAT: those checks on x.etz and g.json (W ranks, a multiple
# of 4 from 8 on; fewer or another count: a Ring of W), WHAT names the plan.
aware_checks() {
	local w=$1 bw r topo=Switch,Ring npus="4,$(($1 / 4))" lat=500,500
	shift
	if ((w < 8 || w % 4)); then topo=Ring npus=$w lat=500; fi
	for r in 0 $((w - 1)); do
		[ "$(chained x.etz $r)" = ok ] || fail "$* : rank $r: $(chained x.etz $r)"
	done
	et-validate --comm-groups g.json x.etz >/dev/null || fail "$* : et-validate"
	for bw in 50,50 200,200; do
		((w < 8 || w % 4)) && bw=${bw%%,*}
		et-sim --backend aware --comm-groups g.json --set topology=$topo \
			--set npus_count=$npus --set bandwidth=$bw --set latency=$lat \
			x.etz >out.txt 2>err.txt || fail "$* : aware $bw: $(cat err.txt)"
		grep -q "^simulated iteration time" out.txt || fail "$* : aware $bw: no time"
	done
	bw=50,50
	((w < 8 || w % 4)) && bw=50
	et-sim --comm-groups g.json --set topology=$topo --set npus_count=$npus \
		--set bandwidth=$bw --set latency=$lat x.etz >/dev/null 2>err.txt ||
		fail "$* : unaware: $(cat err.txt)"
}
