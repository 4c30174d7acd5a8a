# The per-rank figures STAGE's formulas give (doc/stage.md, "Per layer and
# micro-batch", "Embeddings", "COMP nodes per rank of a stage"), for the dense graphs
# (GPT TP+SP, GPT TP-only, Llama) and the MoE graph, written from the spec and from
# STAGE's own MoE spreadsheets (moe_frame, expert_wrapper, the two-matrix expert FFN;
# see the MoE block below), not from et-stage's code, in the layout of figures.jq.
# One line per pipeline stage: "stage P <figures>"; with -v strict=1 instead
# "stage P deps N ctrl N ts N" in the layout of strict.jq (the strict figures:
# data and control dependencies, COMP tensor sizes), from STAGE's graph rules
# (doc/stage.md, "Edges, tensor sizes and names"), checked against STAGE's own
# traces of fifteen configurations.
#
#   awk -v arch=gpt|llama|moe -v L= -v D= -v F= -v H= -v KV= -v V= -v S= -v B= -v MB= \
#       -v dp= -v tp= -v cp= -v pp= -v fsdp=0|1 -v tpsp=0|1 [-v ep= -v E= -v K=] \
#       [-v mixed=0|1] -f oracle.awk
#
# The output embedding and the loss sit on the last stage with mixed precision
# (STAGE's only way to the Llama graph) and on stage (L-1) mod pp otherwise.
function put(k, n, s) { cnt[k] += n; sum[k] += s }
function fmt(x) { return sprintf("%.0f", x) }
# The strict figures of stage p (-v strict=1): data dependencies, control
# dependencies and the COMP nodes' tensor_size sum, from STAGE's graph rules
# (doc/stage.md, "Edges and tensor sizes"): a node depends on the tensors its
# operands name, a removed node (identity, placeholder, zero-op) hands its
# operands on, every collective of a chain adds one edge, FSDP's weight
# gathers have none, a send depends on its tensor, a receive on nothing;
# COMP tensor_size is the node's output elements (GPT, Llama and MoE graphs).
function strict_line(p,   nw, base, ncl, wr, sync, deps, ts, tsl, Dt, Ft, qkvw, last, tponly, ncla, TK) {
	Dt = D / tp; Ft = F / tp; qkvw = Dt + 2 * kvw
	last = p == pp - 1; tponly = !tpsp && tp > 1
	# edges of a layer and micro-batch with every collective away: GPT 16
	# forward + 25 backward; Llama 19 + 36 (SwiGLU, the k/v head slices)
	nw = llama ? 5 : 4; base = llama ? 55 : 41
	ncl = (tp > 1) * (tpsp ? 10 : 4) + (cp > 1) * 4
	wr = fsdp && dp > 1 ? (llama ? 10 : 8) : 0
	if (moe) {
		# Llama's attention with the norms and residuals (35); the frame (moe_frame):
		# 7 forward (router product, reshape, token broadcast, gate slice, gate
		# applied, K-sum) + 13 backward; per expert 4 forward + 8 backward; the two
		# merge nodes read every local expert (ne >= 2). Collectives: ep > 1 four
		# all-to-alls and three gathers (the router weight's has no input, its
		# consumer one edge); tp > 1 attention's 3 gathers and 2 scatters, each
		# expert's 3 and 2; cp > 1 four. FSDP: attention's 4 weight reads, the
		# router's 2, each expert's 4. Weight gradients: dwo, dwqkv, the router's,
		# each expert's two.
		nw = 3 + 2 * ne
		base = 35 + 20 + 12 * ne + 2 * ne * (ne >= 2)
		ncl = (ep > 1) * 7 + (tp > 1) * (5 + 5 * ne) + (cp > 1) * 4
		wr = fsdp && dp > 1 ? 6 + 4 * ne : 0
	}
	sync = (dp > 1) + (cp > 1)
	deps = nmb * Ls * (base + ncl + wr + (sync ? nw + sync - 1 : 0))
	deps += Ls * ((sync ? nmb : nmb * nw) + 1)
	ncla = (dp > 1) + (tpsp && tp > 1) + (cp > 1)
	deps += Ein * (nmb * (2 + tponly) + nmb + ncla + 1)
	deps += Eout * (nmb * (6 + tponly) + nmb + ncla + 1) + last * nmb * tponly
	deps += ns * nmb
	tsl = 8 * Tsp * D + 2 * Tq * qkvw + 4 * Tq * Dt + 4 * Tq * kvw + 2 * cp * Tq * Dt + D * Dt + D * qkvw
	if (moe) {
		# attention as Llama's (its kv slices, o1 and dx1); the frame: router
		# outputs Tsp.K four times, dispatched tokens Xk six times, the router
		# weight gradient D.K/ep, the K-sums and dx Tsp.D/ep four times; per
		# expert its two row slices Xk/E, two slices back Xk, two products of
		# R.Ft and two of R.D rows, two weight gradients D.Ft; the merges Xk each
		TK = Tsp * K
		tsl += 2 * Tq * kvw + 2 * Tq * D
		tsl += 4 * TK + 6 * Xk + D * K / ep + 4 * Tsp * D / ep
		tsl += ne * (2 * Xk / E + 2 * Xk + 2 * R * Ft + 2 * R * D + 2 * D * Ft) + 2 * Xk * (ne >= 2)
	} else
		tsl += llama ? 2 * Tq * kvw + 6 * Tq * D + 6 * Tq * Ft + 3 * D * Ft : 4 * Tq * D + 2 * Tq * Ft + 2 * D * Ft
	ts = nmb * Ls * tsl + Ls * 2 * PL / fs
	ts += Ein * (nmb * (Tsp * D + Wemb + Tq * V / tp) + 2 * Wemb)
	ts += Eout * (nmb * (Tsp * V + 2 * Tsp * D + Tq * D / tp + Wemb) + 2 * Wemb)
	printf "stage %d deps %s ctrl 0 ts %s\n", p, fmt(deps), fmt(ts)
}
BEGIN {
	llama = arch == "llama"; moe = arch == "moe"
	if (llama) mixed = 1
	if (llama || moe) tpsp = 1
	if (ep == "") ep = 1
	m = MB / dp; nmb = B / MB; Tq = m * S / cp; Tsp = tpsp ? Tq / tp : Tq
	if (moe) {
		# attention as Llama's (25 nodes); the frame's 15; 10 per local expert;
		# the two merge chains' last E2 when there are several local experts
		ne = E / ep; Xk = Tsp * K * D / ep; R = Tq * K / (E * ep)
		Patt = D * D * (H + 2 * KV) / H + D * D
		PL = Patt / tp + ne * 2 * D * F / tp + D * K / ep
		c = 40 + 10 * ne + 2 * (ne >= 2); kvw = D * KV / (H * tp)
	} else if (llama) {
		PL = (D * D * (H + 2 * KV) / H + D * D + 3 * D * F) / tp
		c = 38; kvw = D * KV / (H * tp)
	} else {
		PL = (4 * D * D + 2 * D * F) / tp
		c = 29; kvw = D / tp
	}
	fs = fsdp ? dp : 1
	Wemb = tpsp ? V * D : V * D / tp
	oq = mixed ? pp - 1 : (L - 1) % pp
	base = int(L / pp); extra = L % pp
	for (p = 0; p < pp; p++) {
		split("", cnt); split("", sum)
		Ls = base + (p < extra)
		Ein = p == 0; Eout = p == oq; Ne = Ein + Eout
		comp = nmb * Ls * c + 2 * Ls + Ne * (3 * nmb + 2) + Eout * 2 * nmb
		M = nmb * Ls * (3 * Tq * PL + (llama ? 3 * Tq * F / tp : 0)) + Ne * nmb * 3 * Tq * V * D / tp
		Eo = nmb * Ls * 20 * Tsp * D + Eout * nmb * 10 * Tsp * D
		A = nmb * Ls * (4 * Tsp * D + (llama ? Tq * D : 0)) + Ls * PL / fs + Ne * Wemb
		CU = nmb * Ls * 21 * Tq * D / tp + Ls * PL / fs + Ne * Wemb
		SL = nmb * Ls * (llama || moe ? Tq * D * (2 * H + 8 * KV) / (H * tp) : 8 * Tq * D / tp)
		Bo = E2 = Ro = 0
		k = nmb * Ls
		if (moe) {
			# the MoE frame (moe_frame): router M Tsp.K.D forward, Tsp.K.D/ep for
			# its weight and input gradients; R of Tsp.K twice; B of Xk twice and
			# of Tsp.D/ep twice; E2 of Xk three times; SLICE of Xk and of Tsp.K;
			# an A of Tsp.D/ep. Per expert (expert_wrapper + FFN): SLICE of Xk/E
			# twice and of Xk twice, 6 products of R.D.F/tp.
			M = nmb * Ls * (3 * Tq * Patt / tp + Tsp * K * D + 2 * Tsp * K * D / ep + ne * 6 * R * D * F / tp) + Ne * nmb * 3 * Tq * V * D / tp
			A = nmb * Ls * (4 * Tsp * D + Tsp * D / ep) + Ls * PL / fs + Ne * Wemb
			SL += k * (Xk + Tsp * K + ne * (2 * Xk / E + 2 * Xk))
			Bo = k * (2 * Xk + 2 * Tsp * D / ep)
			E2 = k * (3 * Xk + 2 * Xk * (ne >= 2))
			Ro = k * 2 * Tsp * K
			if (tp > 1) {
				put("ALL_GATHER", 3 * k, 3 * k * Tsp * D); put("REDUCE_SCATTER", 2 * k, 2 * k * Tq * D)
				put("ALL_GATHER", 3 * k * ne, 3 * k * ne * Xk / E); put("REDUCE_SCATTER", 2 * k * ne, 2 * k * ne * R * D)
			}
			if (ep > 1) {
				put("ALL_GATHER", 3 * k, k * (D * K / ep + 2 * Tsp * D / ep))
				put("ALL_TO_ALL", 4 * k, 4 * k * Xk)
			}
		}
		if (tp > 1 && tpsp && !moe) { put("ALL_GATHER", 6 * k, 6 * k * Tsp * D); put("REDUCE_SCATTER", 4 * k, 4 * k * Tq * D) }
		if (tp > 1 && !tpsp) {
			put("ALL_REDUCE", 4 * k, 4 * k * Tq * D)
			put("ALL_REDUCE", Ein * nmb, Ein * nmb * Tq * D)
			put("ALL_REDUCE", Eout * nmb, Eout * nmb * Tq * V)
			# the output embedding's dx is gathered by its consumer, the last
			# layer, on the last stage (after the transfer when out_emb is elsewhere)
			put("ALL_GATHER", (p == pp - 1) * nmb, (p == pp - 1) * nmb * Tq * D / tp)
		}
		# cp: k and v gathered (KV heads); their gradients, made for all H heads
		# by the kernel over the whole sequence (partial over cp), reduce-scattered
		# before the KV heads are sliced out: cp.Tq.D/tp each
		if (cp > 1) { put("ALL_GATHER", 2 * k, 2 * k * Tq * kvw); put("REDUCE_SCATTER", 2 * k, 2 * k * cp * Tq * D / tp) }
		if (dp > 1 && !fsdp) put("ALL_REDUCE", k, k * PL)
		if (dp > 1 && fsdp) { put("ALL_GATHER", 2 * k, 2 * k * PL / dp); put("REDUCE_SCATTER", k, k * PL) }
		if (cp > 1) put("ALL_REDUCE", k, k * PL)
		nar = (dp > 1) + (tpsp && tp > 1) + (cp > 1)
		put("ALL_REDUCE", Ne * nar, Ne * nar * Wemb)
		act = Tsp * D
		ns = nr = 0
		if (p < pp - 1) { ns++; nr++ }
		if (p > 0) { ns++; nr++ }
		# out_emb away from the last layer: its input comes, its dx goes back
		# (in TP-only mode the local Tq.D/tp, gathered after the transfer)
		dxa = tpsp ? act : Tq * D / tp; sx = rx = 0
		if (oq != pp - 1 && p == oq) { ns++; nr++; sx = dxa - act }
		if (oq != pp - 1 && p == pp - 1) { ns++; nr++; rx = dxa - act }
		if (strict) { strict_line(p); continue }
		ncoll = 0; cl = ""
		n = split("ALL_GATHER ALL_REDUCE ALL_TO_ALL REDUCE_SCATTER", ty, " ")
		for (i = 1; i <= n; i++) if (cnt[ty[i]] > 0) {
			ncoll += cnt[ty[i]]
			cl = cl (cl == "" ? "" : " ") ty[i] " " fmt(cnt[ty[i]]) " " fmt(sum[ty[i]])
		}
		ops = "A " fmt(A) (Bo ? " B " fmt(Bo) : "") " CUSTOM " fmt(CU) " E " fmt(Eo) (E2 ? " E2 " fmt(E2) : "") \
			" M " fmt(M) (Ro ? " R " fmt(Ro) : "") " SLICE " fmt(SL)
		printf "stage %d COMP %s COLL %s SEND %s RECV %s | op %s | coll %s | send %s %s recv %s %s\n", \
			p, fmt(comp), fmt(ncoll), fmt(ns * nmb), fmt(nr * nmb), ops, cl, \
			fmt(ns * nmb), fmt(ns * nmb * act + nmb * sx), fmt(nr * nmb), fmt(nr * nmb * act + nmb * rx)
	}
}
