// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_sim.c - the simulator on small hand-computed traces (throttling,
 * resampling to other periods, backlog, slack, reclaim, sharing, monitor
 * mode), the trace-file reader, and the memreg-sim executable on good and
 * bad input.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memreg_sim.h"
#include "reg_helpers.h"
#include "shell.h"

#define ROWS 64

/**
 * struct simrun - a trace and a result with room for rows
 * @ev: trace storage [tick][core][class]
 * @t: the trace
 * @cfg: the simulation configuration
 * @res: the result
 * @rows: row storage
 */
struct simrun {
	uint64_t ev[ROWS * 4];
	struct memreg_sim_trace t;
	struct memreg_sim_config cfg;
	struct memreg_sim_result res;
	struct memreg_sim_period rows[ROWS * 2];
};

/* @ticks ticks of 100 us on @n cores, read demand @rd per core, write 0. */
static struct simrun *mk(uint32_t n, uint32_t ticks, const uint64_t *rd,
			 uint64_t g, uint64_t plat, uint32_t flags)
{
	struct simrun *s = calloc(1, sizeof(*s));
	uint32_t i, c;

	for (i = 0; i < ticks; i++)
		for (c = 0; c < n; c++)
			s->ev[(i * n + c) * 2] = rd[c];
	s->t.tick_ns = 100000;
	s->t.nr_cores = n;
	s->t.nr_ticks = ticks;
	s->t.events = s->ev;
	reg_cfg(&s->cfg.reg, n, g, plat, plat, flags, 10);
	s->cfg.reg.period_ns = 100000;
	s->res.periods = s->rows;
	s->res.periods_cap = ROWS * 2;
	return s;
}

/* Run and assert success. */
static void run(struct simrun *s)
{
	char why[256] = "";
	int ret = memreg_sim_run(&s->cfg, &s->t, &s->res, why, sizeof(why));

	cr_assert_eq(ret, 0, "sim failed: %d %s", ret, why);
}

Test(sim, throttles_at_the_budget_with_exact_time)
{
	const uint64_t rd[1] = { 100 };
	struct simrun *s = mk(1, 5, rd, 60, 1000, 0);
	size_t i;

	run(s);
	cr_assert_eq(s->res.nr_periods, 5);
	cr_assert_eq(s->res.nr_rows, 5);
	for (i = 0; i < 5; i++) {
		const struct memreg_sim_period *p = &s->rows[i];

		cr_assert_eq(p->period, i);
		cr_assert_eq(p->demand[0], 100);
		cr_assert_eq(p->consumed[0], 60);
		cr_assert_eq(p->budget_end[0], 60);
		cr_assert_eq(p->throttled_ns, 40000, "100 us * 40/100");
		cr_assert_float_eq(p->throttled_frac, 0.4, 1e-12);
		cr_assert_float_eq(p->achieved[0], 60 / 100e-6, 1e-3);
		cr_assert_eq(p->overuse[0], 0);
	}
	cr_assert_eq(s->res.total.served[0], 300);
	cr_assert_eq(s->res.total.demanded[0], 500);
	cr_assert_eq(s->res.total.throttled_ns, 200000);
	cr_assert_eq(s->res.total.throttles, 5);
	cr_assert_eq(s->res.total.periods_throttled, 5);
	cr_assert_float_eq(s->res.total.achieved_ratio, 0.6, 1e-12);
	free(s);
}

Test(sim, replays_at_shorter_longer_and_odd_periods)
{
	const uint64_t rd[1] = { 100 };
	struct simrun *s = mk(1, 4, rd, 40, 1000, 0);

	s->cfg.reg.period_ns = 50000;		/* half a tick: 50 events each */
	run(s);
	cr_assert_eq(s->res.nr_periods, 8);
	cr_assert_eq(s->res.subtick_ns, 50000);
	cr_assert_eq(s->rows[3].demand[0], 50);
	cr_assert_eq(s->rows[3].consumed[0], 40);
	cr_assert_eq(s->rows[3].throttled_ns, 10000);

	s->cfg.reg.period_ns = 200000;		/* two ticks: 200 events */
	s->cfg.reg.cpu[0].guaranteed[0] = 150;
	run(s);
	cr_assert_eq(s->res.nr_periods, 2);
	cr_assert_eq(s->rows[1].demand[0], 200);
	cr_assert_eq(s->rows[1].consumed[0], 150);
	cr_assert_eq(s->rows[1].throttled_ns, 50000);	/* half of tick 2 */

	s->cfg.reg.period_ns = 150000;		/* 1.5 ticks: step 50 us */
	s->cfg.reg.cpu[0].guaranteed[0] = 1000;
	run(s);
	cr_assert_eq(s->res.subtick_ns, 50000);
	cr_assert_eq(s->res.nr_periods, 2, "8 sub-ticks / 3, partial dropped");
	cr_assert_eq(s->rows[0].demand[0], 150);
	cr_assert_eq(s->rows[1].demand[0], 150);
	cr_assert_eq(memreg_sim_nr_periods(&s->t, 150000, 0), 2);
	cr_assert_eq(memreg_sim_nr_periods(&s->t, 100001, 0), 0, "no usable step");
	free(s);
}

Test(sim, backlog_carries_unserved_demand)
{
	const uint64_t rd[1] = { 0 };
	struct simrun *s = mk(1, 3, rd, 60, 1000, 0);

	s->ev[0] = 100;		/* only tick 0 demands */
	run(s);
	cr_assert_eq(s->rows[0].consumed[0], 60);
	cr_assert_eq(s->rows[1].consumed[0], 0, "dropped without backlog");
	s->cfg.carry_backlog = 1;
	run(s);
	cr_assert_eq(s->rows[0].consumed[0], 60);
	cr_assert_eq(s->rows[0].backlog[0], 40);
	cr_assert_eq(s->rows[1].consumed[0], 40);
	cr_assert_eq(s->rows[1].throttled_ns, 0);
	cr_assert_eq(s->res.total.served[0], 100);
	free(s);
}

Test(sim, slack_shows_as_overuse)
{
	const uint64_t rd[1] = { 100 };
	struct simrun *s = mk(1, 3, rd, 60, 1000, 0);

	s->cfg.slack_events = 5;
	run(s);
	cr_assert_eq(s->rows[2].consumed[0], 65);
	cr_assert_eq(s->rows[2].overuse[0], 5);
	cr_assert_eq(s->res.total.overuse[0], 15);
	cr_assert_eq(s->res.total.max_overuse[0], 5);
	free(s);
}

Test(sim, reclaim_lets_the_busy_core_use_the_idle_cores_budget)
{
	const uint64_t rd[2] = { 200, 0 };
	struct simrun *s = mk(2, 4, rd, 100, 200, MEMREG_F_RECLAIM);

	run(s);
	/*
	 * The master donates for p + 1 from the demand of p - 1: periods 0
	 * and 1 run on the guarantees; from period 2 core 1 keeps 10 and
	 * core 0 takes the 90 it donated.  Row = period * 2 + core.
	 */
	cr_assert_eq(s->rows[0].consumed[0], 100);
	cr_assert_eq(s->rows[2].consumed[0], 100);
	cr_assert_eq(s->rows[3].budget_start[0], 100);
	cr_assert_eq(s->rows[4].consumed[0], 190);
	cr_assert_eq(s->rows[4].budget_end[0], 190);
	cr_assert_eq(s->rows[6].consumed[0], 190);
	cr_assert_eq(s->rows[5].budget_start[0], 10);
	cr_assert_eq(s->rows[7].budget_start[0], 10);
	cr_assert_eq(s->res.core[0].reclaimed[0], 180);
	cr_assert_eq(s->res.core[1].donated[0], 180 + 90, "also for period 4");
	s->cfg.reg.flags = 0;
	run(s);
	cr_assert_eq(s->rows[4].consumed[0], 100);
	free(s);
}

Test(sim, spare_sharing_after_all_cores_are_throttled)
{
	const uint64_t rd[2] = { 200, 200 };
	struct simrun *s = mk(2, 2, rd, 50, 300, MEMREG_F_SHARE);

	run(s);
	/* both exhaust 50, then share (300 - 100) / 2 = 100 each */
	cr_assert_eq(s->rows[0].consumed[0], 150);
	cr_assert_eq(s->rows[1].consumed[0], 150);
	cr_assert_eq(s->rows[0].budget_end[0], 150);
	cr_assert_eq(s->res.total.shared[0], 400);
	s->cfg.reg.flags = 0;
	run(s);
	cr_assert_eq(s->rows[0].consumed[0], 50);
	free(s);
}

Test(sim, monitor_mode_serves_everything)
{
	const uint64_t rd[2] = { 5000, 7 };
	struct simrun *s = mk(2, 3, rd, 10, 100, MEMREG_F_MONITOR);

	run(s);
	cr_assert_eq(s->res.total.served[0], 3 * 5007);
	cr_assert_eq(s->res.total.throttled_ns, 0);
	cr_assert_eq(s->rows[0].budget_start[0], MEMREG_BUDGET_INF);
	cr_assert_float_eq(s->res.total.achieved_ratio, 1.0, 1e-12);
	free(s);
}

Test(sim, lms_prediction_tracks_the_demand)
{
	const uint64_t rd[1] = { 800 };
	struct simrun *s = mk(1, 40, rd, 100, 10000, MEMREG_F_LMS);

	s->cfg.reg.lms.headroom = MEMREG_ONE / 4;
	s->cfg.reg.lms.cold_start[0] = 100;
	run(s);
	cr_assert_eq(s->rows[0].predicted[0], 100, "cold start");
	cr_assert_lt(s->rows[0].consumed[0], 800, "cold start budget throttles");
	cr_assert_eq(s->rows[39].consumed[0], 800, "adapted budget does not");
	cr_assert_geq(s->rows[39].budget_start[0], 800);
	cr_assert_leq(s->rows[39].budget_start[0], 1000 + 5);
	cr_assert_eq(s->rows[39].throttled_ns, 0);
	free(s);
}

Test(sim, bad_inputs_are_refused)
{
	const uint64_t rd[1] = { 1 };
	struct simrun *s = mk(1, 2, rd, 10, 100, 0);
	char why[256] = "";

	s->cfg.reg.nr_cpus = 2;
	cr_assert_eq(memreg_sim_run(&s->cfg, &s->t, &s->res, why, sizeof(why)),
		     MEMCAL_ERANGE);
	cr_assert(strstr(why, "nr_cpus"));
	s->cfg.reg.nr_cpus = 1;
	s->t.tick_ns = 0;
	cr_assert_eq(memreg_sim_run(&s->cfg, &s->t, &s->res, why, sizeof(why)),
		     MEMCAL_EINVAL);
	s->t.tick_ns = 100000;
	s->cfg.reg.period_ns = 100001;
	cr_assert_eq(memreg_sim_run(&s->cfg, &s->t, &s->res, why, sizeof(why)),
		     MEMCAL_EINVAL);
	cr_assert(strstr(why, "common step"));
	s->cfg.reg.period_ns = 5;
	cr_assert_eq(memreg_sim_run(&s->cfg, &s->t, &s->res, why, sizeof(why)),
		     MEMCAL_EINVAL);
	cr_assert(strstr(why, "period"));
	free(s);
}

/* Parse @text; returns the parser's result and fills @err. */
static int parse_text(const char *text, struct memreg_sim_trace_buf *tb,
		      char *err, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	cr_assert_not_null(f);
	ret = memreg_sim_trace_parse(f, "t.trace", tb, err, len);
	fclose(f);
	return ret;
}

Test(trace, good_file_with_comments_commas_and_bytes)
{
	struct memreg_sim_trace_buf tb;
	char err[256] = "";

	cr_assert_eq(parse_text("# recorded\nmemreg-trace 1\ntick_ns 100000\ncores 2\n"
				"unit bytes\nbytes_per_event 64\ndata\n"
				"640,64, 6400 0 # tick 0\n\n128 128 64 64\n",
				&tb, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(tb.trace.nr_ticks, 2);
	cr_assert_eq(tb.trace.nr_cores, 2);
	cr_assert_eq(tb.bytes_per_event, 64);
	cr_assert_eq(tb.trace.events[0], 10);
	cr_assert_eq(tb.trace.events[2], 100);
	cr_assert_eq(tb.trace.events[7], 1);
	memreg_sim_trace_free(&tb);
}

/* Expect @text refused with a message containing @needle. */
static void bad_trace(const char *text, const char *needle)
{
	struct memreg_sim_trace_buf tb;
	char err[256] = "";

	cr_assert_eq(parse_text(text, &tb, err, sizeof(err)), MEMCAL_ESYNTAX,
		     "accepted: %s", text);
	cr_assert(strstr(err, needle), "'%s' lacks '%s'", err, needle);
	cr_assert_null(tb.data);
}

Test(trace, bad_files_name_the_line_and_the_problem)
{
	bad_trace("", "empty");
	bad_trace("hello\n", "not a memreg trace");
	bad_trace("memreg-trace 2\n", "not a memreg trace");
	bad_trace("memreg-trace 1\ncores 1\ndata\n1 1\n", "tick_ns");
	bad_trace("memreg-trace 1\ntick_ns 10\ndata\n1 1\n", "cores");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 1\n", "missing 'data'");
	bad_trace("memreg-trace 1\ntick_ns 0\ncores 1\ndata\n", "tick_ns must");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 65\ndata\n", "cores must");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 1\nspeed 3\ndata\n", "unknown header key");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 1\nunit bytes\ndata\n1 1\n",
		  "bytes_per_event");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 1\nunit furlongs\ndata\n", "unit");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 1\ndata\n", "no data");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 2\ndata\n1 2 3 4\n1 2 3\n",
		  "t.trace:6: expected 4 numbers");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 1\ndata\n1 -2\n", ":5: not a non-negative");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 1\ndata\n1 2x\n", "not a non-negative");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 1\ndata\n1 2 3\n", "more than 2");
	bad_trace("memreg-trace 1\ntick_ns 10\ncores 1\ndata\n1 99999999999999999999999\n",
		  "not a non-negative");
	{
		static const char nul[] = "memreg-trace 1\ntick_ns 10\ncores 1\ndata\n1\0 2\n";
		struct memreg_sim_trace_buf tb;
		char err[256] = "";
		FILE *f = fmemopen((void *)nul, sizeof(nul) - 1, "r");

		cr_assert_eq(memreg_sim_trace_parse(f, "t.trace", &tb, err, sizeof(err)),
			     MEMCAL_ESYNTAX);
		cr_assert(strstr(err, "NUL"), "%s", err);
		fclose(f);
	}
}

/* Write @text to a temporary file; returns its malloc'd path. */
static char *tmp_trace(const char *text)
{
	char *path = strdup("/tmp/memreg-sim-test-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Run memreg-sim with @args; returns the exit status, output in @out. */
static int run_cli(const char *args, char *out, size_t len, int want_stderr)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s%s", MEMREG_SIM_EXE, args,
		 want_stderr ? " 2>&1" : " 2>/dev/null");
	return test_sh_buf(cmd, out, len);
}

Test(cli, bad_trace_file_gives_clear_error_and_exit_1)
{
	char out[8192], args[512];
	char *bad = tmp_trace("memreg-trace 1\ntick_ns 100000\ncores 2\ndata\n1 2 3 4\n5 6 7\n");

	snprintf(args, sizeof(args), "%s", bad);
	cr_assert_eq(run_cli(args, out, sizeof(out), 1), 1);
	cr_assert(strstr(out, ":6: expected 4 numbers"), "stderr: %s", out);
	snprintf(args, sizeof(args), "--json %s", bad);
	cr_assert_eq(run_cli(args, out, sizeof(out), 0), 1);
	cr_assert(strstr(out, "\"error\""), "json: %s", out);
	cr_assert_eq(run_cli("/nonexistent/trace", out, sizeof(out), 1), 1);
	cr_assert(strstr(out, "No such file"), "%s", out);
	cr_assert_eq(run_cli("--period-us 0 --nope x", out, sizeof(out), 1), 2);
	cr_assert_eq(run_cli("", out, sizeof(out), 1), 2, "no trace: usage");
	cr_assert_eq(run_cli("--taps banana x", out, sizeof(out), 1), 2);
	unlink(bad);
	free(bad);
}

Test(cli, good_trace_prints_table_and_valid_json)
{
	char out[65536], args[512];
	char *good = tmp_trace("memreg-trace 1\ntick_ns 100000\ncores 1\ndata\n"
			       "100 0\n100 0\n100 0\n");
	json_t *root, *sum;
	json_error_t jerr;

	snprintf(args, sizeof(args), "--guaranteed 60,10 --platform-ceiling 100,100 %s", good);
	cr_assert_eq(run_cli(args, out, sizeof(out), 1), 0, "%s", out);
	cr_assert(strstr(out, "thr.frac"), "%s", out);
	cr_assert(strstr(out, "0.4000"), "%s", out);
	snprintf(args, sizeof(args), "--json --guaranteed 60,10 --platform-ceiling 100,100 %s",
		 good);
	cr_assert_eq(run_cli(args, out, sizeof(out), 0), 0);
	root = json_loads(out, 0, &jerr);
	cr_assert_not_null(root, "bad JSON: %s", jerr.text);
	cr_assert_eq(json_array_size(json_object_get(root, "periods")), 3);
	sum = json_object_get(root, "summary");
	cr_assert_eq(json_integer_value(json_array_get(json_object_get(sum, "served"), 0)), 180);
	cr_assert_eq(json_integer_value(json_object_get(sum, "throttled_ns")), 120000);
	json_decref(root);
	/* over the ceiling: refused, unless --fit */
	snprintf(args, sizeof(args), "--guaranteed 200,10 --ceiling 1000,1000 --platform-ceiling 100,100 %s", good);
	cr_assert_eq(run_cli(args, out, sizeof(out), 1), 1);
	cr_assert(strstr(out, "sum of guaranteed"), "%s", out);
	snprintf(args, sizeof(args), "--fit --guaranteed 200,10 --ceiling 1000,1000 --platform-ceiling 100,100 %s",
		 good);
	cr_assert_eq(run_cli(args, out, sizeof(out), 1), 0, "%s", out);
	unlink(good);
	free(good);
}

Test(sim, spare_sharing_mode_releases_every_core_to_the_period_end)
{
	const uint64_t rd[2] = { 200, 170 };
	struct simrun *s = mk(2, 3, rd, 50, 300, MEMREG_F_SHARE);

	s->cfg.reg.share_mode = MEMREG_SHARE_SPARE;
	run(s);
	/* both exhaust 50, then run unregulated to the end of the period */
	cr_assert_eq(s->rows[0].consumed[0], 200);
	cr_assert_eq(s->rows[1].consumed[0], 170);
	cr_assert_eq(s->rows[0].budget_end[0], MEMREG_BUDGET_INF);
	cr_assert_eq(s->rows[2].budget_start[0], 50, "regulated again");
	cr_assert_eq(s->res.core[0].released, 3, "once per period");
	cr_assert_eq(s->rows[2].released, 1, "per-period row");
	cr_assert_eq(s->res.core[1].released, 3);
	cr_assert_eq(s->res.total.shared[0], 0, "no grant");
	/* one core below its budget: nobody is released */
	s->ev[2] = s->ev[6] = s->ev[10] = 40;
	run(s);
	cr_assert_eq(s->res.total.released, 0);
	cr_assert_eq(s->rows[0].consumed[0], 50);
	free(s);
}

Test(sim, proportional_sharing_mode_starts_new_periods)
{
	const uint64_t rd[2] = { 200, 200 };
	struct simrun *s = mk(2, 2, rd, 50, 300, MEMREG_F_SHARE);

	s->cfg.reg.share_mode = MEMREG_SHARE_PROPORTIONAL;
	run(s);
	/*
	 * 50 per (sub-)period: all throttled at 50, 100, 150 and 200 (the
	 * last exhausts exactly at the demand), a new period each time
	 */
	cr_assert_eq(s->rows[0].consumed[0], 200);
	cr_assert_eq(s->rows[1].consumed[0], 200);
	cr_assert_eq(s->res.core[0].restarts, 8, "4 per grid period");
	cr_assert_eq(s->rows[2].restarts, 4, "per-period row (period 1, cpu0)");
	cr_assert_eq(s->res.core[1].restarts, 8);
	cr_assert_eq(s->res.total.released, 0);
	free(s);
}

Test(cli, share_mode_option_and_its_json)
{
	char out[65536];
	char *good = tmp_trace("memreg-trace 1\ntick_ns 100000\ncores 2\ndata\n"
			       "200 0 200 0\n200 0 200 0\n");
	char args[512];
	json_t *root, *c0;
	json_error_t jerr;

	snprintf(args, sizeof(args), "--json --guaranteed 50,10 --platform-ceiling 300,300 "
		 "--share=spare %s", good);
	cr_assert_eq(run_cli(args, out, sizeof(out), 0), 0, "%s", out);
	root = json_loads(out, 0, &jerr);
	cr_assert_not_null(root, "bad JSON: %s", jerr.text);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "run"),
							   "share")), "spare");
	c0 = json_array_get(json_object_get(root, "cores"), 0);
	cr_assert_eq(json_integer_value(json_object_get(c0, "released")), 2);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(
		json_object_get(root, "periods"), 0), "released")), 1);
	json_decref(root);
	snprintf(args, sizeof(args), "--guaranteed 50,10 --platform-ceiling 300,300 "
		 "--share=proportional %s", good);
	cr_assert_eq(run_cli(args, out, sizeof(out), 1), 0, "%s", out);
	cr_assert(strstr(out, "restarts 8"), "%s", out);
	snprintf(args, sizeof(args), "--guaranteed 50,10 --platform-ceiling 300,300 "
		 "--share=sometimes %s", good);
	cr_assert_neq(run_cli(args, out, sizeof(out), 1), 0, "%s", out);
	unlink(good);
	free(good);
}
