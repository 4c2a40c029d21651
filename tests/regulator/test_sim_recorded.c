// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sim_recorded.c - the example mix's recorded traces
 * (tests/fixtures/traces/example.trace, profiled on a 2-CPU guest),
 * planned by memtune's planner and replayed through regulator/sim: with
 * the two pools the best-effort core has headroom, so LMS moves its
 * per-period budgets and spare sharing grants something whenever every
 * core is throttled.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memreg_sim.h"
#include "plan.h"

#define TRACES MEMCAL_SOURCE_DIR "/tests/fixtures/traces/example.trace"
#define MAX_LEN 8192

/**
 * struct recorded - the planner's input around the recorded traces.
 * @in: planner input.
 * @m:  the example mix.
 * @rd, @wr: per workload trace storage.
 */
struct recorded {
	struct plan_input in;
	struct mix m;
	uint64_t rd[3][MAX_LEN], wr[3][MAX_LEN];
};

/* load - the fixture's workloads into @r's mix and profiles. */
static void load(struct recorded *r)
{
	FILE *f = fopen(TRACES, "r");
	char line[256];
	int i = -1;
	size_t at = 0;

	cr_assert(f, "cannot open %s", TRACES);
	while (fgets(line, sizeof(line), f)) {
		char name[64], crit[8];
		unsigned long long n, rd, wr;
		int cpu;
		unsigned tick;
		size_t len;

		if (line[0] == '#')
			continue;
		if (sscanf(line, "workload %63s %7s %d %u %zu", name, crit, &cpu,
			   &tick, &len) == 5) {
			struct mix_workload *w;
			struct plan_profile *p;

			cr_assert_lt(++i, 3);
			cr_assert_leq(len, MAX_LEN);
			w = &r->m.wl[r->m.n++];
			p = &r->in.prof[i];
			snprintf(w->name, sizeof(w->name), "%s", name);
			w->rt = !strcmp(crit, "rt");
			w->cpu = w->rt ? cpu : -1;	/* as the mix file has it */
			w->deadline_ns = w->rt ? 10000000 : 0;
			w->read_bps = w->write_bps = -1;
			snprintf(p->source, sizeof(p->source), "calibrated");
			p->tick_us = tick;
			p->len = len;
			p->read = r->rd[i];
			p->write = r->wr[i];
			at = 0;
			continue;
		}
		cr_assert_eq(sscanf(line, "%llu %llu %llu", &n, &rd, &wr), 3,
			     "bad line: %s", line);
		cr_assert(i >= 0 && at + n <= r->in.prof[i].len);
		for (; n; n--, at++) {
			r->rd[i][at] = rd;
			r->wr[i][at] = wr;
		}
	}
	fclose(f);
	cr_assert_eq(r->m.n, 3);
}

/*
 * recorded - the board the traces were recorded on, as its quick
 * calibration saw it (26.9 GB/s aggregate read, 14.2 GB/s write, 57 us
 * per period of proxy overhead), a fifth of it guaranteed, @cache bytes
 * of private cache per core (the floors), and the example mix at
 * @percentile.
 */
static struct recorded *recorded(double percentile, uint64_t cache)
{
	struct recorded *r = calloc(1, sizeof(*r));

	cr_assert(r);
	load(r);
	r->in.mix = &r->m;
	r->in.nr_cpus = 2;
	r->in.sustain_bps[TUNE_READ] = 26.9e9;
	r->in.sustain_bps[TUNE_WRITE] = 14.2e9;
	for (int k = 0; k < 2; k++) {
		r->in.guaranteed_bps[k] = r->in.sustain_bps[k] / 5;
		snprintf(r->in.guaranteed_method[k], 16, "random-line");
		r->in.counter[k].bytes_per_event = 64;
		snprintf(r->in.counter[k].event, 64, "%s",
			 k ? "none" : "page-faults");
	}
	for (int c = 0; c < 2; c++) {
		r->in.overhead_ns[c] = 57000;
		r->in.cache_bytes[c] = cache;
	}
	snprintf(r->in.overhead_method, sizeof(r->in.overhead_method), "proxy");
	r->in.periods_us[0] = 1000;
	snprintf(r->m.name, sizeof(r->m.name), "example");
	r->m.runs = 3;
	r->m.percentile = percentile;
	r->m.margin_pct = 20;
	return r;
}

/**
 * struct replay - one simulation of the plan.
 * @res: the simulator's result (periods owned).
 * @ev:  the traces in events.
 */
struct replay {
	struct memreg_sim_result res;
	uint64_t *ev;
};

/* simulate - replay @t under @c into @rp. */
static void simulate(const struct tune_config *c, const struct plan_traces *t,
		     struct replay *rp)
{
	char err[512];

	rp->ev = malloc(t->len * (size_t)t->nr_cpus * 2 * sizeof(uint64_t));
	cr_assert(rp->ev);
	cr_assert_eq(tune_plan_simulate(c, t, rp->ev, &rp->res, err,
					sizeof(err)), MEMCAL_OK, "%s", err);
	cr_assert_gt(rp->res.nr_periods, 100);
}

/* drop - release @rp. */
static void drop(struct replay *rp)
{
	free(rp->res.periods);
	free(rp->ev);
}

/* row - core @cpu's row of period @p. */
static const struct memreg_sim_period *row(const struct replay *rp, size_t p,
					   int cpu)
{
	return &rp->res.periods[p * rp->res.nr_cores + (size_t)cpu];
}

/* plan_it - plan @r into @c and build its per-core traces into @t. */
static void plan_it(struct recorded *r, struct tune_config *c,
		    struct plan_traces *t)
{
	int cpu_of[MIX_MAX_WORKLOADS];
	char err[1536];

	cr_assert_eq(tune_plan_run(&r->in, c, err, sizeof(err)), MEMCAL_OK, "%s",
		     err);
	for (int i = 0; i < c->n_wl; i++)
		cpu_of[i] = c->wl[i].cpu;
	cr_assert_eq(tune_plan_traces_build(&r->in, cpu_of, t, err, sizeof(err)),
		     MEMCAL_OK, "%s", err);
}

Test(sim_recorded, lms_moves_the_best_effort_budget)
{
	struct recorded *r = recorded(99, 1072 * 1024);	/* as recorded */
	struct tune_config *c = malloc(sizeof(*c));
	struct replay on, off;
	struct plan_traces t;
	size_t differ = 0;
	int be = -1;

	cr_assert(c);
	plan_it(r, c, &t);
	for (int i = 0; i < c->n_cpus; i++)
		if (!strcmp(c->cpus[i].role, "be"))
			be = c->cpus[i].cpu;
	cr_assert_geq(be, 0, "the planner placed no best-effort core");
	for (int k = 0; k < 2; k++)
		cr_assert_gt(tune_config_cpu(c, be)->b[k].ceiling_events,
			     tune_config_cpu(c, be)->b[k].guaranteed_events,
			     "class %d: no headroom above the guarantee", k);
	c->lms = true;
	simulate(c, &t, &on);
	c->lms = false;
	simulate(c, &t, &off);
	cr_assert_eq(on.res.nr_periods, off.res.nr_periods);
	for (size_t p = 0; p < on.res.nr_periods; p++)
		differ += row(&on, p, be)->budget_start[TUNE_READ] !=
			  row(&off, p, be)->budget_start[TUNE_READ];
	cr_log_info("best-effort cpu %d: read budgets differ in %zu of %zu "
		    "periods", be, differ, on.res.nr_periods);
	cr_expect_gt(differ, on.res.nr_periods / 2, "LMS on and off gave the "
		     "best-effort core the same budgets in %zu of %zu periods",
		     on.res.nr_periods - differ, on.res.nr_periods);
	drop(&on);
	drop(&off);
	tune_plan_traces_free(&t);
	free(c);
	free(r);
}

Test(sim_recorded, spare_grants_when_every_core_is_throttled)
{
	/* at its median, with the floors of 64 KiB private caches (the
	 * guest's 1 MiB would cover its busiest millisecond), the real-time
	 * core runs out of budget in its busy periods; without LMS the
	 * best-effort core always does */
	struct recorded *r = recorded(50, 64 * 1024);
	struct tune_config *c = malloc(sizeof(*c));
	struct replay rp;
	struct plan_traces t;
	size_t all = 0, granted = 0;

	cr_assert(c);
	plan_it(r, c, &t);
	c->lms = false;
	c->reclaim = false;	/* budget_end - budget_start: the grants alone */
	c->share = true;
	c->share_mode = MEMREG_SHARE_GRANT;	/* the plan may pick another */
	simulate(c, &t, &rp);
	for (size_t p = 0; p < rp.res.nr_periods; p++) {
		uint64_t grant = 0;
		bool every = true;

		for (int cpu = 0; cpu < 2; cpu++) {
			const struct memreg_sim_period *x = row(&rp, p, cpu);

			if (!tune_config_cpu(c, cpu)->regulated)
				continue;
			/* it wanted more than its budget: it was throttled
			 * (a grant may have released it at once) */
			every &= x->demand[0] > x->budget_start[0] ||
				 x->demand[1] > x->budget_start[1];
			for (int k = 0; k < 2; k++)
				grant += x->budget_end[k] - x->budget_start[k];
		}
		all += every;
		granted += every && grant > 0;
	}
	cr_log_info("every core throttled in %zu of %zu periods, a grant in "
		    "%zu of those", all, rp.res.nr_periods, granted);
	cr_assert_gt(all, 0, "no period throttled every core");
	cr_expect_eq(granted, all, "no spare grant in %zu of the %zu periods "
		     "where every core was throttled", all - granted, all);
	cr_expect_gt(rp.res.total.shared[TUNE_READ] +
		     rp.res.total.shared[TUNE_WRITE], 0);
	drop(&rp);
	tune_plan_traces_free(&t);
	free(c);
	free(r);
}
