/* links: per-link measures of the aware backend (links.h). */
#include "et-sim/report/links.h"
#include "et-sim/infragraph/netgraph.h"
#include "et-sim/net/net_route.h"
#include "et-sim/report/report.h"
#include "et_mem.h"
#include <stdlib.h>
#include <string.h>

/* The run's end: the last rank's finish. */
static uint64_t run_end(const sim *s)
{
	uint64_t end = 0;
	for (uint32_t k = 0; k < s->world; k++) {
		uint64_t f = report_rank(s, k)->finish;
		end = f > end ? f : end;
	}
	return end;
}

static double util(const net_link_stat *l, uint64_t end)
{
	return end ? (double)l->busy_ns / (double)end : 0;
}

int links_write_csv(FILE *f, const sim *s)
{
	fputs("from,to,bytes,busy_ns,utilization,max_queue,chunks\n", f);
	if (!s->net->link_stats)
		return 0;
	net_link_stat *v;
	size_t n = s->net->link_stats(&s->nenv, &v);
	uint64_t end = run_end(s);
	for (size_t i = 0; i < n; i++) {
		report_csv_cell(f, v[i].from);
		putc(',', f);
		report_csv_cell(f, v[i].to);
		fprintf(f, ",%llu,%llu,%.6f,%u,%llu\n", (unsigned long long)v[i].bytes,
		        (unsigned long long)v[i].busy_ns, util(&v[i], end), v[i].max_queue,
		        (unsigned long long)v[i].chunks);
	}
	free(v);
	return 0;
}

void links_report_top(FILE *f, const sim *s)
{
	if (!s->net->link_stats)
		return;
	net_link_stat *v;
	size_t n = s->net->link_stats(&s->nenv, &v);
	uint64_t end = run_end(s);
	size_t top[3];
	int k = 0;
	for (; k < 3 && (size_t)k < n; k++) { /* three passes: the busiest not yet taken */
		size_t best = n;
		for (size_t i = 0; i < n; i++) {
			bool taken = false;
			for (int j = 0; j < k; j++)
				taken = taken || top[j] == i;
			if (!taken && (best == n || v[i].busy_ns > v[best].busy_ns))
				best = i;
		}
		top[k] = best;
	}
	if (n)
		fprintf(f, "busiest links (of %zu; busy time and utilization over the run):\n", n);
	char b1[32], b2[32], b3[32];
	for (int j = 0; j < k; j++) {
		const net_link_stat *l = &v[top[j]];
		fprintf(
		    f, "  %s -> %s: busy %s ns (%.1f%%), %s bytes in %s chunks, longest queue %u\n",
		    l->from, l->to, report_grp(l->busy_ns, b1), 100 * util(l, end),
		    report_grp(l->bytes, b2), report_grp(l->chunks, b3), l->max_queue);
	}
	free(v);
}

void links_print_devices(FILE *f, const cfg *cf)
{
	net_route r;
	net_route_init(&r, cf);
	char name[128];
	if (!cf->net.graph)
		fprintf(f, "et-sim: network: %u NPUs (ranks) and %u switches\n", r.nnpu,
		        r.ndev - r.nnpu);
	for (uint32_t d = 0; cf->net.graph && d < r.ndev; d++) {
		net_route_name(&r, d, name, sizeof name);
		if (d < r.nnpu)
			fprintf(f, "et-sim: rank %u = %s\n", d, name);
		else
			fprintf(f, "et-sim: device %u = %s (forwarding)\n", d, name);
	}
	net_route_free(&r);
}
