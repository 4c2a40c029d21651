// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * sim.c - memreg_sim_run(): replay a demand trace through the regulator
 * core (time model in memreg_sim.h).
 *
 * The state of one run lives in a struct sim_state on the heap; nothing
 * is shared between runs.  Per sub-tick and core the loop below plays the
 * part of the PMU: it hands out demand until a class reaches its budget,
 * then calls memreg_overflow() with the exact count, as a counter armed
 * with the remaining budget would.
 */
#include <stdlib.h>
#include <string.h>

#include "memreg_sim.h"

/**
 * struct sim_core - the simulator's view of one core during a period
 * @rem: per class, budget left before the counter overflows
 *	(MEMREG_BUDGET_INF: unregulated / monitor-only)
 * @budget: per class, budget the core last reported (struct memreg_arm)
 * @consumed: per class, events served since the period start
 * @demand: per class, fresh demand of the period
 * @backlog: per class, unserved demand carried forward
 * @budget_start: per class, budget at the period start
 * @predicted: per class, the prediction made for this period
 * @throttled_ns: throttled time in this period
 * @left_want: per class, demand left unserved in sub-tick @left_k
 * @left_t: time left unserved in sub-tick @left_k, ns
 * @left_k: the sub-tick the leftover belongs to (+1; 0: none)
 * @released0: the core's stats.released at the period start
 * @restarts0: the core's stats.restarts at the period start
 * @throttled: non-zero while the core is throttled
 */
struct sim_core {
	uint64_t rem[MEMREG_NR_CLASSES];
	uint64_t budget[MEMREG_NR_CLASSES];
	uint64_t consumed[MEMREG_NR_CLASSES];
	uint64_t demand[MEMREG_NR_CLASSES];
	uint64_t backlog[MEMREG_NR_CLASSES];
	uint64_t budget_start[MEMREG_NR_CLASSES];
	uint64_t predicted[MEMREG_NR_CLASSES];
	uint64_t throttled_ns;
	uint64_t left_want[MEMREG_NR_CLASSES];
	uint64_t left_t;
	uint64_t left_k;
	uint64_t released0;
	uint64_t restarts0;
	int throttled;
};

/**
 * struct sim_state - one simulation run
 * @reg: the regulator core instance
 * @core: per-core simulator state
 * @cfg: the run's configuration
 * @trace: the input
 * @sub: sub-ticks per trace tick
 * @per_period: sub-ticks per regulation period
 * @g: sub-tick length, ns
 */
struct sim_state {
	struct memreg reg;
	struct sim_core core[MEMREG_MAX_CPUS];
	const struct memreg_sim_config *cfg;
	const struct memreg_sim_trace *trace;
	uint64_t sub;
	uint64_t per_period;
	uint64_t g;
};

/* Most sharing decisions in one sub-tick (proportional sharing). */
#define SIM_SHARE_ROUNDS	64

/* Greatest common divisor. */
static uint64_t sim_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Sub-ticks per trace tick for @period_ns, or 0 if above the limit. */
static uint64_t sim_subticks(uint64_t tick_ns, uint64_t period_ns,
			     uint32_t max_subticks)
{
	uint64_t g = sim_gcd(tick_ns, period_ns);
	uint64_t limit = max_subticks ? max_subticks : 1000;

	if (!g || tick_ns / g > limit)
		return 0;
	return tick_ns / g;
}

size_t memreg_sim_nr_periods(const struct memreg_sim_trace *trace,
			     uint64_t period_ns, uint32_t max_subticks)
{
	uint64_t sub, g;

	if (!trace || !trace->tick_ns || !period_ns)
		return 0;
	sub = sim_subticks(trace->tick_ns, period_ns, max_subticks);
	if (!sub)
		return 0;
	g = trace->tick_ns / sub;
	return (size_t)((uint64_t)trace->nr_ticks * sub / (period_ns / g));
}

/* Demand of class @cls of core @cpu in global sub-tick @k. */
static uint64_t sim_demand(const struct sim_state *st, uint32_t cpu,
			   uint32_t cls, uint64_t k)
{
	const struct memreg_sim_trace *t = st->trace;
	uint64_t tick = k / st->sub, j = k % st->sub;
	uint64_t d = t->events[(tick * t->nr_cores + cpu) * 2 + cls];

	d = memreg_sat_events(d);
	return d * (j + 1) / st->sub - d * j / st->sub;	/* d * sub < 2^42 */
}

/* Take the core's budgets from @arm; remaining = budget - served. */
static void sim_take_arm(struct sim_core *sc, const struct memreg_arm *arm)
{
	uint32_t c;

	for (c = 0; c < MEMREG_NR_CLASSES; c++) {
		uint64_t b = arm->budget[c];

		sc->budget[c] = b;
		if (b == MEMREG_BUDGET_INF)
			sc->rem[c] = MEMREG_BUDGET_INF;
		else
			sc->rem[c] = b > sc->consumed[c] ? b - sc->consumed[c] : 0;
	}
	sc->throttled = arm->action != MEMREG_RUN;
}

static int sim_serve(struct sim_state *st, uint32_t cpu, uint64_t k,
		     uint64_t want[MEMREG_NR_CLASSES], uint64_t t);

/*
 * Every active CPU is throttled in sub-tick @k: the master decides, the
 * CPUs the core counts as throttled accept (an exempt one too: it must
 * take a new period for the next to start).  A CPU released by a grant,
 * a release or a new period resumes what it left unserved in this
 * sub-tick (CPUs not yet stepped in it simply run when stepped).
 */
static int sim_share(struct sim_state *st, uint64_t period, uint64_t k)
{
	struct memreg_arm arm;
	uint32_t cpu, c;
	int all = 0;

	if (memreg_master_share(&st->reg, period, NULL) != MEMREG_OK)
		return 0;
	for (cpu = 0; cpu < st->trace->nr_cores; cpu++) {
		struct sim_core *sc = &st->core[cpu];
		uint64_t want[MEMREG_NR_CLASSES];

		if (!st->cfg->reg.cpu[cpu].active || !st->reg.cpu[cpu].throttled)
			continue;
		memreg_accept_share(&st->reg, cpu, &arm);
		if (st->cfg->reg.cpu[cpu].exempt)
			continue;	/* never held: runs unbudgeted already */
		sim_take_arm(sc, &arm);
		if (sc->throttled || sc->left_k != k + 1)
			continue;
		/* undo the leftover's accounting, then serve it */
		sc->left_k = 0;
		sc->throttled_ns -= sc->left_t;
		memcpy(want, sc->left_want, sizeof(want));
		if (st->cfg->carry_backlog)
			for (c = 0; c < MEMREG_NR_CLASSES; c++)
				sc->backlog[c] -= sc->backlog[c] < want[c] ?
						  sc->backlog[c] : want[c];
		all |= sim_serve(st, cpu, k, want, sc->left_t);
	}
	return all;
}

/*
 * The core cannot run: @want is unserved for the rest (@t_ns) of sub-tick
 * @k.  Remembered, so that a spare grant in the same sub-tick can resume it.
 */
static void sim_unserved(const struct sim_state *st, struct sim_core *sc,
			 const uint64_t want[MEMREG_NR_CLASSES], uint64_t t_ns,
			 uint64_t k)
{
	uint32_t c;

	sc->left_k = k + 1;
	sc->left_t = t_ns;
	memcpy(sc->left_want, want, sizeof(sc->left_want));
	sc->throttled_ns += t_ns;
	if (!st->cfg->carry_backlog)
		return;
	for (c = 0; c < MEMREG_NR_CLASSES; c++)
		sc->backlog[c] = memreg_sat_events(sc->backlog[c] + want[c]);
}

/*
 * Serve @want of core @cpu over the @t ns left of sub-tick @k, calling the
 * overflow handler whenever a class reaches its budget.  Returns 1 if the
 * handler reported that every active core is throttled.
 */
static int sim_serve(struct sim_state *st, uint32_t cpu, uint64_t k,
		     uint64_t want[MEMREG_NR_CLASSES], uint64_t t)
{
	struct sim_core *sc = &st->core[cpu];
	struct memreg_arm arm;
	uint32_t c;
	int all = 0;

	while (!sc->throttled) {
		int kc = -1;
		uint64_t rk, wk;

		/* The class that reaches its budget first (want >= rem). */
		for (c = 0; c < MEMREG_NR_CLASSES; c++) {
			if (sc->rem[c] == MEMREG_BUDGET_INF || !want[c] ||
			    want[c] < sc->rem[c])
				continue;
			if (kc < 0 ||
			    (unsigned __int128)sc->rem[c] * want[kc] <
			    (unsigned __int128)sc->rem[kc] * want[c])
				kc = (int)c;
		}
		if (kc < 0) {	/* everything fits */
			for (c = 0; c < MEMREG_NR_CLASSES; c++) {
				sc->consumed[c] += want[c];
				if (sc->rem[c] != MEMREG_BUDGET_INF)
					sc->rem[c] -= want[c];
				want[c] = 0;
			}
			return all;
		}
		rk = sc->rem[kc];
		wk = want[kc];
		for (c = 0; c < MEMREG_NR_CLASSES; c++) {
			uint64_t s;

			if ((int)c == kc)
				continue;
			s = (uint64_t)((unsigned __int128)want[c] * rk / wk);
			sc->consumed[c] += s;
			want[c] -= s;
			if (sc->rem[c] != MEMREG_BUDGET_INF)
				sc->rem[c] -= s;
		}
		t -= (uint64_t)((unsigned __int128)t * rk / wk);
		sc->consumed[kc] += rk;
		want[kc] -= rk;
		sc->rem[kc] = 0;
		if (st->cfg->slack_events) {
			uint64_t e = want[kc] < st->cfg->slack_events ?
				     want[kc] : st->cfg->slack_events;

			sc->consumed[kc] += e;
			want[kc] -= e;
		}
		memreg_overflow(&st->reg, cpu, (uint32_t)kc, sc->consumed[kc], &arm);
		sim_take_arm(sc, &arm);
		if (st->cfg->reg.cpu[cpu].exempt) {
			/* never held, as memreg's glue does: it runs on,
			 * unbudgeted, to the end of the period */
			sc->throttled = 0;
			for (c = 0; c < MEMREG_NR_CLASSES; c++)
				sc->rem[c] = MEMREG_BUDGET_INF;
			continue;
		}
		if (arm.action == MEMREG_THROTTLE_ALL)
			all = 1;
	}
	sim_unserved(st, sc, want, t, k);
	return all;
}

/* This sub-tick's demand of core @cpu, backlog included. */
static void sim_want(struct sim_state *st, uint32_t cpu, uint64_t k,
		     uint64_t want[MEMREG_NR_CLASSES])
{
	struct sim_core *sc = &st->core[cpu];
	uint32_t c;

	for (c = 0; c < MEMREG_NR_CLASSES; c++) {
		uint64_t d = sim_demand(st, cpu, c, k);

		sc->demand[c] += d;
		want[c] = memreg_sat_events(d + sc->backlog[c]);
		sc->backlog[c] = 0;
	}
}

/*
 * Start period @p on every core, then tick the master.  Returns 0, or
 * MEMCAL_ERROR when the core refuses a replenishment (its MEMREG_E* code
 * stays here).
 */
static int sim_period_start(struct sim_state *st, uint64_t p)
{
	const struct memreg_sim_trace *t = st->trace;
	struct memreg_arm arm;
	uint32_t cpu, c;

	for (cpu = 0; cpu < t->nr_cores; cpu++) {
		struct sim_core *sc = &st->core[cpu];

		for (c = 0; c < MEMREG_NR_CLASSES; c++)
			sc->predicted[c] = st->reg.cpu[cpu].lms[c].last_pred;
		if (!st->cfg->reg.cpu[cpu].active) {
			memset(&arm, 0, sizeof(arm));
			arm.budget[0] = arm.budget[1] = MEMREG_BUDGET_INF;
		} else if (memreg_replenish(&st->reg, cpu, p, sc->consumed,
					    sc->throttled_ns, &arm)) {
			return MEMCAL_ERROR;
		}
		memset(sc->consumed, 0, sizeof(sc->consumed));
		memset(sc->demand, 0, sizeof(sc->demand));
		sc->throttled_ns = 0;
		sc->left_k = 0;
		sc->released0 = st->reg.cpu[cpu].stats.released;
		sc->restarts0 = st->reg.cpu[cpu].stats.restarts;
		sim_take_arm(sc, &arm);
		memcpy(sc->budget_start, arm.budget, sizeof(sc->budget_start));
	}
	memreg_master_tick(&st->reg, p);
	return 0;
}

/* Per-class rate in bytes/s (or events/s) of @events in one period. */
static double sim_rate(const struct sim_state *st, uint64_t events)
{
	double scale = st->cfg->bytes_per_event ? st->cfg->bytes_per_event : 1.0;

	return (double)events * scale * 1e9 / (double)st->cfg->reg.period_ns;
}

/* Close period @p: per-period row and running summaries. */
static void sim_period_end(struct sim_state *st, uint64_t p,
			   struct memreg_sim_result *res)
{
	uint32_t cpu, c;

	for (cpu = 0; cpu < st->trace->nr_cores; cpu++) {
		struct sim_core *sc = &st->core[cpu];
		struct memreg_sim_summary *sum = &res->core[cpu];
		struct memreg_sim_period row;

		memset(&row, 0, sizeof(row));
		row.period = p;
		row.cpu = cpu;
		for (c = 0; c < MEMREG_NR_CLASSES; c++) {
			uint64_t b = st->cfg->reg.cpu[cpu].active ?
				     st->reg.cpu[cpu].budget[c] : MEMREG_BUDGET_INF;

			row.demand[c] = sc->demand[c];
			row.budget_start[c] = sc->budget_start[c];
			row.budget_end[c] = b;
			row.consumed[c] = sc->consumed[c];
			row.overuse[c] = sc->consumed[c] > b ? sc->consumed[c] - b : 0;
			row.backlog[c] = sc->backlog[c];
			row.predicted[c] = sc->predicted[c];
			row.achieved[c] = sim_rate(st, sc->consumed[c]);
			sum->demanded[c] += row.demand[c];
			sum->served[c] += row.consumed[c];
			sum->overuse[c] += row.overuse[c];
			if (row.overuse[c] > sum->max_overuse[c])
				sum->max_overuse[c] = row.overuse[c];
		}
		row.released = st->reg.cpu[cpu].stats.released - sc->released0;
		row.restarts = st->reg.cpu[cpu].stats.restarts - sc->restarts0;
		row.throttled_ns = sc->throttled_ns;
		row.throttled_frac = (double)sc->throttled_ns /
				     (double)st->cfg->reg.period_ns;
		sum->throttled_ns += sc->throttled_ns;
		sum->periods_throttled += sc->throttled_ns ? 1 : 0;
		if (res->periods && res->nr_rows < res->periods_cap)
			res->periods[res->nr_rows++] = row;
	}
}

/* Fill the summaries from the core's statistics and predictors. */
static void sim_summarise(struct sim_state *st, struct memreg_sim_result *res)
{
	struct memreg_sim_summary *tot = &res->total;
	uint32_t cpu, c, n = st->trace->nr_cores, scored[2] = { 0, 0 };
	uint64_t dem = 0, srv = 0;

	memset(tot, 0, sizeof(*tot));
	for (cpu = 0; cpu < n; cpu++) {
		struct memreg_sim_summary *s = &res->core[cpu];
		const struct memreg_cpu *rc = &st->reg.cpu[cpu];
		uint64_t cd = 0, cs = 0;

		for (c = 0; c < MEMREG_NR_CLASSES; c++) {
			const struct memreg_lms_state *l = &rc->lms[c];

			s->reclaimed[c] = rc->stats.reclaimed[c];
			s->donated[c] = rc->stats.donated[c];
			s->shared[c] = rc->stats.shared[c];
			if (st->cfg->reg.cpu[cpu].active && l->updates) {
				double mean = (double)s->served[c] /
					      (double)res->nr_periods;

				s->pred_abs_err[c] = (double)l->abs_err_sum /
						     (double)l->updates;
				s->pred_rel_err[c] = mean > 0 ?
						     s->pred_abs_err[c] / mean : 0;
				tot->pred_abs_err[c] += s->pred_abs_err[c];
				tot->pred_rel_err[c] += s->pred_rel_err[c];
				scored[c]++;
			}
			tot->demanded[c] += s->demanded[c];
			tot->served[c] += s->served[c];
			tot->overuse[c] += s->overuse[c];
			if (s->max_overuse[c] > tot->max_overuse[c])
				tot->max_overuse[c] = s->max_overuse[c];
			tot->reclaimed[c] += s->reclaimed[c];
			tot->donated[c] += s->donated[c];
			tot->shared[c] += s->shared[c];
			cd += s->demanded[c];
			cs += s->served[c];
		}
		s->throttles = rc->stats.throttles;
		s->released = rc->stats.released;
		s->restarts = rc->stats.restarts;
		tot->released += s->released;
		tot->restarts += s->restarts;
		s->achieved_ratio = cd ? (double)cs / (double)cd : 1.0;
		tot->throttled_ns += s->throttled_ns;
		tot->throttles += s->throttles;
		tot->periods_throttled += s->periods_throttled;
		dem += cd;
		srv += cs;
	}
	for (c = 0; c < MEMREG_NR_CLASSES; c++) {
		if (scored[c]) {
			tot->pred_abs_err[c] /= scored[c];
			tot->pred_rel_err[c] /= scored[c];
		}
	}
	tot->achieved_ratio = dem ? (double)srv / (double)dem : 1.0;
}

/* Check the trace and its fit with the configuration. */
static int sim_check(const struct memreg_sim_config *cfg,
		     const struct memreg_sim_trace *t, const char **why)
{
	if (!cfg || !t) {
		*why = "no configuration or no trace";
		return MEMCAL_EINVAL;
	}
	if (!t->tick_ns) {
		*why = "trace tick must be > 0 ns";
		return MEMCAL_EINVAL;
	}
	if (t->nr_cores < 1 || t->nr_cores > MEMREG_MAX_CPUS) {
		*why = "trace must have 1..64 cores";
		return MEMCAL_EINVAL;
	}
	if (t->nr_ticks && !t->events) {
		*why = "trace has ticks but no data";
		return MEMCAL_EINVAL;
	}
	if (cfg->reg.nr_cpus != t->nr_cores) {
		*why = "configuration nr_cpus differs from the trace's cores";
		return MEMCAL_ERANGE;
	}
	if (!sim_subticks(t->tick_ns, cfg->reg.period_ns, cfg->max_subticks)) {
		*why = "period and trace tick have no common step of at least tick/max_subticks";
		return MEMCAL_EINVAL;
	}
	return MEMCAL_OK;
}

/* sim_run - memreg_sim_run() with the reason as a static message. */
static int sim_run(const struct memreg_sim_config *cfg,
		   const struct memreg_sim_trace *trace,
		   struct memreg_sim_result *res, const char **why)
{
	const char *dummy;
	struct sim_state *st;
	uint64_t p, s, np;
	uint32_t cpu, r;
	int ret;

	if (!why)
		why = &dummy;
	*why = "";
	ret = sim_check(cfg, trace, why);
	if (ret)
		return ret;
	st = calloc(1, sizeof(*st));
	if (!st) {
		*why = "out of memory";
		return MEMCAL_ENOMEM;
	}
	ret = memreg_init(&st->reg, &cfg->reg, why);
	if (ret) {
		free(st);
		return ret == MEMREG_ERANGE ? MEMCAL_ERANGE : MEMCAL_EINVAL;
	}
	st->cfg = cfg;
	st->trace = trace;
	st->sub = sim_subticks(trace->tick_ns, cfg->reg.period_ns, cfg->max_subticks);
	st->g = trace->tick_ns / st->sub;
	st->per_period = cfg->reg.period_ns / st->g;

	np = memreg_sim_nr_periods(trace, cfg->reg.period_ns, cfg->max_subticks);
	res->nr_rows = 0;
	res->nr_periods = (size_t)np;
	res->nr_cores = trace->nr_cores;
	res->period_ns = cfg->reg.period_ns;
	res->subtick_ns = st->g;
	memset(res->core, 0, sizeof(res->core));

	for (p = 0; p < np; p++) {
		ret = sim_period_start(st, p);
		if (ret) {
			*why = "regulator refused a replenishment";
			free(st);
			return ret;
		}
		for (s = 0; s < st->per_period; s++) {
			uint64_t k = p * st->per_period + s;
			int all = 0;

			for (cpu = 0; cpu < trace->nr_cores; cpu++) {
				struct sim_core *sc = &st->core[cpu];

				uint64_t want[MEMREG_NR_CLASSES];

				sim_want(st, cpu, k, want);
				if (sc->throttled)
					sim_unserved(st, sc, want, st->g, k);
				else
					all |= sim_serve(st, cpu, k, want, st->g);
			}
			/*
			 * Proportional sharing may start several new periods
			 * in one sub-tick; a bound keeps a tiny budget from
			 * spinning (the module is bounded by its IPI latency).
			 */
			for (r = 0; all && r < SIM_SHARE_ROUNDS; r++)
				all = sim_share(st, p, k);
		}
		sim_period_end(st, p, res);
	}
	sim_summarise(st, res);
	free(st);
	return MEMCAL_OK;
}

int memreg_sim_run(const struct memreg_sim_config *cfg,
		   const struct memreg_sim_trace *trace,
		   struct memreg_sim_result *res, char *err, size_t errlen)
{
	const char *why = "";
	int ret = sim_run(cfg, trace, res, &why);

	if (err && errlen)
		snprintf(err, errlen, "%s", ret ? why : "");
	return ret;
}
