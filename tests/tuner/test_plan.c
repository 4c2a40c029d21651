// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plan.c - the planner on synthetic boards and traces whose right
 * answers are known: the master core never lands on a real-time core,
 * budgets never exceed the sustainable bandwidth, a bursty trace gets a
 * shorter period than a smooth one, and what cannot fit is refused.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "export.h"

#define TICKS 2000	/* 200 ms at 100 us */

/**
 * struct fixture - a synthetic board and mix with owned traces.
 * @in:  planner input.
 * @m:   the mix.
 * @rd, @wr: per workload trace storage.
 */
struct fixture {
	struct plan_input in;
	struct mix m;
	uint64_t rd[8][TICKS], wr[8][TICKS];
};

/*
 * board - 4 CPUs, 10 GB/s read, 5 GB/s write sustainable, a fifth of
 * that guaranteed (every access a row miss), 2 us per period.
 */
static struct fixture *board(int nr_cpus)
{
	struct fixture *f = calloc(1, sizeof(*f));

	cr_assert(f);
	f->in.mix = &f->m;
	f->in.nr_cpus = nr_cpus;
	f->in.sustain_bps[0] = 10e9;
	f->in.sustain_bps[1] = 5e9;
	for (int k = 0; k < 2; k++) {
		f->in.guaranteed_bps[k] = f->in.sustain_bps[k] / 5;
		snprintf(f->in.guaranteed_method[k], 16, "random-line");
		snprintf(f->in.guaranteed_source[k], 256, "synthetic");
	}
	for (int c = 0; c < nr_cpus; c++)
		f->in.overhead_ns[c] = 2000;
	snprintf(f->in.overhead_method, sizeof(f->in.overhead_method),
		 "memreg");
	for (int k = 0; k < 2; k++) {
		snprintf(f->in.counter[k].event, 64, "raw:0x%x", 0x17 + k);
		f->in.counter[k].bytes_per_event = 64;
		f->in.counter[k].validated = true;
	}
	snprintf(f->m.name, sizeof(f->m.name), "synthetic");
	f->m.runs = 3;
	f->m.percentile = 99;
	f->m.margin_pct = 20;
	return f;
}

/*
 * add - a workload with a trace: @mean_bps read (write a quarter of it);
 * bursty: all of a 20-tick window's traffic in its first tick.
 */
static int add(struct fixture *f, const char *name, bool rt, int cpu,
	       double mean_bps, bool bursty)
{
	int i = f->m.n++;
	struct mix_workload *w = &f->m.wl[i];
	struct plan_profile *p = &f->in.prof[i];
	uint64_t per_tick = (uint64_t)(mean_bps * 100e-6);

	snprintf(w->name, sizeof(w->name), "%s", name);
	w->rt = rt;
	w->cpu = cpu;
	w->deadline_ns = rt ? 1000000 : 0;
	w->read_bps = w->write_bps = -1;
	for (int t = 0; t < TICKS; t++) {
		uint64_t v = bursty ? (t % 20 == 0 ? per_tick * 20 : 0)
				    : per_tick;

		f->rd[i][t] = v;
		f->wr[i][t] = v / 4;
	}
	snprintf(p->source, sizeof(p->source), "pmu");
	p->tick_us = 100;
	p->len = TICKS;
	p->read = f->rd[i];
	p->write = f->wr[i];
	return i;
}

static const char *explained(const struct tune_config *c, const char *s);

/* plan - run the planner; returns its code, @c filled. */
static int plan(struct fixture *f, struct tune_config *c, char *err)
{
	return tune_plan_run(&f->in, c, err, 512);
}

/* is_rt_cpu - whether a real-time workload sits on @cpu in @c. */
static bool is_rt_cpu(const struct tune_config *c, int cpu)
{
	for (int i = 0; i < c->n_wl; i++)
		if (c->wl[i].rt && c->wl[i].cpu == cpu)
			return true;
	return false;
}

Test(plan, master_never_on_a_realtime_core)
{
	struct tune_config *c = malloc(sizeof(*c));
	char err[512];

	/* the real-time core is made the cheapest by overhead every time */
	for (int rt = 0; rt < 4; rt++) {
		struct fixture *f = board(4);

		f->in.overhead_ns[rt] = 10;
		add(f, "control", true, rt, 100e6, false);
		add(f, "hog", false, -1, 2e9, false);
		add(f, "hog2", false, -1, 2e9, false);
		cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
		cr_assert_neq(c->master_cpu, rt, "master on real-time cpu %d",
			      rt);
		cr_assert_not(is_rt_cpu(c, c->master_cpu));
		/* idle cores are cheapest: the master goes to the idle one */
		cr_assert_str_eq(tune_config_cpu(c, c->master_cpu)->role, "idle");
		free(f);
	}
	/* unpinned real-time workloads: still never the master's core */
	{
		struct fixture *f = board(3);

		add(f, "rt1", true, -1, 100e6, false);
		add(f, "rt2", true, -1, 100e6, false);
		add(f, "be", false, -1, 1e9, false);
		cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
		cr_assert_not(is_rt_cpu(c, c->master_cpu));
		cr_assert_neq(c->wl[0].cpu, c->wl[1].cpu,
			      "real-time workloads need a core each");
		cr_assert_neq(c->wl[2].cpu, c->wl[0].cpu);
		cr_assert_neq(c->wl[2].cpu, c->wl[1].cpu);
		free(f);
	}
	free(c);
}

Test(plan, master_on_cheapest_loaded_core)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(3);
	char err[512];

	/* every core busy: overhead decides among the non-real-time ones */
	add(f, "rt", true, 0, 100e6, false);
	add(f, "be1", false, 1, 1e9, false);
	add(f, "be2", false, 2, 1e9, false);
	f->in.overhead_ns[1] = 5000;
	f->in.overhead_ns[2] = 1000;
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	cr_assert_eq(c->master_cpu, 2);
	free(f);
	free(c);
}

Test(plan, no_core_left_for_the_master)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(2);
	char err[512];

	add(f, "rt1", true, 0, 100e6, false);
	add(f, "rt2", true, 1, 100e6, false);
	cr_assert_eq(plan(f, c, err), MEMCAL_EINVAL);
	cr_assert(strstr(err, "master"), "%s", err);
	free(f);
	free(c);
}

/*
 * check_fit - the two pools: the guarantees fit in the guaranteed pool,
 * which is inside the platform ceiling; every ceiling is inside the
 * platform ceiling, every best-effort ceiling above its guarantee, and
 * the platform ceiling above the sum of the guarantees.
 */
static void check_fit(const struct fixture *f, const struct tune_config *c)
{
	for (int k = 0; k < 2; k++) {
		double sum = 0;
		uint64_t ev = 0;

		cr_assert_gt(c->pool_bps[k], 0, "class %d has no pool", k);
		cr_assert_leq(c->pool_bps[k], c->ceiling_bps[k] * (1 + 1e-9));
		for (int i = 0; i < c->n_cpus; i++) {
			const struct tune_budget *b = &c->cpus[i].b[k];

			if (!c->cpus[i].regulated)
				continue;
			sum += b->guaranteed_bps;
			ev += b->guaranteed_events;
			cr_assert_leq(b->ceiling_bps, f->in.sustain_bps[k] + 1);
			cr_assert_leq(b->ceiling_bps, c->ceiling_bps[k] * (1 + 1e-9));
			cr_assert_geq(b->ceiling_events, b->guaranteed_events);
			cr_assert_geq(b->guaranteed_events,
				      MEMREG_SLACK_DIV_DEFAULT,
				      "cpu %d class %d: a guarantee below "
				      "memreg's slack_div is refused at load",
				      c->cpus[i].cpu, k);
			if (!strcmp(c->cpus[i].role, "be"))
				cr_assert_gt(b->ceiling_events,
					     b->guaranteed_events, "cpu %d "
					     "class %d: best-effort ceiling "
					     "%llu events is not above its "
					     "guarantee", c->cpus[i].cpu, k,
					     (unsigned long long)
					     b->ceiling_events);
		}
		cr_assert_leq(sum, c->pool_bps[k] * (1 + 1e-9),
			      "class %d: guarantees %g > pool %g", k, sum,
			      c->pool_bps[k]);
		cr_assert_leq(sum, f->in.sustain_bps[k] * (1 + 1e-9),
			      "class %d: %g > %g", k, sum, f->in.sustain_bps[k]);
		cr_assert_lt(ev, c->ceiling_events[k], "class %d: no headroom",
			     k);
		cr_assert_lt(sum, c->ceiling_bps[k]);
	}
}

/*
 * A best-effort core that barely touches memory still gets memreg's
 * default slack_div in events per period: memreg refuses a guarantee below its slack_div on a
 * software stand-in event (one overflow per event), so the plan would
 * not load.
 */
Test(plan, a_quiet_best_effort_core_gets_a_loadable_guarantee)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];

	add(f, "control", true, 1, 100e6, false);
	add(f, "idle", false, 2, 1e3, false);
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	check_fit(f, c);
	for (int k = 0; k < 2; k++)
		cr_expect_eq(tune_config_cpu(c, 2)->b[k].guaranteed_events,
			     MEMREG_SLACK_DIV_DEFAULT, "class %d: %llu events", k,
			     (unsigned long long)
			     tune_config_cpu(c, 2)->b[k].guaranteed_events);
	free(f);
	free(c);
}

Test(plan, budgets_never_exceed_sustainable)
{
	struct tune_config *c = malloc(sizeof(*c));
	char err[512];

	srand(7);
	for (int round = 0; round < 6; round++) {
		struct fixture *f = board(4);
		int rt = round % 4;

		add(f, "rt", true, rt, 2e8 + round * 1e8, round & 1);
		add(f, "be1", false, -1, 6e9, false);
		add(f, "be2", false, -1, 3e9, true);
		for (int t = 0; t < TICKS; t++)	/* noise on the RT trace */
			f->rd[0][t] += (uint64_t)(rand() % 20000);
		cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
		check_fit(f, c);
		/* the real-time core's guarantee covers its p99 + margin */
		cr_assert_geq(tune_config_cpu(c, rt)->b[0].guaranteed_bps,
			      (2e8 + round * 1e8) * 1.2 * 0.99);
		free(f);
	}
	free(c);
}

Test(plan, budgets_that_cannot_fit)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];

	add(f, "rt1", true, 0, 6e9, false);
	add(f, "rt2", true, 1, 6e9, false);	/* 2 x 6 x 1.2 > 10 GB/s */
	add(f, "be", false, 2, 1e9, false);
	cr_assert_eq(plan(f, c, err), MEMCAL_ENOFIT);
	cr_assert(strstr(err, "do not fit the guaranteed bandwidth"), "%s", err);
	cr_assert(strstr(err, "MB/s"), "%s", err);
	/* past the streaming figure too: the option cannot help */
	f->in.guarantees_from_streaming = true;
	cr_assert_eq(plan(f, c, err), MEMCAL_ENOFIT);
	cr_assert(strstr(err, "cannot fit"), "%s", err);
	cr_assert(strstr(err, "the board sustains 10000.0 MB/s"), "%s", err);
	free(f);
	free(c);
}

/*
 * has_explain - whether some reason of @c contains both @a and @b.
 */
static bool has_explain(const struct tune_config *c, const char *a,
			const char *b)
{
	for (size_t i = 0; i < c->n_explain; i++)
		if (strstr(c->explain[i], a) && strstr(c->explain[i], b))
			return true;
	return false;
}

Test(plan, zero_write_profile_gets_the_floor)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];
	double sec, want;

	add(f, "control", true, 1, 200e6, false);
	memset(f->wr[0], 0, sizeof(f->wr[0]));	/* the profile saw no write */
	add(f, "hog", false, 2, 3e9, false);
	f->in.cache_bytes[1] = 512 * 1024;
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	check_fit(f, c);
	sec = c->period_us / 1e6;
	/* one refill of the 512 KiB private caches per period + 1% of the
	 * 5 GB/s sustainable write bandwidth, in 64-byte events */
	want = 512 * 1024 + 0.01 * 5e9 * sec;
	cr_assert_eq(tune_config_cpu(c, 1)->b[TUNE_WRITE].floor_events,
		     (uint64_t)((want + 63) / 64), "floor %llu events",
		     (unsigned long long)tune_config_cpu(c, 1)->b[1].floor_events);
	cr_assert_geq(tune_config_cpu(c, 1)->b[TUNE_WRITE].guaranteed_events,
		      tune_config_cpu(c, 1)->b[TUNE_WRITE].floor_events);
	cr_assert_gt(tune_config_cpu(c, 1)->b[TUNE_WRITE].guaranteed_bps, 1e6,
		     "a zero-write trace still gets a real write budget");
	cr_assert_geq(tune_config_cpu(c, 1)->b[TUNE_READ].guaranteed_events,
		      tune_config_cpu(c, 1)->b[TUNE_READ].floor_events);
	cr_assert(has_explain(c, "cpu 1 write budget", "512 KiB"),
		  "the reasons state the floor and its figures");
	for (size_t i = 0; i < c->n_warn; i++)
		cr_assert_not(strstr(c->warn[i], "lists no cache"),
			      "cpu 1's cache is known: %s", c->warn[i]);
	/* best-effort cores get no floor */
	cr_assert_eq(tune_config_cpu(c, 2)->b[TUNE_WRITE].floor_events, 0);
	free(f);
	free(c);
}

Test(plan, floors_pick_periods_that_hold_them)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];

	/* a 4 MiB refill per period fits 5 GB/s only from ~1 ms up */
	add(f, "control", true, 1, 100e6, false);
	add(f, "hog", false, 2, 3e9, false);
	f->in.cache_bytes[1] = 4u << 20;
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	check_fit(f, c);
	cr_assert_geq(c->period_us, 1000, "period %d us", c->period_us);
	f->in.cache_bytes[1] = 0;	/* unknown: assumed, and said */
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	cr_assert(has_explain(c, "cpu 1 read budget", "assumed"));
	cr_assert_eq(tune_config_cpu(c, 1)->b[TUNE_READ].floor_events,
		     (uint64_t)((PLAN_FLOOR_DEFAULT_CACHE + 0.01 * 10e9 *
				 c->period_us / 1e6 + 63) / 64));
	{
		bool warned = false;

		for (size_t i = 0; i < c->n_warn; i++)
			warned |= !!strstr(c->warn[i], "cpu 1: the platform "
					   "profile lists no cache");
		cr_assert(warned, "no warning about the assumed cache");
	}
	free(f);
	free(c);
}

Test(plan, platform_too_small_for_the_floors)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];

	/* 1 MiB refilled per 20 ms period is 52 MB/s: more than 20 MB/s */
	f->in.sustain_bps[0] = f->in.sustain_bps[1] = 20e6;
	add(f, "control", true, 1, 1e6, false);
	add(f, "be", false, 2, 1e6, false);
	cr_assert_eq(plan(f, c, err), MEMCAL_ENOFIT, "%s", err);
	cr_assert(strstr(err, "floors alone need"), "%s", err);
	cr_assert(strstr(err, "20.0 MB/s"), "%s", err);
	cr_assert(strstr(err, "--periods"), "%s", err);
	free(f);
	free(c);
}

/* period_for - the period chosen for a best-effort trace shape. */
static int period_for(bool bursty)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];
	int p;

	/* known 64 KiB caches: floors small enough for short periods */
	for (int cpu = 0; cpu < 4; cpu++)
		f->in.cache_bytes[cpu] = 64 * 1024;
	add(f, "control", true, 1, 200e6, false);
	add(f, "be", false, 2, 1e9, bursty);
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	check_fit(f, c);
	p = c->period_us;
	for (size_t i = 0; i < c->n_explain; i++)
		if (!strncmp(c->explain[i], "period", 6))
			cr_log_info("%s: %s", bursty ? "bursty" : "smooth",
				    c->explain[i]);
	free(f);
	free(c);
	return p;
}

Test(plan, bursty_trace_gets_shorter_period)
{
	int smooth = period_for(false), bursty = period_for(true);

	cr_assert_lt(bursty, smooth, "bursty %d us, smooth %d us", bursty,
		     smooth);
}

Test(plan, overhead_pushes_period_up)
{
	struct tune_config *c = malloc(sizeof(*c));
	int p[2];
	char err[512];

	/* a bursty mix: with cheap interrupts short periods pay off, with
	 * very expensive ones (80 us each, as in this VM) they do not; the
	 * cores' private caches are known (64 KiB), so the real-time floor
	 * is a refill of those, not the 1 MiB assumed for an unknown cache */
	for (int i = 0; i < 2; i++) {
		struct fixture *f = board(4);

		for (int cpu = 0; cpu < 4; cpu++) {
			f->in.overhead_ns[cpu] = i ? 80000 : 500;
			f->in.cache_bytes[cpu] = 64 * 1024;
		}
		/* a guaranteed figure of half the streaming one holds those
		 * floors down to 100 us periods (a fifth would not) */
		for (int k = 0; k < 2; k++)
			f->in.guaranteed_bps[k] = f->in.sustain_bps[k] / 2;
		add(f, "control", true, 1, 200e6, false);
		add(f, "be", false, 2, 1e9, true);
		cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
		p[i] = c->period_us;
		cr_log_info("overhead %s: period %d us; %s", i ? "80 us" :
			    "0.5 us", p[i], explained(c, "period candidates"));
		free(f);
	}
	cr_assert_lt(p[0], p[1], "cheap %d us, expensive %d us", p[0], p[1]);
	free(c);
}

Test(plan, lms_and_modes_chosen_and_explained)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];
	bool saw_period = false, saw_master = false, saw_lms = false;

	add(f, "control", true, 1, 200e6, false);
	add(f, "be", false, 2, 2e9, true);
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	cr_assert(c->lms, "LMS moves the headroom of this mix: it is on");
	cr_assert(c->taps == 1 || c->taps == 2 || c->taps == 4 || c->taps == 8);
	cr_assert(c->mu_q16 >= 16384 && c->mu_q16 <= 65536);
	for (size_t i = 0; i < c->n_explain; i++) {
		saw_period |= !strncmp(c->explain[i], "period ", 7);
		saw_master |= !strncmp(c->explain[i], "master core", 11);
		saw_lms |= !strncmp(c->explain[i], "LMS on", 6);
	}
	cr_assert(saw_period && saw_master && saw_lms);
	/* the reasons a report shows are keyed, not found by their words */
	cr_assert(!strncmp(c->reason[TUNE_REASON_PERIOD], "period ", 7),
		  "%s", c->reason[TUNE_REASON_PERIOD]);
	cr_assert(!strncmp(c->reason[TUNE_REASON_MASTER], "master core", 11),
		  "%s", c->reason[TUNE_REASON_MASTER]);
	{
		json_t *j = tune_config_to_json(c);
		json_t *why = json_object_get(j, "reasons");

		cr_assert_str_eq(json_string_value(json_object_get(why,
				 "master")), c->reason[TUNE_REASON_MASTER]);
		cr_assert_str_eq(json_string_value(json_object_get(why,
				 "period")), c->reason[TUNE_REASON_PERIOD]);
		json_decref(j);
	}
	free(f);
	free(c);
}

Test(plan, document_round_trip)
{
	struct tune_config *c = malloc(sizeof(*c)), *d = malloc(sizeof(*d));
	struct fixture *f = board(4);
	char err[512];
	json_t *j, *k;
	char *s1, *s2;

	add(f, "control", true, 1, 200e6, false);
	add(f, "be", false, -1, 2e9, false);
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	j = tune_config_to_json(c);
	cr_assert(j);
	cr_assert_eq(tune_config_from_json(j, d, err, sizeof(err)), 0, "%s", err);
	k = tune_config_to_json(d);
	s1 = json_dumps(j, JSON_COMPACT);
	s2 = json_dumps(k, JSON_COMPACT);
	cr_assert_str_eq(s1, s2);
	json_object_set_new(j, "version", json_integer(2));
	cr_assert_eq(tune_config_from_json(j, d, err, sizeof(err)),
		     MEMCAL_ENEWER);
	cr_assert(strstr(err, "version 2"), "%s", err);
	free(s1);
	free(s2);
	json_decref(j);
	json_decref(k);
	free(f);
	free(c);
	free(d);
}

/* explained - the first reason of @c containing @s, or NULL. */
static const char *explained(const struct tune_config *c, const char *s)
{
	for (size_t i = 0; i < c->n_explain; i++)
		if (strstr(c->explain[i], s))
			return c->explain[i];
	return NULL;
}

Test(plan, rt_exempt_cores_are_never_throttled_in_the_replay)
{
	struct tune_config *c = malloc(sizeof(*c));
	char err[512];

	/* a bursty real-time core budgeted at its median period (its
	 * floor), next to a hog: throttled when regulated, never when
	 * exempt */
	for (int ex = 0; ex < 2; ex++) {
		struct fixture *f = board(3);
		const char *why;

		f->in.periods_us[0] = 1000;
		f->m.percentile = 50;
		f->m.rt_exempt = ex;
		f->in.cache_bytes[1] = 512 * 1024;	/* floors from a known cache */
		add(f, "control", true, 1, 1e9, true);
		/* its 2 MB bursts come in a third of the 1 ms periods, at
		 * random, so no prediction sees them coming */
		srand(11);
		for (int t = 0; t < TICKS; t++) {
			f->rd[0][t] = t % 10 == 0 && rand() % 3 == 0 ?
				      2000000 : 0;
			f->wr[0][t] = f->rd[0][t] / 4;
		}
		/* a hog wanting five times what the board sustains: the
		 * headroom goes to it, none is left for the bursts */
		add(f, "hog", false, 2, 50e9, false);
		cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
		cr_assert_eq(tune_config_cpu(c, 1)->rt_exempt, (bool)ex);
		cr_assert_not(tune_config_cpu(c, 2)->rt_exempt, "best-effort core");
		why = explained(c, "replay of the final configuration");
		cr_assert(why);
		if (!ex) {
			cr_expect_null(strstr(why, "real-time cores throttled "
					      "0.0%"), "%s", why);
			cr_expect_null(explained(c, "real-time exemption"));
			free(f);
			continue;
		}
		cr_expect(strstr(why, "real-time cores throttled 0.0%"), "%s",
			  why);
		why = explained(c, "real-time exemption (read): cpu 1 monitored,"
				" never throttled; their needs ");
		cr_expect(why, "the budget rule is stated");
		cr_expect(why && strstr(why, "inside the 10000.0 MB/s"), "%s",
			  why);
		/* 2 MB bursts in a third of the 1 ms periods: 2 GB/s peak,
		 * inside 10 GB/s in all 200 periods */
		why = explained(c, "replay with the real-time cores exempt "
				"(read)");
		cr_expect(why && strstr(why, "2000.0 MB/s at its peak") &&
			  strstr(why, "in 200 of 200 periods"), "%s", why);
		cr_expect_eq(c->n_warn, 0, "%s", c->n_warn ? c->warn[0] : "");
		free(f);
	}
	free(c);
}

Test(plan, rt_exempt_traffic_past_the_sustainable_bandwidth_is_warned)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(3);
	char err[512];
	bool warned = false;

	/* bursts of 12 GB/s in every other 1 ms period: the median fits,
	 * the exempt core's peaks do not */
	f->in.periods_us[0] = 1000;
	f->m.percentile = 50;
	f->m.rt_exempt = true;
	add(f, "control", true, 1, 6e9, true);
	add(f, "hog", false, 2, 1e9, false);
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	for (size_t i = 0; i < c->n_warn; i++)
		warned |= strstr(c->warn[i], "real-time cores' read traffic "
				  "alone exceeded the sustainable bandwidth in "
				  "100 of 200") != NULL;
	cr_expect(warned, "%s", c->n_warn ? c->warn[c->n_warn - 1] : "none");
	free(f);
	free(c);
}

/* near - @a within 0.1 % of @b. */
static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-3 * fabs(b);
}

/* family - the fixture's family: 18 GB/s all read down to 9 GB/s all write. */
static void family(struct fixture *f, bool last_lower_bound)
{
	static const double gbs[] = { 18, 15, 13, 11, 9 };

	f->in.family.n = 5;
	for (int i = 0; i < 5; i++) {
		f->in.family.read_pct[i] = 100 - 25 * i;
		f->in.family.sustain_bps[i] = gbs[i] * 1e9;
		f->in.family.lower_bound[i] = last_lower_bound && i == 4;
	}
}

Test(plan, family_is_interpolated_between_the_measured_mixes)
{
	struct fixture *f = board(2);
	struct plan_mix m;

	family(f, true);
	cr_assert_eq(tune_plan_mix_interpolate(&f->in.family, 0.8, &m), 0);
	cr_expect(near(m.total_bps, 15.6e9), "%g", m.total_bps);
	cr_expect_eq(m.lo_pct, 75);
	cr_expect_eq(m.hi_pct, 100);
	cr_expect_not(m.lower_bound);
	cr_assert_eq(tune_plan_mix_interpolate(&f->in.family, 0.5, &m), 0);
	cr_expect(near(m.total_bps, 13e9), "a measured mix is exact");
	cr_expect_eq(m.lo_pct, 50);
	cr_expect_eq(m.hi_pct, 50);
	cr_assert_eq(tune_plan_mix_interpolate(&f->in.family, 0.1, &m), 0);
	cr_expect(near(m.total_bps, 9e9 + 2e9 * 10 / 25));
	cr_expect(m.lower_bound, "next to the lower-bound 0 %% curve");
	/* outside what was measured: the nearest curve */
	f->in.family.n = 2;		/* 100 % and 75 % only */
	cr_assert_eq(tune_plan_mix_interpolate(&f->in.family, 0.3, &m), 0);
	cr_expect(near(m.total_bps, 15e9));
	f->in.family.n = 0;
	cr_expect_eq(tune_plan_mix_interpolate(&f->in.family, 0.3, &m),
		     MEMCAL_ENOTFOUND);
	free(f);
}

Test(plan, planner_uses_the_workloads_mix_and_names_it)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];
	const char *why;
	double sum;
	json_t *j;

	family(f, false);
	/* add() writes a quarter of what it reads: the mix is 80 % read */
	add(f, "control", true, 1, 200e6, false);
	add(f, "hog", false, 2, 3e9, false);
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	/* one ceiling at the mix, not two independent ones (10 + 5 GB/s) */
	sum = c->ceiling_bps[TUNE_READ] + c->ceiling_bps[TUNE_WRITE];
	cr_expect(near(sum, 15.6e9), "%g", sum);
	cr_expect_gt(c->ceiling_bps[TUNE_READ], 10e9,
		     "reads get the mix's share of the family's figure");
	cr_expect_lt(c->ceiling_bps[TUNE_WRITE], 5e9);
	for (int k = 0; k < 2; k++) {
		double g = 0;

		for (int i = 0; i < c->n_cpus; i++)
			if (c->cpus[i].regulated)
				g += c->cpus[i].b[k].guaranteed_bps;
		cr_expect_leq(g, c->ceiling_bps[k] * (1 + 1e-9), "class %d", k);
	}
	why = c->reason[TUNE_REASON_MIX];
	cr_expect(strstr(why, "traces are 80.0 % read"), "%s", why);
	cr_expect(strstr(why, "sustains 15600.0 MB/s at that mix"), "%s", why);
	cr_expect(strstr(why, "between its 75 % (15000.0 MB/s) and 100 % read "
			 "(18000.0 MB/s) curves"), "%s", why);
	j = tune_config_to_json(c);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(j,
			 "reasons"), "mix")), why);
	json_decref(j);
	free(f);
	free(c);
}

Test(plan, write_heavy_mix_gets_the_lower_figure)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];
	double reads;

	family(f, true);
	add(f, "copier", false, 2, 1e9, false);
	/* three times as many bytes written as read: 25 % read */
	for (int t = 0; t < TICKS; t++)
		f->wr[0][t] = f->rd[0][t] * 3;
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	cr_expect(near(c->ceiling_bps[0] + c->ceiling_bps[1], 11e9));
	cr_expect_gt(c->ceiling_bps[TUNE_WRITE], c->ceiling_bps[TUNE_READ]);
	reads = c->ceiling_bps[TUNE_READ];
	cr_expect(near(reads, 11e9 * 0.25), "%g", reads);
	cr_expect(strstr(c->reason[TUNE_REASON_MIX], "its 25 % read curve"),
		  "%s", c->reason[TUNE_REASON_MIX]);
	free(f);
	free(c);
}

Test(plan, without_a_family_reads_and_writes_stay_independent)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];

	add(f, "control", true, 1, 200e6, false);
	add(f, "hog", false, 2, 3e9, false);
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	cr_expect_eq(c->ceiling_bps[TUNE_READ], 10e9);
	cr_expect_eq(c->ceiling_bps[TUNE_WRITE], 5e9);
	cr_expect(strstr(c->reason[TUNE_REASON_MIX], "holds no bandwidth-"
			 "latency family"), "%s", c->reason[TUNE_REASON_MIX]);
	free(f);
	free(c);
}

Test(plan, family_too_low_for_the_floors_is_refused_naming_the_mix)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[512];

	family(f, false);
	for (int i = 0; i < 5; i++)
		f->in.family.sustain_bps[i] = 50e6;	/* 50 MB/s */
	add(f, "control", true, 1, 1e6, false);
	add(f, "hog", false, 2, 3e6, false);
	f->in.cache_bytes[1] = 4 << 20;
	f->in.periods_us[0] = 1000;
	cr_assert_eq(plan(f, c, err), MEMCAL_ENOFIT);
	cr_expect(strstr(err, "mix is 80 % read"), "%s", err);
	cr_expect(strstr(err, "sustains 50.0 MB/s"), "%s", err);
	free(f);
	free(c);
}

/* warned - whether some warning of @c contains @s. */
static bool warned(const struct tune_config *c, const char *s)
{
	for (size_t i = 0; i < c->n_warn; i++)
		if (strstr(c->warn[i], s))
			return true;
	return false;
}

Test(plan, guarantees_fit_the_guaranteed_pool_at_the_mix)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	double used, head[2];
	char err[512];

	/* add() writes a quarter of what it reads: 80 % read */
	add(f, "control", true, 1, 200e6, false);
	add(f, "hog", false, 2, 3e9, false);
	add(f, "hog2", false, 3, 1e9, true);
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	check_fit(f, c);
	cr_assert_str_eq(c->pool_from, "random-line");
	/* the pools together are what the memory guarantees, read and
	 * write time-weighted: pool_r / G_r + pool_w / G_w = 1 */
	used = c->pool_bps[0] / 2e9 + c->pool_bps[1] / 1e9;
	cr_expect(near(used, 1.0), "%g", used);
	cr_expect(has_explain(c, "read guaranteed pool", "at the mix's 80.0 % "
			      "read 1666.7 MB/s"), "the harmonic figure at the "
		  "mix is stated");
	for (int k = 0; k < 2; k++) {
		uint64_t g = 0;

		for (int i = 0; i < c->n_cpus; i++)
			g += c->cpus[i].regulated ?
			     c->cpus[i].b[k].guaranteed_events : 0;
		head[k] = (double)(c->ceiling_events[k] - g);
		cr_assert_gt(head[k], 0);
		for (int cpu = 2; cpu < 4; cpu++) {
			const struct tune_budget *b =
				&tune_config_cpu(c, cpu)->b[k];

			/* a best-effort guarantee is small and stated; its
			 * ceiling is that plus the whole headroom */
			cr_expect_leq(b->guaranteed_bps, 0.05 * c->pool_bps[k] +
				      1, "cpu %d class %d", cpu, k);
			cr_expect_eq(b->ceiling_events, b->guaranteed_events +
				     (uint64_t)head[k], "cpu %d class %d", cpu,
				     k);
		}
	}
	cr_expect(has_explain(c, "read: guaranteed pool", "headroom"), "the "
		  "reasons state pool, sum, ceiling and headroom per class");
	cr_expect(has_explain(c, "write: guaranteed pool", "platform ceiling"));
	free(f);
	free(c);
}

Test(plan, realtime_needs_past_the_guaranteed_figure_fail_unless_streaming)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[1536];

	/* 1.5 GB/s read + 375 MB/s write, + 20 %: past the 2 GB/s and
	 * 1 GB/s guaranteed, well inside the 10 and 5 GB/s streaming */
	add(f, "control", true, 1, 1.5e9, false);
	add(f, "hog", false, 2, 3e9, false);
	f->in.cache_bytes[1] = 64 * 1024;
	cr_assert_eq(tune_plan_run(&f->in, c, err, sizeof(err)), MEMCAL_ENOFIT);
	cr_expect(strstr(err, "do not fit the guaranteed bandwidth"), "%s", err);
	cr_expect(strstr(err, "random-line: 2000.0 MB/s read, 1000.0 MB/s "
			 "write"), "%s", err);
	cr_expect(strstr(err, "at the mix's 80 % read"), "%s", err);
	cr_expect(strstr(err, "MB/s read + "), "%s", err);
	cr_expect(strstr(err, "rt_exempt") && strstr(err, "fewer real-time") &&
		  strstr(err, "--periods") &&
		  strstr(err, "--guarantees-from-streaming"), "%s", err);

	f->in.guarantees_from_streaming = true;
	cr_assert_eq(tune_plan_run(&f->in, c, err, sizeof(err)), MEMCAL_OK, "%s",
		     err);
	check_fit(f, c);
	cr_expect_str_eq(c->pool_from, "streaming");
	cr_expect(warned(c, "guarantees were planned from the streaming"));
	cr_expect(has_explain(c, "read guaranteed pool", "streaming"));
	cr_expect(has_explain(c, "read: guaranteed pool", "--guarantees-from-"
			      "streaming"));
	/* the document carries the pool and the warning */
	{
		json_t *j = tune_config_to_json(c);
		json_t *p = json_object_get(j, "guaranteed_pool");

		cr_expect_str_eq(json_string_value(json_object_get(p, "from")),
				 "streaming");
		cr_expect_gt(json_array_size(json_object_get(j, "warnings")), 0);
		json_decref(j);
	}
	/* no figure at all: refused with what to do */
	f->in.guarantees_from_streaming = false;
	f->in.guaranteed_bps[1] = 0;
	cr_assert_eq(tune_plan_run(&f->in, c, err, sizeof(err)), MEMCAL_EINVAL);
	cr_expect(strstr(err, "no guaranteed write bandwidth") &&
		  strstr(err, "memcal run"), "%s", err);
	free(f);
	free(c);
}

Test(plan, a_mode_without_effect_in_the_replay_is_said_and_left_off)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(3);
	char err[512];

	/* a smooth real-time core inside its guarantee is never throttled,
	 * so "every core throttled" never happens: spare sharing has
	 * nothing to act on, whatever the hog next to it wants */
	f->in.periods_us[0] = 1000;
	f->in.cache_bytes[1] = 64 * 1024;
	add(f, "control", true, 1, 200e6, false);
	add(f, "hog", false, 2, 30e9, false);
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	for (size_t i = 0; i < c->n_explain; i++)
		cr_log_info("%s", c->explain[i]);
	check_fit(f, c);
	cr_expect_not(c->share, "sharing changed nothing, yet it is on");
	cr_expect(explained(c, "spare sharing: no effect in the replay"), "%s",
		  explained(c, "spare sharing") ?
		  explained(c, "spare sharing") : "none");
	/* LMS does move the headroom here: it stays on, and says so */
	cr_expect(c->lms);
	cr_expect(explained(c, "the replay with LMS off differs"));
	free(f);
	free(c);
}

Test(plan, exempt_realtime_needs_stay_outside_the_guaranteed_pool)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct fixture *f = board(4);
	char err[1536];

	/* the needs that do not fit the guaranteed figure above: an exempt
	 * core is never throttled, so its need is no reservation the pool
	 * must hold; it stays inside the platform ceiling */
	add(f, "control", true, 1, 1.5e9, false);
	add(f, "hog", false, 2, 3e9, false);
	f->in.cache_bytes[1] = 64 * 1024;
	cr_assert_eq(tune_plan_run(&f->in, c, err, sizeof(err)), MEMCAL_ENOFIT);
	f->m.rt_exempt = true;
	cr_assert_eq(tune_plan_run(&f->in, c, err, sizeof(err)), MEMCAL_OK, "%s",
		     err);
	cr_expect(tune_config_cpu(c, 1)->rt_exempt);
	cr_expect_str_eq(c->pool_from, "random-line");
	cr_expect(has_explain(c, "read: guaranteed pool", "rt_exempt cores' "
			      "needs outside the pool"));
	for (int k = 0; k < 2; k++) {
		const struct tune_budget *be = &tune_config_cpu(c, 2)->b[k];

		cr_expect_leq(be->guaranteed_bps, c->pool_bps[k]);
		cr_expect_gt(be->ceiling_events, be->guaranteed_events);
		cr_expect_leq(tune_config_cpu(c, 1)->b[k].guaranteed_bps +
			      be->guaranteed_bps, c->ceiling_bps[k]);
	}
	free(f);
	free(c);
}

Test(plan, replay_chooses_the_sharing_mode_and_export_carries_it)
{
	struct tune_config *c = malloc(sizeof(*c)), *d = malloc(sizeof(*d));
	struct fixture *f = board(3);
	char err[512], params[8192];
	json_t *j;

	/* two best-effort hogs, every regulated core throttled in every
	 * period: releasing them serves more, and no real-time work shares
	 * the platform, so the replay takes spare sharing over a grant */
	add(f, "hog1", false, 1, 30e9, false);
	add(f, "hog2", false, 2, 30e9, false);
	cr_assert_eq(plan(f, c, err), MEMCAL_OK, "%s", err);
	for (size_t i = 0; i < c->n_explain; i++)
		cr_log_info("%s", c->explain[i]);
	cr_assert(c->share, "%s", explained(c, "sharing") ? explained(c, "sharing") : "");
	cr_expect_eq(c->share_mode, MEMREG_SHARE_SPARE, "%s",
		     explained(c, "sharing mode") ? explained(c, "sharing mode") : "none");
	cr_expect(explained(c, "sharing mode spare: the cheapest replay"));
	cr_assert_eq(tune_export_module_params(c, params, sizeof(params)), 0);
	cr_expect(strstr(params, " share=spare "), "%s", params);
	j = tune_config_to_json(c);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(j, "modes"),
							   "share_mode")), "spare");
	cr_assert_eq(tune_config_from_json(j, d, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(d->share_mode, MEMREG_SHARE_SPARE);
	json_object_set_new(json_object_get(j, "modes"), "share_mode", json_string("always"));
	cr_expect_neq(tune_config_from_json(j, d, err, sizeof(err)), 0);
	cr_expect(strstr(err, "share_mode"), "%s", err);
	json_decref(j);
	free(f);
	free(c);
	free(d);
}
