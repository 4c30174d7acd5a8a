/* gemm: recover GEMM dimensions. Shapes follow PyTorch's conventions:
 * mm(A[M,K], B[K,N]); addmm(bias, A[M,K], B[K,N]); bmm(A[b,M,K], B[b,K,N])
 * (the batch folds into M); matmul like mm/bmm; linear(x[..., K], W[N, K])
 * (leading dims of x fold into M). */
#include "et-sim/workload/gemm.h"
#include "et_attr.h"
#include "et_sat.h"
#include <ctype.h>
#include <string.h>

int gemm_parse_shapes(const char *s, uint64_t shp[4][4], int nd[4])
{
	int depth = 0, k = -1;
	for (const char *p = s; *p; p++) {
		if (*p == '[') {
			depth++;
			if (depth == 2 && k < 3) {
				k++;
				nd[k] = 0;
			}
		} else if (*p == ']') {
			depth--;
		} else if (depth == 2 && k >= 0 && isdigit((unsigned char)*p)) {
			uint64_t v = 0;
			while (isdigit((unsigned char)*p))
				v = v * 10 + (uint64_t)(*p++ - '0');
			p--;
			if (nd[k] < 4)
				shp[k][nd[k]++] = v;
		}
	}
	return k + 1;
}

static bool name_has(const char *name, const char *op)
{
	const char *p = strstr(name, op);
	if (!p)
		return false;
	char c = p[strlen(op)];
	return !isalnum((unsigned char)c) && c != '_';
}

static void from_two(uint64_t a[4], int na, uint64_t b[4], int nb, uint64_t out[3])
{
	if (na < 2 || nb < 2)
		return;
	uint64_t m = a[na - 2], k = a[na - 1], n = b[nb - 1];
	for (int i = 0; i < na - 2; i++)
		m *= a[i];
	out[0] = m, out[1] = n, out[2] = k;
}

static void from_shapes(const et_node *n, uint64_t out[3])
{
	if (!n->name || !n->inputs || !n->inputs->shapes)
		return;
	uint64_t shp[4][4] = {{0}};
	int nd[4] = {0};
	int c = gemm_parse_shapes(n->inputs->shapes, shp, nd);
	const char *nm = n->name;
	if (name_has(nm, "addmm") && c >= 3)
		from_two(shp[1], nd[1], shp[2], nd[2], out);
	else if ((name_has(nm, "mm") || name_has(nm, "bmm") || name_has(nm, "matmul")) && c >= 2)
		from_two(shp[0], nd[0], shp[1], nd[1], out);
	else if (name_has(nm, "linear") && c >= 2 && nd[0] >= 1 && nd[1] == 2) {
		uint64_t m = 1;
		for (int i = 0; i < nd[0] - 1; i++)
			m *= shp[0][i];
		out[0] = m, out[1] = shp[1][0], out[2] = shp[1][1];
	}
}

void gemm_dims(const et_node *n, uint64_t out[3])
{
	out[0] = out[1] = out[2] = 0;
	uint64_t m, nn, k;
	if (et_attr_uint(n, "gemm_m", &m) && et_attr_uint(n, "gemm_n", &nn) &&
	    et_attr_uint(n, "gemm_k", &k)) {
		uint64_t b;
		/* a batch of GEMMs folds into M, as bmm's does below */
		if (et_attr_uint(n, "gemm_batch", &b) && b > 1)
			m = et_sat_mul(m, b);
		out[0] = m, out[1] = nn, out[2] = k;
		return;
	}
	from_shapes(n, out);
}
