/* compute: replay (doc/astra-sim.md B.6), roofline (doc/astra-sim.md B.6) and the SCALE-Sim
 * systolic-array model (beyond ASTRA-sim). CPU ops are always replayed, as
 * in ASTRA-sim. */
#include "compute.h"
#include <math.h>

static uint64_t replay_ns(uint64_t dur_us)
{
	return dur_us ? dur_us * 1000 : 1;
}

/* perf = min(mem_bw * intensity, peak); t = floor(ops / perf * 1e9). A node
 * without a tensor size is skipped (zero time), as ASTRA-sim skips it. */
static uint64_t roofline_ns(const cfg *cf, const sgraph *g, uint32_t i, bool *capped)
{
	double ops = (double)g->num_ops[i], ts = (double)g->tensor_size[i];
	if (ts == 0 || ops <= 0)
		return 0;
	double perf = cf->local_mem_bw * 1e9 * (ops / ts);
	double peak = cf->peak_perf * 1e12;
	if (perf > peak)
		perf = peak;
	if (perf <= 0)
		return 0;
	return cfg_ticks(ops / perf * 1e9, capped);
}

/* Dataflow mapping (S_R, S_C, T): os = (M, N, K), ws = (K, N, M), is = (K, M, N);
 * cycles = ceil(S_R/R) * ceil(S_C/C) * (2R + C + T - 2), the folds shared
 * out over the arrays. */
uint64_t systolic_cycles(const cfg *cf, uint64_t m, uint64_t n, uint64_t k)
{
	uint64_t sr, sc, t;
	if (cf->sys_dataflow == DF_OS)
		sr = m, sc = n, t = k;
	else if (cf->sys_dataflow == DF_WS)
		sr = k, sc = n, t = m;
	else
		sr = k, sc = m, t = n;
	uint64_t R = (uint64_t)cf->sys_rows, C = (uint64_t)cf->sys_cols;
	uint64_t folds = ((sr + R - 1) / R) * ((sc + C - 1) / C);
	uint64_t a = (uint64_t)cf->sys_arrays;
	return (folds + a - 1) / a * (2 * R + C + t - 2);
}

static uint64_t scaled(const cfg *cf, uint64_t t, bool *capped)
{
	if (cf->compute_scale == 1)
		return t;
	return cfg_ticks(floor((double)t * cf->compute_scale), capped);
}

uint64_t compute_ns(const cfg *cf, const sgraph *g, uint32_t i, bool *capped)
{
	if (g->flags[i] & SG_CPU)
		return scaled(cf, replay_ns(g->dur_us[i]), capped);
	int model = cf->compute_model;
	if (model == CM_REPLAY && cf->roofline)
		model = CM_ROOFLINE;
	if (model == CM_SYSTOLIC) {
		const uint64_t *mnk = &g->gemm[(size_t)i * 3];
		if (mnk[0] && mnk[1] && mnk[2]) {
			double cyc = (double)systolic_cycles(cf, mnk[0], mnk[1], mnk[2]);
			return scaled(cf, cfg_ticks(ceil(cyc / cf->sys_clock_ghz), capped), capped);
		}
		model = CM_ROOFLINE;
	}
	if (model == CM_ROOFLINE)
		return scaled(cf, roofline_ns(cf, g, i, capped), capped);
	return scaled(cf, replay_ns(g->dur_us[i]), capped);
}
