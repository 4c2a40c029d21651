/* SPDX-License-Identifier: GPL-2.0 */
/*
 * checklib - what the memreg guest checkers share (x86-64 and arm64, linked
 * statically into every guest program of tests/kernel/guest and
 * tests/arm64/guest):
 *
 *   plan and verdict lines   mr_plan(), mr_check()
 *   memreg's sysfs           mr_get(), mr_cpu(), mr_gets(), mr_put(), mr_commit()
 *   other files              mr_write()
 *   workloads                mr_run(), mr_spawn(), mr_hog(), mr_stop(),
 *                            mr_reap(), mr_field(),
 *                            mr_tasks(), mr_task_pid(), mr_stat_field(),
 *                            mr_throttle_prio()
 *   the module, CPUs         mr_insmod(), mr_rmmod(), mr_set_online()
 *   tracepoints              mr_trace_on(), mr_trace_off(), mr_trace_periods(),
 *                            mr_trace_line()
 *   hrtimers                 mr_timers()
 *   statistics               mr_median(), mr_quantile(), mr_per(), mr_round()
 *   page-fault workloads     mr_pf(), mr_per_period(), mr_pick_period()
 *   sub-commands             mr_dispatch()
 *
 * A guest declares the checks a group will run before running them
 * ("MEMREG-PLAN name..."), then prints one line per check,
 * "MEMREG-CHECK <name> PASS|FAIL <detail>"; the host harness
 * (scripts/qemu/lib.sh) passes a group only when every planned check
 * reported PASS and nothing unplanned was reported.
 */
#ifndef MEMREG_CHECKLIB_H
#define MEMREG_CHECKLIB_H

#include <stddef.h>
#include <sys/types.h>

#define MR_SYSFS "/sys/kernel/memreg"
#define MR_TRACE "/sys/kernel/tracing"
#define MR_CPU1_ONLINE "/sys/devices/system/cpu/cpu1/online"

/* mr_plan: print "MEMREG-PLAN" and the check names (NULL-terminated) */
void mr_plan(const char *name, ...);
/* mr_check: print the check's line; returns pass */
int mr_check(const char *name, int pass, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* mr_get: an integer attribute under MR_SYSFS (path printf-style); 0 when
 * it cannot be read, as the shell's rd() */
long long mr_get(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* mr_cpu: the per-CPU attribute cpuN/NAME */
long long mr_cpu(int cpu, const char *name);
/* mr_gets: a text attribute, its trailing newline removed ("" when it
 * cannot be read) */
const char *mr_gets(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* mr_put: write VAL to an attribute; 0 or -errno */
int mr_put(const char *val, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* mr_putll: write an integer to an attribute; 0 or -errno */
int mr_putll(long long val, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* mr_commit: write 1 to commit; 0 or -errno (the reason is in error) */
int mr_commit(void);
/* mr_write: write VAL to the file PATH (e.g. a CPU's online file or a
 * sysctl), truncating it as the shell's ">" does; 0 or -errno */
int mr_write(const char *path, const char *val);

/* mr_run: run ARGV (NULL-terminated), its stdout in OUT (one line, at
 * most N - 1 bytes); the exit status, -1 if it did not run */
int mr_run(char *out, size_t n, char *const argv[]);
/* mr_spawn: start ARGV in the background, its stdout to the file OUT
 * (/dev/null when NULL); its pid */
pid_t mr_spawn(const char *out, char *const argv[]);
/*
 * mr_klog_has: the kernel log holds NEEDLE (memreg logs every message it
 * puts into `error`, which holds only the last one: a runtime report can
 * replace a refusal before a check reads it)
 */
int mr_klog_has(const char *needle);
/* mr_hog: start /pfload on CPU for SECS seconds (page faults); its pid */
pid_t mr_hog(int cpu, int secs);
/* mr_stop: kill PID (if > 0) and reap it */
void mr_stop(pid_t pid);
/* mr_reap: wait for PID; its exit status */
int mr_reap(pid_t pid);
/* mr_field: the number after "KEY=" in LINE, DEF when absent */
double mr_field(const char *line, const char *key, double def);

/* One memreg:period trace event of one CPU (read class). */
struct mr_period {
	long long idx;		/* period number */
	long long used;		/* read events counted in the period */
	long long budget;	/* the period's read budget */
	int throttled;		/* the period ended throttled */
	int stale;		/* its budget was the guarantee: the master
				 * published none for it (tick skipped) */
};

/*
 * One line of the trace buffer ("  comm-pid  [001] d.h1.  12.345678: event:
 * args"): the CPU, the time stamp and the event's text.
 */
struct mr_trace_rec {
	int cpu;		/* the CPU in brackets */
	long long ns;		/* the time stamp (microseconds), in ns */
	const char *event;	/* "event: args" (points into the line) */
};

/* mr_trace_line: split LINE into *R; 0 for a comment or a malformed line */
int mr_trace_line(const char *line, struct mr_trace_rec *r);
/* mr_trace_on: clear the trace buffer and record memreg:EVENT */
void mr_trace_on(const char *event);
/* mr_trace_off: stop recording memreg:EVENT */
void mr_trace_off(const char *event);
/* mr_trace_periods: CPU's memreg:period events, sorted by period number,
 * in *OUT (malloc'ed); their count */
size_t mr_trace_periods(int cpu, struct mr_period **out);

/* The hrtimers of one function on one CPU, from /proc/timer_list. */
struct mr_timers {
	int n;			/* timers with the function on the CPU */
	long long phase;	/* soft expiry of the last one modulo the
				 * period asked for (ns); -1: none */
};

/* mr_timers: the hrtimers whose function is FN (e.g. mrk_timer_fn) on
 * CPU, their phase modulo P_NS, in *T; 0, or -1 when /proc/timer_list
 * cannot be read */
int mr_timers(int cpu, const char *fn, long long p_ns, struct mr_timers *t);
/* mr_timers_want: mr_timers(), read again up to 5 times 10 ms apart until
 * CPU shows WANT such timers: a timer whose callback is running at that
 * instant is not in the file */
int mr_timers_want(int cpu, const char *fn, long long p_ns, int want,
		   struct mr_timers *t);

/* mr_median: the median of V (sorted in place; the lower one of an even
 * count); -1 when N is 0 */
double mr_median(double *v, size_t n);
/* mr_quantile: V sorted in place, the element at rank max(1, floor(N Q))
 * (1-based); -1 when N is 0 */
double mr_quantile(double *v, size_t n, double q);
/* mr_per: A / B, with B = 0 taken as 1 (a count per period when no period
 * ended) */
double mr_per(double a, double b);

/* mr_tasks: the number of tasks whose name starts with PREFIX (-1 when
 * /proc cannot be read) */
int mr_tasks(const char *prefix);
/* mr_task_pid: the pid of a task named exactly COMM, -1 when none */
pid_t mr_task_pid(const char *comm);
/* mr_stat_field: field N (numbered as in proc(5), N >= 3: the state is 3)
 * of /proc/PID/stat into BUF; 0, or -1 when the task or field is missing */
int mr_stat_field(pid_t pid, int n, char *buf, size_t len);
/* mr_throttle_prio: the SCHED_FIFO priority of CPU's throttle thread
 * "memreg/CPU" (field 40 of its stat), -1 when there is none */
long mr_throttle_prio(int cpu);
/* mr_insmod: insmod KO with PARAMS (module parameters, space-separated);
 * the shell's exit status */
int mr_insmod(const char *ko, const char *params);
/* mr_rmmod: rmmod memreg; the shell's exit status */
int mr_rmmod(void);
/* mr_set_online: CPU offline (ON 0) or online (1); 0 or -errno */
int mr_set_online(int cpu, int on);

/* mr_round: X to the nearest integer, as the shell's printf "%.0f" */
long long mr_round(double x);

/* One run of /pfload (page faults on one CPU). */
struct mr_pf {
	double faults, secs, rate;	/* faults, seconds, faults/s */
	char line[256];			/* its output line */
};

/* mr_pf: /pfload on CPU for SECS seconds */
struct mr_pf mr_pf(int cpu, double secs);

/* What a CPU counted while /pfload ran on it (mr_per_period()). */
struct mr_pp {
	long long used;		/* read events per period, rounded */
	long long events;	/* read events */
	long long periods;	/* periods that ended */
	long long stat;		/* how much the statistic asked for grew */
};

/* mr_per_period: run /pfload on CPU for SECS; what the CPU counted
 * meanwhile, and the growth of its per-CPU statistic STAT */
struct mr_pp mr_per_period(int cpu, double secs, const char *stat);

/* cpu1 left unregulated (its counters could not be created): what says
 * so, and whether spare sharing went on without it (mr_left_out()). */
struct mr_left {
	int logged;			/* the kernel log names it */
	char msg[256];			/* that log line */
	long long th[2], sh[2];		/* cpu0's throttles and read_shared,
					 * 1 s apart */
};

/* mr_left_out: the kernel log's last "cpu 1 is not regulated" line (the
 * error file may hold a later report by then), and cpu0's throttles and
 * spare grants over the next second */
struct mr_left mr_left_out(void);

/* mr_pick_period: the period (us) for budgets of a fraction of the
 * unregulated page-fault rate R0 (faults/s) */
long long mr_pick_period(double r0);

/* One sub-command of a guest program that serves several checks: its
 * NAME, the number of arguments it takes (their names in ARGS, for the
 * usage line), and FN, given them, returning the exit status. */
struct mr_cmd {
	const char *name;
	int nargs;
	const char *args;
	int (*fn)(char **args);
};

/* mr_dispatch: stdout line-buffered, then the command of CMDS (N of them)
 * that ARGV[1] names, given ARGV[2..]; its exit status, or 2 with the
 * usage on stderr when none is named or the arguments do not match */
int mr_dispatch(const struct mr_cmd *cmds, size_t n, int argc, char **argv);

/* mr_now_ns: CLOCK_MONOTONIC in ns */
long long mr_now_ns(void);
/* mr_pin: run the caller on CPU; 0 or -errno */
int mr_pin(int cpu);
/* mr_sleep: sleep S seconds */
void mr_sleep(double s);

#endif
