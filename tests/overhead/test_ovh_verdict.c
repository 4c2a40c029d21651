// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ovh_verdict.c - bench/overhead's verdict program (ovh_verdict) on
 * recorded input: the table of a recorded full run (golden), the
 * every-load rule of a bistable monitor cell, an exhausted cell's
 * overshoot against its granule, the timer probe's explanation of a
 * master that ticks late, a missing load, and bad options.
 * Builds nothing in QEMU: the input is tests/fixtures/overhead/.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden.h"
#include "shell.h"

#define FIX MEMCAL_SOURCE_DIR "/tests/fixtures/overhead/"

/* verdict - run ovh_verdict with @args (stdout and stderr) into @out;
 * its exit status. */
static int verdict(const char *args, char *out, size_t len)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", OVH_VERDICT, args);
	return test_sh_buf(cmd, out, len);
}

/* tmp_input - @text in a temporary file; its path (static buffer). */
static const char *tmp_input(const char *text)
{
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/ovh-verdict-%d.txt", (int)getpid());
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* line - the table row of @cell in @out (copied into @buf). */
static const char *line(const char *out, const char *cell, char *buf,
			size_t len)
{
	char key[80];
	const char *p;

	snprintf(key, sizeof(key), "\n%s ", cell);
	p = strstr(out, key);
	cr_assert_not_null(p, "no row for %s in:\n%s", cell, out);
	p++;
	snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
	return buf;
}

Test(ovh_verdict, recorded_table_matches_golden)
{
	static char out[65536];
	int rc = verdict("--loads 3 " FIX "table-raw.txt", out, sizeof(out));

	cr_assert_eq(rc, 0, "exit %d:\n%s", rc, out);
	golden_check(FIX "table.golden", out);
}

Test(ovh_verdict, a_bistable_monitor_cell_misses_in_every_load_rule)
{
	char out[8192], row[256];
	const char *in = tmp_input(
		"OVH-RUN cell=monitor-32-cpu0-mother-modes load=0 rep=0 c_ns=1000 cp_ns=1100 complete=1\n"
		"OVH-STATS cell=monitor-32-cpu0-mother-modes load=0 periods=100 overflows=0 master_ticks=100\n"
		"OVH-RUN cell=monitor-32-cpu0-mother-modes load=1 rep=0 c_ns=1000 cp_ns=1100 complete=1\n"
		"OVH-STATS cell=monitor-32-cpu0-mother-modes load=1 periods=100 overflows=0 master_ticks=100\n"
		"OVH-RUN cell=monitor-32-cpu0-mother-modes load=2 rep=0 c_ns=1000 cp_ns=1500 complete=1\n"
		"OVH-STATS cell=monitor-32-cpu0-mother-modes load=2 periods=100 overflows=0 master_ticks=100\n");
	char args[256];
	int rc;

	snprintf(args, sizeof(args), "--cells monitor-32-cpu0-mother-modes %s", in);
	rc = verdict(args, out, sizeof(out));
	unlink(in);
	cr_assert_eq(rc, 0, "%s", out);
	line(out, "monitor-32-cpu0-mother-modes", row, sizeof(row));
	/* the median (1.10) is within 1.20, one load (1.50) is not */
	cr_assert(strstr(row, "1.1000 [1.1000..1.5000]") && strstr(row, "MISSED"),
		  "%s", row);
	cr_assert(strstr(out, "C'/C 1.5000 > 1.20 in a load"), "%s", out);
	cr_assert(strstr(out, "bistable: C'/C 1.1000..1.5000"), "%s", out);
	cr_assert(strstr(out, "0 of 1 cells MET"), "%s", out);
}

Test(ovh_verdict, exhausted_cell_judged_on_interrupts_and_overshoot)
{
	char out[8192], row[256], args[256];
	/* guarantee 500000, slack_div 8: granule 62500 */
	const char *in = tmp_input(
		"OVH-RUN cell=exhaust-1000-cpu1-mself-nomodes load=0 rep=0 c_ns=1000 cp_ns=2000 complete=1\n"
		"OVH-STATS cell=exhaust-1000-cpu1-mself-nomodes load=0 guarantee=500000 slack_div=8 periods=100 overflows=100 throttles=100 traced=100 over_median=1000 over_p97=2000\n"
		"OVH-RUN cell=exhaust-1000-cpu1-mself-modes load=0 rep=0 c_ns=1000 cp_ns=2000 complete=1\n"
		"OVH-STATS cell=exhaust-1000-cpu1-mself-modes load=0 guarantee=500000 slack_div=8 periods=100 overflows=250 throttles=100 traced=100 over_median=70000 over_p97=90000\n");
	int rc;

	snprintf(args, sizeof(args), "--loads 1 --cells 'exhaust-1000-cpu1-mself-*' %s", in);
	rc = verdict(args, out, sizeof(out));
	unlink(in);
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert(strstr(out, "NOTE: 1 load(s) per cell"), "%s", out);
	cr_assert(strstr(line(out, "exhaust-1000-cpu1-mself-nomodes", row,
			      sizeof(row)), " MET"), "%s", row);
	cr_assert(strstr(line(out, "exhaust-1000-cpu1-mself-modes", row,
			      sizeof(row)), "MISSED"), "%s", row);
	cr_assert(strstr(out, "2.50 PMU interrupts per period > 1.1"), "%s", out);
	cr_assert(strstr(out, "median overshoot 70000 > granule 62500 cycles"),
		  "%s", out);
}

Test(ovh_verdict, master_ticks_judged_against_the_modes)
{
	char out[8192], row[256], args[256];
	/* modes off: no tick at all; regulated with modes: >= 90 % */
	const char *in = tmp_input(
		"OVH-RUN cell=reg50-1000-cpu0-mself-nomodes load=0 rep=0 c_ns=1000 cp_ns=1005 complete=1\n"
		"OVH-STATS cell=reg50-1000-cpu0-mself-nomodes load=0 periods=100 overflows=0 master_ticks=50\n"
		"OVH-RUN cell=reg50-1000-cpu0-mself-modes load=0 rep=0 c_ns=1000 cp_ns=1005 complete=1\n"
		"OVH-STATS cell=reg50-1000-cpu0-mself-modes load=0 periods=100 overflows=0 master_ticks=85 master_skipped=15\n"
		"OVH-MODULE cell=reg50-1000-cpu0-mself-modes load=0 master cpu 0: 15 period ticks skipped\n"
		"OVH-RUN cell=reg50-1000-cpu0-mother-modes load=0 rep=0 c_ns=1000 cp_ns=1005 complete=1\n"
		"OVH-STATS cell=reg50-1000-cpu0-mother-modes load=0 periods=100 overflows=0 master_ticks=100\n");
	int rc;

	snprintf(args, sizeof(args), "--loads 1 --cells 'reg50-1000-cpu0-*' %s", in);
	rc = verdict(args, out, sizeof(out));
	unlink(in);
	/* reg50-1000-cpu0-mother-nomodes has no figures: exit 1 */
	cr_assert_eq(rc, 1, "%s", out);
	cr_assert(strstr(line(out, "reg50-1000-cpu0-mself-nomodes", row,
			      sizeof(row)), "MISSED"), "%s", row);
	cr_assert(strstr(out, "the master ticked (0.50 per period) with every "
			 "mode off"), "%s", out);
	cr_assert(strstr(out, "the master ticked in 85 % of the periods < 90 %"),
		  "%s", out);
	cr_assert(strstr(out, "15 master ticks skipped (master_skipped)"), "%s", out);
	cr_assert(strstr(out, "the module's error file in 1 load(s), e.g.: "
			 "master cpu 0: 15 period ticks skipped"), "%s", out);
	cr_assert(strstr(line(out, "reg50-1000-cpu0-mother-modes", row,
			      sizeof(row)), " MET"), "%s", row);
}

/* A regulated modes-on cell whose master on idle CPU 1 ticks in 40 % of
 * the periods, with the timer probe's lines for CPU 1 (@late_ns with CPU
 * 0 busy) and CPU 0; the verdict output into @out, its exit status. */
static int late_tick_cell(long long late_ns, char *out, size_t len)
{
	char text[2048], args[256];
	const char *in;
	int rc;

	snprintf(text, sizeof(text),
		 "OVH-TIMER load=0 cpu=1 other=busy period_us=1000 n=100 late_med_ns=%lld late_p90_ns=%lld late_max_ns=%lld over_period=%d\n"
		 "OVH-TIMER load=0 cpu=1 other=idle period_us=1000 n=100 late_med_ns=4800 late_p90_ns=8800 late_max_ns=20000 over_period=0\n"
		 "OVH-TIMER load=0 cpu=0 other=busy period_us=1000 n=100 late_med_ns=1400 late_p90_ns=4000 late_max_ns=96000000 over_period=23\n"
		 "OVH-RUN cell=reg50-1000-cpu0-mother-modes load=0 rep=0 c_ns=1000 cp_ns=1002 complete=1\n"
		 "OVH-STATS cell=reg50-1000-cpu0-mother-modes load=0 periods=100 overflows=2 master_ticks=40 master_skipped=60\n",
		 late_ns, late_ns + 2000, late_ns + 4000,
		 late_ns > 1000000 ? 100 : 0);
	in = tmp_input(text);
	snprintf(args, sizeof(args), "--loads 1 --cells reg50-1000-cpu0-mother-modes %s", in);
	rc = verdict(args, out, len);
	unlink(in);
	return rc;
}

Test(ovh_verdict, timer_probe_explains_a_master_the_emulator_delays)
{
	char out[8192];

	cr_assert_eq(late_tick_cell(3006400, out, sizeof(out)), 0, "%s", out);
	cr_assert(strstr(out, "the master ticked in 40 % of the periods < 90 %"),
		  "%s", out);
	cr_assert(strstr(out, "without memreg, a sleeper on idle CPU 1 wakes a "
			 "median 3006.4 us past its grid point while CPU 0 runs "
			 "(100 of 100 wakes more than a period late), 4.8 us "
			 "while CPU 0 idles too"), "%s", out);
	cr_assert(strstr(out, "1 missed cell(s) have their master on a CPU "
			 "whose timers this guest delivers late"), "%s", out);
	cr_assert(strstr(out, "\n1000   1   busy             3006.4       "
			 "3008.4 100 of 100\n"), "%s", out);
	/* a timer the guest delivers on time explains nothing */
	cr_assert_eq(late_tick_cell(5000, out, sizeof(out)), 0, "%s", out);
	cr_assert(strstr(out, "the master ticked in 40 %"), "%s", out);
	cr_assert_null(strstr(out, "without memreg, a sleeper"), "%s", out);
	cr_assert_null(strstr(out, "missed cell(s) have their master"), "%s", out);
}

Test(ovh_verdict, a_met_cell_whose_other_cpu_ran_late_is_listed)
{
	char out[8192], args[256];
	const char *in = tmp_input(
		"OVH-RUN cell=reg50-100-cpu0-mself-modes load=0 rep=0 c_ns=1000 cp_ns=1030 complete=1\n"
		"OVH-STATS cell=reg50-100-cpu0-mself-modes load=0 periods=600 overflows=0 master_ticks=600 other_periods=20 other_overruns=580\n"
		"OVH-RUN cell=reg50-100-cpu1-mself-modes load=0 rep=0 c_ns=1000 cp_ns=1060 complete=1\n"
		"OVH-STATS cell=reg50-100-cpu1-mself-modes load=0 periods=600 overflows=0 master_ticks=600 other_periods=600 other_overruns=1\n");

	snprintf(args, sizeof(args), "--loads 1 --cells 'reg50-100-cpu?-mself-modes' %s", in);
	cr_assert_eq(verdict(args, out, sizeof(out)), 0, "%s", out);
	unlink(in);
	cr_assert(strstr(out, "2 of 2 cells MET"), "%s", out);
	cr_assert(strstr(out, "\n  reg50-100-cpu0-mself-modes: 580 overruns in "
			 "20 periods\n"), "%s", out);
	cr_assert_null(strstr(out, "cpu1-mself-modes: 1 overruns"), "%s", out);
}

Test(ovh_verdict, a_malformed_timer_probe_line_exits_1)
{
	char out[4096], args[256];
	const char *in = tmp_input(
		"OVH-TIMER load=0 cpu=7 other=busy period_us=1000 n=100 late_med_ns=1 late_p90_ns=1 late_max_ns=1 over_period=0\n"
		"OVH-RUN cell=reg50-1000-cpu0-mother-modes load=0 rep=0 c_ns=1000 cp_ns=1002 complete=1\n"
		"OVH-STATS cell=reg50-1000-cpu0-mother-modes load=0 periods=100 overflows=2 master_ticks=100\n");

	snprintf(args, sizeof(args), "--loads 1 --cells reg50-1000-cpu0-mother-modes %s", in);
	cr_assert_eq(verdict(args, out, sizeof(out)), 1, "%s", out);
	unlink(in);
	cr_assert(strstr(out, "malformed line: OVH-TIMER load=0 cpu=7"), "%s", out);
}

Test(ovh_verdict, a_missing_load_is_reported_and_exit_1)
{
	char out[8192], args[256];
	const char *in = tmp_input(
		"OVH-RUN cell=reg50-100-cpu0-mother-modes load=0 rep=0 c_ns=1000 cp_ns=1010 complete=1\n"
		"OVH-STATS cell=reg50-100-cpu0-mother-modes load=0 periods=100 overflows=0\n"
		"OVH-ERROR cell=reg50-100-cpu0-mother-modes load=1 loading /memreg.ko failed: Invalid argument\n");
	int rc;

	snprintf(args, sizeof(args), "--loads 2 --cells reg50-100-cpu0-mother-modes %s", in);
	rc = verdict(args, out, sizeof(out));
	unlink(in);
	cr_assert_eq(rc, 1, "%s", out);
	cr_assert(strstr(out, "1 load(s) with figures, 2 requested"), "%s", out);
	cr_assert(strstr(out, "loading /memreg.ko failed: Invalid argument"),
		  "%s", out);
}

Test(ovh_verdict, bad_options_exit_2_with_a_reason)
{
	char out[4096];

	cr_assert_eq(verdict("--cells nosuchcell -", out, sizeof(out)), 2);
	cr_assert(strstr(out, "'nosuchcell' names no cell"), "%s", out);
	cr_assert_eq(verdict("--loads 0 -", out, sizeof(out)), 2);
	cr_assert(strstr(out, "--loads '0'"), "%s", out);
	cr_assert_eq(verdict("--bogus", out, sizeof(out)), 2);
	cr_assert(strstr(out, "unknown option '--bogus'"), "%s", out);
	cr_assert_eq(verdict("/nonexistent/raw.txt", out, sizeof(out)), 2);
	cr_assert(strstr(out, "cannot read /nonexistent/raw.txt"), "%s", out);
}

Test(ovh_verdict, list_names_all_48_cells)
{
	static char out[16384];
	int n = 0;

	cr_assert_eq(verdict("--list", out, sizeof(out)), 0);
	for (const char *p = out; (p = strchr(p, '\n')); p++)
		n++;
	cr_assert_eq(n, 48, "%s", out);
	cr_assert(strstr(out, "exhaust-1000-cpu1-mself-nomodes"), "%s", out);
}
