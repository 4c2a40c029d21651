// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_replay.c - per-core demand traces and their replay through the
 * regulator simulator (regulator/sim, the same core the kernel runs).
 *
 * A core's trace is the sum of the traces of the workloads placed on it,
 * at the coarsest granularity among them (finer traces are summed into
 * it); a shorter trace is repeated to the length of the longest, as the
 * workloads of a mix run side by side for as long as the longest one.
 *
 * Regulation error.  A period of P with budget B lets a core spend B at
 * whatever rate its demand has inside the period: a burst is served at
 * full speed and then throttled.  The planner measures, per trace tick,
 * the traffic served above the budget's rate (B * tick / P), summed over
 * the run, as a fraction of all traffic served: the "over-use inside a
 * period" a longer period allows.  With it come the throttled time of
 * real-time cores and the best-effort demand left unserved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memreg_sim.h"
#include "plan.h"

#define PLAN_MAX_TICKS 50000

/* Cost weights: fractions of a core or of traffic, see plan_score. */
#define W_OVERHEAD 1.0
#define W_OVERUSE 1.0
#define W_RT_THROTTLE 4.0
#define W_BE_UNSERVED 0.5
#define W_PRED 0.1

/**
 * tune_plan_traces_build() - sum the workloads' traces per core.
 * @cpu_of: per workload, its CPU.
 * @t:      filled; free with tune_plan_traces_free().
 *
 * Return: MEMCAL_OK, MEMCAL_EINVAL (granularities that do not divide each
 * other, no trace at all) or MEMCAL_ENOMEM.
 */
int tune_plan_traces_build(const struct plan_input *in, const int *cpu_of,
		      struct plan_traces *t, char *err, size_t errlen)
{
	const struct mix *m = in->mix;
	uint32_t tick = 0;
	size_t len = 0;

	memset(t, 0, sizeof(*t));
	t->nr_cpus = in->nr_cpus;
	for (int i = 0; i < m->n; i++)
		if (in->prof[i].len && in->prof[i].tick_us > tick)
			tick = in->prof[i].tick_us;
	if (!tick) {
		snprintf(err, errlen, "no workload of mix '%s' has a traffic "
			 "trace: run 'memtune profile' first", m->name);
		return MEMCAL_EINVAL;
	}
	for (int i = 0; i < m->n; i++) {
		const struct plan_profile *p = &in->prof[i];
		size_t n;

		if (!p->len)
			continue;
		if (tick % p->tick_us) {
			snprintf(err, errlen, "the traces of mix '%s' have "
				 "granularities (%u us, %u us) that do not "
				 "divide each other: profile again", m->name,
				 p->tick_us, tick);
			return MEMCAL_EINVAL;
		}
		n = p->len / (tick / p->tick_us);
		if (n > len)
			len = n;
	}
	if (len > PLAN_MAX_TICKS)
		len = PLAN_MAX_TICKS;
	if (!len) {
		snprintf(err, errlen, "the traces of mix '%s' are shorter than "
			 "one %u us sample", m->name, tick);
		return MEMCAL_EINVAL;
	}
	t->bytes = calloc(len * (size_t)in->nr_cpus * 2, sizeof(uint64_t));
	if (!t->bytes)
		return MEMCAL_ENOMEM;
	t->tick_us = tick;
	t->len = len;
	for (int i = 0; i < m->n; i++) {
		const struct plan_profile *p = &in->prof[i];
		size_t k, n;
		int c = cpu_of[i];

		t->has_work[c] = true;
		t->rt[c] |= m->wl[i].rt;
		if (!p->len)
			continue;
		k = tick / p->tick_us;
		n = p->len / k;
		for (size_t s = 0; n && s < len; s++)
			for (size_t j = 0; j < k; j++) {
				size_t src = (s % n) * k + j;
				uint64_t *dst = &t->bytes[(s * (size_t)
						t->nr_cpus + (size_t)c) * 2];

				dst[0] += p->read[src];
				dst[1] += p->write[src];
			}
	}
	return MEMCAL_OK;
}

/** tune_plan_traces_free() - release what tune_plan_traces_build() allocated. */
void tune_plan_traces_free(struct plan_traces *t)
{
	free(t->bytes);
	t->bytes = NULL;
}

/* to_events - bytes to counter events of class @k, rounded to nearest. */
static uint64_t to_events(const struct tune_config *c, int k, uint64_t b)
{
	double bpe = c->counter[k].bytes_per_event;

	return (uint64_t)((double)b / bpe + 0.5);
}

/* fill_reg - the regulator configuration memreg would get from @c. */
static void fill_reg(const struct tune_config *c, int nr_cpus,
		     struct memreg_cfg *r)
{
	uint64_t cold[2] = { 0, 0 };
	int n_active = 0;

	memreg_cfg_defaults(r, (memreg_u32)nr_cpus);
	r->period_ns = (uint64_t)c->period_us * 1000;
	r->master_cpu = (memreg_u32)c->master_cpu;
	r->flags = (c->lms ? MEMREG_F_LMS : 0) |
		   (c->reclaim ? MEMREG_F_RECLAIM : 0) |
		   (c->share ? MEMREG_F_SHARE : 0) |
		   (c->monitor ? MEMREG_F_MONITOR : 0);
	r->share_mode = c->share_mode;
	r->reclaim_quantum = c->reclaim_quantum ? c->reclaim_quantum : 1;
	r->lms.taps = c->taps;
	r->lms.mu = c->mu_q16;
	r->lms.headroom = c->headroom_q16;
	for (int k = 0; k < 2; k++)
		r->platform_ceiling[k] = c->ceiling_events[k];
	for (int i = 0; i < nr_cpus; i++) {
		const struct tune_cpu *p = tune_config_cpu_const(c, i);

		r->cpu[i].active = p && p->regulated;
		/* monitored and budgeted, never held (memreg's rt_exempt) */
		r->cpu[i].exempt = r->cpu[i].active && p->rt_exempt;
		for (int k = 0; k < 2; k++) {
			r->cpu[i].guaranteed[k] = r->cpu[i].active ?
				p->b[k].guaranteed_events : 1;
			r->cpu[i].ceiling[k] = r->cpu[i].active ?
				p->b[k].ceiling_events : 1;
			if (r->cpu[i].active)
				cold[k] += r->cpu[i].guaranteed[k];
		}
		n_active += r->cpu[i].active != 0;
	}
	for (int k = 0; k < 2; k++)
		r->lms.cold_start[k] = n_active ? cold[k] / (uint64_t)n_active
						: 1;
}

/*
 * score_overuse - walk one core's periods tick by tick: served traffic
 * above the budget rate, and all traffic served, in events.
 */
static void score_overuse(const struct plan_traces *t, const uint64_t *ev,
			  const struct memreg_sim_result *res, int cpu,
			  size_t tpp, double *excess, double *served)
{
	for (size_t p = 0; p < res->nr_periods; p++) {
		const struct memreg_sim_period *row =
			&res->periods[p * res->nr_cores + (size_t)cpu];

		for (int k = 0; k < 2; k++) {
			uint64_t left = row->budget_end[k];
			double allowed = (double)row->budget_end[k] /
					 (double)tpp;

			for (size_t j = 0; j < tpp; j++) {
				size_t s = p * tpp + j;
				uint64_t d = ev[(s * (size_t)t->nr_cpus +
						 (size_t)cpu) * 2 + (size_t)k];
				uint64_t got = d < left ? d : left;

				left -= got;
				*served += (double)got;
				if ((double)got > allowed)
					*excess += (double)got - allowed;
			}
		}
	}
}

/* fill_score - the plan_score of one finished simulation. */
static void fill_score(const struct plan_input *in,
		       const struct plan_traces *t, const uint64_t *ev,
		       const struct memreg_sim_result *res, size_t tpp,
		       uint64_t period_ns, bool lms, struct plan_score *s)
{
	double excess = 0, served = 0, ovh = 0, be_d = 0, be_s = 0;
	int n_reg = 0, n_rt = 0;

	memset(s, 0, sizeof(*s));
	for (int c = 0; c < t->nr_cpus; c++) {
		const struct memreg_sim_summary *cs = &res->core[c];

		if (!t->has_work[c])
			continue;
		n_reg++;
		ovh += in->overhead_ns[c] / (double)period_ns;
		score_overuse(t, ev, res, c, tpp, &excess, &served);
		if (t->rt[c]) {
			n_rt++;
			s->rt_throttle += (double)cs->throttled_ns /
				((double)res->nr_periods * (double)period_ns);
		} else {
			be_d += (double)(cs->demanded[0] + cs->demanded[1]);
			be_s += (double)(cs->served[0] + cs->served[1]);
		}
	}
	s->overhead = n_reg ? ovh / n_reg : 0;
	if (s->overhead > 1)
		s->overhead = 1;
	s->overuse = served > 0 ? excess / served : 0;
	s->rt_throttle = n_rt ? s->rt_throttle / n_rt : 0;
	s->be_unserved = be_d > 0 ? 1.0 - be_s / be_d : 0;
	s->pred_err = (res->total.pred_rel_err[0] +
		       res->total.pred_rel_err[1]) / 2;
	s->cost = W_OVERHEAD * s->overhead + W_OVERUSE * s->overuse +
		  W_RT_THROTTLE * s->rt_throttle +
		  W_BE_UNSERVED * s->be_unserved +
		  (lms ? W_PRED * s->pred_err : 0);
}

/*
 * platform_excess - the fraction of all traffic served in @res that ran
 * above @c's platform ceiling, per class and period, all cores together.
 */
static double platform_excess(const struct tune_config *c,
			      const struct memreg_sim_result *res)
{
	double over = 0, served = 0;

	for (size_t p = 0; p < res->nr_periods; p++)
		for (int k = 0; k < 2; k++) {
			uint64_t sum = 0;

			for (uint32_t cpu = 0; cpu < res->nr_cores; cpu++)
				sum += res->periods[p * res->nr_cores + cpu].consumed[k];
			served += (double)sum;
			if (sum > c->ceiling_events[k])
				over += (double)(sum - c->ceiling_events[k]);
		}
	return served > 0 ? over / served : 0;
}

/*
 * digest - FNV-1a over every core's per-period budgets (at the start and
 * the end of the period) and served events: what tells two replays apart.
 */
static uint64_t digest(const struct memreg_sim_result *res)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t r = 0; r < res->nr_rows; r++) {
		const struct memreg_sim_period *p = &res->periods[r];
		uint64_t v[6] = { p->budget_start[0], p->budget_start[1],
				  p->budget_end[0], p->budget_end[1],
				  p->consumed[0], p->consumed[1] };
		const unsigned char *b = (const unsigned char *)v;

		for (size_t i = 0; i < sizeof(v); i++)
			h = (h ^ b[i]) * 0x100000001b3ULL;
	}
	return h;
}

/**
 * tune_plan_simulate() - replay @t through regulator/sim under configuration
 * @c (its period, budgets, modes and LMS parameters), every core's row of
 * every period into @res (@res->periods allocated here: free it).
 * @ev:  filled with the traces in counter events (t->len * nr_cpus * 2).
 *
 * Return: MEMCAL_OK, MEMCAL_EINVAL (period not a multiple of the trace tick,
 * trace shorter than one period), MEMCAL_ESIM with the simulator's reason,
 * or MEMCAL_ENOMEM.
 */
int tune_plan_simulate(const struct tune_config *c, const struct plan_traces *t,
		       uint64_t *ev, struct memreg_sim_result *res, char *err,
		       size_t errlen)
{
	struct memreg_sim_config *sc = calloc(1, sizeof(*sc));
	uint64_t period_ns = (uint64_t)c->period_us * 1000;
	uint64_t tick_ns = (uint64_t)t->tick_us * 1000;
	size_t n_ev = t->len * (size_t)t->nr_cpus * 2, np;
	struct memreg_sim_trace tr;
	char why[256] = "";
	int rc = MEMCAL_OK;

	memset(res, 0, sizeof(*res));
	if (!sc)
		return MEMCAL_ENOMEM;
	if (!period_ns || period_ns % tick_ns) {
		snprintf(err, errlen, "period %d us is not a multiple of the "
			 "%u us trace granularity", c->period_us, t->tick_us);
		rc = MEMCAL_EINVAL;
		goto out;
	}
	for (size_t i = 0; i < n_ev; i++)
		ev[i] = to_events(c, (int)(i % 2), t->bytes[i]);
	tr = (struct memreg_sim_trace){ .tick_ns = tick_ns,
		.nr_cores = (uint32_t)t->nr_cpus, .nr_ticks = t->len,
		.events = ev };
	np = memreg_sim_nr_periods(&tr, period_ns, 0);
	if (!np) {
		snprintf(err, errlen, "the traces (%zu x %u us) are shorter "
			 "than one %d us period", t->len, t->tick_us,
			 c->period_us);
		rc = MEMCAL_EINVAL;
		goto out;
	}
	fill_reg(c, t->nr_cpus, &sc->reg);
	sc->bytes_per_event = (uint32_t)(c->counter[0].bytes_per_event + 0.5);
	res->periods_cap = np * (size_t)t->nr_cpus;
	res->periods = calloc(res->periods_cap, sizeof(*res->periods));
	if (!res->periods) {
		rc = MEMCAL_ENOMEM;
		goto out;
	}
	rc = memreg_sim_run(sc, &tr, res, why, sizeof(why));
	if (rc) {
		snprintf(err, errlen, "the regulator refused the configuration "
			 "at %d us: %s", c->period_us, why);
		rc = rc == MEMCAL_ENOMEM ? MEMCAL_ENOMEM : MEMCAL_ESIM;
	}
out:
	free(sc);
	return rc;
}

/**
 * tune_plan_replay() - replay @t through regulator/sim under configuration @c
 * (tune_plan_simulate()) and score it.
 *
 * Return: as tune_plan_simulate().
 */
int tune_plan_replay(const struct plan_input *in, const struct plan_traces *t,
		const struct tune_config *c, struct plan_score *s,
		char *err, size_t errlen)
{
	struct memreg_sim_result *res = calloc(1, sizeof(*res));
	uint64_t *ev = malloc(t->len * (size_t)t->nr_cpus * 2 * sizeof(*ev));
	int rc;

	if (!res || !ev) {
		rc = MEMCAL_ENOMEM;
		goto out;
	}
	rc = tune_plan_simulate(c, t, ev, res, err, errlen);
	if (rc)
		goto out;
	fill_score(in, t, ev, res, (size_t)(c->period_us / (int)t->tick_us),
		   (uint64_t)c->period_us * 1000, c->lms, s);
	s->digest = digest(res);
	s->platform_excess = platform_excess(c, res);
	tune_plan_exempt_score(c, res, in->mix->percentile, s);
out:
	if (res)
		free(res->periods);
	free(res);
	free(ev);
	return rc;
}
