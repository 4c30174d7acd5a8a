/* Generator of realistic PyTorch host execution traces (schema
 * 1.1.0-chakra.0.0.4) of N nodes, with a matching Kineto trace, for the
 * et-convert --from pytorch benchmark. Deterministic for a seed.
 *
 *   gen_host_et N HOST.json KINETO.json [SEED]
 *
 * Shape: one thread root; steps of ~100 ops; each op is a small tree
 * (aten::linear -> aten::t, aten::addmm, ...), every 50th op an all_reduce
 * call (c10d::allreduce_ -> record_param_comms -> nccl:all_reduce) with a
 * GPU kernel; IOInfo of realistic size; Kineto has one cpu_op per host op
 * (Record function id = rf_id), a launch and a kernel per GPU op. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const char *const ops[] = {"aten::linear", "aten::t",    "aten::addmm", "aten::relu",
                                  "aten::view",   "aten::add_", "aten::mul",   "aten::copy_"};
static const char *const schemas[] = {
    "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor",
    "aten::t(Tensor(a) self) -> Tensor(a)",
    "aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> "
    "Tensor",
    "aten::relu(Tensor self) -> Tensor",
    "aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)",
    "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
    "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor",
    "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)"};

static void node(FILE *h, FILE *k, uint64_t id, uint64_t parent, uint64_t rf, const char *name,
                 const char *schema, double ts, double dur, int first)
{
	uint64_t t1 = next() % 100000, t2 = next() % 100000, ne = 1 + next() % 65536;
	fprintf(
	    h,
	    "%s{\"id\": %" PRIu64 ", \"name\": \"%s\", \"ctrl_deps\": %" PRIu64 ",\n"
	    "  \"inputs\": {\"values\": [[%" PRIu64 ",%" PRIu64 ",0,%" PRIu64 ",4,\"cuda:0\"],"
	    "[%" PRIu64 ",%" PRIu64 ",0,%" PRIu64 ",4,\"cuda:0\"],1.0,1e-05], "
	    "\"shapes\": [[%" PRIu64 "],[%" PRIu64 "],[],[]], \"types\": "
	    "[\"Tensor(float)\",\"Tensor(float)\",\"Double\",\"Double\"]},\n"
	    "  \"outputs\": {\"values\": [[%" PRIu64 ",%" PRIu64 ",0,%" PRIu64 ",4,\"cuda:0\"]], "
	    "\"shapes\": [[%" PRIu64 "]], \"types\": [\"Tensor(float)\"]},\n"
	    "  \"attrs\": [{\"name\": \"rf_id\", \"type\": \"uint64\", \"value\": %" PRIu64 "}, "
	    "{\"name\": \"fw_parent\", \"type\": \"uint64\", \"value\": 0}, {\"name\": \"seq_id\", "
	    "\"type\": \"int64\", \"value\": -1}, {\"name\": \"scope\", \"type\": \"uint64\", "
	    "\"value\": 0}, {\"name\": \"tid\", \"type\": \"uint64\", \"value\": 1}, {\"name\": "
	    "\"fw_tid\", \"type\": \"uint64\", \"value\": 0}, {\"name\": \"op_schema\", \"type\": "
	    "\"string\", \"value\": \"%s\"}]}",
	    first ? "" : ",\n", id, name, parent, t1, t1 + 1, ne, t2, t2 + 1, ne, ne, ne, t1 + 2,
	    t1 + 3, ne, ne, rf, schema);
	fprintf(k,
	        ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 1, \"tid\": 1, "
	        "\"ts\": %.3f, \"dur\": %.3f, \"args\": {\"External id\": %" PRIu64
	        ", \"Record function id\": %" PRIu64 "}}",
	        name, ts, dur, rf, rf);
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return fprintf(stderr, "usage: gen_host_et N HOST.json KINETO.json [SEED]\n"), 2;
	uint64_t n = strtoull(argv[1], NULL, 10);
	if (argc > 4)
		rng ^= strtoull(argv[4], NULL, 10) * 0x9E3779B97F4A7C15ull;
	FILE *h = fopen(argv[2], "w"), *k = fopen(argv[3], "w");
	if (!h || !k)
		return perror("gen_host_et"), 4;
	fprintf(
	    h,
	    "{\"schema\": \"1.1.0-chakra.0.0.4\", \"pid\": 1, \"time\": \"2026-12-02 00:00:00\", "
	    "\"start_ts\": 1000, \"nodes\": [\n");
	fprintf(k, "{\"schemaVersion\": 1, \"traceEvents\": [\n{\"ph\": \"X\", \"cat\": "
	           "\"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1, "
	           "\"ts\": 0, \"dur\": 1}");
	fprintf(h, "{\"id\": 2, \"name\": \"[pytorch|profiler|execution_trace|thread]\", "
	           "\"ctrl_deps\": 1, \"inputs\": {\"values\": [], \"shapes\": [], \"types\": []}, "
	           "\"outputs\": {\"values\": [], \"shapes\": [], \"types\": []}, \"attrs\": "
	           "[{\"name\": \"rf_id\", \"type\": \"uint64\", \"value\": 0}]}");
	uint64_t id = 3, rf = 1, corr = 1;
	double ts = 10;
	while (id < n + 2) {
		/* a top-level op with three children */
		int coll = next() % 50 == 0;
		uint64_t top = id++, trf = rf++;
		double tdur = 40 + (double)(next() % 100);
		node(h, k, top, 2, trf, coll ? "c10d::allreduce_" : ops[0],
		     coll ? "c10d::allreduce_(Tensor[] tensors) -> Tensor[]" : schemas[0], ts, tdur,
		     0);
		for (int c = 0; c < 3 && id < n + 2; c++) {
			int o = 1 + (int)(next() % 7);
			uint64_t cid = id++, crf = rf++;
			const char *nm =
			    coll ? (c == 0 ? "record_param_comms" : "nccl:all_reduce") : ops[o];
			node(h, k, cid, coll && c == 2 ? cid - 1 : top, crf, nm,
			     coll ? "" : schemas[o], ts + 2 + c * 10, 8, 0);
			if (c == 2 || coll) { /* a launch and its kernel */
				fprintf(
				    k,
				    ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
				    "\"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": %.3f, "
				    "\"dur\": 2, \"args\": {\"External id\": %" PRIu64
				    ", \"correlation\": %" PRIu64 "}}",
				    ts + 3 + c * 10, crf, corr);
				fprintf(
				    k,
				    ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", "
				    "\"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"dur\": 5, \"args\": "
				    "{\"External id\": %" PRIu64 ", \"correlation\": %" PRIu64
				    ", \"stream\": 7}}",
				    coll ? "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, "
				           "unsigned long, ncclWork*)"
				         : "void gemm_kernel<float>(float const*, float*)",
				    ts + 6 + c * 10, crf, corr);
				corr++;
				if (coll)
					break;
			}
		}
		ts += tdur + 5;
	}
	fprintf(h, "\n], \"finish_ts\": %.0f}\n", ts + 1000);
	fprintf(k, "\n]}\n");
	return fclose(h) | fclose(k) ? 4 : 0;
}
