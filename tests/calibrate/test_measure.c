// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_measure.c - small real measurements (tiny buffers; plausibility,
 * not timing targets), the pinned team, the pointer chase, statistics.
 * Registered SERIAL: it runs threads that measure.
 */
#include <criterion/criterion.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "latency.h"
#include "measure.h"

#define SMALL (1u << 20)

/* setup - this machine's topology and up to two of its cores. */
static unsigned pick(struct memcal_topology *t, unsigned *cpus)
{
	char err[256];

	cr_assert_eq(memcal_platform_topology_load(t, NULL, err, sizeof(err)), 0, "%s",
		     err);
	cpus[0] = t->cpus[0];
	if (t->n_cores > 1) {
		cpus[1] = t->cpus[1];
		return 2;
	}
	return 1;
}

static atomic_uint calls[8];
static unsigned on_cpu[8];

/* count_call - team function: count the call, note the CPU it ran on. */
static void count_call(unsigned idx, void *arg)
{
	(void)arg;
	atomic_fetch_add(&calls[idx], 1);
	on_cpu[idx] = (unsigned)sched_getcpu();
}

Test(measure, team_runs_pinned_workers_together)
{
	struct memcal_topology t;
	struct memcal_team *team;
	unsigned cpus[2], n = pick(&t, cpus);

	cr_assert_eq(cal_team_create(&team, t.hw, cpus, n), 0);
	for (int r = 0; r < 3; r++)
		cr_assert_eq(cal_team_run(team, count_call, NULL), 0);
	cr_assert_eq(cal_team_run_subset(team, 1, count_call, NULL), 0);
	cr_expect_eq(atomic_load(&calls[0]), 4);
	if (n > 1)
		cr_expect_eq(atomic_load(&calls[1]), 3);
	/* The team is as large as asked: every worker ran, on its own CPU,
	 * and a subset one larger is refused. */
	for (unsigned i = 0; i < n; i++)
		cr_expect_eq(on_cpu[i], cpus[i], "worker %u pinned", i);
	cr_expect_neq(cal_team_run_subset(team, n + 1, count_call, NULL), 0);
	cal_team_destroy(team);
	memcal_platform_topology_free(&t);
}

Test(measure, pinning_to_a_missing_cpu_fails)
{
	struct memcal_team *team = NULL;
	unsigned bad = CPU_SETSIZE - 1;

	cr_expect_neq(cal_team_create(&team, NULL, &bad, 1), 0);
	cr_expect_null(team);
}

/* plausible - a bandwidth result that makes sense for a tiny buffer. */
static void plausible(const struct memcal_bw_result *r, const char *what)
{
	cr_expect_geq(r->agg.kept, 1, "%s", what);
	cr_expect_gt(r->agg.median, 1e8, "%s: %.3g B/s", what, r->agg.median);
	cr_expect_lt(r->agg.median, 1e13, "%s: %.3g B/s", what, r->agg.median);
	cr_expect_leq(r->agg.min, r->agg.median, "%s", what);
	cr_expect_geq(r->agg.max, r->agg.median, "%s", what);
	cr_expect_neq(r->variant[0], '\0', "%s", what);
}

Test(measure, tiny_bandwidth_measurements_are_plausible)
{
	struct memcal_topology t;
	struct memcal_bench b;
	unsigned cpus[2], n = pick(&t, cpus);
	char err[256];

	cr_assert_eq(cal_bench_init(&b, &t, cpus, n, SMALL, err, sizeof(err)),
		     0, "%s", err);
	cr_expect_eq(b.bytes, SMALL);
	for (int op = 0; op < MEMCAL_OP_COUNT; op++) {
		struct memcal_bw_spec s = { .op = op, .n_use = n, .reps = 3,
					    .warmup = 1, .passes = 4 };
		struct memcal_bw_result r;
		int rc = cal_measure_bw(&b, &s, &r, err, sizeof(err));

		if (rc == MEMCAL_EUNSUPPORTED)
			continue;
		cr_assert_eq(rc, 0, "%s", err);
		cr_expect_eq(r.n_workers, n);
		cr_expect_eq(r.bytes, op == MEMCAL_OP_COPY ? SMALL : SMALL);
		plausible(&r, cal_op_name(op));
	}
	if (n > 1) {
		enum memcal_op ops[2] = { MEMCAL_OP_READ, MEMCAL_OP_WRITE };
		bool use[2] = { false, true };
		struct memcal_bw_spec s = { .ops = ops, .n_use = 2, .reps = 2,
					    .passes = 2 };
		struct memcal_bw_result r;

		cr_assert_eq(cal_measure_bw(&b, &s, &r, err, sizeof(err)), 0);
		plausible(&r, "mixed");
		s.use = use;	/* only worker 1 */
		cr_assert_eq(cal_measure_bw(&b, &s, &r, err, sizeof(err)), 0);
		cr_expect_eq(r.n_workers, 1);
	}
	cal_bench_fini(&b);
	memcal_platform_topology_free(&t);
}

Test(measure, too_small_or_too_large_buffers_are_refused)
{
	struct memcal_topology t;
	struct memcal_bench b;
	unsigned cpus[2], n = pick(&t, cpus);
	char err[256] = "";

	cr_expect_eq(cal_bench_init(&b, &t, cpus, n, 100, err, sizeof(err)),
		     MEMCAL_EINVAL);
	cr_expect_eq(cal_bench_init(&b, &t, cpus, n, (size_t)1 << 52, err,
				       sizeof(err)), MEMCAL_ENOMEM);
	cr_expect(strstr(err, "available") != NULL, "message: %s", err);
	memcal_platform_topology_free(&t);
}

Test(measure, chase_is_one_cycle_through_every_line)
{
	size_t bytes = 1 << 16, n = bytes / 64;
	void **buf = aligned_alloc(64, bytes);
	void **p = buf;
	size_t steps = 0;

	cr_assert_eq(cal_chase_build(buf, bytes, 64, 42), 0);
	do {
		p = *p;
		steps++;
	} while (p != (void *)buf && steps <= n);
	cr_expect_eq(steps, n, "cycle length %zu of %zu lines", steps, n);
	cr_expect_neq(cal_chase_build(buf, 64, 64, 1), 0);
	free(buf);
}

Test(measure, loaded_latency_sweep_gives_positive_latency)
{
	struct memcal_topology t;
	struct memcal_bench b;
	unsigned cpus[2], n = pick(&t, cpus);
	double paces[] = { 0, 1 };
	struct memcal_lat_point pts[2];
	struct memcal_lat_spec s = { .traffic = MEMCAL_OP_READ, .paces = paces,
				     .n_paces = 2, .n_load = n - 1, .reps = 2,
				     .chase_ns = 5000000 };
	char err[256];

	cr_assert_eq(cal_bench_init(&b, &t, cpus, n, 4 * SMALL, err,
				       sizeof(err)), 0, "%s", err);
	cr_assert_eq(cal_chase_build(b.bufs[0].base, b.bytes, 64, 7), 0);
	cr_assert_eq(cal_latency_sweep(&b, &s, pts, err, sizeof(err)), 0,
		     "%s", err);
	for (int i = 0; i < 2; i++) {
		cr_expect_gt(pts[i].lat.median, 0.1);
		cr_expect_lt(pts[i].lat.median, 1e6);
	}
	cr_expect_eq(pts[0].bw, 0, "pace 0 generates nothing");
	if (n > 1)
		cr_expect_gt(pts[1].bw, 1e8, "full pace generates traffic");
	cal_bench_fini(&b);
	memcal_platform_topology_free(&t);
}

Test(measure, collapsed_repetitions_are_dropped)
{
	double bw[] = { 10, 11, 9.5, 5, 10.5 };	/* 5 collapsed (< 0.6 x 10) */
	double ns[] = { 100, 104, 230, 98 };	/* 230 collapsed (> 101 / 0.6) */
	struct memcal_stats s;

	cr_assert_eq(cal_stats_compute(bw, 5, true, &s), 0);
	cr_expect_eq(s.kept, 4);
	cr_expect_eq(s.dropped, 1);
	cr_expect_float_eq(s.median, 10.25, 1e-12);
	cr_expect_float_eq(s.min, 9.5, 1e-12);
	cr_expect_float_eq(s.max, 11, 1e-12);
	cr_assert_eq(cal_stats_compute(ns, 4, false, &s), 0);
	cr_expect_eq(s.kept, 3);
	cr_expect_float_eq(s.max, 104, 1e-12);
	cr_expect_neq(cal_stats_compute(ns, 0, false, &s), 0);
}

Test(measure, procstat_snapshots_compare)
{
	struct memcal_procstat a, b;
	unsigned cpu0 = 0;
	double f;

	cr_assert_eq(cal_procstat_read(&a), 0);
	cr_expect_geq(a.n_cpus, 1);
	memcal_spin_until_ns(memcal_now_ns() + 20000000);
	cr_assert_eq(cal_procstat_read(&b), 0);
	f = cal_procstat_foreign(&a, &b, &cpu0, 1);
	cr_expect_geq(f, 0);
	cr_expect_leq(f, 1);
	cal_procstat_free(&a);
	cal_procstat_free(&b);
}

Test(measure, median_interval_uses_binomial_ranks)
{
	/* 95 %: n = 5 has no pair of ranks (1 - 2/32 < 0.95), n = 6 has
	 * (min, max), n = 10 the 2nd smallest and largest, n = 20 the 6th. */
	cr_expect_eq(cal_median_ci_rank(0), 0);
	cr_expect_eq(cal_median_ci_rank(3), 1);
	cr_expect_eq(cal_median_ci_rank(6), 1);
	cr_expect_eq(cal_median_ci_rank(9), 2);
	cr_expect_eq(cal_median_ci_rank(10), 2);
	cr_expect_eq(cal_median_ci_rank(20), 6);
}

Test(measure, spread_is_the_median_interval_half_width)
{
	double bw[] = { 10, 10.2, 9.8, 10.1, 9.9, 10.0, 13, 7, 10.05, 9.95 };
	struct memcal_stats s;

	cr_assert_eq(cal_stats_compute(bw, 10, true, &s), 0);
	/* sorted: 7 9.8 9.9 9.95 10 10.0 10.05 10.1 10.2 13: ranks 2 and 9 */
	cr_expect_float_eq(s.ci_lo, 9.8, 1e-12);
	cr_expect_float_eq(s.ci_hi, 10.2, 1e-12);
	cr_expect_float_eq(s.spread, 0.4 / 2 / 10, 1e-12);
	cr_expect_float_eq(cal_spread(bw, 10), 0.02, 1e-12);
	cr_expect_float_eq(cal_spread(bw, 3), (10.2 - 9.8) / 2 / 10, 1e-12);
	cr_expect_eq(cal_spread(bw, 0), 1);
}

/* one_bw - one measurement of @s on a fresh bench of SMALL bytes. */
static void one_bw(struct memcal_bw_spec *s, struct memcal_bw_result *r,
		   uint64_t *ns)
{
	struct memcal_topology t;
	struct memcal_bench b;
	unsigned cpus[2], n = pick(&t, cpus);
	char err[256];
	uint64_t t0;

	cr_assert_eq(cal_bench_init(&b, &t, cpus, n, SMALL, err, sizeof(err)),
		     0, "%s", err);
	s->n_use = n;
	t0 = memcal_now_ns();
	cr_assert_eq(cal_measure_bw(&b, s, r, err, sizeof(err)), 0, "%s", err);
	*ns = memcal_now_ns() - t0;
	cal_bench_fini(&b);
	memcal_platform_topology_free(&t);
}

Test(measure, a_repetition_lasts_its_minimum_duration)
{
	struct memcal_bw_spec s = { .op = MEMCAL_OP_READ, .reps = 3,
				    .warmup = 1, .passes = 1,
				    .min_rep_ns = 30000000 };
	struct memcal_bw_result r;
	uint64_t ns;

	one_bw(&s, &r, &ns);
	/* A 1 MiB pass takes well under 30 ms: the warm-ups must have raised
	 * the passes so that a repetition at the median rate lasts about
	 * 30 ms (warm caches may make the timed ones somewhat faster). */
	cr_expect_gt(r.passes, 1, "passes %u", r.passes);
	cr_expect_geq((double)r.bytes * r.n_workers * r.passes / r.agg.median,
		      0.5 * 30e-3, "%u passes of %llu bytes at %.3g B/s",
		      r.passes, (unsigned long long)r.bytes, r.agg.median);
	cr_expect_geq(ns, 3 * 15000000ull, "3 repetitions of about 30 ms");
}

Test(measure, repetitions_stop_at_the_cap_or_the_budget)
{
	struct memcal_bw_spec s = { .op = MEMCAL_OP_WRITE, .reps = 3,
				    .warmup = 1, .passes = 2 };
	struct memcal_bw_result r;
	uint64_t ns;

	one_bw(&s, &r, &ns);
	cr_expect_eq(r.agg.n, 3, "no max_reps: exactly reps");
	cr_expect_eq(r.passes, 2, "no min_rep_ns: passes as given");
	s.max_reps = 6;
	s.budget_ns = 1;	/* spent at once: stop after reps */
	one_bw(&s, &r, &ns);
	cr_expect_eq(r.agg.n, 3, "budget spent: %u repetitions", r.agg.n);
	s.max_reps = 6;
	s.budget_ns = 0;	/* no budget: up to max_reps, fewer if tight */
	one_bw(&s, &r, &ns);
	cr_expect_geq(r.agg.n, 3);
	cr_expect_leq(r.agg.n, 6);
	cr_expect(r.agg.n == 6 || r.agg.spread <= MEMCAL_SPREAD_TARGET,
		  "stopped at %u with spread %.3f", r.agg.n, r.agg.spread);
}

Test(measure, team_alternates_subset_sizes)
{
	struct memcal_topology t;
	struct memcal_team *team;
	unsigned cpus[2], n = pick(&t, cpus);

	memset(calls, 0, sizeof(calls));
	cr_assert_eq(cal_team_create(&team, t.hw, cpus, n), 0);
	for (int r = 0; r < 200; r++)
		cr_assert_eq(cal_team_run_subset(team, r % 2 ? n : 1,
						 count_call, NULL), 0);
	cr_expect_eq(atomic_load(&calls[0]), 200);
	if (n > 1)
		cr_expect_eq(atomic_load(&calls[1]), 100);
	cal_team_destroy(team);
	memcal_platform_topology_free(&t);
}
