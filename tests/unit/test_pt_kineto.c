/* Unit test of et-convert's PyTorch conversion internals: the Kineto
 * records' containers (thread indices, interned names, the id -> records
 * index, growth) and the collective kinds read from op and kernel names. */
#include "check.h"
#include "et-convert/pytorch/pt_emit.h"
#include "et-convert/pytorch/pt_fix.h"
#include "et-convert/pytorch/pt_kineto.h"
#include "et_types.h"

#include <stddef.h>
#include <stdlib.h>

/* Threads get dense indices in order of first appearance; string pids and
 * tids (mapped below INT64_MIN + 1 + id) are threads like any other. */
static void test_threads(void)
{
	kt_data d = {0};
	CHECK(kt_thread(&d, 10, 20) == 0);
	CHECK(kt_thread(&d, 10, 21) == 1);
	CHECK(kt_thread(&d, 20, 10) == 2);
	CHECK(kt_thread(&d, 10, 20) == 0);
	CHECK(kt_thread(&d, INT64_MIN + 1, -1) == 3);
	CHECK(kt_thread(&d, 0, 0) == 4);
	CHECK(d.nthr == 5);
	/* enough to grow the table several times */
	for (int64_t k = 0; k < 3000; k++)
		CHECK(kt_thread(&d, 7, k) == 5 + (uint32_t)k);
	CHECK(kt_thread(&d, 20, 10) == 2);
	CHECK(kt_thread(&d, 7, 2999) == 3004);
	CHECK(d.nthr == 3005);
	kt_free(&d);
	CHECK(d.nthr == 0);
}

/* Names are et_strmap ids; kt_name gives the text back. */
static void test_names(void)
{
	kt_data d = {0};
	uint32_t a = et_strmap_intern(&d.names, "aten::mm", 8);
	uint32_t b = et_strmap_intern(&d.names, "\"CPU functions\"xyz", 15);
	CHECK(a == 0 && b == 1);
	CHECK(et_strmap_intern_str(&d.names, "aten::mm") == a);
	CHECK(strcmp(kt_name(&d, a), "aten::mm") == 0);
	CHECK(strcmp(kt_name(&d, b), "\"CPU functions\"") == 0);
	CHECK(et_strmap_find(&d.names, "aten::add") == ET_STRMAP_NONE);
	char name[32];
	for (int k = 0; k < 5000; k++) {
		snprintf(name, sizeof name, "kernel_%d", k);
		CHECK(et_strmap_intern_str(&d.names, name) == 2 + (uint32_t)k);
	}
	CHECK(strcmp(kt_name(&d, a), "aten::mm") == 0);
	CHECK(strcmp(kt_name(&d, 2 + 4321), "kernel_4321") == 0);
	kt_free(&d);
}

/* kt_idx: duplicates chained in index order, PT_NO_ID left out. */
static void test_idx(void)
{
	kt_launch ln[7] = {0};
	int64_t ids[7] = {5, PT_NO_ID, 5, 7, 5, -3, 7};
	for (int i = 0; i < 7; i++)
		ln[i].corr = ids[i];
	kt_idx x;
	kt_idx_build(&x, ln, sizeof *ln, offsetof(kt_launch, corr), 7);
	uint32_t j = kt_idx_first(&x, 5);
	CHECK(j == 0);
	j = x.next[j];
	CHECK(j == 2);
	j = x.next[j];
	CHECK(j == 4);
	CHECK(x.next[j] == KT_NONE);
	CHECK(kt_idx_first(&x, 7) == 3 && x.next[3] == 6 && x.next[6] == KT_NONE);
	CHECK(kt_idx_first(&x, -3) == 5);
	CHECK(kt_idx_first(&x, 9) == KT_NONE);
	CHECK(kt_idx_first(&x, PT_NO_ID) == KT_NONE);
	kt_idx_free(&x);
	kt_idx_build(&x, ln, sizeof *ln, offsetof(kt_launch, corr), 0);
	CHECK(kt_idx_first(&x, 5) == KT_NONE);
	kt_idx_free(&x);
}

static void test_grow(void)
{
	uint32_t *p = NULL;
	size_t cap = 0;
	CHECK(kt_next(7) == 8);
	for (uint32_t n = 0; n < 5000; n++) {
		ET_GROW(p, cap, kt_next(n));
		CHECK(cap > n);
		p[n] = n;
	}
	CHECK(p[4999] == 4999);
	free(p);
}

/* Collective kinds of c10d/backend op names, and the reference's comm_type
 * of NCCL kernel names. */
static void test_kinds(void)
{
	static const struct {
		const char *name;
		int kind;
	} ops[] = {
	    {"allreduce_", ET_COLL_ALL_REDUCE},
	    {"_allgather_base_", ET_COLL_ALL_GATHER},
	    {"reduce_scatter_tensor_coalesced_", ET_COLL_REDUCE_SCATTER},
	    {"_reduce_scatter_base_", ET_COLL_REDUCE_SCATTER},
	    {"all_to_all", ET_COLL_ALL_TO_ALL},
	    {"alltoall_base_", ET_COLL_ALL_TO_ALL},
	    {"broadcast_", ET_COLL_BROADCAST},
	    {"barrier", ET_COLL_BARRIER},
	    {"gather_", ET_COLL_GATHER},
	    {"scatter_", ET_COLL_SCATTER},
	    {"reduce_", ET_COLL_REDUCE},
	    {"send", PT_COLL_SEND},
	    {"recv_any_source_", PT_COLL_RECV},
	    {"aten::mm", PT_COLL_NONE},
	};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (pt_coll_kind(ops[i].name) != ops[i].kind) {
			fprintf(stderr, "pt_coll_kind(%s) = %d\n", ops[i].name,
			        pt_coll_kind(ops[i].name));
			CHECK(pt_coll_kind(ops[i].name) == ops[i].kind);
		}
	CHECK(pt_ref_comm_type("ncclDevKernel_AllReduce_Sum_f32_RING_LL") == ET_COLL_ALL_REDUCE);
	CHECK(pt_ref_comm_type("ncclKernel_AllGather_RING_LL_Sum_int8_t") == ET_COLL_ALL_GATHER);
	CHECK(pt_ref_comm_type("ncclDevKernel_ReduceScatter_Sum_bf16") == ET_COLL_REDUCE_SCATTER);
	CHECK(pt_ref_comm_type("ncclDevKernel_Broadcast_RING_LL") == ET_COLL_BROADCAST);
	CHECK(pt_ref_comm_type("ncclDevKernel_SendRecv(ncclDevComm*)") == ET_COLL_ALL_TO_ALL);
	CHECK(pt_ref_comm_type("ncclDevKernel_Reduce_Sum_f32") == -1);
}

int main(void)
{
	test_threads();
	test_names();
	test_idx();
	test_grow();
	test_kinds();
	return check_failures();
}
