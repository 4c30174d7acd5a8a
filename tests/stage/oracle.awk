# The per-rank figures STAGE's formulas give (doc/stage.md, "Per layer and
# micro-batch", "Embeddings", "COMP nodes per rank of a stage"), for the dense graphs
# (GPT TP+SP, GPT TP-only, Llama), written from the spec and not from et-stage's code,
# in the layout of figures.jq. One line per pipeline stage: "stage P <figures>".
#
#   awk -v arch=gpt|llama -v L= -v D= -v F= -v H= -v KV= -v V= -v S= -v B= -v MB= \
#       -v dp= -v tp= -v cp= -v pp= -v fsdp=0|1 -v tpsp=0|1 -f oracle.awk
function put(k, n, s) { cnt[k] += n; sum[k] += s }
function fmt(x) { return sprintf("%.0f", x) }
BEGIN {
	llama = arch == "llama"
	if (llama) tpsp = 1
	m = MB / dp; nmb = B / MB; Tq = m * S / cp; Tsp = tpsp ? Tq / tp : Tq
	if (llama) {
		PL = (D * D * (H + 2 * KV) / H + D * D + 3 * D * F) / tp
		c = 38; kvw = D * KV / (H * tp)
	} else {
		PL = (4 * D * D + 2 * D * F) / tp
		c = 29; kvw = D / tp
	}
	fs = fsdp ? dp : 1
	Wemb = tpsp ? V * D : V * D / tp
	oq = llama ? pp - 1 : (L - 1) % pp
	base = int(L / pp); extra = L % pp
	for (p = 0; p < pp; p++) {
		split("", cnt); split("", sum)
		Ls = base + (p < extra)
		Ein = p == 0; Eout = p == oq; Ne = Ein + Eout
		comp = nmb * Ls * c + 2 * Ls + Ne * (3 * nmb + 2) + Eout * 2 * nmb
		M = nmb * Ls * (3 * Tq * PL + (llama ? 3 * Tq * F / tp : 0)) + Ne * nmb * 3 * Tq * V * D / tp
		E = nmb * Ls * 20 * Tsp * D + Eout * nmb * 10 * Tsp * D
		A = nmb * Ls * (4 * Tsp * D + (llama ? Tq * D : 0)) + Ls * PL / fs + Ne * Wemb
		CU = nmb * Ls * 21 * Tq * D / tp + Ls * PL / fs + Ne * Wemb
		SL = nmb * Ls * (llama ? Tq * D * (2 * H + 8 * KV) / (H * tp) : 8 * Tq * D / tp)
		k = nmb * Ls
		if (tp > 1 && tpsp) { put("ALL_GATHER", 6 * k, 6 * k * Tsp * D); put("REDUCE_SCATTER", 4 * k, 4 * k * Tq * D) }
		if (tp > 1 && !tpsp) {
			put("ALL_REDUCE", 4 * k, 4 * k * Tq * D)
			put("ALL_REDUCE", Ein * nmb, Ein * nmb * Tq * D)
			put("ALL_REDUCE", Eout * nmb, Eout * nmb * Tq * V)
			put("ALL_GATHER", Eout * nmb, Eout * nmb * Tq * D / tp)
		}
		if (cp > 1) { put("ALL_GATHER", 2 * k, 2 * k * Tq * kvw); put("REDUCE_SCATTER", 2 * k, 2 * k * cp * Tq * kvw) }
		if (dp > 1 && !fsdp) put("ALL_REDUCE", k, k * PL)
		if (dp > 1 && fsdp) { put("ALL_GATHER", 2 * k, 2 * k * PL / dp); put("REDUCE_SCATTER", k, k * PL) }
		if (cp > 1) put("ALL_REDUCE", k, k * PL)
		nar = (dp > 1) + (tpsp && tp > 1) + (cp > 1)
		put("ALL_REDUCE", Ne * nar, Ne * nar * Wemb)
		act = Tsp * D
		ns = nr = 0
		if (p < pp - 1) { ns++; nr++ }
		if (p > 0) { ns++; nr++ }
		if (oq != pp - 1 && (p == pp - 1 || p == oq)) { ns++; nr++ }
		ncoll = 0; cl = ""
		n = split("ALL_GATHER ALL_REDUCE ALL_TO_ALL REDUCE_SCATTER", ty, " ")
		for (i = 1; i <= n; i++) if (cnt[ty[i]] > 0) {
			ncoll += cnt[ty[i]]
			cl = cl (cl == "" ? "" : " ") ty[i] " " fmt(cnt[ty[i]]) " " fmt(sum[ty[i]])
		}
		printf "stage %d COMP %s COLL %s SEND %s RECV %s | op A %s CUSTOM %s E %s M %s SLICE %s | coll %s | send %s %s recv %s %s\n", \
			p, fmt(comp), fmt(ncoll), fmt(ns * nmb), fmt(nr * nmb), fmt(A), fmt(CU), fmt(E), fmt(M), fmt(SL), cl, \
			fmt(ns * nmb), fmt(ns * nmb * act), fmt(nr * nmb), fmt(nr * nmb * act)
	}
}
