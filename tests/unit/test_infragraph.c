/* et-sim's InfraGraph reader (netgraph.h): the real 2.x file, a
 * hand-written instance in YAML and JSON, and each refusal with its
 * message. Run from the repository root with the test data folder as
 * argv[1]. */
#include "check.h"
#include "et-sim/infragraph/netgraph.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static char data_dir[512];

static const char *data(const char *name)
{
	static char p[1024];
	snprintf(p, sizeof p, "%s/infragraph/%s", data_dir, name);
	return p;
}

static int load_text(netgraph *g, const char *text, et_error *e)
{
	return netgraph_load_mem(g, "t", text, strlen(text), e);
}

/* The load fails, zeroes g and says want (a part of the message, or all
 * of it when exact). */
static void expect_fail(const char *text, int code, const char *want, bool exact)
{
	netgraph g;
	et_error e = {0};
	CHECK(load_text(&g, text, &e) == -1);
	CHECK(e.code == code);
	CHECK(g.ndev == 0 && g.dev == NULL && g.edge == NULL && g.link_name == NULL);
	bool ok = exact ? strcmp(e.msg, want) == 0 : strstr(e.msg, want) != NULL;
	if (!ok)
		fprintf(stderr, "expected %s\"%s\"\n     got \"%s\"\n", exact ? "" : "a part ",
		        want, e.msg);
	CHECK(ok);
	CHECK(strchr(e.msg, '\n') == NULL);
}

static uint32_t dev_index(const netgraph *g, const char *name)
{
	for (uint32_t i = 0; i < g->ndev; i++)
		if (strcmp(g->dev[i], name) == 0)
			return i;
	return UINT32_MAX;
}

static bool has_edge(const netgraph *g, const char *a, const char *b, const char *link)
{
	uint32_t x = dev_index(g, a), y = dev_index(g, b);
	for (size_t i = 0; i < g->nedge; i++) {
		const ng_edge *e = &g->edge[i];
		if (((e->a == x && e->b == y) || (e->a == y && e->b == x)) &&
		    strcmp(g->link_name[e->link], link) == 0)
			return true;
	}
	return false;
}

static size_t edges_by(const netgraph *g, const char *link)
{
	size_t n = 0;
	for (size_t i = 0; i < g->nedge; i++)
		n += strcmp(g->link_name[g->edge[i].link], link) == 0;
	return n;
}

static uint32_t link_index(const netgraph *g, const char *name)
{
	for (uint32_t i = 0; i < g->nlink; i++)
		if (strcmp(g->link_name[i], name) == 0)
			return i;
	return UINT32_MAX;
}

/* clos-fat-tree-2tier.yaml, counted from the file by hand:
 * - devices: server = cpu 1 + xpu 2 + nvlsw 1 + pciesw 1 + nic 2 + mgmt 1
 *   = 8, times 16 servers = 128; switch = asic 1 + port 8 = 9, times
 *   8 tier_0 + 4 tier_1 = 108; 236 in all, the 32 xpu first.
 * - edges per server: mgmt-cpu[0] 1, cpu-cpu many2many 0 (its only pair
 *   is a self pair), xpu-nvlsw 2, cpu[0]-pciesw[0] 1, xpu[0:2]-pciesw[0]
 *   2, nic[0:2]-pciesw[0] 2: 8, times 16 = 128; per switch asic-port 8,
 *   times 12 = 96; the infrastructure's 64 one2one edges (32 server-tier_0
 *   by tier_0_link, 32 tier_0-tier_1 by tier_1_link): 288 in all. */
static void test_clos(void)
{
	netgraph g;
	et_error e = {0};
	CHECK(netgraph_load(&g, data("clos-fat-tree-2tier.yaml"), &e) == 0);
	if (e.code)
		fprintf(stderr, "%s\n", e.msg);
	CHECK(strcmp(g.name, "clos-fat-tree-fabric") == 0);
	CHECK(g.ndev == 236 && g.nnpu == 32 && g.nedge == 288);
	char want[64];
	for (uint32_t i = 0; i < 32 && g.ndev == 236; i++) {
		snprintf(want, sizeof want, "server.%u.xpu.%u", i / 2, i % 2);
		CHECK(strcmp(g.dev[i], want) == 0);
	}
	if (g.ndev == 236) {
		CHECK(strcmp(g.dev[32], "server.0.cpu.0") == 0);
		CHECK(strcmp(g.dev[37], "server.0.mgmt.0") == 0);
		CHECK(strcmp(g.dev[38], "server.1.cpu.0") == 0);
		CHECK(strcmp(g.dev[128 + 0], "server.16.cpu.0") != 0);
		CHECK(strcmp(g.dev[32 + 16 * 6], "tier_0.0.asic.0") == 0);
		CHECK(strcmp(g.dev[235], "tier_1.3.port.7") == 0);
	}
	CHECK(g.nlink == 6);
	uint32_t t0 = link_index(&g, "tier_0_link"), t1 = link_index(&g, "tier_1_link");
	uint32_t nv = link_index(&g, "server.nvlink"), ic = link_index(&g, "switch.ic");
	CHECK(t0 == 0 && t1 == 1 && nv != UINT32_MAX && ic != UINT32_MAX);
	if (nv != UINT32_MAX && ic != UINT32_MAX)
		CHECK(!g.link_nobw[t0] && !g.link_nobw[t1] && g.link_nobw[nv] && g.link_nobw[ic]);
	CHECK(edges_by(&g, "tier_0_link") == 32 && edges_by(&g, "tier_1_link") == 32);
	CHECK(edges_by(&g, "server.nvlink") == 32 && edges_by(&g, "switch.ic") == 96);
	CHECK(edges_by(&g, "server.fabric") == 0 && edges_by(&g, "server.pcie") == 96);
	for (size_t i = 0; i < g.nedge; i++) {
		const ng_edge *x = &g.edge[i];
		CHECK(x->a != x->b && x->a < g.ndev && x->b < g.ndev && x->lat_ns == 0);
		CHECK(x->bpns == (x->link == t0 ? 12.5 : x->link == t1 ? 25 : 0));
	}
	CHECK(has_edge(&g, "server.0.nic.0", "tier_0.0.port.0", "tier_0_link"));
	CHECK(has_edge(&g, "server.15.nic.1", "tier_0.7.port.3", "tier_0_link"));
	CHECK(has_edge(&g, "tier_1.3.port.7", "tier_0.7.port.7", "tier_1_link"));
	CHECK(has_edge(&g, "server.3.xpu.1", "server.3.nvlsw.0", "server.nvlink"));
	CHECK(!has_edge(&g, "server.3.xpu.1", "server.4.nvlsw.0", "server.nvlink"));
	/* device edges come first, instance by instance, in file order */
	CHECK(g.nedge && g.edge[0].a == dev_index(&g, "server.0.mgmt.0") &&
	      g.edge[0].b == dev_index(&g, "server.0.cpu.0"));
	CHECK(g.nedge == 288 && g.edge[224].link == t0 && g.edge[287].link == t1);
	netgraph_free(&g);
	CHECK(g.ndev == 0 && g.dev == NULL);
	netgraph_free(&g); /* zeroed: a no-op */
}

/* nested.yaml / nested.json (tests/data/infragraph): 2 hosts of 4 xpu,
 * 2 nested nic2 devices (2 port + 1 asic) and a custom switch; 1 spine of
 * 4 ports. Per host: the xpu mesh (16 pairs, 4 self, the other 12 two by
 * two the same: 6 edges), xpu[0:2]-nic2[0].asic[0] 2, xpu[2:4]-"nic2[1]"
 * .asic 2, xpu[3]-sw 1, then each nic2's asic-port 2 + 2: 15; 30 for both,
 * then the 4 infrastructure edges: 34. */
static void check_nested(const char *file)
{
	netgraph g;
	et_error e = {0};
	CHECK(netgraph_load(&g, data(file), &e) == 0);
	if (e.code) {
		fprintf(stderr, "%s\n", e.msg);
		return;
	}
	CHECK(strcmp(g.name, "nested") == 0);
	CHECK(g.ndev == 26 && g.nnpu == 8 && g.nedge == 34 && g.nlink == 4);
	if (g.ndev != 26 || g.nedge != 34 || g.nlink != 4)
		return netgraph_free(&g);
	static const char *const names[] = {
	    "host.0.xpu.0",         "host.0.xpu.1",         "host.0.xpu.2",
	    "host.0.xpu.3",         "host.1.xpu.0",         "host.1.xpu.1",
	    "host.1.xpu.2",         "host.1.xpu.3",         "host.0.nic2.0.port.0",
	    "host.0.nic2.0.port.1", "host.0.nic2.0.asic.0", "host.0.nic2.1.port.0",
	    "host.0.nic2.1.port.1", "host.0.nic2.1.asic.0", "host.0.sw.0",
	    "host.1.nic2.0.port.0", "host.1.nic2.0.port.1", "host.1.nic2.0.asic.0",
	    "host.1.nic2.1.port.0", "host.1.nic2.1.port.1", "host.1.nic2.1.asic.0",
	    "host.1.sw.0",          "spine.0.port.0",       "spine.0.port.1",
	    "spine.0.port.2",       "spine.0.port.3"};
	for (uint32_t i = 0; i < 26; i++)
		CHECK(strcmp(g.dev[i], names[i]) == 0);
	static const char *const links[] = {"eth", "nic2.serdes", "host.pcie", "host.nvl"};
	for (uint32_t i = 0; i < 4; i++)
		CHECK(strcmp(g.link_name[i], links[i]) == 0 && g.link_nobw[i] == (i == 3));
	/* the edges, in order: a, b, link; host 1 is host 0 shifted (4 NPUs, 7 others) */
	static const uint32_t host0[15][3] = {{0, 1, 3},  {0, 2, 3},   {0, 3, 3},  {1, 2, 3},
	                                      {1, 3, 3},  {2, 3, 3},   {0, 10, 2}, {1, 10, 2},
	                                      {2, 13, 2}, {3, 13, 2},  {3, 14, 2}, {10, 8, 1},
	                                      {10, 9, 1}, {13, 11, 1}, {13, 12, 1}};
	for (uint32_t h = 0; h < 2; h++)
		for (uint32_t i = 0; i < 15; i++) {
			const ng_edge *x = &g.edge[h * 15 + i];
			uint32_t a = host0[i][0], b = host0[i][1];
			a += a < 8 ? 4 * h : 7 * h;
			b += b < 8 ? 4 * h : 7 * h;
			CHECK(x->a == a && x->b == b && x->link == host0[i][2]);
		}
	static const uint32_t top[4][2] = {{8, 22}, {15, 23}, {12, 24}, {19, 25}};
	for (uint32_t i = 0; i < 4; i++)
		CHECK(g.edge[30 + i].a == top[i][0] && g.edge[30 + i].b == top[i][1] &&
		      g.edge[30 + i].link == 0);
	/* units: 400 Gb/s, 0.002 ms; 50 GB/s, 1.5 us; 16 GT/s (as Gb/s), 100 ns */
	for (size_t i = 0; i < g.nedge; i++) {
		const ng_edge *x = &g.edge[i];
		static const double bw[] = {50, 50, 2, 0}, lat[] = {2000, 1500, 100, 0};
		CHECK(fabs(x->bpns - bw[x->link]) < 1e-12 && fabs(x->lat_ns - lat[x->link]) < 1e-9);
	}
	netgraph_free(&g);
}

/* ---- small instances, for the expansion rules and the refusals ---- */

/* A server of 2 xpu and 2 nic, a 4-port switch, and EDGE as the
 * infrastructure's only edge (on line 14). */
static const char base[] = "devices:\n"
                           "- name: srv\n"
                           "  components:\n"
                           "  - {name: xpu, count: 2, choice: xpu}\n"
                           "  - {name: nic, count: 2, choice: nic}\n"
                           "  links: [{name: pcie}]\n"
                           "- name: sw\n"
                           "  components: [{name: port, count: 4, choice: port}]\n"
                           "instances:\n"
                           "- {name: srv, device: srv, count: 2}\n"
                           "- {name: sw, device: sw, count: 1}\n"
                           "links: [{name: eth}, {name: fast, physical: {bandwidth: {choice: "
                           "gigabytes_per_second, gigabytes_per_second: 1}}}]\n"
                           "edges:\n"
                           "- %s\n";

static char *with(const char *fmt, ...)
{
	static char buf[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return buf;
}

static char *with_edge(const char *edge)
{
	return with(base, edge);
}

/* The infrastructure edge (with scheme and link eth) joins these names, in
 * this order. */
static void expect_edges(const char *ep1, const char *ep2, const char *scheme, size_t n,
                         const char *const *pairs)
{
	char edge[512];
	snprintf(edge, sizeof edge, "{ep1: %s, ep2: %s, scheme: %s, link: eth}", ep1, ep2, scheme);
	netgraph g;
	et_error e = {0};
	CHECK(load_text(&g, with_edge(edge), &e) == 0);
	if (e.code) {
		fprintf(stderr, "%s\n", e.msg);
		return;
	}
	CHECK(g.ndev == 12 && g.nnpu == 4 && g.nedge == n);
	for (size_t i = 0; i < n && i < g.nedge; i++) {
		bool ok = strcmp(g.dev[g.edge[i].a], pairs[2 * i]) == 0 &&
		          strcmp(g.dev[g.edge[i].b], pairs[2 * i + 1]) == 0;
		if (!ok)
			fprintf(stderr, "%s: edge %zu is %s-%s, not %s-%s\n", edge, i,
			        g.dev[g.edge[i].a], g.dev[g.edge[i].b], pairs[2 * i],
			        pairs[2 * i + 1]);
		CHECK(ok);
	}
	netgraph_free(&g);
}

static void test_schemes(void)
{
	/* bare names: every instance, every component; one2one zips them */
	static const char *const zip[] = {"srv.0.nic.0", "sw.0.port.0", "srv.0.nic.1",
	                                  "sw.0.port.1", "srv.1.nic.0", "sw.0.port.2",
	                                  "srv.1.nic.1", "sw.0.port.3"};
	expect_edges("{instance: srv, component: nic}", "{instance: sw, component: port}",
	             "one2one", 4, zip);
	/* [i], [a:b] and a step */
	static const char *const slices[] = {"srv.1.nic.0", "sw.0.port.1", "srv.1.nic.0",
	                                     "sw.0.port.3"};
	expect_edges("{instance: 'srv[1]', component: 'nic[0]'}",
	             "{instance: sw, component: 'port[1:4:2]'}", "many2many", 2, slices);
	static const char *const open_ends[] = {"srv.0.xpu.1", "sw.0.port.2", "srv.0.xpu.1",
	                                        "sw.0.port.3"};
	expect_edges("{instance: 'srv[:1]', component: 'xpu[1:]'}",
	             "{instance: 'sw[0:1]', component: 'port[2:]'}", "many2many", 2, open_ends);
	/* many2many within one set: self pairs dropped, each pair once */
	static const char *const mesh[] = {"srv.0.xpu.0", "srv.0.xpu.1", "srv.0.xpu.0",
	                                   "srv.1.xpu.0", "srv.0.xpu.0", "srv.1.xpu.1",
	                                   "srv.0.xpu.1", "srv.1.xpu.0", "srv.0.xpu.1",
	                                   "srv.1.xpu.1", "srv.1.xpu.0", "srv.1.xpu.1"};
	expect_edges("{instance: srv, component: xpu}", "{instance: srv, component: xpu}",
	             "many2many", 6, mesh);
	/* one2one: a self pair is dropped too */
	static const char *const one_self[] = {"srv.0.xpu.1", "srv.1.xpu.0"};
	expect_edges("{instance: 'srv[0]', component: xpu}",
	             "{instance: 'srv[0:2]', component: 'xpu[0]'}", "one2one", 1, one_self);
	expect_edges("{instance: srv, component: xpu}", "{instance: srv, component: xpu}",
	             "one2one", 0, NULL);
}

static const char one_nic[] = "{ep1: {instance: 'srv[0]', component: 'nic[0]'}, ep2: {instance: "
                              "sw, component: 'port[0]'}, scheme: one2one, link: eth}";

static void test_refusals(void)
{
	/* the messages whole, for the format: FILE: line L: KEY.PATH: what */
	expect_fail(with_edge("{ep1: {instance: srv, component: nic}, ep2: {instance: sw, "
	                      "component: 'port[0:4]'}, scheme: one2one, link: nope}"),
	            ET_EXIT_DATA,
	            "t: line 14: edges[0].link: \"nope\": no such link in the infrastructure's "
	            "links",
	            true);
	expect_fail(with_edge("{ep1: {instance: srv, component: 'nic[2]'}, ep2: {instance: sw, "
	                      "component: port}, scheme: one2one, link: eth}"),
	            ET_EXIT_DATA,
	            "t: line 14: edges[0].ep1.component: \"nic[2]\": out of range: component nic "
	            "has count 2",
	            true);
	expect_fail(with_edge("{ep1: {instance: 'srv[0:3]', component: nic}, ep2: {instance: sw, "
	                      "component: port}, scheme: one2one, link: eth}"),
	            ET_EXIT_DATA,
	            "t: line 14: edges[0].ep1.instance: \"srv[0:3]\": out of range: instance srv "
	            "has count 2",
	            true);
	expect_fail(with_edge("{ep1: {instance: srv, component: 'nic[0:2]'}, ep2: {instance: sw, "
	                      "component: 'port[0]'}, scheme: one2one, link: eth}"),
	            ET_EXIT_DATA,
	            "t: line 14: edges[0]: one2one, but ep1 names 4 components and ep2 1 "
	            "(many2many pairs every one with every one)",
	            true);
	/* the other slice errors */
	const char *edge = "{ep1: {instance: srv, component: '%s'}, ep2: {instance: sw, component: "
	                   "port}, scheme: many2many, link: eth}";
	char buf[256];
	static const char *const bad[][2] = {
	    {"nic[-1]", "negative indices are not supported"},
	    {"nic[1:1]", "the slice selects nothing"},
	    {"nic[::0]", "a slice step of 0"},
	    {"nic[a]", "not NAME, NAME[i], NAME[a:b] or NAME[a:b:c]"},
	    {"nic[0", "not NAME, NAME[i]"},
	    {"nic[0:1:1:1]", "not NAME, NAME[i]"},
	    {"nic[0]x", "not NAME, NAME[i]"},
	    {"nicc", "device srv has no component nicc"},
	    {"nic.port", "nic is not a nested device (choice device)"},
	    {"nic[3:]", "out of range"}};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(buf, sizeof buf, edge, bad[i][0]);
		expect_fail(with_edge(buf), ET_EXIT_DATA, bad[i][1], false);
	}
	expect_fail(with_edge("{ep1: {instance: srvv, component: nic}, ep2: {instance: sw, "
	                      "component: port}, scheme: many2many, link: eth}"),
	            ET_EXIT_DATA, "\"srvv\": no instance srvv", false);
	expect_fail(with_edge("{ep1: {instance: srv, component: nic}, ep2: {instance: sw, "
	                      "component: port}, scheme: ring, link: eth}"),
	            ET_EXIT_DATA, "scheme ring is not supported", false);
	expect_fail(with_edge("{ep1: {instance: srv, component: nic}, ep2: {instance: sw, "
	                      "component: port}, scheme: one2many, link: eth}"),
	            ET_EXIT_DATA, "\"one2many\": not a scheme (one2one or many2many)", false);
	/* a pair joined again by another link */
	char twice[2048];
	snprintf(twice, sizeof twice, "%s", with_edge(one_nic));
	strcat(twice, "- {ep1: {instance: 'srv[0]', component: 'nic[0]'}, ep2: {instance: sw, "
	              "component: 'port[0]'}, scheme: one2one, link: fast}\n");
	expect_fail(twice, ET_EXIT_DATA,
	            "t: line 15: edges[1]: joins srv.0.nic.0 and sw.0.port.0 again, by link fast "
	            "(first by eth)",
	            true);
	/* by the same link, it is the same edge */
	strcpy(strrchr(twice, ':') + 2, "eth}\n");
	netgraph g;
	et_error e = {0};
	CHECK(load_text(&g, twice, &e) == 0 && g.nedge == 1);
	netgraph_free(&g);
	/* keys */
	expect_fail(
	    with_edge("{ep1: {instance: srv, component: nic}, ep2: {instance: sw, "
	              "component: port}, scheme: many2many, link: eth, colour: red}"),
	    ET_EXIT_DATA,
	    "t: line 14: edges[0].colour: unknown key (InfraGraph 2.x has ep1, ep2, scheme, "
	    "link here)",
	    true);
	expect_fail(with_edge("{ep1: {instance: srv, component: nic}, ep2: {instance: sw, "
	                      "component: port}, scheme: many2many, link: eth, link: eth}"),
	            ET_EXIT_DATA, "t: line 14: edges[0].link: given twice (first on line 14)",
	            true);
	expect_fail(with_edge("{ep1: {instance: srv, component: nic}, ep2: {instance: sw, "
	                      "component: port}, link: eth}"),
	            ET_EXIT_DATA, "t: line 14: edges[0]: missing \"scheme\"", true);
	expect_fail(with_edge("{ep1: {instance: srv, component: [nic]}, ep2: {instance: sw, "
	                      "component: port}, scheme: many2many, link: eth}"),
	            ET_EXIT_DATA,
	            "t: line 14: edges[0].ep1.component: expected a string, got a list", true);
	/* no xpu at all */
	expect_fail("devices: [{name: sw, components: [{name: port, count: 4, choice: port}]}]\n"
	            "instances: [{name: sw, device: sw, count: 2}]\n",
	            ET_EXIT_DATA, "t: no NPU: no instance holds a component with choice xpu", true);
	expect_fail("name: empty\n", ET_EXIT_DATA, "t: no NPU", false);
	expect_fail("name: \"two\\nlines\"\n", ET_EXIT_DATA,
	            "t: line 1: name: a control character in the name", true);
	/* components */
	static const char comp_fmt[] = "devices: [{name: d, components: [%s]}]\n"
	                               "instances: [{name: d, device: d, count: 1}]\n";
	static const char *const comps[][2] = {
	    {"{name: x, count: 0, choice: xpu}", "a count is an integer from 1 to 2147483647"},
	    {"{name: x, count: 2147483648, choice: xpu}", "a count is an integer from 1"},
	    {"{name: x, count: 1.5, choice: xpu}", "a count is an integer from 1"},
	    {"{name: x, count: 1, choice: gpu}", "\"gpu\": not a choice (custom, device, cpu"},
	    {"{name: x, count: 1}", "missing \"choice\""},
	    {"{name: x.y, count: 1, choice: xpu}", "a name holds letters, digits, blanks and"},
	    {"{name: 'x[0]', count: 1, choice: xpu}", "a name holds letters"},
	    {"{name: '', count: 1, choice: xpu}", "a name of 1 to 256 characters"},
	    {"{name: x, count: 1, choice: xpu}, {name: x, count: 1, choice: nic}",
	     "component \"x\" given twice"},
	    {"{name: e, count: 1, choice: device}", "choice device, but no device is named \"e\""},
	    {"{name: x, count: 1, choice: custom, custom: 3}", "expected a mapping, got a value"},
	    {"{name: x, count: 1, choice: xpu, type: xpu}", "unknown key"}};
	for (size_t i = 0; i < sizeof comps / sizeof *comps; i++)
		expect_fail(with(comp_fmt, comps[i][0]), ET_EXIT_DATA, comps[i][1], false);
	/* links */
	static const char link_fmt[] = "devices: [{name: d, components: [{name: x, count: 2, "
	                               "choice: xpu}]}]\n"
	                               "instances: [{name: d, device: d, count: 1}]\n"
	                               "links: [{name: l, physical: %s}]\n";
	static const char *const links[][2] = {
	    {"{bandwidth: {choice: gigabits_per_second}}", "missing \"gigabits_per_second\""},
	    {"{bandwidth: {choice: gbps, gbps: 1}}", "unknown key"},
	    {"{bandwidth: {choice: ns}}", "not a choice here (gigabits_per_second"},
	    {"{bandwidth: {choice: gigabits_per_second, gigabits_per_second: 0}}",
	     "a bandwidth is more than 0"},
	    {"{bandwidth: {choice: gigabits_per_second, gigabits_per_second: -1}}",
	     "a bandwidth is more than 0"},
	    {"{bandwidth: {choice: gigabits_per_second, gigabits_per_second: 4.9e-324}}",
	     "a bandwidth is more than 0"},
	    {"{bandwidth: {choice: gigabits_per_second, gigabits_per_second: .inf}}",
	     "expected a number"},
	    {"{bandwidth: {choice: gigabits_per_second, gigabits_per_second: 0x10}}",
	     "expected a number"},
	    {"{bandwidth: {gigabits_per_second: 1, gigabytes_per_second: 1}}",
	     "\"gigabits_per_second\" and \"gigabytes_per_second\" given, and no \"choice\""},
	    {"{bandwidth: {choice: gigabits_per_second, gigabits_per_second: 1, "
	     "gigabytes_per_second: 1}}",
	     "given beside choice gigabits_per_second"},
	    {"{latency: {choice: us, us: -1}}", "a latency is a finite number, 0 or more"},
	    {"{latency: {choice: ms, ms: 1e308}}", "a latency is a finite number, 0 or more"},
	    {"{colour: red}", "unknown key (InfraGraph 2.x has bandwidth, latency here)"}};
	for (size_t i = 0; i < sizeof links / sizeof *links; i++)
		expect_fail(with(link_fmt, links[i][0]), ET_EXIT_DATA, links[i][1], false);
	/* instances and devices */
	expect_fail("devices: [{name: d, components: [{name: x, count: 1, choice: xpu}]}]\n"
	            "instances: [{name: i, device: e, count: 1}]\n",
	            ET_EXIT_DATA, "t: line 2: instances[0].device: no device named \"e\"", true);
	expect_fail("devices: [{name: d, components: [{name: x, count: 1, choice: xpu}]}, {name: "
	            "d, components: []}]\n",
	            ET_EXIT_DATA, "device \"d\" given twice", false);
	expect_fail("devices: {name: d}\n", ET_EXIT_DATA,
	            "t: line 1: devices: expected a list, got a mapping", true);
	expect_fail(
	    "devices: [{name: d, components: [{name: x, count: 1, choice: xpu}], edges: "
	    "[{ep1: {component: x}, ep2: {component: x}, scheme: one2one, link: pcie}]}]\n"
	    "instances: [{name: i, device: d, count: 1}]\n",
	    ET_EXIT_DATA,
	    "t: line 1: devices[0].edges[0].link: \"pcie\": no such link in device d's links",
	    true);
}

static void test_syntax(void)
{
	expect_fail("", ET_EXIT_DATA, "t: empty: no InfraGraph infrastructure in it", true);
	expect_fail("- a\n- b\n", ET_EXIT_DATA, "t: line 1: expected a mapping", false);
	expect_fail("a: [b\n", ET_EXIT_DATA, "t: line 2: invalid YAML", false);
	expect_fail("a: &x {b: 1}\nc: *x\n", ET_EXIT_DATA, "t: line 2: c: a YAML alias", false);
	expect_fail("name: a\n---\nname: b\n", ET_EXIT_DATA, "t: line 2: a second YAML document",
	            false);
	expect_fail("? [a]\n: b\n", ET_EXIT_DATA, "a mapping key that is not a string", false);
	expect_fail("name: \"a\\0b\"\n", ET_EXIT_DATA, "a NUL character", false);
	char deep[200] = "a: ";
	for (int i = 0; i < 40; i++)
		strcat(deep, "[");
	expect_fail(deep, ET_EXIT_DATA, "nested deeper than 32 levels", false);
	expect_fail("{\"name\": 1,", ET_EXIT_DATA, "t: line 1, column 12: invalid JSON", true);
	expect_fail("  {\"devices\": {}}", ET_EXIT_DATA,
	            "t: devices: expected a list, got a mapping", true);
	/* JSON locates by key path: cJSON keeps no lines */
	expect_fail(
	    "{\"devices\": [{\"name\": \"d\", \"components\": [{\"name\": \"x\", \"count\": "
	    "1, \"choice\": \"xpu\", \"count\": 2}]}]}",
	    ET_EXIT_DATA, "t: devices[0].components[0].count: given twice", true);
	expect_fail("{\"devices\": [], \"edges\": [{\"ep1\": 1, \"ep2\": {}, \"scheme\": \"x\", "
	            "\"link\": \"l\"}]}",
	            ET_EXIT_DATA, "t: edges[0].ep1: expected a mapping, got a value", true);
	/* files */
	netgraph g;
	et_error e = {0};
	CHECK(netgraph_load(&g, data(""), &e) == -1 && e.code == ET_EXIT_IO);
	CHECK(strstr(e.msg, "is a directory") != NULL);
	CHECK(netgraph_load(&g, data("no-such-file.yaml"), &e) == -1 && e.code == ET_EXIT_IO);
	CHECK(netgraph_load(&g, data("dgxa100.legacy.yaml"), &e) == -1 && e.code == ET_EXIT_DATA);
	CHECK(strstr(e.msg, "dgxa100.legacy.yaml: line 14: infrastructure.devices[0].components[0]"
	                    ".type: the pre-2.0 InfraGraph form (components with \"type\"): et-sim "
	                    "reads schema 2.x; convert the file with infragraph 2.x") != NULL);
	expect_fail("device:\n- name: x\n", ET_EXIT_DATA, "(top-level \"device:\")", false);
	expect_fail("devices:\n- name: x\n  connections: [a.0.l.b.0]\n", ET_EXIT_DATA,
	            "t: line 3: devices[0].connections: the pre-2.0 InfraGraph form (dot-string "
	            "\"connections\")",
	            false);
	expect_fail("edges: [{ep1: {instance: a, component: b}, ep2: {instance: a, component: b}, "
	            "many2many: true, link: l}]\n",
	            ET_EXIT_DATA, "(edge \"many2many\" instead of \"scheme\")", false);
	/* infragraph's get_graph form wraps the infrastructure */
	const char *wrapped =
	    "infrastructure:\n"
	    "  devices: [{name: d, components: [{name: x, count: 3, choice: xpu}]}]\n"
	    "  instances: [{name: h, device: d, count: 1}]\n"
	    "annotations: {nodes: []}\n";
	CHECK(load_text(&g, wrapped, &e) == 0 && g.ndev == 3 && g.nnpu == 3 && g.nedge == 0);
	netgraph_free(&g);
	char big[] = "x";
	CHECK(netgraph_load_mem(&g, "t", big, NETGRAPH_MAX_FILE + 1, &e) == -1);
	CHECK(e.code == ET_EXIT_DATA && strstr(e.msg, "larger than") != NULL);
}

/* A chain of n devices, d1 holding d2 ... holding dn, which holds an xpu. */
static char *chain(int n)
{
	static char buf[4096];
	size_t l = (size_t)snprintf(buf, sizeof buf, "devices:\n");
	for (int i = 1; i <= n; i++)
		if (i < n)
			l += (size_t)snprintf(
			    buf + l, sizeof buf - l,
			    "- {name: d%d, components: [{name: d%d, count: 1, choice: "
			    "device}]}\n",
			    i, i + 1);
		else
			l += (size_t)snprintf(
			    buf + l, sizeof buf - l,
			    "- {name: d%d, components: [{name: x, count: 2, choice: "
			    "xpu}], links: [{name: l}], edges: [{ep1: {component: "
			    "'x[0]'}, ep2: {component: 'x[1]'}, scheme: one2one, "
			    "link: l}]}\n",
			    i);
	snprintf(buf + l, sizeof buf - l, "instances: [{name: i, device: d1, count: 1}]\n");
	return buf;
}

static void test_limits(void)
{
	netgraph g;
	et_error e = {0};
	/* nesting: 16 devices deep is fine, 17 is not */
	CHECK(load_text(&g, chain(16), &e) == 0 && g.ndev == 2 && g.nedge == 1);
	if (g.ndev == 2)
		CHECK(strcmp(g.dev[1],
		             "i.0.d2.0.d3.0.d4.0.d5.0.d6.0.d7.0.d8.0.d9.0.d10.0.d11.0.d12.0."
		             "d13.0.d14.0.d15.0.d16.0.x.1") == 0);
	netgraph_free(&g);
	expect_fail(chain(17), ET_EXIT_DATA, "devices nested more than 16 deep (device d17 here)",
	            false);
	expect_fail("devices:\n- {name: a, components: [{name: b, count: 1, choice: device}]}\n"
	            "- {name: b, components: [{name: a, count: 1, choice: device}]}\n"
	            "instances: [{name: i, device: a, count: 1}]\n",
	            ET_EXIT_DATA, "t: line 2: devices[0]: device a contains itself", true);
	/* devices: 1,048,576 is fine, one more is not */
	const char *devs = "devices: [{name: d, components: [{name: x, count: %u, choice: xpu}]}]\n"
	                   "instances: [{name: i, device: d, count: %u}]\n";
	CHECK(load_text(&g, with(devs, 1024, 1024), &e) == 0 && g.ndev == 1048576);
	if (g.ndev == 1048576)
		CHECK(strcmp(g.dev[1048575], "i.1023.x.1023") == 0);
	netgraph_free(&g);
	expect_fail(with(devs, 1048577, 1), ET_EXIT_DATA,
	            "t: the instances expand to 1048577 devices", false);
	expect_fail(
	    with(devs, 1025, 1024), ET_EXIT_DATA,
	    "t: the instances expand to 1049600 devices, more than the 1048576 et-sim takes", true);
	expect_fail(with(devs, 2147483647, 2147483647), ET_EXIT_DATA,
	            "t: the instances expand to over 1099511627776 devices", false);
	/* edges: counted before anything is made */
	const char *edges =
	    "devices: [{name: d, components: [{name: x, count: %u, choice: xpu}, "
	    "{name: p, count: %u, choice: port}], links: [{name: l}], edges: [{ep1: "
	    "{component: x}, ep2: {component: p}, scheme: many2many, link: l}]}]\n"
	    "instances: [{name: i, device: d, count: %u}]\n";
	CHECK(load_text(&g, with(edges, 64, 64, 2), &e) == 0 && g.nedge == 8192);
	netgraph_free(&g);
	expect_fail(with(edges, 4096, 4097, 1), ET_EXIT_DATA,
	            "t: the edges expand to 16781312, more than the 16777216 et-sim takes (counted "
	            "before self pairs and repeated pairs are dropped)",
	            true);
	expect_fail(with(edges, 4096, 2048, 3), ET_EXIT_DATA, "the edges expand to 25165824",
	            false);
}

int main(int argc, char **argv)
{
	snprintf(data_dir, sizeof data_dir, "%s", argc > 1 ? argv[1] : "tests/data");
	test_clos();
	check_nested("nested.yaml");
	check_nested("nested.json");
	test_schemes();
	test_refusals();
	test_syntax();
	test_limits();
	return check_failures();
}
