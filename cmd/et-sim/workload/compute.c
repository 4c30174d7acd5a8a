/* compute: replay (doc/astra-sim.md B.6), roofline (doc/astra-sim.md B.6) and the SCALE-Sim
 * systolic-array model (beyond ASTRA-sim). CPU ops are always replayed, as
 * in ASTRA-sim. Each model gives a whole number of ns as a double (what
 * compute-scale multiplies) and, when the model is integer, the exact
 * integer; a time that does not fit in 64 bits is UINT64_MAX (et_sat.h). */
#include "et-sim/workload/compute.h"
#include "et_sat.h"
#include <math.h>

/* A model's time: ns, whole; exact, the same as an integer when it has one
 * (replay: dur_us x 1000 beyond 2^53 is not exact as a double). */
typedef struct mtime {
	double ns;
	uint64_t exact;
	bool has_exact;
} mtime;

static mtime from_double(double ns)
{
	return (mtime){ns, 0, false};
}

static mtime replay_ns(uint64_t dur_us)
{
	if (!dur_us)
		return (mtime){1, 1, true};
	uint64_t t = et_sat_mul(dur_us, 1000);
	if (et_sat_is(t))
		return from_double((double)dur_us * 1000);
	return (mtime){(double)t, t, true};
}

/* perf = min(mem_bw * intensity, peak); t = floor(ops / perf * 1e9). A node
 * without a tensor size is skipped (zero time), as ASTRA-sim skips it. */
static mtime roofline_ns(const cfg *cf, const sgraph *g, uint32_t i)
{
	double ops = (double)g->num_ops[i], ts = (double)g->tensor_size[i];
	if (ts == 0 || ops <= 0)
		return from_double(0);
	double perf = cf->local_mem_bw * 1e9 * (ops / ts);
	double peak = cf->peak_perf * 1e12;
	if (perf > peak)
		perf = peak;
	if (perf <= 0)
		return from_double(0);
	return from_double(floor(ops / perf * 1e9));
}

/* Dataflow mapping (S_R, S_C, T): os = (M, N, K), ws = (K, N, M), is = (K, M, N);
 * cycles = ceil(S_R/R) * ceil(S_C/C) * (2R + C + T - 2), the folds shared
 * out over the arrays. UINT64_MAX when the count does not fit. */
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
	uint64_t folds = et_sat_mul(sr / R + (sr % R != 0), sc / C + (sc % C != 0));
	uint64_t a = (uint64_t)cf->sys_arrays;
	/* 2R + C - 2 + T; R, C >= 1 so the sum before T is at least 1 */
	uint64_t per_fold = et_sat_add(et_sat_add(et_sat_mul(2, R), C), t);
	if (et_sat_is(folds) || et_sat_is(per_fold))
		return UINT64_MAX;
	return et_sat_mul(folds / a + (folds % a != 0), per_fold - 2);
}

double systolic_ns(const cfg *cf, uint64_t cycles)
{
	if (cf->sys_a > 0) /* SCALE-Sim TPU: measured latency linear in the cycles */
		return fmax(0, ceil(cf->sys_a * (double)cycles + cf->sys_b));
	return ceil((double)cycles / cf->sys_clock_ghz);
}

double systolic_util(const cfg *cf, const uint64_t mnk[3], uint64_t cycles)
{
	double pe = (double)cf->sys_rows * (double)cf->sys_cols * (double)cf->sys_arrays;
	return cycles ? (double)mnk[0] * (double)mnk[1] * (double)mnk[2] / (pe * (double)cycles)
	              : 0;
}

/* compute-scale multiplies the model's whole ns, and the product is
 * floored again. */
static uint64_t scaled(const cfg *cf, mtime t)
{
	if (cf->compute_scale == 1)
		return t.has_exact ? t.exact : et_sat_from_double(t.ns);
	return et_sat_from_double(floor(t.ns * cf->compute_scale));
}

uint64_t compute_ns(const cfg *cf, const sgraph *g, uint32_t i)
{
	if (g->flags[i] & SG_CPU)
		return scaled(cf, replay_ns(g->dur_us[i]));
	int model = cf->compute_model;
	if (model == CM_REPLAY && cf->roofline)
		model = CM_ROOFLINE;
	if (model == CM_SYSTOLIC) {
		const uint64_t *mnk = &g->gemm[(size_t)i * 3];
		if (mnk[0] && mnk[1] && mnk[2]) {
			uint64_t cyc = systolic_cycles(cf, mnk[0], mnk[1], mnk[2]);
			if (et_sat_is(cyc))
				return UINT64_MAX;
			return scaled(cf, from_double(systolic_ns(cf, cyc)));
		}
		/* not a matrix product: the roofline when the node says what it
		 * computes, else its recorded duration */
		bool counted = g->num_ops[i] > 0 && g->tensor_size[i] > 0;
		model = counted ? CM_ROOFLINE : CM_REPLAY;
	}
	if (model == CM_ROOFLINE)
		return scaled(cf, roofline_ns(cf, g, i));
	return scaled(cf, replay_ns(g->dur_us[i]));
}
