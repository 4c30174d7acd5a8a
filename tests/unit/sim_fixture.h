/* Helpers for et-sim's unit tests: a configuration from KEY=VALUE
 * settings, and a bare engine around one network backend, to send
 * messages and see when the network goes quiet. */
#ifndef ET_UNIT_SIM_FIXTURE_H
#define ET_UNIT_SIM_FIXTURE_H

#include "check.h"
#include "et-sim/engine/sim.h"
#include "et-sim/workload/load.h"
#include <stdio.h>
#include <string.h>

/* cfg_defaults, the settings (NULL-terminated), cfg_finish: 0 or -1. */
static inline int fx_cfg(cfg *c, const char *const *sets)
{
	et_error e = {0};
	cfg_defaults(c);
	for (int i = 0; sets[i]; i++)
		if (cfg_set(c, sets[i], &e) < 0) {
			fprintf(stderr, "%s: %s\n", sets[i], e.msg);
			return -1;
		}
	if (cfg_finish(c, &e) < 0) {
		fprintf(stderr, "cfg_finish: %s\n", e.msg);
		return -1;
	}
	return 0;
}

/* The workload of the ET at path and an engine over it, message by message
 * (no closed forms): 0, or -1 when the file does not load. */
static inline int fx_sim_open(sim *s, const cfg *c, const sim_opts *op, workload *w,
                              const char *path)
{
	char *argv[] = {(char *)path};
	et_input_opts io;
	et_input_opts_init(&io);
	et_error e = {0};
	if (load_workload(w, 1, argv, &io, -1, &e) < 0) {
		fprintf(stderr, "%s: %s\n", path, e.msg);
		return -1;
	}
	sim_init(s, c, op, w->rank_graph, w->world, NULL);
	return 0;
}

/* The done events of fx_send: sim_dispatch ignores a type it does not know. */
enum { FX_DONE = 0xfe };

/* An engine with only the network: backend `which` built for c. */
static inline void fx_net_open(sim *s, const cfg *c, int which)
{
	memset(s, 0, sizeof *s);
	s->cf = c;
	s->net = net_backend_of(which);
	sim_net_init(s);
}

static inline void fx_send(sim *s, uint32_t src, uint32_t dst, uint64_t bytes)
{
	net_done done = {FX_DONE, dst, 0, 0};
	s->net->send(&s->nenv, src, dst, bytes, &done, 0, "communication time");
}

/* Runs the backend's events until none is left: the tick of the last one,
 * which is the last arrival (a link frees no later than its chunk arrives). */
static inline uint64_t fx_quiet(sim *s)
{
	ev e;
	uint64_t last = s->now;
	while (evq_pop(&s->q, &e)) {
		s->now = last = e.t;
		if (e.type == EV_NET)
			s->net->event(&s->nenv, e.a, e.b);
	}
	return last;
}

static inline void fx_net_close(sim *s)
{
	s->net->free(&s->nenv);
	evq_free(&s->q);
}

/* The time one message of `bytes` takes alone on a fresh backend. */
static inline uint64_t fx_alone(const cfg *c, int which, uint32_t src, uint32_t dst, uint64_t bytes)
{
	sim s;
	fx_net_open(&s, c, which);
	fx_send(&s, src, dst, bytes);
	uint64_t t = fx_quiet(&s);
	fx_net_close(&s);
	return t;
}

#endif
