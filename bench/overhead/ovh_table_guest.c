// SPDX-License-Identifier: GPL-2.0-only
/*
 * ovh_table_guest.c - the guest side of bench/overhead's table: for each
 * selected cell (ovh_cells.h), the pinned compute benchmark without the
 * module (C), memreg.ko loaded with the cell's parameters, the same
 * benchmark again (C'), memreg's statistics over the C' runs, unload.
 * It prints raw figures only; ovh_verdict.c on the host judges them.
 * Built statically for the arm64 guest by
 * tests/overhead/guest/overhead-qemu.sh --mode bench.
 *
 *   ovh_table_guest --ko /memreg.ko --cells PATTERNS --load L
 *                   [--reps R] [--ms MS] [--profile 1]
 *
 * Output, per cell (L: this boot's load index, R: repetition):
 *   OVH-RUN cell=NAME load=L rep=R c_ns=.. cp_ns=.. complete=0|1
 *   OVH-STATS cell=NAME load=L kind=.. period_us=.. cpu=.. master=..
 *       modes=0|1 guarantee=.. slack_div=.. periods=.. overflows=..
 *       throttles=.. overuse=.. events=.. stale=.. overruns=..
 *       perf_throttled=.. errors=.. master_ticks=.. master_skipped=..
 *       other_periods=.. other_overruns=..
 *       [exhausted cells: traced=N over_median=.. over_p97=.. over_max=..,
 *       the read overshoot at the throttles (used - budget, cycles)]
 *   OVH-MODULE cell=NAME load=L <what the module's "error" file says
 *       after the C' runs, when not "none": a finding, e.g. skipped ticks>
 *   OVH-ERROR cell=NAME load=L <why the cell could not be measured>
 * and, once per boot before any cell, without the module:
 *   OVH-TIMER load=L cpu=C other=busy|idle period_us=P n=.. late_med_ns=..
 *       late_p90_ns=.. late_max_ns=.. over_period=..
 *   how late a sleeper pinned to CPU C wakes past each grid point of a
 *   P us grid (the instants memreg's timers use) while the other CPU
 *   spins or idles; over_period: wakes more than a whole period late.
 *   It tells the emulator's timer delivery apart from the module's cost.
 * With --profile 1 (run.sh --profile), markers for the host's QEMU
 * plugin around each cell's C runs and C' runs, and
 *   OVH-PROF load=L kernel_text=ADDR        once per boot
 *   OVH-PROF cell=NAME load=L c=N cp=M      the plugin dumps (M lines)
 *                                           holding the C and C' runs
 *   OVH-MODULE-RANGE cell=NAME load=L base=ADDR size=BYTES
 *   OVH-SYM cell=NAME load=L ADDR FUNCTION  memreg's functions
 * Statistics are the differences over the C' runs, of the measured CPU
 * (master_*: global; other_*: the other CPU's; -1 where the module has
 * no such file).  Exit 0 when every cell ran, 1 otherwise.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "memreg_ctl.h"
#include "overhead_bench.h"
#include "overhead_kmod.h"
#include "ovh_cells.h"
#include "ovh_prof_guest.h"

#define MAXR	32
/* Most throttles traced per cell. */
#define MAXOVER	8192

/* Whose statistic: the measured CPU's, global, or the other CPU's. */
enum { MEASURED, GLOBAL, OTHER };

/* Statistics read per cell: output key, sysfs file, whose. */
static const struct { const char *key, *file; int whose; } stat_files[] = {
	{ "periods", "periods", MEASURED },
	{ "overflows", "overflows", MEASURED },
	{ "throttles", "throttles", MEASURED },
	{ "overuse", "read_overuse", MEASURED },
	{ "events", "read_events", MEASURED },
	{ "stale", "stale_budgets", MEASURED },
	{ "overruns", "overruns", MEASURED },
	{ "perf_throttled", "perf_throttled", MEASURED },
	{ "errors", "errors", MEASURED },
	{ "master_ticks", "master_ticks", GLOBAL },
	{ "master_skipped", "master_skipped", GLOBAL },
	{ "other_periods", "periods", OTHER },
	{ "other_overruns", "overruns", OTHER },
};
#define NSTATS	(sizeof(stat_files) / sizeof(stat_files[0]))

/* read_stats - every statistic for measured CPU @cpu into @v (-1: no
 * such file). */
static void read_stats(unsigned cpu, long long *v)
{
	struct memreg_ctl *c = memreg_ctl_open(NULL);
	int other = (int)((cpu + 1) % OVH_CELL_CPUS);

	for (size_t i = 0; i < NSTATS; i++) {
		int w = stat_files[i].whose;
		uint64_t x;

		v[i] = c && !memreg_ctl_read_u64(c, w == GLOBAL ? -1 :
						 w == OTHER ? other : (int)cpu,
						 stat_files[i].file, &x) ?
		       (long long)x : -1;
	}
	memreg_ctl_close(c);
}

#define TRACE	"/sys/kernel/tracing/"

/* put - write @v to the file @path; 0 or -1. */
static int put(const char *path, const char *v)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		return -1;
	bad = fputs(v, f) < 0;
	return fclose(f) || bad ? -1 : 0;
}

/* trace_throttles - the memreg:throttle tracepoint on (@on) or off. */
static int trace_throttles(int on)
{
	if (on && (put(TRACE "tracing_on", "0") || put(TRACE "trace", "") ||
		   put(TRACE "buffer_size_kb", "4096")))
		return -1;
	return put(TRACE "events/memreg/throttle/enable", on ? "1" : "0") ||
	       put(TRACE "tracing_on", on ? "1" : "0") ? -1 : 0;
}

/* cmp_ll - qsort for long long. */
static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/*
 * overshoots - the read-class throttles of @cpu in the trace buffer:
 * "used - budget" at each, sorted into @v (at most @max); their count.
 * The period statistics cannot give it: the cycle counter goes on
 * counting while the CPU is held, so read_overuse is the rest of the
 * period, not the overshoot.
 */
static size_t overshoots(unsigned cpu, long long *v, size_t max)
{
	FILE *f = fopen(TRACE "trace", "r");
	char line[512], key[32];
	size_t n = 0;

	if (!f)
		return 0;
	snprintf(key, sizeof(key), "throttle: cpu=%u ", cpu);
	while (fgets(line, sizeof(line), f) && n < max) {
		const char *p = strstr(line, key), *u;
		unsigned long long used, budget;

		if (p && strstr(p, "class=read") && (u = strstr(p, "used=")) &&
		    sscanf(u, "used=%llu budget=%llu", &used, &budget) == 2)
			v[n++] = (long long)used - (long long)budget;
	}
	fclose(f);
	qsort(v, n, sizeof(*v), cmp_ll);
	return n;
}

/* module_error - the module's "error" file, "none" after a good commit. */
static void module_error(char *buf, size_t len)
{
	struct memreg_ctl *c = memreg_ctl_open(NULL);

	if (!c || memreg_ctl_last_error(c, buf, len))
		snprintf(buf, len, "none");
	memreg_ctl_close(c);
}

/*
 * run_cell - C @reps times (each bounded by 30 x @ms), load, C' @reps
 * times, unload; print the figures.  Returns 0, or -1 after printing
 * why the cell did not run.
 */
static int run_cell(const struct ovh_cell *cell, const char *ko,
		    struct ovh_run_spec *s, unsigned load, unsigned reps,
		    unsigned ms, bool profile)
{
	unsigned mark_c, mark_cp;
	double c[MAXR], cp[MAXR];
	bool done[MAXR];
	long long s0[NSTATS], s1[NSTATS];
	char params[512], why[512];
	struct memreg_ctl *ctl;
	struct ovh_sample smp;
	static long long over[MAXOVER];
	size_t nover = 0;
	int rc;

	s->bench_cpu = cell->cpu;
	ovh_prof_mark();
	for (unsigned r = 0; r < reps; r++) {
		s->limit_ns = 30ull * ms * 1000000u;
		if ((rc = cal_ovh_run_once(s, &smp))) {
			printf("OVH-ERROR cell=%s load=%u C run failed: %s\n",
			       cell->name, load, strerror(-rc));
			return -1;
		}
		c[r] = smp.est_ns;
	}
	mark_c = ovh_prof_mark();
	if (ovh_cell_params(cell, params, sizeof(params))) {
		printf("OVH-ERROR cell=%s load=%u parameters too long\n",
		       cell->name, load);
		return -1;
	}
	ctl = memreg_ctl_open(NULL);
	rc = ctl ? memreg_ctl_load(ctl, ko, params) : -ENOMEM;
	if (rc) {
		printf("OVH-ERROR cell=%s load=%u loading %s (%s) failed: %s\n",
		       cell->name, load, ko, params,
		       ctl && memreg_ctl_error(ctl)[0] ? memreg_ctl_error(ctl) :
		       strerror(-rc));
		memreg_ctl_close(ctl);
		return -1;
	}
	memreg_ctl_close(ctl);
	if (profile && ovh_prof_module(cell->name, load)) {
		cal_ovh_kmod_unload(why, sizeof(why));
		return -1;
	}
	read_stats(cell->cpu, s0);
	if (cell->kind == OVH_CELL_EXHAUST && trace_throttles(1))
		printf("OVH-ERROR cell=%s load=%u cannot enable the "
		       "memreg:throttle tracepoint\n", cell->name, load);
	ovh_prof_mark();
	for (unsigned r = 0; r < reps && !rc; r++) {
		/* exhausted cells run at about half speed: room for that */
		s->limit_ns = (uint64_t)(8 * c[r]) + 4000ull * cell->period_us;
		rc = cal_ovh_run_once(s, &smp);
		if (rc)
			break;
		cp[r] = isfinite(smp.est_ns) ? smp.est_ns :
			(double)smp.elapsed_ns;
		done[r] = smp.complete;
	}
	mark_cp = ovh_prof_mark();
	read_stats(cell->cpu, s1);
	if (cell->kind == OVH_CELL_EXHAUST) {
		trace_throttles(0);
		nover = overshoots(cell->cpu, over, MAXOVER);
	}
	module_error(why, sizeof(why));
	if (strcmp(why, "none"))
		printf("OVH-MODULE cell=%s load=%u %s\n", cell->name, load,
		       why);
	if (cal_ovh_kmod_unload(why, sizeof(why))) {
		printf("OVH-ERROR cell=%s load=%u %s\n", cell->name, load, why);
		return -1;
	}
	if (rc) {
		printf("OVH-ERROR cell=%s load=%u C' run failed: %s\n",
		       cell->name, load, strerror(-rc));
		return -1;
	}
	for (unsigned r = 0; r < reps; r++)
		printf("OVH-RUN cell=%s load=%u rep=%u c_ns=%.0f cp_ns=%.0f "
		       "complete=%d\n", cell->name, load, r, c[r], cp[r],
		       done[r]);
	printf("OVH-STATS cell=%s load=%u kind=%s period_us=%u cpu=%u "
	       "master=%u modes=%d guarantee=%llu slack_div=8", cell->name,
	       load, ovh_cell_kind_name(cell->kind), cell->period_us,
	       cell->cpu, ovh_cell_master(cell), cell->modes,
	       ovh_cell_guarantee(cell));
	for (size_t i = 0; i < NSTATS; i++)
		printf(" %s=%lld", stat_files[i].key,
		       s0[i] < 0 || s1[i] < 0 ? -1 : s1[i] - s0[i]);
	if (cell->kind == OVH_CELL_EXHAUST)
		printf(" traced=%zu over_median=%lld over_p97=%lld "
		       "over_max=%lld", nover, nover ? over[nover / 2] : -1,
		       nover ? over[nover * 97 / 100] : -1,
		       nover ? over[nover - 1] : -1);
	printf("\n");
	if (profile)
		printf("OVH-PROF cell=%s load=%u c=%u cp=%u\n", cell->name,
		       load, mark_c, mark_cp);
	fflush(stdout);
	return 0;
}

/* Grid points slept to per timer probe, by period. */
#define PROBE_MAX	1000

/* now_ns - CLOCK_MONOTONIC in ns. */
static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ull +
	       (unsigned long long)t.tv_nsec;
}

/*
 * timer_probe - with no module loaded, sleep on CPU @cpu to @n
 * successive grid points of a @period_us grid (absolute CLOCK_MONOTONIC
 * sleeps, timer slack 1 ns) while the other CPU spins (@busy) or idles,
 * and print how late each wake was.  Returns 0, or -1 after printing why
 * it could not run.
 */
static int timer_probe(unsigned load, unsigned cpu, int busy,
		       unsigned period_us, unsigned n)
{
	static long long late[PROBE_MAX];
	unsigned long long p = period_us * 1000ull;
	unsigned over = 0;
	pid_t spin = -1;
	int rc = 0;

	if (busy) {
		spin = fork();
		if (spin == 0) {
			volatile unsigned long long x = 0;

			if (cal_ovh_pin_self((cpu + 1) % OVH_CELL_CPUS))
				_exit(1);
			for (;;)
				x++;
		}
		if (spin < 0) {
			printf("OVH-ERROR timer probe: fork: %s\n",
			       strerror(errno));
			return -1;
		}
	}
	rc = cal_ovh_pin_self(cpu);
	if (!rc && prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0))
		rc = -errno;
	if (rc) {
		printf("OVH-ERROR timer probe on cpu %u: %s\n", cpu,
		       strerror(-rc));
		rc = -1;
		goto out;
	}
	usleep(2000);	/* the spinner runs on its CPU by now */
	for (unsigned i = 0; i < n; i++) {
		unsigned long long t = (now_ns() / p + 1) * p;
		struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ull),
				       .tv_nsec = (long)(t % 1000000000ull) };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
		late[i] = (long long)(now_ns() - t);
		over += late[i] > (long long)p;
	}
	qsort(late, n, sizeof(*late), cmp_ll);
	printf("OVH-TIMER load=%u cpu=%u other=%s period_us=%u n=%u "
	       "late_med_ns=%lld late_p90_ns=%lld late_max_ns=%lld "
	       "over_period=%u\n", load, cpu, busy ? "busy" : "idle",
	       period_us, n, late[n / 2], late[n * 9 / 10], late[n - 1], over);
	fflush(stdout);
out:
	if (spin > 0) {
		kill(spin, SIGKILL);
		waitpid(spin, NULL, 0);
	}
	return rc;
}

/*
 * timer_probes - timer_probe() on each CPU with the other CPU busy and
 * idle, at each period the cells use; the number of failed probes.
 */
static int timer_probes(unsigned load)
{
	static const struct { unsigned period_us, n; } grid[] = {
		{ 1000, 100 }, { 100, 300 }, { 32, PROBE_MAX },
	};
	cpu_set_t all;
	int fails = 0;

	if (sched_getaffinity(0, sizeof(all), &all))
		CPU_ZERO(&all);
	for (unsigned g = 0; g < sizeof(grid) / sizeof(grid[0]); g++)
		for (unsigned cpu = 0; cpu < OVH_CELL_CPUS; cpu++)
			for (int busy = 1; busy >= 0; busy--)
				fails += timer_probe(load, cpu, busy,
						     grid[g].period_us,
						     grid[g].n) != 0;
	if (CPU_COUNT(&all))
		sched_setaffinity(0, sizeof(all), &all);
	return fails;
}

/* usage - the command line, on stderr. */
static int usage(void)
{
	fprintf(stderr, "usage: ovh_table_guest --ko PATH --cells PATTERNS "
		"--load L [--reps R (1..%d)] [--ms MS] [--profile 0|1]\n",
		MAXR);
	return 2;
}

/* main - calibrate the benchmark, run every selected cell. */
int main(int argc, char **argv)
{
	static struct ovh_cell cells[OVH_CELLS_MAX];
	const char *ko = "/memreg.ko", *pat = "all";
	unsigned load = 0, reps = 3, ms = 20;
	struct ovh_workload w = { .kind = OVH_BENCH_COMPUTE };
	struct ovh_run_spec s = { 0 };
	char why[256];
	size_t n;
	int fails = 0, rc;
	bool profile = false;

	for (int i = 1; i + 1 < argc; i += 2) {
		const char *a = argv[i], *v = argv[i + 1];

		if (!strcmp(a, "--ko"))
			ko = v;
		else if (!strcmp(a, "--cells"))
			pat = v;
		else if (!strcmp(a, "--load"))
			load = (unsigned)atoi(v);
		else if (!strcmp(a, "--reps"))
			reps = (unsigned)atoi(v);
		else if (!strcmp(a, "--ms"))
			ms = (unsigned)atoi(v);
		else if (!strcmp(a, "--profile"))
			profile = atoi(v) != 0;
		else
			return usage();
	}
	if (!(argc % 2) || !reps || reps > MAXR || !ms)
		return usage();
	if (ovh_cells_select(pat, cells, OVH_CELLS_MAX, &n, why, sizeof(why))) {
		printf("OVH-ERROR %s\n", why);
		return 2;
	}
	s.bench_fifo = cal_ovh_fifo_allowed();
	rc = cal_ovh_calibrate_units(&w, 0, (uint64_t)ms * 1000000u, s.bench_fifo,
				 NULL, NULL);
	if (rc) {
		printf("OVH-ERROR calibrating the benchmark: %s\n",
		       strerror(-rc));
		return 1;
	}
	s.w = &w;
	s.master_cpu = -1;
	printf("OVH-INFO bench=compute units=%llu ms=%u reps=%u load=%u "
	       "cells=%zu fifo=%d\n", (unsigned long long)w.units, ms, reps,
	       load, n, s.bench_fifo);
	fflush(stdout);
	if (profile && ovh_prof_boot(load))
		return 1;
	fails += timer_probes(load);
	for (size_t i = 0; i < n; i++)
		fails += run_cell(&cells[i], ko, &s, load, reps, ms,
				  profile) != 0;
	return fails ? 1 : 0;
}
