/* et_dims: network dimensions and collective scopes (see et_dims.h). */
#include "et_dims.h"

int et_dims_init(et_dims *d, const uint32_t *size, int n, et_error *e)
{
	if (n < 1 || n > ET_DIMS_MAX)
		return et_fail(e, ET_EXIT_USAGE, "%d network dimensions: expected 1 to %d", n,
		               ET_DIMS_MAX);
	uint64_t total = 1;
	d->n = n;
	d->multi = 0;
	for (int k = 0; k < n; k++) {
		if (size[k] < 1)
			return et_fail(e, ET_EXIT_USAGE, "dimension %d has no ranks", k);
		d->size[k] = size[k];
		d->stride[k] = (uint32_t)total;
		total *= size[k];
		if (total > UINT32_MAX)
			return et_fail(e, ET_EXIT_USAGE,
			               "the network's ranks do not fit in 32 bits");
		if (size[k] > 1)
			d->multi |= (uint8_t)(1u << k);
	}
	d->total = (uint32_t)total;
	return 0;
}

static uint32_t coord(const et_dims *d, uint32_t rank, int k)
{
	return rank / d->stride[k] % d->size[k];
}

uint32_t et_dims_base(const et_dims *d, uint8_t active, uint32_t rank)
{
	uint32_t b = rank;
	for (int k = 0; k < d->n; k++)
		if (active >> k & 1)
			b -= coord(d, rank, k) * d->stride[k];
	return b;
}

uint32_t et_dims_scope_size(const et_dims *d, uint8_t active)
{
	uint32_t n = 1;
	for (int k = 0; k < d->n; k++)
		if (active >> k & 1)
			n *= d->size[k];
	return n;
}

/* k in mixed radix over the active dimensions, lowest dimension fastest:
 * ascending ranks, as strides grow with the dimension. */
uint32_t et_dims_scope_rank(const et_dims *d, uint8_t active, uint32_t base, uint32_t k)
{
	uint32_t r = base;
	for (int j = 0; j < d->n; j++)
		if (active >> j & 1) {
			r += k % d->size[j] * d->stride[j];
			k /= d->size[j];
		}
	return r;
}

uint32_t et_dims_scope_index(const et_dims *d, uint8_t active, uint32_t rank)
{
	uint32_t k = 0, mul = 1;
	for (int j = 0; j < d->n; j++)
		if (active >> j & 1) {
			k += coord(d, rank, j) * mul;
			mul *= d->size[j];
		}
	return k;
}
